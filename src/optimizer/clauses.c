/*
 * clauses.c -- constant folding: PostgreSQL's eval_const_expressions.
 *
 * The planner runs every expression of a query through
 * tdb_eval_const_expressions before it plans anything.  Users can see
 * the result in two ways, so tupledb folds exactly where PostgreSQL does:
 *
 *   - EXPLAIN prints the folded tree: WHERE a = 1 + 1 shows (a = 2),
 *     NOT (a = 1) shows (a <> 1), greatest(1, 2) shows 2.
 *   - Errors move from run time to plan time.  SELECT 1/0 FROM t fails
 *     even when t is empty; CASE WHEN x > 0 THEN 1/0 END fails for every
 *     x (a constant THEN arm is folded whether or not it is taken);
 *     while a strict call with a NULL constant argument is NULL without
 *     evaluating its other arguments, so (NULL::int * i) | (i / 0)
 *     is NULL and never divides.
 *
 * The rules, PostgreSQL's:
 *   - A strict function or operator with a NULL constant argument is a
 *     NULL constant, whatever its other arguments and its volatility.
 *   - A call whose arguments are all constants is evaluated now if its
 *     function is immutable (date/time conversions that read TimeZone or
 *     DateStyle are stable and wait for execution).  So are casts,
 *     NULLIF, IS [NOT] DISTINCT FROM, GREATEST/LEAST, IN lists, IS NULL
 *     and IS TRUE-style tests of constants.
 *   - AND / OR: nested ones are flattened; constant arguments that
 *     cannot decide drop out (TRUE in AND, FALSE in OR), a deciding one
 *     (FALSE in AND, TRUE in OR) makes the whole a constant and leaves
 *     later arguments unexamined; NULL constants collapse into one NULL
 *     at the end.  NOT is pushed down (negator operators, De Morgan,
 *     flipped IS NULL / IS TRUE tests).
 *   - CASE: a constant test value of a simple CASE is substituted into
 *     the WHEN conditions; arms with a constant FALSE/NULL condition
 *     drop out; a constant TRUE condition makes its result the ELSE and
 *     ends the list (arms after it are not examined); no arms left
 *     leaves just the ELSE.
 *   - COALESCE: NULL constants drop out; a non-NULL constant ends the
 *     list (it alone remains if it comes first).
 *   - Operators that PostgreSQL implements as inlinable SQL functions
 *     become what their bodies say: interval + timestamptz turns into
 *     timestamptz + interval (operands swapped, so the other one is
 *     evaluated first), text || 1 folds as text || 1::text would.
 * Evaluation compiles the sub-expression with the executor's expression
 * compiler and runs it once in a scratch memory context; the result is
 * copied into the caller's context as a Const.
 */
#include "common/base.h"

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "common/stack_depth.h"
#include "executor/expr.h"
#include "mmgr/mcxt.h"
#include "nodes/primnodes.h"
#include "optimizer/planner.h"
#include "tuple/tupdesc.h"
#include "types/builtins.h"

typedef struct FoldContext {
    Const *case_val; /* constant test value of the simple CASE being
                      * folded, or NULL */
} FoldContext;

static Node *fold_mutator(Node *node, void *arg);

static Expr *
fold(Expr *e, FoldContext *ctx)
{
    return (Expr *)fold_mutator((Node *)e, ctx);
}

static bool
is_const(const void *node)
{
    return node != NULL && IsA(node, Const);
}

static bool
is_null_const(const void *node)
{
    return is_const(node) && ((const Const *)node)->constisnull;
}

/* A non-NULL boolean constant with this value? */
static bool
is_bool_const(const void *node, bool value)
{
    return is_const(node) && !((const Const *)node)->constisnull &&
           DatumGetBool(((const Const *)node)->constvalue) == value;
}

static bool
all_const(List *args)
{
    for (int i = 0; i < list_length(args); i++)
        if (!is_const(list_nth(args, i)))
            return false;
    return true;
}

static bool
any_null_const(List *args)
{
    for (int i = 0; i < list_length(args); i++)
        if (is_null_const(list_nth(args, i)))
            return true;
    return false;
}

static List *
fold_list(List *args, FoldContext *ctx)
{
    List *result = NIL;

    for (int i = 0; i < list_length(args); i++)
        result = tdb_lappend(result, fold(list_nth(args, i), ctx));
    return result;
}

