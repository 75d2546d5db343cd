/*
 * datetime_parse.c -- reading date, time and timestamp text the way
 * PostgreSQL 15 reads it; intervals are read in interval_parse.c, which
 * shares the first stage, the keyword tables and the error reports here.
 *
 * Input goes through two stages, as in PostgreSQL:
 *
 *   text --tdb_dt_parse_fields--> fields   ("2024-03-01", "12:34:56",
 *                                           "+02", "pm", ...), each with
 *                                           a kind (DTK_DATE, DTK_TIME,
 *                                           DTK_TZ, DTK_NUMBER,
 *                                           DTK_STRING, DTK_SPECIAL)
 *        --tdb_dt_decode_datetime-->  a DtTm, fractional seconds, zone
 *          tdb_dt_decode_timeonly     offset, and a "dtype": DTK_DATE
 *                                     for an ordinary value, or
 *                                     DTK_EPOCH / DTK_LATE / DTK_EARLY
 *                                     for the special words
 *        --tdb_dt_decode_interval-->  an IntervalInput (interval_parse.c)
 *
 * The decoders walk the fields keeping a mask of what has been seen
 * (year, month, day, hour, ..., zone: the DTF_* bits); a field that
 * would set a bit twice is an error, and a number's meaning depends on
 * what came before it (a number after a year is a month, a 3-digit
 * number after a year is a day of the year, six digits are YYMMDD or
 * HHMMSS, ...).  Ambiguous dates are read in DateStyle's field order
 * (MDY, DMY or YMD; types/typeio.h), except that a first field of more
 * than two digits is a year.  The decoders return 0 or a
 * DTERR_* code; the type's input function turns the code into
 * PostgreSQL's error (tdb_dt_parse_error).
 *
 * Quirks kept on purpose because PostgreSQL 15 has them: unit-labelled
 * ISO input ("y2024m03d01", "j2451545", "20240301 t 123456"); keywords
 * matched on their first 10 letters ("microseconds" is "microsecon");
 * time zone abbreviations taking precedence over keywords.
 *
 * Time zones: numeric offsets, the abbreviations of PostgreSQL's
 * "Default" abbreviation set (EST, CET, MSK, ...), and zone names from
 * the time zone database or POSIX strings (datetime_tz.c).  A value
 * without a zone is local time in the session's TimeZone, its offset
 * taken at that date and time; 'now', 'today', 'tomorrow' and
 * 'yesterday' are relative to the transaction's start, seen in that
 * zone.
 *
 * Entry points (datetime.h): tdb_dt_parse_fields, tdb_dt_decode_datetime,
 * tdb_dt_decode_timeonly, tdb_dt_validate_date, the keyword lookups
 * (tdb_dt_decode_special, tdb_dt_decode_units, tdb_dt_decode_zone_name),
 * tdb_dt_parse_error; for interval_parse.c also tdb_dt_decode_time_fields.
 * The C-locale character classes and number helpers (dt_isdigit, ...,
 * dt_strtoint, dt_parse_fraction) are static inline functions in
 * datetime.h.
 */
#include "common/base.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "common/elog.h"
#include "types/datetime.h"
#include "types/typeio.h"

/* Meridians and eras (values of DTF_AMPM and DTF_ADBC tokens). */
#define AM 0
#define PM 1
#define HR24 2
#define AD 0
#define BC 1

#define MAX_TZDISP_HOUR 15

/* A keyword: its lower-case text (at most TOKMAXLEN significant), its
 * class (DTF_*) and value. */
typedef struct DateToken {
    const char *token;
    int type;
    int value;
} DateToken;

/* Keywords of date/time input, in strcmp order (for the search). */
static const DateToken date_tokens[] = {
    {"-infinity", DTF_RESERV, DTK_EARLY},
    {"ad", DTF_ADBC, AD},
    {"allballs", DTF_RESERV, DTK_ZULU},
    {"am", DTF_AMPM, AM},
    {"apr", DTF_MONTH, 4},
    {"april", DTF_MONTH, 4},
    {"at", DTF_IGNORE, 0},
    {"aug", DTF_MONTH, 8},
    {"august", DTF_MONTH, 8},
    {"bc", DTF_ADBC, BC},
    {"d", DTF_UNITS, DTK_DAY},
    {"dec", DTF_MONTH, 12},
    {"december", DTF_MONTH, 12},
    {"dow", DTF_UNITS, DTK_DOW},
    {"doy", DTF_UNITS, DTK_DOY},
    {"dst", DTF_DTZMOD, SECS_PER_HOUR},
    {"epoch", DTF_RESERV, DTK_EPOCH},
    {"feb", DTF_MONTH, 2},
    {"february", DTF_MONTH, 2},
    {"fri", DTF_DOW, 5},
    {"friday", DTF_DOW, 5},
    {"h", DTF_UNITS, DTK_HOUR},
    {"infinity", DTF_RESERV, DTK_LATE},
    {"isodow", DTF_UNITS, DTK_ISODOW},
    {"isoyear", DTF_UNITS, DTK_ISOYEAR},
    {"j", DTF_UNITS, DTK_JULIAN},
    {"jan", DTF_MONTH, 1},
    {"january", DTF_MONTH, 1},
    {"jd", DTF_UNITS, DTK_JULIAN},
    {"jul", DTF_MONTH, 7},
    {"julian", DTF_UNITS, DTK_JULIAN},
    {"july", DTF_MONTH, 7},
    {"jun", DTF_MONTH, 6},
    {"june", DTF_MONTH, 6},
    {"m", DTF_UNITS, DTK_MONTH},
    {"mar", DTF_MONTH, 3},
    {"march", DTF_MONTH, 3},
    {"may", DTF_MONTH, 5},
    {"mm", DTF_UNITS, DTK_MINUTE},
    {"mon", DTF_DOW, 1},
    {"monday", DTF_DOW, 1},
    {"nov", DTF_MONTH, 11},
    {"november", DTF_MONTH, 11},
    {"now", DTF_RESERV, DTK_NOW},
    {"oct", DTF_MONTH, 10},
    {"october", DTF_MONTH, 10},
    {"on", DTF_IGNORE, 0},
    {"pm", DTF_AMPM, PM},
    {"s", DTF_UNITS, DTK_SECOND},
    {"sat", DTF_DOW, 6},
    {"saturday", DTF_DOW, 6},
    {"sep", DTF_MONTH, 9},
    {"sept", DTF_MONTH, 9},
    {"september", DTF_MONTH, 9},
    {"sun", DTF_DOW, 0},
    {"sunday", DTF_DOW, 0},
    {"t", DTF_ISOTIME, DTK_TIME},
    {"thu", DTF_DOW, 4},
    {"thur", DTF_DOW, 4},
    {"thurs", DTF_DOW, 4},
    {"thursday", DTF_DOW, 4},
    {"today", DTF_RESERV, DTK_TODAY},
    {"tomorrow", DTF_RESERV, DTK_TOMORROW},
    {"tue", DTF_DOW, 2},
    {"tues", DTF_DOW, 2},
    {"tuesday", DTF_DOW, 2},
    {"wed", DTF_DOW, 3},
    {"wednesday", DTF_DOW, 3},
    {"weds", DTF_DOW, 3},
    {"y", DTF_UNITS, DTK_YEAR},
    {"yesterday", DTF_RESERV, DTK_YESTERDAY},
};

/* Keywords of interval units (and of date_trunc/extract), strcmp order. */
static const DateToken delta_tokens[] = {
    {"@", DTF_IGNORE, 0},
    {"ago", DTF_AGO, 0},
    {"c", DTF_UNITS, DTK_CENTURY},
    {"cent", DTF_UNITS, DTK_CENTURY},
    {"centuries", DTF_UNITS, DTK_CENTURY},
    {"century", DTF_UNITS, DTK_CENTURY},
    {"d", DTF_UNITS, DTK_DAY},
    {"day", DTF_UNITS, DTK_DAY},
    {"days", DTF_UNITS, DTK_DAY},
    {"dec", DTF_UNITS, DTK_DECADE},
    {"decade", DTF_UNITS, DTK_DECADE},
    {"decades", DTF_UNITS, DTK_DECADE},
    {"decs", DTF_UNITS, DTK_DECADE},
    {"h", DTF_UNITS, DTK_HOUR},
    {"hour", DTF_UNITS, DTK_HOUR},
    {"hours", DTF_UNITS, DTK_HOUR},
    {"hr", DTF_UNITS, DTK_HOUR},
    {"hrs", DTF_UNITS, DTK_HOUR},
    {"m", DTF_UNITS, DTK_MINUTE},
    {"microsecon", DTF_UNITS, DTK_MICROSEC},
    {"mil", DTF_UNITS, DTK_MILLENNIUM},
    {"millennia", DTF_UNITS, DTK_MILLENNIUM},
    {"millennium", DTF_UNITS, DTK_MILLENNIUM},
    {"millisecon", DTF_UNITS, DTK_MILLISEC},
    {"mils", DTF_UNITS, DTK_MILLENNIUM},
    {"min", DTF_UNITS, DTK_MINUTE},
    {"mins", DTF_UNITS, DTK_MINUTE},
    {"minute", DTF_UNITS, DTK_MINUTE},
    {"minutes", DTF_UNITS, DTK_MINUTE},
    {"mon", DTF_UNITS, DTK_MONTH},
    {"mons", DTF_UNITS, DTK_MONTH},
    {"month", DTF_UNITS, DTK_MONTH},
    {"months", DTF_UNITS, DTK_MONTH},
    {"ms", DTF_UNITS, DTK_MILLISEC},
    {"msec", DTF_UNITS, DTK_MILLISEC},
    {"msecond", DTF_UNITS, DTK_MILLISEC},
    {"mseconds", DTF_UNITS, DTK_MILLISEC},
    {"msecs", DTF_UNITS, DTK_MILLISEC},
    {"qtr", DTF_UNITS, DTK_QUARTER},
    {"quarter", DTF_UNITS, DTK_QUARTER},
    {"s", DTF_UNITS, DTK_SECOND},
    {"sec", DTF_UNITS, DTK_SECOND},
    {"second", DTF_UNITS, DTK_SECOND},
    {"seconds", DTF_UNITS, DTK_SECOND},
    {"secs", DTF_UNITS, DTK_SECOND},
    {"timezone", DTF_UNITS, DTK_TZ},
    {"timezone_h", DTF_UNITS, DTK_TZ_HOUR},
    {"timezone_m", DTF_UNITS, DTK_TZ_MINUTE},
    {"us", DTF_UNITS, DTK_MICROSEC},
    {"usec", DTF_UNITS, DTK_MICROSEC},
    {"usecond", DTF_UNITS, DTK_MICROSEC},
    {"useconds", DTF_UNITS, DTK_MICROSEC},
    {"usecs", DTF_UNITS, DTK_MICROSEC},
    {"w", DTF_UNITS, DTK_WEEK},
    {"week", DTF_UNITS, DTK_WEEK},
    {"weeks", DTF_UNITS, DTK_WEEK},
    {"y", DTF_UNITS, DTK_YEAR},
    {"year", DTF_UNITS, DTK_YEAR},
    {"years", DTF_UNITS, DTK_YEAR},
    {"yr", DTF_UNITS, DTK_YEAR},
    {"yrs", DTF_UNITS, DTK_YEAR},
};

