/*
 * test_vacuum.c -- VACUUM's horizon, tdb_heap_tuple_satisfies_vacuum,
 * lazy VACUUM of a heap relation and the free space record, on a real
 * data directory, buffer pool and transaction manager:
 *
 *   test_horizon                 published snapshot xmins, the running
 *                                xid and the next xid; cleared at commit,
 *                                abort, failure and session teardown
 *   test_delete_vacuum_reuse     deleted rows removed, the next inserts
 *                                fill the freed space: no new pages
 *   test_snapshot_protects       a snapshot taken before the delete
 *                                still sees the rows after VACUUM; they
 *                                go once its transaction ends
 *   test_aborted_insert          an aborted insert's rows are removed
 *   test_update_old_versions     old versions of updated rows removed,
 *                                new ones intact, TIDs of survivors kept
 *   test_running_writer          rows of a running insert or delete stay
 *   test_pinned_page_skipped     a page pinned by another thread's scan
 *                                (or the vacuuming thread's own) is
 *                                skipped and its rows stay readable;
 *                                done by the next VACUUM
 *   test_concurrent_stress       a writer updating every row per
 *                                transaction, a reader checking each
 *                                snapshot sees one consistent version of
 *                                every row (twice, VACUUM in between), and
 *                                VACUUM in a loop, on threads
 *   test_reopen                  data intact after VACUUM and reopening
 *                                the data directory; freed bytes zeroed
 *   test_fsm                     the free space record's rules
 *
 * Rows are (id int4, val int4, note text).
 */
#include "common/base.h"

#include <string.h>
#include <unistd.h>

#include "access/freespace.h"
#include "access/heapam.h"
#include "access/htup_xact.h"
#include "access/snapshot.h"
#include "access/vacuum.h"
#include "access/xact.h"
#include "common/elog.h"
#include "heap_test.h"
#include "storage/bufmgr.h"
#include "storage/smgr.h"
#include "test.h"
#include "tuple/heaptuple.h"
#include "tuple/varlena.h"

/* ----------------------------------------------------------------------
 * The fixture (heap_test.h): one session, one table
 * ---------------------------------------------------------------------- */

static HeapFixture *
start(int nbuffers)
{
    return heap_fixture_start(nbuffers, 16384, "t", row_desc());
}

/* A row (id, id * 10, note). */
static HeapTuple
make_row(HeapFixture *f, int32 id, const char *note)
{
    return form_row(f, id, id * 10, note);
}

/* A note of len bytes: rows of about len + 40 bytes. */
static const char *
note_of(int len, char c)
{
    char *s = tdb_palloc((Size)len + 1);

    memset(s, c, (Size)len);
    s[len] = '\0';
    return s;
}

/* Insert ids first .. first + n - 1 in one committed transaction. */
static void
insert_committed(HeapFixture *f, int32 first, int n, const char *note)
{
    tdb_xact_begin(f->xact);
    for (int i = 0; i < n; i++)
        tdb_heap_insert(&f->rel, make_row(f, first + i, note), f->xact, NULL);
    expect_true(tdb_xact_commit(f->xact));
}

/* Count with a fresh snapshot of a read-only transaction of f->xact. */
static int
count_now(HeapFixture *f, int64 *sum_out)
{
    int n;

    tdb_xact_begin(f->xact);
    n = scan_rows(f, snap_now(f), sum_out, NULL, 0);
    expect_true(tdb_xact_commit(f->xact));
    return n;
}

/* Delete every row whose id satisfies id % mod == rem, committed. */
static int
delete_committed(HeapFixture *f, int mod, int rem)
{
    ItemPointerData *tids = tdb_palloc(sizeof(ItemPointerData) * 20000);
    HeapScanDesc scan;
    HeapTuple tup;
    int n = 0;

    tdb_xact_begin(f->xact);
    scan = tdb_heap_beginscan(&f->rel, snap_of(f, f->xact));
    while ((tup = tdb_heap_getnext(scan)) != NULL) {
        bool isnull;
        int32 id =
            DatumGetInt32(tdb_heap_getattr(tup, 1, f->rel.rd_att, &isnull));

        if (id % mod == rem)
            tids[n++] = tup->t_self;
    }
    tdb_heap_endscan(scan);
    for (int i = 0; i < n; i++) {
        TM_FailureData tmfd;

        expect_int_eq(tdb_heap_delete(&f->rel, &tids[i], f->xact, &tmfd),
                      TM_OK);
    }
    expect_true(tdb_xact_commit(f->xact));
    tdb_pfree(tids);
    return n;
}

