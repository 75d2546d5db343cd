/*
 * test_typeio.c -- the session settings the types layer reads
 * (types/typeio.h): parsing DateStyle and TimeZone values as
 * PostgreSQL's check hooks do, the zone cache, and type output that
 * follows the TypeIOSettings installed on the calling thread -- also
 * with two threads in different zones at once.  The expected texts are
 * what PostgreSQL 15 prints with the same settings.
 */
#include "common/base.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "catalog/pg_type.h"
#include "mmgr/mcxt.h"
#include "test.h"
#include "types/builtins.h"
#include "types/typeio.h"

/* Is the time zone database there (the named-zone tests need it)? */
static bool
have_zone_database(void)
{
    return access("/usr/share/zoneinfo/America/New_York", R_OK) == 0;
}

/* DateStyle value (with the current style and order) -> canonical. */
static const char *
datestyle(const char *value, int style, int order)
{
    static char canonical[64];
    char *detail;

    if (!tdb_typeio_parse_datestyle(value, &style, &order, canonical,
                                    sizeof(canonical), &detail)) {
        snprintf(canonical, sizeof(canonical), "! %s", detail);
        return canonical;
    }
    return canonical;
}

TEST_BEGIN(test_datestyle_values)
{
    int iso = DATESTYLE_ISO, mdy = DATEORDER_MDY, dmy = DATEORDER_DMY;

    expect_str_eq(datestyle("ISO, MDY", DATESTYLE_POSTGRES, DATEORDER_YMD),
                  "ISO, MDY");
    expect_str_eq(datestyle("sql", iso, mdy), "SQL, MDY");
    /* parts not given keep their current value */
    expect_str_eq(datestyle("sql", iso, dmy), "SQL, DMY");
    expect_str_eq(datestyle("dmy", DATESTYLE_SQL, mdy), "SQL, DMY");
    /* German brings DMY unless an order is given */
    expect_str_eq(datestyle("german", iso, mdy), "German, DMY");
    expect_str_eq(datestyle("german, mdy", iso, dmy), "German, MDY");
    expect_str_eq(datestyle("mdy, german", iso, dmy), "German, MDY");
    expect_str_eq(datestyle("Postgres, European", iso, mdy), "Postgres, DMY");
    expect_str_eq(datestyle("US", DATESTYLE_SQL, dmy), "SQL, MDY");
    expect_str_eq(datestyle("noneuro", DATESTYLE_SQL, dmy), "SQL, MDY");
    expect_str_eq(datestyle("euro", DATESTYLE_SQL, mdy), "SQL, DMY");
    expect_str_eq(datestyle("ymd", DATESTYLE_SQL, mdy), "SQL, YMD");
    expect_str_eq(datestyle("  ISO ,  YMD  ", DATESTYLE_SQL, mdy),
                  "ISO, YMD");
    expect_str_eq(datestyle("\"Iso\", \"dmy\"", DATESTYLE_SQL, mdy),
                  "ISO, DMY");
    expect_str_eq(datestyle("default", DATESTYLE_SQL, dmy), "ISO, MDY");
    expect_str_eq(datestyle("sql, default", iso, dmy), "SQL, MDY");
    expect_str_eq(datestyle("", DATESTYLE_GERMAN, dmy), "German, DMY");
    /* repeating the same choice is no conflict */
    expect_str_eq(datestyle("iso, iso", DATESTYLE_SQL, mdy), "ISO, MDY");
    /* errors, with PostgreSQL's details */
    expect_str_eq(datestyle("iso, sql", iso, mdy),
                  "! Conflicting \"datestyle\" specifications.");
    expect_str_eq(datestyle("dmy, us", iso, mdy),
                  "! Conflicting \"datestyle\" specifications.");
    expect_str_eq(datestyle("iso, foo", iso, mdy),
                  "! Unrecognized key word: \"foo\".");
    expect_str_eq(datestyle("ISO, Foo", iso, mdy),
                  "! Unrecognized key word: \"foo\".");
    expect_str_eq(datestyle("iso,,mdy", iso, mdy),
                  "! List syntax is invalid.");
    expect_str_eq(datestyle("iso mdy", iso, mdy),
                  "! List syntax is invalid.");
    expect_str_eq(datestyle("iso,", iso, mdy), "! List syntax is invalid.");
    expect_str_eq(datestyle("\"iso", iso, mdy), "! List syntax is invalid.");
}
TEST_END

