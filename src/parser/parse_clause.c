/*
 * parse_clause.c -- the clauses of a SELECT: FROM (tables, subqueries,
 * functions, joins with ON / USING / NATURAL), the target list with `*`
 * expansion, ORDER BY, GROUP BY, and the check that ungrouped columns
 * appear only inside aggregates.
 *
 * Visibility follows PostgreSQL: a JOIN's merged (USING) columns are
 * found unqualified through the join's range-table entry, while the
 * joined tables stay reachable by their names for qualified references;
 * an aliased JOIN hides them.
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
#include "parser/system_views.h"

/* ----------------------------------------------------------------------
 * Range-table entries
 * ---------------------------------------------------------------------- */

int
tdb_add_rte(ParseState *ps, RangeTblEntry *rte)
{
    ps->rtable = tdb_lappend(ps->rtable, rte);
    return list_length(ps->rtable);
}

static NamespaceItem *
ns_item(int rtindex, bool cols_visible, bool rel_visible)
{
    NamespaceItem *item = tdb_palloc(sizeof(NamespaceItem));

    item->rtindex = rtindex;
    item->cols_visible = cols_visible;
    item->rel_visible = rel_visible;
    return item;
}

static void
add_column(RangeTblEntry *rte, const char *name, Oid type, int32 typmod)
{
    rte->colnames = tdb_lappend(rte->colnames, (void *)name);
    rte->coltypes = tdb_lappend_int(rte->coltypes, (int)type);
    rte->coltypmods = tdb_lappend_int(rte->coltypmods, typmod);
}

/* Apply an alias's column names (AS t(a, b)) to rte. */
static void
apply_alias(ParseState *ps, RangeTblEntry *rte, PgQuery__Alias *alias)
{
    if (alias == NULL)
        return;
    rte->refname = alias->aliasname;
    rte->has_alias = true;
    if (alias->n_colnames > (size_t)list_length(rte->colnames))
        ereport(ERROR, errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
                errmsg("table \"%s\" has %d columns available but %d "
                       "columns specified",
                       alias->aliasname, list_length(rte->colnames),
                       (int)alias->n_colnames));
    for (size_t i = 0; i < alias->n_colnames; i++)
        rte->colnames->elements[i].ptr = alias->colnames[i]->string->sval;
    (void)ps;
}

RangeTblEntry *
tdb_make_relation_rte(ParseState *ps, Relation rel, const char *refname)
{
    RangeTblEntry *rte = makeNode(RangeTblEntry);

    rte->rtekind = RTE_RELATION;
    rte->relid = rel->rd_id;
    rte->in_system_view = ps->st->system_view_depth > 0;
    rte->relname = tdb_mcxt_strdup(tdb_current_mcxt, rel->rd_name);
    rte->refname = refname != NULL ? refname : rte->relname;
    for (int i = 0; i < rel->rd_att->natts; i++) {
        const TupleAttr *att = TupleDescAttr(rel->rd_att, i);

        add_column(rte, tdb_mcxt_strdup(tdb_current_mcxt, att->attname),
                   att->atttypid, att->atttypmod);
    }
    rte->in_from_clause = true;
    return rte;
}

/* ----------------------------------------------------------------------
 * FROM items
 * ---------------------------------------------------------------------- */

const char *
tdb_sql_table_name(const Statement *st, const PgQuery__RangeVar *rv)
{
    if (rv->schemaname != NULL && rv->schemaname[0] != '\0' &&
        strcmp(rv->schemaname, "public") != 0)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("schemas other than \"public\" are not supported "
                       "yet"),
                errposition(stmt_errpos(st, rv->location)));
    return rv->relname;
}

static Node *transform_from_item(ParseState *ps, PgQuery__Node *item,
                                 List **namespace);
static Node *add_worktable_rte(ParseState *ps, CteItem *cte,
                               PgQuery__RangeVar *rv, List **namespace);
static Node *add_cte_rte(ParseState *ps, CteItem *cte, PgQuery__RangeVar *rv,
                         List **namespace);

static Node *
make_rtref(int rtindex)
{
    RangeTblRef *ref = makeNode(RangeTblRef);

    ref->rtindex = rtindex;
    return (Node *)ref;
}