/*
 * PostgreSQL's "Default" time zone abbreviation set (timezonesets/
 * Default): value is the offset in seconds east of UTC; DTF_DTZ marks a
 * daylight-saving abbreviation; a DTF_DYNTZ entry names the zone whose
 * history gives its offset on a date (MSK meant +03 and +04 at times).
 * strcmp order.
 */
typedef struct ZoneAbbrev {
    const char *token;
    int type;
    int value;
    const char *zone; /* DTF_DYNTZ only */
} ZoneAbbrev;

static const ZoneAbbrev zone_abbrevs[] = {
    {"acdt", DTF_DTZ, 37800, NULL},
    {"acsst", DTF_DTZ, 37800, NULL},
    {"acst", DTF_TZ, 34200, NULL},
    {"act", DTF_TZ, -18000, NULL},
    {"acwst", DTF_TZ, 31500, NULL},
    {"adt", DTF_DTZ, -10800, NULL},
    {"aedt", DTF_DTZ, 39600, NULL},
    {"aesst", DTF_DTZ, 39600, NULL},
    {"aest", DTF_TZ, 36000, NULL},
    {"aft", DTF_TZ, 16200, NULL},
    {"akdt", DTF_DTZ, -28800, NULL},
    {"akst", DTF_TZ, -32400, NULL},
    {"almst", DTF_DTZ, 25200, NULL},
    {"almt", DTF_TZ, 21600, NULL},
    {"amst", DTF_DYNTZ, 0, "Asia/Yerevan"},
    {"amt", DTF_TZ, -14400, NULL},
    {"anast", DTF_DYNTZ, 0, "Asia/Anadyr"},
    {"anat", DTF_DYNTZ, 0, "Asia/Anadyr"},
    {"arst", DTF_DYNTZ, 0, "America/Argentina/Buenos_Aires"},
    {"art", DTF_DYNTZ, 0, "America/Argentina/Buenos_Aires"},
    {"ast", DTF_TZ, -14400, NULL},
    {"awsst", DTF_DTZ, 32400, NULL},
    {"awst", DTF_TZ, 28800, NULL},
    {"azost", DTF_DTZ, 0, NULL},
    {"azot", DTF_TZ, -3600, NULL},
    {"azst", DTF_DYNTZ, 0, "Asia/Baku"},
    {"azt", DTF_DYNTZ, 0, "Asia/Baku"},
    {"bdst", DTF_DTZ, 7200, NULL},
    {"bdt", DTF_TZ, 21600, NULL},
    {"bnt", DTF_TZ, 28800, NULL},
    {"bort", DTF_TZ, 28800, NULL},
    {"bot", DTF_TZ, -14400, NULL},
    {"bra", DTF_TZ, -10800, NULL},
    {"brst", DTF_DTZ, -7200, NULL},
    {"brt", DTF_TZ, -10800, NULL},
    {"bst", DTF_DTZ, 3600, NULL},
    {"btt", DTF_TZ, 21600, NULL},
    {"cadt", DTF_DTZ, 37800, NULL},
    {"cast", DTF_TZ, 34200, NULL},
    {"cct", DTF_TZ, 28800, NULL},
    {"cdt", DTF_DTZ, -18000, NULL},
    {"cest", DTF_DTZ, 7200, NULL},
    {"cet", DTF_TZ, 3600, NULL},
    {"cetdst", DTF_DTZ, 7200, NULL},
    {"chadt", DTF_DTZ, 49500, NULL},
    {"chast", DTF_TZ, 45900, NULL},
    {"chut", DTF_TZ, 36000, NULL},
    {"ckt", DTF_DYNTZ, 0, "Pacific/Rarotonga"},
    {"clst", DTF_DTZ, -10800, NULL},
    {"clt", DTF_DYNTZ, 0, "America/Santiago"},
    {"cot", DTF_TZ, -18000, NULL},
    {"cst", DTF_TZ, -21600, NULL},
    {"cxt", DTF_TZ, 25200, NULL},
    {"davt", DTF_DYNTZ, 0, "Antarctica/Davis"},
    {"ddut", DTF_TZ, 36000, NULL},
    {"easst", DTF_DYNTZ, 0, "Pacific/Easter"},
    {"east", DTF_DYNTZ, 0, "Pacific/Easter"},
    {"eat", DTF_TZ, 10800, NULL},
    {"edt", DTF_DTZ, -14400, NULL},
    {"eest", DTF_DTZ, 10800, NULL},
    {"eet", DTF_TZ, 7200, NULL},
    {"eetdst", DTF_DTZ, 10800, NULL},
    {"egst", DTF_DTZ, 0, NULL},
    {"egt", DTF_TZ, -3600, NULL},
    {"est", DTF_TZ, -18000, NULL},
    {"fet", DTF_TZ, 10800, NULL},
    {"fjst", DTF_DTZ, 46800, NULL},
    {"fjt", DTF_TZ, 43200, NULL},
    {"fkst", DTF_DYNTZ, 0, "Atlantic/Stanley"},
    {"fkt", DTF_DYNTZ, 0, "Atlantic/Stanley"},
    {"fnst", DTF_DTZ, -3600, NULL},
    {"fnt", DTF_TZ, -7200, NULL},
    {"galt", DTF_TZ, -21600, NULL},
    {"gamt", DTF_TZ, -32400, NULL},
    {"gest", DTF_DYNTZ, 0, "Asia/Tbilisi"},
    {"get", DTF_DYNTZ, 0, "Asia/Tbilisi"},
    {"gft", DTF_TZ, -10800, NULL},
    {"gilt", DTF_TZ, 43200, NULL},
    {"gmt", DTF_TZ, 0, NULL},
    {"gyt", DTF_DYNTZ, 0, "America/Guyana"},
    {"hkt", DTF_TZ, 28800, NULL},
    {"hst", DTF_TZ, -36000, NULL},
    {"ict", DTF_TZ, 25200, NULL},
    {"idt", DTF_DTZ, 10800, NULL},
    {"iot", DTF_DYNTZ, 0, "Indian/Chagos"},
    {"irkst", DTF_DYNTZ, 0, "Asia/Irkutsk"},
    {"irkt", DTF_DYNTZ, 0, "Asia/Irkutsk"},
    {"irt", DTF_TZ, 12600, NULL},
    {"ist", DTF_TZ, 7200, NULL},
    {"jayt", DTF_TZ, 32400, NULL},
    {"jst", DTF_TZ, 32400, NULL},
    {"kdt", DTF_DTZ, 36000, NULL},
    {"kgst", DTF_DTZ, 21600, NULL},
    {"kgt", DTF_DYNTZ, 0, "Asia/Bishkek"},
    {"kost", DTF_DYNTZ, 0, "Pacific/Kosrae"},
    {"krast", DTF_DYNTZ, 0, "Asia/Krasnoyarsk"},
    {"krat", DTF_DYNTZ, 0, "Asia/Krasnoyarsk"},
    {"kst", DTF_TZ, 32400, NULL},
    {"lhdt", DTF_DYNTZ, 0, "Australia/Lord_Howe"},
    {"lhst", DTF_TZ, 37800, NULL},
    {"ligt", DTF_TZ, 36000, NULL},
    {"lint", DTF_DYNTZ, 0, "Pacific/Kiritimati"},
    {"lkt", DTF_DYNTZ, 0, "Asia/Colombo"},
    {"magst", DTF_DYNTZ, 0, "Asia/Magadan"},
    {"magt", DTF_DYNTZ, 0, "Asia/Magadan"},
    {"mart", DTF_TZ, -34200, NULL},
    {"mawt", DTF_DYNTZ, 0, "Antarctica/Mawson"},
    {"mdt", DTF_DTZ, -21600, NULL},
    {"mest", DTF_DTZ, 7200, NULL},
    {"mesz", DTF_DTZ, 7200, NULL},
    {"met", DTF_TZ, 3600, NULL},
    {"metdst", DTF_DTZ, 7200, NULL},
    {"mez", DTF_TZ, 3600, NULL},
    {"mht", DTF_TZ, 43200, NULL},
    {"mmt", DTF_TZ, 23400, NULL},
    {"mpt", DTF_TZ, 36000, NULL},
    {"msd", DTF_DTZ, 14400, NULL},
    {"msk", DTF_DYNTZ, 0, "Europe/Moscow"},
    {"mst", DTF_TZ, -25200, NULL},
    {"must", DTF_DTZ, 18000, NULL},
    {"mut", DTF_TZ, 14400, NULL},
    {"mvt", DTF_TZ, 18000, NULL},
    {"myt", DTF_TZ, 28800, NULL},
    {"ndt", DTF_DTZ, -9000, NULL},
    {"nft", DTF_TZ, -12600, NULL},
    {"novst", DTF_DYNTZ, 0, "Asia/Novosibirsk"},
    {"novt", DTF_DYNTZ, 0, "Asia/Novosibirsk"},
    {"npt", DTF_TZ, 20700, NULL},
    {"nst", DTF_TZ, -12600, NULL},
    {"nut", DTF_DYNTZ, 0, "Pacific/Niue"},
    {"nzdt", DTF_DTZ, 46800, NULL},
    {"nzst", DTF_TZ, 43200, NULL},
    {"nzt", DTF_TZ, 43200, NULL},
    {"omsst", DTF_DYNTZ, 0, "Asia/Omsk"},
    {"omst", DTF_DYNTZ, 0, "Asia/Omsk"},
    {"pdt", DTF_DTZ, -25200, NULL},
    {"pet", DTF_TZ, -18000, NULL},
    {"petst", DTF_DYNTZ, 0, "Asia/Kamchatka"},
    {"pett", DTF_DYNTZ, 0, "Asia/Kamchatka"},
    {"pgt", DTF_TZ, 36000, NULL},
    {"pht", DTF_TZ, 28800, NULL},
    {"pkst", DTF_DTZ, 21600, NULL},
    {"pkt", DTF_TZ, 18000, NULL},
    {"pmdt", DTF_DTZ, -7200, NULL},
    {"pmst", DTF_TZ, -10800, NULL},
    {"pont", DTF_TZ, 39600, NULL},
    {"pst", DTF_TZ, -28800, NULL},
    {"pwt", DTF_TZ, 32400, NULL},
    {"pyst", DTF_DTZ, -10800, NULL},
    {"pyt", DTF_DYNTZ, 0, "America/Asuncion"},
    {"ret", DTF_TZ, 14400, NULL},
    {"sadt", DTF_DTZ, 37800, NULL},
    {"sast", DTF_TZ, 7200, NULL},
    {"sct", DTF_TZ, 14400, NULL},
    {"sgt", DTF_DYNTZ, 0, "Asia/Singapore"},
    {"taht", DTF_TZ, -36000, NULL},
    {"tft", DTF_TZ, 18000, NULL},
    {"tjt", DTF_TZ, 18000, NULL},
    {"tkt", DTF_DYNTZ, 0, "Pacific/Fakaofo"},
    {"tmt", DTF_DYNTZ, 0, "Asia/Ashgabat"},
    {"tot", DTF_TZ, 46800, NULL},
    {"trut", DTF_TZ, 36000, NULL},
    {"tvt", DTF_TZ, 43200, NULL},
    {"uct", DTF_TZ, 0, NULL},
    {"ulast", DTF_DTZ, 32400, NULL},
    {"ulat", DTF_DYNTZ, 0, "Asia/Ulaanbaatar"},
    {"ut", DTF_TZ, 0, NULL},
    {"utc", DTF_TZ, 0, NULL},
    {"uyst", DTF_DTZ, -7200, NULL},
    {"uyt", DTF_TZ, -10800, NULL},
    {"uzst", DTF_DTZ, 21600, NULL},
    {"uzt", DTF_TZ, 18000, NULL},
    {"vet", DTF_DYNTZ, 0, "America/Caracas"},
    {"vlast", DTF_DYNTZ, 0, "Asia/Vladivostok"},
    {"vlat", DTF_DYNTZ, 0, "Asia/Vladivostok"},
    {"volt", DTF_DYNTZ, 0, "Europe/Volgograd"},
    {"vut", DTF_TZ, 39600, NULL},
    {"wadt", DTF_DTZ, 28800, NULL},
    {"wakt", DTF_TZ, 43200, NULL},
    {"wast", DTF_TZ, 25200, NULL},
    {"wat", DTF_TZ, 3600, NULL},
    {"wdt", DTF_DTZ, 32400, NULL},
    {"wet", DTF_TZ, 0, NULL},
    {"wetdst", DTF_DTZ, 3600, NULL},
    {"wft", DTF_TZ, 43200, NULL},
    {"wgst", DTF_DTZ, -7200, NULL},
    {"wgt", DTF_TZ, -10800, NULL},
    {"xjt", DTF_TZ, 21600, NULL},
    {"yakst", DTF_DYNTZ, 0, "Asia/Yakutsk"},
    {"yakt", DTF_DYNTZ, 0, "Asia/Yakutsk"},
    {"yapt", DTF_TZ, 36000, NULL},
    {"yekst", DTF_DTZ, 21600, NULL},
    {"yekt", DTF_DYNTZ, 0, "Asia/Yekaterinburg"},
    {"z", DTF_TZ, 0, NULL},
    {"zulu", DTF_TZ, 0, NULL},
};

