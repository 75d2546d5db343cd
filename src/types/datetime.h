/*
 * datetime.h -- internal interface of the date/time type family: date,
 * time, timestamp, timestamptz and interval (datetime.c,
 * datetime_parse.c, interval_parse.c, datetime_encode.c, datetime_tz.c,
 * date.c, timestamp.c, interval.c, datetime_tochar.c), also read by the
 * types/ files that handle those values for others (series.c's
 * generate_series over timestamps, sendrecv.c's binary forms, typeio.c's
 * settings) and by the family's unit tests.  Other layers reach the types
 * through the registry (types/builtins.h).
 *
 * Stored forms, as PostgreSQL stores them (tupledb stores PostgreSQL's
 * tuple format):
 *
 *   date         int4, days since 2000-01-01; INT32_MIN is -infinity,
 *                INT32_MAX is infinity
 *   time         int8, microseconds since midnight, 0 .. 86400000000
 *                (24:00:00 is allowed)
 *   timestamp    int8, microseconds since 2000-01-01 00:00:00;
 *                INT64_MIN is -infinity, INT64_MAX is infinity
 *   timestamptz  the same, counted in UTC
 *   interval     16 bytes, by reference, align 'd':
 *                  offset 0  int64 time   microseconds
 *                  offset 8  int32 day
 *                  offset 12 int32 month
 *
 * The session settings that shape PostgreSQL's behaviour -- TimeZone,
 * DateStyle, IntervalStyle -- and the transaction's start time come from
 * the thread's TypeIOSettings (types/typeio.h): a timestamptz is broken
 * down in the session zone (with its daylight-saving rules), input
 * without a zone is read in it, dates are read in DateStyle's field
 * order and everything is printed in DateStyle's / IntervalStyle's
 * format.  'now', 'today' and now() are the transaction's start.
 *
 * Calendar arithmetic goes through Julian day numbers (date2j/j2date),
 * which work for every day from 4714-11-24 BC up to year 5874897.  A
 * broken-down time is a DtTm: tm_year is the real year (1 BC is 0,
 * 2 BC is -1), tm_mon 1..12; fractional seconds travel separately as
 * fsec_t microseconds.
 */
#ifndef TDB_TYPES_DATETIME_H
#define TDB_TYPES_DATETIME_H

#include "common/base.h"

#include <errno.h>
#include <stdlib.h>

#include "types/fmgr.h"

typedef int32 DateADT;
typedef int64 TimeADT;
typedef int64 Timestamp;
typedef int64 TimestampTz;
typedef int64 TimeOffset;
typedef int32 fsec_t; /* fractional seconds, in microseconds */

/* A time zone: transitions and offset types (datetime_tz.c). */
typedef struct DtZone DtZone;

typedef struct Interval {
    TimeOffset time; /* all time units other than days, months, years */
    int32 day;       /* days, after time for alignment */
    int32 month;     /* months and years, after time for alignment */
} Interval;

_Static_assert(sizeof(Interval) == 16, "interval is 16 bytes on disk");

/* ----- units ----- */

#define DAYS_PER_YEAR 365.25 /* assumes leap year every four years */
#define MONTHS_PER_YEAR 12
#define DAYS_PER_MONTH 30 /* what an interval's month counts as */
#define HOURS_PER_DAY 24
#define SECS_PER_YEAR (36525 * 864) /* avoids floating point */
#define SECS_PER_DAY 86400
#define SECS_PER_HOUR 3600
#define SECS_PER_MINUTE 60
#define MINS_PER_HOUR 60
#define USECS_PER_DAY INT64_C(86400000000)
#define USECS_PER_HOUR INT64_C(3600000000)
#define USECS_PER_MINUTE INT64_C(60000000)
#define USECS_PER_SEC INT64_C(1000000)

#define MAX_TIMESTAMP_PRECISION 6
#define MAX_INTERVAL_PRECISION 6
#define MAX_TIME_PRECISION 6

/* ----- infinities ----- */

#define DATEVAL_NOBEGIN ((DateADT)INT32_MIN)
#define DATEVAL_NOEND ((DateADT)INT32_MAX)
#define DATE_NOT_FINITE(d) ((d) == DATEVAL_NOBEGIN || (d) == DATEVAL_NOEND)
#define DT_NOBEGIN INT64_MIN
#define DT_NOEND INT64_MAX
#define TIMESTAMP_IS_NOBEGIN(t) ((t) == DT_NOBEGIN)
#define TIMESTAMP_IS_NOEND(t) ((t) == DT_NOEND)
#define TIMESTAMP_NOT_FINITE(t)                                             \
    (TIMESTAMP_IS_NOBEGIN(t) || TIMESTAMP_IS_NOEND(t))

