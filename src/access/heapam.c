/*
 * heapam.c -- the heap access method (heapam.h): insert, bulk insert,
 * page-at-a-time sequential scans, fetch by TID, delete and update.
 *
 * Locking discipline: a thread holds at most one buffer content lock at
 * a time here.  An update whose new version does not fit on the old
 * row's page therefore works in two steps -- place the new version
 * (locking its page), then lock the old page again and stamp the old
 * version -- instead of locking both pages as PostgreSQL does.  That is
 * safe because only the writer-lock holder changes rows: between the two
 * steps nobody else can touch the old version, and readers see the new
 * one as the work of a running transaction, i.e. not at all.  (When the
 * WAL arrives, both steps go into one record.)
 *
 * Every page change starts with tdb_vm_clear_page under the exclusive
 * lock (an all-visible page loses its flag and its visibility map bits
 * before anything on it changes: visibilitymap.c) and ends with
 * tdb_buf_mark_dirty under the same lock (the WAL hook); hint bits set
 * while reading use tdb_buf_mark_dirty_hint under the share lock.
 */
#include "common/base.h"

#include "access/combocid.h"
#include "access/freespace.h"
#include "access/heapam.h"
#include "access/htup_xact.h"
#include "access/transam.h"
#include "access/visibilitymap.h"
#include "common/elog.h"
#include "storage/page.h"

/* ----------------------------------------------------------------------
 * Row headers
 * ---------------------------------------------------------------------- */

/*
 * Stamp a new row version as written by xid/cid: xmin and cmin set, no
 * xmax, no hint bits or lock bits; HEAP_UPDATED (for a new version of an
 * updated row) as asked.  Keeps natts and the data-layout bits.
 */
static void
prepare_new_version(HeapTuple tup, Relation rel, TransactionId xid,
                    CommandId cid, bool updated)
{
    HeapTupleHeader hdr = tup->t_data;

    if (tup->t_len > MaxHeapTupleSize)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("row is too big: size %zu, maximum size %zu",
                       (size_t)MAXALIGN(tup->t_len),
                       (size_t)MaxHeapTupleSize));
    hdr->t_infomask &= (uint16)~HEAP_XACT_MASK;
    hdr->t_infomask2 &= HEAP_NATTS_MASK;
    hdr->t_infomask |= HEAP_XMAX_INVALID;
    if (updated)
        hdr->t_infomask |= HEAP_UPDATED;
    HeapTupleHeaderSetXmin(hdr, xid);
    HeapTupleHeaderSetCmin(hdr, cid);
    HeapTupleHeaderSetXmax(hdr, InvalidTransactionId);
    tup->t_tableOid = rel->rd_id;
}

/*
 * Stamp the old version of a row deleted or updated by xid: xmax, cmax
 * (a combo id if xid inserted it too), no xmax hints or lock bits,
 * t_ctid pointing to the new version (or to itself for a delete).
 */
static void
stamp_old_version(HeapTupleHeader hdr, Transaction *xact, TransactionId xid,
                  CommandId cid, const ItemPointerData *ctid, bool is_delete)
{
    CommandId cmax = cid;
    bool iscombo = false;

    tdb_combocid_adjust_cmax(hdr, xact, &cmax, &iscombo);
    hdr->t_infomask &=
        (uint16)~(HEAP_XMAX_COMMITTED | HEAP_XMAX_INVALID |
                  HEAP_XMAX_IS_MULTI | HEAP_LOCK_MASK | HEAP_XMAX_LOCK_ONLY);
    hdr->t_infomask2 &= (uint16)~HEAP_KEYS_UPDATED;
    if (is_delete)
        hdr->t_infomask2 |= HEAP_KEYS_UPDATED; /* as PostgreSQL's delete */
    HeapTupleHeaderSetXmax(hdr, xid);
    HeapTupleHeaderSetCmax(hdr, cmax, iscombo);
    hdr->t_ctid = *ctid;
}

/* Remember the oldest xid that may leave dead rows on the page. */
static void
page_set_prunable(Page page, TransactionId xid)
{
    TransactionId old = tdb_page_get_prune_xid(page);

    if (!TransactionIdIsValid(old) || TransactionIdPrecedes(xid, old))
        tdb_page_set_prune_xid(page, xid);
}

/* ----------------------------------------------------------------------
 * Durability until the WAL exists
 * ---------------------------------------------------------------------- */

static HeapCommitLengthHook commit_length_hook;

void
tdb_heap_set_commit_length_hook(HeapCommitLengthHook hook)
{
    commit_length_hook = hook;
}

void
tdb_heap_raise_missing_blocks(const char *relname, RelFileNumber file,
                              BlockNumber nblocks, BlockNumber committed)
{
    /* a catalog (a bootstrap file number) cannot be dropped */
    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("relation \"%s\" is missing blocks: its file base/%u "
                   "has %u blocks, but %u were committed",
                   relname, file, nblocks, committed),
            file < FirstNormalRelFileNumber
                ? errhint("The file was truncated outside the database. "
                          "Restore it from a backup.")
                : errhint("The file was truncated outside the database. "
                          "Restore it from a backup, or drop or truncate "
                          "the table to give up its rows."));
}

BlockNumber
tdb_heap_relation_nblocks(Relation rel)
{
    BlockNumber nblocks = tdb_buf_relation_nblocks(rel->rd_relfilenumber);

    if (unlikely(nblocks < rel->rd_committed_blocks))
        tdb_heap_raise_missing_blocks(rel->rd_name, rel->rd_relfilenumber,
                                      nblocks, rel->rd_committed_blocks);
    return nblocks;
}

/* A relation the transaction wrote, for its commit callback. */
typedef struct WrittenRelation {
    Transaction *xact;
    RelFileNumber rel;
} WrittenRelation;

