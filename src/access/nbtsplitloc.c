/*
 * nbtsplitloc.c -- choosing where to split a B-tree page, PostgreSQL's
 * nbtsplitloc.c algorithm (so that tupledb's pages match PostgreSQL's
 * byte for byte): every legal split point is recorded with the free space
 * it leaves on each side; the points are sorted by their distance from
 * the ideal balance (50:50, or the fillfactor for a rightmost page, 96%
 * for a page of one value); among the first few ("the interval") the
 * one whose new high key needs the fewest attributes wins.  A page with
 * many duplicates widens the interval to split beside the duplicates;
 * one full of a single value splits near its end.
 *
 * The sort must order equal deltas as PostgreSQL does, so it is the same
 * algorithm as PostgreSQL's pg_qsort (Bentley & McIlroy's quicksort with
 * a presorted check and median-of-three / ninther pivots), written here
 * for the split point array.
 */
#include "common/base.h"

#include <limits.h>

#include "access/nbtree_int.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"

/* How far from the best balance a split in the default interval may be:
 * a fraction of the page's data. */
#define LEAF_SPLIT_DISTANCE 0.050
#define INTERNAL_SPLIT_DISTANCE 0.075
/* "just to the right of the new item" for the many duplicates check */
#define MANY_DUPLICATES_NEAR 9

typedef enum SplitStrategy {
    SPLIT_DEFAULT,
    SPLIT_MANY_DUPLICATES,
    SPLIT_SINGLE_VALUE,
} SplitStrategy;

typedef struct SplitPoint {
    int16 curdelta;
    int16 leftfree;
    int16 rightfree;
    OffsetNumber firstright; /* first old item on the right page */
    bool newitemonleft;
} SplitPoint;

typedef struct SplitState {
    const BTIndexData *idx;
    Page page;
    IndexTuple newitem;
    Size newitemsz; /* with its line pointer */
    bool is_leaf;
    bool is_rightmost;
    OffsetNumber newitemoff;
    int leftspace, rightspace, olddataitemstotal;
    Size minfirstrightsz;
    int nsplits;
    SplitPoint *splits;
    int interval;
} SplitState;

/* ---- the sort ---------------------------------------------------------- */

static inline int
split_cmp(const SplitPoint *a, const SplitPoint *b)
{
    return (a->curdelta > b->curdelta) - (a->curdelta < b->curdelta);
}

static inline void
split_swap(SplitPoint *a, SplitPoint *b)
{
    SplitPoint t = *a;

    *a = *b;
    *b = t;
}

static inline void
split_swapn(SplitPoint *a, SplitPoint *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        split_swap(a + i, b + i);
}

static inline SplitPoint *
split_med3(SplitPoint *a, SplitPoint *b, SplitPoint *c)
{
    return split_cmp(a, b) < 0
               ? (split_cmp(b, c) < 0 ? b : (split_cmp(a, c) < 0 ? c : a))
               : (split_cmp(b, c) > 0 ? b : (split_cmp(a, c) < 0 ? a : c));
}

