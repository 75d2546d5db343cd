/*
 * ruleutils.c -- an analyzed DEFAULT or CHECK expression printed back as
 * SQL the way PostgreSQL's pg_get_expr / pg_get_constraintdef print it.
 *
 * Two layouts, as PostgreSQL's:
 *   pretty      operators and boolean connectives without parentheses
 *               where precedence makes them unneeded
 *               (`a > 0 AND a < 100`, `((l + 1) * 2) > 3`)
 *   not pretty  every operator and connective in parentheses, casts as
 *               `(x)::type` (`((a > 0) AND (a < 100))`)
 * Constants as ruleutils prints them: integers plain ('-1'::integer when
 * negative), numerics plain when they read back as numeric (digits and a
 * point or exponent), booleans true/false, every other type quoted with
 * a `::type` label (`'x'::text`).  A coercion nested in an operator or
 * function call is shown as `x::type`; at the top of the expression, and
 * directly inside another cast, it is left out (PostgreSQL hides its
 * implicit coercions there; tupledb does not record whether a cast was
 * written or implicit, so it hides both).
 *
 * CREATE TABLE stores defaults and CHECK expressions in this (pretty)
 * form, printed under the default DateStyle so that it reads back the
 * same in any session; pg_get_expr analyzes the stored text again and
 * prints it in the layout asked for.  Node kinds not handled here make
 * tdb_deparse_expr return NULL (the caller keeps the SQL it has).
 *
 * Entry point: tdb_deparse_expr (analyze.h).
 */
#include "common/base.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "catalog/pg_type.h"
#include "common/stack_depth.h"
#include "parser/analyze.h"
#include "tuple/tupdesc.h"
#include "types/builtins.h"

typedef struct Deparse {
    char *data;
    Size len, size;
    TupleDesc desc;  /* the columns Vars name (NULL: none) */
    bool pretty;
    bool failed;     /* met a node kind not handled */
} Deparse;

static TDB_PRINTF(2, 3) void out(Deparse *d, const char *fmt, ...)
{
    for (;;) {
        va_list args;
        int n;

        va_start(args, fmt);
        n = vsnprintf(d->data + d->len, d->size - d->len, fmt, args);
        va_end(args);
        if (n >= 0 && (Size)n < d->size - d->len) {
            d->len += (Size)n;
            return;
        }
        d->data = tdb_repalloc(d->data, d->size * 2 + (Size)Max(n, 0));
        d->size = d->size * 2 + (Size)Max(n, 0);
    }
}

static void expr_out(Deparse *d, Expr *e, bool showimplicit);

static bool
is_cast_node(const Expr *e)
{
    return IsA(e, RelabelType) || IsA(e, CoerceViaIO) ||
           IsA(e, CoerceToTypmod) ||
           (IsA(e, FuncExpr) && ((const FuncExpr *)e)->is_cast);
}

static Expr *
cast_arg(Expr *e)
{
    if (IsA(e, RelabelType))
        return ((RelabelType *)e)->arg;
    if (IsA(e, CoerceViaIO))
        return ((CoerceViaIO *)e)->arg;
    if (IsA(e, CoerceToTypmod))
        return ((CoerceToTypmod *)e)->arg;
    return linitial(((FuncExpr *)e)->args);
}

/* The operator's name if it is one of + - * / %, else NULL. */
static const char *
arith_op(const Expr *e)
{
    const OpExpr *op;

    if (!IsA(e, OpExpr))
        return NULL;
    op = (const OpExpr *)e;
    if (list_length(op->args) != 2 || strlen(op->op->name) != 1 ||
        strchr("+-*/%", op->op->name[0]) == NULL)
        return NULL;
    return op->op->name;
}

/*
 * Can node be printed without parentheses as an argument of parent, in
 * the pretty layout?  PostgreSQL's rules: names, constants and calls
 * always; + - under * / % not, the other way round yes, and equal
 * precedence only on the left; NOT and AND under AND/OR, OR under OR;
 * operators, tests and connectives inside function-like nodes.
 */