/* PRE_COMMIT: write and fsync the relation's dirty pages, so the commit
 * record never describes rows that a crash could lose; then let the
 * catalog record the length. */
static void
flush_relation_at_commit(XactEvent event, void *arg)
{
    WrittenRelation *written = arg;

    if (event != XACT_EVENT_PRE_COMMIT)
        return;
    tdb_buf_flush_relation(written->rel);
    if (commit_length_hook != NULL)
        commit_length_hook(written->xact, written->rel,
                           tdb_buf_relation_nblocks(written->rel));
}

/* Flush rel's pages when xact commits, then record its length. */
static void
flush_at_commit(Transaction *xact, RelFileNumber rel)
{
    WrittenRelation *written =
        tdb_mcxt_alloc(tdb_xact_context(xact), sizeof(WrittenRelation));

    written->xact = xact;
    written->rel = rel;
    tdb_xact_register_callback(xact, flush_relation_at_commit, written);
}

/*
 * The transaction's xid and command id for a write to rel, taking the
 * writer lock if this is its first write, and arranging for rel's pages
 * to be flushed at commit.  The transaction's first write to rel checks
 * that rel is not damaged (tdb_heap_relation_nblocks): a write that does
 * not extend the file would not notice otherwise, and its commit would
 * fail only then.  (The commit checks the length again: the catalog's
 * commit-length hook.)
 */
static TransactionId
begin_write(Relation rel, Transaction *xact, CommandId *cid)
{
    TransactionId xid = tdb_xact_assign_xid(xact);

    *cid = tdb_xact_current_command_id(xact, true);
    if (tdb_xact_note_relation_written(xact, rel->rd_relfilenumber)) {
        if (rel->rd_committed_blocks > 0)
            (void)tdb_heap_relation_nblocks(rel);
        flush_at_commit(xact, rel->rd_relfilenumber);
    }
    return xid;
}

void
tdb_relation_written(Transaction *xact, RelFileNumber rel)
{
    if (tdb_xact_note_relation_written(xact, rel))
        flush_at_commit(xact, rel);
}

/* ----------------------------------------------------------------------
 * Choosing a page for new rows
 * ---------------------------------------------------------------------- */

struct BulkInsertStateData {
    BufferAccessStrategy strategy;
    Buffer current; /* pinned (not locked) page being filled, or Invalid */
};

BulkInsertState
tdb_heap_bulk_insert_begin(void)
{
    BulkInsertState bistate = tdb_palloc(sizeof(*bistate));

    bistate->strategy = tdb_buf_strategy_create(BUF_STRATEGY_BULKWRITE);
    bistate->current = InvalidBuffer;
    return bistate;
}

void
tdb_heap_bulk_insert_end(BulkInsertState bistate)
{
    if (bistate->current != InvalidBuffer)
        tdb_buf_release(bistate->current);
    tdb_buf_strategy_free(bistate->strategy);
    tdb_pfree(bistate);
}

/* Free space for a new row on a heap page (a line pointer included). */
static inline bool
page_has_room(const PageData *page, Size len)
{
    return tdb_page_get_heap_free_space(page) >= MAXALIGN(len);
}

/*
 * Pin and exclusively lock block blkno if it has room for len bytes;
 * InvalidBuffer (nothing held) otherwise -- and then the free space
 * record learns the page's real room, so it is not offered again for a
 * row this big.  A bulk insert keeps its pin on the page it fills, so
 * asking again for that page costs no pin.
 */
static Buffer
try_block(Relation rel, BlockNumber blkno, Size len, BulkInsertState bistate)
{
    Buffer buf;
    Size avail;

    if (bistate != NULL && bistate->current != InvalidBuffer &&
        tdb_buf_block_number(bistate->current) == blkno) {
        buf = bistate->current;
        tdb_buf_incr_pin(buf);
    } else
        buf = tdb_buf_read(rel->rd_relfilenumber, blkno,
                           bistate != NULL ? bistate->strategy : NULL);
    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    if (page_has_room(tdb_buf_page(buf), len))
        return buf;
    avail = tdb_page_get_heap_free_space(tdb_buf_page(buf));
    tdb_buf_unlock_release(buf);
    tdb_fsm_record(rel->rd_relfilenumber, blkno, avail);
    return InvalidBuffer;
}

/*
 * A page with room for a row of len bytes, pinned and exclusively
 * locked, as PostgreSQL's RelationGetBufferForTuple chooses it: the
 * target block (the session's last insert); else a page VACUUM recorded
 * with enough free space (freespace.h), lowest first; else, if there was
 * no target, the last block; else a new block.  With bistate, the bulk
 * state keeps a pin of its own on the page (released when it moves on).
 */
static Buffer
get_page_for_row(Relation rel, Size len, BulkInsertState bistate)
{
    Buffer buf = InvalidBuffer;
    BlockNumber target = rel->rd_target_block;
    BlockNumber nblocks = InvalidBlockNumber;
    BlockNumber blkno;

    if (target != InvalidBlockNumber)
        buf = try_block(rel, target, len, bistate);
    /*
     * Each failed try lowers the page's recorded room below len
     * (try_block), so this ends.  The relation's length (a system call)
     * is asked only once the record offers a page: an unbounded first
     * question, then bounded (which drops pages past the end).
     */
    while (buf == InvalidBuffer) {
        blkno = tdb_fsm_get_page(rel->rd_relfilenumber, MAXALIGN(len),
                                 nblocks);
        if (blkno == InvalidBlockNumber)
            break;
        if (nblocks == InvalidBlockNumber) {
            nblocks = tdb_heap_relation_nblocks(rel);
            if (blkno >= nblocks)
                continue;
        }
        target = blkno;
        buf = try_block(rel, blkno, len, bistate);
    }
    if (buf == InvalidBuffer && rel->rd_target_block == InvalidBlockNumber) {
        if (nblocks == InvalidBlockNumber)
            nblocks = tdb_heap_relation_nblocks(rel);
        if (nblocks > 0) {
            target = nblocks - 1;
            buf = try_block(rel, target, len, bistate);
        }
    }
    if (buf == InvalidBuffer) {
        buf = tdb_buf_extend(rel->rd_relfilenumber,
                             bistate != NULL ? bistate->strategy : NULL,
                             &blkno);
        target = blkno;
    }
    rel->rd_target_block = target;
    if (bistate != NULL && bistate->current != buf) {
        if (bistate->current != InvalidBuffer)
            tdb_buf_release(bistate->current);
        tdb_buf_incr_pin(buf);
        bistate->current = buf;
    }
    return buf;
}

