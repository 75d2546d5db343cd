/*
 * heaptuple.c -- forming and deforming heap and minimal tuples.
 *
 * Forming (tdb_heap_form_tuple): decide whether there are NULLs, compute the
 * header size (23 bytes + bitmap, MAXALIGNed) and the data size, allocate
 * one zeroed chunk and fill it.  The data size needs no loop when there are
 * no NULLs and every column has a cached offset: it is the last column's
 * cached offset plus its length.  Varlenas with a 4-byte header whose data
 * fits in 126 bytes are rewritten with a 1-byte header (unless the column's
 * storage is PLAIN), exactly as PostgreSQL does, so the bytes match.
 *
 * Deforming (deform_range, behind tdb_heap_deform_tuple, _deform_some and
 * the slots) first turns the null bitmap into a bool array eight columns
 * at a time (no branch per column), then walks the columns by *uniform
 * runs*: maximal stretches of fixed-width columns with the same width,
 * by-value-ness and alignment (tdupdesc.h, attrunlen), e.g. the fifteen
 * int4 after a leading text column.  Inside a run every value keeps the
 * alignment, so a run costs one alignment, one bounds check and a loop
 * whose fetch is specialised by width -- whether the run starts at a cached
 * offset, after a varlena or after a NULL, which is where PostgreSQL's
 * deformer falls back to per-column work.  Variable-width columns are
 * aligned (by peeking at the pad byte), bounds-checked and measured one by
 * one.
 *
 * Before deform_range, deform_cached takes the common case alone: no
 * null bitmap and every wanted column at a cached offset, one header and
 * one bounds check for all of them, no frame for the general path.
 *
 * One column (tdb_heap_getattr, for a consumer that needs a single late
 * column and so should not deform the ones before it): a cached offset
 * when there are no NULLs; under a null bitmap, when the columns up to it
 * are one uniform run, the run's non-NULL columns before it counted from
 * the bitmap; after a short varlena first column and one run, its length
 * plus the run's columns; otherwise a walk that costs per run, not per
 * column (walk_to_attr).  Each fast path checks what check_header checks
 * and leaves anything unusual to the general path, which reports.
 *
 * The state between incremental calls is the number of valid columns and
 * the byte offset after the last non-null one.
 *
 * Every value read is checked to lie within t_len, every varlena header to
 * be well formed, and the header's t_hoff and attribute count to agree;
 * a violation raises ERRCODE_DATA_CORRUPTED.  A run pays one comparison,
 * a variable-width column one.
 */
#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "tuple/heaptuple.h"
#include "tuple/varlena.h"

/* ----------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------- */

TDB_NORETURN TDB_COLD TDB_PRINTF(2, 3) static void
tuple_corrupt(const HeapTupleData *tuple, const char *fmt, ...)
{
    char detail[256];
    va_list args;

    va_start(args, fmt);
    vsnprintf(detail, sizeof(detail), fmt, args);
    va_end(args);

    if (tuple != NULL && tuple->t_tableOid != InvalidOid &&
        ItemPointerIsValid(&tuple->t_self))
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("tuple (%u,%u) in relation %u is corrupted: %s",
                       ItemPointerGetBlockNumber(&tuple->t_self),
                       ItemPointerGetOffsetNumber(&tuple->t_self),
                       tuple->t_tableOid, detail));
    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("tuple is corrupted: %s", detail));
}

/* ----------------------------------------------------------------------
 * Forming
 * ---------------------------------------------------------------------- */

static bool
has_nulls(int natts, const bool *isnull)
{
    for (int i = 0; i < natts; i++)
        if (isnull[i])
            return true;
    return false;
}

/* Data-area bytes; has_null tells whether isnull has any true entry. */
static Size
compute_data_size(TupleDesc desc, const Datum *values, const bool *isnull,
                  bool has_null)
{
    Size len = 0;
    int natts = desc->natts;

    Assert(desc->first_noncached >= 0);
    if (!has_null && natts > 0 && desc->first_noncached == natts) {
        const CompactAttribute *last = &desc->compact_attrs[natts - 1];

        return (Size)last->attcacheoff + (Size)last->attlen;
    }

    for (int i = 0; i < natts; i++) {
        const CompactAttribute *c = &desc->compact_attrs[i];
        const void *ptr;

        if (isnull[i])
            continue;
        if (c->attlen > 0) {
            len = TYPEALIGN(c->attalignby, len) + (Size)c->attlen;
            continue;
        }
        ptr = DatumGetPointer(values[i]);
        if (c->attlen == -2) {
            len += strlen(ptr) + 1;
        } else if ((c->attflags & ATTR_PACKABLE) &&
                   VARATT_CAN_MAKE_SHORT(ptr)) {
            len += VARATT_CONVERTED_SHORT_SIZE(ptr);
        } else if (VARATT_IS_1B(ptr)) {
            len += VARSIZE_ANY(ptr); /* short or external: unaligned */
        } else {
            len = TYPEALIGN(c->attalignby, len) + VARSIZE_4B(ptr);
        }
    }
    return len;
}

Size
tdb_heap_compute_data_size(TupleDesc desc, const Datum *values,
                           const bool *isnull)
{
    return compute_data_size(desc, values, isnull,
                             has_nulls(desc->natts, isnull));
}

/* Store the width-byte value of a by-value Datum at p. */
static inline void
store_byval(char *p, Datum value, int16 attlen)
{
    switch (attlen) {
    case 1:
        *(int8 *)p = (int8)value;
        break;
    case 2: {
        int16 v = (int16)value;

        memcpy(p, &v, 2);
        break;
    }
    case 4: {
        int32 v = (int32)value;

        memcpy(p, &v, 4);
        break;
    }
    default:
        memcpy(p, &value, 8);
        break;
    }
}

