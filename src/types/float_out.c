/*
 * float_out.c -- float4 and float8 text input and output, PostgreSQL
 * 15's way.
 *
 * Output: PostgreSQL 12 and later (with the default extra_float_digits
 * = 1) print the shortest decimal that lies strictly inside the value's
 * rounding interval -- the open interval between the midpoints to its
 * two neighbours, so the text reads back as the same binary value under
 * any tie rule -- and among equally short ones the nearest to the value
 * (an exact tie goes to the even digit).  That is Ryu with
 * acceptBounds = false: a decimal exactly on a midpoint is never used,
 * even where round-half-even would read it back correctly, which is why
 * 1e23 prints as 9.999999999999999e+22.
 *
 * float8 values get their digits from Ryu, as in PostgreSQL (section
 * "float8: Ryu" below: three 64x128-bit multiplications by a tabulated
 * power of five, then digit stripping in 64-bit integers, about 40 ns a
 * value).  float4 values, and the tests' oracle for Ryu
 * (tdb_float8_format_exact), use the classic exact method (Steele and
 * White's free-format algorithm as Burger and Dybvig describe it, 1996),
 * on small fixed-size big integers:
 *
 *   v = f * 2^e, and with integers r, s, m+, m- chosen so that
 *     v = r / s,  the upper end of the interval = (r + m+) / s,
 *                 the lower end                = (r - m-) / s
 *   (m+ = 2 m- for the smallest significand of a binade, whose lower
 *   neighbour is half as far away);
 *   scale s (or r, m+, m-) by a power of ten so that the upper end lies
 *   in (0.1, 1]; then repeatedly multiply r, m+, m- by 10 and take the
 *   next digit d = r / s, r = r mod s, until the truncated digits
 *   (v - r/s) or the digits rounded up (+1 in the last place) lie
 *   strictly inside the interval: r < m- or r + m+ > s.  If both do,
 *   the nearer wins (2r against s; a tie takes the even digit).
 *
 * Every step is exact, so the result does not depend on the C
 * library's printf or strtod.  Values with binary exponents in
 * [-110, 56] (about 3e-18 .. 6e32 for float8, 6e-27 .. 1e24 for
 * float4) run
 * the loop in native 128-bit integers: a few hundred nanoseconds per
 * value, about half of glibc's printf("%.17g") and some four times
 * PostgreSQL's Ryu.  The rest use small fixed-size big integers, up to
 * about 1,130 bits for the smallest denormals (s = 2^1076, r scaled by
 * 10^323), which 40 32-bit limbs hold: a few microseconds.
 * tests/fixtures/pg/pg15_float.txt compares 9,000 values with
 * PostgreSQL's text, and test_float.c checks round trips of 300,000
 * random ones; a one-off comparison of 2.5 million values (random bit
 * patterns, short decimals, integers past 2^53, powers of two and
 * their neighbours) against PostgreSQL 15 found no difference.
 *
 * Formatting of the digits d1..dn with decimal exponent X (the value is
 * d1.d2..dn * 10^X), as PostgreSQL's d2s.c/f2s.c print them (the
 * thresholds are printf's %g defaults):
 *
 *   -4 <= X < 15 (float8), < 6 (float4)   fixed: 0.000123, 12.5, 1500
 *   otherwise                             d.ddde+XX, at least two
 *                                          exponent digits: 1e+100,
 *                                          1.2345678901234568e-05
 *
 * Input follows float8in/float4in: leading and trailing white space
 * (C locale), then whatever strtod (float4: strtof) accepts, including
 * hexadecimal and "nan(...)" forms; NaN, Infinity, +Infinity,
 * -Infinity, inf, +inf, -inf in any case; 22P02 for anything else.
 * strtod's ERANGE is an error (22003) only if the result is zero or
 * infinite, so denormals are accepted.  float8's out-of-range message
 * quotes just the number (without surrounding white space or trailing
 * junk), float4's the whole input, as PostgreSQL 15 does.  strtod reads
 * the decimal point of LC_NUMERIC, which must be "C": tupledb never
 * calls setlocale, and an embedding application must not change
 * LC_NUMERIC either.
 */
#include "common/base.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/float.h"
#include "types/strutil.h"

