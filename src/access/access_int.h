/*
 * access_int.h -- structs shared by the access layer's .c files (and its
 * unit tests): the transaction manager and the session transaction.
 * Other layers use xact.h's functions instead.
 */
#ifndef TDB_ACCESS_ACCESS_INT_H
#define TDB_ACCESS_ACCESS_INT_H

#include "common/base.h"

#include <stdatomic.h>

#include <pthread.h>

#include "access/clog.h"
#include "access/xact.h"

/*
 * Running xids the manager can track.  The writer lock admits one writing
 * transaction at a time and every xid belongs to a writer, so one is
 * enough; the running set and snapshots' xip arrays keep PostgreSQL's
 * shape so that nothing above depends on it.
 */
#define XACT_MAX_RUNNING 1

/*
 * Relation locks all sessions may hold at once (lmgr.c): a fixed table,
 * allocated with the manager, so taking a lock never allocates under the
 * manager's mutex.  PostgreSQL's equivalent is max_locks_per_transaction
 * x max_connections (64 x 100).
 */
#define LOCK_TABLE_SIZE 8192

/* One granted relation lock (lmgr.c); owner NULL = free entry. */
typedef struct RelLockEntry {
    Transaction *owner;
    Oid relid;
    uint8 mode;   /* RelLockMode */
    bool granted; /* false: an exclusive request still waiting (queued,
                   * so that new share requests line up behind it) */
} RelLockEntry;

struct TransactionManager {
    MemoryContext cxt;      /* this manager's context (holds it all) */
    DataDir *dd;            /* borrowed */
    Clog *clog;             /* in cxt */
    TransactionId stop_xid; /* constant: ids from here on are refused */

    pthread_mutex_t lock;           /* protects the fields below */
    pthread_cond_t writer_released; /* broadcast when writer becomes NULL */
    TransactionId next_xid;         /* next id to hand out; changed only by
                                     * the writer-lock holder */
    Transaction *writer;            /* holder of the writer lock, or NULL */
    TransactionId writer_xid;       /* its xid once assigned, for messages */
    uint32 nwaiters;                /* sessions waiting for the lock */
    uint32 nrunning;                /* entries in running */
    TransactionId running[XACT_MAX_RUNNING];
    /* Every session's Transaction (tdb_xact_create adds it, its context's
     * release removes it), for the oldest snapshot xmin they publish
     * (Transaction.snapshot_xmin; tdb_xact_manager_oldest_xmin). */
    Transaction *sessions;

    /* Relation locks (lmgr.c), under the same mutex: entries [0,
     * locks_used) may be in use; the rest are free. */
    pthread_cond_t locks_released; /* broadcast when a session lets go */
    uint32 locks_used;
    RelLockEntry *locks; /* LOCK_TABLE_SIZE entries, in cxt */

    /* Only the writer-lock holder (or open/close) touches this: the
     * control file's next xid, i.e. the end of the reserved range. */
    TransactionId reserved_xid;

    MemoryContextCallback release_callback;
};

/* A (cmin, cmax) pair behind a combo command id (combocid.c). */
typedef struct ComboCid {
    CommandId cmin;
    CommandId cmax;
} ComboCid;

/* A registered end-of-transaction callback (xact.h). */
typedef struct XactCallbackItem {
    XactCallback callback;
    void *arg;
    struct XactCallbackItem *next;
} XactCallbackItem;

/* One session's transaction state; used only by the session's thread. */
struct Transaction {
    TransactionManager *tm;
    MemoryContext cxt;      /* holds this struct */
    MemoryContext xact_cxt; /* "TransactionContext": reset at the end of
                             * every transaction */
    void *catalog_slot;     /* the catalog layer's (xact.h
                             * tdb_xact_catalog_slot), in cxt */
    XactState state;
    TransactionId xid;   /* InvalidTransactionId until assigned */
    CommandId cid;       /* current command id */
    bool cid_used;       /* cid was used for a write */
    int lock_timeout_ms; /* writer / relation lock wait limit, 0 = none */
    atomic_int *cancel_flag; /* the session's cancel request, or NULL:
                              * lock waits give up when it is set */

