/*
 * datetime.c -- calendar arithmetic shared by the date/time family:
 * Julian day numbers, ISO 8601 weeks, breaking timestamps and intervals
 * into fields and back, range checks, the current time, and the
 * family's common errors.
 *
 * Julian day numbers count days from 24 November 4714 BC (proleptic
 * Gregorian); date2j/j2date convert without overflow for every day from
 * day 0 to 2147483647 (3 June 5874898), using the integer formulation
 * whose constants PostgreSQL also uses, so both agree on every day.  A
 * date is its Julian day minus POSTGRES_EPOCH_JDATE; a timestamp is
 * that times USECS_PER_DAY plus the time of day.
 *
 * Time zones: a timestamptz is broken down in the session's TimeZone
 * (types/typeio.h) as PostgreSQL's timestamp2tm does -- the zone's
 * offset at that instant (its localsub), then the local wall time -- and
 * a local time goes back to an instant through the zone's offset at that
 * local time (tdb_dt_zone_offset, PostgreSQL's DetermineTimeZoneOffset).
 * The clock functions give the transaction's and the command's start
 * times that the session recorded, or the real-time clock without one.
 */
#include "common/base.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/builtins.h"
#include "types/datetime.h"
#include "types/typeio.h"

const int tdb_dt_day_tab[2][13] = {
    {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 0},
    {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 0},
};

const char *const tdb_dt_months[] = {"Jan", "Feb", "Mar", "Apr",
                                     "May", "Jun", "Jul", "Aug",
                                     "Sep", "Oct", "Nov", "Dec", NULL};

const char *const tdb_dt_months_full[] = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December",
    NULL};

const char *const tdb_dt_days[] = {"Sunday",   "Monday", "Tuesday",
                                   "Wednesday", "Thursday", "Friday",
                                   "Saturday", NULL};

/* ----------------------------------------------------------------------
 * Julian days
 * ---------------------------------------------------------------------- */

/*
 * The Julian day of year/month/day.  Months are shifted so that the
 * year starts in March (the leap day falls last); 7834/256 approximates
 * the average month length of 30.6 days exactly enough for every month.
 */
int
tdb_date2j(int year, int month, int day)
{
    int julian;
    int century;

    if (month > 2) {
        month += 1;
        year += 4800;
    } else {
        month += 13;
        year += 4799;
    }
    century = year / 100;
    julian = year * 365 - 32167;
    julian += year / 4 - century + century / 4;
    julian += 7834 * month / 256 + day;
    return julian;
}

/* The inverse of tdb_date2j, in unsigned arithmetic (no overflow). */
void
tdb_j2date(int jd, int *year, int *month, int *day)
{
    unsigned int julian = (unsigned int)jd;
    unsigned int quad;
    unsigned int extra;
    int y;

    julian += 32044;
    quad = julian / 146097;
    extra = (julian - quad * 146097) * 4 + 3;
    julian += 60 + quad * 3 + extra / 146097;
    quad = julian / 1461;
    julian -= quad * 1461;
    y = (int)(julian * 4 / 1461);
    julian = ((y != 0) ? ((julian + 305) % 365) : ((julian + 306) % 366)) +
             123;
    y += (int)(quad * 4);
    *year = y - 4800;
    quad = julian * 2141 / 65536;
    *day = (int)(julian - 7834 * quad / 256);
    *month = (int)((quad + 10) % MONTHS_PER_YEAR + 1);
}

int
tdb_j2day(int jd)
{
    jd += 1;
    jd %= 7;
    if (jd < 0) /* C division truncates toward zero */
        jd += 7;
    return jd;
}

/* ----------------------------------------------------------------------
 * ISO 8601 weeks: week 1 is the week (Monday to Sunday) that holds the
 * year's first Thursday, i.e. the one containing 4 January.
 * ---------------------------------------------------------------------- */

/* The Julian day of the Monday of ISO week `week` of ISO year `year`. */
int
tdb_isoweek2j(int year, int week)
{
    int day4 = tdb_date2j(year, 1, 4);
    int day0 = tdb_j2day(day4 - 1); /* days since Monday */

    return ((week - 1) * 7) + (day4 - day0);
}

