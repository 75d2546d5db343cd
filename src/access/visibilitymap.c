/*
 * visibilitymap.c -- the visibility map (visibilitymap.h): PostgreSQL
 * 15's format, kept by VACUUM and by every change to a heap page.
 *
 * Format.  The map is the relation's VISIBILITYMAP_FORKNUM fork.  Each
 * map page is an ordinary page: a standard header (tdb_page_init, no
 * line pointers, no special space; checksummed like any page when
 * written) followed by VM_MAPSIZE = 8168 bytes of bitmap, two bits per
 * heap page, four heap pages a byte, lowest bits first:
 *
 *     map page m, byte i, bits 2k..2k+1  <->  heap block
 *         m * VM_HEAPBLOCKS_PER_PAGE + i * 4 + k
 *
 * The fork is created by its first extension and extended with
 * initialized empty pages (all bits clear) up to the page that is
 * needed; a page read as all zeros (an extension cut short by a crash)
 * is initialized when found.  A heap page past the map's end has no bits
 * set.  What differs from PostgreSQL on disk: pd_lsn stays 0 (no WAL).
 *
 * Invariant: a set bit is never wrong -- ALL_VISIBLE set means every
 * tuple on the heap page is visible to every snapshot that exists or
 * will be taken, in memory and on disk, and after any crash.  Kept by:
 *
 *   1. Setting (VACUUM only).  Under the heap page's cleanup lock VACUUM
 *      finds every remaining tuple LIVE with a committed xmin older than
 *      the horizon (so no snapshot can miss it) and no deleter, and sets
 *      PD_ALL_VISIBLE on the page.  It sets the map bit only later
 *      (vacuum.c), after the heap pages were written and fsynced with
 *      that flag, holding a share lock on the heap page and finding the
 *      flag still there.  So a set bit on disk always has the flag on
 *      the heap page on disk.
 *   2. Clearing (every writer).  Every change to a heap page -- insert
 *      (single, multi-row, COPY, the TOAST chunk store, catalog rows),
 *      delete, update (old and new page) -- calls tdb_vm_clear_page
 *      under the heap page's exclusive lock before changing it: if the
 *      page has PD_ALL_VISIBLE, the flag and the map bits are cleared
 *      there and then, as PostgreSQL does (so an aborted insert has
 *      cleared them too).  Because of 1, a page without the flag in
 *      memory has no bit set anywhere, so no change escapes the check.
 *   3. Write order.  The cleared bit is marked with
 *      tdb_buf_mark_dirty_before_main: before the buffer pool writes
 *      any heap page of the relation (eviction, commit's flush,
 *      shutdown), it writes and fsyncs the map's dirty pages.  The heap
 *      page carrying the change was copied for writing after the bit was
 *      cleared (both under the heap page's lock), so the cleared bit is
 *      on disk first.  A crash before the heap write leaves the old heap
 *      page (still all-visible) with a clear bit: allowed.
 *   4. Losing a set.  A bit set by VACUUM may be lost in a crash (its
 *      page not written yet): a missed optimization, never wrong.  The
 *      flag without the bit is harmless too (the next change clears the
 *      flag; the next VACUUM sets the bit again).
 *
 * A torn map page (a crash during its write) fails its checksum on the
 * next read, as any torn page does until the WAL brings full-page
 * images.
 *
 * Entry points: tdb_vm_get_status, tdb_vm_pin, tdb_vm_pin_ok,
 * tdb_vm_set, tdb_vm_clear, tdb_vm_clear_page, tdb_vm_count,
 * tdb_vm_truncate.
 */
#include "common/base.h"

#include "access/visibilitymap.h"
#include "common/elog.h"
#include "storage/page.h"

_Static_assert(VM_MAPSIZE == 8168, "PostgreSQL's MAPSIZE for 8 kB pages");
_Static_assert(VM_HEAPBLOCKS_PER_PAGE == 32672,
               "PostgreSQL's HEAPBLOCKS_PER_PAGE for 8 kB pages");

/* The bitmap of a map page. */
static inline uint8 *
map_bytes(Page page)
{
    return (uint8 *)page + MAXALIGN(SizeOfPageHeaderData);
}

/*
 * Pin map block mapblk into *vmbuf (releasing another page it held).
 * extend: extend the map with empty pages up to mapblk if it is shorter;
 * else return false (nothing pinned) for a block past the end.
 */
