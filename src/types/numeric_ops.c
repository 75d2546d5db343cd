/*
 * numeric_ops.c -- numeric's SQL operators and simple functions: + - * /
 * %, unary - + @, abs, sign, round, trunc, ceil/ceiling, floor, div,
 * scale, min_scale, trim_scale, gcd, lcm.
 *
 * Each takes stored values (numeric.c), handles NaN and the infinities
 * by PostgreSQL's rules (which follow IEEE/POSIX where they apply: NaN
 * propagates, Inf - Inf and 0 * Inf are NaN, x / Inf is 0, but division
 * of an infinity by zero raises 22012), does the work on NumericVars
 * (numeric_arith.c), and returns a new stored value in the current
 * memory context.  Result scales are PostgreSQL's: the larger input
 * dscale for + and -, the sum of the dscales for *, select_div_scale for
 * /.
 */
#include "common/base.h"

#include <string.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/numeric.h"

/* -1, 0 or 1 for a finite value or an infinity (not NaN). */
static int
numvar_signum(const NumericVar *var)
{
    if (var->sign == NUMERIC_PINF)
        return 1;
    if (var->sign == NUMERIC_NINF)
        return -1;
    if (var->ndigits == 0)
        return 0;
    return var->sign == NUMERIC_NEG ? -1 : 1;
}

static Datum
special_result(int signum)
{
    if (signum == 0)
        return tdb_numeric_from_var(&tdb_numvar_nan);
    return tdb_numeric_from_var(signum > 0 ? &tdb_numvar_pinf
                                           : &tdb_numvar_ninf);
}

static void
raise_division_by_zero(void)
{
    ereport(ERROR, errcode(ERRCODE_DIVISION_BY_ZERO),
            errmsg("division by zero"));
}

/* ----------------------------------------------------------------------
 * + - * / %
 * ---------------------------------------------------------------------- */

/*
 * Fast paths for the common small operands of + - and *, which every
 * row of an expression like sum(a + b) over numeric(12,2) columns runs.
 * The general routines (numeric_arith.c) allocate a digit buffer per
 * result and loop digit by digit with bounds checks; here the work is
 * done in 64-bit integers with the result's digits on the stack, and
 * tdb_numeric_from_var makes the one allocation the result needs.  The
 * results are the same digits, weight, sign and dscale as the general
 * path's (tests/unit/types/test_numeric.c compares them over random
 * operands): these are exact operations, there is nothing to round.
 * Over 100k rows of bench-types' table (callgrind), sum(a + b) fell from
 * about 1,720 to 1,570 instructions per row and sum(a * b) from 1,940 to
 * 1,600.
 */

/* NBASE digits an operand of add_fast may have after scaling: 10000^4 =
 * 10^16, so a sum or difference of two stays far below 2^63. */
#define ADD_FAST_DIGITS 4
/* Digits of each factor of mul_fast: acc entries stay below 8 * 9999^2. */
#define MUL_FAST_DIGITS 8

/* var's digits as an integer, times NBASE^(frac - var's fractional
 * digits); the caller checked that it fits. */
static int64
digits_to_int64(const NumericVar *var, int frac)
{
    int64 v = 0;

    for (int i = 0; i < var->ndigits; i++)
        v = v * NBASE + var->digits[i];
    for (int k = var->ndigits - var->weight - 1; k < frac; k++)
        v *= NBASE;
    return var->sign == NUMERIC_NEG ? -v : v;
}

/*
 * result = var1 + var2 (negate2: var1 - var2) if both are finite and
 * small enough; its digits go into out.  False if not applicable.
 */
static bool
add_fast(const NumericVar *var1, const NumericVar *var2, bool negate2,
         NumericVar *result, NumericDigit out[ADD_FAST_DIGITS + 1])
{
    int frac = Max(Max(var1->ndigits - var1->weight - 1,
                       var2->ndigits - var2->weight - 1),
                   0);
    int64 v;
    uint64 u;
    int n = 0;
    NumericDigit rev[ADD_FAST_DIGITS + 1];

    if (Max(var1->weight, var2->weight) + 1 + frac > ADD_FAST_DIGITS ||
        var1->ndigits > ADD_FAST_DIGITS || var2->ndigits > ADD_FAST_DIGITS)
        return false;
    v = digits_to_int64(var2, frac);
    v = digits_to_int64(var1, frac) + (negate2 ? -v : v);
    u = v < 0 ? (uint64)-v : (uint64)v;
    while (u != 0) {
        rev[n++] = (NumericDigit)(u % NBASE);
        u /= NBASE;
    }
    for (int i = 0; i < n; i++)
        out[i] = rev[n - 1 - i];
    result->ndigits = n;
    result->weight = n - 1 - frac;
    result->sign = v < 0 ? NUMERIC_NEG : NUMERIC_POS;
    result->dscale = Max(var1->dscale, var2->dscale);
    result->buf = NULL;
    result->digits = out;
    return true;
}

