/*
 * timestamp.c -- the types timestamp and timestamptz: input and output,
 * timestamp(p) typmods, comparisons (also between the two), arithmetic
 * with intervals (month arithmetic clamps to the end of the month, as
 * PostgreSQL's does), timestamp - timestamp, age, date_trunc,
 * extract/date_part, make_timestamp(tz), to_timestamp(float8), now()
 * and its relatives, casts, min/max, and the family's BuiltinSet for
 * them.
 *
 * Both are int8 microseconds since 2000-01-01 00:00:00 (timestamptz in
 * UTC), INT64_MIN/INT64_MAX being -infinity/infinity.  A timestamptz is
 * an instant: input without a zone, output, casts to and from the
 * zone-less types, comparisons with them, month/day arithmetic, age,
 * date_trunc and extract all work on its local time in the session's
 * TimeZone (types/typeio.h), with that zone's daylight-saving rules, as
 * PostgreSQL's do -- which is why those functions and operators are
 * marked stable rather than immutable (clauses.c folds only immutable
 * ones).
 *
 * Where PostgreSQL 15 relies on wrapping integer arithmetic (it is built
 * with -fwrapv) and range-checks afterwards, this file wraps the same
 * way on purpose, so that even absurd inputs give PostgreSQL's answer.
 *
 * now() and transaction_timestamp() return the transaction's start,
 * statement_timestamp() the arrival of the current command string (both
 * recorded by the session), clock_timestamp() the real-time clock.
 *
 * Entry point: tdb_builtins_timestamp (registry.c).
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

#define ARG_TS(n) DatumGetInt64(PG_GETARG_DATUM(n))

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

static inline int32
wrap_neg32(int32 a)
{
    return (int32)(0 - (uint32)a);
}

static inline int64
wrap_neg64(int64 a)
{
    return (int64)(0 - (uint64)a);
}

/* ----------------------------------------------------------------------
 * Input, output, typmods
 * ---------------------------------------------------------------------- */

static const int64 timestamp_scales[MAX_TIMESTAMP_PRECISION + 1] = {
    INT64_C(1000000), INT64_C(100000), INT64_C(10000), INT64_C(1000),
    INT64_C(100),     INT64_C(10),     INT64_C(1)};
static const int64 timestamp_offsets[MAX_TIMESTAMP_PRECISION + 1] = {
    INT64_C(500000), INT64_C(50000), INT64_C(5000), INT64_C(500),
    INT64_C(50),     INT64_C(5),     INT64_C(0)};

void
tdb_adjust_timestamp_for_typmod(Timestamp *time, int32 typmod)
{
    if (TIMESTAMP_NOT_FINITE(*time) || typmod == -1 ||
        typmod == MAX_TIMESTAMP_PRECISION)
        return;
    if (typmod < 0 || typmod > MAX_TIMESTAMP_PRECISION)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("timestamp(%d) precision must be between %d and %d",
                       typmod, 0, MAX_TIMESTAMP_PRECISION));
    /* round half away from zero */
    if (*time >= 0)
        *time = (wrap_add64(*time, timestamp_offsets[typmod]) /
                 timestamp_scales[typmod]) *
                timestamp_scales[typmod];
    else
        *time = wrap_neg64((wrap_add64(wrap_neg64(*time),
                                       timestamp_offsets[typmod]) /
                            timestamp_scales[typmod]) *
                           timestamp_scales[typmod]);
}

/* timestamp and timestamptz input; with_tz says which. */
static Timestamp
timestamp_input_common(const char *str, int32 typmod, bool with_tz)
{
    const char *typname = with_tz ? "timestamp with time zone" : "timestamp";
    DtTm tt;
    fsec_t fsec;
    int tz;
    int dtype;
    int nf;
    int dterr;
    char *field[MAXDATEFIELDS];
    int ftype[MAXDATEFIELDS];
    char workbuf[MAXDATELEN + MAXDATEFIELDS];
    Timestamp result;

    dterr = tdb_dt_parse_fields(str, workbuf, sizeof(workbuf), field, ftype,
                                MAXDATEFIELDS, &nf);
    if (dterr == 0)
        dterr = tdb_dt_decode_datetime(field, ftype, nf, &dtype, &tt, &fsec,
                                       &tz);
    if (dterr != 0)
        tdb_dt_parse_error(dterr, str, typname);

    switch (dtype) {
    case DTK_DATE:
        /* a timestamp without time zone ignores a zone in its input */
        if (!tdb_tm2timestamp(&tt, fsec, with_tz ? &tz : NULL, &result))
            ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                    errmsg("timestamp out of range: \"%s\"", str));
        break;
    case DTK_EPOCH:
        result = EPOCH_TIMESTAMP;
        break;
    case DTK_LATE:
        result = DT_NOEND;
        break;
    case DTK_EARLY:
        result = DT_NOBEGIN;
        break;
    default:
        elog(ERROR, "unexpected dtype %d while parsing %s \"%s\"", dtype,
             with_tz ? "timestamptz" : "timestamp", str);
    }
    tdb_adjust_timestamp_for_typmod(&result, typmod);
    return result;
}

static Datum
timestamp_input(const char *str, int32 typmod)
{
    return Int64GetDatum(timestamp_input_common(str, typmod, false));
}

static Datum
timestamptz_input(const char *str, int32 typmod)
{
    return Int64GetDatum(timestamp_input_common(str, typmod, true));
}

static char *
timestamp_output_common(Timestamp ts, bool with_tz)
{
    const TypeIOSettings *io = tdb_typeio();
    DtTm tm;
    fsec_t fsec;
    int tz = 0;
    char buf[MAXDATELEN + 1];

    if (TIMESTAMP_NOT_FINITE(ts))
        tdb_dt_encode_special_timestamp(ts, buf);
    else if (tdb_timestamp2tm(ts, with_tz ? &tz : NULL, &tm, &fsec))
        tdb_dt_encode_datetime(&tm, fsec, with_tz, tz, tm.tm_zone,
                               io->date_style, io->date_order, buf);
    else
        tdb_dt_error_timestamp_range();
    return tdb_pstrdup(buf);
}

static char *
timestamp_output(Datum value)
{
    return timestamp_output_common(DatumGetInt64(value), false);
}

static char *
timestamptz_output(Datum value)
{
    return timestamp_output_common(DatumGetInt64(value), true);
}

static Datum
timestamp_apply_typmod(Datum value, int32 typmod, bool is_explicit)
{
    Timestamp ts = DatumGetInt64(value);

    (void)is_explicit;
    tdb_adjust_timestamp_for_typmod(&ts, typmod);
    return Int64GetDatum(ts);
}

static char *
timestamp_typmod_out(int32 typmod)
{
    char *buf = tdb_palloc(16);

    snprintf(buf, 16, "(%d)", (int)typmod);
    return buf;
}

