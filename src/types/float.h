/*
 * float.h -- internal interface of the floating-point type family
 * (float.c, float_out.c, float_math.c, float_agg.c).  Only those files
 * include it; other layers reach float4 and float8 through the registry
 * (types/builtins.h).
 *
 * Values are IEEE 754 binary32 (float4, SQL "real") and binary64
 * (float8, "double precision"), by value in a Datum (tuple/datum.h).
 * Arithmetic follows PostgreSQL 15's rules:
 *
 *   - an operation whose finite operands give an infinite result raises
 *     22003 "value out of range: overflow"; one whose nonzero operands
 *     give zero raises 22003 "value out of range: underflow" (products
 *     and quotients only: a sum may cancel to zero);
 *   - infinite or NaN operands propagate silently (Infinity - Infinity
 *     is NaN, no error);
 *   - x / 0 raises 22012 "division by zero" unless x is NaN;
 *   - comparisons treat NaN as equal to itself and greater than every
 *     other value (so NaN sorts last, and -0 equals 0).
 *
 * The helpers below do one operation each with those checks; every SQL
 * operator, the aggregates and the math functions use them.  They are
 * static inline: each is a handful of instructions on a per-row path.
 */
#ifndef TDB_TYPES_FLOAT_H
#define TDB_TYPES_FLOAT_H

#include "common/base.h"

#include <math.h>

#include "types/fmgr.h"

#define PG_GETARG_FLOAT4(n) DatumGetFloat4(PG_GETARG_DATUM(n))
#define PG_RETURN_FLOAT4(x) return Float4GetDatum(x)

/* ----- errors (float.c) ----- */

/* 22003 "value out of range: overflow" */
TDB_NORETURN void tdb_float_overflow_error(void);
/* 22003 "value out of range: underflow" */
TDB_NORETURN void tdb_float_underflow_error(void);
/* 22012 "division by zero" */
TDB_NORETURN void tdb_float_zero_divide_error(void);

/* ----- checked arithmetic ----- */

static inline double
flt8_add(double a, double b)
{
    double r = a + b;

    if (unlikely(isinf(r)) && !isinf(a) && !isinf(b))
        tdb_float_overflow_error();
    return r;
}

static inline double
flt8_sub(double a, double b)
{
    double r = a - b;

    if (unlikely(isinf(r)) && !isinf(a) && !isinf(b))
        tdb_float_overflow_error();
    return r;
}

static inline double
flt8_mul(double a, double b)
{
    double r = a * b;

    if (unlikely(isinf(r)) && !isinf(a) && !isinf(b))
        tdb_float_overflow_error();
    if (unlikely(r == 0.0) && a != 0.0 && b != 0.0)
        tdb_float_underflow_error();
    return r;
}

static inline double
flt8_div(double a, double b)
{
    double r;

    if (unlikely(b == 0.0) && !isnan(a))
        tdb_float_zero_divide_error();
    r = a / b;
    if (unlikely(isinf(r)) && !isinf(a))
        tdb_float_overflow_error();
    if (unlikely(r == 0.0) && a != 0.0 && !isinf(b))
        tdb_float_underflow_error();
    return r;
}

/* float4 arithmetic is carried out in single precision, as in
 * PostgreSQL (x86-64 evaluates float expressions as float). */
static inline float
flt4_add(float a, float b)
{
    float r = a + b;

    if (unlikely(isinf(r)) && !isinf(a) && !isinf(b))
        tdb_float_overflow_error();
    return r;
}

static inline float
flt4_sub(float a, float b)
{
    float r = a - b;

    if (unlikely(isinf(r)) && !isinf(a) && !isinf(b))
        tdb_float_overflow_error();
    return r;
}

static inline float
flt4_mul(float a, float b)
{
    float r = a * b;

    if (unlikely(isinf(r)) && !isinf(a) && !isinf(b))
        tdb_float_overflow_error();
    if (unlikely(r == 0.0f) && a != 0.0f && b != 0.0f)
        tdb_float_underflow_error();
    return r;
}

static inline float
flt4_div(float a, float b)
{
    float r;

    if (unlikely(b == 0.0f) && !isnan(a))
        tdb_float_zero_divide_error();
    r = a / b;
    if (unlikely(isinf(r)) && !isinf(a))
        tdb_float_overflow_error();
    if (unlikely(r == 0.0f) && a != 0.0f && !isinf(b))
        tdb_float_underflow_error();
    return r;
}

/* ----- NaN-aware comparison (NaN = NaN, NaN > everything else) ----- */

static inline int
flt8_cmp(double a, double b)
{
    if (unlikely(isnan(a)))
        return isnan(b) ? 0 : 1;
    if (unlikely(isnan(b)))
        return -1;
    return a > b ? 1 : a < b ? -1 : 0;
}

/* ----- text (float_out.c) ----- */

