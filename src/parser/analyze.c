/*
 * analyze.c -- statement analysis: SELECT (with WITH, set operations and
 * VALUES), INSERT, UPDATE, DELETE, to Query trees (analyze.h).
 *
 * The clauses of a SELECT are analyzed in PostgreSQL's order -- FROM,
 * the target list, WHERE, ORDER BY, GROUP BY, HAVING, DISTINCT, LIMIT --
 * because later clauses may refer to what earlier ones made (ORDER BY an
 * output alias; GROUP BY adding a hidden target column).
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "common/stack_depth.h"
#include "parser/analyze.h"
#include "parser/parse_int.h"
#include "parser/parser.h"
#include "parser/system_views.h"

static Query *analyze_select(ParseState *ps, PgQuery__SelectStmt *sel);

static ParseState *
new_parse_state(Statement *st, ParseState *parent, List *ctes)
{
    ParseState *ps = tdb_palloc0(sizeof(ParseState));

    ps->st = st;
    ps->parent = parent;
    /* a copy: this level's WITH items must not leak into the caller's */
    ps->ctes = tdb_list_copy(ctes);
    ps->resolve_unknowns = true;
    return ps;
}

static Query *
new_query(CmdType command)
{
    Query *q = makeNode(Query);

    q->command = command;
    q->jointree = makeNode(FromExpr);
    return q;
}

Expr *
tdb_make_bool_and(Expr *a, Expr *b)
{
    BoolExpr *and = makeNode(BoolExpr);

    and->boolop = AND_EXPR;
    and->args = tdb_list_make2(a, b);
    and->xpr.type_oid = BOOLOID;
    and->xpr.typmod = -1;
    and->xpr.location = -1;
    return (Expr *)and;
}

CteItem *
tdb_find_cte(ParseState *ps, const char *name)
{
    for (ParseState *level = ps; level != NULL; level = level->parent)
        for (int i = list_length(level->ctes) - 1; i >= 0; i--) {
            CteItem *cte = list_nth(level->ctes, i);

            if (strcmp(cte->name, name) == 0)
                return cte;
        }
    return NULL;
}

Query *
tdb_analyze_subquery_in(Statement *st, ParseState *parent, List *ctes,
                        PgQuery__Node *stmt)
{
    ParseState *ps = new_parse_state(st, parent, ctes);

    if (stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("%s as a subquery is not supported yet",
                       tdb_sql_node_name(stmt)));
    return analyze_select(ps, stmt->select_stmt);
}

Query *
tdb_analyze_subquery(ParseState *parent, PgQuery__Node *stmt)
{
    return tdb_analyze_subquery_in(parent->st, parent, NIL, stmt);
}

/* ----------------------------------------------------------------------
 * WITH
 * ---------------------------------------------------------------------- */

/* A WITH item's query: its own level, seeing the earlier WITH items (and
 * the names of the later ones, for the forward-reference error). */
static Query *
analyze_cte_body(ParseState *ps, List *ctes, PgQuery__Node *stmt)
{
    ParseState *cps = new_parse_state(ps->st, ps->parent, ctes);

    if (stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("%s in WITH is not supported yet",
                       tdb_sql_node_name(stmt)));
    cps->with_names = ps->with_names;
    return analyze_select(cps, stmt->select_stmt);
}

/* A SelectStmt node wrapping sel (to analyze one arm of a UNION). */
static PgQuery__Node *
select_node(PgQuery__SelectStmt *sel)
{
    PgQuery__Node *node = tdb_palloc(sizeof(PgQuery__Node));

    pg_query__node__init(node);
    node->node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
    node->select_stmt = sel;
    return node;
}

/*
 * WITH RECURSIVE name AS (A UNION [ALL] B) where B reads name: the
 * non-recursive term A fixes the columns; B is analyzed with name
 * standing for the working table, which also has the columns a SEARCH or
 * CYCLE clause adds (sc, or NULL: parse_cte.c, which then rewrites the
 * query).  NULL if B does not read name (the caller analyzes the CTE as
 * an ordinary one).
 */
static Query *
analyze_recursive_cte(ParseState *ps, PgQuery__CommonTableExpr *cte,
                      const SearchCycle *sc)
{
    PgQuery__SelectStmt *sel = cte->ctequery->select_stmt;
    CteItem *self = tdb_palloc0(sizeof(CteItem));
    Query *nonrec, *rec, *q;
    List *vis, *rvis, *colnames;

    if (sel->op != PG_QUERY__SET_OPERATION__SETOP_UNION)
        return NULL;
    nonrec = analyze_cte_body(ps, ps->ctes, select_node(sel->larg));
    vis = tdb_visible_targets(nonrec);
    if (cte->n_aliascolnames > (size_t)list_length(vis))
        ereport(ERROR, errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
                errmsg("WITH query \"%s\" has %d columns available but "
                       "%d columns specified",
                       cte->ctename, list_length(vis),
                       (int)cte->n_aliascolnames),
                errposition(parse_errpos(ps, cte->location)));
    self->name = cte->ctename;
    for (int c = 0; c < list_length(vis); c++) {
        TargetEntry *te = list_nth(vis, c);
        const char *name = (size_t)c < cte->n_aliascolnames
                               ? cte->aliascolnames[c]->string->sval
                               : te->resname;

        self->colnames = tdb_lappend(self->colnames, (void *)name);
        self->coltypes = tdb_lappend_int(self->coltypes,
                                         (int)exprType(te->expr));
        self->coltypmods = tdb_lappend_int(self->coltypmods,
                                           exprTypmod(te->expr));
    }
    colnames = tdb_list_copy(self->colnames);
    if (sc != NULL)
        tdb_search_cycle_columns(sc, &self->colnames, &self->coltypes,
                                 &self->coltypmods);
    rec = analyze_cte_body(ps, tdb_lappend(tdb_list_copy(ps->ctes), self),
                           select_node(sel->rarg));
    if (!self->referenced)
        return NULL;
    rvis = tdb_visible_targets(rec);
    if (list_length(rvis) != list_length(vis))
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("each UNION query must have the same number of "
                       "columns"));
    q = new_query(CMD_SELECT);
    for (int c = 0; c < list_length(vis); c++) {
        TargetEntry *rte = list_nth(rvis, c);
        Oid type = (Oid)list_nth_int(self->coltypes, c);

        if (exprType(rte->expr) != type) {
            Expr *e = tdb_coerce_to(ps, rte->expr, type, -1, CAST_IMPLICIT,
                                    -1);

            if (e == NULL)
                ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
                        errmsg("recursive query \"%s\" column %d has type "
                               "%s in non-recursive term but type %s "
                               "overall",
                               cte->ctename, c + 1,
                               tdb_format_type(type, -1),
                               tdb_format_type(exprType(rte->expr), -1)),
                        errhint("Cast the output of the non-recursive term "
                                "to the correct type."));
            rte->expr = e;
        }
        q->target_list = tdb_lappend(
            q->target_list,
            tdb_make_target_entry((Expr *)tdb_make_var(0, c + 1, type, -1, 0),
                                  c + 1, list_nth(self->colnames, c), false));
    }
    q->rec_nonrecursive = nonrec;
    q->rec_recursive = rec;
    q->rec_all = sel->all;
    if (sc != NULL)
        q = tdb_search_cycle_finish(ps, sc, cte, q, colnames, self->colnames,
                                    self->coltypes, self->coltypmods);
    return q;
}

/* Analyze a WITH query's body and name its columns. */
static Query *
analyze_cte(CteItem *item)
{
    ParseState *ps = item->def_ps;
    PgQuery__CommonTableExpr *cte = item->def;
    SearchCycle *sc = tdb_search_cycle_begin(ps, cte);
    Query *q = NULL;

    tdb_check_stack_depth();

    if (item->def_recursive &&
        cte->ctequery->node_case == PG_QUERY__NODE__NODE_SELECT_STMT)
        q = analyze_recursive_cte(ps, cte, sc);
    if (q == NULL)
        q = analyze_cte_body(ps, item->def_ctes, cte->ctequery);
    if (sc != NULL && q->rec_nonrecursive == NULL)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("WITH query is not recursive"),
                errposition(parse_errpos(ps, cte->location)));
    if (cte->n_aliascolnames > (size_t)list_length(tdb_visible_targets(q)))
        ereport(ERROR, errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
                errmsg("WITH query \"%s\" has %d columns available but "
                       "%d columns specified",
                       cte->ctename, list_length(tdb_visible_targets(q)),
                       (int)cte->n_aliascolnames),
                errposition(parse_errpos(ps, cte->location)));
    for (size_t c = 0; c < cte->n_aliascolnames; c++) {
        int seen = 0;

        for (int t = 0; t < list_length(q->target_list); t++) {
            TargetEntry *te = list_nth(q->target_list, t);

            if (!te->resjunk && seen++ == (int)c)
                te->resname = cte->aliascolnames[c]->string->sval;
        }
    }
    return q;
}

