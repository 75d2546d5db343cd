/*
 * parse_cte.c -- WITH RECURSIVE's SEARCH and CYCLE clauses (SQL:2011,
 * PostgreSQL 14+), analyzed and rewritten into the recursive query the
 * way PostgreSQL's rewriter does (its documentation gives the rewrite):
 *
 *   WITH RECURSIVE t (c1, c2, c3) AS (A UNION [ALL] B)
 *     SEARCH DEPTH FIRST BY c1, c2 SET sqc
 *     CYCLE c1, c2 SET cmc TO v DEFAULT d USING cpa
 *
 * becomes the recursive query with the columns (c1, c2, c3, sqc, cmc,
 * cpa), where A's rows get
 *
 *   sqc = ARRAY[ROW(c1, c2)]            (BREADTH FIRST: ROW(0, c1, c2))
 *   cmc = d
 *   cpa = ARRAY[ROW(c1, c2)]
 *
 * and B's rows, made from a working-table row w,
 *
 *   sqc = w.sqc || ARRAY[ROW(c1, c2)]   (BREADTH: ROW(w.sqc.depth + 1, ...))
 *   cmc = CASE WHEN ROW(c1, c2) = ANY (w.cpa) THEN v ELSE d END
 *   cpa = w.cpa || ARRAY[ROW(c1, c2)]
 *
 * from the working-table rows with w.cmc <> v only: a row that closes a
 * cycle is returned, marked, and goes no further, so the recursion ends.
 * ROW(...) is a RowExpr (an anonymous record, types/record.c), the array
 * operations are record.c's TDB_RECORD_PATH_* functions, and `= ANY`
 * compares records field by field with NULL equal to NULL, as
 * PostgreSQL's record_eq does.  The working table B reads has the added
 * columns, so B may read w.cmc and w.cpa itself (and a SET / USING name
 * that is also a column of t makes a reference to it ambiguous, as in
 * PostgreSQL).
 *
 * A and B are changed in place when they are plain (no aggregation,
 * DISTINCT, ORDER BY, LIMIT, set operation, set-returning or volatile
 * select list, subquery in a SEARCH / CYCLE column): the added columns
 * are computed from their select-list expressions and the cycle test is
 * added to B's WHERE -- the plan PostgreSQL gets once it pulls its
 * rewrite's subqueries up.  Otherwise the term is wrapped in a subquery
 * ("*TLOCRN*", "*TROCRN*"; PostgreSQL's names) whose columns the added
 * ones read.  Wrapping moves the term one query level down; tupledb does
 * not resolve references to outer queries inside FROM subqueries (the
 * planner refuses them with 0A000), so no reference can change meaning.
 *
 * Validation and its errors are PostgreSQL 15's (parse_cte.c's
 * analyzeCTE and rewriteSearchCycle.c), in its order: the CYCLE marks
 * first (their common type, its equality and inequality), then, after
 * the query is analyzed, its shape and the clauses' column names, then
 * the recursive reference's place.
 *
 * Entry points (parse_int.h): tdb_search_cycle_begin,
 * tdb_search_cycle_columns, tdb_search_cycle_finish.
 */
#include "common/base.h"

#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "parser/analyze.h"
#include "parser/parse_int.h"

#define RECORDARRAYOID 2287

struct SearchCycle {
    PgQuery__CTESearchClause *search; /* NULL: no SEARCH */
    PgQuery__CTECycleClause *cycle;   /* NULL: no CYCLE */
    /* CYCLE: the mark values, coerced to their common type */
    Expr *mark_value;
    Expr *mark_default;
    Oid mark_type;
    int32 mark_typmod;
    const OperDesc *mark_ne; /* <> of mark_type */
};

static const char *
string_node(const PgQuery__Node *n)
{
    return n->string->sval;
}

