/*
 * parse_expr.c -- raw expression trees to typed expressions
 * (PostgreSQL's transformExpr), one function per parse-node kind.
 *
 * Column references are resolved against the ParseState's namespace
 * (then the outer levels, for correlated subqueries); constants become
 * Consts (string literals stay "unknown" until something fixes their
 * type); operators and functions are resolved in parse_oper.c; aggregate
 * calls become Aggrefs after the checks PostgreSQL makes (no aggregates
 * in WHERE, no nesting).
 */
#include "common/base.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "common/stack_depth.h"
#include "parser/analyze.h"
#include "parser/statement.h"
#include "parser/system_views.h"
#include "parser/typename.h"

static Expr *transform(ParseState *ps, PgQuery__Node *node);

static const char *
expr_kind_name(ExprKind kind)
{
    switch (kind) {
    case EXPR_KIND_WHERE:
        return "WHERE";
    case EXPR_KIND_JOIN_ON:
        return "JOIN conditions";
    case EXPR_KIND_GROUP_BY:
        return "GROUP BY";
    case EXPR_KIND_LIMIT:
        return "LIMIT";
    case EXPR_KIND_OFFSET:
        return "OFFSET";
    case EXPR_KIND_VALUES:
        return "VALUES";
    case EXPR_KIND_FROM_FUNCTION:
        return "functions in FROM";
    case EXPR_KIND_FILTER:
        return "FILTER";
    case EXPR_KIND_COLUMN_DEFAULT:
        return "DEFAULT expressions";
    case EXPR_KIND_CHECK_CONSTRAINT:
        return "check constraints";
    case EXPR_KIND_UPDATE_SOURCE:
        return "UPDATE";
    case EXPR_KIND_RETURNING:
        return "RETURNING";
    case EXPR_KIND_COPY_WHERE:
        return "COPY FROM WHERE conditions";
    case EXPR_KIND_INDEX_EXPRESSION:
        return "index expressions";
    case EXPR_KIND_INDEX_PREDICATE:
        return "index predicates";
    default:
        return "this context";
    }
}

static TDB_NORETURN void
not_supported(ParseState *ps, const char *what, int location)
{
    ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
            errmsg("%s is not supported yet", what),
            errposition(parse_errpos(ps, location)));
}

static const char *
node_string(const PgQuery__Node *n)
{
    return n != NULL && n->node_case == PG_QUERY__NODE__NODE_STRING
               ? n->string->sval
               : NULL;
}

/* ----------------------------------------------------------------------
 * Column references
 * ---------------------------------------------------------------------- */

/* Column `name` of rte, 1-based, or 0; -1 if it occurs twice. */
static int
rte_column(const RangeTblEntry *rte, const char *name)
{
    int found = 0;

    for (int i = 0; i < list_length(rte->colnames); i++)
        if (strcmp(list_nth(rte->colnames, i), name) == 0) {
            if (found != 0)
                return -1;
            found = i + 1;
        }
    return found;
}

/* The expression for column attno of rte at a given level. */
static Expr *
column_expr(ParseState *ps, int rtindex, RangeTblEntry *rte, int attno,
            int levelsup, int location)
{
    Expr *e;

    if (rte->rtekind == RTE_JOIN) {
        e = list_nth(rte->joinaliasvars, attno - 1);
        e = (Expr *)tdb_copy_node_shallow((Node *)e);
        /* a column of one side is that side's Var, seen from further in
         * like any outer column; a merged USING column of a FULL join
         * (COALESCE) is not handled from a subquery yet */
        if (levelsup > 0 && IsA(e, Var))
            ((Var *)e)->varlevelsup = levelsup;
        else if (levelsup > 0)
            not_supported(ps, "a correlated reference to a JOIN column",
                          location);
        e->location = location;
        return e;
    }
    e = (Expr *)tdb_make_var(rtindex, attno,
                             (Oid)list_nth_int(rte->coltypes, attno - 1),
                             list_nth_int(rte->coltypmods, attno - 1),
                             levelsup);
    e->location = location;
    return e;
}

static RangeTblEntry *
rt_fetch(ParseState *ps, int rtindex)
{
    return list_nth(ps->rtable, rtindex - 1);
}

/* An unqualified column name, at this level or outer ones. */
static Expr *
resolve_column(ParseState *ps, const char *name, int location)
{
    int levelsup = 0;

    for (ParseState *level = ps; level != NULL;
         level = level->parent, levelsup++) {
        Expr *found = NULL;

        for (int i = 0; i < list_length(level->namespace); i++) {
            NamespaceItem *item = list_nth(level->namespace, i);
            RangeTblEntry *rte;
            int attno;

            if (!item->cols_visible)
                continue;
            rte = rt_fetch(level, item->rtindex);
            attno = rte_column(rte, name);
            if (attno == 0)
                continue;
            if (attno < 0 || found != NULL)
                ereport(ERROR, errcode(ERRCODE_AMBIGUOUS_COLUMN),
                        errmsg("column reference \"%s\" is ambiguous", name),
                        errposition(parse_errpos(ps, location)));
            found = column_expr(level, item->rtindex, rte, attno, levelsup,
                                location);
        }
        if (found != NULL)
            return found;
    }
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_COLUMN),
            errmsg("column \"%s\" does not exist", name),
            errposition(parse_errpos(ps, location)));
}

/* The RTE named refname (qualified references), with its level. */
static int
find_rte(ParseState *ps, const char *refname, int *levelsup_out,
         ParseState **level_out)
{
    int levelsup = 0;

    for (ParseState *level = ps; level != NULL;
         level = level->parent, levelsup++) {
        int found = 0;

        for (int i = 0; i < list_length(level->namespace); i++) {
            NamespaceItem *item = list_nth(level->namespace, i);

            if (item->rel_visible &&
                strcmp(rt_fetch(level, item->rtindex)->refname, refname) ==
                    0) {
                if (found != 0)
                    ereport(ERROR, errcode(ERRCODE_DUPLICATE_ALIAS),
                            errmsg("table reference \"%s\" is ambiguous",
                                   refname));
                found = item->rtindex;
            }
        }
        if (found != 0) {
            *levelsup_out = levelsup;
            *level_out = level;
            return found;
        }
    }
    return 0;
}

static Expr *
resolve_qualified(ParseState *ps, const char *refname, const char *colname,
                  int location)
{
    ParseState *level;
    int levelsup;
    int rtindex = find_rte(ps, refname, &levelsup, &level);
    RangeTblEntry *rte;
    int attno;

    if (rtindex == 0) {
        /* a table named so but hidden behind an alias? */
        for (int i = 0; i < list_length(ps->namespace); i++) {
            NamespaceItem *item = list_nth(ps->namespace, i);
            RangeTblEntry *aliased = rt_fetch(ps, item->rtindex);

            if (aliased->rtekind == RTE_RELATION && aliased->has_alias &&
                strcmp(aliased->relname, refname) == 0)
                ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
                        errmsg("invalid reference to FROM-clause entry for "
                               "table \"%s\"",
                               refname),
                        errhint("Perhaps you meant to reference the table "
                                "alias \"%s\".",
                                aliased->refname),
                        errposition(parse_errpos(ps, location)));
        }
        /* ON CONFLICT's EXCLUDED, outside the clauses that see it */
        for (int i = 0; i < list_length(ps->rtable); i++) {
            RangeTblEntry *hidden = rt_fetch(ps, i + 1);

            if (hidden->is_excluded && strcmp(hidden->refname, refname) == 0)
                ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
                        errmsg("invalid reference to FROM-clause entry for "
                               "table \"%s\"",
                               refname),
                        errhint("There is an entry for table \"%s\", but it "
                                "cannot be referenced from this part of the "
                                "query.",
                                refname),
                        errposition(parse_errpos(ps, location)));
        }
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
                errmsg("missing FROM-clause entry for table \"%s\"", refname),
                errposition(parse_errpos(ps, location)));
    }
    rte = rt_fetch(level, rtindex);
    attno = rte_column(rte, colname);
    if (attno == 0)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_COLUMN),
                errmsg("column %s.%s does not exist", refname, colname),
                errposition(parse_errpos(ps, location)));
    if (attno < 0)
        ereport(ERROR, errcode(ERRCODE_AMBIGUOUS_COLUMN),
                errmsg("column reference \"%s\" is ambiguous", colname),
                errposition(parse_errpos(ps, location)));
    return column_expr(level, rtindex, rte, attno, levelsup, location);
}

