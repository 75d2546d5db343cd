/*
 * copy.c -- the COPY statement: options, columns, files; the rows move
 * in copy_from.c and copy_to.c.
 *
 *   COPY table [(col, ...)] FROM {STDIN | 'file'} [[WITH] (option, ...)]
 *   COPY {table [(col, ...)] | (query)} TO {STDOUT | 'file'} [...]
 *
 * plus the pre-9.0 spelling (COPY t FROM STDIN WITH CSV HEADER ...),
 * which the grammar turns into the same option list.  What happens, in
 * PostgreSQL's order (so that a statement with several mistakes reports
 * the same one):
 *
 *   1. PROGRAM is refused (0A000); the table is opened (42P01) -- FROM
 *      refuses the system catalogs as INSERT does (42501) -- FROM's
 *      WHERE condition analyzed over its columns, and the column list
 *      resolved (42703 / 42701);
 *   2. the options are read (read_options, check_options): each at most
 *      once (42601 "conflicting or redundant options" at its position),
 *      the values checked as ProcessCopyOptions checks them, defaults
 *      filled in: text uses TAB and \N, CSV uses ',' '' '"' and escape =
 *      quote;
 *   3. the FORCE_* lists are resolved (42703, 42P10 for a column not
 *      copied);
 *   4. a server-side file is opened (copy_from.c / copy_to.c call
 *      tdb_copy_open_file once they are past their own checks);
 *   5. the rows move; the tag is "COPY n".
 *
 * Server-side files: PostgreSQL lets only superusers (and members of
 * pg_read_server_files / pg_write_server_files) name them.  tupledb has
 * no roles yet, so every session may: a file is read or written with
 * the rights of the process running tupledb.  A relative path is taken
 * relative to that process's working directory for FROM and refused for
 * TO, as PostgreSQL refuses it.  The file is closed by a reset callback
 * of the statement's memory, so an error cannot leak it.
 *
 * Not supported (0A000): FORMAT binary, PROGRAM, ENCODING other
 * than UTF8 / SQL_ASCII (no conversions exist; PostgreSQL's other
 * encoding names are recognized and refused, unknown names are 22023 as
 * in PostgreSQL).  FREEZE is accepted and does nothing: tupledb does not
 * track whether the table was created or truncated in the transaction,
 * so it never raises PostgreSQL's "cannot perform COPY FREEZE" error.
 */
#include "common/base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "commands/commands.h"
#include "commands/copy_int.h"
#include "common/elog.h"
#include "common/encoding.h"
#include "parser/analyze.h"
#include "parser/system_views.h"
#include "storage/fd.h"

/* ----------------------------------------------------------------------
 * CopyBuf
 * ---------------------------------------------------------------------- */

void
tdb_copy_buf_init(CopyBuf *b, MemoryContext cxt, int initial)
{
    b->cxt = cxt;
    b->cap = Max(initial, 16);
    b->data = tdb_mcxt_alloc(cxt, (Size)b->cap);
    b->len = 0;
    b->data[0] = '\0';
}

void
tdb_copy_buf_reserve(CopyBuf *b, int more)
{
    Size need = (Size)b->len + (Size)more + 1;
    Size cap = (Size)b->cap;

    if (need <= cap)
        return;
    if (need > MaxAllocSize)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("out of memory"),
                errdetail("Cannot enlarge string buffer containing %d bytes "
                          "by %d more bytes.",
                          b->len, more));
    while (cap < need)
        cap *= 2;
    if (cap > MaxAllocSize)
        cap = MaxAllocSize;
    b->data = tdb_repalloc(b->data, cap);
    b->cap = (int)cap;
}

void
tdb_copy_buf_append(CopyBuf *b, const char *data, int len)
{
    if (len <= 0)
        return;
    tdb_copy_buf_reserve(b, len);
    memcpy(b->data + b->len, data, (size_t)len);
    b->len += len;
    b->data[b->len] = '\0';
}

/* ----------------------------------------------------------------------
 * Options (PostgreSQL's ProcessCopyOptions)
 * ---------------------------------------------------------------------- */

/* The option values as the user wrote them, before the defaults. */
typedef struct RawOptions {
    bool format_given, freeze_given, header_given, encoding_given;
    bool csv, binary;
    CopyHeader header;
    const char *delim, *null_print, *quote, *escape;
    bool force_quote_all;
    List *force_quote, *force_notnull, *force_null;
} RawOptions;

