/*
 * copy_from.c -- COPY table FROM STDIN / 'file': reading the data,
 * cutting it into rows and fields, loading the rows.
 *
 *   source --> raw (64 kB) --> line --> fields --> values --> tuple --> batch
 *   in_read    read_line()    split_*()  input      form      multi-insert
 *   / read()   end marker,    escapes,   functions, defaults, (1000 rows or
 *              line ends      quotes,    per column NOT NULL, 64 kB)
 *                             NULL                  CHECK
 *
 * Lines (PostgreSQL's CopyReadLineText): the first line end seen -- LF,
 * CR or CR LF -- is the style of the whole input; a different one later
 * is 22P04 ("literal carriage return found in data" and the like).  In
 * text format a backslash takes the next character with it (so an
 * escaped line end belongs to the line) and "\." ends the data wherever
 * it appears, what came before it on the line being the last row; "\."
 * must be followed by the line end ("end-of-copy marker corrupt"
 * otherwise).  In CSV, line ends inside quotes are data (and counted in
 * the line number), and "\." ends the data only alone at the start of a
 * line.  A last line without a line end is a row.  After the end marker
 * the rest of the client's data is read and ignored, as PostgreSQL does.
 *
 * Every line is checked to be UTF-8 before it is split (22021, the
 * offending bytes in hex); fields that escapes gave non-ASCII bytes are
 * checked again after de-escaping.
 *
 * Rows: the data's fields go to the listed columns through each type's
 * input function (with the column's typmod); the other columns get their
 * DEFAULT (evaluated per row, so now() or random() behave as in INSERT)
 * or NULL.  A row the WHERE condition does not accept is skipped.  NOT
 * NULL (23502) and CHECK (23514) are checked as INSERT checks them, then
 * the row joins the batch; a full batch goes to the
 * heap with tdb_heap_multi_insert through one bulk-insert state.  An
 * error anywhere stops the statement and the rows already written die
 * with the transaction (or its failed block).
 *
 * Errors carry PostgreSQL's CONTEXT line through an error context
 * callback: "COPY t, line 3, column b: "x"" while a field is converted,
 * "COPY t, line 3: "the line"" for a whole-row error, and "COPY t, line
 * 3" while the line is still being read.  Shown values and lines are cut
 * at 100 bytes (on a character boundary) and marked with "...".
 *
 * Memory: everything lives in a "COPY" context under the statement's;
 * the values of one row in a per-row context (reset each row), the
 * batch's tuples in a batch context (reset after each flush).
 */
#include "common/base.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "access/heapam.h"
#include "catalog/catalog.h"
#include "commands/commands_int.h"
#include "commands/copy_int.h"
#include "executor/execindex.h"
#include "common/elog.h"
#include "common/utf8.h"
#include "executor/executor.h"
#include "optimizer/planner.h"
#include "parser/analyze.h"
#include "storage/fd.h"
#include "toast/toaster.h"
#include "types/builtins.h"

#define RAW_BUF_SIZE 65536
#define BATCH_MAX_ROWS 1000
#define BATCH_MAX_BYTES 65536
#define MAX_COPY_DATA_DISPLAY 100

typedef enum EolType { EOL_UNKNOWN, EOL_NL, EOL_CR, EOL_CRNL } EolType;

typedef struct CopyFromState {
    Statement *st;
    const CopyOptions *opts;
    const CopyTarget *target;
    Relation rel;
    TupleDesc desc;
    ToastTarget toast; /* the toaster's view of rel */
    CopyIO *io;

    /* raw input: raw[raw_pos, raw_len) is unread */
    char *raw;
    int raw_pos;
    int raw_len;
    int span;        /* the current line's bytes from here to raw_pos are
                      * not in `line` yet */
    bool raw_eof;    /* the source has nothing more */
    bool done;       /* the data ended (input or end marker) */

    /* the current line, without its line end */
    CopyBuf line;
    bool line_valid; /* `line` is the whole line (CONTEXT may show it) */
    EolType eol;
    const char *line_end; /* what followed the line, for 22021 */
    int line_end_len;
    uint64 lineno;
    CopyFields fields;

    /* the field being converted, for CONTEXT */
    const char *cur_attname;
    const char *cur_attval;

    /* per table column */
    const TypeSupport **types;
    int *default_attnums; /* columns not in the data that have a DEFAULT */
    ExprState **defaults;
    int ndefaults;
    ExprState **checks;
    const char **check_names;
    int nchecks;
    ExprState *where;     /* COPY FROM ... WHERE, or NULL */
    ExprContext *econtext;
    EState *estate;

    MemoryContext row_cxt;
    MemoryContext batch_cxt;
    TupleTableSlot *row;  /* virtual slot: the row being built */
    HeapTuple *batch;
    uint64 *batch_lines; /* each batched row's line, for CONTEXT */
    int nbatch;
    Size batch_bytes;
    BulkInsertState bistate;

    /* the table's indexes (NULL: none), filled at each flush */
    struct IndexWriters *indexes;
    ExprContext index_econtext; /* per_row_mcxt: index_cxt */
    MemoryContext index_cxt;
    TupleTableSlot *index_row; /* a batched row, deformed */
} CopyFromState;

