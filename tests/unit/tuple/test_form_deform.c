/*
 * test_form_deform.c -- forming and deforming heap tuples.
 *
 * The core is a seeded randomized round trip (test_roundtrip_random): a
 * few thousand tuples over random descriptors of every test type (1..60
 * columns, sometimes 200..1600), random NULL patterns and random values
 * (varlena lengths clustered at the 1-byte-header boundary; 4-byte,
 * already-short, external and compressed inputs; PLAIN varlenas;
 * cstrings), with leading NOT NULL by-value prefixes (sometimes violated),
 * blocks of one type (uniform runs), dropped columns and fixed-width
 * by-reference types whose width is not a multiple of their alignment.
 * Each tuple is checked byte for byte against the layout oracle
 * (tt_check_formed), deformed every way (tt_check_deform, on an exactly
 * sized copy), re-formed from its deformed values (must be byte-identical),
 * formed as a minimal tuple with extra 0 and 24 and converted heap <->
 * minimal, and sometimes deformed with a wider descriptor whose added
 * columns have missing values or not.
 *
 * Deterministic tests pin the edges: the 1-byte-header boundary per
 * storage and alignment, by-value edge values and sign extension (a Datum
 * made by a datum.h constructor, or read from a missing value, must equal
 * the one read from a tuple), missing values, runs of same-width columns
 * with NULLs, the NOT NULL prefix with and without its constraint kept,
 * bad column numbers, 0 and 1664 columns, and offsets beyond the int16
 * cache.
 *
 * Reproduce a random failure with TDB_TEST_SEED=<printed seed>; failures
 * name the tuple number.
 */
#include "common/base.h"

#include "tuple_test.h"

/* Tuples per run; valgrind runs a tenth. */
#ifndef ROUNDTRIP_TUPLES
#define ROUNDTRIP_TUPLES 3000
#endif

/* ----------------------------------------------------------------------
 * Round-trip checks shared by the random and deterministic tests
 * ---------------------------------------------------------------------- */

/* Deforming then re-forming gives the same bytes (so all padding was 0). */
static void
check_reform(HeapTuple tuple, TupleDesc desc, const char *ctx)
{
    Datum *values = tdb_palloc((Size)desc->natts * sizeof(Datum) + 1);
    bool *isnull = tdb_palloc((Size)desc->natts + 1);
    HeapTuple again;

    tdb_heap_deform_tuple(tuple, desc, values, isnull);
    again = tdb_heap_form_tuple(desc, values, isnull);
    if (again->t_len != tuple->t_len)
        tt_fail("%s: re-formed t_len %u, expected %u", ctx, again->t_len,
                tuple->t_len);
    else if (memcmp(again->t_data, tuple->t_data, tuple->t_len) != 0)
        tt_fail("%s: re-formed tuple differs", ctx);
    tdb_pfree(again);
    tdb_pfree(values);
    tdb_pfree(isnull);
}

/*
 * mtup is the minimal form of heap tuple `tuple`: t_len 8 less, t_hoff the
 * same, padding zero, and every byte from t_infomask2 on identical.
 */
static void
check_minimal_matches_heap(MinimalTuple mtup, HeapTuple tuple, const char *ctx)
{
    static const char zeros[MINIMAL_TUPLE_PADDING];

    if (mtup->t_len != tuple->t_len - MINIMAL_TUPLE_OFFSET) {
        tt_fail("%s: minimal t_len %u, heap t_len %u", ctx, mtup->t_len,
                tuple->t_len);
        return;
    }
    if (mtup->t_hoff != tuple->t_data->t_hoff)
        tt_fail("%s: minimal t_hoff %u, heap %u", ctx, mtup->t_hoff,
                tuple->t_data->t_hoff);
    if (memcmp(mtup->mt_padding, zeros, sizeof(zeros)) != 0)
        tt_fail("%s: minimal padding not zero", ctx);
    if (memcmp((char *)mtup + offsetof(MinimalTupleData, t_infomask2),
               (char *)tuple->t_data +
                   offsetof(HeapTupleHeaderData, t_infomask2),
               tuple->t_len - offsetof(HeapTupleHeaderData, t_infomask2)) != 0)
        tt_fail("%s: minimal bytes differ from the heap tuple's", ctx);
}

/*
 * Minimal tuples of the same values: formed with extra 0 and 24 (zeroed
 * bytes in front, in the same chunk), deformed through the heap view,
 * converted both ways and copied.
 */
