/*
 * toaster.c -- compressing and moving a row's values out of line before
 * it is stored; deleting a dead row's out-of-line values (toaster.h).
 *
 * The row is held as an array of values plus, per column, what the
 * passes may still do with it.  After each change the row's data size
 * is computed again from the values (tdb_heap_compute_data_size, which
 * knows about short headers and alignment); rows have at most 1600
 * columns and each pass changes one column per step, so this stays
 * cheap next to compressing or writing the value.
 */
#include "common/base.h"

#include "common/elog.h"
#include "toast/compress.h"
#include "toast/detoast.h"
#include "toast/toast_store.h"
#include "toast/toaster.h"

/* What the passes may do with a column's value. */
enum {
    COL_IGNORE = 0x01,         /* NULL, fixed width, PLAIN, kept old value */
    COL_INCOMPRESSIBLE = 0x02, /* compression failed or is not allowed */
    COL_EXTERNAL = 0x04        /* already moved out of line */
};

typedef struct ToastRow {
    const ToastTarget *target;
    TupleDesc desc;
    Datum *values;
    const bool *isnull;
    uint8 *flags;
    Size hoff;
    Size data_size;
} ToastRow;

static Size
row_data_size(const ToastRow *row)
{
    return tdb_heap_compute_data_size(row->desc, row->values, row->isnull);
}

/* The header size a tuple of this row gets (as tdb_heap_form_tuple). */
static Size
row_header_size(TupleDesc desc, const bool *isnull)
{
    Size len = SizeofHeapTupleHeader;

    for (int i = 0; i < desc->natts; i++)
        if (isnull[i]) {
            len += BITMAPLEN(desc->natts);
            break;
        }
    return MAXALIGN(len);
}

static bool
same_pointer(Datum a, Datum b)
{
    const varlena *va = (const varlena *)DatumGetPointer(a);
    const varlena *vb = (const varlena *)DatumGetPointer(b);

    return VARATT_IS_EXTERNAL_ONDISK(va) && VARATT_IS_EXTERNAL_ONDISK(vb) &&
           memcmp(va, vb, TOAST_POINTER_SIZE) == 0;
}

/*
 * Prepare column i: decide what may happen to it and bring foreign
 * external values inline (in their stored, possibly compressed, form).
 */
static void
prepare_column(ToastRow *row, int i, const Datum *old_values,
               const bool *old_isnull)
{
    const TupleAttr *att = TupleDescAttr(row->desc, i);
    const varlena *v;

    if (row->isnull[i] || att->attlen != -1) {
        row->flags[i] = COL_IGNORE;
        return;
    }
    v = (const varlena *)DatumGetPointer(row->values[i]);
    if (old_values != NULL && !old_isnull[i] &&
        same_pointer(row->values[i], old_values[i])) {
        /* an UPDATE keeping the column: keep its chunks too */
        row->flags[i] = COL_IGNORE;
        return;
    }
    if (VARATT_IS_EXTERNAL(v))
        v = tdb_detoast_fetch_stored(v);
    if (att->attstorage == TYPSTORAGE_PLAIN) {
        if (VARATT_IS_EXTENDED(v))
            v = tdb_detoast(v);
        row->flags[i] = COL_IGNORE;
    } else if (att->attstorage == TYPSTORAGE_EXTERNAL)
        row->flags[i] = COL_INCOMPRESSIBLE;
    if (VARATT_IS_COMPRESSED(v))
        row->flags[i] |= COL_INCOMPRESSIBLE;
    row->values[i] = PointerGetDatum(v);
}

/*
 * The largest column whose storage is one of `storages`, not ignored,
 * not already external, larger than a pointer; with for_compression
 * also not incompressible.  -1 if none.
 */
static int
biggest_column(const ToastRow *row, const char *storages,
               bool for_compression)
{
    int best = -1;
    Size best_size = TOAST_MIN_CANDIDATE;

    for (int i = 0; i < row->desc->natts; i++) {
        const varlena *v;
        Size size;

        if (row->flags[i] & (COL_IGNORE | COL_EXTERNAL))
            continue;
        if (for_compression && (row->flags[i] & COL_INCOMPRESSIBLE))
            continue;
        if (strchr(storages, TupleDescAttr(row->desc, i)->attstorage) ==
            NULL)
            continue;
        v = (const varlena *)DatumGetPointer(row->values[i]);
        size = VARSIZE_ANY(v);
        if (size > best_size) {
            best = i;
            best_size = size;
        }
    }
    return best;
}

static char
column_compression(const ToastRow *row, int i)
{
    char method = TupleDescAttr(row->desc, i)->attcompression;

    return method != TOAST_COMPRESSION_DEFAULT
               ? method
               : row->target->default_compression;
}

/* Try to compress column i; false (and marked) if it did not shrink. */
static bool
compress_column(ToastRow *row, int i)
{
    const varlena *v = (const varlena *)DatumGetPointer(row->values[i]);
    varlena *c = tdb_toast_compress(v, column_compression(row, i));

    if (c == NULL) {
        row->flags[i] |= COL_INCOMPRESSIBLE;
        return false;
    }
    row->values[i] = PointerGetDatum(c);
    row->flags[i] |= COL_INCOMPRESSIBLE; /* compressed once is enough */
    row->data_size = row_data_size(row);
    return true;
}

