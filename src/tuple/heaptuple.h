/*
 * heaptuple.h -- heap tuples and minimal tuples in PostgreSQL 15's format,
 * byte for byte (pg-internals.md §1).
 *
 * Heap tuple header (23 bytes, then the null bitmap, then padding to
 * t_hoff, which is MAXALIGNed):
 *
 *   off size field
 *    0   4   t_xmin        inserting transaction
 *    4   4   t_xmax        deleting/locking transaction
 *    8   4   t_cid         command id (or t_xvac)
 *   12   6   t_ctid        this tuple's or its newer version's TID
 *   18   2   t_infomask2   low 11 bits: number of attributes; flags
 *   20   2   t_infomask    HEAP_HASNULL, HEAP_HASVARWIDTH, ... hint bits
 *   22   1   t_hoff        offset of the data area
 *   23   -   t_bits        null bitmap if HEAP_HASNULL: bit set = NOT null
 *
 * A composite Datum overlays bytes 0-11 with a varlena length, typmod and
 * type OID; heap_form_tuple fills those and insertion overwrites them.
 *
 * Minimal tuple (used in hash tables, sorts, tuplestores): a length word,
 * 6 pad bytes, then t_infomask2 onwards -- the heap header minus its first
 * 8 transaction bytes, arranged so that the data keeps the same alignment
 * (MINIMAL_TUPLE_OFFSET = 8).  t_hoff is computed as for a heap tuple.
 *
 * Memory: every function returning a tuple allocates it in the current
 * memory context as one chunk (the HeapTupleData wrapper and the data
 * together), so one tdb_pfree frees both.
 *
 * Corruption: tuples read from disk are not trusted.  Deforming checks that
 * the header's t_hoff and attribute count agree with the descriptor and
 * that every value lies inside t_len, and raises ERRCODE_DATA_CORRUPTED
 * (naming the table OID and TID when known) instead of reading out of
 * bounds.
 */
#ifndef TDB_TUPLE_HEAPTUPLE_H
#define TDB_TUPLE_HEAPTUPLE_H

#include "common/base.h"
#include "tuple/datum.h"
#include "tuple/itemptr.h"
#include "tuple/tupdesc.h"

typedef uint32 TransactionId;
typedef uint32 CommandId;

typedef struct HeapTupleFields {
    TransactionId t_xmin;
    TransactionId t_xmax;
    union {
        CommandId t_cid;
        TransactionId t_xvac;
    } t_field3;
} HeapTupleFields;

typedef struct DatumTupleFields {
    int32 datum_len_;
    int32 datum_typmod;
    Oid datum_typeid;
} DatumTupleFields;

typedef struct HeapTupleHeaderData {
    union {
        HeapTupleFields t_heap;
        DatumTupleFields t_datum;
    } t_choice;
    ItemPointerData t_ctid;
    uint16 t_infomask2;
    uint16 t_infomask;
    uint8 t_hoff;
    bits8 t_bits[FLEXIBLE_ARRAY_MEMBER];
} HeapTupleHeaderData;

typedef HeapTupleHeaderData *HeapTupleHeader;

#define SizeofHeapTupleHeader offsetof(HeapTupleHeaderData, t_bits)
_Static_assert(offsetof(HeapTupleHeaderData, t_bits) == 23,
               "heap tuple header is 23 bytes");
_Static_assert(offsetof(HeapTupleHeaderData, t_ctid) == 12, "t_ctid at 12");
_Static_assert(offsetof(HeapTupleHeaderData, t_infomask2) == 18,
               "t_infomask2 at 18");

