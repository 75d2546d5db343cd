/*
 * sublink.c -- IN and EXISTS subqueries of WHERE become semi and anti
 * joins (PostgreSQL's pull_up_sublinks).
 *
 *   SELECT ... FROM t WHERE t.k IN (SELECT s.k FROM s WHERE s.v > 0)
 *   SELECT ... FROM t WHERE EXISTS (SELECT 1 FROM s WHERE s.k = t.k)
 *
 * run as subplans evaluate the subquery once per row of t (the second
 * one rescans s for every row).  As a semi join, t and s are joined
 * once -- by hashing s on k -- and each row of t comes out at most once,
 * when some row of s matches.  NOT EXISTS is an anti join the same way.
 * NOT IN is left alone: a NULL among the subquery's values makes it
 * unknown rather than true, which an anti join cannot express.
 *
 * Only a condition at the top level of WHERE (an AND-ed term) is
 * pulled up: there "false" and "unknown" both drop the row, which is
 * what "no matching row" means to a join.  The new join goes on top of
 * the FROM clause: JoinExpr(SEMI, <FROM>, <subquery's FROM>).
 *
 * The subquery's tables are merged into the outer query's range table
 * when the subquery is a plain select-from-where over tables and joins
 * (PostgreSQL flattens these too, so EXPLAIN shows the same scans): its
 * Vars are renumbered, its references to the outer query become local
 * Vars, and its WHERE becomes part of the join's condition (the parts
 * that read only the subquery's tables are pushed into its scans by
 * the planner).  For IN, the subquery's output expressions replace the
 * comparison's placeholders.  An IN subquery that is not plain (GROUP
 * BY, DISTINCT, LIMIT, a set operation, ...) stays a subquery, joined
 * as a range-table entry named "ANY_subquery" as in PostgreSQL.
 *
 * Left as subplans, as PostgreSQL leaves them: uncorrelated EXISTS (an
 * initplan computes it once), IN whose subquery reads the outer query,
 * IN whose left side reads nothing of this query, anything with a
 * volatile function in the conditions moved, and -- tupledb's own
 * limits -- EXISTS subqueries that are not plain, and subqueries whose
 * outer references are anywhere but their WHERE clause.
 */
#include "common/base.h"

#include "nodes/primnodes.h"
#include "optimizer/planner.h"
#include "parser/query.h"

/* ----------------------------------------------------------------------
 * What a subquery reads from outside itself
 * ---------------------------------------------------------------------- */

static bool query_reads_outside(Query *q, int depth);

/* Walker: does an expression at nesting depth *arg read a level outside
 * the subquery (varlevelsup > depth)? */
static bool
reads_outside(Node *node, void *arg)
{
    int depth = *(int *)arg;

    if (node == NULL)
        return false;
    if (IsA(node, Var))
        return ((Var *)node)->varlevelsup > depth;
    if (IsA(node, Aggref) && ((Aggref *)node)->agglevelsup > depth)
        return true;
    if (IsA(node, SubLink) &&
        query_reads_outside((Query *)((SubLink *)node)->subselect,
                            depth + 1))
        return true;
    return tdb_expr_walk_children(node, reads_outside, arg);
}

static bool
expr_reads_outside(Node *node, int depth)
{
    return reads_outside(node, &depth);
}

static bool
jointree_reads_outside(Node *node, int depth)
{
    if (node == NULL)
        return false;
    if (IsA(node, FromExpr)) {
        FromExpr *f = (FromExpr *)node;

        if (expr_reads_outside((Node *)f->quals, depth))
            return true;
        for (int i = 0; i < list_length(f->fromlist); i++)
            if (jointree_reads_outside(list_nth(f->fromlist, i), depth))
                return true;
        return false;
    }
    if (IsA(node, JoinExpr)) {
        JoinExpr *j = (JoinExpr *)node;

        return expr_reads_outside((Node *)j->quals, depth) ||
               jointree_reads_outside(j->larg, depth) ||
               jointree_reads_outside(j->rarg, depth);
    }
    return false;
}

