/*
 * test_nbtree.c -- the B-tree access method (src/access/nbt*.c) on a real
 * data directory and buffer pool: splits (rightmost, all-equal keys, root
 * splits, several levels), deduplication into posting lists, removal of
 * LP_DEAD items before a split, bulk delete with posting lists, scans in
 * both directions with every strategy (ascending and DESC, NULLs), the
 * uniqueness helper, the loader, the structure check catching corrupted
 * pages, scans concurrent with splits on another thread, and a randomized
 * model test against a sorted array (TDB_TEST_SEED reproduces a run).
 * Byte-exact comparisons with PostgreSQL are in test_nbtree_pg.c.
 */
#include "common/base.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access/snapshot.h"
#include "nbtree_test.h"

/* ---- helpers ------------------------------------------------------------ */

/* (key, tid) pairs of a model in index order */
typedef struct Entry {
    int32 key;
    bool isnull;
    ItemPointerData tid;
} Entry;

static bool model_desc;

static int
entry_cmp(const void *a, const void *b)
{
    const Entry *x = a, *y = b;

    if (x->isnull != y->isnull)
        return x->isnull ? (model_desc ? -1 : 1) : (model_desc ? 1 : -1);
    if (!x->isnull && x->key != y->key)
        return (x->key < y->key ? -1 : 1) * (model_desc ? -1 : 1);
    return bt_tid_cmp(&x->tid, &y->tid);
}

static void
insert_int(BTIndex idx, int32 key, ItemPointerData tid)
{
    Datum v = Int32GetDatum(key);
    bool n = false;

    tdb_bt_insert(idx, &v, &n, &tid);
}

/* All TIDs of a scan, in order, into tids (at most max); returns count. */
static int
scan_all(BTIndex idx, const BTScanKeyData *keys, int nkeys, BTScanDirection dir,
         ItemPointerData *tids, int max)
{
    BTScanDesc scan = tdb_bt_beginscan(idx, keys, nkeys, dir);
    ItemPointerData t;
    int n = 0;

    while (tdb_bt_getnext(scan, &t)) {
        if (n < max)
            tids[n] = t;
        n++;
    }
    tdb_bt_endscan(scan);
    return n;
}

static bool
strategy_holds(int32 v, BTStrategy s, int32 arg)
{
    switch (s) {
    case BT_LESS:
        return v < arg;
    case BT_LESS_EQUAL:
        return v <= arg;
    case BT_EQUAL:
        return v == arg;
    case BT_GREATER_EQUAL:
        return v >= arg;
    case BT_GREATER:
        return v > arg;
    default:
        return false;
    }
}

/*
 * Check scans of idx against the model (sorted in index order): every
 * strategy with argument arg, both directions; IS NULL; the full scan.
 * Returns false after the first difference.
 */
static bool
check_scans(BTIndex idx, Entry *model, int n, int32 arg, uint64 seed)
{
    ItemPointerData *got = tdb_palloc(sizeof(ItemPointerData) * (Size)(n + 1));
    Entry *want = tdb_palloc(sizeof(Entry) * (Size)(n + 1));
    bool ok = true;

    for (int s = 0; s <= BT_IS_NULL && ok; s++) {
        for (int d = 0; d < 2 && ok; d++) {
            BTScanDirection dir = d == 0 ? BT_FORWARD : BT_BACKWARD;
            BTScanKeyData key = {1, (BTStrategy)s, Int32GetDatum(arg)};
            int nwant = 0, ngot;

            for (int i = 0; i < n; i++) {
                bool match =
                    s == 0 ? true
                    : s == BT_IS_NULL
                        ? model[i].isnull
                        : !model[i].isnull &&
                              strategy_holds(model[i].key, (BTStrategy)s, arg);

                if (match)
                    want[nwant++] = model[i];
            }
            ngot = scan_all(idx, &key, s == 0 ? 0 : 1, dir, got, n + 1);
            if (ngot != nwant) {
                tdb_test_fail(
                    __FILE__, __LINE__,
                    "seed %llu: strategy %d arg %d dir %d: %d TIDs, model %d",
                    (unsigned long long)seed, s, arg, (int)dir, ngot, nwant);
                ok = false;
                break;
            }
            for (int i = 0; i < ngot; i++) {
                const Entry *w = &want[dir == BT_FORWARD ? i : nwant - 1 - i];

                if (bt_tid_cmp(&got[i], &w->tid) != 0) {
                    tdb_test_fail(
                        __FILE__, __LINE__,
                        "seed %llu: strategy %d arg %d dir %d: TID %d differs",
                        (unsigned long long)seed, s, arg, (int)dir, i);
                    ok = false;
                    break;
                }
            }
        }
    }
    tdb_pfree(got);
    tdb_pfree(want);
    return ok;
}

static Page
read_page_copy(BTIndex idx, BlockNumber blk, PGAlignedBlock *out)
{
    Buffer buf = tdb_buf_read(idx->relfilenumber, blk, NULL);

    memcpy(out->data, tdb_buf_page(buf), BLCKSZ);
    tdb_buf_release(buf);
    return out->data;
}

/* The metapage's root and level. */
static void
meta_root(BTIndex idx, BlockNumber *root, uint32 *level)
{
    PGAlignedBlock b;
    BTMetaPageData *m = bt_metadata(read_page_copy(idx, BTREE_METAPAGE, &b));

    *root = m->btm_root;
    *level = m->btm_level;
}

/* ---- tests --------------------------------------------------------------- */

TEST_BEGIN(test_empty_and_first_insert)
{
    BtEnv *e = bt_env_start(64);
    BTIndex idx = bt_new_index(e, "t_empty_idx", BTK_INT4);
    ItemPointerData tids[4];
    BlockNumber root;
    uint32 level;

    tdb_bt_create_empty(idx);
    expect_int_eq(tdb_bt_check(idx), 0);
    expect_int_eq(scan_all(idx, NULL, 0, BT_FORWARD, tids, 4), 0);
    expect_int_eq(scan_all(idx, NULL, 0, BT_BACKWARD, tids, 4), 0);
    meta_root(idx, &root, &level);
    expect_int_eq(root, P_NONE);
    insert_int(idx, 42, tid_of(7, 3));
    meta_root(idx, &root, &level);
    expect_int_eq(root, 1);
    expect_int_eq(level, 0);
    expect_int_eq(scan_all(idx, NULL, 0, BT_FORWARD, tids, 4), 1);
    expect_int_eq(ItemPointerGetBlockNumber(&tids[0]), 7);
    expect_int_eq(tdb_bt_check(idx), 1);
    bt_env_finish(e);
}
TEST_END

/* Ascending keys: rightmost splits leave pages 90% full, the root splits,
 * and a third level appears. */
TEST_BEGIN(test_ascending_multilevel)
{
    BtEnv *e = bt_env_start(1024);
    BTIndex idx = bt_new_index(e, "t_asc_idx", BTK_INT4);
    const int n = 200000;
    ItemPointerData *tids = tdb_palloc(sizeof(ItemPointerData) * (Size)n);
    BlockNumber root;
    uint32 level;
    PGAlignedBlock b;
    Page leaf;

    tdb_bt_create_empty(idx);
    for (int i = 0; i < n; i++)
        insert_int(idx, i,
                   tid_of((BlockNumber)(i / 100), (OffsetNumber)(i % 100 + 1)));
    expect_int_eq(tdb_bt_check(idx), n);
    meta_root(idx, &root, &level);
    expect_int_eq(level, 2);
    /* block 1 was the first leaf: split at 90% (leaves ~10% free) */
    leaf = read_page_copy(idx, 1, &b);
    expect_true(P_ISLEAF(bt_opaque(leaf)));
    expect_int_ge(tdb_page_get_exact_free_space(leaf), 700);
    expect_int_le(tdb_page_get_exact_free_space(leaf), 900);
    expect_int_eq(scan_all(idx, NULL, 0, BT_FORWARD, tids, n), n);
    for (int i = 0; i < n; i += 997)
        expect_int_eq(ItemPointerGetOffsetNumber(&tids[i]), i % 100 + 1);
    expect_int_eq(scan_all(idx, NULL, 0, BT_BACKWARD, tids, n), n);
    expect_int_eq(ItemPointerGetBlockNumber(&tids[0]), (n - 1) / 100);
    bt_env_finish(e);
}
TEST_END

