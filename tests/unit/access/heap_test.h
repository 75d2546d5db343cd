/*
 * heap_test.h -- the heap-relation fixture shared by the tests that
 * drive a heap relation on a real data directory, buffer pool and
 * transaction manager (tests/unit/access/test_heapam.c, test_vacuum.c,
 * tests/unit/toast/test_toast_store.c).  Header-only, everything
 * `static TDB_UNUSED`, on top of access_test.h.
 *
 * A HeapFixture is a fresh data directory, a buffer pool, a manager, one
 * session (f->xact, idle between steps) and one relation, a plain file
 * created through smgr (the catalog's tests cover naming relations):
 *
 *   heap_fixture_start()   create all of it, the relation's row type given
 *   heap_fixture_open()    open pool, manager and session on f->dd again
 *                          (after a test closed them to reopen the data
 *                          directory)
 *   heap_fixture_crash()   drop session, manager and pool without writing
 *                          anything, as a crash does, and open them again
 *   heap_fixture_finish()  check no pins are left, close all of it
 *   row_desc()             the row type (id int4, val int4, note text)
 *   form_row()             a row of that type
 *   snap_of(), snap_now()  a snapshot of a session's current command
 *   scan_rows()            count, id sum and ids of the rows a snapshot sees
 *   count_visible()        count of them
 *   count_from_other_session()  count with a fresh snapshot of a second
 *                          session
 *   vacuum_rel()           VACUUM in a transaction of the fixture's session
 *   rel_nblocks()          the relation's length in pages
 *
 * The free space record is process-wide and keyed by relfilenumber, which
 * every fresh data directory hands out again: the fixture forgets the
 * relation's record at start and at finish, so no test sees another's.
 */
#ifndef TDB_TESTS_HEAP_TEST_H
#define TDB_TESTS_HEAP_TEST_H

#include "common/base.h"

#include <string.h>

#include "access/freespace.h"
#include "access/heapam.h"
#include "access/snapshot.h"
#include "access/vacuum.h"
#include "access/xact.h"
#include "access_test.h"
#include "storage/bufmgr.h"
#include "storage/smgr.h"
#include "test.h"
#include "tuple/heaptuple.h"
#include "tuple/varlena.h"

typedef struct HeapFixture {
    const char *path; /* the data directory, to reopen it */
    DataDir *dd;
    TransactionManager *tm;
    Transaction *xact; /* the fixture's session */
    RelationData rel;
    MemoryContextCallback pool_cleanup; /* drops the pool if a test fails */
} HeapFixture;

/* A failed test unwinds past heap_fixture_finish: drop the pool with the
 * test's memory. */
static TDB_UNUSED void
heap_fixture_pool_cleanup(void *arg)
{
    (void)arg;
    if (tdb_bufmgr_is_initialized())
        tdb_bufmgr_discard();
}

/* Open a pool of nbuffers, the manager and the session on f->dd (created
 * or reopened); the relation starts without a target page, as a new
 * session's handle does. */
static TDB_UNUSED void
heap_fixture_open(HeapFixture *f, int nbuffers)
{
    tdb_bufmgr_init(tdb_datadir_path(f->dd), nbuffers, true);
    f->tm = tdb_xact_manager_open(f->dd, NULL);
    f->xact = tdb_xact_create(f->tm, NULL);
    f->rel.rd_target_block = InvalidBlockNumber;
}

/*
 * A fixture in the current context: a new data directory in a
 * test_tmpdir(), a pool of nbuffers, and the relation relid named
 * relname with row type desc, created empty.
 */
static TDB_UNUSED HeapFixture *
heap_fixture_start(int nbuffers, Oid relid, const char *relname,
                   TupleDesc desc)
{
    HeapFixture *f = tdb_palloc0(sizeof(HeapFixture));
    SMgrRelation smgr;

    f->path = test_path(test_tmpdir(), "db");
    f->dd = tdb_datadir_create(NULL, f->path);
    f->pool_cleanup.func = heap_fixture_pool_cleanup;
    tdb_mcxt_register_reset_callback(tdb_top_mcxt, &f->pool_cleanup);
    heap_fixture_open(f, nbuffers);

    f->rel.rd_id = relid;
    f->rel.rd_relfilenumber = tdb_datadir_alloc_relfilenumber(f->dd);
    f->rel.rd_att = desc;
    strcpy(f->rel.rd_name, relname);
    tdb_fsm_forget(f->rel.rd_relfilenumber);
    smgr = tdb_smgr_open(NULL, tdb_datadir_path(f->dd),
                         f->rel.rd_relfilenumber);
    tdb_smgr_create(smgr, MAIN_FORKNUM, false);
    tdb_smgr_close(smgr);
    return f;
}

