/*
 * test_page.c -- the page layout (src/storage/page.c) on its own and
 * against pages written by PostgreSQL 15.
 *
 * On its own:
 *   test_init                 header of a fresh page, special space, new
 *                             and all-zero pages
 *   test_add_get              items land MAXALIGNed below pd_upper in slot
 *                             order; line pointers, bytes and the three
 *                             free-space figures after every add
 *   test_page_full            adds until refused; a refusal changes nothing;
 *                             a smaller item still fits
 *   test_max_heap_tuples      PAGE_ADD_IS_HEAP stops at 291 slots while
 *                             space remains; heap free space at that limit
 *   test_explicit_offsets     PAGE_ADD_OVERWRITE, insertion with shifting,
 *                             offsets past the end
 *   test_free_slot_reuse      PD_HAS_FREE_LINES: first unused slot first,
 *                             then new slots; a wrong hint is cleared
 *   test_compact_random       random pages, random unused/dead/redirect
 *                             slots, compacted and checked against a model
 *   test_compact_empty        every slot unused: back to an empty page
 *   test_compact_corrupt      corrupt pointers, line pointers and lengths
 *                             raise ERRCODE_DATA_CORRUPTED and change nothing
 *   test_slot_changes_range   slot setters reject slots that do not exist
 *   test_lsn                  pd_lsn halves
 *   test_checksum_basics      range, block number, pd_checksum ignored, the
 *                             page not written, new pages left alone
 *   test_verify               every status of tdb_page_verify, flipped bytes
 *                             in every region, tdb_page_raise_invalid
 * Against PostgreSQL (tests/fixtures/pg/pg15_pages.txt, written by
 * tests/fixtures/pg/capture_pages.sh; format in tests/fixtures/pg/README.md):
 *   test_pg15_pages           every page header field and line pointer
 *                             parsed as pageinspect reports them; every
 *                             checksum recomputed; verification; summed
 *                             heap free space equal to pgstattuple's; every
 *                             heap page rebuilt from scratch and compared
 *                             byte for byte (see check_rebuild).  A missing
 *                             fixture is a failure.
 */
#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "storage/page.h"
#include "test.h"

#define FIXTURE "pg/pg15_pages.txt"

/* ----------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------- */

/* Deterministic item bytes: never all zero, different per seed. */
static void
fill_pattern(char *buf, Size len, uint64 seed)
{
    for (Size i = 0; i < len; i++)
        buf[i] = (char)(((seed * 131 + i * 7) % 251) + 1);
}

/* Add a patterned item of `size` bytes at the next free slot. */
static OffsetNumber
add_pattern(Page page, Size size, uint64 seed, int flags)
{
    char buf[BLCKSZ];

    fill_pattern(buf, size, seed);
    return tdb_page_add_item(page, buf, size, InvalidOffsetNumber, flags);
}

/* Does slot `off` hold exactly the patterned bytes? */
static bool
item_has_pattern(Page page, OffsetNumber off, Size size, uint64 seed)
{
    char buf[BLCKSZ];
    ItemId lp = tdb_page_get_item_id(page, off);

    fill_pattern(buf, size, seed);
    return ItemIdIsNormal(lp) && ItemIdGetLength(lp) == size &&
           memcmp(tdb_page_get_item(page, lp), buf, size) == 0;
}

/* Are bytes [from, to) of the page zero? */
static bool
range_is_zero(const PageData *page, Size from, Size to)
{
    for (Size i = from; i < to; i++)
        if (page[i] != 0)
            return false;
    return true;
}

static PageHeader
hdr_of(Page page)
{
    return tdb_page_header(page);
}

/* ----------------------------------------------------------------------
 * Building pages
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_init)
{
    PGAlignedBlock blk;
    Page page = blk.data;

    memset(page, 0x5A, BLCKSZ);
    tdb_page_init(page, 0);
    expect_u64_eq(hdr_of(page)->pd_lower, 24);
    expect_u64_eq(hdr_of(page)->pd_upper, BLCKSZ);
    expect_u64_eq(hdr_of(page)->pd_special, BLCKSZ);
    expect_u64_eq(hdr_of(page)->pd_pagesize_version, 0x2004);
    expect_u64_eq(tdb_page_get_page_size(page), BLCKSZ);
    expect_u64_eq(tdb_page_get_layout_version(page), 4);
    expect_u64_eq(tdb_page_get_special_size(page), 0);
    expect_u64_eq(tdb_page_get_max_offset(page), 0);
    expect_u64_eq(tdb_page_get_lsn(page), 0);
    expect_u64_eq(hdr_of(page)->pd_flags, 0);
    expect_u64_eq(tdb_page_get_prune_xid(page), 0);
    expect_true(range_is_zero(page, 0, 12));
    expect_true(range_is_zero(page, 20, BLCKSZ));
    expect_false(tdb_page_is_new(page));
    expect_false(tdb_page_is_all_zero(page));
    expect_u64_eq(tdb_page_get_exact_free_space(page), BLCKSZ - 24);
    expect_u64_eq(tdb_page_get_free_space(page), BLCKSZ - 28);
    expect_u64_eq(tdb_page_get_heap_free_space(page), BLCKSZ - 28);

    /* Special space is MAXALIGNed, as a btree's 16 bytes or a 5-byte ask. */
    tdb_page_init(page, 16);
    expect_u64_eq(hdr_of(page)->pd_special, BLCKSZ - 16);
    expect_u64_eq(hdr_of(page)->pd_upper, BLCKSZ - 16);
    expect_u64_eq(tdb_page_get_special_size(page), 16);
    expect_ptr_eq(tdb_page_get_special(page), page + BLCKSZ - 16);
    tdb_page_init(page, 5);
    expect_u64_eq(tdb_page_get_special_size(page), 8);

    expect_error(tdb_page_init(page, BLCKSZ - 24), ERRCODE_INTERNAL_ERROR,
                 "special space");

    memset(page, 0, BLCKSZ);
    expect_true(tdb_page_is_new(page));
    expect_true(tdb_page_is_all_zero(page));
    page[BLCKSZ - 1] = 1;
    expect_true(tdb_page_is_new(page)); /* pd_upper is still 0 */
    expect_false(tdb_page_is_all_zero(page));
}
TEST_END

TEST_BEGIN(test_add_get)
{
    PGAlignedBlock blk;
    Page page = blk.data;
    unsigned upper = BLCKSZ;
    OffsetNumber n = 0;

    tdb_page_init(page, 0);
    for (Size size = 1; size <= 200; size += 13) {
        OffsetNumber off = add_pattern(page, size, size, PAGE_ADD_IS_HEAP);
        ItemId lp;

        n++;
        upper -= (unsigned)MAXALIGN(size);
        expect_u64_eq(off, n);
        expect_u64_eq(tdb_page_get_max_offset(page), n);
        lp = tdb_page_get_item_id(page, off);
        expect_u64_eq(ItemIdGetFlags(lp), LP_NORMAL);
        expect_u64_eq(ItemIdGetOffset(lp), upper);
        expect_u64_eq(ItemIdGetLength(lp), size);
        expect_true(ItemIdHasStorage(lp));
        expect_true(item_has_pattern(page, off, size, size));
        /* The alignment padding after the item stays zero. */
        expect_true(range_is_zero(page, upper + size, upper + MAXALIGN(size)));
        expect_u64_eq(hdr_of(page)->pd_lower, 24 + 4 * n);
        expect_u64_eq(hdr_of(page)->pd_upper, upper);
        expect_u64_eq(tdb_page_get_exact_free_space(page),
                      upper - (24 + 4 * n));
        expect_u64_eq(tdb_page_get_free_space(page), upper - (28 + 4 * n));
        expect_u64_eq(tdb_page_get_heap_free_space(page), upper - (28 + 4 * n));
    }
    /* Earlier items are untouched by later ones. */
    for (OffsetNumber off = 1; off <= n; off++)
        expect_true(item_has_pattern(page, off, 1 + 13 * (Size)(off - 1),
                                     1 + 13 * (uint64)(off - 1)));
    expect_int_eq(tdb_page_verify(page, 0, false, NULL), PAGE_VERIFY_OK);

    /* Empty and oversized items are refused. */
    expect_u64_eq(add_pattern(page, 0, 1, 0), InvalidOffsetNumber);
    expect_u64_eq(
        tdb_page_add_item(page, page, BLCKSZ + 1, InvalidOffsetNumber, 0),
        InvalidOffsetNumber);
}
TEST_END

