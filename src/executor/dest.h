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
 *
 * COPY ... FROM STDIN and COPY ... TO STDOUT exchange data with whoever
 * sent the statement (the server's client, the C API's caller, the
 * shell).  A receiver that can do that points `copy` at a CopyChannel;
 * NULL means it cannot, and such a COPY fails with 0A000.
 *
 *   FROM STDIN  in_begin(natts)       the client may send (CopyInResponse)
 *               in_read(buf, size)*   up to size bytes of the data, in
 *                                     whatever pieces the client sent;
 *                                     0 at its end (CopyDone).  Raises
 *                                     57014 "COPY from stdin failed: ..."
 *                                     when the client gives up, 08006
 *                                     when it goes away
 *   TO STDOUT   out_begin(natts)      (CopyOutResponse)
 *               out_data(data, len)*  one row each (CopyData)
 *               out_end()             (CopyDone), then complete(tag)
 *
 * Only the text and CSV formats exist, so there is no format argument.
 * A COPY FROM that fails stops reading: the rest of the client's data
 * is the channel owner's to discard (the server skips CopyData until
 * CopyDone or CopyFail, as PostgreSQL does).
 */
#ifndef TDB_EXECUTOR_DEST_H
#define TDB_EXECUTOR_DEST_H

#include "common/base.h"
#include "common/elog.h"
#include "tuple/slot.h"
#include "tuple/tupdesc.h"

typedef struct DestReceiver DestReceiver;
typedef struct CopyChannel CopyChannel;

struct CopyChannel {
    void (*in_begin)(CopyChannel *self, int natts);
    int (*in_read)(CopyChannel *self, char *buf, int size);
    void (*out_begin)(CopyChannel *self, int natts);
    void (*out_data)(CopyChannel *self, const char *data, int len);
    void (*out_end)(CopyChannel *self);
};

struct DestReceiver {
    void (*startup)(DestReceiver *self, TupleDesc desc);
    void (*receive)(DestReceiver *self, TupleTableSlot *slot);
    void (*complete)(DestReceiver *self, const char *tag);
    void (*notice)(DestReceiver *self, const ErrorData *edata);
    CopyChannel *copy; /* COPY FROM STDIN / TO STDOUT, or NULL */
};

/*
 * Send a one-column result of text values, the column named label, to
 * dest: startup, one receive per value (SHOW's value, EXPLAIN's plan
 * lines).  The caller sends the command tag.
 */
void tdb_dest_send_text_column(DestReceiver *dest, const char *label,
                               const char *const *values, int nvalues);

#endif /* TDB_EXECUTOR_DEST_H */
