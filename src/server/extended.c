/*
 * extended.c -- the extended query protocol, first step: statements
 * without parameters, named and unnamed, with text results.
 *
 *   Parse 'P'     parse the text now (syntax errors and "cannot insert
 *                 multiple commands into a prepared statement" come back
 *                 here, as in PostgreSQL); count its parameters (the
 *                 declared types and the $n in the parse tree); keep the
 *                 text under its name ("" = the unnamed statement, which
 *                 the next unnamed Parse or any simple Query replaces)
 *   Bind 'B'      check the parameter count (08P01) and the format codes;
 *                 make a portal ("" = unnamed) for the statement
 *   Describe 'D'  S: ParameterDescription, then RowDescription or NoData;
 *                 P: RowDescription (with the Bind's format codes) or
 *                 NoData
 *   Execute 'E'   DataRows and CommandComplete, or EmptyQueryResponse,
 *                 or PortalSuspended when the row limit is reached
 *   Sync 'S'      ReadyForQuery; ends the error skip
 *   Flush 'H'     send what is buffered
 *   Close 'C'     drop a statement or portal (unknown names are fine)
 *
 * After an error every message up to Sync is skipped (backend.c asks
 * tdb_extended_ignoring).
 *
 * How a portal runs: the session has no API yet to plan a statement
 * without running it, or to run it a few rows at a time, so a portal
 * runs whole through tdb_session_exec the first time it is described or
 * executed, and its rows are kept (as DataRow bodies) in the portal's
 * memory; Describe answers from the kept row description and Execute
 * sends kept rows, up to its row limit (PortalSuspended when rows remain,
 * "SELECT n" counting the rows of that Execute).  Consequences, until
 * the session grows prepare/bind/execute: a statement's effects happen
 * at Describe P rather than Execute; a portal's whole result is held in
 * memory; and each portal commits on its own outside a transaction block
 * (PostgreSQL commits at Sync).  Describe S of a statement that returns
 * rows learns its columns by starting it with a receiver that stops it
 * before the first row; that is done only outside a transaction block
 * (the stop is an error, which would fail the block), and for statements
 * without parameters.
 *
 * Not yet: parameters (Bind with values is 0A000), binary result
 * formats (0A000), the COPY sub-protocol, FunctionCall.
 *
 * Memory: every statement and portal has a context of its own under
 * ExtendedState.cxt (the connection's), deleted when it is dropped.
 */
#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "server/server_int.h"
#include "sql/parser.h"
#include "types/builtins.h"

/* Does a statement send rows?  (Decided from its parse tree.) */
typedef enum RowKind {
    ROWS_NONE, /* utility statements, INSERT/UPDATE/DELETE without
                * RETURNING */
    ROWS_SOME  /* SELECT, VALUES, SHOW, EXPLAIN, ... RETURNING */
} RowKind;

typedef struct PreparedStmt {
    struct PreparedStmt *next;
    MemoryContext cxt;
    char *name;        /* "" for the unnamed statement */
    char *query;
    bool empty;        /* no statement at all: Execute says 'I' */
    RowKind row_kind;
    bool is_txn_exit;  /* COMMIT / ROLLBACK [TO]: allowed in a failed block */
    int nparams;
    Oid *paramtypes;   /* nparams entries; 0 = not given */
} PreparedStmt;

typedef struct Portal {
    struct Portal *next;
    MemoryContext cxt;
    char *name;        /* "" for the unnamed portal */
    char *query;
    bool empty;
    int nformats;      /* result format codes from Bind */
    int16 *formats;
    bool ran;          /* the statement has run; what follows is kept */
    bool has_rows;     /* it sent a row description */
    TupleDesc desc;    /* its columns (in cxt), if has_rows */
    char *rowdata;     /* the DataRow bodies, back to back */
    size_t rowlen, rowcap;
    size_t *rowends;   /* end offset of each row in rowdata */
    int64 nrows, rowscap;
    int64 next_row;    /* the next row Execute sends */
    char tag[64];      /* its CommandComplete tag */
} Portal;