static Expr *
transform_column_ref(ParseState *ps, PgQuery__ColumnRef *cr)
{
    const char *first = node_string(cr->fields[0]);

    if (ps->expr_kind == EXPR_KIND_COLUMN_DEFAULT)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("cannot use column reference in DEFAULT expression"),
                errposition(parse_errpos(ps, cr->location)));

    if (cr->n_fields == 1 && first != NULL)
        return resolve_column(ps, first, cr->location);
    if (cr->n_fields == 2 && first != NULL &&
        node_string(cr->fields[1]) != NULL)
        return resolve_qualified(ps, first, node_string(cr->fields[1]),
                                 cr->location);
    if (cr->n_fields == 3 && node_string(cr->fields[2]) != NULL &&
        strcmp(first, "public") == 0)
        return resolve_qualified(ps, node_string(cr->fields[1]),
                                 node_string(cr->fields[2]), cr->location);
    if (cr->fields[cr->n_fields - 1]->node_case ==
        PG_QUERY__NODE__NODE_A_STAR)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("row expansion via \"*\" is not supported here"),
                errposition(parse_errpos(ps, cr->location)));
    ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
            errmsg("improper qualified name (too many dotted names)"),
            errposition(parse_errpos(ps, cr->location)));
}

/* ----------------------------------------------------------------------
 * Constants
 * ---------------------------------------------------------------------- */

static Expr *
located(Expr *e, int location)
{
    e->location = location;
    return e;
}

/* An unknown-typed literal: the C string, typed later. */
static Expr *
unknown_const(const char *str, int location)
{
    Const *c = tdb_make_const(UNKNOWNOID, -1,
                              PointerGetDatum(
                                  tdb_mcxt_strdup(tdb_current_mcxt, str)),
                              false);

    return located((Expr *)c, location);
}

/* A numeric literal that did not fit int4: int8 if it is an integer
 * that fits, else numeric. */
static Expr *
float_const(ParseState *ps, const char *str, int location)
{
    char *end;
    long long v;

    errno = 0;
    v = strtoll(str, &end, 10);
    /* (a negated literal can still fit int4: -2147483648) */
    if (*end == '\0' && errno != ERANGE && v == (int32)v)
        return located((Expr *)tdb_make_const(INT4OID, -1,
                                              Int32GetDatum((int32)v), false),
                       location);
    if (*end == '\0' && errno != ERANGE)
        return located((Expr *)tdb_make_const(INT8OID, -1, Int64GetDatum(v),
                                              false),
                       location);
    return tdb_coerce_or_error(ps, unknown_const(str, location), NUMERICOID,
                               -1, CAST_EXPLICIT, location);
}

static Expr *
transform_const(ParseState *ps, PgQuery__AConst *c)
{
    if (c->isnull)
        return located((Expr *)tdb_make_null_const(UNKNOWNOID, -1),
                       c->location);
    switch (c->val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL:
        return located((Expr *)tdb_make_const(INT4OID, -1,
                                              Int32GetDatum(c->ival->ival),
                                              false),
                       c->location);
    case PG_QUERY__A__CONST__VAL_FVAL:
        return float_const(ps, c->fval->fval, c->location);
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
        return located((Expr *)tdb_make_bool_const(c->boolval->boolval,
                                                   false),
                       c->location);
    case PG_QUERY__A__CONST__VAL_SVAL:
        return unknown_const(c->sval->sval, c->location);
    default:
        not_supported(ps, "this kind of constant", c->location);
    }
}

/* ----------------------------------------------------------------------
 * Operators and their special forms
 * ---------------------------------------------------------------------- */

static Expr *transform_op_any_array(ParseState *ps, PgQuery__AExpr *a);

static const char *
op_name(PgQuery__AExpr *a)
{
    const char *name = node_string(a->name[a->n_name - 1]);

    return name != NULL ? name : "?";
}

static List *
transform_list(ParseState *ps, PgQuery__Node **nodes, size_t n)
{
    List *result = NIL;

    for (size_t i = 0; i < n; i++)
        result = tdb_lappend(result, transform(ps, nodes[i]));
    return result;
}

static Expr *
make_bool(BoolExprType op, List *args, int location)
{
    BoolExpr *b = makeNode(BoolExpr);

    b->xpr.type_oid = BOOLOID;
    b->xpr.typmod = -1;
    b->xpr.location = location;
    b->boolop = op;
    b->args = args;
    return (Expr *)b;
}

static bool
contains_local_var(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if (IsA(node, Var) && ((Var *)node)->varlevelsup == 0)
        return true;
    return tdb_expr_walk_children(node, contains_local_var, arg);
}

/*
 * The items of an IN list without columns of this query, compared at
 * once (x = ANY / x <> ALL), or NULL if they and x have no common type
 * that x's equality operator accepts.
 */
static Expr *
make_in_list(ParseState *ps, Expr *arg, List *items, bool is_not,
             int location)
{
    Oid common = tdb_select_common_type(
        ps, tdb_lprepend(tdb_list_copy(items), arg), NULL);
    InListExpr *in;
    OpExpr *eq;

    if (common == InvalidOid)
        return NULL;
    for (int i = 0; i < list_length(items); i++)
        if (!tdb_can_coerce(exprType(list_nth(items, i)), common,
                            CAST_IMPLICIT))
            return NULL;
    if (!tdb_can_coerce(exprType(arg), common, CAST_IMPLICIT))
        return NULL;
    /* x = element: a cross-type operator if x's type has one */
    eq = (OpExpr *)tdb_make_op(ps, "=", arg,
                               (Expr *)tdb_make_null_const(common, -1),
                               location);
    if (!IsA(eq, OpExpr) || exprType(&eq->xpr) != BOOLOID)
        return NULL;
    in = makeNode(InListExpr);
    in->arg = linitial(eq->args);
    in->op = eq->op;
    for (int i = 0; i < list_length(items); i++) {
        Expr *item = list_nth(items, i);

        in->items = tdb_lappend(in->items,
                                tdb_coerce_or_error(ps, item, common, -1,
                                                    CAST_IMPLICIT,
                                                    exprLocation(item)));
    }
    in->is_not = is_not;
    in->xpr.type_oid = BOOLOID;
    in->xpr.typmod = -1;
    in->xpr.location = location;
    return (Expr *)in;
}

/* ----------------------------------------------------------------------
 * Row comparisons: (a, b) op (c, d), (a, b) IN (...)
 * ---------------------------------------------------------------------- */

static bool
is_row(const PgQuery__Node *n)
{
    return n != NULL && n->node_case == PG_QUERY__NODE__NODE_ROW_EXPR;
}

static List *
row_args(ParseState *ps, PgQuery__Node *row)
{
    return transform_list(ps, row->row_expr->args, row->row_expr->n_args);
}

/* One pair of a row comparison; the operator must yield boolean. */
static Expr *
row_pair(ParseState *ps, const char *opname, Expr *l, Expr *r, int location)
{
    Expr *cmp = tdb_make_op(ps, opname, l, r, location);

    if (exprType(cmp) != BOOLOID)
        ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
                errmsg("row comparison operator must yield type boolean, "
                       "not type %s",
                       tdb_format_type(exprType(cmp), -1)),
                errposition(parse_errpos(ps, location)));
    return cmp;
}

/*
 * Two rows compared pair by pair, as PostgreSQL defines it: = is the
 * AND of the pairs' =, <> the OR of their <>; <, <=, >, >= compare
 * lexicographically (the first pair that is not equal decides), built
 * as (l1 < r1) OR (l1 = r1 AND <the same over the rest>) with the last
 * pair compared by the operator itself.  Three-valued logic then gives
 * NULL exactly where PostgreSQL's row comparison does: when the first
 * pair that is not known to be equal has a NULL.  (PostgreSQL keeps the
 * ordering forms as one RowCompareExpr; EXPLAIN shows the expansion.)
 */
