/*
 * test_slot.c -- tuple table slots.
 *
 *   virtual   store, borrowed values, materialize copies every by-reference
 *             value into tts_mcxt (proved by overwriting and freeing the
 *             source afterwards), copying out heap and minimal tuples
 *   heap      palloc'd tuples owned or not, incremental getattr (tts_nvalid
 *             grows only as asked), materialize resets nvalid and owns a
 *             copy, missing columns
 *   buffer    fake SlotBufferHooks counting pins per buffer: pin on store,
 *             old pin dropped when the next tuple is stored (same buffer:
 *             never down to zero in between), dropped on clear, on storing
 *             a non-buffer tuple, on materialize (after which the "page"
 *             may be overwritten) and on drop
 *   minimal   the same for minimal tuples
 *   copy      tdb_slot_copy between every pair of kinds, the copy
 *             independent of the source
 *   errors    getsomeattrs beyond natts, empty slots, wrong kinds
 *   random    random descriptors/rows through every kind
 *
 * Ownership is checked with Generation contexts, whose live-chunk count is
 * exact.  Every test restores the default (NULL) buffer hooks.
 */
#include "common/base.h"

#include "tuple_test.h"

/* ----------------------------------------------------------------------
 * Fixture: one row of a 7-column table
 * ---------------------------------------------------------------------- */

#define NCOLS 7

static const TypeKind row_types[NCOLS] = {TK_INT4, TK_TEXT,    TK_UUID, TK_INT8,
                                          TK_TEXT, TK_CSTRING, TK_NAME};

typedef struct Row {
    Datum values[NCOLS];
    bool isnull[NCOLS];
} Row;

/*
 * Row number n (different values per n; column 5 NULL in odd rows), its
 * by-reference values allocated in the current context.
 */
static Row
make_row(int n)
{
    Row row;
    char buf[200];
    char *uuid = tdb_palloc(16);
    char *name = tdb_palloc0(NAMEDATALEN);

    memset(&row, 0, sizeof(row));
    for (int i = 0; i < 16; i++)
        uuid[i] = (char)(n * 16 + i);
    snprintf(name, NAMEDATALEN, "name %d", n);
    row.values[0] = Int32GetDatum(-1000 - n);
    snprintf(buf, sizeof(buf), "row %d short text", n);
    row.values[1] = tt_text(buf);
    row.values[2] = PointerGetDatum(uuid);
    row.values[3] = Int64GetDatum((int64)n << 40);
    memset(buf, 'a' + n % 26, 150);
    buf[150] = '\0';
    row.values[4] = tt_text(buf); /* > 126 bytes: 4-byte header */
    snprintf(buf, sizeof(buf), "cstring %d", n);
    row.values[5] = PointerGetDatum(tdb_pstrdup(buf));
    row.isnull[5] = n % 2 == 1;
    row.values[6] = PointerGetDatum(name);
    return row;
}

static TupleDesc
make_desc(void)
{
    return tt_desc_of(row_types, NCOLS);
}

/* Live chunks of a Generation context. */
static Size
live_chunks(MemoryContext cxt)
{
    MemoryContextCounters c;

    memset(&c, 0, sizeof(c));
    tdb_mcxt_stats_collect(cxt, false, &c);
    return c.nchunks;
}

static MemoryContext
gen_context(const char *name)
{
    return tdb_generation_create(tdb_current_mcxt, name,
                                 ALLOCSET_DEFAULT_SIZES);
}

/* Every column of the slot equals row (deforming what is needed). */
#define expect_slot_row(slot, row, ...)                                        \
    expect_slot_row_at(__FILE__, __LINE__, (slot), (row), __VA_ARGS__)

TDB_PRINTF(5, 6)
static void
expect_slot_row_at(const char *file, int line, TupleTableSlot *slot,
                   const Row *row, const char *fmt, ...)
{
    TupleDesc desc = slot->tts_tupleDescriptor;
    char ctx[128];
    va_list args;

    va_start(args, fmt);
    vsnprintf(ctx, sizeof(ctx), fmt, args);
    va_end(args);
    tdb_slot_getallattrs(slot);
    if (slot->tts_nvalid != desc->natts)
        tdb_test_fail(file, line, "%s: tts_nvalid %d after getallattrs", ctx,
                      slot->tts_nvalid);
    for (int i = 0; i < desc->natts; i++) {
        bool null;
        Datum d = tdb_slot_getattr(slot, i + 1, &null);

        if (!tt_expect_column_at(file, line, desc, i, row->values[i],
                                 row->isnull[i], d, null, "%s", ctx))
            break;
    }
}

/* Is pointer p inside [start, start + len)? */
static bool
points_into(Datum p, const void *start, Size len)
{
    return (const char *)p >= (const char *)start &&
           (const char *)p < (const char *)start + len;
}

/* ----------------------------------------------------------------------
 * Fake buffer manager
 * ---------------------------------------------------------------------- */

#define NBUFFERS 8

