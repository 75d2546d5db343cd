/*
 * primnodes.c -- building expression nodes and walking their children
 * (primnodes.h).
 *
 * The walker and mutator know each node's child fields; everything else
 * in the analyzer and planner that traverses expressions goes through
 * them, so a new node type means one new case here.
 */
#include "common/base.h"

#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "common/stack_depth.h"
#include "nodes/plannodes.h"
#include "nodes/primnodes.h"
#include "tuple/varlena.h"

static void
init_expr(Expr *e, Oid type_oid, int32 typmod)
{
    e->type_oid = type_oid;
    e->typmod = typmod;
    e->location = -1;
}

Const *
tdb_make_const(Oid type_oid, int32 typmod, Datum value, bool isnull)
{
    Const *c = makeNode(Const);
    const TypeInfo *type = tdb_type_lookup(type_oid);

    init_expr(&c->xpr, type_oid, typmod);
    c->constlen = type != NULL ? type->len : -1;
    c->constbyval = type != NULL ? type->byval : false;
    c->constisnull = isnull;
    c->constvalue = isnull ? (Datum)0 : value;
    return c;
}

Const *
tdb_make_null_const(Oid type_oid, int32 typmod)
{
    return tdb_make_const(type_oid, typmod, (Datum)0, true);
}

Const *
tdb_make_bool_const(bool value, bool isnull)
{
    return tdb_make_const(BOOLOID, -1, BoolGetDatum(value), isnull);
}

Var *
tdb_make_var(int varno, int varattno, Oid type_oid, int32 typmod,
             int varlevelsup)
{
    Var *v = makeNode(Var);

    init_expr(&v->xpr, type_oid, typmod);
    v->varno = varno;
    v->varattno = varattno;
    v->varlevelsup = varlevelsup;
    return v;
}

TargetEntry *
tdb_make_target_entry(Expr *expr, int resno, const char *name, bool resjunk)
{
    TargetEntry *te = makeNode(TargetEntry);

    init_expr(&te->xpr, exprType(expr), exprTypmod(expr));
    te->expr = expr;
    te->resno = resno;
    te->resname = name;
    te->resjunk = resjunk;
    return te;
}

/* Size of each expression node struct, for shallow copies. */
static Size
node_size(NodeTag tag)
{
    switch (tag) {
    case T_Var:
        return sizeof(Var);
    case T_Const:
        return sizeof(Const);
    case T_Param:
        return sizeof(Param);
    case T_FuncExpr:
        return sizeof(FuncExpr);
    case T_OpExpr:
        return sizeof(OpExpr);
    case T_BoolExpr:
        return sizeof(BoolExpr);
    case T_CaseExpr:
        return sizeof(CaseExpr);
    case T_CaseWhen:
        return sizeof(CaseWhen);
    case T_CaseTestExpr:
        return sizeof(CaseTestExpr);
    case T_NullTest:
        return sizeof(NullTest);
    case T_BooleanTest:
        return sizeof(BooleanTest);
    case T_CoalesceExpr:
        return sizeof(CoalesceExpr);
    case T_NullIfExpr:
        return sizeof(NullIfExpr);
    case T_DistinctExpr:
        return sizeof(DistinctExpr);
    case T_MinMaxExpr:
        return sizeof(MinMaxExpr);
    case T_RowExpr:
        return sizeof(RowExpr);
    case T_RelabelType:
        return sizeof(RelabelType);
    case T_CoerceViaIO:
        return sizeof(CoerceViaIO);
    case T_CoerceToTypmod:
        return sizeof(CoerceToTypmod);
    case T_InListExpr:
        return sizeof(InListExpr);
    case T_ScalarArrayOpExpr:
        return sizeof(ScalarArrayOpExpr);
    case T_ArrayExpr:
        return sizeof(ArrayExpr);
    case T_Aggref:
        return sizeof(Aggref);
    case T_SubLink:
        return sizeof(SubLink);
    case T_SubPlan:
        return sizeof(SubPlan);
    case T_TargetEntry:
        return sizeof(TargetEntry);
    default:
        elog(ERROR, "cannot copy node type %d", (int)tag);
    }
}

