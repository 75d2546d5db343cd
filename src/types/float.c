/*
 * float.c -- the floating-point types float4 (real) and float8 (double
 * precision): input/output entry points, comparison and hashing, the
 * arithmetic operators (same-type and the mixed float4/float8 ones),
 * casts to and from the integer types, numeric and each other, and the
 * family's built-in tables (BuiltinSet).
 *
 * The arithmetic rules (overflow and underflow detection, NaN ordering)
 * are in float.h; text conversion in float_out.c; the math functions in
 * float_math.c; the aggregates in float_agg.c.
 *
 * Output follows the session's extra_float_digits (types/typeio.h):
 * above 0 (the default, 1) the shortest text that reads back exactly;
 * 0 and below the value rounded to 15 + n (float4: 6 + n) significant
 * digits in C's %g form, as PostgreSQL prints it.
 *
 * Mixed float4/float8 operators widen the float4 (exactly) and compute
 * in double precision, as PostgreSQL's float48pl etc. do.  Casts to the
 * integer types round half to even (rint) and then check the range, so
 * 2.5::float8::int4 is 2 and 32767.4::float4::int2 is 32767.
 *
 * Conversions with numeric go through text, as PostgreSQL's do: numeric
 * to float prints the numeric and reads it with float8in/float4in
 * (errors included), and float to numeric prints the float with
 * "%.15g" (float8, DBL_DIG digits) or "%.6g" (float4, FLT_DIG) -- not
 * the shortest round trip -- and reads that with numeric's input
 * function.  So 0.1::float4::numeric is 0.1, and
 * 1.2345678901234567::float8::numeric is 1.23456789012346.
 *
 * Hashing: hashfloat8 is PostgreSQL's: 0 for both zeros, otherwise
 * hash_bytes over the 8 bytes of the value, with every NaN replaced by
 * the standard quiet NaN; hashfloat4 hashes the value widened to float8,
 * so equal float4 and float8 values hash equal and the mixed "="
 * operators may hash.
 *
 * Entry point: tdb_builtins_float (registry.c).
 */
#include "common/base.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/builtin_rows.h"
#include "types/float.h"
#include "types/hashfn.h"
#include "types/sendrecv.h"
#include "types/typeio.h"

/* ----------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------- */

void
tdb_float_overflow_error(void)
{
    ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
            errmsg("value out of range: overflow"));
    __builtin_unreachable();
}

void
tdb_float_underflow_error(void)
{
    ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
            errmsg("value out of range: underflow"));
    __builtin_unreachable();
}

void
tdb_float_zero_divide_error(void)
{
    ereport(ERROR, errcode(ERRCODE_DIVISION_BY_ZERO),
            errmsg("division by zero"));
    __builtin_unreachable();
}

/* ----------------------------------------------------------------------
 * Input and output
 * ---------------------------------------------------------------------- */

static Datum
float4_input(const char *str, int32 typmod)
{
    (void)typmod;
    return Float4GetDatum(tdb_float4_from_cstring(str));
}

static Datum
float8_input(const char *str, int32 typmod)
{
    (void)typmod;
    return Float8GetDatum(tdb_float8_from_cstring(str));
}

/*
 * extra_float_digits <= 0: the value rounded to FLT_DIG/DBL_DIG plus
 * that many significant digits, printed as C's %g prints it (what
 * PostgreSQL does, through the C library); NaN and the infinities are
 * spelled out.  Above 0 the shortest exact form is used instead.
 */
static char *
float_output_digits(double value, int ndigits)
{
    char *buf = tdb_palloc(FLOAT_TEXT_BUFSIZE);

    if (isnan(value))
        strcpy(buf, "NaN");
    else if (isinf(value))
        strcpy(buf, value > 0 ? "Infinity" : "-Infinity");
    else
        snprintf(buf, FLOAT_TEXT_BUFSIZE, "%.*g", Max(ndigits, 1), value);
    return buf;
}

static char *
float4_output(Datum value)
{
    int extra = tdb_typeio()->extra_float_digits;

    if (extra > 0)
        return tdb_float4_to_cstring(DatumGetFloat4(value));
    return float_output_digits((double)DatumGetFloat4(value),
                               FLT_DIG + extra);
}

