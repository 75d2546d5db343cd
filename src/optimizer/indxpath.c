/*
 * indxpath.c -- index scans for a base relation's conditions and for
 * ORDER BY (PostgreSQL's indxpath.c, with the cost arithmetic of
 * costsize.c's cost_index and selfuncs.c's btcostestimate /
 * genericcostestimate).
 *
 * For each valid B-tree index of the table, the scan's conditions that
 * the index can search are matched to its key columns:
 *
 *   column op value      op one of = < <= > >= (either side: "5 = a" is
 *                        used as "a = 5"), value reading no column of
 *                        the query and calling nothing volatile (a
 *                        constant, a prepared statement's parameter, an
 *                        initplan's result), of the column's type or --
 *                        for int2 / int4 / int8 columns -- another of
 *                        those (PostgreSQL's integer_ops family);
 *   column IN (values)   an IN list of such values (ScalarArrayOp);
 *   column = ANY (array) an array such a value gives (a constant, a
 *                        parameter, ARRAY[...] of them): one scan per
 *                        distinct non-null element, as an IN list;
 *   column IS [NOT] NULL
 *
 * where "column" is a table column the index holds as a key column.  The
 * other conditions stay as the scan's Filter.  An index whose key
 * columns hold every column the query reads of the table gives an Index
 * Only Scan (as PostgreSQL, which then builds no plain Index Scan).
 *
 * The scan chosen is the cheapest of the sequential scan and the index
 * paths by PostgreSQL's formulas; when the query's ORDER BY (a
 * single-table SELECT: PlannerInfo.wanted_order) is an index's order --
 * forward, or backward reversing every column's direction and NULLS
 * placement -- that path competes with the cheapest one plus a sort,
 * both costed for the rows LIMIT reads, as PostgreSQL's fractional
 * costs do.  enable_seqscan / enable_indexscan / enable_indexonlyscan
 * add PostgreSQL's disable_cost.
 *
 * An expression index serves conditions and ORDER BY on the same
 * expression (lower(c) = 'x'); a partial index serves a query whose
 * WHERE has every conjunct of its predicate (PostgreSQL proves more
 * implications: a > 20 for a predicate a > 10), and the conditions the
 * predicate implies are no Filter of the scan.
 *
 * Not here yet (PostgreSQL has them): bitmap scans, index scans
 * parameterized by a join's outer row.
 *
 * Entry point (planner_int.h): tdb_plan_index_scan.
 */
#include "common/base.h"

#include <math.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/execindex.h"
#include "optimizer/planner_int.h"
#include "parser/analyze.h"
#include "storage/bufmgr.h"

/* PostgreSQL's constants (costsize.h, guc defaults). */
#define RANDOM_PAGE_COST 4.0
#define SEQ_PAGE_COST 1.0
#define CPU_INDEX_TUPLE_COST 0.005
#define EFFECTIVE_CACHE_SIZE 524288.0 /* pages: 4GB */

/* INDEX_MAX_KEYS (access/nbtree.h, which this layer cannot include) */
#define INDEX_MAX_KEYS_PLANNER 32

/* BTStrategy values (access/nbtree.h) */
enum {
    KEY_LESS = 1,
    KEY_LESS_EQUAL = 2,
    KEY_EQUAL = 3,
    KEY_GREATER_EQUAL = 4,
    KEY_GREATER = 5,
    KEY_IS_NULL = 6,
    KEY_IS_NOT_NULL = 7,
};

/* One condition matched to an index column. */
typedef struct IndexClause {
    int col;     /* 0-based index column */
    Expr *orig;  /* the scan's condition */
    Expr *shown; /* as EXPLAIN shows it: the column on the left */
    IndexKey key;
} IndexClause;

/* What the planner knows of one index: its key columns as expressions
 * over the table (a Var for a column), its expression columns, its
 * predicate's conjuncts (all folded, Vars of the scanned rtindex). */
typedef struct IndexInfo {
    const RelationIndex *ri;
    Expr *cols[INDEX_MAX_KEYS_PLANNER];
    List *exprs; /* the expression columns, in order */
    List *pred;  /* Expr, ANDed; NIL if not partial */
} IndexInfo;

