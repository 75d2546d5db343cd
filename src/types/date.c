/*
 * date.c -- the types date and time (without time zone): input and
 * output, time(p) typmods, comparisons (date also against timestamp and
 * timestamptz), arithmetic (date +/- integer, date - date, date +/-
 * interval, date + time, time +/- interval, time - time), casts,
 * make_date, make_time, extract/date_part, isfinite, min/max, and the
 * family's BuiltinSet for them.
 *
 * A date is int4 days since 2000-01-01 with INT32_MIN/INT32_MAX for
 * -infinity/infinity; a time is int8 microseconds since midnight,
 * 24:00:00 included.  Cross-type comparisons promote the date to a
 * timestamp (midnight), or to a timestamptz (midnight in the session's
 * TimeZone); a date past the end of the timestamp range (the date range
 * reaches year 5874897, timestamps year 294276) still compares greater
 * than every finite timestamp and less than infinity, as in PostgreSQL.
 * Conversions from a timestamptz take its local date or time in the
 * session zone.
 *
 * Entry point: tdb_builtins_date (registry.c).
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

#define ARG_DATE(n) DatumGetInt32(PG_GETARG_DATUM(n))
#define ARG_TIME(n) DatumGetInt64(PG_GETARG_DATUM(n))
#define ARG_TS(n) DatumGetInt64(PG_GETARG_DATUM(n))

/* ----------------------------------------------------------------------
 * date: input and output
 * ---------------------------------------------------------------------- */

static Datum
date_input(const char *str, int32 typmod)
{
    DtTm tt;
    DtTm *tm = &tt;
    fsec_t fsec;
    int tzp;
    int dtype;
    int nf;
    int dterr;
    char *field[MAXDATEFIELDS];
    int ftype[MAXDATEFIELDS];
    char workbuf[MAXDATELEN + 1];
    DateADT date;

    (void)typmod;
    dterr = tdb_dt_parse_fields(str, workbuf, sizeof(workbuf), field, ftype,
                                MAXDATEFIELDS, &nf);
    if (dterr == 0)
        dterr = tdb_dt_decode_datetime(field, ftype, nf, &dtype, tm, &fsec,
                                       &tzp);
    if (dterr != 0)
        tdb_dt_parse_error(dterr, str, "date");

    switch (dtype) {
    case DTK_DATE:
        break;
    case DTK_EPOCH:
        tm->tm_year = 1970;
        tm->tm_mon = 1;
        tm->tm_mday = 1;
        break;
    case DTK_LATE:
        return Int32GetDatum(DATEVAL_NOEND);
    case DTK_EARLY:
        return Int32GetDatum(DATEVAL_NOBEGIN);
    default:
        tdb_dt_parse_error(DTERR_BAD_FORMAT, str, "date");
    }
    if (!IS_VALID_JULIAN(tm->tm_year, tm->tm_mon, tm->tm_mday))
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("date out of range: \"%s\"", str));
    date = tdb_date2j(tm->tm_year, tm->tm_mon, tm->tm_mday) -
           POSTGRES_EPOCH_JDATE;
    if (!IS_VALID_DATE(date))
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("date out of range: \"%s\"", str));
    return Int32GetDatum(date);
}

static char *
date_output(Datum value)
{
    DateADT date = DatumGetInt32(value);
    DtTm tm;
    char buf[MAXDATELEN + 1];

    if (DATE_NOT_FINITE(date))
        tdb_dt_encode_special_date(date, buf);
    else {
        tdb_j2date(date + POSTGRES_EPOCH_JDATE, &tm.tm_year, &tm.tm_mon,
                   &tm.tm_mday);
        tdb_dt_encode_date(&tm, tdb_typeio()->date_style,
                           tdb_typeio()->date_order, buf);
    }
    return tdb_pstrdup(buf);
}

/* ----------------------------------------------------------------------
 * date: conversions shared with timestamp.c
 * ---------------------------------------------------------------------- */

/*
 * date as a timestamp; *overflow (if not NULL) receives 1 instead of an
 * error when the date is past the timestamp range.  (Dates and
 * timestamps start on the same day, so only the upper end matters.)
 */
static Timestamp
date2timestamp_opt_overflow(DateADT date, int *overflow)
{
    if (overflow != NULL)
        *overflow = 0;
    if (date == DATEVAL_NOBEGIN)
        return DT_NOBEGIN;
    if (date == DATEVAL_NOEND)
        return DT_NOEND;
    if (date >= TIMESTAMP_END_JULIAN - POSTGRES_EPOCH_JDATE) {
        if (overflow != NULL) {
            *overflow = 1;
            return DT_NOEND;
        }
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("date out of range for timestamp"));
    }
    return (Timestamp)date * USECS_PER_DAY;
}

Timestamp
tdb_date2timestamp(DateADT date)
{
    return date2timestamp_opt_overflow(date, NULL);
}

