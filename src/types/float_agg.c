/*
 * float_agg.c -- the float aggregates that need more than a running
 * value: avg and the variance family over float4 and float8, and the
 * two-argument regression family (corr, covar_pop/samp, regr_*) over
 * float8.
 *
 * The transition values are PostgreSQL's, computed in the same order of
 * floating-point operations so that results agree bit for bit:
 *
 *   N, Sx, Sxx                 for one variable
 *   N, Sx, Sxx, Sy, Syy, Sxy   for (Y, X) pairs
 *
 * where N is the count, Sx the sum and Sxx the sum of squared
 * deviations from the mean, maintained with the Youngs-Cramer update
 * (Youngs and Cramer, Technometrics 13, 1971): for the k-th value x,
 *
 *   Sx' = Sx + x;  Sxx' = Sxx + (x*k - Sx')^2 / (k * (k-1))
 *
 * which, unlike accumulating sum(x^2), loses no precision to
 * cancellation.  Overflow: an infinite sum from finite inputs raises
 * 22003; an infinite input makes Sxx NaN (so the variance is NaN), and
 * so does a NaN.  The first value sets Sxx to NaN if it is infinite or
 * NaN (otherwise a single Infinity would report variance zero).
 *
 * PostgreSQL keeps these in a float8[] transition value started from
 * '{0,0,0}'; tupledb keeps them in a struct allocated in the group's
 * memory on the first non-NULL input (transition type INTERNAL), and the
 * final functions treat a missing state as N = 0.  The transition
 * functions are not strict: they skip NULL inputs themselves.
 */
#include "common/base.h"

#include <math.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/builtins.h"
#include "types/float.h"

typedef struct FloatAccum {
    double n;
    double sx;
    double sxx;
} FloatAccum;

typedef struct FloatRegrAccum {
    double n;
    double sx;
    double sxx;
    double sy;
    double syy;
    double sxy;
} FloatRegrAccum;

/* ----------------------------------------------------------------------
 * One variable: avg, var_pop, var_samp, stddev_pop, stddev_samp
 * ---------------------------------------------------------------------- */

/* Fold value into the state (allocated on first use); returns it. */
static Datum
accum_step(FunctionCallInfo fcinfo, double value)
{
    FloatAccum *state;
    double n;
    double sx;
    double sxx;

    if (PG_ARGISNULL(0)) {
        state = tdb_mcxt_alloc(tdb_agg_group_mcxt(fcinfo), sizeof(FloatAccum));
        state->n = state->sx = state->sxx = 0.0;
    } else {
        state = (FloatAccum *)PG_GETARG_POINTER(0);
    }
    n = state->n + 1.0;
    sx = state->sx + value;
    sxx = state->sxx;
    if (state->n > 0.0) {
        double tmp = value * n - sx;

        sxx += tmp * tmp / (n * state->n);
        /* finite inputs with an infinite result: overflow; else NaN */
        if (isinf(sx) || isinf(sxx)) {
            if (!isinf(state->sx) && !isinf(value))
                tdb_float_overflow_error();
            sxx = (double)NAN;
        }
    } else if (isnan(value) || isinf(value)) {
        sxx = (double)NAN;
    }
    state->n = n;
    state->sx = sx;
    state->sxx = sxx;
    PG_RETURN_POINTER(state);
}

/* The state unchanged (or still NULL) for a NULL input. */
#define SKIP_NULL_INPUT()                                                   \
    do {                                                                    \
        if (PG_ARGISNULL(1)) {                                              \
            if (PG_ARGISNULL(0))                                            \
                PG_RETURN_NULL();                                           \
            PG_RETURN_DATUM(PG_GETARG_DATUM(0));                            \
        }                                                                   \
    } while (0)

Datum
tdb_float8_accum(PG_FUNCTION_ARGS)
{
    SKIP_NULL_INPUT();
    return accum_step(fcinfo, PG_GETARG_FLOAT8(1));
}

