/*
 * dest.h -- where a statement's results go (PostgreSQL's DestReceiver):
 * the C API turns them into text callbacks, the server into protocol
 * messages.  The session calls, per statement:
 *
 *     startup(desc)      if the statement returns rows (SELECT, SHOW,
 *                        EXPLAIN, ... RETURNING): the columns, named by
 *                        desc's attribute names
 *     receive(slot)*     each row; the slot's values are valid only
 *                        during the call
 *     complete(tag)      the command tag ("SELECT 2", "INSERT 0 1")
 *
 * and notice() for NOTICE/WARNING reports at any time.  Errors are not
 * sent here: tdb_session_exec reports them to its caller.
 */
#ifndef TDB_EXECUTOR_DEST_H
#define TDB_EXECUTOR_DEST_H

#include "common/base.h"
#include "common/elog.h"
#include "tuple/slot.h"
#include "tuple/tupdesc.h"

typedef struct DestReceiver DestReceiver;

struct DestReceiver {
    void (*startup)(DestReceiver *self, TupleDesc desc);
    void (*receive)(DestReceiver *self, TupleTableSlot *slot);
    void (*complete)(DestReceiver *self, const char *tag);
    void (*notice)(DestReceiver *self, const ErrorData *edata);
};

#endif /* TDB_EXECUTOR_DEST_H */