/*
 * The shortest decimal text that reads back as exactly the same value,
 * formatted as PostgreSQL 12+ prints it with extra_float_digits >= 1
 * (the default): fixed notation for decimal exponents -4 .. 14 (float8)
 * or -4 .. 5 (float4), else d.ddde+XX; "NaN", "Infinity", "-Infinity",
 * "-0".  Writes into buf (at least FLOAT_TEXT_BUFSIZE bytes), returns
 * the length.
 */
#define FLOAT_TEXT_BUFSIZE 32
int tdb_float8_format(double value, char *buf);
int tdb_float4_format(float value, char *buf);

/*
 * tdb_float8_format's text by the exact (big-integer) method instead of
 * Ryu: the same text, several times slower.  For tests, which compare
 * the two.
 */
int tdb_float8_format_exact(double value, char *buf);

/* The same, palloc'd in the current memory context. */
char *tdb_float8_to_cstring(double value);
char *tdb_float4_to_cstring(float value);

/*
 * Text to float8/float4 with PostgreSQL's float8in/float4in rules
 * (leading and trailing white space, NaN and [+-]Inf[inity] in any
 * case, whatever strtod/strtof accept); 22P02 for bad syntax, 22003
 * for a value out of range (including underflow to zero).
 */
double tdb_float8_from_cstring(const char *str);
float tdb_float4_from_cstring(const char *str);

/* ----- SQL-callable functions shared between the family's files ----- */

/* float_math.c */
Datum tdb_float8_sqrt(PG_FUNCTION_ARGS);
Datum tdb_float8_cbrt(PG_FUNCTION_ARGS);
Datum tdb_float8_pow(PG_FUNCTION_ARGS);
Datum tdb_float8_exp(PG_FUNCTION_ARGS);
Datum tdb_float8_ln(PG_FUNCTION_ARGS);
Datum tdb_float8_log10(PG_FUNCTION_ARGS);
Datum tdb_float8_round(PG_FUNCTION_ARGS);
Datum tdb_float8_trunc(PG_FUNCTION_ARGS);
Datum tdb_float8_ceil(PG_FUNCTION_ARGS);
Datum tdb_float8_floor(PG_FUNCTION_ARGS);
Datum tdb_float8_sign(PG_FUNCTION_ARGS);
Datum tdb_float8_pi(PG_FUNCTION_ARGS);
Datum tdb_float8_degrees(PG_FUNCTION_ARGS);
Datum tdb_float8_radians(PG_FUNCTION_ARGS);
Datum tdb_float8_sin(PG_FUNCTION_ARGS);
Datum tdb_float8_cos(PG_FUNCTION_ARGS);
Datum tdb_float8_tan(PG_FUNCTION_ARGS);
Datum tdb_float8_cot(PG_FUNCTION_ARGS);
Datum tdb_float8_asin(PG_FUNCTION_ARGS);
Datum tdb_float8_acos(PG_FUNCTION_ARGS);
Datum tdb_float8_atan(PG_FUNCTION_ARGS);
Datum tdb_float8_atan2(PG_FUNCTION_ARGS);
Datum tdb_float8_sinh(PG_FUNCTION_ARGS);
Datum tdb_float8_cosh(PG_FUNCTION_ARGS);
Datum tdb_float8_tanh(PG_FUNCTION_ARGS);
Datum tdb_float8_asinh(PG_FUNCTION_ARGS);
Datum tdb_float8_acosh(PG_FUNCTION_ARGS);
Datum tdb_float8_atanh(PG_FUNCTION_ARGS);
Datum tdb_float8_random(PG_FUNCTION_ARGS);

/* float_agg.c */
Datum tdb_float4_accum(PG_FUNCTION_ARGS);
Datum tdb_float8_accum(PG_FUNCTION_ARGS);
Datum tdb_float8_avg(PG_FUNCTION_ARGS);
Datum tdb_float8_var_pop(PG_FUNCTION_ARGS);
Datum tdb_float8_var_samp(PG_FUNCTION_ARGS);
Datum tdb_float8_stddev_pop(PG_FUNCTION_ARGS);
Datum tdb_float8_stddev_samp(PG_FUNCTION_ARGS);
Datum tdb_float8_regr_accum(PG_FUNCTION_ARGS);
Datum tdb_float8_regr_count(PG_FUNCTION_ARGS);
Datum tdb_float8_regr_sxx(PG_FUNCTION_ARGS);
Datum tdb_float8_regr_syy(PG_FUNCTION_ARGS);
Datum tdb_float8_regr_sxy(PG_FUNCTION_ARGS);
Datum tdb_float8_regr_avgx(PG_FUNCTION_ARGS);
Datum tdb_float8_regr_avgy(PG_FUNCTION_ARGS);
Datum tdb_float8_regr_r2(PG_FUNCTION_ARGS);
Datum tdb_float8_regr_slope(PG_FUNCTION_ARGS);
Datum tdb_float8_regr_intercept(PG_FUNCTION_ARGS);
Datum tdb_float8_covar_pop(PG_FUNCTION_ARGS);
Datum tdb_float8_covar_samp(PG_FUNCTION_ARGS);
Datum tdb_float8_corr(PG_FUNCTION_ARGS);

#endif /* TDB_TYPES_FLOAT_H */
