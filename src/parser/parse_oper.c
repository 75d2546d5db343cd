/*
 * parse_oper.c -- types in expressions: coercions and casts, the common
 * type of several expressions, and resolving operators and functions
 * among their overloads, with PostgreSQL's rules (parse_coerce.c,
 * parse_oper.c, parse_func.c: func_select_candidate).
 *
 * Resolution of a call with argument types A1..An among candidates:
 *   1. an exact match wins; with one unknown operand and one of type T,
 *      the candidate (T, T) is tried first;
 *   2. keep candidates every argument can be implicitly coerced to
 *      (an unknown literal coerces to anything);
 *   3. keep those with the most exact type matches;
 *   4. then those with the most preferred types where coercion is
 *      needed;
 *   5. unknown arguments: if some candidate takes a string-category type
 *      there, prefer those; else keep the category all candidates agree
 *      on (preferring its preferred type);
 *   6. one left: it; none: 42883 "... does not exist"; several: 42725
 *      "... is not unique".
 * Unknown literals are then converted with the chosen type's input
 * function, at analysis time, so a bad literal is reported with its
 * position.
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "parser/analyze.h"

/* ----------------------------------------------------------------------
 * Coercion
 * ---------------------------------------------------------------------- */

static bool
is_string_type(Oid type)
{
    return type == TEXTOID || type == VARCHAROID || type == BPCHAROID ||
           type == NAMEOID;
}

static char
type_category(Oid type)
{
    const TypeInfo *t = tdb_type_lookup(type);

    return t != NULL ? t->category : 'X';
}

static bool
is_preferred(Oid type)
{
    const TypeInfo *t = tdb_type_lookup(type);

    return t != NULL && t->preferred;
}

/* Context rank: implicit < assignment < explicit. */
static int
context_rank(char context)
{
    return context == CAST_IMPLICIT ? 0 : context == CAST_ASSIGNMENT ? 1 : 2;
}

bool
tdb_can_coerce(Oid from, Oid to, char context)
{
    const CastDesc *cast;

    if (from == to || from == UNKNOWNOID || to == ANYOID)
        return true;
    cast = tdb_cast_lookup(from, to);
    if (cast != NULL)
        return context_rank(cast->context) <= context_rank(context);
    /* automatic I/O conversions (PostgreSQL's): to a string type in
     * assignment context, from a string type explicitly */
    if (is_string_type(to) && context_rank(context) >= 1 &&
        tdb_type_support(from) != NULL)
        return true;
    if (is_string_type(from) && context == CAST_EXPLICIT &&
        tdb_type_support(to) != NULL)
        return true;
    return false;
}

/*
 * A FuncDesc for calling a cast function (EXPLAIN shows it as a cast),
 * with the cast's volatility (constant folding reads it).
 */
static const FuncDesc *
cast_func_desc(Oid from, Oid to, PGFunction fn, char volatility)
{
    FuncDesc *desc = tdb_palloc0(sizeof(FuncDesc));
    const TypeInfo *t = tdb_type_lookup(to);

    desc->name = t != NULL ? t->name : "cast";
    desc->rettype = to;
    desc->nargs = 1;
    desc->argtypes[0] = from;
    desc->strict = true;
    desc->volatility = volatility;
    desc->fn = fn;
    return desc;
}

