/*
 * outerjoin.c -- outer joins that a WHERE clause makes inner (or anti),
 * PostgreSQL's reduce_outer_joins.
 *
 *   a LEFT JOIN b ON a.k = b.k WHERE b.v = 'x'
 *
 * cannot return a row with b's columns NULL (b.v = 'x' would be NULL),
 * so it is an inner join, which the planner may reorder and whose
 * conditions it may push into b's scan.  The rules:
 *
 *   - A condition is strict for a table when it cannot be true if that
 *     table's columns are NULL: a strict operator or function of such a
 *     column, AND of conditions (any one suffices), OR of conditions
 *     (every arm must be), IS NOT NULL / IS TRUE / IS FALSE / IS NOT
 *     UNKNOWN at the top of the condition.
 *   - Walking down the join tree with the tables the conditions above
 *     are strict for: a LEFT join whose right side is among them becomes
 *     INNER (RIGHT: its left side); a FULL join becomes LEFT, RIGHT or
 *     INNER depending on which sides are.  An inner join's own
 *     conditions count for both sides below it; a LEFT join's own
 *     conditions count only for its right side, and only they do.
 *   - A LEFT join whose own conditions are strict for a right-side
 *     column that the WHERE clause requires to be NULL ("b.k IS NULL")
 *     returns exactly the left rows without a match: an anti join.  The
 *     IS NULL test is then always true and is dropped, as PostgreSQL
 *     drops it.
 */
#include "common/base.h"

#include "common/stack_depth.h"
#include "nodes/primnodes.h"
#include "optimizer/planner.h"
#include "parser/query.h"
#include "types/builtins.h"

/* ----------------------------------------------------------------------
 * Strictness
 * ---------------------------------------------------------------------- */

static List *nonnullable(Node *node, bool top_level, bool want_vars);

static List *
union_into(List *a, List *b, bool want_vars)
{
    for (int i = 0; i < list_length(b); i++) {
        void *item = list_nth(b, i);
        bool present = false;

        for (int j = 0; j < list_length(a) && !present; j++)
            present = want_vars ? tdb_expr_equal(list_nth(a, j), item)
                                : list_nth_int(a, j) == list_nth_int(b, i);
        if (!present)
            a = want_vars ? tdb_lappend(a, item)
                          : tdb_lappend_int(a, list_nth_int(b, i));
    }
    return a;
}

static List *
intersection(List *a, List *b, bool want_vars)
{
    List *result = NIL;

    for (int i = 0; i < list_length(a); i++)
        for (int j = 0; j < list_length(b); j++)
            if (want_vars ? tdb_expr_equal(list_nth(a, i), list_nth(b, j))
                          : list_nth_int(a, i) == list_nth_int(b, j)) {
                result = want_vars ? tdb_lappend(result, list_nth(a, i))
                                   : tdb_lappend_int(result,
                                                     list_nth_int(a, i));
                break;
            }
    return result;
}

static List *
nonnullable_args(List *args, bool want_vars)
{
    List *result = NIL;

    for (int i = 0; i < list_length(args); i++)
        result = union_into(result, nonnullable(list_nth(args, i), false,
                                                want_vars),
                            want_vars);
    return result;
}

/*
 * AND at the top: any one conjunct suffices (union).  Below the top an
 * AND with one NULL arm may still be FALSE, so, like OR, every arm must
 * be strict (intersection).  NOT x is NULL exactly when x is.
 */
static List *
nonnullable_bool(BoolExpr *b, bool top_level, bool want_vars)
{
    List *result = NIL;

    if (b->boolop == NOT_EXPR)
        return nonnullable(list_nth(b->args, 0), false, want_vars);
    for (int i = 0; i < list_length(b->args); i++) {
        List *arm = nonnullable(list_nth(b->args, i), top_level, want_vars);

        if (b->boolop == AND_EXPR && top_level)
            result = union_into(result, arm, want_vars);
        else
            result = i == 0 ? arm : intersection(result, arm, want_vars);
    }
    return result;
}

/*
 * The tables (want_vars false: rtindexes) or the columns (true: Vars)
 * that must be non-NULL for node to be true (top_level: a condition,
 * where FALSE and NULL both reject) or to be non-NULL (below the top).
 */
