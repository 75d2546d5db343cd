/*
 * exec_unique.c -- Unique: drop rows equal (on the given columns, NULLs
 * equal to NULLs) to the row before; the input is sorted on them
 * (SELECT DISTINCT, UNION without ALL).
 */
#include "common/base.h"

#include "executor/exec_int.h"

typedef struct UniqueState {
    PlanState ps;
    TupleTableSlot *last; /* copy of the last returned row */
    bool have_last;
} UniqueState;

static TupleTableSlot *
exec_unique(PlanState *node)
{
    UniqueState *us = (UniqueState *)node;
    Unique *plan = (Unique *)node->plan;

    for (;;) {
        TupleTableSlot *row = tdb_exec_proc_node(node->lefttree);

        if (row == NULL)
            return NULL;
        if (us->have_last && tdb_exec_rows_equal(us->last, row, plan->num_cols, plan->col_idx,
                                plan->eq_ops))
            continue;
        tdb_slot_copy(us->last, row);
        us->have_last = true;
        return row;
    }
}

static void
rescan_unique(PlanState *node)
{
    ((UniqueState *)node)->have_last = false;
    tdb_exec_rescan(node->lefttree);
}

PlanState *
tdb_exec_init_unique(Unique *plan, EState *estate)
{
    UniqueState *us = tdb_palloc0(sizeof(UniqueState));

    us->ps.tag = T_PlanState;
    tdb_exec_init_common(&us->ps, &plan->plan, estate, sizeof(UniqueState));
    us->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    us->last = tdb_slot_create(us->ps.lefttree->result_desc,
                               &tdb_tts_ops_minimal);
    us->ps.exec = exec_unique;
    us->ps.rescan = rescan_unique;
    return &us->ps;
}