/* ----------------------------------------------------------------------
 * Big integers: just what digit generation needs
 * ---------------------------------------------------------------------- */

/* Enough for 1,280 bits; the largest number built is about 1,130 bits. */
#define BIG_LIMBS 40

/* A nonnegative integer: limbs[0 .. n-1], least significant first, no
 * zero limb at the top (zero has n = 0). */
typedef struct Big {
    int n;
    uint32 limbs[BIG_LIMBS];
} Big;

/* A limb count past BIG_LIMBS means the sizing argument above is wrong. */
static TDB_NORETURN void
big_overflow(void)
{
    elog(ERROR, "float output: big integer overflow");
    __builtin_unreachable();
}

static void
big_set(Big *b, uint64 v)
{
    b->n = 0;
    while (v != 0) {
        b->limbs[b->n++] = (uint32)v;
        v >>= 32;
    }
}

/* dst = src (only the limbs in use) */
static void
big_copy(Big *dst, const Big *src)
{
    dst->n = src->n;
    memcpy(dst->limbs, src->limbs, (Size)src->n * sizeof(uint32));
}

/* b <<= bits */
static void
big_shl(Big *b, int bits)
{
    int words = bits / 32;
    int rest = bits % 32;

    if (b->n == 0)
        return;
    if (b->n + words + 1 > BIG_LIMBS)
        big_overflow();
    if (rest != 0) {
        b->limbs[b->n] = 0;
        for (int i = b->n; i > 0; i--)
            b->limbs[i] = (b->limbs[i] << rest) |
                          (b->limbs[i - 1] >> (32 - rest));
        b->limbs[0] <<= rest;
        b->n++;
    }
    if (words != 0) {
        memmove(b->limbs + words, b->limbs, (Size)b->n * sizeof(uint32));
        memset(b->limbs, 0, (Size)words * sizeof(uint32));
        b->n += words;
    }
    while (b->n > 0 && b->limbs[b->n - 1] == 0)
        b->n--;
}

/* b *= m */
static void
big_mul_small(Big *b, uint32 m)
{
    uint64 carry = 0;

    for (int i = 0; i < b->n; i++) {
        uint64 t = (uint64)b->limbs[i] * m + carry;

        b->limbs[i] = (uint32)t;
        carry = t >> 32;
    }
    if (carry != 0) {
        if (b->n >= BIG_LIMBS)
            big_overflow();
        b->limbs[b->n++] = (uint32)carry;
    }
}

/* b *= 10^k (k >= 0) */
static void
big_mul_pow10(Big *b, int k)
{
    static const uint32 pow10_u32[] = {1,      10,      100,      1000,
                                       10000,  100000,  1000000,  10000000,
                                       100000000, 1000000000};

    while (k >= 9) {
        big_mul_small(b, pow10_u32[9]);
        k -= 9;
    }
    if (k > 0)
        big_mul_small(b, pow10_u32[k]);
}

static int
big_cmp(const Big *a, const Big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->limbs[i] != b->limbs[i])
            return a->limbs[i] < b->limbs[i] ? -1 : 1;
    return 0;
}

/* sum = a + b (sum may be a or b) */
static void
big_add(Big *sum, const Big *a, const Big *b)
{
    int n = Max(a->n, b->n);
    uint64 carry = 0;

    for (int i = 0; i < n; i++) {
        uint64 t = carry + (i < a->n ? a->limbs[i] : 0) +
                   (i < b->n ? b->limbs[i] : 0);

        sum->limbs[i] = (uint32)t;
        carry = t >> 32;
    }
    sum->n = n;
    if (carry != 0) {
        if (n >= BIG_LIMBS)
            big_overflow();
        sum->limbs[sum->n++] = (uint32)carry;
    }
}

/* a -= b, where a >= b */
static void
big_sub(Big *a, const Big *b)
{
    int64 borrow = 0;

    for (int i = 0; i < a->n; i++) {
        int64 t = (int64)a->limbs[i] - (i < b->n ? b->limbs[i] : 0) - borrow;

        borrow = t < 0;
        a->limbs[i] = (uint32)(t + (borrow << 32));
    }
    while (a->n > 0 && a->limbs[a->n - 1] == 0)
        a->n--;
}