/*
 * date as a timestamptz: midnight in the session zone (PostgreSQL's
 * date2timestamptz_opt_overflow).  *overflow (if not NULL) receives 1 or
 * -1 instead of an error when the result is past either end of the
 * range (the zone's offset can push midnight of the first or last day
 * out of it).
 */
static TimestampTz
date2timestamptz_opt_overflow(DateADT date, int *overflow)
{
    DtTm tm;
    int tz;
    TimestampTz result;

    if (overflow != NULL)
        *overflow = 0;
    if (date == DATEVAL_NOBEGIN)
        return DT_NOBEGIN;
    if (date == DATEVAL_NOEND)
        return DT_NOEND;
    if (date >= TIMESTAMP_END_JULIAN - POSTGRES_EPOCH_JDATE) {
        if (overflow != NULL) {
            *overflow = 1;
            return DT_NOEND;
        }
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("date out of range for timestamp"));
    }
    tdb_j2date(date + POSTGRES_EPOCH_JDATE, &tm.tm_year, &tm.tm_mon,
               &tm.tm_mday);
    tm.tm_hour = 0;
    tm.tm_min = 0;
    tm.tm_sec = 0;
    tz = tdb_dt_zone_offset(&tm, tdb_dt_session_zone());
    result = (TimestampTz)date * USECS_PER_DAY + (int64)tz * USECS_PER_SEC;
    if (!IS_VALID_TIMESTAMP(result)) {
        if (overflow != NULL) {
            *overflow = result < MIN_TIMESTAMP ? -1 : 1;
            return result;
        }
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("date out of range for timestamp"));
    }
    return result;
}

TimestampTz
tdb_date2timestamptz(DateADT date)
{
    return date2timestamptz_opt_overflow(date, NULL);
}

/* The local date of a timestamptz in the session zone. */
static DateADT
timestamptz2date(TimestampTz ts)
{
    DtTm tm;
    fsec_t fsec;
    int tz;

    if (TIMESTAMP_IS_NOBEGIN(ts))
        return DATEVAL_NOBEGIN;
    if (TIMESTAMP_IS_NOEND(ts))
        return DATEVAL_NOEND;
    if (!tdb_timestamp2tm(ts, &tz, &tm, &fsec))
        tdb_dt_error_timestamp_range();
    return tdb_date2j(tm.tm_year, tm.tm_mon, tm.tm_mday) -
           POSTGRES_EPOCH_JDATE;
}

DateADT
tdb_timestamp2date(Timestamp ts)
{
    DtTm tm;
    fsec_t fsec;

    if (TIMESTAMP_IS_NOBEGIN(ts))
        return DATEVAL_NOBEGIN;
    if (TIMESTAMP_IS_NOEND(ts))
        return DATEVAL_NOEND;
    if (!tdb_timestamp2tm(ts, NULL, &tm, &fsec))
        tdb_dt_error_timestamp_range();
    return tdb_date2j(tm.tm_year, tm.tm_mon, tm.tm_mday) -
           POSTGRES_EPOCH_JDATE;
}

/* date vs timestamptz: the date's midnight in the session zone. */
static int32
date_cmp_timestamptz(DateADT date, TimestampTz ts)
{
    int overflow;
    TimestampTz dt1 = date2timestamptz_opt_overflow(date, &overflow);

    if (overflow > 0)
        return TIMESTAMP_IS_NOEND(ts) ? -1 : 1;
    if (overflow < 0)
        return TIMESTAMP_IS_NOBEGIN(ts) ? 1 : -1;
    return dt1 < ts ? -1 : dt1 > ts ? 1 : 0;
}

int32
tdb_date_cmp_timestamp(DateADT date, Timestamp ts)
{
    int overflow;
    Timestamp dt1 = date2timestamp_opt_overflow(date, &overflow);

    /* past every finite timestamp, before infinity */
    if (overflow > 0)
        return TIMESTAMP_IS_NOEND(ts) ? -1 : 1;
    return dt1 < ts ? -1 : dt1 > ts ? 1 : 0;
}

/* ----------------------------------------------------------------------
 * date: operators and functions
 * ---------------------------------------------------------------------- */

static inline int32
cmp32(int32 a, int32 b)
{
    return a < b ? -1 : a > b ? 1 : 0;
}

static inline int32
cmp64(int64 a, int64 b)
{
    return a < b ? -1 : a > b ? 1 : 0;
}

/* The six comparisons prefix##eq .. ge from an int32 compare expression
 * over the two arguments. */
