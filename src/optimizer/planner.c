/*
 * planner.c -- Query to PlannedStmt (planner.h has the rules): the
 * driver that plans each query level, and the upper part of its plan.
 *
 * Phases, for each query level (tdb_plan_query_level):
 *   1. preprocess (subselect.c): sublinks become SubPlans (the subquery
 *      planned recursively) or initplan Params; references to an outer
 *      query's columns become PARAM_EXEC Params the enclosing SubPlan sets;
 *   2. the join tree (joinplan.c): a scan per base relation with the
 *      conditions that need only it, then joins in the order planner.h
 *      describes with the conditions that become computable there;
 *      every node outputs the columns (Vars) needed above it;
 *   3. the upper part (here): aggregation, HAVING, the select list,
 *      DISTINCT, ORDER BY, LIMIT, and ModifyTable for
 *      INSERT/UPDATE/DELETE; whether DISTINCT hashes or sorts, and the
 *      plans of UNION / INTERSECT / EXCEPT, are setops.c's;
 *   4. set references (setrefs.c): expressions, written over range-table
 *      Vars until now, are rewritten to read their node's input slots
 *      (SCAN_VAR, OUTER_VAR, INNER_VAR): a whole subexpression that a
 *      child already computed (a GROUP BY key, an aggregate's input) is
 *      read from the child's output instead of recomputed.
 * Row estimates and the cost arithmetic are costsize.c's.
 *
 * Around phase 1 tdb_plan_query_level rewrites the query tree in place:
 * before it, IN and EXISTS sublinks of WHERE become semi / anti joins
 * (sublink.c) and a one-row VALUES list is pulled up into the query;
 * after it, HAVING conditions without aggregates, subqueries or volatile
 * calls are applied in WHERE, and outer joins that WHERE makes inner are
 * reduced (outerjoin.c).  A WITH RECURSIVE query is instead a
 * RecursiveUnion over its two terms, each planned as a query of its own.
 *
 * State (planner_int.h): one PlannerGlobal per statement holds the
 * subplans and the count of PARAM_EXEC Params; one PlannerInfo per query
 * level holds its Query, the level it is a sublink of, the outer columns
 * it reads and its initplans.  Everything is allocated in the current
 * memory context, and the Query is modified in place.
 *
 * Entry points: tdb_plan_query (planner.h), a statement's plan;
 * tdb_plan_query_level and tdb_plan_subquery (planner_int.h), one more
 * query level: a sublink, a subquery in FROM, a set operation's leaf.
 */
#include "common/base.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "common/stack_depth.h"
#include "optimizer/planner_int.h"
#include "parser/analyze.h"

/* ----------------------------------------------------------------------
 * Small helpers
 * ---------------------------------------------------------------------- */

/* A target list of OUTER_VAR references to every column of child. */
List *
tdb_plan_passthrough_tlist(Plan *child)
{
    List *tlist = NIL;

    for (int i = 0; i < list_length(child->targetlist); i++) {
        TargetEntry *te = list_nth(child->targetlist, i);
        Var *v = tdb_make_var(OUTER_VAR, i + 1, exprType(te->expr),
                              exprTypmod(te->expr), 0);
        TargetEntry *copy =
            tdb_make_target_entry((Expr *)v, i + 1, te->resname, te->resjunk);

        copy->ressortgroupref = te->ressortgroupref;
        tlist = tdb_lappend(tlist, copy);
    }
    return tlist;
}

/* Split a condition into its AND-ed parts. */
List *
tdb_plan_conjuncts(Expr *e, List *into)
{
    return tdb_expr_conjuncts(e, into);
}

/* Walker: adds the rtindexes (varlevelsup 0) an expression reads to
 * *(List **)arg, each once. */
bool
tdb_plan_collect_relids(Node *node, void *arg)
{
    List **relids = arg;

    if (node == NULL)
        return false;
    if (IsA(node, Var)) {
        Var *v = (Var *)node;

        if (v->varlevelsup == 0 && !tdb_list_member_int(*relids, v->varno))
            *relids = tdb_lappend_int(*relids, v->varno);
        return false;
    }
    return tdb_expr_walk_children(node, tdb_plan_collect_relids, arg);
}

static bool
contains_volatile(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if (IsA(node, FuncExpr) &&
        ((FuncExpr *)node)->func->volatility == PROVOLATILE_VOLATILE)
        return true;
    return tdb_expr_walk_children(node, contains_volatile, arg);
}

bool
tdb_contains_volatile(Node *node)
{
    return contains_volatile(node, NULL);
}

