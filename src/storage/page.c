/*
 * page.c -- building, changing, checksumming and verifying 8 KB pages in
 * PostgreSQL 15's layout (the layout and its invariants: page.h).
 *
 * What matches PostgreSQL byte for byte, because a PostgreSQL page and a
 * tupledb page must be interchangeable: tdb_page_init (PageInit),
 * tdb_page_add_item (PageAddItemExtended: slot choice, placement, refusals),
 * the three free-space functions, the line pointer layout tdb_page_compact
 * produces (PageRepairFragmentation), and tdb_page_checksum
 * (pg_checksum_page).  tests/unit/storage/test_page.c checks each against
 * pages written by PostgreSQL 15.
 *
 * Where tupledb does its own thing:
 *   - tdb_page_compact copies the live item bytes out once and writes them
 *     back in slot order, zeroing the padding and the freed space; the
 *     resulting line pointers equal PostgreSQL's, the hole is clean.
 *   - tdb_page_checksum never writes to the page (PostgreSQL zeroes
 *     pd_checksum in place for the duration); it masks the field out of the
 *     word it shares with pd_flags instead.
 *   - tdb_page_verify also checks the size/version field and every line
 *     pointer, and says what is wrong in a sentence for the error detail.
 *   - errors PostgreSQL raises as PANIC inside its critical sections are
 *     ERRORs here until the WAL brings critical sections.
 */
#include "common/base.h"

#include <stdio.h>

#include "common/elog.h"
#include "storage/page.h"

/* ----------------------------------------------------------------------
 * Header sanity, shared by the mutators (which raise) and tdb_page_verify
 * (which reports)
 * ---------------------------------------------------------------------- */

/*
 * Are pd_lower, pd_upper and pd_special usable (invariant 2 of page.h,
 * without the flags)?  If not, describe the first problem in `why`.
 */
static bool
page_pointers_sane(const PageHeaderData *hdr, char *why, Size whylen)
{
    if (hdr->pd_lower < SizeOfPageHeaderData)
        snprintf(why, whylen, "pd_lower %u is inside the %zu-byte page header.",
                 hdr->pd_lower, (Size)SizeOfPageHeaderData);
    else if (hdr->pd_lower > hdr->pd_upper)
        snprintf(why, whylen, "pd_lower %u is above pd_upper %u.",
                 hdr->pd_lower, hdr->pd_upper);
    else if (hdr->pd_upper > hdr->pd_special)
        snprintf(why, whylen, "pd_upper %u is above pd_special %u.",
                 hdr->pd_upper, hdr->pd_special);
    else if (hdr->pd_special > BLCKSZ)
        snprintf(why, whylen, "pd_special %u is past the end of the page.",
                 hdr->pd_special);
    else if (hdr->pd_special != MAXALIGN(hdr->pd_special))
        snprintf(why, whylen, "pd_special %u is not a multiple of %d.",
                 hdr->pd_special, MAXIMUM_ALIGNOF);
    else
        return true;
    return false;
}

/* Raise ERRCODE_DATA_CORRUPTED if the page pointers are not usable. */
static void
check_page_pointers(const PageHeaderData *hdr)
{
    char why[128];

    if (unlikely(!page_pointers_sane(hdr, why, sizeof(why))))
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("corrupted page pointers: lower = %u, upper = %u, "
                       "special = %u",
                       hdr->pd_lower, hdr->pd_upper, hdr->pd_special),
                errdetail("%s", why));
}

/* ----------------------------------------------------------------------
 * Building pages
 * ---------------------------------------------------------------------- */

void
tdb_page_init(Page page, Size special_size)
{
    PageHeader hdr = tdb_page_header(page);

    Assert(PointerIsAligned(page, uint64));
    special_size = MAXALIGN(special_size);
    if (special_size >= BLCKSZ - SizeOfPageHeaderData)
        elog(ERROR, "special space of %zu bytes leaves no room on a page",
             special_size);

    memset(page, 0, BLCKSZ);
    hdr->pd_lower = SizeOfPageHeaderData;
    hdr->pd_upper = (LocationIndex)(BLCKSZ - special_size);
    hdr->pd_special = (LocationIndex)(BLCKSZ - special_size);
    hdr->pd_pagesize_version = BLCKSZ | PG_PAGE_LAYOUT_VERSION;
}

