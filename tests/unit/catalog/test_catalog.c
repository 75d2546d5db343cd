/*
 * test_catalog.c -- the catalog and the whole storage stack below it,
 * through the API a C program uses (database.h, catalog.h, heapam.h):
 * bootstrap, CREATE / DROP / TRUNCATE with commit and abort, reopen after
 * a clean close and after a crash, concurrent readers and a writer on
 * threads, and bad input (damaged files, a full disk, misuse).
 */
#include "common/base.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

#include "access/heapam.h"
#include "access/lmgr.h"
#include "access/snapshot.h"
#include "access/vacuum.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/catalog_test.h"
#include "catalog/database.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "storage/bufmgr.h"
#include "storage/fd.h"
#include "storage/storage_test.h"
#include "toast/toast.h"
#include "test.h"
#include "tuple/varlena.h"

/* ----------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------- */

static const char *
new_db_path(void)
{
    return test_path(test_tmpdir(), "db");
}

/* Open the database at path and a session on it. */
static Transaction *
open_session(const char *path, Database **db)
{
    *db = catalog_test_open_small(path);
    return tdb_database_session(*db, NULL);
}

/* End the session and close the database cleanly. */
static void
close_session(Database *db, Transaction *s)
{
    tdb_xact_destroy(s);
    tdb_database_close(db);
}

/* Path of relation file rel of the database at path. */
static const char *
rel_path(const char *db_path, RelFileNumber rel)
{
    char buf[600];

    snprintf(buf, sizeof(buf), "%s/base/%u", db_path, rel);
    return tdb_mcxt_strdup(tdb_current_mcxt, buf);
}

static const ColumnDef account_columns[] = {
    {"id", INT4OID, -1, true, NULL, 0, 0},
    {"balance", INT8OID, -1, false, "0", 0, 0},
    {"owner", VARCHAROID, 20 + 4, false, NULL, 0, 0},
};

static Oid
create_accounts(Transaction *s, const char *name)
{
    return tdb_catalog_create_table(s, name, account_columns, 3, false);
}

static void
insert_account(Transaction *s, Relation rel, int32 id, int64 balance)
{
    Datum values[3] = {Int32GetDatum(id), Int64GetDatum(balance),
                       PointerGetDatum(tdb_text_from_cstring("owner"))};
    bool isnull[3] = {false, false, false};

    tdb_heap_insert(rel, tdb_heap_form_tuple(rel->rd_att, values, isnull), s,
                    NULL);
}

/* Insert accounts 1..n with balance 100 each into table name, in one
 * transaction, committed. */
static void
fill_accounts(Transaction *s, const char *name, int n)
{
    Relation rel;

    tdb_xact_begin(s);
    rel = tdb_relation_open(s, name, REL_LOCK_SHARE);
    for (int i = 1; i <= n; i++)
        insert_account(s, rel, i, 100);
    tdb_relation_close(rel);
    expect_true(tdb_xact_commit(s));
}

/* CREATE TABLE name (accounts) and fill it with n rows, committed. */
static void
create_filled(Transaction *s, const char *name, int n)
{
    tdb_xact_begin(s);
    create_accounts(s, name);
    tdb_xact_commit(s);
    if (n > 0)
        fill_accounts(s, name, n);
}

/* Rows and balance total of table name, with a statement snapshot. */
static int
count_rows(Transaction *s, const char *name, int64 *total)
{
    Relation rel = tdb_relation_open(s, name, REL_LOCK_SHARE);
    Snapshot snap = tdb_snapshot_take(tdb_xact_manager_of(s), s,
                                      tdb_current_mcxt);
    HeapScanDesc scan = tdb_heap_beginscan(rel, snap);
    HeapTuple tup;
    int n = 0;

    if (total != NULL)
        *total = 0;
    while ((tup = tdb_heap_getnext(scan)) != NULL) {
        bool isnull;

        if (total != NULL)
            *total += DatumGetInt64(
                tdb_heap_getattr(tup, 2, rel->rd_att, &isnull));
        n++;
    }
    tdb_heap_endscan(scan);
    tdb_relation_close(rel);
    return n;
}

/* count_rows in a transaction of its own. */
static int
count_committed(Transaction *s, const char *name)
{
    int n;

    tdb_xact_begin(s);
    n = count_rows(s, name, NULL);
    tdb_xact_commit(s);
    return n;
}

/* Reopen the database at path: table name must hold n committed rows. */
static void
expect_rows_after_reopen(const char *path, const char *name, int n)
{
    Database *db;
    Transaction *s = open_session(path, &db);

    expect_int_eq(count_committed(s, name), n);
    close_session(db, s);
}

/* Does table name exist (a fresh lookup in a transaction of its own)? */
static bool
table_exists(Transaction *s, const char *name)
{
    Oid relid;

    tdb_xact_begin(s);
    relid = tdb_catalog_lookup_table(s, name);
    tdb_xact_commit(s);
    return relid != InvalidOid;
}

static RelFileNumber
relfilenumber_of(Transaction *s, const char *name)
{
    Relation rel;
    RelFileNumber result;

    tdb_xact_begin(s);
    rel = tdb_relation_open(s, name, REL_LOCK_SHARE);
    result = rel->rd_relfilenumber;
    tdb_relation_close(rel);
    tdb_xact_commit(s);
    return result;
}

