/*
 * vacuum.c -- lazy VACUUM of a heap relation (vacuum.h): PostgreSQL's
 * vacuumlazy.c and pruneheap.c reduced to what tupledb has -- no
 * indexes, no HOT chains, no freezing, no truncation of empty pages at
 * the end.
 *
 * One pass over the pages.  Each page is read through a VACUUM ring (so
 * a large table does not evict the pool), then its cleanup lock is tried
 * once: a page pinned by another thread is skipped.  Under the lock the
 * row versions are classified, the DEAD ones' line pointers set unused
 * and the page compacted in place; line pointers of the rows that stay
 * do not move, only their bytes do -- which is why nobody may hold a
 * pin.  When every page is done, the relation's dirty pages are written
 * and fsynced, and the pages with room are handed to the free space
 * record, those left with no line pointer in use marked empty (the
 * TOAST chunk store reuses runs of them for multi-chunk values; see
 * toast_store.c for why a mark gone stale meanwhile is harmless).
 *
 * The visibility map (visibilitymap.c): a page whose remaining rows are
 * all LIVE with a committed xmin older than the horizon -- visible to
 * every snapshot there is or will be -- gets PD_ALL_VISIBLE under the
 * cleanup lock.  Its map bit is set only after the pass, once the heap
 * pages were flushed and fsynced with the flag: each such page is share
 * locked again, and if it still has the flag (no writer changed it
 * since), the bit is set -- ALL_VISIBLE, and ALL_FROZEN too for a page
 * left without rows, as PostgreSQL 15 does.  tupledb does not freeze, so
 * pages with rows never get ALL_FROZEN.  That order is what makes a set
 * bit never wrong after a crash (visibilitymap.c, invariant 1).
 */
#include "common/base.h"

#include <pthread.h>
#include <stdlib.h>

#include "access/freespace.h"
#include "access/heapam.h"
#include "access/heapam_visibility.h"
#include "access/indexam.h"
#include "access/htup_xact.h"
#include "access/transam.h"
#include "access/vacuum.h"
#include "access/visibilitymap.h"
#include "common/elog.h"
#include "storage/bufmgr.h"
#include "mmgr/mcxt.h"
#include "storage/page.h"

/*
 * The heap TIDs whose line pointers the first pass left LP_DEAD, in TID
 * order: every index loses its entries for them before the second pass
 * makes them LP_UNUSED, so no entry ever points at a later, unrelated
 * row that reuses the slot.
 */
typedef struct DeadItems {
    ItemPointerData *tids;
    int64 n, size;
} DeadItems;

/*
 * One VACUUM of a table with indexes at a time (PostgreSQL's
 * ShareUpdateExclusiveLock conflicts with itself): two would each
 * bulk-delete for TIDs the other may already have freed and a writer
 * reused, removing the new row's entries.
 */
static pthread_mutex_t index_vacuum_lock = PTHREAD_MUTEX_INITIALIZER;

static void heap_vacuum(Relation rel, Transaction *xact,
                        VacuumStats *stats_out);

static void
dead_items_add(DeadItems *d, BlockNumber blkno, OffsetNumber off)
{
    if (d->n == d->size) {
        d->size = d->size == 0 ? 256 : d->size * 2;
        d->tids = d->tids == NULL
                      ? tdb_palloc(sizeof(ItemPointerData) * (Size)d->size)
                      : tdb_repalloc(d->tids,
                                     sizeof(ItemPointerData) * (Size)d->size);
    }
    ItemPointerSet(&d->tids[d->n++], blkno, off);
}

static int
cmp_tid(const void *a, const void *b)
{
    const ItemPointerData *x = a, *y = b;
    BlockNumber bx = ItemPointerGetBlockNumber(x);
    BlockNumber by = ItemPointerGetBlockNumber(y);

    if (bx != by)
        return bx < by ? -1 : 1;
    return (int)ItemPointerGetOffsetNumber(x) -
           (int)ItemPointerGetOffsetNumber(y);
}