TEST_BEGIN(test_page_full)
{
    PGAlignedBlock blk, copy;
    Page page = blk.data;
    int n = 0;

    tdb_page_init(page, 0);
    while (add_pattern(page, 100, (uint64)n, PAGE_ADD_IS_HEAP) !=
           InvalidOffsetNumber)
        n++;
    /* Each takes 104 bytes of data and 4 of line pointer. */
    expect_int_eq(n, (BLCKSZ - 24) / 108);
    expect_u64_lt(tdb_page_get_free_space(page), 104);

    /* A refusal leaves every byte as it was. */
    memcpy(copy.data, page, BLCKSZ);
    expect_u64_eq(add_pattern(page, 100, 999, PAGE_ADD_IS_HEAP),
                  InvalidOffsetNumber);
    expect_true(memcmp(copy.data, page, BLCKSZ) == 0);

    /* What fits still goes in, down to the last byte of free space. */
    {
        Size room = tdb_page_get_free_space(page);
        Size fit = room - room % MAXIMUM_ALIGNOF;

        expect_u64_ne(add_pattern(page, fit, 7, 0), InvalidOffsetNumber);
        expect_u64_lt(tdb_page_get_exact_free_space(page), 4 + 8);
        expect_u64_eq(add_pattern(page, 1, 8, 0), InvalidOffsetNumber);
    }
    expect_int_eq(tdb_page_verify(page, 0, false, NULL), PAGE_VERIFY_OK);
}
TEST_END

TEST_BEGIN(test_max_heap_tuples)
{
    PGAlignedBlock blk;
    Page page = blk.data;
    int n = 0;
    Size free_at_limit;

    tdb_page_init(page, 0);
    while (add_pattern(page, 8, (uint64)n, PAGE_ADD_IS_HEAP) !=
           InvalidOffsetNumber)
        n++;
    expect_int_eq(n, MaxHeapTuplesPerPage);
    expect_int_eq(n, 291);
    /* Room remains, but a heap page may not have another line pointer... */
    free_at_limit = tdb_page_get_free_space(page);
    expect_u64_gt(free_at_limit, 1000);
    expect_u64_eq(tdb_page_get_heap_free_space(page), 0);
    /* ... which an index page may. */
    expect_u64_eq(add_pattern(page, 8, 1000, 0), 292);
    expect_u64_eq(tdb_page_get_heap_free_space(page), 0);

    /* At the limit a free slot makes room again; a wrong hint does not. */
    tdb_page_init(page, 0);
    for (n = 0; n < MaxHeapTuplesPerPage; n++)
        add_pattern(page, 8, (uint64)n, PAGE_ADD_IS_HEAP);
    tdb_page_flag_set(page, PD_HAS_FREE_LINES);
    expect_u64_eq(tdb_page_get_heap_free_space(page), 0);
    tdb_page_item_set_unused(page, 100);
    expect_u64_eq(tdb_page_get_heap_free_space(page),
                  tdb_page_get_free_space(page));
    expect_u64_eq(add_pattern(page, 8, 5000, PAGE_ADD_IS_HEAP), 100);
    expect_u64_eq(add_pattern(page, 8, 5001, PAGE_ADD_IS_HEAP),
                  InvalidOffsetNumber);
    expect_false(tdb_page_flag_is_set(page, PD_HAS_FREE_LINES));

    /* Below the limit, heap free space is plain free space, down to 0. */
    tdb_page_init(page, 0);
    add_pattern(page, BLCKSZ - 24 - 4 - 12, 1, 0);
    expect_u64_eq(tdb_page_get_exact_free_space(page), 12);
    expect_u64_eq(tdb_page_get_heap_free_space(page), 8);
    hdr_of(page)->pd_upper = (LocationIndex)(hdr_of(page)->pd_lower + 3);
    expect_u64_eq(tdb_page_get_free_space(page), 0);
    expect_u64_eq(tdb_page_get_heap_free_space(page), 0);
    hdr_of(page)->pd_upper = (LocationIndex)(hdr_of(page)->pd_lower - 8);
    expect_u64_eq(tdb_page_get_exact_free_space(page), 0);
}
TEST_END

TEST_BEGIN(test_explicit_offsets)
{
    PGAlignedBlock blk;
    Page page = blk.data;
    char item[16];

    tdb_page_init(page, 0);
    for (int i = 1; i <= 4; i++)
        expect_u64_eq(add_pattern(page, 16, (uint64)i, 0), (uint64)i);

    /* Past one beyond the last slot: refused. */
    fill_pattern(item, sizeof(item), 50);
    expect_u64_eq(tdb_page_add_item(page, item, sizeof(item), 6, 0), 0);
    expect_u64_eq(
        tdb_page_add_item(page, item, sizeof(item), 6, PAGE_ADD_OVERWRITE), 0);

    /* Overwrite: a used slot is refused, an unused one taken in place. */
    expect_u64_eq(
        tdb_page_add_item(page, item, sizeof(item), 2, PAGE_ADD_OVERWRITE), 0);
    tdb_page_item_set_unused(page, 2);
    expect_u64_eq(
        tdb_page_add_item(page, item, sizeof(item), 2, PAGE_ADD_OVERWRITE), 2);
    expect_u64_eq(tdb_page_get_max_offset(page), 4);
    expect_true(item_has_pattern(page, 2, 16, 50));
    /* ... and one past the last appends. */
    expect_u64_eq(
        tdb_page_add_item(page, item, sizeof(item), 5, PAGE_ADD_OVERWRITE), 5);

    /* Insert at slot 1: the others move up one slot, their data stays. */
    fill_pattern(item, sizeof(item), 60);
    expect_u64_eq(tdb_page_add_item(page, item, sizeof(item), 1, 0), 1);
    expect_u64_eq(tdb_page_get_max_offset(page), 6);
    expect_true(item_has_pattern(page, 1, 16, 60));
    expect_true(item_has_pattern(page, 2, 16, 1));
    expect_true(item_has_pattern(page, 3, 16, 50));
    expect_true(item_has_pattern(page, 4, 16, 3));
    expect_true(item_has_pattern(page, 5, 16, 4));
    expect_true(item_has_pattern(page, 6, 16, 50));
    /* Seven items have been stored (two of them by overwriting). */
    expect_u64_eq(ItemIdGetOffset(tdb_page_get_item_id(page, 1)),
                  BLCKSZ - 7 * 16);
    expect_int_eq(tdb_page_verify(page, 0, false, NULL), PAGE_VERIFY_OK);

    /* Heap pages: an explicit slot beyond 291 is refused too. */
    tdb_page_init(page, 0);
    for (int i = 0; i < MaxHeapTuplesPerPage; i++)
        add_pattern(page, 1, 1, 0);
    expect_u64_eq(tdb_page_add_item(page, item, 1, MaxHeapTuplesPerPage + 1,
                                    PAGE_ADD_OVERWRITE | PAGE_ADD_IS_HEAP),
                  0);
    expect_u64_eq(tdb_page_add_item(page, item, 1, MaxHeapTuplesPerPage + 1,
                                    PAGE_ADD_OVERWRITE),
                  MaxHeapTuplesPerPage + 1);
}
TEST_END