Query *
tdb_reanalyze_cte(CteItem *cte)
{
    Statement *st = cte->def_ps->st;
    Query *q;

    /* an error here ends the statement, and the Statement with it */
    st->cte_copy_depth++;
    q = analyze_cte(cte);
    st->cte_copy_depth--;
    return q;
}

/* Analyze a WITH clause: its items become visible to the rest of the
 * level (ps->ctes).  Returns them, for finish_with. */
static List *
analyze_with(ParseState *ps, PgQuery__WithClause *with)
{
    List *items = NIL;

    if (with == NULL)
        return NIL;
    for (size_t i = 0; i < with->n_ctes; i++)
        ps->with_names = tdb_lappend(ps->with_names,
                                     with->ctes[i]->common_table_expr->ctename);
    for (size_t i = 0; i < with->n_ctes; i++) {
        PgQuery__CommonTableExpr *cte = with->ctes[i]->common_table_expr;
        CteItem *item = tdb_palloc0(sizeof(CteItem));
        CommonTableExpr *node = makeNode(CommonTableExpr);

        for (size_t j = 0; j < i; j++)
            if (strcmp(with->ctes[j]->common_table_expr->ctename,
                       cte->ctename) == 0)
                ereport(ERROR, errcode(ERRCODE_DUPLICATE_ALIAS),
                        errmsg("WITH query name \"%s\" specified more than "
                               "once",
                               cte->ctename),
                        errposition(parse_errpos(ps, cte->location)));
        item->name = cte->ctename;
        item->def_ps = ps;
        item->def_ctes = tdb_list_copy(ps->ctes);
        item->def = cte;
        item->def_recursive = with->recursive;
        item->query = analyze_cte(item);
        node->ctename = cte->ctename;
        node->ctequery = item->query;
        node->recursive = item->query->rec_nonrecursive != NULL;
        node->materialized =
            cte->ctematerialized ==
                    PG_QUERY__CTEMATERIALIZE__CTEMaterializeAlways
                ? CTE_MATERIALIZE_ALWAYS
            : cte->ctematerialized ==
                    PG_QUERY__CTEMATERIALIZE__CTEMaterializeNever
                ? CTE_MATERIALIZE_NEVER
                : CTE_MATERIALIZE_DEFAULT;
        item->cte = node;
        item->state = CTE_UNDECIDED;
        ps->ctes = tdb_lappend(ps->ctes, item);
        items = tdb_lappend(items, item);
    }
    ps->with_names = NIL;
    return items;
}

/* What query_has looks for. */
typedef enum QueryFind {
    FIND_VOLATILE,  /* a call of a volatile function */
    FIND_WORKTABLE, /* a reference to a recursive query's working table */
} QueryFind;

static bool query_has(Query *q, QueryFind what);

static bool
expr_has(Node *node, void *arg)
{
    QueryFind what = *(QueryFind *)arg;

    if (node == NULL)
        return false;
    if (what == FIND_VOLATILE && IsA(node, FuncExpr) &&
        ((FuncExpr *)node)->func->volatility == PROVOLATILE_VOLATILE)
        return true;
    if (IsA(node, SubLink) &&
        query_has((Query *)((SubLink *)node)->subselect, what))
        return true;
    return tdb_expr_walk_children(node, expr_has, arg);
}

static bool
jointree_has(Node *node, QueryFind what)
{
    if (node == NULL)
        return false;
    if (IsA(node, FromExpr)) {
        FromExpr *f = (FromExpr *)node;

        if (expr_has((Node *)f->quals, &what))
            return true;
        for (int i = 0; i < list_length(f->fromlist); i++)
            if (jointree_has(list_nth(f->fromlist, i), what))
                return true;
        return false;
    }
    if (IsA(node, JoinExpr))
        return expr_has((Node *)((JoinExpr *)node)->quals, &what) ||
               jointree_has(((JoinExpr *)node)->larg, what) ||
               jointree_has(((JoinExpr *)node)->rarg, what);
    return false;
}

/* Does q, or a query inside it (subqueries, sublinks, WITH queries),
 * hold what?  Another WITH query it only reads (RTE_CTE) is not looked
 * into: its rows are computed once, whatever it holds. */
static bool
query_has(Query *q, QueryFind what)
{
    if (q == NULL)
        return false;
    if (expr_has((Node *)q->target_list, &what) ||
        expr_has((Node *)q->returning, &what) ||
        expr_has((Node *)q->having, &what) ||
        expr_has((Node *)q->limit_offset, &what) ||
        expr_has((Node *)q->limit_count, &what) ||
        jointree_has((Node *)q->jointree, what) ||
        query_has(q->rec_nonrecursive, what) ||
        query_has(q->rec_recursive, what))
        return true;
    for (int i = 0; i < list_length(q->rtable); i++) {
        RangeTblEntry *rte = list_nth(q->rtable, i);

        switch (rte->rtekind) {
        case RTE_SUBQUERY:
            if (query_has(rte->subquery, what))
                return true;
            break;
        case RTE_FUNCTION:
            if (expr_has((Node *)rte->funcexpr, &what))
                return true;
            break;
        case RTE_VALUES:
            if (expr_has((Node *)rte->values_lists, &what))
                return true;
            break;
        case RTE_JOIN:
            if (expr_has((Node *)rte->joinaliasvars, &what))
                return true;
            break;
        case RTE_WORKTABLE:
            if (what == FIND_WORKTABLE)
                return true;
            break;
        case RTE_RELATION:
        case RTE_CTE:
            break;
        }
    }
    for (int i = 0; i < list_length(q->cte_list); i++)
        if (query_has(((CommonTableExpr *)list_nth(q->cte_list, i))->ctequery,
                      what))
            return true;
    return false;
}

/*
 * The end of the analysis of a level holding a WITH (items, from
 * analyze_with): every reference in the level and inside it has been
 * analyzed, so each WITH query's references are counted.  PostgreSQL
 * 12+'s rule decides, in WITH order, what they become:
 *
 *   - a query referenced once (or written NOT MATERIALIZED), that is not
 *     recursive and calls no volatile function, is inlined: each
 *     reference becomes a subquery of its own -- the first takes the
 *     analyzed body, the others a new analysis of it (a body read by
 *     several references that reads the working table of an enclosing
 *     recursive query is not inlined: that would read it twice);
 *   - otherwise it is computed once (q->cte_list) and every reference
 *     reads its rows (RTE_CTE);
 *   - a query nobody references is neither: it is never run.
 *
 * References are counted where they appear in the query text, not in
 * the copies an inlined body adds, as PostgreSQL counts them; what a
 * copy references is resolved by the state of the query it names
 * (add_cte_rte).
 */
static void
finish_with(List *items, Query *q)
{
    for (int i = 0; i < list_length(items); i++) {
        CteItem *item = list_nth(items, i);
        CommonTableExpr *cte = item->cte;
        bool inline_it =
            !cte->recursive &&
            (cte->materialized == CTE_MATERIALIZE_NEVER ||
             (cte->materialized == CTE_MATERIALIZE_DEFAULT &&
              cte->refcount == 1)) &&
            (cte->refcount <= 1 || !query_has(cte->ctequery, FIND_WORKTABLE)) &&
            !query_has(cte->ctequery, FIND_VOLATILE);

        if (item->placeholders == NIL || inline_it) {
            item->state = CTE_INLINED;
            for (int r = 0; r < list_length(item->placeholders); r++) {
                RangeTblEntry *rte = list_nth(item->placeholders, r);

                rte->rtekind = RTE_SUBQUERY;
                rte->cte = NULL;
                rte->subquery = r == 0 ? item->query : tdb_reanalyze_cte(item);
            }
        } else {
            item->state = CTE_MATERIALIZED;
            q->cte_list = tdb_lappend(q->cte_list, cte);
        }
        item->placeholders = NIL;
    }
}

/* ----------------------------------------------------------------------
 * SELECT
 * ---------------------------------------------------------------------- */

