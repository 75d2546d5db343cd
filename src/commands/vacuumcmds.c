/*
 * vacuumcmds.c -- VACUUM [(options)] [table, ...] and ANALYZE: the
 * statement's options (VERBOSE; the others PostgreSQL accepts are
 * accepted), the tables it names or every user table, each vacuumed by
 * access/vacuum.c with its TOAST relation.  ANALYZE keeps no statistics
 * yet, so it only checks its tables.
 */
#include "common/base.h"

#include <pg_query.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "access/heapam.h"
#include "access/vacuum.h"
#include "catalog/catalog.h"
#include "commands/commands.h"
#include "common/elog.h"
#include "parser/analyze.h"
#include "tuple/heaptuple.h"

/* ----------------------------------------------------------------------
 * VACUUM, ANALYZE
 * ---------------------------------------------------------------------- */

/* A VACUUM option's boolean value: no argument means true. */
static bool
vacuum_option_bool(const PgQuery__DefElem *def)
{
    const PgQuery__Node *arg = def->arg;

    if (arg == NULL)
        return true;
    if (arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN)
        return arg->boolean->boolval;
    if (arg->node_case == PG_QUERY__NODE__NODE_INTEGER)
        return arg->integer->ival != 0;
    if (arg->node_case == PG_QUERY__NODE__NODE_STRING)
        return !(strcasecmp(arg->string->sval, "false") == 0 ||
                 strcasecmp(arg->string->sval, "off") == 0 ||
                 strcmp(arg->string->sval, "0") == 0);
    return true;
}

/*
 * Vacuum the relation with OID relid (tdb_heap_vacuum), if it still
 * exists; with verbose, PostgreSQL's INFO line.  Takes REL_LOCK_SHARE
 * until the end of the transaction: PostgreSQL's VACUUM takes
 * ShareUpdateExclusiveLock, which lets reads and writes go on but keeps
 * DROP, TRUNCATE and ALTER out; tupledb's weakest mode does exactly
 * that (its file stays in place), and VACUUM needs nothing stronger: it
 * moves rows only under each page's cleanup lock and writes no rows, so
 * it needs no xid and not the writer lock (access/vacuum.h).  Two
 * VACUUMs of one table, which ShareUpdateExclusiveLock would serialize,
 * are harmless here: the cleanup locks serialize them page by page.
 *
 * The table's TOAST relation is vacuumed right after it: its chunk rows
 * die with the row's xmax (toast/toaster.h), so this reclaims them
 * exactly when it reclaims the row -- never while a snapshot still sees
 * the row (the horizon is the same).
 */
static void
vacuum_one(Transaction *xact, Relation rel, const char *schema, bool verbose)
{
    VacuumStats stats;

    tdb_heap_vacuum(rel, xact, &stats);
    tdb_catalog_set_relallvisible(xact, rel->rd_id, stats.all_visible_pages);
    if (verbose)
        ereport(INFO, errmsg("vacuuming \"%s.%s\"", schema, rel->rd_name),
                errdetail("\"%s\": found %llu removable, %llu nonremovable "
                          "row versions in %u out of %u pages "
                          "(%llu dead but not yet removable; %u pages "
                          "skipped as pinned, %u with free space).",
                          rel->rd_name,
                          (unsigned long long)stats.tuples_removed,
                          (unsigned long long)stats.tuples_remaining,
                          stats.scanned_pages, stats.rel_pages,
                          (unsigned long long)stats.recently_dead,
                          stats.skipped_pages, stats.fsm_pages));
}

static void
vacuum_relation_oid(Transaction *xact, Oid relid, bool verbose)
{
    Relation rel, toast;

    tdb_lock_relation(xact, relid, REL_LOCK_SHARE);
    if (tdb_catalog_relation_name(xact, relid) == NULL)
        return; /* dropped since it was listed */
    rel = tdb_relation_open_by_oid(xact, relid, REL_LOCK_SHARE);
    vacuum_one(xact, rel, "public", verbose);
    toast = tdb_relation_open_toast(xact, rel, REL_LOCK_SHARE);
    if (toast != NULL) {
        vacuum_one(xact, toast, "pg_toast", verbose);
        tdb_relation_close(toast);
    }
    tdb_relation_close(rel);
}

