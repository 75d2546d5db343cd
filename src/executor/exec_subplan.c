/*
 * exec_subplan.c -- subqueries inside expressions: SubPlans (run per
 * evaluation, with correlated parameters) and initplans (uncorrelated:
 * run once, on first use of the parameter they set).
 *
 * Kinds, with SQL's NULL rules:
 *   EXISTS   true if the subquery returns a row;
 *   EXPR     the single row's first column (NULL if no row; 21000 if
 *            more than one);
 *   ANY      (x IN / x op ANY (subquery)): testexpr compares x with the
 *            row's columns (Params); true if it is true for some row,
 *            else NULL if it was NULL for some row, else false;
 *   ALL      false if testexpr is false for some row, else NULL if NULL
 *            for some row, else true.
 * A correlated subplan is rescanned with new parameter values each time;
 * hashing the subquery's rows for IN is issue 8.
 */
#include "common/base.h"

#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/exec_int.h"
#include "types/builtins.h"

struct SubPlanState {
    SubPlan *sub;
    PlanState *planstate;
    ExprState *testexpr;
    List *arg_states;   /* ExprState per correlated argument */
    bool started;       /* planstate has run once (rescan next time) */
};

SubPlanState *
tdb_exec_init_subplan(SubPlan *sub, EState *estate)
{
    SubPlanState *ss = tdb_palloc0(sizeof(SubPlanState));
    Plan *plan;

    if (sub->plan_id < 1 || sub->plan_id > list_length(estate->subplans))
        elog(ERROR, "subplan %d does not exist", sub->plan_id);
    plan = list_nth(estate->subplans, sub->plan_id - 1);
    ss->sub = sub;
    ss->planstate = tdb_exec_init_node(plan, estate);
    /* ended with the statement (a subplan stopped early holds pins) */
    estate->subplan_states = tdb_lappend(estate->subplan_states,
                                         ss->planstate);
    ss->testexpr = tdb_exec_init_expr(sub->testexpr, estate);
    for (int i = 0; i < list_length(sub->args); i++)
        ss->arg_states = tdb_lappend(
            ss->arg_states, tdb_exec_init_expr(list_nth(sub->args, i), estate));
    return ss;
}

/* Point the subquery's output Params at the row's columns. */
static void
set_output_params(SubPlanState *ss, EState *estate, TupleTableSlot *row)
{
    for (int i = 0; i < list_length(ss->sub->param_ids); i++) {
        ParamExecData *p = &estate->params[list_nth_int(ss->sub->param_ids, i)];

        p->value = tdb_slot_getattr(row, i + 1, &p->isnull);
    }
}

/* Start (or restart) the subquery with the current correlation values. */
static void
start_subquery(SubPlanState *ss, ExprContext *econtext)
{
    EState *estate = econtext->estate;

    for (int i = 0; i < list_length(ss->sub->par_param); i++) {
        ParamExecData *p = &estate->params[list_nth_int(ss->sub->par_param, i)];

        p->value = tdb_exec_eval_expr(list_nth(ss->arg_states, i), econtext,
                                      &p->isnull);
    }
    if (ss->started)
        tdb_exec_rescan(ss->planstate);
    ss->started = true;
}

/* A copy of value (of type typid) in the current memory context. */
static Datum
copy_value(Datum value, Oid typid)
{
    const TypeInfo *t = tdb_type_lookup(typid);
    Size size;
    void *copy;

    if (t == NULL || t->byval)
        return value;
    size = t->len > 0    ? (Size)t->len
           : t->len == -1 ? VARSIZE_ANY(DatumGetPointer(value))
                          : strlen(DatumGetPointer(value)) + 1;
    copy = tdb_palloc(size);
    memcpy(copy, DatumGetPointer(value), size);
    return PointerGetDatum(copy);
}

static Datum
run_scalar(SubPlanState *ss, MemoryContext caller, bool *isnull)
{
    TupleTableSlot *row = tdb_exec_proc_node(ss->planstate);
    Datum value;
    MemoryContext old;

    if (row == NULL) {
        *isnull = true;
        return (Datum)0;
    }
    value = tdb_slot_getattr(row, 1, isnull);
    /* the row goes away with the next call: keep a copy in the caller's
     * per-row memory */
    if (!*isnull) {
        old = tdb_mcxt_switch_to(caller);
        value = copy_value(value, exprType(&ss->sub->xpr));
        tdb_mcxt_switch_to(old);
    }
    if (tdb_exec_proc_node(ss->planstate) != NULL)
        ereport(ERROR, errcode(ERRCODE_CARDINALITY_VIOLATION),
                errmsg("more than one row returned by a subquery used as "
                       "an expression"));
    return value;
}