Expr *
tdb_and_of(List *conds)
{
    BoolExpr *b;

    if (conds == NIL)
        return NULL;
    if (list_length(conds) == 1)
        return list_nth(conds, 0);
    b = makeNode(BoolExpr);
    b->xpr.type_oid = BOOLOID;
    b->xpr.typmod = -1;
    b->xpr.location = -1;
    b->boolop = AND_EXPR;
    b->args = conds;
    return &b->xpr;
}

/* Walker: does the tree hold a node with tag *(NodeTag *)arg? */
static bool
contains_tag(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if (nodeTag(node) == *(const NodeTag *)arg)
        return true;
    return tdb_expr_walk_children(node, contains_tag, arg);
}

bool
tdb_plan_contains_node(Node *node, NodeTag tag)
{
    return contains_tag(node, &tag);
}

/* ----------------------------------------------------------------------
 * Needed columns
 * ---------------------------------------------------------------------- */

/* Every Var (levelsup 0) the query reads, deduplicated. */
bool
tdb_plan_collect_vars(Node *node, void *arg)
{
    List **vars = arg;

    if (node == NULL)
        return false;
    if (IsA(node, Var)) {
        Var *v = (Var *)node;

        if (v->varlevelsup != 0)
            return false;
        for (int i = 0; i < list_length(*vars); i++)
            if (tdb_expr_equal(list_nth(*vars, i), node))
                return false;
        *vars = tdb_lappend(*vars, v);
        return false;
    }
    return tdb_expr_walk_children(node, tdb_plan_collect_vars, arg);
}

static void
collect_jointree_vars(Node *node, List **vars)
{
    tdb_check_stack_depth();

    if (IsA(node, FromExpr)) {
        tdb_plan_collect_vars((Node *)((FromExpr *)node)->quals, vars);
        for (int i = 0; i < list_length(((FromExpr *)node)->fromlist); i++)
            collect_jointree_vars(list_nth(((FromExpr *)node)->fromlist, i),
                                  vars);
    } else if (IsA(node, JoinExpr)) {
        tdb_plan_collect_vars((Node *)((JoinExpr *)node)->quals, vars);
        collect_jointree_vars(((JoinExpr *)node)->larg, vars);
        collect_jointree_vars(((JoinExpr *)node)->rarg, vars);
    }
}

/* ----------------------------------------------------------------------
 * Phase 3: the upper part
 * ---------------------------------------------------------------------- */

/* Collect distinct Aggrefs (numbering them) from an expression. */
static bool
collect_aggs(Node *node, void *arg)
{
    List **aggs = arg;

    if (node == NULL)
        return false;
    if (IsA(node, Aggref)) {
        Aggref *a = (Aggref *)node;

        for (int i = 0; i < list_length(*aggs); i++)
            if (tdb_expr_equal(list_nth(*aggs, i), node)) {
                a->aggno = ((Aggref *)list_nth(*aggs, i))->aggno;
                return false;
            }
        a->aggno = list_length(*aggs);
        *aggs = tdb_lappend(*aggs, a);
        return false;
    }
    return tdb_expr_walk_children(node, collect_aggs, arg);
}

/* The target entry of tlist with ressortgroupref ref. */
TargetEntry *
tdb_plan_tle_for_ref(List *tlist, int ref)
{
    for (int i = 0; i < list_length(tlist); i++) {
        TargetEntry *te = list_nth(tlist, i);

        if (te->ressortgroupref == ref)
            return te;
    }
    elog(ERROR, "ORDER/GROUP BY item %d not found in the target list", ref);
}

static SortKey *
sort_keys_for(List *clauses, List *tlist)
{
    SortKey *keys = tdb_palloc0(sizeof(SortKey) *
                                (Size)Max(1, list_length(clauses)));

    for (int i = 0; i < list_length(clauses); i++) {
        SortGroupClause *sgc = list_nth(clauses, i);
        TargetEntry *te = tdb_plan_tle_for_ref(tlist, sgc->tle_ref);

        keys[i].col = te->resno;
        keys[i].support = sgc->support;
        keys[i].descending = sgc->descending;
        keys[i].nulls_first = sgc->nulls_first;
    }
    return keys;
}

