/*
 * nbtpage.c -- B-tree pages: initializing pages and the metapage, reading
 * pages through the buffer pool with a sanity check of every page read
 * (special space, flags, level; XX002 naming the index otherwise), new
 * pages at the end of the relation, the root (created by the first
 * insert), removing items, bulk delete for VACUUM and the structure
 * check (tdb_bt_check).
 */
#include "common/base.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "access/freespace.h"
#include "access/nbtree_int.h"
#include "access/xact.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"

void
tdb_bt_page_init(Page page, uint32 level, uint16 flags)
{
    BTPageOpaque o;

    tdb_page_init(page, sizeof(BTPageOpaqueData));
    o = bt_opaque(page);
    o->btpo_prev = o->btpo_next = P_NONE;
    o->btpo_level = level;
    o->btpo_flags = flags;
    o->btpo_cycleid = 0;
}

void
tdb_bt_init_metapage(Page page, BlockNumber root, uint32 level,
                     bool allequalimage)
{
    BTMetaPageData *m;

    tdb_bt_page_init(page, 0, BTP_META);
    m = bt_metadata(page);
    m->btm_magic = BTREE_MAGIC;
    m->btm_version = BTREE_VERSION;
    m->btm_root = root;
    m->btm_level = level;
    m->btm_fastroot = root;
    m->btm_fastlevel = level;
    m->btm_last_cleanup_num_delpages = 0;
    m->btm_last_cleanup_num_heap_tuples = -1.0;
    m->btm_allequalimage = allequalimage;
    tdb_page_header(page)->pd_lower =
        (LocationIndex)((char *)m + sizeof(BTMetaPageData) - page);
}

/*
 * Add itup (itemsz bytes) at offset off of page, shifting the later line
 * pointers; with newfirstdataitem (the first data item of an internal
 * page) only its downlink is kept: the "minus infinity" pivot.
 */
void
tdb_bt_page_add_tuple(Page page, IndexTuple itup, Size itemsz, OffsetNumber off,
                      bool newfirstdataitem)
{
    IndexTupleData trunc;

    if (newfirstdataitem) {
        trunc = *itup;
        trunc.t_info = sizeof(IndexTupleData);
        bt_tuple_set_natts(&trunc, 0, false);
        itup = &trunc;
        itemsz = sizeof(IndexTupleData);
    }
    if (tdb_page_add_item(page, itup, itemsz, off, 0) == InvalidOffsetNumber)
        elog(ERROR, "failed to add item to the index page");
}

/*
 * The cheap check of every page read: a btree special space, no unknown
 * flag, a level that agrees with the leaf flag, sane page pointers.
 */
void
tdb_bt_check_page(const BTIndexData *idx, Page page, BlockNumber blk)
{
    const PageHeaderData *h = tdb_page_header_const(page);
    BTPageOpaque o;

    if (tdb_page_is_new(page))
        ereport(ERROR, errcode(ERRCODE_INDEX_CORRUPTED),
                errmsg("index \"%s\" contains unexpected zero page at block "
                       "%u",
                       idx->name, blk),
                errhint("Please REINDEX it."));
    if (h->pd_special != BLCKSZ - MAXALIGN(sizeof(BTPageOpaqueData)) ||
        h->pd_lower < SizeOfPageHeaderData || h->pd_lower > h->pd_upper ||
        h->pd_upper > h->pd_special)
        tdb_bt_raise_corrupt(idx, blk,
                             "The page header or special space is invalid.");
    o = bt_opaque(page);
    if (o->btpo_flags & ~(BTP_LEAF | BTP_ROOT | BTP_META | BTP_HAS_GARBAGE |
                          BTP_INCOMPLETE_SPLIT | BTP_SPLIT_END | BTP_DELETED |
                          BTP_HALF_DEAD | BTP_HAS_FULLXID))
        tdb_bt_raise_corrupt(idx, blk,
                             "The page has invalid or unsupported flags.");
    if (blk == BTREE_METAPAGE) {
        const BTMetaPageData *m = bt_metadata(page);

        /* PostgreSQL's _bt_getmeta messages */
        if (!(o->btpo_flags & BTP_META) || m->btm_magic != BTREE_MAGIC)
            ereport(ERROR, errcode(ERRCODE_INDEX_CORRUPTED),
                    errmsg("index \"%s\" is not a btree", idx->name));
        if (m->btm_version != BTREE_VERSION)
            ereport(ERROR, errcode(ERRCODE_INDEX_CORRUPTED),
                    errmsg("version mismatch in index \"%s\": file version "
                           "%d, current version %d, minimal supported "
                           "version %d",
                           idx->name, (int)m->btm_version, BTREE_VERSION,
                           BTREE_MIN_VERSION));
        if (m->btm_root == BTREE_METAPAGE ? m->btm_level != 0
                                          : m->btm_fastroot == BTREE_METAPAGE)
            tdb_bt_raise_corrupt(idx, blk, "The metapage's root is invalid.");
        return;
    }
    if ((o->btpo_flags & BTP_META) || P_ISLEAF(o) != (o->btpo_level == 0))
        tdb_bt_raise_corrupt(idx, blk, "The page's level and flags disagree.");
    if (P_ISDELETED(o) &&
        (!(o->btpo_flags & BTP_HAS_FULLXID) || (o->btpo_flags & BTP_ROOT) ||
         h->pd_lower !=
             MAXALIGN(SizeOfPageHeaderData) + sizeof(BTDeletedPageData)))
        tdb_bt_raise_corrupt(idx, blk, "A deleted page is malformed.");
    if (o->btpo_next == blk || o->btpo_prev == blk)
        tdb_bt_raise_corrupt(idx, blk, "The page links to itself.");
}

