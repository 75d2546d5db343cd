/*
 * test_session.c -- the statement loop through the public C API
 * (api/tupledb.h): transaction blocks and their failure state, implicit
 * transactions of multi-statement strings, warnings and command tags,
 * syntax errors with positions, strings that are not UTF-8 (22021),
 * SET/RESET errors, DDL through SQL,
 * settings that are each session's own.
 */
#include "common/base.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <string.h>

#include "api/tupledb.h"
#include "storage/storage_test.h"
#include "test.h"
/* after storage_test.h, whose helpers name a parameter "text" */
#include "catalog/database.h"
#include "tcop/session.h"
#include "types/builtins.h"
#include "types/typeio.h"

/* Everything a tupledb_exec call reported, as one text. */
typedef struct Transcript {
    char text[4096];
} Transcript;

/* Append the strings (up to a NULL) to the transcript. */
static void
append(Transcript *t, const char *a, const char *b, const char *c)
{
    const char *parts[3] = {a, b, c};

    for (int i = 0; i < 3 && parts[i] != NULL; i++)
        strncat(t->text, parts[i], sizeof(t->text) - strlen(t->text) - 1);
}

static void
on_complete(void *arg, const char *tag)
{
    append(arg, tag, ";", NULL);
}

static void
on_notice(void *arg, const tupledb_error *e)
{
    append(arg, e->severity, ": ", e->message);
    append(arg, ";", NULL, NULL);
}

static void
on_error(void *arg, const tupledb_error *e)
{
    char buf[64];

    snprintf(buf, sizeof(buf), "ERROR %s@%d ", e->sqlstate, e->position);
    append(arg, buf, e->message, ";");
}

static const tupledb_callbacks callbacks = {.complete = on_complete,
                                            .notice = on_notice,
                                            .error = on_error};

/* Run sql and return the transcript (in a static buffer). */
static const char *
run(tupledb *db, const char *sql)
{
    static Transcript t;

    t.text[0] = '\0';
    tupledb_exec(db, sql, &callbacks, &t);
    return t.text;
}

static tupledb *
open_test_db(void)
{
    tupledb *db;
    char *msg = NULL;

    expect_int_eq(tupledb_open(test_path(test_tmpdir(), "db"), &db, &msg),
                  0);
    return db;
}

TEST_BEGIN(test_transaction_blocks)
{
    tupledb *db = open_test_db();

    expect_str_eq(run(db, "COMMIT"),
                  "WARNING: there is no transaction in progress;COMMIT;");
    expect_str_eq(run(db, "BEGIN"), "BEGIN;");
    expect_int_eq(tupledb_transaction_status(db), 'T');
    expect_str_eq(run(db, "BEGIN"),
                  "WARNING: there is already a transaction in progress;"
                  "BEGIN;");
    expect_str_eq(run(db, "CREATE TABLE t (a int)"), "CREATE TABLE;");
    expect_str_eq(run(db, "CREATE TABLE t (a int)"),
                  "ERROR 42P07@0 relation \"t\" already exists;");
    expect_int_eq(tupledb_transaction_status(db), 'E');
    expect_str_eq(run(db, "CREATE TABLE u (a int)"),
                  "ERROR 25P02@0 current transaction is aborted, commands "
                  "ignored until end of transaction block;");
    /* COMMIT of a failed block rolls back */
    expect_str_eq(run(db, "COMMIT"), "ROLLBACK;");
    expect_int_eq(tupledb_transaction_status(db), 'I');
    /* t was rolled back with the block */
    expect_str_eq(run(db, "DROP TABLE t"),
                  "ERROR 42P01@0 table \"t\" does not exist;");
    expect_str_eq(run(db, "BEGIN; CREATE TABLE t (a int); COMMIT"),
                  "BEGIN;CREATE TABLE;COMMIT;");
    expect_str_eq(run(db, "DROP TABLE t"), "DROP TABLE;");
    tupledb_close(db);
}
TEST_END