TEST_BEGIN(test_free_slot_reuse)
{
    PGAlignedBlock blk;
    Page page = blk.data;

    tdb_page_init(page, 0);
    for (int i = 1; i <= 6; i++)
        add_pattern(page, 24, (uint64)i, PAGE_ADD_IS_HEAP);
    tdb_page_item_set_unused(page, 5);
    tdb_page_item_set_unused(page, 3);
    /* Without the hint, new slots are appended even though 3 and 5 are free. */
    expect_u64_eq(add_pattern(page, 24, 7, PAGE_ADD_IS_HEAP), 7);
    tdb_page_compact(page);
    expect_true(tdb_page_flag_is_set(page, PD_HAS_FREE_LINES));
    expect_u64_eq(add_pattern(page, 24, 8, PAGE_ADD_IS_HEAP), 3);
    expect_u64_eq(add_pattern(page, 24, 9, PAGE_ADD_IS_HEAP), 5);
    expect_true(tdb_page_flag_is_set(page, PD_HAS_FREE_LINES)); /* stale */
    expect_u64_eq(hdr_of(page)->pd_lower, 24 + 7 * 4);
    expect_u64_eq(add_pattern(page, 24, 10, PAGE_ADD_IS_HEAP), 8);
    expect_false(tdb_page_flag_is_set(page, PD_HAS_FREE_LINES));
    expect_true(item_has_pattern(page, 3, 24, 8));
    expect_true(item_has_pattern(page, 5, 24, 9));
    expect_true(item_has_pattern(page, 7, 24, 7));
    expect_int_eq(tdb_page_verify(page, 0, false, NULL), PAGE_VERIFY_OK);
}
TEST_END

/* ----------------------------------------------------------------------
 * Compaction
 * ---------------------------------------------------------------------- */

/*
 * Check a compacted page against the page before compaction: same slots
 * up to the last used one (trailing unused ones cut), storage items
 * packed against pd_special in slot order with their bytes intact, zero
 * padding and hole, and the free-lines hint exactly when an unused slot
 * remains.
 */
static void
check_compacted(Page page, const PageData *before)
{
    const PageHeaderData *old = tdb_page_header_const(before);
    OffsetNumber old_nline = tdb_page_get_max_offset(before);
    OffsetNumber last_used = 0;
    unsigned upper = old->pd_special;
    bool any_unused = false;

    for (OffsetNumber off = 1; off <= old_nline; off++)
        if (ItemIdIsUsed(tdb_page_get_item_id_const(before, off)))
            last_used = off;
    expect_u64_eq(tdb_page_get_max_offset(page), last_used);

    for (OffsetNumber off = 1; off <= last_used; off++) {
        const ItemIdData *was = tdb_page_get_item_id_const(before, off);
        const ItemIdData *now = tdb_page_get_item_id(page, off);

        expect_u64_eq(ItemIdGetFlags(now), ItemIdGetFlags(was));
        expect_u64_eq(ItemIdGetLength(now), ItemIdGetLength(was));
        if (!ItemIdIsUsed(was)) {
            any_unused = true;
            expect_u64_eq(ItemIdGetOffset(now), 0);
        } else if (!ItemIdHasStorage(was))
            expect_u64_eq(ItemIdGetOffset(now), ItemIdGetOffset(was));
        else {
            unsigned len = ItemIdGetLength(was);

            upper -= (unsigned)MAXALIGN(len);
            expect_u64_eq(ItemIdGetOffset(now), upper);
            expect_true(
                memcmp(page + upper, before + ItemIdGetOffset(was), len) == 0);
            expect_true(
                range_is_zero(page, upper + len, upper + MAXALIGN(len)));
        }
    }
    expect_u64_eq(hdr_of(page)->pd_upper, upper);
    expect_true(range_is_zero(page, hdr_of(page)->pd_lower, upper));
    expect_int_eq(tdb_page_flag_is_set(page, PD_HAS_FREE_LINES), any_unused);
    /* The rest of the header (not pd_flags) and the special space stay. */
    expect_true(memcmp(page, before, 10) == 0);
    expect_true(memcmp(page + 16, before + 16, 8) == 0);
    expect_true(memcmp(page + old->pd_special, before + old->pd_special,
                       BLCKSZ - old->pd_special) == 0);
}

/*
 * Random slot states for slots 1..nline: mostly kept, some unused, dead or
 * redirected -- to a slot that stays LP_NORMAL, as HOT chains do, so the
 * target survives the truncation of trailing unused slots.  Every fifth
 * page loses its upper half of slots, every fiftieth all of them.
 */
static void
choose_slot_states(unsigned *states, OffsetNumber *targets, OffsetNumber nline,
                   int iter, uint64 *rng)
{
    OffsetNumber keepers[MaxOffsetNumber];
    int nkeep = 0;

    for (OffsetNumber off = 1; off <= nline; off++) {
        uint64 r = tdb_test_rand(rng) % 10;

        states[off] = r < 3   ? LP_UNUSED
                      : r < 4 ? LP_DEAD
                      : r < 5 ? LP_REDIRECT
                              : LP_NORMAL;
        if ((iter % 5 == 0 && off > nline / 2) || iter % 50 == 0)
            states[off] = LP_UNUSED;
        if (states[off] == LP_NORMAL)
            keepers[nkeep++] = off;
    }
    for (OffsetNumber off = 1; off <= nline; off++) {
        if (states[off] != LP_REDIRECT)
            continue;
        if (nkeep == 0)
            states[off] = LP_DEAD;
        else
            targets[off] = keepers[tdb_test_rand(rng) % (uint64)nkeep];
    }
}

TEST_BEGIN(test_compact_random)
{
    uint64 rng = tdb_test_seed();
    PGAlignedBlock blk, before;
    Page page = blk.data;
    int ncompacted = 0;
    unsigned states[MaxOffsetNumber + 1];
    OffsetNumber targets[MaxOffsetNumber + 1];

    for (int iter = 0; iter < 400; iter++) {
        Size special = tdb_test_rand(&rng) % 2 ? 16 : 0;
        int target = 1 + (int)(tdb_test_rand(&rng) % 300);
        OffsetNumber nline;

        tdb_page_init(page, special);
        memset(tdb_page_get_special(page), 0xEE, special);
        tdb_page_set_lsn(page, tdb_test_rand(&rng));
        for (int i = 0; i < target; i++) {
            Size size = 1 + tdb_test_rand(&rng) % (i % 7 == 0 ? 600 : 60);

            if (add_pattern(page, size, tdb_test_rand(&rng),
                            PAGE_ADD_IS_HEAP) == InvalidOffsetNumber)
                break;
        }
        nline = tdb_page_get_max_offset(page);
        choose_slot_states(states, targets, nline, iter, &rng);
        for (OffsetNumber off = 1; off <= nline; off++) {
            if (states[off] == LP_UNUSED)
                tdb_page_item_set_unused(page, off);
            else if (states[off] == LP_DEAD)
                tdb_page_item_set_dead(page, off);
            else if (states[off] == LP_REDIRECT)
                tdb_page_item_set_redirect(page, off, targets[off]);
        }

        memcpy(before.data, page, BLCKSZ);
        tdb_page_compact(page);
        check_compacted(page, before.data);
        expect_int_eq(tdb_page_verify(page, 0, false, NULL), PAGE_VERIFY_OK);

        /* Compacting again changes nothing. */
        memcpy(before.data, page, BLCKSZ);
        tdb_page_compact(page);
        expect_true(memcmp(before.data, page, BLCKSZ) == 0);
        ncompacted++;
        if (tdb_test_state.nfailed_expects > 20)
            break;
    }
    expect_int_eq(ncompacted, 400);
}
TEST_END

TEST_BEGIN(test_compact_empty)
{
    PGAlignedBlock blk;
    Page page = blk.data;

    tdb_page_init(page, 16);
    for (int i = 0; i < 10; i++)
        add_pattern(page, 40, (uint64)i, PAGE_ADD_IS_HEAP);
    tdb_page_flag_set(page, PD_HAS_FREE_LINES);
    for (OffsetNumber off = 1; off <= 10; off++)
        tdb_page_item_set_unused(page, off);
    tdb_page_compact(page);
    expect_u64_eq(hdr_of(page)->pd_lower, 24);
    expect_u64_eq(hdr_of(page)->pd_upper, BLCKSZ - 16);
    expect_false(tdb_page_flag_is_set(page, PD_HAS_FREE_LINES));
    expect_true(range_is_zero(page, 24, BLCKSZ));

    /* A page that was never given an item compacts to itself. */
    tdb_page_init(page, 0);
    tdb_page_compact(page);
    expect_u64_eq(hdr_of(page)->pd_upper, BLCKSZ);
    expect_u64_eq(hdr_of(page)->pd_lower, 24);
}
TEST_END

