/*
 * indexam.h -- what the catalog asks of an index's contents.  The
 * catalog owns an index's rows and its relation file
 * (catalog/pg_index.c); everything inside the file is the access
 * method's, the B-tree (access/nbtree.h).
 *
 * Writing entries needs the key types' comparators, which only the
 * layers that see types/ can choose: the executor does (executor/
 * execindex.h: the entries of new rows, the unique checks, the build of
 * CREATE INDEX and REINDEX, VACUUM's bulk delete).  What needs no
 * comparator is here:
 *
 *   tdb_index_build_empty   write an empty index (the B-tree's metapage)
 *                           into index->ri_relfilenumber, which exists and
 *                           is empty (TRUNCATE's new file).  The caller
 *                           holds the table's lock and the writer lock.
 *   tdb_index_bulk_delete   remove every entry whose heap TID is_dead
 *                           says is dead (VACUUM, before it frees those
 *                           line pointers); returns how many went.  Leaf
 *                           pages left empty are deleted, and deleted
 *                           pages no scan can reach any more (tm's
 *                           horizon) recorded for reuse.
 *   tdb_index_vacuum_cleanup  VACUUM found nothing to remove: visit the
 *                           index anyway if its metapage counts enough
 *                           deleted pages not yet recorded for reuse
 *                           (PostgreSQL's btvacuumcleanup).
 */
#ifndef TDB_ACCESS_INDEXAM_H
#define TDB_ACCESS_INDEXAM_H

#include "common/base.h"
#include "access/nbtree.h"
#include "access/relation.h"
#include "access/xact.h"

void tdb_index_build_empty(Relation heap, const RelationIndex *index);
int64 tdb_index_bulk_delete(Relation heap, const RelationIndex *index,
                            BTDeadCallback is_dead, void *arg,
                            TransactionManager *tm);
void tdb_index_vacuum_cleanup(Relation heap, const RelationIndex *index,
                              TransactionManager *tm);

#endif /* TDB_ACCESS_INDEXAM_H */
