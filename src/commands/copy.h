/*
 * copy.h -- the COPY statement (copy.c, copy_from.c, copy_to.c): rows
 * between a table (or a query's result) and the client's COPY data
 * stream (executor/dest.h's CopyChannel) or a server-side file, in
 * PostgreSQL's text and CSV formats.
 */
#ifndef TDB_COMMANDS_COPY_H
#define TDB_COMMANDS_COPY_H

#include "common/base.h"
#include "tcop/tcop_int.h"

/* Run COPY (utility.c dispatches here); sends the tag "COPY n". */
void tdb_sql_copy(Statement *st, const PgQuery__CopyStmt *cs);

#endif /* TDB_COMMANDS_COPY_H */