struct ExtendedState {
    MemoryContext cxt;
    bool ignoring;     /* an error happened: skip until Sync */
    PreparedStmt *stmts;
    Portal *portals;
};

/* ----------------------------------------------------------------------
 * Statements and portals
 * ---------------------------------------------------------------------- */

static PreparedStmt *
find_stmt(ExtendedState *ext, const char *name)
{
    for (PreparedStmt *s = ext->stmts; s != NULL; s = s->next)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

static void
drop_stmt(ExtendedState *ext, const char *name)
{
    for (PreparedStmt **p = &ext->stmts; *p != NULL; p = &(*p)->next) {
        if (strcmp((*p)->name, name) == 0) {
            PreparedStmt *s = *p;

            *p = s->next;
            tdb_mcxt_delete(s->cxt);
            return;
        }
    }
}

static Portal *
find_portal(ExtendedState *ext, const char *name)
{
    for (Portal *p = ext->portals; p != NULL; p = p->next)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

static void
drop_portal(ExtendedState *ext, const char *name)
{
    for (Portal **p = &ext->portals; *p != NULL; p = &(*p)->next) {
        if (strcmp((*p)->name, name) == 0) {
            Portal *portal = *p;

            *p = portal->next;
            tdb_mcxt_delete(portal->cxt);
            return;
        }
    }
}

/* Portals end with their transaction. */
static void
drop_all_portals(ExtendedState *ext)
{
    while (ext->portals != NULL)
        drop_portal(ext, ext->portals->name);
}

void
tdb_extended_init(Backend *be)
{
    ExtendedState *ext = tdb_mcxt_alloc_zero(be->cxt, sizeof(ExtendedState));

    ext->cxt = tdb_aset_create(be->cxt, "Extended protocol",
                               ALLOCSET_SMALL_SIZES);
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
    if (be->ext != NULL && tdb_session_transaction_status(be->session) == 'I')
        drop_all_portals(be->ext);
}

/* ----------------------------------------------------------------------
 * Parse trees
 * ---------------------------------------------------------------------- */

/*
 * The highest $n in a parse tree, found by walking every message field
 * through protobuf-c's descriptors (so no node type is forgotten).
 */
static int
max_param_number(const ProtobufCMessage *msg)
{
    const ProtobufCMessageDescriptor *d = msg->descriptor;
    int max = 0;

    if (d == &pg_query__param_ref__descriptor)
        return ((const PgQuery__ParamRef *)msg)->number;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        const char *base = (const char *)msg;

        if (f->type != PROTOBUF_C_TYPE_MESSAGE)
            continue;
        if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
            uint32 which = *(const uint32 *)(base + f->quantifier_offset);

            if (which != f->id)
                continue;
        }
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)(base + f->quantifier_offset);
            ProtobufCMessage *const *items =
                *(ProtobufCMessage *const *const *)(base + f->offset);

            for (size_t j = 0; j < n; j++)
                if (items[j] != NULL)
                    max = Max(max, max_param_number(items[j]));
        } else {
            const ProtobufCMessage *sub =
                *(const ProtobufCMessage *const *)(base + f->offset);

            if (sub != NULL)
                max = Max(max, max_param_number(sub));
        }
    }
    return max;
}

static RowKind
row_kind_of(const PgQuery__Node *node)
{
    switch (node->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
    case PG_QUERY__NODE__NODE_FETCH_STMT:
        return ROWS_SOME;
    case PG_QUERY__NODE__NODE_INSERT_STMT:
        return node->insert_stmt->n_returning_list > 0 ? ROWS_SOME
                                                        : ROWS_NONE;
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
        return node->update_stmt->n_returning_list > 0 ? ROWS_SOME
                                                        : ROWS_NONE;
    case PG_QUERY__NODE__NODE_DELETE_STMT:
        return node->delete_stmt->n_returning_list > 0 ? ROWS_SOME
                                                        : ROWS_NONE;
    default:
        return ROWS_NONE;
    }
}