SearchCycle *
tdb_search_cycle_begin(ParseState *ps, PgQuery__CommonTableExpr *cte)
{
    SearchCycle *sc;
    PgQuery__CTECycleClause *cc = cte->cycle_clause;
    const OperDesc *eq;

    if (cte->search_clause == NULL && cc == NULL)
        return NULL;
    sc = tdb_palloc0(sizeof(SearchCycle));
    sc->search = cte->search_clause;
    sc->cycle = cc;
    if (cc == NULL)
        return sc;
    /* the grammar allows constants only: no column can be read */
    sc->mark_value =
        tdb_transform_expr(ps, cc->cycle_mark_value, EXPR_KIND_NONE);
    sc->mark_default =
        tdb_transform_expr(ps, cc->cycle_mark_default, EXPR_KIND_NONE);
    sc->mark_type = tdb_select_common_type(
        ps, tdb_list_make2(sc->mark_value, sc->mark_default), "CYCLE");
    sc->mark_value =
        tdb_coerce_or_error(ps, sc->mark_value, sc->mark_type, -1,
                            CAST_IMPLICIT, exprLocation(sc->mark_value));
    sc->mark_default =
        tdb_coerce_or_error(ps, sc->mark_default, sc->mark_type, -1,
                            CAST_IMPLICIT, exprLocation(sc->mark_default));
    sc->mark_typmod = exprTypmod(sc->mark_value) == exprTypmod(sc->mark_default)
                          ? exprTypmod(sc->mark_value)
                          : -1;
    eq = tdb_oper_lookup("=", sc->mark_type, sc->mark_type);
    if (eq == NULL)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_FUNCTION),
                errmsg("could not identify an equality operator for type %s",
                       tdb_format_type(sc->mark_type, -1)));
    sc->mark_ne =
        eq->negator != NULL
            ? tdb_oper_lookup(eq->negator, sc->mark_type, sc->mark_type)
            : NULL;
    if (sc->mark_ne == NULL)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_FUNCTION),
                errmsg("could not identify an inequality operator for type "
                       "%s",
                       tdb_format_type(sc->mark_type, -1)));
    return sc;
}

void
tdb_search_cycle_columns(const SearchCycle *sc, List **colnames,
                         List **coltypes, List **coltypmods)
{
    if (sc->search != NULL) {
        *colnames = tdb_lappend(*colnames, sc->search->search_seq_column);
        *coltypes = tdb_lappend_int(*coltypes, sc->search->search_breadth_first
                                                   ? RECORDOID
                                                   : RECORDARRAYOID);
        *coltypmods = tdb_lappend_int(*coltypmods, -1);
    }
    if (sc->cycle != NULL) {
        *colnames = tdb_lappend(*colnames, sc->cycle->cycle_mark_column);
        *coltypes = tdb_lappend_int(*coltypes, (int)sc->mark_type);
        *coltypmods = tdb_lappend_int(*coltypmods, sc->mark_typmod);
        *colnames = tdb_lappend(*colnames, sc->cycle->cycle_path_column);
        *coltypes = tdb_lappend_int(*coltypes, RECORDARRAYOID);
        *coltypmods = tdb_lappend_int(*coltypmods, -1);
    }
}

/* ----------------------------------------------------------------------
 * Validation
 * ---------------------------------------------------------------------- */

static int
column_index(List *colnames, const char *name)
{
    for (int i = 0; i < list_length(colnames); i++)
        if (strcmp(list_nth(colnames, i), name) == 0)
            return i;
    return -1;
}

/* The clause's columns (String nodes) as 0-based indexes into colnames;
 * what = "search" / "cycle" names them in the errors. */
static List *
clause_columns(ParseState *ps, PgQuery__Node **cols, size_t n, List *colnames,
               const char *what, int location)
{
    List *result = NIL;

    for (size_t i = 0; i < n; i++) {
        const char *name = string_node(cols[i]);
        int idx = column_index(colnames, name);

        if (idx < 0)
            ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                    errmsg("%s column \"%s\" not in WITH query column list",
                           what, name),
                    errposition(parse_errpos(ps, location)));
        if (tdb_list_member_int(result, idx))
            ereport(
                ERROR, errcode(ERRCODE_DUPLICATE_COLUMN),
                errmsg("%s column \"%s\" specified more than once", what, name),
                errposition(parse_errpos(ps, location)));
        result = tdb_lappend_int(result, idx);
    }
    return result;
}

