/*
 * nbtsearch.c -- descending the tree and scanning it.
 *
 * Descent (Lehman & Yao): from the root, at each page first move right
 * while the key is past the page's high key (a split that the reader has
 * not seen in the parent), then binary-search the page for the downlink.
 * A reader holds one share lock at a time; a writer's page split is
 * atomic under the exclusive locks of both halves, so a reader sees a
 * page either before or after the split and the right link leads to
 * whatever moved.
 *
 * Scans work a page at a time, as PostgreSQL's: under the leaf's share
 * lock every matching heap TID of the page is copied out, with the right
 * and left links as they were; the lock and pin are then dropped.  A split
 * afterwards only moves items the scan already has (forward: the saved
 * right link skips the new page; backward: walking left re-finds the left
 * neighbour through right links), so nothing is missed or returned twice.
 */
#include "common/base.h"

#include <string.h>

#include "access/nbtree_int.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"

/*
 * Has a walk along a level taken more steps than the index has pages (a
 * cycle of links: corruption)?  *nblocks caches the relation's length,
 * asked for only when steps passes the last value known (InvalidBlockNumber
 * at first), so the common walk of a step or two costs a compare.
 */
static bool
steps_exhausted(const BTIndexData *idx, uint32 steps, BlockNumber *nblocks)
{
    if (*nblocks != InvalidBlockNumber && steps < *nblocks)
        return false;
    if (steps < 8)
        return false;
    *nblocks = tdb_buf_relation_nblocks(idx->relfilenumber);
    return steps >= *nblocks;
}

/* Move right from buf (locked in mode) while key is past the high key. */
Buffer
tdb_bt_moveright(const BTIndexData *idx, const BTInsertKey *key, Buffer buf,
                 BufferLockMode mode)
{
    int cmpval = key->nextkey ? 0 : 1;
    BlockNumber nblocks = InvalidBlockNumber;

    for (uint32 steps = 0;; steps++) {
        Page page = tdb_buf_page(buf);
        BTPageOpaque o = bt_opaque(page);
        BlockNumber next;

        /* a half-dead or deleted page holds nothing: its key range went
         * to its right sibling */
        if (!P_IGNORE(o) && (P_RIGHTMOST(o) ||
                             tdb_bt_compare(idx, key, page, P_HIKEY) < cmpval))
            return buf;
        next = o->btpo_next;
        if (next == P_NONE || next == tdb_buf_block_number(buf)) {
            BlockNumber blk = tdb_buf_block_number(buf);

            tdb_buf_unlock_release(buf);
            tdb_bt_raise_corrupt(idx, blk, "A deleted page has no right link.");
        }
        tdb_buf_unlock_release(buf);
        if (steps_exhausted(idx, steps, &nblocks))
            tdb_bt_raise_corrupt(idx, next,
                                 "The right links of a level form a cycle.");
        buf = tdb_bt_getbuf(idx, next, mode);
    }
}

/*
 * Leaf: the first item >= key (> key with nextkey), maxoff + 1 if none.
 * Internal: the last item < key (<= with nextkey), whose downlink leads to
 * the key.
 */
