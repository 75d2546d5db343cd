/*
 * int.c -- the integer types int2 (smallint), int4 (integer), int8
 * (bigint) and oid: input/output, arithmetic and comparison operators
 * (PostgreSQL's full set of same- and mixed-width ones, int24pl, int48lt,
 * ...), abs/mod/gcd/lcm, the bitwise operators, casts between the widths,
 * and the aggregates count, sum(int2/int4), min and max.
 *
 * Design: every integer operation is carried out in int64, where an
 * int2 or int4 operation cannot overflow, and the result is then checked
 * against the range of the operator's result width (IntWidth); int8
 * operations detect overflow with the compiler's checked builtins.  A
 * result out of range raises 22003 "<type> out of range" naming the
 * result type, as PostgreSQL does.  The mixed-width operators are
 * generated per (left, right) pair by INT_PAIR_FUNCS, each reading its
 * arguments at their own width (a Datum's bits above the type's width
 * are not significant).
 *
 * Hashing: hashint2/hashint4 hash the value as a 32-bit word and hashint8
 * folds its high half in so that the three agree for equal values
 * (hashfn.h); this is what lets the mixed-width "=" operators hash.
 *
 * Entry point: tdb_builtins_int (registry.c).
 */
#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/builtin_rows.h"
#include "types/hashfn.h"
#include "types/strutil.h"
#include "types/numutils.h"
#include "types/sendrecv.h"

/* ----------------------------------------------------------------------
 * Range-checked arithmetic in int64
 * ---------------------------------------------------------------------- */

typedef enum IntWidth { INT_W2, INT_W4, INT_W8 } IntWidth;

static const struct {
    int64 min;
    int64 max;
    const char *sqlname; /* format_type's name, used in messages */
} int_widths[] = {
    [INT_W2] = {INT16_MIN, INT16_MAX, "smallint"},
    [INT_W4] = {INT32_MIN, INT32_MAX, "integer"},
    [INT_W8] = {INT64_MIN, INT64_MAX, "bigint"},
};

static TDB_NORETURN void
int_out_of_range(IntWidth w)
{
    ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
            errmsg("%s out of range", int_widths[w].sqlname));
    __builtin_unreachable();
}

static TDB_NORETURN void
division_by_zero(void)
{
    ereport(ERROR, errcode(ERRCODE_DIVISION_BY_ZERO),
            errmsg("division by zero"));
    __builtin_unreachable();
}

/* v, raising if it does not fit width w. */
static inline int64
int_fit(int64 v, IntWidth w)
{
    if (unlikely(v < int_widths[w].min || v > int_widths[w].max))
        int_out_of_range(w);
    return v;
}

/*
 * The operations take operands already within their own widths.  For a
 * result of width 2 or 4 both operands are within int32, so the int64
 * operation is exact and int_fit decides; for width 8 the builtins
 * catch the overflow.
 */
static inline int64
int_add(int64 a, int64 b, IntWidth w)
{
    int64 r;

    if (__builtin_add_overflow(a, b, &r))
        int_out_of_range(w);
    return int_fit(r, w);
}

static inline int64
int_sub(int64 a, int64 b, IntWidth w)
{
    int64 r;

    if (__builtin_sub_overflow(a, b, &r))
        int_out_of_range(w);
    return int_fit(r, w);
}

static inline int64
int_mul(int64 a, int64 b, IntWidth w)
{
    int64 r;

    if (__builtin_mul_overflow(a, b, &r))
        int_out_of_range(w);
    return int_fit(r, w);
}

static inline int64
int_neg(int64 a, IntWidth w)
{
    return int_sub(0, a, w);
}

/* a / b truncating toward zero; the minimum / -1 overflows. */
static inline int64
int_div(int64 a, int64 b, IntWidth w)
{
    if (b == 0)
        division_by_zero();
    if (b == -1)
        return int_neg(a, w);
    return int_fit(a / b, w);
}

/* a % b with the sign of a; anything % -1 is 0 (no trap on minimum). */
static inline int64
int_mod(int64 a, int64 b)
{
    if (b == 0)
        division_by_zero();
    if (b == -1)
        return 0;
    return a % b;
}

static inline int64
int_abs(int64 a, IntWidth w)
{
    return a < 0 ? int_neg(a, w) : a;
}

