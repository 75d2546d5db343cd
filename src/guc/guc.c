/*
 * guc.c -- the settings table and SET/SHOW/RESET (guc.h).
 *
 * A setting is a row of `settings`: its name as PostgreSQL spells it,
 * its kind, where its value lives in Settings (an offset), its default
 * and limits.  Integer settings may carry a unit (memory in kB, time in
 * ms) and accept values with units ("64MB", "2s") and print with the
 * largest unit that divides the value, as PostgreSQL does.
 *
 * Settings with a fixed list of values (PostgreSQL's enums) store the
 * list's spelling, so SHOW prints it in PostgreSQL's case.  A few
 * settings have an assign hook that parses the value, stores what SHOW
 * prints (PostgreSQL's canonical form: DateStyle "ISO, MDY", TimeZone
 * "America/New_York" or "<+02>-02") and the parsed form the types layer
 * reads (guc.h).  As in PostgreSQL, the error for a bad value names the
 * setting as the statement spelled it, except for the hooked settings
 * (DateStyle, TimeZone), whose errors use the setting's own spelling.
 */
#include "common/base.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/elog.h"
#include "common/stack_depth.h"
#include "mmgr/mcxt.h"
#include "guc/guc.h"
#include "toast/toast.h"

typedef enum GucKind {
    GUC_BOOL,
    GUC_INT,
    GUC_REAL,
    GUC_STRING,
} GucKind;

typedef enum GucUnit {
    GUC_UNIT_NONE,
    GUC_UNIT_KB, /* stored in kB */
    GUC_UNIT_MS, /* stored in ms */
} GucUnit;

typedef struct GucDef GucDef;

/*
 * Parse value for def and store it (text and parsed form) into s, or
 * raise 22023.  name: the setting as the statement spelled it.
 */
typedef void (*GucAssignHook)(const GucDef *def, Settings *s,
                              const char *name, const char *value);

/*
 * The value to store for value (in range), or 22023 if def may not take
 * it here; a default (is_default) that may not is lowered instead.
 */
typedef int (*GucIntCheckHook)(const GucDef *def, int value, bool is_default);

struct GucDef {
    const char *name; /* PostgreSQL's spelling (SHOW's column label) */
    GucKind kind;
    GucUnit unit;
    size_t offset; /* of the value in Settings */
    double min, max;
    const char *default_value; /* as SET would take it */
    const char *const *allowed; /* GUC_STRING: accepted values (case-
                                 * insensitive), NULL = anything */
    size_t size;                /* GUC_STRING: the field's size */
    GucAssignHook assign;       /* GUC_STRING: parses and stores the
                                 * value; NULL: stored as given */
    GucIntCheckHook check;      /* GUC_INT: NULL, or checks beyond the
                                 * range */
};

/* The settings only a superuser may set (PostgreSQL's PGC_SUSET). */
static const char *const superuser_settings[] = {"max_stack_depth", NULL};

#define OFF(field) offsetof(Settings, field)
#define CHECKED_INT_SETTING(name, field, unit, min, max, def, check)           \
    {                                                                          \
        name, GUC_INT, unit, OFF(field), min, max, def, NULL, 0, NULL, check   \
    }
#define INT_SETTING(name, field, unit, min, max, def)                          \
    CHECKED_INT_SETTING(name, field, unit, min, max, def, NULL)
#define BOOL_SETTING(name, field, def)                                         \
    {                                                                          \
        name, GUC_BOOL, GUC_UNIT_NONE, OFF(field), 0, 1, def, NULL, 0, NULL,   \
            NULL                                                               \
    }
#define HOOK_SETTING(name, field, def, allowed, hook)                          \
    {                                                                          \
        name, GUC_STRING, GUC_UNIT_NONE, OFF(field), 0, 0, def, allowed,       \
            sizeof(((Settings *)0)->field), hook, NULL                         \
    }
#define STRING_SETTING(name, field, def, allowed)                           \
    HOOK_SETTING(name, field, def, allowed, NULL)

static void assign_timezone(const GucDef *def, Settings *s, const char *name,
                            const char *value);
static void assign_datestyle(const GucDef *def, Settings *s,
                             const char *name, const char *value);
static void assign_interval_style(const GucDef *def, Settings *s,
                                  const char *name, const char *value);
static void assign_bytea_output(const GucDef *def, Settings *s,
                                const char *name, const char *value);
static void assign_application_name(const GucDef *def, Settings *s,
                                    const char *name, const char *value);
static int check_max_stack_depth(const GucDef *def, int value, bool is_default);