OffsetNumber
tdb_bt_binsrch(const BTIndexData *idx, const BTInsertKey *key, Page page)
{
    BTPageOpaque o = bt_opaque(page);
    OffsetNumber low = P_FIRSTDATAKEY(o);
    OffsetNumber high = tdb_page_get_max_offset(page);
    int cmpval = key->nextkey ? 0 : 1;

    if (high < low)
        return low;
    high++;
    if (idx->fast == BT_FAST_INT4 && key->keysz == 1 && !key->isnull[0]) {
        /*
         * A single int4 key: compare the key data in place while it
         * differs (one load and compare per probe, measured ~3x fewer
         * instructions per probe than the general compare); the general
         * compare decides ties (heap TIDs, truncated pivots, NULLs) and
         * the minus-infinity first item of internal pages.
         */
        const PageHeaderData *h = tdb_page_header_const(page);
        int32 k = DatumGetInt32(key->values[0]);
        OffsetNumber first = P_ISLEAF(o) ? InvalidOffsetNumber : low;

        while (high > low) {
            OffsetNumber mid = (OffsetNumber)(low + (high - low) / 2);
            const ItemIdData *lp = &h->pd_linp[mid - 1];
            const char *t = page + lp->lp_off;
            int r;

            if (mid != first && lp->lp_off >= h->pd_upper &&
                lp->lp_off + lp->lp_len <= h->pd_special && lp->lp_len >= 16 &&
                !(((const IndexTupleData *)t)->t_info & INDEX_NULL_MASK) &&
                (((const IndexTupleData *)t)->t_info & INDEX_SIZE_MASK) >= 16 &&
                !(bt_tuple_is_pivot((const IndexTupleData *)t) &&
                  bt_tuple_natts(idx, (const IndexTupleData *)t) == 0)) {
                int32 v;

                memcpy(&v, t + MAXALIGN(sizeof(IndexTupleData)), sizeof(v));
                r = (k > v) - (k < v);
                if (r == 0)
                    r = tdb_bt_compare(idx, key, page, mid);
            } else {
                r = tdb_bt_compare(idx, key, page, mid);
            }
            if (r >= cmpval)
                low = (OffsetNumber)(mid + 1);
            else
                high = mid;
        }
        return P_ISLEAF(o) ? low : (OffsetNumber)(low - 1);
    }
    while (high > low) {
        OffsetNumber mid = (OffsetNumber)(low + (high - low) / 2);

        if (tdb_bt_compare(idx, key, page, mid) >= cmpval)
            low = (OffsetNumber)(mid + 1);
        else
            high = mid;
    }
    if (P_ISLEAF(o))
        return low;
    return (OffsetNumber)(low - 1);
}

/*
 * An inserting descent met the left half of an interrupted split in buf
 * (locked in mode): finish it (PostgreSQL's _bt_moveright does, for
 * writers) and return the same page again in mode, for the descent to
 * move right from.  stack: the path to its parent.
 */
static Buffer
finish_split(BTIndex idx, Buffer buf, BTStack stack, BufferLockMode mode)
{
    BlockNumber blk = tdb_buf_block_number(buf);

    if (mode != BUF_LOCK_EXCLUSIVE) {
        tdb_buf_lock(buf, BUF_LOCK_UNLOCK);
        tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    }
    if (P_INCOMPLETE_SPLIT(bt_opaque(tdb_buf_page(buf))))
        tdb_bt_finish_split(idx, buf, stack);
    else
        tdb_buf_unlock_release(buf);
    return tdb_bt_getbuf(idx, blk, mode);
}

/*
 * Descend to the leaf where key belongs; it is returned in *bufp locked
 * in leafmode (InvalidBuffer if the index is empty and leafmode is share).
 * Returns the path (parent pages and downlink offsets), allocated in the
 * current context, for splits.
 */
BTStack
tdb_bt_search(BTIndex idx, const BTInsertKey *key, Buffer *bufp,
              BufferLockMode leafmode)
{
    BTStack stack = NULL;
    Buffer buf =
        tdb_bt_getroot(idx, leafmode == BUF_LOCK_EXCLUSIVE, BUF_LOCK_SHARE);
    uint32 level;

    *bufp = InvalidBuffer;
    if (buf == InvalidBuffer)
        return NULL;
    level = bt_opaque(tdb_buf_page(buf))->btpo_level;
    if (level == 0 && leafmode != BUF_LOCK_SHARE) {
        BlockNumber blk = tdb_buf_block_number(buf);

        tdb_buf_unlock_release(buf);
        buf = tdb_bt_getbuf(idx, blk, leafmode);
    }
    for (;;) {
        Page page;
        BTPageOpaque o;
        OffsetNumber off;
        BlockNumber child;
        BTStack s;
        BufferLockMode mode;

        /* an insert finishes the interrupted splits it meets: the page
         * the downlink led to, or the one it moved right to */
        if (unlikely(P_INCOMPLETE_SPLIT(bt_opaque(tdb_buf_page(buf)))) &&
            leafmode == BUF_LOCK_EXCLUSIVE)
            buf = finish_split(idx, buf, stack,
                               level == 0 ? leafmode : BUF_LOCK_SHARE);
        buf = tdb_bt_moveright(idx, key, buf,
                               level == 0 ? leafmode : BUF_LOCK_SHARE);
        page = tdb_buf_page(buf);
        o = bt_opaque(page);
        if (unlikely(P_INCOMPLETE_SPLIT(o)) && leafmode == BUF_LOCK_EXCLUSIVE)
            continue;
        if (o->btpo_level != level) {
            BlockNumber blk = tdb_buf_block_number(buf);

            tdb_buf_unlock_release(buf);
            tdb_bt_raise_corrupt(
                idx, blk,
                "The page's level is not its parent's level minus one.");
        }
        if (P_ISLEAF(o))
            break;
        off = tdb_bt_binsrch(idx, key, page);
        child = bt_tuple_downlink(bt_page_item_checked(idx, page, off));
        s = tdb_palloc(sizeof(BTStackData));
        s->blkno = tdb_buf_block_number(buf);
        s->offset = off;
        s->parent = stack;
        stack = s;
        tdb_buf_unlock_release(buf);
        level--;
        mode = level == 0 ? leafmode : BUF_LOCK_SHARE;
        if (child == P_NONE || child == s->blkno)
            tdb_bt_raise_corrupt(idx, s->blkno, "A downlink is invalid.");
        buf = tdb_bt_getbuf(idx, child, mode);
    }
    *bufp = buf;
    return stack;
}

