/*
 * test_visibilitymap.c -- the visibility map: PostgreSQL 15's layout,
 * VACUUM setting bits, every change clearing them, the read API, and
 * "a set bit is never wrong" across a crash.
 *
 * The table is one int4 column, as in the PostgreSQL capture: 226 rows
 * a page.
 *
 *   test_layout            heap block -> (map block, byte, offset) as
 *       PostgreSQL's HEAPBLK_TO_MAPBLOCK / MAPBYTE / OFFSET
 *   test_pg15_history      tests/fixtures/pg/pg15_vm.txt (capture_vm.sh):
 *       insert 2260 rows, VACUUM, delete all of block 2 and some of
 *       block 5, VACUUM, insert 5 rows -- pg_visibility_map's bits for
 *       every block, map page 0's bitmap bytes and header, and
 *       relallvisible after each VACUUM, as PostgreSQL 15 has them
 *   test_changes_clear     after VACUUM, every kind of change clears its
 *       page's bits and PD_ALL_VISIBLE: insert (committed and aborted),
 *       multi-row insert, delete, update on the same page and to another
 *       page (both pages), the TOAST store's appends, fills and
 *       in-place inserts; pages not changed keep their bits
 *   test_not_all_visible   rows of a running transaction, rows deleted
 *       but visible to a held snapshot, rows newer than the horizon: no
 *       bit; a later VACUUM sets it
 *   test_read_api          VM_ALL_VISIBLE keeps one map page pinned
 *       across calls; past the map's end it is false without extending;
 *       tdb_vm_pin extends with empty pages; count; truncate
 *   test_crash             bit set, page changed and committed, the pool
 *       dropped as a crash drops it: after reopening the bit is clear;
 *       and a commit whose second write fails, then a crash: the map was
 *       written before the heap page, so no bit is set on disk for a page
 *       without PD_ALL_VISIBLE (fails if the pool writes in buffer order)
 */
#include "common/base.h"

#include <stdio.h>

#include "access/htup_xact.h"
#include "access/transam.h"
#include "access/visibilitymap.h"
#include "heap_test.h"
#include "storage/fd.h"
#include "storage/page.h"

#define ROWS_PER_PAGE 226

static TupleDesc
int_desc(void)
{
    TupleDesc desc = tdb_tupdesc_create(1);

    tdb_tupdesc_init_attr(desc, 0, "a", 23, -1, 4, true, 'i', 'p');
    tdb_tupdesc_finalize(desc);
    return desc;
}

static HeapFixture *
start(int nbuffers)
{
    return heap_fixture_start(nbuffers, 16384, "t", int_desc());
}

static HeapTuple
int_row(HeapFixture *f, int32 a)
{
    Datum values[1] = {Int32GetDatum(a)};
    bool isnull[1] = {false};

    return tdb_heap_form_tuple(f->rel.rd_att, values, isnull);
}

/* Insert a = first .. last in one committed transaction (a new session's
 * relation handle: no target page). */
static void
insert_range(HeapFixture *f, int32 first, int32 last)
{
    f->rel.rd_target_block = InvalidBlockNumber;
    tdb_xact_begin(f->xact);
    for (int32 a = first; a <= last; a++)
        tdb_heap_insert(&f->rel, int_row(f, a), f->xact, NULL);
    expect_true(tdb_xact_commit(f->xact));
}

/* The TID of row a of the first 2260 (inserted in order). */
static ItemPointerData
tid_of(int32 a)
{
    ItemPointerData tid;

    ItemPointerSet(&tid, (BlockNumber)((a - 1) / ROWS_PER_PAGE),
                   (OffsetNumber)((a - 1) % ROWS_PER_PAGE + 1));
    return tid;
}

/* Delete rows first .. last with a % mod == 0 (mod 1: all), committed. */
static void
delete_range(HeapFixture *f, int32 first, int32 last, int32 mod)
{
    TM_FailureData tmfd;

    tdb_xact_begin(f->xact);
    for (int32 a = first; a <= last; a++)
        if (a % mod == 0) {
            ItemPointerData tid = tid_of(a);

            expect_int_eq(tdb_heap_delete(&f->rel, &tid, f->xact, &tmfd),
                          TM_OK);
        }
    expect_true(tdb_xact_commit(f->xact));
}