static void
split_sort(SplitPoint *a, size_t n)
{
    SplitPoint *pa, *pb, *pc, *pd, *pl, *pm, *pn;
    size_t d1, d2;
    int r;

loop:
    if (n < 7) {
        for (pm = a + 1; pm < a + n; pm++)
            for (pl = pm; pl > a && split_cmp(pl - 1, pl) > 0; pl--)
                split_swap(pl, pl - 1);
        return;
    }
    {
        bool presorted = true;

        for (pm = a + 1; pm < a + n; pm++)
            if (split_cmp(pm - 1, pm) > 0) {
                presorted = false;
                break;
            }
        if (presorted)
            return;
    }
    pm = a + n / 2;
    if (n > 7) {
        pl = a;
        pn = a + n - 1;
        if (n > 40) {
            size_t d = n / 8;

            pl = split_med3(pl, pl + d, pl + 2 * d);
            pm = split_med3(pm - d, pm, pm + d);
            pn = split_med3(pn - 2 * d, pn - d, pn);
        }
        pm = split_med3(pl, pm, pn);
    }
    split_swap(a, pm);
    pa = pb = a + 1;
    pc = pd = a + n - 1;
    for (;;) {
        while (pb <= pc && (r = split_cmp(pb, a)) <= 0) {
            if (r == 0) {
                split_swap(pa, pb);
                pa++;
            }
            pb++;
        }
        while (pb <= pc && (r = split_cmp(pc, a)) >= 0) {
            if (r == 0) {
                split_swap(pc, pd);
                pd--;
            }
            pc--;
        }
        if (pb > pc)
            break;
        split_swap(pb, pc);
        pb++;
        pc--;
    }
    pn = a + n;
    d1 = Min((size_t)(pa - a), (size_t)(pb - pa));
    split_swapn(a, pb - d1, d1);
    d1 = Min((size_t)(pd - pc), (size_t)(pn - pd - 1));
    split_swapn(pb, pn - d1, d1);
    d1 = (size_t)(pb - pa);
    d2 = (size_t)(pd - pc);
    if (d1 <= d2) {
        if (d1 > 1)
            split_sort(a, d1);
        if (d2 > 1) {
            a = pn - d2;
            n = d2;
            goto loop;
        }
    } else {
        if (d2 > 1)
            split_sort(pn - d2, d2);
        if (d1 > 1) {
            n = d1;
            goto loop;
        }
    }
}

/* ---- recording and choosing ------------------------------------------ */

static void
record_split(SplitState *st, OffsetNumber firstright, bool newitemonleft,
             int olddataitemstoleft, Size firstrightsz)
{
    int16 leftfree, rightfree;
    Size firstrightitemsz;
    Size postingsz = 0;

    /* the left page may not be left empty */
    if (firstright == P_FIRSTDATAKEY(bt_opaque(st->page)) && !newitemonleft)
        return;
    if (firstright == st->newitemoff && !newitemonleft) {
        firstrightitemsz = st->newitemsz;
    } else {
        firstrightitemsz = firstrightsz;
        /* a posting list's TIDs are truncated away from the high key;
         * PostgreSQL only looks when the tuple is over 64 bytes */
        if (st->is_leaf && firstrightitemsz > 64) {
            IndexTuple t = bt_page_item(st->page, firstright);

            if (bt_tuple_is_posting(t))
                postingsz = IndexTupleSize(t) - bt_tuple_posting_offset(t);
        }
    }

    leftfree = (int16)(st->leftspace - olddataitemstoleft);
    rightfree =
        (int16)(st->rightspace - (st->olddataitemstotal - olddataitemstoleft));
    /* the first right item becomes the left page's high key; on a leaf it
     * may grow by a heap TID */
    if (st->is_leaf)
        leftfree -= (int16)(firstrightitemsz +
                            MAXALIGN(sizeof(ItemPointerData)) - postingsz);
    else
        leftfree -= (int16)firstrightitemsz;
    if (newitemonleft)
        leftfree -= (int16)st->newitemsz;
    else
        rightfree -= (int16)st->newitemsz;
    /* an internal right page keeps only the first item's downlink */
    if (!st->is_leaf)
        rightfree +=
            (int16)firstrightitemsz -
            (int16)(MAXALIGN(sizeof(IndexTupleData)) + sizeof(ItemIdData));
    if (leftfree >= 0 && rightfree >= 0) {
        SplitPoint *s = &st->splits[st->nsplits++];

        st->minfirstrightsz = Min(st->minfirstrightsz, firstrightitemsz);
        s->curdelta = 0;
        s->leftfree = leftfree;
        s->rightfree = rightfree;
        s->firstright = firstright;
        s->newitemonleft = newitemonleft;
    }
}