/* One key value only: deduplication into posting lists, then splits that
 * must append a heap TID to the pivot (single value strategy). */
TEST_BEGIN(test_all_equal_keys)
{
    BtEnv *e = bt_env_start(256);
    BTIndex idx = bt_new_index(e, "t_same_idx", BTK_INT4);
    const int n = 30000;
    ItemPointerData *tids = tdb_palloc(sizeof(ItemPointerData) * (Size)n);
    int nposting = 0, npivot_tid = 0;
    BlockNumber nblocks;

    tdb_bt_create_empty(idx);
    for (int i = 0; i < n; i++)
        insert_int(idx, 5,
                   tid_of((BlockNumber)(i / 50), (OffsetNumber)(i % 50 + 1)));
    expect_int_eq(tdb_bt_check(idx), n);
    nblocks = tdb_buf_relation_nblocks(idx->relfilenumber);
    for (BlockNumber blk = 1; blk < nblocks; blk++) {
        PGAlignedBlock b;
        Page p = read_page_copy(idx, blk, &b);
        BTPageOpaque o = bt_opaque(p);

        for (OffsetNumber off = 1; off <= tdb_page_get_max_offset(p); off++) {
            IndexTuple t = bt_page_item(p, off);

            nposting += bt_tuple_is_posting(t);
            if (bt_tuple_is_pivot(t) && bt_tuple_heap_tid(t) != NULL)
                npivot_tid++;
        }
        (void)o;
    }
    expect_int_gt(nposting, 10);
    expect_int_gt(npivot_tid, 1);
    /* deduplicated: far fewer pages than 30000 plain 16-byte items need */
    expect_int_lt(nblocks, 30000 * 20 / 8000);
    {
        BTScanKeyData k = {1, BT_EQUAL, Int32GetDatum(5)};

        expect_int_eq(scan_all(idx, &k, 1, BT_FORWARD, tids, n), n);
        for (int i = 1; i < n; i++)
            if (bt_tid_cmp(&tids[i - 1], &tids[i]) >= 0) {
                expect_true(false);
                break;
            }
        expect_int_eq(scan_all(idx, &k, 1, BT_BACKWARD, tids, n), n);
        expect_int_eq(ItemPointerGetBlockNumber(&tids[0]), (n - 1) / 50);
    }
    bt_env_finish(e);
}
TEST_END

/*
 * An Index Only Scan's tuples (tdb_bt_scan_keep_tuples): each item
 * tdb_bt_getnext returns comes with its key, from plain tuples and from
 * posting lists alike, in both directions and across pages; the tree's
 * height grows from 0 as levels are added.
 */
TEST_BEGIN(test_scan_keeps_tuples)
{
    BtEnv *e = bt_env_start(256);
    BTIndex idx = bt_new_index(e, "t_keep_idx", BTK_INT4);
    const int n = 20000;

    tdb_bt_create_empty(idx);
    expect_int_eq(tdb_bt_tree_height(idx), 0);
    /* keys 0..n/4-1, each four times (posting lists), TIDs by key */
    for (int i = 0; i < n; i++)
        insert_int(idx, i / 4,
                   tid_of((BlockNumber)(i / 100), (OffsetNumber)(i % 100 + 1)));
    expect_int_gt(tdb_bt_tree_height(idx), 0);
    for (int d = 0; d < 2; d++) {
        BTScanDirection dir = d == 0 ? BT_FORWARD : BT_BACKWARD;
        BTScanKeyData k = {1, d == 0 ? BT_GREATER_EQUAL : BT_LESS,
                           Int32GetDatum(d == 0 ? 1000 : 4000)};
        BTScanDesc scan = tdb_bt_beginscan(idx, &k, 1, dir);
        ItemPointerData t;
        int count = 0, bad = 0;

        tdb_bt_scan_keep_tuples(scan);
        while (tdb_bt_getnext(scan, &t)) {
            Datum v;
            bool isnull;
            int i = (int)ItemPointerGetBlockNumber(&t) * 100 +
                    ItemPointerGetOffsetNumber(&t) - 1;

            tdb_bt_scan_current_values(scan, &v, &isnull);
            if (isnull || DatumGetInt32(v) != i / 4)
                bad++;
            count++;
        }
        tdb_bt_endscan(scan);
        expect_int_eq(bad, 0);
        expect_int_eq(count, d == 0 ? n - 4000 : 16000);
    }
    bt_env_finish(e);
}
TEST_END

/* A heap TID that falls inside an existing posting list splits it. */
TEST_BEGIN(test_posting_list_split)
{
    BtEnv *e = bt_env_start(256);
    BTIndex idx = bt_new_index(e, "t_post_idx", BTK_INT4);
    Entry model[6000];
    int n = 0;
    ItemPointerData tids[6000];

    tdb_bt_create_empty(idx);
    /* even offsets first (deduplicated as the pages fill), odd ones after */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 3000; i++) {
            ItemPointerData t = tid_of((BlockNumber)(i / 10),
                                       (OffsetNumber)(2 * (i % 10) + 1 + pass));
            int32 key = i % 7;

            insert_int(idx, key, t);
            model[n++] = (Entry){key, false, t};
        }
    expect_int_eq(tdb_bt_check(idx), n);
    model_desc = false;
    qsort(model, (Size)n, sizeof(Entry), entry_cmp);
    expect_int_eq(scan_all(idx, NULL, 0, BT_FORWARD, tids, n), n);
    for (int i = 0; i < n; i++)
        if (bt_tid_cmp(&tids[i], &model[i].tid) != 0) {
            tdb_test_fail(__FILE__, __LINE__, "TID %d out of place", i);
            break;
        }
    bt_env_finish(e);
}
TEST_END

static bool
dead_if_odd_block(const ItemPointerData *tid, void *arg)
{
    (void)arg;
    return ItemPointerGetBlockNumber(tid) % 2 == 1;
}

/* Bulk delete removes single items and TIDs inside posting lists. */
TEST_BEGIN(test_bulk_delete)
{
    BtEnv *e = bt_env_start(256);
    BTIndex idx = bt_new_index(e, "t_vac_idx", BTK_INT4);
    const int n = 20000;
    int64 remaining = -1, removed;
    ItemPointerData *tids = tdb_palloc(sizeof(ItemPointerData) * (Size)n);
    int got;

    tdb_bt_create_empty(idx);
    for (int i = 0; i < n; i++)
        insert_int(idx, i % 3 == 0 ? i : i % 50,
                   tid_of((BlockNumber)(i / 20), (OffsetNumber)(i % 20 + 1)));
    removed = tdb_bt_bulk_delete(idx, dead_if_odd_block, NULL, &remaining);
    expect_int_eq(removed, n / 2);
    expect_int_eq(remaining, n / 2);
    expect_int_eq(tdb_bt_check(idx), n / 2);
    got = scan_all(idx, NULL, 0, BT_FORWARD, tids, n);
    expect_int_eq(got, n / 2);
    for (int i = 0; i < got; i++)
        if (ItemPointerGetBlockNumber(&tids[i]) % 2 == 1) {
            tdb_test_fail(__FILE__, __LINE__, "dead TID returned");
            break;
        }
    /* the index still takes inserts into the emptied space */
    for (int i = 0; i < 100; i++)
        insert_int(idx, i, tid_of(100000, (OffsetNumber)(i + 1)));
    expect_int_eq(tdb_bt_check(idx), n / 2 + 100);
    bt_env_finish(e);
}
TEST_END

/* Items marked LP_DEAD are removed before a page would split, and scans
 * skip them meanwhile. */