static void
check_minimal(HeapTuple tuple, TupleDesc desc, const Datum *values,
              const bool *isnull, uint64 *rng, const char *ctx)
{
    static const Size extras[] = {0, 24};
    MinimalTuple plain = NULL;

    for (Size k = 0; k < lengthof(extras); k++) {
        Size extra = extras[k];
        MinimalTuple mtup =
            tdb_heap_form_minimal_tuple(desc, values, isnull, extra);
        char *chunk = (char *)mtup - extra;
        HeapTupleData view;

        check_minimal_matches_heap(mtup, tuple, ctx);
        for (Size b = 0; b < extra; b++)
            if (chunk[b] != 0) {
                tt_fail("%s: extra byte %zu not zero", ctx, b);
                break;
            }
        if (tdb_mcxt_chunk_context(chunk) != tdb_current_mcxt)
            tt_fail("%s: extra space is not the chunk start", ctx);

        view = tt_exact_minimal_view(mtup);
        tt_check_deform(&view, desc, values, isnull, rng, ctx);
        tt_exact_minimal_free(&view);
        if (extra == 0)
            plain = mtup;
        else
            tdb_pfree(chunk);
    }

    {
        MinimalTuple from_heap = tdb_minimal_tuple_from_heap(tuple);
        MinimalTuple copy = tdb_minimal_tuple_copy(from_heap);
        HeapTuple back = tdb_heap_tuple_from_minimal(from_heap);
        static const char zeros[offsetof(HeapTupleHeaderData, t_infomask2)];

        if (from_heap->t_len != plain->t_len ||
            memcmp(from_heap, plain, plain->t_len) != 0)
            tt_fail("%s: heap->minimal differs from the formed minimal", ctx);
        if (memcmp(copy, from_heap, from_heap->t_len) != 0)
            tt_fail("%s: minimal copy differs", ctx);
        if (back->t_len != tuple->t_len) {
            tt_fail("%s: minimal->heap t_len %u, expected %u", ctx, back->t_len,
                    tuple->t_len);
        } else {
            Size from = offsetof(HeapTupleHeaderData, t_infomask2);

            if (memcmp((char *)back->t_data + from,
                       (char *)tuple->t_data + from, tuple->t_len - from) != 0)
                tt_fail("%s: minimal->heap bytes differ", ctx);
            if (memcmp(back->t_data, zeros, sizeof(zeros)) != 0)
                tt_fail("%s: minimal->heap transaction fields not zero", ctx);
        }
        tdb_pfree(from_heap);
        tdb_pfree(copy);
        tdb_pfree(back);
    }
    tdb_pfree(plain);
}

/* A copy of the heap tuple is identical, wrapper fields included. */
static void
check_heap_copy(HeapTuple tuple, const char *ctx)
{
    HeapTuple copy = tdb_heap_copy_tuple(tuple);

    if (copy->t_len != tuple->t_len ||
        memcmp(copy->t_data, tuple->t_data, tuple->t_len) != 0 ||
        memcmp(&copy->t_self, &tuple->t_self, sizeof(ItemPointerData)) != 0 ||
        copy->t_tableOid != tuple->t_tableOid)
        tt_fail("%s: heap copy differs", ctx);
    if ((char *)copy->t_data != (char *)copy + HEAPTUPLESIZE)
        tt_fail("%s: heap copy is not one chunk", ctx);
    tdb_pfree(copy);
}

/*
 * Everything about one tuple formed from values/isnull with desc.  With
 * `wider` (desc's columns plus added ones), also deform it as an old
 * tuple of that table: want[natts..] must hold the added columns'
 * expectations.
 */
static void
check_tuple(TupleDesc desc, const Datum *values, const bool *isnull,
            TupleDesc wider, const Datum *wider_want, const bool *wider_null,
            uint64 *rng, const char *ctx)
{
    HeapTuple tuple = tdb_heap_form_tuple(desc, values, isnull);
    HeapTupleData exact;

    tt_check_formed(tuple, desc, values, isnull, ctx);
    if (tdb_heap_compute_data_size(desc, values, isnull) !=
        tuple->t_len - tuple->t_data->t_hoff)
        tt_fail("%s: compute_data_size disagrees with the formed tuple", ctx);
    if ((char *)tuple->t_data != (char *)tuple + HEAPTUPLESIZE)
        tt_fail("%s: formed tuple is not one chunk", ctx);

    exact = tt_exact_copy(tuple);
    tt_check_deform(&exact, desc, values, isnull, rng, ctx);
    check_reform(&exact, desc, ctx);
    if (wider != NULL) {
        char wctx[128];
        MinimalTuple mtup = tdb_minimal_tuple_from_heap(tuple);
        HeapTupleData view = tt_exact_minimal_view(mtup);

        snprintf(wctx, sizeof(wctx), "%s, %d added columns", ctx,
                 wider->natts - desc->natts);
        tt_check_deform(&exact, wider, wider_want, wider_null, rng, wctx);
        tt_check_deform(&view, wider, wider_want, wider_null, rng, wctx);
        tt_exact_minimal_free(&view);
        tdb_pfree(mtup);
    }
    tt_exact_free(&exact);

    check_minimal(tuple, desc, values, isnull, rng, ctx);
    check_heap_copy(tuple, ctx);
    tdb_pfree(tuple);
}