/* Write one non-null value at data + *off, advancing *off. */
static void
fill_one(const CompactAttribute *c, Datum value, char *data, Size *off,
         uint16 *infomask)
{
    const char *ptr;
    Size len;

    if (c->attflags & ATTR_BYVAL) {
        *off = TYPEALIGN(c->attalignby, *off);
        store_byval(data + *off, value, c->attlen);
        *off += (Size)c->attlen;
        return;
    }
    ptr = DatumGetPointer(value);
    if (c->attlen > 0) {
        *off = TYPEALIGN(c->attalignby, *off);
        memcpy(data + *off, ptr, (Size)c->attlen);
        *off += (Size)c->attlen;
        return;
    }
    *infomask |= HEAP_HASVARWIDTH;
    if (c->attlen == -2) {
        len = strlen(ptr) + 1;
        memcpy(data + *off, ptr, len);
    } else if (VARATT_IS_EXTERNAL(ptr)) {
        *infomask |= HEAP_HASEXTERNAL;
        len = VARSIZE_ANY(ptr);
        memcpy(data + *off, ptr, len);
    } else if (VARATT_IS_SHORT(ptr)) {
        len = VARSIZE_1B(ptr);
        memcpy(data + *off, ptr, len);
    } else if ((c->attflags & ATTR_PACKABLE) && VARATT_CAN_MAKE_SHORT(ptr)) {
        len = VARATT_CONVERTED_SHORT_SIZE(ptr);
        SET_VARSIZE_SHORT(data + *off, len);
        memcpy(data + *off + 1, VARDATA(ptr), len - 1);
    } else {
        *off = TYPEALIGN(c->attalignby, *off);
        len = VARSIZE_4B(ptr);
        memcpy(data + *off, ptr, len);
    }
    *off += len;
}

void
tdb_heap_fill_tuple(TupleDesc desc, const Datum *values, const bool *isnull,
                    char *data, Size data_size, uint16 *infomask, bits8 *bits)
{
    Size off = 0;
    int natts = desc->natts;

    *infomask &= (uint16) ~(HEAP_HASNULL | HEAP_HASVARWIDTH | HEAP_HASEXTERNAL);

    if (bits == NULL && natts > 0 && desc->first_noncached == natts) {
        /* All fixed width, no NULLs: every column at its cached offset. */
        for (int i = 0; i < natts; i++) {
            const CompactAttribute *c = &desc->compact_attrs[i];

            if (c->attflags & ATTR_BYVAL)
                store_byval(data + c->attcacheoff, values[i], c->attlen);
            else
                memcpy(data + c->attcacheoff, DatumGetPointer(values[i]),
                       (Size)c->attlen);
        }
        off = data_size;
    } else {
        for (int i = 0; i < natts; i++) {
            if (bits != NULL) {
                if (isnull[i]) {
                    *infomask |= HEAP_HASNULL;
                    continue;
                }
                bits[i >> 3] |= (bits8)(1 << (i & 7));
            }
            fill_one(&desc->compact_attrs[i], values[i], data, &off,
                     infomask);
        }
    }
    if (off != data_size)
        elog(ERROR, "tuple fill wrote %zu bytes, %zu computed", off,
             data_size);
}

/* Header length (before MAXALIGN) of a tuple with natts and nulls. */
static inline Size
header_length(Size base, int natts, bool has_null)
{
    return base + (has_null ? (Size)BITMAPLEN(natts) : 0);
}

HeapTuple
tdb_heap_form_tuple(TupleDesc desc, const Datum *values, const bool *isnull)
{
    int natts = desc->natts;
    bool has_null = has_nulls(natts, isnull);
    Size hoff = MAXALIGN(header_length(SizeofHeapTupleHeader, natts,
                                       has_null));
    Size data_len = compute_data_size(desc, values, isnull, has_null);
    Size len = hoff + data_len;
    HeapTuple tuple;
    HeapTupleHeader td;

    if (natts > MaxTupleAttributeNumber)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("number of columns (%d) exceeds limit (%d)", natts,
                       MaxTupleAttributeNumber));
    if (len > MaxTupleSize)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("row is too big: size %zu, maximum size %zu", len,
                       MaxTupleSize));

    tuple = tdb_palloc0(HEAPTUPLESIZE + len);
    td = (HeapTupleHeader)((char *)tuple + HEAPTUPLESIZE);
    tuple->t_len = (uint32)len;
    ItemPointerSetInvalid(&tuple->t_self);
    tuple->t_tableOid = InvalidOid;
    tuple->t_data = td;

    /* The composite-Datum overlay; insertion overwrites it. */
    SET_VARSIZE(&td->t_choice.t_datum.datum_len_, len);
    td->t_choice.t_datum.datum_typmod = desc->tdtypmod;
    td->t_choice.t_datum.datum_typeid = desc->tdtypeid;
    ItemPointerSetInvalid(&td->t_ctid);
    HeapTupleHeaderSetNatts(td, natts);
    td->t_hoff = (uint8)hoff;

    tdb_heap_fill_tuple(desc, values, isnull, (char *)td + hoff, data_len,
                        &td->t_infomask, has_null ? td->t_bits : NULL);
    return tuple;
}

MinimalTuple
tdb_heap_form_minimal_tuple(TupleDesc desc, const Datum *values,
                            const bool *isnull, Size extra)
{
    int natts = desc->natts;
    bool has_null = has_nulls(natts, isnull);
    Size hoff = MAXALIGN(header_length(SizeofMinimalTupleHeader, natts,
                                       has_null));
    Size data_len = compute_data_size(desc, values, isnull, has_null);
    Size len = hoff + data_len;
    MinimalTuple mtup;
    char *mem;

    extra = MAXALIGN(extra);
    if (len > MaxTupleSize)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("row is too big: size %zu, maximum size %zu", len,
                       MaxTupleSize));
    mem = tdb_palloc0(extra + len);
    mtup = (MinimalTuple)(mem + extra);
    mtup->t_len = (uint32)len;
    mtup->t_infomask2 = (uint16)natts;
    mtup->t_hoff = (uint8)(hoff + MINIMAL_TUPLE_OFFSET);
    tdb_heap_fill_tuple(desc, values, isnull, (char *)mtup + hoff, data_len,
                        &mtup->t_infomask, has_null ? mtup->t_bits : NULL);
    return mtup;
}

HeapTuple
tdb_heap_copy_tuple(HeapTuple tuple)
{
    HeapTuple copy = tdb_palloc(HEAPTUPLESIZE + tuple->t_len);

    copy->t_len = tuple->t_len;
    copy->t_self = tuple->t_self;
    copy->t_tableOid = tuple->t_tableOid;
    copy->t_data = (HeapTupleHeader)((char *)copy + HEAPTUPLESIZE);
    memcpy(copy->t_data, tuple->t_data, tuple->t_len);
    return copy;
}

MinimalTuple
tdb_minimal_tuple_copy(MinimalTuple mtup)
{
    MinimalTuple copy = tdb_palloc(mtup->t_len);

    memcpy(copy, mtup, mtup->t_len);
    return copy;
}

