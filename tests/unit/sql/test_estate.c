/*
 * test_estate.c -- what the SQL layer puts into the EState it builds for
 * a statement (tdb_sql_create_estate, sql_int.h), which every statement
 * path (queries, EXPLAIN ANALYZE, COPY, CREATE TABLE AS, portals) uses.
 *
 *   test_estate_temp_dir  temp_dir is the database's base/pgsql_tmp, the
 *       same string for every statement (computed once per database);
 *       a spill file made the way an executor node makes one lives in it
 *       and is gone when the executor's state is freed.
 */
#include "common/base.h"

#include "storage/storage_test.h"
#include "test.h"
/* after storage_test.h, whose helpers name a parameter "text" */
#include "catalog/database.h"
#include "executor/executor.h"
#include "sql/session.h"
#include "sql/sql_int.h"
#include "storage/fd.h"
#include "storage/tempfile.h"

TEST_BEGIN(test_estate_temp_dir)
{
    const char *path = test_path(test_tmpdir(), "db");
    char *expected = tdb_tempfile_dir_for(tdb_current_mcxt, path);
    Database *db = tdb_database_open(path, NULL);
    Session *s = tdb_session_create(db, NULL);
    Statement st = {.session = s};
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

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "sql_estate", TEST_CASE(test_estate_temp_dir));
}
