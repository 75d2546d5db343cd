/*
 * exec_result.c -- Result: one row computed from constants (SELECT 1+1),
 * or its child's rows projected, gated by a constant qual evaluated once.
 */
#include "common/base.h"

#include "executor/exec_int.h"

typedef struct ResultState {
    PlanState ps;
    ExprState *constant_qual;
    bool checked; /* constant qual evaluated */
    bool passes;  /* ... and true */
    bool done;    /* the single row was returned */
} ResultState;

static TupleTableSlot *
exec_result(PlanState *node)
{
    ResultState *rs = (ResultState *)node;
    ExprContext *econtext = node->econtext;

    if (!rs->checked) {
        rs->checked = true;
        tdb_exec_reset_row(econtext);
        rs->passes = tdb_exec_qual(rs->constant_qual, econtext);
    }
    if (!rs->passes)
        return NULL;
    for (;;) {
        tdb_exec_reset_row(econtext);
        if (node->lefttree != NULL) {
            TupleTableSlot *row = tdb_exec_proc_node(node->lefttree);

            if (row == NULL)
                return NULL;
            econtext->outer_slot = row;
        } else if (rs->done)
            return NULL;
        else
            rs->done = true;
        if (tdb_exec_filter(node))
            return tdb_exec_project(node->projection, econtext);
    }
}

static void
rescan_result(PlanState *node)
{
    ResultState *rs = (ResultState *)node;

    rs->done = false;
    rs->checked = false;
    if (node->lefttree != NULL)
        tdb_exec_rescan(node->lefttree);
}

PlanState *
tdb_exec_init_result(Result *plan, EState *estate)
{
    ResultState *rs = tdb_palloc0(sizeof(ResultState));

    rs->ps.tag = T_PlanState;
    tdb_exec_init_common(&rs->ps, &plan->plan, estate, sizeof(ResultState));
    rs->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    rs->ps.exec = exec_result;
    rs->ps.rescan = rescan_result;
    rs->constant_qual = tdb_exec_init_qual(plan->resconstantqual, estate);
    tdb_exec_assign_projection(&rs->ps);
    return &rs->ps;
}