static Expr *
make_row_comparison(ParseState *ps, const char *opname, List *largs,
                    List *rargs, int location)
{
    int n = list_length(largs);
    bool eq = strcmp(opname, "=") == 0, ne = strcmp(opname, "<>") == 0;
    const char *strict;
    Expr *result;

    if (n != list_length(rargs))
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("unequal number of entries in row expressions"),
                errposition(parse_errpos(ps, location)));
    if (n == 0)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("cannot compare rows of zero length"),
                errposition(parse_errpos(ps, location)));
    if (eq || ne) {
        List *pairs = NIL;

        for (int i = 0; i < n; i++)
            pairs = tdb_lappend(pairs, row_pair(ps, opname, list_nth(largs, i),
                                                list_nth(rargs, i), location));
        return n == 1 ? linitial(pairs)
                      : make_bool(eq ? AND_EXPR : OR_EXPR, pairs, location);
    }
    if (strcmp(opname, "<") != 0 && strcmp(opname, "<=") != 0 &&
        strcmp(opname, ">") != 0 && strcmp(opname, ">=") != 0)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_FUNCTION),
                errmsg("could not determine interpretation of row "
                       "comparison operator %s", opname),
                errhint("Row comparison operators must be associated with "
                        "btree operator families."),
                errposition(parse_errpos(ps, location)));
    strict = opname[0] == '<' ? "<" : ">";
    result = row_pair(ps, opname, list_nth(largs, n - 1),
                      list_nth(rargs, n - 1), location);
    for (int i = n - 2; i >= 0; i--) {
        Expr *l = list_nth(largs, i), *r = list_nth(rargs, i);
        Expr *tie = make_bool(
            AND_EXPR,
            tdb_list_make2(row_pair(ps, "=", l, r, location), result),
            location);

        result = make_bool(
            OR_EXPR,
            tdb_list_make2(row_pair(ps, strict, l, r, location), tie),
            location);
    }
    return result;
}

/* (a, b) IN ((1, 2), (3, 4)): row equalities ORed (<>, ANDed, for NOT IN). */
static Expr *
transform_row_in(ParseState *ps, PgQuery__AExpr *a, bool is_not)
{
    List *largs = row_args(ps, a->lexpr);
    PgQuery__List *items = a->rexpr->list;
    Expr *result = NULL;

    for (size_t i = 0; i < items->n_items; i++) {
        Expr *cmp;

        if (!is_row(items->items[i]))
            not_supported(ps, "IN comparing a row with a non-row value",
                          a->location);
        cmp = make_row_comparison(ps, is_not ? "<>" : "=", largs,
                                  row_args(ps, items->items[i]), a->location);
        result = result == NULL
                     ? cmp
                     : make_bool(is_not ? AND_EXPR : OR_EXPR,
                                 tdb_list_make2(result, cmp), a->location);
    }
    return result;
}

/*
 * x IN (a, b, ...), x NOT IN (...), as PostgreSQL builds them: items
 * without columns of this query, if there are two or more, become one
 * x = ANY (...) (x <> ALL for NOT IN); every other item is its own
 * x = item, ORed (x <> item, ANDed for NOT IN).
 */
static Expr *
transform_in(ParseState *ps, PgQuery__AExpr *a)
{
    bool is_not = strcmp(op_name(a), "<>") == 0;
    Expr *arg;
    List *items;
    List *with_vars = NIL;
    List *without_vars = NIL;
    List *separate;
    Expr *result = NULL;

    if (a->rexpr->node_case != PG_QUERY__NODE__NODE_LIST)
        not_supported(ps, "IN with this right-hand side", a->location);
    if (is_row(a->lexpr))
        return transform_row_in(ps, a, is_not);
    arg = transform(ps, a->lexpr);
    items = transform_list(ps, a->rexpr->list->items, a->rexpr->list->n_items);
    for (int i = 0; i < list_length(items); i++) {
        Node *item = list_nth(items, i);

        if (contains_local_var(item, NULL))
            with_vars = tdb_lappend(with_vars, item);
        else
            without_vars = tdb_lappend(without_vars, item);
    }
    separate = items;
    if (list_length(without_vars) > 1) {
        result = make_in_list(ps, arg, without_vars, is_not, a->location);
        if (result != NULL)
            separate = with_vars;
    }
    for (int i = 0; i < list_length(separate); i++) {
        Expr *cmp = tdb_coerce_to_boolean(
            ps, tdb_make_op(ps, op_name(a), arg, list_nth(separate, i),
                            a->location),
            "IN");

        result = result == NULL
                     ? cmp
                     : make_bool(is_not ? AND_EXPR : OR_EXPR,
                                 tdb_list_make2(result, cmp), a->location);
    }
    return result;
}

/* BETWEEN [SYMMETRIC], NOT BETWEEN [SYMMETRIC] */
static Expr *
transform_between(ParseState *ps, PgQuery__AExpr *a)
{
    PgQuery__List *bounds = a->rexpr->list;
    bool negated = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN ||
                   a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM;
    bool symmetric = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM ||
                     a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM;
    Expr *x = transform(ps, a->lexpr);
    Expr *lo = transform(ps, bounds->items[0]);
    /* the first comparison is resolved before the upper bound is
     * analyzed, as in PostgreSQL: "x BETWEEN $1 AND $1 + 1" knows $1's
     * type by then */
    Expr *first = tdb_make_op(ps, negated ? "<" : ">=", x, lo, a->location);
    Expr *hi = transform(ps, bounds->items[1]);
    Expr *forward, *backward;

    if (!negated) {
        forward = make_bool(AND_EXPR,
                            tdb_list_make2(first,
                                           tdb_make_op(ps, "<=", x, hi,
                                                       a->location)),
                            a->location);
        if (!symmetric)
            return forward;
        backward = make_bool(AND_EXPR,
                             tdb_list_make2(tdb_make_op(ps, ">=", x, hi,
                                                        a->location),
                                            tdb_make_op(ps, "<=", x, lo,
                                                        a->location)),
                             a->location);
        return make_bool(OR_EXPR, tdb_list_make2(forward, backward),
                         a->location);
    }
    forward = make_bool(OR_EXPR,
                        tdb_list_make2(first,
                                       tdb_make_op(ps, ">", x, hi,
                                                   a->location)),
                        a->location);
    if (!symmetric)
        return forward;
    backward = make_bool(OR_EXPR,
                         tdb_list_make2(tdb_make_op(ps, "<", x, hi,
                                                    a->location),
                                        tdb_make_op(ps, ">", x, lo,
                                                    a->location)),
                         a->location);
    return make_bool(AND_EXPR, tdb_list_make2(forward, backward),
                     a->location);
}

/* NULLIF(a, b) and a IS [NOT] DISTINCT FROM b. */
/* l = r for NULLIF / IS DISTINCT FROM (what), which must be boolean. */
static OpExpr *
equality_for(ParseState *ps, Expr *l, Expr *r, const char *what,
             int location)
{
    OpExpr *eq = (OpExpr *)tdb_make_op(ps, "=", l, r, location);

    if (exprType(&eq->xpr) != BOOLOID)
        ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
                errmsg("operator for %s must return type boolean", what),
                errposition(parse_errpos(ps, location)));
    return eq;
}

static Expr *
make_distinct(OpExpr *eq, bool is_not, int location)
{
    DistinctExpr *d = makeNode(DistinctExpr);

    d->op = eq->op;
    d->args = eq->args;
    d->is_not = is_not;
    d->xpr.type_oid = BOOLOID;
    d->xpr.typmod = -1;
    d->xpr.location = location;
    return (Expr *)d;
}

/* (a, b) IS [NOT] DISTINCT FROM (c, d): some pair distinct (PostgreSQL
 * builds the OR of the pairs, under NOT for IS NOT DISTINCT FROM). */
static Expr *
row_distinct(ParseState *ps, PgQuery__AExpr *a, bool is_not)
{
    List *largs = row_args(ps, a->lexpr), *rargs = row_args(ps, a->rexpr);
    List *pairs = NIL;
    Expr *result;

    if (list_length(largs) != list_length(rargs))
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("unequal number of entries in row expressions"),
                errposition(parse_errpos(ps, a->location)));
    for (int i = 0; i < list_length(largs); i++)
        pairs = tdb_lappend(
            pairs, make_distinct(equality_for(ps, list_nth(largs, i),
                                              list_nth(rargs, i),
                                              "IS DISTINCT FROM", a->location),
                                 false, a->location));
    result = list_length(pairs) == 1
                 ? linitial(pairs)
                 : make_bool(OR_EXPR, pairs, a->location);
    return is_not ? make_bool(NOT_EXPR, tdb_lappend(NIL, result), a->location)
                  : result;
}

