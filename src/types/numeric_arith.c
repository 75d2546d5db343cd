/*
 * numeric_arith.c -- arithmetic on NumericVar, the working form of a
 * numeric value (numeric.h): allocation, rounding and truncation,
 * comparison, addition, subtraction, multiplication, division (exact
 * long division, an approximate fast division for the transcendental
 * functions, short division by an integer), modulo, ceiling and floor,
 * and conversions from and to machine integers.
 *
 * Results must equal PostgreSQL's digit for digit, so the algorithms are
 * the ones PostgreSQL uses -- schoolbook multiplication with postponed
 * carries and MUL_GUARD_DIGITS guard digits when the product is rounded;
 * Knuth's algorithm D for exact division; the "FM" library's division
 * with floating-point quotient estimates and DIV_GUARD_DIGITS guard digits
 * for div_fast -- because where a result is rounded or approximate, the
 * algorithm decides its last digits.
 *
 * Digits are int16 in base NBASE = 10000, most significant first.  A
 * result that may gain a digit on the left (a carry out of rounding)
 * keeps one zero digit in front of `digits` inside `buf`.
 */
#include "common/base.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/numeric.h"

#define MUL_GUARD_DIGITS 2 /* in NBASE digits */
#define DIV_GUARD_DIGITS 4

static const NumericDigit digits_one[1] = {1};
static const NumericDigit digits_two[1] = {2};

const NumericVar tdb_numvar_zero = {0, 0, NUMERIC_POS, 0, NULL, NULL};
const NumericVar tdb_numvar_one = {1, 0, NUMERIC_POS, 0, NULL,
                                   (NumericDigit *)digits_one};
const NumericVar tdb_numvar_two = {1, 0, NUMERIC_POS, 0, NULL,
                                   (NumericDigit *)digits_two};
const NumericVar tdb_numvar_minus_one = {1, 0, NUMERIC_NEG, 0, NULL,
                                         (NumericDigit *)digits_one};
const NumericVar tdb_numvar_nan = {0, 0, NUMERIC_NAN, 0, NULL, NULL};
const NumericVar tdb_numvar_pinf = {0, 0, NUMERIC_PINF, 0, NULL, NULL};
const NumericVar tdb_numvar_ninf = {0, 0, NUMERIC_NINF, 0, NULL, NULL};

/* 10^(DEC_DIGITS - i): the unit of the last kept decimal digit when i
 * decimal digits of an NBASE digit are kept. */
static const int keep_unit[DEC_DIGITS] = {0, 1000, 100, 10};

static void
raise_division_by_zero(void)
{
    ereport(ERROR, errcode(ERRCODE_DIVISION_BY_ZERO),
            errmsg("division by zero"));
}

static NumericDigit *
digit_buffer(int ndigits)
{
    return tdb_palloc_array(NumericDigit, ndigits);
}

static void
digit_buffer_free(NumericDigit *buf)
{
    if (buf != NULL)
        tdb_pfree(buf);
}

/*
 * Give var a fresh owned buffer of ndigits digits (contents undefined)
 * plus the spare leading zero; its old buffer is freed.
 */
void
tdb_numvar_alloc(NumericVar *var, int ndigits)
{
    digit_buffer_free(var->buf);
    var->buf = digit_buffer(ndigits + 1);
    var->buf[0] = 0;
    var->digits = var->buf + 1;
    var->ndigits = ndigits;
}

void
tdb_numvar_free(NumericVar *var)
{
    digit_buffer_free(var->buf);
    var->buf = NULL;
    var->digits = NULL;
    var->sign = NUMERIC_NAN;
}

/* Set var to zero; its dscale is left alone. */
void
tdb_numvar_zero_out(NumericVar *var)
{
    digit_buffer_free(var->buf);
    var->buf = NULL;
    var->digits = NULL;
    var->ndigits = 0;
    var->weight = 0;
    var->sign = NUMERIC_POS;
}

/* dest = value, with dest owning a copy of the digits. */
void
tdb_numvar_copy(const NumericVar *value, NumericVar *dest)
{
    NumericDigit *newbuf = digit_buffer(value->ndigits + 1);

    newbuf[0] = 0;
    if (value->ndigits > 0)
        memcpy(newbuf + 1, value->digits,
               (Size)value->ndigits * sizeof(NumericDigit));
    digit_buffer_free(dest->buf);
    *dest = *value;
    dest->buf = newbuf;
    dest->digits = newbuf + 1;
}

