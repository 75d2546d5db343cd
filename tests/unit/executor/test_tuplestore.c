/*
 * test_tuplestore.c -- the work_mem-bounded row store shared by readers
 * (executor/tuplestore.c): rows (int8 id, text of varying length, some
 * NULLs) put and read back in order in memory and past work_mem (spilled
 * to a temporary file); several readers at their own positions while
 * rows are still being put (a lazily computed CTE), with copies that
 * stay valid across other readers' work; rewind, mark / restore (copy
 * of a position) on both sides of a spill; clear; the memory bound; the
 * temporary file gone after the end and after an error.
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "catalog/pg_type.h"
#include "executor/tuplestore.h"
#include "test.h"
#include "tuple/heaptuple.h"
#include "tuple/tupdesc.h"
#include "tuple/varlena.h"

static char temp_dir[64];

static TupleDesc
row_desc(void)
{
    TupleDesc desc = tdb_tupdesc_create(2);

    tdb_tupdesc_init_attr(desc, 0, "id", INT8OID, -1, 8, true, 'd', 'p');
    tdb_tupdesc_init_attr(desc, 1, "t", TEXTOID, -1, -1, false, 'i', 'x');
    tdb_tupdesc_finalize(desc);
    return desc;
}

/* Row i: id i, a text of 0 .. 199 bytes derived from i (NULL every 7th). */
static void
store_row(TupleTableSlot *slot, int64 i)
{
    char buf[256];
    int len = (int)((i * 37) % 200);

    tdb_slot_clear(slot);
    slot->tts_values[0] = Int64GetDatum(i);
    slot->tts_isnull[0] = false;
    memset(buf, 'a' + (int)(i % 26), (size_t)len);
    slot->tts_isnull[1] = i % 7 == 0;
    slot->tts_values[1] =
        slot->tts_isnull[1]
            ? (Datum)0
            : PointerGetDatum(tdb_text_from_bytes(buf, (Size)len));
    tdb_slot_store_virtual(slot);
}

/* Does the slot hold row i, exactly? */
static bool
is_row(TupleTableSlot *slot, int64 i)
{
    bool isnull;
    Datum id = tdb_slot_getattr(slot, 1, &isnull);
    Datum t;
    int len = (int)((i * 37) % 200);

    if (isnull || DatumGetInt64(id) != i)
        return false;
    t = tdb_slot_getattr(slot, 2, &isnull);
    if (isnull != (i % 7 == 0))
        return false;
    if (isnull)
        return true;
    if ((int)VARSIZE_ANY_EXHDR(DatumGetPointer(t)) != len)
        return false;
    for (int k = 0; k < len; k++)
        if (VARDATA_ANY(DatumGetPointer(t))[k] != 'a' + (int)(i % 26))
            return false;
    return true;
}

typedef struct Fixture {
    MemoryContext cxt, old;
    TupleDesc desc;
    TupleTableSlot *in, *out, *out2;
} Fixture;

static void
setup(Fixture *f)
{
    f->cxt = tdb_aset_create(tdb_top_mcxt, "test tuplestore",
                             ALLOCSET_DEFAULT_SIZES);
    f->old = tdb_mcxt_switch_to(f->cxt);
    f->desc = row_desc();
    f->in = tdb_slot_create(f->desc, &tdb_tts_ops_virtual);
    f->out = tdb_slot_create(f->desc, &tdb_tts_ops_minimal);
    f->out2 = tdb_slot_create(f->desc, &tdb_tts_ops_minimal);
}

static void
teardown(Fixture *f)
{
    tdb_mcxt_switch_to(f->old);
    tdb_mcxt_delete(f->cxt);
    expect_int_eq(tdb_test_count_files(temp_dir), 0);
}