static char *
float8_output(Datum value)
{
    int extra = tdb_typeio()->extra_float_digits;

    if (extra > 0)
        return tdb_float8_to_cstring(DatumGetFloat8(value));
    return float_output_digits(DatumGetFloat8(value), DBL_DIG + extra);
}

/* ----------------------------------------------------------------------
 * Comparisons
 * ---------------------------------------------------------------------- */

#define ARG_F4(n) ((double)PG_GETARG_FLOAT4(n))
#define ARG_F8(n) PG_GETARG_FLOAT8(n)

/*
 * The six comparisons and the btree comparison of a pair of argument
 * kinds, all through flt8_cmp on the values widened to double (exact
 * for float4).
 */
#define FLOAT_CMP_FUNCS(prefix, GET1, GET2)                                 \
    static Datum prefix##eq(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL(flt8_cmp(GET1(0), GET2(1)) == 0);                    \
    }                                                                       \
    static Datum prefix##ne(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL(flt8_cmp(GET1(0), GET2(1)) != 0);                    \
    }                                                                       \
    static Datum prefix##lt(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL(flt8_cmp(GET1(0), GET2(1)) < 0);                     \
    }                                                                       \
    static Datum prefix##le(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL(flt8_cmp(GET1(0), GET2(1)) <= 0);                    \
    }                                                                       \
    static Datum prefix##gt(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL(flt8_cmp(GET1(0), GET2(1)) > 0);                     \
    }                                                                       \
    static Datum prefix##ge(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL(flt8_cmp(GET1(0), GET2(1)) >= 0);                    \
    }                                                                       \
    static Datum bt##prefix##cmp(PG_FUNCTION_ARGS)                          \
    {                                                                       \
        PG_RETURN_INT32(flt8_cmp(GET1(0), GET2(1)));                        \
    }

FLOAT_CMP_FUNCS(float4, ARG_F4, ARG_F4)
FLOAT_CMP_FUNCS(float8, ARG_F8, ARG_F8)
FLOAT_CMP_FUNCS(float48, ARG_F4, ARG_F8)
FLOAT_CMP_FUNCS(float84, ARG_F8, ARG_F4)

/* The larger (smaller) argument; on a tie, the second. */
static Datum
float4larger(PG_FUNCTION_ARGS)
{
    return flt8_cmp(ARG_F4(0), ARG_F4(1)) > 0 ? PG_GETARG_DATUM(0)
                                              : PG_GETARG_DATUM(1);
}

static Datum
float4smaller(PG_FUNCTION_ARGS)
{
    return flt8_cmp(ARG_F4(0), ARG_F4(1)) < 0 ? PG_GETARG_DATUM(0)
                                              : PG_GETARG_DATUM(1);
}

static Datum
float8larger(PG_FUNCTION_ARGS)
{
    return flt8_cmp(ARG_F8(0), ARG_F8(1)) > 0 ? PG_GETARG_DATUM(0)
                                              : PG_GETARG_DATUM(1);
}

static Datum
float8smaller(PG_FUNCTION_ARGS)
{
    return flt8_cmp(ARG_F8(0), ARG_F8(1)) < 0 ? PG_GETARG_DATUM(0)
                                              : PG_GETARG_DATUM(1);
}

/* ----------------------------------------------------------------------
 * Hashing
 * ---------------------------------------------------------------------- */

static int32
hash_double(double key)
{
    if (key == 0.0)
        return 0; /* 0 and -0 */
    if (isnan(key))
        key = (double)NAN; /* one bit pattern for every NaN */
    return (int32)tdb_hash_bytes(&key, sizeof(key));
}

static Datum
hashfloat4(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(hash_double(ARG_F4(0)));
}

static Datum
hashfloat8(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(hash_double(ARG_F8(0)));
}

/* ----------------------------------------------------------------------
 * Arithmetic
 * ---------------------------------------------------------------------- */

static Datum
float4pl(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT4(flt4_add(PG_GETARG_FLOAT4(0), PG_GETARG_FLOAT4(1)));
}

static Datum
float4mi(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT4(flt4_sub(PG_GETARG_FLOAT4(0), PG_GETARG_FLOAT4(1)));
}

static Datum
float4mul(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT4(flt4_mul(PG_GETARG_FLOAT4(0), PG_GETARG_FLOAT4(1)));
}

static Datum
float4div(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT4(flt4_div(PG_GETARG_FLOAT4(0), PG_GETARG_FLOAT4(1)));
}

