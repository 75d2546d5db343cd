/*
 * exec_append.c -- Append: the rows of each child in turn (UNION ALL).
 */
#include "common/base.h"

#include "executor/exec_int.h"

typedef struct AppendState {
    PlanState ps;
    PlanState **children;
    int nchildren;
    int current;
} AppendState;

static TupleTableSlot *
exec_append(PlanState *node)
{
    AppendState *as = (AppendState *)node;

    while (as->current < as->nchildren) {
        TupleTableSlot *row = tdb_exec_proc_node(as->children[as->current]);

        if (row != NULL)
            return row;
        as->current++;
    }
    return NULL;
}

static void
rescan_append(PlanState *node)
{
    AppendState *as = (AppendState *)node;

    as->current = 0;
    for (int i = 0; i < as->nchildren; i++)
        tdb_exec_rescan(as->children[i]);
}

static void
end_append(PlanState *node)
{
    AppendState *as = (AppendState *)node;

    for (int i = 0; i < as->nchildren; i++)
        tdb_exec_end_node(as->children[i]);
}

PlanState *
tdb_exec_init_append(Append *plan, EState *estate)
{
    AppendState *as = tdb_palloc0(sizeof(AppendState));

    as->ps.tag = T_PlanState;
    tdb_exec_init_common(&as->ps, &plan->plan, estate, sizeof(AppendState));
    as->nchildren = list_length(plan->appendplans);
    as->children =
        tdb_palloc(sizeof(PlanState *) * (Size)Max(1, as->nchildren));
    for (int i = 0; i < as->nchildren; i++)
        as->children[i] =
            tdb_exec_init_node(list_nth(plan->appendplans, i), estate);
    as->ps.exec = exec_append;
    as->ps.rescan = rescan_append;
    as->ps.end = end_append;
    return &as->ps;
}

/* The children of an Append state (EXPLAIN). */
int
tdb_exec_append_children(PlanState *node, PlanState ***children)
{
    AppendState *as = (AppendState *)node;

    *children = as->children;
    return as->nchildren;
}
