/*
 * commands_int.h -- what the files of commands/ share and nothing
 * outside them uses: the query statements that execute.c hands on.
 */
#ifndef TDB_COMMANDS_COMMANDS_INT_H
#define TDB_COMMANDS_COMMANDS_INT_H

#include "common/base.h"
#include "commands/commands.h"

/* explain.c: run EXPLAIN -- plan (and with ANALYZE run) the statement,
 * send the "QUERY PLAN" rows. */
void tdb_sql_explain(Statement *st, PgQuery__ExplainStmt *ex);

/* createas.c: run st if it is CREATE TABLE AS or SELECT INTO; false if
 * it is not. */
bool tdb_sql_run_create_as(Statement *st);

/* tablecmds.c: the relation name of one DROP object (a list of name
 * parts; schemas other than public refused). */
const char *tdb_sql_drop_object_name(const Statement *st,
                                     const PgQuery__Node *object);

/* node with the Vars of the table (range-table entry 1) reading the row
 * slot (SCAN_VAR): a copy (copy_from.c). */
struct Node *tdb_sql_vars_to_scan(struct Node *node);

/* rel's indexes opened for writing by estate (executor/execindex.h), the
 * expressions analyzed from the catalog's text (indexcmds.c); NULL when
 * rel has none. */
struct IndexWriters *tdb_sql_open_indexes(Statement *st, struct EState *estate,
                                          Relation rel);

/*
 * indexcmds.c: add PRIMARY KEY / UNIQUE constraint c to rel (locked
 * exclusively): its index (named as PostgreSQL names it unless c names
 * it), constraint row, NOT NULL for a primary key's columns, and the
 * index's contents.  column: the column of a column constraint, or NULL
 * (c->keys).  altering: ALTER TABLE (not CREATE TABLE), for its
 * messages.  taken: index names chosen earlier in the statement.
 */
void tdb_sql_add_key_constraint(Statement *st, Relation rel,
                                const PgQuery__Constraint *c,
                                const char *column, bool altering,
                                List **taken);
#endif /* TDB_COMMANDS_COMMANDS_INT_H */