/* TimeZone value -> canonical name, "! detail", "! leap" or "! none". */
static const char *
tz_value(TzCache *cache, const char *value, const DtZone **zone_out)
{
    static char result[300];
    const char *canonical;
    const char *detail;
    bool leaps;
    const DtZone *zone =
        tdb_typeio_parse_timezone(cache, value, &canonical, &detail, &leaps);

    if (zone_out != NULL)
        *zone_out = zone;
    if (zone != NULL)
        snprintf(result, sizeof(result), "%s", canonical);
    else if (leaps)
        snprintf(result, sizeof(result), "! leap");
    else
        snprintf(result, sizeof(result), "! %s",
                 detail != NULL ? detail : "none");
    return result;
}

TEST_BEGIN(test_timezone_values)
{
    MemoryContext cxt = tdb_aset_create(tdb_current_mcxt, "zones",
                                        ALLOCSET_DEFAULT_SIZES);
    TzCache *cache = tdb_tzcache_create(cxt);
    const DtZone *a;
    const DtZone *b;

    /* fixed offsets, named as pg_tzset_offset names them */
    expect_str_eq(tz_value(cache, "-5", NULL), "<-05>+05");
    expect_str_eq(tz_value(cache, "5.5", NULL), "<+05:30>-05:30");
    expect_str_eq(tz_value(cache, "0", NULL), "<+00>-00");
    expect_str_eq(tz_value(cache, "+05", NULL), "<+05>-05");
    expect_str_eq(tz_value(cache, "INTERVAL '-08:00'", NULL), "<-08>+08");
    expect_str_eq(tz_value(cache, "interval '+02:30:15'", NULL),
                  "<+02:30:15>-02:30:15");
    expect_str_eq(tz_value(cache, "INTERVAL '1 mon'", NULL),
                  "! Cannot specify months in time zone interval.");
    expect_str_eq(tz_value(cache, "INTERVAL '-1 day'", NULL),
                  "! Cannot specify days in time zone interval.");
    expect_str_eq(tz_value(cache, "INTERVAL 'x", NULL), "! none");
    expect_str_eq(tz_value(cache, "200", NULL),
                  "! UTC timezone offset is out of range.");
    expect_str_eq(tz_value(cache, "1e300", NULL),
                  "! UTC timezone offset is out of range.");
    expect_error(tz_value(cache, "INTERVAL 'soon'", NULL),
                 ERRCODE_INVALID_DATETIME_FORMAT, "type interval");
    /* POSIX strings are known by their upper-case spelling; GMT is
     * never a file */
    expect_str_eq(tz_value(cache, "foo+3", NULL), "FOO+3");
    expect_str_eq(tz_value(cache, "gmt", NULL), "GMT");
    expect_str_eq(tz_value(cache, "", NULL), "! none");
    expect_str_eq(tz_value(cache, "nosuch/zone", NULL), "! none");
    if (!have_zone_database()) {
        tdb_mcxt_delete(cxt);
        test_skip("no time zone database in /usr/share/zoneinfo");
    }
    /* database names: the directory's spelling, one zone per value */
    expect_str_eq(tz_value(cache, "america/new_york", &a),
                  "America/New_York");
    expect_str_eq(tz_value(cache, "AMERICA/NEW_YORK", &b),
                  "America/New_York");
    expect_ptr_eq(a, b);
    expect_str_eq(tz_value(cache, "utc", NULL), "UTC");
    expect_str_eq(tz_value(cache, "America", NULL), "! none");
    if (access("/usr/share/zoneinfo/right/UTC", R_OK) == 0)
        expect_str_eq(tz_value(cache, "right/UTC", NULL), "! leap");
    tdb_mcxt_delete(cxt);
}
TEST_END

/* The output text of value (input text) of type typid. */
static const char *
roundtrip(Oid typid, const char *literal)
{
    return tdb_type_output(typid, tdb_type_input(typid, literal, -1));
}