static int pins[NBUFFERS];
static int pin_reached_zero[NBUFFERS]; /* releases that left 0 pins */
static int bad_releases;               /* releases of unpinned buffers */

static void
fake_incr_pin(Buffer buffer)
{
    pins[buffer]++;
}

static void
fake_release(Buffer buffer)
{
    if (pins[buffer] <= 0)
        bad_releases++;
    if (--pins[buffer] == 0)
        pin_reached_zero[buffer]++;
}

static const SlotBufferHooks fake_hooks = {fake_incr_pin, fake_release};

static void
install_fake_buffers(void)
{
    memset(pins, 0, sizeof(pins));
    memset(pin_reached_zero, 0, sizeof(pin_reached_zero));
    bad_releases = 0;
    tdb_slot_set_buffer_hooks(&fake_hooks);
}

static void
expect_no_pins_left(void)
{
    for (int b = 0; b < NBUFFERS; b++)
        if (pins[b] != 0)
            tt_fail("buffer %d still has %d pins", b, pins[b]);
    expect_int_eq(bad_releases, 0);
}

/*
 * A "page": an exactly sized malloc'd copy of a tuple's bytes, with a
 * HeapTupleData pointing into it as a heap scan would hand it out.
 */
typedef struct Page {
    HeapTupleData tuple;
} Page;

static Page
make_page(TupleDesc desc, const Row *row, BlockNumber block, OffsetNumber off)
{
    HeapTuple formed = tdb_heap_form_tuple(desc, row->values, row->isnull);
    Page page;

    page.tuple = tt_exact_copy(formed);
    ItemPointerSet(&page.tuple.t_self, block, off);
    page.tuple.t_tableOid = 16384;
    tdb_pfree(formed);
    return page;
}

/* The page is reused for something else: nothing may still point in. */
static void
scribble_page(Page *page)
{
    memset(page->tuple.t_data, 0x7F, page->tuple.t_len);
}

static void
free_page(Page *page)
{
    tt_exact_free(&page->tuple);
}

/* ----------------------------------------------------------------------
 * Virtual slots
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_virtual_slot)
{
    uint64 rng = tdb_test_seed();
    TupleDesc desc = make_desc();
    MemoryContext slot_cxt = gen_context("slot");
    MemoryContext source = gen_context("source");
    MemoryContext old = tdb_mcxt_switch_to(source);
    Row src = make_row(1);
    TupleTableSlot *slot;
    Row want;
    Size base_chunks;

    tdb_mcxt_switch_to(old);
    want = make_row(1); /* an independent copy to compare with */
    tdb_mcxt_switch_to(slot_cxt);
    slot = tdb_slot_create(desc, &tdb_tts_ops_virtual);
    tdb_mcxt_switch_to(old);
    base_chunks = live_chunks(slot_cxt);
    expect_ptr_eq(slot->tts_mcxt, slot_cxt);
    expect_true(tdb_slot_is_empty(slot));

    memcpy(slot->tts_values, src.values, sizeof(src.values));
    memcpy(slot->tts_isnull, src.isnull, sizeof(src.isnull));
    tdb_slot_store_virtual(slot);
    expect_false(tdb_slot_is_empty(slot));
    expect_int_eq(slot->tts_nvalid, NCOLS);
    expect_slot_row(slot, &want, "virtual, borrowed");
    expect_u64_eq(slot->tts_values[1], src.values[1]); /* borrowed as is */

    /* copies out */
    {
        HeapTuple h = tdb_slot_copy_heap_tuple(slot);
        MinimalTuple m0 = tdb_slot_copy_minimal_tuple(slot, 0);
        MinimalTuple m24 = tdb_slot_copy_minimal_tuple(slot, 24);
        HeapTupleData exact = tt_exact_copy(h);
        HeapTupleData view0 = tt_exact_minimal_view(m0);
        HeapTupleData view24 = tt_exact_minimal_view(m24);

        tt_check_formed(h, desc, want.values, want.isnull, "virtual copy");
        tt_check_deform(&exact, desc, want.values, want.isnull, &rng,
                        "virtual heap copy");
        tt_check_deform(&view0, desc, want.values, want.isnull, &rng,
                        "virtual minimal copy");
        tt_check_deform(&view24, desc, want.values, want.isnull, &rng,
                        "virtual minimal copy, extra 24");
        tt_exact_free(&exact);
        tt_exact_minimal_free(&view0);
        tt_exact_minimal_free(&view24);
        tdb_pfree(h);
        tdb_pfree(m0);
        tdb_pfree((char *)m24 - 24);
    }

    /* materialize: the slot no longer needs the source */
    tdb_slot_materialize(slot);
    expect_u64_eq(live_chunks(slot_cxt), base_chunks + 1);
    for (int i = 0; i < NCOLS; i++) {
        if (row_types[i] == TK_INT4 || row_types[i] == TK_INT8 || src.isnull[i])
            continue;
        if (slot->tts_values[i] == src.values[i])
            tt_fail("column %d still borrowed after materialize", i + 1);
    }
    tdb_mcxt_reset(source); /* wipes the source in checking builds */
    tdb_mcxt_switch_to(source);
    src = make_row(2); /* and reuses its memory */
    tdb_mcxt_switch_to(old);
    expect_slot_row(slot, &want, "virtual, materialized");

    /* materializing again changes nothing */
    {
        Datum before = slot->tts_values[1];

        tdb_slot_materialize(slot);
        expect_u64_eq(slot->tts_values[1], before);
        expect_u64_eq(live_chunks(slot_cxt), base_chunks + 1);
    }

    /* clear frees the materialized data */
    tdb_slot_clear(slot);
    expect_true(tdb_slot_is_empty(slot));
    expect_int_eq(slot->tts_nvalid, 0);
    expect_u64_eq(live_chunks(slot_cxt), base_chunks);

    /* a row of NULLs and by-value columns needs no memory */
    for (int i = 0; i < NCOLS; i++) {
        slot->tts_isnull[i] = row_types[i] != TK_INT4;
        slot->tts_values[i] = Int32GetDatum(5);
    }
    tdb_slot_store_virtual(slot);
    tdb_slot_materialize(slot);
    expect_u64_eq(live_chunks(slot_cxt), base_chunks);
    expect_int_eq(DatumGetInt32(slot->tts_values[0]), 5);
    tdb_slot_drop(slot);
    expect_u64_eq(live_chunks(slot_cxt), 0);
    tdb_mcxt_delete(slot_cxt);
    tdb_mcxt_delete(source);
}
TEST_END