/* ----------------------------------------------------------------------
 * Evaluation
 * ---------------------------------------------------------------------- */

/*
 * Evaluate expr (which reads no columns, params or subqueries) now and
 * return its value as a Const of its type and typmod.
 */
static Expr *
evaluate(Expr *expr)
{
    MemoryContext caller = tdb_current_mcxt;
    MemoryContext scratch =
        tdb_aset_create(caller, "ConstantFolding", ALLOCSET_SMALL_SIZES);
    const TypeInfo *type = tdb_type_lookup(exprType(expr));
    ExprContext econtext = {0};
    ExprState *state;
    Datum value;
    bool isnull;
    Const *result;

    tdb_mcxt_switch_to(scratch);
    econtext.per_row_mcxt = scratch;
    econtext.per_query_mcxt = scratch;
    state = tdb_exec_init_expr(expr, NULL);
    value = tdb_exec_eval_expr(state, &econtext, &isnull);
    tdb_mcxt_switch_to(caller);
    if (!isnull && type != NULL)
        value = tdb_datum_copy(caller, value, type->byval, type->len);
    result = tdb_make_const(exprType(expr), exprTypmod(expr), value, isnull);
    tdb_mcxt_delete(scratch);
    return (Expr *)result;
}

static Expr *
null_const_like(const Expr *expr)
{
    return (Expr *)tdb_make_null_const(exprType(expr), exprTypmod(expr));
}

/*
 * Date/time values whose text form depends on TimeZone / DateStyle /
 * IntervalStyle (or, for input, on 'now'): their input and output
 * functions are stable, not immutable -- pg_type's typinput/typoutput
 * volatilities.  (float and bytea output read extra_float_digits and
 * bytea_output, yet PostgreSQL marks them immutable, and so do we.)
 */
static bool
io_is_stable(Oid type, bool input)
{
    switch (type) {
    case DATEOID:
    case INTERVALOID:
    case TIMESTAMPOID:
    case TIMESTAMPTZOID:
        return true;
    case TIMEOID:
        return input;
    default:
        return false;
    }
}

/*
 * Only immutable calls are evaluated at plan time; stable ones -- those
 * whose result depends on a setting such as TimeZone or DateStyle, or on
 * the transaction (now()) -- wait for execution, as PostgreSQL's
 * provolatile says.  Casts carry their function's volatility in the
 * FuncDesc the analyzer made for them; operators in their OperDesc.
 */
static bool
func_is_immutable(const FuncExpr *f)
{
    return f->func->volatility == PROVOLATILE_IMMUTABLE && !f->func->retset;
}

/*
 * text || anynonarray and anynonarray || text (operators 2779, 2780) are
 * stable SQL functions in PostgreSQL, but it inlines their bodies
 * ($1 || $2::text) before folding, so the call folds exactly when the
 * non-text operand's output function is immutable: 'a' || 1 becomes a
 * constant, 'a' || '2024-01-01'::date does not.
 */
static bool
oper_is_immutable(const OpExpr *o)
{
    const OperDesc *op = o->op;

    if (op->oid == 2779 || op->oid == 2780) {
        Oid other = exprType(list_nth(o->args, op->oid == 2779 ? 1 : 0));

        return !io_is_stable(other, false);
    }
    return op->volatility == PROVOLATILE_IMMUTABLE;
}

/* ----------------------------------------------------------------------
 * Node kinds
 * ---------------------------------------------------------------------- */

static Node *
fold_func(FuncExpr *f, FoldContext *ctx)
{
    FuncExpr *copy = (FuncExpr *)tdb_copy_node_shallow((Node *)f);

    copy->args = fold_list(f->args, ctx);
    if (f->func->retset)
        return (Node *)copy;
    if (f->func->strict && any_null_const(copy->args))
        return (Node *)null_const_like(&f->xpr);
    if (all_const(copy->args) && func_is_immutable(copy))
        return (Node *)evaluate(&copy->xpr);
    return (Node *)copy;
}

/*
 * Operators whose PostgreSQL function is SQL of the form "$2 + $1":
 * interval + timestamp[tz]/date/time, integer + date, time + date.
 * PostgreSQL inlines such functions while folding, so the call becomes
 * its commutator with the operands swapped -- visibly: EXPLAIN prints
 * it that way, and the right operand is evaluated (and fails) first.
 * The commutator with the swapped operand types, or NULL.
 */