/* ----------------------------------------------------------------------
 * Error context
 * ---------------------------------------------------------------------- */

/* s cut at MAX_COPY_DATA_DISPLAY bytes on a UTF-8 boundary, "..." if
 * cut, into buf (which holds at least MAX_COPY_DATA_DISPLAY + 4). */
static const char *
limit_for_display(const char *s, char *buf)
{
    size_t len = strlen(s), n = 0;

    if (len <= MAX_COPY_DATA_DISPLAY)
        return s;
    while (n < len) {
        unsigned char c = (unsigned char)s[n];
        size_t l = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2
                              : (c & 0xf0) == 0xe0   ? 3
                              : (c & 0xf8) == 0xf0   ? 4
                                                     : 1;

        if (n + l > MAX_COPY_DATA_DISPLAY)
            break;
        n += l;
    }
    memcpy(buf, s, n);
    strcpy(buf + n, "...");
    return buf;
}

static void
copy_from_context(void *arg)
{
    CopyFromState *cs = arg;
    char buf[MAX_COPY_DATA_DISPLAY + 8];
    unsigned long long lineno = (unsigned long long)cs->lineno;

    if (cs->cur_attname != NULL && cs->cur_attval != NULL)
        errcontext_msg("COPY %s, line %llu, column %s: \"%s\"",
                       cs->rel->rd_name, lineno, cs->cur_attname,
                       limit_for_display(cs->cur_attval, buf));
    else if (cs->cur_attname != NULL)
        errcontext_msg("COPY %s, line %llu, column %s: null input",
                       cs->rel->rd_name, lineno, cs->cur_attname);
    else if (cs->line_valid)
        errcontext_msg("COPY %s, line %llu: \"%s\"", cs->rel->rd_name,
                       lineno, limit_for_display(cs->line.data, buf));
    else
        errcontext_msg("COPY %s, line %llu", cs->rel->rd_name, lineno);
}

/* ----------------------------------------------------------------------
 * UTF-8
 * ---------------------------------------------------------------------- */

void
tdb_copy_verify_utf8(const char *s, int len, const char *after,
                     int after_len)
{
    Size ok = tdb_utf8_verify(s, (Size)len);
    char shown[4];
    Size n = 0;

    if (likely(ok == (Size)len))
        return;
    /* PostgreSQL checks the line with its line end, so a character cut
     * short by the end of the line is shown with the line end's bytes */
    for (Size i = ok; i < (Size)len && n < sizeof(shown); i++)
        shown[n++] = s[i];
    for (int i = 0; i < after_len && n < sizeof(shown); i++)
        shown[n++] = after[i];
    tdb_utf8_report_invalid(shown, n);
}

/* ----------------------------------------------------------------------
 * Reading lines
 * ---------------------------------------------------------------------- */

/* Up to size bytes from the source; 0 when it has no more. */
static int
source_read(CopyFromState *cs, char *buf, int size)
{
    CopyIO *io = cs->io;

    if (io->channel != NULL)
        return io->channel->in_read(io->channel, buf, size);
    for (;;) {
        ssize_t n = read(io->fd, buf, (size_t)size);

        if (n >= 0)
            return (int)n;
        if (errno != EINTR)
            ereport(ERROR, errcode(tdb_fd_errcode(errno)),
                    errmsg("could not read from COPY file: %m"));
    }
}

/* Move the line's bytes raw[span, upto) into `line`. */
static inline void
take_span(CopyFromState *cs, int upto)
{
    if (upto > cs->span)
        tdb_copy_buf_append(&cs->line, cs->raw + cs->span, upto - cs->span);
    cs->span = upto;
}

/* Refill the (used up) raw buffer; false at the end of the input. */
static bool
load_raw(CopyFromState *cs)
{
    int n;

    take_span(cs, cs->raw_len);
    cs->raw_pos = cs->raw_len = cs->span = 0;
    if (cs->raw_eof)
        return false;
    n = source_read(cs, cs->raw, RAW_BUF_SIZE);
    if (n == 0) {
        cs->raw_eof = true;
        return false;
    }
    cs->raw_len = n;
    return true;
}

/* The next unread byte without reading it, or -1 at the end. */
static inline int
peek_byte(CopyFromState *cs)
{
    if (cs->raw_pos >= cs->raw_len && !load_raw(cs))
        return -1;
    return (unsigned char)cs->raw[cs->raw_pos];
}

/*
 * Make n unread bytes available at raw_pos (fewer only at the end of the
 * input); returns how many there are.  The line's pending bytes move to
 * `line` first, so the buffer can be compacted.
 */
