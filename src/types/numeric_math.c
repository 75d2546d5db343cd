/*
 * numeric_math.c -- numeric's transcendental functions: sqrt, exp, ln,
 * log (any base, and log10), power (and the ^ operator).
 *
 * Result scales and digits must be PostgreSQL's, so these follow its
 * algorithms step by step:
 *
 *   sqrt   the Karatsuba square root (Zimmermann, INRIA RR-3805) on the
 *          digits taken as an integer: exact, then rounded to rscale;
 *   exp    argument reduction by 2^n to |x| <= 0.01, Taylor series,
 *          n squarings;
 *   ln     reduction into (0.9, 1.1) by repeated square roots, then the
 *          series of atanh: ln x = 2 * (z + z^3/3 + ...), z = (x-1)/(x+1);
 *   power  integer exponents by repeated squaring (power_var_int),
 *          others as exp(y * ln x).
 *
 * Each works with a few more digits than the result needs and rounds at
 * the end, and each picks its result scale from a floating-point estimate
 * of the result's decimal weight: at least NUMERIC_MIN_SIG_DIGITS (16)
 * significant digits, and no less than the inputs' display scales.
 *
 * The estimates need ln and log10 of doubles.  tupledb does not link the
 * math library, so approx_ln below computes them (frexp and an atanh
 * series; within a few units in the last place, exact for powers of ten
 * in log10).  They only choose working precisions and result scales,
 * where PostgreSQL truncates them to integers, so a last-place
 * difference from libm could only matter for an argument within ~1e-15
 * of a boundary.
 */
#include "common/base.h"

#include <math.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/numeric.h"

static const NumericDigit digits_zero_point_nine[1] = {9000};
static const NumericDigit digits_one_point_one[2] = {1, 1000};
static const NumericVar const_zero_point_nine = {
    1, -1, NUMERIC_POS, 1, NULL, (NumericDigit *)digits_zero_point_nine};
static const NumericVar const_one_point_one = {
    2, 0, NUMERIC_POS, 1, NULL, (NumericDigit *)digits_one_point_one};

/* ----------------------------------------------------------------------
 * Floating-point estimates
 * ---------------------------------------------------------------------- */

/* Natural logarithm of x > 0. */
static double
approx_ln(double x)
{
    const double ln2 = 0.6931471805599453;
    int exponent;
    double m = frexp(x, &exponent); /* x = m * 2^exponent, 0.5 <= m < 1 */
    double s;
    double s2;
    double term;
    double sum = 0.0;

    if (m < 0.7071067811865476) {
        m *= 2.0;
        exponent--;
    }
    /* ln m = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...), |s| < 0.172 */
    s = (m - 1.0) / (m + 1.0);
    s2 = s * s;
    term = s;
    for (int k = 1; k < 60; k += 2) {
        double add = term / k;

        sum += add;
        if ((add < 0 ? -add : add) < 1e-20)
            break;
        term *= s2;
    }
    return 2.0 * sum + exponent * ln2;
}

/* log10 of x > 0; exact for the powers of ten a double holds exactly. */
static double
approx_log10(double x)
{
    double power = 1.0;

    for (int k = 0; k <= 22; k++, power *= 10.0)
        if (x == power)
            return k;
    return approx_ln(x) * 0.4342944819032518;
}

/* (int) log10(digit) for an NBASE digit 1 .. 9999 */
static int
digit_log10(int digit)
{
    return digit >= 1000 ? 3 : digit >= 100 ? 2 : digit >= 10 ? 1 : 0;
}

static double
fabs_double(double x)
{
    return x < 0 ? -x : x;
}

/* ----------------------------------------------------------------------
 * Square root
 * ---------------------------------------------------------------------- */

/* floor(sqrt(n)) for n >= 0, by Newton's iteration on integers */
static int64
isqrt64(int64 n)
{
    uint64 x;
    uint64 y;

    if (n < 2)
        return n;
    x = (uint64)n;
    y = (x + 1) / 2;
    while (y < x) {
        x = y;
        y = (x + (uint64)n / x) / 2;
    }
    return (int64)x;
}

/* An integer var of the len digits of arg at from (zero beyond arg). */
static void
digits_as_integer(const NumericVar *arg, int from, int len, NumericVar *var)
{
    int avail = Min(len, arg->ndigits - from);

    if (avail <= 0) {
        tdb_numvar_zero_out(var);
        var->dscale = 0;
        return;
    }
    tdb_numvar_alloc(var, avail);
    memcpy(var->digits, arg->digits + from,
           (Size)avail * sizeof(NumericDigit));
    var->weight = len - 1;
    var->sign = NUMERIC_POS;
    var->dscale = 0;
    tdb_numvar_strip(var);
}

