/*
 * extended.c -- the extended query protocol, on the session's prepared
 * statements and portals (tcop/session.h, tcop/prepare.c).
 *
 *   Parse 'P'     tdb_session_prepare: parse, analyze and plan now,
 *                 inferring the types of $n the client left 0; keep the
 *                 statement under its name ("" = the unnamed statement,
 *                 which the next unnamed Parse or any simple Query
 *                 replaces)
 *   Bind 'B'      check the counts (08P01), convert the values (text: the
 *                 type's input function; binary: its recv, 0A000 if it
 *                 has none; another format code 22023), make a portal ("" =
 *                 unnamed); binary result columns need the type's send
 *                 (0A000)
 *   Describe 'D'  S: ParameterDescription, then RowDescription (text
 *                 formats) or NoData; P: RowDescription with the Bind's
 *                 format codes, or NoData.  Nothing runs: the
 *                 description comes from the analysis
 *   Execute 'E'   tdb_session_execute with the row limit: DataRows, then
 *                 CommandComplete, PortalSuspended (more rows remain; the
 *                 next Execute goes on from there) or EmptyQueryResponse
 *   Sync 'S'      tdb_session_sync commits the implicit transaction the
 *                 messages started, then ReadyForQuery; ends the error
 *                 skip
 *   Flush 'H'     send what is buffered
 *   Close 'C'     drop a statement or portal (unknown names are fine)
 *
 * After an error every message up to Sync is skipped (backend.c asks
 * tdb_extended_ignoring), and the session has ended the statement as any
 * error does: an implicit transaction is rolled back, an explicit block
 * fails (25P02 until ROLLBACK).  Errors of this layer (bad counts, unknown
 * names) do the same through tdb_session_fail.  A portal that failed is
 * dropped; portals end with their transaction (backend.c calls
 * tdb_extended_end_of_transaction before ReadyForQuery).
 *
 * Not here: the COPY sub-protocol, FunctionCall.
 *
 * Memory: the name lists live in ExtendedState.cxt; statements and
 * portals themselves in the session's memory (dropped through the
 * session's functions, or with the session).
 */
#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/utf8.h"
#include "server/server_int.h"
#include "types/builtins.h"

typedef struct ExtStatement {
    struct ExtStatement *next;
    char *name;  /* "" for the unnamed statement */
    char *query; /* for the log */
    PreparedStatement *ps;
} ExtStatement;

typedef struct ExtPortal {
    struct ExtPortal *next;
    char *name; /* "" for the unnamed portal */
    char *query;
    Portal *portal;
    int nformats; /* result format codes from Bind */
    int16 *formats;
} ExtPortal;

struct ExtendedState {
    MemoryContext cxt;
    bool ignoring; /* an error happened: skip until Sync */
    ExtStatement *stmts;
    ExtPortal *portals;
};

/* ----------------------------------------------------------------------
 * Statements and portals by name
 * ---------------------------------------------------------------------- */

static ExtStatement *
find_stmt(ExtendedState *ext, const char *name)
{
    for (ExtStatement *s = ext->stmts; s != NULL; s = s->next)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

static void
drop_stmt(ExtendedState *ext, const char *name)
{
    for (ExtStatement **p = &ext->stmts; *p != NULL; p = &(*p)->next) {
        if (strcmp((*p)->name, name) == 0) {
            ExtStatement *s = *p;

            *p = s->next;
            tdb_prepared_drop(s->ps);
            tdb_pfree(s->name);
            tdb_pfree(s->query);
            tdb_pfree(s);
            return;
        }
    }
}

static ExtPortal *
find_portal(ExtendedState *ext, const char *name)
{
    for (ExtPortal *p = ext->portals; p != NULL; p = p->next)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

static void
drop_portal(ExtendedState *ext, const char *name)
{
    for (ExtPortal **pp = &ext->portals; *pp != NULL; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name) == 0) {
            ExtPortal *p = *pp;

            *pp = p->next;
            tdb_portal_drop(p->portal);
            tdb_pfree(p->name);
            tdb_pfree(p->query);
            tdb_pfree(p->formats);
            tdb_pfree(p);
            return;
        }
    }
}

void
tdb_extended_init(Backend *be)
{
    ExtendedState *ext = tdb_mcxt_alloc_zero(be->cxt, sizeof(ExtendedState));

    ext->cxt =
        tdb_aset_create(be->cxt, "Extended protocol", ALLOCSET_SMALL_SIZES);
    be->ext = ext;
}

