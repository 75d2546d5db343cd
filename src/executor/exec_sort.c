/*
 * exec_sort.c -- Sort: read the whole input into a tuplesort (work_mem-
 * bounded, spilling sorted runs to temporary files; tuplesort.h), return
 * it in order.  A Limit directly above passes its OFFSET + LIMIT down as
 * the sort's bound (top-N heapsort).  Mark / restore for merge join.  A
 * rescan sorts the input again (it may depend on parameters that
 * changed).
 */
#include "common/base.h"

#include "common/elog.h"
#include "executor/exec_int.h"
#include "executor/tuplesort.h"

typedef struct SortState {
    PlanState ps;
    Tuplesort *sort;
    bool sorted;
    int64 bound; /* 0: none */
} SortState;

Tuplesort *
tdb_exec_begin_sort(EState *estate, TupleDesc desc, const SortKey *keys,
                    int nkeys, MemoryContext parent)
{
    TuplesortConfig cfg = {
        .parent = parent,
        .work_mem_kb = estate->work_mem,
        .temp_dir = estate->temp_dir,
        .trace = estate->trace_sort,
        .check_interrupts = estate->check_interrupts,
        .check_interrupts_arg = estate->check_interrupts_arg,
    };

    return tdb_tuplesort_begin(desc, keys, nkeys, &cfg);
}

/*
 * A bounded sort over a plain scan reads the first key of a page's rows
 * at a time and builds only the rows the top-N heap may keep: most rows
 * of a large input never reach a slot.
 */
#define KEY_BATCH_ROWS 256

static void
put_key_batches(SortState *ss, PlanState *child)
{
    const Sort *plan = (const Sort *)ss->ps.plan;
    int col = plan->keys[0].col;
    Datum values[KEY_BATCH_ROWS];
    bool isnull[KEY_BATCH_ROWS];
    int n;

    while ((n = tdb_exec_seqscan_key_batch(child, col, values, isnull,
                                           KEY_BATCH_ROWS)) > 0)
        for (int k = 0; k < n; k++)
            if (!tdb_tuplesort_skips(ss->sort, values[k], isnull[k]))
                tdb_tuplesort_put(ss->sort,
                                  tdb_exec_seqscan_key_batch_row(child, k));
}

static TupleTableSlot *
exec_sort(PlanState *node)
{
    SortState *ss = (SortState *)node;

    if (!ss->sorted) {
        TupleTableSlot *row;

        uint32 n = 0;

        tdb_tuplesort_set_bound(ss->sort, ss->bound);
        if (ss->bound > 0 && ((Sort *)node->plan)->num_keys > 0 &&
            tdb_exec_seqscan_can_key_batch(node->lefttree))
            put_key_batches(ss, node->lefttree);
        while ((row = tdb_exec_proc_node(node->lefttree)) != NULL) {
            /* scans check per row; this covers inputs that do not */
            if ((++n & 255) == 0)
                tdb_exec_check_interrupts(node->estate);
            tdb_tuplesort_put(ss->sort, row);
        }
        tdb_tuplesort_perform(ss->sort);
        ss->sorted = true;
    }
    return tdb_tuplesort_next(ss->sort);
}

static void
rescan_sort(PlanState *node)
{
    SortState *ss = (SortState *)node;

    tdb_tuplesort_reset(ss->sort);
    ss->sorted = false;
    tdb_exec_rescan(node->lefttree);
}

static void
mark_sort(PlanState *node)
{
    tdb_tuplesort_mark(((SortState *)node)->sort);
}

static void
restore_sort(PlanState *node)
{
    tdb_tuplesort_restore(((SortState *)node)->sort);
}

static void
end_sort(PlanState *node)
{
    SortState *ss = (SortState *)node;

    /* the files go now rather than at the end of the statement */
    tdb_tuplesort_reset(ss->sort);
}

PlanState *
tdb_exec_init_sort(Sort *plan, EState *estate)
{
    SortState *ss = tdb_palloc0(sizeof(SortState));

    ss->ps.tag = T_PlanState;
    tdb_exec_init_common(&ss->ps, &plan->plan, estate, sizeof(SortState));
    ss->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    ss->sort = tdb_exec_begin_sort(estate, ss->ps.lefttree->result_desc,
                                   plan->keys, plan->num_keys,
                                   estate->query_mcxt);
    ss->ps.exec = exec_sort;
    ss->ps.rescan = rescan_sort;
    ss->ps.mark_pos = mark_sort;
    ss->ps.restore_pos = restore_sort;
    ss->ps.end = end_sort;
    return &ss->ps;
}

void
tdb_exec_sort_set_bound(PlanState *node, int64 bound)
{
    ((SortState *)node)->bound = bound;
}

void
tdb_exec_sort_stats(PlanState *node, TuplesortStats *stats)
{
    tdb_tuplesort_stats(((SortState *)node)->sort, stats);
}
