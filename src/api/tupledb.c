/*
 * tupledb.c -- the public C API (tupledb.h) over a Database and one
 * Session.
 *
 * tupledb_exec wraps the caller's callbacks in a DestReceiver that turns
 * each row into text with the columns' output functions (in a per-row
 * memory context, reset after the row is delivered) and forwards
 * notices; the session's error comes back as a tupledb_error.  Its
 * CopyChannel (executor/dest.h) hands COPY FROM STDIN / TO STDOUT data
 * to and from the copy_* callbacks.
 *
 * Memory: a handle owns a top-level memory context holding the session
 * and the database; the thread calling into the library gets its
 * thread-local memory-context state set up on first use.
 */
#include "common/base.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/tupledb.h"
#include "catalog/database.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "tcop/session.h"
#include "types/builtins.h"

struct tupledb {
    MemoryContext cxt;
    Database *db;
    Session *session;
};

/* The receiver handed to the session for one tupledb_exec call. */
typedef struct ApiReceiver {
    DestReceiver base;
    CopyChannel copy;       /* base.copy points here */
    const tupledb_callbacks *callbacks;
    void *arg;
    Session *session;  /* for client_min_messages */
    MemoryContext row_cxt;
    int ncolumns;
    Oid *typids;
    const char **values;
} ApiReceiver;

/* Make sure this thread has its memory-context state. */
static void
ensure_thread_state(void)
{
    if (tdb_top_mcxt == NULL)
        tdb_mcxt_thread_init();
}

static void
fill_error(tupledb_error *out, const ErrorData *e)
{
    tdb_sqlstate_unpack(e->sqlerrcode, out->sqlstate);
    out->severity = tdb_elevel_name(e->elevel);
    out->message = e->message;
    out->detail = e->detail[0] != '\0' ? e->detail : NULL;
    out->hint = e->hint[0] != '\0' ? e->hint : NULL;
    out->context = e->context[0] != '\0' ? e->context : NULL;
    out->position = e->cursorpos;
}

static void
api_startup(DestReceiver *self, TupleDesc desc)
{
    ApiReceiver *r = (ApiReceiver *)self;
    tupledb_column *cols = tdb_palloc0(sizeof(tupledb_column) *
                                       (Size)Max(1, desc->natts));

    r->ncolumns = desc->natts;
    r->typids = tdb_palloc(sizeof(Oid) * (Size)Max(1, desc->natts));
    r->values = tdb_palloc(sizeof(char *) * (Size)Max(1, desc->natts));
    for (int i = 0; i < desc->natts; i++) {
        const TupleAttr *att = TupleDescAttr(desc, i);

        cols[i].name = att->attname;
        cols[i].type_oid = att->atttypid;
        cols[i].typmod = att->atttypmod;
        r->typids[i] = att->atttypid;
    }
    if (r->callbacks->columns != NULL)
        r->callbacks->columns(r->arg, desc->natts, cols);
}

static void
api_receive(DestReceiver *self, TupleTableSlot *slot)
{
    ApiReceiver *r = (ApiReceiver *)self;
    MemoryContext old = tdb_mcxt_switch_to(r->row_cxt);

    tdb_slot_getallattrs(slot);
    for (int i = 0; i < r->ncolumns; i++)
        r->values[i] = slot->tts_isnull[i]
                           ? NULL
                           : tdb_type_output(r->typids[i],
                                             slot->tts_values[i]);
    if (r->callbacks->row != NULL)
        r->callbacks->row(r->arg, r->ncolumns, r->values);
    tdb_mcxt_switch_to(old);
    tdb_mcxt_reset(r->row_cxt);
}

static void
api_complete(DestReceiver *self, const char *tag)
{
    ApiReceiver *r = (ApiReceiver *)self;

    if (r->callbacks->complete != NULL)
        r->callbacks->complete(r->arg, tag);
}

static void
api_notice(DestReceiver *self, const ErrorData *edata)
{
    ApiReceiver *r = (ApiReceiver *)self;
    tupledb_error notice;

    if (r->callbacks->notice == NULL ||
        !tdb_guc_client_wants(tdb_session_settings(r->session), edata->elevel))
        return;
    fill_error(&notice, edata);
    r->callbacks->notice(r->arg, &notice);
}

/* ----- COPY data through the callbacks ----- */

static ApiReceiver *
receiver_of(CopyChannel *ch)
{
    return (ApiReceiver *)((char *)ch - offsetof(ApiReceiver, copy));
}

static void
api_copy_in_begin(CopyChannel *ch, int natts)
{
    ApiReceiver *r = receiver_of(ch);

    if (r->callbacks->copy_in == NULL)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("COPY FROM STDIN is not supported by this client"));
    if (r->callbacks->copy_start != NULL)
        r->callbacks->copy_start(r->arg, 1, natts);
}

