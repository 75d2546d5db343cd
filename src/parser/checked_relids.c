/*
 * checked_relids.c -- the relations whose privileges a statement needs
 * (analyze.h, tdb_query_checked_relids): PostgreSQL's range-table
 * permission check looks at the statement's whole, final range table,
 * and so does this walk of an analyzed Query:
 *
 *     Query --rtable--> RTE_RELATION           collected, unless it was
 *       |                                      named inside a system
 *       |                                      view's definition
 *       |--rtable--> RTE_SUBQUERY --> Query    (FROM subqueries, views,
 *       |                                      each inlined reference to
 *       |                                      a CTE, set operation
 *       |                                      branches)
 *       |--cte_list--> CommonTableExpr --> Query  (CTEs computed once)
 *       |--expressions--> SubLink --> Query    (target list, WHERE, ON,
 *       |                                      HAVING, LIMIT, RETURNING,
 *       |                                      VALUES, FROM functions)
 *       '--WITH RECURSIVE terms --> Query
 *
 * A CTE that nothing references is in no range table, so its relations
 * are not checked (PostgreSQL drops it the same way).  A system view
 * (system_views.c) reads the stored catalogs for the system, as
 * PostgreSQL's views are checked as their owner, the bootstrap
 * superuser: its relations carry RangeTblEntry.in_system_view and are
 * left out.  A view a user defines is analyzed in the user's place and
 * is not a system view, so the relations it names are checked as the
 * querying user's.
 */
#include "common/base.h"

#include "parser/analyze.h"
#include "parser/query.h"

static void walk_query(const Query *q, List **relids);

/* Expression walker: the queries of the SubLinks under node. */
static bool
sublink_walker(Node *node, void *context)
{
    if (node == NULL)
        return false;
    if (IsA(node, SubLink))
        walk_query((const Query *)((SubLink *)node)->subselect, context);
    return tdb_expr_walk_children(node, sublink_walker, context);
}

static void
walk_expr(void *expr, List **relids)
{
    (void)sublink_walker(expr, relids);
}

/* A FROM item: its JOIN conditions (the RTEs come with the rtable). */
static void
walk_jointree(Node *node, List **relids)
{
    if (node == NULL)
        return;
    if (IsA(node, FromExpr)) {
        FromExpr *f = (FromExpr *)node;

        for (int i = 0; i < list_length(f->fromlist); i++)
            walk_jointree(list_nth(f->fromlist, i), relids);
        walk_expr(f->quals, relids);
    } else if (IsA(node, JoinExpr)) {
        JoinExpr *j = (JoinExpr *)node;

        walk_jointree(j->larg, relids);
        walk_jointree(j->rarg, relids);
        walk_expr(j->quals, relids);
    }
}

static void
walk_query(const Query *q, List **relids)
{
    if (q == NULL)
        return;
    for (int i = 0; i < list_length(q->rtable); i++) {
        const RangeTblEntry *rte = list_nth(q->rtable, i);

        switch (rte->rtekind) {
        case RTE_RELATION:
            if (!rte->in_system_view &&
                !tdb_list_member_int(*relids, (int)rte->relid))
                *relids = tdb_lappend_int(*relids, (int)rte->relid);
            break;
        case RTE_SUBQUERY:
            walk_query(rte->subquery, relids);
            break;
        case RTE_FUNCTION:
            walk_expr(rte->funcexpr, relids);
            break;
        case RTE_VALUES:
            walk_expr(rte->values_lists, relids);
            break;
        case RTE_JOIN:
        case RTE_WORKTABLE:
        case RTE_CTE: /* its query is walked with cte_list */
            break;
        }
    }
    for (int i = 0; i < list_length(q->cte_list); i++)
        walk_query(((CommonTableExpr *)list_nth(q->cte_list, i))->ctequery,
                   relids);
    walk_jointree((Node *)q->jointree, relids);
    walk_expr(q->target_list, relids);
    walk_expr(q->returning, relids);
    walk_expr(q->having, relids);
    walk_expr(q->limit_offset, relids);
    walk_expr(q->limit_count, relids);
    walk_query(q->rec_nonrecursive, relids);
    walk_query(q->rec_recursive, relids);
}

List *
tdb_query_checked_relids(const Query *q)
{
    List *relids = NIL;

    walk_query(q, &relids);
    return relids;
}