/* ARRAY(subquery): every row's column, in the caller's memory */
static Datum
run_array(SubPlanState *ss, MemoryContext caller)
{
    TargetEntry *first = linitial(ss->planstate->plan->targetlist);
    Oid elemtype = exprType(first->expr);
    Datum *values;
    int n = 0, max = 16;
    TupleTableSlot *row;
    Datum result;
    MemoryContext old = tdb_mcxt_switch_to(caller);

    values = tdb_palloc(sizeof(Datum) * (Size)max);
    tdb_mcxt_switch_to(old);
    while ((row = tdb_exec_proc_node(ss->planstate)) != NULL) {
        bool isnull;
        Datum v = tdb_slot_getattr(row, 1, &isnull);

        if (isnull)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("arrays with NULL elements are not supported "
                           "yet"));
        old = tdb_mcxt_switch_to(caller);
        if (n == max) {
            max *= 2;
            values = tdb_repalloc(values, sizeof(Datum) * (Size)max);
        }
        values[n++] = copy_value(v, elemtype);
        tdb_mcxt_switch_to(old);
    }
    old = tdb_mcxt_switch_to(caller);
    result = tdb_array_construct(elemtype, values, n, 1);
    tdb_mcxt_switch_to(old);
    return result;
}

static Datum
run_any_all(SubPlanState *ss, ExprContext *econtext, bool *isnull)
{
    bool is_any = ss->sub->sublink_type == ANY_SUBLINK;
    bool any_null = false;
    TupleTableSlot *row;

    while ((row = tdb_exec_proc_node(ss->planstate)) != NULL) {
        bool rnull;
        Datum r;

        set_output_params(ss, econtext->estate, row);
        r = tdb_exec_eval_expr(ss->testexpr, econtext, &rnull);
        if (rnull)
            any_null = true;
        else if (DatumGetBool(r) == is_any) {
            *isnull = false;
            return BoolGetDatum(is_any);
        }
    }
    *isnull = any_null;
    return BoolGetDatum(!is_any);
}

/*
 * Run the subquery.  Called from expression evaluation, i.e. in some
 * node's per-row memory; the subquery's nodes allocate what they keep
 * across rows (scan state, ...) in whatever is current when they run, so
 * they run in the statement's memory instead.
 */
Datum
tdb_exec_subplan(SubPlanState *ss, ExprContext *econtext, bool *isnull)
{
    MemoryContext caller = tdb_current_mcxt;
    MemoryContext old = tdb_mcxt_switch_to(econtext->estate->query_mcxt);
    Datum result = (Datum)0;

    start_subquery(ss, econtext);
    *isnull = false;
    switch (ss->sub->sublink_type) {
    case EXISTS_SUBLINK:
        result = BoolGetDatum(tdb_exec_proc_node(ss->planstate) != NULL);
        break;
    case EXPR_SUBLINK:
        result = run_scalar(ss, caller, isnull);
        break;
    case ARRAY_SUBLINK:
        result = run_array(ss, caller);
        break;
    case ANY_SUBLINK:
    case ALL_SUBLINK:
        result = run_any_all(ss, econtext, isnull);
        break;
    }
    tdb_mcxt_switch_to(old);
    return result;
}

void
tdb_exec_eval_param(ExprContext *econtext, int paramid, Datum *value,
                    bool *isnull)
{
    EState *estate = econtext->estate;
    ParamExecData *p;

    if (paramid < 0 || paramid >= estate->nparams)
        elog(ERROR, "parameter %d does not exist", paramid);
    p = &estate->params[paramid];
    if (p->pending != NULL) {
        /* an initplan: run it now, once */
        SubPlanState *ss = p->pending;
        MemoryContext old = tdb_mcxt_switch_to(estate->query_mcxt);
        bool rnull;
        Datum r;

        p->pending = NULL;
        r = tdb_exec_subplan(ss, econtext, &rnull);
        if (!rnull && !tdb_type_lookup(exprType(&ss->sub->xpr))->byval) {
            /* keep the value beyond the row that first asked for it */
            const TypeInfo *t = tdb_type_lookup(exprType(&ss->sub->xpr));
            Size size = t->len > 0 ? (Size)t->len
                                   : VARSIZE_ANY(DatumGetPointer(r));
            void *copy = tdb_palloc(size);

            memcpy(copy, DatumGetPointer(r), size);
            r = PointerGetDatum(copy);
        }
        tdb_mcxt_switch_to(old);
        p->value = r;
        p->isnull = rnull;
    }
    *value = p->value;
    *isnull = p->isnull;
}

PlanState *
tdb_exec_subplan_planstate(EState *estate, int plan_id)
{
    Plan *plan;

    if (plan_id < 1 || plan_id > list_length(estate->subplans))
        return NULL;
    plan = list_nth(estate->subplans, plan_id - 1);
    for (int i = 0; i < list_length(estate->subplan_states); i++) {
        PlanState *ps = list_nth(estate->subplan_states, i);

        if (ps->plan == plan)
            return ps;
    }
    return NULL;
}
