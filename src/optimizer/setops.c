/*
 * setops.c -- SELECT DISTINCT and the set operations UNION, INTERSECT and
 * EXCEPT [ALL]: whether they hash or sort, and the plans of the set
 * operations (PostgreSQL 15's prepunion.c and the outcome of its
 * add_path).  The two sections below give the rule and the plan shapes.
 *
 * The set-operation plans are built with their references already set:
 * setrefs.c never runs over them.
 *
 * Entry points (planner_int.h): tdb_plan_distinct, a SELECT DISTINCT's
 * step of the upper part (planner.c); tdb_plan_set_operation, the plan of
 * a query whose set_operations tree is set, with its ORDER BY and LIMIT.
 */
#include "common/base.h"

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "common/stack_depth.h"
#include "optimizer/planner_int.h"

/* ----------------------------------------------------------------------
 * Hashing or sorting: DISTINCT, UNION, INTERSECT, EXCEPT
 *
 * PostgreSQL 15 costs both ways and keeps the cheaper.  tupledb repeats
 * its arithmetic on estimates made the way PostgreSQL makes them without
 * statistics (costsize.c: tdb_plan_estimate_rows, a never-vacuumed table
 * has at least ten pages of rows; tdb_plan_estimate_groups), so that it
 * picks the same way:
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

static bool
all_consts(List *exprs)
{
    for (int i = 0; i < list_length(exprs); i++)
        if (!IsA(list_nth(exprs, i), Const))
            return false;
    return true;
}

/*
 * Whether grouping input on clauses into ngroups groups is decided before
 * costs: 1 hash, -1 sort, 0 by the costs.
 */
static int
hashing_forced(PlannerInfo *root, List *clauses, Plan *input, double ngroups)
{
    Settings *settings = root->glob->st->settings;
    double entry = MAXALIGN(tdb_plan_tlist_width(input->targetlist)) + 16.0;

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
    return CPU_TUPLE_COST * ngroups < tdb_plan_sort_cost(input->plan_rows);
}

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
    PathCost sorted = tdb_plan_add_sort_cost(in, rows, -1);
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
        hashed = tdb_plan_add_sort_cost(hashed, ngroups, limit);
        cmp = compare_costs_fuzzily(hashed, sorted, limit > 0);
        if (cmp == COSTS_BETTER1)
            return true;
        if (cmp == COSTS_BETTER2)
            return false;
    }
    /* the cheapest for the rows read */
    return tdb_plan_limited_cost(hashed, ngroups, limit) <
           tdb_plan_limited_cost(sorted, ngroups, limit);
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
    agg->plan.targetlist = tdb_plan_passthrough_tlist(input);
    agg->strategy = AGG_HASHED;
    agg->num_cols = n;
    agg->grp_col_idx = tdb_palloc(sizeof(int) * (Size)Max(1, n));
    agg->grp_eq = tdb_palloc(sizeof(OperDesc *) * (Size)Max(1, n));
    for (int i = 0; i < n; i++) {
        SortGroupClause *sgc = list_nth(clauses, i);

        agg->grp_col_idx[i] = tdb_plan_tle_for_ref(tlist, sgc->tle_ref)->resno;
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
Plan *
tdb_plan_distinct(PlannerInfo *root, Plan *plan)
{
    Query *q = root->q;
    List *exprs = NIL;
    double ngroups;

    for (int i = 0; i < list_length(q->distinct_clause); i++) {
        SortGroupClause *sgc = list_nth(q->distinct_clause, i);

        exprs = tdb_lappend(
            exprs, tdb_plan_tle_for_ref(q->target_list, sgc->tle_ref)->expr);
    }
    ngroups = tdb_plan_estimate_groups(root, exprs, plan);
    if (all_consts(exprs)) {
        /* constant keys: every row is in one group, and in order */
        plan = tdb_plan_make_unique(plan, q->distinct_clause, q->target_list);
        plan->plan_rows = 1;
        return plan;
    }
    if (choose_hashing_distinct(root, q->distinct_clause, plan, ngroups,
                                q->sort_clause != NIL, limit_rows(q))) {
        plan = make_hashed_unique(plan, q->distinct_clause, q->target_list,
                                  ngroups);
        if (q->sort_clause != NIL)
            plan = tdb_plan_make_sort(plan, q->sort_clause, q->target_list);
        return plan;
    }
    plan = tdb_plan_make_sort(plan, q->distinct_clause, q->target_list);
    plan = tdb_plan_make_unique(plan, q->distinct_clause, q->target_list);
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
 * finished by its own tdb_plan_query_level: tdb_plan_fix_plan never runs
 * over the result.
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
    Plan *child = tdb_plan_subquery(root, leaf);
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
                       : tdb_plan_estimate_groups(root, exprs, child);
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
 * columns of a set operation); numbers those columns for
 * tdb_plan_tle_for_ref. */
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
    append->plan.targetlist = tdb_plan_passthrough_tlist(first);
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
    tdb_check_stack_depth();

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
    plan = tdb_plan_make_sort(plan, clauses, plan->targetlist);
    return tdb_plan_make_unique(plan, clauses, plan->targetlist);
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
        input = tdb_plan_make_sort(input, clauses, input->targetlist);
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

    tdb_check_stack_depth();

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

        if (tdb_plan_tle_for_ref(tlist, sgc->tle_ref)->resno !=
                sort->keys[i].col ||
            sgc->descending != sort->keys[i].descending ||
            sgc->nulls_first != sort->keys[i].nulls_first)
            return false;
    }
    return true;
}

Plan *
tdb_plan_set_operation(PlannerInfo *root)
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
        plan = tdb_plan_make_sort(plan, q->sort_clause, tlist);
    if (q->limit_offset != NULL || q->limit_count != NULL)
        plan = tdb_plan_make_limit(plan, q->limit_offset, q->limit_count);
    return plan;
}