/* Make an unknown literal a Const of `to` with its input function. */
static Expr *
coerce_unknown_const(ParseState *ps, Const *c, Oid target, int32 typmod,
                     char context, int location)
{
    const char *literal;
    volatile Datum value = 0;
    volatile Oid to = target == ANYOID ? TEXTOID : target;
    Const *result;
    int pos = c->xpr.location >= 0 ? c->xpr.location : location;

    if (c->constisnull)
        return (Expr *)tdb_make_null_const(to, typmod);
    literal = DatumGetPointer(c->constvalue);
    TDB_TRY();
    {
        /* typmod -1, the length check follows; but interval needs its
         * fields to read '1 2' DAY TO HOUR (as PostgreSQL) */
        value = tdb_type_input(to, literal, to == INTERVALOID ? typmod : -1);
    }
    TDB_CATCH();
    {
        /* attach the literal's position, as PostgreSQL does */
        ErrorData e = *tdb_error_current();

        tdb_error_flush();
        ereport(ERROR, errcode(e.sqlerrcode), errmsg("%s", e.message),
                e.detail[0] != '\0' ? errdetail("%s", e.detail) : 0,
                e.hint[0] != '\0' ? errhint("%s", e.hint) : 0,
                errposition(parse_errpos(ps, pos)));
    }
    TDB_END_TRY();
    {
        /* the length/precision check is a step of its own in
         * PostgreSQL, and reports no position */
        const TypeSupport *support = tdb_type_support(to);

        if (typmod >= 0 && support != NULL && support->apply_typmod != NULL)
            value = support->apply_typmod(value, typmod,
                                          context == CAST_EXPLICIT);
    }
    result = tdb_make_const(to, typmod, value, false);
    result->xpr.location = c->xpr.location;
    return (Expr *)result;
}

static Expr *
apply_typmod(Expr *expr, Oid to, int32 typmod, char context)
{
    const TypeSupport *support = tdb_type_support(to);
    CoerceToTypmod *c;

    if (typmod < 0 || exprTypmod(expr) == typmod || support == NULL ||
        support->apply_typmod == NULL)
        return expr;
    c = makeNode(CoerceToTypmod);
    c->xpr.type_oid = to;
    c->xpr.typmod = typmod;
    c->xpr.location = exprLocation(expr);
    c->arg = expr;
    c->is_explicit = context == CAST_EXPLICIT;
    return (Expr *)c;
}

/*
 * An unknown-typed $n takes the type it is coerced to, for the whole
 * statement (PostgreSQL's variable parameters).  To "any" it stays
 * unknown: if nothing else decides, preparing fails with 42P18.
 */
static Expr *
coerce_unknown_param(ParseState *ps, Param *p, Oid to, int32 typmod,
                     char context)
{
    ParamTypes *params = ps->st->params;
    int n = p->paramid;

    if (to == ANYOID)
        return (Expr *)p;
    Assert(params != NULL && n >= 1 && n <= params->ntypes);
    if (params->types[n - 1] == UNKNOWNOID)
        params->types[n - 1] = to;
    else if (params->types[n - 1] != to)
        ereport(ERROR, errcode(ERRCODE_AMBIGUOUS_PARAMETER),
                errmsg("inconsistent types deduced for parameter $%d", n),
                errdetail("%s versus %s",
                          tdb_format_type(params->types[n - 1], -1),
                          tdb_format_type(to, -1)),
                errposition(parse_errpos(ps, p->xpr.location)));
    p->xpr.type_oid = to;
    p->xpr.typmod = -1;
    return apply_typmod((Expr *)p, to, typmod, context);
}

Expr *
tdb_coerce_to(ParseState *ps, Expr *expr, Oid to, int32 typmod, char context,
              int location)
{
    Oid from = exprType(expr);
    const CastDesc *cast;

    if (from == UNKNOWNOID && IsA(expr, Const))
        return coerce_unknown_const(ps, (Const *)expr, to, typmod, context,
                                    location);
    if (from == UNKNOWNOID && IsA(expr, Param) &&
        ((Param *)expr)->paramkind == PARAM_EXTERN)
        return coerce_unknown_param(ps, (Param *)expr, to, typmod, context);
    if (from == to || to == ANYOID)
        return apply_typmod(expr, from, typmod, context);
    if (!tdb_can_coerce(from, to, context))
        return NULL;
    cast = tdb_cast_lookup(from, to);
    if (cast != NULL && cast->method == CAST_METHOD_FUNCTION) {
        FuncExpr *f = makeNode(FuncExpr);

        f->xpr.type_oid = to;
        f->xpr.typmod = -1;
        f->xpr.location = location;
        f->func = cast_func_desc(from, to, cast->fn, cast->volatility);
        f->args = tdb_list_make1(expr);
        f->is_cast = true;
        expr = (Expr *)f;
    } else if (cast != NULL && cast->method == CAST_METHOD_BINARY) {
        RelabelType *r = makeNode(RelabelType);

        r->xpr.type_oid = to;
        r->xpr.typmod = -1;
        r->xpr.location = location;
        r->arg = expr;
        expr = (Expr *)r;
    } else {
        CoerceViaIO *io = makeNode(CoerceViaIO);

        io->xpr.type_oid = to;
        io->xpr.typmod = -1;
        io->xpr.location = location;
        io->arg = expr;
        expr = (Expr *)io;
    }
    return apply_typmod(expr, to, typmod, context);
}

