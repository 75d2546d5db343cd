/*
 * nbtdedup.c -- deduplication: merging leaf items with equal keys into
 * posting-list tuples (one key, many sorted heap TIDs), as PostgreSQL's
 * _bt_dedup_pass does before it would split a leaf page, including its
 * "single value" strategy for pages full of one value (stop merging after
 * five or six large posting lists so the coming split leaves the left
 * page 96% full); the posting-list helpers shared with insertion
 * (swapping a new heap TID into an existing list) and the loader.
 */
#include "common/base.h"

#include <string.h>

#include "access/nbtree_int.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"

void
tdb_bt_dedup_start(BTDedupState *st, IndexTuple base)
{
    if (!bt_tuple_is_posting(base)) {
        st->htids[0] = base->t_tid;
        st->nhtids = 1;
        st->basetupsize = IndexTupleSize(base);
    } else {
        int n = bt_tuple_nposting(base);

        memcpy(st->htids, bt_tuple_posting(base),
               sizeof(ItemPointerData) * (Size)n);
        st->nhtids = n;
        st->basetupsize = bt_tuple_posting_offset(base);
    }
    st->nitems = 1;
    st->base = base;
    st->phystupsize = MAXALIGN(IndexTupleSize(base)) + sizeof(ItemIdData);
}

/* Add itup's heap TIDs to the pending list unless it would grow past
 * maxpostingsize; true if added. */
bool
tdb_bt_dedup_save(BTDedupState *st, IndexTuple itup)
{
    int n;
    const ItemPointerData *htids;
    Size merged;

    if (!bt_tuple_is_posting(itup)) {
        n = 1;
        htids = &itup->t_tid;
    } else {
        n = bt_tuple_nposting(itup);
        htids = bt_tuple_posting(itup);
    }
    merged = MAXALIGN(st->basetupsize +
                      (Size)(st->nhtids + n) * sizeof(ItemPointerData));
    if (merged > st->maxpostingsize) {
        if (st->nhtids > 50)
            st->nmaxitems++;
        return false;
    }
    st->nitems++;
    memcpy(st->htids + st->nhtids, htids, sizeof(ItemPointerData) * (Size)n);
    st->nhtids += n;
    st->phystupsize += MAXALIGN(IndexTupleSize(itup)) + sizeof(ItemIdData);
    return true;
}

/*
 * A posting-list tuple of base's key and htids (sorted, unique), or a
 * plain tuple when nhtids is 1; in the current context.
 */
IndexTuple
tdb_bt_form_posting(IndexTuple base, const ItemPointerData *htids, int nhtids)
{
    uint32 keysize = bt_tuple_is_posting(base) ? bt_tuple_posting_offset(base)
                                               : (uint32)IndexTupleSize(base);
    uint32 newsize =
        nhtids > 1
            ? (uint32)MAXALIGN(keysize + (Size)nhtids * sizeof(ItemPointerData))
            : keysize;
    IndexTuple t = tdb_palloc0(newsize);

    memcpy(t, base, keysize);
    t->t_info &= (uint16)~INDEX_SIZE_MASK;
    t->t_info |= (uint16)newsize;
    if (nhtids > 1) {
        bt_tuple_set_posting(t, nhtids, keysize);
        memcpy(bt_tuple_posting(t), htids,
               sizeof(ItemPointerData) * (Size)nhtids);
    } else {
        t->t_info &= (uint16)~INDEX_ALT_TID_MASK;
        t->t_tid = htids[0];
    }
    return t;
}

/*
 * newitem's heap TID falls inside oposting's range at position
 * postingoff: return a copy of oposting with that TID in place and its
 * largest TID dropped, and give newitem (a private copy) that largest TID,
 * so that newitem goes right after the list.
 */
IndexTuple
tdb_bt_swap_posting(IndexTuple newitem, IndexTuple oposting, int postingoff)
{
    int n = bt_tuple_nposting(oposting);
    IndexTuple np = tdb_bt_copy_tuple(oposting);
    ItemPointerData *pos = bt_tuple_posting_n(np, postingoff);

    if (postingoff <= 0 || postingoff >= n)
        elog(ERROR, "posting list split at %d of %d in a B-tree", postingoff,
             n);
    memmove(pos + 1, pos, sizeof(ItemPointerData) * (Size)(n - postingoff - 1));
    *pos = newitem->t_tid;
    newitem->t_tid = *bt_tuple_max_heap_tid(oposting);
    return np;
}