/* Put n rows, read them back with one reader; spilled as expected? */
static void
put_and_read(int64 n, Size max_bytes, bool expect_spill, bool copy)
{
    Fixture f;
    Tuplestore *ts;
    int r;
    int64 got = 0, bad = 0;

    setup(&f);
    ts = tdb_tuplestore_create(f.cxt, max_bytes, temp_dir);
    r = tdb_tuplestore_add_reader(ts);
    for (int64 i = 0; i < n; i++) {
        store_row(f.in, i);
        tdb_tuplestore_put(ts, f.in);
    }
    expect_int_eq(tdb_tuplestore_rows(ts), n);
    expect_true(tdb_tuplestore_spilled(ts) == expect_spill);
    while (tdb_tuplestore_read(ts, r, f.out, copy)) {
        if (!is_row(f.out, got))
            bad++;
        got++;
    }
    expect_int_eq(got, n);
    expect_int_eq(bad, 0);
    expect_true(tdb_tuplestore_at_end(ts, r));
    /* a second pass after a rewind reads the same rows */
    tdb_tuplestore_rewind(ts, r);
    for (got = 0; tdb_tuplestore_read(ts, r, f.out, copy); got++)
        if (!is_row(f.out, got))
            bad++;
    expect_int_eq(got, n);
    expect_int_eq(bad, 0);
    if (expect_spill)
        expect_true(tdb_test_count_files(temp_dir) == 1);
    tdb_tuplestore_end(ts);
    expect_int_eq(tdb_test_count_files(temp_dir), 0);
    teardown(&f);
}

TEST_BEGIN(test_in_memory)
{
    put_and_read(0, 4096 * 1024, false, false);
    put_and_read(1, 4096 * 1024, false, true);
    put_and_read(10000, 4096 * 1024, false, false);
}
TEST_END

TEST_BEGIN(test_spilled)
{
    /* ~150 bytes a row: 64 kB hold a few hundred */
    put_and_read(20000, 64 * 1024, true, false);
    put_and_read(20000, 64 * 1024, true, true);
    put_and_read(2000, 256 * 1024, true, true);
}
TEST_END

/*
 * Readers interleaved with the writer, as CTE scans of a lazily computed
 * WITH query: reader A follows the writer row by row (keeping its copy
 * while B and C read and rows are put), B reads every third put, C
 * starts late; all see every row in order, at a work_mem that spills.
 */
TEST_BEGIN(test_interleaved_readers)
{
    Fixture f;
    Tuplestore *ts;
    int a, b, c;
    int64 nb = 0, nc = 0, bad = 0;
    const int64 n = 30000;

    setup(&f);
    ts = tdb_tuplestore_create(f.cxt, 64 * 1024, temp_dir);
    a = tdb_tuplestore_add_reader(ts);
    b = tdb_tuplestore_add_reader(ts);
    c = tdb_tuplestore_add_reader(ts);
    for (int64 i = 0; i < n; i++) {
        store_row(f.in, i);
        tdb_tuplestore_put(ts, f.in);
        if (!tdb_tuplestore_read(ts, a, f.out, true) || !is_row(f.out, i))
            bad++;
        if (i % 3 == 2)
            while (tdb_tuplestore_read(ts, b, f.out2, true))
                if (!is_row(f.out2, nb++))
                    bad++;
        if (i > n / 2 && tdb_tuplestore_read(ts, c, f.out2, true) &&
            !is_row(f.out2, nc++))
            bad++;
        /* A's copy is still intact after B's and C's reads and the put */
        if (!is_row(f.out, i))
            bad++;
    }
    expect_true(tdb_tuplestore_spilled(ts));
    while (tdb_tuplestore_read(ts, b, f.out2, true))
        if (!is_row(f.out2, nb++))
            bad++;
    while (tdb_tuplestore_read(ts, c, f.out2, true))
        if (!is_row(f.out2, nc++))
            bad++;
    expect_int_eq(nb, n);
    expect_int_eq(nc, n);
    expect_int_eq(bad, 0);
    teardown(&f);
}
TEST_END

/* Mark (copy the position to a second reader), read on, restore: the
 * rows after the mark come again, with the mark before and after a
 * spill. */