/* The top of b as a double, in units of 2^(32 * base). */
static double
big_top(const Big *b, int base)
{
    double v = 0;

    for (int i = b->n - 1; i >= base && i >= 0; i--)
        v = v * 4294967296.0 + b->limbs[i];
    return v;
}

/*
 * The quotient r / s, which is below 10, and r = r mod s.  The leading
 * three limbs estimate it to within one; multiplying back corrects it.
 */
static int
big_divmod_digit(Big *r, const Big *s)
{
    int base = Max(s->n - 3, 0);
    int q = (int)(big_top(r, base) / big_top(s, base));
    Big t;

    if (q > 9)
        q = 9;
    big_copy(&t, s);
    big_mul_small(&t, (uint32)q);
    while (q > 0 && big_cmp(&t, r) > 0) {
        big_sub(&t, s);
        q--;
    }
    big_sub(r, &t);
    while (big_cmp(r, s) >= 0) {
        big_sub(r, s);
        q++;
    }
    return q;
}

/* ----------------------------------------------------------------------
 * Shortest digits
 * ---------------------------------------------------------------------- */

/* What we need of one binary format. */
typedef struct FloatFormat {
    int mant_bits;     /* stored significand bits: 52 or 23 */
    int exp_bits;      /* 11 or 8 */
    int fixed_max_exp; /* fixed notation below 10^this: 15 or 6 */
} FloatFormat;

static const FloatFormat format8 = {52, 11, 15};
static const FloatFormat format4 = {23, 8, 6};

/* The digits of a positive value: 0.d1 d2 .. dn * 10^exponent. */
typedef struct Digits {
    char digits[20];
    int ndigits;
    int exponent;
} Digits;

/*
 * End the digits with d (round_up false) or d + 1, carrying into the
 * digits before (0.999 + 0.001 = 1: one digit, one place up).
 */
static void
last_digit(Digits *out, int d, bool round_up)
{
    int i = out->ndigits;

    if (!round_up || d < 9) {
        out->digits[out->ndigits++] = (char)('0' + d + (round_up ? 1 : 0));
        return;
    }
    while (i > 0 && out->digits[i - 1] == '9')
        i--;
    if (i == 0) {
        out->digits[0] = '1';
        out->ndigits = 1;
        out->exponent++;
    } else {
        out->digits[i - 1]++;
        out->ndigits = i;
    }
}

static void
next_digit(Digits *out, int d)
{
    out->digits[out->ndigits++] = (char)('0' + d);
    if (out->ndigits >= (int)sizeof(out->digits) - 1)
        elog(ERROR, "float output: no digits converged");
}

/*
 * The digit loop on big integers, for any value: v = f * 2^e, k the
 * estimate of ceil(log10(v)).  See the file header.
 */
static void
digits_big(uint64 f, int e, bool lower_closer, int k, Digits *out)
{
    int lc = lower_closer ? 1 : 0;
    Big r, s, mplus, mminus, t;

    /* v = r / s, ends (r + m+) / s and (r - m-) / s */
    big_set(&r, f);
    big_set(&mplus, 1);
    big_set(&mminus, 1);
    big_set(&s, 1);
    if (e >= 0) {
        big_shl(&r, e + 1 + lc);
        big_shl(&s, 1 + lc);
        big_shl(&mplus, e + lc);
        big_shl(&mminus, e);
    } else {
        big_shl(&r, 1 + lc);
        big_shl(&s, 1 + lc - e);
        big_shl(&mplus, lc);
    }
    if (k >= 0) {
        big_mul_pow10(&s, k);
    } else {
        big_mul_pow10(&r, -k);
        big_mul_pow10(&mplus, -k);
        big_mul_pow10(&mminus, -k);
    }
    /* make the upper end land in (0.1, 1] */
    for (;;) {
        big_add(&t, &r, &mplus);
        if (big_cmp(&t, &s) > 0) {
            big_mul_small(&s, 10);
            k++;
            continue;
        }
        big_mul_small(&t, 10);
        if (big_cmp(&t, &s) <= 0) {
            big_mul_small(&r, 10);
            big_mul_small(&mplus, 10);
            big_mul_small(&mminus, 10);
            k--;
            continue;
        }
        break;
    }

    out->ndigits = 0;
    out->exponent = k;
    for (;;) {
        int d;
        bool low;
        bool high;

        big_mul_small(&r, 10);
        big_mul_small(&mplus, 10);
        big_mul_small(&mminus, 10);
        d = big_divmod_digit(&r, &s);
        low = big_cmp(&r, &mminus) < 0;
        big_add(&t, &r, &mplus);
        high = big_cmp(&t, &s) > 0;
        if (low && high) {
            int c;

            big_add(&t, &r, &r);
            c = big_cmp(&t, &s);
            low = c < 0 || (c == 0 && d % 2 == 0);
        }
        if (low || high) {
            last_digit(out, d, !low);
            return;
        }
        next_digit(out, d);
    }
}

