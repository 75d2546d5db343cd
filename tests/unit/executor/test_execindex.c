/*
 * test_execindex.c -- indexes as writes maintain them
 * (executor/execindex.h): the comparators chosen for each key type, and
 * the B-trees that CREATE INDEX builds and INSERT, UPDATE, DELETE and
 * VACUUM change, checked with tdb_bt_check for their structure and entry
 * counts.
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>

#include "access/nbtree.h"
#include "access/xact.h"
#include "api/tupledb.h"
#include "catalog/catalog.h"
#include "catalog/catalog_test.h"
#include "catalog/database.h"
#include "catalog/pg_type.h"
#include "executor/execindex.h"
#include "storage/bufmgr.h"
#include "storage/page.h"
#include "storage/storage_test.h"
#include "tuple/varlena.h"
#include "types/builtins.h"
#include "test.h"
/* after storage_test.h, whose helpers name a parameter "text" */
#include "tcop/session.h"

/* A descriptor of the given column types. */
static TupleDesc
desc_of(const Oid *types, int n)
{
    TupleDesc desc = tdb_tupdesc_create(n);

    for (int i = 0; i < n; i++) {
        const TypeInfo *t = tdb_type_lookup(types[i]);

        tdb_tupdesc_init_attr(desc, i, "k", types[i], -1, t->len, t->byval,
                              t->align, t->storage);
    }
    tdb_tupdesc_finalize(desc);
    return desc;
}

TEST_BEGIN(test_comparators)
{
    Oid types[] = {INT4OID, INT8OID, TEXTOID, VARCHAROID, NUMERICOID};
    int16 attnums[] = {1, 2, 3, 4, 5, 6};
    int16 options[] = {0, INDOPTION_DESC | INDOPTION_NULLS_FIRST, 0, 0, 0};
    RelationIndex ri;
    BTIndexData bt;
    const BTKeyColumn *k = bt.keys;

    memset(&ri, 0, sizeof(ri));
    snprintf(ri.ri_name, sizeof(ri.ri_name), "i");
    ri.ri_natts = 5;
    ri.ri_nkeyatts = 5;
    ri.ri_attnums = attnums;
    ri.ri_options = options;
    tdb_bt_index_init(&bt, 1, "i", desc_of(types, 5));
    tdb_exec_index_comparators(&bt, &ri);
    expect_true(k[0].cmp == tdb_bt_cmp_int4);
    expect_true(k[1].cmp == tdb_bt_cmp_int8);
    /* text in "C": byte order (through a wrapper that decompresses a
     * compressed key first) */
    for (int c = 2; c <= 3; c++) {
        expect_true(k[c].cmp(tdb_type_input(TEXTOID, "B", -1),
                             tdb_type_input(TEXTOID, "a", -1),
                             k[c].cmp_arg) < 0);
        expect_int_eq(k[c].cmp(tdb_type_input(TEXTOID, "ab", -1),
                               tdb_type_input(TEXTOID, "ab", -1),
                               k[c].cmp_arg),
                      0);
    }
    expect_false(k[0].desc);
    expect_true(k[1].desc);
    expect_true(k[1].nulls_first);
    /* numeric: its btree cmp through fmgr -- 1.50 = 1.5 < 10 */
    expect_int_eq(k[4].cmp(tdb_type_input(NUMERICOID, "1.5", -1),
                           tdb_type_input(NUMERICOID, "10", -1),
                           k[4].cmp_arg) < 0,
                  1);
    expect_int_eq(k[4].cmp(tdb_type_input(NUMERICOID, "1.50", -1),
                           tdb_type_input(NUMERICOID, "1.5", -1), k[4].cmp_arg),
                  0);
    /* numeric's equal values differ in image: no deduplication */
    expect_false(bt.allequalimage);
    expect_int_eq(bt.nkeyatts, 5);
    expect_true(bt.fast == BT_FAST_NONE);

    /* INCLUDE columns turn deduplication and the metapage's
     * allequalimage off, as in PostgreSQL (_bt_allequalimage) */
    ri.ri_natts = 2;
    ri.ri_nkeyatts = 1;
    tdb_bt_index_init(&bt, 1, "i", desc_of(types, 2));
    tdb_exec_index_comparators(&bt, &ri);
    expect_false(bt.allequalimage);
    expect_false(bt.deduplicate_items);
    /* one int4 key: the tree's inlined comparison */
    ri.ri_natts = 1;
    tdb_bt_index_init(&bt, 1, "i", desc_of(types, 1));
    tdb_exec_index_comparators(&bt, &ri);
    expect_true(bt.deduplicate_items);
    expect_true(bt.fast == BT_FAST_INT4);
}
TEST_END

