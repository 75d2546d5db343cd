/*
 * exec_agg.c -- Agg: aggregates over groups of input rows.
 *
 * Strategies: PLAIN (the whole input is one group; no input still gives
 * one row), SORTED (input ordered by the group keys: a group ends where
 * the keys change), HASHED (groups found through a hash table on the
 * keys, spilling to disk past work_mem x hash_mem_multiplier: hashgroup.h;
 * output in table order, batch by batch).
 *
 * Each group has, per aggregate, a transition state (value + isnull)
 * advanced with PostgreSQL's rules (builtins.h, AggDesc).  Aggregates
 * with DISTINCT or ORDER BY buffer their inputs per group in a Tuplesort
 * and feed them to the transition function, sorted (and deduplicated),
 * when the group is finished.
 *
 * Per input row, one compiled program (expr.h, tdb_exec_init_agg_trans)
 * evaluates every aggregate's FILTER and arguments and advances its
 * state: count and sum over int2/int4 with their own steps, everything
 * else through advance_callback into this file.  When every aggregate is
 * count or sum(int2/int4) of a plain input column, a loop
 * (advance_simple) replaces even the program.  The per-row memory is
 * reset only when the program may allocate there.  Together these cut
 * the aggregation of `SELECT sum(c16)` from about 240 instructions per
 * input row (an interpreter call per argument, an fmgr call, a
 * memory-context reset) to about 45, the call of the child included
 * (callgrind, bench/sql).
 *
 * Output: for each group, the aggregates' final values go to
 * econtext->agg_values/agg_nulls, the OUTER row gives the group-key
 * columns the target list reads, then HAVING (the node's qual) and the
 * projection.  Plain/sorted: the OUTER row is the group's first input
 * row.  Hashed: the planner made every expression outside the aggregates
 * read group-key columns only (set references match whole GROUP BY
 * expressions first), so the OUTER row is built from the key the hash
 * table stores -- no row is kept per group.  If an expression reads
 * another input column anyway, the group keeps a copy of its first row
 * (keep_first_row) and that is the OUTER row, as before.
 *
 * Hashed group state, one block in the hash table's group (zeroed when
 * new), for n aggregates:
 *
 *     [Datum values[n]][bool nulls[n]][bool no_input[n]]
 *     [Tuplesort *sorters[n]]     (if an aggregate buffers its inputs)
 *     [MinimalTuple first_row]    (if keep_first_row)
 *
 * For `SELECT i, sum(j) ... GROUP BY i` that is 16 bytes next to a 4-byte
 * bare key: 24 bytes per group plus its 8-byte bucket, where PostgreSQL
 * 15 spends a 24-byte entry, a 16-byte AllocSet chunk header, 16 bytes of
 * per-group state and a MinimalTuple (tuplehash.c, bench/RESULTS.md).
 * By-reference transition values and the sorters live in group_mcxt,
 * which the hash grouping counts against the memory limit and which is
 * reset after every batch.
 */
#include "common/base.h"

#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/exec_int.h"
#include "executor/hashgroup.h"
#include "executor/tuplesort.h"

/* Per aggregate: how to evaluate it. */
typedef struct PerAgg {
    Aggref *aggref;
    const AggDesc *desc;
    int nargs;
    FmgrInfo trans_flinfo;
    FmgrInfo final_flinfo;
    Datum init_value;
    bool init_null;
    int16 transtype_len;
    bool transtype_byval;
    /* DISTINCT / ORDER BY: inputs buffered per group */
    bool buffered;
    TupleTableSlot *prev_slot;  /* DISTINCT: the last row kept */
    TupleDesc input_desc;       /* the buffered rows: the arguments, then
                                 * the ORDER BY keys */
    SortKey *sort_keys;
    int nsort_keys;
    SortKey *arg_keys;          /* per argument, for DISTINCT's equality */
    Tuplesort *sorter;          /* of the current group (plain/sorted) */
    TupleTableSlot *input_slot; /* a virtual row being buffered */
    List *order_states;         /* ExprState per ORDER BY key */
    FunctionCallInfoData fcinfo; /* the transition call: the per-row
                                  * program leaves the inputs in args[1..] */
} PerAgg;

/* One group's transition states (views into one block). */
typedef struct GroupState {
    Datum *values;
    bool *nulls;
    bool *no_input; /* strict transition with no input yet */
    Tuplesort **sorters; /* buffered aggregates (NULL if none buffers) */
    MinimalTuple *first_row; /* hashed with keep_first_row, else NULL */
} GroupState;

