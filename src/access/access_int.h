/*
 * access_int.h -- structs shared by the access layer's .c files (and its
 * unit tests): the transaction manager and the session transaction.
 * Other layers use xact.h's functions instead.
 */
#ifndef TDB_ACCESS_ACCESS_INT_H
#define TDB_ACCESS_ACCESS_INT_H

#include "common/base.h"

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

/* One session's transaction state; used only by the session's thread. */
struct Transaction {
    TransactionManager *tm;
    MemoryContext cxt;      /* holds this struct */
    MemoryContext xact_cxt; /* "TransactionContext": reset at the end of
                             * every transaction */
    XactState state;
    TransactionId xid;   /* InvalidTransactionId until assigned */
    CommandId cid;       /* current command id */
    bool cid_used;       /* cid was used for a write */
    int lock_timeout_ms; /* writer lock wait limit, 0 = none */

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

#endif /* TDB_ACCESS_ACCESS_INT_H */
