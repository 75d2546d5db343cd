/*
 * slot.c -- virtual, heap and minimal tuple table slots.
 *
 * Each kind is a TupleTableSlotOps table plus a struct extending
 * TupleTableSlot.  The generic entry points (tdb_slot_*) check the slot
 * state and dispatch; the kinds implement clear, incremental deforming,
 * materialization and copying out.
 *
 * Invariants:
 *   - an empty slot has tts_nvalid == 0 and owns nothing;
 *   - a heap slot holding a buffer tuple has buffer != InvalidBuffer, one
 *     pin taken through the buffer hooks, and never TTS_FLAG_SHOULDFREE
 *     (materializing copies the tuple and drops the pin, in that order);
 *   - tts_nvalid equals the deform state's nvalid for heap/minimal slots.
 */
#include "common/base.h"

#include "common/elog.h"
#include "tuple/slot.h"
#include "tuple/varlena.h"

typedef struct VirtualTupleTableSlot {
    TupleTableSlot base;
    char *data; /* materialized by-reference values (owned) */
} VirtualTupleTableSlot;

typedef struct HeapTupleTableSlot {
    TupleTableSlot base;
    HeapTuple tuple;      /* the stored tuple, or NULL */
    HeapTupleData tupdata; /* handle of a buffer tuple (tuple points here) */
    Buffer buffer;        /* pinned buffer holding the tuple, or Invalid */
    DeformState deform;
} HeapTupleTableSlot;

typedef struct MinimalTupleTableSlot {
    TupleTableSlot base;
    MinimalTuple mintuple; /* the stored tuple, or NULL */
    HeapTupleData minhdr;  /* heap view of mintuple for deforming */
    DeformState deform;
} MinimalTupleTableSlot;

/* ----- buffer pins ----- */

static void
noop_pin(Buffer buffer)
{
    (void)buffer;
}

static const SlotBufferHooks default_buffer_hooks = {noop_pin, noop_pin};
static const SlotBufferHooks *buffer_hooks = &default_buffer_hooks;

void
tdb_slot_set_buffer_hooks(const SlotBufferHooks *hooks)
{
    buffer_hooks = hooks ? hooks : &default_buffer_hooks;
}

/* ----- creation ----- */

TupleTableSlot *
tdb_slot_create(TupleDesc desc, const TupleTableSlotOps *ops)
{
    int natts = desc->natts;
    Size base = MAXALIGN(ops->base_size);
    Size values_size = MAXALIGN((Size)natts * sizeof(Datum));
    Size isnull_size = TYPEALIGN(8, (Size)natts);
    TupleTableSlot *slot = tdb_palloc0(base + values_size + isnull_size);

    slot->tts_ops = ops;
    slot->tts_flags = TTS_FLAG_EMPTY;
    slot->tts_nvalid = 0;
    slot->tts_tupleDescriptor = desc;
    slot->tts_values = (Datum *)((char *)slot + base);
    slot->tts_isnull = (bool *)((char *)slot + base + values_size);
    slot->tts_mcxt = tdb_current_mcxt;
    ItemPointerSetInvalid(&slot->tts_tid);
    slot->tts_tableOid = InvalidOid;
    if (ops->init)
        ops->init(slot);
    return slot;
}

void
tdb_slot_drop(TupleTableSlot *slot)
{
    tdb_slot_clear(slot);
    tdb_pfree(slot);
}

void
tdb_slot_clear(TupleTableSlot *slot)
{
    if (!tdb_slot_is_empty(slot))
        slot->tts_ops->clear(slot);
    slot->tts_flags = TTS_FLAG_EMPTY;
    slot->tts_nvalid = 0;
    ItemPointerSetInvalid(&slot->tts_tid);
    slot->tts_tableOid = InvalidOid;
}

void
tdb_slot_getsomeattrs(TupleTableSlot *slot, int natts)
{
    if (natts <= slot->tts_nvalid)
        return;
    if (natts > slot->tts_tupleDescriptor->natts)
        elog(ERROR, "cannot extract attribute %d from a slot of %d columns",
             natts, slot->tts_tupleDescriptor->natts);
    if (tdb_slot_is_empty(slot))
        elog(ERROR, "cannot extract attributes from an empty slot");
    slot->tts_ops->getsomeattrs(slot, natts);
}