/*
 * Shifts as PostgreSQL computes them on x86-64: the count is taken
 * modulo the promoted operand's width (32 bits for int2 and int4, 64 for
 * int8), int2 results are truncated to 16 bits, and nothing overflows.
 */
static inline int64
int_shl(int64 a, int32 count, IntWidth w)
{
    if (w == INT_W8)
        return (int64)((uint64)a << (count & 63));
    if (w == INT_W4)
        return (int32)((uint32)a << (count & 31));
    return (int16)((uint32)a << (count & 31));
}

static inline int64
int_shr(int64 a, int32 count, IntWidth w)
{
    if (w == INT_W8)
        return a >> (count & 63);
    return (int32)a >> (count & 31);
}

static inline uint64
uint64_gcd(uint64 a, uint64 b)
{
    while (b != 0) {
        uint64 t = a % b;

        a = b;
        b = t;
    }
    return a;
}

static inline uint64
int_magnitude(int64 a)
{
    return a < 0 ? (uint64)0 - (uint64)a : (uint64)a;
}

/* gcd(a, b) >= 0; gcd(min, 0) and gcd(min, min) do not fit. */
static int64
int_gcd(int64 a, int64 b, IntWidth w)
{
    uint64 g = uint64_gcd(int_magnitude(a), int_magnitude(b));

    if (g > (uint64)int_widths[w].max)
        int_out_of_range(w);
    return (int64)g;
}

/* lcm(a, b) >= 0; 0 if either is 0. */
static int64
int_lcm(int64 a, int64 b, IntWidth w)
{
    uint64 ma = int_magnitude(a), mb = int_magnitude(b), r;

    if (ma == 0 || mb == 0)
        return 0;
    if (__builtin_mul_overflow(ma / uint64_gcd(ma, mb), mb, &r) ||
        r > (uint64)int_widths[w].max)
        int_out_of_range(w);
    return (int64)r;
}

static inline int32
int_cmp(int64 a, int64 b)
{
    return a < b ? -1 : a > b ? 1 : 0;
}

/* ----------------------------------------------------------------------
 * Operator functions
 * ---------------------------------------------------------------------- */

#define ARG_I2(n) ((int64)PG_GETARG_INT16(n))
#define ARG_I4(n) ((int64)PG_GETARG_INT32(n))
#define ARG_I8(n) PG_GETARG_INT64(n)

/*
 * The six comparisons of a pair of argument kinds: prefix##eq ... ge.
 * Results are plain C comparisons of the two promoted values.
 */
#define INT_CMP_FUNCS(prefix, GET1, GET2)                                   \
    static Datum prefix##eq(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL(GET1(0) == GET2(1));                                 \
    }                                                                       \
    static Datum prefix##ne(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL(GET1(0) != GET2(1));                                 \
    }                                                                       \
    static Datum prefix##lt(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL(GET1(0) < GET2(1));                                  \
    }                                                                       \
    static Datum prefix##gt(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL(GET1(0) > GET2(1));                                  \
    }                                                                       \
    static Datum prefix##le(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL(GET1(0) <= GET2(1));                                 \
    }                                                                       \
    static Datum prefix##ge(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL(GET1(0) >= GET2(1));                                 \
    }

/* The comparisons plus + - * / of a pair, with result width W. */
#define INT_PAIR_FUNCS(prefix, GET1, GET2, W)                               \
    INT_CMP_FUNCS(prefix, GET1, GET2)                                       \
    static Datum prefix##pl(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_INT64(int_add(GET1(0), GET2(1), W));                      \
    }                                                                       \
    static Datum prefix##mi(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_INT64(int_sub(GET1(0), GET2(1), W));                      \
    }                                                                       \
    static Datum prefix##mul(PG_FUNCTION_ARGS)                              \
    {                                                                       \
        PG_RETURN_INT64(int_mul(GET1(0), GET2(1), W));                      \
    }                                                                       \
    static Datum prefix##div(PG_FUNCTION_ARGS)                              \
    {                                                                       \
        PG_RETURN_INT64(int_div(GET1(0), GET2(1), W));                      \
    }

/*
 * What only same-width pairs have: prefix##mod, um, up, abs, the bitwise
 * operators, larger/smaller (min/max) and the btree
 * comparison bt##prefix##cmp.
 */