/*
 * Put a prepared row on the locked page of buf; set its t_self and the
 * page copy's t_ctid.  The caller checked that it fits.
 */
static void
place_row(Buffer buf, HeapTuple tup)
{
    Page page = tdb_buf_page(buf);
    OffsetNumber off;
    ItemId lp;

    off = tdb_page_add_item(page, tup->t_data, tup->t_len,
                            InvalidOffsetNumber, PAGE_ADD_IS_HEAP);
    if (off == InvalidOffsetNumber)
        elog(ERROR, "failed to add row to page %u",
             tdb_buf_block_number(buf));
    ItemPointerSet(&tup->t_self, tdb_buf_block_number(buf), off);
    lp = tdb_page_get_item_id(page, off);
    ((HeapTupleHeader)tdb_page_get_item(page, lp))->t_ctid = tup->t_self;
    tup->t_data->t_ctid = tup->t_self;
}

void
tdb_heap_insert(Relation rel, HeapTuple tup, Transaction *xact,
                BulkInsertState bistate)
{
    CommandId cid;
    TransactionId xid = begin_write(rel, xact, &cid);
    Buffer buf;

    prepare_new_version(tup, rel, xid, cid, false);
    buf = get_page_for_row(rel, tup->t_len, bistate);
    tdb_vm_clear_page(rel, buf);
    place_row(buf, tup);
    tdb_buf_mark_dirty(buf);
    tdb_buf_unlock_release(buf);
}

void
tdb_heap_multi_insert(Relation rel, HeapTuple *tuples, int ntuples,
                      Transaction *xact, BulkInsertState bistate)
{
    TransactionId xid;
    CommandId cid;
    int done = 0;

    if (ntuples <= 0)
        return;
    xid = begin_write(rel, xact, &cid);
    for (int i = 0; i < ntuples; i++)
        prepare_new_version(tuples[i], rel, xid, cid, false);

    while (done < ntuples) {
        Buffer buf = get_page_for_row(rel, tuples[done]->t_len, bistate);
        Page page = tdb_buf_page(buf);

        tdb_vm_clear_page(rel, buf);
        /* the first row fits (get_page_for_row made sure); then as many
         * more as the page holds */
        do {
            place_row(buf, tuples[done]);
            done++;
        } while (done < ntuples && page_has_room(page, tuples[done]->t_len));
        tdb_buf_mark_dirty(buf);
        tdb_buf_unlock_release(buf);
    }
}

/*
 * Room on the locked page for a row of len bytes with the line pointer
 * at most max_per_page.  tdb_page_add_item (no offset given) takes the
 * first unused line pointer when PD_HAS_FREE_LINES is set and there is
 * one, else adds maximum + 1: so a page at the cap still takes a row if
 * one of its line pointers is unused (VACUUM removed a row below the
 * last) and the hint says so.
 */
static bool
page_has_room_at_most(const PageData *page, Size len, int max_per_page)
{
    OffsetNumber maxoff = tdb_page_get_max_offset(page);

    if (!page_has_room(page, len))
        return false;
    if (maxoff < max_per_page)
        return true;
    if (maxoff > max_per_page || !tdb_page_flag_is_set(page, PD_HAS_FREE_LINES))
        return false;
    for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++)
        if (!ItemIdIsUsed(tdb_page_get_item_id_const(page, off)))
            return true;
    return false;
}


/* Call the placed-row hook for the row just put at tup->t_self. */
static inline void
call_placed(Page page, HeapTuple tup, int index, HeapPlacedRowHook placed,
            void *placed_arg)
{
    OffsetNumber off = ItemPointerGetOffsetNumber(&tup->t_self);

    if (placed != NULL)
        placed((HeapTupleHeader)tdb_page_get_item(
                   page, tdb_page_get_item_id(page, off)),
               &tup->t_self, index, placed_arg);
}

