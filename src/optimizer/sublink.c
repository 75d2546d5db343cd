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

#include "common/stack_depth.h"
#include "nodes/primnodes.h"
#include "optimizer/planner.h"
#include "parser/query.h"

/* ----------------------------------------------------------------------
 * What a subquery reads from outside itself
 * ---------------------------------------------------------------------- */

/*
 * The walks below visit every expression of a subquery and of the
 * queries nested in it, depth counting the levels below the subquery
 * (a sublink's query is one level down; a FROM subquery counts levels as
 * its query does, since tupledb analyzes it with that query's parent as
 * its own: no LATERAL), and ask of each column and aggregate read from
 * outside the subquery whether it is one the caller cannot accept.
 */
typedef struct OutsideWalk OutsideWalk;
struct OutsideWalk {
    int depth;
    /* a Var (varno > 0) or Aggref (varno 0) levelsup levels up from
     * where it is written: does it count? */
    bool (*counts)(const OutsideWalk *w, int levelsup, int varno);
    int lo, hi; /* for reads_rels_outside: the range-table indexes of the
                 * outer query that may be read */
};

static bool query_reads(Query *q, OutsideWalk *w);

static bool
reads_walker(Node *node, void *arg)
{
    OutsideWalk *w = arg;

    if (node == NULL)
        return false;
    if (IsA(node, Var))
        return w->counts(w, ((Var *)node)->varlevelsup, ((Var *)node)->varno);
    if (IsA(node, Aggref) && w->counts(w, ((Aggref *)node)->agglevelsup, 0))
        return true;
    if (IsA(node, SubLink)) {
        bool found;

        w->depth++;
        found = query_reads((Query *)((SubLink *)node)->subselect, w);
        w->depth--;
        if (found)
            return true;
    }
    return tdb_expr_walk_children(node, reads_walker, arg);
}

static bool
expr_reads(Node *node, OutsideWalk *w)
{
    return reads_walker(node, w);
}

static bool
jointree_reads(Node *node, OutsideWalk *w)
{
    tdb_check_stack_depth();

    if (node == NULL)
        return false;
    if (IsA(node, FromExpr)) {
        FromExpr *f = (FromExpr *)node;

        if (expr_reads((Node *)f->quals, w))
            return true;
        for (int i = 0; i < list_length(f->fromlist); i++)
            if (jointree_reads(list_nth(f->fromlist, i), w))
                return true;
        return false;
    }
    if (IsA(node, JoinExpr)) {
        JoinExpr *j = (JoinExpr *)node;

        return expr_reads((Node *)j->quals, w) || jointree_reads(j->larg, w) ||
               jointree_reads(j->rarg, w);
    }
    return false;
}

static bool
rtable_reads(List *rtable, OutsideWalk *w)
{
    for (int i = 0; i < list_length(rtable); i++) {
        RangeTblEntry *rte = list_nth(rtable, i);

        if ((rte->rtekind == RTE_SUBQUERY && query_reads(rte->subquery, w)) ||
            (rte->rtekind == RTE_FUNCTION &&
             expr_reads((Node *)rte->funcexpr, w)) ||
            (rte->rtekind == RTE_VALUES &&
             expr_reads((Node *)rte->values_lists, w)) ||
            (rte->rtekind == RTE_JOIN &&
             expr_reads((Node *)rte->joinaliasvars, w)))
            return true;
    }
    return false;
}

/* Does q (w->depth levels below the subquery being examined) read
 * something w counts?  Recursive CTEs count as yes: not worth
 * following. */
static bool
query_reads(Query *q, OutsideWalk *w)
{
    tdb_check_stack_depth();

    if (q->rec_nonrecursive != NULL)
        return true;
    return expr_reads((Node *)q->target_list, w) ||
           expr_reads((Node *)q->returning, w) ||
           expr_reads((Node *)q->having, w) ||
           expr_reads((Node *)q->limit_offset, w) ||
           expr_reads((Node *)q->limit_count, w) ||
           jointree_reads((Node *)q->jointree, w) ||
           rtable_reads(q->rtable, w);
}

/* Anything from a level outside the subquery. */
static bool
counts_any_outside(const OutsideWalk *w, int levelsup, int varno)
{
    (void)varno;
    return levelsup > w->depth;
}

static OutsideWalk
outside_walk(void)
{
    return (OutsideWalk){0, counts_any_outside, 0, 0};
}

static bool
query_reads_outside(Query *q)
{
    OutsideWalk w = outside_walk();

    return query_reads(q, &w);
}

/* A table of the query just outside the subquery other than its
 * range-table entries lo..hi, or one of its aggregates (levels further
 * out do not count). */