/*
 * result = sqrt(arg) rounded to rscale (which may be negative); 2201F
 * for a negative argument.
 *
 * The digits of arg are read as an integer n = a3*b^3 + a2*b^2 + a1*b + a0
 * with b = NBASE^blen and a3 >= b/4; then, from (s, r) = SqrtRem(a3*b + a2)
 * computed the same way, (q, u) = DivRem(r*b + a1, 2s), s' = s*b + q,
 * r' = u*b + a0 - q^2, and if r' < 0: r' += s', s'--, r' += s'.  The
 * innermost root (at most 4 digits) is an int64 square root.
 */
void
tdb_numvar_sqrt(const NumericVar *arg, NumericVar *result, int rscale)
{
    int res_weight;
    int res_ndigits;
    int src_ndigits;
    int steps[32];
    int step;
    int src_idx;
    int64 n64;
    int64 s64;
    NumericVar s;
    NumericVar r;
    NumericVar a1;
    NumericVar a0;
    NumericVar q;
    NumericVar u;
    NumericVar numer;
    NumericVar denom;
    int cmp = tdb_numvar_cmp(arg, &tdb_numvar_zero);

    if (cmp == 0) {
        tdb_numvar_zero_out(result);
        result->dscale = rscale;
        return;
    }
    if (cmp < 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION),
                errmsg("cannot take square root of a negative number"));

    /* floor(weight / 2) */
    res_weight = arg->weight >= 0 ? arg->weight / 2
                                  : -((-arg->weight - 1) / 2 + 1);
    /* one decimal digit beyond rscale, at least one NBASE digit */
    if (rscale + 1 >= 0)
        res_ndigits = res_weight + 1 + (rscale + DEC_DIGITS) / DEC_DIGITS;
    else
        res_ndigits = res_weight + 1 - (-rscale - 1) / DEC_DIGITS;
    res_ndigits = Max(res_ndigits, 1);
    src_ndigits = arg->weight + 1 + (res_ndigits - res_weight - 1) * 2;
    src_ndigits = Max(src_ndigits, 1);

    /* the input digits used after each step, outermost first */
    step = 0;
    while ((steps[step] = src_ndigits) > 4) {
        int blen = src_ndigits / 4;

        if (blen * 4 == src_ndigits && arg->digits[0] < NBASE / 4)
            blen--;
        src_ndigits -= 2 * blen;
        step++;
    }

    n64 = arg->digits[0];
    for (src_idx = 1; src_idx < src_ndigits; src_idx++) {
        n64 *= NBASE;
        if (src_idx < arg->ndigits)
            n64 += arg->digits[src_idx];
    }
    s64 = isqrt64(n64);

    numvar_init(&s);
    numvar_init(&r);
    numvar_init(&a1);
    numvar_init(&a0);
    numvar_init(&q);
    numvar_init(&u);
    numvar_init(&numer);
    numvar_init(&denom);
    tdb_numvar_from_int64(s64, &s);
    tdb_numvar_from_int64(n64 - s64 * s64, &r);

    while (--step >= 0) {
        int blen = (steps[step] - src_idx) / 2;

        digits_as_integer(arg, src_idx, blen, &a1);
        src_idx += blen;
        digits_as_integer(arg, src_idx, blen, &a0);
        src_idx += blen;

        /* (q, u) = DivRem(r * b + a1, 2 * s) */
        tdb_numvar_copy(&r, &numer);
        numer.weight += blen;
        tdb_numvar_add(&numer, &a1, &numer);
        tdb_numvar_add(&s, &s, &denom);
        tdb_numvar_div(&numer, &denom, &q, 0, false);
        tdb_numvar_mul(&denom, &q, &u, 0);
        tdb_numvar_sub(&numer, &u, &u);

        /* s = s * b + q */
        s.weight += blen;
        tdb_numvar_add(&s, &q, &s);

        /* r = u * b + a0 - q^2; if negative, s was one too large */
        u.weight += blen;
        tdb_numvar_add(&u, &a0, &u);
        tdb_numvar_mul(&q, &q, &q, 0);
        tdb_numvar_sub(&u, &q, &r);
        if (r.sign == NUMERIC_NEG && r.ndigits > 0) {
            tdb_numvar_add(&r, &s, &r);
            tdb_numvar_sub(&s, &tdb_numvar_one, &s);
            tdb_numvar_add(&r, &s, &r);
        }
    }

    /* s holds the root's digits; place them at res_weight and round */
    tdb_numvar_copy(&s, result);
    result->weight = res_weight;
    result->sign = NUMERIC_POS;
    tdb_numvar_round(result, rscale);
    tdb_numvar_strip(result);

    tdb_numvar_free(&s);
    tdb_numvar_free(&r);
    tdb_numvar_free(&a1);
    tdb_numvar_free(&a0);
    tdb_numvar_free(&q);
    tdb_numvar_free(&u);
    tdb_numvar_free(&numer);
    tdb_numvar_free(&denom);
}