void
tdb_heap_insert_at_end(Relation rel, HeapTuple *tuples, int ntuples,
                       int max_per_page, bool new_page, Transaction *xact,
                       BufferAccessStrategy strategy, HeapPlacedRowHook placed,
                       void *placed_arg)
{
    TransactionId xid;
    CommandId cid;
    Buffer buf = InvalidBuffer;
    int done = 0;

    if (ntuples <= 0)
        return;
    if (max_per_page < 1 || max_per_page > (int)MaxHeapTuplesPerPage)
        elog(ERROR, "invalid rows per page: %d", max_per_page);
    xid = begin_write(rel, xact, &cid);
    for (int i = 0; i < ntuples; i++)
        prepare_new_version(tuples[i], rel, xid, cid, false);

    if (!new_page) {
        BlockNumber nblocks = tdb_heap_relation_nblocks(rel);

        if (nblocks > 0) {
            buf = tdb_buf_read(rel->rd_relfilenumber, nblocks - 1, strategy);
            tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
            if (!page_has_room_at_most(tdb_buf_page(buf), tuples[0]->t_len,
                                       max_per_page)) {
                tdb_buf_unlock_release(buf);
                buf = InvalidBuffer;
            }
        }
    }
    while (done < ntuples) {
        Page page;

        if (buf == InvalidBuffer) {
            BlockNumber blkno;

            /* an empty page holds any row prepare_new_version accepted */
            buf = tdb_buf_extend(rel->rd_relfilenumber, strategy, &blkno);
        }
        tdb_vm_clear_page(rel, buf);
        page = tdb_buf_page(buf);
        do {
            place_row(buf, tuples[done]);
            call_placed(page, tuples[done], done, placed, placed_arg);
            done++;
        } while (done < ntuples &&
                 page_has_room_at_most(page, tuples[done]->t_len,
                                       max_per_page));
        tdb_buf_mark_dirty(buf);
        tdb_buf_unlock_release(buf);
        buf = InvalidBuffer;
    }
}

bool
tdb_heap_insert_on_page(Relation rel, HeapTuple tup, BlockNumber blkno,
                        int max_per_page, Transaction *xact,
                        HeapPlacedRowHook placed, void *placed_arg)
{
    TransactionId xid;
    CommandId cid;
    Buffer buf;
    Page page;
    Size avail;
    bool fits;

    if (max_per_page < 1 || max_per_page > (int)MaxHeapTuplesPerPage)
        elog(ERROR, "invalid rows per page: %d", max_per_page);
    xid = begin_write(rel, xact, &cid);
    prepare_new_version(tup, rel, xid, cid, false);
    if (blkno >= tdb_heap_relation_nblocks(rel)) {
        tdb_fsm_record(rel->rd_relfilenumber, blkno, 0);
        return false;
    }
    buf = tdb_buf_read(rel->rd_relfilenumber, blkno, NULL);
    page = tdb_buf_page(buf);
    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    if (tdb_page_is_new(page))
        tdb_page_init(page, 0); /* an all-zero page left by a crash */
    fits = page_has_room_at_most(page, tup->t_len, max_per_page);
    if (fits) {
        tdb_vm_clear_page(rel, buf);
        place_row(buf, tup);
        call_placed(page, tup, 0, placed, placed_arg);
        tdb_buf_mark_dirty(buf);
    }
    /* a page at its cap offers nothing more to this caller */
    avail = !fits && page_has_room(page, tup->t_len)
                ? 0
                : tdb_page_get_heap_free_space(page);
    tdb_buf_unlock_release(buf);
    tdb_fsm_record(rel->rd_relfilenumber, blkno, avail);
    return fits;
}

void
tdb_heap_insert_on_empty_pages(Relation rel, HeapTuple *tuples, int ntuples,
                               BlockNumber first_block, int rows_per_page,
                               Transaction *xact, BufferAccessStrategy strategy,
                               HeapPlacedRowHook placed, void *placed_arg)
{
    TransactionId xid;
    CommandId cid;
    BlockNumber nblocks;
    int done = 0;

    if (ntuples <= 0)
        return;
    if (rows_per_page < 1 || rows_per_page > (int)MaxHeapTuplesPerPage)
        elog(ERROR, "invalid rows per page: %d", rows_per_page);
    xid = begin_write(rel, xact, &cid);
    for (int i = 0; i < ntuples; i++)
        prepare_new_version(tuples[i], rel, xid, cid, false);
    nblocks = tdb_heap_relation_nblocks(rel);

    while (done < ntuples) {
        BlockNumber blkno = first_block + (BlockNumber)(done / rows_per_page);
        Buffer buf;
        Page page;
        int i = 0;

        if (blkno >= nblocks)
            elog(ERROR, "block %u of relation \"%s\" to fill is past its end",
                 blkno, rel->rd_name);
        buf = tdb_buf_read(rel->rd_relfilenumber, blkno, strategy);
        page = tdb_buf_page(buf);
        tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
        if (!tdb_page_has_no_used_items(page)) {
            tdb_buf_unlock_release(buf);
            elog(ERROR, "block %u of relation \"%s\" to fill is not empty",
                 blkno, rel->rd_name);
        }
        /* no row, so no pointer into it anywhere: start it afresh, and
         * put the rows at offsets 1, 2, ... whatever line pointers it had
         * (the map bits go first: the fresh page has no flag) */
        tdb_vm_clear_page(rel, buf);
        tdb_page_init(page, 0);
        for (; i < rows_per_page && done < ntuples; i++, done++) {
            HeapTuple tup = tuples[done];
            OffsetNumber off;
            ItemId lp;

            off = tdb_page_add_item(page, tup->t_data, tup->t_len,
                                    (OffsetNumber)(i + 1),
                                    PAGE_ADD_OVERWRITE | PAGE_ADD_IS_HEAP);
            if (off != (OffsetNumber)(i + 1)) {
                /* the page stays valid: the rows added die with xact */
                tdb_buf_mark_dirty(buf);
                tdb_buf_unlock_release(buf);
                elog(ERROR, "failed to add row %d to page %u of \"%s\"", i + 1,
                     blkno, rel->rd_name);
            }
            ItemPointerSet(&tup->t_self, blkno, off);
            lp = tdb_page_get_item_id(page, off);
            ((HeapTupleHeader)tdb_page_get_item(page, lp))->t_ctid =
                tup->t_self;
            tup->t_data->t_ctid = tup->t_self;
            call_placed(page, tup, done, placed, placed_arg);
        }
        tdb_buf_mark_dirty(buf);
        tdb_fsm_record(rel->rd_relfilenumber, blkno,
                       tdb_page_get_heap_free_space(page));
        tdb_buf_unlock_release(buf);
    }
}

