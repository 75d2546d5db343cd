/*
 * heapam_visibility.c -- PostgreSQL's HeapTupleSatisfiesMVCC and
 * HeapTupleSatisfiesUpdate rules (heapam_visibility.h), over tupledb's
 * snapshots, transaction manager and commit log.
 *
 * Decision order for one xid, as in PostgreSQL: a hint bit answers at
 * once; else "is it ours?"; else "was it running?" -- the snapshot for
 * MVCC, the manager's running set for update checks -- and only then the
 * commit log.  Asking the log first would be wrong: a commit is recorded
 * there before its id leaves the running set, so the log may already say
 * COMMITTED for an id that a snapshot still treats as running.  An id
 * that is neither ours, nor running, nor COMMITTED aborted or was cut off
 * by a crash: both are "dead" (hinted INVALID).
 *
 * Hints are only set from that final verdict, never for an id the
 * snapshot considers running (even if it has finished since): the next
 * reader with a newer snapshot sets them.
 *
 * Own transaction: rows the transaction inserted are visible from the
 * command after the one that inserted them (cmin < curcid), rows it
 * deleted stop being visible from the command after the delete (cmax <
 * curcid).  t_cid holds cmin, cmax or a combo id (combocid.h).
 */
#include "common/base.h"

#include "access/access_int.h"
#include "access/combocid.h"
#include "access/heapam_visibility.h"
#include "access/htup_xact.h"
#include "access/transam.h"
#include "common/elog.h"

/* Set hint bits and tell the caller the buffer is dirty (as a hint). */
static inline void
set_hint(HeapTupleHeader tup, uint16 bits, bool *hint_dirty)
{
    HeapTupleHeaderSetHintBits(tup, bits);
    *hint_dirty = true;
}

/* The pre-9.0 VACUUM FULL bits: tupledb never writes them. */
static TDB_NORETURN void
report_moved(HeapTupleHeader tup)
{
    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("tuple with xmin %u has pre-9.0 VACUUM FULL flags, which "
                   "are not supported",
                   HeapTupleHeaderGetRawXmin(tup)));
}

/* An updating MultiXact xmax: tupledb has no MultiXacts. */
static TDB_NORETURN void
report_multi(HeapTupleHeader tup)
{
    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("tuple has MultiXactId %u as xmax, which is not supported",
                   HeapTupleHeaderGetRawXmax(tup)));
}

bool
tdb_heap_tuple_satisfies_mvcc(HeapTupleHeader tup, Snapshot snap,
                              TransactionManager *tm, bool *set_hint_bits_out)
{
    const Transaction *xact = snap->xact;
    uint16 infomask = HeapTupleHeaderGetInfomask(tup);
    TransactionId xmin = HeapTupleHeaderGetRawXmin(tup);
    TransactionId xmax;

    /* ----- the inserting transaction ----- */
    if (!HeapInfomaskXminCommitted(infomask)) {
        if (HeapInfomaskXminInvalid(infomask))
            return false;
        if (infomask & HEAP_MOVED)
            report_moved(tup);
        if (xact_is_current(xact, xmin)) {
            if (tdb_combocid_get_cmin(tup, xact) >= snap->curcid)
                return false; /* inserted by this or a later command */
            if (infomask & HEAP_XMAX_INVALID)
                return true;
            if (HeapInfomaskXmaxIsLockedOnly(infomask))
                return true;
            if (infomask & HEAP_XMAX_IS_MULTI)
                report_multi(tup);
            if (!xact_is_current(xact, HeapTupleHeaderGetRawXmax(tup))) {
                /* PostgreSQL: a deleting subtransaction that aborted.
                 * Only our own transaction can have deleted a row nobody
                 * else can see yet, so this xmax is dead. */
                set_hint(tup, HEAP_XMAX_INVALID, set_hint_bits_out);
                return true;
            }
            /* deleted by us: visible only to commands up to the delete */
            return tdb_combocid_get_cmax(tup, xact) >= snap->curcid;
        }
        if (XidInMVCCSnapshot(snap, xmin))
            return false; /* running when the snapshot was taken */
        if (!tdb_transam_did_commit(tm->clog, xmin)) {
            set_hint(tup, HEAP_XMIN_INVALID, set_hint_bits_out);
            return false; /* aborted or crashed */
        }
        set_hint(tup, HEAP_XMIN_COMMITTED, set_hint_bits_out);
    } else if (!HeapInfomaskXminFrozen(infomask) &&
               XidInMVCCSnapshot(snap, xmin))
        return false; /* committed, but after the snapshot was taken */

    /* ----- by here the insert is visible: the deleting transaction ----- */
    if (infomask & HEAP_XMAX_INVALID)
        return true;
    if (HeapInfomaskXmaxIsLockedOnly(infomask))
        return true; /* only locked */
    if (infomask & HEAP_XMAX_IS_MULTI)
        report_multi(tup);

    xmax = HeapTupleHeaderGetRawXmax(tup);
    if (!(infomask & HEAP_XMAX_COMMITTED)) {
        if (xact_is_current(xact, xmax))
            return tdb_combocid_get_cmax(tup, xact) >= snap->curcid;
        if (XidInMVCCSnapshot(snap, xmax))
            return true; /* deleter was running for the snapshot */
        if (!tdb_transam_did_commit(tm->clog, xmax)) {
            set_hint(tup, HEAP_XMAX_INVALID, set_hint_bits_out);
            return true; /* deleter aborted or crashed */
        }
        set_hint(tup, HEAP_XMAX_COMMITTED, set_hint_bits_out);
    } else if (XidInMVCCSnapshot(snap, xmax))
        return true; /* deleter committed after the snapshot was taken */

    return false; /* deleted by a transaction the snapshot sees committed */
}

