/*
 * commands.h -- the statements commands/ runs, as tcop/ calls them: the
 * queries (SELECT, INSERT, UPDATE, DELETE, EXPLAIN, CREATE TABLE AS),
 * the table statements, VACUUM / ANALYZE, COPY and the role statements;
 * and the two steps every query path shares (planning a statement and
 * the EState it runs with), which tcop/'s portals use too.
 *
 * Every function runs inside the statement boundary (tcop/session.c): it
 * raises errors with ereport and leaves the cleanup to the boundary, and
 * it ends by handing the command tag to st->dest (tdb_stmt_complete).
 */
#ifndef TDB_COMMANDS_COMMANDS_H
#define TDB_COMMANDS_COMMANDS_H

#include "common/base.h"
#include "executor/executor.h"
#include "parser/statement.h"

/* ----- queries (execute.c) ----- */

/* Run st if it is a query (SELECT, INSERT, UPDATE, DELETE, EXPLAIN,
 * CREATE TABLE AS, SELECT INTO); false if it is not. */
bool tdb_sql_run_query(Statement *st);
/* Analyze and plan a query statement (in the current memory context). */
PlannedStmt *tdb_sql_plan_statement(Statement *st, PgQuery__Node *node);
/* An EState for running stmt: the statement's snapshot, taken now (after
 * analysis took the relation locks), the session's settings, its
 * database's directory for temporary files, and the session's cancel
 * flag as the interrupt check.  Free with tdb_exec_free_estate. */
EState *tdb_sql_create_estate(Statement *st, PlannedStmt *stmt);
/*
 * The privileges stmt needs, checked as PostgreSQL checks its range
 * table when a statement starts: 42501 "permission denied for table X"
 * when stmt names a catalog only superusers may read (pg_authid) and the
 * session's role is not one.  Run by tdb_sql_create_estate, plain
 * EXPLAIN and the extended protocol's Bind, each time, so a role that
 * lost SUPERUSER cannot run a plan made before.
 */
void tdb_sql_check_privileges(Statement *st, const PlannedStmt *stmt);
/* The command tag of a query that processed n rows ("SELECT n",
 * "INSERT 0 n", "UPDATE n", "DELETE n"), into buf. */
void tdb_sql_command_tag(char *buf, Size size, CmdType command,
                         uint64 processed);
/* After an error at the statement boundary: forget the query that was
 * running (its detoast cache). */
void tdb_sql_forget_running_query(void);

/* ----- tables (tablecmds.c) ----- */

void tdb_sql_create_table(Statement *st, const PgQuery__CreateStmt *cs);
void tdb_sql_alter_table(Statement *st, const PgQuery__AlterTableStmt *as);
void tdb_sql_drop(Statement *st, const PgQuery__DropStmt *ds);
void tdb_sql_truncate(Statement *st, const PgQuery__TruncateStmt *ts);

/* indexcmds.c: CREATE INDEX, DROP INDEX, ALTER INDEX ... RENAME TO,
 * REINDEX */
void tdb_sql_create_index(Statement *st, const PgQuery__IndexStmt *is);
void tdb_sql_drop_index(Statement *st, const PgQuery__DropStmt *ds);
void tdb_sql_rename(Statement *st, const PgQuery__RenameStmt *rs);
void tdb_sql_reindex(Statement *st, const PgQuery__ReindexStmt *rs);

/* ----- VACUUM and ANALYZE (vacuumcmds.c) ----- */

void tdb_sql_vacuum(Statement *st, const PgQuery__VacuumStmt *vs);

/* ----- COPY (copy.c, copy_from.c, copy_to.c) ----- */

/*
 * Rows between a table (or a query's result) and the client's COPY data
 * stream (executor/dest.h's CopyChannel) or a server-side file, in
 * PostgreSQL's text and CSV formats; sends the tag "COPY n".
 */
void tdb_sql_copy(Statement *st, const PgQuery__CopyStmt *cs);

/* ----- roles (role.c) ----- */

/* Run st if it is CREATE / ALTER / DROP ROLE (USER, GROUP); false if
 * not. */
bool tdb_sql_run_role_utility(Statement *st);

#endif /* TDB_COMMANDS_COMMANDS_H */
