/*
 * execindex.h -- a table's indexes as writes maintain them (PostgreSQL's
 * execIndexing.c and the build half of index.c): each index opened for
 * use -- the B-tree's description (access/nbtree.h) with its key types'
 * comparators, chosen here because the access layer cannot see types/ --
 * the entry computed from a table row (expression columns, the partial
 * index's predicate), the unique check, and the bottom-up build.
 *
 * Opening is cheap (no catalog access: the relation's rd_indexes and the
 * expressions the caller analyzed), done once per statement.
 *
 * The expressions: for every index of rel in rd_indexes order, its
 * expression columns (in column order), then its predicate if it has
 * one, all as one flat List of Expr whose Vars read the table row
 * (SCAN_VAR) -- what the parser's tdb_analyze_index_exprs gives, after
 * the caller's Var fix-up; keycols the matching "a, lower(email)" column
 * lists for the 23505 DETAIL, one const char * per index.
 */
#ifndef TDB_EXECUTOR_EXECINDEX_H
#define TDB_EXECUTOR_EXECINDEX_H

#include "common/base.h"
#include "access/nbtree.h"
#include "access/relation.h"
#include "executor/executor.h"
#include "executor/expr.h"
#include "nodes/nodes.h"

/* One index of the table, open for writing. */
typedef struct IndexWriter {
    const RelationIndex *ri;
    BTIndexData bt;      /* relation file, tuple descriptor, comparators */
    ExprState **exprs;   /* the expression columns' programs, in order */
    ExprState *pred;     /* the partial index's predicate, or NULL */
    const char *keycols; /* "a, lower(email)": the 23505 DETAIL's */
} IndexWriter;

/* Every index of a table (rd_indexes order). */
typedef struct IndexWriters {
    Relation rel;
    int n;
    IndexWriter *w;
    Datum values[INDEX_MAX_KEYS]; /* scratch: one entry */
    bool isnull[INDEX_MAX_KEYS];
} IndexWriters;

/*
 * Open rel's indexes (NULL when it has none) in the current memory
 * context, with the expressions described above compiled for estate.
 */
IndexWriters *tdb_exec_open_indexes(EState *estate, Relation rel, List *exprs,
                                    List *keycols);

/*
 * Fill bt's key comparators (pg_opclass support 1 of each key column's
 * type: tdb_bt_cmp_int4 / _int8 / _text_c where they apply, else the
 * type's cmp through fmgr) and flags from ri's options, then
 * tdb_bt_index_finish.  bt->tupdesc must be set.  Exposed for tests.
 */
void tdb_exec_index_comparators(BTIndexData *bt, const RelationIndex *ri);

/*
 * Open index ri of rel for a scan into *bt (PostgreSQL's index_open for
 * reading): its tuple descriptor -- exprs are its expression columns, in
 * order, whose types it takes -- and comparators.  Allocates in the
 * current memory context.
 */
void tdb_exec_index_open_scan(BTIndexData *bt, Relation rel,
                              const RelationIndex *ri, List *exprs);

/* The height of index ri above its leaves (tdb_bt_tree_height), for the
 * planner's cost of a descent.  Reads the metapage. */
int tdb_exec_index_tree_height(const RelationIndex *ri);

/*
 * The entries of the new heap row at tid (row: the table-shaped slot,
 * all columns deformed) in every index whose predicate holds, after the
 * unique checks: 23505 "duplicate key value violates unique constraint"
 * when a live row (committed, or this transaction's) has an equal key.
 * Caller holds the writer lock; econtext's per-row memory takes the
 * temporary values.
 */
void tdb_exec_insert_index_entries(IndexWriters *iw, EState *estate,
                                   ExprContext *econtext, TupleTableSlot *row,
                                   const ItemPointerData *tid);

/*
 * INSERT ... ON CONFLICT's check (PostgreSQL's ExecCheckIndexConstraints):
 * does a live row -- committed, or this transaction's own, this very
 * command's included -- hold the key the new row (the table-shaped slot
 * row, all columns deformed) would take in an arbiter index?  arbiters
 * flags iw's indexes (NULL: every unique index); an index whose
 * predicate the row fails cannot conflict.  Returns true with the first
 * such row's TID in *conflict.  Temporary values in econtext's per-row
 * memory; caller holds the writer lock.
 *
 * With one writer at a time nothing can change between this check and
 * the insert that follows.  The concurrent writers of a later issue need
 * PostgreSQL's speculative insertion instead: a row of a transaction
 * still in progress found here is waited for and the check repeated
 * (tdb_heap_tuple_satisfies_dirty reports such rows; see there), and the
 * insert is made speculative -- the arbiters' entries inserted with a
 * check that reports instead of raising, the new row killed and the
 * check started again when one finds a conflict after all
 * (exec_modifytable.c, insert_on_conflict).
 */
bool tdb_exec_find_arbiter_conflict(IndexWriters *iw, const bool *arbiters,
                                    EState *estate, ExprContext *econtext,
                                    TupleTableSlot *row,
                                    ItemPointerData *conflict);

/*
 * CREATE INDEX / REINDEX of index which (into its empty file): scan the
 * table for every row some snapshot may still see -- not only those of
 * estate's snapshot (a fresh one, taken by a writer that holds the table
 * exclusively) but also rows deleted by transactions an older snapshot
 * still counts as running, as PostgreSQL's build does, since that
 * snapshot may read through the new index (tdb_heap_beginscan_nondead)
 * -- compute each row's entry, sort (key columns in the index order,
 * then heap TID) in estate->work_mem (the caller sets
 * maintenance_work_mem), and feed the loader.  A unique index with two
 * equal keys among the rows estate's snapshot sees fails with 23505
 * "could not create unique index".  An empty table gets the empty
 * index.
 */
void tdb_exec_build_index(IndexWriters *iw, int which, EState *estate);

#endif /* TDB_EXECUTOR_EXECINDEX_H */