/* The Monday of ISO week woy of ISO year *year, into year, mon, mday. */
void
tdb_isoweek2date(int woy, int *year, int *mon, int *mday)
{
    tdb_j2date(tdb_isoweek2j(*year, woy), year, mon, mday);
}

/* Day wday (1 = Sunday .. 7 = Saturday) of ISO week isoweek of *year. */
void
tdb_isoweekdate2date(int isoweek, int wday, int *year, int *mon, int *mday)
{
    int jday = tdb_isoweek2j(*year, isoweek);

    if (wday > 1)
        jday += wday - 2;
    else
        jday += 6;
    tdb_j2date(jday, year, mon, mday);
}

/*
 * Shared by date2isoweek and date2isoyear: the ISO week of the date and
 * (through *isoyear) the ISO year it belongs to.
 */
static int
iso_week_and_year(int year, int mon, int mday, int *isoyear)
{
    int dayn = tdb_date2j(year, mon, mday);
    int day4 = tdb_date2j(year, 1, 4);
    int day0 = tdb_j2day(day4 - 1);
    int week;

    /* before the first Monday of week 1: the previous ISO year */
    if (dayn < day4 - day0) {
        year--;
        day4 = tdb_date2j(year, 1, 4);
        day0 = tdb_j2day(day4 - 1);
    }
    week = (dayn - (day4 - day0)) / 7 + 1;
    /* the last days of December may be in week 1 of the next year */
    if (week >= 52) {
        int next4 = tdb_date2j(year + 1, 1, 4);
        int next0 = tdb_j2day(next4 - 1);

        if (dayn >= next4 - next0) {
            week = (dayn - (next4 - next0)) / 7 + 1;
            year++;
        }
    }
    *isoyear = year;
    return week;
}

int
tdb_date2isoweek(int year, int mon, int mday)
{
    int isoyear;

    return iso_week_and_year(year, mon, mday, &isoyear);
}

int
tdb_date2isoyear(int year, int mon, int mday)
{
    int isoyear;

    (void)iso_week_and_year(year, mon, mday, &isoyear);
    return isoyear;
}

/* The day of the ISO year, 1 .. 371. */
int
tdb_date2isoyearday(int year, int mon, int mday)
{
    return tdb_date2j(year, mon, mday) -
           tdb_isoweek2j(tdb_date2isoyear(year, mon, mday), 1) + 1;
}

/* ----------------------------------------------------------------------
 * Timestamps and times broken down
 * ---------------------------------------------------------------------- */

void
tdb_dt2time(int64 jd, int *hour, int *min, int *sec, fsec_t *fsec)
{
    int64 time = jd;

    *hour = (int)(time / USECS_PER_HOUR);
    time -= (*hour) * USECS_PER_HOUR;
    *min = (int)(time / USECS_PER_MINUTE);
    time -= (*min) * USECS_PER_MINUTE;
    *sec = (int)(time / USECS_PER_SEC);
    *fsec = (fsec_t)(time - (*sec * USECS_PER_SEC));
}

/*
 * Julian day jd (which may be a little below 0: local times just before
 * the first UTC instant) into year/month/day.  The Gregorian calendar
 * repeats every 400 years (146097 days), so a negative day is moved up
 * by whole cycles for tdb_j2date and its year moved back.
 */
static void
j2date_any(int64 jd, int *year, int *month, int *day)
{
    int cycles = 0;

    while (jd < 0) {
        jd += 146097;
        cycles++;
    }
    tdb_j2date((int)jd, year, month, day);
    *year -= cycles * 400;
}