static int
ensure_ahead(CopyFromState *cs, int n)
{
    int avail = cs->raw_len - cs->raw_pos;

    if (avail >= n || cs->raw_eof)
        return avail;
    take_span(cs, cs->raw_pos);
    memmove(cs->raw, cs->raw + cs->raw_pos, (size_t)avail);
    cs->raw_len = avail;
    cs->raw_pos = cs->span = 0;
    while (cs->raw_len < n && !cs->raw_eof) {
        int got = source_read(cs, cs->raw + cs->raw_len,
                              RAW_BUF_SIZE - cs->raw_len);

        if (got == 0)
            cs->raw_eof = true;
        cs->raw_len += got;
    }
    return cs->raw_len;
}

TDB_NORETURN static void
bad_format(const char *msg)
{
    ereport(ERROR, errcode(ERRCODE_BAD_COPY_FILE_FORMAT), errmsg("%s", msg));
}

TDB_NORETURN static void
stray_cr(const CopyFromState *cs)
{
    if (cs->opts->csv)
        ereport(ERROR, errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
                errmsg("unquoted carriage return found in data"),
                errhint("Use quoted CSV field to represent carriage return."));
    ereport(ERROR, errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
            errmsg("literal carriage return found in data"),
            errhint("Use \"\\r\" to represent carriage return."));
}

TDB_NORETURN static void
stray_nl(const CopyFromState *cs)
{
    if (cs->opts->csv)
        ereport(ERROR, errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
                errmsg("unquoted newline found in data"),
                errhint("Use quoted CSV field to represent newline."));
    ereport(ERROR, errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
            errmsg("literal newline found in data"),
            errhint("Use \"\\n\" to represent newline."));
}

/*
 * raw_pos is at a backslash followed by '.' (avail bytes from it are in
 * the buffer, 4 unless the input ends sooner).  If this is the end
 * marker, consume it and return true; in CSV it may be data instead
 * (false); text raises for a marker followed by anything but the line
 * end.
 */
static bool
end_marker(CopyFromState *cs, int avail)
{
    bool csv = cs->opts->csv;
    const char *p = cs->raw + cs->raw_pos + 2;
    const char *end = cs->raw + cs->raw_pos + avail;
    char c;

    if (cs->eol == EOL_CRNL) {
        c = p < end ? *p++ : '\0';
        if (c == '\n') {
            if (csv)
                return false;
            bad_format("end-of-copy marker does not match previous newline "
                       "style");
        }
        if (c != '\r') {
            if (csv)
                return false;
            bad_format("end-of-copy marker corrupt");
        }
    }
    c = p < end ? *p++ : '\0';
    if (c != '\r' && c != '\n') {
        if (csv)
            return false;
        bad_format("end-of-copy marker corrupt");
    }
    if ((cs->eol == EOL_NL && c != '\n') ||
        (cs->eol == EOL_CRNL && c != '\n') ||
        (cs->eol == EOL_CR && c != '\r'))
        bad_format("end-of-copy marker does not match previous newline "
                   "style");
    take_span(cs, cs->raw_pos);
    cs->raw_pos = cs->span = (int)(p - cs->raw);
    cs->line_end = "\\.";
    cs->line_end_len = 2;
    return true;
}

/*
 * Read the next line into cs->line (without its line end).  Returns
 * true when a line end was found; false when the data ended -- the
 * input ran out or the end marker came -- with whatever preceded that
 * on the line in cs->line.
 */
