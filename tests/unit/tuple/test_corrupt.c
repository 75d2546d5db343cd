/*
 * test_corrupt.c -- corrupted tuples raise ERRCODE_DATA_CORRUPTED, never
 * crash or read outside the tuple.
 *
 * Every tuple handed to the code under test lives in an exactly sized
 * malloc'd buffer of t_len bytes (tdb_palloc chunks have slack that would
 * hide an overrun), so `make check-asan` and `make check-valgrind` catch
 * any read past t_len.
 *
 *   test_handmade_corruptions  a table of specific corruptions (natts,
 *       t_hoff, HASNULL, short t_len, varlena lengths past the end with
 *       1- and 4-byte headers, 4-byte lengths below the header size,
 *       external pointers with an unknown or truncated tag, unterminated
 *       cstrings, ...); each must be rejected by deform_tuple,
 *       deform_some, getattr (of all columns), verify and a heap slot.
 *   test_truncated_header      t_len shorter than the 23-byte header.
 *   test_fuzz_mutations        ~20,000 random mutations of valid tuples
 *       (bit flips, byte overwrites, natts/t_hoff/infomask edits, planted
 *       varlena headers, t_len shrunk, even below the header): each
 *       operation must succeed or raise ERRCODE_DATA_CORRUPTED; a
 *       successful deform must only return values that lie inside the
 *       tuple; deform, getattr, verify and a slot must agree on whether
 *       the tuple is corrupt.
 */
#include "common/base.h"

#include "tuple_test.h"

#ifndef FUZZ_MUTATIONS
#define FUZZ_MUTATIONS 20000
#endif

/* ----------------------------------------------------------------------
 * Operations under test
 * ---------------------------------------------------------------------- */

typedef struct OpArg {
    HeapTuple tuple;
    TupleDesc desc;
    uint64 *rng;
} OpArg;