/* ----------------------------------------------------------------------
 * Bootstrap and definitions
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_bootstrap)
{
    const char *path = new_db_path();
    Database *db;
    Transaction *s = open_session(path, &db);
    Relation rel;
    int ntypes;

    (void)tdb_type_all(&ntypes);
    tdb_xact_begin(s);
    expect_int_eq(count_rows(s, "pg_class", NULL), 8);
    expect_int_eq(count_rows(s, "pg_type", NULL), ntypes);
    /* pg_catalog, public, pg_toast */
    expect_int_eq(count_rows(s, "pg_namespace", NULL), 3);
    expect_int_eq(count_rows(s, "pg_attribute", NULL),
                  2 + 12 + 11 + 13 + 4 + 9 + 11 + 21);
    expect_int_eq(count_rows(s, "pg_authid", NULL), 1);
    rel = tdb_relation_open(s, "pg_class", REL_LOCK_SHARE);
    expect_int_eq(rel->rd_id, RelationRelationId);
    expect_int_eq(rel->rd_att->natts, 11); /* relallvisible last */
    expect_str_eq(TupleDescAttr(rel->rd_att, 1)->attname, "relname");
    expect_int_eq(TupleDescAttr(rel->rd_att, 1)->atttypid, NAMEOID);
    tdb_relation_close(rel);
    tdb_xact_commit(s);
    close_session(db, s);

    /* reopening does not bootstrap again */
    s = open_session(path, &db);
    tdb_xact_begin(s);
    expect_int_eq(count_rows(s, "pg_class", NULL), 8);
    tdb_xact_commit(s);
    close_session(db, s);
}
TEST_END

TEST_BEGIN(test_create_table_definition)
{
    const char *path = new_db_path();
    Database *db;
    Transaction *s = open_session(path, &db);
    Relation rel;
    Oid relid;

    tdb_xact_begin(s);
    relid = create_accounts(s, "accounts");
    expect_true(relid >= FirstNormalObjectId);
    expect_true(tdb_xact_commit(s));
    close_session(db, s);

    s = open_session(path, &db);
    tdb_xact_begin(s);
    rel = tdb_relation_open(s, "accounts", REL_LOCK_SHARE);
    expect_int_eq(rel->rd_id, relid);
    expect_int_eq(rel->rd_relfilenumber, relid);
    expect_str_eq(rel->rd_name, "accounts");
    expect_int_eq(rel->rd_att->natts, 3);
    expect_str_eq(TupleDescAttr(rel->rd_att, 0)->attname, "id");
    expect_int_eq(TupleDescAttr(rel->rd_att, 0)->atttypid, INT4OID);
    expect_true(TupleDescAttr(rel->rd_att, 0)->attnotnull);
    expect_int_eq(TupleDescAttr(rel->rd_att, 1)->atttypid, INT8OID);
    expect_int_eq(TupleDescAttr(rel->rd_att, 1)->attlen, 8);
    expect_true(TupleDescAttr(rel->rd_att, 1)->atthasdef);
    expect_false(TupleDescAttr(rel->rd_att, 1)->attnotnull);
    expect_int_eq(TupleDescAttr(rel->rd_att, 2)->atttypid, VARCHAROID);
    expect_int_eq(TupleDescAttr(rel->rd_att, 2)->atttypmod, 24);
    expect_int_eq(TupleDescAttr(rel->rd_att, 2)->attlen, -1);
    expect_true(tdb_relation_column_default(rel, 1) == NULL);
    expect_str_eq(tdb_relation_column_default(rel, 2), "0");
    tdb_relation_close(rel);
    tdb_xact_commit(s);
    close_session(db, s);
}
TEST_END

TEST_BEGIN(test_create_errors)
{
    Database *db = catalog_test_open_small(new_db_path());
    Transaction *s = tdb_database_session(db, NULL);
    ColumnDef dup[2] = {{"a", INT4OID, -1, false, NULL, 0, 0},
                        {"a", TEXTOID, -1, false, NULL, 0, 0}};
    ColumnDef badtype[1] = {{"a", 4242, -1, false, NULL, 0, 0}};
    ColumnDef pseudo[1] = {{"a", UNKNOWNOID, -1, false, NULL, 0, 0}};
    ColumnDef *many = tdb_palloc0(1601 * sizeof(ColumnDef));
    NoticeCapture notices;

    for (int i = 0; i < 1601; i++) {
        char name[16];

        snprintf(name, sizeof(name), "c%d", i);
        many[i] = (ColumnDef){tdb_mcxt_strdup(tdb_current_mcxt, name),
                              INT4OID, -1, false, NULL, 0, 0};
    }
    tdb_xact_begin(s);
    create_accounts(s, "t");
    expect_error(create_accounts(s, "t"), ERRCODE_DUPLICATE_TABLE,
                 "relation \"t\" already exists");
    tdb_xact_abort(s);

    tdb_xact_begin(s);
    create_accounts(s, "t");
    notice_capture_begin(&notices);
    expect_int_eq(tdb_catalog_create_table(s, "t", account_columns, 3, true),
                  InvalidOid);
    notice_capture_end(&notices);
    expect_str_contains(notices.last,
                        "relation \"t\" already exists, skipping");
    expect_error(tdb_catalog_create_table(s, "u", dup, 2, false),
                 ERRCODE_DUPLICATE_COLUMN,
                 "column \"a\" specified more than once");
    expect_error(tdb_catalog_create_table(s, "u", badtype, 1, false),
                 ERRCODE_UNDEFINED_OBJECT, "type with OID 4242");
    expect_error(tdb_catalog_create_table(s, "u", pseudo, 1, false),
                 ERRCODE_INVALID_TABLE_DEFINITION,
                 "column \"a\" has pseudo-type unknown");
    expect_error(tdb_catalog_create_table(s, "u", many, 1601, false),
                 ERRCODE_TOO_MANY_COLUMNS,
                 "tables can have at most 1600 columns");
    expect_error(tdb_catalog_create_table(
                     s,
                     "a_name_that_is_far_too_long_for_a_postgresql_identifier_"
                     "to_hold_at_all",
                     account_columns, 3, false),
                 ERRCODE_NAME_TOO_LONG, "is too long");
    expect_error(tdb_relation_open(s, "nope", REL_LOCK_SHARE),
                 ERRCODE_UNDEFINED_TABLE, "relation \"nope\" does not exist");
    expect_error(tdb_catalog_drop_table(s, "pg_class", false),
                 ERRCODE_INSUFFICIENT_PRIVILEGE, "is a system catalog");
    expect_error(tdb_catalog_drop_table(s, "nope", false),
                 ERRCODE_UNDEFINED_TABLE, "table \"nope\" does not exist");
    notice_capture_begin(&notices);
    expect_false(tdb_catalog_drop_table(s, "nope", true));
    notice_capture_end(&notices);
    expect_str_contains(notices.last,
                        "table \"nope\" does not exist, skipping");
    tdb_xact_commit(s);
    /* the 1601-column table did not happen; t did */
    expect_true(table_exists(s, "t"));
    expect_false(table_exists(s, "u"));
    close_session(db, s);
}
TEST_END

