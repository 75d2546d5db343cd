/*
 * interval.c -- the type interval: input (postgres, SQL-standard and
 * ISO 8601 forms) and output (IntervalStyle 'postgres'), the
 * interval(fields, p) typmods, comparison and hashing, + - * / and unary
 * minus, justify_*, make_interval, extract/date_part, date_trunc,
 * isfinite, sum/avg/min/max, and the family's BuiltinSet for them.
 *
 * An interval is 16 bytes by reference: int64 microseconds, int32 days,
 * int32 months, kept apart because their lengths vary (a day may have 23
 * or 25 hours across a DST change, a month 28 to 31 days).  Comparison
 * and hashing nevertheless treat a month as 30 days and a day as 24
 * hours, over 128 bits, so '1 mon' = '30 days' = '720 hours' (and they
 * hash alike).
 *
 * Values arrive as pointers that may not be 8-aligned (a tuple's copy);
 * they are read with tdb_interval_get (memcpy).  Results are palloc'd in
 * the current memory context.
 *
 * Entry point: tdb_builtins_interval (registry.c).
 */
#include "common/base.h"

#include <math.h>
#include <stdio.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/builtin_rows.h"
#include "types/datetime.h"
#include "types/hashfn.h"
#include "types/sendrecv.h"
#include "types/typeio.h"

#define ARG_IV(n) tdb_interval_get(PG_GETARG_DATUM(n))

/* Rounding of intermediate double results to the microsecond. */
#define TS_PREC_INV 1000000.0
#define TSROUND(j) (rint(((double)(j)) * TS_PREC_INV) / TS_PREC_INV)

/* Wrapping arithmetic, as PostgreSQL's -fwrapv build computes. */
static inline int32
wrap_add32(int32 a, int32 b)
{
    return (int32)((uint32)a + (uint32)b);
}

static inline int64
wrap_add64(int64 a, int64 b)
{
    return (int64)((uint64)a + (uint64)b);
}

/*
 * A double converted to int64 the way x86-64 converts it in PostgreSQL's
 * unchecked cast: out of range or NaN gives the most negative value.
 */
static inline int64
x86_double_to_int64(double d)
{
    if (isnan(d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0)
        return INT64_MIN;
    return (int64)d;
}

Interval *
tdb_interval_palloc(void)
{
    return tdb_palloc(sizeof(Interval));
}

Datum
tdb_interval_datum(const Interval *v)
{
    Interval *r = tdb_interval_palloc();

    *r = *v;
    return PointerGetDatum(r);
}

/* ----------------------------------------------------------------------
 * Typmods
 * ---------------------------------------------------------------------- */

static const int64 interval_scales[MAX_INTERVAL_PRECISION + 1] = {
    INT64_C(1000000), INT64_C(100000), INT64_C(10000), INT64_C(1000),
    INT64_C(100),     INT64_C(10),     INT64_C(1)};
static const int64 interval_offsets[MAX_INTERVAL_PRECISION + 1] = {
    INT64_C(500000), INT64_C(50000), INT64_C(5000), INT64_C(500),
    INT64_C(50),     INT64_C(5),     INT64_C(0)};

#define M(f) INTERVAL_MASK(DTF_##f)

/*
 * Apply an interval typmod: fields right of the last one named are
 * zeroed (those left of it stay: INTERVAL MONTH keeps years), then the
 * seconds are rounded to the precision.
 */
void
tdb_adjust_interval_for_typmod(Interval *span, int32 typmod)
{
    int range;
    int precision;

    if (typmod < 0)
        return;
    range = INTERVAL_RANGE(typmod);
    precision = INTERVAL_PRECISION(typmod);
    if (range == INTERVAL_FULL_RANGE) {
        /* nothing */
    } else if (range == M(YEAR)) {
        span->month = (span->month / MONTHS_PER_YEAR) * MONTHS_PER_YEAR;
        span->day = 0;
        span->time = 0;
    } else if (range == M(MONTH) || range == (M(YEAR) | M(MONTH))) {
        span->day = 0;
        span->time = 0;
    } else if (range == M(DAY)) {
        span->time = 0;
    } else if (range == M(HOUR) || range == (M(DAY) | M(HOUR))) {
        span->time = (span->time / USECS_PER_HOUR) * USECS_PER_HOUR;
    } else if (range == M(MINUTE) || range == (M(DAY) | M(HOUR) | M(MINUTE)) ||
               range == (M(HOUR) | M(MINUTE))) {
        span->time = (span->time / USECS_PER_MINUTE) * USECS_PER_MINUTE;
    } else if (range == M(SECOND) ||
               range == (M(DAY) | M(HOUR) | M(MINUTE) | M(SECOND)) ||
               range == (M(HOUR) | M(MINUTE) | M(SECOND)) ||
               range == (M(MINUTE) | M(SECOND))) {
        /* the precision below does the rest */
    } else
        elog(ERROR, "unrecognized interval typmod: %d", typmod);

    if (precision != INTERVAL_FULL_PRECISION) {
        if (precision < 0 || precision > MAX_INTERVAL_PRECISION)
            ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("interval(%d) precision must be between %d and %d",
                           precision, 0, MAX_INTERVAL_PRECISION));
        if (span->time >= 0)
            span->time = (wrap_add64(span->time, interval_offsets[precision]) /
                          interval_scales[precision]) *
                         interval_scales[precision];
        else
            span->time = (int64)(0 - (uint64)((
                wrap_add64((int64)(0 - (uint64)span->time),
                           interval_offsets[precision]) /
                interval_scales[precision]) * interval_scales[precision]));
    }
}

