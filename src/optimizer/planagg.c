/*
 * planagg.c -- min() and max() from one end of an index (PostgreSQL's
 * planagg.c).
 *
 * A query whose only aggregates are min(col) / max(col) over one table,
 * without GROUP BY, HAVING, DISTINCT, ORDER BY or LIMIT, can read each
 * from the first row of
 *
 *     SELECT col FROM t WHERE <the query's conditions> AND col IS NOT NULL
 *     ORDER BY col [DESC NULLS FIRST] LIMIT 1
 *
 * when an index returns that order (indxpath.c): each becomes an
 * initplan setting a Param, and the query a Result computing its select
 * list from the Params -- PostgreSQL's shape:
 *
 *     Result
 *       InitPlan 1 (returns $0)
 *         ->  Limit
 *               ->  Index Only Scan using t_pkey on t
 *                     Index Cond: (a IS NOT NULL)
 *
 * It is chosen, as in PostgreSQL, when the initplans cost less than the
 * plain aggregation planned already; an aggregate whose subquery is not
 * read in index order keeps the plain plan.  An empty table (or no row
 * passing the conditions) gives the initplan no row: NULL, which is what
 * min() and max() of no rows are.
 *
 * Entry point (planner_int.h): tdb_plan_minmax_aggregates.
 */
#include "common/base.h"

#include <string.h>

#include "catalog/pg_type.h"
#include "optimizer/planner_int.h"

/* One distinct min/max aggregate of the query and its initplan. */
typedef struct MinMaxAgg {
    Aggref *agg; /* the first occurrence */
    bool is_max;
    Plan *plan;
    int paramid;
} MinMaxAgg;

/* Collect the query's aggregates into *aggs; false if one cannot be
 * read from an index end. */
static bool
collect_minmax(Node *node, void *arg)
{
    List **aggs = arg;
    Aggref *a;
    Expr *x;

    if (node == NULL)
        return false;
    if (!IsA(node, Aggref))
        return tdb_expr_walk_children(node, collect_minmax, arg);
    a = (Aggref *)node;
    if ((strcmp(a->agg->name, "min") != 0 &&
         strcmp(a->agg->name, "max") != 0) ||
        list_length(a->args) != 1 || a->distinct || a->filter != NULL ||
        a->order_exprs != NIL || a->agglevelsup != 0)
        return true;
    x = linitial(a->args);
    if (IsA(x, TargetEntry))
        x = ((TargetEntry *)x)->expr;
    if (!IsA(x, Var) || ((Var *)x)->varlevelsup != 0)
        return true;
    for (int i = 0; i < list_length(*aggs); i++)
        if (tdb_expr_equal(list_nth(*aggs, i), node))
            return false;
    *aggs = tdb_lappend(*aggs, a);
    return false;
}

/* The argument of min/max aggregate a (a Var). */
static Expr *
agg_arg(Aggref *a)
{
    Expr *x = linitial(a->args);

    return IsA(x, TargetEntry) ? ((TargetEntry *)x)->expr : x;
}

/* Plan SELECT arg ... ORDER BY arg LIMIT 1 for m; false unless the
 * index gives the order. */
static bool
plan_minmax_path(PlannerInfo *root, MinMaxAgg *m)
{
    Query *q = root->q;
    Query *sub = tdb_palloc(sizeof(Query));
    Expr *arg = agg_arg(m->agg);
    TargetEntry *te = tdb_make_target_entry(arg, 1, NULL, false);
    SortGroupClause *sc = makeNode(SortGroupClause);
    FromExpr *from = makeNode(FromExpr);
    NullTest *nt = makeNode(NullTest);
    PlannerInfo *level = tdb_palloc0(sizeof(PlannerInfo));
    Plan *plan;

    *sub = *q;
    te->ressortgroupref = 1;
    sc->tle_ref = 1;
    sc->eqop = tdb_oper_lookup("=", exprType(arg), exprType(arg));
    sc->support = tdb_type_support(exprType(arg));
    sc->descending = m->is_max;
    sc->nulls_first = m->is_max;
    nt->xpr.type_oid = BOOLOID;
    nt->xpr.typmod = -1;
    nt->xpr.location = -1;
    nt->arg = arg;
    nt->is_not_null = true;
    from->fromlist = tdb_list_copy(q->jointree->fromlist);
    from->quals = tdb_and_of(
        tdb_lappend(tdb_plan_conjuncts(q->jointree->quals, NIL), &nt->xpr));
    sub->jointree = from;
    sub->target_list = tdb_list_make1(te);
    sub->sort_clause = tdb_list_make1(sc);
    sub->limit_count =
        (Expr *)tdb_make_const(INT8OID, -1, Int64GetDatum(1), false);
    sub->limit_offset = NULL;
    sub->has_aggs = false;
    level->glob = root->glob;
    level->q = sub;
    plan = tdb_plan_query_level(level);
    /* Limit over the ordered scan; a Sort below means no index order */
    if (!IsA(plan, Limit) || !IsA(plan->lefttree, IndexScan) ||
        level->init_plans != NIL)
        return false;
    m->plan = plan;
    return true;
}