Buffer
tdb_bt_getbuf(const BTIndexData *idx, BlockNumber blk, BufferLockMode mode)
{
    Buffer buf = tdb_buf_read(idx->relfilenumber, blk, NULL);

    tdb_buf_lock(buf, mode);
    TDB_TRY();
    {
        tdb_bt_check_page(idx, tdb_buf_page(buf), blk);
    }
    TDB_CATCH();
    {
        tdb_buf_unlock_release(buf);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    return buf;
}

/* ----------------------------------------------------------------------
 * Free pages and VACUUM cycle ids
 * ---------------------------------------------------------------------- */

/*
 * Free index pages live in the free space record (freespace.h) as pages
 * with this much room, which no heap page has: VACUUM records the
 * deleted pages it found reusable, a split takes the lowest.
 */
#define BT_FSM_AVAIL (BLCKSZ - 1)

/* May the deleted page be reused: no scan can still be on it? */
static bool
page_recyclable(const BTIndexData *idx, Page page, TransactionId horizon)
{
    const PageHeaderData *h = tdb_page_header_const(page);
    BTPageOpaque o;

    (void)idx;
    if (tdb_page_is_new(page))
        return true;
    if (h->pd_special != BLCKSZ - MAXALIGN(sizeof(BTPageOpaqueData)))
        return false;
    o = bt_opaque(page);
    return P_ISDELETED(o) && (o->btpo_flags & BTP_HAS_FULLXID) &&
           TransactionIdPrecedes(bt_page_safexid(page), horizon);
}

/*
 * A new page, pinned and exclusively locked (the caller initializes it):
 * a free page VACUUM recorded, checked under its lock to be still
 * deleted and reusable (or never initialized), else a new one at the end
 * of the relation.  The caller may hold other pages' locks: a recorded
 * page someone else has locked is passed over, not waited for.
 */
Buffer
tdb_bt_newbuf(const BTIndexData *idx, BlockNumber *blk)
{
    RelFileNumber rel = idx->relfilenumber;

    if (idx->tm != NULL) {
        BlockNumber nblocks = tdb_buf_relation_nblocks(rel);
        TransactionId horizon = InvalidTransactionId;

        for (;;) {
            BlockNumber b = tdb_fsm_get_page(rel, BT_FSM_AVAIL, nblocks);
            Buffer buf;

            if (b == InvalidBlockNumber || b == BTREE_METAPAGE)
                break;
            tdb_fsm_record(rel, b, 0); /* taken, whatever we find */
            if (horizon == InvalidTransactionId)
                horizon = tdb_xact_manager_oldest_xmin(idx->tm);
            buf = tdb_buf_read(rel, b, NULL);
            if (tdb_buf_try_lock(buf, BUF_LOCK_EXCLUSIVE)) {
                if (page_recyclable(idx, tdb_buf_page(buf), horizon)) {
                    *blk = b;
                    return buf;
                }
                tdb_buf_lock(buf, BUF_LOCK_UNLOCK);
            }
            tdb_buf_release(buf);
        }
    }
    return tdb_buf_extend(rel, NULL, blk);
}

/*
 * The cycle ids of the bulk deletes running now (PostgreSQL's
 * btvacinfo), process-wide under bt_vacuum_lock.  A split stamps both
 * halves with the cycle id of a bulk delete of its index running at
 * that moment; the bulk delete, which visits blocks in physical order,
 * comes back for a right half that went to a block it had passed.
 */
#define BT_MAX_VACUUMS 16
#define BT_MAX_CYCLE_ID 0xFF7F

static pthread_mutex_t bt_vacuum_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    RelFileNumber rel;
    uint16 cycleid;
} bt_vacuums[BT_MAX_VACUUMS];
static int bt_nvacuums;
static uint16 bt_last_cycleid;

uint16
tdb_bt_vacuum_cycleid(RelFileNumber rel)
{
    uint16 id = 0;

    pthread_mutex_lock(&bt_vacuum_lock);
    for (int i = 0; i < bt_nvacuums; i++)
        if (bt_vacuums[i].rel == rel)
            id = bt_vacuums[i].cycleid;
    pthread_mutex_unlock(&bt_vacuum_lock);
    return id;
}

static uint16
vacuum_cycle_start(const BTIndexData *idx)
{
    uint16 id = 0;
    bool busy = false;

    pthread_mutex_lock(&bt_vacuum_lock);
    for (int i = 0; i < bt_nvacuums; i++)
        busy |= bt_vacuums[i].rel == idx->relfilenumber;
    if (!busy && bt_nvacuums < BT_MAX_VACUUMS) {
        bt_last_cycleid = (uint16)(bt_last_cycleid % BT_MAX_CYCLE_ID + 1);
        id = bt_last_cycleid;
        bt_vacuums[bt_nvacuums].rel = idx->relfilenumber;
        bt_vacuums[bt_nvacuums].cycleid = id;
        bt_nvacuums++;
    }
    pthread_mutex_unlock(&bt_vacuum_lock);
    if (busy)
        elog(ERROR, "multiple active vacuums for index \"%s\"", idx->name);
    if (id == 0)
        elog(ERROR, "out of btvacinfo slots");
    return id;
}

static void
vacuum_cycle_end(RelFileNumber rel)
{
    pthread_mutex_lock(&bt_vacuum_lock);
    for (int i = 0; i < bt_nvacuums; i++)
        if (bt_vacuums[i].rel == rel) {
            bt_vacuums[i] = bt_vacuums[--bt_nvacuums];
            break;
        }
    pthread_mutex_unlock(&bt_vacuum_lock);
}

void
tdb_bt_create_empty(BTIndex idx)
{
    BlockNumber blk;
    Buffer buf = tdb_bt_newbuf(idx, &blk);

    if (blk != BTREE_METAPAGE) {
        tdb_buf_unlock_release(buf);
        elog(ERROR, "index \"%s\" already contains data", idx->name);
    }
    tdb_bt_init_metapage(tdb_buf_page(buf), P_NONE, 0, idx->allequalimage);
    tdb_buf_mark_dirty(buf);
    tdb_buf_unlock_release(buf);
}

/*
 * The root page, locked in mode (pinned), or InvalidBuffer if the index
 * is empty and create is false.  With create, the first leaf is made the
 * root (the caller holds the writer lock).  The root found may have split
 * since the metapage was read: callers move right.
 */
Buffer
tdb_bt_getroot(BTIndex idx, bool create, BufferLockMode mode)
{
    BlockNumber cached = __atomic_load_n(&idx->cached_root, __ATOMIC_RELAXED);
    Buffer meta;

    if (cached != P_NONE) {
        /* still the root? (a root that split has lost BTP_ROOT; the
         * page's lock orders this test with the split that changed it) */
        Buffer buf = tdb_bt_getbuf(idx, cached, mode);

        if (bt_opaque(tdb_buf_page(buf))->btpo_flags & BTP_ROOT)
            return buf;
        tdb_buf_unlock_release(buf);
        __atomic_store_n(&idx->cached_root, P_NONE, __ATOMIC_RELAXED);
    }
    meta = tdb_bt_getbuf(idx, BTREE_METAPAGE, BUF_LOCK_SHARE);
    BTMetaPageData *m = bt_metadata(tdb_buf_page(meta));
    BlockNumber root = m->btm_root;
    uint32 level;
    Buffer buf;

    if (root == P_NONE) {
        BlockNumber blk;
        Page page;

        tdb_buf_unlock_release(meta);
        if (!create)
            return InvalidBuffer;
        meta = tdb_bt_getbuf(idx, BTREE_METAPAGE, BUF_LOCK_EXCLUSIVE);
        m = bt_metadata(tdb_buf_page(meta));
        if (m->btm_root != P_NONE) { /* cannot happen with one writer */
            root = m->btm_root;
            tdb_buf_unlock_release(meta);
            return tdb_bt_getbuf(idx, root, mode);
        }
        buf = tdb_bt_newbuf(idx, &blk);
        page = tdb_buf_page(buf);
        tdb_bt_page_init(page, 0, BTP_LEAF | BTP_ROOT);
        tdb_buf_mark_dirty(buf);
        m->btm_root = m->btm_fastroot = blk;
        m->btm_level = m->btm_fastlevel = 0;
        m->btm_last_cleanup_num_delpages = 0;
        m->btm_last_cleanup_num_heap_tuples = -1.0;
        tdb_buf_mark_dirty(meta);
        tdb_buf_unlock_release(meta);
        if (mode != BUF_LOCK_EXCLUSIVE) {
            tdb_buf_lock(buf, BUF_LOCK_UNLOCK);
            tdb_buf_lock(buf, mode);
        }
        return buf;
    }
    level = m->btm_level;
    tdb_buf_unlock_release(meta);
    buf = tdb_bt_getbuf(idx, root, mode);
    if (bt_opaque(tdb_buf_page(buf))->btpo_level != level) {
        tdb_buf_unlock_release(buf);
        tdb_bt_raise_corrupt(idx, root,
                             "The root page's level is not the metapage's.");
    }
    __atomic_store_n(&idx->cached_root, root, __ATOMIC_RELAXED);
    return buf;
}