/* An index path: the index, its conditions, its cost. */
typedef struct IndexPath {
    const IndexInfo *info;
    const RelationIndex *ri;
    List *clauses; /* IndexClause, in index column order */
    bool index_only;
    bool backward;
    double startup;
    double total;
} IndexPath;

/* What the paths of one table share. */
typedef struct IndexContext {
    PlannerInfo *root;
    int rtindex;
    Relation rel;
    List *quals;        /* the scan's conditions */
    List *tlist;        /* the scan's output (Vars) */
    double tuples;      /* the table's estimated rows */
    double pages;       /* ... and pages */
    double rows;        /* rows after every condition */
    double total_pages; /* every table of the query (index_pages_fetched) */
    List *unique_attnos;
} IndexContext;

/* ----------------------------------------------------------------------
 * Matching conditions to index columns
 * ---------------------------------------------------------------------- */

static bool
is_int_type(Oid t)
{
    return t == INT2OID || t == INT4OID || t == INT8OID;
}

static bool
is_text_type(Oid t)
{
    return t == TEXTOID || t == VARCHAROID;
}

/* Can a value of type arg search a column of type col (same order)? */
static bool
types_compatible(Oid col, Oid arg)
{
    return col == arg || (is_int_type(col) && is_int_type(arg)) ||
           (is_text_type(col) && is_text_type(arg));
}

/* The key's arg_type: the column's when the values compare the same
 * way without fitting (text and varchar). */
static Oid
key_arg_type(Oid col, Oid arg)
{
    return is_text_type(col) ? col : arg;
}

/* Is e the index column whose expression is col (a table column's Var,
 * or an expression column's expression), under a binary relabeling? */
static bool
is_index_column(Expr *e, Expr *col)
{
    while (e != NULL && IsA(e, RelabelType))
        e = ((RelabelType *)e)->arg;
    if (e == NULL || col == NULL)
        return false;
    if (IsA(col, Var))
        return IsA(e, Var) && ((Var *)e)->varno == ((Var *)col)->varno &&
               ((Var *)e)->varlevelsup == 0 &&
               ((Var *)e)->varattno == ((Var *)col)->varattno;
    return tdb_expr_equal((Node *)e, (Node *)col);
}

/* A value the scan can compute once at its start? */
static bool
is_scan_constant(Expr *e)
{
    return !tdb_plan_contains_node((Node *)e, T_Var) &&
           !tdb_plan_contains_node((Node *)e, T_SubPlan) &&
           !tdb_plan_contains_node((Node *)e, T_Aggref) &&
           !tdb_contains_volatile((Node *)e);
}

static int
strategy_of(const char *op)
{
    if (strcmp(op, "=") == 0)
        return KEY_EQUAL;
    if (strcmp(op, "<") == 0)
        return KEY_LESS;
    if (strcmp(op, "<=") == 0)
        return KEY_LESS_EQUAL;
    if (strcmp(op, ">") == 0)
        return KEY_GREATER;
    if (strcmp(op, ">=") == 0)
        return KEY_GREATER_EQUAL;
    return 0;
}

static const char *
commuted_name(int strategy)
{
    static const char *const names[] = {"", ">", ">=", "=", "<=", "<"};

    return names[strategy];
}

/*
 * Match cond to the index column whose expression is col (of type
 * coltype); fills *ic.  False if the index cannot search it.
 */
