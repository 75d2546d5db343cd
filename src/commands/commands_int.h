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

#endif /* TDB_COMMANDS_COMMANDS_INT_H */
