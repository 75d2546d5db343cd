/*
 * interval_parse.c -- reading interval text the way PostgreSQL 15 reads
 * it: the postgres form ("1 year 2 mons 3 days 04:05:06", "@ 1 minute
 * ago"), the SQL-standard forms ("1-2", "3 4:05:06", "-1 2:03:04") and
 * ISO 8601 ("P1Y2M3DT4H5M6S", "P0001-02-03T04:05:06").
 *
 *   text --tdb_dt_parse_fields--> fields --tdb_dt_decode_interval---+
 *     |    (datetime_parse.c)                                        |
 *     |                                                              v
 *     +--tdb_dt_decode_iso8601_interval--------------------> IntervalInput
 *
 * The postgres and SQL-standard forms share the first stage with dates
 * and times; tdb_dt_decode_interval then reads the fields right to left,
 * so that each number meets its unit first.  A number with no unit takes
 * the unit the field to its right implies (a time field makes it days),
 * or at the right end the one the typmod's range implies ('1'::interval
 * day is a day).  ISO 8601 is read from the text itself, which interval
 * input (interval.c) tries when the fields do not decode.
 *
 * Both add each field into an IntervalInput (microseconds, days, months,
 * years), every step checked for overflow (DTERR_FIELD_OVERFLOW), and
 * carry fractions down: a fraction of a year becomes whole months
 * (rounded; the rest is dropped), a fraction of a month (30 days) or a
 * week becomes days, and what is left of a day becomes microseconds.
 *
 * Quirks kept on purpose because PostgreSQL 15 has them: "ago" anywhere
 * in an interval negates all of it; with IntervalStyle sql_standard a
 * leading '-' applies to every field when no other field has a sign.
 *
 * Results are 0 or a DTERR_* code; the caller raises the error
 * (tdb_dt_parse_error).  Shared with datetime_parse.c, through
 * datetime.h: the units keyword table (tdb_dt_decode_units),
 * tdb_dt_decode_time_fields, and the C-locale character classes and
 * number helpers (dt_isdigit, dt_strtoint, dt_parse_fraction).
 *
 * Entry points (datetime.h): tdb_dt_decode_interval,
 * tdb_dt_decode_iso8601_interval.
 */
#include "common/base.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "types/datetime.h"
#include "types/typeio.h"

/* ----------------------------------------------------------------------
 * Adding to an IntervalInput, every step checked for overflow
 * ---------------------------------------------------------------------- */

/* itm_in->tm_usec += frac * scale, rounded to the microsecond. */
static bool
adjust_fract_microseconds(double frac, int64 scale, IntervalInput *itm_in)
{
    int64 usec;

    if (frac == 0)
        return true;
    frac *= scale;
    usec = (int64)frac;
    frac -= usec;
    if (frac > 0.5)
        usec++;
    else if (frac < -0.5)
        usec--;
    return !__builtin_add_overflow(itm_in->tm_usec, usec, &itm_in->tm_usec);
}

/* frac * scale days: whole days to tm_mday, the rest to tm_usec. */
static bool
adjust_fract_days(double frac, int scale, IntervalInput *itm_in)
{
    int extra_days;

    if (frac == 0)
        return true;
    frac *= scale;
    extra_days = (int)frac;
    if (__builtin_add_overflow(itm_in->tm_mday, extra_days, &itm_in->tm_mday))
        return false;
    frac -= extra_days;
    return adjust_fract_microseconds(frac, USECS_PER_DAY, itm_in);
}

/* frac * scale years as whole months (rounded); the rest is dropped. */
static bool
adjust_fract_years(double frac, int scale, IntervalInput *itm_in)
{
    int extra_months = (int)rint(frac * scale * MONTHS_PER_YEAR);

    return !__builtin_add_overflow(itm_in->tm_mon, extra_months,
                                   &itm_in->tm_mon);
}

/* (val + fval) * scale microseconds. */
static bool
adjust_microseconds(int64 val, double fval, int64 scale,
                    IntervalInput *itm_in)
{
    int64 product;

    if (__builtin_mul_overflow(val, scale, &product) ||
        __builtin_add_overflow(itm_in->tm_usec, product, &itm_in->tm_usec))
        return false;
    return adjust_fract_microseconds(fval, scale, itm_in);
}

static bool
adjust_days(int64 val, int scale, IntervalInput *itm_in)
{
    int days;

    if (val < INT_MIN || val > INT_MAX)
        return false;
    return !__builtin_mul_overflow((int32)val, scale, &days) &&
           !__builtin_add_overflow(itm_in->tm_mday, days, &itm_in->tm_mday);
}