/* Are the keyword tables in the order the binary search needs? (For
 * the unit tests.) */
static bool
table_sorted(const DateToken *base, int nel)
{
    for (int i = 1; i < nel; i++)
        if (strcmp(base[i - 1].token, base[i].token) >= 0 ||
            strlen(base[i].token) > TOKMAXLEN)
            return false;
    return true;
}

bool
tdb_dt_check_token_tables(void)
{
    for (Size i = 1; i < lengthof(zone_abbrevs); i++)
        if (strcmp(zone_abbrevs[i - 1].token, zone_abbrevs[i].token) >= 0 ||
            strlen(zone_abbrevs[i].token) > TOKMAXLEN ||
            (zone_abbrevs[i].type == DTF_DYNTZ) !=
                (zone_abbrevs[i].zone != NULL))
            return false;
    return table_sorted(date_tokens, (int)lengthof(date_tokens)) &&
           table_sorted(delta_tokens, (int)lengthof(delta_tokens));
}

/* ----------------------------------------------------------------------
 * Keyword lookups
 * ---------------------------------------------------------------------- */

/* Binary search comparing at most TOKMAXLEN characters. */
static const DateToken *
token_search(const char *key, const DateToken *base, int nel)
{
    int lo = 0;
    int hi = nel - 1;

    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int cmp = strncmp(key, base[mid].token, TOKMAXLEN);

        if (cmp == 0)
            return &base[mid];
        if (cmp < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return NULL;
}

int
tdb_dt_decode_special(const char *lowtoken, int *val)
{
    const DateToken *tp =
        token_search(lowtoken, date_tokens, (int)lengthof(date_tokens));

    if (tp == NULL) {
        *val = 0;
        return DTF_UNKNOWN;
    }
    *val = tp->value;
    return tp->type;
}

int
tdb_dt_decode_units(const char *lowtoken, int *val)
{
    const DateToken *tp =
        token_search(lowtoken, delta_tokens, (int)lengthof(delta_tokens));

    if (tp == NULL) {
        *val = 0;
        return DTF_UNKNOWN;
    }
    *val = tp->value;
    return tp->type;
}

/*
 * A time zone abbreviation: its class (DTF_TZ, DTF_DTZ, DTF_DYNTZ), its
 * offset in seconds east of UTC, and for DTF_DYNTZ its zone; or
 * DTF_UNKNOWN.  A DTF_DYNTZ zone missing from the database raises, as in
 * PostgreSQL.
 */
static int
decode_zone_abbrev(const char *lowtoken, int *offset, const DtZone **zone)
{
    int lo = 0;
    int hi = (int)lengthof(zone_abbrevs) - 1;

    *offset = 0;
    *zone = NULL;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        const ZoneAbbrev *za = &zone_abbrevs[mid];
        int cmp = strncmp(lowtoken, za->token, TOKMAXLEN);

        if (cmp == 0) {
            if (za->type != DTF_DYNTZ) {
                *offset = za->value;
                return za->type;
            }
            *zone = tdb_dt_zone_load(za->zone);
            if (*zone == NULL)
                ereport(ERROR, errcode(ERRCODE_CONFIG_FILE_ERROR),
                        errmsg("time zone \"%s\" not recognized", za->zone),
                        errdetail("This time zone name appears in the "
                                  "configuration file for time zone "
                                  "abbreviation \"%s\".",
                                  za->token));
            return DTF_DYNTZ;
        }
        if (cmp < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return DTF_UNKNOWN;
}

static TDB_NORETURN void
zone_not_recognized(const char *name)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
            errmsg("time zone \"%s\" not recognized", name));
    __builtin_unreachable();
}

bool
tdb_dt_decode_zone_name(const char *name, const char *lowname, int *offset,
                        const DtZone **zone)
{
    int type = decode_zone_abbrev(lowname, offset, zone);

    if (type == DTF_TZ || type == DTF_DTZ)
        return true;
    if (type != DTF_DYNTZ)
        *zone = tdb_dt_zone_load(name);
    if (*zone == NULL)
        zone_not_recognized(name);
    return false;
}

/* ----------------------------------------------------------------------
 * Splitting the text into fields
 * ---------------------------------------------------------------------- */

/*
 * Break timestr into fields, lower-cased and NUL-terminated in workbuf
 * (buflen bytes; input that does not fit is a format error), with
 * pointers in field[] and kinds in ftype[] (at most maxfields).
 *   DTK_NUMBER  digits, possibly with '.' (also "yy.ddd" dates)
 *   DTK_DATE    digits with two matching '-', '/' or '.' delimiters, or
 *               digits and a month name, or a zone name with
 *               punctuation (Etc/GMT+5)
 *   DTK_TIME    digits with ':' (and '.')
 *   DTK_STRING  letters (a month, weekday, keyword or zone)
 *   DTK_SPECIAL '+' or '-' then letters ("-infinity")
 *   DTK_TZ      '+' or '-' then digits (also eats ':', '.', '-')
 * Other punctuation separates fields.
 */