/* The first Var of this query level in an expression, or NULL. */
static bool
find_local_var(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if (IsA(node, Var) && ((Var *)node)->varlevelsup == 0) {
        *(Var **)arg = (Var *)node;
        return true;
    }
    return tdb_expr_walk_children(node, find_local_var, arg);
}

static Expr *
transform_limit(ParseState *ps, PgQuery__Node *node, ExprKind kind,
                const char *clause)
{
    Expr *e;
    Var *var = NULL;

    if (node == NULL)
        return NULL;
    e = tdb_transform_expr(ps, node, kind);
    if (find_local_var((Node *)e, &var))
        ereport(ERROR, errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
                errmsg("argument of %s must not contain variables", clause),
                errposition(parse_errpos(ps, var->xpr.location)));
    if (exprType(e) != INT8OID) {
        Expr *c = tdb_coerce_to(ps, e, INT8OID, -1, CAST_IMPLICIT,
                                exprLocation(e));

        if (c == NULL)
            ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
                    errmsg("argument of %s must be type bigint, not type %s",
                           clause, tdb_format_type(exprType(e), -1)),
                    errposition(parse_errpos(ps, exprLocation(e))));
        e = c;
    }
    return e;
}

/* SELECT DISTINCT: every visible column, ORDER BY items among them. */
static List *
transform_distinct(ParseState *ps, Query *q)
{
    List *result = NIL;

    for (int i = 0; i < list_length(q->sort_clause); i++) {
        SortGroupClause *sgc = list_nth(q->sort_clause, i);

        for (int t = 0; t < list_length(q->target_list); t++) {
            TargetEntry *te = list_nth(q->target_list, t);

            if (te->ressortgroupref == sgc->tle_ref && te->resjunk)
                ereport(ERROR, errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
                        errmsg("for SELECT DISTINCT, ORDER BY expressions "
                               "must appear in select list"),
                        errposition(parse_errpos(ps,
                                                 exprLocation(te->expr))));
        }
        result = tdb_lappend(result, sgc);
    }
    for (int t = 0; t < list_length(q->target_list); t++) {
        TargetEntry *te = list_nth(q->target_list, t);
        bool present = false;

        if (te->resjunk)
            continue;
        for (int i = 0; i < list_length(result); i++)
            if (((SortGroupClause *)list_nth(result, i))->tle_ref ==
                    te->ressortgroupref &&
                te->ressortgroupref != 0)
                present = true;
        if (!present)
            result = tdb_lappend(result,
                                 tdb_make_sortgroup(ps, te, q->target_list,
                                                    false, false, -1));
    }
    return result;
}

static Query *analyze_set_operation(ParseState *ps, PgQuery__SelectStmt *sel);
static Query *analyze_values(ParseState *ps, PgQuery__SelectStmt *sel);

static Query *analyze_select_body(ParseState *ps, PgQuery__SelectStmt *sel);

static Query *
analyze_select(ParseState *ps, PgQuery__SelectStmt *sel)
{
    List *with = analyze_with(ps, sel->with_clause);
    Query *q = analyze_select_body(ps, sel);

    finish_with(with, q);
    return q;
}

static Query *
analyze_select_body(ParseState *ps, PgQuery__SelectStmt *sel)
{
    Query *q;

    tdb_check_stack_depth();
    if (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE &&
        sel->op != PG_QUERY__SET_OPERATION__SET_OPERATION_UNDEFINED)
        return analyze_set_operation(ps, sel);
    if (sel->n_values_lists > 0)
        return analyze_values(ps, sel);
    if (sel->into_clause != NULL)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("SELECT INTO is not supported yet"));
    if (sel->n_window_clause > 0 || sel->n_locking_clause > 0)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("WINDOW and FOR UPDATE/SHARE are not supported yet"));
    if (sel->limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("FETCH ... WITH TIES is not supported yet"));

    q = new_query(CMD_SELECT);
    q->jointree =
        tdb_transform_from_clause(ps, sel->from_clause, sel->n_from_clause);
    q->target_list = tdb_transform_target_list(
        ps, sel->target_list, sel->n_target_list, EXPR_KIND_SELECT_TARGET);
    if (ps->resolve_unknowns)
        tdb_resolve_unknown_targets(ps, q->target_list);
    q->jointree->quals = tdb_transform_where(ps, sel->where_clause,
                                             EXPR_KIND_WHERE, "WHERE");
    q->sort_clause = tdb_transform_sort_clause(ps, sel->sort_clause,
                                               sel->n_sort_clause,
                                               &q->target_list);
    q->group_clause = tdb_transform_group_clause(ps, sel->group_clause,
                                                 sel->n_group_clause,
                                                 &q->target_list);
    q->having = tdb_transform_where(ps, sel->having_clause, EXPR_KIND_HAVING,
                                    "HAVING");
    if (sel->n_distinct_clause > 0) {
        if (sel->n_distinct_clause > 1 ||
            (sel->distinct_clause[0] != NULL &&
             sel->distinct_clause[0]->node_case !=
                 PG_QUERY__NODE__NODE__NOT_SET)) {
            q->distinct_clause = tdb_transform_distinct_on(
                ps, sel->distinct_clause, sel->n_distinct_clause,
                &q->target_list, q->sort_clause);
            q->has_distinct_on = true;
        } else
            q->distinct_clause = transform_distinct(ps, q);
    }
    q->limit_offset = transform_limit(ps, sel->limit_offset, EXPR_KIND_OFFSET,
                                      "OFFSET");
    q->limit_count = transform_limit(ps, sel->limit_count, EXPR_KIND_LIMIT,
                                     "LIMIT");
    q->rtable = ps->rtable;
    q->has_aggs = ps->has_aggs;
    q->has_sublinks = ps->has_sublinks;
    q->has_target_srfs = ps->has_srfs;
    if (q->has_aggs || q->group_clause != NIL || q->having != NULL)
        tdb_check_grouping(ps, q);
    return q;
}

/* SELECT-level VALUES (...), (...): a VALUES range-table entry. */
static Query *
analyze_values(ParseState *ps, PgQuery__SelectStmt *sel)
{
    Query *q = new_query(CMD_SELECT);
    RangeTblEntry *rte = makeNode(RangeTblEntry);
    List *rows = NIL;
    int ncols = -1;
    RangeTblRef *ref = makeNode(RangeTblRef);
    NamespaceItem *item = tdb_palloc(sizeof(NamespaceItem));

    for (size_t r = 0; r < sel->n_values_lists; r++) {
        PgQuery__List *row = sel->values_lists[r]->list;
        List *exprs = NIL;

        if (ncols >= 0 && (int)row->n_items != ncols)
            ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                    errmsg("VALUES lists must all be the same length"));
        ncols = (int)row->n_items;
        for (size_t c = 0; c < row->n_items; c++)
            exprs = tdb_lappend(exprs,
                                tdb_transform_expr(ps, row->items[c],
                                                   EXPR_KIND_VALUES));
        rows = tdb_lappend(rows, exprs);
    }
    rte->rtekind = RTE_VALUES;
    rte->refname = "*VALUES*";
    for (int c = 0; c < ncols; c++) {
        List *column = NIL;
        Oid type;
        char name[32];

        for (int r = 0; r < list_length(rows); r++)
            column = tdb_lappend(column, list_nth(list_nth(rows, r), c));
        type = tdb_select_common_type(ps, column, "VALUES");
        for (int r = 0; r < list_length(rows); r++) {
            List *row = list_nth(rows, r);
            Expr *e = list_nth(row, c);

            row->elements[c].ptr = tdb_coerce_or_error(
                ps, e, type, -1, CAST_IMPLICIT, exprLocation(e));
        }
        snprintf(name, sizeof(name), "column%d", c + 1);
        rte->colnames = tdb_lappend(rte->colnames,
                                    tdb_mcxt_strdup(tdb_current_mcxt, name));
        rte->coltypes = tdb_lappend_int(rte->coltypes, (int)type);
        rte->coltypmods = tdb_lappend_int(rte->coltypmods, -1);
    }
    rte->values_lists = rows;
    rte->in_from_clause = true;
    ref->rtindex = tdb_add_rte(ps, rte);
    q->jointree->fromlist = tdb_list_make1(ref);
    item->rtindex = ref->rtindex;
    item->cols_visible = item->rel_visible = true;
    ps->namespace = tdb_list_make1(item);
    for (int c = 0; c < ncols; c++)
        q->target_list = tdb_lappend(
            q->target_list,
            tdb_make_target_entry(
                (Expr *)tdb_make_var(ref->rtindex, c + 1,
                                     (Oid)list_nth_int(rte->coltypes, c), -1,
                                     0),
                c + 1, list_nth(rte->colnames, c), false));
    q->sort_clause = tdb_transform_sort_clause(ps, sel->sort_clause,
                                               sel->n_sort_clause,
                                               &q->target_list);
    q->limit_offset = transform_limit(ps, sel->limit_offset, EXPR_KIND_OFFSET,
                                      "OFFSET");
    q->limit_count = transform_limit(ps, sel->limit_count, EXPR_KIND_LIMIT,
                                     "LIMIT");
    q->rtable = ps->rtable;
    return q;
}