/* ----------------------------------------------------------------------
 * Scans
 * ---------------------------------------------------------------------- */

typedef struct ScanKeyState {
    int att;         /* 0-based */
    int strategy;    /* in index order (DESC commuted) */
    bool isnull_key; /* IS NULL */
    bool notnull_key; /* IS NOT NULL */
    bool req_fwd;    /* failing it ends a forward scan */
    bool req_bwd;    /* ... a backward scan */
    Datum arg;
} ScanKeyState;

typedef struct BTScanDescData {
    BTIndex idx;
    BTScanDirection dir;
    int nkeys;
    ScanKeyState *keys;
    bool started;
    bool done;
    /* the current page's TIDs */
    BlockNumber curr_page;
    BlockNumber next_page; /* its right link when read */
    BlockNumber prev_page; /* its left link when read */
    bool more;             /* pages remain in the scan's direction */
    uint32 steps;          /* pages stepped to since the first */
    BlockNumber nblocks;   /* the index's length as last asked */
    int nitems, item;
    ItemPointerData *items;
    /* tdb_bt_scan_keep_tuples: the current page's matching index tuples
     * copied into tuples (one page's worth at most), item i's at
     * tuples + tuple_off[i]; NULL when not asked for */
    char *tuples;
    uint16 *tuple_off;
    Size tuples_used;
} BTScanDescData;

static int
commute(int strategy)
{
    switch (strategy) {
    case BT_LESS:
        return BT_GREATER;
    case BT_LESS_EQUAL:
        return BT_GREATER_EQUAL;
    case BT_GREATER_EQUAL:
        return BT_LESS_EQUAL;
    case BT_GREATER:
        return BT_LESS;
    default:
        return strategy;
    }
}

static void
setup_keys(BTScanDesc scan, const BTScanKeyData *keys, int nkeys)
{
    BTIndex idx = scan->idx;
    bool has_eq[INDEX_MAX_KEYS] = {false};

    scan->keys = tdb_palloc(sizeof(ScanKeyState) * (Size)Max(nkeys, 1));
    scan->nkeys = nkeys;
    for (int i = 0; i < nkeys; i++) {
        ScanKeyState *k = &scan->keys[i];

        if (keys[i].attno < 1 || keys[i].attno > idx->nkeyatts ||
            keys[i].strategy < BT_LESS || keys[i].strategy > BT_IS_NOT_NULL)
            elog(ERROR, "invalid scan key for index \"%s\"", idx->name);
        k->att = keys[i].attno - 1;
        k->isnull_key = keys[i].strategy == BT_IS_NULL;
        k->notnull_key = keys[i].strategy == BT_IS_NOT_NULL;
        if (k->isnull_key)
            k->strategy = BT_EQUAL;
        else if (k->notnull_key)
            k->strategy = 0; /* positions nothing; ends a scan at the NULLs */
        else if (idx->keys[k->att].desc)
            k->strategy = commute((int)keys[i].strategy);
        else
            k->strategy = (int)keys[i].strategy;
        k->arg = keys[i].argument;
        if (k->strategy == BT_EQUAL)
            has_eq[k->att] = true;
    }
    for (int i = 0; i < nkeys; i++) {
        ScanKeyState *k = &scan->keys[i];
        bool required = true;

        for (int a = 0; a < k->att; a++)
            required &= has_eq[a];
        k->req_fwd = required && k->strategy <= BT_EQUAL;
        k->req_bwd = required && k->strategy >= BT_EQUAL;
        if (k->notnull_key) {
            /* the NULLs lie at one end: reaching them ends the scan */
            bool nf = idx->keys[k->att].nulls_first;

            k->req_fwd = required && !nf;
            k->req_bwd = required && nf;
        }
    }
}

