/*
 * heapam.h -- the heap access method: rows of a table stored in its
 * relation file, in PostgreSQL's heap page and tuple format, read and
 * changed through the shared buffer pool under MVCC.
 *
 * Writing (insert, bulk insert, delete, update) needs the session's
 * Transaction: the first write takes the database-wide writer lock and an
 * xid (tdb_xact_assign_xid), every write is stamped with the current
 * command id, and nothing is ever undone -- a failed statement's rows die
 * with its transaction's xid (src/access/README.md).  Reading needs a
 * Snapshot (snapshot.h).  Callers hold REL_LOCK_SHARE on the relation
 * (lmgr.h) around any of these, so its file cannot go away meanwhile.
 *
 * Where rows go: a new row goes to the page the session's last insert
 * used (rel->rd_target_block), else to a page VACUUM found with enough
 * free space (the in-memory free space record, freespace.h), else --
 * with no target yet -- to the relation's last page, else to a new page
 * at the end.  Space freed by deletes is reused only after VACUUM
 * (vacuum.h) removed the dead rows.  Bulk insertion fills one page at a
 * time under one lock, through a BULKWRITE ring so that a load does not
 * evict the rest of the pool (it takes recorded pages too, as
 * PostgreSQL's COPY does).
 *
 * Reading is page at a time (PostgreSQL's page-mode scans): a scan pins
 * a page, takes its share lock once, decides the visibility of every row
 * on it into an array of offsets, and lets the lock go; the rows are then
 * returned one by one as HeapTuples pointing into the pinned page -- no
 * copy, no lock per row.  Rows never move while a page is pinned (moving
 * them needs a cleanup lock), so the pointers stay valid until the scan
 * leaves the page; a slot that stores such a row keeps its own pin.
 * VACUUM moves rows (compacting a page) only under the cleanup lock,
 * i.e. when no other thread holds a pin on the page.
 *
 * Updates write the new version with xmin = the transaction's xid and
 * HEAP_UPDATED, stamp the old version's xmax and point its t_ctid to the
 * new one; deletes stamp xmax and leave t_ctid pointing to the row
 * itself (so a later reader can tell "deleted" from "updated").  No HOT
 * chains: without indexes there is nothing for them to save.
 */
#ifndef TDB_ACCESS_HEAPAM_H
#define TDB_ACCESS_HEAPAM_H

#include "common/base.h"
#include "access/heapam_visibility.h"
#include "access/relation.h"
#include "access/snapshot.h"
#include "access/xact.h"
#include "storage/bufmgr.h"
#include "tuple/heaptuple.h"
#include "tuple/slot.h"

/*
 * The largest heap tuple that fits on a page with its line pointer
 * (PostgreSQL's MaxHeapTupleSize: 8160 bytes for 8 kB pages).  Larger
 * rows need TOAST.
 */
#define MaxHeapTupleSize                                                       \
    (BLCKSZ - MAXALIGN(SizeOfPageHeaderData + sizeof(ItemIdData)))

/*
 * Called at commit, after a relation's pages were flushed, with its
 * length: the catalog records it (pg_class.relpages) so that a file
 * truncated later is noticed (RelationData.rd_committed_blocks).  The
 * hook may raise (the commit then fails and aborts).  One per process,
 * installed when a database opens.
 */
typedef void (*HeapCommitLengthHook)(Transaction *xact, RelFileNumber rel,
                                     BlockNumber nblocks);
void tdb_heap_set_commit_length_hook(HeapCommitLengthHook hook);

/*
 * A relation other than a heap (an index) that xact wrote: its pages are
 * flushed when xact commits, then its length recorded by the hook above,
 * as for the tables it writes.  Cheap to call for every write.
 */
void tdb_relation_written(Transaction *xact, RelFileNumber rel);

/*
 * A damaged relation: its file is shorter than the length recorded at the
 * last commit that grew it (rel->rd_committed_blocks, pg_class.relpages),
 * so blocks were lost behind the database's back.  PostgreSQL fails a
 * read of a missing block (XX001 "could not read block N ... read only 0
 * of 8192 bytes"); tupledb knows the committed length, so every access
 * fails up front instead -- scans, fetches, inserts, updates, deletes,
 * VACUUM, TOAST reads and writes -- and no write ever extends the file
 * over the hole, which would turn the detected loss into a silent one.
 * Nothing records the damage but the file itself, so it is found again
 * after every restart, until the file is restored from a backup (the
 * table works again) or the table is dropped or truncated (both give up
 * its rows and never read the file).
 *
 * tdb_heap_relation_nblocks returns the file's length in blocks after
 * that check, raising XX001:
 *   relation "R" is missing blocks: its file base/F has N blocks, but C
 *   were committed
 * tdb_heap_raise_missing_blocks raises that error (for the catalog's
 * check of the length at commit).
 */
