/*
 * nbtpage.c -- B-tree pages: initializing pages and the metapage, reading
 * pages through the buffer pool with a sanity check of every page read
 * (special space, flags, level; XX002 naming the index otherwise), new
 * pages at the end of the relation, the root (created by the first
 * insert), removing items, bulk delete for VACUUM and the structure
 * check (tdb_bt_check).
 */
#include "common/base.h"

#include <stdlib.h>
#include <string.h>

#include "access/nbtree_int.h"
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
        tdb_bt_raise_corrupt(idx, blk, "The page is uninitialized.");
    if (h->pd_special != BLCKSZ - MAXALIGN(sizeof(BTPageOpaqueData)) ||
        h->pd_lower < SizeOfPageHeaderData || h->pd_lower > h->pd_upper ||
        h->pd_upper > h->pd_special)
        tdb_bt_raise_corrupt(idx, blk,
                             "The page header or special space is invalid.");
    o = bt_opaque(page);
    if (o->btpo_flags & ~(BTP_LEAF | BTP_ROOT | BTP_META | BTP_HAS_GARBAGE |
                          BTP_INCOMPLETE_SPLIT | BTP_SPLIT_END))
        tdb_bt_raise_corrupt(idx, blk,
                             "The page has invalid or unsupported flags.");
    if (blk == BTREE_METAPAGE) {
        const BTMetaPageData *m = bt_metadata(page);

        if (!(o->btpo_flags & BTP_META) || m->btm_magic != BTREE_MAGIC ||
            m->btm_version != BTREE_VERSION)
            tdb_bt_raise_corrupt(idx, blk, "The metapage is invalid.");
        return;
    }
    if ((o->btpo_flags & BTP_META) || P_ISLEAF(o) != (o->btpo_level == 0))
        tdb_bt_raise_corrupt(idx, blk, "The page's level and flags disagree.");
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

/* A new page at the end of the relation, pinned and exclusively locked
 * (the caller initializes it). */
Buffer
tdb_bt_newbuf(const BTIndexData *idx, BlockNumber *blk)
{
    return tdb_buf_extend(idx->relfilenumber, NULL, blk);
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
    tdb_buf_unlock_release(meta);
    __atomic_store_n(&idx->cached_root, root, __ATOMIC_RELAXED);
    return tdb_bt_getbuf(idx, root, mode);
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
vacuum_leaf(Page page, BTDeadCallback is_dead, void *arg, int64 *kept)
{
    BTPageOpaque o = bt_opaque(page);
    OffsetNumber maxoff = tdb_page_get_max_offset(page);
    OffsetNumber *dels = tdb_palloc(sizeof(OffsetNumber) * (Size)(maxoff + 1));
    int ndel = 0;
    int64 removed = 0;
    bool changed = false;
    ItemPointerData *live =
        tdb_palloc(sizeof(ItemPointerData) * BT_MAX_TIDS_PER_PAGE);

    for (OffsetNumber off = P_FIRSTDATAKEY(o); off <= maxoff; off++) {
        IndexTuple t = bt_page_item(page, off);

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

int64
tdb_bt_bulk_delete(BTIndex idx, BTDeadCallback is_dead, void *arg,
                   int64 *remaining)
{
    int64 removed = 0, kept = 0;
    BlockNumber blk = BTREE_METAPAGE + 1;
    BlockNumber nblocks;

    /* Pages are only ever added at the end (no recycling yet), so a split
     * during the pass moves items to a page this loop still reaches. */
    for (;;) {
        nblocks = tdb_buf_relation_nblocks(idx->relfilenumber);
        if (blk >= nblocks)
            break;
        for (; blk < nblocks; blk++) {
            Buffer buf = tdb_bt_getbuf(idx, blk, BUF_LOCK_EXCLUSIVE);
            Page page = tdb_buf_page(buf);
            int64 r;

            if (!P_ISLEAF(bt_opaque(page))) {
                tdb_buf_unlock_release(buf);
                continue;
            }
            r = vacuum_leaf(page, is_dead, arg, &kept);
            if (r > 0)
                tdb_buf_mark_dirty(buf);
            removed += r;
            tdb_buf_unlock_release(buf);
        }
    }
    if (remaining != NULL)
        *remaining = kept;
    return removed;
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
    volatile BlockNumber blk = leftmost, prev = P_NONE;

    *child = P_NONE;
    while (blk != P_NONE) {
        Buffer buf = tdb_bt_getbuf(cs->idx, blk, BUF_LOCK_SHARE);
        Page page = tdb_buf_page(buf);
        BTPageOpaque o = bt_opaque(page);

        TDB_TRY();
        {
            if (o->btpo_level != level)
                check_fail(
                    cs, blk,
                    "The page's level is not its parent's level minus one.");
            if (o->btpo_prev != prev)
                check_fail(
                    cs, blk,
                    "The page's left link does not point to its left sibling.");
            if (o->btpo_next == blk ||
                (o->btpo_next != P_NONE &&
                 o->btpo_next >=
                     tdb_buf_relation_nblocks(cs->idx->relfilenumber)))
                check_fail(cs, blk, "The page's right link is invalid.");
            check_items(cs, page, blk);
            check_order(cs, page, blk);
            if (!P_ISLEAF(o)) {
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
