/*
 * subselect.c -- phase 1 of planning a query level (PostgreSQL's
 * subselect.c and preprocess_expression): every expression of the query
 * is constant-folded (clauses.c; a condition is also canonicalized),
 * then its sublinks and outer references are planned:
 *
 *   - a sublink becomes a SubPlan: its subquery is planned as a level of
 *     its own (tdb_plan_query_level, with this level as its parent) and
 *     added to the statement's subplans, which the SubPlan names by
 *     plan_id.  An uncorrelated scalar, ARRAY or EXISTS sublink is an
 *     initplan instead: run once, it sets a PARAM_EXEC Param that the
 *     expression reads in the sublink's place;
 *   - a reference to an outer query's column (varlevelsup > 0) becomes a
 *     PARAM_EXEC Param, one per column (a PlanParam of the level), which
 *     the enclosing SubPlan sets from its args before each run; a column
 *     of a level further out is an outer reference of the level above in
 *     turn.  An aggregate of an outer query (agglevelsup > 0: max(o.x)
 *     where o is the query outside) is such a value too: the level it
 *     belongs to computes it in its Agg, and the SubPlan passes it in;
 *   - an ANY / ALL sublink's comparison reads the subquery's columns
 *     through Params of their own (param_ids); an uncorrelated ANY
 *     subplan hashes the subquery's rows when PostgreSQL 15's rules allow
 *     it (subplan_can_hash), and other uncorrelated ANY / ALL subplans
 *     read their subquery through a Materialize.
 *
 * Entry point: tdb_plan_preprocess_query, run by tdb_plan_query_level
 * (planner.c) before the join tree is planned; it changes the Query in
 * place.
 */
#include "common/base.h"

#include <math.h>

#include "common/elog.h"
#include "common/stack_depth.h"
#include "executor/executor.h"
#include "optimizer/planner_int.h"
#include "tuple/heaptuple.h"

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

/* Mutator: every Var and Aggref of an outer value one level less up --
 * the value as the level above sees it. */
static Node *
one_level_up(Node *node, void *arg)
{
    if (node == NULL)
        return NULL;
    if (IsA(node, Var)) {
        Var *v = (Var *)tdb_copy_node_shallow(node);

        Assert(v->varlevelsup > 0);
        v->varlevelsup--;
        return (Node *)v;
    }
    if (IsA(node, SubLink)) /* its query's levels would need it too */
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("a subquery in the arguments of an outer-level "
                       "aggregate is not supported yet"));
    node = tdb_expr_mutate_children(node, one_level_up, arg);
    if (IsA(node, Aggref)) /* a fresh copy: the mutator made one */
        ((Aggref *)node)->agglevelsup--;
    return node;
}

/*
 * The Param for an outer value read by `root` (one per distinct value):
 * a column of an outer query (Var, varlevelsup > 0) or an aggregate of
 * one (Aggref, agglevelsup > 0).  The SubPlan one level up passes the
 * value in; a value from further out reaches that level as an outer
 * value of its own (one level less up), which the level above turns into
 * a Param in turn.
 */
static Param *
outer_param(PlannerInfo *root, Expr *value)
{
    Expr *above;
    PlanParam *pp;

    if (root->parent == NULL)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("this reference to an outer query's column is not "
                       "supported yet"));
    above = (Expr *)one_level_up((Node *)value, NULL);
    for (int i = 0; i < list_length(root->plan_params); i++) {
        pp = list_nth(root->plan_params, i);
        if (tdb_expr_equal((Node *)pp->item, (Node *)above))
            return make_param(pp->paramid, exprType(value),
                              exprTypmod(value));
    }
    pp = tdb_palloc(sizeof(PlanParam));
    pp->paramid = new_param(root->glob);
    pp->item = above;
    root->plan_params = tdb_lappend(root->plan_params, pp);
    return make_param(pp->paramid, exprType(value), exprTypmod(value));
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
    Settings *settings = root->glob->st->settings;
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
           IsA(plan, WorkTableScan) || IsA(plan, CteScan);
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
    m->plan.targetlist = tdb_plan_passthrough_tlist(plan);
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
    plan = tdb_plan_query_level(sub);
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
        /* a value of a level further out is a Param here too */
        sp->args =
            tdb_lappend(sp->args, preprocess_expr(root, pp->item));
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

    tdb_check_stack_depth();

    if (node == NULL)
        return NULL;
    if ((IsA(node, Var) && ((Var *)node)->varlevelsup > 0) ||
        (IsA(node, Aggref) && ((Aggref *)node)->agglevelsup > 0))
        return (Node *)outer_param(root, (Expr *)node);
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
    tdb_check_stack_depth();

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