MinimalTuple
tdb_minimal_tuple_from_heap(HeapTuple tuple)
{
    uint32 len = tuple->t_len - (uint32)MINIMAL_TUPLE_OFFSET;
    MinimalTuple mtup = tdb_palloc(len);

    memcpy(mtup, (char *)tuple->t_data + MINIMAL_TUPLE_OFFSET, len);
    memset(mtup, 0, offsetof(MinimalTupleData, t_infomask2));
    mtup->t_len = len;
    return mtup;
}

HeapTuple
tdb_heap_tuple_from_minimal(MinimalTuple mtup)
{
    uint32 len = mtup->t_len + (uint32)MINIMAL_TUPLE_OFFSET;
    HeapTuple tuple = tdb_palloc(HEAPTUPLESIZE + len);

    tuple->t_len = len;
    ItemPointerSetInvalid(&tuple->t_self);
    tuple->t_tableOid = InvalidOid;
    tuple->t_data = (HeapTupleHeader)((char *)tuple + HEAPTUPLESIZE);
    memcpy((char *)tuple->t_data + MINIMAL_TUPLE_OFFSET, mtup, mtup->t_len);
    memset(tuple->t_data, 0, offsetof(HeapTupleHeaderData, t_infomask2));
    return tuple;
}

/* ----------------------------------------------------------------------
 * Deforming
 * ---------------------------------------------------------------------- */

/* The Datum of a fixed-width value at p (sign-extended by-value ints). */
static TDB_ALWAYS_INLINE Datum
fetch_fixed(const char *p, const CompactAttribute *c)
{
    if (c->attflags & ATTR_BYVAL) {
        switch (c->attlen) {
        case 1:
            return (Datum)(int64)*(const int8 *)p;
        case 2: {
            int16 v;

            memcpy(&v, p, 2);
            return (Datum)(int64)v;
        }
        case 4: {
            int32 v;

            memcpy(&v, p, 4);
            return (Datum)(int64)v;
        }
        default: {
            int64 v;

            memcpy(&v, p, 8);
            return (Datum)v;
        }
        }
    }
    return PointerGetDatum(p);
}

/*
 * Spread bitmap bytes into bool "is null" entries: entries [8*b, 8*b+8)
 * for every bitmap byte b covering columns [from, to).  A set bit means
 * NOT null.  Each byte becomes 8 bools with two multiplications (one per
 * nibble: 0x204081 moves nibble bit k to bit 8k with no carries) and one
 * 8-byte store, so there is no branch per column.  Entries up to
 * `capacity` may be written; a byte straddling capacity is done one entry
 * at a time.
 */
static void
spread_null_bitmap(const bits8 *bits, int from, int to, bool *isnull,
                   int capacity)
{
    for (int b = from >> 3; b * 8 < to; b++) {
        uint32 n = (uint8)~bits[b];

        if (b * 8 + 8 <= capacity) {
            uint64 lo = ((uint64)((n & 0xF) * 0x204081u)) & 0x01010101u;
            uint64 hi = ((uint64)((n >> 4) * 0x204081u)) & 0x01010101u;
            uint64 spread = lo | (hi << 32);

            memcpy(&isnull[b * 8], &spread, 8);
        } else {
            for (int i = b * 8; i < capacity && i < b * 8 + 8; i++)
                isnull[i] = (n >> (i & 7)) & 1;
        }
    }
}

/*
 * isnull[from, to) = false with 8-byte stores where the capacity allows.
 * Not memset: its 16- and 32-byte vector stores cannot be forwarded to
 * the one-byte loads that read isnull[] right afterwards, which stalled
 * every no-NULL deform for about 20 cycles (in-cache timing: 30 ns per
 * 16-column tuple with memset, versus 22 ns with a NULL and the 8-byte
 * stores of the bitmap spread).
 */
static inline void
clear_isnull(bool *isnull, int from, int to, int capacity)
{
    int i = from;

    for (; i < to && i + 8 <= capacity; i += 8) {
        uint64 zeros = 0;

        memcpy(isnull + i, &zeros, 8);
    }
    for (; i < to; i++)
        isnull[i] = false;
}

/* First NULL column in [from, to) according to the bitmap, else to. */
static inline int
first_null_attr(const bits8 *bits, int from, int to)
{
    int b = from >> 3;
    uint32 inv;

    if (from >= to)
        return to;
    inv = (uint8)~bits[b] & (0xFFu << (from & 7));
    while (inv == 0) {
        b++;
        if (b * 8 >= to)
            return to;
        inv = (uint8)~bits[b];
    }
    from = b * 8 + __builtin_ctz(inv);
    return from < to ? from : to;
}

Datum
tdb_heap_missing_attr(TupleDesc desc, int i, bool *isnull)
{
    if (desc->constr && desc->constr->missing &&
        desc->constr->missing[i].am_present) {
        *isnull = false;
        return desc->constr->missing[i].am_value;
    }
    *isnull = true;
    return (Datum)0;
}

/* Validate the header; returns the tuple's natts. */
static inline int
check_header(const HeapTupleData *tuple, TupleDesc desc)
{
    const HeapTupleHeaderData *tup = tuple->t_data;
    int tup_natts;
    Size expected_hoff;

    if (unlikely(tuple->t_len < SizeofHeapTupleHeader))
        tuple_corrupt(tuple, "its length %u is shorter than a tuple header",
                      tuple->t_len);
    tup_natts = HeapTupleHeaderGetNatts(tup);
    if (unlikely(tup_natts > desc->natts))
        tuple_corrupt(tuple, "it has %d attributes, its table only %d",
                      tup_natts, desc->natts);
    expected_hoff = MAXALIGN(header_length(SizeofHeapTupleHeader, tup_natts,
                                           HeapTupleHeaderHasNulls(tup)));
    if (unlikely(tup->t_hoff != expected_hoff || tuple->t_len < expected_hoff))
        tuple_corrupt(tuple, "t_hoff is %u (expected %zu) in %u bytes",
                      tup->t_hoff, expected_hoff, tuple->t_len);
    return tup_natts;
}

/*
 * Length of the varlena at tp + off (data_len bytes available in all),
 * validating its header; returns the total size, header included.
 */
