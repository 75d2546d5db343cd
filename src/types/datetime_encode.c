/*
 * datetime_encode.c -- writing dates, times, timestamps and intervals as
 * PostgreSQL 15 prints them, in each DateStyle and IntervalStyle
 * (types/typeio.h; the callers pass the style in force):
 *
 *   DateStyle  date          timestamp(tz)
 *   ISO        2024-03-01    2024-03-01 12:34:56.789-05
 *   SQL        03/01/2024    03/01/2024 12:34:56.789 EST
 *   Postgres   03-01-2024    Fri Mar 01 12:34:56.789 2024 EST
 *   German     01.03.2024    01.03.2024 12:34:56.789 EST
 *
 * with day and month swapped in SQL and Postgres styles when the field
 * order is DMY ("01/03/2024", "Fri 01 Mar ...").  Years are zero-padded
 * to four digits and 1 BC (year 0 inside) prints as "0001 ... BC".  The
 * ISO style writes a timestamptz's offset as +hh, +hh:mm or +hh:mm:ss;
 * the others write the zone's abbreviation when there is one.
 *
 *   IntervalStyle      1 year 2 months 3 days 04:05:06.5 ago
 *   postgres           -1 years -2 mons -3 days -04:05:06.5
 *   postgres_verbose   @ 1 year 2 mons 3 days 4 hours 5 mins 6.5 secs ago
 *   sql_standard       -1-2 3 4:05:06.5 (mixed signs: +/- on each part)
 *   iso_8601           P-1Y-2M-3DT-4H-5M-6.5S
 *
 * time is always hh:mm:ss[.ffffff].  Callers pass a buffer of at least
 * MAXDATELEN + 1 bytes.
 */
#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>

#include "types/datetime.h"
#include "types/typeio.h"

/* value zero-padded to at least width digits; returns the new end. */
static char *
append_zeropad(char *str, int64 value, int width)
{
    char digits[24];
    int n = snprintf(digits, sizeof(digits), "%llu",
                     (unsigned long long)value);

    for (int i = n; i < width; i++)
        *str++ = '0';
    memcpy(str, digits, (Size)n);
    return str + n;
}

/*
 * The seconds, then (if fsec is not zero) '.' and the fraction to
 * `precision` digits without trailing zeros.  Signs are dropped.
 * fillzeros: at least two digits of seconds.
 */
static char *
append_seconds(char *cp, int sec, fsec_t fsec, int precision, bool fillzeros)
{
    cp = append_zeropad(cp, (int64)abs(sec), fillzeros ? 2 : 1);
    if (fsec != 0) {
        int32 value = abs(fsec);
        char *end = &cp[precision + 1];
        bool gotnonzero = false;

        *cp++ = '.';
        /* digits are produced from the right: skip trailing zeros */
        while (precision--) {
            int32 oldval = value;
            int32 remainder;

            value /= 10;
            remainder = oldval - value * 10;
            if (remainder)
                gotnonzero = true;
            if (gotnonzero)
                cp[precision] = (char)('0' + remainder);
            else
                end = &cp[precision];
        }
        /* more digits than the precision: print them all */
        if (value)
            return cp + sprintf(cp, "%d", abs(fsec));
        return end;
    }
    return cp;
}

/* A zone offset (tz seconds west of UTC) as +hh[:mm[:ss]]. */
static char *
append_timezone(char *str, int tz)
{
    int sec = abs(tz);
    int min = sec / SECS_PER_MINUTE;
    int hour;

    sec -= min * SECS_PER_MINUTE;
    hour = min / MINS_PER_HOUR;
    min -= hour * MINS_PER_HOUR;
    *str++ = (tz <= 0 ? '+' : '-');
    str = append_zeropad(str, hour, 2);
    if (sec != 0) {
        *str++ = ':';
        str = append_zeropad(str, min, 2);
        *str++ = ':';
        str = append_zeropad(str, sec, 2);
    } else if (min != 0) {
        *str++ = ':';
        str = append_zeropad(str, min, 2);
    }
    return str;
}

/* The year as printed: 1 BC is year 0 inside, 0001 BC outside. */
static int
display_year(int year)
{
    return year > 0 ? year : -(year - 1);
}

/* Two two-digit fields joined by sep: day first in DMY order. */
static char *
append_day_month(char *str, const DtTm *tm, int order, char sep)
{
    bool day_first = order == DATEORDER_DMY;

    str = append_zeropad(str, day_first ? tm->tm_mday : tm->tm_mon, 2);
    *str++ = sep;
    return append_zeropad(str, day_first ? tm->tm_mon : tm->tm_mday, 2);
}