Datum
tdb_float4_accum(PG_FUNCTION_ARGS)
{
    SKIP_NULL_INPUT();
    return accum_step(fcinfo, (double)PG_GETARG_FLOAT4(1));
}

/* The state's values, N = 0 if there is none. */
static FloatAccum
accum_values(FunctionCallInfo fcinfo)
{
    FloatAccum none = {0.0, 0.0, 0.0};

    return PG_ARGISNULL(0) ? none : *(FloatAccum *)PG_GETARG_POINTER(0);
}

Datum
tdb_float8_avg(PG_FUNCTION_ARGS)
{
    FloatAccum a = accum_values(fcinfo);

    if (a.n == 0.0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(a.sx / a.n);
}

Datum
tdb_float8_var_pop(PG_FUNCTION_ARGS)
{
    FloatAccum a = accum_values(fcinfo);

    if (a.n == 0.0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(a.sxx / a.n);
}

Datum
tdb_float8_var_samp(PG_FUNCTION_ARGS)
{
    FloatAccum a = accum_values(fcinfo);

    if (a.n <= 1.0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(a.sxx / (a.n - 1.0));
}

Datum
tdb_float8_stddev_pop(PG_FUNCTION_ARGS)
{
    FloatAccum a = accum_values(fcinfo);

    if (a.n == 0.0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(sqrt(a.sxx / a.n));
}

Datum
tdb_float8_stddev_samp(PG_FUNCTION_ARGS)
{
    FloatAccum a = accum_values(fcinfo);

    if (a.n <= 1.0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(sqrt(a.sxx / (a.n - 1.0)));
}

/* ----------------------------------------------------------------------
 * Pairs (Y, X): the regression family
 * ---------------------------------------------------------------------- */

/* regr_count's transition: one more row (NULL rows never get here). */
Datum
tdb_float8_regr_count(PG_FUNCTION_ARGS)
{
    int64 count = PG_GETARG_INT64(0);

    if (unlikely(count == INT64_MAX))
        ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                errmsg("bigint out of range"));
    PG_RETURN_INT64(count + 1);
}

Datum
tdb_float8_regr_accum(PG_FUNCTION_ARGS)
{
    FloatRegrAccum *state;
    FloatRegrAccum old;
    double y;
    double x;
    double n;
    double sx;
    double sxx;
    double sy;
    double syy;
    double sxy;

    /* a row with either value NULL is ignored (the function is strict) */
    if (PG_ARGISNULL(1) || PG_ARGISNULL(2)) {
        if (PG_ARGISNULL(0))
            PG_RETURN_NULL();
        PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    }
    y = PG_GETARG_FLOAT8(1);
    x = PG_GETARG_FLOAT8(2);
    if (PG_ARGISNULL(0)) {
        state = tdb_mcxt_alloc(tdb_agg_group_mcxt(fcinfo),
                               sizeof(FloatRegrAccum));
        state->n = state->sx = state->sxx = 0.0;
        state->sy = state->syy = state->sxy = 0.0;
    } else {
        state = (FloatRegrAccum *)PG_GETARG_POINTER(0);
    }
    old = *state;
    n = old.n + 1.0;
    sx = old.sx + x;
    sxx = old.sxx;
    sy = old.sy + y;
    syy = old.syy;
    sxy = old.sxy;
    if (old.n > 0.0) {
        double tmpx = x * n - sx;
        double tmpy = y * n - sy;
        double scale = 1.0 / (n * old.n);

        sxx += tmpx * tmpx * scale;
        syy += tmpy * tmpy * scale;
        sxy += tmpx * tmpy * scale;
        if (isinf(sx) || isinf(sxx) || isinf(sy) || isinf(syy) ||
            isinf(sxy)) {
            /* finite inputs with an infinite result: overflow */
            if (((isinf(sx) || isinf(sxx)) && !isinf(old.sx) &&
                 !isinf(x)) ||
                ((isinf(sy) || isinf(syy)) && !isinf(old.sy) &&
                 !isinf(y)) ||
                (isinf(sxy) && !isinf(old.sx) && !isinf(x) &&
                 !isinf(old.sy) && !isinf(y)))
                tdb_float_overflow_error();
            if (isinf(sxx))
                sxx = (double)NAN;
            if (isinf(syy))
                syy = (double)NAN;
            if (isinf(sxy))
                sxy = (double)NAN;
        }
    } else {
        if (isnan(x) || isinf(x))
            sxx = sxy = (double)NAN;
        if (isnan(y) || isinf(y))
            syy = sxy = (double)NAN;
    }
    state->n = n;
    state->sx = sx;
    state->sxx = sxx;
    state->sy = sy;
    state->syy = syy;
    state->sxy = sxy;
    PG_RETURN_POINTER(state);
}

static FloatRegrAccum
regr_values(FunctionCallInfo fcinfo)
{
    FloatRegrAccum none = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};

    return PG_ARGISNULL(0) ? none : *(FloatRegrAccum *)PG_GETARG_POINTER(0);
}

Datum
tdb_float8_regr_sxx(PG_FUNCTION_ARGS)
{
    FloatRegrAccum a = regr_values(fcinfo);

    if (a.n < 1.0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(a.sxx);
}

Datum
tdb_float8_regr_syy(PG_FUNCTION_ARGS)
{
    FloatRegrAccum a = regr_values(fcinfo);

    if (a.n < 1.0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(a.syy);
}

Datum
tdb_float8_regr_sxy(PG_FUNCTION_ARGS)
{
    FloatRegrAccum a = regr_values(fcinfo);

    if (a.n < 1.0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(a.sxy);
}

Datum
tdb_float8_regr_avgx(PG_FUNCTION_ARGS)
{
    FloatRegrAccum a = regr_values(fcinfo);

    if (a.n < 1.0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(a.sx / a.n);
}

Datum
tdb_float8_regr_avgy(PG_FUNCTION_ARGS)
{
    FloatRegrAccum a = regr_values(fcinfo);

    if (a.n < 1.0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(a.sy / a.n);
}

Datum
tdb_float8_covar_pop(PG_FUNCTION_ARGS)
{
    FloatRegrAccum a = regr_values(fcinfo);

    if (a.n < 1.0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(a.sxy / a.n);
}

Datum
tdb_float8_covar_samp(PG_FUNCTION_ARGS)
{
    FloatRegrAccum a = regr_values(fcinfo);

    if (a.n < 2.0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(a.sxy / (a.n - 1.0));
}

/* NULL for a horizontal or vertical line (Sxx or Syy zero). */
Datum
tdb_float8_corr(PG_FUNCTION_ARGS)
{
    FloatRegrAccum a = regr_values(fcinfo);

    if (a.n < 1.0)
        PG_RETURN_NULL();
    if (a.sxx == 0 || a.syy == 0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(a.sxy / sqrt(a.sxx * a.syy));
}

Datum
tdb_float8_regr_r2(PG_FUNCTION_ARGS)
{
    FloatRegrAccum a = regr_values(fcinfo);

    if (a.n < 1.0)
        PG_RETURN_NULL();
    if (a.sxx == 0)
        PG_RETURN_NULL();
    if (a.syy == 0)
        PG_RETURN_FLOAT8(1.0);
    PG_RETURN_FLOAT8((a.sxy * a.sxy) / (a.sxx * a.syy));
}

Datum
tdb_float8_regr_slope(PG_FUNCTION_ARGS)
{
    FloatRegrAccum a = regr_values(fcinfo);

    if (a.n < 1.0)
        PG_RETURN_NULL();
    if (a.sxx == 0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8(a.sxy / a.sxx);
}

Datum
tdb_float8_regr_intercept(PG_FUNCTION_ARGS)
{
    FloatRegrAccum a = regr_values(fcinfo);

    if (a.n < 1.0)
        PG_RETURN_NULL();
    if (a.sxx == 0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8((a.sy - a.sx * a.sxy / a.sxx) / a.n);
}