Expr *
tdb_coerce_or_error(ParseState *ps, Expr *expr, Oid to, int32 typmod,
                    char context, int location)
{
    Expr *result = tdb_coerce_to(ps, expr, to, typmod, context, location);

    if (result != NULL)
        return result;
    if (context == CAST_EXPLICIT)
        ereport(ERROR, errcode(ERRCODE_CANNOT_COERCE),
                errmsg("cannot cast type %s to %s",
                       tdb_format_type(exprType(expr), -1),
                       tdb_format_type(to, typmod)),
                errposition(parse_errpos(ps, location)));
    ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
            errmsg("expression is of type %s, but type %s is expected",
                   tdb_format_type(exprType(expr), -1),
                   tdb_format_type(to, typmod)),
            errposition(parse_errpos(ps, location)));
}

Expr *
tdb_coerce_to_boolean(ParseState *ps, Expr *expr, const char *clause)
{
    Expr *result;

    if (exprType(expr) == BOOLOID)
        return expr;
    result = tdb_coerce_to(ps, expr, BOOLOID, -1, CAST_IMPLICIT,
                           exprLocation(expr));
    if (result == NULL)
        ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
                errmsg("argument of %s must be type %s, not type %s", clause,
                       "boolean", tdb_format_type(exprType(expr), -1)),
                errposition(parse_errpos(ps, exprLocation(expr))));
    return result;
}

Oid
tdb_select_common_type(ParseState *ps, List *exprs, const char *what)
{
    Oid ptype = UNKNOWNOID;
    int plocation = -1;

    for (int i = 0; i < list_length(exprs); i++) {
        Expr *e = list_nth(exprs, i);
        Oid ntype = exprType(e);

        if (ntype == UNKNOWNOID || ntype == ptype)
            continue;
        if (ptype == UNKNOWNOID) {
            ptype = ntype;
            plocation = exprLocation(e);
            continue;
        }
        if (type_category(ntype) != type_category(ptype) && what == NULL)
            return InvalidOid;
        if (type_category(ntype) != type_category(ptype))
            ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
                    errmsg("%s types %s and %s cannot be matched", what,
                           tdb_format_type(ptype, -1),
                           tdb_format_type(ntype, -1)),
                    errposition(parse_errpos(ps, exprLocation(e))));
        if (!is_preferred(ptype) &&
            tdb_can_coerce(ptype, ntype, CAST_IMPLICIT) &&
            !tdb_can_coerce(ntype, ptype, CAST_IMPLICIT)) {
            ptype = ntype;
            plocation = exprLocation(e);
        }
    }
    (void)plocation;
    return ptype == UNKNOWNOID ? TEXTOID : ptype;
}

/* ----------------------------------------------------------------------
 * Candidate selection
 * ---------------------------------------------------------------------- */

/* One candidate's argument types (and its descriptor). */
typedef struct Candidate {
    const void *desc;
    int nargs;
    const Oid *argtypes;
    bool keep;
} Candidate;

static bool
arg_accepts(Oid cand, Oid actual)
{
    return cand == ANYOID || cand == ANYELEMENTOID || cand == actual ||
           tdb_can_coerce(actual, cand, CAST_IMPLICIT);
}

static int
count_keep(Candidate *c, int n)
{
    int k = 0;

    for (int i = 0; i < n; i++)
        k += c[i].keep;
    return k;
}

/* Keep only candidates scoring the maximum of score(). */
static void
keep_best(Candidate *c, int n, const Oid *args, int nargs,
          int (*score)(const Candidate *, const Oid *, int))
{
    int best = -1;

    for (int i = 0; i < n; i++)
        if (c[i].keep)
            best = Max(best, score(&c[i], args, nargs));
    for (int i = 0; i < n; i++)
        if (c[i].keep && score(&c[i], args, nargs) < best)
            c[i].keep = false;
}