/* A DefElem argument as a string (PostgreSQL's defGetString). */
static const char *
def_string(const PgQuery__DefElem *def)
{
    const PgQuery__Node *arg = def->arg;

    if (arg == NULL)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("%s requires a parameter", def->defname));
    switch (arg->node_case) {
    case PG_QUERY__NODE__NODE_STRING:
        return arg->string->sval;
    case PG_QUERY__NODE__NODE_INTEGER: {
        char *buf = tdb_palloc(24);

        snprintf(buf, 24, "%d", (int)arg->integer->ival);
        return buf;
    }
    case PG_QUERY__NODE__NODE_FLOAT:
        return arg->float_->fval;
    case PG_QUERY__NODE__NODE_BOOLEAN:
        return arg->boolean->boolval ? "true" : "false";
    case PG_QUERY__NODE__NODE_A_STAR:
        return "*";
    default:
        elog(ERROR, "unrecognized node type: %d", (int)arg->node_case);
    }
}

/* An integer argument's value, or -1 if the argument is not one. */
static int
def_int_or_minus_one(const PgQuery__DefElem *def)
{
    if (def->arg != NULL &&
        def->arg->node_case == PG_QUERY__NODE__NODE_INTEGER)
        return (int)def->arg->integer->ival;
    return -1;
}

/* PostgreSQL's defGetBoolean. */
static bool
def_boolean(const PgQuery__DefElem *def)
{
    const char *s;
    int i;

    if (def->arg == NULL)
        return true;
    if (def->arg->node_case == PG_QUERY__NODE__NODE_INTEGER) {
        i = def_int_or_minus_one(def);
        if (i == 0 || i == 1)
            return i == 1;
    } else {
        s = def_string(def);
        if (strcasecmp(s, "true") == 0 || strcasecmp(s, "on") == 0)
            return true;
        if (strcasecmp(s, "false") == 0 || strcasecmp(s, "off") == 0)
            return false;
    }
    ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
            errmsg("%s requires a Boolean value", def->defname));
}

/* HEADER's value: a Boolean, or "match" (FROM only). */
static CopyHeader
def_header(const PgQuery__DefElem *def, bool is_from)
{
    const char *s;
    int i;

    if (def->arg == NULL)
        return COPY_HEADER_TRUE;
    if (def->arg->node_case == PG_QUERY__NODE__NODE_INTEGER) {
        i = def_int_or_minus_one(def);
        if (i == 0 || i == 1)
            return i == 1 ? COPY_HEADER_TRUE : COPY_HEADER_NONE;
    } else {
        s = def_string(def);
        if (strcasecmp(s, "true") == 0 || strcasecmp(s, "on") == 0)
            return COPY_HEADER_TRUE;
        if (strcasecmp(s, "false") == 0 || strcasecmp(s, "off") == 0)
            return COPY_HEADER_NONE;
        if (strcasecmp(s, "match") == 0) {
            if (!is_from)
                ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("cannot use \"%s\" with HEADER in COPY TO",
                               s));
            return COPY_HEADER_MATCH;
        }
    }
    ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
            errmsg("%s requires a Boolean value or \"match\"",
                   def->defname));
}

/* A FORCE_* argument: a list of column names (char *). */
static List *
def_name_list(const Statement *st, const PgQuery__DefElem *def)
{
    List *names = NIL;

    if (def->arg == NULL || def->arg->node_case != PG_QUERY__NODE__NODE_LIST)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("argument to option \"%s\" must be a list of column "
                       "names",
                       def->defname),
                errposition(stmt_errpos(st, def->location)));
    for (size_t i = 0; i < def->arg->list->n_items; i++)
        names = tdb_lappend(names, def->arg->list->items[i]->string->sval);
    return names; /* the grammar allows no empty list */
}

static void
conflicting(const Statement *st, const PgQuery__DefElem *def)
{
    ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
            errmsg("conflicting or redundant options"),
            errposition(stmt_errpos(st, def->location)));
}