/* The query's select list with each aggregate replaced by its Param. */
static Node *
replace_aggs(Node *node, void *arg)
{
    List *mms = arg;

    if (node == NULL)
        return NULL;
    if (IsA(node, Aggref))
        for (int i = 0; i < list_length(mms); i++) {
            MinMaxAgg *m = list_nth(mms, i);

            if (tdb_expr_equal((Node *)m->agg, node)) {
                Param *p = makeNode(Param);

                p->xpr.type_oid = exprType(node);
                p->xpr.typmod = exprTypmod(node);
                p->xpr.location = -1;
                p->paramkind = PARAM_EXEC;
                p->paramid = m->paramid;
                return (Node *)p;
            }
        }
    return tdb_expr_mutate_children(node, replace_aggs, arg);
}

Plan *
tdb_plan_minmax_aggregates(PlannerInfo *root, Plan *plain)
{
    Query *q = root->q;
    List *aggs = NIL, *mms = NIL;
    Node *item;
    double cost = CPU_TUPLE_COST;
    Result *result;

    if (!q->has_aggs || q->group_clause != NIL || q->having != NULL ||
        q->distinct_clause != NIL || q->sort_clause != NIL ||
        q->limit_count != NULL || q->limit_offset != NULL ||
        q->has_target_srfs || q->cte_list != NIL ||
        list_length(q->jointree->fromlist) != 1)
        return NULL;
    item = linitial(q->jointree->fromlist);
    if (!IsA(item, RangeTblRef) ||
        rt_fetch(q, ((RangeTblRef *)item)->rtindex)->rtekind != RTE_RELATION ||
        tdb_plan_contains_node((Node *)q->jointree->quals, T_SubPlan) ||
        tdb_plan_contains_node((Node *)q->jointree->quals, T_SubLink))
        return NULL;
    for (int i = 0; i < list_length(q->target_list); i++)
        if (collect_minmax(list_nth(q->target_list, i), &aggs))
            return NULL;
    if (aggs == NIL)
        return NULL;
    for (int i = 0; i < list_length(aggs); i++) {
        MinMaxAgg *m = tdb_palloc0(sizeof(MinMaxAgg));

        m->agg = list_nth(aggs, i);
        m->is_max = strcmp(m->agg->agg->name, "max") == 0;
        if (!plan_minmax_path(root, m))
            return NULL;
        cost += m->plan->total_cost;
        mms = tdb_lappend(mms, m);
    }
    if (cost >= plain->total_cost)
        return NULL;
    /* chosen: the initplans, in the aggregates' order */
    for (int i = 0; i < list_length(mms); i++) {
        MinMaxAgg *m = list_nth(mms, i);
        SubPlan *sp = makeNode(SubPlan);

        root->glob->subplans = tdb_lappend(root->glob->subplans, m->plan);
        m->paramid = new_param(root->glob);
        sp->xpr.type_oid = exprType(&m->agg->xpr);
        sp->xpr.typmod = exprTypmod(&m->agg->xpr);
        sp->xpr.location = -1;
        sp->sublink_type = EXPR_SUBLINK;
        sp->plan_id = list_length(root->glob->subplans);
        sp->is_initplan = true;
        sp->set_param = tdb_lappend_int(NIL, m->paramid);
        root->init_plans = tdb_lappend(root->init_plans, sp);
    }
    result = MAKE_PLAN(Result);
    result->plan.targetlist = (List *)replace_aggs((Node *)q->target_list, mms);
    result->plan.plan_rows = 1;
    result->plan.startup_cost = cost;
    result->plan.total_cost = cost;
    result->plan.plan_width = plain->plan_width;
    return &result->plan;
}