int
tdb_bt_tree_height(BTIndex idx)
{
    Buffer meta = tdb_bt_getbuf(idx, BTREE_METAPAGE, BUF_LOCK_SHARE);
    int level = (int)bt_metadata(tdb_buf_page(meta))->btm_fastlevel;

    tdb_buf_unlock_release(meta);
    return level;
}

/*
 * Remove the items offs[0..n-1] (ascending) from page and pack the rest
 * against the special space in their physical order (PostgreSQL's
 * PageIndexMultiDelete); the freed bytes are zeroed.
 */
void
tdb_bt_delete_items(Page page, const OffsetNumber *offs, int n)
{
    PGAlignedBlock tmp;
    PageHeader h = tdb_page_header(page);
    OffsetNumber maxoff = tdb_page_get_max_offset(page);
    ItemIdData *lps = tdb_palloc(sizeof(ItemIdData) * (Size)(maxoff + 1));
    int *order = tdb_palloc(sizeof(int) * (Size)(maxoff + 1));
    int nkeep = 0, j = 0;
    unsigned upper = h->pd_special;

    for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++) {
        if (j < n && offs[j] == off) {
            j++;
            continue;
        }
        lps[nkeep++] = *tdb_page_get_item_id(page, off);
    }
    /* physical order: highest lp_off first */
    for (int i = 0; i < nkeep; i++)
        order[i] = i;
    for (int i = 1; i < nkeep; i++) {
        int v = order[i], k = i;

        while (k > 0 && lps[order[k - 1]].lp_off < lps[v].lp_off) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = v;
    }
    memcpy(tmp.data, page, BLCKSZ);
    memset(page + SizeOfPageHeaderData, 0,
           h->pd_special - SizeOfPageHeaderData);
    for (int i = 0; i < nkeep; i++) {
        ItemIdData *lp = &lps[order[i]];
        unsigned len = MAXALIGN(lp->lp_len);

        upper -= len;
        memcpy(page + upper, tmp.data + lp->lp_off, lp->lp_len);
        lp->lp_off = upper & 0x7FFF;
    }
    memcpy(h->pd_linp, lps, sizeof(ItemIdData) * (Size)nkeep);
    h->pd_lower = (LocationIndex)(SizeOfPageHeaderData +
                                  sizeof(ItemIdData) * (Size)nkeep);
    h->pd_upper = (LocationIndex)upper;
    tdb_pfree(lps);
    tdb_pfree(order);
}

/* ----------------------------------------------------------------------
 * Bulk delete
 * ---------------------------------------------------------------------- */

/*
 * Vacuum one leaf page (exclusively locked): returns the number of heap
 * TIDs removed, adds the kept ones to *kept.  Items are rewritten in
 * place: dead ones dropped, posting lists shrunk.
 */
static int64
vacuum_leaf(const BTIndexData *idx, Page page, BTDeadCallback is_dead,
            void *arg, int64 *kept)
{
    BTPageOpaque o = bt_opaque(page);
    OffsetNumber maxoff = tdb_page_get_max_offset(page);
    OffsetNumber *dels = tdb_palloc(sizeof(OffsetNumber) * (Size)(maxoff + 1));
    int ndel = 0;
    int64 removed = 0;
    bool changed = false;
    ItemPointerData *live =
        tdb_palloc(sizeof(ItemPointerData) * BT_MAX_TIDS_PER_PAGE);

    /* all of it before changing any of it */
    bt_page_items_checked(idx, page);

    for (OffsetNumber off = P_FIRSTDATAKEY(o); off <= maxoff; off++) {
        IndexTuple t = bt_page_item_checked(idx, page, off);

        if (!bt_tuple_is_posting(t)) {
            if (is_dead(&t->t_tid, arg)) {
                dels[ndel++] = off;
                removed++;
            } else {
                (*kept)++;
            }
        } else {
            int n = bt_tuple_nposting(t), nlive = 0;

            for (int i = 0; i < n; i++)
                if (!is_dead(bt_tuple_posting_n(t, i), arg))
                    live[nlive++] = *bt_tuple_posting_n(t, i);
            removed += n - nlive;
            *kept += nlive;
            if (nlive == 0) {
                dels[ndel++] = off;
            } else if (nlive < n) {
                /* the shrunk tuple is smaller: overwrite in place, the
                 * tail of the old bytes zeroed */
                IndexTuple nt = tdb_bt_form_posting(t, live, nlive);
                ItemIdData *lp = tdb_page_get_item_id(page, off);
                Size oldlen = lp->lp_len;

                memset(t, 0, oldlen);
                memcpy(t, nt, IndexTupleSize(nt));
                lp->lp_len = IndexTupleSize(nt) & 0x7FFF;
                tdb_pfree(nt);
                changed = true;
            }
        }
    }
    if (ndel > 0 || changed) {
        /* repack so shrunk tuples' freed tails become free space */
        tdb_bt_delete_items(page, dels, ndel);
        o->btpo_flags &= (uint16)~BTP_HAS_GARBAGE;
    }
    tdb_pfree(dels);
    tdb_pfree(live);
    return removed;
}