Plan *
tdb_plan_make_sort(Plan *child, List *clauses, List *tlist)
{
    Sort *sort = MAKE_PLAN(Sort);

    sort->plan.lefttree = child;
    sort->plan.targetlist = tdb_plan_passthrough_tlist(child);
    copy_estimates(&sort->plan, child);
    sort->plan.startup_cost = child->total_cost + child->plan_rows * 0.02;
    sort->plan.total_cost = sort->plan.startup_cost + child->plan_rows * 0.01;
    sort->num_keys = list_length(clauses);
    sort->keys = sort_keys_for(clauses, tlist);
    return &sort->plan;
}

/* Unique over the columns of clauses (sorted input). */
Plan *
tdb_plan_make_unique(Plan *child, List *clauses, List *tlist)
{
    Unique *u = MAKE_PLAN(Unique);

    u->plan.lefttree = child;
    u->plan.targetlist = tdb_plan_passthrough_tlist(child);
    copy_estimates(&u->plan, child);
    u->num_cols = list_length(clauses);
    u->col_idx = tdb_palloc(sizeof(int) * (Size)Max(1, u->num_cols));
    u->eq_ops = tdb_palloc(sizeof(OperDesc *) * (Size)Max(1, u->num_cols));
    for (int i = 0; i < u->num_cols; i++) {
        SortGroupClause *sgc = list_nth(clauses, i);

        u->col_idx[i] = tdb_plan_tle_for_ref(tlist, sgc->tle_ref)->resno;
        u->eq_ops[i] = sgc->eqop;
    }
    return &u->plan;
}

/* A LIMIT / OFFSET that is a constant, as a count (-1: none or not a
 * constant). */
static double
const_count(Expr *e)
{
    if (e == NULL || !IsA(e, Const) || ((Const *)e)->constisnull)
        return -1;
    return (double)DatumGetInt64(((Const *)e)->constvalue);
}

Plan *
tdb_plan_make_limit(Plan *child, Expr *offset, Expr *count)
{
    Limit *l = MAKE_PLAN(Limit);

    l->plan.lefttree = child;
    l->plan.targetlist = tdb_plan_passthrough_tlist(child);
    copy_estimates(&l->plan, child);
    l->limit_offset = offset;
    l->limit_count = count;
    /* PostgreSQL's adjust_limit_rows_costs for constant counts: the
     * input's run cost in proportion to the rows skipped and read */
    {
        double in_rows = child->plan_rows;
        double run = child->total_cost - child->startup_cost;
        double skip = const_count(offset), take = const_count(count);

        if (skip > 0) {
            skip = Min(skip, l->plan.plan_rows);
            if (in_rows > 0)
                l->plan.startup_cost += run * skip / in_rows;
            l->plan.plan_rows = Max(1.0, l->plan.plan_rows - skip);
        }
        if (take >= 0) {
            take = Min(take, l->plan.plan_rows);
            if (in_rows > 0)
                l->plan.total_cost =
                    l->plan.startup_cost + run * take / in_rows;
            l->plan.plan_rows = Max(1.0, take);
        }
    }
    return &l->plan;
}

/* Can every group key hash (has a hash function)? */
static bool
group_keys_hashable(Query *q)
{
    for (int i = 0; i < list_length(q->group_clause); i++) {
        SortGroupClause *sgc = list_nth(q->group_clause, i);

        if (sgc->support == NULL || sgc->support->hash == NULL)
            return false;
    }
    return true;
}

/*
 * Does an aggregate buffer and sort its inputs (DISTINCT or ORDER BY)?
 * Then PostgreSQL (through 15) aggregates sorted, never hashed: such an
 * aggregate sorts its inputs per group, and one sorter per group of a
 * hash table costs far more than sorting the input once.
 */
static bool
any_ordered_aggregate(List *aggs)
{
    for (int i = 0; i < list_length(aggs); i++) {
        Aggref *a = list_nth(aggs, i);

        if (a->distinct || a->order_exprs != NIL)
            return true;
    }
    return false;
}

/*
 * The aggregation step: the join tree's output is the group keys
 * followed by every Var the rest needs; the Agg node computes the
 * query's target list and HAVING over it.
 */