/* Drop leading and trailing zero digits; a zero becomes +0, weight 0. */
void
tdb_numvar_strip(NumericVar *var)
{
    NumericDigit *digits = var->digits;
    int ndigits = var->ndigits;

    while (ndigits > 0 && digits[0] == 0) {
        digits++;
        var->weight--;
        ndigits--;
    }
    while (ndigits > 0 && digits[ndigits - 1] == 0)
        ndigits--;
    if (ndigits == 0) {
        var->sign = NUMERIC_POS;
        var->weight = 0;
    }
    var->digits = digits;
    var->ndigits = ndigits;
}

/*
 * Round var (half away from zero) to rscale decimal digits after the
 * point and set its dscale to rscale.  rscale may be negative.  The var
 * must own its digits (a carry may use the spare digit before them).
 */
void
tdb_numvar_round(NumericVar *var, int rscale)
{
    NumericDigit *digits = var->digits;
    int keep_dec;   /* decimal digits to keep */
    int keep;       /* NBASE digits to keep (the last may be partial) */
    int partial;    /* decimal digits kept in the last NBASE digit, or 0 */
    int carry;

    var->dscale = rscale;
    keep_dec = (var->weight + 1) * DEC_DIGITS + rscale;
    if (keep_dec < 0) {
        /* even the first digit is beyond the rounding position */
        var->ndigits = 0;
        var->weight = 0;
        var->sign = NUMERIC_POS;
        return;
    }
    keep = (keep_dec + DEC_DIGITS - 1) / DEC_DIGITS;
    partial = keep_dec % DEC_DIGITS;
    if (keep > var->ndigits || (keep == var->ndigits && partial == 0))
        return; /* nothing beyond the position */

    var->ndigits = keep;
    if (partial == 0) {
        carry = digits[keep] >= HALF_NBASE ? 1 : 0;
    } else {
        int unit = keep_unit[partial];
        int dropped = digits[--keep] % unit;

        digits[keep] = (NumericDigit)(digits[keep] - dropped);
        carry = 0;
        if (dropped >= unit / 2) {
            int up = digits[keep] + unit;

            if (up >= NBASE) {
                up -= NBASE;
                carry = 1;
            }
            digits[keep] = (NumericDigit)up;
        }
    }
    while (carry) {
        carry += digits[--keep];
        if (carry >= NBASE) {
            digits[keep] = (NumericDigit)(carry - NBASE);
            carry = 1;
        } else {
            digits[keep] = (NumericDigit)carry;
            carry = 0;
        }
    }
    if (keep < 0) {
        /* the carry went into the spare digit in front */
        Assert(keep == -1 && var->digits > var->buf);
        var->digits--;
        var->ndigits++;
        var->weight++;
    }
}

/* Truncate var toward zero at rscale decimal digits (may be negative). */
void
tdb_numvar_trunc(NumericVar *var, int rscale)
{
    int keep_dec;
    int keep;

    var->dscale = rscale;
    keep_dec = (var->weight + 1) * DEC_DIGITS + rscale;
    if (keep_dec <= 0) {
        var->ndigits = 0;
        var->weight = 0;
        var->sign = NUMERIC_POS;
        return;
    }
    keep = (keep_dec + DEC_DIGITS - 1) / DEC_DIGITS;
    if (keep <= var->ndigits) {
        int partial = keep_dec % DEC_DIGITS;

        var->ndigits = keep;
        if (partial > 0) {
            NumericDigit *last = &var->digits[keep - 1];

            *last = (NumericDigit)(*last - *last % keep_unit[partial]);
        }
    }
}

/*
 * Fill var from the magnitude mag, positive (a caller with a negative
 * value sets the sign afterwards; var may hold an earlier value).
 */
static void
numvar_from_magnitude(unsigned __int128 mag, NumericVar *var, int maxdigits)
{
    NumericDigit *ptr;
    int ndigits = 0;

    tdb_numvar_alloc(var, maxdigits);
    var->dscale = 0;
    var->sign = NUMERIC_POS;
    if (mag == 0) {
        var->ndigits = 0;
        var->weight = 0;
        return;
    }
    ptr = var->digits + maxdigits;
    while (mag != 0) {
        *--ptr = (NumericDigit)(mag % NBASE);
        mag /= NBASE;
        ndigits++;
    }
    var->digits = ptr;
    var->ndigits = ndigits;
    var->weight = ndigits - 1;
}