static List *
nonnullable(Node *node, bool top_level, bool want_vars)
{
    tdb_check_stack_depth();

    if (node == NULL)
        return NIL;
    switch (nodeTag(node)) {
    case T_Var: {
        Var *v = (Var *)node;

        if (v->varlevelsup != 0)
            return NIL;
        return want_vars ? tdb_list_make1(v) : tdb_lappend_int(NIL, v->varno);
    }
    case T_OpExpr:
        return ((OpExpr *)node)->op->strict
                   ? nonnullable_args(((OpExpr *)node)->args, want_vars)
                   : NIL;
    case T_FuncExpr:
        return ((FuncExpr *)node)->func->strict &&
                       !((FuncExpr *)node)->func->retset
                   ? nonnullable_args(((FuncExpr *)node)->args, want_vars)
                   : NIL;
    case T_InListExpr:
        return ((InListExpr *)node)->op->strict
                   ? nonnullable(((Node *)((InListExpr *)node)->arg), false,
                                 want_vars)
                   : NIL;
    case T_ScalarArrayOpExpr:
        return ((ScalarArrayOpExpr *)node)->op->strict
                   ? nonnullable(linitial(((ScalarArrayOpExpr *)node)->args),
                                 false, want_vars)
                   : NIL;
    case T_BoolExpr:
        return nonnullable_bool((BoolExpr *)node, top_level, want_vars);
    case T_RelabelType:
        return nonnullable((Node *)((RelabelType *)node)->arg, top_level,
                           want_vars);
    case T_CoerceViaIO:
    case T_CoerceToTypmod:
        return nonnullable((Node *)(IsA(node, CoerceViaIO)
                                        ? ((CoerceViaIO *)node)->arg
                                        : ((CoerceToTypmod *)node)->arg),
                           false, want_vars);
    case T_NullTest:
        return top_level && ((NullTest *)node)->is_not_null
                   ? nonnullable((Node *)((NullTest *)node)->arg, false,
                                 want_vars)
                   : NIL;
    case T_BooleanTest: {
        BoolTestType t = ((BooleanTest *)node)->booltesttype;

        return top_level && (t == IS_TRUE || t == IS_FALSE ||
                             t == IS_NOT_UNKNOWN)
                   ? nonnullable((Node *)((BooleanTest *)node)->arg, false,
                                 want_vars)
                   : NIL;
    }
    default:
        return NIL;
    }
}

/* ----------------------------------------------------------------------
 * The join tree walk
 * ---------------------------------------------------------------------- */

typedef struct ReduceState {
    List *dropped_null_tests; /* WHERE's "col IS NULL" made redundant */
} ReduceState;

static bool
overlaps(List *relids, List *others)
{
    for (int i = 0; i < list_length(relids); i++)
        if (tdb_list_member_int(others, list_nth_int(relids, i)))
            return true;
    return false;
}

static void
collect_relids(Node *node, List **relids)
{
    tdb_check_stack_depth();

    if (IsA(node, RangeTblRef)) {
        *relids = tdb_lappend_int(*relids, ((RangeTblRef *)node)->rtindex);
    } else if (IsA(node, JoinExpr)) {
        collect_relids(((JoinExpr *)node)->larg, relids);
        collect_relids(((JoinExpr *)node)->rarg, relids);
    } else if (IsA(node, FromExpr)) {
        List *items = ((FromExpr *)node)->fromlist;

        for (int i = 0; i < list_length(items); i++)
            collect_relids(list_nth(items, i), relids);
    }
}

static List *
relids_of(Node *node)
{
    List *relids = NIL;

    collect_relids(node, &relids);
    return relids;
}

/* The WHERE conjuncts "col IS NULL" (the columns PostgreSQL calls
 * forced null). */
static List *
forced_null_tests(Expr *quals)
{
    List *tests = NIL;
    List *conds = NIL;

    if (quals == NULL)
        return NIL;
    if (IsA(quals, BoolExpr) && ((BoolExpr *)quals)->boolop == AND_EXPR)
        conds = ((BoolExpr *)quals)->args;
    else
        conds = tdb_list_make1(quals);
    for (int i = 0; i < list_length(conds); i++) {
        NullTest *nt = list_nth(conds, i);

        if (IsA(nt, NullTest) && !nt->is_not_null && IsA(nt->arg, Var) &&
            ((Var *)nt->arg)->varlevelsup == 0)
            tests = tdb_lappend(tests, nt);
    }
    return tests;
}

/*
 * A LEFT join is an anti join if its own conditions are strict for a
 * right-side column the WHERE clause tests IS NULL; those tests are
 * recorded for removal.
 */