/* t_infomask */
#define HEAP_HASNULL 0x0001
#define HEAP_HASVARWIDTH 0x0002
#define HEAP_HASEXTERNAL 0x0004
#define HEAP_HASOID_OLD 0x0008
#define HEAP_XMAX_KEYSHR_LOCK 0x0010
#define HEAP_COMBOCID 0x0020
#define HEAP_XMAX_EXCL_LOCK 0x0040
#define HEAP_XMAX_LOCK_ONLY 0x0080
#define HEAP_XMIN_COMMITTED 0x0100
#define HEAP_XMIN_INVALID 0x0200
#define HEAP_XMIN_FROZEN (HEAP_XMIN_COMMITTED | HEAP_XMIN_INVALID)
#define HEAP_XMAX_COMMITTED 0x0400
#define HEAP_XMAX_INVALID 0x0800
#define HEAP_XMAX_IS_MULTI 0x1000
#define HEAP_UPDATED 0x2000
#define HEAP_MOVED_OFF 0x4000
#define HEAP_MOVED_IN 0x8000
#define HEAP_XACT_MASK 0xFFF0

/* t_infomask2 */
#define HEAP_NATTS_MASK 0x07FF
#define HEAP_KEYS_UPDATED 0x2000
#define HEAP_HOT_UPDATED 0x4000
#define HEAP_ONLY_TUPLE 0x8000

#define BITMAPLEN(natts) (((natts) + 7) / 8)
#define MaxTupleSize ((Size)0x3fffffff)

static inline int
HeapTupleHeaderGetNatts(const HeapTupleHeaderData *tup)
{
    return tup->t_infomask2 & HEAP_NATTS_MASK;
}

static inline void
HeapTupleHeaderSetNatts(HeapTupleHeaderData *tup, int natts)
{
    tup->t_infomask2 =
        (uint16)((tup->t_infomask2 & ~HEAP_NATTS_MASK) | (uint16)natts);
}

static inline bool
HeapTupleHeaderHasNulls(const HeapTupleHeaderData *tup)
{
    return (tup->t_infomask & HEAP_HASNULL) != 0;
}

/* Column i (0-based) is NULL in this bitmap? */
static inline bool
att_isnull(int i, const bits8 *bits)
{
    return (bits[i >> 3] & (1 << (i & 7))) == 0;
}

/* The in-memory handle of a heap tuple. */
typedef struct HeapTupleData {
    uint32 t_len;            /* bytes at t_data */
    ItemPointerData t_self;  /* where it is stored (the ctid column) */
    Oid t_tableOid;          /* the table (tableoid column), or InvalidOid */
    HeapTupleHeader t_data;
} HeapTupleData;

typedef HeapTupleData *HeapTuple;
#define HEAPTUPLESIZE MAXALIGN(sizeof(HeapTupleData))

/* ----- minimal tuples ----- */

#define MINIMAL_TUPLE_OFFSET                                                \
    ((offsetof(HeapTupleHeaderData, t_infomask2) - sizeof(uint32)) /        \
     MAXIMUM_ALIGNOF * MAXIMUM_ALIGNOF)
#define MINIMAL_TUPLE_PADDING                                               \
    ((offsetof(HeapTupleHeaderData, t_infomask2) - sizeof(uint32)) %        \
     MAXIMUM_ALIGNOF)

typedef struct MinimalTupleData {
    uint32 t_len; /* bytes of the minimal tuple */
    char mt_padding[MINIMAL_TUPLE_PADDING];
    uint16 t_infomask2;
    uint16 t_infomask;
    uint8 t_hoff; /* as in a heap tuple: includes MINIMAL_TUPLE_OFFSET */
    bits8 t_bits[FLEXIBLE_ARRAY_MEMBER];
} MinimalTupleData;

typedef MinimalTupleData *MinimalTuple;
#define SizeofMinimalTupleHeader offsetof(MinimalTupleData, t_bits)
_Static_assert(MINIMAL_TUPLE_OFFSET == 8, "minimal tuple offset is 8");
_Static_assert(offsetof(MinimalTupleData, t_infomask2) == 10,
               "minimal t_infomask2 at 10");

/*
 * Make `view` a heap-tuple view of a minimal tuple, so the attribute code
 * works on both: t_data points 8 bytes before the minimal tuple.  The
 * transaction fields and t_ctid of such a view overlay whatever lies
 * before the minimal tuple and must never be read.
 */