typedef unsigned __int128 uint128;

/* The range of e for which digits_u128's numbers fit in 128 bits. */
#define U128_MIN_EXP (-110)
#define U128_MAX_EXP 56

/*
 * digits_big's loop in native 128-bit integers, for the usual values
 * (e in [U128_MIN_EXP, U128_MAX_EXP]: about 3e-18 to 6e32 for float8)
 * -- the same steps, several times faster.  Bounds: s stays below 2^117
 * (2^(2-e) <= 2^112, times 10^k only for v >= 0.1, so at most 2^111;
 * or 4 * 10^k with k <= 34), r below 10 s, and m+ below about 12 s
 * after the 17th digit (m+/s is half an ulp, relative 2^-53, times 10
 * per digit); the largest intermediate, 10 (r + m+) in the scaling
 * loop, stays below 2^126.
 */
static void
digits_u128(uint64 f, int e, bool lower_closer, int k, Digits *out)
{
    int lc = lower_closer ? 1 : 0;
    uint128 r;
    uint128 s;
    uint128 mplus;
    uint128 mminus;
    uint128 p10 = 1;

    if (e >= 0) {
        r = (uint128)f << (e + 1 + lc);
        s = (uint128)2 << lc;
        mplus = (uint128)1 << (e + lc);
        mminus = (uint128)1 << e;
    } else {
        r = (uint128)f << (1 + lc);
        s = (uint128)1 << (1 + lc - e);
        mplus = (uint128)1 << lc;
        mminus = 1;
    }
    for (int i = 0; i < (k >= 0 ? k : -k); i++)
        p10 *= 10;
    if (k >= 0) {
        s *= p10;
    } else {
        r *= p10;
        mplus *= p10;
        mminus *= p10;
    }
    for (;;) {
        if (r + mplus > s) {
            s *= 10;
            k++;
        } else if ((r + mplus) * 10 <= s) {
            r *= 10;
            mplus *= 10;
            mminus *= 10;
            k--;
        } else {
            break;
        }
    }

    out->ndigits = 0;
    out->exponent = k;
    for (;;) {
        int d = 0;
        bool low;
        bool high;

        r *= 10;
        mplus *= 10;
        mminus *= 10;
        /* estimate the digit in floating point (off by at most one) */
        d = (int)((double)r / (double)s);
        if (d > 9)
            d = 9;
        if (s * (uint128)d > r)
            d--;
        r -= s * (uint128)d;
        if (r >= s) {
            r -= s;
            d++;
        }
        low = r < mminus;
        high = r + mplus > s;
        if (low && high)
            low = 2 * r < s || (2 * r == s && d % 2 == 0);
        if (low || high) {
            last_digit(out, d, !low);
            return;
        }
        next_digit(out, d);
    }
}

/*
 * The shortest digits strictly inside the rounding interval of the
 * positive finite value with the given IEEE fields (see the file
 * header).
 */
static void
shortest_digits(const FloatFormat *fmt, uint64 stored_mant, int biased_exp,
                Digits *out)
{
    int bias = (1 << (fmt->exp_bits - 1)) - 1;
    uint64 f;
    int e;
    bool lower_closer;
    int k;

    if (biased_exp == 0) {
        f = stored_mant; /* denormal */
        e = 1 - bias - fmt->mant_bits;
        lower_closer = false;
    } else {
        f = stored_mant | (1ULL << fmt->mant_bits);
        e = biased_exp - bias - fmt->mant_bits;
        lower_closer = stored_mant == 0 && biased_exp > 1;
    }
    /*
     * k estimates ceil(log10(v)) from floor(log2(v)); the digit loops
     * correct it by one either way if needed.
     */
    k = (int)ceil((e + 63 - __builtin_clzll(f)) * 0.30102999566398114 -
                  1e-10);
    if (e >= U128_MIN_EXP && e <= U128_MAX_EXP)
        digits_u128(f, e, lower_closer, k, out);
    else
        digits_big(f, e, lower_closer, k, out);
    /* trailing zeros (possible after a carry) are not significant */
    while (out->ndigits > 1 && out->digits[out->ndigits - 1] == '0')
        out->ndigits--;
}

