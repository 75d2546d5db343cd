/*
 * combocid.c -- combo command ids (combocid.h): the per-transaction table
 * of (cmin, cmax) pairs behind HEAP_COMBOCID tuples.
 *
 * The pairs sit in an array indexed by combo id; a hash table of combo
 * ids (open addressing, linear probing, at most half full) finds the id
 * of a pair already handed out, so deleting many tuples of one command
 * inserted by one earlier command makes one entry, not one per tuple.
 * Both live in the transaction's TransactionContext: resetting it at the
 * end of the transaction frees them, and tdb_combocid_reset forgets the
 * pointers.
 */
#include "common/base.h"

#include "access/access_int.h"
#include "access/combocid.h"
#include "access/htup_xact.h"
#include "common/elog.h"

#define COMBOCID_INITIAL_SIZE 64

void
tdb_combocid_reset(Transaction *xact)
{
    xact->combos = NULL;
    xact->ncombos = 0;
    xact->combos_size = 0;
    xact->combo_hash = NULL;
    xact->combo_hash_size = 0;
}

static inline uint32
pair_hash(CommandId cmin, CommandId cmax)
{
    uint64 key = ((uint64)cmin << 32) | cmax;

    key *= UINT64_C(0x9E3779B97F4A7C15);
    return (uint32)(key >> 32);
}

/* Insert combo id `id` into the hash table (which has room). */
static void
hash_insert(Transaction *xact, uint32 id)
{
    const ComboCid *pair = &xact->combos[id];
    uint32 mask = xact->combo_hash_size - 1;
    uint32 pos = pair_hash(pair->cmin, pair->cmax) & mask;

    while (xact->combo_hash[pos] != 0)
        pos = (pos + 1) & mask;
    xact->combo_hash[pos] = id + 1;
}

/* Make room for one more pair: grow the array and, past half full, the
 * hash table (rebuilding it). */
static void
make_room(Transaction *xact)
{
    MemoryContext old = tdb_mcxt_switch_to(xact->xact_cxt);

    if (xact->combos == NULL) {
        xact->combos_size = COMBOCID_INITIAL_SIZE;
        xact->combos = tdb_palloc_array(ComboCid, xact->combos_size);
        xact->combo_hash_size = COMBOCID_INITIAL_SIZE * 2;
        xact->combo_hash = tdb_palloc0_array(uint32, xact->combo_hash_size);
    } else if (xact->ncombos == xact->combos_size) {
        uint32 new_size = xact->combos_size * 2;
        uint32 *new_hash = tdb_palloc0_array(uint32, (Size)new_size * 2);

        xact->combos = tdb_repalloc_array(xact->combos, ComboCid, new_size);
        tdb_pfree(xact->combo_hash);
        xact->combo_hash = new_hash;
        xact->combos_size = new_size;
        xact->combo_hash_size = new_size * 2;
        for (uint32 id = 0; id < xact->ncombos; id++)
            hash_insert(xact, id);
    }
    tdb_mcxt_switch_to(old);
}

/* The combo id of (cmin, cmax), made if new (PostgreSQL's
 * GetComboCommandId). */
static CommandId
combo_id(Transaction *xact, CommandId cmin, CommandId cmax)
{
    uint32 id;

    if (xact->combo_hash != NULL) {
        uint32 mask = xact->combo_hash_size - 1;

        for (uint32 pos = pair_hash(cmin, cmax) & mask;
             xact->combo_hash[pos] != 0; pos = (pos + 1) & mask) {
            const ComboCid *pair = &xact->combos[xact->combo_hash[pos] - 1];

            if (pair->cmin == cmin && pair->cmax == cmax)
                return xact->combo_hash[pos] - 1;
        }
    }
    if (xact->ncombos >= InvalidCommandId - 1)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("cannot have more than 2^32-1 combo command IDs in a "
                       "transaction"));
    make_room(xact);
    id = xact->ncombos++;
    xact->combos[id].cmin = cmin;
    xact->combos[id].cmax = cmax;
    hash_insert(xact, id);
    return id;
}

static const ComboCid *
combo_pair(const Transaction *xact, CommandId id)
{
    if (id >= xact->ncombos)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("tuple has unknown combo command id %u", id),
                errdetail("Transaction %u has made %u combo command IDs.",
                          xact->xid, xact->ncombos));
    return &xact->combos[id];
}

CommandId
tdb_combocid_get_cmin(const HeapTupleHeaderData *tup, const Transaction *xact)
{
    CommandId cid = HeapTupleHeaderGetRawCommandId(tup);

    Assert(xact_is_current(xact, HeapTupleHeaderGetRawXmin(tup)));
    if (HeapTupleHeaderGetInfomask(tup) & HEAP_COMBOCID)
        return combo_pair(xact, cid)->cmin;
    return cid;
}

CommandId
tdb_combocid_get_cmax(const HeapTupleHeaderData *tup, const Transaction *xact)
{
    CommandId cid = HeapTupleHeaderGetRawCommandId(tup);

    Assert(xact_is_current(xact, HeapTupleHeaderGetRawXmax(tup)));
    if (HeapTupleHeaderGetInfomask(tup) & HEAP_COMBOCID)
        return combo_pair(xact, cid)->cmax;
    return cid;
}

void
tdb_combocid_adjust_cmax(const HeapTupleHeaderData *tup, Transaction *xact,
                         CommandId *cmax, bool *iscombo)
{
    uint16 infomask = HeapTupleHeaderGetInfomask(tup);

    if (!HeapInfomaskXminCommitted(infomask) &&
        xact_is_current(xact, HeapTupleHeaderGetRawXmin(tup))) {
        CommandId cmin = tdb_combocid_get_cmin(tup, xact);

        *cmax = combo_id(xact, cmin, *cmax);
        *iscombo = true;
    } else
        *iscombo = false;
}