static Size
varlena_length_checked(const HeapTupleData *tuple, int attnum,
                       const char *tp, Size off, Size data_len)
{
    uint8 first = (uint8)tp[off];
    Size len;

    if (first == 0x01) { /* external pointer */
        int payload;

        if (off + VARHDRSZ_EXTERNAL > data_len)
            tuple_corrupt(tuple, "column %d runs past the end of the tuple",
                          attnum + 1);
        payload = tdb_vartag_payload_size((uint8)tp[off + 1]);
        if (payload < 0)
            tuple_corrupt(tuple, "column %d has unknown varlena tag %u",
                          attnum + 1, (uint8)tp[off + 1]);
        len = VARHDRSZ_EXTERNAL + (Size)payload;
    } else if (first & 0x01) {
        len = (Size)(first >> 1);
    } else {
        if (off + VARHDRSZ > data_len)
            tuple_corrupt(tuple, "column %d runs past the end of the tuple",
                          attnum + 1);
        len = VARSIZE_4B(tp + off);
        if (len < (VARATT_IS_4B_C(tp + off) ? (Size)VARHDRSZ_COMPRESSED
                                            : (Size)VARHDRSZ))
            tuple_corrupt(tuple, "column %d has an invalid varlena length %zu",
                          attnum + 1, len);
    }
    if (len > data_len - off)
        tuple_corrupt(tuple,
                      "column %d (%zu bytes at offset %zu) runs past the end "
                      "of the tuple (%zu data bytes)",
                      attnum + 1, len, off, data_len);
    return len;
}

/*
 * Align, bounds-check and measure the non-null column attnum, whose bytes
 * start at or after *off; sets *off to its start and returns its length.
 */
static TDB_ALWAYS_INLINE Size
locate_value(const HeapTupleData *tuple, const CompactAttribute *c,
             int attnum, const char *tp, Size *off, Size data_len)
{
    Size len;

    if (c->attlen > 0) {
        *off = TYPEALIGN(c->attalignby, *off);
        len = (Size)c->attlen;
        if (unlikely(*off + len > data_len))
            tuple_corrupt(tuple, "column %d runs past the end of the tuple",
                          attnum + 1);
        return len;
    }
    if (unlikely(*off >= data_len))
        tuple_corrupt(tuple, "column %d starts past the end of the tuple",
                      attnum + 1);
    if (c->attlen == -1) {
        /* 0 is a pad byte or an aligned 4-byte header: align */
        if (tp[*off] == 0) {
            *off = TYPEALIGN(c->attalignby, *off);
            if (unlikely(*off >= data_len))
                tuple_corrupt(tuple,
                              "column %d starts past the end of the tuple",
                              attnum + 1);
        }
        return varlena_length_checked(tuple, attnum, tp, *off, data_len);
    }
    len = strnlen(tp + *off, data_len - *off);
    if (unlikely(len == data_len - *off))
        tuple_corrupt(tuple, "column %d has an unterminated string",
                      attnum + 1);
    return len + 1;
}

/*
 * Deform n non-NULL columns of one uniform run (tupdesc.h: same width,
 * by-value-ness and alignment, width a multiple of the alignment) starting
 * at column attnum, whose first byte is at or after *off.  Every value
 * keeps the alignment, so one alignment and one bounds check serve them
 * all and the fetch is specialised by width outside the loop: the loop
 * body is one load and one store.
 */
static TDB_ALWAYS_INLINE void
deform_fixed_segment(const HeapTupleData *tuple, const CompactAttribute *c,
                     int attnum, int n, const char *tp, Size data_len,
                     Size *off, Datum *values)
{
    Size len = (Size)c->attlen;
    Size pos = TYPEALIGN(c->attalignby, *off);
    const char *p = tp + pos;

    if (unlikely(pos + (Size)n * len > data_len)) {
        /* Near the end of the tuple: check column by column (and report). */
        for (int k = 0; k < n; k++) {
            (void)locate_value(tuple, c, attnum + k, tp, off, data_len);
            values[k] = fetch_fixed(tp + *off, c);
            *off += len;
        }
        return;
    }
    switch ((c->attflags & ATTR_BYVAL) ? c->attlen : 0) {
    case 1:
        for (int k = 0; k < n; k++)
            values[k] = (Datum)(int64)((const int8 *)p)[k];
        break;
    case 2:
        for (int k = 0; k < n; k++) {
            int16 v;

            memcpy(&v, p + 2 * k, 2);
            values[k] = (Datum)(int64)v;
        }
        break;
    case 4:
        for (int k = 0; k < n; k++) {
            int32 v;

            memcpy(&v, p + 4 * k, 4);
            values[k] = (Datum)(int64)v;
        }
        break;
    case 8:
        for (int k = 0; k < n; k++)
            memcpy(&values[k], p + 8 * k, 8);
        break;
    default:
        for (int k = 0; k < n; k++)
            values[k] = PointerGetDatum(p + (Size)k * len);
        break;
    }
    *off = pos + (Size)n * len;
}

/*
 * The deformer: extend values/isnull of `tuple` to columns [state->nvalid,
 * natts_wanted).  isnull_capacity is how many isnull entries may be written
 * (the bitmap is spread 8 at a time).
 */
static TDB_ALWAYS_INLINE void
deform_range(const HeapTupleData *tuple, TupleDesc desc, Datum *values,
             bool *isnull, int isnull_capacity, DeformState *state,
             int natts_wanted)
{
    const HeapTupleHeaderData *tup = tuple->t_data;
    int attnum = state->nvalid;
    int tup_natts = check_header(tuple, desc);
    bool hasnulls = HeapTupleHeaderHasNulls(tup);
    const char *tp = (const char *)tup + tup->t_hoff;
    Size data_len = tuple->t_len - tup->t_hoff;
    int natts = tup_natts < natts_wanted ? tup_natts : natts_wanted;
    Size off = state->off;
    int first_null;

    if (attnum < natts) {
        if (natts <= desc->first_nonguaranteed &&
            (!hasnulls || first_null_attr(tup->t_bits, attnum, natts) == natts)) {
            /*
             * Only NOT NULL fixed-width columns wanted: no bitmap to spread.
             * The bitmap is still consulted when present, so a tuple that
             * breaks the constraint takes the general path instead of
             * yielding garbage.
             */
            clear_isnull(isnull, attnum, natts, isnull_capacity);
            first_null = natts;
        } else if (hasnulls) {
            spread_null_bitmap(tup->t_bits, attnum, natts, isnull,
                               isnull_capacity);
            first_null = -1; /* found lazily, from the first non-NULL */
        } else {
            clear_isnull(isnull, attnum, natts, isnull_capacity);
            first_null = natts;
        }

        while (attnum < natts) {
            const CompactAttribute *c = &desc->compact_attrs[attnum];

            if (c->attlen > 0) {
                /*
                 * A uniform run, cut at its NULLs into segments of
                 * non-NULL values.  NULLs take no space and the run's
                 * alignment survives them, so each segment is one
                 * deform_fixed_segment call.
                 */
                int run_end = attnum + c->attrunlen;

                if (run_end > natts)
                    run_end = natts;
                while (attnum < run_end) {
                    int seg_end;

                    if (isnull[attnum]) {
                        values[attnum++] = (Datum)0;
                        continue;
                    }
                    if (first_null < attnum)
                        first_null = first_null_attr(tup->t_bits, attnum,
                                                     natts);
                    seg_end = first_null < run_end ? first_null : run_end;
                    deform_fixed_segment(tuple, c, attnum, seg_end - attnum,
                                         tp, data_len, &off, values + attnum);
                    attnum = seg_end;
                }
            } else {
                Size len;

                if (isnull[attnum]) {
                    values[attnum++] = (Datum)0;
                    continue;
                }
                len = locate_value(tuple, c, attnum, tp, &off, data_len);
                values[attnum++] = PointerGetDatum(tp + off);
                off += len;
            }
        }
    }

    /* Columns the tuple does not have (ADD COLUMN). */
    for (; attnum < natts_wanted; attnum++)
        values[attnum] = tdb_heap_missing_attr(desc, attnum, &isnull[attnum]);

    state->nvalid = attnum;
    state->off = (uint32)off;
}

