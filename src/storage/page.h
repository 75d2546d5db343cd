/*
 * page.h -- the 8 KB slotted page, in PostgreSQL 15's layout byte for byte.
 *
 * Every block of every relation file is one of these pages.  PostgreSQL's
 * pageinspect can read a tupledb page and vice versa, which is how the tests
 * prove the format (tests/fixtures/pg/pg15_pages.txt).
 *
 *   offset  size  field
 *        0     4  pd_lsn.xlogid        high half of the LSN of the last WAL
 *        4     4  pd_lsn.xrecoff       record that changed the page (low half)
 *        8     2  pd_checksum          see tdb_page_checksum; 0 if never set
 *       10     2  pd_flags             PD_HAS_FREE_LINES | PD_PAGE_FULL |
 *                                      PD_ALL_VISIBLE
 *       12     2  pd_lower             end of the line pointer array
 *       14     2  pd_upper             start of the item data
 *       16     2  pd_special           start of the special space
 *       18     2  pd_pagesize_version  BLCKSZ | PG_PAGE_LAYOUT_VERSION
 *                                      (0x2004)
 *       20     4  pd_prune_xid         oldest xid that may make pruning pay,
 *                                      0 if none
 *       24     4  pd_linp[0]           line pointer of item 1, then item 2,
 *                                      ... up to pd_lower
 *
 * Between pd_lower and pd_upper lies the free space ("the hole").  Item
 * data grows downwards from pd_special: each new item is stored at
 * pd_upper - MAXALIGN(size), so items are 8-byte aligned and the page
 * fills from both ends towards the middle.  The special space [pd_special,
 * BLCKSZ) belongs to the access method (empty on heap pages; 16 bytes on a
 * PostgreSQL btree page).
 *
 * A line pointer (ItemIdData, 4 bytes) is lp_off:15, lp_flags:2, lp_len:15,
 * least significant bits first:
 *
 *   LP_UNUSED    free slot; lp_off = lp_len = 0
 *   LP_NORMAL    an item of lp_len bytes at lp_off
 *   LP_REDIRECT  HOT chain root: lp_off holds the offset number of the
 *                chain's next member, lp_len = 0
 *   LP_DEAD      a dead item; on heap pages it has no storage (lp_len = 0)
 *
 * Offset numbers (1-based) name line pointers and never change while a
 * tuple lives: an item's data may move (tdb_page_compact) but its slot
 * does not, because TIDs and index entries point at the slot.
 *
 * Invariants of a page that is not all zero (tdb_page_verify checks them):
 *   1. pd_pagesize_version = BLCKSZ | PG_PAGE_LAYOUT_VERSION.
 *   2. SizeOfPageHeaderData <= pd_lower <= pd_upper <= pd_special <= BLCKSZ,
 *      pd_special MAXALIGNed, and no pd_flags bit outside PD_VALID_FLAG_BITS.
 *   3. The line pointer array fills exactly [24, pd_lower).  Every item with
 *      storage lies inside [pd_upper, pd_special) at a MAXALIGNed offset; a
 *      redirect names a slot of the same page.  The one exception is a
 *      B-tree metapage (btree magic, BTP_META in its 16-byte special
 *      space), which stores its metadata below pd_lower as PostgreSQL's
 *      does: the B-tree checks it itself (access/nbtpage.c).
 *   4. With data checksums on, pd_checksum = tdb_page_checksum(page, blkno),
 *      computed when the page is written out.
 *   5. An all-zero page is a valid "new" page (a relation extended just
 *      before a crash leaves them): it has no items and no free space.
 *
 * Functions here only look at and change the bytes of one page in memory;
 * they neither lock nor log.  Callers (the buffer manager, the heap) hold
 * the buffer's content lock -- shared to read, exclusive to change -- and,
 * once the WAL exists, make every change inside the one logging path and
 * stamp the page with tdb_page_set_lsn.  A page must be 8-byte aligned
 * (PGAlignedBlock, or a buffer pool slot).
 *
 * Entry points: tdb_page_init, tdb_page_add_item, tdb_page_compact, the
 * free-space functions, tdb_page_checksum / tdb_page_set_checksum,
 * tdb_page_verify / tdb_page_raise_invalid, and the inline accessors below.
 */