/* ----------------------------------------------------------------------
 * Heap slots
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_heap_slot_incremental)
{
    TupleDesc desc = make_desc();
    MemoryContext tuples = gen_context("tuples");
    MemoryContext old = tdb_mcxt_switch_to(tuples);
    Row row = make_row(3);
    HeapTuple tuple = tdb_heap_form_tuple(desc, row.values, row.isnull);
    TupleTableSlot *slot;
    bool null;

    Size with_tuple = live_chunks(tuples);

    ItemPointerSet(&tuple->t_self, 12, 34);
    tuple->t_tableOid = 16390;
    tdb_mcxt_switch_to(old);
    slot = tdb_slot_create(desc, &tdb_tts_ops_heap);
    tdb_slot_store_heap_tuple(slot, tuple, false);
    expect_int_eq(slot->tts_nvalid, 0);
    expect_int_eq(ItemPointerGetBlockNumber(&slot->tts_tid), 12);
    expect_int_eq(ItemPointerGetOffsetNumber(&slot->tts_tid), 34);
    expect_int_eq(slot->tts_tableOid, 16390);

    /* only what is asked for is deformed */
    expect_int_eq(DatumGetInt32(tdb_slot_getattr(slot, 1, &null)), -1003);
    expect_int_eq(slot->tts_nvalid, 1);
    (void)tdb_slot_getattr(slot, 4, &null);
    expect_int_eq(slot->tts_nvalid, 4);
    (void)tdb_slot_getattr(slot, 2, &null);
    expect_int_eq(slot->tts_nvalid, 4);
    tdb_slot_getsomeattrs(slot, 3);
    expect_int_eq(slot->tts_nvalid, 4);
    tdb_slot_getsomeattrs(slot, 6);
    expect_int_eq(slot->tts_nvalid, 6);
    expect_true(points_into(slot->tts_values[1], tuple->t_data, tuple->t_len));
    expect_slot_row(slot, &row, "heap slot");

    /* clearing a slot that does not own the tuple leaves it alone */
    tdb_slot_clear(slot);
    expect_int_eq(slot->tts_nvalid, 0);
    expect_false(ItemPointerIsValid(&slot->tts_tid));
    expect_u64_eq(live_chunks(tuples), with_tuple);

    /* an owned tuple is freed by clear */
    tdb_slot_store_heap_tuple(slot, tuple, true);
    expect_slot_row(slot, &row, "heap slot, owned");
    tdb_slot_clear(slot);
    expect_u64_eq(live_chunks(tuples), with_tuple - 1);

    /* ... and by storing the next tuple; nvalid starts again */
    tdb_mcxt_switch_to(tuples);
    tuple = tdb_heap_form_tuple(desc, row.values, row.isnull);
    {
        Row row4 = make_row(4);
        HeapTuple next = tdb_heap_form_tuple(desc, row4.values, row4.isnull);

        tdb_mcxt_switch_to(old);
        tdb_slot_store_heap_tuple(slot, tuple, true);
        tdb_slot_getallattrs(slot);
        tdb_slot_store_heap_tuple(slot, next, true);
        expect_int_eq(slot->tts_nvalid, 0);
        expect_slot_row(slot, &row4, "heap slot, next tuple");
        tdb_slot_drop(slot);
    }
    tdb_mcxt_reset(tuples);
    tdb_mcxt_delete(tuples);
}
TEST_END