bool
tdb_page_is_all_zero(const PageData *page)
{
    for (Size i = 0; i < BLCKSZ; i += sizeof(uint64)) {
        uint64 word;

        memcpy(&word, page + i, sizeof(word));
        if (word != 0)
            return false;
    }
    return true;
}

/*
 * The slot tdb_page_add_item uses when the caller names none: the first
 * LP_UNUSED one if the PD_HAS_FREE_LINES hint says there may be one, else
 * `limit` (one past the last).  A hint found wrong is cleared.
 */
static OffsetNumber
page_choose_free_slot(Page page, OffsetNumber limit)
{
    PageHeader hdr = tdb_page_header(page);

    if (!tdb_page_flag_is_set(page, PD_HAS_FREE_LINES))
        return limit;
    for (OffsetNumber off = FirstOffsetNumber; off < limit; off++) {
        const ItemIdData *lp = &hdr->pd_linp[off - 1];

        if (!ItemIdIsUsed(lp) && !ItemIdHasStorage(lp))
            return off;
    }
    tdb_page_flag_clear(page, PD_HAS_FREE_LINES);
    return limit;
}

OffsetNumber
tdb_page_add_item(Page page, const void *item, Size size, OffsetNumber offnum,
                  int flags)
{
    PageHeader hdr = tdb_page_header(page);
    OffsetNumber limit;
    bool shuffle = false;
    bool new_slot;
    int lower;
    int upper;
    ItemId lp;

    check_page_pointers(hdr);
    limit = (OffsetNumber)(tdb_page_get_max_offset(page) + 1);

    if (offnum == InvalidOffsetNumber)
        offnum = page_choose_free_slot(page, limit);
    else if (offnum < limit) {
        if ((flags & PAGE_ADD_OVERWRITE) == 0)
            shuffle = true;
        else {
            lp = &hdr->pd_linp[offnum - 1];
            if (ItemIdIsUsed(lp) || ItemIdHasStorage(lp))
                return InvalidOffsetNumber;
        }
    }
    if (offnum > limit)
        return InvalidOffsetNumber;
    if ((flags & PAGE_ADD_IS_HEAP) != 0 && offnum > MaxHeapTuplesPerPage)
        return InvalidOffsetNumber;
    /* An empty item would be an LP_NORMAL slot without storage. */
    if (size == 0 || size > BLCKSZ)
        return InvalidOffsetNumber;

    /* Signed arithmetic: MAXALIGN(size) may exceed pd_upper. */
    new_slot = offnum == limit || shuffle;
    lower = hdr->pd_lower + (new_slot ? (int)sizeof(ItemIdData) : 0);
    upper = (int)hdr->pd_upper - (int)MAXALIGN(size);
    if (lower > upper)
        return InvalidOffsetNumber;

    lp = &hdr->pd_linp[offnum - 1];
    if (shuffle)
        memmove(lp + 1, lp, (Size)(limit - offnum) * sizeof(ItemIdData));
    ItemIdSetNormal(lp, (unsigned)upper, (unsigned)size);
    memcpy(page + upper, item, size);
    hdr->pd_lower = (LocationIndex)lower;
    hdr->pd_upper = (LocationIndex)upper;
    return offnum;
}

/* The line pointer of slot `off`, which must exist (internal error). */
static ItemId
page_existing_slot(Page page, OffsetNumber off)
{
    OffsetNumber nline = tdb_page_get_max_offset(page);

    if (off < FirstOffsetNumber || off > nline)
        elog(ERROR, "line pointer %u is out of range 1..%u", off, nline);
    return &tdb_page_header(page)->pd_linp[off - 1];
}

void
tdb_page_item_set_unused(Page page, OffsetNumber off)
{
    ItemIdSetUnused(page_existing_slot(page, off));
}

void
tdb_page_item_set_dead(Page page, OffsetNumber off)
{
    ItemIdSetDead(page_existing_slot(page, off));
}