/* Run tdb_page_compact on a corrupt page: it must raise and change nothing. */
static void
expect_compact_refused(Page page, const char *message)
{
    PGAlignedBlock copy;

    memcpy(copy.data, page, BLCKSZ);
    expect_error(tdb_page_compact(page), ERRCODE_DATA_CORRUPTED, message);
    expect_true(memcmp(copy.data, page, BLCKSZ) == 0);
}

TEST_BEGIN(test_compact_corrupt)
{
    PGAlignedBlock blk, good;
    Page page = blk.data;
    ItemId lp;

    tdb_page_init(good.data, 0);
    for (int i = 0; i < 5; i++)
        add_pattern(good.data, 100, (uint64)i, PAGE_ADD_IS_HEAP);
    tdb_page_item_set_unused(good.data, 2);

    memcpy(page, good.data, BLCKSZ);
    hdr_of(page)->pd_lower = 20;
    expect_compact_refused(page, "corrupted page pointers");
    expect_error(add_pattern(page, 8, 1, 0), ERRCODE_DATA_CORRUPTED,
                 "corrupted page pointers: lower = 20");

    memcpy(page, good.data, BLCKSZ);
    hdr_of(page)->pd_upper = (LocationIndex)(hdr_of(page)->pd_lower - 4);
    expect_compact_refused(page, "corrupted page pointers");

    memcpy(page, good.data, BLCKSZ);
    hdr_of(page)->pd_special = BLCKSZ - 4;
    expect_compact_refused(page, "corrupted page pointers");

    memcpy(page, good.data, BLCKSZ);
    hdr_of(page)->pd_special = BLCKSZ + 8;
    expect_compact_refused(page, "corrupted page pointers");

    /* An item reaching past pd_special, or starting below pd_upper. */
    memcpy(page, good.data, BLCKSZ);
    lp = tdb_page_get_item_id(page, 1);
    lp->lp_len = 200;
    expect_compact_refused(page, "corrupted line pointer");
    memcpy(page, good.data, BLCKSZ);
    lp = tdb_page_get_item_id(page, 3);
    lp->lp_off = 1000;
    expect_compact_refused(page, "corrupted line pointer");

    /* Two items that each claim the whole 6000-byte item area. */
    tdb_page_init(page, 0);
    add_pattern(page, 3000, 1, PAGE_ADD_IS_HEAP);
    add_pattern(page, 3000, 2, PAGE_ADD_IS_HEAP);
    ItemIdSetNormal(tdb_page_get_item_id(page, 1), BLCKSZ - 6000, 6000);
    ItemIdSetNormal(tdb_page_get_item_id(page, 2), BLCKSZ - 6000, 6000);
    expect_compact_refused(page, "corrupted item lengths");
}
TEST_END

TEST_BEGIN(test_slot_changes_range)
{
    PGAlignedBlock blk;
    Page page = blk.data;

    tdb_page_init(page, 0);
    add_pattern(page, 30, 1, PAGE_ADD_IS_HEAP);
    add_pattern(page, 30, 2, PAGE_ADD_IS_HEAP);
    expect_error(tdb_page_item_set_unused(page, 0), ERRCODE_INTERNAL_ERROR,
                 "out of range");
    expect_error(tdb_page_item_set_dead(page, 3), ERRCODE_INTERNAL_ERROR,
                 "out of range 1..2");
    expect_error(tdb_page_item_set_redirect(page, 1, 3), ERRCODE_INTERNAL_ERROR,
                 "out of range");
    tdb_page_item_set_redirect(page, 1, 2);
    expect_u64_eq(ItemIdGetFlags(tdb_page_get_item_id(page, 1)), LP_REDIRECT);
    expect_u64_eq(ItemIdGetRedirect(tdb_page_get_item_id(page, 1)), 2);
    expect_u64_eq(ItemIdGetLength(tdb_page_get_item_id(page, 1)), 0);
    tdb_page_item_set_dead(page, 2);
    expect_true(ItemIdIsDead(tdb_page_get_item_id(page, 2)));
    expect_false(ItemIdHasStorage(tdb_page_get_item_id(page, 2)));
}
TEST_END

TEST_BEGIN(test_lsn)
{
    PGAlignedBlock blk;
    Page page = blk.data;
    uint32 half;

    tdb_page_init(page, 0);
    tdb_page_set_lsn(page, 0x0000000A12345678ULL);
    expect_u64_eq(tdb_page_get_lsn(page), 0x0000000A12345678ULL);
    memcpy(&half, page, 4);
    expect_u64_eq(half, 0xA); /* xlogid: the high half comes first */
    memcpy(&half, page + 4, 4);
    expect_u64_eq(half, 0x12345678);
    tdb_page_set_lsn(page, UINT64_MAX);
    expect_u64_eq(tdb_page_get_lsn(page), UINT64_MAX);
}
TEST_END

/* ----------------------------------------------------------------------
 * Checksums and verification
 * ---------------------------------------------------------------------- */

/* A page with a few items and a special space, checksummed as block 7. */
static void
make_sample_page(Page page)
{
    tdb_page_init(page, 16);
    for (int i = 0; i < 20; i++)
        add_pattern(page, 30 + (Size)i * 5, (uint64)i, PAGE_ADD_IS_HEAP);
    tdb_page_item_set_dead(page, 4);
    tdb_page_item_set_redirect(page, 5, 6);
    tdb_page_item_set_unused(page, 7);
    tdb_page_compact(page);
    memset(tdb_page_get_special(page), 0x42, 16);
    tdb_page_set_lsn(page, 0x123456789ULL);
    tdb_page_flag_set(page, PD_ALL_VISIBLE);
    tdb_page_set_prune_xid(page, 1234);
    tdb_page_set_checksum(page, 7);
}

TEST_BEGIN(test_checksum_basics)
{
    PGAlignedBlock blk, copy;
    Page page = blk.data;
    uint16 sum;

    make_sample_page(page);
    sum = hdr_of(page)->pd_checksum;
    expect_u64_ne(sum, 0);
    expect_u64_eq(tdb_page_checksum(page, 7), sum);

    /* Computing it writes nothing, and pd_checksum's value is ignored. */
    memcpy(copy.data, page, BLCKSZ);
    (void)tdb_page_checksum(page, 7);
    expect_true(memcmp(copy.data, page, BLCKSZ) == 0);
    hdr_of(page)->pd_checksum = (uint16)~sum;
    expect_u64_eq(tdb_page_checksum(page, 7), sum);
    hdr_of(page)->pd_checksum = sum;

    /* The block number is part of it; so is pd_flags, its word-mate. */
    expect_u64_ne(tdb_page_checksum(page, 8), sum);
    tdb_page_flag_clear(page, PD_ALL_VISIBLE);
    expect_u64_ne(tdb_page_checksum(page, 7), sum);
    tdb_page_flag_set(page, PD_ALL_VISIBLE);

    /* Always 1..65535, over many block numbers. */
    for (BlockNumber b = 0; b < 3000; b++)
        if (tdb_page_checksum(page, b * 7919u) == 0)
            expect_true(false);

    /* A new page is left alone. */
    memset(page, 0, BLCKSZ);
    tdb_page_set_checksum(page, 3);
    expect_true(tdb_page_is_all_zero(page));
}
TEST_END

/* Expect tdb_page_verify(page, blkno, checksums) to give status `want`. */
#define expect_verify(page, blkno, checksums, want)                            \
    do {                                                                       \
        PageVerifyReport report_;                                              \
        expect_int_eq(tdb_page_verify((page), (blkno), (checksums), &report_), \
                      (want));                                                 \
        expect_int_eq(report_.status, (want));                                 \
        if (!tdb_page_verify_ok(want))                                         \
            expect_u64_ne(report_.detail[0], '\0');                            \
    } while (0)

/*
 * Corrupt a copy of `good` with `mutate`, then verify it with checksums
 * off (the header or line-pointer status), and on both with the stale
 * checksum (BAD_CHECKSUM: the bytes changed) and with a fresh one (the
 * structural status again).
 */
typedef void (*PageMutation)(Page page);

