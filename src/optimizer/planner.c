/*
 * planner.c -- Query to PlannedStmt (planner.h has the rules).
 *
 * Phases:
 *   1. preprocess: sublinks become SubPlans (the subquery planned
 *      recursively) or initplan Params; references to an outer query's
 *      columns become PARAM_EXEC Params the enclosing SubPlan sets;
 *   2. the join tree: a scan per base relation with the conditions that
 *      need only it, then joins left to right with the conditions that
 *      become computable there; every node outputs the columns (Vars)
 *      needed above it;
 *   3. the upper part: aggregation, HAVING, the select list, DISTINCT,
 *      ORDER BY, LIMIT, and ModifyTable for INSERT/UPDATE/DELETE;
 *   4. set references: expressions, written over range-table Vars until
 *      now, are rewritten to read their node's input slots (SCAN_VAR,
 *      OUTER_VAR, INNER_VAR): a whole subexpression that a child already
 *      computed (a GROUP BY key, an aggregate's input) is read from the
 *      child's output instead of recomputed.
 */
#include "common/base.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/executor.h"
#include "optimizer/planner.h"
#include "storage/bufmgr.h"
#include "tuple/heaptuple.h"

typedef struct PlannerGlobal {
    Statement *st;
    List *subplans; /* Plan */
    int nparams;
    int wt_param;   /* the working table of the recursive term being
                     * planned, or -1 */
} PlannerGlobal;

/* An outer-query column a subquery reads, and the Param carrying it. */
typedef struct PlanParam {
    int paramid;
    Var *var; /* the column, as the outer level sees it (levelsup 0) */
} PlanParam;

typedef struct PlannerInfo {
    PlannerGlobal *glob;
    Query *q;
    struct PlannerInfo *parent; /* the query this one is a sublink of */
    List *plan_params;          /* PlanParam: outer columns read here */
    List *init_plans;           /* SubPlan: run once, set Params */
} PlannerInfo;

static Plan *plan_query(PlannerInfo *root);
static Plan *plan_subquery(PlannerInfo *root, Query *q);
static Plan *plan_distinct(PlannerInfo *root, Plan *plan);
static bool generate_series_rows(Expr *e, double *rows);
static bool contains_node(Node *node, NodeTag tag);
static double estimate_rows(PlannerInfo *root, int rtindex, double *pages);

/* PostgreSQL's distinct values of a column without statistics */
#define DEFAULT_NUM_DISTINCT 200.0

/* ----------------------------------------------------------------------
 * Small helpers
 * ---------------------------------------------------------------------- */

static RangeTblEntry *
rt_fetch(Query *q, int rtindex)
{
    return list_nth(q->rtable, rtindex - 1);
}

static void *
make_plan_node(Size size, NodeTag tag)
{
    return tdb_new_node(size, tag);
}

#define MAKE_PLAN(type) ((type *)make_plan_node(sizeof(type), T_##type))

/* A target list of OUTER_VAR references to every column of child. */
static List *
passthrough_tlist(Plan *child)
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

static void
copy_estimates(Plan *dst, const Plan *src)
{
    dst->startup_cost = src->startup_cost;
    dst->total_cost = src->total_cost;
    dst->plan_rows = src->plan_rows;
    dst->plan_width = src->plan_width;
}

/* Split a condition into its AND-ed parts. */
static List *
conjuncts(Expr *e, List *into)
{
    if (e == NULL)
        return into;
    if (IsA(e, BoolExpr) && ((BoolExpr *)e)->boolop == AND_EXPR) {
        List *args = ((BoolExpr *)e)->args;

        for (int i = 0; i < list_length(args); i++)
            into = conjuncts(list_nth(args, i), into);
        return into;
    }
    return tdb_lappend(into, e);
}

/* The rtindexes (varlevelsup 0) an expression reads. */
static bool
collect_relids(Node *node, void *arg)
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
    return tdb_expr_walk_children(node, collect_relids, arg);
}

static List *
expr_relids(Expr *e)
{
    List *relids = NIL;

    collect_relids((Node *)e, &relids);
    return relids;
}

static bool
relids_subset(List *a, List *b)
{
    for (int i = 0; i < list_length(a); i++)
        if (!tdb_list_member_int(b, list_nth_int(a, i)))
            return false;
    return true;
}

/* ----------------------------------------------------------------------
 * Phase 1: sublinks and outer references
 * ---------------------------------------------------------------------- */

static int
new_param(PlannerGlobal *glob)
{
    return glob->nparams++;
}

static Param *
make_param(int paramid, Oid type, int32 typmod)
{
    Param *p = makeNode(Param);

    p->paramkind = PARAM_EXEC;
    p->paramid = paramid;
    p->xpr.type_oid = type;
    p->xpr.typmod = typmod;
    p->xpr.location = -1;
    return p;
}

/* The Param for an outer column read by `root` (one per column). */
static Param *
outer_param(PlannerInfo *root, Var *var)
{
    PlanParam *pp;

    if (root->parent == NULL)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("this reference to an outer query's column is not "
                       "supported yet"));
    /* the SubPlan one level up passes the value in; a column further out
     * reaches that level as an outer reference of its own (levelsup - 1),
     * which the level above turns into a Param in turn */
    for (int i = 0; i < list_length(root->plan_params); i++) {
        pp = list_nth(root->plan_params, i);
        if (pp->var->varno == var->varno &&
            pp->var->varattno == var->varattno &&
            pp->var->varlevelsup == var->varlevelsup - 1)
            return make_param(pp->paramid, exprType(var), exprTypmod(var));
    }
    pp = tdb_palloc(sizeof(PlanParam));
    pp->paramid = new_param(root->glob);
    pp->var = tdb_make_var(var->varno, var->varattno, exprType(var),
                           exprTypmod(var), var->varlevelsup - 1);
    root->plan_params = tdb_lappend(root->plan_params, pp);
    return make_param(pp->paramid, exprType(var), exprTypmod(var));
}

typedef struct SublinkContext {
    PlannerInfo *root;
    List *param_ids; /* ANY/ALL: Param ids of the subquery's columns */
} SublinkContext;

static Node *preprocess_mutator(Node *node, void *arg);
static Expr *preprocess_expr(PlannerInfo *root, Expr *e);

/* PARAM_SUBLINK placeholders of an ANY/ALL test -> PARAM_EXEC. */
static Node *
replace_sublink_params(Node *node, void *arg)
{
    SublinkContext *ctx = arg;

    if (node == NULL)
        return NULL;
    if (IsA(node, Param) && ((Param *)node)->paramkind == PARAM_SUBLINK) {
        Param *p = (Param *)node;

        return (Node *)make_param(
            list_nth_int(ctx->param_ids, p->paramid - 1), exprType(p),
            exprTypmod(p));
    }
    return tdb_expr_mutate_children(node, replace_sublink_params, arg);
}

/* Walker: does the expression read one of the Params in *(List **)arg? */
static bool
reads_params(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if (IsA(node, Param) && ((Param *)node)->paramkind == PARAM_EXEC &&
        tdb_list_member_int(*(List **)arg, ((Param *)node)->paramid))
        return true;
    return tdb_expr_walk_children(node, reads_params, arg);
}

/* Walker: does the expression read a column (a Var)? */
static bool
reads_vars(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if (IsA(node, Var))
        return true;
    return tdb_expr_walk_children(node, reads_vars, arg);
}

/*
 * Can one comparison of an ANY test be done by hashing (PostgreSQL's
 * test_opexpr_is_hashable)?  A strict equality operator that hashing may
 * use -- with the outer value on the left and the subquery's on the right:
 * the left reads none of the subquery's output Params, the right no
 * column -- and that the executor can hash for these two types
 * (exec_subplan.c: one type, or two of which one widens exactly to the
 * other, as int4 to int8).
 */
static bool
opexpr_is_hashable(Expr *e, List *param_ids)
{
    OpExpr *op;

    if (!IsA(e, OpExpr))
        return false;
    op = (OpExpr *)e;
    if (list_length(op->args) != 2 || !op->op->is_equality || !op->op->strict ||
        !tdb_exec_subplan_op_hashable(op->op))
        return false;
    return !reads_params(linitial(op->args), &param_ids) &&
           !reads_vars(list_nth(op->args, 1), NULL);
}

/*
 * May an uncorrelated ANY subplan hash its subquery's rows?  PostgreSQL
 * 15's rules (subplan_is_hashable, testexpr_is_hashable): the comparison
 * is one hashable equality or an AND of them (a row IN), and the
 * estimated rows fit in hash memory, counted with a heap tuple header
 * each: rows x (MAXALIGN(width) + MAXALIGN(23)) <= work_mem x
 * hash_mem_multiplier.  enable_hashagg plays no part.
 */
static bool
subplan_can_hash(PlannerInfo *root, SubPlan *sp, Plan *plan)
{
    Settings *settings = &root->glob->st->session->settings;
    double size = plan->plan_rows * (double)(MAXALIGN(plan->plan_width) +
                                             MAXALIGN(SizeofHeapTupleHeader));
    double limit = floor((double)settings->work_mem * 1024.0 *
                         settings->hash_mem_multiplier);
    Expr *test = sp->testexpr;

    if (size > limit || test == NULL)
        return false;
    if (IsA(test, BoolExpr) && ((BoolExpr *)test)->boolop == AND_EXPR) {
        for (int i = 0; i < list_length(((BoolExpr *)test)->args); i++)
            if (!opexpr_is_hashable(list_nth(((BoolExpr *)test)->args, i),
                                    sp->param_ids))
                return false;
        return true;
    }
    return opexpr_is_hashable(test, sp->param_ids);
}

/*
 * Does the plan's top node keep its rows for a rescan anyway
 * (PostgreSQL's ExecMaterializesOutput), so that a Materialize above it
 * would only copy them again?
 */
static bool
materializes_output(const Plan *plan)
{
    return IsA(plan, Material) || IsA(plan, Sort) || IsA(plan, FunctionScan) ||
           IsA(plan, WorkTableScan);
}

/*
 * An uncorrelated ANY / ALL subplan that is not hashed is read again for
 * every outer row: put a Materialize on top of its plan, as PostgreSQL
 * does, so the rows are computed once.  The subquery's initplans move up
 * to the new top node.
 */
static void
materialize_subplan(PlannerInfo *root, SubPlan *sp)
{
    List *subplans = root->glob->subplans;
    Plan *plan = list_nth(subplans, sp->plan_id - 1);
    Material *m;

    if (materializes_output(plan))
        return;
    m = MAKE_PLAN(Material);
    m->plan.lefttree = plan;
    m->plan.targetlist = passthrough_tlist(plan);
    copy_estimates(&m->plan, plan);
    m->plan.initplans = plan->initplans;
    plan->initplans = NIL;
    subplans->elements[sp->plan_id - 1].ptr = m;
}

static Node *
plan_sublink(PlannerInfo *root, SubLink *sl)
{
    PlannerInfo *sub = tdb_palloc0(sizeof(PlannerInfo));
    SubPlan *sp = makeNode(SubPlan);
    Plan *plan;
    SublinkContext ctx = {root, NIL};

    sub->glob = root->glob;
    sub->q = (Query *)sl->subselect;
    sub->parent = root;
    plan = plan_query(sub);
    root->glob->subplans = tdb_lappend(root->glob->subplans, plan);
    sp->plan_id = list_length(root->glob->subplans);
    sp->sublink_type = sl->sublink_type;
    sp->xpr = sl->xpr;
    sp->xpr.tag = T_SubPlan;
    if (sl->sublink_type == ANY_SUBLINK || sl->sublink_type == ALL_SUBLINK) {
        Query *subq = (Query *)sl->subselect;

        /* one Param per visible column of the subquery */
        for (int i = 0; i < list_length(subq->target_list); i++)
            if (!((TargetEntry *)list_nth(subq->target_list, i))->resjunk)
                ctx.param_ids =
                    tdb_lappend_int(ctx.param_ids, new_param(root->glob));
        sp->param_ids = ctx.param_ids;
        /* the left side may read this level's columns: preprocess too */
        sp->testexpr = (Expr *)preprocess_mutator(
            replace_sublink_params((Node *)sl->testexpr, &ctx), root);
    }
    for (int i = 0; i < list_length(sub->plan_params); i++) {
        PlanParam *pp = list_nth(sub->plan_params, i);

        sp->par_param = tdb_lappend_int(sp->par_param, pp->paramid);
        /* a column of a level further out is a Param here too */
        sp->args = tdb_lappend(sp->args,
                               preprocess_expr(root, (Expr *)pp->var));
    }
    if (sp->par_param == NIL &&
        (sl->sublink_type == EXPR_SUBLINK ||
         sl->sublink_type == ARRAY_SUBLINK ||
         sl->sublink_type == EXISTS_SUBLINK)) {
        /* uncorrelated: an initplan computing a Param once */
        int paramid = new_param(root->glob);

        sp->is_initplan = true;
        sp->set_param = tdb_lappend_int(NIL, paramid);
        root->init_plans = tdb_lappend(root->init_plans, sp);
        return (Node *)make_param(paramid, exprType(&sl->xpr),
                                  exprTypmod(&sl->xpr));
    }
    if (sp->par_param == NIL && sl->sublink_type == ANY_SUBLINK &&
        subplan_can_hash(root, sp, plan))
        sp->use_hash = true;
    else if (sp->par_param == NIL && (sl->sublink_type == ANY_SUBLINK ||
                                      sl->sublink_type == ALL_SUBLINK))
        materialize_subplan(root, sp);
    return (Node *)sp;
}

