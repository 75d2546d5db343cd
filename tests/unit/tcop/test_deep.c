/*
 * test_deep.c -- statements nested deeper than the stack allows, through
 * the public C API (api/tupledb.h) on the caller's own thread: an
 * embedded program must get PostgreSQL's 54001 and go on, never crash.
 *
 *   test_deep_on_main_thread  the process's main thread (the stack
 *       rlimit): the shapes with 100,000 and 1,000,000 terms fail
 *       with 54001 and PostgreSQL's HINT; 1,000 terms run; the session
 *       runs its next statement; a CHECK and a DEFAULT of 5,000 terms
 *       return; the default SHOW says 2MB and a SET above the rlimit
 *       less 512kB fails as in PostgreSQL.
 *   test_deep_on_small_thread  a caller's thread with a 512 kB stack:
 *       max_stack_depth defaults to what that stack holds less its slop
 *       (384kB), cannot be set higher, and statements nested every which
 *       way up to the grammar's limit either run or fail with 54001 --
 *       the thread survives them all, and a plain statement still runs.
 */
#include "common/base.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/tupledb.h"
#include "storage/storage_test.h"
#include "test.h"

/* What one tupledb_exec call reported. */
typedef struct Result {
    char sqlstate[6];
    char message[256];
    char hint[256];
    char first[64]; /* the first column of the last row */
    int nrows;
} Result;

static void
on_row(void *arg, int ncolumns, const char *const *values)
{
    Result *r = arg;

    r->nrows++;
    if (ncolumns > 0 && values[0] != NULL)
        snprintf(r->first, sizeof(r->first), "%s", values[0]);
}

static void
on_error(void *arg, const tupledb_error *e)
{
    Result *r = arg;

    memcpy(r->sqlstate, e->sqlstate, sizeof(r->sqlstate));
    snprintf(r->message, sizeof(r->message), "%s", e->message);
    snprintf(r->hint, sizeof(r->hint), "%s", e->hint ? e->hint : "");
}

static const tupledb_callbacks callbacks = {.row = on_row, .error = on_error};

static Result
run(tupledb *db, const char *sql)
{
    Result r;

    memset(&r, 0, sizeof(r));
    tupledb_exec(db, sql, &callbacks, &r);
    return r;
}

/* prefix, n times piece, suffix (malloc'd: up to several MB). */
static char *
repeat(const char *prefix, const char *piece, int n, const char *suffix)
{
    Size plen = strlen(prefix), len = strlen(piece), slen = strlen(suffix);
    char *sql = malloc(plen + len * (Size)n + slen + 1);
    char *p = sql;

    memcpy(p, prefix, plen);
    p += plen;
    for (int i = 0; i < n; i++, p += len)
        memcpy(p, piece, len);
    memcpy(p, suffix, slen + 1);
    return sql;
}

/* The shapes: name, and the statement for n terms. */
static char *
shape(int which, int n)
{
    switch (which) {
    case 0:
        return repeat("SELECT 1", "+1", n - 1, "");
    case 1:
        return repeat("SELECT 'x'", "||'x'", n - 1, "");
    case 2:
        return repeat("SELECT a", "+a", n - 1, " FROM deep_t");
    default:
        return repeat("SELECT 1", " UNION ALL SELECT 1", n - 1, "");
    }
}

#define NSHAPES 4

static void
expect_stack_error(const Result *r, const char *kb)
{
    char hint[256];

    snprintf(hint, sizeof(hint),
             "Increase the configuration parameter \"max_stack_depth\" "
             "(currently %s), after ensuring the platform's stack depth "
             "limit is adequate.",
             kb);
    expect_str_eq(r->sqlstate, "54001");
    expect_str_eq(r->message, "stack depth limit exceeded");
    expect_str_eq(r->hint, hint);
}

static tupledb *
open_db(const char *dir)
{
    tupledb *db = NULL;
    char *msg = NULL;

    expect_int_eq(tupledb_open(dir, &db, &msg), 0);
    free(msg);
    return db;
}

