/*
 * transam.h -- transaction ids: the special values, circular comparison,
 * and "did this transaction commit?" over the commit log.
 *
 * A TransactionId is 32 bits, as in PostgreSQL, so the id space wraps
 * around.  The first three values are special and never handed out:
 *
 *   0  InvalidTransactionId     "no transaction" (an unset xmax, say)
 *   1  BootstrapTransactionId   rows made while bootstrapping: committed
 *   2  FrozenTransactionId      rows older than every snapshot: committed
 *   3  FirstNormalTransactionId the first id the transaction manager
 *                               hands out; after 0xFFFFFFFF comes 3 again
 *
 * Normal ids compare circularly, modulo 2^32: a precedes b when the signed
 * 32-bit difference a - b is negative, so each id sees the 2^31 - 1 ids
 * before it as the past and the 2^31 after it as the future.  That is only
 * meaningful while every id still stored in a tuple lies within 2^31 of
 * the newest one; the transaction manager refuses to hand out ids before
 * that breaks (xact.c, "stop limit").  Special ids compare as plain
 * integers, so they precede every normal id.
 *
 * The comparison functions are static inline and keep PostgreSQL's names
 * (TransactionIdPrecedes and friends), as heaptuple.h does for tuple
 * accessors: the visibility code calls them per tuple.
 */
#ifndef TDB_ACCESS_TRANSAM_H
#define TDB_ACCESS_TRANSAM_H

#include "common/base.h"
#include "tuple/heaptuple.h" /* TransactionId, CommandId */

typedef struct Clog Clog;

#define InvalidTransactionId ((TransactionId)0)
#define BootstrapTransactionId ((TransactionId)1)
#define FrozenTransactionId ((TransactionId)2)
#define FirstNormalTransactionId ((TransactionId)3)
#define MaxTransactionId ((TransactionId)0xFFFFFFFF)

/* Command ids number the commands of one transaction, from 0. */
#define FirstCommandId ((CommandId)0)
#define InvalidCommandId ((CommandId)0xFFFFFFFF)

static inline bool
TransactionIdIsValid(TransactionId xid)
{
    return xid != InvalidTransactionId;
}

static inline bool
TransactionIdIsNormal(TransactionId xid)
{
    return xid >= FirstNormalTransactionId;
}

static inline bool
TransactionIdEquals(TransactionId a, TransactionId b)
{
    return a == b;
}

/* a < b: circularly for two normal ids, as integers otherwise. */
static inline bool
TransactionIdPrecedes(TransactionId a, TransactionId b)
{
    if (!TransactionIdIsNormal(a) || !TransactionIdIsNormal(b))
        return a < b;
    return (int32)(a - b) < 0;
}

/* a <= b */
static inline bool
TransactionIdPrecedesOrEquals(TransactionId a, TransactionId b)
{
    if (!TransactionIdIsNormal(a) || !TransactionIdIsNormal(b))
        return a <= b;
    return (int32)(a - b) <= 0;
}

/* a > b */
static inline bool
TransactionIdFollows(TransactionId a, TransactionId b)
{
    if (!TransactionIdIsNormal(a) || !TransactionIdIsNormal(b))
        return a > b;
    return (int32)(a - b) > 0;
}

/* a >= b */
static inline bool
TransactionIdFollowsOrEquals(TransactionId a, TransactionId b)
{
    if (!TransactionIdIsNormal(a) || !TransactionIdIsNormal(b))
        return a >= b;
    return (int32)(a - b) >= 0;
}

/* The id after *xid, skipping the special ids on wraparound. */
static inline void
TransactionIdAdvance(TransactionId *xid)
{
    (*xid)++;
    if (*xid < FirstNormalTransactionId)
        *xid = FirstNormalTransactionId;
}

/* The id before *xid, skipping the special ids on wraparound. */
static inline void
TransactionIdRetreat(TransactionId *xid)
{
    do
        (*xid)--;
    while (*xid < FirstNormalTransactionId);
}

/*
 * Whether xid committed, according to the commit log: Bootstrap and
 * Frozen always did, Invalid never did.  A normal id that is not marked
 * committed may still be running -- callers ask the snapshot (or
 * tdb_xact_is_in_progress) first, as PostgreSQL does, because a commit
 * is recorded in the log before the id leaves the running set.  Raises
 * the commit log's I/O errors.
 */
bool tdb_transam_did_commit(Clog *clog, TransactionId xid);

/*
 * Whether the commit log records xid as aborted (Invalid counts as
 * aborted).  A transaction cut off by a crash is never recorded as
 * aborted: visibility decides "aborted" by elimination (not running, not
 * committed), never with this function.
 */
bool tdb_transam_did_abort(Clog *clog, TransactionId xid);

#endif /* TDB_ACCESS_TRANSAM_H */