void
tdb_numvar_from_int64(int64 val, NumericVar *var)
{
    /* int64 has at most 19 decimal digits: 5 NBASE digits */
    numvar_from_magnitude(val < 0 ? (unsigned __int128)(-(__int128)val)
                                  : (unsigned __int128)val,
                          var, 5);
    if (val < 0)
        var->sign = NUMERIC_NEG;
}

void
tdb_numvar_from_int128(__int128 val, NumericVar *var)
{
    /* 39 decimal digits: 10 NBASE digits */
    numvar_from_magnitude(val < 0 ? (unsigned __int128)0 - (unsigned __int128)val
                                  : (unsigned __int128)val,
                          var, 10);
    if (val < 0)
        var->sign = NUMERIC_NEG;
}

bool
tdb_numvar_to_int64(const NumericVar *var, int64 *result)
{
    NumericVar rounded;
    int64 acc;
    bool ok = true;

    numvar_init(&rounded);
    tdb_numvar_copy(var, &rounded);
    tdb_numvar_round(&rounded, 0);
    tdb_numvar_strip(&rounded);
    if (rounded.ndigits == 0) {
        *result = 0;
        tdb_numvar_free(&rounded);
        return true;
    }
    /*
     * Accumulate the negated magnitude, so that INT64_MIN fits; digits
     * stripped from the right of an integer are zeroes that still count.
     */
    acc = -(int64)rounded.digits[0];
    for (int i = 1; i <= rounded.weight && ok; i++) {
        int digit = i < rounded.ndigits ? rounded.digits[i] : 0;

        if (__builtin_mul_overflow(acc, (int64)NBASE, &acc) ||
            __builtin_sub_overflow(acc, (int64)digit, &acc))
            ok = false;
    }
    if (ok && rounded.sign != NUMERIC_NEG) {
        if (acc == INT64_MIN)
            ok = false;
        else
            acc = -acc;
    }
    tdb_numvar_free(&rounded);
    if (ok)
        *result = acc;
    return ok;
}

double
tdb_numvar_to_double(const NumericVar *var)
{
    char *str = tdb_numvar_to_cstring(var);
    char *end;
    double val = strtod(str, &end); /* ERANGE ignored: +-HUGE_VAL, 0 */

    tdb_pfree(str);
    return val;
}

/* ----------------------------------------------------------------------
 * Comparison
 * ---------------------------------------------------------------------- */

static int
cmp_abs_digits(const NumericDigit *d1, int n1, int w1, const NumericDigit *d2,
               int n2, int w2)
{
    int i1 = 0;
    int i2 = 0;

    /* digits of the heavier value above the other's first digit */
    while (w1 > w2 && i1 < n1) {
        if (d1[i1++] != 0)
            return 1;
        w1--;
    }
    while (w2 > w1 && i2 < n2) {
        if (d2[i2++] != 0)
            return -1;
        w2--;
    }
    if (w1 == w2) {
        while (i1 < n1 && i2 < n2) {
            int diff = d1[i1++] - d2[i2++];

            if (diff != 0)
                return diff > 0 ? 1 : -1;
        }
    }
    /* one side ran out: any nonzero digit left makes that side larger */
    while (i1 < n1)
        if (d1[i1++] != 0)
            return 1;
    while (i2 < n2)
        if (d2[i2++] != 0)
            return -1;
    return 0;
}

int
tdb_numvar_cmp_abs(const NumericVar *var1, const NumericVar *var2)
{
    return cmp_abs_digits(var1->digits, var1->ndigits, var1->weight,
                          var2->digits, var2->ndigits, var2->weight);
}

/* Compare two finite values (zeroes have no digits). */
int
tdb_numvar_cmp(const NumericVar *var1, const NumericVar *var2)
{
    if (var1->ndigits == 0) {
        if (var2->ndigits == 0)
            return 0;
        return var2->sign == NUMERIC_NEG ? 1 : -1;
    }
    if (var2->ndigits == 0)
        return var1->sign == NUMERIC_POS ? 1 : -1;
    if (var1->sign != var2->sign)
        return var1->sign == NUMERIC_POS ? 1 : -1;
    if (var1->sign == NUMERIC_POS)
        return tdb_numvar_cmp_abs(var1, var2);
    return tdb_numvar_cmp_abs(var2, var1);
}

