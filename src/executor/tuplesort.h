/*
 * tuplesort.h -- sorting rows under a memory limit (tuplesort.c): the
 * engine of the Sort node, of aggregates with DISTINCT / ORDER BY, and of
 * merge join's inputs.
 *
 *     Tuplesort *ts = tdb_tuplesort_begin(desc, keys, nkeys, &cfg);
 *     tdb_tuplesort_set_bound(ts, 10);         optional: LIMIT 10
 *     tdb_tuplesort_put(ts, slot);             ... every row
 *     tdb_tuplesort_perform(ts);
 *     while ((slot = tdb_tuplesort_next(ts)) != NULL)
 *         ...
 *     tdb_tuplesort_end(ts);                   or delete the parent context
 *
 * Rows are kept as minimal tuples in a headerless (Bump) context and
 * sorted through an array of 16-byte entries holding the first key as an
 * order-preserving number (sortkey.h).  While the rows fit in work_mem
 * they are sorted in memory ("quicksort" in EXPLAIN, a radix sort when
 * the key allows); with a bound (ORDER BY ... LIMIT n) and more than 2n
 * rows only the n first are kept in a heap ("top-N heapsort", never on
 * disk); otherwise each full memory load is sorted and written to a
 * temporary file as a run, and the runs are merged ("external merge"),
 * in as many passes as the merge order (the runs one pass can read at
 * once within work_mem) requires -- the last one while the caller reads.
 * Temporary files belong to the configuration's memory context: deleting
 * it (end of statement, ERROR, cancel) removes them.
 *
 * Memory: rows, the entry array and the run files' write buffers are
 * counted against work_mem exactly (a row as its MAXALIGNed size, the
 * array as its allocated size); a merge gives its readers what work_mem
 * leaves of the memory the sort holds.  The memory actually allocated
 * exceeds work_mem by at most TUPLESORT_SLACK(work_mem): one block of
 * the row context (work_mem / 16, between 8 kB and TUPLESORT_MAX_BLOCK)
 * and 40 kB of fixed state (first blocks of its contexts, the merge's
 * bookkeeping) -- plus, while merging, one row per input.
 */
#ifndef TDB_EXECUTOR_TUPLESORT_H
#define TDB_EXECUTOR_TUPLESORT_H

#include "common/base.h"
#include "nodes/plannodes.h"
#include "tuple/slot.h"

typedef struct Tuplesort Tuplesort;

/* Largest block of the row context. */
#define TUPLESORT_MAX_BLOCK ((Size)1024 * 1024)
/* The most memory a sort allocates beyond work_mem (see above). */
#define TUPLESORT_SLACK(work_mem_bytes)                                     \
    (Min(TUPLESORT_MAX_BLOCK, Max((Size)8192, (work_mem_bytes) / 16)) +     \
     (Size)40 * 1024)

typedef struct TuplesortConfig {
    MemoryContext parent;   /* the sort's memory (and files) go below */
    int work_mem_kb;        /* the limit; at least 64 is used */
    const char *temp_dir;   /* directory for runs (storage/tempfile.h);
                             * NULL: tdb_tempfile_default_dir() */
    bool trace;             /* trace_sort: LOG lines per run */
    /* called now and then while merging (cancel, statement_timeout);
     * may raise */
    void (*check_interrupts)(void *arg);
    void *check_interrupts_arg;
} TuplesortConfig;

/* What EXPLAIN ANALYZE prints: "Sort Method: <method>  <Memory|Disk>: NkB" */
typedef struct TuplesortStats {
    const char *method; /* "quicksort", "top-N heapsort", "external sort",
                         * "external merge", "still in progress" */
    bool on_disk;       /* space is Disk (else Memory) */
    int64 space_kb;     /* the most used at once */
} TuplesortStats;

/* A sort of rows shaped like desc by keys (columns of desc). */
Tuplesort *tdb_tuplesort_begin(TupleDesc desc, const SortKey *keys, int nkeys,
                               const TuplesortConfig *cfg);

/* Only the first bound rows will be read (call before the first put). */
void tdb_tuplesort_set_bound(Tuplesort *ts, int64 bound);

/* Copy a row in. */
void tdb_tuplesort_put(Tuplesort *ts, TupleTableSlot *row);

/*
 * With a bound: would a row whose first key is this be dropped at once
 * (the top-N heap is full and holds better rows)?  Then it counts as put
 * and true is returned; else the caller puts the row.  Lets a caller
 * that reads the key cheaply skip building most rows.
 */
bool tdb_tuplesort_skips(Tuplesort *ts, Datum first_key, bool isnull);

/* Sort what was put; reading starts at the first row. */
void tdb_tuplesort_perform(Tuplesort *ts);

/* The next row in order (a slot owned by the sort, valid until the next
 * call), or NULL at the end. */
TupleTableSlot *tdb_tuplesort_next(Tuplesort *ts);

/*
 * Remember the position after the row returned last / go back to it.  A
 * sort being merged while read writes the rest of its output to one
 * file at the first mark (the rows before the mark are not needed again).
 */
void tdb_tuplesort_mark(Tuplesort *ts);
void tdb_tuplesort_restore(Tuplesort *ts);

/* Read again from the first row (sorted in memory or on one file; a sort
 * merged on the fly cannot: returns false, the caller sorts again). */
bool tdb_tuplesort_rewind(Tuplesort *ts);

/* Forget every row, keep the configuration (a new sort of the same
 * shape). */
void tdb_tuplesort_reset(Tuplesort *ts);

/* Rows put so far. */
int64 tdb_tuplesort_count(const Tuplesort *ts);

void tdb_tuplesort_stats(const Tuplesort *ts, TuplesortStats *stats);

/* Free everything now, files included. */
void tdb_tuplesort_end(Tuplesort *ts);

/* Compare two values as key orders them (NULLs placed per the key). */
int tdb_sort_compare_datums(const SortKey *key, Datum a, bool a_null, Datum b,
                            bool b_null);

/* EXPLAIN ANALYZE: the stats of a Sort node's sort. */
struct PlanState;
void tdb_exec_sort_stats(struct PlanState *node, TuplesortStats *stats);

#endif /* TDB_EXECUTOR_TUPLESORT_H */