static const char *const encodings[] = {"UTF8", "UNICODE", "UTF-8", NULL};
static const char *const message_levels[] = {
    "debug5", "debug4", "debug3", "debug2",  "debug1", "log",
    "notice", "warning", "error", NULL};
/* in IntervalStyleKind order */
static const char *const interval_styles[] = {
    "postgres", "postgres_verbose", "sql_standard", "iso_8601", NULL};
/* in ByteaOutputKind order */
static const char *const bytea_outputs[] = {"escape", "hex", NULL};
static const char *const on_only[] = {"on", NULL};
/* PostgreSQL's order (its hint lists them so) */
static const char *const toast_compressions[] = {"pglz", "lz4", NULL};

static const GucDef settings[] = {
    HOOK_SETTING("application_name", application_name, "", NULL,
                 assign_application_name),
    HOOK_SETTING("bytea_output", bytea_output, "hex", bytea_outputs,
                 assign_bytea_output),
    STRING_SETTING("client_encoding", client_encoding, "UTF8", encodings),
    STRING_SETTING("client_min_messages", client_min_messages, "notice",
                   message_levels),
    HOOK_SETTING("DateStyle", datestyle, "ISO, MDY", NULL, assign_datestyle),
    STRING_SETTING("default_toast_compression", default_toast_compression,
                   "pglz", toast_compressions),
    INT_SETTING("detoast_cache_size", detoast_cache_size, GUC_UNIT_KB, 0,
                INT_MAX / 1024, "65536"),
    /* tupledb makes no bitmap scans: accepted for scripts that set it */
    BOOL_SETTING("enable_bitmapscan", enable_bitmapscan, "on"),
    BOOL_SETTING("enable_hashagg", enable_hashagg, "on"),
    BOOL_SETTING("enable_hashjoin", enable_hashjoin, "on"),
    BOOL_SETTING("enable_indexonlyscan", enable_indexonlyscan, "on"),
    BOOL_SETTING("enable_indexscan", enable_indexscan, "on"),
    BOOL_SETTING("enable_mergejoin", enable_mergejoin, "on"),
    BOOL_SETTING("enable_nestloop", enable_nestloop, "on"),
    BOOL_SETTING("enable_seqscan", enable_seqscan, "on"),
    BOOL_SETTING("enable_sort", enable_sort, "on"),
    INT_SETTING("extra_float_digits", extra_float_digits, GUC_UNIT_NONE, -15, 3,
                "1"),
    {"hash_mem_multiplier", GUC_REAL, GUC_UNIT_NONE, OFF(hash_mem_multiplier),
     1.0, 1000.0, "2", NULL, 0, NULL, NULL},
    HOOK_SETTING("IntervalStyle", intervalstyle, "postgres", interval_styles,
                 assign_interval_style),
    INT_SETTING("lock_timeout", lock_timeout, GUC_UNIT_MS, 0, INT_MAX, "0"),
    INT_SETTING("maintenance_work_mem", maintenance_work_mem, GUC_UNIT_KB, 1024,
                INT_MAX, "65536"),
    /* "2048": STACK_DEPTH_DEFAULT_KB */
    CHECKED_INT_SETTING("max_stack_depth", max_stack_depth, GUC_UNIT_KB,
                        STACK_DEPTH_MIN_KB, INT_MAX, "2048",
                        check_max_stack_depth),
    STRING_SETTING("search_path", search_path, "\"$user\", public", NULL),
    INT_SETTING("statement_timeout", statement_timeout, GUC_UNIT_MS, 0, INT_MAX,
                "0"),
    STRING_SETTING("standard_conforming_strings", standard_conforming_strings,
                   "on", on_only),
    HOOK_SETTING("TimeZone", timezone, "UTC", NULL, assign_timezone),
    BOOL_SETTING("trace_detoast", trace_detoast, "off"),
    BOOL_SETTING("trace_sort", trace_sort, "off"),
    INT_SETTING("work_mem", work_mem, GUC_UNIT_KB, 64, INT_MAX, "4096"),
};

#define NSETTINGS ((int)(sizeof(settings) / sizeof(settings[0])))

static const GucDef *
find_setting(const char *name)
{
    for (int i = 0; i < NSETTINGS; i++)
        if (strcasecmp(settings[i].name, name) == 0)
            return &settings[i];
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
            errmsg("unrecognized configuration parameter \"%s\"", name));
}

/* ----------------------------------------------------------------------
 * Units
 * ---------------------------------------------------------------------- */

typedef struct UnitName {
    const char *name;
    double multiplier; /* in the base unit (kB or ms) */
} UnitName;