TEST_BEGIN(test_heap_slot_materialize)
{
    TupleDesc desc = make_desc();
    MemoryContext slot_cxt = gen_context("slot");
    Row row = make_row(5);
    HeapTuple formed = tdb_heap_form_tuple(desc, row.values, row.isnull);
    HeapTupleData exact = tt_exact_copy(formed);
    MemoryContext old = tdb_mcxt_switch_to(slot_cxt);
    TupleTableSlot *slot = tdb_slot_create(desc, &tdb_tts_ops_heap);
    Size base_chunks = live_chunks(slot_cxt);

    tdb_mcxt_switch_to(old);
    ItemPointerSet(&exact.t_self, 1, 2);
    tdb_slot_store_heap_tuple(slot, &exact, false);
    tdb_slot_getsomeattrs(slot, 3);
    tdb_slot_materialize(slot);
    /* the old values pointed into the old tuple: deform again */
    expect_int_eq(slot->tts_nvalid, 0);
    expect_u64_eq(live_chunks(slot_cxt), base_chunks + 1);
    expect_int_eq(ItemPointerGetOffsetNumber(&slot->tts_tid), 2);
    memset(exact.t_data, 0x7F, exact.t_len);
    tt_exact_free(&exact);
    expect_slot_row(slot, &row, "heap slot, materialized");
    expect_false(
        points_into(slot->tts_values[1], formed->t_data, formed->t_len));

    /* a second materialize keeps what it has */
    tdb_slot_materialize(slot);
    expect_int_eq(slot->tts_nvalid, NCOLS);
    expect_u64_eq(live_chunks(slot_cxt), base_chunks + 1);
    tdb_slot_clear(slot);
    expect_u64_eq(live_chunks(slot_cxt), base_chunks);
    tdb_slot_drop(slot);
    tdb_mcxt_delete(slot_cxt);
}
TEST_END