/* ----------------------------------------------------------------------
 * Set operations
 * ---------------------------------------------------------------------- */

static const char *
setop_name(PgQuery__SetOperation op)
{
    return op == PG_QUERY__SET_OPERATION__SETOP_UNION       ? "UNION"
           : op == PG_QUERY__SET_OPERATION__SETOP_INTERSECT ? "INTERSECT"
                                                            : "EXCEPT";
}

/* Visible target entries of a leaf query. */
List *
tdb_visible_targets(Query *q)
{
    List *result = NIL;

    for (int i = 0; i < list_length(q->target_list); i++) {
        TargetEntry *te = list_nth(q->target_list, i);

        if (!te->resjunk)
            result = tdb_lappend(result, te);
    }
    return result;
}

/* Coerce column c of every leaf under node to type. */
static void
coerce_leaves(ParseState *ps, Node *node, int c, Oid type)
{
    tdb_check_stack_depth();

    if (IsA(node, SetOperationStmt)) {
        coerce_leaves(ps, ((SetOperationStmt *)node)->larg, c, type);
        coerce_leaves(ps, ((SetOperationStmt *)node)->rarg, c, type);
        return;
    }
    {
        RangeTblEntry *rte =
            list_nth(ps->rtable, ((RangeTblRef *)node)->rtindex - 1);
        TargetEntry *te = list_nth(tdb_visible_targets(rte->subquery), c);

        te->expr = tdb_coerce_or_error(ps, te->expr, type, -1, CAST_IMPLICIT,
                                       exprLocation(te->expr));
        rte->coltypes->elements[c].ival = (int)type;
    }
}

/* Per column of node's result, a representative expression: a leaf's
 * visible target, or a set operation's recorded one. */
static List *
result_exprs(ParseState *ps, Node *node)
{
    List *exprs = NIL;
    RangeTblEntry *rte;
    List *vis;

    if (IsA(node, SetOperationStmt))
        return ((SetOperationStmt *)node)->colexprs;
    rte = list_nth(ps->rtable, ((RangeTblRef *)node)->rtindex - 1);
    vis = tdb_visible_targets(rte->subquery);
    for (int i = 0; i < list_length(vis); i++)
        exprs = tdb_lappend(exprs, ((TargetEntry *)list_nth(vis, i))->expr);
    return exprs;
}

static Node *
transform_setop_tree(ParseState *ps, PgQuery__SelectStmt *sel)
{
    SetOperationStmt *op;
    List *lexprs, *rexprs;

    tdb_check_stack_depth();

    if (sel->op == PG_QUERY__SET_OPERATION__SETOP_NONE ||
        sel->op == PG_QUERY__SET_OPERATION__SET_OPERATION_UNDEFINED) {
        ParseState *lps = new_parse_state(ps->st, ps->parent, ps->ctes);
        Query *leaf;
        List *ns = NIL;
        char name[32];

        /* unknown literals stay unknown: the set operation types them */
        lps->resolve_unknowns = false;
        leaf = analyze_select(lps, sel);
        snprintf(name, sizeof(name), "*SELECT* %d",
                 list_length(ps->rtable) + 1);
        return tdb_add_subquery_rte(ps, leaf,
                                    tdb_mcxt_strdup(tdb_current_mcxt, name),
                                    NULL, &ns);
    }
    op = makeNode(SetOperationStmt);
    op->op = sel->op == PG_QUERY__SET_OPERATION__SETOP_UNION ? SETOP_UNION
             : sel->op == PG_QUERY__SET_OPERATION__SETOP_INTERSECT
                 ? SETOP_INTERSECT
                 : SETOP_EXCEPT;
    op->all = sel->all;
    op->larg = transform_setop_tree(ps, sel->larg);
    op->rarg = transform_setop_tree(ps, sel->rarg);
    lexprs = result_exprs(ps, op->larg);
    rexprs = result_exprs(ps, op->rarg);
    if (list_length(lexprs) != list_length(rexprs))
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("each %s query must have the same number of columns",
                       setop_name(sel->op)),
                errposition(parse_errpos(
                    ps, rexprs != NIL ? exprLocation(linitial(rexprs))
                                      : -1)));
    for (int c = 0; c < list_length(lexprs); c++) {
        Expr *l = list_nth(lexprs, c), *r = list_nth(rexprs, c);
        Oid type = tdb_select_common_type(ps, tdb_list_make2(l, r),
                                          setop_name(sel->op));

        if (exprType(l) != type)
            coerce_leaves(ps, op->larg, c, type);
        if (exprType(r) != type)
            coerce_leaves(ps, op->rarg, c, type);
        op->coltypes = tdb_lappend_int(op->coltypes, (int)type);
        op->coltypmods = tdb_lappend_int(op->coltypmods, -1);
    }
    /* representatives, after coercion: the leftmost branch's */
    op->colexprs = result_exprs(ps, op->larg);
    return (Node *)op;
}

/* The leftmost leaf's RTE (its column names name the result). */
static RangeTblEntry *
leftmost_leaf(ParseState *ps, Node *node)
{
    while (IsA(node, SetOperationStmt))
        node = ((SetOperationStmt *)node)->larg;
    return list_nth(ps->rtable, ((RangeTblRef *)node)->rtindex - 1);
}

static Query *
analyze_set_operation(ParseState *ps, PgQuery__SelectStmt *sel)
{
    Query *q = new_query(CMD_SELECT);
    SetOperationStmt *top;
    RangeTblEntry *first;
    List *saved_ns;

    /* the ORDER BY / LIMIT belong to the whole set operation */
    PgQuery__Node **sort = sel->sort_clause;
    size_t nsort = sel->n_sort_clause;
    PgQuery__Node *limit_count = sel->limit_count;
    PgQuery__Node *limit_offset = sel->limit_offset;

    top = (SetOperationStmt *)transform_setop_tree(ps, sel);
    first = leftmost_leaf(ps, (Node *)top);
    for (int c = 0; c < list_length(top->coltypes); c++) {
        Var *v = tdb_make_var(0, c + 1, (Oid)list_nth_int(top->coltypes, c),
                              -1, 0);

        q->target_list = tdb_lappend(
            q->target_list,
            tdb_make_target_entry((Expr *)v, c + 1,
                                  list_nth(first->colnames, c), false));
    }
    saved_ns = ps->namespace;
    ps->namespace = NIL;
    q->sort_clause =
        tdb_transform_sort_clause(ps, sort, nsort, &q->target_list);
    for (int i = 0; i < list_length(q->target_list); i++)
        if (((TargetEntry *)list_nth(q->target_list, i))->resjunk)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("invalid UNION/INTERSECT/EXCEPT ORDER BY clause"),
                    errdetail("Only result column names can be used, not "
                              "expressions or functions."));
    ps->namespace = saved_ns;
    q->limit_offset =
        transform_limit(ps, limit_offset, EXPR_KIND_OFFSET, "OFFSET");
    q->limit_count = transform_limit(ps, limit_count, EXPR_KIND_LIMIT, "LIMIT");
    q->set_operations = top;
    q->rtable = ps->rtable;
    return q;
}

/* ----------------------------------------------------------------------
 * INSERT, UPDATE, DELETE
 * ---------------------------------------------------------------------- */

/*
 * A system view as the target of q: refused as PostgreSQL refuses a
 * role that is not a superuser writing its catalog -- 42501 for what is
 * a table there (pg_class, pg_description, ...) -- or, for what is a
 * view there too (pg_roles), as its rewriter refuses a view that is not
 * automatically updatable (55000, whoever asks).  tupledb takes writes
 * to the system's relations from nobody (the stored catalogs are
 * refused in open_target): they are the catalog's business.
 */
