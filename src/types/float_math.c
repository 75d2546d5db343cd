/*
 * float_math.c -- the float8 math functions: sqrt, cbrt, power, exp,
 * ln, log10, round/trunc/ceil/floor/sign, pi, degrees/radians, the
 * trigonometric and hyperbolic functions, and random().
 *
 * Results come from the C library (glibc's libm, the same one a
 * PostgreSQL server on the machine uses), wrapped in PostgreSQL 15's
 * checks so that errors and special values match:
 *
 *   - domain errors are reported before calling libm, with the
 *     SQL-standard SQLSTATEs: 2201F for sqrt of a negative number and
 *     the invalid power cases, 2201E for logarithms of zero or of a
 *     negative number, 22003 "input is out of range" for the inverse
 *     trigonometric and hyperbolic functions and for sin/cos/tan of an
 *     infinity;
 *   - NaN and infinite arguments of power() and exp() are handled
 *     explicitly (POSIX's rules: NaN ^ 0 = 1, 1 ^ NaN = 1, ...) rather
 *     than trusted to pow() and exp();
 *   - a finite argument with an infinite result is an overflow, a
 *     nonzero one with a zero result (where that is wrong) an underflow,
 *     judged from the result and from libm's errno (so this file must be
 *     compiled with errno-setting math, which is gcc's default).
 *
 * random() draws from a per-thread xoshiro256** generator (a thread is
 * a connection in tupledb), seeded on first use from the clock, the
 * thread and an address, and returns (next >> 11) * 2^-53, a double in
 * [0, 1) with 53 random bits, as PostgreSQL's pg_prng_double does.  The
 * sequence itself is not PostgreSQL's (setseed() is not provided).
 */
#include "common/base.h"

#include <errno.h>
#include <math.h>
#include <time.h>

#include "common/elog.h"
#include "types/float.h"

/* pi / 180 to more digits than a double holds (PostgreSQL's constant) */
#define RADIANS_PER_DEGREE 0.0174532925199432957692

static TDB_NORETURN void
input_out_of_range(void)
{
    ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
            errmsg("input is out of range"));
    __builtin_unreachable();
}

/* ----------------------------------------------------------------------
 * Roots, powers, exponential and logarithms
 * ---------------------------------------------------------------------- */

/* Overflow (finite in, infinite out) and underflow (nonzero in, zero out). */
static inline double
check_result(double result, double arg)
{
    if (unlikely(isinf(result)) && !isinf(arg))
        tdb_float_overflow_error();
    if (unlikely(result == 0.0) && arg != 0.0)
        tdb_float_underflow_error();
    return result;
}

Datum
tdb_float8_sqrt(PG_FUNCTION_ARGS)
{
    double arg = PG_GETARG_FLOAT8(0);

    if (arg < 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION),
                errmsg("cannot take square root of a negative number"));
    PG_RETURN_FLOAT8(check_result(sqrt(arg), arg));
}

Datum
tdb_float8_cbrt(PG_FUNCTION_ARGS)
{
    double arg = PG_GETARG_FLOAT8(0);

    PG_RETURN_FLOAT8(check_result(cbrt(arg), arg));
}

/* x ^ y for an infinite x or y (finite, non-NaN otherwise), per POSIX. */
static double
pow_infinite(double x, double y)
{
    if (isinf(y)) {
        double absx = fabs(x);

        if (absx == 1.0)
            return 1.0;
        if (y > 0)
            return absx > 1.0 ? y : 0.0;
        return absx > 1.0 ? 0.0 : -y;
    }
    /* x is infinite */
    if (y == 0.0)
        return 1.0;
    if (x > 0)
        return y > 0 ? x : 0.0;
    {
        /* x = -Inf; y is an integer (checked before); odd if y/2 is not */
        double half = y / 2;
        bool odd = floor(half) != half;

        if (y > 0)
            return odd ? x : -x;
        return odd ? -0.0 : 0.0;
    }
}