static int
exec_ok(tupledb *db, const char *sql)
{
    return tupledb_exec(db, sql, NULL, NULL);
}

/* The btm_allequalimage byte of the B-tree in file rel. */
static bool
metapage_allequalimage(RelFileNumber rel)
{
    Buffer buf = tdb_buf_read(rel, 0, NULL);
    /* BTMetaPageData sits right after the page header; the flag is its
     * byte 40 (access/nbtree_int.h) */
    bool v = tdb_buf_page(buf)[MAXALIGN(SizeOfPageHeaderData) + 40] != 0;

    tdb_buf_release(buf);
    return v;
}

/* tdb_bt_check of every index of table t (plain columns only): their
 * heap TID counts into counts[], in rd_indexes order, and (if not NULL)
 * their metapages' allequalimage flags into allequal[]; returns how
 * many. */
static int
check_indexes_meta(const char *path, int64 *counts, bool *allequal)
{
    DatabaseOptions options = {.nbuffers = 256};
    Database *db = catalog_test_open_db(path, &options);
    Transaction *s = tdb_database_session(db, NULL);
    Relation rel;
    int n;

    tdb_xact_begin(s);
    rel = tdb_relation_open(s, "t", REL_LOCK_SHARE);
    n = rel->rd_nindexes;
    for (int i = 0; i < n; i++) {
        const RelationIndex *ri = &rel->rd_indexes[i];
        Oid types[INDEX_MAX_KEYS];
        BTIndexData bt;

        for (int c = 0; c < ri->ri_natts; c++)
            types[c] =
                TupleDescAttr(rel->rd_att, ri->ri_attnums[c] - 1)->atttypid;
        tdb_bt_index_init(&bt, ri->ri_relfilenumber, ri->ri_name,
                          desc_of(types, ri->ri_natts));
        tdb_exec_index_comparators(&bt, ri);
        counts[i] = tdb_bt_check(&bt);
        if (allequal != NULL)
            allequal[i] = metapage_allequalimage(ri->ri_relfilenumber);
    }
    tdb_relation_close(rel);
    tdb_xact_commit(s);
    tdb_xact_destroy(s);
    tdb_database_close(db);
    return n;
}

static int
check_indexes(const char *path, int64 *counts)
{
    return check_indexes_meta(path, counts, NULL);
}

/* The metapage's allequalimage says what the key columns' operator
 * classes say -- after CREATE INDEX and after TRUNCATE's new, empty
 * index alike (numeric and float: no; an int key with INCLUDE columns:
 * no; PostgreSQL's bt_metap agrees). */
TEST_BEGIN(test_truncate_keeps_allequalimage)
{
    const char *path = test_path(test_tmpdir(), "db");
    tupledb *db;
    int64 counts[4];
    bool allequal[4];

    expect_int_eq(tupledb_open(path, &db, NULL), 0);
    expect_int_eq(exec_ok(db, "CREATE TABLE t (a int, b numeric, c float8);"
                              "INSERT INTO t VALUES (1, 1.5, 2.5);"
                              "CREATE INDEX t_a ON t (a);"
                              "CREATE INDEX t_b ON t (b);"
                              "CREATE INDEX t_c_a ON t (a, c);"
                              "CREATE INDEX t_a_inc ON t (a) INCLUDE (b);"),
                  0);
    tupledb_close(db);
    expect_int_eq(check_indexes_meta(path, counts, allequal), 4);
    expect_true(allequal[0]);
    expect_false(allequal[1]);
    expect_false(allequal[2]);
    expect_false(allequal[3]);

    expect_int_eq(tupledb_open(path, &db, NULL), 0);
    expect_int_eq(exec_ok(db, "TRUNCATE t"), 0);
    tupledb_close(db);
    expect_int_eq(check_indexes_meta(path, counts, allequal), 4);
    expect_int_eq(counts[0], 0);
    expect_true(allequal[0]);
    expect_false(allequal[1]);
    expect_false(allequal[2]);
    expect_false(allequal[3]);
}
TEST_END