#define INT_SAME_FUNCS(prefix, GET, W)                                      \
    INT_PAIR_FUNCS(prefix, GET, GET, W)                                     \
    static Datum prefix##mod(PG_FUNCTION_ARGS)                              \
    {                                                                       \
        PG_RETURN_INT64(int_mod(GET(0), GET(1)));                           \
    }                                                                       \
    static Datum prefix##um(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_INT64(int_neg(GET(0), W));                                \
    }                                                                       \
    static Datum prefix##up(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_INT64(GET(0));                                            \
    }                                                                       \
    static Datum prefix##abs(PG_FUNCTION_ARGS)                              \
    {                                                                       \
        PG_RETURN_INT64(int_abs(GET(0), W));                                \
    }                                                                       \
    static Datum prefix##and(PG_FUNCTION_ARGS)                              \
    {                                                                       \
        PG_RETURN_INT64(GET(0) & GET(1));                                   \
    }                                                                       \
    static Datum prefix##or(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_INT64(GET(0) | GET(1));                                   \
    }                                                                       \
    static Datum prefix##xor(PG_FUNCTION_ARGS)                              \
    {                                                                       \
        PG_RETURN_INT64(GET(0) ^ GET(1));                                   \
    }                                                                       \
    static Datum prefix##not(PG_FUNCTION_ARGS)                              \
    {                                                                       \
        PG_RETURN_INT64(~GET(0));                                           \
    }                                                                       \
    static Datum prefix##shl(PG_FUNCTION_ARGS)                              \
    {                                                                       \
        PG_RETURN_INT64(int_shl(GET(0), PG_GETARG_INT32(1), W));            \
    }                                                                       \
    static Datum prefix##shr(PG_FUNCTION_ARGS)                              \
    {                                                                       \
        PG_RETURN_INT64(int_shr(GET(0), PG_GETARG_INT32(1), W));            \
    }                                                                       \
    static Datum prefix##larger(PG_FUNCTION_ARGS)                           \
    {                                                                       \
        PG_RETURN_INT64(GET(0) > GET(1) ? GET(0) : GET(1));                 \
    }                                                                       \
    static Datum prefix##smaller(PG_FUNCTION_ARGS)                          \
    {                                                                       \
        PG_RETURN_INT64(GET(0) < GET(1) ? GET(0) : GET(1));                 \
    }                                                                       \
    static Datum bt##prefix##cmp(PG_FUNCTION_ARGS)                          \
    {                                                                       \
        PG_RETURN_INT32(int_cmp(GET(0), GET(1)));                           \
    }

INT_SAME_FUNCS(int2, ARG_I2, INT_W2)
INT_SAME_FUNCS(int4, ARG_I4, INT_W4)
INT_SAME_FUNCS(int8, ARG_I8, INT_W8)
INT_PAIR_FUNCS(int24, ARG_I2, ARG_I4, INT_W4)
INT_PAIR_FUNCS(int42, ARG_I4, ARG_I2, INT_W4)
INT_PAIR_FUNCS(int28, ARG_I2, ARG_I8, INT_W8)
INT_PAIR_FUNCS(int82, ARG_I8, ARG_I2, INT_W8)
INT_PAIR_FUNCS(int48, ARG_I4, ARG_I8, INT_W8)
INT_PAIR_FUNCS(int84, ARG_I8, ARG_I4, INT_W8)

/* gcd and lcm exist for int4 and int8 only. */
static Datum
int4gcd(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(int_gcd(ARG_I4(0), ARG_I4(1), INT_W4));
}

static Datum
int8gcd(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(int_gcd(ARG_I8(0), ARG_I8(1), INT_W8));
}

static Datum
int4lcm(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(int_lcm(ARG_I4(0), ARG_I4(1), INT_W4));
}

static Datum
int8lcm(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(int_lcm(ARG_I8(0), ARG_I8(1), INT_W8));
}

/* oid: unsigned 32-bit, compared as such; no arithmetic. */
#define ARG_OID(n) PG_GETARG_OID(n)
INT_CMP_FUNCS(oid, ARG_OID, ARG_OID)

static Datum
oidlarger(PG_FUNCTION_ARGS)
{
    Oid a = PG_GETARG_OID(0), b = PG_GETARG_OID(1);

    PG_RETURN_OID(a > b ? a : b);
}

