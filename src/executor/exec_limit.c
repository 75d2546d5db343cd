/*
 * exec_limit.c -- Limit: skip OFFSET rows, return at most LIMIT rows.
 * Both are evaluated once per scan; PostgreSQL's errors for negative
 * values (2201W, 2201X); NULL means no limit / no offset.
 */
#include "common/base.h"

#include "common/elog.h"
#include "executor/exec_int.h"

typedef struct LimitState {
    PlanState ps;
    ExprState *offset_expr;
    ExprState *count_expr;
    bool started;
    int64 offset;
    int64 count; /* -1: no limit */
    int64 returned;
} LimitState;

static int64
eval_bound(LimitState *ls, ExprState *expr, bool is_count)
{
    bool isnull;
    int64 value;

    if (expr == NULL)
        return is_count ? -1 : 0;
    value = DatumGetInt64(
        tdb_exec_eval_expr(expr, ls->ps.econtext, &isnull));
    if (isnull)
        return is_count ? -1 : 0;
    if (value < 0) {
        if (is_count)
            ereport(ERROR, errcode(ERRCODE_INVALID_ROW_COUNT_IN_LIMIT_CLAUSE),
                    errmsg("LIMIT must not be negative"));
        ereport(ERROR,
                errcode(ERRCODE_INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE),
                errmsg("OFFSET must not be negative"));
    }
    return value;
}

static TupleTableSlot *
exec_limit(PlanState *node)
{
    LimitState *ls = (LimitState *)node;
    TupleTableSlot *row;

    if (!ls->started) {
        tdb_exec_reset_row(node->econtext);
        ls->offset = eval_bound(ls, ls->offset_expr, false);
        ls->count = eval_bound(ls, ls->count_expr, true);
        ls->started = true;
        ls->returned = 0;
        /* a Sort right below need keep only the rows that will be read */
        if (nodeTag(node->lefttree->plan) == T_Sort)
            tdb_exec_sort_set_bound(node->lefttree,
                                    ls->count > 0 &&
                                            ls->offset <= INT64_MAX - ls->count
                                        ? ls->offset + ls->count
                                        : 0);
        for (int64 i = 0; i < ls->offset; i++)
            if (tdb_exec_proc_node(node->lefttree) == NULL)
                return NULL;
    }
    if (ls->count >= 0 && ls->returned >= ls->count)
        return NULL;
    row = tdb_exec_proc_node(node->lefttree);
    if (row != NULL)
        ls->returned++;
    return row;
}

static void
rescan_limit(PlanState *node)
{
    ((LimitState *)node)->started = false;
    tdb_exec_rescan(node->lefttree);
}

PlanState *
tdb_exec_init_limit(Limit *plan, EState *estate)
{
    LimitState *ls = tdb_palloc0(sizeof(LimitState));

    ls->ps.tag = T_PlanState;
    tdb_exec_init_common(&ls->ps, &plan->plan, estate, sizeof(LimitState));
    ls->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    ls->offset_expr = tdb_exec_init_expr(plan->limit_offset, estate);
    ls->count_expr = tdb_exec_init_expr(plan->limit_count, estate);
    ls->ps.exec = exec_limit;
    ls->ps.rescan = rescan_limit;
    return &ls->ps;
}