void
tdb_extended_forget_unnamed(Backend *be)
{
    if (be->ext == NULL)
        return;
    drop_stmt(be->ext, "");
    drop_portal(be->ext, "");
}

bool
tdb_extended_ignoring(Backend *be)
{
    return be->ext != NULL && be->ext->ignoring;
}

void
tdb_extended_end_of_transaction(Backend *be)
{
    ExtendedState *ext = be->ext;

    if (ext == NULL)
        return;
    /* outside a block no portal survives; inside, the dead ones go */
    for (ExtPortal *p = ext->portals, *next; p != NULL; p = next) {
        next = p->next;
        if (tdb_session_transaction_status(be->session) == 'I' ||
            tdb_portal_is_dead(p->portal))
            drop_portal(ext, p->name);
    }
}

/* ----------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------- */

/*
 * A session call failed: end the connection if it broke or the server is
 * stopping, else send the error (and skip to Sync).
 */
static void
exec_failed(Backend *be, const ErrorData *e, const char *query)
{
    Port *port = &be->port;

    tdb_pq_discard_partial(port);
    be->ext->ignoring = true;
    if (port->broken) {
        be->terminate = true;
        return;
    }
    if (port->stopped || (atomic_load(&be->srv->shutting_down) &&
                          e->sqlerrcode == ERRCODE_QUERY_CANCELED)) {
        port->stopped = true; /* backend.c sends the FATAL and leaves */
        return;
    }
    tdb_server_log(be->pid, "ERROR", "%s", e->message);
    if (query != NULL)
        tdb_server_log(be->pid, "STATEMENT", "%s", query);
    tdb_backend_send_error(be, e, 0);
}

/* An error of the protocol layer itself: ERROR, the transaction ends as
 * for any error, skip to Sync. */
TDB_PRINTF(3, 4)
static void
ext_error(Backend *be, int sqlerrcode, const char *fmt, ...)
{
    ErrorData e;
    va_list args;

    memset(&e, 0, sizeof(e));
    e.elevel = ERROR;
    e.sqlerrcode = sqlerrcode;
    va_start(args, fmt);
    (void)vsnprintf(e.message, sizeof(e.message), fmt, args);
    va_end(args);
    tdb_server_log(be->pid, "ERROR", "%s", e.message);
    tdb_backend_send_error(be, &e, 0);
    tdb_session_fail(be->session);
    be->ext->ignoring = true;
}

static void
invalid_format(Backend *be)
{
    ext_error(be, SRV_ERRCODE_PROTOCOL_VIOLATION, "invalid message format");
}

/* ----------------------------------------------------------------------
 * Messages
 * ---------------------------------------------------------------------- */

/*
 * A statement or portal name.  PostgreSQL checks each string of a message
 * as it reads it: one that is not UTF-8 raises 22021, which
 * tdb_extended_message reports as this layer's errors (a query text is
 * checked by the session).
 */
static const char *
get_name(PqMsg *m)
{
    const char *name = tdb_pq_get_string(m);

    if (name[0] != '\0') /* most are: the unnamed statement and portal */
        tdb_utf8_check(name, strlen(name));
    return name;
}