static const UnitName memory_units[] = {
    {"TB", 1024.0 * 1024 * 1024}, {"GB", 1024.0 * 1024}, {"MB", 1024.0},
    {"kB", 1.0}, {"B", 1.0 / 1024}, {NULL, 0},
};

static const UnitName time_units[] = {
    {"d", 86400000.0}, {"h", 3600000.0}, {"min", 60000.0}, {"s", 1000.0},
    {"ms", 1.0},       {"us", 0.001},    {NULL, 0},
};

static const UnitName *
units_of(GucUnit unit)
{
    return unit == GUC_UNIT_KB ? memory_units
                               : unit == GUC_UNIT_MS ? time_units : NULL;
}

static TDB_NORETURN void
invalid_value(const char *name, const char *value, const char *hint)
{
    if (hint != NULL)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid value for parameter \"%s\": \"%s\"", name,
                       value),
                errhint("%s", hint));
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
            errmsg("invalid value for parameter \"%s\": \"%s\"", name,
                   value));
}

/* The same with a DETAIL (NULL: none), for the hooked settings. */
static TDB_NORETURN void
invalid_value_detail(const GucDef *def, const char *value, const char *detail)
{
    if (detail == NULL)
        invalid_value(def->name, value, NULL);
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
            errmsg("invalid value for parameter \"%s\": \"%s\"", def->name,
                   value),
            errdetail("%s", detail));
}

/* Parse a number with an optional unit into the setting's base unit. */
static double
parse_number(const GucDef *def, const char *name, const char *value)
{
    const UnitName *units = units_of(def->unit);
    char *end;
    double number;

    errno = 0;
    number = strtod(value, &end);
    if (end == value || errno == ERANGE || isnan(number))
        invalid_value(name, value, NULL);
    while (isspace((unsigned char)*end))
        end++;
    if (*end == '\0')
        return number;
    for (int i = 0; units != NULL && units[i].name != NULL; i++)
        if (strcmp(end, units[i].name) == 0)
            return number * units[i].multiplier;
    if (def->unit == GUC_UNIT_KB)
        invalid_value(name, value,
                      "Valid units for this parameter are \"B\", \"kB\", "
                      "\"MB\", \"GB\", and \"TB\".");
    if (def->unit == GUC_UNIT_MS)
        invalid_value(name, value,
                      "Valid units for this parameter are \"us\", \"ms\", "
                      "\"s\", \"min\", \"h\", and \"d\".");
    invalid_value(name, value, NULL);
}

static bool
parse_bool(const char *name, const char *value)
{
    static const char *const truths[] = {"on", "true", "yes", "1", NULL};
    static const char *const lies[] = {"off", "false", "no", "0", NULL};

    for (int i = 0; truths[i] != NULL; i++)
        if (strcasecmp(value, truths[i]) == 0)
            return true;
    for (int i = 0; lies[i] != NULL; i++)
        if (strcasecmp(value, lies[i]) == 0)
            return false;
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
            errmsg("parameter \"%s\" requires a Boolean value", name));
}

static void
check_range(const GucDef *def, const char *name, double number)
{
    const char *unit = def->unit == GUC_UNIT_KB   ? " kB"
                       : def->unit == GUC_UNIT_MS ? " ms"
                                                  : "";

    if (number >= def->min && number <= def->max)
        return;
    if (def->kind == GUC_REAL)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("%g is outside the valid range for parameter \"%s\" "
                       "(%g .. %g)",
                       number, name, def->min, def->max));
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
            errmsg("%.0f%s is outside the valid range for parameter \"%s\" "
                   "(%.0f .. %.0f)",
                   number, unit, name, def->min, def->max));
}

/*
 * The index of value in def's list of allowed values, or an error
 * (PostgreSQL's enum settings list what they accept in a hint).
 */
static int
allowed_index(const GucDef *def, const char *name, const char *value)
{
    for (int i = 0; def->allowed[i] != NULL; i++)
        if (strcasecmp(value, def->allowed[i]) == 0)
            return i;
    if (def->allowed != encodings && def->allowed != on_only) {
        char hint[256] = "Available values: ";

        for (int i = 0; def->allowed[i] != NULL; i++) {
            strncat(hint, def->allowed[i], sizeof(hint) - strlen(hint) - 1);
            strncat(hint, def->allowed[i + 1] != NULL ? ", " : ".",
                    sizeof(hint) - strlen(hint) - 1);
        }
        invalid_value(name, value, hint);
    }
    invalid_value(def->name, value, NULL);
}

static void
store_string(const GucDef *def, Settings *s, const char *value)
{
    snprintf((char *)s + def->offset, def->size, "%s", value);
}