static bool
match_clause(Expr *cond, Expr *col, Oid coltype, IndexClause *ic)
{
    memset(ic, 0, sizeof(*ic));
    ic->orig = cond;
    ic->shown = cond;
    if (IsA(cond, OpExpr)) {
        OpExpr *op = (OpExpr *)cond;
        Expr *l, *r;
        int strategy = strategy_of(op->op->name);

        if (list_length(op->args) != 2 || strategy == 0 ||
            op->op->result != BOOLOID)
            return false;
        l = linitial(op->args);
        r = list_nth(op->args, 1);
        if (is_index_column(l, col) && is_scan_constant(r) &&
            types_compatible(coltype, exprType(r))) {
            ic->key.arg = r;
        } else if (is_index_column(r, col) && is_scan_constant(l) &&
                   types_compatible(coltype, exprType(l))) {
            /* "5 < a": searched, and shown, as "a > 5" */
            const char *name;
            const OperDesc *comm;
            OpExpr *shown;

            strategy = strategy_of(commuted_name(strategy));
            name = commuted_name(strategy_of(op->op->name));
            comm = tdb_oper_lookup(name, exprType(r), exprType(l));
            if (comm == NULL)
                return false;
            shown = (OpExpr *)tdb_copy_node_shallow((Node *)op);
            shown->op = comm;
            shown->args = tdb_list_make2(r, l);
            ic->shown = &shown->xpr;
            ic->key.arg = l;
        } else
            return false;
        ic->key.strategy = strategy;
        ic->key.arg_type = key_arg_type(coltype, exprType(ic->key.arg));
        return true;
    }
    if (IsA(cond, NullTest)) {
        NullTest *nt = (NullTest *)cond;

        if (!is_index_column(nt->arg, col))
            return false;
        ic->key.strategy = nt->is_not_null ? KEY_IS_NOT_NULL : KEY_IS_NULL;
        ic->key.arg_type = coltype;
        return true;
    }
    if (IsA(cond, ScalarArrayOpExpr)) {
        ScalarArrayOpExpr *saop = (ScalarArrayOpExpr *)cond;
        Expr *array = list_nth(saop->args, 1);

        if (!saop->use_or || !saop->op->is_equality ||
            !is_index_column(linitial(saop->args), col) ||
            !is_scan_constant(array) ||
            !types_compatible(coltype, saop->op->right))
            return false;
        ic->key.strategy = KEY_EQUAL;
        ic->key.array = array;
        ic->key.arg_type = key_arg_type(coltype, saop->op->right);
        return true;
    }
    if (IsA(cond, InListExpr)) {
        InListExpr *in = (InListExpr *)cond;
        Oid item_type;

        if (in->is_not || !in->op->is_equality ||
            !is_index_column(in->arg, col) || in->items == NIL)
            return false;
        item_type = exprType(linitial(in->items));
        if (!types_compatible(coltype, item_type))
            return false;
        for (int i = 0; i < list_length(in->items); i++)
            if (!is_scan_constant(list_nth(in->items, i)) ||
                exprType(list_nth(in->items, i)) != item_type)
                return false;
        ic->key.strategy = KEY_EQUAL;
        ic->key.items = in->items;
        ic->key.arg_type = key_arg_type(coltype, item_type);
        return true;
    }
    return false;
}

/*
 * Is cond one of the conjuncts of ii's predicate (so true for every row
 * the index holds)?  PostgreSQL's predicate_implied_by proves more (a >
 * 10 from a > 20); tupledb matches equal conditions only.
 */
static bool
implied_by_predicate(const IndexInfo *ii, Expr *cond)
{
    for (int i = 0; i < list_length(ii->pred); i++)
        if (tdb_expr_equal(list_nth(ii->pred, i), (Node *)cond))
            return true;
    return false;
}

/* May the query use partial index ii: does its WHERE hold every
 * conjunct of the predicate? */
static bool
predicate_holds(IndexContext *cx, const IndexInfo *ii)
{
    for (int i = 0; i < list_length(ii->pred); i++) {
        bool found = false;

        for (int k = 0; k < list_length(cx->quals) && !found; k++)
            found =
                tdb_expr_equal(list_nth(cx->quals, k), list_nth(ii->pred, i));
        if (!found)
            return false;
    }
    return true;
}

/* The conditions index ii can search, in its column order (none that
 * its predicate implies: those hold for every entry). */
static List *
match_index(IndexContext *cx, const IndexInfo *ii)
{
    const RelationIndex *ri = ii->ri;
    List *clauses = NIL;

    for (int c = 0; c < ri->ri_nkeyatts; c++) {
        Oid coltype = exprType(ii->cols[c]);

        for (int i = 0; i < list_length(cx->quals); i++) {
            IndexClause *ic = tdb_palloc(sizeof(IndexClause));

            if (implied_by_predicate(ii, list_nth(cx->quals, i)) ||
                !match_clause(list_nth(cx->quals, i), ii->cols[c], coltype, ic))
                continue;
            ic->col = c;
            ic->key.attno = c + 1;
            clauses = tdb_lappend(clauses, ic);
        }
    }
    return clauses;
}

/*
 * Does ii hold (as key or INCLUDE columns) every column the scan reads --
 * its output and its conditions, but those its predicate implies?
 */
