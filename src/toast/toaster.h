/*
 * toaster.h -- deciding, for a row about to be stored, which values to
 * compress and which to move out of line (PostgreSQL's toaster), and
 * removing a dead row's out-of-line values.
 *
 * The toaster works on the row's values before the tuple is formed (a
 * 1 GB value is never copied into a tuple first).  When the row's data
 * would exceed TOAST_TUPLE_TARGET it runs PostgreSQL's four passes, each
 * taking the largest eligible column first:
 *
 *   1. EXTENDED columns are compressed (EXTERNAL ones only marked); a
 *      value still larger than the whole target goes out of line at once
 *   2. EXTENDED / EXTERNAL values go out of line
 *   3. MAIN values are compressed
 *   4. MAIN values go out of line, against the one-row-per-page target
 *
 * A row still larger than a page then fails in the heap ("row is too
 * big"), as in PostgreSQL.  PLAIN columns are never touched, and never
 * hold compressed or external values: one arriving toasted is detoasted.
 *
 * Values that arrive as external pointers (copied from another row, or
 * another table) are read back in their stored form and stored again as
 * new values -- a row never shares chunks with another row, so deleting
 * a row may delete its chunks.  The one exception is an UPDATE that
 * keeps a column: the new version reuses the old version's pointer.
 */
#ifndef TDB_TOAST_TOASTER_H
#define TDB_TOAST_TOASTER_H

#include "common/base.h"
#include "access/relation.h"
#include "access/xact.h"
#include "toast/toast.h"
#include "tuple/heaptuple.h"

/* Where a row goes. */
typedef struct ToastTarget {
    Relation rel;             /* the table */
    Relation toastrel;        /* its toast relation, or NULL if none */
    Transaction *xact;        /* the writing transaction */
    char default_compression; /* TOAST_COMPRESSION_PGLZ / _LZ4 */
} ToastTarget;

/*
 * Form the heap tuple for a new row (or a new row version) of
 * target->rel from values/isnull, compressing and moving values out of
 * line as needed.  For an UPDATE, old_values/old_isnull are the old
 * version's stored values (else NULL): unchanged external values are
 * kept.  If stored_values is not NULL, it receives the values the tuple
 * holds (an array in the current context), for tdb_toast_delete_row.
 * Allocates in the current memory context.
 */
HeapTuple tdb_toast_form_tuple(const ToastTarget *target, const Datum *values,
                               const bool *isnull, const Datum *old_values,
                               const bool *old_isnull, Datum **stored_values);

/*
 * The row with stored values old_values/old_isnull was deleted (or
 * replaced) by target->xact: mark its out-of-line values deleted with
 * it, except those the new version reuses (new_values / new_isnull, the
 * stored values of the new version; NULL for a DELETE).
 */
void tdb_toast_delete_row(const ToastTarget *target, const Datum *old_values,
                          const bool *old_isnull, const Datum *new_values,
                          const bool *new_isnull);

/* Does a row whose tuple has this infomask hold out-of-line values? */
static inline bool
tdb_toast_tuple_has_external(const HeapTupleData *tup)
{
    return (tup->t_data->t_infomask & HEAP_HASEXTERNAL) != 0;
}

#endif /* TDB_TOAST_TOASTER_H */