typedef struct AggState {
    PlanState ps;
    Agg *plan;
    int naggs;
    PerAgg *peraggs;
    MemoryContext group_mcxt;  /* transition values of the current group
                                * (plain/sorted) or of the batch's groups
                                * (hashed) */
    AggCallContext call_context;
    ExprState *trans;           /* the per-input-row program */
    int *simple_cols;           /* or, all simple (see advance_simple):
                                 * per aggregate its input column, 0-based
                                 * (-1 for count(*)); else NULL */
    AggTransKind *simple_kinds;
    int simple_last;            /* highest input column read, 1-based */
    bool reset_per_row;         /* it may allocate in per-row memory */
    bool any_buffered;          /* some aggregate buffers its inputs */
    uint32 rows_unchecked;      /* input rows since the last interrupt check */
    GroupState *trans_group;    /* the group it is advancing */
    TupleTableSlot *first_row;  /* the group's first input row */
    TupleTableSlot *pending;    /* sorted: the row that began the next group */
    bool input_done;
    bool done;
    bool produced;              /* plain: the single row was returned */
    GroupState current;
    /* hashed */
    HashGrouping *hash;
    Size state_size;            /* bytes of a group's state block */
    Size sorters_offset;        /* where its parts start in the block */
    Size first_row_offset;
    bool keep_first_row;        /* an output expression reads a non-key
                                 * input column */
    char *init_block;           /* a new group's block, copied as is when
                                 * every initial state is by value (else
                                 * NULL: init_group) */
    bool batch_filled;          /* the batch's input was consumed */
    TupleTableSlot *key_slot;   /* virtual: a group's key columns */
    GroupState hash_group;      /* view of the group being advanced */
} AggState;

/* ----------------------------------------------------------------------
 * Transition
 * ---------------------------------------------------------------------- */

static Datum
copy_datum(Datum value, bool byval, int16 len)
{
    Size size;
    void *copy;

    if (byval)
        return value;
    size = len > 0 ? (Size)len : VARSIZE_ANY(DatumGetPointer(value));
    copy = tdb_palloc(size);
    memcpy(copy, DatumGetPointer(value), size);
    return PointerGetDatum(copy);
}

/*
 * Point g's arrays into a state block laid out as the header comment
 * shows (as->state_size bytes).
 */
static inline void
group_view(const AggState *as, char *block, GroupState *g)
{
    int n = Max(1, as->naggs);

    g->values = (Datum *)block;
    g->nulls = (bool *)(block + sizeof(Datum) * (Size)n);
    g->no_input = g->nulls + n;
    g->sorters = as->any_buffered
                     ? (Tuplesort **)(block + as->sorters_offset)
                     : NULL;
    g->first_row = as->keep_first_row
                       ? (MinimalTuple *)(block + as->first_row_offset)
                       : NULL;
}

/* A new group's transition states, initialized (memory in group_mcxt). */
static void
init_group(AggState *as, GroupState *g)
{
    MemoryContext old = tdb_mcxt_switch_to(as->group_mcxt);

    for (int i = 0; i < as->naggs; i++) {
        PerAgg *pa = &as->peraggs[i];

        g->nulls[i] = pa->init_null;
        g->values[i] = pa->init_null
                           ? (Datum)0
                           : copy_datum(pa->init_value, pa->transtype_byval,
                                        pa->transtype_len);
        g->no_input[i] = true;
        if (pa->buffered)
            g->sorters[i] = tdb_exec_begin_sort(as->ps.estate, pa->input_desc,
                                                pa->sort_keys, pa->nsort_keys,
                                                as->group_mcxt);
    }
    tdb_mcxt_switch_to(old);
}

/* Advance one aggregate's state with already evaluated inputs. */
static void
advance(AggState *as, PerAgg *pa, GroupState *g, int i,
        FunctionCallInfoData *fcinfo)
{
    const AggDesc *desc = pa->desc;
    Datum newval;
    MemoryContext old;

    if (desc->strict_trans) {
        for (int a = 1; a <= pa->nargs; a++)
            if (fcinfo->args[a].isnull)
                return;
        if (g->nulls[i] && g->no_input[i] && pa->init_null) {
            /* the first input becomes the state */
            old = tdb_mcxt_switch_to(as->group_mcxt);
            g->values[i] = copy_datum(fcinfo->args[1].value,
                                      pa->transtype_byval,
                                      pa->transtype_len);
            tdb_mcxt_switch_to(old);
            g->nulls[i] = false;
            g->no_input[i] = false;
            return;
        }
        if (g->nulls[i])
            return; /* a strict transition that went NULL stays NULL */
    }
    fcinfo->args[0].value = g->values[i];
    fcinfo->args[0].isnull = g->nulls[i];
    fcinfo->isnull = false;
    fcinfo->nargs = (int16)(pa->nargs + 1);
    fcinfo->flinfo = &pa->trans_flinfo;
    fcinfo->context = &as->call_context;
    newval = desc->transfn(fcinfo);
    g->no_input[i] = false;
    if (!pa->transtype_byval && desc->transtype != INTERNALOID &&
        !fcinfo->isnull && newval != g->values[i]) {
        Datum old_value = g->values[i];
        bool old_null = g->nulls[i];

        old = tdb_mcxt_switch_to(as->group_mcxt);
        newval = copy_datum(newval, false, pa->transtype_len);
        tdb_mcxt_switch_to(old);
        if (!old_null && tdb_mcxt_chunk_context(DatumGetPointer(old_value)) ==
                             as->group_mcxt)
            tdb_pfree(DatumGetPointer(old_value));
    }
    g->values[i] = newval;
    g->nulls[i] = fcinfo->isnull;
}

