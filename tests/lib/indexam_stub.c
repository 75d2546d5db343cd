/*
 * indexam_stub.c -- an index access method that stores nothing, for
 * testing the catalog side of indexes (pg_index, pg_constraint, \d,
 * pg_get_indexdef, ...) before the B-tree is built in.
 *
 * It defines every entry point of access/indexam.h as a no-op.  Linked
 * ahead of libtupledb.a (build/<flavour>/tupledb-idxstub, and test
 * binaries that list it), it keeps the archive's indexam.o, which
 * raises "index storage is not available yet", out of the program: so
 * CREATE INDEX and PRIMARY KEY / UNIQUE succeed and leave their catalog
 * rows, with empty index files and no uniqueness checks.  Never part of
 * the library or the shipped program.
 *
 * TODO(issue 22): remove once the B-tree fills access/indexam.h; the
 * tests that use it then run on the real program.
 */
#include "common/base.h"

#include "access/indexam.h"

void
tdb_index_build_empty(Relation heap, const RelationIndex *index)
{
    (void)heap;
    (void)index;
}

IndexBuildState *
tdb_index_build_begin(Transaction *xact, Relation heap,
                      const RelationIndex *index)
{
    (void)xact;
    (void)heap;
    (void)index;
    return NULL;
}

void
tdb_index_build_add(IndexBuildState *state, const Datum *values,
                    const bool *isnull, const ItemPointerData *htid)
{
    (void)state;
    (void)values;
    (void)isnull;
    (void)htid;
}

void
tdb_index_build_end(IndexBuildState *state)
{
    (void)state;
}

void
tdb_index_insert(Transaction *xact, Relation heap, const RelationIndex *index,
                 const Datum *values, const bool *isnull,
                 const ItemPointerData *htid)
{
    (void)xact;
    (void)heap;
    (void)index;
    (void)values;
    (void)isnull;
    (void)htid;
}
