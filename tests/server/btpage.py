#!/usr/bin/env python3
"""btpage.py -- damage a B-tree index file while its server is down
(tests/server/run.sh, group damage).

  btpage.py FILE flip BLOCK OFFSET
      xor byte OFFSET of block BLOCK with 0xff, leaving the page's checksum
      as it was: the next read fails its checksum (XX001)
  btpage.py FILE set BLOCK OFFSET HEX
      write the bytes HEX at OFFSET of block BLOCK and store the page's
      new checksum, so that the page is read and only the B-tree's own
      checks can find what is wrong
  btpage.py FILE special BLOCK
      print the block's special-space offset (pd_special)
  btpage.py FILE item BLOCK N
      print the page offset of item N (its line pointer's lp_off)
  btpage.py FILE garbage
      overwrite every block with bytes that are no page at all

The checksum is PostgreSQL's data checksum (pg_checksum_page, which
src/storage/page.c implements as tdb_page_checksum): 32 FNV-1a-like lanes
over the page with pd_checksum taken as 0, two rounds of zeros, the lanes
xor-folded, the block number xored in, reduced to 1..65535.
"""
import struct
import sys

BLCKSZ = 8192
LANES = 32
FNV_PRIME = 16777619
SEEDS = [
    0x5B1F36E9, 0xB8525960, 0x02AB50AA, 0x1DE66D2A, 0x79FF467A, 0x9BB9F8A3,
    0x217E7CD2, 0x83E13D2C, 0xF8D4474F, 0xE39EB970, 0x42C6AE16, 0x993216FA,
    0x7B093B5D, 0x98DAFF3C, 0xF718902A, 0x0B1C9CDB, 0xE58F764B, 0x187636BC,
    0x5D7B3BB1, 0xE73DE7DE, 0x92BEC979, 0xCCA6C0B2, 0x304A0979, 0x85AA43D4,
    0x783125BB, 0x6CA8EAA2, 0xE407EAC6, 0x4B5CFC3E, 0x9FBF8C76, 0x15CA20BE,
    0xF2CA9FD3, 0x959BD756,
]


def checksum(page, blkno):
    words = list(struct.unpack("<%dI" % (BLCKSZ // 4), page))
    words[2] &= 0xFFFF0000  # pd_checksum counts as zero
    sums = list(SEEDS)
    for row in range(BLCKSZ // (4 * LANES)):
        base = row * LANES
        for j in range(LANES):
            tmp = sums[j] ^ words[base + j]
            sums[j] = ((tmp * FNV_PRIME) & 0xFFFFFFFF) ^ (tmp >> 17)
    for _ in range(2):
        for j in range(LANES):
            tmp = sums[j]
            sums[j] = ((tmp * FNV_PRIME) & 0xFFFFFFFF) ^ (tmp >> 17)
    result = 0
    for s in sums:
        result ^= s
    result ^= blkno
    return result % 65535 + 1


def main(argv):
    path, op = argv[1], argv[2]
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        if op == "garbage":
            for i in range(len(data)):
                data[i] = (i * 131 + 17) % 251
            f.seek(0)
            f.write(data)
            return 0
        blk = int(argv[3])
        page = data[blk * BLCKSZ:(blk + 1) * BLCKSZ]
        if op == "special":
            print(struct.unpack_from("<H", page, 16)[0])
            return 0
        if op == "item":
            n = int(argv[4])
            lp = struct.unpack_from("<I", page, 24 + 4 * (n - 1))[0]
            print(lp & 0x7FFF)
            return 0
        off = int(argv[4])
        if op == "flip":
            page[off] ^= 0xFF
        elif op == "set":
            new = bytes.fromhex(argv[5])
            page[off:off + len(new)] = new
            struct.pack_into("<H", page, 8, checksum(bytes(page), blk))
        else:
            print("btpage.py: unknown operation " + op, file=sys.stderr)
            return 2
        f.seek(blk * BLCKSZ)
        f.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