/* Buffer a DISTINCT / ORDER BY aggregate's inputs for the group. */
static void
buffer_inputs(AggState *as, PerAgg *pa, Tuplesort *sorter,
              FunctionCallInfoData *fcinfo)
{
    TupleTableSlot *slot = pa->input_slot;
    ExprContext *econtext = as->ps.econtext;

    tdb_slot_clear(slot);
    for (int a = 0; a < pa->nargs; a++) {
        slot->tts_values[a] = fcinfo->args[a + 1].value;
        slot->tts_isnull[a] = fcinfo->args[a + 1].isnull;
    }
    for (int k = 0; k < list_length(pa->order_states); k++)
        slot->tts_values[pa->nargs + k] =
            tdb_exec_eval_expr(list_nth(pa->order_states, k), econtext,
                               &slot->tts_isnull[pa->nargs + k]);
    tdb_slot_store_virtual(slot);
    tdb_tuplesort_put(sorter, slot);
}

/*
 * Check for cancel every AGG_INTERRUPT_ROWS input rows: the check is an
 * indirect call, about 10 instructions, a noticeable share of a row's
 * cost when the transition is a single add.
 */
#define AGG_INTERRUPT_ROWS 64

static inline void
check_interrupts(AggState *as)
{
    if (unlikely(++as->rows_unchecked >= AGG_INTERRUPT_ROWS)) {
        as->rows_unchecked = 0;
        tdb_exec_check_interrupts(as->ps.estate);
    }
}

/*
 * The per-row program's AGG_TRANS_CALL step: advance (or buffer the
 * inputs of) aggregate aggno of the group being advanced, its inputs
 * evaluated into its fcinfo.
 */
static void
advance_callback(void *arg, int aggno)
{
    AggState *as = arg;
    PerAgg *pa = &as->peraggs[aggno];
    GroupState *g = as->trans_group;

    if (pa->buffered)
        buffer_inputs(as, pa, g->sorters[aggno], &pa->fcinfo);
    else
        advance(as, pa, g, aggno, &pa->fcinfo);
}

/* advance_simple's int8 overflow: the transition function raises it. */
TDB_NOINLINE TDB_COLD static void
advance_overflow(AggState *as, GroupState *g, int i, Datum input)
{
    PerAgg *pa = &as->peraggs[i];

    pa->fcinfo.args[1].value = input;
    pa->fcinfo.args[1].isnull = false;
    advance(as, pa, g, i, &pa->fcinfo);
}

/*
 * Advance every aggregate of group g with row when they are all "simple":
 * count(*), count(col), sum(int2/int4 col) of plain input columns, no
 * FILTER, no DISTINCT / ORDER BY.  The per-row program would do the same
 * in about 75 instructions per row (entering the interpreter, a FETCH, a
 * column copy into the call's arguments, the aggregate step); this loop
 * takes about 20 (callgrind, bench/sql `SELECT sum(c16)`).  An int8
 * overflow goes through advance(), whose transition function raises the
 * error.
 */
static TDB_ALWAYS_INLINE void
advance_simple(AggState *as, GroupState *g, TupleTableSlot *row)
{
    /* locals: the build has -fno-strict-aliasing, so every store below
     * would otherwise reload these from the structs */
    const int naggs = as->naggs;
    const int *cols = as->simple_cols;
    const AggTransKind *kinds = as->simple_kinds;
    const Datum *in_values;
    const bool *in_nulls;
    Datum *values = g->values;
    bool *nulls = g->nulls;

    if (row->tts_nvalid < as->simple_last)
        tdb_slot_getsomeattrs(row, as->simple_last);
    in_values = row->tts_values;
    in_nulls = row->tts_isnull;
    for (int i = 0; i < naggs; i++) {
        int col = cols[i];
        int64 x, result;

        switch (kinds[i]) {
        case AGG_TRANS_COUNT_STAR:
            x = 1;
            break;
        case AGG_TRANS_COUNT:
            if (in_nulls[col])
                continue;
            x = 1;
            break;
        case AGG_TRANS_SUM_INT2:
            if (in_nulls[col])
                continue;
            x = DatumGetInt16(in_values[col]);
            break;
        default: /* AGG_TRANS_SUM_INT4 */
            if (in_nulls[col])
                continue;
            x = DatumGetInt32(in_values[col]);
            break;
        }
        if (nulls[i]) { /* sum: the first input starts the state */
            values[i] = Int64GetDatum(x);
            nulls[i] = false;
        } else if (likely(!__builtin_add_overflow(DatumGetInt64(values[i]), x,
                                                  &result)))
            values[i] = Int64GetDatum(result);
        else
            advance_overflow(as, g, i, col >= 0 ? in_values[col] : 0);
    }
}