TEST_BEGIN(test_deep_on_main_thread)
{
    tupledb *db = open_db(test_path(test_tmpdir(), "db"));
    Result r;

    r = run(db, "CREATE TABLE deep_t (a int); INSERT INTO deep_t VALUES (1)");
    expect_str_eq(r.sqlstate, "");
    for (int which = 0; which < NSHAPES; which++) {
        static const int sizes[] = {100000, 1000000};

        for (Size i = 0; i < lengthof(sizes); i++) {
            char *sql = shape(which, sizes[i]);

            r = run(db, sql);
            expect_stack_error(&r, "2048kB");
            free(sql);
            /* the session goes on */
            r = run(db, "SELECT 42");
            expect_str_eq(r.sqlstate, "");
            expect_str_eq(r.first, "42");
        }
        {
            char *sql = shape(which, 1000);

            r = run(db, sql);
            expect_str_eq(r.sqlstate, "");
            expect_int_eq(r.nrows, which == 3 ? 1000 : 1);
            free(sql);
        }
    }
    /* DEFAULT and CHECK: their text is PostgreSQL's deparse, made by
     * libpg_query, whose recursion takes 1 kB a level (5,000 terms used
     * to end the process); the catalog row may be too big, but the
     * statement returns and the session goes on */
    {
        char *sql = repeat("CREATE TABLE deep_c (x int CHECK (x", "+x", 4999,
                           " > 0) DEFAULT 1)");

        r = run(db, sql);
        expect_true(r.sqlstate[0] == '\0' || strcmp(r.sqlstate, "54000") == 0);
        free(sql);
        sql = repeat("CREATE TABLE deep_d (x int DEFAULT 1", "+1", 4999, ")");
        r = run(db, sql);
        expect_true(r.sqlstate[0] == '\0' || strcmp(r.sqlstate, "54000") == 0);
        free(sql);
        r = run(db, "SELECT 42");
        expect_str_eq(r.first, "42");
    }
    r = run(db, "SHOW max_stack_depth");
    expect_str_eq(r.first, "2MB");
    /* the main thread's stack is the rlimit: 8MB in make check */
    r = run(db, "SET max_stack_depth = '100MB'");
    expect_str_eq(r.sqlstate, "22023");
    expect_str_eq(r.message,
                  "invalid value for parameter \"max_stack_depth\": 102400");
    tupledb_close(db);
}
TEST_END

typedef struct SmallCaller {
    const char *dir;
    int returned; /* statements that came back (error or not) */
    int ran, failed_54001, failed_grammar, failed_other;
    Result show, set_high, plain;
} SmallCaller;

/* prefix, n x open, middle, n x close, suffix (malloc'd) */
static char *
nest(const char *const parts[5], int n)
{
    char *head = repeat(parts[0], parts[1], n, parts[2]);
    char *tail = repeat(head, parts[3], n, parts[4]);

    free(head);
    return tail;
}

static void *
small_caller_main(void *arg)
{
    SmallCaller *c = arg;
    tupledb *db = open_db(c->dir);
    static const char *const shapes[][5] = {
        {"SELECT 1", "+1", "", "", ""},
        {"SELECT a", "+a", "", "", " FROM deep_t"},
        {"SELECT 1", " UNION ALL SELECT 1", "", "", ""},
        {"SELECT 1", " INTERSECT SELECT 1", "", "", ""},
        {"SELECT ", "(SELECT ", "a", ")", " FROM deep_t"},
        {"SELECT ", "abs(", "a", ")", " FROM deep_t"},
        {"SELECT ", "CASE WHEN a > 0 THEN ", "a", " END", " FROM deep_t"},
        {"SELECT ", "NOT ", "a > 0", "", " FROM deep_t"},
        {"SELECT a", "::int", "", "", " FROM deep_t"},
        {"EXPLAIN SELECT a", "*a", "", "", " FROM deep_t"},
    };
    static const int sizes[] = {10, 100, 300, 1000, 3000, 9000};

    if (db == NULL)
        return NULL;
    run(db, "CREATE TABLE deep_t (a int); INSERT INTO deep_t VALUES (1)");
    c->show = run(db, "SHOW max_stack_depth");
    c->set_high = run(db, "SET max_stack_depth = '1MB'");
    for (Size i = 0; i < lengthof(shapes); i++)
        for (Size j = 0; j < lengthof(sizes); j++) {
            char *sql = nest(shapes[i], sizes[j]);
            Result r = run(db, sql);

            c->returned++;
            if (r.sqlstate[0] == '\0')
                c->ran++;
            else if (strcmp(r.sqlstate, "54001") == 0)
                c->failed_54001++;
            else if (strcmp(r.sqlstate, "42601") == 0 &&
                     strncmp(r.message, "memory exhausted", 16) == 0)
                c->failed_grammar++; /* past the grammar's stack */
            else
                c->failed_other++;
            free(sql);
        }
    c->plain = run(db, "SELECT a + 1 FROM deep_t");
    tupledb_close(db);
    return NULL;
}

TEST_BEGIN(test_deep_on_small_thread)
{
    pthread_attr_t attr;
    pthread_t thread;
    SmallCaller c;

    memset(&c, 0, sizeof(c));
    c.dir = test_path(test_tmpdir(), "db");
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 512 * 1024);
    expect_int_eq(pthread_create(&thread, &attr, small_caller_main, &c), 0);
    pthread_join(thread, NULL);
    pthread_attr_destroy(&attr);

    /* 512kB less a quarter: PostgreSQL lowers the default the same way
     * under a small stack rlimit */
    expect_str_eq(c.show.first, "384kB");
    expect_str_eq(c.set_high.sqlstate, "22023");
    expect_int_eq(c.returned, 60);
    expect_int_eq(c.failed_other, 0);
    /* the short ones run; the long ones find the limit; CASE, subqueries
     * and function calls 9,000 deep do not parse (nor in PostgreSQL) */
    expect_int_ge(c.ran, 20);
    expect_int_ge(c.failed_54001, 10);
    expect_int_eq(c.failed_grammar, 4);
    expect_str_eq(c.plain.sqlstate, "");
    expect_str_eq(c.plain.first, "2");
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "tcop_deep",
                     TEST_CASE(test_deep_on_main_thread),
                     TEST_CASE(test_deep_on_small_thread));
}