/* timestamp(ts, p), timestamptz(ts, p): the typmod as a function. */
static Datum
timestamp_scale(PG_FUNCTION_ARGS)
{
    Timestamp ts = ARG_TS(0);

    tdb_adjust_timestamp_for_typmod(&ts, PG_GETARG_INT32(1));
    PG_RETURN_INT64(ts);
}

/* ----------------------------------------------------------------------
 * Comparisons
 * ---------------------------------------------------------------------- */

static inline int32
ts_cmp(Timestamp a, Timestamp b)
{
    return a < b ? -1 : a > b ? 1 : 0;
}

/*
 * The six comparisons and the btree comparison, for timestamp and for
 * timestamptz (each against its own type).
 */
static Datum
timestamp_eq(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(ARG_TS(0) == ARG_TS(1));
}

static Datum
timestamp_ne(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(ARG_TS(0) != ARG_TS(1));
}

static Datum
timestamp_lt(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(ARG_TS(0) < ARG_TS(1));
}

static Datum
timestamp_gt(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(ARG_TS(0) > ARG_TS(1));
}

static Datum
timestamp_le(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(ARG_TS(0) <= ARG_TS(1));
}

static Datum
timestamp_ge(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(ARG_TS(0) >= ARG_TS(1));
}

static Datum
timestamp_cmp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(ts_cmp(ARG_TS(0), ARG_TS(1)));
}

static Datum
timestamp_hash(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)tdb_hash_int64(ARG_TS(0)));
}

static Datum
timestamp_larger(PG_FUNCTION_ARGS)
{
    Timestamp a = ARG_TS(0), b = ARG_TS(1);

    PG_RETURN_INT64(a > b ? a : b);
}

static Datum
timestamp_smaller(PG_FUNCTION_ARGS)
{
    Timestamp a = ARG_TS(0), b = ARG_TS(1);

    PG_RETURN_INT64(a < b ? a : b);
}

static Datum
timestamp_finite(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(!TIMESTAMP_NOT_FINITE(ARG_TS(0)));
}

/* timestamp -> timestamptz: the local time in the session zone. */
TimestampTz
tdb_timestamp2timestamptz(Timestamp ts)
{
    return tdb_dt_local_to_tz(ts);
}

static Datum
timestamp_timestamptz(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(tdb_dt_local_to_tz(ARG_TS(0)));
}

static Datum
timestamptz_timestamp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(tdb_dt_tz_to_local(ARG_TS(0)));
}

/*
 * timestamp vs timestamptz: the timestamp read in the session zone.  A
 * timestamp whose instant falls outside the timestamptz range (a zone
 * away from its ends) still compares: past every finite value, before
 * the infinity of its side (PostgreSQL's
 * timestamp_cmp_timestamptz_internal).
 */
static int32
ts_cmp_tz(Timestamp ts, TimestampTz tz)
{
    DtTm tm;
    fsec_t fsec;
    int offset;
    TimestampTz t1;

    if (TIMESTAMP_NOT_FINITE(ts))
        return ts_cmp(ts, tz);
    if (!tdb_timestamp2tm(ts, NULL, &tm, &fsec))
        tdb_dt_error_timestamp_range();
    offset = tdb_dt_zone_offset(&tm, tdb_dt_session_zone());
    t1 = ts + (int64)offset * USECS_PER_SEC;
    if (t1 < MIN_TIMESTAMP)
        return TIMESTAMP_IS_NOBEGIN(tz) ? 1 : -1;
    if (t1 >= END_TIMESTAMP)
        return TIMESTAMP_IS_NOEND(tz) ? -1 : 1;
    return ts_cmp(t1, tz);
}

#define TS_TZ_CMP(prefix, EXPR)                                             \
    static Datum prefix##eq(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL((EXPR) == 0);                                        \
    }                                                                       \
    static Datum prefix##ne(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL((EXPR) != 0);                                        \
    }                                                                       \
    static Datum prefix##lt(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL((EXPR) < 0);                                         \
    }                                                                       \
    static Datum prefix##gt(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL((EXPR) > 0);                                         \
    }                                                                       \
    static Datum prefix##le(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL((EXPR) <= 0);                                        \
    }                                                                       \
    static Datum prefix##ge(PG_FUNCTION_ARGS)                               \
    {                                                                       \
        PG_RETURN_BOOL((EXPR) >= 0);                                        \
    }                                                                       \
    static Datum prefix##cmp(PG_FUNCTION_ARGS)                              \
    {                                                                       \
        PG_RETURN_INT32(EXPR);                                              \
    }

TS_TZ_CMP(ts_tz_, ts_cmp_tz(ARG_TS(0), ARG_TS(1)))
TS_TZ_CMP(tz_ts_, -ts_cmp_tz(ARG_TS(1), ARG_TS(0)))

/* ----------------------------------------------------------------------
 * Arithmetic
 * ---------------------------------------------------------------------- */

/*
 * ts + span: months first (keeping the day of the month, clamped to the
 * new month's last day), then days (keeping the time of day), then the
 * time part.  Infinities stay.  with_tz: ts is a timestamptz, whose
 * months and days are counted in local time in the session zone (the
 * offset taken afresh after each step, so a day across a DST change is
 * 23 or 25 hours).
 */
static Timestamp
timestamp_pl_interval_internal(Timestamp ts, const Interval *span,
                               bool with_tz)
{
    DtTm tm;
    fsec_t fsec;
    int tz;
    int *tzp = with_tz ? &tz : NULL;

    if (TIMESTAMP_NOT_FINITE(ts))
        return ts;
    if (span->month != 0) {
        if (!tdb_timestamp2tm(ts, tzp, &tm, &fsec))
            tdb_dt_error_timestamp_range();
        tm.tm_mon = wrap_add32(tm.tm_mon, span->month);
        if (tm.tm_mon > MONTHS_PER_YEAR) {
            tm.tm_year += (tm.tm_mon - 1) / MONTHS_PER_YEAR;
            tm.tm_mon = ((tm.tm_mon - 1) % MONTHS_PER_YEAR) + 1;
        } else if (tm.tm_mon < 1) {
            tm.tm_year += tm.tm_mon / MONTHS_PER_YEAR - 1;
            tm.tm_mon = tm.tm_mon % MONTHS_PER_YEAR + MONTHS_PER_YEAR;
        }
        if (tm.tm_mday > tdb_dt_day_tab[isleap(tm.tm_year)][tm.tm_mon - 1])
            tm.tm_mday = tdb_dt_day_tab[isleap(tm.tm_year)][tm.tm_mon - 1];
        if (with_tz)
            tz = tdb_dt_zone_offset(&tm, tdb_dt_session_zone());
        if (!tdb_tm2timestamp(&tm, fsec, tzp, &ts))
            tdb_dt_error_timestamp_range();
    }
    if (span->day != 0) {
        int julian;

        if (!tdb_timestamp2tm(ts, tzp, &tm, &fsec))
            tdb_dt_error_timestamp_range();
        julian = wrap_add32(tdb_date2j(tm.tm_year, tm.tm_mon, tm.tm_mday),
                            span->day);
        tdb_j2date(julian, &tm.tm_year, &tm.tm_mon, &tm.tm_mday);
        if (with_tz)
            tz = tdb_dt_zone_offset(&tm, tdb_dt_session_zone());
        if (!tdb_tm2timestamp(&tm, fsec, tzp, &ts))
            tdb_dt_error_timestamp_range();
    }
    if (__builtin_add_overflow(ts, span->time, &ts) || !IS_VALID_TIMESTAMP(ts))
        tdb_dt_error_timestamp_range();
    return ts;
}

