/*
 * bench_sort.c -- the in-memory sort of SortEntry items
 * (executor/sortkey.c) on its own: N entries (default 5,000,000) sorted
 * by tdb_sort_entries_by_key (the radix sort), by
 * tdb_sort_entries_by_cmp (the introsort, given a key comparison through
 * its callback) and by glibc's qsort_r with the same comparison, for four
 * key distributions:
 *
 *   int       int8 values 1..N scrambled, normalized (sign bit flipped):
 *             the ORDER BY over a shuffled integer column
 *   random    uniformly random 64-bit keys
 *   text      the first 8 bytes of md5-like hex strings, big-endian, as
 *             the text normalizer makes them (16 possible bytes each)
 *   dups      100 distinct values
 *
 * Every run sorts a fresh copy of the same data; each figure is the best
 * of REPEAT runs (default 3), in milliseconds.  The results are checked
 * (sorted, same multiset by a sum of keys and refs) and exit status 2
 * reports a disagreement.
 *
 * Usage: bench_sort [N [REPEAT [radix]]]   ("radix": time only the radix
 * sort, to tune RADIX_MIN_ENTRIES)
 * Not a test: never run by make check (make bench-sortkey runs it).
 */
#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "executor/sortkey.h"

static int
entry_cmp_cb(const SortEntry *a, const SortEntry *b, void *arg)
{
    (void)arg;
    return a->key < b->key ? -1 : a->key > b->key ? 1 : 0;
}

static int
qsort_cmp(const void *a, const void *b, void *arg)
{
    return entry_cmp_cb(a, b, arg);
}

typedef enum Method { M_RADIX, M_INTRO, M_QSORT, NMETHODS } Method;

static void
fill(SortEntry *e, size_t n, const char *dist)
{
    uint64 seed = 42;

    for (size_t i = 0; i < n; i++) {
        uint64 r = tdb_bench_splitmix64(&seed);

        e[i].ref = (uintptr_t)i << 3;
        if (strcmp(dist, "int") == 0)
            e[i].key = (uint64)(int64)(i + 1) ^ (UINT64_C(1) << 63);
        else if (strcmp(dist, "random") == 0)
            e[i].key = r;
        else if (strcmp(dist, "text") == 0) {
            static const char hex[] = "0123456789abcdef";
            uint64 k = 0;

            for (int b = 0; b < 8; b++)
                k = (k << 8) | (uint8)hex[(r >> (4 * b)) & 15];
            e[i].key = k;
        } else
            e[i].key = r % 100;
    }
    if (strcmp(dist, "int") == 0) {
        /* Fisher-Yates: 1..N scrambled */
        for (size_t i = n; i > 1; i--) {
            size_t j = tdb_bench_splitmix64(&seed) % i;
            uint64 t = e[i - 1].key;

            e[i - 1].key = e[j].key;
            e[j].key = t;
        }
    }
}

static void
check(const SortEntry *e, size_t n, uint64 want_sum)
{
    uint64 sum = 0;

    for (size_t i = 0; i < n; i++) {
        sum += e[i].key * 31 + e[i].ref;
        if (i > 0 && e[i - 1].key > e[i].key)
            tdb_bench_die("not sorted at %zu", i);
    }
    if (sum != want_sum)
        tdb_bench_die("entries lost or changed");
}

int
main(int argc, char **argv)
{
    static const char *const dists[] = {"int", "random", "text", "dups"};
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 5000000;
    int repeat = argc > 2 ? atoi(argv[2]) : 3;
    int nmethods = argc > 3 && strcmp(argv[3], "radix") == 0 ? 1 : NMETHODS;
    SortEntry *data = malloc(sizeof(SortEntry) * n);
    SortEntry *work = malloc(sizeof(SortEntry) * n);

    if (data == NULL || work == NULL)
        tdb_bench_die("out of memory");
    printf("%zu entries, best of %d, ms\n", n, repeat);
    printf("%-8s %10s %10s %10s %8s\n", "keys", "radix", "introsort", "qsort_r",
           "speedup");
    for (size_t d = 0; d < lengthof(dists); d++) {
        double best[NMETHODS];
        uint64 want_sum = 0;

        fill(data, n, dists[d]);
        for (size_t i = 0; i < n; i++)
            want_sum += data[i].key * 31 + data[i].ref;
        for (int m = 0; m < NMETHODS; m++)
            best[m] = 0;
        for (int m = 0; m < nmethods; m++) {
            best[m] = 1e300;
            for (int r = 0; r < repeat; r++) {
                uint64 start;
                double ms;

                memcpy(work, data, sizeof(SortEntry) * n);
                start = tdb_bench_now_ns();
                switch ((Method)m) {
                case M_RADIX:
                    tdb_sort_entries_by_key(work, n, NULL, NULL);
                    break;
                case M_INTRO:
                    tdb_sort_entries_by_cmp(work, n, entry_cmp_cb, NULL);
                    break;
                default:
                    qsort_r(work, n, sizeof(SortEntry), qsort_cmp, NULL);
                    break;
                }
                ms = (double)(tdb_bench_now_ns() - start) / 1e6;
                tdb_bench_escape(work);
                check(work, n, want_sum);
                if (ms < best[m])
                    best[m] = ms;
            }
        }
        printf("%-8s %10.1f %10.1f %10.1f %7.1fx\n", dists[d], best[M_RADIX],
               best[M_INTRO], best[M_QSORT], best[M_QSORT] / best[M_RADIX]);
    }
    free(data);
    free(work);
    return 0;
}