/* 'P' Parse: name, query, Int16 n, n x Int32 type OIDs. */
static void
handle_parse(Backend *be, PqMsg *m)
{
    ExtendedState *ext = be->ext;
    const char *name = get_name(m);
    const char *query = tdb_pq_get_string(m);
    int ntypes = tdb_pq_get_int16(m);
    Oid *types;
    PreparedStatement *ps;
    ExtStatement *s;
    RemoteReceiver r;
    ErrorData error;

    if (ntypes < 0) {
        invalid_format(be);
        return;
    }
    types = tdb_palloc(sizeof(Oid) * (Size)Max(1, ntypes));
    for (int i = 0; i < ntypes; i++)
        types[i] = (Oid)tdb_pq_get_int32(m);
    if (!tdb_pq_get_end(m)) {
        invalid_format(be);
        return;
    }
    /* a new unnamed statement replaces the old even if it fails */
    if (name[0] == '\0')
        drop_stmt(ext, "");
    else if (find_stmt(ext, name) != NULL) {
        ext_error(be, SRV_ERRCODE_DUPLICATE_PSTATEMENT,
                  "prepared statement \"%s\" already exists", name);
        return;
    }
    for (int i = 0; i < ntypes; i++)
        if (types[i] != 0 && tdb_type_support(types[i]) == NULL) {
            ext_error(be, ERRCODE_UNDEFINED_OBJECT,
                      "type with OID %u does not exist", types[i]);
            return;
        }
    tdb_remote_receiver_init(&r, be);
    ps =
        tdb_session_prepare(be->session, query, types, ntypes, &r.base, &error);
    tdb_remote_receiver_done(&r);
    if (ps == NULL) {
        exec_failed(be, &error, query);
        return;
    }
    s = tdb_mcxt_alloc_zero(ext->cxt, sizeof(ExtStatement));
    s->name = tdb_mcxt_strdup(ext->cxt, name);
    s->query = tdb_mcxt_strdup(ext->cxt, query);
    s->ps = ps;
    s->next = ext->stmts;
    ext->stmts = s;
    tdb_pq_begin(&be->port, '1');
    tdb_pq_end(&be->port);
}

/* The "does not exist" error for a statement name. */
static void
no_such_stmt(Backend *be, const char *name)
{
    if (name[0] == '\0')
        ext_error(be, SRV_ERRCODE_UNDEFINED_PSTATEMENT,
                  "unnamed prepared statement does not exist");
    else
        ext_error(be, SRV_ERRCODE_UNDEFINED_PSTATEMENT,
                  "prepared statement \"%s\" does not exist", name);
}

static int16
result_format(const int16 *formats, int nformats, int i)
{
    if (nformats == 0)
        return 0;
    return nformats == 1 ? formats[0] : formats[i];
}

/*
 * 'B' Bind: portal, statement, Int16 n + n format codes, Int16 n + n
 * values (Int32 length, bytes), Int16 n + n result format codes.
 */