void
tdb_page_item_set_redirect(Page page, OffsetNumber off, OffsetNumber target)
{
    ItemId lp = page_existing_slot(page, off);

    (void)page_existing_slot(page, target);
    ItemIdSetRedirect(lp, target);
}

/*
 * Design: validate everything first (pass 1), so that a corrupt page
 * raises before a byte moves; then copy the live item area
 * [pd_upper, pd_special) out to a stack page and write the items back
 * against pd_special in slot order (pass 2).  Writing in slot order is what
 * PostgreSQL 14+ does too (compactify_tuples), so the line pointers come
 * out identical; copying out first makes the order of the old placement
 * irrelevant -- there is no "presorted" special case to get wrong -- at the
 * price of one extra copy of at most 8 KB, small next to the work of
 * pruning that precedes a compaction.
 */
void
tdb_page_compact(Page page)
{
    PageHeader hdr = tdb_page_header(page);
    const unsigned pd_upper = hdr->pd_upper;
    const unsigned pd_special = hdr->pd_special;
    OffsetNumber nline;
    OffsetNumber last_used = InvalidOffsetNumber;
    Size total = 0;
    int nunused = 0;
    unsigned upper;
    unsigned lower;
    PGAlignedBlock scratch;

    check_page_pointers(hdr);
    nline = tdb_page_get_max_offset(page);

    /* Pass 1: check every item with storage and add up the space. */
    for (OffsetNumber off = FirstOffsetNumber; off <= nline; off++) {
        const ItemIdData *lp = &hdr->pd_linp[off - 1];

        if (!ItemIdIsUsed(lp))
            continue;
        last_used = off;
        if (!ItemIdHasStorage(lp))
            continue;
        if (unlikely(lp->lp_off < pd_upper ||
                     lp->lp_off + lp->lp_len > pd_special))
            ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("corrupted line pointer: %u", lp->lp_off),
                    errdetail("Line pointer %u (offset %u, length %u) lies "
                              "outside the item area [%u, %u).",
                              off, lp->lp_off, lp->lp_len, pd_upper,
                              pd_special));
        total += MAXALIGN(lp->lp_len);
    }
    if (unlikely(total > pd_special - hdr->pd_lower))
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("corrupted item lengths: total %zu, available space %u",
                       total, pd_special - hdr->pd_lower));

    /* Pass 2: move the items, tidy the slots. */
    memcpy(scratch.data + pd_upper, page + pd_upper, pd_special - pd_upper);
    upper = pd_special;
    for (OffsetNumber off = FirstOffsetNumber; off <= nline; off++) {
        ItemId lp = &hdr->pd_linp[off - 1];
        unsigned len = lp->lp_len;

        if (!ItemIdIsUsed(lp)) {
            ItemIdSetUnused(lp); /* an unused slot must have no length */
            if (off < last_used)
                nunused++;
            continue;
        }
        if (!ItemIdHasStorage(lp))
            continue;
        upper -= (unsigned)MAXALIGN(len);
        memcpy(page + upper, scratch.data + lp->lp_off, len);
        memset(page + upper + len, 0, MAXALIGN(len) - len);
        lp->lp_off = upper & 0x7FFF;
    }

    /* Cut off trailing unused line pointers; zero the hole. */
    lower = SizeOfPageHeaderData + (unsigned)last_used * sizeof(ItemIdData);
    memset(page + lower, 0, upper - lower);
    hdr->pd_lower = (LocationIndex)lower;
    hdr->pd_upper = (LocationIndex)upper;
    if (nunused > 0)
        tdb_page_flag_set(page, PD_HAS_FREE_LINES);
    else
        tdb_page_flag_clear(page, PD_HAS_FREE_LINES);
}

/* ----------------------------------------------------------------------
 * Free space
 * ---------------------------------------------------------------------- */

Size
tdb_page_get_exact_free_space(const PageData *page)
{
    const PageHeaderData *hdr = tdb_page_header_const(page);
    int space = (int)hdr->pd_upper - (int)hdr->pd_lower;

    return space < 0 ? 0 : (Size)space;
}