static bool
rtable_reads_outside(List *rtable, int depth)
{
    for (int i = 0; i < list_length(rtable); i++) {
        RangeTblEntry *rte = list_nth(rtable, i);

        if ((rte->rtekind == RTE_SUBQUERY &&
             query_reads_outside(rte->subquery, depth + 1)) ||
            (rte->rtekind == RTE_FUNCTION &&
             expr_reads_outside((Node *)rte->funcexpr, depth)) ||
            (rte->rtekind == RTE_VALUES &&
             expr_reads_outside((Node *)rte->values_lists, depth)) ||
            (rte->rtekind == RTE_JOIN &&
             expr_reads_outside((Node *)rte->joinaliasvars, depth)))
            return true;
    }
    return false;
}

/* Does q (depth levels below the subquery being examined) read a query
 * level outside that subquery?  Recursive CTEs count as yes: not worth
 * following. */
static bool
query_reads_outside(Query *q, int depth)
{
    if (q->rec_nonrecursive != NULL)
        return true;
    return expr_reads_outside((Node *)q->target_list, depth) ||
           expr_reads_outside((Node *)q->returning, depth) ||
           expr_reads_outside((Node *)q->having, depth) ||
           expr_reads_outside((Node *)q->limit_offset, depth) ||
           expr_reads_outside((Node *)q->limit_count, depth) ||
           jointree_reads_outside((Node *)q->jointree, depth) ||
           rtable_reads_outside(q->rtable, depth);
}

/* ----------------------------------------------------------------------
 * Flattening a plain subquery into the outer query
 * ---------------------------------------------------------------------- */

/* A select-from-where over tables and joins, nothing else. */
static bool
is_plain_subquery(Query *s)
{
    if (s->command != CMD_SELECT || s->set_operations != NULL ||
        s->cte_list != NIL || s->rec_nonrecursive != NULL || s->has_aggs ||
        s->group_clause != NIL || s->having != NULL ||
        s->distinct_clause != NIL || s->limit_offset != NULL ||
        s->limit_count != NULL || s->has_target_srfs || s->has_sublinks ||
        s->jointree->fromlist == NIL)
        return false;
    for (int i = 0; i < list_length(s->rtable); i++) {
        RTEKind kind = ((RangeTblEntry *)list_nth(s->rtable, i))->rtekind;

        if (kind != RTE_RELATION && kind != RTE_JOIN)
            return false;
    }
    return true;
}

/*
 * Mutator: an expression of the subquery as an expression of the outer
 * query -- its own Vars move by the range-table offset, references to
 * the outer query (and further out) come one level closer.
 */
static Node *
flatten_vars(Node *node, void *arg)
{
    int offset = *(int *)arg;

    if (node == NULL)
        return NULL;
    if (IsA(node, Var)) {
        Var *v = (Var *)tdb_copy_node_shallow(node);

        if (v->varlevelsup == 0)
            v->varno += offset;
        else
            v->varlevelsup--;
        return (Node *)v;
    }
    return tdb_expr_mutate_children(node, flatten_vars, arg);
}

static Expr *
flatten_expr(Expr *e, int offset)
{
    return (Expr *)flatten_vars((Node *)e, &offset);
}

/* The subquery's join tree, renumbered, as one node. */
static Node *
flatten_jointree(Node *node, int offset)
{
    if (IsA(node, RangeTblRef)) {
        RangeTblRef *r = makeNode(RangeTblRef);

        r->rtindex = ((RangeTblRef *)node)->rtindex + offset;
        return (Node *)r;
    }
    if (IsA(node, JoinExpr)) {
        JoinExpr *src = (JoinExpr *)node;
        JoinExpr *j = makeNode(JoinExpr);

        j->jointype = src->jointype;
        j->larg = flatten_jointree(src->larg, offset);
        j->rarg = flatten_jointree(src->rarg, offset);
        j->quals = flatten_expr(src->quals, offset);
        j->rtindex = src->rtindex > 0 ? src->rtindex + offset : 0;
        return (Node *)j;
    }
    elog(ERROR, "unexpected join tree node %d", (int)nodeTag(node));
}

/* Cross-join a FROM list's items into one join tree node. */
static Node *
fromlist_as_node(List *fromlist)
{
    Node *acc = list_nth(fromlist, 0);

    for (int i = 1; i < list_length(fromlist); i++) {
        JoinExpr *j = makeNode(JoinExpr);

        j->jointype = JOIN_INNER;
        j->larg = acc;
        j->rarg = list_nth(fromlist, i);
        acc = (Node *)j;
    }
    return acc;
}