static uint8
status_of(HeapFixture *f, BlockNumber blkno)
{
    Buffer vmbuf = InvalidBuffer;
    uint8 status = tdb_vm_get_status(&f->rel, blkno, &vmbuf);

    if (vmbuf != InvalidBuffer)
        tdb_buf_release(vmbuf);
    return status;
}

static bool
page_flag(HeapFixture *f, BlockNumber blkno)
{
    Buffer buf = tdb_buf_read(f->rel.rd_relfilenumber, blkno, NULL);
    bool set;

    tdb_buf_lock(buf, BUF_LOCK_SHARE);
    set = tdb_page_flag_is_set(tdb_buf_page(buf), PD_ALL_VISIBLE);
    tdb_buf_unlock_release(buf);
    return set;
}

/*
 * The rule, checked on what the pool holds: every page with its
 * ALL_VISIBLE bit set has PD_ALL_VISIBLE and only rows that are
 * committed and not deleted.
 */
static void
expect_bits_right(HeapFixture *f)
{
    BlockNumber nblocks = rel_nblocks(f);
    Clog *clog = tdb_xact_manager_clog(f->tm);

    for (BlockNumber b = 0; b < nblocks; b++) {
        Buffer buf;
        Page page;

        if (!(status_of(f, b) & VISIBILITYMAP_ALL_VISIBLE))
            continue;
        buf = tdb_buf_read(f->rel.rd_relfilenumber, b, NULL);
        tdb_buf_lock(buf, BUF_LOCK_SHARE);
        page = tdb_buf_page(buf);
        expect_true(tdb_page_flag_is_set(page, PD_ALL_VISIBLE));
        for (OffsetNumber off = 1; off <= tdb_page_get_max_offset(page);
             off++) {
            ItemId lp = tdb_page_get_item_id(page, off);
            HeapTupleHeader tup;

            if (!ItemIdIsNormal(lp))
                continue;
            tup = (HeapTupleHeader)tdb_page_get_item(page, lp);
            expect_true(
                tdb_transam_did_commit(clog, HeapTupleHeaderGetRawXmin(tup)));
            expect_true(
                !TransactionIdIsValid(HeapTupleHeaderGetRawXmax(tup)) ||
                !tdb_transam_did_commit(clog, HeapTupleHeaderGetRawXmax(tup)));
        }
        tdb_buf_unlock_release(buf);
    }
}

TEST_BEGIN(test_layout)
{
    expect_int_eq(VM_MAPSIZE, 8168);
    expect_int_eq(VM_HEAPBLOCKS_PER_PAGE, 32672);
    expect_int_eq(VM_HEAPBLK_TO_MAPBLOCK(0), 0);
    expect_int_eq(VM_HEAPBLK_TO_MAPBYTE(5), 1);
    expect_int_eq(VM_HEAPBLK_TO_OFFSET(5), 2);
    expect_int_eq(VM_HEAPBLK_TO_MAPBLOCK(32671), 0);
    expect_int_eq(VM_HEAPBLK_TO_MAPBYTE(32671), 8167);
    expect_int_eq(VM_HEAPBLK_TO_OFFSET(32671), 6);
    expect_int_eq(VM_HEAPBLK_TO_MAPBLOCK(32672), 1);
    expect_int_eq(VM_HEAPBLK_TO_MAPBYTE(32672), 0);
    expect_int_eq(VM_HEAPBLK_TO_OFFSET(32672), 0);
    expect_int_eq(VM_HEAPBLK_TO_MAPBLOCK(MaxBlockNumber), 131457);
}
TEST_END

/* ----------------------------------------------------------------------
 * Against PostgreSQL 15
 * ---------------------------------------------------------------------- */

/* Compare tupledb's map with the fixture's lines of one step; *line
 * is positioned after the step line and left after the step. */