Datum
tdb_slot_fetch_attr(TupleTableSlot *slot, int attnum, bool *isnull)
{
    if (attnum > slot->tts_nvalid && !tdb_slot_is_empty(slot) &&
        attnum <= slot->tts_tupleDescriptor->natts) {
        if (slot->tts_ops == &tdb_tts_ops_heap)
            return tdb_heap_getattr(((HeapTupleTableSlot *)slot)->tuple,
                                    attnum, slot->tts_tupleDescriptor,
                                    isnull);
        if (slot->tts_ops == &tdb_tts_ops_minimal)
            return tdb_heap_getattr(&((MinimalTupleTableSlot *)slot)->minhdr,
                                    attnum, slot->tts_tupleDescriptor,
                                    isnull);
    }
    return tdb_slot_getattr(slot, attnum, isnull);
}

HeapTuple
tdb_slot_heap_tuple(TupleTableSlot *slot)
{
    if (slot->tts_ops != &tdb_tts_ops_heap || tdb_slot_is_empty(slot))
        return NULL;
    return ((HeapTupleTableSlot *)slot)->tuple;
}

void
tdb_slot_materialize(TupleTableSlot *slot)
{
    if (tdb_slot_is_empty(slot))
        elog(ERROR, "cannot materialize an empty slot");
    slot->tts_ops->materialize(slot);
}

HeapTuple
tdb_slot_copy_heap_tuple(TupleTableSlot *slot)
{
    if (tdb_slot_is_empty(slot))
        elog(ERROR, "cannot copy a tuple out of an empty slot");
    return slot->tts_ops->copy_heap_tuple(slot);
}

MinimalTuple
tdb_slot_copy_minimal_tuple(TupleTableSlot *slot, Size extra)
{
    if (tdb_slot_is_empty(slot))
        elog(ERROR, "cannot copy a tuple out of an empty slot");
    return slot->tts_ops->copy_minimal_tuple(slot, extra);
}

/* Generic: form a minimal tuple from the slot's deformed columns. */
static MinimalTuple
form_minimal_from_values(TupleTableSlot *slot, Size extra)
{
    tdb_slot_getallattrs(slot);
    return tdb_heap_form_minimal_tuple(slot->tts_tupleDescriptor,
                                       slot->tts_values, slot->tts_isnull,
                                       extra);
}

void
tdb_slot_copy(TupleTableSlot *dst, TupleTableSlot *src)
{
    MemoryContext old;

    if (dst == src)
        return;
    if (dst->tts_tupleDescriptor->natts != src->tts_tupleDescriptor->natts)
        elog(ERROR, "cannot copy a %d-column row into a %d-column slot",
             src->tts_tupleDescriptor->natts,
             dst->tts_tupleDescriptor->natts);
    if (tdb_slot_is_empty(src)) {
        tdb_slot_clear(dst);
        return;
    }

    if (dst->tts_ops == &tdb_tts_ops_virtual) {
        int natts = dst->tts_tupleDescriptor->natts;

        tdb_slot_getallattrs(src);
        tdb_slot_clear(dst);
        memcpy(dst->tts_values, src->tts_values, (Size)natts * sizeof(Datum));
        memcpy(dst->tts_isnull, src->tts_isnull, (Size)natts);
        tdb_slot_store_virtual(dst);
        tdb_slot_materialize(dst);
        return;
    }

    old = tdb_mcxt_switch_to(dst->tts_mcxt);
    if (dst->tts_ops == &tdb_tts_ops_heap) {
        HeapTuple tuple = tdb_slot_copy_heap_tuple(src);

        tdb_mcxt_switch_to(old);
        tdb_slot_store_heap_tuple(dst, tuple, true);
    } else {
        MinimalTuple mtup = tdb_slot_copy_minimal_tuple(src, 0);

        tdb_mcxt_switch_to(old);
        tdb_slot_store_minimal_tuple(dst, mtup, true);
    }
    dst->tts_tid = src->tts_tid;
    dst->tts_tableOid = src->tts_tableOid;
}

/* ----------------------------------------------------------------------
 * Virtual slots
 * ---------------------------------------------------------------------- */

void
tdb_slot_store_virtual(TupleTableSlot *slot)
{
    if (slot->tts_ops != &tdb_tts_ops_virtual)
        elog(ERROR, "cannot store a virtual row in a %s slot",
             slot->tts_ops->name);
    if (!tdb_slot_is_empty(slot))
        elog(ERROR, "virtual slot must be cleared before storing a row");
    slot->tts_flags &= (uint16)~TTS_FLAG_EMPTY;
    slot->tts_nvalid = slot->tts_tupleDescriptor->natts;
}

