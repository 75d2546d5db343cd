/*
 * test_tupdesc.c -- tuple descriptors: what tdb_tupdesc_finalize derives
 * (the 8-byte CompactAttribute array, attcacheoff of the leading
 * fixed-width run with its alignment padding, first_noncached,
 * first_nonguaranteed, the uniform runs' attrunlen), the 0- and
 * 1600/1664-column edges, rejection of impossible type properties, missing
 * values (set_missing copies; copy keeps them in the copy's own memory).
 */
#include "common/base.h"

#include "tuple_test.h"

/* ----------------------------------------------------------------------
 * CompactAttribute
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_compact_attribute_size)
{
    expect_u64_eq(sizeof(CompactAttribute), 8);
    expect_u64_eq(sizeof(((TupleDescData *)0)->compact_attrs[0]), 8);
}
TEST_END

/* Every type's compact entry: length, alignment bytes, flags. */
TEST_BEGIN(test_compact_attribute_fields)
{
    static const struct {
        char align;
        uint8 alignby;
    } alignments[] = {{'c', 1}, {'s', 2}, {'i', 4}, {'d', 8}};
    TypeKind types[TK_COUNT];
    TupleDesc desc;

    for (int t = 0; t < TK_COUNT; t++)
        types[t] = (TypeKind)t;
    desc = tt_desc_of(types, TK_COUNT);
    for (int t = 0; t < TK_COUNT; t++) {
        const TypeProps *tp = &tt_types[t];
        const CompactAttribute *c = TupleDescCompactAttr(desc, t);
        uint8 flags = (uint8)((tp->byval ? ATTR_BYVAL : 0) |
                              (tp->storage != 'p' ? ATTR_PACKABLE : 0));
        uint8 alignby = 0;

        for (Size a = 0; a < lengthof(alignments); a++)
            if (alignments[a].align == tp->align)
                alignby = alignments[a].alignby;
        expect_int_eq(c->attlen, tp->len);
        expect_int_eq(c->attalignby, alignby);
        expect_int_eq(c->attflags, flags);
        if (tp->len > 0)
            expect_int_ne(c->attrunlen, 0);
        else
            expect_int_eq(c->attrunlen, 0);
        expect_int_eq(TupleDescAttr(desc, t)->atttypid, tp->oid);
    }

    /* NOT NULL, dropped and missing show up as flags too */
    desc->attrs[0].attnotnull = true;
    desc->attrs[1].attisdropped = true;
    tdb_tupdesc_set_missing(desc, 2, Int32GetDatum(5), false);
    tdb_tupdesc_finalize(desc);
    expect_int_eq(TupleDescCompactAttr(desc, 0)->attflags,
                  ATTR_BYVAL | ATTR_NOTNULL);
    expect_int_eq(TupleDescCompactAttr(desc, 1)->attflags,
                  ATTR_BYVAL | ATTR_DROPPED);
    expect_int_eq(TupleDescCompactAttr(desc, 2)->attflags,
                  ATTR_BYVAL | ATTR_HASMISSING);
}
TEST_END

/* ----------------------------------------------------------------------
 * Cached offsets
 * ---------------------------------------------------------------------- */

#define MAX_CASE_COLS 8

typedef struct CacheoffCase {
    const char *label;
    int natts;
    TypeKind types[MAX_CASE_COLS];
    int16 cacheoff[MAX_CASE_COLS]; /* expected, -1 = not cached */
    int first_noncached;
} CacheoffCase;

