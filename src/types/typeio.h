/*
 * typeio.h -- the session settings that type input/output and a few
 * functions read (TimeZone, DateStyle, IntervalStyle, extra_float_digits,
 * bytea_output) and the transaction and statement start times.
 *
 * Design.  The types layer sits below sql/, which owns the settings
 * (guc/guc.h), so it cannot read a Session.  Instead each thread has a
 * "current" TypeIOSettings pointer, installed by whoever runs statements:
 *
 *     Session (tcop/session.c)                      types/
 *     +-------------------------+   install   +-------------------+
 *     | Settings (guc.h)        |   per call  | _Thread_local     |
 *     |   strings + parsed zone |------------>| current pointer   |
 *     | TypeIOSettings typeio --+-------------| tdb_typeio()      |
 *     |   (copied from Settings |             +-------------------+
 *     |    on SET/RESET/xact    |               read by date/time,
 *     |    end; timestamps set  |               float, bytea I/O,
 *     |    per transaction and  |               now(), 'now', ...
 *     |    per command string)  |
 *     +-------------------------+
 *
 * tdb_typeio_install() sets the pointer and returns the previous one, so
 * calls nest (a session run from inside another restores the outer
 * one).  The server runs one session per thread and the embedded API
 * installs around each call, so a thread always sees the session that
 * is running on it.  With nothing installed (unit tests, code outside a
 * session) tdb_typeio() returns PostgreSQL's defaults with UTC and the
 * clock standing in for the start times.
 *
 * The settings part of a TypeIOSettings is a plain value: the zone it
 * points to is immutable and lives in a TzCache (below) owned by the
 * session, so copying the struct -- as transactional SET does when it
 * saves and restores values -- is always safe.
 *
 * Parsing of the settings' text (the DateStyle list, TimeZone names,
 * numeric offsets and INTERVAL forms) lives here too, because it needs
 * the date/time family's vocabulary; guc/guc.c calls it and raises
 * PostgreSQL's errors.
 */
#ifndef TDB_TYPES_TYPEIO_H
#define TDB_TYPES_TYPEIO_H

#include "common/base.h"
#include "mmgr/mcxt.h"

/* A time zone (date/time family, datetime_tz.c); immutable once made. */
typedef struct DtZone DtZone;

/* DateStyle's output style (PostgreSQL's USE_*_DATES). */
typedef enum DateStyleKind {
    DATESTYLE_POSTGRES = 0,
    DATESTYLE_ISO = 1,
    DATESTYLE_SQL = 2,
    DATESTYLE_GERMAN = 3,
} DateStyleKind;

/* DateStyle's field order for reading (and SQL/Postgres output). */
typedef enum DateOrderKind {
    DATEORDER_YMD = 0,
    DATEORDER_DMY = 1,
    DATEORDER_MDY = 2,
} DateOrderKind;

typedef enum IntervalStyleKind {
    INTSTYLE_POSTGRES = 0,
    INTSTYLE_POSTGRES_VERBOSE = 1,
    INTSTYLE_SQL_STANDARD = 2,
    INTSTYLE_ISO_8601 = 3,
} IntervalStyleKind;

typedef enum ByteaOutputKind {
    BYTEA_OUTPUT_ESCAPE = 0,
    BYTEA_OUTPUT_HEX = 1,
} ByteaOutputKind;

/* A start time that was never set: the readers use the clock instead. */
#define TYPEIO_NO_TIMESTAMP INT64_MIN

/*
 * Catalog lookups for the reg* types (regtypes.c), which the types layer
 * cannot make itself: the session supplies them (tcop/regnames.c).
 * Results are allocated in the current memory context.
 */
typedef struct CatalogLookup {
    void *arg;
    /* the name of relation relid as regclass prints it, or NULL */
    char *(*relation_name)(void *arg, Oid relid);
    /* the OID of the relation named name (as regclass reads it), or
     * InvalidOid */
    Oid (*relation_oid)(void *arg, const char *name);
    /* a stored DEFAULT/CHECK expression of relation relid as
     * pg_get_expr prints it (pretty or not) */
    char *(*deparse_expr)(void *arg, const char *sql, Oid relid,
                          bool pretty);
    /* pg_get_indexdef: index indexoid's CREATE INDEX statement (colno
     * 0) or its column colno as PostgreSQL prints them; NULL when
     * indexoid is not an index or colno not one of its columns */
    char *(*index_def)(void *arg, Oid indexoid, int colno, bool pretty);
    /* pg_get_constraintdef: constraint conoid's definition; NULL when
     * there is no such constraint */
    char *(*constraint_def)(void *arg, Oid conoid, bool pretty);
} CatalogLookup;

