/*
 * session.h -- one session on a database (one connection, one C API
 * handle): its transaction state, its settings, and the statement loop
 * that runs a string of SQL the way PostgreSQL's simple query protocol
 * does.
 *
 * tdb_session_exec(s, text, dest):
 *   - parses the whole string first (a syntax error anywhere runs
 *     nothing);
 *   - runs the statements in order; statements outside an explicit
 *     transaction block (BEGIN ... COMMIT) share one implicit
 *     transaction that commits at the end of the string;
 *   - stops at the first error: the implicit transaction is rolled back,
 *     an explicit block becomes failed (25P02 for everything but
 *     ROLLBACK/COMMIT until it ends), and the error is returned.
 * Every statement runs in a fresh memory context, reset afterwards;
 * error recovery also releases buffer pins and relation locks, so a
 * failed statement leaves nothing behind.
 */
#ifndef TDB_SQL_SESSION_H
#define TDB_SQL_SESSION_H

#include "common/base.h"
#include "access/xact.h"
#include "catalog/database.h"
#include "common/elog.h"
#include "executor/dest.h"
#include "sql/guc.h"

typedef struct Session Session;

/* A new session on db, in a new child context of parent (NULL: current). */
Session *tdb_session_create(Database *db, MemoryContext parent);

/* End the session, rolling back what is in progress. */
void tdb_session_destroy(Session *s);

/*
 * Run text (see above).  Returns true if every statement succeeded.  On
 * an error returns false and copies the error into *error (its
 * cursorpos counts characters of text, 1-based); error may be NULL.
 */
bool tdb_session_exec(Session *s, const char *text, DestReceiver *dest,
                      ErrorData *error);

/* 'I' idle, 'T' in a transaction block, 'E' in a failed block. */
char tdb_session_transaction_status(Session *s);

/* Ask the running statement to stop (57014); async-signal-safe. */
void tdb_session_cancel(Session *s);

/* Raise 57014 if a cancel was requested (the executor's check). */
void tdb_session_check_interrupts(Session *s);

Settings *tdb_session_settings(Session *s);
Transaction *tdb_session_xact(Session *s);
Database *tdb_session_database(Session *s);

#endif /* TDB_SQL_SESSION_H */