static bool
map_pin(Relation rel, BlockNumber mapblk, Buffer *vmbuf, bool extend)
{
    RelFileNumber file = rel->rd_relfilenumber;
    Page page;

    if (*vmbuf != InvalidBuffer) {
        if (tdb_buf_block_number(*vmbuf) == mapblk)
            return true;
        tdb_buf_release(*vmbuf);
        *vmbuf = InvalidBuffer;
    }
    if (mapblk >= tdb_buf_fork_nblocks(file, VISIBILITYMAP_FORKNUM)) {
        if (!extend)
            return false;
        /* each new page is initialized and written at once by the pool;
         * the fork's extension lock serializes concurrent extenders */
        while (mapblk >= tdb_buf_fork_nblocks(file, VISIBILITYMAP_FORKNUM)) {
            BlockNumber blkno;
            Buffer buf =
                tdb_buf_extend_fork(file, VISIBILITYMAP_FORKNUM, NULL, &blkno);

            tdb_buf_unlock_release(buf);
        }
    }
    *vmbuf = tdb_buf_read_fork(file, VISIBILITYMAP_FORKNUM, mapblk, NULL);
    page = tdb_buf_page(*vmbuf);
    if (unlikely(tdb_page_is_new(page))) {
        /* an extension a crash cut short: give it its header */
        tdb_buf_lock(*vmbuf, BUF_LOCK_EXCLUSIVE);
        if (tdb_page_is_new(page)) {
            tdb_page_init(page, 0);
            tdb_buf_mark_dirty(*vmbuf);
        }
        tdb_buf_lock(*vmbuf, BUF_LOCK_UNLOCK);
    }
    return true;
}

uint8
tdb_vm_get_status(Relation rel, BlockNumber heapblk, Buffer *vmbuf)
{
    const volatile uint8 *map;

    if (!map_pin(rel, VM_HEAPBLK_TO_MAPBLOCK(heapblk), vmbuf, false))
        return 0;
    /* one byte: a torn read is impossible; see visibilitymap.h */
    map = map_bytes(tdb_buf_page(*vmbuf));
    return (uint8)((map[VM_HEAPBLK_TO_MAPBYTE(heapblk)] >>
                    VM_HEAPBLK_TO_OFFSET(heapblk)) &
                   VISIBILITYMAP_VALID_BITS);
}

void
tdb_vm_pin(Relation rel, BlockNumber heapblk, Buffer *vmbuf)
{
    (void)map_pin(rel, VM_HEAPBLK_TO_MAPBLOCK(heapblk), vmbuf, true);
}

bool
tdb_vm_pin_ok(BlockNumber heapblk, Buffer vmbuf)
{
    return vmbuf != InvalidBuffer &&
           tdb_buf_block_number(vmbuf) == VM_HEAPBLK_TO_MAPBLOCK(heapblk);
}

/* Raise unless vmbuf is the map page of heapblk of rel (a caller's bug). */
static void
check_vm_buffer(Relation rel, BlockNumber heapblk, Buffer vmbuf)
{
    if (!tdb_vm_pin_ok(heapblk, vmbuf) ||
        tdb_buf_fork_number(vmbuf) != VISIBILITYMAP_FORKNUM ||
        tdb_buf_relnumber(vmbuf) != rel->rd_relfilenumber)
        elog(ERROR, "wrong visibility map buffer for block %u of \"%s\"",
             heapblk, rel->rd_name);
}

/* flags (VISIBILITYMAP_*) shifted to heapblk's place in its map byte. */
static inline uint8
map_bits(BlockNumber heapblk, uint8 flags)
{
    return (uint8)((flags & VISIBILITYMAP_VALID_BITS)
                   << VM_HEAPBLK_TO_OFFSET(heapblk));
}

bool
tdb_vm_set(Relation rel, BlockNumber heapblk, Buffer heapbuf, Buffer vmbuf,
           uint8 flags)
{
    uint8 *map;
    uint32 byte = VM_HEAPBLK_TO_MAPBYTE(heapblk);
    uint8 bits = map_bits(heapblk, flags);
    bool changed = false;

    check_vm_buffer(rel, heapblk, vmbuf);
    if (tdb_buf_block_number(heapbuf) != heapblk ||
        !tdb_page_flag_is_set(tdb_buf_page(heapbuf), PD_ALL_VISIBLE))
        elog(ERROR,
             "setting visibility map bits of block %u of \"%s\" "
             "whose page is not all-visible",
             heapblk, rel->rd_name);
    tdb_buf_lock(vmbuf, BUF_LOCK_EXCLUSIVE);
    map = map_bytes(tdb_buf_page(vmbuf));
    if ((map[byte] & bits) != bits) {
        map[byte] |= bits;
        tdb_buf_mark_dirty(vmbuf);
        changed = true;
    }
    tdb_buf_lock(vmbuf, BUF_LOCK_UNLOCK);
    return changed;
}