/* The date part of a date or timestamp in a style (not Postgres's
 * timestamp layout, which splits it around the time). */
static char *
append_date(char *str, const DtTm *tm, int style, int order)
{
    switch (style) {
    case DATESTYLE_SQL:
        str = append_day_month(str, tm, order, '/');
        *str++ = '/';
        break;
    case DATESTYLE_GERMAN:
        str = append_zeropad(str, tm->tm_mday, 2);
        *str++ = '.';
        str = append_zeropad(str, tm->tm_mon, 2);
        *str++ = '.';
        break;
    case DATESTYLE_POSTGRES:
        str = append_day_month(str, tm, order, '-');
        *str++ = '-';
        break;
    default: /* ISO */
        str = append_zeropad(str, display_year(tm->tm_year), 4);
        *str++ = '-';
        str = append_zeropad(str, tm->tm_mon, 2);
        *str++ = '-';
        return append_zeropad(str, tm->tm_mday, 2);
    }
    return append_zeropad(str, display_year(tm->tm_year), 4);
}

static char *
append_hms(char *str, const DtTm *tm, fsec_t fsec)
{
    str = append_zeropad(str, tm->tm_hour, 2);
    *str++ = ':';
    str = append_zeropad(str, tm->tm_min, 2);
    *str++ = ':';
    return append_seconds(str, tm->tm_sec, fsec, MAX_TIMESTAMP_PRECISION,
                          true);
}

static void
finish_bc(char *str, const DtTm *tm)
{
    if (tm->tm_year <= 0) {
        memcpy(str, " BC", 3);
        str += 3;
    }
    *str = '\0';
}

void
tdb_dt_encode_date(const DtTm *tm, int style, int order, char *str)
{
    Assert(tm->tm_mon >= 1 && tm->tm_mon <= MONTHS_PER_YEAR);
    finish_bc(append_date(str, tm, style, order), tm);
}

void
tdb_dt_encode_time(const DtTm *tm, fsec_t fsec, char *str)
{
    str = append_zeropad(str, tm->tm_hour, 2);
    *str++ = ':';
    str = append_zeropad(str, tm->tm_min, 2);
    *str++ = ':';
    str = append_seconds(str, tm->tm_sec, fsec, MAX_TIME_PRECISION, true);
    *str = '\0';
}

/* The zone after a non-ISO timestamp: " EST", else the offset. */
static char *
append_zone_name(char *str, int tz, const char *tzn, bool space_offset)
{
    if (tzn != NULL) {
        /* abbreviations are ASCII; PostgreSQL prints at most 10 bytes */
        Size n = strnlen(tzn, 10);

        *str++ = ' ';
        memcpy(str, tzn, n);
        return str + n;
    }
    if (space_offset)
        *str++ = ' ';
    return append_timezone(str, tz);
}

void
tdb_dt_encode_datetime(const DtTm *tm, fsec_t fsec, bool print_tz, int tz,
                       const char *tzn, int style, int order, char *str)
{
    Assert(tm->tm_mon >= 1 && tm->tm_mon <= MONTHS_PER_YEAR);
    /* no zone known: none printed */
    if (tm->tm_isdst < 0)
        print_tz = false;
    if (style == DATESTYLE_POSTGRES) {
        /* Fri Mar 01 12:34:56 2024 EST */
        int wday = tdb_j2day(tdb_date2j(tm->tm_year, tm->tm_mon,
                                        tm->tm_mday));
        const char *month = tdb_dt_months[tm->tm_mon - 1];

        memcpy(str, tdb_dt_days[wday], 3);
        str += 3;
        *str++ = ' ';
        if (order == DATEORDER_DMY) {
            str = append_zeropad(str, tm->tm_mday, 2);
            *str++ = ' ';
            memcpy(str, month, 3);
            str += 3;
        } else {
            memcpy(str, month, 3);
            str += 3;
            *str++ = ' ';
            str = append_zeropad(str, tm->tm_mday, 2);
        }
        *str++ = ' ';
        str = append_hms(str, tm, fsec);
        *str++ = ' ';
        str = append_zeropad(str, display_year(tm->tm_year), 4);
        if (print_tz)
            str = append_zone_name(str, tz, tzn, true);
    } else {
        str = append_date(str, tm, style, order);
        *str++ = ' ';
        str = append_hms(str, tm, fsec);
        if (print_tz) {
            if (style == DATESTYLE_ISO)
                str = append_timezone(str, tz);
            else
                str = append_zone_name(str, tz, tzn, false);
        }
    }
    finish_bc(str, tm);
}