BTScanDesc
tdb_bt_beginscan(BTIndex idx, const BTScanKeyData *keys, int nkeys,
                 BTScanDirection dir)
{
    BTScanDesc scan = tdb_palloc0(sizeof(BTScanDescData));

    scan->idx = idx;
    scan->dir = dir;
    scan->items = tdb_palloc(sizeof(ItemPointerData) * BT_MAX_TIDS_PER_PAGE);
    scan->nblocks = InvalidBlockNumber;
    setup_keys(scan, keys, nkeys);
    return scan;
}

void
tdb_bt_rescan(BTScanDesc scan, const BTScanKeyData *keys, int nkeys)
{
    tdb_pfree(scan->keys);
    setup_keys(scan, keys, nkeys);
    scan->started = scan->done = false;
    scan->nitems = scan->item = 0;
    scan->steps = 0;
}

void
tdb_bt_endscan(BTScanDesc scan)
{
    tdb_pfree(scan->keys);
    tdb_pfree(scan->items);
    if (scan->tuples != NULL) {
        tdb_pfree(scan->tuples);
        tdb_pfree(scan->tuple_off);
    }
    tdb_pfree(scan);
}

void
tdb_bt_scan_keep_tuples(BTScanDesc scan)
{
    if (scan->tuples != NULL)
        return;
    scan->tuples = tdb_palloc(BLCKSZ);
    scan->tuple_off = tdb_palloc(sizeof(uint16) * BT_MAX_TIDS_PER_PAGE);
}

void
tdb_bt_scan_current_values(BTScanDesc scan, Datum *values, bool *isnull)
{
    Assert(scan->tuples != NULL && scan->item > 0);
    tdb_bt_deform(scan->idx,
                  (IndexTuple)(scan->tuples + scan->tuple_off[scan->item - 1]),
                  values, isnull);
}

/* Does tuple t satisfy every key?  *cont becomes false when no later
 * tuple in the scan's direction can. */
static bool
check_keys(BTScanDesc scan, IndexTuple t, bool *cont)
{
    BTIndex idx = scan->idx;
    Datum values[INDEX_MAX_KEYS];
    bool isnull[INDEX_MAX_KEYS];
    bool fwd = scan->dir == BT_FORWARD;

    if (scan->nkeys == 0)
        return true;
    if (idx->fast == BT_FAST_INT4 && !(t->t_info & INDEX_NULL_MASK)) {
        /* one int4 column, not null: no deforming */
        int32 v;

        memcpy(&v, (const char *)t + MAXALIGN(sizeof(IndexTupleData)),
               sizeof(v));
        values[0] = Int32GetDatum(v);
        isnull[0] = false;
    } else {
        tdb_bt_deform(idx, t, values, isnull);
    }
    for (int i = 0; i < scan->nkeys; i++) {
        ScanKeyState *k = &scan->keys[i];
        bool ok;

        if (k->isnull_key) {
            if (isnull[k->att])
                continue;
            if ((k->req_fwd && fwd) || (k->req_bwd && !fwd))
                *cont = false;
            return false;
        }
        if (k->notnull_key) {
            if (!isnull[k->att])
                continue;
            if ((k->req_fwd && fwd) || (k->req_bwd && !fwd))
                *cont = false;
            return false;
        }
        if (isnull[k->att]) {
            bool nf = idx->keys[k->att].nulls_first;

            if ((k->req_fwd || k->req_bwd) && (nf ? !fwd : fwd))
                *cont = false;
            return false;
        }
        {
            int c = tdb_bt_cmp_values(idx, k->att, values[k->att], false,
                                      k->arg, false);

            switch (k->strategy) {
            case BT_LESS:
                ok = c < 0;
                break;
            case BT_LESS_EQUAL:
                ok = c <= 0;
                break;
            case BT_EQUAL:
                ok = c == 0;
                break;
            case BT_GREATER_EQUAL:
                ok = c >= 0;
                break;
            default:
                ok = c > 0;
                break;
            }
        }
        if (!ok) {
            if ((k->req_fwd && fwd) || (k->req_bwd && !fwd))
                *cont = false;
            return false;
        }
    }
    return true;
}