static void
refuse_system_view_target(ParseState *ps, const PgQuery__RangeVar *rv,
                          CmdType command)
{
    const SystemView *view =
        tdb_system_view_lookup(ps->st, rv->schemaname, rv->relname);
    const char *verb, *gerund, *event;

    if (view == NULL)
        return;
    if (!tdb_system_view_is_view(view))
        ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                errmsg("permission denied for table %s",
                       tdb_system_view_name(view)));
    verb = command == CMD_INSERT   ? "insert into"
           : command == CMD_UPDATE ? "update"
                                   : "delete from";
    gerund = command == CMD_INSERT   ? "inserting into"
             : command == CMD_UPDATE ? "updating"
                                     : "deleting from";
    event = command == CMD_INSERT   ? "INSERT"
            : command == CMD_UPDATE ? "UPDATE"
                                    : "DELETE";
    ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
            errmsg("cannot %s view \"%s\"", verb, tdb_system_view_name(view)),
            errdetail("Views that do not select from a single table or view "
                      "are not automatically updatable."),
            errhint("To enable %s the view, provide an INSTEAD OF %s trigger "
                    "or an unconditional ON %s DO INSTEAD rule.",
                    gerund, event, event));
}

/* The target table, opened, as an RTE (not in the namespace yet). */
static Relation
open_target(ParseState *ps, PgQuery__RangeVar *rv, Query *q)
{
    Relation rel;
    RangeTblEntry *rte;

    refuse_system_view_target(ps, rv, q->command);
    TDB_TRY();
    {
        rel = tdb_relation_open(ps->st->xact, rv->relname, REL_LOCK_SHARE);
    }
    TDB_CATCH();
    {
        ErrorData e = *tdb_error_current();

        tdb_error_flush();
        ereport(ERROR, errcode(e.sqlerrcode), errmsg("%s", e.message),
                errposition(parse_errpos(ps, rv->location)));
    }
    TDB_END_TRY();
    if (rel->rd_id < FirstNormalObjectId)
        ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                errmsg("permission denied for table %s", rel->rd_name));
    rte = tdb_make_relation_rte(ps, rel, rv->relname);
    if (rv->alias != NULL) {
        rte->refname = rv->alias->aliasname;
        rte->has_alias = true;
    }
    q->result_relation = tdb_add_rte(ps, rte);
    ps->target_rel = rel;
    return rel;
}

/* UPDATE / DELETE scan their target: it is the FROM clause. */
static void
scan_target(Query *q)
{
    RangeTblRef *ref = makeNode(RangeTblRef);

    ref->rtindex = q->result_relation;
    q->jointree->fromlist = tdb_list_make1(ref);
}

static void
add_target_to_namespace(ParseState *ps, Query *q)
{
    NamespaceItem *item = tdb_palloc(sizeof(NamespaceItem));

    item->rtindex = q->result_relation;
    item->cols_visible = item->rel_visible = true;
    ps->namespace = tdb_lappend(ps->namespace, item);
}

/* Parse "SELECT <sql>" and return the expression's parse tree; the
 * statement copy in *st points its text at the new string (positions). */
static PgQuery__Node *
parse_expression_text(Statement *st, const char *sql)
{
    Size len = strlen(sql) + 8;
    char *select = tdb_palloc(len);
    ParsedScript *script;

    snprintf(select, len, "SELECT %s", sql);
    script = tdb_sql_parse(select);
    st->text = select;
    return script->statements[0].stmt->select_stmt->target_list[0]
        ->res_target->val;
}

static bool
count_vars(Node *node, void *arg)
{
    List **attnos = arg;

    if (node == NULL)
        return false;
    if (IsA(node, Var)) {
        if (!tdb_list_member_int(*attnos, ((Var *)node)->varattno))
            *attnos = tdb_lappend_int(*attnos, ((Var *)node)->varattno);
        return false;
    }
    return tdb_expr_walk_children(node, count_vars, arg);
}

/* Analyze a CHECK expression with rel as range-table entry `rtindex` of
 * ps (already added). */
static Expr *
analyze_check_in(ParseState *ps, const char *sql)
{
    Statement st = *ps->st;
    ParseState *cps = new_parse_state(&st, NULL, NIL);
    PgQuery__Node *raw = parse_expression_text(&st, sql);
    Expr *e;

    cps->rtable = ps->rtable;
    cps->namespace = ps->namespace;
    e = tdb_transform_expr(cps, raw, EXPR_KIND_CHECK_CONSTRAINT);
    if (exprType(e) != BOOLOID) {
        Expr *b = tdb_coerce_to(cps, e, BOOLOID, -1, CAST_IMPLICIT, -1);

        if (b == NULL)
            ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
                    errmsg("argument of CHECK must be type "
                           "boolean, not type %s",
                           tdb_format_type(exprType(e), -1)));
        e = b;
    }
    if (cps->has_aggs)
        ereport(ERROR, errcode(ERRCODE_GROUPING_ERROR),
                errmsg("aggregate functions are not allowed in check "
                       "constraints"));
    return e;
}

Expr *
tdb_analyze_check(Statement *st, Relation rel, const char *sql, int *nvars,
                  int *attno)
{
    ParseState *ps = new_parse_state(st, NULL, NIL);
    NamespaceItem *item = tdb_palloc(sizeof(NamespaceItem));
    List *attnos = NIL;
    Expr *e;

    item->rtindex = tdb_add_rte(ps, tdb_make_relation_rte(ps, rel, NULL));
    item->cols_visible = item->rel_visible = true;
    ps->namespace = tdb_list_make1(item);
    e = analyze_check_in(ps, sql);
    count_vars((Node *)e, &attnos);
    *nvars = list_length(attnos);
    *attno = attnos != NIL ? list_nth_int(attnos, 0) : 0;
    return e;
}

Expr *
tdb_analyze_copy_where(Statement *st, Relation rel, PgQuery__Node *raw)
{
    ParseState *ps = new_parse_state(st, NULL, NIL);
    NamespaceItem *item = tdb_palloc(sizeof(NamespaceItem));

    item->rtindex = tdb_add_rte(ps, tdb_make_relation_rte(ps, rel, NULL));
    item->cols_visible = item->rel_visible = true;
    ps->namespace = tdb_list_make1(item);
    return tdb_transform_where(ps, raw, EXPR_KIND_COPY_WHERE, "WHERE");
}

Expr *
tdb_analyze_default(Statement *st, PgQuery__Node *raw, Oid typid,
                    int32 typmod)
{
    ParseState *ps = new_parse_state(st, NULL, NIL);
    Expr *e = tdb_transform_expr(ps, raw, EXPR_KIND_COLUMN_DEFAULT);

    return tdb_coerce_or_error(ps, e, typid, typmod, CAST_ASSIGNMENT,
                               exprLocation(e));
}

Expr *
tdb_analyze_rel_expr(Statement *st, Relation rel, const char *sql)
{
    ParseState *ps = new_parse_state(st, NULL, NIL);
    NamespaceItem *item = tdb_palloc(sizeof(NamespaceItem));
    PgQuery__Node *raw;

    item->rtindex = tdb_add_rte(ps, tdb_make_relation_rte(ps, rel, NULL));
    item->cols_visible = item->rel_visible = true;
    ps->namespace = tdb_list_make1(item);
    raw = parse_expression_text(st, sql);
    return tdb_transform_expr(ps, raw, EXPR_KIND_CHECK_CONSTRAINT);
}

int
tdb_analyze_rel_exprs(Statement *st, Relation rel, const char *sql,
                      Expr ***exprs)
{
    ParseState *ps = new_parse_state(st, NULL, NIL);
    NamespaceItem *item = tdb_palloc(sizeof(NamespaceItem));
    Size len = strlen(sql) + 8;
    char *select = tdb_palloc(len);
    PgQuery__SelectStmt *sel;

    item->rtindex = tdb_add_rte(ps, tdb_make_relation_rte(ps, rel, NULL));
    item->cols_visible = item->rel_visible = true;
    ps->namespace = tdb_list_make1(item);
    snprintf(select, len, "SELECT %s", sql);
    sel = tdb_sql_parse(select)->statements[0].stmt->select_stmt;
    st->text = select;
    *exprs = tdb_palloc(sizeof(Expr *) * Max(sel->n_target_list, 1));
    for (size_t i = 0; i < sel->n_target_list; i++)
        (*exprs)[i] =
            tdb_transform_expr(ps, sel->target_list[i]->res_target->val,
                               EXPR_KIND_CHECK_CONSTRAINT);
    return (int)sel->n_target_list;
}

