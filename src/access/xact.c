/*
 * xact.c -- the transaction manager (xid allocation, running set, writer
 * lock) and the per-session transaction state machine (xact.h).
 *
 * Assigning an xid (tdb_xact_assign_xid), in order:
 *   1. take the writer lock: wait on writer_released until writer is
 *      NULL (bounded by the session's lock timeout), then writer = us;
 *   2. holding only the writer lock -- so snapshots are not held up by
 *      file I/O -- check the stop limit, reserve a new range of ids in
 *      the control file if next_xid reached reserved_xid, and extend the
 *      commit log to the new id;
 *   3. under the mutex, take next_xid, advance it and add the id to the
 *      running set: from this instant snapshots list it as running.
 * An error in step 2 releases the writer lock before it propagates.
 *
 * Committing (tdb_xact_commit): write COMMITTED durably to the commit
 * log, then, under the mutex, drop the id from the running set and
 * release the writer lock.  The order matters (PostgreSQL's too): a
 * snapshot taken in between still lists the id as running, so nobody
 * sees the rows before commit returns, and nobody who sees the id gone
 * from the running set can find it uncommitted in the log.
 *
 * Aborting never raises: the ABORTED status is recorded with
 * tdb_clog_set_status_noerror (cache only; durably after a failed
 * commit, whose write may have reached the file), then the id leaves the
 * running set and the lock is released.  Even if the log cannot be
 * updated, an id that is no longer running and not COMMITTED counts as
 * aborted.
 *
 * Invariants:
 *   1. tm->writer != NULL iff some session holds the writer lock; a
 *      session's xid is valid only while it holds it.  Hence at most one
 *      id is running (XACT_MAX_RUNNING).
 *   2. Every id in [FirstNormal, reserved_xid) may have been handed out;
 *      no id >= the control file's next xid ever has been.
 *   3. tm->next_xid changes only under the mutex and only by the
 *      writer-lock holder, which may therefore read it without the mutex.
 */
#include "common/base.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "access/access_int.h"
#include "access/clog.h"
#include "access/lmgr.h"
#include "access/xact.h"
#include "common/elog.h"

/* ----------------------------------------------------------------------
 * The manager
 * ---------------------------------------------------------------------- */

/* The first id the manager refuses: PostgreSQL's xidStopLimit computed
 * from the oldest id that may still be in a tuple. */
static TransactionId
compute_stop_xid(TransactionId oldest_xid)
{
    TransactionId wrap_xid = oldest_xid + (MaxTransactionId >> 1);
    TransactionId stop_xid;

    if (wrap_xid < FirstNormalTransactionId)
        wrap_xid += FirstNormalTransactionId;
    stop_xid = wrap_xid - XACT_STOP_LIMIT_MARGIN;
    if (stop_xid < FirstNormalTransactionId)
        stop_xid -= FirstNormalTransactionId;
    return stop_xid;
}

static void
manager_release(void *arg)
{
    TransactionManager *tm = arg;

    /* sessions still alive (a crash: their contexts go later) must not
     * touch the destroyed mutex to leave the list */
    for (Transaction *s = tm->sessions; s != NULL; s = s->next_session)
        s->in_session_list = false;
    tm->sessions = NULL;
    pthread_mutex_destroy(&tm->lock);
    pthread_cond_destroy(&tm->writer_released);
    tdb_lmgr_destroy(tm);
}