/* ENCODING 'name': only UTF8 and SQL_ASCII (no conversion) work. */
static void
check_encoding(const Statement *st, const PgQuery__DefElem *def)
{
    int enc = tdb_encoding_from_name(def_string(def));

    if (enc == TDB_ENC_UTF8 || enc == TDB_ENC_SQL_ASCII)
        return; /* the data is taken as UTF-8 */
    if (enc >= 0)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("conversion between %s and UTF8 is not supported",
                       tdb_encoding_name(enc)),
                errposition(stmt_errpos(st, def->location)));
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
            errmsg("argument to option \"%s\" must be a valid encoding name",
                   def->defname),
            errposition(stmt_errpos(st, def->location)));
}

/* Read the option list into *raw, one DefElem at a time. */
static void
read_options(const Statement *st, const PgQuery__CopyStmt *cs,
             RawOptions *raw)
{
    bool is_from = cs->is_from;

    memset(raw, 0, sizeof(*raw));
    for (size_t i = 0; i < cs->n_options; i++) {
        const PgQuery__DefElem *def = cs->options[i]->def_elem;
        const char *name = def->defname;

        if (strcmp(name, "format") == 0) {
            const char *fmt = def_string(def);

            if (raw->format_given)
                conflicting(st, def);
            raw->format_given = true;
            if (strcmp(fmt, "csv") == 0)
                raw->csv = true;
            else if (strcmp(fmt, "binary") == 0)
                raw->binary = true;
            else if (strcmp(fmt, "text") != 0)
                ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("COPY format \"%s\" not recognized", fmt),
                        errposition(stmt_errpos(st, def->location)));
        } else if (strcmp(name, "freeze") == 0) {
            if (raw->freeze_given)
                conflicting(st, def);
            raw->freeze_given = true;
            (void)def_boolean(def);
        } else if (strcmp(name, "delimiter") == 0) {
            if (raw->delim != NULL)
                conflicting(st, def);
            raw->delim = def_string(def);
        } else if (strcmp(name, "null") == 0) {
            if (raw->null_print != NULL)
                conflicting(st, def);
            raw->null_print = def_string(def);
        } else if (strcmp(name, "header") == 0) {
            if (raw->header_given)
                conflicting(st, def);
            raw->header_given = true;
            raw->header = def_header(def, is_from);
        } else if (strcmp(name, "quote") == 0) {
            if (raw->quote != NULL)
                conflicting(st, def);
            raw->quote = def_string(def);
        } else if (strcmp(name, "escape") == 0) {
            if (raw->escape != NULL)
                conflicting(st, def);
            raw->escape = def_string(def);
        } else if (strcmp(name, "force_quote") == 0) {
            if (raw->force_quote != NIL || raw->force_quote_all)
                conflicting(st, def);
            if (def->arg != NULL &&
                def->arg->node_case == PG_QUERY__NODE__NODE_A_STAR)
                raw->force_quote_all = true;
            else
                raw->force_quote = def_name_list(st, def);
        } else if (strcmp(name, "force_not_null") == 0) {
            if (raw->force_notnull != NIL)
                conflicting(st, def);
            raw->force_notnull = def_name_list(st, def);
        } else if (strcmp(name, "force_null") == 0) {
            if (raw->force_null != NIL)
                conflicting(st, def);
            raw->force_null = def_name_list(st, def);
        } else if (strcmp(name, "encoding") == 0) {
            if (raw->encoding_given)
                conflicting(st, def);
            raw->encoding_given = true;
            check_encoding(st, def);
        } else
            ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                    errmsg("option \"%s\" not recognized", name),
                    errposition(stmt_errpos(st, def->location)));
    }
}