/* ----------------------------------------------------------------------
 * Randomized round trips
 * ---------------------------------------------------------------------- */

/*
 * tdb_heap_getattr_array over copies of tuple agrees with
 * tdb_heap_getattr (checked against the values by check_tuple), column by
 * column: the same NULLs, the same Datums (by-reference ones point into
 * the tuple itself, so they compare equal as pointers).
 */
static void
check_getattr_array(HeapTuple tuple, TupleDesc desc, const char *ctx)
{
    HeapTupleData tuples[3] = {*tuple, *tuple, *tuple};
    Datum values[3];
    bool isnull[3];

    for (int a = 1; a <= desc->natts; a++) {
        bool null;
        Datum want = tdb_heap_getattr(tuple, a, desc, &null);

        tdb_heap_getattr_array(tuples, 3, a, desc, values, isnull);
        for (int k = 0; k < 3; k++)
            if (isnull[k] != null || (!null && values[k] != want)) {
                tt_fail("%s: getattr_array(%d)[%d] differs from getattr", ctx,
                        a, k);
                return;
            }
    }
}

static void
roundtrip_one(uint64 *rng, int iter)
{
    char ctx[64];
    int natts = tt_random_natts(rng);
    int added = tt_chance(rng, 25) ? 1 + (int)tt_rand(rng, 5) : 0;
    int wide = natts + added;
    ColSpec *cols = tdb_palloc((Size)wide * sizeof(ColSpec));
    Datum *values = tdb_palloc((Size)wide * sizeof(Datum));
    bool *isnull = tdb_palloc((Size)wide);
    TupleDesc desc, wider = NULL;

    snprintf(ctx, sizeof(ctx), "tuple %d (%d columns)", iter, natts);
    tt_random_cols(rng, cols, natts);
    tt_random_row(rng, cols, natts, values, isnull);
    desc = tt_build_desc(cols, natts);
    if (added > 0) {
        tt_random_added_cols(rng, cols, natts, added);
        wider = tt_build_desc(cols, wide);
        for (int i = natts; i < wide; i++) {
            isnull[i] = !cols[i].has_missing || cols[i].missing_null;
            values[i] = isnull[i] ? (Datum)0 : cols[i].missing;
        }
    }
    check_tuple(desc, values, isnull, wider, values, isnull, rng, ctx);
    check_getattr_array(tdb_heap_form_tuple(desc, values, isnull), desc, ctx);
}