/* A heap slot over a wider descriptor fills added columns. */
TEST_BEGIN(test_heap_slot_missing_columns)
{
    ColSpec cols[] = {
        {.type = TK_INT4},
        {.type = TK_TEXT, .has_missing = true, .missing = tt_text("added")},
        {.type = TK_INT8},
        {.type = TK_INT2, .has_missing = true, .missing = Int16GetDatum(-9)},
    };
    TupleDesc narrow = tt_build_desc(cols, 1);
    TupleDesc wide = tt_build_desc(cols, 4);
    Datum v = Int32GetDatum(77);
    bool n = false;
    HeapTuple tuple = tdb_heap_form_tuple(narrow, &v, &n);
    MinimalTuple mtup = tdb_heap_form_minimal_tuple(narrow, &v, &n, 0);
    const TupleTableSlotOps *kinds[] = {&tdb_tts_ops_heap,
                                        &tdb_tts_ops_minimal};
    Row want = {{Int32GetDatum(77), tt_text("added"), 0, Int16GetDatum(-9)},
                {false, false, true, false}};

    for (Size k = 0; k < lengthof(kinds); k++) {
        TupleTableSlot *slot = tdb_slot_create(wide, kinds[k]);
        bool null;

        if (kinds[k] == &tdb_tts_ops_heap)
            tdb_slot_store_heap_tuple(slot, tuple, false);
        else
            tdb_slot_store_minimal_tuple(slot, mtup, false);
        expect_int_eq(DatumGetInt16(tdb_slot_getattr(slot, 4, &null)), -9);
        expect_false(null);
        expect_slot_row(slot, &want, "%s slot, added columns", kinds[k]->name);
        tdb_slot_drop(slot);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * Buffer tuples
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_buffer_slot_pins)
{
    TupleDesc desc = make_desc();
    Row rows[6];
    Page pages[6];
    TupleTableSlot *slot = tdb_slot_create(desc, &tdb_tts_ops_heap);

    install_fake_buffers();
    for (int i = 0; i < 6; i++) {
        rows[i] = make_row(10 + i);
        pages[i] = make_page(desc, &rows[i], (BlockNumber)i, 1);
    }

    /* store: one pin */
    tdb_slot_store_buffer_tuple(slot, &pages[1].tuple, 1);
    expect_int_eq(pins[1], 1);
    expect_slot_row(slot, &rows[1], "buffer tuple");
    expect_true(points_into(slot->tts_values[1], pages[1].tuple.t_data,
                            pages[1].tuple.t_len));
    expect_int_eq(ItemPointerGetBlockNumber(&slot->tts_tid), 1);
    expect_int_eq(slot->tts_tableOid, 16384);

    /* the next tuple of the same buffer: the pin never drops to zero */
    tdb_slot_store_buffer_tuple(slot, &pages[2].tuple, 1);
    expect_int_eq(pins[1], 1);
    expect_int_eq(pin_reached_zero[1], 0);
    expect_int_eq(slot->tts_nvalid, 0);
    expect_slot_row(slot, &rows[2], "buffer tuple, same buffer");

    /* another buffer: the old pin goes */
    tdb_slot_store_buffer_tuple(slot, &pages[2].tuple, 2);
    expect_int_eq(pins[1], 0);
    expect_int_eq(pins[2], 1);

    /* storing a palloc'd tuple drops the pin */
    tdb_slot_store_heap_tuple(
        slot, tdb_heap_form_tuple(desc, rows[0].values, rows[0].isnull), true);
    expect_int_eq(pins[2], 0);
    expect_slot_row(slot, &rows[0], "owned tuple after a buffer tuple");

    /* a buffer tuple after an owned one: the owned one is freed */
    tdb_slot_store_buffer_tuple(slot, &pages[3].tuple, 3);
    expect_int_eq(pins[3], 1);

    /* clear drops the pin */
    tdb_slot_clear(slot);
    expect_int_eq(pins[3], 0);

    /* materialize: copy, drop the pin; the page may then be reused */
    tdb_slot_store_buffer_tuple(slot, &pages[4].tuple, 4);
    tdb_slot_getsomeattrs(slot, 5);
    tdb_slot_materialize(slot);
    expect_int_eq(pins[4], 0);
    expect_int_eq(slot->tts_nvalid, 0);
    expect_int_eq(ItemPointerGetBlockNumber(&slot->tts_tid), 4);
    scribble_page(&pages[4]);
    expect_slot_row(slot, &rows[4], "materialized buffer tuple");
    tdb_slot_clear(slot); /* frees the copy, releases nothing */
    expect_int_eq(bad_releases, 0);

    /* drop */
    tdb_slot_store_buffer_tuple(slot, &pages[5].tuple, 5);
    expect_int_eq(pins[5], 1);
    tdb_slot_drop(slot);
    expect_int_eq(pins[5], 0);

    expect_no_pins_left();
    for (int i = 0; i < 6; i++)
        free_page(&pages[i]);
    tdb_slot_set_buffer_hooks(NULL);
}
TEST_END

/* Storing a buffer tuple where it cannot go takes no pin. */
TEST_BEGIN(test_buffer_slot_refusals)
{
    TupleDesc desc = make_desc();
    Row row = make_row(1);
    Page page = make_page(desc, &row, 0, 1);
    TupleTableSlot *minimal = tdb_slot_create(desc, &tdb_tts_ops_minimal);
    TupleTableSlot *virt = tdb_slot_create(desc, &tdb_tts_ops_virtual);
    TupleTableSlot *heap = tdb_slot_create(desc, &tdb_tts_ops_heap);

    install_fake_buffers();
    expect_error(tdb_slot_store_buffer_tuple(minimal, &page.tuple, 1),
                 ERRCODE_INTERNAL_ERROR, "minimal");
    expect_error(tdb_slot_store_buffer_tuple(virt, &page.tuple, 1),
                 ERRCODE_INTERNAL_ERROR, "virtual");
    expect_error(tdb_slot_store_buffer_tuple(heap, &page.tuple, InvalidBuffer),
                 ERRCODE_INTERNAL_ERROR, "without a buffer");
    expect_no_pins_left();
    tdb_slot_drop(minimal);
    tdb_slot_drop(virt);
    tdb_slot_drop(heap);
    free_page(&page);
    tdb_slot_set_buffer_hooks(NULL);
}
TEST_END

/* ----------------------------------------------------------------------
 * Minimal slots
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_minimal_slot)
{
    uint64 rng = tdb_test_seed();
    TupleDesc desc = make_desc();
    MemoryContext tuples = gen_context("tuples");
    MemoryContext old = tdb_mcxt_switch_to(tuples);
    Row row = make_row(6);
    Row row7 = make_row(7);
    MinimalTuple mtup =
        tdb_heap_form_minimal_tuple(desc, row.values, row.isnull, 0);
    MinimalTuple owned =
        tdb_heap_form_minimal_tuple(desc, row7.values, row7.isnull, 0);
    Size base_chunks = live_chunks(tuples);
    TupleTableSlot *slot;
    bool null;

    tdb_mcxt_switch_to(old);
    slot = tdb_slot_create(desc, &tdb_tts_ops_minimal);

    tdb_slot_store_minimal_tuple(slot, mtup, false);
    expect_false(ItemPointerIsValid(&slot->tts_tid));
    (void)tdb_slot_getattr(slot, 2, &null);
    expect_int_eq(slot->tts_nvalid, 2);
    expect_slot_row(slot, &row, "minimal slot");

    /* copies out */
    {
        HeapTuple h = tdb_slot_copy_heap_tuple(slot);
        MinimalTuple m = tdb_slot_copy_minimal_tuple(slot, 0);
        MinimalTuple m24 = tdb_slot_copy_minimal_tuple(slot, 24);
        HeapTupleData exact = tt_exact_copy(h);

        tt_check_deform(&exact, desc, row.values, row.isnull, &rng,
                        "minimal slot heap copy");
        expect_true(memcmp(m, mtup, mtup->t_len) == 0);
        expect_true(memcmp(m24, mtup, mtup->t_len) == 0);
        tt_exact_free(&exact);
        tdb_pfree(h);
        tdb_pfree(m);
        tdb_pfree((char *)m24 - 24);
    }

    /* materialize, then the original may go */
    tdb_slot_materialize(slot);
    expect_int_eq(slot->tts_nvalid, 0);
    memset(mtup, 0x7F, mtup->t_len);
    expect_slot_row(slot, &row, "minimal slot, materialized");

    /* an owned tuple is freed when the next is stored, and on clear */
    tdb_slot_store_minimal_tuple(slot, owned, true);
    expect_slot_row(slot, &row7, "minimal slot, owned");
    expect_u64_eq(live_chunks(tuples), base_chunks);
    tdb_slot_clear(slot);
    expect_u64_eq(live_chunks(tuples), base_chunks - 1);
    tdb_slot_drop(slot);
    tdb_mcxt_delete(tuples);
}
TEST_END

