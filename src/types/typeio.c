/*
 * typeio.c -- the thread's current TypeIOSettings, and reading the
 * DateStyle and TimeZone settings' values (types/typeio.h has the
 * design).
 *
 * TimeZone values are read as PostgreSQL's check_timezone reads them:
 *
 *   "INTERVAL '<interval>'"  a fixed offset, hours/minutes/seconds only
 *                            (SET TIME ZONE INTERVAL '-08:00' HOUR TO
 *                            MINUTE arrives in this form)
 *   a number of hours        "-5", "5.5": a fixed offset
 *   anything else            a zone name or POSIX TZ string
 *                            (datetime_tz.c)
 *
 * A fixed offset becomes the POSIX zone PostgreSQL's pg_tzset_offset
 * builds, "<+05:30>-05:30" (abbreviation "+05:30", POSIX sign), which
 * is also what SHOW prints for it.  Loaded zones go into the session's
 * TzCache, a list keyed by the upper-cased value: zones are immutable,
 * so every copy of a Settings may point at them for the cache's life.
 */
#include "common/base.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/builtins.h"
#include "types/datetime.h"
#include "types/typeio.h"

_Thread_local const TypeIOSettings *tdb_typeio_current = NULL;

const TypeIOSettings tdb_typeio_defaults = {
    .timezone = NULL, /* UTC */
    .date_style = DATESTYLE_ISO,
    .date_order = DATEORDER_MDY,
    .interval_style = INTSTYLE_POSTGRES,
    .bytea_output = BYTEA_OUTPUT_HEX,
    .extra_float_digits = 1,
    .xact_start = TYPEIO_NO_TIMESTAMP,
    .stmt_start = TYPEIO_NO_TIMESTAMP,
};

const TypeIOSettings *
tdb_typeio_install(const TypeIOSettings *s)
{
    const TypeIOSettings *old = tdb_typeio_current;

    tdb_typeio_current = s;
    return old;
}

const DtZone *
tdb_typeio_utc_zone(void)
{
    return tdb_dt_zone_utc();
}

int64
tdb_typeio_clock(void)
{
    return tdb_dt_now();
}

/* ----------------------------------------------------------------------
 * The zone cache
 * ---------------------------------------------------------------------- */

typedef struct TzCacheEntry {
    struct TzCacheEntry *next;
    char *key;          /* the value, upper-cased */
    const DtZone *zone;
    char *canonical;    /* what SHOW TimeZone prints */
} TzCacheEntry;

struct TzCache {
    MemoryContext cxt;
    TzCacheEntry *entries;
};

TzCache *
tdb_tzcache_create(MemoryContext cxt)
{
    TzCache *cache = tdb_mcxt_alloc_zero(cxt, sizeof(TzCache));

    cache->cxt = cxt;
    return cache;
}

static char *
upper_copy(const char *s)
{
    char *r = tdb_pstrdup(s);

    for (char *p = r; *p != '\0'; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - ('a' - 'A'));
    return r;
}

/*
 * The zone named name (a zone name or POSIX string), from the cache or
 * loaded into it; NULL if there is none.  *leaps: the zone exists but
 * uses leap seconds (not cached, not returned).
 */