/* PostgreSQL's IsTransactionExitStmt. */
static bool
is_txn_exit(const PgQuery__Node *node)
{
    if (node->node_case != PG_QUERY__NODE__NODE_TRANSACTION_STMT)
        return false;
    switch (node->transaction_stmt->kind) {
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_PREPARE:
        return true;
    default:
        return false;
    }
}

/* ----------------------------------------------------------------------
 * Running a portal into memory
 * ---------------------------------------------------------------------- */

/* Keeps a statement's results in its portal (see the file header). */
typedef struct KeepReceiver {
    DestReceiver base;
    Backend *be;
    Portal *portal;      /* NULL: describing only, stop at startup */
    TupleDesc desc;      /* what startup saw (describing) */
    MemoryContext desc_cxt;
    MemoryContext row_cxt;
    int ncompleted;
} KeepReceiver;

/* The error that stops a statement once its columns are known. */
#define DESCRIBE_STOP_MESSAGE "describe: stopped after the row description"

static void
keep_startup(DestReceiver *self, TupleDesc desc)
{
    KeepReceiver *r = (KeepReceiver *)self;
    MemoryContext target = r->portal != NULL ? r->portal->cxt : r->desc_cxt;
    MemoryContext old = tdb_mcxt_switch_to(target);

    r->desc = tdb_tupdesc_copy(desc);
    tdb_mcxt_switch_to(old);
    if (r->portal != NULL) {
        r->portal->desc = r->desc;
        r->portal->has_rows = true;
        return;
    }
    ereport(ERROR, errcode(ERRCODE_QUERY_CANCELED),
            errmsg(DESCRIBE_STOP_MESSAGE));
}

static void
keep_bytes(Portal *p, const void *data, size_t n)
{
    if (p->rowlen + n > p->rowcap) {
        size_t cap = Max(p->rowcap * 2, (size_t)8192);

        while (cap < p->rowlen + n)
            cap *= 2;
        p->rowdata = p->rowdata == NULL
                         ? tdb_mcxt_alloc_extended(p->cxt, cap,
                                                   MCXT_ALLOC_HUGE)
                         : tdb_repalloc_extended(p->rowdata, cap,
                                                 MCXT_ALLOC_HUGE);
        p->rowcap = cap;
    }
    memcpy(p->rowdata + p->rowlen, data, n);
    p->rowlen += n;
}

static void
keep_int(Portal *p, uint32 v, int bytes)
{
    unsigned char b[4];

    for (int i = 0; i < bytes; i++)
        b[i] = (unsigned char)(v >> (8 * (bytes - 1 - i)));
    keep_bytes(p, b, (size_t)bytes);
}

static void
keep_receive(DestReceiver *self, TupleTableSlot *slot)
{
    KeepReceiver *r = (KeepReceiver *)self;
    Portal *p = r->portal;
    MemoryContext old = tdb_mcxt_switch_to(r->row_cxt);
    int natts = p->desc->natts;

    tdb_slot_getallattrs(slot);
    keep_int(p, (uint32)natts, 2);
    for (int i = 0; i < natts; i++) {
        const char *value;
        size_t len;

        if (slot->tts_isnull[i]) {
            keep_int(p, (uint32)-1, 4);
            continue;
        }
        value = tdb_type_output(TupleDescAttr(p->desc, i)->atttypid,
                                slot->tts_values[i]);
        len = strlen(value);
        keep_int(p, (uint32)len, 4);
        keep_bytes(p, value, len);
    }
    if (p->nrows == p->rowscap) {
        int64 cap = Max(p->rowscap * 2, (int64)64);

        p->rowends = p->rowends == NULL
                         ? tdb_mcxt_alloc_extended(
                               p->cxt, (Size)cap * sizeof(size_t),
                               MCXT_ALLOC_HUGE)
                         : tdb_repalloc_extended(p->rowends,
                                                 (Size)cap * sizeof(size_t),
                                                 MCXT_ALLOC_HUGE);
        p->rowscap = cap;
    }
    p->rowends[p->nrows++] = p->rowlen;
    tdb_mcxt_switch_to(old);
    tdb_mcxt_reset(r->row_cxt);
}