/* + - * / of a pair computed in double precision. */
#define FLOAT8_ARITH_FUNCS(prefix, GET1, GET2)                              \
    static Datum prefix##pl(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_FLOAT8(flt8_add(GET1(0), GET2(1)));                       \
    }                                                                       \
    static Datum prefix##mi(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_FLOAT8(flt8_sub(GET1(0), GET2(1)));                       \
    }                                                                       \
    static Datum prefix##mul(PG_FUNCTION_ARGS)                              \
    {                                                                       \
        PG_RETURN_FLOAT8(flt8_mul(GET1(0), GET2(1)));                       \
    }                                                                       \
    static Datum prefix##div(PG_FUNCTION_ARGS)                              \
    {                                                                       \
        PG_RETURN_FLOAT8(flt8_div(GET1(0), GET2(1)));                       \
    }

FLOAT8_ARITH_FUNCS(float8, ARG_F8, ARG_F8)
FLOAT8_ARITH_FUNCS(float48, ARG_F4, ARG_F8)
FLOAT8_ARITH_FUNCS(float84, ARG_F8, ARG_F4)

static Datum
float4um(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT4(-PG_GETARG_FLOAT4(0));
}

static Datum
float4up(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT4(PG_GETARG_FLOAT4(0));
}

static Datum
float4abs(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT4(fabsf(PG_GETARG_FLOAT4(0)));
}

static Datum
float8um(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(-PG_GETARG_FLOAT8(0));
}

static Datum
float8up(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(PG_GETARG_FLOAT8(0));
}

static Datum
float8abs(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(fabs(PG_GETARG_FLOAT8(0)));
}

/* ----------------------------------------------------------------------
 * Casts
 * ---------------------------------------------------------------------- */

/* Integers to floats: C's conversions, correctly rounded. */
static Datum
i2tof(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT4((float)PG_GETARG_INT16(0));
}

static Datum
i4tof(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT4((float)PG_GETARG_INT32(0));
}

static Datum
i8tof(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT4((float)PG_GETARG_INT64(0));
}

static Datum
i2tod(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8((double)PG_GETARG_INT16(0));
}

static Datum
i4tod(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8((double)PG_GETARG_INT32(0));
}

static Datum
i8tod(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8((double)PG_GETARG_INT64(0));
}

/*
 * A float rounded half to even to an integer in [min, max); the bounds
 * are powers of two, exact in either format.  NaN and infinities fail
 * the range check.  type_name names the target in the message.
 */
static int64
float_to_integer(double value, double min, double max_excl,
                 const char *type_name)
{
    value = rint(value);
    if (unlikely(isnan(value) || !(value >= min && value < max_excl)))
        ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                errmsg("%s out of range", type_name));
    return (int64)value;
}

#define INT16_RANGE -32768.0, 32768.0, "smallint"
#define INT32_RANGE -2147483648.0, 2147483648.0, "integer"
#define INT64_RANGE -9223372036854775808.0, 9223372036854775808.0, "bigint"

static Datum
ftoi2(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT16((int16)float_to_integer(ARG_F4(0), INT16_RANGE));
}

static Datum
ftoi4(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)float_to_integer(ARG_F4(0), INT32_RANGE));
}

static Datum
ftoi8(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(float_to_integer(ARG_F4(0), INT64_RANGE));
}

static Datum
dtoi2(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT16((int16)float_to_integer(ARG_F8(0), INT16_RANGE));
}

static Datum
dtoi4(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)float_to_integer(ARG_F8(0), INT32_RANGE));
}

static Datum
dtoi8(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(float_to_integer(ARG_F8(0), INT64_RANGE));
}

static Datum
ftod(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(ARG_F4(0));
}

/* float8 to float4: overflow and underflow (to zero) are errors. */
static Datum
dtof(PG_FUNCTION_ARGS)
{
    double value = PG_GETARG_FLOAT8(0);
    float result = (float)value;

    if (unlikely(isinf(result)) && !isinf(value))
        tdb_float_overflow_error();
    if (unlikely(result == 0.0f) && value != 0.0)
        tdb_float_underflow_error();
    PG_RETURN_FLOAT4(result);
}

/* Numeric to float: numeric's text read by float8in / float4in. */
static Datum
numeric_float8(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(tdb_float8_from_cstring(
        tdb_type_output(NUMERICOID, PG_GETARG_DATUM(0))));
}

