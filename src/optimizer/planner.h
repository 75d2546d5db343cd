/*
 * planner.h -- Query trees to executable plans.
 *
 * The planner's rules (simple and documented, not a cost search yet):
 *   - every base relation is scanned once; WHERE/ON conditions that
 *     mention only one relation are evaluated in its scan, conditions
 *     over several at the lowest join that has them all (never below
 *     the nullable side of an outer join);
 *   - inner-joined FROM items are joined greedily: the smallest first,
 *     then each time the smallest item connected to the joined set by a
 *     condition (a cross join only when none is); outer joins keep their
 *     written order; a join with at least one equality between the two
 *     sides is a hash join (the smaller estimated side of an inner join
 *     is hashed), otherwise a nested loop;
 *   - with enable_hashjoin off (and enable_mergejoin on), a join with an
 *     equality between the sides whose types sort (a merge clause: the
 *     same type with a comparison, or a cross-type "=" with a "<" of
 *     the same types: int4 = int8, date = timestamp, name = text) is a
 *     merge join, as PostgreSQL's costs choose for tables without
 *     indexes; so is a FULL join whose conditions sort but do not hash
 *     (date = timestamp), whatever the settings.  A RIGHT or FULL merge
 *     join needs every condition to be a merge clause.  Each input is
 *     sorted on its keys (ascending, NULLs last) unless it is a merge
 *     join already returning that order; such an inner input goes under
 *     a Materialize, which can mark its position.  The outer side is the
 *     smaller estimated one when PostgreSQL's estimate of the matches
 *     (rows x rows / max(distinct values) per clause, at most 200
 *     distinct values) exceeds the smaller side's rows -- its costs then
 *     favour the inner side re-reading fewer rows -- else the side the
 *     query names first; a LEFT join becomes a Merge Right Join for that
 *     only when every condition is a merge clause, SEMI / ANTI joins keep
 *     their sides.  With a join method off, the others are preferred;
 *     when all that apply are off, hash, merge, nested loop in that order
 *     (PostgreSQL's disable_cost);
 *   - GROUP BY uses hash aggregation when every key type can be hashed
 *     and enable_hashagg is on, otherwise sort + sorted aggregation;
 *   - SELECT DISTINCT, UNION, INTERSECT and EXCEPT [ALL] hash or sort
 *     as PostgreSQL 15 does with default settings: DISTINCT and UNION
 *     become a HashAggregate without aggregates (UNION over an Append of
 *     its inputs, nested UNIONs merged), INTERSECT/EXCEPT a HashSetOp
 *     over an Append of the flagged inputs (INTERSECT's input with fewer
 *     estimated groups first); they sort instead (Sort + Unique, Sort +
 *     SetOp) when a column's type cannot hash, enable_hashagg is off, the
 *     table would exceed work_mem x hash_mem_multiplier, or PostgreSQL's
 *     cost formulas, applied to estimates made its way, favour sorting:
 *     in practice a UNION of two rows, and a DISTINCT that keeps nearly
 *     every row (a small VALUES list, a wide table, a selective
 *     condition) followed by ORDER BY, or where hashing saves under 1%;
 *     DISTINCT ON always sorts, DISTINCT of constants is a bare Unique;
 *     ORDER BY after a hashed DISTINCT sorts again, after a sorted set
 *     operation only if its order is not already right (the rule and its
 *     formulas: setops.c, "Hashing or sorting");
 *   - a table's scan is an Index Scan (Index Only Scan when the index
 *     holds every column read) when one of its B-tree indexes can search
 *     its conditions and PostgreSQL's cost_index arithmetic finds it
 *     cheaper than the sequential scan (indxpath.c); a single-table
 *     SELECT's ORDER BY [LIMIT] is read in index order, forward or
 *     backward, when that costs less than sorting;
 *   - min() / max() of one table are read from one end of such an index
 *     (an initplan each, planagg.c) when that costs less;
 *   - ORDER BY sorts otherwise; LIMIT/OFFSET stop early (a Limit's cost
 *     is its input's in proportion to the rows read, as PostgreSQL's);
 *   - a query whose only FROM item is a one-row VALUES list reads the
 *     row without a scan (a Result), as PostgreSQL does;
 *   - IN (subquery) and correlated [NOT] EXISTS at the top level of
 *     WHERE become semi / anti joins above the FROM clause (sublink.c);
 *     a semi join never hashes its outer side (PostgreSQL 15 has no
 *     Right Semi Join), and is not replaced by an inner join over the
 *     de-duplicated subquery as PostgreSQL's cost search sometimes is;
 *   - a WITH query the analyzer did not inline (referenced more than
 *     once, volatile, recursive or MATERIALIZED: parser/query.h) is
 *     planned once, as a subplan listed under the level holding the
 *     WITH ("CTE name"); each reference is a CTE Scan reading its rows;
 *   - other uncorrelated scalar / EXISTS subqueries run once
 *     (initplans), correlated ones are re-run per outer row with
 *     parameters; an uncorrelated IN / NOT IN (= ANY) left as a
 *     subplan hashes the subquery's rows when its equalities hash and
 *     the estimated rows fit in work_mem x hash_mem_multiplier
 *     (PostgreSQL 15's rule), and other uncorrelated ANY / ALL
 *     subplans read their subquery through a Materialize.
 * Every expression is constant-folded first (clauses.c).
 * Row estimates (for EXPLAIN, choosing the hashed side, hashing or
 * sorting) follow PostgreSQL's without statistics where they are simple:
 * a table has its file's pages, but at least ten, times the rows of its
 * estimated width that fit in a page (PostgreSQL's estimate for a table
 * never vacuumed; tupledb keeps no statistics); a scan's "=" condition
 * keeps one of min(rows, 200) distinct values, "<>" the rest, any other
 * condition a third; a subquery has its plan's rows, generate_series
 * over constants its exact count, other functions 1000 rows; a join
 * condition keeps 1/10 for an equality (one row of the larger side per
 * match for an equijoin), 1/3 otherwise.  Costs are display only, except
 * where the DISTINCT rule and the index scan choice compare them.
 */