/* ----------------------------------------------------------------------
 * Addition and subtraction
 * ---------------------------------------------------------------------- */

/*
 * |var1| + |var2| (add) or |var1| - |var2| (!add, which requires
 * |var1| >= |var2|) into result; the sign is the caller's to set.  The
 * result's dscale is the larger input dscale.
 */
static void
add_sub_abs(const NumericVar *var1, const NumericVar *var2,
            NumericVar *result, bool add)
{
    int frac1 = var1->ndigits - var1->weight - 1; /* NBASE digits after . */
    int frac2 = var2->ndigits - var2->weight - 1;
    int res_frac = Max(frac1, frac2);
    int res_weight = add ? Max(var1->weight, var2->weight) + 1 : var1->weight;
    int res_ndigits = Max(res_frac + res_weight + 1, 1);
    NumericDigit *res_buf = digit_buffer(res_ndigits + 1);
    NumericDigit *res_digits = res_buf + 1;
    int i1 = res_frac + var1->weight + 1;
    int i2 = res_frac + var2->weight + 1;
    int carry = 0; /* +1 carry or -1 borrow */

    res_buf[0] = 0;
    for (int i = res_ndigits - 1; i >= 0; i--) {
        i1--;
        i2--;
        if (i1 >= 0 && i1 < var1->ndigits)
            carry += var1->digits[i1];
        if (i2 >= 0 && i2 < var2->ndigits)
            carry += add ? var2->digits[i2] : -var2->digits[i2];
        if (carry >= NBASE) {
            res_digits[i] = (NumericDigit)(carry - NBASE);
            carry = 1;
        } else if (carry < 0) {
            res_digits[i] = (NumericDigit)(carry + NBASE);
            carry = -1;
        } else {
            res_digits[i] = (NumericDigit)carry;
            carry = 0;
        }
    }
    Assert(carry == 0);

    digit_buffer_free(result->buf);
    result->ndigits = res_ndigits;
    result->buf = res_buf;
    result->digits = res_digits;
    result->weight = res_weight;
    result->dscale = Max(var1->dscale, var2->dscale);
    tdb_numvar_strip(result);
}

/*
 * var1 + sign2 * |var2| where var2's own sign is replaced by sign2: the
 * common core of add and sub.
 */
static void
add_signed(const NumericVar *var1, const NumericVar *var2, int sign2,
           NumericVar *result)
{
    int dscale = Max(var1->dscale, var2->dscale);

    if (var1->sign == sign2) {
        add_sub_abs(var1, var2, result, true);
        result->sign = sign2;
        return;
    }
    switch (tdb_numvar_cmp_abs(var1, var2)) {
    case 0:
        tdb_numvar_zero_out(result);
        result->dscale = dscale;
        break;
    case 1:
        add_sub_abs(var1, var2, result, false);
        result->sign = var1->sign;
        break;
    default:
        add_sub_abs(var2, var1, result, false);
        result->sign = sign2;
        break;
    }
}

void
tdb_numvar_add(const NumericVar *var1, const NumericVar *var2,
               NumericVar *result)
{
    add_signed(var1, var2, var2->sign, result);
}

void
tdb_numvar_sub(const NumericVar *var1, const NumericVar *var2,
               NumericVar *result)
{
    add_signed(var1, var2, var2->sign == NUMERIC_POS ? NUMERIC_NEG
                                                     : NUMERIC_POS,
               result);
}

/* ----------------------------------------------------------------------
 * Multiplication
 * ---------------------------------------------------------------------- */

/*
 * Normalize accumulator digits acc[0..n-1] (each >= 0) into base NBASE,
 * in place.
 */
static void
propagate_carries(int *acc, int n)
{
    int carry = 0;

    for (int i = n - 1; i >= 0; i--) {
        int digit = acc[i] + carry;

        carry = digit / NBASE;
        acc[i] = digit - carry * NBASE;
    }
    Assert(carry == 0);
}

/*
 * result = var1 * var2 rounded to rscale.  Input digits that cannot reach
 * the first rscale fractional digits plus MUL_GUARD_DIGITS are skipped,
 * exactly as PostgreSQL does, so a rounded product equals PostgreSQL's.
 */