void
tdb_plan_preprocess_query(PlannerInfo *root)
{
    Query *q = root->q;

    preprocess_tlist(root, q->target_list);
    preprocess_tlist(root, q->returning);
    preprocess_tlist(root, q->conflict_set);
    q->conflict_where = preprocess_qual(root, q->conflict_where);
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
 * WITH queries computed once
 * ---------------------------------------------------------------------- */

/*
 * The working tables the WITH query planned since the glob's lists were
 * nread and nowned long reads from outside itself: those its scans read
 * that no recursion inside it owns.
 */
static List *
outer_worktables(PlannerGlobal *glob, int nread, int nowned)
{
    List *outer = NIL;

    for (int r = nread; r < list_length(glob->wt_reads); r++) {
        int wt = list_nth_int(glob->wt_reads, r);
        bool owned = false;

        for (int o = nowned; o < list_length(glob->wt_owned); o++)
            owned = owned || list_nth_int(glob->wt_owned, o) == wt;
        if (!owned && !tdb_list_member_int(outer, wt))
            outer = tdb_lappend_int(outer, wt);
    }
    return outer;
}

/*
 * Each WITH query of the level that is computed once (the analyzer's
 * decision, parser/query.h) is planned as a query level of its own, in
 * WITH order, before anything of the level that could read it: a subplan
 * of the statement, then a PARAM_EXEC slot through which its CTE scans
 * share its rows, then an initplan of the level that only EXPLAIN lists
 * ("CTE name") -- PostgreSQL's order, so plan and Param numbers match
 * its EXPLAIN.
 */
void
tdb_plan_ctes(PlannerInfo *root)
{
    PlannerGlobal *glob = root->glob;

    for (int i = 0; i < list_length(root->q->cte_list); i++) {
        CommonTableExpr *cte = list_nth(root->q->cte_list, i);
        PlannedCte *pc = tdb_palloc0(sizeof(PlannedCte));
        SubPlan *sp = makeNode(SubPlan);
        int nread = list_length(glob->wt_reads);
        int nowned = list_length(glob->wt_owned);
        Plan *plan = tdb_plan_subquery(root, cte->ctequery);
        char *name = tdb_palloc(strlen(cte->ctename) + 5);

        pc->cte = cte;
        pc->wt_params = outer_worktables(glob, nread, nowned);
        glob->subplans = tdb_lappend(glob->subplans, plan);
        pc->plan_id = list_length(glob->subplans);
        pc->param = new_param(glob);
        glob->ctes = tdb_lappend(glob->ctes, pc);
        sp->xpr.type_oid = InvalidOid;
        sp->xpr.typmod = -1;
        sp->xpr.location = -1;
        sp->sublink_type = CTE_SUBLINK;
        sp->plan_id = pc->plan_id;
        sp->is_initplan = true;
        sp->set_param = tdb_lappend_int(NIL, pc->param);
        snprintf(name, strlen(cte->ctename) + 5, "CTE %s", cte->ctename);
        sp->plan_name = name;
        root->init_plans = tdb_lappend(root->init_plans, sp);
    }
}

PlannedCte *
tdb_plan_find_cte(PlannerGlobal *glob, CommonTableExpr *cte)
{
    for (int i = 0; i < list_length(glob->ctes); i++) {
        PlannedCte *pc = list_nth(glob->ctes, i);

        if (pc->cte == cte)
            return pc;
    }
    elog(ERROR, "WITH query \"%s\" was not planned", cte->ctename);
}
