/*
 * dest.c -- results built by the statement layers rather than by a plan,
 * handed to a DestReceiver (dest.h): a one-column text result, as SHOW
 * and EXPLAIN send.
 */
#include "common/base.h"

#include "catalog/pg_type.h"
#include "executor/dest.h"
#include "tuple/varlena.h"

void
tdb_dest_send_text_column(DestReceiver *dest, const char *label,
                          const char *const *values, int nvalues)
{
    TupleDesc desc = tdb_tupdesc_create(1);
    TupleTableSlot *slot;

    tdb_tupdesc_init_attr(desc, 0, label, TEXTOID, -1, -1, false, 'i', 'x');
    tdb_tupdesc_finalize(desc);
    slot = tdb_slot_create(desc, &tdb_tts_ops_virtual);
    if (dest->startup != NULL)
        dest->startup(dest, desc);
    for (int i = 0; i < nvalues; i++) {
        tdb_slot_clear(slot);
        slot->tts_values[0] = PointerGetDatum(tdb_text_from_cstring(values[i]));
        slot->tts_isnull[0] = false;
        tdb_slot_store_virtual(slot);
        if (dest->receive != NULL)
            dest->receive(dest, slot);
    }
    tdb_slot_drop(slot);
}