static Node *
transform_range_var(ParseState *ps, PgQuery__RangeVar *rv, List **namespace)
{
    Relation rel;
    RangeTblEntry *rte;
    int rtindex;

    if (rv->schemaname != NULL && rv->schemaname[0] != '\0' &&
        strcmp(rv->schemaname, "public") != 0 &&
        strcmp(rv->schemaname, "pg_catalog") != 0)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
                errmsg("relation \"%s.%s\" does not exist", rv->schemaname,
                       rv->relname),
                errposition(parse_errpos(ps, rv->location)));
    {
        CteItem *cte = tdb_find_cte(ps, rv->relname);

        if (cte != NULL &&
            (rv->schemaname == NULL || rv->schemaname[0] == '\0')) {
            if (cte->query != NULL)
                return add_cte_rte(ps, cte, rv, namespace);
            return add_worktable_rte(ps, cte, rv, namespace);
        }
    }
    {
        const SystemView *view =
            tdb_system_view_lookup(ps->st, rv->schemaname, rv->relname);

        if (view != NULL)
            return tdb_add_subquery_rte(ps, tdb_system_view_query(ps, view),
                                        rv->relname, rv->alias, namespace);
    }
    TDB_TRY();
    {
        rel = tdb_relation_open(ps->st->xact, rv->relname, REL_LOCK_SHARE);
    }
    TDB_CATCH();
    {
        ErrorData e = *tdb_error_current();
        bool schema = rv->schemaname != NULL && rv->schemaname[0] != '\0';
        bool forward = false;

        tdb_error_flush();
        for (ParseState *level = ps; level != NULL; level = level->parent)
            for (int i = 0; i < list_length(level->with_names); i++)
                if (strcmp(list_nth(level->with_names, i), rv->relname) == 0)
                    forward = true;
        if (e.sqlerrcode == ERRCODE_UNDEFINED_TABLE && (schema || forward))
            ereport(ERROR, errcode(e.sqlerrcode),
                    schema ? errmsg("relation \"%s.%s\" does not exist",
                                    rv->schemaname, rv->relname)
                           : errmsg("%s", e.message),
                    forward ? errdetail("There is a WITH item named \"%s\", "
                                        "but it cannot be referenced from "
                                        "this part of the query.",
                                        rv->relname)
                            : 0,
                    forward ? errhint("Use WITH RECURSIVE, or re-order the "
                                      "WITH items to remove forward "
                                      "references.")
                            : 0,
                    errposition(parse_errpos(ps, rv->location)));
        ereport(ERROR, errcode(e.sqlerrcode), errmsg("%s", e.message),
                errposition(parse_errpos(ps, rv->location)));
    }
    TDB_END_TRY();
    rte = tdb_make_relation_rte(ps, rel, rv->relname);
    tdb_relation_close(rel);
    apply_alias(ps, rte, rv->alias);
    rtindex = tdb_add_rte(ps, rte);
    *namespace = tdb_list_make1(ns_item(rtindex, true, true));
    return make_rtref(rtindex);
}

Node *
tdb_add_subquery_rte(ParseState *ps, Query *sub, const char *refname,
                     PgQuery__Alias *alias, List **namespace)
{
    RangeTblEntry *rte = makeNode(RangeTblEntry);
    int rtindex;

    rte->rtekind = RTE_SUBQUERY;
    rte->subquery = sub;
    rte->refname = refname;
    for (int i = 0; i < list_length(sub->target_list); i++) {
        TargetEntry *te = list_nth(sub->target_list, i);

        if (!te->resjunk)
            add_column(rte, te->resname != NULL ? te->resname : "?column?",
                       exprType(te->expr), exprTypmod(te->expr));
    }
    apply_alias(ps, rte, alias);
    rte->in_from_clause = true;
    rtindex = tdb_add_rte(ps, rte);
    *namespace = tdb_list_make1(ns_item(rtindex, true, true));
    return make_rtref(rtindex);
}

/*
 * A reference to a WITH query (analyze.c, "WITH", has the rules): a
 * subquery of its own once the query is known to be inlined, otherwise a
 * reference (RTE_CTE) to the rows computed once -- a placeholder, while
 * the level holding the WITH is still being analyzed, that the end of
 * its analysis may turn into a subquery.  References in the query text
 * are counted; those in another copy of an inlined body are not.
 */
static Node *
add_cte_rte(ParseState *ps, CteItem *cte, PgQuery__RangeVar *rv,
            List **namespace)
{
    RangeTblEntry *rte;
    int rtindex;

    if (cte->state == CTE_INLINED)
        return tdb_add_subquery_rte(ps, tdb_reanalyze_cte(cte), rv->relname,
                                    rv->alias, namespace);
    rte = makeNode(RangeTblEntry);
    rte->rtekind = RTE_CTE;
    rte->cte = cte->cte;
    rte->refname = rv->relname;
    for (int i = 0; i < list_length(cte->query->target_list); i++) {
        TargetEntry *te = list_nth(cte->query->target_list, i);

        if (!te->resjunk)
            add_column(rte, te->resname != NULL ? te->resname : "?column?",
                       exprType(te->expr), exprTypmod(te->expr));
    }
    apply_alias(ps, rte, rv->alias);
    rte->in_from_clause = true;
    if (cte->state == CTE_UNDECIDED) {
        cte->placeholders = tdb_lappend(cte->placeholders, rte);
        if (ps->st->cte_copy_depth == 0)
            cte->cte->refcount++;
    }
    rtindex = tdb_add_rte(ps, rte);
    *namespace = tdb_list_make1(ns_item(rtindex, true, true));
    return make_rtref(rtindex);
}

/* A recursive CTE's self-reference: its working table. */
static Node *
add_worktable_rte(ParseState *ps, CteItem *cte, PgQuery__RangeVar *rv,
                  List **namespace)
{
    RangeTblEntry *rte = makeNode(RangeTblEntry);
    int rtindex;

    rte->rtekind = RTE_WORKTABLE;
    rte->refname = rv->relname;
    rte->relname = rv->relname;
    rte->colnames = tdb_list_copy(cte->colnames);
    rte->coltypes = tdb_list_copy(cte->coltypes);
    rte->coltypmods = tdb_list_copy(cte->coltypmods);
    apply_alias(ps, rte, rv->alias);
    rte->in_from_clause = true;
    cte->referenced = true;
    rtindex = tdb_add_rte(ps, rte);
    *namespace = tdb_list_make1(ns_item(rtindex, true, true));
    return make_rtref(rtindex);
}

