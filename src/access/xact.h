/*
 * xact.h -- the transaction manager of a data directory, and the
 * per-session transaction state.
 *
 * One TransactionManager per open data directory holds what sessions
 * share:
 *   - the next transaction id, handed out from memory and reserved in
 *     the control file in ranges of XACT_XID_RESERVE: before the first id
 *     of a range is handed out, the end of the range is made durable
 *     (tdb_datadir_set_next_xid), so after a crash the next open starts
 *     past every id that may have been used.  A clean close stores the
 *     exact next id, so nothing is skipped then;
 *   - the set of running transaction ids, which snapshots copy;
 *   - the database-wide writer lock: one writing transaction at a time
 *     (DESIGN.md).  A transaction takes it with its first write
 *     (tdb_xact_assign_xid) and keeps it until commit or abort.  A second
 *     writer waits -- for ever, or up to its lock timeout, then fails with
 *     55P03 "canceling statement due to lock timeout".  Readers never take
 *     it: a snapshot needs only a short mutex;
 *   - the commit log (clog.h).
 *
 * One Transaction per session (connection) holds that session's state
 * across its successive transactions:
 *
 *        tdb_xact_begin                 first write: tdb_xact_assign_xid
 *   IDLE ---------------> IN_PROGRESS ----------------------------------+
 *    ^  <----------------   |     |     (writer lock, xid, clog entry)  |
 *    |   tdb_xact_commit    |     |                                     |
 *    |   tdb_xact_abort     |     | tdb_xact_fail (error in a block)    |
 *    |                      |     v                                     |
 *    +--------------------------- FAILED: only ROLLBACK (abort) or      |
 *         tdb_xact_abort /          COMMIT (commit returns false) are   |
 *         tdb_xact_commit           accepted; assign_xid and snapshots  |
 *                                   raise 25P02                         |
 *
 * Commit of a transaction with an xid: its COMMITTED status is written to
 * the commit log and fsynced (until the WAL exists), then the xid leaves
 * the running set and the writer lock is released.  A transaction without
 * an xid (read-only) commits and aborts without any I/O.  If the commit
 * log write fails, commit aborts the transaction (ABORTED is written
 * through, the lock released, the session IDLE) and re-raises: a commit
 * that raised never committed.
 *
 * Statement-level atomicity: rows carry the xid that wrote them, and they
 * become invisible to everybody the moment that xid is recorded aborted
 * -- or simply stops running without a COMMITTED status.  So when a
 * statement fails, error recovery at the statement boundary calls
 *   - tdb_xact_abort for an implicit single-statement transaction: the
 *     transaction's rows, the failed statement's included, are dead;
 *   - tdb_xact_fail inside an explicit transaction block (BEGIN ...): the
 *     whole transaction is aborted at once (clog ABORTED, writer lock
 *     released so other writers proceed), and the session waits in
 *     FAILED for ROLLBACK, as PostgreSQL does without savepoints.
 * No undo is needed and no half of a statement can ever commit.  A cheap
 * way to undo only the failed statement (subtransactions) is future work.
 *
 * Command ids order the commands of one transaction, for statement-level
 * visibility of the transaction's own changes: a tuple the transaction
 * inserted with command id c is visible to its snapshots whose curcid is
 * greater than c.  tdb_xact_current_command_id(x, true) marks the current
 * id used (the command wrote something); tdb_xact_command_counter_increment
 * then moves to the next one (and does nothing if the id was not used).
 *
 * Threads: a TransactionManager is shared; its fields are under a mutex
 * inside it (access_int.h says which).  A Transaction belongs to its
 * session's thread.  Lifetimes: Transactions must be destroyed (or their
 * contexts deleted) before their manager is closed; destroying a
 * Transaction aborts what it has in progress.  Both register context
 * reset callbacks, so deleting a context never leaves the writer lock
 * held or a mutex undestroyed.
 */
#ifndef TDB_ACCESS_XACT_H
#define TDB_ACCESS_XACT_H

#include "common/base.h"

#include <stdatomic.h>
#include "access/clog.h"
#include "access/transam.h"
#include "mmgr/mcxt.h"
#include "storage/datadir.h"

typedef struct TransactionManager TransactionManager;
typedef struct Transaction Transaction;

/* A session's transaction state (see the diagram above). */
typedef enum XactState {
    XACT_STATE_IDLE,        /* no transaction */
    XACT_STATE_IN_PROGRESS, /* between begin and commit/abort */
    XACT_STATE_FAILED,      /* aborted by an error, waiting for ROLLBACK */
} XactState;

/* Ids handed out per durable update of the control file. */
#define XACT_XID_RESERVE 1024

/*
 * Ids the manager keeps unassigned before the wraparound limit, as
 * PostgreSQL's xidStopLimit does.  Until old ids can be frozen, the limit
 * is 2^31 ids after FirstNormalTransactionId: a data directory can hand
 * out about 2.14 billion ids in its lifetime.
 */
#define XACT_STOP_LIMIT_MARGIN 3000000

/* ----- the manager ----- */