/* ----------------------------------------------------------------------
 * Page deletion (PostgreSQL's nbtpage.c algorithm)
 *
 * An empty leaf that is not the rightmost of its level goes in two
 * steps.  (1) Half-dead: holding the leaf and then its parent, the
 * parent's downlink to it is pointed at its right sibling and the
 * sibling's own downlink (the next item) removed, so the right sibling
 * takes over the leaf's key range; the leaf is flagged BTP_HALF_DEAD and
 * its high key replaced by a 0-attribute tuple naming the top of the
 * subtree being deleted.  A leaf that is the only child of its parent
 * takes the parent along (and so on up while the page is an only
 * child): the downlink removed is then the one to the topmost such page,
 * whose parent must keep another child, and a page that is the last
 * child of a parent with more (or the child of a rightmost only-child
 * chain) is not deleted.  (2) Unlinked, one page at a time from the top
 * of the subtree down to the leaf: holding its left sibling, the page
 * and its right sibling (left to right, as splits lock), the siblings
 * are linked to each other and the page becomes BTP_DELETED with the
 * next xid (BTDeletedPageData).  Its own links stay, so a reader that
 * arrives late steps right past it (P_IGNORE), and the page is reused
 * only once that xid precedes the horizon: no scan or descent that
 * could have read a link to it is still running.
 *
 * Without a WAL, a crash can leave any subset of one step's page writes
 * on disk (each page is written whole).  What a reader can meet then:
 *   - the parent changed but not the leaf: an empty, live leaf without a
 *     downlink, still on its level's chain; readers pass through it,
 *     its range's inserts go to its right sibling; a later VACUUM finds
 *     no downlink and leaves it (harmless, never reused);
 *   - the leaf half-dead but the parent unchanged: the parent's downlink
 *     leads to a page readers step right from, to the sibling that would
 *     have taken the range; VACUUM leaves half-dead pages it did not
 *     mark itself alone (it cannot tell whether a downlink still points
 *     at them, so it never unlinks or reuses them);
 *   - part of an unlink: a sibling's link still naming the deleted page,
 *     which readers step past by its own right link (backward scans pass
 *     it by its left link: walk_left in nbtsearch.c).
 * No state makes a reader follow a link to a page that was reused, since
 * reuse needs a recorded xid older than the horizon, which only a
 * completed unlink writes.
 * ---------------------------------------------------------------------- */

typedef struct PendingPage {
    BlockNumber blkno;
    TransactionId safexid;
} PendingPage;

typedef struct VacState {
    BTIndex idx;
    BTDeadCallback is_dead; /* NULL: cleanup only */
    void *arg;
    uint16 cycleid;
    bool delete_pages;     /* idx->tm is set */
    TransactionId horizon; /* at the start of the pass */
    int64 removed, kept;
    FsmPage *free; /* reusable deleted pages, block order */
    uint32 nfree, maxfree;
    PendingPage *pending; /* pages deleted by this pass */
    uint32 npending, maxpending;
    BlockNumber ndeleted; /* deleted pages found (not free) */
    BlockNumber pages_deleted;
    BTStackData
        *map; /* per block: its parent and downlink (build_parent_map) */
    BlockNumber nmap;
} VacState;

static _Thread_local BTVacuumStats bt_last_stats;

void
tdb_bt_last_vacuum_stats(BTVacuumStats *stats)
{
    *stats = bt_last_stats;
}

static void
add_free(VacState *vs, BlockNumber blkno)
{
    if (vs->nfree == vs->maxfree) {
        vs->maxfree = vs->maxfree == 0 ? 64 : vs->maxfree * 2;
        vs->free = vs->free == NULL
                       ? tdb_palloc(sizeof(FsmPage) * vs->maxfree)
                       : tdb_repalloc(vs->free, sizeof(FsmPage) * vs->maxfree);
    }
    vs->free[vs->nfree].blkno = blkno;
    vs->free[vs->nfree].avail = BT_FSM_AVAIL;
    vs->free[vs->nfree].empty = true;
    vs->nfree++;
}

static void
add_pending(VacState *vs, BlockNumber blkno, TransactionId safexid)
{
    if (vs->npending == vs->maxpending) {
        vs->maxpending = vs->maxpending == 0 ? 64 : vs->maxpending * 2;
        vs->pending = vs->pending == NULL
                          ? tdb_palloc(sizeof(PendingPage) * vs->maxpending)
                          : tdb_repalloc(vs->pending,
                                         sizeof(PendingPage) * vs->maxpending);
    }
    vs->pending[vs->npending].blkno = blkno;
    vs->pending[vs->npending].safexid = safexid;
    vs->npending++;
}

/* Make page (exclusively locked, its links already bypassed) deleted. */
static void
page_set_deleted(Page page, TransactionId safexid)
{
    PageHeader h = tdb_page_header(page);
    BTPageOpaque o = bt_opaque(page);
    uint64 full = safexid; /* epoch 0 */

    o->btpo_flags &= (uint16)~BTP_HALF_DEAD;
    o->btpo_flags |= BTP_DELETED | BTP_HAS_FULLXID;
    o->btpo_cycleid = 0;
    memset(page + SizeOfPageHeaderData, 0,
           h->pd_special - SizeOfPageHeaderData);
    memcpy(page + MAXALIGN(SizeOfPageHeaderData), &full, sizeof(full));
    h->pd_lower =
        (LocationIndex)(MAXALIGN(SizeOfPageHeaderData) + sizeof(full));
    h->pd_upper = h->pd_special;
}

/* Is the left sibling of page target the left half of a split whose
 * downlink to target is not in the parent yet (then target must stay)? */
static bool
leftsib_incomplete_split(BTIndex idx, BlockNumber leftsib, BlockNumber target)
{
    Buffer buf;
    BTPageOpaque o;
    bool r;

    if (leftsib == P_NONE)
        return false;
    buf = tdb_bt_getbuf(idx, leftsib, BUF_LOCK_SHARE);
    o = bt_opaque(tdb_buf_page(buf));
    r = o->btpo_next == target && P_INCOMPLETE_SPLIT(o);
    tdb_buf_unlock_release(buf);
    return r;
}

/* Is page blk half-dead (a deletion in progress)? */
static bool
page_is_halfdead(BTIndex idx, BlockNumber blk)
{
    Buffer buf = tdb_bt_getbuf(idx, blk, BUF_LOCK_SHARE);
    bool r = P_ISHALFDEAD(bt_opaque(tdb_buf_page(buf)));

    tdb_buf_unlock_release(buf);
    return r;
}

/*
 * Lock the parent that keeps a downlink to the subtree whose deletion
 * starts at child (found through stack): *pbuf exclusively locked, *poff
 * the downlink, which is not the parent's last.  Going up while child is
 * its parent's only child, *top and *toprightsib become that parent and
 * its right sibling.  false (nothing locked) if the subtree cannot go.
 * The caller holds the leaf's lock.
 */
static bool
lock_subtree_parent(BTIndex idx, BlockNumber child, BTStack stack, Buffer *pbuf,
                    OffsetNumber *poff, BlockNumber *top,
                    BlockNumber *toprightsib)
{
    for (;;) {
        Buffer buf;
        Page page;
        BTPageOpaque o;
        OffsetNumber off, maxoff;
        BlockNumber parent, leftsib;

        if (stack == NULL)
            return false;
        buf = tdb_bt_getstackbuf(idx, stack, child, &off, true);
        if (buf == InvalidBuffer)
            return false;
        page = tdb_buf_page(buf);
        o = bt_opaque(page);
        maxoff = tdb_page_get_max_offset(page);
        if (P_INCOMPLETE_SPLIT(o)) {
            tdb_buf_unlock_release(buf);
            return false;
        }
        if (off < maxoff) {
            *pbuf = buf;
            *poff = off;
            return true;
        }
        /* the last downlink: the parent goes too if this is its only one */
        if (off != P_FIRSTDATAKEY(o) || P_RIGHTMOST(o) ||
            (o->btpo_flags & BTP_ROOT)) {
            tdb_buf_unlock_release(buf);
            return false;
        }
        parent = tdb_buf_block_number(buf);
        leftsib = o->btpo_prev;
        *top = parent;
        *toprightsib = o->btpo_next;
        /* no downlink can be added to it while we hold the leaf */
        tdb_buf_unlock_release(buf);
        if (leftsib_incomplete_split(idx, leftsib, parent))
            return false;
        child = parent;
        stack = stack->parent;
    }
}