static void
handle_bind(Backend *be, PqMsg *m)
{
    ExtendedState *ext = be->ext;
    const char *portal_name = get_name(m);
    const char *stmt_name = get_name(m);
    int nformats, nvalues, nresults;
    int16 *formats, *results;
    BindValue *values;
    const StatementDescription *desc;
    ExtStatement *s;
    ExtPortal *ep;
    Portal *portal;
    RemoteReceiver r;
    ErrorData error;

    nformats = tdb_pq_get_int16(m);
    formats = tdb_palloc(sizeof(int16) * (Size)Max(1, nformats));
    for (int i = 0; i < nformats; i++)
        formats[i] = tdb_pq_get_int16(m);
    nvalues = tdb_pq_get_int16(m);
    values = tdb_palloc0(sizeof(BindValue) * (Size)Max(1, nvalues));
    for (int i = 0; i < nvalues && !m->bad; i++) {
        int32 len = tdb_pq_get_int32(m);

        values[i].len = len;
        if (len > 0)
            values[i].data = tdb_pq_get_bytes(m, len);
        else if (len == 0)
            values[i].data = "";
        else if (len < -1)
            m->bad = true;
    }
    nresults = tdb_pq_get_int16(m);
    results = tdb_palloc(sizeof(int16) * (Size)Max(1, nresults));
    for (int i = 0; i < nresults; i++)
        results[i] = tdb_pq_get_int16(m);
    if (nformats < 0 || nvalues < 0 || nresults < 0 || !tdb_pq_get_end(m)) {
        invalid_format(be);
        return;
    }
    s = find_stmt(ext, stmt_name);
    if (s == NULL) {
        no_such_stmt(be, stmt_name);
        return;
    }
    if (nformats > 1 && nformats != nvalues) {
        ext_error(be, SRV_ERRCODE_PROTOCOL_VIOLATION,
                  "bind message has %d parameter formats but %d parameters",
                  nformats, nvalues);
        return;
    }
    desc = tdb_prepared_describe(s->ps);
    if (nvalues != desc->nparams) {
        ext_error(be, SRV_ERRCODE_PROTOCOL_VIOLATION,
                  "bind message supplies %d parameters, but prepared "
                  "statement \"%s\" requires %d",
                  nvalues, s->name, desc->nparams);
        return;
    }
    for (int i = 0; i < nvalues; i++)
        values[i].format = result_format(formats, nformats, i);
    for (int i = 0; i < nresults; i++)
        if (results[i] != 0 && results[i] != 1) {
            ext_error(be, SRV_ERRCODE_PROTOCOL_VIOLATION,
                      "unsupported format code: %d", results[i]);
            return;
        }
    if (portal_name[0] != '\0' && find_portal(ext, portal_name) != NULL) {
        ext_error(be, SRV_ERRCODE_DUPLICATE_CURSOR,
                  "cursor \"%s\" already exists", portal_name);
        return;
    }
    drop_portal(ext, portal_name); /* the unnamed one, if any */
    tdb_remote_receiver_init(&r, be);
    portal = tdb_session_bind(be->session, s->ps, portal_name, values, nvalues,
                              &r.base, &error);
    tdb_remote_receiver_done(&r);
    if (portal == NULL) {
        exec_failed(be, &error, s->query);
        return;
    }
    desc = tdb_portal_describe(portal);
    if (desc->result != NULL) {
        if (nresults > 1 && nresults != desc->result->natts) {
            tdb_portal_drop(portal);
            ext_error(be, SRV_ERRCODE_PROTOCOL_VIOLATION,
                      "bind message has %d result formats but query has %d "
                      "columns",
                      nresults, desc->result->natts);
            return;
        }
        for (int i = 0; i < desc->result->natts; i++) {
            Oid typid = TupleDescAttr(desc->result, i)->atttypid;

            if (result_format(results, nresults, i) == 1 &&
                !tdb_type_has_binary(typid)) {
                tdb_portal_drop(portal);
                ext_error(be, ERRCODE_FEATURE_NOT_SUPPORTED,
                          "no binary output function available for type %s",
                          tdb_format_type(typid, -1));
                return;
            }
        }
    }
    ep = tdb_mcxt_alloc_zero(ext->cxt, sizeof(ExtPortal));
    ep->name = tdb_mcxt_strdup(ext->cxt, portal_name);
    ep->query = tdb_mcxt_strdup(ext->cxt, s->query);
    ep->portal = portal;
    ep->nformats = nresults;
    ep->formats =
        tdb_mcxt_alloc(ext->cxt, sizeof(int16) * (Size)Max(1, nresults));
    memcpy(ep->formats, results, sizeof(int16) * (Size)nresults);
    ep->next = ext->portals;
    ext->portals = ep;
    tdb_pq_begin(&be->port, '2');
    tdb_pq_end(&be->port);
}

static void
send_rowdesc(Backend *be, const StatementDescription *desc,
             const int16 *formats, int nformats)
{
    RemoteReceiver r;

    memset(&r, 0, sizeof(r));
    r.be = be;
    r.formats = formats;
    r.nformats = nformats;
    r.origtbl = desc->origtbl;
    r.origcol = desc->origcol;
    tdb_remote_send_rowdesc(&r, desc->result);
}

static void
send_nodata(Backend *be)
{
    tdb_pq_begin(&be->port, 'n');
    tdb_pq_end(&be->port);
}

/* 'D' Describe: 'S' or 'P', name. */
static void
handle_describe(Backend *be, PqMsg *m)
{
    int kind = tdb_pq_get_byte(m);
    const char *name = get_name(m);

    if (!tdb_pq_get_end(m)) {
        invalid_format(be);
        return;
    }
    if (kind == 'S') {
        ExtStatement *s = find_stmt(be->ext, name);
        const StatementDescription *desc;

        if (s == NULL) {
            no_such_stmt(be, name);
            return;
        }
        desc = tdb_prepared_describe(s->ps);
        tdb_pq_begin(&be->port, 't');
        tdb_pq_put_int16(&be->port, desc->nparams);
        for (int i = 0; i < desc->nparams; i++)
            tdb_pq_put_int32(&be->port, (int32)desc->paramtypes[i]);
        tdb_pq_end(&be->port);
        if (desc->result != NULL)
            send_rowdesc(be, desc, NULL, 0);
        else
            send_nodata(be);
    } else if (kind == 'P') {
        ExtPortal *p = find_portal(be->ext, name);
        const StatementDescription *desc;

        if (p == NULL) {
            ext_error(be, SRV_ERRCODE_INVALID_CURSOR_NAME,
                      "portal \"%s\" does not exist", name);
            return;
        }
        desc = tdb_portal_describe(p->portal);
        if (desc->result != NULL)
            send_rowdesc(be, desc, p->formats, p->nformats);
        else
            send_nodata(be);
    } else
        ext_error(be, SRV_ERRCODE_PROTOCOL_VIOLATION,
                  "invalid DESCRIBE message subtype %d", kind);
}