/*
 * result = var1 * var2, exactly (dscale the sum of the dscales, as
 * numeric_mul asks), if both are finite with at most MUL_FAST_DIGITS
 * digits and the scale can be stored; its digits go into out.
 */
static bool
mul_fast(const NumericVar *var1, const NumericVar *var2, NumericVar *result,
         NumericDigit out[2 * MUL_FAST_DIGITS])
{
    int n1 = var1->ndigits;
    int n2 = var2->ndigits;
    int64 acc[2 * MUL_FAST_DIGITS];
    int64 carry = 0;

    if (n1 > MUL_FAST_DIGITS || n2 > MUL_FAST_DIGITS ||
        var1->dscale + var2->dscale > NUMERIC_DSCALE_MAX)
        return false;
    memset(acc, 0, sizeof(acc));
    /* digit i of var1 times digit j of var2 has weight w1 + w2 - i - j,
     * kept in acc[i + j + 1]; acc[0] takes the last carry */
    for (int i = 0; i < n1; i++)
        for (int j = 0; j < n2; j++)
            acc[i + j + 1] += (int64)var1->digits[i] * var2->digits[j];
    for (int k = n1 + n2 - 1; k >= 0; k--) {
        int64 d = acc[k] + carry;

        carry = d / NBASE;
        out[k] = (NumericDigit)(d - carry * NBASE);
    }
    Assert(carry == 0);
    result->ndigits = n1 + n2;
    result->weight = var1->weight + var2->weight + 1;
    result->sign = var1->sign == var2->sign ? NUMERIC_POS : NUMERIC_NEG;
    result->dscale = var1->dscale + var2->dscale;
    result->buf = NULL;
    result->digits = out;
    return true;
}

/* num1 + num2 (negate2: num1 - num2) */
static Datum
add_or_sub(Datum num1, Datum num2, bool negate2)
{
    NumericVar arg1;
    NumericVar arg2;
    NumericVar result;
    NumericDigit local1[NUMERIC_LOCAL_DIGITS];
    NumericDigit local2[NUMERIC_LOCAL_DIGITS];

    tdb_numeric_to_var_local(num1, &arg1, local1);
    tdb_numeric_to_var_local(num2, &arg2, local2);
    if (numvar_is_special(&arg1) || numvar_is_special(&arg2)) {
        int s1;
        int s2;

        if (arg1.sign == NUMERIC_NAN || arg2.sign == NUMERIC_NAN)
            return special_result(0);
        s1 = numvar_is_special(&arg1) ? numvar_signum(&arg1) : 0;
        s2 = numvar_is_special(&arg2) ? numvar_signum(&arg2) : 0;
        if (negate2)
            s2 = -s2;
        if (s1 != 0 && s2 != 0 && s1 != s2)
            return special_result(0); /* Inf - Inf */
        return special_result(s1 != 0 ? s1 : s2);
    }
    {
        NumericDigit out[ADD_FAST_DIGITS + 1];

        if (add_fast(&arg1, &arg2, negate2, &result, out))
            return tdb_numeric_from_var(&result);
    }
    numvar_init(&result);
    if (negate2)
        tdb_numvar_sub(&arg1, &arg2, &result);
    else
        tdb_numvar_add(&arg1, &arg2, &result);
    return tdb_numeric_from_var_free(&result);
}

Datum
tdb_numeric_add(PG_FUNCTION_ARGS)
{
    return add_or_sub(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1), false);
}

Datum
tdb_numeric_sub(PG_FUNCTION_ARGS)
{
    return add_or_sub(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1), true);
}

