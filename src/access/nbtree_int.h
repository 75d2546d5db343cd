/*
 * nbtree_int.h -- the B-tree's on-disk structures (PostgreSQL 15,
 * btree version 4) and the helpers its files share.  Only src/access/nbt*.c
 * and the unit tests include it.
 *
 * Page layout: a standard page (storage/page.h) with a 16-byte special
 * space, BTPageOpaqueData.  Block 0 is the metapage (BTMetaPageData right
 * after the page header, pd_lower just past it).  On a page that is not
 * the rightmost of its level, item 1 is the high key; data items follow.
 * On an internal page the first data item is the "minus infinity" pivot:
 * 0 attributes, only a downlink.
 *
 * Tuples (IndexTupleData, nbtree.h) come in three shapes, told apart by
 * INDEX_ALT_TID_MASK and the t_tid offset's status bits:
 *   plain non-pivot   t_tid = heap TID
 *   posting list      alt-TID, offset = n | BT_IS_POSTING, block = byte
 *                     offset of the n sorted heap TIDs (MAXALIGNed)
 *   pivot             alt-TID, offset = attributes kept (| 0x1000 when a
 *                     heap TID tiebreaker is stored in the last 6 bytes),
 *                     block = downlink (internal pages)
 */
#ifndef TDB_ACCESS_NBTREE_INT_H
#define TDB_ACCESS_NBTREE_INT_H

#include "common/base.h"
#include "access/nbtree.h"
#include "access/transam.h"
#include "storage/bufmgr.h"
#include "storage/page.h"

#include <string.h>

#define BTREE_METAPAGE 0
#define BTREE_MAGIC 0x053162
#define BTREE_VERSION 4
#define BTREE_MIN_VERSION 2
#define P_NONE 0
#define P_HIKEY ((OffsetNumber)1)
#define P_FIRSTKEY ((OffsetNumber)2)

/* btpo_flags */
#define BTP_LEAF (1 << 0)
#define BTP_ROOT (1 << 1)
#define BTP_DELETED (1 << 2)
#define BTP_META (1 << 3)
#define BTP_HALF_DEAD (1 << 4)
#define BTP_SPLIT_END (1 << 5)
#define BTP_HAS_GARBAGE (1 << 6)
#define BTP_INCOMPLETE_SPLIT (1 << 7)
#define BTP_HAS_FULLXID (1 << 8)

typedef struct BTPageOpaqueData {
    BlockNumber btpo_prev; /* left sibling, or P_NONE */
    BlockNumber btpo_next; /* right sibling, or P_NONE */
    uint32 btpo_level;     /* 0 = leaf */
    uint16 btpo_flags;     /* BTP_* */
    uint16 btpo_cycleid;   /* vacuum cycle id of the latest split */
} BTPageOpaqueData;
typedef BTPageOpaqueData *BTPageOpaque;
_Static_assert(sizeof(BTPageOpaqueData) == 16, "btree special space");

typedef struct BTMetaPageData {
    uint32 btm_magic;
    uint32 btm_version;
    BlockNumber btm_root;
    uint32 btm_level;
    BlockNumber btm_fastroot;
    uint32 btm_fastlevel;
    uint32 btm_last_cleanup_num_delpages;
    double btm_last_cleanup_num_heap_tuples;
    bool btm_allequalimage;
} BTMetaPageData;
_Static_assert(sizeof(BTMetaPageData) == 48, "btree metapage");
_Static_assert(offsetof(BTMetaPageData, btm_allequalimage) == 40,
               "btm_allequalimage at 40");

/* t_tid offset bits of alt-TID tuples */
#define BT_OFFSET_MASK 0x0FFF
#define BT_STATUS_OFFSET_MASK 0xF000
#define BT_PIVOT_HEAP_TID_ATTR 0x1000
#define BT_IS_POSTING 0x2000