/*
 * Plain aggregation of simple transitions over a SeqScan that returns
 * one column (tdb_exec_seqscan_can_batch): the rest of the input in
 * batches of up to AGG_BATCH_ROWS values (a page's worth at most), each
 * aggregate advanced by a loop over the batch.  The child's output row is
 * that one column (every output column is it), so every aggregate reads
 * it.  A row at a time, each row cost a call of the child, a result slot
 * written and read and the dispatch on the aggregate's kind; with the
 * column read in one loop per page (tdb_heap_getattr_array), `SELECT
 * sum(c16)` went from 284 to 183 instructions per row (callgrind,
 * bench/sql).  The result is the same: the same additions in the same
 * order, the same overflow error, and nothing is output before the input
 * ends.
 */
#define AGG_BATCH_ROWS 128

static void
advance_batches(AggState *as, GroupState *g, PlanState *child)
{
    Datum values[AGG_BATCH_ROWS];
    bool isnull[AGG_BATCH_ROWS];
    int n;

    while ((n = tdb_exec_seqscan_batch(child, values, isnull,
                                       AGG_BATCH_ROWS)) > 0) {
        for (int i = 0; i < as->naggs; i++) {
            AggTransKind kind = as->simple_kinds[i];
            bool state_null = g->nulls[i];
            int64 state = DatumGetInt64(g->values[i]);

            for (int k = 0; k < n; k++) {
                int64 x, sum;

                if (kind == AGG_TRANS_COUNT_STAR)
                    x = 1;
                else if (isnull[k])
                    continue;
                else if (kind == AGG_TRANS_COUNT)
                    x = 1;
                else if (kind == AGG_TRANS_SUM_INT2)
                    x = DatumGetInt16(values[k]);
                else
                    x = DatumGetInt32(values[k]);
                if (state_null) { /* sum: the first input starts it */
                    state = x;
                    state_null = false;
                } else if (likely(!__builtin_add_overflow(state, x, &sum)))
                    state = sum;
                else {
                    g->values[i] = Int64GetDatum(state);
                    g->nulls[i] = false;
                    advance_overflow(as, g, i, values[k]); /* raises */
                    state = DatumGetInt64(g->values[i]);
                }
            }
            g->values[i] = Int64GetDatum(state);
            g->nulls[i] = state_null;
        }
    }
}

/*
 * Feed one input row to every aggregate of group g: reset the per-row
 * memory (if the program may use it) and run the per-row program with
 * the row as OUTER.
 */
static TDB_ALWAYS_INLINE void
advance_all(AggState *as, GroupState *g, TupleTableSlot *row)
{
    ExprContext *econtext = as->ps.econtext;
    bool isnull;

    econtext->outer_slot = row;
    if (as->reset_per_row)
        tdb_exec_reset_row(econtext);
    if (as->simple_cols != NULL) {
        advance_simple(as, g, row);
        return;
    }
    if (as->naggs == 0)
        return;
    as->trans_group = g;
    econtext->agg_trans_values = g->values;
    econtext->agg_trans_nulls = g->nulls;
    (void)tdb_exec_interp(as->trans, econtext, &isnull);
}

/* Are the arguments of two buffered rows equal (DISTINCT)? */
static bool
same_inputs(PerAgg *pa, TupleTableSlot *a, TupleTableSlot *b)
{
    for (int k = 0; k < pa->nargs; k++) {
        bool an, bn;
        Datum av = tdb_slot_getattr(a, k + 1, &an);
        Datum bv = tdb_slot_getattr(b, k + 1, &bn);

        if (tdb_sort_compare_datums(&pa->arg_keys[k], av, an, bv, bn) != 0)
            return false;
    }
    return true;
}

/* Feed a buffered aggregate's sorted (and deduplicated) inputs. */
static void
drain_buffer(AggState *as, PerAgg *pa, GroupState *g, int i)
{
    Tuplesort *sorter = g->sorters[i];
    bool have_prev = false;
    TupleTableSlot *row;

    tdb_tuplesort_perform(sorter);
    while ((row = tdb_tuplesort_next(sorter)) != NULL) {
        FunctionCallInfoData fcinfo = {0};

        if (pa->aggref->distinct) {
            if (have_prev && same_inputs(pa, row, pa->prev_slot))
                continue;
            tdb_slot_copy(pa->prev_slot, row);
            have_prev = true;
        }
        fcinfo.nargs = (int16)(pa->nargs + 1);
        for (int a = 0; a < pa->nargs; a++)
            fcinfo.args[a + 1].value =
                tdb_slot_getattr(row, a + 1, &fcinfo.args[a + 1].isnull);
        advance(as, pa, g, i, &fcinfo);
    }
    tdb_slot_clear(pa->prev_slot);
}

