/*
 * heapam_visibility.h -- PostgreSQL's tuple visibility rules for heap
 * tuples: is this row version visible to a snapshot, may it be updated.
 *
 * Both functions read the tuple's xmin, xmax, t_cid and t_infomask, decide
 * from the hint bits when they can and from the snapshot, the running set
 * and the commit log when they must, and -- as PostgreSQL does -- set hint
 * bits in t_infomask once a transaction is known to have committed
 * (XMIN_COMMITTED, XMAX_COMMITTED) or to be dead (XMIN_INVALID,
 * XMAX_INVALID), so that later checks skip the commit log.  A commit is
 * durable before its xid leaves the running set (xact.h), so a COMMITTED
 * hint can always be set at once (PostgreSQL must sometimes wait for its
 * WAL flush).
 *
 * The caller holds a pin and at least a share lock on the tuple's buffer
 * (setting hint bits is allowed under a share lock).  When a call sets a
 * hint bit it stores true in *set_hint_bits_out (and leaves it alone
 * otherwise, so a page scan can pass one flag for all its tuples); the
 * caller then marks the buffer dirty as a hint (PostgreSQL's
 * MarkBufferDirtyHint: written back, but a lost hint is harmless).
 *
 * Not supported: HEAP_XMAX_IS_MULTI xmax that updates (tupledb has no
 * MultiXacts; a multi that only locks is ignored like any lock), and the
 * pre-9.0 HEAP_MOVED_OFF/IN bits.  Both raise ERRCODE_DATA_CORRUPTED
 * because tupledb never writes them.
 */
#ifndef TDB_ACCESS_HEAPAM_VISIBILITY_H
#define TDB_ACCESS_HEAPAM_VISIBILITY_H

#include "common/base.h"
#include "access/snapshot.h"
#include "access/xact.h"
#include "tuple/heaptuple.h"

/* What tdb_heap_tuple_satisfies_update found (PostgreSQL's TM_Result). */
typedef enum TM_Result {
    TM_OK,             /* visible and not being changed: may be updated */
    TM_INVISIBLE,      /* did not exist for the command (inserted later or
                        * by an aborted / still running transaction) */
    TM_SELF_MODIFIED,  /* already updated or deleted by this transaction,
                        * by this or a later command */
    TM_UPDATED,        /* updated by a committed transaction: t_ctid points
                        * to the newer version */
    TM_DELETED,        /* deleted by a committed transaction */
    TM_BEING_MODIFIED, /* updated, deleted or locked by a transaction still
                        * running */
} TM_Result;

/*
 * Is tup visible to snap (PostgreSQL's HeapTupleSatisfiesMVCC)?
 *
 *   inserted:  xmin is snap's transaction and cmin < curcid, or xmin
 *              committed and was not running for snap (frozen tuples
 *              always count as inserted);
 *   deleted:   xmax is set, does not only lock, and is snap's
 *              transaction with cmax < curcid, or committed and was not
 *              running for snap;
 *   visible =  inserted and not deleted.
 *
 * tm supplies the commit log.  Raises the commit log's I/O errors and
 * ERRCODE_DATA_CORRUPTED for unsupported bits (see above).
 */
bool tdb_heap_tuple_satisfies_mvcc(HeapTupleHeader tup, Snapshot snap,
                                   TransactionManager *tm,
                                   bool *set_hint_bits_out);

/*
 * May xact update or delete htup now, as its command curcid (PostgreSQL's
 * HeapTupleSatisfiesUpdate: an "instant" snapshot: running transactions
 * are asked about, not a snapshot)?  htup->t_self must be the tuple's TID:
 * a committed deleter is reported as TM_UPDATED when t_ctid points
 * elsewhere, TM_DELETED when it points to the tuple itself.
 *
 * What the caller does with the result, as PostgreSQL's heap_update and
 * heap_delete do: TM_OK -- go ahead; TM_INVISIBLE -- "attempted to update
 * invisible tuple"; TM_SELF_MODIFIED -- skip the row (changed by this
 * statement) or raise if a later command changed it; TM_UPDATED /
 * TM_DELETED -- in REPEATABLE READ raise 40001 "could not serialize
 * access due to concurrent update" (or "delete"), in READ COMMITTED
 * follow t_ctid to the newest version and re-check it; TM_BEING_MODIFIED
 * -- wait for that transaction.  With one writer at a time, a caller that
 * holds its xid (hence the writer lock) before checking never sees
 * TM_BEING_MODIFIED for an update or delete, only for a row lock.
 */
TM_Result tdb_heap_tuple_satisfies_update(HeapTuple htup, CommandId curcid,
                                          Transaction *xact,
                                          TransactionManager *tm,
                                          bool *set_hint_bits_out);

/*
 * Does tup stop a unique index from taking an equal key (PostgreSQL's
 * HeapTupleSatisfiesDirty as _bt_check_unique uses it)?  True for a row
 * inserted by a committed transaction or by xact itself (any command)
 * and not deleted by a committed transaction or by xact; false for a row
 * whose inserter aborted, or that is deleted.  A row inserted or deleted
 * by another running transaction is reported as a conflict: with one
 * writer at a time (access/README.md invariant 1) there is none; the
 * concurrent writers of a later issue must wait for that transaction
 * there instead and check again.
 */
bool tdb_heap_tuple_satisfies_dirty(HeapTupleHeader tup, Transaction *xact,
                                    TransactionManager *tm,
                                    bool *set_hint_bits_out);

/* What tdb_heap_tuple_satisfies_vacuum found (PostgreSQL's HTSV_Result). */
typedef enum HTSV_Result {
    HEAPTUPLE_DEAD,             /* invisible to every snapshot, present or
                                 * future: its space may be reclaimed */
    HEAPTUPLE_LIVE,             /* inserted by a committed transaction, not
                                 * deleted (or the delete aborted) */
    HEAPTUPLE_RECENTLY_DEAD,    /* deleted by a committed transaction some
                                 * snapshot may still treat as running */
    HEAPTUPLE_INSERT_IN_PROGRESS, /* the inserter is still running */
    HEAPTUPLE_DELETE_IN_PROGRESS, /* the deleter is still running */
} HTSV_Result;

/*
 * May tup's space be reclaimed (PostgreSQL's HeapTupleSatisfiesVacuum)?
 * oldest_xmin is the horizon (tdb_xact_manager_oldest_xmin): a delete
 * by a committed xid preceding it is seen by every snapshot.  DEAD:
 * inserted by an aborted or crashed transaction, or deleted (not only
 * locked) by a committed one whose xid precedes oldest_xmin.  "Running"
 * is asked of the manager's running set before the commit log (a commit
 * is logged before it leaves the running set).  Sets hint bits as the
 * other tests do.  Raises what tdb_heap_tuple_satisfies_mvcc raises.
 */
HTSV_Result tdb_heap_tuple_satisfies_vacuum(HeapTupleHeader tup,
                                            TransactionId oldest_xmin,
                                            TransactionManager *tm,
                                            bool *set_hint_bits_out);

#endif /* TDB_ACCESS_HEAPAM_VISIBILITY_H */