void
tdb_analyze_index_exprs(Statement *st, Relation rel, List **exprs,
                        List **keycols)
{
    /* the analyses below parse stored text: st's own text stays */
    const char *saved = st->text;

    *exprs = NIL;
    *keycols = NIL;
    for (int i = 0; i < rel->rd_nindexes; i++) {
        const RelationIndex *ri = &rel->rd_indexes[i];
        Expr **cols = NULL;
        int next = 0;
        Size len = 0;
        char *list = tdb_palloc(1);

        list[0] = '\0';
        if (ri->ri_exprs != NULL)
            (void)tdb_analyze_rel_exprs(st, rel, ri->ri_exprs, &cols);
        for (int c = 0; c < ri->ri_natts; c++) {
            Expr *e = ri->ri_attnums[c] == 0 ? cols[next++] : NULL;
            char *one;

            if (e != NULL)
                *exprs = tdb_lappend(*exprs, e);
            if (c >= ri->ri_nkeyatts)
                continue;
            one = tdb_deparse_index_column(rel, ri, c, e, true);
            len += strlen(one) + 2;
            list = tdb_repalloc(list, len + 1);
            if (c > 0)
                strcat(list, ", ");
            strcat(list, one);
        }
        if (ri->ri_pred != NULL)
            *exprs =
                tdb_lappend(*exprs, tdb_analyze_rel_expr(st, rel, ri->ri_pred));
        *keycols = tdb_lappend(*keycols, list);
    }
    st->text = saved;
}

/* Vars of range-table entry 1 moved to entry *arg (a copy). */
Node *
tdb_vars_to_rtindex(Node *node, void *arg)
{
    if (node == NULL)
        return NULL;
    if (IsA(node, Var) && ((Var *)node)->varlevelsup == 0) {
        Var *v = (Var *)tdb_copy_node_shallow(node);

        v->varno = *(int *)arg;
        return (Node *)v;
    }
    return tdb_expr_mutate_children(node, tdb_vars_to_rtindex, arg);
}

/* The target's CHECK constraints and index expressions, for INSERT /
 * UPDATE. */
static void
add_checks(ParseState *ps, Query *q, Relation rel)
{
    List *exprs;

    tdb_analyze_index_exprs(ps->st, rel, &exprs, &q->index_keycols);
    for (int i = 0; i < list_length(exprs); i++)
        q->index_exprs = tdb_lappend(
            q->index_exprs,
            tdb_vars_to_rtindex(list_nth(exprs, i), &q->result_relation));
    for (int i = 0; i < rel->rd_nchecks; i++) {
        q->check_exprs = tdb_lappend(q->check_exprs,
                                     analyze_check_in(ps, rel->rd_checks[i].expr));
        q->check_names =
            tdb_lappend(q->check_names, (void *)rel->rd_checks[i].name);
    }
}

/* The column's DEFAULT (parsed from the catalog's text) or NULL. */
static Expr *
column_default(ParseState *ps, Relation rel, int attnum)
{
    const char *source = tdb_relation_column_default(rel, attnum);
    const TupleAttr *att = TupleDescAttr(rel->rd_att, attnum - 1);
    Statement st;
    ParseState *dps;
    Expr *e;

    if (source == NULL)
        return (Expr *)tdb_make_null_const(att->atttypid, att->atttypmod);
    st = *ps->st;
    dps = new_parse_state(&st, NULL, NIL);
    e = tdb_transform_expr(dps, parse_expression_text(&st, source),
                           EXPR_KIND_COLUMN_DEFAULT);
    return tdb_coerce_or_error(dps, e, att->atttypid, att->atttypmod,
                               CAST_ASSIGNMENT, -1);
}

Expr *
tdb_analyze_column_default(Statement *st, Relation rel, int attnum)
{
    return column_default(new_parse_state(st, NULL, NIL), rel, attnum);
}

/* Coerce an expression assigned to column attnum (42804 if impossible). */
static Expr *
assign_column(ParseState *ps, Relation rel, int attnum, Expr *e,
              int location)
{
    const TupleAttr *att = TupleDescAttr(rel->rd_att, attnum - 1);
    Expr *result = tdb_coerce_to(ps, e, att->atttypid, att->atttypmod,
                                 CAST_ASSIGNMENT, location);

    if (result == NULL)
        ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
                errmsg("column \"%s\" is of type %s but expression is of "
                       "type %s",
                       att->attname,
                       tdb_format_type(att->atttypid, att->atttypmod),
                       tdb_format_type(exprType(e), -1)),
                errhint("You will need to rewrite or cast the expression."),
                errposition(parse_errpos(ps, exprLocation(e) >= 0
                                                 ? exprLocation(e)
                                                 : location)));
    return result;
}

/* The attnum of a target column name (42703 if none). */
static int
target_attnum(ParseState *ps, Relation rel, const char *name, int location)
{
    for (int i = 0; i < rel->rd_att->natts; i++)
        if (strcmp(TupleDescAttr(rel->rd_att, i)->attname, name) == 0)
            return i + 1;
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_COLUMN),
            errmsg("column \"%s\" of relation \"%s\" does not exist", name,
                   rel->rd_name),
            errposition(parse_errpos(ps, location)));
}

static List *
transform_returning(ParseState *ps, PgQuery__Node **items, size_t n)
{
    List *tlist;

    if (n == 0)
        return NIL;
    tlist = tdb_transform_target_list(ps, items, n, EXPR_KIND_RETURNING);
    tdb_resolve_unknown_targets(ps, tlist);
    return tlist;
}

/* INSERT's target columns: the listed ones, or all. */
static int *
insert_columns(ParseState *ps, PgQuery__InsertStmt *ins, Relation rel,
               int *ncols)
{
    int *cols;

    if (ins->n_cols == 0) {
        *ncols = rel->rd_att->natts;
        cols = tdb_palloc(sizeof(int) * (Size)Max(1, *ncols));
        for (int i = 0; i < *ncols; i++)
            cols[i] = i + 1;
        return cols;
    }
    *ncols = (int)ins->n_cols;
    cols = tdb_palloc(sizeof(int) * (Size)*ncols);
    for (int i = 0; i < *ncols; i++) {
        PgQuery__ResTarget *rt = ins->cols[i]->res_target;

        if (rt->n_indirection > 0)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("assigning to parts of a column is not supported"),
                    errposition(parse_errpos(ps, rt->location)));
        cols[i] = target_attnum(ps, rel, rt->name, rt->location);
        for (int j = 0; j < i; j++)
            if (cols[j] == cols[i])
                ereport(ERROR, errcode(ERRCODE_DUPLICATE_COLUMN),
                        errmsg("column \"%s\" specified more than once",
                               rt->name),
                        errposition(parse_errpos(ps, rt->location)));
    }
    return cols;
}

/* The location of a raw expression (for the column-count errors). */
static int
raw_location(const PgQuery__Node *n)
{
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST:
        return n->a_const->location;
    case PG_QUERY__NODE__NODE_COLUMN_REF:
        return n->column_ref->location;
    case PG_QUERY__NODE__NODE_FUNC_CALL:
        return n->func_call->location;
    case PG_QUERY__NODE__NODE_A_EXPR:
        return n->a_expr->location;
    case PG_QUERY__NODE__NODE_TYPE_CAST:
        return n->type_cast->location;
    case PG_QUERY__NODE__NODE_RES_TARGET:
        return n->res_target->location;
    default:
        return -1;
    }
}

/*
 * Match nexprs source columns to the target columns: with a column list
 * the counts must agree; without one, fewer values than columns leave
 * the rest to their defaults.  exprs/cols locate the first extra item.
 */
static int
match_count(ParseState *ps, PgQuery__InsertStmt *ins, int nexprs, int ncols,
            PgQuery__Node *const *exprs, List *targets)
{
    if (nexprs > ncols)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("INSERT has more expressions than target columns"),
                errposition(parse_errpos(
                    ps, exprs != NULL ? raw_location(exprs[ncols])
                        : targets != NIL
                            ? ((TargetEntry *)list_nth(targets, ncols))
                                  ->xpr.location
                            : -1)));
    if (nexprs < ncols && ins->n_cols > 0)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("INSERT has more target columns than expressions"),
                errposition(parse_errpos(
                    ps, raw_location(ins->cols[nexprs]))));
    return nexprs;
}