Datum
tdb_float8_pow(PG_FUNCTION_ARGS)
{
    double x = PG_GETARG_FLOAT8(0);
    double y = PG_GETARG_FLOAT8(1);
    double result;

    if (isnan(x))
        PG_RETURN_FLOAT8(isnan(y) || y != 0.0 ? (double)NAN : 1.0);
    if (isnan(y))
        PG_RETURN_FLOAT8(x != 1.0 ? (double)NAN : 1.0);
    if (x == 0 && y < 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION),
                errmsg("zero raised to a negative power is undefined"));
    if (x < 0 && floor(y) != y)
        ereport(ERROR, errcode(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION),
                errmsg("a negative number raised to a non-integer power "
                       "yields a complex result"));
    if (isinf(x) || isinf(y))
        PG_RETURN_FLOAT8(pow_infinite(x, y));

    errno = 0;
    result = pow(x, y);
    if (errno == EDOM || isnan(result)) {
        /*
         * Every domain error was caught above; old libms fail like this
         * for |y| >= 2^63, which is even: decide from |x| alone.
         */
        double absx = fabs(x);

        if (x == 0.0)
            result = 0.0;
        else if (absx == 1.0)
            result = 1.0;
        else if (y >= 0.0 ? absx > 1.0 : absx < 1.0)
            tdb_float_overflow_error();
        else
            tdb_float_underflow_error();
    } else if (errno == ERANGE) {
        if (result != 0.0)
            tdb_float_overflow_error();
        tdb_float_underflow_error();
    } else {
        if (unlikely(isinf(result)))
            tdb_float_overflow_error();
        if (unlikely(result == 0.0) && x != 0.0)
            tdb_float_underflow_error();
    }
    PG_RETURN_FLOAT8(result);
}

Datum
tdb_float8_exp(PG_FUNCTION_ARGS)
{
    double arg = PG_GETARG_FLOAT8(0);
    double result;

    if (isnan(arg))
        PG_RETURN_FLOAT8(arg);
    if (isinf(arg))
        PG_RETURN_FLOAT8(arg > 0 ? arg : 0.0);
    errno = 0;
    result = exp(arg);
    if (unlikely(errno == ERANGE)) {
        if (result != 0.0)
            tdb_float_overflow_error();
        tdb_float_underflow_error();
    }
    if (unlikely(isinf(result)))
        tdb_float_overflow_error();
    if (unlikely(result == 0.0))
        tdb_float_underflow_error();
    PG_RETURN_FLOAT8(result);
}

/* The checks of ln and log10: 2201E for zero and negative arguments. */
static double
log_checked(double arg, double (*fn)(double))
{
    double result;

    if (arg == 0.0)
        ereport(ERROR, errcode(ERRCODE_INVALID_ARGUMENT_FOR_LOG),
                errmsg("cannot take logarithm of zero"));
    if (arg < 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_ARGUMENT_FOR_LOG),
                errmsg("cannot take logarithm of a negative number"));
    result = fn(arg);
    if (unlikely(isinf(result)) && !isinf(arg))
        tdb_float_overflow_error();
    if (unlikely(result == 0.0) && arg != 1.0)
        tdb_float_underflow_error();
    return result;
}

Datum
tdb_float8_ln(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(log_checked(PG_GETARG_FLOAT8(0), log));
}

Datum
tdb_float8_log10(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(log_checked(PG_GETARG_FLOAT8(0), log10));
}

/* ----------------------------------------------------------------------
 * Rounding
 * ---------------------------------------------------------------------- */

/* round(x): half to even, the current (default) rounding mode's rint. */
Datum
tdb_float8_round(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(rint(PG_GETARG_FLOAT8(0)));
}

Datum
tdb_float8_trunc(PG_FUNCTION_ARGS)
{
    double arg = PG_GETARG_FLOAT8(0);

    PG_RETURN_FLOAT8(arg >= 0 ? floor(arg) : -floor(-arg));
}