/* Store column i's value in the toast relation; the row keeps a pointer. */
static void
externalize_column(ToastRow *row, int i)
{
    const varlena *v = (const varlena *)DatumGetPointer(row->values[i]);
    varatt_external ptr;
    char *pointer;

    if (VARATT_IS_COMPRESSED(v)) {
        uint32 method = (uint32)VARDATA_COMPRESSED_GET_COMPRESS_METHOD(v);

        tdb_toast_store_value(row->target->toastrel, row->target->xact,
                              VARDATA(v), VARSIZE_4B(v) - VARHDRSZ,
                              (int32)(VARDATA_COMPRESSED_GET_EXTSIZE(v) +
                                      VARHDRSZ),
                              method << VARLENA_EXTSIZE_BITS, &ptr);
    } else {
        Size len = VARSIZE_ANY_EXHDR(v);

        tdb_toast_store_value(row->target->toastrel, row->target->xact,
                              VARDATA_ANY(v), len, (int32)(len + VARHDRSZ),
                              0, &ptr);
    }
    pointer = tdb_palloc(TOAST_POINTER_SIZE);
    tdb_toast_pointer_set(pointer, &ptr);
    row->values[i] = PointerGetDatum(pointer);
    row->flags[i] |= COL_EXTERNAL;
    row->data_size = row_data_size(row);
}

/* Passes 1 and 3: compress the biggest candidates while too big. */
static void
compress_pass(ToastRow *row, const char *storages, Size max_data,
              bool externalize_huge)
{
    int i;

    while (row->data_size > max_data &&
           (i = biggest_column(row, storages, true)) >= 0) {
        /* EXTENDED (pass 1) or MAIN (pass 3); EXTERNAL values were marked
         * incompressible when the row was prepared */
        (void)compress_column(row, i);
        /* a value larger than the whole target goes out now: compressing
         * the smaller columns would not be enough */
        if (externalize_huge && row->target->toastrel != NULL &&
            VARSIZE_ANY(DatumGetPointer(row->values[i])) > max_data)
            externalize_column(row, i);
    }
}

/* Passes 2 and 4: move the biggest candidates out of line. */
static void
externalize_pass(ToastRow *row, const char *storages, Size max_data)
{
    int i;

    if (row->target->toastrel == NULL)
        return;
    while (row->data_size > max_data &&
           (i = biggest_column(row, storages, false)) >= 0)
        externalize_column(row, i);
}

/*
 * The common case: nothing to do -- no value arrives external (or
 * compressed into a PLAIN column) and the row is under the threshold.
 */
static bool
needs_toaster(TupleDesc desc, const Datum *values, const bool *isnull)
{
    Size hoff = row_header_size(desc, isnull);

    for (int i = 0; i < desc->natts; i++) {
        const varlena *v;

        if (isnull[i] || desc->compact_attrs[i].attlen != -1)
            continue;
        v = (const varlena *)DatumGetPointer(values[i]);
        if (VARATT_IS_EXTERNAL(v) ||
            (VARATT_IS_COMPRESSED(v) &&
             TupleDescAttr(desc, i)->attstorage == TYPSTORAGE_PLAIN))
            return true;
    }
    return hoff + tdb_heap_compute_data_size(desc, values, isnull) >
           TOAST_TUPLE_THRESHOLD;
}

HeapTuple
tdb_toast_form_tuple(const ToastTarget *target, const Datum *values,
                     const bool *isnull, const Datum *old_values,
                     const bool *old_isnull, Datum **stored_values)
{
    TupleDesc desc = target->rel->rd_att;
    int natts = desc->natts;
    ToastRow row;
    Size target_data;

    if (!needs_toaster(desc, values, isnull)) {
        if (stored_values != NULL)
            *stored_values = (Datum *)values;
        return tdb_heap_form_tuple(desc, values, isnull);
    }

    row.target = target;
    row.desc = desc;
    row.isnull = isnull;
    row.values = tdb_palloc(sizeof(Datum) * (Size)Max(natts, 1));
    row.flags = tdb_palloc0((Size)Max(natts, 1));
    memcpy(row.values, values, sizeof(Datum) * (Size)natts);
    for (int i = 0; i < natts; i++)
        prepare_column(&row, i, old_values, old_isnull);
    row.hoff = row_header_size(desc, isnull);
    row.data_size = row_data_size(&row);

    target_data = TOAST_TUPLE_TARGET - row.hoff;
    if (row.hoff + row.data_size > TOAST_TUPLE_THRESHOLD) {
        compress_pass(&row, "xe", target_data, true);
        externalize_pass(&row, "xe", target_data);
        compress_pass(&row, "m", target_data, false);
        externalize_pass(&row, "m", TOAST_TUPLE_TARGET_MAIN - row.hoff);
    }
    if (stored_values != NULL)
        *stored_values = row.values;
    return tdb_heap_form_tuple(desc, row.values, isnull);
}

void
tdb_toast_delete_row(const ToastTarget *target, const Datum *old_values,
                     const bool *old_isnull, const Datum *new_values,
                     const bool *new_isnull)
{
    TupleDesc desc = target->rel->rd_att;

    if (target->toastrel == NULL)
        return;
    for (int i = 0; i < desc->natts; i++) {
        const varlena *v;
        varatt_external ptr;

        if (old_isnull[i] || TupleDescAttr(desc, i)->attlen != -1)
            continue;
        v = (const varlena *)DatumGetPointer(old_values[i]);
        if (!VARATT_IS_EXTERNAL_ONDISK(v))
            continue;
        if (new_values != NULL && !new_isnull[i] &&
            same_pointer(old_values[i], new_values[i]))
            continue;
        tdb_toast_pointer_get(v, &ptr);
        if (ptr.va_toastrelid != target->toastrel->rd_id)
            continue;
        tdb_toast_delete_value(target->toastrel, &ptr, target->xact);
    }
}