#ifndef TDB_STORAGE_PAGE_H
#define TDB_STORAGE_PAGE_H

#include "common/base.h"
#include "storage/block.h" /* BLCKSZ, BlockNumber */
#include "tuple/heaptuple.h"
#include "tuple/itemptr.h"

/* ----------------------------------------------------------------------
 * Sizes and types
 * ---------------------------------------------------------------------- */

#define PG_PAGE_LAYOUT_VERSION 4

/* A page in memory: BLCKSZ bytes, 8-byte aligned. */
typedef char PageData;
typedef PageData *Page;

/* An 8-byte-aligned page-sized buffer (stack pages in tests and tools). */
typedef union PGAlignedBlock {
    PageData data[BLCKSZ];
    uint64 force_align;
} PGAlignedBlock;

/* A byte offset within a page. */
typedef uint16 LocationIndex;

/* A WAL position; stored on the page as two 32-bit halves. */
typedef uint64 XLogRecPtr;
#define InvalidXLogRecPtr ((XLogRecPtr)0)

typedef struct PageXLogRecPtr {
    uint32 xlogid;  /* high 32 bits */
    uint32 xrecoff; /* low 32 bits */
} PageXLogRecPtr;

/* A line pointer: where an item lies on the page, and its state. */
typedef struct ItemIdData {
    unsigned lp_off : 15, /* item offset from page start (redirect: target) */
        lp_flags : 2,     /* LP_UNUSED / LP_NORMAL / LP_REDIRECT / LP_DEAD */
        lp_len : 15;      /* item length in bytes */
} ItemIdData;

typedef ItemIdData *ItemId;

#define LP_UNUSED 0
#define LP_NORMAL 1
#define LP_REDIRECT 2
#define LP_DEAD 3

typedef struct PageHeaderData {
    PageXLogRecPtr pd_lsn;      /* LSN of the last change (WAL rule) */
    uint16 pd_checksum;         /* data checksum, if enabled */
    uint16 pd_flags;            /* PD_* bits below */
    LocationIndex pd_lower;     /* start of the free space */
    LocationIndex pd_upper;     /* end of the free space */
    LocationIndex pd_special;   /* start of the special space */
    uint16 pd_pagesize_version; /* BLCKSZ | PG_PAGE_LAYOUT_VERSION */
    TransactionId pd_prune_xid; /* oldest prunable xid, or 0 */
    ItemIdData pd_linp[FLEXIBLE_ARRAY_MEMBER]; /* the line pointer array */
} PageHeaderData;

typedef PageHeaderData *PageHeader;

#define SizeOfPageHeaderData offsetof(PageHeaderData, pd_linp)

_Static_assert(sizeof(ItemIdData) == 4, "a line pointer is 4 bytes");
_Static_assert(SizeOfPageHeaderData == 24, "the page header is 24 bytes");
_Static_assert(offsetof(PageHeaderData, pd_checksum) == 8, "pd_checksum at 8");
_Static_assert(offsetof(PageHeaderData, pd_flags) == 10, "pd_flags at 10");
_Static_assert(offsetof(PageHeaderData, pd_lower) == 12, "pd_lower at 12");
_Static_assert(offsetof(PageHeaderData, pd_upper) == 14, "pd_upper at 14");
_Static_assert(offsetof(PageHeaderData, pd_special) == 16, "pd_special at 16");
_Static_assert(offsetof(PageHeaderData, pd_pagesize_version) == 18,
               "pd_pagesize_version at 18");
_Static_assert(offsetof(PageHeaderData, pd_prune_xid) == 20,
               "pd_prune_xid at 20");
_Static_assert(BLCKSZ <= (1 << 15), "lp_off and lp_len are 15 bits");
_Static_assert((BLCKSZ & 0x00FF) == 0, "the size shares a uint16 with the "
                                       "version");