/* Does the tuple's t_ctid point to the tuple itself? */
static bool
ctid_is_self(const HeapTupleData *htup)
{
    const ItemPointerData *a = &htup->t_self;
    const ItemPointerData *b = &htup->t_data->t_ctid;

    return ItemPointerGetBlockNumber(a) == ItemPointerGetBlockNumber(b) &&
           ItemPointerGetOffsetNumber(a) == ItemPointerGetOffsetNumber(b);
}

TM_Result
tdb_heap_tuple_satisfies_update(HeapTuple htup, CommandId curcid,
                                Transaction *xact, TransactionManager *tm,
                                bool *set_hint_bits_out)
{
    HeapTupleHeader tup = htup->t_data;
    uint16 infomask = HeapTupleHeaderGetInfomask(tup);
    TransactionId xmin = HeapTupleHeaderGetRawXmin(tup);
    TransactionId xmax = HeapTupleHeaderGetRawXmax(tup);

    /* ----- the inserting transaction ----- */
    if (!HeapInfomaskXminCommitted(infomask)) {
        if (HeapInfomaskXminInvalid(infomask))
            return TM_INVISIBLE;
        if (infomask & HEAP_MOVED)
            report_moved(tup);
        if (xact_is_current(xact, xmin)) {
            if (tdb_combocid_get_cmin(tup, xact) >= curcid)
                return TM_INVISIBLE; /* inserted by this or a later command */
            if (infomask & HEAP_XMAX_INVALID)
                return TM_OK;
            if (HeapInfomaskXmaxIsLockedOnly(infomask)) {
                if (infomask & HEAP_XMAX_IS_MULTI)
                    return TM_OK; /* no MultiXact can be running */
                /* a row lock still held (by us, too: PostgreSQL counts
                 * its own xid as in progress here) */
                if (tdb_xact_xid_is_in_progress(tm, xmax))
                    return TM_BEING_MODIFIED;
                return TM_OK;
            }
            if (infomask & HEAP_XMAX_IS_MULTI)
                report_multi(tup);
            if (!xact_is_current(xact, xmax)) {
                set_hint(tup, HEAP_XMAX_INVALID, set_hint_bits_out);
                return TM_OK; /* see the same case in the MVCC rules */
            }
            if (tdb_combocid_get_cmax(tup, xact) >= curcid)
                return TM_SELF_MODIFIED; /* by this or a later command */
            return TM_INVISIBLE;         /* by an earlier command */
        }
        if (tdb_xact_xid_is_in_progress(tm, xmin))
            return TM_INVISIBLE;
        if (!tdb_transam_did_commit(tm->clog, xmin)) {
            set_hint(tup, HEAP_XMIN_INVALID, set_hint_bits_out);
            return TM_INVISIBLE; /* aborted or crashed */
        }
        set_hint(tup, HEAP_XMIN_COMMITTED, set_hint_bits_out);
    }

    /* ----- by here the inserting transaction committed ----- */
    if (infomask & HEAP_XMAX_INVALID)
        return TM_OK;
    if (infomask & HEAP_XMAX_COMMITTED) {
        if (HeapInfomaskXmaxIsLockedOnly(infomask))
            return TM_OK;
        return ctid_is_self(htup) ? TM_DELETED : TM_UPDATED;
    }
    if (infomask & HEAP_XMAX_IS_MULTI) {
        if (HeapInfomaskXmaxIsLockedOnly(infomask)) {
            /* no MultiXact can be running: the locks are gone */
            set_hint(tup, HEAP_XMAX_INVALID, set_hint_bits_out);
            return TM_OK;
        }
        report_multi(tup);
    }
    if (xact_is_current(xact, xmax)) {
        if (HeapInfomaskXmaxIsLockedOnly(infomask))
            return TM_BEING_MODIFIED; /* locked by us: the caller decides */
        if (tdb_combocid_get_cmax(tup, xact) >= curcid)
            return TM_SELF_MODIFIED;
        return TM_INVISIBLE;
    }
    if (tdb_xact_xid_is_in_progress(tm, xmax))
        return TM_BEING_MODIFIED;
    if (!tdb_transam_did_commit(tm->clog, xmax)) {
        set_hint(tup, HEAP_XMAX_INVALID, set_hint_bits_out);
        return TM_OK; /* deleter aborted or crashed */
    }
    if (HeapInfomaskXmaxIsLockedOnly(infomask)) {
        /* a committed locker holds nothing any more */
        set_hint(tup, HEAP_XMAX_INVALID, set_hint_bits_out);
        return TM_OK;
    }
    set_hint(tup, HEAP_XMAX_COMMITTED, set_hint_bits_out);
    return ctid_is_self(htup) ? TM_DELETED : TM_UPDATED;
}