/* ----------------------------------------------------------------------
 * Transactional DDL
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_create_abort_removes_file)
{
    const char *path = new_db_path();
    Database *db;
    Transaction *s = open_session(path, &db);
    Relation rel;
    Oid relid;

    tdb_xact_begin(s);
    relid = create_accounts(s, "t");
    rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);
    for (int i = 0; i < 3000; i++)
        insert_account(s, rel, i, 1);
    tdb_relation_close(rel);
    expect_true(file_exists(rel_path(path, relid)));
    tdb_xact_abort(s);

    expect_false(file_exists(rel_path(path, relid)));
    expect_false(table_exists(s, "t"));
    /* the pool holds nothing of it: a flush does not try to write it */
    tdb_buf_flush_all();
    close_session(db, s);
}
TEST_END

TEST_BEGIN(test_drop_table)
{
    const char *path = new_db_path();
    Database *db;
    Transaction *s = open_session(path, &db);
    RelFileNumber file;

    create_filled(s, "t", 500);
    file = relfilenumber_of(s, "t");

    /* aborted drop: nothing happened */
    tdb_xact_begin(s);
    expect_true(tdb_catalog_drop_table(s, "t", false));
    expect_error(tdb_relation_open(s, "t", REL_LOCK_SHARE),
                 ERRCODE_UNDEFINED_TABLE, NULL);
    tdb_xact_abort(s);
    expect_int_eq(count_committed(s, "t"), 500);
    expect_true(file_exists(rel_path(path, file)));

    /* committed drop: the file goes at commit, not before */
    tdb_xact_begin(s);
    tdb_catalog_drop_table(s, "t", false);
    expect_true(file_exists(rel_path(path, file)));
    tdb_xact_commit(s);
    expect_false(file_exists(rel_path(path, file)));
    expect_false(table_exists(s, "t"));

    /* the name can be used again */
    tdb_xact_begin(s);
    create_accounts(s, "t");
    tdb_xact_commit(s);
    expect_int_eq(count_committed(s, "t"), 0);
    close_session(db, s);
}
TEST_END

TEST_BEGIN(test_truncate)
{
    const char *path = new_db_path();
    Database *db;
    Transaction *s = open_session(path, &db);
    RelFileNumber old_file, new_file;
    Oid relid;

    tdb_xact_begin(s);
    relid = create_accounts(s, "t");
    tdb_xact_commit(s);
    fill_accounts(s, "t", 300);
    old_file = relfilenumber_of(s, "t");

    /* aborted: rows back, the new file gone */
    tdb_xact_begin(s);
    tdb_catalog_truncate_table(s, relid);
    expect_int_eq(count_rows(s, "t", NULL), 0);
    new_file = tdb_relation_open(s, "t", REL_LOCK_SHARE)->rd_relfilenumber;
    expect_true(new_file != old_file);
    expect_true(file_exists(rel_path(path, new_file)));
    tdb_xact_abort(s);
    expect_int_eq(count_committed(s, "t"), 300);
    expect_false(file_exists(rel_path(path, new_file)));
    expect_int_eq(relfilenumber_of(s, "t"), old_file);

    /* committed, twice in one transaction, rows inserted in between */
    tdb_xact_begin(s);
    tdb_catalog_truncate_table(s, relid);
    {
        Relation rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);

        insert_account(s, rel, 1, 1);
        tdb_relation_close(rel);
    }
    tdb_xact_command_counter_increment(s);
    tdb_catalog_truncate_table(s, relid);
    tdb_xact_commit(s);
    expect_int_eq(count_committed(s, "t"), 0);
    expect_false(file_exists(rel_path(path, old_file)));
    new_file = relfilenumber_of(s, "t");
    expect_true(file_exists(rel_path(path, new_file)));
    /* the OID stays */
    tdb_xact_begin(s);
    expect_int_eq(tdb_catalog_lookup_table(s, "t"), relid);
    tdb_xact_commit(s);
    fill_accounts(s, "t", 10);
    close_session(db, s);
    expect_rows_after_reopen(path, "t", 10);
}
TEST_END