Datum
tdb_float8_ceil(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(ceil(PG_GETARG_FLOAT8(0)));
}

Datum
tdb_float8_floor(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(floor(PG_GETARG_FLOAT8(0)));
}

/* -1, 0 or 1 (NaN and both zeros give 0). */
Datum
tdb_float8_sign(PG_FUNCTION_ARGS)
{
    double arg = PG_GETARG_FLOAT8(0);

    PG_RETURN_FLOAT8(arg > 0 ? 1.0 : arg < 0 ? -1.0 : 0.0);
}

/* ----------------------------------------------------------------------
 * Trigonometry
 * ---------------------------------------------------------------------- */

Datum
tdb_float8_pi(PG_FUNCTION_ARGS)
{
    (void)fcinfo;
    PG_RETURN_FLOAT8(M_PI);
}

Datum
tdb_float8_degrees(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(flt8_div(PG_GETARG_FLOAT8(0), RADIANS_PER_DEGREE));
}

Datum
tdb_float8_radians(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(flt8_mul(PG_GETARG_FLOAT8(0), RADIANS_PER_DEGREE));
}

/*
 * sin, cos, tan: NaN gives NaN; an infinite argument (or any libm
 * error) is "input is out of range".  check_overflow: an infinite
 * result is an overflow (not for tan and cot, which are infinite at
 * their poles).
 */
static double
trig_checked(double arg, double (*fn)(double), bool check_overflow)
{
    double result;

    if (isnan(arg))
        return (double)NAN;
    errno = 0;
    result = fn(arg);
    if (errno != 0 || isinf(arg))
        input_out_of_range();
    if (check_overflow && unlikely(isinf(result)))
        tdb_float_overflow_error();
    return result;
}

Datum
tdb_float8_sin(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(trig_checked(PG_GETARG_FLOAT8(0), sin, true));
}

Datum
tdb_float8_cos(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(trig_checked(PG_GETARG_FLOAT8(0), cos, true));
}

Datum
tdb_float8_tan(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(trig_checked(PG_GETARG_FLOAT8(0), tan, false));
}

Datum
tdb_float8_cot(PG_FUNCTION_ARGS)
{
    double arg = PG_GETARG_FLOAT8(0);

    if (isnan(arg))
        PG_RETURN_FLOAT8((double)NAN);
    /* 1 / tan(0) is Infinity, not an error */
    PG_RETURN_FLOAT8(1.0 / trig_checked(arg, tan, false));
}

/* asin, acos: NaN gives NaN; outside [-1, 1] is out of range. */
static double
arc_checked(double arg, double (*fn)(double))
{
    double result;

    if (isnan(arg))
        return (double)NAN;
    if (arg < -1.0 || arg > 1.0)
        input_out_of_range();
    result = fn(arg);
    if (unlikely(isinf(result)))
        tdb_float_overflow_error();
    return result;
}

Datum
tdb_float8_asin(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(arc_checked(PG_GETARG_FLOAT8(0), asin));
}

Datum
tdb_float8_acos(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(arc_checked(PG_GETARG_FLOAT8(0), acos));
}

Datum
tdb_float8_atan(PG_FUNCTION_ARGS)
{
    double arg = PG_GETARG_FLOAT8(0);
    double result;

    if (isnan(arg))
        PG_RETURN_FLOAT8((double)NAN);
    result = atan(arg);
    if (unlikely(isinf(result)))
        tdb_float_overflow_error();
    PG_RETURN_FLOAT8(result);
}

Datum
tdb_float8_atan2(PG_FUNCTION_ARGS)
{
    double y = PG_GETARG_FLOAT8(0);
    double x = PG_GETARG_FLOAT8(1);
    double result;

    if (isnan(y) || isnan(x))
        PG_RETURN_FLOAT8((double)NAN);
    result = atan2(y, x);
    if (unlikely(isinf(result)))
        tdb_float_overflow_error();
    PG_RETURN_FLOAT8(result);
}