static bool
read_line(CopyFromState *cs)
{
    const bool csv = cs->opts->csv;
    const char quote = cs->opts->quote;
    /* an escape that is the quote itself is just a toggle here */
    const char escape = cs->opts->escape != quote ? cs->opts->escape : '\0';
    bool in_quote = false, last_was_esc = false, first = true;

    cs->line.len = 0;
    cs->line.data[0] = '\0';
    cs->line_valid = false;
    cs->line_end = "";
    cs->line_end_len = 0;
    cs->span = cs->raw_pos;
    for (;;) {
        char c;

        if (cs->raw_pos >= cs->raw_len && !load_raw(cs))
            return false;
        if (!csv) {
            /* text: skip to the next byte that matters in one tight loop
             * (perf on a 1M-row load: line reading went from 10% to 5%
             * of the samples) */
            const char *p = cs->raw + cs->raw_pos, *end = cs->raw + cs->raw_len;

            while (p < end && *p != '\n' && *p != '\r' && *p != '\\')
                p++;
            cs->raw_pos = (int)(p - cs->raw);
            if (p == end)
                continue;
        }
        c = cs->raw[cs->raw_pos++];
        if (csv) {
            if (in_quote && c == escape)
                last_was_esc = !last_was_esc;
            if (c == quote && !last_was_esc)
                in_quote = !in_quote;
            if (c != escape)
                last_was_esc = false;
            /* a line end inside quotes still counts as a line */
            if (in_quote && c == (cs->eol == EOL_NL ? '\n' : '\r'))
                cs->lineno++;
        }
        if (c == '\r' && !(csv && in_quote)) {
            take_span(cs, cs->raw_pos - 1);
            cs->span = cs->raw_pos;
            cs->line_end = "\r";
            cs->line_end_len = 1;
            if (cs->eol == EOL_UNKNOWN || cs->eol == EOL_CRNL) {
                if (peek_byte(cs) == '\n') {
                    cs->raw_pos++;
                    cs->span = cs->raw_pos;
                    cs->eol = EOL_CRNL;
                    cs->line_end = "\r\n";
                    cs->line_end_len = 2;
                } else {
                    if (cs->eol == EOL_CRNL)
                        stray_cr(cs);
                    cs->eol = EOL_CR;
                }
            } else if (cs->eol == EOL_NL)
                stray_cr(cs);
            return true;
        }
        if (c == '\n' && !(csv && in_quote)) {
            take_span(cs, cs->raw_pos - 1);
            cs->span = cs->raw_pos;
            if (cs->eol == EOL_CR || cs->eol == EOL_CRNL)
                stray_nl(cs);
            cs->eol = EOL_NL;
            cs->line_end = "\n";
            cs->line_end_len = 1;
            return true;
        }
        if (c == '\\' && (!csv || first)) {
            int avail;

            cs->raw_pos--; /* look at it with what follows */
            avail = ensure_ahead(cs, 4);
            if (avail >= 2 && cs->raw[cs->raw_pos + 1] == '.' &&
                end_marker(cs, avail))
                return false;
            if (!csv && avail >= 2)
                cs->raw_pos += 2; /* the escaped character is data */
            else
                cs->raw_pos += 1; /* a last backslash, or CSV's "\." data */
        }
        first = false;
    }
}

/* After the data ended: skip what the client still sends (the rest
 * after "\.", up to CopyDone), as PostgreSQL does. */
static void
drain_client(CopyFromState *cs)
{
    if (cs->io->channel == NULL)
        return;
    while (!cs->raw_eof)
        if (source_read(cs, cs->raw, RAW_BUF_SIZE) == 0)
            cs->raw_eof = true;
    cs->raw_pos = cs->raw_len = cs->span = 0;
}

/*
 * Read the next line and make it the current one (checked for UTF-8).
 * Returns false when there is none: the data ended and no bytes came
 * before the end on this line.
 */
static bool
next_line(CopyFromState *cs)
{
    bool complete;

    if (cs->done)
        return false;
    cs->lineno++;
    complete = read_line(cs);
    tdb_copy_verify_utf8(cs->line.data, cs->line.len, cs->line_end,
                         cs->line_end_len);
    cs->line_valid = true;
    if (!complete) {
        cs->done = true;
        drain_client(cs);
        return cs->line.len > 0;
    }
    return true;
}

/* ----------------------------------------------------------------------
 * Splitting lines into fields
 * ---------------------------------------------------------------------- */

void
tdb_copy_fields_init(CopyFields *f, MemoryContext cxt)
{
    f->maxfields = 16;
    f->fields = tdb_mcxt_alloc(cxt, sizeof(char *) * (Size)f->maxfields);
    f->nfields = 0;
    tdb_copy_buf_init(&f->out, cxt, 1024);
}

/* Room for one more field pointer. */
static inline void
fields_room(CopyFields *f)
{
    if (f->nfields == f->maxfields) {
        f->maxfields *= 2;
        f->fields = tdb_repalloc(f->fields,
                                 sizeof(char *) * (Size)f->maxfields);
    }
}

static inline int
hex_value(char c)
{
    return isdigit((unsigned char)c) ? c - '0'
                                     : tolower((unsigned char)c) - 'a' + 10;
}

static inline bool
raw_is_null(const CopyOptions *opts, const char *start, const char *end)
{
    return end - start == opts->null_len &&
           memcmp(start, opts->null_print, (size_t)opts->null_len) == 0;
}