/*
 * The fast path of deforming: no null bitmap and every wanted column at
 * a cached offset (tupdesc.h: the leading fixed-width columns), so every
 * value's place is known without walking.  One header and one bounds
 * check cover all of them (the last wanted column ends inside the
 * data); each uniform run is one loop specialised by width
 * (deform_fixed_segment, starting at the run's cached offset).  Returns
 * false, having written nothing, when the tuple does not qualify
 * (NULLs, fewer attributes than wanted, a header deform_range would
 * reject): deform_range then handles -- and reports -- it.
 */
static TDB_ALWAYS_INLINE bool
deform_cached(const HeapTupleData *tuple, TupleDesc desc, Datum *values,
              bool *isnull, int isnull_capacity, DeformState *state,
              int natts)
{
    const HeapTupleHeaderData *tup = tuple->t_data;
    const Size hoff = MAXALIGN(SizeofHeapTupleHeader);
    int attnum = state->nvalid;
    int tup_natts;
    const CompactAttribute *last;
    const char *tp;
    Size end;

    /* the length first: a shorter tuple's header must not be read */
    if (tuple->t_len < hoff || natts > desc->first_noncached)
        return false;
    tup_natts = HeapTupleHeaderGetNatts(tup);
    if (HeapTupleHeaderHasNulls(tup) || natts > tup_natts ||
        tup_natts > desc->natts || tup->t_hoff != hoff)
        return false;
    last = &desc->compact_attrs[natts - 1];
    end = (Size)last->attcacheoff + (Size)last->attlen;
    if (end > tuple->t_len - hoff)
        return false;
    tp = (const char *)tup + hoff;
    clear_isnull(isnull, attnum, natts, isnull_capacity);
    while (attnum < natts) {
        const CompactAttribute *c = &desc->compact_attrs[attnum];
        int n = natts - attnum < c->attrunlen ? natts - attnum : c->attrunlen;
        Size off = (Size)c->attcacheoff;

        /* in bounds by the check above: its fallback never runs */
        deform_fixed_segment(tuple, c, attnum, n, tp, end, &off,
                             values + attnum);
        attnum += n;
    }
    state->nvalid = natts;
    state->off = (uint32)end;
    return true;
}

/* The general deformer, out of line so the fast path needs no frame. */
TDB_NOINLINE static void
deform_general(HeapTuple tuple, TupleDesc desc, Datum *values, bool *isnull,
               int isnull_capacity, DeformState *state, int natts)
{
    deform_range(tuple, desc, values, isnull, isnull_capacity, state, natts);
}

void
tdb_heap_deform_tuple(HeapTuple tuple, TupleDesc desc, Datum *values,
                      bool *isnull)
{
    DeformState state = DEFORM_STATE_INIT;

    if (desc->natts == 0 ||
        !deform_cached(tuple, desc, values, isnull, desc->natts, &state,
                       desc->natts))
        deform_general(tuple, desc, values, isnull, desc->natts, &state,
                       desc->natts);
}

void
tdb_heap_deform_some(HeapTuple tuple, TupleDesc desc, Datum *values,
                     bool *isnull, DeformState *state, int natts)
{
    int capacity = (int)TYPEALIGN(8, desc->natts);

    if (unlikely(natts > desc->natts))
        elog(ERROR, "cannot extract attribute %d of a %d-column tuple", natts,
             desc->natts);
    if (natts <= state->nvalid)
        return;
    if (!deform_cached(tuple, desc, values, isnull, capacity, state, natts))
        deform_general(tuple, desc, values, isnull, capacity, state, natts);
}

/* Set bits per byte value (the baseline x86-64 ISA has no popcnt, and
 * __builtin_popcount became a call into libgcc). */
static const uint8 popcount8[256] = {
#define P2(n) n, n + 1, n + 1, n + 2
#define P4(n) P2(n), P2(n + 1), P2(n + 1), P2(n + 2)
#define P6(n) P4(n), P4(n + 1), P4(n + 1), P4(n + 2)
    P6(0), P6(1), P6(1), P6(2)
#undef P2
#undef P4
#undef P6
};

/*
 * Number of non-NULL columns in [from, to) according to the bitmap: the
 * partial first and last bytes masked, whole bytes between, a table
 * lookup per byte.
 */
static TDB_ALWAYS_INLINE int
count_nonnull(const bits8 *bits, int from, int to)
{
    int b = from >> 3;
    int last = (to - 1) >> 3;
    uint32 first_mask = 0xFFu << (from & 7);
    uint32 last_mask = 0xFFu >> (7 - ((to - 1) & 7));
    int count;

    if (from >= to)
        return 0;
    if (b == last)
        return popcount8[bits[b] & first_mask & last_mask];
    count = popcount8[bits[b] & first_mask];
    for (b++; b < last; b++)
        count += popcount8[bits[b]];
    return count + popcount8[bits[last] & last_mask];
}