int
tdb_dt_parse_fields(const char *timestr, char *workbuf, size_t buflen,
                    char **field, int *ftype, int maxfields, int *numfields)
{
    int nf = 0;
    const char *cp = timestr;
    char *bufp = workbuf;
    const char *bufend = workbuf + buflen;

#define APPEND(c)                                                           \
    do {                                                                    \
        if (bufp + 1 >= bufend)                                             \
            return DTERR_BAD_FORMAT;                                        \
        *bufp++ = (c);                                                      \
    } while (0)

    while (*cp != '\0') {
        if (dt_isspace(*cp)) {
            cp++;
            continue;
        }
        if (nf >= maxfields)
            return DTERR_BAD_FORMAT;
        field[nf] = bufp;

        if (dt_isdigit(*cp)) {
            APPEND(*cp++);
            while (dt_isdigit(*cp))
                APPEND(*cp++);
            if (*cp == ':') {
                ftype[nf] = DTK_TIME;
                APPEND(*cp++);
                while (dt_isdigit(*cp) || *cp == ':' || *cp == '.')
                    APPEND(*cp++);
            } else if (*cp == '-' || *cp == '/' || *cp == '.') {
                char delim = *cp;

                APPEND(*cp++);
                if (dt_isdigit(*cp)) {
                    /* all digits: a date only if a second delimiter
                     * matches the first ("1.5" is a number) */
                    ftype[nf] = delim == '.' ? DTK_NUMBER : DTK_DATE;
                    while (dt_isdigit(*cp))
                        APPEND(*cp++);
                    if (*cp == delim) {
                        ftype[nf] = DTK_DATE;
                        APPEND(*cp++);
                        while (dt_isdigit(*cp) || *cp == delim)
                            APPEND(*cp++);
                    }
                } else {
                    /* a month name embedded: 01-Jan-2024 */
                    ftype[nf] = DTK_DATE;
                    while (dt_isalnum(*cp) || *cp == delim)
                        APPEND(dt_tolower(*cp++));
                }
            } else
                ftype[nf] = DTK_NUMBER;
        } else if (*cp == '.') {
            /* fractional seconds on their own */
            APPEND(*cp++);
            while (dt_isdigit(*cp))
                APPEND(*cp++);
            ftype[nf] = DTK_NUMBER;
        } else if (dt_isalpha(*cp)) {
            bool is_date = false;

            ftype[nf] = DTK_STRING;
            APPEND(dt_tolower(*cp++));
            while (dt_isalpha(*cp))
                APPEND(dt_tolower(*cp++));
            /*
             * Letters followed by a date delimiter, or by '+' or a digit
             * when the letters are no keyword, start a date ("Jan-01")
             * or a zone name ("Etc/GMT+5").
             */
            if (*cp == '-' || *cp == '/' || *cp == '.')
                is_date = true;
            else if (*cp == '+' || dt_isdigit(*cp)) {
                *bufp = '\0';
                if (token_search(field[nf], date_tokens,
                                 (int)lengthof(date_tokens)) == NULL)
                    is_date = true;
            }
            if (is_date) {
                ftype[nf] = DTK_DATE;
                do {
                    APPEND(dt_tolower(*cp++));
                } while (*cp == '+' || *cp == '-' || *cp == '/' ||
                         *cp == '_' || *cp == '.' || *cp == ':' ||
                         dt_isalnum(*cp));
            }
        } else if (*cp == '+' || *cp == '-') {
            APPEND(*cp++);
            while (dt_isspace(*cp))
                cp++;
            if (dt_isdigit(*cp)) {
                /* a zone offset, or a signed number or year-month */
                ftype[nf] = DTK_TZ;
                APPEND(*cp++);
                while (dt_isdigit(*cp) || *cp == ':' || *cp == '.' ||
                       *cp == '-')
                    APPEND(*cp++);
            } else if (dt_isalpha(*cp)) {
                ftype[nf] = DTK_SPECIAL;
                APPEND(dt_tolower(*cp++));
                while (dt_isalpha(*cp))
                    APPEND(dt_tolower(*cp++));
            } else
                return DTERR_BAD_FORMAT;
        } else if (dt_ispunct(*cp)) {
            cp++;
            continue;
        } else
            return DTERR_BAD_FORMAT;

        *bufp++ = '\0';
        nf++;
    }
#undef APPEND
    *numfields = nf;
    return 0;
}

/* ----------------------------------------------------------------------
 * Field decoders
 * ---------------------------------------------------------------------- */

/* As dt_parse_fraction, as microseconds. */
static int
parse_fractional_second(const char *cp, fsec_t *fsec)
{
    double frac;
    int dterr = dt_parse_fraction(cp, &frac);

    if (dterr)
        return dterr;
    *fsec = (fsec_t)rint(frac * 1000000);
    return 0;
}

/*
 * Decode "hh:mm[:ss[.fff]]" (or "mm:ss.fff", and "mm:ss" when range is
 * MINUTE TO SECOND); the caller checks the hour's range.
 */
int
tdb_dt_decode_time_fields(char *str, int range, int *tmask, TimeFields *tf)
{
    char *cp;
    fsec_t fsec = 0;
    int dterr;

    *tmask = DTK_TIME_M;
    errno = 0;
    tf->hour = strtoll(str, &cp, 10);
    if (errno == ERANGE)
        return DTERR_FIELD_OVERFLOW;
    if (*cp != ':')
        return DTERR_BAD_FORMAT;
    errno = 0;
    tf->min = dt_strtoint(cp + 1, &cp, 10);
    if (errno == ERANGE)
        return DTERR_FIELD_OVERFLOW;
    if (*cp == '\0') {
        tf->sec = 0;
        if (range == (INTERVAL_MASK(DTF_MINUTE) | INTERVAL_MASK(DTF_SECOND))) {
            if (tf->hour > INT_MAX || tf->hour < INT_MIN)
                return DTERR_FIELD_OVERFLOW;
            tf->sec = tf->min;
            tf->min = (int)tf->hour;
            tf->hour = 0;
        }
    } else if (*cp == '.') {
        /* mm:ss.sss */
        dterr = parse_fractional_second(cp, &fsec);
        if (dterr)
            return dterr;
        if (tf->hour > INT_MAX || tf->hour < INT_MIN)
            return DTERR_FIELD_OVERFLOW;
        tf->sec = tf->min;
        tf->min = (int)tf->hour;
        tf->hour = 0;
    } else if (*cp == ':') {
        errno = 0;
        tf->sec = dt_strtoint(cp + 1, &cp, 10);
        if (errno == ERANGE)
            return DTERR_FIELD_OVERFLOW;
        if (*cp == '.') {
            dterr = parse_fractional_second(cp, &fsec);
            if (dterr)
                return dterr;
        } else if (*cp != '\0')
            return DTERR_BAD_FORMAT;
    } else
        return DTERR_BAD_FORMAT;

    if (tf->hour < 0 || tf->min < 0 || tf->min > MINS_PER_HOUR - 1 ||
        tf->sec < 0 || tf->sec > SECS_PER_MINUTE || fsec < 0 ||
        fsec > USECS_PER_SEC)
        return DTERR_FIELD_OVERFLOW;
    tf->usec = fsec;
    return 0;
}

/* A time field of a date/time value, into tm and *fsec. */
static int
decode_time(char *str, int range, int *tmask, DtTm *tm, fsec_t *fsec)
{
    TimeFields tf;
    int dterr = tdb_dt_decode_time_fields(str, range, tmask, &tf);

    if (dterr)
        return dterr;
    if (tf.hour > INT_MAX)
        return DTERR_FIELD_OVERFLOW;
    tm->tm_hour = (int)tf.hour;
    tm->tm_min = tf.min;
    tm->tm_sec = tf.sec;
    *fsec = tf.usec;
    return 0;
}

/*
 * A run of digits (maybe with a fraction) standing for a whole date
 * (YYYYMMDD, YYMMDD) or time (HHMMSS, HHMM).  Returns DTK_DATE or
 * DTK_TIME, or a DTERR code.  Modifies str.
 */
static int
decode_number_field(int len, char *str, int fmask, int *tmask, DtTm *tm,
                    fsec_t *fsec, bool *is2digits)
{
    char *cp = strchr(str, '.');

    if (cp != NULL) {
        /* a time with fractional seconds (or a yyyy.ddd date) */
        if (cp[1] == '\0')
            *fsec = 0;
        else {
            double frac;

            errno = 0;
            frac = strtod(cp, NULL);
            if (errno != 0)
                return DTERR_BAD_FORMAT;
            *fsec = (fsec_t)rint(frac * 1000000);
        }
        *cp = '\0';
        len = (int)strlen(str);
    } else if ((fmask & DTK_DATE_M) != DTK_DATE_M) {
        if (len >= 6) {
            /* the last two digits are the day, two more the month, the
             * rest the year */
            *tmask = DTK_DATE_M;
            tm->tm_mday = atoi(str + (len - 2));
            *(str + (len - 2)) = '\0';
            tm->tm_mon = atoi(str + (len - 4));
            *(str + (len - 4)) = '\0';
            tm->tm_year = atoi(str);
            if ((len - 4) == 2)
                *is2digits = true;
            return DTK_DATE;
        }
    }

    if ((fmask & DTK_TIME_M) != DTK_TIME_M) {
        if (len == 6) {
            *tmask = DTK_TIME_M;
            tm->tm_sec = atoi(str + 4);
            *(str + 4) = '\0';
            tm->tm_min = atoi(str + 2);
            *(str + 2) = '\0';
            tm->tm_hour = atoi(str);
            return DTK_TIME;
        }
        if (len == 4) {
            *tmask = DTK_TIME_M;
            tm->tm_sec = 0;
            tm->tm_min = atoi(str + 2);
            *(str + 2) = '\0';
            tm->tm_hour = atoi(str);
            return DTK_TIME;
        }
    }
    return DTERR_BAD_FORMAT;
}

