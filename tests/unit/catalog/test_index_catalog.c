/*
 * test_index_catalog.c -- indexes and key constraints in the catalog
 * (catalog/pg_index.c): an index's rows and file through CREATE, RENAME,
 * DROP INDEX, DROP CONSTRAINT and DROP TABLE, committed and aborted; the
 * index list an open table carries (RelationData.rd_indexes) and its
 * survival across a reopen; TRUNCATE, which needs the index access
 * method's empty index (access/indexam.h), failing cleanly until there
 * is one.
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static off_t
rel_file_size(const char *db_path, RelFileNumber rel)
{
    char buf[600];
    struct stat st;

    snprintf(buf, sizeof(buf), "%s/base/%u", db_path, rel);
    return stat(buf, &st) == 0 ? st.st_size : -1;
}

static const ColumnDef table_cols[] = {
    {"a", INT4OID, -1, false, NULL, 0, 0},
    {"b", TEXTOID, -1, false, NULL, 0, 0},
};

/* Index `name` on t: key columns a DESC NULLS FIRST, then (lower(b));
 * INCLUDE b; WHERE a > 0.  Or, primary: t(a). */
static Oid
make_index(Transaction *s, Oid relid, const char *name, bool primary)
{
    static const int16 attnums[] = {1, 0, 2};
    static const char *const names[] = {"a", "lower", "b"};
    static const Oid types[] = {INT4OID, TEXTOID, TEXTOID};
    static const int32 typmods[] = {-1, -1, -1};
    static const Oid collations[] = {0, 100};
    static const Oid opclasses[] = {1978, 3126};
    static const int16 options[] = {INDOPTION_DESC | INDOPTION_NULLS_FIRST, 0};
    IndexDef def = {0};
    Oid oid;

    def.name = name;
    def.relid = relid;
    def.natts = primary ? 1 : 3;
    def.nkeyatts = primary ? 1 : 2;
    def.attnums = attnums;
    def.colnames = names;
    def.coltypes = types;
    def.coltypmods = typmods;
    def.collations = collations;
    def.opclasses = opclasses;
    def.options = options;
    def.exprs = primary ? NULL : "lower(b)";
    def.pred = primary ? NULL : "a > 0";
    def.unique = primary;
    def.primary = primary;
    oid = tdb_catalog_create_index(s, &def, false);
    if (primary)
        tdb_catalog_add_index_constraint(s, relid, oid, name,
                                         CONSTRAINT_PRIMARY, attnums, 1);
    return oid;
}

/* The number of indexes the open table t carries. */
static int
nindexes(Transaction *s)
{
    Relation rel;
    int n;

    tdb_xact_begin(s);
    rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);
    n = rel->rd_nindexes;
    tdb_relation_close(rel);
    tdb_xact_commit(s);
    return n;
}