static Datum
numeric_float4(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT4(tdb_float4_from_cstring(
        tdb_type_output(NUMERICOID, PG_GETARG_DATUM(0))));
}

/* A float to numeric through "%.*g" with `digits` significant digits. */
static Datum
float_to_numeric(double value, int digits)
{
    char buf[64];

    if (isnan(value))
        return tdb_type_input(NUMERICOID, "NaN", -1);
    if (isinf(value))
        return tdb_type_input(NUMERICOID, value > 0 ? "Infinity" : "-Infinity",
                              -1);
    snprintf(buf, sizeof(buf), "%.*g", digits, value);
    return tdb_type_input(NUMERICOID, buf, -1);
}

static Datum
float8_numeric(PG_FUNCTION_ARGS)
{
    return float_to_numeric(ARG_F8(0), DBL_DIG);
}

static Datum
float4_numeric(PG_FUNCTION_ARGS)
{
    return float_to_numeric(ARG_F4(0), FLT_DIG);
}

/* ----------------------------------------------------------------------
 * The tables
 * ---------------------------------------------------------------------- */

#define F4 FLOAT4OID
#define F8 FLOAT8OID
#define I2 INT2OID
#define I4 INT4OID
#define I8 INT8OID
#define N NUMERICOID

static const FuncDesc float_funcs[] = {
    FUNC(1394, "abs", float4abs, F4, 1, F4),
    FUNC(1395, "abs", float8abs, F8, 1, F8),
    FUNC(209, "float4larger", float4larger, F4, 2, F4, F4),
    FUNC(211, "float4smaller", float4smaller, F4, 2, F4, F4),
    FUNC(223, "float8larger", float8larger, F8, 2, F8, F8),
    FUNC(224, "float8smaller", float8smaller, F8, 2, F8, F8),
    FUNC(451, "hashfloat4", hashfloat4, I4, 1, F4),
    FUNC(452, "hashfloat8", hashfloat8, I4, 1, F8),
    FUNC(354, "btfloat4cmp", btfloat4cmp, I4, 2, F4, F4),
    FUNC(355, "btfloat8cmp", btfloat8cmp, I4, 2, F8, F8),
    FUNC(2194, "btfloat48cmp", btfloat48cmp, I4, 2, F4, F8),
    FUNC(2195, "btfloat84cmp", btfloat84cmp, I4, 2, F8, F4),
    /* math (float_math.c); the d* names are PostgreSQL's internal ones */
    FUNC(1344, "sqrt", tdb_float8_sqrt, F8, 1, F8),
    FUNC(230, "dsqrt", tdb_float8_sqrt, F8, 1, F8),
    FUNC(1345, "cbrt", tdb_float8_cbrt, F8, 1, F8),
    FUNC(231, "dcbrt", tdb_float8_cbrt, F8, 1, F8),
    FUNC(1368, "power", tdb_float8_pow, F8, 2, F8, F8),
    FUNC(1346, "pow", tdb_float8_pow, F8, 2, F8, F8),
    FUNC(232, "dpow", tdb_float8_pow, F8, 2, F8, F8),
    FUNC(1347, "exp", tdb_float8_exp, F8, 1, F8),
    FUNC(233, "dexp", tdb_float8_exp, F8, 1, F8),
    FUNC(1341, "ln", tdb_float8_ln, F8, 1, F8),
    FUNC(234, "dlog1", tdb_float8_ln, F8, 1, F8),
    FUNC(1340, "log", tdb_float8_log10, F8, 1, F8),
    FUNC(1194, "log10", tdb_float8_log10, F8, 1, F8),
    FUNC(1339, "dlog10", tdb_float8_log10, F8, 1, F8),
    FUNC(1342, "round", tdb_float8_round, F8, 1, F8),
    FUNC(228, "dround", tdb_float8_round, F8, 1, F8),
    FUNC(1343, "trunc", tdb_float8_trunc, F8, 1, F8),
    FUNC(229, "dtrunc", tdb_float8_trunc, F8, 1, F8),
    FUNC(2308, "ceil", tdb_float8_ceil, F8, 1, F8),
    FUNC(2320, "ceiling", tdb_float8_ceil, F8, 1, F8),
    FUNC(2309, "floor", tdb_float8_floor, F8, 1, F8),
    FUNC(2310, "sign", tdb_float8_sign, F8, 1, F8),
    FUNC(1610, "pi", tdb_float8_pi, F8, 0, InvalidOid),
    FUNC(1608, "degrees", tdb_float8_degrees, F8, 1, F8),
    FUNC(1609, "radians", tdb_float8_radians, F8, 1, F8),
    FUNC(1604, "sin", tdb_float8_sin, F8, 1, F8),
    FUNC(1605, "cos", tdb_float8_cos, F8, 1, F8),
    FUNC(1606, "tan", tdb_float8_tan, F8, 1, F8),
    FUNC(1607, "cot", tdb_float8_cot, F8, 1, F8),
    FUNC(1600, "asin", tdb_float8_asin, F8, 1, F8),
    FUNC(1601, "acos", tdb_float8_acos, F8, 1, F8),
    FUNC(1602, "atan", tdb_float8_atan, F8, 1, F8),
    FUNC(1603, "atan2", tdb_float8_atan2, F8, 2, F8, F8),
    FUNC(2462, "sinh", tdb_float8_sinh, F8, 1, F8),
    FUNC(2463, "cosh", tdb_float8_cosh, F8, 1, F8),
    FUNC(2464, "tanh", tdb_float8_tanh, F8, 1, F8),
    FUNC(2465, "asinh", tdb_float8_asinh, F8, 1, F8),
    FUNC(2466, "acosh", tdb_float8_acosh, F8, 1, F8),
    FUNC(2467, "atanh", tdb_float8_atanh, F8, 1, F8),
    FUNC_V(1598, "random", tdb_float8_random, PROVOLATILE_VOLATILE, F8, 0,
           InvalidOid),
    /* the cast functions, callable by name like in PostgreSQL */
    FUNC(236, "float4", i2tof, F4, 1, I2),
    FUNC(318, "float4", i4tof, F4, 1, I4),
    FUNC(652, "float4", i8tof, F4, 1, I8),
    FUNC(312, "float4", dtof, F4, 1, F8),
    FUNC(1745, "float4", numeric_float4, F4, 1, N),
    FUNC(235, "float8", i2tod, F8, 1, I2),
    FUNC(316, "float8", i4tod, F8, 1, I4),
    FUNC(482, "float8", i8tod, F8, 1, I8),
    FUNC(311, "float8", ftod, F8, 1, F4),
    FUNC(1746, "float8", numeric_float8, F8, 1, N),
    FUNC(238, "int2", ftoi2, I2, 1, F4),
    FUNC(237, "int2", dtoi2, I2, 1, F8),
    FUNC(319, "int4", ftoi4, I4, 1, F4),
    FUNC(317, "int4", dtoi4, I4, 1, F8),
    FUNC(653, "int8", ftoi8, I8, 1, F4),
    FUNC(483, "int8", dtoi8, I8, 1, F8),
    FUNC(1742, "numeric", float4_numeric, N, 1, F4),
    FUNC(1743, "numeric", float8_numeric, N, 1, F8),
};