void
tdb_copy_split_text(const CopyOptions *opts, const char *line, int len,
                    CopyFields *f)
{
    const char delim = opts->delim;
    const char *p = line, *end = line + len;
    char *out;

    f->nfields = 0;
    f->out.len = 0;
    /* de-escaped bytes never outnumber the raw ones; delimiters make
     * room for the NULs */
    tdb_copy_buf_reserve(&f->out, len + 1);
    out = f->out.data;
    for (;;) {
        const char *start = p, *field_end;
        char *field = out;
        bool found_delim = false, non_ascii = false;

        for (;;) {
            char c;

            field_end = p;
            if (p >= end)
                break;
            c = *p++;
            if (c == delim) {
                found_delim = true;
                break;
            }
            if (c == '\\') {
                int val;

                if (p >= end)
                    break; /* a backslash at the end is dropped */
                c = *p++;
                switch (c) {
                case '0': case '1': case '2': case '3':
                case '4': case '5': case '6': case '7':
                    val = c - '0';
                    for (int k = 0; k < 2 && p < end && *p >= '0' && *p <= '7';
                         k++)
                        val = (val << 3) + (*p++ - '0');
                    c = (char)(val & 0377);
                    non_ascii |= c == '\0' || (c & 0x80) != 0;
                    break;
                case 'x':
                    if (p < end && isxdigit((unsigned char)*p)) {
                        val = hex_value(*p++);
                        if (p < end && isxdigit((unsigned char)*p))
                            val = (val << 4) + hex_value(*p++);
                        c = (char)(val & 0xff);
                        non_ascii |= c == '\0' || (c & 0x80) != 0;
                    }
                    break;
                case 'b':
                    c = '\b';
                    break;
                case 'f':
                    c = '\f';
                    break;
                case 'n':
                    c = '\n';
                    break;
                case 'r':
                    c = '\r';
                    break;
                case 't':
                    c = '\t';
                    break;
                case 'v':
                    c = '\v';
                    break;
                default:
                    break; /* the character itself */
                }
            }
            *out++ = c;
        }
        fields_room(f);
        if (raw_is_null(opts, start, field_end))
            f->fields[f->nfields++] = NULL;
        else {
            if (non_ascii)
                tdb_copy_verify_utf8(field, (int)(out - field), NULL, 0);
            f->fields[f->nfields++] = field;
        }
        *out++ = '\0';
        if (!found_delim)
            break;
    }
}

void
tdb_copy_split_csv(const CopyOptions *opts, const char *line, int len,
                   CopyFields *f)
{
    const char delim = opts->delim, quote = opts->quote,
               escape = opts->escape;
    const char *p = line, *end = line + len;
    char *out;

    f->nfields = 0;
    f->out.len = 0;
    tdb_copy_buf_reserve(&f->out, len + 1);
    out = f->out.data;
    for (;;) {
        const char *start = p, *field_end = p;
        char *field = out;
        bool found_delim = false, saw_quote = false;

        for (;;) {
            char c;

            /* outside quotes: up to a delimiter, the end or a quote */
            for (;;) {
                field_end = p;
                if (p >= end)
                    goto end_field;
                c = *p++;
                if (c == delim) {
                    found_delim = true;
                    goto end_field;
                }
                if (c == quote) {
                    saw_quote = true;
                    break;
                }
                *out++ = c;
            }
            /* inside quotes: up to the closing quote */
            for (;;) {
                field_end = p;
                if (p >= end)
                    bad_format("unterminated CSV quoted field");
                c = *p++;
                if (c == escape && p < end && (*p == escape || *p == quote)) {
                    *out++ = *p++;
                    continue;
                }
                if (c == quote)
                    break;
                *out++ = c;
            }
        }
end_field:
        fields_room(f);
        f->fields[f->nfields++] =
            !saw_quote && raw_is_null(opts, start, field_end) ? NULL : field;
        *out++ = '\0';
        if (!found_delim)
            break;
    }
}

/* Split the current line; a table copied without columns takes only
 * empty lines. */
static void
split_line(CopyFromState *cs)
{
    if (cs->target->nattnums == 0) {
        if (cs->line.len != 0)
            bad_format("extra data after last expected column");
        cs->fields.nfields = 0;
        return;
    }
    if (cs->opts->csv)
        tdb_copy_split_csv(cs->opts, cs->line.data, cs->line.len,
                           &cs->fields);
    else
        tdb_copy_split_text(cs->opts, cs->line.data, cs->line.len,
                            &cs->fields);
}

/* HEADER MATCH: the first line must name the copied columns in order. */
static void
check_header(CopyFromState *cs)
{
    const CopyFields *f = &cs->fields;

    split_line(cs);
    if (f->nfields != cs->target->nattnums)
        ereport(ERROR, errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
                errmsg("wrong number of fields in header line: got %d, "
                       "expected %d",
                       f->nfields, cs->target->nattnums));
    for (int i = 0; i < f->nfields; i++) {
        const char *name =
            TupleDescAttr(cs->desc, cs->target->attnums[i] - 1)->attname;

        if (f->fields[i] == NULL)
            ereport(ERROR, errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
                    errmsg("column name mismatch in header line field %d: "
                           "got null value (\"%s\"), expected \"%s\"",
                           i + 1, cs->opts->null_print, name));
        if (strcmp(f->fields[i], name) != 0)
            ereport(ERROR, errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
                    errmsg("column name mismatch in header line field %d: "
                           "got \"%s\", expected \"%s\"",
                           i + 1, f->fields[i], name));
    }
}

/* ----------------------------------------------------------------------
 * Rows
 * ---------------------------------------------------------------------- */