#define CMP_FUNCS(prefix, CMPEXPR)                                          \
    static Datum prefix##eq(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL((CMPEXPR) == 0);                                     \
    }                                                                       \
    static Datum prefix##ne(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL((CMPEXPR) != 0);                                     \
    }                                                                       \
    static Datum prefix##lt(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL((CMPEXPR) < 0);                                      \
    }                                                                       \
    static Datum prefix##gt(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL((CMPEXPR) > 0);                                      \
    }                                                                       \
    static Datum prefix##le(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL((CMPEXPR) <= 0);                                     \
    }                                                                       \
    static Datum prefix##ge(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL((CMPEXPR) >= 0);                                     \
    }                                                                       \
    static Datum prefix##cmp(PG_FUNCTION_ARGS)                              \
    {                                                                       \
        PG_RETURN_INT32(CMPEXPR);                                           \
    }

CMP_FUNCS(date_, cmp32(ARG_DATE(0), ARG_DATE(1)))
/* date vs timestamp, and vs timestamptz (in the session zone) */
CMP_FUNCS(date_ts_, tdb_date_cmp_timestamp(ARG_DATE(0), ARG_TS(1)))
CMP_FUNCS(ts_date_, -tdb_date_cmp_timestamp(ARG_DATE(1), ARG_TS(0)))
CMP_FUNCS(date_tz_, date_cmp_timestamptz(ARG_DATE(0), ARG_TS(1)))
CMP_FUNCS(tz_date_, -date_cmp_timestamptz(ARG_DATE(1), ARG_TS(0)))
CMP_FUNCS(time_, cmp64(ARG_TIME(0), ARG_TIME(1)))

static Datum
date_larger(PG_FUNCTION_ARGS)
{
    DateADT a = ARG_DATE(0), b = ARG_DATE(1);

    PG_RETURN_INT32(a > b ? a : b);
}

static Datum
date_smaller(PG_FUNCTION_ARGS)
{
    DateADT a = ARG_DATE(0), b = ARG_DATE(1);

    PG_RETURN_INT32(a < b ? a : b);
}

static Datum
date_hash(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)tdb_hash_uint32((uint32)ARG_DATE(0)));
}

static Datum
date_finite(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(!DATE_NOT_FINITE(ARG_DATE(0)));
}

/* date - date: days between. */
static Datum
date_mi(PG_FUNCTION_ARGS)
{
    DateADT a = ARG_DATE(0), b = ARG_DATE(1);

    if (DATE_NOT_FINITE(a) || DATE_NOT_FINITE(b))
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("cannot subtract infinite dates"));
    PG_RETURN_INT32((int32)(a - b));
}

/* date + days; infinities stay, a result out of range raises. */
static DateADT
date_add_days(DateADT date, int32 days)
{
    int32 result;

    if (DATE_NOT_FINITE(date))
        return date;
    if (__builtin_add_overflow(date, days, &result) || !IS_VALID_DATE(result))
        tdb_dt_error_date_range();
    return result;
}

static Datum
date_pli(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(date_add_days(ARG_DATE(0), PG_GETARG_INT32(1)));
}

static Datum
integer_pl_date(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(date_add_days(ARG_DATE(1), PG_GETARG_INT32(0)));
}

static Datum
date_mii(PG_FUNCTION_ARGS)
{
    DateADT date = ARG_DATE(0);
    int32 days = PG_GETARG_INT32(1);
    int32 result;

    if (DATE_NOT_FINITE(date))
        PG_RETURN_INT32(date);
    if (__builtin_sub_overflow(date, days, &result) || !IS_VALID_DATE(result))
        tdb_dt_error_date_range();
    PG_RETURN_INT32(result);
}

static Datum
date_pl_interval(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(1));

    PG_RETURN_INT64(
        tdb_timestamp_pl_interval(tdb_date2timestamp(ARG_DATE(0)), &span));
}

static Datum
interval_pl_date(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(0));

    PG_RETURN_INT64(
        tdb_timestamp_pl_interval(tdb_date2timestamp(ARG_DATE(1)), &span));
}

static Datum
date_mi_interval(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(1));

    PG_RETURN_INT64(
        tdb_timestamp_mi_interval(tdb_date2timestamp(ARG_DATE(0)), &span));
}

/* date + time -> timestamp */
static Timestamp
date_plus_time(DateADT date, TimeADT time)
{
    Timestamp result = tdb_date2timestamp(date);

    if (!TIMESTAMP_NOT_FINITE(result)) {
        result += time;
        if (!IS_VALID_TIMESTAMP(result))
            tdb_dt_error_timestamp_range();
    }
    return result;
}

static Datum
datetime_pl(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(date_plus_time(ARG_DATE(0), ARG_TIME(1)));
}

static Datum
timedate_pl(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(date_plus_time(ARG_DATE(1), ARG_TIME(0)));
}

/* Casts between date and the timestamps. */
static Datum
date_timestamp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(tdb_date2timestamp(ARG_DATE(0)));
}

static Datum
date_timestamptz(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(tdb_date2timestamptz(ARG_DATE(0)));
}

static Datum
timestamp_date(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(tdb_timestamp2date(ARG_TS(0)));
}

static Datum
timestamptz_date(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(timestamptz2date(ARG_TS(0)));
}