/* ----------------------------------------------------------------------
 * tdb_slot_copy between kinds
 * ---------------------------------------------------------------------- */

typedef enum SourceKind {
    SRC_VIRTUAL,
    SRC_HEAP,
    SRC_BUFFER,
    SRC_MINIMAL,
    SRC_COUNT
} SourceKind;

static const char *const source_names[SRC_COUNT] = {"virtual", "heap", "buffer",
                                                    "minimal"};

/*
 * A slot of the given kind holding `row`, all of whose storage (the
 * values, the tuple, the page) lives in `storage` or in *page, so that
 * the caller can destroy it.
 */
static TupleTableSlot *
make_source(SourceKind kind, TupleDesc desc, int n, MemoryContext storage,
            Page *page, Row *row_out)
{
    MemoryContext old = tdb_mcxt_switch_to(storage);
    Row row = make_row(n);
    TupleTableSlot *slot = NULL;

    switch (kind) {
    case SRC_VIRTUAL:
        slot = tdb_slot_create(desc, &tdb_tts_ops_virtual);
        memcpy(slot->tts_values, row.values, sizeof(row.values));
        memcpy(slot->tts_isnull, row.isnull, sizeof(row.isnull));
        tdb_slot_store_virtual(slot);
        break;
    case SRC_HEAP: {
        HeapTuple tuple = tdb_heap_form_tuple(desc, row.values, row.isnull);

        ItemPointerSet(&tuple->t_self, 9, 9);
        slot = tdb_slot_create(desc, &tdb_tts_ops_heap);
        tdb_slot_store_heap_tuple(slot, tuple, true);
        break;
    }
    case SRC_BUFFER:
        *page = make_page(desc, &row, 3, 7);
        slot = tdb_slot_create(desc, &tdb_tts_ops_heap);
        tdb_slot_store_buffer_tuple(slot, &page->tuple, 2);
        break;
    default:
        slot = tdb_slot_create(desc, &tdb_tts_ops_minimal);
        tdb_slot_store_minimal_tuple(
            slot, tdb_heap_form_minimal_tuple(desc, row.values, row.isnull, 0),
            true);
        break;
    }
    tdb_mcxt_switch_to(old);
    *row_out = row;
    return slot;
}

TEST_BEGIN(test_slot_copy_every_kind)
{
    static const TupleTableSlotOps *const dest_kinds[] = {
        &tdb_tts_ops_virtual, &tdb_tts_ops_heap, &tdb_tts_ops_minimal};
    TupleDesc desc = make_desc();

    install_fake_buffers();
    for (int s = 0; s < SRC_COUNT; s++) {
        for (Size d = 0; d < lengthof(dest_kinds); d++) {
            for (int partial = 0; partial <= 1; partial++) {
                MemoryContext storage = gen_context("source");
                Row want = make_row(20 + s); /* outlives the source */
                Page page = {{0}};
                Row row;
                TupleTableSlot *src, *dst;
                char ctx[80];

                snprintf(ctx, sizeof(ctx), "%s -> %s%s", source_names[s],
                         dest_kinds[d]->name,
                         partial ? " (source partly deformed)" : "");
                src = make_source((SourceKind)s, desc, 20 + s, storage, &page,
                                  &row);
                if (partial && s != SRC_VIRTUAL)
                    tdb_slot_getsomeattrs(src, 2);
                dst = tdb_slot_create(desc, dest_kinds[d]);
                tdb_slot_copy(dst, src);
                if (s != SRC_VIRTUAL && dest_kinds[d] != &tdb_tts_ops_virtual &&
                    !ItemPointerIsValid(&dst->tts_tid) && s != SRC_MINIMAL)
                    tt_fail("%s: tts_tid not copied", ctx);

                /* the copy must not depend on anything of the source */
                tdb_slot_drop(src);
                if (s == SRC_BUFFER) {
                    expect_int_eq(pins[2], 0);
                    scribble_page(&page);
                    free_page(&page);
                }
                tdb_mcxt_delete(storage);
                expect_slot_row(dst, &want, "%s", ctx);

                /* copying an empty slot empties the destination */
                src = tdb_slot_create(desc, &tdb_tts_ops_heap);
                tdb_slot_copy(dst, src);
                expect_true(tdb_slot_is_empty(dst));
                tdb_slot_drop(src);
                tdb_slot_drop(dst);
            }
        }
    }
    expect_no_pins_left();
    tdb_slot_set_buffer_hooks(NULL);
}
TEST_END