/* ----------------------------------------------------------------------
 * float8: Ryu
 *
 * The exact method above spends a few hundred nanoseconds on a typical
 * float8 (a 128-bit division per digit, 17 digits).  Ryu (Ulf Adams,
 * "Ryu: fast float-to-string conversion", PLDI 2018), which PostgreSQL
 * 12+ uses, finds the same digits with three 64x128-bit multiplications
 * by a precomputed power of five and then strips decimal digits from
 * three 64-bit integers at once:
 *
 *   v = m2 * 2^e2 with two extra bits (m2 = 4 * significand), so the
 *   interval's ends are (mv - 1 - mm_shift) and (mv + 2) in the same
 *   units; multiply all three by 2^e2 as 10^e10 * (x * 5^-q or 5^i)
 *   rounded down, giving vm < vr < vp in units of 10^e10; then drop
 *   trailing decimal digits while vp / 10 > vm / 10 (so some decimal in
 *   between survives), remembering the last digit dropped from vr to
 *   round it.
 *
 * The interval is open (PostgreSQL's acceptBounds = false): vp is
 * lowered by one when the upper end is exactly representable, and vr
 * equal to vm (the lower end) is not allowed, so the result takes vr + 1.
 * When the products were exact (vr_exact), a dropped "5000..." is a tie
 * and goes to the even digit, as in the exact method.  Every float8
 * takes this path; tests/unit/types/test_float.c compares it with the
 * exact method over millions of values.  float4 stays on the exact
 * method (its output is rare and its u128 path is short).
 * ---------------------------------------------------------------------- */

#include "types/float_ryu_table.h"

/* ceil(log2(5^e)), 1 for e = 0; exact for 0 <= e <= 3528 */
static inline int
ryu_pow5bits(int e)
{
    return (int)(((uint32)e * 1217359) >> 19) + 1;
}

/* floor(log10(2^e)) for 0 <= e <= 1650 */
static inline int
ryu_log10_pow2(int e)
{
    return (int)(((uint32)e * 78913) >> 18);
}

/* floor(log10(5^e)) for 0 <= e <= 2620 */
static inline int
ryu_log10_pow5(int e)
{
    return (int)(((uint32)e * 732923) >> 20);
}

/* Is v (nonzero) divisible by 5^p? */
static inline bool
ryu_multiple_of_pow5(uint64 v, int p)
{
    int count = 0;

    while (v % 5 == 0) {
        v /= 5;
        count++;
    }
    return count >= p;
}

/* Is v divisible by 2^p (p < 64)? */
static inline bool
ryu_multiple_of_pow2(uint64 v, int p)
{
    return (v & ((1ULL << p) - 1)) == 0;
}

/* (m * mul) >> j, for the 128-bit mul = {low, high} and j >= 64 */
static inline uint64
ryu_mul_shift(uint64 m, const uint64 *mul, int j)
{
    uint128 low = (uint128)m * mul[0];
    uint128 high = (uint128)m * mul[1];

    return (uint64)(((low >> 64) + high) >> (j - 64));
}

/* The number of decimal digits of v (v < 10^17). */
static inline int
ryu_decimal_length(uint64 v)
{
    static const uint64 pow10[] = {
        10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
        10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
        100000000000ULL, 1000000000000ULL, 10000000000000ULL,
        100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL};
    int n = 1;

    /* typical float8 values have 15 to 17 digits: count down */
    for (int i = 15; i >= 0; i--) {
        if (v >= pow10[i]) {
            n = i + 2;
            break;
        }
    }
    return n;
}

