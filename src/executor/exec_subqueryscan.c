/*
 * exec_subqueryscan.c -- SubqueryScan: a subquery in FROM; its plan's
 * rows become this node's scan rows (renamed by the target list).
 */
#include "common/base.h"

#include "executor/exec_int.h"

static TupleTableSlot *
exec_subqueryscan(PlanState *node)
{
    ExprContext *econtext = node->econtext;

    for (;;) {
        TupleTableSlot *row = tdb_exec_proc_node(node->lefttree);

        if (row == NULL)
            return NULL;
        econtext->scan_slot = row;
        tdb_exec_reset_row(econtext);
        if (tdb_exec_filter(node))
            return tdb_exec_project(node->projection, econtext);
    }
}

PlanState *
tdb_exec_init_subqueryscan(SubqueryScan *plan, EState *estate)
{
    PlanState *ps = tdb_palloc0(sizeof(PlanState));

    ps->tag = T_PlanState;
    tdb_exec_init_common(ps, &plan->plan, estate, sizeof(PlanState));
    ps->lefttree = tdb_exec_init_node(plan->subplan, estate);
    ps->exec = exec_subqueryscan;
    tdb_exec_assign_projection(ps);
    return ps;
}