static void
delta_sort(SplitState *st, double fillfactormult, bool usemult)
{
    for (int i = 0; i < st->nsplits; i++) {
        SplitPoint *s = &st->splits[i];
        int16 delta;

        if (usemult)
            delta = (int16)(fillfactormult * s->leftfree -
                            (1.0 - fillfactormult) * s->rightfree);
        else
            delta = (int16)(s->leftfree - s->rightfree);
        if (delta < 0)
            delta = (int16)-delta;
        s->curdelta = delta;
    }
    split_sort(st->splits, (size_t)st->nsplits);
}

static IndexTuple
split_lastleft(SplitState *st, const SplitPoint *s)
{
    if (s->newitemonleft && s->firstright == st->newitemoff)
        return st->newitem;
    return bt_page_item(st->page, (OffsetNumber)(s->firstright - 1));
}

static IndexTuple
split_firstright(SplitState *st, const SplitPoint *s)
{
    if (!s->newitemonleft && s->firstright == st->newitemoff)
        return st->newitem;
    return bt_page_item(st->page, s->firstright);
}

static bool
adjacent_htid(const ItemPointerData *low, const ItemPointerData *high)
{
    BlockNumber lb = ItemPointerGetBlockNumber(low);
    BlockNumber hb = ItemPointerGetBlockNumber(high);

    if (lb == hb)
        return true;
    return lb + 1 == hb &&
           ItemPointerGetOffsetNumber(high) == FirstOffsetNumber;
}

/* PostgreSQL's "split after new item" heuristic for composite keys. */
static bool
after_newitemoff(SplitState *st, OffsetNumber maxoff, int leaffillfactor,
                 bool *usemult)
{
    int nkeyatts = st->idx->nkeyatts;
    IndexTuple tup;
    int keep;

    if (nkeyatts == 1 || st->newitemoff == P_FIRSTKEY)
        return false;
    if (st->newitemsz != st->minfirstrightsz)
        return false;
    if (st->newitemsz * (Size)(maxoff - 1) != (Size)st->olddataitemstotal)
        return false;
    if (st->newitemsz > MAXALIGN(sizeof(IndexTupleData) + sizeof(int64) * 2) +
                            sizeof(ItemIdData))
        return false;
    if (st->newitemoff > maxoff) {
        tup = bt_page_item(st->page, maxoff);
        keep = tdb_bt_keep_natts_fast(st->idx, tup, st->newitem);
        if (keep > 1 && keep <= nkeyatts) {
            *usemult = true;
            return true;
        }
        return false;
    }
    tup = bt_page_item(st->page, (OffsetNumber)(st->newitemoff - 1));
    if (bt_tuple_is_posting(tup) ||
        !adjacent_htid(&tup->t_tid, &st->newitem->t_tid))
        return false;
    keep = tdb_bt_keep_natts_fast(st->idx, tup, st->newitem);
    if (keep > 1 && keep <= nkeyatts) {
        double interp = (double)st->newitemoff / ((double)maxoff + 1);

        *usemult = interp > (double)leaffillfactor / 100.0;
        return true;
    }
    return false;
}

/*
 * The default interval: the splits (in delta order) whose free space on
 * each side stays within a tolerance of the best-balanced one's.
 */
static int
default_interval(SplitState *st)
{
    SplitPoint *opt = st->splits;
    int16 tol =
        (int16)(st->olddataitemstotal *
                (st->is_leaf ? LEAF_SPLIT_DISTANCE : INTERNAL_SPLIT_DISTANCE));
    int16 lowl = (int16)(opt->leftfree - tol),
          lowr = (int16)(opt->rightfree - tol);
    int16 highl = (int16)(opt->leftfree + tol),
          highr = (int16)(opt->rightfree + tol);

    for (int i = 1; i < st->nsplits; i++) {
        SplitPoint *s = st->splits + i;

        if (s->leftfree < lowl || s->rightfree < lowr || s->leftfree > highl ||
            s->rightfree > highr)
            return i;
    }
    return st->nsplits;
}

