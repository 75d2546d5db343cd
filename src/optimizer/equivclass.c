/*
 * equivclass.c -- equalities with a constant, spread to every expression
 * known equal (a small part of PostgreSQL's equivalence classes).
 *
 *   SELECT ... FROM a JOIN b ON a.x = b.y WHERE b.y = 5
 *
 * makes a.x, b.y and 5 one class of equal values, so the planner filters
 * both scans (a.x = 5, b.y = 5) and needs no join condition at all: every
 * pair of surviving rows matches.  PostgreSQL plans this query exactly so
 * (and EXPLAIN shows it), and scanning less is the point.
 *
 * The rules, PostgreSQL's for the constant case:
 *   - A class grows from the WHERE / inner-join conditions "l = r" whose
 *     operator is a btree equality (OperDesc.is_equality), with no
 *     volatile call on either side and l different from r; each side is
 *     a member (a side without columns of this query counts as the
 *     constant).  Classes sharing a member merge.
 *   - A class with exactly one distinct constant is replaced by
 *     "member = constant" for each other member, in the order the
 *     members appeared; when the class is just one original condition
 *     (two members, one source), that condition itself is kept, with its
 *     orientation.  Derived conditions come after all other conditions,
 *     where PostgreSQL's scans list them.
 *   - Classes without a constant keep their conditions (join conditions
 *     and same-table equalities, placed by the join planner as before);
 *     so do classes with two different constants (rare: x = 1 AND x = 2)
 *     and classes whose member type has no "=" with the constant's type.
 * Queries with outer joins are left alone: an equality above a nullable
 * side does not make its columns equal below it.
 */
#include "common/base.h"

#include "common/elog.h"
#include "nodes/primnodes.h"
#include "optimizer/planner.h"
#include "types/builtins.h"

typedef struct EquivClass {
    List *members; /* Expr, first appearance first */
    List *sources; /* the OpExprs that made the class */
    bool merged;   /* absorbed into another class */
} EquivClass;

static bool
reads_local_column(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if (IsA(node, Var) && ((Var *)node)->varlevelsup == 0)
        return true;
    return tdb_expr_walk_children(node, reads_local_column, arg);
}

static bool
calls_volatile(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if (IsA(node, FuncExpr) &&
        ((FuncExpr *)node)->func->volatility == PROVOLATILE_VOLATILE)
        return true;
    return tdb_expr_walk_children(node, calls_volatile, arg);
}

static bool
is_null_constant(Expr *e)
{
    return IsA(e, Const) && ((Const *)e)->constisnull;
}

static bool
is_constant_member(Expr *e)
{
    return !reads_local_column((Node *)e, NULL);
}

/* Can cond start or grow a class? */
static bool
is_class_source(Expr *cond)
{
    OpExpr *op;
    Expr *l, *r;

    if (!IsA(cond, OpExpr))
        return false;
    op = (OpExpr *)cond;
    if (!op->op->is_equality || list_length(op->args) != 2)
        return false;
    l = list_nth(op->args, 0);
    r = list_nth(op->args, 1);
    if (is_null_constant(l) || is_null_constant(r))
        return false;
    return !calls_volatile((Node *)cond, NULL) &&
           !tdb_expr_equal((Node *)l, (Node *)r) &&
           !(is_constant_member(l) && is_constant_member(r));
}

static bool
has_member(EquivClass *ec, Expr *e)
{
    for (int i = 0; i < list_length(ec->members); i++)
        if (tdb_expr_equal(list_nth(ec->members, i), (Node *)e))
            return true;
    return false;
}

static EquivClass *
class_of(List *classes, Expr *e)
{
    for (int i = 0; i < list_length(classes); i++) {
        EquivClass *ec = list_nth(classes, i);

        if (!ec->merged && has_member(ec, e))
            return ec;
    }
    return NULL;
}

static void
add_member(EquivClass *ec, Expr *e)
{
    if (!has_member(ec, e))
        ec->members = tdb_lappend(ec->members, e);
}

/* Put the condition l = r into the classes (creating or merging). */
static List *
add_source(List *classes, OpExpr *cond)
{
    Expr *l = list_nth(cond->args, 0);
    Expr *r = list_nth(cond->args, 1);
    EquivClass *lc = class_of(classes, l);
    EquivClass *rc = class_of(classes, r);

    if (lc == NULL && rc == NULL) {
        lc = tdb_palloc0(sizeof(EquivClass));
        classes = tdb_lappend(classes, lc);
    } else if (lc == NULL) {
        lc = rc;
    } else if (rc != NULL && rc != lc) {
        for (int i = 0; i < list_length(rc->members); i++)
            add_member(lc, list_nth(rc->members, i));
        lc->sources = tdb_list_concat(lc->sources, rc->sources);
        rc->merged = true;
    }
    add_member(lc, l);
    add_member(lc, r);
    lc->sources = tdb_lappend(lc->sources, cond);
    return classes;
}

/* The class's one constant, or NULL (none, or two different ones). */
static Expr *
single_constant(EquivClass *ec)
{
    Expr *constant = NULL;

    for (int i = 0; i < list_length(ec->members); i++) {
        Expr *m = list_nth(ec->members, i);

        if (!is_constant_member(m))
            continue;
        if (constant != NULL)
            return NULL;
        constant = m;
    }
    return constant;
}

static OpExpr *
make_equality(const OperDesc *op, Expr *member, Expr *constant)
{
    OpExpr *eq = makeNode(OpExpr);

    eq->xpr.type_oid = op->result;
    eq->xpr.typmod = -1;
    eq->xpr.location = -1;
    eq->op = op;
    eq->args = tdb_list_make2(member, constant);
    return eq;
}

/*
 * The conditions a class with constant c stands for, or NIL if one
 * cannot be built (then the class keeps its own conditions).
 */
static List *
derive_conditions(EquivClass *ec, Expr *c)
{
    List *derived = NIL;

    if (list_length(ec->members) == 2 && list_length(ec->sources) == 1)
        return tdb_list_copy(ec->sources);
    for (int i = 0; i < list_length(ec->members); i++) {
        Expr *m = list_nth(ec->members, i);
        const OperDesc *op;

        if (m == c)
            continue;
        op = tdb_oper_lookup("=", exprType(m), exprType(c));
        if (op == NULL || !op->is_equality)
            return NIL;
        derived = tdb_lappend(derived, make_equality(op, m, c));
    }
    return derived;
}

List *
tdb_derive_constant_equalities(List *conds)
{
    List *classes = NIL;
    List *replaced = NIL; /* sources of classes that derived conditions */
    List *derived = NIL;
    List *result = NIL;

    for (int i = 0; i < list_length(conds); i++)
        if (is_class_source(list_nth(conds, i)))
            classes = add_source(classes, list_nth(conds, i));
    for (int i = 0; i < list_length(classes); i++) {
        EquivClass *ec = list_nth(classes, i);
        Expr *c = ec->merged ? NULL : single_constant(ec);
        List *made = c != NULL ? derive_conditions(ec, c) : NIL;

        if (made == NIL)
            continue;
        replaced = tdb_list_concat(replaced, ec->sources);
        derived = tdb_list_concat(derived, made);
    }
    for (int i = 0; i < list_length(conds); i++)
        if (!tdb_list_member_ptr(replaced, list_nth(conds, i)))
            result = tdb_lappend(result, list_nth(conds, i));
    return tdb_list_concat(result, derived);
}