static const TzCacheEntry *
cached_zone(TzCache *cache, const char *name, bool *leaps)
{
    char *key = upper_copy(name);
    char canon[256];
    const DtZone *zone;
    TzCacheEntry *e;
    MemoryContext scratch;
    MemoryContext old;

    *leaps = false;
    for (e = cache->entries; e != NULL; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e;
    /* loading reads a file into scratch memory; only the zone is kept */
    scratch = tdb_aset_create(tdb_current_mcxt, "TimeZoneLoad",
                              ALLOCSET_DEFAULT_SIZES);
    old = tdb_mcxt_switch_to(scratch);
    zone = tdb_dt_zone_lookup(name, canon);
    tdb_mcxt_switch_to(old);
    if (zone != NULL && tdb_dt_zone_has_leap_seconds(zone)) {
        zone = NULL;
        *leaps = true;
    }
    if (zone == NULL) {
        tdb_mcxt_delete(scratch);
        return NULL;
    }
    e = tdb_mcxt_alloc(cache->cxt, sizeof(TzCacheEntry));
    e->key = tdb_mcxt_strdup(cache->cxt, key);
    e->zone = tdb_dt_zone_copy(zone, cache->cxt);
    e->canonical = tdb_mcxt_strdup(cache->cxt, canon);
    e->next = cache->entries;
    cache->entries = e;
    tdb_mcxt_delete(scratch);
    return e;
}

/*
 * The zone of a fixed offset (seconds EAST of UTC is negative here:
 * gmtoffset follows the POSIX sign, positive west), named as
 * PostgreSQL's pg_tzset_offset names it; NULL if out of range.
 */
static const TzCacheEntry *
offset_zone(TzCache *cache, long gmtoffset)
{
    long abs_off = gmtoffset < 0 ? -gmtoffset : gmtoffset;
    char digits[64];
    char name[160];
    int n;
    bool leaps;

    n = snprintf(digits, sizeof(digits), "%02ld", abs_off / SECS_PER_HOUR);
    abs_off %= SECS_PER_HOUR;
    if (abs_off != 0) {
        n += snprintf(digits + n, sizeof(digits) - (Size)n, ":%02ld",
                      abs_off / SECS_PER_MINUTE);
        abs_off %= SECS_PER_MINUTE;
        if (abs_off != 0)
            snprintf(digits + n, sizeof(digits) - (Size)n, ":%02ld",
                     abs_off);
    }
    /* the abbreviation shows the offset east, the POSIX part west */
    if (gmtoffset > 0)
        snprintf(name, sizeof(name), "<-%s>+%s", digits, digits);
    else
        snprintf(name, sizeof(name), "<+%s>-%s", digits, digits);
    return cached_zone(cache, name, &leaps);
}

const DtZone *
tdb_typeio_parse_timezone(TzCache *cache, const char *value,
                          const char **canonical, const char **detail,
                          bool *leap_seconds)
{
    const TzCacheEntry *e;
    char *end;
    double hours;

    *detail = NULL;
    *leap_seconds = false;
    if (strncasecmp(value, "interval", 8) == 0) {
        /* INTERVAL 'text': SQL's way to give a fixed offset */
        const char *p = value + 8;
        char *literal;
        char *quote;
        Interval span;

        while (isspace((unsigned char)*p))
            p++;
        if (*p++ != '\'')
            return NULL;
        literal = tdb_pstrdup(p);
        quote = strchr(literal, '\'');
        if (quote == NULL || quote[1] != '\0')
            return NULL;
        *quote = '\0';
        span = tdb_interval_get(tdb_type_input(INTERVALOID, literal, -1));
        if (span.month != 0) {
            *detail = "Cannot specify months in time zone interval.";
            return NULL;
        }
        if (span.day != 0) {
            *detail = "Cannot specify days in time zone interval.";
            return NULL;
        }
        e = offset_zone(cache, (long)-(span.time / USECS_PER_SEC));
    } else {
        errno = 0;
        hours = strtod(value, &end);
        if (end != value && *end == '\0') {
            /* hours east of UTC; the zone wants seconds west */
            double secs = -hours * SECS_PER_HOUR;

            if (!(fabs(secs) < (double)LONG_MAX))
                e = NULL;
            else
                e = offset_zone(cache, (long)secs);
        } else {
            e = cached_zone(cache, value, leap_seconds);
            if (e == NULL)
                return NULL;
        }
    }
    if (e == NULL) {
        *detail = "UTC timezone offset is out of range.";
        return NULL;
    }
    *canonical = e->canonical;
    return e->zone;
}

/* ----------------------------------------------------------------------
 * DateStyle
 * ---------------------------------------------------------------------- */

/*
 * Split a comma-separated list of identifiers as PostgreSQL's
 * SplitIdentifierString does: unquoted names are lower-cased and cut to
 * 63 bytes, "quoted" ones kept ("" is a quote), blanks around commas
 * ignored.  Returns the number of names put into names[0..max-1], or -1
 * if the syntax is invalid (an empty name, a missing comma).
 */
static int
split_identifiers(char *raw, char **names, int max)
{
    char *p = raw;
    int n = 0;

    while (isspace((unsigned char)*p))
        p++;
    if (*p == '\0')
        return 0;
    for (;;) {
        char *name;
        char *name_end;
        char sep;

        if (*p == '"') {
            /* a quoted name ends at a lone '"'; "" stands for '"' */
            name = ++p;
            for (;;) {
                char *q = strchr(p, '"');

                if (q == NULL)
                    return -1;
                if (q[1] != '"') {
                    p = q;
                    break;
                }
                memmove(q, q + 1, strlen(q));
                p = q + 1;
            }
            if (p == name)
                return -1;
            name_end = p++;
        } else {
            name = p;
            while (*p != '\0' && *p != ',' && !isspace((unsigned char)*p))
                p++;
            if (p == name)
                return -1;
            name_end = p;
            for (char *c = name; c < name_end; c++)
                if (*c >= 'A' && *c <= 'Z')
                    *c = (char)(*c + ('a' - 'A'));
        }
        while (isspace((unsigned char)*p))
            p++;
        sep = *p;
        if (sep != '\0' && sep != ',')
            return -1;
        *name_end = '\0';
        if (strlen(name) > 63)
            name[63] = '\0';
        if (n >= max)
            return -1;
        names[n++] = name;
        if (sep == '\0')
            return n;
        p++;
        while (isspace((unsigned char)*p))
            p++;
    }
}

static const char *const style_names[] = {
    [DATESTYLE_POSTGRES] = "Postgres", [DATESTYLE_ISO] = "ISO",
    [DATESTYLE_SQL] = "SQL", [DATESTYLE_GERMAN] = "German"};
static const char *const order_names[] = {
    [DATEORDER_YMD] = "YMD", [DATEORDER_DMY] = "DMY",
    [DATEORDER_MDY] = "MDY"};

/* The keyword's style or order; false if it is neither. */
static bool
datestyle_keyword(const char *tok, int *style, int *order)
{
    static const struct {
        const char *word;
        int style; /* -1: not a style */
        int order; /* -1: not an order */
    } words[] = {
        {"iso", DATESTYLE_ISO, -1},       {"sql", DATESTYLE_SQL, -1},
        {"postgres", DATESTYLE_POSTGRES, -1},
        {"german", DATESTYLE_GERMAN, -1}, {"ymd", -1, DATEORDER_YMD},
        {"dmy", -1, DATEORDER_DMY},       {"euro", -1, DATEORDER_DMY},
        {"european", -1, DATEORDER_DMY},  {"mdy", -1, DATEORDER_MDY},
        {"us", -1, DATEORDER_MDY},        {"noneuro", -1, DATEORDER_MDY},
        {"noneuropean", -1, DATEORDER_MDY},
    };

    for (Size i = 0; i < lengthof(words); i++)
        if (strcasecmp(tok, words[i].word) == 0) {
            *style = words[i].style;
            *order = words[i].order;
            return true;
        }
    return false;
}

bool
tdb_typeio_parse_datestyle(const char *value, int *style, int *order,
                           char *canonical, Size size, char **detail)
{
    char *raw = tdb_pstrdup(value);
    char *names[64];
    int n = split_identifiers(raw, names, (int)lengthof(names));
    int new_style = *style;
    int new_order = *order;
    bool have_style = false;
    bool have_order = false;
    bool ok = true;

    *detail = NULL;
    if (n < 0) {
        *detail = tdb_pstrdup("List syntax is invalid.");
        return false;
    }
    for (int i = 0; i < n; i++) {
        int kw_style;
        int kw_order;

        if (strcasecmp(names[i], "default") == 0) {
            /* the default's parts fill in what is not given yet */
            if (!have_style)
                new_style = DATESTYLE_ISO;
            if (!have_order)
                new_order = DATEORDER_MDY;
            continue;
        }
        if (!datestyle_keyword(names[i], &kw_style, &kw_order)) {
            char buf[128];

            snprintf(buf, sizeof(buf), "Unrecognized key word: \"%s\".",
                     names[i]);
            *detail = tdb_pstrdup(buf);
            return false;
        }
        if (kw_style >= 0) {
            if (have_style && new_style != kw_style)
                ok = false;
            new_style = kw_style;
            have_style = true;
            /* German implies day-month order unless an order was given */
            if (kw_style == DATESTYLE_GERMAN && !have_order)
                new_order = DATEORDER_DMY;
        } else {
            if (have_order && new_order != kw_order)
                ok = false;
            new_order = kw_order;
            have_order = true;
        }
    }
    if (!ok) {
        *detail = tdb_pstrdup("Conflicting \"datestyle\" specifications.");
        return false;
    }
    *style = new_style;
    *order = new_order;
    snprintf(canonical, size, "%s, %s", style_names[new_style],
             order_names[new_order]);
    return true;
}