/* ----------------------------------------------------------------------
 * Intervals
 * ---------------------------------------------------------------------- */

/*
 * One "N unit[s]" part of a postgres-style interval, if value is not
 * zero.  After a negative part, a positive one gets an explicit '+'
 * (only the part right after it: that is PostgreSQL's rule).
 */
static char *
append_interval_part(char *cp, int64 value, const char *units, bool *is_zero,
                     bool *is_before)
{
    if (value == 0)
        return cp;
    cp += sprintf(cp, "%s%s%lld %s%s", !*is_zero ? " " : "",
                  (*is_before && value > 0) ? "+" : "", (long long)value,
                  units, value != 1 ? "s" : "");
    *is_before = value < 0;
    *is_zero = false;
    return cp;
}

/*
 * One " N unit[s]" part of a postgres_verbose interval, if value is not
 * zero.  The first part's sign decides: a negative first part makes the
 * whole "... ago" and later parts print with their signs flipped.
 */
static char *
append_verbose_part(char *cp, int64 value, const char *units, bool *is_zero,
                    bool *is_before)
{
    if (value == 0)
        return cp;
    if (*is_zero) {
        *is_before = value < 0;
        if (value < 0)
            value = -value;
    } else if (*is_before)
        value = -value;
    cp += sprintf(cp, " %lld %s%s", (long long)value, units,
                  value != 1 ? "s" : "");
    *is_zero = false;
    return cp;
}

/* One "N<letter>" part of an ISO 8601 interval, if value is not zero. */
static char *
append_iso8601_part(char *cp, int64 value, char unit)
{
    if (value == 0)
        return cp;
    return cp + sprintf(cp, "%lld%c", (long long)value, unit);
}

/* hh:mm:ss[.f] of an interval (hours unpadded), signs dropped. */
static char *
append_sql_time(char *cp, int64 hour, int min, int sec, int fsec)
{
    cp += sprintf(cp, "%lld:%02d:", (long long)hour, min);
    return append_seconds(cp, sec, fsec, MAX_INTERVAL_PRECISION, true);
}

/*
 * SQL standard: "Y-M" for year-month intervals, "D H:MM:SS" for
 * day-time ones, with one leading '-' when all parts are negative.
 * Anything the standard cannot write (both kinds, or mixed signs)
 * prints every part with its own sign: "+1-2 -3 +4:05:06".
 */
static char *
encode_interval_sql(char *cp, const IntervalFields *itm)
{
    int64 year = itm->tm_year;
    int64 mon = itm->tm_mon;
    int64 mday = itm->tm_mday;
    int64 hour = itm->tm_hour;
    int64 min = itm->tm_min;
    int64 sec = itm->tm_sec;
    int64 fsec = itm->tm_usec;
    bool has_negative = year < 0 || mon < 0 || mday < 0 || hour < 0 ||
                        min < 0 || sec < 0 || fsec < 0;
    bool has_positive = year > 0 || mon > 0 || mday > 0 || hour > 0 ||
                        min > 0 || sec > 0 || fsec > 0;
    bool has_year_month = year != 0 || mon != 0;
    bool has_day_time =
        mday != 0 || hour != 0 || min != 0 || sec != 0 || fsec != 0;
    bool standard = !(has_negative && has_positive) &&
                    !(has_year_month && has_day_time);

    if (!has_negative && !has_positive)
        return cp + sprintf(cp, "0");
    if (!standard) {
        char ym_sign = (year < 0 || mon < 0) ? '-' : '+';
        char day_sign = mday < 0 ? '-' : '+';
        char time_sign =
            (hour < 0 || min < 0 || sec < 0 || fsec < 0) ? '-' : '+';

        cp += sprintf(cp, "%c%lld-%lld %c%lld %c", ym_sign,
                      (long long)llabs(year), (long long)llabs(mon),
                      day_sign, (long long)llabs(mday), time_sign);
        return append_sql_time(cp, llabs(hour), (int)llabs(min), (int)sec,
                               (int)fsec);
    }
    if (has_negative) {
        *cp++ = '-';
        year = -year;
        mon = -mon;
        mday = -mday;
        hour = -hour;
        min = -min;
        sec = -sec;
        fsec = -fsec;
    }
    if (has_year_month)
        return cp + sprintf(cp, "%lld-%lld", (long long)year, (long long)mon);
    if (mday != 0)
        cp += sprintf(cp, "%lld ", (long long)mday);
    return append_sql_time(cp, hour, (int)min, (int)sec, (int)fsec);
}