static Plan *
plan_aggregation(PlannerInfo *root, Plan *input, List *needed)
{
    Query *q = root->q;
    Settings *settings = root->glob->st->settings;
    Agg *agg = MAKE_PLAN(Agg);
    List *input_tlist = NIL;
    List *aggs = NIL;
    int ngroup = list_length(q->group_clause);

    for (int i = 0; i < ngroup; i++) {
        SortGroupClause *sgc = list_nth(q->group_clause, i);
        TargetEntry *te = tdb_plan_tle_for_ref(q->target_list, sgc->tle_ref);

        input_tlist = tdb_lappend(
            input_tlist,
            tdb_make_target_entry(te->expr, list_length(input_tlist) + 1,
                                  NULL, false));
    }
    for (int i = 0; i < list_length(needed); i++) {
        Expr *var = list_nth(needed, i);
        bool is_key = false;

        /* a Var that is a group key already is read from the key's
         * column: no second copy (with `GROUP BY i` over (i, j) the
         * input stays the scanned row itself, passed without projecting) */
        for (int k = 0; k < ngroup && !is_key; k++)
            is_key = tdb_expr_equal(
                (Node *)((TargetEntry *)list_nth(input_tlist, k))->expr,
                (Node *)var);
        if (!is_key)
            input_tlist = tdb_lappend(
                input_tlist,
                tdb_make_target_entry(var, list_length(input_tlist) + 1, NULL,
                                      false));
    }
    input->targetlist = input_tlist;

    for (int i = 0; i < list_length(q->target_list); i++)
        collect_aggs(list_nth(q->target_list, i), &aggs);
    collect_aggs((Node *)q->having, &aggs);

    agg->plan.lefttree = input;
    agg->plan.targetlist = q->target_list;
    agg->plan.qual = tdb_plan_conjuncts(q->having, NIL);
    agg->aggs = aggs;
    agg->num_cols = ngroup;
    agg->grp_col_idx = tdb_palloc(sizeof(int) * (Size)Max(1, ngroup));
    agg->grp_eq = tdb_palloc(sizeof(OperDesc *) * (Size)Max(1, ngroup));
    for (int i = 0; i < ngroup; i++) {
        agg->grp_col_idx[i] = i + 1;
        agg->grp_eq[i] = ((SortGroupClause *)list_nth(q->group_clause, i))->eqop;
    }
    if (ngroup == 0)
        agg->strategy = AGG_PLAIN;
    else if (settings->enable_hashagg && group_keys_hashable(q) &&
             !any_ordered_aggregate(aggs))
        agg->strategy = AGG_HASHED;
    else {
        /* sort the input on the group keys (columns 1..ngroup) */
        Sort *sort = MAKE_PLAN(Sort);

        sort->plan.lefttree = input;
        sort->plan.targetlist = tdb_plan_passthrough_tlist(input);
        copy_estimates(&sort->plan, input);
        sort->num_keys = ngroup;
        sort->keys = tdb_palloc0(sizeof(SortKey) * (Size)ngroup);
        for (int i = 0; i < ngroup; i++) {
            SortGroupClause *sgc = list_nth(q->group_clause, i);

            sort->keys[i].col = i + 1;
            sort->keys[i].support = sgc->support;
        }
        agg->plan.lefttree = &sort->plan;
        agg->strategy = AGG_SORTED;
    }
    agg->num_groups = ngroup == 0 ? 1 : Max(1.0, rint(input->plan_rows / 10));
    agg->plan.plan_rows = agg->num_groups;
    agg->plan.startup_cost = input->total_cost;
    agg->plan.total_cost = input->total_cost + input->plan_rows * 0.01;
    agg->plan.plan_width = 8 * Max(1, list_length(q->target_list));
    return &agg->plan;
}

/* The Vars the query reads -- in the target list, RETURNING, HAVING and
 * the join tree's conditions, aggregates' arguments included -- which
 * the join tree's scans must output for the nodes above them. */
static List *
needed_vars(Query *q)
{
    List *vars = NIL;

    for (int i = 0; i < list_length(q->target_list); i++)
        tdb_plan_collect_vars(list_nth(q->target_list, i), &vars);
    for (int i = 0; i < list_length(q->returning); i++)
        tdb_plan_collect_vars(list_nth(q->returning, i), &vars);
    tdb_plan_collect_vars((Node *)q->having, &vars);
    collect_jointree_vars((Node *)q->jointree, &vars);
    return vars;
}

static bool
contains_srf(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if (IsA(node, FuncExpr) && ((FuncExpr *)node)->func->retset)
        return true;
    return tdb_expr_walk_children(node, contains_srf, arg);
}

/* Set-returning functions are run only at the top of a select-list
 * entry and without aggregation (for now). */
static void
check_srf_placement(Query *q)
{
    if (q->has_aggs || q->group_clause != NIL)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("set-returning functions together with aggregation "
                       "are not supported yet"));
    for (int i = 0; i < list_length(q->target_list); i++) {
        TargetEntry *te = list_nth(q->target_list, i);

        if (IsA(te->expr, FuncExpr) && ((FuncExpr *)te->expr)->func->retset) {
            if (tdb_expr_walk_children((Node *)te->expr, contains_srf, NULL))
                ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("nested set-returning functions are not "
                               "supported yet"));
            continue;
        }
        if (contains_srf((Node *)te->expr, NULL))
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("a set-returning function inside an expression "
                           "is not supported yet"));
    }
}