BlockNumber tdb_heap_relation_nblocks(Relation rel);
TDB_NORETURN void tdb_heap_raise_missing_blocks(const char *relname,
                                                RelFileNumber file,
                                                BlockNumber nblocks,
                                                BlockNumber committed);

/* ----------------------------------------------------------------------
 * Inserting
 * ---------------------------------------------------------------------- */

/*
 * State kept across the rows of one bulk load: the BULKWRITE ring and
 * the pinned page being filled.  Create it in the load's memory context;
 * tdb_heap_bulk_insert_end releases the pin (and must be called before
 * the statement ends, also when it fails -- or the statement boundary's
 * tdb_buf_release_all_pins_of_thread drops the pin).
 */
typedef struct BulkInsertStateData *BulkInsertState;

BulkInsertState tdb_heap_bulk_insert_begin(void);
void tdb_heap_bulk_insert_end(BulkInsertState bistate);

/*
 * Insert one row.  tup is the caller's (e.g. from tdb_heap_form_tuple);
 * its header's transaction fields are overwritten, tup->t_self and
 * tup->t_tableOid are set to where it went.  bistate may be NULL.
 * Raises 54000 "row is too big" beyond MaxHeapTupleSize, the writer
 * lock's and the buffer pool's errors (53100 when the disk is full).
 */
void tdb_heap_insert(Relation rel, HeapTuple tup, Transaction *xact,
                     BulkInsertState bistate);

/*
 * Insert ntuples rows, filling each page before moving on (one lock per
 * page, not per row).  As tdb_heap_insert for each row; on an error some
 * rows may be in the table already -- they die with the transaction.
 */
void tdb_heap_multi_insert(Relation rel, HeapTuple *tuples, int ntuples,
                           Transaction *xact, BulkInsertState bistate);

/*
 * Called by tdb_heap_insert_at_end for each row right after it was put on
 * a page, under the page's exclusive lock: page_row is the page's copy
 * of row number index (0-based in the call), tid where it went.  The
 * hook may rewrite bytes of the row's data whose value depends on where
 * the row went (the TOAST chunk store writes chunk_id, which encodes the
 * first chunk's TID) -- never its length, header or null bitmap -- and
 * must not raise or take locks.
 */
typedef void (*HeapPlacedRowHook)(HeapTupleHeader page_row,
                                  const ItemPointerData *tid, int index,
                                  void *arg);

/*
 * Insert ntuples rows at the end of rel, in order, with at most
 * max_per_page line pointers on any page they go to (1 ..
 * MaxHeapTuplesPerPage): for a caller that must know where rows go
 * without an index (the TOAST chunk store, toast_store.h).  The first
 * row goes to offset 1 of a page appended now if new_page, else to the
 * relation's last page when it has room and fewer than max_per_page
 * line pointers (possibly to a free line pointer below the last one) or
 * max_per_page of them with one unused (PD_HAS_FREE_LINES set), else to
 * a new page; every following row goes to the page of the row
 * before it while it fits there, else to a page appended.  One lock per
 * page; no free space record is consulted.  strategy (may be NULL) is
 * used for the reads and extensions.  placed (may be NULL) is called
 * with placed_arg for each row as it lands (see HeapPlacedRowHook).
 * t_self of every row says where it went; the caller's copies do not
 * see the hook's changes.
 *
 * The pages a call appends are consecutive blocks as long as nobody else
 * extends rel meanwhile -- true when only writer-lock holders extend it,
 * as for toast relations (the call takes the writer lock before anything
 * else).  Errors as tdb_heap_multi_insert.
 */
void tdb_heap_insert_at_end(Relation rel, HeapTuple *tuples, int ntuples,
                            int max_per_page, bool new_page,
                            Transaction *xact, BufferAccessStrategy strategy,
                            HeapPlacedRowHook placed, void *placed_arg);

