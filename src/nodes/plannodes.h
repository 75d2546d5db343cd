/*
 * plannodes.h -- the plan tree the planner hands the executor
 * (PostgreSQL's plannodes.h, trimmed to tupledb's nodes).
 *
 * Every node has a target list (what it outputs, in order) and a qual
 * (rows failing it are dropped), both over its inputs: Vars with varno
 * SCAN_VAR (the scanned row), OUTER_VAR (the left child's row) or
 * INNER_VAR (the right child's).  Cost and row estimates are the
 * planner's, shown by EXPLAIN.
 */
#ifndef TDB_NODES_PLANNODES_H
#define TDB_NODES_PLANNODES_H

#include "common/base.h"
#include "access/relation.h"
#include "nodes/primnodes.h"

typedef struct Plan {
    NodeTag tag;
    /* scan nodes, for EXPLAIN: the scanned columns' names and the name
     * the query uses for the relation */
    List *scan_colnames;
    const char *scan_refname;
    double startup_cost; /* EXPLAIN's cost=startup..total */
    double total_cost;
    double plan_rows;
    int plan_width;
    List *targetlist; /* TargetEntry */
    List *qual;       /* Expr, ANDed */
    struct Plan *lefttree;
    struct Plan *righttree;
    List *initplans;  /* SubPlans to run before this node (EXPLAIN) */
} Plan;

/* No input (or a constant qual gating one child): SELECT 1+1. */
typedef struct Result {
    Plan plan;
    List *resconstantqual; /* evaluated once; false -> no rows */
} Result;

/* VALUES (...), (...): rows of expressions. */
typedef struct ValuesScan {
    Plan plan;
    List *values_lists; /* List of List of Expr */
} ValuesScan;

/* A table scanned in full (the snapshot is the statement's). */
typedef struct SeqScan {
    Plan plan;
    Oid relid;
    const char *relname; /* EXPLAIN */
    const char *alias;   /* EXPLAIN: the name used in the query */
    int scanrelid;       /* range-table index (EXPLAIN) */
} SeqScan;

/*
 * One condition of an index scan on index column attno, as the executor
 * hands it to the B-tree: "column strategy value" in the column type's
 * order, the value computed when the scan starts (a constant, a
 * prepared statement's parameter, an expression of them).
 */
typedef struct IndexKey {
    int attno;    /* 1-based index column */
    int strategy; /* access/nbtree.h BTStrategy: BT_LESS .. BT_IS_NOT_NULL */
    Expr *arg;    /* the value (NULL for IS [NOT] NULL, and an IN list) */
    List *items;  /* column IN (items): one scan per distinct non-null
                   * item, in index order (PostgreSQL's ScalarArrayOp
                   * index qual) */
    Expr *array;  /* column = ANY (array): the same, for the array's
                   * elements (NULL otherwise) */
    Oid arg_type; /* arg's / the items' / the elements' type: the column's, or
                   * another integer type (int2 / int4 / int8), fitted to the
                   * column's range when the scan starts */
} IndexKey;

/*
 * A table read through one of its B-tree indexes: the rows whose index
 * entries satisfy every key, in index order (backward: reversed), each
 * fetched from the heap by TID and kept if the statement's snapshot sees
 * it.  An Index Only Scan returns the columns from the index entry, and
 * visits the heap only for pages the visibility map does not call
 * all-visible.  The scan tuple is table-shaped either way (an Index Only
 * Scan fills only the indexed columns, the only ones it reads), so the
 * target list and qual read SCAN_VAR columns as a SeqScan's do.
 */
typedef struct IndexScan {
    Plan plan;
    Oid relid;
    const char *relname; /* EXPLAIN */
    const char *alias;
    int scanrelid;
    Oid indexid;           /* the index's pg_class OID (rd_indexes) */
    const char *indexname; /* EXPLAIN */
    bool index_only;       /* "Index Only Scan" */
    bool backward;         /* "Index Scan Backward" */
    int nkeys;
    IndexKey *keys;      /* in index column order */
    List *indexqualorig; /* the conditions the keys came from: EXPLAIN's
                          * Index Cond (over the scan tuple) */
    List *indexexprs;    /* the index's expression columns (their types
                          * make its tuple descriptor) */
} IndexScan;

/* A set-returning function in FROM: generate_series(1, 10). */
typedef struct FunctionScan {
    Plan plan;
    Expr *funcexpr; /* a FuncExpr with retset */
    const char *alias;
    bool ordinality;
} FunctionScan;

/*
 * A reference to a WITH query computed once: its plan is the statement's
 * subplan cte_plan_id, listed by EXPLAIN as an initplan "CTE name" of the
 * level holding the WITH.  The CTE Scans of one WITH query share its rows
 * (a tuplestore), each reading at its own position; the first that needs
 * a row not computed yet runs the plan one row further.  They find the
 * shared state through PARAM_EXEC slot cte_param.
 */