/* make_date(year, month, day); a negative year is BC. */
static Datum
make_date(PG_FUNCTION_ARGS)
{
    DtTm tm;
    bool bc = false;
    DateADT date;

    tm.tm_year = PG_GETARG_INT32(0);
    tm.tm_mon = PG_GETARG_INT32(1);
    tm.tm_mday = PG_GETARG_INT32(2);
    if (tm.tm_year < 0) {
        bc = true;
        tm.tm_year = -tm.tm_year;
    }
    if (tdb_dt_validate_date(DTK_DATE_M, false, false, bc, &tm) != 0)
        ereport(ERROR, errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
                errmsg("date field value out of range: %d-%02d-%02d",
                       tm.tm_year, tm.tm_mon, tm.tm_mday));
    if (!IS_VALID_JULIAN(tm.tm_year, tm.tm_mon, tm.tm_mday))
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("date out of range: %d-%02d-%02d", tm.tm_year,
                       tm.tm_mon, tm.tm_mday));
    date = tdb_date2j(tm.tm_year, tm.tm_mon, tm.tm_mday) -
           POSTGRES_EPOCH_JDATE;
    if (!IS_VALID_DATE(date))
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("date out of range: %d-%02d-%02d", tm.tm_year,
                       tm.tm_mon, tm.tm_mday));
    PG_RETURN_INT32(date);
}

static TDB_NORETURN void
unit_not_supported(const char *lowunits, const char *type)
{
    ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
            errmsg("unit \"%s\" not supported for type %s", lowunits, type));
    __builtin_unreachable();
}

static TDB_NORETURN void
unit_not_recognized(const char *lowunits, const char *type)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
            errmsg("unit \"%s\" not recognized for type %s", lowunits, type));
    __builtin_unreachable();
}

/* extract(field from date), numeric. */
static Datum
extract_date(PG_FUNCTION_ARGS)
{
    char *lowunits = tdb_dt_lower_units(PG_GETARG_VARLENA_P(0));
    DateADT date = ARG_DATE(1);
    int64 intresult;
    int type;
    int val;
    int year;
    int mon;
    int mday;

    type = tdb_dt_decode_units(lowunits, &val);
    if (type == DTF_UNKNOWN)
        type = tdb_dt_decode_special(lowunits, &val);

    if (DATE_NOT_FINITE(date) &&
        (type == DTF_UNITS || type == DTF_RESERV)) {
        switch (val) {
        /* units that cycle have no value at infinity */
        case DTK_DAY:
        case DTK_MONTH:
        case DTK_QUARTER:
        case DTK_WEEK:
        case DTK_DOW:
        case DTK_ISODOW:
        case DTK_DOY:
            PG_RETURN_NULL();
        /* units that only grow are infinite there */
        case DTK_YEAR:
        case DTK_DECADE:
        case DTK_CENTURY:
        case DTK_MILLENNIUM:
        case DTK_JULIAN:
        case DTK_ISOYEAR:
        case DTK_EPOCH:
            PG_RETURN_DATUM(tdb_type_input(
                NUMERICOID, date == DATEVAL_NOBEGIN ? "-Infinity" : "Infinity",
                -1));
        default:
            unit_not_supported(lowunits, "date");
        }
    }
    if (type == DTF_UNITS) {
        tdb_j2date(date + POSTGRES_EPOCH_JDATE, &year, &mon, &mday);
        switch (val) {
        case DTK_DAY:
            intresult = mday;
            break;
        case DTK_MONTH:
            intresult = mon;
            break;
        case DTK_QUARTER:
            intresult = (mon - 1) / 3 + 1;
            break;
        case DTK_WEEK:
            intresult = tdb_date2isoweek(year, mon, mday);
            break;
        case DTK_YEAR:
            /* no year 0: 1 BC follows 1 AD */
            intresult = year > 0 ? year : year - 1;
            break;
        case DTK_DECADE:
            intresult = year >= 0 ? year / 10 : -((8 - (year - 1)) / 10);
            break;
        case DTK_CENTURY:
            intresult = year > 0 ? (year + 99) / 100
                                 : -((99 - (year - 1)) / 100);
            break;
        case DTK_MILLENNIUM:
            intresult = year > 0 ? (year + 999) / 1000
                                 : -((999 - (year - 1)) / 1000);
            break;
        case DTK_JULIAN:
            intresult = (int64)date + POSTGRES_EPOCH_JDATE;
            break;
        case DTK_ISOYEAR:
            intresult = tdb_date2isoyear(year, mon, mday);
            if (intresult <= 0)
                intresult -= 1;
            break;
        case DTK_DOW:
        case DTK_ISODOW:
            intresult = tdb_j2day(date + POSTGRES_EPOCH_JDATE);
            if (val == DTK_ISODOW && intresult == 0)
                intresult = 7;
            break;
        case DTK_DOY:
            intresult = tdb_date2j(year, mon, mday) -
                        tdb_date2j(year, 1, 1) + 1;
            break;
        default:
            unit_not_supported(lowunits, "date");
        }
    } else if (type == DTF_RESERV) {
        if (val != DTK_EPOCH)
            unit_not_supported(lowunits, "date");
        intresult = ((int64)date + POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) *
                    SECS_PER_DAY;
    } else
        unit_not_recognized(lowunits, "date");
    PG_RETURN_DATUM(tdb_dt_numeric_scaled(intresult, 0));
}