/*
 * Step (1) for the empty leaf in leafbuf (exclusively locked, kept so).
 * false if it cannot be deleted now.
 */
static bool
mark_halfdead(BTIndex idx, Buffer leafbuf, BTStack stack)
{
    Page page = tdb_buf_page(leafbuf);
    BTPageOpaque o = bt_opaque(page);
    BlockNumber leafblk = tdb_buf_block_number(leafbuf);
    BlockNumber top = leafblk, toprightsib = o->btpo_next;
    Buffer pbuf;
    OffsetNumber poff, nextoff;
    Page ppage;
    IndexTupleData dummy;

    if (page_is_halfdead(idx, o->btpo_next))
        return false;
    if (!lock_subtree_parent(idx, leafblk, stack, &pbuf, &poff, &top,
                             &toprightsib))
        return false;
    ppage = tdb_buf_page(pbuf);
    nextoff = (OffsetNumber)(poff + 1);
    if (bt_tuple_downlink(bt_page_item_checked(idx, ppage, nextoff)) !=
        toprightsib) {
        /* the parent's next child is not the subtree's right sibling:
         * not ours to fix here (PostgreSQL raises); leave the page */
        tdb_buf_unlock_release(pbuf);
        return false;
    }
    /* nothing below raises: the parent, then the leaf */
    bt_tuple_set_downlink(bt_page_item(ppage, poff), toprightsib);
    tdb_bt_delete_items(ppage, &nextoff, 1);
    tdb_buf_mark_dirty(pbuf);

    memset(&dummy, 0, sizeof(dummy));
    dummy.t_info = sizeof(IndexTupleData);
    bt_tuple_set_natts(&dummy, 0, false);
    bt_tuple_set_downlink(&dummy, top == leafblk ? InvalidBlockNumber : top);
    {
        OffsetNumber hikey = P_HIKEY;

        tdb_bt_delete_items(page, &hikey, 1);
    }
    tdb_bt_page_add_tuple(page, &dummy, sizeof(dummy), P_HIKEY, false);
    o->btpo_flags |= BTP_HALF_DEAD;
    tdb_buf_mark_dirty(leafbuf);
    tdb_buf_unlock_release(pbuf);
    return true;
}

/* unlink_halfdead found a link not as expected: release the siblings
 * and the target (lbuf, rbuf may be invalid), keep the leaf locked. */
static bool
unlink_give_up(Buffer leafbuf, Buffer lbuf, Buffer tbuf, Buffer rbuf)
{
    if (rbuf != InvalidBuffer)
        tdb_buf_unlock_release(rbuf);
    if (tbuf != leafbuf)
        tdb_buf_unlock_release(tbuf);
    if (lbuf != InvalidBuffer)
        tdb_buf_unlock_release(lbuf);
    if (tbuf != leafbuf)
        tdb_buf_lock(leafbuf, BUF_LOCK_EXCLUSIVE);
    return false;
}

/*
 * Step (2) for the top page of the half-dead leaf's subtree (the leaf
 * itself at last); leafbuf is pinned and exclusively locked on entry and
 * exit.  false if a link is not as expected (the deletion stays
 * half-done, which readers tolerate).
 */
static bool
unlink_halfdead(VacState *vs, Buffer leafbuf)
{
    BTIndex idx = vs->idx;
    Page leafpage = tdb_buf_page(leafbuf);
    BTPageOpaque lo = bt_opaque(leafpage);
    BlockNumber leafblk = tdb_buf_block_number(leafbuf);
    BlockNumber target = bt_tuple_downlink(bt_page_item(leafpage, P_HIKEY));
    BlockNumber leftsib, rightsib, nextchild = P_NONE;
    Buffer lbuf = InvalidBuffer, tbuf, rbuf;
    Page tpage;
    BTPageOpaque to;
    TransactionId safexid;

    if (target == InvalidBlockNumber)
        target = leafblk;
    if (target != leafblk) {
        Buffer b = tdb_bt_getbuf(idx, target, BUF_LOCK_SHARE);

        leftsib = bt_opaque(tdb_buf_page(b))->btpo_prev;
        tdb_buf_unlock_release(b);
    } else {
        leftsib = lo->btpo_prev;
    }
    /* left to right, as splits lock: drop the leaf first */
    tdb_buf_lock(leafbuf, BUF_LOCK_UNLOCK);
    if (leftsib != P_NONE) {
        lbuf = tdb_bt_getbuf(idx, leftsib, BUF_LOCK_EXCLUSIVE);
        for (;;) {
            BTPageOpaque o = bt_opaque(tdb_buf_page(lbuf));

            if (!P_ISDELETED(o) && o->btpo_next == target)
                break;
            if (P_RIGHTMOST(o)) {
                tdb_buf_unlock_release(lbuf);
                tdb_buf_lock(leafbuf, BUF_LOCK_EXCLUSIVE);
                return false;
            }
            leftsib = o->btpo_next;
            tdb_buf_unlock_release(lbuf);
            lbuf = tdb_bt_getbuf(idx, leftsib, BUF_LOCK_EXCLUSIVE);
        }
    }
    if (target == leafblk) {
        tdb_buf_lock(leafbuf, BUF_LOCK_EXCLUSIVE);
        tbuf = leafbuf;
    } else {
        tbuf = tdb_bt_getbuf(idx, target, BUF_LOCK_EXCLUSIVE);
    }
    tpage = tdb_buf_page(tbuf);
    to = bt_opaque(tpage);
    if (to->btpo_prev != leftsib || P_RIGHTMOST(to) ||
        (target == leafblk
             ? !P_ISHALFDEAD(to)
             : P_IGNORE(to) ||
                   P_FIRSTDATAKEY(to) != tdb_page_get_max_offset(tpage))) {
        return unlink_give_up(leafbuf, lbuf, tbuf, InvalidBuffer);
    }
    if (target != leafblk)
        nextchild = bt_tuple_downlink(
            bt_page_item_checked(idx, tpage, P_FIRSTDATAKEY(to)));
    rightsib = to->btpo_next;
    rbuf = tdb_bt_getbuf(idx, rightsib, BUF_LOCK_EXCLUSIVE);
    if (bt_opaque(tdb_buf_page(rbuf))->btpo_prev != target) {
        return unlink_give_up(leafbuf, lbuf, tbuf, rbuf);
    }
    if (tbuf != leafbuf)
        tdb_buf_lock(leafbuf, BUF_LOCK_EXCLUSIVE); /* nobody waits on it */
    safexid = tdb_xact_manager_next_xid(idx->tm);

    /* nothing below raises */
    if (lbuf != InvalidBuffer) {
        bt_opaque(tdb_buf_page(lbuf))->btpo_next = rightsib;
        tdb_buf_mark_dirty(lbuf);
    }
    bt_opaque(tdb_buf_page(rbuf))->btpo_prev = leftsib;
    tdb_buf_mark_dirty(rbuf);
    if (target != leafblk) {
        /* the next page down is the top of what is left to unlink */
        bt_tuple_set_downlink(bt_page_item(leafpage, P_HIKEY),
                              nextchild == leafblk ? InvalidBlockNumber
                                                   : nextchild);
        tdb_buf_mark_dirty(leafbuf);
    }
    page_set_deleted(tpage, safexid);
    tdb_buf_mark_dirty(tbuf);
    tdb_buf_unlock_release(rbuf);
    if (tbuf != leafbuf)
        tdb_buf_unlock_release(tbuf);
    if (lbuf != InvalidBuffer)
        tdb_buf_unlock_release(lbuf);
    add_pending(vs, target, safexid);
    vs->pages_deleted++;
    return true;
}