static int
score_exact(const Candidate *c, const Oid *args, int nargs)
{
    int s = 0;

    for (int i = 0; i < nargs; i++)
        s += args[i] != UNKNOWNOID && c->argtypes[i] == args[i];
    return s;
}

static int
score_preferred(const Candidate *c, const Oid *args, int nargs)
{
    int s = 0;

    for (int i = 0; i < nargs; i++)
        s += args[i] != UNKNOWNOID && c->argtypes[i] != args[i] &&
             is_preferred(c->argtypes[i]);
    return s;
}

/* Rule 5: unknown arguments, by category. */
static void
resolve_unknowns(Candidate *c, int n, const Oid *args, int nargs)
{
    for (int a = 0; a < nargs; a++) {
        bool have_string = false;
        char category = 0;
        bool conflict = false;

        if (args[a] != UNKNOWNOID)
            continue;
        for (int i = 0; i < n; i++) {
            char cat;

            if (!c[i].keep)
                continue;
            cat = type_category(c[i].argtypes[a]);
            if (cat == 'S')
                have_string = true;
            if (category == 0)
                category = cat;
            else if (category != cat)
                conflict = true;
        }
        if (have_string)
            category = 'S';
        else if (conflict)
            continue;
        for (int i = 0; i < n; i++)
            if (c[i].keep && type_category(c[i].argtypes[a]) != category)
                c[i].keep = false;
        /* within the category, prefer its preferred type */
        for (int i = 0; i < n; i++)
            if (c[i].keep && is_preferred(c[i].argtypes[a])) {
                for (int j = 0; j < n; j++)
                    if (c[j].keep && !is_preferred(c[j].argtypes[a]))
                        c[j].keep = false;
                break;
            }
    }
}

/*
 * Choose among candidates for argument types args.  Returns the index,
 * -1 if none fits, -2 if ambiguous.
 */
static int
select_candidate(Candidate *c, int n, const Oid *args, int nargs)
{
    int known = -1;

    /* exact */
    for (int i = 0; i < n; i++) {
        bool exact = c[i].nargs == nargs;

        for (int a = 0; exact && a < nargs; a++)
            exact = c[i].argtypes[a] == args[a];
        if (exact)
            return i;
    }
    /* one unknown, one known T: (T, T) */
    if (nargs == 2 && (args[0] == UNKNOWNOID) != (args[1] == UNKNOWNOID)) {
        known = args[0] == UNKNOWNOID ? 1 : 0;
        for (int i = 0; i < n; i++)
            if (c[i].nargs == 2 && c[i].argtypes[0] == args[known] &&
                c[i].argtypes[1] == args[known])
                return i;
    }
    for (int i = 0; i < n; i++) {
        c[i].keep = c[i].nargs == nargs;
        for (int a = 0; c[i].keep && a < nargs; a++)
            c[i].keep = arg_accepts(c[i].argtypes[a], args[a]);
    }
    if (count_keep(c, n) == 0)
        return -1;
    if (count_keep(c, n) > 1)
        keep_best(c, n, args, nargs, score_exact);
    if (count_keep(c, n) > 1)
        keep_best(c, n, args, nargs, score_preferred);
    if (count_keep(c, n) > 1)
        resolve_unknowns(c, n, args, nargs);
    if (count_keep(c, n) != 1)
        return -2;
    for (int i = 0; i < n; i++)
        if (c[i].keep)
            return i;
    return -1;
}

/* "integer + text", "- text", "length(integer, unknown)" for messages. */
static const char *
signature(const char *name, const Oid *args, int nargs, bool is_operator)
{
    char buf[512];
    Size len = 0;

    if (is_operator) {
        if (nargs == 1)
            snprintf(buf, sizeof(buf), "%s %s", name,
                     tdb_format_type(args[0], -1));
        else
            snprintf(buf, sizeof(buf), "%s %s %s",
                     tdb_format_type(args[0], -1), name,
                     tdb_format_type(args[1], -1));
        return tdb_mcxt_strdup(tdb_current_mcxt, buf);
    }
    len = (Size)snprintf(buf, sizeof(buf), "%s(", name);
    for (int i = 0; i < nargs && len < sizeof(buf); i++)
        len += (Size)snprintf(buf + len, sizeof(buf) - len, "%s%s",
                              i > 0 ? ", " : "",
                              tdb_format_type(args[i], -1));
    if (len < sizeof(buf))
        snprintf(buf + len, sizeof(buf) - len, ")");
    return tdb_mcxt_strdup(tdb_current_mcxt, buf);
}