static void
add_tuple_tids(BTScanDesc scan, IndexTuple t)
{
    int first = scan->nitems;

    /* more than a page can hold: line pointers sharing tuples */
    if (unlikely(scan->nitems + (bt_tuple_is_posting(t)
                                     ? bt_tuple_nposting(t)
                                     : 1) > BT_MAX_TIDS_PER_PAGE))
        bt_raise_corrupt_at(scan->idx, t, "Line pointers overlap.");
    if (bt_tuple_is_posting(t)) {
        int n = bt_tuple_nposting(t);

        if (scan->dir == BT_FORWARD)
            for (int i = 0; i < n; i++)
                scan->items[scan->nitems++] = *bt_tuple_posting_n(t, i);
        else
            for (int i = n - 1; i >= 0; i--)
                scan->items[scan->nitems++] = *bt_tuple_posting_n(t, i);
    } else {
        scan->items[scan->nitems++] = t->t_tid;
    }
    if (scan->tuples != NULL) {
        Size size = IndexTupleSize(t);

        /* the tuples matched on one page fit in a page */
        Assert(scan->tuples_used + size <= BLCKSZ);
        memcpy(scan->tuples + scan->tuples_used, t, size);
        for (int i = first; i < scan->nitems; i++)
            scan->tuple_off[i] = (uint16)scan->tuples_used;
        scan->tuples_used += MAXALIGN(size);
    }
}

/*
 * Copy the matching TIDs of the locked leaf page (buf) from offset off in
 * the scan's direction; remember the links.  Returns whether any matched.
 */
static bool
read_page(BTScanDesc scan, Buffer buf, OffsetNumber off)
{
    Page page = tdb_buf_page(buf);
    BTPageOpaque o = bt_opaque(page);
    OffsetNumber minoff = P_FIRSTDATAKEY(o);
    OffsetNumber maxoff = tdb_page_get_max_offset(page);
    bool cont = true;

    scan->curr_page = tdb_buf_block_number(buf);
    scan->next_page = o->btpo_next;
    scan->prev_page = o->btpo_prev;
    scan->nitems = scan->item = 0;
    scan->tuples_used = 0;
    if (P_IGNORE(o)) {
        /* deleted since the link to it was read: nothing here, go on */
        scan->more = scan->dir == BT_FORWARD ? !P_RIGHTMOST(o) : true;
        return false;
    }
    if (!P_ISLEAF(o)) {
        tdb_buf_unlock_release(buf);
        tdb_bt_raise_corrupt(scan->idx, scan->curr_page,
                             "A leaf's sibling link leads off the leaf level.");
    }
    if (scan->dir == BT_FORWARD) {
        for (off = Max(off, minoff); off <= maxoff && cont; off++) {
            ItemIdData *lp = tdb_page_get_item_id(page, off);
            IndexTuple t = bt_page_item_checked(scan->idx, page, off);

            if (check_keys(scan, t, &cont) && !ItemIdIsDead(lp))
                add_tuple_tids(scan, t);
        }
        scan->more = cont && !P_RIGHTMOST(o);
    } else {
        for (off = Min(off, maxoff); off >= minoff && cont; off--) {
            ItemIdData *lp = tdb_page_get_item_id(page, off);
            IndexTuple t = bt_page_item_checked(scan->idx, page, off);

            if (check_keys(scan, t, &cont) && !ItemIdIsDead(lp))
                add_tuple_tids(scan, t);
        }
        scan->more = cont && !P_LEFTMOST(o);
    }
    return scan->nitems > 0;
}

/*
 * The live left neighbour of page `from` (whose left link was prev when
 * read), share-locked: prev, or -- if prev split since -- the page right
 * of it whose right link is `from`; a neighbour deleted since is passed
 * by its own left link.  If `from` itself was deleted meanwhile (its
 * neighbours' links no longer lead to it), the walk starts over from the
 * first live page right of it, which the scan has read already.
 * InvalidBuffer when there is no page to the left any more.
 */
