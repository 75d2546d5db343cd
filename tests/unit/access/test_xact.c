/*
 * test_xact.c -- transaction ids, the transaction manager, the writer
 * lock, session transaction states, command ids and snapshots.
 *
 *   test_xid_comparison        special ids, circular comparison across
 *       wraparound, TransactionIdAdvance/Retreat
 *   test_assign_commit_abort   ids handed out in order and only to
 *       writers; commit/abort statuses; ranges reserved in the control
 *       file; the exact next id stored at close
 *   test_crash_never_reuses    an abandoned manager: the next open starts
 *       past the reserved range; the uncommitted id reads as not committed
 *   test_snapshot_contents     xmin/xmax/xip/curcid for readers and for
 *       the writer itself; copies
 *   test_command_ids           used/unused increments, reset per
 *       transaction, the 2^32-2 limit
 *   test_failed_transaction    statement failure inside a block: aborted
 *       at once, lock released, 25P02 until ROLLBACK / COMMIT
 *   test_writer_lock_threads   a second writer blocks until the first
 *       commits; snapshots taken meanwhile (on other threads too) do not
 *   test_writer_lock_timeout   55P03 after the timeout, holding nothing
 *   test_many_writers          4 writer threads and 2 reader threads:
 *       one writer at a time, ids unique and dense, snapshots sane
 *   test_commit_fsync_failure  fsync fails at commit: commit raises, the
 *       id is not committed (also after reopen), the lock is released
 *   test_reservation_failure   the control-file update fails at the first
 *       write: nothing assigned, lock released, retry works
 *   test_stop_limit            54000 at the wraparound stop limit
 *   test_destroy_releases      deleting a session mid-transaction aborts
 *   test_close_refuses_running closing with a writer in progress fails
 */
#include "common/base.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "access/access_int.h"
#include "access/clog.h"
#include "access/snapshot.h"
#include "access/transam.h"
#include "access/xact.h"
#include "access_test.h"
#include "storage/fd.h"

static uint32
nwaiters(TransactionManager *tm)
{
    uint32 n;

    pthread_mutex_lock(&tm->lock);
    n = tm->nwaiters;
    pthread_mutex_unlock(&tm->lock);
    return n;
}

/* Wait (up to 10 s) until n sessions wait for the writer lock. */
static bool
wait_for_waiters(TransactionManager *tm, uint32 n)
{
    for (int i = 0; i < 10000; i++) {
        if (nwaiters(tm) == n)
            return true;
        usleep(1000);
    }
    return false;
}

TEST_BEGIN(test_xid_comparison)
{
    TransactionId xid;

    expect_false(TransactionIdIsValid(InvalidTransactionId));
    expect_true(TransactionIdIsValid(BootstrapTransactionId));
    expect_false(TransactionIdIsNormal(FrozenTransactionId));
    expect_true(TransactionIdIsNormal(FirstNormalTransactionId));
    expect_true(TransactionIdIsNormal(MaxTransactionId));

    /* ordinary order */
    expect_true(TransactionIdPrecedes(100, 200));
    expect_false(TransactionIdPrecedes(200, 100));
    expect_false(TransactionIdPrecedes(100, 100));
    expect_true(TransactionIdPrecedesOrEquals(100, 100));
    expect_true(TransactionIdFollows(200, 100));
    expect_true(TransactionIdFollowsOrEquals(100, 100));
    expect_false(TransactionIdFollows(100, 100));

    /* across wraparound: 0xFFFFFFF0 comes before 5 */
    expect_true(TransactionIdPrecedes(0xFFFFFFF0, 5));
    expect_false(TransactionIdPrecedes(5, 0xFFFFFFF0));
    expect_true(TransactionIdFollows(5, 0xFFFFFFF0));
    expect_true(
        TransactionIdPrecedes(MaxTransactionId, FirstNormalTransactionId));
    /* each id sees 2^31 - 1 ids behind it and 2^31 ahead */
    expect_true(TransactionIdPrecedes(10, 10 + 0x7FFFFFFFu));
    expect_false(TransactionIdPrecedes(10 + 0x7FFFFFFFu, 10));
    expect_true(TransactionIdPrecedes(10 + 0x80000001u, 10));
    expect_false(TransactionIdFollows(10 + 0x80000001u, 10));

    /* special ids compare as integers: before every normal id */
    expect_true(TransactionIdPrecedes(FrozenTransactionId, 0xFFFFFFF0));
    expect_true(
        TransactionIdPrecedes(InvalidTransactionId, BootstrapTransactionId));
    expect_false(TransactionIdPrecedes(0xFFFFFFF0, FrozenTransactionId));
    expect_true(TransactionIdFollowsOrEquals(3, FrozenTransactionId));

    xid = MaxTransactionId;
    TransactionIdAdvance(&xid);
    expect_u64_eq(xid, FirstNormalTransactionId);
    xid = 41;
    TransactionIdAdvance(&xid);
    expect_u64_eq(xid, 42);
    xid = FirstNormalTransactionId;
    TransactionIdRetreat(&xid);
    expect_u64_eq(xid, MaxTransactionId);
    xid = 42;
    TransactionIdRetreat(&xid);
    expect_u64_eq(xid, 41);
}
TEST_END