void
tdb_numvar_mul(const NumericVar *var1, const NumericVar *var2,
               NumericVar *result, int rscale)
{
    const NumericVar *shorter = var1;
    const NumericVar *longer = var2;
    int res_weight;
    int res_sign;
    int res_ndigits;
    int maxdigits;
    int *acc;
    int max_acc; /* bound on any acc[] entry, in units of NBASE-1 */

    if (shorter->ndigits > longer->ndigits) {
        shorter = var2;
        longer = var1;
    }
    if (shorter->ndigits == 0) {
        tdb_numvar_zero_out(result);
        result->dscale = rscale;
        return;
    }
    res_sign = var1->sign == var2->sign ? NUMERIC_POS : NUMERIC_NEG;
    res_weight = var1->weight + var2->weight + 2;
    res_ndigits = shorter->ndigits + longer->ndigits + 1;
    maxdigits = res_weight + 1 + (rscale + DEC_DIGITS - 1) / DEC_DIGITS +
                MUL_GUARD_DIGITS;
    res_ndigits = Min(res_ndigits, maxdigits);
    if (res_ndigits < 3) {
        /* every input digit lies beyond the wanted precision */
        tdb_numvar_zero_out(result);
        result->dscale = rscale;
        return;
    }

    /*
     * Digit i1 of the shorter and i2 of the longer operand add into
     * acc[i1 + i2 + 2].  Carries are left in place until an entry could
     * approach INT_MAX (taking the carries of a normalization pass into
     * account), then propagated.
     */
    acc = tdb_palloc0_array(int, res_ndigits);
    max_acc = 0;
    for (int i1 = Min(shorter->ndigits - 1, res_ndigits - 3); i1 >= 0; i1--) {
        int d1 = shorter->digits[i1];
        int limit;
        int *dst;

        if (d1 == 0)
            continue;
        max_acc += d1;
        if (max_acc > (INT_MAX - INT_MAX / NBASE) / (NBASE - 1)) {
            propagate_carries(acc, res_ndigits);
            max_acc = 1 + d1;
        }
        limit = Min(longer->ndigits, res_ndigits - i1 - 2);
        dst = &acc[i1 + 2];
        for (int i2 = 0; i2 < limit; i2++)
            dst[i2] += d1 * longer->digits[i2];
    }
    propagate_carries(acc, res_ndigits);

    tdb_numvar_alloc(result, res_ndigits);
    for (int i = 0; i < res_ndigits; i++)
        result->digits[i] = (NumericDigit)acc[i];
    tdb_pfree(acc);
    result->weight = res_weight;
    result->sign = res_sign;
    tdb_numvar_round(result, rscale);
    tdb_numvar_strip(result);
}

/* ----------------------------------------------------------------------
 * Division
 * ---------------------------------------------------------------------- */

/* Number of quotient digits: through rscale, at least 1, plus one more
 * to round on. */
static int
quotient_ndigits(int res_weight, int rscale, bool round)
{
    int n = Max(res_weight + 1 + (rscale + DEC_DIGITS - 1) / DEC_DIGITS, 1);

    return round ? n + 1 : n;
}

/* Round or truncate a finished quotient and strip it. */
static void
finish_quotient(NumericVar *result, int rscale, bool round)
{
    if (round)
        tdb_numvar_round(result, rscale);
    else
        tdb_numvar_trunc(result, rscale);
    tdb_numvar_strip(result);
}

/*
 * The cases every long division handles alike: a zero divisor (22012), a
 * divisor of one or two digits (short division), a zero dividend.  True
 * if result is done.
 */
static bool
division_prologue(const NumericVar *var1, const NumericVar *var2,
                  NumericVar *result, int rscale, bool round)
{
    if (var2->ndigits == 0 || var2->digits[0] == 0)
        raise_division_by_zero();
    if (var2->ndigits <= 2) {
        int ival = var2->digits[0];
        int ival_weight = var2->weight;

        if (var2->ndigits == 2) {
            ival = ival * NBASE + var2->digits[1];
            ival_weight--;
        }
        if (var2->sign == NUMERIC_NEG)
            ival = -ival;
        tdb_numvar_div_int(var1, ival, ival_weight, result, rscale, round);
        return true;
    }
    if (var1->ndigits == 0) {
        tdb_numvar_zero_out(result);
        result->dscale = rscale;
        return true;
    }
    return false;
}

/*
 * result = var / (ival * NBASE^ival_weight), to rscale digits, by short
 * division (the running remainder stays below |ival| * NBASE).
 */