/* ----------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_slot_errors)
{
    static const TupleTableSlotOps *const kinds[] = {
        &tdb_tts_ops_virtual, &tdb_tts_ops_heap, &tdb_tts_ops_minimal};
    TupleDesc desc = make_desc();
    TupleDesc other = tt_desc_of(row_types, 3);
    Row row = make_row(1);
    HeapTuple tuple = tdb_heap_form_tuple(desc, row.values, row.isnull);
    MinimalTuple mtup =
        tdb_heap_form_minimal_tuple(desc, row.values, row.isnull, 0);

    for (Size k = 0; k < lengthof(kinds); k++) {
        TupleTableSlot *slot = tdb_slot_create(desc, kinds[k]);
        TupleTableSlot *narrow = tdb_slot_create(other, kinds[k]);

        /* empty */
        expect_error(tdb_slot_getsomeattrs(slot, 1), ERRCODE_INTERNAL_ERROR,
                     "empty");
        expect_error(tdb_slot_materialize(slot), ERRCODE_INTERNAL_ERROR,
                     "empty");
        expect_error(tdb_slot_copy_heap_tuple(slot), ERRCODE_INTERNAL_ERROR,
                     "empty");
        expect_error(tdb_slot_copy_minimal_tuple(slot, 0),
                     ERRCODE_INTERNAL_ERROR, "empty");

        /* holding a row: nothing beyond natts */
        if (kinds[k] == &tdb_tts_ops_virtual) {
            memcpy(slot->tts_values, row.values, sizeof(row.values));
            memcpy(slot->tts_isnull, row.isnull, sizeof(row.isnull));
            tdb_slot_store_virtual(slot);
            expect_error(tdb_slot_store_virtual(slot), ERRCODE_INTERNAL_ERROR,
                         "cleared");
        } else if (kinds[k] == &tdb_tts_ops_heap) {
            tdb_slot_store_heap_tuple(slot, tuple, false);
        } else {
            tdb_slot_store_minimal_tuple(slot, mtup, false);
        }
        expect_error(tdb_slot_getsomeattrs(slot, NCOLS + 1),
                     ERRCODE_INTERNAL_ERROR, "cannot extract attribute");
        tdb_slot_getsomeattrs(slot, NCOLS); /* the last one is fine */
        expect_int_eq(slot->tts_nvalid, NCOLS);

        /* wrong kinds */
        if (kinds[k] != &tdb_tts_ops_heap)
            expect_error(tdb_slot_store_heap_tuple(slot, tuple, false),
                         ERRCODE_INTERNAL_ERROR, "cannot store a heap tuple");
        if (kinds[k] != &tdb_tts_ops_minimal)
            expect_error(tdb_slot_store_minimal_tuple(slot, mtup, false),
                         ERRCODE_INTERNAL_ERROR, "cannot store a minimal");
        if (kinds[k] != &tdb_tts_ops_virtual)
            expect_error(tdb_slot_store_virtual(slot), ERRCODE_INTERNAL_ERROR,
                         "cannot store a virtual");

        /* copying between different column counts */
        expect_error(tdb_slot_copy(narrow, slot), ERRCODE_INTERNAL_ERROR,
                     "cannot copy");
        tdb_slot_drop(narrow);
        tdb_slot_drop(slot);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * Random rows through every kind
 * ---------------------------------------------------------------------- */

/*
 * Ask for random columns in random order, through tdb_slot_getattr
 * (which deforms up to the column) or tdb_slot_fetch_attr (which must
 * leave tts_nvalid alone); compare each.
 */
static void
probe_slot(TupleTableSlot *slot, const Datum *want, const bool *want_null,
           uint64 *rng, const char *ctx)
{
    TupleDesc desc = slot->tts_tupleDescriptor;
    int probes = desc->natts * 2;

    for (int p = 0; p < probes && desc->natts > 0; p++) {
        int i = (int)tt_rand(rng, (uint64)desc->natts);
        int nvalid = slot->tts_nvalid;
        bool fetch = tt_rand(rng, 2) == 0;
        bool null;
        Datum d = fetch ? tdb_slot_fetch_attr(slot, i + 1, &null)
                        : tdb_slot_getattr(slot, i + 1, &null);
        int want_nvalid = fetch || nvalid > i + 1 ? nvalid : i + 1;

        if (slot->tts_nvalid != want_nvalid) {
            tt_fail("%s: %s(%d) with nvalid %d left nvalid %d", ctx,
                    fetch ? "fetch_attr" : "getattr", i + 1, nvalid,
                    slot->tts_nvalid);
            return;
        }
        if (!tt_expect_column(desc, i, want[i], want_null[i], d, null, "%s",
                              ctx))
            return;
    }
}