TEST_BEGIN(test_assign_commit_abort)
{
    DataDir *dd = new_datadir();
    TransactionManager *tm = tdb_xact_manager_open(dd, NULL);
    Clog *clog = tdb_xact_manager_clog(tm);
    Transaction *a = tdb_xact_create(tm, NULL);

    expect_u64_eq(tdb_xact_manager_next_xid(tm), 3);
    expect_int_eq(tdb_xact_state(a), XACT_STATE_IDLE);
    tdb_xact_begin(a);
    expect_int_eq(tdb_xact_state(a), XACT_STATE_IN_PROGRESS);
    expect_u64_eq(tdb_xact_current_xid(a), InvalidTransactionId);
    expect_u64_eq(tdb_xact_assign_xid(a), 3);
    expect_u64_eq(tdb_xact_assign_xid(a), 3); /* same id again */
    expect_true(tdb_xact_is_current_xid(a, 3));
    expect_false(tdb_xact_is_current_xid(a, 4));
    expect_false(tdb_xact_is_current_xid(a, InvalidTransactionId));
    expect_true(tdb_xact_xid_is_in_progress(tm, 3));
    /* the range [3, 1027) is reserved durably before 3 is handed out */
    expect_u64_eq(tdb_datadir_next_xid(dd), 3 + XACT_XID_RESERVE);
    expect_true(tdb_xact_commit(a));
    expect_int_eq(tdb_xact_state(a), XACT_STATE_IDLE);
    expect_u64_eq(tdb_xact_current_xid(a), InvalidTransactionId);
    expect_false(tdb_xact_xid_is_in_progress(tm, 3));
    expect_true(tdb_xact_xid_did_commit(tm, 3));
    expect_int_eq(tdb_clog_get_status(clog, 3), TRANSACTION_STATUS_COMMITTED);

    /* abort */
    tdb_xact_begin(a);
    expect_u64_eq(tdb_xact_assign_xid(a), 4);
    tdb_xact_abort(a);
    expect_int_eq(tdb_xact_state(a), XACT_STATE_IDLE);
    expect_false(tdb_xact_xid_is_in_progress(tm, 4));
    expect_false(tdb_xact_xid_did_commit(tm, 4));
    expect_int_eq(tdb_clog_get_status(clog, 4), TRANSACTION_STATUS_ABORTED);
    tdb_xact_abort(a); /* IDLE: nothing to do */

    /* read-only transactions use no id */
    tdb_xact_begin(a);
    expect_true(tdb_xact_commit(a));
    tdb_xact_begin(a);
    tdb_xact_abort(a);
    expect_u64_eq(tdb_xact_manager_next_xid(tm), 5);

    /* misuse */
    expect_error(tdb_xact_commit(a), ERRCODE_INTERNAL_ERROR,
                 "no transaction is in progress");
    expect_error(tdb_xact_assign_xid(a), ERRCODE_INTERNAL_ERROR,
                 "outside a transaction");
    tdb_xact_begin(a);
    expect_error(tdb_xact_begin(a), ERRCODE_INTERNAL_ERROR,
                 "there is already a transaction in progress");
    tdb_xact_abort(a);

    /* a clean close stores the exact next id: nothing is skipped */
    tdb_xact_destroy(a);
    tdb_xact_manager_close(tm);
    expect_u64_eq(tdb_datadir_next_xid(dd), 5);
    tm = tdb_xact_manager_open(dd, NULL);
    a = begin_new(tm);
    expect_u64_eq(tdb_xact_assign_xid(a), 5);
    expect_true(tdb_xact_xid_did_commit(tm, 3));
    expect_false(tdb_xact_xid_did_commit(tm, 4));
    expect_true(tdb_xact_commit(a));
    tdb_xact_destroy(a);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_crash_never_reuses)
{
    const char *path = test_path(test_tmpdir(), "db");
    MemoryContext crash_cxt;
    DataDir *dd;
    TransactionManager *tm;
    Transaction *a;

    tdb_datadir_close(tdb_datadir_create(NULL, path));
    crash_cxt =
        tdb_aset_create(tdb_current_mcxt, "crash", ALLOCSET_SMALL_SIZES);
    dd = tdb_datadir_open(crash_cxt, path);
    tm = tdb_xact_manager_open(dd, crash_cxt);
    a = tdb_xact_create(tm, crash_cxt);
    for (TransactionId xid = 3; xid < 3 + 2 * XACT_XID_RESERVE + 10; xid++) {
        tdb_xact_begin(a);
        expect_u64_eq(tdb_xact_assign_xid(a), xid);
        expect_true(tdb_xact_commit(a));
    }
    /* two ranges used up, the third reserved */
    expect_u64_eq(tdb_datadir_next_xid(dd), 3 + 3 * XACT_XID_RESERVE);
    tdb_xact_begin(a);
    expect_u64_eq(tdb_xact_assign_xid(a), 3 + 2 * XACT_XID_RESERVE + 10);
    /* the process dies: no close, nothing flushed */
    tdb_mcxt_delete(crash_cxt);

    dd = tdb_datadir_open(NULL, path);
    expect_false(tdb_datadir_was_shut_down_cleanly(dd));
    tm = tdb_xact_manager_open(dd, NULL);
    a = begin_new(tm);
    expect_u64_eq(tdb_xact_assign_xid(a), 3 + 3 * XACT_XID_RESERVE);
    expect_true(tdb_xact_xid_did_commit(tm, 3));
    expect_true(tdb_xact_xid_did_commit(tm, 3 + 2 * XACT_XID_RESERVE + 9));
    /* the one in progress at the crash: not committed, not running */
    expect_false(tdb_xact_xid_did_commit(tm, 3 + 2 * XACT_XID_RESERVE + 10));
    expect_false(
        tdb_xact_xid_is_in_progress(tm, 3 + 2 * XACT_XID_RESERVE + 10));
    /* ids reserved but never handed out read as not committed */
    expect_false(tdb_xact_xid_did_commit(tm, 3 + 3 * XACT_XID_RESERVE - 1));
    expect_true(tdb_xact_commit(a));
    tdb_xact_destroy(a);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_snapshot_contents)
{
    DataDir *dd = new_datadir();
    TransactionManager *tm = tdb_xact_manager_open(dd, NULL);
    Transaction *a = tdb_xact_create(tm, NULL);
    Transaction *r = tdb_xact_create(tm, NULL);
    Snapshot s, copy;

    /* nothing running */
    s = tdb_snapshot_take(tm, NULL, tdb_current_mcxt);
    expect_u64_eq(s->xmin, 3);
    expect_u64_eq(s->xmax, 3);
    expect_u64_eq(s->xcnt, 0);
    expect_ptr_null(s->xact);
    expect_u64_eq(s->curxid, InvalidTransactionId);
    expect_u64_eq(s->curcid, FirstCommandId);

    /* a writer running: readers see it in xip */
    tdb_xact_begin(a);
    expect_u64_eq(tdb_xact_assign_xid(a), 3);
    tdb_xact_begin(r);
    s = tdb_snapshot_take(tm, r, tdb_current_mcxt);
    expect_u64_eq(s->xmin, 3);
    expect_u64_eq(s->xmax, 4);
    expect_u64_eq(s->xcnt, 1);
    expect_u64_eq(s->xip[0], 3);
    expect_ptr_eq(s->xact, r);
    expect_u64_eq(s->curxid, InvalidTransactionId);
    expect_true(XidInMVCCSnapshot(s, 3));
    expect_true(XidInMVCCSnapshot(s, 4));  /* >= xmax */
    expect_false(XidInMVCCSnapshot(s, 2)); /* < xmin */

    copy = tdb_snapshot_copy(s, tdb_current_mcxt);
    expect_u64_eq(copy->xmin, 3);
    expect_u64_eq(copy->xmax, 4);
    expect_u64_eq(copy->xcnt, 1);
    expect_ptr_ne(copy->xip, s->xip);
    expect_u64_eq(copy->xip[0], 3);
    expect_ptr_eq(copy->xact, r);

    /* ... and the writer does not see itself as running */
    (void)tdb_xact_current_command_id(a, true);
    tdb_xact_command_counter_increment(a);
    s = tdb_snapshot_take(tm, a, tdb_current_mcxt);
    expect_u64_eq(s->xmin, 3); /* its own id still holds xmin back */
    expect_u64_eq(s->xmax, 4);
    expect_u64_eq(s->xcnt, 0);
    expect_u64_eq(s->curxid, 3);
    expect_u64_eq(s->curcid, 1);
    expect_ptr_eq(s->xact, a);

    /* after the commit */
    expect_true(tdb_xact_commit(a));
    s = tdb_snapshot_take(tm, r, tdb_current_mcxt);
    expect_u64_eq(s->xmin, 4);
    expect_u64_eq(s->xmax, 4);
    expect_u64_eq(s->xcnt, 0);
    expect_false(XidInMVCCSnapshot(s, 3));
    /* the older copy still treats 3 as running */
    expect_true(XidInMVCCSnapshot(copy, 3));
    tdb_xact_abort(r);

    /* a snapshot whose taker gets an id later */
    tdb_xact_begin(r);
    s = tdb_snapshot_take(tm, r, tdb_current_mcxt);
    expect_u64_eq(tdb_xact_assign_xid(r), 4);
    expect_u64_eq(s->curxid, InvalidTransactionId);
    expect_true(tdb_xact_is_current_xid(s->xact, 4));
    expect_true(tdb_xact_commit(r));

    tdb_xact_destroy(a);
    tdb_xact_destroy(r);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_command_ids)
{
    DataDir *dd = new_datadir();
    TransactionManager *tm = tdb_xact_manager_open(dd, NULL);
    Transaction *a = begin_new(tm);

    expect_u64_eq(tdb_xact_current_command_id(a, false), 0);
    tdb_xact_command_counter_increment(a); /* unused: stays */
    expect_u64_eq(tdb_xact_current_command_id(a, false), 0);
    expect_u64_eq(tdb_xact_current_command_id(a, true), 0);
    tdb_xact_command_counter_increment(a);
    expect_u64_eq(tdb_xact_current_command_id(a, false), 1);
    tdb_xact_command_counter_increment(a);
    expect_u64_eq(tdb_xact_current_command_id(a, false), 1);
    (void)tdb_xact_current_command_id(a, true);
    tdb_xact_command_counter_increment(a);
    expect_u64_eq(tdb_xact_current_command_id(a, true), 2);
    expect_true(tdb_xact_commit(a));

    /* the next transaction starts again at 0, with nothing used */
    tdb_xact_begin(a);
    expect_u64_eq(tdb_xact_current_command_id(a, false), 0);
    tdb_xact_command_counter_increment(a);
    expect_u64_eq(tdb_xact_current_command_id(a, false), 0);

    /* the limit: 2^32 - 2 commands */
    a->cid = InvalidCommandId - 2;
    (void)tdb_xact_current_command_id(a, true);
    tdb_xact_command_counter_increment(a);
    expect_u64_eq(tdb_xact_current_command_id(a, true), InvalidCommandId - 1);
    expect_error(tdb_xact_command_counter_increment(a),
                 ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                 "cannot have more than 2^32-2 commands in a transaction");
    expect_u64_eq(tdb_xact_current_command_id(a, false), InvalidCommandId - 1);
    tdb_xact_abort(a);
    tdb_xact_destroy(a);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_failed_transaction)
{
    DataDir *dd = new_datadir();
    TransactionManager *tm = tdb_xact_manager_open(dd, NULL);
    Transaction *a = begin_new(tm);
    Transaction *b = tdb_xact_create(tm, NULL);

    tdb_xact_set_lock_timeout(b, 10);
    expect_u64_eq(tdb_xact_assign_xid(a), 3);
    (void)tdb_xact_current_command_id(a, true);
    tdb_xact_command_counter_increment(a);

    /* a statement fails inside the block */
    tdb_xact_fail(a);
    expect_int_eq(tdb_xact_state(a), XACT_STATE_FAILED);
    expect_u64_eq(tdb_xact_current_xid(a), InvalidTransactionId);
    expect_false(tdb_xact_xid_is_in_progress(tm, 3));
    expect_false(tdb_xact_xid_did_commit(tm, 3));
    expect_int_eq(tdb_clog_get_status(tdb_xact_manager_clog(tm), 3),
                  TRANSACTION_STATUS_ABORTED);
    /* the writer lock is free at once, not at ROLLBACK */
    tdb_xact_begin(b);
    expect_u64_eq(tdb_xact_assign_xid(b), 4);
    expect_true(tdb_xact_commit(b));

    /* only ROLLBACK / COMMIT are accepted */
    expect_error(tdb_xact_assign_xid(a), ERRCODE_IN_FAILED_SQL_TRANSACTION,
                 "current transaction is aborted, commands ignored until "
                 "end of transaction block");
    expect_error(tdb_xact_check_not_failed(a),
                 ERRCODE_IN_FAILED_SQL_TRANSACTION, "current transaction");
    expect_error(tdb_snapshot_take(tm, a, tdb_current_mcxt),
                 ERRCODE_IN_FAILED_SQL_TRANSACTION, "current transaction");
    expect_error(tdb_xact_begin(a), ERRCODE_IN_FAILED_SQL_TRANSACTION,
                 "current transaction is aborted");
    tdb_xact_fail(a); /* a second failure: still FAILED */
    expect_int_eq(tdb_xact_state(a), XACT_STATE_FAILED);
    expect_false(tdb_xact_commit(a)); /* COMMIT acts as ROLLBACK */
    expect_int_eq(tdb_xact_state(a), XACT_STATE_IDLE);
    expect_u64_eq(tdb_xact_current_command_id(a, false), 0);

    /* ROLLBACK ends it too; failing outside a transaction does nothing */
    tdb_xact_begin(a);
    tdb_xact_fail(a);
    tdb_xact_abort(a);
    expect_int_eq(tdb_xact_state(a), XACT_STATE_IDLE);
    tdb_xact_fail(a);
    expect_int_eq(tdb_xact_state(a), XACT_STATE_IDLE);
    tdb_xact_begin(a);
    expect_u64_eq(tdb_xact_assign_xid(a), 5);
    expect_true(tdb_xact_commit(a));

    tdb_xact_destroy(a);
    tdb_xact_destroy(b);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

/* ----------------------------------------------------------------------
 * Threads
 * ---------------------------------------------------------------------- */

typedef struct WriterArg {
    TransactionManager *tm;
    int phase; /* atomic: 1 waiting for the lock, 2 got it, 3 committed */
    TransactionId xid;
    char error[ERRMSG_MAX];
} WriterArg;

static void
record_error(char *buf)
{
    snprintf(buf, ERRMSG_MAX, "%s", tdb_error_current()->message);
    tdb_error_flush();
}

static void *
writer_main(void *p)
{
    WriterArg *arg = p;

    tdb_mcxt_thread_init();
    TDB_TRY();
    {
        Transaction *x = begin_new(arg->tm);

        __atomic_store_n(&arg->phase, 1, __ATOMIC_SEQ_CST);
        arg->xid = tdb_xact_assign_xid(x);
        __atomic_store_n(&arg->phase, 2, __ATOMIC_SEQ_CST);
        tdb_xact_commit(x);
        __atomic_store_n(&arg->phase, 3, __ATOMIC_SEQ_CST);
        tdb_xact_destroy(x);
    }
    TDB_CATCH();
    {
        record_error(arg->error);
    }
    TDB_END_TRY();
    tdb_mcxt_thread_done();
    return NULL;
}

typedef struct ReaderArg {
    TransactionManager *tm;
    TransactionId expect_running; /* must be in the snapshot's xip */
    bool ok;
    char error[ERRMSG_MAX];
} ReaderArg;

static void *
reader_main(void *p)
{
    ReaderArg *arg = p;

    tdb_mcxt_thread_init();
    TDB_TRY();
    {
        Transaction *x = begin_new(arg->tm);
        Snapshot s = tdb_snapshot_take(arg->tm, x, tdb_current_mcxt);

        arg->ok = XidInMVCCSnapshot(s, arg->expect_running) && s->xcnt == 1 &&
                  tdb_xact_xid_is_in_progress(arg->tm, arg->expect_running) &&
                  !tdb_xact_xid_did_commit(arg->tm, arg->expect_running);
        tdb_xact_commit(x);
        tdb_xact_destroy(x);
    }
    TDB_CATCH();
    {
        record_error(arg->error);
    }
    TDB_END_TRY();
    tdb_mcxt_thread_done();
    return NULL;
}

TEST_BEGIN(test_writer_lock_threads)
{
    DataDir *dd = new_datadir();
    TransactionManager *tm = tdb_xact_manager_open(dd, NULL);
    Transaction *a = begin_new(tm);
    WriterArg w = {.tm = tm};
    ReaderArg r = {.tm = tm};
    pthread_t writer, reader;
    Snapshot s;

    expect_u64_eq(tdb_xact_assign_xid(a), 3);
    expect_int_eq(pthread_create(&writer, NULL, writer_main, &w), 0);
    /* the second writer blocks on the writer lock */
    expect_true(wait_for_waiters(tm, 1));
    usleep(20000);
    expect_int_eq(__atomic_load_n(&w.phase, __ATOMIC_SEQ_CST), 1);

    /* readers proceed meanwhile, here and on another thread */
    s = tdb_snapshot_take(tm, NULL, tdb_current_mcxt);
    expect_u64_eq(s->xcnt, 1);
    expect_u64_eq(s->xip[0], 3);
    r.expect_running = 3;
    expect_int_eq(pthread_create(&reader, NULL, reader_main, &r), 0);
    expect_true(join_within(reader));
    expect_str_eq(r.error, "");
    expect_true(r.ok);
    expect_int_eq(__atomic_load_n(&w.phase, __ATOMIC_SEQ_CST), 1);

    /* the first writer commits: the second gets the lock and the next id */
    expect_true(tdb_xact_commit(a));
    expect_true(join_within(writer));
    expect_str_eq(w.error, "");
    expect_int_eq(w.phase, 3);
    expect_u64_eq(w.xid, 4);
    expect_true(tdb_xact_xid_did_commit(tm, 3));
    expect_true(tdb_xact_xid_did_commit(tm, 4));
    expect_u64_eq(nwaiters(tm), 0);

    /* an abort releases the lock just the same */
    memset(&w, 0, sizeof(w));
    w.tm = tm;
    tdb_xact_begin(a);
    expect_u64_eq(tdb_xact_assign_xid(a), 5);
    expect_int_eq(pthread_create(&writer, NULL, writer_main, &w), 0);
    expect_true(wait_for_waiters(tm, 1));
    tdb_xact_abort(a);
    expect_true(join_within(writer));
    expect_str_eq(w.error, "");
    expect_u64_eq(w.xid, 6);

    tdb_xact_destroy(a);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_writer_lock_timeout)
{
    DataDir *dd = new_datadir();
    TransactionManager *tm = tdb_xact_manager_open(dd, NULL);
    Transaction *a = begin_new(tm);
    Transaction *b = begin_new(tm);
    struct timespec t0, t1;
    long elapsed_ms;

    expect_u64_eq(tdb_xact_assign_xid(a), 3);
    tdb_xact_set_lock_timeout(b, 30);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    expect_error(tdb_xact_assign_xid(b), ERRCODE_LOCK_NOT_AVAILABLE,
                 "canceling statement due to lock timeout");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    expect_str_eq(tdb_test_last_error.detail,
                  "Transaction 3 holds the database-wide write lock.");
    elapsed_ms =
        (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    expect_true(elapsed_ms >= 29);
    /* b holds nothing and is still usable */
    expect_int_eq(tdb_xact_state(b), XACT_STATE_IN_PROGRESS);
    expect_u64_eq(tdb_xact_current_xid(b), InvalidTransactionId);
    expect_u64_eq(nwaiters(tm), 0);
    expect_true(tdb_xact_xid_is_in_progress(tm, 3));
    expect_true(tdb_xact_commit(a));
    expect_u64_eq(tdb_xact_assign_xid(b), 4);
    expect_true(tdb_xact_commit(b));

    tdb_xact_destroy(a);
    tdb_xact_destroy(b);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

#define MANY_WRITERS 4
#define MANY_XACTS 60
#define MANY_READERS 2

typedef struct ManyShared {
    TransactionManager *tm;
    int active_writers; /* atomic */
    int max_active;     /* atomic */
    int writers_done;   /* atomic */
    TransactionId xids[MANY_WRITERS][MANY_XACTS];
    int bad_snapshots[MANY_READERS];
    int nsnapshots[MANY_READERS];
    char errors[MANY_WRITERS + MANY_READERS][ERRMSG_MAX];
} ManyShared;

typedef struct ManyArg {
    ManyShared *shared;
    int id;
} ManyArg;

static void *
many_writer_main(void *p)
{
    ManyArg *arg = p;
    ManyShared *sh = arg->shared;

    tdb_mcxt_thread_init();
    TDB_TRY();
    {
        Transaction *x = tdb_xact_create(sh->tm, NULL);

        for (int i = 0; i < MANY_XACTS; i++) {
            int active;

            tdb_xact_begin(x);
            sh->xids[arg->id][i] = tdb_xact_assign_xid(x);
            active =
                __atomic_add_fetch(&sh->active_writers, 1, __ATOMIC_SEQ_CST);
            if (active > __atomic_load_n(&sh->max_active, __ATOMIC_SEQ_CST))
                __atomic_store_n(&sh->max_active, active, __ATOMIC_SEQ_CST);
            if (i % 7 == 0)
                usleep(100);
            __atomic_sub_fetch(&sh->active_writers, 1, __ATOMIC_SEQ_CST);
            if (i % 5 == 4)
                tdb_xact_abort(x);
            else
                tdb_xact_commit(x);
        }
        tdb_xact_destroy(x);
    }
    TDB_CATCH();
    {
        record_error(sh->errors[arg->id]);
    }
    TDB_END_TRY();
    __atomic_add_fetch(&sh->writers_done, 1, __ATOMIC_SEQ_CST);
    tdb_mcxt_thread_done();
    return NULL;
}

static void *
many_reader_main(void *p)
{
    ManyArg *arg = p;
    ManyShared *sh = arg->shared;

    tdb_mcxt_thread_init();
    TDB_TRY();
    {
        TransactionId last_xmax = FirstNormalTransactionId;

        while (__atomic_load_n(&sh->writers_done, __ATOMIC_SEQ_CST) <
               MANY_WRITERS) {
            Snapshot s = tdb_snapshot_take(sh->tm, NULL, tdb_current_mcxt);
            bool good = s->xcnt <= 1 &&
                        TransactionIdPrecedesOrEquals(s->xmin, s->xmax) &&
                        TransactionIdPrecedesOrEquals(last_xmax, s->xmax);

            /* what finished before the snapshot is settled in the log */
            if (s->xmin > FirstNormalTransactionId)
                good =
                    good && tdb_clog_get_status(tdb_xact_manager_clog(sh->tm),
                                                s->xmin - 1) !=
                                TRANSACTION_STATUS_IN_PROGRESS;
            if (s->xcnt == 1)
                good = good && s->xip[0] == s->xmin && s->xmax == s->xip[0] + 1;
            if (!good)
                sh->bad_snapshots[arg->id - MANY_WRITERS]++;
            sh->nsnapshots[arg->id - MANY_WRITERS]++;
            last_xmax = s->xmax;
            tdb_pfree(s);
            usleep(50); /* let the writers run (valgrind: one thread at a
                         * time) */
        }
    }
    TDB_CATCH();
    {
        record_error(sh->errors[arg->id]);
    }
    TDB_END_TRY();
    tdb_mcxt_thread_done();
    return NULL;
}

TEST_BEGIN(test_many_writers)
{
    DataDir *dd = new_datadir();
    ManyShared *sh = tdb_palloc0(sizeof(ManyShared));
    ManyArg args[MANY_WRITERS + MANY_READERS];
    pthread_t threads[MANY_WRITERS + MANY_READERS];
    bool *seen;
    const uint32 total = MANY_WRITERS * MANY_XACTS;

    sh->tm = tdb_xact_manager_open(dd, NULL);
    for (int i = 0; i < MANY_WRITERS + MANY_READERS; i++) {
        args[i].shared = sh;
        args[i].id = i;
        expect_int_eq(pthread_create(&threads[i], NULL,
                                     i < MANY_WRITERS ? many_writer_main
                                                      : many_reader_main,
                                     &args[i]),
                      0);
    }
    for (int i = 0; i < MANY_WRITERS + MANY_READERS; i++) {
        expect_true(join_within(threads[i]));
        expect_str_eq(sh->errors[i], "");
    }
    expect_int_eq(sh->max_active, 1);
    for (int i = 0; i < MANY_READERS; i++) {
        expect_int_eq(sh->bad_snapshots[i], 0);
        expect_true(sh->nsnapshots[i] > 0);
    }
    /* every id from 3 on handed out exactly once */
    seen = tdb_palloc0(total + 3);
    for (int w = 0; w < MANY_WRITERS; w++) {
        for (int i = 0; i < MANY_XACTS; i++) {
            TransactionId xid = sh->xids[w][i];

            expect_true(xid >= 3 && xid < 3 + total);
            if (xid >= 3 && xid < 3 + total) {
                expect_false(seen[xid]);
                seen[xid] = true;
                expect_true(tdb_xact_xid_did_commit(sh->tm, xid) ==
                            (i % 5 != 4));
            }
        }
    }
    expect_u64_eq(tdb_xact_manager_next_xid(sh->tm), 3 + total);
    tdb_xact_manager_close(sh->tm);
    tdb_datadir_close(dd);
}
TEST_END

/* ----------------------------------------------------------------------
 * Faults and limits
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_commit_fsync_failure)
{
    DataDir *dd;
    TransactionManager *tm;
    Transaction *a, *b;
    char *seg0;
    NoticeCapture cap;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dd = new_datadir();
    seg0 = test_path(tdb_datadir_path(dd), "pg_xact/0000");
    tm = tdb_xact_manager_open(dd, NULL);
    a = begin_new(tm);
    b = tdb_xact_create(tm, NULL);
    tdb_xact_set_lock_timeout(b, 10);

    expect_u64_eq(tdb_xact_assign_xid(a), 3);
    expect_true(tdb_fd_inject(FD_OP_FSYNC, 1, EIO));
    expect_error(tdb_xact_commit(a), ERRCODE_IO_ERROR,
                 "could not access status of transaction 3");
    expect_str_contains(tdb_test_last_error.detail, "Could not fsync file");
    tdb_fd_inject_clear();
    /* not committed, in memory or on disk; the transaction is over */
    expect_int_eq(tdb_xact_state(a), XACT_STATE_IDLE);
    expect_false(tdb_xact_xid_did_commit(tm, 3));
    expect_false(tdb_xact_xid_is_in_progress(tm, 3));
    expect_int_eq(file_byte(seg0, 0), TRANSACTION_STATUS_ABORTED << 6);
    /* and the lock is free */
    tdb_xact_begin(b);
    expect_u64_eq(tdb_xact_assign_xid(b), 4);
    expect_true(tdb_xact_commit(b));
    expect_int_eq(file_byte(seg0, 1), TRANSACTION_STATUS_COMMITTED);

    /* both the commit's and the abort's fsync fail: a WARNING, the lock
     * is still released, and the ABORTED status reaches disk later */
    tdb_xact_begin(a);
    expect_u64_eq(tdb_xact_assign_xid(a), 5);
    notice_capture_begin(&cap);
    expect_true(tdb_fd_inject(FD_OP_FSYNC, 1, EIO));
    expect_true(tdb_fd_inject(FD_OP_FSYNC, 2, EIO));
    expect_error(tdb_xact_commit(a), ERRCODE_IO_ERROR,
                 "could not access status of transaction 5");
    notice_capture_end(&cap);
    tdb_fd_inject_clear();
    expect_int_eq(cap.nwarnings, 1);
    expect_str_eq(cap.last, "could not access status of transaction 5");
    expect_false(tdb_xact_xid_did_commit(tm, 5));
    tdb_xact_begin(b);
    expect_u64_eq(tdb_xact_assign_xid(b), 6);
    expect_true(tdb_xact_commit(b));

    tdb_xact_destroy(a);
    tdb_xact_destroy(b);
    tdb_xact_manager_close(tm);
    tm = tdb_xact_manager_open(dd, NULL);
    expect_false(tdb_xact_xid_did_commit(tm, 3));
    expect_true(tdb_xact_xid_did_commit(tm, 4));
    expect_false(tdb_xact_xid_did_commit(tm, 5));
    expect_int_eq(tdb_clog_get_status(tdb_xact_manager_clog(tm), 5),
                  TRANSACTION_STATUS_ABORTED);
    expect_true(tdb_xact_xid_did_commit(tm, 6));
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_reservation_failure)
{
    DataDir *dd;
    TransactionManager *tm;
    Transaction *a, *b;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dd = new_datadir();
    tm = tdb_xact_manager_open(dd, NULL);
    a = begin_new(tm);
    b = begin_new(tm);
    tdb_xact_set_lock_timeout(b, 10);

    /* writing the range's commit log page fails: no id, no lock */
    expect_true(tdb_fd_inject(FD_OP_FSYNC, 1, EIO));
    expect_error(tdb_xact_assign_xid(a), ERRCODE_IO_ERROR,
                 "could not access status of transaction 3");
    expect_str_contains(tdb_test_last_error.detail, "Could not fsync file");
    tdb_fd_inject_clear();
    expect_u64_eq(tdb_xact_current_xid(a), InvalidTransactionId);
    expect_u64_eq(tdb_datadir_next_xid(dd), 3);

    /* the control-file update fails (after the page's fsync and
     * pg_xact's): no id, no lock */
    expect_true(tdb_fd_inject(FD_OP_FSYNC, 3, EIO));
    expect_error(tdb_xact_assign_xid(a), ERRCODE_IO_ERROR, "could not fsync");
    tdb_fd_inject_clear();
    expect_u64_eq(tdb_xact_current_xid(a), InvalidTransactionId);
    expect_u64_eq(tdb_datadir_next_xid(dd), 3);
    expect_u64_eq(tdb_xact_assign_xid(b), 3);
    expect_true(tdb_xact_commit(b));
    expect_u64_eq(tdb_datadir_next_xid(dd), 3 + XACT_XID_RESERVE);
    expect_u64_eq(tdb_xact_assign_xid(a), 4);
    expect_true(tdb_xact_commit(a));

    tdb_xact_destroy(a);
    tdb_xact_destroy(b);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_stop_limit)
{
    DataDir *dd = new_datadir();
    TransactionManager *tm = tdb_xact_manager_open(dd, NULL);
    TransactionId stop = tdb_xact_manager_stop_xid(tm);
    Transaction *a, *b;

    /* 2^31 after the first normal id, less PostgreSQL's margin */
    expect_u64_eq(stop, 3u + 0x7FFFFFFFu - XACT_STOP_LIMIT_MARGIN);
    tdb_xact_manager_close(tm);

    jump_next_xid(dd, stop - 2);
    tm = tdb_xact_manager_open(dd, NULL);
    a = begin_new(tm);
    b = begin_new(tm);
    tdb_xact_set_lock_timeout(b, 10);
    expect_u64_eq(tdb_xact_assign_xid(a), stop - 2);
    /* the reservation stops at the limit */
    expect_u64_eq(tdb_datadir_next_xid(dd), stop);
    expect_true(tdb_xact_commit(a));
    tdb_xact_begin(a);
    expect_u64_eq(tdb_xact_assign_xid(a), stop - 1);
    expect_true(tdb_xact_commit(a));
    tdb_xact_begin(a);
    expect_error(tdb_xact_assign_xid(a), ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                 "database is not accepting commands that assign new "
                 "transaction IDs to avoid wraparound data loss");
    /* no lock left behind: b gets the same error, not a timeout */
    expect_error(tdb_xact_assign_xid(b), ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                 "wraparound");
    /* reading still works */
    expect_true(tdb_xact_xid_did_commit(tm, stop - 1));
    expect_true(tdb_xact_commit(a));
    expect_true(tdb_xact_commit(b));
    tdb_xact_destroy(a);
    tdb_xact_destroy(b);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_destroy_releases)
{
    DataDir *dd = new_datadir();
    TransactionManager *tm = tdb_xact_manager_open(dd, NULL);
    MemoryContext session =
        tdb_aset_create(tdb_current_mcxt, "session", ALLOCSET_SMALL_SIZES);
    Transaction *a = tdb_xact_create(tm, session);
    Transaction *b = begin_new(tm);

    tdb_xact_set_lock_timeout(b, 10);
    tdb_xact_begin(a);
    expect_u64_eq(tdb_xact_assign_xid(a), 3);
    tdb_mcxt_delete(session); /* the session goes away */
    expect_false(tdb_xact_xid_is_in_progress(tm, 3));
    expect_false(tdb_xact_xid_did_commit(tm, 3));
    expect_u64_eq(tdb_xact_assign_xid(b), 4);
    expect_true(tdb_xact_commit(b));

    /* tdb_xact_destroy does the same */
    a = begin_new(tm);
    tdb_xact_begin(b);
    expect_u64_eq(tdb_xact_assign_xid(a), 5);
    tdb_xact_destroy(a);
    expect_u64_eq(tdb_xact_assign_xid(b), 6);
    expect_true(tdb_xact_commit(b));
    expect_false(tdb_xact_xid_did_commit(tm, 5));

    tdb_xact_destroy(b);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_close_refuses_running)
{
    DataDir *dd = new_datadir();
    TransactionManager *tm = tdb_xact_manager_open(dd, NULL);
    Transaction *a = begin_new(tm);

    expect_u64_eq(tdb_xact_assign_xid(a), 3);
    expect_error(tdb_xact_manager_close(tm),
                 ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                 "cannot close the transaction manager while transaction 3 "
                 "is in progress");
    expect_true(tdb_xact_commit(a));
    tdb_xact_destroy(a);
    tdb_xact_manager_close(tm);
    tdb_datadir_close(dd);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "access_xact", TEST_CASE(test_xid_comparison),
        TEST_CASE(test_assign_commit_abort), TEST_CASE(test_crash_never_reuses),
        TEST_CASE(test_snapshot_contents), TEST_CASE(test_command_ids),
        TEST_CASE(test_failed_transaction), TEST_CASE(test_writer_lock_threads),
        TEST_CASE(test_writer_lock_timeout), TEST_CASE(test_many_writers),
        TEST_CASE(test_commit_fsync_failure),
        TEST_CASE(test_reservation_failure), TEST_CASE(test_stop_limit),
        TEST_CASE(test_destroy_releases),
        TEST_CASE(test_close_refuses_running));
}