/* The largest tuple a page takes (BTMaxItemSizeNoHeapTid): 2712 bytes. */
#define BT_MAX_ITEM_SIZE_NO_HEAP_TID                                           \
    MAXALIGN_DOWN((BLCKSZ -                                                    \
                   MAXALIGN(SizeOfPageHeaderData + 3 * sizeof(ItemIdData)) -   \
                   MAXALIGN(sizeof(BTPageOpaqueData))) /                       \
                  3)
/* ... leaving room for a pivot's heap TID (BTMaxItemSize): 2704. */
#define BT_MAX_ITEM_SIZE                                                       \
    (BT_MAX_ITEM_SIZE_NO_HEAP_TID - MAXALIGN(sizeof(ItemPointerData)))
/* Most heap TIDs one leaf page can hold (MaxTIDsPerBTreePage). */
#define BT_MAX_TIDS_PER_PAGE                                                   \
    ((int)((BLCKSZ - SizeOfPageHeaderData - sizeof(BTPageOpaqueData)) /        \
           sizeof(ItemPointerData)))

static inline BTPageOpaque
bt_opaque(Page page)
{
    return (BTPageOpaque)(page + tdb_page_header(page)->pd_special);
}

static inline bool
P_ISLEAF(BTPageOpaque o)
{
    return (o->btpo_flags & BTP_LEAF) != 0;
}

static inline bool
P_RIGHTMOST(BTPageOpaque o)
{
    return o->btpo_next == P_NONE;
}

static inline bool
P_ISDELETED(BTPageOpaque o)
{
    return (o->btpo_flags & BTP_DELETED) != 0;
}

static inline bool
P_ISHALFDEAD(BTPageOpaque o)
{
    return (o->btpo_flags & BTP_HALF_DEAD) != 0;
}

/* A page that is being or has been deleted: readers step past it by its
 * right link and read nothing on it. */
static inline bool
P_IGNORE(BTPageOpaque o)
{
    return (o->btpo_flags & (BTP_DELETED | BTP_HALF_DEAD)) != 0;
}

static inline bool
P_INCOMPLETE_SPLIT(BTPageOpaque o)
{
    return (o->btpo_flags & BTP_INCOMPLETE_SPLIT) != 0;
}

static inline bool
P_LEFTMOST(BTPageOpaque o)
{
    return o->btpo_prev == P_NONE;
}

static inline OffsetNumber
P_FIRSTDATAKEY(BTPageOpaque o)
{
    return P_RIGHTMOST(o) ? P_HIKEY : P_FIRSTKEY;
}

static inline IndexTuple
bt_page_item(Page page, OffsetNumber off)
{
    return (IndexTuple)(page +
                        ItemIdGetOffset(tdb_page_get_item_id(page, off)));
}

/*
 * Raise XX002 "index "NAME" contains corrupted page at block N" (hint
 * "Please REINDEX it.", as PostgreSQL's page checks) with what as the
 * detail.  blk InvalidBlockNumber: a page outside the buffer pool.
 */
void tdb_bt_raise_corrupt(const BTIndexData *idx, BlockNumber blk,
                          const char *what) TDB_NORETURN;

/* The same for the pool page that ptr points into (its block found from
 * the pointer: callers that have the page but not its buffer). */
static inline TDB_NORETURN void
bt_raise_corrupt_at(const BTIndexData *idx, const void *ptr, const char *what)
{
    tdb_bt_raise_corrupt(idx, tdb_buf_block_of_pointer(ptr), what);
}

/*
 * Item off of page, checked to lie inside the page's item area with a
 * size matching its line pointer, and a posting list to lie inside its
 * tuple: a damaged page raises XX002 instead of being read out of
 * bounds (the caller's locks and pins are released at the statement
 * boundary).  Attribute data is checked where it is read (tdb_bt_deform).
 */
