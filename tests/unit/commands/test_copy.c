/*
 * test_copy.c -- COPY: the text and CSV field parsers and formatters on
 * strings (commands/copy_int.h), the UTF-8 check, and whole COPY statements
 * through the C API's copy callbacks: data cut into pieces of every size
 * (line ends, "\." and escapes split across calls), a client that gives
 * up, clients without COPY callbacks, cancel, long lines, and
 * server-side files (round trips, errors, injected I/O faults).
 */
#include "common/base.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/tupledb.h"
#include "commands/copy_int.h"
#include "storage/fd.h"
#include "storage/storage_test.h"
#include "test.h"

/* ----------------------------------------------------------------------
 * The parsers and formatters
 * ---------------------------------------------------------------------- */

static CopyOptions
text_options(void)
{
    CopyOptions o;

    memset(&o, 0, sizeof(o));
    o.delim = '\t';
    o.null_print = "\\N";
    o.null_len = 2;
    o.quote = '"';
    o.escape = '"';
    return o;
}

static CopyOptions
csv_options(void)
{
    CopyOptions o = text_options();

    o.csv = true;
    o.delim = ',';
    o.null_print = "";
    o.null_len = 0;
    return o;
}

/* The fields of a split line as one string: values in [], NULL as -. */
static const char *
joined(const CopyFields *f)
{
    static char buf[1024];

    buf[0] = '\0';
    for (int i = 0; i < f->nfields; i++) {
        if (f->fields[i] == NULL)
            strcat(buf, "-");
        else {
            strcat(buf, "[");
            strcat(buf, f->fields[i]);
            strcat(buf, "]");
        }
    }
    return buf;
}

static const char *
split_text(const CopyOptions *o, const char *line)
{
    CopyFields f;

    tdb_copy_fields_init(&f, tdb_current_mcxt);
    tdb_copy_split_text(o, line, (int)strlen(line), &f);
    return joined(&f);
}

static const char *
split_csv(const CopyOptions *o, const char *line)
{
    CopyFields f;

    tdb_copy_fields_init(&f, tdb_current_mcxt);
    tdb_copy_split_csv(o, line, (int)strlen(line), &f);
    return joined(&f);
}

TEST_BEGIN(test_split_text)
{
    CopyOptions o = text_options();
    char many[200];

    expect_str_eq(split_text(&o, ""), "[]");
    expect_str_eq(split_text(&o, "a\tb\t"), "[a][b][]");
    expect_str_eq(split_text(&o, "\\N\t\\\\N\tx\\N"), "-[\\N][xN]");
    expect_str_eq(split_text(&o, "\\t\\n\\r\\b\\f\\v\\\\\\q"),
                  "[\t\n\r\b\f\v\\q]");
    expect_str_eq(split_text(&o, "\\101\\0601\\7x"), "[A01\7x]");
    expect_str_eq(split_text(&o, "\\x41\\x4a\\x4\\xg"), "[AJ\4xg]");
    expect_str_eq(split_text(&o, "a\\\tb"), "[a\tb]");  /* escaped delim */
    expect_str_eq(split_text(&o, "trailing\\"), "[trailing]");
    expect_str_eq(split_text(&o, "caf\\303\\251"), "[caf\xc3\xa9]");
    expect_error(split_text(&o, "bad \\377"), ERRCODE_CHARACTER_NOT_IN_REPERTOIRE,
                 "\"UTF8\": 0xff");
    expect_error(split_text(&o, "nul \\x00"),
                 ERRCODE_CHARACTER_NOT_IN_REPERTOIRE, "0x00");
    /* the NULL string is compared before de-escaping */
    o.null_print = "nil";
    o.null_len = 3;
    o.delim = '|';
    expect_str_eq(split_text(&o, "nil|\\nil|nil2|"), "-[\nil][nil2][]");
    /* more fields than the first allocation holds */
    memset(many, '|', 99);
    many[99] = '\0';
    {
        CopyFields f;

        tdb_copy_fields_init(&f, tdb_current_mcxt);
        tdb_copy_split_text(&o, many, 99, &f);
        expect_int_eq(f.nfields, 100);
    }
}
TEST_END