TEST_BEGIN(test_create_and_describe)
{
    const char *path = test_path(test_tmpdir(), "db");
    Database *db = catalog_test_open_small(path);
    Transaction *s = tdb_database_session(db, NULL);
    Oid relid, pkey, idx;
    RelFileNumber idxfile;
    Relation rel;
    ConstraintInfo con;

    tdb_xact_begin(s);
    relid = tdb_catalog_create_table(s, "t", table_cols, 2, false);
    (void)tdb_xact_assign_xid(s);
    tdb_lock_relation(s, relid, REL_LOCK_EXCLUSIVE);
    pkey = make_index(s, relid, "t_pkey", true);
    idx = make_index(s, relid, "t_a_lower_b_idx", false);
    expect_true(tdb_xact_commit(s));
    expect_true(pkey > relid && idx > pkey);
    expect_true(catalog_test_file_exists(path, pkey));
    expect_true(catalog_test_file_exists(path, idx));

    tdb_xact_begin(s);
    rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);
    expect_int_eq(rel->rd_nindexes, 2);
    /* OID order; PRIMARY KEY made a NOT NULL */
    expect_int_eq(rel->rd_indexes[0].ri_oid, pkey);
    expect_true(rel->rd_indexes[0].ri_primary && rel->rd_indexes[0].ri_unique);
    expect_str_eq(rel->rd_indexes[0].ri_name, "t_pkey");
    expect_true(TupleDescAttr(rel->rd_att, 0)->attnotnull);
    expect_false(TupleDescAttr(rel->rd_att, 1)->attnotnull);
    {
        const RelationIndex *ri = tdb_relation_index(rel, idx);

        expect_true(ri != NULL);
        expect_int_eq(ri->ri_relfilenumber, idx);
        expect_int_eq(ri->ri_natts, 3);
        expect_int_eq(ri->ri_nkeyatts, 2);
        expect_int_eq(ri->ri_attnums[0], 1);
        expect_int_eq(ri->ri_attnums[1], 0);
        expect_int_eq(ri->ri_attnums[2], 2);
        expect_int_eq(ri->ri_options[0],
                      INDOPTION_DESC | INDOPTION_NULLS_FIRST);
        expect_int_eq(ri->ri_opclasses[1], 3126);
        expect_int_eq(ri->ri_collations[1], 100);
        expect_str_eq(ri->ri_exprs, "lower(b)");
        expect_str_eq(ri->ri_pred, "a > 0");
        expect_false(ri->ri_unique);
    }
    tdb_relation_close(rel);
    /* the constraint, found by name and by index */
    expect_true(tdb_catalog_find_constraint(s, relid, "t_pkey", &con));
    expect_int_eq(con.contype, CONSTRAINT_PRIMARY);
    expect_int_eq(con.indexoid, pkey);
    expect_true(tdb_catalog_index_constraint(s, pkey, NULL));
    expect_false(tdb_catalog_index_constraint(s, idx, NULL));
    expect_true(tdb_catalog_has_primary_key(s, relid));
    /* an index is no table: PostgreSQL's table_open message */
    expect_error(tdb_relation_open(s, "t_pkey", REL_LOCK_SHARE),
                 ERRCODE_WRONG_OBJECT_TYPE, "\"t_pkey\" is an index");
    tdb_xact_abort(s);
    tdb_xact_begin(s);
    expect_error(tdb_catalog_drop_table(s, "t_pkey", false),
                 ERRCODE_WRONG_OBJECT_TYPE, "is not a table");
    tdb_xact_abort(s);
    /* a name taken by a table or an index */
    tdb_xact_begin(s);
    (void)tdb_xact_assign_xid(s);
    expect_error(make_index(s, relid, "t", false), ERRCODE_DUPLICATE_TABLE,
                 "relation \"t\" already exists");
    tdb_xact_abort(s);

    /* kept across a reopen */
    tdb_xact_destroy(s);
    tdb_database_close(db);
    db = catalog_test_open_small(path);
    s = tdb_database_session(db, NULL);
    expect_int_eq(nindexes(s), 2);

    /* RENAME: the constraint follows its index */
    tdb_xact_begin(s);
    tdb_catalog_rename_relation(s, pkey, "t_key");
    expect_true(tdb_catalog_find_constraint(s, relid, "t_key", &con));
    expect_false(tdb_catalog_find_constraint(s, relid, "t_pkey", NULL));
    expect_error(tdb_catalog_rename_relation(s, idx, "t_key"),
                 ERRCODE_DUPLICATE_TABLE, "already exists");
    tdb_xact_abort(s);
    tdb_xact_begin(s);
    expect_true(tdb_catalog_find_constraint(s, relid, "t_pkey", &con));
    tdb_xact_commit(s);

    /* DROP INDEX aborted: all stays; committed: rows and file go */
    idxfile = idx;
    tdb_xact_begin(s);
    tdb_catalog_drop_index(s, idx);
    tdb_xact_abort(s);
    expect_int_eq(nindexes(s), 2);
    expect_true(catalog_test_file_exists(path, idxfile));
    tdb_xact_begin(s);
    tdb_catalog_drop_index(s, idx);
    expect_true(catalog_test_file_exists(path, idxfile)); /* until the commit */
    expect_true(tdb_xact_commit(s));
    expect_false(catalog_test_file_exists(path, idxfile));
    expect_int_eq(nindexes(s), 1);

    /* DROP CONSTRAINT takes its index along */
    tdb_xact_begin(s);
    expect_true(tdb_catalog_find_constraint(s, relid, "t_pkey", &con));
    (void)tdb_xact_assign_xid(s);
    tdb_lock_relation(s, relid, REL_LOCK_EXCLUSIVE);
    tdb_catalog_drop_constraint(s, &con);
    expect_true(tdb_xact_commit(s));
    expect_false(catalog_test_file_exists(path, pkey));
    expect_int_eq(nindexes(s), 0);
    tdb_xact_begin(s);
    expect_false(tdb_catalog_has_primary_key(s, relid));
    tdb_xact_commit(s);

    tdb_xact_destroy(s);
    tdb_database_close(db);
}
TEST_END