typedef struct CteScan {
    Plan plan;
    const char *ctename; /* EXPLAIN: "CTE Scan on ctename [alias]" */
    int cte_plan_id;     /* 1-based, PlannedStmt.subplans */
    int cte_param;
    /* working tables (RecursiveUnion.wt_param) of enclosing WITH
     * RECURSIVE queries that the WITH query reads: when one of them
     * changes, a rescan computes the rows again */
    List *wt_params;
} CteScan;

/* A subquery in FROM: its plan's rows, renamed. */
typedef struct SubqueryScan {
    Plan plan;
    struct Plan *subplan;
    const char *alias;
} SubqueryScan;

typedef enum JoinType {
    JOIN_INNER,
    JOIN_LEFT,
    JOIN_FULL,
    JOIN_RIGHT,
    JOIN_SEMI,
    JOIN_ANTI,
} JoinType;

typedef struct NestLoop {
    Plan plan;
    JoinType jointype;
    List *joinqual; /* the join condition (plan.qual filters after) */
} NestLoop;

/* Hash join: the right child is a Hash node over the inner input. */
typedef struct HashJoin {
    Plan plan;
    JoinType jointype;
    List *joinqual;    /* non-hashable parts of the join condition */
    List *hashclauses; /* OpExpr equalities: left arg outer, right inner */
    List *outer_keys;  /* Exprs over the outer row */
    List *inner_keys;  /* Exprs over the inner row (INNER_VAR) */
} HashJoin;

/*
 * Merge join: both children return their rows sorted ascending, NULLs
 * last, on their keys (a Sort, or an input already in that order); the
 * right child supports mark / restore (tdb_exec_supports_mark).  RIGHT
 * and FULL merge joins have no joinqual.
 */
typedef struct MergeJoin {
    Plan plan;
    JoinType jointype;
    List *joinqual;     /* the join condition beyond the merge clauses */
    List *mergeclauses; /* OpExpr "=": left arg outer, right inner */
    List *outer_keys;   /* Exprs over the outer row, in sort order */
    List *inner_keys;   /* Exprs over the inner row (INNER_VAR) */
} MergeJoin;

typedef struct Hash {
    Plan plan;
    List *hash_keys; /* Exprs over the hashed (outer of Hash) row */
} Hash;

typedef enum AggStrategy {
    AGG_PLAIN,  /* one group: no GROUP BY */
    AGG_SORTED, /* input sorted by the group keys */
    AGG_HASHED, /* groups in a hash table */
} AggStrategy;

typedef struct Agg {
    Plan plan;
    AggStrategy strategy;
    int num_cols;            /* group key columns */
    int *grp_col_idx;        /* 1-based columns of the input */
    const OperDesc **grp_eq; /* equality per key column */
    List *aggs;              /* Aggref, aggno = index; args over the input */
    double num_groups;       /* estimate (hash table sizing) */
} Agg;

/* One ORDER BY key. */
typedef struct SortKey {
    int col;                    /* 1-based column of the input */
    const TypeSupport *support; /* cmp */
    bool descending;
    bool nulls_first;
} SortKey;

typedef struct Sort {
    Plan plan;
    int num_keys;
    SortKey *keys;
} Sort;

typedef struct Limit {
    Plan plan;
    Expr *limit_offset; /* NULL: 0 */
    Expr *limit_count;  /* NULL: all */
} Limit;

/* Drop adjacent duplicates of sorted input (DISTINCT by sorting). */
typedef struct Unique {
    Plan plan;
    int num_cols;
    int *col_idx;
    const OperDesc **eq_ops;
} Unique;

/*
 * Set-returning functions in the select list: for each input row, the
 * target list's top-level SRFs are run in lockstep (the shorter ones
 * padded with NULLs, as PostgreSQL 10+ does) until all are exhausted.
 */
typedef struct ProjectSet {
    Plan plan;
} ProjectSet;

/*
 * WITH RECURSIVE: the non-recursive term's rows (lefttree), then the
 * recursive term (righttree) run again and again over the rows the
 * previous round produced (its WorkTableScan reads them) until a round
 * produces none.  Without ALL, rows seen before are dropped.
 */
typedef struct RecursiveUnion {
    Plan plan;
    int wt_param;  /* the PARAM_EXEC slot linking the WorkTableScans */
    bool all;
    int num_cols;
    const OperDesc **eq_ops;     /* per column (UNION without ALL) */
    const TypeSupport **support; /* per column: hash */
} RecursiveUnion;

/* The working table of the enclosing RecursiveUnion. */
typedef struct WorkTableScan {
    Plan plan;
    int wt_param;
    const char *ctename; /* EXPLAIN: "WorkTable Scan on ctename [alias]" */
} WorkTableScan;