/* pd_flags */
#define PD_HAS_FREE_LINES 0x0001 /* hint: some line pointer is LP_UNUSED */
#define PD_PAGE_FULL 0x0002      /* hint: an UPDATE found no room here */
#define PD_ALL_VISIBLE                                                         \
    0x0004 /* every tuple is visible to everyone:                              \
            * set by VACUUM, cleared with the page's                           \
            * visibility map bits before any change                            \
            * (access/visibilitymap.c) */
#define PD_VALID_FLAG_BITS 0x0007

/* Offset numbers (1-based line pointer positions). */
#define FirstOffsetNumber ((OffsetNumber)1)
#define MaxOffsetNumber ((OffsetNumber)(BLCKSZ / sizeof(ItemIdData)))

/*
 * The most line pointers a heap page may have: as many as there is room
 * for if every tuple were a bare header (291 for 8 KB pages).  Enforced by
 * tdb_page_add_item with PAGE_ADD_IS_HEAP and by
 * tdb_page_get_heap_free_space, so code may size arrays by it.
 */
#define MaxHeapTuplesPerPage                                                   \
    ((int)((BLCKSZ - SizeOfPageHeaderData) /                                   \
           (MAXALIGN(SizeofHeapTupleHeader) + sizeof(ItemIdData))))
_Static_assert(MaxHeapTuplesPerPage == 291, "291 heap tuples per 8 KB page");

/* ----------------------------------------------------------------------
 * Line pointers
 * ---------------------------------------------------------------------- */

static inline unsigned
ItemIdGetOffset(const ItemIdData *lp)
{
    return lp->lp_off;
}

static inline unsigned
ItemIdGetLength(const ItemIdData *lp)
{
    return lp->lp_len;
}

static inline unsigned
ItemIdGetFlags(const ItemIdData *lp)
{
    return lp->lp_flags;
}

/* The next chain member's offset number of an LP_REDIRECT slot. */
static inline OffsetNumber
ItemIdGetRedirect(const ItemIdData *lp)
{
    return (OffsetNumber)lp->lp_off;
}

static inline bool
ItemIdIsUsed(const ItemIdData *lp)
{
    return lp->lp_flags != LP_UNUSED;
}

static inline bool
ItemIdIsNormal(const ItemIdData *lp)
{
    return lp->lp_flags == LP_NORMAL;
}

static inline bool
ItemIdIsRedirected(const ItemIdData *lp)
{
    return lp->lp_flags == LP_REDIRECT;
}

static inline bool
ItemIdIsDead(const ItemIdData *lp)
{
    return lp->lp_flags == LP_DEAD;
}

/* Does the slot own bytes of the page (LP_NORMAL, or LP_DEAD on an index)? */
static inline bool
ItemIdHasStorage(const ItemIdData *lp)
{
    return lp->lp_len != 0;
}

static inline void
ItemIdSetUnused(ItemIdData *lp)
{
    lp->lp_flags = LP_UNUSED;
    lp->lp_off = 0;
    lp->lp_len = 0;
}

static inline void
ItemIdSetNormal(ItemIdData *lp, unsigned off, unsigned len)
{
    lp->lp_flags = LP_NORMAL;
    lp->lp_off = off & 0x7FFF;
    lp->lp_len = len & 0x7FFF;
}

static inline void
ItemIdSetRedirect(ItemIdData *lp, OffsetNumber target)
{
    lp->lp_flags = LP_REDIRECT;
    lp->lp_off = target & 0x7FFF;
    lp->lp_len = 0;
}

/* LP_DEAD without storage (heap pruning). */
static inline void
ItemIdSetDead(ItemIdData *lp)
{
    lp->lp_flags = LP_DEAD;
    lp->lp_off = 0;
    lp->lp_len = 0;
}

/* LP_DEAD keeping the item's bytes (index entries known dead). */
static inline void
ItemIdMarkDead(ItemIdData *lp)
{
    lp->lp_flags = LP_DEAD;
}