static const CacheoffCase cacheoff_cases[] = {
    {"bool,int8", 2, {TK_BOOL, TK_INT8}, {0, 8}, 2},
    {"int2,int4,int2,int8",
     4,
     {TK_INT2, TK_INT4, TK_INT2, TK_INT8},
     {0, 4, 8, 16},
     4},
    {"char,int2,char,int4,char,float8",
     6,
     {TK_CHAR, TK_INT2, TK_CHAR, TK_INT4, TK_CHAR, TK_FLOAT8},
     {0, 2, 4, 8, 12, 16},
     6},
    {"bool,timestamp,float4,oid,bool,date",
     6,
     {TK_BOOL, TK_TIMESTAMP, TK_FLOAT4, TK_OID, TK_BOOL, TK_DATE},
     {0, 8, 16, 20, 24, 28},
     6},
    {"uuid,int8,name,int2,date (by-reference fixed width)",
     5,
     {TK_UUID, TK_INT8, TK_NAME, TK_INT2, TK_DATE},
     {0, 16, 24, 88, 92},
     5},
    {"bool,name,bool,uuid,int8",
     5,
     {TK_BOOL, TK_NAME, TK_BOOL, TK_UUID, TK_INT8},
     {0, 1, 65, 66, 88},
     5},
    {"bool,macaddr,macaddr,tid,timetz,interval",
     6,
     {TK_BOOL, TK_MACADDR, TK_MACADDR, TK_TID, TK_TIMETZ, TK_INTERVAL},
     {0, 4, 12, 18, 24, 40},
     6},
    {"bool,uuid,interval,int8 (by reference),int8",
     5,
     {TK_BOOL, TK_UUID, TK_INTERVAL, TK_INT8REF, TK_INT8},
     {0, 1, 24, 40, 48},
     5},
    {"int4,text,int4: stops at the varlena",
     3,
     {TK_INT4, TK_TEXT, TK_INT4},
     {0, -1, -1},
     1},
    {"text first: nothing cached", 2, {TK_TEXT, TK_INT4}, {-1, -1}, 0},
    {"int2,cstring,int8: stops at the cstring",
     3,
     {TK_INT2, TK_CSTRING, TK_INT8},
     {0, -1, -1},
     1},
    {"bool,_float8,int8: stops at a 'd' varlena",
     3,
     {TK_BOOL, TK_FLOAT8ARR, TK_INT8},
     {0, -1, -1},
     1},
    {"int8,int2vector,bool: stops at a PLAIN varlena",
     3,
     {TK_INT8, TK_INT2VECTOR, TK_BOOL},
     {0, -1, -1},
     1},
    {"int4,int4,numeric,uuid",
     4,
     {TK_INT4, TK_INT4, TK_NUMERIC, TK_UUID},
     {0, 4, -1, -1},
     2},
};

TEST_BEGIN(test_cacheoff_table)
{
    for (Size k = 0; k < lengthof(cacheoff_cases); k++) {
        const CacheoffCase *cc = &cacheoff_cases[k];
        TupleDesc desc = tt_desc_of(cc->types, cc->natts);

        expect_int_eq(desc->first_noncached, cc->first_noncached);
        for (int i = 0; i < cc->natts; i++)
            if (TupleDescCompactAttr(desc, i)->attcacheoff != cc->cacheoff[i])
                tt_fail("%s: column %d attcacheoff %d, expected %d", cc->label,
                        i + 1, TupleDescCompactAttr(desc, i)->attcacheoff,
                        cc->cacheoff[i]);
    }
}
TEST_END

/*
 * The cached offsets are where forming really puts the columns: check a
 * formed no-NULL tuple's bytes at each cached offset, for random
 * fixed-width descriptors.
 */