/* Final values of a group into the econtext's aggregate arrays. */
static void
finalize(AggState *as, GroupState *g)
{
    ExprContext *econtext = as->ps.econtext;
    MemoryContext old = tdb_mcxt_switch_to(econtext->per_row_mcxt);

    for (int i = 0; i < as->naggs; i++) {
        PerAgg *pa = &as->peraggs[i];
        const AggDesc *desc = pa->desc;

        if (pa->buffered)
            drain_buffer(as, pa, g, i);
        if (desc->finalfn == NULL) {
            econtext->agg_values[i] = g->values[i];
            econtext->agg_nulls[i] = g->nulls[i];
        } else if (desc->strict_final && g->nulls[i]) {
            econtext->agg_values[i] = (Datum)0;
            econtext->agg_nulls[i] = true;
        } else {
            FunctionCallInfoData fcinfo = {0};

            fcinfo.flinfo = &pa->final_flinfo;
            fcinfo.context = &as->call_context;
            fcinfo.nargs = 1;
            fcinfo.args[0].value = g->values[i];
            fcinfo.args[0].isnull = g->nulls[i];
            econtext->agg_values[i] = desc->finalfn(&fcinfo);
            econtext->agg_nulls[i] = fcinfo.isnull;
        }
    }
    tdb_mcxt_switch_to(old);
}

/* HAVING and the projection for a finished group; NULL if filtered. */
static TupleTableSlot *
emit_group(AggState *as)
{
    ExprContext *econtext = as->ps.econtext;

    if (tdb_exec_qual(as->ps.qual, econtext))
        return tdb_exec_project(as->ps.projection, econtext);
    return NULL;
}

/* ----------------------------------------------------------------------
 * Plain and sorted
 * ---------------------------------------------------------------------- */

/* Do rows a and b (input rows) have equal group keys? */
static bool
same_group(AggState *as, TupleTableSlot *a, TupleTableSlot *b)
{
    return tdb_exec_rows_equal(a, b, as->plan->num_cols,
                               as->plan->grp_col_idx, as->plan->grp_eq);
}

static TupleTableSlot *
exec_agg_sorted(PlanState *node)
{
    AggState *as = (AggState *)node;
    ExprContext *econtext = node->econtext;

    for (;;) {
        TupleTableSlot *row, *out;
        bool have_row = false;

        if (as->done)
            return NULL;
        tdb_mcxt_reset(as->group_mcxt);
        group_view(as, tdb_mcxt_alloc(as->group_mcxt, as->state_size),
                   &as->current);
        init_group(as, &as->current);
        /* the group's first row: the pending one, or the next input */
        if (as->pending != NULL && !tdb_slot_is_empty(as->pending)) {
            tdb_slot_copy(as->first_row, as->pending);
            tdb_slot_clear(as->pending);
            have_row = true;
        } else if (!as->input_done) {
            row = tdb_exec_proc_node(node->lefttree);
            if (row != NULL) {
                tdb_slot_copy(as->first_row, row);
                have_row = true;
            } else
                as->input_done = true;
        }
        if (!have_row) {
            as->done = true;
            if (as->plan->strategy != AGG_PLAIN || as->produced)
                return NULL;
            /* no input at all: one row of empty aggregates */
            econtext->outer_slot = tdb_exec_null_slot(node->lefttree);
        } else {
            advance_all(as, &as->current, as->first_row);
            if (as->plan->strategy == AGG_PLAIN && as->simple_cols != NULL &&
                tdb_exec_seqscan_can_batch(node->lefttree)) {
                advance_batches(as, &as->current, node->lefttree);
                row = NULL;
            } else if (as->plan->strategy == AGG_PLAIN &&
                       as->simple_cols != NULL) {
                /* the whole input, simple transitions: the tightest loop */
                while ((row = tdb_exec_proc_node(node->lefttree)) != NULL) {
                    check_interrupts(as);
                    advance_simple(as, &as->current, row);
                }
            } else {
                while ((row = tdb_exec_proc_node(node->lefttree)) != NULL) {
                    if (as->plan->strategy == AGG_SORTED &&
                        !same_group(as, as->first_row, row)) {
                        tdb_slot_copy(as->pending, row);
                        break;
                    }
                    check_interrupts(as);
                    advance_all(as, &as->current, row);
                }
            }
            if (row == NULL)
                as->input_done = true;
            econtext->outer_slot = as->first_row;
        }
        as->produced = true;
        tdb_exec_reset_row(econtext);
        finalize(as, &as->current);
        if ((out = emit_group(as)) != NULL)
            return out;
    }
}