TransactionManager *
tdb_xact_manager_open(DataDir *dd, MemoryContext parent)
{
    MemoryContext cxt =
        tdb_aset_create(parent != NULL ? parent : tdb_current_mcxt,
                        "TransactionManager", ALLOCSET_SMALL_SIZES);
    TransactionManager *tm = tdb_mcxt_alloc_zero(cxt, sizeof(*tm));
    TransactionId next_xid = tdb_datadir_next_xid(dd);
    pthread_condattr_t attr;

    tm->cxt = cxt;
    tm->dd = dd;
    if (!TransactionIdIsNormal(next_xid)) {
        tdb_mcxt_delete(cxt);
        ereport(
            ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("control file of \"%s\" contains invalid data",
                   tdb_datadir_path(dd)),
            errdetail("The next transaction ID %u is a special ID.", next_xid));
    }
    tm->next_xid = next_xid;
    tm->reserved_xid = next_xid;
    /* nothing freezes old ids yet: every id since the first may be in a
     * tuple */
    tm->stop_xid = compute_stop_xid(FirstNormalTransactionId);

    pthread_mutex_init(&tm->lock, NULL);
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&tm->writer_released, &attr);
    pthread_condattr_destroy(&attr);
    tdb_lmgr_init(tm);
    tm->release_callback.func = manager_release;
    tm->release_callback.arg = tm;
    tdb_mcxt_register_reset_callback(cxt, &tm->release_callback);

    TDB_TRY();
    {
        tm->clog = tdb_clog_open(dd, cxt);
    }
    TDB_CATCH();
    {
        tdb_mcxt_delete(cxt);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    return tm;
}

void
tdb_xact_manager_close(TransactionManager *tm)
{
    TransactionId writer_xid = InvalidTransactionId;
    bool busy;

    pthread_mutex_lock(&tm->lock);
    busy = tm->writer != NULL;
    writer_xid = tm->writer_xid;
    pthread_mutex_unlock(&tm->lock);
    if (busy)
        ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                errmsg("cannot close the transaction manager while "
                       "transaction %u is in progress",
                       writer_xid));

    tdb_clog_flush(tm->clog);
    /* invariant 2: nothing at or after next_xid was handed out */
    if (tm->reserved_xid != tm->next_xid) {
        tdb_datadir_set_next_xid(tm->dd, tm->next_xid);
        tm->reserved_xid = tm->next_xid;
    }
    tdb_mcxt_delete(tm->cxt);
}

Clog *
tdb_xact_manager_clog(TransactionManager *tm)
{
    return tm->clog;
}

TransactionId
tdb_xact_manager_next_xid(TransactionManager *tm)
{
    TransactionId xid;

    pthread_mutex_lock(&tm->lock);
    xid = tm->next_xid;
    pthread_mutex_unlock(&tm->lock);
    return xid;
}

TransactionId
tdb_xact_manager_stop_xid(TransactionManager *tm)
{
    return tm->stop_xid;
}

bool
tdb_xact_xid_is_in_progress(TransactionManager *tm, TransactionId xid)
{
    bool found = false;

    pthread_mutex_lock(&tm->lock);
    for (uint32 i = 0; i < tm->nrunning; i++)
        if (tm->running[i] == xid)
            found = true;
    pthread_mutex_unlock(&tm->lock);
    return found;
}

TransactionId
tdb_xact_manager_oldest_xmin(TransactionManager *tm)
{
    TransactionId horizon;

    pthread_mutex_lock(&tm->lock);
    horizon = tm->next_xid;
    for (uint32 i = 0; i < tm->nrunning; i++)
        if (TransactionIdPrecedes(tm->running[i], horizon))
            horizon = tm->running[i];
    for (const Transaction *s = tm->sessions; s != NULL; s = s->next_session)
        if (TransactionIdIsValid(s->snapshot_xmin) &&
            TransactionIdPrecedes(s->snapshot_xmin, horizon))
            horizon = s->snapshot_xmin;
    pthread_mutex_unlock(&tm->lock);
    return horizon;
}

bool
tdb_xact_xid_did_commit(TransactionManager *tm, TransactionId xid)
{
    return tdb_transam_did_commit(tm->clog, xid);
}

/* ----------------------------------------------------------------------
 * The writer lock and xid assignment
 * ---------------------------------------------------------------------- */

void
tdb_xact_deadline_after(struct timespec *deadline, int ms)
{
    clock_gettime(CLOCK_MONOTONIC, deadline);
    deadline->tv_sec += ms / 1000;
    deadline->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (deadline->tv_nsec >= 1000000000L) {
        deadline->tv_sec++;
        deadline->tv_nsec -= 1000000000L;
    }
}