static void
name_not_used(ParseState *ps, List *colnames, const char *name,
              const char *what, int location)
{
    if (column_index(colnames, name) >= 0)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("%s column name \"%s\" already used in WITH query "
                       "column list",
                       what, name),
                errposition(parse_errpos(ps, location)));
}

static void
names_differ(ParseState *ps, const char *a, const char *b, const char *what,
             int location)
{
    if (strcmp(a, b) == 0)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR), errmsg("%s", what),
                errposition(parse_errpos(ps, location)));
}

/* ----------------------------------------------------------------------
 * The rewrite
 * ---------------------------------------------------------------------- */

/* What one term's added columns are computed from. */
typedef struct TermColumns {
    List *values; /* Expr per CTE column, as the term computes it */
    Expr *seq;    /* B: the working table's sqc, cmc, cpa (else NULL) */
    Expr *mark;
    Expr *path;
} TermColumns;

static Node *
copy_mutator(Node *node, void *arg)
{
    if (node == NULL)
        return NULL;
    return tdb_expr_mutate_children(node, copy_mutator, arg);
}

/* A copy of e (every node; no subqueries: the caller checked). */
static Expr *
copy_expr(Expr *e)
{
    return (Expr *)copy_mutator((Node *)e, NULL);
}

static bool
has_sublink(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if (IsA(node, SubLink))
        return true;
    return tdb_expr_walk_children(node, has_sublink, arg);
}

static bool
has_volatile(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if (IsA(node, FuncExpr) &&
        ((FuncExpr *)node)->func->volatility == PROVOLATILE_VOLATILE)
        return true;
    return tdb_expr_walk_children(node, has_volatile, arg);
}

/*
 * Can the added columns be computed from the term's own select list, as
 * PostgreSQL computes them once it pulls the rewrite's subquery up (its
 * is_simple_subquery)?  The columns they read must not hold a subquery,
 * which tupledb would then plan twice.
 */
static bool
plain_term(Query *t, List *read)
{
    List *vis = tdb_visible_targets(t);

    if (t->command != CMD_SELECT || t->set_operations != NULL ||
        t->rec_nonrecursive != NULL || t->has_aggs || t->group_clause != NIL ||
        t->having != NULL || t->distinct_clause != NIL ||
        t->sort_clause != NIL || t->limit_offset != NULL ||
        t->limit_count != NULL || t->has_target_srfs || t->cte_list != NIL ||
        list_length(vis) != list_length(t->target_list))
        return false;
    for (int i = 0; i < list_length(vis); i++) {
        TargetEntry *te = list_nth(vis, i);

        if (has_volatile((Node *)te->expr, NULL) ||
            (tdb_list_member_int(read, i) &&
             has_sublink((Node *)te->expr, NULL)))
            return false;
    }
    return true;
}

/* ROW(the columns at idx of values) -- with the depth first, if given. */
static Expr *
make_row(List *values, List *idx, Expr *depth)
{
    RowExpr *row = makeNode(RowExpr);

    row->xpr.type_oid = RECORDOID;
    row->xpr.typmod = -1;
    row->xpr.location = -1;
    if (depth != NULL)
        row->args = tdb_lappend(row->args, depth);
    for (int i = 0; i < list_length(idx); i++)
        row->args = tdb_lappend(
            row->args, copy_expr(list_nth(values, list_nth_int(idx, i))));
    return &row->xpr;
}

static Expr *
call(ParseState *ps, const char *fn, Expr *a, Expr *b)
{
    return tdb_make_func_call(
        ps, fn, b == NULL ? tdb_list_make1(a) : tdb_list_make2(a, b), -1);
}

