/*
 * joinplan.c -- phase 2 of planning a query level: the plan of its FROM
 * clause with WHERE applied (the work of PostgreSQL's allpaths.c,
 * joinpath.c and createplan.c, by planner.h's rules rather than a cost
 * search).
 *
 * A JoinPlanner walks the join tree holding the conditions not placed
 * yet (pending); each planned part is a JoinPart, a plan with the base
 * relations below it and those of them an outer join may null.
 *
 *   - Scans: each base relation is scanned once, outputting the columns
 *     needed above it, with the pending conditions that read only it, in
 *     the order PostgreSQL gives them (make_scan, order_quals).
 *   - Join order: inner-joined items are joined greedily, smallest first
 *     and then the smallest connected by a condition (join_in_order);
 *     each join takes the pending conditions that become computable
 *     there, never below the nullable side of an outer join.  Outer
 *     joins keep their written order (plan_outer_join): ON conditions
 *     reading only the nullable side filter it below the join, pending
 *     conditions reading only the preserved side move below it too.
 *   - Join method: hash join, merge join or nested loop by planner.h's
 *     rules (choose_join_method); a merge join's inputs are sorted on
 *     its keys (merge_input) and its outer side is chosen as
 *     PostgreSQL's costs would (merge_swaps_sides).
 *   - Pseudoconstant conditions (reading no column of the query) are
 *     tested once by a gating Result; a constant false one makes the
 *     whole plan, or an outer join's never-matching side, an empty
 *     Result producing the needed columns.
 *
 * Row estimates and the selectivities of conditions are costsize.c's.
 * Entry point: tdb_plan_jointree.
 */
#include "common/base.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "common/stack_depth.h"
#include "executor/executor.h"
#include "optimizer/planner_int.h"

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

/* The rtindexes (varlevelsup 0) an expression reads. */
static List *
expr_relids(Expr *e)
{
    List *relids = NIL;

    tdb_plan_collect_relids((Node *)e, &relids);
    return relids;
}

/* Is every rtindex of a in b? */
static bool
relids_subset(List *a, List *b)
{
    for (int i = 0; i < list_length(a); i++)
        if (!tdb_list_member_int(b, list_nth_int(a, i)))
            return false;
    return true;
}

/* ----------------------------------------------------------------------
 * Scans
 * ---------------------------------------------------------------------- */

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

/* Take the pending conditions computable over relids that read none of
 * the relations in nullable (those an outer join below may null). */
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
    case T_ScalarArrayOpExpr:
        *cost += tdb_plan_array_length(
                     list_nth(((ScalarArrayOpExpr *)node)->args, 1)) *
                 0.5;
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
        scan->subplan = tdb_plan_query_level(sub);
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
        PlannerGlobal *glob = jp->root->glob;

        if (glob->wt_param < 0)
            elog(ERROR, "working table reference outside its recursive term");
        scan->wt_param = glob->wt_param;
        scan->ctename = rte->relname;
        glob->wt_reads = tdb_lappend_int(glob->wt_reads, scan->wt_param);
        plan = &scan->plan;
        break;
    }
    case RTE_CTE: {
        CteScan *scan = MAKE_PLAN(CteScan);
        PlannerGlobal *glob = jp->root->glob;
        PlannedCte *pc = tdb_plan_find_cte(glob, rte->cte);

        scan->ctename = rte->cte->ctename;
        scan->cte_plan_id = pc->plan_id;
        scan->cte_param = pc->param;
        scan->wt_params = pc->wt_params;
        glob->wt_reads =
            tdb_list_concat(glob->wt_reads, tdb_list_copy(pc->wt_params));
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

        tdb_plan_set_scan_estimates(plan, sub->plan_rows, sub->total_cost);
    } else if (IsA(plan, CteScan)) {
        Plan *cte = list_nth(jp->root->glob->subplans,
                             ((CteScan *)plan)->cte_plan_id - 1);

        /* PostgreSQL charges a tuple's CPU cost for reading the store
         * besides the scan's own */
        tdb_plan_set_scan_estimates(plan, cte->plan_rows,
                                    cte->plan_rows * CPU_TUPLE_COST);
    } else {
        double pages = 0;
        double rows = tdb_plan_estimate_rows(jp->root, rtindex, &pages);

        tdb_plan_set_scan_estimates(plan, rows, pages); /* seq_page_cost 1 */
        if (IsA(plan, SeqScan))
            plan = tdb_plan_index_scan(jp->root, (SeqScan *)plan, rtindex);
    }
    return plan;
}

/* ----------------------------------------------------------------------
 * Joins: the method, the node
 * ---------------------------------------------------------------------- */

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
        m->plan.targetlist = tdb_plan_passthrough_tlist(plan);
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
    sort->plan.targetlist = tdb_plan_passthrough_tlist(plan);
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
    Settings *settings = jp->root->glob->st->settings;
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
               tdb_plan_clause_selectivity(other);
    else
        rows = outer->plan->plan_rows * inner->plan->plan_rows *
               tdb_plan_clause_selectivity(join_conds);
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

/* ----------------------------------------------------------------------
 * The join tree: order, outer joins
 * ---------------------------------------------------------------------- */

static JoinPart *plan_jointree_node(JoinPlanner *jp, Node *node);

/* The rtindexes of the tables under a join tree node. */
static List *
jointree_relids(Node *node)
{
    tdb_check_stack_depth();

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
    List *on = tdb_plan_conjuncts(j->quals, NIL);
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
            !tdb_contains_volatile((Node *)cond))
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
    tdb_check_stack_depth();

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
        jp->pending = tdb_plan_conjuncts(j->quals, jp->pending);
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

/* ----------------------------------------------------------------------
 * Pseudoconstant conditions, and the whole FROM clause
 * ---------------------------------------------------------------------- */

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

        if (expr_relids(cond) == NIL && !tdb_contains_volatile((Node *)cond))
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
    tdb_check_stack_depth();

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

    tdb_check_stack_depth();

    if (!IsA(node, JoinExpr))
        return conds;
    j = (JoinExpr *)node;
    conds = tdb_plan_conjuncts(j->quals, conds);
    j->quals = NULL;
    conds = take_inner_join_quals(j->larg, conds);
    return take_inner_join_quals(j->rarg, conds);
}

/* The plan of the FROM clause with WHERE applied, outputting needed. */
Plan *
tdb_plan_jointree(PlannerInfo *root, List *needed)
{
    JoinPlanner jp = {root, needed, NIL, NIL, 0};
    FromExpr *from = root->q->jointree;
    List *parts = NIL;
    List *gating;
    JoinPart *top;

    if (from->fromlist == NIL) {
        Result *r = MAKE_PLAN(Result);

        r->plan.plan_rows = 1;
        r->resconstantqual = tdb_plan_conjuncts(from->quals, NIL);
        return &r->plan;
    }
    jp.pending = tdb_plan_conjuncts(from->quals, NIL);
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