/*
 * Open the transaction manager of dd: read the next xid from the control
 * file, open the commit log (creating pg_xact if needed).  Everything
 * lives in a new child context of parent (NULL: the current context); dd
 * must stay open until the manager is closed.  One manager per DataDir.
 */
TransactionManager *tdb_xact_manager_open(DataDir *dd, MemoryContext parent);

/*
 * Close the manager: write back and fsync the commit log, store the exact
 * next xid in the control file, free everything.  Raises if a transaction
 * still holds an xid (ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE) or on I/O
 * errors; the manager then stays open.  Deleting the parent context
 * instead abandons it as a crash would.
 */
void tdb_xact_manager_close(TransactionManager *tm);

/* The manager's commit log (borrowed; lives as long as tm). */
Clog *tdb_xact_manager_clog(TransactionManager *tm);

/* The id the next writing transaction will get. */
TransactionId tdb_xact_manager_next_xid(TransactionManager *tm);

/* The first id that will not be handed out (the wraparound stop limit). */
TransactionId tdb_xact_manager_stop_xid(TransactionManager *tm);

/*
 * Is xid running right now (PostgreSQL's TransactionIdIsInProgress)?
 * Takes the manager's mutex briefly.
 */
bool tdb_xact_xid_is_in_progress(TransactionManager *tm, TransactionId xid);

/*
 * VACUUM's horizon (PostgreSQL's GetOldestNonRemovableTransactionId):
 * the oldest xid some snapshot still in use may treat as running, i.e.
 * the minimum of the xmins the sessions' transactions publish (the
 * oldest snapshot each took since it began; tdb_snapshot_take sets it,
 * the end of the transaction clears it), the oldest running xid, and the
 * next xid.  A row version deleted by a transaction that committed with
 * an xid preceding it is invisible to every snapshot that exists or will
 * be taken: any later snapshot's xmin is at least the horizon, so it
 * sees the delete as committed.  Takes the manager's mutex briefly.
 */
TransactionId tdb_xact_manager_oldest_xmin(TransactionManager *tm);

/* Did xid commit, per the commit log (tdb_transam_did_commit)?  Ask
 * tdb_xact_xid_is_in_progress or a snapshot first. */
bool tdb_xact_xid_did_commit(TransactionManager *tm, TransactionId xid);

/* ----- a session's transactions ----- */

/*
 * A session's transaction state, IDLE, in a new child context of parent
 * (NULL: the current context), with a "TransactionContext" below it that
 * is reset whenever a transaction ends.
 */
Transaction *tdb_xact_create(TransactionManager *tm, MemoryContext parent);

/* The data directory a manager belongs to (borrowed). */
DataDir *tdb_xact_manager_datadir(TransactionManager *tm);

/* The manager a session's transactions belong to. */
TransactionManager *tdb_xact_manager_of(const Transaction *xact);

/* Abort whatever is in progress (as tdb_xact_abort does, ABORT callbacks
 * included) and free the state. */
void tdb_xact_destroy(Transaction *xact);

/* How long tdb_xact_assign_xid waits for the writer lock, in ms (0, the
 * default: for ever). */
void tdb_xact_set_lock_timeout(Transaction *xact, int timeout_ms);
/*
 * The values of a session's cancel flag: why the running statement must
 * stop.  A cancel request (the shell's Ctrl-C, the server's
 * CancelRequest) stores XACT_CANCEL_USER; the statement_timeout timer
 * (tcop/stmt_timeout.c) stores XACT_CANCEL_STATEMENT_TIMEOUT.
 */
#define XACT_CANCEL_NONE 0
#define XACT_CANCEL_USER 1
#define XACT_CANCEL_STATEMENT_TIMEOUT 2

/*
 * The session's cancel request flag (NULL: none): while waiting for the
 * writer lock or a relation lock, a set flag ends the wait with 57014,
 * "canceling statement due to user request" or "... due to statement
 * timeout" by the flag's value (and clears the flag).
 */
void tdb_xact_set_cancel_flag(Transaction *xact, atomic_int *flag);

/*
 * Raise 57014 for a cancel flag's value why (XACT_CANCEL_USER or
 * XACT_CANCEL_STATEMENT_TIMEOUT): PostgreSQL's "canceling statement due
 * to user request" / "canceling statement due to statement timeout".
 */
TDB_NORETURN void tdb_xact_raise_cancel_reason(int why);

/*
 * Raise 57014 if the cancel flag *flag asks the running statement to
 * stop, clearing it (the executor's per-row check, through the EState's
 * check_interrupts hook).  One relaxed load when nothing is asked.
 */
static inline void
tdb_xact_check_cancel(atomic_int *flag)
{
    if (unlikely(atomic_load_explicit(flag, memory_order_relaxed))) {
        int why = atomic_exchange(flag, XACT_CANCEL_NONE);

        if (why != XACT_CANCEL_NONE)
            tdb_xact_raise_cancel_reason(why);
    }
}

/* Start a transaction: IDLE -> IN_PROGRESS.  Raises 25P02 when FAILED,
 * elog ERROR when IN_PROGRESS. */
void tdb_xact_begin(Transaction *xact);

