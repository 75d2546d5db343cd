/*
 * copy_to.c -- COPY table TO and COPY (query) TO: rows as lines of text
 * or CSV, to the client (one CopyData per line) or a server-side file.
 *
 * A table is read with a sequential scan under the statement's snapshot;
 * a query (SELECT, VALUES, or INSERT/UPDATE/DELETE ... RETURNING) is
 * planned and run into a DestReceiver that formats each row.  Either way
 * a line is the copied columns' output-function texts joined by the
 * delimiter, NULL as the NULL string, then "\n":
 *
 *   text  backslash, the delimiter, and \b \f \n \r \t \v are escaped
 *         with a backslash (other control characters are written as
 *         they are), as PostgreSQL's CopyAttributeOutText does;
 *   CSV   a value is quoted when FORCE_QUOTE asks, when it equals the
 *         NULL string, when it holds the delimiter, the quote, CR or LF,
 *         or when it is "\." alone in a one-column copy (so it cannot
 *         read back as the end marker); inside quotes the quote and
 *         escape characters are preceded by the escape character.
 *
 * HEADER writes the column names first, formatted the same way.  The
 * client sees CopyOutResponse before the first line (after the query is
 * planned and its FORCE_QUOTE columns are resolved) and CopyDone after
 * the last.  Files are written through a 64 kB buffer.
 */
#include "common/base.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "access/heapam.h"
#include "commands/copy_int.h"
#include "common/elog.h"
#include "executor/executor.h"
#include "storage/fd.h"
#include "types/builtins.h"

#define FILE_BUF_SIZE 65536

typedef struct CopyToState {
    DestReceiver pub;   /* for COPY (query): the rows come here */
    Statement *st;
    const CopyOptions *opts;
    CopyIO *io;
    const CopyTarget *target; /* the table's columns, or NULL (query) */
    TupleDesc desc;
    int *attnums;       /* columns written, 1-based */
    int nattnums;
    bool *force_quote;  /* per column of desc, or NULL */
    const TypeSupport **types;
    CopyBuf line;       /* the line being built */
    CopyBuf file_buf;   /* lines not written to the file yet */
    MemoryContext row_cxt;
    MemoryContext cxt;  /* the COPY's own: the file lives as long */
    uint64 nrows;
} CopyToState;

/* ----------------------------------------------------------------------
 * Formatting values
 * ---------------------------------------------------------------------- */

void
tdb_copy_out_text(CopyBuf *b, const CopyOptions *opts, const char *value)
{
    const char delim = opts->delim;
    const char *start = value, *p = value;

    /* runs of plain bytes are appended at once */
    for (; *p != '\0'; p++) {
        unsigned char c = (unsigned char)*p;
        char esc;

        if (c >= 0x20 && c != '\\' && c != (unsigned char)delim)
            continue;
        switch (c) {
        case '\b':
            esc = 'b';
            break;
        case '\f':
            esc = 'f';
            break;
        case '\n':
            esc = 'n';
            break;
        case '\r':
            esc = 'r';
            break;
        case '\t':
            esc = 't';
            break;
        case '\v':
            esc = 'v';
            break;
        default:
            if (c < 0x20 && c != (unsigned char)delim)
                continue; /* other control characters go as they are */
            esc = (char)c; /* backslash or the delimiter */
            break;
        }
        tdb_copy_buf_append(b, start, (int)(p - start));
        tdb_copy_buf_putc(b, '\\');
        tdb_copy_buf_putc(b, esc);
        start = p + 1;
    }
    tdb_copy_buf_append(b, start, (int)(p - start));
}

void
tdb_copy_out_csv(CopyBuf *b, const CopyOptions *opts, const char *value,
                 bool force, bool single_column)
{
    const char delim = opts->delim, quote = opts->quote,
               escape = opts->escape;
    bool use_quote = force || strcmp(value, opts->null_print) == 0;
    const char *start, *p;

    if (!use_quote && single_column && strcmp(value, "\\.") == 0)
        use_quote = true;
    for (p = value; !use_quote && *p != '\0'; p++)
        use_quote = *p == delim || *p == quote || *p == '\n' || *p == '\r';
    if (!use_quote) {
        tdb_copy_buf_append(b, value, (int)strlen(value));
        return;
    }
    tdb_copy_buf_putc(b, quote);
    for (start = p = value; *p != '\0'; p++) {
        if (*p != quote && *p != escape)
            continue;
        tdb_copy_buf_append(b, start, (int)(p - start));
        tdb_copy_buf_putc(b, escape);
        start = p; /* the character itself follows */
    }
    tdb_copy_buf_append(b, start, (int)(p - start));
    tdb_copy_buf_putc(b, quote);
}