/*
 * One number of a date, its meaning taken from the fields seen so far
 * (fmask) and DateStyle's field order.  Returns 0 or a DTERR code;
 * *tmask receives the field it set.
 */
static int
decode_number(int flen, char *str, bool have_text_month, int fmask,
              int *tmask, DtTm *tm, fsec_t *fsec, bool *is2digits)
{
    int val;
    char *cp;
    int dterr;
    int date_order = tdb_typeio()->date_order;

    *tmask = 0;
    errno = 0;
    val = dt_strtoint(str, &cp, 10);
    if (errno == ERANGE)
        return DTERR_FIELD_OVERFLOW;
    if (cp == str)
        return DTERR_BAD_FORMAT;

    if (*cp == '.') {
        /* more than two digits before the point: a run-together date
         * or time (2001.360, 20011225, 040506.789) */
        if (cp - str > 2) {
            dterr = decode_number_field(flen, str, fmask | DTK_DATE_M, tmask,
                                        tm, fsec, is2digits);
            if (dterr < 0)
                return dterr;
            return 0;
        }
        dterr = parse_fractional_second(cp, fsec);
        if (dterr)
            return dterr;
    } else if (*cp != '\0')
        return DTERR_BAD_FORMAT;

    /* a three-digit number right after a year is the day of the year */
    if (flen == 3 && (fmask & DTK_DATE_M) == DTK_M(DTF_YEAR) && val >= 1 &&
        val <= 366) {
        *tmask = DTK_M(DTF_DOY) | DTK_M(DTF_MONTH) | DTK_M(DTF_DAY);
        tm->tm_yday = val;
        return 0;
    }

    switch (fmask & DTK_DATE_M) {
    case 0:
        /* the first number: a year if it is long, else what DateStyle's
         * field order puts first */
        if (flen >= 3 || date_order == DATEORDER_YMD) {
            *tmask = DTK_M(DTF_YEAR);
            tm->tm_year = val;
        } else if (date_order == DATEORDER_DMY) {
            *tmask = DTK_M(DTF_DAY);
            tm->tm_mday = val;
        } else {
            *tmask = DTK_M(DTF_MONTH);
            tm->tm_mon = val;
        }
        break;
    case DTK_M(DTF_YEAR):
        /* second field of YY-MM-DD */
        *tmask = DTK_M(DTF_MONTH);
        tm->tm_mon = val;
        break;
    case DTK_M(DTF_MONTH):
        if (have_text_month) {
            /* first number after a month name: MON-DD-YYYY,
             * DD-MON-YYYY, YYYY-MON-DD (and YY-MON-DD in YMD order) */
            if (flen >= 3 || date_order == DATEORDER_YMD) {
                *tmask = DTK_M(DTF_YEAR);
                tm->tm_year = val;
            } else {
                *tmask = DTK_M(DTF_DAY);
                tm->tm_mday = val;
            }
        } else {
            /* second field of MM-DD-YY */
            *tmask = DTK_M(DTF_DAY);
            tm->tm_mday = val;
        }
        break;
    case DTK_M(DTF_YEAR) | DTK_M(DTF_MONTH):
        if (have_text_month) {
            /* DD-MON-YYYY: the first number was the day after all */
            if (flen >= 3 && *is2digits) {
                *tmask = DTK_M(DTF_DAY);
                tm->tm_mday = tm->tm_year;
                tm->tm_year = val;
                *is2digits = false;
            } else {
                *tmask = DTK_M(DTF_DAY);
                tm->tm_mday = val;
            }
        } else {
            /* third field of YY-MM-DD */
            *tmask = DTK_M(DTF_DAY);
            tm->tm_mday = val;
        }
        break;
    case DTK_M(DTF_DAY):
        /* second field of DD-MM-YY */
        *tmask = DTK_M(DTF_MONTH);
        tm->tm_mon = val;
        break;
    case DTK_M(DTF_MONTH) | DTK_M(DTF_DAY):
        /* third field of MM-DD-YY or DD-MM-YY */
        *tmask = DTK_M(DTF_YEAR);
        tm->tm_year = val;
        break;
    case DTK_M(DTF_YEAR) | DTK_M(DTF_MONTH) | DTK_M(DTF_DAY):
        /* the date is complete: a run-together time */
        dterr = decode_number_field(flen, str, fmask, tmask, tm, fsec,
                                    is2digits);
        if (dterr < 0)
            return dterr;
        return 0;
    default:
        return DTERR_BAD_FORMAT;
    }
    /* a one- or two-digit year is adjusted later */
    if (*tmask == DTK_M(DTF_YEAR))
        *is2digits = (flen <= 2);
    return 0;
}

/*
 * A date field with delimiters ("2024-03-01", "1/2/2024", "01-jan-24"):
 * month names first (they are unambiguous), then the numbers.
 */
static int
decode_date(char *str, int fmask, int *tmask, bool *is2digits, DtTm *tm)
{
    fsec_t fsec;
    int nf = 0;
    int dterr;
    bool have_text_month = false;
    int type;
    int val;
    int dmask = 0;
    char *field[MAXDATEFIELDS];

    *tmask = 0;
    while (*str != '\0' && nf < MAXDATEFIELDS) {
        while (*str != '\0' && !dt_isalnum(*str))
            str++;
        if (*str == '\0')
            return DTERR_BAD_FORMAT; /* separator at the end */
        field[nf] = str;
        if (dt_isdigit(*str)) {
            while (dt_isdigit(*str))
                str++;
        } else if (dt_isalpha(*str)) {
            while (dt_isalpha(*str))
                str++;
        }
        if (*str != '\0')
            *str++ = '\0';
        nf++;
    }

    for (int i = 0; i < nf; i++) {
        if (!dt_isalpha(*field[i]))
            continue;
        type = tdb_dt_decode_special(field[i], &val);
        if (type == DTF_IGNORE)
            continue;
        dmask = DTK_M(type);
        if (type != DTF_MONTH)
            return DTERR_BAD_FORMAT;
        tm->tm_mon = val;
        have_text_month = true;
        if (fmask & dmask)
            return DTERR_BAD_FORMAT;
        fmask |= dmask;
        *tmask |= dmask;
        field[i] = NULL;
    }

    for (int i = 0; i < nf; i++) {
        int len;

        if (field[i] == NULL)
            continue;
        if ((len = (int)strlen(field[i])) <= 0)
            return DTERR_BAD_FORMAT;
        dterr = decode_number(len, field[i], have_text_month, fmask, &dmask,
                              tm, &fsec, is2digits);
        if (dterr)
            return dterr;
        if (fmask & dmask)
            return DTERR_BAD_FORMAT;
        fmask |= dmask;
        *tmask |= dmask;
    }

    if ((fmask & ~(DTK_M(DTF_DOY) | DTK_M(DTF_TZ))) != DTK_DATE_M)
        return DTERR_BAD_FORMAT;
    return 0;
}

int
tdb_dt_validate_date(int fmask, bool isjulian, bool is2digits, bool bc,
                     DtTm *tm)
{
    if (fmask & DTK_M(DTF_YEAR)) {
        if (isjulian) {
            /* the year came from a Julian day and is right */
        } else if (bc) {
            /* no year zero: 1 BC is year 0 */
            if (tm->tm_year <= 0)
                return DTERR_FIELD_OVERFLOW;
            tm->tm_year = -(tm->tm_year - 1);
        } else if (is2digits) {
            /* 0..69 are 2000..2069, 70..99 are 1970..1999 */
            if (tm->tm_year < 0)
                return DTERR_FIELD_OVERFLOW;
            if (tm->tm_year < 70)
                tm->tm_year += 2000;
            else if (tm->tm_year < 100)
                tm->tm_year += 1900;
        } else {
            if (tm->tm_year <= 0)
                return DTERR_FIELD_OVERFLOW;
        }
    }
    if (fmask & DTK_M(DTF_DOY))
        tdb_j2date(tdb_date2j(tm->tm_year, 1, 1) + tm->tm_yday - 1,
                   &tm->tm_year, &tm->tm_mon, &tm->tm_mday);
    if (fmask & DTK_M(DTF_MONTH)) {
        if (tm->tm_mon < 1 || tm->tm_mon > MONTHS_PER_YEAR)
            return DTERR_MD_FIELD_OVERFLOW;
    }
    if (fmask & DTK_M(DTF_DAY)) {
        if (tm->tm_mday < 1 || tm->tm_mday > 31)
            return DTERR_MD_FIELD_OVERFLOW;
    }
    if ((fmask & DTK_DATE_M) == DTK_DATE_M) {
        /* not a DateStyle problem, so no hint */
        if (tm->tm_mday > tdb_dt_day_tab[isleap(tm->tm_year)][tm->tm_mon - 1])
            return DTERR_FIELD_OVERFLOW;
    }
    return 0;
}

/*
 * A numeric zone offset: "+hh", "-hh:mm[:ss]", "+hhmm".  *tzp receives
 * seconds west of UTC.
 */
static int
decode_timezone(const char *str, int *tzp)
{
    int tz;
    int hr;
    int min;
    int sec = 0;
    char *cp;

    if (*str != '+' && *str != '-')
        return DTERR_BAD_FORMAT;
    errno = 0;
    hr = dt_strtoint(str + 1, &cp, 10);
    if (errno == ERANGE)
        return DTERR_TZDISP_OVERFLOW;
    if (*cp == ':') {
        errno = 0;
        min = dt_strtoint(cp + 1, &cp, 10);
        if (errno == ERANGE)
            return DTERR_TZDISP_OVERFLOW;
        if (*cp == ':') {
            errno = 0;
            sec = dt_strtoint(cp + 1, &cp, 10);
            if (errno == ERANGE)
                return DTERR_TZDISP_OVERFLOW;
        }
    } else if (*cp == '\0' && strlen(str) > 3) {
        /* hhmm run together */
        min = hr % 100;
        hr = hr / 100;
    } else
        min = 0;

    if (hr < 0 || hr > MAX_TZDISP_HOUR)
        return DTERR_TZDISP_OVERFLOW;
    if (min < 0 || min >= MINS_PER_HOUR)
        return DTERR_TZDISP_OVERFLOW;
    if (sec < 0 || sec >= SECS_PER_MINUTE)
        return DTERR_TZDISP_OVERFLOW;
    tz = (hr * MINS_PER_HOUR + min) * SECS_PER_MINUTE + sec;
    if (*str == '-')
        tz = -tz;
    *tzp = -tz;
    if (*cp != '\0')
        return DTERR_BAD_FORMAT;
    return 0;
}