static bool
is_simple(const Expr *node, const Expr *parent)
{
    switch (nodeTag(node)) {
    case T_Var:
    case T_Const:
    case T_Param:
    case T_CoalesceExpr:
    case T_MinMaxExpr:
    case T_NullIfExpr:
    case T_Aggref:
    case T_CaseExpr:
        return true;
    case T_FuncExpr:
    case T_RelabelType:
    case T_CoerceViaIO:
    case T_CoerceToTypmod:
        /* printed as name(...) or x::type */
        return true;
    case T_OpExpr:
        if (IsA(parent, OpExpr)) {
            const char *op = arith_op(node), *pop = arith_op(parent);
            bool lo, plo;

            if (op == NULL || pop == NULL)
                return false;
            lo = strchr("+-", *op) != NULL;
            plo = strchr("+-", *pop) != NULL;
            if (!lo && plo)
                return true;
            if (lo && !plo)
                return false;
            return linitial(((const OpExpr *)parent)->args) == node;
        }
        TDB_FALLTHROUGH;
    case T_NullTest:
    case T_BooleanTest:
    case T_DistinctExpr:
    case T_SubLink:
        if (is_cast_node(parent))
            return false;
        return IsA(parent, FuncExpr) || IsA(parent, BoolExpr) ||
               IsA(parent, CoalesceExpr) || IsA(parent, MinMaxExpr) ||
               IsA(parent, NullIfExpr) || IsA(parent, CaseExpr);
    case T_BoolExpr:
        if (IsA(parent, BoolExpr)) {
            BoolExprType t = ((const BoolExpr *)node)->boolop;
            BoolExprType pt = ((const BoolExpr *)parent)->boolop;

            if (t == OR_EXPR)
                return pt == OR_EXPR;
            return pt == AND_EXPR || pt == OR_EXPR;
        }
        if (is_cast_node(parent))
            return false;
        return IsA(parent, FuncExpr) || IsA(parent, CoalesceExpr) ||
               IsA(parent, MinMaxExpr) || IsA(parent, NullIfExpr) ||
               IsA(parent, CaseExpr);
    default:
        return false;
    }
}

static void
paren_out(Deparse *d, Expr *node, Expr *parent, bool showimplicit)
{
    bool paren = d->pretty && !is_simple(node, parent);

    if (paren)
        out(d, "(");
    expr_out(d, node, showimplicit);
    if (paren)
        out(d, ")");
}

/* A column name, in double quotes when it needs them (keywords too). */
static void
ident_out(Deparse *d, const char *name)
{
    if (!tdb_sql_ident_needs_quotes(name)) {
        out(d, "%s", name);
        return;
    }
    out(d, "\"");
    for (const char *c = name; *c != '\0'; c++)
        out(d, *c == '"' ? "\"\"" : "%c", *c);
    out(d, "\"");
}

static void
quoted_out(Deparse *d, const char *s)
{
    out(d, "'");
    for (const char *c = s; *c != '\0'; c++)
        out(d, *c == '\'' ? "''" : "%c", *c);
    out(d, "'");
}

/* showtype < 0: never a label (the constant of a cast to its type). */
static void
const_out(Deparse *d, Const *c, int showtype)
{
    Oid type = exprType(c);
    bool label = true;
    char *value;

    if (c->constisnull) {
        out(d, "NULL");
        if (showtype >= 0)
            out(d, "::%s", tdb_format_type(type, exprTypmod(c)));
        return;
    }
    value = tdb_type_output(type, c->constvalue);
    switch (type) {
    case INT4OID:
        if (value[0] != '-') {
            out(d, "%s", value);
            label = false;
        } else
            quoted_out(d, value);
        break;
    case NUMERICOID:
        if (isdigit((unsigned char)value[0]) &&
            strcspn(value, "eE.") != strlen(value)) {
            out(d, "%s", value);
            label = false;
        } else
            quoted_out(d, value);
        break;
    case BOOLOID:
        out(d, "%s", DatumGetBool(c->constvalue) ? "true" : "false");
        label = false;
        break;
    case UNKNOWNOID:
        quoted_out(d, value);
        label = false;
        break;
    default:
        quoted_out(d, value);
        break;
    }
    /* a literal's constant has no typmod in PostgreSQL's trees (a length
     * coercion above it carries one), so none is shown */
    if (label && showtype >= 0)
        out(d, "::%s", tdb_format_type(type, -1));
}