/* ----------------------------------------------------------------------
 * time
 * ---------------------------------------------------------------------- */

static const int64 time_scales[MAX_TIME_PRECISION + 1] = {
    INT64_C(1000000), INT64_C(100000), INT64_C(10000), INT64_C(1000),
    INT64_C(100),     INT64_C(10),     INT64_C(1)};
static const int64 time_offsets[MAX_TIME_PRECISION + 1] = {
    INT64_C(500000), INT64_C(50000), INT64_C(5000), INT64_C(500),
    INT64_C(50),     INT64_C(5),     INT64_C(0)};

/* Round a time to typmod fractional digits (half away from zero). */
static TimeADT
adjust_time_for_typmod(TimeADT time, int32 typmod)
{
    if (typmod >= 0 && typmod <= MAX_TIME_PRECISION) {
        if (time >= 0)
            time = ((time + time_offsets[typmod]) / time_scales[typmod]) *
                   time_scales[typmod];
        else
            time = -((((-time) + time_offsets[typmod]) /
                      time_scales[typmod]) *
                     time_scales[typmod]);
    }
    return time;
}

static Datum
time_input(const char *str, int32 typmod)
{
    DtTm tt;
    fsec_t fsec;
    int tz;
    int nf;
    int dterr;
    int dtype;
    char *field[MAXDATEFIELDS];
    int ftype[MAXDATEFIELDS];
    char workbuf[MAXDATELEN + 1];

    dterr = tdb_dt_parse_fields(str, workbuf, sizeof(workbuf), field, ftype,
                                MAXDATEFIELDS, &nf);
    if (dterr == 0)
        dterr = tdb_dt_decode_timeonly(field, ftype, nf, &dtype, &tt, &fsec,
                                       &tz);
    if (dterr != 0)
        tdb_dt_parse_error(dterr, str, "time");
    return Int64GetDatum(adjust_time_for_typmod(tdb_tm2time(&tt, fsec),
                                                typmod));
}

static void
time2tm(TimeADT time, DtTm *tm, fsec_t *fsec)
{
    tm->tm_hour = (int)(time / USECS_PER_HOUR);
    time -= tm->tm_hour * USECS_PER_HOUR;
    tm->tm_min = (int)(time / USECS_PER_MINUTE);
    time -= tm->tm_min * USECS_PER_MINUTE;
    tm->tm_sec = (int)(time / USECS_PER_SEC);
    time -= tm->tm_sec * USECS_PER_SEC;
    *fsec = (fsec_t)time;
}

static char *
time_output(Datum value)
{
    DtTm tm;
    fsec_t fsec;
    char buf[MAXDATELEN + 1];

    time2tm(DatumGetInt64(value), &tm, &fsec);
    tdb_dt_encode_time(&tm, fsec, buf);
    return tdb_pstrdup(buf);
}

static Datum
time_apply_typmod(Datum value, int32 typmod, bool is_explicit)
{
    (void)is_explicit;
    return Int64GetDatum(adjust_time_for_typmod(DatumGetInt64(value), typmod));
}

/* "(p)": the time types print their typmod as the precision. */
static char *
precision_typmod_out(int32 typmod)
{
    char *buf = tdb_palloc(16);

    snprintf(buf, 16, "(%d)", (int)typmod);
    return buf;
}

static Datum
time_scale(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(adjust_time_for_typmod(ARG_TIME(0), PG_GETARG_INT32(1)));
}

static Datum
time_larger(PG_FUNCTION_ARGS)
{
    TimeADT a = ARG_TIME(0), b = ARG_TIME(1);

    PG_RETURN_INT64(a > b ? a : b);
}

static Datum
time_smaller(PG_FUNCTION_ARGS)
{
    TimeADT a = ARG_TIME(0), b = ARG_TIME(1);

    PG_RETURN_INT64(a < b ? a : b);
}

static Datum
time_hash(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)tdb_hash_int64(ARG_TIME(0)));
}

static Datum
time_mi_time(PG_FUNCTION_ARGS)
{
    Interval r = {ARG_TIME(0) - ARG_TIME(1), 0, 0};

    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

/* time + span's time part, wrapped into one day (the sum itself wraps
 * unchecked, as PostgreSQL computes it) */
static TimeADT
time_add_usecs(TimeADT time, int64 usecs)
{
    TimeADT result = (TimeADT)((uint64)time + (uint64)usecs);

    result -= result / USECS_PER_DAY * USECS_PER_DAY;
    if (result < 0)
        result += USECS_PER_DAY;
    return result;
}

static Datum
time_pl_interval(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(1));

    PG_RETURN_INT64(time_add_usecs(ARG_TIME(0), span.time));
}