static void
expect_corruption(const PageData *good, PageMutation mutate,
                  PageVerifyStatus status, const char *detail)
{
    PGAlignedBlock blk;
    Page page = blk.data;
    PageVerifyReport report;

    memcpy(page, good, BLCKSZ);
    mutate(page);
    expect_int_eq(tdb_page_verify(page, 7, false, &report), status);
    expect_str_contains(report.detail, detail);
    expect_verify(page, 7, true, PAGE_VERIFY_BAD_CHECKSUM);
    hdr_of(page)->pd_checksum = tdb_page_checksum(page, 7);
    expect_verify(page, 7, true, status);
}

static void
mutate_lower_in_header(Page page)
{
    hdr_of(page)->pd_lower = 16;
}

static void
mutate_lower_above_upper(Page page)
{
    hdr_of(page)->pd_lower = (LocationIndex)(hdr_of(page)->pd_upper + 4);
}

static void
mutate_upper_above_special(Page page)
{
    hdr_of(page)->pd_upper = (LocationIndex)(hdr_of(page)->pd_special + 8);
}

static void
mutate_special_past_end(Page page)
{
    hdr_of(page)->pd_special = BLCKSZ + 8;
}

static void
mutate_special_unaligned(Page page)
{
    hdr_of(page)->pd_special -= 4;
}

static void
mutate_version(Page page)
{
    hdr_of(page)->pd_pagesize_version = BLCKSZ | 3;
}

static void
mutate_page_size(Page page)
{
    hdr_of(page)->pd_pagesize_version = 4096 | PG_PAGE_LAYOUT_VERSION;
}

static void
mutate_flags(Page page)
{
    hdr_of(page)->pd_flags |= 0x0010;
}

static void
mutate_lower_odd(Page page)
{
    hdr_of(page)->pd_lower += 2;
}

static void
mutate_item_past_special(Page page)
{
    tdb_page_get_item_id(page, 1)->lp_len = 200;
}

static void
mutate_item_below_upper(Page page)
{
    tdb_page_get_item_id(page, 2)->lp_off = 512;
}

static void
mutate_item_unaligned(Page page)
{
    tdb_page_get_item_id(page, 2)->lp_off += 2;
}

static void
mutate_normal_empty(Page page)
{
    tdb_page_get_item_id(page, 2)->lp_len = 0;
}

static void
mutate_redirect_out_of_range(Page page)
{
    tdb_page_get_item_id(page, 5)->lp_off = 60;
}

static void
mutate_unused_with_length(Page page)
{
    tdb_page_get_item_id(page, 7)->lp_len = 12;
}

static void
mutate_upper_zero(Page page)
{
    hdr_of(page)->pd_upper = 0;
}

TEST_BEGIN(test_verify)
{
    PGAlignedBlock good, blk;
    Page page = blk.data;
    PageVerifyReport report;

    make_sample_page(good.data);
    expect_verify(good.data, 7, true, PAGE_VERIFY_OK);
    expect_verify(good.data, 7, false, PAGE_VERIFY_OK);
    expect_verify(good.data, 8, true, PAGE_VERIFY_BAD_CHECKSUM);
    expect_verify(good.data, 8, false, PAGE_VERIFY_OK);
    expect_true(tdb_page_verify(good.data, 8, true, NULL) ==
                PAGE_VERIFY_BAD_CHECKSUM);

    /* Checksum report: both values, in PostgreSQL's words. */
    (void)tdb_page_verify(good.data, 8, true, &report);
    expect_u64_eq(report.stored_checksum, hdr_of(good.data)->pd_checksum);
    expect_u64_eq(report.computed_checksum, tdb_page_checksum(good.data, 8));
    expect_str_contains(report.detail, "calculated checksum");

    /* One flipped bit anywhere -- header, line pointers, hole, items,
     * special space -- fails the checksum. */
    for (Size pos = 0; pos < BLCKSZ; pos += 61) {
        memcpy(page, good.data, BLCKSZ);
        page[pos] ^= (char)(1 << (pos % 8));
        if (tdb_page_verify(page, 7, true, NULL) != PAGE_VERIFY_BAD_CHECKSUM)
            tdb_test_fail(__FILE__, __LINE__,
                          "a flipped bit at byte %zu went unnoticed", pos);
    }

    /* All-zero pages are new and valid, with or without checksums. */
    memset(page, 0, BLCKSZ);
    expect_verify(page, 3, true, PAGE_VERIFY_NEW);
    expect_verify(page, 3, false, PAGE_VERIFY_NEW);
    expect_true(tdb_page_verify_ok(PAGE_VERIFY_NEW));
    page[5000] = 1; /* pd_upper 0 but not all zero */
    expect_verify(page, 3, false, PAGE_VERIFY_BAD_HEADER);

    expect_corruption(good.data, mutate_lower_in_header, PAGE_VERIFY_BAD_HEADER,
                      "pd_lower 16");
    expect_corruption(good.data, mutate_lower_above_upper,
                      PAGE_VERIFY_BAD_HEADER, "above pd_upper");
    expect_corruption(good.data, mutate_upper_above_special,
                      PAGE_VERIFY_BAD_HEADER, "above pd_special");
    expect_corruption(good.data, mutate_special_past_end,
                      PAGE_VERIFY_BAD_HEADER, "past the end");
    expect_corruption(good.data, mutate_special_unaligned,
                      PAGE_VERIFY_BAD_HEADER, "multiple of 8");
    expect_corruption(good.data, mutate_version, PAGE_VERIFY_BAD_HEADER,
                      "layout version 3");
    expect_corruption(good.data, mutate_page_size, PAGE_VERIFY_BAD_HEADER,
                      "size 4096");
    expect_corruption(good.data, mutate_flags, PAGE_VERIFY_BAD_HEADER,
                      "unknown bits");
    expect_corruption(good.data, mutate_upper_zero, PAGE_VERIFY_BAD_HEADER,
                      "above pd_upper");
    expect_corruption(good.data, mutate_lower_odd, PAGE_VERIFY_BAD_LINE_POINTER,
                      "whole line pointer");
    expect_corruption(good.data, mutate_item_past_special,
                      PAGE_VERIFY_BAD_LINE_POINTER, "Line pointer 1 ");
    expect_corruption(good.data, mutate_item_below_upper,
                      PAGE_VERIFY_BAD_LINE_POINTER, "offset 512");
    expect_corruption(good.data, mutate_item_unaligned,
                      PAGE_VERIFY_BAD_LINE_POINTER, "not an aligned item");
    expect_corruption(good.data, mutate_normal_empty,
                      PAGE_VERIFY_BAD_LINE_POINTER, "normal but empty");
    expect_corruption(good.data, mutate_redirect_out_of_range,
                      PAGE_VERIFY_BAD_LINE_POINTER, "redirects to 60");
    expect_corruption(good.data, mutate_unused_with_length,
                      PAGE_VERIFY_BAD_LINE_POINTER, "unused but has length");

    /* The error the buffer manager raises. */
    memcpy(page, good.data, BLCKSZ);
    page[4000] ^= 1;
    (void)tdb_page_verify(page, 7, true, &report);
    expect_error(tdb_page_raise_invalid("base/5/16384", 7, &report),
                 ERRCODE_DATA_CORRUPTED,
                 "invalid page in block 7 of relation base/5/16384");
    expect_str_contains(tdb_test_last_error.detail,
                        "Page verification failed, calculated checksum");
    expect_error(tdb_page_raise_invalid("t", 0, NULL), ERRCODE_DATA_CORRUPTED,
                 "invalid page in block 0 of relation t");
    expect_str_eq(tdb_test_last_error.detail, "");
}
TEST_END

/* ----------------------------------------------------------------------
 * PostgreSQL 15's pages
 * ---------------------------------------------------------------------- */

typedef struct PgLinePointer {
    unsigned off;
    unsigned flags;
    unsigned len;
} PgLinePointer;

/* One captured page and what pageinspect said about it. */
typedef struct PgPage {
    BlockNumber blkno;
    int line; /* of the page line, for messages */
    PGAlignedBlock raw;
    char lsn[32];
    unsigned checksum, flags, lower, upper, special, pagesize, version;
    TransactionId prune_xid;
    int nlp;
    PgLinePointer *lps; /* MaxOffsetNumber entries */
} PgPage;