/* x::type; the argument's own coercions are left out */
static void
cast_out(Deparse *d, Expr *e)
{
    Expr *arg = cast_arg(e);

    if (IsA(arg, Const) && exprType(arg) == exprType(e) &&
        exprTypmod(arg) == -1)
        const_out(d, (Const *)arg, -1);
    else {
        if (!d->pretty)
            out(d, "(");
        paren_out(d, arg, e, false);
        if (!d->pretty)
            out(d, ")");
    }
    out(d, "::%s", tdb_format_type(exprType(e), exprTypmod(e)));
}

static void
list_out(Deparse *d, List *args, const char *sep, Expr *parent)
{
    for (int i = 0; i < list_length(args); i++) {
        if (i > 0)
            out(d, "%s", sep);
        if (parent != NULL)
            paren_out(d, list_nth(args, i), parent, false);
        else
            expr_out(d, list_nth(args, i), true);
    }
}

static void
expr_out(Deparse *d, Expr *e, bool showimplicit)
{
    tdb_check_stack_depth();

    if (d->failed)
        return;
    if (is_cast_node(e)) {
        if (showimplicit)
            cast_out(d, e);
        else
            paren_out(d, cast_arg(e), e, false);
        return;
    }
    switch (nodeTag(e)) {
    case T_Var: {
        Var *v = (Var *)e;

        if (d->desc == NULL || v->varlevelsup != 0 || v->varattno < 1 ||
            v->varattno > d->desc->natts) {
            d->failed = true;
            return;
        }
        ident_out(d, TupleDescAttr(d->desc, v->varattno - 1)->attname);
        return;
    }
    case T_Const:
        const_out(d, (Const *)e, 0);
        return;
    case T_FuncExpr: {
        FuncExpr *f = (FuncExpr *)e;

        /* quoted when it is a keyword ("left"), as PostgreSQL does */
        ident_out(d, f->func->name);
        out(d, "(");
        for (int i = 0; i < list_length(f->args); i++) {
            bool is_last = i == list_length(f->args) - 1;

            out(d, "%s%s", i > 0 ? ", " : "",
                is_last && f->funcvariadic ? "VARIADIC " : "");
            expr_out(d, list_nth(f->args, i), true);
        }
        out(d, ")");
        return;
    }
    case T_OpExpr: {
        OpExpr *op = (OpExpr *)e;

        if (!d->pretty)
            out(d, "(");
        if (list_length(op->args) == 2) {
            paren_out(d, linitial(op->args), e, true);
            out(d, " %s ", op->op->name);
            paren_out(d, list_nth(op->args, 1), e, true);
        } else {
            out(d, "%s ", op->op->name);
            paren_out(d, linitial(op->args), e, true);
        }
        if (!d->pretty)
            out(d, ")");
        return;
    }
    case T_BoolExpr: {
        BoolExpr *b = (BoolExpr *)e;

        if (!d->pretty)
            out(d, "(");
        if (b->boolop == NOT_EXPR) {
            out(d, "NOT ");
            paren_out(d, linitial(b->args), e, false);
        } else
            list_out(d, b->args, b->boolop == AND_EXPR ? " AND " : " OR ",
                     e);
        if (!d->pretty)
            out(d, ")");
        return;
    }
    case T_NullTest: {
        NullTest *n = (NullTest *)e;

        if (!d->pretty)
            out(d, "(");
        paren_out(d, n->arg, e, true);
        out(d, n->is_not_null ? " IS NOT NULL" : " IS NULL");
        if (!d->pretty)
            out(d, ")");
        return;
    }
    case T_BooleanTest: {
        static const char *const tests[] = {
            " IS TRUE",  " IS NOT TRUE",    " IS FALSE",
            " IS NOT FALSE", " IS UNKNOWN", " IS NOT UNKNOWN"};
        BooleanTest *t = (BooleanTest *)e;

        if (!d->pretty)
            out(d, "(");
        paren_out(d, t->arg, e, false);
        out(d, "%s", tests[t->booltesttype]);
        if (!d->pretty)
            out(d, ")");
        return;
    }
    case T_CoalesceExpr:
        out(d, "COALESCE(");
        list_out(d, ((CoalesceExpr *)e)->args, ", ", NULL);
        out(d, ")");
        return;
    case T_NullIfExpr:
        out(d, "NULLIF(");
        list_out(d, ((NullIfExpr *)e)->args, ", ", NULL);
        out(d, ")");
        return;
    case T_MinMaxExpr:
        out(d, ((MinMaxExpr *)e)->is_greatest ? "GREATEST(" : "LEAST(");
        list_out(d, ((MinMaxExpr *)e)->args, ", ", NULL);
        out(d, ")");
        return;
    case T_DistinctExpr: {
        /* IS NOT DISTINCT FROM is PostgreSQL's NOT over IS DISTINCT
         * FROM, and prints so */
        DistinctExpr *de = (DistinctExpr *)e;

        if (de->is_not)
            out(d, d->pretty ? "NOT " : "(NOT ");
        if (!d->pretty)
            out(d, "(");
        paren_out(d, linitial(de->args), e, true);
        out(d, " IS DISTINCT FROM ");
        paren_out(d, list_nth(de->args, 1), e, true);
        if (!d->pretty)
            out(d, ")");
        if (de->is_not && !d->pretty)
            out(d, ")");
        return;
    }
    default:
        d->failed = true;
        return;
    }
}