/* BTDeadCallback: is htid one of the dead items (arg)? */
static bool
tid_is_dead(const ItemPointerData *htid, void *arg)
{
    const DeadItems *d = arg;

    return bsearch(htid, d->tids, (size_t)d->n, sizeof(ItemPointerData),
                   cmp_tid) != NULL;
}

/* XX001 for a line pointer whose item lies outside the page's items. */
TDB_NORETURN TDB_COLD static void
report_bad_item(Relation rel, BlockNumber blkno, OffsetNumber off)
{
    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("invalid line pointer in block %u of relation \"%s\"",
                   blkno, rel->rd_name),
            errdetail("Item %u lies outside the page's items.", off));
}

/*
 * Prune the cleanup-locked page of buf.  Returns whether the page
 * changed (beyond hint bits, which *hints reports).  *all_visible: every
 * row left is visible to every snapshot (LIVE, xmin committed before the
 * horizon).
 */
static bool
prune_page(Relation rel, Buffer buf, BlockNumber blkno,
           TransactionId oldest_xmin, TransactionManager *tm,
           VacuumStats *stats, DeadItems *collect, bool *hints,
           bool *all_visible)
{
    Page page = tdb_buf_page(buf);
    OffsetNumber maxoff = tdb_page_get_max_offset(page);
    unsigned upper = tdb_page_header_const(page)->pd_upper;
    unsigned special = tdb_page_header_const(page)->pd_special;
    OffsetNumber dead[MaxHeapTuplesPerPage];
    int ndead = 0;
    TransactionId prune_xid = InvalidTransactionId;

    *all_visible = true;
    for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++) {
        ItemId lp = tdb_page_get_item_id(page, off);
        HeapTupleHeader tup;
        TransactionId xmax;

        if (!ItemIdIsUsed(lp))
            continue;
        if (ItemIdIsDead(lp)) {
            /* left by a first pass whose second did not happen (an
             * error in between): with no index to point at it, the slot
             * is simply free; else its index entries go first */
            if (collect != NULL)
                dead_items_add(collect, blkno, off);
            else
                dead[ndead++] = off;
            continue;
        }
        if (!ItemIdIsNormal(lp))
            continue; /* LP_REDIRECT: tupledb writes none either */
        if (ItemIdGetLength(lp) < SizeofHeapTupleHeader ||
            ItemIdGetOffset(lp) < upper ||
            ItemIdGetOffset(lp) + ItemIdGetLength(lp) > special)
            report_bad_item(rel, blkno, off);
        tup = (HeapTupleHeader)tdb_page_get_item(page, lp);
        switch (tdb_heap_tuple_satisfies_vacuum(tup, oldest_xmin, tm, hints)) {
        case HEAPTUPLE_DEAD:
            dead[ndead++] = off;
            break;
        case HEAPTUPLE_RECENTLY_DEAD:
            stats->recently_dead++;
            /* fall through */
        case HEAPTUPLE_DELETE_IN_PROGRESS:
            *all_visible = false;
            /* a later VACUUM may remove it: remember the oldest deleter */
            xmax = HeapTupleHeaderGetRawXmax(tup);
            if (!TransactionIdIsValid(prune_xid) ||
                TransactionIdPrecedes(xmax, prune_xid))
                prune_xid = xmax;
            stats->tuples_remaining++;
            break;
        case HEAPTUPLE_LIVE:
            /* committed; older than the horizon: seen by everybody */
            if (!TransactionIdPrecedes(HeapTupleHeaderGetRawXmin(tup),
                                       oldest_xmin))
                *all_visible = false;
            stats->tuples_remaining++;
            break;
        case HEAPTUPLE_INSERT_IN_PROGRESS:
            *all_visible = false;
            stats->tuples_remaining++;
            break;
        }
    }
    if (ndead == 0)
        return false;

    /* with indexes, only LP_DEAD (no storage) now: the second pass frees
     * the slots once no index entry points at them */
    for (int i = 0; i < ndead; i++)
        if (collect != NULL) {
            tdb_page_item_set_dead(page, dead[i]);
            dead_items_add(collect, blkno, dead[i]);
        } else
            tdb_page_item_set_unused(page, dead[i]);
    /* validates the page before moving a byte; zeroes the freed space */
    tdb_page_compact(page);
    tdb_page_set_prune_xid(page, prune_xid);
    stats->tuples_removed += (uint64)ndead;
    stats->pruned_pages++;
    return true;
}