/* ----------------------------------------------------------------------
 * exp, ln, log
 * ---------------------------------------------------------------------- */

static void
raise_overflow(void)
{
    ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
            errmsg("value overflows numeric format"));
}

/* result = e^arg rounded to rscale */
static void
exp_var(const NumericVar *arg, NumericVar *result, int rscale)
{
    NumericVar x;
    NumericVar elem;
    double val;
    int dweight;
    int ndiv2 = 0;
    int sig_digits;
    int local_rscale;
    int ni;

    numvar_init(&x);
    numvar_init(&elem);
    tdb_numvar_copy(arg, &x);

    val = tdb_numvar_to_double(&x);
    if (fabs_double(val) >= NUMERIC_MAX_RESULT_SCALE * 3) {
        if (val > 0)
            raise_overflow();
        tdb_numvar_zero_out(result);
        result->dscale = rscale;
        tdb_numvar_free(&x);
        return;
    }
    dweight = (int)(val * 0.434294481903252); /* log10(e^x) */

    /* reduce x to about |x| <= 0.01 by dividing by 2^ndiv2 */
    if (fabs_double(val) > 0.01) {
        do {
            ndiv2++;
            val /= 2;
        } while (fabs_double(val) > 0.01);
        local_rscale = x.dscale + ndiv2;
        tdb_numvar_div_int(&x, 1 << ndiv2, 0, &x, local_rscale, true);
    }

    /*
     * The result has dweight + rscale + 1 significant digits; squaring
     * ndiv2 times costs about log10(2^ndiv2) digits; plus 8 spare.
     */
    sig_digits = 1 + dweight + rscale + (int)(ndiv2 * 0.301029995663981);
    sig_digits = Max(sig_digits, 0) + 8;
    local_rscale = sig_digits - 1;

    /* 1 + x + x^2/2! + x^3/3! + ... until the terms vanish */
    tdb_numvar_add(&tdb_numvar_one, &x, result);
    tdb_numvar_mul(&x, &x, &elem, local_rscale);
    ni = 2;
    tdb_numvar_div_int(&elem, ni, 0, &elem, local_rscale, true);
    while (elem.ndigits != 0) {
        tdb_numvar_add(result, &elem, result);
        tdb_numvar_mul(&elem, &x, &elem, local_rscale);
        ni++;
        tdb_numvar_div_int(&elem, ni, 0, &elem, local_rscale, true);
    }

    /* undo the reduction; each squaring doubles the weight */
    while (ndiv2-- > 0) {
        local_rscale = sig_digits - result->weight * 2 * DEC_DIGITS;
        local_rscale = Max(local_rscale, NUMERIC_MIN_DISPLAY_SCALE);
        tdb_numvar_mul(result, result, result, local_rscale);
    }
    tdb_numvar_round(result, rscale);
    tdb_numvar_free(&x);
    tdb_numvar_free(&elem);
}

/*
 * The decimal weight of ln(var): about log10(|ln(var)|).  Zero for
 * invalid arguments (callers raise their own errors later).
 */