static void
keep_complete(DestReceiver *self, const char *tag)
{
    KeepReceiver *r = (KeepReceiver *)self;

    r->ncompleted++;
    if (r->portal != NULL)
        snprintf(r->portal->tag, sizeof(r->portal->tag), "%s", tag);
}

static void
keep_notice(DestReceiver *self, const ErrorData *edata)
{
    /* notices go to the client at once, as during a simple Query */
    tdb_backend_send_notice(((KeepReceiver *)self)->be, edata);
}

static void
keep_receiver_init(KeepReceiver *r, Backend *be, Portal *portal,
                   MemoryContext desc_cxt)
{
    memset(r, 0, sizeof(*r));
    r->base.startup = keep_startup;
    r->base.receive = keep_receive;
    r->base.complete = keep_complete;
    r->base.notice = keep_notice;
    r->be = be;
    r->portal = portal;
    r->desc_cxt = desc_cxt;
    r->row_cxt = tdb_aset_create(be->cxt, "kept row", ALLOCSET_SMALL_SIZES);
}

/*
 * A failed tdb_session_exec: end the connection if it broke or the
 * server is stopping, else send the error (and skip to Sync).
 */
static void
exec_failed(Backend *be, const ErrorData *e, const char *query)
{
    Port *port = &be->port;

    tdb_pq_discard_partial(port);
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
    tdb_server_log(be->pid, "STATEMENT", "%s", query);
    tdb_backend_send_error(be, e, 0);
    be->ext->ignoring = true;
}

/*
 * Run a portal's statement, keeping its results.  False after an error;
 * the portal has then been dropped.
 */
static bool
run_portal(Backend *be, Portal *p)
{
    KeepReceiver r;
    ErrorData error;
    bool ok;

    keep_receiver_init(&r, be, p, NULL);
    ok = tdb_session_exec(be->session, p->query, &r.base, &error);
    tdb_mcxt_delete(r.row_cxt);
    p->ran = true;
    if (!ok) {
        /* a failed portal is gone, as in PostgreSQL */
        char *name = tdb_pstrdup(p->name);

        exec_failed(be, &error, p->query);
        drop_portal(be->ext, name);
        return false;
    }
    return true;
}

/* ----------------------------------------------------------------------
 * Messages
 * ---------------------------------------------------------------------- */

/* An error of the protocol layer itself: ERROR, skip to Sync. */
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
    be->ext->ignoring = true;
}

static void
invalid_format(Backend *be)
{
    ext_error(be, SRV_ERRCODE_PROTOCOL_VIOLATION, "invalid message format");
}