static Node *
transform_range_subselect(ParseState *ps, PgQuery__RangeSubselect *rs,
                          List **namespace)
{
    ParseState *outer = ps->parent; /* not LATERAL: this level is hidden */
    Query *sub;

    if (rs->lateral)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("LATERAL is not supported yet"));
    if (rs->alias == NULL)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("subquery in FROM must have an alias"),
                errhint("For example, FROM (SELECT ...) [AS] foo."));
    sub = tdb_analyze_subquery_in(ps->st, outer, ps->ctes, rs->subquery);
    return tdb_add_subquery_rte(ps, sub, rs->alias->aliasname, rs->alias,
                                namespace);
}

static Node *
transform_range_function(ParseState *ps, PgQuery__RangeFunction *rf,
                         List **namespace)
{
    PgQuery__List *pair;
    PgQuery__Node *call;
    RangeTblEntry *rte = makeNode(RangeTblEntry);
    Expr *fexpr;
    const char *fname;
    int rtindex;

    if (rf->n_functions != 1 || rf->is_rowsfrom || rf->lateral ||
        rf->n_coldeflist > 0)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("this form of function in FROM is not supported yet"));
    pair = rf->functions[0]->list;
    call = pair->items[0];
    fexpr = tdb_transform_expr(ps, call, EXPR_KIND_FROM_FUNCTION);
    if (!IsA(fexpr, FuncExpr) || !((FuncExpr *)fexpr)->func->retset)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("only set-returning functions are supported in FROM "
                       "yet"),
                errposition(parse_errpos(ps, exprLocation(fexpr))));
    fname = tdb_figure_colname(call);
    rte->rtekind = RTE_FUNCTION;
    rte->funcexpr = fexpr;
    rte->ordinality = rf->ordinality;
    rte->refname = fname;
    add_column(rte, fname, exprType(fexpr), exprTypmod(fexpr));
    if (rf->ordinality)
        add_column(rte, "ordinality", INT8OID, -1);
    if (rf->alias != NULL && rf->alias->n_colnames == 0 && !rf->ordinality)
        rte->colnames->elements[0].ptr = rf->alias->aliasname;
    apply_alias(ps, rte, rf->alias);
    rte->in_from_clause = true;
    rtindex = tdb_add_rte(ps, rte);
    *namespace = tdb_list_make1(ns_item(rtindex, true, true));
    return make_rtref(rtindex);
}

/* The columns of the RTEs visible in namespace, in order, as the
 * (rtindex, attno) pairs a join's columns come from. */
typedef struct JoinSideCol {
    const char *name;
    Expr *expr;
} JoinSideCol;

static List *
side_columns(ParseState *ps, List *namespace)
{
    List *cols = NIL;

    for (int i = 0; i < list_length(namespace); i++) {
        NamespaceItem *item = list_nth(namespace, i);
        RangeTblEntry *rte;

        if (!item->cols_visible)
            continue;
        rte = list_nth(ps->rtable, item->rtindex - 1);
        for (int c = 0; c < list_length(rte->colnames); c++) {
            JoinSideCol *col = tdb_palloc(sizeof(JoinSideCol));

            col->name = list_nth(rte->colnames, c);
            col->expr = rte->rtekind == RTE_JOIN
                            ? list_nth(rte->joinaliasvars, c)
                            : (Expr *)tdb_make_var(
                                  item->rtindex, c + 1,
                                  (Oid)list_nth_int(rte->coltypes, c),
                                  list_nth_int(rte->coltypmods, c), 0);
            cols = tdb_lappend(cols, col);
        }
    }
    return cols;
}

static int
find_side_col(List *cols, const char *name, bool *ambiguous)
{
    int found = -1;

    *ambiguous = false;
    for (int i = 0; i < list_length(cols); i++)
        if (strcmp(((JoinSideCol *)list_nth(cols, i))->name, name) == 0) {
            if (found >= 0)
                *ambiguous = true;
            found = i;
        }
    return found;
}

/* The names of a NATURAL join: columns both sides have. */
static List *
natural_using(List *lcols, List *rcols)
{
    List *names = NIL;

    for (int i = 0; i < list_length(lcols); i++) {
        const char *name = ((JoinSideCol *)list_nth(lcols, i))->name;
        bool amb;

        if (find_side_col(rcols, name, &amb) >= 0)
            names = tdb_lappend(names, (void *)name);
    }
    return names;
}