TEST_BEGIN(test_split_csv)
{
    CopyOptions o = csv_options();

    expect_str_eq(split_csv(&o, ""), "-");
    expect_str_eq(split_csv(&o, "a,,\"\",b"), "[a]-[][b]");
    expect_str_eq(split_csv(&o, "\"a,b\",\"c\"\"d\",e\"f\"g"),
                  "[a,b][c\"d][efg]");
    expect_str_eq(split_csv(&o, "\"multi\nline\"\r"), "[multi\nline\r]");
    expect_str_eq(split_csv(&o, "\\N,\\."), "[\\N][\\.]");
    expect_error(split_csv(&o, "1,\"open"), ERRCODE_BAD_COPY_FILE_FORMAT,
                 "unterminated CSV quoted field");
    /* another escape: only before the quote or itself */
    o.escape = '\\';
    expect_str_eq(split_csv(&o, "\"a\\\"b\\\\c\\d\""), "[a\"b\\c\\d]");
    /* NULL as a word: quoted it is a value */
    o.null_print = "NULL";
    o.null_len = 4;
    expect_str_eq(split_csv(&o, "NULL,\"NULL\""), "-[NULL]");
}
TEST_END

static const char *
out_text(const CopyOptions *o, const char *value)
{
    static CopyBuf b;

    tdb_copy_buf_init(&b, tdb_current_mcxt, 4);
    tdb_copy_out_text(&b, o, value);
    return b.data;
}

static const char *
out_csv(const CopyOptions *o, const char *value, bool force, bool single)
{
    static CopyBuf b;

    tdb_copy_buf_init(&b, tdb_current_mcxt, 4);
    tdb_copy_out_csv(&b, o, value, force, single);
    return b.data;
}

TEST_BEGIN(test_format_values)
{
    CopyOptions t = text_options(), c = csv_options();

    expect_str_eq(out_text(&t, "plain"), "plain");
    expect_str_eq(out_text(&t, "a\tb\nc\\d\re\bf\fg\vh\1i"),
                  "a\\tb\\nc\\\\d\\re\\bf\\fg\\vh\1i");
    t.delim = '|';
    expect_str_eq(out_text(&t, "a|b\tc"), "a\\|b\\tc");
    t.delim = '\1';
    expect_str_eq(out_text(&t, "a\1b"), "a\\\1b");

    expect_str_eq(out_csv(&c, "plain", false, false), "plain");
    expect_str_eq(out_csv(&c, "plain", true, false), "\"plain\"");
    expect_str_eq(out_csv(&c, "", false, false), "\"\""); /* = NULL string */
    expect_str_eq(out_csv(&c, "a,b", false, false), "\"a,b\"");
    expect_str_eq(out_csv(&c, "say \"hi\"", false, false),
                  "\"say \"\"hi\"\"\"");
    expect_str_eq(out_csv(&c, "cr\r", false, false), "\"cr\r\"");
    expect_str_eq(out_csv(&c, "\\.", false, true), "\"\\.\"");
    expect_str_eq(out_csv(&c, "\\.", false, false), "\\.");
    c.escape = '\\';
    expect_str_eq(out_csv(&c, "a\"b\\c", false, false), "\"a\\\"b\\\\c\"");
}
TEST_END

TEST_BEGIN(test_verify_utf8)
{
    /* valid: ASCII, 2-, 3-, 4-byte characters, the largest code point */
    tdb_copy_verify_utf8("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf",
                         14, NULL, 0);
    expect_error(tdb_copy_verify_utf8("\x80", 1, NULL, 0),
                 ERRCODE_CHARACTER_NOT_IN_REPERTOIRE, ": 0x80");
    expect_error(tdb_copy_verify_utf8("\xc0\x80", 2, NULL, 0),
                 ERRCODE_CHARACTER_NOT_IN_REPERTOIRE, ": 0xc0 0x80");
    expect_error(tdb_copy_verify_utf8("\xed\xa0\x80", 3, NULL, 0),
                 ERRCODE_CHARACTER_NOT_IN_REPERTOIRE, ": 0xed 0xa0 0x80");
    expect_error(tdb_copy_verify_utf8("\xf4\x90\x80\x80", 4, NULL, 0),
                 ERRCODE_CHARACTER_NOT_IN_REPERTOIRE, ": 0xf4 0x90 0x80 0x80");
    expect_error(tdb_copy_verify_utf8("ab\0c", 4, NULL, 0),
                 ERRCODE_CHARACTER_NOT_IN_REPERTOIRE, ": 0x00");
    /* cut short: the bytes after it (the line end) are shown too */
    expect_error(tdb_copy_verify_utf8("x\xe2\x82", 3, "\r\n", 2),
                 ERRCODE_CHARACTER_NOT_IN_REPERTOIRE, ": 0xe2 0x82 0x0d");
    expect_error(tdb_copy_verify_utf8("x\xf0\x9f", 3, "\n", 1),
                 ERRCODE_CHARACTER_NOT_IN_REPERTOIRE, ": 0xf0 0x9f 0x0a");
}
TEST_END