/* "f(integer, b => text)" for messages about a call with names. */
static const char *
call_signature(const char *name, const Oid *args, const char *const *argnames,
               int nargs)
{
    char buf[512];
    Size len;

    if (argnames == NULL)
        return signature(name, args, nargs, false);
    len = (Size)snprintf(buf, sizeof(buf), "%s(", name);
    for (int i = 0; i < nargs && len < sizeof(buf); i++)
        len += (Size)snprintf(buf + len, sizeof(buf) - len, "%s%s%s%s",
                              i > 0 ? ", " : "",
                              argnames[i] != NULL ? argnames[i] : "",
                              argnames[i] != NULL ? " => " : "",
                              tdb_format_type(args[i], -1));
    if (len < sizeof(buf))
        snprintf(buf + len, sizeof(buf) - len, ")");
    return tdb_mcxt_strdup(tdb_current_mcxt, buf);
}

/* Coerce args to the chosen candidate's types. */
static List *
coerce_args(ParseState *ps, List *args, const Oid *types, Oid *anyelement)
{
    List *result = NIL;

    *anyelement = InvalidOid;
    for (int i = 0; i < list_length(args); i++)
        if (types[i] == ANYELEMENTOID &&
            exprType(list_nth(args, i)) != UNKNOWNOID)
            *anyelement = exprType(list_nth(args, i));
    for (int i = 0; i < list_length(args); i++) {
        Expr *arg = list_nth(args, i);
        Oid to = types[i] == ANYELEMENTOID
                     ? (*anyelement != InvalidOid ? *anyelement : TEXTOID)
                     : types[i];

        if (types[i] == ANYOID && exprType(arg) == UNKNOWNOID)
            to = TEXTOID;
        result = tdb_lappend(
            result, tdb_coerce_or_error(ps, arg, to, -1, CAST_IMPLICIT,
                                        exprLocation(arg)));
    }
    return result;
}

#define MAX_CANDIDATES 64

Expr *
tdb_make_op(ParseState *ps, const char *name, Expr *left, Expr *right,
            int location)
{
    const OperDesc *opers[MAX_CANDIDATES];
    Candidate cands[MAX_CANDIDATES];
    Oid args[2];
    int nargs = left != NULL ? 2 : 1;
    int n = Min(tdb_oper_candidates(name, opers, MAX_CANDIDATES),
                MAX_CANDIDATES);
    int chosen;
    OpExpr *op;
    Oid anyelement;
    List *arglist;

    args[0] = left != NULL ? exprType(left) : exprType(right);
    args[1] = right != NULL ? exprType(right) : InvalidOid;
    for (int i = 0; i < n; i++) {
        cands[i].desc = opers[i];
        cands[i].nargs = opers[i]->left == InvalidOid ? 1 : 2;
        cands[i].argtypes =
            opers[i]->left == InvalidOid ? &opers[i]->right : &opers[i]->left;
    }
    chosen = select_candidate(cands, n, args, nargs);
    if (chosen == -2)
        ereport(ERROR, errcode(ERRCODE_AMBIGUOUS_FUNCTION),
                errmsg("operator is not unique: %s",
                       signature(name, args, nargs, true)),
                errhint("Could not choose a best candidate operator. You "
                        "might need to add explicit type casts."),
                errposition(parse_errpos(ps, location)));
    if (chosen < 0)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_FUNCTION),
                errmsg("operator does not exist: %s",
                       signature(name, args, nargs, true)),
                nargs == 1
                    ? errhint("No operator matches the given name and "
                              "argument type. You might need to add an "
                              "explicit type cast.")
                    : errhint("No operator matches the given name and "
                              "argument types. You might need to add "
                              "explicit type casts."),
                errposition(parse_errpos(ps, location)));
    op = makeNode(OpExpr);
    op->op = cands[chosen].desc;
    arglist = left != NULL ? tdb_list_make2(left, right)
                           : tdb_list_make1(right);
    op->args = coerce_args(ps, arglist, cands[chosen].argtypes, &anyelement);
    op->xpr.type_oid = op->op->result;
    op->xpr.typmod = -1;
    op->xpr.location = location;
    return (Expr *)op;
}