Datum
tdb_numeric_mul(PG_FUNCTION_ARGS)
{
    NumericVar arg1;
    NumericVar arg2;
    NumericVar result;
    NumericDigit local1[NUMERIC_LOCAL_DIGITS];
    NumericDigit local2[NUMERIC_LOCAL_DIGITS];

    tdb_numeric_to_var_local(PG_GETARG_DATUM(0), &arg1, local1);
    tdb_numeric_to_var_local(PG_GETARG_DATUM(1), &arg2, local2);
    if (numvar_is_special(&arg1) || numvar_is_special(&arg2)) {
        if (arg1.sign == NUMERIC_NAN || arg2.sign == NUMERIC_NAN)
            return special_result(0);
        /* Inf * 0 is NaN; otherwise the signs multiply */
        return special_result(numvar_signum(&arg1) * numvar_signum(&arg2));
    }
    /*
     * The exact product (scale = the sum of the scales), rounded only if
     * that scale cannot be stored.
     */
    {
        NumericDigit out[2 * MUL_FAST_DIGITS];

        if (mul_fast(&arg1, &arg2, &result, out))
            return tdb_numeric_from_var(&result);
    }
    numvar_init(&result);
    tdb_numvar_mul(&arg1, &arg2, &result, arg1.dscale + arg2.dscale);
    if (result.dscale > NUMERIC_DSCALE_MAX)
        tdb_numvar_round(&result, NUMERIC_DSCALE_MAX);
    return tdb_numeric_from_var_free(&result);
}

/*
 * The special cases of num1 / num2 shared by / and div(): true and
 * *result set if one applies.
 */
static bool
divide_special(const NumericVar *arg1, const NumericVar *arg2, Datum *result)
{
    if (!numvar_is_special(arg1) && !numvar_is_special(arg2))
        return false;
    if (arg1->sign == NUMERIC_NAN || arg2->sign == NUMERIC_NAN) {
        *result = special_result(0);
    } else if (numvar_is_special(arg1)) {
        if (numvar_is_special(arg2))
            *result = special_result(0); /* Inf / Inf */
        else if (numvar_signum(arg2) == 0)
            raise_division_by_zero();
        else
            *result = special_result(numvar_signum(arg1) *
                                     numvar_signum(arg2));
    } else {
        /* finite / Inf: zero (numeric has no underflow) */
        *result = tdb_numeric_from_var(&tdb_numvar_zero);
    }
    return true;
}

Datum
tdb_numeric_div_datums(Datum num1, Datum num2)
{
    NumericVar arg1;
    NumericVar arg2;
    NumericVar result;
    Datum special;

    tdb_numeric_to_var(num1, &arg1);
    tdb_numeric_to_var(num2, &arg2);
    if (divide_special(&arg1, &arg2, &special))
        return special;
    numvar_init(&result);
    tdb_numvar_div(&arg1, &arg2, &result,
                   tdb_numvar_select_div_scale(&arg1, &arg2), true);
    return tdb_numeric_from_var_free(&result);
}

Datum
tdb_numeric_div(PG_FUNCTION_ARGS)
{
    return tdb_numeric_div_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1));
}

/* div(num1, num2): the quotient truncated to an integer */
Datum
tdb_numeric_div_trunc(PG_FUNCTION_ARGS)
{
    NumericVar arg1;
    NumericVar arg2;
    NumericVar result;
    Datum special;

    tdb_numeric_to_var(PG_GETARG_DATUM(0), &arg1);
    tdb_numeric_to_var(PG_GETARG_DATUM(1), &arg2);
    if (divide_special(&arg1, &arg2, &special))
        return special;
    numvar_init(&result);
    tdb_numvar_div(&arg1, &arg2, &result, 0, false);
    return tdb_numeric_from_var_free(&result);
}

Datum
tdb_numeric_mod(PG_FUNCTION_ARGS)
{
    NumericVar arg1;
    NumericVar arg2;
    NumericVar result;

    tdb_numeric_to_var(PG_GETARG_DATUM(0), &arg1);
    tdb_numeric_to_var(PG_GETARG_DATUM(1), &arg2);
    if (numvar_is_special(&arg1) || numvar_is_special(&arg2)) {
        if (arg1.sign == NUMERIC_NAN || arg2.sign == NUMERIC_NAN)
            return special_result(0);
        if (numvar_is_special(&arg1)) {
            if (numvar_signum(&arg2) == 0)
                raise_division_by_zero();
            return special_result(0); /* Inf % y */
        }
        return tdb_numeric_copy(PG_GETARG_DATUM(0)); /* x % Inf = x */
    }
    numvar_init(&result);
    tdb_numvar_mod(&arg1, &arg2, &result);
    return tdb_numeric_from_var_free(&result);
}

/* ----------------------------------------------------------------------
 * Sign
 * ---------------------------------------------------------------------- */