static Datum
interval_pl_time(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(0));

    PG_RETURN_INT64(time_add_usecs(ARG_TIME(1), span.time));
}

static Datum
time_mi_interval(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(1));

    PG_RETURN_INT64(
        time_add_usecs(ARG_TIME(0), (int64)(0 - (uint64)span.time)));
}

static Datum
time_interval(PG_FUNCTION_ARGS)
{
    Interval r = {ARG_TIME(0), 0, 0};

    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

static Datum
interval_time(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(0));
    TimeADT result = span.time % USECS_PER_DAY;

    if (result < 0)
        result += USECS_PER_DAY;
    PG_RETURN_INT64(result);
}

/* timestamp -> time; NULL at infinity */
static Datum
timestamp_time(PG_FUNCTION_ARGS)
{
    Timestamp ts = ARG_TS(0);
    DtTm tm;
    fsec_t fsec;

    if (TIMESTAMP_NOT_FINITE(ts))
        PG_RETURN_NULL();
    if (!tdb_timestamp2tm(ts, NULL, &tm, &fsec))
        tdb_dt_error_timestamp_range();
    PG_RETURN_INT64(tdb_tm2time(&tm, fsec));
}

/* timestamptz -> time: the local time of day in the session zone */
static Datum
timestamptz_time(PG_FUNCTION_ARGS)
{
    TimestampTz ts = ARG_TS(0);
    DtTm tm;
    fsec_t fsec;
    int tz;

    if (TIMESTAMP_NOT_FINITE(ts))
        PG_RETURN_NULL();
    if (!tdb_timestamp2tm(ts, &tz, &tm, &fsec))
        tdb_dt_error_timestamp_range();
    PG_RETURN_INT64(tdb_tm2time(&tm, fsec));
}

static Datum
make_time(PG_FUNCTION_ARGS)
{
    int hour = PG_GETARG_INT32(0);
    int min = PG_GETARG_INT32(1);
    double sec = PG_GETARG_FLOAT8(2);

    if (tdb_float_time_overflows(hour, min, sec))
        ereport(ERROR, errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
                errmsg("time field value out of range: %d:%02d:%s", hour,
                       min, tdb_dt_format_g(sec, true)));
    PG_RETURN_INT64(
        (((int64)hour * MINS_PER_HOUR + min) * SECS_PER_MINUTE) *
            USECS_PER_SEC +
        (int64)rint(sec * USECS_PER_SEC));
}

/* extract (numeric) and date_part (float8) of a time. */
static Datum
time_part_common(FunctionCallInfo fcinfo, bool retnumeric)
{
    char *lowunits = tdb_dt_lower_units(PG_GETARG_VARLENA_P(0));
    TimeADT time = ARG_TIME(1);
    int64 intresult;
    int type;
    int val;

    type = tdb_dt_decode_units(lowunits, &val);
    if (type == DTF_UNKNOWN)
        type = tdb_dt_decode_special(lowunits, &val);
    if (type == DTF_UNITS) {
        DtTm tm;
        fsec_t fsec;

        time2tm(time, &tm, &fsec);
        switch (val) {
        case DTK_MICROSEC:
            intresult = tm.tm_sec * INT64_C(1000000) + fsec;
            break;
        case DTK_MILLISEC:
            if (retnumeric)
                PG_RETURN_DATUM(tdb_dt_numeric_scaled(
                    tm.tm_sec * INT64_C(1000000) + fsec, 3));
            PG_RETURN_FLOAT8(tm.tm_sec * 1000.0 + fsec / 1000.0);
        case DTK_SECOND:
            if (retnumeric)
                PG_RETURN_DATUM(tdb_dt_numeric_scaled(
                    tm.tm_sec * INT64_C(1000000) + fsec, 6));
            PG_RETURN_FLOAT8(tm.tm_sec + fsec / 1000000.0);
        case DTK_MINUTE:
            intresult = tm.tm_min;
            break;
        case DTK_HOUR:
            intresult = tm.tm_hour;
            break;
        default:
            unit_not_supported(lowunits, "time without time zone");
        }
    } else if (type == DTF_RESERV && val == DTK_EPOCH) {
        if (retnumeric)
            PG_RETURN_DATUM(tdb_dt_numeric_scaled(time, 6));
        PG_RETURN_FLOAT8(time / 1000000.0);
    } else
        unit_not_recognized(lowunits, "time without time zone");
    if (retnumeric)
        PG_RETURN_DATUM(tdb_dt_numeric_scaled(intresult, 0));
    PG_RETURN_FLOAT8((double)intresult);
}

static Datum
extract_time(PG_FUNCTION_ARGS)
{
    return time_part_common(fcinfo, true);
}