/* The added columns' expressions for one term (tc), in column order. */
static List *
added_columns(ParseState *ps, const SearchCycle *sc, TermColumns *tc,
              List *search_idx, List *cycle_idx)
{
    List *exprs = NIL;

    if (sc->search != NULL) {
        Expr *e;

        if (sc->search->search_breadth_first) {
            /* ROW(depth, cols): 0, then the working row's depth + 1 */
            Expr *depth =
                tc->seq == NULL
                    ? (Expr *)tdb_make_const(INT8OID, -1, Int64GetDatum(0),
                                             false)
                    : tdb_make_op(
                          ps, "+",
                          call(ps, TDB_RECORD_PATH_DEPTH, tc->seq, NULL),
                          (Expr *)tdb_make_const(INT8OID, -1, Int64GetDatum(1),
                                                 false),
                          -1);

            e = make_row(tc->values, search_idx, depth);
        } else {
            Expr *row = make_row(tc->values, search_idx, NULL);

            e = tc->seq == NULL
                    ? call(ps, TDB_RECORD_PATH_START, row, NULL)
                    : call(ps, TDB_RECORD_PATH_APPEND, tc->seq, row);
        }
        exprs = tdb_lappend(exprs, e);
    }
    if (sc->cycle != NULL) {
        Expr *row = make_row(tc->values, cycle_idx, NULL);

        if (tc->path == NULL) {
            exprs = tdb_lappend(exprs, copy_expr(sc->mark_default));
            exprs =
                tdb_lappend(exprs, call(ps, TDB_RECORD_PATH_START, row, NULL));
        } else {
            CaseExpr *c = makeNode(CaseExpr);
            CaseWhen *w = makeNode(CaseWhen);

            w->expr = call(ps, TDB_RECORD_PATH_CONTAINS, row, tc->path);
            w->result = copy_expr(sc->mark_value);
            w->xpr.type_oid = sc->mark_type;
            w->xpr.typmod = sc->mark_typmod;
            w->xpr.location = -1;
            c->whens = tdb_list_make1(w);
            c->defresult = copy_expr(sc->mark_default);
            c->xpr.type_oid = sc->mark_type;
            c->xpr.typmod = sc->mark_typmod;
            c->xpr.location = -1;
            exprs = tdb_lappend(exprs, &c->xpr);
            exprs =
                tdb_lappend(exprs, call(ps, TDB_RECORD_PATH_APPEND, tc->path,
                                        make_row(tc->values, cycle_idx, NULL)));
        }
    }
    return exprs;
}

/* Insert exprs (named names) after t's visible columns. */
static void
append_columns(Query *t, List *exprs, List *names)
{
    List *tlist = tdb_visible_targets(t);
    int nvis = list_length(tlist);

    for (int i = 0; i < list_length(exprs); i++)
        tlist = tdb_lappend(
            tlist, tdb_make_target_entry(list_nth(exprs, i), nvis + i + 1,
                                         list_nth(names, i), false));
    for (int i = 0; i < list_length(t->target_list); i++) {
        TargetEntry *te = list_nth(t->target_list, i);

        if (te->resjunk) {
            te->resno = list_length(tlist) + 1;
            tlist = tdb_lappend(tlist, te);
        }
    }
    t->target_list = tlist;
}

/* A query reading term t as its only FROM item, a subquery named
 * refname with these columns; *values receives its Vars of them. */
static Query *
wrap_term(Query *t, const char *refname, List *colnames, List *coltypes,
          List *coltypmods, List **values)
{
    Query *w = makeNode(Query);
    RangeTblEntry *rte = makeNode(RangeTblEntry);
    RangeTblRef *ref = makeNode(RangeTblRef);

    rte->rtekind = RTE_SUBQUERY;
    rte->subquery = t;
    rte->refname = refname;
    rte->has_alias = true;
    rte->colnames = colnames;
    rte->coltypes = coltypes;
    rte->coltypmods = coltypmods;
    rte->in_from_clause = true;
    ref->rtindex = 1;
    w->command = CMD_SELECT;
    w->rtable = tdb_list_make1(rte);
    w->jointree = makeNode(FromExpr);
    w->jointree->fromlist = tdb_list_make1(ref);
    *values = NIL;
    for (int i = 0; i < list_length(colnames); i++)
        *values = tdb_lappend(
            *values, tdb_make_var(1, i + 1, (Oid)list_nth_int(coltypes, i),
                                  list_nth_int(coltypmods, i), 0));
    return w;
}