/*
 * Where the downlink to every page was when the pass began (PostgreSQL
 * finds a leaf's parent by searching for its high key; VACUUM here has
 * no comparators, and reading the internal levels once is cheap: a few
 * pages in a thousand).  A downlink only ever moves right of where it
 * was (splits), so the recorded parent is where tdb_bt_getstackbuf
 * starts.  Pages added since have no entry and are not deleted.
 */
static void
build_parent_map(VacState *vs)
{
    BTIndex idx = vs->idx;
    Buffer buf = tdb_bt_getroot(idx, false, BUF_LOCK_SHARE);
    BlockNumber leftmost;

    vs->nmap = tdb_buf_relation_nblocks(idx->relfilenumber);
    vs->map = tdb_palloc0(sizeof(BTStackData) * vs->nmap);
    if (buf == InvalidBuffer)
        return;
    leftmost = tdb_buf_block_number(buf);
    tdb_buf_unlock_release(buf);
    while (leftmost != P_NONE) {
        BlockNumber blk = leftmost, nextlevel = P_NONE;

        for (BlockNumber steps = 0; blk != P_NONE && steps < vs->nmap;
             steps++) {
            Page page;
            BTPageOpaque o;

            buf = tdb_bt_getbuf(idx, blk, BUF_LOCK_SHARE);
            page = tdb_buf_page(buf);
            o = bt_opaque(page);
            if (P_ISLEAF(o)) {
                tdb_buf_unlock_release(buf);
                return;
            }
            if (!P_IGNORE(o)) {
                OffsetNumber maxoff = tdb_page_get_max_offset(page);

                for (OffsetNumber off = P_FIRSTDATAKEY(o); off <= maxoff;
                     off++) {
                    BlockNumber child =
                        bt_tuple_downlink(bt_page_item_checked(idx, page, off));

                    if (nextlevel == P_NONE)
                        nextlevel = child;
                    if (child < vs->nmap) {
                        vs->map[child].blkno = blk;
                        vs->map[child].offset = off;
                    }
                }
            }
            blk = o->btpo_next;
            tdb_buf_unlock_release(buf);
        }
        leftmost = nextlevel;
    }
}

/* The path from the root to page blk as the map has it (a fresh copy:
 * tdb_bt_getstackbuf updates it); NULL if blk has no recorded parent. */
static BTStack
stack_from_map(VacState *vs, BlockNumber blk)
{
    BTStack first = NULL, *tail = &first;

    while (blk < vs->nmap && vs->map[blk].blkno != P_NONE) {
        BTStack s = tdb_palloc(sizeof(BTStackData));

        s->blkno = vs->map[blk].blkno;
        s->offset = vs->map[blk].offset;
        s->parent = NULL;
        *tail = s;
        tail = &s->parent;
        blk = s->blkno;
    }
    return first;
}

static void
free_stack(BTStack s)
{
    while (s != NULL) {
        BTStack p = s->parent;

        tdb_pfree(s);
        s = p;
    }
}

/*
 * Delete the empty leaf in leafbuf (exclusively locked; released here)
 * if it can go now (PostgreSQL's _bt_pagedel, one leaf).
 */
static void
delete_leaf(VacState *vs, Buffer leafbuf)
{
    BTIndex idx = vs->idx;
    Page page = tdb_buf_page(leafbuf);
    BTPageOpaque o = bt_opaque(page);
    BlockNumber leafblk = tdb_buf_block_number(leafbuf);
    BlockNumber leftsib = o->btpo_prev;
    BTStack stack;

    /* an unlocked look left first (lock order) */
    tdb_buf_unlock_release(leafbuf);
    if (leftsib_incomplete_split(idx, leftsib, leafblk))
        return;
    if (vs->map == NULL)
        build_parent_map(vs);
    stack = stack_from_map(vs, leafblk);
    if (stack == NULL)
        return;

    /* the leaf again: still deletable? (an insert may have come) */
    leafbuf = tdb_bt_getbuf(idx, leafblk, BUF_LOCK_EXCLUSIVE);
    page = tdb_buf_page(leafbuf);
    o = bt_opaque(page);
    if (!P_ISLEAF(o) || P_IGNORE(o) || P_RIGHTMOST(o) ||
        (o->btpo_flags & BTP_ROOT) || P_INCOMPLETE_SPLIT(o) ||
        P_FIRSTDATAKEY(o) <= tdb_page_get_max_offset(page) ||
        !mark_halfdead(idx, leafbuf, stack)) {
        tdb_buf_unlock_release(leafbuf);
        free_stack(stack);
        return;
    }
    free_stack(stack);
    while (P_ISHALFDEAD(bt_opaque(tdb_buf_page(leafbuf))))
        if (!unlink_halfdead(vs, leafbuf))
            break;
    tdb_buf_unlock_release(leafbuf);
}

/*
 * One block of the pass: vacuum a leaf, delete it if left empty, note a
 * deleted page; come back for the right halves of splits that went to
 * blocks already passed (the cycle id).
 */