static bool
covers_columns(IndexContext *cx, const IndexInfo *ii)
{
    const RelationIndex *ri = ii->ri;

    for (int i = 0; i < list_length(cx->tlist); i++) {
        Expr *e = ((TargetEntry *)list_nth(cx->tlist, i))->expr;

        if (!IsA(e, Var))
            return false;
        if (((Var *)e)->varattno <= 0)
            return false;
        {
            bool found = false;

            for (int c = 0; c < ri->ri_natts && !found; c++)
                found = ri->ri_attnums[c] == ((Var *)e)->varattno;
            if (!found)
                return false;
        }
    }
    for (int q = 0; q < list_length(cx->quals); q++) {
        List *qvars = NIL;

        if (implied_by_predicate(ii, list_nth(cx->quals, q)))
            continue;
        tdb_plan_collect_vars((Node *)list_nth(cx->quals, q), &qvars);
        for (int i = 0; i < list_length(qvars); i++) {
            Var *v = list_nth(qvars, i);
            bool found = false;

            if (v->varattno <= 0)
                return false;
            for (int c = 0; c < ri->ri_natts && !found; c++)
                found = ri->ri_attnums[c] == v->varattno;
            if (!found)
                return false;
        }
    }
    return true;
}

/* ----------------------------------------------------------------------
 * Costs
 * ---------------------------------------------------------------------- */

/*
 * PostgreSQL's index_pages_fetched: the Mackert-Lohman estimate of the
 * heap pages fetched for tuples_fetched rows of a table of pages pages,
 * with effective_cache_size shared among the query's tables.
 */
static double
index_pages_fetched(double tuples_fetched, double pages, double index_pages,
                    double total_table_pages)
{
    double T = pages > 1 ? pages : 1.0;
    double total = Max(total_table_pages + index_pages, 1.0);
    double b = EFFECTIVE_CACHE_SIZE * T / total;
    double N = tuples_fetched, fetched;

    b = b <= 1.0 ? 1.0 : ceil(b);
    if (T <= b) {
        fetched = (2.0 * T * N) / (2.0 * T + N);
        return fetched >= T ? T : ceil(fetched);
    } else {
        double lim = (2.0 * T * b) / (2.0 * T - b);

        if (N <= lim)
            fetched = (2.0 * T * N) / (2.0 * T + N);
        else
            fetched = b + (N - lim) * (T - b) / T;
        return ceil(fetched);
    }
}

/* Is the clause an IN list or = ANY (array): one scan per element? */
static bool
is_array_clause(const IndexClause *ic)
{
    return ic->key.items != NIL || ic->key.array != NULL;
}

/* The estimated elements of an IN list or array (PostgreSQL's
 * estimate_array_length). */
static double
array_length(const IndexClause *ic)
{
    if (ic->key.array != NULL)
        return tdb_plan_array_length(ic->key.array);
    return ic->key.items != NIL ? list_length(ic->key.items) : 1;
}

/* The cost of computing a key's value at the start (PostgreSQL's
 * index_other_operands_eval_cost): a constant or parameter costs
 * nothing, an operator or function call cpu_operator_cost. */
static double
operand_cost(const IndexClause *ic)
{
    double n = 0;

    if (ic->key.arg != NULL && !IsA(ic->key.arg, Const) &&
        !IsA(ic->key.arg, Param))
        n += 1;
    return n * CPU_OPERATOR_COST;
}

/*
 * btcostestimate + genericcostestimate + cost_index (PostgreSQL 15, for
 * one scan, no statistics): the path's startup and total cost.
 */