static const OperDesc *
inlined_commutator(const OperDesc *op)
{
    switch (op->oid) {
    case 1363: /* time + date */
    case 1849: /* interval + time */
    case 2551: /* interval + date */
    case 2553: /* interval + timestamp */
    case 2554: /* interval + timestamptz */
    case 2555: /* integer + date */
        return tdb_oper_lookup(op->name, op->right, op->left);
    default:
        return NULL;
    }
}

static Expr *negate(Expr *e);

/*
 * bool = constant and bool <> constant become the other side or its
 * negation (PostgreSQL's simplify_boolean_equality): `x <> true` is
 * `NOT x`, `x = true` is x.  NULL if o is not such a comparison.
 */
static Expr *
simplify_boolean_equality(OpExpr *o)
{
    bool is_eq;

    if (list_length(o->args) != 2 || o->op->left != BOOLOID ||
        o->op->right != BOOLOID)
        return NULL;
    if (strcmp(o->op->name, "=") == 0)
        is_eq = true;
    else if (strcmp(o->op->name, "<>") == 0)
        is_eq = false;
    else
        return NULL;
    for (int side = 0; side < 2; side++) {
        Expr *c = list_nth(o->args, side);
        Expr *other = list_nth(o->args, 1 - side);

        if (is_const(c) && !((Const *)c)->constisnull)
            return DatumGetBool(((Const *)c)->constvalue) == is_eq
                       ? other
                       : negate(other);
    }
    return NULL;
}

static Node *
fold_oper(OpExpr *o, FoldContext *ctx)
{
    OpExpr *copy = (OpExpr *)tdb_copy_node_shallow((Node *)o);
    const OperDesc *swapped = inlined_commutator(o->op);

    copy->args = fold_list(o->args, ctx);
    if (swapped != NULL && list_length(copy->args) == 2) {
        copy->op = swapped;
        copy->args = tdb_list_make2(list_nth(copy->args, 1),
                                    list_nth(copy->args, 0));
        o = copy;
    }
    if (o->op->strict && any_null_const(copy->args))
        return (Node *)null_const_like(&o->xpr);
    if (all_const(copy->args) && oper_is_immutable(copy))
        return (Node *)evaluate(&copy->xpr);
    {
        Expr *simpler = simplify_boolean_equality(copy);

        if (simpler != NULL)
            return (Node *)simpler;
    }
    return (Node *)copy;
}

/*
 * A node evaluated when all its arguments are constants (PostgreSQL's
 * "generic processing, then evaluate if all arguments are constant").
 */
static Node *
fold_children_then_evaluate(Node *node, FoldContext *ctx, List *(*args)(Node *))
{
    Node *copy = tdb_expr_mutate_children(
        node, fold_mutator, ctx);

    return all_const(args(copy)) ? (Node *)evaluate((Expr *)copy) : copy;
}

static List *
nullif_args(Node *n)
{
    return ((NullIfExpr *)n)->args;
}

/* NULLIF(NULL, b) is NULL and NULLIF(a, NULL) is a, whatever a and b. */
static Node *
fold_nullif(NullIfExpr *n, FoldContext *ctx)
{
    Node *copy = fold_children_then_evaluate((Node *)n, ctx, nullif_args);

    if (IsA(copy, NullIfExpr)) {
        List *args = ((NullIfExpr *)copy)->args;

        if (is_null_const(list_nth(args, 0)))
            return (Node *)null_const_like(&n->xpr);
        if (is_null_const(list_nth(args, 1)))
            return list_nth(args, 0);
    }
    return copy;
}

static List *
distinct_args(Node *n)
{
    return ((DistinctExpr *)n)->args;
}

static List *
minmax_args(Node *n)
{
    return ((MinMaxExpr *)n)->args;
}

static List *
inlist_args(Node *n)
{
    InListExpr *in = (InListExpr *)n;

    return tdb_lprepend(tdb_list_copy(in->items), in->arg);
}

static List *
array_elements(Node *n)
{
    return ((ArrayExpr *)n)->elements;
}

/* x op ANY / ALL (array): evaluated when x and the array are constants
 * and op is immutable. */