TEST_BEGIN(test_output_follows_installed_settings)
{
    MemoryContext cxt = tdb_aset_create(tdb_current_mcxt, "zones",
                                        ALLOCSET_DEFAULT_SIZES);
    TzCache *cache = tdb_tzcache_create(cxt);
    TypeIOSettings io = tdb_typeio_defaults;
    TypeIOSettings inner = tdb_typeio_defaults;
    const char *canonical;
    const char *detail;
    bool leaps;

    /* nothing installed: PostgreSQL's defaults */
    expect_ptr_eq(tdb_typeio(), &tdb_typeio_defaults);
    expect_str_eq(roundtrip(TIMESTAMPTZOID, "2024-07-01 12:00-04"),
                  "2024-07-01 16:00:00+00");
    expect_str_eq(roundtrip(BYTEAOID, "\\x41ff"), "\\x41ff");
    expect_str_eq(roundtrip(FLOAT8OID, "0.1"), "0.1");

    io.timezone = tdb_typeio_parse_timezone(cache, "9.5", &canonical,
                                            &detail, &leaps);
    io.date_style = DATESTYLE_SQL;
    io.date_order = DATEORDER_DMY;
    io.interval_style = INTSTYLE_ISO_8601;
    io.bytea_output = BYTEA_OUTPUT_ESCAPE;
    io.extra_float_digits = -10;
    expect_ptr_null(tdb_typeio_install(&io));
    expect_str_eq(roundtrip(TIMESTAMPTZOID, "2024-07-01 12:00-04"),
                  "02/07/2024 01:30:00 +09:30");
    expect_str_eq(roundtrip(DATEOID, "2024-07-01"), "01/07/2024");
    /* input reads DMY now */
    expect_str_eq(roundtrip(DATEOID, "2/3/2024"), "02/03/2024");
    expect_str_eq(roundtrip(TIMESTAMPOID, "2/3/2024 10:00"),
                  "02/03/2024 10:00:00");
    expect_str_eq(roundtrip(INTERVALOID, "1 day 2 hours"), "P1DT2H");
    expect_str_eq(roundtrip(BYTEAOID, "\\x41ff5c"), "A\\377\\\\");
    expect_str_eq(roundtrip(FLOAT8OID, "0.123456789"), "0.12346");
    expect_str_eq(roundtrip(FLOAT4OID, "0.123456789"), "0.1");

    /* installs nest: the inner one, then the outer one again */
    inner.interval_style = INTSTYLE_POSTGRES_VERBOSE;
    expect_ptr_eq(tdb_typeio_install(&inner), &io);
    expect_str_eq(roundtrip(INTERVALOID, "-1 day"), "@ 1 day ago");
    expect_str_eq(roundtrip(TIMESTAMPTZOID, "2024-07-01 12:00-04"),
                  "2024-07-01 16:00:00+00");
    expect_ptr_eq(tdb_typeio_install(&io), &inner);
    expect_str_eq(roundtrip(INTERVALOID, "-1 day"), "P-1D");
    expect_ptr_eq(tdb_typeio_install(NULL), &io);
    expect_str_eq(roundtrip(INTERVALOID, "-1 day"), "-1 days");
    tdb_mcxt_delete(cxt);
}
TEST_END

/*
 * Two threads, each with its own settings installed, format the same
 * instant over and over: neither may ever see the other's zone.
 */
typedef struct ZoneThread {
    const TypeIOSettings *io;
    const char *want;
    int mismatches;
} ZoneThread;

static void *
zone_thread(void *arg)
{
    ZoneThread *zt = arg;

    tdb_mcxt_thread_init();
    tdb_typeio_install(zt->io);
    for (int i = 0; i < 20000; i++) {
        MemoryContext old = tdb_mcxt_switch_to(tdb_top_mcxt);
        const char *got = roundtrip(TIMESTAMPTZOID, "2024-01-01 00:00+00");

        if (strcmp(got, zt->want) != 0)
            zt->mismatches++;
        tdb_pfree((void *)got);
        tdb_mcxt_switch_to(old);
    }
    tdb_typeio_install(NULL);
    tdb_mcxt_thread_done();
    return NULL;
}

TEST_BEGIN(test_settings_are_per_thread)
{
    MemoryContext cxt = tdb_aset_create(tdb_current_mcxt, "zones",
                                        ALLOCSET_DEFAULT_SIZES);
    TzCache *cache = tdb_tzcache_create(cxt);
    TypeIOSettings west = tdb_typeio_defaults;
    TypeIOSettings east = tdb_typeio_defaults;
    ZoneThread a = {&west, "2023-12-31 19:00:00-05", 0};
    ZoneThread b = {&east, "Mon Jan 01 09:00:00 2024 +09", 0};
    pthread_t ta;
    pthread_t tb;
    const char *canonical;
    const char *detail;
    bool leaps;

    west.timezone =
        tdb_typeio_parse_timezone(cache, "-5", &canonical, &detail, &leaps);
    east.timezone =
        tdb_typeio_parse_timezone(cache, "9", &canonical, &detail, &leaps);
    east.date_style = DATESTYLE_POSTGRES;
    pthread_create(&ta, NULL, zone_thread, &a);
    pthread_create(&tb, NULL, zone_thread, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    expect_int_eq(a.mismatches, 0);
    expect_int_eq(b.mismatches, 0);
    /* and this thread still has nothing installed */
    expect_ptr_eq(tdb_typeio(), &tdb_typeio_defaults);
    tdb_mcxt_delete(cxt);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "types_typeio",
                     TEST_CASE(test_datestyle_values),
                     TEST_CASE(test_timezone_values),
                     TEST_CASE(test_output_follows_installed_settings),
                     TEST_CASE(test_settings_are_per_thread));
}
