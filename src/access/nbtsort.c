/*
 * nbtsort.c -- the bottom-up loader for CREATE INDEX: entries arrive in
 * index order (the caller sorts them with executor/tuplesort) and are
 * written left to right, a level at a time, as PostgreSQL's nbtsort.c
 * writes them: each leaf filled until less than (100 - fillfactor)% of a
 * page would remain, internal pages to 70%; when a page is full its last
 * item moves to a new right sibling and a suffix-truncated copy of it
 * becomes the full page's high key, whose copy (the new page's "low key")
 * goes to the parent level as the downlink.  Equal keys are merged into
 * posting lists first (each at most a tenth of a page), when the index
 * allows deduplication.  At the end the rightmost page of every level is
 * finished, the top page becomes the root and the metapage is written.
 *
 * Pages are built in private memory and written through the buffer pool
 * in order of completion; the loader is the only writer of the new file.
 */
#include "common/base.h"

#include <string.h>

#include "access/nbtree_int.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"

typedef struct LoadLevel {
    Page page;            /* the page being filled (private memory) */
    BlockNumber blkno;    /* its block number */
    OffsetNumber lastoff; /* its last item */
    Size lastextra;       /* posting-list bytes of that item */
    IndexTuple lowkey;    /* its low key (minus infinity for the first) */
    uint32 level;
    Size full;              /* free space that counts as full */
    struct LoadLevel *next; /* the level above */
} LoadLevel;

typedef struct BTLoaderData {
    BTIndex idx;
    BlockNumber nalloc; /* pages handed out so far (block 0: metapage) */
    LoadLevel *leaf;
    BTDedupState dedup;
    bool dedup_on;
    IndexTuple prev; /* the previous entry, for the order check */
    int64 ntuples;
} BTLoaderData;

static LoadLevel *
new_level(BTLoader ld, uint32 level)
{
    LoadLevel *l = tdb_palloc0(sizeof(LoadLevel));

    l->level = level;
    l->page = tdb_palloc(BLCKSZ);
    tdb_bt_page_init(l->page, level, level == 0 ? BTP_LEAF : 0);
    /* room for the high key's line pointer */
    tdb_page_header(l->page)->pd_lower += sizeof(ItemIdData);
    l->blkno = ld->nalloc++;
    l->lastoff = P_HIKEY;
    l->full = level > 0 ? BLCKSZ * (100 - BTREE_NONLEAF_FILLFACTOR) / 100
                        : BLCKSZ * (Size)(100 - ld->idx->fillfactor) / 100;
    return l;
}

/* Write a finished page at blkno (pages come in any order: extend the
 * file up to it first). */
static void
write_page(BTLoader ld, Page page, BlockNumber blkno)
{
    BTIndex idx = ld->idx;
    Buffer buf;

    while (tdb_buf_relation_nblocks(idx->relfilenumber) <= blkno) {
        BlockNumber b;

        buf = tdb_bt_newbuf(idx, &b);
        tdb_buf_unlock_release(buf);
    }
    buf = tdb_buf_read(idx->relfilenumber, blkno, NULL);
    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    memcpy(tdb_buf_page(buf), page, BLCKSZ);
    tdb_buf_mark_dirty(buf);
    tdb_buf_unlock_release(buf);
}

/*
 * Replace the high key (item 1, whose data lies lowest on the page: it
 * was the item added last) with hk, as PostgreSQL's PageIndexTupleOverwrite
 * does: the new tuple ends where the old one ended, and the bytes the old
 * one no longer covers are left as they were.
 */
static void
overwrite_hikey(Page page, IndexTuple hk)
{
    PageHeader h = tdb_page_header(page);
    ItemIdData *lp = tdb_page_get_item_id(page, P_HIKEY);
    Size oldsz = MAXALIGN(lp->lp_len), newsz = MAXALIGN(IndexTupleSize(hk));
    unsigned newoff = lp->lp_off + (unsigned)oldsz - (unsigned)newsz;

    if (lp->lp_off != h->pd_upper || newoff < h->pd_lower)
        elog(ERROR, "failed to add high key to the index page");
    memcpy(page + newoff, hk, newsz);
    h->pd_upper = (LocationIndex)newoff;
    ItemIdSetNormal(lp, newoff, newsz);
}

