/*
 * test_heapam.c -- the heap access method on a real data directory,
 * buffer pool and transaction manager: inserts, bulk inserts, page-mode
 * scans, fetch by TID, delete and update with their MVCC effects, the
 * bytes they leave on the page, and what happens with bad input.
 *
 * Rows are (id int4, val int4, note text).  Relations are plain files
 * created through smgr here; the catalog's tests cover naming them.
 */
#include "common/base.h"

#include <errno.h>
#include <string.h>

#include "access/heapam.h"
#include "access/htup_xact.h"
#include "access/snapshot.h"
#include "access/xact.h"
#include "common/elog.h"
#include "heap_test.h"
#include "storage/bufmgr.h"
#include "storage/fd.h"
#include "storage/smgr.h"
#include "test.h"
#include "tuple/heaptuple.h"
#include "tuple/varlena.h"

/* ----------------------------------------------------------------------
 * The fixture (heap_test.h): one session, one table
 * ---------------------------------------------------------------------- */

static HeapFixture *
start(int nbuffers)
{
    return heap_fixture_start(nbuffers, 16384, "t", row_desc());
}

static void
insert_row(HeapFixture *f, int32 id, int32 val, const char *note)
{
    tdb_heap_insert(&f->rel, form_row(f, id, val, note), f->xact, NULL);
}

/* The header of the row at offset off of a pinned buffer's page. */
static HeapTupleHeader
page_row(Buffer buf, OffsetNumber off)
{
    Page page = tdb_buf_page(buf);

    return (HeapTupleHeader)tdb_page_get_item(page,
                                              tdb_page_get_item_id(page, off));
}

