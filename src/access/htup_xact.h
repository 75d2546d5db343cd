/*
 * htup_xact.h -- the transaction fields of a heap tuple header (xmin,
 * xmax, t_cid and the t_infomask hint and lock bits): accessors with
 * PostgreSQL's names (htup_details.h), for the visibility rules and the
 * heap access code.  The header layout itself is tuple/heaptuple.h's.
 *
 * Hint bits may be set by readers holding only a pin and a share lock on
 * the tuple's buffer (as in PostgreSQL), so several threads may OR bits
 * into t_infomask at once.  HeapTupleHeaderSetHintBits does that with an
 * atomic OR and HeapTupleHeaderGetInfomask reads with a relaxed atomic
 * load: no hint is lost and there is no data race (both compile to plain
 * instructions on x86-64 except the locked OR, paid once per tuple and
 * status).  Every other change to these fields needs the exclusive
 * buffer lock, under which no reader looks.
 */
#ifndef TDB_ACCESS_HTUP_XACT_H
#define TDB_ACCESS_HTUP_XACT_H

#include "common/base.h"
#include "access/transam.h"
#include "tuple/heaptuple.h"

/* The lock-strength bits of t_infomask (0x0050). */
#ifndef HEAP_XMAX_SHR_LOCK
#define HEAP_XMAX_SHR_LOCK (HEAP_XMAX_EXCL_LOCK | HEAP_XMAX_KEYSHR_LOCK)
#endif
#define HEAP_LOCK_MASK                                                         \
    (HEAP_XMAX_SHR_LOCK | HEAP_XMAX_EXCL_LOCK | HEAP_XMAX_KEYSHR_LOCK)
#define HEAP_MOVED (HEAP_MOVED_OFF | HEAP_MOVED_IN)

static inline uint16
HeapTupleHeaderGetInfomask(const HeapTupleHeaderData *tup)
{
    return __atomic_load_n(&tup->t_infomask, __ATOMIC_RELAXED);
}

/* OR hint bits into t_infomask (allowed under a share lock). */
static inline void
HeapTupleHeaderSetHintBits(HeapTupleHeaderData *tup, uint16 bits)
{
    __atomic_fetch_or(&tup->t_infomask, bits, __ATOMIC_RELAXED);
}

static inline TransactionId
HeapTupleHeaderGetRawXmin(const HeapTupleHeaderData *tup)
{
    return tup->t_choice.t_heap.t_xmin;
}

static inline TransactionId
HeapTupleHeaderGetRawXmax(const HeapTupleHeaderData *tup)
{
    return tup->t_choice.t_heap.t_xmax;
}

/* t_cid as stored: cmin, cmax or a combo id (HEAP_COMBOCID). */
static inline CommandId
HeapTupleHeaderGetRawCommandId(const HeapTupleHeaderData *tup)
{
    return tup->t_choice.t_heap.t_field3.t_cid;
}

static inline void
HeapTupleHeaderSetXmin(HeapTupleHeaderData *tup, TransactionId xid)
{
    tup->t_choice.t_heap.t_xmin = xid;
}

static inline void
HeapTupleHeaderSetXmax(HeapTupleHeaderData *tup, TransactionId xid)
{
    tup->t_choice.t_heap.t_xmax = xid;
}

/* Store cmin at insertion (clears HEAP_COMBOCID). */
static inline void
HeapTupleHeaderSetCmin(HeapTupleHeaderData *tup, CommandId cid)
{
    tup->t_choice.t_heap.t_field3.t_cid = cid;
    tup->t_infomask &= (uint16)~HEAP_COMBOCID;
}

/* Store cmax (or the combo id from tdb_combocid_adjust_cmax) at delete. */
static inline void
HeapTupleHeaderSetCmax(HeapTupleHeaderData *tup, CommandId cid, bool iscombo)
{
    tup->t_choice.t_heap.t_field3.t_cid = cid;
    if (iscombo)
        tup->t_infomask |= HEAP_COMBOCID;
    else
        tup->t_infomask &= (uint16)~HEAP_COMBOCID;
}

/* The infomask tests take a mask read once with
 * HeapTupleHeaderGetInfomask, so one visibility check sees one value. */

static inline bool
HeapInfomaskXminCommitted(uint16 infomask)
{
    return (infomask & HEAP_XMIN_COMMITTED) != 0;
}

/* XMIN_INVALID alone: COMMITTED | INVALID means frozen. */
static inline bool
HeapInfomaskXminInvalid(uint16 infomask)
{
    return (infomask & HEAP_XMIN_FROZEN) == HEAP_XMIN_INVALID;
}

static inline bool
HeapInfomaskXminFrozen(uint16 infomask)
{
    return (infomask & HEAP_XMIN_FROZEN) == HEAP_XMIN_FROZEN;
}

/*
 * xmax only locks the row (PostgreSQL's HEAP_XMAX_IS_LOCKED_ONLY): the
 * LOCK_ONLY bit, or -- as pre-9.3 PostgreSQL wrote row locks -- an
 * exclusive lock bit alone on a plain xid.
 */
static inline bool
HeapInfomaskXmaxIsLockedOnly(uint16 infomask)
{
    return (infomask & HEAP_XMAX_LOCK_ONLY) != 0 ||
           (infomask & (HEAP_XMAX_IS_MULTI | HEAP_LOCK_MASK)) ==
               HEAP_XMAX_EXCL_LOCK;
}

#endif /* TDB_ACCESS_HTUP_XACT_H */