static void
cost_index_path(IndexContext *cx, IndexPath *path)
{
    const RelationIndex *ri = path->ri;
    const IndexInfo *ii = path->info;
    Settings *settings = cx->root->glob->st->settings;
    double index_pages =
        Max(1.0, tdb_buf_relation_nblocks(ri->ri_relfilenumber));
    /* a partial index: the rows its predicate keeps (PostgreSQL measures
     * the index; tupledb has no statistics for that) */
    double index_tuples = Max(
        1.0, rint(cx->tuples * tdb_plan_restriction_selectivity(
                                   ii->pred, cx->tuples, cx->unique_attnos)));
    List *pred_extra = NIL;
    List *bound = NIL, *all = NIL;
    int col = 0;
    bool eq_here = false, found_saop = false, found_null = false;
    double num_sa_scans = 1, bound_sa_scans = 1;
    double num_index_tuples, num_index_pages, sel;
    double index_startup, index_total, qual_arg_cost = 0, descent;
    double tuples_fetched, pages_fetched, max_io, min_io, run;
    double cpu_per_tuple, nfilter = 0;

    /* the boundary conditions: "=" on leading columns, then any on the
     * next one */
    /* add_predicate_to_index_quals: the predicate's conjuncts that are
     * no index condition count for the index's selectivity */
    for (int i = 0; i < list_length(ii->pred); i++) {
        bool is_qual = false;

        for (int k = 0; k < list_length(path->clauses) && !is_qual; k++)
            is_qual = tdb_expr_equal(
                (Node *)((IndexClause *)list_nth(path->clauses, k))->orig,
                list_nth(ii->pred, i));
        if (!is_qual)
            pred_extra = tdb_lappend(pred_extra, list_nth(ii->pred, i));
    }
    all = tdb_list_copy(pred_extra);
    for (int i = 0; i < list_length(path->clauses); i++) {
        IndexClause *ic = list_nth(path->clauses, i);

        all = tdb_lappend(all, ic->orig);
        qual_arg_cost += operand_cost(ic);
        if (array_length(ic) > 1)
            num_sa_scans *= array_length(ic);
    }
    for (int i = 0; i < list_length(path->clauses); i++) {
        IndexClause *ic = list_nth(path->clauses, i);

        if (ic->col != col) {
            if (!eq_here)
                break;
            eq_here = false;
            col++;
            if (ic->col != col)
                break;
        }
        if (is_array_clause(ic)) {
            found_saop = true;
            if (array_length(ic) > 1)
                bound_sa_scans *= array_length(ic);
        }
        if (ic->key.strategy == KEY_IS_NULL)
            found_null = true;
        if (ic->key.strategy == KEY_EQUAL || ic->key.strategy == KEY_IS_NULL)
            eq_here = true;
        bound = tdb_lappend(bound, ic->orig);
    }
    if (ri->ri_unique && col == ri->ri_nkeyatts - 1 && eq_here && !found_saop &&
        !found_null)
        num_index_tuples = 1.0;
    else
        num_index_tuples =
            rint(tdb_plan_restriction_selectivity(
                     tdb_list_concat(tdb_list_copy(pred_extra), bound),
                     cx->tuples, cx->unique_attnos) *
                 cx->tuples / bound_sa_scans);
    /* genericcostestimate */
    sel = tdb_plan_restriction_selectivity(all, cx->tuples, cx->unique_attnos);
    if (num_index_tuples > index_tuples)
        num_index_tuples = index_tuples;
    if (num_index_tuples < 1.0)
        num_index_tuples = 1.0;
    if (index_pages > 1 && index_tuples > 1)
        num_index_pages = ceil(num_index_tuples * index_pages / index_tuples);
    else
        num_index_pages = 1.0;
    index_total = num_index_pages * RANDOM_PAGE_COST;
    index_startup = qual_arg_cost;
    index_total += qual_arg_cost;
    index_total +=
        num_index_tuples * num_sa_scans *
        (CPU_INDEX_TUPLE_COST + CPU_OPERATOR_COST * list_length(path->clauses));
    /* btcostestimate's descent: comparisons, and pages descended */
    if (index_tuples > 1) {
        descent = ceil(log(index_tuples) / log(2.0)) * CPU_OPERATOR_COST;
        index_startup += descent;
        index_total += num_sa_scans * descent;
    }
    descent = (tdb_exec_index_tree_height(ri) + 1) * 50.0 * CPU_OPERATOR_COST;
    index_startup += descent;
    index_total += num_sa_scans * descent;

    /* cost_index */
    path->startup = index_startup;
    run = index_total - index_startup;
    tuples_fetched = Max(1.0, rint(sel * cx->tuples));
    pages_fetched = index_pages_fetched(tuples_fetched, cx->pages, index_pages,
                                        cx->total_pages);
    /* an Index Only Scan's all-visible share: 0 without statistics */
    max_io = pages_fetched * RANDOM_PAGE_COST;
    pages_fetched = ceil(sel * cx->pages);
    if (pages_fetched > 0) {
        min_io = RANDOM_PAGE_COST;
        if (pages_fetched > 1)
            min_io += (pages_fetched - 1) * SEQ_PAGE_COST;
    } else
        min_io = 0;
    (void)min_io; /* no correlation without statistics: max_io counts */
    run += max_io;
    for (int i = 0; i < list_length(cx->quals); i++) {
        bool used = false;

        for (int k = 0; k < list_length(path->clauses) && !used; k++)
            used = ((IndexClause *)list_nth(path->clauses, k))->orig ==
                   list_nth(cx->quals, i);
        if (!used && !implied_by_predicate(ii, list_nth(cx->quals, i)))
            nfilter++;
    }
    cpu_per_tuple = CPU_TUPLE_COST + nfilter * CPU_OPERATOR_COST;
    run += cpu_per_tuple * tuples_fetched;
    /* enable_indexscan covers Index Only Scans too (PostgreSQL 15's
     * cost_index; enable_indexonlyscan = off makes a plain Index Scan) */
    if (!settings->enable_indexscan)
        path->startup += DISABLE_COST;
    path->total = path->startup + run;
}