static bool
adjust_months(int64 val, IntervalInput *itm_in)
{
    if (val < INT_MIN || val > INT_MAX)
        return false;
    return !__builtin_add_overflow(itm_in->tm_mon, (int32)val,
                                   &itm_in->tm_mon);
}

static bool
adjust_years(int64 val, int scale, IntervalInput *itm_in)
{
    int years;

    if (val < INT_MIN || val > INT_MAX)
        return false;
    return !__builtin_mul_overflow((int32)val, scale, &years) &&
           !__builtin_add_overflow(itm_in->tm_year, years, &itm_in->tm_year);
}

static void
clear_itm_in(IntervalInput *itm_in)
{
    itm_in->tm_usec = 0;
    itm_in->tm_mday = 0;
    itm_in->tm_mon = 0;
    itm_in->tm_year = 0;
}

/* ----------------------------------------------------------------------
 * The postgres and SQL-standard forms
 * ---------------------------------------------------------------------- */

/* A time field of an interval, into itm_in->tm_usec (replacing it). */
static int
decode_time_for_interval(char *str, int range, int *tmask,
                         IntervalInput *itm_in)
{
    TimeFields tf;
    int dterr = tdb_dt_decode_time_fields(str, range, tmask, &tf);
    int64 usec = tf.usec;
    int64 part;

    if (dterr)
        return dterr;
    if (__builtin_mul_overflow(tf.hour, USECS_PER_HOUR, &part) ||
        __builtin_add_overflow(usec, part, &usec) ||
        __builtin_add_overflow(usec, tf.min * USECS_PER_MINUTE, &usec) ||
        __builtin_add_overflow(usec, tf.sec * USECS_PER_SEC, &usec))
        return DTERR_FIELD_OVERFLOW;
    itm_in->tm_usec = usec;
    return 0;
}

/* The unit a bare number means at the right end of an interval typmod's
 * range ("'1'::interval day" is a day). */
static int
unit_for_range(int range)
{
    switch (range) {
    case INTERVAL_MASK(DTF_YEAR):
        return DTK_YEAR;
    case INTERVAL_MASK(DTF_MONTH):
    case INTERVAL_MASK(DTF_YEAR) | INTERVAL_MASK(DTF_MONTH):
        return DTK_MONTH;
    case INTERVAL_MASK(DTF_DAY):
        return DTK_DAY;
    case INTERVAL_MASK(DTF_HOUR):
    case INTERVAL_MASK(DTF_DAY) | INTERVAL_MASK(DTF_HOUR):
        return DTK_HOUR;
    case INTERVAL_MASK(DTF_MINUTE):
    case INTERVAL_MASK(DTF_HOUR) | INTERVAL_MASK(DTF_MINUTE):
    case INTERVAL_MASK(DTF_DAY) | INTERVAL_MASK(DTF_HOUR) |
        INTERVAL_MASK(DTF_MINUTE):
        return DTK_MINUTE;
    default:
        return DTK_SECOND;
    }
}

/*
 * SQL-standard style reads '-1 2:03:04' as minus (1 day 2:03:04) and
 * '-23 hours 45 min' as minus (23 hours 45 min): with IntervalStyle
 * sql_standard, PostgreSQL applies a leading '-' to every field when no
 * later field carries a sign of its own (postgres-style output always
 * signs the fields after a negative one, so that output still reads
 * back).  Each field is negated as it is read, before it is added, so
 * that mixed units come out right.
 */
static bool
leading_sign_applies_to_all(char **field, int nf)
{
    if (tdb_typeio()->interval_style != INTSTYLE_SQL_STANDARD || nf == 0 ||
        field[0][0] != '-')
        return false;
    for (int i = 1; i < nf; i++)
        if (field[i][0] == '-' || field[i][0] == '+')
            return false;
    return true;
}

/*
 * Decode the fields of an interval (postgres and SQL-standard forms:
 * "1 year 2 mons", "1-2", "3 04:05:06", "@ 1 minute ago").  The fields
 * are read right to left so that each number meets its unit first; a
 * number with no unit takes the unit that the field to its right
 * implies (a time field makes it days), or at the right end the one the
 * typmod's range implies.
 */