static const OperDesc float_opers[] = {
    /* float4 op float4 */
    OPER_EQ(620, F4, F4, float4eq), OPER_NE(621, F4, F4, float4ne),
    OPER_LT(622, F4, F4, float4lt), OPER_GT(623, F4, F4, float4gt),
    OPER_LE(624, F4, F4, float4le), OPER_GE(625, F4, F4, float4ge),
    OPER(586, "+", F4, F4, F4, float4pl, "+", NULL),
    OPER(587, "-", F4, F4, F4, float4mi, NULL, NULL),
    OPER(589, "*", F4, F4, F4, float4mul, "*", NULL),
    OPER(588, "/", F4, F4, F4, float4div, NULL, NULL),
    OPER(584, "-", InvalidOid, F4, F4, float4um, NULL, NULL),
    OPER(1919, "+", InvalidOid, F4, F4, float4up, NULL, NULL),
    OPER(590, "@", InvalidOid, F4, F4, float4abs, NULL, NULL),
    /* float8 op float8 */
    OPER_EQ(670, F8, F8, float8eq), OPER_NE(671, F8, F8, float8ne),
    OPER_LT(672, F8, F8, float8lt), OPER_GT(674, F8, F8, float8gt),
    OPER_LE(673, F8, F8, float8le), OPER_GE(675, F8, F8, float8ge),
    OPER(591, "+", F8, F8, F8, float8pl, "+", NULL),
    OPER(592, "-", F8, F8, F8, float8mi, NULL, NULL),
    OPER(594, "*", F8, F8, F8, float8mul, "*", NULL),
    OPER(593, "/", F8, F8, F8, float8div, NULL, NULL),
    OPER(965, "^", F8, F8, F8, tdb_float8_pow, NULL, NULL),
    OPER(585, "-", InvalidOid, F8, F8, float8um, NULL, NULL),
    OPER(1920, "+", InvalidOid, F8, F8, float8up, NULL, NULL),
    OPER(595, "@", InvalidOid, F8, F8, float8abs, NULL, NULL),
    OPER(596, "|/", InvalidOid, F8, F8, tdb_float8_sqrt, NULL, NULL),
    OPER(597, "||/", InvalidOid, F8, F8, tdb_float8_cbrt, NULL, NULL),
    /*
     * float4 op float8 and float8 op float4.  The mixed "=" are hashable:
     * hashfloat4 hashes the widened value, and the hash join hashes each
     * side with its own type's function.
     */
    OPER_ROW(1120, "=", F4, F8, BOOLOID, float48eq, "=", "<>", true),
    OPER_NE(1121, F4, F8, float48ne),
    OPER_LT(1122, F4, F8, float48lt), OPER_GT(1123, F4, F8, float48gt),
    OPER_LE(1124, F4, F8, float48le), OPER_GE(1125, F4, F8, float48ge),
    OPER(1116, "+", F4, F8, F8, float48pl, "+", NULL),
    OPER(1117, "-", F4, F8, F8, float48mi, NULL, NULL),
    OPER(1119, "*", F4, F8, F8, float48mul, "*", NULL),
    OPER(1118, "/", F4, F8, F8, float48div, NULL, NULL),
    OPER_ROW(1130, "=", F8, F4, BOOLOID, float84eq, "=", "<>", true),
    OPER_NE(1131, F8, F4, float84ne),
    OPER_LT(1132, F8, F4, float84lt), OPER_GT(1133, F8, F4, float84gt),
    OPER_LE(1134, F8, F4, float84le), OPER_GE(1135, F8, F4, float84ge),
    OPER(1126, "+", F8, F4, F8, float84pl, "+", NULL),
    OPER(1127, "-", F8, F4, F8, float84mi, NULL, NULL),
    OPER(1129, "*", F8, F4, F8, float84mul, "*", NULL),
    OPER(1128, "/", F8, F4, F8, float84div, NULL, NULL),
};

