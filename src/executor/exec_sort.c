/*
 * exec_sort.c -- Sort: read the whole input, sort it in memory, return
 * it in order.  Also the row-sorting helper other nodes use (aggregates
 * with DISTINCT / ORDER BY).
 *
 * Rows are copied as minimal tuples into the node's "SortContext" and
 * sorted with qsort_r over an array of (tuple, first key) entries; the
 * first key's value is extracted once per row so most comparisons never
 * deform a tuple.  NULLs sort as PostgreSQL's do: last in ascending
 * order, first in descending, unless NULLS FIRST/LAST says otherwise.
 * (The work_mem-bounded external sort is issue 9.)
 */
#include "common/base.h"

#include <stdlib.h>

#include "common/elog.h"
#include "executor/exec_int.h"
#include "executor/sortutil.h"

typedef struct SortEntry {
    MinimalTuple tuple;
    Datum key1;
    bool key1_null;
} SortEntry;

struct RowSorter {
    TupleDesc desc;
    const SortKey *keys;
    int nkeys;
    MemoryContext mcxt;  /* tuples */
    SortEntry *entries;
    int64 nentries, size;
    int64 next;          /* reading position */
    TupleTableSlot *a, *b; /* comparison slots */
    TupleTableSlot *out;   /* minimal slot handed to readers */
};

RowSorter *
tdb_sorter_create(TupleDesc desc, const SortKey *keys, int nkeys,
                  MemoryContext parent)
{
    RowSorter *rs = tdb_palloc0(sizeof(RowSorter));

    rs->desc = desc;
    rs->keys = keys;
    rs->nkeys = nkeys;
    rs->mcxt = tdb_aset_create(parent, "SortContext", ALLOCSET_DEFAULT_SIZES);
    rs->size = 1024;
    rs->entries = tdb_mcxt_alloc(rs->mcxt, sizeof(SortEntry) * (Size)rs->size);
    rs->a = tdb_slot_create(desc, &tdb_tts_ops_minimal);
    rs->b = tdb_slot_create(desc, &tdb_tts_ops_minimal);
    rs->out = tdb_slot_create(desc, &tdb_tts_ops_minimal);
    return rs;
}

void
tdb_sorter_put(RowSorter *rs, TupleTableSlot *row)
{
    MemoryContext old = tdb_mcxt_switch_to(rs->mcxt);
    SortEntry *e;

    if (rs->nentries == rs->size) {
        rs->size *= 2;
        rs->entries =
            tdb_repalloc(rs->entries, sizeof(SortEntry) * (Size)rs->size);
    }
    e = &rs->entries[rs->nentries++];
    e->tuple = tdb_slot_copy_minimal_tuple(row, 0);
    tdb_mcxt_switch_to(old);
    if (rs->nkeys > 0) {
        /* the first key, read from the copy (valid as long as it is) */
        tdb_slot_store_minimal_tuple(rs->a, e->tuple, false);
        e->key1 = tdb_slot_getattr(rs->a, rs->keys[0].col, &e->key1_null);
        tdb_slot_clear(rs->a);
    }
}

/* Compare two non-NULL values with a key's cmp function. */
static int
compare_values(const SortKey *key, Datum a, Datum b)
{
    FunctionCallInfoData fcinfo = {0};
    int32 cmp;

    fcinfo.nargs = 2;
    fcinfo.args[0].value = a;
    fcinfo.args[1].value = b;
    cmp = DatumGetInt32(key->support->cmp(&fcinfo));
    return key->descending ? (cmp < 0 ? 1 : cmp > 0 ? -1 : 0) : cmp;
}

int
tdb_sort_compare_datums(const SortKey *key, Datum a, bool a_null, Datum b,
                        bool b_null)
{
    if (a_null || b_null) {
        if (a_null && b_null)
            return 0;
        /* NULL is larger than everything unless nulls_first */
        return (a_null ? 1 : -1) * (key->nulls_first ? -1 : 1);
    }
    return compare_values(key, a, b);
}