/*
 * Insert tup on page blkno of rel if it has room there with its line
 * pointer at most max_per_page (a free one below the last, or one past
 * the last); returns whether it did.  For the TOAST chunk store's single
 * chunks, on a page the free space record offered.  Either way the
 * record learns the page's room (tdb_fsm_record; 0 when the page is at
 * the cap, so it is not offered to this caller again) and forgets that
 * the page was empty; a block past the end is dropped from it.  tup's
 * header is prepared as tdb_heap_insert does even when it does not go
 * there; placed as for tdb_heap_insert_at_end.  Errors as
 * tdb_heap_insert.
 */
bool tdb_heap_insert_on_page(Relation rel, HeapTuple tup, BlockNumber blkno,
                             int max_per_page, Transaction *xact,
                             HeapPlacedRowHook placed, void *placed_arg);

/*
 * Insert ntuples rows on the empty pages first_block, first_block + 1,
 * ... of rel, rows_per_page to a page, in order: row i goes to
 * (first_block + i / rows_per_page, i % rows_per_page + 1).  For the
 * TOAST chunk store's multi-chunk values, on a run of pages VACUUM
 * emptied (freespace.h); rows_per_page rows must fit on an empty page.
 *
 * Each page is filled under its exclusive lock and must be below the
 * relation's length and empty -- no line pointer in use -- when locked:
 * it is then initialized afresh (whatever unused line pointers it had)
 * and the rows are put at exactly those offsets.  A page not empty
 * raises an internal error: the caller checks the pages first and holds
 * the writer lock, so no one else can have added a row since (VACUUM
 * only removes rows).  The record learns each filled page's room
 * (tdb_fsm_record, which clears its empty mark).  strategy and placed
 * as for tdb_heap_insert_at_end; other errors as tdb_heap_multi_insert.
 */
void tdb_heap_insert_on_empty_pages(Relation rel, HeapTuple *tuples,
                                    int ntuples, BlockNumber first_block,
                                    int rows_per_page, Transaction *xact,
                                    BufferAccessStrategy strategy,
                                    HeapPlacedRowHook placed, void *placed_arg);

/* ----------------------------------------------------------------------
 * Scanning
 * ---------------------------------------------------------------------- */

typedef struct HeapScanDescData *HeapScanDesc;

/*
 * Start a sequential scan of rel under snap (both borrowed; they must
 * outlive the scan).  The relation's length is taken now: rows appended
 * later are not seen (they would be invisible to snap anyway, except the
 * scanning transaction's own, which PostgreSQL does not see either).  A
 * relation larger than a quarter of the buffer pool is read through a
 * BULKREAD ring.  Allocated in the current memory context.  Raises XX001
 * if the file is shorter than rel->rd_committed_blocks (truncated).
 */
HeapScanDesc tdb_heap_beginscan(Relation rel, Snapshot snap);

/*
 * A scan for CREATE INDEX (PostgreSQL's index build scan): every row not
 * dead to all snapshots -- tdb_heap_tuple_satisfies_vacuum with horizon
 * (tdb_xact_manager_oldest_xmin) is not DEAD -- so that an older snapshot
 * still finds through the new index a row deleted since.  Whether snap
 * sees the row last returned: tdb_heap_scan_row_visible (true for every
 * row of an ordinary scan).  Sets hint bits as the visibility tests do.
 */
HeapScanDesc tdb_heap_beginscan_nondead(Relation rel, Snapshot snap,
                                        TransactionId horizon);
bool tdb_heap_scan_row_visible(HeapScanDesc scan);

/*
 * The next visible row, or NULL at the end.  The tuple handle and the
 * row's bytes belong to the scan: valid until the next call (the page
 * stays pinned until then).  Raises XX001 for a corrupted page.
 */
HeapTuple tdb_heap_getnext(HeapScanDesc scan);

/* The next visible row stored into slot (a heap slot, which takes its
 * own pin on the page); false at the end (slot cleared). */
bool tdb_heap_getnextslot(HeapScanDesc scan, TupleTableSlot *slot);

/*
 * Column attnum (1-based) of up to max next visible rows, all of one page,
 * into values[] and isnull[]; returns how many, 0 at the end.  For a scan
 * that reads one column and needs no slot.  By-reference values point
 * into the page: valid until the next call.  Raises XX001 for a
 * corrupted page or tuple.
 */