int
tdb_select_overload(ParseState *ps, const char *name, int n,
                    const int16 *cand_nargs, const Oid *const *cand_argtypes,
                    List *args, int location)
{
    return tdb_select_overload_named(ps, name, n, cand_nargs, cand_argtypes,
                                     args, NULL, location);
}

int
tdb_select_overload_named(ParseState *ps, const char *name, int n,
                          const int16 *cand_nargs,
                          const Oid *const *cand_argtypes, List *args,
                          const char *const *argnames, int location)
{
    Candidate cands[MAX_CANDIDATES];
    Oid argtypes[FUNC_MAX_ARGS];
    int nargs = list_length(args);
    int chosen;

    if (nargs > FUNC_MAX_ARGS)
        ereport(ERROR, errcode(ERRCODE_TOO_MANY_COLUMNS),
                errmsg("cannot pass more than %d arguments to a function",
                       FUNC_MAX_ARGS),
                errposition(parse_errpos(ps, location)));
    n = Min(n, MAX_CANDIDATES);
    for (int i = 0; i < nargs; i++)
        argtypes[i] = exprType(list_nth(args, i));
    for (int i = 0; i < n; i++) {
        cands[i].desc = NULL;
        cands[i].nargs = cand_nargs[i];
        cands[i].argtypes = cand_argtypes[i];
    }
    chosen = select_candidate(cands, n, argtypes, nargs);
    if (chosen == -2)
        ereport(ERROR, errcode(ERRCODE_AMBIGUOUS_FUNCTION),
                errmsg("function %s is not unique",
                       call_signature(name, argtypes, argnames, nargs)),
                errhint("Could not choose a best candidate function. You "
                        "might need to add explicit type casts."),
                errposition(parse_errpos(ps, location)));
    if (chosen < 0)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_FUNCTION),
                errmsg("function %s does not exist",
                       call_signature(name, argtypes, argnames, nargs)),
                errhint("No function matches the given name and argument "
                        "types. You might need to add explicit type casts."),
                errposition(parse_errpos(ps, location)));
    return chosen;
}

/*
 * Which parameter of func each call argument goes to (PostgreSQL's
 * rules): positional arguments first, in order; named ones by
 * proargnames; every parameter left over must have a default.  Fills
 * param_of[0..nargs-1] and the parameters' types in call order; false if
 * the call cannot be made to func.
 */
static bool
map_call_args(const FuncDesc *func, int nargs, const char *const *argnames,
              int *param_of, Oid *types)
{
    bool filled[FUNC_MAX_ARGS] = {false};

    if (nargs > func->nargs)
        return false;
    for (int k = 0; k < nargs; k++) {
        int p = k;

        if (argnames != NULL && argnames[k] != NULL) {
            if (func->argnames == NULL)
                return false;
            for (p = 0; p < func->nargs; p++)
                if (strcmp(func->argnames[p], argnames[k]) == 0)
                    break;
            if (p == func->nargs || filled[p])
                return false;
        }
        filled[p] = true;
        param_of[k] = p;
        types[k] = func->argtypes[p];
    }
    for (int p = 0; p < func->nargs; p++)
        if (!filled[p] && p < func->nargs - func->nargdefaults)
            return false;
    return true;
}

/* The call's arguments in func's parameter order, defaults filled in. */
static List *
arrange_args(const FuncDesc *func, List *args, const int *param_of)
{
    List *result = NIL;

    for (int p = 0; p < func->nargs; p++) {
        Expr *arg = NULL;

        for (int k = 0; k < list_length(args); k++)
            if (param_of[k] == p)
                arg = list_nth(args, k);
        if (arg == NULL)
            arg = (Expr *)tdb_make_const(
                func->argtypes[p], -1,
                func->argdefaults[p - (func->nargs - func->nargdefaults)],
                false);
        result = tdb_lappend(result, arg);
    }
    return result;
}