static void
build_add(BTLoader ld, LoadLevel *l, IndexTuple itup, Size truncextra)
{
    Page npage = l->page;
    OffsetNumber lastoff = l->lastoff;
    Size lastextra = l->lastextra;
    Size pgspc = bt_page_free_space(npage);
    Size itupsz = MAXALIGN(IndexTupleSize(itup));
    bool isleaf = l->level == 0;

    l->lastextra = truncextra;
    if (itupsz > BT_MAX_ITEM_SIZE)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("index row size %zu exceeds btree version %d maximum "
                       "%zu for index \"%s\"",
                       itupsz, BTREE_VERSION, (Size)BT_MAX_ITEM_SIZE,
                       ld->idx->name));
    if (pgspc < itupsz + (isleaf ? MAXALIGN(sizeof(ItemPointerData)) : 0) ||
        (pgspc + lastextra < l->full && lastoff > P_FIRSTKEY)) {
        Page opage = npage;
        BlockNumber oblk = l->blkno;
        ItemIdData *ii, *hii;
        IndexTuple oitup;

        npage = tdb_palloc(BLCKSZ);
        tdb_bt_page_init(npage, l->level, isleaf ? BTP_LEAF : 0);
        tdb_page_header(npage)->pd_lower += sizeof(ItemIdData);
        l->blkno = ld->nalloc++;

        ii = tdb_page_get_item_id(opage, lastoff);
        oitup = (IndexTuple)(opage + ii->lp_off);
        tdb_bt_page_add_tuple(npage, oitup, ii->lp_len, P_FIRSTKEY, !isleaf);

        /* the last item becomes the old page's high key */
        hii = tdb_page_get_item_id(opage, P_HIKEY);
        *hii = *ii;
        ItemIdSetUnused(ii);
        tdb_page_header(opage)->pd_lower -= sizeof(ItemIdData);
        if (isleaf) {
            IndexTuple lastleft =
                bt_page_item(opage, (OffsetNumber)(lastoff - 1));
            IndexTuple truncated = tdb_bt_truncate(ld->idx, lastleft, oitup);

            overwrite_hikey(opage, truncated);
            tdb_pfree(truncated);
            oitup = bt_page_item(opage, P_HIKEY);
        }
        if (l->next == NULL)
            l->next = new_level(ld, l->level + 1);
        bt_tuple_set_downlink(l->lowkey, oblk);
        build_add(ld, l->next, l->lowkey, 0);
        tdb_pfree(l->lowkey);
        l->lowkey = tdb_bt_copy_tuple(oitup);
        bt_opaque(opage)->btpo_next = l->blkno;
        bt_opaque(npage)->btpo_prev = oblk;
        write_page(ld, opage, oblk);
        tdb_pfree(opage);
        lastoff = P_FIRSTKEY;
        l->page = npage;
        l->lastoff = lastoff;
        l->lastextra = truncextra;
        l->page = npage;
        lastoff = P_FIRSTKEY;
        /* fall through to add the item after the moved one */
        lastoff = (OffsetNumber)(lastoff + 1);
        tdb_bt_page_add_tuple(npage, itup, itupsz, lastoff, false);
        l->lastoff = lastoff;
        return;
    }
    if (lastoff == P_HIKEY) {
        l->lowkey = tdb_palloc0(sizeof(IndexTupleData));
        l->lowkey->t_info = sizeof(IndexTupleData);
        bt_tuple_set_natts(l->lowkey, 0, false);
    }
    lastoff = (OffsetNumber)(lastoff + 1);
    tdb_bt_page_add_tuple(npage, itup, itupsz, lastoff,
                          !isleaf && lastoff == P_FIRSTKEY);
    l->lastoff = lastoff;
}

BTLoader
tdb_bt_load_begin(BTIndex idx)
{
    BTLoader ld = tdb_palloc0(sizeof(BTLoaderData));

    if (tdb_buf_relation_nblocks(idx->relfilenumber) != 0)
        elog(ERROR, "index \"%s\" already contains data", idx->name);
    ld->idx = idx;
    ld->nalloc = BTREE_METAPAGE + 1;
    ld->dedup_on = idx->deduplicate_items && idx->allequalimage;
    ld->dedup.htids = tdb_palloc(BLCKSZ);
    ld->dedup.maxpostingsize =
        MAXALIGN_DOWN(BLCKSZ * 10 / 100) - sizeof(ItemIdData);
    ld->dedup.deduplicate = true;
    return ld;
}

static void
dedup_finish(BTLoader ld)
{
    BTDedupState *st = &ld->dedup;

    if (st->nitems == 1) {
        build_add(ld, ld->leaf, st->base, 0);
    } else {
        IndexTuple p = tdb_bt_form_posting(st->base, st->htids, st->nhtids);

        build_add(ld, ld->leaf, p,
                  IndexTupleSize(p) - bt_tuple_posting_offset(p));
        tdb_pfree(p);
    }
    st->nmaxitems = 0;
    st->nhtids = 0;
    st->nitems = 0;
    st->phystupsize = 0;
}