/* The value with its sign replaced: negated (negate) or made positive. */
static Datum
with_sign(Datum value, bool negate)
{
    NumericVar var;

    tdb_numeric_to_var(value, &var);
    if (var.sign == NUMERIC_NAN)
        return special_result(0);
    if (numvar_is_special(&var))
        return special_result(negate ? -numvar_signum(&var) : 1);
    if (negate)
        var.sign = var.sign == NUMERIC_POS ? NUMERIC_NEG : NUMERIC_POS;
    else
        var.sign = NUMERIC_POS;
    return tdb_numeric_from_var_free(&var); /* a zero stays positive */
}

Datum
tdb_numeric_uminus(PG_FUNCTION_ARGS)
{
    return with_sign(PG_GETARG_DATUM(0), true);
}

Datum
tdb_numeric_abs(PG_FUNCTION_ARGS)
{
    return with_sign(PG_GETARG_DATUM(0), false);
}

Datum
tdb_numeric_uplus(PG_FUNCTION_ARGS)
{
    return tdb_numeric_copy(PG_GETARG_DATUM(0));
}

Datum
tdb_numeric_sign(PG_FUNCTION_ARGS)
{
    NumericVar var;
    int signum;

    tdb_numeric_to_var(PG_GETARG_DATUM(0), &var);
    if (var.sign == NUMERIC_NAN)
        return special_result(0);
    signum = numvar_signum(&var);
    tdb_numvar_free(&var);
    return tdb_numeric_from_var(signum == 0  ? &tdb_numvar_zero
                                : signum > 0 ? &tdb_numvar_one
                                             : &tdb_numvar_minus_one);
}

/* ----------------------------------------------------------------------
 * Rounding
 * ---------------------------------------------------------------------- */

/*
 * round (round) or trunc (!round) at scale decimal digits after the
 * point; a negative scale rounds before the point (as Oracle does) and
 * gives dscale 0.  The scale is clamped first so that the digit
 * arithmetic cannot overflow: beyond the limits the result no longer
 * changes (or is zero).
 */
static Datum
round_or_trunc(Datum value, int32 scale, bool round)
{
    NumericVar var;
    NumericVar arg;

    tdb_numeric_to_var(value, &var);
    if (numvar_is_special(&var))
        return tdb_numeric_copy(value);
    scale = Max(scale, -(NUMERIC_WEIGHT_MAX + 1) * DEC_DIGITS - (round ? 1 : 0));
    scale = Min(scale, NUMERIC_DSCALE_MAX);
    numvar_init(&arg);
    tdb_numvar_copy(&var, &arg);
    if (round)
        tdb_numvar_round(&arg, scale);
    else
        tdb_numvar_trunc(&arg, scale);
    if (scale < 0)
        arg.dscale = 0;
    return tdb_numeric_from_var_free(&arg);
}

Datum
tdb_numeric_round(PG_FUNCTION_ARGS)
{
    return round_or_trunc(PG_GETARG_DATUM(0), PG_GETARG_INT32(1), true);
}

Datum
tdb_numeric_round0(PG_FUNCTION_ARGS)
{
    return round_or_trunc(PG_GETARG_DATUM(0), 0, true);
}

Datum
tdb_numeric_trunc(PG_FUNCTION_ARGS)
{
    return round_or_trunc(PG_GETARG_DATUM(0), PG_GETARG_INT32(1), false);
}

Datum
tdb_numeric_trunc0(PG_FUNCTION_ARGS)
{
    return round_or_trunc(PG_GETARG_DATUM(0), 0, false);
}

/* ceil (up) or floor (!up); the result has dscale 0 */
static Datum
ceil_or_floor(Datum value, bool up)
{
    NumericVar var;
    NumericVar result;

    tdb_numeric_to_var(value, &var);
    if (numvar_is_special(&var))
        return tdb_numeric_copy(value);
    numvar_init(&result);
    if (up)
        tdb_numvar_ceil(&var, &result);
    else
        tdb_numvar_floor(&var, &result);
    return tdb_numeric_from_var_free(&result);
}

Datum
tdb_numeric_ceil(PG_FUNCTION_ARGS)
{
    return ceil_or_floor(PG_GETARG_DATUM(0), true);
}

Datum
tdb_numeric_floor(PG_FUNCTION_ARGS)
{
    return ceil_or_floor(PG_GETARG_DATUM(0), false);
}

/* ----------------------------------------------------------------------
 * Scale
 * ---------------------------------------------------------------------- */