TEST_BEGIN(test_roundtrip_random)
{
    uint64 rng = tdb_test_seed();
    int n = tt_under_valgrind() ? ROUNDTRIP_TUPLES / 10 : ROUNDTRIP_TUPLES;
    MemoryContext cxt =
        tdb_aset_create(tdb_current_mcxt, "roundtrip", ALLOCSET_DEFAULT_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(cxt);

    for (int iter = 0; iter < n && !tt_too_many_failures(); iter++) {
        roundtrip_one(&rng, iter);
        tdb_mcxt_reset(cxt);
    }
    tdb_mcxt_switch_to(old);
    tdb_mcxt_delete(cxt);
}
TEST_END

/* ----------------------------------------------------------------------
 * The 1-byte-header boundary
 * ---------------------------------------------------------------------- */

typedef struct VarCase {
    const char *label;
    TypeKind type;
    Size len;       /* data bytes */
    VarForm form;   /* input form */
    bool short_hdr; /* expected: stored with a 1-byte header, unaligned */
} VarCase;

static const VarCase var_cases[] = {
    {"text, 0 bytes", TK_TEXT, 0, VF_4B, true},
    {"text, 1 byte", TK_TEXT, 1, VF_4B, true},
    {"text, 125 bytes", TK_TEXT, 125, VF_4B, true},
    {"text, 126 bytes (largest short)", TK_TEXT, 126, VF_4B, true},
    {"text, 127 bytes", TK_TEXT, 127, VF_4B, false},
    {"text, 128 bytes", TK_TEXT, 128, VF_4B, false},
    {"text, 300 bytes", TK_TEXT, 300, VF_4B, false},
    {"text, already short, 126 bytes", TK_TEXT, 126, VF_SHORT, true},
    {"text, already short, 0 bytes", TK_TEXT, 0, VF_SHORT, true},
    {"numeric (MAIN), 126 bytes", TK_NUMERIC, 126, VF_4B, true},
    {"numeric (MAIN), 127 bytes", TK_NUMERIC, 127, VF_4B, false},
    {"int2vector (PLAIN), 0 bytes", TK_INT2VECTOR, 0, VF_4B, false},
    {"int2vector (PLAIN), 126 bytes", TK_INT2VECTOR, 126, VF_4B, false},
    {"int2vector (PLAIN), already short", TK_INT2VECTOR, 10, VF_SHORT, true},
    {"_float8 ('d'), 126 bytes", TK_FLOAT8ARR, 126, VF_4B, true},
    {"_float8 ('d'), 127 bytes", TK_FLOAT8ARR, 127, VF_4B, false},
    {"_float8 ('d'), 16 bytes", TK_FLOAT8ARR, 16, VF_4B, true},
    {"bytea, compressed inline", TK_BYTEA, 20, VF_COMPRESSED, false},
    {"text, external pointer", TK_TEXT, 16, VF_EXTERNAL, true},
};

/*
 * (bool, <the case's type>, bool): the value starts right after the first
 * bool at offset 1 if it is unaligned, else at its alignment; the stored
 * bytes are the header form the case expects, the payload, and the last
 * bool right after the value.
 */
TEST_BEGIN(test_varlena_header_boundary)
{
    uint64 rng = tdb_test_seed();

    for (Size k = 0; k < lengthof(var_cases); k++) {
        const VarCase *vc = &var_cases[k];
        TupleDesc desc =
            tt_desc_of((TypeKind[]){TK_BOOL, vc->type, TK_BOOL}, 3);
        char payload[300];
        Datum values[3];
        bool isnull[3] = {false, false, false};
        HeapTuple tuple;
        const uint8 *data;
        Size off, stored;

        for (Size i = 0; i < vc->len; i++)
            payload[i] = (char)(i * 7 + 1);
        values[0] = BoolGetDatum(true);
        values[1] = tt_make_varlena(payload, vc->len, vc->form);
        values[2] = BoolGetDatum(true);
        tuple = tdb_heap_form_tuple(desc, values, isnull);
        data = (const uint8 *)tuple->t_data + tuple->t_data->t_hoff;

        if (vc->short_hdr)
            off = 1;
        else
            off =
                TYPEALIGN(tdb_typalign_to_alignby(tt_types[vc->type].align), 1);
        if (vc->form == VF_EXTERNAL)
            stored = TOAST_POINTER_SIZE;
        else if (vc->form == VF_COMPRESSED)
            stored = VARHDRSZ_COMPRESSED + vc->len;
        else
            stored = (vc->short_hdr ? 1 : 4) + vc->len;

        if (tuple->t_len != tuple->t_data->t_hoff + off + stored + 1) {
            tt_fail("%s: t_len %u, expected %zu", vc->label, tuple->t_len,
                    tuple->t_data->t_hoff + off + stored + 1);
        } else {
            const uint8 *v = data + off;
            bool is_short = VARATT_IS_1B(v);

            for (Size b = 1; b < off; b++)
                if (data[b] != 0)
                    tt_fail("%s: pad byte %zu not zero", vc->label, b);
            if (is_short != vc->short_hdr)
                tt_fail("%s: stored with a %s header", vc->label,
                        is_short ? "1-byte" : "4-byte");
            if (VARSIZE_ANY(v) != stored)
                tt_fail("%s: stored size %zu, expected %zu", vc->label,
                        VARSIZE_ANY(v), stored);
            if (vc->form != VF_EXTERNAL &&
                (VARSIZE_ANY(v) - VARHDRSZ_ANY(v) !=
                 vc->len + (vc->form == VF_COMPRESSED ? 4 : 0)))
                tt_fail("%s: payload %zu bytes", vc->label,
                        VARSIZE_ANY(v) - VARHDRSZ_ANY(v));
            if (data[off + stored] != 1)
                tt_fail("%s: last column not right after the value", vc->label);
            if (((tuple->t_data->t_infomask & HEAP_HASEXTERNAL) != 0) !=
                (vc->form == VF_EXTERNAL))
                tt_fail("%s: HEAP_HASEXTERNAL wrong", vc->label);
        }
        check_tuple(desc, values, isnull, NULL, NULL, NULL, &rng, vc->label);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * By-value values
 * ---------------------------------------------------------------------- */

/* Stored as the low attlen bytes; read back sign-extended. */
TEST_BEGIN(test_byval_edges)
{
    static const TypeKind types[] = {TK_BOOL,   TK_CHAR,     TK_INT2, TK_INT4,
                                     TK_OID,    TK_FLOAT4,   TK_DATE, TK_INT8,
                                     TK_FLOAT8, TK_TIMESTAMP};
    static const uint64 bits[] = {0,          1,          0x7F,
                                  0x80,       0xFF,       0x7FFF,
                                  0x8000,     0xFFFF,     0x7FFFFFFF,
                                  0x80000000, 0xFFFFFFFF, 0x8000000000000000ull,
                                  UINT64_MAX};
    uint64 rng = tdb_test_seed();
    TupleDesc desc = tt_desc_of(types, lengthof(types));

    for (Size k = 0; k < lengthof(bits); k++) {
        Datum values[lengthof(types)];
        bool isnull[lengthof(types)] = {false};
        char ctx[64];

        for (Size i = 0; i < lengthof(types); i++)
            values[i] = types[i] == TK_BOOL ? BoolGetDatum(bits[k] & 1)
                                            : (Datum)bits[k];
        snprintf(ctx, sizeof(ctx), "bits 0x%llx", (unsigned long long)bits[k]);
        check_tuple(desc, values, isnull, NULL, NULL, NULL, &rng, ctx);
    }
}
TEST_END

/*
 * A by-value Datum built with the datum.h constructor survives a round
 * trip unchanged, as in PostgreSQL (whose Float4GetDatum sign-extends
 * like the deformer).  Oid is left out on purpose: PostgreSQL's
 * ObjectIdGetDatum zero-extends while fetch_att sign-extends, and tupledb
 * copies that.
 */
TEST_BEGIN(test_byval_constructor_roundtrip)
{
    struct {
        const char *label;
        TypeKind type;
        Datum value;
    } cases[] = {
        {"bool", TK_BOOL, BoolGetDatum(true)},
        {"\"char\" 0xe9", TK_CHAR, CharGetDatum((char)0xe9)},
        {"int2 -2", TK_INT2, Int16GetDatum(-2)},
        {"int4 -3", TK_INT4, Int32GetDatum(-3)},
        {"date -4", TK_DATE, Int32GetDatum(-4)},
        {"int8 -5", TK_INT8, Int64GetDatum(-5)},
        {"float8 -6.5", TK_FLOAT8, Float8GetDatum(-6.5)},
        {"float4 -1.5", TK_FLOAT4, Float4GetDatum(-1.5f)},
        {"float4 -0.0", TK_FLOAT4, Float4GetDatum(-0.0f)},
        {"float4 1.5", TK_FLOAT4, Float4GetDatum(1.5f)},
    };

    for (Size k = 0; k < lengthof(cases); k++) {
        TupleDesc desc = tt_desc_of(&cases[k].type, 1);
        bool isnull = false;
        HeapTuple tuple = tdb_heap_form_tuple(desc, &cases[k].value, &isnull);
        bool null;
        Datum got = tdb_heap_getattr(tuple, 1, desc, &null);

        if (got != cases[k].value)
            tt_fail("%s: Datum 0x%016llx came back as 0x%016llx",
                    cases[k].label, (unsigned long long)cases[k].value,
                    (unsigned long long)got);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * Missing values (ADD COLUMN)
 * ---------------------------------------------------------------------- */

static const char added_uuid[16] = "fedcba9876543210";

/*
 * Tuples of (int4, text) read with a descriptor of three more columns
 * having a missing value and three without (one explicitly NULL): every
 * deform path, heap and minimal, with and without NULLs in the tuple, and
 * a 0-column tuple.
 */
TEST_BEGIN(test_missing_values)
{
    uint64 rng = tdb_test_seed();
    ColSpec cols[] = {
        {.type = TK_INT4},
        {.type = TK_TEXT},
        {.type = TK_INT4, .has_missing = true, .missing = Int32GetDatum(42)},
        {.type = TK_TEXT},
        {.type = TK_TEXT, .has_missing = true, .missing = tt_text("dflt")},
        {.type = TK_INT8, .has_missing = true, .missing_null = true},
        {.type = TK_UUID,
         .has_missing = true,
         .missing = PointerGetDatum(added_uuid)},
        {.type = TK_BOOL},
    };
    const int ncols = lengthof(cols);
    TupleDesc wider = tt_build_desc(cols, ncols);

    for (int old_natts = 0; old_natts <= 2; old_natts++) {
        for (int nulls = 0; nulls < 4; nulls++) {
            TupleDesc desc = tt_build_desc(cols, old_natts);
            Datum want[lengthof(cols)];
            bool want_null[lengthof(cols)];
            char ctx[64];

            /* the old row's own columns, then what the table adds */
            for (int i = 0; i < ncols; i++) {
                want_null[i] = !cols[i].has_missing || cols[i].missing_null;
                want[i] = want_null[i] ? (Datum)0 : cols[i].missing;
            }
            if (old_natts > 0) {
                want[0] = Int32GetDatum(-7);
                want_null[0] = (nulls & 1) != 0;
            }
            if (old_natts > 1) {
                want[1] = tt_text("old row");
                want_null[1] = (nulls & 2) != 0;
            }
            snprintf(ctx, sizeof(ctx), "%d old columns, nulls %d", old_natts,
                     nulls);
            check_tuple(desc, want, want_null, wider, want, want_null, &rng,
                        ctx);
        }
    }
}
TEST_END

/*
 * A missing value reads as the same Datum as the same value stored in a
 * tuple.  PostgreSQL gets this for free: attmissingval is an array whose
 * elements are read with fetch_att, which normalizes by-value Datums the
 * way deforming a tuple does.  ADD COLUMN o oid DEFAULT 4000000000 must
 * not give old rows a different Datum than new rows (nor DEFAULT -1.5 on
 * a float4 column).
 */
TEST_BEGIN(test_missing_byval_datum_image)
{
    struct {
        const char *label;
        TypeKind type;
        Datum value;
    } cases[] = {
        {"oid 4000000000", TK_OID, ObjectIdGetDatum(4000000000u)},
        {"float4 -1.5", TK_FLOAT4, Float4GetDatum(-1.5f)},
        {"int4 -1", TK_INT4, Int32GetDatum(-1)},
        {"\"char\" 0xe9", TK_CHAR, CharGetDatum((char)0xe9)},
    };

    for (Size k = 0; k < lengthof(cases); k++) {
        ColSpec cols[2] = {{.type = TK_INT4},
                           {.type = cases[k].type,
                            .has_missing = true,
                            .missing = cases[k].value}};
        TupleDesc old_desc = tt_build_desc(cols, 1);
        TupleDesc desc = tt_build_desc(cols, 2);
        Datum values[2] = {Int32GetDatum(1), cases[k].value};
        bool isnull[2] = {false, false};
        HeapTuple old_row = tdb_heap_form_tuple(old_desc, values, isnull);
        HeapTuple new_row = tdb_heap_form_tuple(desc, values, isnull);
        bool n1, n2;
        Datum from_missing = tdb_heap_getattr(old_row, 2, desc, &n1);
        Datum from_tuple = tdb_heap_getattr(new_row, 2, desc, &n2);

        expect_false(n1);
        expect_false(n2);
        if (from_missing != from_tuple)
            tt_fail("%s: missing value reads as 0x%016llx, a stored one as "
                    "0x%016llx",
                    cases[k].label, (unsigned long long)from_missing,
                    (unsigned long long)from_tuple);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * Runs of same-width columns
 * ---------------------------------------------------------------------- */

#define RUN_COLS 10

/*
 * Descriptors built of runs of columns of one width and alignment, after
 * varlenas that leave the offset unaligned, with widths that are not a
 * multiple of the alignment and neighbours that differ only in alignment
 * or by-value-ness; each with every NULL pattern below.
 */
TEST_BEGIN(test_fixed_width_runs)
{
    static const struct {
        const char *label;
        TypeKind types[RUN_COLS];
    } descs[] = {
        {"text then int4 run",
         {TK_TEXT, TK_INT4, TK_INT4, TK_OID, TK_DATE, TK_FLOAT4, TK_INT4,
          TK_INT4, TK_INT4, TK_INT4}},
        {"bool, short text, int8 run",
         {TK_BOOL, TK_TEXT, TK_INT8, TK_TIMESTAMP, TK_FLOAT8, TK_INT8, TK_TEXT,
          TK_INT8, TK_INT8, TK_INT8}},
        {"macaddr run (6 bytes aligned 4)",
         {TK_CHAR, TK_MACADDR, TK_MACADDR, TK_MACADDR, TK_TEXT, TK_MACADDR,
          TK_MACADDR, TK_TID, TK_TID, TK_TID}},
        {"uuid then interval (same width, other alignment)",
         {TK_BOOL, TK_UUID, TK_UUID, TK_INTERVAL, TK_INTERVAL, TK_TEXT, TK_UUID,
          TK_INTERVAL, TK_TIMETZ, TK_TIMETZ}},
        {"int8 by value and by reference",
         {TK_INT2, TK_INT8, TK_INT8REF, TK_INT8, TK_INT8REF, TK_INT8REF,
          TK_CSTRING, TK_INT8, TK_INT8REF, TK_INT8}},
        {"bool and \"char\" run",
         {TK_INT4, TK_BOOL, TK_CHAR, TK_BOOL, TK_CHAR, TK_BOOL, TK_BYTEA,
          TK_CHAR, TK_BOOL, TK_NAME}},
    };
    static const uint16 null_masks[] = {0x000, 0x001, 0x004, 0x00C, 0x010,
                                        0x0F0, 0x200, 0x155, 0x2AA, 0x3FF};
    uint64 rng = tdb_test_seed();

    for (Size k = 0; k < lengthof(descs); k++) {
        TupleDesc desc = tt_desc_of(descs[k].types, RUN_COLS);

        for (Size m = 0; m < lengthof(null_masks); m++) {
            Datum values[RUN_COLS];
            bool isnull[RUN_COLS];
            char ctx[96];

            for (int i = 0; i < RUN_COLS; i++) {
                isnull[i] = (null_masks[m] >> i) & 1;
                values[i] = isnull[i]
                                ? (Datum)0
                                : tt_random_value(&rng, descs[k].types[i]);
            }
            snprintf(ctx, sizeof(ctx), "%s, NULL mask 0x%03x", descs[k].label,
                     null_masks[m]);
            check_tuple(desc, values, isnull, NULL, NULL, NULL, &rng, ctx);
        }
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * The guaranteed prefix
 * ---------------------------------------------------------------------- */

/*
 * Leading NOT NULL by-value columns may be deformed without per-column
 * null handling, but a tuple that breaks the constraint (formed before it
 * was checked) or lacks columns must still read correctly: deform_some
 * stopping inside, at and past the prefix, every other path, and a
 * shorter tuple read with the full descriptor.
 */
TEST_BEGIN(test_not_null_prefix)
{
    static const uint8 null_masks[] = {0x00, 0x02, 0x01, 0x0F,
                                       0x08, 0x10, 0x3F};
    static const int steps[] = {1, 2, 4, 5, 6};
    uint64 rng = tdb_test_seed();
    ColSpec cols[6] = {
        {.type = TK_INT8, .notnull = true},
        {.type = TK_INT4, .notnull = true},
        {.type = TK_INT2, .notnull = true},
        {.type = TK_BOOL, .notnull = true},
        {.type = TK_TEXT},
        {.type = TK_INT4},
    };
    TupleDesc desc = tt_build_desc(cols, 6);
    TupleDesc narrow = tt_build_desc(cols, 2);

    expect_int_eq(desc->first_nonguaranteed, 4);
    for (Size k = 0; k < lengthof(null_masks); k++) {
        Datum values[6] = {Int64GetDatum(-1),           Int32GetDatum(-2),
                           Int16GetDatum(-3),           BoolGetDatum(true),
                           tt_text("after the prefix"), Int32GetDatum(-6)};
        bool isnull[6];
        Datum want[6];
        bool want_null[6];
        Datum got[6];
        bool got_null[8];
        DeformState state = DEFORM_STATE_INIT;
        HeapTuple tuple;
        char ctx[48];

        for (int i = 0; i < 6; i++) {
            isnull[i] = (null_masks[k] >> i) & 1;
            got_null[i] = !isnull[i];
        }
        snprintf(ctx, sizeof(ctx), "NULL mask 0x%02x", null_masks[k]);
        tuple = tdb_heap_form_tuple(desc, values, isnull);
        for (Size s = 0; s < lengthof(steps); s++) {
            tdb_heap_deform_some(tuple, desc, got, got_null, &state, steps[s]);
            for (int i = 0; i < steps[s]; i++)
                tt_expect_column(desc, i, values[i], isnull[i], got[i],
                                 got_null[i], "%s, deform_some to %d", ctx,
                                 steps[s]);
        }
        check_tuple(desc, values, isnull, NULL, NULL, NULL, &rng, ctx);

        /* the same first two columns in a tuple that has only them */
        for (int i = 0; i < 6; i++) {
            want_null[i] = i >= 2 || isnull[i];
            want[i] = want_null[i] ? (Datum)0 : values[i];
        }
        check_tuple(narrow, values, isnull, desc, want, want_null, &rng, ctx);
    }
}
TEST_END

/* Asking for columns the descriptor does not have is a caller error. */
TEST_BEGIN(test_bad_column_requests)
{
    TupleDesc desc = tt_desc_of((TypeKind[]){TK_INT4, TK_TEXT}, 2);
    Datum values[2] = {Int32GetDatum(1), tt_text("x")};
    bool isnull[2] = {false, false};
    HeapTuple tuple = tdb_heap_form_tuple(desc, values, isnull);
    Datum got[2];
    bool got_null[8];
    DeformState state = DEFORM_STATE_INIT;
    bool null;

    expect_error(tdb_heap_deform_some(tuple, desc, got, got_null, &state, 3),
                 ERRCODE_INTERNAL_ERROR, "cannot extract attribute 3");
    expect_error(tdb_heap_getattr(tuple, 0, desc, &null),
                 ERRCODE_INTERNAL_ERROR, "invalid attribute number 0");
    expect_error(tdb_heap_getattr(tuple, 3, desc, &null),
                 ERRCODE_INTERNAL_ERROR, "invalid attribute number 3");
    tdb_heap_deform_some(tuple, desc, got, got_null, &state, 2);
    expect_int_eq(state.nvalid, 2);
    expect_int_eq(DatumGetInt32(got[0]), 1);
}
TEST_END

/* ----------------------------------------------------------------------
 * Column-count and size edges
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_zero_columns)
{
    uint64 rng = tdb_test_seed();
    TupleDesc desc = tdb_tupdesc_create(0);
    HeapTuple tuple;
    MinimalTuple mtup;

    tdb_tupdesc_finalize(desc);
    tuple = tdb_heap_form_tuple(desc, NULL, NULL);
    expect_u64_eq(tuple->t_len, 24);
    expect_int_eq(tuple->t_data->t_hoff, 24);
    expect_int_eq(HeapTupleHeaderGetNatts(tuple->t_data), 0);
    expect_int_eq(tuple->t_data->t_infomask, 0);
    mtup = tdb_heap_form_minimal_tuple(desc, NULL, NULL, 0);
    expect_u64_eq(mtup->t_len, 16);
    expect_int_eq(mtup->t_hoff, 24);
    check_tuple(desc, NULL, NULL, NULL, NULL, NULL, &rng, "0 columns");
}
TEST_END

/* 1664 columns (the tuple maximum), every NULL pattern: t_hoff 232. */
TEST_BEGIN(test_max_tuple_columns)
{
    uint64 rng = tdb_test_seed();
    int natts = MaxTupleAttributeNumber;
    ColSpec *cols = tdb_palloc0((Size)natts * sizeof(ColSpec));
    Datum *values = tdb_palloc((Size)natts * sizeof(Datum));
    bool *isnull = tdb_palloc((Size)natts);
    TupleDesc desc;
    int rounds = tt_under_valgrind() ? 2 : 8;

    for (int i = 0; i < natts; i++)
        cols[i].type = i % 3 == 0 ? TK_BOOL : i % 3 == 1 ? TK_INT2 : TK_CHAR;
    desc = tt_build_desc(cols, natts);
    for (int r = 0; r < rounds; r++) {
        char ctx[32];

        snprintf(ctx, sizeof(ctx), "1664 columns, row %d", r);
        tt_random_row(&rng, cols, natts, values, isnull);
        check_tuple(desc, values, isnull, NULL, NULL, NULL, &rng, ctx);
    }
    for (int i = 0; i < natts; i++)
        isnull[i] = i == natts - 1;
    {
        HeapTuple tuple = tdb_heap_form_tuple(desc, values, isnull);

        expect_int_eq(tuple->t_data->t_hoff, 232);
    }
}
TEST_END

/*
 * 1600 name columns (102400 data bytes): offsets past the int16 cache are
 * computed by walking; NULLs in the cached and uncached parts.
 */
TEST_BEGIN(test_offsets_beyond_int16)
{
    uint64 rng = tdb_test_seed();
    int natts = MaxHeapAttributeNumber;
    ColSpec *cols = tdb_palloc0((Size)natts * sizeof(ColSpec));
    Datum *values = tdb_palloc((Size)natts * sizeof(Datum));
    bool *isnull = tdb_palloc((Size)natts);
    TupleDesc desc;
    static const int null_at[] = {-1, 0, 300, 600, 1599};

    for (int i = 0; i < natts; i++)
        cols[i].type = i == 1000 ? TK_INT8 : TK_NAME;
    desc = tt_build_desc(cols, natts);
    expect_true(desc->first_noncached < natts);
    for (Size k = 0; k < lengthof(null_at); k++) {
        char ctx[48];

        for (int i = 0; i < natts; i++) {
            isnull[i] = i == null_at[k];
            values[i] =
                isnull[i] ? (Datum)0 : tt_random_value(&rng, cols[i].type);
        }
        snprintf(ctx, sizeof(ctx), "1600 names, NULL at %d", null_at[k]);
        check_tuple(desc, values, isnull, NULL, NULL, NULL, &rng, ctx);
    }
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "tuple_form_deform", TEST_CASE(test_roundtrip_random),
        TEST_CASE(test_varlena_header_boundary), TEST_CASE(test_byval_edges),
        TEST_CASE(test_byval_constructor_roundtrip),
        TEST_CASE(test_missing_values),
        TEST_CASE(test_missing_byval_datum_image),
        TEST_CASE(test_fixed_width_runs), TEST_CASE(test_not_null_prefix),
        TEST_CASE(test_bad_column_requests), TEST_CASE(test_zero_columns),
        TEST_CASE(test_max_tuple_columns),
        TEST_CASE(test_offsets_beyond_int16));
}