static Datum
oidsmaller(PG_FUNCTION_ARGS)
{
    Oid a = PG_GETARG_OID(0), b = PG_GETARG_OID(1);

    PG_RETURN_OID(a < b ? a : b);
}

static Datum
btoidcmp(PG_FUNCTION_ARGS)
{
    Oid a = PG_GETARG_OID(0), b = PG_GETARG_OID(1);

    PG_RETURN_INT32(a < b ? -1 : a > b ? 1 : 0);
}

/* ----------------------------------------------------------------------
 * Hashing
 * ---------------------------------------------------------------------- */

static Datum
hashint2(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)tdb_hash_uint32((uint32)(int32)PG_GETARG_INT16(0)));
}

static Datum
hashint4(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)tdb_hash_uint32((uint32)PG_GETARG_INT32(0)));
}

static Datum
hashint8(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)tdb_hash_int64(PG_GETARG_INT64(0)));
}

static Datum
hashoid(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)tdb_hash_uint32(PG_GETARG_OID(0)));
}

/* ----------------------------------------------------------------------
 * Casts between the widths
 * ---------------------------------------------------------------------- */

static Datum
int84(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)int_fit(PG_GETARG_INT64(0), INT_W4));
}

static Datum
int82(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT16((int16)int_fit(PG_GETARG_INT64(0), INT_W2));
}

static Datum
i4toi2(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT16((int16)int_fit(PG_GETARG_INT32(0), INT_W2));
}

/* Widening casts: the value read at the source width is the result. */
static Datum
int48(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(PG_GETARG_INT32(0));
}

static Datum
int28(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(PG_GETARG_INT16(0));
}

static Datum
i2toi4(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(PG_GETARG_INT16(0));
}

static Datum
i8tooid(PG_FUNCTION_ARGS)
{
    int64 v = PG_GETARG_INT64(0);

    if (v < 0 || v > (int64)UINT32_MAX)
        ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                errmsg("OID out of range"));
    PG_RETURN_OID((Oid)v);
}

static Datum
oidtoi8(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64((int64)PG_GETARG_OID(0));
}

/* ----------------------------------------------------------------------
 * Aggregate support
 * ---------------------------------------------------------------------- */

/* count(*): the state plus one. */
static Datum
int8inc(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(int_add(PG_GETARG_INT64(0), 1, INT_W8));
}

/*
 * sum(int2), sum(int4): an int8 state that stays NULL until a value
 * arrives (so the sum of no rows is NULL); NULL inputs are skipped.
 * Not strict, so that the NULL state can be started from the first
 * value.  value_width: the width of the input argument.
 */
static Datum
int_sum_step(FunctionCallInfo fcinfo, IntWidth value_width)
{
    int64 value;

    if (PG_ARGISNULL(1)) {
        if (PG_ARGISNULL(0))
            PG_RETURN_NULL();
        PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    }
    value = value_width == INT_W2 ? ARG_I2(1) : ARG_I4(1);
    if (PG_ARGISNULL(0))
        PG_RETURN_INT64(value);
    PG_RETURN_INT64(int_add(PG_GETARG_INT64(0), value, INT_W8));
}

static Datum
int2_sum(PG_FUNCTION_ARGS)
{
    return int_sum_step(fcinfo, INT_W2);
}

static Datum
int4_sum(PG_FUNCTION_ARGS)
{
    return int_sum_step(fcinfo, INT_W4);
}

/* ----------------------------------------------------------------------
 * Input and output
 * ---------------------------------------------------------------------- */

static Datum
int2_input(const char *str, int32 typmod)
{
    (void)typmod;
    return Int16GetDatum(
        (int16)tdb_parse_int64(str, INT16_MIN, INT16_MAX, "smallint"));
}

static Datum
int4_input(const char *str, int32 typmod)
{
    (void)typmod;
    return Int32GetDatum(
        (int32)tdb_parse_int64(str, INT32_MIN, INT32_MAX, "integer"));
}

static Datum
int8_input(const char *str, int32 typmod)
{
    (void)typmod;
    return Int64GetDatum(tdb_parse_int64(str, INT64_MIN, INT64_MAX, "bigint"));
}

static char *
int2_output(Datum value)
{
    return tdb_int64_to_cstring(DatumGetInt16(value));
}

static char *
int4_output(Datum value)
{
    return tdb_int64_to_cstring(DatumGetInt32(value));
}

