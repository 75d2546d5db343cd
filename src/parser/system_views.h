/*
 * system_views.h -- pg_catalog relations and catalog functions defined
 * as SQL over tupledb's stored catalogs (system_views.c's header says
 * how and why).  Used by the analyzer only.
 */
#ifndef TDB_PARSER_SYSTEM_VIEWS_H
#define TDB_PARSER_SYSTEM_VIEWS_H

#include "common/base.h"
#include "parser/analyze.h"

typedef struct SystemView SystemView;

/*
 * The system view a table reference (schema may be NULL or empty) names,
 * or NULL: a user table, or a stored catalog.  pg_catalog comes first in
 * the search path, so an unqualified name is a system view when one
 * exists; inside a view's definition, no name is.
 */
const SystemView *tdb_system_view_lookup(const Statement *st,
                                         const char *schema,
                                         const char *name);

/* The view's name (pg_class, pg_roles, ...). */
const char *tdb_system_view_name(const SystemView *view);

/*
 * Is the relation a view in PostgreSQL too (pg_roles)?  The others are
 * tables there (pg_class, pg_description, ...), which PostgreSQL's
 * messages refusing writes name so: "permission denied for table X".
 */
bool tdb_system_view_is_view(const SystemView *view);

/* Which of the system's relations a name is (tdb_system_relation_kind). */
typedef enum SystemRelKind {
    SYSREL_NONE,  /* a user table, or nothing */
    SYSREL_TABLE, /* a stored catalog (pg_authid), or a system view that
                   * is a table in PostgreSQL (pg_description) */
    SYSREL_VIEW,  /* a system view that is a view there too (pg_roles) */
} SystemRelKind;

/*
 * Which of the system's relations the target of a TRUNCATE or COPY
 * (schema NULL or empty, "pg_catalog", or another) names, for refusing
 * writes with PostgreSQL's messages.  Looks a name that is no system
 * view up in the catalog.
 */
SystemRelKind tdb_system_relation_kind(const Statement *st, const char *schema,
                                       const char *name);

/*
 * The view's definition analyzed as a subquery for ps's statement
 * (allocated in the current memory context).
 */
Query *tdb_system_view_query(ParseState *ps, const SystemView *view);

/*
 * If fc (whose function name, without schema, is name) calls a catalog
 * function defined in SQL, the raw expression to analyze in its place:
 * the body with the call's arguments substituted (allocated in the
 * current memory context; shares the argument trees).  NULL otherwise.
 */
PgQuery__Node *tdb_system_function_expand(const PgQuery__FuncCall *fc,
                                          const char *name);

/*
 * The raw expression expr (SQL text over $1..$nargs) with each $n
 * replaced by a copy of args[n - 1]; the template's own locations are
 * cleared.  For analyzing one construct as another (parse_expr.c's
 * x op ANY (array)).  In the current memory context.
 */
PgQuery__Node *tdb_sql_expand_template(const char *expr,
                                       PgQuery__Node **args, int nargs);

#endif /* TDB_PARSER_SYSTEM_VIEWS_H */