/*
 * The transaction's xid, assigning one at its first write: wait for the
 * writer lock (55P03 on timeout), reserve ids in the control file if the
 * range is used up, prepare the commit log, then publish the id as
 * running.  Raises 25P02 in a FAILED transaction, 54000 at the wraparound
 * stop limit, and I/O errors; after any error no lock is held and no id
 * was assigned.  Later calls return the same id.
 */
TransactionId tdb_xact_assign_xid(Transaction *xact);

/* The current xid, or InvalidTransactionId if none was assigned. */
TransactionId tdb_xact_current_xid(const Transaction *xact);

/* Is xid this transaction's own (TransactionIdIsCurrentTransactionId)? */
bool tdb_xact_is_current_xid(const Transaction *xact, TransactionId xid);

XactState tdb_xact_state(const Transaction *xact);

/*
 * Raise 25P02 "current transaction is aborted, commands ignored until end
 * of transaction block" if the transaction is FAILED.  The statement layer
 * calls this before running anything but ROLLBACK/COMMIT.
 */
void tdb_xact_check_not_failed(const Transaction *xact);

/*
 * Commit.  IN_PROGRESS: make COMMITTED durable (if an xid was assigned),
 * release the xid and the writer lock; returns true.  FAILED: end the
 * transaction as a rollback and return false (PostgreSQL answers COMMIT
 * in an aborted block with ROLLBACK).  On an I/O error the transaction is
 * aborted and IDLE, and the error is raised.  elog ERROR when IDLE.
 */
bool tdb_xact_commit(Transaction *xact);

/*
 * Roll back and end the transaction (ROLLBACK, or error recovery of an
 * implicit transaction): record ABORTED (cached; failing that, a WARNING
 * -- an id that is no longer running without a COMMITTED status is
 * aborted anyway), release the xid and the writer lock, reset the
 * TransactionContext.  Never raises; a no-op when IDLE.  Called inside a
 * TDB_CATCH block, it leaves the error being handled current, even if an
 * ABORT callback raised (tdb_xact_fail too).
 */
void tdb_xact_abort(Transaction *xact);

/*
 * Error recovery inside a transaction block: do everything
 * tdb_xact_abort does, but leave the session FAILED until ROLLBACK.
 * Never raises; a no-op when IDLE or already FAILED.
 */
void tdb_xact_fail(Transaction *xact);

/*
 * The current command id.  used: the caller is about to write with it
 * (insert, delete, update), so the next command counter increment must
 * advance.
 */
CommandId tdb_xact_current_command_id(Transaction *xact, bool used);

/*
 * End of a command: if its id was used, advance to the next, so the
 * command's changes become visible to later commands' snapshots.  Raises
 * 54000 "cannot have more than 2^32-2 commands in a transaction".
 */
void tdb_xact_command_counter_increment(Transaction *xact);

/* Memory for the current transaction; reset when it ends. */
MemoryContext tdb_xact_context(Transaction *xact);

/*
 * Memory that lasts as long as xact itself (the session's Transaction,
 * across its transactions): freed by tdb_xact_destroy or with the
 * context xact was created in.
 */
MemoryContext tdb_xact_session_context(Transaction *xact);

/*
 * The catalog layer's slot in xact (its cache of relation definitions,
 * catalog.c): NULL when xact is created, then the catalog's own; what
 * it points to lives in tdb_xact_session_context.
 */
void **tdb_xact_catalog_slot(Transaction *xact);

/*
 * End-of-transaction work of the layers above (PostgreSQL's
 * RegisterXactCallback, but per transaction: a registration lasts until
 * the transaction ends).  Events, in the order they happen:
 *   XACT_EVENT_PRE_COMMIT  before COMMITTED is written: may raise, which
 *                          aborts the transaction (flush the pages the
 *                          transaction wrote, until the WAL exists);
 *   XACT_EVENT_COMMIT      after COMMITTED is durable, while the writer
 *                          lock and relation locks are still held
 *                          (remove the files of dropped relations);
 *   XACT_EVENT_ABORT       on abort, failure, a failed commit or
 *                          tdb_xact_destroy, before the locks are released
 *                          (remove the files of relations the transaction
 *                          created).
 * COMMIT and ABORT callbacks must not raise; if one does, the error is
 * reported as a WARNING and the rest still run.  Callbacks run in the
 * order they were registered.  Deleting the session's context (a crash)
 * runs none.
 */
typedef enum XactEvent {
    XACT_EVENT_PRE_COMMIT,
    XACT_EVENT_COMMIT,
    XACT_EVENT_ABORT,
} XactEvent;

typedef void (*XactCallback)(XactEvent event, void *arg);

/* Register for the current (IN_PROGRESS) transaction. */
void tdb_xact_register_callback(Transaction *xact, XactCallback callback,
                                void *arg);

/*
 * Record that the current transaction changed pages of relation file
 * rel.  Returns true the first time per transaction (the caller then
 * registers what must happen at commit, e.g. flushing the pages).
 */
bool tdb_xact_note_relation_written(Transaction *xact, RelFileNumber rel);

#endif /* TDB_ACCESS_XACT_H */