/* Vars of the table (range-table entry 1) read the row slot. */
static Node *
vars_to_scan(Node *node, void *arg)
{
    if (node == NULL)
        return NULL;
    if (IsA(node, Var) && ((Var *)node)->varlevelsup == 0) {
        Var *v = (Var *)tdb_copy_node_shallow(node);

        v->varno = SCAN_VAR;
        return (Node *)v;
    }
    return tdb_expr_mutate_children(node, vars_to_scan, arg);
}

Node *
tdb_sql_vars_to_scan(Node *node)
{
    return vars_to_scan(node, NULL);
}

/* The DEFAULTs of the columns the data leaves out, and the CHECKs. */
static void
prepare_expressions(CopyFromState *cs)
{
    const CopyTarget *t = cs->target;
    int natts = cs->desc->natts;
    bool *in_data = tdb_palloc0(sizeof(bool) * (Size)Max(1, natts));
    PlannedStmt *pstmt = tdb_palloc0(sizeof(PlannedStmt));

    cs->estate = tdb_sql_create_estate(cs->st, pstmt);
    tdb_exec_init_toast_target(cs->estate, cs->rel, &cs->toast);
    cs->econtext = tdb_palloc0(sizeof(ExprContext));
    cs->econtext->per_query_mcxt = cs->estate->query_mcxt;
    cs->econtext->per_row_mcxt = cs->row_cxt;
    cs->econtext->estate = cs->estate;
    cs->econtext->scan_slot = cs->row;

    for (int i = 0; i < t->nattnums; i++)
        in_data[t->attnums[i] - 1] = true;
    cs->default_attnums = tdb_palloc(sizeof(int) * (Size)Max(1, natts));
    cs->defaults = tdb_palloc(sizeof(ExprState *) * (Size)Max(1, natts));
    for (int a = 1; a <= natts; a++) {
        if (in_data[a - 1] || TupleDescAttr(cs->desc, a - 1)->attisdropped ||
            tdb_relation_column_default(cs->rel, a) == NULL)
            continue;
        cs->default_attnums[cs->ndefaults] = a;
        cs->defaults[cs->ndefaults++] = tdb_exec_init_expr(
            tdb_analyze_column_default(cs->st, cs->rel, a), cs->estate);
    }
    if (t->where != NULL) {
        Expr *w = tdb_eval_const_expressions(t->where);

        cs->where = tdb_exec_init_expr((Expr *)vars_to_scan((Node *)w, NULL),
                                       cs->estate);
    }
    cs->indexes = tdb_sql_open_indexes(cs->st, cs->estate, cs->rel);
    if (cs->indexes != NULL) {
        cs->index_cxt = tdb_aset_create(tdb_current_mcxt, "COPY index row",
                                        ALLOCSET_DEFAULT_SIZES);
        cs->index_econtext = *cs->econtext;
        cs->index_econtext.per_row_mcxt = cs->index_cxt;
        cs->index_row = tdb_slot_create(cs->desc, &tdb_tts_ops_virtual);
    }
    cs->nchecks = cs->rel->rd_nchecks;
    cs->checks = tdb_palloc(sizeof(ExprState *) * (Size)Max(1, cs->nchecks));
    cs->check_names = tdb_palloc(sizeof(char *) * (Size)Max(1, cs->nchecks));
    for (int i = 0; i < cs->nchecks; i++) {
        int nvars, attno;
        Expr *e = tdb_analyze_check(cs->st, cs->rel, cs->rel->rd_checks[i].expr,
                                    &nvars, &attno);

        cs->checks[i] = tdb_exec_init_expr(
            (Expr *)vars_to_scan((Node *)e, NULL), cs->estate);
        cs->check_names[i] = cs->rel->rd_checks[i].name;
    }
}

/*
 * "Failing row contains (...)." as PostgreSQL builds it: every column's
 * text, "null" for NULL, each cut at 64 bytes with "...".
 */
static void
failing_row(CopyFromState *cs, char *detail, Size size)
{
    TupleDesc desc = cs->desc;
    TupleTableSlot *row = cs->row;
    Size len = (Size)snprintf(detail, size, "Failing row contains (");

    for (int c = 0; c < desc->natts && len < size; c++) {
        const char *str = row->tts_isnull[c]
                              ? "null"
                              : tdb_type_output(TupleDescAttr(desc, c)->atttypid,
                                                row->tts_values[c]);
        size_t slen = strlen(str), n = slen;

        if (n > 64) {
            n = 0;
            while (n < slen) {
                unsigned char b = (unsigned char)str[n];
                size_t l = b < 0x80 ? 1 : (b & 0xe0) == 0xc0 ? 2
                                      : (b & 0xf0) == 0xe0   ? 3
                                                             : 4;

                if (n + l > 64)
                    break;
                n += l;
            }
        }
        len += (Size)snprintf(detail + len, size - len, "%s%.*s%s",
                              c > 0 ? ", " : "", (int)n, str,
                              n < slen ? "..." : "");
    }
    if (len < size)
        snprintf(detail + len, size - len, ").");
}