/* ----------------------------------------------------------------------
 * Insert and scan
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_insert_commit_scan)
{
    HeapFixture *f = start(64);
    int32 ids[8];
    int64 sum;

    tdb_xact_begin(f->xact);
    for (int i = 1; i <= 5; i++)
        insert_row(f, i, i * 10, "x");
    /* not visible to the inserting command itself, nor to others */
    expect_int_eq(count_visible(f, snap_now(f)), 0);
    expect_int_eq(count_from_other_session(f), 0);
    tdb_xact_command_counter_increment(f->xact);
    /* visible to the next command of the same transaction */
    expect_int_eq(count_visible(f, snap_now(f)), 5);
    expect_true(tdb_xact_commit(f->xact));

    expect_int_eq(count_from_other_session(f), 5);
    tdb_xact_begin(f->xact);
    expect_int_eq(scan_rows(f, snap_now(f), &sum, ids, 8), 5);
    expect_int_eq(sum, 15);
    for (int i = 0; i < 5; i++)
        expect_int_eq(ids[i], i + 1); /* insertion order */
    tdb_xact_commit(f->xact);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_page_bytes)
{
    HeapFixture *f = start(64);
    HeapTuple tup = form_row(f, 7, 70, "seven");
    TransactionId xid;
    Buffer buf;
    Page page;
    ItemId lp;
    HeapTupleHeader hdr;

    tdb_xact_begin(f->xact);
    tdb_heap_insert(&f->rel, tup, f->xact, NULL);
    xid = tdb_xact_current_xid(f->xact);
    expect_int_eq(ItemPointerGetBlockNumber(&tup->t_self), 0);
    expect_int_eq(ItemPointerGetOffsetNumber(&tup->t_self), 1);
    expect_int_eq(tup->t_tableOid, 16384);

    buf = tdb_buf_read(f->rel.rd_relfilenumber, 0, NULL);
    tdb_buf_lock(buf, BUF_LOCK_SHARE);
    page = tdb_buf_page(buf);
    expect_int_eq(tdb_page_get_max_offset(page), 1);
    expect_int_eq(tdb_page_header(page)->pd_lower, 28);
    lp = tdb_page_get_item_id(page, 1);
    expect_int_eq(ItemIdGetFlags(lp), LP_NORMAL);
    expect_int_eq(ItemIdGetLength(lp), tup->t_len);
    /* placed at the end of the page, MAXALIGNed, as PostgreSQL does */
    expect_int_eq(ItemIdGetOffset(lp), BLCKSZ - MAXALIGN(tup->t_len));
    expect_int_eq(tdb_page_header(page)->pd_upper, ItemIdGetOffset(lp));
    hdr = (HeapTupleHeader)tdb_page_get_item(page, lp);
    expect_int_eq(HeapTupleHeaderGetRawXmin(hdr), xid);
    expect_int_eq(HeapTupleHeaderGetRawXmax(hdr), 0);
    expect_int_eq(HeapTupleHeaderGetRawCommandId(hdr), 0);
    expect_int_eq(hdr->t_infomask,
                  HEAP_XMAX_INVALID | HEAP_HASVARWIDTH);
    expect_int_eq(hdr->t_infomask2, 3);
    expect_int_eq(ItemPointerGetBlockNumber(&hdr->t_ctid), 0);
    expect_int_eq(ItemPointerGetOffsetNumber(&hdr->t_ctid), 1);
    expect_true(memcmp((char *)hdr + hdr->t_hoff,
                       (char *)tup->t_data + tup->t_data->t_hoff,
                       tup->t_len - tup->t_data->t_hoff) == 0);
    tdb_buf_unlock_release(buf);
    tdb_xact_commit(f->xact);

    /* a reader sets the committed hint on the page */
    expect_int_eq(count_from_other_session(f), 1);
    buf = tdb_buf_read(f->rel.rd_relfilenumber, 0, NULL);
    hdr = page_row(buf, 1);
    expect_true(hdr->t_infomask & HEAP_XMIN_COMMITTED);
    tdb_buf_release(buf);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_abort_large_insert)
{
    HeapFixture *f = start(32); /* the table outgrows the pool */
    const int nrows = 20000;

    tdb_xact_begin(f->xact);
    insert_row(f, 1, 1, "kept");
    tdb_xact_commit(f->xact);

    tdb_xact_begin(f->xact);
    for (int i = 0; i < nrows; i++)
        insert_row(f, i + 100, i, "a row that will be rolled back");
    expect_true(tdb_buf_relation_nblocks(f->rel.rd_relfilenumber) > 32);
    tdb_xact_abort(f->xact);

    expect_int_eq(count_from_other_session(f), 1);
    /* also after the pool forgot everything */
    tdb_bufmgr_shutdown();
    tdb_bufmgr_init(tdb_datadir_path(f->dd), 32, true);
    expect_int_eq(count_from_other_session(f), 1);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_multi_insert_fills_pages)
{
    HeapFixture *f = start(64);
    const int nrows = 5000;
    HeapTuple *rows = tdb_palloc(nrows * sizeof(HeapTuple));
    BulkInsertState bis;
    int64 sum;
    Size row_space;
    int per_page;

    for (int i = 0; i < nrows; i++)
        rows[i] = form_row(f, i, -i, NULL);
    tdb_xact_begin(f->xact);
    bis = tdb_heap_bulk_insert_begin();
    tdb_heap_multi_insert(&f->rel, rows, 1000, f->xact, bis);
    tdb_heap_multi_insert(&f->rel, rows + 1000, nrows - 1000, f->xact, bis);
    tdb_heap_bulk_insert_end(bis);
    expect_true(tdb_xact_commit(f->xact));

    /* every page but the last is full: as many rows as fit */
    row_space = MAXALIGN(rows[0]->t_len) + sizeof(ItemIdData);
    per_page = (int)((BLCKSZ - SizeOfPageHeaderData) / row_space);
    expect_int_eq(tdb_buf_relation_nblocks(f->rel.rd_relfilenumber),
                  (nrows + per_page - 1) / per_page);
    for (int i = 0; i < nrows; i++) {
        expect_int_eq(ItemPointerGetBlockNumber(&rows[i]->t_self),
                      i / per_page);
        expect_int_eq(ItemPointerGetOffsetNumber(&rows[i]->t_self),
                      i % per_page + 1);
    }
    tdb_xact_begin(f->xact);
    expect_int_eq(scan_rows(f, snap_now(f), &sum, NULL, 0), nrows);
    expect_int_eq(sum, (int64)nrows * (nrows - 1) / 2);
    tdb_xact_commit(f->xact);
    heap_fixture_finish(f);
}
TEST_END

/* Rows appended in order, at most max_per_page line pointers a page,
 * starting on the last page or on a new one; the placement hook. */
/* A HeapPlacedRowHook: val := block * 100 + offset; counts calls. */
static void
stamp_position(HeapTupleHeader page_row, const ItemPointerData *tid,
               int index, void *arg)
{
    int32 val = (int32)(ItemPointerGetBlockNumber(tid) * 100 +
                        ItemPointerGetOffsetNumber(tid));

    memcpy((char *)page_row + page_row->t_hoff + 4, &val, sizeof(val));
    expect_int_eq(index, *(int *)arg);
    (*(int *)arg)++;
}