static Node *
fold_saop(ScalarArrayOpExpr *saop, FoldContext *ctx)
{
    ScalarArrayOpExpr *copy =
        (ScalarArrayOpExpr *)tdb_copy_node_shallow((Node *)saop);

    copy->args = fold_list(saop->args, ctx);
    if (all_const(copy->args) && copy->op->volatility == PROVOLATILE_IMMUTABLE)
        return (Node *)evaluate(&copy->xpr);
    return (Node *)copy;
}

static List *
arg_of_test(Node *n)
{
    Expr *arg = IsA(n, NullTest) ? ((NullTest *)n)->arg
              : IsA(n, BooleanTest) ? ((BooleanTest *)n)->arg
              : IsA(n, CoerceViaIO) ? ((CoerceViaIO *)n)->arg
                                    : ((CoerceToTypmod *)n)->arg;

    return tdb_list_make1(arg);
}

static Node *
fold_coerce_via_io(CoerceViaIO *io, FoldContext *ctx)
{
    Expr *arg = fold(io->arg, ctx);
    CoerceViaIO *copy;

    if (is_null_const(arg))
        return (Node *)null_const_like(&io->xpr);
    copy = (CoerceViaIO *)tdb_copy_node_shallow((Node *)io);
    copy->arg = arg;
    if (is_const(arg) && !io_is_stable(exprType(arg), false) &&
        !io_is_stable(exprType(&io->xpr), true))
        return (Node *)evaluate(&copy->xpr);
    return (Node *)copy;
}

static Node *
fold_relabel(RelabelType *r, FoldContext *ctx)
{
    Expr *arg = fold(r->arg, ctx);
    RelabelType *copy;

    if (is_const(arg)) {
        Const *c = (Const *)tdb_copy_node_shallow((Node *)arg);

        c->xpr.type_oid = exprType(&r->xpr);
        c->xpr.typmod = exprTypmod(&r->xpr);
        return (Node *)c;
    }
    copy = (RelabelType *)tdb_copy_node_shallow((Node *)r);
    copy->arg = arg;
    return (Node *)copy;
}

/* ----- AND / OR / NOT ----- */

static Expr *negate(Expr *e);

static BoolExpr *
make_bool_expr(BoolExprType op, List *args, int location)
{
    BoolExpr *b = makeNode(BoolExpr);

    b->xpr.type_oid = BOOLOID;
    b->xpr.typmod = -1;
    b->xpr.location = location;
    b->boolop = op;
    b->args = args;
    return b;
}

/*
 * Fold the arguments of an AND (is_and) or OR: see the file header.
 * Returns the remaining arguments, or sets *decided to the deciding
 * constant.
 */
static List *
fold_andor_args(List *args, bool is_and, FoldContext *ctx, Expr **decided)
{
    List *pending = tdb_list_copy(args);
    List *result = NIL;
    bool have_null = false;

    *decided = NULL;
    while (pending != NIL) {
        Expr *arg = list_nth(pending, 0);

        pending = tdb_list_delete_nth(pending, 0);
        if (IsA(arg, BoolExpr) &&
            ((BoolExpr *)arg)->boolop == (is_and ? AND_EXPR : OR_EXPR)) {
            pending = tdb_list_concat(tdb_list_copy(((BoolExpr *)arg)->args),
                                      pending);
            continue;
        }
        arg = fold(arg, ctx);
        if (IsA(arg, BoolExpr) &&
            ((BoolExpr *)arg)->boolop == (is_and ? AND_EXPR : OR_EXPR)) {
            pending = tdb_list_concat(tdb_list_copy(((BoolExpr *)arg)->args),
                                      pending);
            continue;
        }
        if (is_null_const(arg)) {
            have_null = true;
            continue;
        }
        if (is_bool_const(arg, !is_and)) {
            *decided = arg;
            return NIL;
        }
        if (is_bool_const(arg, is_and))
            continue;
        result = tdb_lappend(result, arg);
    }
    if (have_null)
        result = tdb_lappend(result,
                             (Expr *)tdb_make_null_const(BOOLOID, -1));
    return result;
}