/* "00" .. "99" */
static const char ryu_digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/*
 * The shortest digits of the positive finite float8 with the given
 * stored significand and biased exponent, by Ryu: *digits_out is the
 * decimal significand (no trailing zeros) and the result's value is
 * *digits_out * 10^(*exp10_out).
 */
static void
ryu_float8(uint64 stored_mant, int biased_exp, uint64 *digits_out,
           int *exp10_out)
{
    int e2;
    uint64 m2;
    uint64 mv;
    int mm_shift;
    uint64 vr, vp, vm;
    int e10;
    bool vr_exact = false;
    int removed = 0;
    int last_removed = 0;
    uint64 output;

    if (biased_exp == 0) {
        e2 = 1 - 1023 - 52 - 2;
        m2 = stored_mant;
    } else {
        e2 = biased_exp - 1023 - 52 - 2;
        m2 = (1ULL << 52) | stored_mant;

        /*
         * Integers below 2^53 print as themselves: no digit of the
         * integer can be dropped (the neighbours are at most 1 away),
         * only trailing zeros.
         */
        if (e2 + 2 <= 0 && e2 + 2 >= -52 &&
            (m2 & ((1ULL << -(e2 + 2)) - 1)) == 0) {
            uint64 n = m2 >> -(e2 + 2);
            int e = 0;

            while (n % 10 == 0) {
                n /= 10;
                e++;
            }
            *digits_out = n;
            *exp10_out = e;
            return;
        }
    }

    /* the value and its interval's ends, times 4 */
    mv = 4 * m2;
    mm_shift = (stored_mant != 0 || biased_exp <= 1) ? 1 : 0;

    if (e2 >= 0) {
        /* v = mv * 2^e2 = mv * 2^e2 / 10^q * 10^q, q just below log10(2^e2) */
        int q = ryu_log10_pow2(e2) - (e2 > 3 ? 1 : 0);
        int k = RYU_POW5_INV_BITCOUNT + ryu_pow5bits(q) - 1;
        int i = -e2 + q + k;

        e10 = q;
        vr = ryu_mul_shift(mv, ryu_pow5_inv[q], i);
        vp = ryu_mul_shift(mv + 2, ryu_pow5_inv[q], i);
        vm = ryu_mul_shift(mv - 1 - mm_shift, ryu_pow5_inv[q], i);
        if (q <= 21) {
            /* at most one of mv, mv + 2, mm is a multiple of 5 */
            if (mv % 5 == 0)
                vr_exact = ryu_multiple_of_pow5(mv, q);
            else if (ryu_multiple_of_pow5(mv + 2, q))
                vp--; /* the upper end is exact: excluded */
        }
    } else {
        /* v = mv * 5^-e2 / 10^-e2: divide by 10^q less */
        int q = ryu_log10_pow5(-e2) - (-e2 > 1 ? 1 : 0);
        int i = -e2 - q;
        int k = ryu_pow5bits(i) - RYU_POW5_BITCOUNT;
        int j = q - k;

        e10 = q + e2;
        vr = ryu_mul_shift(mv, ryu_pow5[i], j);
        vp = ryu_mul_shift(mv + 2, ryu_pow5[i], j);
        vm = ryu_mul_shift(mv - 1 - mm_shift, ryu_pow5[i], j);
        if (q <= 1) {
            /* mv has two trailing zero bits, mv + 2 one: both exact */
            vr_exact = true;
            vp--;
        } else if (q < 63) {
            vr_exact = ryu_multiple_of_pow2(mv, q);
        }
    }

    if (vr_exact) {
        /* rare: the digits dropped may be exactly a tie */
        while (vp / 10 > vm / 10) {
            vr_exact = vr_exact && last_removed == 0;
            last_removed = (int)(vr % 10);
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        if (vr_exact && last_removed == 5 && vr % 2 == 0)
            last_removed = 4; /* ...50000 exactly: round half to even */
        output = vr + ((vr == vm || last_removed >= 5) ? 1 : 0);
    } else {
        bool round_up = false;

        /* usually at least two digits go: try them together first */
        if (vp / 100 > vm / 100) {
            round_up = vr % 100 >= 50;
            vr /= 100;
            vp /= 100;
            vm /= 100;
            removed += 2;
        }
        while (vp / 10 > vm / 10) {
            round_up = vr % 10 >= 5;
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        output = vr + ((vr == vm || round_up) ? 1 : 0);
    }
    *digits_out = output;
    *exp10_out = e10 + removed;
}

/* The Digits (0.d1..dn * 10^exponent) of a positive finite float8. */
static void
shortest_digits8(uint64 stored_mant, int biased_exp, Digits *out)
{
    uint64 v;
    int exp10;
    int n;

    ryu_float8(stored_mant, biased_exp, &v, &exp10);
    n = ryu_decimal_length(v);

    /*
     * Two digits per division, from the right, in 32-bit arithmetic: the
     * low eight digits first when there are more than eight (a 64-bit
     * division by 100 per pair was a quarter of float8 output's cost).
     */
    {
        char *p = out->digits + n;
        uint32 w;

        if (v >= 100000000) {
            uint32 low = (uint32)(v % 100000000);

            v /= 100000000;
            for (int i = 0; i < 4; i++) {
                p -= 2;
                memcpy(p, ryu_digit_pairs + 2 * (low % 100), 2);
                low /= 100;
            }
        }
        w = (uint32)v; /* below 10^9 */
        while (w >= 100) {
            p -= 2;
            memcpy(p, ryu_digit_pairs + 2 * (w % 100), 2);
            w /= 100;
        }
        if (w >= 10) {
            p -= 2;
            memcpy(p, ryu_digit_pairs + 2 * w, 2);
        } else {
            *--p = (char)('0' + w);
        }
        Assert(p == out->digits);
    }
    out->ndigits = n;
    out->exponent = exp10 + n;
}

/* ----------------------------------------------------------------------
 * Formatting
 * ---------------------------------------------------------------------- */

/* Print the digits (fixed or scientific) after an optional '-'. */
static int
format_digits(const FloatFormat *fmt, const Digits *d, bool negative,
              char *buf)
{
    const char *digits = d->digits;
    int ndigits = d->ndigits;
    int x = d->exponent - 1; /* display exponent: d1.d2.. * 10^x */
    char *p = buf;

    if (negative)
        *p++ = '-';
    if (x >= -4 && x < fmt->fixed_max_exp) {
        if (x < 0) {
            /* 0.000ddd */
            *p++ = '0';
            *p++ = '.';
            for (int i = 0; i < -x - 1; i++)
                *p++ = '0';
            memcpy(p, digits, (Size)ndigits);
            p += ndigits;
        } else if (ndigits <= x + 1) {
            /* ddd000 */
            memcpy(p, digits, (Size)ndigits);
            p += ndigits;
            for (int i = 0; i < x + 1 - ndigits; i++)
                *p++ = '0';
        } else {
            /* dd.ddd */
            memcpy(p, digits, (Size)(x + 1));
            p += x + 1;
            *p++ = '.';
            memcpy(p, digits + x + 1, (Size)(ndigits - x - 1));
            p += ndigits - x - 1;
        }
        *p = '\0';
        return (int)(p - buf);
    }
    *p++ = digits[0];
    if (ndigits > 1) {
        *p++ = '.';
        memcpy(p, digits + 1, (Size)(ndigits - 1));
        p += ndigits - 1;
    }
    p += sprintf(p, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
    return (int)(p - buf);
}

/* The text of a value given by its IEEE fields. */
static int
format_fields(const FloatFormat *fmt, bool negative, uint64 stored_mant,
              int biased_exp, bool exact, char *buf)
{
    Digits d;

    if (biased_exp == (1 << fmt->exp_bits) - 1) {
        if (stored_mant != 0)
            return sprintf(buf, "NaN");
        return sprintf(buf, negative ? "-Infinity" : "Infinity");
    }
    if (biased_exp == 0 && stored_mant == 0)
        return sprintf(buf, negative ? "-0" : "0");
    if (fmt == &format8 && !exact)
        shortest_digits8(stored_mant, biased_exp, &d);
    else
        shortest_digits(fmt, stored_mant, biased_exp, &d);
    return format_digits(fmt, &d, negative, buf);
}

int
tdb_float8_format(double value, char *buf)
{
    uint64 bits;

    memcpy(&bits, &value, sizeof(bits));
    return format_fields(&format8, (bits >> 63) != 0,
                         bits & ((1ULL << 52) - 1), (int)((bits >> 52) & 0x7FF),
                         false, buf);
}

int
tdb_float8_format_exact(double value, char *buf)
{
    uint64 bits;

    memcpy(&bits, &value, sizeof(bits));
    return format_fields(&format8, (bits >> 63) != 0,
                         bits & ((1ULL << 52) - 1), (int)((bits >> 52) & 0x7FF),
                         true, buf);
}

int
tdb_float4_format(float value, char *buf)
{
    uint32 bits;

    memcpy(&bits, &value, sizeof(bits));
    return format_fields(&format4, (bits >> 31) != 0, bits & ((1u << 23) - 1),
                         (int)((bits >> 23) & 0xFF), true, buf);
}

char *
tdb_float8_to_cstring(double value)
{
    char *buf = tdb_palloc(FLOAT_TEXT_BUFSIZE);

    tdb_float8_format(value, buf);
    return buf;
}

char *
tdb_float4_to_cstring(float value)
{
    char *buf = tdb_palloc(FLOAT_TEXT_BUFSIZE);

    tdb_float4_format(value, buf);
    return buf;
}

/* ----------------------------------------------------------------------
 * Input
 * ---------------------------------------------------------------------- */

/* The special spellings float8in checks when strtod fails, in order. */
static const struct {
    const char *text;
    int sign; /* 0: NaN */
} special_spellings[] = {
    {"NaN", 0},  {"Infinity", 1}, {"+Infinity", 1}, {"-Infinity", -1},
    {"inf", 1},  {"+inf", 1},     {"-inf", -1},
};

static TDB_NORETURN void
invalid_syntax(const char *type_name, const char *orig)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
            errmsg("invalid input syntax for type %s: \"%s\"", type_name,
                   orig));
    __builtin_unreachable();
}

static TDB_NORETURN void
out_of_range(const char *number, const char *type_name)
{
    ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
            errmsg("\"%s\" is out of range for type %s", number,
                   type_name));
    __builtin_unreachable();
}