static Interval
interval_negated(const Interval *span)
{
    Interval neg = {wrap_neg64(span->time), wrap_neg32(span->day),
                    wrap_neg32(span->month)};

    return neg;
}

Timestamp
tdb_timestamp_pl_interval(Timestamp ts, const Interval *span)
{
    return timestamp_pl_interval_internal(ts, span, false);
}

TimestampTz
tdb_timestamptz_pl_interval(TimestampTz ts, const Interval *span)
{
    return timestamp_pl_interval_internal(ts, span, true);
}

Timestamp
tdb_timestamp_mi_interval(Timestamp ts, const Interval *span)
{
    Interval neg = interval_negated(span);

    return timestamp_pl_interval_internal(ts, &neg, false);
}

static Datum
timestamp_pl_interval(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(1));

    PG_RETURN_INT64(timestamp_pl_interval_internal(ARG_TS(0), &span, false));
}

static Datum
interval_pl_timestamp(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(0));

    PG_RETURN_INT64(timestamp_pl_interval_internal(ARG_TS(1), &span, false));
}

static Datum
timestamp_mi_interval(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(1));
    Interval neg = interval_negated(&span);

    PG_RETURN_INT64(timestamp_pl_interval_internal(ARG_TS(0), &neg, false));
}

static Datum
timestamptz_pl_interval(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(1));

    PG_RETURN_INT64(timestamp_pl_interval_internal(ARG_TS(0), &span, true));
}

static Datum
interval_pl_timestamptz(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(0));

    PG_RETURN_INT64(timestamp_pl_interval_internal(ARG_TS(1), &span, true));
}

static Datum
timestamptz_mi_interval(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(1));
    Interval neg = interval_negated(&span);

    PG_RETURN_INT64(timestamp_pl_interval_internal(ARG_TS(0), &neg, true));
}

/*
 * Whole days out of the time part into the day part, the two given the
 * same sign (justify_hours).
 */
static void
justify_hours(Interval *r)
{
    int64 wholeday = r->time / USECS_PER_DAY;

    r->time -= wholeday * USECS_PER_DAY;
    if (__builtin_add_overflow(r->day, (int32)wholeday, &r->day))
        tdb_dt_error_interval_range();
    if (r->day > 0 && r->time < 0) {
        r->time += USECS_PER_DAY;
        r->day--;
    } else if (r->day < 0 && r->time > 0) {
        r->time -= USECS_PER_DAY;
        r->day++;
    }
}

/* ts - ts: days and time of day between them, justified. */
static Datum
timestamp_mi(PG_FUNCTION_ARGS)
{
    Timestamp dt1 = ARG_TS(0);
    Timestamp dt2 = ARG_TS(1);
    Interval r = {0, 0, 0};

    if (TIMESTAMP_NOT_FINITE(dt1) || TIMESTAMP_NOT_FINITE(dt2))
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("cannot subtract infinite timestamps"));
    /* unchecked: the difference wraps, as in PostgreSQL 15 */
    r.time = wrap_add64(dt1, wrap_neg64(dt2));
    justify_hours(&r);
    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

/*
 * age(a, b): the difference of the broken-down fields, borrowing from
 * the next larger unit where a field goes negative (a month borrows the
 * length of the month of the earlier timestamp's... as PostgreSQL).
 */
static Interval
timestamp_age_internal(Timestamp dt1, Timestamp dt2, bool with_tz)
{
    IntervalFields itm;
    DtTm tm1;
    DtTm tm2;
    fsec_t fsec1;
    fsec_t fsec2;
    int tz1;
    int tz2;
    Interval result;
    bool flip = dt1 < dt2;

    /* timestamptz: the local fields (a zone offset change is ignored) */
    if (!tdb_timestamp2tm(dt1, with_tz ? &tz1 : NULL, &tm1, &fsec1) ||
        !tdb_timestamp2tm(dt2, with_tz ? &tz2 : NULL, &tm2, &fsec2))
        tdb_dt_error_timestamp_range();

    itm.tm_usec = fsec1 - fsec2;
    itm.tm_sec = tm1.tm_sec - tm2.tm_sec;
    itm.tm_min = tm1.tm_min - tm2.tm_min;
    itm.tm_hour = tm1.tm_hour - tm2.tm_hour;
    itm.tm_mday = tm1.tm_mday - tm2.tm_mday;
    itm.tm_mon = tm1.tm_mon - tm2.tm_mon;
    itm.tm_year = tm1.tm_year - tm2.tm_year;
    if (flip) {
        itm.tm_usec = -itm.tm_usec;
        itm.tm_sec = -itm.tm_sec;
        itm.tm_min = -itm.tm_min;
        itm.tm_hour = -itm.tm_hour;
        itm.tm_mday = -itm.tm_mday;
        itm.tm_mon = -itm.tm_mon;
        itm.tm_year = -itm.tm_year;
    }
    while (itm.tm_usec < 0) {
        itm.tm_usec += USECS_PER_SEC;
        itm.tm_sec--;
    }
    while (itm.tm_sec < 0) {
        itm.tm_sec += SECS_PER_MINUTE;
        itm.tm_min--;
    }
    while (itm.tm_min < 0) {
        itm.tm_min += MINS_PER_HOUR;
        itm.tm_hour--;
    }
    while (itm.tm_hour < 0) {
        itm.tm_hour += HOURS_PER_DAY;
        itm.tm_mday--;
    }
    while (itm.tm_mday < 0) {
        const DtTm *ref = flip ? &tm1 : &tm2;

        itm.tm_mday += tdb_dt_day_tab[isleap(ref->tm_year)][ref->tm_mon - 1];
        itm.tm_mon--;
    }
    while (itm.tm_mon < 0) {
        itm.tm_mon += MONTHS_PER_YEAR;
        itm.tm_year--;
    }
    if (flip) {
        itm.tm_usec = -itm.tm_usec;
        itm.tm_sec = -itm.tm_sec;
        itm.tm_min = -itm.tm_min;
        itm.tm_hour = -itm.tm_hour;
        itm.tm_mday = -itm.tm_mday;
        itm.tm_mon = -itm.tm_mon;
        itm.tm_year = -itm.tm_year;
    }
    if (!tdb_itm2interval(&itm, &result))
        tdb_dt_error_interval_range();
    return result;
}