static Node *
fold_bool(BoolExpr *b, FoldContext *ctx)
{
    Expr *decided;
    List *args;

    if (b->boolop == NOT_EXPR)
        return (Node *)negate(fold(list_nth(b->args, 0), ctx));
    args = fold_andor_args(b->args, b->boolop == AND_EXPR, ctx, &decided);
    if (decided != NULL)
        return (Node *)decided;
    if (args == NIL)
        return (Node *)tdb_make_bool_const(b->boolop == AND_EXPR, false);
    if (list_length(args) == 1)
        return list_nth(args, 0);
    return (Node *)make_bool_expr(b->boolop, args, b->xpr.location);
}

/* NOT e, pushed down as far as PostgreSQL's negate_clause pushes it. */
static Expr *
negate(Expr *e)
{
    tdb_check_stack_depth();

    if (is_const(e)) {
        Const *c = (Const *)e;

        return (Expr *)tdb_make_bool_const(
            c->constisnull ? false : !DatumGetBool(c->constvalue),
            c->constisnull);
    }
    if (IsA(e, OpExpr)) {
        OpExpr *o = (OpExpr *)e;
        const OperDesc *neg =
            o->op->negator != NULL
                ? tdb_oper_lookup(o->op->negator, o->op->left, o->op->right)
                : NULL;

        if (neg != NULL) {
            OpExpr *copy = (OpExpr *)tdb_copy_node_shallow((Node *)o);

            copy->op = neg;
            return (Expr *)copy;
        }
    } else if (IsA(e, BoolExpr)) {
        BoolExpr *b = (BoolExpr *)e;
        List *args = NIL;

        if (b->boolop == NOT_EXPR)
            return list_nth(b->args, 0);
        for (int i = 0; i < list_length(b->args); i++)
            args = tdb_lappend(args, negate(list_nth(b->args, i)));
        return (Expr *)make_bool_expr(
            b->boolop == AND_EXPR ? OR_EXPR : AND_EXPR, args,
            b->xpr.location);
    } else if (IsA(e, NullTest)) {
        NullTest *copy = (NullTest *)tdb_copy_node_shallow((Node *)e);

        copy->is_not_null = !copy->is_not_null;
        return (Expr *)copy;
    } else if (IsA(e, BooleanTest)) {
        static const BoolTestType flipped[] = {
            [IS_TRUE] = IS_NOT_TRUE,       [IS_NOT_TRUE] = IS_TRUE,
            [IS_FALSE] = IS_NOT_FALSE,     [IS_NOT_FALSE] = IS_FALSE,
            [IS_UNKNOWN] = IS_NOT_UNKNOWN, [IS_NOT_UNKNOWN] = IS_UNKNOWN,
        };
        BooleanTest *copy = (BooleanTest *)tdb_copy_node_shallow((Node *)e);

        copy->booltesttype = flipped[copy->booltesttype];
        return (Expr *)copy;
    } else if (IsA(e, InListExpr)) {
        InListExpr *in = (InListExpr *)e;
        const OperDesc *neg =
            in->op->negator != NULL
                ? tdb_oper_lookup(in->op->negator, in->op->left,
                                  in->op->right)
                : NULL;

        if (neg != NULL) {
            InListExpr *copy = (InListExpr *)tdb_copy_node_shallow((Node *)e);

            copy->is_not = !copy->is_not;
            return (Expr *)copy;
        }
    }
    return (Expr *)make_bool_expr(NOT_EXPR, tdb_list_make1(e),
                                  exprLocation(e));
}

/* ----- CASE / COALESCE ----- */

static Node *
fold_case(CaseExpr *c, FoldContext *ctx)
{
    Const *saved = ctx->case_val;
    Expr *arg = fold(c->arg, ctx);
    List *whens = NIL;
    Expr *defresult = NULL;
    CaseExpr *copy;

    ctx->case_val = NULL;
    if (is_const(arg)) {
        ctx->case_val = (Const *)arg;
        arg = NULL;
    }
    for (int i = 0; i < list_length(c->whens); i++) {
        CaseWhen *w = list_nth(c->whens, i);
        Expr *cond = fold(w->expr, ctx);
        Expr *result;
        CaseWhen *nw;

        if (is_null_const(cond) || is_bool_const(cond, false))
            continue;
        result = fold(w->result, ctx);
        if (is_bool_const(cond, true)) {
            defresult = result;
            break;
        }
        nw = (CaseWhen *)tdb_copy_node_shallow((Node *)w);
        nw->expr = cond;
        nw->result = result;
        whens = tdb_lappend(whens, nw);
    }
    if (defresult == NULL)
        defresult = c->defresult != NULL
                        ? fold(c->defresult, ctx)
                        : null_const_like(&c->xpr);
    ctx->case_val = saved;
    if (whens == NIL)
        return (Node *)defresult;
    copy = (CaseExpr *)tdb_copy_node_shallow((Node *)c);
    copy->arg = arg;
    copy->whens = whens;
    copy->defresult = defresult;
    return (Node *)copy;
}