void
tdb_numvar_div_int(const NumericVar *var, int ival, int ival_weight,
                   NumericVar *result, int rscale, bool round)
{
    int res_weight;
    int res_ndigits;
    int res_sign;
    NumericDigit *res_buf;
    uint64 divisor;
    uint64 rem = 0;

    if (ival == 0)
        raise_division_by_zero();
    if (var->ndigits == 0) {
        tdb_numvar_zero_out(result);
        result->dscale = rscale;
        return;
    }
    res_sign = (var->sign == NUMERIC_POS) == (ival > 0) ? NUMERIC_POS
                                                        : NUMERIC_NEG;
    res_weight = var->weight - ival_weight;
    res_ndigits = quotient_ndigits(res_weight, rscale, round);
    res_buf = digit_buffer(res_ndigits + 1);
    res_buf[0] = 0;
    divisor = (uint64)(ival < 0 ? -(int64)ival : (int64)ival);
    for (int i = 0; i < res_ndigits; i++) {
        rem = rem * NBASE + (uint64)(i < var->ndigits ? var->digits[i] : 0);
        res_buf[i + 1] = (NumericDigit)(rem / divisor);
        rem %= divisor;
    }
    digit_buffer_free(result->buf);
    result->buf = res_buf;
    result->digits = res_buf + 1;
    result->ndigits = res_ndigits;
    result->weight = res_weight;
    result->sign = res_sign;
    finish_quotient(result, rscale, round);
}

/*
 * result = var1 / var2 to rscale fractional digits, exactly: rounded
 * (half away from zero) if round, else truncated toward zero.
 * Knuth's algorithm D (TAOCP vol. 2, 4.3.1) in base NBASE.
 */
void
tdb_numvar_div(const NumericVar *var1, const NumericVar *var2,
               NumericVar *result, int rscale, bool round)
{
    int n1 = var1->ndigits;
    int n2 = var2->ndigits;
    int res_weight;
    int res_ndigits;
    int res_sign;
    int div_ndigits;
    NumericDigit *dividend;
    NumericDigit *divisor;
    NumericDigit *quot;
    int d1;
    int d2;

    if (division_prologue(var1, var2, result, rscale, round))
        return;
    res_sign = var1->sign == var2->sign ? NUMERIC_POS : NUMERIC_NEG;
    res_weight = var1->weight - var2->weight;
    res_ndigits = quotient_ndigits(res_weight, rscale, round);
    div_ndigits = Max(res_ndigits + n2, var1->ndigits);

    /*
     * One zeroed workspace: dividend[0 .. div_ndigits] (dividend[0] takes
     * the carry of normalization), then divisor[0 .. n2] with a zero in
     * divisor[0].  Copying the inputs first lets result be an input.
     */
    dividend = tdb_palloc0_array(NumericDigit, div_ndigits + n2 + 2);
    divisor = dividend + div_ndigits + 1;
    memcpy(dividend + 1, var1->digits,
           (Size)var1->ndigits * sizeof(NumericDigit));
    memcpy(divisor + 1, var2->digits, (Size)n2 * sizeof(NumericDigit));
    tdb_numvar_alloc(result, res_ndigits);
    quot = result->digits;

    /* Normalize: scale both so that the divisor's first digit >= NBASE/2. */
    if (divisor[1] < HALF_NBASE) {
        int scale = NBASE / (divisor[1] + 1);
        int carry = 0;

        for (int i = n2; i > 0; i--) {
            carry += divisor[i] * scale;
            divisor[i] = (NumericDigit)(carry % NBASE);
            carry /= NBASE;
        }
        Assert(carry == 0);
        for (int i = n1; i >= 0; i--) {
            carry += dividend[i] * scale;
            dividend[i] = (NumericDigit)(carry % NBASE);
            carry /= NBASE;
        }
        Assert(carry == 0);
    }
    d1 = divisor[1];
    d2 = divisor[2];

    for (int j = 0; j < res_ndigits; j++) {
        NumericDigit *window = &dividend[j];
        int top2 = window[0] * NBASE + window[1];
        int qhat;

        if (top2 == 0) {
            quot[j] = 0;
            continue;
        }
        qhat = window[0] == d1 ? NBASE - 1 : top2 / d1;
        /* after this, qhat is right or one too large */
        while (d2 * qhat > (top2 - qhat * d1) * NBASE + window[2])
            qhat--;
        if (qhat > 0) {
            int borrow = 0;

            /* window[0 .. n2] -= qhat * divisor */
            for (int i = n2; i >= 0; i--) {
                int t = window[i] - borrow - divisor[i] * qhat;

                borrow = (NBASE - 1 - t) / NBASE;
                window[i] = (NumericDigit)(t + borrow * NBASE);
            }
            if (borrow) {
                /* qhat was one too large: add the divisor back */
                int carry = 0;

                qhat--;
                for (int i = n2; i >= 0; i--) {
                    carry += window[i] + divisor[i];
                    if (carry >= NBASE) {
                        window[i] = (NumericDigit)(carry - NBASE);
                        carry = 1;
                    } else {
                        window[i] = (NumericDigit)carry;
                        carry = 0;
                    }
                }
                Assert(carry == 1);
            }
        }
        quot[j] = (NumericDigit)qhat;
    }
    tdb_pfree(dividend);

    result->weight = res_weight;
    result->sign = res_sign;
    finish_quotient(result, rscale, round);
}

