/*
 * analyze.h -- parse trees to Query trees (PostgreSQL's parse analysis):
 * names resolved, expressions typed with PostgreSQL's rules for
 * operators, functions, casts and unknown literals, aggregates checked.
 *
 * A ParseState describes one query level: its range table, which
 * entries are visible to column references, and what kind of clause is
 * being analyzed (for "not allowed here" errors).  Sub-queries get a
 * child ParseState whose parent lets correlated references resolve to
 * outer levels (Var.varlevelsup).
 */
#ifndef TDB_PARSER_ANALYZE_H
#define TDB_PARSER_ANALYZE_H

#include "common/base.h"
#include "parser/query.h"
#include "parser/statement.h"

/* Which clause an expression comes from (PostgreSQL's ParseExprKind). */
typedef enum ExprKind {
    EXPR_KIND_NONE,
    EXPR_KIND_SELECT_TARGET,
    EXPR_KIND_WHERE,
    EXPR_KIND_JOIN_ON,
    EXPR_KIND_HAVING,
    EXPR_KIND_GROUP_BY,
    EXPR_KIND_ORDER_BY,
    EXPR_KIND_DISTINCT_ON,
    EXPR_KIND_LIMIT,
    EXPR_KIND_OFFSET,
    EXPR_KIND_VALUES,
    EXPR_KIND_INSERT_TARGET,
    EXPR_KIND_UPDATE_SOURCE,
    EXPR_KIND_RETURNING,
    EXPR_KIND_FROM_FUNCTION,
    EXPR_KIND_FILTER,
    EXPR_KIND_AGG_ARGS,
    EXPR_KIND_COLUMN_DEFAULT,
    EXPR_KIND_CHECK_CONSTRAINT,
    EXPR_KIND_COPY_WHERE,
    EXPR_KIND_INDEX_EXPRESSION, /* ON CONFLICT's inference elements */
    EXPR_KIND_INDEX_PREDICATE,  /* ON CONFLICT (...) WHERE */
} ExprKind;

/* An RTE visible to column references. */
typedef struct NamespaceItem {
    int rtindex;
    bool cols_visible;  /* unqualified column names find it */
    bool rel_visible;   /* qualified names (refname.col) find it */
} NamespaceItem;

typedef struct ParseState {
    Statement *st;
    struct ParseState *parent;
    List *rtable;        /* RangeTblEntry */
    List *namespace;     /* NamespaceItem */
    ExprKind expr_kind;
    bool has_aggs;
    bool has_sublinks;
    bool has_srfs;       /* a set-returning function in the select list */
    List *ctes;          /* CommonTableExprs visible here (WITH) */
    List *with_names;    /* every name of the WITH being analyzed, for
                          * the forward-reference error */
    bool resolve_unknowns; /* unknown-typed output columns become text
                            * (not in set-operation branches) */
    Relation target_rel; /* INSERT/UPDATE/DELETE */
} ParseState;

/* errposition() for a parse-tree location. */
static inline int
parse_errpos(const ParseState *ps, int location)
{
    return stmt_errpos(ps->st, location);
}

/* ----- statements (analyze.c) ----- */

/* Analyze a statement (SELECT, INSERT, UPDATE, DELETE, VALUES). */
Query *tdb_analyze_statement(Statement *st, PgQuery__Node *stmt);

/* Analyze a sub-SELECT at a nested level. */
Query *tdb_analyze_subquery(ParseState *parent, PgQuery__Node *stmt);

/*
 * The OIDs (as ints, each once) of the relations q reads or writes by
 * the names its user wrote -- in q, its subqueries, sublinks, the CTEs
 * it references and views -- but not those a system view reads for the
 * system (checked_relids.c).  Whose privileges the statement needs:
 * the planner keeps them in PlannedStmt.checked_relids.  Allocated in
 * the current memory context.
 */
List *tdb_query_checked_relids(const Query *q);

/*
 * Analyze a CHECK constraint's SQL text against rel's columns (as range
 * table entry 1).  *nvars receives the number of distinct columns it
 * reads and *attno the first (for naming it).
 */
Expr *tdb_analyze_check(Statement *st, Relation rel, const char *sql,
                        int *nvars, int *attno);

/* Column attnum's DEFAULT as an expression of the column's type (a NULL
 * constant when it has none), as INSERT fills left-out columns; for
 * COPY FROM. */
Expr *tdb_analyze_column_default(Statement *st, Relation rel, int attnum);

/* COPY FROM ... WHERE's condition over rel's columns (rel as range-table
 * entry 1): boolean, no subqueries, aggregates or set-returning
 * functions (PostgreSQL's messages). */
Expr *tdb_analyze_copy_where(Statement *st, Relation rel,
                             PgQuery__Node *raw);

/* Check a column DEFAULT at CREATE TABLE (type, no column references),
 * raising errors with positions in the statement; the analyzed
 * expression, coerced to the column's type. */
Expr *tdb_analyze_default(Statement *st, PgQuery__Node *raw, Oid typid,
                          int32 typmod);

/* A stored DEFAULT or CHECK expression's SQL text analyzed over rel's
 * columns, without coercion to a result type (for pg_get_expr). */
Expr *tdb_analyze_rel_expr(Statement *st, Relation rel, const char *sql);
/*
 * The expressions of a comma-separated list over rel's columns (an
 * index's stored expression columns, pg_index.indexprs), analyzed as
 * tdb_analyze_rel_expr does each: *exprs gets a new array of them (current
 * context); returns how many.  st's text becomes the list's.
 */