/* ----------------------------------------------------------------------
 * Reopen: clean close and crash
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_reopen_committed_state)
{
    const char *path = new_db_path();
    Database *db;
    Transaction *s = open_session(path, &db);
    Relation rel;
    int64 total;

    tdb_xact_begin(s);
    create_accounts(s, "a");
    create_accounts(s, "b");
    tdb_xact_commit(s);
    fill_accounts(s, "a", 2000);
    /* an aborted transaction's rows, in both tables */
    tdb_xact_begin(s);
    rel = tdb_relation_open(s, "a", REL_LOCK_SHARE);
    for (int i = 0; i < 100; i++)
        insert_account(s, rel, -i, 1);
    tdb_relation_close(rel);
    tdb_xact_abort(s);
    fill_accounts(s, "b", 7);
    close_session(db, s);

    s = open_session(path, &db);
    tdb_xact_begin(s);
    expect_int_eq(count_rows(s, "a", &total), 2000);
    expect_int_eq(total, 200000);
    expect_int_eq(count_rows(s, "b", NULL), 7);
    tdb_xact_commit(s);
    close_session(db, s);
}
TEST_END

TEST_BEGIN(test_crash_keeps_committed)
{
    const char *path = new_db_path();
    Database *db;
    Transaction *s = open_session(path, &db);
    Relation rel;

    create_filled(s, "t", 1000);
    /* a transaction in progress when the process dies */
    tdb_xact_begin(s);
    rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);
    for (int i = 0; i < 1000; i++)
        insert_account(s, rel, 5000 + i, 1);
    tdb_buf_flush_all(); /* some of it even reached the disk */
    for (int i = 0; i < 10; i++)
        insert_account(s, rel, 9000 + i, 1);
    tdb_buf_release_all_pins_of_thread();
    /* the session dies with the process: its abort is only in memory */
    tdb_xact_destroy(s);
    tdb_database_abandon(db); /* no flush, no clean shutdown */

    s = open_session(path, &db);
    expect_int_eq(count_committed(s, "t"), 1000);
    /* and writing goes on after the crash */
    fill_accounts(s, "t", 5);
    expect_int_eq(count_committed(s, "t"), 1005);
    close_session(db, s);
}
TEST_END

/* ----------------------------------------------------------------------
 * Concurrency: readers and a writer
 * ---------------------------------------------------------------------- */

typedef struct BankShared {
    Database *db;
    int naccounts;
    volatile bool stop;
    volatile int transfers;
    volatile int scans;
    volatile int bad_scans;
} BankShared;

/* Readers: every snapshot must see the same total and every account. */
static void *
bank_reader(void *arg)
{
    BankShared *shared = arg;
    MemoryContext cxt =
        tdb_aset_create(NULL, "bank reader", ALLOCSET_DEFAULT_SIZES);
    Transaction *s = tdb_database_session(shared->db, cxt);

    tdb_mcxt_switch_to(cxt);
    while (!shared->stop) {
        MemoryContext stmt =
            tdb_aset_create(cxt, "stmt", ALLOCSET_DEFAULT_SIZES);
        MemoryContext old = tdb_mcxt_switch_to(stmt);
        int64 total;
        int n;

        tdb_xact_begin(s);
        n = count_rows(s, "accounts", &total);
        tdb_xact_commit(s);
        if (n != shared->naccounts ||
            total != (int64)shared->naccounts * 100)
            __atomic_add_fetch(&shared->bad_scans, 1, __ATOMIC_SEQ_CST);
        __atomic_add_fetch(&shared->scans, 1, __ATOMIC_SEQ_CST);
        tdb_mcxt_switch_to(old);
        tdb_mcxt_delete(stmt);
    }
    tdb_xact_destroy(s);
    tdb_mcxt_delete(cxt);
    return NULL;
}

/* The writer: move money between two accounts by updating both rows;
 * every other transaction aborts half-way. */
static void
bank_transfer(Transaction *s, int from, int to, int amount, bool abort)
{
    Relation rel = tdb_relation_open(s, "accounts", REL_LOCK_SHARE);
    Snapshot snap =
        tdb_snapshot_take(tdb_xact_manager_of(s), s, tdb_current_mcxt);
    HeapScanDesc scan = tdb_heap_beginscan(rel, snap);
    ItemPointerData tids[2];
    int64 balances[2];
    HeapTuple tup;

    while ((tup = tdb_heap_getnext(scan)) != NULL) {
        bool isnull;
        int32 id = DatumGetInt32(tdb_heap_getattr(tup, 1, rel->rd_att,
                                                  &isnull));
        int64 bal = DatumGetInt64(tdb_heap_getattr(tup, 2, rel->rd_att,
                                                   &isnull));

        if (id == from || id == to) {
            tids[id == to] = tup->t_self;
            balances[id == to] = bal;
        }
    }
    tdb_heap_endscan(scan);
    for (int k = 0; k < 2; k++) {
        Datum values[3] = {Int32GetDatum(k == 0 ? from : to),
                           Int64GetDatum(balances[k] +
                                         (k == 0 ? -amount : amount)),
                           PointerGetDatum(tdb_text_from_cstring("owner"))};
        bool isnull[3] = {false, false, false};
        TM_FailureData tmfd;

        expect_int_eq(
            tdb_heap_update(rel, &tids[k],
                            tdb_heap_form_tuple(rel->rd_att, values, isnull),
                            s, &tmfd),
            TM_OK);
        if (abort)
            break; /* half a transfer, then the transaction dies */
    }
    tdb_relation_close(rel);
}

