/*
 * indexam.c -- the index access method's call sites (indexam.h).
 *
 * Until the B-tree (access/nbtree.h) is built in, none of them can do
 * its job, and each says so through index_storage_unavailable: the one
 * place the error is raised, to be replaced by calls into the B-tree.
 */
#include "common/base.h"

#include "access/indexam.h"
#include "common/elog.h"

static TDB_NORETURN void
index_storage_unavailable(const RelationIndex *index)
{
    ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR),
            errmsg("index storage is not available yet"),
            errdetail("The contents of index \"%s\" cannot be written.",
                      index->ri_name));
}

void
tdb_index_build_empty(Relation heap, const RelationIndex *index)
{
    (void)heap;
    index_storage_unavailable(index);
}

IndexBuildState *
tdb_index_build_begin(Transaction *xact, Relation heap,
                      const RelationIndex *index)
{
    (void)xact;
    (void)heap;
    index_storage_unavailable(index);
}

void
tdb_index_build_add(IndexBuildState *state, const Datum *values,
                    const bool *isnull, const ItemPointerData *htid)
{
    (void)state;
    (void)values;
    (void)isnull;
    (void)htid;
    elog(ERROR, "index build state without an index access method");
}

void
tdb_index_build_end(IndexBuildState *state)
{
    (void)state;
    elog(ERROR, "index build state without an index access method");
}

void
tdb_index_insert(Transaction *xact, Relation heap, const RelationIndex *index,
                 const Datum *values, const bool *isnull,
                 const ItemPointerData *htid)
{
    (void)xact;
    (void)heap;
    (void)values;
    (void)isnull;
    (void)htid;
    index_storage_unavailable(index);
}