TEST_BEGIN(test_lp_dead_removal)
{
    BtEnv *e = bt_env_start(64);
    BTIndex idx = bt_new_index(e, "t_dead_idx", BTK_INT4);
    ItemPointerData tids[1000];
    int n = 0, ndead = 0;
    Buffer buf;
    Page page;
    BlockNumber nblocks_before;

    tdb_bt_create_empty(idx);
    /* fill the root leaf almost full: 16-byte items + 4-byte pointers */
    while (true) {
        PGAlignedBlock b;

        insert_int(idx, n * 2, tid_of(1, (OffsetNumber)(n + 1)));
        n++;
        if (tdb_page_get_exact_free_space(read_page_copy(idx, 1, &b)) < 40)
            break;
    }
    nblocks_before = tdb_buf_relation_nblocks(idx->relfilenumber);
    expect_int_eq(nblocks_before, 2);
    /* mark every third item dead, as a scan that found them dead will */
    buf = tdb_buf_read(idx->relfilenumber, 1, NULL);
    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    page = tdb_buf_page(buf);
    for (OffsetNumber off = 1; off <= tdb_page_get_max_offset(page); off += 3) {
        ItemIdMarkDead(tdb_page_get_item_id(page, off));
        ndead++;
    }
    bt_opaque(page)->btpo_flags |= BTP_HAS_GARBAGE;
    tdb_buf_mark_dirty(buf);
    tdb_buf_unlock_release(buf);
    expect_int_eq(scan_all(idx, NULL, 0, BT_FORWARD, tids, 1000), n - ndead);
    /* inserts that would have split the page reuse the dead items' room */
    for (int i = 0; i < 5; i++)
        insert_int(idx, 2 * i + 1, tid_of(2, (OffsetNumber)(i + 1)));
    expect_int_eq(tdb_buf_relation_nblocks(idx->relfilenumber), nblocks_before);
    {
        PGAlignedBlock b;
        Page p = read_page_copy(idx, 1, &b);

        expect_int_eq(tdb_page_get_max_offset(p), n - ndead + 5);
        expect_false(bt_opaque(p)->btpo_flags & BTP_HAS_GARBAGE);
    }
    expect_int_eq(tdb_bt_check(idx), n - ndead + 5);
    bt_env_finish(e);
}
TEST_END

/* Every strategy, both directions, on text and two-column keys with NULLs
 * and DESC NULLS FIRST. */
TEST_BEGIN(test_scan_keys_text_and_nulls)
{
    BtEnv *e = bt_env_start(256);
    BTIndex t = bt_new_index(e, "t_text_idx", BTK_TEXT);
    BTIndex two = bt_new_index(e, "t_two_idx", BTK_INT4_TEXT);
    ItemPointerData tids[4000];
    char buf[32];

    tdb_bt_create_empty(t);
    for (int i = 0; i < 3000; i++) {
        Datum v;
        bool nul = false;
        ItemPointerData tid = tid_of((BlockNumber)i, 1);

        snprintf(buf, sizeof(buf), "key%05d", (i * 7919) % 3000);
        v = PointerGetDatum(tdb_text_from_cstring(buf));
        tdb_bt_insert(t, &v, &nul, &tid);
    }
    expect_int_eq(tdb_bt_check(t), 3000);
    {
        BTScanKeyData k = {1, BT_GREATER_EQUAL,
                           PointerGetDatum(tdb_text_from_cstring("key02990"))};

        expect_int_eq(scan_all(t, &k, 1, BT_FORWARD, tids, 4000), 10);
        k.strategy = BT_LESS;
        expect_int_eq(scan_all(t, &k, 1, BT_BACKWARD, tids, 4000), 2990);
        k.strategy = BT_EQUAL;
        k.argument = PointerGetDatum(tdb_text_from_cstring("key00042"));
        expect_int_eq(scan_all(t, &k, 1, BT_FORWARD, tids, 4000), 1);
        for (int i = 0; i < 3000; i++)
            if ((i * 7919) % 3000 == 42)
                expect_int_eq(ItemPointerGetBlockNumber(&tids[0]), i);
        k.argument = PointerGetDatum(tdb_text_from_cstring("key0004"));
        expect_int_eq(scan_all(t, &k, 1, BT_FORWARD, tids, 4000), 0);
    }
    /* a key over a third of a page: PostgreSQL's 54000 */
    {
        char *big = tdb_palloc(3001);
        Datum v;
        bool nul = false;
        ItemPointerData tid = tid_of(1, 1);

        memset(big, 'x', 3000);
        big[3000] = '\0';
        v = PointerGetDatum(tdb_text_from_cstring(big));
        expect_error(tdb_bt_insert(t, &v, &nul, &tid),
                     ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                     "index row size 3016 exceeds btree version 4 maximum 2704 "
                     "for index "
                     "\"t_text_idx\"");
        big[2690] = '\0';
        v = PointerGetDatum(tdb_text_from_cstring(big));
        tdb_bt_insert(t, &v, &nul, &tid);
        expect_int_eq(tdb_bt_check(t), 3001);
    }

    /* (a int4 DESC NULLS FIRST, b text): a scan on both columns */
    two->keys[0].desc = true;
    two->keys[0].nulls_first = true;
    tdb_bt_index_finish(two);
    tdb_bt_create_empty(two);
    for (int i = 0; i < 2000; i++) {
        Datum v[2];
        bool nul[2] = {i % 9 == 0, i % 4 == 0};
        ItemPointerData tid = tid_of((BlockNumber)i, 2);

        snprintf(buf, sizeof(buf), "v%d", i % 13);
        v[0] = Int32GetDatum(i % 50);
        v[1] = PointerGetDatum(tdb_text_from_cstring(buf));
        tdb_bt_insert(two, v, nul, &tid);
    }
    expect_int_eq(tdb_bt_check(two), 2000);
    {
        BTScanKeyData k[2] = {
            {1, BT_EQUAL, Int32GetDatum(7)},
            {2, BT_EQUAL, PointerGetDatum(tdb_text_from_cstring("v3"))}};
        int want = 0, got;

        for (int i = 0; i < 2000; i++)
            want += i % 9 != 0 && i % 4 != 0 && i % 50 == 7 && i % 13 == 3;
        expect_int_eq(scan_all(two, k, 2, BT_FORWARD, tids, 4000), want);
        expect_int_eq(scan_all(two, k, 2, BT_BACKWARD, tids, 4000), want);
        /* a < 3 on a DESC column: the end of the index */
        k[0].strategy = BT_LESS;
        k[0].argument = Int32GetDatum(3);
        want = 0;
        for (int i = 0; i < 2000; i++)
            want += i % 9 != 0 && i % 50 < 3;
        got = scan_all(two, k, 1, BT_FORWARD, tids, 4000);
        expect_int_eq(got, want);
        expect_int_eq(scan_all(two, k, 1, BT_BACKWARD, tids, 4000), want);
        /* IS NULL on the first column: the start of the index */
        k[0].strategy = BT_IS_NULL;
        want = 0;
        for (int i = 0; i < 2000; i++)
            want += i % 9 == 0;
        expect_int_eq(scan_all(two, k, 1, BT_FORWARD, tids, 4000), want);
        expect_int_eq(scan_all(two, k, 1, BT_BACKWARD, tids, 4000), want);
        /* IS NULL on the second column only: a filter */
        k[0].attno = 2;
        want = 0;
        for (int i = 0; i < 2000; i++)
            want += i % 4 == 0;
        expect_int_eq(scan_all(two, k, 1, BT_FORWARD, tids, 4000), want);
    }
    bt_env_finish(e);
}
TEST_END

