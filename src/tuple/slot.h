/*
 * slot.h -- tuple table slots: the executor's handle on "the current row".
 *
 * A slot has a descriptor and two arrays, tts_values/tts_isnull, of which
 * the first tts_nvalid entries are valid.  Three kinds:
 *
 *   virtual   the arrays are the row (filled by an expression, a
 *             projection, ...); by-reference Datums are borrowed until the
 *             slot is materialized
 *   heap      holds a HeapTuple: a palloc'd one (owned if should_free), or
 *             one inside a buffer page, in which case the slot holds a pin
 *             on that buffer until it is cleared or materialized
 *   minimal   holds a MinimalTuple (hash tables, sorts, tuplestores)
 *
 * Heap and minimal slots deform lazily and incrementally: asking for
 * column n extracts columns [tts_nvalid, n) continuing where the last call
 * stopped (tuple/heaptuple.h, DeformState).  Storing a new tuple or
 * clearing resets tts_nvalid to 0.
 *
 * Memory: a slot and its arrays are one allocation in the memory context
 * current at creation (tts_mcxt); materialized copies live there too and
 * are freed when the slot is cleared.  The descriptor is referenced, not
 * copied: it must outlive the slot.
 *
 * Buffers: the storage layer registers how to take and drop a buffer pin
 * (tdb_slot_set_buffer_hooks); the tuple layer itself knows no buffers.
 */
#ifndef TDB_TUPLE_SLOT_H
#define TDB_TUPLE_SLOT_H

#include "common/base.h"
#include "mmgr/mcxt.h"
#include "tuple/heaptuple.h"

typedef int32 Buffer;
#define InvalidBuffer ((Buffer)0)

#define TTS_FLAG_EMPTY 0x0002      /* holds no row */
#define TTS_FLAG_SHOULDFREE 0x0004 /* owns its tuple / materialized data */

typedef struct TupleTableSlotOps TupleTableSlotOps;

typedef struct TupleTableSlot {
    const TupleTableSlotOps *tts_ops; /* the slot's kind */
    uint16 tts_flags;                 /* TTS_FLAG_* */
    int tts_nvalid;                   /* leading valid values/isnull */
    TupleDesc tts_tupleDescriptor;    /* borrowed */
    Datum *tts_values;                /* natts entries */
    bool *tts_isnull;                 /* TYPEALIGN(8, natts) entries */
    MemoryContext tts_mcxt;           /* where the slot and copies live */
    ItemPointerData tts_tid;          /* the ctid of a stored heap tuple */
    Oid tts_tableOid;                 /* its table */
} TupleTableSlot;

struct TupleTableSlotOps {
    const char *name;
    Size base_size; /* size of the kind's slot struct */
    void (*init)(TupleTableSlot *slot);
    void (*clear)(TupleTableSlot *slot);
    /* extract columns up to natts into the arrays */
    void (*getsomeattrs)(TupleTableSlot *slot, int natts);
    /* make the slot independent of anything it borrows */
    void (*materialize)(TupleTableSlot *slot);
    /* a copy of the row as a heap / minimal tuple, current context */
    HeapTuple (*copy_heap_tuple)(TupleTableSlot *slot);
    MinimalTuple (*copy_minimal_tuple)(TupleTableSlot *slot, Size extra);
};

extern const TupleTableSlotOps tdb_tts_ops_virtual;
extern const TupleTableSlotOps tdb_tts_ops_heap;
extern const TupleTableSlotOps tdb_tts_ops_minimal;

/* Create an empty slot of the given kind in the current memory context. */
TupleTableSlot *tdb_slot_create(TupleDesc desc, const TupleTableSlotOps *ops);
/* Clear (dropping pins and owned memory) and free the slot. */
void tdb_slot_drop(TupleTableSlot *slot);

static inline bool
tdb_slot_is_empty(const TupleTableSlot *slot)
{
    return (slot->tts_flags & TTS_FLAG_EMPTY) != 0;
}