/*
 * Data offset of column target (not NULL), walking from column 0 a uniform
 * run at a time: a run's non-NULL values are counted from the bitmap and
 * skipped with one multiplication, so the walk costs per run and per
 * variable-width column, not per column.
 */
static Size
walk_to_attr(const HeapTupleData *tuple, TupleDesc desc, int target,
             const char *tp, Size data_len, bool hasnulls)
{
    const bits8 *bits = tuple->t_data->t_bits;
    Size off = 0;
    int i = 0;

    while (i < target) {
        const CompactAttribute *c = &desc->compact_attrs[i];

        if (c->attlen > 0) {
            int n = target - i < c->attrunlen ? target - i : c->attrunlen;
            int present = hasnulls ? count_nonnull(bits, i, i + n) : n;

            if (present > 0)
                off = TYPEALIGN(c->attalignby, off) +
                      (Size)present * (Size)c->attlen;
            i += n;
        } else {
            if (!hasnulls || !att_isnull(i, bits)) {
                Size len = locate_value(tuple, c, i, tp, &off, data_len);

                off += len;
            }
            i++;
        }
    }
    (void)locate_value(tuple, &desc->compact_attrs[target], target, tp, &off,
                       data_len);
    return off;
}

/* tdb_heap_getattr's general path: checks, NULLs, walking. */
TDB_NOINLINE static Datum
getattr_slow(HeapTuple tuple, int attnum, TupleDesc desc, bool *isnull)
{
    const HeapTupleHeaderData *tup = tuple->t_data;
    int i = attnum - 1;
    int tup_natts;
    bool hasnulls;
    const CompactAttribute *c;
    const char *tp;
    Size data_len, off;

    if (attnum <= 0 || attnum > desc->natts)
        elog(ERROR, "invalid attribute number %d", attnum);
    tup_natts = check_header(tuple, desc);
    if (i >= tup_natts)
        return tdb_heap_missing_attr(desc, i, isnull);
    hasnulls = HeapTupleHeaderHasNulls(tup);
    if (hasnulls && att_isnull(i, tup->t_bits)) {
        *isnull = true;
        return (Datum)0;
    }
    *isnull = false;
    c = &desc->compact_attrs[i];
    tp = (const char *)tup + tup->t_hoff;
    data_len = tuple->t_len - tup->t_hoff;

    if (c->attcacheoff >= 0 &&
        (!hasnulls || first_null_attr(tup->t_bits, 0, i) == i)) {
        if (unlikely((Size)c->attcacheoff + (Size)c->attlen > data_len))
            tuple_corrupt(tuple, "column %d runs past the end of the tuple",
                          attnum);
        return fetch_fixed(tp + c->attcacheoff, c);
    }
    off = walk_to_attr(tuple, desc, i, tp, data_len, hasnulls);
    return fetch_fixed(tp + off, c);
}

/*
 * getattr with a null bitmap, when every column up to attnum is of one
 * uniform run starting at column 1 (the same fixed width and alignment,
 * e.g. a table of int4 with some NULLs): the value lies after the
 * run's non-NULL columns before it, counted from the bitmap.  The
 * header checks are check_header's; NULL, anything else or any doubt
 * goes to getattr_slow.  About 40 instructions where walk_to_attr's
 * general loop took 180 (callgrind, `SELECT sum(c16)` with c1 NULL).
 */
static TDB_ALWAYS_INLINE bool
nulls_one_run(const HeapTupleData *tuple, int attnum, TupleDesc desc,
              Datum *value)
{
    const HeapTupleHeaderData *tup = tuple->t_data;
    int i = attnum - 1;
    const CompactAttribute *c = &desc->compact_attrs[i];
    int tup_natts = HeapTupleHeaderGetNatts(tup);
    Size hoff = MAXALIGN(SizeofHeapTupleHeader + BITMAPLEN(tup_natts));
    Size off;

    if (c->attcacheoff >= 0 && desc->compact_attrs[0].attrunlen > i &&
        i < tup_natts && tup_natts <= desc->natts && tup->t_hoff == hoff &&
        tuple->t_len >= hoff && !att_isnull(i, tup->t_bits)) {
        off = (Size)count_nonnull(tup->t_bits, 0, i) * (Size)c->attlen;
        if (off + (Size)c->attlen <= tuple->t_len - hoff) {
            *value = fetch_fixed((const char *)tup + hoff + off, c);
            return true;
        }
    }
    return false;
}

TDB_NOINLINE static Datum
getattr_nulls_one_run(HeapTuple tuple, int attnum, TupleDesc desc,
                      bool *isnull)
{
    Datum value;

    if (nulls_one_run(tuple, attnum, desc, &value)) {
        *isnull = false;
        return value;
    }
    return getattr_slow(tuple, attnum, desc, isnull);
}

/*
 * getattr without NULLs when column 1 is a varlena with a 1-byte header
 * (short text) and columns 2 .. attnum are one uniform run: the value
 * lies at the run's alignment after the varlena, plus the run's columns
 * before it.  The shape of a table keyed by a short text; like
 * getattr_nulls_one_run, anything else goes to getattr_slow.  About 35
 * instructions where the general walk took 150 (callgrind, `SELECT
 * sum(c16)` with a text c1).
 */
static TDB_ALWAYS_INLINE bool
after_short_varlena(const HeapTupleData *tuple, int attnum, TupleDesc desc,
                    Datum *value)
{
    const HeapTupleHeaderData *tup = tuple->t_data;
    const Size hoff = MAXALIGN(SizeofHeapTupleHeader);
    int i = attnum - 1;
    const CompactAttribute *c = &desc->compact_attrs[i];
    int tup_natts = HeapTupleHeaderGetNatts(tup);
    Size data_len, len0, off;
    uint8 first;

    if (i >= 1 && desc->compact_attrs[0].attlen == -1 && c->attlen > 0 &&
        desc->compact_attrs[1].attrunlen >= i && i < tup_natts &&
        tup_natts <= desc->natts && !HeapTupleHeaderHasNulls(tup) &&
        tup->t_hoff == hoff && tuple->t_len > hoff) {
        data_len = tuple->t_len - hoff;
        first = *((const uint8 *)tup + hoff);
        /* a 1-byte header: low bit set, and not 0x01 (external) */
        if ((first & 0x01) && first != 0x01) {
            len0 = (Size)(first >> 1);
            off = TYPEALIGN(c->attalignby, len0) + (Size)(i - 1) * c->attlen;
            if (len0 <= data_len && off + (Size)c->attlen <= data_len) {
                *value = fetch_fixed((const char *)tup + hoff + off, c);
                return true;
            }
        }
    }
    return false;
}

