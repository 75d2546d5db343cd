/*
 * test_minimal.c -- minimal tuples: the header layout (t_len, padding,
 * t_infomask2 at offset 10, t_hoff computed as for a heap tuple), the
 * zeroed `extra` space in front of the tuple in the same chunk, the heap
 * view used for deforming (whose first 8 bytes must never be read: they
 * are poisoned here), conversions to and from heap tuples and copies.
 * The randomized round trip in test_form_deform.c runs the same checks
 * over random tuples; this file pins the layout on known ones.
 */
#include "common/base.h"

#include "tuple_test.h"

/* (int4, text, int8, bool, ..., bool): 12 columns, so 2 bitmap bytes. */
#define NCOLS 12

typedef struct Row {
    const char *label;
    uint16 null_mask; /* bit i: column i is NULL */
    int t_hoff;       /* expected */
} Row;

static const Row rows[] = {
    {"no NULLs", 0x000, 24},
    {"NULL text", 0x002, 32},
    {"all NULL", 0xFFF, 32},
    {"NULL first and last", 0x801, 32},
};

static TupleDesc
make_desc(void)
{
    TypeKind types[NCOLS] = {TK_INT4, TK_TEXT, TK_INT8};

    for (int i = 3; i < NCOLS; i++)
        types[i] = TK_BOOL;
    return tt_desc_of(types, NCOLS);
}

static void
make_row(const Row *row, Datum *values, bool *isnull)
{
    values[0] = Int32GetDatum(-123);
    values[1] = tt_text("minimal tuple text");
    values[2] = Int64GetDatum(INT64_MIN);
    for (int i = 3; i < NCOLS; i++)
        values[i] = BoolGetDatum(i & 1);
    for (int i = 0; i < NCOLS; i++)
        isnull[i] = (row->null_mask >> i) & 1;
}

TEST_BEGIN(test_minimal_layout)
{
    TupleDesc desc = make_desc();

    expect_u64_eq(offsetof(MinimalTupleData, t_infomask2), 10);
    expect_u64_eq(offsetof(MinimalTupleData, t_hoff), 14);
    expect_u64_eq(SizeofMinimalTupleHeader, 15);
    expect_u64_eq(MINIMAL_TUPLE_OFFSET, 8);
    for (Size k = 0; k < lengthof(rows); k++) {
        Datum values[NCOLS];
        bool isnull[NCOLS];
        HeapTuple tuple;
        MinimalTuple mtup;
        const uint8 *bytes;

        make_row(&rows[k], values, isnull);
        tuple = tdb_heap_form_tuple(desc, values, isnull);
        mtup = tdb_heap_form_minimal_tuple(desc, values, isnull, 0);
        bytes = (const uint8 *)mtup;

        expect_int_eq(tuple->t_data->t_hoff, rows[k].t_hoff);
        expect_int_eq(mtup->t_hoff, rows[k].t_hoff);
        expect_u64_eq(mtup->t_len, tuple->t_len - 8);
        for (int b = 4; b < 10; b++)
            expect_int_eq(bytes[b], 0);
        expect_int_eq(mtup->t_infomask2, NCOLS);
        expect_int_eq(mtup->t_infomask, tuple->t_data->t_infomask);
        /* from t_infomask2 on, byte-identical to the heap tuple */
        expect_true(memcmp(bytes + 10, (char *)tuple->t_data + 18,
                           tuple->t_len - 18) == 0);
        tdb_pfree(mtup);
        tdb_pfree(tuple);
    }
}
TEST_END

