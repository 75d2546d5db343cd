/*
 * nbtree_test.h -- the B-tree fixture shared by tests/unit/access/
 * test_nbtree*.c: a fresh data directory and buffer pool with checksums,
 * and indexes on relation files created through smgr.  Header-only,
 * everything `static TDB_UNUSED`.
 *
 *   bt_env_start()   data directory + pool of nbuffers
 *   bt_env_finish()  check no pins are left, close the pool and directory
 *   bt_new_index()   a new, empty relation file described by an int4,
 *                    int8, text ("C") or (int4, text) key; the caller
 *                    creates it empty (tdb_bt_create_empty) or loads it
 *   tid_of()         an ItemPointerData from (block, offset)
 */
#ifndef TDB_TESTS_NBTREE_TEST_H
#define TDB_TESTS_NBTREE_TEST_H

#include "common/base.h"

#include <string.h>

#include "access/nbtree_int.h"
#include "access_test.h"
#include "storage/bufmgr.h"
#include "storage/smgr.h"
#include "test.h"
#include "tuple/varlena.h"

typedef struct BtEnv {
    DataDir *dd;
    MemoryContextCallback pool_cleanup;
} BtEnv;

static TDB_UNUSED void
bt_env_pool_cleanup(void *arg)
{
    (void)arg;
    if (tdb_bufmgr_is_initialized())
        tdb_bufmgr_discard();
}

static TDB_UNUSED BtEnv *
bt_env_start(int nbuffers)
{
    BtEnv *e = tdb_palloc0(sizeof(BtEnv));

    e->dd = new_datadir();
    e->pool_cleanup.func = bt_env_pool_cleanup;
    tdb_mcxt_register_reset_callback(tdb_top_mcxt, &e->pool_cleanup);
    tdb_bufmgr_init(tdb_datadir_path(e->dd), nbuffers, true);
    return e;
}

static TDB_UNUSED void
bt_env_finish(BtEnv *e)
{
    expect_int_eq(tdb_buf_pins_held(), 0);
    tdb_bufmgr_shutdown();
    tdb_datadir_close(e->dd);
}

/* Key kinds for bt_new_index. */
typedef enum BtKeyKind {
    BTK_INT4,
    BTK_INT8,
    BTK_TEXT,
    BTK_INT4_TEXT,
} BtKeyKind;

/* A new index (in the current context) on a new empty relation file. */
static TDB_UNUSED BTIndex
bt_new_index(BtEnv *e, const char *name, BtKeyKind kind)
{
    BTIndex idx = tdb_palloc0(sizeof(BTIndexData));
    TupleDesc desc = tdb_tupdesc_create(kind == BTK_INT4_TEXT ? 2 : 1);
    RelFileNumber rel = tdb_datadir_alloc_relfilenumber(e->dd);
    SMgrRelation smgr = tdb_smgr_open(NULL, tdb_datadir_path(e->dd), rel);

    tdb_smgr_create(smgr, MAIN_FORKNUM, false);
    tdb_smgr_close(smgr);
    switch (kind) {
    case BTK_INT4:
        tdb_tupdesc_init_attr(desc, 0, "k", 23, -1, 4, true, 'i', 'p');
        break;
    case BTK_INT8:
        tdb_tupdesc_init_attr(desc, 0, "k", 20, -1, 8, true, 'd', 'p');
        break;
    case BTK_TEXT:
        tdb_tupdesc_init_attr(desc, 0, "k", 25, -1, -1, false, 'i', 'x');
        break;
    case BTK_INT4_TEXT:
        tdb_tupdesc_init_attr(desc, 0, "a", 23, -1, 4, true, 'i', 'p');
        tdb_tupdesc_init_attr(desc, 1, "b", 25, -1, -1, false, 'i', 'x');
        break;
    }
    tdb_tupdesc_finalize(desc);
    tdb_bt_index_init(idx, rel, name, desc);
    switch (kind) {
    case BTK_INT4:
        idx->keys[0].cmp = tdb_bt_cmp_int4;
        break;
    case BTK_INT8:
        idx->keys[0].cmp = tdb_bt_cmp_int8;
        break;
    case BTK_TEXT:
        idx->keys[0].cmp = tdb_bt_cmp_text_c;
        break;
    case BTK_INT4_TEXT:
        idx->keys[0].cmp = tdb_bt_cmp_int4;
        idx->keys[1].cmp = tdb_bt_cmp_text_c;
        break;
    }
    tdb_bt_index_finish(idx);
    return idx;
}

static TDB_UNUSED ItemPointerData
tid_of(BlockNumber blk, OffsetNumber off)
{
    ItemPointerData t;

    ItemPointerSet(&t, blk, off);
    return t;
}

#endif /* TDB_TESTS_NBTREE_TEST_H */