/* One captured relation: see the `table` line in the fixture README. */
typedef struct PgRelation {
    char name[64];
    char relkind;     /* 'r' heap, 'i' btree index */
    char history[16]; /* insert, vacuumed, pruned, reused, index */
    char base[64];    /* reused: the relation with the same past */
    int nblocks;
    long long free_space; /* pgstattuple's, -1 for an index */
    int npages;
    PgPage *pages[64];
} PgRelation;

typedef struct PgFixture {
    char path[1024];
    int lineno;
    int nrels;
    PgRelation rels[32];
} PgFixture;

#define fixture_fail(fx, ...)                                                  \
    tdb_test_fail(__FILE__, __LINE__, "%s:%d: %s", (fx)->path, (fx)->lineno,   \
                  fixture_msg(__VA_ARGS__))

TDB_PRINTF(1, 2) static const char *fixture_msg(const char *fmt, ...)
{
    static char buf[512];
    va_list args;

    va_start(args, fmt);
    vsnprintf(buf, sizeof(buf), fmt, args);
    va_end(args);
    return buf;
}

/* Decode exactly `len` bytes of lowercase hex; false if malformed. */
static bool
hex_decode_exact(const char *hex, char *out, Size len)
{
    static const char digits[] = "0123456789abcdef";

    if (strlen(hex) != 2 * len)
        return false;
    for (Size i = 0; i < len; i++) {
        const char *hi = strchr(digits, hex[2 * i]);
        const char *lo = strchr(digits, hex[2 * i + 1]);

        if (hi == NULL || lo == NULL || *hi == '\0' || *lo == '\0')
            return false;
        out[i] = (char)(((hi - digits) << 4) | (lo - digits));
    }
    return true;
}

static PgRelation *
fixture_current_rel(PgFixture *fx)
{
    return fx->nrels > 0 ? &fx->rels[fx->nrels - 1] : NULL;
}

static PgPage *
fixture_current_page(PgFixture *fx)
{
    PgRelation *rel = fixture_current_rel(fx);

    return rel != NULL && rel->npages > 0 ? rel->pages[rel->npages - 1] : NULL;
}

/* Parse one non-comment line (tokens split on spaces). */
static void
fixture_line(PgFixture *fx, char **tok, int ntok)
{
    PgRelation *rel = fixture_current_rel(fx);
    PgPage *pg = fixture_current_page(fx);

    if (strcmp(tok[0], "table") == 0 && ntok == 7) {
        if (fx->nrels == (int)lengthof(fx->rels)) {
            fixture_fail(fx, "too many tables");
            return;
        }
        rel = &fx->rels[fx->nrels++];
        memset(rel, 0, sizeof(*rel));
        snprintf(rel->name, sizeof(rel->name), "%s", tok[1]);
        rel->relkind = tok[2][0];
        snprintf(rel->history, sizeof(rel->history), "%s", tok[3]);
        snprintf(rel->base, sizeof(rel->base), "%s", tok[4]);
        rel->nblocks = atoi(tok[5]);
        rel->free_space = strcmp(tok[6], "-") == 0 ? -1 : atoll(tok[6]);
    } else if (strcmp(tok[0], "page") == 0 && ntok == 4 && rel != NULL) {
        if (strcmp(tok[1], rel->name) != 0 ||
            rel->npages == (int)lengthof(rel->pages)) {
            fixture_fail(fx, "page of %s in table %s", tok[1], rel->name);
            return;
        }
        pg = tdb_palloc0_object(PgPage);
        pg->lps = tdb_palloc0_array(PgLinePointer, MaxOffsetNumber);
        pg->blkno = (BlockNumber)strtoul(tok[2], NULL, 10);
        pg->line = fx->lineno;
        if (!hex_decode_exact(tok[3], pg->raw.data, BLCKSZ))
            fixture_fail(fx, "page hex is not 8192 bytes");
        rel->pages[rel->npages++] = pg;
    } else if (strcmp(tok[0], "header") == 0 && ntok == 10 && pg != NULL) {
        snprintf(pg->lsn, sizeof(pg->lsn), "%s", tok[1]);
        pg->checksum = (unsigned)atoi(tok[2]);
        pg->flags = (unsigned)atoi(tok[3]);
        pg->lower = (unsigned)atoi(tok[4]);
        pg->upper = (unsigned)atoi(tok[5]);
        pg->special = (unsigned)atoi(tok[6]);
        pg->pagesize = (unsigned)atoi(tok[7]);
        pg->version = (unsigned)atoi(tok[8]);
        pg->prune_xid = (TransactionId)strtoul(tok[9], NULL, 10);
    } else if (strcmp(tok[0], "lp") == 0 && ntok == 5 && pg != NULL) {
        if (atoi(tok[1]) != pg->nlp + 1 || pg->nlp == MaxOffsetNumber) {
            fixture_fail(fx, "lp %s out of order", tok[1]);
            return;
        }
        pg->lps[pg->nlp].off = (unsigned)atoi(tok[2]);
        pg->lps[pg->nlp].flags = (unsigned)atoi(tok[3]);
        pg->lps[pg->nlp].len = (unsigned)atoi(tok[4]);
        pg->nlp++;
    } else if (strcmp(tok[0], "end") == 0 && rel != NULL) {
        if (rel->npages != rel->nblocks)
            fixture_fail(fx, "%s: %d pages, table line says %d", rel->name,
                         rel->npages, rel->nblocks);
    } else
        fixture_fail(fx, "unexpected line \"%s\" (%d fields)", tok[0], ntok);
}

/* Read the whole fixture; false (after a failure message) if unusable. */
static bool
fixture_load(PgFixture *fx)
{
    FILE *f = tdb_test_open_fixture(FIXTURE, "TDB_PG_PAGES_FIXTURE", fx->path,
                                    sizeof(fx->path));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;

    if (f == NULL) {
        tdb_test_fail(__FILE__, __LINE__,
                      "cannot open %s (regenerate it with "
                      "tests/fixtures/pg/capture_pages.sh)",
                      fx->path);
        return false;
    }
    while ((n = getline(&line, &cap, f)) > 0) {
        char *tok[12];
        int ntok = 0;
        char *save = NULL;

        fx->lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        for (char *t = strtok_r(line, " \n", &save);
             t != NULL && ntok < (int)lengthof(tok);
             t = strtok_r(NULL, " \n", &save))
            tok[ntok++] = t;
        if (ntok > 0)
            fixture_line(fx, tok, ntok);
    }
    free(line);
    fclose(f);
    if (fx->nrels == 0) {
        tdb_test_fail(__FILE__, __LINE__, "%s holds no tables", fx->path);
        return false;
    }
    return true;
}

static const PgRelation *
fixture_find(const PgFixture *fx, const char *name)
{
    for (int i = 0; i < fx->nrels; i++)
        if (strcmp(fx->rels[i].name, name) == 0)
            return &fx->rels[i];
    return NULL;
}

#define page_fail(rel, pg, ...)                                                \
    tdb_test_fail(__FILE__, __LINE__, "%s block %u (fixture line %d): %s",     \
                  (rel)->name, (pg)->blkno, (pg)->line,                        \
                  fixture_msg(__VA_ARGS__))

/*
 * Our reading of the raw bytes must be pageinspect's: every header field
 * and every line pointer, so the bit-field layout of ItemIdData is proven
 * on real pages.
 */