static Node *
fold_coalesce(CoalesceExpr *c, FoldContext *ctx)
{
    List *args = NIL;
    CoalesceExpr *copy;

    for (int i = 0; i < list_length(c->args); i++) {
        Expr *e = fold(list_nth(c->args, i), ctx);

        if (is_null_const(e))
            continue;
        if (is_const(e)) {
            if (args == NIL)
                return (Node *)e;
            args = tdb_lappend(args, e);
            break;
        }
        args = tdb_lappend(args, e);
    }
    if (args == NIL)
        return (Node *)null_const_like(&c->xpr);
    copy = (CoalesceExpr *)tdb_copy_node_shallow((Node *)c);
    copy->args = args;
    return (Node *)copy;
}

/* ---------------------------------------------------------------------- */

static Node *
fold_mutator(Node *node, void *arg)
{
    FoldContext *ctx = arg;

    tdb_check_stack_depth();

    if (node == NULL)
        return NULL;
    switch (nodeTag(node)) {
    case T_Const:
    case T_Var:
    case T_Param:
        return node;
    case T_CaseTestExpr:
        return ctx->case_val != NULL ? (Node *)ctx->case_val : node;
    case T_FuncExpr:
        return fold_func((FuncExpr *)node, ctx);
    case T_OpExpr:
        return fold_oper((OpExpr *)node, ctx);
    case T_BoolExpr:
        return fold_bool((BoolExpr *)node, ctx);
    case T_CaseExpr:
        return fold_case((CaseExpr *)node, ctx);
    case T_CoalesceExpr:
        return fold_coalesce((CoalesceExpr *)node, ctx);
    case T_NullIfExpr:
        return fold_nullif((NullIfExpr *)node, ctx);
    case T_DistinctExpr:
        return fold_children_then_evaluate(node, ctx, distinct_args);
    case T_MinMaxExpr:
        return fold_children_then_evaluate(node, ctx, minmax_args);
    case T_InListExpr:
        return fold_children_then_evaluate(node, ctx, inlist_args);
    case T_ScalarArrayOpExpr:
        return fold_saop((ScalarArrayOpExpr *)node, ctx);
    case T_ArrayExpr:
        return fold_children_then_evaluate(node, ctx, array_elements);
    case T_NullTest:
    case T_BooleanTest:
    case T_CoerceToTypmod:
        return fold_children_then_evaluate(node, ctx, arg_of_test);
    case T_CoerceViaIO:
        return fold_coerce_via_io((CoerceViaIO *)node, ctx);
    case T_RelabelType:
        return fold_relabel((RelabelType *)node, ctx);
    default:
        /* Aggref, SubLink, TargetEntry, lists: fold what is inside */
        return tdb_expr_mutate_children(node, fold_mutator, ctx);
    }
}

/* ----------------------------------------------------------------------
 * Canonical quals: PostgreSQL's canonicalize_qual for WHERE / ON / HAVING
 * ---------------------------------------------------------------------- */

static bool
is_boolop(const void *node, BoolExprType op)
{
    return node != NULL && IsA(node, BoolExpr) &&
           ((const BoolExpr *)node)->boolop == op;
}

/* Flatten the AND (or OR) arguments of args into one list. */
static List *
flatten_boolop(List *args, BoolExprType op)
{
    List *result = NIL;

    tdb_check_stack_depth();

    for (int i = 0; i < list_length(args); i++) {
        Expr *arg = list_nth(args, i);

        if (is_boolop(arg, op))
            result = tdb_list_concat(result,
                                     flatten_boolop(((BoolExpr *)arg)->args,
                                                    op));
        else
            result = tdb_lappend(result, arg);
    }
    return result;
}