/* The first n of list. */
static List *
list_head_n(List *list, int n)
{
    List *result = NIL;

    for (int i = 0; i < n; i++)
        result = tdb_lappend(result, list_nth(list, i));
    return result;
}

/*
 * Add the columns to term t (the non-recursive term when wt_rtindex is 0,
 * else the recursive one, whose working table is range-table entry
 * wt_rtindex): in place when it is plain, else over a wrapper.  ncols:
 * the CTE's own columns; all*: with the added ones.  Returns the term to
 * use.
 */
static Query *
rewrite_term(ParseState *ps, const SearchCycle *sc, Query *t, int wt_rtindex,
             int ncols, List *allnames, List *alltypes, List *alltypmods,
             List *search_idx, List *cycle_idx)
{
    int nadded = list_length(allnames) - ncols;
    List *addnames = NIL;
    List *read =
        tdb_list_concat(tdb_list_copy(search_idx), tdb_list_copy(cycle_idx));
    TermColumns tc = {NIL, NULL, NULL, NULL};
    Query *result = t;
    Expr *mark = NULL;
    int a = ncols;

    for (int i = ncols; i < list_length(allnames); i++)
        addnames = tdb_lappend(addnames, list_nth(allnames, i));
    if (wt_rtindex > 0) {
        /* the working-table row's added columns */
        Var *wt[3] = {NULL, NULL, NULL};

        for (int k = 0; k < nadded; k++)
            wt[k] = tdb_make_var(wt_rtindex, ncols + k + 1,
                                 (Oid)list_nth_int(alltypes, ncols + k),
                                 list_nth_int(alltypmods, ncols + k), 0);
        if (plain_term(t, read)) {
            if (sc->search != NULL)
                tc.seq = (Expr *)wt[a++ - ncols];
            if (sc->cycle != NULL) {
                mark = (Expr *)wt[a++ - ncols];
                tc.path = (Expr *)wt[a++ - ncols];
            }
        } else {
            /* the term passes the working row's columns on; the wrapper
             * reads them */
            List *vars = NIL;

            for (int k = 0; k < nadded; k++)
                vars = tdb_lappend(vars, wt[k]);
            append_columns(t, vars, addnames);
            result = wrap_term(t, "*TROCRN*", allnames, alltypes, alltypmods,
                               &tc.values);
            if (sc->search != NULL)
                tc.seq = list_nth(tc.values, a++);
            if (sc->cycle != NULL) {
                mark = list_nth(tc.values, a++);
                tc.path = list_nth(tc.values, a++);
            }
            tc.values = list_head_n(tc.values, ncols);
        }
    } else if (!plain_term(t, read))
        result = wrap_term(t, "*TLOCRN*", list_head_n(allnames, ncols),
                           list_head_n(alltypes, ncols),
                           list_head_n(alltypmods, ncols), &tc.values);
    if (tc.values == NIL)
        for (int i = 0; i < ncols; i++)
            tc.values = tdb_lappend(
                tc.values,
                ((TargetEntry *)list_nth(tdb_visible_targets(t), i))->expr);
    if (result != t) {
        /* the wrapper: the CTE's columns, then the added ones */
        for (int i = 0; i < ncols; i++)
            result->target_list = tdb_lappend(
                result->target_list,
                tdb_make_target_entry(list_nth(tc.values, i), i + 1,
                                      list_nth(allnames, i), false));
        append_columns(result,
                       added_columns(ps, sc, &tc, search_idx, cycle_idx),
                       addnames);
    } else
        append_columns(t, added_columns(ps, sc, &tc, search_idx, cycle_idx),
                       addnames);
    if (mark != NULL) {
        /* only the rows that did not close a cycle go on */
        Expr *go_on = (Expr *)makeNode(OpExpr);

        ((OpExpr *)go_on)->op = sc->mark_ne;
        ((OpExpr *)go_on)->args =
            tdb_list_make2(mark, copy_expr(sc->mark_value));
        go_on->type_oid = BOOLOID;
        go_on->typmod = -1;
        go_on->location = -1;
        result->jointree->quals =
            result->jointree->quals == NULL
                ? go_on
                : tdb_make_bool_and(result->jointree->quals, go_on);
    }
    return result;
}