char *
tdb_deparse_expr(Expr *e, TupleDesc desc, bool pretty)
{
    Deparse d;

    d.size = 128;
    d.data = tdb_palloc(d.size);
    d.data[0] = '\0';
    d.len = 0;
    d.desc = desc;
    d.pretty = pretty;
    d.failed = false;
    expr_out(&d, e, false);
    return d.failed ? NULL : d.data;
}

/* Is e printed as a function call, needing no parentheses of its own in
 * an index's column list (PostgreSQL's looks_like_function)? */
static bool
looks_like_function(const Expr *e)
{
    switch (nodeTag(e)) {
    case T_FuncExpr:
        return !((const FuncExpr *)e)->is_cast;
    case T_CoalesceExpr:
    case T_NullIfExpr:
    case T_MinMaxExpr:
        return true;
    default:
        return false;
    }
}

char *
tdb_deparse_index_column(Relation rel, const RelationIndex *ri, int i, Expr *e,
                         bool pretty)
{
    Deparse d;
    char *printed;

    d.size = 64;
    d.data = tdb_palloc(d.size);
    d.data[0] = '\0';
    d.len = 0;
    d.desc = rel->rd_att;
    d.pretty = pretty;
    d.failed = false;
    if (ri->ri_attnums[i] != 0) {
        ident_out(&d,
                  TupleDescAttr(rel->rd_att, ri->ri_attnums[i] - 1)->attname);
        return d.data;
    }
    printed = tdb_deparse_expr(e, rel->rd_att, pretty);
    if (printed == NULL) /* CREATE INDEX printed it, so it prints */
        elog(ERROR, "could not print an expression of index \"%s\"",
             ri->ri_name);
    if (looks_like_function(e))
        return printed;
    out(&d, "(%s)", printed);
    return d.data;
}