TEST_BEGIN(test_find_equal)
{
    BtEnv *e = bt_env_start(128);
    BTIndex idx = bt_new_index(e, "t_uniq_idx", BTK_INT4);
    ItemPointerData *found;
    Datum v;
    bool n = false;

    tdb_bt_create_empty(idx);
    for (int i = 0; i < 5000; i++)
        insert_int(idx, i % 1000, tid_of((BlockNumber)i, 1));
    v = Int32GetDatum(123);
    expect_int_eq(tdb_bt_find_equal(idx, &v, &n, &found), 5);
    expect_int_eq(ItemPointerGetBlockNumber(&found[0]), 123);
    expect_int_eq(ItemPointerGetBlockNumber(&found[4]), 4123);
    v = Int32GetDatum(5000);
    expect_int_eq(tdb_bt_find_equal(idx, &v, &n, &found), 0);
    n = true;
    expect_int_eq(tdb_bt_find_equal(idx, &v, &n, &found), 0);
    bt_env_finish(e);
}
TEST_END

/* tdb_bt_insert_unique's conflict test: live are the TIDs of block
 * *arg (or none for UINT32_MAX); counts its calls in calls. */
static int unique_calls;

static bool
live_block(const ItemPointerData *htid, void *arg)
{
    unique_calls++;
    return ItemPointerGetBlockNumber(htid) == *(const BlockNumber *)arg;
}

static bool
unique_insert_int(BTIndex idx, int32 key, ItemPointerData tid, BlockNumber live)
{
    Datum v = Int32GetDatum(key);
    bool n = false;
    IndexTuple t = tdb_bt_form_tuple(idx, &v, &n, &tid);
    bool ok = tdb_bt_insert_unique(idx, t, live_block, &live);

    tdb_pfree(t);
    return ok;
}

/*
 * The unique check in the insert's descent: equal keys of dead rows
 * filling several leaf pages (in posting lists and not) are all offered
 * to the conflict test, a live one on the last of those pages is found,
 * and without one the entry goes where its heap TID puts it.
 */
TEST_BEGIN(test_insert_unique)
{
    BtEnv *e = bt_env_start(256);
    BTIndex idx = bt_new_index(e, "t_insuniq_idx", BTK_INT4);
    const int ndup = 6000;
    BlockNumber none = UINT32_MAX;

    tdb_bt_create_empty(idx);
    for (int i = 0; i < 2000; i++)
        insert_int(idx, i * 2, tid_of((BlockNumber)(100000 + i), 1));
    /* 6000 entries of key 1001 (rows 0..5999), more than a leaf holds
     * even deduplicated */
    for (int i = 0; i < ndup; i++)
        insert_int(idx, 1001, tid_of((BlockNumber)i, 1));
    expect_int_eq(tdb_bt_check(idx), 2000 + ndup);
    /* the last duplicate's row is live: found on the last page */
    unique_calls = 0;
    expect_false(unique_insert_int(idx, 1001, tid_of(200000, 1), ndup - 1));
    expect_int_eq(unique_calls, ndup);
    expect_int_eq(tdb_bt_check(idx), 2000 + ndup);
    /* the first's */
    unique_calls = 0;
    expect_false(unique_insert_int(idx, 1001, tid_of(200000, 1), 0));
    expect_int_eq(unique_calls, 1);
    /* none live: inserted, at the far right of the equal keys */
    unique_calls = 0;
    expect_true(unique_insert_int(idx, 1001, tid_of(200000, 1), none));
    expect_int_eq(unique_calls, ndup);
    expect_int_eq(tdb_bt_check(idx), 2000 + ndup + 1);
    /* and among them, by heap TID */
    expect_true(unique_insert_int(idx, 1001, tid_of(3000, 2), none));
    expect_int_eq(tdb_bt_check(idx), 2000 + ndup + 2);
    /* keys with no equal: no call */
    unique_calls = 0;
    expect_true(unique_insert_int(idx, 7, tid_of(300000, 1), 300000));
    expect_true(unique_insert_int(idx, 99999, tid_of(300001, 1), 300001));
    expect_int_eq(unique_calls, 0);
    expect_false(unique_insert_int(idx, 7, tid_of(300002, 1), 300000));
    expect_int_eq(tdb_bt_check(idx), 2000 + ndup + 4);
    {
        Datum v = Int32GetDatum(1001);
        bool n = false;
        ItemPointerData *found;

        expect_int_eq(tdb_bt_find_equal(idx, &v, &n, &found), ndup + 2);
    }
    bt_env_finish(e);
}
TEST_END

/* The loader: sorted input, duplicates merged, scans and check agree. */
TEST_BEGIN(test_loader)
{
    BtEnv *e = bt_env_start(512);
    BTIndex idx = bt_new_index(e, "t_load_idx", BTK_INT8);
    BTIndex bad = bt_new_index(e, "t_bad_idx", BTK_INT8);
    const int n = 100000;
    ItemPointerData *tids = tdb_palloc(sizeof(ItemPointerData) * (Size)n);
    BTLoader ld = tdb_bt_load_begin(idx);
    BlockNumber root;
    uint32 level;

    for (int i = 0; i < n; i++) {
        Datum v = Int64GetDatum((int64)(i / 3) * 1000000007LL);
        bool nul = false;
        ItemPointerData tid = tid_of((BlockNumber)i, 1);

        tdb_bt_load_add(ld, &v, &nul, &tid);
    }
    tdb_bt_load_end(ld);
    expect_int_eq(tdb_bt_check(idx), n);
    meta_root(idx, &root, &level);
    expect_int_ge(level, 1);
    expect_int_eq(scan_all(idx, NULL, 0, BT_FORWARD, tids, n), n);
    for (int i = 0; i < n; i += 1013)
        expect_int_eq(ItemPointerGetBlockNumber(&tids[i]), i);
    {
        BTScanKeyData k = {1, BT_EQUAL, Int64GetDatum(777LL * 1000000007LL)};

        expect_int_eq(scan_all(idx, &k, 1, BT_BACKWARD, tids, n), 3);
        expect_int_eq(ItemPointerGetBlockNumber(&tids[0]), 777 * 3 + 2);
    }
    /* inserts after the build */
    for (int i = 0; i < 1000; i++) {
        Datum v = Int64GetDatum((int64)i * 7);
        bool nul = false;
        ItemPointerData tid = tid_of((BlockNumber)(n + i), 1);

        tdb_bt_insert(idx, &v, &nul, &tid);
    }
    expect_int_eq(tdb_bt_check(idx), n + 1000);
    /* out of order input is refused */
    ld = tdb_bt_load_begin(bad);
    {
        Datum v = Int64GetDatum(10);
        bool nul = false;
        ItemPointerData tid = tid_of(1, 1);

        tdb_bt_load_add(ld, &v, &nul, &tid);
        v = Int64GetDatum(9);
        expect_error(tdb_bt_load_add(ld, &v, &nul, &tid),
                     ERRCODE_INTERNAL_ERROR, "not in index order");
    }
    bt_env_finish(e);
}
TEST_END

/* Overwrite bytes of block blk, then expect check (and a scan) to raise
 * XX002 naming the index. */
static void
corrupt_and_expect(BTIndex idx, BlockNumber blk, Size off, const void *bytes,
                   Size len, bool scan_too)
{
    Buffer buf = tdb_buf_read(idx->relfilenumber, blk, NULL);
    PGAlignedBlock saved;

    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    memcpy(saved.data, tdb_buf_page(buf), BLCKSZ);
    memcpy(tdb_buf_page(buf) + off, bytes, len);
    tdb_buf_mark_dirty(buf);
    tdb_buf_unlock_release(buf);
    expect_error(tdb_bt_check(idx), ERRCODE_INDEX_CORRUPTED, idx->name);
    if (scan_too) {
        ItemPointerData t[1];

        expect_error(scan_all(idx, NULL, 0, BT_FORWARD, t, 1),
                     ERRCODE_INDEX_CORRUPTED, idx->name);
    }
    expect_int_eq(tdb_buf_pins_held(), 0);
    buf = tdb_buf_read(idx->relfilenumber, blk, NULL);
    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    memcpy(tdb_buf_page(buf), saved.data, BLCKSZ);
    tdb_buf_mark_dirty(buf);
    tdb_buf_unlock_release(buf);
    expect_int_eq(tdb_bt_check(idx), 3000);
}