static Node *
transform_join(ParseState *ps, PgQuery__JoinExpr *je, List **namespace)
{
    JoinExpr *j = makeNode(JoinExpr);
    RangeTblEntry *rte = makeNode(RangeTblEntry);
    List *lns = NIL, *rns = NIL;
    List *lcols, *rcols, *using_names = NIL;
    bool *lused, *rused;
    List *saved_ns = ps->namespace;
    int rtindex;

    j->larg = transform_from_item(ps, je->larg, &lns);
    j->rarg = transform_from_item(ps, je->rarg, &rns);
    switch (je->jointype) {
    case PG_QUERY__JOIN_TYPE__JOIN_LEFT:
        j->jointype = JOIN_LEFT;
        break;
    case PG_QUERY__JOIN_TYPE__JOIN_RIGHT:
        j->jointype = JOIN_RIGHT;
        break;
    case PG_QUERY__JOIN_TYPE__JOIN_FULL:
        j->jointype = JOIN_FULL;
        break;
    default:
        j->jointype = JOIN_INNER;
        break;
    }
    lcols = side_columns(ps, lns);
    rcols = side_columns(ps, rns);
    lused = tdb_palloc0(sizeof(bool) * (Size)Max(1, list_length(lcols)));
    rused = tdb_palloc0(sizeof(bool) * (Size)Max(1, list_length(rcols)));
    if (je->is_natural)
        using_names = natural_using(lcols, rcols);
    for (size_t i = 0; i < je->n_using_clause; i++)
        using_names =
            tdb_lappend(using_names, je->using_clause[i]->string->sval);

    rte->rtekind = RTE_JOIN;
    rte->jointype = j->jointype;
    rte->refname = je->alias != NULL ? je->alias->aliasname : "unnamed_join";
    rte->has_alias = je->alias != NULL;
    /* merged USING columns first */
    for (int u = 0; u < list_length(using_names); u++) {
        const char *name = list_nth(using_names, u);
        bool lamb, ramb;
        int li = find_side_col(lcols, name, &lamb);
        int ri = find_side_col(rcols, name, &ramb);
        Expr *l, *r, *merged, *cond;
        Oid type;

        if (li < 0 || ri < 0)
            ereport(ERROR, errcode(ERRCODE_UNDEFINED_COLUMN),
                    errmsg("column \"%s\" specified in USING clause does "
                           "not exist in %s table",
                           name, li < 0 ? "left" : "right"));
        if (lamb || ramb)
            ereport(ERROR, errcode(ERRCODE_AMBIGUOUS_COLUMN),
                    errmsg("common column name \"%s\" appears more than "
                           "once in %s table",
                           name, lamb ? "left" : "right"));
        lused[li] = rused[ri] = true;
        l = ((JoinSideCol *)list_nth(lcols, li))->expr;
        r = ((JoinSideCol *)list_nth(rcols, ri))->expr;
        cond = tdb_make_op(ps, "=", l, r, -1);
        j->quals = j->quals == NULL
                       ? cond
                       : tdb_make_bool_and(j->quals, cond);
        type = tdb_select_common_type(ps, tdb_list_make2(l, r), "JOIN/USING");
        l = tdb_coerce_or_error(ps, l, type, -1, CAST_IMPLICIT, -1);
        r = tdb_coerce_or_error(ps, r, type, -1, CAST_IMPLICIT, -1);
        if (j->jointype == JOIN_FULL) {
            CoalesceExpr *c = makeNode(CoalesceExpr);

            c->args = tdb_list_make2(l, r);
            c->xpr.type_oid = type;
            c->xpr.typmod = -1;
            c->xpr.location = -1;
            merged = (Expr *)c;
        } else
            merged = j->jointype == JOIN_RIGHT ? r : l;
        add_column(rte, name, exprType(merged), exprTypmod(merged));
        rte->joinaliasvars = tdb_lappend(rte->joinaliasvars, merged);
    }
    for (int i = 0; i < list_length(lcols); i++)
        if (!lused[i]) {
            JoinSideCol *c = list_nth(lcols, i);

            add_column(rte, c->name, exprType(c->expr), exprTypmod(c->expr));
            rte->joinaliasvars = tdb_lappend(rte->joinaliasvars, c->expr);
        }
    for (int i = 0; i < list_length(rcols); i++)
        if (!rused[i]) {
            JoinSideCol *c = list_nth(rcols, i);

            add_column(rte, c->name, exprType(c->expr), exprTypmod(c->expr));
            rte->joinaliasvars = tdb_lappend(rte->joinaliasvars, c->expr);
        }

    if (je->quals != NULL) {
        /* ON sees both sides (and what came before this JOIN in FROM
         * is not visible: PostgreSQL's rule) */
        ps->namespace = tdb_list_concat(tdb_list_copy(lns), rns);
        j->quals = tdb_transform_where(ps, je->quals, EXPR_KIND_JOIN_ON,
                                       "JOIN/ON");
        ps->namespace = saved_ns;
    }
    rte->in_from_clause = true;
    apply_alias(ps, rte, je->alias);
    rtindex = tdb_add_rte(ps, rte);
    j->rtindex = rtindex;
    if (je->alias != NULL) {
        *namespace = tdb_list_make1(ns_item(rtindex, true, true));
    } else {
        List *ns = tdb_list_make1(ns_item(rtindex, true, false));

        for (int i = 0; i < list_length(lns); i++)
            ns = tdb_lappend(
                ns, ns_item(((NamespaceItem *)list_nth(lns, i))->rtindex,
                            false,
                            ((NamespaceItem *)list_nth(lns, i))->rel_visible));
        for (int i = 0; i < list_length(rns); i++)
            ns = tdb_lappend(
                ns, ns_item(((NamespaceItem *)list_nth(rns, i))->rtindex,
                            false,
                            ((NamespaceItem *)list_nth(rns, i))->rel_visible));
        *namespace = ns;
    }
    return (Node *)j;
}

