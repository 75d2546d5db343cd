/*
 * dest_remote.c -- results and reports as protocol messages.
 *
 * RemoteReceiver is the DestReceiver (executor/dest.h) a connection hands
 * to tdb_session_exec:
 *
 *     startup(desc)   RowDescription 'T' (unless send_rowdesc is off: the
 *                     extended protocol describes at Describe): per
 *                     column its name, table OID and column number (the
 *                     extended protocol's Describe knows them; 0 and 0
 *                     in the simple protocol), type OID, typlen, typmod
 *                     and format code
 *     receive(slot)   DataRow 'D': per column Int32 length (-1 for NULL)
 *                     and the value: text from tdb_type_output, or
 *                     binary from tdb_type_send for format code 1
 *     complete(tag)   CommandComplete 'C' with the tag
 *     notice(edata)   NoticeResponse 'N', if client_min_messages lets it
 *
 * A write that fails (the client vanished) or is cut short by shutdown
 * raises an ERROR from receive/complete, so the statement stops and the
 * session rolls back; the connection loop then sees Port.broken or
 * Port.stopped and ends.  Rows are rendered in a per-row context that is
 * reset after each row.
 *
 * ErrorResponse / NoticeResponse bodies carry the fields S (severity,
 * localized), V (severity), C (SQLSTATE), M, D, H, P (1-based character
 * position), W (context), F/L/R (where it was raised).
 */
#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "server/server_int.h"
#include "types/builtins.h"

/* ----------------------------------------------------------------------
 * ErrorResponse / NoticeResponse
 * ---------------------------------------------------------------------- */

static void
put_field(Port *port, char code, const char *value)
{
    tdb_pq_put_byte(port, code);
    tdb_pq_put_string(port, value);
}

void
tdb_backend_send_error(Backend *be, const ErrorData *e, int elevel)
{
    Port *port = &be->port;
    int level = elevel != 0 ? elevel : e->elevel;
    const char *severity = tdb_elevel_name(level);
    char sqlstate[6];
    char buf[32];

    tdb_sqlstate_unpack(e->sqlerrcode, sqlstate);
    tdb_pq_begin(port, level >= ERROR ? 'E' : 'N');
    put_field(port, 'S', severity);
    put_field(port, 'V', severity);
    put_field(port, 'C', sqlstate);
    put_field(port, 'M', e->message);
    if (e->detail[0] != '\0')
        put_field(port, 'D', e->detail);
    if (e->hint[0] != '\0')
        put_field(port, 'H', e->hint);
    if (e->cursorpos > 0) {
        snprintf(buf, sizeof(buf), "%d", e->cursorpos);
        put_field(port, 'P', buf);
    }
    if (e->context[0] != '\0')
        put_field(port, 'W', e->context);
    if (e->filename != NULL) {
        const char *slash = strrchr(e->filename, '/');

        put_field(port, 'F', slash != NULL ? slash + 1 : e->filename);
        snprintf(buf, sizeof(buf), "%d", e->lineno);
        put_field(port, 'L', buf);
    }
    if (e->funcname != NULL)
        put_field(port, 'R', e->funcname);
    tdb_pq_put_byte(port, 0);
    tdb_pq_end(port);
}

void
tdb_backend_send_simple_error(Backend *be, int elevel, int sqlerrcode,
                              const char *fmt, ...)
{
    ErrorData e;
    va_list args;

    memset(&e, 0, sizeof(e));
    e.elevel = elevel;
    e.sqlerrcode = sqlerrcode;
    va_start(args, fmt);
    (void)vsnprintf(e.message, sizeof(e.message), fmt, args);
    va_end(args);
    tdb_backend_send_error(be, &e, 0);
}

/*
 * PostgreSQL's rule for what reaches the client: a report at or above
 * client_min_messages, and INFO always.
 */
static bool
notice_wanted(Backend *be, int elevel)
{
    return tdb_guc_client_wants(tdb_session_settings(be->session), elevel);
}

/* ----------------------------------------------------------------------
 * The receiver
 * ---------------------------------------------------------------------- */

/* After sending: stop the statement if the connection cannot go on. */
static void
check_port(RemoteReceiver *r)
{
    Port *port = &r->be->port;

    if (port->stopped)
        ereport(ERROR, errcode(SRV_ERRCODE_ADMIN_SHUTDOWN),
                errmsg("terminating connection due to administrator "
                       "command"));
    if (port->broken)
        ereport(ERROR, errcode(SRV_ERRCODE_CONNECTION_FAILURE),
                errmsg("connection to client lost"));
}