/* ----- range limits (PostgreSQL's) ----- */

#define JULIAN_MINYEAR (-4713)
#define JULIAN_MINMONTH 11
#define JULIAN_MINDAY 24
#define JULIAN_MAXYEAR 5874898
#define JULIAN_MAXMONTH 6
#define JULIAN_MAXDAY 3

/* y/m/d within the range date2j handles (1 Nov 4714 BC on, so that a
 * date slightly before the first valid one can still be computed). */
#define IS_VALID_JULIAN(y, m, d)                                            \
    (((y) > JULIAN_MINYEAR ||                                               \
      ((y) == JULIAN_MINYEAR && ((m) >= JULIAN_MINMONTH))) &&               \
     ((y) < JULIAN_MAXYEAR ||                                               \
      ((y) == JULIAN_MAXYEAR && ((m) < JULIAN_MAXMONTH))))

#define DATETIME_MIN_JULIAN 0
#define DATE_END_JULIAN 2147483494      /* == date2j(JULIAN_MAXYEAR, 1, 1) */
#define TIMESTAMP_END_JULIAN 109203528  /* == date2j(294277, 1, 1) */

#define POSTGRES_EPOCH_JDATE 2451545 /* == date2j(2000, 1, 1) */
#define UNIX_EPOCH_JDATE 2440588     /* == date2j(1970, 1, 1) */

#define MIN_TIMESTAMP INT64_C(-211813488000000000)
#define END_TIMESTAMP INT64_C(9223371331200000000)
#define DATE_MIN_DAYS (DATETIME_MIN_JULIAN - POSTGRES_EPOCH_JDATE)
#define DATE_END_DAYS (DATE_END_JULIAN - POSTGRES_EPOCH_JDATE)

#define IS_VALID_DATE(d) (DATE_MIN_DAYS <= (d) && (d) < DATE_END_DAYS)
#define IS_VALID_TIMESTAMP(t) (MIN_TIMESTAMP <= (t) && (t) < END_TIMESTAMP)

/* ----- broken-down times ----- */

typedef struct DtTm {
    int tm_sec;
    int tm_min;
    int tm_hour;
    int tm_mday;
    int tm_mon;  /* 1..12 */
    int tm_year; /* the year itself; 0 is 1 BC */
    int tm_wday;
    int tm_yday;
    int tm_isdst; /* -1: no time zone known */
    const char *tm_zone; /* the zone's abbreviation ("EST"), or NULL;
                          * points into the zone, which outlives it */
} DtTm;

/* An interval broken down for output (hours may exceed a day). */
typedef struct IntervalFields {
    int64 tm_hour;
    int tm_min;
    int tm_sec;
    int tm_usec;
    int tm_mday;
    int tm_mon;
    int tm_year;
} IntervalFields;

/* An interval being read (each part range-checked as it is added). */
typedef struct IntervalInput {
    int64 tm_usec;
    int tm_mday;
    int tm_mon;
    int tm_year;
} IntervalInput;

/* ----- the parser's vocabulary ----- */

/* Field kinds that dt_parse_fields assigns, and reserved values. */
#define DTK_NUMBER 0
#define DTK_STRING 1
#define DTK_DATE 2
#define DTK_TIME 3
#define DTK_TZ 4
#define DTK_AGO 5
#define DTK_SPECIAL 6
#define DTK_EARLY 9
#define DTK_LATE 10
#define DTK_EPOCH 11
#define DTK_NOW 12
#define DTK_YESTERDAY 13
#define DTK_TODAY 14
#define DTK_TOMORROW 15
#define DTK_ZULU 16
#define DTK_DELTA 17
#define DTK_SECOND 18
#define DTK_MINUTE 19
#define DTK_HOUR 20
#define DTK_DAY 21
#define DTK_WEEK 22
#define DTK_MONTH 23
#define DTK_QUARTER 24
#define DTK_YEAR 25
#define DTK_DECADE 26
#define DTK_CENTURY 27
#define DTK_MILLENNIUM 28
#define DTK_MILLISEC 29
#define DTK_MICROSEC 30
#define DTK_JULIAN 31
#define DTK_DOW 32
#define DTK_DOY 33
#define DTK_TZ_HOUR 34
#define DTK_TZ_MINUTE 35
#define DTK_ISOYEAR 36
#define DTK_ISODOW 37