/*
 * The ORDER BY a single-table SELECT's scan may return in index order
 * (indxpath.c): one table in FROM, nothing between the scan and the
 * sort (aggregation, DISTINCT, set-returning functions).
 */
static void
set_wanted_order(PlannerInfo *root)
{
    Query *q = root->q;
    Node *item;
    double count, offset;

    root->wanted_order = NIL;
    root->wanted_limit = 0;
    root->order_provided = false;
    if (q->sort_clause == NIL || q->has_aggs || q->group_clause != NIL ||
        q->having != NULL || q->distinct_clause != NIL || q->has_target_srfs ||
        list_length(q->jointree->fromlist) != 1)
        return;
    item = linitial(q->jointree->fromlist);
    if (!IsA(item, RangeTblRef) ||
        rt_fetch(q, ((RangeTblRef *)item)->rtindex)->rtekind != RTE_RELATION)
        return;
    root->wanted_order = q->sort_clause;
    count = const_count(q->limit_count);
    offset = const_count(q->limit_offset);
    if (count >= 0)
        root->wanted_limit = count + Max(offset, 0.0);
}

/* The SELECT part: join tree, aggregation, DISTINCT, ORDER BY, LIMIT. */
static Plan *
plan_select(PlannerInfo *root)
{
    Query *q = root->q;
    List *needed = needed_vars(q);
    Plan *plan;

    set_wanted_order(root);
    plan = tdb_plan_jointree(root, needed);
    if (q->has_target_srfs) {
        ProjectSet *ps = MAKE_PLAN(ProjectSet);

        check_srf_placement(q);
        plan->targetlist = NIL;
        for (int i = 0; i < list_length(needed); i++)
            plan->targetlist = tdb_lappend(
                plan->targetlist,
                tdb_make_target_entry(list_nth(needed, i), i + 1, NULL,
                                      false));
        ps->plan.lefttree = plan;
        ps->plan.targetlist = q->target_list;
        copy_estimates(&ps->plan, plan);
        ps->plan.plan_rows = plan->plan_rows * 10;
        plan = &ps->plan;
    } else if (q->has_aggs || q->group_clause != NIL || q->having != NULL) {
        Plan *minmax;

        plan = plan_aggregation(root, plan, needed);
        if ((minmax = tdb_plan_minmax_aggregates(root, plan)) != NULL)
            plan = minmax;
    } else {
        /* the top join/scan node (or a Result) computes the select list */
        plan->targetlist = q->target_list;
    }
    if (q->has_distinct_on) {
        /* sort by ORDER BY (which begins with the DISTINCT ON keys), then
         * the DISTINCT ON keys ORDER BY left out; keep each group's first */
        List *keys = tdb_list_copy(q->sort_clause);

        for (int i = 0; i < list_length(q->distinct_clause); i++) {
            SortGroupClause *d = list_nth(q->distinct_clause, i);
            bool present = false;

            for (int k = 0; k < list_length(keys); k++)
                if (((SortGroupClause *)list_nth(keys, k))->tle_ref ==
                    d->tle_ref)
                    present = true;
            if (!present)
                keys = tdb_lappend(keys, d);
        }
        plan = tdb_plan_make_sort(plan, keys, q->target_list);
        plan = tdb_plan_make_unique(plan, q->distinct_clause, q->target_list);
    } else if (q->distinct_clause != NIL)
        plan = tdb_plan_distinct(root, plan);
    else if (q->sort_clause != NIL && !root->order_provided)
        plan = tdb_plan_make_sort(plan, q->sort_clause, q->target_list);
    if (q->limit_offset != NULL || q->limit_count != NULL)
        plan = tdb_plan_make_limit(plan, q->limit_offset, q->limit_count);
    return plan;
}

/* ----------------------------------------------------------------------
 * INSERT / UPDATE / DELETE
 * ---------------------------------------------------------------------- */

/*
 * Columns of the FROM / USING tables that RETURNING reads: carried up
 * from the join as junk columns after the ctid.
 */