static void
virtual_clear(TupleTableSlot *slot)
{
    VirtualTupleTableSlot *vslot = (VirtualTupleTableSlot *)slot;

    if ((slot->tts_flags & TTS_FLAG_SHOULDFREE) && vslot->data != NULL)
        tdb_pfree(vslot->data);
    vslot->data = NULL;
}

static void
virtual_getsomeattrs(TupleTableSlot *slot, int natts)
{
    (void)natts;
    elog(ERROR, "a virtual slot has all its columns (%d of %d valid)",
         slot->tts_nvalid, slot->tts_tupleDescriptor->natts);
}

/* Bytes a by-reference value occupies. */
static Size
byref_datum_size(const CompactAttribute *c, Datum value)
{
    if (c->attlen > 0)
        return (Size)c->attlen;
    if (c->attlen == -1)
        return VARSIZE_ANY(DatumGetPointer(value));
    return strlen(DatumGetPointer(value)) + 1;
}

static void
virtual_materialize(TupleTableSlot *slot)
{
    VirtualTupleTableSlot *vslot = (VirtualTupleTableSlot *)slot;
    TupleDesc desc = slot->tts_tupleDescriptor;
    Size total = 0;
    char *data;

    if (slot->tts_flags & TTS_FLAG_SHOULDFREE)
        return;
    for (int i = 0; i < desc->natts; i++) {
        const CompactAttribute *c = &desc->compact_attrs[i];

        if (slot->tts_isnull[i] || (c->attflags & ATTR_BYVAL))
            continue;
        total = MAXALIGN(total) + byref_datum_size(c, slot->tts_values[i]);
    }
    slot->tts_flags |= TTS_FLAG_SHOULDFREE;
    if (total == 0)
        return;

    data = tdb_mcxt_alloc(slot->tts_mcxt, total);
    vslot->data = data;
    for (int i = 0; i < desc->natts; i++) {
        const CompactAttribute *c = &desc->compact_attrs[i];
        Size len;

        if (slot->tts_isnull[i] || (c->attflags & ATTR_BYVAL))
            continue;
        data = (char *)MAXALIGN(data);
        len = byref_datum_size(c, slot->tts_values[i]);
        memcpy(data, DatumGetPointer(slot->tts_values[i]), len);
        slot->tts_values[i] = PointerGetDatum(data);
        data += len;
    }
}

static HeapTuple
virtual_copy_heap_tuple(TupleTableSlot *slot)
{
    return tdb_heap_form_tuple(slot->tts_tupleDescriptor, slot->tts_values,
                               slot->tts_isnull);
}

static MinimalTuple
virtual_copy_minimal_tuple(TupleTableSlot *slot, Size extra)
{
    return tdb_heap_form_minimal_tuple(slot->tts_tupleDescriptor,
                                       slot->tts_values, slot->tts_isnull,
                                       extra);
}

const TupleTableSlotOps tdb_tts_ops_virtual = {
    .name = "virtual",
    .base_size = sizeof(VirtualTupleTableSlot),
    .init = NULL,
    .clear = virtual_clear,
    .getsomeattrs = virtual_getsomeattrs,
    .materialize = virtual_materialize,
    .copy_heap_tuple = virtual_copy_heap_tuple,
    .copy_minimal_tuple = virtual_copy_minimal_tuple,
};

/* ----------------------------------------------------------------------
 * Heap slots
 * ---------------------------------------------------------------------- */

static void
heap_slot_release_buffer(HeapTupleTableSlot *hslot)
{
    if (hslot->buffer != InvalidBuffer) {
        Buffer buffer = hslot->buffer;

        hslot->buffer = InvalidBuffer;
        buffer_hooks->release(buffer);
    }
}

static void
heap_clear(TupleTableSlot *slot)
{
    HeapTupleTableSlot *hslot = (HeapTupleTableSlot *)slot;

    if (slot->tts_flags & TTS_FLAG_SHOULDFREE)
        tdb_pfree(hslot->tuple);
    heap_slot_release_buffer(hslot);
    hslot->tuple = NULL;
    hslot->deform = (DeformState)DEFORM_STATE_INIT;
}

/* Common part of storing a tuple into a heap slot. */
static HeapTupleTableSlot *
heap_slot_prepare_store(TupleTableSlot *slot)
{
    if (slot->tts_ops != &tdb_tts_ops_heap)
        elog(ERROR, "cannot store a heap tuple in a %s slot",
             slot->tts_ops->name);
    tdb_slot_clear(slot);
    return (HeapTupleTableSlot *)slot;
}

