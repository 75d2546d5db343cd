/*
 * lmgr.h -- relation locks: PostgreSQL's AccessShareLock and
 * AccessExclusiveLock, held until the end of the transaction.
 *
 * Rows need no locks (MVCC and the database-wide writer lock take care
 * of them), but a relation's *file* does: a reader scanning a table must
 * not have the file removed under it by a DROP or TRUNCATE that commits
 * meanwhile, and DDL must not change a table another session is using.
 * So every statement takes REL_LOCK_SHARE on each relation it uses, and
 * DROP / TRUNCATE / ALTER take REL_LOCK_EXCLUSIVE, which waits for every
 * other holder to end its transaction.  Only the writer-lock holder (a
 * transaction with an xid) may ask for REL_LOCK_EXCLUSIVE.
 *
 * Queueing: a share request waits while another session holds the
 * relation exclusively or waits for an exclusive lock on it (so a DROP
 * is not starved by a stream of readers), unless the requester holds a
 * lock on the relation already.
 *
 * Deadlocks: every wait in tupledb is a wait for the writer (readers
 * wait for the writer's exclusive relation locks, would-be writers for
 * the writer lock) or the writer's wait for readers.  So a cycle always
 * has length two -- the writer and one session -- and is found exactly
 * when the second of the two starts waiting: it then raises 40P01
 * "deadlock detected" (PostgreSQL's deadlock detector, without the
 * deadlock_timeout delay).
 *
 * Waits are bounded by the session's lock timeout
 * (tdb_xact_set_lock_timeout): 55P03 "canceling statement due to lock
 * timeout".  The table has LOCK_TABLE_SIZE entries in all; beyond that,
 * 53200 "out of shared memory".
 */
#ifndef TDB_ACCESS_LMGR_H
#define TDB_ACCESS_LMGR_H

#include "common/base.h"
#include "access/xact.h"

typedef enum RelLockMode {
    REL_LOCK_SHARE = 1,     /* AccessShareLock: read or write rows,
                             * VACUUM (access/vacuum.h) */
    REL_LOCK_EXCLUSIVE = 2, /* AccessExclusiveLock: DROP, TRUNCATE, ALTER */
} RelLockMode;

/*
 * Lock relation relid in mode for the rest of xact's transaction
 * (IN_PROGRESS), waiting for conflicting holders.  A lock already held
 * in the same or a stronger mode returns at once; a share lock is
 * upgraded in place.  Errors (nothing is then taken): 40P01, 55P03,
 * 53200, and an internal error for an exclusive request without an xid.
 */
void tdb_lock_relation(Transaction *xact, Oid relid, RelLockMode mode);

/* The strongest mode xact holds on relid, or 0. */
int tdb_lock_relation_held(Transaction *xact, Oid relid);

#endif /* TDB_ACCESS_LMGR_H */