static Datum
timestamp_age(PG_FUNCTION_ARGS)
{
    Interval r = timestamp_age_internal(ARG_TS(0), ARG_TS(1), false);

    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

static Datum
timestamptz_age(PG_FUNCTION_ARGS)
{
    Interval r = timestamp_age_internal(ARG_TS(0), ARG_TS(1), true);

    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

/*
 * Midnight of current_date -- the transaction's start date in the
 * session zone -- as a timestamp (local midnight).
 */
static Timestamp
current_date_timestamp(void)
{
    return tdb_date2timestamp(
        tdb_timestamp2date(tdb_dt_tz_to_local(tdb_dt_xact_start())));
}

/* age(ts): from ts to midnight of current_date (as PostgreSQL's SQL
 * definition, age(current_date::timestamp, ts)). */
static Datum
timestamp_age_today(PG_FUNCTION_ARGS)
{
    Interval r =
        timestamp_age_internal(current_date_timestamp(), ARG_TS(0), false);

    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

/* age(tz): age(current_date::timestamptz, tz). */
static Datum
timestamptz_age_today(PG_FUNCTION_ARGS)
{
    Interval r = timestamp_age_internal(
        tdb_dt_local_to_tz(current_date_timestamp()), ARG_TS(0), true);

    PG_RETURN_DATUM(tdb_interval_datum(&r));
}

/* ----------------------------------------------------------------------
 * AT TIME ZONE: timezone(zone, timestamp[tz])
 *
 * timestamptz AT TIME ZONE z is the local time at z of that instant (a
 * timestamp); timestamp AT TIME ZONE z reads the local time as one at z
 * (a timestamptz).  z is text (a fixed-offset abbreviation such as
 * 'EST', a zone such as 'Europe/Berlin', or a POSIX spec -- where '+05'
 * means five hours *west*, as in PostgreSQL) or an interval of hours,
 * minutes and seconds east of UTC.
 * ---------------------------------------------------------------------- */

/* A local time (seconds east of UTC at east) from a UTC time, or back. */
static Timestamp
shift_by_offset(Timestamp ts, int64 east_usecs)
{
    Timestamp result;

    if (__builtin_add_overflow(ts, east_usecs, &result) ||
        !IS_VALID_TIMESTAMP(result))
        tdb_dt_error_timestamp_range();
    return result;
}

static Datum
timestamptz_zone(PG_FUNCTION_ARGS)
{
    TimestampTz ts = ARG_TS(1);
    const char *name = tdb_type_output(TEXTOID, PG_GETARG_DATUM(0));
    const DtZone *zone;
    int east, tz;
    DtTm tm;
    fsec_t fsec;
    Timestamp result;

    if (TIMESTAMP_NOT_FINITE(ts))
        PG_RETURN_INT64(ts);
    if (tdb_dt_decode_zone_name(name,
                                tdb_dt_lower_units(PG_GETARG_VARLENA_P(0)),
                                &east, &zone))
        PG_RETURN_INT64(shift_by_offset(ts, (int64)east * USECS_PER_SEC));
    if (!tdb_timestamp2tm_zone(ts, &tz, &tm, &fsec, zone) ||
        !tdb_tm2timestamp(&tm, fsec, NULL, &result))
        tdb_dt_error_timestamp_range();
    PG_RETURN_INT64(result);
}

static Datum
timestamp_zone(PG_FUNCTION_ARGS)
{
    Timestamp ts = ARG_TS(1);
    const char *name = tdb_type_output(TEXTOID, PG_GETARG_DATUM(0));
    const DtZone *zone;
    int east;
    DtTm tm;
    fsec_t fsec;

    if (TIMESTAMP_NOT_FINITE(ts))
        PG_RETURN_INT64(ts);
    if (tdb_dt_decode_zone_name(name,
                                tdb_dt_lower_units(PG_GETARG_VARLENA_P(0)),
                                &east, &zone))
        PG_RETURN_INT64(shift_by_offset(ts, -(int64)east * USECS_PER_SEC));
    if (!tdb_timestamp2tm(ts, NULL, &tm, &fsec))
        tdb_dt_error_timestamp_range();
    /* the zone's offset (seconds west) at that local time */
    PG_RETURN_INT64(shift_by_offset(
        ts, (int64)tdb_dt_zone_offset(&tm, zone) * USECS_PER_SEC));
}

/* An interval zone's offset east of UTC, in microseconds. */
static int64
interval_zone_offset(Datum zone)
{
    Interval span = tdb_interval_get(zone);

    if (span.month != 0 || span.day != 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("interval time zone \"%s\" must not include months "
                       "or days",
                       tdb_type_output(INTERVALOID, zone)));
    return span.time;
}

static Datum
timestamptz_izone(PG_FUNCTION_ARGS)
{
    int64 east = interval_zone_offset(PG_GETARG_DATUM(0));
    TimestampTz ts = ARG_TS(1);

    if (TIMESTAMP_NOT_FINITE(ts))
        PG_RETURN_INT64(ts);
    PG_RETURN_INT64(shift_by_offset(ts, east));
}

static Datum
timestamp_izone(PG_FUNCTION_ARGS)
{
    int64 east = interval_zone_offset(PG_GETARG_DATUM(0));
    Timestamp ts = ARG_TS(1);

    if (TIMESTAMP_NOT_FINITE(ts))
        PG_RETURN_INT64(ts);
    PG_RETURN_INT64(shift_by_offset(ts, -east));
}

/* ----------------------------------------------------------------------
 * date_trunc
 * ---------------------------------------------------------------------- */

static Datum
timestamp_trunc_common(FunctionCallInfo fcinfo, bool with_tz)
{
    const char *typname =
        with_tz ? "timestamp with time zone" : "timestamp without time zone";
    Timestamp ts = ARG_TS(1);
    char *lowunits;
    int type;
    int val;
    DtTm tm;
    fsec_t fsec;
    int tz;
    bool redotz = false; /* a new day: the zone's offset may differ */
    Timestamp result;

    if (TIMESTAMP_NOT_FINITE(ts))
        PG_RETURN_INT64(ts);
    lowunits = tdb_dt_lower_units(PG_GETARG_VARLENA_P(0));
    type = tdb_dt_decode_units(lowunits, &val);
    if (type != DTF_UNITS)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("unit \"%s\" not recognized for type %s", lowunits,
                       typname));
    if (!tdb_timestamp2tm(ts, with_tz ? &tz : NULL, &tm, &fsec))
        tdb_dt_error_timestamp_range();

    switch (val) {
    case DTK_WEEK: {
        int woy = tdb_date2isoweek(tm.tm_year, tm.tm_mon, tm.tm_mday);

        /* weeks 52/53 in January belong to the previous year, week 1 in
         * December to the next */
        if (woy >= 52 && tm.tm_mon == 1)
            --tm.tm_year;
        if (woy <= 1 && tm.tm_mon == MONTHS_PER_YEAR)
            ++tm.tm_year;
        tdb_isoweek2date(woy, &tm.tm_year, &tm.tm_mon, &tm.tm_mday);
        tm.tm_hour = 0;
        tm.tm_min = 0;
        tm.tm_sec = 0;
        fsec = 0;
        redotz = true;
        break;
    }
    case DTK_MILLENNIUM:
        /* millennia start in years 1, 1001, ... (and 1000 BC, ...) */
        if (tm.tm_year > 0)
            tm.tm_year = ((tm.tm_year + 999) / 1000) * 1000 - 999;
        else
            tm.tm_year = -((999 - (tm.tm_year - 1)) / 1000) * 1000 + 1;
        TDB_FALLTHROUGH;
    case DTK_CENTURY:
        if (tm.tm_year > 0)
            tm.tm_year = ((tm.tm_year + 99) / 100) * 100 - 99;
        else
            tm.tm_year = -((99 - (tm.tm_year - 1)) / 100) * 100 + 1;
        TDB_FALLTHROUGH;
    case DTK_DECADE:
        if (val != DTK_MILLENNIUM && val != DTK_CENTURY) {
            if (tm.tm_year > 0)
                tm.tm_year = (tm.tm_year / 10) * 10;
            else
                tm.tm_year = -((8 - (tm.tm_year - 1)) / 10) * 10;
        }
        TDB_FALLTHROUGH;
    case DTK_YEAR:
        tm.tm_mon = 1;
        TDB_FALLTHROUGH;
    case DTK_QUARTER:
        tm.tm_mon = (3 * ((tm.tm_mon - 1) / 3)) + 1;
        TDB_FALLTHROUGH;
    case DTK_MONTH:
        tm.tm_mday = 1;
        TDB_FALLTHROUGH;
    case DTK_DAY:
        tm.tm_hour = 0;
        redotz = true;
        TDB_FALLTHROUGH;
    case DTK_HOUR:
        tm.tm_min = 0;
        TDB_FALLTHROUGH;
    case DTK_MINUTE:
        tm.tm_sec = 0;
        TDB_FALLTHROUGH;
    case DTK_SECOND:
        fsec = 0;
        break;
    case DTK_MILLISEC:
        fsec = (fsec / 1000) * 1000;
        break;
    case DTK_MICROSEC:
        break;
    default:
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("unit \"%s\" not supported for type %s", lowunits,
                       typname));
    }
    if (with_tz && redotz)
        tz = tdb_dt_zone_offset(&tm, tdb_dt_session_zone());
    if (!tdb_tm2timestamp(&tm, fsec, with_tz ? &tz : NULL, &result))
        tdb_dt_error_timestamp_range();
    PG_RETURN_INT64(result);
}

static Datum
timestamp_trunc(PG_FUNCTION_ARGS)
{
    return timestamp_trunc_common(fcinfo, false);
}

static Datum
timestamptz_trunc(PG_FUNCTION_ARGS)
{
    return timestamp_trunc_common(fcinfo, true);
}

/* ----------------------------------------------------------------------
 * extract / date_part
 * ---------------------------------------------------------------------- */

/*
 * A unit of an infinite timestamp: 0 (meaning NULL) for units that
 * cycle, +-infinity for those that only grow.
 */
static double
non_finite_part(int type, int unit, const char *lowunits, bool is_negative,
                const char *typname)
{
    if (type != DTF_UNITS && type != DTF_RESERV)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("unit \"%s\" not recognized for type %s", lowunits,
                       typname));
    switch (unit) {
    case DTK_MICROSEC:
    case DTK_MILLISEC:
    case DTK_SECOND:
    case DTK_MINUTE:
    case DTK_HOUR:
    case DTK_DAY:
    case DTK_MONTH:
    case DTK_QUARTER:
    case DTK_WEEK:
    case DTK_DOW:
    case DTK_ISODOW:
    case DTK_DOY:
    case DTK_TZ:
    case DTK_TZ_MINUTE:
    case DTK_TZ_HOUR:
        return 0.0;
    case DTK_YEAR:
    case DTK_DECADE:
    case DTK_CENTURY:
    case DTK_MILLENNIUM:
    case DTK_JULIAN:
    case DTK_ISOYEAR:
    case DTK_EPOCH:
        return is_negative ? -INFINITY : INFINITY;
    default:
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("unit \"%s\" not supported for type %s", lowunits,
                       typname));
        return 0.0;
    }
}