static char *
int8_output(Datum value)
{
    return tdb_int64_to_cstring(DatumGetInt64(value));
}


/*
 * oid input, PostgreSQL's way: strtoul's syntax (so a leading '-' wraps,
 * "-1" is 4294967295), trailing whitespace allowed, and the value must
 * be a uint32 or the negation of one that fits in int32.
 */
static Datum
oid_input(const char *str, int32 typmod)
{
    unsigned long cvt;
    char *end;
    Oid result;

    (void)typmod;
    errno = 0;
    cvt = strtoul(str, &end, 10);
    if (*str == '\0' || end == str)
        ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                errmsg("invalid input syntax for type oid: \"%s\"", str));
    result = (Oid)cvt;
    if (errno == ERANGE ||
        (cvt != (unsigned long)result &&
         cvt != (unsigned long)(long)(int32)result))
        ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                errmsg("value \"%s\" is out of range for type oid", str));
    while (tdb_c_isspace(*end))
        end++;
    if (*end != '\0')
        ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                errmsg("invalid input syntax for type oid: \"%s\"", str));
    return ObjectIdGetDatum(result);
}

static char *
oid_output(Datum value)
{
    return tdb_int64_to_cstring((int64)DatumGetObjectId(value));
}

/* ----------------------------------------------------------------------
 * The tables
 * ---------------------------------------------------------------------- */

#define I2 INT2OID
#define I4 INT4OID
#define I8 INT8OID

static const FuncDesc int_funcs[] = {
    FUNC(1398, "abs", int2abs, I2, 1, I2),
    FUNC(1397, "abs", int4abs, I4, 1, I4),
    FUNC(1396, "abs", int8abs, I8, 1, I8),
    FUNC(940, "mod", int2mod, I2, 2, I2, I2),
    FUNC(941, "mod", int4mod, I4, 2, I4, I4),
    FUNC(947, "mod", int8mod, I8, 2, I8, I8),
    FUNC(5044, "gcd", int4gcd, I4, 2, I4, I4),
    FUNC(5045, "gcd", int8gcd, I8, 2, I8, I8),
    FUNC(5046, "lcm", int4lcm, I4, 2, I4, I4),
    FUNC(5047, "lcm", int8lcm, I8, 2, I8, I8),
    FUNC(770, "int2larger", int2larger, I2, 2, I2, I2),
    FUNC(771, "int2smaller", int2smaller, I2, 2, I2, I2),
    FUNC(768, "int4larger", int4larger, I4, 2, I4, I4),
    FUNC(769, "int4smaller", int4smaller, I4, 2, I4, I4),
    FUNC(1236, "int8larger", int8larger, I8, 2, I8, I8),
    FUNC(1237, "int8smaller", int8smaller, I8, 2, I8, I8),
    FUNC(449, "hashint2", hashint2, I4, 1, I2),
    FUNC(450, "hashint4", hashint4, I4, 1, I4),
    FUNC(949, "hashint8", hashint8, I4, 1, I8),
    FUNC(453, "hashoid", hashoid, I4, 1, OIDOID),
    FUNC(350, "btint2cmp", btint2cmp, I4, 2, I2, I2),
    FUNC(351, "btint4cmp", btint4cmp, I4, 2, I4, I4),
    FUNC(842, "btint8cmp", btint8cmp, I4, 2, I8, I8),
    FUNC(356, "btoidcmp", btoidcmp, I4, 2, OIDOID, OIDOID),
    /* the cast functions, callable by name like in PostgreSQL */
    FUNC(314, "int2", i4toi2, I2, 1, I4),
    FUNC(714, "int2", int82, I2, 1, I8),
    FUNC(313, "int4", i2toi4, I4, 1, I2),
    FUNC(480, "int4", int84, I4, 1, I8),
    FUNC(754, "int8", int28, I8, 1, I2),
    FUNC(481, "int8", int48, I8, 1, I4),
    FUNC(1288, "int8", oidtoi8, I8, 1, OIDOID),
    FUNC(1287, "oid", i8tooid, OIDOID, 1, I8),
};