/*
 * Append the plain subquery s's tables to q's range table; returns its
 * join tree renumbered (the semi join's inner side) and sets *where to
 * its WHERE clause as an expression of q.
 */
static Node *
merge_subquery(Query *q, Query *s, Expr **where, int *offset)
{
    List *items = NIL;

    *offset = list_length(q->rtable);
    for (int i = 0; i < list_length(s->rtable); i++) {
        RangeTblEntry *rte = makeNode(RangeTblEntry);

        *rte = *(RangeTblEntry *)list_nth(s->rtable, i);

        rte->in_from_clause = false;
        if (rte->rtekind == RTE_JOIN) {
            List *vars = NIL;

            for (int k = 0; k < list_length(rte->joinaliasvars); k++)
                vars = tdb_lappend(vars,
                                   flatten_expr(list_nth(rte->joinaliasvars,
                                                         k),
                                                *offset));
            rte->joinaliasvars = vars;
        }
        q->rtable = tdb_lappend(q->rtable, rte);
    }
    *where = flatten_expr(s->jointree->quals, *offset);
    for (int i = 0; i < list_length(s->jointree->fromlist); i++)
        items = tdb_lappend(items, flatten_jointree(
                                       list_nth(s->jointree->fromlist, i),
                                       *offset));
    return fromlist_as_node(items);
}

/* ----------------------------------------------------------------------
 * IN (subquery)
 * ---------------------------------------------------------------------- */

/* Mutator: the testexpr's placeholders for the subquery's columns
 * replaced by the expressions in arg (a List, 1-based by paramid). */
static Node *
replace_placeholders(Node *node, void *arg)
{
    if (node == NULL)
        return NULL;
    if (IsA(node, Param) && ((Param *)node)->paramkind == PARAM_SUBLINK)
        return list_nth((List *)arg, ((Param *)node)->paramid - 1);
    return tdb_expr_mutate_children(node, replace_placeholders, arg);
}

/* Does an expression read a Var of this query level? */
static bool
reads_this_level(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if (IsA(node, Var))
        return ((Var *)node)->varlevelsup == 0;
    return tdb_expr_walk_children(node, reads_this_level, arg);
}

/* The subquery of IN as a range-table entry of q: its visible columns.
 * Returns the Vars for them. */
static List *
add_any_subquery(Query *q, Query *s)
{
    RangeTblEntry *rte = makeNode(RangeTblEntry);
    List *vars = NIL;
    int rtindex;

    rte->rtekind = RTE_SUBQUERY;
    rte->subquery = s;
    rte->refname = "ANY_subquery";
    rte->has_alias = true;
    q->rtable = tdb_lappend(q->rtable, rte);
    rtindex = list_length(q->rtable);
    for (int i = 0; i < list_length(s->target_list); i++) {
        TargetEntry *te = list_nth(s->target_list, i);

        if (te->resjunk)
            continue;
        rte->colnames = tdb_lappend(rte->colnames,
                                    (void *)(te->resname != NULL
                                                 ? te->resname
                                                 : "?column?"));
        rte->coltypes = tdb_lappend_int(rte->coltypes, exprType(te->expr));
        rte->coltypmods =
            tdb_lappend_int(rte->coltypmods, exprTypmod(te->expr));
        vars = tdb_lappend(vars, tdb_make_var(rtindex, te->resno,
                                              exprType(te->expr),
                                              exprTypmod(te->expr), 0));
    }
    return vars;
}

/* x IN (subquery) as a semi join of *from with the subquery; false if
 * it must stay a subplan. */