/* One VALUES row of an INSERT: expressions per table column. */
static List *
insert_values_row(ParseState *ps, PgQuery__InsertStmt *ins, Relation rel,
                  PgQuery__List *row, const int *cols, int ncols)
{
    Expr **by_column =
        tdb_palloc0(sizeof(Expr *) * (Size)Max(1, rel->rd_att->natts));
    List *result = NIL;

    ncols = match_count(ps, ins, (int)row->n_items, ncols, row->items, NIL);
    for (int i = 0; i < ncols; i++) {
        PgQuery__Node *item = row->items[i];
        int attnum = cols[i];

        if (item->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
            by_column[attnum - 1] = column_default(ps, rel, attnum);
        else
            by_column[attnum - 1] = assign_column(
                ps, rel, attnum,
                tdb_transform_expr(ps, item, EXPR_KIND_VALUES), -1);
    }
    for (int a = 1; a <= rel->rd_att->natts; a++)
        result = tdb_lappend(result, by_column[a - 1] != NULL
                                         ? by_column[a - 1]
                                         : column_default(ps, rel, a));
    return result;
}

/*
 * INSERT's source SELECT, analyzed like a standalone SELECT except that
 * its untyped literals (NULL, 'x') are not made text: the target columns
 * type them (type_unknown_outputs), as PostgreSQL does.
 */
static Query *
analyze_insert_source(ParseState *ps, PgQuery__Node *stmt)
{
    ParseState *sub = new_parse_state(ps->st, NULL, ps->ctes);

    if (stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("%s as a subquery is not supported yet",
                       tdb_sql_node_name(stmt)));
    sub->resolve_unknowns = false;
    return analyze_select(sub, stmt->select_stmt);
}

/* The source's untyped outputs take their target column's type. */
static void
type_unknown_outputs(ParseState *ps, Relation rel, List *vis, const int *cols,
                     int ncols)
{
    for (int i = 0; i < list_length(vis); i++) {
        TargetEntry *te = list_nth(vis, i);
        Oid to = i < ncols
                     ? TupleDescAttr(rel->rd_att, cols[i] - 1)->atttypid
                     : TEXTOID;

        if (exprType(te->expr) == UNKNOWNOID)
            te->expr = tdb_coerce_or_error(ps, te->expr,
                                           IsA(te->expr, Const) ? to : TEXTOID,
                                           -1, CAST_IMPLICIT,
                                           exprLocation(te->expr));
    }
}

static Query *
analyze_insert(ParseState *ps, PgQuery__InsertStmt *ins)
{
    Query *q = new_query(CMD_INSERT);
    List *with;
    Relation rel;
    int ncols;
    int *cols;
    PgQuery__SelectStmt *src =
        ins->select_stmt != NULL ? ins->select_stmt->select_stmt : NULL;

    with = analyze_with(ps, ins->with_clause);
    rel = open_target(ps, ins->relation, q);
    cols = insert_columns(ps, ins, rel, &ncols);

    if (src == NULL) {
        /* DEFAULT VALUES */
        List *row = NIL;

        for (int a = 1; a <= rel->rd_att->natts; a++)
            row = tdb_lappend(row, column_default(ps, rel, a));
        for (int a = 0; a < list_length(row); a++)
            q->target_list = tdb_lappend(
                q->target_list,
                tdb_make_target_entry(list_nth(row, a), a + 1,
                                      TupleDescAttr(rel->rd_att, a)->attname,
                                      false));
    } else if (src->n_values_lists == 1 &&
               src->op == PG_QUERY__SET_OPERATION__SETOP_NONE &&
               src->n_sort_clause == 0 && src->limit_count == NULL) {
        /* one row: its expressions are the target list (a Result) */
        List *row = insert_values_row(ps, ins, rel,
                                      src->values_lists[0]->list, cols,
                                      ncols);

        for (int a = 0; a < list_length(row); a++)
            q->target_list = tdb_lappend(
                q->target_list,
                tdb_make_target_entry(list_nth(row, a), a + 1,
                                      TupleDescAttr(rel->rd_att, a)->attname,
                                      false));
    } else if (src->n_values_lists > 0 &&
               src->op == PG_QUERY__SET_OPERATION__SETOP_NONE &&
               src->n_sort_clause == 0 && src->limit_count == NULL) {
        /* VALUES rows, each coerced to the target columns */
        RangeTblEntry *rte = makeNode(RangeTblEntry);
        RangeTblRef *ref = makeNode(RangeTblRef);

        for (size_t r = 1; r < src->n_values_lists; r++)
            if (src->values_lists[r]->list->n_items !=
                src->values_lists[0]->list->n_items)
                ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                        errmsg("VALUES lists must all be the same length"));

        for (size_t r = 0; r < src->n_values_lists; r++)
            rte->values_lists = tdb_lappend(
                rte->values_lists,
                insert_values_row(ps, ins, rel, src->values_lists[r]->list,
                                  cols, ncols));
        rte->rtekind = RTE_VALUES;
        rte->refname = "*VALUES*";
        for (int a = 0; a < rel->rd_att->natts; a++) {
            const TupleAttr *att = TupleDescAttr(rel->rd_att, a);

            rte->colnames = tdb_lappend(rte->colnames, (void *)att->attname);
            rte->coltypes = tdb_lappend_int(rte->coltypes, (int)att->atttypid);
            rte->coltypmods = tdb_lappend_int(rte->coltypmods, att->atttypmod);
        }
        ref->rtindex = tdb_add_rte(ps, rte);
        q->jointree->fromlist = tdb_list_make1(ref);
        for (int a = 0; a < rel->rd_att->natts; a++) {
            const TupleAttr *att = TupleDescAttr(rel->rd_att, a);

            q->target_list = tdb_lappend(
                q->target_list,
                tdb_make_target_entry(
                    (Expr *)tdb_make_var(ref->rtindex, a + 1, att->atttypid,
                                         att->atttypmod, 0),
                    a + 1, att->attname, false));
        }
    } else {
        /* INSERT ... SELECT */
        List *ns = NIL;
        RangeTblRef *ref;
        RangeTblEntry *rte;
        Query *sub = analyze_insert_source(ps, ins->select_stmt);
        List *vis = tdb_visible_targets(sub);
        Expr **by_column =
            tdb_palloc0(sizeof(Expr *) * (Size)Max(1, rel->rd_att->natts));

        ncols = match_count(ps, ins, list_length(vis), ncols, NULL, vis);
        type_unknown_outputs(ps, rel, vis, cols, ncols);
        ref = (RangeTblRef *)tdb_add_subquery_rte(ps, sub, "*SELECT*", NULL,
                                                  &ns);
        rte = list_nth(ps->rtable, ref->rtindex - 1);
        q->jointree->fromlist = tdb_list_make1(ref);
        for (int i = 0; i < ncols; i++) {
            TargetEntry *te = list_nth(vis, i);
            Var *v = tdb_make_var(ref->rtindex, i + 1, exprType(te->expr),
                                  exprTypmod(te->expr), 0);

            v->xpr.location = exprLocation(te->expr);
            by_column[cols[i] - 1] =
                assign_column(ps, rel, cols[i], (Expr *)v, -1);
        }
        (void)rte;
        for (int a = 1; a <= rel->rd_att->natts; a++)
            q->target_list = tdb_lappend(
                q->target_list,
                tdb_make_target_entry(by_column[a - 1] != NULL
                                          ? by_column[a - 1]
                                          : column_default(ps, rel, a),
                                      a,
                                      TupleDescAttr(rel->rd_att, a - 1)
                                          ->attname,
                                      false));
    }
    ps->namespace = NIL;
    add_target_to_namespace(ps, q);
    add_checks(ps, q, rel);
    if (ins->on_conflict_clause != NULL)
        tdb_transform_on_conflict(ps, q, rel, ins->on_conflict_clause);
    q->returning =
        transform_returning(ps, ins->returning_list, ins->n_returning_list);
    q->rtable = ps->rtable;
    q->has_sublinks = ps->has_sublinks;
    finish_with(with, q);
    return q;
}

/* The FROM (UPDATE) or USING (DELETE) tables join the target's scan. */
static void
add_joined_tables(ParseState *ps, Query *q, PgQuery__Node **items, size_t n)
{
    FromExpr *from;

    if (n == 0)
        return;
    from = tdb_transform_from_clause(ps, items, n);
    q->jointree->fromlist =
        tdb_list_concat(q->jointree->fromlist, from->fromlist);
}

/* The names PostgreSQL gives the system columns a SET list may not
 * assign. */