static int16
column_format(const RemoteReceiver *r, int i)
{
    if (r->nformats == 0 || r->formats == NULL)
        return 0;
    return r->nformats == 1 ? r->formats[0] : r->formats[i];
}

void
tdb_remote_send_rowdesc(RemoteReceiver *r, TupleDesc desc)
{
    Port *port = &r->be->port;

    tdb_pq_begin(port, 'T');
    tdb_pq_put_int16(port, desc->natts);
    for (int i = 0; i < desc->natts; i++) {
        const TupleAttr *att = TupleDescAttr(desc, i);

        tdb_pq_put_string(port, att->attname);
        tdb_pq_put_int32(port, r->origtbl != NULL ? (int32)r->origtbl[i] : 0);
        tdb_pq_put_int16(port, r->origcol != NULL ? r->origcol[i] : 0);
        tdb_pq_put_int32(port, (int32)att->atttypid);
        tdb_pq_put_int16(port, att->attlen);
        tdb_pq_put_int32(port, att->atttypmod);
        tdb_pq_put_int16(port, column_format(r, i));
    }
    tdb_pq_end(port);
}

static void
remote_startup(DestReceiver *self, TupleDesc desc)
{
    RemoteReceiver *r = (RemoteReceiver *)self;

    r->ncolumns = desc->natts;
    r->typids = tdb_palloc(sizeof(Oid) * (Size)Max(1, desc->natts));
    for (int i = 0; i < desc->natts; i++)
        r->typids[i] = TupleDescAttr(desc, i)->atttypid;
    if (r->send_rowdesc)
        tdb_remote_send_rowdesc(r, desc);
    check_port(r);
}

static void
remote_receive(DestReceiver *self, TupleTableSlot *slot)
{
    RemoteReceiver *r = (RemoteReceiver *)self;
    Port *port = &r->be->port;
    MemoryContext old = tdb_mcxt_switch_to(r->row_cxt);

    tdb_slot_getallattrs(slot);
    tdb_pq_begin(port, 'D');
    tdb_pq_put_int16(port, r->ncolumns);
    for (int i = 0; i < r->ncolumns; i++) {
        const char *value;
        size_t len;

        if (slot->tts_isnull[i]) {
            tdb_pq_put_int32(port, -1);
            continue;
        }
        if (column_format(r, i) == 1) {
            int blen;

            value = tdb_type_send(r->typids[i], slot->tts_values[i], &blen);
            len = (size_t)blen;
        } else {
            value = tdb_type_output(r->typids[i], slot->tts_values[i]);
            len = strlen(value);
        }
        tdb_pq_put_int32(port, (int32)len);
        tdb_pq_put_bytes(port, value, len);
    }
    tdb_pq_end(port);
    tdb_mcxt_switch_to(old);
    tdb_mcxt_reset(r->row_cxt);
    check_port(r);
}

static void
remote_complete(DestReceiver *self, const char *tag)
{
    RemoteReceiver *r = (RemoteReceiver *)self;
    Port *port = &r->be->port;

    tdb_pq_begin(port, 'C');
    tdb_pq_put_string(port, tag);
    tdb_pq_end(port);
    r->ncompleted++;
    check_port(r);
}

void
tdb_backend_send_notice(Backend *be, const ErrorData *e)
{
    /* never raises for a broken port: that shows at the next row or tag */
    if (!be->port.broken && notice_wanted(be, e->elevel))
        tdb_backend_send_error(be, e, 0);
}

static void
remote_notice(DestReceiver *self, const ErrorData *edata)
{
    tdb_backend_send_notice(((RemoteReceiver *)self)->be, edata);
}

void
tdb_remote_receiver_init(RemoteReceiver *r, Backend *be)
{
    memset(r, 0, sizeof(*r));
    r->base.startup = remote_startup;
    r->base.receive = remote_receive;
    r->base.complete = remote_complete;
    r->base.notice = remote_notice;
    r->base.copy = tdb_copy_proto_channel(be); /* copy_proto.c */
    r->be = be;
    r->send_rowdesc = true;
    r->row_cxt = tdb_aset_create(be->cxt, "remote row", ALLOCSET_SMALL_SIZES);
}

void
tdb_remote_receiver_done(RemoteReceiver *r)
{
    tdb_mcxt_delete(r->row_cxt);
    r->row_cxt = NULL;
}