/* ----------------------------------------------------------------------
 * Hashed
 * ---------------------------------------------------------------------- */

/*
 * Consume the current batch's input: each row advances its group's
 * states, creating the group if new -- unless the hash grouping spilled
 * the row to a partition, to be aggregated in a later batch.
 */
static void
fill_batch(AggState *as)
{
    GroupState *g = &as->hash_group;
    TupleTableSlot *row;

    while ((row = tdb_hashgroup_next_input(as->hash, as->ps.lefttree)) !=
           NULL) {
        bool is_new;
        char *block;

        check_interrupts(as);
        block = tdb_hashgroup_lookup(as->hash, row, &is_new);
        if (block == NULL)
            continue;
        group_view(as, block, g);
        if (is_new) {
            if (as->init_block != NULL)
                memcpy(block, as->init_block, as->state_size);
            else
                init_group(as, g);
            if (as->keep_first_row) {
                MemoryContext old = tdb_mcxt_switch_to(as->group_mcxt);

                *g->first_row = tdb_slot_copy_minimal_tuple(row, 0);
                tdb_mcxt_switch_to(old);
            }
        }
        advance_all(as, g, row);
    }
    as->batch_filled = true;
}

static TupleTableSlot *exec_agg_hashed(PlanState *node);

bool
tdb_exec_agg_hash_stats(PlanState *node, int *batches, int64 *peak_kb,
                        int64 *disk_kb)
{
    AggState *as = (AggState *)node;

    if (as->ps.exec != exec_agg_hashed)
        return false;
    tdb_hashgroup_stats(as->hash, batches, peak_kb, disk_kb);
    return true;
}

static TupleTableSlot *
exec_agg_hashed(PlanState *node)
{
    AggState *as = (AggState *)node;
    ExprContext *econtext = node->econtext;

    while (!as->done) {
        GroupState *g = &as->hash_group;
        char *block;

        if (!as->batch_filled)
            fill_batch(as);
        while ((block = tdb_hashgroup_next_group(as->hash, as->key_slot)) !=
               NULL) {
            TupleTableSlot *out;

            group_view(as, block, g);
            if (as->keep_first_row) {
                tdb_slot_store_minimal_tuple(as->first_row, *g->first_row,
                                             false);
                econtext->outer_slot = as->first_row;
            } else
                econtext->outer_slot = as->key_slot;
            tdb_exec_reset_row(econtext);
            finalize(as, g);
            if ((out = emit_group(as)) != NULL)
                return out;
        }
        /* the batch is out: its transition values go, the next begins */
        tdb_slot_clear(as->first_row);
        tdb_mcxt_reset(as->group_mcxt);
        as->batch_filled = false;
        if (!tdb_hashgroup_next_batch(as->hash))
            as->done = true;
    }
    return NULL;
}

/* Does expression tree node read an input column past the group keys
 * outside the aggregates' arguments?  (arg: the number of key columns) */
static bool
reads_non_key_column(Node *node, void *arg)
{
    int nkeys = *(int *)arg;

    if (node == NULL || IsA(node, Aggref))
        return false;
    if (IsA(node, Var))
        return ((Var *)node)->varno == OUTER_VAR &&
               ((Var *)node)->varattno > nkeys;
    return tdb_expr_walk_children(node, reads_non_key_column, arg);
}

/* Hashed: the state block's layout, the hash grouping and its slots. */
static void
init_hashed(AggState *as, EState *estate, TupleDesc input_desc)
{
    Agg *plan = as->plan;
    int n = Max(1, as->naggs);
    HashGroupingSpec spec = {0};
    Size size = MAXALIGN((sizeof(Datum) + 2 * sizeof(bool)) * (Size)n);

    as->keep_first_row =
        reads_non_key_column((Node *)plan->plan.targetlist, &plan->num_cols) ||
        reads_non_key_column((Node *)plan->plan.qual, &plan->num_cols);
    as->sorters_offset = size;
    if (as->any_buffered)
        size += sizeof(Tuplesort *) * (Size)n;
    as->first_row_offset = size;
    if (as->keep_first_row)
        size += sizeof(MinimalTuple);
    as->state_size = size;

    spec.input_desc = input_desc;
    spec.nkeys = plan->num_cols;
    spec.key_cols = plan->grp_col_idx;
    spec.eq_ops = (const OperDesc *const *)plan->grp_eq;
    spec.state_size = size;
    spec.deform_natts = as->simple_cols != NULL ? as->simple_last : 0;
    spec.est_groups = plan->num_groups;
    spec.est_input_rows = plan->plan.lefttree->plan_rows;
    spec.extra_mcxt = as->group_mcxt;
    spec.can_spill = true;
    as->hash = tdb_hashgroup_create(&spec, estate);
    if (!as->any_buffered) {
        bool by_value = true;

        for (int i = 0; i < as->naggs; i++)
            by_value &= as->peraggs[i].init_null ||
                        as->peraggs[i].transtype_byval;
        if (by_value) {
            GroupState g;

            as->init_block = tdb_palloc0(size);
            group_view(as, as->init_block, &g);
            init_group(as, &g);
        }
    }
    as->key_slot = tdb_slot_create(input_desc, &tdb_tts_ops_virtual);
}