static inline void
tdb_minimal_tuple_heap_view(MinimalTuple mtup, HeapTupleData *view)
{
    view->t_len = mtup->t_len + MINIMAL_TUPLE_OFFSET;
    ItemPointerSetInvalid(&view->t_self);
    view->t_tableOid = InvalidOid;
    view->t_data = (HeapTupleHeader)((char *)mtup - MINIMAL_TUPLE_OFFSET);
}

/* ----- forming ----- */

/* Bytes of the data area (after t_hoff) for these values. */
Size tdb_heap_compute_data_size(TupleDesc desc, const Datum *values,
                                const bool *isnull);

/*
 * Write the data area at `data` (data_size bytes, zeroed by the caller) and
 * the null bitmap at `bits` (NULL when there are no nulls); sets
 * HEAP_HASNULL / HEAP_HASVARWIDTH / HEAP_HASEXTERNAL in *infomask.
 */
void tdb_heap_fill_tuple(TupleDesc desc, const Datum *values,
                         const bool *isnull, char *data, Size data_size,
                         uint16 *infomask, bits8 *bits);

/* Form a heap tuple in the current context (wrapper + data, one chunk). */
HeapTuple tdb_heap_form_tuple(TupleDesc desc, const Datum *values,
                              const bool *isnull);

/*
 * Form a minimal tuple with `extra` zeroed, MAXALIGNed bytes in front of it
 * in the same chunk (per-group state for hash tables); returns the tuple.
 */
MinimalTuple tdb_heap_form_minimal_tuple(TupleDesc desc, const Datum *values,
                                         const bool *isnull, Size extra);

/* Copies (current context). */
HeapTuple tdb_heap_copy_tuple(HeapTuple tuple);
MinimalTuple tdb_minimal_tuple_copy(MinimalTuple mtup);
MinimalTuple tdb_minimal_tuple_from_heap(HeapTuple tuple);
HeapTuple tdb_heap_tuple_from_minimal(MinimalTuple mtup);

/* ----- deforming ----- */

/*
 * Extract every column of `tuple` into values/isnull (desc->natts entries).
 * By-reference values point into the tuple.  Columns the tuple lacks (ADD
 * COLUMN) come from the descriptor's missing values, else NULL.
 */
void tdb_heap_deform_tuple(HeapTuple tuple, TupleDesc desc, Datum *values,
                           bool *isnull);

/*
 * Incremental deforming state: how many leading columns of the current
 * tuple are in values/isnull, and the data offset where the next starts.
 */
typedef struct DeformState {
    int nvalid; /* leading columns in values/isnull */
    uint32 off; /* data-area offset just after the last non-null column */
} DeformState;

#define DEFORM_STATE_INIT {0, 0}

/*
 * Extend values/isnull to the first `natts` columns, continuing from
 * state (zeroed for a new tuple).  isnull must have room for
 * TYPEALIGN(8, desc->natts) entries (the bitmap is spread 8 at a time).
 */
void tdb_heap_deform_some(HeapTuple tuple, TupleDesc desc, Datum *values,
                          bool *isnull, DeformState *state, int natts);

/*
 * One column (attnum is 1-based, as in SQL).  Uses the cached offset when
 * no NULL precedes the column: O(1) whatever its position.
 */
Datum tdb_heap_getattr(HeapTuple tuple, int attnum, TupleDesc desc,
                       bool *isnull);

/* tdb_heap_getattr of the n tuples[k] into values[k], isnull[k]. */
void tdb_heap_getattr_array(const HeapTupleData *tuples, int n, int attnum,
                            TupleDesc desc, Datum *values, bool *isnull);

/* The Datum for column i of a tuple that lacks it. */
Datum tdb_heap_missing_attr(TupleDesc desc, int i, bool *isnull);

/*
 * Check a tuple's header against a descriptor without extracting values
 * (t_hoff, natts, every length inside t_len, varlena tags).  Raises
 * ERRCODE_DATA_CORRUPTED on the first problem.
 */
void tdb_heap_tuple_verify(HeapTuple tuple, TupleDesc desc);

#endif /* TDB_TUPLE_HEAPTUPLE_H */
