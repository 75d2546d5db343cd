/*
 * test_toast_catalog.c -- TOAST relations in the catalog (catalog.h):
 * which tables get one, what it looks like when opened
 * (tdb_relation_open_toast), its file following the table's through
 * CREATE / TRUNCATE / DROP with commit and abort, column storage and
 * compression stored, reloaded and kept across a reopen, and
 * tdb_catalog_ensure_toast.
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "access/heapam.h"
#include "access/lmgr.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/catalog_test.h"
#include "catalog/database.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "storage/bufmgr.h"
#include "storage/storage_test.h"
#include "test.h"
#include "toast/toast.h"

static Oid
create(Transaction *s, const char *name, const ColumnDef *cols, int n)
{
    Oid relid;

    tdb_xact_begin(s);
    relid = tdb_catalog_create_table(s, name, cols, n, false);
    expect_true(tdb_xact_commit(s));
    return relid;
}

/* The table's reltoastrelid, read in a transaction of its own. */
static Oid
toast_of(Transaction *s, const char *name)
{
    Relation rel;
    Oid toast;

    tdb_xact_begin(s);
    rel = tdb_relation_open(s, name, REL_LOCK_SHARE);
    toast = rel->rd_toastrelid;
    tdb_relation_close(rel);
    tdb_xact_commit(s);
    return toast;
}

TEST_BEGIN(test_which_tables)
{
    const char *path = test_path(test_tmpdir(), "db");
    Database *db = catalog_test_open_small(path);
    Transaction *s = tdb_database_session(db, NULL);
    ColumnDef texts[] = {{"a", INT4OID, -1, false, NULL, 0, 0},
                        {"b", TEXTOID, -1, false, NULL, 0, 0}};
    ColumnDef ints[] = {{"a", INT4OID, -1, false, NULL, 0, 0},
                        {"b", INT8OID, -1, false, NULL, 0, 0}};
    /* varchar(501): 24 + 2008 = 2032, not above the threshold */
    ColumnDef v501[] = {{"v", VARCHAROID, 501 + 4, false, NULL, 0, 0}};
    ColumnDef v502[] = {{"v", VARCHAROID, 502 + 4, false, NULL, 0, 0}};
    ColumnDef plain[] = {
        {"b", TEXTOID, -1, false, NULL, TYPSTORAGE_PLAIN, 0}};

    create(s, "text", texts, 2);
    create(s, "ints", ints, 2);
    create(s, "v501", v501, 1);
    create(s, "v502", v502, 1);
    create(s, "plain", plain, 1);
    expect_true(toast_of(s, "text") != InvalidOid);
    expect_int_eq(toast_of(s, "ints"), InvalidOid);
    expect_int_eq(toast_of(s, "v501"), InvalidOid);
    expect_true(toast_of(s, "v502") != InvalidOid);
    /* only PLAIN variable-width columns: nothing could be toasted */
    expect_int_eq(toast_of(s, "plain"), InvalidOid);
    /* ... until a column may be toasted: then ensure_toast makes one */
    tdb_xact_begin(s);
    {
        Oid relid = tdb_catalog_lookup_table(s, "plain");
        Oid toast;

        (void)tdb_xact_assign_xid(s); /* before an exclusive lock */
        tdb_lock_relation(s, relid, REL_LOCK_EXCLUSIVE);
        expect_int_eq(tdb_catalog_ensure_toast(s, relid), InvalidOid);
        tdb_catalog_set_attstorage(s, relid, 1, TYPSTORAGE_EXTENDED);
        toast = tdb_catalog_ensure_toast(s, relid);
        expect_true(toast != InvalidOid);
        expect_true(catalog_test_file_exists(path, toast));
        /* once is enough */
        expect_int_eq(tdb_catalog_ensure_toast(s, relid), InvalidOid);
    }
    expect_true(tdb_xact_commit(s));
    expect_true(toast_of(s, "plain") != InvalidOid);
    /* a TOAST relation is not found by name */
    {
        char name[NAMEDATALEN];

        snprintf(name, sizeof(name), "pg_toast_%u", 16384u);
        tdb_xact_begin(s);
        expect_int_eq(tdb_catalog_lookup_table(s, name), InvalidOid);
        tdb_xact_commit(s);
    }
    tdb_xact_destroy(s);
    tdb_database_close(db);
}
TEST_END