#ifndef TDB_OPTIMIZER_PLANNER_H
#define TDB_OPTIMIZER_PLANNER_H

#include "common/base.h"
#include "nodes/plannodes.h"
#include "parser/query.h"
#include "parser/statement.h"

PlannedStmt *tdb_plan_query(Statement *st, Query *q);

/*
 * Constant folding (clauses.c), PostgreSQL's eval_const_expressions:
 * a new tree (expr is not modified) with constant sub-expressions of
 * immutable functions evaluated, strict calls with a NULL constant
 * argument replaced by NULL, AND/OR/NOT/CASE/COALESCE simplified.
 * Errors raised by evaluating a constant part (1/0) are raised here.
 */
Expr *tdb_eval_const_expressions(Expr *expr);

/*
 * A folded WHERE / ON / HAVING condition in PostgreSQL's canonical form
 * (canonicalize_qual): NULL constants treated as FALSE, nested AND/OR
 * flattened, conditions shared by every arm of an OR pulled out.
 */
Expr *tdb_canonicalize_qual(Expr *qual);

/*
 * Equivalence classes with a constant (equivclass.c): given the ANDed
 * conditions of a query without outer joins, the same conditions with
 * every class "a = b AND b = 5" replaced by "a = 5 AND b = 5" (derived
 * conditions last).
 */
List *tdb_derive_constant_equalities(List *conds);

/*
 * Outer joins that the conditions above them make inner or anti
 * (outerjoin.c, PostgreSQL's reduce_outer_joins); changes q's join tree
 * in place.
 */
void tdb_reduce_outer_joins(Query *q);

/*
 * sublink.c: IN (subquery) and [NOT] EXISTS (subquery) at the top level
 * of WHERE become semi / anti joins on top of the FROM clause.  Runs
 * before the query's expressions are preprocessed.
 */
void tdb_pull_up_sublinks(Query *q);

/* AND of conds (NULL if none, the condition itself if one). */
Expr *tdb_and_of(List *conds);

/* Does the expression call a volatile function? */
bool tdb_contains_volatile(Node *node);

#endif /* TDB_OPTIMIZER_PLANNER_H */
