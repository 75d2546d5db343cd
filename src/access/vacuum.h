/*
 * vacuum.h -- lazy VACUUM of a heap relation: remove the row versions no
 * snapshot can see any more and make their space reusable.
 *
 * For each page of the relation, under the page's cleanup lock (the
 * exclusive content lock while no other thread holds a pin, bufmgr.h):
 *   - every row version is classified with
 *     tdb_heap_tuple_satisfies_vacuum against the horizon
 *     (tdb_xact_manager_oldest_xmin, taken once at the start);
 *   - DEAD ones -- inserted by an aborted or crashed transaction, or
 *     deleted / updated by a committed transaction whose xid precedes the
 *     horizon -- get LP_UNUSED line pointers (there are no indexes, so
 *     PostgreSQL's LP_DEAD stage is not needed), and the page is
 *     compacted (tdb_page_compact) so its free space is one hole again;
 *     trailing unused line pointers are cut off;
 *   - the page's pd_prune_xid becomes the oldest xmax of the deleted row
 *     versions that had to stay;
 *   - the page's free space goes to the free space record (freespace.h),
 *     where inserts find it, marked empty if no line pointer is in use
 *     (the TOAST chunk store reuses runs of such pages).
 * A page some other thread has pinned is skipped, as PostgreSQL's lazy
 * VACUUM skips pages whose cleanup lock it cannot get at once: a scan or
 * a slot may hold pointers into it.  Its dead rows wait for the next
 * VACUUM.
 *
 * Row versions keep their line pointer numbers, so a TID of a row that
 * stays is never invalidated; a removed row's TID may be reused by a
 * later insert -- only after every snapshot that could see the row is
 * gone, so nobody can hold it and still expect the old row.
 *
 * Concurrency: VACUUM writes no rows and needs no xid, hence not the
 * writer lock: the single writer keeps inserting, updating and deleting
 * meanwhile.  Both change a page only under its exclusive content lock,
 * so they take turns page by page; a row the writer touches is visible
 * to the writer's snapshot (or is its own), so it is never DEAD.  The
 * caller holds REL_LOCK_SHARE on the relation (its file stays in
 * place).
 *
 * Durability (no WAL): changed pages are marked dirty and written and
 * fsynced before tdb_heap_vacuum returns, as a commit flushes what it
 * wrote.  A crash in between loses nothing visible: a page reaches the
 * disk whole (a torn page is the known gap of the README), the old and
 * new images hold the same rows every snapshot can see, at the same line
 * pointer numbers, and a removed row is dead for ever (its inserter
 * aborted, or its deleter committed, durably, before the horizon).  If
 * the new image is lost, the dead rows are merely still there.
 */
#ifndef TDB_ACCESS_VACUUM_H
#define TDB_ACCESS_VACUUM_H

#include "common/base.h"
#include "access/relation.h"
#include "access/xact.h"

/* What one VACUUM of a relation did (VACUUM VERBOSE, tests). */
typedef struct VacuumStats {
    BlockNumber rel_pages;     /* the relation's length */
    BlockNumber scanned_pages; /* pages examined under the cleanup lock */
    BlockNumber skipped_pages; /* pinned by someone else: left alone */
    BlockNumber pruned_pages;  /* pages that lost rows */
    uint64 tuples_removed;     /* dead row versions removed */
    uint64 tuples_remaining;   /* row versions kept (live, recently dead,
                                * being inserted or deleted) */
    uint64 recently_dead;      /* ... of which deleted, but maybe still
                                * seen by a snapshot */
    TransactionId oldest_xmin; /* the horizon used */
    BlockNumber all_visible_pages; /* pages whose visibility map bit is
                                    * set when VACUUM ends (the rel's
                                    * relallvisible) */
    uint32 fsm_pages;          /* pages recorded with free space */
} VacuumStats;

/*
 * Vacuum rel (see above) for xact's session, which is IN_PROGRESS and
 * holds a lock on rel (REL_LOCK_SHARE is enough).  stats may be NULL.
 * Raises XX001 for a corrupted page (the pages before it are done), and
 * the buffer pool's I/O errors.
 */
void tdb_heap_vacuum(Relation rel, Transaction *xact, VacuumStats *stats);

#endif /* TDB_ACCESS_VACUUM_H */