/* " year to month", "(3)", " second(2)", ... */
static char *
interval_typmod_out(int32 typmod)
{
    char *res = tdb_palloc(64);
    int fields = INTERVAL_RANGE(typmod);
    int precision = INTERVAL_PRECISION(typmod);
    const char *fieldstr;

    if (typmod < 0) {
        res[0] = '\0';
        return res;
    }
    switch (fields) {
    case M(YEAR):
        fieldstr = " year";
        break;
    case M(MONTH):
        fieldstr = " month";
        break;
    case M(DAY):
        fieldstr = " day";
        break;
    case M(HOUR):
        fieldstr = " hour";
        break;
    case M(MINUTE):
        fieldstr = " minute";
        break;
    case M(SECOND):
        fieldstr = " second";
        break;
    case M(YEAR) | M(MONTH):
        fieldstr = " year to month";
        break;
    case M(DAY) | M(HOUR):
        fieldstr = " day to hour";
        break;
    case M(DAY) | M(HOUR) | M(MINUTE):
        fieldstr = " day to minute";
        break;
    case M(DAY) | M(HOUR) | M(MINUTE) | M(SECOND):
        fieldstr = " day to second";
        break;
    case M(HOUR) | M(MINUTE):
        fieldstr = " hour to minute";
        break;
    case M(HOUR) | M(MINUTE) | M(SECOND):
        fieldstr = " hour to second";
        break;
    case M(MINUTE) | M(SECOND):
        fieldstr = " minute to second";
        break;
    case INTERVAL_FULL_RANGE:
        fieldstr = "";
        break;
    default:
        elog(ERROR, "invalid INTERVAL typmod: 0x%x", typmod);
    }
    if (precision != INTERVAL_FULL_PRECISION)
        snprintf(res, 64, "%s(%d)", fieldstr, precision);
    else
        snprintf(res, 64, "%s", fieldstr);
    return res;
}

static Datum
interval_apply_typmod(Datum value, int32 typmod, bool is_explicit)
{
    Interval v = tdb_interval_get(value);

    (void)is_explicit;
    tdb_adjust_interval_for_typmod(&v, typmod);
    return tdb_interval_datum(&v);
}

/* interval(iv, typmod): the typmod as a function. */
static Datum
interval_scale(PG_FUNCTION_ARGS)
{
    Interval v = ARG_IV(0);

    tdb_adjust_interval_for_typmod(&v, PG_GETARG_INT32(1));
    PG_RETURN_DATUM(tdb_interval_datum(&v));
}

/* ----------------------------------------------------------------------
 * Input and output
 * ---------------------------------------------------------------------- */

static Datum
interval_input(const char *str, int32 typmod)
{
    IntervalInput itm_in;
    Interval result;
    int dtype;
    int nf;
    int range;
    int dterr;
    char *field[MAXDATEFIELDS];
    int ftype[MAXDATEFIELDS];
    char workbuf[256];
    char *copy;

    itm_in.tm_year = 0;
    itm_in.tm_mon = 0;
    itm_in.tm_mday = 0;
    itm_in.tm_usec = 0;
    range = typmod >= 0 ? INTERVAL_RANGE(typmod) : INTERVAL_FULL_RANGE;

    dterr = tdb_dt_parse_fields(str, workbuf, sizeof(workbuf), field, ftype,
                                MAXDATEFIELDS, &nf);
    if (dterr == 0)
        dterr = tdb_dt_decode_interval(field, ftype, nf, range, &dtype,
                                       &itm_in);
    /* not the postgres form: maybe ISO 8601 */
    if (dterr == DTERR_BAD_FORMAT) {
        copy = tdb_pstrdup(str);
        dterr = tdb_dt_decode_iso8601_interval(copy, &dtype, &itm_in);
    }
    if (dterr != 0) {
        if (dterr == DTERR_FIELD_OVERFLOW)
            dterr = DTERR_INTERVAL_OVERFLOW;
        tdb_dt_parse_error(dterr, str, "interval");
    }
    if (dtype != DTK_DELTA)
        elog(ERROR, "unexpected dtype %d while parsing interval \"%s\"",
             dtype, str);
    if (!tdb_itmin2interval(&itm_in, &result))
        tdb_dt_error_interval_range();
    tdb_adjust_interval_for_typmod(&result, typmod);
    return tdb_interval_datum(&result);
}