TEST_BEGIN(test_mark_restore)
{
    Fixture f;
    Tuplestore *ts;
    int r, mark;
    int64 pos = 0, bad = 0;
    const int64 n = 20000;

    setup(&f);
    ts = tdb_tuplestore_create(f.cxt, 64 * 1024, temp_dir);
    r = tdb_tuplestore_add_reader(ts);
    mark = tdb_tuplestore_add_reader(ts);
    for (int64 i = 0; i < n; i++) {
        store_row(f.in, i);
        tdb_tuplestore_put(ts, f.in);
        /* mark every 500 rows, go back every 500 + 250 */
        if (i % 500 == 0)
            tdb_tuplestore_copy_position(ts, r, mark);
        if (i % 500 == 250) {
            tdb_tuplestore_copy_position(ts, mark, r);
            pos = i - 250;
        }
        while (tdb_tuplestore_read(ts, r, f.out, false))
            if (!is_row(f.out, pos++))
                bad++;
        if (pos != i + 1)
            bad++;
    }
    expect_true(tdb_tuplestore_spilled(ts));
    expect_int_eq(bad, 0);
    /* clear: empty, readers at the start, usable again */
    tdb_tuplestore_clear(ts);
    expect_int_eq(tdb_tuplestore_rows(ts), 0);
    expect_false(tdb_tuplestore_read(ts, r, f.out, false));
    for (int64 i = 0; i < 5000; i++) {
        store_row(f.in, i);
        tdb_tuplestore_put(ts, f.in);
    }
    for (pos = 0; tdb_tuplestore_read(ts, mark, f.out, true); pos++)
        if (!is_row(f.out, pos))
            bad++;
    expect_int_eq(pos, 5000);
    expect_int_eq(bad, 0);
    teardown(&f);
}
TEST_END

/* The rows in memory stay within the limit (plus one row). */
TEST_BEGIN(test_memory_bound)
{
    Fixture f;
    Tuplestore *ts;

    setup(&f);
    ts = tdb_tuplestore_create(f.cxt, 64 * 1024, temp_dir);
    for (int64 i = 0; i < 50000; i++) {
        store_row(f.in, i);
        tdb_tuplestore_put(ts, f.in);
    }
    expect_u64_le(tdb_tuplestore_peak_memory(ts), 64 * 1024 + 512);
    expect_u64_gt(tdb_tuplestore_disk_bytes(ts), 1024 * 1024);
    teardown(&f);
}
TEST_END

/* An error while the store has spilled: deleting the owning context (as
 * the statement's end does) removes the file. */
TEST_BEGIN(test_error_removes_file)
{
    Fixture f;
    Tuplestore *ts;
    volatile bool raised = false;

    setup(&f);
    ts = tdb_tuplestore_create(f.cxt, 64 * 1024, temp_dir);
    TDB_TRY();
    {
        for (int64 i = 0; i < 10000; i++) {
            store_row(f.in, i);
            tdb_tuplestore_put(ts, f.in);
        }
        ereport(ERROR, errcode(ERRCODE_QUERY_CANCELED),
                errmsg("canceling statement due to user request"));
    }
    TDB_CATCH();
    {
        raised = true;
        tdb_error_flush();
    }
    TDB_END_TRY();
    expect_true(raised);
    expect_int_eq(tdb_test_count_files(temp_dir), 1);
    teardown(&f);
}
TEST_END

int
main(int argc, char **argv)
{
    int rc;

    snprintf(temp_dir, sizeof(temp_dir), "/tmp/tdb-tuplestore-test.%d",
             (int)getpid());
    rc = test_main(argc, argv, "executor_tuplestore", TEST_CASE(test_in_memory),
                   TEST_CASE(test_spilled), TEST_CASE(test_interleaved_readers),
                   TEST_CASE(test_mark_restore), TEST_CASE(test_memory_bound),
                   TEST_CASE(test_error_removes_file));
    rmdir(temp_dir);
    return rc;
}
