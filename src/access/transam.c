/*
 * transam.c -- "did this transaction commit / abort?" over the commit
 * log, with PostgreSQL's answers for the special ids (transam.h).
 *
 * SUB_COMMITTED is never written by tupledb (there are no
 * subtransactions); should a page hold it, the id counts as neither
 * committed nor recorded aborted, i.e. as a transaction cut off by a
 * crash, which is what PostgreSQL concludes for a subcommitted id whose
 * parent is gone.
 */
#include "common/base.h"

#include "access/clog.h"
#include "access/transam.h"

bool
tdb_transam_did_commit(Clog *clog, TransactionId xid)
{
    if (!TransactionIdIsNormal(xid))
        return xid == BootstrapTransactionId || xid == FrozenTransactionId;
    return tdb_clog_get_status(clog, xid) == TRANSACTION_STATUS_COMMITTED;
}

bool
tdb_transam_did_abort(Clog *clog, TransactionId xid)
{
    if (!TransactionIdIsNormal(xid))
        return xid == InvalidTransactionId;
    return tdb_clog_get_status(clog, xid) == TRANSACTION_STATUS_ABORTED;
}