TDB_NOINLINE static Datum
getattr_after_short_varlena(HeapTuple tuple, int attnum, TupleDesc desc,
                            bool *isnull)
{
    Datum value;

    if (after_short_varlena(tuple, attnum, desc, &value)) {
        *isnull = false;
        return value;
    }
    return getattr_slow(tuple, attnum, desc, isnull);
}

/*
 * getattr without NULLs of the first varlena column when every column
 * before it is fixed width (a text after an id): it starts where they
 * end, or at its alignment if the byte there is zero (padding before a
 * 4-byte header; a 1-byte or external header is never zero and never
 * aligned) -- the walk's own rule.  A value that does not fit the tuple
 * goes to getattr_slow, which reports it.
 */
TDB_NOINLINE static Datum
getattr_first_varlena(HeapTuple tuple, int attnum, TupleDesc desc,
                      bool *isnull)
{
    const HeapTupleHeaderData *tup = tuple->t_data;
    const Size hoff = MAXALIGN(SizeofHeapTupleHeader);
    int i = attnum - 1;
    const CompactAttribute *c = &desc->compact_attrs[i];
    int tup_natts = HeapTupleHeaderGetNatts(tup);

    if (!HeapTupleHeaderHasNulls(tup) && i < tup_natts &&
        tup_natts <= desc->natts && tup->t_hoff == hoff &&
        tuple->t_len > hoff) {
        const CompactAttribute *prev = i > 0 ? &desc->compact_attrs[i - 1]
                                             : NULL;
        Size data_len = tuple->t_len - hoff;
        Size off = prev != NULL
                       ? (Size)prev->attcacheoff + (Size)prev->attlen
                       : 0;
        const char *data = (const char *)tup + hoff;

        if (off < data_len && data[off] == 0)
            off = TYPEALIGN(c->attalignby, off);
        if (off < data_len) {
            /* checks the header as the walk does (raises if damaged) */
            (void)varlena_length_checked(tuple, i, data, off, data_len);
            *isnull = false;
            return PointerGetDatum(data + off);
        }
    }
    return getattr_slow(tuple, attnum, desc, isnull);
}

/*
 * The common case first, in a function small enough to need no saved
 * registers: no NULLs and a cached offset.  Its header checks are
 * check_header's, specialised (no bitmap: t_hoff must be MAXALIGN(23)),
 * and anything else -- NULLs, a varlena before the column, a short or
 * damaged tuple -- goes to getattr_slow, which checks and reports.
 * About 15 instructions where the general path took 70 (callgrind,
 * bench/sql `SELECT sum(c16)`).
 */
static TDB_ALWAYS_INLINE Datum
getattr_inline(const HeapTupleData *tuple, int attnum, TupleDesc desc,
               bool *isnull)
{
    const HeapTupleHeaderData *tup = tuple->t_data;
    const Size hoff = MAXALIGN(SizeofHeapTupleHeader);
    int i = attnum - 1;
    const CompactAttribute *c;
    int tup_natts;

    /* the length first: a shorter tuple's header must not be read */
    if (likely((unsigned)i < (unsigned)desc->natts && tuple->t_len >= hoff)) {
        c = &desc->compact_attrs[i];
        tup_natts = HeapTupleHeaderGetNatts(tup);
        if (likely(!HeapTupleHeaderHasNulls(tup) && c->attcacheoff >= 0 &&
                   i < tup_natts && tup_natts <= desc->natts &&
                   tup->t_hoff == hoff &&
                   (Size)c->attcacheoff + (Size)c->attlen <=
                       tuple->t_len - hoff)) {
            *isnull = false;
            return fetch_fixed((const char *)tup + hoff + c->attcacheoff, c);
        }
        if (HeapTupleHeaderHasNulls(tup))
            return getattr_nulls_one_run((HeapTuple)tuple, attnum, desc,
                                         isnull);
        if (c->attlen == -1 && i == desc->first_noncached)
            return getattr_first_varlena((HeapTuple)tuple, attnum, desc,
                                         isnull);
        if (c->attcacheoff < 0)
            return getattr_after_short_varlena((HeapTuple)tuple, attnum,
                                               desc, isnull);
    }
    return getattr_slow((HeapTuple)tuple, attnum, desc, isnull);
}

Datum
tdb_heap_getattr(HeapTuple tuple, int attnum, TupleDesc desc, bool *isnull)
{
    return getattr_inline(tuple, attnum, desc, isnull);
}

/*
 * tdb_heap_getattr_array's loop for a column at a cached offset: what
 * does not depend on the tuple (the column, its offset and width, the
 * bytes a tuple must have) is worked out once, and each tuple costs the
 * header checks and one load; a tuple with a null bitmap, when the
 * columns up to this one are one run, nulls_one_run's count of the
 * bitmap.  width is 4 or 8 for a by-value integer (a constant in each
 * caller, so the load is specialised), else 0.  Anything unusual takes
 * getattr_inline or getattr_slow, which check and report as
 * tdb_heap_getattr.
 */