TEST_BEGIN(test_readers_and_writer)
{
    BankShared shared = {0};
    pthread_t readers[3];
    Transaction *s;
    int rounds = RUNNING_ON_VALGRIND ? 30 : 400;
    uint64 rng = tdb_test_seed();

    shared.db = catalog_test_open_small(new_db_path());
    shared.naccounts = 200;
    s = tdb_database_session(shared.db, NULL);
    create_filled(s, "accounts", shared.naccounts);

    for (int i = 0; i < 3; i++)
        pthread_create(&readers[i], NULL, bank_reader, &shared);
    for (int r = 0; r < rounds; r++) {
        MemoryContext stmt =
            tdb_aset_create(NULL, "writer stmt", ALLOCSET_DEFAULT_SIZES);
        MemoryContext old = tdb_mcxt_switch_to(stmt);
        int from = 1 + (int)(tdb_test_rand(&rng) % shared.naccounts);
        int to = 1 + (int)((from + 1 + tdb_test_rand(&rng) % 10) %
                           shared.naccounts);
        bool abort = r % 2 == 1;

        tdb_xact_begin(s);
        bank_transfer(s, from, to, 1 + r % 50, abort);
        if (abort)
            tdb_xact_abort(s);
        else
            expect_true(tdb_xact_commit(s));
        shared.transfers++;
        tdb_mcxt_switch_to(old);
        tdb_mcxt_delete(stmt);
    }
    shared.stop = true;
    for (int i = 0; i < 3; i++)
        pthread_join(readers[i], NULL);
    expect_int_eq(shared.bad_scans, 0);
    expect_true(shared.scans > 0);
    {
        int64 total;

        tdb_xact_begin(s);
        expect_int_eq(count_rows(s, "accounts", &total), shared.naccounts);
        expect_int_eq(total, (int64)shared.naccounts * 100);
        tdb_xact_commit(s);
    }
    tdb_xact_destroy(s);
    tdb_database_close(shared.db);
}
TEST_END

/* A reader's open transaction on a table holds DROP until it ends. */
typedef struct DropShared {
    Database *db;
    volatile int phase; /* 1: drop started, 2: drop committed */
} DropShared;

static void *
dropper(void *arg)
{
    DropShared *shared = arg;
    MemoryContext cxt = tdb_aset_create(NULL, "dropper", ALLOCSET_DEFAULT_SIZES);
    Transaction *s = tdb_database_session(shared->db, cxt);

    tdb_mcxt_switch_to(cxt);
    tdb_xact_begin(s);
    __atomic_store_n(&shared->phase, 1, __ATOMIC_SEQ_CST);
    tdb_catalog_drop_table(s, "t", false);
    tdb_xact_commit(s);
    __atomic_store_n(&shared->phase, 2, __ATOMIC_SEQ_CST);
    tdb_xact_destroy(s);
    tdb_mcxt_delete(cxt);
    return NULL;
}

TEST_BEGIN(test_drop_waits_for_reader)
{
    DropShared shared = {0};
    Transaction *s;
    pthread_t thread;
    Relation rel;
    Snapshot snap;
    HeapScanDesc scan;
    int n = 0;

    shared.db = catalog_test_open_small(new_db_path());
    s = tdb_database_session(shared.db, NULL);
    create_filled(s, "t", 3000);

    tdb_xact_begin(s);
    rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);
    snap = tdb_snapshot_take(tdb_xact_manager_of(s), s, tdb_current_mcxt);
    scan = tdb_heap_beginscan(rel, snap);
    expect_true(tdb_heap_getnext(scan) != NULL);
    pthread_create(&thread, NULL, dropper, &shared);
    while (__atomic_load_n(&shared.phase, __ATOMIC_SEQ_CST) < 1)
        usleep(1000);
    usleep(50000);
    /* the drop waits for our lock: the scan finishes over the whole file */
    expect_int_eq(__atomic_load_n(&shared.phase, __ATOMIC_SEQ_CST), 1);
    n = 1;
    while (tdb_heap_getnext(scan) != NULL)
        n++;
    tdb_heap_endscan(scan);
    expect_int_eq(n, 3000);
    tdb_relation_close(rel);
    tdb_xact_commit(s);
    pthread_join(thread, NULL);
    expect_int_eq(shared.phase, 2);
    expect_false(table_exists(s, "t"));
    tdb_xact_destroy(s);
    tdb_database_close(shared.db);
}
TEST_END

/* ----------------------------------------------------------------------
 * Bad input
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_flipped_byte_detected)
{
    const char *path = new_db_path();
    Database *db;
    Transaction *s = open_session(path, &db);
    RelFileNumber file;
    FILE *f;
    int c;

    create_filled(s, "t", 100);
    file = relfilenumber_of(s, "t");
    close_session(db, s);

    /* flip one bit of a row on disk */
    f = fopen(rel_path(path, file), "r+b");
    expect_true(f != NULL);
    fseek(f, BLCKSZ - 40, SEEK_SET);
    c = fgetc(f);
    fseek(f, BLCKSZ - 40, SEEK_SET);
    fputc(c ^ 0x10, f);
    fclose(f);

    s = open_session(path, &db);
    tdb_xact_begin(s);
    {
        char msg[128];

        snprintf(msg, sizeof(msg), "invalid page in block 0 of relation base/%u",
                 file);
        expect_error(count_rows(s, "t", NULL), ERRCODE_DATA_CORRUPTED, msg);
    }
    tdb_buf_release_all_pins_of_thread();
    tdb_xact_abort(s);
    /* other tables are unaffected */
    expect_int_eq(count_committed(s, "pg_namespace"), 3);
    close_session(db, s);
}
TEST_END

/* Run access on table "t" in a transaction of s: it must fail with
 * XX001 "missing blocks"; the transaction is then aborted. */
#define expect_damaged(s, access)                                              \
    do {                                                                       \
        tdb_xact_begin(s);                                                     \
        expect_error(access, ERRCODE_DATA_CORRUPTED,                           \
                     "relation \"t\" is missing blocks");                      \
        tdb_buf_release_all_pins_of_thread();                                  \
        tdb_xact_abort(s);                                                     \
    } while (0)