int
tdb_xact_lock_wait(Transaction *xact, pthread_cond_t *cond,
                   pthread_mutex_t *mutex, const struct timespec *deadline)
{
    struct timespec slice;
    int rc;

    if (xact->cancel_flag == NULL) {
        if (deadline == NULL)
            return pthread_cond_wait(cond, mutex);
        return pthread_cond_timedwait(cond, mutex, deadline);
    }
    if (atomic_load(xact->cancel_flag))
        return ECANCELED;
    tdb_xact_deadline_after(&slice, LOCK_WAIT_SLICE_MS);
    if (deadline != NULL &&
        (deadline->tv_sec < slice.tv_sec ||
         (deadline->tv_sec == slice.tv_sec &&
          deadline->tv_nsec < slice.tv_nsec)))
        return pthread_cond_timedwait(cond, mutex, deadline);
    rc = pthread_cond_timedwait(cond, mutex, &slice);
    if (atomic_load(xact->cancel_flag))
        return ECANCELED;
    return rc == ETIMEDOUT ? 0 : rc; /* a slice ending is a spurious wake */
}

void
tdb_xact_raise_cancel_reason(int why)
{
    if (why == XACT_CANCEL_STATEMENT_TIMEOUT)
        ereport(ERROR, errcode(ERRCODE_QUERY_CANCELED),
                errmsg("canceling statement due to statement timeout"));
    ereport(ERROR, errcode(ERRCODE_QUERY_CANCELED),
            errmsg("canceling statement due to user request"));
    __builtin_unreachable();
}

void
tdb_xact_raise_canceled(Transaction *xact)
{
    int why = XACT_CANCEL_USER;

    if (xact->cancel_flag != NULL) {
        why = atomic_exchange(xact->cancel_flag, XACT_CANCEL_NONE);
        if (why == XACT_CANCEL_NONE)
            why = XACT_CANCEL_USER;
    }
    tdb_xact_raise_cancel_reason(why);
}

void
tdb_xact_set_cancel_flag(Transaction *xact, atomic_int *flag)
{
    xact->cancel_flag = flag;
}

/*
 * Step 1 of assignment: wait for the writer lock and take it.  Raises
 * 55P03 if the session's lock timeout passes first (holding nothing).
 */
static void
writer_acquire(Transaction *xact)
{
    TransactionManager *tm = xact->tm;
    struct timespec deadline;
    TransactionId holder_xid = InvalidTransactionId;
    bool acquired = false;
    bool deadlock = false;
    bool canceled = false;

    if (xact->lock_timeout_ms > 0)
        tdb_xact_deadline_after(&deadline, xact->lock_timeout_ms);
    pthread_mutex_lock(&tm->lock);
    Assert(tm->writer != xact);
    if (tm->writer != NULL && tdb_lmgr_waits_for(tm, tm->writer, xact)) {
        deadlock = true;
    } else if (tm->writer != NULL) {
        tm->nwaiters++;
        xact->waits_for_writer = true;
        while (tm->writer != NULL) {
            int rc = tdb_xact_lock_wait(
                xact, &tm->writer_released, &tm->lock,
                xact->lock_timeout_ms > 0 ? &deadline : NULL);

            if (rc == ETIMEDOUT)
                break;
            if (rc == ECANCELED) {
                canceled = true;
                break;
            }
        }
        xact->waits_for_writer = false;
        tm->nwaiters--;
    }
    if (tm->writer == NULL && !deadlock && !canceled) {
        tm->writer = xact;
        tm->writer_xid = InvalidTransactionId;
        acquired = true;
    } else
        holder_xid = tm->writer_xid;
    pthread_mutex_unlock(&tm->lock);

    if (deadlock)
        tdb_lmgr_report_deadlock("the database-wide write lock");
    if (canceled)
        tdb_xact_raise_canceled(xact);
    if (!acquired) {
        if (TransactionIdIsValid(holder_xid))
            ereport(ERROR, errcode(ERRCODE_LOCK_NOT_AVAILABLE),
                    errmsg("canceling statement due to lock timeout"),
                    errdetail("Transaction %u holds the database-wide "
                              "write lock.",
                              holder_xid));
        ereport(ERROR, errcode(ERRCODE_LOCK_NOT_AVAILABLE),
                errmsg("canceling statement due to lock timeout"),
                errdetail("Another transaction holds the database-wide "
                          "write lock."));
    }
}