/* extract (numeric) and date_part (float8) of timestamp/timestamptz. */
static Datum
timestamp_part_common(FunctionCallInfo fcinfo, bool retnumeric, bool with_tz)
{
    const char *typname =
        with_tz ? "timestamp with time zone" : "timestamp without time zone";
    char *lowunits = tdb_dt_lower_units(PG_GETARG_VARLENA_P(0));
    Timestamp ts = ARG_TS(1);
    int64 intresult;
    int type;
    int val;
    DtTm tm;
    fsec_t fsec;
    int tz = 0;

    type = tdb_dt_decode_units(lowunits, &val);
    if (type == DTF_UNKNOWN)
        type = tdb_dt_decode_special(lowunits, &val);

    if (TIMESTAMP_NOT_FINITE(ts)) {
        double r = non_finite_part(type, val, lowunits,
                                   TIMESTAMP_IS_NOBEGIN(ts), typname);

        if (r == 0.0)
            PG_RETURN_NULL();
        if (retnumeric)
            PG_RETURN_DATUM(tdb_type_input(
                NUMERICOID, r < 0 ? "-Infinity" : "Infinity", -1));
        PG_RETURN_FLOAT8(r);
    }

    if (type == DTF_UNITS) {
        if (!tdb_timestamp2tm(ts, with_tz ? &tz : NULL, &tm, &fsec))
            tdb_dt_error_timestamp_range();
        switch (val) {
        case DTK_TZ:
            if (!with_tz)
                goto not_supported;
            intresult = -tz;
            break;
        case DTK_TZ_MINUTE:
            if (!with_tz)
                goto not_supported;
            intresult = (-tz / SECS_PER_MINUTE) % MINS_PER_HOUR;
            break;
        case DTK_TZ_HOUR:
            if (!with_tz)
                goto not_supported;
            intresult = -tz / SECS_PER_HOUR;
            break;
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
        case DTK_DAY:
            intresult = tm.tm_mday;
            break;
        case DTK_MONTH:
            intresult = tm.tm_mon;
            break;
        case DTK_QUARTER:
            intresult = (tm.tm_mon - 1) / 3 + 1;
            break;
        case DTK_WEEK:
            intresult = tdb_date2isoweek(tm.tm_year, tm.tm_mon, tm.tm_mday);
            break;
        case DTK_YEAR:
            intresult = tm.tm_year > 0 ? tm.tm_year : tm.tm_year - 1;
            break;
        case DTK_DECADE:
            intresult = tm.tm_year >= 0 ? tm.tm_year / 10
                                        : -((8 - (tm.tm_year - 1)) / 10);
            break;
        case DTK_CENTURY:
            intresult = tm.tm_year > 0 ? (tm.tm_year + 99) / 100
                                       : -((99 - (tm.tm_year - 1)) / 100);
            break;
        case DTK_MILLENNIUM:
            intresult = tm.tm_year > 0 ? (tm.tm_year + 999) / 1000
                                       : -((999 - (tm.tm_year - 1)) / 1000);
            break;
        case DTK_JULIAN: {
            int64 day_usecs =
                ((((int64)tm.tm_hour * MINS_PER_HOUR) + tm.tm_min) *
                     SECS_PER_MINUTE +
                 tm.tm_sec) *
                    USECS_PER_SEC +
                fsec;

            if (retnumeric)
                PG_RETURN_DATUM(tdb_dt_numeric_binop(
                    "+",
                    tdb_dt_numeric_scaled(
                        tdb_date2j(tm.tm_year, tm.tm_mon, tm.tm_mday), 0),
                    tdb_dt_numeric_binop(
                        "/", tdb_dt_numeric_scaled(day_usecs, 0),
                        tdb_dt_numeric_scaled(SECS_PER_DAY * USECS_PER_SEC,
                                              0))));
            PG_RETURN_FLOAT8(
                tdb_date2j(tm.tm_year, tm.tm_mon, tm.tm_mday) +
                ((((tm.tm_hour * MINS_PER_HOUR) + tm.tm_min) *
                  SECS_PER_MINUTE) +
                 tm.tm_sec + (fsec / 1000000.0)) /
                    (double)SECS_PER_DAY);
        }
        case DTK_ISOYEAR:
            intresult = tdb_date2isoyear(tm.tm_year, tm.tm_mon, tm.tm_mday);
            if (intresult <= 0)
                intresult -= 1;
            break;
        case DTK_DOW:
        case DTK_ISODOW:
            intresult =
                tdb_j2day(tdb_date2j(tm.tm_year, tm.tm_mon, tm.tm_mday));
            if (val == DTK_ISODOW && intresult == 0)
                intresult = 7;
            break;
        case DTK_DOY:
            intresult = tdb_date2j(tm.tm_year, tm.tm_mon, tm.tm_mday) -
                        tdb_date2j(tm.tm_year, 1, 1) + 1;
            break;
        default:
            goto not_supported;
        }
    } else if (type == DTF_RESERV) {
        if (val != DTK_EPOCH)
            goto not_supported;
        /* seconds since 1970-01-01 00:00:00 UTC */
        if (ts < INT64_MAX + EPOCH_TIMESTAMP) {
            if (retnumeric)
                PG_RETURN_DATUM(
                    tdb_dt_numeric_scaled(ts - EPOCH_TIMESTAMP, 6));
            PG_RETURN_FLOAT8((ts - EPOCH_TIMESTAMP) / 1000000.0);
        }
        if (retnumeric) {
            Datum r = tdb_dt_numeric_binop(
                "/",
                tdb_dt_numeric_binop("-", tdb_dt_numeric_scaled(ts, 0),
                                     tdb_dt_numeric_scaled(EPOCH_TIMESTAMP,
                                                           0)),
                tdb_dt_numeric_scaled(1000000, 0));
            const FuncDesc *round[4];
            int n = tdb_func_candidates("round", round, 4);

            for (int i = 0; i < n && i < 4; i++)
                if (round[i]->nargs == 2 &&
                    round[i]->argtypes[0] == NUMERICOID)
                    PG_RETURN_DATUM(tdb_direct_call2(round[i]->fn, r,
                                                     Int32GetDatum(6)));
            elog(ERROR, "round(numeric, int4) is missing");
        }
        PG_RETURN_FLOAT8(((double)ts - EPOCH_TIMESTAMP) / 1000000.0);
    } else
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("unit \"%s\" not recognized for type %s", lowunits,
                       typname));

    if (retnumeric)
        PG_RETURN_DATUM(tdb_dt_numeric_scaled(intresult, 0));
    PG_RETURN_FLOAT8((double)intresult);