static Buffer
walk_left(BTScanDesc scan, BlockNumber prev, BlockNumber from)
{
    BTIndex idx = scan->idx;
    BlockNumber nblocks = tdb_buf_relation_nblocks(idx->relfilenumber);

    for (uint32 tries = 0; tries <= nblocks; tries++) {
        Buffer buf;
        BTPageOpaque o;
        bool found_from = false;

        if (prev == P_NONE)
            return InvalidBuffer;
        buf = tdb_bt_getbuf(idx, prev, BUF_LOCK_SHARE);
        /* right from prev, looking for the page that links to from */
        for (uint32 steps = 0; steps <= nblocks; steps++) {
            BlockNumber next;

            o = bt_opaque(tdb_buf_page(buf));
            if (o->btpo_next == from) {
                if (!P_IGNORE(o))
                    return buf;
                /* deleted since: its left link passes it */
                prev = o->btpo_prev;
                found_from = true;
                break;
            }
            if (P_RIGHTMOST(o))
                break;
            next = o->btpo_next;
            tdb_buf_unlock_release(buf);
            buf = tdb_bt_getbuf(idx, next, BUF_LOCK_SHARE);
        }
        tdb_buf_unlock_release(buf);
        if (found_from)
            continue;
        /* no page links to from any more: from was deleted.  Start over
         * from the first live page right of it, which the scan has read
         * already (a backward scan reads right to left). */
        buf = tdb_bt_getbuf(idx, from, BUF_LOCK_SHARE);
        o = bt_opaque(tdb_buf_page(buf));
        if (!P_IGNORE(o) && o->btpo_prev == prev) {
            tdb_buf_unlock_release(buf);
            tdb_bt_raise_corrupt(
                idx, from, "The left sibling's right links do not lead back.");
        }
        while (P_IGNORE(o)) {
            BlockNumber next = o->btpo_next;

            tdb_buf_unlock_release(buf);
            if (next == P_NONE)
                tdb_bt_raise_corrupt(idx, from,
                                     "A deleted page has no right link.");
            from = next;
            buf = tdb_bt_getbuf(idx, from, BUF_LOCK_SHARE);
            o = bt_opaque(tdb_buf_page(buf));
        }
        prev = o->btpo_prev;
        tdb_buf_unlock_release(buf);
    }
    tdb_bt_raise_corrupt(idx, from, "The left links of a level form a cycle.");
}

/* Descend to the leftmost (forward) or rightmost leaf. */
static Buffer
get_endpoint(BTScanDesc scan)
{
    BTIndex idx = scan->idx;
    Buffer buf = tdb_bt_getroot(idx, false, BUF_LOCK_SHARE);
    BlockNumber nblocks = InvalidBlockNumber;
    uint32 level;

    if (buf == InvalidBuffer)
        return buf;
    level = bt_opaque(tdb_buf_page(buf))->btpo_level;
    for (uint32 steps = 0;; steps++) {
        Page page = tdb_buf_page(buf);
        BTPageOpaque o = bt_opaque(page);
        BlockNumber blk = tdb_buf_block_number(buf), child = P_NONE;
        const char *bad = NULL;

        if (o->btpo_level != level) {
            bad = "The page's level is not its parent's level minus one.";
        } else if ((scan->dir == BT_BACKWARD || P_IGNORE(o)) &&
                   !P_RIGHTMOST(o)) {
            child = o->btpo_next;
        } else if (P_ISLEAF(o)) {
            return buf;
        } else if (P_IGNORE(o)) {
            bad = "A deleted page has no right link.";
        } else {
            OffsetNumber off = scan->dir == BT_FORWARD
                                   ? P_FIRSTDATAKEY(o)
                                   : tdb_page_get_max_offset(page);

            child = bt_tuple_downlink(bt_page_item_checked(idx, page, off));
            level--;
            if (child == P_NONE || child == blk)
                bad = "A downlink is invalid.";
        }
        tdb_buf_unlock_release(buf);
        if (bad == NULL && steps_exhausted(idx, steps, &nblocks))
            bad = "The right links of a level form a cycle.";
        if (bad != NULL)
            tdb_bt_raise_corrupt(idx, blk, bad);
        buf = tdb_bt_getbuf(idx, child, BUF_LOCK_SHARE);
    }
}

/* Position on the first page: read it (and following pages, if it has no
 * match but the scan goes on).  false if the scan is empty. */