static int
estimate_ln_dweight(const NumericVar *var)
{
    if (var->sign != NUMERIC_POS)
        return 0;
    if (tdb_numvar_cmp(var, &const_zero_point_nine) >= 0 &&
        tdb_numvar_cmp(var, &const_one_point_one) <= 0) {
        /* near 1: ln(1 + x) ~= x */
        NumericVar x;
        int dweight = 0;

        numvar_init(&x);
        tdb_numvar_sub(var, &tdb_numvar_one, &x);
        if (x.ndigits > 0)
            dweight = x.weight * DEC_DIGITS + digit_log10(x.digits[0]);
        tdb_numvar_free(&x);
        return dweight;
    }
    if (var->ndigits > 0) {
        /* var ~= digits * 10^dweight, ln(var) ~= ln(digits) + dweight ln 10 */
        int digits = var->digits[0];
        int dweight = var->weight * DEC_DIGITS;
        double ln_var;

        if (var->ndigits > 1) {
            digits = digits * NBASE + var->digits[1];
            dweight -= DEC_DIGITS;
        }
        ln_var = approx_ln((double)digits) + dweight * 2.302585092994046;
        return (int)approx_log10(fabs_double(ln_var));
    }
    return 0;
}

/* result = ln(arg) rounded to rscale; 2201E for arg <= 0 */
static void
ln_var(const NumericVar *arg, NumericVar *result, int rscale)
{
    NumericVar x;
    NumericVar xx;
    NumericVar elem;
    NumericVar fact;
    int nsqrt = 0;
    int local_rscale;
    int cmp = tdb_numvar_cmp(arg, &tdb_numvar_zero);
    int ni;

    if (cmp == 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_ARGUMENT_FOR_LOG),
                errmsg("cannot take logarithm of zero"));
    if (cmp < 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_ARGUMENT_FOR_LOG),
                errmsg("cannot take logarithm of a negative number"));

    numvar_init(&x);
    numvar_init(&xx);
    numvar_init(&elem);
    numvar_init(&fact);
    tdb_numvar_copy(arg, &x);
    tdb_numvar_copy(&tdb_numvar_two, &fact);

    /*
     * Square roots until 0.9 < x < 1.1, each with enough digits for the
     * final rscale + ~6 significant digits (the scale may be negative for
     * big x: sqrt rounds before the point then).
     */
    while (tdb_numvar_cmp(&x, &const_zero_point_nine) <= 0 ||
           tdb_numvar_cmp(&x, &const_one_point_one) >= 0) {
        local_rscale = rscale - x.weight * DEC_DIGITS / 2 + 8;
        tdb_numvar_sqrt(&x, &x, local_rscale);
        tdb_numvar_mul(&fact, &tdb_numvar_two, &fact, 0);
        nsqrt++;
    }

    /* the series gets multiplied by 2^(nsqrt+1): that many digits more */
    local_rscale = rscale + (int)((nsqrt + 1) * 0.301029995663981) + 8;

    /* z = (x - 1) / (x + 1); result = z + z^3/3 + z^5/5 + ... */
    tdb_numvar_sub(&x, &tdb_numvar_one, result);
    tdb_numvar_add(&x, &tdb_numvar_one, &elem);
    tdb_numvar_div_fast(result, &elem, result, local_rscale, true);
    tdb_numvar_copy(result, &xx);
    tdb_numvar_mul(result, result, &x, local_rscale);
    ni = 1;
    for (;;) {
        ni += 2;
        tdb_numvar_mul(&xx, &x, &xx, local_rscale);
        tdb_numvar_div_int(&xx, ni, 0, &elem, local_rscale, true);
        if (elem.ndigits == 0)
            break;
        tdb_numvar_add(result, &elem, result);
        if (elem.weight < result->weight - local_rscale * 2 / DEC_DIGITS)
            break;
    }
    tdb_numvar_mul(result, &fact, result, rscale);

    tdb_numvar_free(&x);
    tdb_numvar_free(&xx);
    tdb_numvar_free(&elem);
    tdb_numvar_free(&fact);
}

static int
clamp_display_scale(int rscale)
{
    rscale = Max(rscale, NUMERIC_MIN_DISPLAY_SCALE);
    return Min(rscale, NUMERIC_MAX_DISPLAY_SCALE);
}

/* result = log_base(num), choosing its own scale */
static void
log_var(const NumericVar *base, const NumericVar *num, NumericVar *result)
{
    NumericVar ln_base;
    NumericVar ln_num;
    int ln_base_dweight = estimate_ln_dweight(base);
    int ln_num_dweight = estimate_ln_dweight(num);
    int result_dweight = ln_num_dweight - ln_base_dweight;
    int rscale;
    int ln_base_rscale;
    int ln_num_rscale;

    rscale = NUMERIC_MIN_SIG_DIGITS - result_dweight;
    rscale = Max(rscale, base->dscale);
    rscale = Max(rscale, num->dscale);
    rscale = clamp_display_scale(rscale);

    /* each logarithm with more significant digits than the result */
    ln_base_rscale = rscale + result_dweight - ln_base_dweight + 8;
    ln_base_rscale = Max(ln_base_rscale, NUMERIC_MIN_DISPLAY_SCALE);
    ln_num_rscale = rscale + result_dweight - ln_num_dweight + 8;
    ln_num_rscale = Max(ln_num_rscale, NUMERIC_MIN_DISPLAY_SCALE);

    numvar_init(&ln_base);
    numvar_init(&ln_num);
    ln_var(base, &ln_base, ln_base_rscale);
    ln_var(num, &ln_num, ln_num_rscale);
    tdb_numvar_div_fast(&ln_num, &ln_base, result, rscale, true);
    tdb_numvar_free(&ln_num);
    tdb_numvar_free(&ln_base);
}