TEST_BEGIN(test_cacheoff_matches_formed_tuples)
{
    uint64 rng = tdb_test_seed();

    for (int iter = 0; iter < 200 && !tt_too_many_failures(); iter++) {
        ColSpec cols[40];
        Datum values[40];
        bool isnull[40] = {false};
        int natts = 1 + (int)tt_rand(&rng, lengthof(cols));
        TupleDesc desc;
        HeapTuple tuple;
        const char *data;

        tt_random_cols(&rng, cols, natts);
        for (int i = 0; i < natts; i++) {
            cols[i].type = tt_random_type(&rng, TP_FIXED);
            cols[i].dropped = false;
        }
        desc = tt_build_desc(cols, natts);
        expect_int_eq(desc->first_noncached, natts);
        for (int i = 0; i < natts; i++)
            values[i] = tt_random_value(&rng, cols[i].type);
        tuple = tdb_heap_form_tuple(desc, values, isnull);
        data = (const char *)tuple->t_data + tuple->t_data->t_hoff;
        for (int i = 0; i < natts; i++) {
            const CompactAttribute *c = TupleDescCompactAttr(desc, i);
            uint64 v = values[i];
            const void *want = c->attflags & ATTR_BYVAL
                                   ? (const void *)&v
                                   : DatumGetPointer(values[i]);

            if (memcmp(data + c->attcacheoff, want, (Size)c->attlen) != 0)
                tt_fail("iteration %d: column %d not at attcacheoff %d", iter,
                        i + 1, c->attcacheoff);
        }
        tdb_pfree(tuple);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * first_nonguaranteed
 * ---------------------------------------------------------------------- */

typedef struct GuaranteedCase {
    const char *label;
    int natts;
    ColSpec cols[MAX_CASE_COLS];
    int first_nonguaranteed;
} GuaranteedCase;

#define NN(t)                                                                  \
    {                                                                          \
        .type = (t), .notnull = true                                           \
    }
#define NULLABLE(t)                                                            \
    {                                                                          \
        .type = (t)                                                            \
    }

static const GuaranteedCase guaranteed_cases[] = {
    {"all NOT NULL by value",
     4,
     {NN(TK_INT4), NN(TK_INT8), NN(TK_BOOL), NN(TK_FLOAT8)},
     4},
    {"nullable in the middle",
     3,
     {NN(TK_INT4), NULLABLE(TK_INT4), NN(TK_INT4)},
     1},
    {"nullable first", 2, {NULLABLE(TK_INT2), NN(TK_INT2)}, 0},
    {"NOT NULL by-reference fixed width (uuid)",
     3,
     {NN(TK_INT4), NN(TK_UUID), NN(TK_INT4)},
     1},
    {"NOT NULL name", 2, {NN(TK_BOOL), NN(TK_NAME)}, 1},
    {"NOT NULL varlena", 3, {NN(TK_INT2), NN(TK_TEXT), NN(TK_INT2)}, 1},
    {"NOT NULL cstring", 2, {NN(TK_INT8), NN(TK_CSTRING)}, 1},
    {"varlena first", 2, {NN(TK_TEXT), NN(TK_INT4)}, 0},
    {"dropped (even if marked NOT NULL)",
     3,
     {NN(TK_INT4),
      {.type = TK_INT8, .notnull = true, .dropped = true},
      NN(TK_INT4)},
     1},
    {"missing value",
     3,
     {NN(TK_INT4),
      {.type = TK_INT4,
       .notnull = true,
       .has_missing = true,
       .missing = (Datum)7},
      NN(TK_INT4)},
     1},
    {"missing NULL",
     2,
     {NN(TK_DATE),
      {.type = TK_INT4,
       .notnull = true,
       .has_missing = true,
       .missing_null = true}},
     1},
    {"no columns", 0, {NN(TK_INT4)}, 0},
};

TEST_BEGIN(test_first_nonguaranteed_table)
{
    for (Size k = 0; k < lengthof(guaranteed_cases); k++) {
        const GuaranteedCase *gc = &guaranteed_cases[k];
        TupleDesc desc = tt_build_desc(gc->cols, gc->natts);

        if (desc->first_nonguaranteed != gc->first_nonguaranteed)
            tt_fail("%s: first_nonguaranteed %d, expected %d", gc->label,
                    desc->first_nonguaranteed, gc->first_nonguaranteed);
        if (desc->first_nonguaranteed > desc->first_noncached)
            tt_fail("%s: guaranteed prefix %d longer than cached prefix %d",
                    gc->label, desc->first_nonguaranteed,
                    desc->first_noncached);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * Column-count edges
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_zero_columns)
{
    TupleDesc desc = tdb_tupdesc_create(0);
    TupleDesc copy;

    expect_int_eq(desc->natts, 0);
    expect_int_eq(desc->first_noncached, -1); /* not finalized yet */
    tdb_tupdesc_finalize(desc);
    expect_int_eq(desc->first_noncached, 0);
    expect_int_eq(desc->first_nonguaranteed, 0);
    expect_ptr_null(desc->constr);
    copy = tdb_tupdesc_copy(desc);
    expect_int_eq(copy->natts, 0);
    expect_int_eq(copy->first_noncached, 0);
}
TEST_END

TEST_BEGIN(test_1600_fixed_columns)
{
    TupleDesc desc = tdb_tupdesc_create(MaxHeapAttributeNumber);

    for (int i = 0; i < MaxHeapAttributeNumber; i++) {
        tt_init_attr(desc, i, TK_INT8);
        desc->attrs[i].attnotnull = true;
    }
    tdb_tupdesc_finalize(desc);
    expect_int_eq(desc->first_noncached, MaxHeapAttributeNumber);
    expect_int_eq(desc->first_nonguaranteed, MaxHeapAttributeNumber);
    for (int i = 0; i < MaxHeapAttributeNumber; i++)
        if (TupleDescCompactAttr(desc, i)->attcacheoff != i * 8) {
            tt_fail("column %d attcacheoff %d", i + 1,
                    TupleDescCompactAttr(desc, i)->attcacheoff);
            break;
        }

    /* a NULL-able column in the middle ends the guaranteed prefix */
    desc->attrs[800].attnotnull = false;
    tdb_tupdesc_finalize(desc);
    expect_int_eq(desc->first_nonguaranteed, 800);
    expect_int_eq(desc->first_noncached, MaxHeapAttributeNumber);
}
TEST_END

/*
 * 1600 name columns are 102400 bytes: offsets past INT16_MAX cannot be
 * cached in the int16 attcacheoff, so the cached run ends before that.
 */
TEST_BEGIN(test_1600_wide_columns_offset_limit)
{
    TupleDesc desc = tdb_tupdesc_create(MaxHeapAttributeNumber);
    int nc;

    for (int i = 0; i < MaxHeapAttributeNumber; i++)
        tt_init_attr(desc, i, TK_NAME);
    tdb_tupdesc_finalize(desc);
    nc = desc->first_noncached;
    /* 511 * 64 = 32704 is the last offset whose column ends <= 32767 */
    expect_true(nc == 511 || nc == 512);
    for (int i = 0; i < MaxHeapAttributeNumber; i++) {
        int want = i < nc ? i * NAMEDATALEN : -1;

        if (TupleDescCompactAttr(desc, i)->attcacheoff != want) {
            tt_fail("column %d attcacheoff %d, expected %d", i + 1,
                    TupleDescCompactAttr(desc, i)->attcacheoff, want);
            break;
        }
    }
}
TEST_END

TEST_BEGIN(test_column_count_limits)
{
    TupleDesc desc = tdb_tupdesc_create(MaxTupleAttributeNumber);

    expect_int_eq(desc->natts, MaxTupleAttributeNumber);
    expect_error(tdb_tupdesc_create(MaxTupleAttributeNumber + 1),
                 ERRCODE_PROGRAM_LIMIT_EXCEEDED, "columns");
    expect_error(tdb_tupdesc_create(-1), ERRCODE_PROGRAM_LIMIT_EXCEEDED, NULL);
}
TEST_END

/* ----------------------------------------------------------------------
 * Type properties
 * ---------------------------------------------------------------------- */

typedef struct PropsCase {
    const char *label;
    int16 attlen;
    bool byval;
    char align;
    char storage;
} PropsCase;

static const PropsCase invalid_props[] = {
    {"by value, width 3", 3, true, 'c', 'p'},
    {"by value, width 16", 16, true, 'c', 'p'},
    {"by-value varlena", -1, true, 'i', 'p'},
    {"by-value cstring", -2, true, 'c', 'p'},
    {"length 0", 0, false, 'c', 'p'},
    {"length -3", -3, false, 'i', 'p'},
    {"alignment 'x'", 4, true, 'x', 'p'},
    {"alignment '\\0'", -1, false, '\0', 'x'},
    {"storage 'z'", -1, false, 'i', 'z'},
    {"cstring aligned 'i'", -2, false, 'i', 'p'},
    {"fixed width, storage 'x'", 4, true, 'i', 'x'},
    {"fixed width by reference, storage 'm'", 16, false, 'c', 'm'},
};

static const PropsCase valid_props[] = {
    {"by value, width 1", 1, true, 'c', 'p'},
    {"by value, width 2", 2, true, 's', 'p'},
    {"by value, width 4", 4, true, 'i', 'p'},
    {"by value, width 8", 8, true, 'd', 'p'},
    {"by reference, width 3", 3, false, 'c', 'p'},
    {"by reference, width 6, 'i'", 6, false, 'i', 'p'},
    {"varlena 'd' extended", -1, false, 'd', 'x'},
    {"varlena external", -1, false, 'i', 'e'},
    {"varlena main", -1, false, 'i', 'm'},
    {"cstring", -2, false, 'c', 'p'},
};

typedef struct PropsCall {
    TupleDesc desc;
    const PropsCase *pc;
} PropsCall;

static void
init_attr_with(void *arg)
{
    const PropsCall *call = arg;

    tdb_tupdesc_init_attr(call->desc, 1, call->pc->label, 0, -1,
                          call->pc->attlen, call->pc->byval, call->pc->align,
                          call->pc->storage);
}

TEST_BEGIN(test_invalid_type_properties)
{
    TupleDesc desc = tdb_tupdesc_create(2);

    for (Size k = 0; k < lengthof(invalid_props); k++) {
        PropsCall call = {desc, &invalid_props[k]};
        int code = tt_catch(init_attr_with, &call);

        if (code != ERRCODE_INVALID_PARAMETER_VALUE ||
            strstr(tt_caught_message, "invalid type properties") == NULL)
            tt_fail("%s: got %s (%s)", invalid_props[k].label,
                    code ? tt_sqlstate(code) : "no error",
                    code ? tt_caught_message : "");
    }
    for (Size k = 0; k < lengthof(valid_props); k++) {
        PropsCall call = {desc, &valid_props[k]};
        int code = tt_catch(init_attr_with, &call);

        if (code != 0)
            tt_fail("%s: rejected with %s", valid_props[k].label,
                    tt_sqlstate(code));
    }
    expect_error(
        tdb_tupdesc_init_attr(desc, 2, "c3", 23, -1, 4, true, 'i', 'p'),
        ERRCODE_INTERNAL_ERROR, "out of range");
    expect_error(
        tdb_tupdesc_init_attr(desc, -1, "c0", 23, -1, 4, true, 'i', 'p'),
        ERRCODE_INTERNAL_ERROR, "out of range");
}
TEST_END

TEST_BEGIN(test_init_attr_fields)
{
    char longname[100];
    TupleDesc desc = tdb_tupdesc_create(2);
    const TupleAttr *att;

    memset(longname, 'n', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    tdb_tupdesc_init_attr(desc, 0, longname, 1043, 14, -1, false, 'i', 'x');
    att = TupleDescAttr(desc, 0);
    expect_u64_eq(strlen(att->attname), NAMEDATALEN - 1);
    expect_int_eq(att->atttypid, 1043);
    expect_int_eq(att->atttypmod, 14);
    expect_int_eq(att->attlen, -1);
    expect_int_eq(att->attalign, 'i');
    expect_int_eq(att->attstorage, 'x');

    /* re-describing resets the flags and un-finalizes the descriptor */
    desc->attrs[0].attnotnull = true;
    tt_init_attr(desc, 1, TK_INT4);
    tdb_tupdesc_finalize(desc);
    expect_int_eq(desc->first_noncached, 0);
    tt_init_attr(desc, 0, TK_INT4);
    expect_false(TupleDescAttr(desc, 0)->attnotnull);
    expect_int_eq(desc->first_noncached, -1);
    tdb_tupdesc_finalize(desc);
    expect_int_eq(desc->first_noncached, 2);
}
TEST_END

/* ----------------------------------------------------------------------
 * Missing values and copies
 * ---------------------------------------------------------------------- */

static const char missing_uuid[16] = "0123456789abcdef";

/* (int4, then columns added with and without missing values) */
static TupleDesc
desc_with_missing(void)
{
    ColSpec cols[] = {
        {.type = TK_INT4},
        {.type = TK_TEXT, .has_missing = true, .missing = tt_text("a default")},
        {.type = TK_INT8, .has_missing = true, .missing = Int64GetDatum(-5)},
        {.type = TK_UUID,
         .has_missing = true,
         .missing = PointerGetDatum(missing_uuid)},
        {.type = TK_TEXT, .has_missing = true, .missing_null = true},
        {.type = TK_INT4},
        {.type = TK_CSTRING,
         .has_missing = true,
         .missing = PointerGetDatum("cstr")},
    };

    return tt_build_desc(cols, lengthof(cols));
}

/* Expect desc's missing values to be desc_with_missing()'s. */
static void
expect_missing_values(TupleDesc desc)
{
    static const bool has_missing[] = {false, true,  true, true,
                                       true,  false, true};
    Datum want[] = {0,
                    tt_text("a default"),
                    Int64GetDatum(-5),
                    PointerGetDatum(missing_uuid),
                    0,
                    0,
                    PointerGetDatum("cstr")};
    static const bool want_null[] = {true, false, false, false,
                                     true, true,  false};
    const AttrMissing *m;

    expect_ptr_not_null(desc->constr);
    if (desc->constr == NULL || desc->constr->missing == NULL)
        return;
    m = desc->constr->missing;
    for (int i = 0; i < desc->natts; i++) {
        expect_int_eq(TupleDescAttr(desc, i)->atthasmissing, has_missing[i]);
        expect_int_eq(
            (TupleDescCompactAttr(desc, i)->attflags & ATTR_HASMISSING) != 0,
            has_missing[i]);
        tt_expect_column(desc, i, want[i], want_null[i], m[i].am_value,
                         !m[i].am_present, "missing value");
    }
}

TEST_BEGIN(test_set_missing_copies_into_desc_context)
{
    MemoryContext desc_cxt =
        tdb_aset_create(tdb_current_mcxt, "desc", ALLOCSET_SMALL_SIZES);
    MemoryContext other =
        tdb_aset_create(tdb_current_mcxt, "other", ALLOCSET_SMALL_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(desc_cxt);
    TupleDesc desc = tt_desc_of((TypeKind[]){TK_INT4, TK_TEXT, TK_NAME}, 3);
    char *src;
    char name[NAMEDATALEN] = "somebody";

    tdb_mcxt_switch_to(other);
    src = DatumGetPointer(tt_text("hello"));
    tdb_tupdesc_set_missing(desc, 1, PointerGetDatum(src), false);
    tdb_tupdesc_set_missing(desc, 2, PointerGetDatum(name), false);
    tdb_tupdesc_finalize(desc);
    tdb_mcxt_switch_to(old);

    /* the caller's buffers may go away */
    memset(name, 'X', sizeof(name));
    tdb_mcxt_delete(other);

    expect_ptr_eq(tdb_mcxt_chunk_context(
                      DatumGetPointer(desc->constr->missing[1].am_value)),
                  desc_cxt);
    expect_ptr_eq(tdb_mcxt_chunk_context(desc->constr->missing), desc_cxt);
    expect_true(
        memcmp(VARDATA_ANY(DatumGetPointer(desc->constr->missing[1].am_value)),
               "hello", 5) == 0);
    expect_str_eq(DatumGetPointer(desc->constr->missing[2].am_value),
                  "somebody");
    expect_false(desc->constr->missing[0].am_present);
    tdb_mcxt_delete(desc_cxt);
}
TEST_END

TEST_BEGIN(test_copy_keeps_missing_values)
{
    MemoryContext a =
        tdb_aset_create(tdb_current_mcxt, "original", ALLOCSET_SMALL_SIZES);
    MemoryContext b =
        tdb_aset_create(tdb_current_mcxt, "copy", ALLOCSET_SMALL_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(a);
    TupleDesc desc = desc_with_missing();
    TupleDesc copy;

    desc->tdtypeid = 16400;
    desc->tdtypmod = 3;
    expect_missing_values(desc);
    tdb_mcxt_switch_to(b);
    copy = tdb_tupdesc_copy(desc);
    tdb_mcxt_switch_to(old);

    expect_int_eq(copy->natts, desc->natts);
    expect_int_eq(copy->tdtypeid, 16400);
    expect_int_eq(copy->tdtypmod, 3);
    expect_int_eq(copy->first_noncached, desc->first_noncached);
    expect_int_eq(copy->first_nonguaranteed, desc->first_nonguaranteed);
    expect_true(memcmp(copy->attrs, desc->attrs,
                       (Size)desc->natts * sizeof(TupleAttr)) == 0);
    expect_true(memcmp(copy->compact_attrs, desc->compact_attrs,
                       (Size)desc->natts * sizeof(CompactAttribute)) == 0);
    expect_ptr_eq(tdb_mcxt_chunk_context(copy), b);

    /* the copy owns its values: the original's memory is gone */
    tdb_mcxt_delete(a);
    expect_missing_values(copy);

    /* and a one-column tuple deformed with the copy reads them */
    {
        TupleDesc one = tt_desc_of((TypeKind[]){TK_INT4}, 1);
        Datum v = Int32GetDatum(11);
        bool n = false;
        HeapTuple tuple = tdb_heap_form_tuple(one, &v, &n);
        Datum values[7];
        bool isnull[7];

        Datum want[7] = {Int32GetDatum(11),
                         tt_text("a default"),
                         Int64GetDatum(-5),
                         PointerGetDatum(missing_uuid),
                         0,
                         0,
                         PointerGetDatum("cstr")};
        bool want_null[7] = {false, false, false, false, true, true, false};

        tdb_heap_deform_tuple(tuple, copy, values, isnull);
        for (int i = 0; i < 7; i++)
            tt_expect_column(copy, i, want[i], want_null[i], values[i],
                             isnull[i], "deformed with the copy");
    }
    tdb_mcxt_delete(b);
}
TEST_END

/*
 * attrunlen: consecutive fixed-width columns of one width, by-value-ness
 * and alignment form a run (int4 and oid do; int8, int2, uuid each end
 * one); variable-width columns have 0.
 */
TEST_BEGIN(test_uniform_runs)
{
    TypeKind types[] = {TK_INT4, TK_INT4, TK_OID,  TK_INT8, TK_INT2,
                        TK_TEXT, TK_INT4, TK_INT4, TK_UUID, TK_UUID};
    int expected[] = {3, 2, 1, 1, 1, 0, 2, 1, 2, 1};
    TupleDesc desc = tt_desc_of(types, (int)lengthof(types));

    for (int i = 0; i < (int)lengthof(types); i++)
        expect_int_eq(TupleDescCompactAttr(desc, i)->attrunlen, expected[i]);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "tuple_tupdesc", TEST_CASE(test_compact_attribute_size),
        TEST_CASE(test_compact_attribute_fields),
        TEST_CASE(test_cacheoff_table),
        TEST_CASE(test_cacheoff_matches_formed_tuples),
        TEST_CASE(test_first_nonguaranteed_table), TEST_CASE(test_zero_columns),
        TEST_CASE(test_1600_fixed_columns),
        TEST_CASE(test_1600_wide_columns_offset_limit),
        TEST_CASE(test_column_count_limits),
        TEST_CASE(test_invalid_type_properties),
        TEST_CASE(test_init_attr_fields),
        TEST_CASE(test_set_missing_copies_into_desc_context),
        TEST_CASE(test_copy_keeps_missing_values),
        TEST_CASE(test_uniform_runs));
}