static Node *
preprocess_mutator(Node *node, void *arg)
{
    PlannerInfo *root = arg;

    if (node == NULL)
        return NULL;
    if (IsA(node, Var) && ((Var *)node)->varlevelsup > 0)
        return (Node *)outer_param(root, (Var *)node);
    if (IsA(node, SubLink))
        return plan_sublink(root, (SubLink *)node);
    return tdb_expr_mutate_children(node, preprocess_mutator, arg);
}

/* Fold constants (clauses.c), then plan sublinks and outer references. */
static Expr *
preprocess_expr(PlannerInfo *root, Expr *e)
{
    return (Expr *)preprocess_mutator(
        (Node *)tdb_eval_const_expressions(e), root);
}

/* A condition: folded and canonicalized, then as preprocess_expr. */
static Expr *
preprocess_qual(PlannerInfo *root, Expr *e)
{
    return (Expr *)preprocess_mutator(
        (Node *)tdb_canonicalize_qual(tdb_eval_const_expressions(e)), root);
}

static void
preprocess_jointree(PlannerInfo *root, Node *node)
{
    if (node == NULL)
        return;
    if (IsA(node, FromExpr)) {
        FromExpr *f = (FromExpr *)node;

        f->quals = preprocess_qual(root, f->quals);
        for (int i = 0; i < list_length(f->fromlist); i++)
            preprocess_jointree(root, list_nth(f->fromlist, i));
    } else if (IsA(node, JoinExpr)) {
        JoinExpr *j = (JoinExpr *)node;

        j->quals = preprocess_qual(root, j->quals);
        preprocess_jointree(root, j->larg);
        preprocess_jointree(root, j->rarg);
    }
}

static List *
preprocess_tlist(PlannerInfo *root, List *tlist)
{
    for (int i = 0; i < list_length(tlist); i++) {
        TargetEntry *te = list_nth(tlist, i);

        te->expr = preprocess_expr(root, te->expr);
    }
    return tlist;
}

static void
preprocess_query(PlannerInfo *root)
{
    Query *q = root->q;

    preprocess_tlist(root, q->target_list);
    preprocess_tlist(root, q->returning);
    preprocess_jointree(root, (Node *)q->jointree);
    q->having = preprocess_qual(root, q->having);
    q->limit_offset = preprocess_expr(root, q->limit_offset);
    q->limit_count = preprocess_expr(root, q->limit_count);
    for (int i = 0; i < list_length(q->rtable); i++) {
        RangeTblEntry *rte = list_nth(q->rtable, i);

        if (rte->rtekind == RTE_FUNCTION)
            rte->funcexpr = preprocess_expr(root, rte->funcexpr);
        if (rte->rtekind == RTE_VALUES)
            for (int r = 0; r < list_length(rte->values_lists); r++) {
                List *row = list_nth(rte->values_lists, r);

                for (int c = 0; c < list_length(row); c++)
                    row->elements[c].ptr =
                        preprocess_expr(root, list_nth(row, c));
            }
    }
}

/* ----------------------------------------------------------------------
 * Needed columns
 * ---------------------------------------------------------------------- */

/* Every Var (levelsup 0) the query reads, deduplicated. */
static bool
collect_vars(Node *node, void *arg)
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
    return tdb_expr_walk_children(node, collect_vars, arg);
}

static void
collect_jointree_vars(Node *node, List **vars)
{
    if (IsA(node, FromExpr)) {
        collect_vars((Node *)((FromExpr *)node)->quals, vars);
        for (int i = 0; i < list_length(((FromExpr *)node)->fromlist); i++)
            collect_jointree_vars(list_nth(((FromExpr *)node)->fromlist, i),
                                  vars);
    } else if (IsA(node, JoinExpr)) {
        collect_vars((Node *)((JoinExpr *)node)->quals, vars);
        collect_jointree_vars(((JoinExpr *)node)->larg, vars);
        collect_jointree_vars(((JoinExpr *)node)->rarg, vars);
    }
}

/* The needed Vars of one rtindex, as a target list for its scan. */
static List *
scan_tlist(List *needed, int rtindex)
{
    List *tlist = NIL;

    for (int i = 0; i < list_length(needed); i++) {
        Var *v = list_nth(needed, i);

        if (v->varno == rtindex)
            tlist = tdb_lappend(tlist,
                                tdb_make_target_entry((Expr *)v,
                                                      list_length(tlist) + 1,
                                                      NULL, false));
    }
    return tlist;
}

/* ----------------------------------------------------------------------
 * Phase 2: scans and joins
 * ---------------------------------------------------------------------- */

/* A planned part of the join tree. */
typedef struct JoinPart {
    Plan *plan;
    List *relids;     /* base rtindexes below */
    List *nullable;   /* ... whose columns an outer join may null */
} JoinPart;

typedef struct JoinPlanner {
    PlannerInfo *root;
    List *needed;   /* Var */
    List *pending;  /* Expr: conditions not yet placed */
    List *gating;   /* Expr: pseudoconstant conditions of inner joins */
    int outer_depth; /* outer joins around the node being planned */
} JoinPlanner;

/* Take the pending conditions computable over relids (and, if
 * pushable_into_nullable is false, not touching nullable rels). */
static List *
take_conditions(JoinPlanner *jp, List *relids, List *nullable)
{
    List *taken = NIL, *rest = NIL;

    for (int i = 0; i < list_length(jp->pending); i++) {
        Expr *cond = list_nth(jp->pending, i);
        List *crel = expr_relids(cond);
        bool blocked = false;

        for (int n = 0; n < list_length(crel); n++)
            if (tdb_list_member_int(nullable, list_nth_int(crel, n)))
                blocked = true;
        if (relids_subset(crel, relids) && !blocked)
            taken = tdb_lappend(taken, cond);
        else
            rest = tdb_lappend(rest, cond);
    }
    jp->pending = rest;
    return taken;
}

/*
 * Qual order.  PostgreSQL absorbs "x = y" equalities (btree equality
 * operators; x = const above all) into equivalence classes and gives
 * them back to the scan after every other condition, then sorts a
 * node's conditions by their evaluation cost, keeping that order among
 * equals.  EXPLAIN shows the result, so tupledb orders the same way:
 * the other conditions first, the equalities after, then a stable sort
 * on the number of function calls a condition makes (PostgreSQL's
 * procost is 1 for built-ins; an output-then-input cast makes two; an
 * IN list about half its items).
 */
static bool
is_equivalence_clause(Expr *cond)
{
    return IsA(cond, OpExpr) && ((OpExpr *)cond)->op->is_equality &&
           list_length(((OpExpr *)cond)->args) == 2;
}

static bool
count_calls(Node *node, void *arg)
{
    double *cost = arg;

    if (node == NULL)
        return false;
    switch (nodeTag(node)) {
    case T_FuncExpr:
    case T_OpExpr:
    case T_DistinctExpr:
    case T_NullIfExpr:
    case T_CoerceToTypmod:
        *cost += 1;
        break;
    case T_CoerceViaIO:
        *cost += 2;
        break;
    case T_InListExpr:
        *cost += list_length(((InListExpr *)node)->items) * 0.5;
        break;
    case T_SubLink:
    case T_SubPlan:
        *cost += 1000; /* a subquery outweighs any expression */
        break;
    default:
        break;
    }
    return tdb_expr_walk_children(node, count_calls, arg);
}

static double
qual_cost(Expr *cond)
{
    double cost = 0;

    count_calls((Node *)cond, &cost);
    return cost;
}

static List *
order_quals(List *quals)
{
    List *ordered = NIL;
    int n = list_length(quals);
    double *costs;

    if (n < 2)
        return quals;
    for (int i = 0; i < n; i++)
        if (!is_equivalence_clause(list_nth(quals, i)))
            ordered = tdb_lappend(ordered, list_nth(quals, i));
    /* an equivalence class holds each equality once */
    for (int i = 0; i < n; i++) {
        Expr *cond = list_nth(quals, i);
        bool seen = false;

        if (!is_equivalence_clause(cond))
            continue;
        for (int j = 0; j < list_length(ordered) && !seen; j++)
            seen = tdb_expr_equal(list_nth(ordered, j), (Node *)cond);
        if (!seen)
            ordered = tdb_lappend(ordered, cond);
    }
    n = list_length(ordered);
    costs = tdb_palloc(sizeof(double) * (Size)n);
    for (int i = 0; i < n; i++)
        costs[i] = qual_cost(list_nth(ordered, i));
    /* insertion sort: stable, and qual lists are short */
    for (int i = 1; i < n; i++) {
        void *cond = list_nth(ordered, i);
        double cost = costs[i];
        int j = i;

        for (; j > 0 && costs[j - 1] > cost; j--) {
            ordered->elements[j].ptr = list_nth(ordered, j - 1);
            costs[j] = costs[j - 1];
        }
        ordered->elements[j].ptr = cond;
        costs[j] = cost;
    }
    return ordered;
}

static double
clause_selectivity(List *quals)
{
    double sel = 1.0;

    for (int i = 0; i < list_length(quals); i++) {
        Expr *q = list_nth(quals, i);

        sel *= IsA(q, OpExpr) && ((OpExpr *)q)->op->is_equality ? 0.1
                                                                  : 1.0 / 3;
    }
    return sel;
}

/*
 * The share of a scan's `tuples` rows its conditions keep: PostgreSQL's
 * defaults without statistics -- "=" keeps one of the column's distinct
 * values (at most 200, DEFAULT_NUM_DISTINCT), "<>" the rest, any other
 * condition a third.
 */
static double
scan_selectivity(List *quals, double tuples)
{
    double eq = 1.0 / Max(1.0, Min(tuples, 200.0));
    double sel = 1.0;

    for (int i = 0; i < list_length(quals); i++) {
        Expr *q = list_nth(quals, i);
        const OperDesc *op = IsA(q, OpExpr) ? ((OpExpr *)q)->op : NULL;

        if (op != NULL && op->is_equality)
            sel *= eq;
        else if (op != NULL && strcmp(op->name, "<>") == 0)
            sel *= 1.0 - eq;
        else
            sel *= 1.0 / 3;
    }
    return sel;
}

/* A scan's estimates: rows before its conditions, base_cost (pages read,
 * or a subquery's cost) to add to the per-row costs. */
static void
set_scan_estimates(Plan *plan, double rows, double base_cost)
{
    plan->plan_rows = Max(1.0, rint(rows * scan_selectivity(plan->qual, rows)));
    plan->startup_cost = 0;
    plan->total_cost =
        base_cost + rows * 0.01 + list_length(plan->qual) * rows * 0.0025;
    plan->plan_width = 4 * Max(1, list_length(plan->targetlist));
}

static Plan *
make_scan(JoinPlanner *jp, int rtindex)
{
    Query *q = jp->root->q;
    RangeTblEntry *rte = rt_fetch(q, rtindex);
    List *tlist = scan_tlist(jp->needed, rtindex);
    List *relids = tdb_lappend_int(NIL, rtindex);
    List *quals = order_quals(take_conditions(jp, relids, NIL));
    Plan *plan;

    switch (rte->rtekind) {
    case RTE_RELATION: {
        SeqScan *scan = MAKE_PLAN(SeqScan);

        scan->relid = rte->relid;
        scan->relname = rte->relname;
        scan->alias = rte->refname;
        scan->scanrelid = rtindex;
        plan = &scan->plan;
        break;
    }
    case RTE_SUBQUERY: {
        SubqueryScan *scan = MAKE_PLAN(SubqueryScan);
        PlannerInfo *sub = tdb_palloc0(sizeof(PlannerInfo));

        sub->glob = jp->root->glob;
        sub->q = rte->subquery;
        sub->parent = NULL; /* outer references here are not supported */
        scan->subplan = plan_query(sub);
        scan->alias = rte->refname;
        plan = &scan->plan;
        break;
    }
    case RTE_FUNCTION: {
        FunctionScan *scan = MAKE_PLAN(FunctionScan);

        scan->funcexpr = rte->funcexpr;
        scan->alias = rte->refname;
        scan->ordinality = rte->ordinality;
        plan = &scan->plan;
        break;
    }
    case RTE_VALUES: {
        ValuesScan *scan = MAKE_PLAN(ValuesScan);

        scan->values_lists = rte->values_lists;
        plan = &scan->plan;
        break;
    }
    case RTE_WORKTABLE: {
        WorkTableScan *scan = MAKE_PLAN(WorkTableScan);

        if (jp->root->glob->wt_param < 0)
            elog(ERROR, "working table reference outside its recursive term");
        scan->wt_param = jp->root->glob->wt_param;
        plan = &scan->plan;
        break;
    }
    default:
        elog(ERROR, "unexpected range-table entry kind %d",
             (int)rte->rtekind);
    }
    plan->targetlist = tlist;
    plan->qual = quals;
    plan->scan_colnames = rte->colnames;
    plan->scan_refname = rte->refname;
    if (IsA(plan, SubqueryScan)) {
        Plan *sub = ((SubqueryScan *)plan)->subplan;

        set_scan_estimates(plan, sub->plan_rows, sub->total_cost);
    } else {
        double pages = 0;
        double rows = estimate_rows(jp->root, rtindex, &pages);

        set_scan_estimates(plan, rows, pages); /* seq_page_cost 1 */
    }
    return plan;
}

/* How a join uses its equalities: hashing them, or merging sorted
 * inputs on them (nested loops evaluate them as any condition). */
typedef enum JoinMethod {
    JOIN_METHOD_NESTLOOP,
    JOIN_METHOD_HASH,
    JOIN_METHOD_MERGE,
} JoinMethod;

static OpExpr *commuted_clause(OpExpr *op);

/* Can the types of an equality's arguments be hashed (hash clause)? */
static bool
types_hash(const OperDesc *op, Oid ltype, Oid rtype)
{
    const TypeSupport *l = tdb_type_support(ltype);
    const TypeSupport *r = tdb_type_support(rtype);

    return op->is_equality && l != NULL && l->hash != NULL && r != NULL &&
           r->hash != NULL;
}

