/*
 * copy_proto.c -- the COPY sub-protocol: the CopyChannel (executor/dest.h)
 * a connection gives the statements it runs.
 *
 *   COPY ... FROM STDIN                 COPY ... TO STDOUT
 *   server: CopyInResponse 'G'          server: CopyOutResponse 'H'
 *   client: CopyData 'd' ...            server: CopyData 'd', one per line
 *           CopyDone 'c' | CopyFail 'f' server: CopyDone 'c'
 *   server: CommandComplete | Error     server: CommandComplete
 *
 * Both responses carry format 0 (text) overall and for each column.
 * CopyData boundaries mean nothing: the statement reads a byte stream
 * (in_read hands out what the messages hold, in order).  While reading,
 * Flush and Sync are ignored (libpq may send them without knowing a
 * COPY started); CopyFail is 57014 "COPY from stdin failed: <message>";
 * any other message is 08P01 "unexpected message type 0x%02X during COPY
 * from stdin", after which the connection cannot tell where the client's
 * messages start: the statement's ERROR is followed by FATAL
 * "terminating connection because protocol synchronization was lost"
 * and the connection ends, as in PostgreSQL (tdb_copy_proto_after_error,
 * called by the simple-query path after sending the error).
 *
 * A COPY FROM that fails before the client's CopyDone (bad data, a
 * constraint) leaves the rest of the client's CopyData in the socket:
 * the message loop drops CopyData / CopyDone / CopyFail that come when
 * no COPY runs (backend.c), again as PostgreSQL does.  A client that
 * disconnects mid-COPY ends the statement with 08006 and the session
 * rolls back.
 *
 * Memory: the channel lives in the connection's context; each CopyData
 * body is read into a small context of its own, reset per message.
 */
#include "common/base.h"

#include <string.h>

#include "common/utf8.h"
#include "server/server_int.h"

struct RemoteCopy {
    CopyChannel base;
    Backend *be;
    MemoryContext msg_cxt; /* the CopyData being read */
    PqMsg msg;
    int pos;               /* read position in msg */
    bool in_done;          /* CopyDone came */
    bool lost_sync;        /* a message other than the COPY ones came */
};

static void
send_response(Backend *be, char type, int natts)
{
    Port *port = &be->port;

    tdb_pq_begin(port, type);
    tdb_pq_put_byte(port, 0); /* text */
    tdb_pq_put_int16(port, natts);
    for (int i = 0; i < natts; i++)
        tdb_pq_put_int16(port, 0);
    tdb_pq_end(port);
}

/* Stop the statement if the connection cannot go on. */
static void
check_port(Backend *be)
{
    if (be->port.stopped)
        ereport(ERROR, errcode(SRV_ERRCODE_ADMIN_SHUTDOWN),
                errmsg("terminating connection due to administrator "
                       "command"));
    if (be->port.broken)
        ereport(ERROR, errcode(SRV_ERRCODE_CONNECTION_FAILURE),
                errmsg("connection to client lost"));
}

/* The client went away or the server is stopping while we read. */
TDB_NORETURN static void
read_failed(RemoteCopy *rc, int result)
{
    if (result == PQ_STOP)
        ereport(ERROR, errcode(SRV_ERRCODE_ADMIN_SHUTDOWN),
                errmsg("terminating connection due to administrator "
                       "command"));
    if (result == PQ_BAD_LENGTH) {
        rc->lost_sync = true;
        ereport(ERROR, errcode(SRV_ERRCODE_PROTOCOL_VIOLATION),
                errmsg("invalid message length"));
    }
    tdb_server_log(rc->be->pid, "LOG",
                   "unexpected EOF on client connection with an open "
                   "transaction");
    rc->be->port.broken = true;
    ereport(ERROR, errcode(SRV_ERRCODE_CONNECTION_FAILURE),
            errmsg("unexpected EOF on client connection with an open "
                   "transaction"));
}

static void
copy_in_begin(CopyChannel *ch, int natts)
{
    RemoteCopy *rc = (RemoteCopy *)ch;

    rc->pos = rc->msg.len = 0;
    rc->in_done = false;
    send_response(rc->be, 'G', natts);
    (void)tdb_pq_flush(&rc->be->port); /* the client waits for it */
    check_port(rc->be);
}