/* 'P' Parse: name, query, Int16 n, n x Int32 type OIDs. */
static void
handle_parse(Backend *be, PqMsg *m)
{
    ExtendedState *ext = be->ext;
    const char *name = tdb_pq_get_string(m);
    const char *query = tdb_pq_get_string(m);
    int ntypes = tdb_pq_get_int16(m);
    PreparedStmt *s;
    MemoryContext cxt, old;
    ParsedScript *script;

    if (ntypes < 0) {
        invalid_format(be);
        return;
    }
    /* a new unnamed statement replaces the old even if it fails */
    if (name[0] == '\0')
        drop_stmt(ext, "");
    cxt = tdb_aset_create(ext->cxt, "Prepared statement",
                          ALLOCSET_SMALL_SIZES);
    s = tdb_mcxt_alloc_zero(cxt, sizeof(PreparedStmt));
    s->cxt = cxt;
    s->paramtypes = tdb_mcxt_alloc_zero(
        cxt, sizeof(Oid) * (Size)Max(1, ntypes));
    for (int i = 0; i < ntypes; i++)
        s->paramtypes[i] = (Oid)tdb_pq_get_int32(m);
    if (!tdb_pq_get_end(m)) {
        tdb_mcxt_delete(cxt);
        invalid_format(be);
        return;
    }
    if (name[0] != '\0' && find_stmt(ext, name) != NULL) {
        tdb_mcxt_delete(cxt);
        ext_error(be, SRV_ERRCODE_DUPLICATE_PSTATEMENT,
                  "prepared statement \"%s\" already exists", name);
        return;
    }
    s->name = tdb_mcxt_strdup(cxt, name);
    s->query = tdb_mcxt_strdup(cxt, query);
    s->nparams = ntypes;

    /* Syntax errors belong to Parse (tdb_extended_message reports them) */
    old = tdb_mcxt_switch_to(cxt);
    TDB_TRY();
    {
        script = tdb_sql_parse(query);
    }
    TDB_CATCH();
    {
        tdb_mcxt_switch_to(old);
        tdb_mcxt_delete(cxt);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    tdb_mcxt_switch_to(old);
    if (script->nstatements > 1) {
        tdb_mcxt_delete(cxt);
        ext_error(be, ERRCODE_SYNTAX_ERROR,
                  "cannot insert multiple commands into a prepared "
                  "statement");
        return;
    }
    if (script->nstatements == 0)
        s->empty = true;
    else {
        const PgQuery__Node *node = script->statements[0].stmt;
        int maxparam = max_param_number(&node->base);

        s->row_kind = row_kind_of(node);
        s->is_txn_exit = is_txn_exit(node);
        if (maxparam > s->nparams) {
            Oid *types = tdb_mcxt_alloc_zero(cxt, sizeof(Oid) *
                                                      (Size)maxparam);

            memcpy(types, s->paramtypes, sizeof(Oid) * (Size)s->nparams);
            s->paramtypes = types;
            s->nparams = maxparam;
        }
    }
    if (tdb_session_transaction_status(be->session) == 'E' && !s->empty &&
        !s->is_txn_exit) {
        tdb_mcxt_delete(cxt);
        ext_error(be, ERRCODE_IN_FAILED_SQL_TRANSACTION,
                  "current transaction is aborted, commands ignored until "
                  "end of transaction block");
        return;
    }
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

/*
 * 'B' Bind: portal, statement, Int16 n + n format codes, Int16 n + n
 * values (Int32 length, bytes), Int16 n + n result format codes.
 */
static void
handle_bind(Backend *be, PqMsg *m)
{
    ExtendedState *ext = be->ext;
    const char *portal_name = tdb_pq_get_string(m);
    const char *stmt_name = tdb_pq_get_string(m);
    int nformats, nvalues, nresults;
    int16 *results;
    PreparedStmt *s;
    Portal *p;
    MemoryContext cxt;

    nformats = tdb_pq_get_int16(m);
    for (int i = 0; i < nformats; i++)
        (void)tdb_pq_get_int16(m);
    nvalues = tdb_pq_get_int16(m);
    for (int i = 0; i < nvalues && !m->bad; i++) {
        int32 len = tdb_pq_get_int32(m);

        if (len > 0)
            (void)tdb_pq_get_bytes(m, len);
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
    if (nvalues != s->nparams) {
        ext_error(be, SRV_ERRCODE_PROTOCOL_VIOLATION,
                  "bind message supplies %d parameters, but prepared "
                  "statement \"%s\" requires %d",
                  nvalues, s->name, s->nparams);
        return;
    }
    if (tdb_session_transaction_status(be->session) == 'E' && !s->empty &&
        !s->is_txn_exit) {
        ext_error(be, ERRCODE_IN_FAILED_SQL_TRANSACTION,
                  "current transaction is aborted, commands ignored until "
                  "end of transaction block");
        return;
    }
    if (nvalues > 0) {
        ext_error(be, ERRCODE_FEATURE_NOT_SUPPORTED,
                  "parameters of the extended query protocol are not "
                  "supported yet");
        return;
    }
    for (int i = 0; i < nresults; i++) {
        if (results[i] != 0 && results[i] != 1) {
            ext_error(be, SRV_ERRCODE_PROTOCOL_VIOLATION,
                      "unsupported format code: %d", results[i]);
            return;
        }
        if (results[i] == 1) {
            ext_error(be, ERRCODE_FEATURE_NOT_SUPPORTED,
                      "binary result format is not supported yet");
            return;
        }
    }
    if (portal_name[0] != '\0' && find_portal(ext, portal_name) != NULL) {
        ext_error(be, SRV_ERRCODE_DUPLICATE_CURSOR,
                  "cursor \"%s\" already exists", portal_name);
        return;
    }
    drop_portal(ext, portal_name); /* the unnamed one, if any */
    cxt = tdb_aset_create(ext->cxt, "Portal", ALLOCSET_DEFAULT_SIZES);
    p = tdb_mcxt_alloc_zero(cxt, sizeof(Portal));
    p->cxt = cxt;
    p->name = tdb_mcxt_strdup(cxt, portal_name);
    p->query = tdb_mcxt_strdup(cxt, s->query);
    p->empty = s->empty;
    p->nformats = nresults;
    p->formats = tdb_mcxt_alloc(cxt, sizeof(int16) * (Size)Max(1, nresults));
    memcpy(p->formats, results, sizeof(int16) * (Size)nresults);
    p->next = ext->portals;
    ext->portals = p;
    tdb_pq_begin(&be->port, '2');
    tdb_pq_end(&be->port);
}

static void
send_rowdesc(Backend *be, TupleDesc desc, const int16 *formats, int nformats)
{
    RemoteReceiver r;

    memset(&r, 0, sizeof(r));
    r.be = be;
    r.formats = formats;
    r.nformats = nformats;
    tdb_remote_send_rowdesc(&r, desc);
}

static void
send_nodata(Backend *be)
{
    tdb_pq_begin(&be->port, 'n');
    tdb_pq_end(&be->port);
}

/* Describe S: learn the columns by starting the statement (header). */
static void
describe_stmt(Backend *be, PreparedStmt *s)
{
    KeepReceiver r;
    ErrorData error;
    MemoryContext cxt;
    bool ok;

    tdb_pq_begin(&be->port, 't');
    tdb_pq_put_int16(&be->port, s->nparams);
    for (int i = 0; i < s->nparams; i++)
        tdb_pq_put_int32(&be->port, s->paramtypes[i] != 0
                                        ? (int32)s->paramtypes[i]
                                        : (int32)TEXTOID);
    tdb_pq_end(&be->port);
    if (s->empty || s->row_kind == ROWS_NONE) {
        send_nodata(be);
        return;
    }
    if (s->nparams > 0 ||
        tdb_session_transaction_status(be->session) != 'I') {
        ext_error(be, ERRCODE_FEATURE_NOT_SUPPORTED,
                  "describing the result of a prepared statement %s is not "
                  "supported yet",
                  s->nparams > 0 ? "with parameters"
                                 : "inside a transaction block");
        return;
    }
    cxt = tdb_aset_create(be->msg_cxt, "describe", ALLOCSET_SMALL_SIZES);
    keep_receiver_init(&r, be, NULL, cxt);
    ok = tdb_session_exec(be->session, s->query, &r.base, &error);
    tdb_mcxt_delete(r.row_cxt);
    if (r.desc != NULL)
        send_rowdesc(be, r.desc, NULL, 0);
    else if (!ok)
        exec_failed(be, &error, s->query);
    else
        send_nodata(be); /* it sent no rows after all */
    tdb_mcxt_delete(cxt);
}

/* 'D' Describe: 'S' or 'P', name. */
static void
handle_describe(Backend *be, PqMsg *m)
{
    int kind = tdb_pq_get_byte(m);
    const char *name = tdb_pq_get_string(m);

    if (!tdb_pq_get_end(m)) {
        invalid_format(be);
        return;
    }
    if (kind == 'S') {
        PreparedStmt *s = find_stmt(be->ext, name);

        if (s == NULL)
            no_such_stmt(be, name);
        else
            describe_stmt(be, s);
    } else if (kind == 'P') {
        Portal *p = find_portal(be->ext, name);

        if (p == NULL) {
            ext_error(be, SRV_ERRCODE_INVALID_CURSOR_NAME,
                      "portal \"%s\" does not exist", name);
            return;
        }
        if (p->empty) {
            send_nodata(be);
            return;
        }
        if (!p->ran && !run_portal(be, p))
            return;
        if (p->has_rows)
            send_rowdesc(be, p->desc, p->formats, p->nformats);
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
    const char *name = tdb_pq_get_string(m);
    int32 limit = tdb_pq_get_int32(m);
    Port *port = &be->port;
    Portal *p;
    int64 nsend, first;

    if (!tdb_pq_get_end(m)) {
        invalid_format(be);
        return;
    }
    p = find_portal(be->ext, name);
    if (p == NULL) {
        ext_error(be, SRV_ERRCODE_INVALID_CURSOR_NAME,
                  "portal \"%s\" does not exist", name);
        return;
    }
    if (p->empty) {
        tdb_pq_begin(port, 'I');
        tdb_pq_end(port);
        return;
    }
    if (!p->ran && !run_portal(be, p))
        return;
    if (!p->has_rows) {
        tdb_pq_begin(port, 'C');
        tdb_pq_put_string(port, p->tag);
        tdb_pq_end(port);
        return;
    }
    first = p->next_row;
    nsend = p->nrows - first;
    if (limit > 0 && limit < nsend)
        nsend = limit;
    for (int64 i = first; i < first + nsend && !port->broken; i++) {
        size_t start = i == 0 ? 0 : p->rowends[i - 1];

        tdb_pq_begin(port, 'D');
        tdb_pq_put_bytes(port, p->rowdata + start, p->rowends[i] - start);
        tdb_pq_end(port);
    }
    p->next_row = first + nsend;
    if (p->next_row < p->nrows) {
        tdb_pq_begin(port, 's');
        tdb_pq_end(port);
        return;
    }
    tdb_pq_begin(port, 'C');
    if (strncmp(p->tag, "SELECT ", 7) == 0) {
        char tag[64];

        /* PostgreSQL counts the rows of this Execute only */
        snprintf(tag, sizeof(tag), "SELECT %lld", (long long)nsend);
        tdb_pq_put_string(port, tag);
    } else
        tdb_pq_put_string(port, p->tag);
    tdb_pq_end(port);
}

/* 'C' Close: 'S' or 'P', name. */
static void
handle_close(Backend *be, PqMsg *m)
{
    int kind = tdb_pq_get_byte(m);
    const char *name = tdb_pq_get_string(m);

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

bool
tdb_extended_message(Backend *be, PqMsg *m)
{
    ExtendedState *ext = be->ext;
    char type = m->type;

    if (type == 'S') {
        if (!tdb_pq_get_end(m)) {
            invalid_format(be);
            /* the ReadyForQuery still comes: this is the Sync */
        }
        ext->ignoring = false;
        return true;
    }
    if (type == 'H') {
        (void)tdb_pq_flush(&be->port);
        return false;
    }
    TDB_TRY();
    {
        switch (type) {
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
        /* a syntax error at Parse, or out of memory */
        ErrorData e = *tdb_error_current();

        tdb_error_flush();
        tdb_pq_discard_partial(&be->port);
        tdb_server_log(be->pid, "ERROR", "%s", e.message);
        tdb_backend_send_error(be, &e, 0);
        ext->ignoring = true;
    }
    TDB_END_TRY();
    return false;
}