static Node *
transform_from_item(ParseState *ps, PgQuery__Node *item, List **namespace)
{
    tdb_check_stack_depth();

    switch (item->node_case) {
    case PG_QUERY__NODE__NODE_RANGE_VAR:
        return transform_range_var(ps, item->range_var, namespace);
    case PG_QUERY__NODE__NODE_RANGE_SUBSELECT:
        return transform_range_subselect(ps, item->range_subselect,
                                         namespace);
    case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
        return transform_range_function(ps, item->range_function, namespace);
    case PG_QUERY__NODE__NODE_JOIN_EXPR:
        return transform_join(ps, item->join_expr, namespace);
    default:
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("%s in FROM is not supported yet",
                       tdb_sql_node_name(item)));
    }
}

/* Two visible entries with the same name are an error (42712). */
static void
check_unique_names(ParseState *ps)
{
    for (int i = 0; i < list_length(ps->namespace); i++) {
        NamespaceItem *a = list_nth(ps->namespace, i);
        RangeTblEntry *ra = list_nth(ps->rtable, a->rtindex - 1);

        if (!a->rel_visible)
            continue;
        for (int j = i + 1; j < list_length(ps->namespace); j++) {
            NamespaceItem *b = list_nth(ps->namespace, j);
            RangeTblEntry *rb = list_nth(ps->rtable, b->rtindex - 1);

            if (b->rel_visible && strcmp(ra->refname, rb->refname) == 0)
                ereport(ERROR, errcode(ERRCODE_DUPLICATE_ALIAS),
                        errmsg("table name \"%s\" specified more than once",
                               ra->refname));
        }
    }
}

FromExpr *
tdb_transform_from_clause(ParseState *ps, PgQuery__Node **items, size_t n)
{
    FromExpr *from = makeNode(FromExpr);

    for (size_t i = 0; i < n; i++) {
        List *ns = NIL;

        from->fromlist =
            tdb_lappend(from->fromlist, transform_from_item(ps, items[i], &ns));
        ps->namespace = tdb_list_concat(ps->namespace, ns);
    }
    check_unique_names(ps);
    return from;
}

/* ----------------------------------------------------------------------
 * Target lists
 * ---------------------------------------------------------------------- */

/* Append every column of the visible RTEs (SELECT *), or of one. */
static List *
expand_star(ParseState *ps, const char *refname, List *tlist, int location)
{
    bool found = false;

    for (int i = 0; i < list_length(ps->namespace); i++) {
        NamespaceItem *item = list_nth(ps->namespace, i);
        RangeTblEntry *rte = list_nth(ps->rtable, item->rtindex - 1);

        if (refname == NULL ? !item->cols_visible
                            : (!item->rel_visible ||
                               strcmp(rte->refname, refname) != 0))
            continue;
        found = true;
        for (int c = 0; c < list_length(rte->colnames); c++) {
            Expr *e = rte->rtekind == RTE_JOIN
                          ? list_nth(rte->joinaliasvars, c)
                          : (Expr *)tdb_make_var(
                                item->rtindex, c + 1,
                                (Oid)list_nth_int(rte->coltypes, c),
                                list_nth_int(rte->coltypmods, c), 0);
            TargetEntry *te = tdb_make_target_entry(
                e, list_length(tlist) + 1, list_nth(rte->colnames, c), false);

            if (rte->rtekind == RTE_RELATION) {
                te->resorigtbl = rte->relid;
                te->resorigcol = c + 1;
            }
            tlist = tdb_lappend(tlist, te);
        }
    }
    if (refname != NULL && !found)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
                errmsg("missing FROM-clause entry for table \"%s\"", refname),
                errposition(parse_errpos(ps, location)));
    if (refname == NULL && !found)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("SELECT * with no tables specified is not valid"),
                errposition(parse_errpos(ps, location)));
    return tlist;
}

List *
tdb_transform_target_list(ParseState *ps, PgQuery__Node **items, size_t n,
                          ExprKind kind)
{
    List *tlist = NIL;

    for (size_t i = 0; i < n; i++) {
        PgQuery__ResTarget *rt = items[i]->res_target;
        PgQuery__Node *val = rt->val;
        Expr *e;
        TargetEntry *te;

        if (val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
            PgQuery__ColumnRef *cr = val->column_ref;
            PgQuery__Node *last = cr->fields[cr->n_fields - 1];

            if (last->node_case == PG_QUERY__NODE__NODE_A_STAR) {
                tlist = expand_star(
                    ps, cr->n_fields > 1 ? cr->fields[0]->string->sval : NULL,
                    tlist, cr->location);
                continue;
            }
        }
        e = tdb_transform_expr(ps, val, kind);
        te = tdb_make_target_entry(
            e, list_length(tlist) + 1,
            rt->name != NULL && rt->name[0] != '\0' ? rt->name
                                                    : tdb_figure_colname(val),
            false);
        te->xpr.location = rt->location;
        if (IsA(e, Var) && ((Var *)e)->varlevelsup == 0) {
            RangeTblEntry *rte =
                list_nth(ps->rtable, ((Var *)e)->varno - 1);

            if (rte->rtekind == RTE_RELATION) {
                te->resorigtbl = rte->relid;
                te->resorigcol = ((Var *)e)->varattno;
            }
        }
        tlist = tdb_lappend(tlist, te);
    }
    return tlist;
}

