/*
 * datetime_encode.c -- writing dates, times, timestamps and intervals as
 * PostgreSQL 15 prints them with DateStyle 'ISO, MDY' and IntervalStyle
 * 'postgres':
 *
 *   date         2024-03-01, 0044-03-15 BC (years zero-padded to four
 *                digits; year 0 is 1 BC)
 *   time         12:34:56, 12:34:56.789 (fraction without trailing zeros)
 *   timestamp    2024-03-01 12:34:56.789
 *   timestamptz  2024-03-01 12:34:56.789+00 (offset as +hh, +hh:mm or
 *                +hh:mm:ss)
 *   interval     1 year 2 mons 3 days 04:05:06, -1 days +02:00:00,
 *                00:00:00 for zero
 *
 * Callers pass a buffer of at least MAXDATELEN + 1 bytes.
 */
#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>

#include "types/datetime.h"

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

static char *
append_iso_date(char *str, const DtTm *tm)
{
    str = append_zeropad(str, display_year(tm->tm_year), 4);
    *str++ = '-';
    str = append_zeropad(str, tm->tm_mon, 2);
    *str++ = '-';
    return append_zeropad(str, tm->tm_mday, 2);
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
tdb_dt_encode_date(const DtTm *tm, char *str)
{
    Assert(tm->tm_mon >= 1 && tm->tm_mon <= MONTHS_PER_YEAR);
    finish_bc(append_iso_date(str, tm), tm);
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

void
tdb_dt_encode_datetime(const DtTm *tm, fsec_t fsec, bool print_tz, int tz,
                       char *str)
{
    Assert(tm->tm_mon >= 1 && tm->tm_mon <= MONTHS_PER_YEAR);
    /* no zone known: none printed */
    if (tm->tm_isdst < 0)
        print_tz = false;
    str = append_iso_date(str, tm);
    *str++ = ' ';
    str = append_zeropad(str, tm->tm_hour, 2);
    *str++ = ':';
    str = append_zeropad(str, tm->tm_min, 2);
    *str++ = ':';
    str = append_seconds(str, tm->tm_sec, fsec, MAX_TIMESTAMP_PRECISION, true);
    if (print_tz)
        str = append_timezone(str, tz);
    finish_bc(str, tm);
}

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

void
tdb_dt_encode_interval(const IntervalFields *itm, char *str)
{
    char *cp = str;
    int64 hour = itm->tm_hour;
    int min = itm->tm_min;
    int sec = itm->tm_sec;
    int fsec = itm->tm_usec;
    bool is_before = false;
    bool is_zero = true;

    cp = append_interval_part(cp, itm->tm_year, "year", &is_zero, &is_before);
    /* "mon", not "month", for compatibility (as PostgreSQL) */
    cp = append_interval_part(cp, itm->tm_mon, "mon", &is_zero, &is_before);
    cp = append_interval_part(cp, itm->tm_mday, "day", &is_zero, &is_before);
    if (is_zero || hour != 0 || min != 0 || sec != 0 || fsec != 0) {
        bool minus = hour < 0 || min < 0 || sec < 0 || fsec < 0;

        cp += sprintf(cp, "%s%s%02lld:%02d:", is_zero ? "" : " ",
                      minus ? "-" : (is_before ? "+" : ""),
                      (long long)(hour < 0 ? -hour : hour), abs(min));
        cp = append_seconds(cp, sec, fsec, MAX_INTERVAL_PRECISION, true);
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