static bool
pull_up_any(Query *q, SubLink *sl, Node **from)
{
    Query *s = (Query *)sl->subselect;
    JoinExpr *j;
    List *columns;
    Expr *where = NULL;

    if (!reads_this_level((Node *)sl->testexpr, NULL) ||
        tdb_contains_volatile((Node *)sl->testexpr) ||
        query_reads_outside(s, 0))
        return false;
    j = makeNode(JoinExpr);
    j->jointype = JOIN_SEMI;
    j->larg = *from;
    if (is_plain_subquery(s) &&
        !tdb_contains_volatile((Node *)s->jointree->quals) &&
        !tdb_contains_volatile((Node *)s->target_list)) {
        int offset;

        j->rarg = merge_subquery(q, s, &where, &offset);
        columns = NIL;
        for (int i = 0; i < list_length(s->target_list); i++) {
            TargetEntry *te = list_nth(s->target_list, i);

            if (!te->resjunk)
                columns = tdb_lappend(columns, flatten_expr(te->expr, offset));
        }
    } else {
        RangeTblRef *r = makeNode(RangeTblRef);

        columns = add_any_subquery(q, s);
        r->rtindex = list_length(q->rtable);
        j->rarg = (Node *)r;
    }
    j->quals = (Expr *)replace_placeholders((Node *)sl->testexpr, columns);
    if (where != NULL)
        j->quals = tdb_and_of(tdb_list_make2(j->quals, where));
    *from = (Node *)j;
    return true;
}

/* ----------------------------------------------------------------------
 * EXISTS (subquery), NOT EXISTS (subquery)
 * ---------------------------------------------------------------------- */

/* [NOT] EXISTS (correlated plain subquery) as a semi (anti) join of
 * *from with the subquery's tables; false if it must stay a subplan. */
static bool
pull_up_exists(Query *q, SubLink *sl, bool negated, Node **from)
{
    Query *s = (Query *)sl->subselect;
    JoinExpr *j;
    Expr *where;
    int offset;

    if (!is_plain_subquery(s) || s->jointree->quals == NULL ||
        !expr_reads_outside((Node *)s->jointree->quals, 0) ||
        tdb_contains_volatile((Node *)s->jointree->quals))
        return false;
    /* outer references only in WHERE: the target list is dropped, the
     * FROM clause must stand on its own */
    if (jointree_reads_outside((Node *)fromlist_as_node(
                                   s->jointree->fromlist),
                               0) ||
        rtable_reads_outside(s->rtable, 0))
        return false;
    j = makeNode(JoinExpr);
    j->jointype = negated ? JOIN_ANTI : JOIN_SEMI;
    j->larg = *from;
    j->rarg = merge_subquery(q, s, &where, &offset);
    j->quals = where;
    *from = (Node *)j;
    return true;
}

/* ----------------------------------------------------------------------
 * Entry point
 * ---------------------------------------------------------------------- */

/* One WHERE term: pulled up into *from (true) or left alone. */
static bool
pull_up_term(Query *q, Expr *term, Node **from)
{
    bool negated = false;
    SubLink *sl;

    if (IsA(term, BoolExpr) && ((BoolExpr *)term)->boolop == NOT_EXPR) {
        term = linitial(((BoolExpr *)term)->args);
        negated = true;
    }
    if (!IsA(term, SubLink))
        return false;
    sl = (SubLink *)term;
    if (sl->sublink_type == EXISTS_SUBLINK)
        return pull_up_exists(q, sl, negated, from);
    if (sl->sublink_type == ANY_SUBLINK && !negated)
        return pull_up_any(q, sl, from);
    return false;
}

void
tdb_pull_up_sublinks(Query *q)
{
    FromExpr *f = q->jointree;
    List *terms, *kept = NIL;
    Node *from;
    bool changed = false;

    if (q->command != CMD_SELECT || f == NULL || f->fromlist == NIL ||
        f->quals == NULL || !q->has_sublinks)
        return;
    if (IsA(f->quals, BoolExpr) &&
        ((BoolExpr *)f->quals)->boolop == AND_EXPR)
        terms = ((BoolExpr *)f->quals)->args;
    else
        terms = tdb_lappend(NIL, f->quals);
    from = fromlist_as_node(f->fromlist);
    for (int i = 0; i < list_length(terms); i++) {
        Expr *term = list_nth(terms, i);

        if (pull_up_term(q, term, &from))
            changed = true;
        else
            kept = tdb_lappend(kept, term);
    }
    if (!changed)
        return;
    f->fromlist = tdb_lappend(NIL, from);
    f->quals = tdb_and_of(kept);
}