/* Delete the row at (blkno, off) of table name in s's transaction. */
static void
delete_row_at(Transaction *s, const char *name, BlockNumber blkno,
              OffsetNumber off)
{
    Relation rel = tdb_relation_open(s, name, REL_LOCK_SHARE);
    ItemPointerData tid;
    TM_FailureData tmfd;

    ItemPointerSet(&tid, blkno, off);
    expect_int_eq(tdb_heap_delete(rel, &tid, s, &tmfd), TM_OK);
    tdb_relation_close(rel);
}

/* VACUUM table name in s's transaction. */
static void
vacuum_table(Transaction *s, const char *name)
{
    Relation rel = tdb_relation_open(s, name, REL_LOCK_SHARE);
    VacuumStats stats;

    tdb_heap_vacuum(rel, s, &stats);
    tdb_relation_close(rel);
}

/* Reads, inserts, deletes and VACUUM of table "t" all fail. */
static void
expect_t_damaged(Transaction *s)
{
    expect_damaged(s, count_rows(s, "t", NULL));
    expect_damaged(s, {
        Relation rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);

        insert_account(s, rel, 5000, 1);
    });
    expect_damaged(s, delete_row_at(s, "t", 0, 1));
    expect_damaged(s, vacuum_table(s, "t"));
}

TEST_BEGIN(test_truncated_file_stays_damaged)
{
    const char *path = new_db_path();
    Database *db;
    Transaction *s = open_session(path, &db);
    RelFileNumber file, file_u;
    Relation rel;
    BlockNumber committed;
    long long size;

    tdb_xact_begin(s);
    create_accounts(s, "t");
    create_accounts(s, "u");
    tdb_xact_commit(s);
    fill_accounts(s, "t", 1000);
    fill_accounts(s, "u", 1000);
    file = relfilenumber_of(s, "t");
    file_u = relfilenumber_of(s, "u");
    tdb_xact_begin(s);
    rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);
    committed = rel->rd_committed_blocks;
    tdb_relation_close(rel);
    tdb_xact_commit(s);
    expect_true(committed >= 5);
    expect_int_eq(file_size(rel_path(path, file)), (long)committed * BLCKSZ);
    close_session(db, s);

    /* lose the last block and a half */
    size = (long long)(committed - 1) * BLCKSZ - BLCKSZ / 2;
    expect_int_eq(truncate(rel_path(path, file), (off_t)size), 0);
    s = open_session(path, &db);
    expect_t_damaged(s);
    expect_str_contains(tdb_test_last_error.message, "its file base/16384 has");
    /* no write went over the hole, which would have hidden it */
    expect_int_eq(file_size(rel_path(path, file)), size);
    /* other tables are unaffected */
    expect_int_eq(count_committed(s, "u"), 1000);
    fill_accounts(s, "u", 10);
    close_session(db, s);

    /* the damage is found again after a restart: the file is the
     * evidence, and pg_class still has the committed length */
    s = open_session(path, &db);
    expect_t_damaged(s);
    expect_int_eq(file_size(rel_path(path, file)), size);
    expect_int_eq(count_committed(s, "u"), 1010);

    /* TRUNCATE gives the rows up: a new, empty file */
    tdb_xact_begin(s);
    tdb_catalog_truncate_table(s, tdb_catalog_lookup_table(s, "t"));
    expect_true(tdb_xact_commit(s));
    expect_false(file_exists(rel_path(path, file)));
    expect_int_eq(count_committed(s, "t"), 0);
    fill_accounts(s, "t", 10);
    close_session(db, s);
    expect_rows_after_reopen(path, "t", 10);

    /* DROP TABLE works on a damaged table */
    expect_int_eq(truncate(rel_path(path, file_u), 0), 0);
    s = open_session(path, &db);
    tdb_xact_begin(s);
    expect_error(count_rows(s, "u", NULL), ERRCODE_DATA_CORRUPTED,
                 "relation \"u\" is missing blocks");
    tdb_xact_abort(s);
    tdb_xact_begin(s);
    expect_true(tdb_catalog_drop_table(s, "u", false));
    expect_true(tdb_xact_commit(s));
    expect_false(file_exists(rel_path(path, file_u)));
    expect_false(table_exists(s, "u"));
    expect_int_eq(count_committed(s, "t"), 10);
    close_session(db, s);
}
TEST_END

TEST_BEGIN(test_truncated_during_transaction)
{
    const char *path = new_db_path();
    Database *db;
    Transaction *s = open_session(path, &db);
    RelFileNumber file;

    create_filled(s, "t", 1000);
    file = relfilenumber_of(s, "t");
    expect_int_eq(count_committed(s, "t"), 1000); /* hint bits set */
    close_session(db, s);

    /* a transaction changes block 0; meanwhile the file loses its tail */
    s = open_session(path, &db);
    tdb_xact_begin(s);
    delete_row_at(s, "t", 0, 1);
    expect_int_eq(truncate(rel_path(path, file), 2L * BLCKSZ), 0);
    /* its commit finds the file shorter than recorded: it fails, and the
     * recorded length stays */
    expect_error(tdb_xact_commit(s), ERRCODE_DATA_CORRUPTED,
                 "relation \"t\" is missing blocks");
    expect_int_eq(file_size(rel_path(path, file)), 2L * BLCKSZ);
    close_session(db, s);
    s = open_session(path, &db);
    expect_t_damaged(s);
    close_session(db, s);
}
TEST_END

/* Open the database at path: it must fail with XX001 "relation "name"
 * is missing blocks". */
static void
expect_open_refused(const char *path, const char *name)
{
    Database *volatile db = NULL;
    char msg[128];

    snprintf(msg, sizeof(msg), "relation \"%s\" is missing blocks", name);
    expect_error(db = catalog_test_open_small(path), ERRCODE_DATA_CORRUPTED, msg);
    expect_str_eq(tdb_test_last_error.hint,
                  "The file was truncated outside the database. Restore it "
                  "from a backup.");
    expect_true(db == NULL);
}