/* ----------------------------------------------------------------------
 * Sending lines
 * ---------------------------------------------------------------------- */

static void
file_flush(CopyToState *cs)
{
    const char *p = cs->file_buf.data;
    int left = cs->file_buf.len;

    while (left > 0) {
        ssize_t n = write(cs->io->fd, p, (size_t)left);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            ereport(ERROR, errcode(tdb_fd_errcode(errno)),
                    errmsg("could not write to COPY file: %m"));
        }
        p += n;
        left -= (int)n;
    }
    cs->file_buf.len = 0;
}

/* Finish the line being built and send it. */
static void
send_line(CopyToState *cs)
{
    tdb_copy_buf_putc(&cs->line, '\n');
    if (cs->io->channel != NULL)
        cs->io->channel->out_data(cs->io->channel, cs->line.data,
                                  cs->line.len);
    else {
        tdb_copy_buf_append(&cs->file_buf, cs->line.data, cs->line.len);
        if (cs->file_buf.len >= FILE_BUF_SIZE)
            file_flush(cs);
    }
    cs->line.len = 0;
    cs->line.data[0] = '\0';
}

static void
put_value(CopyToState *cs, int attnum, const char *value)
{
    if (cs->opts->csv)
        tdb_copy_out_csv(&cs->line, cs->opts, value,
                         cs->force_quote != NULL && cs->force_quote[attnum - 1],
                         cs->nattnums == 1);
    else
        tdb_copy_out_text(&cs->line, cs->opts, value);
}

/* CopyOutResponse (or the file), then the header line if asked for. */
static void
begin_output(CopyToState *cs)
{
    cs->types = tdb_palloc(sizeof(TypeSupport *) *
                           (Size)Max(1, cs->desc->natts));
    for (int i = 0; i < cs->nattnums; i++) {
        const TupleAttr *att = TupleDescAttr(cs->desc, cs->attnums[i] - 1);

        cs->types[cs->attnums[i] - 1] = tdb_type_support(att->atttypid);
        if (cs->types[cs->attnums[i] - 1] == NULL)
            elog(ERROR, "no output function for type %u", att->atttypid);
    }
    if (cs->io->channel != NULL)
        cs->io->channel->out_begin(cs->io->channel, cs->nattnums);
    else {
        /* not in the executor's memory (for a query): the file must stay
         * open until end_output */
        MemoryContext old = tdb_mcxt_switch_to(cs->cxt);

        tdb_copy_open_file(cs->io, false);
        tdb_mcxt_switch_to(old);
    }
    if (cs->opts->header == COPY_HEADER_NONE)
        return;
    for (int i = 0; i < cs->nattnums; i++) {
        const char *name = TupleDescAttr(cs->desc, cs->attnums[i] - 1)->attname;

        if (i > 0)
            tdb_copy_buf_putc(&cs->line, cs->opts->delim);
        if (cs->opts->csv)
            tdb_copy_out_csv(&cs->line, cs->opts, name, false,
                             cs->nattnums == 1);
        else
            tdb_copy_out_text(&cs->line, cs->opts, name);
    }
    send_line(cs);
}

/* One row of slot (every column extracted) as a line. */
static void
copy_row(CopyToState *cs, TupleTableSlot *slot)
{
    MemoryContext old = tdb_mcxt_switch_to(cs->row_cxt);

    tdb_stmt_check_interrupts(cs->st);
    for (int i = 0; i < cs->nattnums; i++) {
        int attnum = cs->attnums[i];

        if (i > 0)
            tdb_copy_buf_putc(&cs->line, cs->opts->delim);
        if (slot->tts_isnull[attnum - 1])
            tdb_copy_buf_append(&cs->line, cs->opts->null_print,
                                cs->opts->null_len);
        else
            put_value(cs, attnum,
                      cs->types[attnum - 1]->output(tdb_type_detoast(
                          cs->types[attnum - 1]->typid,
                          slot->tts_values[attnum - 1])));
    }
    send_line(cs);
    cs->nrows++;
    tdb_mcxt_switch_to(old);
    tdb_mcxt_reset(cs->row_cxt);
}

static void
end_output(CopyToState *cs)
{
    if (cs->io->channel != NULL)
        cs->io->channel->out_end(cs->io->channel);
    else {
        file_flush(cs);
        tdb_copy_close_file(cs->io);
    }
}

/* ----------------------------------------------------------------------
 * COPY table TO
 * ---------------------------------------------------------------------- */