/* ----------------------------------------------------------------------
 * Hyperbolic functions
 * ---------------------------------------------------------------------- */

/* sinh overflows to an infinity of the argument's sign, silently. */
Datum
tdb_float8_sinh(PG_FUNCTION_ARGS)
{
    double arg = PG_GETARG_FLOAT8(0);
    double result;

    errno = 0;
    result = sinh(arg);
    if (errno == ERANGE)
        result = arg < 0 ? -(double)INFINITY : (double)INFINITY;
    PG_RETURN_FLOAT8(result);
}

Datum
tdb_float8_cosh(PG_FUNCTION_ARGS)
{
    double arg = PG_GETARG_FLOAT8(0);
    double result;

    errno = 0;
    result = cosh(arg);
    if (errno == ERANGE)
        result = (double)INFINITY;
    if (unlikely(result == 0.0))
        tdb_float_underflow_error();
    PG_RETURN_FLOAT8(result);
}

Datum
tdb_float8_tanh(PG_FUNCTION_ARGS)
{
    double result = tanh(PG_GETARG_FLOAT8(0));

    if (unlikely(isinf(result)))
        tdb_float_overflow_error();
    PG_RETURN_FLOAT8(result);
}

Datum
tdb_float8_asinh(PG_FUNCTION_ARGS)
{
    PG_RETURN_FLOAT8(asinh(PG_GETARG_FLOAT8(0)));
}

Datum
tdb_float8_acosh(PG_FUNCTION_ARGS)
{
    double arg = PG_GETARG_FLOAT8(0);

    /* NaN passes the check and gives NaN */
    if (arg < 1.0)
        input_out_of_range();
    PG_RETURN_FLOAT8(acosh(arg));
}

Datum
tdb_float8_atanh(PG_FUNCTION_ARGS)
{
    double arg = PG_GETARG_FLOAT8(0);

    if (arg < -1.0 || arg > 1.0)
        input_out_of_range();
    /* glibc would set ERANGE at the poles; give the infinities directly */
    if (arg == -1.0)
        PG_RETURN_FLOAT8(-(double)INFINITY);
    if (arg == 1.0)
        PG_RETURN_FLOAT8((double)INFINITY);
    PG_RETURN_FLOAT8(atanh(arg));
}

/* ----------------------------------------------------------------------
 * random()
 * ---------------------------------------------------------------------- */

/* The generator's state, one per thread (connection); all zero = unseeded. */
static _Thread_local uint64 random_state[4];

static inline uint64
rotl64(uint64 x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* splitmix64: spreads a seed over the four state words. */
static uint64
splitmix64(uint64 *x)
{
    uint64 z = (*x += 0x9E3779B97F4A7C15ULL);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void
random_seed(void)
{
    struct timespec ts;
    uint64 seed;

    clock_gettime(CLOCK_REALTIME, &ts);
    seed = (uint64)ts.tv_sec * 1000000000ULL + (uint64)ts.tv_nsec;
    seed ^= (uint64)(uintptr_t)&random_state; /* differs per thread */
    for (int i = 0; i < 4; i++)
        random_state[i] = splitmix64(&seed);
}

/* xoshiro256**: the next 64 random bits. */
static uint64
random_next(void)
{
    uint64 *s = random_state;
    uint64 result;
    uint64 t;

    if (unlikely((s[0] | s[1] | s[2] | s[3]) == 0))
        random_seed();
    result = rotl64(s[1] * 5, 7) * 9;
    t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

Datum
tdb_float8_random(PG_FUNCTION_ARGS)
{
    (void)fcinfo;
    /* the top 53 bits, scaled: a double in [0, 1) */
    PG_RETURN_FLOAT8((double)(random_next() >> 11) * 0x1.0p-53);
}
