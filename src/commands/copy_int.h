/*
 * copy_int.h -- what the COPY files of commands/ share (copy.c,
 * copy_from.c, copy_to.c); nothing outside them includes it.
 *
 * copy.c turns the statement into a CopyOptions (PostgreSQL's
 * ProcessCopyOptions rules and messages), resolves the column list and
 * opens the server-side file when there is one; then copy_from.c or
 * copy_to.c move the rows.  Data goes in and out through a CopyIO: the
 * statement's CopyChannel (STDIN / STDOUT, executor/dest.h) or a file
 * descriptor.
 *
 * The text and CSV parsers and formatters are exposed here too so that
 * the unit tests can drive them on strings (tests/unit/commands/test_copy.c).
 */
#ifndef TDB_COMMANDS_COPY_INT_H
#define TDB_COMMANDS_COPY_INT_H

#include "common/base.h"
#include "access/relation.h"
#include "commands/commands.h"
#include "executor/dest.h"
#include "nodes/primnodes.h"

/* HEADER: none, a line to skip / write, or a line to check (FROM). */
typedef enum CopyHeader {
    COPY_HEADER_NONE,
    COPY_HEADER_TRUE,
    COPY_HEADER_MATCH
} CopyHeader;

/* The options of one COPY, defaults filled in. */
typedef struct CopyOptions {
    bool csv;              /* FORMAT csv (else text) */
    CopyHeader header;
    char delim;            /* DELIMITER: '\t' (text) or ',' (csv) */
    const char *null_print; /* NULL: "\N" (text) or "" (csv) */
    int null_len;
    char quote;            /* CSV only: QUOTE, default '"' */
    char escape;           /* CSV only: ESCAPE, default the quote */
    bool force_quote_all;  /* FORCE_QUOTE * */
    /* Column names (char *) of FORCE_QUOTE (...), FORCE_NOT_NULL,
     * FORCE_NULL; NIL when not given */
    List *force_quote;
    List *force_notnull;
    List *force_null;
} CopyOptions;

/* A growable byte string in a memory context (NUL-terminated). */
typedef struct CopyBuf {
    char *data;
    int len;
    int cap;
    MemoryContext cxt;
} CopyBuf;

void tdb_copy_buf_init(CopyBuf *b, MemoryContext cxt, int initial);
/* Make room for `more` bytes past len (raises past 1 GB). */
void tdb_copy_buf_reserve(CopyBuf *b, int more);
void tdb_copy_buf_append(CopyBuf *b, const char *data, int len);

static inline void
tdb_copy_buf_putc(CopyBuf *b, char c)
{
    if (unlikely(b->len + 1 >= b->cap))
        tdb_copy_buf_reserve(b, 1);
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}

/*
 * Where the data comes from or goes: the client (the statement's
 * CopyChannel) or a server-side file (fd >= 0, path for messages).
 */
typedef struct CopyIO {
    CopyChannel *channel; /* STDIN / STDOUT, or NULL */
    int fd;               /* a file, or -1 */
    const char *path;     /* the file's name, or NULL */
    void *closer;         /* copy.c's reset callback that closes fd */
} CopyIO;

/*
 * copy.c: open io->path for reading (FROM) or writing (TO), with
 * PostgreSQL's messages; the descriptor is closed when the statement's
 * memory is reset if tdb_copy_close_file did not close it first (which
 * reports a failing close).
 */
void tdb_copy_open_file(CopyIO *io, bool is_from);
void tdb_copy_close_file(CopyIO *io);

/*
 * What copy.c resolved: the table (NULL for COPY (query) TO) and the
 * columns the data holds, in data order (1-based attribute numbers).
 * force_*[i] are per table column (attnum - 1), NULL if the option was
 * not given; for a query they are filled by copy_to.c from the result
 * columns.
 */
typedef struct CopyTarget {
    Relation rel;
    int *attnums;
    int nattnums;
    bool *force_quote;
    bool *force_notnull;
    bool *force_null;
    Expr *where;       /* COPY FROM ... WHERE, analyzed; or NULL */
} CopyTarget;

/* copy.c: the column names of a FORCE_* option as per-column flags of
 * desc, each one among the copied columns (42703, 42P10 otherwise).
 * option is "FORCE_QUOTE" etc. for the message; rel may be NULL. */
bool *tdb_copy_force_flags(List *names, TupleDesc desc, Relation rel,
                           const int *attnums, int nattnums,
                           const char *option);

/* copy_from.c: COPY table FROM; the number of rows stored. */
uint64 tdb_copy_from(Statement *st, const CopyOptions *opts,
                     CopyTarget *target, CopyIO *io);

/* copy_to.c: COPY table TO (query NULL) or COPY (query) TO. */
uint64 tdb_copy_to(Statement *st, const CopyOptions *opts,
                   CopyTarget *target, PgQuery__Node *query, CopyIO *io);

/* ----------------------------------------------------------------------
 * The parsers (copy_from.c), for the unit tests
 * ---------------------------------------------------------------------- */

/* The fields of one line: fields[i] is NUL-terminated, or NULL for
 * SQL NULL; they point into out.  Reused line after line. */
typedef struct CopyFields {
    char **fields;
    int nfields;
    int maxfields; /* allocated entries */
    CopyBuf out;   /* the fields' bytes, de-escaped */
} CopyFields;

void tdb_copy_fields_init(CopyFields *f, MemoryContext cxt);

/*
 * Split one line of text format (without its line end) into fields:
 * the delimiter splits; backslash escapes \b \f \n \r \t \v, octal
 * \NNN, hex \xHH, anything else after a backslash stands for itself; a
 * field whose raw text equals the NULL string is NULL.  A field that
 * escapes produced non-ASCII bytes in must be valid UTF-8 (22021).
 */
void tdb_copy_split_text(const CopyOptions *opts, const char *line, int len,
                         CopyFields *f);

/*
 * The same for CSV: the quote character quotes (delimiters and line ends
 * inside are data), the escape character inside quotes makes the next
 * quote or escape character literal; an unquoted field equal to the NULL
 * string is NULL.  Raises 22P04 "unterminated CSV quoted field".
 */
void tdb_copy_split_csv(const CopyOptions *opts, const char *line, int len,
                        CopyFields *f);

/*
 * Raise 22021 "invalid byte sequence for encoding "UTF8": 0x.." unless
 * s[0..len) is valid UTF-8 without NUL bytes (common/utf8.h's check,
 * which every way into text shares).  after/after_len are the
 * bytes that follow s in the input (the line end), shown in the message
 * when the bad sequence is cut short; may be NULL/0.
 */
void tdb_copy_verify_utf8(const char *s, int len, const char *after,
                          int after_len);

/* ----------------------------------------------------------------------
 * The formatters (copy_to.c), for the unit tests
 * ---------------------------------------------------------------------- */

/* Append a value in text format (escaping backslash, the delimiter and
 * control characters). */
void tdb_copy_out_text(CopyBuf *b, const CopyOptions *opts,
                       const char *value);
/* Append a value in CSV (quoted when it must be, or when force). */
void tdb_copy_out_csv(CopyBuf *b, const CopyOptions *opts,
                      const char *value, bool force, bool single_column);

#endif /* TDB_COMMANDS_COPY_INT_H */
