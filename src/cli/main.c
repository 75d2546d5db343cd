/*
 * main.c -- the `tupledb` program.
 *
 *   tupledb [DATADIR]
 *
 * The SQL shell arrives with the SQL engine.  Until then the program opens
 * (creating if needed) the data directory -- version file, control file,
 * the lock that keeps a second process out -- and runs a short demonstration
 * of the memory-context layer the rest of tupledb stands on: it builds a
 * small context tree the way the executor will (per-query, per-row,
 * Generation for sort tuples, Slab for fixed-size nodes, Bump for hash
 * groups), runs a per-row workload and prints the tree's statistics in
 * PostgreSQL's MemoryContextStats format.
 */
#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "storage/datadir.h"

#define TUPLEDB_VERSION "0.1.0-dev"

static double
elapsed_ns(const struct timespec *start, const struct timespec *end)
{
    return (double)(end->tv_sec - start->tv_sec) * 1e9 +
           (double)(end->tv_nsec - start->tv_nsec);
}

/* Allocate 10-50 small chunks per "row", reset the row context; repeat. */
static void
run_per_row_demo(MemoryContext per_query, long nrows)
{
    MemoryContext per_row =
        tdb_aset_create(per_query, "ExprContext", ALLOCSET_DEFAULT_SIZES);
    struct timespec start, end;
    uint64 state = 88172645463325252ULL;
    long nallocs = 0;

    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long row = 0; row < nrows; row++) {
        int n;

        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        n = 10 + (int)(state % 41);
        for (int i = 0; i < n; i++) {
            char *p = tdb_mcxt_alloc(per_row, 8 + (Size)((state >> i) & 127));

            p[0] = (char)i;
        }
        nallocs += n;
        tdb_mcxt_reset(per_row);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    printf("per-row workload: %ld rows, %ld allocations, %.1f ns per "
           "allocation (reset included)\n",
           nrows, nallocs, elapsed_ns(&start, &end) / (double)nallocs);
}

static void
run_demo(void)
{
    MemoryContext per_query = tdb_aset_create(tdb_top_mcxt, "ExecutorState",
                                              ALLOCSET_DEFAULT_SIZES);
    MemoryContext sort = tdb_generation_create(
        per_query, "Caller tuples", 0, 8192, 8 * 1024 * 1024);
    MemoryContext nodes =
        tdb_slab_create(per_query, "Plan nodes", SLAB_DEFAULT_BLOCK_SIZE, 96);
    MemoryContext groups = tdb_bump_create(per_query, "HashAgg table", 0,
                                           8192, 8 * 1024 * 1024);

    for (int i = 0; i < 10000; i++) {
        tdb_mcxt_alloc(sort, 100 + (Size)(i % 64));
        tdb_mcxt_alloc(groups, 24);
    }
    for (int i = 0; i < 100; i++)
        tdb_mcxt_alloc(nodes, 96);

    run_per_row_demo(per_query, 1000000);
    printf("\nmemory context statistics:\n");
    tdb_mcxt_stats_print(tdb_top_mcxt, stdout, 100);
    tdb_mcxt_delete(per_query);
}

int
main(int argc, char **argv)
{
    const char *datadir = argc > 1 ? argv[1] : "./tdbdata";

    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("tupledb %s\n", TUPLEDB_VERSION);
        return 0;
    }
    tdb_mcxt_thread_init();

    TDB_TRY();
    {
        DataDir *dd = tdb_datadir_open_or_create(tdb_top_mcxt, datadir);

        printf("tupledb %s -- data directory \"%s\" (%s)\n", TUPLEDB_VERSION,
               tdb_datadir_path(dd),
               tdb_datadir_was_shut_down_cleanly(dd) ? "shut down cleanly"
                                                     : "not shut down cleanly");
        printf("The SQL shell is not built yet; running the memory-context "
               "demo.\n\n");
        run_demo();
        tdb_datadir_close(dd);
    }
    TDB_CATCH();
    {
        const ErrorData *e = tdb_error_current();

        fprintf(stderr, "ERROR:  %s\n", e->message);
        tdb_error_flush();
        tdb_mcxt_thread_done();
        return 1;
    }
    TDB_END_TRY();
    tdb_mcxt_thread_done();
    return 0;
}
