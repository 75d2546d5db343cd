/*
 * nbtinsert.c -- inserting into a B-tree (PostgreSQL's nbtinsert.c
 * algorithm, so the pages come out as PostgreSQL's do).
 *
 * The heap TID is the last key column, so every (key, TID) has one place
 * on the leaf level.  When the leaf lacks room: first remove items marked
 * LP_DEAD, then deduplicate (if the index allows), and only then split.
 * A split (tdb_bt_findsplitloc chooses the point) builds the left half in
 * a private page and the right half in a new page at the end of the file;
 * the left page gets a suffix-truncated high key, the right page the old
 * high key; then the downlink to the right page (the left's new high key)
 * goes into the parent, which may split in turn; a root split makes a new
 * root and updates the metapage.
 *
 * Locks: the writer lock (one writer) serializes structure changes; page
 * locks keep readers and VACUUM out of pages being changed.  A split holds
 * the left page, then the new right page, then the old right sibling
 * (for its left link) exclusively, writes them, releases the sibling,
 * locks the parent, releases the right page, inserts the downlink, and
 * only then releases the left page (BTP_INCOMPLETE_SPLIT marks the left
 * page until the downlink is in, as in PostgreSQL).
 */
#include "common/base.h"

#include <string.h>

#include "access/nbtree_int.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"

static void insert_on_page(BTIndex idx, Buffer buf, BTStack stack,
                           IndexTuple itup, OffsetNumber newitemoff,
                           int postingoff, Buffer child);

/* Leaf insert position for key (which has a heap TID); *postingoff set
 * when the TID falls inside a posting list (the item at the result). */
static OffsetNumber
binsrch_insert(const BTIndexData *idx, const BTInsertKey *key, Page page,
               int *postingoff)
{
    OffsetNumber off = tdb_bt_binsrch(idx, key, page);
    OffsetNumber maxoff = tdb_page_get_max_offset(page);

    *postingoff = 0;
    if (off <= maxoff) {
        IndexTuple t = bt_page_item_checked(idx, page, off);

        if (bt_tuple_is_posting(t) &&
            tdb_bt_compare(idx, key, page, off) == 0) {
            int low = 0, high = bt_tuple_nposting(t);

            while (high > low) {
                int mid = low + (high - low) / 2;
                int r = bt_tid_cmp(&key->scantid, bt_tuple_posting_n(t, mid));

                if (r == 0)
                    elog(ERROR, "heap TID (%u,%u) is already in index \"%s\"",
                         ItemPointerGetBlockNumber(&key->scantid),
                         ItemPointerGetOffsetNumber(&key->scantid), idx->name);
                if (r > 0)
                    low = mid + 1;
                else
                    high = mid;
            }
            if (ItemIdIsDead(tdb_page_get_item_id(page, off))) {
                /* an LP_DEAD posting list overlapping the new TID: drop it
                 * (PostgreSQL does the same) and search again */
                *postingoff = -1;
                return off;
            }
            *postingoff = low;
        }
    }
    return off;
}

/* Remove the LP_DEAD items of a leaf page; true if any. */
static bool
delete_dead_items(Page page)
{
    BTPageOpaque o = bt_opaque(page);
    OffsetNumber maxoff = tdb_page_get_max_offset(page);
    OffsetNumber dels[MaxOffsetNumber];
    int n = 0;

    for (OffsetNumber off = P_FIRSTDATAKEY(o); off <= maxoff; off++)
        if (ItemIdIsDead(tdb_page_get_item_id(page, off)))
            dels[n++] = off;
    if (n > 0) {
        tdb_bt_delete_items(page, dels, n);
        o->btpo_flags &= (uint16)~BTP_HAS_GARBAGE;
    }
    return n > 0;
}

void
tdb_bt_insert(BTIndex idx, const Datum *values, const bool *isnull,
              const ItemPointerData *htid)
{
    IndexTuple itup = tdb_bt_form_tuple(idx, values, isnull, htid);

    tdb_bt_insert_tuple(idx, itup);
    tdb_pfree(itup);
}