bool
tdb_timestamp2tm_zone(Timestamp dt, int *tzp, DtTm *tm, fsec_t *fsec,
                      const DtZone *zone)
{
    int64 date = dt / USECS_PER_DAY;
    int64 time = dt - date * USECS_PER_DAY;
    int64 utime;
    int64 local;
    int64 days;
    int64 secs;
    int gmtoff;
    bool isdst;
    const char *abbrev;

    if (time < 0) {
        time += USECS_PER_DAY;
        date -= 1;
    }
    date += POSTGRES_EPOCH_JDATE;
    /* the Julian-day routines need a non-negative day that fits int */
    if (date < 0 || date > (int64)INT_MAX)
        return false;
    tdb_j2date((int)date, &tm->tm_year, &tm->tm_mon, &tm->tm_mday);
    tdb_dt2time(time, &tm->tm_hour, &tm->tm_min, &tm->tm_sec, fsec);
    tm->tm_wday = tdb_j2day((int)date);
    tm->tm_yday = (int)date - tdb_date2j(tm->tm_year, 1, 1) + 1;
    tm->tm_zone = NULL;
    if (tzp == NULL) {
        tm->tm_isdst = -1;
        return true;
    }

    /* the zone's offset at this instant, in whole seconds since 1970 */
    if (zone == NULL)
        zone = tdb_dt_session_zone();
    utime = (dt - *fsec) / USECS_PER_SEC +
            (int64)(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY;
    gmtoff = tdb_dt_zone_utoff(zone, utime, &isdst, &abbrev);
    tm->tm_isdst = isdst;
    tm->tm_zone = abbrev;
    *tzp = -gmtoff;
    if (gmtoff == 0)
        return true;

    /* local wall time: the fields of utime + gmtoff (fsec is unchanged,
     * offsets being whole seconds) */
    local = utime + gmtoff;
    days = local / SECS_PER_DAY;
    secs = local - days * SECS_PER_DAY;
    if (secs < 0) {
        secs += SECS_PER_DAY;
        days--;
    }
    days += UNIX_EPOCH_JDATE;
    j2date_any(days, &tm->tm_year, &tm->tm_mon, &tm->tm_mday);
    tm->tm_hour = (int)(secs / SECS_PER_HOUR);
    tm->tm_min = (int)(secs / SECS_PER_MINUTE % MINS_PER_HOUR);
    tm->tm_sec = (int)(secs % SECS_PER_MINUTE);
    tm->tm_wday = (int)(((days + 1) % 7 + 7) % 7);
    tm->tm_yday = (int)(days - tdb_date2j(tm->tm_year, 1, 1) + 1);
    return true;
}

bool
tdb_timestamp2tm(Timestamp dt, int *tzp, DtTm *tm, fsec_t *fsec)
{
    return tdb_timestamp2tm_zone(dt, tzp, tm, fsec, NULL);
}

TimeADT
tdb_tm2time(const DtTm *tm, fsec_t fsec)
{
    return ((((int64)tm->tm_hour * MINS_PER_HOUR + tm->tm_min) *
                 SECS_PER_MINUTE +
             tm->tm_sec) *
            USECS_PER_SEC) +
           fsec;
}

bool
tdb_tm2timestamp(const DtTm *tm, fsec_t fsec, const int *tzp,
                 Timestamp *result)
{
    int64 date;
    int64 time;

    *result = 0;
    if (!IS_VALID_JULIAN(tm->tm_year, tm->tm_mon, tm->tm_mday))
        return false;
    date = tdb_date2j(tm->tm_year, tm->tm_mon, tm->tm_mday) -
           POSTGRES_EPOCH_JDATE;
    time = tdb_tm2time(tm, fsec);
    if (__builtin_mul_overflow(date, USECS_PER_DAY, result) ||
        __builtin_add_overflow(*result, time, result))
        return false;
    /* the time of day wrapped into the neighbouring day's sign (24:00:00
     * of 1999-12-31 is fine) */
    if ((*result < 0 && date > 0) || (*result > 0 && date < -1))
        return false;
    if (tzp != NULL &&
        __builtin_add_overflow(*result, (int64)(*tzp) * USECS_PER_SEC, result))
        return false;
    if (!IS_VALID_TIMESTAMP(*result))
        return false;
    return true;
}

bool
tdb_time_overflows(int hour, int min, int sec, fsec_t fsec)
{
    if (hour < 0 || hour > HOURS_PER_DAY || min < 0 ||
        min >= MINS_PER_HOUR || sec < 0 || sec > SECS_PER_MINUTE ||
        fsec < 0 || fsec > USECS_PER_SEC)
        return true;
    /* hour 24 and second 60 are allowed alone; the sum may not pass
     * 24:00:00 */
    return ((((((int64)hour * MINS_PER_HOUR + min) * SECS_PER_MINUTE) + sec) *
             USECS_PER_SEC) +
            fsec) > USECS_PER_DAY;
}

bool
tdb_float_time_overflows(int hour, int min, double sec)
{
    if (hour < 0 || hour > HOURS_PER_DAY || min < 0 || min >= MINS_PER_HOUR)
        return true;
    if (isnan(sec))
        return true;
    /* round first, as the callers convert */
    sec = rint(sec * USECS_PER_SEC);
    if (sec < 0 || sec > SECS_PER_MINUTE * USECS_PER_SEC)
        return true;
    return ((((int64)hour * MINS_PER_HOUR + min) * SECS_PER_MINUTE) *
            USECS_PER_SEC) +
               (int64)sec >
           USECS_PER_DAY;
}

/* ----------------------------------------------------------------------
 * Intervals broken down
 * ---------------------------------------------------------------------- */

void
tdb_interval2itm(const Interval *span, IntervalFields *itm)
{
    int64 time = span->time;
    int64 part;

    itm->tm_year = span->month / MONTHS_PER_YEAR;
    itm->tm_mon = span->month % MONTHS_PER_YEAR;
    itm->tm_mday = span->day;
    part = time / USECS_PER_HOUR;
    time -= part * USECS_PER_HOUR;
    itm->tm_hour = part;
    part = time / USECS_PER_MINUTE;
    time -= part * USECS_PER_MINUTE;
    itm->tm_min = (int)part;
    part = time / USECS_PER_SEC;
    time -= part * USECS_PER_SEC;
    itm->tm_sec = (int)part;
    itm->tm_usec = (int)time;
}

bool
tdb_itm2interval(const IntervalFields *itm, Interval *span)
{
    int64 months = (int64)itm->tm_year * MONTHS_PER_YEAR + itm->tm_mon;

    if (months > INT32_MAX || months < INT32_MIN)
        return false;
    span->month = (int32)months;
    span->day = itm->tm_mday;
    if (__builtin_mul_overflow(itm->tm_hour, USECS_PER_HOUR, &span->time) ||
        __builtin_add_overflow(span->time, itm->tm_min * USECS_PER_MINUTE,
                               &span->time) ||
        __builtin_add_overflow(span->time, itm->tm_sec * USECS_PER_SEC,
                               &span->time) ||
        __builtin_add_overflow(span->time, (int64)itm->tm_usec,
                               &span->time))
        return false;
    return true;
}

bool
tdb_itmin2interval(const IntervalInput *itm_in, Interval *span)
{
    int64 months = (int64)itm_in->tm_year * MONTHS_PER_YEAR + itm_in->tm_mon;

    if (months > INT32_MAX || months < INT32_MIN)
        return false;
    span->month = (int32)months;
    span->day = itm_in->tm_mday;
    span->time = itm_in->tm_usec;
    return true;
}

char *
tdb_dt_format_g(double v, bool pad2)
{
    char *buf = tdb_palloc(64);

    if (isnan(v))
        strcpy(buf, "NaN");
    else if (isinf(v))
        strcpy(buf, v > 0 ? "Infinity" : "-Infinity");
    else
        snprintf(buf, 64, pad2 ? "%02g" : "%g", v);
    return buf;
}

/* ----------------------------------------------------------------------
 * The clock
 * ---------------------------------------------------------------------- */

TimestampTz
tdb_dt_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return ((int64)ts.tv_sec -
            (int64)(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY) *
               USECS_PER_SEC +
           ts.tv_nsec / 1000;
}

TimestampTz
tdb_dt_xact_start(void)
{
    int64 t = tdb_typeio()->xact_start;

    return t != TYPEIO_NO_TIMESTAMP ? t : tdb_dt_now();
}

TimestampTz
tdb_dt_stmt_start(void)
{
    int64 t = tdb_typeio()->stmt_start;

    return t != TYPEIO_NO_TIMESTAMP ? t : tdb_dt_xact_start();
}

const DtZone *
tdb_dt_session_zone(void)
{
    const DtZone *zone = tdb_typeio()->timezone;

    return zone != NULL ? zone : tdb_dt_zone_utc();
}

/* ----------------------------------------------------------------------
 * Between local time and instants in the session zone
 * ---------------------------------------------------------------------- */

TimestampTz
tdb_dt_local_to_tz(Timestamp ts)
{
    DtTm tm;
    fsec_t fsec;
    int tz;
    TimestampTz result;

    if (TIMESTAMP_NOT_FINITE(ts))
        return ts;
    if (!tdb_timestamp2tm(ts, NULL, &tm, &fsec))
        tdb_dt_error_timestamp_range();
    tz = tdb_dt_zone_offset(&tm, tdb_dt_session_zone());
    result = ts + (int64)tz * USECS_PER_SEC;
    if (!IS_VALID_TIMESTAMP(result))
        tdb_dt_error_timestamp_range();
    return result;
}

Timestamp
tdb_dt_tz_to_local(TimestampTz ts)
{
    DtTm tm;
    fsec_t fsec;
    int tz;
    Timestamp result;

    if (TIMESTAMP_NOT_FINITE(ts))
        return ts;
    if (!tdb_timestamp2tm(ts, &tz, &tm, &fsec) ||
        !tdb_tm2timestamp(&tm, fsec, NULL, &result))
        tdb_dt_error_timestamp_range();
    return result;
}

/* ----------------------------------------------------------------------
 * Errors and helpers
 * ---------------------------------------------------------------------- */

void
tdb_dt_error_timestamp_range(void)
{
    ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
            errmsg("timestamp out of range"));
    __builtin_unreachable();
}