void
tdb_slot_store_heap_tuple(TupleTableSlot *slot, HeapTuple tuple,
                          bool should_free)
{
    HeapTupleTableSlot *hslot = heap_slot_prepare_store(slot);

    hslot->tuple = tuple;
    slot->tts_flags = should_free ? TTS_FLAG_SHOULDFREE : 0;
    slot->tts_tid = tuple->t_self;
    slot->tts_tableOid = tuple->t_tableOid;
}

void
tdb_slot_store_buffer_tuple(TupleTableSlot *slot, HeapTuple tuple,
                            Buffer buffer)
{
    HeapTupleTableSlot *hslot = (HeapTupleTableSlot *)slot;

    if (likely(slot->tts_ops == &tdb_tts_ops_heap &&
               hslot->buffer == buffer && buffer != InvalidBuffer)) {
        /*
         * The next tuple of the same page (a scan's common case): the
         * slot's pin carries over, so no pin traffic at all.  A heap slot
         * holding a buffer is never empty nor owns its tuple (invariants
         * above), so the buffer test is the whole check.
         */
        slot->tts_nvalid = 0;
        hslot->deform = (DeformState)DEFORM_STATE_INIT;
        hslot->tupdata = *tuple;
        slot->tts_flags = 0;
        slot->tts_tid = tuple->t_self;
        slot->tts_tableOid = tuple->t_tableOid;
        return;
    }
    if (buffer == InvalidBuffer)
        elog(ERROR, "cannot store a buffer tuple without a buffer");
    {
        Buffer old_buffer = InvalidBuffer;

        /* keep the old pin until the new one is taken, so a pin count
         * never touches zero in between */
        if (slot->tts_ops == &tdb_tts_ops_heap && !tdb_slot_is_empty(slot)) {
            old_buffer = hslot->buffer;
            hslot->buffer = InvalidBuffer;
        }
        heap_slot_prepare_store(slot);
        buffer_hooks->incr_pin(buffer);
        if (old_buffer != InvalidBuffer)
            buffer_hooks->release(old_buffer);
    }

    hslot->tupdata = *tuple;
    hslot->tuple = &hslot->tupdata;
    hslot->buffer = buffer;
    slot->tts_flags = 0;
    slot->tts_tid = tuple->t_self;
    slot->tts_tableOid = tuple->t_tableOid;
}

void
tdb_slot_store_buffer_row(TupleTableSlot *slot, HeapTupleHeader data,
                          uint32 len, BlockNumber block, OffsetNumber offnum,
                          Oid table_oid, Buffer buffer)
{
    HeapTupleTableSlot *hslot = (HeapTupleTableSlot *)slot;
    HeapTupleData tuple;

    if (likely(slot->tts_ops == &tdb_tts_ops_heap &&
               hslot->buffer == buffer && buffer != InvalidBuffer)) {
        /* the next tuple of the same page: as tdb_slot_store_buffer_tuple */
        slot->tts_nvalid = 0;
        hslot->deform = (DeformState)DEFORM_STATE_INIT;
        hslot->tupdata.t_len = len;
        ItemPointerSet(&hslot->tupdata.t_self, block, offnum);
        hslot->tupdata.t_tableOid = table_oid;
        hslot->tupdata.t_data = data;
        slot->tts_flags = 0;
        ItemPointerSet(&slot->tts_tid, block, offnum);
        slot->tts_tableOid = table_oid;
        return;
    }
    tuple.t_len = len;
    ItemPointerSet(&tuple.t_self, block, offnum);
    tuple.t_tableOid = table_oid;
    tuple.t_data = data;
    tdb_slot_store_buffer_tuple(slot, &tuple, buffer);
}

static void
heap_getsomeattrs(TupleTableSlot *slot, int natts)
{
    HeapTupleTableSlot *hslot = (HeapTupleTableSlot *)slot;

    tdb_heap_deform_some(hslot->tuple, slot->tts_tupleDescriptor,
                         slot->tts_values, slot->tts_isnull, &hslot->deform,
                         natts);
    slot->tts_nvalid = hslot->deform.nvalid;
}

static void
heap_materialize(TupleTableSlot *slot)
{
    HeapTupleTableSlot *hslot = (HeapTupleTableSlot *)slot;
    MemoryContext old;
    HeapTuple copy;

    if (slot->tts_flags & TTS_FLAG_SHOULDFREE)
        return;
    old = tdb_mcxt_switch_to(slot->tts_mcxt);
    copy = tdb_heap_copy_tuple(hslot->tuple);
    tdb_mcxt_switch_to(old);

    /* Values pointed into the old tuple: deform again from the copy. */
    hslot->tuple = copy;
    heap_slot_release_buffer(hslot);
    slot->tts_flags |= TTS_FLAG_SHOULDFREE;
    hslot->deform = (DeformState)DEFORM_STATE_INIT;
    slot->tts_nvalid = 0;
}