not_supported:
    ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
            errmsg("unit \"%s\" not supported for type %s", lowunits,
                   typname));
    PG_RETURN_NULL();
}

static Datum
extract_timestamp(PG_FUNCTION_ARGS)
{
    return timestamp_part_common(fcinfo, true, false);
}

static Datum
extract_timestamptz(PG_FUNCTION_ARGS)
{
    return timestamp_part_common(fcinfo, true, true);
}

static Datum
timestamp_part(PG_FUNCTION_ARGS)
{
    return timestamp_part_common(fcinfo, false, false);
}

static Datum
timestamptz_part(PG_FUNCTION_ARGS)
{
    return timestamp_part_common(fcinfo, false, true);
}

/* date_part(text, date): the date as a timestamp. */
static Datum
date_part_date(PG_FUNCTION_ARGS)
{
    FunctionCallInfoData call = *fcinfo;

    call.args[1].value =
        Int64GetDatum(tdb_date2timestamp(DatumGetInt32(PG_GETARG_DATUM(1))));
    call.isnull = false;
    {
        Datum r = timestamp_part_common(&call, false, false);

        fcinfo->isnull = call.isnull;
        return r;
    }
}

/* ----------------------------------------------------------------------
 * Constructors and the clock
 * ---------------------------------------------------------------------- */