/* ----------------------------------------------------------------------
 * Header accessors
 * ---------------------------------------------------------------------- */

static inline PageHeader
tdb_page_header(Page page)
{
    return (PageHeader)page;
}

static inline const PageHeaderData *
tdb_page_header_const(const PageData *page)
{
    return (const PageHeaderData *)page;
}

/*
 * PostgreSQL's cheap "never initialized" test: pd_upper is 0.  True for an
 * all-zero page; tdb_page_is_all_zero is the exact test.
 */
static inline bool
tdb_page_is_new(const PageData *page)
{
    return tdb_page_header_const(page)->pd_upper == 0;
}

/* Number of line pointers (the highest offset number in use), 0 if none. */
static inline OffsetNumber
tdb_page_get_max_offset(const PageData *page)
{
    unsigned lower = tdb_page_header_const(page)->pd_lower;

    if (lower <= SizeOfPageHeaderData)
        return 0;
    return (OffsetNumber)((lower - SizeOfPageHeaderData) / sizeof(ItemIdData));
}

/*
 * The line pointer of slot `off` (1 .. tdb_page_get_max_offset).  Points
 * into the page: valid while the caller holds the buffer.
 */
static inline ItemId
tdb_page_get_item_id(Page page, OffsetNumber off)
{
    Assert(off >= FirstOffsetNumber && off <= tdb_page_get_max_offset(page));
    return &tdb_page_header(page)->pd_linp[off - 1];
}

static inline const ItemIdData *
tdb_page_get_item_id_const(const PageData *page, OffsetNumber off)
{
    Assert(off >= FirstOffsetNumber && off <= tdb_page_get_max_offset(page));
    return &tdb_page_header_const(page)->pd_linp[off - 1];
}

/* No line pointer of the page in use (a new, all-zero page counts). */
static inline bool
tdb_page_has_no_used_items(const PageData *page)
{
    OffsetNumber maxoff = tdb_page_get_max_offset(page);

    for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++)
        if (ItemIdIsUsed(tdb_page_get_item_id_const(page, off)))
            return false;
    return true;
}

/*
 * The item a line pointer with storage points to (lp_len bytes).  Points
 * into the page: valid while the caller holds the buffer and nobody
 * compacts the page.
 */
static inline char *
tdb_page_get_item(Page page, const ItemIdData *lp)
{
    Assert(ItemIdHasStorage(lp));
    return page + ItemIdGetOffset(lp);
}

static inline Size
tdb_page_get_page_size(const PageData *page)
{
    return tdb_page_header_const(page)->pd_pagesize_version & 0xFF00;
}

static inline unsigned
tdb_page_get_layout_version(const PageData *page)
{
    return tdb_page_header_const(page)->pd_pagesize_version & 0x00FF;
}

static inline Size
tdb_page_get_special_size(const PageData *page)
{
    return BLCKSZ - (Size)tdb_page_header_const(page)->pd_special;
}

static inline char *
tdb_page_get_special(Page page)
{
    return page + tdb_page_header(page)->pd_special;
}

static inline XLogRecPtr
tdb_page_get_lsn(const PageData *page)
{
    const PageXLogRecPtr *lsn = &tdb_page_header_const(page)->pd_lsn;

    return ((XLogRecPtr)lsn->xlogid << 32) | lsn->xrecoff;
}

static inline void
tdb_page_set_lsn(Page page, XLogRecPtr lsn)
{
    tdb_page_header(page)->pd_lsn.xlogid = (uint32)(lsn >> 32);
    tdb_page_header(page)->pd_lsn.xrecoff = (uint32)lsn;
}

/* pd_flags: flag is one of PD_HAS_FREE_LINES, PD_PAGE_FULL, PD_ALL_VISIBLE. */
static inline bool
tdb_page_flag_is_set(const PageData *page, uint16 flag)
{
    return (tdb_page_header_const(page)->pd_flags & flag) != 0;
}