static Size
finish_pending(Page newpage, BTDedupState *st)
{
    OffsetNumber off = (OffsetNumber)(tdb_page_get_max_offset(newpage) + 1);
    Size saving = 0;

    if (st->nitems == 1) {
        if (tdb_page_add_item(newpage, st->base, IndexTupleSize(st->base), off,
                              0) == InvalidOffsetNumber)
            elog(ERROR, "deduplication failed to add tuple to page");
    } else {
        IndexTuple final = tdb_bt_form_posting(st->base, st->htids, st->nhtids);
        Size sz = IndexTupleSize(final);

        if (tdb_page_add_item(newpage, final, sz, off, 0) ==
            InvalidOffsetNumber)
            elog(ERROR, "deduplication failed to add tuple to page");
        tdb_pfree(final);
        saving = st->phystupsize - (sz + sizeof(ItemIdData));
        st->nintervals++;
    }
    st->nhtids = 0;
    st->nitems = 0;
    st->phystupsize = 0;
    return saving;
}

static void
singleval_fillfactor(BTDedupState *st, Size newitemsz)
{
    Size leftfree =
        BLCKSZ - SizeOfPageHeaderData - MAXALIGN(sizeof(BTPageOpaqueData));
    int reduction;

    leftfree -= newitemsz + MAXALIGN(sizeof(ItemPointerData));
    reduction = (int)(leftfree * ((100 - BTREE_SINGLEVAL_FILLFACTOR) / 100.0));
    if (st->maxpostingsize > (Size)reduction)
        st->maxpostingsize -= (Size)reduction;
    else
        st->maxpostingsize = 0;
}

/*
 * Deduplicate leaf page (exclusively locked by the caller; no LP_DEAD
 * items left) to make room for newitem (newitemsz MAXALIGNed, without
 * line pointer).  The page is rewritten only if some items merged.
 */
void
tdb_bt_dedup_pass(const BTIndexData *idx, Page page, IndexTuple newitem,
                  Size newitemsz)
{
    BTPageOpaque o = bt_opaque(page);
    OffsetNumber minoff = P_FIRSTDATAKEY(o);
    OffsetNumber maxoff = tdb_page_get_max_offset(page);
    int nkeyatts = idx->nkeyatts;
    PGAlignedBlock newbuf;
    Page newpage = newbuf.data;
    BTDedupState st;
    bool singleval = false;

    newitemsz += sizeof(ItemIdData);
    memset(&st, 0, sizeof(st));
    st.deduplicate = true;
    st.maxpostingsize = Min(BT_MAX_ITEM_SIZE / 2, INDEX_SIZE_MASK);
    st.htids = tdb_palloc(st.maxpostingsize +
                          sizeof(ItemPointerData) * BT_MAX_TIDS_PER_PAGE);

    if (maxoff < minoff) {
        tdb_pfree(st.htids);
        return;
    }
    /* nothing to merge unless two neighbours are equal: skip building the
     * new page (a page of distinct keys about to split) */
    {
        bool any = false;

        for (OffsetNumber off = minoff; off < maxoff && !any; off++)
            any = tdb_bt_keep_natts_fast(
                      idx, bt_page_item(page, off),
                      bt_page_item(page, (OffsetNumber)(off + 1))) > nkeyatts;
        if (!any) {
            tdb_pfree(st.htids);
            return;
        }
    }
    /* single value strategy: newitem equals the first and last items */
    if (tdb_bt_keep_natts_fast(idx, newitem, bt_page_item(page, minoff)) >
            nkeyatts &&
        tdb_bt_keep_natts_fast(idx, newitem, bt_page_item(page, maxoff)) >
            nkeyatts)
        singleval = true;

    tdb_page_init(newpage, sizeof(BTPageOpaqueData));
    memcpy(bt_opaque(newpage), o, sizeof(BTPageOpaqueData));
    if (!P_RIGHTMOST(o)) {
        IndexTuple hk = bt_page_item(page, P_HIKEY);

        if (tdb_page_add_item(
                newpage, hk,
                ItemIdGetLength(tdb_page_get_item_id(page, P_HIKEY)), P_HIKEY,
                0) == InvalidOffsetNumber)
            elog(ERROR, "deduplication failed to add highkey");
    }
    for (OffsetNumber off = minoff; off <= maxoff; off++) {
        IndexTuple itup = bt_page_item(page, off);

        if (off == minoff) {
            tdb_bt_dedup_start(&st, itup);
        } else if (st.deduplicate &&
                   tdb_bt_keep_natts_fast(idx, st.base, itup) > nkeyatts &&
                   tdb_bt_dedup_save(&st, itup)) {
            /* merged */
        } else {
            finish_pending(newpage, &st);
            if (singleval) {
                if (st.nmaxitems == 5) {
                    singleval_fillfactor(&st, newitemsz);
                } else if (st.nmaxitems == 6) {
                    st.deduplicate = false;
                    singleval = false;
                }
            }
            tdb_bt_dedup_start(&st, itup);
        }
    }
    finish_pending(newpage, &st);
    tdb_pfree(st.htids);
    if (st.nintervals == 0)
        return;
    bt_opaque(newpage)->btpo_flags &= (uint16)~BTP_HAS_GARBAGE;
    /* keep the page header's LSN and checksum fields as they were */
    memcpy(newpage, page, offsetof(PageHeaderData, pd_flags));
    memcpy(page, newpage, BLCKSZ);
}