/* ----------------------------------------------------------------------
 * Order
 * ---------------------------------------------------------------------- */

/*
 * Does scanning ri give the wanted ORDER BY (forward, or with
 * *backward)?  Every ORDER BY key must be the next key column (a column
 * that an "=" condition fixes may be skipped, as PostgreSQL's pathkeys
 * drop constants), with the same direction and NULLS placement, all
 * reversed for a backward scan.
 */
static bool
index_gives_order(IndexContext *cx, const IndexInfo *ii, List *clauses,
                  bool *backward)
{
    const RelationIndex *ri = ii->ri;
    List *order = cx->root->wanted_order;
    List *tlist = cx->root->q->target_list;
    int col = 0, dir = 0;

    for (int i = 0; i < list_length(order); i++) {
        SortGroupClause *sc = list_nth(order, i);
        TargetEntry *te = tdb_plan_tle_for_ref(tlist, sc->tle_ref);
        bool matched = false;

        while (col < ri->ri_nkeyatts && !matched) {
            bool desc = (ri->ri_options[col] & INDOPTION_DESC) != 0;
            bool nf = (ri->ri_options[col] & INDOPTION_NULLS_FIRST) != 0;
            bool fixed = false;

            if (is_index_column(te->expr, ii->cols[col]) &&
                !IsA(te->expr, RelabelType)) {
                int d = (sc->descending == desc && sc->nulls_first == nf)   ? 1
                        : (sc->descending != desc && sc->nulls_first != nf) ? -1
                                                                            : 0;

                if (d == 0 || (dir != 0 && d != dir))
                    return false;
                dir = d;
                matched = true;
                col++;
                break;
            }
            for (int k = 0; k < list_length(clauses) && !fixed; k++) {
                IndexClause *ic = list_nth(clauses, k);

                fixed = ic->col == col && ic->key.strategy == KEY_EQUAL &&
                        !is_array_clause(ic);
            }
            if (!fixed)
                return false;
            col++;
        }
        if (!matched)
            return false;
    }
    /* an IN list past the first column visits its items one scan each:
     * the order holds only within each (PostgreSQL 15 keeps no order) */
    for (int k = 0; k < list_length(clauses); k++) {
        IndexClause *ic = list_nth(clauses, k);

        if (is_array_clause(ic) && ic->col > 0)
            return false;
    }
    *backward = dir < 0;
    return true;
}

/* ----------------------------------------------------------------------
 * The plan
 * ---------------------------------------------------------------------- */