TEST_BEGIN(test_truncated_catalog_refused)
{
    const char *path = new_db_path();
    Database *db;
    Transaction *s = open_session(path, &db);
    const char *attribute = rel_path(path, AttributeRelationId);
    const char *class = rel_path(path, RelationRelationId);
    long long size;
    char *saved;

    /* enough tables for pg_class and pg_attribute to span pages */
    tdb_xact_begin(s);
    for (int i = 0; i < 80; i++) {
        char name[16];

        snprintf(name, sizeof(name), "t%d", i);
        create_accounts(s, name);
    }
    expect_true(tdb_xact_commit(s));
    close_session(db, s);
    expect_true(file_size(class) >= 2 * BLCKSZ);
    expect_true(file_size(attribute) >= 3 * BLCKSZ);

    /* pg_attribute loses its tail: columns would vanish; the database
     * is refused instead, and the file left as it is */
    size = file_size(attribute);
    saved = tdb_palloc((Size)size);
    expect_int_eq(read_raw_file(attribute, saved, (Size)size), size);
    expect_int_eq(truncate(attribute, BLCKSZ), 0);
    expect_open_refused(path, "pg_attribute");
    expect_int_eq(file_size(attribute), BLCKSZ);
    write_raw_file(attribute, saved, (Size)size);
    expect_rows_after_reopen(path, "t79", 0);

    /* pg_class too: tables would vanish */
    expect_int_eq(truncate(class, BLCKSZ), 0);
    expect_open_refused(path, "pg_class");
    expect_int_eq(file_size(class), BLCKSZ);
}
TEST_END

TEST_BEGIN(test_disk_full)
{
    const char *path = new_db_path();
    Database *db;
    Transaction *s;
    Relation rel;

    if (!tdb_fd_inject(FD_OP_WRITE, 1000000, ENOSPC))
        test_skip("fault injection needs a TDB_DEBUG build");
    tdb_fd_inject_clear();
    s = open_session(path, &db);

    create_filled(s, "t", 500);

    tdb_xact_begin(s);
    rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);
    tdb_fd_inject(FD_OP_WRITE, 5, ENOSPC);
    expect_error(
        {
            for (int i = 0; i < 20000; i++)
                insert_account(s, rel, 1000 + i, 1);
        },
        ERRCODE_DISK_FULL, "could not extend file");
    tdb_fd_inject_clear();
    tdb_buf_release_all_pins_of_thread();
    tdb_xact_abort(s);
    expect_int_eq(count_committed(s, "t"), 500);
    fill_accounts(s, "t", 1);
    close_session(db, s);
    expect_rows_after_reopen(path, "t", 501);
}
TEST_END

/* ----------------------------------------------------------------------
 * The session's relation cache: a session that opened a table sees
 * every later change to its definition, its own or another session's,
 * committed or aborted, and the length the last growing commit recorded.
 * ---------------------------------------------------------------------- */

/* Open table name in a transaction of its own: its natts, relfilenumber
 * and committed length; natts -1 if it does not exist. */
static int
open_natts(Transaction *s, const char *name, RelFileNumber *file,
           BlockNumber *committed)
{
    int natts = -1;

    tdb_xact_begin(s);
    if (tdb_catalog_lookup_table(s, name) != InvalidOid) {
        Relation rel = tdb_relation_open(s, name, REL_LOCK_SHARE);

        natts = rel->rd_att->natts;
        if (file != NULL)
            *file = rel->rd_relfilenumber;
        if (committed != NULL)
            *committed = rel->rd_committed_blocks;
        tdb_relation_close(rel);
    }
    tdb_xact_commit(s);
    return natts;
}

