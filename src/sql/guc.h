/*
 * guc.h -- per-session settings (PostgreSQL's GUC variables, the few
 * tupledb has): SET / SHOW / RESET, PostgreSQL's value syntax, units and
 * messages.
 *
 * Each session has its own values (a Settings struct); the table of
 * definitions is shared and constant.  Values are stored in the unit
 * PostgreSQL stores them in (work_mem in kB, lock_timeout in ms).
 */
#ifndef TDB_SQL_GUC_H
#define TDB_SQL_GUC_H

#include "common/base.h"

/* The session's settings (read directly by the layers that use them). */
typedef struct Settings {
    int work_mem;              /* kB */
    double hash_mem_multiplier;
    int maintenance_work_mem;  /* kB */
    int lock_timeout;          /* ms, 0 = none */
    int statement_timeout;     /* ms, 0 = none */
    int extra_float_digits;
    bool enable_hashjoin;
    bool enable_nestloop;
    bool enable_hashagg;
    bool enable_sort;
    bool enable_seqscan;
    bool trace_sort;
    char client_encoding[32];
    char datestyle[32];
    char timezone[64];
    char application_name[64];
    char search_path[64];
    char intervalstyle[32];
    char standard_conforming_strings[8];
    char client_min_messages[16];
} Settings;

/* Fill s with every setting's default. */
void tdb_guc_init(Settings *s);

/*
 * SET name = value (value NULL: RESET / SET ... TO DEFAULT).  name is
 * case-insensitive.  Raises 42704 unrecognized configuration parameter,
 * 22023 invalid value (PostgreSQL's messages, with its hints for units
 * and ranges).
 */
void tdb_guc_set(Settings *s, const char *name, const char *value);

/*
 * SHOW name: the value as PostgreSQL prints it ("4MB", "on", "UTC"),
 * palloc'd; *label receives the column name (the parameter's name as
 * PostgreSQL spells it).  Raises 42704 for an unknown name.
 */
char *tdb_guc_show(const Settings *s, const char *name, const char **label);

#endif /* TDB_SQL_GUC_H */