Query *
tdb_search_cycle_finish(ParseState *ps, const SearchCycle *sc,
                        PgQuery__CommonTableExpr *cte, Query *q, List *colnames,
                        List *allnames, List *alltypes, List *alltypmods)
{
    PgQuery__SelectStmt *sel = cte->ctequery->select_stmt;
    List *search_idx = NIL, *cycle_idx = NIL;
    int ncols = list_length(colnames);
    int wt_rtindex = 0;

    if (sel->larg->op != PG_QUERY__SET_OPERATION__SETOP_NONE)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("with a SEARCH or CYCLE clause, the left side of the "
                       "UNION must be a SELECT"));
    if (sel->rarg->op != PG_QUERY__SET_OPERATION__SETOP_NONE)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("with a SEARCH or CYCLE clause, the right side of "
                       "the UNION must be a SELECT"));
    if (sc->search != NULL) {
        search_idx = clause_columns(ps, sc->search->search_col_list,
                                    sc->search->n_search_col_list, colnames,
                                    "search", sc->search->location);
        name_not_used(ps, colnames, sc->search->search_seq_column,
                      "search sequence", sc->search->location);
    }
    if (sc->cycle != NULL) {
        cycle_idx = clause_columns(ps, sc->cycle->cycle_col_list,
                                   sc->cycle->n_cycle_col_list, colnames,
                                   "cycle", sc->cycle->location);
        name_not_used(ps, colnames, sc->cycle->cycle_mark_column, "cycle mark",
                      sc->cycle->location);
        name_not_used(ps, colnames, sc->cycle->cycle_path_column, "cycle path",
                      sc->cycle->location);
        names_differ(ps, sc->cycle->cycle_mark_column,
                     sc->cycle->cycle_path_column,
                     "cycle mark column name and cycle path column name are "
                     "the same",
                     sc->cycle->location);
    }
    if (sc->search != NULL && sc->cycle != NULL) {
        names_differ(ps, sc->search->search_seq_column,
                     sc->cycle->cycle_mark_column,
                     "search sequence column name and cycle mark column "
                     "name are the same",
                     sc->search->location);
        names_differ(ps, sc->search->search_seq_column,
                     sc->cycle->cycle_path_column,
                     "search sequence column name and cycle path column "
                     "name are the same",
                     sc->search->location);
    }
    /* the recursive reference: in the recursive term's own FROM */
    for (int i = 0; i < list_length(q->rec_recursive->rtable); i++) {
        RangeTblEntry *rte = list_nth(q->rec_recursive->rtable, i);

        if (rte->rtekind == RTE_WORKTABLE &&
            strcmp(rte->relname, cte->ctename) == 0)
            wt_rtindex = i + 1;
    }
    if (wt_rtindex == 0)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("with a SEARCH or CYCLE clause, the recursive "
                       "reference to WITH query \"%s\" must be at the top "
                       "level of its right-hand SELECT",
                       cte->ctename));
    q->rec_nonrecursive =
        rewrite_term(ps, sc, q->rec_nonrecursive, 0, ncols, allnames, alltypes,
                     alltypmods, search_idx, cycle_idx);
    q->rec_recursive =
        rewrite_term(ps, sc, q->rec_recursive, wt_rtindex, ncols, allnames,
                     alltypes, alltypmods, search_idx, cycle_idx);
    for (int i = ncols; i < list_length(allnames); i++)
        q->target_list = tdb_lappend(
            q->target_list,
            tdb_make_target_entry(
                (Expr *)tdb_make_var(0, i + 1, (Oid)list_nth_int(alltypes, i),
                                     list_nth_int(alltypmods, i), 0),
                i + 1, list_nth(allnames, i), false));
    return q;
}