/* ----------------------------------------------------------------------
 * Setup
 * ---------------------------------------------------------------------- */

static void
init_buffered(PerAgg *pa, Aggref *aggref, EState *estate)
{
    List *tlist = NIL;
    int nargs = list_length(aggref->args);
    int norder = list_length(aggref->order_exprs);

    for (int a = 0; a < nargs; a++)
        tlist = tdb_lappend(
            tlist, tdb_make_target_entry(list_nth(aggref->args, a), a + 1,
                                         "arg", false));
    for (int k = 0; k < norder; k++) {
        Expr *e = list_nth(aggref->order_exprs, k);

        tlist = tdb_lappend(tlist, tdb_make_target_entry(e, nargs + k + 1,
                                                         "key", false));
        pa->order_states =
            tdb_lappend(pa->order_states, tdb_exec_init_expr(e, estate));
    }
    pa->input_desc = tdb_exec_type_from_tlist(tlist);
    pa->input_slot = tdb_slot_create(pa->input_desc, &tdb_tts_ops_virtual);
    /* the sort's rows do not outlive the next one: DISTINCT compares with
     * a copy of the last row it kept */
    pa->prev_slot = tdb_slot_create(pa->input_desc, &tdb_tts_ops_minimal);
    pa->arg_keys = tdb_palloc0(sizeof(SortKey) * (Size)Max(1, nargs));
    for (int k = 0; k < nargs; k++) {
        pa->arg_keys[k].col = k + 1;
        pa->arg_keys[k].support =
            tdb_type_support(exprType(list_nth(aggref->args, k)));
    }
    /* ORDER BY sorts by its keys; DISTINCT (without ORDER BY) by the
     * arguments, which deduplication needs adjacent */
    if (norder > 0) {
        pa->nsort_keys = norder;
        pa->sort_keys = tdb_palloc(sizeof(SortKey) * (Size)norder);
        for (int k = 0; k < norder; k++)
            pa->sort_keys[k] = *(SortKey *)list_nth(aggref->order_keys, k);
    } else {
        pa->nsort_keys = nargs;
        pa->sort_keys = pa->arg_keys;
    }
}

static void
init_peragg(AggState *as, PerAgg *pa, Aggref *aggref, EState *estate)
{
    const AggDesc *desc = aggref->agg;
    const TypeInfo *transtype = tdb_type_lookup(desc->transtype);

    pa->aggref = aggref;
    pa->desc = desc;
    pa->nargs = aggref->is_star ? 0 : list_length(aggref->args);
    pa->trans_flinfo.fn_mcxt = estate->query_mcxt;
    pa->trans_flinfo.fn_addr = desc->transfn;
    pa->final_flinfo.fn_mcxt = estate->query_mcxt;
    pa->final_flinfo.fn_addr = desc->finalfn;
    pa->final_flinfo.fn_expr_rettype = desc->rettype;
    pa->transtype_len = transtype != NULL ? transtype->len : 8;
    pa->transtype_byval = transtype != NULL ? transtype->byval : true;
    pa->init_null = desc->initval == NULL;
    if (!pa->init_null)
        pa->init_value =
            tdb_type_input(desc->transtype, desc->initval, -1);
    pa->buffered = aggref->distinct || aggref->order_exprs != NIL;
    if (pa->buffered)
        init_buffered(pa, aggref, estate);
    pa->fcinfo.flinfo = &pa->trans_flinfo;
    pa->fcinfo.context = &as->call_context;
    pa->fcinfo.nargs = (int16)(pa->nargs + 1);
}

/*
 * How aggregate pa advances in the per-row program: the built-in count
 * and sum(int2/int4) (PostgreSQL's pg_aggregate OIDs) get their own
 * steps, unless DISTINCT / ORDER BY buffers their inputs.
 */
static AggTransKind
trans_kind(const PerAgg *pa)
{
    if (pa->buffered)
        return AGG_TRANS_CALL;
    switch (pa->desc->oid) {
    case 2803: /* count(*) */
        return AGG_TRANS_COUNT_STAR;
    case 2147: /* count("any") */
        return AGG_TRANS_COUNT;
    case 2109: /* sum(int2) */
        return AGG_TRANS_SUM_INT2;
    case 2108: /* sum(int4) */
        return AGG_TRANS_SUM_INT4;
    default:
        return AGG_TRANS_CALL;
    }
}