static Expr *
transform_equality_form(ParseState *ps, PgQuery__AExpr *a, bool is_nullif)
{
    bool is_not = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT;
    Expr *l, *r;
    OpExpr *eq;

    if (!is_nullif && is_row(a->lexpr) && is_row(a->rexpr))
        return row_distinct(ps, a, is_not);
    l = transform(ps, a->lexpr);
    r = transform(ps, a->rexpr);
    eq = equality_for(ps, l, r, is_nullif ? "NULLIF" : "IS DISTINCT FROM",
                      a->location);
    if (is_nullif) {
        NullIfExpr *n = makeNode(NullIfExpr);

        n->op = eq->op;
        n->args = eq->args;
        n->xpr.type_oid = exprType(linitial(eq->args));
        n->xpr.typmod = exprTypmod(linitial(eq->args));
        n->xpr.location = a->location;
        return (Expr *)n;
    }
    return make_distinct(eq, is_not, a->location);
}

static Expr *
transform_aexpr(ParseState *ps, PgQuery__AExpr *a)
{
    Expr *left;

    switch (a->kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR:
        /* SIMILAR TO arrives as ~ with similar_to_escape(pattern) */
        if (is_row(a->lexpr) && is_row(a->rexpr))
            return make_row_comparison(ps, op_name(a),
                                       row_args(ps, a->lexpr),
                                       row_args(ps, a->rexpr), a->location);
        /* left first: its errors are reported before the right's */
        left = a->lexpr != NULL ? transform(ps, a->lexpr) : NULL;
        return tdb_make_op(ps, op_name(a), left, transform(ps, a->rexpr),
                           a->location);
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN:
        return transform_in(ps, a);
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM:
        return transform_between(ps, a);
    case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF:
        return transform_equality_form(ps, a, true);
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT:
        return transform_equality_form(ps, a, false);
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL:
        return transform_op_any_array(ps, a);
    default:
        not_supported(ps, "this operator form", a->location);
    }
}

/*
 * x op ANY (array) / x op ALL (array) as the old template analyzes it:
 * the same comparison over the array's elements as a subquery -- x op
 * ANY (SELECT unnest(array)) -- with NULL for a NULL array.  Used where
 * the array would need converting to another element type, which
 * tupledb's arrays cannot do.
 */
static Expr *
op_any_array_as_subquery(ParseState *ps, PgQuery__AExpr *a)
{
    char sql[256];
    PgQuery__Node *args[2] = {a->lexpr, a->rexpr};
    const char *op = op_name(a);

    for (const char *c = op; *c != '\0'; c++)
        if (strchr("+-*/<>=~!@#%^&|`?", *c) == NULL)
            not_supported(ps, "this operator", a->location);
    snprintf(sql, sizeof(sql),
             "CASE WHEN ($2) IS NULL THEN NULL::bool ELSE ($1) "
             "OPERATOR(pg_catalog.%s) %s (SELECT pg_catalog.unnest($2)) END",
             op, a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY ? "ANY"
                                                                   : "ALL");
    return transform(ps, tdb_sql_expand_template(sql, args, 2));
}

/*
 * x op ANY (array) / x op ALL (array): a ScalarArrayOpExpr, resolved as
 * PostgreSQL's make_scalar_array_op does -- the operator chosen for x's
 * type and the array's element type (an untyped array literal or
 * parameter: whatever the operator's right type is, the array then of
 * that type), which must yield boolean.
 */
static Expr *
transform_op_any_array(ParseState *ps, PgQuery__AExpr *a)
{
    Expr *l = transform(ps, a->lexpr);
    Expr *r = transform(ps, a->rexpr);
    Oid rtype = exprType(r);
    Oid elem = rtype == UNKNOWNOID ? UNKNOWNOID : tdb_type_element_of(rtype);
    const TypeInfo *right;
    OpExpr *cmp;
    ScalarArrayOpExpr *saop;

    if (elem == InvalidOid)
        ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                errmsg("op ANY/ALL (array) requires array on right side"),
                errposition(parse_errpos(ps, a->location)));
    cmp = (OpExpr *)tdb_make_op(
        ps, op_name(a), l, (Expr *)tdb_make_null_const(elem, -1), a->location);
    if (exprType(&cmp->xpr) != BOOLOID)
        ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                errmsg("op ANY/ALL (array) requires operator to yield "
                       "boolean"),
                errposition(parse_errpos(ps, a->location)));
    if (!IsA(cmp, OpExpr) || list_length(cmp->args) != 2)
        return op_any_array_as_subquery(ps, a);
    right = tdb_type_lookup(cmp->op->right);
    if (right == NULL || right->array == InvalidOid ||
        tdb_type_lookup(right->array) == NULL ||
        (rtype != UNKNOWNOID && rtype != right->array))
        return op_any_array_as_subquery(ps, a);
    saop = makeNode(ScalarArrayOpExpr);
    saop->op = cmp->op;
    saop->use_or = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY;
    saop->args =
        tdb_list_make2(linitial(cmp->args),
                       tdb_coerce_or_error(ps, r, right->array, -1,
                                           CAST_IMPLICIT, exprLocation(r)));
    saop->xpr.type_oid = BOOLOID;
    saop->xpr.typmod = -1;
    saop->xpr.location = a->location;
    return (Expr *)saop;
}

/*
 * ARRAY[e1, e2, ...]: the elements of their common type (PostgreSQL's
 * transformArrayExpr), one-dimensional; ARRAY[] needs a type tupledb
 * cannot take from a cast yet.
 */
static Expr *
transform_array_expr(ParseState *ps, PgQuery__AArrayExpr *ae)
{
    ArrayExpr *result;
    const TypeInfo *elem;
    List *elements;
    Oid type;

    if (ae->n_elements == 0)
        ereport(ERROR, errcode(ERRCODE_INDETERMINATE_DATATYPE),
                errmsg("cannot determine type of empty array"),
                errhint("Explicitly cast to the desired type, for example "
                        "ARRAY[]::integer[]."),
                errposition(parse_errpos(ps, ae->location)));
    for (size_t i = 0; i < ae->n_elements; i++)
        if (ae->elements[i]->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR)
            not_supported(ps, "multidimensional arrays", ae->location);
    elements = transform_list(ps, ae->elements, ae->n_elements);
    type = tdb_select_common_type(ps, elements, "ARRAY");
    elem = tdb_type_lookup(type);
    if (elem == NULL || elem->array == InvalidOid ||
        tdb_type_lookup(elem->array) == NULL)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("arrays of type %s are not supported yet",
                       tdb_format_type(type, -1)),
                errposition(parse_errpos(ps, ae->location)));
    result = makeNode(ArrayExpr);
    for (int i = 0; i < list_length(elements); i++) {
        Expr *e = list_nth(elements, i);

        result->elements =
            tdb_lappend(result->elements,
                        tdb_coerce_or_error(ps, e, type, -1, CAST_IMPLICIT,
                                            exprLocation(e)));
    }
    result->element_type = type;
    result->xpr.type_oid = elem->array;
    result->xpr.typmod = -1;
    result->xpr.location = ae->location;
    return (Expr *)result;
}

/*
 * a[i]: an element of an array (the "array subscript" function of
 * types/array.c).  Slices (a[i:j]) and field selection are not here.
 */
static Expr *
transform_indirection(ParseState *ps, PgQuery__AIndirection *ind)
{
    Expr *result = transform(ps, ind->arg);

    for (size_t i = 0; i < ind->n_indirection; i++) {
        PgQuery__Node *n = ind->indirection[i];
        Expr *index;

        if (n->node_case != PG_QUERY__NODE__NODE_A_INDICES ||
            n->a_indices->is_slice || n->a_indices->uidx == NULL)
            not_supported(ps, "this kind of indirection", -1);
        index = tdb_coerce_or_error(ps, transform(ps, n->a_indices->uidx),
                                    INT4OID, -1, CAST_IMPLICIT, -1);
        result = tdb_make_func_call(
            ps, "array subscript", tdb_list_make2(result, index), -1);
    }
    return result;
}

/* ----------------------------------------------------------------------
 * Boolean and conditional forms
 * ---------------------------------------------------------------------- */