static Plan *
make_index_plan(IndexContext *cx, SeqScan *seq, IndexPath *path)
{
    IndexScan *is = MAKE_PLAN(IndexScan);
    List *filter = NIL;
    int n = list_length(path->clauses);

    is->relid = seq->relid;
    is->relname = seq->relname;
    is->alias = seq->alias;
    is->scanrelid = seq->scanrelid;
    is->indexid = path->ri->ri_oid;
    is->indexname = tdb_pstrdup(path->ri->ri_name);
    is->index_only = path->index_only;
    is->backward = path->backward;
    is->nkeys = n;
    is->keys = tdb_palloc0(sizeof(IndexKey) * (Size)Max(n, 1));
    for (int i = 0; i < n; i++) {
        IndexClause *ic = list_nth(path->clauses, i);

        is->keys[i] = ic->key;
        is->indexqualorig = tdb_lappend(is->indexqualorig, ic->shown);
    }
    is->indexexprs = path->info->exprs;
    for (int i = 0; i < list_length(cx->quals); i++) {
        Expr *q = list_nth(cx->quals, i);
        bool used = false;

        for (int k = 0; k < n && !used; k++)
            used = ((IndexClause *)list_nth(path->clauses, k))->orig == q;
        /* PostgreSQL drops from the Filter what the predicate implies */
        if (!used && !implied_by_predicate(path->info, q))
            filter = tdb_lappend(filter, q);
    }
    is->plan.targetlist = seq->plan.targetlist;
    is->plan.qual = filter;
    is->plan.scan_colnames = seq->plan.scan_colnames;
    is->plan.scan_refname = seq->plan.scan_refname;
    is->plan.plan_rows = seq->plan.plan_rows;
    is->plan.plan_width = seq->plan.plan_width;
    is->plan.startup_cost = path->startup;
    is->plan.total_cost = path->total;
    return &is->plan;
}

/*
 * The planner's view of rel's indexes (rd_indexes order): key columns as
 * expressions, expression columns, predicates -- the last two analyzed
 * from their SQL (parser/analyze.h) only when some index has them.
 */
static IndexInfo *
index_infos(IndexContext *cx)
{
    Relation rel = cx->rel;
    IndexInfo *infos = tdb_palloc0(sizeof(IndexInfo) * (Size)rel->rd_nindexes);
    List *exprs = NIL, *keycols = NIL;
    bool analyze = false;
    int next = 0;

    for (int i = 0; i < rel->rd_nindexes; i++)
        analyze |= rel->rd_indexes[i].ri_exprs != NULL ||
                   rel->rd_indexes[i].ri_pred != NULL;
    if (analyze)
        tdb_analyze_index_exprs(cx->root->glob->st, rel, &exprs, &keycols);
    for (int i = 0; i < rel->rd_nindexes; i++) {
        const RelationIndex *ri = &rel->rd_indexes[i];
        IndexInfo *ii = &infos[i];

        ii->ri = ri;
        for (int c = 0; c < ri->ri_natts; c++) {
            Expr *e;

            if (ri->ri_attnums[c] > 0) {
                const TupleAttr *att =
                    TupleDescAttr(rel->rd_att, ri->ri_attnums[c] - 1);

                e = (Expr *)tdb_make_var(cx->rtindex, ri->ri_attnums[c],
                                         att->atttypid, att->atttypmod, 0);
            } else {
                e = (Expr *)tdb_vars_to_rtindex(list_nth(exprs, next++),
                                                &cx->rtindex);
                ii->exprs = tdb_lappend(ii->exprs, e);
                e = tdb_eval_const_expressions(e);
            }
            if (c < INDEX_MAX_KEYS_PLANNER)
                ii->cols[c] = e;
        }
        if (ri->ri_pred != NULL) {
            Expr *pred = (Expr *)tdb_vars_to_rtindex(list_nth(exprs, next++),
                                                     &cx->rtindex);

            pred = tdb_canonicalize_qual(tdb_eval_const_expressions(pred));
            ii->pred = tdb_plan_conjuncts(pred, NIL);
        }
    }
    return infos;
}

/* The relation's single-column unique indexes' columns (PostgreSQL's
 * has_unique_index, for the selectivity of "="). */
static List *
unique_columns(Relation rel)
{
    List *cols = NIL;

    for (int i = 0; i < rel->rd_nindexes; i++) {
        const RelationIndex *ri = &rel->rd_indexes[i];

        if (ri->ri_unique && ri->ri_valid && ri->ri_nkeyatts == 1 &&
            ri->ri_attnums[0] > 0 && ri->ri_pred == NULL)
            cols = tdb_lappend_int(cols, ri->ri_attnums[0]);
    }
    return cols;
}

/* Pages of every table the query level reads (index_pages_fetched);
 * pages: those of rtindex's table, known already. */