static inline void
tdb_page_flag_set(Page page, uint16 flag)
{
    tdb_page_header(page)->pd_flags |= flag;
}

static inline void
tdb_page_flag_clear(Page page, uint16 flag)
{
    tdb_page_header(page)->pd_flags &= (uint16)~flag;
}

static inline TransactionId
tdb_page_get_prune_xid(const PageData *page)
{
    return tdb_page_header_const(page)->pd_prune_xid;
}

/*
 * Set pd_prune_xid.  The heap decides when (PostgreSQL keeps the oldest
 * such xid, which needs the transaction layer's xid comparison).
 */
static inline void
tdb_page_set_prune_xid(Page page, TransactionId xid)
{
    tdb_page_header(page)->pd_prune_xid = xid;
}

/* ----------------------------------------------------------------------
 * Building and changing pages
 * ---------------------------------------------------------------------- */

/*
 * Make `page` an empty page with special_size (rounded up to MAXALIGN)
 * bytes of special space: all bytes zero, pd_lower = 24, pd_upper =
 * pd_special = BLCKSZ - special, size/version set.  Raises an internal
 * error if the special space leaves no room for items.
 */
void tdb_page_init(Page page, Size special_size);

/* Is every byte of the page zero? */
bool tdb_page_is_all_zero(const PageData *page);

/*
 * tdb_page_add_item flags: PAGE_ADD_OVERWRITE stores into the given slot,
 * which must be unused (or one past the last); PAGE_ADD_IS_HEAP enforces
 * MaxHeapTuplesPerPage.
 */
#define PAGE_ADD_OVERWRITE 0x01
#define PAGE_ADD_IS_HEAP 0x02

/*
 * Add an item of `size` bytes (copied from `item`) to the page, with
 * PostgreSQL's PageAddItemExtended semantics:
 *
 *   offnum == InvalidOffsetNumber: the first LP_UNUSED slot if the page's
 *       PD_HAS_FREE_LINES hint says there may be one (the hint is cleared
 *       if the search finds none), else a new slot after the last one;
 *   offnum valid, PAGE_ADD_OVERWRITE: exactly that slot, which must be
 *       unused or one past the last;
 *   offnum valid, no PAGE_ADD_OVERWRITE: insert at that slot, shifting the
 *       line pointers from offnum on up by one (index pages).
 *
 * The data goes to pd_upper - MAXALIGN(size); only `size` bytes are
 * written, the alignment padding keeps its (zero) bytes.
 *
 * Returns the item's offset number, or InvalidOffsetNumber if it was not
 * added: no room for the data (and a new line pointer, if one is needed),
 * offnum beyond one past the last slot, a used slot with
 * PAGE_ADD_OVERWRITE, or (PAGE_ADD_IS_HEAP) a slot beyond
 * MaxHeapTuplesPerPage.  Raises ERRCODE_DATA_CORRUPTED if the page's
 * pd_lower/pd_upper/pd_special are inconsistent.
 */
OffsetNumber tdb_page_add_item(Page page, const void *item, Size size,
                               OffsetNumber offnum, int flags);

/* Slot state changes; `off` must be 1 .. max offset (internal error). */
void tdb_page_item_set_unused(Page page, OffsetNumber off);
void tdb_page_item_set_dead(Page page, OffsetNumber off);
void tdb_page_item_set_redirect(Page page, OffsetNumber off,
                                OffsetNumber target);

/*
 * Defragment a heap page (PostgreSQL's PageRepairFragmentation): items
 * with storage keep their slots and are packed against pd_special in slot
 * order (slot 1 highest), trailing LP_UNUSED line pointers are cut off,
 * and PD_HAS_FREE_LINES is set if some LP_UNUSED slot remains, cleared
 * otherwise.  Unlike PostgreSQL, the freed space and alignment padding are
 * zeroed, so deleted data does not linger on disk.
 *
 * Raises ERRCODE_DATA_CORRUPTED, leaving the page unchanged, if the page
 * pointers, a line pointer or the total item length are inconsistent.
 * The caller holds the buffer exclusively and no pointer into the page's
 * items survives the call.
 */