static void
copy_table(CopyToState *cs)
{
    Transaction *xact = cs->st->xact;
    Relation rel = cs->target->rel;
    Snapshot snap =
        tdb_snapshot_take(tdb_xact_manager_of(xact), xact, tdb_current_mcxt);
    TupleTableSlot *slot = tdb_slot_create(rel->rd_att, &tdb_tts_ops_heap);
    HeapScanDesc scan;

    cs->desc = rel->rd_att;
    cs->attnums = cs->target->attnums;
    cs->nattnums = cs->target->nattnums;
    cs->force_quote = cs->target->force_quote;
    begin_output(cs);
    scan = tdb_heap_beginscan(rel, snap);
    while (tdb_heap_getnextslot(scan, slot)) {
        tdb_slot_getallattrs(slot);
        copy_row(cs, slot);
    }
    tdb_heap_endscan(scan);
    tdb_slot_drop(slot);
    end_output(cs);
}

/* ----------------------------------------------------------------------
 * COPY (query) TO
 * ---------------------------------------------------------------------- */

static void
query_startup(DestReceiver *self, TupleDesc desc)
{
    CopyToState *cs = (CopyToState *)self;

    cs->desc = desc;
    cs->nattnums = desc->natts;
    cs->attnums = tdb_palloc(sizeof(int) * (Size)Max(1, desc->natts));
    for (int i = 0; i < desc->natts; i++)
        cs->attnums[i] = i + 1;
    if (cs->opts->force_quote_all) {
        cs->force_quote = tdb_palloc(sizeof(bool) * (Size)Max(1, desc->natts));
        memset(cs->force_quote, 1, sizeof(bool) * (Size)desc->natts);
    } else if (cs->opts->force_quote != NIL)
        cs->force_quote = tdb_copy_force_flags(
            cs->opts->force_quote, desc, NULL, cs->attnums, cs->nattnums,
            "FORCE_QUOTE");
    begin_output(cs);
}

static void
query_receive(DestReceiver *self, TupleTableSlot *slot)
{
    CopyToState *cs = (CopyToState *)self;

    tdb_slot_getallattrs(slot);
    copy_row(cs, slot);
}

static void
query_notice(DestReceiver *self, const ErrorData *edata)
{
    DestReceiver *dest = ((CopyToState *)self)->st->dest;

    if (dest->notice != NULL)
        dest->notice(dest, edata);
}

static void
copy_query(CopyToState *cs, PgQuery__Node *query)
{
    Statement *st = cs->st;
    PlannedStmt *stmt;
    EState *estate;
    bool dml = false, returning = false;

    switch (query->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
        if (query->select_stmt->into_clause != NULL)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY (SELECT INTO) is not supported"));
        break;
    case PG_QUERY__NODE__NODE_INSERT_STMT:
        dml = true;
        returning = query->insert_stmt->n_returning_list > 0;
        break;
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
        dml = true;
        returning = query->update_stmt->n_returning_list > 0;
        break;
    case PG_QUERY__NODE__NODE_DELETE_STMT:
        dml = true;
        returning = query->delete_stmt->n_returning_list > 0;
        break;
    default:
        break;
    }
    if (dml && !returning)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("COPY query must have a RETURNING clause"));
    cs->pub.startup = query_startup;
    cs->pub.receive = query_receive;
    cs->pub.notice = query_notice;
    stmt = tdb_sql_plan_statement(st, query);
    estate = tdb_sql_create_estate(st, stmt);
    (void)tdb_exec_run(stmt, estate, &cs->pub);
    tdb_exec_free_estate(estate);
    end_output(cs);
}

uint64
tdb_copy_to(Statement *st, const CopyOptions *opts, CopyTarget *target,
            PgQuery__Node *query, CopyIO *io)
{
    MemoryContext cxt =
        tdb_aset_create(tdb_current_mcxt, "COPY", ALLOCSET_DEFAULT_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(cxt);
    CopyToState cs;
    uint64 nrows;

    memset(&cs, 0, sizeof(cs));
    cs.st = st;
    cs.opts = opts;
    cs.io = io;
    cs.target = target;
    cs.cxt = cxt;
    tdb_copy_buf_init(&cs.line, cxt, 1024);
    if (io->channel == NULL)
        tdb_copy_buf_init(&cs.file_buf, cxt, FILE_BUF_SIZE + 1024);
    cs.row_cxt = tdb_aset_create(cxt, "COPY row", ALLOCSET_DEFAULT_SIZES);
    if (target->rel != NULL)
        copy_table(&cs);
    else
        copy_query(&cs, query);
    nrows = cs.nrows;
    tdb_mcxt_switch_to(old);
    tdb_mcxt_delete(cxt);
    return nrows;
}