/* ----------------------------------------------------------------------
 * Through the C API
 * ---------------------------------------------------------------------- */

typedef struct Client {
    const char *data;     /* what copy_in hands out */
    size_t len, pos;
    int chunk;            /* at most this many bytes per call */
    int calls_after_end;  /* copy_in calls answered with 0 */
    const char *fail;     /* copy_in fails with this once data is out */
    tupledb *cancel_db;   /* cancel this db on the first copy_in call */
    char out[8192];       /* what copy_out received */
    int started_from, started_columns;
    char transcript[2048];
} Client;

static void
add(Client *c, const char *a, const char *b)
{
    strncat(c->transcript, a, sizeof(c->transcript) - strlen(c->transcript) - 1);
    if (b != NULL)
        strncat(c->transcript, b,
                sizeof(c->transcript) - strlen(c->transcript) - 1);
}

static void
cb_complete(void *arg, const char *tag)
{
    add(arg, tag, ";");
}

static void
cb_error(void *arg, const tupledb_error *e)
{
    char buf[64];

    snprintf(buf, sizeof(buf), "ERROR %s ", e->sqlstate);
    add(arg, buf, e->message);
    if (e->context != NULL)
        add(arg, " @ ", e->context);
    add(arg, ";", NULL);
}

static void
cb_start(void *arg, int is_from, int ncolumns)
{
    Client *c = arg;

    c->started_from = is_from;
    c->started_columns = ncolumns;
}

static int
cb_in(void *arg, char *buf, int size, const char **fail)
{
    Client *c = arg;
    size_t n = c->len - c->pos;

    if (c->cancel_db != NULL) {
        tupledb_cancel(c->cancel_db);
        c->cancel_db = NULL;
    }
    if (n == 0) {
        if (c->fail != NULL) {
            *fail = c->fail;
            return -1;
        }
        c->calls_after_end++;
        return 0;
    }
    if (n > (size_t)size)
        n = (size_t)size;
    if (c->chunk > 0 && n > (size_t)c->chunk)
        n = (size_t)c->chunk;
    memcpy(buf, c->data + c->pos, n);
    c->pos += n;
    return (int)n;
}

static void
cb_out(void *arg, const char *data, int len)
{
    Client *c = arg;

    strncat(c->out, data, Min((size_t)len, sizeof(c->out) - strlen(c->out) - 1));
}

static const tupledb_callbacks with_copy = {.complete = cb_complete,
                                            .error = cb_error,
                                            .copy_start = cb_start,
                                            .copy_in = cb_in,
                                            .copy_out = cb_out};
static const tupledb_callbacks without_copy = {.complete = cb_complete,
                                               .error = cb_error};

static tupledb *
open_db(void)
{
    tupledb *db;
    char *msg = NULL;

    expect_int_eq(tupledb_open(test_path(test_tmpdir(), "db"), &db, &msg), 0);
    return db;
}

/* Run sql feeding data in pieces of chunk bytes; the transcript. */
static const char *
run_copy(tupledb *db, const char *sql, const char *data, int chunk,
         Client *c)
{
    memset(c, 0, sizeof(*c));
    c->data = data;
    c->len = data != NULL ? strlen(data) : 0;
    c->chunk = chunk;
    tupledb_exec(db, sql, &with_copy, c);
    return c->transcript;
}

/* The table's rows as COPY TO STDOUT text. */
static const char *
dump(tupledb *db, const char *table)
{
    static Client c;
    char sql[128];

    snprintf(sql, sizeof(sql), "COPY (SELECT * FROM %s ORDER BY 1) TO STDOUT",
             table);
    run_copy(db, sql, NULL, 0, &c);
    return c.out;
}

