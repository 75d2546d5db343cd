/*
 * indexam.h -- what the rest of tupledb asks of an index's contents: the
 * call sites where the index access method (the B-tree, access/nbtree.h)
 * plugs in.  The catalog owns an index's rows and its (empty) relation
 * file (catalog/pg_index.c); everything inside the file is the access
 * method's.
 *
 * Until the B-tree is built in, each entry point raises XX000 "index
 * storage is not available yet" (one place: indexam.c), so a statement
 * that would need an index's contents fails cleanly and leaves nothing
 * behind, instead of leaving an index that silently misses rows.
 *
 * Contracts (for the access method that fills them in):
 *   tdb_index_build_empty   write an empty index (the B-tree's metapage)
 *                           into index->ri_relfilenumber, which exists and
 *                           is empty (TRUNCATE's new file).
 *   tdb_index_build_begin / _add / _end
 *                           CREATE INDEX and REINDEX: the file exists and
 *                           is empty; the caller passes every row of the
 *                           table that belongs in the index (the partial
 *                           index's predicate already applied, expression
 *                           columns already computed, values detoasted),
 *                           in heap order, key then INCLUDE columns;
 *                           the method sorts them, raises 23505 (with
 *                           PostgreSQL's "could not create unique index"
 *                           message and DETAIL) for a duplicate in a
 *                           unique index, and writes the file.
 *   tdb_index_insert        one new heap tuple's entry (INSERT, UPDATE's
 *                           new version, COPY), values as for _add; for
 *                           a unique index, first the uniqueness check
 *                           against live entries (23505 "duplicate key
 *                           value violates unique constraint" + DETAIL
 *                           "Key (a)=(1) already exists."; NULLs are
 *                           distinct unless ri_nulls_not_distinct).
 * Every call holds the table's lock and the writer lock (the xid).
 */
#ifndef TDB_ACCESS_INDEXAM_H
#define TDB_ACCESS_INDEXAM_H

#include "common/base.h"
#include "access/relation.h"
#include "access/xact.h"
#include "tuple/itemptr.h"

/* An index build in progress (the access method's). */
typedef struct IndexBuildState IndexBuildState;

void tdb_index_build_empty(Relation heap, const RelationIndex *index);

IndexBuildState *tdb_index_build_begin(Transaction *xact, Relation heap,
                                       const RelationIndex *index);
void tdb_index_build_add(IndexBuildState *state, const Datum *values,
                         const bool *isnull, const ItemPointerData *htid);
void tdb_index_build_end(IndexBuildState *state);

void tdb_index_insert(Transaction *xact, Relation heap,
                      const RelationIndex *index, const Datum *values,
                      const bool *isnull, const ItemPointerData *htid);

#endif /* TDB_ACCESS_INDEXAM_H */