/* The first len bytes of s as a string, palloc'd. */
static char *
copy_prefix(const char *s, Size len)
{
    char *copy = tdb_palloc(len + 1);

    memcpy(copy, s, len);
    copy[len] = '\0';
    return copy;
}

/*
 * If num starts with a special spelling, its value (and *end past it).
 * Returns false if none matches.
 */
static bool
match_special(const char *num, const char **end, double *value)
{
    for (Size i = 0; i < lengthof(special_spellings); i++) {
        Size len = strlen(special_spellings[i].text);

        if (strncasecmp(num, special_spellings[i].text, len) == 0) {
            *end = num + len;
            *value = special_spellings[i].sign == 0
                         ? (double)NAN
                         : special_spellings[i].sign * (double)INFINITY;
            return true;
        }
    }
    return false;
}

/*
 * The common shape of float8in and float4in; is_float4 chooses strtof
 * and float4's messages.
 */
static double
parse_float(const char *orig, bool is_float4)
{
    const char *type_name = is_float4 ? "real" : "double precision";
    const char *num = orig;
    char *endptr;
    const char *end;
    double value;

    while (*num != '\0' && tdb_c_isspace(*num))
        num++;
    if (*num == '\0')
        invalid_syntax(type_name, orig);

    errno = 0;
    value = is_float4 ? (double)strtof(num, &endptr) : strtod(num, &endptr);
    end = endptr;
    if (end == num || errno != 0) {
        int saved_errno = errno;

        if (match_special(num, &end, &value)) {
            /* accepted */
        } else if (saved_errno == ERANGE) {
            /* denormals set ERANGE too: only zero or infinity is an error */
            if (value == 0.0 || isinf(value)) {
                if (is_float4)
                    out_of_range(orig, type_name);
                out_of_range(copy_prefix(num, (Size)(end - num)),
                             type_name);
            }
        } else {
            invalid_syntax(type_name, orig);
        }
    }
    while (*end != '\0' && tdb_c_isspace(*end))
        end++;
    if (*end != '\0')
        invalid_syntax(type_name, orig);
    return value;
}

double
tdb_float8_from_cstring(const char *str)
{
    return parse_float(str, false);
}

float
tdb_float4_from_cstring(const char *str)
{
    return (float)parse_float(str, true);
}
