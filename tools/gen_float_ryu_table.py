#!/usr/bin/env python3
"""gen_float_ryu_table.py -- writes src/types/float_ryu_table.h, the two
tables of powers of five that float8 output's Ryu digit generation
(src/types/float_out.c) multiplies by.

    python3 tools/gen_float_ryu_table.py > src/types/float_ryu_table.h

Each entry is a 125-bit-or-so integer split into two 64-bit halves
{low, high}:

  POW5_INV[q] = floor(2^(pow5bits(q) - 1 + 125) / 5^q) + 1,  q = 0..341
                (a rounded-up 1 / 5^q, for values >= 1: e2 >= 0)
  POW5[i]     = 5^i shifted to its top 125 bits,             i = 0..325
                (for values < 1: e2 < 0)

pow5bits(e) is ceil(log2(5^e)) (1 for e = 0), computed by the same
integer formula the C code uses.  The sizes cover every float8 binary
exponent: q <= log10(2^969) and i <= 1076 - log10(5^1076).
"""

INV_BITS = 125
POW_BITS = 125
N_INV = 342
N_POW = 326


def pow5bits(e):
    return ((e * 1217359) >> 19) + 1


def split(v):
    assert 0 <= v < 1 << 128
    return v & ((1 << 64) - 1), v >> 64


def main():
    out = []
    out.append("/*")
    out.append(" * float_ryu_table.h -- powers of five for float8 output (Ryu), generated")
    out.append(" * by tools/gen_float_ryu_table.py; do not edit.  See that script for what")
    out.append(" * each entry is, and src/types/float_out.c for how they are used.")
    out.append(" */")
    out.append("#ifndef TDB_TYPES_FLOAT_RYU_TABLE_H")
    out.append("#define TDB_TYPES_FLOAT_RYU_TABLE_H")
    out.append("")
    out.append("#define RYU_POW5_INV_BITCOUNT %d" % INV_BITS)
    out.append("#define RYU_POW5_BITCOUNT %d" % POW_BITS)
    out.append("")
    out.append("static const uint64 ryu_pow5_inv[%d][2] = {" % N_INV)
    for q in range(N_INV):
        k = pow5bits(q) - 1 + INV_BITS
        v = (1 << k) // (5 ** q) + 1
        lo, hi = split(v)
        out.append("    {%dULL, %dULL}," % (lo, hi))
    out.append("};")
    out.append("")
    out.append("static const uint64 ryu_pow5[%d][2] = {" % N_POW)
    for i in range(N_POW):
        p = 5 ** i
        shift = pow5bits(i) - POW_BITS
        v = p >> shift if shift >= 0 else p << -shift
        lo, hi = split(v)
        out.append("    {%dULL, %dULL}," % (lo, hi))
    out.append("};")
    out.append("")
    out.append("#endif /* TDB_TYPES_FLOAT_RYU_TABLE_H */")
    print("\n".join(out))


if __name__ == "__main__":
    main()