static List *
add_returning_columns(Query *q, List *tlist, List **needed)
{
    List *vars = NIL;

    tdb_plan_collect_vars((Node *)q->returning, &vars);
    for (int i = 0; i < list_length(vars); i++) {
        Var *v = list_nth(vars, i);

        if (v->varno == q->result_relation)
            continue;
        tlist = tdb_lappend(tlist,
                            tdb_make_target_entry((Expr *)v,
                                                  list_length(tlist) + 1,
                                                  NULL, true));
        if (!tdb_list_member_ptr(*needed, v))
            *needed = tdb_lappend(*needed, v);
    }
    return tlist;
}

/*
 * INSERT ... ON CONFLICT: the arbiters' OIDs and names, and DO UPDATE's
 * new row -- each column's SET expression, or the conflicting row's
 * value -- in range-table terms (tdb_plan_fix_returning sets the
 * references).
 */
static void
plan_on_conflict(PlannerInfo *root, ModifyTable *mt, RangeTblEntry *target)
{
    Query *q = root->q;

    mt->on_conflict = q->on_conflict;
    /* EXPLAIN names the conflicting row's columns as the target's */
    mt->plan.scan_colnames = target->colnames;
    mt->plan.scan_refname = target->refname;
    mt->arbiter_indexes = q->arbiter_indexes;
    mt->arbiter_oids = q->arbiter_oids;
    mt->arbiter_names = q->arbiter_names;
    if (q->on_conflict != ONCONFLICT_UPDATE)
        return;
    for (int a = 1; a <= list_length(target->colnames); a++) {
        Expr *e = NULL;

        for (int t = 0; t < list_length(q->conflict_set); t++)
            if (((TargetEntry *)list_nth(q->conflict_set, t))->resno == a)
                e = ((TargetEntry *)list_nth(q->conflict_set, t))->expr;
        if (e == NULL)
            e = (Expr *)tdb_make_var(q->result_relation, a,
                                     (Oid)list_nth_int(target->coltypes, a - 1),
                                     list_nth_int(target->coltypmods, a - 1),
                                     0);
        mt->conflict_set = tdb_lappend(mt->conflict_set, e);
    }
    mt->conflict_where = q->conflict_where;
}

static Plan *
plan_modify(PlannerInfo *root)
{
    Query *q = root->q;
    RangeTblEntry *target = rt_fetch(q, q->result_relation);
    ModifyTable *mt = MAKE_PLAN(ModifyTable);
    int natts = list_length(target->colnames);
    Plan *child;

    mt->operation = q->command;
    mt->relid = target->relid;
    mt->relname = target->relname;
    if (q->command == CMD_INSERT) {
        Query *sel = q;
        List *needed = needed_vars(sel);

        /* the target relation itself is not scanned */
        for (int i = list_length(needed) - 1; i >= 0; i--)
            if (((Var *)list_nth(needed, i))->varno == q->result_relation)
                needed = tdb_list_delete_nth(needed, i);
        if (q->jointree->fromlist == NIL) {
            Result *r = MAKE_PLAN(Result);

            r->plan.plan_rows = 1;
            child = &r->plan;
        } else
            child = tdb_plan_jointree(root, needed);
        child->targetlist = q->target_list;
    } else {
        List *needed = needed_vars(q);
        List *tlist = NIL;
        Var *ctid = tdb_make_var(q->result_relation,
                                 SelfItemPointerAttributeNumber, TIDOID, -1,
                                 0);

        for (int a = 1; a <= natts; a++) {
            Expr *e = NULL;

            for (int t = 0; q->command == CMD_UPDATE &&
                            t < list_length(q->target_list);
                 t++)
                if (((TargetEntry *)list_nth(q->target_list, t))->resno == a)
                    e = ((TargetEntry *)list_nth(q->target_list, t))->expr;
            if (e == NULL)
                e = (Expr *)tdb_make_var(
                    q->result_relation, a,
                    (Oid)list_nth_int(target->coltypes, a - 1),
                    list_nth_int(target->coltypmods, a - 1), 0);
            tlist = tdb_lappend(tlist, tdb_make_target_entry(
                                           e, a, list_nth(target->colnames,
                                                          a - 1),
                                           false));
            if (IsA(e, Var))
                tdb_plan_collect_vars((Node *)e, &needed);
        }
        tlist = tdb_lappend(tlist, tdb_make_target_entry((Expr *)ctid,
                                                         natts + 1, "ctid",
                                                         true));
        needed = tdb_lappend(needed, ctid);
        tlist = add_returning_columns(q, tlist, &needed);
        child = tdb_plan_jointree(root, needed);
        child->targetlist = tlist;
        mt->ctid_col = natts + 1;
        mt->update_cols = tdb_palloc(sizeof(int) * (Size)Max(1, natts));
        for (int a = 0; a < natts; a++)
            mt->update_cols[a] = a + 1;
    }
    mt->plan.lefttree = child;
    mt->check_exprs = q->check_exprs;
    mt->check_names = q->check_names;
    mt->index_exprs = q->index_exprs;
    mt->index_keycols = q->index_keycols;
    if (target->has_alias)
        mt->alias = target->refname;
    if (q->on_conflict != ONCONFLICT_NONE)
        plan_on_conflict(root, mt, target);
    mt->returning = q->returning;
    mt->plan.targetlist = q->returning;
    copy_estimates(&mt->plan, child);
    return &mt->plan;
}