TEST_BEGIN(test_structure_check)
{
    BtEnv *e = bt_env_start(128);
    BTIndex idx = bt_new_index(e, "t_corrupt_idx", BTK_INT4);
    PGAlignedBlock b;
    Page leaf;
    uint16 v16;
    uint32 v32;
    ItemIdData lp2, lp3;

    tdb_bt_create_empty(idx);
    for (int i = 0; i < 3000; i++)
        insert_int(idx, i, tid_of((BlockNumber)i, 1));
    expect_int_eq(tdb_bt_check(idx), 3000);
    leaf = read_page_copy(idx, 1, &b);
    /* special space moved */
    v16 = BLCKSZ - 32;
    corrupt_and_expect(idx, 1, offsetof(PageHeaderData, pd_special), &v16, 2,
                       true);
    /* unknown flag */
    v16 = BTP_LEAF | 0x4000;
    corrupt_and_expect(idx, 1, BLCKSZ - 4, &v16, 2, true);
    /* a leaf claiming level 1 */
    v32 = 1;
    corrupt_and_expect(idx, 1, BLCKSZ - 8, &v32, 4, true);
    /* two items swapped: out of order */
    lp2 = *tdb_page_get_item_id(leaf, 2);
    lp3 = *tdb_page_get_item_id(leaf, 3);
    {
        ItemIdData two[2] = {lp3, lp2};

        corrupt_and_expect(idx, 1, SizeOfPageHeaderData + sizeof(ItemIdData),
                           two, sizeof(two), false);
    }
    /* a high key smaller than the items */
    {
        IndexTuple hk = bt_page_item(leaf, P_HIKEY);
        int32 small = -5;

        corrupt_and_expect(idx, 1, (Size)((char *)hk - leaf) + 8, &small, 4,
                           false);
    }
    /* a line pointer beyond the page */
    {
        ItemIdData badlp = lp2;

        badlp.lp_off = 0x7FF0;
        corrupt_and_expect(idx, 1, SizeOfPageHeaderData + sizeof(ItemIdData),
                           &badlp, sizeof(badlp), false);
    }
    /* ... met by a lookup's binary search: an error, not a wild read (the
     * statement boundary releases what the descent held) */
    {
        Buffer buf = tdb_buf_read(idx->relfilenumber, 1, NULL);
        ItemPointerData t[1];
        BTScanKeyData k = {1, BT_EQUAL, Int32GetDatum(5)};

        tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
        for (OffsetNumber off = 2;
             off <= tdb_page_get_max_offset(tdb_buf_page(buf)); off++)
            tdb_page_get_item_id(tdb_buf_page(buf), off)->lp_off = 0x7FF0;
        tdb_buf_unlock_release(buf);
        expect_error(scan_all(idx, &k, 1, BT_FORWARD, t, 1),
                     ERRCODE_INDEX_CORRUPTED,
                     "index \"t_corrupt_idx\" contains corrupted page");
        tdb_buf_release_all_pins_of_thread();
        buf = tdb_buf_read(idx->relfilenumber, 1, NULL);
        tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
        memcpy(tdb_buf_page(buf), leaf, BLCKSZ);
        tdb_buf_mark_dirty(buf);
        tdb_buf_unlock_release(buf);
        expect_int_eq(tdb_bt_check(idx), 3000);
    }
    /* a broken metapage (scans start at the cached root and need not read
     * it, as PostgreSQL's cached metapage data) */
    v32 = 0x12345;
    corrupt_and_expect(idx, 0, MAXALIGN(SizeOfPageHeaderData), &v32, 4, false);
    idx->cached_root = P_NONE;
    {
        ItemPointerData t[1];
        Buffer buf = tdb_buf_read(idx->relfilenumber, 0, NULL);

        tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
        memcpy(tdb_buf_page(buf) + MAXALIGN(SizeOfPageHeaderData), &v32, 4);
        tdb_buf_mark_dirty(buf);
        tdb_buf_unlock_release(buf);
        expect_error(scan_all(idx, NULL, 0, BT_FORWARD, t, 1),
                     ERRCODE_INDEX_CORRUPTED, "t_corrupt_idx");
    }
    bt_env_finish(e);
}
TEST_END

/* Change block blk of idx in place with fn (under its exclusive lock). */
static void
edit_page(BTIndex idx, BlockNumber blk, void (*fn)(Page page, void *arg),
          void *arg)
{
    Buffer buf = tdb_buf_read(idx->relfilenumber, blk, NULL);

    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    fn(tdb_buf_page(buf), arg);
    tdb_buf_mark_dirty(buf);
    tdb_buf_unlock_release(buf);
}

/* The first posting list of the page claims 4095 TIDs. */
static void
inflate_posting(Page page, void *arg)
{
    (void)arg;
    for (OffsetNumber off = P_FIRSTDATAKEY(bt_opaque(page));
         off <= tdb_page_get_max_offset(page); off++) {
        IndexTuple t = bt_page_item(page, off);

        if (bt_tuple_is_posting(t)) {
            bt_tuple_set_posting(t, BT_OFFSET_MASK,
                                 bt_tuple_posting_offset(t));
            return;
        }
    }
}

/* The last item's key (text) claims more bytes than its tuple has. */
static void
stretch_varlena(Page page, void *arg)
{
    IndexTuple t = bt_page_item(page, tdb_page_get_max_offset(page));
    char *data = (char *)t + MAXALIGN(sizeof(IndexTupleData));

    (void)arg;
    /* a 1-byte header of the largest short length, 126 data bytes */
    data[0] = (char)0xFF;
}

/* The page's bytes become *arg's (a PGAlignedBlock). */
static void
restore_page(Page page, void *arg)
{
    memcpy(page, ((PGAlignedBlock *)arg)->data, BLCKSZ);
}

/* The page's right link points at block *arg (a cycle). */
static void
set_right_link(Page page, void *arg)
{
    bt_opaque(page)->btpo_next = *(BlockNumber *)arg;
}

/* Every data item's line pointer aimed at the first one's tuple: more
 * TIDs than a page holds if each is a posting list. */
static void
share_tuples(Page page, void *arg)
{
    OffsetNumber first = P_FIRSTDATAKEY(bt_opaque(page));
    ItemIdData lp = *tdb_page_get_item_id(page, first);

    (void)arg;
    for (OffsetNumber off = first; off <= tdb_page_get_max_offset(page); off++)
        *tdb_page_get_item_id(page, off) = lp;
}

/*
 * Damage that passes the page-level checks and used to be followed: a
 * posting list longer than its tuple, a varlena key longer than its
 * tuple, line pointers sharing a posting list, a cycle of right links.
 * Scans, lookups and VACUUM raise XX002 naming the index and the block;
 * nothing reads outside the page (ASan) or loops.
 */