/*
 * Can an "=" between ltype and rtype order a merge join (merge clause)?
 * Each side sorts by its type's comparison; a cross-type "=" compares
 * with the "<" of the same types, so the types must have one (the
 * integer types, date and timestamps, name and text: PostgreSQL's
 * cross-type btree families).  Unlike hashing, this takes the "=" whose
 * values of different types need not hash alike (date = timestamp).
 */
static bool
types_merge(const OperDesc *op, Oid ltype, Oid rtype)
{
    const TypeSupport *l = tdb_type_support(ltype);
    const TypeSupport *r = tdb_type_support(rtype);

    if (strcmp(op->name, "=") != 0 || op->result != BOOLOID || l == NULL ||
        l->cmp == NULL || r == NULL || r->cmp == NULL)
        return false;
    return ltype == rtype || tdb_oper_lookup("<", ltype, rtype) != NULL;
}

/*
 * Is cond an equality between an expression of one side and one of the
 * other that `method` can use (a hash or merge clause)?  Sets
 * *outer_key / *inner_key.
 */
static bool
key_clause(Expr *cond, JoinMethod method, List *outer_relids,
           List *inner_relids, Expr **outer_key, Expr **inner_key)
{
    OpExpr *op, *comm;
    Expr *l, *r;
    List *lrel, *rrel;

    if (!IsA(cond, OpExpr))
        return false;
    op = (OpExpr *)cond;
    if (list_length(op->args) != 2)
        return false;
    l = linitial(op->args);
    r = list_nth(op->args, 1);
    if (method == JOIN_METHOD_MERGE
            ? !types_merge(op->op, exprType(l), exprType(r))
            : !types_hash(op->op, exprType(l), exprType(r)))
        return false;
    lrel = expr_relids(l);
    rrel = expr_relids(r);
    if (lrel == NIL || rrel == NIL)
        return false;
    if (relids_subset(lrel, outer_relids) &&
        relids_subset(rrel, inner_relids)) {
        *outer_key = l;
        *inner_key = r;
        return true;
    }
    if (relids_subset(rrel, outer_relids) &&
        relids_subset(lrel, inner_relids)) {
        /* inner = outer: usable as outer = inner with the commutator */
        comm = commuted_clause(op);
        if (comm == NULL || (method == JOIN_METHOD_MERGE &&
                             !types_merge(comm->op, exprType(r), exprType(l))))
            return false;
        *outer_key = r;
        *inner_key = l;
        return true;
    }
    return false;
}


/*
 * l op r as r op' l (op' the commutator), or NULL if op has none.  Hash
 * clauses are shown and run as outer = inner, as PostgreSQL switches
 * them.
 */
static OpExpr *
commuted_clause(OpExpr *op)
{
    const OperDesc *comm =
        op->op->commutator != NULL
            ? tdb_oper_lookup(op->op->commutator, op->op->right,
                              op->op->left)
            : NULL;
    OpExpr *copy;

    if (comm == NULL)
        return NULL;
    copy = (OpExpr *)tdb_copy_node_shallow((Node *)op);
    copy->op = comm;
    copy->args = tdb_list_make2(list_nth(op->args, 1), list_nth(op->args, 0));
    return copy;
}

static List *
concat_tlists(Plan *outer, Plan *inner)
{
    List *tlist = NIL;

    for (int i = 0; i < list_length(outer->targetlist); i++) {
        TargetEntry *te = list_nth(outer->targetlist, i);

        tlist = tdb_lappend(tlist,
                            tdb_make_target_entry(te->expr,
                                                  list_length(tlist) + 1, NULL,
                                                  false));
    }
    for (int i = 0; inner != NULL && i < list_length(inner->targetlist);
         i++) {
        TargetEntry *te = list_nth(inner->targetlist, i);

        tlist = tdb_lappend(tlist,
                            tdb_make_target_entry(te->expr,
                                                  list_length(tlist) + 1, NULL,
                                                  false));
    }
    return tlist;
}

/* How many of conds `method` can use (either way round). */
static int
count_key_clauses(List *conds, JoinMethod method, List *outer_relids,
                  List *inner_relids)
{
    Expr *ok, *ik;
    int n = 0;

    for (int i = 0; i < list_length(conds); i++)
        n += key_clause(list_nth(conds, i), method, outer_relids, inner_relids,
                        &ok, &ik);
    return n;
}

/*
 * The join method (planner.h): the first of hash join, merge join, nested
 * loop that has its clauses and is enabled, else the first that can do
 * the join at all (PostgreSQL's disable_cost makes a disabled method the
 * last resort).  A RIGHT or FULL merge join needs every join condition to
 * be a merge clause (the executor decides an inner row's match by its
 * keys alone); a nested loop does neither.
 */
static JoinMethod
choose_join_method(const Settings *settings, JoinType jointype, List *conds,
                   JoinPart *outer, JoinPart *inner)
{
    int nhash = count_key_clauses(conds, JOIN_METHOD_HASH, outer->relids,
                                  inner->relids);
    int nmerge = count_key_clauses(conds, JOIN_METHOD_MERGE, outer->relids,
                                   inner->relids);
    bool nestloop_ok = jointype != JOIN_FULL && jointype != JOIN_RIGHT;
    bool merge_ok = nmerge > 0 && (nestloop_ok || nmerge == list_length(conds));

    if (nhash > 0 && settings->enable_hashjoin)
        return JOIN_METHOD_HASH;
    if (merge_ok && settings->enable_mergejoin)
        return JOIN_METHOD_MERGE;
    if (nestloop_ok && settings->enable_nestloop)
        return JOIN_METHOD_NESTLOOP;
    if (nhash > 0)
        return JOIN_METHOD_HASH;
    if (merge_ok)
        return JOIN_METHOD_MERGE;
    return JOIN_METHOD_NESTLOOP;
}

/*
 * Is plan's output already sorted ascending, NULLs last, on keys?  A
 * merge join's output is, on its outer keys (and, joining only matched
 * rows, on its inner keys too), except RIGHT and FULL joins, whose
 * unmatched inner rows come in between.
 */
static bool
sorted_on_keys(Plan *plan, List *keys)
{
    MergeJoin *mj = (MergeJoin *)plan;

    if (!IsA(plan, MergeJoin) || mj->jointype == JOIN_RIGHT ||
        mj->jointype == JOIN_FULL ||
        list_length(keys) > list_length(mj->outer_keys))
        return false;
    for (int i = 0; i < list_length(keys); i++) {
        Node *key = list_nth(keys, i);

        if (!tdb_expr_equal(key, list_nth(mj->outer_keys, i)) &&
            !(mj->jointype == JOIN_INNER &&
              tdb_expr_equal(key, list_nth(mj->inner_keys, i))))
            return false;
    }
    return true;
}

/* The 1-based column of plan's output computing expr, added (as a junk
 * column of a copy of its target list) if it has none. */
static int
output_column(Plan *plan, Expr *expr)
{
    int n = list_length(plan->targetlist);

    for (int i = 0; i < n; i++) {
        TargetEntry *te = list_nth(plan->targetlist, i);

        if (tdb_expr_equal((Node *)te->expr, (Node *)expr))
            return i + 1;
    }
    plan->targetlist =
        tdb_lappend(tdb_list_copy(plan->targetlist),
                    tdb_make_target_entry(expr, n + 1, NULL, true));
    return n + 1;
}

/*
 * One input of a merge join, sorted on keys: plan itself if it is sorted
 * that way already (under a Materialize if it is the inner input and
 * cannot mark its position), else a Sort on the keys, ascending, NULLs
 * last, each by its own type's comparison.
 */
static Plan *
merge_input(Plan *plan, List *keys, bool is_inner)
{
    Sort *sort;

    if (sorted_on_keys(plan, keys)) {
        Material *m;

        if (!is_inner || tdb_exec_supports_mark(plan))
            return plan;
        m = MAKE_PLAN(Material);
        m->plan.lefttree = plan;
        m->plan.targetlist = passthrough_tlist(plan);
        m->rescan_input = true; /* the merge join may read parameters */
        copy_estimates(&m->plan, plan);
        return &m->plan;
    }
    sort = MAKE_PLAN(Sort);
    sort->num_keys = list_length(keys);
    sort->keys = tdb_palloc0(sizeof(SortKey) * (Size)sort->num_keys);
    for (int i = 0; i < sort->num_keys; i++) {
        Expr *key = list_nth(keys, i);

        sort->keys[i].col = output_column(plan, key);
        sort->keys[i].support = tdb_type_support(exprType(key));
    }
    sort->plan.lefttree = plan;
    sort->plan.targetlist = passthrough_tlist(plan);
    copy_estimates(&sort->plan, plan);
    sort->plan.startup_cost = plan->total_cost + plan->plan_rows * 0.02;
    sort->plan.total_cost = sort->plan.startup_cost + plan->plan_rows * 0.01;
    return &sort->plan;
}

/* The lowest rtindex under a join part: which one the query names first. */
static int
first_relid(JoinPart *part)
{
    int first = INT_MAX;

    for (int i = 0; i < list_length(part->relids); i++)
        first = Min(first, list_nth_int(part->relids, i));
    return first;
}

/*
 * Which side of a merge join is outer.  PostgreSQL's costs charge the
 * inner side for the rows it reads again (runs of equal keys, read once
 * per outer row with that key): estimated matches beyond the inner
 * side's rows.  Estimating the matches its way without statistics --
 * the product of the sides' rows, divided per merge clause by the larger
 * number of distinct values, min(rows, 200) on either side -- when they
 * exceed the smaller side, the smaller side is outer (fewer rows read
 * again); otherwise the costs tie and the side the query names first is
 * outer.  A LEFT join becomes a RIGHT one for that only when every
 * condition is a merge clause; SEMI and ANTI joins keep their sides.
 */
static bool
merge_swaps_sides(JoinType jointype, List *conds, JoinPart *outer,
                  JoinPart *inner)
{
    double orows = outer->plan->plan_rows, irows = inner->plan->plan_rows;
    double matches = orows * irows;
    int nclauses = count_key_clauses(conds, JOIN_METHOD_MERGE, outer->relids,
                                     inner->relids);
    bool swap;

    for (int i = 0; i < nclauses; i++)
        matches /= Max(Min(orows, DEFAULT_NUM_DISTINCT),
                       Min(irows, DEFAULT_NUM_DISTINCT));
    if (matches <= Min(orows, irows))
        swap = first_relid(inner) < first_relid(outer);
    else
        swap = orows > irows;
    if (!swap)
        return false;
    if (jointype == JOIN_LEFT)
        return count_key_clauses(conds, JOIN_METHOD_MERGE, outer->relids,
                                 inner->relids) == list_length(conds);
    return jointype == JOIN_INNER || jointype == JOIN_FULL;
}

/* The join types with the sides exchanged. */
static JoinType
swapped_join_type(JoinType jointype)
{
    return jointype == JOIN_LEFT    ? JOIN_RIGHT
           : jointype == JOIN_RIGHT ? JOIN_LEFT
                                    : jointype;
}

/*
 * Join outer and inner with jointype.  join_conds: the join's own
 * conditions (ON of an outer join: they decide matching); filter: the
 * conditions to apply to the joined rows.
 */
static Plan *
make_join(JoinPlanner *jp, JoinPart *outer, JoinPart *inner,
          JoinType jointype, List *join_conds, List *filter)
{
    Settings *settings = &jp->root->glob->st->session->settings;
    List *keyclauses = NIL, *outer_keys = NIL, *inner_keys = NIL;
    List *other = NIL, *tlist;
    JoinMethod method;
    Plan *plan;
    double rows;

    if (jointype == JOIN_INNER) {
        join_conds = tdb_list_concat(join_conds, filter);
        filter = NIL;
    }
    method = choose_join_method(settings, jointype, join_conds, outer, inner);
    if ((method == JOIN_METHOD_HASH && jointype == JOIN_LEFT &&
         settings->enable_hashjoin &&
         outer->plan->plan_rows < inner->plan->plan_rows) ||
        (method == JOIN_METHOD_MERGE &&
         merge_swaps_sides(jointype, join_conds, outer, inner))) {
        /* hash join: the preserved side is the smaller: hash it, probing
         * with the nullable side (PostgreSQL's Hash Right Join) */
        JoinPart *t = outer;

        outer = inner;
        inner = t;
        jointype = swapped_join_type(jointype);
    }
    for (int i = 0; i < list_length(join_conds); i++) {
        Expr *cond = list_nth(join_conds, i);
        Expr *ok, *ik;

        if (key_clause(cond,
                       method == JOIN_METHOD_MERGE ? JOIN_METHOD_MERGE
                                                   : JOIN_METHOD_HASH,
                       outer->relids, inner->relids, &ok, &ik)) {
            if (ok != linitial(((OpExpr *)cond)->args))
                cond = (Expr *)commuted_clause((OpExpr *)cond);
            keyclauses = tdb_lappend(keyclauses, cond);
            outer_keys = tdb_lappend(outer_keys, ok);
            inner_keys = tdb_lappend(inner_keys, ik);
        } else
            other = tdb_lappend(other, cond);
    }
    /* an equijoin is assumed to match each row of the larger side once
     * (a foreign-key-like join); other conditions filter the product */
    if (keyclauses != NIL)
        rows = Max(outer->plan->plan_rows, inner->plan->plan_rows) *
               clause_selectivity(other);
    else
        rows = outer->plan->plan_rows * inner->plan->plan_rows *
               clause_selectivity(join_conds);
    if (jointype == JOIN_SEMI)
        rows = Min(rows, outer->plan->plan_rows);
    if (jointype == JOIN_LEFT || jointype == JOIN_FULL)
        rows = Max(rows, outer->plan->plan_rows);
    if (jointype == JOIN_RIGHT || jointype == JOIN_FULL)
        rows = Max(rows, inner->plan->plan_rows);
    tlist = concat_tlists(outer->plan, inner->plan);
    if (method == JOIN_METHOD_HASH) {
        HashJoin *hj = MAKE_PLAN(HashJoin);
        Hash *hash = MAKE_PLAN(Hash);

        hash->plan.lefttree = inner->plan;
        hash->plan.targetlist = inner->plan->targetlist;
        copy_estimates(&hash->plan, inner->plan);
        hash->hash_keys = inner_keys;
        hj->jointype = jointype;
        hj->hashclauses = keyclauses;
        hj->outer_keys = outer_keys;
        hj->inner_keys = inner_keys;
        hj->joinqual = other;
        plan = &hj->plan;
        plan->lefttree = outer->plan;
        plan->righttree = &hash->plan;
    } else if (method == JOIN_METHOD_MERGE) {
        MergeJoin *mj = MAKE_PLAN(MergeJoin);

        mj->jointype = jointype;
        mj->mergeclauses = keyclauses;
        mj->outer_keys = outer_keys;
        mj->inner_keys = inner_keys;
        mj->joinqual = other;
        plan = &mj->plan;
        plan->lefttree = merge_input(outer->plan, outer_keys, false);
        plan->righttree = merge_input(inner->plan, inner_keys, true);
    } else {
        NestLoop *nl = MAKE_PLAN(NestLoop);

        if (jointype == JOIN_FULL || jointype == JOIN_RIGHT)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("FULL JOIN is only supported with merge-joinable "
                           "or hash-joinable join conditions"));
        nl->jointype = jointype;
        nl->joinqual = join_conds;
        plan = &nl->plan;
        plan->lefttree = outer->plan;
        plan->righttree = inner->plan;
    }
    plan->qual = filter;
    plan->targetlist = tlist;
    plan->plan_rows = Max(1.0, rint(rows));
    plan->startup_cost = plan->lefttree->startup_cost;
    if (method == JOIN_METHOD_MERGE) /* both inputs sort first */
        plan->startup_cost += plan->righttree->startup_cost;
    plan->total_cost =
        plan->lefttree->total_cost + plan->righttree->total_cost + rows * 0.01;
    plan->plan_width = outer->plan->plan_width + inner->plan->plan_width;
    return plan;
}