static int
cmp_avail_desc(const void *a, const void *b)
{
    const FsmPage *pa = a, *pb = b;

    return (pa->avail < pb->avail) - (pa->avail > pb->avail);
}

static int
cmp_blkno(const void *a, const void *b)
{
    const FsmPage *pa = a, *pb = b;

    return (pa->blkno > pb->blkno) - (pa->blkno < pb->blkno);
}

/* A page VACUUM found all-visible, and the map bits it should get. */
typedef struct VisiblePage {
    BlockNumber blkno;
    uint8 flags;
} VisiblePage;

/*
 * Set the map bits of the pages found all-visible (after their flag was
 * flushed: see the file header), each under a share lock on its heap
 * page that finds PD_ALL_VISIBLE still set.  Returns how many it set.
 */
static BlockNumber
set_map_bits(Relation rel, const VisiblePage *pages, uint32 npages,
             BufferAccessStrategy strategy)
{
    Buffer vmbuf = InvalidBuffer;
    BlockNumber nset = 0;

    for (uint32 i = 0; i < npages; i++) {
        Buffer buf;

        /* the map page first: no read or extension under the heap lock */
        tdb_vm_pin(rel, pages[i].blkno, &vmbuf);
        buf = tdb_buf_read(rel->rd_relfilenumber, pages[i].blkno, strategy);
        tdb_buf_lock(buf, BUF_LOCK_SHARE);
        if (tdb_page_flag_is_set(tdb_buf_page(buf), PD_ALL_VISIBLE)) {
            (void)tdb_vm_set(rel, pages[i].blkno, buf, vmbuf, pages[i].flags);
            nset++;
        }
        tdb_buf_unlock_release(buf);
    }
    if (vmbuf != InvalidBuffer)
        tdb_buf_release(vmbuf);
    return nset;
}

/* The free space entry of blkno (free_pages is in block order), or
 * NULL. */