int tdb_heap_getnext_column(HeapScanDesc scan, int attnum, Datum *values,
                            bool *isnull, int max);

/*
 * The handles of up to max next visible rows, all of one page, into
 * tuples[]; *buffer receives the page's buffer (pinned by the scan until
 * it moves to the next page: a slot storing one of these rows takes its
 * own pin).  Returns how many, 0 at the end.  For a consumer that looks
 * at a column of every row and keeps few (a top-N sort).
 */
int tdb_heap_getnext_rows(HeapScanDesc scan, HeapTupleData *tuples, int max,
                          Buffer *buffer);

/* Start over from the first page (same snapshot; length taken again). */
void tdb_heap_rescan(HeapScanDesc scan);

/* Release the pin and the ring, free the scan. */
void tdb_heap_endscan(HeapScanDesc scan);

/* Pages this scan has read so far (for EXPLAIN and tests). */
BlockNumber tdb_heap_scan_pages_read(HeapScanDesc scan);

/* ----------------------------------------------------------------------
 * One row by TID
 * ---------------------------------------------------------------------- */

/*
 * Does the row at tid hold a key a unique index may not take again
 * (tdb_heap_tuple_satisfies_dirty)?  False if tid names no row.  xact
 * holds the writer lock.
 */
bool tdb_heap_tid_is_live_for_unique(Relation rel, Transaction *xact,
                                     const ItemPointerData *tid);

/*
 * The row at tid as xact's current command would update it (INSERT ...
 * ON CONFLICT DO UPDATE's conflicting row): the result of
 * tdb_heap_tuple_satisfies_update, and on TM_OK the row stored into slot
 * (a heap slot, pinning its page), whatever the statement's snapshot
 * sees, as PostgreSQL's READ COMMITTED updates the newest version.
 * TM_INVISIBLE: this very command inserted (or updated) it.  With one
 * writer at a time the row needs no lock: the concurrent writers of a
 * later issue take PostgreSQL's tuple lock here (and wait on
 * TM_BEING_MODIFIED).  XX001 if tid names no row.
 */
TM_Result tdb_heap_fetch_for_update(Relation rel, Transaction *xact,
                                    const ItemPointerData *tid,
                                    TupleTableSlot *slot);

/*
 * Fetch the row at tid if snap sees it: stores it into slot (a heap
 * slot, pinning its page) and returns true; false -- slot cleared -- if
 * tid names no row (past the end, unused slot) or a row snap does not
 * see.
 */
bool tdb_heap_fetch(Relation rel, Snapshot snap, ItemPointer tid,
                    TupleTableSlot *slot);

/* ----------------------------------------------------------------------
 * Deleting and updating
 * ---------------------------------------------------------------------- */

/* Why a delete or update did not happen (PostgreSQL's TM_FailureData). */
typedef struct TM_FailureData {
    ItemPointerData ctid; /* the row's t_ctid: its newer version if
                           * TM_UPDATED, itself otherwise */
    TransactionId xmax;   /* who updated / deleted it */
    CommandId cmax;       /* TM_SELF_MODIFIED: the command that did */
} TM_FailureData;

/*
 * Delete the row at tid as xact's current command.  TM_OK: done.
 * Otherwise nothing changed and tmfd says why (heapam_visibility.h lists
 * what callers do with each result); with one writer at a time,
 * TM_BEING_MODIFIED cannot happen.  Raises "attempted to delete invisible
 * tuple" (TM_INVISIBLE), XX001 for a tid that names no row, and the
 * writer lock's errors.
 */
TM_Result tdb_heap_delete(Relation rel, ItemPointer tid, Transaction *xact,
                          TM_FailureData *tmfd);

/*
 * Replace the row at otid by newtup (its header's transaction fields are
 * overwritten; newtup->t_self is set to where the new version went).
 * The new version goes to the same page when it fits, else where an
 * insert would put it.  Results and errors as tdb_heap_delete, plus
 * tdb_heap_insert's errors for the new version.
 */
TM_Result tdb_heap_update(Relation rel, ItemPointer otid, HeapTuple newtup,
                          Transaction *xact, TM_FailureData *tmfd);

#endif /* TDB_ACCESS_HEAPAM_H */
