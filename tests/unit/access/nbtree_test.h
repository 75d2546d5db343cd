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
 *   bt_new_index_cols()  the same for any int4/int8/text columns, the
 *                    first nkeyatts keys and the rest INCLUDE columns
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

/*
 * A new index (in the current context) on a new empty relation file:
 * natts columns of types int4 (23), int8 (20) or "C" text (25), the
 * first nkeyatts of them keys, the others INCLUDE columns.  Named "k"
 * when alone, else "a", "b", ...
 */
static TDB_UNUSED BTIndex
bt_new_index_cols(BtEnv *e, const char *name, int natts, const Oid *types,
                  int nkeyatts)
{
    BTIndex idx = tdb_palloc0(sizeof(BTIndexData));
    TupleDesc desc = tdb_tupdesc_create(natts);
    RelFileNumber rel = tdb_datadir_alloc_relfilenumber(e->dd);
    SMgrRelation smgr = tdb_smgr_open(NULL, tdb_datadir_path(e->dd), rel);

    tdb_smgr_create(smgr, MAIN_FORKNUM, false);
    tdb_smgr_close(smgr);
    for (int i = 0; i < natts; i++) {
        char attname[2] = {natts == 1 ? 'k' : (char)('a' + i), '\0'};

        if (types[i] == 23)
            tdb_tupdesc_init_attr(desc, i, attname, 23, -1, 4, true, 'i', 'p');
        else if (types[i] == 20)
            tdb_tupdesc_init_attr(desc, i, attname, 20, -1, 8, true, 'd', 'p');
        else
            tdb_tupdesc_init_attr(desc, i, attname, 25, -1, -1, false, 'i',
                                  'x');
    }
    tdb_tupdesc_finalize(desc);
    tdb_bt_index_init(idx, rel, name, desc);
    idx->nkeyatts = nkeyatts;
    for (int i = 0; i < nkeyatts; i++)
        idx->keys[i].cmp = types[i] == 23   ? tdb_bt_cmp_int4
                           : types[i] == 20 ? tdb_bt_cmp_int8
                                            : tdb_bt_cmp_text_c;
    tdb_bt_index_finish(idx);
    return idx;
}

/* A new index of one of the key kinds, all columns keys. */
static TDB_UNUSED BTIndex
bt_new_index(BtEnv *e, const char *name, BtKeyKind kind)
{
    static const Oid types[][2] = {[BTK_INT4] = {23},
                                   [BTK_INT8] = {20},
                                   [BTK_TEXT] = {25},
                                   [BTK_INT4_TEXT] = {23, 25}};
    int natts = kind == BTK_INT4_TEXT ? 2 : 1;

    return bt_new_index_cols(e, name, natts, types[kind], natts);
}

static TDB_UNUSED ItemPointerData
tid_of(BlockNumber blk, OffsetNumber off)
{
    ItemPointerData t;

    ItemPointerSet(&t, blk, off);
    return t;
}

#endif /* TDB_TESTS_NBTREE_TEST_H */