/* ----------------------------------------------------------------------
 * Whole values
 * ---------------------------------------------------------------------- */

/*
 * Apply a field labelled by a preceding unit keyword ("y2024", "j2451545",
 * "t123456") to tm.  ptype is the unit; for_time says the caller decodes
 * a time of day (dates need a zone-capable type there).
 */
static int
decode_labelled_number(int ptype, char *fld, int fmask, bool for_time,
                       bool have_tz, int *tmask, DtTm *tm, fsec_t *fsec,
                       int *tzp, bool *isjulian, bool *is2digits,
                       int *ftype_out)
{
    char *cp;
    int val;
    int dterr;

    if (for_time && !have_tz &&
        (ptype == DTK_JULIAN || ptype == DTK_YEAR || ptype == DTK_MONTH ||
         ptype == DTK_DAY))
        return DTERR_BAD_FORMAT;
    errno = 0;
    val = dt_strtoint(fld, &cp, 10);
    if (errno == ERANGE)
        return DTERR_FIELD_OVERFLOW;
    /* only a few kinds may carry a fraction */
    if (*cp == '.') {
        if (ptype != DTK_JULIAN && ptype != DTK_TIME && ptype != DTK_SECOND)
            return DTERR_BAD_FORMAT;
    } else if (*cp != '\0')
        return DTERR_BAD_FORMAT;

    switch (ptype) {
    case DTK_YEAR:
        tm->tm_year = val;
        *tmask = DTK_M(DTF_YEAR);
        break;
    case DTK_MONTH:
        /* "m" after a month and an hour means minutes */
        if ((fmask & DTK_M(DTF_MONTH)) != 0 && (fmask & DTK_M(DTF_HOUR)) != 0) {
            tm->tm_min = val;
            *tmask = DTK_M(DTF_MINUTE);
        } else {
            tm->tm_mon = val;
            *tmask = DTK_M(DTF_MONTH);
        }
        break;
    case DTK_DAY:
        tm->tm_mday = val;
        *tmask = DTK_M(DTF_DAY);
        break;
    case DTK_HOUR:
        tm->tm_hour = val;
        *tmask = DTK_M(DTF_HOUR);
        break;
    case DTK_MINUTE:
        tm->tm_min = val;
        *tmask = DTK_M(DTF_MINUTE);
        break;
    case DTK_SECOND:
        tm->tm_sec = val;
        *tmask = DTK_M(DTF_SECOND);
        if (*cp == '.') {
            dterr = parse_fractional_second(cp, fsec);
            if (dterr)
                return dterr;
            *tmask = DTK_ALL_SECS_M;
        }
        break;
    case DTK_TZ:
        *tmask = DTK_M(DTF_TZ);
        if (tzp == NULL)
            return DTERR_BAD_FORMAT;
        dterr = decode_timezone(fld, tzp);
        if (dterr)
            return dterr;
        break;
    case DTK_JULIAN:
        if (val < 0)
            return DTERR_FIELD_OVERFLOW;
        *tmask = DTK_DATE_M;
        tdb_j2date(val, &tm->tm_year, &tm->tm_mon, &tm->tm_mday);
        *isjulian = true;
        if (*cp == '.') {
            /* a fraction of a day */
            double time;

            dterr = dt_parse_fraction(cp, &time);
            if (dterr)
                return dterr;
            time *= USECS_PER_DAY;
            tdb_dt2time((int64)time, &tm->tm_hour, &tm->tm_min, &tm->tm_sec,
                        fsec);
            *tmask |= DTK_TIME_M;
        }
        break;
    case DTK_TIME:
        /* after "t": hhmmss[.fff] */
        dterr = decode_number_field((int)strlen(fld), fld, fmask | DTK_DATE_M,
                                    tmask, tm, fsec, is2digits);
        if (dterr < 0)
            return dterr;
        if (ftype_out != NULL)
            *ftype_out = dterr;
        if (*tmask != DTK_TIME_M)
            return DTERR_BAD_FORMAT;
        break;
    default:
        return DTERR_BAD_FORMAT;
    }
    return 0;
}

/*
 * The transaction's start broken down in the session zone (PostgreSQL's
 * GetCurrentTimeUsec); *tzp, if not NULL, receives the zone's offset.
 * Its date is what 'today' means.
 */
static void
current_time_tm(DtTm *tm, fsec_t *fsec, int *tzp)
{
    int tz;

    if (!tdb_timestamp2tm(tdb_dt_xact_start(), &tz, tm, fsec))
        tdb_dt_error_timestamp_range();
    if (tzp != NULL)
        *tzp = tz;
}

static void
current_date_tm(DtTm *tm, fsec_t *fsec)
{
    current_time_tm(tm, fsec, NULL);
}

/*
 * Decode the fields of a date, timestamp or timestamptz.  tzp NULL: a
 * zone in the input is an error; otherwise *tzp receives the zone's
 * offset in seconds west of UTC at that date and time (the session
 * zone's, 0, when none is given).  Returns 0 for a full date (maybe with
 * time), 1 for a time only (which callers treat as an error), or a
 * DTERR code.  *dtype is DTK_DATE, or DTK_EPOCH/DTK_LATE/DTK_EARLY for
 * the special words (tm then means nothing).
 */