static HeapTuple
heap_copy_heap_tuple(TupleTableSlot *slot)
{
    return tdb_heap_copy_tuple(((HeapTupleTableSlot *)slot)->tuple);
}

static MinimalTuple
heap_copy_minimal_tuple(TupleTableSlot *slot, Size extra)
{
    if (extra == 0)
        return tdb_minimal_tuple_from_heap(((HeapTupleTableSlot *)slot)->tuple);
    return form_minimal_from_values(slot, extra);
}

const TupleTableSlotOps tdb_tts_ops_heap = {
    .name = "heap",
    .base_size = sizeof(HeapTupleTableSlot),
    .init = NULL,
    .clear = heap_clear,
    .getsomeattrs = heap_getsomeattrs,
    .materialize = heap_materialize,
    .copy_heap_tuple = heap_copy_heap_tuple,
    .copy_minimal_tuple = heap_copy_minimal_tuple,
};

/* ----------------------------------------------------------------------
 * Minimal slots
 * ---------------------------------------------------------------------- */

static void
minimal_clear(TupleTableSlot *slot)
{
    MinimalTupleTableSlot *mslot = (MinimalTupleTableSlot *)slot;

    if (slot->tts_flags & TTS_FLAG_SHOULDFREE)
        tdb_pfree(mslot->mintuple);
    mslot->mintuple = NULL;
    mslot->deform = (DeformState)DEFORM_STATE_INIT;
}

void
tdb_slot_store_minimal_tuple(TupleTableSlot *slot, MinimalTuple mtup,
                             bool should_free)
{
    MinimalTupleTableSlot *mslot = (MinimalTupleTableSlot *)slot;

    if (slot->tts_ops != &tdb_tts_ops_minimal)
        elog(ERROR, "cannot store a minimal tuple in a %s slot",
             slot->tts_ops->name);
    tdb_slot_clear(slot);
    mslot->mintuple = mtup;
    tdb_minimal_tuple_heap_view(mtup, &mslot->minhdr);
    slot->tts_flags = should_free ? TTS_FLAG_SHOULDFREE : 0;
}

static void
minimal_getsomeattrs(TupleTableSlot *slot, int natts)
{
    MinimalTupleTableSlot *mslot = (MinimalTupleTableSlot *)slot;

    tdb_heap_deform_some(&mslot->minhdr, slot->tts_tupleDescriptor,
                         slot->tts_values, slot->tts_isnull, &mslot->deform,
                         natts);
    slot->tts_nvalid = mslot->deform.nvalid;
}

static void
minimal_materialize(TupleTableSlot *slot)
{
    MinimalTupleTableSlot *mslot = (MinimalTupleTableSlot *)slot;
    MemoryContext old;
    MinimalTuple copy;

    if (slot->tts_flags & TTS_FLAG_SHOULDFREE)
        return;
    old = tdb_mcxt_switch_to(slot->tts_mcxt);
    copy = tdb_minimal_tuple_copy(mslot->mintuple);
    tdb_mcxt_switch_to(old);
    mslot->mintuple = copy;
    tdb_minimal_tuple_heap_view(copy, &mslot->minhdr);
    slot->tts_flags |= TTS_FLAG_SHOULDFREE;
    mslot->deform = (DeformState)DEFORM_STATE_INIT;
    slot->tts_nvalid = 0;
}

static HeapTuple
minimal_copy_heap_tuple(TupleTableSlot *slot)
{
    return tdb_heap_tuple_from_minimal(
        ((MinimalTupleTableSlot *)slot)->mintuple);
}

static MinimalTuple
minimal_copy_minimal_tuple(TupleTableSlot *slot, Size extra)
{
    if (extra == 0)
        return tdb_minimal_tuple_copy(
            ((MinimalTupleTableSlot *)slot)->mintuple);
    return form_minimal_from_values(slot, extra);
}

const TupleTableSlotOps tdb_tts_ops_minimal = {
    .name = "minimal",
    .base_size = sizeof(MinimalTupleTableSlot),
    .init = NULL,
    .clear = minimal_clear,
    .getsomeattrs = minimal_getsomeattrs,
    .materialize = minimal_materialize,
    .copy_heap_tuple = minimal_copy_heap_tuple,
    .copy_minimal_tuple = minimal_copy_minimal_tuple,
};