static void
vacuum_page(VacState *vs, BlockNumber scanblk)
{
    BTIndex idx = vs->idx;
    BlockNumber blk = scanblk;

    for (;;) {
        Buffer buf = tdb_bt_getbuf(idx, blk, BUF_LOCK_EXCLUSIVE);
        Page page = tdb_buf_page(buf);
        BTPageOpaque o = bt_opaque(page);
        BlockNumber backtrack = P_NONE;

        if (blk != scanblk &&
            (!P_ISLEAF(o) || P_IGNORE(o) || o->btpo_cycleid != vs->cycleid)) {
            tdb_buf_unlock_release(buf);
            return;
        }
        if (P_ISDELETED(o)) {
            if (page_recyclable(idx, page, vs->horizon))
                add_free(vs, blk);
            else
                vs->ndeleted++;
            tdb_buf_unlock_release(buf);
            return;
        }
        if (!P_ISLEAF(o) || P_IGNORE(o)) {
            tdb_buf_unlock_release(buf);
            return;
        }
        if (vs->is_dead != NULL) {
            int64 r = vacuum_leaf(vs->idx, page, vs->is_dead, vs->arg, &vs->kept);

            if (r > 0)
                tdb_buf_mark_dirty(buf);
            vs->removed += r;
        }
        if (o->btpo_cycleid == vs->cycleid &&
            !(o->btpo_flags & BTP_SPLIT_END) && !P_RIGHTMOST(o) &&
            o->btpo_next < scanblk)
            backtrack = o->btpo_next;
        if (blk == scanblk && vs->delete_pages && !P_RIGHTMOST(o) &&
            !(o->btpo_flags & BTP_ROOT) && !P_INCOMPLETE_SPLIT(o) &&
            P_FIRSTDATAKEY(o) > tdb_page_get_max_offset(page))
            delete_leaf(vs, buf); /* releases buf */
        else
            tdb_buf_unlock_release(buf);
        if (backtrack == P_NONE)
            return;
        blk = backtrack;
    }
}

static int
free_page_cmp(const void *a, const void *b)
{
    BlockNumber x = ((const FsmPage *)a)->blkno,
                y = ((const FsmPage *)b)->blkno;

    return (x > y) - (x < y);
}

/* The end of a pass: record the reusable pages, and in the metapage how
 * many deleted ones are not yet (PostgreSQL's btvacuumcleanup). */
static void
vacuum_finish(VacState *vs)
{
    BTIndex idx = vs->idx;
    TransactionId horizon = tdb_xact_manager_oldest_xmin(idx->tm);
    Buffer meta;
    BTMetaPageData *m;
    uint32 delpages;

    for (uint32 i = 0; i < vs->npending; i++) {
        if (TransactionIdPrecedes(vs->pending[i].safexid, horizon))
            add_free(vs, vs->pending[i].blkno);
        else
            vs->ndeleted++;
    }
    if (vs->nfree > 1)
        qsort(vs->free, vs->nfree, sizeof(FsmPage), free_page_cmp);
    tdb_fsm_set_relation(idx->relfilenumber, vs->free,
                         Min(vs->nfree, (uint32)FSM_MAX_PAGES));
    delpages = (uint32)vs->ndeleted;
    meta = tdb_bt_getbuf(idx, BTREE_METAPAGE, BUF_LOCK_EXCLUSIVE);
    m = bt_metadata(tdb_buf_page(meta));
    if (m->btm_last_cleanup_num_delpages != delpages) {
        m->btm_last_cleanup_num_delpages = delpages;
        tdb_buf_mark_dirty(meta);
    }
    tdb_buf_unlock_release(meta);
}

int64
tdb_bt_bulk_delete(BTIndex idx, BTDeadCallback is_dead, void *arg,
                   int64 *remaining)
{
    VacState vs;
    volatile BlockNumber blk = BTREE_METAPAGE + 1;

    memset(&vs, 0, sizeof(vs));
    vs.idx = idx;
    vs.is_dead = is_dead;
    vs.arg = arg;
    vs.delete_pages = idx->tm != NULL;
    if (vs.delete_pages)
        vs.horizon = tdb_xact_manager_oldest_xmin(idx->tm);
    vs.cycleid = vacuum_cycle_start(idx);
    TDB_TRY();
    {
        /* pages added during the pass are visited too; a split into a
         * reused block behind us is caught by the cycle id */
        for (;;) {
            BlockNumber nblocks = tdb_buf_relation_nblocks(idx->relfilenumber);

            if (blk >= nblocks)
                break;
            for (; blk < nblocks; blk++)
                vacuum_page(&vs, blk);
        }
    }
    TDB_CATCH();
    {
        vacuum_cycle_end(idx->relfilenumber);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    vacuum_cycle_end(idx->relfilenumber);
    if (vs.delete_pages)
        vacuum_finish(&vs);
    bt_last_stats.pages = tdb_buf_relation_nblocks(idx->relfilenumber);
    bt_last_stats.pages_deleted = vs.pages_deleted;
    bt_last_stats.pages_free = vs.nfree;
    if (vs.free != NULL)
        tdb_pfree(vs.free);
    if (vs.pending != NULL)
        tdb_pfree(vs.pending);
    if (vs.map != NULL)
        tdb_pfree(vs.map);
    if (remaining != NULL)
        *remaining = vs.kept;
    return vs.removed;
}

bool
tdb_bt_vacuum_needs_cleanup(BTIndex idx)
{
    Buffer meta = tdb_bt_getbuf(idx, BTREE_METAPAGE, BUF_LOCK_SHARE);
    uint32 delpages =
        bt_metadata(tdb_buf_page(meta))->btm_last_cleanup_num_delpages;

    tdb_buf_unlock_release(meta);
    return delpages > 0 &&
           delpages > tdb_buf_relation_nblocks(idx->relfilenumber) / 20;
}

/* ----------------------------------------------------------------------
 * Structure check
 * ---------------------------------------------------------------------- */

typedef struct CheckState {
    BTIndex idx;
    int64 ntids;
} CheckState;

static void
check_fail(CheckState *cs, BlockNumber blk, const char *what)
{
    tdb_bt_raise_corrupt(cs->idx, blk, what);
}

/* Every line pointer in bounds, every tuple of a sane size and shape. */
static void
check_items(CheckState *cs, Page page, BlockNumber blk)
{
    BTPageOpaque o = bt_opaque(page);
    const PageHeaderData *h = tdb_page_header_const(page);
    OffsetNumber maxoff = tdb_page_get_max_offset(page);

    for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++) {
        const ItemIdData *lp = tdb_page_get_item_id_const(page, off);
        IndexTuple t;
        Size sz;

        if (lp->lp_flags == LP_UNUSED || lp->lp_flags == LP_REDIRECT ||
            lp->lp_off < h->pd_upper ||
            lp->lp_off + lp->lp_len > h->pd_special ||
            lp->lp_len < sizeof(IndexTupleData) ||
            lp->lp_off % MAXIMUM_ALIGNOF != 0)
            check_fail(cs, blk, "A line pointer is invalid.");
        t = (IndexTuple)(page + lp->lp_off);
        sz = IndexTupleSize(t);
        if (sz != lp->lp_len || sz != MAXALIGN(sz))
            check_fail(
                cs, blk,
                "An index tuple's size disagrees with its line pointer.");
        if (bt_tuple_is_pivot(t)) {
            int natts = bt_tuple_natts(cs->idx, t);
            bool ishikey = !P_RIGHTMOST(o) && off == P_HIKEY;

            if (P_ISLEAF(o) && !ishikey)
                check_fail(cs, blk, "A leaf page holds a pivot tuple.");
            if (natts > cs->idx->nkeyatts ||
                (natts == 0 && !(!P_ISLEAF(o) && off == P_FIRSTDATAKEY(o))))
                check_fail(
                    cs, blk,
                    "A pivot tuple has an invalid number of attributes.");
        } else {
            if (!P_ISLEAF(o) || (!P_RIGHTMOST(o) && off == P_HIKEY))
                check_fail(cs, blk,
                           "A non-pivot tuple is where a pivot belongs.");
            if (bt_tuple_is_posting(t)) {
                int n = bt_tuple_nposting(t);
                uint32 po = bt_tuple_posting_offset(t);

                if (n < 2 || po < sizeof(IndexTupleData) ||
                    po != MAXALIGN(po) ||
                    po + (Size)n * sizeof(ItemPointerData) > sz)
                    check_fail(cs, blk, "A posting list tuple is malformed.");
                for (int i = 1; i < n; i++)
                    if (bt_tid_cmp(bt_tuple_posting_n(t, i - 1),
                                   bt_tuple_posting_n(t, i)) >= 0)
                        check_fail(
                            cs, blk,
                            "A posting list's heap TIDs are out of order.");
                cs->ntids += n;
            } else {
                cs->ntids++;
            }
        }
    }
}