Size
tdb_page_get_free_space(const PageData *page)
{
    Size space = tdb_page_get_exact_free_space(page);

    return space < sizeof(ItemIdData) ? 0 : space - sizeof(ItemIdData);
}

/*
 * A page with MaxHeapTuplesPerPage line pointers takes a new tuple only in
 * a free slot.  PD_HAS_FREE_LINES is only a hint, so a set hint is
 * confirmed by looking; a clear one is believed, because
 * tdb_page_add_item believes it too and would not search.
 */
Size
tdb_page_get_heap_free_space(const PageData *page)
{
    Size space = tdb_page_get_free_space(page);
    OffsetNumber nline = tdb_page_get_max_offset(page);

    if (space == 0 || nline < MaxHeapTuplesPerPage)
        return space;
    if (!tdb_page_flag_is_set(page, PD_HAS_FREE_LINES))
        return 0;
    for (OffsetNumber off = FirstOffsetNumber; off <= nline; off++)
        if (!ItemIdIsUsed(tdb_page_get_item_id_const(page, off)))
            return space;
    return 0;
}

/* ----------------------------------------------------------------------
 * Checksums
 *
 * PostgreSQL's algorithm (src/include/storage/checksum_impl.h), a
 * parallel variant of FNV-1a: the page is read as 64 rows of 32 little-
 * endian uint32 words; lane j folds word j of every row into its own sum,
 * seeded from checksum_lane_seeds[j], with
 *     tmp = sum ^ word;  sum = tmp * FNV_PRIME ^ (tmp >> 17)
 * then two extra rounds with word 0 mix the last rows in.  The 32 sums are
 * xor-folded, the block number is xored in (so a page written to the wrong
 * place fails), and the result is reduced to 1 .. 65535 (never 0, so a set
 * checksum differs from "none").  32 independent lanes let the compiler
 * keep the multiplications in vector registers; the lane count is part of
 * the algorithm, not a tuning knob.
 * ---------------------------------------------------------------------- */

#define CHECKSUM_LANES 32
#define CHECKSUM_ROWS (BLCKSZ / (CHECKSUM_LANES * sizeof(uint32)))
#define CHECKSUM_FNV_PRIME 16777619u

static const uint32 checksum_lane_seeds[CHECKSUM_LANES] = {
    0x5B1F36E9, 0xB8525960, 0x02AB50AA, 0x1DE66D2A, 0x79FF467A, 0x9BB9F8A3,
    0x217E7CD2, 0x83E13D2C, 0xF8D4474F, 0xE39EB970, 0x42C6AE16, 0x993216FA,
    0x7B093B5D, 0x98DAFF3C, 0xF718902A, 0x0B1C9CDB, 0xE58F764B, 0x187636BC,
    0x5D7B3BB1, 0xE73DE7DE, 0x92BEC979, 0xCCA6C0B2, 0x304A0979, 0x85AA43D4,
    0x783125BB, 0x6CA8EAA2, 0xE407EAC6, 0x4B5CFC3E, 0x9FBF8C76, 0x15CA20BE,
    0xF2CA9FD3, 0x959BD756,
};

/*
 * pd_checksum is the low half (little-endian) of word 2 of row 0; pd_flags
 * is the high half.
 */
#define CHECKSUM_FIELD_WORD (offsetof(PageHeaderData, pd_checksum) / 4)
_Static_assert(offsetof(PageHeaderData, pd_checksum) % 4 == 0,
               "pd_checksum starts a 32-bit word");
_Static_assert(BLCKSZ % (CHECKSUM_LANES * sizeof(uint32)) == 0,
               "a page is a whole number of checksum rows");