/* ----------------------------------------------------------------------
 * power
 * ---------------------------------------------------------------------- */

/* result = base^exp for an integer exp, rounded to rscale */
static void
power_var_int(const NumericVar *base, int exp, NumericVar *result,
              int rscale)
{
    double f;
    int p;
    int sig_digits;
    unsigned int mask;
    bool neg;
    NumericVar base_prod;
    int local_rscale;

    switch (exp) {
    case 0:
        /* 0 ^ 0 is 1, as SQL:2003 requires */
        tdb_numvar_copy(&tdb_numvar_one, result);
        result->dscale = rscale;
        return;
    case 1:
        tdb_numvar_copy(base, result);
        tdb_numvar_round(result, rscale);
        return;
    case -1:
        tdb_numvar_div(&tdb_numvar_one, base, result, rscale, true);
        return;
    case 2:
        tdb_numvar_mul(base, base, result, rscale);
        return;
    default:
        break;
    }
    if (base->ndigits == 0) {
        if (exp < 0)
            ereport(ERROR, errcode(ERRCODE_DIVISION_BY_ZERO),
                    errmsg("division by zero"));
        tdb_numvar_zero_out(result);
        result->dscale = rscale;
        return;
    }

    /* base ~= f * 10^p, so log10(result) ~= exp * (log10(f) + p) */
    f = base->digits[0];
    p = base->weight * DEC_DIGITS;
    for (int i = 1; i < base->ndigits && i * DEC_DIGITS < 16; i++) {
        f = f * NBASE + base->digits[i];
        p -= DEC_DIGITS;
    }
    f = exp * (approx_log10(f) + p);
    if (f > 3 * NUMERIC_WEIGHT_MAX * DEC_DIGITS)
        raise_overflow();
    if (f + 1 < -rscale || f + 1 < -NUMERIC_MAX_DISPLAY_SCALE) {
        tdb_numvar_zero_out(result);
        result->dscale = rscale;
        return;
    }

    /* significant digits, plus ~log10(|exp|) lost in the products */
    sig_digits = 1 + rscale + (int)f;
    sig_digits += (int)approx_ln(fabs_double((double)exp)) + 8;

    neg = exp < 0;
    mask = neg ? 0u - (unsigned int)exp : (unsigned int)exp;
    numvar_init(&base_prod);
    tdb_numvar_copy(base, &base_prod);
    tdb_numvar_copy((mask & 1) ? base : &tdb_numvar_one, result);
    while ((mask >>= 1) > 0) {
        local_rscale = sig_digits - 2 * base_prod.weight * DEC_DIGITS;
        local_rscale = Min(local_rscale, 2 * base_prod.dscale);
        local_rscale = Max(local_rscale, NUMERIC_MIN_DISPLAY_SCALE);
        tdb_numvar_mul(&base_prod, &base_prod, &base_prod, local_rscale);
        if (mask & 1) {
            local_rscale = sig_digits -
                           (base_prod.weight + result->weight) * DEC_DIGITS;
            local_rscale =
                Min(local_rscale, base_prod.dscale + result->dscale);
            local_rscale = Max(local_rscale, NUMERIC_MIN_DISPLAY_SCALE);
            tdb_numvar_mul(&base_prod, result, result, local_rscale);
        }
        /* a weight beyond int16 overflows for sure (or underflows) */
        if (base_prod.weight > NUMERIC_WEIGHT_MAX ||
            result->weight > NUMERIC_WEIGHT_MAX) {
            if (!neg)
                raise_overflow();
            tdb_numvar_zero_out(result);
            neg = false;
            break;
        }
    }
    tdb_numvar_free(&base_prod);
    if (neg)
        tdb_numvar_div_fast(&tdb_numvar_one, result, result, rscale, true);
    else
        tdb_numvar_round(result, rscale);
}

