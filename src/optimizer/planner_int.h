/*
 * planner_int.h -- what the optimizer's files share; only the .c files
 * of src/optimizer include it (planner.h is the public interface).
 *
 * The planner's state (PlannerGlobal for a statement, PlannerInfo for a
 * query level), PostgreSQL's default cost constants, a few tiny helpers,
 * and the functions one file of the planner calls in another.  The
 * split follows PostgreSQL's optimizer: planner.c drives the phases and
 * plans the upper part, subselect.c preprocesses expressions (sublinks,
 * outer references), joinplan.c plans the join tree, costsize.c makes
 * the estimates, setops.c hashes or sorts DISTINCT and the set
 * operations, setrefs.c sets references.
 */
#ifndef TDB_OPTIMIZER_PLANNER_INT_H
#define TDB_OPTIMIZER_PLANNER_INT_H

#include "common/base.h"
#include "optimizer/planner.h"

/* One statement's planning: what every query level of it shares. */
typedef struct PlannerGlobal {
    Statement *st;  /* the statement: its session's settings, its
                     * transaction (for the catalog) */
    List *subplans; /* Plan */
    int nparams;    /* PARAM_EXEC Params handed out so far */
    int wt_param;   /* the working table of the recursive term being
                     * planned, or -1 */
    List *ctes;     /* PlannedCte: the WITH queries planned so far */
    List *wt_reads; /* wt_params read by the scans planned so far
                     * (WorkTable Scans, and CTE Scans through their WITH
                     * query), for CteScan.wt_params */
    List *wt_owned; /* wt_params of the RecursiveUnions planned so far */
} PlannerGlobal;

/* A WITH query computed once, planned as the statement's subplan plan_id
 * (subselect.c, tdb_plan_ctes). */
typedef struct PlannedCte {
    CommonTableExpr *cte;
    int plan_id;
    int param;       /* CteScan.cte_param */
    List *wt_params; /* CteScan.wt_params */
} PlannedCte;

/* An outer-query value a subquery reads -- a column, or an aggregate of
 * that query (Aggref.agglevelsup) -- and the Param carrying it. */
typedef struct PlanParam {
    int paramid;
    Expr *item; /* the Var or Aggref, as the level above sees it (one
                 * level less up) */
} PlanParam;

/* One query level being planned: the statement's, a sublink's, a
 * subquery's, a set operation's leaf. */
typedef struct PlannerInfo {
    PlannerGlobal *glob;
    Query *q;                   /* changed in place while planned */
    struct PlannerInfo *parent; /* the query this one is a sublink of */
    List *plan_params;          /* PlanParam: outer columns read here */
    List *init_plans;           /* SubPlan: run once, set Params */
    /* ORDER BY of a single-table SELECT that an index scan may return in
     * order (indxpath.c): its SortGroupClauses (NIL: none wanted) and
     * the rows LIMIT reads (0: all); order_provided is set when the
     * scan planned returns that order, so no Sort is needed */
    List *wanted_order;
    double wanted_limit;
    bool order_provided;
} PlannerInfo;

/* PostgreSQL's distinct values of a column without statistics */
#define DEFAULT_NUM_DISTINCT 200.0

/* PostgreSQL's default cost constants (cpu_operator_cost, cpu_tuple_cost). */
#define CPU_OPERATOR_COST 0.0025
#define CPU_TUPLE_COST 0.01

/* PostgreSQL's disable_cost: what a path of a disabled kind
 * (enable_seqscan = off ...) costs on top of its own. */
#define DISABLE_COST 1.0e10

/* A path's costs, as PostgreSQL's planner compares them. */
typedef struct PathCost {
    double startup;
    double total;
} PathCost;

/* Tiny helpers. */

/* Range-table entry rtindex (1-based) of q; borrowed. */
static inline RangeTblEntry *
rt_fetch(Query *q, int rtindex)
{
    return list_nth(q->rtable, rtindex - 1);
}

static inline void *
make_plan_node(Size size, NodeTag tag)
{
    return tdb_new_node(size, tag);
}

#define MAKE_PLAN(type) ((type *)make_plan_node(sizeof(type), T_##type))

/* dst gets src's costs, rows and width. */
static inline void
copy_estimates(Plan *dst, const Plan *src)
{
    dst->startup_cost = src->startup_cost;
    dst->total_cost = src->total_cost;
    dst->plan_rows = src->plan_rows;
    dst->plan_width = src->plan_width;
}

/* A new PARAM_EXEC Param id of the statement. */
static inline int
new_param(PlannerGlobal *glob)
{
    return glob->nparams++;
}

/* planner.c: the driver, the upper part, helpers the others share */

/* Plan one query level (root->q, changed in place): tdb_plan_query's work
 * for a level of its own (a sublink, a subquery in FROM); its references
 * are set, its initplans attached to the result. */
