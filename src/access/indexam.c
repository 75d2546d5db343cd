/*
 * indexam.c -- the catalog's and VACUUM's calls into the index access
 * method (indexam.h): neither compares keys, so the B-tree needs no
 * comparators for them.
 */
#include "common/base.h"

#include <string.h>

#include "access/indexam.h"
#include "access/nbtree.h"
#include "mmgr/mcxt.h"

/* index as a B-tree description fit for work that compares no keys:
 * any one-column descriptor will do (freed by the caller). */
static TupleDesc
keyless_index(BTIndexData *bt, Relation heap, const RelationIndex *index)
{
    TupleDesc none = tdb_tupdesc_create(1);

    tdb_tupdesc_init_attr(none, 0, "key", InvalidOid, -1, 4, true, 'i', 'p');
    tdb_tupdesc_finalize(none);
    tdb_bt_index_init(bt, index->ri_relfilenumber, index->ri_name, none);
    memcpy(bt->heap_name, heap->rd_name, NAMEDATALEN);
    return none;
}

void
tdb_index_build_empty(Relation heap, const RelationIndex *index)
{
    BTIndexData bt;
    TupleDesc desc = keyless_index(&bt, heap, index);

    /* the metapage says whether deduplication is safe: what the key
     * columns' operator classes say, as CREATE INDEX wrote it */
    bt.allequalimage = index->ri_allequalimage;
    tdb_bt_create_empty(&bt);
    tdb_pfree(desc);
}

int64
tdb_index_bulk_delete(Relation heap, const RelationIndex *index,
                      BTDeadCallback is_dead, void *arg, TransactionManager *tm)
{
    BTIndexData bt;
    TupleDesc desc = keyless_index(&bt, heap, index);
    int64 removed;

    bt.tm = tm;
    removed = tdb_bt_bulk_delete(&bt, is_dead, arg, NULL);
    tdb_pfree(desc);
    return removed;
}

void
tdb_index_vacuum_cleanup(Relation heap, const RelationIndex *index,
                         TransactionManager *tm)
{
    BTIndexData bt;
    TupleDesc desc = keyless_index(&bt, heap, index);

    bt.tm = tm;
    if (tdb_bt_vacuum_needs_cleanup(&bt))
        (void)tdb_bt_bulk_delete(&bt, NULL, NULL, NULL);
    tdb_pfree(desc);
}