void
tdb_dt_encode_interval(const IntervalFields *itm, int style, char *str)
{
    char *cp = str;
    int64 hour = itm->tm_hour;
    int min = itm->tm_min;
    int sec = itm->tm_sec;
    int fsec = itm->tm_usec;
    bool is_before = false;
    bool is_zero = true;

    switch (style) {
    case INTSTYLE_SQL_STANDARD:
        cp = encode_interval_sql(cp, itm);
        break;
    case INTSTYLE_ISO_8601:
        if (itm->tm_year == 0 && itm->tm_mon == 0 && itm->tm_mday == 0 &&
            hour == 0 && min == 0 && sec == 0 && fsec == 0) {
            cp += sprintf(cp, "PT0S");
            break;
        }
        *cp++ = 'P';
        cp = append_iso8601_part(cp, itm->tm_year, 'Y');
        cp = append_iso8601_part(cp, itm->tm_mon, 'M');
        cp = append_iso8601_part(cp, itm->tm_mday, 'D');
        if (hour != 0 || min != 0 || sec != 0 || fsec != 0)
            *cp++ = 'T';
        cp = append_iso8601_part(cp, hour, 'H');
        cp = append_iso8601_part(cp, min, 'M');
        if (sec != 0 || fsec != 0) {
            if (sec < 0 || fsec < 0)
                *cp++ = '-';
            cp = append_seconds(cp, sec, fsec, MAX_INTERVAL_PRECISION, false);
            *cp++ = 'S';
        }
        break;
    case INTSTYLE_POSTGRES_VERBOSE:
        *cp++ = '@';
        cp = append_verbose_part(cp, itm->tm_year, "year", &is_zero,
                                 &is_before);
        cp = append_verbose_part(cp, itm->tm_mon, "mon", &is_zero,
                                 &is_before);
        cp = append_verbose_part(cp, itm->tm_mday, "day", &is_zero,
                                 &is_before);
        cp = append_verbose_part(cp, hour, "hour", &is_zero, &is_before);
        cp = append_verbose_part(cp, min, "min", &is_zero, &is_before);
        if (sec != 0 || fsec != 0) {
            *cp++ = ' ';
            if (sec < 0 || (sec == 0 && fsec < 0)) {
                if (is_zero)
                    is_before = true;
                else if (!is_before)
                    *cp++ = '-';
            } else if (is_before)
                *cp++ = '-';
            cp = append_seconds(cp, sec, fsec, MAX_INTERVAL_PRECISION, false);
            cp += sprintf(cp, " sec%s",
                          (abs(sec) != 1 || fsec != 0) ? "s" : "");
            is_zero = false;
        }
        if (is_zero)
            cp += sprintf(cp, " 0");
        if (is_before)
            cp += sprintf(cp, " ago");
        break;
    default: /* postgres */
        cp = append_interval_part(cp, itm->tm_year, "year", &is_zero,
                                  &is_before);
        /* "mon", not "month", for compatibility (as PostgreSQL) */
        cp = append_interval_part(cp, itm->tm_mon, "mon", &is_zero,
                                  &is_before);
        cp = append_interval_part(cp, itm->tm_mday, "day", &is_zero,
                                  &is_before);
        if (is_zero || hour != 0 || min != 0 || sec != 0 || fsec != 0) {
            bool minus = hour < 0 || min < 0 || sec < 0 || fsec < 0;

            cp += sprintf(cp, "%s%s%02lld:%02d:", is_zero ? "" : " ",
                          minus ? "-" : (is_before ? "+" : ""),
                          (long long)(hour < 0 ? -hour : hour), abs(min));
            cp = append_seconds(cp, sec, fsec, MAX_INTERVAL_PRECISION, true);
        }
        break;
    }
    *cp = '\0';
}

void
tdb_dt_encode_special_timestamp(Timestamp dt, char *str)
{
    Assert(TIMESTAMP_NOT_FINITE(dt));
    strcpy(str, TIMESTAMP_IS_NOBEGIN(dt) ? "-infinity" : "infinity");
}

void
tdb_dt_encode_special_date(DateADT dt, char *str)
{
    Assert(DATE_NOT_FINITE(dt));
    strcpy(str, dt == DATEVAL_NOBEGIN ? "-infinity" : "infinity");
}