int tdb_analyze_rel_exprs(Statement *st, Relation rel, const char *sql,
                          Expr ***exprs);

/* parse_clause.c: a RangeVar's table name (a statement's target, COPY's
 * table); schemas other than public are refused (0A000). */
const char *tdb_sql_table_name(const Statement *st,
                               const PgQuery__RangeVar *rv);

/* ruleutils.c: e as pg_get_expr prints it (pretty or not), Vars naming
 * desc's columns; NULL if e has a node kind it cannot print.  In the
 * current memory context. */
char *tdb_deparse_expr(Expr *e, TupleDesc desc, bool pretty);

/*
 * ruleutils.c: column i of index ri on rel as pg_get_indexdef prints it:
 * the column's name (quoted as needed), or e -- the column's expression
 * -- in parentheses unless it prints as a function call.
 */
char *tdb_deparse_index_column(Relation rel, const RelationIndex *ri, int i,
                               Expr *e, bool pretty);

/*
 * What writes need of rel's indexes beyond the catalog (executor/
 * execindex.h): *exprs receives, for every index in rd_indexes order, its
 * expression columns then its predicate, analyzed over rel's columns (rel
 * as range-table entry 1); *keycols one "a, lower(email)" per index, as
 * PostgreSQL's 23505 DETAIL names the key columns.
 */
void tdb_analyze_index_exprs(Statement *st, Relation rel, List **exprs,
                             List **keycols);
/* An expression of those, its Vars moved from range-table entry 1 to
 * entry *(int *)rtindex (a copy; an ExprMutator). */
Node *tdb_vars_to_rtindex(Node *node, void *rtindex);

/* ----- expressions (parse_expr.c) ----- */

Expr *tdb_transform_expr(ParseState *ps, PgQuery__Node *node, ExprKind kind);
/* A condition (WHERE, ON, HAVING): must be boolean (42804). */
Expr *tdb_transform_where(ParseState *ps, PgQuery__Node *node,
                          ExprKind kind, const char *clause);
/* The column label PostgreSQL gives an expression ("?column?", ...). */
const char *tdb_figure_colname(PgQuery__Node *node);

/* ----- types: operators, functions, coercion (parse_oper.c) ----- */

/* Can a value of type `from` become `to` in context (CAST_IMPLICIT /
 * CAST_ASSIGNMENT / CAST_EXPLICIT)? */
bool tdb_can_coerce(Oid from, Oid to, char context);

/*
 * Coerce expr to (to, typmod) in context; NULL if impossible.  Unknown
 * literals are converted at once with the target's input function
 * (22P02 at the literal's position).
 */
Expr *tdb_coerce_to(ParseState *ps, Expr *expr, Oid to, int32 typmod,
                    char context, int location);

/* tdb_coerce_to that raises 42846 "cannot cast type x to y" / 42804
 * "... is of type x but expression is of type y" when impossible. */
Expr *tdb_coerce_or_error(ParseState *ps, Expr *expr, Oid to, int32 typmod,
                          char context, int location);

/* Coerce to boolean for a condition (42804 argument of WHERE must be
 * type boolean, not type integer). */
Expr *tdb_coerce_to_boolean(ParseState *ps, Expr *expr, const char *clause);

/* The common type of exprs (CASE, COALESCE, UNION...): PostgreSQL's
 * select_common_type; raises 42804 "CASE types x and y cannot be
 * matched" with what = "CASE", or returns InvalidOid if what is NULL. */
Oid tdb_select_common_type(ParseState *ps, List *exprs, const char *what);

/*
 * Choose among n overloads of function `name` (candidate i takes
 * cand_nargs[i] arguments of types cand_argtypes[i]) for the argument
 * expressions args, by PostgreSQL's rules; returns the index.  Raises
 * 42883 "function f(types) does not exist" or 42725 "... is not unique".
 */
int tdb_select_overload(ParseState *ps, const char *name, int n,
                        const int16 *cand_nargs,
                        const Oid *const *cand_argtypes, List *args,
                        int location);

/* The same for a call naming some arguments (argnames[k]: the name of
 * call argument k, NULL if positional; argnames NULL: none named). */
int tdb_select_overload_named(ParseState *ps, const char *name, int n,
                              const int16 *cand_nargs,
                              const Oid *const *cand_argtypes, List *args,
                              const char *const *argnames, int location);

/* Resolve an operator call (name, operands; left NULL for prefix). */
Expr *tdb_make_op(ParseState *ps, const char *name, Expr *left, Expr *right,
                  int location);

/* Resolve a function call by name and arguments. */
Expr *tdb_make_func_call(ParseState *ps, const char *name, List *args,
                         int location);
/* ... some of them named (f(a, b => 1)); arguments left out take the
 * function's defaults.  variadic: the call was written f(..., VARIADIC
 * arr) (see parse_oper.c). */
Expr *tdb_make_func_call_named(ParseState *ps, const char *name, List *args,
                               const char *const *argnames, bool variadic,
                               int location);

/* The equality / ordering operators of a type, for GROUP BY, DISTINCT,
 * ORDER BY; errors 42883 if the type has none. */
const OperDesc *tdb_equality_op(ParseState *ps, Oid type, int location);

#endif /* TDB_PARSER_ANALYZE_H */
