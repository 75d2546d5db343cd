/*
 * snapshot.c -- taking and copying MVCC snapshots (snapshot.h).
 *
 * A snapshot is one chunk: the SnapshotData followed by room for
 * XACT_MAX_RUNNING xids, allocated before the manager's mutex is taken
 * (allocation may raise, and nothing may raise under the mutex).  Under
 * the mutex the running set and next_xid are copied -- a few loads -- so
 * taking a snapshot never waits for a writer's I/O.
 */
#include "common/base.h"

#include <pthread.h>

#include "access/access_int.h"
#include "access/snapshot.h"

Snapshot
tdb_snapshot_take(TransactionManager *tm, Transaction *xact, MemoryContext cxt)
{
    Snapshot snap;
    TransactionId own_xid = InvalidTransactionId;

    if (xact != NULL) {
        tdb_xact_check_not_failed(xact);
        own_xid = xact->xid;
    }
    snap = tdb_mcxt_alloc(cxt, sizeof(SnapshotData) +
                                   XACT_MAX_RUNNING * sizeof(TransactionId));
    snap->xip = (TransactionId *)(snap + 1);
    snap->xcnt = 0;

    pthread_mutex_lock(&tm->lock);
    snap->xmax = tm->next_xid;
    snap->xmin = snap->xmax;
    for (uint32 i = 0; i < tm->nrunning; i++) {
        TransactionId xid = tm->running[i];

        if (TransactionIdPrecedes(xid, snap->xmin))
            snap->xmin = xid;
        if (xid != own_xid)
            snap->xip[snap->xcnt++] = xid;
    }
    /* publish the oldest xmin this transaction's snapshots may need
     * (VACUUM's horizon), atomically with taking the snapshot: a VACUUM
     * computing its horizon either sees it, or ran before this snapshot
     * existed -- and then the snapshot's xmin cannot precede its horizon
     * (every id running now was running or unassigned then) */
    if (xact != NULL &&
        (!TransactionIdIsValid(xact->snapshot_xmin) ||
         TransactionIdPrecedes(snap->xmin, xact->snapshot_xmin)))
        xact->snapshot_xmin = snap->xmin;
    pthread_mutex_unlock(&tm->lock);

    snap->xact = xact;
    snap->tm = tm;
    snap->curxid = own_xid;
    snap->curcid = xact != NULL ? xact->cid : FirstCommandId;
    return snap;
}

Snapshot
tdb_snapshot_copy(const SnapshotData *snap, MemoryContext cxt)
{
    Snapshot copy = tdb_mcxt_alloc(
        cxt, sizeof(SnapshotData) + (Size)snap->xcnt * sizeof(TransactionId));

    *copy = *snap;
    copy->xip = (TransactionId *)(copy + 1);
    memcpy(copy->xip, snap->xip, (Size)snap->xcnt * sizeof(TransactionId));
    return copy;
}