static bool
scan_first(BTScanDesc scan)
{
    BTIndex idx = scan->idx;
    BTInsertKey key;
    bool fwd = scan->dir == BT_FORWARD;
    int last_strategy = 0;
    Buffer buf;
    OffsetNumber off;

    memset(&key, 0, sizeof(key));
    /* the insertion key: = (or IS NULL) on leading columns, then one
     * boundary in the scan's direction */
    for (int att = 0; att < idx->nkeyatts; att++) {
        ScanKeyState *chosen = NULL;

        for (int i = 0; i < scan->nkeys; i++) {
            ScanKeyState *k = &scan->keys[i];

            /* IS NOT NULL positions nothing: a scan starting at the
             * NULLs' end steps over them (PostgreSQL starts past them) */
            if (k->att != att || k->notnull_key)
                continue;
            if (k->strategy == BT_EQUAL) {
                chosen = k;
                break;
            }
            if (chosen == NULL && (fwd ? k->strategy >= BT_GREATER_EQUAL
                                       : k->strategy <= BT_LESS_EQUAL))
                chosen = k;
        }
        if (chosen == NULL)
            break;
        key.values[att] = chosen->arg;
        key.isnull[att] = chosen->isnull_key;
        key.keysz = att + 1;
        last_strategy = chosen->strategy;
        if (chosen->strategy != BT_EQUAL)
            break;
    }
    if (key.keysz == 0) {
        buf = get_endpoint(scan);
        if (buf == InvalidBuffer)
            return false;
        off = fwd ? P_FIRSTDATAKEY(bt_opaque(tdb_buf_page(buf)))
                  : tdb_page_get_max_offset(tdb_buf_page(buf));
    } else {
        bool goback;

        if (fwd) {
            key.nextkey = last_strategy == BT_GREATER;
            goback = false;
        } else {
            key.nextkey =
                last_strategy == BT_EQUAL || last_strategy == BT_LESS_EQUAL;
            goback = true;
        }
        tdb_bt_search(idx, &key, &buf, BUF_LOCK_SHARE);
        if (buf == InvalidBuffer)
            return false;
        off = tdb_bt_binsrch(idx, &key, tdb_buf_page(buf));
        if (goback)
            off--;
    }
    read_page(scan, buf, off);
    tdb_buf_unlock_release(buf);
    return true;
}

/* Read the next page in the scan's direction; false at the end. */
static bool
step_page(BTScanDesc scan)
{
    while (scan->more) {
        Buffer buf;

        /* more pages than the index has: the links form a cycle */
        if (steps_exhausted(scan->idx, scan->steps++, &scan->nblocks))
            tdb_bt_raise_corrupt(scan->idx, scan->curr_page,
                                 "The sibling links of a level form a cycle.");
        if (scan->dir == BT_FORWARD) {
            buf = tdb_bt_getbuf(scan->idx, scan->next_page, BUF_LOCK_SHARE);
            read_page(scan, buf, FirstOffsetNumber);
        } else {
            buf = walk_left(scan, scan->prev_page, scan->curr_page);
            if (buf == InvalidBuffer)
                return false;
            read_page(scan, buf, MaxOffsetNumber);
        }
        tdb_buf_unlock_release(buf);
        if (scan->nitems > 0)
            return true;
    }
    return false;
}

bool
tdb_bt_getnext(BTScanDesc scan, ItemPointerData *htid)
{
    if (scan->done)
        return false;
    if (!scan->started) {
        scan->started = true;
        if (!scan_first(scan)) {
            scan->done = true;
            return false;
        }
    }
    while (scan->item >= scan->nitems) {
        if (!step_page(scan)) {
            scan->done = true;
            return false;
        }
    }
    *htid = scan->items[scan->item++];
    return true;
}

int
tdb_bt_find_equal(BTIndex idx, const Datum *values, const bool *isnull,
                  ItemPointerData **htids)
{
    BTScanKeyData keys[INDEX_MAX_KEYS];
    BTScanDesc scan;
    ItemPointerData tid;
    int n = 0, cap = 0;

    *htids = NULL;
    for (int i = 0; i < idx->nkeyatts; i++) {
        if (isnull[i])
            return 0;
        keys[i].attno = i + 1;
        keys[i].strategy = BT_EQUAL;
        keys[i].argument = values[i];
    }
    scan = tdb_bt_beginscan(idx, keys, idx->nkeyatts, BT_FORWARD);
    while (tdb_bt_getnext(scan, &tid)) {
        if (n == cap) {
            cap = cap == 0 ? 4 : cap * 2;
            *htids =
                *htids == NULL
                    ? tdb_palloc(sizeof(ItemPointerData) * (Size)cap)
                    : tdb_repalloc(*htids, sizeof(ItemPointerData) * (Size)cap);
        }
        (*htids)[n++] = tid;
    }
    tdb_bt_endscan(scan);
    return n;
}