static JoinPart *plan_jointree_node(JoinPlanner *jp, Node *node);
static bool contains_volatile(Node *node, void *arg);

/* The rtindexes of the tables under a join tree node. */
static List *
jointree_relids(Node *node)
{
    if (IsA(node, RangeTblRef))
        return tdb_lappend_int(NIL, ((RangeTblRef *)node)->rtindex);
    if (IsA(node, JoinExpr))
        return tdb_list_concat(jointree_relids(((JoinExpr *)node)->larg),
                               jointree_relids(((JoinExpr *)node)->rarg));
    return NIL;
}
static List *take_pseudoconstants(JoinPlanner *jp);

/* Is some pending condition computable over a + b and reading both? */
static bool
connected(JoinPlanner *jp, List *a, List *b)
{
    for (int i = 0; i < list_length(jp->pending); i++) {
        List *crel = expr_relids(list_nth(jp->pending, i));
        bool reads_a = false, reads_b = false, inside = true;

        for (int r = 0; r < list_length(crel); r++) {
            int rel = list_nth_int(crel, r);

            reads_a |= tdb_list_member_int(a, rel);
            reads_b |= tdb_list_member_int(b, rel);
            inside &= tdb_list_member_int(a, rel) ||
                      tdb_list_member_int(b, rel);
        }
        if (inside && reads_a && reads_b)
            return true;
    }
    return false;
}

/*
 * Join inner-joined parts greedily: start from the smallest, then add
 * the smallest part connected to what is joined so far by a condition
 * (a cross join only when nothing is connected), so joins that filter
 * come first and the hashed sides stay small.
 */
static JoinPart *
join_in_order(JoinPlanner *jp, List *parts)
{
    List *remaining = tdb_list_copy(parts);
    JoinPart *acc;
    int first = 0;

    for (int i = 1; i < list_length(remaining); i++)
        if (((JoinPart *)list_nth(remaining, i))->plan->plan_rows <
            ((JoinPart *)list_nth(remaining, first))->plan->plan_rows)
            first = i;
    acc = list_nth(remaining, first);
    remaining = tdb_list_delete_nth(remaining, first);
    while (list_length(remaining) > 0) {
        int pick = -1;
        JoinPart *next, *joined = tdb_palloc0(sizeof(JoinPart));
        JoinPart *outer, *inner;
        List *relids, *nullable, *conds;

        for (int pass = 0; pass < 2 && pick < 0; pass++)
            for (int i = 0; i < list_length(remaining); i++) {
                JoinPart *cand = list_nth(remaining, i);

                if (pass == 0 && !connected(jp, acc->relids, cand->relids))
                    continue;
                if (pick < 0 ||
                    cand->plan->plan_rows <
                        ((JoinPart *)list_nth(remaining, pick))
                            ->plan->plan_rows)
                    pick = i;
            }
        next = list_nth(remaining, pick);
        remaining = tdb_list_delete_nth(remaining, pick);
        relids = tdb_list_concat(tdb_list_copy(acc->relids), next->relids);
        nullable = tdb_list_concat(tdb_list_copy(acc->nullable),
                                   next->nullable);
        conds = take_conditions(jp, relids, nullable);
        /* the larger side probes, the smaller side is hashed */
        outer = acc->plan->plan_rows >= next->plan->plan_rows ? acc : next;
        inner = outer == acc ? next : acc;
        joined->plan = make_join(jp, outer, inner, JOIN_INNER, conds, NIL);
        joined->relids = relids;
        joined->nullable = nullable;
        acc = joined;
    }
    return acc;
}

static bool has_false_constant(List *conds);
static Plan *make_dummy_result(List *needed);
static Plan *make_gating_result(Plan *plan, List *conds);

/* An empty Result producing the needed columns of the tables relids. */
static Plan *
dummy_for_relids(JoinPlanner *jp, List *relids)
{
    List *needed = NIL;

    for (int i = 0; i < list_length(jp->needed); i++) {
        Var *v = list_nth(jp->needed, i);

        if (tdb_list_member_int(relids, v->varno))
            needed = tdb_lappend(needed, v);
    }
    return make_dummy_result(needed);
}

/*
 * One side of an outer join.  A nullable side that can never match (ON
 * false) is an empty Result producing the side's columns, as in
 * PostgreSQL.
 */
static JoinPart *
plan_outer_join_side(JoinPlanner *jp, Node *side, bool never_matches)
{
    JoinPart *part;

    if (!never_matches)
        return plan_jointree_node(jp, side);
    part = tdb_palloc0(sizeof(JoinPart));
    part->relids = jointree_relids(side);
    part->plan = dummy_for_relids(jp, part->relids);
    jp->pending = NIL;
    return part;
}

/*
 * The pending conditions (WHERE, or an outer level's) that read only
 * the preserved side `side` of outer join j: taken from *pending, to be
 * applied below the join, where they filter that side's rows early.
 * A FULL join preserves neither side in this sense (its rows with the
 * other side NULL must still be tested), so nothing moves there.
 */
static List *
preserved_conditions(List **pending, JoinType jt, Node *side, JoinExpr *j)
{
    List *relids, *taken = NIL, *rest = NIL;

    if (jt == JOIN_FULL || (jt == JOIN_RIGHT) != (side == j->rarg))
        return NIL;
    relids = jointree_relids(side);
    for (int i = 0; i < list_length(*pending); i++) {
        Expr *cond = list_nth(*pending, i);
        List *crel = expr_relids(cond);

        if (crel != NIL && relids_subset(crel, relids))
            taken = tdb_lappend(taken, cond);
        else
            rest = tdb_lappend(rest, cond);
    }
    *pending = rest;
    return taken;
}

static JoinPart *
plan_outer_join(JoinPlanner *jp, JoinExpr *j)
{
    JoinPart *left, *right, *result = tdb_palloc0(sizeof(JoinPart));
    List *on = conjuncts(j->quals, NIL);
    List *pushed = NIL, *join_conds = NIL;
    JoinType jt = j->jointype;
    List *saved = jp->pending;
    Node *nullable_side = jt == JOIN_RIGHT ? j->larg
                        : jt == JOIN_FULL  ? NULL
                                           : j->rarg;
    List *nullable_relids = NIL;

    /*
     * ON conditions reading only the nullable side filter that side
     * before the join (its rows only ever join); everything else decides
     * matching at the join.
     */
    if (nullable_side != NULL)
        nullable_relids = jointree_relids(nullable_side);
    for (int i = 0; i < list_length(on); i++) {
        Expr *cond = list_nth(on, i);
        List *crel = expr_relids(cond);

        if (crel != NIL && nullable_side != NULL &&
            relids_subset(crel, nullable_relids) &&
            !contains_volatile((Node *)cond, NULL))
            pushed = tdb_lappend(pushed, cond);
        else
            join_conds = tdb_lappend(join_conds, cond);
    }
    /*
     * Conditions handed to a side and not placed there go back where they
     * came from: the join's own (ON) ones to the join, outer ones out.
     */
    jp->outer_depth++;
    jp->pending = nullable_side == j->larg ? pushed
                  : preserved_conditions(&saved, jt, j->larg, j);
    left = plan_outer_join_side(jp, j->larg, nullable_side == j->larg &&
                                                 has_false_constant(on));
    if (nullable_side == j->larg)
        join_conds = tdb_list_concat(join_conds, jp->pending);
    else
        saved = tdb_list_concat(saved, jp->pending);
    jp->pending = nullable_side == j->rarg ? pushed
                  : preserved_conditions(&saved, jt, j->rarg, j);
    right = plan_outer_join_side(jp, j->rarg, nullable_side == j->rarg &&
                                                  has_false_constant(on));
    if (nullable_side == j->rarg)
        join_conds = tdb_list_concat(join_conds, jp->pending);
    else
        saved = tdb_list_concat(saved, jp->pending);
    jp->outer_depth--;
    jp->pending = saved;
    if (jt == JOIN_RIGHT) {
        /* as a LEFT join with the sides swapped */
        JoinPart *t = left;

        left = right;
        right = t;
        jt = JOIN_LEFT;
    }
    result->relids = tdb_list_concat(tdb_list_copy(left->relids),
                                     right->relids);
    result->nullable = tdb_list_concat(tdb_list_copy(left->nullable),
                                       right->nullable);
    if (jt == JOIN_LEFT || jt == JOIN_FULL || jt == JOIN_ANTI)
        result->nullable = tdb_list_concat(result->nullable, right->relids);
    if (jt == JOIN_FULL)
        result->nullable = tdb_list_concat(result->nullable, left->relids);
    result->plan = make_join(jp, left, right, jt, join_conds, NIL);
    return result;
}