static Expr *
transform_bool(ParseState *ps, PgQuery__BoolExpr *b)
{
    static const char *const names[] = {"?", "AND", "OR", "NOT"};
    List *args = NIL;

    for (size_t i = 0; i < b->n_args; i++)
        args = tdb_lappend(args,
                           tdb_coerce_to_boolean(ps, transform(ps, b->args[i]),
                                                 names[b->boolop]));
    return make_bool(b->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR
                         ? AND_EXPR
                     : b->boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR
                         ? OR_EXPR
                         : NOT_EXPR,
                     args, b->location);
}

static Expr *
transform_case(ParseState *ps, PgQuery__CaseExpr *c)
{
    CaseExpr *result = makeNode(CaseExpr);
    Expr *arg = c->arg != NULL ? transform(ps, c->arg) : NULL;
    List *results = NIL;
    Expr *defresult;
    Oid type;

    if (arg != NULL) {
        /* WHEN values compare against a placeholder for the test value */
        if (exprType(arg) == UNKNOWNOID)
            arg = tdb_coerce_or_error(ps, arg, TEXTOID, -1, CAST_IMPLICIT,
                                      c->location);
        result->arg = arg;
    }
    for (size_t i = 0; i < c->n_args; i++) {
        PgQuery__CaseWhen *w = c->args[i]->case_when;
        CaseWhen *cw = makeNode(CaseWhen);
        Expr *cond = transform(ps, w->expr);

        if (arg != NULL) {
            CaseTestExpr *placeholder = makeNode(CaseTestExpr);

            placeholder->xpr.type_oid = exprType(arg);
            placeholder->xpr.typmod = exprTypmod(arg);
            placeholder->xpr.location = -1;
            cond = tdb_make_op(ps, "=", (Expr *)placeholder, cond,
                               w->location);
        }
        cw->expr = tdb_coerce_to_boolean(ps, cond, "CASE/WHEN");
        cw->result = transform(ps, w->result);
        cw->xpr.location = w->location;
        results = tdb_lappend(results, cw->result);
        result->whens = tdb_lappend(result->whens, cw);
    }
    defresult = c->defresult != NULL
                    ? transform(ps, c->defresult)
                    : (Expr *)tdb_make_null_const(UNKNOWNOID, -1);
    /* PostgreSQL puts ELSE first when choosing the common type (it
     * decides the message's order and position) */
    results = tdb_lprepend(results, defresult);
    type = tdb_select_common_type(ps, results, "CASE");
    for (int i = 0; i < list_length(result->whens); i++) {
        CaseWhen *cw = list_nth(result->whens, i);

        cw->result = tdb_coerce_or_error(ps, cw->result, type, -1,
                                         CAST_IMPLICIT,
                                         exprLocation(cw->result));
    }
    result->defresult = tdb_coerce_or_error(ps, defresult, type, -1,
                                            CAST_IMPLICIT, c->location);
    result->xpr.type_oid = type;
    result->xpr.typmod = -1;
    result->xpr.location = c->location;
    return (Expr *)result;
}

/* Coerce every expression of list to their common type. */
static List *
coerce_to_common(ParseState *ps, List *exprs, const char *what, Oid *type)
{
    List *result = NIL;

    *type = tdb_select_common_type(ps, exprs, what);
    for (int i = 0; i < list_length(exprs); i++) {
        Expr *e = list_nth(exprs, i);

        result = tdb_lappend(result,
                             tdb_coerce_or_error(ps, e, *type, -1,
                                                 CAST_IMPLICIT,
                                                 exprLocation(e)));
    }
    return result;
}

static Expr *
transform_coalesce(ParseState *ps, PgQuery__CoalesceExpr *c)
{
    CoalesceExpr *result = makeNode(CoalesceExpr);
    Oid type;

    result->args = coerce_to_common(
        ps, transform_list(ps, c->args, c->n_args), "COALESCE", &type);
    result->xpr.type_oid = type;
    result->xpr.typmod = -1;
    result->xpr.location = c->location;
    return (Expr *)result;
}

static Expr *
transform_minmax(ParseState *ps, PgQuery__MinMaxExpr *m)
{
    MinMaxExpr *result = makeNode(MinMaxExpr);
    bool greatest = m->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST;
    Oid type;

    result->args = coerce_to_common(ps, transform_list(ps, m->args, m->n_args),
                                    greatest ? "GREATEST" : "LEAST", &type);
    result->is_greatest = greatest;
    result->support = tdb_type_support(type);
    if (result->support == NULL || result->support->cmp == NULL)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_FUNCTION),
                errmsg("could not identify a comparison function for type %s",
                       tdb_format_type(type, -1)),
                errposition(parse_errpos(ps, m->location)));
    result->xpr.type_oid = type;
    result->xpr.typmod = -1;
    result->xpr.location = m->location;
    return (Expr *)result;
}

static Expr *
transform_null_test(ParseState *ps, PgQuery__NullTest *n)
{
    NullTest *result = makeNode(NullTest);

    result->arg = transform(ps, n->arg);
    result->is_not_null =
        n->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NOT_NULL;
    result->xpr.type_oid = BOOLOID;
    result->xpr.typmod = -1;
    result->xpr.location = n->location;
    return (Expr *)result;
}

static Expr *
transform_boolean_test(ParseState *ps, PgQuery__BooleanTest *b)
{
    static const char *const names[] = {
        "?", "IS TRUE", "IS NOT TRUE", "IS FALSE", "IS NOT FALSE",
        "IS UNKNOWN", "IS NOT UNKNOWN"};
    BooleanTest *result = makeNode(BooleanTest);

    result->arg = tdb_coerce_to_boolean(ps, transform(ps, b->arg),
                                        names[b->booltesttype]);
    result->booltesttype = (BoolTestType)(b->booltesttype - 1);
    result->xpr.type_oid = BOOLOID;
    result->xpr.typmod = -1;
    result->xpr.location = b->location;
    return (Expr *)result;
}

/*
 * expr COLLATE name.  Every string compares in the "C" collation
 * (types/README.md), so the collations that exist are PostgreSQL's
 * built-in ones that mean exactly that: "default", "C", "POSIX" and
 * "ucs_basic" (optionally pg_catalog-qualified); the clause then leaves
 * the value as it is.  An unknown literal becomes text first, as in
 * PostgreSQL.  Errors: 42704 for another collation, 42804 for a type
 * that has no collation.
 */
static Expr *
transform_collate(ParseState *ps, PgQuery__CollateClause *cc)
{
    static const char *const builtin[] = {"default", "C", "POSIX",
                                          "ucs_basic"};
    Expr *arg = transform(ps, cc->arg);
    const char *name = node_string(cc->collname[cc->n_collname - 1]);
    const char *schema =
        cc->n_collname > 1 ? node_string(cc->collname[0]) : NULL;
    bool known = false;
    Oid type;

    for (size_t i = 0; i < lengthof(builtin); i++)
        if (name != NULL && strcmp(name, builtin[i]) == 0)
            known = true;
    if (!known || cc->n_collname > 2 ||
        (schema != NULL && strcmp(schema, "pg_catalog") != 0))
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
                errmsg("collation \"%s%s%s\" for encoding \"UTF8\" does "
                       "not exist",
                       schema != NULL ? schema : "", schema != NULL ? "." : "",
                       name != NULL ? name : "?"),
                errposition(parse_errpos(ps, cc->location)));
    if (exprType(arg) == UNKNOWNOID)
        arg = tdb_coerce_or_error(ps, arg, TEXTOID, -1, CAST_IMPLICIT,
                                  cc->location);
    type = exprType(arg);
    if (type != TEXTOID && type != VARCHAROID && type != BPCHAROID &&
        type != NAMEOID)
        ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
                errmsg("collations are not supported by type %s",
                       tdb_format_type(type, -1)),
                errposition(parse_errpos(ps, cc->location)));
    return arg;
}

static Expr *
transform_type_cast(ParseState *ps, PgQuery__TypeCast *tc)
{
    Oid type;
    int32 typmod;
    Expr *arg = transform(ps, tc->arg);

    tdb_sql_resolve_typename(ps->st, tc->type_name, &type, &typmod);
    return tdb_coerce_or_error(ps, arg, type, typmod, CAST_EXPLICIT,
                               tc->location);
}

