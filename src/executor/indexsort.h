/*
 * indexsort.h -- sorting a B-tree's entries for its bottom-up build
 * (indexsort.c; PostgreSQL's tuplesort_begin_index_btree): CREATE INDEX
 * and REINDEX put one entry per table row and get the index tuples back
 * in index order (key columns in the index's order, then heap TID), as
 * the loader (access/nbtree.h, tdb_bt_load_*) takes them.
 *
 *     IndexSort *s = tdb_index_sort_begin(bt, &cfg);
 *     tdb_index_sort_put(s, values, isnull, &tid);    ... every row
 *     tdb_index_sort_finish(s, emit, arg);            emit(arg, itup) ...
 *     tdb_index_sort_end(s);                 or delete the parent context
 *
 * Entries are sorted in memory up to work_mem; beyond it each full load
 * is sorted and written to a temporary file as a run, and the runs are
 * merged while the entries are emitted.  Errors: those of the comparators,
 * of tdb_bt_form_tuple (54000 for an entry too large) and of the
 * temporary file; everything, files included, belongs to a context under
 * cfg->parent, so an ERROR leaves nothing behind.
 */
#ifndef TDB_EXECUTOR_INDEXSORT_H
#define TDB_EXECUTOR_INDEXSORT_H

#include "common/base.h"
#include "access/nbtree.h"
#include "mmgr/mcxt.h"

typedef struct IndexSort IndexSort;

typedef struct IndexSortConfig {
    MemoryContext parent; /* the sort's memory and files go below */
    int work_mem_kb;      /* the limit (maintenance_work_mem); >= 64 used */
    const char *temp_dir; /* NULL: tdb_tempfile_default_dir() */
    void (*check_interrupts)(void *arg); /* may raise; NULL: none */
    void *check_interrupts_arg;
    BlockNumber heap_blocks; /* every TID put has a block below this
                              * (0: unknown) */
} IndexSortConfig;

/* A sort of bt's entries (bt borrowed: it must outlive the sort). */
IndexSort *tdb_index_sort_begin(const BTIndexData *bt,
                                const IndexSortConfig *cfg);

/* Add the entry of the row at tid: values / isnull are bt's columns
 * (varlena values plain, as tdb_bt_form_tuple wants them); copied.  Rows
 * come in heap TID order, as a heap scan gives them (internal error
 * otherwise, for an index the sort packs). */
void tdb_index_sort_put(IndexSort *s, const Datum *values, const bool *isnull,
                        const ItemPointerData *tid);

/* Entries put so far. */
int64 tdb_index_sort_count(const IndexSort *s);

/*
 * Sort, and call emit once per entry in index order with its index tuple
 * (t_tid the row's TID), which is valid only during the call.  emit may
 * raise.  Once only.
 */
typedef void (*IndexSortEmit)(void *arg, IndexTuple itup);
void tdb_index_sort_finish(IndexSort *s, IndexSortEmit emit, void *arg);

/* Free the sort's memory and files now. */
void tdb_index_sort_end(IndexSort *s);

#endif /* TDB_EXECUTOR_INDEXSORT_H */
