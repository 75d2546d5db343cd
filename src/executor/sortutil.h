/*
 * sortutil.h -- sorting rows in memory (exec_sort.c): the Sort node's
 * engine, also used by aggregates with DISTINCT or ORDER BY.
 */
#ifndef TDB_EXECUTOR_SORTUTIL_H
#define TDB_EXECUTOR_SORTUTIL_H

#include "common/base.h"
#include "executor/plannodes.h"
#include "tuple/slot.h"

typedef struct RowSorter RowSorter;

/* A sorter of rows shaped like desc by keys (columns of desc), with its
 * memory in a new child of parent. */
RowSorter *tdb_sorter_create(TupleDesc desc, const SortKey *keys, int nkeys,
                             MemoryContext parent);
/* Copy a row in. */
void tdb_sorter_put(RowSorter *rs, TupleTableSlot *row);
/* Sort what was put; reading starts at the first row. */
void tdb_sorter_sort(RowSorter *rs);
/* The next row in order (a slot owned by the sorter), or NULL. */
TupleTableSlot *tdb_sorter_next(RowSorter *rs);
void tdb_sorter_rewind(RowSorter *rs);
int64 tdb_sorter_count(const RowSorter *rs);
Size tdb_sorter_memory(const RowSorter *rs);
/* Forget every row. */
void tdb_sorter_reset(RowSorter *rs);

/* Compare two values as key orders them (NULLs placed per the key). */
int tdb_sort_compare_datums(const SortKey *key, Datum a, bool a_null, Datum b,
                            bool b_null);

/* EXPLAIN ANALYZE: a Sort node's memory in kB. */
struct PlanState;
int64 tdb_exec_sort_memory_kb(struct PlanState *node);

#endif /* TDB_EXECUTOR_SORTUTIL_H */
