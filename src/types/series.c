/*
 * series.c -- generate_series over numeric, timestamp and timestamptz
 * (the int4 and int8 forms are in misc.c).
 *
 *   generate_series(start numeric, stop numeric [, step numeric])
 *   generate_series(start timestamp, stop timestamp, step interval)
 *   generate_series(start timestamptz, stop timestamptz, step interval)
 *
 * As in PostgreSQL: rows start, start + step, ... while not past stop in
 * the step's direction; a zero step is 22023 "step size cannot equal
 * zero"; numeric NaN or infinite bounds or step are 22023 too ("start
 * value cannot be NaN", "stop value cannot be infinity", ...).  Numeric
 * values are sums computed with numeric addition, so their scale is the
 * larger of the operands' (generate_series(1, 2.50, 0.5) prints 1.00).
 * Timestamps step with timestamp + interval (month steps clamp to the
 * month's end, from the running value, as PostgreSQL's do); timestamptz
 * with timestamptz + interval, whose months and days are counted in the
 * session's time zone.  The state lives in the SRF's multi-call context.
 */
#include "common/base.h"

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/builtins.h"
#include "types/datetime.h"
#include "types/numeric.h"

/* ----------------------------------------------------------------------
 * numeric
 * ---------------------------------------------------------------------- */

typedef struct NumericSeries {
    Datum current;
    Datum stop;
    Datum step;
    int direction; /* 1 ascending, -1 descending */
} NumericSeries;

/* 22023 if value (what: "start value", "stop value", "step size") is NaN
 * or infinite. */
static void
check_finite(Datum value, const char *what)
{
    Datum nan = tdb_numeric_from_var(&tdb_numvar_nan);
    Datum pinf = tdb_numeric_from_var(&tdb_numvar_pinf);
    Datum ninf = tdb_numeric_from_var(&tdb_numvar_ninf);

    if (tdb_numeric_cmp_datums(value, nan) == 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("%s cannot be NaN", what));
    if (tdb_numeric_cmp_datums(value, pinf) == 0 ||
        tdb_numeric_cmp_datums(value, ninf) == 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("%s cannot be infinity", what));
}

static NumericSeries *
numeric_series_start(FunctionCallInfo fcinfo, MemoryContext mcxt)
{
    Datum step = PG_NARGS() == 3 ? PG_GETARG_DATUM(2)
                                 : tdb_numeric_from_int64(1);
    Datum zero = tdb_numeric_from_int64(0);
    NumericSeries *st;
    MemoryContext old;

    check_finite(PG_GETARG_DATUM(0), "start value");
    check_finite(PG_GETARG_DATUM(1), "stop value");
    if (PG_NARGS() == 3)
        check_finite(step, "step size");
    if (tdb_numeric_cmp_datums(step, zero) == 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("step size cannot equal zero"));
    old = tdb_mcxt_switch_to(mcxt);
    st = tdb_palloc(sizeof(NumericSeries));
    st->current = tdb_numeric_copy(PG_GETARG_DATUM(0));
    st->stop = tdb_numeric_copy(PG_GETARG_DATUM(1));
    st->step = tdb_numeric_copy(step);
    st->direction = tdb_numeric_cmp_datums(step, zero) > 0 ? 1 : -1;
    tdb_mcxt_switch_to(old);
    return st;
}

static Datum
generate_series_numeric(PG_FUNCTION_ARGS)
{
    SRFCallContext *srf = fcinfo->context;
    NumericSeries *st = srf->state;
    Datum result;
    MemoryContext old;

    if (st == NULL)
        srf->state = st = numeric_series_start(fcinfo, srf->multi_call_mcxt);
    if (tdb_numeric_cmp_datums(st->current, st->stop) * st->direction > 0) {
        srf->is_done = true;
        PG_RETURN_NULL();
    }
    result = tdb_numeric_copy(st->current); /* the caller's context */
    old = tdb_mcxt_switch_to(srf->multi_call_mcxt);
    st->current = tdb_direct_call2(tdb_numeric_add, st->current, st->step);
    tdb_mcxt_switch_to(old);
    return result;
}

/* ----------------------------------------------------------------------
 * timestamp, timestamptz
 * ---------------------------------------------------------------------- */

typedef struct TimestampSeries {
    Timestamp current;
    Timestamp stop;
    Interval step;
    int direction;
} TimestampSeries;

static TimestampSeries *
timestamp_series_start(FunctionCallInfo fcinfo, MemoryContext mcxt)
{
    static const Interval zero = {0, 0, 0};
    const Interval *step = (const Interval *)PG_GETARG_POINTER(2);
    int sign = tdb_interval_cmp_internal(step, &zero);
    TimestampSeries *st;

    if (sign == 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("step size cannot equal zero"));
    st = tdb_mcxt_alloc(mcxt, sizeof(TimestampSeries));
    st->current = PG_GETARG_INT64(0);
    st->stop = PG_GETARG_INT64(1);
    st->step = *step;
    st->direction = sign > 0 ? 1 : -1;
    return st;
}

/* timestamp and timestamptz have one representation: both use this,
 * with_tz choosing how to add the step. */
static Datum
generate_series_timestamp_common(FunctionCallInfo fcinfo, bool with_tz)
{
    SRFCallContext *srf = fcinfo->context;
    TimestampSeries *st = srf->state;
    Timestamp result;

    if (st == NULL)
        srf->state = st =
            timestamp_series_start(fcinfo, srf->multi_call_mcxt);
    if (st->direction > 0 ? st->current > st->stop
                          : st->current < st->stop) {
        srf->is_done = true;
        PG_RETURN_NULL();
    }
    result = st->current;
    st->current = with_tz
                      ? tdb_timestamptz_pl_interval(st->current, &st->step)
                      : tdb_timestamp_pl_interval(st->current, &st->step);
    PG_RETURN_INT64(result);
}

static Datum
generate_series_timestamp(PG_FUNCTION_ARGS)
{
    return generate_series_timestamp_common(fcinfo, false);
}

static Datum
generate_series_timestamptz(PG_FUNCTION_ARGS)
{
    return generate_series_timestamp_common(fcinfo, true);
}

/* ---------------------------------------------------------------------- */

#define SERIES(oid_, fn_, type_, nargs_, vol_, ...)                            \
    {                                                                          \
        .oid = (oid_), .name = "generate_series", .rettype = (type_),          \
        .nargs = (nargs_), .argtypes = {__VA_ARGS__}, .strict = true,          \
        .retset = true, .volatility = (vol_), .fn = (fn_)                      \
    }

static const FuncDesc series_funcs[] = {
    SERIES(3259, generate_series_numeric, NUMERICOID, 3,
           PROVOLATILE_IMMUTABLE, NUMERICOID, NUMERICOID, NUMERICOID),
    SERIES(3260, generate_series_numeric, NUMERICOID, 2,
           PROVOLATILE_IMMUTABLE, NUMERICOID, NUMERICOID),
    SERIES(938, generate_series_timestamp, TIMESTAMPOID, 3,
           PROVOLATILE_IMMUTABLE, TIMESTAMPOID, TIMESTAMPOID, INTERVALOID),
    /* stable: month and day steps depend on the session's time zone */
    SERIES(939, generate_series_timestamptz, TIMESTAMPTZOID, 3,
           PROVOLATILE_STABLE, TIMESTAMPTZOID, TIMESTAMPTZOID, INTERVALOID),
};

const BuiltinSet tdb_builtins_series = {
    .name = "series",
    .funcs = series_funcs,
    .nfuncs = (int)lengthof(series_funcs),
};