/*
 * Give up the writer lock and take xact's xid (if any) out of the running
 * set.  Never raises.
 */
static void
writer_release(Transaction *xact)
{
    TransactionManager *tm = xact->tm;

    pthread_mutex_lock(&tm->lock);
    if (TransactionIdIsValid(xact->xid)) {
        for (uint32 i = 0; i < tm->nrunning; i++) {
            if (tm->running[i] == xact->xid) {
                tm->running[i] = tm->running[--tm->nrunning];
                break;
            }
        }
    }
    if (tm->writer == xact) {
        tm->writer = NULL;
        tm->writer_xid = InvalidTransactionId;
        pthread_cond_broadcast(&tm->writer_released);
    }
    pthread_mutex_unlock(&tm->lock);
}

/*
 * Step 2 of assignment (writer lock held): refuse ids at the stop limit,
 * reserve a new range in the control file when the reserved one is used
 * up, prepare the commit log page.
 */
static void
prepare_next_xid(TransactionManager *tm)
{
    TransactionId xid = tm->next_xid; /* invariant 3 */

    if (!TransactionIdPrecedes(xid, tm->stop_xid))
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("database is not accepting commands that assign new "
                       "transaction IDs to avoid wraparound data loss"),
                errdetail("The next transaction ID would be %u; the limit "
                          "is %u.",
                          xid, tm->stop_xid),
                errhint("Freezing old transaction IDs is not implemented "
                        "yet, so a data directory can assign at most about "
                        "two billion transaction IDs."));
    if (!TransactionIdPrecedes(xid, tm->reserved_xid)) {
        TransactionId limit = xid + XACT_XID_RESERVE;

        if (limit < FirstNormalTransactionId)
            limit += FirstNormalTransactionId;
        if (TransactionIdFollows(limit, tm->stop_xid))
            limit = tm->stop_xid;
        /* the range's commit log pages exist before the control file
         * says its ids may be in use (clog.h) */
        tdb_clog_reserve(tm->clog, limit);
        tdb_datadir_set_next_xid(tm->dd, limit);
        tm->reserved_xid = limit;
    }
    tdb_clog_extend(tm->clog, xid);
}

TransactionId
tdb_xact_assign_xid(Transaction *xact)
{
    TransactionManager *tm = xact->tm;
    TransactionId xid;

    tdb_xact_check_not_failed(xact);
    if (xact->state != XACT_STATE_IN_PROGRESS)
        elog(ERROR, "cannot assign a transaction ID outside a transaction");
    if (TransactionIdIsValid(xact->xid))
        return xact->xid;

    writer_acquire(xact);
    TDB_TRY();
    {
        prepare_next_xid(tm);
    }
    TDB_CATCH();
    {
        writer_release(xact);
        TDB_RE_THROW();
    }
    TDB_END_TRY();

    pthread_mutex_lock(&tm->lock);
    xid = tm->next_xid;
    TransactionIdAdvance(&tm->next_xid);
    Assert(tm->nrunning < XACT_MAX_RUNNING);
    tm->running[tm->nrunning++] = xid;
    tm->writer_xid = xid;
    pthread_mutex_unlock(&tm->lock);
    xact->xid = xid;
    return xid;
}

/* ----------------------------------------------------------------------
 * Session transactions
 * ---------------------------------------------------------------------- */

/* The transaction's snapshots are gone: stop holding VACUUM's horizon
 * back.  Never raises. */