static JoinPart *
plan_jointree_node(JoinPlanner *jp, Node *node)
{
    if (IsA(node, RangeTblRef)) {
        JoinPart *part = tdb_palloc0(sizeof(JoinPart));
        int rtindex = ((RangeTblRef *)node)->rtindex;

        part->relids = tdb_lappend_int(NIL, rtindex);
        part->plan = make_scan(jp, rtindex);
        return part;
    }
    if (IsA(node, JoinExpr)) {
        JoinExpr *j = (JoinExpr *)node;

        List *gating;
        JoinPart *part;

        if (j->jointype != JOIN_INNER)
            return plan_outer_join(jp, j);
        jp->pending = conjuncts(j->quals, jp->pending);
        gating = take_pseudoconstants(jp);
        if (jp->outer_depth == 0) {
            /* as if in WHERE: tested once for the whole query */
            jp->gating = tdb_list_concat(jp->gating, gating);
            gating = NIL;
        }
        part = join_in_order(jp,
                             tdb_list_make2(plan_jointree_node(jp, j->larg),
                                            plan_jointree_node(jp, j->rarg)));
        /* inside an outer join such a condition empties this join only */
        if (has_false_constant(gating))
            part->plan = dummy_for_relids(jp, part->relids);
        else if (gating != NIL)
            part->plan = make_gating_result(part->plan, gating);
        return part;
    }
    elog(ERROR, "unexpected join tree node %d", (int)nodeTag(node));
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

/*
 * HAVING conditions without aggregates, subqueries or volatile calls
 * filter rows before grouping, as PostgreSQL does: with GROUP BY they
 * move to WHERE; without it (one group, which exists even with no rows)
 * a copy goes to WHERE and the original stays.
 */
static void
move_having_to_where(Query *q)
{
    List *having = conjuncts(q->having, NIL);
    List *where = conjuncts(q->jointree->quals, NIL);
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

/*
 * Take the WHERE conditions that read no column of this query and call
 * nothing volatile (PostgreSQL's pseudoconstants: constants, params,
 * initplan results): they are tested once, by a gating Result.
 */
static List *
take_pseudoconstants(JoinPlanner *jp)
{
    List *taken = NIL, *rest = NIL;

    for (int i = 0; i < list_length(jp->pending); i++) {
        Expr *cond = list_nth(jp->pending, i);

        if (expr_relids(cond) == NIL && !contains_volatile((Node *)cond, NULL))
            taken = tdb_lappend(taken, cond);
        else
            rest = tdb_lappend(rest, cond);
    }
    jp->pending = rest;
    return taken;
}

/* Is one of conds a constant FALSE or NULL (after canonicalization)? */
static bool
has_false_constant(List *conds)
{
    for (int i = 0; i < list_length(conds); i++) {
        Const *c = list_nth(conds, i);

        if (IsA(c, Const) && (c->constisnull || !DatumGetBool(c->constvalue)))
            return true;
    }
    return false;
}

/*
 * A plan that returns no rows (WHERE false): a Result with no input, its
 * target list the columns the query needs (setrefs makes them NULLs;
 * they are never evaluated).
 */
static Plan *
make_dummy_result(List *needed)
{
    Result *r = MAKE_PLAN(Result);

    for (int i = 0; i < list_length(needed); i++)
        r->plan.targetlist = tdb_lappend(
            r->plan.targetlist,
            tdb_make_target_entry(list_nth(needed, i), i + 1, NULL, false));
    r->resconstantqual =
        tdb_list_make1((Expr *)tdb_make_bool_const(false, false));
    r->plan.plan_rows = 0;
    r->plan.plan_width = 4 * Max(1, list_length(needed));
    return &r->plan;
}

/* plan under a Result testing the pseudoconstant conditions once. */
static Plan *
make_gating_result(Plan *plan, List *conds)
{
    Result *r = MAKE_PLAN(Result);

    r->plan.lefttree = plan;
    r->plan.targetlist = plan->targetlist;
    r->resconstantqual = conds;
    copy_estimates(&r->plan, plan);
    return &r->plan;
}

static bool
has_outer_join(Node *node)
{
    if (IsA(node, FromExpr)) {
        List *items = ((FromExpr *)node)->fromlist;

        for (int i = 0; i < list_length(items); i++)
            if (has_outer_join(list_nth(items, i)))
                return true;
        return false;
    }
    if (IsA(node, JoinExpr)) {
        JoinExpr *j = (JoinExpr *)node;

        return j->jointype != JOIN_INNER || has_outer_join(j->larg) ||
               has_outer_join(j->rarg);
    }
    return false;
}

/* Move the ON conditions of inner joins under node to conds. */
static List *
take_inner_join_quals(Node *node, List *conds)
{
    JoinExpr *j;

    if (!IsA(node, JoinExpr))
        return conds;
    j = (JoinExpr *)node;
    conds = conjuncts(j->quals, conds);
    j->quals = NULL;
    conds = take_inner_join_quals(j->larg, conds);
    return take_inner_join_quals(j->rarg, conds);
}

/* The plan of the FROM clause with WHERE applied, outputting needed. */
static Plan *
plan_jointree(PlannerInfo *root, List *needed)
{
    JoinPlanner jp = {root, needed, NIL, NIL, 0};
    FromExpr *from = root->q->jointree;
    List *parts = NIL;
    List *gating;
    JoinPart *top;

    if (from->fromlist == NIL) {
        Result *r = MAKE_PLAN(Result);

        r->plan.plan_rows = 1;
        r->resconstantqual = conjuncts(from->quals, NIL);
        return &r->plan;
    }
    jp.pending = conjuncts(from->quals, NIL);
    if (!has_outer_join((Node *)from)) {
        for (int i = 0; i < list_length(from->fromlist); i++)
            jp.pending = take_inner_join_quals(list_nth(from->fromlist, i),
                                               jp.pending);
        jp.pending = tdb_derive_constant_equalities(jp.pending);
    }
    gating = take_pseudoconstants(&jp);
    if (has_false_constant(gating))
        return make_dummy_result(needed);
    for (int i = 0; i < list_length(from->fromlist); i++)
        parts = tdb_lappend(parts,
                            plan_jointree_node(&jp, list_nth(from->fromlist, i)));
    top = join_in_order(&jp, parts);
    gating = tdb_list_concat(gating, jp.gating);
    if (has_false_constant(gating))
        return make_dummy_result(needed);
    if (jp.pending != NIL) {
        /* conditions over nullable columns: after the joins */
        top->plan->qual = tdb_list_concat(top->plan->qual, jp.pending);
    }
    return gating != NIL ? make_gating_result(top->plan, gating) : top->plan;
}

/* ----------------------------------------------------------------------
 * Estimates
 * ---------------------------------------------------------------------- */

/*
 * PostgreSQL's guess at the average width of a value of the type without
 * statistics (get_typavgwidth): fixed-width types their width, character
 * and numeric types with a typmod from their largest size, other
 * variable-width types 32 bytes.
 */
static int
type_avg_width(Oid type, int32 typmod)
{
    const TypeInfo *info = tdb_type_lookup(type);
    int max_width = 0;

    if (info != NULL && info->len > 0)
        return info->len;
    if ((type == BPCHAROID || type == VARCHAROID) && typmod > 4)
        max_width = (typmod - 4) * 4 + 4; /* UTF8: 4 bytes a character */
    else if (type == NUMERICOID && typmod >= 4)
        max_width = 8 + ((((typmod - 4) >> 16) & 0xffff) + 6) / 4 * 2;
    if (max_width <= 0)
        return 32;
    if (type == BPCHAROID || max_width <= 32)
        return max_width;
    return 32 + (Min(max_width, 1000) - 32) / 2;
}

/* The rows of range-table entry rtindex; *pages (out): the pages a scan
 * reads (tables). */
/*
 * PostgreSQL's estimate for a table never vacuumed or analyzed (tupledb
 * keeps no such statistics): the file's pages, but at least ten, times
 * the whole rows of the estimated width that fit in a page.  *pages
 * (out): the pages.
 */
static double
table_rows(PlannerInfo *root, Oid relid, double *pages)
{
    Relation rel = tdb_relation_open_by_oid(root->glob->st->session->xact,
                                            relid, REL_LOCK_SHARE);
    BlockNumber nblocks = tdb_buf_relation_nblocks(rel->rd_relfilenumber);
    int width = 24 + 4; /* tuple header and line pointer */

    for (int i = 0; i < rel->rd_att->natts; i++) {
        TupleAttr *att = TupleDescAttr(rel->rd_att, i);

        if (!att->attisdropped)
            width += type_avg_width(att->atttypid, att->atttypmod);
    }
    tdb_relation_close(rel);
    *pages = Max(nblocks, 10);
    return *pages * (double)(8168 / width);
}

static double
estimate_rows(PlannerInfo *root, int rtindex, double *pages)
{
    RangeTblEntry *rte = rt_fetch(root->q, rtindex);

    switch (rte->rtekind) {
    case RTE_RELATION:
        return table_rows(root, rte->relid, pages);
    case RTE_VALUES:
        return list_length(rte->values_lists);
    case RTE_FUNCTION: {
        double rows;

        /* PostgreSQL's default, except what a support function knows */
        if (generate_series_rows(rte->funcexpr, &rows))
            return rows;
        return 1000;
    }
    default:
        return 1000;
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
static TargetEntry *
tle_for_ref(List *tlist, int ref)
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
        TargetEntry *te = tle_for_ref(tlist, sgc->tle_ref);

        keys[i].col = te->resno;
        keys[i].support = sgc->support;
        keys[i].descending = sgc->descending;
        keys[i].nulls_first = sgc->nulls_first;
    }
    return keys;
}

static Plan *
make_sort(Plan *child, List *clauses, List *tlist)
{
    Sort *sort = MAKE_PLAN(Sort);

    sort->plan.lefttree = child;
    sort->plan.targetlist = passthrough_tlist(child);
    copy_estimates(&sort->plan, child);
    sort->plan.startup_cost = child->total_cost + child->plan_rows * 0.02;
    sort->plan.total_cost = sort->plan.startup_cost + child->plan_rows * 0.01;
    sort->num_keys = list_length(clauses);
    sort->keys = sort_keys_for(clauses, tlist);
    return &sort->plan;
}

/* Unique over the columns of clauses (sorted input). */
static Plan *
make_unique(Plan *child, List *clauses, List *tlist)
{
    Unique *u = MAKE_PLAN(Unique);

    u->plan.lefttree = child;
    u->plan.targetlist = passthrough_tlist(child);
    copy_estimates(&u->plan, child);
    u->num_cols = list_length(clauses);
    u->col_idx = tdb_palloc(sizeof(int) * (Size)Max(1, u->num_cols));
    u->eq_ops = tdb_palloc(sizeof(OperDesc *) * (Size)Max(1, u->num_cols));
    for (int i = 0; i < u->num_cols; i++) {
        SortGroupClause *sgc = list_nth(clauses, i);

        u->col_idx[i] = tle_for_ref(tlist, sgc->tle_ref)->resno;
        u->eq_ops[i] = sgc->eqop;
    }
    return &u->plan;
}

static Plan *
make_limit(Plan *child, Expr *offset, Expr *count)
{
    Limit *l = MAKE_PLAN(Limit);

    l->plan.lefttree = child;
    l->plan.targetlist = passthrough_tlist(child);
    copy_estimates(&l->plan, child);
    l->limit_offset = offset;
    l->limit_count = count;
    if (count != NULL && IsA(count, Const) && !((Const *)count)->constisnull)
        l->plan.plan_rows =
            Min(child->plan_rows,
                (double)DatumGetInt64(((Const *)count)->constvalue));
    return &l->plan;
}

/* Does any group key lack a hash function? */
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
    Settings *settings = &root->glob->st->session->settings;
    Agg *agg = MAKE_PLAN(Agg);
    List *input_tlist = NIL;
    List *aggs = NIL;
    int ngroup = list_length(q->group_clause);

    for (int i = 0; i < ngroup; i++) {
        SortGroupClause *sgc = list_nth(q->group_clause, i);
        TargetEntry *te = tle_for_ref(q->target_list, sgc->tle_ref);

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
    agg->plan.qual = conjuncts(q->having, NIL);
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
        sort->plan.targetlist = passthrough_tlist(input);
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

/* Vars needed above the join tree, excluding those only inside
 * aggregates' arguments when aggregating... (all are fine: the Agg's
 * input keeps them). */
static List *
needed_vars(Query *q)
{
    List *vars = NIL;

    for (int i = 0; i < list_length(q->target_list); i++)
        collect_vars(list_nth(q->target_list, i), &vars);
    for (int i = 0; i < list_length(q->returning); i++)
        collect_vars(list_nth(q->returning, i), &vars);
    collect_vars((Node *)q->having, &vars);
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

/* The SELECT part: join tree, aggregation, DISTINCT, ORDER BY, LIMIT. */
static Plan *
plan_select(PlannerInfo *root)
{
    Query *q = root->q;
    List *needed = needed_vars(q);
    Plan *plan = plan_jointree(root, needed);

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
    } else if (q->has_aggs || q->group_clause != NIL || q->having != NULL)
        plan = plan_aggregation(root, plan, needed);
    else {
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
        plan = make_sort(plan, keys, q->target_list);
        plan = make_unique(plan, q->distinct_clause, q->target_list);
    } else if (q->distinct_clause != NIL)
        plan = plan_distinct(root, plan);
    else if (q->sort_clause != NIL)
        plan = make_sort(plan, q->sort_clause, q->target_list);
    if (q->limit_offset != NULL || q->limit_count != NULL)
        plan = make_limit(plan, q->limit_offset, q->limit_count);
    return plan;
}

/* ----------------------------------------------------------------------
 * Hashing or sorting: DISTINCT, UNION, INTERSECT, EXCEPT
 *
 * PostgreSQL 15 costs both ways and keeps the cheaper.  tupledb repeats
 * its arithmetic on estimates made the way PostgreSQL makes them without
 * statistics (estimate_rows: a never-vacuumed table has at least ten
 * pages of rows; estimate_groups), so that it picks the same way:
 *
 *   - hashing needs every column's type to hash, sorting to compare; with
 *     one possible that one is used;
 *   - enable_hashagg off sorts; enable_sort off hashes;
 *   - a hash table estimated larger than work_mem x hash_mem_multiplier
 *     sorts (PostgreSQL: entries of MAXALIGN(row width) + 16 bytes);
 *   - otherwise the costs (default cost settings; both ways read the input
 *     and compare each row's columns once): hashing costs cpu_tuple_cost
 *     per group returned, sorting what PostgreSQL's cost_sort charges for
 *     the rows (in memory).  A set operation hashes if that is cheaper
 *     (choose_hashed_setop).  DISTINCT keeps the hashed plan only if it
 *     is more than 1% cheaper, input included (add_path's fuzz, the
 *     sorted plan winning ties for its order), and with ORDER BY only if
 *     it stays cheaper once its groups are sorted too.
 *
 * So a UNION of two rows sorts, and DISTINCT sorts when it keeps nearly
 * every row (wide tables, a small exactly-known input such as VALUES, a
 * selective condition) and ORDER BY follows, or when hashing would save
 * next to nothing.
 * ---------------------------------------------------------------------- */

/* PostgreSQL's default cost constants (cpu_operator_cost, cpu_tuple_cost). */
#define CPU_OPERATOR_COST 0.0025
#define CPU_TUPLE_COST 0.01
/* PostgreSQL's distinct values of a column without statistics. */
/* add_path's fuzz factor: costs closer than this are the same */
#define STD_FUZZ_FACTOR 1.01

/* Can every clause's type be hashed / compared? */
static bool
clauses_can_hash(List *clauses)
{
    for (int i = 0; i < list_length(clauses); i++) {
        SortGroupClause *sgc = list_nth(clauses, i);

        if (sgc->support == NULL || sgc->support->hash == NULL ||
            sgc->eqop == NULL)
            return false;
    }
    return true;
}

static bool
clauses_can_sort(List *clauses)
{
    for (int i = 0; i < list_length(clauses); i++) {
        SortGroupClause *sgc = list_nth(clauses, i);

        if (sgc->support == NULL || sgc->support->cmp == NULL)
            return false;
    }
    return true;
}

/*
 * The rows of generate_series(start, stop [, step]) over int4/int8
 * constants (PostgreSQL 15's support function knows them); false for
 * anything else.
 */
static bool
generate_series_rows(Expr *e, double *rows)
{
    FuncExpr *f;
    double arg[3] = {0, 0, 1};

    if (e == NULL || !IsA(e, FuncExpr))
        return false;
    f = (FuncExpr *)e;
    if (strcmp(f->func->name, "generate_series") != 0 ||
        list_length(f->args) < 2 || list_length(f->args) > 3)
        return false;
    for (int i = 0; i < list_length(f->args); i++) {
        Const *c = list_nth(f->args, i);

        if (!IsA(c, Const) || c->constisnull)
            return false;
        if (exprType(c) == INT4OID)
            arg[i] = DatumGetInt32(c->constvalue);
        else if (exprType(c) == INT8OID)
            arg[i] = (double)DatumGetInt64(c->constvalue);
        else
            return false;
    }
    if (arg[2] == 0)
        return false;
    *rows = floor((arg[1] - arg[0]) / arg[2]) + 1;
    if (*rows < 0)
        *rows = 0;
    return true;
}

/*
 * The rows of input's columns' relation: input's rows before its own
 * conditions if it is a scan, else its rows.
 */
static double
relation_rows(PlannerInfo *root, Plan *input)
{
    double rows = Max(1.0, input->plan_rows), pages;

    if (input->qual == NIL)
        return rows;
    switch (nodeTag(input)) {
    case T_SeqScan:
        return table_rows(root, ((SeqScan *)input)->relid, &pages);
    case T_ValuesScan:
        return list_length(((ValuesScan *)input)->values_lists);
    case T_FunctionScan:
        if (!generate_series_rows(((FunctionScan *)input)->funcexpr, &rows))
            rows = 1000;
        return rows;
    case T_SubqueryScan:
        return ((SubqueryScan *)input)->subplan->plan_rows;
    default:
        return rows;
    }
}

/*
 * Estimated groups of exprs over input's rows: PostgreSQL's
 * estimate_num_groups without statistics, taking input's rows before its
 * own conditions (a scan's) as the rows of the columns' relation.  An
 * expression without columns (a constant, an aggregate of the rows below)
 * does not split groups; a column has DEFAULT_NUM_DISTINCT values, or the
 * relation's rows if fewer; several have at most a tenth of the rows (but
 * no fewer than one alone); conditions keep the share of the groups that
 * selecting that many rows at random would hit; never more groups than
 * rows.
 */
static double
estimate_groups(PlannerInfo *root, List *exprs, Plan *input)
{
    double rows = Max(1.0, input->plan_rows);
    double tuples = Max(rows, relation_rows(root, input));
    double per_column, groups = 1;
    int ncols = 0;

    for (int i = 0; i < list_length(exprs); i++)
        if (contains_node(list_nth(exprs, i), T_Var) ||
            tdb_contains_volatile(list_nth(exprs, i)))
            ncols++;
    if (ncols == 0)
        return 1;
    per_column = Min(tuples, DEFAULT_NUM_DISTINCT);
    for (int i = 0; i < ncols; i++)
        groups *= per_column;
    if (ncols > 1)
        groups = Min(groups, Min(tuples, Max(tuples * 0.1, per_column)));
    if (rows < tuples)
        groups *= 1 - pow((tuples - rows) / tuples, tuples / groups);
    return Max(1.0, rint(Min(groups, rows)));
}

static bool
all_consts(List *exprs)
{
    for (int i = 0; i < list_length(exprs); i++)
        if (!IsA(list_nth(exprs, i), Const))
            return false;
    return true;
}

/* PostgreSQL's guess at a value's width without statistics. */
static int
tlist_width(List *tlist)
{
    int width = 0;

    for (int i = 0; i < list_length(tlist); i++) {
        Expr *e = ((TargetEntry *)list_nth(tlist, i))->expr;

        width += type_avg_width(exprType(e), exprTypmod(e));
    }
    return width;
}

/* PostgreSQL's cost_sort for rows fitting in work_mem: the comparisons
 * (before the first row) and the whole. */
static double
sort_startup_cost(double rows)
{
    rows = Max(rows, 2.0);
    return 2.0 * CPU_OPERATOR_COST * rows * log2(rows);
}

static double
sort_cost(double rows)
{
    return sort_startup_cost(rows) + CPU_OPERATOR_COST * Max(rows, 2.0);
}

/*
 * Whether grouping input on clauses into ngroups groups is decided before
 * costs: 1 hash, -1 sort, 0 by the costs.
 */
static int
hashing_forced(PlannerInfo *root, List *clauses, Plan *input, double ngroups)
{
    Settings *settings = &root->glob->st->session->settings;
    double entry = MAXALIGN(tlist_width(input->targetlist)) + 16.0;

    if (!clauses_can_hash(clauses))
        return -1;
    if (!clauses_can_sort(clauses))
        return 1;
    if (!settings->enable_hashagg)
        return -1;
    if (entry * ngroups >
        settings->work_mem * 1024.0 * settings->hash_mem_multiplier)
        return -1;
    if (!settings->enable_sort)
        return 1;
    return 0;
}

/* Group a set operation's input by hashing (true) or sorting? */
static bool
choose_hashing_setop(PlannerInfo *root, List *clauses, Plan *input,
                     double ngroups)
{
    int forced = hashing_forced(root, clauses, input, ngroups);

    if (forced != 0)
        return forced > 0;
    return CPU_TUPLE_COST * ngroups < sort_cost(input->plan_rows);
}

/* A path's costs, as PostgreSQL's planner compares them. */
typedef struct PathCost {
    double startup;
    double total;
} PathCost;

typedef enum CostCompare {
    COSTS_EQUAL,     /* fuzzily the same */
    COSTS_BETTER1,   /* the first dominates */
    COSTS_BETTER2,   /* the second dominates */
    COSTS_DIFFERENT, /* one is cheaper to start, the other to finish */
} CostCompare;

/* PostgreSQL's compare_path_costs_fuzzily; consider_startup: a LIMIT
 * makes the startup cost matter too. */
static CostCompare
compare_costs_fuzzily(PathCost a, PathCost b, bool consider_startup)
{
    if (a.total > b.total * STD_FUZZ_FACTOR)
        return consider_startup && b.startup > a.startup * STD_FUZZ_FACTOR
                   ? COSTS_DIFFERENT
                   : COSTS_BETTER2;
    if (b.total > a.total * STD_FUZZ_FACTOR)
        return consider_startup && a.startup > b.startup * STD_FUZZ_FACTOR
                   ? COSTS_DIFFERENT
                   : COSTS_BETTER1;
    if (a.startup > b.startup * STD_FUZZ_FACTOR)
        return COSTS_BETTER2;
    if (b.startup > a.startup * STD_FUZZ_FACTOR)
        return COSTS_BETTER1;
    return COSTS_EQUAL;
}

/* A Sort over a path of rows (bounded to limit rows if limit > 0, as a
 * top-N heap sort is when the rows are more than twice that). */
static PathCost
add_sort_cost(PathCost in, double rows, double limit)
{
    PathCost sorted;

    rows = Max(rows, 2.0);
    if (limit > 0 && rows > 2 * limit)
        sorted.startup =
            in.total + 2.0 * CPU_OPERATOR_COST * rows * log2(2.0 * limit);
    else
        sorted.startup = in.total + sort_startup_cost(rows);
    sorted.total = sorted.startup + CPU_OPERATOR_COST * rows;
    return sorted;
}

/* What a path costs when only limit of its rows are read (a Limit node). */
static double
limited_cost(PathCost c, double rows, double limit)
{
    if (limit <= 0 || limit >= rows)
        return c.total;
    return c.startup + (c.total - c.startup) * limit / rows;
}

/*
 * DISTINCT by hashing (true) or sorting, as PostgreSQL's add_path and
 * final path choice decide between its two paths.  sorted_after: ORDER BY
 * follows, which the sorted path already satisfies; limit: the rows a
 * LIMIT reads (offset + count), or -1.
 */
static bool
choose_hashing_distinct(PlannerInfo *root, List *clauses, Plan *input,
                        double ngroups, bool sorted_after, double limit)
{
    int forced = hashing_forced(root, clauses, input, ngroups);
    double rows = input->plan_rows;
    double compare = CPU_OPERATOR_COST * list_length(clauses) * rows;
    PathCost in = {input->startup_cost, input->total_cost};
    PathCost hashed = {in.total + compare,
                       in.total + compare + CPU_TUPLE_COST * ngroups};
    PathCost sorted = add_sort_cost(in, rows, -1);
    CostCompare cmp;

    if (forced != 0)
        return forced > 0;
    sorted.total += compare; /* Unique */
    /* distinct paths: the hashed one survives only if not dominated by the
     * sorted one, whose order is better */
    cmp = compare_costs_fuzzily(hashed, sorted, limit > 0);
    if (cmp == COSTS_EQUAL || cmp == COSTS_BETTER2)
        return false;
    if (sorted_after) {
        /* ordered paths: the hashed one gets a Sort */
        hashed = add_sort_cost(hashed, ngroups, limit);
        cmp = compare_costs_fuzzily(hashed, sorted, limit > 0);
        if (cmp == COSTS_BETTER1)
            return true;
        if (cmp == COSTS_BETTER2)
            return false;
    }
    /* the cheapest for the rows read */
    return limited_cost(hashed, ngroups, limit) <
           limited_cost(sorted, ngroups, limit);
}

/*
 * A HashAggregate without aggregates: one row per group of input on the
 * columns of clauses (DISTINCT, UNION), its first row.
 */
static Plan *
make_hashed_unique(Plan *input, List *clauses, List *tlist, double ngroups)
{
    Agg *agg = MAKE_PLAN(Agg);
    int n = list_length(clauses);

    agg->plan.lefttree = input;
    agg->plan.targetlist = passthrough_tlist(input);
    agg->strategy = AGG_HASHED;
    agg->num_cols = n;
    agg->grp_col_idx = tdb_palloc(sizeof(int) * (Size)Max(1, n));
    agg->grp_eq = tdb_palloc(sizeof(OperDesc *) * (Size)Max(1, n));
    for (int i = 0; i < n; i++) {
        SortGroupClause *sgc = list_nth(clauses, i);

        agg->grp_col_idx[i] = tle_for_ref(tlist, sgc->tle_ref)->resno;
        agg->grp_eq[i] = sgc->eqop;
    }
    agg->num_groups = ngroups;
    copy_estimates(&agg->plan, input);
    agg->plan.plan_rows = ngroups;
    agg->plan.startup_cost =
        input->total_cost + CPU_OPERATOR_COST * n * input->plan_rows;
    agg->plan.total_cost = agg->plan.startup_cost + CPU_TUPLE_COST * ngroups;
    return &agg->plan;
}

/* The rows a constant LIMIT (and OFFSET) reads, or -1. */
static double
limit_rows(Query *q)
{
    Const *count = (Const *)q->limit_count;
    Const *offset = (Const *)q->limit_offset;
    double rows;

    if (count == NULL || !IsA(count, Const) || count->constisnull)
        return -1;
    rows = (double)DatumGetInt64(count->constvalue);
    if (offset != NULL) {
        if (!IsA(offset, Const))
            return -1;
        if (!offset->constisnull)
            rows += (double)DatumGetInt64(offset->constvalue);
    }
    return rows > 0 ? rows : -1;
}

/*
 * SELECT DISTINCT (not DISTINCT ON) over plan, whose target list is the
 * query's: a HashAggregate on the DISTINCT columns (then a Sort for ORDER
 * BY), or a Sort on them (ORDER BY's keys first) and a Unique.
 */
static Plan *
plan_distinct(PlannerInfo *root, Plan *plan)
{
    Query *q = root->q;
    List *exprs = NIL;
    double ngroups;

    for (int i = 0; i < list_length(q->distinct_clause); i++) {
        SortGroupClause *sgc = list_nth(q->distinct_clause, i);

        exprs =
            tdb_lappend(exprs, tle_for_ref(q->target_list, sgc->tle_ref)->expr);
    }
    ngroups = estimate_groups(root, exprs, plan);
    if (all_consts(exprs)) {
        /* constant keys: every row is in one group, and in order */
        plan = make_unique(plan, q->distinct_clause, q->target_list);
        plan->plan_rows = 1;
        return plan;
    }
    if (choose_hashing_distinct(root, q->distinct_clause, plan, ngroups,
                                q->sort_clause != NIL, limit_rows(q))) {
        plan = make_hashed_unique(plan, q->distinct_clause, q->target_list,
                                  ngroups);
        if (q->sort_clause != NIL)
            plan = make_sort(plan, q->sort_clause, q->target_list);
        return plan;
    }
    plan = make_sort(plan, q->distinct_clause, q->target_list);
    plan = make_unique(plan, q->distinct_clause, q->target_list);
    plan->plan_rows = ngroups;
    return plan;
}

/* ----------------------------------------------------------------------
 * Set operations
 *
 * The plan shapes of PostgreSQL 15's prepunion.c:
 *
 *   - UNION [ALL]: an Append of the inputs, then for UNION a
 *     HashAggregate on every column (or Sort + Unique).  Inputs that are
 *     themselves UNIONs of the same column types, ALL or like this one,
 *     are merged into the one Append.
 *   - INTERSECT / EXCEPT [ALL]: an Append of the two inputs, each row
 *     tagged with a flag column (0 left, 1 right), then a HashSetOp (or
 *     Sort + SetOp).  For INTERSECT the input with fewer estimated groups
 *     comes first, so the hash table holds the smaller one.
 *   - a leaf SELECT is a subquery scan named "*SELECT* n" over its plan,
 *     dropped when it would only pass the plan's columns through (no
 *     flag to add);
 *   - an inner set operation that must add a flag, or drop the flag its
 *     own SetOp carries (under a UNION), is projected: by its own node if
 *     that is an Agg, else by a Result on top.
 *
 * Every node here is built with its references already set (OUTER_VAR
 * into its child, SCAN_VAR in a subquery scan), and each leaf plan was
 * finished by its own plan_query: fix_plan never runs over the result.
 * ---------------------------------------------------------------------- */

static Plan *plan_setop_tree(PlannerInfo *root, Node *node, bool junk_ok,
                             int flag, double *ngroups);

/* tlist entry i (1-based) of plan as a Var of varno. */
static Var *
column_var(Plan *plan, int varno, int i)
{
    TargetEntry *te = list_nth(plan->targetlist, i - 1);

    return tdb_make_var(varno, i, exprType(te->expr), exprTypmod(te->expr), 0);
}

static TargetEntry *
flag_entry(int flag, int resno)
{
    return tdb_make_target_entry(
        (Expr *)tdb_make_const(INT4OID, -1, Int32GetDatum(flag), false), resno,
        "flag", false);
}

/*
 * A leaf SELECT: its plan, under a subquery scan that keeps its visible
 * columns and adds the flag (flag >= 0).  The scan is left out when it
 * would be trivial: every column passed through in place (a constant
 * copied as is, as PostgreSQL does), none dropped or added.  *ngroups
 * (if not NULL): the leaf's estimated groups.
 */
static Plan *
plan_setop_leaf(PlannerInfo *root, RangeTblRef *ref, int flag, double *ngroups)
{
    RangeTblEntry *rte = rt_fetch(root->q, ref->rtindex);
    Query *leaf = rte->subquery;
    Plan *child = plan_subquery(root, leaf);
    SubqueryScan *scan;
    List *tlist = NIL, *exprs = NIL;
    bool trivial = flag < 0;

    for (int i = 0; i < list_length(child->targetlist); i++) {
        TargetEntry *te = list_nth(child->targetlist, i);
        Expr *e;

        if (te->resjunk) {
            trivial = false;
            continue;
        }
        if (IsA(te->expr, Const))
            e = te->expr;
        else {
            e = (Expr *)column_var(child, SCAN_VAR, i + 1);
            if (i != list_length(tlist))
                trivial = false;
        }
        exprs = tdb_lappend(exprs, te->expr);
        tlist =
            tdb_lappend(tlist, tdb_make_target_entry(e, list_length(tlist) + 1,
                                                     te->resname, false));
    }
    if (ngroups != NULL)
        *ngroups = leaf->group_clause != NIL || leaf->distinct_clause != NIL ||
                           leaf->has_aggs || leaf->having != NULL
                       ? Max(1.0, child->plan_rows)
                       : estimate_groups(root, exprs, child);
    if (trivial)
        return child;
    if (flag >= 0)
        tlist = tdb_lappend(tlist, flag_entry(flag, list_length(tlist) + 1));
    scan = MAKE_PLAN(SubqueryScan);
    scan->subplan = child;
    scan->alias = rte->refname;
    scan->plan.scan_refname = rte->refname;
    scan->plan.scan_colnames = rte->colnames;
    scan->plan.targetlist = tlist;
    copy_estimates(&scan->plan, child);
    return &scan->plan;
}

/* The SortGroupClauses of the first ncols columns of input (all data
 * columns of a set operation); numbers those columns for tle_for_ref. */
static List *
all_columns_clauses(Plan *input, int ncols)
{
    List *clauses = NIL;

    for (int i = 0; i < ncols; i++) {
        TargetEntry *te = list_nth(input->targetlist, i);
        SortGroupClause *sgc = makeNode(SortGroupClause);
        Oid type = exprType(te->expr);

        te->ressortgroupref = i + 1;
        sgc->tle_ref = i + 1;
        sgc->support = tdb_type_support(type);
        sgc->eqop = tdb_oper_lookup("=", type, type);
        if (sgc->eqop == NULL)
            sgc->eqop = tdb_oper_lookup("=", TEXTOID, TEXTOID);
        /* neither hashing nor sorting can group it (tupledb's arrays) */
        if (sgc->support == NULL || sgc->eqop == NULL ||
            (sgc->support->hash == NULL && sgc->support->cmp == NULL))
            ereport(ERROR, errcode(ERRCODE_UNDEFINED_FUNCTION),
                    errmsg("could not identify an equality operator for "
                           "type %s",
                           tdb_format_type(type, -1)));
        clauses = tdb_lappend(clauses, sgc);
    }
    return clauses;
}

static Plan *
make_append(List *children)
{
    Append *append = MAKE_PLAN(Append);
    Plan *first = linitial(children);

    append->appendplans = children;
    append->plan.targetlist = passthrough_tlist(first);
    copy_estimates(&append->plan, first);
    append->plan.plan_rows = 0;
    append->plan.total_cost = 0;
    for (int i = 0; i < list_length(children); i++) {
        Plan *child = list_nth(children, i);

        append->plan.plan_rows += child->plan_rows;
        append->plan.total_cost += child->total_cost;
    }
    return &append->plan;
}

/* Can UNION child `child` merge into parent's Append? */
static bool
union_merges(SetOperationStmt *parent, Node *child)
{
    SetOperationStmt *c = (SetOperationStmt *)child;

    if (!IsA(child, SetOperationStmt) || c->op != SETOP_UNION ||
        (c->all != parent->all && !c->all) ||
        list_length(c->coltypes) != list_length(parent->coltypes))
        return false;
    for (int i = 0; i < list_length(c->coltypes); i++)
        if (list_nth_int(c->coltypes, i) != list_nth_int(parent->coltypes, i))
            return false;
    return true;
}

/* The plans of top's UNION inputs, merged UNIONs' inputs in their place. */
static List *
plan_union_inputs(PlannerInfo *root, SetOperationStmt *top, Node *node,
                  List *plans)
{
    if (node != (Node *)top && !union_merges(top, node))
        return tdb_lappend(plans, plan_setop_tree(root, node, false, -1, NULL));
    plans =
        plan_union_inputs(root, top, ((SetOperationStmt *)node)->larg, plans);
    return plan_union_inputs(root, top, ((SetOperationStmt *)node)->rarg,
                             plans);
}

static Plan *
plan_union(PlannerInfo *root, SetOperationStmt *op)
{
    Plan *plan = make_append(plan_union_inputs(root, op, (Node *)op, NIL));
    int ncols = list_length(op->coltypes);
    List *clauses;

    if (op->all)
        return plan;
    /* PostgreSQL assumes the inputs' rows are all distinct */
    clauses = all_columns_clauses(plan, ncols);
    if (choose_hashing_setop(root, clauses, plan, plan->plan_rows))
        return make_hashed_unique(plan, clauses, plan->targetlist,
                                  plan->plan_rows);
    plan = make_sort(plan, clauses, plan->targetlist);
    return make_unique(plan, clauses, plan->targetlist);
}

static Plan *
plan_intersect_except(PlannerInfo *root, SetOperationStmt *op, double *ngroups)
{
    int ncols = list_length(op->coltypes);
    double left_groups, right_groups, groups, rows;
    Plan *left = plan_setop_tree(root, op->larg, false, 0, &left_groups);
    Plan *right = plan_setop_tree(root, op->rarg, false, 1, &right_groups);
    bool swap = op->op == SETOP_INTERSECT && left_groups > right_groups;
    Plan *input = swap ? make_append(tdb_list_make2(right, left))
                       : make_append(tdb_list_make2(left, right));
    List *clauses = all_columns_clauses(input, ncols);
    SetOp *so = MAKE_PLAN(SetOp);

    if (op->op == SETOP_EXCEPT) {
        groups = left_groups;
        rows = op->all ? left->plan_rows : groups;
    } else {
        groups = Min(left_groups, right_groups);
        rows = op->all ? Min(left->plan_rows, right->plan_rows) : groups;
    }
    so->cmd = op->op == SETOP_INTERSECT
                  ? (op->all ? SETOPCMD_INTERSECT_ALL : SETOPCMD_INTERSECT)
                  : (op->all ? SETOPCMD_EXCEPT_ALL : SETOPCMD_EXCEPT);
    if (choose_hashing_setop(root, clauses, input, groups)) {
        so->strategy = SETOP_HASHED;
        so->first_flag = swap ? 1 : 0;
    } else {
        so->strategy = SETOP_SORTED;
        input = make_sort(input, clauses, input->targetlist);
    }
    so->plan.lefttree = input;
    so->num_cols = ncols;
    so->col_idx = tdb_palloc(sizeof(int) * (Size)ncols);
    so->eq_ops = tdb_palloc(sizeof(OperDesc *) * (Size)ncols);
    for (int i = 0; i < ncols; i++) {
        so->col_idx[i] = i + 1;
        so->eq_ops[i] = ((SortGroupClause *)list_nth(clauses, i))->eqop;
    }
    so->flag_col = ncols + 1;
    so->num_groups = groups;
    /* the output: the data columns (the flag stays below) */
    for (int i = 0; i < ncols; i++) {
        TargetEntry *te = list_nth(input->targetlist, i);

        so->plan.targetlist = tdb_lappend(
            so->plan.targetlist,
            tdb_make_target_entry((Expr *)column_var(input, OUTER_VAR, i + 1),
                                  i + 1, te->resname, false));
    }
    copy_estimates(&so->plan, input);
    so->plan.plan_rows = Max(1.0, rows);
    so->plan.total_cost += CPU_OPERATOR_COST * ncols * input->plan_rows;
    *ngroups = so->plan.plan_rows;
    return &so->plan;
}

/*
 * Plan a node of the set-operation tree.  flag >= 0: the result feeds an
 * INTERSECT/EXCEPT above and gets a flag column with that value.
 * junk_ok: the result may keep columns besides the data (only the top
 * level; a SetOp's output is then as it is).  *ngroups (if not NULL):
 * the result's estimated groups (INTERSECT/EXCEPT above).
 */
static Plan *
plan_setop_tree(PlannerInfo *root, Node *node, bool junk_ok, int flag,
                double *ngroups)
{
    SetOperationStmt *op = (SetOperationStmt *)node;
    Plan *plan;
    double groups;
    List *tlist = NIL;
    int ncols;

    if (IsA(node, RangeTblRef))
        return plan_setop_leaf(root, (RangeTblRef *)node, flag, ngroups);
    if (op->op == SETOP_UNION) {
        plan = plan_union(root, op);
        groups = plan->plan_rows;
    } else
        plan = plan_intersect_except(root, op, &groups);
    if (ngroups != NULL)
        *ngroups = groups;
    /* PostgreSQL's SetOp outputs the flag too, so its parent drops it */
    if (flag < 0 && (junk_ok || !IsA(plan, SetOp)))
        return plan;
    ncols = list_length(op->coltypes);
    for (int i = 0; i < ncols; i++)
        tlist = tdb_lappend(
            tlist,
            tdb_make_target_entry(
                IsA(plan, Agg)
                    ? ((TargetEntry *)list_nth(plan->targetlist, i))->expr
                    : (Expr *)column_var(plan, OUTER_VAR, i + 1),
                i + 1, ((TargetEntry *)list_nth(plan->targetlist, i))->resname,
                false));
    if (flag >= 0)
        tlist = tdb_lappend(tlist, flag_entry(flag, ncols + 1));
    if (!IsA(plan, Agg)) {
        /* the node cannot project: a Result does */
        Result *r = MAKE_PLAN(Result);

        r->plan.lefttree = plan;
        copy_estimates(&r->plan, plan);
        plan = &r->plan;
    }
    plan->targetlist = tlist;
    return plan;
}

/*
 * Is the output of a sorted UNION / INTERSECT / EXCEPT (a Unique or SetOp
 * over the Sort of its input, which keeps that order) already ordered by
 * clauses (over tlist), so that ORDER BY needs no Sort of its own?
 */
static bool
sorted_by(Plan *plan, List *clauses, List *tlist)
{
    Sort *sort;

    if (!IsA(plan, Unique) && !IsA(plan, SetOp))
        return false;
    if (!IsA(plan->lefttree, Sort))
        return false;
    sort = (Sort *)plan->lefttree;
    if (list_length(clauses) > sort->num_keys)
        return false;
    for (int i = 0; i < list_length(clauses); i++) {
        SortGroupClause *sgc = list_nth(clauses, i);

        if (tle_for_ref(tlist, sgc->tle_ref)->resno != sort->keys[i].col ||
            sgc->descending != sort->keys[i].descending ||
            sgc->nulls_first != sort->keys[i].nulls_first)
            return false;
    }
    return true;
}

static Plan *
plan_set_operation(PlannerInfo *root)
{
    Query *q = root->q;
    Plan *plan =
        plan_setop_tree(root, (Node *)q->set_operations, true, -1, NULL);
    List *tlist = NIL;

    /* name the columns as the query does; keep sort refs */
    for (int i = 0; i < list_length(q->target_list); i++) {
        TargetEntry *qte = list_nth(q->target_list, i);
        TargetEntry *te = list_nth(plan->targetlist, i);
        TargetEntry *copy = tdb_make_target_entry(te->expr, i + 1,
                                                  qte->resname, false);

        copy->ressortgroupref = qte->ressortgroupref;
        tlist = tdb_lappend(tlist, copy);
    }
    plan->targetlist = tlist;
    if (q->sort_clause != NIL && !sorted_by(plan, q->sort_clause, tlist))
        plan = make_sort(plan, q->sort_clause, tlist);
    if (q->limit_offset != NULL || q->limit_count != NULL)
        plan = make_limit(plan, q->limit_offset, q->limit_count);
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

    collect_vars((Node *)q->returning, &vars);
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
            child = plan_jointree(root, needed);
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
                collect_vars((Node *)e, &needed);
        }
        tlist = tdb_lappend(tlist, tdb_make_target_entry((Expr *)ctid,
                                                         natts + 1, "ctid",
                                                         true));
        needed = tdb_lappend(needed, ctid);
        tlist = add_returning_columns(q, tlist, &needed);
        child = plan_jointree(root, needed);
        child->targetlist = tlist;
        mt->ctid_col = natts + 1;
        mt->update_cols = tdb_palloc(sizeof(int) * (Size)Max(1, natts));
        for (int a = 0; a < natts; a++)
            mt->update_cols[a] = a + 1;
    }
    mt->plan.lefttree = child;
    mt->check_exprs = q->check_exprs;
    mt->check_names = q->check_names;
    mt->returning = q->returning;
    mt->plan.targetlist = q->returning;
    copy_estimates(&mt->plan, child);
    return &mt->plan;
}

/* ----------------------------------------------------------------------
 * Phase 4: set references
 * ---------------------------------------------------------------------- */

typedef struct FixContext {
    List *outer_tlist; /* NIL: none */
    List *inner_tlist;
    int scanrelid;     /* > 0: Vars of this rtindex are SCAN_VARs */
    bool keep_aggref_args; /* leave Aggref arguments alone */
    bool vars_to_nulls;    /* Vars become NULL constants */
} FixContext;

static Node *
fix_mutator(Node *node, void *arg)
{
    FixContext *ctx = arg;

    if (node == NULL)
        return NULL;
    if (IsA(node, TargetEntry) || IsA(node, List))
        return tdb_expr_mutate_children(node, fix_mutator, arg);
    /*
     * A Var already in executor terms (OUTER_VAR, INNER_VAR, SCAN_VAR)
     * names a column of this node's input slots.  It must not be matched
     * against the inputs' target lists below: once those are fixed too,
     * their entries are Vars of the inputs' own inputs, and an equal-
     * looking one (INNER_VAR 1 of a child join) is a different column.
     */
    if (IsA(node, Var) && ((Var *)node)->varno < 0)
        return node;
    /* a whole expression the input computed */
    if (!IsA(node, Const) && !IsA(node, Param)) {
        for (int i = 0; i < list_length(ctx->outer_tlist); i++) {
            TargetEntry *te = list_nth(ctx->outer_tlist, i);

            if (tdb_expr_equal((Node *)te->expr, node))
                return (Node *)tdb_make_var(OUTER_VAR, i + 1, exprType(node),
                                            exprTypmod(node), 0);
        }
        for (int i = 0; i < list_length(ctx->inner_tlist); i++) {
            TargetEntry *te = list_nth(ctx->inner_tlist, i);

            if (tdb_expr_equal((Node *)te->expr, node))
                return (Node *)tdb_make_var(INNER_VAR, i + 1, exprType(node),
                                            exprTypmod(node), 0);
        }
    }
    if (IsA(node, Var)) {
        Var *v = (Var *)node;

        if (ctx->vars_to_nulls)
            return (Node *)tdb_make_null_const(exprType(node),
                                               exprTypmod(node));
        if (ctx->scanrelid > 0 && v->varno == ctx->scanrelid) {
            Var *copy = (Var *)tdb_copy_node_shallow(node);

            copy->varno = SCAN_VAR;
            return (Node *)copy;
        }
        elog(ERROR, "variable %d.%d not found in the plan node's input",
             v->varno, v->varattno);
    }
    if (IsA(node, Aggref) && ctx->keep_aggref_args)
        return node;
    return tdb_expr_mutate_children(node, fix_mutator, arg);
}

static void *
fix_expr(void *expr, FixContext *ctx)
{
    return fix_mutator(expr, ctx);
}

static void fix_plan(Plan *plan);

static void
fix_scan(Plan *plan, int scanrelid)
{
    FixContext ctx = {NIL, NIL, scanrelid, false, false};

    plan->targetlist = fix_expr(plan->targetlist, &ctx);
    plan->qual = fix_expr(plan->qual, &ctx);
}

/* A child's target list before it is fixed: its parent matches its own
 * expressions against these (range-table terms). */
static List *
orig_tlist(Plan *child)
{
    if (child == NULL)
        return NIL;
    if (IsA(child, Hash))
        return child->lefttree->targetlist;
    return child->targetlist;
}

/*
 * A merge join input's target list before it is fixed: a Sort or
 * Materialize the planner put there passes its input's columns through,
 * so the join matches its expressions against that input's.
 */
static List *
merge_input_tlist(Plan *child)
{
    if (IsA(child, Sort) || IsA(child, Material))
        return orig_tlist(child->lefttree);
    return orig_tlist(child);
}

/* Set references in a merge join: its clauses read both inputs, each
 * side's keys only its own. */
static void
fix_mergejoin(MergeJoin *mj)
{
    Plan *plan = &mj->plan;
    List *outer = merge_input_tlist(plan->lefttree);
    List *inner = merge_input_tlist(plan->righttree);
    FixContext ctx = {outer, inner, 0, false, false};
    FixContext outer_only = {outer, NIL, 0, false, false};
    FixContext inner_only = {NIL, inner, 0, false, false};

    fix_plan(plan->lefttree);
    fix_plan(plan->righttree);
    plan->targetlist = fix_expr(plan->targetlist, &ctx);
    plan->qual = fix_expr(plan->qual, &ctx);
    mj->joinqual = fix_expr(mj->joinqual, &ctx);
    mj->mergeclauses = fix_expr(mj->mergeclauses, &ctx);
    mj->outer_keys = fix_expr(mj->outer_keys, &outer_only);
    mj->inner_keys = fix_expr(mj->inner_keys, &inner_only);
}

static void
fix_plan(Plan *plan)
{
    FixContext ctx = {NIL, NIL, 0, false, false};
    List *outer = orig_tlist(plan->lefttree);
    List *inner = orig_tlist(plan->righttree);

    switch (nodeTag(plan)) {
    case T_SeqScan:
        fix_scan(plan, ((SeqScan *)plan)->scanrelid);
        return;
    case T_ProjectSet:
    case T_Result:
        if (plan->lefttree != NULL)
            fix_plan(plan->lefttree);
        ctx.outer_tlist = outer;
        /* a Result without input reads no columns, except the dummy
         * one of an empty relation, whose Vars are never evaluated */
        ctx.vars_to_nulls = plan->lefttree == NULL;
        plan->targetlist = fix_expr(plan->targetlist, &ctx);
        plan->qual = fix_expr(plan->qual, &ctx);
        if (IsA(plan, Result))
            ((Result *)plan)->resconstantqual =
                fix_expr(((Result *)plan)->resconstantqual, &ctx);
        return;
    case T_NestLoop:
    case T_HashJoin:
        fix_plan(plan->lefttree);
        fix_plan(plan->righttree);
        ctx.outer_tlist = outer;
        ctx.inner_tlist = inner;
        plan->targetlist = fix_expr(plan->targetlist, &ctx);
        plan->qual = fix_expr(plan->qual, &ctx);
        if (IsA(plan, NestLoop))
            ((NestLoop *)plan)->joinqual =
                fix_expr(((NestLoop *)plan)->joinqual, &ctx);
        else {
            HashJoin *hj = (HashJoin *)plan;
            FixContext inner_only = {NIL, inner, 0, false, false};
            FixContext outer_only = {outer, NIL, 0, false, false};

            hj->joinqual = fix_expr(hj->joinqual, &ctx);
            hj->hashclauses = fix_expr(hj->hashclauses, &ctx);
            hj->outer_keys = fix_expr(hj->outer_keys, &outer_only);
            hj->inner_keys = fix_expr(hj->inner_keys, &inner_only);
        }
        return;
    case T_MergeJoin:
        fix_mergejoin((MergeJoin *)plan);
        return;
    case T_Hash:
        fix_plan(plan->lefttree);
        plan->targetlist = plan->lefttree->targetlist;
        return;
    case T_Agg: {
        Agg *agg = (Agg *)plan;
        /* a Sort between Agg and its input passes the input through */
        List *input = IsA(plan->lefttree, Sort)
                          ? orig_tlist(plan->lefttree->lefttree)
                          : outer;
        FixContext args_ctx = {input, NIL, 0, false, false};

        fix_plan(plan->lefttree);
        ctx.outer_tlist = input;
        ctx.keep_aggref_args = true;
        plan->targetlist = fix_expr(plan->targetlist, &ctx);
        plan->qual = fix_expr(plan->qual, &ctx);
        for (int i = 0; i < list_length(agg->aggs); i++) {
            Aggref *a = list_nth(agg->aggs, i);

            a->args = fix_expr(a->args, &args_ctx);
            a->filter = fix_expr(a->filter, &args_ctx);
            a->order_exprs = fix_expr(a->order_exprs, &args_ctx);
        }
        return;
    }
    case T_RecursiveUnion:
        /* the terms were planned (and fixed) as queries of their own */
        return;
    case T_Sort:
    case T_Material:
    case T_Unique:
    case T_Limit:
    case T_SetOp:
        fix_plan(plan->lefttree);
        if (IsA(plan, Limit)) {
            Limit *l = (Limit *)plan;

            l->limit_offset = fix_expr(l->limit_offset, &ctx);
            l->limit_count = fix_expr(l->limit_count, &ctx);
        }
        return;
    case T_Append:
        /* built with its references set, over leaves plan_query finished
         * (see "Set operations"): fixing them again could repoint them */
        return;
    case T_SubqueryScan:
        /*
         * The subplan is not fixed here: plan_query built it and has set
         * its references already (every SubqueryScan's subplan comes from
         * plan_query).  A second pass is not a no-op: it would match the
         * fixed Vars of a join's target list against its inputs' fixed
         * target lists and could repoint a column at another input's.
         */
    case T_FunctionScan:
    case T_WorkTableScan:
    case T_ValuesScan: {
        /* scan tuple = the RTE's columns: the Vars here all belong to
         * this scan's rtindex */
        FixContext sctx = {NIL, NIL, 0, false, false};
        List *relids = NIL;

        collect_relids((Node *)plan->targetlist, &relids);
        collect_relids((Node *)plan->qual, &relids);
        if (list_length(relids) > 1)
            elog(ERROR, "scan node reads several relations");
        sctx.scanrelid = relids != NIL ? list_nth_int(relids, 0) : 0;
        plan->targetlist = fix_expr(plan->targetlist, &sctx);
        plan->qual = fix_expr(plan->qual, &sctx);
        return;
    }
    default:
        elog(ERROR, "set references: unexpected plan node %d",
             (int)nodeTag(plan));
    }
}

/* RETURNING's Vars name the target rtindex: make them SCAN_VARs. */
static void
fix_returning(ModifyTable *mt, int result_relation)
{
    FixContext ctx = {NIL, NIL, result_relation, false, false};
    List *child_tlist = mt->plan.lefttree->targetlist;

    /*
     * RETURNING reads the target's columns from the new (or deleted)
     * row and other tables' columns from the child's junk columns, and
     * only those: the child's other entries (new values computed from
     * old ones) must not be matched, so they are replaced by constants,
     * which are never matched.
     */
    if (mt->operation != CMD_INSERT)
        for (int i = 0; i < list_length(child_tlist); i++) {
            TargetEntry *te = list_nth(child_tlist, i);
            bool other_table = IsA(te->expr, Var) &&
                               ((Var *)te->expr)->varno != result_relation;

            ctx.outer_tlist = tdb_lappend(
                ctx.outer_tlist,
                other_table ? te
                            : tdb_make_target_entry(
                                  (Expr *)tdb_make_null_const(INT4OID, -1),
                                  i + 1, NULL, true));
        }

    mt->returning = fix_expr(mt->returning, &ctx);
    mt->check_exprs = fix_expr(mt->check_exprs, &ctx);
    mt->plan.targetlist = mt->returning;
}

/* ----------------------------------------------------------------------
 * Entry points
 * ---------------------------------------------------------------------- */

/* A sub-query planned with the same globals (its own level). */
static Plan *
plan_subquery(PlannerInfo *root, Query *q)
{
    PlannerInfo *sub = tdb_palloc0(sizeof(PlannerInfo));

    sub->glob = root->glob;
    sub->q = q;
    return plan_query(sub);
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
    ru->plan.lefttree = plan_subquery(root, q->rec_nonrecursive);
    root->glob->wt_param = ru->wt_param;
    ru->plan.righttree = plan_subquery(root, q->rec_recursive);
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
    ru->plan.targetlist = passthrough_tlist(ru->plan.lefttree);
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

static bool
contains_node(Node *node, NodeTag tag)
{
    return contains_tag(node, &tag);
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
        contains_node(linitial(rte->values_lists), T_SubLink))
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

static Plan *
plan_query(PlannerInfo *root)
{
    Query *q = root->q;
    Plan *plan;

    if (q->rec_nonrecursive != NULL)
        return plan_recursive_union(root);
    tdb_pull_up_sublinks(q);
    pull_up_values_row(q);
    preprocess_query(root);
    move_having_to_where(q);
    tdb_reduce_outer_joins(q);
    if (q->command != CMD_SELECT) {
        ModifyTable *mt = (ModifyTable *)plan_modify(root);

        fix_returning(mt, q->result_relation);
        mt->plan.targetlist = NIL;
        fix_plan(mt->plan.lefttree);
        mt->plan.targetlist = mt->returning;
        plan = &mt->plan;
    } else if (q->set_operations != NULL) {
        /* built with its references set (see "Set operations") */
        plan = plan_set_operation(root);
    } else {
        plan = plan_select(root);
        fix_plan(plan);
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
    stmt->plan = plan_query(root);
    stmt->command = q->command;
    stmt->subplans = glob->subplans;
    stmt->nparams = glob->nparams;
    stmt->has_returning = q->returning != NIL;
    return stmt;
}