static inline IndexTuple
bt_page_item_checked(const BTIndexData *idx, Page page, OffsetNumber off)
{
    const PageHeaderData *h = tdb_page_header_const(page);
    const ItemIdData *lp;
    IndexTuple t;

    if (unlikely(off < FirstOffsetNumber ||
                 off > tdb_page_get_max_offset(page)))
        bt_raise_corrupt_at(idx, page, "An item offset is out of range.");
    lp = &h->pd_linp[off - 1];
    t = (IndexTuple)(page + lp->lp_off);
    if (unlikely(lp->lp_off < h->pd_upper ||
                 lp->lp_off + lp->lp_len > h->pd_special ||
                 lp->lp_len < sizeof(IndexTupleData) ||
                 IndexTupleSize(t) != lp->lp_len))
        bt_raise_corrupt_at(idx, page, "A line pointer is invalid.");
    if (unlikely(t->t_info & INDEX_ALT_TID_MASK)) {
        uint16 status = ItemPointerGetOffsetNumber(&t->t_tid);

        /* a posting list: 1.. TIDs inside the tuple, after its header */
        if ((status & BT_IS_POSTING) &&
            ((status & BT_OFFSET_MASK) == 0 ||
             ItemPointerGetBlockNumber(&t->t_tid) < sizeof(IndexTupleData) ||
             ItemPointerGetBlockNumber(&t->t_tid) +
                     (status & BT_OFFSET_MASK) * sizeof(ItemPointerData) >
                 lp->lp_len))
            bt_raise_corrupt_at(idx, page, "A posting list is invalid.");
        /* a pivot: at most the key columns, its heap TID inside it */
        if (!(status & BT_IS_POSTING) &&
            ((int)(status & BT_OFFSET_MASK) > idx->nkeyatts ||
             ((status & BT_PIVOT_HEAP_TID_ATTR) &&
              lp->lp_len < sizeof(IndexTupleData) + sizeof(ItemPointerData))))
            bt_raise_corrupt_at(idx, page, "A pivot tuple is invalid.");
    }
    return t;
}

/*
 * Every item of page through bt_page_item_checked: before the page is
 * rearranged as a whole (deduplication, a split, VACUUM), whose code
 * then reads items unchecked.
 */
static inline void
bt_page_items_checked(const BTIndexData *idx, Page page)
{
    OffsetNumber maxoff = tdb_page_get_max_offset(page);

    for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++)
        (void)bt_page_item_checked(idx, page, off);
}

/*
 * A deleted page (PostgreSQL 15's BTDeletedPageData, with BTP_DELETED |
 * BTP_HAS_FULLXID): the 64-bit transaction id (epoch 0 in tupledb: its
 * xids stop before wrapping) that was next when the page was unlinked,
 * right after the page header; pd_lower just past it, no items.  Once it
 * precedes the horizon every scan that could still hold a link to the
 * page has ended, and the page may be reused.
 */
typedef struct BTDeletedPageData {
    uint64 safexid;
} BTDeletedPageData;

static inline TransactionId
bt_page_safexid(Page page)
{
    uint64 x;

    memcpy(&x, page + MAXALIGN(SizeOfPageHeaderData), sizeof(x));
    return (TransactionId)x;
}

static inline BTMetaPageData *
bt_metadata(Page page)
{
    return (BTMetaPageData *)(page + MAXALIGN(SizeOfPageHeaderData));
}

/* Tuple shape tests and accessors (BTreeTuple* in PostgreSQL). */
static inline bool
bt_tuple_is_pivot(const IndexTupleData *t)
{
    return (t->t_info & INDEX_ALT_TID_MASK) &&
           (ItemPointerGetOffsetNumber(&t->t_tid) & BT_IS_POSTING) == 0;
}

static inline bool
bt_tuple_is_posting(const IndexTupleData *t)
{
    return (t->t_info & INDEX_ALT_TID_MASK) &&
           (ItemPointerGetOffsetNumber(&t->t_tid) & BT_IS_POSTING) != 0;
}

static inline int
bt_tuple_nposting(const IndexTupleData *t)
{
    return ItemPointerGetOffsetNumber(&t->t_tid) & BT_OFFSET_MASK;
}

static inline uint32
bt_tuple_posting_offset(const IndexTupleData *t)
{
    return ItemPointerGetBlockNumber(&t->t_tid);
}