/* ----------------------------------------------------------------------
 * Function calls and aggregates
 * ---------------------------------------------------------------------- */

static const char *
func_name(ParseState *ps, PgQuery__FuncCall *fc)
{
    const char *name = node_string(fc->funcname[fc->n_funcname - 1]);

    if (fc->n_funcname > 2 ||
        (fc->n_funcname == 2 &&
         strcmp(node_string(fc->funcname[0]), "pg_catalog") != 0))
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_FUNCTION),
                errmsg("function %s.%s does not exist",
                       node_string(fc->funcname[0]), name),
                errposition(parse_errpos(ps, fc->location)));
    return name;
}

/*
 * Is an aggregate allowed where the query level it belongs to (owner) is
 * being analyzed?  Inside another aggregate's arguments of that level it
 * is nested (42803), even when written in a subquery there.
 */
static void
check_agg_context(ParseState *owner, ParseState *ps, int location)
{
    if (owner->expr_kind == EXPR_KIND_AGG_ARGS)
        ereport(ERROR, errcode(ERRCODE_GROUPING_ERROR),
                errmsg("aggregate function calls cannot be nested"),
                errposition(parse_errpos(ps, location)));
    switch (owner->expr_kind) {
    case EXPR_KIND_SELECT_TARGET:
    case EXPR_KIND_HAVING:
    case EXPR_KIND_ORDER_BY:
    case EXPR_KIND_DISTINCT_ON:
    case EXPR_KIND_RETURNING:
        if (ps->expr_kind != EXPR_KIND_RETURNING)
            return;
        /* FALLTHROUGH */
    default:
        ereport(ERROR, errcode(ERRCODE_GROUPING_ERROR),
                errmsg("aggregate functions are not allowed in %s",
                       expr_kind_name(owner->expr_kind)),
                errposition(parse_errpos(ps, location)));
    }
}

/*
 * Which query level an aggregate belongs to (PostgreSQL's rule): the
 * lowest level of the columns its arguments, FILTER and ORDER BY read,
 * an aggregate among them counting as a column of its own level; this
 * level if they read none.  So max(o.x) in a subquery, o of the query
 * outside, is that query's aggregate, computed once per group there and
 * read by the subquery as an outer value.
 */
typedef struct AggLevel {
    int level; /* INT_MAX: no column or aggregate seen */
} AggLevel;

static bool
find_agg_level(Node *node, void *arg)
{
    AggLevel *al = arg;

    if (node == NULL)
        return false;
    if (IsA(node, Var)) {
        al->level = Min(al->level, ((Var *)node)->varlevelsup);
        return false;
    }
    if (IsA(node, Aggref)) { /* evaluated at its own level */
        al->level = Min(al->level, ((Aggref *)node)->agglevelsup);
        return false;
    }
    return tdb_expr_walk_children(node, find_agg_level, arg);
}

static int
aggregate_level(const Aggref *agg)
{
    AggLevel al = {INT_MAX};

    find_agg_level((Node *)agg->args, &al);
    find_agg_level((Node *)agg->filter, &al);
    find_agg_level((Node *)agg->order_exprs, &al);
    return al.level == INT_MAX ? 0 : al.level;
}

/* Pick the aggregate overload for the argument types (count(*): the
 * one without arguments). */
static const AggDesc *
select_agg(ParseState *ps, const char *name, List *args, bool star,
           int location)
{
    const AggDesc *aggs[64];
    int16 nargs_of[64];
    const Oid *argtypes_of[64];
    int n = Min(tdb_agg_candidates(name, aggs, 64), 64);

    if (star) {
        for (int i = 0; i < n; i++)
            if (aggs[i]->nargs == 0)
                return aggs[i];
    }
    for (int i = 0; i < n; i++) {
        nargs_of[i] = (int16)aggs[i]->nargs;
        argtypes_of[i] = aggs[i]->argtypes;
    }
    return aggs[tdb_select_overload(ps, name, n, nargs_of, argtypes_of, args,
                                    location)];
}

static Expr *
transform_aggregate(ParseState *ps, PgQuery__FuncCall *fc, const char *name)
{
    Aggref *agg = makeNode(Aggref);
    ExprKind saved = ps->expr_kind;
    ParseState *owner = ps;
    List *args;

    ps->expr_kind = EXPR_KIND_AGG_ARGS;
    args = transform_list(ps, fc->args, fc->n_args);
    agg->agg = select_agg(ps, name, args, fc->agg_star, fc->location);
    for (int a = 0; a < list_length(args); a++) {
        Expr *arg = list_nth(args, a);
        Oid want = agg->agg->argtypes[a];

        agg->args = tdb_lappend(
            agg->args,
            want == ANYOID
                ? (exprType(arg) == UNKNOWNOID
                       ? tdb_coerce_or_error(ps, arg, TEXTOID, -1,
                                             CAST_IMPLICIT, exprLocation(arg))
                       : arg)
                : tdb_coerce_or_error(ps, arg, want, -1, CAST_IMPLICIT,
                                      exprLocation(arg)));
    }
    if (fc->agg_filter != NULL) {
        ps->expr_kind = EXPR_KIND_FILTER;
        agg->filter =
            tdb_coerce_to_boolean(ps, transform(ps, fc->agg_filter), "FILTER");
    }
    ps->expr_kind = EXPR_KIND_AGG_ARGS;
    for (size_t k = 0; k < fc->n_agg_order; k++) {
        PgQuery__SortBy *sb = fc->agg_order[k]->sort_by;
        Expr *key = transform(ps, sb->node);
        SortKey *sk = tdb_palloc0(sizeof(SortKey));

        if (exprType(key) == UNKNOWNOID)
            key = tdb_coerce_or_error(ps, key, TEXTOID, -1, CAST_IMPLICIT,
                                      sb->location);
        sk->col = list_length(agg->args) + (int)k + 1;
        sk->support = tdb_type_support(exprType(key));
        sk->descending = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
        sk->nulls_first =
            sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST ||
            (sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST &&
             sk->descending);
        agg->order_exprs = tdb_lappend(agg->order_exprs, key);
        agg->order_keys = tdb_lappend(agg->order_keys, sk);
    }
    ps->expr_kind = saved;
    agg->agglevelsup = aggregate_level(agg);
    for (int k = 0; k < agg->agglevelsup; k++)
        owner = owner->parent;
    check_agg_context(owner, ps, fc->location);
    agg->is_star = fc->agg_star;
    agg->distinct = fc->agg_distinct;
    agg->xpr.type_oid = agg->agg->rettype;
    agg->xpr.typmod = -1;
    agg->xpr.location = fc->location;
    owner->has_aggs = true;
    return (Expr *)agg;
}

/*
 * A function call's arguments; *argnames receives their names (NULL
 * entries for positional ones) if any is named (f(x, secs => 1.5)).
 * Named arguments must come last, each name once (42601).
 */
static List *
transform_call_args(ParseState *ps, PgQuery__FuncCall *fc,
                    const char ***argnames)
{
    List *args = NIL;
    const char **names = tdb_palloc0(sizeof(char *) * (fc->n_args + 1));

    for (size_t i = 0; i < fc->n_args; i++) {
        PgQuery__Node *node = fc->args[i];

        if (node->node_case != PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
            Expr *arg = transform(ps, node);

            if (*argnames != NULL)
                ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                        errmsg("positional argument cannot follow named "
                               "argument"),
                        errposition(parse_errpos(ps, exprLocation(arg))));
            args = tdb_lappend(args, arg);
            continue;
        }
        names[i] = node->named_arg_expr->name;
        for (size_t j = 0; j < i; j++)
            if (names[j] != NULL && strcmp(names[j], names[i]) == 0)
                ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                        errmsg("argument name \"%s\" used more than once",
                               names[i]),
                        errposition(parse_errpos(
                            ps, node->named_arg_expr->location)));
        *argnames = names;
        args = tdb_lappend(args, transform(ps, (PgQuery__Node *)
                                               node->named_arg_expr->arg));
    }
    return args;
}