/* ----------------------------------------------------------------------
 * Entry points
 * ---------------------------------------------------------------------- */

/* A sub-query planned with the same globals (its own level). */
Plan *
tdb_plan_subquery(PlannerInfo *root, Query *q)
{
    PlannerInfo *sub = tdb_palloc0(sizeof(PlannerInfo));

    sub->glob = root->glob;
    sub->q = q;
    return tdb_plan_query_level(sub);
}

/* WITH RECURSIVE's union of the two terms. */
static Plan *
plan_recursive_union(PlannerInfo *root)
{
    Query *q = root->q;
    RecursiveUnion *ru = MAKE_PLAN(RecursiveUnion);
    int saved = root->glob->wt_param;
    int ncols = list_length(q->target_list);

    ru->wt_param = new_param(root->glob);
    root->glob->wt_owned = tdb_lappend_int(root->glob->wt_owned, ru->wt_param);
    ru->plan.lefttree = tdb_plan_subquery(root, q->rec_nonrecursive);
    root->glob->wt_param = ru->wt_param;
    ru->plan.righttree = tdb_plan_subquery(root, q->rec_recursive);
    root->glob->wt_param = saved;
    ru->all = q->rec_all;
    ru->num_cols = ncols;
    ru->eq_ops = tdb_palloc(sizeof(OperDesc *) * (Size)Max(1, ncols));
    ru->support = tdb_palloc(sizeof(TypeSupport *) * (Size)Max(1, ncols));
    for (int c = 0; c < ncols; c++) {
        Oid type = exprType(((TargetEntry *)list_nth(q->target_list, c))->expr);

        ru->eq_ops[c] = tdb_oper_lookup("=", type, type);
        if (ru->eq_ops[c] == NULL)
            ru->eq_ops[c] = tdb_oper_lookup("=", TEXTOID, TEXTOID);
        ru->support[c] = tdb_type_support(type);
        if (!ru->all && (ru->eq_ops[c] == NULL || ru->support[c] == NULL ||
                         ru->support[c]->hash == NULL))
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("could not implement recursive UNION"),
                    errdetail("All column datatypes must be hashable."));
    }
    ru->plan.targetlist = tdb_plan_passthrough_tlist(ru->plan.lefttree);
    for (int c = 0; c < ncols; c++)
        ((TargetEntry *)list_nth(ru->plan.targetlist, c))->resname =
            ((TargetEntry *)list_nth(q->target_list, c))->resname;
    copy_estimates(&ru->plan, ru->plan.lefttree);
    ru->plan.plan_rows *= 10;
    return &ru->plan;
}

/* Replace the Vars of values row rtindex by the row's expressions. */
typedef struct ValuesRow {
    int rtindex;
    List *exprs;
} ValuesRow;

static Node *
substitute_values_row(Node *node, void *arg)
{
    ValuesRow *row = arg;

    if (node == NULL)
        return NULL;
    if (IsA(node, Var) && ((Var *)node)->varno == row->rtindex &&
        ((Var *)node)->varlevelsup == 0)
        return list_nth(row->exprs, ((Var *)node)->varattno - 1);
    return tdb_expr_mutate_children(node, substitute_values_row, arg);
}

/*
 * A SELECT whose only FROM item is a one-row VALUES list reads that row's
 * expressions directly, without a scan (PostgreSQL's
 * pull_up_simple_values: EXPLAIN shows a Result, and the WHERE becomes a
 * constant condition).  Not done when the row calls volatile functions
 * or holds a subquery (which would be planned twice), or when subqueries
 * might reference the row's columns.
 */