/*
 * The 32 lane sums of a page.  This is the hot loop of every page read
 * and write: about 12,000 instructions per page as GCC's -O2 SSE2 code
 * (it has no 32-bit vector multiply, so each multiplication by the prime
 * became a chain of shifts and adds, and the sums went through memory
 * every row), about 1,500 with AVX2's vpmulld and the sums kept in four
 * registers (callgrind, `make bench-sql`: 137 -> 17 instructions per row
 * of a 16-int4 table scan).  So on x86-64 the function is compiled
 * twice, for AVX2 and for the baseline ISA, and the dynamic loader picks
 * one at start-up (GCC's target_clones, an IFUNC); elsewhere it is plain
 * C.  The result is the same either way.
 *
 * What remains is latency, not instructions: each lane is a chain of 66
 * dependent steps (xor, multiply, xor), about 12 cycles each, so a page
 * takes some 800 cycles whatever the vector width; wider vectors only
 * cut the instruction count.  (perf: about 7 % of a cold `SELECT
 * sum(c16)`.)
 *
 * Row 0 is folded from a copy with pd_checksum masked out (the page is
 * never written); the other rows straight from the page.
 */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define CHECKSUM_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef CHECKSUM_CLONES
#define CHECKSUM_CLONES
#endif

/* Eight lanes in one vector (GCC/clang vector extension). */
typedef uint32 ChecksumLanes8 __attribute__((vector_size(32)));

/*
 * Fold eight words into eight lane sums.  A macro: a function taking or
 * returning a 32-byte vector would have a different ABI with and without
 * AVX.
 */
#define CHECKSUM_FOLD8(sums, words)                                         \
    do {                                                                    \
        ChecksumLanes8 tmp_ = (sums) ^ (words);                             \
                                                                            \
        (sums) = tmp_ * CHECKSUM_FNV_PRIME ^ (tmp_ >> 17);                  \
    } while (0)

CHECKSUM_CLONES static void
checksum_lanes(const PageData *page, uint32 result[CHECKSUM_LANES])
{
    /* four named vectors, not an array, so that they stay in registers */
    ChecksumLanes8 s0, s1, s2, s3, w0, w1, w2, w3;
    uint32 row0[CHECKSUM_LANES];

    _Static_assert(CHECKSUM_LANES == 4 * 8, "four vectors of eight lanes");
    memcpy(&s0, checksum_lane_seeds, 32);
    memcpy(&s1, checksum_lane_seeds + 8, 32);
    memcpy(&s2, checksum_lane_seeds + 16, 32);
    memcpy(&s3, checksum_lane_seeds + 24, 32);
    memcpy(row0, page, sizeof(row0));
    row0[CHECKSUM_FIELD_WORD] &= 0xFFFF0000u; /* pd_checksum counts as 0 */
    for (Size r = 0; r < CHECKSUM_ROWS; r++) {
        const char *row = r == 0 ? (const char *)row0
                                 : page + r * CHECKSUM_LANES * sizeof(uint32);

        memcpy(&w0, row, 32);
        memcpy(&w1, row + 32, 32);
        memcpy(&w2, row + 64, 32);
        memcpy(&w3, row + 96, 32);
        CHECKSUM_FOLD8(s0, w0);
        CHECKSUM_FOLD8(s1, w1);
        CHECKSUM_FOLD8(s2, w2);
        CHECKSUM_FOLD8(s3, w3);
    }
    /* two rounds of zeros mix the last rows into every bit */
    w0 = (ChecksumLanes8){0};
    for (int round = 0; round < 2; round++) {
        CHECKSUM_FOLD8(s0, w0);
        CHECKSUM_FOLD8(s1, w0);
        CHECKSUM_FOLD8(s2, w0);
        CHECKSUM_FOLD8(s3, w0);
    }
    memcpy(result, &s0, 32);
    memcpy(result + 8, &s1, 32);
    memcpy(result + 16, &s2, 32);
    memcpy(result + 24, &s3, 32);
}

uint16
tdb_page_checksum(const PageData *page, BlockNumber blkno)
{
    uint32 sums[CHECKSUM_LANES];
    uint32 result = 0;

    checksum_lanes(page, sums);
    for (int j = 0; j < CHECKSUM_LANES; j++)
        result ^= sums[j];
    result ^= blkno;
    return (uint16)(result % 65535 + 1);
}

void
tdb_page_set_checksum(Page page, BlockNumber blkno)
{
    if (tdb_page_is_new(page))
        return;
    tdb_page_header(page)->pd_checksum = tdb_page_checksum(page, blkno);
}

/* ----------------------------------------------------------------------
 * Verification
 * ---------------------------------------------------------------------- */