int
tdb_dt_decode_datetime(char **field, int *ftype, int nf, int *dtype,
                       DtTm *tm, fsec_t *fsec, int *tzp)
{
    int fmask = 0;
    int tmask;
    int type;
    int ptype = 0; /* the unit label waiting for its number */
    int val;
    int dterr;
    int mer = HR24;
    bool have_text_month = false;
    bool isjulian = false;
    bool is2digits = false;
    bool bc = false;
    const DtZone *named_zone = NULL; /* a zone named in full */
    const DtZone *abbrev_zone = NULL; /* the zone of an abbreviation ... */
    const char *abbrev = NULL;        /* ... whose offset changed in time */
    const DtZone *valzone;
    DtTm cur_tm;
    fsec_t cur_fsec;

    *dtype = DTK_DATE;
    tm->tm_hour = 0;
    tm->tm_min = 0;
    tm->tm_sec = 0;
    *fsec = 0;
    tm->tm_isdst = -1;
    if (tzp != NULL)
        *tzp = 0;

    for (int i = 0; i < nf; i++) {
        switch (ftype[i]) {
        case DTK_DATE:
            if (ptype == DTK_JULIAN) {
                /* Julian day with a zone attached: "j2451545+02" */
                char *cp;
                int jday;

                if (tzp == NULL)
                    return DTERR_BAD_FORMAT;
                errno = 0;
                jday = dt_strtoint(field[i], &cp, 10);
                if (errno == ERANGE || jday < 0)
                    return DTERR_FIELD_OVERFLOW;
                tdb_j2date(jday, &tm->tm_year, &tm->tm_mon, &tm->tm_mday);
                isjulian = true;
                dterr = decode_timezone(cp, tzp);
                if (dterr)
                    return dterr;
                tmask = DTK_DATE_M | DTK_TIME_M | DTK_M(DTF_TZ);
                ptype = 0;
                break;
            }
            if (ptype != 0 ||
                ((fmask & (DTK_M(DTF_MONTH) | DTK_M(DTF_DAY))) ==
                 (DTK_M(DTF_MONTH) | DTK_M(DTF_DAY)))) {
                /*
                 * With month and day already known, this is a zone name
                 * ("Etc/GMT+5") or a run-together time with a zone
                 * ("123456-05").
                 */
                if (tzp == NULL)
                    return DTERR_BAD_FORMAT;
                if (dt_isdigit(*field[i]) || ptype != 0) {
                    char *cp;

                    if (ptype != 0) {
                        if (ptype != DTK_TIME)
                            return DTERR_BAD_FORMAT;
                        ptype = 0;
                    }
                    if ((fmask & DTK_TIME_M) == DTK_TIME_M)
                        return DTERR_BAD_FORMAT;
                    if ((cp = strchr(field[i], '-')) == NULL)
                        return DTERR_BAD_FORMAT;
                    dterr = decode_timezone(cp, tzp);
                    if (dterr)
                        return dterr;
                    *cp = '\0';
                    dterr = decode_number_field((int)strlen(field[i]),
                                                field[i], fmask, &tmask, tm,
                                                fsec, &is2digits);
                    if (dterr < 0)
                        return dterr;
                    tmask |= DTK_M(DTF_TZ);
                } else {
                    named_zone = tdb_dt_zone_load(field[i]);
                    if (named_zone == NULL)
                        zone_not_recognized(field[i]);
                    tmask = DTK_M(DTF_TZ);
                }
            } else {
                dterr = decode_date(field[i], fmask, &tmask, &is2digits, tm);
                if (dterr)
                    return dterr;
            }
            break;

        case DTK_TIME:
            /* maybe an ISO time after "t" */
            if (ptype != 0) {
                if (ptype != DTK_TIME)
                    return DTERR_BAD_FORMAT;
                ptype = 0;
            }
            dterr = decode_time(field[i], INTERVAL_FULL_RANGE, &tmask, tm,
                                fsec);
            if (dterr)
                return dterr;
            if (tdb_time_overflows(tm->tm_hour, tm->tm_min, tm->tm_sec,
                                   *fsec))
                return DTERR_FIELD_OVERFLOW;
            break;

        case DTK_TZ: {
            int tz;

            if (tzp == NULL)
                return DTERR_BAD_FORMAT;
            dterr = decode_timezone(field[i], &tz);
            if (dterr)
                return dterr;
            *tzp = tz;
            tmask = DTK_M(DTF_TZ);
            break;
        }

        case DTK_NUMBER:
            if (ptype != 0) {
                dterr = decode_labelled_number(ptype, field[i], fmask, false,
                                               true, &tmask, tm, fsec, tzp,
                                               &isjulian, &is2digits, NULL);
                if (dterr)
                    return dterr;
                ptype = 0;
                *dtype = DTK_DATE;
            } else {
                int flen = (int)strlen(field[i]);
                char *cp = strchr(field[i], '.');

                if (cp != NULL && !(fmask & DTK_DATE_M)) {
                    /* a decimal and no date yet: "2001.360" */
                    dterr = decode_date(field[i], fmask, &tmask, &is2digits,
                                        tm);
                    if (dterr)
                        return dterr;
                } else if (cp != NULL && flen - strlen(cp) > 2) {
                    /* several digits before a decimal: run-together date
                     * or time */
                    dterr = decode_number_field(flen, field[i], fmask,
                                                &tmask, tm, fsec, &is2digits);
                    if (dterr < 0)
                        return dterr;
                } else if (flen >= 6 && (!(fmask & DTK_DATE_M) ||
                                         !(fmask & DTK_TIME_M))) {
                    /* six or more digits: YYMMDD or HHMMSS while either is
                     * missing (so long years must come last) */
                    dterr = decode_number_field(flen, field[i], fmask,
                                                &tmask, tm, fsec, &is2digits);
                    if (dterr < 0)
                        return dterr;
                } else {
                    dterr = decode_number(flen, field[i], have_text_month,
                                          fmask, &tmask, tm, fsec,
                                          &is2digits);
                    if (dterr)
                        return dterr;
                }
            }
            break;

        case DTK_STRING:
        case DTK_SPECIAL:
            /* zone abbreviations come before keywords */
            type = decode_zone_abbrev(field[i], &val, &valzone);
            if (type == DTF_UNKNOWN)
                type = tdb_dt_decode_special(field[i], &val);
            if (type == DTF_IGNORE)
                continue;

            tmask = DTK_M(type);
            switch (type) {
            case DTF_RESERV:
                switch (val) {
                case DTK_NOW:
                    tmask = DTK_DATE_M | DTK_TIME_M | DTK_M(DTF_TZ);
                    *dtype = DTK_DATE;
                    current_time_tm(tm, fsec, tzp);
                    break;
                case DTK_YESTERDAY:
                case DTK_TODAY:
                case DTK_TOMORROW: {
                    int jd;

                    tmask = DTK_DATE_M;
                    *dtype = DTK_DATE;
                    current_date_tm(&cur_tm, &cur_fsec);
                    jd = tdb_date2j(cur_tm.tm_year, cur_tm.tm_mon,
                                    cur_tm.tm_mday);
                    jd += val == DTK_YESTERDAY ? -1
                          : val == DTK_TOMORROW ? 1
                                                : 0;
                    tdb_j2date(jd, &tm->tm_year, &tm->tm_mon, &tm->tm_mday);
                    break;
                }
                case DTK_ZULU:
                    tmask = DTK_TIME_M | DTK_M(DTF_TZ);
                    *dtype = DTK_DATE;
                    tm->tm_hour = 0;
                    tm->tm_min = 0;
                    tm->tm_sec = 0;
                    if (tzp != NULL)
                        *tzp = 0;
                    break;
                default:
                    /* epoch, infinity, -infinity */
                    *dtype = val;
                }
                break;

            case DTF_MONTH:
                /* a numeric month already read may have been the day */
                if ((fmask & DTK_M(DTF_MONTH)) && !have_text_month &&
                    !(fmask & DTK_M(DTF_DAY)) && tm->tm_mon >= 1 &&
                    tm->tm_mon <= 31) {
                    tm->tm_mday = tm->tm_mon;
                    tmask = DTK_M(DTF_DAY);
                }
                have_text_month = true;
                tm->tm_mon = val;
                break;

            case DTF_DTZMOD:
                /* "DST" after a standard-time abbreviation */
                tmask |= DTK_M(DTF_DTZ);
                tm->tm_isdst = 1;
                if (tzp == NULL)
                    return DTERR_BAD_FORMAT;
                *tzp -= val;
                break;

            case DTF_DTZ:
                tmask |= DTK_M(DTF_TZ);
                tm->tm_isdst = 1;
                if (tzp == NULL)
                    return DTERR_BAD_FORMAT;
                *tzp = -val;
                break;

            case DTF_TZ:
                tm->tm_isdst = 0;
                if (tzp == NULL)
                    return DTERR_BAD_FORMAT;
                *tzp = -val;
                break;

            case DTF_AMPM:
                mer = val;
                break;

            case DTF_ADBC:
                bc = (val == BC);
                break;

            case DTF_DOW:
                tm->tm_wday = val;
                break;

            case DTF_UNITS:
                tmask = 0;
                ptype = val;
                break;

            case DTF_ISOTIME:
                /* "t": a time follows a complete date */
                tmask = 0;
                if ((fmask & DTK_DATE_M) != DTK_DATE_M)
                    return DTERR_BAD_FORMAT;
                if (i >= nf - 1 ||
                    (ftype[i + 1] != DTK_NUMBER && ftype[i + 1] != DTK_TIME &&
                     ftype[i + 1] != DTK_DATE))
                    return DTERR_BAD_FORMAT;
                ptype = val;
                break;

            case DTF_DYNTZ:
                tmask |= DTK_M(DTF_TZ);
                if (tzp == NULL)
                    return DTERR_BAD_FORMAT;
                /* the offset is found below, once the date is known */
                abbrev_zone = valzone;
                abbrev = field[i];
                break;

            case DTF_UNKNOWN:
                /* maybe an all-letters zone name ("utc", "cuba") */
                named_zone = tdb_dt_zone_load(field[i]);
                if (named_zone == NULL)
                    return DTERR_BAD_FORMAT;
                tmask = DTK_M(DTF_TZ);
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

    dterr = tdb_dt_validate_date(fmask, isjulian, is2digits, bc, tm);
    if (dterr)
        return dterr;

    if (mer != HR24 && tm->tm_hour > HOURS_PER_DAY / 2)
        return DTERR_FIELD_OVERFLOW;
    if (mer == AM && tm->tm_hour == HOURS_PER_DAY / 2)
        tm->tm_hour = 0;
    else if (mer == PM && tm->tm_hour != HOURS_PER_DAY / 2)
        tm->tm_hour += HOURS_PER_DAY / 2;

    if (*dtype == DTK_DATE) {
        if ((fmask & DTK_DATE_M) != DTK_DATE_M) {
            if ((fmask & DTK_TIME_M) == DTK_TIME_M)
                return 1;
            return DTERR_BAD_FORMAT;
        }
        /* a zone's offset depends on the date (and "DST" cannot modify
         * it) */
        if (named_zone != NULL) {
            if (fmask & DTK_M(DTF_DTZMOD))
                return DTERR_BAD_FORMAT;
            *tzp = tdb_dt_zone_offset(tm, named_zone);
        }
        if (abbrev_zone != NULL) {
            if (fmask & DTK_M(DTF_DTZMOD))
                return DTERR_BAD_FORMAT;
            *tzp = tdb_dt_zone_abbrev_offset(tm, abbrev, abbrev_zone);
        }
        if (tzp != NULL && !(fmask & DTK_M(DTF_TZ))) {
            /* no zone given: the session zone's offset at that time */
            if (fmask & DTK_M(DTF_DTZMOD))
                return DTERR_BAD_FORMAT;
            *tzp = tdb_dt_zone_offset(tm, tdb_dt_session_zone());
        }
    }
    return 0;
}

/*
 * Decode the fields of a time of day.  With tzp NULL (type time), dates
 * and zones are errors.  Returns 0 or a DTERR code.
 */
int
tdb_dt_decode_timeonly(char **field, int *ftype, int nf, int *dtype,
                       DtTm *tm, fsec_t *fsec, int *tzp)
{
    int fmask = 0;
    int tmask;
    int type;
    int ptype = 0;
    int val;
    int dterr;
    bool isjulian = false;
    bool is2digits = false;
    bool bc = false;
    int mer = HR24;
    const DtZone *named_zone = NULL;
    const DtZone *abbrev_zone = NULL;
    const char *abbrev = NULL;
    const DtZone *valzone;

    *dtype = DTK_TIME;
    tm->tm_hour = 0;
    tm->tm_min = 0;
    tm->tm_sec = 0;
    *fsec = 0;
    tm->tm_isdst = -1;
    if (tzp != NULL)
        *tzp = 0;

    for (int i = 0; i < nf; i++) {
        switch (ftype[i]) {
        case DTK_DATE:
            if (tzp == NULL)
                return DTERR_BAD_FORMAT;
            if (i == 0 && nf >= 2 &&
                (ftype[nf - 1] == DTK_DATE || ftype[1] == DTK_TIME)) {
                dterr = decode_date(field[i], fmask, &tmask, &is2digits, tm);
                if (dterr)
                    return dterr;
            } else if (dt_isdigit(*field[i])) {
                char *cp;

                if ((fmask & DTK_TIME_M) == DTK_TIME_M)
                    return DTERR_BAD_FORMAT;
                if ((cp = strchr(field[i], '-')) == NULL)
                    return DTERR_BAD_FORMAT;
                dterr = decode_timezone(cp, tzp);
                if (dterr)
                    return dterr;
                *cp = '\0';
                dterr = decode_number_field((int)strlen(field[i]), field[i],
                                            fmask | DTK_DATE_M, &tmask, tm,
                                            fsec, &is2digits);
                if (dterr < 0)
                    return dterr;
                ftype[i] = dterr;
                tmask |= DTK_M(DTF_TZ);
            } else {
                named_zone = tdb_dt_zone_load(field[i]);
                if (named_zone == NULL)
                    zone_not_recognized(field[i]);
                ftype[i] = DTK_TZ;
                tmask = DTK_M(DTF_TZ);
            }
            break;

        case DTK_TIME:
            if (ptype != 0) {
                if (ptype != DTK_TIME)
                    return DTERR_BAD_FORMAT;
                ptype = 0;
            }
            dterr = decode_time(field[i], INTERVAL_FULL_RANGE, &tmask, tm,
                                fsec);
            if (dterr)
                return dterr;
            break;

        case DTK_TZ: {
            int tz;

            if (tzp == NULL)
                return DTERR_BAD_FORMAT;
            dterr = decode_timezone(field[i], &tz);
            if (dterr)
                return dterr;
            *tzp = tz;
            tmask = DTK_M(DTF_TZ);
            break;
        }

        case DTK_NUMBER:
            if (ptype != 0) {
                dterr = decode_labelled_number(ptype, field[i], fmask, true,
                                               tzp != NULL, &tmask, tm, fsec,
                                               tzp, &isjulian, &is2digits,
                                               &ftype[i]);
                if (dterr)
                    return dterr;
                ptype = 0;
                *dtype = DTK_DATE;
            } else {
                int flen = (int)strlen(field[i]);
                char *cp = strchr(field[i], '.');

                if (cp != NULL) {
                    /* a date only as the first of several fields */
                    if (i == 0 && nf >= 2 && ftype[nf - 1] == DTK_DATE) {
                        dterr = decode_date(field[i], fmask, &tmask,
                                            &is2digits, tm);
                        if (dterr)
                            return dterr;
                    } else if (flen - strlen(cp) > 2) {
                        dterr = decode_number_field(flen, field[i],
                                                    fmask | DTK_DATE_M,
                                                    &tmask, tm, fsec,
                                                    &is2digits);
                        if (dterr < 0)
                            return dterr;
                        ftype[i] = dterr;
                    } else
                        return DTERR_BAD_FORMAT;
                } else if (flen > 4) {
                    dterr = decode_number_field(flen, field[i],
                                                fmask | DTK_DATE_M, &tmask,
                                                tm, fsec, &is2digits);
                    if (dterr < 0)
                        return dterr;
                    ftype[i] = dterr;
                } else {
                    dterr = decode_number(flen, field[i], false,
                                          fmask | DTK_DATE_M, &tmask, tm,
                                          fsec, &is2digits);
                    if (dterr)
                        return dterr;
                }
            }
            break;

        case DTK_STRING:
        case DTK_SPECIAL:
            type = decode_zone_abbrev(field[i], &val, &valzone);
            if (type == DTF_UNKNOWN)
                type = tdb_dt_decode_special(field[i], &val);
            if (type == DTF_IGNORE)
                continue;

            tmask = DTK_M(type);
            switch (type) {
            case DTF_RESERV:
                switch (val) {
                case DTK_NOW:
                    tmask = DTK_TIME_M;
                    *dtype = DTK_TIME;
                    current_time_tm(tm, fsec, NULL);
                    break;
                case DTK_ZULU:
                    tmask = DTK_TIME_M | DTK_M(DTF_TZ);
                    *dtype = DTK_TIME;
                    tm->tm_hour = 0;
                    tm->tm_min = 0;
                    tm->tm_sec = 0;
                    tm->tm_isdst = 0;
                    break;
                default:
                    return DTERR_BAD_FORMAT;
                }
                break;

            case DTF_DTZMOD:
                tmask |= DTK_M(DTF_DTZ);
                tm->tm_isdst = 1;
                if (tzp == NULL)
                    return DTERR_BAD_FORMAT;
                *tzp -= val;
                break;

            case DTF_DTZ:
                tmask |= DTK_M(DTF_TZ);
                tm->tm_isdst = 1;
                if (tzp == NULL)
                    return DTERR_BAD_FORMAT;
                *tzp = -val;
                ftype[i] = DTK_TZ;
                break;

            case DTF_TZ:
                tm->tm_isdst = 0;
                if (tzp == NULL)
                    return DTERR_BAD_FORMAT;
                *tzp = -val;
                ftype[i] = DTK_TZ;
                break;

            case DTF_AMPM:
                mer = val;
                break;

            case DTF_ADBC:
                bc = (val == BC);
                break;

            case DTF_UNITS:
                tmask = 0;
                ptype = val;
                break;

            case DTF_ISOTIME:
                tmask = 0;
                if (i >= nf - 1 ||
                    (ftype[i + 1] != DTK_NUMBER && ftype[i + 1] != DTK_TIME &&
                     ftype[i + 1] != DTK_DATE))
                    return DTERR_BAD_FORMAT;
                ptype = val;
                break;

            case DTF_DYNTZ:
                tmask |= DTK_M(DTF_TZ);
                if (tzp == NULL)
                    return DTERR_BAD_FORMAT;
                abbrev_zone = valzone;
                abbrev = field[i];
                ftype[i] = DTK_TZ;
                break;

            case DTF_UNKNOWN:
                named_zone = tdb_dt_zone_load(field[i]);
                if (named_zone == NULL)
                    return DTERR_BAD_FORMAT;
                tmask = DTK_M(DTF_TZ);
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

    dterr = tdb_dt_validate_date(fmask, isjulian, is2digits, bc, tm);
    if (dterr)
        return dterr;

    if (mer != HR24 && tm->tm_hour > HOURS_PER_DAY / 2)
        return DTERR_FIELD_OVERFLOW;
    if (mer == AM && tm->tm_hour == HOURS_PER_DAY / 2)
        tm->tm_hour = 0;
    else if (mer == PM && tm->tm_hour != HOURS_PER_DAY / 2)
        tm->tm_hour += HOURS_PER_DAY / 2;

    if (tdb_time_overflows(tm->tm_hour, tm->tm_min, tm->tm_sec, *fsec))
        return DTERR_FIELD_OVERFLOW;
    if ((fmask & DTK_TIME_M) != DTK_TIME_M)
        return DTERR_BAD_FORMAT;

    /*
     * A zone's offset (which only a time with time zone would keep) at
     * the date given, or today; a zone whose offset changes needs a full
     * date.
     */
    if (named_zone != NULL) {
        int gmtoff;

        if (fmask & DTK_M(DTF_DTZMOD))
            return DTERR_BAD_FORMAT;
        if (tdb_dt_zone_fixed_offset(named_zone, &gmtoff))
            *tzp = gmtoff;
        else {
            if ((fmask & DTK_DATE_M) != DTK_DATE_M)
                return DTERR_BAD_FORMAT;
            *tzp = tdb_dt_zone_offset(tm, named_zone);
        }
    }
    if (abbrev_zone != NULL) {
        DtTm tt;
        fsec_t cur_fsec;

        if (fmask & DTK_M(DTF_DTZMOD))
            return DTERR_BAD_FORMAT;
        if ((fmask & DTK_DATE_M) == 0)
            current_date_tm(&tt, &cur_fsec);
        else {
            tt.tm_year = tm->tm_year;
            tt.tm_mon = tm->tm_mon;
            tt.tm_mday = tm->tm_mday;
        }
        tt.tm_hour = tm->tm_hour;
        tt.tm_min = tm->tm_min;
        tt.tm_sec = tm->tm_sec;
        *tzp = tdb_dt_zone_abbrev_offset(&tt, abbrev, abbrev_zone);
        tm->tm_isdst = tt.tm_isdst;
    }
    if (tzp != NULL && !(fmask & DTK_M(DTF_TZ))) {
        /* the session zone's offset on the date given, else today */
        DtTm tt;
        fsec_t cur_fsec;

        if (fmask & DTK_M(DTF_DTZMOD))
            return DTERR_BAD_FORMAT;
        if ((fmask & DTK_DATE_M) == 0)
            current_date_tm(&tt, &cur_fsec);
        else {
            if ((fmask & DTK_DATE_M) != DTK_DATE_M)
                return DTERR_BAD_FORMAT;
            tt.tm_year = tm->tm_year;
            tt.tm_mon = tm->tm_mon;
            tt.tm_mday = tm->tm_mday;
        }
        tt.tm_hour = tm->tm_hour;
        tt.tm_min = tm->tm_min;
        tt.tm_sec = tm->tm_sec;
        *tzp = tdb_dt_zone_offset(&tt, tdb_dt_session_zone());
        tm->tm_isdst = tt.tm_isdst;
    }
    return 0;
}

/* ----------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------- */

void
tdb_dt_parse_error(int dterr, const char *str, const char *datatype)
{
    switch (dterr) {
    case DTERR_FIELD_OVERFLOW:
        ereport(ERROR, errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
                errmsg("date/time field value out of range: \"%s\"", str));
        break;
    case DTERR_MD_FIELD_OVERFLOW:
        /* month or day out of range: maybe a DateStyle mix-up */
        ereport(ERROR, errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
                errmsg("date/time field value out of range: \"%s\"", str),
                errhint("Perhaps you need a different \"datestyle\" "
                        "setting."));
        break;
    case DTERR_INTERVAL_OVERFLOW:
        ereport(ERROR, errcode(ERRCODE_INTERVAL_FIELD_OVERFLOW),
                errmsg("interval field value out of range: \"%s\"", str));
        break;
    case DTERR_TZDISP_OVERFLOW:
        ereport(ERROR, errcode(ERRCODE_INVALID_TIME_ZONE_DISPLACEMENT_VALUE),
                errmsg("time zone displacement out of range: \"%s\"", str));
        break;
    case DTERR_BAD_FORMAT:
    default:
        ereport(ERROR, errcode(ERRCODE_INVALID_DATETIME_FORMAT),
                errmsg("invalid input syntax for type %s: \"%s\"", datatype,
                       str));
        break;
    }
    __builtin_unreachable();
}