static inline ItemPointerData *
bt_tuple_posting(IndexTuple t)
{
    return (ItemPointerData *)((char *)t + bt_tuple_posting_offset(t));
}

static inline ItemPointerData *
bt_tuple_posting_n(IndexTuple t, int n)
{
    return bt_tuple_posting(t) + n;
}

static inline void
bt_tuple_set_posting(IndexTuple t, int n, uint32 off)
{
    t->t_info |= INDEX_ALT_TID_MASK;
    ItemPointerSet(&t->t_tid, off, (OffsetNumber)(n | BT_IS_POSTING));
}

static inline BlockNumber
bt_tuple_downlink(const IndexTupleData *t)
{
    return ItemPointerGetBlockNumber(&t->t_tid);
}

static inline void
bt_tuple_set_downlink(IndexTuple t, BlockNumber blk)
{
    OffsetNumber off = ItemPointerGetOffsetNumber(&t->t_tid);

    ItemPointerSet(&t->t_tid, blk, off);
}

static inline void
bt_tuple_set_natts(IndexTuple t, int natts, bool heaptid)
{
    t->t_info |= INDEX_ALT_TID_MASK;
    ItemPointerSet(
        &t->t_tid, ItemPointerGetBlockNumber(&t->t_tid),
        (OffsetNumber)(natts | (heaptid ? BT_PIVOT_HEAP_TID_ATTR : 0)));
}

/* Number of attributes present: pivots say, others have them all. */
static inline int
bt_tuple_natts(const BTIndexData *idx, const IndexTupleData *t)
{
    if (bt_tuple_is_pivot(t))
        return ItemPointerGetOffsetNumber(&t->t_tid) & BT_OFFSET_MASK;
    return idx->tupdesc->natts;
}

/* The (lowest) heap TID, or NULL for a pivot without one. */
static inline ItemPointerData *
bt_tuple_heap_tid(IndexTuple t)
{
    if (bt_tuple_is_pivot(t)) {
        if (ItemPointerGetOffsetNumber(&t->t_tid) & BT_PIVOT_HEAP_TID_ATTR)
            return (ItemPointerData *)((char *)t + IndexTupleSize(t) -
                                       sizeof(ItemPointerData));
        return NULL;
    }
    if (bt_tuple_is_posting(t))
        return bt_tuple_posting(t);
    return &t->t_tid;
}

static inline ItemPointerData *
bt_tuple_max_heap_tid(IndexTuple t)
{
    if (bt_tuple_is_posting(t))
        return bt_tuple_posting_n(t, bt_tuple_nposting(t) - 1);
    return bt_tuple_heap_tid(t);
}

static inline int
bt_tid_cmp(const ItemPointerData *a, const ItemPointerData *b)
{
    BlockNumber ba = ItemPointerGetBlockNumber(a);
    BlockNumber bb = ItemPointerGetBlockNumber(b);

    if (ba != bb)
        return ba < bb ? -1 : 1;
    if (a->ip_posid != b->ip_posid)
        return a->ip_posid < b->ip_posid ? -1 : 1;
    return 0;
}

/* Free space as PostgreSQL's PageGetFreeSpace: minus one line pointer. */
static inline Size
bt_page_free_space(const PageData *page)
{
    const PageHeaderData *h = tdb_page_header_const(page);
    int space = (int)h->pd_upper - (int)h->pd_lower;

    if (space < (int)sizeof(ItemIdData))
        return 0;
    return (Size)space - sizeof(ItemIdData);
}

/* An insertion scan key: key column values, then an optional heap TID. */
typedef struct BTInsertKey {
    int keysz;    /* columns given, 1 .. nkeyatts (0: minus infinity) */
    bool nextkey; /* search for the first item > key instead of >= */
    bool has_scantid;
    ItemPointerData scantid;
    Datum values[INDEX_MAX_KEYS];
    bool isnull[INDEX_MAX_KEYS];
} BTInsertKey;

/* One level of the descent: the parent page and the downlink followed. */
typedef struct BTStackData {
    BlockNumber blkno;
    OffsetNumber offset;
    struct BTStackData *parent;
} BTStackData;
typedef BTStackData *BTStack;

