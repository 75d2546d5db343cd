/*
 * bench_tuplehash.c -- micro-benchmark of the compact tuple hash table
 * (executor/tuplehash.c, issue 8) on its own: N lookup-or-inserts of int4
 * keys drawn at random from D distinct values, each adding to a per-group
 * transition state, as HashAggregate's `SELECT i, sum(j) ... GROUP BY i`
 * would.  Reports time per row and the table's memory per group (buckets
 * + arena, exactly what its memory contexts hold), for an 8-byte state
 * (a bare int8 sum) and a 16-byte one (PostgreSQL's AggStatePerGroupData:
 * Datum + two bools, what its figures include).
 *
 * Usage: bench_tuplehash [ROWS [DISTINCT]]   (default 10000000 1000000)
 * Not a test: never run by make check.
 */
#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "executor/tuplehash.h"
#include "types/hashfn.h"

static void
run(uint64 nrows, uint64 ndistinct, Size state_size)
{
    static const TupleHashKeyColumn col = {
        .typlen = 4, .typbyval = true, .typalign = 4, .not_null = true};
    MemoryContext cxt =
        tdb_aset_create(tdb_top_mcxt, "bench", ALLOCSET_DEFAULT_SIZES);
    TupleHashTable *t = tdb_tuplehash_create(&col, 1, state_size, 0, cxt);
    uint64 rng = 0x9E3779B97F4A7C15ULL, start, elapsed, check = 0;
    TupleHashIterator it;
    int64 *st;

    start = tdb_bench_now_ns();
    for (uint64 i = 0; i < nrows; i++) {
        uint32 key = ndistinct >= nrows
                         ? (uint32)i /* every row a new group */
                         : (uint32)(tdb_bench_xorshift64(&rng) % ndistinct);
        Datum v = Int32GetDatum((int32)key);
        bool is_new;

        st = tdb_tuplehash_lookup_or_insert(t, &v, NULL, tdb_murmurhash32(key),
                                            &is_new);
        st[0] += (int64)(i & 7);
    }
    elapsed = tdb_bench_now_ns() - start;

    tdb_tuplehash_iter_start(t, &it);
    while ((st = tdb_tuplehash_iter_next(t, &it)) != NULL)
        check += (uint64)st[0];
    printf(
        "rows %10llu  groups %9llu  state %2zu B:  %6.1f ns/row  "
        "%5.1f B/group (buckets %4.1f, groups %4.1f)  %7.1f MiB  "
        "[checksum %llu]\n",
        (unsigned long long)nrows, (unsigned long long)tdb_tuplehash_ngroups(t),
        state_size, (double)elapsed / (double)nrows,
        (double)tdb_tuplehash_mem_allocated(t) /
            (double)tdb_tuplehash_ngroups(t),
        (double)tdb_tuplehash_nbuckets(t) * 8 /
            (double)tdb_tuplehash_ngroups(t),
        (double)tdb_tuplehash_group_bytes(t) / (double)tdb_tuplehash_ngroups(t),
        (double)tdb_tuplehash_mem_allocated(t) / (1024.0 * 1024.0),
        (unsigned long long)check);
    tdb_mcxt_delete(cxt);
}

int
main(int argc, char **argv)
{
    uint64 nrows = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
    uint64 ndistinct = argc > 2 ? strtoull(argv[2], NULL, 10) : 1000000;

    if (nrows == 0 || ndistinct == 0 || ndistinct > 0x7fffffff)
        tdb_bench_die("usage: bench_tuplehash [ROWS [DISTINCT]]");
    tdb_mcxt_thread_init();
    run(nrows, ndistinct, 8);
    run(nrows, ndistinct, 16);
    return 0;
}