/*
 * Normalize signed accumulator digits acc[lo .. hi] into 0..NBASE-1 by
 * propagating carries (floor division) from acc[hi]; returns the carry
 * out of acc[lo].
 */
static int
normalize_signed(int *acc, int lo, int hi)
{
    int carry = 0;

    for (int i = hi; i >= lo; i--) {
        int digit = acc[i] + carry;

        if (digit < 0) {
            carry = -((-digit - 1) / NBASE) - 1;
            digit -= carry * NBASE;
        } else if (digit >= NBASE) {
            carry = digit / NBASE;
            digit -= carry * NBASE;
        } else {
            carry = 0;
        }
        acc[i] = digit;
    }
    return carry;
}

/* floor() of a quotient estimate, as an int */
static int
estimate_digit(double q)
{
    return q >= 0.0 ? (int)q : (int)q - 1;
}

/* The current dividend's first four digits as a double. */
static double
leading_value(const int *div, int qi, int last)
{
    double value = (double)div[qi];

    for (int i = 1; i < 4; i++) {
        value *= NBASE;
        if (qi + i <= last)
            value += (double)div[qi + i];
    }
    return value;
}

/*
 * result = var1 / var2, approximately, to rscale digits: the division of
 * the "FM" library, whose quotient digits come from floating-point
 * estimates and may be off by one until a final carry pass; it keeps
 * DIV_GUARD_DIGITS extra digits.  Used where PostgreSQL uses it (ln, log,
 * power), so that those functions round identically.
 */
void
tdb_numvar_div_fast(const NumericVar *var1, const NumericVar *var2,
                    NumericVar *result, int rscale, bool round)
{
    int n2 = var2->ndigits;
    int res_sign;
    int res_weight;
    int div_ndigits;
    int *div;
    double fdivisor;
    double finverse;
    int maxdiv;
    int qi;

    if (division_prologue(var1, var2, result, rscale, round))
        return;
    res_sign = var1->sign == var2->sign ? NUMERIC_POS : NUMERIC_NEG;
    res_weight = var1->weight - var2->weight + 1;
    div_ndigits = res_weight + 1 + (rscale + DEC_DIGITS - 1) / DEC_DIGITS +
                  DIV_GUARD_DIGITS;
    div_ndigits = Max(div_ndigits, DIV_GUARD_DIGITS);

    /* div[0] = 0, then the dividend's digits (as many as are needed) */
    div = tdb_palloc0_array(int, div_ndigits + 1);
    for (int i = 0; i < Min(div_ndigits, var1->ndigits); i++)
        div[i + 1] = var1->digits[i];

    fdivisor = (double)var2->digits[0];
    for (int i = 1; i < 4; i++) {
        fdivisor *= NBASE;
        if (i < n2)
            fdivisor += (double)var2->digits[i];
    }
    finverse = 1.0 / fdivisor;

    /*
     * maxdiv bounds |div[i]| for i > qi, in units of NBASE-1; before it
     * could overflow an int (counting the carries of the normalization
     * itself), the touched part of div[] is normalized.
     */
    maxdiv = 1;
    for (qi = 0; qi < div_ndigits; qi++) {
        int qdigit = estimate_digit(leading_value(div, qi, div_ndigits) *
                                    finverse);

        if (qdigit != 0) {
            maxdiv += abs(qdigit);
            if (maxdiv > (INT_MAX - INT_MAX / NBASE - 1) / (NBASE - 1)) {
                div[qi] += normalize_signed(div, qi + 1,
                                            Min(qi + n2 - 2, div_ndigits));
                maxdiv = 1;
                qdigit = estimate_digit(
                    leading_value(div, qi, div_ndigits) * finverse);
                maxdiv += abs(qdigit);
            }
            if (qdigit != 0) {
                int stop = Min(n2, div_ndigits - qi + 1);
                int *dst = &div[qi];

                for (int i = 0; i < stop; i++)
                    dst[i] -= (NumericDigit)qdigit * var2->digits[i];
            }
        }
        /*
         * Fold what is left of this position into the next.  The product
         * may wrap, but the sum with div[qi + 1] wraps back (as in
         * PostgreSQL); do it unsigned so the wrap is defined.
         */
        div[qi + 1] = (int)((unsigned)div[qi + 1] +
                            (unsigned)div[qi] * (unsigned)NBASE);
        div[qi] = qdigit;
    }
    {
        double last = (double)div[qi];

        for (int i = 1; i < 4; i++)
            last *= NBASE;
        div[qi] = estimate_digit(last * finverse);
    }

    /* final carry pass turns the off-by-one digits into proper ones */
    {
        int carry TDB_UNUSED = normalize_signed(div, 0, div_ndigits);

        Assert(carry == 0);
    }
    tdb_numvar_alloc(result, div_ndigits + 1);
    for (int i = 0; i <= div_ndigits; i++)
        result->digits[i] = (NumericDigit)div[i];
    tdb_pfree(div);
    result->weight = res_weight;
    result->sign = res_sign;
    finish_quotient(result, rscale, round);
}