void tdb_page_compact(Page page);

/* ----------------------------------------------------------------------
 * Free space
 * ---------------------------------------------------------------------- */

/* pd_upper - pd_lower, or 0 if negative (PageGetExactFreeSpace). */
Size tdb_page_get_exact_free_space(const PageData *page);

/*
 * Room for one more item, after the 4-byte line pointer it would need;
 * 0 if not even that (PageGetFreeSpace).  For index pages.
 */
Size tdb_page_get_free_space(const PageData *page);

/*
 * As tdb_page_get_free_space, but 0 when the page already has
 * MaxHeapTuplesPerPage line pointers and none is free
 * (PageGetHeapFreeSpace).  What the heap and the free space map use.
 */
Size tdb_page_get_heap_free_space(const PageData *page);

/* ----------------------------------------------------------------------
 * Checksums and verification
 * ---------------------------------------------------------------------- */

/*
 * PostgreSQL's data checksum of the page as block `blkno`, 1 .. 65535.
 * pd_checksum itself counts as zero; the page is not modified (so a
 * shared lock suffices).  Meaningless for an all-zero page.
 */
uint16 tdb_page_checksum(const PageData *page, BlockNumber blkno);

/*
 * Store tdb_page_checksum in pd_checksum, just before the page is written
 * out (when data checksums are enabled).  Leaves a new page (pd_upper 0)
 * alone, as PostgreSQL does.  The caller has the page to itself (a private
 * copy, or an exclusive lock).
 */
void tdb_page_set_checksum(Page page, BlockNumber blkno);

typedef enum PageVerifyStatus {
    PAGE_VERIFY_OK = 0,           /* sane header, line pointers, checksum */
    PAGE_VERIFY_NEW,              /* all zero: valid, not initialized yet */
    PAGE_VERIFY_BAD_CHECKSUM,     /* pd_checksum does not match */
    PAGE_VERIFY_BAD_HEADER,       /* size/version, flags or page pointers */
    PAGE_VERIFY_BAD_LINE_POINTER, /* a line pointer outside its bounds */
} PageVerifyStatus;

/* Is the status one of the two a reader may accept? */
static inline bool
tdb_page_verify_ok(PageVerifyStatus status)
{
    return status == PAGE_VERIFY_OK || status == PAGE_VERIFY_NEW;
}

/* What tdb_page_verify found, for the error report. */
typedef struct PageVerifyReport {
    PageVerifyStatus status;
    uint16 stored_checksum;   /* pd_checksum (BAD_CHECKSUM) */
    uint16 computed_checksum; /* tdb_page_checksum (BAD_CHECKSUM) */
    char detail[160];         /* a full sentence, "" for OK and NEW */
} PageVerifyReport;

/*
 * Check a page just read from disk as block `blkno`, before it enters the
 * buffer pool: an all-zero page is PAGE_VERIFY_NEW; otherwise, in this
 * order, the checksum (only if checksums_enabled; a page whose bytes were
 * changed outside tupledb is reported as such first), the header
 * (invariants 1-2 in the file comment) and every line pointer (invariant
 * 3).  Returns the status; if report is not NULL it is filled in.  Never
 * raises and never modifies the page.
 */
PageVerifyStatus tdb_page_verify(const PageData *page, BlockNumber blkno,
                                 bool checksums_enabled,
                                 PageVerifyReport *report);

/*
 * Raise ERRCODE_DATA_CORRUPTED "invalid page in block %u of relation %s"
 * (PostgreSQL's message) with the report's detail.  `relation` names the
 * relation as the caller knows it (a path such as "base/1/16384", or a
 * table name).
 */
TDB_NORETURN void tdb_page_raise_invalid(const char *relation,
                                         BlockNumber blkno,
                                         const PageVerifyReport *report);

#endif /* TDB_STORAGE_PAGE_H */
