/*
 * freespace.h -- where the heap may put new rows besides the end of the
 * relation: an in-memory record of the pages VACUUM found with free
 * space (a much simplified PostgreSQL free space map).
 *
 * PostgreSQL's FSM is a persistent fork of every relation.  tupledb's is
 * in memory, process-wide, under one mutex: for each of up to
 * FSM_MAX_RELATIONS relation files (least recently used ones forgotten
 * first) up to FSM_MAX_PAGES pages with at least FSM_MIN_FREE bytes of
 * room, and how much.  Only VACUUM adds pages (tdb_fsm_set_relation
 * replaces a relation's record with what it found); inserts take pages
 * from it (tdb_fsm_get_page) and correct a page's figure when they find
 * less room than recorded (tdb_fsm_record), which drops a page that no
 * longer has FSM_MIN_FREE bytes.  After a restart it is empty until the
 * next VACUUM of each table: the space is not lost, only unused until
 * then.
 *
 * VACUUM also marks the pages it left completely empty (no line pointer
 * in use).  The TOAST chunk store (toast_store.c) needs runs of such
 * pages for a multi-chunk value, whose chunks must lie 4 to a page at
 * offsets 1 .. 4 of consecutive blocks: it asks for the lowest run of N
 * empty pages (tdb_fsm_find_empty_run), checks each page under its lock,
 * and reports what it found or left there (tdb_fsm_record, which clears
 * the mark).  Its single chunks take partly used pages before empty ones
 * (tdb_fsm_get_page_sparing_empty), so runs stay whole.
 *
 * The record is a hint: a page it names may have been filled since, or
 * be past the end of a relation that was truncated or replaced (TRUNCATE
 * gives a table a new file number, so its old entries are never asked
 * for; they age out).  Callers check the page under its content lock.
 * No function raises or allocates.
 */
#ifndef TDB_ACCESS_FREESPACE_H
#define TDB_ACCESS_FREESPACE_H

#include "common/base.h"
#include "storage/block.h"

#define FSM_MAX_RELATIONS 64
#define FSM_MAX_PAGES 2048
/* Pages with less room are not worth recording: a narrow row needs
 * about 40 bytes, a typical one more. */
#define FSM_MIN_FREE 128

/* One page and its room for a new row (tdb_page_get_heap_free_space). */
typedef struct FsmPage {
    BlockNumber blkno;
    uint16 avail;
    bool empty; /* VACUUM left no line pointer in use on it */
} FsmPage;

/*
 * Replace rel's record by pages[0 .. n) (n <= FSM_MAX_PAGES, ascending
 * block numbers; those with less than FSM_MIN_FREE are skipped).  n = 0
 * forgets the relation.
 */
void tdb_fsm_set_relation(RelFileNumber rel, const FsmPage *pages, uint32 n);

/*
 * A page of rel recorded with at least `needed` bytes of room and below
 * nblocks (entries at or past nblocks are dropped; InvalidBlockNumber:
 * no bound), the lowest such block; InvalidBlockNumber if none.
 */
BlockNumber tdb_fsm_get_page(RelFileNumber rel, Size needed,
                             BlockNumber nblocks);

/*
 * As tdb_fsm_get_page, but the lowest page not marked empty first, an
 * empty one only if no other has the room: for single TOAST chunks, so
 * that runs of empty pages stay whole for multi-chunk values.
 */
BlockNumber tdb_fsm_get_page_sparing_empty(RelFileNumber rel, Size needed,
                                           BlockNumber nblocks);

/*
 * The first block of the lowest run of npages (>= 1) consecutive blocks
 * of rel, all recorded empty and below nblocks (entries at or past
 * nblocks are dropped); InvalidBlockNumber if there is none.  The run
 * stays recorded: the caller checks each page under its lock and
 * corrects the record (tdb_fsm_record) for a page it found not empty or
 * filled -- a hint, like everything here.
 */
BlockNumber tdb_fsm_find_empty_run(RelFileNumber rel, uint32 npages,
                                   BlockNumber nblocks);

/* Page blkno of rel has avail bytes of room now: correct its entry (or
 * drop it below FSM_MIN_FREE) and clear its empty mark -- whoever
 * reports a page's room has looked at it, or just filled it.  Pages not
 * in the record are not added. */
void tdb_fsm_record(RelFileNumber rel, BlockNumber blkno, Size avail);

/* Forget rel's record. */
void tdb_fsm_forget(RelFileNumber rel);

/* Pages recorded for rel, and their total room (tests, VACUUM VERBOSE). */
uint32 tdb_fsm_npages(RelFileNumber rel, uint64 *total_avail);

/* Pages recorded empty for rel (tests). */
uint32 tdb_fsm_nempty(RelFileNumber rel);

#endif /* TDB_ACCESS_FREESPACE_H */