/* NOT NULL (23502) and CHECK (23514), as INSERT checks them. */
static void
check_constraints(CopyFromState *cs)
{
    TupleDesc desc = cs->desc;
    TupleTableSlot *row = cs->row;
    char detail[ERRMSG_MAX];

    for (int i = 0; i < desc->natts; i++) {
        const TupleAttr *att = TupleDescAttr(desc, i);

        if (!att->attnotnull || !row->tts_isnull[i])
            continue;
        failing_row(cs, detail, sizeof(detail));
        ereport(ERROR, errcode(ERRCODE_NOT_NULL_VIOLATION),
                errmsg("null value in column \"%s\" of relation \"%s\" "
                       "violates not-null constraint",
                       att->attname, cs->rel->rd_name),
                errdetail("%s", detail));
    }
    for (int i = 0; i < cs->nchecks; i++) {
        bool isnull;
        Datum ok = tdb_exec_eval_expr(cs->checks[i], cs->econtext, &isnull);

        if (isnull || DatumGetBool(ok))
            continue;
        failing_row(cs, detail, sizeof(detail));
        ereport(ERROR, errcode(ERRCODE_CHECK_VIOLATION),
                errmsg("new row for relation \"%s\" violates check "
                       "constraint \"%s\"",
                       cs->rel->rd_name, cs->check_names[i]),
                errdetail("%s", detail));
    }
}

/* The current line's fields as the row's values (then the defaults). */
static void
build_row(CopyFromState *cs)
{
    const CopyTarget *t = cs->target;
    const CopyOptions *opts = cs->opts;
    const CopyFields *f = &cs->fields;
    TupleTableSlot *row = cs->row;
    Datum *values = row->tts_values;
    bool *isnull = row->tts_isnull;

    if (t->nattnums > 0 && f->nfields > t->nattnums)
        bad_format("extra data after last expected column");
    tdb_slot_clear(row);
    for (int i = 0; i < cs->desc->natts; i++)
        isnull[i] = true;
    for (int i = 0; i < t->nattnums; i++) {
        int m = t->attnums[i] - 1;
        const TupleAttr *att = TupleDescAttr(cs->desc, m);
        const char *s;

        if (i >= f->nfields)
            ereport(ERROR, errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
                    errmsg("missing data for column \"%s\"", att->attname));
        s = f->fields[i];
        if (opts->csv) {
            if (s == NULL && t->force_notnull != NULL && t->force_notnull[m])
                s = opts->null_print; /* FORCE_NOT_NULL: as if quoted */
            else if (s != NULL && t->force_null != NULL && t->force_null[m] &&
                     strcmp(s, opts->null_print) == 0)
                s = NULL; /* FORCE_NULL: even when quoted */
        }
        if (s == NULL)
            continue;
        cs->cur_attname = att->attname;
        cs->cur_attval = s;
        values[m] = cs->types[m]->input(s, att->atttypmod);
        isnull[m] = false;
        cs->cur_attname = cs->cur_attval = NULL;
    }
    for (int i = 0; i < cs->ndefaults; i++) {
        int m = cs->default_attnums[i] - 1;

        values[m] = tdb_exec_eval_expr(cs->defaults[i], cs->econtext,
                                       &isnull[m]);
    }
    tdb_slot_store_virtual(row);
}

/* WHERE: rows for which it is false or NULL are skipped (before the
 * constraints are checked, as in PostgreSQL). */
static bool
passes_where(CopyFromState *cs)
{
    bool isnull;
    Datum ok;

    if (cs->where == NULL)
        return true;
    ok = tdb_exec_eval_expr(cs->where, cs->econtext, &isnull);
    return !isnull && DatumGetBool(ok);
}

/*
 * The index entries of the batch just inserted, as PostgreSQL's COPY
 * adds them after each multi-insert: a unique violation names the
 * offending row's line in CONTEXT (without the line's text).
 */
static void
index_batch(CopyFromState *cs)
{
    uint64 lineno = cs->lineno;
    bool line_valid = cs->line_valid;
    TupleTableSlot *row = cs->index_row;

    for (int i = 0; i < cs->nbatch; i++) {
        cs->lineno = cs->batch_lines[i];
        cs->line_valid = false;
        tdb_mcxt_reset(cs->index_cxt);
        tdb_slot_clear(row);
        tdb_heap_deform_tuple(cs->batch[i], cs->desc, row->tts_values,
                              row->tts_isnull);
        tdb_slot_store_virtual(row);
        tdb_exec_insert_index_entries(cs->indexes, cs->estate,
                                      &cs->index_econtext, row,
                                      &cs->batch[i]->t_self);
    }
    cs->lineno = lineno;
    cs->line_valid = line_valid;
}

static void
flush_batch(CopyFromState *cs)
{
    if (cs->nbatch > 0)
        tdb_heap_multi_insert(cs->rel, cs->batch, cs->nbatch, cs->st->xact,
                              cs->bistate);
    if (cs->nbatch > 0 && cs->indexes != NULL)
        index_batch(cs);
    cs->nbatch = 0;
    cs->batch_bytes = 0;
    tdb_mcxt_reset(cs->batch_cxt);
}