static bool
counts_rels_outside(const OutsideWalk *w, int levelsup, int varno)
{
    return levelsup == w->depth + 1 &&
           (varno == 0 || varno < w->lo || varno > w->hi);
}

/* Does sublink sl of query q read q's tables other than lo..hi? */
static bool
reads_rels_outside(SubLink *sl, int lo, int hi)
{
    OutsideWalk w = {0, counts_rels_outside, lo, hi};

    return query_reads((Query *)sl->subselect, &w);
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
        s->limit_count != NULL || s->has_target_srfs ||
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
 * Flattening moves the subquery's tables into the outer query: an
 * expression of the subquery, or of a query nested in it `depth` levels
 * down (a sublink's), as it reads once moved -- the subquery's own Vars
 * (varlevelsup == depth) move by the range-table offset, references
 * further out (and aggregates of those levels) come one level closer.
 * Everything changed is a copy: the Query being planned may be planned
 * again (a prepared statement's).
 */
typedef struct Flatten {
    int depth;
    int offset;
} Flatten;

static Query *flatten_query(Query *sq, int depth, int offset);

static Node *
flatten_vars(Node *node, void *arg)
{
    Flatten *fl = arg;

    if (node == NULL)
        return NULL;
    if (IsA(node, Var)) {
        Var *v = (Var *)tdb_copy_node_shallow(node);

        if (v->varlevelsup == fl->depth)
            v->varno += fl->offset;
        else if (v->varlevelsup > fl->depth)
            v->varlevelsup--;
        return (Node *)v;
    }
    if (IsA(node, SubLink)) {
        SubLink *sl = (SubLink *)tdb_expr_mutate_children(node, flatten_vars,
                                                          arg);

        sl->subselect = (Node *)flatten_query((Query *)sl->subselect,
                                              fl->depth + 1, fl->offset);
        return (Node *)sl;
    }
    node = tdb_expr_mutate_children(node, flatten_vars, arg);
    if (IsA(node, Aggref) && ((Aggref *)node)->agglevelsup > fl->depth)
        ((Aggref *)node)->agglevelsup--; /* a copy: the mutator made it */
    return node;
}

static Expr *
flatten_expr_at(Expr *e, int depth, int offset)
{
    Flatten fl = {depth, offset};

    return (Expr *)flatten_vars((Node *)e, &fl);
}

static Expr *
flatten_expr(Expr *e, int offset)
{
    return flatten_expr_at(e, 0, offset);
}

/* A join tree of a nested query, its conditions flattened. */
static Node *
flatten_nested_jointree(Node *node, int depth, int offset)
{
    if (node == NULL || IsA(node, RangeTblRef))
        return node;
    if (IsA(node, FromExpr)) {
        FromExpr *f = makeNode(FromExpr);
        List *items = NIL;

        *f = *(FromExpr *)node;
        for (int i = 0; i < list_length(f->fromlist); i++)
            items = tdb_lappend(items, flatten_nested_jointree(
                                           list_nth(f->fromlist, i), depth,
                                           offset));
        f->fromlist = items;
        f->quals = flatten_expr_at(f->quals, depth, offset);
        return (Node *)f;
    }
    if (IsA(node, JoinExpr)) {
        JoinExpr *j = makeNode(JoinExpr);

        *j = *(JoinExpr *)node;
        j->larg = flatten_nested_jointree(j->larg, depth, offset);
        j->rarg = flatten_nested_jointree(j->rarg, depth, offset);
        j->quals = flatten_expr_at(j->quals, depth, offset);
        return (Node *)j;
    }
    elog(ERROR, "unexpected join tree node %d", (int)nodeTag(node));
}

/*
 * A query nested depth levels down in the subquery being flattened, as
 * a copy reading the moved tables.  Its FROM subqueries count levels as
 * it does (tupledb analyzes them with its parent as theirs: no LATERAL),
 * so they stay at depth.
 */
static Query *
flatten_query(Query *sq, int depth, int offset)
{
    Query *q;
    List *rtable = NIL;

    if (sq == NULL)
        return NULL;
    q = tdb_palloc(sizeof(Query));
    *q = *sq;
    q->target_list = (List *)flatten_expr_at((Expr *)sq->target_list, depth,
                                             offset);
    q->returning =
        (List *)flatten_expr_at((Expr *)sq->returning, depth, offset);
    q->having = flatten_expr_at(sq->having, depth, offset);
    q->limit_offset = flatten_expr_at(sq->limit_offset, depth, offset);
    q->limit_count = flatten_expr_at(sq->limit_count, depth, offset);
    q->jointree = (FromExpr *)flatten_nested_jointree((Node *)sq->jointree,
                                                      depth, offset);
    for (int i = 0; i < list_length(sq->rtable); i++) {
        RangeTblEntry *rte = makeNode(RangeTblEntry);

        *rte = *(RangeTblEntry *)list_nth(sq->rtable, i);
        rte->subquery = flatten_query(rte->subquery, depth, offset);
        rte->funcexpr = flatten_expr_at(rte->funcexpr, depth, offset);
        rte->values_lists =
            (List *)flatten_expr_at((Expr *)rte->values_lists, depth, offset);
        rte->joinaliasvars = (List *)flatten_expr_at(
            (Expr *)rte->joinaliasvars, depth, offset);
        rtable = tdb_lappend(rtable, rte);
    }
    q->rtable = rtable;
    q->rec_nonrecursive = flatten_query(sq->rec_nonrecursive, depth, offset);
    q->rec_recursive = flatten_query(sq->rec_recursive, depth, offset);
    return q;
}

/* The subquery's join tree, renumbered, as one node. */
static Node *
flatten_jointree(Node *node, int offset)
{
    tdb_check_stack_depth();

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
 * Sublinks nested in a pulled-up subquery
 * ---------------------------------------------------------------------- */

static bool pull_up_term(Query *q, Expr *term, Node **from);

/* The sublink of a WHERE term `sublink` or `NOT sublink`, or NULL. */
static SubLink *
term_sublink(Expr *term)
{
    if (IsA(term, BoolExpr) && ((BoolExpr *)term)->boolop == NOT_EXPR)
        term = linitial(((BoolExpr *)term)->args);
    return IsA(term, SubLink) ? (SubLink *)term : NULL;
}

/*
 * j is a semi or anti join just made from a subquery whose tables are
 * q's range-table entries lo..hi (j's inner side), and its condition is
 * the subquery's WHERE: the EXISTS / NOT EXISTS / IN sublinks nested
 * there come with it.  Those that read no table of q but the inner
 * side's only filter that side, so they become semi / anti joins of it
 * in turn (and theirs of them): a nesting of EXISTS and NOT EXISTS is
 * joins at every level, as PostgreSQL plans it, instead of a subplan
 * run per row that runs a subplan per row.
 */
static void
pull_up_inner_sublinks(Query *q, JoinExpr *j, int lo, int hi)
{
    List *terms, *kept = NIL;
    bool changed = false;

    if (j->quals == NULL)
        return;
    if (IsA(j->quals, BoolExpr) && ((BoolExpr *)j->quals)->boolop == AND_EXPR)
        terms = ((BoolExpr *)j->quals)->args;
    else
        terms = tdb_lappend(NIL, j->quals);
    for (int i = 0; i < list_length(terms); i++) {
        Expr *term = list_nth(terms, i);
        SubLink *sl = term_sublink(term);

        if (sl != NULL && !reads_rels_outside(sl, lo, hi) &&
            pull_up_term(q, term, &j->rarg))
            changed = true;
        else
            kept = tdb_lappend(kept, term);
    }
    if (changed)
        j->quals = tdb_and_of(kept);
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
        query_reads_outside(s))
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
    if (where != NULL) {
        int offset = list_length(q->rtable) - list_length(s->rtable);

        j->quals = tdb_and_of(tdb_list_make2(j->quals, where));
        pull_up_inner_sublinks(q, j, offset + 1, offset + list_length(s->rtable));
    }
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
    OutsideWalk w = outside_walk();
    JoinExpr *j;
    Expr *where;
    int offset;

    if (!is_plain_subquery(s) || s->jointree->quals == NULL ||
        !expr_reads((Node *)s->jointree->quals, &w) ||
        tdb_contains_volatile((Node *)s->jointree->quals))
        return false;
    /* outer references only in WHERE: the target list is dropped, the
     * FROM clause must stand on its own */
    if (jointree_reads((Node *)fromlist_as_node(s->jointree->fromlist), &w) ||
        rtable_reads(s->rtable, &w))
        return false;
    j = makeNode(JoinExpr);
    j->jointype = negated ? JOIN_ANTI : JOIN_SEMI;
    j->larg = *from;
    j->rarg = merge_subquery(q, s, &where, &offset);
    j->quals = where;
    pull_up_inner_sublinks(q, j, offset + 1, offset + list_length(s->rtable));
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
    SubLink *sl = term_sublink(term);
    bool negated = sl != NULL && (Expr *)sl != term;

    if (sl == NULL)
        return false;
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