Node *
tdb_copy_node_shallow(const Node *node)
{
    Size size = node_size(nodeTag(node));
    Node *copy = tdb_palloc(size);

    memcpy(copy, node, size);
    return copy;
}

/* ----------------------------------------------------------------------
 * Walking
 * ---------------------------------------------------------------------- */

static bool
walk_list(List *list, ExprWalker walker, void *context)
{
    for (int i = 0; i < list_length(list); i++)
        if (walker(list_nth(list, i), context))
            return true;
    return false;
}

#define WALK(field) ((field) != NULL && walker((Node *)(field), context))

bool
tdb_expr_walk_children(Node *node, ExprWalker walker, void *context)
{
    tdb_check_stack_depth();

    if (node == NULL)
        return false;
    switch (nodeTag(node)) {
    case T_Var:
    case T_Const:
    case T_Param:
    case T_CaseTestExpr:
        return false;
    case T_FuncExpr:
        return walk_list(((FuncExpr *)node)->args, walker, context);
    case T_OpExpr:
        return walk_list(((OpExpr *)node)->args, walker, context);
    case T_BoolExpr:
        return walk_list(((BoolExpr *)node)->args, walker, context);
    case T_CaseExpr: {
        CaseExpr *c = (CaseExpr *)node;

        return WALK(c->arg) || walk_list(c->whens, walker, context) ||
               WALK(c->defresult);
    }
    case T_CaseWhen:
        return WALK(((CaseWhen *)node)->expr) ||
               WALK(((CaseWhen *)node)->result);
    case T_NullTest:
        return WALK(((NullTest *)node)->arg);
    case T_BooleanTest:
        return WALK(((BooleanTest *)node)->arg);
    case T_CoalesceExpr:
        return walk_list(((CoalesceExpr *)node)->args, walker, context);
    case T_NullIfExpr:
        return walk_list(((NullIfExpr *)node)->args, walker, context);
    case T_DistinctExpr:
        return walk_list(((DistinctExpr *)node)->args, walker, context);
    case T_MinMaxExpr:
        return walk_list(((MinMaxExpr *)node)->args, walker, context);
    case T_RowExpr:
        return walk_list(((RowExpr *)node)->args, walker, context);
    case T_RelabelType:
        return WALK(((RelabelType *)node)->arg);
    case T_CoerceViaIO:
        return WALK(((CoerceViaIO *)node)->arg);
    case T_CoerceToTypmod:
        return WALK(((CoerceToTypmod *)node)->arg);
    case T_InListExpr:
        return WALK(((InListExpr *)node)->arg) ||
               walk_list(((InListExpr *)node)->items, walker, context);
    case T_ScalarArrayOpExpr:
        return walk_list(((ScalarArrayOpExpr *)node)->args, walker, context);
    case T_ArrayExpr:
        return walk_list(((ArrayExpr *)node)->elements, walker, context);
    case T_Aggref: {
        Aggref *a = (Aggref *)node;

        return walk_list(a->args, walker, context) ||
               walk_list(a->order_exprs, walker, context) || WALK(a->filter);
    }
    case T_SubLink:
        /* the subselect is a separate query: walkers that need it look */
        return WALK(((SubLink *)node)->testexpr);
    case T_SubPlan: {
        SubPlan *sp = (SubPlan *)node;

        return WALK(sp->testexpr) || walk_list(sp->args, walker, context);
    }
    case T_TargetEntry:
        return WALK(((TargetEntry *)node)->expr);
    case T_List:
        return walk_list((List *)node, walker, context);
    default:
        elog(ERROR, "unrecognized expression node type %d",
             (int)nodeTag(node));
    }
}

/* ----------------------------------------------------------------------
 * Mutating
 * ---------------------------------------------------------------------- */