/* Unknown-typed output columns become text (PostgreSQL 10+). */
void
tdb_resolve_unknown_targets(ParseState *ps, List *tlist)
{
    for (int i = 0; i < list_length(tlist); i++) {
        TargetEntry *te = list_nth(tlist, i);

        if (exprType(te->expr) == UNKNOWNOID)
            te->expr = tdb_coerce_or_error(ps, te->expr, TEXTOID, -1,
                                           CAST_IMPLICIT,
                                           exprLocation(te->expr));
    }
}

/* ----------------------------------------------------------------------
 * ORDER BY and GROUP BY
 * ---------------------------------------------------------------------- */

static int next_sortgroupref(List *tlist);

/* A raw expression's location, for errors about a whole clause. */
static int
raw_item_location(const PgQuery__Node *n)
{
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF:
        return n->column_ref->location;
    case PG_QUERY__NODE__NODE_A_CONST:
        return n->a_const->location;
    case PG_QUERY__NODE__NODE_A_EXPR:
        return n->a_expr->location;
    case PG_QUERY__NODE__NODE_FUNC_CALL:
        return n->func_call->location;
    default:
        return -1;
    }
}

/* The target entry an ORDER BY / GROUP BY item names or computes. */
static TargetEntry *
find_target(ParseState *ps, PgQuery__Node *node, List **tlist, ExprKind kind)
{
    Expr *e;
    TargetEntry *te;
    bool is_order = kind == EXPR_KIND_ORDER_BY;

    if (node->node_case == PG_QUERY__NODE__NODE_A_CONST &&
        node->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
        int pos = node->a_const->ival->ival;
        int visible = 0;

        for (int i = 0; i < list_length(*tlist); i++) {
            te = list_nth(*tlist, i);
            if (!te->resjunk && ++visible == pos)
                return te;
        }
        ereport(ERROR, errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
                errmsg("%s position %d is not in select list",
                       is_order ? "ORDER BY" : "GROUP BY", pos),
                errposition(parse_errpos(ps, node->a_const->location)));
    }
    if (node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
        node->column_ref->n_fields == 1 &&
        node->column_ref->fields[0]->node_case ==
            PG_QUERY__NODE__NODE_STRING) {
        const char *name = node->column_ref->fields[0]->string->sval;
        TargetEntry *match = NULL;
        bool input_column = false;

        if (!is_order) {
            /* GROUP BY: an input column of this name wins (SQL99) */
            for (int i = 0; i < list_length(ps->namespace); i++) {
                NamespaceItem *item = list_nth(ps->namespace, i);
                RangeTblEntry *rte = list_nth(ps->rtable, item->rtindex - 1);

                for (int c = 0; item->cols_visible &&
                                c < list_length(rte->colnames);
                     c++)
                    if (strcmp(list_nth(rte->colnames, c), name) == 0)
                        input_column = true;
            }
        }
        for (int i = 0; !input_column && i < list_length(*tlist); i++) {
            te = list_nth(*tlist, i);
            if (te->resjunk || te->resname == NULL ||
                strcmp(te->resname, name) != 0)
                continue;
            if (match != NULL && !tdb_expr_equal((Node *)match->expr,
                                                 (Node *)te->expr))
                ereport(ERROR, errcode(ERRCODE_AMBIGUOUS_COLUMN),
                        errmsg("%s \"%s\" is ambiguous",
                               is_order ? "ORDER BY" : "GROUP BY", name),
                        errposition(parse_errpos(
                            ps, node->column_ref->location)));
            if (match == NULL)
                match = te;
        }
        if (match != NULL)
            return match;
    }
    e = tdb_transform_expr(ps, node, kind);
    for (int i = 0; i < list_length(*tlist); i++) {
        te = list_nth(*tlist, i);
        if (tdb_expr_equal((Node *)te->expr, (Node *)e))
            return te;
    }
    if (exprType(e) == UNKNOWNOID)
        e = tdb_coerce_or_error(ps, e, TEXTOID, -1, CAST_IMPLICIT,
                                exprLocation(e));
    te = tdb_make_target_entry(e, list_length(*tlist) + 1, NULL, true);
    *tlist = tdb_lappend(*tlist, te);
    return te;
}

static int
next_sortgroupref(List *tlist)
{
    int max = 0;

    for (int i = 0; i < list_length(tlist); i++)
        max = Max(max, ((TargetEntry *)list_nth(tlist, i))->ressortgroupref);
    return max + 1;
}

SortGroupClause *
tdb_make_sortgroup(ParseState *ps, TargetEntry *te, List *tlist,
                   bool descending, bool nulls_first, int location)
{
    SortGroupClause *sgc = makeNode(SortGroupClause);
    Oid type = exprType(te->expr);

    if (te->ressortgroupref == 0)
        te->ressortgroupref = next_sortgroupref(tlist);
    sgc->tle_ref = te->ressortgroupref;
    sgc->support = tdb_type_support(type);
    if (sgc->support == NULL || sgc->support->cmp == NULL)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_FUNCTION),
                errmsg("could not identify an ordering operator for type %s",
                       tdb_format_type(type, -1)),
                errhint("Use an explicit ordering operator or modify the "
                        "query."),
                errposition(parse_errpos(ps, location)));
    sgc->eqop = tdb_equality_op(ps, type, location);
    sgc->descending = descending;
    sgc->nulls_first = nulls_first;
    return sgc;
}