    /* What this session waits for, under the manager's mutex, for the
     * deadlock check (lmgr.c): the writer lock, or a relation lock. */
    bool waits_for_writer;
    Oid waits_for_relid; /* InvalidOid: no relation lock wait */
    uint8 waits_for_mode; /* RelLockMode asked for waits_for_relid */
    uint32 nlocks;       /* relation locks held (entries in tm->locks) */

    /* Under the manager's mutex: the xmin of the oldest snapshot this
     * session took in its current transaction (InvalidTransactionId:
     * none).  Set by tdb_snapshot_take, cleared when the transaction ends
     * -- snapshots live at most that long -- and read by VACUUM's horizon
     * (tdb_xact_manager_oldest_xmin).  The list of sessions threads
     * through prev/next_session. */
    TransactionId snapshot_xmin;
    Transaction *prev_session;
    Transaction *next_session;
    bool in_session_list; /* false after the manager went away first */

    /* End-of-transaction callbacks, in xact_cxt (registration order). */
    XactCallbackItem *callbacks;
    /* relation files written by the transaction, in xact_cxt */
    RelFileNumber *written_rels;
    uint32 nwritten_rels;
    uint32 written_rels_size;
    XactCallbackItem **callbacks_tail;

    /* combo command ids, in xact_cxt (combocid.c) */
    ComboCid *combos; /* combo id -> pair */
    uint32 ncombos;
    uint32 combos_size;     /* allocated entries */
    uint32 *combo_hash;     /* open addressing: combo id + 1, 0 = empty */
    uint32 combo_hash_size; /* a power of two, or 0 */

    MemoryContextCallback release_callback;
};

/* TransactionIdIsCurrentTransactionId, inline for the visibility code. */
static inline bool
xact_is_current(const Transaction *xact, TransactionId xid)
{
    return xact != NULL && TransactionIdIsValid(xid) && xact->xid == xid;
}

/* Forget the combo ids (the TransactionContext is being reset). */
void tdb_combocid_reset(Transaction *xact);

/* deadline = now + ms on the monotonic clock (condvars of the manager
 * use CLOCK_MONOTONIC). */
struct timespec;
void tdb_xact_deadline_after(struct timespec *deadline, int ms);

/*
 * One wait on cond (mutex held) for a lock xact wants: until signalled,
 * until deadline (NULL: none; returns ETIMEDOUT when it passes), or until
 * the session asks to cancel (ECANCELED; the caller gives up the wait,
 * releases the mutex and calls tdb_xact_raise_canceled).  With a cancel
 * flag the wait is cut in LOCK_WAIT_SLICE_MS slices to look at it (10
 * ms, so that a statement_timeout of a few tens of milliseconds ends a
 * lock wait close to its time; a waiter waking 100 times a second costs
 * nothing measurable).
 */
#define LOCK_WAIT_SLICE_MS 10
int tdb_xact_lock_wait(Transaction *xact, pthread_cond_t *cond,
                       pthread_mutex_t *mutex, const struct timespec *deadline);
/* 57014 for the reason in the cancel flag (tdb_xact_raise_cancel_reason);
 * clears the flag. */
TDB_NORETURN void tdb_xact_raise_canceled(Transaction *xact);

/* lmgr.c: set up / tear down the lock table (manager open / release). */
void tdb_lmgr_init(TransactionManager *tm);
void tdb_lmgr_destroy(TransactionManager *tm);
/* Release every relation lock xact holds and wake waiters.  Never raises. */
void tdb_lmgr_release_all(Transaction *xact);
/*
 * The deadlock check (caller holds tm->lock): does session `blocker`
 * wait, right now, for something `waiter` holds -- the writer lock, or a
 * relation lock that conflicts with blocker's request?  If waiter is
 * about to wait for blocker, that closes a cycle.
 */
bool tdb_lmgr_waits_for(const TransactionManager *tm,
                        const Transaction *blocker,
                        const Transaction *waiter);
/* Raise 40P01 "deadlock detected" for waiter (no mutex held). */
TDB_NORETURN void tdb_lmgr_report_deadlock(const char *waiting_for);

#endif /* TDB_ACCESS_ACCESS_INT_H */