static List *
mutate_list(List *list, ExprMutator mutator, void *context)
{
    List *result = NIL;

    for (int i = 0; i < list_length(list); i++)
        result = tdb_lappend(result, mutator(list_nth(list, i), context));
    return result;
}

#define MUTATE(field)                                                       \
    ((field) != NULL ? (void *)mutator((Node *)(field), context) : NULL)

Node *
tdb_expr_mutate_children(Node *node, ExprMutator mutator, void *context)
{
    Node *copy;

    tdb_check_stack_depth();

    if (node == NULL)
        return NULL;
    if (IsA(node, List))
        return (Node *)mutate_list((List *)node, mutator, context);
    copy = tdb_copy_node_shallow(node);
    switch (nodeTag(node)) {
    case T_Var:
    case T_Const:
    case T_Param:
    case T_CaseTestExpr:
        break;
    case T_FuncExpr:
        ((FuncExpr *)copy)->args =
            mutate_list(((FuncExpr *)node)->args, mutator, context);
        break;
    case T_OpExpr:
        ((OpExpr *)copy)->args =
            mutate_list(((OpExpr *)node)->args, mutator, context);
        break;
    case T_BoolExpr:
        ((BoolExpr *)copy)->args =
            mutate_list(((BoolExpr *)node)->args, mutator, context);
        break;
    case T_CaseExpr: {
        CaseExpr *c = (CaseExpr *)copy;

        c->arg = MUTATE(c->arg);
        c->whens = mutate_list(c->whens, mutator, context);
        c->defresult = MUTATE(c->defresult);
        break;
    }
    case T_CaseWhen:
        ((CaseWhen *)copy)->expr = MUTATE(((CaseWhen *)node)->expr);
        ((CaseWhen *)copy)->result = MUTATE(((CaseWhen *)node)->result);
        break;
    case T_NullTest:
        ((NullTest *)copy)->arg = MUTATE(((NullTest *)node)->arg);
        break;
    case T_BooleanTest:
        ((BooleanTest *)copy)->arg = MUTATE(((BooleanTest *)node)->arg);
        break;
    case T_CoalesceExpr:
        ((CoalesceExpr *)copy)->args =
            mutate_list(((CoalesceExpr *)node)->args, mutator, context);
        break;
    case T_NullIfExpr:
        ((NullIfExpr *)copy)->args =
            mutate_list(((NullIfExpr *)node)->args, mutator, context);
        break;
    case T_DistinctExpr:
        ((DistinctExpr *)copy)->args =
            mutate_list(((DistinctExpr *)node)->args, mutator, context);
        break;
    case T_MinMaxExpr:
        ((MinMaxExpr *)copy)->args =
            mutate_list(((MinMaxExpr *)node)->args, mutator, context);
        break;
    case T_RowExpr:
        ((RowExpr *)copy)->args =
            mutate_list(((RowExpr *)node)->args, mutator, context);
        break;
    case T_RelabelType:
        ((RelabelType *)copy)->arg = MUTATE(((RelabelType *)node)->arg);
        break;
    case T_CoerceViaIO:
        ((CoerceViaIO *)copy)->arg = MUTATE(((CoerceViaIO *)node)->arg);
        break;
    case T_CoerceToTypmod:
        ((CoerceToTypmod *)copy)->arg = MUTATE(((CoerceToTypmod *)node)->arg);
        break;
    case T_InListExpr:
        ((InListExpr *)copy)->arg = MUTATE(((InListExpr *)node)->arg);
        ((InListExpr *)copy)->items =
            mutate_list(((InListExpr *)node)->items, mutator, context);
        break;
    case T_ScalarArrayOpExpr:
        ((ScalarArrayOpExpr *)copy)->args =
            mutate_list(((ScalarArrayOpExpr *)node)->args, mutator, context);
        break;
    case T_ArrayExpr:
        ((ArrayExpr *)copy)->elements =
            mutate_list(((ArrayExpr *)node)->elements, mutator, context);
        break;
    case T_Aggref:
        ((Aggref *)copy)->args =
            mutate_list(((Aggref *)node)->args, mutator, context);
        ((Aggref *)copy)->order_exprs =
            mutate_list(((Aggref *)node)->order_exprs, mutator, context);
        ((Aggref *)copy)->filter = MUTATE(((Aggref *)node)->filter);
        break;
    case T_SubLink:
        ((SubLink *)copy)->testexpr = MUTATE(((SubLink *)node)->testexpr);
        break;
    case T_SubPlan:
        ((SubPlan *)copy)->testexpr = MUTATE(((SubPlan *)node)->testexpr);
        ((SubPlan *)copy)->args =
            mutate_list(((SubPlan *)node)->args, mutator, context);
        break;
    case T_TargetEntry:
        ((TargetEntry *)copy)->expr = MUTATE(((TargetEntry *)node)->expr);
        break;
    default:
        elog(ERROR, "unrecognized expression node type %d",
             (int)nodeTag(node));
    }
    return copy;
}