int
tdb_dt_decode_interval(char **field, int *ftype, int nf, int range,
                       int *dtype, IntervalInput *itm_in)
{
    bool is_before = false;
    bool force_negative;
    char *cp;
    int fmask = 0;
    int tmask;
    int type = DTF_IGNORE;
    int uval;
    int dterr;
    int64 val;
    double fval;

    *dtype = DTK_DELTA;
    clear_itm_in(itm_in);
    force_negative = leading_sign_applies_to_all(field, nf);

    for (int i = nf - 1; i >= 0; i--) {
        switch (ftype[i]) {
        case DTK_TIME:
            dterr = decode_time_for_interval(field[i], range, &tmask, itm_in);
            if (dterr)
                return dterr;
            if (force_negative && itm_in->tm_usec > 0)
                itm_in->tm_usec = -itm_in->tm_usec;
            type = DTK_DAY;
            break;

        case DTK_TZ:
            /* a signed hh:mm[:ss] is a signed time field */
            if (strchr(field[i] + 1, ':') != NULL &&
                decode_time_for_interval(field[i] + 1, range, &tmask,
                                         itm_in) == 0) {
                if (*field[i] == '-') {
                    if (itm_in->tm_usec == INT64_MIN)
                        return DTERR_FIELD_OVERFLOW;
                    itm_in->tm_usec = -itm_in->tm_usec;
                }
                type = DTK_DAY;
                break;
            }
            /* otherwise a signed number or year-month */
            TDB_FALLTHROUGH;

        case DTK_DATE:
        case DTK_NUMBER:
            if (type == DTF_IGNORE)
                type = unit_for_range(range);

            errno = 0;
            val = strtoll(field[i], &cp, 10);
            if (errno == ERANGE)
                return DTERR_FIELD_OVERFLOW;

            if (*cp == '-') {
                /* SQL year-month: "1-2" */
                int val2;

                val2 = dt_strtoint(cp + 1, &cp, 10);
                if (errno == ERANGE || val2 < 0 || val2 >= MONTHS_PER_YEAR)
                    return DTERR_FIELD_OVERFLOW;
                if (*cp != '\0')
                    return DTERR_BAD_FORMAT;
                type = DTK_MONTH;
                if (*field[i] == '-')
                    val2 = -val2;
                if (__builtin_mul_overflow(val, (int64)MONTHS_PER_YEAR, &val) ||
                    __builtin_add_overflow(val, (int64)val2, &val))
                    return DTERR_FIELD_OVERFLOW;
                fval = 0;
            } else if (*cp == '.') {
                dterr = dt_parse_fraction(cp, &fval);
                if (dterr)
                    return dterr;
                if (*field[i] == '-')
                    fval = -fval;
            } else if (*cp == '\0')
                fval = 0;
            else
                return DTERR_BAD_FORMAT;
            if (force_negative) {
                if (val > 0)
                    val = -val;
                if (fval > 0)
                    fval = -fval;
            }

            tmask = 0;
            switch (type) {
            case DTK_MICROSEC:
                if (!adjust_microseconds(val, fval, 1, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                tmask = DTK_M(DTF_MICROSECOND);
                break;
            case DTK_MILLISEC:
                if (!adjust_microseconds(val, fval, 1000, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                tmask = DTK_M(DTF_MILLISECOND);
                break;
            case DTK_SECOND:
                if (!adjust_microseconds(val, fval, USECS_PER_SEC, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                /* a fraction counts as milli- and microseconds too */
                tmask = fval == 0 ? DTK_M(DTF_SECOND) : DTK_ALL_SECS_M;
                break;
            case DTK_MINUTE:
                if (!adjust_microseconds(val, fval, USECS_PER_MINUTE, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                tmask = DTK_M(DTF_MINUTE);
                break;
            case DTK_HOUR:
                if (!adjust_microseconds(val, fval, USECS_PER_HOUR, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                tmask = DTK_M(DTF_HOUR);
                type = DTK_DAY; /* for the next field to the left */
                break;
            case DTK_DAY:
                if (!adjust_days(val, 1, itm_in) ||
                    !adjust_fract_microseconds(fval, USECS_PER_DAY, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                tmask = DTK_M(DTF_DAY);
                break;
            case DTK_WEEK:
                if (!adjust_days(val, 7, itm_in) ||
                    !adjust_fract_days(fval, 7, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                tmask = DTK_M(DTF_WEEK);
                break;
            case DTK_MONTH:
                if (!adjust_months(val, itm_in) ||
                    !adjust_fract_days(fval, DAYS_PER_MONTH, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                tmask = DTK_M(DTF_MONTH);
                break;
            case DTK_YEAR:
                if (!adjust_years(val, 1, itm_in) ||
                    !adjust_fract_years(fval, 1, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                tmask = DTK_M(DTF_YEAR);
                break;
            case DTK_DECADE:
                if (!adjust_years(val, 10, itm_in) ||
                    !adjust_fract_years(fval, 10, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                tmask = DTK_M(DTF_DECADE);
                break;
            case DTK_CENTURY:
                if (!adjust_years(val, 100, itm_in) ||
                    !adjust_fract_years(fval, 100, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                tmask = DTK_M(DTF_CENTURY);
                break;
            case DTK_MILLENNIUM:
                if (!adjust_years(val, 1000, itm_in) ||
                    !adjust_fract_years(fval, 1000, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                tmask = DTK_M(DTF_MILLENNIUM);
                break;
            default:
                return DTERR_BAD_FORMAT;
            }
            break;

        case DTK_STRING:
        case DTK_SPECIAL:
            type = tdb_dt_decode_units(field[i], &uval);
            if (type == DTF_IGNORE)
                continue;
            tmask = 0;
            switch (type) {
            case DTF_UNITS:
                type = uval;
                break;
            case DTF_AGO:
                is_before = true;
                type = uval;
                break;
            default:
                return DTERR_BAD_FORMAT;
            }
            break;

        default:
            return DTERR_BAD_FORMAT;
        }

        if (tmask & fmask)
            return DTERR_BAD_FORMAT;
        fmask |= tmask;
    }

    /* at least one field */
    if (fmask == 0)
        return DTERR_BAD_FORMAT;

    if (is_before) {
        if (itm_in->tm_usec == INT64_MIN || itm_in->tm_mday == INT_MIN ||
            itm_in->tm_mon == INT_MIN || itm_in->tm_year == INT_MIN)
            return DTERR_FIELD_OVERFLOW;
        itm_in->tm_usec = -itm_in->tm_usec;
        itm_in->tm_mday = -itm_in->tm_mday;
        itm_in->tm_mon = -itm_in->tm_mon;
        itm_in->tm_year = -itm_in->tm_year;
    }
    return 0;
}

/* ----------------------------------------------------------------------
 * ISO 8601
 * ---------------------------------------------------------------------- */

/*
 * One number of an ISO 8601 interval (strtod syntax, |value| <= 1e15),
 * split into its integer part and fraction.
 */
static int
parse_iso8601_number(char *str, char **endptr, int64 *ipart, double *fpart)
{
    double val;

    if (!(dt_isdigit(*str) || *str == '-' || *str == '.'))
        return DTERR_BAD_FORMAT;
    errno = 0;
    val = strtod(str, endptr);
    if (*endptr == str || errno != 0)
        return DTERR_BAD_FORMAT;
    if (isnan(val) || val < -1.0e15 || val > 1.0e15)
        return DTERR_FIELD_OVERFLOW;
    if (val >= 0)
        *ipart = (int64)floor(val);
    else
        *ipart = (int64)-floor(-val);
    *fpart = val - (double)*ipart;
    return 0;
}

/* Digits before any fraction, after an optional '-'. */
static int
iso8601_integer_width(const char *fieldstart)
{
    if (*fieldstart == '-')
        fieldstart++;
    return (int)strspn(fieldstart, "0123456789");
}

/*
 * An ISO 8601 interval: "P1Y2M3DT4H5M6S" (designators; a week may mix
 * with the others, and any field may have a fraction), or the
 * alternative "P0001-02-03T04:05:06" / "P00010203T040506".  Returns
 * DTERR_BAD_FORMAT for anything that does not look like one.
 */
int
tdb_dt_decode_iso8601_interval(char *str, int *dtype, IntervalInput *itm_in)
{
    bool datepart = true;
    bool havefield = false;

    *dtype = DTK_DELTA;
    clear_itm_in(itm_in);
    if (strlen(str) < 2 || str[0] != 'P')
        return DTERR_BAD_FORMAT;
    str++;
    while (*str) {
        char *fieldstart;
        int64 val;
        double fval;
        char unit;
        int dterr;

        if (*str == 'T') {
            datepart = false;
            havefield = false;
            str++;
            continue;
        }
        fieldstart = str;
        dterr = parse_iso8601_number(str, &str, &val, &fval);
        if (dterr)
            return dterr;
        /* may be the terminating NUL: every path below stops on it */
        unit = *str++;

        if (datepart) {
            switch (unit) {
            case 'Y':
                if (!adjust_years(val, 1, itm_in) ||
                    !adjust_fract_years(fval, 1, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                break;
            case 'M':
                if (!adjust_months(val, itm_in) ||
                    !adjust_fract_days(fval, DAYS_PER_MONTH, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                break;
            case 'W':
                if (!adjust_days(val, 7, itm_in) ||
                    !adjust_fract_days(fval, 7, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                break;
            case 'D':
                if (!adjust_days(val, 1, itm_in) ||
                    !adjust_fract_microseconds(fval, USECS_PER_DAY, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                break;
            case 'T':
            case '\0':
                /* basic alternative format: YYYYMMDD */
                if (iso8601_integer_width(fieldstart) == 8 && !havefield) {
                    if (!adjust_years(val / 10000, 1, itm_in) ||
                        !adjust_months((val / 100) % 100, itm_in) ||
                        !adjust_days(val % 100, 1, itm_in) ||
                        !adjust_fract_microseconds(fval, USECS_PER_DAY,
                                                   itm_in))
                        return DTERR_FIELD_OVERFLOW;
                    if (unit == '\0')
                        return 0;
                    datepart = false;
                    havefield = false;
                    continue;
                }
                TDB_FALLTHROUGH;
            case '-':
                /* extended alternative format: YYYY-MM-DD */
                if (havefield)
                    return DTERR_BAD_FORMAT;
                if (!adjust_years(val, 1, itm_in) ||
                    !adjust_fract_years(fval, 1, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                if (unit == '\0')
                    return 0;
                if (unit == 'T') {
                    datepart = false;
                    havefield = false;
                    continue;
                }
                dterr = parse_iso8601_number(str, &str, &val, &fval);
                if (dterr)
                    return dterr;
                if (!adjust_months(val, itm_in) ||
                    !adjust_fract_days(fval, DAYS_PER_MONTH, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                if (*str == '\0')
                    return 0;
                if (*str == 'T') {
                    datepart = false;
                    havefield = false;
                    continue;
                }
                if (*str != '-')
                    return DTERR_BAD_FORMAT;
                str++;
                dterr = parse_iso8601_number(str, &str, &val, &fval);
                if (dterr)
                    return dterr;
                if (!adjust_days(val, 1, itm_in) ||
                    !adjust_fract_microseconds(fval, USECS_PER_DAY, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                if (*str == '\0')
                    return 0;
                if (*str == 'T') {
                    datepart = false;
                    havefield = false;
                    continue;
                }
                return DTERR_BAD_FORMAT;
            default:
                return DTERR_BAD_FORMAT;
            }
        } else {
            switch (unit) {
            case 'H':
                if (!adjust_microseconds(val, fval, USECS_PER_HOUR, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                break;
            case 'M':
                if (!adjust_microseconds(val, fval, USECS_PER_MINUTE, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                break;
            case 'S':
                if (!adjust_microseconds(val, fval, USECS_PER_SEC, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                break;
            case '\0':
                /* basic alternative format: HHMMSS */
                if (iso8601_integer_width(fieldstart) == 6 && !havefield) {
                    if (!adjust_microseconds(val / 10000, 0, USECS_PER_HOUR,
                                             itm_in) ||
                        !adjust_microseconds((val / 100) % 100, 0,
                                             USECS_PER_MINUTE, itm_in) ||
                        !adjust_microseconds(val % 100, 0, USECS_PER_SEC,
                                             itm_in) ||
                        !adjust_fract_microseconds(fval, 1, itm_in))
                        return DTERR_FIELD_OVERFLOW;
                    return 0;
                }
                TDB_FALLTHROUGH;
            case ':':
                /* extended alternative format: HH:MM:SS */
                if (havefield)
                    return DTERR_BAD_FORMAT;
                if (!adjust_microseconds(val, fval, USECS_PER_HOUR, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                if (unit == '\0')
                    return 0;
                dterr = parse_iso8601_number(str, &str, &val, &fval);
                if (dterr)
                    return dterr;
                if (!adjust_microseconds(val, fval, USECS_PER_MINUTE, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                if (*str == '\0')
                    return 0;
                if (*str != ':')
                    return DTERR_BAD_FORMAT;
                str++;
                dterr = parse_iso8601_number(str, &str, &val, &fval);
                if (dterr)
                    return dterr;
                if (!adjust_microseconds(val, fval, USECS_PER_SEC, itm_in))
                    return DTERR_FIELD_OVERFLOW;
                if (*str == '\0')
                    return 0;
                return DTERR_BAD_FORMAT;
            default:
                return DTERR_BAD_FORMAT;
            }
        }
        havefield = true;
    }
    return 0;
}