/*
 * Token classes of the keyword tables, also the bit numbers of the
 * field masks (which fields a string has supplied) and of interval
 * typmod ranges.
 */
#define DTF_RESERV 0
#define DTF_MONTH 1
#define DTF_YEAR 2
#define DTF_DAY 3
#define DTF_JULIAN 4
#define DTF_TZ 5
#define DTF_DTZ 6
#define DTF_DYNTZ 7
#define DTF_IGNORE 8
#define DTF_AMPM 9
#define DTF_HOUR 10
#define DTF_MINUTE 11
#define DTF_SECOND 12
#define DTF_MILLISECOND 13
#define DTF_MICROSECOND 14
#define DTF_DOY 15
#define DTF_DOW 16
#define DTF_UNITS 17
#define DTF_ADBC 18
#define DTF_AGO 19
#define DTF_ISOTIME 23
#define DTF_WEEK 24
#define DTF_DECADE 25
#define DTF_CENTURY 26
#define DTF_MILLENNIUM 27
#define DTF_DTZMOD 28
#define DTF_UNKNOWN 31

#define DTK_M(t) ((int)(0x01u << (t)))
#define DTK_ALL_SECS_M                                                      \
    (DTK_M(DTF_SECOND) | DTK_M(DTF_MILLISECOND) | DTK_M(DTF_MICROSECOND))
#define DTK_DATE_M (DTK_M(DTF_YEAR) | DTK_M(DTF_MONTH) | DTK_M(DTF_DAY))
#define DTK_TIME_M (DTK_M(DTF_HOUR) | DTK_M(DTF_MINUTE) | DTK_ALL_SECS_M)

/* Interval typmods: (range << 16) | precision, as PostgreSQL packs them. */
#define INTERVAL_MASK(b) (1 << (b))
#define INTERVAL_FULL_RANGE 0x7FFF
#define INTERVAL_RANGE_MASK 0x7FFF
#define INTERVAL_FULL_PRECISION 0xFFFF
#define INTERVAL_PRECISION_MASK 0xFFFF
#define INTERVAL_TYPMOD(p, r)                                               \
    ((int32)((((r) & INTERVAL_RANGE_MASK) << 16) |                          \
             ((p) & INTERVAL_PRECISION_MASK)))
#define INTERVAL_PRECISION(t) ((t) & INTERVAL_PRECISION_MASK)
#define INTERVAL_RANGE(t) (((t) >> 16) & INTERVAL_RANGE_MASK)

#define MAXDATELEN 128
#define MAXDATEFIELDS 25
#define TOKMAXLEN 10

/* Parser results: 0 is success, these are failures. */
#define DTERR_BAD_FORMAT (-1)
#define DTERR_FIELD_OVERFLOW (-2)
#define DTERR_MD_FIELD_OVERFLOW (-3) /* with a DateStyle hint */
#define DTERR_INTERVAL_OVERFLOW (-4)
#define DTERR_TZDISP_OVERFLOW (-5)
#define DTERR_BAD_TIMEZONE (-6)

/* ----- calendar (datetime.c) ----- */

extern const int tdb_dt_day_tab[2][13];
extern const char *const tdb_dt_months[];      /* "Jan" .. "Dec" */
extern const char *const tdb_dt_days[];        /* "Sunday" .. */
extern const char *const tdb_dt_months_full[]; /* "January" .. */

#define isleap(y) (((y) % 4) == 0 && (((y) % 100) != 0 || ((y) % 400) == 0))

int tdb_date2j(int year, int month, int day);
void tdb_j2date(int jd, int *year, int *month, int *day);
int tdb_j2day(int jd); /* 0..6 = Sunday..Saturday */
int tdb_date2isoweek(int year, int mon, int mday);
int tdb_date2isoyear(int year, int mon, int mday);
int tdb_date2isoyearday(int year, int mon, int mday);
int tdb_isoweek2j(int year, int week);
void tdb_isoweek2date(int woy, int *year, int *mon, int *mday);
void tdb_isoweekdate2date(int isoweek, int wday, int *year, int *mon,
                          int *mday);

/* Microseconds of a day into h/m/s/fsec. */
void tdb_dt2time(int64 jd, int *hour, int *min, int *sec, fsec_t *fsec);