/* ----------------------------------------------------------------------
 * Equality
 * ---------------------------------------------------------------------- */

static bool
list_equal(const List *a, const List *b)
{
    if (list_length(a) != list_length(b))
        return false;
    for (int i = 0; i < list_length(a); i++)
        if (!tdb_expr_equal(list_nth(a, i), list_nth(b, i)))
            return false;
    return true;
}

static bool
const_equal(const Const *a, const Const *b)
{
    Size len;

    if (a->xpr.type_oid != b->xpr.type_oid ||
        a->constisnull != b->constisnull)
        return false;
    if (a->constisnull)
        return true;
    if (a->constbyval)
        return a->constvalue == b->constvalue;
    len = a->constlen > 0 ? (Size)a->constlen
          : a->constlen == -1
              ? VARSIZE_ANY(DatumGetPointer(a->constvalue))
              : strlen(DatumGetPointer(a->constvalue)) + 1;
    if (a->constlen == -1 &&
        len != VARSIZE_ANY(DatumGetPointer(b->constvalue)))
        return false;
    return memcmp(DatumGetPointer(a->constvalue),
                  DatumGetPointer(b->constvalue), len) == 0;
}

List *
tdb_expr_conjuncts(Expr *e, List *into)
{
    tdb_check_stack_depth();

    if (e == NULL)
        return into;
    if (IsA(e, BoolExpr) && ((BoolExpr *)e)->boolop == AND_EXPR) {
        List *args = ((BoolExpr *)e)->args;

        for (int i = 0; i < list_length(args); i++)
            into = tdb_expr_conjuncts(list_nth(args, i), into);
        return into;
    }
    return tdb_lappend(into, e);
}