TEST_BEGIN(test_implicit_transaction)
{
    tupledb *db = open_test_db();

    /* one string, one transaction: the failure undoes the first CREATE */
    expect_str_eq(run(db, "CREATE TABLE a (x int); CREATE TABLE a (x int)"),
                  "CREATE TABLE;ERROR 42P07@0 relation \"a\" already "
                  "exists;");
    expect_int_eq(tupledb_transaction_status(db), 'I');
    expect_str_eq(run(db, "CREATE TABLE a (x int)"), "CREATE TABLE;");
    /* a syntax error anywhere runs nothing */
    expect_str_eq(run(db, "DROP TABLE a; SELEC 1"),
                  "ERROR 42601@15 syntax error at or near \"SELEC\";");
    expect_str_eq(run(db, "DROP TABLE a"), "DROP TABLE;");
    expect_str_eq(run(db, ""), "");
    expect_str_eq(run(db, "-- only a comment"), "");
    tupledb_close(db);
}
TEST_END

/* A string that is not UTF-8 runs nothing: 22021 before parsing. */
#define BAD_UTF8 "ERROR 22021@0 invalid byte sequence for encoding \"UTF8\": "

TEST_BEGIN(test_invalid_utf8)
{
    tupledb *db = open_test_db();

    expect_str_eq(run(db, "CREATE TABLE e (t text)"), "CREATE TABLE;");
    expect_str_eq(run(db, "INSERT INTO e VALUES ('ok'); "
                          "INSERT INTO e VALUES ('\xed\xa0\x80')"),
                  BAD_UTF8 "0xed 0xa0 0x80;");
    expect_str_eq(run(db, "SELECT 1 -- \xc0\x80"), BAD_UTF8 "0xc0 0x80;");
    /* an escape string's bytes are checked too, with the same SQLSTATE */
    expect_str_eq(run(db, "INSERT INTO e VALUES (E'\\xff')"), BAD_UTF8 "0xff;");
    /* in a block the error fails it, as any error does */
    expect_str_eq(run(db, "BEGIN"), "BEGIN;");
    expect_str_eq(run(db, "SELECT '\xff'"), BAD_UTF8 "0xff;");
    expect_int_eq(tupledb_transaction_status(db), 'E');
    expect_str_eq(run(db, "ROLLBACK"), "ROLLBACK;");
    /* nothing was inserted: the DELETE finds no row */
    expect_str_eq(run(db, "DELETE FROM e"), "DELETE 0;");
    expect_str_eq(run(db, "INSERT INTO e VALUES ('caf\xc3\xa9')"),
                  "INSERT 0 1;");
    tupledb_close(db);
}
TEST_END

TEST_BEGIN(test_utility_statements)
{
    tupledb *db = open_test_db();

    expect_str_eq(run(db, "SET work_mem = '64MB'"), "SET;");
    expect_str_eq(run(db, "SET work_mem TO DEFAULT"), "SET;");
    expect_str_eq(run(db, "RESET work_mem"), "RESET;");
    expect_str_eq(run(db, "SET work_mem = 'lots'"),
                  "ERROR 22023@0 invalid value for parameter \"work_mem\": "
                  "\"lots\";");
    expect_str_eq(run(db, "SET work_mem = 10"),
                  "ERROR 22023@0 10 kB is outside the valid range for "
                  "parameter \"work_mem\" (64 .. 2147483647);");
    expect_str_eq(run(db, "SET enable_hashjoin = maybe"),
                  "ERROR 22023@0 parameter \"enable_hashjoin\" requires a "
                  "Boolean value;");
    expect_str_eq(run(db, "SET no_such_thing = 1"),
                  "ERROR 42704@0 unrecognized configuration parameter "
                  "\"no_such_thing\";");
    expect_str_eq(run(db, "CREATE TABLE t (a int, b varchar(0))"),
                  "ERROR 22023@26 length for type varchar must be at least "
                  "1;");
    expect_str_eq(run(db, "CREATE TABLE t (a nosuchtype)"),
                  "ERROR 42704@19 type \"nosuchtype\" does not exist;");
    expect_str_eq(run(db, "CREATE TABLE t (a int NOT NULL DEFAULT 1 + 2, "
                          "b text, c numeric(10, 2))"),
                  "CREATE TABLE;");
    expect_str_eq(run(db, "TRUNCATE t; VACUUM t; ANALYZE t; ANALYZE"),
                  "TRUNCATE TABLE;VACUUM;ANALYZE;ANALYZE;");
    expect_str_eq(run(db, "DROP TABLE IF EXISTS nope, t"),
                  "NOTICE: table \"nope\" does not exist, skipping;"
                  "DROP TABLE;");
    expect_str_eq(run(db, "SAVEPOINT s"),
                  "ERROR 0A000@1 savepoints and prepared transactions are "
                  "not supported yet;");
    tupledb_close(db);
}
TEST_END