static void
clear_snapshot_xmin(Transaction *xact)
{
    TransactionManager *tm = xact->tm;

    if (!xact->in_session_list)
        return;
    pthread_mutex_lock(&tm->lock);
    xact->snapshot_xmin = InvalidTransactionId;
    pthread_mutex_unlock(&tm->lock);
}

/* Clear the per-transaction state and memory.  Never raises. */
static void
reset_transaction(Transaction *xact)
{
    clear_snapshot_xmin(xact);
    xact->xid = InvalidTransactionId;
    xact->cid = FirstCommandId;
    xact->cid_used = false;
    xact->callbacks = NULL;
    xact->callbacks_tail = &xact->callbacks;
    xact->written_rels = NULL;
    xact->nwritten_rels = xact->written_rels_size = 0;
    tdb_combocid_reset(xact);
    tdb_mcxt_reset(xact->xact_cxt);
}

void
tdb_xact_register_callback(Transaction *xact, XactCallback callback,
                           void *arg)
{
    XactCallbackItem *item;

    if (xact->state != XACT_STATE_IN_PROGRESS)
        elog(ERROR, "cannot register a callback outside a transaction");
    item = tdb_mcxt_alloc(xact->xact_cxt, sizeof(*item));
    item->callback = callback;
    item->arg = arg;
    item->next = NULL;
    *xact->callbacks_tail = item;
    xact->callbacks_tail = &item->next;
}

bool
tdb_xact_note_relation_written(Transaction *xact, RelFileNumber rel)
{
    for (uint32 i = 0; i < xact->nwritten_rels; i++)
        if (xact->written_rels[i] == rel)
            return false;
    if (xact->nwritten_rels == xact->written_rels_size) {
        uint32 size = xact->written_rels_size == 0
                          ? 8
                          : xact->written_rels_size * 2;
        RelFileNumber *rels =
            tdb_mcxt_alloc(xact->xact_cxt, size * sizeof(RelFileNumber));

        if (xact->nwritten_rels > 0)
            memcpy(rels, xact->written_rels,
                   xact->nwritten_rels * sizeof(RelFileNumber));
        xact->written_rels = rels;
        xact->written_rels_size = size;
    }
    xact->written_rels[xact->nwritten_rels++] = rel;
    return true;
}

/*
 * Make *saved the thread's current error again.  elog.c keeps a single
 * current error, which a callback's ERROR overwrites even when it is
 * caught; there is no call to set it, so raise a copy and catch it (the
 * copy reports this function as its location).
 */
static void
restore_current_error(const ErrorData *saved)
{
    TDB_TRY();
    {
        ereport(ERROR, errcode(saved->sqlerrcode), errmsg("%s", saved->message),
                errdetail("%s", saved->detail), errhint("%s", saved->hint),
                errcontext_msg("%s", saved->context),
                errposition(saved->cursorpos));
    }
    TDB_CATCH();
    {
        /* current again, as the caller expects */
    }
    TDB_END_TRY();
}

/*
 * Run the callbacks for a COMMIT or ABORT event; errors become
 * WARNINGs.  Never raises.  An error being handled when it is called
 * (abort after a failed PRE_COMMIT or commit-log write, or error
 * recovery aborting inside a TDB_CATCH block) is still the current error
 * afterwards, even if a callback raised: the caller re-raises or reports
 * it.
 */
static void
run_callbacks_noerror(Transaction *xact, XactEvent event)
{
    bool handling_error = tdb_error_current() != NULL;
    ErrorData saved; /* a copy: a callback's ERROR overwrites elog's */
    volatile bool replaced = false;

    if (xact->callbacks == NULL)
        return;
    if (handling_error)
        saved = *tdb_error_current();
    for (XactCallbackItem *volatile item = xact->callbacks; item != NULL;
         item = item->next) {
        TDB_TRY();
        {
            item->callback(event, item->arg);
        }
        TDB_CATCH();
        {
            const ErrorData *e = tdb_error_current();

            ereport(WARNING, errcode(e->sqlerrcode), errmsg("%s", e->message));
            tdb_error_flush();
            replaced = true;
        }
        TDB_END_TRY();
    }
    if (replaced && handling_error)
        restore_current_error(&saved);
}