/* Read the next COPY message; false at CopyDone. */
static bool
next_message(RemoteCopy *rc)
{
    Port *port = &rc->be->port;

    for (;;) {
        unsigned char type;
        int limit, result;

        tdb_mcxt_reset(rc->msg_cxt);
        rc->pos = rc->msg.len = 0;
        result = tdb_pq_read_bytes(port, &type, 1);
        if (result != PQ_OK)
            read_failed(rc, result);
        switch (type) {
        case 'd':
            limit = PQ_LARGE_MESSAGE_LIMIT;
            break;
        case 'c':
        case 'f':
        case 'H':
        case 'S':
            limit = PQ_SMALL_MESSAGE_LIMIT;
            break;
        default:
            /* its body was not read: the stream is out of step now */
            rc->lost_sync = true;
            ereport(ERROR, errcode(SRV_ERRCODE_PROTOCOL_VIOLATION),
                    errmsg("unexpected message type 0x%02X during COPY "
                           "from stdin",
                           type));
        }
        result = tdb_pq_read_message(port, true, limit, rc->msg_cxt, &rc->msg);
        if (result != PQ_OK)
            read_failed(rc, result);
        rc->msg.type = (char)type;
        switch (type) {
        case 'd':
            if (rc->msg.len > 0)
                return true;
            break;
        case 'c':
            rc->in_done = true;
            rc->msg.len = 0;
            return false;
        case 'f': {
            const char *why = tdb_pq_get_string(&rc->msg);

            rc->in_done = true;
            /* PostgreSQL checks the client's reason as it reads it */
            tdb_utf8_check(why, strlen(why));
            ereport(ERROR, errcode(ERRCODE_QUERY_CANCELED),
                    errmsg("COPY from stdin failed: %s",
                           why != NULL ? why : ""));
        }
        default:
            break; /* Flush, Sync: ignored */
        }
    }
}

static int
copy_in_read(CopyChannel *ch, char *buf, int size)
{
    RemoteCopy *rc = (RemoteCopy *)ch;
    int n;

    if (rc->pos >= rc->msg.len) {
        if (rc->in_done || !next_message(rc))
            return 0;
    }
    n = Min(size, rc->msg.len - rc->pos);
    memcpy(buf, rc->msg.data + rc->pos, (size_t)n);
    rc->pos += n;
    return n;
}

static void
copy_out_begin(CopyChannel *ch, int natts)
{
    RemoteCopy *rc = (RemoteCopy *)ch;

    send_response(rc->be, 'H', natts);
    check_port(rc->be);
}

static void
copy_out_data(CopyChannel *ch, const char *data, int len)
{
    RemoteCopy *rc = (RemoteCopy *)ch;
    Port *port = &rc->be->port;

    tdb_pq_begin(port, 'd');
    tdb_pq_put_bytes(port, data, (size_t)len);
    tdb_pq_end(port);
    check_port(rc->be);
}

static void
copy_out_end(CopyChannel *ch)
{
    RemoteCopy *rc = (RemoteCopy *)ch;

    tdb_pq_begin(&rc->be->port, 'c');
    tdb_pq_end(&rc->be->port);
    check_port(rc->be);
}

CopyChannel *
tdb_copy_proto_channel(Backend *be)
{
    RemoteCopy *rc = be->copy;

    if (rc == NULL) {
        rc = tdb_mcxt_alloc_zero(be->cxt, sizeof(RemoteCopy));
        rc->base.in_begin = copy_in_begin;
        rc->base.in_read = copy_in_read;
        rc->base.out_begin = copy_out_begin;
        rc->base.out_data = copy_out_data;
        rc->base.out_end = copy_out_end;
        rc->be = be;
        rc->msg_cxt = tdb_aset_create(be->cxt, "CopyData",
                                      ALLOCSET_SMALL_SIZES);
        be->copy = rc;
    }
    return &rc->base;
}

void
tdb_copy_proto_after_error(Backend *be)
{
    RemoteCopy *rc = be->copy;

    if (rc == NULL || !rc->lost_sync || be->terminate || be->port.broken)
        return;
    rc->lost_sync = false;
    tdb_server_log(be->pid, "FATAL",
                   "terminating connection because protocol "
                   "synchronization was lost");
    tdb_backend_send_simple_error(be, FATAL, SRV_ERRCODE_PROTOCOL_VIOLATION,
                                  "terminating connection because protocol "
                                  "synchronization was lost");
    (void)tdb_pq_flush(&be->port);
    be->terminate = true;
}