TEST_BEGIN(test_copy_in_any_pieces)
{
    /* line ends of the three kinds, the end marker, escapes, CSV quotes
     * with line ends inside: every split of the data must read alike */
    static const struct {
        const char *sql;
        const char *data;
        const char *rows;
    } cases[] = {
        {"COPY p FROM STDIN", "1\ta\\tb\n2\t\\N\n3\tc\\\\\n\\.\nignored\n",
         "1\ta\\tb\n2\t\\N\n3\tc\\\\\n"},
        {"COPY p FROM STDIN", "1\tx\r\n2\ty\r\n\\.\r\n", "1\tx\n2\ty\n"},
        {"COPY p FROM STDIN", "1\tx\r2\ty\r", "1\tx\n2\ty\n"},
        {"COPY p FROM STDIN", "1\tx\n2\tlast\\.\n", "1\tx\n2\tlast\n"},
        {"COPY p FROM STDIN", "1\tno newline at the end",
         "1\tno newline at the end\n"},
        {"COPY p FROM STDIN", "1\tescaped\\\nnewline\n",
         "1\tescaped\\nnewline\n"},
        {"COPY p FROM STDIN WITH (FORMAT csv)",
         "1,\"a\r\nb\"\r\n2,\"\\.\"\r\n\\.\r\n", "1\ta\\r\\nb\n2\t\\\\.\n"},
        {"COPY p FROM STDIN WITH (FORMAT csv, HEADER)",
         "x,y\n1,\"say \"\"hi\"\"\"\n\\.x,\n", ""},
    };
    tupledb *db = open_db();
    Client c;

    run_copy(db, "CREATE TABLE p (a int, b text)", NULL, 0, &c);
    for (size_t i = 0; i < lengthof(cases); i++) {
        for (int chunk = 1; chunk <= 7; chunk++) {
            const char *t;

            run_copy(db, "TRUNCATE p", NULL, 0, &c);
            t = run_copy(db, cases[i].sql, cases[i].data, chunk, &c);
            if (i == lengthof(cases) - 1) {
                /* "\.x" in CSV is data: the int input sees it */
                expect_str_contains(t, "ERROR 22P02");
                continue;
            }
            expect_str_contains(t, "COPY ");
            expect_int_eq(c.started_from, 1);
            expect_int_eq(c.started_columns, 2);
            expect_str_eq(dump(db, "p"), cases[i].rows);
        }
    }
    tupledb_close(db);
}
TEST_END

TEST_BEGIN(test_copy_in_failures)
{
    tupledb *db = open_db();
    Client c;
    char *big;

    run_copy(db, "CREATE TABLE q (a int NOT NULL, b text)", NULL, 0, &c);
    run_copy(db, "COPY q FROM STDIN", "1\tkept\n", 0, &c);

    /* the client gives up: 57014 with its message; nothing stays */
    memset(&c, 0, sizeof(c));
    c.data = "2\tx\n3\ty\n";
    c.len = strlen(c.data);
    c.fail = "the user pressed stop";
    tupledb_exec(db, "COPY q FROM STDIN", &with_copy, &c);
    expect_str_eq(c.transcript, "ERROR 57014 COPY from stdin failed: the "
                                "user pressed stop @ COPY q, line 3;");
    expect_str_eq(dump(db, "q"), "1\tkept\n");

    /* after the end marker, the rest is read up to the end of data */
    run_copy(db, "COPY q FROM STDIN", "4\tz\n\\.\nmore\nand more\n", 3, &c);
    expect_str_eq(c.transcript, "COPY 1;");
    expect_int_eq(c.calls_after_end, 1);

    /* a client without copy callbacks */
    memset(&c, 0, sizeof(c));
    tupledb_exec(db, "COPY q FROM STDIN", &without_copy, &c);
    expect_str_eq(c.transcript, "ERROR 0A000 COPY FROM STDIN is not "
                                "supported by this client;");
    memset(&c, 0, sizeof(c));
    tupledb_exec(db, "COPY q TO STDOUT", &without_copy, &c);
    expect_str_eq(c.transcript, "ERROR 0A000 COPY TO STDOUT is not "
                                "supported by this client;");

    /* cancel while the data comes in */
    memset(&c, 0, sizeof(c));
    c.data = "5\ta\n6\tb\n";
    c.len = strlen(c.data);
    c.chunk = 2;
    c.cancel_db = db;
    tupledb_exec(db, "COPY q FROM STDIN", &with_copy, &c);
    expect_str_contains(c.transcript,
                        "ERROR 57014 canceling statement due to user request");
    expect_str_eq(dump(db, "q"), "1\tkept\n4\tz\n");

    /* a line longer than the input buffer: its value is toasted */
    big = malloc(200000);
    memcpy(big, "7\t", 2);
    memset(big + 2, 'x', 199990);
    strcpy(big + 199992, "\n");
    run_copy(db, "COPY q FROM STDIN", big, 0, &c);
    expect_str_eq(c.transcript, "COPY 1;");
    run_copy(db, "DELETE FROM q WHERE a = 7", NULL, 0, &c);
    /* a row too big for a page: PLAIN values are never toasted */
    run_copy(db, "ALTER TABLE q ALTER COLUMN b SET STORAGE PLAIN", NULL, 0,
             &c);
    run_copy(db, "COPY q FROM STDIN", big, 0, &c);
    expect_str_contains(c.transcript, "ERROR 54000 row is too big");
    expect_str_contains(c.transcript, "@ COPY q, line 1: \"7\txxxx");
    expect_str_contains(c.transcript, "xxx...\";");
    big[3000] = '\n';
    big[3001] = '\0';
    run_copy(db, "COPY q FROM STDIN", big, 0, &c);
    expect_str_eq(c.transcript, "COPY 1;");
    free(big);
    tupledb_close(db);
}
TEST_END

