/*
 * parse_int.h -- what analyze.c, parse_clause.c and parse_expr.c share.
 */
#ifndef TDB_PARSER_PARSE_INT_H
#define TDB_PARSER_PARSE_INT_H

#include "common/base.h"
#include "parser/analyze.h"

/*
 * pbtree.c: libpg_query's protobuf-c trees without recursion, so that any
 * depth costs heap, not stack.  tdb_pb_decode decodes len bytes of a
 * message of type desc into cxt, as protobuf-c's unpack would, and sets
 * *depth (if not NULL) to the deepest nesting of messages (1: the root
 * alone); tdb_pb_copy deep-copies msg into cxt.  Both return NULL when
 * out of memory or, decoding, on malformed bytes; neither raises.
 */
ProtobufCMessage *tdb_pb_decode(const ProtobufCMessageDescriptor *desc,
                                const uint8_t *data, Size len,
                                MemoryContext cxt, int *depth);
ProtobufCMessage *tdb_pb_copy(const ProtobufCMessage *msg, MemoryContext cxt);
/* The deepest nesting of messages in msg (1: msg alone), scratch memory
 * in cxt; -1 when out of memory. */
int tdb_pb_depth(const ProtobufCMessage *msg, MemoryContext cxt);

/*
 * parse_depth.c: an upper bound of the depth (levels of protobuf
 * messages) of the tree libpg_query's parse of sql gives, from a scan
 * of its tokens, into *bound; false instead when brackets nest deeper
 * than the grammar's stack, where the parse fails before any tree
 * exists.  Scratch memory, if deep nesting needs any, is palloc'd.
 */
bool tdb_sql_depth_bound(const char *sql, Size *bound);

/* What the references to a WITH query become (analyze.c, "WITH"). */
typedef enum CteState {
    CTE_UNDECIDED,   /* its level is being analyzed: references are counted
                      * and wait as RTE_CTE placeholders */
    CTE_INLINED,     /* each reference is a subquery of its own */
    CTE_MATERIALIZED /* each reference reads the rows computed once */
} CteState;

/* A WITH query visible by name. */
typedef struct CteItem {
    const char *name;
    Query *query;      /* NULL: a recursive CTE being analyzed */
    /* recursive placeholder: the columns its self-references see */
    List *colnames;
    List *coltypes;
    List *coltypmods;
    bool referenced;   /* the recursive term read it */
    CommonTableExpr *cte; /* the shared node references point to */
    CteState state;
    List *placeholders; /* RangeTblEntry (RTE_CTE) while undecided */
    /* to analyze the body again for each further inlined reference:
     * planning writes into the Query it plans, so no two references may
     * share one */
    struct ParseState *def_ps; /* the level that defined it */
    List *def_ctes;            /* the CTEs visible to its body */
    PgQuery__CommonTableExpr *def;
    bool def_recursive;        /* WITH RECURSIVE */
} CteItem;

/* A fresh analysis of a WITH query's body, for one more inlined
 * reference (its own references are not counted). */
Query *tdb_reanalyze_cte(CteItem *cte);

/*
 * WITH RECURSIVE's SEARCH and CYCLE clauses (parse_cte.c).  begin: the
 * CYCLE marks analyzed (NULL when the WITH query has neither clause);
 * columns: append the columns the clauses add to a column list (the
 * working table's); finish: validate the clauses against the analyzed
 * recursive query q (colnames: its own columns; all*: with the added
 * ones) and rewrite it to compute them.  Errors are PostgreSQL's.
 */
typedef struct SearchCycle SearchCycle;
SearchCycle *tdb_search_cycle_begin(ParseState *ps,
                                    PgQuery__CommonTableExpr *cte);
void tdb_search_cycle_columns(const SearchCycle *sc, List **colnames,
                              List **coltypes, List **coltypmods);
Query *tdb_search_cycle_finish(ParseState *ps, const SearchCycle *sc,
                               PgQuery__CommonTableExpr *cte, Query *q,
                               List *colnames, List *allnames, List *alltypes,
                               List *alltypmods);

/* Append an RTE to the range table; its 1-based index. */
int tdb_add_rte(ParseState *ps, RangeTblEntry *rte);
RangeTblEntry *tdb_make_relation_rte(ParseState *ps, Relation rel,
                                     const char *refname);
Node *tdb_add_subquery_rte(ParseState *ps, Query *sub, const char *refname,
                           PgQuery__Alias *alias, List **namespace);
/* The WITH query named name visible from ps, or NULL. */
CteItem *tdb_find_cte(ParseState *ps, const char *name);
/* Analyze a SELECT with the given outer level and visible CTEs. */
Query *tdb_analyze_subquery_in(Statement *st, ParseState *parent, List *ctes,
                               PgQuery__Node *stmt);
/* q's target entries that are not junk, in order. */
List *tdb_visible_targets(Query *q);
/* a AND b */
Expr *tdb_make_bool_and(Expr *a, Expr *b);

FromExpr *tdb_transform_from_clause(ParseState *ps, PgQuery__Node **items,
                                    size_t n);
List *tdb_transform_target_list(ParseState *ps, PgQuery__Node **items,
                                size_t n, ExprKind kind);
void tdb_resolve_unknown_targets(ParseState *ps, List *tlist);
SortGroupClause *tdb_make_sortgroup(ParseState *ps, TargetEntry *te,
                                    List *tlist, bool descending,
                                    bool nulls_first, int location);
List *tdb_transform_sort_clause(ParseState *ps, PgQuery__Node **items,
                                size_t n, List **tlist);
/* DISTINCT ON (...): its clauses; checks ORDER BY starts with them. */
List *tdb_transform_distinct_on(ParseState *ps, PgQuery__Node **items,
                                size_t n, List **tlist, List *sort_clause);
List *tdb_transform_group_clause(ParseState *ps, PgQuery__Node **items,
                                 size_t n, List **tlist);
void tdb_check_grouping(ParseState *ps, Query *q);

/*
 * A SET list (UPDATE; ON CONFLICT DO UPDATE) over rel: a target entry
 * per assigned column (resno its attnum) appended to *tlist, values
 * coerced to the column's type, DEFAULT the column default, "(a, b) =
 * ROW(...)" one entry per column; PostgreSQL's errors (42703 for an
 * unknown column, 0A000 for a system column, 42601 for two assignments
 * to one column).  analyze.c.
 */
void tdb_transform_set_list(ParseState *ps, Relation rel, PgQuery__Node **items,
                            size_t n, List **tlist);

/*
 * INSERT's ON CONFLICT clause (parse_conflict.c), after the insert's
 * rows, CHECK constraints and index expressions (q->index_exprs) were
 * analyzed, with only the target in ps's namespace: fills q's
 * on_conflict fields (query.h), inferring the arbiter indexes.
 */
void tdb_transform_on_conflict(ParseState *ps, Query *q, Relation rel,
                               PgQuery__OnConflictClause *clause);

#endif /* TDB_PARSER_PARSE_INT_H */