/*
 * Insert itup (its key is key, with the heap TID) on the leaf in buf
 * (exclusively locked, the right page for key; stack its descent):
 * LP_DEAD items removed and the page deduplicated first if it lacks room,
 * then the insert, with a split if needed.  Releases buf.
 */
static void
insert_at_leaf(BTIndex idx, BTInsertKey *key, BTStack stack, Buffer buf,
               IndexTuple itup)
{
    Page page = tdb_buf_page(buf);
    Size itemsz = MAXALIGN(IndexTupleSize(itup));
    OffsetNumber off;
    int postingoff;

    TDB_TRY();
    {
        if (bt_page_free_space(page) < itemsz) {
            bool changed;

            /* the page is rearranged below: all of it must be sound */
            bt_page_items_checked(idx, page);
            changed = delete_dead_items(page);

            if (bt_page_free_space(page) < itemsz && idx->deduplicate_items &&
                idx->allequalimage) {
                uint16 before = tdb_page_header(page)->pd_lower;
                uint16 upper = tdb_page_header(page)->pd_upper;

                tdb_bt_dedup_pass(idx, page, itup, itemsz);
                changed |= before != tdb_page_header(page)->pd_lower ||
                           upper != tdb_page_header(page)->pd_upper;
            }
            if (changed)
                tdb_buf_mark_dirty(buf);
        }
        off = binsrch_insert(idx, key, page, &postingoff);
        if (postingoff == -1) {
            OffsetNumber d = off;

            tdb_bt_delete_items(page, &d, 1);
            tdb_buf_mark_dirty(buf);
            off = binsrch_insert(idx, key, page, &postingoff);
        }
    }
    TDB_CATCH();
    {
        tdb_buf_unlock_release(buf);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    insert_on_page(idx, buf, stack, itup, off, postingoff, InvalidBuffer);
}

static void
check_insertable(BTIndex idx, IndexTuple itup)
{
    if (bt_tuple_is_pivot(itup) || bt_tuple_is_posting(itup))
        elog(ERROR, "cannot insert a pivot or posting tuple into index \"%s\"",
             idx->name);
}

void
tdb_bt_insert_tuple(BTIndex idx, IndexTuple itup)
{
    BTInsertKey key;
    BTStack stack;
    Buffer buf;

    check_insertable(idx, itup);
    tdb_bt_key_from_tuple(idx, itup, &key);
    stack = tdb_bt_search(idx, &key, &buf, BUF_LOCK_EXCLUSIVE);
    insert_at_leaf(idx, &key, stack, buf, itup);
}

/*
 * The unique check (PostgreSQL's _bt_check_unique) from the leaf in buf
 * (exclusively locked), where a search for key without heap TID ended:
 * every heap TID of an item equal to key, here and on right siblings
 * while their high key equals key (read under share locks), is passed to
 * conflict, LP_DEAD items skipped.  Returns whether conflict said true
 * for one.  Raises what conflict raises; buf stays locked either way.
 */
static bool
find_conflict(BTIndex idx, const BTInsertKey *key, Buffer buf,
              BTConflictCheck conflict, void *arg)
{
    Buffer cur = buf;
    volatile Buffer other = InvalidBuffer;
    volatile bool found = false;

    TDB_TRY();
    {
        Page page = tdb_buf_page(cur);

        for (OffsetNumber off = tdb_bt_binsrch(idx, key, page);;) {
            BTPageOpaque o = bt_opaque(page);
            OffsetNumber maxoff = tdb_page_get_max_offset(page);
            BlockNumber next;

            for (; off <= maxoff; off++) {
                IndexTuple t;

                if (tdb_bt_compare(idx, key, page, off) != 0)
                    goto done;
                if (ItemIdIsDead(tdb_page_get_item_id(page, off)))
                    continue;
                t = bt_page_item(page, off);
                if (bt_tuple_is_posting(t)) {
                    for (int i = 0; i < bt_tuple_nposting(t); i++)
                        if (conflict(bt_tuple_posting_n(t, i), arg)) {
                            found = true;
                            goto done;
                        }
                } else if (conflict(&t->t_tid, arg)) {
                    found = true;
                    goto done;
                }
            }
            /* equal keys may go on past the high key only if it equals key */
            if (P_RIGHTMOST(o) || tdb_bt_compare(idx, key, page, P_HIKEY) != 0)
                break;
            next = o->btpo_next;
            if (other != InvalidBuffer)
                tdb_buf_unlock_release(other);
            other = InvalidBuffer;
            other = tdb_bt_getbuf(idx, next, BUF_LOCK_SHARE);
            cur = other;
            page = tdb_buf_page(cur);
            off = P_FIRSTDATAKEY(bt_opaque(page));
        }
    done:;
    }
    TDB_CATCH();
    {
        if (other != InvalidBuffer)
            tdb_buf_unlock_release(other);
        tdb_buf_unlock_release(buf);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    if (other != InvalidBuffer)
        tdb_buf_unlock_release(other);
    return found;
}

bool
tdb_bt_insert_unique(BTIndex idx, IndexTuple itup, BTConflictCheck conflict,
                     void *arg)
{
    BTInsertKey key;
    BTStack stack;
    Buffer buf;

    check_insertable(idx, itup);
    tdb_bt_key_from_tuple(idx, itup, &key);
    /* descend to the first leaf an equal key can be on */
    key.has_scantid = false;
    stack = tdb_bt_search(idx, &key, &buf, BUF_LOCK_EXCLUSIVE);
    if (find_conflict(idx, &key, buf, conflict, arg)) {
        tdb_buf_unlock_release(buf);
        return false;
    }
    /* then to the leaf (itup's key, heap TID) belongs on, to the right if
     * equal keys fill pages */
    key.has_scantid = true;
    key.scantid = itup->t_tid;
    buf = tdb_bt_moveright(idx, &key, buf, BUF_LOCK_EXCLUSIVE);
    insert_at_leaf(idx, &key, stack, buf, itup);
    return true;
}

/* Where split_page puts items: the two halves and their next offsets. */
typedef struct SplitDest {
    Page left, right;
    OffsetNumber leftoff, rightoff;
    OffsetNumber minusinfoff; /* the right page's first data item on an
                               * internal level, else invalid */
} SplitDest;

static void
split_add(SplitDest *d, bool toleft, IndexTuple t, Size sz)
{
    if (toleft) {
        tdb_bt_page_add_tuple(d->left, t, sz, d->leftoff, false);
        d->leftoff++;
    } else {
        tdb_bt_page_add_tuple(d->right, t, sz, d->rightoff,
                              d->rightoff == d->minusinfoff);
        d->rightoff++;
    }
}

/*
 * Split the page in buf (exclusively locked) to insert itup at newitemoff
 * (after the swap of a posting list: orignewitem's list at
 * origpostingoff is replaced by nposting).  Returns the new right page,
 * exclusively locked; buf stays locked, its page now the left half.
 */
static Buffer
split_page(BTIndex idx, Buffer buf, IndexTuple newitem, OffsetNumber newitemoff,
           OffsetNumber origpostingoff, IndexTuple nposting)
{
    Page origpage = tdb_buf_page(buf);
    BTPageOpaque oo = bt_opaque(origpage);
    bool isleaf = P_ISLEAF(oo), isrightmost = P_RIGHTMOST(oo);
    BlockNumber origblk = tdb_buf_block_number(buf), rightblk;
    Size newitemsz = MAXALIGN(IndexTupleSize(newitem));
    OffsetNumber maxoff = tdb_page_get_max_offset(origpage);
    OffsetNumber firstright, leftoff, rightoff,
        minusinfoff = InvalidOffsetNumber;
    bool newitemonleft;
    IndexTuple lefthighkey, firstrightitem, lastleft;
    PGAlignedBlock leftbuf;
    Page leftpage = leftbuf.data, rightpage;
    BTPageOpaque lo, ro;
    Buffer rbuf, sbuf = InvalidBuffer;
    uint16 flags;
    OffsetNumber i;
    SplitDest dest;

    /* every item is copied below: none may lie about its size */
    bt_page_items_checked(idx, origpage);
    firstright = tdb_bt_findsplitloc(idx, origpage, newitemoff, newitemsz,
                                     newitem, &newitemonleft);
    flags =
        oo->btpo_flags & (uint16) ~(BTP_ROOT | BTP_SPLIT_END | BTP_HAS_GARBAGE);
    tdb_bt_page_init(leftpage, oo->btpo_level, flags | BTP_INCOMPLETE_SPLIT);

    /* the left page's new high key */
    if (!newitemonleft && newitemoff == firstright)
        firstrightitem = newitem;
    else if (firstright == origpostingoff)
        firstrightitem = nposting;
    else
        firstrightitem = bt_page_item(origpage, firstright);
    if (isleaf) {
        if (newitemonleft && newitemoff == firstright)
            lastleft = newitem;
        else {
            OffsetNumber ll = (OffsetNumber)(firstright - 1);

            lastleft =
                ll == origpostingoff ? nposting : bt_page_item(origpage, ll);
        }
        lefthighkey = tdb_bt_truncate(idx, lastleft, firstrightitem);
    } else {
        lefthighkey = firstrightitem;
    }
    leftoff = P_HIKEY;
    if (tdb_page_add_item(leftpage, lefthighkey,
                          MAXALIGN(IndexTupleSize(lefthighkey)), leftoff,
                          0) == InvalidOffsetNumber)
        elog(ERROR,
             "failed to add high key to the left sibling in index \"%s\"",
             idx->name);
    leftoff++;

    rbuf = tdb_bt_newbuf(idx, &rightblk);
    rightpage = tdb_buf_page(rbuf);
    tdb_bt_page_init(rightpage, oo->btpo_level, flags);
    lo = bt_opaque(leftpage);
    ro = bt_opaque(rightpage);
    lo->btpo_prev = oo->btpo_prev;
    lo->btpo_next = rightblk;
    ro->btpo_prev = origblk;
    ro->btpo_next = oo->btpo_next;
    /* a VACUUM running now may have passed the new page's block already:
     * the cycle id tells it to come back for it (tdb_bt_vacuum) */
    lo->btpo_cycleid = ro->btpo_cycleid =
        tdb_bt_vacuum_cycleid(idx->relfilenumber);

    rightoff = P_HIKEY;
    if (!isrightmost) {
        ItemIdData *lp = tdb_page_get_item_id(origpage, P_HIKEY);

        if (tdb_page_add_item(rightpage, origpage + lp->lp_off, lp->lp_len,
                              rightoff, 0) == InvalidOffsetNumber)
            elog(ERROR,
                 "failed to add high key to the right sibling in index \"%s\"",
                 idx->name);
        rightoff++;
    }
    if (!isleaf)
        minusinfoff = rightoff;

    dest.left = leftpage;
    dest.right = rightpage;
    dest.leftoff = leftoff;
    dest.rightoff = rightoff;
    dest.minusinfoff = minusinfoff;
    for (i = P_FIRSTDATAKEY(oo); i <= maxoff; i++) {
        IndexTuple item =
            i == origpostingoff ? nposting : bt_page_item(origpage, i);

        if (i == newitemoff)
            split_add(&dest, newitemonleft, newitem, newitemsz);
        split_add(&dest, i < firstright, item, MAXALIGN(IndexTupleSize(item)));
    }
    /* the new item goes last (right, unless the split point said left) */
    if (i <= newitemoff)
        split_add(&dest, newitemonleft, newitem, newitemsz);
    if (isleaf)
        tdb_pfree(lefthighkey);

    if (!isrightmost) {
        sbuf = tdb_bt_getbuf(idx, oo->btpo_next, BUF_LOCK_EXCLUSIVE);
        if (bt_opaque(tdb_buf_page(sbuf))->btpo_prev != origblk) {
            BlockNumber sblk = tdb_buf_block_number(sbuf);

            tdb_buf_unlock_release(sbuf);
            tdb_buf_unlock_release(rbuf);
            tdb_bt_raise_corrupt(
                idx, sblk,
                "The right sibling's left link does not point back.");
        }
        /* items that were on the original page when the VACUUM began are
         * on the pages up to the first one of another cycle */
        if (bt_opaque(tdb_buf_page(sbuf))->btpo_cycleid != ro->btpo_cycleid)
            ro->btpo_flags |= BTP_SPLIT_END;
    }
    /* from here on nothing raises: install both halves */
    memcpy(leftpage, origpage, offsetof(PageHeaderData, pd_flags));
    memcpy(origpage, leftpage, BLCKSZ);
    tdb_buf_mark_dirty(buf);
    tdb_buf_mark_dirty(rbuf);
    if (sbuf != InvalidBuffer) {
        bt_opaque(tdb_buf_page(sbuf))->btpo_prev = rightblk;
        tdb_buf_mark_dirty(sbuf);
        tdb_buf_unlock_release(sbuf);
    }
    return rbuf;
}

/* Make a new root over the split pages lbuf / rbuf (both locked); release
 * both. */
static void
new_root(BTIndex idx, Buffer lbuf, Buffer rbuf)
{
    Page lpage = tdb_buf_page(lbuf);
    BTPageOpaque lo = bt_opaque(lpage);
    BlockNumber rootblk;
    Buffer rootbuf = tdb_bt_newbuf(idx, &rootblk);
    Page rootpage = tdb_buf_page(rootbuf);
    Buffer meta = tdb_bt_getbuf(idx, BTREE_METAPAGE, BUF_LOCK_EXCLUSIVE);
    BTMetaPageData *m = bt_metadata(tdb_buf_page(meta));
    IndexTupleData leftitem;
    IndexTuple rightitem;

    tdb_bt_page_init(rootpage, lo->btpo_level + 1, BTP_ROOT);
    memset(&leftitem, 0, sizeof(leftitem));
    leftitem.t_info = sizeof(IndexTupleData);
    bt_tuple_set_downlink(&leftitem, tdb_buf_block_number(lbuf));
    bt_tuple_set_natts(&leftitem, 0, false);
    rightitem = tdb_bt_copy_tuple(bt_page_item(lpage, P_HIKEY));
    bt_tuple_set_downlink(rightitem, tdb_buf_block_number(rbuf));
    if (tdb_page_add_item(rootpage, &leftitem, sizeof(leftitem), P_HIKEY, 0) ==
            InvalidOffsetNumber ||
        tdb_page_add_item(rootpage, rightitem, IndexTupleSize(rightitem),
                          P_FIRSTKEY, 0) == InvalidOffsetNumber)
        elog(ERROR, "failed to add items to the new root page of index \"%s\"",
             idx->name);
    tdb_pfree(rightitem);
    tdb_buf_mark_dirty(rootbuf);
    m->btm_root = m->btm_fastroot = rootblk;
    m->btm_level = m->btm_fastlevel = lo->btpo_level + 1;
    tdb_buf_mark_dirty(meta);
    __atomic_store_n(&idx->cached_root, rootblk, __ATOMIC_RELAXED);
    lo->btpo_flags &= (uint16)~BTP_INCOMPLETE_SPLIT;
    tdb_buf_mark_dirty(lbuf);
    tdb_buf_unlock_release(meta);
    tdb_buf_unlock_release(rootbuf);
    tdb_buf_unlock_release(rbuf);
    tdb_buf_unlock_release(lbuf);
}

/*
 * Finish a split that was interrupted after its halves were written but
 * before the downlink to the right half reached the parent
 * (BTP_INCOMPLETE_SPLIT on the left half, PostgreSQL's _bt_finish_split):
 * insert that downlink now -- a new root if the left half was the root
 * -- which clears the flag.  lbuf (the left half, exclusively locked) is
 * released; stack is the path to its parent (NULL at the root level).
 * The caller holds the writer lock.
 */
void
tdb_bt_finish_split(BTIndex idx, Buffer lbuf, BTStack stack)
{
    Page lpage = tdb_buf_page(lbuf);
    BTPageOpaque lo = bt_opaque(lpage);
    BlockNumber lblk = tdb_buf_block_number(lbuf);
    Buffer rbuf, pbuf;
    IndexTuple downlink;
    OffsetNumber poff;
    BTStackData top;

    if (P_RIGHTMOST(lo))
        tdb_bt_raise_corrupt(idx, lblk,
                             "An incomplete split has no right half.");
    rbuf = tdb_bt_getbuf(idx, lo->btpo_next, BUF_LOCK_EXCLUSIVE);
    if (bt_opaque(tdb_buf_page(rbuf))->btpo_prev != lblk ||
        bt_opaque(tdb_buf_page(rbuf))->btpo_level != lo->btpo_level) {
        BlockNumber rblk = tdb_buf_block_number(rbuf);

        tdb_buf_unlock_release(rbuf);
        tdb_bt_raise_corrupt(idx, rblk,
                             "The right half of a split does not match.");
    }
    if (stack == NULL) {
        Buffer meta = tdb_bt_getbuf(idx, BTREE_METAPAGE, BUF_LOCK_SHARE);
        BTMetaPageData *m = bt_metadata(tdb_buf_page(meta));
        bool wasroot = m->btm_root == lblk;
        BlockNumber blk = m->btm_root;
        uint32 level = m->btm_level;

        tdb_buf_unlock_release(meta);
        if (wasroot) {
            new_root(idx, lbuf, rbuf);
            return;
        }
        /* the parent level's leftmost page: the downlink to lblk is on
         * that level, right of it (tdb_bt_getstackbuf moves right) */
        while (level > lo->btpo_level + 1) {
            Buffer b = tdb_bt_getbuf(idx, blk, BUF_LOCK_SHARE);
            Page p = tdb_buf_page(b);

            blk = bt_tuple_downlink(
                bt_page_item_checked(idx, p, P_FIRSTDATAKEY(bt_opaque(p))));
            level--;
            tdb_buf_unlock_release(b);
        }
        top.blkno = blk;
        top.offset = FirstOffsetNumber;
        top.parent = NULL;
        stack = &top;
    }
    downlink = tdb_bt_copy_tuple(bt_page_item_checked(idx, lpage, P_HIKEY));
    bt_tuple_set_downlink(downlink, tdb_buf_block_number(rbuf));
    pbuf = tdb_bt_getstackbuf(idx, stack, lblk, &poff, false);
    tdb_buf_unlock_release(rbuf);
    insert_on_page(idx, pbuf, stack->parent, downlink, (OffsetNumber)(poff + 1),
                   0, lbuf);
    tdb_pfree(downlink);
}

/*
 * The parent page holding the downlink to child, exclusively locked;
 * *off receives the downlink's offset.  Starts at the remembered page
 * (stack) and offset, moves right if the parent has split, and past
 * pages being deleted.  Not found: raises XX002, or with missing_ok
 * returns InvalidBuffer.  The caller may hold child's lock (child, then
 * parent: the order every writer and page deletion use).
 */
Buffer
tdb_bt_getstackbuf(BTIndex idx, BTStack stack, BlockNumber child,
                   OffsetNumber *off, bool missing_ok)
{
    BlockNumber blk = stack->blkno;

    for (;;) {
        Buffer buf = tdb_bt_getbuf(idx, blk, BUF_LOCK_EXCLUSIVE);
        Page page = tdb_buf_page(buf);
        BTPageOpaque o = bt_opaque(page);

        if (!P_IGNORE(o)) {
            OffsetNumber minoff = P_FIRSTDATAKEY(o),
                         maxoff = tdb_page_get_max_offset(page);
            OffsetNumber start = Max(minoff, Min(stack->offset, maxoff));

            for (OffsetNumber k = start; k <= maxoff; k++)
                if (bt_tuple_downlink(bt_page_item_checked(idx, page, k)) ==
                    child) {
                    *off = stack->offset = k;
                    return buf;
                }
            for (OffsetNumber k = start; k-- > minoff;)
                if (bt_tuple_downlink(bt_page_item_checked(idx, page, k)) ==
                    child) {
                    *off = stack->offset = k;
                    return buf;
                }
        }
        if (P_RIGHTMOST(o)) {
            tdb_buf_unlock_release(buf);
            if (missing_ok)
                return InvalidBuffer;
            tdb_bt_raise_corrupt(
                idx, blk,
                "The downlink to a split page was not found in its parent.");
        }
        blk = o->btpo_next;
        stack->blkno = blk;
        stack->offset = FirstOffsetNumber;
        tdb_buf_unlock_release(buf);
    }
}

/*
 * Insert itup at newitemoff of the page in buf (exclusively locked; for a
 * leaf, postingoff > 0 means itup's TID splits the posting list at
 * newitemoff).  child (internal pages) is the left half of a split whose
 * downlink this is: its incomplete-split flag is cleared and it is
 * released.  Releases buf.
 */
static void
insert_on_page(BTIndex idx, Buffer buf, BTStack stack, IndexTuple itup,
               OffsetNumber newitemoff, int postingoff, Buffer child)
{
    Page page = tdb_buf_page(buf);
    BTPageOpaque o = bt_opaque(page);
    IndexTuple nposting = NULL, oposting = NULL;
    OffsetNumber origpostingoff = InvalidOffsetNumber;
    Size itemsz;

    if (postingoff > 0) {
        oposting = bt_page_item(page, newitemoff);
        itup = tdb_bt_copy_tuple(itup);
        nposting = tdb_bt_swap_posting(itup, oposting, postingoff);
        origpostingoff = newitemoff;
        newitemoff++;
    }
    itemsz = MAXALIGN(IndexTupleSize(itup));
    if (bt_page_free_space(page) >= itemsz) {
        if (nposting != NULL)
            memcpy(oposting, nposting, MAXALIGN(IndexTupleSize(nposting)));
        tdb_bt_page_add_tuple(page, itup, itemsz, newitemoff, false);
        tdb_buf_mark_dirty(buf);
        if (child != InvalidBuffer) {
            bt_opaque(tdb_buf_page(child))->btpo_flags &=
                (uint16)~BTP_INCOMPLETE_SPLIT;
            tdb_buf_mark_dirty(child);
            tdb_buf_unlock_release(child);
        }
        tdb_buf_unlock_release(buf);
    } else {
        bool isroot = (o->btpo_flags & BTP_ROOT) != 0;
        Buffer rbuf =
            split_page(idx, buf, itup, newitemoff, origpostingoff, nposting);

        if (child != InvalidBuffer) {
            bt_opaque(tdb_buf_page(child))->btpo_flags &=
                (uint16)~BTP_INCOMPLETE_SPLIT;
            tdb_buf_mark_dirty(child);
            tdb_buf_unlock_release(child);
        }
        if (isroot) {
            new_root(idx, buf, rbuf);
        } else {
            IndexTuple downlink =
                tdb_bt_copy_tuple(bt_page_item(page, P_HIKEY));
            OffsetNumber poff;
            Buffer pbuf;

            if (stack == NULL)
                elog(ERROR, "no parent for a split page of index \"%s\"",
                     idx->name);
            bt_tuple_set_downlink(downlink, tdb_buf_block_number(rbuf));
            pbuf = tdb_bt_getstackbuf(idx, stack, tdb_buf_block_number(buf),
                                      &poff, false);
            tdb_buf_unlock_release(rbuf);
            insert_on_page(idx, pbuf, stack->parent, downlink,
                           (OffsetNumber)(poff + 1), 0, buf);
            tdb_pfree(downlink);
        }
    }
    if (nposting != NULL) {
        tdb_pfree(nposting);
        tdb_pfree(itup);
    }
}