static Datum
time_part(PG_FUNCTION_ARGS)
{
    return time_part_common(fcinfo, false);
}

/* ----------------------------------------------------------------------
 * The tables
 * ---------------------------------------------------------------------- */

#define D DATEOID
#define T TIMEOID
#define TS TIMESTAMPOID
#define TZ TIMESTAMPTZOID
#define IV INTERVALOID
#define I4 INT4OID
#define S PROVOLATILE_STABLE

static const FuncDesc date_funcs[] = {
    FUNC(1092, "date_cmp", date_cmp, I4, 2, D, D),
    FUNC(1138, "date_larger", date_larger, D, 2, D, D),
    FUNC(1139, "date_smaller", date_smaller, D, 2, D, D),
    FUNC(1140, "date_mi", date_mi, I4, 2, D, D),
    FUNC(1141, "date_pli", date_pli, D, 2, D, I4),
    FUNC(1142, "date_mii", date_mii, D, 2, D, I4),
    FUNC(2550, "integer_pl_date", integer_pl_date, D, 2, I4, D),
    FUNC(2071, "date_pl_interval", date_pl_interval, TS, 2, D, IV),
    FUNC(2072, "date_mi_interval", date_mi_interval, TS, 2, D, IV),
    FUNC(2546, "interval_pl_date", interval_pl_date, TS, 2, IV, D),
    FUNC(1272, "datetime_pl", datetime_pl, TS, 2, D, T),
    FUNC(1296, "timedate_pl", timedate_pl, TS, 2, T, D),
    FUNC(2025, "timestamp", datetime_pl, TS, 2, D, T),
    FUNC(2024, "timestamp", date_timestamp, TS, 1, D),
    FUNC_V(1174, "timestamptz", date_timestamptz, S, TZ, 1, D),
    FUNC(2029, "date", timestamp_date, D, 1, TS),
    FUNC_V(1178, "date", timestamptz_date, S, D, 1, TZ),
    FUNC(1373, "isfinite", date_finite, BOOLOID, 1, D),
    FUNC(3846, "make_date", make_date, D, 3, I4, I4, I4),
    FUNC(6199, "extract", extract_date, NUMERICOID, 2, TEXTOID, D),
    FUNC(2344, "date_cmp_timestamp", date_ts_cmp, I4, 2, D, TS),
    FUNC_V(2357, "date_cmp_timestamptz", date_tz_cmp, S, I4, 2, D, TZ),
    FUNC(2370, "timestamp_cmp_date", ts_date_cmp, I4, 2, TS, D),
    FUNC_V(2383, "timestamptz_cmp_date", tz_date_cmp, S, I4, 2, TZ, D),
    FUNC(1688, "time_hash", time_hash, I4, 1, T),
    FUNC(1107, "time_cmp", time_cmp, I4, 2, T, T),
    FUNC(1377, "time_larger", time_larger, T, 2, T, T),
    FUNC(1378, "time_smaller", time_smaller, T, 2, T, T),
    FUNC(1690, "time_mi_time", time_mi_time, IV, 2, T, T),
    FUNC(1747, "time_pl_interval", time_pl_interval, T, 2, T, IV),
    FUNC(1748, "time_mi_interval", time_mi_interval, T, 2, T, IV),
    FUNC(1848, "interval_pl_time", interval_pl_time, T, 2, IV, T),
    FUNC(1968, "time", time_scale, T, 2, T, I4),
    FUNC(1316, "time", timestamp_time, T, 1, TS),
    FUNC_V(2019, "time", timestamptz_time, S, T, 1, TZ),
    FUNC(1419, "time", interval_time, T, 1, IV),
    FUNC(1370, "interval", time_interval, IV, 1, T),
    FUNC(3847, "make_time", make_time, T, 3, I4, I4, FLOAT8OID),
    FUNC(6200, "extract", extract_time, NUMERICOID, 2, TEXTOID, T),
    FUNC(1385, "date_part", time_part, FLOAT8OID, 2, TEXTOID, T),
};

/* Cross-type "=" may not hash: equal values of different types need not
 * hash alike. */
#define OPER_EQ_NOHASH(oid_, l_, r_, fn_)                                   \
    OPER_ROW(oid_, "=", l_, r_, BOOLOID, fn_, "=", "<>", false)