/* Forget the row: drop pins, free owned data, nvalid = 0. */
void tdb_slot_clear(TupleTableSlot *slot);

/* Heap slots: store a palloc'd tuple (owned if should_free). */
void tdb_slot_store_heap_tuple(TupleTableSlot *slot, HeapTuple tuple,
                               bool should_free);
/*
 * Heap slots: store a tuple that lives in a buffer page.  The slot takes
 * its own pin on `buffer` (and drops the pin of a previous buffer tuple);
 * `tuple` (the HeapTupleData handle) is copied, its data is not.
 */
void tdb_slot_store_buffer_tuple(TupleTableSlot *slot, HeapTuple tuple,
                                 Buffer buffer);
/*
 * The same with the tuple handle's fields passed by value (a scan's next
 * row): the slot builds its handle itself.  Copying a handle the caller
 * had just written field by field stalled on store forwarding (perf: 12 %
 * of a filtered scan).
 */
void tdb_slot_store_buffer_row(TupleTableSlot *slot, HeapTupleHeader data,
                               uint32 len, BlockNumber block,
                               OffsetNumber offnum, Oid table_oid,
                               Buffer buffer);
/* Minimal slots: store a minimal tuple (owned if should_free). */
void tdb_slot_store_minimal_tuple(TupleTableSlot *slot, MinimalTuple mtup,
                                  bool should_free);
/*
 * Virtual slots: the caller has filled tts_values/tts_isnull for every
 * column (after tdb_slot_clear); mark the row present.
 */
void tdb_slot_store_virtual(TupleTableSlot *slot);

/* Make sure the first natts columns are in the arrays. */
void tdb_slot_getsomeattrs(TupleTableSlot *slot, int natts);

static inline void
tdb_slot_getallattrs(TupleTableSlot *slot)
{
    tdb_slot_getsomeattrs(slot, slot->tts_tupleDescriptor->natts);
}

/* Column attnum (1-based). */
static inline Datum
tdb_slot_getattr(TupleTableSlot *slot, int attnum, bool *isnull)
{
    if (attnum > slot->tts_nvalid)
        tdb_slot_getsomeattrs(slot, attnum);
    *isnull = slot->tts_isnull[attnum - 1];
    return slot->tts_values[attnum - 1];
}

/*
 * Column attnum (1-based) without deforming the columns before it when
 * they are not deformed yet: a heap or minimal slot reads it straight
 * from the tuple (tdb_heap_getattr: a cached offset, or a walk that
 * costs per uniform run, not per column), and tts_nvalid is unchanged.
 * For a consumer that needs one column of a wide row; one that needs
 * several should deform (tdb_slot_getsomeattrs) instead.
 */
Datum tdb_slot_fetch_attr(TupleTableSlot *slot, int attnum, bool *isnull);

/* The heap tuple a heap slot holds (borrowed, no copy), or NULL for an
 * empty slot or another kind. */
HeapTuple tdb_slot_heap_tuple(TupleTableSlot *slot);

/* Copy everything the slot borrows into tts_mcxt (releasing a pin). */
void tdb_slot_materialize(TupleTableSlot *slot);

/* Store a copy of src's row into dst (kinds may differ). */
void tdb_slot_copy(TupleTableSlot *dst, TupleTableSlot *src);

/* Copies of the row in the current memory context. */
HeapTuple tdb_slot_copy_heap_tuple(TupleTableSlot *slot);
MinimalTuple tdb_slot_copy_minimal_tuple(TupleTableSlot *slot, Size extra);

/* How the storage layer pins buffers (NULL hooks: no-ops). */
typedef struct SlotBufferHooks {
    void (*incr_pin)(Buffer buffer); /* take one more pin */
    void (*release)(Buffer buffer);  /* drop one pin */
} SlotBufferHooks;
void tdb_slot_set_buffer_hooks(const SlotBufferHooks *hooks);

#endif /* TDB_TUPLE_SLOT_H */