/* The OIDs of every user table (pg_class rows of relkind 'r' from
 * FirstNormalObjectId up), into *oids (current context); their number. */
static int
list_user_tables(Transaction *xact, Oid **oids)
{
    Relation pg_class = tdb_relation_open_by_oid(xact, RelationRelationId,
                                                 REL_LOCK_SHARE);
    Snapshot snap = tdb_snapshot_take(tdb_xact_manager_of(xact), xact,
                                      tdb_current_mcxt);
    int oid_att = 0, kind_att = 0, n = 0, size = 16;
    HeapScanDesc scan;
    HeapTuple tup;

    for (int i = 0; i < pg_class->rd_att->natts; i++) {
        const char *name = TupleDescAttr(pg_class->rd_att, i)->attname;

        if (strcmp(name, "oid") == 0)
            oid_att = i + 1;
        else if (strcmp(name, "relkind") == 0)
            kind_att = i + 1;
    }
    if (oid_att == 0 || kind_att == 0)
        elog(ERROR, "pg_class lacks oid or relkind");
    *oids = tdb_palloc(size * sizeof(Oid));
    scan = tdb_heap_beginscan(pg_class, snap);
    while ((tup = tdb_heap_getnext(scan)) != NULL) {
        bool isnull;
        Oid oid = DatumGetObjectId(
            tdb_heap_getattr(tup, oid_att, pg_class->rd_att, &isnull));
        char kind = DatumGetChar(
            tdb_heap_getattr(tup, kind_att, pg_class->rd_att, &isnull));

        if (kind != 'r' || oid < FirstNormalObjectId)
            continue;
        if (n == size) {
            size *= 2;
            *oids = tdb_repalloc(*oids, size * sizeof(Oid));
        }
        (*oids)[n++] = oid;
    }
    tdb_heap_endscan(scan);
    tdb_relation_close(pg_class);
    return n;
}

/*
 * VACUUM [VERBOSE] [table, ...]: a lazy vacuum (access/vacuum.h) of the
 * named tables, or of every user table.  FULL is accepted and does the
 * same (the space is reused, the file does not shrink); ANALYZE is
 * accepted (tupledb keeps no statistics).  ANALYZE alone only checks
 * that the named tables exist.
 */
void
tdb_sql_vacuum(Statement *st, const PgQuery__VacuumStmt *vs)
{
    Transaction *xact = st->xact;
    bool verbose = false;
    Oid *oids;
    int n = 0;

    if (vs->is_vacuumcmd && st->in_transaction_block)
        ereport(ERROR, errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
                errmsg("VACUUM cannot run inside a transaction block"));
    for (size_t i = 0; i < vs->n_options; i++) {
        const PgQuery__Node *o = vs->options[i];

        if (o->node_case == PG_QUERY__NODE__NODE_DEF_ELEM &&
            strcmp(o->def_elem->defname, "verbose") == 0)
            verbose = vacuum_option_bool(o->def_elem);
    }
    oids = tdb_palloc(Max(vs->n_rels, 1) * sizeof(Oid));
    for (size_t i = 0; i < vs->n_rels; i++) {
        const PgQuery__Node *node = vs->rels[i];
        Relation rel;

        if (node->node_case != PG_QUERY__NODE__NODE_VACUUM_RELATION)
            continue;
        rel = tdb_relation_open(
            xact, tdb_sql_table_name(st, node->vacuum_relation->relation),
            REL_LOCK_SHARE);
        oids[n++] = rel->rd_id;
        tdb_relation_close(rel);
    }
    if (vs->is_vacuumcmd) {
        if (vs->n_rels == 0) {
            tdb_pfree(oids);
            n = list_user_tables(xact, &oids);
        }
        for (int i = 0; i < n; i++)
            vacuum_relation_oid(xact, oids[i], verbose);
    }
    tdb_pfree(oids);
    tdb_stmt_complete(st, vs->is_vacuumcmd ? "VACUUM" : "ANALYZE");
}