/* Invariants 1 and 2 of page.h; describe the first violation in `why`. */
static bool
page_header_sane(const PageHeaderData *hdr, char *why, Size whylen)
{
    if (hdr->pd_pagesize_version != (BLCKSZ | PG_PAGE_LAYOUT_VERSION)) {
        snprintf(why, whylen,
                 "The page claims size %u and layout version %u; "
                 "expected %d and %d.",
                 hdr->pd_pagesize_version & 0xFF00u,
                 hdr->pd_pagesize_version & 0x00FFu, BLCKSZ,
                 PG_PAGE_LAYOUT_VERSION);
        return false;
    }
    if ((hdr->pd_flags & ~PD_VALID_FLAG_BITS) != 0) {
        snprintf(why, whylen, "pd_flags 0x%04x has unknown bits set.",
                 hdr->pd_flags);
        return false;
    }
    return page_pointers_sane(hdr, why, whylen);
}

/* Invariant 3 of page.h, for a page whose header is sane. */
static bool
page_line_pointers_sane(const PageData *page, char *why, Size whylen)
{
    const PageHeaderData *hdr = tdb_page_header_const(page);
    OffsetNumber nline = tdb_page_get_max_offset(page);

    if ((hdr->pd_lower - SizeOfPageHeaderData) % sizeof(ItemIdData) != 0) {
        snprintf(why, whylen, "pd_lower %u does not end a whole line pointer.",
                 hdr->pd_lower);
        return false;
    }
    for (OffsetNumber off = FirstOffsetNumber; off <= nline; off++) {
        const ItemIdData *lp = &hdr->pd_linp[off - 1];
        unsigned lp_off = lp->lp_off;
        unsigned lp_len = lp->lp_len;

        switch (lp->lp_flags) {
        case LP_UNUSED:
            if (lp_len == 0)
                continue;
            snprintf(why, whylen,
                     "Line pointer %u is unused but has length %u.", off,
                     lp_len);
            return false;
        case LP_REDIRECT:
            if (lp_len == 0 && lp_off >= FirstOffsetNumber && lp_off <= nline)
                continue;
            snprintf(why, whylen,
                     "Line pointer %u redirects to %u (length %u), not to "
                     "a slot 1..%u.",
                     off, lp_off, lp_len, nline);
            return false;
        case LP_DEAD:
            if (lp_len == 0)
                continue;
            break;
        default: /* LP_NORMAL */
            if (lp_len != 0)
                break;
            snprintf(why, whylen, "Line pointer %u is normal but empty.", off);
            return false;
        }
        if (lp_off < hdr->pd_upper || lp_off + lp_len > hdr->pd_special ||
            lp_off != MAXALIGN(lp_off)) {
            snprintf(why, whylen,
                     "Line pointer %u (offset %u, length %u) is not an "
                     "aligned item inside [%u, %u).",
                     off, lp_off, lp_len, hdr->pd_upper, hdr->pd_special);
            return false;
        }
    }
    return true;
}

/*
 * page_line_pointers_sane's verdict without its description, for the
 * common case of a sane page: the same tests in a loop that writes no
 * memory, so the compiler keeps the bounds in registers.  About 25
 * instructions per line pointer where the describing loop took 38 (it
 * reloaded the header after every possible write to `why`; callgrind,
 * bench/sql); the describing loop runs only for a page this one rejects.
 */