static Expr *
transform_func_call(ParseState *ps, PgQuery__FuncCall *fc)
{
    const char *name = func_name(ps, fc);
    PgQuery__Node *inlined = tdb_system_function_expand(fc, name);

    if (inlined != NULL)
        return transform(ps, inlined);
    if (fc->over != NULL)
        not_supported(ps, "a window function", fc->location);
    if (tdb_is_aggregate_name(name))
        return transform_aggregate(ps, fc, name);
    if (fc->agg_star || fc->agg_distinct || fc->n_agg_order > 0 ||
        fc->agg_filter != NULL)
        ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                errmsg("%s is not an aggregate function", name),
                errposition(parse_errpos(ps, fc->location)));
    {
        const char **argnames = NULL;
        List *args = transform_call_args(ps, fc, &argnames);
        Expr *call = tdb_make_func_call_named(
            ps, name, args, argnames, fc->func_variadic, fc->location);

        if (IsA(call, FuncExpr) && ((FuncExpr *)call)->func->retset) {
            if (ps->expr_kind != EXPR_KIND_SELECT_TARGET &&
                ps->expr_kind != EXPR_KIND_FROM_FUNCTION)
                ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("set-returning functions are not allowed in %s",
                               expr_kind_name(ps->expr_kind)),
                        errposition(parse_errpos(ps, fc->location)));
            if (ps->expr_kind == EXPR_KIND_SELECT_TARGET)
                ps->has_srfs = true;
        }
        return call;
    }
}

/* ----------------------------------------------------------------------
 * Subqueries
 * ---------------------------------------------------------------------- */

static Expr *
transform_sublink(ParseState *ps, PgQuery__SubLink *sl)
{
    SubLink *result = makeNode(SubLink);
    Query *sub;

    if (ps->expr_kind == EXPR_KIND_CHECK_CONSTRAINT ||
        ps->expr_kind == EXPR_KIND_COLUMN_DEFAULT ||
        ps->expr_kind == EXPR_KIND_COPY_WHERE ||
        ps->expr_kind == EXPR_KIND_INDEX_EXPRESSION ||
        ps->expr_kind == EXPR_KIND_INDEX_PREDICATE)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("cannot use subquery in %s",
                       ps->expr_kind == EXPR_KIND_CHECK_CONSTRAINT
                           ? "check constraint"
                       : ps->expr_kind == EXPR_KIND_COPY_WHERE
                           ? "COPY FROM WHERE condition"
                       : ps->expr_kind == EXPR_KIND_INDEX_EXPRESSION
                           ? "index expression"
                       : ps->expr_kind == EXPR_KIND_INDEX_PREDICATE
                           ? "index predicate"
                           : "DEFAULT expression"),
                errposition(parse_errpos(ps, sl->location)));
    sub = tdb_analyze_subquery(ps, sl->subselect);
    int nvisible = 0;
    TargetEntry *first = NULL;

    for (int i = 0; i < list_length(sub->target_list); i++) {
        TargetEntry *te = list_nth(sub->target_list, i);

        if (!te->resjunk) {
            if (first == NULL)
                first = te;
            nvisible++;
        }
    }
    result->subselect = (Node *)sub;
    result->xpr.location = sl->location;
    result->xpr.typmod = -1;
    ps->has_sublinks = true;
    switch (sl->sub_link_type) {
    case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK:
        result->sublink_type = EXISTS_SUBLINK;
        result->xpr.type_oid = BOOLOID;
        return (Expr *)result;
    case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK:
        if (nvisible != 1)
            ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                    errmsg(nvisible > 1 ? "subquery must return only one "
                                          "column"
                                        : "subquery must return a column"),
                    errposition(parse_errpos(ps, sl->location)));
        result->sublink_type = EXPR_SUBLINK;
        result->xpr.type_oid = exprType(first->expr);
        result->xpr.typmod = exprTypmod(first->expr);
        return (Expr *)result;
    case PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK: {
        const TypeInfo *elem;

        if (nvisible != 1)
            ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                    errmsg(nvisible > 1 ? "subquery must return only one "
                                          "column"
                                        : "subquery must return a column"),
                    errposition(parse_errpos(ps, sl->location)));
        if (exprType(first->expr) == UNKNOWNOID)
            first->expr = tdb_coerce_or_error(ps, first->expr, TEXTOID, -1,
                                              CAST_IMPLICIT, -1);
        elem = tdb_type_lookup(exprType(first->expr));
        if (elem == NULL || elem->array == InvalidOid ||
            tdb_type_lookup(elem->array) == NULL)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("arrays of type %s are not supported yet",
                           tdb_format_type(exprType(first->expr), -1)),
                    errposition(parse_errpos(ps, sl->location)));
        result->sublink_type = ARRAY_SUBLINK;
        result->xpr.type_oid = elem->array;
        return (Expr *)result;
    }
    case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK:
    case PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK: {
        const char *opname = sl->n_oper_name > 0
                                 ? node_string(sl->oper_name[sl->n_oper_name - 1])
                                 : "=";
        bool row = is_row(sl->testexpr);
        List *left = row ? row_args(ps, sl->testexpr)
                         : tdb_lappend(NIL, transform(ps, sl->testexpr));
        List *params = NIL;

        if (nvisible != list_length(left))
            ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                    errmsg(nvisible > list_length(left)
                               ? "subquery has too many columns"
                               : "subquery has too few columns"),
                    errposition(parse_errpos(ps, sl->location)));
        /* the subquery's columns enter the comparison as Params */
        for (int i = 0; i < list_length(sub->target_list); i++) {
            TargetEntry *te = list_nth(sub->target_list, i);
            Param *p;

            if (te->resjunk)
                continue;
            p = makeNode(Param);
            p->paramkind = PARAM_SUBLINK;
            p->paramid = list_length(params) + 1;
            p->xpr.type_oid = exprType(te->expr);
            p->xpr.typmod = exprTypmod(te->expr);
            p->xpr.location = -1;
            params = tdb_lappend(params, p);
        }
        result->testexpr =
            row ? make_row_comparison(ps, opname, left, params, sl->location)
                : tdb_coerce_to_boolean(
                      ps,
                      tdb_make_op(ps, opname, linitial(left),
                                  linitial(params), sl->location),
                      "ANY/ALL");
        result->sublink_type =
            sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK
                ? ANY_SUBLINK
                : ALL_SUBLINK;
        result->xpr.type_oid = BOOLOID;
        return (Expr *)result;
    }
    default:
        not_supported(ps, "this kind of subquery", sl->location);
    }
}

/* ----------------------------------------------------------------------
 * CURRENT_DATE, CURRENT_TIMESTAMP, LOCALTIMESTAMP, LOCALTIME
 * ---------------------------------------------------------------------- */

/* The SQL value functions' names as PostgreSQL spells their columns. */
static const char *
sql_value_function_name(PgQuery__SQLValueFunctionOp op)
{
    switch (op) {
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE:
        return "current_date";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME_N:
        return "current_time";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N:
        return "current_timestamp";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N:
        return "localtime";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N:
        return "localtimestamp";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE:
        return "current_role";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER:
        return "current_user";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER:
        return "user";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER:
        return "session_user";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_CATALOG:
        return "current_catalog";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_SCHEMA:
        return "current_schema";
    default:
        return NULL;
    }
}

/*
 * A precision given to CURRENT_TIMESTAMP(p) and friends: above 6 it is
 * reduced with PostgreSQL's warning.
 */
static int32
sql_value_precision(const char *type_name, int32 typmod)
{
    if (typmod > 6) {
        ereport(WARNING, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("%s(%d)%s precision reduced to maximum allowed, %d",
                       strncmp(type_name, "time ", 5) == 0 ? "TIME"
                                                           : "TIMESTAMP",
                       typmod,
                       strstr(type_name, "with time zone") != NULL
                           ? " WITH TIME ZONE"
                           : "",
                       6));
        typmod = 6;
    }
    return typmod;
}

/*
 * CURRENT_USER, SESSION_USER, USER, CURRENT_ROLE: the session's role
 * name, a name constant (a session's user never changes: there is no SET
 * ROLE, so a plan kept by the session stays right).
 */
static Expr *
session_user_const(ParseState *ps)
{
    char *name = tdb_palloc0(NAMEDATALEN);

    snprintf(name, NAMEDATALEN, "%s", tdb_stmt_user_name(ps->st));
    return (Expr *)tdb_make_const(NAMEOID, -1, PointerGetDatum(name), false);
}