/* Index order of two leaf tuples: key columns, then heap TID. */
static int
tuple_cmp(const BTIndexData *idx, IndexTuple a, IndexTuple b)
{
    if (idx->fast == BT_FAST_INT4 &&
        !((a->t_info | b->t_info) & INDEX_NULL_MASK)) {
        int32 x, y;

        memcpy(&x, (char *)a + MAXALIGN(sizeof(IndexTupleData)), sizeof(x));
        memcpy(&y, (char *)b + MAXALIGN(sizeof(IndexTupleData)), sizeof(y));
        if (x != y)
            return x < y ? -1 : 1;
    } else {
        Datum va[INDEX_MAX_KEYS], vb[INDEX_MAX_KEYS];
        bool na[INDEX_MAX_KEYS], nb[INDEX_MAX_KEYS];

        tdb_bt_deform(idx, a, va, na);
        tdb_bt_deform(idx, b, vb, nb);
        for (int i = 0; i < idx->nkeyatts; i++) {
            int r = tdb_bt_cmp_values(idx, i, va[i], na[i], vb[i], nb[i]);

            if (r != 0)
                return r;
        }
    }
    return bt_tid_cmp(&a->t_tid, &b->t_tid);
}

void
tdb_bt_load_add_tuple(BTLoader ld, IndexTuple itup)
{
    BTIndex idx = ld->idx;

    if (bt_tuple_is_pivot(itup) || bt_tuple_is_posting(itup))
        elog(ERROR, "cannot load a pivot or posting tuple into index \"%s\"",
             idx->name);
    if (ld->prev != NULL) {
        if (tuple_cmp(idx, ld->prev, itup) >= 0)
            elog(ERROR,
                 "entries loaded into index \"%s\" are not in index order",
                 idx->name);
        tdb_pfree(ld->prev);
    }
    ld->prev = tdb_bt_copy_tuple(itup);
    ld->ntuples++;
    if (ld->leaf == NULL)
        ld->leaf = new_level(ld, 0);
    if (!ld->dedup_on) {
        build_add(ld, ld->leaf, itup, 0);
        return;
    }
    if (ld->dedup.nitems == 0) {
        tdb_bt_dedup_start(&ld->dedup, tdb_bt_copy_tuple(itup));
    } else if (tdb_bt_keep_natts_fast(idx, ld->dedup.base, itup) >
                   idx->nkeyatts &&
               tdb_bt_dedup_save(&ld->dedup, itup)) {
        /* merged */
    } else {
        dedup_finish(ld);
        tdb_pfree(ld->dedup.base);
        tdb_bt_dedup_start(&ld->dedup, tdb_bt_copy_tuple(itup));
    }
}

void
tdb_bt_load_add(BTLoader ld, const Datum *values, const bool *isnull,
                const ItemPointerData *htid)
{
    IndexTuple t = tdb_bt_form_tuple(ld->idx, values, isnull, htid);

    tdb_bt_load_add_tuple(ld, t);
    tdb_pfree(t);
}

/* Drop the reserved high-key line pointer of a rightmost page. */
static void
slide_left(Page page)
{
    PageHeader h = tdb_page_header(page);
    OffsetNumber maxoff = tdb_page_get_max_offset(page);

    if (maxoff >= P_FIRSTKEY)
        memmove(&h->pd_linp[0], &h->pd_linp[1],
                sizeof(ItemIdData) * (Size)(maxoff - 1));
    h->pd_lower -= sizeof(ItemIdData);
}

void
tdb_bt_load_end(BTLoader ld)
{
    BTIndex idx = ld->idx;
    BlockNumber root = P_NONE;
    uint32 rootlevel = 0;
    PGAlignedBlock meta;

    if (ld->dedup_on && ld->dedup.nitems > 0)
        dedup_finish(ld);
    for (LoadLevel *l = ld->leaf; l != NULL; l = l->next) {
        if (l->next == NULL) {
            bt_opaque(l->page)->btpo_flags |= BTP_ROOT;
            root = l->blkno;
            rootlevel = l->level;
        } else {
            bt_tuple_set_downlink(l->lowkey, l->blkno);
            build_add(ld, l->next, l->lowkey, 0);
            tdb_pfree(l->lowkey);
            l->lowkey = NULL;
        }
        slide_left(l->page);
        write_page(ld, l->page, l->blkno);
    }
    tdb_bt_init_metapage(meta.data, root, rootlevel, idx->allequalimage);
    __atomic_store_n(&idx->cached_root, P_NONE, __ATOMIC_RELAXED);
    write_page(ld, meta.data, BTREE_METAPAGE);
    tdb_buf_flush_relation(idx->relfilenumber);
}