HTSV_Result
tdb_heap_tuple_satisfies_vacuum(HeapTupleHeader tup, TransactionId oldest_xmin,
                                TransactionManager *tm, bool *set_hint_bits_out)
{
    uint16 infomask = HeapTupleHeaderGetInfomask(tup);
    TransactionId xmin = HeapTupleHeaderGetRawXmin(tup);
    TransactionId xmax;

    /* ----- the inserting transaction ----- */
    if (!HeapInfomaskXminCommitted(infomask)) {
        if (HeapInfomaskXminInvalid(infomask))
            return HEAPTUPLE_DEAD;
        if (infomask & HEAP_MOVED)
            report_moved(tup);
        if (tdb_xact_xid_is_in_progress(tm, xmin)) {
            /* PostgreSQL's DELETE_IN_PROGRESS for a row its own running
             * inserter deleted: either way it must stay */
            return HEAPTUPLE_INSERT_IN_PROGRESS;
        }
        if (!tdb_transam_did_commit(tm->clog, xmin)) {
            /* aborted, or cut off by a crash: nobody ever saw it but its
             * own transaction, which is over */
            set_hint(tup, HEAP_XMIN_INVALID, set_hint_bits_out);
            return HEAPTUPLE_DEAD;
        }
        set_hint(tup, HEAP_XMIN_COMMITTED, set_hint_bits_out);
    }

    /* ----- by here the insert committed: the deleting transaction ----- */
    if (infomask & HEAP_XMAX_INVALID)
        return HEAPTUPLE_LIVE;
    if (HeapInfomaskXmaxIsLockedOnly(infomask))
        return HEAPTUPLE_LIVE; /* a lock, not a delete */
    if (infomask & HEAP_XMAX_IS_MULTI)
        report_multi(tup);

    xmax = HeapTupleHeaderGetRawXmax(tup);
    if (!(infomask & HEAP_XMAX_COMMITTED)) {
        if (tdb_xact_xid_is_in_progress(tm, xmax))
            return HEAPTUPLE_DELETE_IN_PROGRESS;
        if (!tdb_transam_did_commit(tm->clog, xmax)) {
            set_hint(tup, HEAP_XMAX_INVALID, set_hint_bits_out);
            return HEAPTUPLE_LIVE; /* the delete aborted or crashed */
        }
        set_hint(tup, HEAP_XMAX_COMMITTED, set_hint_bits_out);
    }

    /* deleted by a committed transaction: gone for every snapshot only if
     * no snapshot in use can count the deleter as running */
    if (!TransactionIdPrecedes(xmax, oldest_xmin))
        return HEAPTUPLE_RECENTLY_DEAD;
    return HEAPTUPLE_DEAD;
}

bool
tdb_heap_tuple_satisfies_dirty(HeapTupleHeader tup, Transaction *xact,
                               TransactionManager *tm, bool *set_hint_bits_out)
{
    uint16 infomask = HeapTupleHeaderGetInfomask(tup);
    TransactionId xmin = HeapTupleHeaderGetRawXmin(tup);
    TransactionId xmax;

    /* ----- the inserting transaction ----- */
    if (!HeapInfomaskXminCommitted(infomask)) {
        if (HeapInfomaskXminInvalid(infomask))
            return false;
        if (infomask & HEAP_MOVED)
            report_moved(tup);
        if (!xact_is_current(xact, xmin)) {
            /* another running inserter: a later issue's concurrent
             * writers wait for it here and check again */
            if (tdb_xact_xid_is_in_progress(tm, xmin))
                return true;
            if (!tdb_transam_did_commit(tm->clog, xmin)) {
                set_hint(tup, HEAP_XMIN_INVALID, set_hint_bits_out);
                return false; /* aborted or crashed */
            }
            set_hint(tup, HEAP_XMIN_COMMITTED, set_hint_bits_out);
        }
    }

    /* ----- by here inserted by a committed or our own transaction ----- */
    if (infomask & HEAP_XMAX_INVALID)
        return true;
    if (HeapInfomaskXmaxIsLockedOnly(infomask))
        return true;
    if (infomask & HEAP_XMAX_IS_MULTI)
        report_multi(tup);
    xmax = HeapTupleHeaderGetRawXmax(tup);
    if (infomask & HEAP_XMAX_COMMITTED)
        return false;
    if (xact_is_current(xact, xmax))
        return false; /* deleted by us, by any command */
    if (tdb_xact_xid_is_in_progress(tm, xmax))
        return true; /* another running deleter: wait there (later issue) */
    if (!tdb_transam_did_commit(tm->clog, xmax)) {
        set_hint(tup, HEAP_XMAX_INVALID, set_hint_bits_out);
        return true; /* the delete aborted */
    }
    set_hint(tup, HEAP_XMAX_COMMITTED, set_hint_bits_out);
    return false;
}
