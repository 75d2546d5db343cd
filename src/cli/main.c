/*
 * main.c -- the `tupledb` program.
 *
 *   tupledb [DATADIR]
 *
 * The SQL shell arrives with the SQL engine.  Until then the program opens
 * (creating and bootstrapping if needed) the database at DATADIR -- data
 * directory, buffer pool, transaction manager, catalog -- lists the tables
 * its catalog holds, with their columns and sizes, and closes it cleanly.
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>

#include "access/heapam.h"
#include "access/snapshot.h"
#include "catalog/catalog.h"
#include "catalog/database.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "storage/bufmgr.h"

#define TUPLEDB_VERSION "0.1.0-dev"

/* Print "name(col type, ...)  N blocks" for the table with OID relid. */
static void
describe_table(Transaction *s, Oid relid)
{
    Relation rel = tdb_relation_open_by_oid(s, relid, REL_LOCK_SHARE);

    printf("  %-16s (", rel->rd_name);
    for (int i = 0; i < rel->rd_att->natts; i++) {
        const TupleAttr *att = TupleDescAttr(rel->rd_att, i);
        const TypeInfo *type = tdb_type_lookup(att->atttypid);

        printf("%s%s %s%s", i > 0 ? ", " : "", att->attname,
               type != NULL ? type->name : "?",
               att->attnotnull ? " not null" : "");
    }
    printf(")  %u blocks\n",
           tdb_buf_relation_nblocks(rel->rd_relfilenumber));
    tdb_relation_close(rel);
}

/* List every table in pg_class. */
static void
list_tables(Transaction *s)
{
    Relation pg_class = tdb_relation_open(s, "pg_class", REL_LOCK_SHARE);
    Snapshot snap =
        tdb_snapshot_take(tdb_xact_manager_of(s), s, tdb_current_mcxt);
    HeapScanDesc scan = tdb_heap_beginscan(pg_class, snap);
    Oid relids[1024];
    int n = 0;
    HeapTuple tup;

    while ((tup = tdb_heap_getnext(scan)) != NULL && n < 1024) {
        bool isnull;

        relids[n++] = DatumGetObjectId(
            tdb_heap_getattr(tup, 1, pg_class->rd_att, &isnull));
    }
    tdb_heap_endscan(scan);
    tdb_relation_close(pg_class);
    for (int i = 0; i < n; i++)
        describe_table(s, relids[i]);
}

int
main(int argc, char **argv)
{
    const char *datadir = argc > 1 ? argv[1] : "./tdbdata";

    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("tupledb %s\n", TUPLEDB_VERSION);
        return 0;
    }
    tdb_mcxt_thread_init();

    TDB_TRY();
    {
        Database *db = tdb_database_open(datadir, NULL);
        Transaction *s = tdb_database_session(db, tdb_top_mcxt);

        printf("tupledb %s -- database \"%s\"\n", TUPLEDB_VERSION,
               tdb_database_path(db));
        printf("The SQL shell is not built yet.  Tables in the catalog:\n");
        tdb_xact_begin(s);
        list_tables(s);
        tdb_xact_commit(s);
        tdb_xact_destroy(s);
        tdb_database_close(db);
    }
    TDB_CATCH();
    {
        const ErrorData *e = tdb_error_current();

        fprintf(stderr, "ERROR:  %s\n", e->message);
        tdb_error_flush();
        tdb_mcxt_thread_done();
        return 1;
    }
    TDB_END_TRY();
    tdb_mcxt_thread_done();
    return 0;
}