TEST_BEGIN(test_slot_random)
{
    uint64 rng = tdb_test_seed();
    int n = tt_under_valgrind() ? 40 : 400;
    MemoryContext cxt =
        tdb_aset_create(tdb_current_mcxt, "random", ALLOCSET_DEFAULT_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(cxt);

    install_fake_buffers();
    for (int iter = 0; iter < n && !tt_too_many_failures(); iter++) {
        int natts = 1 + (int)tt_rand(&rng, 40);
        ColSpec *cols = tdb_palloc((Size)natts * sizeof(ColSpec));
        Datum *values = tdb_palloc((Size)natts * sizeof(Datum));
        bool *isnull = tdb_palloc((Size)natts);
        TupleDesc desc;
        HeapTuple tuple;
        HeapTupleData exact;
        TupleTableSlot *heap, *buffer, *minimal, *virt, *copy;
        char ctx[48];

        tt_random_cols(&rng, cols, natts);
        tt_random_row(&rng, cols, natts, values, isnull);
        desc = tt_build_desc(cols, natts);
        tuple = tdb_heap_form_tuple(desc, values, isnull);
        exact = tt_exact_copy(tuple);

        heap = tdb_slot_create(desc, &tdb_tts_ops_heap);
        buffer = tdb_slot_create(desc, &tdb_tts_ops_heap);
        minimal = tdb_slot_create(desc, &tdb_tts_ops_minimal);
        virt = tdb_slot_create(desc, &tdb_tts_ops_virtual);
        copy = tdb_slot_create(desc, iter % 3 == 0   ? &tdb_tts_ops_virtual
                                     : iter % 3 == 1 ? &tdb_tts_ops_heap
                                                     : &tdb_tts_ops_minimal);

        snprintf(ctx, sizeof(ctx), "row %d, heap slot", iter);
        tdb_slot_store_heap_tuple(heap, tuple, false);
        probe_slot(heap, values, isnull, &rng, ctx);

        snprintf(ctx, sizeof(ctx), "row %d, buffer slot", iter);
        tdb_slot_store_buffer_tuple(buffer, &exact, 1 + iter % 4);
        probe_slot(buffer, values, isnull, &rng, ctx);

        snprintf(ctx, sizeof(ctx), "row %d, minimal slot", iter);
        tdb_slot_store_minimal_tuple(
            minimal, tdb_heap_form_minimal_tuple(desc, values, isnull, 0),
            true);
        probe_slot(minimal, values, isnull, &rng, ctx);

        /* a virtual slot hands back the Datums it was given: give it
         * by-value Datums in the form a tuple would yield */
        snprintf(ctx, sizeof(ctx), "row %d, virtual slot", iter);
        for (int i = 0; i < natts; i++) {
            const TupleAttr *att = TupleDescAttr(desc, i);

            virt->tts_values[i] = att->attbyval
                                      ? tt_byval_norm(values[i], att->attlen)
                                      : values[i];
            virt->tts_isnull[i] = isnull[i];
        }
        tdb_slot_store_virtual(virt);
        tdb_slot_materialize(virt);
        probe_slot(virt, values, isnull, &rng, ctx);

        /* copy from the buffer slot, then let the page go */
        snprintf(ctx, sizeof(ctx), "row %d, %s copy", iter,
                 copy->tts_ops->name);
        tdb_slot_copy(copy, buffer);
        tdb_slot_drop(buffer);
        memset(exact.t_data, 0x7F, exact.t_len);
        probe_slot(copy, values, isnull, &rng, ctx);

        tdb_slot_drop(heap);
        tdb_slot_drop(minimal);
        tdb_slot_drop(virt);
        tdb_slot_drop(copy);
        tt_exact_free(&exact);
        tdb_mcxt_reset(cxt);
    }
    expect_no_pins_left();
    tdb_slot_set_buffer_hooks(NULL);
    tdb_mcxt_switch_to(old);
    tdb_mcxt_delete(cxt);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "tuple_slot", TEST_CASE(test_virtual_slot),
        TEST_CASE(test_heap_slot_incremental),
        TEST_CASE(test_heap_slot_materialize),
        TEST_CASE(test_heap_slot_missing_columns),
        TEST_CASE(test_buffer_slot_pins), TEST_CASE(test_buffer_slot_refusals),
        TEST_CASE(test_minimal_slot), TEST_CASE(test_slot_copy_every_kind),
        TEST_CASE(test_slot_errors), TEST_CASE(test_slot_random));
}