static void
pull_up_values_row(Query *q)
{
    RangeTblRef *ref;
    RangeTblEntry *rte;
    ValuesRow row;

    if (q->command != CMD_SELECT || q->has_sublinks ||
        list_length(q->jointree->fromlist) != 1 ||
        !IsA(linitial(q->jointree->fromlist), RangeTblRef))
        return;
    ref = linitial(q->jointree->fromlist);
    rte = rt_fetch(q, ref->rtindex);
    if (rte->rtekind != RTE_VALUES || list_length(rte->values_lists) != 1 ||
        tdb_contains_volatile(linitial(rte->values_lists)) ||
        tdb_plan_contains_node(linitial(rte->values_lists), T_SubLink))
        return;
    row.rtindex = ref->rtindex;
    row.exprs = linitial(rte->values_lists);
    q->target_list =
        (List *)substitute_values_row((Node *)q->target_list, &row);
    q->jointree->quals =
        (Expr *)substitute_values_row((Node *)q->jointree->quals, &row);
    q->having = (Expr *)substitute_values_row((Node *)q->having, &row);
    q->jointree->fromlist = NIL;
}

static bool
contains_agg_or_subplan(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if ((IsA(node, Aggref) && ((Aggref *)node)->agglevelsup == 0) ||
        IsA(node, SubPlan))
        return true;
    return tdb_expr_walk_children(node, contains_agg_or_subplan, arg);
}

/*
 * HAVING conditions without aggregates, subqueries or volatile calls
 * filter rows before grouping, as PostgreSQL does: with GROUP BY they
 * move to WHERE; without it (one group, which exists even with no rows)
 * a copy goes to WHERE and the original stays.
 */
static void
move_having_to_where(Query *q)
{
    List *having = tdb_plan_conjuncts(q->having, NIL);
    List *where = tdb_plan_conjuncts(q->jointree->quals, NIL);
    List *keep = NIL;

    if (having == NIL)
        return;
    for (int i = 0; i < list_length(having); i++) {
        Expr *cond = list_nth(having, i);

        if (contains_agg_or_subplan((Node *)cond, NULL) ||
            contains_volatile((Node *)cond, NULL))
            keep = tdb_lappend(keep, cond);
        else if (q->group_clause != NIL)
            where = tdb_lappend(where, cond);
        else {
            where = tdb_lappend(where, cond);
            keep = tdb_lappend(keep, cond);
        }
    }
    q->jointree->quals = tdb_and_of(where);
    q->having = tdb_and_of(keep);
}

Plan *
tdb_plan_query_level(PlannerInfo *root)
{
    Query *q = root->q;
    Plan *plan;

    tdb_check_stack_depth();

    tdb_plan_ctes(root);
    if (q->rec_nonrecursive != NULL)
        return plan_recursive_union(root);
    tdb_pull_up_sublinks(q);
    pull_up_values_row(q);
    tdb_plan_preprocess_query(root);
    move_having_to_where(q);
    tdb_reduce_outer_joins(q);
    if (q->command != CMD_SELECT) {
        ModifyTable *mt = (ModifyTable *)plan_modify(root);

        tdb_plan_fix_returning(mt, q->result_relation);
        mt->plan.targetlist = NIL;
        tdb_plan_fix_plan(mt->plan.lefttree);
        mt->plan.targetlist = mt->returning;
        if (q->on_conflict == ONCONFLICT_UPDATE)
            tdb_plan_fix_on_conflict(mt, q->result_relation,
                                     q->excluded_relation,
                                     rt_fetch(q, q->result_relation));
        plan = &mt->plan;
    } else if (q->set_operations != NULL) {
        /* built with its references set (setops.c, "Set operations") */
        plan = tdb_plan_set_operation(root);
    } else {
        plan = plan_select(root);
        tdb_plan_fix_plan(plan);
    }
    plan->initplans = tdb_list_concat(plan->initplans, root->init_plans);
    return plan;
}

PlannedStmt *
tdb_plan_query(Statement *st, Query *q)
{
    PlannerGlobal *glob = tdb_palloc0(sizeof(PlannerGlobal));
    PlannerInfo *root = tdb_palloc0(sizeof(PlannerInfo));
    PlannedStmt *stmt = tdb_palloc0(sizeof(PlannedStmt));

    glob->st = st;
    glob->wt_param = -1;
    root->glob = glob;
    root->q = q;
    /* before planning rewrites q (sublinks pulled up, subqueries
     * flattened): its range tables as analysis left them */
    stmt->checked_relids = tdb_query_checked_relids(q);
    stmt->plan = tdb_plan_query_level(root);
    stmt->command = q->command;
    stmt->subplans = glob->subplans;
    stmt->nparams = glob->nparams;
    stmt->has_returning = q->returning != NIL;
    return stmt;
}