static void
set_string(const GucDef *def, Settings *s, const char *name,
           const char *value)
{
    if (def->assign != NULL) {
        def->assign(def, s, name, value);
        return;
    }
    if (def->allowed != NULL) {
        int i = allowed_index(def, name, value);

        /* an enum's own spelling; the encoding's canonical name */
        value = def->allowed == encodings ? encodings[0] : def->allowed[i];
    }
    if (strlen(value) >= def->size)
        invalid_value(def->name, value, NULL);
    store_string(def, s, value);
}

/*
 * application_name keeps printable ASCII only: PostgreSQL 15 turns every
 * other byte into '?' (its check_application_name), whether the name
 * came from SET or from a startup packet -- whose bytes nothing else
 * checks, so this is also what keeps them from becoming text that is
 * not UTF-8.
 */
static void
assign_application_name(const GucDef *def, Settings *s, const char *name,
                        const char *value)
{
    char *clean = tdb_pstrdup(value);

    (void)name;
    for (char *c = clean; *c != '\0'; c++)
        if ((unsigned char)*c < 32 || (unsigned char)*c > 126)
            *c = '?';
    if (strlen(clean) >= def->size)
        invalid_value(def->name, clean, NULL);
    store_string(def, s, clean);
}

/* ----------------------------------------------------------------------
 * The type I/O settings (assign hooks)
 * ---------------------------------------------------------------------- */

static void
assign_timezone(const GucDef *def, Settings *s, const char *name,
                const char *value)
{
    const DtZone *zone;
    const char *canonical;
    const char *detail;
    bool leaps;

    (void)name;
    if (strcmp(value, def->default_value) == 0) {
        /* the default, UTC, needs no file */
        zone = tdb_typeio_utc_zone();
        canonical = def->default_value;
    } else {
        zone = tdb_typeio_parse_timezone(s->zones, value, &canonical, &detail,
                                         &leaps);
        if (zone == NULL && leaps)
            ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("time zone \"%s\" appears to use leap seconds",
                           value),
                    errdetail("PostgreSQL does not support leap seconds."));
        if (zone == NULL)
            invalid_value_detail(def, value, detail);
    }
    if (strlen(canonical) >= def->size)
        invalid_value(def->name, value, NULL);
    store_string(def, s, canonical);
    s->tz = zone;
}

static void
assign_datestyle(const GucDef *def, Settings *s, const char *name,
                 const char *value)
{
    int style = s->date_style;
    int order = s->date_order;
    char canonical[32];
    char *detail;

    (void)name;
    if (!tdb_typeio_parse_datestyle(value, &style, &order, canonical,
                                    sizeof(canonical), &detail))
        invalid_value_detail(def, value, detail);
    store_string(def, s, canonical);
    s->date_style = (uint8)style;
    s->date_order = (uint8)order;
}

static void
assign_interval_style(const GucDef *def, Settings *s, const char *name,
                      const char *value)
{
    int i = allowed_index(def, name, value);

    store_string(def, s, def->allowed[i]);
    s->interval_style = (uint8)i;
}

static void
assign_bytea_output(const GucDef *def, Settings *s, const char *name,
                    const char *value)
{
    int i = allowed_index(def, name, value);

    store_string(def, s, def->allowed[i]);
    s->bytea_output_kind = (uint8)i;
}

/*
 * max_stack_depth must leave the slop of the thread's stack free
 * (PostgreSQL's check against the stack rlimit, with its messages); the
 * default, 2MB, is lowered on a thread with less, as PostgreSQL lowers it
 * under a small rlimit.
 */
static int
check_max_stack_depth(const GucDef *def, int value, bool is_default)
{
    int max_kb = tdb_stack_depth_max_kb();

    if (value > max_kb && is_default)
        return max_kb;
    if (value > max_kb)
        ereport(
            ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
            errmsg("invalid value for parameter \"%s\": %d", def->name, value),
            errdetail("\"max_stack_depth\" must not exceed %dkB.", max_kb),
            errhint("Increase the platform's stack depth limit via "
                    "\"ulimit -s\" or local equivalent."));
    return value;
}

void
tdb_guc_typeio(const Settings *s, TypeIOSettings *io)
{
    io->timezone = s->tz;
    io->date_style = s->date_style;
    io->date_order = s->date_order;
    io->interval_style = s->interval_style;
    io->bytea_output = s->bytea_output_kind;
    io->extra_float_digits = s->extra_float_digits;
}