/* result = base^exp for finite values, choosing its own scale */
static void
power_var(const NumericVar *base, const NumericVar *exp, NumericVar *result)
{
    NumericVar abs_base;
    NumericVar ln_base;
    NumericVar ln_num;
    int res_sign = NUMERIC_POS;
    int ln_dweight;
    int rscale;
    int sig_digits;
    int local_rscale;
    double val;

    /* an integral exponent that fits in an int: repeated squaring */
    if (exp->ndigits == 0 || exp->ndigits <= exp->weight + 1) {
        int64 expval;

        if (tdb_numvar_to_int64(exp, &expval) && expval >= INT32_MIN &&
            expval <= INT32_MAX) {
            rscale = Max(NUMERIC_MIN_SIG_DIGITS, base->dscale);
            power_var_int(base, (int)expval, result,
                          clamp_display_scale(rscale));
            return;
        }
    }
    /* 0 ^ non-integer (0 ^ 0 went above) */
    if (base->ndigits == 0) {
        tdb_numvar_copy(&tdb_numvar_zero, result);
        result->dscale = NUMERIC_MIN_SIG_DIGITS;
        return;
    }

    numvar_init(&abs_base);
    numvar_init(&ln_base);
    numvar_init(&ln_num);
    if (base->sign == NUMERIC_NEG) {
        if (exp->ndigits > 0 && exp->ndigits > exp->weight + 1)
            ereport(ERROR,
                    errcode(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION),
                    errmsg("a negative number raised to a non-integer power "
                           "yields a complex result"));
        if (exp->ndigits > 0 && exp->ndigits == exp->weight + 1 &&
            (exp->digits[exp->ndigits - 1] & 1))
            res_sign = NUMERIC_NEG;
        tdb_numvar_copy(base, &abs_base);
        abs_base.sign = NUMERIC_POS;
        base = &abs_base;
    }

    /*
     * A low-precision exp * ln(base) (ln to ~8 significant digits) gives
     * the result's decimal weight, the scale, and an early overflow test
     * (with some fuzz: exp_var decides the exact threshold).
     */
    ln_dweight = estimate_ln_dweight(base);
    local_rscale = Max(8 - ln_dweight, NUMERIC_MIN_DISPLAY_SCALE);
    ln_var(base, &ln_base, local_rscale);
    tdb_numvar_mul(&ln_base, exp, &ln_num, local_rscale);
    val = tdb_numvar_to_double(&ln_num);
    if (fabs_double(val) > NUMERIC_MAX_RESULT_SCALE * 3.01) {
        if (val > 0)
            raise_overflow();
        tdb_numvar_zero_out(result);
        result->dscale = NUMERIC_MAX_DISPLAY_SCALE;
        tdb_numvar_free(&abs_base);
        tdb_numvar_free(&ln_base);
        tdb_numvar_free(&ln_num);
        return;
    }
    val *= 0.434294481903252; /* decimal weight of the result */

    rscale = NUMERIC_MIN_SIG_DIGITS - (int)val;
    rscale = Max(rscale, base->dscale);
    rscale = Max(rscale, exp->dscale);
    rscale = clamp_display_scale(rscale);
    sig_digits = Max(rscale + (int)val, 0);

    /* the real calculation */
    local_rscale = Max(sig_digits - ln_dweight + 8, NUMERIC_MIN_DISPLAY_SCALE);
    ln_var(base, &ln_base, local_rscale);
    tdb_numvar_mul(&ln_base, exp, &ln_num, local_rscale);
    exp_var(&ln_num, result, rscale);
    if (res_sign == NUMERIC_NEG && result->ndigits > 0)
        result->sign = NUMERIC_NEG;

    tdb_numvar_free(&abs_base);
    tdb_numvar_free(&ln_base);
    tdb_numvar_free(&ln_num);
}

/* ----------------------------------------------------------------------
 * SQL functions
 * ---------------------------------------------------------------------- */

/* 2201F / 2201E messages shared by several functions */
static void
raise_sqrt_negative(void)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION),
            errmsg("cannot take square root of a negative number"));
}

static void
raise_log_of(const char *what)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_ARGUMENT_FOR_LOG),
            errmsg("cannot take logarithm of %s", what));
}