TEST_BEGIN(test_insert_at_end)
{
    HeapFixture *f = start(64);
    HeapTuple rows[10];
    HeapTupleHeader hdr;
    int nplaced = 0;
    char big[5000];

    memset(big, 'b', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    tdb_xact_begin(f->xact);
    /* an empty relation: ten rows, three a page, pages 0-3 */
    for (int i = 0; i < 10; i++)
        rows[i] = form_row(f, i, i, "r");
    tdb_heap_insert_at_end(&f->rel, rows, 10, 3, false, f->xact, NULL,
                           stamp_position, &nplaced);
    expect_int_eq(nplaced, 10);
    for (int i = 0; i < 10; i++) {
        Buffer buf;
        int32 val;

        expect_u64_eq(ItemPointerGetBlockNumber(&rows[i]->t_self),
                      (BlockNumber)(i / 3));
        expect_u64_eq(ItemPointerGetOffsetNumber(&rows[i]->t_self),
                      (OffsetNumber)(i % 3 + 1));
        /* the hook wrote the position into the page's copy of val */
        buf = tdb_buf_read(f->rel.rd_relfilenumber, (BlockNumber)(i / 3),
                           NULL);
        hdr = page_row(buf, (OffsetNumber)(i % 3 + 1));
        memcpy(&val, (char *)hdr + hdr->t_hoff + 4, sizeof(val));
        expect_int_eq(val, (i / 3) * 100 + i % 3 + 1);
        tdb_buf_release(buf);
    }
    /* the last page has room for two more */
    for (int i = 0; i < 3; i++)
        rows[i] = form_row(f, 10 + i, i, "s");
    tdb_heap_insert_at_end(&f->rel, rows, 3, 3, false, f->xact, NULL, NULL,
                           NULL);
    expect_u64_eq(ItemPointerGetBlockNumber(&rows[0]->t_self), 3);
    expect_u64_eq(ItemPointerGetOffsetNumber(&rows[0]->t_self), 2);
    expect_u64_eq(ItemPointerGetOffsetNumber(&rows[1]->t_self), 3);
    expect_u64_eq(ItemPointerGetBlockNumber(&rows[2]->t_self), 4);
    expect_u64_eq(ItemPointerGetOffsetNumber(&rows[2]->t_self), 1);
    /* a new page although page 4 has room */
    rows[0] = form_row(f, 20, 0, "t");
    tdb_heap_insert_at_end(&f->rel, rows, 1, 3, true, f->xact, NULL, NULL,
                           NULL);
    expect_u64_eq(ItemPointerGetBlockNumber(&rows[0]->t_self), 5);
    expect_u64_eq(ItemPointerGetOffsetNumber(&rows[0]->t_self), 1);
    /* room decides too: two 5 kB rows do not share a page */
    rows[0] = form_row(f, 21, 0, big);
    rows[1] = form_row(f, 22, 0, big);
    tdb_heap_insert_at_end(&f->rel, rows, 2, 8, false, f->xact, NULL, NULL,
                           NULL);
    expect_u64_eq(ItemPointerGetBlockNumber(&rows[0]->t_self), 5);
    expect_u64_eq(ItemPointerGetOffsetNumber(&rows[0]->t_self), 2);
    expect_u64_eq(ItemPointerGetBlockNumber(&rows[1]->t_self), 6);
    expect_error(tdb_heap_insert_at_end(&f->rel, rows, 1, 0, false, f->xact,
                                        NULL, NULL, NULL),
                 ERRCODE_INTERNAL_ERROR, "invalid rows per page");
    tdb_xact_abort(f->xact);
    tdb_xact_begin(f->xact);
    rows[0] = form_row(f, 1, 1, "committed");
    tdb_heap_insert_at_end(&f->rel, rows, 1, 3, false, f->xact, NULL, NULL,
                           NULL);
    expect_true(tdb_xact_commit(f->xact));
    expect_int_eq(count_from_other_session(f), 1);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_scan_slot_and_pins)
{
    HeapFixture *f = start(64);
    TupleTableSlot *slot = tdb_slot_create(f->rel.rd_att, &tdb_tts_ops_heap);
    HeapScanDesc scan;
    int n = 0;

    tdb_xact_begin(f->xact);
    for (int i = 0; i < 1000; i++)
        insert_row(f, i, i, i % 3 == 0 ? NULL : "note");
    tdb_xact_commit(f->xact);

    tdb_xact_begin(f->xact);
    scan = tdb_heap_beginscan(&f->rel, snap_now(f));
    while (tdb_heap_getnextslot(scan, slot)) {
        bool isnull;
        Datum note;

        expect_int_eq(DatumGetInt32(tdb_slot_getattr(slot, 1, &isnull)), n);
        note = tdb_slot_getattr(slot, 3, &isnull);
        expect_true(isnull == (n % 3 == 0));
        if (!isnull)
            expect_int_eq(VARSIZE_ANY_EXHDR(DatumGetPointer(note)), 4);
        expect_int_eq(slot->tts_tableOid, 16384);
        /* the scan's pin and the slot's: one buffer, held */
        expect_int_eq(tdb_buf_pins_held(), 1);
        n++;
    }
    expect_int_eq(n, 1000);
    expect_int_eq(tdb_heap_scan_pages_read(scan),
                  tdb_buf_relation_nblocks(f->rel.rd_relfilenumber));
    tdb_heap_rescan(scan);
    expect_true(tdb_heap_getnextslot(scan, slot));
    tdb_slot_materialize(slot); /* the slot lets go of the page */
    tdb_heap_endscan(scan);
    expect_int_eq(tdb_buf_pins_held(), 0);
    tdb_slot_drop(slot);
    tdb_xact_commit(f->xact);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_big_scan_uses_ring)
{
    HeapFixture *f = start(64);
    BufferPoolStats stats;
    HeapScanDesc scan;
    BufferUsage before, after;

    tdb_xact_begin(f->xact);
    for (int i = 0; i < 12000; i++) /* ~60 pages: above 64/4 */
        insert_row(f, i, i, "a note to fill the pages a little");
    tdb_xact_commit(f->xact);
    tdb_buf_flush_all();
    /* evict the table: a cold pool */
    tdb_bufmgr_shutdown();
    tdb_bufmgr_init(tdb_datadir_path(f->dd), 64, true);

    tdb_xact_begin(f->xact);
    tdb_buf_usage(&before);
    scan = tdb_heap_beginscan(&f->rel, snap_now(f));
    while (tdb_heap_getnext(scan) != NULL)
        ;
    tdb_heap_endscan(scan);
    tdb_buf_usage(&after);
    tdb_xact_commit(f->xact);
    expect_true(after.reads - before.reads >= 60);
    /* the ring (256 kB = 32 buffers, capped at 1/8 of the pool = 8)
     * held the pages: most of the pool stayed free */
    tdb_buf_pool_stats(&stats);
    expect_true(stats.nvalid <= 16);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Fetch, delete, update
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_fetch)
{
    HeapFixture *f = start(64);
    TupleTableSlot *slot = tdb_slot_create(f->rel.rd_att, &tdb_tts_ops_heap);
    HeapTuple tup = form_row(f, 42, 1, "answer");
    ItemPointerData tid, bad;
    Snapshot before;
    bool isnull;

    tdb_xact_begin(f->xact);
    before = snap_now(f);
    tdb_heap_insert(&f->rel, tup, f->xact, NULL);
    tid = tup->t_self;
    tdb_xact_command_counter_increment(f->xact);
    expect_true(tdb_heap_fetch(&f->rel, snap_now(f), &tid, slot));
    expect_int_eq(DatumGetInt32(tdb_slot_getattr(slot, 1, &isnull)), 42);
    expect_int_eq(ItemPointerGetOffsetNumber(&slot->tts_tid), 1);
    /* a snapshot from before the insert does not see it */
    expect_false(tdb_heap_fetch(&f->rel, before, &tid, slot));
    expect_true(tdb_slot_is_empty(slot));
    /* tids that name nothing */
    ItemPointerSet(&bad, 0, 2);
    expect_false(tdb_heap_fetch(&f->rel, snap_now(f), &bad, slot));
    ItemPointerSet(&bad, 7, 1);
    expect_false(tdb_heap_fetch(&f->rel, snap_now(f), &bad, slot));
    tdb_slot_drop(slot);
    tdb_xact_commit(f->xact);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_delete)
{
    HeapFixture *f = start(64);
    HeapTuple rows[3];
    TM_FailureData tmfd;
    Snapshot old_snap;
    Transaction *reader = tdb_xact_create(f->tm, NULL);
    HeapTupleHeader hdr;
    TransactionId deleter;
    Buffer buf;

    tdb_xact_begin(f->xact);
    for (int i = 0; i < 3; i++) {
        rows[i] = form_row(f, i, i, "r");
        tdb_heap_insert(&f->rel, rows[i], f->xact, NULL);
    }
    tdb_xact_commit(f->xact);

    /* a reader's snapshot from before the delete */
    tdb_xact_begin(reader);
    old_snap = tdb_snapshot_take(f->tm, reader, tdb_current_mcxt);

    tdb_xact_begin(f->xact);
    expect_int_eq(tdb_heap_delete(&f->rel, &rows[1]->t_self, f->xact, &tmfd),
                  TM_OK);
    /* the same command deleting again: self-modified */
    expect_int_eq(tdb_heap_delete(&f->rel, &rows[1]->t_self, f->xact, &tmfd),
                  TM_SELF_MODIFIED);
    expect_int_eq(tmfd.cmax, 0);
    expect_int_eq(tmfd.xmax, tdb_xact_current_xid(f->xact));
    buf = tdb_buf_read(f->rel.rd_relfilenumber, 0, NULL);
    hdr = page_row(buf, 2);
    expect_int_eq(HeapTupleHeaderGetRawXmax(hdr),
                  tdb_xact_current_xid(f->xact));
    expect_false(hdr->t_infomask & HEAP_XMAX_INVALID);
    expect_true(hdr->t_infomask2 & HEAP_KEYS_UPDATED);
    expect_int_eq(ItemPointerGetOffsetNumber(&hdr->t_ctid), 2);
    expect_int_eq(tdb_page_get_prune_xid(tdb_buf_page(buf)),
                  tdb_xact_current_xid(f->xact));
    deleter = tdb_xact_current_xid(f->xact);
    tdb_buf_release(buf);
    tdb_xact_commit(f->xact);

    expect_int_eq(count_visible(f, old_snap), 3);
    expect_int_eq(count_from_other_session(f), 2);
    tdb_xact_commit(reader);
    tdb_xact_destroy(reader);

    /* deleting a row deleted by a committed transaction */
    tdb_xact_begin(f->xact);
    expect_int_eq(tdb_heap_delete(&f->rel, &rows[1]->t_self, f->xact, &tmfd),
                  TM_DELETED);
    expect_int_eq(tmfd.xmax, deleter);
    expect_int_eq(ItemPointerGetOffsetNumber(&tmfd.ctid), 2);
    tdb_xact_abort(f->xact);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_update_same_and_other_page)
{
    HeapFixture *f = start(64);
    HeapTuple first = form_row(f, 1, 100, "one");
    HeapTuple newv;
    TM_FailureData tmfd;
    Snapshot old_snap;
    Transaction *reader = tdb_xact_create(f->tm, NULL);
    TupleTableSlot *slot = tdb_slot_create(f->rel.rd_att, &tdb_tts_ops_heap);
    ItemPointerData first_tid;
    HeapTupleHeader hdr;
    Buffer buf;
    int64 sum;
    bool isnull;

    tdb_xact_begin(f->xact);
    tdb_heap_insert(&f->rel, first, f->xact, NULL);
    first_tid = first->t_self;
    tdb_xact_commit(f->xact);

    tdb_xact_begin(reader);
    old_snap = tdb_snapshot_take(f->tm, reader, tdb_current_mcxt);

    /* same page */
    tdb_xact_begin(f->xact);
    newv = form_row(f, 1, 200, "two");
    expect_int_eq(tdb_heap_update(&f->rel, &first_tid, newv, f->xact, &tmfd),
                  TM_OK);
    expect_int_eq(ItemPointerGetBlockNumber(&newv->t_self), 0);
    expect_int_eq(ItemPointerGetOffsetNumber(&newv->t_self), 2);
    buf = tdb_buf_read(f->rel.rd_relfilenumber, 0, NULL);
    hdr = page_row(buf, 1);
    expect_int_eq(ItemPointerGetOffsetNumber(&hdr->t_ctid), 2);
    expect_false(hdr->t_infomask2 & HEAP_KEYS_UPDATED);
    hdr = page_row(buf, 2);
    expect_true(hdr->t_infomask & HEAP_UPDATED);
    tdb_buf_release(buf);
    /* updating the old version again in the same command */
    expect_int_eq(tdb_heap_update(&f->rel, &first_tid,
                                  form_row(f, 1, 300, "x"), f->xact, &tmfd),
                  TM_SELF_MODIFIED);
    tdb_xact_commit(f->xact);

    /* an old snapshot sees the old version, a new one the new */
    expect_true(tdb_heap_fetch(&f->rel, old_snap, &first_tid, slot));
    expect_int_eq(DatumGetInt32(tdb_slot_getattr(slot, 2, &isnull)), 100);
    expect_false(tdb_heap_fetch(&f->rel, old_snap, &newv->t_self, slot));
    tdb_xact_commit(reader);

    /* a committed update: the old version reports TM_UPDATED and its
     * successor */
    tdb_xact_begin(f->xact);
    expect_int_eq(tdb_heap_update(&f->rel, &first_tid, form_row(f, 1, 1, "y"),
                                  f->xact, &tmfd),
                  TM_UPDATED);
    expect_int_eq(ItemPointerGetOffsetNumber(&tmfd.ctid), 2);
    tdb_xact_abort(f->xact);
    /* a row inserted by an aborted transaction cannot be changed */
    tdb_xact_begin(f->xact);
    {
        HeapTuple doomed = form_row(f, 8, 8, "doomed");

        tdb_heap_insert(&f->rel, doomed, f->xact, NULL);
        tdb_xact_abort(f->xact);
        tdb_xact_begin(f->xact);
        expect_error(tdb_heap_delete(&f->rel, &doomed->t_self, f->xact,
                                     &tmfd),
                     ERRCODE_INTERNAL_ERROR,
                     "attempted to delete invisible tuple");
        tdb_xact_abort(f->xact);
    }

    /* fill page 0, then update: the new version goes elsewhere */
    tdb_xact_begin(f->xact);
    while (tdb_buf_relation_nblocks(f->rel.rd_relfilenumber) < 2)
        insert_row(f, 9, 9, "filler filler filler filler");
    tdb_xact_command_counter_increment(f->xact);
    {
        ItemPointerData second = newv->t_self;
        HeapTuple third =
            form_row(f, 1, 400, "three, longer than any filler row is");

        expect_int_eq(tdb_heap_update(&f->rel, &second, third, f->xact,
                                      &tmfd),
                      TM_OK);
        expect_int_eq(ItemPointerGetBlockNumber(&third->t_self), 1);
        tdb_xact_command_counter_increment(f->xact);
        expect_false(tdb_heap_fetch(&f->rel, snap_now(f), &second, slot));
        expect_true(tdb_heap_fetch(&f->rel, snap_now(f), &third->t_self,
                                   slot));
        expect_int_eq(DatumGetInt32(tdb_slot_getattr(slot, 2, &isnull)),
                      400);
        buf = tdb_buf_read(f->rel.rd_relfilenumber, 0, NULL);
        hdr = page_row(buf, 2);
        expect_int_eq(ItemPointerGetBlockNumber(&hdr->t_ctid), 1);
        tdb_buf_release(buf);
    }
    tdb_xact_commit(f->xact);
    tdb_slot_drop(slot);
    tdb_xact_destroy(reader);

    tdb_xact_begin(f->xact);
    (void)scan_rows(f, snap_now(f), &sum, NULL, 0);
    tdb_xact_commit(f->xact);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_insert_and_delete_same_transaction)
{
    HeapFixture *f = start(64);
    HeapTuple tup = form_row(f, 5, 5, "combo");
    TM_FailureData tmfd;

    tdb_xact_begin(f->xact);
    tdb_heap_insert(&f->rel, tup, f->xact, NULL);
    tdb_xact_command_counter_increment(f->xact); /* cid 1 */
    tdb_xact_command_counter_increment(f->xact); /* unused: stays 1 */
    expect_int_eq(tdb_heap_delete(&f->rel, &tup->t_self, f->xact, &tmfd),
                  TM_OK);
    /* the deleting command's snapshot still sees it (cmax = 1 = curcid) */
    expect_int_eq(count_visible(f, snap_now(f)), 1);
    tdb_xact_command_counter_increment(f->xact);
    expect_int_eq(count_visible(f, snap_now(f)), 0);
    tdb_xact_commit(f->xact);
    expect_int_eq(count_from_other_session(f), 0);
    heap_fixture_finish(f);
}
TEST_END

/*
 * tdb_heap_fetch_for_update, ON CONFLICT DO UPDATE's look at the
 * conflicting row: a committed row is TM_OK and lands in the slot; a row
 * the current command inserted, or the version it wrote by an update, is
 * TM_INVISIBLE (PostgreSQL's 21000) and leaves the slot empty; the old
 * version this transaction updated is TM_SELF_MODIFIED; an earlier
 * command's row is TM_OK.
 */
TEST_BEGIN(test_fetch_for_update)
{
    HeapFixture *f = start(64);
    HeapTuple committed = form_row(f, 1, 100, "one");
    HeapTuple mine = form_row(f, 2, 200, "two");
    HeapTuple newv = form_row(f, 1, 101, "one'");
    TupleTableSlot *slot = tdb_slot_create(f->rel.rd_att, &tdb_tts_ops_heap);
    TM_FailureData tmfd;
    bool isnull;

    tdb_xact_begin(f->xact);
    tdb_heap_insert(&f->rel, committed, f->xact, NULL);
    tdb_xact_commit(f->xact);

    tdb_xact_begin(f->xact);
    expect_int_eq(
        tdb_heap_fetch_for_update(&f->rel, f->xact, &committed->t_self, slot),
        TM_OK);
    expect_int_eq(DatumGetInt32(tdb_slot_getattr(slot, 2, &isnull)), 100);
    tdb_heap_insert(&f->rel, mine, f->xact, NULL);
    expect_int_eq(
        tdb_heap_fetch_for_update(&f->rel, f->xact, &mine->t_self, slot),
        TM_INVISIBLE);
    expect_true(tdb_slot_is_empty(slot));
    expect_int_eq(
        tdb_heap_update(&f->rel, &committed->t_self, newv, f->xact, &tmfd),
        TM_OK);
    expect_int_eq(
        tdb_heap_fetch_for_update(&f->rel, f->xact, &newv->t_self, slot),
        TM_INVISIBLE);
    expect_int_eq(
        tdb_heap_fetch_for_update(&f->rel, f->xact, &committed->t_self, slot),
        TM_SELF_MODIFIED);
    /* the next command may change what this one wrote */
    tdb_xact_command_counter_increment(f->xact);
    expect_int_eq(
        tdb_heap_fetch_for_update(&f->rel, f->xact, &mine->t_self, slot),
        TM_OK);
    expect_int_eq(DatumGetInt32(tdb_slot_getattr(slot, 2, &isnull)), 200);
    tdb_slot_clear(slot);
    tdb_xact_commit(f->xact);
    tdb_slot_drop(slot);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Bad input
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_row_too_big)
{
    HeapFixture *f = start(64);
    char *big = tdb_palloc(9000);

    memset(big, 'x', 8999);
    big[8999] = '\0';
    tdb_xact_begin(f->xact);
    expect_error(insert_row(f, 1, 1, big), ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                 "row is too big: size 9040, maximum size 8160");
    tdb_xact_abort(f->xact);
    expect_int_eq(tdb_buf_relation_nblocks(f->rel.rd_relfilenumber), 0);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_corrupt_line_pointer)
{
    HeapFixture *f = start(64);
    Buffer buf;
    ItemId lp;

    tdb_xact_begin(f->xact);
    insert_row(f, 1, 1, "a");
    insert_row(f, 2, 2, "b");
    tdb_xact_commit(f->xact);

    /* damage the second line pointer in the pool (as a bug would) */
    buf = tdb_buf_read(f->rel.rd_relfilenumber, 0, NULL);
    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    lp = tdb_page_get_item_id(tdb_buf_page(buf), 2);
    ItemIdSetNormal(lp, BLCKSZ - 8, 64);
    tdb_buf_unlock_release(buf);

    tdb_xact_begin(f->xact);
    expect_error(count_visible(f, snap_now(f)), ERRCODE_DATA_CORRUPTED,
                 "invalid line pointer in block 0 of relation \"t\"");
    tdb_xact_abort(f->xact);
    tdb_buf_release_all_pins_of_thread();
    tdb_buf_drop_relation(f->rel.rd_relfilenumber);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_disk_full_insert)
{
    HeapFixture *f = start(64);

    tdb_xact_begin(f->xact);
    insert_row(f, 1, 1, "before");
    tdb_xact_commit(f->xact);

    tdb_xact_begin(f->xact);
    if (!tdb_fd_inject(FD_OP_WRITE, 3, ENOSPC))
        test_skip("fault injection needs a TDB_DEBUG build");
    expect_error(
        {
            for (int i = 0; i < 1000; i++)
                insert_row(f, i, i, "filler filler filler filler filler");
        },
        ERRCODE_DISK_FULL, "could not extend file");
    tdb_fd_inject_clear();
    tdb_buf_release_all_pins_of_thread();
    tdb_xact_abort(f->xact);
    expect_int_eq(count_from_other_session(f), 1);
    /* and the table keeps working */
    tdb_xact_begin(f->xact);
    insert_row(f, 2, 2, "after");
    tdb_xact_commit(f->xact);
    expect_int_eq(count_from_other_session(f), 2);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * A damaged relation: its file shorter than its committed length
 * ---------------------------------------------------------------------- */

/* Close the session, manager, pool (writing it out) and directory of f,
 * as a clean shutdown does. */
static void
close_all(HeapFixture *f)
{
    tdb_xact_destroy(f->xact);
    tdb_xact_manager_close(f->tm);
    tdb_bufmgr_shutdown();
    tdb_datadir_close(f->dd);
}

/* Open them again (after close_all). */
static void
open_all(HeapFixture *f)
{
    f->dd = tdb_datadir_open(NULL, f->path);
    heap_fixture_open(f, 64);
}

static void
reopen(HeapFixture *f)
{
    close_all(f);
    open_all(f);
}

static const char *
rel_file(HeapFixture *f)
{
    return test_sprintf("%s/base/%u", f->path, f->rel.rd_relfilenumber);
}

#define MISSING_BLOCKS "relation \"t\" is missing blocks"

/* Run access in a transaction of its own: it must fail with XX001
 * "missing blocks"; the transaction is then aborted. */
#define expect_damaged(f, access)                                              \
    do {                                                                       \
        tdb_xact_begin((f)->xact);                                             \
        expect_error(access, ERRCODE_DATA_CORRUPTED, MISSING_BLOCKS);          \
        tdb_buf_release_all_pins_of_thread();                                  \
        tdb_xact_abort((f)->xact);                                             \
    } while (0)

/* Every way the heap reaches a relation's rows or adds some must refuse
 * f->rel, whose file is shorter than its committed length. */
static void
expect_every_access_fails(HeapFixture *f)
{
    TupleTableSlot *slot = tdb_slot_create(f->rel.rd_att, &tdb_tts_ops_heap);
    HeapTuple rows[3] = {form_row(f, -1, 0, "new"), form_row(f, -2, 0, "new"),
                         form_row(f, -3, 0, "new")};
    ItemPointerData tid;
    TM_FailureData tmfd;
    VacuumStats stats;

    ItemPointerSet(&tid, 0, 1); /* a row that survived */
    expect_damaged(f, count_visible(f, snap_now(f)));
    expect_damaged(f, tdb_heap_fetch(&f->rel, snap_now(f), &tid, slot));
    /* no target page: where it would look for one */
    f->rel.rd_target_block = InvalidBlockNumber;
    expect_damaged(f, insert_row(f, -1, 0, "new"));
    /* a target page that survived: the first write checks anyway */
    f->rel.rd_target_block = 0;
    expect_damaged(f, insert_row(f, -1, 0, "new"));
    expect_damaged(f, {
        BulkInsertState bistate = tdb_heap_bulk_insert_begin();

        tdb_heap_multi_insert(&f->rel, rows, 3, f->xact, bistate);
        tdb_heap_bulk_insert_end(bistate);
    });
    expect_damaged(f, tdb_heap_insert_at_end(&f->rel, rows, 3, 10, true,
                                             f->xact, NULL, NULL, NULL));
    expect_damaged(f, tdb_heap_insert_on_page(&f->rel, rows[0], 0, 10, f->xact,
                                              NULL, NULL));
    expect_damaged(f, tdb_heap_delete(&f->rel, &tid, f->xact, &tmfd));
    expect_damaged(f, tdb_heap_update(&f->rel, &tid, rows[1], f->xact, &tmfd));
    expect_damaged(f, tdb_heap_vacuum(&f->rel, f->xact, &stats));
    tdb_slot_drop(slot);
}

TEST_BEGIN(test_damaged_relation)
{
    HeapFixture *f = start(64);
    BlockNumber committed, kept = 2;
    char *saved;
    long size;

    tdb_xact_begin(f->xact);
    for (int i = 1; i <= 1000; i++)
        insert_row(f, i, i, "filler filler filler filler filler filler");
    expect_true(tdb_xact_commit(f->xact));
    committed = rel_nblocks(f);
    expect_u64_ge(committed, 5);
    /* what the catalog reads from pg_class.relpages */
    f->rel.rd_committed_blocks = committed;
    reopen(f);
    expect_int_eq(count_from_other_session(f), 1000);

    /* the database closed, the file loses its tail */
    close_all(f);
    size = (long)file_size(rel_file(f));
    saved = tdb_palloc((Size)size);
    expect_int_eq(read_raw_file(rel_file(f), saved, (Size)size), size);
    expect_int_eq(truncate(rel_file(f), (off_t)kept * BLCKSZ), 0);
    open_all(f);

    expect_every_access_fails(f);
    expect_damaged(f, count_visible(f, snap_now(f)));
    expect_str_contains(
        tdb_test_last_error.message,
        test_sprintf("has %u blocks, but %u were committed", kept, committed));
    /* nothing wrote over the hole: the evidence is kept */
    expect_int_eq(file_size(rel_file(f)), (long)kept * BLCKSZ);
    /* ... and across a restart */
    reopen(f);
    expect_every_access_fails(f);
    expect_int_eq(file_size(rel_file(f)), (long)kept * BLCKSZ);

    /* the file restored from a backup: everything is back */
    close_all(f);
    write_raw_file(rel_file(f), saved, (Size)size);
    open_all(f);
    expect_int_eq(count_from_other_session(f), 1000);
    tdb_xact_begin(f->xact);
    insert_row(f, 1001, 1001, "after");
    expect_true(tdb_xact_commit(f->xact));
    expect_int_eq(count_from_other_session(f), 1001);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_truncated_while_open)
{
    HeapFixture *f = start(64);
    BlockNumber committed;
    ItemPointerData tid;
    TM_FailureData tmfd;

    tdb_xact_begin(f->xact);
    for (int i = 1; i <= 1000; i++)
        insert_row(f, i, i, "filler filler filler filler filler filler");
    expect_true(tdb_xact_commit(f->xact));
    committed = rel_nblocks(f);
    f->rel.rd_committed_blocks = committed;

    /* a transaction dirties the last page; meanwhile the file is cut
     * behind the pool's back */
    tdb_xact_begin(f->xact);
    ItemPointerSet(&tid, committed - 1, 1);
    expect_int_eq(tdb_heap_delete(&f->rel, &tid, f->xact, &tmfd), TM_OK);
    expect_int_eq(truncate(rel_file(f), 2L * BLCKSZ), 0);
    /* writing the page back would leave zeros -- valid empty pages -- in
     * the gap and make the file whole again: refused, the commit fails */
    expect_error(
        tdb_xact_commit(f->xact), ERRCODE_DATA_CORRUPTED,
        test_sprintf("could not write block %u in file", committed - 1));
    expect_str_contains(tdb_test_last_error.message, "it's only 2 blocks now");
    expect_int_eq(file_size(rel_file(f)), 2L * BLCKSZ);
    expect_damaged(f, count_visible(f, snap_now(f)));
    /* the page stays dirty, and unwritable: only dropping the relation
     * (DROP TABLE, TRUNCATE) discards it */
    expect_error(tdb_buf_flush_relation(f->rel.rd_relfilenumber),
                 ERRCODE_DATA_CORRUPTED, "could not write block");
    expect_int_eq(file_size(rel_file(f)), 2L * BLCKSZ);
    tdb_buf_drop_relation(f->rel.rd_relfilenumber);
    heap_fixture_finish(f);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "access_heapam", TEST_CASE(test_insert_commit_scan),
        TEST_CASE(test_page_bytes), TEST_CASE(test_abort_large_insert),
        TEST_CASE(test_multi_insert_fills_pages), TEST_CASE(test_insert_at_end),
        TEST_CASE(test_scan_slot_and_pins), TEST_CASE(test_big_scan_uses_ring),
        TEST_CASE(test_fetch), TEST_CASE(test_delete),
        TEST_CASE(test_update_same_and_other_page),
        TEST_CASE(test_insert_and_delete_same_transaction),
        TEST_CASE(test_fetch_for_update), TEST_CASE(test_row_too_big),
        TEST_CASE(test_corrupt_line_pointer), TEST_CASE(test_disk_full_insert),
        TEST_CASE(test_damaged_relation), TEST_CASE(test_truncated_while_open));
}