bool
tdb_vm_clear(Relation rel, BlockNumber heapblk, Buffer vmbuf, uint8 flags)
{
    uint8 *map;
    uint32 byte = VM_HEAPBLK_TO_MAPBYTE(heapblk);
    uint8 bits = map_bits(heapblk, flags);
    bool changed = false;

    check_vm_buffer(rel, heapblk, vmbuf);
    tdb_buf_lock(vmbuf, BUF_LOCK_EXCLUSIVE);
    map = map_bytes(tdb_buf_page(vmbuf));
    if (map[byte] & bits) {
        map[byte] &= (uint8)~bits;
        tdb_buf_mark_dirty_before_main(vmbuf);
        changed = true;
    }
    tdb_buf_lock(vmbuf, BUF_LOCK_UNLOCK);
    return changed;
}

void
tdb_vm_clear_page(Relation rel, Buffer heapbuf)
{
    Page page = tdb_buf_page(heapbuf);
    BlockNumber heapblk;
    Buffer vmbuf = InvalidBuffer;

    if (likely(!tdb_page_flag_is_set(page, PD_ALL_VISIBLE)))
        return;
    heapblk = tdb_buf_block_number(heapbuf);
    /* bits are set only on pages the map reaches (invariant 1) */
    if (map_pin(rel, VM_HEAPBLK_TO_MAPBLOCK(heapblk), &vmbuf, false)) {
        TDB_TRY();
        {
            (void)tdb_vm_clear(rel, heapblk, vmbuf, VISIBILITYMAP_VALID_BITS);
        }
        TDB_CATCH();
        {
            tdb_buf_release(vmbuf);
            TDB_RE_THROW();
        }
        TDB_END_TRY();
        tdb_buf_release(vmbuf);
    }
    /* after the bit: a copy of the heap page without the flag is never
     * written while the bit may still be set on disk (invariant 3) */
    tdb_page_flag_clear(page, PD_ALL_VISIBLE);
}

/* Set bits per byte value, ALL_VISIBLE and ALL_FROZEN (popcount of the
 * even and odd bits). */
static inline uint32
count_bits(uint8 b, uint8 mask)
{
    return (uint32)__builtin_popcount((unsigned)(b & mask));
}

void
tdb_vm_count(Relation rel, BlockNumber *all_visible, BlockNumber *all_frozen)
{
    RelFileNumber file = rel->rd_relfilenumber;
    BlockNumber nmap = tdb_buf_fork_nblocks(file, VISIBILITYMAP_FORKNUM);
    BlockNumber nvisible = 0, nfrozen = 0;

    for (BlockNumber m = 0; m < nmap; m++) {
        Buffer buf = tdb_buf_read_fork(file, VISIBILITYMAP_FORKNUM, m, NULL);
        const uint8 *map;

        tdb_buf_lock(buf, BUF_LOCK_SHARE);
        map = map_bytes(tdb_buf_page(buf));
        if (!tdb_page_is_new(tdb_buf_page(buf)))
            for (uint32 i = 0; i < VM_MAPSIZE; i++) {
                nvisible += count_bits(map[i], 0x55);
                nfrozen += count_bits(map[i], 0xAA);
            }
        tdb_buf_unlock_release(buf);
    }
    if (all_visible != NULL)
        *all_visible = nvisible;
    if (all_frozen != NULL)
        *all_frozen = nfrozen;
}

void
tdb_vm_truncate(Relation rel, BlockNumber nheapblocks)
{
    RelFileNumber file = rel->rd_relfilenumber;
    BlockNumber nmap = tdb_buf_fork_nblocks(file, VISIBILITYMAP_FORKNUM);
    BlockNumber keep = VM_HEAPBLK_TO_MAPBLOCK(nheapblocks);
    uint32 byte = VM_HEAPBLK_TO_MAPBYTE(nheapblocks);
    uint8 offset = VM_HEAPBLK_TO_OFFSET(nheapblocks);

    if (keep >= nmap)
        return; /* the map does not reach past the new end */
    if (byte != 0 || offset != 0) {
        /* the page of the new end stays: clear its bits past the end */
        Buffer buf = InvalidBuffer;
        uint8 *map;

        (void)map_pin(rel, keep, &buf, false);
        tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
        map = map_bytes(tdb_buf_page(buf));
        map[byte] &= (uint8)((1U << offset) - 1);
        memset(map + byte + 1, 0, VM_MAPSIZE - byte - 1);
        tdb_buf_mark_dirty_before_main(buf);
        tdb_buf_unlock_release(buf);
        keep++;
    }
    if (keep < nmap)
        tdb_buf_truncate_fork(file, VISIBILITYMAP_FORKNUM, keep);
}