static const OperDesc int_opers[] = {
    /* int2 op int2 */
    OPER_EQ(94, I2, I2, int2eq), OPER_NE(519, I2, I2, int2ne),
    OPER_LT(95, I2, I2, int2lt), OPER_GT(520, I2, I2, int2gt),
    OPER_LE(522, I2, I2, int2le), OPER_GE(524, I2, I2, int2ge),
    OPER(550, "+", I2, I2, I2, int2pl, "+", NULL),
    OPER(554, "-", I2, I2, I2, int2mi, NULL, NULL),
    OPER(526, "*", I2, I2, I2, int2mul, "*", NULL),
    OPER(527, "/", I2, I2, I2, int2div, NULL, NULL),
    OPER(529, "%", I2, I2, I2, int2mod, NULL, NULL),
    OPER(1874, "&", I2, I2, I2, int2and, "&", NULL),
    OPER(1875, "|", I2, I2, I2, int2or, "|", NULL),
    OPER(1876, "#", I2, I2, I2, int2xor, "#", NULL),
    OPER(1878, "<<", I2, I4, I2, int2shl, NULL, NULL),
    OPER(1879, ">>", I2, I4, I2, int2shr, NULL, NULL),
    OPER(559, "-", InvalidOid, I2, I2, int2um, NULL, NULL),
    OPER(1917, "+", InvalidOid, I2, I2, int2up, NULL, NULL),
    OPER(682, "@", InvalidOid, I2, I2, int2abs, NULL, NULL),
    OPER(1877, "~", InvalidOid, I2, I2, int2not, NULL, NULL),
    /* int4 op int4 */
    OPER_EQ(96, I4, I4, int4eq), OPER_NE(518, I4, I4, int4ne),
    OPER_LT(97, I4, I4, int4lt), OPER_GT(521, I4, I4, int4gt),
    OPER_LE(523, I4, I4, int4le), OPER_GE(525, I4, I4, int4ge),
    OPER(551, "+", I4, I4, I4, int4pl, "+", NULL),
    OPER(555, "-", I4, I4, I4, int4mi, NULL, NULL),
    OPER(514, "*", I4, I4, I4, int4mul, "*", NULL),
    OPER(528, "/", I4, I4, I4, int4div, NULL, NULL),
    OPER(530, "%", I4, I4, I4, int4mod, NULL, NULL),
    OPER(1880, "&", I4, I4, I4, int4and, "&", NULL),
    OPER(1881, "|", I4, I4, I4, int4or, "|", NULL),
    OPER(1882, "#", I4, I4, I4, int4xor, "#", NULL),
    OPER(1884, "<<", I4, I4, I4, int4shl, NULL, NULL),
    OPER(1885, ">>", I4, I4, I4, int4shr, NULL, NULL),
    OPER(558, "-", InvalidOid, I4, I4, int4um, NULL, NULL),
    OPER(1918, "+", InvalidOid, I4, I4, int4up, NULL, NULL),
    OPER(773, "@", InvalidOid, I4, I4, int4abs, NULL, NULL),
    OPER(1883, "~", InvalidOid, I4, I4, int4not, NULL, NULL),
    /* int8 op int8 */
    OPER_EQ(410, I8, I8, int8eq), OPER_NE(411, I8, I8, int8ne),
    OPER_LT(412, I8, I8, int8lt), OPER_GT(413, I8, I8, int8gt),
    OPER_LE(414, I8, I8, int8le), OPER_GE(415, I8, I8, int8ge),
    OPER(684, "+", I8, I8, I8, int8pl, "+", NULL),
    OPER(685, "-", I8, I8, I8, int8mi, NULL, NULL),
    OPER(686, "*", I8, I8, I8, int8mul, "*", NULL),
    OPER(687, "/", I8, I8, I8, int8div, NULL, NULL),
    OPER(439, "%", I8, I8, I8, int8mod, NULL, NULL),
    OPER(1886, "&", I8, I8, I8, int8and, "&", NULL),
    OPER(1887, "|", I8, I8, I8, int8or, "|", NULL),
    OPER(1888, "#", I8, I8, I8, int8xor, "#", NULL),
    OPER(1890, "<<", I8, I4, I8, int8shl, NULL, NULL),
    OPER(1891, ">>", I8, I4, I8, int8shr, NULL, NULL),
    OPER(484, "-", InvalidOid, I8, I8, int8um, NULL, NULL),
    OPER(1916, "+", InvalidOid, I8, I8, int8up, NULL, NULL),
    OPER(473, "@", InvalidOid, I8, I8, int8abs, NULL, NULL),
    OPER(1889, "~", InvalidOid, I8, I8, int8not, NULL, NULL),
    /* int2 op int4 and int4 op int2 */
    OPER_EQ(532, I2, I4, int24eq), OPER_NE(538, I2, I4, int24ne),
    OPER_LT(534, I2, I4, int24lt), OPER_GT(536, I2, I4, int24gt),
    OPER_LE(540, I2, I4, int24le), OPER_GE(542, I2, I4, int24ge),
    OPER(552, "+", I2, I4, I4, int24pl, "+", NULL),
    OPER(556, "-", I2, I4, I4, int24mi, NULL, NULL),
    OPER(544, "*", I2, I4, I4, int24mul, "*", NULL),
    OPER(546, "/", I2, I4, I4, int24div, NULL, NULL),
    OPER_EQ(533, I4, I2, int42eq), OPER_NE(539, I4, I2, int42ne),
    OPER_LT(535, I4, I2, int42lt), OPER_GT(537, I4, I2, int42gt),
    OPER_LE(541, I4, I2, int42le), OPER_GE(543, I4, I2, int42ge),
    OPER(553, "+", I4, I2, I4, int42pl, "+", NULL),
    OPER(557, "-", I4, I2, I4, int42mi, NULL, NULL),
    OPER(545, "*", I4, I2, I4, int42mul, "*", NULL),
    OPER(547, "/", I4, I2, I4, int42div, NULL, NULL),
    /* int2 op int8 and int8 op int2 */
    OPER_EQ(1862, I2, I8, int28eq), OPER_NE(1863, I2, I8, int28ne),
    OPER_LT(1864, I2, I8, int28lt), OPER_GT(1865, I2, I8, int28gt),
    OPER_LE(1866, I2, I8, int28le), OPER_GE(1867, I2, I8, int28ge),
    OPER(822, "+", I2, I8, I8, int28pl, "+", NULL),
    OPER(823, "-", I2, I8, I8, int28mi, NULL, NULL),
    OPER(824, "*", I2, I8, I8, int28mul, "*", NULL),
    OPER(825, "/", I2, I8, I8, int28div, NULL, NULL),
    OPER_EQ(1868, I8, I2, int82eq), OPER_NE(1869, I8, I2, int82ne),
    OPER_LT(1870, I8, I2, int82lt), OPER_GT(1871, I8, I2, int82gt),
    OPER_LE(1872, I8, I2, int82le), OPER_GE(1873, I8, I2, int82ge),
    OPER(818, "+", I8, I2, I8, int82pl, "+", NULL),
    OPER(819, "-", I8, I2, I8, int82mi, NULL, NULL),
    OPER(820, "*", I8, I2, I8, int82mul, "*", NULL),
    OPER(821, "/", I8, I2, I8, int82div, NULL, NULL),
    /* int4 op int8 and int8 op int4 */
    OPER_EQ(15, I4, I8, int48eq), OPER_NE(36, I4, I8, int48ne),
    OPER_LT(37, I4, I8, int48lt), OPER_GT(76, I4, I8, int48gt),
    OPER_LE(80, I4, I8, int48le), OPER_GE(82, I4, I8, int48ge),
    OPER(692, "+", I4, I8, I8, int48pl, "+", NULL),
    OPER(693, "-", I4, I8, I8, int48mi, NULL, NULL),
    OPER(694, "*", I4, I8, I8, int48mul, "*", NULL),
    OPER(695, "/", I4, I8, I8, int48div, NULL, NULL),
    OPER_EQ(416, I8, I4, int84eq), OPER_NE(417, I8, I4, int84ne),
    OPER_LT(418, I8, I4, int84lt), OPER_GT(419, I8, I4, int84gt),
    OPER_LE(420, I8, I4, int84le), OPER_GE(430, I8, I4, int84ge),
    OPER(688, "+", I8, I4, I8, int84pl, "+", NULL),
    OPER(689, "-", I8, I4, I8, int84mi, NULL, NULL),
    OPER(690, "*", I8, I4, I8, int84mul, "*", NULL),
    OPER(691, "/", I8, I4, I8, int84div, NULL, NULL),
    /* oid */
    OPER_EQ(607, OIDOID, OIDOID, oideq), OPER_NE(608, OIDOID, OIDOID, oidne),
    OPER_LT(609, OIDOID, OIDOID, oidlt), OPER_GT(610, OIDOID, OIDOID, oidgt),
    OPER_LE(611, OIDOID, OIDOID, oidle), OPER_GE(612, OIDOID, OIDOID, oidge),
};