static double
query_table_pages(PlannerInfo *root, int rtindex, double pages_known)
{
    double total = 0;

    for (int i = 0; i < list_length(root->q->rtable); i++) {
        RangeTblEntry *rte = list_nth(root->q->rtable, i);
        double pages = 0;

        if (i + 1 == rtindex)
            total += pages_known;
        else if (rte->rtekind == RTE_RELATION) {
            (void)tdb_plan_estimate_rows(root, i + 1, &pages);
            total += pages;
        }
    }
    return total;
}

Plan *
tdb_plan_index_scan(PlannerInfo *root, SeqScan *seq, int rtindex)
{
    Settings *settings = root->glob->st->settings;
    IndexContext cx;
    Relation rel;
    IndexPath best, ordered;
    bool have_best = false, have_ordered = false;
    double seq_startup = seq->plan.startup_cost,
           seq_total = seq->plan.total_cost;
    Plan *result = &seq->plan;
    IndexInfo *infos;

    rel = tdb_relation_open_by_oid(root->glob->st->xact, seq->relid,
                                   REL_LOCK_SHARE);
    if (rel->rd_nindexes == 0) {
        tdb_relation_close(rel);
        return result;
    }
    memset(&cx, 0, sizeof(cx));
    cx.root = root;
    cx.rtindex = rtindex;
    cx.rel = rel;
    cx.quals = seq->plan.qual;
    cx.tlist = seq->plan.targetlist;
    cx.tuples = tdb_plan_relation_rows(rel, &cx.pages);
    cx.unique_attnos = unique_columns(rel);
    cx.total_pages = query_table_pages(root, rtindex, cx.pages);
    /* the scan's rows with the unique indexes known */
    seq->plan.plan_rows =
        Max(1.0, rint(cx.tuples * tdb_plan_restriction_selectivity(
                                      cx.quals, cx.tuples, cx.unique_attnos)));
    if (!settings->enable_seqscan) {
        seq_startup += DISABLE_COST;
        seq_total += DISABLE_COST;
        seq->plan.startup_cost = seq_startup;
        seq->plan.total_cost = seq_total;
    }
    /* newest first, as PostgreSQL's index list is: on a cost tie the
     * path found first stays */
    infos = index_infos(&cx);
    for (int i = rel->rd_nindexes - 1; i >= 0; i--) {
        const RelationIndex *ri = &rel->rd_indexes[i];
        IndexPath path;
        bool backward = false, gives_order;

        if (!ri->ri_valid || !predicate_holds(&cx, &infos[i]))
            continue;
        memset(&path, 0, sizeof(path));
        path.info = &infos[i];
        path.ri = ri;
        path.clauses = match_index(&cx, &infos[i]);
        path.index_only =
            settings->enable_indexonlyscan && covers_columns(&cx, &infos[i]);
        gives_order =
            root->wanted_order != NIL &&
            index_gives_order(&cx, &infos[i], path.clauses, &backward);
        /* PostgreSQL builds a path for an index with conditions, a useful
         * order, all the columns, or a predicate the query implies */
        if (path.clauses == NIL && !gives_order && !path.index_only &&
            infos[i].pred == NIL)
            continue;
        cost_index_path(&cx, &path);
        if (path.clauses != NIL || path.index_only || infos[i].pred != NIL) {
            if (!have_best || path.total < best.total) {
                best = path;
                have_best = true;
            }
        }
        if (gives_order) {
            path.backward = backward;
            if (!have_ordered || path.total < ordered.total) {
                ordered = path;
                have_ordered = true;
            }
        }
    }
    if (have_best && best.total < seq_total) {
        result = make_index_plan(&cx, seq, &best);
        seq_startup = best.startup;
        seq_total = best.total;
    }
    if (have_ordered) {
        /* the cheapest path sorted, against the ordered path, for the
         * rows LIMIT reads */
        double rows = seq->plan.plan_rows, limit = root->wanted_limit;
        PathCost in = {seq_startup, seq_total};
        PathCost sorted = tdb_plan_add_sort_cost(in, rows, limit);
        PathCost idx = {ordered.startup, ordered.total};

        if (!settings->enable_sort)
            sorted.startup += DISABLE_COST, sorted.total += DISABLE_COST;
        if (tdb_plan_limited_cost(idx, rows, limit) <
            tdb_plan_limited_cost(sorted, rows, limit)) {
            result = make_index_plan(&cx, seq, &ordered);
            root->order_provided = true;
        }
    }
    tdb_relation_close(rel);
    return result;
}