typedef struct TypeIOSettings {
    /* --- settings (copied from the session's Settings) --- */
    const DtZone *timezone;  /* TimeZone; NULL is UTC */
    uint8 date_style;        /* DateStyleKind */
    uint8 date_order;        /* DateOrderKind */
    uint8 interval_style;    /* IntervalStyleKind */
    uint8 bytea_output;      /* ByteaOutputKind */
    int extra_float_digits;  /* -15 .. 3 */
    /* --- times (timestamptz, microseconds since 2000-01-01 UTC) --- */
    int64 xact_start;        /* now(), transaction_timestamp(), 'now' */
    int64 stmt_start;        /* statement_timestamp(): the command
                              * string's arrival, as PostgreSQL */
    /* --- the session's catalog, for regclass (NULL: none; OIDs then
     * print as numbers and names are not found) --- */
    const CatalogLookup *catalog;
} TypeIOSettings;

/* The current thread's installed pointer (NULL: none).  Use tdb_typeio. */
extern _Thread_local const TypeIOSettings *tdb_typeio_current;

/* PostgreSQL's defaults: UTC, ISO/MDY, postgres, 1, hex, no times. */
extern const TypeIOSettings tdb_typeio_defaults;

/* The settings in force on this thread (never NULL; borrowed). */
static inline const TypeIOSettings *
tdb_typeio(void)
{
    const TypeIOSettings *s = tdb_typeio_current;

    return likely(s != NULL) ? s : &tdb_typeio_defaults;
}

/*
 * Make s this thread's current settings (NULL: the defaults); returns
 * the previous pointer for the caller to reinstall.  s is borrowed and
 * must stay valid while installed.
 */
const TypeIOSettings *tdb_typeio_install(const TypeIOSettings *s);

/* The built-in UTC zone (the default TimeZone; no file is read). */
const DtZone *tdb_typeio_utc_zone(void);

/* The real-time clock as a timestamptz (for the start times). */
int64 tdb_typeio_clock(void);

/* ----------------------------------------------------------------------
 * Parsing settings' values (for guc/guc.c)
 * ---------------------------------------------------------------------- */

/*
 * A session's loaded zones, keyed by the value that named them (case
 * folded), so that repeated SET TimeZone reads no file and the memory a
 * session spends on zones is bounded by the names it uses.  Allocated in
 * a context the session owns; zones stay valid as long as the cache.
 */
typedef struct TzCache TzCache;

TzCache *tdb_tzcache_create(MemoryContext cxt);

/*
 * Parse a TimeZone value as PostgreSQL's check_timezone does: a zone
 * name from the time zone database (matched case-insensitively), a POSIX
 * TZ string, a number of hours ("-5", "5.5"), or "INTERVAL '...'" (what
 * SET TIME ZONE INTERVAL '...' becomes).  On success returns the zone
 * and sets *canonical to the name SHOW prints ("America/New_York",
 * "<+05:30>-05:30"; borrowed from the cache).  On failure returns NULL
 * with *detail set to PostgreSQL's DETAIL (or NULL for none) and
 * *leap_seconds set when the name was found but uses leap seconds.  An
 * INTERVAL that interval input rejects raises its error.
 */
const DtZone *tdb_typeio_parse_timezone(TzCache *cache, const char *value,
                                        const char **canonical,
                                        const char **detail,
                                        bool *leap_seconds);

/*
 * Parse a DateStyle list ("ISO, DMY", "SQL", "euro", "default") as
 * PostgreSQL's check_datestyle does.  *style and *order hold the
 * current values on entry (parts the list leaves out keep them) and the
 * new ones on success; canonical (size bytes) receives "ISO, DMY".
 * Returns false with *detail set to PostgreSQL's DETAIL (palloc'd) when
 * the list is invalid or contradicts itself.
 */
bool tdb_typeio_parse_datestyle(const char *value, int *style, int *order,
                                char *canonical, Size size, char **detail);

#endif /* TDB_TYPES_TYPEIO_H */