static const CastDesc int_casts[] = {
    CAST(I8, I2, CAST_ASSIGNMENT, int82),
    CAST(I8, I4, CAST_ASSIGNMENT, int84),
    CAST(I8, OIDOID, CAST_IMPLICIT, i8tooid),
    CAST(I2, I8, CAST_IMPLICIT, int28),
    CAST(I2, I4, CAST_IMPLICIT, i2toi4),
    CAST(I2, OIDOID, CAST_IMPLICIT, i2toi4),
    CAST(I4, I8, CAST_IMPLICIT, int48),
    CAST(I4, I2, CAST_ASSIGNMENT, i4toi2),
    CAST_BINARY(I4, OIDOID, CAST_IMPLICIT),
    CAST(OIDOID, I8, CAST_ASSIGNMENT, oidtoi8),
    CAST_BINARY(OIDOID, I4, CAST_ASSIGNMENT),
    CASTS_INOUT_TO_STRINGS(I2),
    CASTS_INOUT_TO_STRINGS(I4),
    CASTS_INOUT_TO_STRINGS(I8),
    CASTS_INOUT_TO_STRINGS(OIDOID),
    CASTS_INOUT_FROM_STRINGS(I2),
    CASTS_INOUT_FROM_STRINGS(I4),
    CASTS_INOUT_FROM_STRINGS(I8),
    CASTS_INOUT_FROM_STRINGS(OIDOID),
};