static const CastDesc float_casts[] = {
    CAST(I2, F4, CAST_IMPLICIT, i2tof),
    CAST(I4, F4, CAST_IMPLICIT, i4tof),
    CAST(I8, F4, CAST_IMPLICIT, i8tof),
    CAST(I2, F8, CAST_IMPLICIT, i2tod),
    CAST(I4, F8, CAST_IMPLICIT, i4tod),
    CAST(I8, F8, CAST_IMPLICIT, i8tod),
    CAST(F4, I2, CAST_ASSIGNMENT, ftoi2),
    CAST(F4, I4, CAST_ASSIGNMENT, ftoi4),
    CAST(F4, I8, CAST_ASSIGNMENT, ftoi8),
    CAST(F8, I2, CAST_ASSIGNMENT, dtoi2),
    CAST(F8, I4, CAST_ASSIGNMENT, dtoi4),
    CAST(F8, I8, CAST_ASSIGNMENT, dtoi8),
    CAST(F4, F8, CAST_IMPLICIT, ftod),
    CAST(F8, F4, CAST_ASSIGNMENT, dtof),
    CAST(F4, N, CAST_ASSIGNMENT, float4_numeric),
    CAST(F8, N, CAST_ASSIGNMENT, float8_numeric),
    CAST(N, F4, CAST_IMPLICIT, numeric_float4),
    CAST(N, F8, CAST_IMPLICIT, numeric_float8),
    CASTS_INOUT_TO_STRINGS(F4),
    CASTS_INOUT_TO_STRINGS(F8),
    CASTS_INOUT_FROM_STRINGS(F4),
    CASTS_INOUT_FROM_STRINGS(F8),
};