Datum
tdb_numeric_scale(PG_FUNCTION_ARGS)
{
    NumericVar var;

    tdb_numeric_to_var(PG_GETARG_DATUM(0), &var);
    if (numvar_is_special(&var))
        PG_RETURN_NULL();
    PG_RETURN_INT32(var.dscale);
}

/* The fewest fractional decimal digits that represent var exactly. */
static int
minimal_scale(const NumericVar *var)
{
    int last = var->ndigits - 1;
    int scale;
    int digit;

    while (last >= 0 && var->digits[last] == 0)
        last--;
    if (last < 0)
        return 0;
    scale = (last - var->weight) * DEC_DIGITS;
    if (scale <= 0)
        return 0;
    for (digit = var->digits[last]; digit % 10 == 0; digit /= 10)
        scale--;
    return scale;
}

Datum
tdb_numeric_min_scale(PG_FUNCTION_ARGS)
{
    NumericVar var;

    tdb_numeric_to_var(PG_GETARG_DATUM(0), &var);
    if (numvar_is_special(&var))
        PG_RETURN_NULL();
    PG_RETURN_INT32(minimal_scale(&var));
}

Datum
tdb_numeric_trim_scale(PG_FUNCTION_ARGS)
{
    NumericVar var;

    tdb_numeric_to_var(PG_GETARG_DATUM(0), &var);
    if (numvar_is_special(&var))
        return tdb_numeric_copy(PG_GETARG_DATUM(0));
    var.dscale = minimal_scale(&var);
    return tdb_numeric_from_var_free(&var);
}

/* ----------------------------------------------------------------------
 * gcd, lcm (NaN for any special input; dscale = the larger input's)
 * ---------------------------------------------------------------------- */

static void
gcd_var(const NumericVar *var1, const NumericVar *var2, NumericVar *result)
{
    int dscale = Max(var1->dscale, var2->dscale);
    int cmp = tdb_numvar_cmp_abs(var1, var2);
    NumericVar a;
    NumericVar rem;

    if (cmp < 0) {
        const NumericVar *tmp = var1;

        var1 = var2;
        var2 = tmp;
    }
    if (cmp == 0 || var2->ndigits == 0) {
        tdb_numvar_copy(var1, result);
    } else {
        /* Euclid */
        numvar_init(&a);
        numvar_init(&rem);
        tdb_numvar_copy(var1, &a);
        tdb_numvar_copy(var2, result);
        for (;;) {
            tdb_numvar_mod(&a, result, &rem);
            if (rem.ndigits == 0)
                break;
            tdb_numvar_copy(result, &a);
            tdb_numvar_copy(&rem, result);
        }
        tdb_numvar_free(&a);
        tdb_numvar_free(&rem);
    }
    result->sign = NUMERIC_POS;
    result->dscale = dscale;
}

/* Unpack two arguments; false (NaN result) if either is special. */
static bool
finite_args(FunctionCallInfo fcinfo, NumericVar *arg1, NumericVar *arg2)
{
    tdb_numeric_to_var(PG_GETARG_DATUM(0), arg1);
    tdb_numeric_to_var(PG_GETARG_DATUM(1), arg2);
    return !numvar_is_special(arg1) && !numvar_is_special(arg2);
}

Datum
tdb_numeric_gcd(PG_FUNCTION_ARGS)
{
    NumericVar arg1;
    NumericVar arg2;
    NumericVar result;

    if (!finite_args(fcinfo, &arg1, &arg2))
        return special_result(0);
    numvar_init(&result);
    gcd_var(&arg1, &arg2, &result);
    return tdb_numeric_from_var_free(&result);
}

/* lcm(x, y) = |x / gcd(x, y) * y|, zero if either is zero */
Datum
tdb_numeric_lcm(PG_FUNCTION_ARGS)
{
    NumericVar arg1;
    NumericVar arg2;
    NumericVar result;

    if (!finite_args(fcinfo, &arg1, &arg2))
        return special_result(0);
    numvar_init(&result);
    if (arg1.ndigits != 0 && arg2.ndigits != 0) {
        gcd_var(&arg1, &arg2, &result);
        tdb_numvar_div(&arg1, &result, &result, 0, false);
        tdb_numvar_mul(&arg2, &result, &result, arg2.dscale);
        result.sign = NUMERIC_POS;
    }
    result.dscale = Max(arg1.dscale, arg2.dscale);
    return tdb_numeric_from_var_free(&result);
}