static void
check_parse(const PgRelation *rel, PgPage *pg)
{
    Page page = pg->raw.data;
    const PageHeaderData *hdr = tdb_page_header(page);
    char lsn[32];

    snprintf(lsn, sizeof(lsn), "%X/%X",
             (unsigned)(tdb_page_get_lsn(page) >> 32),
             (unsigned)tdb_page_get_lsn(page));
    if (strcmp(lsn, pg->lsn) != 0)
        page_fail(rel, pg, "lsn %s, pageinspect %s", lsn, pg->lsn);
    if (hdr->pd_checksum != pg->checksum || hdr->pd_flags != pg->flags ||
        hdr->pd_lower != pg->lower || hdr->pd_upper != pg->upper ||
        hdr->pd_special != pg->special ||
        tdb_page_get_page_size(page) != pg->pagesize ||
        tdb_page_get_layout_version(page) != pg->version ||
        tdb_page_get_prune_xid(page) != pg->prune_xid)
        page_fail(rel, pg, "header fields differ from pageinspect's");
    if (tdb_page_get_max_offset(page) != pg->nlp) {
        page_fail(rel, pg, "%u line pointers, pageinspect %d",
                  tdb_page_get_max_offset(page), pg->nlp);
        return;
    }
    for (OffsetNumber off = 1; off <= pg->nlp; off++) {
        const ItemIdData *lp = tdb_page_get_item_id(page, off);
        const PgLinePointer *want = &pg->lps[off - 1];

        if (ItemIdGetOffset(lp) != want->off ||
            ItemIdGetFlags(lp) != want->flags ||
            ItemIdGetLength(lp) != want->len)
            page_fail(rel, pg, "lp %u: %u/%u/%u, pageinspect %u/%u/%u", off,
                      ItemIdGetOffset(lp), ItemIdGetFlags(lp),
                      ItemIdGetLength(lp), want->off, want->flags, want->len);
    }
}

/*
 * Our checksum of every page equals the pd_checksum PostgreSQL wrote, and
 * the page verifies -- a btree metapage too, which keeps its metadata
 * where the line pointer array would be (pd_lower = 72 here): tupledb's
 * B-tree writes the same metapage, and verify recognizes it (page.h).
 */
static void
check_checksum_and_verify(const PgRelation *rel, PgPage *pg)
{
    Page page = pg->raw.data;
    PageVerifyReport report;
    PGAlignedBlock flipped;
    Size pos;

    if (tdb_page_checksum(page, pg->blkno) != pg->checksum)
        page_fail(rel, pg, "checksum %u, PostgreSQL wrote %u",
                  tdb_page_checksum(page, pg->blkno), pg->checksum);
    (void)tdb_page_verify(page, pg->blkno, true, &report);
    if (report.status != PAGE_VERIFY_OK)
        page_fail(rel, pg, "verify says %d: %s", report.status, report.detail);
    if (tdb_page_verify(page, pg->blkno + 1, true, NULL) !=
        PAGE_VERIFY_BAD_CHECKSUM)
        page_fail(rel, pg, "verifies as the next block too");

    /* One flipped byte, somewhere different on each page. */
    pos = (pg->blkno * 2654435761u + (Size)pg->line * 40503u) % BLCKSZ;
    memcpy(flipped.data, page, BLCKSZ);
    flipped.data[pos] ^= 0x10;
    if (tdb_page_verify(flipped.data, pg->blkno, true, NULL) !=
        PAGE_VERIFY_BAD_CHECKSUM)
        page_fail(rel, pg, "a flipped byte at %zu went unnoticed", pos);
}

/*
 * Is PostgreSQL's page "compacted": the items with storage packed against
 * pd_special in slot order?  True of a page only ever appended to, and of
 * one PostgreSQL compacted last (PageRepairFragmentation, PostgreSQL 14+,
 * lays items out in slot order) -- the pages our rebuild can reproduce.
 */
static bool
pg_page_is_compacted(const PgPage *pg)
{
    unsigned upper = pg->special;

    for (int i = 0; i < pg->nlp; i++) {
        if (pg->lps[i].len == 0)
            continue;
        upper -= (unsigned)MAXALIGN(pg->lps[i].len);
        if (pg->lps[i].off != upper)
            return false;
    }
    return upper == pg->upper;
}

/*
 * Rebuild a compacted PostgreSQL heap page from scratch into `page`:
 * tdb_page_init, then tdb_page_add_item of each slot in order (the item's
 * raw bytes from PostgreSQL's page; an 8-byte placeholder for a slot
 * without storage), then the slot states PostgreSQL's page shows
 * (unused, dead, redirect) and tdb_page_compact if any slot was not
 * LP_NORMAL.  Returns false (after a failure message) if an add is
 * refused or lands in another slot.
 */
static bool
rebuild_heap_page(const PgRelation *rel, const PgPage *pg, Page page)
{
    static const char placeholder[8] = "tupledb";
    bool any_removed = false;

    tdb_page_init(page, BLCKSZ - pg->special);
    for (int i = 0; i < pg->nlp; i++) {
        const PgLinePointer *lp = &pg->lps[i];
        OffsetNumber got;

        if (lp->flags == LP_NORMAL)
            got = tdb_page_add_item(page, pg->raw.data + lp->off, lp->len,
                                    InvalidOffsetNumber, PAGE_ADD_IS_HEAP);
        else
            got = tdb_page_add_item(page, placeholder, sizeof(placeholder),
                                    InvalidOffsetNumber, PAGE_ADD_IS_HEAP);
        if (got != i + 1) {
            page_fail(rel, pg, "adding slot %d gave %u", i + 1, got);
            return false;
        }
    }
    for (int i = 0; i < pg->nlp; i++) {
        OffsetNumber off = (OffsetNumber)(i + 1);

        switch (pg->lps[i].flags) {
        case LP_UNUSED:
            tdb_page_item_set_unused(page, off);
            break;
        case LP_DEAD:
            tdb_page_item_set_dead(page, off);
            break;
        case LP_REDIRECT:
            tdb_page_item_set_redirect(page, off, (OffsetNumber)pg->lps[i].off);
            break;
        default:
            continue;
        }
        any_removed = true;
    }
    if (any_removed)
        tdb_page_compact(page);
    return true;
}

/*
 * Compare the parts of two pages a rebuild must reproduce: pd_lower,
 * pd_upper, pd_special, size/version, the PD_HAS_FREE_LINES hint, the
 * line pointer array and the item area [pd_upper, pd_special).
 */
static void
compare_layout(const PgRelation *rel, const PgPage *pg, const PageData *ours,
               const char *how)
{
    const PageHeaderData *a = tdb_page_header_const(ours);
    const PageHeaderData *b = tdb_page_header_const(pg->raw.data);

    if (a->pd_lower != b->pd_lower || a->pd_upper != b->pd_upper ||
        a->pd_special != b->pd_special ||
        a->pd_pagesize_version != b->pd_pagesize_version) {
        page_fail(rel, pg,
                  "%s: lower/upper/special %u/%u/%u, PostgreSQL "
                  "%u/%u/%u",
                  how, a->pd_lower, a->pd_upper, a->pd_special, b->pd_lower,
                  b->pd_upper, b->pd_special);
        return;
    }
    if ((a->pd_flags & PD_HAS_FREE_LINES) != (b->pd_flags & PD_HAS_FREE_LINES))
        page_fail(rel, pg, "%s: PD_HAS_FREE_LINES %d, PostgreSQL %d", how,
                  a->pd_flags & PD_HAS_FREE_LINES,
                  b->pd_flags & PD_HAS_FREE_LINES);
    if (memcmp(ours + SizeOfPageHeaderData, pg->raw.data + SizeOfPageHeaderData,
               a->pd_lower - SizeOfPageHeaderData) != 0)
        page_fail(rel, pg, "%s: line pointers differ", how);
    if (memcmp(ours + a->pd_upper, pg->raw.data + a->pd_upper,
               (Size)(a->pd_special - a->pd_upper)) != 0)
        page_fail(rel, pg, "%s: item bytes differ", how);
}

/* Rebuild counts, so the test cannot pass by comparing nothing. */
typedef struct RebuildCounts {
    int whole_pages;     /* insert-only pages equal in all 8192 bytes */
    int compacted_pages; /* pages with removed slots, layout equal */
    int reused_pages;    /* pages replayed from their base relation */
    int reused_slots;    /* items that took a freed line pointer */
    int appended_slots;  /* items that took a new line pointer */
    int removed_slots;   /* unused/dead/redirect slots reproduced */
} RebuildCounts;

/*
 * Pages only ever appended to: the rebuilt page equals PostgreSQL's in
 * every byte except pd_lsn, pd_checksum, pd_flags and pd_prune_xid, which
 * record history (WAL position, write-out, visibility, pruning) rather
 * than layout.  PostgreSQL zeroes a page before its first item, so even
 * the hole matches.
 *
 * Pages with removed slots (VACUUM, pruning): PostgreSQL leaves the bytes
 * of removed tuples in the hole and we zero it, so only the layout is
 * compared (compare_layout).
 */