/*
 * The result scale of var1 / var2: enough for NUMERIC_MIN_SIG_DIGITS
 * significant digits, and no less than either input's dscale.
 */
int
tdb_numvar_select_div_scale(const NumericVar *var1, const NumericVar *var2)
{
    int weight1 = 0;
    int weight2 = 0;
    int first1 = 0;
    int first2 = 0;
    int qweight;
    int rscale;

    for (int i = 0; i < var1->ndigits; i++) {
        first1 = var1->digits[i];
        if (first1 != 0) {
            weight1 = var1->weight - i;
            break;
        }
    }
    for (int i = 0; i < var2->ndigits; i++) {
        first2 = var2->digits[i];
        if (first2 != 0) {
            weight2 = var2->weight - i;
            break;
        }
    }
    /* the quotient's weight; with equal first digits assume var1 < var2 */
    qweight = weight1 - weight2;
    if (first1 <= first2)
        qweight--;

    rscale = NUMERIC_MIN_SIG_DIGITS - qweight * DEC_DIGITS;
    rscale = Max(rscale, var1->dscale);
    rscale = Max(rscale, var2->dscale);
    rscale = Max(rscale, NUMERIC_MIN_DISPLAY_SCALE);
    return Min(rscale, NUMERIC_MAX_DISPLAY_SCALE);
}

/* result = var1 - trunc(var1 / var2) * var2 */
void
tdb_numvar_mod(const NumericVar *var1, const NumericVar *var2,
               NumericVar *result)
{
    NumericVar quot;

    numvar_init(&quot);
    tdb_numvar_div(var1, var2, &quot, 0, false);
    tdb_numvar_mul(var2, &quot, &quot, var2->dscale);
    tdb_numvar_sub(var1, &quot, result);
    tdb_numvar_free(&quot);
}

/* ceil (up) or floor (!up) of var */
static void
round_to_integer(const NumericVar *var, NumericVar *result, bool up)
{
    NumericVar tmp;

    numvar_init(&tmp);
    tdb_numvar_copy(var, &tmp);
    tdb_numvar_trunc(&tmp, 0);
    if (var->sign == (up ? NUMERIC_POS : NUMERIC_NEG) &&
        tdb_numvar_cmp(var, &tmp) != 0) {
        if (up)
            tdb_numvar_add(&tmp, &tdb_numvar_one, &tmp);
        else
            tdb_numvar_sub(&tmp, &tdb_numvar_one, &tmp);
    }
    tdb_numvar_copy(&tmp, result);
    tdb_numvar_free(&tmp);
}

void
tdb_numvar_ceil(const NumericVar *var, NumericVar *result)
{
    round_to_integer(var, result, true);
}

void
tdb_numvar_floor(const NumericVar *var, NumericVar *result)
{
    round_to_integer(var, result, false);
}
