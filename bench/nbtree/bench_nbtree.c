/*
 * bench_nbtree.c -- B-tree access method benchmark (issue 22, first
 * increment): random int4 inserts, point lookups and the bottom-up
 * loader, through the access layer's API (access/nbtree.h) on a fresh
 * data directory with the default 128 MB buffer pool.
 *
 * A benchmark, never a pass/fail test: prints records, exits 0 (2 on a
 * usage error or wrong lookup results).  bench/nbtree/run.sh runs it.
 *
 *   bench_nbtree --dir DIR [--rows N] [--lookups M]
 *
 * Steps, each timed (wall clock, one thread):
 *   insert   N random int4 keys (xorshift64*, duplicates possible), heap
 *            TIDs in insertion order, tdb_bt_insert one at a time
 *   lookup   M lookups of keys that exist: tdb_bt_rescan + tdb_bt_getnext
 *            on one scan (what a parameterized index scan does)
 *   lookup1  the same M lookups, each a fresh scan (begin/next/end)
 *   build    N keys 0..N-1 in order through the loader into a second
 *            index (CREATE INDEX after its sort), then flushed
 * For callgrind the measured loops are the functions run_insert,
 * run_lookup, run_lookup_fresh and run_build (never inlined).
 *
 * Output: "result <step> <rows> <seconds> <per-second>".
 */
#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "access/nbtree.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "storage/bufmgr.h"
#include "storage/datadir.h"
#include "storage/smgr.h"

static double
now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64
xrand(uint64 *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static BTIndex
new_index(DataDir *dd, const char *name)
{
    BTIndex idx = tdb_palloc0(sizeof(BTIndexData));
    TupleDesc desc = tdb_tupdesc_create(1);
    RelFileNumber rel = tdb_datadir_alloc_relfilenumber(dd);
    SMgrRelation smgr = tdb_smgr_open(NULL, tdb_datadir_path(dd), rel);

    tdb_smgr_create(smgr, MAIN_FORKNUM, false);
    tdb_smgr_close(smgr);
    tdb_tupdesc_init_attr(desc, 0, "k", 23, -1, 4, true, 'i', 'p');
    tdb_tupdesc_finalize(desc);
    tdb_bt_index_init(idx, rel, name, desc);
    idx->keys[0].cmp = tdb_bt_cmp_int4;
    tdb_bt_index_finish(idx);
    return idx;
}

static TDB_NOINLINE __attribute__((noclone)) void
run_insert(BTIndex idx, const int32 *keys, int n)
{
    for (int i = 0; i < n; i++) {
        Datum v = Int32GetDatum(keys[i]);
        bool nul = false;
        ItemPointerData tid;

        ItemPointerSet(&tid, (BlockNumber)(i / 200),
                       (OffsetNumber)(i % 200 + 1));
        tdb_bt_insert(idx, &v, &nul, &tid);
    }
}

static TDB_NOINLINE __attribute__((noclone)) int64
run_lookup(BTIndex idx, const int32 *keys, int n, uint64 seed, int m)
{
    BTScanKeyData k = {1, BT_EQUAL, 0};
    BTScanDesc scan = tdb_bt_beginscan(idx, &k, 1, BT_FORWARD);
    int64 found = 0;

    for (int i = 0; i < m; i++) {
        ItemPointerData tid;

        k.argument = Int32GetDatum(keys[xrand(&seed) % (uint64)n]);
        tdb_bt_rescan(scan, &k, 1);
        while (tdb_bt_getnext(scan, &tid))
            found++;
    }
    tdb_bt_endscan(scan);
    return found;
}

static TDB_NOINLINE __attribute__((noclone)) int64
run_lookup_fresh(BTIndex idx, const int32 *keys, int n, uint64 seed, int m)
{
    int64 found = 0;

    for (int i = 0; i < m; i++) {
        BTScanKeyData k = {1, BT_EQUAL,
                           Int32GetDatum(keys[xrand(&seed) % (uint64)n])};
        BTScanDesc scan = tdb_bt_beginscan(idx, &k, 1, BT_FORWARD);
        ItemPointerData tid;

        while (tdb_bt_getnext(scan, &tid))
            found++;
        tdb_bt_endscan(scan);
    }
    return found;
}

static TDB_NOINLINE __attribute__((noclone)) void
run_build(BTIndex idx, int n)
{
    BTLoader ld = tdb_bt_load_begin(idx);

    for (int i = 0; i < n; i++) {
        Datum v = Int32GetDatum(i);
        bool nul = false;
        ItemPointerData tid;

        ItemPointerSet(&tid, (BlockNumber)(i / 200),
                       (OffsetNumber)(i % 200 + 1));
        tdb_bt_load_add(ld, &v, &nul, &tid);
    }
    tdb_bt_load_end(ld);
}

static void
report(const char *step, int64 rows, double secs)
{
    printf("result %s %lld %.3f %.0f\n", step, (long long)rows, secs,
           (double)rows / secs);
    fflush(stdout);
}

int
main(int argc, char **argv)
{
    const char *dir = NULL;
    int n = 1000000, m = 1000000;
    int32 *keys;
    uint64 seed = 42;
    DataDir *dd;
    BTIndex idx, built;
    double t0;
    int64 found, found1;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--lookups") == 0 && i + 1 < argc)
            m = atoi(argv[++i]);
        else {
            fprintf(stderr,
                    "usage: bench_nbtree --dir DIR [--rows N] [--lookups M]\n");
            return 2;
        }
    }
    if (dir == NULL || n <= 0) {
        fprintf(stderr,
                "usage: bench_nbtree --dir DIR [--rows N] [--lookups M]\n");
        return 2;
    }
    tdb_mcxt_thread_init();
    dd = tdb_datadir_create(NULL, dir);
    tdb_bufmgr_init(tdb_datadir_path(dd), TDB_DEFAULT_NBUFFERS, true);
    keys = tdb_palloc(sizeof(int32) * (Size)n);
    for (int i = 0; i < n; i++)
        keys[i] = (int32)(xrand(&seed) & 0x7FFFFFFF);

    idx = new_index(dd, "bench_rand_idx");
    tdb_bt_create_empty(idx);
    t0 = now();
    run_insert(idx, keys, n);
    report("insert", n, now() - t0);

    t0 = now();
    found = run_lookup(idx, keys, n, 7, m);
    report("lookup", m, now() - t0);
    t0 = now();
    found1 = run_lookup_fresh(idx, keys, n, 7, m);
    report("lookup1", m, now() - t0);
    if (found < m || found != found1) {
        fprintf(stderr, "lookups found %lld / %lld entries for %d keys\n",
                (long long)found, (long long)found1, m);
        return 2;
    }

    built = new_index(dd, "bench_build_idx");
    t0 = now();
    run_build(built, n);
    report("build", n, now() - t0);
    printf("info index_blocks %u %u\n",
           tdb_buf_relation_nblocks(idx->relfilenumber),
           tdb_buf_relation_nblocks(built->relfilenumber));
    tdb_bufmgr_shutdown();
    tdb_datadir_close(dd);
    return 0;
}