static const AggDesc int_aggs[] = {
    AGG(2803, "count", 0, InvalidOid, InvalidOid, I8, I8, int8inc, true,
        NULL, "0"),
    /* int8inc_any: the "any" argument only has to be non-NULL */
    AGG(2147, "count", 1, ANYOID, InvalidOid, I8, I8, int8inc, true, NULL,
        "0"),
    AGG(2109, "sum", 1, I2, InvalidOid, I8, I8, int2_sum, false, NULL, NULL),
    AGG(2108, "sum", 1, I4, InvalidOid, I8, I8, int4_sum, false, NULL, NULL),
    AGG(2133, "min", 1, I2, InvalidOid, I2, I2, int2smaller, true, NULL,
        NULL),
    AGG(2132, "min", 1, I4, InvalidOid, I4, I4, int4smaller, true, NULL,
        NULL),
    AGG(2131, "min", 1, I8, InvalidOid, I8, I8, int8smaller, true, NULL,
        NULL),
    AGG(2134, "min", 1, OIDOID, InvalidOid, OIDOID, OIDOID, oidsmaller, true,
        NULL, NULL),
    AGG(2117, "max", 1, I2, InvalidOid, I2, I2, int2larger, true, NULL,
        NULL),
    AGG(2116, "max", 1, I4, InvalidOid, I4, I4, int4larger, true, NULL,
        NULL),
    AGG(2115, "max", 1, I8, InvalidOid, I8, I8, int8larger, true, NULL,
        NULL),
    AGG(2118, "max", 1, OIDOID, InvalidOid, OIDOID, OIDOID, oidlarger, true,
        NULL, NULL),
};

static const TypeSupport int_types[] = {
    {.typid = I2, .input = int2_input, .output = int2_output,
     .cmp = btint2cmp, .hash = hashint2, .eq = int2eq,
     .send = tdb_int2_send, .recv = tdb_int2_recv},
    {.typid = I4, .input = int4_input, .output = int4_output,
     .cmp = btint4cmp, .hash = hashint4, .eq = int4eq,
     .send = tdb_int4_send, .recv = tdb_int4_recv},
    {.typid = I8, .input = int8_input, .output = int8_output,
     .cmp = btint8cmp, .hash = hashint8, .eq = int8eq,
     .send = tdb_int8_send, .recv = tdb_int8_recv},
    {.typid = OIDOID, .input = oid_input, .output = oid_output,
     .cmp = btoidcmp, .hash = hashoid, .eq = oideq,
     .send = tdb_oid_send, .recv = tdb_oid_recv},
};

const BuiltinSet tdb_builtins_int =
    BUILTIN_SET("int", int_funcs, int_opers, int_casts, int_aggs, int_types);