/* The checks of ProcessCopyOptions after the list is read, in its order. */
static void
check_options(const RawOptions *raw, bool is_from, CopyOptions *opts)
{
    bool csv = raw->csv;

    if (raw->binary && raw->delim != NULL)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("cannot specify DELIMITER in BINARY mode"));
    if (raw->binary && raw->null_print != NULL)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("cannot specify NULL in BINARY mode"));

    memset(opts, 0, sizeof(*opts));
    opts->csv = csv;
    opts->header = raw->header;
    {
        const char *delim = raw->delim != NULL ? raw->delim
                            : csv              ? ","
                                               : "\t";
        const char *null_print = raw->null_print != NULL ? raw->null_print
                                 : csv                   ? ""
                                                         : "\\N";
        const char *quote = raw->quote != NULL ? raw->quote : "\"";
        const char *escape = raw->escape != NULL ? raw->escape : quote;

        if (strlen(delim) != 1)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY delimiter must be a single one-byte "
                           "character"));
        if (delim[0] == '\r' || delim[0] == '\n')
            ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("COPY delimiter cannot be newline or carriage "
                           "return"));
        if (strchr(null_print, '\r') != NULL ||
            strchr(null_print, '\n') != NULL)
            ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("COPY null representation cannot use newline or "
                           "carriage return"));
        /* a backslash or a letter or digit would read as an escape */
        if (!csv && strchr("\\.abcdefghijklmnopqrstuvwxyz0123456789",
                           delim[0]) != NULL)
            ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("COPY delimiter cannot be \"%s\"", delim));
        if (raw->binary && raw->header != COPY_HEADER_NONE)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("cannot specify HEADER in BINARY mode"));
        if (!csv && raw->quote != NULL)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY quote available only in CSV mode"));
        if (csv && strlen(quote) != 1)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY quote must be a single one-byte character"));
        if (csv && delim[0] == quote[0])
            ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("COPY delimiter and quote must be different"));
        if (!csv && raw->escape != NULL)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY escape available only in CSV mode"));
        if (csv && strlen(escape) != 1)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY escape must be a single one-byte "
                           "character"));
        if (!csv && (raw->force_quote != NIL || raw->force_quote_all))
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY force quote available only in CSV mode"));
        if ((raw->force_quote != NIL || raw->force_quote_all) && is_from)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY force quote only available using COPY TO"));
        if (!csv && raw->force_notnull != NIL)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY force not null available only in CSV "
                           "mode"));
        if (raw->force_notnull != NIL && !is_from)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY force not null only available using COPY "
                           "FROM"));
        if (!csv && raw->force_null != NIL)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY force null available only in CSV mode"));
        if (raw->force_null != NIL && !is_from)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY force null only available using COPY "
                           "FROM"));
        if (strchr(null_print, delim[0]) != NULL)
            ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("COPY delimiter must not appear in the NULL "
                           "specification"));
        if (csv && strchr(null_print, quote[0]) != NULL)
            ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("CSV quote character must not appear in the NULL "
                           "specification"));
        if (raw->binary)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY in binary format is not supported"));
        opts->delim = delim[0];
        opts->null_print = null_print;
        opts->null_len = (int)strlen(null_print);
        opts->quote = quote[0];
        opts->escape = escape[0];
    }
    opts->force_quote_all = raw->force_quote_all;
    opts->force_quote = raw->force_quote;
    opts->force_notnull = raw->force_notnull;
    opts->force_null = raw->force_null;
}

/* ----------------------------------------------------------------------
 * Columns
 * ---------------------------------------------------------------------- */

/* The attribute number of column name in desc (42703 if none). */
static int
column_attnum(TupleDesc desc, Relation rel, const char *name)
{
    for (int i = 0; i < desc->natts; i++) {
        const TupleAttr *att = TupleDescAttr(desc, i);

        if (!att->attisdropped && strcmp(att->attname, name) == 0)
            return i + 1;
    }
    if (rel != NULL)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_COLUMN),
                errmsg("column \"%s\" of relation \"%s\" does not exist",
                       name, rel->rd_name));
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_COLUMN),
            errmsg("column \"%s\" does not exist", name));
}

/*
 * A list of column names as attribute numbers (PostgreSQL's
 * CopyGetAttnums): every column of desc when names is NIL and all.
 */
static int *
column_numbers(TupleDesc desc, Relation rel, List *names, int *n)
{
    int *attnums = tdb_palloc(sizeof(int) * (Size)Max(1, desc->natts) +
                              sizeof(int) * (Size)list_length(names));
    int count = 0;

    if (names == NIL) {
        for (int i = 0; i < desc->natts; i++)
            if (!TupleDescAttr(desc, i)->attisdropped)
                attnums[count++] = i + 1;
        *n = count;
        return attnums;
    }
    for (int i = 0; i < list_length(names); i++) {
        const char *name = list_nth(names, i);
        int attnum = column_attnum(desc, rel, name);

        for (int j = 0; j < count; j++)
            if (attnums[j] == attnum)
                ereport(ERROR, errcode(ERRCODE_DUPLICATE_COLUMN),
                        errmsg("column \"%s\" specified more than once",
                               name));
        attnums[count++] = attnum;
    }
    *n = count;
    return attnums;
}