List *
tdb_transform_sort_clause(ParseState *ps, PgQuery__Node **items, size_t n,
                          List **tlist)
{
    List *result = NIL;

    for (size_t i = 0; i < n; i++) {
        PgQuery__SortBy *sb = items[i]->sort_by;
        TargetEntry *te;
        bool desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
        bool nulls_first;

        if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("ORDER BY ... USING is not supported yet"),
                    errposition(parse_errpos(ps, sb->location)));
        te = find_target(ps, sb->node, tlist, EXPR_KIND_ORDER_BY);
        nulls_first =
            sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST ||
            (sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST &&
             desc);
        result = tdb_lappend(result,
                             tdb_make_sortgroup(ps, te, *tlist, desc,
                                                nulls_first, sb->location));
    }
    return result;
}

List *
tdb_transform_distinct_on(ParseState *ps, PgQuery__Node **items, size_t n,
                          List **tlist, List *sort_clause)
{
    List *result = NIL;
    int covered = 0;

    for (size_t i = 0; i < n; i++) {
        TargetEntry *te = find_target(ps, items[i], tlist,
                                      EXPR_KIND_DISTINCT_ON);
        bool duplicate = false;

        for (int d = 0; d < list_length(result); d++)
            if (((SortGroupClause *)list_nth(result, d))->tle_ref ==
                    te->ressortgroupref &&
                te->ressortgroupref != 0)
                duplicate = true;
        if (!duplicate)
            result = tdb_lappend(result,
                                 tdb_make_sortgroup(ps, te, *tlist, false,
                                                    false, -1));
    }
    /* ORDER BY must begin with the DISTINCT ON expressions (any order) */
    for (int i = 0; i < list_length(sort_clause) &&
                    covered < list_length(result);
         i++) {
        SortGroupClause *sgc = list_nth(sort_clause, i);
        bool member = false;

        for (int d = 0; d < list_length(result); d++)
            if (((SortGroupClause *)list_nth(result, d))->tle_ref ==
                sgc->tle_ref)
                member = true;
        if (!member)
            ereport(ERROR, errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
                    errmsg("SELECT DISTINCT ON expressions must match "
                           "initial ORDER BY expressions"),
                    errposition(parse_errpos(ps, raw_item_location(items[0]))));
        covered++;
    }
    return result;
}

List *
tdb_transform_group_clause(ParseState *ps, PgQuery__Node **items, size_t n,
                           List **tlist)
{
    List *result = NIL;

    for (size_t i = 0; i < n; i++) {
        TargetEntry *te;
        bool duplicate = false;

        if (items[i]->node_case == PG_QUERY__NODE__NODE_GROUPING_SET)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("GROUPING SETS, ROLLUP and CUBE are not supported "
                           "yet"));
        te = find_target(ps, items[i], tlist, EXPR_KIND_GROUP_BY);
        for (int g = 0; g < list_length(result); g++)
            if (((SortGroupClause *)list_nth(result, g))->tle_ref ==
                te->ressortgroupref && te->ressortgroupref != 0)
                duplicate = true;
        if (!duplicate)
            result = tdb_lappend(result,
                                 tdb_make_sortgroup(ps, te, *tlist, false,
                                                    false, -1));
    }
    return result;
}

/* ----------------------------------------------------------------------
 * Grouping validity
 * ---------------------------------------------------------------------- */

/*
 * The grouped query's columns may be read only through its GROUP BY
 * expressions or inside its aggregates -- also from the queries nested
 * in it (sublinks, and the subqueries of their FROM clauses), where they
 * are outer columns and must be grouped columns themselves:
 * PostgreSQL's "subquery uses ungrouped column".
 * depth counts how deep the walk is in those queries; the grouped
 * query's columns and aggregates are the Vars and Aggrefs that many
 * levels up, and its GROUP BY expressions are compared one level further
 * up per level (group_exprs[depth]).
 */
typedef struct GroupCheck {
    ParseState *ps;
    List *group_exprs; /* per depth: a List of the GROUP BY Exprs */
    int depth;
} GroupCheck;

static bool check_ungrouped(Node *node, void *arg);

/* Mutator: every Var and Aggref one level further up. */
static Node *
one_level_down(Node *node, void *arg)
{
    if (node == NULL)
        return NULL;
    node = tdb_expr_mutate_children(node, one_level_down, arg);
    if (IsA(node, Var))
        ((Var *)node)->varlevelsup++;
    else if (IsA(node, Aggref))
        ((Aggref *)node)->agglevelsup++;
    return node;
}

/* The GROUP BY expressions as seen at gc->depth. */
static List *
group_exprs_here(GroupCheck *gc)
{
    while (list_length(gc->group_exprs) <= gc->depth) {
        List *above = llast(gc->group_exprs);
        List *here = NIL;

        for (int i = 0; i < list_length(above); i++)
            here = tdb_lappend(here, one_level_down(list_nth(above, i), NULL));
        gc->group_exprs = tdb_lappend(gc->group_exprs, here);
    }
    return list_nth(gc->group_exprs, gc->depth);
}