Datum
tdb_numeric_sqrt(PG_FUNCTION_ARGS)
{
    NumericVar arg;
    NumericVar result;
    int sweight;
    int rscale;

    tdb_numeric_to_var(PG_GETARG_DATUM(0), &arg);
    if (numvar_is_special(&arg)) {
        if (arg.sign == NUMERIC_NINF)
            raise_sqrt_negative();
        return tdb_numeric_copy(PG_GETARG_DATUM(0)); /* NaN, Inf */
    }
    /* the root's decimal weight, from the (normalized) input weight */
    sweight = (arg.weight + 1) * DEC_DIGITS / 2 - 1;
    rscale = NUMERIC_MIN_SIG_DIGITS - sweight;
    rscale = clamp_display_scale(Max(rscale, arg.dscale));
    numvar_init(&result);
    tdb_numvar_sqrt(&arg, &result, rscale);
    return tdb_numeric_from_var_free(&result);
}

Datum
tdb_numeric_exp(PG_FUNCTION_ARGS)
{
    NumericVar arg;
    NumericVar result;
    double val;
    int rscale;

    tdb_numeric_to_var(PG_GETARG_DATUM(0), &arg);
    if (numvar_is_special(&arg)) {
        if (arg.sign == NUMERIC_NINF)
            return tdb_numeric_from_var(&tdb_numvar_zero);
        return tdb_numeric_copy(PG_GETARG_DATUM(0));
    }
    /* log10(e^x) = x log10(e): the result's decimal weight */
    val = tdb_numvar_to_double(&arg) * 0.434294481903252;
    val = Max(val, -NUMERIC_MAX_RESULT_SCALE);
    val = Min(val, NUMERIC_MAX_RESULT_SCALE);
    rscale = NUMERIC_MIN_SIG_DIGITS - (int)val;
    rscale = clamp_display_scale(Max(rscale, arg.dscale));
    numvar_init(&result);
    exp_var(&arg, &result, rscale);
    return tdb_numeric_from_var_free(&result);
}

Datum
tdb_numeric_ln(PG_FUNCTION_ARGS)
{
    NumericVar arg;
    NumericVar result;
    int rscale;

    tdb_numeric_to_var(PG_GETARG_DATUM(0), &arg);
    if (numvar_is_special(&arg)) {
        if (arg.sign == NUMERIC_NINF)
            raise_log_of("a negative number");
        return tdb_numeric_copy(PG_GETARG_DATUM(0));
    }
    rscale = NUMERIC_MIN_SIG_DIGITS - estimate_ln_dweight(&arg);
    rscale = clamp_display_scale(Max(rscale, arg.dscale));
    numvar_init(&result);
    ln_var(&arg, &result, rscale);
    return tdb_numeric_from_var_free(&result);
}

/* log(base, num) for stored values */
static Datum
log_datums(Datum base_datum, Datum num_datum)
{
    NumericVar base;
    NumericVar num;
    NumericVar result;

    tdb_numeric_to_var(base_datum, &base);
    tdb_numeric_to_var(num_datum, &num);
    if (numvar_is_special(&base) || numvar_is_special(&num)) {
        int sign1;
        int sign2;

        if (base.sign == NUMERIC_NAN || num.sign == NUMERIC_NAN)
            return tdb_numeric_from_var(&tdb_numvar_nan);
        sign1 = base.sign == NUMERIC_PINF   ? 1
                : base.sign == NUMERIC_NINF ? -1
                                            : tdb_numvar_cmp(&base,
                                                             &tdb_numvar_zero);
        sign2 = num.sign == NUMERIC_PINF   ? 1
                : num.sign == NUMERIC_NINF ? -1
                                           : tdb_numvar_cmp(&num,
                                                            &tdb_numvar_zero);
        if (sign1 < 0 || sign2 < 0)
            raise_log_of("a negative number");
        if (sign1 == 0 || sign2 == 0)
            raise_log_of("zero");
        if (base.sign == NUMERIC_PINF)
            /* log(Inf, Inf) is Inf/Inf: NaN; log(Inf, x) is 0 */
            return tdb_numeric_from_var(num.sign == NUMERIC_PINF
                                            ? &tdb_numvar_nan
                                            : &tdb_numvar_zero);
        return tdb_numeric_from_var(&tdb_numvar_pinf);
    }
    numvar_init(&result);
    log_var(&base, &num, &result);
    return tdb_numeric_from_var_free(&result);
}

Datum
tdb_numeric_log(PG_FUNCTION_ARGS)
{
    return log_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1));
}

