/*
 * combocid.h -- command ids of a tuple a transaction both inserted and
 * deleted: PostgreSQL's combo command ids.
 *
 * A heap tuple header has room for one command id (t_cid).  Other
 * transactions never need a tuple's command ids, so normally t_cid holds
 * cmin while the inserting transaction runs and cmax once a transaction
 * deletes it.  When the same transaction does both, its own later scans
 * need both, so t_cid then holds a "combo" id with HEAP_COMBOCID set: an
 * index into a per-transaction table of (cmin, cmax) pairs.  The table
 * lives in the Transaction (in its TransactionContext) and dies with the
 * transaction -- by then nobody can need the tuple's command ids.
 *
 * The heap's delete and update call tdb_combocid_adjust_cmax before they
 * change the page (it may allocate, so it must not run inside a critical
 * section) and store the result with HeapTupleHeaderSetCmax
 * (htup_xact.h).  Visibility calls tdb_combocid_get_cmin/cmax only for
 * tuples whose xmin (cmin) or xmax (cmax) is the caller's own xid.
 */
#ifndef TDB_ACCESS_COMBOCID_H
#define TDB_ACCESS_COMBOCID_H

#include "common/base.h"
#include "access/xact.h"
#include "tuple/heaptuple.h"

/*
 * The command id that inserted tup; xact must be its inserting
 * transaction.  Raises if a combo id is unknown to xact (a corrupt tuple).
 */
CommandId tdb_combocid_get_cmin(const HeapTupleHeaderData *tup,
                                const Transaction *xact);

/* The command id that deleted tup; xact must be its deleting transaction. */
CommandId tdb_combocid_get_cmax(const HeapTupleHeaderData *tup,
                                const Transaction *xact);

/*
 * Prepare to delete tup with command id *cmax in xact: if xact inserted
 * tup (and its xmin is not yet hinted committed), replace *cmax by the
 * combo id of (cmin, *cmax) and set *iscombo, else leave *cmax and clear
 * *iscombo.  Allocates in xact's TransactionContext.
 */
void tdb_combocid_adjust_cmax(const HeapTupleHeaderData *tup, Transaction *xact,
                              CommandId *cmax, bool *iscombo);

#endif /* TDB_ACCESS_COMBOCID_H */