static bool
list_member_equal(List *list, const void *node)
{
    for (int i = 0; i < list_length(list); i++)
        if (tdb_expr_equal(list_nth(list, i), node))
            return true;
    return false;
}

/* The AND arguments of e: its own if it is an AND, else just e. */
static List *
and_args(Expr *e)
{
    return is_boolop(e, AND_EXPR) ? ((BoolExpr *)e)->args
                                  : tdb_list_make1(e);
}

static Expr *
make_boolop(BoolExprType op, List *args)
{
    if (list_length(args) == 1)
        return list_nth(args, 0);
    return (Expr *)make_bool_expr(op, flatten_boolop(args, op), -1);
}

/*
 * (A AND B) OR (A AND C) is A AND (B OR C): the conditions every arm of
 * an OR shares are pulled out in front (an arm left with nothing, as in
 * (A AND B) OR A, makes the OR just A).  Saves evaluations, and lets a
 * shared condition be placed on a scan or join on its own.
 */
static Expr *
factor_or(List *arms)
{
    List *reference = NULL;
    List *shared = NIL;
    List *rest = NIL;
    bool degenerate = false;

    if (arms == NIL)
        return (Expr *)tdb_make_bool_const(false, false);
    if (list_length(arms) == 1)
        return list_nth(arms, 0);
    /* the shortest arm bounds what can be shared */
    for (int i = 0; i < list_length(arms); i++) {
        List *args = and_args(list_nth(arms, i));

        if (reference == NULL ||
            list_length(args) < list_length(reference))
            reference = args;
    }
    for (int i = 0; i < list_length(reference); i++) {
        Expr *cond = list_nth(reference, i);
        bool everywhere = !list_member_equal(shared, cond);

        for (int a = 0; a < list_length(arms) && everywhere; a++)
            everywhere = list_member_equal(and_args(list_nth(arms, a)), cond);
        if (everywhere)
            shared = tdb_lappend(shared, cond);
    }
    if (shared == NIL)
        return make_boolop(OR_EXPR, arms);
    for (int a = 0; a < list_length(arms) && !degenerate; a++) {
        List *left = NIL;
        List *args = and_args(list_nth(arms, a));

        for (int i = 0; i < list_length(args); i++)
            if (!list_member_equal(shared, list_nth(args, i)))
                left = tdb_lappend(left, list_nth(args, i));
        if (left == NIL)
            degenerate = true;
        else
            rest = tdb_lappend(rest, make_boolop(AND_EXPR, left));
    }
    if (!degenerate)
        shared = tdb_lappend(shared, make_boolop(OR_EXPR, rest));
    return make_boolop(AND_EXPR, shared);
}

/*
 * In a WHERE clause NULL acts as FALSE: inside an OR, FALSE and NULL
 * constants drop out (TRUE makes it TRUE); inside an AND, TRUE drops
 * out and FALSE or NULL make it FALSE.  ORs are then factored.
 */
static Expr *
canonicalize(Expr *qual)
{
    bool is_or = is_boolop(qual, OR_EXPR);
    List *args = NIL;

    tdb_check_stack_depth();

    if (!is_or && !is_boolop(qual, AND_EXPR))
        return qual;
    for (int i = 0; i < list_length(((BoolExpr *)qual)->args); i++) {
        Expr *arg = canonicalize(list_nth(((BoolExpr *)qual)->args, i));

        if (is_const(arg)) {
            bool truth = !((Const *)arg)->constisnull &&
                         DatumGetBool(((Const *)arg)->constvalue);

            if (truth == is_or) /* TRUE in OR, FALSE/NULL in AND */
                return (Expr *)tdb_make_bool_const(is_or, false);
            continue;
        }
        args = tdb_lappend(args, arg);
    }
    if (is_or)
        return factor_or(flatten_boolop(args, OR_EXPR));
    args = flatten_boolop(args, AND_EXPR);
    if (args == NIL)
        return (Expr *)tdb_make_bool_const(true, false);
    return make_boolop(AND_EXPR, args);
}

Expr *
tdb_canonicalize_qual(Expr *qual)
{
    return qual != NULL ? canonicalize(qual) : NULL;
}

Expr *
tdb_eval_const_expressions(Expr *expr)
{
    FoldContext ctx = {NULL};

    return fold(expr, &ctx);
}
