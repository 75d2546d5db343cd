/*
 * explain.h -- EXPLAIN [ANALYZE] (explain.c).
 */
#ifndef TDB_COMMANDS_EXPLAIN_H
#define TDB_COMMANDS_EXPLAIN_H

#include "common/base.h"
#include "tcop/tcop_int.h"

/* Run EXPLAIN: plan (and with ANALYZE run) the statement, send the
 * "QUERY PLAN" rows. */
void tdb_sql_explain(Statement *st, PgQuery__ExplainStmt *ex);

#endif /* TDB_COMMANDS_EXPLAIN_H */