/* Run the PRE_COMMIT callbacks; they may raise. */
static void
run_pre_commit_callbacks(Transaction *xact)
{
    for (XactCallbackItem *item = xact->callbacks; item != NULL;
         item = item->next)
        item->callback(XACT_EVENT_PRE_COMMIT, item->arg);
}

/*
 * Abort's work: record ABORTED (durably after a failed commit), leave
 * the running set, release the writer lock, reset.  Never raises.
 */
static void
abort_transaction(Transaction *xact, bool durable)
{
    run_callbacks_noerror(xact, XACT_EVENT_ABORT);
    if (TransactionIdIsValid(xact->xid)) {
        (void)tdb_clog_set_status_noerror(xact->tm->clog, xact->xid,
                                          TRANSACTION_STATUS_ABORTED, durable);
        writer_release(xact);
    }
    tdb_lmgr_release_all(xact);
    reset_transaction(xact);
}

/*
 * Context reset callback: a session that goes away mid-transaction.  The
 * TransactionContext (a child) is already gone, so only the non-memory
 * part of an abort is done here.
 */
static void
transaction_release(void *arg)
{
    Transaction *xact = arg;

    if (TransactionIdIsValid(xact->xid)) {
        (void)tdb_clog_set_status_noerror(xact->tm->clog, xact->xid,
                                          TRANSACTION_STATUS_ABORTED, false);
        writer_release(xact);
        xact->xid = InvalidTransactionId;
    }
    tdb_lmgr_release_all(xact);
    xact->callbacks = NULL; /* they lived in the deleted TransactionContext */
    xact->state = XACT_STATE_IDLE;
    if (xact->in_session_list) {
        TransactionManager *tm = xact->tm;

        pthread_mutex_lock(&tm->lock);
        if (xact->prev_session != NULL)
            xact->prev_session->next_session = xact->next_session;
        else
            tm->sessions = xact->next_session;
        if (xact->next_session != NULL)
            xact->next_session->prev_session = xact->prev_session;
        xact->in_session_list = false;
        pthread_mutex_unlock(&tm->lock);
    }
}

Transaction *
tdb_xact_create(TransactionManager *tm, MemoryContext parent)
{
    MemoryContext cxt =
        tdb_aset_create(parent != NULL ? parent : tdb_current_mcxt,
                        "Transaction", ALLOCSET_SMALL_SIZES);
    Transaction *xact = tdb_mcxt_alloc_zero(cxt, sizeof(*xact));

    xact->tm = tm;
    xact->cxt = cxt;
    xact->xact_cxt =
        tdb_aset_create(cxt, "TransactionContext", ALLOCSET_DEFAULT_SIZES);
    xact->state = XACT_STATE_IDLE;
    xact->xid = InvalidTransactionId;
    xact->cid = FirstCommandId;
    xact->callbacks_tail = &xact->callbacks;
    xact->snapshot_xmin = InvalidTransactionId;
    xact->release_callback.func = transaction_release;
    xact->release_callback.arg = xact;
    tdb_mcxt_register_reset_callback(cxt, &xact->release_callback);

    pthread_mutex_lock(&tm->lock);
    xact->next_session = tm->sessions;
    xact->prev_session = NULL;
    if (tm->sessions != NULL)
        tm->sessions->prev_session = xact;
    tm->sessions = xact;
    xact->in_session_list = true;
    pthread_mutex_unlock(&tm->lock);
    return xact;
}

DataDir *
tdb_xact_manager_datadir(TransactionManager *tm)
{
    return tm->dd;
}

TransactionManager *
tdb_xact_manager_of(const Transaction *xact)
{
    return xact->tm;
}