/*
 * Aggregates.  sum, min and max keep a float state of the input type,
 * started from the first input (strict transition functions, as in
 * PostgreSQL, so sum(float4) overflows like float4 +).  avg and the
 * variance family keep PostgreSQL's (N, Sx, Sxx) transition values, the
 * regression family (N, Sx, Sxx, Sy, Syy, Sxy), in an INTERNAL state
 * (float_agg.c) where PostgreSQL keeps a float8[].
 */
#define AGG_ACCUM(oid, name, argtype, transfn, finalfn)                     \
    AGG(oid, name, 1, argtype, InvalidOid, F8, INTERNALOID, transfn, false, \
        finalfn, NULL)
#define VARIANCE_AGGS(name, oid4, oid8, finalfn)                            \
    AGG_ACCUM(oid4, name, F4, tdb_float4_accum, finalfn),                   \
        AGG_ACCUM(oid8, name, F8, tdb_float8_accum, finalfn)
#define REGR_AGG(oid, name, finalfn)                                        \
    AGG(oid, name, 2, F8, F8, F8, INTERNALOID, tdb_float8_regr_accum,       \
        false, finalfn, NULL)

static const AggDesc float_aggs[] = {
    AGG(2110, "sum", 1, F4, InvalidOid, F4, F4, float4pl, true, NULL, NULL),
    AGG(2111, "sum", 1, F8, InvalidOid, F8, F8, float8pl, true, NULL, NULL),
    AGG(2135, "min", 1, F4, InvalidOid, F4, F4, float4smaller, true, NULL,
        NULL),
    AGG(2136, "min", 1, F8, InvalidOid, F8, F8, float8smaller, true, NULL,
        NULL),
    AGG(2119, "max", 1, F4, InvalidOid, F4, F4, float4larger, true, NULL,
        NULL),
    AGG(2120, "max", 1, F8, InvalidOid, F8, F8, float8larger, true, NULL,
        NULL),
    VARIANCE_AGGS("avg", 2104, 2105, tdb_float8_avg),
    VARIANCE_AGGS("var_pop", 2721, 2722, tdb_float8_var_pop),
    VARIANCE_AGGS("var_samp", 2644, 2645, tdb_float8_var_samp),
    VARIANCE_AGGS("variance", 2151, 2152, tdb_float8_var_samp),
    VARIANCE_AGGS("stddev_pop", 2727, 2728, tdb_float8_stddev_pop),
    VARIANCE_AGGS("stddev_samp", 2715, 2716, tdb_float8_stddev_samp),
    VARIANCE_AGGS("stddev", 2157, 2158, tdb_float8_stddev_samp),
    /* regr_count(Y, X) counts the rows where neither is NULL */
    AGG(2818, "regr_count", 2, F8, F8, I8, I8, tdb_float8_regr_count, true,
        NULL, "0"),
    REGR_AGG(2819, "regr_sxx", tdb_float8_regr_sxx),
    REGR_AGG(2820, "regr_syy", tdb_float8_regr_syy),
    REGR_AGG(2821, "regr_sxy", tdb_float8_regr_sxy),
    REGR_AGG(2822, "regr_avgx", tdb_float8_regr_avgx),
    REGR_AGG(2823, "regr_avgy", tdb_float8_regr_avgy),
    REGR_AGG(2824, "regr_r2", tdb_float8_regr_r2),
    REGR_AGG(2825, "regr_slope", tdb_float8_regr_slope),
    REGR_AGG(2826, "regr_intercept", tdb_float8_regr_intercept),
    REGR_AGG(2827, "covar_pop", tdb_float8_covar_pop),
    REGR_AGG(2828, "covar_samp", tdb_float8_covar_samp),
    REGR_AGG(2829, "corr", tdb_float8_corr),
};

static const TypeSupport float_types[] = {
    {.typid = F4, .input = float4_input, .output = float4_output,
     .cmp = btfloat4cmp, .hash = hashfloat4, .eq = float4eq,
     .send = tdb_float4_send, .recv = tdb_float4_recv},
    {.typid = F8, .input = float8_input, .output = float8_output,
     .cmp = btfloat8cmp, .hash = hashfloat8, .eq = float8eq,
     .send = tdb_float8_send, .recv = tdb_float8_recv},
};

const BuiltinSet tdb_builtins_float = BUILTIN_SET(
    "float", float_funcs, float_opers, float_casts, float_aggs, float_types);