static TDB_ALWAYS_INLINE void
getattr_array_cached(const HeapTupleData *tuples, int n, int attnum,
                     TupleDesc desc, Datum *values, bool *isnull,
                     const CompactAttribute *c, int width)
{
    const Size hoff = MAXALIGN(SizeofHeapTupleHeader);
    const Size end = hoff + (Size)c->attcacheoff + (Size)c->attlen;
    const Size off = hoff + (Size)c->attcacheoff;
    const int i = attnum - 1;
    /* nulls_one_run's condition on the descriptor, hoisted */
    const bool one_run = desc->compact_attrs[0].attrunlen > i;
    const Size attlen = (Size)c->attlen;

    for (int k = 0; k < n; k++) {
        const HeapTupleHeaderData *tup = tuples[k].t_data;
        const char *p = (const char *)tup + off;
        int tup_natts;

        /* the length first: a shorter tuple's header must not be read */
        if (likely(tuples[k].t_len >= end)) {
            if (HeapTupleHeaderHasNulls(tup)) {
                /* nulls_one_run, inline */
                Size nhoff, noff;

                tup_natts = HeapTupleHeaderGetNatts(tup);
                nhoff = MAXALIGN(SizeofHeapTupleHeader +
                                 BITMAPLEN(tup_natts));
                if (one_run && i < tup_natts && tup_natts <= desc->natts &&
                    tup->t_hoff == nhoff && tuples[k].t_len >= nhoff &&
                    !att_isnull(i, tup->t_bits)) {
                    noff = (Size)count_nonnull(tup->t_bits, 0, i) * attlen;
                    if (noff + attlen <= tuples[k].t_len - nhoff) {
                        p = (const char *)tup + nhoff + noff;
                        if (width == 4) {
                            int32 v;

                            memcpy(&v, p, 4);
                            values[k] = (Datum)(int64)v;
                        } else if (width == 8)
                            memcpy(&values[k], p, 8);
                        else
                            values[k] = fetch_fixed(p, c);
                        isnull[k] = false;
                        continue;
                    }
                }
                values[k] = getattr_slow((HeapTuple)&tuples[k], attnum, desc,
                                         &isnull[k]);
                continue;
            }
            tup_natts = HeapTupleHeaderGetNatts(tup);
            if (likely(attnum <= tup_natts && tup_natts <= desc->natts &&
                       tup->t_hoff == hoff)) {
                if (width == 4) {
                    int32 v;

                    memcpy(&v, p, 4);
                    values[k] = (Datum)(int64)v;
                } else if (width == 8)
                    memcpy(&values[k], p, 8);
                else
                    values[k] = fetch_fixed(p, c);
                isnull[k] = false;
                continue;
            }
        }
        values[k] = getattr_inline(&tuples[k], attnum, desc, &isnull[k]);
    }
}

/*
 * tdb_heap_getattr_array's loop for a column of the run that follows a
 * varlena first column (the caller checked the descriptor: column 1 is a
 * varlena, columns 2 .. attnum one uniform run): per tuple, the header
 * checks, the varlena's 1-byte header and one load -- after_short_varlena
 * with everything that depends only on the descriptor hoisted.  width as
 * for getattr_array_cached.  Anything else takes getattr_inline.
 */
static TDB_ALWAYS_INLINE void
getattr_array_after_varlena(const HeapTupleData *tuples, int n, int attnum,
                            TupleDesc desc, Datum *values, bool *isnull,
                            const CompactAttribute *c, int width)
{
    const Size hoff = MAXALIGN(SizeofHeapTupleHeader);
    const Size run_off = (Size)(attnum - 2) * (Size)c->attlen;
    const Size alignby = c->attalignby;
    const Size attlen = (Size)c->attlen;

    for (int k = 0; k < n; k++) {
        const HeapTupleHeaderData *tup = tuples[k].t_data;
        Size t_len = tuples[k].t_len;

        /* the length first: a shorter tuple's header must not be read */
        if (likely(t_len > hoff)) {
            int tup_natts = HeapTupleHeaderGetNatts(tup);
            uint8 first = *((const uint8 *)tup + hoff);

            /* no NULLs, and a 1-byte varlena header (not 0x01: external) */
            if (likely(!HeapTupleHeaderHasNulls(tup) && attnum <= tup_natts &&
                       tup_natts <= desc->natts && tup->t_hoff == hoff &&
                       (first & 0x01) && first != 0x01)) {
                Size len0 = (Size)(first >> 1);
                Size off = TYPEALIGN(alignby, len0) + run_off;
                const char *p = (const char *)tup + hoff + off;

                if (likely(len0 <= t_len - hoff &&
                           off + attlen <= t_len - hoff)) {
                    if (width == 4) {
                        int32 v;

                        memcpy(&v, p, 4);
                        values[k] = (Datum)(int64)v;
                    } else if (width == 8)
                        memcpy(&values[k], p, 8);
                    else
                        values[k] = fetch_fixed(p, c);
                    isnull[k] = false;
                    continue;
                }
            }
        }
        values[k] = getattr_inline(&tuples[k], attnum, desc, &isnull[k]);
    }
}

/*
 * The same for many tuples: the fast paths inline in one loop, no call
 * per tuple (a scan that hands a column to its parent in batches); an
 * int4 or int8 at a cached offset with a loop of its own, about 15
 * instructions per tuple where a tdb_heap_getattr call took 45
 * (callgrind, bench/sql `SELECT sum(c16)`).
 */
void
tdb_heap_getattr_array(const HeapTupleData *tuples, int n, int attnum,
                       TupleDesc desc, Datum *values, bool *isnull)
{
    const CompactAttribute *c =
        attnum >= 1 && attnum <= desc->natts ? &desc->compact_attrs[attnum - 1]
                                             : NULL;

    if (c != NULL && c->attcacheoff >= 0) {
        int width = (c->attflags & ATTR_BYVAL) ? c->attlen : 0;

        if (width == 4)
            getattr_array_cached(tuples, n, attnum, desc, values, isnull, c,
                                 4);
        else if (width == 8)
            getattr_array_cached(tuples, n, attnum, desc, values, isnull, c,
                                 8);
        else
            getattr_array_cached(tuples, n, attnum, desc, values, isnull, c,
                                 0);
        return;
    }
    if (c != NULL && attnum >= 2 && desc->compact_attrs[0].attlen == -1 &&
        c->attlen > 0 && desc->compact_attrs[1].attrunlen >= attnum - 1) {
        int width = (c->attflags & ATTR_BYVAL) ? c->attlen : 0;

        if (width == 4)
            getattr_array_after_varlena(tuples, n, attnum, desc, values,
                                        isnull, c, 4);
        else if (width == 8)
            getattr_array_after_varlena(tuples, n, attnum, desc, values,
                                        isnull, c, 8);
        else
            getattr_array_after_varlena(tuples, n, attnum, desc, values,
                                        isnull, c, 0);
        return;
    }
    for (int k = 0; k < n; k++)
        values[k] = getattr_inline(&tuples[k], attnum, desc, &isnull[k]);
}

void
tdb_heap_tuple_verify(HeapTuple tuple, TupleDesc desc)
{
    const HeapTupleHeaderData *tup = tuple->t_data;
    int tup_natts = check_header(tuple, desc);
    bool hasnulls = HeapTupleHeaderHasNulls(tup);
    const char *tp = (const char *)tup + tup->t_hoff;
    Size data_len = tuple->t_len - tup->t_hoff;
    Size off = 0;

    for (int i = 0; i < tup_natts; i++) {
        if (hasnulls && att_isnull(i, tup->t_bits))
            continue;
        Size len = locate_value(tuple, &desc->compact_attrs[i], i, tp, &off,
                                data_len);

        off += len;
    }
}