TEST_BEGIN(test_copy_server_files)
{
    tupledb *db = open_db();
    const char *dir = test_tmpdir();
    char sql[1024];
    char got[256];
    long n;
    Client c;

    run_copy(db, "CREATE TABLE f (a int, b text DEFAULT 'd')", NULL, 0, &c);
    write_text_file(test_path(dir, "in.txt"), "1\tone\n2\t\\N\n");
    snprintf(sql, sizeof(sql), "COPY f FROM '%s'", test_path(dir, "in.txt"));
    expect_str_eq(run_copy(db, sql, NULL, 0, &c), "COPY 2;");
    snprintf(sql, sizeof(sql), "COPY f (a) FROM '%s' WITH (FORMAT csv)",
             test_path(dir, "in.txt"));
    write_text_file(test_path(dir, "in.txt"), "3\n");
    expect_str_eq(run_copy(db, sql, NULL, 0, &c), "COPY 1;");

    snprintf(sql, sizeof(sql),
             "COPY f TO '%s' WITH (FORMAT csv, HEADER); "
             "COPY (SELECT a * 10 FROM f ORDER BY a) TO '%s'",
             test_path(dir, "out.csv"), test_path(dir, "out2.txt"));
    expect_str_eq(run_copy(db, sql, NULL, 0, &c), "COPY 3;COPY 3;");
    n = read_raw_file(test_path(dir, "out.csv"), got, sizeof(got) - 1);
    got[Max(n, 0)] = 0;
    expect_str_eq(got, "a,b\n1,one\n2,\n3,d\n");
    n = read_raw_file(test_path(dir, "out2.txt"), got, sizeof(got) - 1);
    got[Max(n, 0)] = 0;
    expect_str_eq(got, "10\n20\n30\n");

    /* errors */
    snprintf(sql, sizeof(sql), "COPY f FROM '%s'", test_path(dir, "nosuch"));
    expect_str_contains(run_copy(db, sql, NULL, 0, &c),
                        "ERROR 58P01 could not open file");
    expect_str_contains(run_copy(db, "COPY f TO 'rel.txt'", NULL, 0, &c),
                        "ERROR 42602 relative path not allowed");
    snprintf(sql, sizeof(sql), "COPY f FROM '%s'", dir);
    expect_str_contains(run_copy(db, sql, NULL, 0, &c),
                        "ERROR 42809 \"");
    snprintf(sql, sizeof(sql), "COPY f FROM PROGRAM 'cat'");
    expect_str_contains(run_copy(db, sql, NULL, 0, &c),
                        "ERROR 0A000 COPY FROM PROGRAM is not supported");

    /* an injected failure to open: the statement fails cleanly */
    if (tdb_fd_inject(FD_OP_OPEN, 1, EACCES)) {
        snprintf(sql, sizeof(sql), "COPY f FROM '%s'",
                 test_path(dir, "out2.txt"));
        expect_str_contains(run_copy(db, sql, NULL, 0, &c),
                            "ERROR 42501 could not open file");
        tdb_fd_inject_clear();
    }
    expect_str_eq(dump(db, "f"), "1\tone\n2\t\\N\n3\td\n");
    tupledb_close(db);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "commands_copy", TEST_CASE(test_split_text),
                     TEST_CASE(test_split_csv), TEST_CASE(test_format_values),
                     TEST_CASE(test_verify_utf8),
                     TEST_CASE(test_copy_in_any_pieces),
                     TEST_CASE(test_copy_in_failures),
                     TEST_CASE(test_copy_server_files));
}
