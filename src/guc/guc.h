/*
 * guc.h -- per-session settings (PostgreSQL's GUC variables, the few
 * tupledb has): SET / SHOW / RESET, PostgreSQL's value syntax, units and
 * messages.
 *
 * Each session has its own values (a Settings struct); the table of
 * definitions is shared and constant.  Values are stored in the unit
 * PostgreSQL stores them in (work_mem in kB, lock_timeout in ms).
 *
 * The settings that type input/output reads (TimeZone, DateStyle,
 * IntervalStyle, extra_float_digits, bytea_output) are also kept parsed,
 * next to their text, and tdb_guc_typeio() copies them into the
 * TypeIOSettings the session installs for the types layer
 * (types/typeio.h).  A Settings is a plain value that may be copied
 * (transactional SET keeps copies): the parsed TimeZone points into the
 * session's TzCache, which outlives every copy.
 */
#ifndef TDB_GUC_GUC_H
#define TDB_GUC_GUC_H

#include "common/base.h"
#include "types/typeio.h"

/* The session's settings (read directly by the layers that use them). */
typedef struct Settings {
    int work_mem;              /* kB */
    double hash_mem_multiplier;
    int maintenance_work_mem;  /* kB */
    int lock_timeout;          /* ms, 0 = none */
    int statement_timeout;     /* ms, 0 = none */
    int max_stack_depth;       /* kB (common/stack_depth.h) */
    int extra_float_digits;
    bool enable_hashjoin;
    bool enable_mergejoin;
    bool enable_nestloop;
    bool enable_hashagg;
    bool enable_sort;
    bool enable_seqscan;
    bool enable_indexscan;
    bool enable_indexonlyscan;
    bool enable_bitmapscan; /* no effect: tupledb has no bitmap scans */
    bool trace_sort;
    bool trace_detoast;
    int detoast_cache_size;    /* kB, 0 = no detoast cache */
    char client_encoding[32];
    char datestyle[32];        /* canonical: "ISO, MDY" */
    char timezone[256];        /* canonical: "America/New_York" */
    char application_name[64];
    char search_path[64];
    char intervalstyle[32];
    char bytea_output[8];
    char standard_conforming_strings[8];
    char client_min_messages[16];
    char default_toast_compression[8]; /* "pglz" or "lz4" */
    /* parsed forms of the type I/O settings (types/typeio.h) */
    const DtZone *tz;          /* TimeZone, in *zones */
    uint8 date_style;          /* DateStyleKind */
    uint8 date_order;          /* DateOrderKind */
    uint8 interval_style;      /* IntervalStyleKind */
    uint8 bytea_output_kind;   /* ByteaOutputKind */
    TzCache *zones;            /* the session's loaded zones (shared by
                                * every copy; not a setting) */
} Settings;

/*
 * PostgreSQL's rule for which reports reach the client: those at or
 * above client_min_messages, and INFO always.
 */
bool tdb_guc_client_wants(const Settings *s, int elevel);

/*
 * Fill s with every setting's default.  zones: the session's zone cache,
 * where SET TimeZone keeps the zones it loads.
 */
void tdb_guc_init(Settings *s, TzCache *zones);

/*
 * SET name = value (value NULL: RESET / SET ... TO DEFAULT).  name is
 * case-insensitive.  Raises 42704 unrecognized configuration parameter,
 * 22023 invalid value (PostgreSQL's messages, with its hints for units
 * and ranges).
 */
void tdb_guc_set(Settings *s, const char *name, const char *value);

/*
 * Is setting name one only a superuser may set (PostgreSQL's PGC_SUSET:
 * max_stack_depth)?  tdb_guc_check_privilege raises 42501 "permission
 * denied to set parameter" if so and the role is not one.  Unknown names
 * pass (tdb_guc_set reports them).
 */
bool tdb_guc_is_superuser_only(const char *name);
void tdb_guc_check_privilege(const char *name, bool is_superuser);

/*
 * SHOW name: the value as PostgreSQL prints it ("4MB", "on", "UTC"),
 * palloc'd; *label receives the column name (the parameter's name as
 * PostgreSQL spells it).  Raises 42704 for an unknown name.
 */
char *tdb_guc_show(const Settings *s, const char *name, const char **label);

/*
 * Give dst the value src has for setting name (a SET that is not LOCAL
 * stores the value it computed into the values that outlive the
 * transaction).  Raises 42704 for an unknown name.
 */
void tdb_guc_copy(Settings *dst, const Settings *src, const char *name);

/*
 * The type I/O part of s into io's settings fields (io's start times are
 * left alone).
 */
void tdb_guc_typeio(const Settings *s, TypeIOSettings *io);

/*
 * default_toast_compression as pg_attribute.attcompression spells a
 * method (toast/toast.h): TOAST_COMPRESSION_PGLZ or TOAST_COMPRESSION_LZ4,
 * never '\0'.  The method for columns whose attcompression is '\0'; the
 * toaster takes it as a parameter, so whoever runs the statement
 * (commands/execute.c fills the EState from the session's settings) reads it
 * here and passes it down.
 */
char tdb_guc_default_toast_compression(const Settings *s);

#endif /* TDB_GUC_GUC_H */