static void
check_rebuild(const PgRelation *rel, const PgPage *pg, RebuildCounts *counts)
{
    PGAlignedBlock blk;
    Page page = blk.data;
    bool all_normal = true;

    if (!pg_page_is_compacted(pg)) {
        page_fail(rel, pg, "PostgreSQL's items are not packed in slot order");
        return;
    }
    for (int i = 0; i < pg->nlp; i++)
        if (pg->lps[i].flags != LP_NORMAL) {
            all_normal = false;
            counts->removed_slots++;
        }
    if (!rebuild_heap_page(rel, pg, page))
        return;
    compare_layout(rel, pg, page, "rebuilt");
    if (all_normal && strcmp(rel->history, "insert") == 0) {
        memcpy(page, pg->raw.data, 12); /* pd_lsn, pd_checksum, pd_flags */
        memcpy(page + 20, pg->raw.data + 20, 4); /* pd_prune_xid */
        if (memcmp(page, pg->raw.data, BLCKSZ) != 0)
            page_fail(rel, pg, "rebuilt page differs from PostgreSQL's");
        counts->whole_pages++;
    } else if (!all_normal)
        counts->compacted_pages++;

    /* Compacting PostgreSQL's own page moves nothing it placed. */
    memcpy(page, pg->raw.data, BLCKSZ);
    tdb_page_compact(page);
    compare_layout(rel, pg, page, "PostgreSQL's page compacted");
}

/*
 * A page that received inserts after VACUUM is not compacted, so it is
 * replayed instead: start from the same block of the base relation (same
 * statements, so the same layout -- only xids inside the tuples differ),
 * and add each new item in the order PostgreSQL inserted them (downwards
 * in the page) without naming a slot.  tdb_page_add_item must pick the
 * slot PostgreSQL picked -- freed line pointers first, then new ones --
 * and place the data where PostgreSQL did.
 *
 * Only the new items' own bytes are compared, not the alignment padding
 * after them: PostgreSQL copies just the item's length into space VACUUM
 * freed without zeroing, so its padding still holds bytes of the deleted
 * tuples (which differ between the two relations in their xids).
 */
static void
check_replay(const PgFixture *fx, const PgRelation *rel, const PgPage *pg,
             RebuildCounts *counts)
{
    const PgRelation *base = fixture_find(fx, rel->base);
    const PgPage *before;
    PGAlignedBlock blk;
    Page page = blk.data;
    OffsetNumber order[MaxOffsetNumber];
    int nnew = 0;

    if (base == NULL || (int)pg->blkno >= base->npages) {
        page_fail(rel, pg, "no block %u in base relation %s", pg->blkno,
                  rel->base);
        return;
    }
    before = base->pages[pg->blkno];
    memcpy(page, before->raw.data, BLCKSZ);

    /* The new items: LP_NORMAL now, not before; latest insert lowest. */
    for (int i = 0; i < pg->nlp; i++)
        if (pg->lps[i].flags == LP_NORMAL &&
            (i >= before->nlp || before->lps[i].flags != LP_NORMAL))
            order[nnew++] = (OffsetNumber)(i + 1);
    for (int i = 1; i < nnew; i++)
        for (int j = i;
             j > 0 && pg->lps[order[j] - 1].off > pg->lps[order[j - 1] - 1].off;
             j--) {
            OffsetNumber t = order[j];

            order[j] = order[j - 1];
            order[j - 1] = t;
        }

    for (int k = 0; k < nnew; k++) {
        const PgLinePointer *lp = &pg->lps[order[k] - 1];
        OffsetNumber got =
            tdb_page_add_item(page, pg->raw.data + lp->off, lp->len,
                              InvalidOffsetNumber, PAGE_ADD_IS_HEAP);

        if (got != order[k]) {
            page_fail(rel, pg,
                      "new item went to slot %u, PostgreSQL put it "
                      "in %u",
                      got, order[k]);
            return;
        }
        if (order[k] > before->nlp)
            counts->appended_slots++;
        else
            counts->reused_slots++;
    }

    /* Slots and new items as PostgreSQL's; old items carry other xids. */
    {
        const PageHeaderData *a = tdb_page_header(page);

        if (a->pd_lower != pg->lower || a->pd_upper != pg->upper)
            page_fail(rel, pg, "replayed lower/upper %u/%u, PostgreSQL %u/%u",
                      a->pd_lower, a->pd_upper, pg->lower, pg->upper);
        else {
            if ((a->pd_flags & PD_HAS_FREE_LINES) !=
                (pg->flags & PD_HAS_FREE_LINES))
                page_fail(rel, pg, "replayed PD_HAS_FREE_LINES differs");
            if (memcmp(page + SizeOfPageHeaderData,
                       pg->raw.data + SizeOfPageHeaderData,
                       pg->lower - SizeOfPageHeaderData) != 0)
                page_fail(rel, pg, "replayed line pointers differ");
            for (int k = 0; k < nnew; k++) {
                const PgLinePointer *lp = &pg->lps[order[k] - 1];

                if (memcmp(page + lp->off, pg->raw.data + lp->off, lp->len) !=
                    0)
                    page_fail(rel, pg, "replayed item %u differs", order[k]);
            }
        }
    }
    if (nnew > 0)
        counts->reused_pages++;
}

TEST_BEGIN(test_pg15_pages)
{
    PgFixture *fx = tdb_palloc0_object(PgFixture);
    RebuildCounts counts = {0};
    int npages = 0, nheap = 0, nindex = 0, nfree_checked = 0;

    if (!fixture_load(fx))
        return;
    for (int r = 0; r < fx->nrels; r++) {
        const PgRelation *rel = &fx->rels[r];
        long long free_space = 0;

        for (int p = 0; p < rel->npages; p++) {
            PgPage *pg = rel->pages[p];

            npages++;
            check_parse(rel, pg);
            check_checksum_and_verify(rel, pg);
            if (rel->relkind != 'r') {
                nindex++;
                continue;
            }
            nheap++;
            free_space += (long long)tdb_page_get_heap_free_space(pg->raw.data);
            if (strcmp(rel->history, "reused") == 0)
                check_replay(fx, rel, pg, &counts);
            else
                check_rebuild(rel, pg, &counts);
        }
        if (rel->relkind == 'r') {
            if (free_space != rel->free_space)
                tdb_test_fail(__FILE__, __LINE__,
                              "%s: heap free space %lld, pgstattuple %lld",
                              rel->name, free_space, rel->free_space);
            nfree_checked++;
        }
    }
    printf("# %s: %d relations, %d pages (%d heap, %d index) parsed and "
           "checksummed; %d heap pages rebuilt byte for byte, %d with %d "
           "removed slots rebuilt by compaction, %d replayed (%d freed and "
           "%d new line pointers); free space of %d tables\n",
           fx->path, fx->nrels, npages, nheap, nindex, counts.whole_pages,
           counts.compacted_pages, counts.removed_slots, counts.reused_pages,
           counts.reused_slots, counts.appended_slots, nfree_checked);
    expect_u64_gt((uint64)nindex, 0);
    expect_u64_gt((uint64)counts.whole_pages, 0);
    expect_u64_gt((uint64)counts.compacted_pages, 0);
    expect_u64_gt((uint64)counts.removed_slots, 0);
    expect_u64_gt((uint64)counts.reused_pages, 0);
    expect_u64_gt((uint64)counts.reused_slots, 0);
    expect_u64_gt((uint64)counts.appended_slots, 0);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "storage_page", TEST_CASE(test_init),
        TEST_CASE(test_add_get), TEST_CASE(test_page_full),
        TEST_CASE(test_max_heap_tuples), TEST_CASE(test_explicit_offsets),
        TEST_CASE(test_free_slot_reuse), TEST_CASE(test_compact_random),
        TEST_CASE(test_compact_empty), TEST_CASE(test_compact_corrupt),
        TEST_CASE(test_slot_changes_range), TEST_CASE(test_lsn),
        TEST_CASE(test_checksum_basics), TEST_CASE(test_verify),
        TEST_CASE(test_pg15_pages));
}