static Timestamp
make_timestamp_internal(int year, int month, int day, int hour, int min,
                        double sec)
{
    DtTm tm;
    int64 date;
    int64 time;
    bool bc = false;
    Timestamp result;

    tm.tm_year = year;
    tm.tm_mon = month;
    tm.tm_mday = day;
    if (tm.tm_year < 0) {
        bc = true;
        tm.tm_year = -tm.tm_year;
    }
    if (tdb_dt_validate_date(DTK_DATE_M, false, false, bc, &tm) != 0)
        ereport(ERROR, errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
                errmsg("date field value out of range: %d-%02d-%02d", year,
                       month, day));
    if (!IS_VALID_JULIAN(tm.tm_year, tm.tm_mon, tm.tm_mday))
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("date out of range: %d-%02d-%02d", year, month, day));
    date = tdb_date2j(tm.tm_year, tm.tm_mon, tm.tm_mday) -
           POSTGRES_EPOCH_JDATE;
    if (tdb_float_time_overflows(hour, min, sec))
        ereport(ERROR, errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
                errmsg("time field value out of range: %d:%02d:%s", hour,
                       min, tdb_dt_format_g(sec, true)));
    time = (((int64)hour * MINS_PER_HOUR + min) * SECS_PER_MINUTE) *
               USECS_PER_SEC +
           (int64)rint(sec * USECS_PER_SEC);
    result = wrap_add64((int64)((uint64)date * (uint64)USECS_PER_DAY), time);
    if (wrap_add64(result, wrap_neg64(time)) / USECS_PER_DAY != date ||
        (result < 0 && date > 0) || (result > 0 && date < -1) ||
        !IS_VALID_TIMESTAMP(result))
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("timestamp out of range: %d-%02d-%02d %d:%02d:%s",
                       year, month, day, hour, min,
                       tdb_dt_format_g(sec, true)));
    return result;
}

static Datum
make_timestamp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(make_timestamp_internal(
        PG_GETARG_INT32(0), PG_GETARG_INT32(1), PG_GETARG_INT32(2),
        PG_GETARG_INT32(3), PG_GETARG_INT32(4), PG_GETARG_FLOAT8(5)));
}

/* make_timestamptz(y, m, d, h, mi, s): that local time in the session
 * zone. */
static Datum
make_timestamptz(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(tdb_dt_local_to_tz(make_timestamp_internal(
        PG_GETARG_INT32(0), PG_GETARG_INT32(1), PG_GETARG_INT32(2),
        PG_GETARG_INT32(3), PG_GETARG_INT32(4), PG_GETARG_FLOAT8(5))));
}

/* to_timestamp(float8): seconds since the Unix epoch. */
static Datum
float8_timestamptz(PG_FUNCTION_ARGS)
{
    double seconds = PG_GETARG_FLOAT8(0);
    TimestampTz result;

    if (isnan(seconds))
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("timestamp cannot be NaN"));
    if (isinf(seconds))
        PG_RETURN_INT64(seconds < 0 ? DT_NOBEGIN : DT_NOEND);
    if (seconds < (double)SECS_PER_DAY *
                      (DATETIME_MIN_JULIAN - UNIX_EPOCH_JDATE) ||
        seconds >= (double)SECS_PER_DAY *
                       (TIMESTAMP_END_JULIAN - UNIX_EPOCH_JDATE))
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("timestamp out of range: \"%s\"",
                       tdb_dt_format_g(seconds, false)));
    seconds -= ((POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY);
    seconds = rint(seconds * USECS_PER_SEC);
    result = (int64)seconds;
    if (!IS_VALID_TIMESTAMP(result))
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("timestamp out of range: \"%s\"",
                       tdb_dt_format_g(PG_GETARG_FLOAT8(0), false)));
    PG_RETURN_INT64(result);
}

/* now(), transaction_timestamp(): the transaction's start. */
static Datum
now(PG_FUNCTION_ARGS)
{
    (void)fcinfo;
    PG_RETURN_INT64(tdb_dt_xact_start());
}

static Datum
statement_timestamp(PG_FUNCTION_ARGS)
{
    (void)fcinfo;
    PG_RETURN_INT64(tdb_dt_stmt_start());
}

static Datum
clock_timestamp(PG_FUNCTION_ARGS)
{
    (void)fcinfo;
    PG_RETURN_INT64(tdb_dt_now());
}

/* ----------------------------------------------------------------------
 * The tables
 * ---------------------------------------------------------------------- */

#define D DATEOID
#define TS TIMESTAMPOID
#define TZ TIMESTAMPTZOID
#define IV INTERVALOID
#define I4 INT4OID
#define TXT TEXTOID
#define F8 FLOAT8OID
#define S PROVOLATILE_STABLE
#define V PROVOLATILE_VOLATILE

static const FuncDesc timestamp_funcs[] = {
    FUNC(2045, "timestamp_cmp", timestamp_cmp, I4, 2, TS, TS),
    FUNC(1314, "timestamptz_cmp", timestamp_cmp, I4, 2, TZ, TZ),
    FUNC_V(2526, "timestamp_cmp_timestamptz", ts_tz_cmp, S, I4, 2, TS, TZ),
    FUNC_V(2533, "timestamptz_cmp_timestamp", tz_ts_cmp, S, I4, 2, TZ, TS),
    FUNC(2039, "timestamp_hash", timestamp_hash, I4, 1, TS),
    FUNC(2036, "timestamp_larger", timestamp_larger, TS, 2, TS, TS),
    FUNC(2035, "timestamp_smaller", timestamp_smaller, TS, 2, TS, TS),
    FUNC(1196, "timestamptz_larger", timestamp_larger, TZ, 2, TZ, TZ),
    FUNC(1195, "timestamptz_smaller", timestamp_smaller, TZ, 2, TZ, TZ),
    FUNC(2048, "isfinite", timestamp_finite, BOOLOID, 1, TS),
    FUNC(1389, "isfinite", timestamp_finite, BOOLOID, 1, TZ),
    FUNC(1961, "timestamp", timestamp_scale, TS, 2, TS, I4),
    FUNC(1967, "timestamptz", timestamp_scale, TZ, 2, TZ, I4),
    FUNC_V(2027, "timestamp", timestamptz_timestamp, S, TS, 1, TZ),
    FUNC_V(2028, "timestamptz", timestamp_timestamptz, S, TZ, 1, TS),
    FUNC(2031, "timestamp_mi", timestamp_mi, IV, 2, TS, TS),
    FUNC(1188, "timestamptz_mi", timestamp_mi, IV, 2, TZ, TZ),
    FUNC(2032, "timestamp_pl_interval", timestamp_pl_interval, TS, 2, TS,
         IV),
    FUNC(2033, "timestamp_mi_interval", timestamp_mi_interval, TS, 2, TS,
         IV),
    FUNC_V(1189, "timestamptz_pl_interval", timestamptz_pl_interval, S, TZ,
           2, TZ, IV),
    FUNC_V(1190, "timestamptz_mi_interval", timestamptz_mi_interval, S, TZ,
           2, TZ, IV),
    FUNC(2548, "interval_pl_timestamp", interval_pl_timestamp, TS, 2, IV,
         TS),
    FUNC_V(2549, "interval_pl_timestamptz", interval_pl_timestamptz, S, TZ,
           2, IV, TZ),
    FUNC(2058, "age", timestamp_age, IV, 2, TS, TS),
    FUNC(1199, "age", timestamptz_age, IV, 2, TZ, TZ),
    FUNC_V(2059, "age", timestamp_age_today, S, IV, 1, TS),
    FUNC_V(1386, "age", timestamptz_age_today, S, IV, 1, TZ),
    FUNC(2020, "date_trunc", timestamp_trunc, TS, 2, TXT, TS),
    FUNC(1159, "timezone", timestamptz_zone, TS, 2, TXT, TZ),
    FUNC(2069, "timezone", timestamp_zone, TZ, 2, TXT, TS),
    FUNC(1026, "timezone", timestamptz_izone, TS, 2, IV, TZ),
    FUNC(2070, "timezone", timestamp_izone, TZ, 2, IV, TS),
    FUNC_V(1217, "date_trunc", timestamptz_trunc, S, TZ, 2, TXT, TZ),
    FUNC(6202, "extract", extract_timestamp, NUMERICOID, 2, TXT, TS),
    FUNC_V(6203, "extract", extract_timestamptz, S, NUMERICOID, 2, TXT, TZ),
    FUNC(2021, "date_part", timestamp_part, F8, 2, TXT, TS),
    FUNC_V(1171, "date_part", timestamptz_part, S, F8, 2, TXT, TZ),
    FUNC(1384, "date_part", date_part_date, F8, 2, TXT, D),
    FUNC(3461, "make_timestamp", make_timestamp, TS, 6, I4, I4, I4, I4, I4,
         F8),
    FUNC_V(3462, "make_timestamptz", make_timestamptz, S, TZ, 6, I4, I4, I4,
           I4, I4, F8),
    FUNC(1158, "to_timestamp", float8_timestamptz, TZ, 1, F8),
    FUNC_V(1299, "now", now, S, TZ, 0, InvalidOid),
    FUNC_V(2647, "transaction_timestamp", now, S, TZ, 0, InvalidOid),
    FUNC_V(2648, "statement_timestamp", statement_timestamp, S, TZ, 0,
           InvalidOid),
    FUNC_V(2649, "clock_timestamp", clock_timestamp, V, TZ, 0, InvalidOid),
};

