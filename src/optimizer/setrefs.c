/*
 * setrefs.c -- phase 4 of planning a query level, set references
 * (PostgreSQL's setrefs.c): expressions, written over range-table Vars
 * until now, are rewritten to read their node's input slots (SCAN_VAR,
 * OUTER_VAR, INNER_VAR): a whole subexpression that a child already
 * computed (a GROUP BY key, an aggregate's input) is read from the
 * child's output instead of recomputed.
 *
 * A node's expressions are matched against its children's target lists
 * as the planner built them, still in range-table terms:
 * tdb_plan_fix_plan takes them (orig_tlist) before it fixes the
 * children, bottom-up.  A node that passes its input through (Hash, and
 * the Sort or Materialize under an Agg or a merge join) is looked
 * through.  A Var already in executor terms is never matched again, and
 * plans that were built with their references set (set operations, a
 * SubqueryScan's subplan, the terms of a RecursiveUnion) are not
 * visited: a second pass is not a no-op.
 *
 * Entry points (planner_int.h): tdb_plan_fix_plan, a plan tree;
 * tdb_plan_fix_returning, a ModifyTable's RETURNING and CHECK
 * expressions.
 */
#include "common/base.h"

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "common/stack_depth.h"
#include "optimizer/planner_int.h"

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

    tdb_plan_fix_plan(plan->lefttree);
    tdb_plan_fix_plan(plan->righttree);
    plan->targetlist = fix_expr(plan->targetlist, &ctx);
    plan->qual = fix_expr(plan->qual, &ctx);
    mj->joinqual = fix_expr(mj->joinqual, &ctx);
    mj->mergeclauses = fix_expr(mj->mergeclauses, &ctx);
    mj->outer_keys = fix_expr(mj->outer_keys, &outer_only);
    mj->inner_keys = fix_expr(mj->inner_keys, &inner_only);
}

void
tdb_plan_fix_plan(Plan *plan)
{
    FixContext ctx = {NIL, NIL, 0, false, false};
    List *outer = orig_tlist(plan->lefttree);
    List *inner = orig_tlist(plan->righttree);

    tdb_check_stack_depth();

    switch (nodeTag(plan)) {
    case T_SeqScan:
        fix_scan(plan, ((SeqScan *)plan)->scanrelid);
        return;
    case T_IndexScan: {
        IndexScan *is = (IndexScan *)plan;

        fix_scan(plan, is->scanrelid);
        ctx.scanrelid = is->scanrelid;
        is->indexqualorig = fix_expr(is->indexqualorig, &ctx);
        for (int i = 0; i < is->nkeys; i++) {
            is->keys[i].arg = fix_expr(is->keys[i].arg, &ctx);
            is->keys[i].items = fix_expr(is->keys[i].items, &ctx);
            is->keys[i].array = fix_expr(is->keys[i].array, &ctx);
        }
        return;
    }
    case T_ProjectSet:
    case T_Result:
        if (plan->lefttree != NULL)
            tdb_plan_fix_plan(plan->lefttree);
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
        tdb_plan_fix_plan(plan->lefttree);
        tdb_plan_fix_plan(plan->righttree);
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
        tdb_plan_fix_plan(plan->lefttree);
        plan->targetlist = plan->lefttree->targetlist;
        return;
    case T_Agg: {
        Agg *agg = (Agg *)plan;
        /* a Sort between Agg and its input passes the input through */
        List *input = IsA(plan->lefttree, Sort)
                          ? orig_tlist(plan->lefttree->lefttree)
                          : outer;
        FixContext args_ctx = {input, NIL, 0, false, false};

        tdb_plan_fix_plan(plan->lefttree);
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
        tdb_plan_fix_plan(plan->lefttree);
        if (IsA(plan, Limit)) {
            Limit *l = (Limit *)plan;

            l->limit_offset = fix_expr(l->limit_offset, &ctx);
            l->limit_count = fix_expr(l->limit_count, &ctx);
        }
        return;
    case T_Append:
        /* built with its references set, over leaves
         * tdb_plan_query_level finished (setops.c, "Set operations"):
         * fixing them again could repoint them */
        return;
    case T_SubqueryScan:
        /*
         * The subplan is not fixed here: tdb_plan_query_level built it
         * and has set its references already (every SubqueryScan's
         * subplan comes from tdb_plan_query_level).  A second pass is not
         * a no-op: it would match the fixed Vars of a join's target list
         * against its inputs' fixed target lists and could repoint a
         * column at another input's.
         */
    case T_FunctionScan:
    case T_WorkTableScan:
    case T_CteScan:
    case T_ValuesScan: {
        /* scan tuple = the RTE's columns: the Vars here all belong to
         * this scan's rtindex */
        FixContext sctx = {NIL, NIL, 0, false, false};
        List *relids = NIL;

        tdb_plan_collect_relids((Node *)plan->targetlist, &relids);
        tdb_plan_collect_relids((Node *)plan->qual, &relids);
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
void
tdb_plan_fix_returning(ModifyTable *mt, int result_relation)
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
    mt->index_exprs = fix_expr(mt->index_exprs, &ctx);
    mt->plan.targetlist = mt->returning;
}

void
tdb_plan_fix_on_conflict(ModifyTable *mt, int result_relation,
                         int excluded_relation, const RangeTblEntry *target)
{
    /* EXCLUDED's columns are the proposed row's: INNER_VAR */
    FixContext ctx = {NIL, NIL, result_relation, false, false};

    for (int a = 1; a <= list_length(target->colnames); a++)
        ctx.inner_tlist =
            tdb_lappend(ctx.inner_tlist,
                        tdb_make_target_entry(
                            (Expr *)tdb_make_var(
                                excluded_relation, a,
                                (Oid)list_nth_int(target->coltypes, a - 1),
                                list_nth_int(target->coltypmods, a - 1), 0),
                            a, list_nth(target->colnames, a - 1), false));
    mt->conflict_set = fix_expr(mt->conflict_set, &ctx);
    mt->conflict_where = fix_expr(mt->conflict_where, &ctx);
}
