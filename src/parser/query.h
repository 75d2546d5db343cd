/*
 * query.h -- the analyzed form of a statement (PostgreSQL's Query, for
 * what tupledb supports): names resolved to range-table entries and
 * columns, every expression typed, aggregates and sublinks found.  The
 * planner turns a Query into a plan.
 */
#ifndef TDB_PARSER_QUERY_H
#define TDB_PARSER_QUERY_H

#include "common/base.h"
#include "access/relation.h"
#include "nodes/plannodes.h"
#include "nodes/primnodes.h"

typedef enum RTEKind {
    RTE_RELATION,  /* a table */
    RTE_SUBQUERY,  /* a subquery in FROM (or a CTE reference, inlined) */
    RTE_JOIN,      /* a JOIN's output columns */
    RTE_FUNCTION,  /* a set-returning function in FROM */
    RTE_VALUES,    /* VALUES lists */
    RTE_WORKTABLE, /* a recursive CTE's reference to itself */
    RTE_CTE,       /* a reference to a WITH query computed once */
} RTEKind;

/* WITH name AS [NOT] MATERIALIZED (...) */
typedef enum CteMaterialize {
    CTE_MATERIALIZE_DEFAULT,
    CTE_MATERIALIZE_ALWAYS, /* MATERIALIZED */
    CTE_MATERIALIZE_NEVER,  /* NOT MATERIALIZED */
} CteMaterialize;

/*
 * A WITH query that is computed once, its rows read by every reference
 * (RTE_CTE): PostgreSQL 12+'s rule, applied at the end of the analysis of
 * the query level holding the WITH (analyze.c, "WITH").  Such a query is
 * in its level's cte_list; the others were inlined, each reference
 * becoming a subquery of its own (RTE_SUBQUERY).
 */
typedef struct CommonTableExpr {
    NodeTag tag;
    const char *ctename;
    struct Query *ctequery;
    bool recursive; /* WITH RECURSIVE that reads itself */
    CteMaterialize materialized;
    int refcount; /* references in the query text */
} CommonTableExpr;

typedef struct RangeTblEntry {
    NodeTag tag;
    RTEKind rtekind;
    const char *refname;  /* the name the query uses: alias or table name */
    bool has_alias;       /* refname came from an alias */
    List *colnames;       /* char * per column */
    List *coltypes;       /* Oid (as int) per column */
    List *coltypmods;     /* int32 per column */
    /* RTE_RELATION */
    Oid relid;
    const char *relname; /* also RTE_WORKTABLE's: the WITH query's name */
    bool in_system_view; /* named in a system view's definition
                          * (system_views.c): read for the system, so
                          * not checked against the user's privileges */
    /* RTE_SUBQUERY */
    struct Query *subquery;
    /* RTE_JOIN */
    JoinType jointype;
    List *joinaliasvars; /* Expr per output column (a Var of a side, or
                          * COALESCE(l, r) for a USING column of a FULL
                          * join) */
    /* RTE_FUNCTION */
    Expr *funcexpr;
    bool ordinality;
    /* RTE_VALUES */
    List *values_lists;
    /* RTE_CTE: the WITH query, in the cte_list of the level defining it */
    CommonTableExpr *cte;
    bool in_from_clause; /* visible to unqualified names */
    /* ON CONFLICT DO UPDATE's EXCLUDED (an RTE_RELATION of the target
     * that no scan reads): named only in the SET list and WHERE */
    bool is_excluded;
} RangeTblEntry;

typedef struct RangeTblRef {
    NodeTag tag;
    int rtindex;
} RangeTblRef;

/* A JOIN in FROM. */
typedef struct JoinExpr {
    NodeTag tag;
    JoinType jointype;
    Node *larg; /* RangeTblRef or JoinExpr */
    Node *rarg;
    Expr *quals; /* ON / USING condition, or NULL */
    int rtindex; /* its RTE_JOIN */
} JoinExpr;

/* FROM list + WHERE. */
typedef struct FromExpr {
    NodeTag tag;
    List *fromlist; /* RangeTblRef / JoinExpr, cross-joined */
    Expr *quals;    /* WHERE, or NULL */
} FromExpr;

/* An ORDER BY / GROUP BY / DISTINCT item, pointing at a target entry. */
typedef struct SortGroupClause {
    NodeTag tag;
    int tle_ref;           /* TargetEntry.ressortgroupref */
    const OperDesc *eqop;  /* equality (grouping, DISTINCT) */
    const TypeSupport *support; /* cmp / hash */
    bool descending;
    bool nulls_first;
} SortGroupClause;

/* UNION / INTERSECT / EXCEPT tree (leaves are RangeTblRefs to
 * subqueries). */
typedef enum SetOperation {
    SETOP_NONE,
    SETOP_UNION,
    SETOP_INTERSECT,
    SETOP_EXCEPT,
} SetOperation;

typedef struct SetOperationStmt {
    NodeTag tag;
    SetOperation op;
    bool all;
    Node *larg;
    Node *rarg;
    List *coltypes;   /* the result's column types (Oid) */
    List *coltypmods;
    List *colexprs;   /* per column, an expression of the leftmost
                       * branch (positions of type errors) */
} SetOperationStmt;

typedef struct Query {
    NodeTag tag;
    CmdType command;
    List *cte_list;      /* CommonTableExpr: WITH queries computed once */
    List *rtable;        /* RangeTblEntry */
    FromExpr *jointree;
    List *target_list;   /* TargetEntry */
    int result_relation; /* INSERT/UPDATE/DELETE: the target RTE */
    List *returning;     /* TargetEntry */
    List *group_clause;  /* SortGroupClause */
    Expr *having;
    List *sort_clause;   /* SortGroupClause */
    List *distinct_clause;
    bool has_distinct_on;  /* distinct_clause is DISTINCT ON's */
    Expr *limit_offset;
    Expr *limit_count;
    bool has_aggs;
    bool has_sublinks;
    bool has_target_srfs;
    SetOperationStmt *set_operations;
    /* WITH RECURSIVE: non-recursive term UNION [ALL] recursive term; the
     * target list names the columns (Vars with varno 0) */
    struct Query *rec_nonrecursive;
    struct Query *rec_recursive;
    bool rec_all; /* non-NULL: a set operation */
    /* INSERT: target column numbers (1-based) of target_list entries;
     * UPDATE: target_list entries' resno are the table columns */
    List *insert_columns;
    /* INSERT/UPDATE: the target's CHECK constraints, analyzed */
    List *check_exprs; /* Expr over the result relation's Vars */
    List *check_names; /* const char * */
    /* INSERT/UPDATE: the target's index expressions and predicates over
     * the result relation's Vars, and key column lists (parser's
     * tdb_analyze_index_exprs; executor/execindex.h) */
    List *index_exprs;
    List *index_keycols; /* const char * */
    /*
     * INSERT ... ON CONFLICT (parse_conflict.c): the action; the arbiter
     * indexes (positions in the target's rd_indexes, as ints; NIL with DO
     * NOTHING and no conflict target: every unique index); DO UPDATE's
     * SET list (TargetEntry, resno the table column) and WHERE, over the
     * target's Vars and those of EXCLUDED, range-table entry
     * excluded_relation.
     */
    OnConflictAction on_conflict;
    List *arbiter_indexes;
    List *arbiter_oids;  /* their OIDs (as ints) */
    List *arbiter_names; /* and names, for EXPLAIN */
    List *conflict_set;
    Expr *conflict_where;
    int excluded_relation;
} Query;

#endif /* TDB_PARSER_QUERY_H */