void
tdb_xact_destroy(Transaction *xact)
{
    /* a full abort first, so that ABORT callbacks run (the context's
     * reset callback can do only what a crash would) */
    tdb_xact_abort(xact);
    tdb_mcxt_delete(xact->cxt);
}

void
tdb_xact_set_lock_timeout(Transaction *xact, int timeout_ms)
{
    xact->lock_timeout_ms = timeout_ms > 0 ? timeout_ms : 0;
}

void
tdb_xact_begin(Transaction *xact)
{
    tdb_xact_check_not_failed(xact);
    if (xact->state != XACT_STATE_IDLE)
        elog(ERROR, "there is already a transaction in progress");
    xact->state = XACT_STATE_IN_PROGRESS;
}

TransactionId
tdb_xact_current_xid(const Transaction *xact)
{
    return xact->xid;
}

bool
tdb_xact_is_current_xid(const Transaction *xact, TransactionId xid)
{
    return xact_is_current(xact, xid);
}

XactState
tdb_xact_state(const Transaction *xact)
{
    return xact->state;
}

void
tdb_xact_check_not_failed(const Transaction *xact)
{
    if (xact->state == XACT_STATE_FAILED)
        ereport(ERROR, errcode(ERRCODE_IN_FAILED_SQL_TRANSACTION),
                errmsg("current transaction is aborted, commands ignored "
                       "until end of transaction block"));
}

bool
tdb_xact_commit(Transaction *xact)
{
    if (xact->state == XACT_STATE_FAILED) {
        /* the abort itself happened in tdb_xact_fail */
        reset_transaction(xact);
        xact->state = XACT_STATE_IDLE;
        return false;
    }
    if (xact->state != XACT_STATE_IN_PROGRESS)
        elog(ERROR, "cannot commit: no transaction is in progress");

    TDB_TRY();
    {
        run_pre_commit_callbacks(xact);
    }
    TDB_CATCH();
    {
        abort_transaction(xact, false);
        xact->state = XACT_STATE_IDLE;
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    if (TransactionIdIsValid(xact->xid)) {
        TDB_TRY();
        {
            tdb_clog_set_status_durable(xact->tm->clog, xact->xid,
                                        TRANSACTION_STATUS_COMMITTED);
        }
        TDB_CATCH();
        {
            /* the page may have reached the file with COMMITTED in it */
            abort_transaction(xact, true);
            xact->state = XACT_STATE_IDLE;
            TDB_RE_THROW();
        }
        TDB_END_TRY();
    }
    run_callbacks_noerror(xact, XACT_EVENT_COMMIT);
    if (TransactionIdIsValid(xact->xid))
        writer_release(xact);
    tdb_lmgr_release_all(xact);
    reset_transaction(xact);
    xact->state = XACT_STATE_IDLE;
    return true;
}

void
tdb_xact_abort(Transaction *xact)
{
    if (xact->state == XACT_STATE_IDLE)
        return;
    abort_transaction(xact, false);
    xact->state = XACT_STATE_IDLE;
}

void
tdb_xact_fail(Transaction *xact)
{
    if (xact->state != XACT_STATE_IN_PROGRESS)
        return;
    abort_transaction(xact, false);
    xact->state = XACT_STATE_FAILED;
}

CommandId
tdb_xact_current_command_id(Transaction *xact, bool used)
{
    if (used) {
        Assert(xact->state == XACT_STATE_IN_PROGRESS);
        xact->cid_used = true;
    }
    return xact->cid;
}

void
tdb_xact_command_counter_increment(Transaction *xact)
{
    if (!xact->cid_used)
        return;
    if (xact->cid >= InvalidCommandId - 1)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("cannot have more than 2^32-2 commands in a "
                       "transaction"));
    xact->cid++;
    xact->cid_used = false;
}

MemoryContext
tdb_xact_context(Transaction *xact)
{
    return xact->xact_cxt;
}

MemoryContext
tdb_xact_session_context(Transaction *xact)
{
    return xact->cxt;
}

void **
tdb_xact_catalog_slot(Transaction *xact)
{
    return &xact->catalog_slot;
}