static char *
interval_output(Datum value)
{
    Interval span = tdb_interval_get(value);
    IntervalFields itm;
    char buf[MAXDATELEN + 1];

    tdb_interval2itm(&span, &itm);
    tdb_dt_encode_interval(&itm, tdb_typeio()->interval_style, buf);
    return tdb_pstrdup(buf);
}

/* ----------------------------------------------------------------------
 * Comparison and hashing
 * ---------------------------------------------------------------------- */

/* The interval as microseconds, a month as 30 days, in 128 bits. */
static inline __int128
interval_cmp_value(const Interval *v)
{
    int64 days = (int64)v->month * 30 + v->day;

    return (__int128)v->time + (__int128)days * USECS_PER_DAY;
}

int
tdb_interval_cmp_internal(const Interval *a, const Interval *b)
{
    __int128 va = interval_cmp_value(a);
    __int128 vb = interval_cmp_value(b);

    return va < vb ? -1 : va > vb ? 1 : 0;
}

#define IV_CMP(a, b) tdb_interval_cmp_internal(&(a), &(b))

static Datum
interval_eq(PG_FUNCTION_ARGS)
{
    Interval a = ARG_IV(0), b = ARG_IV(1);

    PG_RETURN_BOOL(IV_CMP(a, b) == 0);
}

static Datum
interval_ne(PG_FUNCTION_ARGS)
{
    Interval a = ARG_IV(0), b = ARG_IV(1);

    PG_RETURN_BOOL(IV_CMP(a, b) != 0);
}

static Datum
interval_lt(PG_FUNCTION_ARGS)
{
    Interval a = ARG_IV(0), b = ARG_IV(1);

    PG_RETURN_BOOL(IV_CMP(a, b) < 0);
}

static Datum
interval_gt(PG_FUNCTION_ARGS)
{
    Interval a = ARG_IV(0), b = ARG_IV(1);

    PG_RETURN_BOOL(IV_CMP(a, b) > 0);
}

static Datum
interval_le(PG_FUNCTION_ARGS)
{
    Interval a = ARG_IV(0), b = ARG_IV(1);

    PG_RETURN_BOOL(IV_CMP(a, b) <= 0);
}

static Datum
interval_ge(PG_FUNCTION_ARGS)
{
    Interval a = ARG_IV(0), b = ARG_IV(1);

    PG_RETURN_BOOL(IV_CMP(a, b) >= 0);
}

static Datum
interval_cmp(PG_FUNCTION_ARGS)
{
    Interval a = ARG_IV(0), b = ARG_IV(1);

    PG_RETURN_INT32(IV_CMP(a, b));
}

/* The low 64 bits of the comparison value, hashed as an int8 (so equal
 * intervals hash equal, as PostgreSQL's interval_hash). */
static Datum
interval_hash(PG_FUNCTION_ARGS)
{
    Interval v = ARG_IV(0);

    PG_RETURN_INT32(
        (int32)tdb_hash_int64((int64)(uint64)interval_cmp_value(&v)));
}

/* The larger/smaller argument itself (the first when equal / unequal as
 * PostgreSQL picks). */
static Datum
interval_larger(PG_FUNCTION_ARGS)
{
    Interval a = ARG_IV(0), b = ARG_IV(1);

    PG_RETURN_DATUM(IV_CMP(a, b) > 0 ? PG_GETARG_DATUM(0)
                                     : PG_GETARG_DATUM(1));
}

static Datum
interval_smaller(PG_FUNCTION_ARGS)
{
    Interval a = ARG_IV(0), b = ARG_IV(1);

    PG_RETURN_DATUM(IV_CMP(a, b) < 0 ? PG_GETARG_DATUM(0)
                                     : PG_GETARG_DATUM(1));
}

static Datum
interval_finite(PG_FUNCTION_ARGS)
{
    (void)fcinfo;
    PG_RETURN_BOOL(true);
}