void
tdb_guc_set(Settings *s, const char *name, const char *value)
{
    const GucDef *def = find_setting(name);
    bool is_default = value == NULL;
    double number;

    if (is_default)
        value = def->default_value;
    switch (def->kind) {
    case GUC_BOOL:
        *(bool *)((char *)s + def->offset) = parse_bool(name, value);
        break;
    case GUC_INT:
        number = rint(parse_number(def, name, value));
        check_range(def, name, number);
        if (def->check != NULL)
            number = def->check(def, (int)number, is_default);
        *(int *)((char *)s + def->offset) = (int)number;
        break;
    case GUC_REAL:
        number = parse_number(def, name, value);
        check_range(def, name, number);
        *(double *)((char *)s + def->offset) = number;
        break;
    case GUC_STRING:
        set_string(def, s, name, value);
        break;
    }
}

bool
tdb_guc_is_superuser_only(const char *name)
{
    for (int i = 0; superuser_settings[i] != NULL; i++)
        if (strcasecmp(name, superuser_settings[i]) == 0)
            return true;
    return false;
}

void
tdb_guc_check_privilege(const char *name, bool is_superuser)
{
    if (!is_superuser && tdb_guc_is_superuser_only(name))
        ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                errmsg("permission denied to set parameter \"%s\"",
                       find_setting(name)->name));
}

void
tdb_guc_init(Settings *s, TzCache *zones)
{
    memset(s, 0, sizeof(*s));
    s->zones = zones;
    for (int i = 0; i < NSETTINGS; i++)
        tdb_guc_set(s, settings[i].name, NULL);
}

void
tdb_guc_copy(Settings *dst, const Settings *src, const char *name)
{
    const GucDef *def = find_setting(name);
    Size size;

    if (def->assign != NULL) {
        /* the canonical text names the same value, parsed again (a
         * TimeZone comes from the shared cache) */
        const char *label;

        tdb_guc_set(dst, def->name, tdb_guc_show(src, def->name, &label));
        return;
    }
    switch (def->kind) {
    case GUC_BOOL:
        size = sizeof(bool);
        break;
    case GUC_INT:
        size = sizeof(int);
        break;
    case GUC_REAL:
        size = sizeof(double);
        break;
    default:
        size = def->size;
        break;
    }
    memcpy((char *)dst + def->offset, (const char *)src + def->offset, size);
}

/* An integer with the largest unit that divides it exactly. */
static char *
show_with_unit(const GucDef *def, int value)
{
    const UnitName *units = units_of(def->unit);
    char buf[64];

    snprintf(buf, sizeof(buf), "%d", value);
    if (units != NULL && value != 0) {
        for (int i = 0; units[i].name != NULL; i++) {
            double m = units[i].multiplier;

            if (m >= 1.0 && fmod((double)value, m) == 0) {
                snprintf(buf, sizeof(buf), "%.0f%s", value / m,
                         units[i].name);
                break;
            }
        }
    }
    return tdb_mcxt_strdup(tdb_current_mcxt, buf);
}

char *
tdb_guc_show(const Settings *s, const char *name, const char **label)
{
    const GucDef *def = find_setting(name);
    const char *field = (const char *)s + def->offset;
    char buf[64];

    *label = def->name;
    switch (def->kind) {
    case GUC_BOOL:
        return tdb_mcxt_strdup(tdb_current_mcxt,
                               *(const bool *)field ? "on" : "off");
    case GUC_INT:
        return show_with_unit(def, *(const int *)field);
    case GUC_REAL:
        snprintf(buf, sizeof(buf), "%g", *(const double *)field);
        return tdb_mcxt_strdup(tdb_current_mcxt, buf);
    case GUC_STRING:
        break;
    }
    return tdb_mcxt_strdup(tdb_current_mcxt, field);
}

bool
tdb_guc_client_wants(const Settings *s, int elevel)
{
    static const struct {
        const char *name;
        int level;
    } levels[] = {
        {"debug5", DEBUG1}, {"debug4", DEBUG1}, {"debug3", DEBUG1},
        {"debug2", DEBUG1}, {"debug1", DEBUG1}, {"log", LOG},
        {"notice", NOTICE}, {"warning", WARNING}, {"error", ERROR},
    };

    if (elevel == INFO)
        return true;
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
        if (strcasecmp(s->client_min_messages, levels[i].name) == 0)
            return elevel >= levels[i].level;
    return elevel >= NOTICE;
}

char
tdb_guc_default_toast_compression(const Settings *s)
{
    /* stored in the list's spelling (toast_compressions) */
    return strcmp(s->default_toast_compression, "lz4") == 0
               ? TOAST_COMPRESSION_LZ4
               : TOAST_COMPRESSION_PGLZ;
}