void
tdb_dt_error_date_range(void)
{
    ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
            errmsg("date out of range"));
    __builtin_unreachable();
}

void
tdb_dt_error_interval_range(void)
{
    ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
            errmsg("interval out of range"));
    __builtin_unreachable();
}

char *
tdb_dt_lower_units(const varlena *units)
{
    const char *src = VARDATA_ANY(units);
    Size len = VARSIZE_ANY_EXHDR(units);
    char *result;

    /* identifiers are cut to 63 bytes, at a character boundary */
    if (len > 63) {
        len = 63;
        while (len > 0 && ((unsigned char)src[len] & 0xC0) == 0x80)
            len--;
    }
    result = tdb_palloc(len + 1);
    for (Size i = 0; i < len; i++) {
        char c = src[i];

        result[i] = (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c;
    }
    result[len] = '\0';
    return result;
}

Datum
tdb_dt_numeric_scaled(int64 val, int scale)
{
    char digits[32];
    char buf[48];
    uint64 mag = val < 0 ? (uint64)0 - (uint64)val : (uint64)val;
    int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)mag);
    char *p = buf;

    Assert(scale >= 0 && scale <= 9);
    if (val < 0)
        *p++ = '-';
    if (n <= scale) {
        /* 0.000ddd */
        *p++ = '0';
        *p++ = '.';
        for (int i = n; i < scale; i++)
            *p++ = '0';
        memcpy(p, digits, (Size)n);
        p += n;
    } else {
        memcpy(p, digits, (Size)(n - scale));
        p += n - scale;
        if (scale > 0) {
            *p++ = '.';
            memcpy(p, digits + n - scale, (Size)scale);
            p += scale;
        }
    }
    *p = '\0';
    return tdb_type_input(NUMERICOID, buf, -1);
}

Datum
tdb_dt_numeric_binop(const char *op, Datum a, Datum b)
{
    const OperDesc *desc = tdb_oper_lookup(op, NUMERICOID, NUMERICOID);

    if (desc == NULL)
        elog(ERROR, "numeric operator %s is missing", op);
    return tdb_direct_call2(desc->fn, a, b);
}
