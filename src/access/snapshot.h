/*
 * snapshot.h -- MVCC snapshots: which transactions' effects a scan sees.
 *
 * A snapshot is PostgreSQL's MVCC snapshot: taken under the transaction
 * manager's mutex, it records
 *
 *   xmax   the next xid to be assigned: ids >= xmax had not started, so
 *          their effects are invisible;
 *   xip    the ids running at that instant (except the taker's own): also
 *          invisible, even after they commit;
 *   xmin   the oldest running id (own included), or xmax: every id below
 *          it had finished, and its effects are visible iff it committed;
 *
 * and the taking transaction, whose own changes are visible when made by
 * a command before curcid.  XidInMVCCSnapshot(snap, xid) answers "did xid
 * count as running for this snapshot?".
 *
 * Isolation levels are the caller's choice of lifetime: READ COMMITTED
 * takes a new snapshot per statement; REPEATABLE READ takes one at the
 * first statement, copies it, and before each later statement sets the
 * copy's curcid to tdb_xact_current_command_id(xact, false) (PostgreSQL
 * does the same to its transaction snapshot).
 *
 * A snapshot is valid while its transaction is; one taken with xact NULL
 * belongs to no transaction and sees no "own" changes.
 *
 * VACUUM removes row versions no snapshot can see, so it must know the
 * oldest snapshot in use: tdb_snapshot_take publishes, under the
 * manager's mutex, the xmin of the oldest snapshot the transaction took
 * (Transaction.snapshot_xmin), and the end of the transaction clears it
 * (tdb_xact_manager_oldest_xmin reads them all).  So a snapshot must not
 * be used after its transaction ends (cursors and portals do not outlive
 * their transaction).  A READ COMMITTED transaction keeps the xmin of its
 * first statement's snapshot until it ends: conservative (VACUUM removes
 * a little less), never wrong; so is a snapshot taken while the session
 * is IDLE, published until its next transaction ends.  A snapshot taken
 * with xact NULL is published nowhere and protects nothing: tests only.
 */
#ifndef TDB_ACCESS_SNAPSHOT_H
#define TDB_ACCESS_SNAPSHOT_H

#include "common/base.h"
#include "access/transam.h"
#include "access/xact.h"
#include "mmgr/mcxt.h"

/*
 * The body is public because the visibility test reads it per tuple and
 * callers adjust curcid; treat the rest as read-only.
 */
typedef struct SnapshotData {
    TransactionId xmin;   /* ids < xmin: finished when taken */
    TransactionId xmax;   /* ids >= xmax: not yet started when taken */
    uint32 xcnt;          /* entries in xip */
    TransactionId *xip;   /* running when taken, taker excluded (unsorted) */
    Transaction *xact;    /* the taking session's transaction, or NULL;
                           * borrowed, owned by the session */
    TransactionManager *tm; /* whose ids these are (its commit log
                             * answers for the ids the snapshot does not
                             * decide); borrowed */
    TransactionId curxid; /* xact's xid when taken (Invalid: none yet).
                           * Informational: own-change checks ask xact,
                           * which knows an xid assigned later */
    CommandId curcid;     /* xact's commands < curcid are visible */
} SnapshotData;

typedef SnapshotData *Snapshot;

/*
 * Take a snapshot for xact (NULL: no transaction), allocated in cxt as
 * one chunk (free it with tdb_pfree or by resetting cxt).  curcid is
 * xact's current command id.  Raises 25P02 if xact is FAILED.  Never
 * waits for the writer lock.
 */
Snapshot tdb_snapshot_take(TransactionManager *tm, Transaction *xact,
                           MemoryContext cxt);

/* A copy of snap in cxt (one chunk). */
Snapshot tdb_snapshot_copy(const SnapshotData *snap, MemoryContext cxt);

/*
 * Was xid running as far as snap is concerned (PostgreSQL's
 * XidInMVCCSnapshot)?  True for ids >= xmax and ids in xip; false below
 * xmin.  The caller handles its own transaction's ids first.
 */
static inline bool
XidInMVCCSnapshot(const SnapshotData *snap, TransactionId xid)
{
    if (TransactionIdPrecedes(xid, snap->xmin))
        return false;
    if (TransactionIdFollowsOrEquals(xid, snap->xmax))
        return true;
    for (uint32 i = 0; i < snap->xcnt; i++)
        if (snap->xip[i] == xid)
            return true;
    return false;
}

#endif /* TDB_ACCESS_SNAPSHOT_H */