bool *
tdb_copy_force_flags(List *names, TupleDesc desc, Relation rel,
                     const int *attnums, int nattnums, const char *option)
{
    bool *flags = tdb_palloc0(sizeof(bool) * (Size)Max(1, desc->natts));
    int n;
    int *forced = column_numbers(desc, rel, names, &n);

    for (int i = 0; i < n; i++) {
        bool copied = false;

        for (int j = 0; j < nattnums; j++)
            copied |= attnums[j] == forced[i];
        if (!copied)
            ereport(ERROR, errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
                    errmsg("%s column \"%s\" not referenced by COPY", option,
                           TupleDescAttr(desc, forced[i] - 1)->attname));
        flags[forced[i] - 1] = true;
    }
    return flags;
}

/* ----------------------------------------------------------------------
 * Server-side files
 * ---------------------------------------------------------------------- */

typedef struct FileCloser {
    MemoryContextCallback cb;
    int fd;
} FileCloser;

static void
close_file(void *arg)
{
    FileCloser *fc = arg;

    if (fc->fd >= 0)
        (void)tdb_fd_close(fc->fd);
    fc->fd = -1;
}

/*
 * Open io->path for COPY: reading (FROM) or writing (TO, created or
 * truncated, mode 0644 as PostgreSQL's umask leaves it).  The
 * descriptor is closed when the statement's memory is reset, unless
 * tdb_copy_close_file closed it first.
 */
void
tdb_copy_open_file(CopyIO *io, bool is_from)
{
    FileCloser *fc;
    struct stat stbuf;
    int fd, save_errno;

    if (!is_from && io->path[0] != '/')
        ereport(ERROR, errcode(ERRCODE_INVALID_NAME),
                errmsg("relative path not allowed for COPY to file"));
    fd = tdb_fd_open(io->path,
                     is_from ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC,
                     0644);
    if (fd < 0) {
        save_errno = errno;
        errno = save_errno;
        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not open file \"%s\" for %s: %m", io->path,
                       is_from ? "reading" : "writing"),
                (save_errno == ENOENT || save_errno == EACCES)
                    ? (is_from ? errhint("COPY FROM instructs the PostgreSQL "
                                         "server process to read a file. You "
                                         "may want a client-side facility "
                                         "such as psql's \\copy.")
                               : errhint("COPY TO instructs the PostgreSQL "
                                         "server process to write a file. "
                                         "You may want a client-side "
                                         "facility such as psql's \\copy."))
                    : 0);
    }
    fc = tdb_palloc0(sizeof(FileCloser));
    fc->fd = fd;
    fc->cb.func = close_file;
    fc->cb.arg = fc;
    tdb_mcxt_register_reset_callback(tdb_current_mcxt, &fc->cb);
    if (fstat(fd, &stbuf) != 0)
        ereport(ERROR, errcode(tdb_fd_errcode(errno)),
                errmsg("could not stat file \"%s\": %m", io->path));
    if (S_ISDIR(stbuf.st_mode))
        ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                errmsg("\"%s\" is a directory", io->path));
    io->fd = fd;
    io->closer = fc;
}

void
tdb_copy_close_file(CopyIO *io)
{
    FileCloser *fc = io->closer;
    int rc;

    if (fc == NULL || fc->fd < 0)
        return;
    rc = tdb_fd_close(fc->fd);
    fc->fd = -1;
    io->fd = -1;
    if (rc != 0)
        ereport(ERROR, errcode(tdb_fd_errcode(errno)),
                errmsg("could not close file \"%s\": %m", io->path));
}

/* ----------------------------------------------------------------------
 * The statement
 * ---------------------------------------------------------------------- */

static void
refuse_unsupported(const Statement *st, const PgQuery__CopyStmt *cs)
{
    if (cs->is_program)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("COPY %s PROGRAM is not supported",
                       cs->is_from ? "FROM" : "TO"),
                errposition(stmt_errpos(st, st->parsed->location)));
}

/*
 * COPY FROM into the system's relations, refused as PostgreSQL refuses
 * it (a table there: 42501 whoever asks, as tupledb writes its catalogs
 * itself only; a view there, pg_roles: 42501 for a role that is not a
 * superuser, else "cannot copy to view"), and COPY pg_roles TO, which
 * PostgreSQL sends to the COPY (SELECT ...) form.
 */