Plan *tdb_plan_query_level(PlannerInfo *root);
Plan *tdb_plan_subquery(PlannerInfo *root, Query *q);
List *tdb_plan_passthrough_tlist(Plan *child);
List *tdb_plan_conjuncts(Expr *e, List *into);
bool tdb_plan_collect_relids(Node *node, void *arg);
/* Walker: every Var (varlevelsup 0) under node into *(List **)arg, once. */
bool tdb_plan_collect_vars(Node *node, void *arg);
/* Does the expression tree hold a node with this tag? */
bool tdb_plan_contains_node(Node *node, NodeTag tag);
TargetEntry *tdb_plan_tle_for_ref(List *tlist, int ref);
/* A Sort of child on clauses (SortGroupClauses over tlist); its
 * estimates are child's with the sort's cost added. */
Plan *tdb_plan_make_sort(Plan *child, List *clauses, List *tlist);
Plan *tdb_plan_make_unique(Plan *child, List *clauses, List *tlist);
/* A Limit over child (offset, count: NULL if absent). */
Plan *tdb_plan_make_limit(Plan *child, Expr *offset, Expr *count);

/* subselect.c: phase 1 */

/* Fold the query's expressions and plan their sublinks and outer
 * references, in place. */
void tdb_plan_preprocess_query(PlannerInfo *root);
/* Plan the level's WITH queries computed once (q->cte_list): subplans,
 * and initplans of the level that EXPLAIN lists as "CTE name". */
void tdb_plan_ctes(PlannerInfo *root);
/* The planned WITH query cte (planned by an enclosing level). */
PlannedCte *tdb_plan_find_cte(PlannerGlobal *glob, CommonTableExpr *cte);

/* joinplan.c: phase 2 */
Plan *tdb_plan_jointree(PlannerInfo *root, List *needed);

/* costsize.c: estimates and costs */
double tdb_plan_estimate_rows(PlannerInfo *root, int rtindex, double *pages);
/* The rows of open table rel (tdb_plan_estimate_rows's estimate); *pages
 * (out): its pages. */
double tdb_plan_relation_rows(Relation rel, double *pages);
void tdb_plan_set_scan_estimates(Plan *plan, double rows, double base_cost);
/* The share of a join's rows its conditions keep: 1/10 per equality,
 * 1/3 per other condition. */
double tdb_plan_clause_selectivity(List *quals);
double tdb_plan_estimate_groups(PlannerInfo *root, List *exprs, Plan *input);
int tdb_plan_tlist_width(List *tlist);
double tdb_plan_sort_cost(double rows);
PathCost tdb_plan_add_sort_cost(PathCost in, double rows, double limit);
double tdb_plan_limited_cost(PathCost c, double rows, double limit);

/*
 * The share of a table's `tuples` rows its conditions keep, as
 * PostgreSQL's clauselist_selectivity estimates it without statistics;
 * unique_attnos: the columns of its single-column unique indexes (an
 * "=" on one keeps a single row).
 */
/* The elements an array expression is estimated to have (PostgreSQL's
 * estimate_array_length): a constant's count, ARRAY[...]'s, else 10. */
int tdb_plan_array_length(Expr *array);

double tdb_plan_restriction_selectivity(List *quals, double tuples,
                                        List *unique_attnos);

/* indxpath.c: index scans */

/*
 * The scan of table rtindex: seq (built with its conditions, output and
 * estimates), or an Index Scan / Index Only Scan replacing it when one
 * is cheaper by PostgreSQL's costs (or returns root->wanted_order more
 * cheaply than sorting: then root->order_provided is set).  seq's row
 * estimate is refined with the table's unique indexes.
 */
Plan *tdb_plan_index_scan(PlannerInfo *root, SeqScan *seq, int rtindex);

/* planagg.c: min() / max() from an index's end, as initplans, when they
 * cost less than plain, the aggregation planned already; NULL if not */
Plan *tdb_plan_minmax_aggregates(PlannerInfo *root, Plan *plain);

/* setops.c: DISTINCT hashed or sorted, set operations */
Plan *tdb_plan_distinct(PlannerInfo *root, Plan *plan);
/* The plan of a query with set_operations, with its ORDER BY and LIMIT;
 * its references are set already. */
Plan *tdb_plan_set_operation(PlannerInfo *root);

/* setrefs.c: phase 4 */

/* Set the references of a plan tree built by the phases before, in
 * place (bottom-up). */
void tdb_plan_fix_plan(Plan *plan);
void tdb_plan_fix_returning(ModifyTable *mt, int result_relation);
/* ON CONFLICT DO UPDATE's SET and WHERE: the target's Vars become
 * SCAN_VARs (the conflicting row), EXCLUDED's INNER_VARs (the proposed
 * row). */
void tdb_plan_fix_on_conflict(ModifyTable *mt, int result_relation,
                              int excluded_relation,
                              const RangeTblEntry *target);

#endif /* TDB_OPTIMIZER_PLANNER_INT_H */