/* ----------------------------------------------------------------------
 * Arithmetic
 * ---------------------------------------------------------------------- */

void
tdb_interval_pl(const Interval *a, const Interval *b, Interval *r)
{
    if (__builtin_add_overflow(a->month, b->month, &r->month) ||
        __builtin_add_overflow(a->day, b->day, &r->day) ||
        __builtin_add_overflow(a->time, b->time, &r->time))
        tdb_dt_error_interval_range();
}

void
tdb_interval_mi(const Interval *a, const Interval *b, Interval *r)
{
    if (__builtin_sub_overflow(a->month, b->month, &r->month) ||
        __builtin_sub_overflow(a->day, b->day, &r->day) ||
        __builtin_sub_overflow(a->time, b->time, &r->time))
        tdb_dt_error_interval_range();
}

void
tdb_interval_um(const Interval *a, Interval *r)
{
    if (a->time == INT64_MIN || a->day == INT32_MIN || a->month == INT32_MIN)
        tdb_dt_error_interval_range();
    r->time = -a->time;
    r->day = -a->day;
    r->month = -a->month;
}

static Datum
interval_pl(PG_FUNCTION_ARGS)
{
    Interval a = ARG_IV(0), b = ARG_IV(1), r;

    tdb_interval_pl(&a, &b, &r);
    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

static Datum
interval_mi(PG_FUNCTION_ARGS)
{
    Interval a = ARG_IV(0), b = ARG_IV(1), r;

    tdb_interval_mi(&a, &b, &r);
    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

static Datum
interval_um(PG_FUNCTION_ARGS)
{
    Interval a = ARG_IV(0), r;

    tdb_interval_um(&a, &r);
    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

/*
 * span * factor: months and days multiply on their own; their fractions
 * cascade down (a month's fraction into days of 30, a day's into
 * seconds), never up, as PostgreSQL's interval_mul.
 */
static Interval
interval_mul_internal(const Interval *span, double factor)
{
    Interval result;
    double month_remainder_days;
    double sec_remainder;
    double result_double;

    result_double = span->month * factor;
    if (isnan(result_double) || result_double > INT32_MAX ||
        result_double < INT32_MIN)
        tdb_dt_error_interval_range();
    result.month = (int32)result_double;

    result_double = span->day * factor;
    if (isnan(result_double) || result_double > INT32_MAX ||
        result_double < INT32_MIN)
        tdb_dt_error_interval_range();
    result.day = (int32)result_double;

    month_remainder_days =
        (span->month * factor - result.month) * DAYS_PER_MONTH;
    month_remainder_days = TSROUND(month_remainder_days);
    sec_remainder = (span->day * factor - result.day + month_remainder_days -
                     (int)month_remainder_days) *
                    SECS_PER_DAY;
    sec_remainder = TSROUND(sec_remainder);
    /* rounding or the cascade may make a day or more */
    if (fabs(sec_remainder) >= SECS_PER_DAY) {
        result.day =
            wrap_add32(result.day, (int)(sec_remainder / SECS_PER_DAY));
        sec_remainder -= (int)(sec_remainder / SECS_PER_DAY) * SECS_PER_DAY;
    }
    result.day = wrap_add32(result.day, (int32)month_remainder_days);
    result_double = rint(span->time * factor + sec_remainder * USECS_PER_SEC);
    if (isnan(result_double) || !(result_double >= (double)INT64_MIN &&
                                  result_double < -((double)INT64_MIN)))
        tdb_dt_error_interval_range();
    result.time = (int64)result_double;
    return result;
}

static Datum
interval_mul(PG_FUNCTION_ARGS)
{
    Interval span = ARG_IV(0);
    Interval r = interval_mul_internal(&span, PG_GETARG_FLOAT8(1));

    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

static Datum
mul_d_interval(PG_FUNCTION_ARGS)
{
    Interval span = ARG_IV(1);
    Interval r = interval_mul_internal(&span, PG_GETARG_FLOAT8(0));

    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

/* span / factor, cascading fractions down like interval_mul. */
static Interval
interval_div_internal(const Interval *span, double factor)
{
    Interval result;
    double month_remainder_days;
    double sec_remainder;
    double result_double;

    if (factor == 0.0)
        ereport(ERROR, errcode(ERRCODE_DIVISION_BY_ZERO),
                errmsg("division by zero"));
    result_double = span->month / factor;
    if (isnan(result_double) || result_double > INT32_MAX ||
        result_double < INT32_MIN)
        tdb_dt_error_interval_range();
    result.month = (int32)result_double;
    result_double = span->day / factor;
    if (isnan(result_double) || result_double > INT32_MAX ||
        result_double < INT32_MIN)
        tdb_dt_error_interval_range();
    result.day = (int32)result_double;

    month_remainder_days =
        (span->month / factor - result.month) * DAYS_PER_MONTH;
    month_remainder_days = TSROUND(month_remainder_days);
    sec_remainder = (span->day / factor - result.day + month_remainder_days -
                     (int)month_remainder_days) *
                    SECS_PER_DAY;
    sec_remainder = TSROUND(sec_remainder);
    if (fabs(sec_remainder) >= SECS_PER_DAY) {
        result.day =
            wrap_add32(result.day, (int)(sec_remainder / SECS_PER_DAY));
        sec_remainder -= (int)(sec_remainder / SECS_PER_DAY) * SECS_PER_DAY;
    }
    result.day = wrap_add32(result.day, (int32)month_remainder_days);
    result_double = rint(span->time / factor + sec_remainder * USECS_PER_SEC);
    if (isnan(result_double) || !(result_double >= (double)INT64_MIN &&
                                  result_double < -((double)INT64_MIN)))
        tdb_dt_error_interval_range();
    result.time = (int64)result_double;
    return result;
}

static Datum
interval_div(PG_FUNCTION_ARGS)
{
    Interval span = ARG_IV(0);
    Interval r = interval_div_internal(&span, PG_GETARG_FLOAT8(1));

    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

/* ----------------------------------------------------------------------
 * justify_*, make_interval
 * ---------------------------------------------------------------------- */

static Datum
interval_justify_hours(PG_FUNCTION_ARGS)
{
    Interval r = ARG_IV(0);
    int64 wholeday = r.time / USECS_PER_DAY;

    r.time -= wholeday * USECS_PER_DAY;
    if (__builtin_add_overflow(r.day, (int32)wholeday, &r.day))
        tdb_dt_error_interval_range();
    if (r.day > 0 && r.time < 0) {
        r.time += USECS_PER_DAY;
        r.day--;
    } else if (r.day < 0 && r.time > 0) {
        r.time -= USECS_PER_DAY;
        r.day++;
    }
    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

static Datum
interval_justify_days(PG_FUNCTION_ARGS)
{
    Interval r = ARG_IV(0);
    int32 wholemonth = r.day / DAYS_PER_MONTH;

    r.day -= wholemonth * DAYS_PER_MONTH;
    if (__builtin_add_overflow(r.month, wholemonth, &r.month))
        tdb_dt_error_interval_range();
    if (r.month > 0 && r.day < 0) {
        r.day += DAYS_PER_MONTH;
        r.month--;
    } else if (r.month < 0 && r.day > 0) {
        r.day -= DAYS_PER_MONTH;
        r.month++;
    }
    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

static Datum
interval_justify_interval(PG_FUNCTION_ARGS)
{
    Interval r = ARG_IV(0);
    int32 wholemonth;
    int64 wholeday;

    /* justify days first when that avoids an overflow below */
    if ((r.day > 0 && r.time > 0) || (r.day < 0 && r.time < 0)) {
        wholemonth = r.day / DAYS_PER_MONTH;
        r.day -= wholemonth * DAYS_PER_MONTH;
        if (__builtin_add_overflow(r.month, wholemonth, &r.month))
            tdb_dt_error_interval_range();
    }
    wholeday = r.time / USECS_PER_DAY;
    r.time -= wholeday * USECS_PER_DAY;
    r.day += (int32)wholeday;

    wholemonth = r.day / DAYS_PER_MONTH;
    r.day -= wholemonth * DAYS_PER_MONTH;
    if (__builtin_add_overflow(r.month, wholemonth, &r.month))
        tdb_dt_error_interval_range();

    if (r.month > 0 && (r.day < 0 || (r.day == 0 && r.time < 0))) {
        r.day += DAYS_PER_MONTH;
        r.month--;
    } else if (r.month < 0 && (r.day > 0 || (r.day == 0 && r.time > 0))) {
        r.day -= DAYS_PER_MONTH;
        r.month++;
    }
    if (r.day > 0 && r.time < 0) {
        r.time += USECS_PER_DAY;
        r.day--;
    } else if (r.day < 0 && r.time > 0) {
        r.time -= USECS_PER_DAY;
        r.day++;
    }
    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

/* make_interval(years, months, weeks, days, hours, mins, secs). */
static Datum
make_interval(PG_FUNCTION_ARGS)
{
    int32 years = PG_GETARG_INT32(0);
    int32 months = PG_GETARG_INT32(1);
    int32 weeks = PG_GETARG_INT32(2);
    int32 days = PG_GETARG_INT32(3);
    int32 hours = PG_GETARG_INT32(4);
    int32 mins = PG_GETARG_INT32(5);
    double secs = PG_GETARG_FLOAT8(6);
    Interval r;

    if (isinf(secs) || isnan(secs))
        tdb_dt_error_interval_range();
    /* the integer parts wrap, unchecked, as in PostgreSQL */
    r.month = wrap_add32((int32)((uint32)years * MONTHS_PER_YEAR), months);
    r.day = wrap_add32((int32)((uint32)weeks * 7), days);
    secs = rint(secs * USECS_PER_SEC);
    r.time = wrap_add64(
        wrap_add64((int64)hours * ((int64)SECS_PER_HOUR * USECS_PER_SEC),
                   (int64)mins * ((int64)SECS_PER_MINUTE * USECS_PER_SEC)),
        x86_double_to_int64(secs));
    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

/* ----------------------------------------------------------------------
 * date_trunc, extract, date_part
 * ---------------------------------------------------------------------- */

static Datum
interval_trunc(PG_FUNCTION_ARGS)
{
    char *lowunits = tdb_dt_lower_units(PG_GETARG_VARLENA_P(0));
    Interval span = ARG_IV(1);
    IntervalFields tm;
    Interval result;
    int val;
    int type = tdb_dt_decode_units(lowunits, &val);

    if (type != DTF_UNITS)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("unit \"%s\" not recognized for type %s", lowunits,
                       "interval"));
    tdb_interval2itm(&span, &tm);
    switch (val) {
    case DTK_MILLENNIUM:
        tm.tm_year = (tm.tm_year / 1000) * 1000;
        TDB_FALLTHROUGH;
    case DTK_CENTURY:
        tm.tm_year = (tm.tm_year / 100) * 100;
        TDB_FALLTHROUGH;
    case DTK_DECADE:
        tm.tm_year = (tm.tm_year / 10) * 10;
        TDB_FALLTHROUGH;
    case DTK_YEAR:
        tm.tm_mon = 0;
        TDB_FALLTHROUGH;
    case DTK_QUARTER:
        tm.tm_mon = 3 * (tm.tm_mon / 3);
        TDB_FALLTHROUGH;
    case DTK_MONTH:
        tm.tm_mday = 0;
        TDB_FALLTHROUGH;
    case DTK_DAY:
        tm.tm_hour = 0;
        TDB_FALLTHROUGH;
    case DTK_HOUR:
        tm.tm_min = 0;
        TDB_FALLTHROUGH;
    case DTK_MINUTE:
        tm.tm_sec = 0;
        TDB_FALLTHROUGH;
    case DTK_SECOND:
        tm.tm_usec = 0;
        break;
    case DTK_MILLISEC:
        tm.tm_usec = (tm.tm_usec / 1000) * 1000;
        break;
    case DTK_MICROSEC:
        break;
    default:
        if (val == DTK_WEEK)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("unit \"%s\" not supported for type %s",
                           lowunits, "interval"),
                    errdetail("Months usually have fractional weeks."));
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("unit \"%s\" not supported for type %s", lowunits,
                       "interval"));
    }
    if (!tdb_itm2interval(&tm, &result))
        tdb_dt_error_interval_range();
    PG_RETURN_DATUM(tdb_interval_datum(&result));
}

static Datum
interval_part_common(FunctionCallInfo fcinfo, bool retnumeric)
{
    char *lowunits = tdb_dt_lower_units(PG_GETARG_VARLENA_P(0));
    Interval span = ARG_IV(1);
    int64 intresult;
    int type;
    int val;

    type = tdb_dt_decode_units(lowunits, &val);
    if (type == DTF_UNKNOWN)
        type = tdb_dt_decode_special(lowunits, &val);

    if (type == DTF_UNITS) {
        IntervalFields tm;

        tdb_interval2itm(&span, &tm);
        switch (val) {
        case DTK_MICROSEC:
            intresult = tm.tm_sec * INT64_C(1000000) + tm.tm_usec;
            break;
        case DTK_MILLISEC:
            if (retnumeric)
                PG_RETURN_DATUM(tdb_dt_numeric_scaled(
                    tm.tm_sec * INT64_C(1000000) + tm.tm_usec, 3));
            PG_RETURN_FLOAT8(tm.tm_sec * 1000.0 + tm.tm_usec / 1000.0);
        case DTK_SECOND:
            if (retnumeric)
                PG_RETURN_DATUM(tdb_dt_numeric_scaled(
                    tm.tm_sec * INT64_C(1000000) + tm.tm_usec, 6));
            PG_RETURN_FLOAT8(tm.tm_sec + tm.tm_usec / 1000000.0);
        case DTK_MINUTE:
            intresult = tm.tm_min;
            break;
        case DTK_HOUR:
            intresult = tm.tm_hour;
            break;
        case DTK_DAY:
            intresult = tm.tm_mday;
            break;
        case DTK_MONTH:
            intresult = tm.tm_mon;
            break;
        case DTK_QUARTER:
            intresult = (tm.tm_mon / 3) + 1;
            break;
        case DTK_YEAR:
            intresult = tm.tm_year;
            break;
        case DTK_DECADE:
            intresult = tm.tm_year / 10;
            break;
        case DTK_CENTURY:
            intresult = tm.tm_year / 100;
            break;
        case DTK_MILLENNIUM:
            intresult = tm.tm_year / 1000;
            break;
        default:
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("unit \"%s\" not supported for type %s", lowunits,
                           "interval"));
        }
    } else if (type == DTF_RESERV && val == DTK_EPOCH) {
        if (retnumeric) {
            /*
             * In integers, by working in quarter days: a year is 365.25
             * days.
             */
            int64 secs_from_day_month =
                ((int64)(4 * DAYS_PER_YEAR) * (span.month / MONTHS_PER_YEAR) +
                 (int64)(4 * DAYS_PER_MONTH) * (span.month % MONTHS_PER_YEAR) +
                 (int64)4 * span.day) *
                (SECS_PER_DAY / 4);
            int64 v;

            if (!__builtin_mul_overflow(secs_from_day_month, INT64_C(1000000),
                                        &v) &&
                !__builtin_add_overflow(v, span.time, &v))
                PG_RETURN_DATUM(tdb_dt_numeric_scaled(v, 6));
            PG_RETURN_DATUM(tdb_dt_numeric_binop(
                "+", tdb_dt_numeric_scaled(span.time, 6),
                tdb_dt_numeric_scaled(secs_from_day_month, 0)));
        } else {
            double result = span.time / 1000000.0;

            result += ((double)DAYS_PER_YEAR * SECS_PER_DAY) *
                      (span.month / MONTHS_PER_YEAR);
            result += ((double)DAYS_PER_MONTH * SECS_PER_DAY) *
                      (span.month % MONTHS_PER_YEAR);
            result += ((double)SECS_PER_DAY) * span.day;
            PG_RETURN_FLOAT8(result);
        }
    } else
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("unit \"%s\" not recognized for type %s", lowunits,
                       "interval"));
    if (retnumeric)
        PG_RETURN_DATUM(tdb_dt_numeric_scaled(intresult, 0));
    PG_RETURN_FLOAT8((double)intresult);
}

static Datum
extract_interval(PG_FUNCTION_ARGS)
{
    return interval_part_common(fcinfo, true);
}

static Datum
interval_part(PG_FUNCTION_ARGS)
{
    return interval_part_common(fcinfo, false);
}

/* ----------------------------------------------------------------------
 * avg(interval): a sum and a count in the group's memory
 * ---------------------------------------------------------------------- */

typedef struct IntervalAvgState {
    Interval sum;
    int64 count;
} IntervalAvgState;

static Datum
interval_avg_accum(PG_FUNCTION_ARGS)
{
    IntervalAvgState *state =
        PG_ARGISNULL(0) ? NULL : (IntervalAvgState *)PG_GETARG_POINTER(0);

    if (state == NULL) {
        state = tdb_mcxt_alloc(tdb_agg_group_mcxt(fcinfo), sizeof(*state));
        memset(state, 0, sizeof(*state));
    }
    if (!PG_ARGISNULL(1)) {
        Interval v = ARG_IV(1);
        Interval sum;

        tdb_interval_pl(&state->sum, &v, &sum);
        state->sum = sum;
        state->count++;
    }
    PG_RETURN_POINTER(state);
}

static Datum
interval_avg_final(PG_FUNCTION_ARGS)
{
    IntervalAvgState *state =
        PG_ARGISNULL(0) ? NULL : (IntervalAvgState *)PG_GETARG_POINTER(0);
    Interval r;

    /* no rows, or only NULLs: NULL */
    if (state == NULL || state->count == 0)
        PG_RETURN_NULL();
    r = interval_div_internal(&state->sum, (double)state->count);
    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

/* ----------------------------------------------------------------------
 * The tables
 * ---------------------------------------------------------------------- */

#define IV INTERVALOID
#define I4 INT4OID
#define F8 FLOAT8OID
#define TXT TEXTOID

/* make_interval(years => 0, months => 0, ..., secs => 0.0) */
static const char *const make_interval_argnames[] = {
    "years", "months", "weeks", "days", "hours", "mins", "secs"};
/* int4 0 and float8 0.0 are both the all-zero Datum */
static const Datum make_interval_defaults[] = {0, 0, 0, 0, 0, 0, 0};

static const FuncDesc interval_funcs[] = {
    FUNC(1315, "interval_cmp", interval_cmp, I4, 2, IV, IV),
    FUNC(1697, "interval_hash", interval_hash, I4, 1, IV),
    FUNC(1198, "interval_larger", interval_larger, IV, 2, IV, IV),
    FUNC(1197, "interval_smaller", interval_smaller, IV, 2, IV, IV),
    FUNC(1169, "interval_pl", interval_pl, IV, 2, IV, IV),
    FUNC(1170, "interval_mi", interval_mi, IV, 2, IV, IV),
    FUNC(1168, "interval_um", interval_um, IV, 1, IV),
    FUNC(1618, "interval_mul", interval_mul, IV, 2, IV, F8),
    FUNC(1624, "mul_d_interval", mul_d_interval, IV, 2, F8, IV),
    FUNC(1326, "interval_div", interval_div, IV, 2, IV, F8),
    FUNC(1200, "interval", interval_scale, IV, 2, IV, I4),
    FUNC(1390, "isfinite", interval_finite, BOOLOID, 1, IV),
    FUNC(1175, "justify_hours", interval_justify_hours, IV, 1, IV),
    FUNC(1295, "justify_days", interval_justify_days, IV, 1, IV),
    FUNC(2711, "justify_interval", interval_justify_interval, IV, 1, IV),
    {.oid = 3464, .name = "make_interval", .rettype = IV, .nargs = 7,
     .argtypes = {I4, I4, I4, I4, I4, I4, F8}, .strict = true,
     .volatility = PROVOLATILE_IMMUTABLE, .fn = make_interval,
     .argnames = make_interval_argnames, .nargdefaults = 7,
     .argdefaults = make_interval_defaults},
    FUNC(1218, "date_trunc", interval_trunc, IV, 2, TXT, IV),
    FUNC(6204, "extract", extract_interval, NUMERICOID, 2, TXT, IV),
    FUNC(1172, "date_part", interval_part, F8, 2, TXT, IV),
};

static const OperDesc interval_opers[] = {
    OPER_EQ(1330, IV, IV, interval_eq), OPER_NE(1331, IV, IV, interval_ne),
    OPER_LT(1332, IV, IV, interval_lt), OPER_LE(1333, IV, IV, interval_le),
    OPER_GT(1334, IV, IV, interval_gt), OPER_GE(1335, IV, IV, interval_ge),
    OPER(1336, "-", InvalidOid, IV, IV, interval_um, NULL, NULL),
    OPER(1337, "+", IV, IV, IV, interval_pl, "+", NULL),
    OPER(1338, "-", IV, IV, IV, interval_mi, NULL, NULL),
    OPER(1583, "*", IV, F8, IV, interval_mul, "*", NULL),
    OPER(1584, "*", F8, IV, IV, mul_d_interval, "*", NULL),
    OPER(1585, "/", IV, F8, IV, interval_div, NULL, NULL),
};

static const CastDesc interval_casts[] = {
    CASTS_INOUT_TO_STRINGS(IV),
    CASTS_INOUT_FROM_STRINGS(IV),
};

static const AggDesc interval_aggs[] = {
    AGG(2144, "min", 1, IV, InvalidOid, IV, IV, interval_smaller, true, NULL,
        NULL),
    AGG(2128, "max", 1, IV, InvalidOid, IV, IV, interval_larger, true, NULL,
        NULL),
    AGG(2113, "sum", 1, IV, InvalidOid, IV, IV, interval_pl, true, NULL,
        NULL),
    AGG(2106, "avg", 1, IV, InvalidOid, IV, INTERNALOID, interval_avg_accum,
        false, interval_avg_final, NULL),
};

static const TypeSupport interval_types[] = {
    {.typid = IV, .input = interval_input, .output = interval_output,
     .cmp = interval_cmp, .hash = interval_hash, .eq = interval_eq,
     .apply_typmod = interval_apply_typmod,
     .typmod_out = interval_typmod_out,
     .send = tdb_interval_send, .recv = tdb_interval_recv},
};

const BuiltinSet tdb_builtins_interval =
    BUILTIN_SET("interval", interval_funcs, interval_opers, interval_casts,
                interval_aggs, interval_types);