TEST_BEGIN(test_abort_and_drop_table)
{
    const char *path = test_path(test_tmpdir(), "db");
    Database *db = catalog_test_open_small(path);
    Transaction *s = tdb_database_session(db, NULL);
    Oid relid, idx;
    Oid found, indrelid;
    char relkind;
    Relation rel;
    RelFileNumber idx_file, rel_file;

    tdb_xact_begin(s);
    relid = tdb_catalog_create_table(s, "t", table_cols, 2, false);
    expect_true(tdb_xact_commit(s));

    /* a CREATE INDEX that aborts leaves no file and no rows */
    tdb_xact_begin(s);
    (void)tdb_xact_assign_xid(s);
    tdb_lock_relation(s, relid, REL_LOCK_EXCLUSIVE);
    idx = make_index(s, relid, "t_pkey", true);
    expect_true(catalog_test_file_exists(path, idx));
    tdb_xact_abort(s);
    expect_false(catalog_test_file_exists(path, idx));
    expect_int_eq(nindexes(s), 0);
    tdb_xact_begin(s);
    expect_false(
        tdb_catalog_lookup_relation(s, "t_pkey", &found, &relkind, &indrelid));
    expect_false(tdb_catalog_has_primary_key(s, relid));
    tdb_xact_commit(s);

    tdb_xact_begin(s);
    (void)tdb_xact_assign_xid(s);
    tdb_lock_relation(s, relid, REL_LOCK_EXCLUSIVE);
    idx = make_index(s, relid, "t_pkey", true);
    expect_true(tdb_xact_commit(s));
    tdb_xact_begin(s);
    expect_true(
        tdb_catalog_lookup_relation(s, "t_pkey", &found, &relkind, &indrelid));
    expect_int_eq(found, idx);
    expect_int_eq(relkind, RELKIND_INDEX);
    expect_int_eq(indrelid, relid);
    tdb_xact_commit(s);

    /* TRUNCATE gives the table and its index new files, the index's
     * holding the B-tree's metapage; the old files go at commit */
    tdb_xact_begin(s);
    (void)tdb_xact_assign_xid(s);
    tdb_catalog_truncate_table(s, relid);
    expect_true(tdb_xact_commit(s));
    expect_false(catalog_test_file_exists(path, relid));
    expect_false(catalog_test_file_exists(path, idx));
    expect_int_eq(nindexes(s), 1);
    tdb_xact_begin(s);
    rel = tdb_relation_open_by_oid(s, relid, REL_LOCK_SHARE);
    idx_file = rel->rd_indexes[0].ri_relfilenumber;
    rel_file = rel->rd_relfilenumber;
    tdb_relation_close(rel);
    tdb_xact_commit(s);
    tdb_buf_flush_all();
    expect_int_eq(rel_file_size(path, idx_file), BLCKSZ);

    /* DROP TABLE drops its indexes: rows, and files at commit */
    tdb_xact_begin(s);
    expect_true(tdb_catalog_drop_table(s, "t", false));
    tdb_xact_abort(s);
    expect_true(catalog_test_file_exists(path, idx_file));
    tdb_xact_begin(s);
    expect_true(tdb_catalog_drop_table(s, "t", false));
    expect_true(tdb_xact_commit(s));
    expect_false(catalog_test_file_exists(path, idx_file));
    expect_false(catalog_test_file_exists(path, rel_file));
    tdb_xact_begin(s);
    expect_false(
        tdb_catalog_lookup_relation(s, "t_pkey", &found, &relkind, &indrelid));
    tdb_xact_commit(s);

    tdb_xact_destroy(s);
    tdb_database_close(db);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "catalog_index_catalog",
                     TEST_CASE(test_create_and_describe),
                     TEST_CASE(test_abort_and_drop_table));
}