/*
 * A timestamp broken down; false if out of range.  With tzp NULL the
 * value is taken as it is (a timestamp without time zone: tm_isdst -1,
 * tm_zone NULL).  Otherwise it is an instant shown in the session's
 * TimeZone: the fields are local time there, *tzp the zone's offset at
 * that instant (seconds west of UTC), tm_isdst and tm_zone (the
 * abbreviation, "EST") set as PostgreSQL's timestamp2tm sets them.
 */
bool tdb_timestamp2tm(Timestamp dt, int *tzp, DtTm *tm, fsec_t *fsec);

/* The same in zone (NULL: the session's TimeZone). */
bool tdb_timestamp2tm_zone(Timestamp dt, int *tzp, DtTm *tm, fsec_t *fsec,
                           const DtZone *zone);

/*
 * tm (plus the zone offset *tzp, seconds west of UTC, if not NULL) as a
 * timestamp; false if out of range.
 */
bool tdb_tm2timestamp(const DtTm *tm, fsec_t fsec, const int *tzp,
                      Timestamp *result);

/* A time of day as microseconds. */
TimeADT tdb_tm2time(const DtTm *tm, fsec_t fsec);

/* An interval's parts; the reverse conversions fail (false) on overflow. */
void tdb_interval2itm(const Interval *span, IntervalFields *itm);
bool tdb_itm2interval(const IntervalFields *itm, Interval *span);
bool tdb_itmin2interval(const IntervalInput *itm_in, Interval *span);

/* Does h:m:s.fsec exceed 24:00:00 or have a field out of range? */
bool tdb_time_overflows(int hour, int min, int sec, fsec_t fsec);
bool tdb_float_time_overflows(int hour, int min, double sec);

/*
 * v as PostgreSQL's printf prints "%g" (pad2: "%02g"): NaN, Infinity and
 * -Infinity are spelled out.  palloc'd.
 */
char *tdb_dt_format_g(double v, bool pad2);

/* The current time (CLOCK_REALTIME) as a timestamptz. */
TimestampTz tdb_dt_now(void);

/*
 * The current transaction's start (now(), 'now') and the current
 * command's arrival (statement_timestamp()), from the thread's
 * TypeIOSettings; the clock when no session set them.
 */
TimestampTz tdb_dt_xact_start(void);
TimestampTz tdb_dt_stmt_start(void);

/* The session's TimeZone (never NULL). */
const DtZone *tdb_dt_session_zone(void);

/*
 * A timestamp without time zone read as local time in the session zone,
 * as a timestamptz (PostgreSQL's timestamp2timestamptz); raises 22008
 * out of range.  Infinities carry over.
 */
TimestampTz tdb_dt_local_to_tz(Timestamp ts);

/* The reverse: the local time in the session zone of an instant. */
Timestamp tdb_dt_tz_to_local(TimestampTz ts);

/* The epoch, 1970-01-01 00:00:00, as a timestamp. */
#define EPOCH_TIMESTAMP                                                     \
    ((Timestamp)(UNIX_EPOCH_JDATE - POSTGRES_EPOCH_JDATE) * USECS_PER_DAY)

/* ----- parsing (datetime_parse.c) ----- */

int tdb_dt_parse_fields(const char *timestr, char *workbuf, size_t buflen,
                        char **field, int *ftype, int maxfields,
                        int *numfields);
int tdb_dt_decode_datetime(char **field, int *ftype, int nf, int *dtype,
                           DtTm *tm, fsec_t *fsec, int *tzp);
int tdb_dt_decode_timeonly(char **field, int *ftype, int nf, int *dtype,
                           DtTm *tm, fsec_t *fsec, int *tzp);
/* Intervals (interval_parse.c): the fields of the postgres and
 * SQL-standard forms, and ISO 8601 text. */
int tdb_dt_decode_interval(char **field, int *ftype, int nf, int range,
                           int *dtype, IntervalInput *itm_in);
int tdb_dt_decode_iso8601_interval(char *str, int *dtype,
                                   IntervalInput *itm_in);
int tdb_dt_validate_date(int fmask, bool isjulian, bool is2digits, bool bc,
                         DtTm *tm);
/* Keyword lookups (lower-case input): the token class; *val its value. */
int tdb_dt_decode_units(const char *lowtoken, int *val);
int tdb_dt_decode_special(const char *lowtoken, int *val);
/* Are the keyword tables sorted as the lookups need? (unit tests) */
bool tdb_dt_check_token_tables(void);