/* 'E' Execute: portal, Int32 row limit (0 = all). */
static void
handle_execute(Backend *be, PqMsg *m)
{
    const char *name = get_name(m);
    int32 limit = tdb_pq_get_int32(m);
    ExtPortal *p;
    RemoteReceiver r;
    ErrorData error;
    PortalRunResult result;

    if (!tdb_pq_get_end(m)) {
        invalid_format(be);
        return;
    }
    p = find_portal(be->ext, name);
    if (p == NULL || tdb_portal_is_dead(p->portal)) {
        ext_error(be, SRV_ERRCODE_INVALID_CURSOR_NAME,
                  "portal \"%s\" does not exist", name);
        return;
    }
    tdb_remote_receiver_init(&r, be);
    r.send_rowdesc = false;
    r.formats = p->formats;
    r.nformats = p->nformats;
    result =
        tdb_session_execute(be->session, p->portal, limit, &r.base, &error);
    tdb_remote_receiver_done(&r);
    switch (result) {
    case PORTAL_RUN_FAILED: {
        char *query = tdb_pstrdup(p->query);

        /* a failed portal is gone, as in PostgreSQL */
        drop_portal(be->ext, name);
        exec_failed(be, &error, query);
        return;
    }
    case PORTAL_RUN_EMPTY:
        tdb_pq_begin(&be->port, 'I');
        tdb_pq_end(&be->port);
        return;
    case PORTAL_RUN_SUSPENDED:
        tdb_pq_begin(&be->port, 's');
        tdb_pq_end(&be->port);
        return;
    case PORTAL_RUN_DONE:
        return; /* the receiver sent CommandComplete */
    }
}

/* 'C' Close: 'S' or 'P', name. */
static void
handle_close(Backend *be, PqMsg *m)
{
    int kind = tdb_pq_get_byte(m);
    const char *name = get_name(m);

    if (!tdb_pq_get_end(m)) {
        invalid_format(be);
        return;
    }
    if (kind == 'S')
        drop_stmt(be->ext, name);
    else if (kind == 'P')
        drop_portal(be->ext, name);
    else {
        ext_error(be, SRV_ERRCODE_PROTOCOL_VIOLATION,
                  "invalid CLOSE message subtype %d", kind);
        return;
    }
    tdb_pq_begin(&be->port, '3');
    tdb_pq_end(&be->port);
}

/* 'S' Sync: commit the implicit transaction; ReadyForQuery follows. */
static void
handle_sync(Backend *be, PqMsg *m)
{
    ErrorData error;

    if (!tdb_pq_get_end(m)) {
        /* the ReadyForQuery still comes: this is the Sync */
        invalid_format(be);
    }
    if (!tdb_session_sync(be->session, &error))
        exec_failed(be, &error, NULL);
    be->ext->ignoring = false;
}

bool
tdb_extended_message(Backend *be, PqMsg *m)
{
    ExtendedState *ext = be->ext;
    char type = m->type;

    if (type == 'H') {
        (void)tdb_pq_flush(&be->port);
        return false;
    }
    TDB_TRY();
    {
        switch (type) {
        case 'S':
            handle_sync(be, m);
            break;
        case 'P':
            handle_parse(be, m);
            break;
        case 'B':
            handle_bind(be, m);
            break;
        case 'D':
            handle_describe(be, m);
            break;
        case 'E':
            handle_execute(be, m);
            break;
        case 'C':
            handle_close(be, m);
            break;
        default:
            elog(ERROR, "unexpected extended-protocol message %c", type);
        }
    }
    TDB_CATCH();
    {
        /* out of memory in this layer, or a name that is not UTF-8 */
        ErrorData e = *tdb_error_current();

        tdb_error_flush();
        tdb_pq_discard_partial(&be->port);
        tdb_server_log(be->pid, "ERROR", "%s", e.message);
        tdb_backend_send_error(be, &e, 0);
        tdb_session_fail(be->session);
        ext->ignoring = type != 'S';
    }
    TDB_END_TRY();
    return type == 'S';
}