/* nbtutils.c */
Datum tdb_bt_getattr(const BTIndexData *idx, IndexTuple t, int attno,
                     bool *isnull);
void tdb_bt_deform(const BTIndexData *idx, IndexTuple t, Datum *values,
                   bool *isnull);
int tdb_bt_compare(const BTIndexData *idx, const BTInsertKey *key, Page page,
                   OffsetNumber off);
void tdb_bt_key_from_tuple(const BTIndexData *idx, IndexTuple t,
                           BTInsertKey *key);
int tdb_bt_keep_natts_fast(const BTIndexData *idx, IndexTuple a, IndexTuple b);
IndexTuple tdb_bt_truncate(const BTIndexData *idx, IndexTuple lastleft,
                           IndexTuple firstright);
IndexTuple tdb_bt_copy_tuple(IndexTuple t);
int tdb_bt_cmp_values(const BTIndexData *idx, int attno, Datum a, bool anull,
                      Datum b, bool bnull);

/* nbtpage.c */
void tdb_bt_page_init(Page page, uint32 level, uint16 flags);
uint16 tdb_bt_vacuum_cycleid(RelFileNumber rel);
void tdb_bt_init_metapage(Page page, BlockNumber root, uint32 level,
                          bool allequalimage);
Buffer tdb_bt_getbuf(const BTIndexData *idx, BlockNumber blk,
                     BufferLockMode mode);
Buffer tdb_bt_newbuf(const BTIndexData *idx, BlockNumber *blk);
void tdb_bt_check_page(const BTIndexData *idx, Page page, BlockNumber blk);
Buffer tdb_bt_getroot(BTIndex idx, bool create, BufferLockMode mode);
void tdb_bt_delete_items(Page page, const OffsetNumber *offs, int n);
void tdb_bt_page_add_tuple(Page page, IndexTuple itup, Size itemsz,
                           OffsetNumber off, bool newfirstdataitem);

/* nbtinsert.c */
void tdb_bt_finish_split(BTIndex idx, Buffer lbuf, BTStack stack);
Buffer tdb_bt_getstackbuf(BTIndex idx, BTStack stack, BlockNumber child,
                          OffsetNumber *off, bool missing_ok);

/* nbtsearch.c */
Buffer tdb_bt_moveright(const BTIndexData *idx, const BTInsertKey *key,
                        Buffer buf, BufferLockMode mode);
OffsetNumber tdb_bt_binsrch(const BTIndexData *idx, const BTInsertKey *key,
                            Page page);
BTStack tdb_bt_search(BTIndex idx, const BTInsertKey *key, Buffer *bufp,
                      BufferLockMode leafmode);

/* nbtsplitloc.c */
OffsetNumber tdb_bt_findsplitloc(const BTIndexData *idx, Page page,
                                 OffsetNumber newitemoff, Size newitemsz,
                                 IndexTuple newitem, bool *newitemonleft);

/* nbtdedup.c */
void tdb_bt_dedup_pass(const BTIndexData *idx, Page page, IndexTuple newitem,
                       Size newitemsz);
IndexTuple tdb_bt_form_posting(IndexTuple base, const ItemPointerData *htids,
                               int nhtids);
IndexTuple tdb_bt_swap_posting(IndexTuple newitem, IndexTuple oposting,
                               int postingoff);

/* A deduplication state shared by the dedup pass and the loader. */
typedef struct BTDedupState {
    bool deduplicate;
    int nmaxitems;
    Size maxpostingsize;
    IndexTuple base;
    Size basetupsize;
    ItemPointerData *htids; /* room for BT_MAX_TIDS_PER_PAGE */
    int nhtids;
    int nitems;
    Size phystupsize;
    int nintervals;
} BTDedupState;

void tdb_bt_dedup_start(BTDedupState *st, IndexTuple base);
bool tdb_bt_dedup_save(BTDedupState *st, IndexTuple itup);

#endif /* TDB_ACCESS_NBTREE_INT_H */