/*
 * Raise the error for parser result dterr on input str of the type
 * named datatype ("date", "timestamp with time zone", ...).
 */
TDB_NORETURN void tdb_dt_parse_error(int dterr, const char *str,
                                     const char *datatype);

/*
 * datetime.c: units of date_trunc/extract/date_part, the text lower-cased
 * (as PostgreSQL's downcase_truncate_identifier does, at most 63 bytes),
 * palloc'd.
 */
char *tdb_dt_lower_units(const varlena *units);

/* ----- between the parsers (datetime_parse.c, interval_parse.c) ----- */

/* Character classes of the C locale, and number parsing. */

static inline bool
dt_isdigit(char c)
{
    return c >= '0' && c <= '9';
}

static inline bool
dt_isalpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline bool
dt_isalnum(char c)
{
    return dt_isdigit(c) || dt_isalpha(c);
}

static inline bool
dt_isspace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
}

static inline bool
dt_ispunct(char c)
{
    unsigned char u = (unsigned char)c;

    return u > 0x20 && u < 0x7F && !dt_isalnum(c);
}

static inline char
dt_tolower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c;
}

/* strtol limited to int: errno ERANGE if it does not fit. */
static inline int
dt_strtoint(const char *str, char **end, int base)
{
    long val = strtol(str, end, base);

    if (val != (long)(int)val)
        errno = ERANGE;
    return (int)val;
}

/*
 * The fraction at cp ('.' then digits, to the end of the string); "."
 * alone is zero.
 */
static inline int
dt_parse_fraction(const char *cp, double *frac)
{
    Assert(*cp == '.');
    if (cp[1] == '\0') {
        *frac = 0;
        return 0;
    }
    {
        char *end;

        errno = 0;
        *frac = strtod(cp, &end);
        if (*end != '\0' || errno != 0)
            return DTERR_BAD_FORMAT;
    }
    return 0;
}

/* Hours, minutes, seconds of a time field ("12:34", "12:34:56.7"). */
typedef struct TimeFields {
    int64 hour;
    int min;
    int sec;
    fsec_t usec;
} TimeFields;

/*
 * Decode "hh:mm[:ss[.fff]]" (or "mm:ss.fff", and "mm:ss" when range, an
 * interval typmod's range, is MINUTE TO SECOND) into *tf; *tmask gets
 * DTK_TIME_M.  Returns 0 or a DTERR code; the caller checks the hour's
 * range (datetime_parse.c).
 */
int tdb_dt_decode_time_fields(char *str, int range, int *tmask,
                              TimeFields *tf);

/* ----- time zones (datetime_tz.c) ----- */

/*
 * The zone a name denotes, looked up as PostgreSQL's pg_tzset does (the
 * time zone database, then the POSIX TZ grammar), palloc'd; NULL if the
 * name is neither.
 */
const DtZone *tdb_dt_zone_load(const char *name);

/*
 * The same, and canon (TZ_STRLEN_MAX + 1 = 256 bytes, if not NULL)
 * receives the name PostgreSQL shows for the zone: the database's own
 * spelling of a file ("America/New_York"), a POSIX string upper-cased.
 */
const DtZone *tdb_dt_zone_lookup(const char *name, char *canon);

/*
 * The zone of AT TIME ZONE (PostgreSQL 15's timestamp_zone): an
 * abbreviation of the Default set by its lower-cased name lowname (a
 * fixed offset: returns true with *offset in seconds east of UTC), else
 * a zone -- one an abbreviation names, or name in the time zone database
 * or as a POSIX spec (*zone; returns false).  22023 if none.
 */
bool tdb_dt_decode_zone_name(const char *name, const char *lowname,
                             int *offset, const DtZone **zone);

/* A copy of zone in cxt (zones hold no pointers). */
DtZone *tdb_dt_zone_copy(const DtZone *zone, MemoryContext cxt);

/* UTC without reading a file (the default session zone). */
const DtZone *tdb_dt_zone_utc(void);

/* Did the zone's file list leap seconds (PostgreSQL refuses those)? */
bool tdb_dt_zone_has_leap_seconds(const DtZone *zone);

/*
 * The zone's offset (seconds EAST of UTC) at instant t (seconds since
 * 1970-01-01 UTC), PostgreSQL's localsub: *isdst and *abbrev (borrowed
 * from the zone) if not NULL.
 */