/* Compile the per-input-row program of every aggregate. */
static void
init_trans(AggState *as, EState *estate)
{
    AggTransSpec *specs =
        tdb_palloc0(sizeof(AggTransSpec) * (Size)Max(1, as->naggs));

    for (int i = 0; i < as->naggs; i++) {
        PerAgg *pa = &as->peraggs[i];

        specs[i].kind = trans_kind(pa);
        specs[i].args = pa->nargs > 0 ? pa->aggref->args : NIL;
        specs[i].filter = pa->aggref->filter;
        specs[i].fcinfo = &pa->fcinfo;
        specs[i].fallback_fn = pa->desc->transfn;
        specs[i].callback = advance_callback;
        specs[i].callback_arg = as;
    }
    as->trans = tdb_exec_init_agg_trans(specs, as->naggs, estate);
    as->reset_per_row = tdb_expr_may_allocate(as->trans);

    /* all simple?  (advance_simple) */
    as->simple_cols = tdb_palloc(sizeof(int) * (Size)Max(1, as->naggs));
    as->simple_kinds =
        tdb_palloc(sizeof(AggTransKind) * (Size)Max(1, as->naggs));
    as->simple_last = 0;
    for (int i = 0; i < as->naggs; i++) {
        Var *var = specs[i].args != NIL ? linitial(specs[i].args) : NULL;

        as->simple_kinds[i] = specs[i].kind;
        as->simple_cols[i] = -1;
        if (specs[i].kind == AGG_TRANS_CALL || specs[i].filter != NULL ||
            (specs[i].kind != AGG_TRANS_COUNT_STAR &&
             (list_length(specs[i].args) != 1 || !IsA(var, Var) ||
              var->varno != OUTER_VAR || var->varattno <= 0))) {
            as->simple_cols = NULL;
            break;
        }
        if (var != NULL && specs[i].kind != AGG_TRANS_COUNT_STAR) {
            as->simple_cols[i] = var->varattno - 1;
            as->simple_last = Max(as->simple_last, (int)var->varattno);
        }
    }
    if (as->naggs == 0)
        as->simple_cols = NULL;
}

static void
rescan_agg(PlanState *node)
{
    AggState *as = (AggState *)node;

    as->done = false;
    as->produced = false;
    as->input_done = false;
    tdb_slot_clear(as->pending);
    if (as->plan->strategy == AGG_HASHED) {
        tdb_slot_clear(as->first_row);
        tdb_mcxt_reset(as->group_mcxt);
        tdb_hashgroup_reset(as->hash);
        as->batch_filled = false;
    }
    tdb_exec_rescan(node->lefttree);
}

PlanState *
tdb_exec_init_agg(Agg *plan, EState *estate)
{
    AggState *as = tdb_palloc0(sizeof(AggState));
    TupleDesc input_desc;

    as->ps.tag = T_PlanState;
    tdb_exec_init_common(&as->ps, &plan->plan, estate, sizeof(AggState));
    as->plan = plan;
    as->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    input_desc = as->ps.lefttree->result_desc;
    as->naggs = list_length(plan->aggs);
    as->peraggs = tdb_palloc0(sizeof(PerAgg) * (Size)Max(1, as->naggs));
    for (int i = 0; i < as->naggs; i++)
        init_peragg(as, &as->peraggs[i], list_nth(plan->aggs, i), estate);
    init_trans(as, estate);
    as->ps.econtext->agg_values =
        tdb_palloc0(sizeof(Datum) * (Size)Max(1, as->naggs));
    as->ps.econtext->agg_nulls =
        tdb_palloc0(sizeof(bool) * (Size)Max(1, as->naggs));
    as->group_mcxt = tdb_aset_create(estate->query_mcxt, "AggContext",
                                     ALLOCSET_DEFAULT_SIZES);
    as->call_context.group_mcxt = as->group_mcxt;
    as->first_row = tdb_slot_create(input_desc, &tdb_tts_ops_minimal);
    as->pending = tdb_slot_create(input_desc, &tdb_tts_ops_minimal);
    for (int i = 0; i < as->naggs; i++)
        as->any_buffered |= as->peraggs[i].buffered;
    if (plan->strategy == AGG_HASHED) {
        init_hashed(as, estate, input_desc);
        as->ps.exec = exec_agg_hashed;
    } else {
        /* the current group's block: values, nulls, no_input, sorters */
        Size n = (Size)Max(1, as->naggs);

        as->sorters_offset =
            MAXALIGN((sizeof(Datum) + 2 * sizeof(bool)) * n);
        as->state_size = as->sorters_offset +
                         (as->any_buffered ? sizeof(Tuplesort *) * n : 0);
        as->ps.exec = exec_agg_sorted;
    }
    as->ps.rescan = rescan_agg;
    tdb_exec_assign_projection(&as->ps);
    return &as->ps;
}