static const OperDesc timestamp_opers[] = {
    OPER_EQ(2060, TS, TS, timestamp_eq), OPER_NE(2061, TS, TS, timestamp_ne),
    OPER_LT(2062, TS, TS, timestamp_lt), OPER_LE(2063, TS, TS, timestamp_le),
    OPER_GT(2064, TS, TS, timestamp_gt), OPER_GE(2065, TS, TS, timestamp_ge),
    OPER_EQ(1320, TZ, TZ, timestamp_eq), OPER_NE(1321, TZ, TZ, timestamp_ne),
    OPER_LT(1322, TZ, TZ, timestamp_lt), OPER_LE(1323, TZ, TZ, timestamp_le),
    OPER_GT(1324, TZ, TZ, timestamp_gt), OPER_GE(1325, TZ, TZ, timestamp_ge),
    /* timestamp vs timestamptz: the timestamp read in the session zone */
    OPER_LT_S(2534, TS, TZ, ts_tz_lt), OPER_LE_S(2535, TS, TZ, ts_tz_le),
    OPER_EQ_S(2536, TS, TZ, ts_tz_eq), OPER_GE_S(2537, TS, TZ, ts_tz_ge),
    OPER_GT_S(2538, TS, TZ, ts_tz_gt), OPER_NE_S(2539, TS, TZ, ts_tz_ne),
    OPER_LT_S(2540, TZ, TS, tz_ts_lt), OPER_LE_S(2541, TZ, TS, tz_ts_le),
    OPER_EQ_S(2542, TZ, TS, tz_ts_eq), OPER_GE_S(2543, TZ, TS, tz_ts_ge),
    OPER_GT_S(2544, TZ, TS, tz_ts_gt), OPER_NE_S(2545, TZ, TS, tz_ts_ne),
    OPER(2066, "+", TS, IV, TS, timestamp_pl_interval, "+", NULL),
    OPER(2067, "-", TS, TS, IV, timestamp_mi, NULL, NULL),
    OPER(2068, "-", TS, IV, TS, timestamp_mi_interval, NULL, NULL),
    OPER(2553, "+", IV, TS, TS, interval_pl_timestamp, "+", NULL),
    /* months and days of a timestamptz count in the session zone */
    OPER_S(1327, "+", TZ, IV, TZ, timestamptz_pl_interval, "+", NULL),
    OPER(1328, "-", TZ, TZ, IV, timestamp_mi, NULL, NULL),
    OPER_S(1329, "-", TZ, IV, TZ, timestamptz_mi_interval, NULL, NULL),
    OPER_S(2554, "+", IV, TZ, TZ, interval_pl_timestamptz, "+", NULL),
};

static const CastDesc timestamp_casts[] = {
    CAST_S(TS, TZ, CAST_IMPLICIT, timestamp_timestamptz),
    CAST_S(TZ, TS, CAST_ASSIGNMENT, timestamptz_timestamp),
    CASTS_INOUT_TO_STRINGS(TS),
    CASTS_INOUT_TO_STRINGS(TZ),
    CASTS_INOUT_FROM_STRINGS(TS),
    CASTS_INOUT_FROM_STRINGS(TZ),
};

static const AggDesc timestamp_aggs[] = {
    AGG(2142, "min", 1, TS, InvalidOid, TS, TS, timestamp_smaller, true,
        NULL, NULL),
    AGG(2126, "max", 1, TS, InvalidOid, TS, TS, timestamp_larger, true, NULL,
        NULL),
    AGG(2143, "min", 1, TZ, InvalidOid, TZ, TZ, timestamp_smaller, true,
        NULL, NULL),
    AGG(2127, "max", 1, TZ, InvalidOid, TZ, TZ, timestamp_larger, true, NULL,
        NULL),
};

static const TypeSupport timestamp_types[] = {
    {.typid = TS, .input = timestamp_input, .output = timestamp_output,
     .cmp = timestamp_cmp, .hash = timestamp_hash, .eq = timestamp_eq,
     .apply_typmod = timestamp_apply_typmod,
     .typmod_out = timestamp_typmod_out,
     .send = tdb_timestamp_send, .recv = tdb_timestamp_recv},
    {.typid = TZ, .input = timestamptz_input, .output = timestamptz_output,
     .cmp = timestamp_cmp, .hash = timestamp_hash, .eq = timestamp_eq,
     .apply_typmod = timestamp_apply_typmod,
     .typmod_out = timestamp_typmod_out,
     .send = tdb_timestamp_send, .recv = tdb_timestamp_recv},
};

const BuiltinSet tdb_builtins_timestamp =
    BUILTIN_SET("timestamp", timestamp_funcs, timestamp_opers,
                timestamp_casts, timestamp_aggs, timestamp_types);