/*
 * The date/time value functions, as calls of now() -- the transaction's
 * start -- taken to the requested type (and precision) in the session's
 * TimeZone: CURRENT_DATE is now()::date, LOCALTIMESTAMP now()::timestamp,
 * LOCALTIME now()::time, CURRENT_TIMESTAMP now() itself.  (EXPLAIN shows
 * them as those expressions, not by their SQL names.)
 */
static Expr *
transform_sql_value_function(ParseState *ps,
                             const PgQuery__SQLValueFunction *svf)
{
    Oid type;
    int32 typmod = -1;
    Expr *now;

    switch (svf->op) {
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER:
        return session_user_const(ps);
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE:
        type = DATEOID;
        break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N:
        typmod = sql_value_precision("timestamp with time zone",
                                     svf->typmod);
        TDB_FALLTHROUGH;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP:
        type = TIMESTAMPTZOID;
        break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N:
        typmod = sql_value_precision("timestamp", svf->typmod);
        TDB_FALLTHROUGH;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP:
        type = TIMESTAMPOID;
        break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N:
        typmod = sql_value_precision("time without time zone",
                                     svf->typmod);
        TDB_FALLTHROUGH;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME:
        type = TIMEOID;
        break;
    default:
        not_supported(ps, sql_value_function_name(svf->op) != NULL
                              ? sql_value_function_name(svf->op)
                              : "this SQL value function",
                      svf->location);
    }
    now = tdb_make_func_call(ps, "now", NULL, svf->location);
    return tdb_coerce_or_error(ps, now, type, typmod, CAST_EXPLICIT,
                               svf->location);
}

/* ----------------------------------------------------------------------
 * Dispatch
 * ---------------------------------------------------------------------- */

/*
 * $n: a PARAM_EXTERN Param of the type known so far (UNKNOWNOID until a
 * context coerces it: tdb_coerce_to records the type).  Outside a
 * prepared statement, or for $0, 42P02.
 */
static Expr *
transform_param_ref(ParseState *ps, PgQuery__ParamRef *ref)
{
    ParamTypes *params = ps->st->params;
    int n = ref->number;
    Param *p;

    /* Bind counts parameters in an Int16 */
    if (params == NULL || n <= 0 || n > 65535)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_PARAMETER),
                errmsg("there is no parameter $%d", n),
                errposition(parse_errpos(ps, ref->location)));
    if (n > params->ntypes) {
        Oid *types = tdb_palloc0(sizeof(Oid) * (Size)n);

        if (params->ntypes > 0)
            memcpy(types, params->types, sizeof(Oid) * (Size)params->ntypes);
        params->types = types;
        params->ntypes = n;
    }
    if (params->types[n - 1] == InvalidOid)
        params->types[n - 1] = UNKNOWNOID;
    p = makeNode(Param);
    p->paramkind = PARAM_EXTERN;
    p->paramid = n;
    p->xpr.type_oid = params->types[n - 1];
    p->xpr.typmod = -1;
    p->xpr.location = ref->location;
    return (Expr *)p;
}

static Expr *
transform(ParseState *ps, PgQuery__Node *node)
{
    tdb_check_stack_depth();

    switch (node->node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF:
        return transform_column_ref(ps, node->column_ref);
    case PG_QUERY__NODE__NODE_A_CONST:
        return transform_const(ps, node->a_const);
    case PG_QUERY__NODE__NODE_A_EXPR:
        return transform_aexpr(ps, node->a_expr);
    case PG_QUERY__NODE__NODE_BOOL_EXPR:
        return transform_bool(ps, node->bool_expr);
    case PG_QUERY__NODE__NODE_FUNC_CALL:
        return transform_func_call(ps, node->func_call);
    case PG_QUERY__NODE__NODE_TYPE_CAST:
        return transform_type_cast(ps, node->type_cast);
    case PG_QUERY__NODE__NODE_CASE_EXPR:
        return transform_case(ps, node->case_expr);
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
        return transform_coalesce(ps, node->coalesce_expr);
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
        return transform_minmax(ps, node->min_max_expr);
    case PG_QUERY__NODE__NODE_NULL_TEST:
        return transform_null_test(ps, node->null_test);
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST:
        return transform_boolean_test(ps, node->boolean_test);
    case PG_QUERY__NODE__NODE_SUB_LINK:
        return transform_sublink(ps, node->sub_link);
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
        return transform_sql_value_function(ps, node->sqlvalue_function);
    case PG_QUERY__NODE__NODE_PARAM_REF:
        return transform_param_ref(ps, node->param_ref);
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
        return transform_collate(ps, node->collate_clause);
    case PG_QUERY__NODE__NODE_A_INDIRECTION:
        return transform_indirection(ps, node->a_indirection);
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
        return transform_array_expr(ps, node->a_array_expr);
    default:
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("expression type %s is not supported yet",
                       tdb_sql_node_name(node)));
    }
}

Expr *
tdb_transform_expr(ParseState *ps, PgQuery__Node *node, ExprKind kind)
{
    ExprKind saved = ps->expr_kind;
    Expr *result;

    ps->expr_kind = kind;
    result = transform(ps, node);
    ps->expr_kind = saved;
    return result;
}

Expr *
tdb_transform_where(ParseState *ps, PgQuery__Node *node, ExprKind kind,
                    const char *clause)
{
    if (node == NULL)
        return NULL;
    return tdb_coerce_to_boolean(ps, tdb_transform_expr(ps, node, kind),
                                 clause);
}

/*
 * PostgreSQL's FigureColnameInternal: a column name and its strength --
 * 2 for a real name (a column, a function), 1 for a fallback (a type
 * name of a cast, "case"), 0 for none.  Casts and CASE pass a strong
 * name of their argument through.
 */
static int
figure_colname(PgQuery__Node *node, const char **name)
{
    int strength;

    tdb_check_stack_depth();

    switch (node->node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF: {
        PgQuery__ColumnRef *cr = node->column_ref;
        const char *last = node_string(cr->fields[cr->n_fields - 1]);

        if (last == NULL)
            return 0;
        *name = last;
        return 2;
    }
    case PG_QUERY__NODE__NODE_FUNC_CALL: {
        PgQuery__FuncCall *fc = node->func_call;

        *name = node_string(fc->funcname[fc->n_funcname - 1]);
        return 2;
    }
    case PG_QUERY__NODE__NODE_TYPE_CAST: {
        PgQuery__TypeName *tn = node->type_cast->type_name;

        strength = figure_colname(node->type_cast->arg, name);
        if (strength <= 1) {
            *name = node_string(tn->names[tn->n_names - 1]);
            return 1;
        }
        return strength;
    }
    case PG_QUERY__NODE__NODE_CASE_EXPR:
        strength = node->case_expr->defresult != NULL
                       ? figure_colname(node->case_expr->defresult, name)
                       : 0;
        if (strength <= 1) {
            *name = "case";
            return 1;
        }
        return strength;
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
        *name = "coalesce";
        return 2;
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
        *name = sql_value_function_name(node->sqlvalue_function->op);
        return *name != NULL ? 2 : 0;
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
        *name = node->min_max_expr->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST
                    ? "greatest"
                    : "least";
        return 2;
    case PG_QUERY__NODE__NODE_A_EXPR:
        if (node->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF) {
            *name = "nullif";
            return 2;
        }
        return 0;
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
        *name = "array";
        return 2;
    case PG_QUERY__NODE__NODE_A_INDIRECTION:
        /* a[i]: the array's name (no field selection in tupledb) */
        return figure_colname(node->a_indirection->arg, name);
    case PG_QUERY__NODE__NODE_SUB_LINK: {
        PgQuery__SubLink *sl = node->sub_link;

        if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK) {
            *name = "exists";
            return 2;
        }
        if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK) {
            *name = "array";
            return 2;
        }
        if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK &&
            sl->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT) {
            PgQuery__SelectStmt *sel = sl->subselect->select_stmt;

            if (sel->n_target_list > 0) {
                PgQuery__ResTarget *rt = sel->target_list[0]->res_target;

                if (rt->name != NULL && rt->name[0] != '\0') {
                    *name = rt->name;
                    return 2;
                }
                return figure_colname(rt->val, name);
            }
        }
        return 0;
    }
    default:
        return 0;
    }
}

const char *
tdb_figure_colname(PgQuery__Node *node)
{
    const char *name = NULL;

    if (figure_colname(node, &name) > 0 && name != NULL)
        return name;
    return "?column?";
}