int tdb_dt_zone_utoff(const DtZone *zone, int64 t, bool *isdst,
                      const char **abbrev);

/* Does the zone always have the same offset?  *tz: it, seconds west. */
bool tdb_dt_zone_fixed_offset(const DtZone *zone, int *tz);

/*
 * The zone's offset (seconds west of UTC) at local time tm, and
 * tm->tm_isdst (PostgreSQL's DetermineTimeZoneOffset).
 */
int tdb_dt_zone_offset(DtTm *tm, const DtZone *zone);

/*
 * The offset abbreviation abbrev stands for in zone around local time tm
 * (PostgreSQL's DetermineTimeZoneAbbrevOffset), and tm->tm_isdst.
 */
int tdb_dt_zone_abbrev_offset(DtTm *tm, const char *abbrev,
                              const DtZone *zone);

/* ----- output (datetime_encode.c) ----- */

/*
 * Each writes a NUL-terminated string into str (MAXDATELEN + 1 bytes).
 * style and order are DateStyle's (DATESTYLE_*, DATEORDER_*), the
 * interval's style IntervalStyle's (INTSTYLE_*), all from typeio.h.  A
 * timestamptz passes print_tz with its offset tz (seconds west) and the
 * zone's abbreviation tzn (or NULL), which non-ISO styles print.
 */
void tdb_dt_encode_date(const DtTm *tm, int style, int order, char *str);
void tdb_dt_encode_time(const DtTm *tm, fsec_t fsec, char *str);
void tdb_dt_encode_datetime(const DtTm *tm, fsec_t fsec, bool print_tz,
                            int tz, const char *tzn, int style, int order,
                            char *str);
void tdb_dt_encode_interval(const IntervalFields *itm, int style, char *str);
void tdb_dt_encode_special_timestamp(Timestamp dt, char *str);
void tdb_dt_encode_special_date(DateADT dt, char *str);

/* ----- shared between the family's files ----- */

/* Errors with PostgreSQL's messages (all 22008 unless noted). */
TDB_NORETURN void tdb_dt_error_timestamp_range(void);
TDB_NORETURN void tdb_dt_error_date_range(void);
TDB_NORETURN void tdb_dt_error_interval_range(void);

/* date.c */
Timestamp tdb_date2timestamp(DateADT date);
TimestampTz tdb_date2timestamptz(DateADT date);
DateADT tdb_timestamp2date(Timestamp ts);
/* < 0, 0, > 0; a date past the timestamp range still compares. */
int32 tdb_date_cmp_timestamp(DateADT date, Timestamp ts);

/* timestamp.c */
Timestamp tdb_timestamp_pl_interval(Timestamp ts, const Interval *span);
Timestamp tdb_timestamp_mi_interval(Timestamp ts, const Interval *span);
/* timestamptz + span: months and days counted in the session zone. */
TimestampTz tdb_timestamptz_pl_interval(TimestampTz ts, const Interval *span);
/* timestamp <-> timestamptz (identical in UTC; the infinities carry). */
TimestampTz tdb_timestamp2timestamptz(Timestamp ts);
void tdb_adjust_timestamp_for_typmod(Timestamp *time, int32 typmod);

/* interval.c */
Interval *tdb_interval_palloc(void);
void tdb_interval_pl(const Interval *a, const Interval *b, Interval *r);
void tdb_interval_mi(const Interval *a, const Interval *b, Interval *r);
void tdb_interval_um(const Interval *a, Interval *r);
int tdb_interval_cmp_internal(const Interval *a, const Interval *b);
void tdb_adjust_interval_for_typmod(Interval *span, int32 typmod);

/* Read an Interval argument (it may sit at any address). */
static inline Interval
tdb_interval_get(Datum d)
{
    Interval v;

    memcpy(&v, DatumGetPointer(d), sizeof(v));
    return v;
}

/* An Interval result, palloc'd in the current memory context. */
Datum tdb_interval_datum(const Interval *v);

/*
 * numeric results through the registry's numeric family: the value
 * val / 10^scale with that display scale ("1.500000"), and the sum or
 * quotient of two numerics.
 */
Datum tdb_dt_numeric_scaled(int64 val, int scale);
Datum tdb_dt_numeric_binop(const char *op, Datum a, Datum b);

#endif /* TDB_TYPES_DATETIME_H */