static void
refuse_system_relation(Statement *st, const PgQuery__CopyStmt *cs)
{
    const char *name = cs->relation->relname;

    switch (tdb_system_relation_kind(st, cs->relation->schemaname, name)) {
    case SYSREL_NONE:
        return;
    case SYSREL_TABLE:
        if (cs->is_from)
            ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                    errmsg("permission denied for table %s", name));
        return; /* a stored catalog is read below; a view's name is not
                 * a table here (42P01) */
    case SYSREL_VIEW:
        if (!cs->is_from)
            ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                    errmsg("cannot copy from view \"%s\"", name),
                    errhint("Try the COPY (SELECT ...) TO variant."));
        if (!tdb_stmt_user_is_superuser(st))
            ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                    errmsg("permission denied for view %s", name));
        ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                errmsg("cannot copy to view \"%s\"", name),
                errhint("To enable copying to a view, provide an INSTEAD OF "
                        "INSERT trigger."));
    }
}

void
tdb_sql_copy(Statement *st, const PgQuery__CopyStmt *cs)
{
    RawOptions raw;
    CopyOptions opts;
    CopyTarget target;
    CopyIO io;
    List *names = NIL;
    uint64 nrows;
    char tag[64];

    refuse_unsupported(st, cs);
    memset(&target, 0, sizeof(target));
    if (cs->relation != NULL) {
        refuse_system_relation(st, cs);
        target.rel = tdb_relation_open(
            st->xact, tdb_sql_table_name(st, cs->relation), REL_LOCK_SHARE);
        if (cs->is_from && target.rel->rd_id < FirstNormalObjectId)
            ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                    errmsg("permission denied for table %s",
                           target.rel->rd_name));
        /* COPY pg_authid TO: the read privilege a query would need */
        if (!cs->is_from &&
            tdb_catalog_superuser_only(target.rel->rd_id) != NULL &&
            !tdb_stmt_user_is_superuser(st))
            ereport(
                ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                errmsg("permission denied for table %s", target.rel->rd_name));
        /* WHERE and the column list are checked before the options, as
         * PostgreSQL does (it needs the columns for its permission
         * check); the grammar allows WHERE only with FROM */
        if (cs->where_clause != NULL)
            target.where = tdb_analyze_copy_where(st, target.rel,
                                                  cs->where_clause);
        for (size_t i = 0; i < cs->n_attlist; i++)
            names = tdb_lappend(names, cs->attlist[i]->string->sval);
        target.attnums = column_numbers(target.rel->rd_att, target.rel,
                                        names, &target.nattnums);
    }
    read_options(st, cs, &raw);
    check_options(&raw, cs->is_from, &opts);

    memset(&io, 0, sizeof(io));
    io.fd = -1;
    /* protobuf-c gives "" for STDIN / STDOUT */
    io.path = cs->filename != NULL && cs->filename[0] != '\0' ? cs->filename
                                                               : NULL;
    if (io.path == NULL) {
        io.channel = st->dest->copy;
        if (io.channel == NULL)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("COPY %s is not supported by this client",
                           cs->is_from ? "FROM STDIN" : "TO STDOUT"));
    }

    if (target.rel != NULL) {
        TupleDesc desc = target.rel->rd_att;

        if (opts.force_quote_all) {
            target.force_quote =
                tdb_palloc(sizeof(bool) * (Size)Max(1, desc->natts));
            memset(target.force_quote, 1, sizeof(bool) * (Size)desc->natts);
        } else if (opts.force_quote != NIL)
            target.force_quote = tdb_copy_force_flags(
                opts.force_quote, desc, target.rel, target.attnums,
                target.nattnums, "FORCE_QUOTE");
        if (opts.force_notnull != NIL)
            target.force_notnull = tdb_copy_force_flags(
                opts.force_notnull, desc, target.rel, target.attnums,
                target.nattnums, "FORCE_NOT_NULL");
        if (opts.force_null != NIL)
            target.force_null = tdb_copy_force_flags(
                opts.force_null, desc, target.rel, target.attnums,
                target.nattnums, "FORCE_NULL");
    }

    if (cs->is_from)
        nrows = tdb_copy_from(st, &opts, &target, &io);
    else
        nrows = tdb_copy_to(st, &opts, &target, cs->query, &io);
    snprintf(tag, sizeof(tag), "COPY %llu", (unsigned long long)nrows);
    tdb_stmt_complete(st, tag);
}
