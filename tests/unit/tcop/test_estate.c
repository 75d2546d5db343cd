/*
 * test_estate.c -- what the EState built for a session's statement holds
 * (tdb_sql_create_estate, commands/commands.h, over a Statement made by
 * tdb_tcop_statement), which every statement path (queries, EXPLAIN
 * ANALYZE, COPY, CREATE TABLE AS, portals) uses.
 *
 *   test_estate_temp_dir  temp_dir is the database's base/pgsql_tmp, the
 *       same string for every statement (computed once per database);
 *       a spill file made the way an executor node makes one lives in it
 *       and is gone when the executor's state is freed.
 *   test_spill_disk_full  a hash aggregation spilling to disk when the
 *       disk fills up (an injected ENOSPC, debug builds): the statement
 *       fails with 53100 naming the file, no temporary file is left, and
 *       the session runs the same query to the right answer afterwards.
 */
#include "common/base.h"

#include "storage/storage_test.h"
#include "test.h"
/* after storage_test.h, whose helpers name a parameter "text" */
#include "catalog/database.h"
#include "commands/commands.h"
#include "executor/executor.h"
#include "storage/fd.h"
#include "storage/tempfile.h"
#include "tcop/session.h"
#include "tcop/tcop_int.h"

TEST_BEGIN(test_estate_temp_dir)
{
    const char *path = test_path(test_tmpdir(), "db");
    char *expected = tdb_tempfile_dir_for(tdb_current_mcxt, path);
    Database *db = tdb_database_open(path, NULL);
    Session *s = tdb_session_create(db, NULL);
    Statement st = tdb_tcop_statement(s, "", NULL, NULL);
    PlannedStmt stmt = {0};
    EState *e1, *e2;
    TempFile *f;
    bool is_empty = false;

    expect_str_eq(tdb_database_temp_dir(db), expected);

    e1 = tdb_sql_create_estate(&st, &stmt);
    e2 = tdb_sql_create_estate(&st, &stmt);
    expect_str_eq(e1->temp_dir, expected);
    expect_ptr_eq(e1->temp_dir, e2->temp_dir); /* not made per statement */
    tdb_exec_free_estate(e2);
    if (e1->temp_dir == NULL) {
        tdb_exec_free_estate(e1);
        tdb_session_destroy(s);
        tdb_database_close(db);
        return;
    }

    /* a spill file as a node makes one: in the statement's context */
    f = tdb_tempfile_create(e1->query_mcxt, e1->temp_dir, 8192);
    tdb_tempfile_write(f, "spilled", 7);
    expect_str_contains(tdb_tempfile_path(f), expected);
    expect_true(file_exists(tdb_tempfile_path(f)));
    tdb_exec_free_estate(e1);
    expect_int_eq(tdb_fd_dir_is_empty(expected, &is_empty), 0);
    expect_true(is_empty);

    tdb_session_destroy(s);
    tdb_database_close(db);
}
TEST_END

/* A receiver keeping the first column of the last row as text. */
typedef struct LastValue {
    DestReceiver base;
    char text[64];
} LastValue;

static void
last_startup(DestReceiver *self, TupleDesc desc)
{
    (void)self;
    (void)desc;
}

static void
last_receive(DestReceiver *self, TupleTableSlot *slot)
{
    LastValue *r = (LastValue *)self;
    bool isnull;
    Datum v = tdb_slot_getattr(slot, 1, &isnull);

    snprintf(r->text, sizeof(r->text), "%lld",
             isnull ? -1LL : (long long)DatumGetInt64(v));
}

static void
last_complete(DestReceiver *self, const char *tag)
{
    (void)self;
    (void)tag;
}

/* Run sql; its first column as text, or "ERROR <sqlstate> <message>". */
static const char *
run_sql(Session *s, const char *sql)
{
    static LastValue r;
    static char out[ERRMSG_MAX + 16];
    ErrorData error;
    char state[6];

    memset(&r, 0, sizeof(r));
    r.base.startup = last_startup;
    r.base.receive = last_receive;
    r.base.complete = last_complete;
    if (tdb_session_exec(s, sql, &r.base, &error))
        return r.text;
    tdb_sqlstate_unpack(error.sqlerrcode, state);
    snprintf(out, sizeof(out), "ERROR %s %s", state, error.message);
    return out;
}

TEST_BEGIN(test_spill_disk_full)
{
    const char *path = test_path(test_tmpdir(), "db");
    const char *groups = "SELECT count(*) FROM (SELECT g, count(*) FROM "
                         "generate_series(1, 200000) g GROUP BY g) x";
    Database *db;
    Session *s;
    bool is_empty = false;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    db = tdb_database_open(path, NULL);
    s = tdb_session_create(db, NULL);
    expect_str_eq(run_sql(s, "SET work_mem = '64kB'"), "");

    /* the disk fills up on the spill files' 20th write */
    expect_true(tdb_fd_inject(FD_OP_WRITE, 20, ENOSPC));
    expect_str_contains(run_sql(s, groups),
                        "ERROR 53100 could not write to file \"");
    expect_str_contains(run_sql(s, groups), "200000"); /* not "ERROR" */
    tdb_fd_inject_clear();
    expect_int_eq(tdb_fd_dir_is_empty(tdb_database_temp_dir(db), &is_empty),
                  0);
    expect_true(is_empty);

    tdb_session_destroy(s);
    tdb_database_close(db);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "tcop_estate", TEST_CASE(test_estate_temp_dir),
                     TEST_CASE(test_spill_disk_full));
}