/* ----------------------------------------------------------------------
 * Sequential scans
 * ---------------------------------------------------------------------- */

struct HeapScanDescData {
    Relation rel;
    Snapshot snap;
    BufferAccessStrategy strategy; /* BULKREAD ring, or NULL */
    BlockNumber nblocks;           /* length when the scan (re)started */
    BlockNumber next_block;        /* the next page to read */
    BlockNumber pages_read;
    Buffer cbuf;   /* the current page, pinned; or InvalidBuffer */
    Page cpage;    /* its contents (valid while cbuf is pinned) */
    int cindex;    /* next entry of vistuples to return */
    int ntuples;   /* visible rows on the current page */
    HeapTupleData ctup; /* the row last returned */
    OffsetNumber vistuples[MaxHeapTuplesPerPage];
    /* tdb_heap_beginscan_nondead: rows not dead below this horizon are
     * returned, and visible[i] says whether snap sees vistuples[i];
     * NULL for an ordinary scan */
    bool *visible;
    TransactionId horizon;
};

HeapScanDesc
tdb_heap_beginscan(Relation rel, Snapshot snap)
{
    HeapScanDesc scan = tdb_palloc(sizeof(*scan));

    scan->rel = rel;
    scan->snap = snap;
    scan->strategy = NULL;
    scan->cbuf = InvalidBuffer;
    scan->pages_read = 0;
    scan->visible = NULL;
    scan->horizon = InvalidTransactionId;
    tdb_heap_rescan(scan);
    return scan;
}

HeapScanDesc
tdb_heap_beginscan_nondead(Relation rel, Snapshot snap, TransactionId horizon)
{
    HeapScanDesc scan = tdb_heap_beginscan(rel, snap);

    scan->visible = tdb_palloc(sizeof(bool) * MaxHeapTuplesPerPage);
    scan->horizon = horizon;
    return scan;
}

bool
tdb_heap_scan_row_visible(HeapScanDesc scan)
{
    Assert(scan->cindex > 0);
    return scan->visible == NULL || scan->visible[scan->cindex - 1];
}

/*
 * A nondead scan's test of a row the hint-bit fast path did not settle:
 * kept unless dead to every snapshot; *visible whether snap sees it.
 */
static bool
keep_nondead(HeapScanDesc scan, HeapTupleHeader tup, bool *visible, bool *hint)
{
    bool h1 = false, h2 = false;
    HTSV_Result r = tdb_heap_tuple_satisfies_vacuum(tup, scan->horizon,
                                                    scan->snap->tm, &h1);

    *visible = r != HEAPTUPLE_DEAD && tdb_heap_tuple_satisfies_mvcc(
                                          tup, scan->snap, scan->snap->tm, &h2);
    *hint = h1 || h2;
    return r != HEAPTUPLE_DEAD;
}

void
tdb_heap_rescan(HeapScanDesc scan)
{
    if (scan->cbuf != InvalidBuffer) {
        tdb_buf_release(scan->cbuf);
        scan->cbuf = InvalidBuffer;
    }
    scan->nblocks = tdb_heap_relation_nblocks(scan->rel);
    /* PostgreSQL's rule: a ring for tables over a quarter of the pool */
    if (scan->strategy == NULL &&
        scan->nblocks > (BlockNumber)tdb_bufmgr_nbuffers() / 4)
        scan->strategy = tdb_buf_strategy_create(BUF_STRATEGY_BULKREAD);
    scan->next_block = 0;
    scan->cindex = 0;
    scan->ntuples = 0;
    scan->ctup.t_tableOid = scan->rel->rd_id;
}

void
tdb_heap_endscan(HeapScanDesc scan)
{
    if (scan->cbuf != InvalidBuffer)
        tdb_buf_release(scan->cbuf);
    if (scan->strategy != NULL)
        tdb_buf_strategy_free(scan->strategy);
    if (scan->visible != NULL)
        tdb_pfree(scan->visible);
    tdb_pfree(scan);
}

BlockNumber
tdb_heap_scan_pages_read(HeapScanDesc scan)
{
    return scan->pages_read;
}

/* XX001 for a line pointer whose item does not lie inside the page. */
TDB_NORETURN TDB_COLD TDB_NOINLINE static void
report_item_bounds(const HeapScanDesc scan, const PageData *page,
                   const ItemIdData *lp, BlockNumber blkno, OffsetNumber off)
{
    unsigned lp_off = ItemIdGetOffset(lp);
    unsigned lp_len = ItemIdGetLength(lp);
    unsigned upper = tdb_page_header_const(page)->pd_upper;
    unsigned special = tdb_page_header_const(page)->pd_special;

    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("invalid line pointer in block %u of relation "
                   "\"%s\": offset %u, length %u",
                   blkno, scan->rel->rd_name, lp_off, lp_len),
            errdetail("Item %u; the page's items lie between %u and %u.",
                      off, upper, special));
}

/*
 * The common case of tdb_heap_tuple_satisfies_mvcc, inline: the insert
 * is hinted committed (or frozen) and was not running for the snapshot,
 * and the row is hinted never deleted -- the function's first branch and
 * its first test of xmax, with the same infomask read.  Anything else
 * (no hints yet, a delete, the snapshot's own transaction) is the
 * function's to decide.  Calling it for every row of a scan cost about
 * 40 instructions per row, this test about 12 (callgrind, bench/sql).
 */
