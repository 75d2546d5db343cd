/*
 * catalog_test.h -- what the catalog's tests (test_catalog.c,
 * test_toast_catalog.c, test_index_catalog.c, test_roles.c) share: opening a database on a test
 * data directory so that a test which fails with the database still open
 * does not leave its buffer pool behind for the next test.  Header-only,
 * `static TDB_UNUSED`.
 */
#ifndef TDB_TESTS_CATALOG_TEST_H
#define TDB_TESTS_CATALOG_TEST_H

#include "common/base.h"

#include <stdio.h>
#include <unistd.h>

#include "catalog/database.h"
#include "mmgr/mcxt.h"
#include "storage/bufmgr.h"

/* Test end (the top context's reset): a pool a failed test left open is
 * dropped, so the next test can open its database. */
static TDB_UNUSED void
catalog_test_pool_cleanup(void *arg)
{
    (void)arg;
    if (tdb_bufmgr_is_initialized())
        tdb_bufmgr_discard();
}

/* tdb_database_open(path, options), with the pool dropped at test end if
 * the test leaves it open. */
static TDB_UNUSED Database *
catalog_test_open_db(const char *path, const DatabaseOptions *options)
{
    MemoryContextCallback *cleanup =
        tdb_mcxt_alloc_zero(tdb_top_mcxt, sizeof(MemoryContextCallback));

    cleanup->func = catalog_test_pool_cleanup;
    tdb_mcxt_register_reset_callback(tdb_top_mcxt, cleanup);
    return tdb_database_open(path, options);
}

/* catalog_test_open_db with a small pool (64 buffers). */
static TDB_UNUSED Database *
catalog_test_open_small(const char *path)
{
    DatabaseOptions options = {.nbuffers = 64};

    return catalog_test_open_db(path, &options);
}

/* Whether relation file rel (segment 0, main fork) exists in the data
 * directory at db_path. */
static TDB_UNUSED bool
catalog_test_file_exists(const char *db_path, RelFileNumber rel)
{
    char buf[600];

    snprintf(buf, sizeof(buf), "%s/base/%u", db_path, rel);
    return access(buf, F_OK) == 0;
}

#endif