static void
compare_step(HeapFixture *f, FILE *fx, const char *step,
             BlockNumber relallvisible)
{
    char line[256], want_step[64];
    Buffer vmbuf = InvalidBuffer;
    Page page;

    snprintf(want_step, sizeof(want_step), "step %s\n", step);
    while (fgets(line, sizeof(line), fx) != NULL && line[0] == '#')
        ;
    expect_str_eq(line, want_step);
    while (fgets(line, sizeof(line), fx) != NULL) {
        unsigned blk, vis, frozen, lower, upper, special, flags, version, n;
        char hex[64];

        if (sscanf(line, "block %u %u %u", &blk, &vis, &frozen) == 3) {
            uint8 status = status_of(f, blk);

            if (((status & VISIBILITYMAP_ALL_VISIBLE) != 0) != (vis != 0) ||
                ((status & VISIBILITYMAP_ALL_FROZEN) != 0) != (frozen != 0))
                tdb_test_fail(__FILE__, __LINE__,
                              "%s: block %u: tupledb %u, PostgreSQL %u%u", step,
                              blk, status, frozen, vis);
        } else if (sscanf(line, "map %63s", hex) == 1) {
            char got[64];

            tdb_vm_pin(&f->rel, 0, &vmbuf);
            page = tdb_buf_page(vmbuf);
            for (int i = 0; i < 16; i++)
                snprintf(got + 2 * i, 3, "%02x",
                         (uint8)page[MAXALIGN(SizeOfPageHeaderData) + i]);
            expect_str_eq(got, hex);
        } else if (sscanf(line, "header %u %u %u %u %u", &lower, &upper,
                          &special, &flags, &version) == 5) {
            const PageHeaderData *h;

            tdb_vm_pin(&f->rel, 0, &vmbuf);
            h = tdb_page_header_const(tdb_buf_page(vmbuf));
            expect_int_eq(h->pd_lower, lower);
            expect_int_eq(h->pd_upper, upper);
            expect_int_eq(h->pd_special, special);
            expect_int_eq(h->pd_flags, flags);
            expect_int_eq(h->pd_pagesize_version & 0xFF, version);
        } else if (sscanf(line, "relallvisible %u", &n) == 1) {
            expect_int_eq(relallvisible, n);
            break;
        } else
            tdb_test_fail(__FILE__, __LINE__, "bad fixture line: %s", line);
    }
    if (vmbuf != InvalidBuffer)
        tdb_buf_release(vmbuf);
}