static inline bool
visible_by_hints(const HeapTupleHeaderData *tup, Snapshot snap)
{
    uint16 infomask = HeapTupleHeaderGetInfomask(tup);

    return HeapInfomaskXminCommitted(infomask) &&
           (infomask & HEAP_XMAX_INVALID) != 0 &&
           (HeapInfomaskXminFrozen(infomask) ||
            !XidInMVCCSnapshot(snap, HeapTupleHeaderGetRawXmin(tup)));
}

/*
 * Read the page at scan->next_block (the pin moves from the previous
 * page) and collect the offsets of the rows the snapshot sees, under one
 * share lock.  Every normal line pointer's item must lie inside the page
 * (XX001 otherwise).  The loop runs once per row of a scan: the page's
 * bounds are read once (writers need the exclusive lock, so they cannot
 * change under ours).
 */
static void
read_page(HeapScanDesc scan)
{
    BlockNumber blkno = scan->next_block++;
    Snapshot snap = scan->snap;
    Buffer buf;
    Page page;
    OffsetNumber maxoff;
    unsigned upper, special;
    bool hints = false;
    int n = 0;

    if (scan->cbuf != InvalidBuffer) {
        tdb_buf_release(scan->cbuf);
        scan->cbuf = InvalidBuffer;
    }
    buf = tdb_buf_read_sequential(scan->rel->rd_relfilenumber, blkno,
                                  scan->nblocks, scan->strategy);
    scan->cbuf = buf;
    scan->pages_read++;
    page = tdb_buf_page(buf);
    scan->cpage = page;

    tdb_buf_lock(buf, BUF_LOCK_SHARE);
    maxoff = tdb_page_get_max_offset(page);
    upper = tdb_page_header_const(page)->pd_upper;
    special = tdb_page_header_const(page)->pd_special;
    if (unlikely(scan->visible != NULL))
        memset(scan->visible, true, sizeof(bool) * MaxHeapTuplesPerPage);
    for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++) {
        ItemId lp = tdb_page_get_item_id(page, off);
        unsigned lp_off, lp_len;
        HeapTupleHeader tup;
        bool hint = false;
        uint32 word;

        /* the fields from one load, as page.c's line_pointers_ok: lp_off
         * in bits 0-14, lp_flags 15-16, lp_len 17-31 */
        memcpy(&word, lp, sizeof(word));
        if (((word >> 15) & 0x3u) != LP_NORMAL)
            continue;
        lp_off = word & 0x7FFFu;
        lp_len = word >> 17;
        Assert(ItemIdIsNormal(lp) && lp_off == ItemIdGetOffset(lp) &&
               lp_len == ItemIdGetLength(lp));
        if (unlikely(lp_len < SizeofHeapTupleHeader || lp_off < upper ||
                     lp_off + lp_len > special ||
                     lp_off != MAXALIGN(lp_off)))
            report_item_bounds(scan, page, lp, blkno, off);
        tup = (HeapTupleHeader)(page + lp_off);
        if (visible_by_hints(tup, snap)) {
            scan->vistuples[n++] = off;
            continue;
        }
        if (unlikely(scan->visible != NULL)) {
            if (keep_nondead(scan, tup, &scan->visible[n], &hint))
                scan->vistuples[n++] = off;
        } else if (tdb_heap_tuple_satisfies_mvcc(tup, snap, snap->tm, &hint))
            scan->vistuples[n++] = off;
        hints |= hint;
    }
    if (hints)
        tdb_buf_mark_dirty_hint(buf);
    tdb_buf_lock(buf, BUF_LOCK_UNLOCK);

    scan->ntuples = n;
    scan->cindex = 0;
}

/*
 * Stepping through the visible rows: scan_has_row reads pages until one
 * has a row left (false at the end of the relation, the last pin
 * released), scan_take_row takes it, scan_next does both into
 * scan->ctup.  The common case -- another row of the current page -- is
 * inline in every entry point: the page address is kept in the scan, so
 * it is a few loads and stores (about 15 instructions where a call chain
 * through tdb_buf_page took 60; callgrind, bench/sql).
 */
static TDB_ALWAYS_INLINE bool
scan_has_row(HeapScanDesc scan)
{
    while (unlikely(scan->cindex >= scan->ntuples)) {
        if (scan->next_block >= scan->nblocks) {
            if (scan->cbuf != InvalidBuffer) {
                tdb_buf_release(scan->cbuf);
                scan->cbuf = InvalidBuffer;
            }
            scan->ntuples = scan->cindex = 0;
            return false;
        }
        read_page(scan);
    }
    return true;
}

/* The next row (scan_has_row said there is one) into *tup. */
static TDB_ALWAYS_INLINE void
scan_take_row(HeapScanDesc scan, HeapTupleData *tup)
{
    OffsetNumber off = scan->vistuples[scan->cindex++];
    ItemId lp = tdb_page_get_item_id(scan->cpage, off);

    tup->t_data = (HeapTupleHeader)tdb_page_get_item(scan->cpage, lp);
    tup->t_len = ItemIdGetLength(lp);
    tup->t_tableOid = scan->ctup.t_tableOid;
    ItemPointerSet(&tup->t_self, scan->next_block - 1, off);
}

static TDB_ALWAYS_INLINE bool
scan_next(HeapScanDesc scan)
{
    if (!scan_has_row(scan))
        return false;
    scan_take_row(scan, &scan->ctup);
    return true;
}

HeapTuple
tdb_heap_getnext(HeapScanDesc scan)
{
    return scan_next(scan) ? &scan->ctup : NULL;
}