TEST_BEGIN(test_corruption_bounds)
{
    BtEnv *e = bt_env_start(256);
    BTIndex dup = bt_new_index(e, "t_dup_idx", BTK_INT4);
    BTIndex txt = bt_new_index(e, "t_txt_idx", BTK_TEXT);
    BTIndex asc = bt_new_index(e, "t_asc_idx", BTK_INT4);
    ItemPointerData t[1];
    BlockNumber one = 1;
    PGAlignedBlock saved;

    tdb_bt_create_empty(dup);
    for (int i = 0; i < 2000; i++)
        insert_int(dup, i % 2, tid_of((BlockNumber)i, 1));
    tdb_bt_create_empty(txt);
    for (int i = 0; i < 50; i++) {
        char buf[32];
        Datum v;
        bool n = false;
        ItemPointerData tid = tid_of((BlockNumber)i, 1);

        snprintf(buf, sizeof(buf), "key%05d", i);
        v = PointerGetDatum(tdb_text_from_cstring(buf));
        tdb_bt_insert(txt, &v, &n, &tid);
    }
    tdb_bt_create_empty(asc);
    for (int i = 0; i < 3000; i++)
        insert_int(asc, i, tid_of((BlockNumber)i, 1));

    /* a posting list of 4095 TIDs in a tuple of a few hundred bytes */
    (void)read_page_copy(dup, 1, &saved);
    edit_page(dup, 1, inflate_posting, NULL);
    expect_error(scan_all(dup, NULL, 0, BT_FORWARD, t, 1),
                 ERRCODE_INDEX_CORRUPTED,
                 "index \"t_dup_idx\" contains corrupted page at block 1");
    tdb_buf_release_all_pins_of_thread();
    expect_error(tdb_bt_bulk_delete(dup, dead_if_odd_block, NULL, NULL),
                 ERRCODE_INDEX_CORRUPTED, "at block 1");
    tdb_buf_release_all_pins_of_thread();

    /* a key running past its tuple, met by a lookup's compare */
    edit_page(txt, 1, stretch_varlena, NULL);
    {
        BTScanKeyData tk = {1, BT_GREATER_EQUAL,
                            PointerGetDatum(tdb_text_from_cstring("key0"))};

        expect_error(scan_all(txt, &tk, 1, BT_FORWARD, t, 1),
                     ERRCODE_INDEX_CORRUPTED,
                     "index \"t_txt_idx\" contains corrupted page at block 1");
        tdb_buf_release_all_pins_of_thread();
    }

    /* line pointers sharing a tuple: more TIDs than a page holds */
    edit_page(dup, 1, restore_page, &saved);
    edit_page(dup, 1, share_tuples, NULL);
    expect_error(scan_all(dup, NULL, 0, BT_FORWARD, t, 1),
                 ERRCODE_INDEX_CORRUPTED, "t_dup_idx");
    tdb_buf_release_all_pins_of_thread();

    /* the second leaf's right link back to the first: a scan of
     * everything ends with an error, not a loop */
    {
        BlockNumber second = bt_opaque(tdb_buf_page(
            tdb_buf_read(asc->relfilenumber, 1, NULL)))->btpo_next;

        tdb_buf_release_all_pins_of_thread();
        edit_page(asc, second, set_right_link, &one);
        expect_error(scan_all(asc, NULL, 0, BT_FORWARD, t, 1),
                     ERRCODE_INDEX_CORRUPTED,
                     "index \"t_asc_idx\" contains corrupted page at block");
        tdb_buf_release_all_pins_of_thread();
    }
    tdb_buf_release_all_pins_of_thread();
    bt_env_finish(e);
}
TEST_END

/* In the parent page, remove the downlink to block *arg. */
static void
remove_downlink(Page page, void *arg)
{
    BlockNumber child = *(BlockNumber *)arg;

    for (OffsetNumber off = P_FIRSTDATAKEY(bt_opaque(page));
         off <= tdb_page_get_max_offset(page); off++)
        if (bt_tuple_downlink(bt_page_item(page, off)) == child) {
            tdb_bt_delete_items(page, &off, 1);
            return;
        }
}

static void
set_incomplete_split(Page page, void *arg)
{
    (void)arg;
    bt_opaque(page)->btpo_flags |= BTP_INCOMPLETE_SPLIT;
}

/*
 * A split interrupted between writing its halves and inserting the
 * downlink to the right half (an error in the parent's split, a crash):
 * the left half flagged BTP_INCOMPLETE_SPLIT, no downlink to the right
 * half.  Readers reach the right half by the right link; the next insert
 * that meets the left half finishes the split as PostgreSQL's
 * _bt_finish_split does, and the structure check passes again.
 */
TEST_BEGIN(test_finish_incomplete_split)
{
    BtEnv *e = bt_env_start(128);
    BTIndex idx = bt_new_index(e, "t_split_idx", BTK_INT4);
    BlockNumber root, right;
    uint32 level;
    PGAlignedBlock b;
    ItemPointerData t[4];
    BTScanKeyData k;
    int32 firstright;

    tdb_bt_create_empty(idx);
    for (int i = 0; i < 3000; i++)
        insert_int(idx, i, tid_of((BlockNumber)i, 1));
    meta_root(idx, &root, &level);
    expect_int_eq(level, 1);
    right = bt_opaque(read_page_copy(idx, 1, &b))->btpo_next;
    firstright = DatumGetInt32(
        tdb_bt_getattr(idx, bt_page_item(read_page_copy(idx, right, &b),
                                         P_FIRSTKEY),
                       0, &(bool){false}));
    edit_page(idx, root, remove_downlink, &right);
    edit_page(idx, 1, set_incomplete_split, NULL);
    /* readers still find everything, through the right link */
    expect_int_eq(scan_all(idx, NULL, 0, BT_FORWARD, t, 1), 3000);
    k = (BTScanKeyData){1, BT_EQUAL, Int32GetDatum(firstright)};
    expect_int_eq(scan_all(idx, &k, 1, BT_FORWARD, t, 4), 1);
    /* an insert into the right half's range finishes the split first */
    insert_int(idx, firstright, tid_of(5000, 1));
    expect_false(P_INCOMPLETE_SPLIT(bt_opaque(read_page_copy(idx, 1, &b))));
    {
        Page rp = read_page_copy(idx, root, &b);
        bool found = false;

        for (OffsetNumber off = P_FIRSTDATAKEY(bt_opaque(rp));
             off <= tdb_page_get_max_offset(rp); off++)
            found |= bt_tuple_downlink(bt_page_item(rp, off)) == right;
        expect_true(found);
    }
    expect_int_eq(tdb_bt_check(idx), 3001);
    expect_int_eq(scan_all(idx, &k, 1, BT_FORWARD, t, 4), 2);
    bt_env_finish(e);
}
TEST_END

/* ---- a scan while another thread splits pages ---------------------------- */

typedef struct ConcArg {
    BTIndex idx;
    int nkeys;         /* even keys 0, 2, ... 2 * (nkeys - 1) were there */
    volatile int done; /* writer finished */
    char error[1100];
} ConcArg;

static void *
writer_main(void *p)
{
    ConcArg *a = p;

    tdb_mcxt_thread_init();
    TDB_TRY();
    {
        for (int i = 0; i < a->nkeys; i++)
            insert_int(a->idx, 2 * ((i * 7919) % a->nkeys) + 1,
                       tid_of(2000000, (OffsetNumber)(i % 1000 + 1)));
    }
    TDB_CATCH();
    {
        snprintf(a->error, sizeof(a->error), "%s",
                 tdb_error_current()->message);
        tdb_error_flush();
    }
    TDB_END_TRY();
    __atomic_store_n(&a->done, 1, __ATOMIC_SEQ_CST);
    tdb_mcxt_thread_done();
    return NULL;
}

/* Readers see every key that was there before they began exactly once
 * and in order, whatever splits happen meanwhile. */
TEST_BEGIN(test_scan_concurrent_with_splits)
{
    BtEnv *e = bt_env_start(2048);
    BTIndex idx = bt_new_index(e, "t_conc_idx", BTK_INT4);
    ConcArg a = {idx, 40000, 0, ""};
    pthread_t th;
    int rounds = 0;

    tdb_bt_create_empty(idx);
    for (int i = 0; i < a.nkeys; i++)
        insert_int(idx, 2 * i, tid_of((BlockNumber)i, 1));
    expect_int_eq(pthread_create(&th, NULL, writer_main, &a), 0);
    while (rounds < 4 || !__atomic_load_n(&a.done, __ATOMIC_SEQ_CST)) {
        for (int d = 0; d < 2; d++) {
            BTScanDesc scan = tdb_bt_beginscan(
                idx, NULL, 0, d == 0 ? BT_FORWARD : BT_BACKWARD);
            ItemPointerData t;
            int nseen = 0;
            int64 last = d == 0 ? -1 : (int64)1 << 40;
            bool ok = true;

            while (tdb_bt_getnext(scan, &t)) {
                BlockNumber blk = ItemPointerGetBlockNumber(&t);

                if (blk == 2000000)
                    continue; /* a concurrently inserted odd key */
                if (d == 0 ? (int64)blk <= last : (int64)blk >= last)
                    ok = false;
                last = blk;
                nseen++;
            }
            tdb_bt_endscan(scan);
            expect_true(ok);
            expect_int_eq(nseen, a.nkeys);
        }
        rounds++;
    }
    join_within(th);
    expect_str_eq(a.error, "");
    expect_int_eq(tdb_bt_check(idx), 2 * a.nkeys);
    bt_env_finish(e);
}
TEST_END