static const OperDesc date_opers[] = {
    OPER_EQ(1093, D, D, date_eq), OPER_NE(1094, D, D, date_ne),
    OPER_LT(1095, D, D, date_lt), OPER_LE(1096, D, D, date_le),
    OPER_GT(1097, D, D, date_gt), OPER_GE(1098, D, D, date_ge),
    OPER(1099, "-", D, D, I4, date_mi, NULL, NULL),
    OPER(1100, "+", D, I4, D, date_pli, "+", NULL),
    OPER(1101, "-", D, I4, D, date_mii, NULL, NULL),
    OPER(2555, "+", I4, D, D, integer_pl_date, "+", NULL),
    OPER(1076, "+", D, IV, TS, date_pl_interval, "+", NULL),
    OPER(1077, "-", D, IV, TS, date_mi_interval, NULL, NULL),
    OPER(2551, "+", IV, D, TS, interval_pl_date, "+", NULL),
    OPER(1360, "+", D, T, TS, datetime_pl, "+", NULL),
    OPER(1363, "+", T, D, TS, timedate_pl, "+", NULL),
    /* date vs timestamp */
    OPER_LT(2345, D, TS, date_ts_lt), OPER_LE(2346, D, TS, date_ts_le),
    OPER_EQ_NOHASH(2347, D, TS, date_ts_eq), OPER_GE(2348, D, TS, date_ts_ge),
    OPER_GT(2349, D, TS, date_ts_gt), OPER_NE(2350, D, TS, date_ts_ne),
    OPER_LT_S(2358, D, TZ, date_tz_lt), OPER_LE_S(2359, D, TZ, date_tz_le),
    OPER_EQ_S(2360, D, TZ, date_tz_eq), OPER_GE_S(2361, D, TZ, date_tz_ge),
    OPER_GT_S(2362, D, TZ, date_tz_gt), OPER_NE_S(2363, D, TZ, date_tz_ne),
    OPER_LT(2371, TS, D, ts_date_lt), OPER_LE(2372, TS, D, ts_date_le),
    OPER_EQ_NOHASH(2373, TS, D, ts_date_eq), OPER_GE(2374, TS, D, ts_date_ge),
    OPER_GT(2375, TS, D, ts_date_gt), OPER_NE(2376, TS, D, ts_date_ne),
    OPER_LT_S(2384, TZ, D, tz_date_lt), OPER_LE_S(2385, TZ, D, tz_date_le),
    OPER_EQ_S(2386, TZ, D, tz_date_eq), OPER_GE_S(2387, TZ, D, tz_date_ge),
    OPER_GT_S(2388, TZ, D, tz_date_gt), OPER_NE_S(2389, TZ, D, tz_date_ne),
    /* time */
    OPER_EQ(1108, T, T, time_eq), OPER_NE(1109, T, T, time_ne),
    OPER_LT(1110, T, T, time_lt), OPER_LE(1111, T, T, time_le),
    OPER_GT(1112, T, T, time_gt), OPER_GE(1113, T, T, time_ge),
    OPER(1399, "-", T, T, IV, time_mi_time, NULL, NULL),
    OPER(1800, "+", T, IV, T, time_pl_interval, "+", NULL),
    OPER(1801, "-", T, IV, T, time_mi_interval, NULL, NULL),
    OPER(1849, "+", IV, T, T, interval_pl_time, "+", NULL),
};

static const CastDesc date_casts[] = {
    CAST(D, TS, CAST_IMPLICIT, date_timestamp),
    CAST_S(D, TZ, CAST_IMPLICIT, date_timestamptz),
    CAST(TS, D, CAST_ASSIGNMENT, timestamp_date),
    CAST_S(TZ, D, CAST_ASSIGNMENT, timestamptz_date),
    CAST(T, IV, CAST_IMPLICIT, time_interval),
    CAST(IV, T, CAST_ASSIGNMENT, interval_time),
    CAST(TS, T, CAST_ASSIGNMENT, timestamp_time),
    CAST_S(TZ, T, CAST_ASSIGNMENT, timestamptz_time),
    CASTS_INOUT_TO_STRINGS(D),
    CASTS_INOUT_TO_STRINGS(T),
    CASTS_INOUT_FROM_STRINGS(D),
    CASTS_INOUT_FROM_STRINGS(T),
};

static const AggDesc date_aggs[] = {
    AGG(2138, "min", 1, D, InvalidOid, D, D, date_smaller, true, NULL, NULL),
    AGG(2122, "max", 1, D, InvalidOid, D, D, date_larger, true, NULL, NULL),
    AGG(2139, "min", 1, T, InvalidOid, T, T, time_smaller, true, NULL, NULL),
    AGG(2123, "max", 1, T, InvalidOid, T, T, time_larger, true, NULL, NULL),
};

static const TypeSupport date_types[] = {
    {.typid = D, .input = date_input, .output = date_output,
     .cmp = date_cmp, .hash = date_hash, .eq = date_eq,
     .send = tdb_date_send, .recv = tdb_date_recv},
    {.typid = T, .input = time_input, .output = time_output,
     .cmp = time_cmp, .hash = time_hash, .eq = time_eq,
     .apply_typmod = time_apply_typmod, .typmod_out = precision_typmod_out,
     .send = tdb_time_send, .recv = tdb_time_recv},
};

const BuiltinSet tdb_builtins_date =
    BUILTIN_SET("date", date_funcs, date_opers, date_casts, date_aggs,
                date_types);