static void
interval_edges(SplitState *st, SplitPoint **left, SplitPoint **right)
{
    int high = Min(st->interval, st->nsplits);
    SplitPoint *opt = st->splits;

    *left = *right = NULL;
    for (int i = high - 1; i >= 0; i--) {
        SplitPoint *d = st->splits + i;

        if (d->firstright < opt->firstright) {
            if (*left == NULL)
                *left = d;
        } else if (d->firstright > opt->firstright) {
            if (*right == NULL)
                *right = d;
        } else if (!d->newitemonleft && opt->newitemonleft) {
            if (*left == NULL)
                *left = d;
        } else if (d->newitemonleft && !opt->newitemonleft) {
            if (*right == NULL)
                *right = d;
        } else {
            if (*left == NULL)
                *left = d;
            if (*right == NULL)
                *right = d;
        }
        if (*left && *right)
            return;
    }
    *left = *right = opt; /* not reached for a consistent array */
}

static int
choose_strategy(SplitState *st, SplitPoint *leftpage, SplitPoint *rightpage,
                SplitStrategy *strategy)
{
    int nkeyatts = st->idx->nkeyatts;
    SplitPoint *li, *ri;
    int perfect;

    *strategy = SPLIT_DEFAULT;
    if (!st->is_leaf)
        return (int)st->minfirstrightsz;
    interval_edges(st, &li, &ri);
    perfect = tdb_bt_keep_natts_fast(st->idx, split_lastleft(st, li),
                                     split_firstright(st, ri));
    if (perfect <= nkeyatts)
        return perfect;
    perfect = tdb_bt_keep_natts_fast(st->idx, split_lastleft(st, leftpage),
                                     split_firstright(st, rightpage));
    if (perfect <= nkeyatts) {
        *strategy = SPLIT_MANY_DUPLICATES;
        return nkeyatts;
    }
    if (st->is_rightmost) {
        *strategy = SPLIT_SINGLE_VALUE;
    } else {
        perfect = tdb_bt_keep_natts_fast(
            st->idx, bt_page_item(st->page, P_HIKEY), st->newitem);
        if (perfect <= nkeyatts)
            *strategy = SPLIT_SINGLE_VALUE;
    }
    return perfect;
}

static int
split_penalty(SplitState *st, SplitPoint *s)
{
    if (!st->is_leaf) {
        if (!s->newitemonleft && s->firstright == st->newitemoff)
            return (int)st->newitemsz;
        return (int)(MAXALIGN(ItemIdGetLength(
                         tdb_page_get_item_id(st->page, s->firstright))) +
                     sizeof(ItemIdData));
    }
    return tdb_bt_keep_natts_fast(st->idx, split_lastleft(st, s),
                                  split_firstright(st, s));
}

static OffsetNumber
best_split(SplitState *st, int perfect, bool *newitemonleft,
           SplitStrategy strategy)
{
    int best = INT_MAX, low = 0;
    int high = Min(st->interval, st->nsplits);
    SplitPoint *final;

    for (int i = 0; i < high; i++) {
        int p = split_penalty(st, st->splits + i);

        if (p <= perfect) {
            low = i;
            break;
        }
        if (p < best) {
            best = p;
            low = i;
        }
    }
    final = &st->splits[low];
    if (strategy == SPLIT_MANY_DUPLICATES && !st->is_rightmost &&
        !final->newitemonleft && final->firstright >= st->newitemoff &&
        final->firstright < st->newitemoff + MANY_DUPLICATES_NEAR)
        final = &st->splits[0];
    *newitemonleft = final->newitemonleft;
    return final->firstright;
}

/*
 * Where to split page (leaf or internal) to insert newitem (newitemsz:
 * MAXALIGNed, without line pointer) before item newitemoff: returns the
 * first old item that goes right; *newitemonleft says where newitem goes.
 */