static void
op_deform(void *arg)
{
    OpArg *a = arg;
    Datum *values = tt_malloc((Size)a->desc->natts * sizeof(Datum));
    bool *isnull = tt_malloc((Size)a->desc->natts);

    TDB_TRY();
    {
        tdb_heap_deform_tuple(a->tuple, a->desc, values, isnull);
    }
    TDB_CATCH();
    {
        free(values);
        free(isnull);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    free(values);
    free(isnull);
}

static void
op_deform_some(void *arg)
{
    OpArg *a = arg;
    int natts = a->desc->natts;
    Datum *values = tt_malloc((Size)natts * sizeof(Datum));
    bool *isnull = tt_malloc(TYPEALIGN(8, (Size)natts));
    DeformState state = DEFORM_STATE_INIT;

    TDB_TRY();
    {
        while (state.nvalid < natts) {
            int upto = state.nvalid + 1 + (int)tt_rand(a->rng, 3);

            tdb_heap_deform_some(a->tuple, a->desc, values, isnull, &state,
                                 upto < natts ? upto : natts);
        }
    }
    TDB_CATCH();
    {
        free(values);
        free(isnull);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    free(values);
    free(isnull);
}

static void
op_getattr_all(void *arg)
{
    OpArg *a = arg;

    for (int i = 1; i <= a->desc->natts; i++) {
        bool null;

        (void)tdb_heap_getattr(a->tuple, i, a->desc, &null);
    }
}

static void
op_verify(void *arg)
{
    OpArg *a = arg;

    tdb_heap_tuple_verify(a->tuple, a->desc);
}

static void
op_slot(void *arg)
{
    OpArg *a = arg;
    TupleTableSlot *slot = tdb_slot_create(a->desc, &tdb_tts_ops_heap);

    tdb_slot_store_heap_tuple(slot, a->tuple, false);
    tdb_slot_getallattrs(slot);
    tdb_slot_drop(slot);
}

/* Every column of two copies through tdb_heap_getattr_array. */
static void
op_getattr_array(void *arg)
{
    OpArg *a = arg;
    HeapTupleData tuples[2] = {*a->tuple, *a->tuple};
    Datum values[2];
    bool isnull[2];

    for (int i = 1; i <= a->desc->natts; i++)
        tdb_heap_getattr_array(tuples, 2, i, a->desc, values, isnull);
}

/* Every column through tdb_slot_fetch_attr (no deforming). */
static void
op_slot_fetch(void *arg)
{
    OpArg *a = arg;
    TupleTableSlot *slot = tdb_slot_create(a->desc, &tdb_tts_ops_heap);

    tdb_slot_store_heap_tuple(slot, a->tuple, false);
    for (int i = a->desc->natts; i >= 1; i--) {
        bool null;

        (void)tdb_slot_fetch_attr(slot, i, &null);
    }
    tdb_slot_drop(slot);
}

typedef struct Op {
    const char *name;
    void (*run)(void *arg);
} Op;

static const Op ops[] = {
    {"deform_tuple", op_deform}, {"deform_some", op_deform_some},
    {"getattr", op_getattr_all}, {"verify", op_verify},
    {"heap slot", op_slot}, {"slot fetch_attr", op_slot_fetch},
    {"getattr_array", op_getattr_array},
};

/* ----------------------------------------------------------------------
 * Hand-made corruptions
 * ---------------------------------------------------------------------- */

/* A tuple being corrupted: a palloc'd copy of its bytes and its length. */
typedef struct Victim {
    TupleDesc desc;
    HeapTupleHeader td;
    uint32 len;
} Victim;

/* Form (types, values, nulls) into v; nulls may be NULL (none). */
static void
victim_form(Victim *v, int natts, const TypeKind *types, const Datum *values,
            const bool *nulls)
{
    bool none[8] = {false};
    HeapTuple tuple;

    v->desc = tt_desc_of(types, natts);
    tuple = tdb_heap_form_tuple(v->desc, values, nulls ? nulls : none);
    v->len = tuple->t_len;
    v->td = tdb_palloc(v->len);
    memcpy(v->td, tuple->t_data, v->len);
    tdb_pfree(tuple);
}

static uint8 *
victim_data(Victim *v)
{
    return (uint8 *)v->td + v->td->t_hoff;
}

static void
put_u32(uint8 *p, uint32 x)
{
    memcpy(p, &x, 4);
}

/* (int4, int4) with the given number of attributes in t_infomask2 */
static void
corrupt_natts(Victim *v, int natts)
{
    victim_form(v, 2, (TypeKind[]){TK_INT4, TK_INT4},
                (Datum[]){Int32GetDatum(1), Int32GetDatum(2)}, NULL);
    HeapTupleHeaderSetNatts(v->td, natts);
}

static void
natts_plus_one(Victim *v)
{
    corrupt_natts(v, 3);
}

static void
natts_max(Victim *v)
{
    corrupt_natts(v, HEAP_NATTS_MASK);
}

/* 12 int2 columns, the third NULL: t_hoff 32 */
static void
twelve_with_null(Victim *v)
{
    TypeKind types[12];
    Datum values[12];
    bool nulls[12] = {false};

    for (int i = 0; i < 12; i++) {
        types[i] = TK_INT2;
        values[i] = Int16GetDatum((int16)i);
    }
    nulls[2] = true;
    v->desc = tt_desc_of(types, 12);
    {
        HeapTuple tuple = tdb_heap_form_tuple(v->desc, values, nulls);

        v->len = tuple->t_len;
        v->td = tdb_palloc(v->len);
        memcpy(v->td, tuple->t_data, v->len);
    }
}

static void
hoff_too_small(Victim *v)
{
    corrupt_natts(v, 2);
    v->td->t_hoff = 16;
}

static void
hoff_too_large(Victim *v)
{
    corrupt_natts(v, 2);
    v->td->t_hoff = 32;
}

static void
hoff_unaligned(Victim *v)
{
    corrupt_natts(v, 2);
    v->td->t_hoff = 23;
}

static void
hoff_zero(Victim *v)
{
    corrupt_natts(v, 2);
    v->td->t_hoff = 0;
}

/* HASNULL cleared: the bitmap is then taken for data */
static void
hasnull_cleared(Victim *v)
{
    twelve_with_null(v);
    v->td->t_infomask &= (uint16)~HEAP_HASNULL;
}

/* HASNULL set on a 12-column tuple without a bitmap */
static void
hasnull_set_without_bitmap(Victim *v)
{
    TypeKind types[12];
    Datum values[12];

    for (int i = 0; i < 12; i++) {
        types[i] = TK_INT2;
        values[i] = Int16GetDatum((int16)i);
    }
    victim_form(v, 8, types, values, NULL); /* 8 columns: hoff 24 */
    v->desc = tt_desc_of(types, 12);
    HeapTupleHeaderSetNatts(v->td, 12);
    v->td->t_infomask |= HEAP_HASNULL;
}

/* t_len ends inside the null bitmap / header padding */
static void
len_below_hoff(Victim *v)
{
    twelve_with_null(v);
    v->len = 30;
}

/* (int8 x 4): t_len cuts the cached fixed-width prefix */
static void
len_cuts_fixed_prefix(Victim *v)
{
    victim_form(v, 4, (TypeKind[]){TK_INT8, TK_INT8, TK_INT8, TK_INT8},
                (Datum[]){1, 2, 3, 4}, NULL);
    v->len = v->td->t_hoff + 20;
}

/* the same, by one byte */
static void
len_cuts_last_fixed_byte(Victim *v)
{
    victim_form(v, 3, (TypeKind[]){TK_INT4, TK_UUID, TK_INT2},
                (Datum[]){1, PointerGetDatum("0123456789abcdef"), 3}, NULL);
    v->len -= 1;
}

/* (text, int8): t_len cuts the fixed column after a varlena */
static void
len_cuts_after_varlena(Victim *v)
{
    victim_form(v, 2, (TypeKind[]){TK_TEXT, TK_INT8},
                (Datum[]){tt_text("abc"), 5}, NULL);
    v->len -= 3;
}

/* (int4, int4 NULL, int4): the bitmap claims the NULL is present */
static void
bitmap_claims_more(Victim *v)
{
    victim_form(v, 3, (TypeKind[]){TK_INT4, TK_INT4, TK_INT4},
                (Datum[]){1, 0, 3}, (bool[]){false, true, false});
    v->td->t_bits[0] = 0x07;
}

/* (int4, text 'abc'): short header (offset 4) */
static void
short_text(Victim *v, const char *s)
{
    victim_form(v, 2, (TypeKind[]){TK_INT4, TK_TEXT},
                (Datum[]){Int32GetDatum(9), tt_text(s)}, NULL);
}

static void
short_len_past_end(Victim *v)
{
    short_text(v, "abc");
    victim_data(v)[4] = (uint8)((63 << 1) | 1);
}

static void
short_len_past_end_by_one(Victim *v)
{
    short_text(v, "abc");
    victim_data(v)[4] = (uint8)((5 << 1) | 1);
}

/* (int4, text of 200 bytes): 4-byte header at offset 4 */
static void
long_text(Victim *v)
{
    char s[201];

    memset(s, 'q', 200);
    s[200] = '\0';
    short_text(v, s);
}

static void
long_len_past_end(Victim *v)
{
    long_text(v);
    put_u32(victim_data(v) + 4, 1000u << 2);
}

static void
long_len_past_end_by_one(Victim *v)
{
    long_text(v);
    put_u32(victim_data(v) + 4, 205u << 2);
}

static void
long_len_below_header(Victim *v)
{
    long_text(v);
    put_u32(victim_data(v) + 4, 3u << 2);
}

static void
compressed_len_below_header(Victim *v)
{
    long_text(v);
    put_u32(victim_data(v) + 4, (5u << 2) | 0x02);
}

static void
long_header_cut(Victim *v)
{
    long_text(v);
    v->len = v->td->t_hoff + 4 + 2;
}

/* a zero byte where the varlena starts, then nothing: aligned past end */
static void
varlena_zero_at_end(Victim *v)
{
    victim_form(v, 3, (TypeKind[]){TK_BOOL, TK_INT2VECTOR, TK_BOOL},
                (Datum[]){1, tt_text(""), 1}, NULL);
    /* int2vector is PLAIN: 4-byte header at offset 4; cut before it,
     * leaving a 0 pad byte that makes the deformer align */
    v->len = v->td->t_hoff + 2;
}

static void
varlena_starts_past_end(Victim *v)
{
    short_text(v, "abc");
    v->len = v->td->t_hoff + 4;
}

/* (int4, text of 20 bytes): an external pointer in place of the text */
static void
external_unknown_tag(Victim *v)
{
    short_text(v, "abcdefghijklmnopqrst");
    victim_data(v)[4] = 0x01;
    victim_data(v)[5] = 7;
}

static void
external_tag_zero(Victim *v)
{
    short_text(v, "abcdefghijklmnopqrst");
    victim_data(v)[4] = 0x01;
    victim_data(v)[5] = 0;
}

static void
external_ondisk_truncated(Victim *v)
{
    short_text(v, "abcdefghij"); /* 11 bytes; an on-disk pointer needs 18 */
    victim_data(v)[4] = 0x01;
    victim_data(v)[5] = VARTAG_ONDISK;
}

static void
external_tag_byte_missing(Victim *v)
{
    short_text(v, "abcdefghij");
    victim_data(v)[4] = 0x01;
    v->len = v->td->t_hoff + 5;
}

/* (int4, cstring 'hello') with its NUL overwritten */
static void
cstring_unterminated(Victim *v)
{
    victim_form(v, 2, (TypeKind[]){TK_INT4, TK_CSTRING},
                (Datum[]){1, PointerGetDatum("hello")}, NULL);
    ((uint8 *)v->td)[v->len - 1] = 'x';
}

static void
cstring_starts_past_end(Victim *v)
{
    victim_form(v, 2, (TypeKind[]){TK_INT4, TK_CSTRING},
                (Datum[]){1, PointerGetDatum("hello")}, NULL);
    v->len = v->td->t_hoff + 4;
}

typedef struct CorruptCase {
    const char *label;
    void (*make)(Victim *v);
} CorruptCase;

static const CorruptCase corrupt_cases[] = {
    {"natts in infomask2 > descriptor natts", natts_plus_one},
    {"natts 2047", natts_max},
    {"t_hoff 16", hoff_too_small},
    {"t_hoff 32 without nulls", hoff_too_large},
    {"t_hoff 23", hoff_unaligned},
    {"t_hoff 0", hoff_zero},
    {"HASNULL cleared, bitmap present", hasnull_cleared},
    {"HASNULL set, no bitmap", hasnull_set_without_bitmap},
    {"t_len inside the bitmap", len_below_hoff},
    {"t_len cuts the fixed-width prefix", len_cuts_fixed_prefix},
    {"t_len one byte short", len_cuts_last_fixed_byte},
    {"t_len cuts a fixed column after a varlena", len_cuts_after_varlena},
    {"bitmap claims a column that is not there", bitmap_claims_more},
    {"1-byte varlena length past t_len", short_len_past_end},
    {"1-byte varlena length past t_len by one", short_len_past_end_by_one},
    {"4-byte varlena length past t_len", long_len_past_end},
    {"4-byte varlena length past t_len by one", long_len_past_end_by_one},
    {"4-byte header with length < 4", long_len_below_header},
    {"compressed header with length < 8", compressed_len_below_header},
    {"4-byte header cut by t_len", long_header_cut},
    {"pad byte, then the end", varlena_zero_at_end},
    {"varlena starts at t_len", varlena_starts_past_end},
    {"external pointer, unknown tag 7", external_unknown_tag},
    {"external pointer, tag 0", external_tag_zero},
    {"external on-disk pointer (tag 18) truncated", external_ondisk_truncated},
    {"external pointer, tag byte past t_len", external_tag_byte_missing},
    {"cstring without terminator", cstring_unterminated},
    {"cstring starts at t_len", cstring_starts_past_end},
};

/* Run every op on an exactly sized copy of v; each must raise XX001. */
static void
expect_all_ops_reject(Victim *v, const char *label, uint64 *rng)
{
    HeapTupleData tuple;
    OpArg arg;

    tuple.t_len = v->len;
    ItemPointerSetInvalid(&tuple.t_self);
    tuple.t_tableOid = InvalidOid;
    tuple.t_data = v->td;
    tuple = tt_exact_copy(&tuple);
    arg.tuple = &tuple;
    arg.desc = v->desc;
    arg.rng = rng;
    for (Size k = 0; k < lengthof(ops); k++) {
        int code = tt_catch(ops[k].run, &arg);

        if (code != ERRCODE_DATA_CORRUPTED)
            tt_fail("%s: %s %s%s%s", label, ops[k].name,
                    code == 0 ? "accepted it" : "raised ",
                    code == 0 ? "" : tt_sqlstate(code),
                    code == 0 ? "" : tt_caught_message);
        else if (strstr(tt_caught_message, "corrupted") == NULL)
            tt_fail("%s: %s: message \"%s\"", label, ops[k].name,
                    tt_caught_message);
    }
    tt_exact_free(&tuple);
}

TEST_BEGIN(test_handmade_corruptions)
{
    uint64 rng = tdb_test_seed();

    for (Size k = 0; k < lengthof(corrupt_cases); k++) {
        Victim v;

        corrupt_cases[k].make(&v);
        expect_all_ops_reject(&v, corrupt_cases[k].label, &rng);
    }
}
TEST_END

/* The same corruptions are fine before they are applied: the cases test
 * what they claim to. */
TEST_BEGIN(test_handmade_cases_valid_uncorrupted)
{
    uint64 rng = tdb_test_seed();
    Victim v;

    short_text(&v, "abc");
    {
        HeapTupleData tuple = {v.len, {{0, 0}, 0}, InvalidOid, v.td};
        HeapTupleData exact = tt_exact_copy(&tuple);
        OpArg arg = {&exact, v.desc, &rng};

        for (Size k = 0; k < lengthof(ops); k++)
            expect_int_eq(tt_catch(ops[k].run, &arg), 0);
        tt_exact_free(&exact);
    }
}
TEST_END

/* With a location, the message names the relation and the TID. */
TEST_BEGIN(test_corruption_message_names_tuple)
{
    Victim v;
    HeapTupleData tuple;
    HeapTupleData exact;
    OpArg arg;

    short_len_past_end(&v);
    tuple.t_len = v.len;
    ItemPointerSet(&tuple.t_self, 3, 4);
    tuple.t_tableOid = 16384;
    tuple.t_data = v.td;
    exact = tt_exact_copy(&tuple);
    arg.tuple = &exact;
    arg.desc = v.desc;
    arg.rng = NULL;
    expect_int_eq(tt_catch(op_verify, &arg), ERRCODE_DATA_CORRUPTED);
    expect_str_contains(tt_caught_message, "(3,4)");
    expect_str_contains(tt_caught_message, "16384");
    expect_str_contains(tt_caught_message, "column 2");
    tt_exact_free(&exact);
}
TEST_END

/*
 * t_len shorter than the 23-byte fixed header: t_infomask2, t_infomask and
 * t_hoff themselves lie outside the tuple and must not be read.  Only the
 * sanitizer builds can see such a read; the error code is checked in
 * every build.
 */
TEST_BEGIN(test_truncated_header)
{
    static const uint32 lens[] = {22, 20, 18, 8, 0};
    uint64 rng = tdb_test_seed();

    for (Size k = 0; k < lengthof(lens); k++) {
        Victim v;
        char label[48];

        corrupt_natts(&v, 2);
        v.len = lens[k];
        snprintf(label, sizeof(label), "t_len %u (header cut)", lens[k]);
        expect_all_ops_reject(&v, label, &rng);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * Random mutations
 * ---------------------------------------------------------------------- */

/* Does every value deformed from `tuple` lie inside its t_len bytes? */
static bool
values_inside(HeapTuple tuple, TupleDesc desc, const Datum *values,
              const bool *isnull, int *bad)
{
    const char *start = (const char *)tuple->t_data;
    const char *end = start + tuple->t_len;
    int natts = HeapTupleHeaderGetNatts(tuple->t_data);

    for (int i = 0; i < natts && i < desc->natts; i++) {
        const TupleAttr *att = TupleDescAttr(desc, i);
        const char *p = DatumGetPointer(values[i]);
        Size room, len;

        if (isnull[i] || att->attbyval)
            continue;
        *bad = i + 1;
        if (p < start || p >= end)
            return false;
        room = (Size)(end - p);
        if (att->attlen > 0)
            len = (Size)att->attlen;
        else if (att->attlen == -2)
            len = strnlen(p, room) + 1;
        else if (VARATT_IS_EXTERNAL(p) && room < 2)
            return false;
        else if (VARATT_IS_4B(p) && room < 4)
            return false;
        else
            len = VARSIZE_ANY(p);
        if (len == 0 || len > room)
            return false;
    }
    return true;
}

static const uint8 edge_bytes[] = {0x00, 0x01, 0x02, 0x03, 0x12,
                                   0x7F, 0x80, 0xFE, 0xFF};

/* Apply one random mutation to bytes[0..*len). */
static void
mutate(uint64 *rng, uint8 *bytes, uint32 *len)
{
    HeapTupleHeader td = (HeapTupleHeader)bytes;
    uint32 hoff = td->t_hoff < *len ? td->t_hoff : *len;
    uint32 pos;

    switch (tt_rand(rng, 9)) {
    case 0: /* flip a bit anywhere (the first 18 bytes are never read) */
        pos = (uint32)tt_rand(rng, *len);
        bytes[pos] ^= (uint8)(1u << tt_rand(rng, 8));
        break;
    case 1: /* overwrite a data byte */
        if (*len > hoff) {
            pos = hoff + (uint32)tt_rand(rng, *len - hoff);
            bytes[pos] = tt_chance(rng, 50)
                             ? edge_bytes[tt_rand(rng, sizeof(edge_bytes))]
                             : (uint8)tdb_test_rand(rng);
        }
        break;
    case 2: /* overwrite a header or bitmap byte */
        pos = 18 + (uint32)tt_rand(rng, hoff > 18 ? hoff - 18 : 1);
        bytes[pos] = (uint8)tdb_test_rand(rng);
        break;
    case 3: { /* natts */
        int natts = HeapTupleHeaderGetNatts(td);

        HeapTupleHeaderSetNatts(td, tt_chance(rng, 70)
                                        ? natts + (int)tt_rand(rng, 5) - 2
                                        : (int)tt_rand(rng, 2048));
        if (HeapTupleHeaderGetNatts(td) < 0)
            HeapTupleHeaderSetNatts(td, 0);
        break;
    }
    case 4: /* t_hoff */
        td->t_hoff = tt_chance(rng, 70) ? (uint8)(8 * tt_rand(rng, 8))
                                        : (uint8)tdb_test_rand(rng);
        break;
    case 5: /* infomask bits that matter to deforming */
        td->t_infomask ^= (uint16)(1u << tt_rand(rng, 3));
        break;
    case 6: /* plant a 4-byte varlena header */
        if (*len >= hoff + 4) {
            uint32 h = (uint32)tt_rand(rng, 400) << 2 | (uint32)tt_rand(rng, 4);

            pos = hoff + (uint32)tt_rand(rng, *len - hoff - 3);
            memcpy(bytes + pos, &h, 4);
        }
        break;
    case 7: /* plant an external pointer header */
        if (*len >= hoff + 2) {
            pos = hoff + (uint32)tt_rand(rng, *len - hoff - 1);
            bytes[pos] = 0x01;
            bytes[pos + 1] = tt_chance(rng, 50) ? (uint8)VARTAG_ONDISK
                                                : (uint8)tt_rand(rng, 20);
        }
        break;
    default: /* shrink t_len: mostly by a little, sometimes into the
              * 23-byte header itself */
        if (*len > 0) {
            uint32 cut = tt_chance(rng, 70) ? 1 + (uint32)tt_rand(rng, 8)
                                            : 1 + (uint32)tt_rand(rng, *len);

            *len = cut > *len ? 0 : *len - cut;
        }
        break;
    }
}

/* Outcome of one operation on one mutated tuple. */
static bool
run_op_expect_ok_or_corrupt(const Op *op, OpArg *arg, int iter, bool *ok)
{
    int code = tt_catch(op->run, arg);

    *ok = code == 0;
    if (code != 0 && code != ERRCODE_DATA_CORRUPTED) {
        tt_fail("mutation %d: %s raised %s (%s)", iter, op->name,
                tt_sqlstate(code), tt_caught_message);
        return false;
    }
    return true;
}

TEST_BEGIN(test_fuzz_mutations)
{
    uint64 rng = tdb_test_seed();
    int n = tt_under_valgrind() ? FUZZ_MUTATIONS / 10 : FUZZ_MUTATIONS;
    int accepted = 0, rejected = 0;
    MemoryContext cxt =
        tdb_aset_create(tdb_current_mcxt, "fuzz", ALLOCSET_DEFAULT_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(cxt);
    TupleDesc desc = NULL;
    HeapTuple valid = NULL;

    for (int iter = 0; iter < n && !tt_too_many_failures(); iter++) {
        uint8 *bytes;
        uint32 len;
        HeapTupleData tuple;
        OpArg arg;
        bool ok[lengthof(ops)];
        int nmut = 1 + (int)tt_rand(&rng, 4);

        if (iter % 16 == 0) {
            int natts = 1 + (int)tt_rand(&rng, 30);
            ColSpec *cols;
            Datum *values;
            bool *isnull;

            tdb_mcxt_reset(cxt);
            cols = tdb_palloc((Size)natts * sizeof(ColSpec));
            values = tdb_palloc((Size)natts * sizeof(Datum));
            isnull = tdb_palloc((Size)natts);
            tt_random_cols(&rng, cols, natts);
            tt_random_row(&rng, cols, natts, values, isnull);
            desc = tt_build_desc(cols, natts);
            valid = tdb_heap_form_tuple(desc, values, isnull);
        }

        len = valid->t_len;
        bytes = tdb_palloc(len);
        memcpy(bytes, valid->t_data, len);
        for (int m = 0; m < nmut; m++)
            mutate(&rng, bytes, &len);

        tuple.t_len = len;
        ItemPointerSet(&tuple.t_self, 1, (OffsetNumber)(1 + iter % 200));
        tuple.t_tableOid = 16384;
        tuple.t_data = (HeapTupleHeader)bytes;
        tuple = tt_exact_copy(&tuple);
        tdb_pfree(bytes);
        arg.tuple = &tuple;
        arg.desc = desc;
        arg.rng = &rng;

        for (Size k = 0; k < lengthof(ops); k++)
            if (!run_op_expect_ok_or_corrupt(&ops[k], &arg, iter, &ok[k]))
                ok[k] = false;
        for (Size k = 1; k < lengthof(ops); k++)
            if (ok[k] != ok[0]) {
                tt_fail("mutation %d: %s %s it, %s %s it", iter, ops[0].name,
                        ok[0] ? "accepted" : "rejected", ops[k].name,
                        ok[k] ? "accepted" : "rejected");
                break;
            }

        if (ok[0]) {
            Datum *values = tdb_palloc((Size)desc->natts * sizeof(Datum));
            bool *isnull = tdb_palloc((Size)desc->natts);
            int bad = 0;

            accepted++;
            tdb_heap_deform_tuple(&tuple, desc, values, isnull);
            if (!values_inside(&tuple, desc, values, isnull, &bad))
                tt_fail("mutation %d: accepted, but column %d lies outside "
                        "the tuple",
                        iter, bad);
        } else {
            rejected++;
        }
        tt_exact_free(&tuple);
    }
    printf("# %d mutations: %d accepted, %d rejected as corrupt\n",
           accepted + rejected, accepted, rejected);
    expect_u64_gt((uint64)accepted, 0);
    expect_u64_gt((uint64)rejected, 0);
    tdb_mcxt_switch_to(old);
    tdb_mcxt_delete(cxt);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "tuple_corrupt",
                     TEST_CASE(test_handmade_corruptions),
                     TEST_CASE(test_handmade_cases_valid_uncorrupted),
                     TEST_CASE(test_corruption_message_names_tuple),
                     TEST_CASE(test_fuzz_mutations),
                     /* last: under ASan a bad read aborts the binary */
                     TEST_CASE(test_truncated_header));
}