/* Drop f's session, manager and pool without writing anything -- what a
 * crash does to them (tdb_database_abandon likewise) -- close the data
 * directory, and open all of it again with a pool of nbuffers. */
static TDB_UNUSED void
heap_fixture_crash(HeapFixture *f, int nbuffers)
{
    tdb_xact_destroy(f->xact);
    tdb_xact_manager_close(f->tm);
    tdb_bufmgr_discard();
    f->xact = NULL;
    tdb_datadir_close(f->dd);
    f->dd = tdb_datadir_open(NULL, f->path);
    heap_fixture_open(f, nbuffers);
}

/* Expect no pins left; close the session, manager, pool and directory,
 * and forget the relation's free space record. */
static TDB_UNUSED void
heap_fixture_finish(HeapFixture *f)
{
    expect_int_eq(tdb_buf_pins_held(), 0);
    tdb_xact_destroy(f->xact);
    tdb_xact_manager_close(f->tm);
    tdb_bufmgr_shutdown();
    tdb_datadir_close(f->dd);
    tdb_fsm_forget(f->rel.rd_relfilenumber);
}

/* The row type (id int4, val int4, note text), note EXTENDED. */
static TDB_UNUSED TupleDesc
row_desc(void)
{
    TupleDesc desc = tdb_tupdesc_create(3);

    tdb_tupdesc_init_attr(desc, 0, "id", 23, -1, 4, true, 'i', 'p');
    tdb_tupdesc_init_attr(desc, 1, "val", 23, -1, 4, true, 'i', 'p');
    tdb_tupdesc_init_attr(desc, 2, "note", 25, -1, -1, false, 'i', 'x');
    tdb_tupdesc_finalize(desc);
    return desc;
}

/* A row (id, val, note) of row_desc() in the current context; a NULL
 * note is a null. */
static TDB_UNUSED HeapTuple
form_row(HeapFixture *f, int32 id, int32 val, const char *note)
{
    Datum values[3];
    bool isnull[3] = {false, false, note == NULL};

    values[0] = Int32GetDatum(id);
    values[1] = Int32GetDatum(val);
    values[2] = note != NULL ? PointerGetDatum(tdb_text_from_cstring(note)) : 0;
    return tdb_heap_form_tuple(f->rel.rd_att, values, isnull);
}

/* A snapshot for session x's current command, in the current context. */
static TDB_UNUSED Snapshot
snap_of(HeapFixture *f, Transaction *x)
{
    return tdb_snapshot_take(f->tm, x, tdb_current_mcxt);
}

/* A snapshot for the fixture's session's current command. */
static TDB_UNUSED Snapshot
snap_now(HeapFixture *f)
{
    return snap_of(f, f->xact);
}

/*
 * Count of the rows of f->rel that snap sees.  The sum of their first
 * columns (read as int4) goes to *id_sum and the first max of them to
 * ids[], each when not NULL.
 */
static TDB_UNUSED int
scan_rows(HeapFixture *f, Snapshot snap, int64 *id_sum, int32 *ids, int max)
{
    HeapScanDesc scan = tdb_heap_beginscan(&f->rel, snap);
    HeapTuple tup;
    int64 sum = 0;
    int n = 0;

    while ((tup = tdb_heap_getnext(scan)) != NULL) {
        bool isnull;
        int32 id =
            DatumGetInt32(tdb_heap_getattr(tup, 1, f->rel.rd_att, &isnull));

        if (ids != NULL && n < max)
            ids[n] = id;
        sum += id;
        n++;
    }
    tdb_heap_endscan(scan);
    if (id_sum != NULL)
        *id_sum = sum;
    return n;
}

static TDB_UNUSED int
count_visible(HeapFixture *f, Snapshot snap)
{
    return scan_rows(f, snap, NULL, NULL, 0);
}

/* Count with a fresh statement snapshot in a read-only transaction of a
 * second session (another "connection"). */
static TDB_UNUSED int
count_from_other_session(HeapFixture *f)
{
    Transaction *other = begin_new(f->tm);
    int n = count_visible(f, snap_of(f, other));

    tdb_xact_commit(other);
    tdb_xact_destroy(other);
    return n;
}

/* VACUUM f->rel as a transaction of its own of the fixture's session
 * (which must be idle); its figures. */
static TDB_UNUSED VacuumStats
vacuum_rel(HeapFixture *f)
{
    VacuumStats stats;

    tdb_xact_begin(f->xact);
    tdb_heap_vacuum(&f->rel, f->xact, &stats);
    expect_true(tdb_xact_commit(f->xact));
    return stats;
}

static TDB_UNUSED BlockNumber
rel_nblocks(HeapFixture *f)
{
    return tdb_buf_relation_nblocks(f->rel.rd_relfilenumber);
}

#endif /* TDB_TESTS_HEAP_TEST_H */