static int
api_copy_in_read(CopyChannel *ch, char *buf, int size)
{
    ApiReceiver *r = receiver_of(ch);
    const char *fail = NULL;
    int n = r->callbacks->copy_in(r->arg, buf, size, &fail);

    if (n < 0 || n > size)
        ereport(ERROR, errcode(ERRCODE_QUERY_CANCELED),
                errmsg("COPY from stdin failed: %s",
                       fail != NULL ? fail : "aborted by the client"));
    return n;
}

static void
api_copy_out_begin(CopyChannel *ch, int natts)
{
    ApiReceiver *r = receiver_of(ch);

    if (r->callbacks->copy_out == NULL)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("COPY TO STDOUT is not supported by this client"));
    if (r->callbacks->copy_start != NULL)
        r->callbacks->copy_start(r->arg, 0, natts);
}

static void
api_copy_out_data(CopyChannel *ch, const char *data, int len)
{
    ApiReceiver *r = receiver_of(ch);

    r->callbacks->copy_out(r->arg, data, len);
}

static void
api_copy_out_end(CopyChannel *ch)
{
    (void)ch;
}

/*
 * A failed open's report for the caller: the message, then DETAIL and
 * HINT lines as psql prints a refused connection's.  malloc'd, not
 * palloc'd: the API hands it to the caller, who frees it with free()
 * after every memory context of the failed open is gone; NULL if even
 * that fails.
 */
static char *
open_error_text(const ErrorData *e)
{
    size_t len = strlen(e->message) + strlen(e->detail) + strlen(e->hint) +
                 sizeof("\nDETAIL:  \nHINT:  ");
    char *report = malloc(len);

    if (report != NULL)
        snprintf(report, len, "%s%s%s%s%s", e->message,
                 e->detail[0] != '\0' ? "\nDETAIL:  " : "", e->detail,
                 e->hint[0] != '\0' ? "\nHINT:  " : "", e->hint);
    return report;
}

int
tupledb_open(const char *path, tupledb **db_out, char **errmsg)
{
    volatile MemoryContext cxt = NULL;
    volatile int rc = 0;

    *db_out = NULL;
    ensure_thread_state();
    TDB_TRY();
    {
        tupledb *db;

        cxt = tdb_aset_create(NULL, "tupledb handle", ALLOCSET_SMALL_SIZES);
        db = tdb_mcxt_alloc_zero(cxt, sizeof(tupledb));
        db->cxt = cxt;
        db->db = tdb_database_open(path, NULL);
        db->session = tdb_session_create(db->db, cxt);
        *db_out = db;
    }
    TDB_CATCH();
    {
        if (errmsg != NULL)
            *errmsg = open_error_text(tdb_error_current());
        tdb_error_flush();
        if (cxt != NULL)
            tdb_mcxt_delete(cxt);
        rc = -1;
    }
    TDB_END_TRY();
    return rc;
}

int
tupledb_exec(tupledb *db, const char *sql, const tupledb_callbacks *callbacks,
             void *arg)
{
    static const tupledb_callbacks no_callbacks = {0};
    ApiReceiver r;
    ErrorData error;
    bool ok;

    ensure_thread_state();
    memset(&r, 0, sizeof(r));
    r.base.startup = api_startup;
    r.base.receive = api_receive;
    r.base.complete = api_complete;
    r.base.notice = api_notice;
    r.copy.in_begin = api_copy_in_begin;
    r.copy.in_read = api_copy_in_read;
    r.copy.out_begin = api_copy_out_begin;
    r.copy.out_data = api_copy_out_data;
    r.copy.out_end = api_copy_out_end;
    r.base.copy = &r.copy;
    r.callbacks = callbacks != NULL ? callbacks : &no_callbacks;
    r.arg = arg;
    r.session = db->session;
    r.row_cxt = tdb_aset_create(db->cxt, "api row", ALLOCSET_SMALL_SIZES);
    ok = tdb_session_exec(db->session, sql, &r.base, &error);
    tdb_mcxt_delete(r.row_cxt);
    if (!ok && r.callbacks->error != NULL) {
        tupledb_error e;

        fill_error(&e, &error);
        r.callbacks->error(arg, &e);
    }
    return ok ? 0 : -1;
}

void
tupledb_cancel(tupledb *db)
{
    if (db != NULL)
        tdb_session_cancel(db->session);
}

char
tupledb_transaction_status(tupledb *db)
{
    return tdb_session_transaction_status(db->session);
}

void
tupledb_close(tupledb *db)
{
    ensure_thread_state();
    tdb_session_destroy(db->session);
    TDB_TRY();
    {
        tdb_database_close(db->db);
    }
    TDB_CATCH();
    {
        fprintf(stderr, "tupledb: closing the database: %s\n",
                tdb_error_current()->message);
        tdb_error_flush();
    }
    TDB_END_TRY();
    tdb_mcxt_delete(db->cxt);
}