static int
compare_entries(const void *pa, const void *pb, void *arg)
{
    const SortEntry *ea = pa, *eb = pb;
    RowSorter *rs = arg;
    int cmp;

    if (rs->nkeys == 0)
        return 0;
    cmp = tdb_sort_compare_datums(&rs->keys[0], ea->key1, ea->key1_null,
                                  eb->key1, eb->key1_null);
    if (cmp != 0 || rs->nkeys == 1)
        return cmp;
    tdb_slot_store_minimal_tuple(rs->a, ea->tuple, false);
    tdb_slot_store_minimal_tuple(rs->b, eb->tuple, false);
    for (int k = 1; k < rs->nkeys; k++) {
        bool an, bn;
        Datum av = tdb_slot_getattr(rs->a, rs->keys[k].col, &an);
        Datum bv = tdb_slot_getattr(rs->b, rs->keys[k].col, &bn);

        cmp = tdb_sort_compare_datums(&rs->keys[k], av, an, bv, bn);
        if (cmp != 0)
            return cmp;
    }
    return 0;
}

void
tdb_sorter_sort(RowSorter *rs)
{
    if (rs->nentries > 1)
        qsort_r(rs->entries, (size_t)rs->nentries, sizeof(SortEntry),
                compare_entries, rs);
    rs->next = 0;
}

TupleTableSlot *
tdb_sorter_next(RowSorter *rs)
{
    if (rs->next >= rs->nentries)
        return NULL;
    tdb_slot_store_minimal_tuple(rs->out, rs->entries[rs->next++].tuple,
                                 false);
    return rs->out;
}

void
tdb_sorter_rewind(RowSorter *rs)
{
    rs->next = 0;
}

int64
tdb_sorter_count(const RowSorter *rs)
{
    return rs->nentries;
}

Size
tdb_sorter_memory(const RowSorter *rs)
{
    return tdb_mcxt_mem_allocated(rs->mcxt, true);
}

void
tdb_sorter_reset(RowSorter *rs)
{
    tdb_slot_clear(rs->out);
    tdb_mcxt_reset(rs->mcxt);
    rs->size = 1024;
    rs->entries = tdb_mcxt_alloc(rs->mcxt, sizeof(SortEntry) * (Size)rs->size);
    rs->nentries = 0;
    rs->next = 0;
}

/* ----------------------------------------------------------------------
 * The Sort node
 * ---------------------------------------------------------------------- */

typedef struct SortState {
    PlanState ps;
    RowSorter *sorter;
    bool sorted;
    int64 mark; /* reading position after the marked row */
} SortState;

static TupleTableSlot *
exec_sort(PlanState *node)
{
    SortState *ss = (SortState *)node;

    if (!ss->sorted) {
        TupleTableSlot *row;

        while ((row = tdb_exec_proc_node(node->lefttree)) != NULL) {
            tdb_exec_check_interrupts(node->estate);
            tdb_sorter_put(ss->sorter, row);
        }
        tdb_sorter_sort(ss->sorter);
        ss->sorted = true;
    }
    return tdb_sorter_next(ss->sorter);
}

static void
rescan_sort(PlanState *node)
{
    SortState *ss = (SortState *)node;

    /* the input is the same unless it has parameters: sort again */
    tdb_sorter_reset(ss->sorter);
    ss->sorted = false;
    tdb_exec_rescan(node->lefttree);
}

static void
mark_sort(PlanState *node)
{
    SortState *ss = (SortState *)node;

    ss->mark = ss->sorter->next;
}

static void
restore_sort(PlanState *node)
{
    SortState *ss = (SortState *)node;

    ss->sorter->next = ss->mark;
}

PlanState *
tdb_exec_init_sort(Sort *plan, EState *estate)
{
    SortState *ss = tdb_palloc0(sizeof(SortState));

    ss->ps.tag = T_PlanState;
    tdb_exec_init_common(&ss->ps, &plan->plan, estate, sizeof(SortState));
    ss->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    ss->sorter = tdb_sorter_create(ss->ps.lefttree->result_desc, plan->keys,
                                   plan->num_keys, estate->query_mcxt);
    ss->ps.exec = exec_sort;
    ss->ps.rescan = rescan_sort;
    ss->ps.mark_pos = mark_sort;
    ss->ps.restore_pos = restore_sort;
    return &ss->ps;
}

/* For EXPLAIN ANALYZE: memory used by a Sort node's rows, in kB. */
int64
tdb_exec_sort_memory_kb(PlanState *node)
{
    SortState *ss = (SortState *)node;

    return (int64)((tdb_sorter_memory(ss->sorter) + 1023) / 1024);
}