int
tdb_heap_getnext_rows(HeapScanDesc scan, HeapTupleData *tuples, int max,
                      Buffer *buffer)
{
    int n = 0;

    if (max > MaxHeapTuplesPerPage)
        max = MaxHeapTuplesPerPage;
    /*
     * Each handle is built in place: copying scan->ctup right after its
     * narrow stores stalled on store forwarding (perf: 20 % of a scan).
     */
    if (!scan_has_row(scan))
        return 0;
    /* this page's rows, no further; scan_take_row's work with the scan's
     * fields in locals (the stores to tuples[] could alias them) */
    {
        Page page = scan->cpage;
        BlockNumber blkno = scan->next_block - 1;
        Oid table_oid = scan->ctup.t_tableOid;
        int cindex = scan->cindex;
        int last = Min(scan->ntuples, cindex + max);

        for (; cindex < last; cindex++, n++) {
            OffsetNumber off = scan->vistuples[cindex];
            ItemId lp = tdb_page_get_item_id(page, off);

            tuples[n].t_data = (HeapTupleHeader)tdb_page_get_item(page, lp);
            tuples[n].t_len = ItemIdGetLength(lp);
            tuples[n].t_tableOid = table_oid;
            ItemPointerSet(&tuples[n].t_self, blkno, off);
        }
        scan->cindex = cindex;
    }
    *buffer = scan->cbuf;
    return n;
}

/*
 * The rows of one page at most (the values are taken before the scan
 * moves to the next page), located first and then read by the tuple
 * layer in one loop.
 */
int
tdb_heap_getnext_column(HeapScanDesc scan, int attnum, Datum *values,
                        bool *isnull, int max)
{
    HeapTupleData tuples[MaxHeapTuplesPerPage];
    Buffer buffer;
    int n = tdb_heap_getnext_rows(scan, tuples, max, &buffer);

    tdb_heap_getattr_array(tuples, n, attnum, scan->rel->rd_att, values,
                           isnull);
    return n;
}

bool
tdb_heap_getnextslot(HeapScanDesc scan, TupleTableSlot *slot)
{
    OffsetNumber off;
    ItemId lp;

    if (unlikely(!scan_has_row(scan))) {
        tdb_slot_clear(slot);
        return false;
    }
    /*
     * The row goes to the slot by value (tdb_slot_store_buffer_row): a
     * copy of a handle just written field by field stalled on store
     * forwarding.
     */
    off = scan->vistuples[scan->cindex++];
    lp = tdb_page_get_item_id(scan->cpage, off);
    tdb_slot_store_buffer_row(
        slot, (HeapTupleHeader)tdb_page_get_item(scan->cpage, lp),
        ItemIdGetLength(lp), scan->next_block - 1, off, scan->ctup.t_tableOid,
        scan->cbuf);
    return true;
}

/* ----------------------------------------------------------------------
 * Fetch by TID
 * ---------------------------------------------------------------------- */

/*
 * The row at tid into *tup, its page pinned and share locked in *buf;
 * false (nothing held) if tid names no row: past the end, or a slot
 * without one.
 */
static bool
lock_row_at(Relation rel, const ItemPointerData *tid, HeapTupleData *tup,
            Buffer *buf)
{
    BlockNumber blkno = ItemPointerGetBlockNumber(tid);
    OffsetNumber off = ItemPointerGetOffsetNumber(tid);
    Page page;
    ItemId lp;

    if (!ItemPointerIsValid(tid) || blkno >= tdb_heap_relation_nblocks(rel))
        return false;
    *buf = tdb_buf_read(rel->rd_relfilenumber, blkno, NULL);
    page = tdb_buf_page(*buf);
    tdb_buf_lock(*buf, BUF_LOCK_SHARE);
    if (off < FirstOffsetNumber || off > tdb_page_get_max_offset(page) ||
        !ItemIdIsNormal(lp = tdb_page_get_item_id(page, off))) {
        tdb_buf_unlock_release(*buf);
        return false;
    }
    tup->t_data = (HeapTupleHeader)tdb_page_get_item(page, lp);
    tup->t_len = ItemIdGetLength(lp);
    tup->t_self = *tid;
    tup->t_tableOid = rel->rd_id;
    return true;
}

/*
 * The end of a fetch after lock_row_at: the hint bits the check set
 * marked, the page unlocked, the row stored into slot if store (the
 * slot takes its own pin), the buffer released.
 */
static void
finish_fetch(Buffer buf, HeapTupleData *tup, bool hint, TupleTableSlot *slot,
             bool store)
{
    if (hint)
        tdb_buf_mark_dirty_hint(buf);
    tdb_buf_lock(buf, BUF_LOCK_UNLOCK);
    if (store)
        tdb_slot_store_buffer_tuple(slot, tup, buf);
    tdb_buf_release(buf);
}

bool
tdb_heap_fetch(Relation rel, Snapshot snap, ItemPointer tid,
               TupleTableSlot *slot)
{
    HeapTupleData tup;
    Buffer buf;
    bool visible;
    bool hint = false;

    tdb_slot_clear(slot);
    if (!lock_row_at(rel, tid, &tup, &buf))
        return false;
    visible = tdb_heap_tuple_satisfies_mvcc(tup.t_data, snap, snap->tm, &hint);
    finish_fetch(buf, &tup, hint, slot, visible);
    return visible;
}

TM_Result
tdb_heap_fetch_for_update(Relation rel, Transaction *xact,
                          const ItemPointerData *tid, TupleTableSlot *slot)
{
    HeapTupleData tup;
    Buffer buf;
    TM_Result result;
    bool hint = false;

    tdb_slot_clear(slot);
    if (!lock_row_at(rel, tid, &tup, &buf))
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("no row at (%u,%u) in relation \"%s\"",
                       ItemPointerGetBlockNumber(tid),
                       ItemPointerGetOffsetNumber(tid), rel->rd_name));
    result = tdb_heap_tuple_satisfies_update(
        &tup, tdb_xact_current_command_id(xact, false), xact,
        tdb_xact_manager_of(xact), &hint);
    finish_fetch(buf, &tup, hint, slot, result == TM_OK);
    return result;
}