TEST_BEGIN(test_pg15_history)
{
    char path[PATH_MAX];
    FILE *fx = tdb_test_open_fixture("pg/pg15_vm.txt", "TDB_PG_VM_FIXTURE",
                                     path, sizeof(path));
    HeapFixture *f;
    VacuumStats st;

    if (fx == NULL) {
        tdb_test_fail(__FILE__, __LINE__, "cannot open %s", path);
        return;
    }
    f = start(64);
    insert_range(f, 1, 2260);
    expect_int_eq(rel_nblocks(f), 10);
    st = vacuum_rel(f);
    compare_step(f, fx, "vacuum1", st.all_visible_pages);

    delete_range(f, 453, 678, 1);
    delete_range(f, 1131, 1356, 10);
    st = vacuum_rel(f);
    compare_step(f, fx, "vacuum2", st.all_visible_pages);

    insert_range(f, 3000, 3004);
    /* relallvisible is VACUUM's count: unchanged until the next one */
    compare_step(f, fx, "insert", st.all_visible_pages);
    fclose(fx);
    expect_bits_right(f);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Clearing
 * ---------------------------------------------------------------------- */

/* Blocks 0..9 full and all-visible. */
static HeapFixture *
start_all_visible(void)
{
    HeapFixture *f = start(64);

    insert_range(f, 1, 2260);
    vacuum_rel(f);
    for (BlockNumber b = 0; b < 10; b++) {
        expect_int_eq(status_of(f, b), VISIBILITYMAP_ALL_VISIBLE);
        expect_true(page_flag(f, b));
    }
    return f;
}

/* Expect block blkno's bits and flag clear (kept: set), reporting the
 * caller's line. */
#define expect_cleared(f, blkno) expect_state(f, blkno, false, __LINE__)
#define expect_kept(f, blkno) expect_state(f, blkno, true, __LINE__)

static void
expect_state(HeapFixture *f, BlockNumber blkno, bool kept, int line)
{
    uint8 status = status_of(f, blkno);
    bool flag = page_flag(f, blkno);

    if (status != (kept ? VISIBILITYMAP_ALL_VISIBLE : 0) || flag != kept)
        tdb_test_fail(__FILE__, line,
                      "block %u: map bits %u, PD_ALL_VISIBLE %d, expected %s",
                      blkno, status, flag, kept ? "kept" : "cleared");
}

TEST_BEGIN(test_changes_clear)
{
    HeapFixture *f = start_all_visible();
    TM_FailureData tmfd;
    ItemPointerData tid;
    HeapTuple rows[3];

    /* room on blocks 2, 4, 6 (a second VACUUM makes them all-visible
     * again, with free space) */
    delete_range(f, 453, 500, 1);
    delete_range(f, 905, 950, 1);
    delete_range(f, 1357, 1400, 1);
    vacuum_rel(f);
    for (BlockNumber b = 0; b < 10; b++)
        expect_kept(f, b);

    /* an insert that is rolled back clears all the same */
    f->rel.rd_target_block = InvalidBlockNumber;
    tdb_xact_begin(f->xact);
    tdb_heap_insert(&f->rel, int_row(f, 5000), f->xact, NULL);
    tdb_xact_abort(f->xact);
    expect_cleared(f, 2);
    expect_kept(f, 4);

    /* a multi-row insert into a page VACUUM freed */
    vacuum_rel(f); /* block 2 all-visible again */
    expect_kept(f, 2);
    for (int i = 0; i < 3; i++)
        rows[i] = int_row(f, 6000 + i);
    f->rel.rd_target_block = 4;
    tdb_xact_begin(f->xact);
    tdb_heap_multi_insert(&f->rel, rows, 3, f->xact, NULL);
    expect_true(tdb_xact_commit(f->xact));
    expect_cleared(f, 4);
    expect_kept(f, 6);

    /* a delete */
    tdb_xact_begin(f->xact);
    tid = tid_of(2);
    expect_int_eq(tdb_heap_delete(&f->rel, &tid, f->xact, &tmfd), TM_OK);
    expect_true(tdb_xact_commit(f->xact));
    expect_cleared(f, 0);
    expect_kept(f, 1);

    /* an update on a full page: the new version goes to block 6, both
     * pages lose their bits */
    f->rel.rd_target_block = 6;
    tdb_xact_begin(f->xact);
    tid = tid_of(8 * ROWS_PER_PAGE + 1);
    expect_int_eq(
        tdb_heap_update(&f->rel, &tid, int_row(f, 7000), f->xact, &tmfd),
        TM_OK);
    expect_true(tdb_xact_commit(f->xact));
    expect_cleared(f, 8);
    expect_cleared(f, 6);
    expect_kept(f, 9);

    /* an update that stays on its page (block 2 has room) */
    vacuum_rel(f);
    expect_kept(f, 2);
    tdb_xact_begin(f->xact);
    tid = tid_of(2 * ROWS_PER_PAGE + 100);
    expect_int_eq(
        tdb_heap_update(&f->rel, &tid, int_row(f, 7001), f->xact, &tmfd),
        TM_OK);
    expect_true(tdb_xact_commit(f->xact));
    expect_cleared(f, 2);

    /* the TOAST store's ways in: onto a chosen page, appending at the
     * end, and into empty pages */
    vacuum_rel(f);
    expect_kept(f, 4);
    tdb_xact_begin(f->xact);
    expect_true(tdb_heap_insert_on_page(&f->rel, int_row(f, 8000), 4, 291,
                                        f->xact, NULL, NULL));
    expect_true(tdb_xact_commit(f->xact));
    expect_cleared(f, 4);
    expect_kept(f, 9);
    for (int i = 0; i < 2; i++) {
        /* the first goes to a new page (block 9 is full), which VACUUM
         * makes all-visible; the second goes to that page */
        rows[0] = int_row(f, 8001 + i);
        tdb_xact_begin(f->xact);
        tdb_heap_insert_at_end(&f->rel, rows, 1, 291, false, f->xact, NULL,
                               NULL, NULL);
        expect_true(tdb_xact_commit(f->xact));
        expect_int_eq(rel_nblocks(f), 11);
        expect_cleared(f, 10);
        if (i == 0) {
            vacuum_rel(f);
            expect_kept(f, 10);
        }
    }
    expect_kept(f, 9);
    expect_bits_right(f);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_empty_pages_filled)
{
    HeapFixture *f = start_all_visible();
    HeapTuple rows[2];

    /* block 3 emptied: all-visible and all-frozen, as PostgreSQL */
    delete_range(f, 3 * ROWS_PER_PAGE + 1, 4 * ROWS_PER_PAGE, 1);
    vacuum_rel(f);
    expect_int_eq(status_of(f, 3),
                  VISIBILITYMAP_ALL_VISIBLE | VISIBILITYMAP_ALL_FROZEN);
    rows[0] = int_row(f, 1);
    rows[1] = int_row(f, 2);
    tdb_xact_begin(f->xact);
    tdb_heap_insert_on_empty_pages(&f->rel, rows, 2, 3, 2, f->xact, NULL, NULL,
                                   NULL);
    expect_true(tdb_xact_commit(f->xact));
    expect_cleared(f, 3);
    expect_kept(f, 2);
    expect_bits_right(f);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_not_all_visible)
{
    HeapFixture *f = start(64);
    Transaction *writer;
    Transaction *reader;
    Snapshot held;
    VacuumStats st;

    insert_range(f, 1, 300); /* blocks 0 and 1 */
    /* a running transaction's row on block 1 */
    writer = begin_new(f->tm);
    f->rel.rd_target_block = InvalidBlockNumber;
    tdb_heap_insert(&f->rel, int_row(f, 301), writer, NULL);
    st = vacuum_rel(f);
    expect_int_eq(status_of(f, 0), VISIBILITYMAP_ALL_VISIBLE);
    expect_int_eq(status_of(f, 1), 0);
    expect_false(page_flag(f, 1));
    expect_int_eq(st.all_visible_pages, 1);
    tdb_xact_commit(writer);
    tdb_xact_destroy(writer);

    /* a deleted row a held snapshot still sees */
    reader = begin_new(f->tm);
    held = snap_of(f, reader);
    delete_range(f, 1, 1, 1);
    st = vacuum_rel(f);
    expect_int_eq(status_of(f, 0), 0);
    expect_int_eq(status_of(f, 1), VISIBILITYMAP_ALL_VISIBLE);
    expect_int_eq(count_visible(f, held), 301);
    tdb_xact_commit(reader);
    tdb_xact_destroy(reader);
    st = vacuum_rel(f);
    expect_int_eq(status_of(f, 0), VISIBILITYMAP_ALL_VISIBLE);
    expect_int_eq(st.all_visible_pages, 2);
    expect_bits_right(f);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Reading, counting, truncating
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_read_api)
{
    HeapFixture *f = start_all_visible();
    Buffer vmbuf = InvalidBuffer;
    Buffer first;
    BlockNumber nvis, nfrozen;
    BufferUsage before, after;

    /* one pin for all the calls on one map page */
    expect_true(VM_ALL_VISIBLE(&f->rel, 0, &vmbuf));
    first = vmbuf;
    tdb_buf_usage(&before);
    for (BlockNumber b = 0; b < 10; b++)
        expect_true(VM_ALL_VISIBLE(&f->rel, b, &vmbuf));
    tdb_buf_usage(&after);
    expect_int_eq(vmbuf, first);
    expect_u64_eq(after.hits + after.misses, before.hits + before.misses);
    expect_false(VM_ALL_FROZEN(&f->rel, 0, &vmbuf));
    expect_false(VM_ALL_VISIBLE(&f->rel, 10, &vmbuf)); /* no page yet */
    expect_true(tdb_vm_pin_ok(9, vmbuf));
    /* past the map's end: false, nothing pinned, nothing extended */
    expect_false(VM_ALL_VISIBLE(&f->rel, 40000, &vmbuf));
    expect_int_eq(vmbuf, InvalidBuffer);
    expect_int_eq(
        tdb_buf_fork_nblocks(f->rel.rd_relfilenumber, VISIBILITYMAP_FORKNUM),
        1);
    /* pinning extends with empty pages */
    tdb_vm_pin(&f->rel, 2 * VM_HEAPBLOCKS_PER_PAGE, &vmbuf);
    expect_true(tdb_vm_pin_ok(2 * VM_HEAPBLOCKS_PER_PAGE, vmbuf));
    expect_false(tdb_vm_pin_ok(0, vmbuf));
    expect_int_eq(
        tdb_buf_fork_nblocks(f->rel.rd_relfilenumber, VISIBILITYMAP_FORKNUM),
        3);
    tdb_buf_release(vmbuf);
    vmbuf = InvalidBuffer;

    tdb_vm_count(&f->rel, &nvis, &nfrozen);
    expect_int_eq(nvis, 10);
    expect_int_eq(nfrozen, 0);

    /* truncate: bits past the end cleared, map pages past it gone */
    tdb_vm_truncate(&f->rel, 7);
    tdb_vm_count(&f->rel, &nvis, NULL);
    expect_int_eq(nvis, 7);
    expect_int_eq(status_of(f, 6), VISIBILITYMAP_ALL_VISIBLE);
    expect_int_eq(status_of(f, 7), 0);
    expect_int_eq(
        tdb_buf_fork_nblocks(f->rel.rd_relfilenumber, VISIBILITYMAP_FORKNUM),
        1);
    tdb_vm_truncate(&f->rel, 0);
    expect_int_eq(
        tdb_buf_fork_nblocks(f->rel.rd_relfilenumber, VISIBILITYMAP_FORKNUM),
        0);
    expect_int_eq(status_of(f, 0), 0);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Crashes
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_crash)
{
    HeapFixture *f = start_all_visible();
    TM_FailureData tmfd;
    ItemPointerData tid;

    /* a committed change: its cleared bit is on disk with it */
    tdb_xact_begin(f->xact);
    tid = tid_of(3 * ROWS_PER_PAGE + 5);
    expect_int_eq(tdb_heap_delete(&f->rel, &tid, f->xact, &tmfd), TM_OK);
    expect_true(tdb_xact_commit(f->xact));
    heap_fixture_crash(f, 64);
    expect_int_eq(status_of(f, 3), 0);
    expect_false(page_flag(f, 3));
    expect_int_eq(status_of(f, 2), VISIBILITYMAP_ALL_VISIBLE);
    expect_bits_right(f);

    /* the commit's second write fails: the map page went first, so the
     * heap page on disk is the old one or its bit is clear.  (In a fresh
     * pool the heap page takes a lower buffer than the map page, so a
     * flush in buffer order alone would write the heap page first and
     * leave a set bit for a page without PD_ALL_VISIBLE.) */
    if (config_debug) {
        heap_fixture_crash(f, 64);
        tdb_xact_begin(f->xact);
        tid = tid_of(5 * ROWS_PER_PAGE + 5);
        expect_int_eq(tdb_heap_delete(&f->rel, &tid, f->xact, &tmfd), TM_OK);
        expect_true(tdb_fd_inject(FD_OP_WRITE, 2, EIO));
        expect_error(tdb_xact_commit(f->xact), ERRCODE_IO_ERROR,
                     "could not write block");
        tdb_fd_inject_clear();
        heap_fixture_crash(f, 64);
        if (status_of(f, 5) & VISIBILITYMAP_ALL_VISIBLE)
            expect_true(page_flag(f, 5));
        expect_bits_right(f);
        expect_int_eq(count_from_other_session(f), 2259);
    }
    heap_fixture_finish(f);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "access_visibilitymap", TEST_CASE(test_layout),
        TEST_CASE(test_pg15_history), TEST_CASE(test_changes_clear),
        TEST_CASE(test_empty_pages_filled), TEST_CASE(test_not_all_visible),
        TEST_CASE(test_read_api), TEST_CASE(test_crash));
}