/* Item order within the page and against its high key. */
static void
check_order(CheckState *cs, Page page, BlockNumber blk)
{
    BTPageOpaque o = bt_opaque(page);
    OffsetNumber maxoff = tdb_page_get_max_offset(page);
    OffsetNumber first = P_FIRSTDATAKEY(o);
    BTInsertKey key;

    for (OffsetNumber off = first; off <= maxoff; off++) {
        IndexTuple t = bt_page_item(page, off);

        if (!P_ISLEAF(o) && off == first)
            continue;
        tdb_bt_key_from_tuple(cs->idx, t, &key);
        if (bt_tuple_is_pivot(t)) {
            key.keysz = bt_tuple_natts(cs->idx, t);
            key.has_scantid = bt_tuple_heap_tid(t) != NULL;
        }
        /* strictly after the previous item */
        if (off > first && !(off == first + 1 && !P_ISLEAF(o))) {
            if (tdb_bt_compare(cs->idx, &key, page, (OffsetNumber)(off - 1)) <=
                0)
                check_fail(cs, blk, "Items are out of order.");
        }
        if (bt_tuple_is_posting(t)) {
            key.scantid = *bt_tuple_max_heap_tid(t);
        }
        if (!P_RIGHTMOST(o) && tdb_bt_compare(cs->idx, &key, page, P_HIKEY) > 0)
            check_fail(cs, blk, "An item sorts after the page's high key.");
    }
}

static void
check_level(CheckState *cs, BlockNumber leftmost, uint32 level,
            BlockNumber *child)
{
    volatile BlockNumber blk = leftmost, prev = P_NONE, skipped = P_NONE;

    *child = P_NONE;
    while (blk != P_NONE) {
        Buffer buf = tdb_bt_getbuf(cs->idx, blk, BUF_LOCK_SHARE);
        Page page = tdb_buf_page(buf);
        BTPageOpaque o = bt_opaque(page);

        if (P_ISDELETED(o)) {
            /* a deletion a crash interrupted left a link to it: readers
             * step past it, and so does the check */
            skipped = blk;
            blk = o->btpo_next;
            tdb_buf_unlock_release(buf);
            continue;
        }
        TDB_TRY();
        {
            if (o->btpo_level != level)
                check_fail(
                    cs, blk,
                    "The page's level is not its parent's level minus one.");
            if (o->btpo_prev != prev && o->btpo_prev != skipped)
                check_fail(
                    cs, blk,
                    "The page's left link does not point to its left sibling.");
            if (o->btpo_next == blk ||
                (o->btpo_next != P_NONE &&
                 o->btpo_next >=
                     tdb_buf_relation_nblocks(cs->idx->relfilenumber)))
                check_fail(cs, blk, "The page's right link is invalid.");
            /* a half-dead page (a deletion in progress) has nothing but a
             * placeholder high key naming the top of its subtree */
            if (P_ISHALFDEAD(o)) {
                if (!P_ISLEAF(o) || tdb_page_get_max_offset(page) != P_HIKEY)
                    check_fail(cs, blk, "A half-dead page is malformed.");
            } else {
                check_items(cs, page, blk);
                check_order(cs, page, blk);
            }
            if (!P_ISLEAF(o) && !P_IGNORE(o)) {
                OffsetNumber first = P_FIRSTDATAKEY(o);

                if (first > tdb_page_get_max_offset(page))
                    check_fail(cs, blk, "An internal page has no downlinks.");
                if (prev == P_NONE)
                    *child = bt_tuple_downlink(bt_page_item(page, first));
            }
        }
        TDB_CATCH();
        {
            tdb_buf_unlock_release(buf);
            TDB_RE_THROW();
        }
        TDB_END_TRY();
        prev = blk;
        skipped = P_NONE;
        blk = o->btpo_next;
        tdb_buf_unlock_release(buf);
    }
}

int64
tdb_bt_check(BTIndex idx)
{
    CheckState cs = {idx, 0};
    Buffer meta = tdb_bt_getbuf(idx, BTREE_METAPAGE, BUF_LOCK_SHARE);
    BTMetaPageData m = *bt_metadata(tdb_buf_page(meta));
    BlockNumber nblocks = tdb_buf_relation_nblocks(idx->relfilenumber);
    BlockNumber blk;
    uint32 level;

    tdb_buf_unlock_release(meta);
    if (m.btm_root == P_NONE)
        return 0;
    if (m.btm_root >= nblocks || m.btm_fastroot >= nblocks)
        tdb_bt_raise_corrupt(
            idx, BTREE_METAPAGE,
            "The metapage's root is beyond the end of the index.");
    {
        Buffer rb = tdb_bt_getbuf(idx, m.btm_root, BUF_LOCK_SHARE);
        BTPageOpaque o = bt_opaque(tdb_buf_page(rb));
        bool ok = (o->btpo_flags & BTP_ROOT) && o->btpo_level == m.btm_level &&
                  P_LEFTMOST(o) && P_RIGHTMOST(o);

        tdb_buf_unlock_release(rb);
        if (!ok)
            tdb_bt_raise_corrupt(idx, m.btm_root,
                                 "The root page disagrees with the metapage.");
    }
    blk = m.btm_root;
    level = m.btm_level;
    for (;;) {
        BlockNumber child;

        check_level(&cs, blk, level, &child);
        if (level == 0)
            break;
        if (child == P_NONE || child >= nblocks)
            tdb_bt_raise_corrupt(
                idx, blk, "A downlink points beyond the end of the index.");
        blk = child;
        level--;
    }
    return cs.ntids;
}