static FsmPage *
find_free_page(FsmPage *free_pages, uint32 nfree, BlockNumber blkno)
{
    uint32 lo = 0, hi = nfree;

    while (lo < hi) {
        uint32 mid = lo + (hi - lo) / 2;

        if (free_pages[mid].blkno == blkno)
            return &free_pages[mid];
        if (free_pages[mid].blkno < blkno)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/*
 * The second pass (PostgreSQL's lazy_vacuum_heap_rel): every index has
 * lost its entries for the dead items, so their line pointers become
 * LP_UNUSED, free for new rows.  Only the slot's state changes, no row
 * moves: the exclusive content lock is enough.  A slot found no longer
 * LP_DEAD (another VACUUM freed it and a writer reused it) is left
 * alone.
 */
static void
free_dead_items(Relation rel, const DeadItems *d, BufferAccessStrategy strategy,
                FsmPage *free_pages, uint32 nfree)
{
    int64 i = 0;

    while (i < d->n) {
        BlockNumber blkno = ItemPointerGetBlockNumber(&d->tids[i]);
        Buffer buf = tdb_buf_read(rel->rd_relfilenumber, blkno, strategy);
        Page page = tdb_buf_page(buf);
        FsmPage *fsm;

        tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
        for (; i < d->n && ItemPointerGetBlockNumber(&d->tids[i]) == blkno;
             i++) {
            OffsetNumber off = ItemPointerGetOffsetNumber(&d->tids[i]);

            if (off <= tdb_page_get_max_offset(page) &&
                ItemIdIsDead(tdb_page_get_item_id(page, off)))
                tdb_page_item_set_unused(page, off);
        }
        tdb_page_flag_set(page, PD_HAS_FREE_LINES);
        tdb_buf_mark_dirty(buf);
        fsm = find_free_page(free_pages, nfree, blkno);
        if (fsm != NULL)
            fsm->empty = tdb_page_has_no_used_items(page);
        tdb_buf_unlock_release(buf);
    }
}

/*
 * Between the passes: every index of rel loses its entries pointing at
 * the dead items, then the items are freed.
 */
static void
vacuum_indexes_and_free(Relation rel, DeadItems *d, TransactionManager *tm,
                        BufferAccessStrategy strategy, FsmPage *free_pages,
                        uint32 nfree)
{
    qsort(d->tids, (size_t)d->n, sizeof(ItemPointerData), cmp_tid);
    for (int i = 0; i < rel->rd_nindexes; i++) {
        (void)tdb_index_bulk_delete(rel, &rel->rd_indexes[i], tid_is_dead, d,
                                    tm);
        /* on disk before any freed slot can be: after a crash no entry
         * may point at a slot a later row reuses (no WAL to redo it) */
        tdb_buf_flush_relation(rel->rd_indexes[i].ri_relfilenumber);
    }
    free_dead_items(rel, d, strategy, free_pages, nfree);
}

void
tdb_heap_vacuum(Relation rel, Transaction *xact, VacuumStats *stats_out)
{
    if (rel->rd_nindexes == 0) {
        heap_vacuum(rel, xact, stats_out);
        return;
    }
    pthread_mutex_lock(&index_vacuum_lock);
    TDB_TRY();
    {
        heap_vacuum(rel, xact, stats_out);
    }
    TDB_CATCH();
    {
        pthread_mutex_unlock(&index_vacuum_lock);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    pthread_mutex_unlock(&index_vacuum_lock);
}

static void
heap_vacuum(Relation rel, Transaction *xact, VacuumStats *stats_out)
{
    TransactionManager *tm = tdb_xact_manager_of(xact);
    RelFileNumber relfile = rel->rd_relfilenumber;
    VacuumStats stats;
    BufferAccessStrategy strategy;
    FsmPage *free_pages;
    uint32 nfree = 0;
    VisiblePage *visible_pages;
    uint32 nvisible = 0;
    bool changed = false;
    /* buffers this thread pinned already (a suspended portal's scan) */
    int own_pins = tdb_buf_pins_held();
    DeadItems dead = {NULL, 0, 0};

    memset(&stats, 0, sizeof(stats));
    /*
     * The horizon, once: snapshots taken later have an xmin at least this
     * old (see tdb_xact_manager_oldest_xmin), so it stays safe for the
     * whole pass, only less and less eager.
     */
    stats.oldest_xmin = tdb_xact_manager_oldest_xmin(tm);
    stats.rel_pages = tdb_heap_relation_nblocks(rel); /* XX001 if damaged */
    strategy = tdb_buf_strategy_create(BUF_STRATEGY_VACUUM);
    free_pages = tdb_palloc(Max(stats.rel_pages, 1) * sizeof(FsmPage));
    visible_pages = tdb_palloc(Max(stats.rel_pages, 1) * sizeof(VisiblePage));

    for (BlockNumber blkno = 0; blkno < stats.rel_pages; blkno++) {
        Buffer buf = tdb_buf_read(relfile, blkno, strategy);
        Page page;
        bool hints = false;
        bool empty;
        bool all_visible = false;
        Size avail;

        /* our own earlier pin on the page (the count of distinct pinned
         * buffers did not grow) is a pointer into it as much as another
         * thread's; else: someone else's pin, leave it for next time */
        if (tdb_buf_pins_held() == own_pins ||
            !tdb_buf_try_lock_for_cleanup(buf)) {
            stats.skipped_pages++;
            tdb_buf_release(buf);
            continue;
        }
        page = tdb_buf_page(buf);
        stats.scanned_pages++;
        if (tdb_page_is_new(page)) {
            tdb_buf_unlock_release(buf);
            continue;
        }
        TDB_TRY();
        {
            bool pruned = prune_page(
                rel, buf, blkno, stats.oldest_xmin, tm, &stats,
                rel->rd_nindexes > 0 ? &dead : NULL, &hints, &all_visible);
            bool flagged = tdb_page_flag_is_set(page, PD_ALL_VISIBLE);

            if (all_visible && !flagged)
                tdb_page_flag_set(page, PD_ALL_VISIBLE);
            else if (!all_visible && flagged)
                tdb_vm_clear_page(rel, buf); /* cannot happen; repair */
            if (pruned || all_visible != flagged) {
                tdb_buf_mark_dirty(buf);
                changed = true;
            } else if (hints)
                tdb_buf_mark_dirty_hint(buf);
        }
        TDB_CATCH();
        {
            tdb_buf_unlock_release(buf);
            tdb_buf_strategy_free(strategy);
            TDB_RE_THROW();
        }
        TDB_END_TRY();
        avail = tdb_page_get_heap_free_space(page);
        /* decided under the cleanup lock: no row on it now, and only a
         * writer-lock holder can add one (toast_store.c relies on it) */
        empty = tdb_page_has_no_used_items(page);
        tdb_buf_unlock_release(buf);
        if (all_visible) {
            visible_pages[nvisible].blkno = blkno;
            visible_pages[nvisible].flags =
                empty ? VISIBILITYMAP_ALL_VISIBLE | VISIBILITYMAP_ALL_FROZEN
                      : VISIBILITYMAP_ALL_VISIBLE;
            nvisible++;
        }
        if (avail >= FSM_MIN_FREE) {
            free_pages[nfree].blkno = blkno;
            free_pages[nfree].avail = (uint16)avail;
            free_pages[nfree].empty = empty;
            nfree++;
        }
    }

    if (dead.n > 0) {
        TDB_TRY();
        {
            vacuum_indexes_and_free(rel, &dead, tm, strategy, free_pages,
                                    nfree);
        }
        TDB_CATCH();
        {
            tdb_buf_strategy_free(strategy);
            TDB_RE_THROW();
        }
        TDB_END_TRY();
        changed = true;
        tdb_pfree(dead.tids);
    } else {
        /* nothing to remove: the indexes may still have deleted pages
         * to record for reuse */
        for (int i = 0; i < rel->rd_nindexes; i++) {
            tdb_index_vacuum_cleanup(rel, &rel->rd_indexes[i], tm);
            tdb_buf_flush_relation(rel->rd_indexes[i].ri_relfilenumber);
        }
    }

    /* written and fsynced like a commit's pages (no WAL; vacuum.h); the
     * flags of all-visible pages must be on disk before their map bits */
    if (changed)
        tdb_buf_flush_relation(relfile);
    (void)set_map_bits(rel, visible_pages, nvisible, strategy);
    tdb_vm_count(rel, &stats.all_visible_pages, NULL);
    tdb_buf_strategy_free(strategy);
    tdb_pfree(visible_pages);

    /* the most room first if not all fit, then in block order */
    if (nfree > FSM_MAX_PAGES) {
        qsort(free_pages, nfree, sizeof(FsmPage), cmp_avail_desc);
        nfree = FSM_MAX_PAGES;
        qsort(free_pages, nfree, sizeof(FsmPage), cmp_blkno);
    }
    tdb_fsm_set_relation(relfile, free_pages, nfree);
    stats.fsm_pages = nfree;
    tdb_pfree(free_pages);
    if (stats_out != NULL)
        *stats_out = stats;
}