OffsetNumber
tdb_bt_findsplitloc(const BTIndexData *idx, Page page, OffsetNumber newitemoff,
                    Size newitemsz, IndexTuple newitem, bool *newitemonleft)
{
    BTPageOpaque o = bt_opaque(page);
    OffsetNumber maxoff = tdb_page_get_max_offset(page);
    int leftspace, rightspace, olddataitemstoleft = 0;
    SplitState st;
    SplitStrategy strategy;
    SplitPoint leftpage, rightpage;
    double fillfactormult;
    bool usemult;
    int perfect;
    OffsetNumber result;

    leftspace = rightspace = BLCKSZ - (int)SizeOfPageHeaderData -
                             (int)MAXALIGN(sizeof(BTPageOpaqueData));
    if (!P_RIGHTMOST(o))
        rightspace -= (int)(MAXALIGN(ItemIdGetLength(
                                tdb_page_get_item_id(page, P_HIKEY))) +
                            sizeof(ItemIdData));
    st.idx = idx;
    st.page = page;
    st.newitem = newitem;
    st.newitemsz = newitemsz + sizeof(ItemIdData);
    st.is_leaf = P_ISLEAF(o);
    st.is_rightmost = P_RIGHTMOST(o);
    st.leftspace = leftspace;
    st.rightspace = rightspace;
    st.olddataitemstotal =
        rightspace - (int)tdb_page_get_exact_free_space(page);
    st.minfirstrightsz = SIZE_MAX;
    st.newitemoff = newitemoff;
    st.splits = tdb_palloc(sizeof(SplitPoint) * (Size)(maxoff + 1));
    st.nsplits = 0;

    for (OffsetNumber off = P_FIRSTDATAKEY(o); off <= maxoff; off++) {
        Size itemsz =
            MAXALIGN(ItemIdGetLength(tdb_page_get_item_id(page, off))) +
            sizeof(ItemIdData);

        if (off < newitemoff) {
            record_split(&st, off, false, olddataitemstoleft, itemsz);
        } else if (off > newitemoff) {
            record_split(&st, off, true, olddataitemstoleft, itemsz);
        } else {
            record_split(&st, off, false, olddataitemstoleft, itemsz);
            record_split(&st, off, true, olddataitemstoleft, itemsz);
        }
        olddataitemstoleft += (int)itemsz;
    }
    if (newitemoff > maxoff)
        record_split(&st, newitemoff, false, st.olddataitemstotal, 0);
    if (st.nsplits == 0)
        elog(ERROR, "could not find a feasible split point for index \"%s\"",
             idx->name);

    if (!st.is_leaf) {
        usemult = st.is_rightmost;
        fillfactormult = BTREE_NONLEAF_FILLFACTOR / 100.0;
    } else if (st.is_rightmost) {
        usemult = true;
        fillfactormult = idx->fillfactor / 100.0;
    } else if (after_newitemoff(&st, maxoff, idx->fillfactor, &usemult)) {
        if (usemult) {
            fillfactormult = idx->fillfactor / 100.0;
        } else {
            for (int i = 0; i < st.nsplits; i++) {
                SplitPoint *s = &st.splits[i];

                if (s->newitemonleft && newitemoff == s->firstright) {
                    tdb_pfree(st.splits);
                    *newitemonleft = true;
                    return newitemoff;
                }
            }
            fillfactormult = 0.50;
        }
    } else {
        usemult = false;
        fillfactormult = 0.50;
    }

    leftpage = st.splits[0];
    rightpage = st.splits[st.nsplits - 1];
    delta_sort(&st, fillfactormult, usemult);
    st.interval = default_interval(&st);
    perfect = choose_strategy(&st, &leftpage, &rightpage, &strategy);
    if (strategy == SPLIT_MANY_DUPLICATES) {
        st.interval = st.nsplits;
    } else if (strategy == SPLIT_SINGLE_VALUE) {
        delta_sort(&st, BTREE_SINGLEVAL_FILLFACTOR / 100.0, true);
        st.interval = 1;
    }
    result = best_split(&st, perfect, newitemonleft, strategy);
    tdb_pfree(st.splits);
    return result;
}