static bool
is_system_column(const char *name)
{
    static const char *const names[] = {"ctid", "xmin", "cmin",
                                        "xmax", "cmax", "tableoid"};

    for (size_t i = 0; i < lengthof(names); i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

/* Does a GROUP BY or ORDER BY list name a column by its position? */
static bool
has_position(PgQuery__Node **items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const PgQuery__Node *e = items[i];

        if (e->node_case == PG_QUERY__NODE__NODE_SORT_BY)
            e = e->sort_by->node;
        if (e->node_case == PG_QUERY__NODE__NODE_A_CONST)
            return true;
    }
    return false;
}

/*
 * One column of "(a, b) = (SELECT x, y ...)": a scalar sub-SELECT of
 * that column alone (the sub-SELECT with only its colno'th output), so
 * each column runs the subquery once where PostgreSQL runs it once for
 * all -- the same values unless it calls volatile functions.  A set
 * operation, "*", DISTINCT or a positional GROUP BY / ORDER BY, which
 * one output alone would change, is not supported yet.
 */
static PgQuery__Node *
multi_assign_subselect(ParseState *ps, const PgQuery__MultiAssignRef *mar)
{
    const PgQuery__SubLink *sl = mar->source->sub_link;
    const PgQuery__SelectStmt *sel =
        sl->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT
            ? sl->subselect->select_stmt
            : NULL;
    PgQuery__SelectStmt *one;
    PgQuery__SubLink *link;
    PgQuery__Node *node;
    bool simple = sel != NULL && sel->larg == NULL &&
                  sel->n_values_lists == 0 && sel->n_distinct_clause == 0 &&
                  !has_position(sel->group_clause, sel->n_group_clause) &&
                  !has_position(sel->sort_clause, sel->n_sort_clause);

    for (size_t i = 0; simple && i < sel->n_target_list; i++) {
        const PgQuery__Node *val = sel->target_list[i]->res_target->val;

        simple = !(
            val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
            val->column_ref->fields[val->column_ref->n_fields - 1]->node_case ==
                PG_QUERY__NODE__NODE_A_STAR);
    }
    if (!simple)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("this sub-SELECT as the source of a multiple-column "
                       "UPDATE item is not supported yet"),
                errposition(parse_errpos(ps, sl->location)));
    if ((int)sel->n_target_list != mar->ncolumns)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("number of columns does not match number of "
                       "values"),
                errposition(parse_errpos(ps, sl->location)));
    one = tdb_palloc(sizeof(PgQuery__SelectStmt));
    *one = *sel;
    one->n_target_list = 1;
    one->target_list = &sel->target_list[mar->colno - 1];
    link = tdb_palloc(sizeof(PgQuery__SubLink));
    *link = *sl;
    link->sub_link_type = PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK;
    link->subselect = tdb_palloc(sizeof(PgQuery__Node));
    *link->subselect = *sl->subselect;
    link->subselect->select_stmt = one;
    node = tdb_palloc(sizeof(PgQuery__Node));
    *node = *mar->source;
    node->sub_link = link;
    return node;
}

/*
 * The value one column of "(a, b) = ROW(...)" or "(a, b) = (SELECT
 * ...)" takes: the row's element colno (1-based), or the sub-SELECT's.
 */
static PgQuery__Node *
multi_assign_value(ParseState *ps, const PgQuery__MultiAssignRef *mar)
{
    const PgQuery__Node *src = mar->source;

    if (src->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
        if ((int)src->row_expr->n_args != mar->ncolumns)
            ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                    errmsg("number of columns does not match number of "
                           "values"),
                    errposition(parse_errpos(ps, src->row_expr->location)));
        return src->row_expr->args[mar->colno - 1];
    }
    if (src->node_case == PG_QUERY__NODE__NODE_SUB_LINK)
        return multi_assign_subselect(ps, mar);
    ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
            errmsg("source for a multiple-column UPDATE item must be a "
                   "sub-SELECT or ROW() expression"),
            errposition(parse_errpos(ps, raw_location(src))));
}

void
tdb_transform_set_list(ParseState *ps, Relation rel, PgQuery__Node **items,
                       size_t n, List **tlist)
{
    Expr **values = tdb_palloc(sizeof(Expr *) * Max(n, 1));
    List *assigned = NIL;

    /* the values first, then the columns, as PostgreSQL analyzes them */
    for (size_t i = 0; i < n; i++) {
        PgQuery__Node *val = items[i]->res_target->val;

        if (val->node_case == PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF)
            val = multi_assign_value(ps, val->multi_assign_ref);
        values[i] = val->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT
                        ? NULL
                        : tdb_transform_expr(ps, val, EXPR_KIND_UPDATE_SOURCE);
    }
    for (size_t i = 0; i < n; i++) {
        PgQuery__ResTarget *rt = items[i]->res_target;
        int attnum;
        Expr *e;

        if (is_system_column(rt->name))
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("cannot assign to system column \"%s\"", rt->name),
                    errposition(parse_errpos(ps, rt->location)));
        attnum = target_attnum(ps, rel, rt->name, rt->location);
        if (rt->n_indirection > 0)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("this form of UPDATE SET is not supported yet"),
                    errposition(parse_errpos(ps, rt->location)));
        if (values[i] == NULL)
            e = column_default(ps, rel, attnum);
        else
            e = assign_column(ps, rel, attnum, values[i], rt->location);
        *tlist = tdb_lappend(*tlist,
                             tdb_make_target_entry(e, attnum, rt->name, false));
        assigned = tdb_lappend_int(assigned, attnum);
    }
    /* (PostgreSQL's rewriter finds these, without a position) */
    for (int i = 0; i < list_length(assigned); i++)
        for (int j = 0; j < i; j++)
            if (list_nth_int(assigned, i) == list_nth_int(assigned, j))
                ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                        errmsg("multiple assignments to same column \"%s\"",
                               TupleDescAttr(rel->rd_att,
                                             list_nth_int(assigned, i) - 1)
                                   ->attname));
}

/*
 * UPDATE, in PostgreSQL's order: target, FROM, WHERE, RETURNING, then
 * the SET list.  A target row that joins several FROM rows is updated
 * once (the executor skips rows this statement already changed).
 */
static Query *
analyze_update(ParseState *ps, PgQuery__UpdateStmt *upd)
{
    Query *q = new_query(CMD_UPDATE);
    List *with = analyze_with(ps, upd->with_clause);
    Relation rel;

    rel = open_target(ps, upd->relation, q);
    add_target_to_namespace(ps, q);
    scan_target(q);
    add_joined_tables(ps, q, upd->from_clause, upd->n_from_clause);
    q->jointree->quals = tdb_transform_where(ps, upd->where_clause,
                                             EXPR_KIND_WHERE, "WHERE");
    q->returning =
        transform_returning(ps, upd->returning_list, upd->n_returning_list);
    tdb_transform_set_list(ps, rel, upd->target_list, upd->n_target_list,
                           &q->target_list);
    add_checks(ps, q, rel);
    q->rtable = ps->rtable;
    q->has_sublinks = ps->has_sublinks;
    finish_with(with, q);
    return q;
}

static Query *
analyze_delete(ParseState *ps, PgQuery__DeleteStmt *del)
{
    Query *q = new_query(CMD_DELETE);
    List *with = analyze_with(ps, del->with_clause);

    (void)open_target(ps, del->relation, q);
    add_target_to_namespace(ps, q);
    scan_target(q);
    add_joined_tables(ps, q, del->using_clause, del->n_using_clause);
    q->jointree->quals = tdb_transform_where(ps, del->where_clause,
                                             EXPR_KIND_WHERE, "WHERE");
    q->returning =
        transform_returning(ps, del->returning_list, del->n_returning_list);
    q->rtable = ps->rtable;
    q->has_sublinks = ps->has_sublinks;
    finish_with(with, q);
    return q;
}

Query *
tdb_analyze_statement(Statement *st, PgQuery__Node *stmt)
{
    ParseState *ps = new_parse_state(st, NULL, NIL);

    switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
        return analyze_select(ps, stmt->select_stmt);
    case PG_QUERY__NODE__NODE_INSERT_STMT:
        return analyze_insert(ps, stmt->insert_stmt);
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
        return analyze_update(ps, stmt->update_stmt);
    case PG_QUERY__NODE__NODE_DELETE_STMT:
        return analyze_delete(ps, stmt->delete_stmt);
    default:
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("%s is not supported yet", tdb_sql_node_name(stmt)));
    }
}