Expr *
tdb_make_func_call(ParseState *ps, const char *name, List *args,
                   int location)
{
    return tdb_make_func_call_named(ps, name, args, NULL, false, location);
}

/* The index of func's first variadic argument (FuncDesc.variadic_any). */
static int
first_variadic_arg(const FuncDesc *func)
{
    int i = 0;

    while (i < func->nargs && func->argtypes[i] != ANYOID)
        i++;
    return i;
}

/*
 * A call written f(..., VARIADIC arr) of a function declared VARIADIC
 * "any" (concat, concat_ws) passes arr as all of its variadic arguments:
 * arr must be an array (42804).  Any other function takes arr as an
 * ordinary argument, as PostgreSQL resolves it (lower(VARIADIC text[])
 * finds no lower(text[])).
 */
static void
check_variadic_array(ParseState *ps, FuncExpr *f, int location)
{
    Expr *arr = list_nth(f->args, list_length(f->args) - 1);
    const TypeInfo *type = tdb_type_lookup(exprType(arr));

    if (type == NULL || type->category != 'A')
        ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
                errmsg("VARIADIC argument must be an array"),
                errposition(parse_errpos(ps, location)));
    f->funcvariadic = true;
}

Expr *
tdb_make_func_call_named(ParseState *ps, const char *name, List *args,
                         const char *const *argnames, bool variadic,
                         int location)
{
    const FuncDesc *funcs[MAX_CANDIDATES];
    const FuncDesc *usable[MAX_CANDIDATES];
    int16 nargs_of[MAX_CANDIDATES];
    Oid types_of[MAX_CANDIDATES][FUNC_MAX_ARGS];
    int param_of[MAX_CANDIDATES][FUNC_MAX_ARGS];
    const Oid *argtypes_of[MAX_CANDIDATES];
    int nargs = list_length(args);
    int n = Min(tdb_func_candidates(name, funcs, MAX_CANDIDATES),
                MAX_CANDIDATES);
    int m = 0;
    int chosen;
    FuncExpr *f;
    Oid anyelement;
    /* where the VARIADIC argument was written (coercion may lose it) */
    int variadic_location =
        nargs > 0 ? exprLocation(list_nth(args, nargs - 1)) : location;

    for (int i = 0; i < n && nargs <= FUNC_MAX_ARGS; i++) {
        /* VARIADIC arr is all of a VARIADIC "any" function's variadic
         * arguments: only the row with one of them matches */
        if (variadic && funcs[i]->variadic_any &&
            nargs != first_variadic_arg(funcs[i]) + 1)
            continue;
        if (!map_call_args(funcs[i], nargs, argnames, param_of[m],
                           types_of[m]))
            continue;
        usable[m] = funcs[i];
        nargs_of[m] = (int16)nargs;
        argtypes_of[m] = types_of[m];
        m++;
    }
    chosen = tdb_select_overload_named(ps, name, m, nargs_of, argtypes_of,
                                       args, argnames, location);
    args = coerce_args(ps, args, argtypes_of[chosen], &anyelement);
    f = makeNode(FuncExpr);
    f->func = usable[chosen];
    f->args = arrange_args(f->func, args, param_of[chosen]);
    f->xpr.type_oid = f->func->rettype == ANYELEMENTOID
                          ? (anyelement != InvalidOid ? anyelement : TEXTOID)
                          : f->func->rettype;
    f->xpr.typmod = -1;
    f->xpr.location = location;
    if (variadic && f->func->variadic_any)
        check_variadic_array(ps, f, variadic_location);
    return (Expr *)f;
}

const OperDesc *
tdb_equality_op(ParseState *ps, Oid type, int location)
{
    const OperDesc *op = tdb_oper_lookup("=", type, type);

    if (op == NULL && (type == VARCHAROID || type == NAMEOID))
        op = tdb_oper_lookup("=", TEXTOID, TEXTOID);
    if (op == NULL)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_FUNCTION),
                errmsg("could not identify an equality operator for type %s",
                       tdb_format_type(type, -1)),
                errposition(parse_errpos(ps, location)));
    return op;
}