bool
tdb_expr_equal(const Node *a, const Node *b)
{
    tdb_check_stack_depth();

    if (a == b)
        return true;
    if (a == NULL || b == NULL || nodeTag(a) != nodeTag(b))
        return false;
    if (nodeTag(a) != T_List && nodeTag(a) != T_TargetEntry &&
        (exprType(a) != exprType(b) || exprTypmod(a) != exprTypmod(b)))
        return false;
    switch (nodeTag(a)) {
    case T_List:
        return list_equal((const List *)a, (const List *)b);
    case T_Var: {
        const Var *va = (const Var *)a, *vb = (const Var *)b;

        return va->varno == vb->varno && va->varattno == vb->varattno &&
               va->varlevelsup == vb->varlevelsup;
    }
    case T_Const:
        return const_equal((const Const *)a, (const Const *)b);
    case T_Param:
        return ((const Param *)a)->paramkind == ((const Param *)b)->paramkind &&
               ((const Param *)a)->paramid == ((const Param *)b)->paramid;
    case T_FuncExpr:
        return ((const FuncExpr *)a)->func->fn ==
                   ((const FuncExpr *)b)->func->fn &&
               ((const FuncExpr *)a)->funcvariadic ==
                   ((const FuncExpr *)b)->funcvariadic &&
               list_equal(((const FuncExpr *)a)->args,
                          ((const FuncExpr *)b)->args);
    case T_OpExpr:
        return ((const OpExpr *)a)->op == ((const OpExpr *)b)->op &&
               list_equal(((const OpExpr *)a)->args, ((const OpExpr *)b)->args);
    case T_BoolExpr:
        return ((const BoolExpr *)a)->boolop == ((const BoolExpr *)b)->boolop &&
               list_equal(((const BoolExpr *)a)->args,
                          ((const BoolExpr *)b)->args);
    case T_NullTest:
        return ((const NullTest *)a)->is_not_null ==
                   ((const NullTest *)b)->is_not_null &&
               tdb_expr_equal((Node *)((const NullTest *)a)->arg,
                              (Node *)((const NullTest *)b)->arg);
    case T_RelabelType:
        return tdb_expr_equal((Node *)((const RelabelType *)a)->arg,
                              (Node *)((const RelabelType *)b)->arg);
    case T_CoerceViaIO:
        return tdb_expr_equal((Node *)((const CoerceViaIO *)a)->arg,
                              (Node *)((const CoerceViaIO *)b)->arg);
    case T_CoerceToTypmod:
        return tdb_expr_equal((Node *)((const CoerceToTypmod *)a)->arg,
                              (Node *)((const CoerceToTypmod *)b)->arg);
    case T_CoalesceExpr:
        return list_equal(((const CoalesceExpr *)a)->args,
                          ((const CoalesceExpr *)b)->args);
    case T_RowExpr:
        return list_equal(((const RowExpr *)a)->args,
                          ((const RowExpr *)b)->args);
    case T_ScalarArrayOpExpr:
        return ((const ScalarArrayOpExpr *)a)->op ==
                   ((const ScalarArrayOpExpr *)b)->op &&
               ((const ScalarArrayOpExpr *)a)->use_or ==
                   ((const ScalarArrayOpExpr *)b)->use_or &&
               list_equal(((const ScalarArrayOpExpr *)a)->args,
                          ((const ScalarArrayOpExpr *)b)->args);
    case T_ArrayExpr:
        return list_equal(((const ArrayExpr *)a)->elements,
                          ((const ArrayExpr *)b)->elements);
    case T_Aggref: {
        const Aggref *x = (const Aggref *)a, *y = (const Aggref *)b;

        if (list_length(x->order_keys) != list_length(y->order_keys))
            return false;
        for (int i = 0; i < list_length(x->order_keys); i++) {
            const SortKey *kx = list_nth(x->order_keys, i);
            const SortKey *ky = list_nth(y->order_keys, i);

            if (kx->descending != ky->descending ||
                kx->nulls_first != ky->nulls_first)
                return false;
        }
        return x->agg == y->agg && x->agglevelsup == y->agglevelsup &&
               x->distinct == y->distinct &&
               x->is_star == y->is_star && list_equal(x->args, y->args) &&
               tdb_expr_equal((Node *)x->filter, (Node *)y->filter) &&
               list_equal(x->order_exprs, y->order_exprs);
    }
    case T_CaseExpr: {
        const CaseExpr *x = (const CaseExpr *)a, *y = (const CaseExpr *)b;

        return tdb_expr_equal((Node *)x->arg, (Node *)y->arg) &&
               list_equal(x->whens, y->whens) &&
               tdb_expr_equal((Node *)x->defresult, (Node *)y->defresult);
    }
    case T_CaseWhen:
        return tdb_expr_equal((Node *)((const CaseWhen *)a)->expr,
                              (Node *)((const CaseWhen *)b)->expr) &&
               tdb_expr_equal((Node *)((const CaseWhen *)a)->result,
                              (Node *)((const CaseWhen *)b)->result);
    case T_CaseTestExpr:
        return true;
    case T_TargetEntry:
        return tdb_expr_equal((Node *)((const TargetEntry *)a)->expr,
                              (Node *)((const TargetEntry *)b)->expr);
    default:
        return false; /* conservative: not known equal */
    }
}