TEST_BEGIN(test_relation_cache)
{
    const char *path = new_db_path();
    Database *db;
    Transaction *s1 = open_session(path, &db);
    Transaction *s2 = tdb_database_session(db, NULL);
    static const ColumnDef two[] = {
        {"a", INT4OID, -1, false, NULL, 0, 0},
        {"b", TEXTOID, -1, false, NULL, 0, 0},
    };
    RelFileNumber file, file2;
    BlockNumber committed, committed2;
    Relation rel;

    tdb_xact_begin(s1);
    create_accounts(s1, "t");
    tdb_xact_commit(s1);
    expect_int_eq(open_natts(s1, "t", &file, &committed), 3);
    /* twice: the second open is a copy of what the first read */
    expect_int_eq(open_natts(s1, "t", &file2, &committed2), 3);
    expect_int_eq(file2, file);

    /* another session's growing commit: the recorded length is seen */
    fill_accounts(s2, "t", 1000);
    expect_int_eq(open_natts(s1, "t", NULL, &committed2), 3);
    expect_true(committed2 > committed);
    expect_int_eq(committed2,
                  file_size(rel_path(path, file)) / BLCKSZ);

    /* another session's TRUNCATE: the new file */
    tdb_xact_begin(s2);
    tdb_catalog_truncate_table(s2, tdb_catalog_lookup_table(s2, "t"));
    tdb_xact_commit(s2);
    expect_int_eq(open_natts(s1, "t", &file2, NULL), 3);
    expect_true(file2 != file);

    /* another session's DROP and CREATE of the name: the new table */
    tdb_xact_begin(s2);
    tdb_catalog_drop_table(s2, "t", false);
    tdb_catalog_create_table(s2, "t", two, 2, false);
    /* not committed yet: s1 still sees the old one (and would wait for
     * its lock, so only the lookup) */
    tdb_xact_begin(s1);
    expect_true(tdb_catalog_lookup_table(s1, "t") != InvalidOid);
    tdb_xact_commit(s1);
    tdb_xact_commit(s2);
    expect_int_eq(open_natts(s1, "t", NULL, NULL), 2);

    /* s1's own DROP, seen at once, and undone by its abort */
    tdb_xact_begin(s1);
    rel = tdb_relation_open(s1, "t", REL_LOCK_SHARE);
    tdb_relation_close(rel);
    tdb_catalog_drop_table(s1, "t", false);
    expect_error(tdb_relation_open(s1, "t", REL_LOCK_SHARE),
                 ERRCODE_UNDEFINED_TABLE, NULL);
    tdb_xact_abort(s1);
    expect_int_eq(open_natts(s1, "t", NULL, NULL), 2);
    expect_int_eq(open_natts(s2, "t", NULL, NULL), 2);

    /* s1's own CREATE, aborted: gone for both */
    tdb_xact_begin(s1);
    tdb_catalog_create_table(s1, "v", two, 2, false);
    rel = tdb_relation_open(s1, "v", REL_LOCK_SHARE);
    expect_int_eq(rel->rd_att->natts, 2);
    tdb_relation_close(rel);
    tdb_xact_abort(s1);
    expect_int_eq(open_natts(s1, "v", NULL, NULL), -1);
    expect_int_eq(open_natts(s2, "v", NULL, NULL), -1);

    /* a column's storage changed by another session */
    expect_int_eq(open_natts(s1, "t", NULL, NULL), 2);
    tdb_xact_begin(s2);
    (void)tdb_xact_assign_xid(s2);
    tdb_lock_relation(s2, tdb_catalog_lookup_table(s2, "t"),
                      REL_LOCK_EXCLUSIVE);
    tdb_catalog_set_attstorage(s2, tdb_catalog_lookup_table(s2, "t"), 2,
                               TYPSTORAGE_PLAIN);
    tdb_xact_commit(s2);
    tdb_xact_begin(s1);
    rel = tdb_relation_open(s1, "t", REL_LOCK_SHARE);
    expect_int_eq(TupleDescAttr(rel->rd_att, 1)->attstorage,
                  TYPSTORAGE_PLAIN);
    tdb_relation_close(rel);
    tdb_xact_commit(s1);

    tdb_xact_destroy(s2);
    close_session(db, s1);
}
TEST_END

TEST_BEGIN(test_second_open_refused)
{
    const char *path = new_db_path();
    Database *db = catalog_test_open_small(path);

    expect_error(catalog_test_open_small(path), ERRCODE_LOCK_NOT_AVAILABLE, "is in use");
    tdb_database_close(db);
    db = catalog_test_open_small(path);
    tdb_database_close(db);
}
TEST_END

/* The name of the database at path, opened and closed. */
static const char *
name_of(const char *path)
{
    static char name[NAMEDATALEN];
    Database *db = catalog_test_open_small(path);

    snprintf(name, sizeof(name), "%s", tdb_database_name(db));
    tdb_database_close(db);
    return name;
}

/*
 * A database is named after its directory: the last component of the
 * real path, whatever spelling opened it; at most NAMEDATALEN - 1
 * bytes, cut at a character boundary.
 */
TEST_BEGIN(test_database_name)
{
    const char *dir = test_tmpdir();
    char cwd[4096];
    /* 61 ASCII bytes, then a 3-byte character that would end at 64 */
    char long_name[80];

    expect_str_eq(name_of(test_path(dir, "shop")), "shop");
    expect_str_eq(name_of(test_path(dir, "shop/")), "shop");
    expect_str_eq(name_of(test_path(dir, "shop//")), "shop");
    expect_int_eq(symlink("shop", test_path(dir, "alias")), 0);
    expect_str_eq(name_of(test_path(dir, "alias")), "shop");
    expect_true(getcwd(cwd, sizeof(cwd)) != NULL);
    expect_int_eq(chdir(test_path(dir, "shop")), 0);
    expect_str_eq(name_of("."), "shop");
    expect_str_eq(name_of("../shop/."), "shop");
    expect_int_eq(chdir(cwd), 0);
    /* renaming the directory renames the database */
    expect_int_eq(rename(test_path(dir, "shop"), test_path(dir, "store")), 0);
    expect_str_eq(name_of(test_path(dir, "store")), "store");

    memset(long_name, 'x', 61);
    strcpy(long_name + 61, "\xe2\x82\xacyy"); /* U+20AC, the euro sign */
    expect_str_eq(
        name_of(test_path(dir, long_name)),
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    long_name[60] = '\0';
    strcat(long_name, "\xe2\x82\xacyy");
    expect_str_eq(name_of(test_path(dir, long_name)),
                  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                  "xxxx\xe2\x82\xac");
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "catalog_catalog", TEST_CASE(test_bootstrap),
        TEST_CASE(test_create_table_definition), TEST_CASE(test_create_errors),
        TEST_CASE(test_create_abort_removes_file), TEST_CASE(test_drop_table),
        TEST_CASE(test_truncate), TEST_CASE(test_reopen_committed_state),
        TEST_CASE(test_crash_keeps_committed),
        TEST_CASE(test_readers_and_writer),
        TEST_CASE(test_drop_waits_for_reader),
        TEST_CASE(test_flipped_byte_detected),
        TEST_CASE(test_truncated_file_stays_damaged),
        TEST_CASE(test_truncated_during_transaction),
        TEST_CASE(test_truncated_catalog_refused), TEST_CASE(test_disk_full),
        TEST_CASE(test_second_open_refused), TEST_CASE(test_database_name),
        TEST_CASE(test_relation_cache));
}