/* Cancel a running statement from another thread (the shell's Ctrl-C). */
typedef struct CancelArg {
    tupledb *db;
} CancelArg;

static void *
canceller(void *arg)
{
    CancelArg *ca = arg;

    usleep(100 * 1000);
    tupledb_cancel(ca->db);
    return NULL;
}

TEST_BEGIN(test_cancel)
{
    tupledb *db = open_test_db();
    CancelArg ca = {db};
    pthread_t thread;

    expect_str_eq(run(db, "CREATE TABLE t (a int)"), "CREATE TABLE;");
    expect_str_eq(run(db, "BEGIN"), "BEGIN;");
    expect_str_eq(run(db, "INSERT INTO t VALUES (1)"), "INSERT 0 1;");
    pthread_create(&thread, NULL, canceller, &ca);
    expect_str_eq(run(db, "SELECT count(*) FROM generate_series(1, "
                          "2000000000)"),
                  "ERROR 57014@0 canceling statement due to user request;");
    pthread_join(thread, NULL);
    /* the block failed; its insert is gone after ROLLBACK */
    expect_int_eq(tupledb_transaction_status(db), 'E');
    expect_str_eq(run(db, "ROLLBACK"), "ROLLBACK;");
    expect_str_eq(run(db, "SELECT count(*) FROM t"), "SELECT 1;");
    expect_str_eq(run(db, "DROP TABLE t"), "DROP TABLE;");
    /* a cancel while idle does not hit the next statement */
    tupledb_cancel(db);
    expect_str_eq(run(db, "SELECT count(*) FROM generate_series(1, 10)"),
                  "SELECT 1;");
    tupledb_close(db);
}
TEST_END

/*
 * statement_timeout through the C API: each statement of a string gets
 * its own timeout, a cancelled one ends with 57014 "... due to statement
 * timeout", the session goes on, and a timeout never outlives its
 * statement (time spent idle between calls does not count).
 */