static bool
line_pointers_ok(const PageData *page)
{
    const PageHeaderData *hdr = tdb_page_header_const(page);
    const unsigned nline = tdb_page_get_max_offset(page);
    const unsigned upper = hdr->pd_upper;
    const unsigned special = hdr->pd_special;
    bool ok = (hdr->pd_lower - SizeOfPageHeaderData) % sizeof(ItemIdData) ==
              0;

    for (unsigned i = 0; i < nline; i++) {
        const ItemIdData *lp = &hdr->pd_linp[i];
        uint32 word;
        unsigned lp_off, lp_len, lp_flags;
        bool in_page;

        /*
         * The three fields from one 32-bit load: on the little-endian
         * ABIs base.h admits, GCC and clang place lp_off in bits 0-14,
         * lp_flags in 15-16 and lp_len in 17-31 (PostgreSQL's on-disk
         * layout).  Reading the bitfields took two 16-bit loads and a
         * mask per field.
         */
        memcpy(&word, lp, sizeof(word));
        lp_off = word & 0x7FFFu;
        lp_flags = (word >> 15) & 0x3u;
        lp_len = word >> 17;
        Assert(lp_off == lp->lp_off && lp_flags == lp->lp_flags &&
               lp_len == lp->lp_len);
        /* & rather than &&: no branch per test */
        in_page = (lp_off >= upper) & (lp_off + lp_len <= special) &
                  ((lp_off & (MAXIMUM_ALIGNOF - 1)) == 0);
        if (likely(lp_flags == LP_NORMAL)) {
            ok &= (lp_len != 0) & in_page;
            continue;
        }
        switch (lp_flags) {
        case LP_UNUSED:
            ok &= lp_len == 0;
            break;
        case LP_REDIRECT:
            ok &= lp_len == 0 && lp_off >= FirstOffsetNumber &&
                  lp_off <= nline;
            break;
        default: /* LP_DEAD */
            ok &= lp_len == 0 || in_page;
            break;
        }
    }
    return ok;
}

/*
 * Is page a B-tree metapage (PostgreSQL's btree format: the magic number
 * at the start of the contents, BTP_META in the 16-byte special space's
 * flags)?  Its pd_lower ends the metadata, which holds no line pointers:
 * their check does not apply (the B-tree checks its metapage itself).
 */
static bool
page_is_btree_meta(const PageData *page)
{
    const PageHeaderData *hdr = tdb_page_header_const(page);
    uint32 magic;
    uint16 flags;

    if (hdr->pd_special != BLCKSZ - 16 ||
        hdr->pd_lower < SizeOfPageHeaderData + sizeof(uint32))
        return false;
    memcpy(&magic, (const char *)page + SizeOfPageHeaderData, sizeof(magic));
    /* btpo_flags: after btpo_prev, btpo_next (4 each), btpo_level (4) */
    memcpy(&flags, (const char *)page + hdr->pd_special + 12, sizeof(flags));
    return magic == 0x053162 && (flags & (1 << 3)) != 0;
}

PageVerifyStatus
tdb_page_verify(const PageData *page, BlockNumber blkno, bool checksums_enabled,
                PageVerifyReport *report)
{
    const PageHeaderData *hdr = tdb_page_header_const(page);
    PageVerifyReport local;
    PageVerifyReport *r = report != NULL ? report : &local;

    r->status = PAGE_VERIFY_OK;
    r->stored_checksum = hdr->pd_checksum;
    r->computed_checksum = 0;
    r->detail[0] = '\0';

    /* Only an all-zero page may have pd_upper 0; skip the scan otherwise. */
    if (hdr->pd_upper == 0 && tdb_page_is_all_zero(page))
        r->status = PAGE_VERIFY_NEW;
    else if (checksums_enabled && (r->computed_checksum = tdb_page_checksum(
                                       page, blkno)) != hdr->pd_checksum) {
        r->status = PAGE_VERIFY_BAD_CHECKSUM;
        snprintf(r->detail, sizeof(r->detail),
                 "Page verification failed, calculated checksum %u but "
                 "expected %u.",
                 r->computed_checksum, r->stored_checksum);
    } else if (!page_header_sane(hdr, r->detail, sizeof(r->detail)))
        r->status = PAGE_VERIFY_BAD_HEADER;
    else if (!line_pointers_ok(page) && !page_is_btree_meta(page) &&
             !page_line_pointers_sane(page, r->detail, sizeof(r->detail)))
        r->status = PAGE_VERIFY_BAD_LINE_POINTER;
    return r->status;
}

void
tdb_page_raise_invalid(const char *relation, BlockNumber blkno,
                       const PageVerifyReport *report)
{
    const char *detail = report != NULL ? report->detail : "";

    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("invalid page in block %u of relation %s", blkno, relation),
            detail[0] != '\0' ? errdetail("%s", detail) : 0);
}