static bool
becomes_anti(JoinExpr *j, List *right_relids, List *null_tests,
             ReduceState *rs)
{
    List *strict_vars = nonnullable((Node *)j->quals, true, true);
    bool anti = false;

    for (int i = 0; i < list_length(null_tests); i++) {
        NullTest *nt = list_nth(null_tests, i);
        Var *v = (Var *)nt->arg;

        if (!tdb_list_member_int(right_relids, v->varno))
            continue;
        for (int k = 0; k < list_length(strict_vars); k++)
            if (tdb_expr_equal(list_nth(strict_vars, k), (Node *)v)) {
                rs->dropped_null_tests =
                    tdb_lappend(rs->dropped_null_tests, nt);
                anti = true;
                break;
            }
    }
    return anti;
}

static void reduce(Node *node, List *strict_rels, List *null_tests,
                   ReduceState *rs);

static void
reduce_join(JoinExpr *j, List *strict_rels, List *null_tests,
            ReduceState *rs)
{
    List *left = relids_of(j->larg);
    List *right = relids_of(j->rarg);
    List *own = nonnullable((Node *)j->quals, true, false);
    JoinType jt = j->jointype;

    if (jt == JOIN_LEFT && overlaps(right, strict_rels))
        jt = JOIN_INNER;
    else if (jt == JOIN_RIGHT && overlaps(left, strict_rels))
        jt = JOIN_INNER;
    else if (jt == JOIN_FULL) {
        bool l = overlaps(left, strict_rels), r = overlaps(right, strict_rels);

        jt = l && r ? JOIN_INNER : l ? JOIN_LEFT : r ? JOIN_RIGHT : JOIN_FULL;
    }
    if (jt == JOIN_LEFT && becomes_anti(j, right, null_tests, rs))
        jt = JOIN_ANTI;
    j->jointype = jt;
    switch (jt) {
    case JOIN_INNER:
        own = union_into(own, strict_rels, false);
        reduce(j->larg, own, null_tests, rs);
        reduce(j->rarg, own, null_tests, rs);
        break;
    case JOIN_SEMI:
        /* a left row survives only if the join's conditions are true */
        reduce(j->larg, union_into(tdb_list_copy(own), strict_rels, false),
               null_tests, rs);
        reduce(j->rarg, own, NIL, rs);
        break;
    case JOIN_LEFT:
    case JOIN_ANTI:
        reduce(j->larg, strict_rels, null_tests, rs);
        reduce(j->rarg, own, NIL, rs);
        break;
    case JOIN_RIGHT:
        reduce(j->larg, own, NIL, rs);
        reduce(j->rarg, strict_rels, null_tests, rs);
        break;
    default: /* FULL: nothing is known about either side */
        reduce(j->larg, NIL, NIL, rs);
        reduce(j->rarg, NIL, NIL, rs);
        break;
    }
}

static void
reduce(Node *node, List *strict_rels, List *null_tests, ReduceState *rs)
{
    tdb_check_stack_depth();

    if (IsA(node, JoinExpr))
        reduce_join((JoinExpr *)node, strict_rels, null_tests, rs);
    else if (IsA(node, FromExpr)) {
        FromExpr *f = (FromExpr *)node;
        List *rels = union_into(nonnullable((Node *)f->quals, true, false),
                                strict_rels, false);
        List *tests = tdb_list_concat(forced_null_tests(f->quals),
                                      tdb_list_copy(null_tests));

        for (int i = 0; i < list_length(f->fromlist); i++)
            reduce(list_nth(f->fromlist, i), rels, tests, rs);
    }
}

/* WHERE without the IS NULL tests an anti join made redundant. */
static Expr *
drop_tests(Expr *quals, List *dropped)
{
    List *kept = NIL;
    BoolExpr *b;

    if (dropped == NIL || quals == NULL)
        return quals;
    if (!(IsA(quals, BoolExpr) && ((BoolExpr *)quals)->boolop == AND_EXPR))
        return tdb_list_member_ptr(dropped, quals) ? NULL : quals;
    b = (BoolExpr *)quals;
    for (int i = 0; i < list_length(b->args); i++)
        if (!tdb_list_member_ptr(dropped, list_nth(b->args, i)))
            kept = tdb_lappend(kept, list_nth(b->args, i));
    if (kept == NIL)
        return NULL;
    if (list_length(kept) == 1)
        return list_nth(kept, 0);
    b = (BoolExpr *)tdb_copy_node_shallow((Node *)b);
    b->args = kept;
    return &b->xpr;
}

void
tdb_reduce_outer_joins(Query *q)
{
    ReduceState rs = {NIL};

    reduce((Node *)q->jointree, NIL, NIL, &rs);
    q->jointree->quals = drop_tests(q->jointree->quals, rs.dropped_null_tests);
}