TEST_BEGIN(test_open_toast_and_files)
{
    const char *path = test_path(test_tmpdir(), "db");
    Database *db = catalog_test_open_small(path);
    Transaction *s = tdb_database_session(db, NULL);
    ColumnDef cols[] = {{"a", INT4OID, -1, false, NULL, 0, 0},
                        {"b", BYTEAOID, -1, false, NULL, 0, 0}};
    Oid relid = create(s, "t", cols, 2);
    Oid toastid = toast_of(s, "t");
    RelFileNumber old_file, new_file;
    Relation rel, toast;

    expect_true(toastid > relid);
    tdb_xact_begin(s);
    rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);
    toast = tdb_relation_open_toast(s, rel, REL_LOCK_SHARE);
    expect_true(toast != NULL);
    expect_int_eq(toast->rd_id, toastid);
    expect_int_eq(toast->rd_toastrelid, InvalidOid);
    expect_int_eq(toast->rd_att->natts, 3);
    expect_str_eq(TupleDescAttr(toast->rd_att, 0)->attname, "chunk_id");
    expect_int_eq(TupleDescAttr(toast->rd_att, 0)->atttypid, OIDOID);
    expect_int_eq(TupleDescAttr(toast->rd_att, 1)->atttypid, INT4OID);
    expect_int_eq(TupleDescAttr(toast->rd_att, 2)->atttypid, BYTEAOID);
    for (int i = 0; i < 3; i++)
        expect_int_eq(TupleDescAttr(toast->rd_att, i)->attstorage,
                      TYPSTORAGE_PLAIN);
    old_file = toast->rd_relfilenumber;
    expect_true(catalog_test_file_exists(path, old_file));
    tdb_relation_close(toast);
    tdb_relation_close(rel);
    tdb_xact_commit(s);

    /* TRUNCATE: a new TOAST file too; aborted, the old one stays */
    tdb_xact_begin(s);
    tdb_catalog_truncate_table(s, relid);
    rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);
    toast = tdb_relation_open_toast(s, rel, REL_LOCK_SHARE);
    new_file = toast->rd_relfilenumber;
    expect_true(new_file != old_file);
    expect_true(catalog_test_file_exists(path, new_file));
    tdb_relation_close(toast);
    tdb_relation_close(rel);
    tdb_xact_abort(s);
    expect_false(catalog_test_file_exists(path, new_file));
    expect_true(catalog_test_file_exists(path, old_file));

    tdb_xact_begin(s);
    tdb_catalog_truncate_table(s, relid);
    expect_true(tdb_xact_commit(s));
    expect_false(catalog_test_file_exists(path, old_file));
    expect_int_eq(toast_of(s, "t"), toastid); /* the OID stays */

    /* DROP: the TOAST relation's file goes at commit */
    tdb_xact_begin(s);
    rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);
    toast = tdb_relation_open_toast(s, rel, REL_LOCK_SHARE);
    new_file = toast->rd_relfilenumber;
    tdb_relation_close(toast);
    tdb_relation_close(rel);
    tdb_xact_commit(s);
    tdb_xact_begin(s);
    tdb_catalog_drop_table(s, "t", false);
    expect_true(catalog_test_file_exists(path, new_file));
    expect_true(tdb_xact_commit(s));
    expect_false(catalog_test_file_exists(path, new_file));
    tdb_xact_begin(s);
    expect_error(tdb_relation_open_by_oid(s, toastid, REL_LOCK_SHARE),
                 ERRCODE_UNDEFINED_TABLE, NULL);
    tdb_xact_abort(s);
    tdb_xact_destroy(s);
    tdb_database_close(db);
}
TEST_END

TEST_BEGIN(test_column_settings_persist)
{
    const char *path = test_path(test_tmpdir(), "db");
    Database *db = catalog_test_open_small(path);
    Transaction *s = tdb_database_session(db, NULL);
    ColumnDef cols[] = {
        {"a", TEXTOID, -1, false, NULL, 0, TOAST_COMPRESSION_LZ4},
        {"b", TEXTOID, -1, false, NULL, 0, 0},
        {"c", NUMERICOID, -1, false, NULL, 0, 0}};
    Oid relid = create(s, "t", cols, 3);
    Relation rel;

    tdb_xact_begin(s);
    (void)tdb_xact_assign_xid(s); /* before an exclusive lock */
    tdb_lock_relation(s, relid, REL_LOCK_EXCLUSIVE);
    tdb_catalog_set_attstorage(s, relid, 2, TYPSTORAGE_EXTERNAL);
    tdb_catalog_set_attcompression(s, relid, 2, TOAST_COMPRESSION_PGLZ);
    tdb_catalog_set_attstorage(s, relid, 1, TYPSTORAGE_PLAIN);
    /* seen by the transaction's next command */
    rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);
    expect_int_eq(TupleDescAttr(rel->rd_att, 1)->attstorage,
                  TYPSTORAGE_EXTERNAL);
    tdb_relation_close(rel);
    expect_true(tdb_xact_commit(s));
    tdb_xact_destroy(s);
    tdb_database_close(db);

    db = catalog_test_open_small(path);
    s = tdb_database_session(db, NULL);
    tdb_xact_begin(s);
    rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);
    expect_int_eq(TupleDescAttr(rel->rd_att, 0)->attstorage,
                  TYPSTORAGE_PLAIN);
    expect_int_eq(TupleDescAttr(rel->rd_att, 0)->attcompression,
                  TOAST_COMPRESSION_LZ4);
    expect_int_eq(TupleDescAttr(rel->rd_att, 1)->attstorage,
                  TYPSTORAGE_EXTERNAL);
    expect_int_eq(TupleDescAttr(rel->rd_att, 1)->attcompression,
                  TOAST_COMPRESSION_PGLZ);
    /* numeric's own strategy, from pg_type */
    expect_int_eq(TupleDescAttr(rel->rd_att, 2)->attstorage,
                  TYPSTORAGE_MAIN);
    expect_int_eq(TupleDescAttr(rel->rd_att, 2)->attcompression,
                  TOAST_COMPRESSION_DEFAULT);
    /* a column SET STORAGE PLAIN keeps its type's packing: PostgreSQL
     * forms rows through a plan with the type's storage, so such values
     * still get 1-byte headers (pg_column_size shows it) */
    expect_true(TupleDescCompactAttr(rel->rd_att, 0)->attflags &
                ATTR_PACKABLE);
    expect_true(TupleDescCompactAttr(rel->rd_att, 1)->attflags &
                ATTR_PACKABLE);
    tdb_relation_close(rel);
    tdb_xact_commit(s);
    tdb_xact_destroy(s);
    tdb_database_close(db);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "catalog_toast_catalog",
                     TEST_CASE(test_which_tables),
                     TEST_CASE(test_open_toast_and_files),
                     TEST_CASE(test_column_settings_persist));
}
