/*
 * costsize.c -- row estimates and cost arithmetic (PostgreSQL's
 * costsize.c, selfuncs.c and plancat.c, as far as tupledb needs them).
 *
 * tupledb keeps no statistics, so every estimate is the one PostgreSQL
 * makes without them (planner.h lists the rules): a table has its file's
 * pages, at least ten, of rows of its estimated width; a scan keeps the
 * share of rows its conditions' default selectivities leave; a join
 * condition keeps 1/10 or 1/3; columns have at most DEFAULT_NUM_DISTINCT
 * distinct values; a sort costs what cost_sort charges for rows held in
 * memory.  Costs are display only, except where the hashing-or-sorting
 * choice of DISTINCT and the set operations (setops.c) compares them;
 * rows also choose a join's hashed and outer sides (joinplan.c).
 *
 * Nothing here builds plan nodes: the functions read plans, range-table
 * entries and, for a table's size, the catalog and the relation's file.
 *
 * Entry points (planner_int.h): tdb_plan_estimate_rows,
 * tdb_plan_set_scan_estimates, tdb_plan_clause_selectivity,
 * tdb_plan_estimate_groups, tdb_plan_tlist_width, tdb_plan_sort_cost,
 * tdb_plan_add_sort_cost, tdb_plan_limited_cost.
 */
#include "common/base.h"

#include <math.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/pg_type.h"
#include "optimizer/planner_int.h"
#include "storage/bufmgr.h"
#include "types/builtins.h"

/* ----------------------------------------------------------------------
 * Widths and rows
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

/* PostgreSQL's guess at a value's width without statistics. */
int
tdb_plan_tlist_width(List *tlist)
{
    int width = 0;

    for (int i = 0; i < list_length(tlist); i++) {
        Expr *e = ((TargetEntry *)list_nth(tlist, i))->expr;

        width += type_avg_width(exprType(e), exprTypmod(e));
    }
    return width;
}

/*
 * PostgreSQL's estimate for a table never vacuumed or analyzed (tupledb
 * keeps no such statistics): the file's pages, but at least ten, times
 * the whole rows of the estimated width that fit in a page.  *pages
 * (out): the pages.
 */
double
tdb_plan_relation_rows(Relation rel, double *pages)
{
    BlockNumber nblocks = tdb_buf_relation_nblocks(rel->rd_relfilenumber);
    int width = 24 + 4; /* tuple header and line pointer */

    for (int i = 0; i < rel->rd_att->natts; i++) {
        TupleAttr *att = TupleDescAttr(rel->rd_att, i);

        if (!att->attisdropped)
            width += type_avg_width(att->atttypid, att->atttypmod);
    }
    *pages = Max(nblocks, 10);
    return *pages * (double)(8168 / width);
}