static void
check_ungrouped_jointree(Node *node, GroupCheck *gc)
{
    if (node == NULL)
        return;
    if (IsA(node, FromExpr)) {
        FromExpr *f = (FromExpr *)node;

        for (int i = 0; i < list_length(f->fromlist); i++)
            check_ungrouped_jointree(list_nth(f->fromlist, i), gc);
        check_ungrouped((Node *)f->quals, gc);
    } else if (IsA(node, JoinExpr)) {
        JoinExpr *j = (JoinExpr *)node;

        check_ungrouped_jointree(j->larg, gc);
        check_ungrouped_jointree(j->rarg, gc);
        check_ungrouped((Node *)j->quals, gc);
    }
}

/*
 * Every expression of q, a query at gc->depth.  The subqueries of its
 * FROM clause are analyzed with the level above q as their parent
 * (tupledb has no LATERAL: q's own columns are hidden from them), so
 * their outer references count levels as q's do: same depth.
 */
static void
check_ungrouped_query_at(Query *q, GroupCheck *gc)
{
    if (q == NULL)
        return;
    check_ungrouped((Node *)q->target_list, gc);
    check_ungrouped_jointree((Node *)q->jointree, gc);
    check_ungrouped((Node *)q->having, gc);
    check_ungrouped((Node *)q->returning, gc);
    check_ungrouped((Node *)q->limit_offset, gc);
    check_ungrouped((Node *)q->limit_count, gc);
    for (int i = 0; i < list_length(q->rtable); i++) {
        RangeTblEntry *rte = list_nth(q->rtable, i);

        if (rte->rtekind == RTE_SUBQUERY)
            check_ungrouped_query_at(rte->subquery, gc);
        else if (rte->rtekind == RTE_FUNCTION)
            check_ungrouped((Node *)rte->funcexpr, gc);
        else if (rte->rtekind == RTE_VALUES)
            check_ungrouped((Node *)rte->values_lists, gc);
    }
    /* a recursive query's terms are queries of the same level as q */
    check_ungrouped_query_at(q->rec_nonrecursive, gc);
    check_ungrouped_query_at(q->rec_recursive, gc);
}

/* A sublink's query, one level below the expression holding it. */
static void
check_ungrouped_query(Query *q, GroupCheck *gc)
{
    gc->depth++;
    check_ungrouped_query_at(q, gc);
    gc->depth--;
}

static bool
check_ungrouped(Node *node, void *arg)
{
    GroupCheck *gc = arg;
    List *group_exprs;

    if (node == NULL)
        return false;
    /* anything goes inside an aggregate of the grouped query */
    if (IsA(node, Aggref) && ((Aggref *)node)->agglevelsup == gc->depth)
        return false;
    /* in a nested query only a grouped column itself will do, as in
     * PostgreSQL (not a grouped expression: GROUP BY x + 1 does not let a
     * subquery read x + 1) */
    group_exprs = group_exprs_here(gc);
    if (gc->depth == 0 || IsA(node, Var))
        for (int i = 0; i < list_length(group_exprs); i++)
            if (tdb_expr_equal(list_nth(group_exprs, i), node))
                return false;
    if (IsA(node, Var) && ((Var *)node)->varlevelsup == gc->depth) {
        Var *v = (Var *)node;
        RangeTblEntry *rte = list_nth(gc->ps->rtable, v->varno - 1);
        const char *colname = list_nth(rte->colnames, v->varattno - 1);

        if (gc->depth > 0)
            ereport(ERROR, errcode(ERRCODE_GROUPING_ERROR),
                    errmsg("subquery uses ungrouped column \"%s.%s\" from "
                           "outer query",
                           rte->refname, colname),
                    errposition(parse_errpos(gc->ps, v->xpr.location)));
        ereport(ERROR, errcode(ERRCODE_GROUPING_ERROR),
                errmsg("column \"%s.%s\" must appear in the GROUP BY clause "
                       "or be used in an aggregate function",
                       rte->refname, colname),
                errposition(parse_errpos(gc->ps, v->xpr.location)));
    }
    if (IsA(node, SubLink)) {
        check_ungrouped_query((Query *)((SubLink *)node)->subselect, gc);
        return check_ungrouped((Node *)((SubLink *)node)->testexpr, gc);
    }
    if (IsA(node, List)) {
        for (int i = 0; i < list_length((List *)node); i++)
            check_ungrouped(list_nth((List *)node, i), gc);
        return false;
    }
    return tdb_expr_walk_children(node, check_ungrouped, arg);
}

void
tdb_check_grouping(ParseState *ps, Query *q)
{
    GroupCheck gc = {ps, NIL, 0};
    List *group_exprs = NIL;

    for (int i = 0; i < list_length(q->group_clause); i++) {
        SortGroupClause *sgc = list_nth(q->group_clause, i);

        for (int t = 0; t < list_length(q->target_list); t++) {
            TargetEntry *te = list_nth(q->target_list, t);

            if (te->ressortgroupref == sgc->tle_ref)
                group_exprs = tdb_lappend(group_exprs, te->expr);
        }
    }
    gc.group_exprs = tdb_lappend(NIL, group_exprs);
    for (int t = 0; t < list_length(q->target_list); t++)
        check_ungrouped((Node *)((TargetEntry *)list_nth(q->target_list, t))
                            ->expr,
                        &gc);
    check_ungrouped((Node *)q->having, &gc);
}