/* `extra` bytes: MAXALIGNed, zeroed, in front, and the chunk starts there. */
TEST_BEGIN(test_minimal_extra_space)
{
    static const Size extras[] = {0, 1, 7, 8, 24, 100};
    TupleDesc desc = make_desc();
    Datum values[NCOLS];
    bool isnull[NCOLS];
    MinimalTuple plain;

    make_row(&rows[1], values, isnull);
    plain = tdb_heap_form_minimal_tuple(desc, values, isnull, 0);
    for (Size k = 0; k < lengthof(extras); k++) {
        MemoryContext cxt = tdb_generation_create(tdb_current_mcxt, "extra",
                                                  ALLOCSET_DEFAULT_SIZES);
        MemoryContext old = tdb_mcxt_switch_to(cxt);
        Size extra = MAXALIGN(extras[k]);
        MinimalTuple mtup =
            tdb_heap_form_minimal_tuple(desc, values, isnull, extras[k]);
        char *chunk = (char *)mtup - extra;

        tdb_mcxt_switch_to(old);
        expect_ptr_eq(tdb_mcxt_chunk_context(chunk), cxt);
        expect_u64_ge(tdb_mcxt_chunk_space(chunk), extra + mtup->t_len);
        for (Size b = 0; b < extra; b++)
            if (chunk[b] != 0) {
                tt_fail("extra %zu: byte %zu not zero", extras[k], b);
                break;
            }
        expect_u64_eq(mtup->t_len, plain->t_len);
        expect_true(memcmp(mtup, plain, plain->t_len) == 0);
        /* one chunk: freeing its start frees everything */
        tdb_pfree(chunk);
        expect_true(tdb_mcxt_is_empty(cxt));
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

TEST_BEGIN(test_minimal_conversions)
{
    TupleDesc desc = make_desc();
    uint64 rng = tdb_test_seed();

    for (Size k = 0; k < lengthof(rows); k++) {
        Datum values[NCOLS];
        bool isnull[NCOLS];
        HeapTuple tuple, back;
        MinimalTuple formed, converted, copy;
        static const char zeros[18];

        make_row(&rows[k], values, isnull);
        tuple = tdb_heap_form_tuple(desc, values, isnull);
        ItemPointerSet(&tuple->t_self, 7, 3);
        tuple->t_tableOid = 16384;
        formed = tdb_heap_form_minimal_tuple(desc, values, isnull, 0);

        converted = tdb_minimal_tuple_from_heap(tuple);
        expect_u64_eq(converted->t_len, formed->t_len);
        expect_true(memcmp(converted, formed, formed->t_len) == 0);

        back = tdb_heap_tuple_from_minimal(converted);
        expect_u64_eq(back->t_len, tuple->t_len);
        expect_ptr_eq(back->t_data, (char *)back + HEAPTUPLESIZE);
        expect_true(memcmp(back->t_data, zeros, sizeof(zeros)) == 0);
        expect_true(memcmp((char *)back->t_data + 18,
                           (char *)tuple->t_data + 18, tuple->t_len - 18) == 0);
        /* a minimal tuple has no location: the heap copy has none either */
        expect_false(ItemPointerIsValid(&back->t_self));
        expect_int_eq(back->t_tableOid, InvalidOid);

        copy = tdb_minimal_tuple_copy(formed);
        expect_ptr_ne(copy, formed);
        expect_true(memcmp(copy, formed, formed->t_len) == 0);

        /* every form deforms to the same values */
        {
            HeapTupleData exact = tt_exact_copy(back);
            HeapTupleData view = tt_exact_minimal_view(copy);

            tt_check_deform(&exact, desc, values, isnull, &rng, rows[k].label);
            tt_check_deform(&view, desc, values, isnull, &rng, rows[k].label);
            tt_exact_free(&exact);
            tt_exact_minimal_free(&view);
        }
    }
}
TEST_END

/*
 * The heap view: t_len 8 more, t_data 8 bytes before, no location.  What
 * lies in those 8 bytes is somebody else's (here: poisoned, and the
 * previous test deformed through such a view).
 */
TEST_BEGIN(test_minimal_heap_view)
{
    TupleDesc desc = make_desc();
    Datum values[NCOLS];
    bool isnull[NCOLS];
    MinimalTuple mtup;
    HeapTupleData view;

    make_row(&rows[0], values, isnull);
    mtup = tdb_heap_form_minimal_tuple(desc, values, isnull, 8);
    memset((char *)mtup - 8, 0x5A, 8); /* garbage where xmin/xmax would be */
    tdb_minimal_tuple_heap_view(mtup, &view);
    expect_u64_eq(view.t_len, mtup->t_len + 8);
    expect_ptr_eq(view.t_data, (char *)mtup - 8);
    expect_false(ItemPointerIsValid(&view.t_self));
    expect_int_eq(view.t_tableOid, InvalidOid);
    expect_int_eq(HeapTupleHeaderGetNatts(view.t_data), NCOLS);
    expect_int_eq(view.t_data->t_hoff, 24);
    {
        bool null;

        expect_int_eq(DatumGetInt32(tdb_heap_getattr(&view, 1, desc, &null)),
                      -123);
        expect_int_eq(DatumGetInt64(tdb_heap_getattr(&view, 3, desc, &null)),
                      INT64_MIN);
    }
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "tuple_minimal", TEST_CASE(test_minimal_layout),
        TEST_CASE(test_minimal_extra_space),
        TEST_CASE(test_minimal_conversions), TEST_CASE(test_minimal_heap_view));
}