/* Form the row's tuple into the batch (flushing a full batch). */
static void
add_to_batch(CopyFromState *cs)
{
    MemoryContext old = tdb_mcxt_switch_to(cs->batch_cxt);
    HeapTuple tup = tdb_toast_form_tuple(&cs->toast, cs->row->tts_values,
                                         cs->row->tts_isnull, NULL, NULL,
                                         NULL);

    tdb_mcxt_switch_to(old);
    if (tup->t_len > MaxHeapTupleSize)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("row is too big: size %zu, maximum size %zu",
                       (size_t)MAXALIGN(tup->t_len),
                       (size_t)MaxHeapTupleSize));
    cs->batch_lines[cs->nbatch] = cs->lineno;
    cs->batch[cs->nbatch++] = tup;
    cs->batch_bytes += tup->t_len;
    if (cs->nbatch == BATCH_MAX_ROWS || cs->batch_bytes >= BATCH_MAX_BYTES)
        flush_batch(cs);
}

/* ----------------------------------------------------------------------
 * The statement
 * ---------------------------------------------------------------------- */

static void
setup(CopyFromState *cs, Statement *st, const CopyOptions *opts,
      CopyTarget *target, CopyIO *io)
{
    MemoryContext cxt = tdb_current_mcxt;

    memset(cs, 0, sizeof(*cs));
    cs->st = st;
    cs->opts = opts;
    cs->target = target;
    cs->rel = target->rel;
    cs->desc = target->rel->rd_att;
    cs->io = io;
    cs->raw = tdb_palloc(RAW_BUF_SIZE + 1);
    tdb_copy_buf_init(&cs->line, cxt, 1024);
    tdb_copy_fields_init(&cs->fields, cxt);
    cs->row_cxt = tdb_aset_create(cxt, "COPY row", ALLOCSET_DEFAULT_SIZES);
    cs->batch_cxt =
        tdb_aset_create(cxt, "COPY batch", ALLOCSET_DEFAULT_SIZES);
    cs->row = tdb_slot_create(cs->desc, &tdb_tts_ops_virtual);
    cs->batch = tdb_palloc(sizeof(HeapTuple) * BATCH_MAX_ROWS);
    cs->batch_lines = tdb_palloc(sizeof(uint64) * BATCH_MAX_ROWS);
    cs->types = tdb_palloc(sizeof(TypeSupport *) *
                           (Size)Max(1, cs->desc->natts));
    for (int i = 0; i < cs->desc->natts; i++) {
        const TupleAttr *att = TupleDescAttr(cs->desc, i);

        cs->types[i] = att->attisdropped ? NULL
                                         : tdb_type_support(att->atttypid);
        if (!att->attisdropped &&
            (cs->types[i] == NULL || cs->types[i]->input == NULL))
            elog(ERROR, "no input function for type %u", att->atttypid);
    }
    prepare_expressions(cs);
}

uint64
tdb_copy_from(Statement *st, const CopyOptions *opts, CopyTarget *target,
              CopyIO *io)
{
    MemoryContext cxt =
        tdb_aset_create(tdb_current_mcxt, "COPY", ALLOCSET_DEFAULT_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(cxt);
    ErrorContextCallback errcb;
    CopyFromState cs;
    uint64 nrows = 0;

    if (io->channel == NULL)
        tdb_copy_open_file(io, true);
    setup(&cs, st, opts, target, io);
    if (io->channel != NULL)
        io->channel->in_begin(io->channel, target->nattnums);
    errcb.callback = copy_from_context;
    errcb.arg = &cs;
    tdb_error_context_push(&errcb);
    cs.bistate = tdb_heap_bulk_insert_begin();

    if (opts->header != COPY_HEADER_NONE) {
        bool got = next_line(&cs);

        if (opts->header == COPY_HEADER_MATCH && (got || !cs.done))
            check_header(&cs);
    }
    while (next_line(&cs)) {
        tdb_stmt_check_interrupts(st);
        /* input functions, defaults and checks allocate per row */
        tdb_mcxt_switch_to(cs.row_cxt);
        split_line(&cs);
        build_row(&cs);
        if (passes_where(&cs)) {
            check_constraints(&cs);
            add_to_batch(&cs);
            nrows++;
        }
        tdb_mcxt_switch_to(cxt);
        tdb_mcxt_reset(cs.row_cxt);
    }
    flush_batch(&cs);
    tdb_heap_bulk_insert_end(cs.bistate);
    tdb_error_context_pop(&errcb);
    tdb_exec_free_estate(cs.estate);
    if (io->fd >= 0)
        tdb_copy_close_file(io);
    tdb_mcxt_switch_to(old);
    tdb_mcxt_delete(cxt);
    return nrows;
}