/* ----------------------------------------------------------------------
 * The horizon
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_horizon)
{
    HeapFixture *f = start(64);
    TransactionId next = tdb_xact_manager_next_xid(f->tm);
    Transaction *reader = tdb_xact_create(f->tm, NULL);
    Transaction *reader2 = tdb_xact_create(f->tm, NULL);
    MemoryContext crash_cxt;
    Transaction *crashed;
    TransactionId xid;

    /* nothing running, no snapshot: the next xid */
    expect_u64_eq(tdb_xact_manager_oldest_xmin(f->tm), next);

    /* a reader's snapshot holds the horizon while its transaction lasts,
     * even after the next xids were handed out */
    tdb_xact_begin(reader);
    (void)snap_of(f, reader);
    insert_committed(f, 1, 1, "a");
    insert_committed(f, 2, 1, "b");
    expect_u64_eq(tdb_xact_manager_next_xid(f->tm), next + 2);
    expect_u64_eq(tdb_xact_manager_oldest_xmin(f->tm), next);
    /* a later snapshot of the same transaction does not raise it */
    (void)snap_of(f, reader);
    expect_u64_eq(tdb_xact_manager_oldest_xmin(f->tm), next);
    expect_true(tdb_xact_commit(reader));
    expect_u64_eq(tdb_xact_manager_oldest_xmin(f->tm), next + 2);

    /* the running writer holds it at its xid */
    tdb_xact_begin(f->xact);
    xid = tdb_xact_assign_xid(f->xact);
    expect_u64_eq(xid, next + 2);
    expect_u64_eq(tdb_xact_manager_oldest_xmin(f->tm), xid);
    /* a reader's snapshot taken now: xmin = the running xid */
    tdb_xact_begin(reader2);
    (void)snap_of(f, reader2);
    tdb_xact_abort(f->xact);
    expect_u64_eq(tdb_xact_manager_oldest_xmin(f->tm), xid);
    /* a failed transaction's snapshots are gone */
    tdb_xact_fail(reader2);
    expect_u64_eq(tdb_xact_manager_oldest_xmin(f->tm), xid + 1);
    tdb_xact_abort(reader2);

    /* a session that goes away (context deleted: a crash of the
     * session) stops holding it */
    crash_cxt = tdb_aset_create(tdb_current_mcxt, "session",
                                ALLOCSET_SMALL_SIZES);
    crashed = tdb_xact_create(f->tm, crash_cxt);
    tdb_xact_begin(crashed);
    (void)snap_of(f, crashed);
    insert_committed(f, 3, 1, "c");
    expect_u64_eq(tdb_xact_manager_oldest_xmin(f->tm), xid + 1);
    tdb_mcxt_delete(crash_cxt);
    expect_u64_eq(tdb_xact_manager_oldest_xmin(f->tm), xid + 2);

    /* destroyed sessions leave the list */
    tdb_xact_begin(reader);
    (void)snap_of(f, reader);
    tdb_xact_destroy(reader);
    tdb_xact_destroy(reader2);
    expect_u64_eq(tdb_xact_manager_oldest_xmin(f->tm), xid + 2);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Removing and reusing
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_delete_vacuum_reuse)
{
    HeapFixture *f = start(256);
    const char *note = note_of(100, 'x');
    BlockNumber pages;
    VacuumStats st;
    int64 sum;

    insert_committed(f, 1, 3000, note);
    pages = rel_nblocks(f);
    expect_u64_gt(pages, 30);
    expect_int_eq(delete_committed(f, 2, 0), 1500);

    st = vacuum_rel(f);
    expect_u64_eq(st.rel_pages, pages);
    expect_u64_eq(st.scanned_pages, pages);
    expect_u64_eq(st.skipped_pages, 0);
    expect_u64_eq(st.tuples_removed, 1500);
    expect_u64_eq(st.tuples_remaining, 1500);
    expect_u64_eq(st.recently_dead, 0);
    expect_u64_ge(st.fsm_pages, pages - 1);
    expect_u64_eq(tdb_fsm_npages(f->rel.rd_relfilenumber, NULL),
                  st.fsm_pages);
    expect_int_eq(count_now(f, &sum), 1500);
    expect_int_eq(sum, 1500LL * 1500); /* the odd ids 1 .. 2999 */

    /* a second VACUUM finds nothing to do */
    st = vacuum_rel(f);
    expect_u64_eq(st.tuples_removed, 0);
    expect_u64_eq(st.pruned_pages, 0);

    /* as many rows again as were deleted: the relation does not grow
     * (a new session's relation handle starts without a target page) */
    f->rel.rd_target_block = InvalidBlockNumber;
    insert_committed(f, 10001, 1500, note);
    expect_u64_eq(rel_nblocks(f), pages);
    expect_int_eq(count_now(f, &sum), 3000);
    expect_int_eq(sum, 1500LL * 1500 + 1500LL * 10001 + 1500LL * 1499 / 2);
    /* the record emptied as the pages filled */
    expect_u64_le(tdb_fsm_npages(f->rel.rd_relfilenumber, NULL), 2);

    /* a bulk insert (BULKWRITE ring) uses the freed space too */
    expect_int_eq(delete_committed(f, 3, 0), 1000);
    (void)vacuum_rel(f);
    tdb_xact_begin(f->xact);
    {
        BulkInsertState bi = tdb_heap_bulk_insert_begin();
        HeapTuple rows[100];

        f->rel.rd_target_block = InvalidBlockNumber;
        for (int b = 0; b < 10; b++) {
            for (int i = 0; i < 100; i++)
                rows[i] = make_row(f, 20000 + b * 100 + i, note);
            tdb_heap_multi_insert(&f->rel, rows, 100, f->xact, bi);
        }
        tdb_heap_bulk_insert_end(bi);
    }
    expect_true(tdb_xact_commit(f->xact));
    expect_u64_eq(rel_nblocks(f), pages);
    expect_int_eq(count_now(f, NULL), 3000);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_snapshot_protects)
{
    HeapFixture *f = start(256);
    Transaction *reader = tdb_xact_create(f->tm, NULL);
    Snapshot old;
    VacuumStats st;
    int64 sum;

    insert_committed(f, 1, 1000, "row");
    /* a REPEATABLE READ reader: one snapshot for its whole transaction */
    tdb_xact_begin(reader);
    old = snap_of(f, reader);
    expect_int_eq(count_visible(f, old), 1000);

    expect_int_eq(delete_committed(f, 1, 0), 1000);
    expect_int_eq(count_now(f, NULL), 0);

    st = vacuum_rel(f);
    expect_u64_eq(st.tuples_removed, 0);
    expect_u64_eq(st.recently_dead, 1000);
    expect_u64_eq(st.tuples_remaining, 1000);
    /* the reader still sees every row, with its values */
    expect_int_eq(scan_rows(f, old, &sum, NULL, 0), 1000);
    expect_int_eq(sum, 1000LL * 1001 / 2);

    /* the reader ends: now they go */
    expect_true(tdb_xact_commit(reader));
    st = vacuum_rel(f);
    expect_u64_eq(st.tuples_removed, 1000);
    expect_u64_eq(st.tuples_remaining, 0);
    expect_int_eq(count_now(f, NULL), 0);
    tdb_xact_destroy(reader);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_aborted_insert)
{
    HeapFixture *f = start(64);
    VacuumStats st;
    Buffer buf;

    insert_committed(f, 1, 10, "kept");
    tdb_xact_begin(f->xact);
    for (int i = 0; i < 50; i++)
        tdb_heap_insert(&f->rel, make_row(f, 100 + i, "gone"), f->xact, NULL);
    tdb_xact_abort(f->xact);

    st = vacuum_rel(f);
    expect_u64_eq(st.tuples_removed, 50);
    expect_u64_eq(st.tuples_remaining, 10);
    expect_int_eq(count_now(f, NULL), 10);
    /* the trailing unused line pointers are cut off; the page is one
     * hole again */
    buf = tdb_buf_read(f->rel.rd_relfilenumber, 0, NULL);
    tdb_buf_lock(buf, BUF_LOCK_SHARE);
    expect_int_eq(tdb_page_get_max_offset(tdb_buf_page(buf)), 10);
    expect_false(tdb_page_flag_is_set(tdb_buf_page(buf), PD_HAS_FREE_LINES));
    tdb_buf_unlock_release(buf);

    /* a crashed insert (its session's context deleted mid-transaction,
     * never committed) is removed the same way */
    {
        MemoryContext cxt =
            tdb_aset_create(tdb_current_mcxt, "crash", ALLOCSET_SMALL_SIZES);
        Transaction *x = tdb_xact_create(f->tm, cxt);

        tdb_xact_begin(x);
        for (int i = 0; i < 5; i++)
            tdb_heap_insert(&f->rel, make_row(f, 200 + i, "crash"), x, NULL);
        tdb_mcxt_delete(cxt);
    }
    st = vacuum_rel(f);
    expect_u64_eq(st.tuples_removed, 5);
    expect_int_eq(count_now(f, NULL), 10);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_update_old_versions)
{
    HeapFixture *f = start(256);
    const char *note = note_of(200, 'o');
    ItemPointerData tids[400];
    HeapScanDesc scan;
    HeapTuple tup;
    VacuumStats st;
    BlockNumber pages;
    int n = 0;
    int64 sum;

    insert_committed(f, 1, 400, note);
    /* update every other row: the old versions become dead */
    tdb_xact_begin(f->xact);
    scan = tdb_heap_beginscan(&f->rel, snap_of(f, f->xact));
    while ((tup = tdb_heap_getnext(scan)) != NULL)
        tids[n++] = tup->t_self;
    tdb_heap_endscan(scan);
    expect_int_eq(n, 400);
    for (int i = 0; i < n; i += 2) {
        TM_FailureData tmfd;

        expect_int_eq(tdb_heap_update(&f->rel, &tids[i],
                                      make_row(f, 1000 + i, "new"), f->xact,
                                      &tmfd),
                      TM_OK);
    }
    expect_true(tdb_xact_commit(f->xact));
    pages = rel_nblocks(f);

    st = vacuum_rel(f);
    expect_u64_eq(st.tuples_removed, 200);
    expect_u64_eq(st.tuples_remaining, 400);
    expect_int_eq(count_now(f, &sum), 400);
    {
        int64 expect = 0;

        for (int i = 0; i < 400; i++)
            expect += i % 2 == 0 ? 1000 + i : i + 1;
        expect_int_eq(sum, expect);
    }
    /* the rows that were not updated keep their TIDs (offsets stay put
     * while their bytes move) */
    tdb_xact_begin(f->xact);
    {
        TupleTableSlot *slot =
            tdb_slot_create(f->rel.rd_att, &tdb_tts_ops_heap);
        Snapshot snap = snap_of(f, f->xact);

        for (int i = 1; i < 400; i += 2) {
            bool isnull;

            expect_true(tdb_heap_fetch(&f->rel, snap, &tids[i], slot));
            expect_int_eq(DatumGetInt32(tdb_slot_getattr(slot, 1, &isnull)),
                          i + 1);
        }
        /* a removed old version's TID names no row */
        expect_false(tdb_heap_fetch(&f->rel, snap, &tids[0], slot));
        tdb_slot_drop(slot);
    }
    expect_true(tdb_xact_commit(f->xact));
    expect_u64_eq(rel_nblocks(f), pages);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_running_writer)
{
    HeapFixture *f = start(64);
    Transaction *w = tdb_xact_create(f->tm, NULL);
    VacuumStats st;
    ItemPointerData tid;
    TM_FailureData tmfd;
    HeapTuple row;

    insert_committed(f, 1, 5, "old");
    /* another session inserts and deletes, still running */
    tdb_xact_begin(w);
    row = make_row(f, 99, "new");
    tdb_heap_insert(&f->rel, row, w, NULL);
    ItemPointerSet(&tid, 0, 1);
    expect_int_eq(tdb_heap_delete(&f->rel, &tid, w, &tmfd), TM_OK);

    st = vacuum_rel(f);
    expect_u64_eq(st.tuples_removed, 0);
    expect_u64_eq(st.tuples_remaining, 6);
    expect_true(tdb_xact_commit(w));
    /* committed: the delete is removable now, the insert stays */
    st = vacuum_rel(f);
    expect_u64_eq(st.tuples_removed, 1);
    expect_int_eq(count_now(f, NULL), 5);
    tdb_xact_destroy(w);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * A page pinned by another thread
 * ---------------------------------------------------------------------- */

typedef struct PinArg {
    HeapFixture *f;
    int phase;       /* 1: pinned, reading; 2: may go on; 3: done */
    int32 first_id;  /* the row the scan stood on, read before */
    int32 again_id;  /* ... and after VACUUM */
    int seen;        /* rows the scan returned in all */
    char error[1100];
} PinArg;

static void *
pin_main(void *p)
{
    PinArg *arg = p;

    tdb_mcxt_thread_init();
    TDB_TRY();
    {
        HeapFixture *f = arg->f;
        Transaction *x = begin_new(f->tm);
        HeapScanDesc scan = tdb_heap_beginscan(&f->rel, snap_of(f, x));
        HeapTuple tup = tdb_heap_getnext(scan);
        bool isnull;

        arg->first_id =
            DatumGetInt32(tdb_heap_getattr(tup, 1, f->rel.rd_att, &isnull));
        __atomic_store_n(&arg->phase, 1, __ATOMIC_SEQ_CST);
        while (__atomic_load_n(&arg->phase, __ATOMIC_SEQ_CST) != 2)
            usleep(1000);
        /* the pointer into the page is still good */
        arg->again_id =
            DatumGetInt32(tdb_heap_getattr(tup, 1, f->rel.rd_att, &isnull));
        arg->seen = 1;
        while (tdb_heap_getnext(scan) != NULL)
            arg->seen++;
        tdb_heap_endscan(scan);
        tdb_xact_commit(x);
        tdb_xact_destroy(x);
    }
    TDB_CATCH();
    {
        snprintf(arg->error, sizeof(arg->error), "%s",
                 tdb_error_current()->message);
        tdb_error_flush();
    }
    TDB_END_TRY();
    __atomic_store_n(&arg->phase, 3, __ATOMIC_SEQ_CST);
    tdb_mcxt_thread_done();
    return NULL;
}

TEST_BEGIN(test_pinned_page_skipped)
{
    HeapFixture *f = start(64);
    const char *note = note_of(300, 'p');
    PinArg arg;
    pthread_t thread;
    VacuumStats st;
    BlockNumber pages;
    int per_page;

    insert_committed(f, 1, 100, note);
    pages = rel_nblocks(f);
    expect_u64_ge(pages, 3);
    /* delete the even ids (on every page), but not the first row */
    expect_int_eq(delete_committed(f, 2, 0), 50);

    memset(&arg, 0, sizeof(arg));
    arg.f = f;
    expect_int_eq(pthread_create(&thread, NULL, pin_main, &arg), 0);
    while (__atomic_load_n(&arg.phase, __ATOMIC_SEQ_CST) == 0)
        usleep(1000);
    /* the reader's snapshot was taken after the delete committed, so the
     * rows are removable -- but page 0 is pinned */
    st = vacuum_rel(f);
    expect_u64_eq(st.skipped_pages, 1);
    expect_u64_eq(st.scanned_pages, pages - 1);
    per_page = 50 - (int)st.tuples_removed;
    expect_true(per_page > 0);
    __atomic_store_n(&arg.phase, 2, __ATOMIC_SEQ_CST);
    expect_true(join_within(thread));
    expect_str_eq(arg.error, "");
    expect_int_eq(arg.first_id, 1);
    expect_int_eq(arg.again_id, 1);
    expect_int_eq(arg.seen, 50);

    /* the vacuuming thread's own pin (a suspended portal's scan in its
     * session) counts too: page 0 is skipped, not an error */
    tdb_xact_begin(f->xact);
    {
        HeapScanDesc scan = tdb_heap_beginscan(&f->rel, snap_of(f, f->xact));
        HeapTuple tup = tdb_heap_getnext(scan);
        bool isnull;

        tdb_heap_vacuum(&f->rel, f->xact, &st);
        expect_u64_eq(st.skipped_pages, 1);
        expect_int_eq(
            DatumGetInt32(tdb_heap_getattr(tup, 1, f->rel.rd_att, &isnull)),
            1);
        tdb_heap_endscan(scan);
    }
    expect_true(tdb_xact_commit(f->xact));

    /* nobody holds it now: the next VACUUM does page 0 */
    st = vacuum_rel(f);
    expect_u64_eq(st.skipped_pages, 0);
    expect_int_eq((int)st.tuples_removed, per_page);
    expect_int_eq(count_now(f, NULL), 50);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * VACUUM, the writer and readers at once
 * ---------------------------------------------------------------------- */

#define STRESS_ROWS 150
#define STRESS_ROUNDS 40

typedef struct StressArg {
    HeapFixture *f;
    int done;       /* the thread finished (the others wait for the
                     * writer's) */
    int rounds;     /* reader: snapshots checked; vacuum: passes */
    uint64 removed; /* vacuum: row versions removed in all */
    char error[1100];
} StressArg;

/* One stress thread's work, as session x; round_cxt is this thread's
 * to reset between rounds, current on entry. */
typedef void (*StressBody)(StressArg *arg, Transaction *x,
                           MemoryContext round_cxt);

/*
 * The frame every stress thread runs in: the thread's memory contexts, a
 * session of its own, and a context for each round's allocations around
 * body.  An error ends the thread, its message left in arg->error; at
 * the end arg->done is set, error or not.
 */
static void *
stress_run(StressArg *arg, StressBody body)
{
    tdb_mcxt_thread_init();
    TDB_TRY();
    {
        Transaction *x = tdb_xact_create(arg->f->tm, NULL);
        MemoryContext round_cxt =
            tdb_aset_create(tdb_current_mcxt, "round", ALLOCSET_DEFAULT_SIZES);
        MemoryContext old = tdb_mcxt_switch_to(round_cxt);

        body(arg, x, round_cxt);
        tdb_mcxt_switch_to(old);
        tdb_xact_destroy(x);
    }
    TDB_CATCH();
    {
        snprintf(arg->error, sizeof(arg->error), "%s",
                 tdb_error_current()->message);
        tdb_error_flush();
    }
    TDB_END_TRY();
    __atomic_store_n(&arg->done, 1, __ATOMIC_SEQ_CST);
    tdb_mcxt_thread_done();
    return NULL;
}

/* Updates every row's val to the round number, one transaction a round. */
static void
write_rounds(StressArg *arg, Transaction *x, MemoryContext round_cxt)
{
    HeapFixture *f = arg->f;
    ItemPointerData tids[STRESS_ROWS];

    for (int round = 1; round <= STRESS_ROUNDS; round++) {
        HeapScanDesc scan;
        HeapTuple tup;
        int n = 0;

        tdb_xact_begin(x);
        scan = tdb_heap_beginscan(&f->rel, snap_of(f, x));
        while ((tup = tdb_heap_getnext(scan)) != NULL && n < STRESS_ROWS)
            tids[n++] = tup->t_self;
        tdb_heap_endscan(scan);
        for (int i = 0; i < n; i++) {
            TM_FailureData tmfd;

            if (tdb_heap_update(&f->rel, &tids[i],
                                form_row(f, i + 1, round, "s"), x,
                                &tmfd) != TM_OK)
                elog(ERROR, "update failed in round %d", round);
        }
        tdb_xact_commit(x);
        tdb_mcxt_reset(round_cxt);
    }
}

/* Every snapshot sees STRESS_ROWS rows, all with the same val. */
static void
read_rounds(StressArg *arg, Transaction *x, MemoryContext round_cxt)
{
    HeapFixture *f = arg->f;
    StressArg *writer = arg + 1;

    while (!__atomic_load_n(&writer->done, __ATOMIC_SEQ_CST)) {
        Snapshot snap;
        HeapScanDesc scan;
        HeapTuple tup;
        int n = 0;
        int32 first = -1;

        tdb_xact_begin(x);
        snap = snap_of(f, x);
        /* twice with one snapshot, a pause between: VACUUM runs */
        for (int pass = 0; pass < 2; pass++) {
            n = 0;
            scan = tdb_heap_beginscan(&f->rel, snap);
            while ((tup = tdb_heap_getnext(scan)) != NULL) {
                bool isnull;
                int32 val = DatumGetInt32(
                    tdb_heap_getattr(tup, 2, f->rel.rd_att, &isnull));

                if (first < 0)
                    first = val;
                if (val != first)
                    elog(ERROR, "snapshot saw vals %d and %d", first, val);
                n++;
            }
            tdb_heap_endscan(scan);
            if (n != STRESS_ROWS)
                elog(ERROR, "snapshot saw %d rows", n);
            usleep(500);
        }
        tdb_xact_commit(x);
        tdb_mcxt_reset(round_cxt);
        arg->rounds++;
    }
}

/* VACUUM passes until the writer is done. */
static void
vacuum_rounds(StressArg *arg, Transaction *x, MemoryContext round_cxt)
{
    StressArg *writer = arg - 1;

    while (!__atomic_load_n(&writer->done, __ATOMIC_SEQ_CST)) {
        VacuumStats st;

        tdb_xact_begin(x);
        tdb_heap_vacuum(&arg->f->rel, x, &st);
        tdb_xact_commit(x);
        tdb_mcxt_reset(round_cxt);
        arg->removed += st.tuples_removed;
        arg->rounds++;
        usleep(200);
    }
}

static void *
stress_writer(void *p)
{
    return stress_run(p, write_rounds);
}

static void *
stress_reader(void *p)
{
    return stress_run(p, read_rounds);
}

static void *
stress_vacuum(void *p)
{
    return stress_run(p, vacuum_rounds);
}

TEST_BEGIN(test_concurrent_stress)
{
    HeapFixture *f = start(128);
    /* [0] reader, [1] writer, [2] vacuum: neighbours find each other */
    StressArg args[3];
    pthread_t threads[3];
    VacuumStats st;
    BlockNumber pages;
    int64 sum;

    /* every row with val 0 */
    tdb_xact_begin(f->xact);
    for (int i = 1; i <= STRESS_ROWS; i++)
        tdb_heap_insert(&f->rel, form_row(f, i, 0, "s"), f->xact, NULL);
    expect_true(tdb_xact_commit(f->xact));
    memset(args, 0, sizeof(args));
    for (int i = 0; i < 3; i++)
        args[i].f = f;
    expect_int_eq(pthread_create(&threads[0], NULL, stress_reader, &args[0]),
                  0);
    expect_int_eq(pthread_create(&threads[1], NULL, stress_writer, &args[1]),
                  0);
    expect_int_eq(pthread_create(&threads[2], NULL, stress_vacuum, &args[2]),
                  0);
    for (int i = 0; i < 3; i++)
        expect_true(join_within(threads[i]));
    for (int i = 0; i < 3; i++)
        expect_str_eq(args[i].error, "");
    expect_true(args[0].rounds > 0);
    expect_true(args[2].rounds > 0);
    if (getenv("STRESS_PRINT") != NULL)
        printf("    reader %d snapshots, vacuum %d passes removing %llu\n",
               args[0].rounds, args[2].rounds,
               (unsigned long long)args[2].removed);
    /* all old versions go once nobody needs them */
    st = vacuum_rel(f);
    expect_u64_eq(args[2].removed + st.tuples_removed,
                  (uint64)STRESS_ROWS * STRESS_ROUNDS);
    expect_u64_eq(st.tuples_remaining, STRESS_ROWS);
    expect_int_eq(count_now(f, &sum), STRESS_ROWS);
    /* 40 versions of every row, but VACUUM kept the file small: without
     * it the table would need 40 times its pages */
    pages = rel_nblocks(f);
    expect_u64_lt(pages, STRESS_ROUNDS);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Persistence
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_reopen)
{
    HeapFixture *f = start(64);
    const char *note = note_of(100, 'r');
    VacuumStats st;
    int64 sum_before, sum_after;
    Buffer buf;
    Page page;
    bool zero = true;

    insert_committed(f, 1, 600, note);
    expect_int_eq(delete_committed(f, 3, 0), 200);
    st = vacuum_rel(f);
    expect_u64_eq(st.tuples_removed, 200);
    expect_int_eq(count_now(f, &sum_before), 400);

    /* VACUUM flushed its pages: dropping the pool without writing
     * anything (as a crash would) loses nothing it did */
    heap_fixture_crash(f, 64);
    expect_int_eq(count_now(f, &sum_after), 400);
    expect_int_eq(sum_after, sum_before);
    /* the removed rows are really gone from the page, freed bytes zero */
    buf = tdb_buf_read(f->rel.rd_relfilenumber, 0, NULL);
    tdb_buf_lock(buf, BUF_LOCK_SHARE);
    page = tdb_buf_page(buf);
    for (unsigned i = tdb_page_header_const(page)->pd_lower;
         i < tdb_page_header_const(page)->pd_upper; i++)
        zero &= page[i] == 0;
    expect_true(zero);
    expect_u64_gt(tdb_page_get_exact_free_space(page), 1000);
    tdb_buf_unlock_release(buf);

    /* the free space record starts empty after a restart... */
    tdb_fsm_forget(f->rel.rd_relfilenumber);
    st = vacuum_rel(f);
    expect_u64_eq(st.tuples_removed, 0);
    /* ...and VACUUM rebuilds it */
    expect_u64_gt(tdb_fsm_npages(f->rel.rd_relfilenumber, NULL), 0);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * The free space record
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_fsm)
{
    FsmPage pages[4] = {
        {1, 500, false}, {3, 100, false}, {5, 4000, false}, {9, 300, false}};
    RelFileNumber rel = 900001;
    uint64 total;

    tdb_fsm_set_relation(rel, pages, 4);
    /* below FSM_MIN_FREE: not recorded */
    expect_int_eq(tdb_fsm_npages(rel, &total), 3);
    expect_u64_eq(total, 4800);
    /* the lowest page with enough room */
    expect_u64_eq(tdb_fsm_get_page(rel, 200, 100), 1);
    expect_u64_eq(tdb_fsm_get_page(rel, 1000, 100), 5);
    expect_u64_eq(tdb_fsm_get_page(rel, 5000, 100), InvalidBlockNumber);
    /* corrections: less room, then too little to keep */
    tdb_fsm_record(rel, 1, 150);
    expect_u64_eq(tdb_fsm_get_page(rel, 200, 100), 5);
    tdb_fsm_record(rel, 1, 10);
    expect_int_eq(tdb_fsm_npages(rel, NULL), 2);
    /* pages not recorded are not added */
    tdb_fsm_record(rel, 7, 8000);
    expect_int_eq(tdb_fsm_npages(rel, NULL), 2);
    /* past the end of a shorter relation: dropped */
    expect_u64_eq(tdb_fsm_get_page(rel, 200, 6), 5);
    expect_u64_eq(tdb_fsm_get_page(rel, 200, 5), InvalidBlockNumber);
    expect_int_eq(tdb_fsm_npages(rel, NULL), 0);
    /* empty pages: runs of consecutive blocks, spared by single rows */
    {
        FsmPage e[7] = {{2, 8000, true}, {3, 8000, true}, {4, 3000, false},
                        {5, 8000, true}, {6, 8000, true}, {7, 8000, true},
                        {9, 8000, true}};

        tdb_fsm_set_relation(rel, e, 7);
        expect_int_eq(tdb_fsm_nempty(rel), 6);
        expect_u64_eq(tdb_fsm_find_empty_run(rel, 1, 100), 2);
        expect_u64_eq(tdb_fsm_find_empty_run(rel, 2, 100), 2);
        expect_u64_eq(tdb_fsm_find_empty_run(rel, 3, 100), 5);
        expect_u64_eq(tdb_fsm_find_empty_run(rel, 4, 100), InvalidBlockNumber);
        /* the run stays recorded until someone reports on its pages */
        expect_u64_eq(tdb_fsm_find_empty_run(rel, 3, 100), 5);
        expect_u64_eq(tdb_fsm_get_page(rel, 200, 100), 2);
        expect_u64_eq(tdb_fsm_get_page_sparing_empty(rel, 200, 100), 4);
        expect_u64_eq(tdb_fsm_get_page_sparing_empty(rel, 5000, 100), 2);
        /* a report clears the mark: 5-7 is no run any more */
        tdb_fsm_record(rel, 6, 7000);
        expect_int_eq(tdb_fsm_nempty(rel), 5);
        expect_u64_eq(tdb_fsm_find_empty_run(rel, 3, 100), InvalidBlockNumber);
        expect_u64_eq(tdb_fsm_get_page_sparing_empty(rel, 5000, 100), 6);
        /* the end of the relation bounds runs too */
        expect_u64_eq(tdb_fsm_find_empty_run(rel, 1, 9), 2);
        expect_int_eq(tdb_fsm_npages(rel, NULL), 6);
        expect_u64_eq(tdb_fsm_find_empty_run(rel, 1, 2), InvalidBlockNumber);
        expect_int_eq(tdb_fsm_npages(rel, NULL), 0);
        expect_u64_eq(tdb_fsm_find_empty_run(rel, 0, 100), InvalidBlockNumber);
    }
    /* many relations: the least recently used are forgotten */
    for (RelFileNumber r = 1; r <= FSM_MAX_RELATIONS + 5; r++)
        tdb_fsm_set_relation(800000 + r, pages, 4);
    expect_int_eq(tdb_fsm_npages(800001, NULL), 0);
    expect_int_eq(tdb_fsm_npages(800000 + FSM_MAX_RELATIONS + 5, NULL), 3);
    for (RelFileNumber r = 1; r <= FSM_MAX_RELATIONS + 5; r++)
        tdb_fsm_forget(800000 + r);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "access_vacuum", TEST_CASE(test_horizon),
                     TEST_CASE(test_delete_vacuum_reuse),
                     TEST_CASE(test_snapshot_protects),
                     TEST_CASE(test_aborted_insert),
                     TEST_CASE(test_update_old_versions),
                     TEST_CASE(test_running_writer),
                     TEST_CASE(test_pinned_page_skipped),
                     TEST_CASE(test_concurrent_stress),
                     TEST_CASE(test_reopen), TEST_CASE(test_fsm));
}