bool
tdb_heap_tid_is_live_for_unique(Relation rel, Transaction *xact,
                                const ItemPointerData *tid)
{
    HeapTupleData tup;
    Buffer buf;
    bool live;
    bool hint = false;

    if (!lock_row_at(rel, tid, &tup, &buf))
        return false;
    live = tdb_heap_tuple_satisfies_dirty(tup.t_data, xact,
                                          tdb_xact_manager_of(xact), &hint);
    if (hint)
        tdb_buf_mark_dirty_hint(buf);
    tdb_buf_unlock_release(buf);
    return live;
}

/* ----------------------------------------------------------------------
 * Delete and update
 * ---------------------------------------------------------------------- */

/*
 * The row at tid on the exclusively locked page of buf, as a handle;
 * XX001 if tid names no row.
 */
static void
get_row_for_change(Relation rel, Buffer buf, ItemPointer tid,
                   HeapTuple tup)
{
    Page page = tdb_buf_page(buf);
    OffsetNumber off = ItemPointerGetOffsetNumber(tid);
    ItemId lp;

    if (off < FirstOffsetNumber || off > tdb_page_get_max_offset(page) ||
        !ItemIdIsNormal(lp = tdb_page_get_item_id(page, off)))
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("no row at (%u,%u) in relation \"%s\"",
                       ItemPointerGetBlockNumber(tid), off, rel->rd_name));
    tup->t_data = (HeapTupleHeader)tdb_page_get_item(page, lp);
    tup->t_len = ItemIdGetLength(lp);
    tup->t_self = *tid;
    tup->t_tableOid = rel->rd_id;
}

/*
 * Lock the page of tid exclusively and ask whether xact may change the
 * row.  Returns the result with the page still locked (the caller
 * unlocks); on anything but TM_OK, tmfd is filled in.
 */
static TM_Result
lock_row_for_change(Relation rel, ItemPointer tid, Transaction *xact,
                    CommandId cid, Buffer *buf_out, HeapTuple tup,
                    TM_FailureData *tmfd, const char *what)
{
    Buffer buf = tdb_buf_read(rel->rd_relfilenumber,
                              ItemPointerGetBlockNumber(tid), NULL);
    bool hint = false;
    TM_Result result;

    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    *buf_out = buf;
    get_row_for_change(rel, buf, tid, tup);
    result = tdb_heap_tuple_satisfies_update(tup, cid, xact, tdb_xact_manager_of(xact), &hint);
    if (hint)
        tdb_buf_mark_dirty(buf);
    if (result == TM_INVISIBLE) {
        tdb_buf_unlock_release(buf);
        elog(ERROR, "attempted to %s invisible tuple", what);
    }
    if (result != TM_OK) {
        tmfd->ctid = tup->t_data->t_ctid;
        tmfd->xmax = HeapTupleHeaderGetRawXmax(tup->t_data);
        tmfd->cmax = result == TM_SELF_MODIFIED
                         ? tdb_combocid_get_cmax(tup->t_data, xact)
                         : InvalidCommandId;
    }
    return result;
}

TM_Result
tdb_heap_delete(Relation rel, ItemPointer tid, Transaction *xact,
                TM_FailureData *tmfd)
{
    CommandId cid;
    TransactionId xid = begin_write(rel, xact, &cid);
    HeapTupleData tup;
    Buffer buf;
    TM_Result result;

    result = lock_row_for_change(rel, tid, xact, cid, &buf, &tup, tmfd,
                                 "delete");
    if (result == TM_OK) {
        tdb_vm_clear_page(rel, buf);
        stamp_old_version(tup.t_data, xact, xid, cid, tid, true);
        page_set_prunable(tdb_buf_page(buf), xid);
        tdb_buf_mark_dirty(buf);
    }
    tdb_buf_unlock_release(buf);
    return result;
}

TM_Result
tdb_heap_update(Relation rel, ItemPointer otid, HeapTuple newtup,
                Transaction *xact, TM_FailureData *tmfd)
{
    CommandId cid;
    TransactionId xid = begin_write(rel, xact, &cid);
    HeapTupleData oldtup;
    Buffer buf;
    TM_Result result;
    bool same_page;

    prepare_new_version(newtup, rel, xid, cid, true);
    result = lock_row_for_change(rel, otid, xact, cid, &buf, &oldtup, tmfd,
                                 "update");
    if (result != TM_OK) {
        tdb_buf_unlock_release(buf);
        return result;
    }
    same_page = page_has_room(tdb_buf_page(buf), newtup->t_len);
    if (!same_page) {
        /* two steps, one lock at a time (see the file header) */
        Buffer newbuf;

        tdb_buf_unlock_release(buf);
        newbuf = get_page_for_row(rel, newtup->t_len, NULL);
        tdb_vm_clear_page(rel, newbuf);
        place_row(newbuf, newtup);
        tdb_buf_mark_dirty(newbuf);
        tdb_buf_unlock_release(newbuf);
        buf = tdb_buf_read(rel->rd_relfilenumber,
                           ItemPointerGetBlockNumber(otid), NULL);
        tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
        get_row_for_change(rel, buf, otid, &oldtup);
    }
    /* (after two steps: VACUUM may have made the old page all-visible
     * in between) */
    tdb_vm_clear_page(rel, buf);
    if (same_page)
        place_row(buf, newtup);
    stamp_old_version(oldtup.t_data, xact, xid, cid, &newtup->t_self, false);
    page_set_prunable(tdb_buf_page(buf), xid);
    tdb_buf_mark_dirty(buf);
    tdb_buf_unlock_release(buf);
    return TM_OK;
}