/* log(x) and log10(x): PostgreSQL defines both as log(10, x) */
Datum
tdb_numeric_log10(PG_FUNCTION_ARGS)
{
    return log_datums(tdb_numeric_from_int64(10), PG_GETARG_DATUM(0));
}

/* Is var (not NaN) an integer?  Infinities count as integers. */
static bool
is_integral(const NumericVar *var)
{
    return numvar_is_special(var) || var->ndigits == 0 ||
           var->ndigits <= var->weight + 1;
}

static int
signum_of(const NumericVar *var)
{
    if (var->sign == NUMERIC_PINF)
        return 1;
    if (var->sign == NUMERIC_NINF)
        return -1;
    return tdb_numvar_cmp(var, &tdb_numvar_zero);
}

/*
 * power() with an infinite argument, following POSIX pow(): x^0 = 1,
 * 1^y = 1, 0^y = 0 for y > 0, and so on.
 */
static Datum
power_special(NumericVar *base, NumericVar *exp, int sign1, int sign2)
{
    if (!numvar_is_special(base) &&
        tdb_numvar_cmp(base, &tdb_numvar_one) == 0)
        return tdb_numeric_from_var(&tdb_numvar_one);
    if (sign2 == 0)
        return tdb_numeric_from_var(&tdb_numvar_one);
    if (sign1 == 0 && sign2 > 0)
        return tdb_numeric_from_var(&tdb_numvar_zero);
    if (numvar_is_special(exp)) {
        bool abs_base_gt_one = true; /* true for an infinite base */

        if (!numvar_is_special(base)) {
            NumericVar abs_base = *base;

            if (tdb_numvar_cmp(base, &tdb_numvar_minus_one) == 0)
                return tdb_numeric_from_var(&tdb_numvar_one);
            abs_base.sign = NUMERIC_POS;
            abs_base_gt_one = tdb_numvar_cmp(&abs_base, &tdb_numvar_one) > 0;
        }
        return tdb_numeric_from_var(abs_base_gt_one == (sign2 > 0)
                                        ? &tdb_numvar_pinf
                                        : &tdb_numvar_zero);
    }
    if (base->sign == NUMERIC_PINF)
        return tdb_numeric_from_var(sign2 > 0 ? &tdb_numvar_pinf
                                              : &tdb_numvar_zero);
    /* base is -Inf, exp finite and nonzero */
    if (sign2 < 0)
        return tdb_numeric_from_var(&tdb_numvar_zero);
    if (exp->ndigits > 0 && exp->ndigits == exp->weight + 1 &&
        (exp->digits[exp->ndigits - 1] & 1))
        return tdb_numeric_from_var(&tdb_numvar_ninf);
    return tdb_numeric_from_var(&tdb_numvar_pinf);
}

Datum
tdb_numeric_power(PG_FUNCTION_ARGS)
{
    NumericVar base;
    NumericVar exp;
    NumericVar result;
    int sign1;
    int sign2;

    tdb_numeric_to_var(PG_GETARG_DATUM(0), &base);
    tdb_numeric_to_var(PG_GETARG_DATUM(1), &exp);

    /* POSIX: NaN ^ 0 = 1 and 1 ^ NaN = 1; otherwise NaN propagates */
    if (base.sign == NUMERIC_NAN)
        return tdb_numeric_from_var(
            !numvar_is_special(&exp) && exp.ndigits == 0 ? &tdb_numvar_one
                                                         : &tdb_numvar_nan);
    if (exp.sign == NUMERIC_NAN)
        return tdb_numeric_from_var(
            !numvar_is_special(&base) &&
                    tdb_numvar_cmp(&base, &tdb_numvar_one) == 0
                ? &tdb_numvar_one
                : &tdb_numvar_nan);

    /* the SQL standard's error codes apply to infinite inputs too */
    sign1 = signum_of(&base);
    sign2 = signum_of(&exp);
    if (sign1 == 0 && sign2 < 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION),
                errmsg("zero raised to a negative power is undefined"));
    if (numvar_is_special(&base) || numvar_is_special(&exp)) {
        if (sign1 < 0 && !is_integral(&exp))
            ereport(ERROR,
                    errcode(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION),
                    errmsg("a negative number raised to a non-integer power "
                           "yields a complex result"));
        return power_special(&base, &exp, sign1, sign2);
    }
    numvar_init(&result);
    power_var(&base, &exp, &result);
    return tdb_numeric_from_var_free(&result);
}