static double
table_rows(PlannerInfo *root, Oid relid, double *pages)
{
    Relation rel =
        tdb_relation_open_by_oid(root->glob->st->xact, relid, REL_LOCK_SHARE);
    double rows = tdb_plan_relation_rows(rel, pages);

    tdb_relation_close(rel);
    return rows;
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

/* The rows of range-table entry rtindex; *pages (out): the pages a scan
 * reads (tables). */
double
tdb_plan_estimate_rows(PlannerInfo *root, int rtindex, double *pages)
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

/* ----------------------------------------------------------------------
 * Conditions
 * ---------------------------------------------------------------------- */

double
tdb_plan_clause_selectivity(List *quals)
{
    double sel = 1.0;

    for (int i = 0; i < list_length(quals); i++) {
        Expr *q = list_nth(quals, i);

        sel *= IsA(q, OpExpr) && ((OpExpr *)q)->op->is_equality ? 0.1
                                                                  : 1.0 / 3;
    }
    return sel;
}

/* PostgreSQL's defaults without statistics (selfuncs.h). */
#define DEFAULT_INEQ_SEL (1.0 / 3.0)
#define DEFAULT_RANGE_INEQ_SEL 0.005
#define DEFAULT_UNK_SEL 0.005

/* Is e free of the query's columns (a constant, a parameter)? */
static bool
is_pseudo_constant(Expr *e)
{
    return !tdb_plan_contains_node((Node *)e, T_Var) &&
           !tdb_contains_volatile((Node *)e);
}

static Expr *
strip_relabel(Expr *e)
{
    while (e != NULL && IsA(e, RelabelType))
        e = ((RelabelType *)e)->arg;
    return e;
}

/* eqsel without statistics: one of the column's distinct values -- every
 * row distinct under a unique index, else min(rows, 200). */
static double
eq_selectivity(Expr *var, double tuples, List *unique_attnos)
{
    var = strip_relabel(var);
    if (var != NULL && IsA(var, Var) &&
        tdb_list_member_int(unique_attnos, ((Var *)var)->varattno) &&
        tuples >= 1.0)
        return 1.0 / tuples;
    return 1.0 / Max(1.0, Min(tuples, DEFAULT_NUM_DISTINCT));
}

int
tdb_plan_array_length(Expr *array)
{
    array = strip_relabel(array);
    if (IsA(array, Const))
        return ((Const *)array)->constisnull
                   ? 0
                   : tdb_array_values(((Const *)array)->constvalue).n;
    if (IsA(array, ArrayExpr))
        return list_length(((ArrayExpr *)array)->elements);
    return 10;
}

/*
 * scalararraysel without statistics: each element's selectivity s
 * combined as independent events (ANY: s1 + s - s1 * s; ALL: s1 * s),
 * except that "= ANY" of a known array adds its elements' (they are
 * disjoint) and "<> ALL" subtracts their complements, when that stays
 * within 0..1.  An array of unknown length counts as 10 elements, always
 * combined independently.
 */
static double
saop_selectivity(ScalarArrayOpExpr *saop, double tuples, List *unique_attnos)
{
    Expr *arg = linitial(saop->args), *array = list_nth(saop->args, 1);
    bool is_eq = saop->op->is_equality;
    bool is_ne = strcmp(saop->op->name, "<>") == 0;
    bool known = IsA(strip_relabel(array), Const) ||
                 IsA(strip_relabel(array), ArrayExpr);
    int n = tdb_plan_array_length(array);
    double e = eq_selectivity(arg, tuples, unique_attnos);
    double s = is_eq ? e : is_ne ? 1.0 - e : DEFAULT_INEQ_SEL;
    double s1 = saop->use_or ? 0.0 : 1.0, disjoint = s1;

    for (int i = 0; i < n; i++) {
        if (saop->use_or) {
            s1 = s1 + s - s1 * s;
            disjoint += s;
        } else {
            s1 = s1 * s;
            disjoint += s - 1.0;
        }
    }
    if (known && (saop->use_or ? is_eq : is_ne) && disjoint >= 0.0 &&
        disjoint <= 1.0)
        s1 = disjoint;
    return s1;
}

/* One bound of a range on an expression (clauselist_selectivity's
 * RangeQueryClause). */
typedef struct RangeBound {
    Expr *var;
    bool have_lo, have_hi;
    double lo, hi;
} RangeBound;

double
tdb_plan_restriction_selectivity(List *quals, double tuples,
                                 List *unique_attnos)
{
    RangeBound *ranges =
        tdb_palloc0(sizeof(RangeBound) * (Size)Max(1, list_length(quals)));
    int nranges = 0;
    double sel = 1.0;

    for (int i = 0; i < list_length(quals); i++) {
        Expr *q = list_nth(quals, i);

        if (IsA(q, OpExpr) && list_length(((OpExpr *)q)->args) == 2) {
            OpExpr *op = (OpExpr *)q;
            Expr *l = linitial(op->args), *r = list_nth(op->args, 1);
            bool var_left = is_pseudo_constant(r);
            bool var_right = !var_left && is_pseudo_constant(l);
            Expr *var = var_left ? l : r;
            const char *name = op->op->name;
            bool lt = strcmp(name, "<") == 0 || strcmp(name, "<=") == 0;
            bool gt = strcmp(name, ">") == 0 || strcmp(name, ">=") == 0;

            if (op->op->is_equality) {
                sel *= eq_selectivity(var, tuples, unique_attnos);
                continue;
            }
            if (strcmp(name, "<>") == 0) {
                sel *= 1.0 - eq_selectivity(var, tuples, unique_attnos);
                continue;
            }
            if ((lt || gt) && (var_left || var_right)) {
                /* "var < c" bounds var above; "c < var" below */
                bool is_hi = lt == var_left;
                RangeBound *rb = NULL;

                for (int k = 0; k < nranges && rb == NULL; k++)
                    if (tdb_expr_equal((Node *)ranges[k].var, (Node *)var))
                        rb = &ranges[k];
                if (rb == NULL) {
                    rb = &ranges[nranges++];
                    rb->var = var;
                }
                if (is_hi) {
                    rb->hi = rb->have_hi ? Min(rb->hi, DEFAULT_INEQ_SEL)
                                         : DEFAULT_INEQ_SEL;
                    rb->have_hi = true;
                } else {
                    rb->lo = rb->have_lo ? Min(rb->lo, DEFAULT_INEQ_SEL)
                                         : DEFAULT_INEQ_SEL;
                    rb->have_lo = true;
                }
                continue;
            }
            sel *= DEFAULT_INEQ_SEL;
        } else if (IsA(q, NullTest)) {
            sel *= ((NullTest *)q)->is_not_null ? 1.0 - DEFAULT_UNK_SEL
                                                : DEFAULT_UNK_SEL;
        } else if (IsA(q, InListExpr)) {
            /* scalararraysel: "= ANY" items are disjoint, so their
             * selectivities add up; "<> ALL" multiplies */
            InListExpr *in = (InListExpr *)q;
            double s = in->is_not ? 1.0 : 0.0;

            for (int k = 0; k < list_length(in->items); k++) {
                Expr *item = list_nth(in->items, k);
                double e = IsA(item, Const) && ((Const *)item)->constisnull
                               ? 0.0
                               : eq_selectivity(in->arg, tuples, unique_attnos);

                s = in->is_not ? s * (1.0 - e) : s + e;
            }
            sel *= Max(0.0, Min(1.0, s));
        } else if (IsA(q, ScalarArrayOpExpr)) {
            sel *=
                saop_selectivity((ScalarArrayOpExpr *)q, tuples, unique_attnos);
        } else
            sel *= DEFAULT_INEQ_SEL;
    }
    for (int k = 0; k < nranges; k++) {
        RangeBound *rb = &ranges[k];

        if (rb->have_lo && rb->have_hi)
            sel *= DEFAULT_RANGE_INEQ_SEL; /* both default bounds */
        else
            sel *= rb->have_lo ? rb->lo : rb->hi;
    }
    tdb_pfree(ranges);
    return sel;
}

/* The share of a scan's `tuples` rows its conditions keep. */
static double
scan_selectivity(List *quals, double tuples)
{
    return tdb_plan_restriction_selectivity(quals, tuples, NIL);
}

/* A scan's estimates: rows before its conditions, base_cost (pages read,
 * or a subquery's cost) to add to the per-row costs. */
void
tdb_plan_set_scan_estimates(Plan *plan, double rows, double base_cost)
{
    plan->plan_rows = Max(1.0, rint(rows * scan_selectivity(plan->qual, rows)));
    plan->startup_cost = 0;
    plan->total_cost =
        base_cost + rows * 0.01 + list_length(plan->qual) * rows * 0.0025;
    plan->plan_width = 4 * Max(1, list_length(plan->targetlist));
}

/* ----------------------------------------------------------------------
 * Groups
 * ---------------------------------------------------------------------- */

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
double
tdb_plan_estimate_groups(PlannerInfo *root, List *exprs, Plan *input)
{
    double rows = Max(1.0, input->plan_rows);
    double tuples = Max(rows, relation_rows(root, input));
    double per_column, groups = 1;
    int ncols = 0;

    for (int i = 0; i < list_length(exprs); i++)
        if (tdb_plan_contains_node(list_nth(exprs, i), T_Var) ||
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

/* ----------------------------------------------------------------------
 * Sorting
 * ---------------------------------------------------------------------- */

/* PostgreSQL's cost_sort for rows fitting in work_mem: the comparisons
 * (before the first row) and the whole. */
static double
sort_startup_cost(double rows)
{
    rows = Max(rows, 2.0);
    return 2.0 * CPU_OPERATOR_COST * rows * log2(rows);
}

double
tdb_plan_sort_cost(double rows)
{
    return sort_startup_cost(rows) + CPU_OPERATOR_COST * Max(rows, 2.0);
}

/* A Sort over a path of rows (bounded to limit rows if limit > 0, as a
 * top-N heap sort is when the rows are more than twice that). */
PathCost
tdb_plan_add_sort_cost(PathCost in, double rows, double limit)
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
double
tdb_plan_limited_cost(PathCost c, double rows, double limit)
{
    if (limit <= 0 || limit >= rows)
        return c.total;
    return c.startup + (c.total - c.startup) * limit / rows;
}