TEST_BEGIN(test_statement_timeout)
{
    tupledb *db = open_test_db();
    struct timespec t0;
    struct timespec t1;
    double ms;

    expect_str_eq(run(db, "SET statement_timeout = 100"), "SET;");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    expect_str_eq(run(db, "SELECT count(*) FROM generate_series(1, "
                          "2000000000)"),
                  "ERROR 57014@0 canceling statement due to statement "
                  "timeout;");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ms = (double)(t1.tv_sec - t0.tv_sec) * 1000 +
         (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    expect_true(ms >= 90 && ms < 5000);
    expect_int_eq(tupledb_transaction_status(db), 'I');
    /* a string: the first statement finishes, the second is cancelled */
    expect_str_eq(run(db, "SELECT count(*) FROM generate_series(1, 1000); "
                          "SELECT count(*) FROM generate_series(1, "
                          "2000000000)"),
                  "SELECT 1;ERROR 57014@0 canceling statement due to "
                  "statement timeout;");
    /* idle time is not a statement's */
    usleep(200 * 1000);
    expect_str_eq(run(db, "SELECT count(*) FROM generate_series(1, 10)"),
                  "SELECT 1;");
    /* in a block, the block fails */
    expect_str_eq(run(db, "BEGIN"), "BEGIN;");
    expect_str_eq(run(db, "SELECT count(*) FROM generate_series(1, "
                          "2000000000)"),
                  "ERROR 57014@0 canceling statement due to statement "
                  "timeout;");
    expect_int_eq(tupledb_transaction_status(db), 'E');
    expect_str_eq(run(db, "ROLLBACK"), "ROLLBACK;");
    /* a user's cancel keeps its own message while a timeout is armed */
    {
        CancelArg ca = {db};
        pthread_t thread;

        expect_str_eq(run(db, "SET statement_timeout = '10s'"), "SET;");
        pthread_create(&thread, NULL, canceller, &ca);
        expect_str_eq(run(db, "SELECT count(*) FROM generate_series(1, "
                              "2000000000)"),
                      "ERROR 57014@0 canceling statement due to user "
                      "request;");
        pthread_join(thread, NULL);
    }
    expect_str_eq(run(db, "RESET statement_timeout"), "RESET;");
    tupledb_close(db);
}
TEST_END

/*
 * Two sessions on one database, driven through the session layer (the C
 * API opens one session per database): a receiver that keeps the text
 * of each row's first column, printed while the session runs -- so with
 * that session's settings.
 */
typedef struct TextReceiver {
    DestReceiver base;
    Oid typid;
    Transcript out;
} TextReceiver;

static void
text_startup(DestReceiver *self, TupleDesc desc)
{
    ((TextReceiver *)self)->typid = TupleDescAttr(desc, 0)->atttypid;
}

static void
text_receive(DestReceiver *self, TupleTableSlot *slot)
{
    TextReceiver *r = (TextReceiver *)self;

    tdb_slot_getallattrs(slot);
    append(&r->out,
           slot->tts_isnull[0] ? "NULL"
                               : tdb_type_output(r->typid,
                                                 slot->tts_values[0]),
           ";", NULL);
}

static void
text_complete(DestReceiver *self, const char *tag)
{
    (void)self;
    (void)tag;
}

static const char *
session_rows(Session *s, const char *sql)
{
    static TextReceiver r;
    ErrorData error;

    memset(&r, 0, sizeof(r));
    r.base.startup = text_startup;
    r.base.receive = text_receive;
    r.base.complete = text_complete;
    if (!tdb_session_exec(s, sql, &r.base, &error))
        append(&r.out, "ERROR ", error.message, ";");
    return r.out.text;
}

TEST_BEGIN(test_settings_per_session)
{
    Database *db;
    Session *a;
    Session *b;

    if (tdb_top_mcxt == NULL)
        tdb_mcxt_thread_init();
    db = tdb_database_open(test_path(test_tmpdir(), "db"), NULL);
    a = tdb_session_create(db, NULL);
    b = tdb_session_create(db, NULL);
    expect_str_eq(session_rows(a, "SET TIME ZONE -5"), "");
    expect_str_eq(session_rows(b, "SET TIME ZONE 9; "
                                  "SET DateStyle = 'SQL, DMY'"),
                  "");
    for (int i = 0; i < 3; i++) {
        expect_str_eq(
            session_rows(a, "SELECT '2024-01-01 00:00+00'::timestamptz"),
            "2023-12-31 19:00:00-05;");
        expect_str_eq(
            session_rows(b, "SELECT '2024-01-01 00:00+00'::timestamptz"),
            "01/01/2024 09:00:00 +09;");
    }
    expect_str_eq(session_rows(a, "SHOW TimeZone"), "<-05>+05;");
    expect_str_eq(session_rows(b, "SHOW DateStyle"), "SQL, DMY;");
    /* outside a session's call the thread has nothing installed */
    expect_ptr_eq(tdb_typeio(), &tdb_typeio_defaults);
    /* a rolled-back SET restores the zone the types layer reads, also
     * after an error ended the block */
    expect_str_eq(session_rows(a, "BEGIN; SET TimeZone = 'UTC'; ROLLBACK"),
                  "");
    expect_str_eq(session_rows(a, "BEGIN; SET TimeZone = 'UTC'; SELECT 1/0"),
                  "ERROR division by zero;");
    expect_str_eq(session_rows(a, "ROLLBACK; SELECT '2024-01-01 00:00+00'::"
                                  "timestamptz"),
                  "2023-12-31 19:00:00-05;");
    /* now() is one value for the whole transaction, across calls */
    expect_str_eq(session_rows(a, "BEGIN; CREATE TABLE n (t timestamptz); "
                                  "INSERT INTO n VALUES (now())"),
                  "");
    expect_str_eq(session_rows(a, "SELECT t = now() FROM n"), "t;");
    expect_str_eq(session_rows(a, "SELECT t = now() FROM n"), "t;");
    expect_str_eq(session_rows(a, "COMMIT; SELECT t <= now() FROM n"),
                  "t;");
    expect_str_eq(session_rows(a, "DROP TABLE n"), "");
    tdb_session_destroy(a);
    tdb_session_destroy(b);
    tdb_database_close(db);
}
TEST_END

/*
 * A session's defaults: what a client set when it connected
 * (tdb_session_set_default: the server's startup settings) is what
 * RESET, RESET ALL and SET ... TO DEFAULT return to, transactionally;
 * another session keeps the built-in defaults.
 */
TEST_BEGIN(test_session_defaults)
{
    Database *db;
    Session *a;
    Session *b;
    volatile bool raised = false;

    if (tdb_top_mcxt == NULL)
        tdb_mcxt_thread_init();
    db = tdb_database_open(test_path(test_tmpdir(), "db"), NULL);
    a = tdb_session_create(db, NULL);
    b = tdb_session_create(db, NULL);
    tdb_session_set_default(a, "datestyle", "SQL");
    tdb_session_set_default(a, "TimeZone", "Asia/Tokyo");
    tdb_session_set_default(a, "work_mem", "8MB");
    /* a bad value raises as SET does and changes nothing */
    TDB_TRY();
    {
        tdb_session_set_default(a, "work_mem", "lots");
    }
    TDB_CATCH();
    {
        tdb_error_flush();
        raised = true;
    }
    TDB_END_TRY();
    expect_true(raised);
    expect_str_eq(session_rows(a, "SHOW work_mem"), "8MB;");
    /* DateStyle's order part was kept from the built-in default */
    expect_str_eq(session_rows(a, "SHOW DateStyle"), "SQL, MDY;");
    expect_str_eq(session_rows(a, "SET DateStyle = 'ISO, DMY'; "
                                  "RESET DateStyle; SHOW DateStyle"),
                  "SQL, MDY;");
    expect_str_eq(session_rows(a, "SET work_mem = '1MB'; "
                                  "SET work_mem TO DEFAULT; SHOW work_mem"),
                  "8MB;");
    expect_str_eq(session_rows(a, "SET TimeZone = 'UTC'; SET DateStyle = "
                                  "'ISO'; SET lock_timeout = 5; RESET ALL; "
                                  "SHOW TimeZone; SHOW lock_timeout"),
                  "Asia/Tokyo;0;");
    /* the types layer reads the reset values too */
    expect_str_eq(session_rows(a, "SELECT '2024-01-01 00:00+00'::timestamptz"),
                  "01/01/2024 09:00:00 JST;");
    /* RESET ALL in a block rolled back is undone; committed, kept */
    expect_str_eq(session_rows(a, "SET TimeZone = 'UTC'"), "");
    expect_str_eq(session_rows(a, "BEGIN; RESET ALL; SHOW TimeZone; "
                                  "ROLLBACK; SHOW TimeZone"),
                  "Asia/Tokyo;UTC;");
    expect_str_eq(session_rows(a, "BEGIN; SET LOCAL TimeZone TO DEFAULT; "
                                  "SHOW TimeZone; COMMIT; SHOW TimeZone"),
                  "Asia/Tokyo;UTC;");
    expect_str_eq(session_rows(a, "BEGIN; RESET TimeZone; COMMIT; "
                                  "SHOW TimeZone"),
                  "Asia/Tokyo;");
    expect_str_eq(session_rows(a, "RESET nosuch"),
                  "ERROR unrecognized configuration parameter \"nosuch\";");
    /* the other session's defaults are the built-in ones */
    expect_str_eq(session_rows(b, "SET TimeZone = 'Asia/Tokyo'; RESET ALL; "
                                  "SHOW TimeZone; SHOW DateStyle"),
                  "UTC;ISO, MDY;");
    tdb_session_destroy(a);
    tdb_session_destroy(b);
    tdb_database_close(db);
}
TEST_END

/* Every row of a one-column result, newline-separated. */
static void
collect_row(void *arg, int ncolumns, const char *const *values)
{
    Transcript *t = arg;

    if (ncolumns > 0 && values[0] != NULL)
        append(t, values[0], "\n", NULL);
}

static const tupledb_callbacks row_callbacks = {.row = collect_row,
                                                .error = on_error};

/*
 * The Memory Usage figure (kB) EXPLAIN ANALYZE prints under the top node
 * of query, or -1 if that node's line does not start with `node` or the
 * figure is missing.
 */
static long
hash_memory_kb(tupledb *db, const char *query, const char *node)
{
    static const char prefix[] = "\n  Batches: 1  Memory Usage: ";
    char sql[1024];
    Transcript t = {""};
    const char *mem;

    snprintf(sql, sizeof(sql),
             "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) %s", query);
    tupledb_exec(db, sql, &row_callbacks, &t);
    if (strncmp(t.text, node, strlen(node)) != 0)
        return -1;
    mem = strstr(t.text, prefix);
    return mem != NULL ? strtol(mem + strlen(prefix), NULL, 10) : -1;
}

/* EXPLAIN ANALYZE shows a HashAggregate's batches and peak memory (the
 * figure varies, so the regression files cannot hold it). */
TEST_BEGIN(test_explain_hashagg_memory)
{
    tupledb *db = open_test_db();
    long kb = hash_memory_kb(db,
                             "SELECT g % 100, count(*) "
                             "FROM generate_series(1, 10000) g GROUP BY 1",
                             "HashAggregate (actual rows=100 loops=1)");

    /* 100 groups: more than nothing, far less than a megabyte */
    expect_true(kb > 0 && kb < 1024);
    tupledb_close(db);
}
TEST_END

/* A hashed SetOp shows its table's batches and peak memory under EXPLAIN
 * ANALYZE, like HashAggregate; more groups take more memory, and only the
 * first input's groups are stored. */
TEST_BEGIN(test_explain_hashsetop_memory)
{
    tupledb *db = open_test_db();
    long small = hash_memory_kb(db,
                                "SELECT g % 100 FROM generate_series(1, 10000) "
                                "g EXCEPT SELECT g FROM generate_series(1, "
                                "50000) g",
                                "HashSetOp Except (actual rows=1 loops=1)");
    long large = hash_memory_kb(db,
                                "SELECT g FROM generate_series(1, 50000) g "
                                "EXCEPT SELECT g % 100 FROM "
                                "generate_series(1, 10000) g",
                                "HashSetOp Except (actual rows=49901 loops=1)");
    long right_large =
        hash_memory_kb(db,
                       "SELECT g % 100 FROM generate_series(1, 10000) g "
                       "EXCEPT ALL SELECT g FROM generate_series(1, 50000) g",
                       "HashSetOp Except All (actual rows=9901 loops=1)");

    expect_true(small > 0 && small < 1024);
    expect_true(large > 4 * small);
    expect_true(right_large == small);
    tupledb_close(db);
}
TEST_END

/* A set operation over a type that can be neither hashed nor sorted (no
 * array comparison yet) fails cleanly instead of sorting without a
 * comparison function. */
TEST_BEGIN(test_setop_ungroupable_type)
{
    tupledb *db = open_test_db();

    expect_str_eq(run(db, "SELECT '{1}'::int[] INTERSECT SELECT '{1}'::int[]"),
                  "ERROR 42883@0 could not identify an equality operator for "
                  "type integer[];");
    expect_str_eq(run(db, "SELECT '{1}'::int[] UNION SELECT '{2}'::int[]"),
                  "ERROR 42883@0 could not identify an equality operator for "
                  "type integer[];");
    expect_str_eq(run(db, "SELECT '{1}'::int[] UNION ALL SELECT '{2}'::int[]"),
                  "SELECT 2;");
    tupledb_close(db);
}
TEST_END

/*
 * A receiver for INSERT ... RETURNING that records, at every row, how
 * much memory the thread's context tree holds: at the first row and the
 * most at any later one.
 */
typedef struct MemReceiver {
    DestReceiver base;
    uint64 rows;
    Size first;
    Size peak;
} MemReceiver;

static void
mem_startup(DestReceiver *self, TupleDesc desc)
{
    (void)self;
    (void)desc;
}

static void
mem_receive(DestReceiver *self, TupleTableSlot *slot)
{
    MemReceiver *r = (MemReceiver *)self;
    Size now = tdb_mcxt_mem_allocated(tdb_top_mcxt, true);

    (void)slot;
    if (r->rows++ == 0)
        r->first = now;
    if (now > r->peak)
        r->peak = now;
}

/*
 * INSERT ... SELECT forms each row's tuple in per-row memory: 50,000 rows
 * of 16 int4 (about 7 MB of tuples had they all been kept to the end of
 * the statement, as they once were) leave the statement's memory as it
 * was at the first row, within 1 MB.
 */
TEST_BEGIN(test_insert_select_memory)
{
    Database *db;
    Session *s;
    MemReceiver r;
    ErrorData error;

    if (tdb_top_mcxt == NULL)
        tdb_mcxt_thread_init();
    db = tdb_database_open(test_path(test_tmpdir(), "db"), NULL);
    s = tdb_session_create(db, NULL);
    expect_str_eq(session_rows(s, "CREATE TABLE ins16 (c1 int4, c2 int4, "
                                  "c3 int4, c4 int4, c5 int4, c6 int4, "
                                  "c7 int4, c8 int4, c9 int4, c10 int4, "
                                  "c11 int4, c12 int4, c13 int4, c14 int4, "
                                  "c15 int4, c16 int4)"),
                  "");
    memset(&r, 0, sizeof(r));
    r.base.startup = mem_startup;
    r.base.receive = mem_receive;
    r.base.complete = text_complete;
    expect_true(tdb_session_exec(
        s,
        "INSERT INTO ins16 SELECT g, g, g, g, g, g, g, g, g, g, g, g, g, g, "
        "g, g FROM generate_series(1, 50000) g RETURNING c16",
        &r.base, &error));
    expect_int_eq(r.rows, 50000);
    expect_true(r.peak - r.first < 1024 * 1024);
    expect_str_eq(session_rows(s, "SELECT count(*) FROM ins16"), "50000;");
    tdb_session_destroy(s);
    tdb_database_close(db);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "tcop_session", TEST_CASE(test_transaction_blocks),
        TEST_CASE(test_implicit_transaction), TEST_CASE(test_invalid_utf8),
        TEST_CASE(test_utility_statements), TEST_CASE(test_cancel),
        TEST_CASE(test_statement_timeout), TEST_CASE(test_settings_per_session),
        TEST_CASE(test_session_defaults),
        TEST_CASE(test_explain_hashagg_memory),
        TEST_CASE(test_explain_hashsetop_memory),
        TEST_CASE(test_setop_ungroupable_type),
        TEST_CASE(test_insert_select_memory));
}