TEST_BEGIN(test_built_and_written_indexes_are_sound)
{
    const char *path = test_path(test_tmpdir(), "db");
    tupledb *db;
    int64 counts[4];

    expect_int_eq(tupledb_open(path, &db, NULL), 0);
    /* the primary key filled by inserts (many splits); the others built
     * bottom-up from 20,000 rows, then written by inserts, updates */
    expect_int_eq(exec_ok(db,
                          "CREATE TABLE t (a int PRIMARY KEY, b text, c int8);"
                          "INSERT INTO t SELECT g, 'k' || (g % 1000), g * 7"
                          "  FROM generate_series(1, 20000) g;"
                          "CREATE INDEX t_b ON t (b);"
                          "CREATE UNIQUE INDEX t_c_b ON t (c DESC, b);"
                          "INSERT INTO t SELECT g, 'z' || g, -g"
                          "  FROM generate_series(20001, 30000) g;"
                          "UPDATE t SET b = b || '!' WHERE a % 10 = 0;"),
                  0);
    tupledb_close(db);
    expect_int_eq(check_indexes(path, counts), 3);
    /* every row version has its entry: 30,000 + 3,000 new versions */
    for (int i = 0; i < 3; i++)
        expect_int_eq(counts[i], 33000);

    /* VACUUM takes the dead versions' entries out with them */
    expect_int_eq(tupledb_open(path, &db, NULL), 0);
    expect_int_eq(exec_ok(db, "DELETE FROM t WHERE a % 3 = 0"), 0);
    expect_int_eq(exec_ok(db, "VACUUM t"), 0);
    tupledb_close(db);
    expect_int_eq(check_indexes(path, counts), 3);
    for (int i = 0; i < 3; i++)
        expect_int_eq(counts[i], 20000);

    /* REINDEX builds them again from the 20,000 rows */
    expect_int_eq(tupledb_open(path, &db, NULL), 0);
    expect_int_eq(exec_ok(db, "REINDEX TABLE t;"), 0);
    tupledb_close(db);
    expect_int_eq(check_indexes(path, counts), 3);
    for (int i = 0; i < 3; i++)
        expect_int_eq(counts[i], 20000);
}
TEST_END

static void
ignore_startup(DestReceiver *self, TupleDesc desc)
{
    (void)self;
    (void)desc;
}

static void
ignore_row(DestReceiver *self, TupleTableSlot *slot)
{
    (void)self;
    (void)slot;
}

static void
ignore_tag(DestReceiver *self, const char *tag)
{
    (void)self;
    (void)tag;
}

/* Run sql in session s; whether it succeeded. */
static bool
session_ok(Session *s, const char *sql)
{
    DestReceiver dest = {.startup = ignore_startup,
                         .receive = ignore_row,
                         .complete = ignore_tag};

    return tdb_session_exec(s, sql, &dest, NULL);
}

/*
 * CREATE INDEX indexes the rows an older snapshot still sees: a row
 * deleted (and committed) while a transaction that took a snapshot
 * before is open keeps its entry, as in PostgreSQL, since such a
 * snapshot may read through the new index (tupledb runs every
 * transaction READ COMMITTED today, but the open one keeps its first
 * snapshot's xmin, and so the horizon, until it ends); the unique index
 * built beside it ignores the deleted row's key.
 */
TEST_BEGIN(test_build_keeps_rows_older_snapshots_see)
{
    const char *path = test_path(test_tmpdir(), "db");
    Database *db;
    Session *a, *b;
    int64 counts[3];

    if (tdb_top_mcxt == NULL)
        tdb_mcxt_thread_init();
    db = tdb_database_open(path, NULL);
    a = tdb_session_create(db, NULL);
    b = tdb_session_create(db, NULL);
    expect_true(session_ok(b, "CREATE TABLE t (a int, b int);"
                              "INSERT INTO t SELECT g, g FROM "
                              "generate_series(1, 100) g;"
                              "CREATE TABLE u (x int)"));
    expect_true(session_ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ;"
                              "SELECT count(*) FROM u"));
    expect_true(session_ok(b, "DELETE FROM t WHERE a <= 10;"
                              "INSERT INTO t VALUES (1, 1);"
                              "CREATE INDEX t_a ON t (a);"
                              "CREATE UNIQUE INDEX t_b ON t (b)"));
    expect_true(session_ok(a, "COMMIT"));
    /* with no older snapshot left, a new build leaves the rows out */
    expect_true(session_ok(b, "CREATE INDEX t_a2 ON t (a)"));
    tdb_session_destroy(a);
    tdb_session_destroy(b);
    tdb_database_close(db);
    expect_int_eq(check_indexes(path, counts), 3);
    expect_int_eq(counts[0], 101);
    expect_int_eq(counts[1], 101);
    expect_int_eq(counts[2], 91);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "executor_execindex",
                     TEST_CASE(test_comparators),
                     TEST_CASE(test_truncate_keeps_allequalimage),
                     TEST_CASE(test_built_and_written_indexes_are_sound),
                     TEST_CASE(test_build_keeps_rows_older_snapshots_see));
}