/* ---- page deletion and reuse ---------------------------------------------
 */

/* TIDs (i / 100, i % 100 + 1) carry key i: dead if key >= *arg or, with
 * a negative bound, if key < -*arg. */
static bool
dead_from_key(const ItemPointerData *tid, void *arg)
{
    int32 bound = *(const int32 *)arg;
    int32 key = (int32)(ItemPointerGetBlockNumber(tid) * 100 +
                        ItemPointerGetOffsetNumber(tid) - 1);

    return bound >= 0 ? key >= bound : key < -bound;
}

/* Keys in [range[0], range[1]) are dead. */
static bool
dead_in_range(const ItemPointerData *tid, void *arg)
{
    const int32 *range = arg;
    int32 key = (int32)(ItemPointerGetBlockNumber(tid) * 100 +
                        ItemPointerGetOffsetNumber(tid) - 1);

    return key >= range[0] && key < range[1];
}

static ItemPointerData
key_tid(int32 key)
{
    return tid_of((BlockNumber)(key / 100), (OffsetNumber)(key % 100 + 1));
}

/* Hand out and commit one xid: the horizon moves past earlier ones. */
static void
consume_xid(TransactionManager *tm)
{
    Transaction *x = begin_new(tm);

    (void)tdb_xact_assign_xid(x);
    expect_true(tdb_xact_commit(x));
    tdb_xact_destroy(x);
}

/* Pages of idx by state: deleted, half-dead, deleted above the leaves. */
static void
count_pages(BTIndex idx, int *deleted, int *halfdead, int *deleted_internal)
{
    BlockNumber n = tdb_buf_relation_nblocks(idx->relfilenumber);

    *deleted = *halfdead = *deleted_internal = 0;
    for (BlockNumber b = 1; b < n; b++) {
        PGAlignedBlock copy;
        BTPageOpaque o = bt_opaque(read_page_copy(idx, b, &copy));

        *deleted += P_ISDELETED(o);
        *halfdead += P_ISHALFDEAD(o);
        *deleted_internal += P_ISDELETED(o) && o->btpo_level > 0;
    }
}

/* Keys lo .. hi-1 by a scan in direction dir: every one, in order. */
static bool
scan_is_range(BTIndex idx, BTScanDirection dir, int32 lo, int32 hi)
{
    BTScanDesc scan = tdb_bt_beginscan(idx, NULL, 0, dir);
    ItemPointerData t;
    int32 want = dir == BT_FORWARD ? lo : hi - 1;
    bool ok = true;

    while (tdb_bt_getnext(scan, &t)) {
        ItemPointerData w = key_tid(want);

        if (want < lo || want >= hi || bt_tid_cmp(&t, &w) != 0) {
            ok = false;
            break;
        }
        want += dir == BT_FORWARD ? 1 : -1;
    }
    tdb_bt_endscan(scan);
    return ok && want == (dir == BT_FORWARD ? hi : lo - 1);
}

/* Emptied leaves are deleted by the bulk delete, become reusable once
 * the horizon passes their xid (not while an older snapshot exists), and
 * the same number of keys inserted again fits in the freed pages. */
TEST_BEGIN(test_page_deletion_and_reuse)
{
    BtEnv *e = bt_env_start(512);
    TransactionManager *tm = tdb_xact_manager_open(e->dd, tdb_current_mcxt);
    BTIndex idx = bt_new_index(e, "t_del_idx", BTK_INT4);
    const int32 n = 30000, keep = 1000;
    BTVacuumStats st;
    BlockNumber full, after;
    int deleted, halfdead, deleted_internal;
    int32 bound = keep;
    Transaction *old;

    idx->tm = tm;
    tdb_bt_create_empty(idx);
    for (int32 i = 0; i < n; i++)
        insert_int(idx, i, key_tid(i));
    full = tdb_buf_relation_nblocks(idx->relfilenumber);

    /* a snapshot from before the deletion keeps the pages from reuse */
    old = begin_new(tm);
    (void)tdb_snapshot_take(tm, old, tdb_current_mcxt);
    expect_int_eq(tdb_bt_bulk_delete(idx, dead_from_key, &bound, NULL),
                  n - keep);
    tdb_bt_last_vacuum_stats(&st);
    expect_true(st.pages_deleted > (BlockNumber)(full * 8 / 10));
    expect_int_eq(st.pages_free, 0);
    expect_int_eq(tdb_bt_check(idx), keep);
    expect_true(scan_is_range(idx, BT_FORWARD, 0, keep));
    expect_true(scan_is_range(idx, BT_BACKWARD, 0, keep));
    count_pages(idx, &deleted, &halfdead, &deleted_internal);
    expect_int_eq(deleted, (int)st.pages_deleted);
    expect_int_eq(halfdead, 0);
    consume_xid(tm);
    (void)tdb_bt_bulk_delete(idx, NULL, NULL, NULL);
    tdb_bt_last_vacuum_stats(&st);
    expect_int_eq(st.pages_free, 0);
    expect_true(tdb_bt_vacuum_needs_cleanup(idx));

    /* the snapshot gone and the horizon past the deletion: reusable */
    expect_true(tdb_xact_commit(old));
    tdb_xact_destroy(old);
    (void)tdb_bt_bulk_delete(idx, NULL, NULL, NULL);
    tdb_bt_last_vacuum_stats(&st);
    expect_int_eq(st.pages_free, (BlockNumber)deleted);
    expect_false(tdb_bt_vacuum_needs_cleanup(idx));

    /* the same keys again: the freed pages take them, no growth */
    for (int32 i = keep; i < n; i++)
        insert_int(idx, i, key_tid(i));
    after = tdb_buf_relation_nblocks(idx->relfilenumber);
    expect_true(after <= full);
    expect_int_eq(tdb_bt_check(idx), n);
    expect_true(scan_is_range(idx, BT_FORWARD, 0, n));
    expect_true(scan_is_range(idx, BT_BACKWARD, 0, n));
    tdb_xact_manager_close(tm);
    bt_env_finish(e);
}
TEST_END

/* The edge cases: the rightmost leaf stays however empty; a leaf that
 * is its parent's only child goes with the parent (a second pass, once
 * its siblings went); a leftmost range goes too; scans positioned before
 * the deletion step past deleted pages in both directions. */