/*
 * Materialize: the child's rows kept as they pass, replayed on rescan
 * (planned over input that cannot change between scans: see
 * exec_material.c), or forgotten and read again (rescan_input: a merge
 * join's inner input that may read parameters).
 */
typedef struct Material {
    Plan plan;
    bool rescan_input;
} Material;

/* UNION ALL: the children's rows one after the other. */
typedef struct Append {
    Plan plan;
    List *appendplans;
} Append;

typedef enum SetOpCmd {
    SETOPCMD_INTERSECT,
    SETOPCMD_INTERSECT_ALL,
    SETOPCMD_EXCEPT,
    SETOPCMD_EXCEPT_ALL,
} SetOpCmd;

typedef enum SetOpStrategy {
    SETOP_SORTED, /* input sorted by the columns: a group ends where they
                   * change */
    SETOP_HASHED, /* groups counted in a hash table, output at the end */
} SetOpStrategy;

/*
 * INTERSECT / EXCEPT [ALL] over the two inputs appended, each row tagged
 * with its side in a flag column (0 left, 1 right).  Per group of equal
 * rows (NULLs equal), with l and r its rows from each side, the output
 * is: INTERSECT one row if l > 0 and r > 0; INTERSECT ALL min(l, r)
 * rows; EXCEPT one row if l > 0 and r = 0; EXCEPT ALL max(l - r, 0).
 */
typedef struct SetOp {
    Plan plan;
    SetOpCmd cmd;
    SetOpStrategy strategy;
    int num_cols;
    int *col_idx;
    const OperDesc **eq_ops;
    int flag_col;      /* 1-based column holding 0 (left) / 1 (right) */
    int first_flag;    /* hashed: the flag of the input that comes first
                        * in the Append (0, or 1 when the planner put the
                        * right input of an INTERSECT first); only its
                        * rows create groups */
    double num_groups; /* hashed: estimated groups (table sizing) */
} SetOp;

/* INSERT's ON CONFLICT action (PostgreSQL's OnConflictAction). */
typedef enum OnConflictAction {
    ONCONFLICT_NONE,
    ONCONFLICT_NOTHING,
    ONCONFLICT_UPDATE,
} OnConflictAction;

typedef enum CmdType {
    CMD_SELECT,
    CMD_INSERT,
    CMD_UPDATE,
    CMD_DELETE,
} CmdType;

/* INSERT / UPDATE / DELETE of the rows the child produces. */
typedef struct ModifyTable {
    Plan plan;
    CmdType operation;
    Oid relid;
    const char *relname;
    List *returning; /* TargetEntry over the new (or deleted) row: SCAN_VAR */
    int ctid_col;    /* UPDATE/DELETE: 1-based child column with the tid */
    /* UPDATE: for each table column, the child column with its new value
     * (1-based), in table order */
    int *update_cols;
    List *check_exprs; /* CHECK constraints over the new row (SCAN_VAR);
                        * NOT NULL is checked from the descriptor */
    List *check_names; /* const char *, for the 23514 message */
    /* the table's index expressions and predicates (SCAN_VAR) and key
     * column lists, as executor/execindex.h takes them */
    List *index_exprs;
    List *index_keycols;
    const char *alias; /* EXPLAIN: "Insert on t x" when the target has one */
    /*
     * INSERT ... ON CONFLICT.  The arbiters are positions (0-based) in the
     * table's rd_indexes, with their OIDs (checked at executor start) and
     * names (EXPLAIN); NIL with DO NOTHING without a target: every unique
     * index arbitrates.  DO UPDATE: conflict_set holds the new row, one
     * Expr per table column in table order, and conflict_where the DO
     * UPDATE ... WHERE (or NULL), both over the conflicting row (SCAN_VAR)
     * and the row proposed for insertion, EXCLUDED (INNER_VAR).
     */
    OnConflictAction on_conflict;
    List *arbiter_indexes; /* int */
    List *arbiter_oids;    /* Oid, as int */
    List *arbiter_names;   /* const char * */
    List *conflict_set;    /* Expr */
    Expr *conflict_where;
} ModifyTable;

/* The statement as the executor runs it. */
typedef struct PlannedStmt {
    CmdType command;
    Plan *plan;
    List *subplans;    /* Plan, for SubPlan.plan_id (1-based) */
    int nparams;       /* PARAM_EXEC slots */
    List *result_names; /* column labels (const char *) */
    bool has_returning;
    /* Oids (as ints) of the relations the statement reads or writes by
     * the names its user wrote (parser's tdb_query_checked_relids): the
     * privileges checked when it starts (commands' tdb_sql_check_privileges) */
    List *checked_relids;
} PlannedStmt;

#endif /* TDB_NODES_PLANNODES_H */