TEST_BEGIN(test_page_deletion_edge_cases)
{
    BtEnv *e = bt_env_start(512);
    TransactionManager *tm = tdb_xact_manager_open(e->dd, tdb_current_mcxt);
    BTIndex idx = bt_new_index(e, "t_del_edge_idx", BTK_INT4);
    const int32 n = 300000;
    BTVacuumStats st;
    int deleted, halfdead, deleted_internal;
    BlockNumber root;
    uint32 level;
    int32 bound;

    idx->tm = tm;
    tdb_bt_create_empty(idx);
    for (int32 i = 0; i < n; i++)
        insert_int(idx, i, key_tid(i));
    meta_root(idx, &root, &level);
    expect_int_eq(level, 2); /* leaves, their parents, the root */

    /* the rightmost leaf emptied: it stays */
    bound = n - 50;
    expect_int_eq(tdb_bt_bulk_delete(idx, dead_from_key, &bound, NULL), 50);
    tdb_bt_last_vacuum_stats(&st);
    expect_int_eq(st.pages_deleted, 0);
    expect_int_eq(tdb_bt_check(idx), n - 50);

    /* scans that read their first page before the deletion: everything
     * but the first 20 and the last 20000 keys goes */
    {
        BTScanDesc fwd = tdb_bt_beginscan(idx, NULL, 0, BT_FORWARD);
        BTScanDesc bwd = tdb_bt_beginscan(idx, NULL, 0, BT_BACKWARD);
        ItemPointerData t;
        int32 range[2] = {20, n - 20000};
        int nf = 1, nb = 1;

        expect_true(tdb_bt_getnext(fwd, &t));
        expect_true(tdb_bt_getnext(bwd, &t));
        expect_int_eq(tdb_bt_bulk_delete(idx, dead_in_range, range, NULL),
                      range[1] - range[0]);
        tdb_bt_last_vacuum_stats(&st);
        expect_true(st.pages_deleted > 100);
        while (tdb_bt_getnext(fwd, &t))
            nf++;
        while (tdb_bt_getnext(bwd, &t))
            nb++;
        /* the first leaf's TIDs were copied before; none of the deleted
         * range after: each scan sees the other's end */
        expect_true(nf >= 20 + 20000 - 50);
        expect_true(nf < 20 + 20000 - 50 + 400);
        expect_true(nb >= 20 + 20000 - 50);
        expect_true(nb < 20 + 20000 - 50 + 400);
        tdb_bt_endscan(fwd);
        tdb_bt_endscan(bwd);
    }
    expect_int_eq(tdb_bt_check(idx), 20 + 20000 - 50);
    /* a second pass: parents whose only child is left go with it */
    consume_xid(tm);
    (void)tdb_bt_bulk_delete(idx, NULL, NULL, NULL);
    count_pages(idx, &deleted, &halfdead, &deleted_internal);
    expect_true(deleted_internal > 0);
    expect_int_eq(halfdead, 0);
    expect_int_eq(tdb_bt_check(idx), 20 + 20000 - 50);

    /* the leftmost leaves go too */
    bound = -(n - 20000 + 100);
    (void)tdb_bt_bulk_delete(idx, dead_from_key, &bound, NULL);
    expect_int_eq(tdb_bt_check(idx), 20000 - 50 - 100);
    expect_true(scan_is_range(idx, BT_FORWARD, n - 20000 + 100, n - 50));
    expect_true(scan_is_range(idx, BT_BACKWARD, n - 20000 + 100, n - 50));
    tdb_xact_manager_close(tm);
    bt_env_finish(e);
}
TEST_END

/* ---- randomized model test ------------------------------------------------
 */

typedef struct DeadSet {
    Entry *model;
    int n;
    bool *dead; /* per model entry */
} DeadSet;

static bool
tid_in_dead_set(const ItemPointerData *tid, void *arg)
{
    DeadSet *ds = arg;

    /* heap TIDs are unique: (block = entry id) */
    BlockNumber id = ItemPointerGetBlockNumber(tid);

    return ds->dead[id];
}

TEST_BEGIN(test_random_model)
{
    uint64 seed = tdb_test_seed();
    uint64 rng = seed;
    BtEnv *e = bt_env_start(512);
    TransactionManager *tm = tdb_xact_manager_open(e->dd, tdb_current_mcxt);
    const int maxn = 100000;
    Entry *model = tdb_palloc(sizeof(Entry) * (Size)maxn);
    Entry *sorted = tdb_palloc(sizeof(Entry) * (Size)maxn);
    bool *dead = tdb_palloc0(sizeof(bool) * (Size)maxn);
    bool *alive = tdb_palloc0(sizeof(bool) * (Size)maxn);
    int nextid = 0;
    BlockNumber ndeleted = 0, nfree = 0;

    /* 0: ascending; 1: DESC NULLS FIRST with many duplicates; 2: with
     * page deletion and reuse, whole key ranges deleted at times */
    for (int variant = 0; variant < 3; variant++) {
        BTIndex idx = bt_new_index(e,
                                   variant == 1   ? "t_model_desc_idx"
                                   : variant == 2 ? "t_model_del_idx"
                                                  : "t_model_idx",
                                   BTK_INT4);
        int range = variant == 1 ? 50 : 5000;

        if (variant == 2)
            idx->tm = tm;
        if (variant == 1) {
            idx->keys[0].desc = true;
            idx->keys[0].nulls_first = true;
            tdb_bt_index_finish(idx);
        }
        model_desc = variant == 1;
        tdb_bt_create_empty(idx);
        nextid = 0;
        memset(alive, 0, sizeof(bool) * (Size)maxn);
        for (int round = 0; round < 25; round++) {
            int nins = (int)(tdb_test_rand(&rng) % 4000) + 500;
            int nalive = 0;
            DeadSet ds = {model, 0, dead};

            /* inserts: random keys, some NULL, TIDs in random order */
            for (int i = 0; i < nins && nextid < maxn; i++) {
                int id = nextid++;
                Entry *en = &model[id];
                Datum v;
                bool nul;

                en->isnull = tdb_test_rand(&rng) % 40 == 0;
                en->key =
                    (int32)(tdb_test_rand(&rng) % (uint64)range) - range / 2;
                /* block = id keeps TIDs unique; the offset scrambles order
                 * against insertion order within a block's neighbours */
                en->tid = tid_of((BlockNumber)id,
                                 (OffsetNumber)(tdb_test_rand(&rng) % 200 + 1));
                v = Int32GetDatum(en->key);
                nul = en->isnull;
                tdb_bt_insert(idx, &v, &nul, &en->tid);
                alive[id] = true;
            }
            /* bulk delete a random fraction */
            memset(dead, 0, sizeof(bool) * (Size)maxn);
            {
                /* variant 2, every other round: a third of the key range
                 * too, which empties whole leaves */
                int32 lo =
                    (int32)(tdb_test_rand(&rng) % (uint64)range) - range / 2;
                bool ranged = variant == 2 && tdb_test_rand(&rng) % 2 == 0;

                for (int id = 0; id < nextid; id++)
                    if (alive[id] &&
                        (tdb_test_rand(&rng) % 5 == 0 ||
                         (ranged && !model[id].isnull && model[id].key >= lo &&
                          model[id].key < lo + range / 3))) {
                        dead[id] = true;
                        alive[id] = false;
                    }
            }
            tdb_bt_bulk_delete(idx, tid_in_dead_set, &ds, NULL);
            if (variant == 2) {
                BTVacuumStats st;

                tdb_bt_last_vacuum_stats(&st);
                ndeleted += st.pages_deleted;
                nfree += st.pages_free;
                consume_xid(tm); /* pages deleted now reusable next time */
            }
            for (int id = 0; id < nextid; id++)
                if (alive[id])
                    sorted[nalive++] = model[id];
            qsort(sorted, (Size)nalive, sizeof(Entry), entry_cmp);
            if (tdb_bt_check(idx) != nalive) {
                tdb_test_fail(__FILE__, __LINE__,
                              "seed %llu: check count differs",
                              (unsigned long long)seed);
                break;
            }
            {
                int32 arg =
                    (int32)(tdb_test_rand(&rng) % (uint64)range) - range / 2;

                if (!check_scans(idx, sorted, nalive, arg, seed))
                    break;
            }
        }
    }
    /* variant 2 did delete and reuse pages */
    expect_true(ndeleted > 0);
    expect_true(nfree > 0);
    tdb_xact_manager_close(tm);
    bt_env_finish(e);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "access_nbtree", TEST_CASE(test_empty_and_first_insert),
        TEST_CASE(test_ascending_multilevel), TEST_CASE(test_all_equal_keys),
        TEST_CASE(test_posting_list_split), TEST_CASE(test_scan_keeps_tuples),
        TEST_CASE(test_bulk_delete), TEST_CASE(test_lp_dead_removal),
        TEST_CASE(test_scan_keys_text_and_nulls), TEST_CASE(test_find_equal),
        TEST_CASE(test_insert_unique), TEST_CASE(test_loader),
        TEST_CASE(test_structure_check), TEST_CASE(test_corruption_bounds),
        TEST_CASE(test_finish_incomplete_split),
        TEST_CASE(test_scan_concurrent_with_splits),
        TEST_CASE(test_page_deletion_and_reuse),
        TEST_CASE(test_page_deletion_edge_cases), TEST_CASE(test_random_model));
}
