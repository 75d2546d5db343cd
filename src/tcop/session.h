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
#ifndef TDB_TCOP_SESSION_H
#define TDB_TCOP_SESSION_H

#include "common/base.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/database.h"
#include "common/elog.h"
#include "executor/dest.h"
#include "guc/guc.h"

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

/* ----------------------------------------------------------------------
 * Prepared statements and portals (the extended query protocol; the
 * design is in prepare.c's header)
 *
 *   tdb_session_prepare  parse + analyze + plan once, inferring $n types;
 *                        nothing runs
 *   tdb_session_bind     a portal: the statement with parameter values
 *                        (re-planned first if the catalog changed)
 *   tdb_session_execute  up to max_rows rows; resumable
 *   tdb_session_sync     end of the message batch: commit the implicit
 *                        transaction the calls above started
 *
 * Like tdb_session_exec, each call returns false (NULL) after an error,
 * with the error copied into *error, the implicit transaction rolled back
 * or the explicit block failed (25P02 afterwards), and every portal of
 * the transaction dead.  Prepared statements and portals live in the
 * session's memory until dropped (or the session ends).
 * ---------------------------------------------------------------------- */

typedef struct PreparedStatement PreparedStatement;
typedef struct Portal Portal;

/* What a statement takes and returns (owned by the statement or portal;
 * valid until the next bind re-plans it, or it is dropped). */
typedef struct StatementDescription {
    int nparams;
    const Oid *paramtypes;  /* every one resolved (no UNKNOWNOID) */
    TupleDesc result;       /* NULL: the statement returns no rows */
    const Oid *origtbl;     /* per result column: its table, 0 if none */
    const int16 *origcol;   /* and column number */
} StatementDescription;

/*
 * Prepare sql (zero or one statement).  paramtypes[0..nparamtypes-1] are
 * the client's types for $1..; 0 means "infer it".  A $n whose type no
 * context decides is 42P18; several statements are 42601.  dest (may be
 * NULL) receives notices.
 */
PreparedStatement *tdb_session_prepare(Session *s, const char *sql,
                                       const Oid *paramtypes,
                                       int nparamtypes, DestReceiver *dest,
                                       ErrorData *error);
const StatementDescription *tdb_prepared_describe(PreparedStatement *ps);
/* Is it COMMIT/ROLLBACK (allowed in a failed block)?  Empty? */
bool tdb_prepared_is_transaction_end(PreparedStatement *ps);
bool tdb_prepared_is_empty(PreparedStatement *ps);
void tdb_prepared_drop(PreparedStatement *ps);

/* One Bind value: len bytes at data (len -1: NULL), format 0 text, 1
 * binary (the type's recv function; 0A000 if it has none), anything
 * else 22023. */
typedef struct BindValue {
    const char *data;
    int32 len;
    int16 format;
} BindValue;

/* A portal over ps with values[0..nparams-1] (nparams must equal the
 * statement's count).  portal_name ("" for the unnamed portal) is only
 * for the CONTEXT line of an error converting a value. */
Portal *tdb_session_bind(Session *s, PreparedStatement *ps,
                         const char *portal_name, const BindValue *values,
                         int nvalues, DestReceiver *dest, ErrorData *error);
const StatementDescription *tdb_portal_describe(Portal *p);
bool tdb_portal_is_empty(Portal *p);
/* Drop a portal (ending its executor, if it is suspended). */
void tdb_portal_drop(Portal *p);
/* Has the portal's transaction ended (so it cannot run any more)? */
bool tdb_portal_is_dead(Portal *p);

typedef enum PortalRunResult {
    PORTAL_RUN_FAILED,    /* *error set */
    PORTAL_RUN_DONE,      /* dest->complete(tag) was called */
    PORTAL_RUN_SUSPENDED, /* max_rows rows sent, more remain */
    PORTAL_RUN_EMPTY,     /* the statement was empty */
} PortalRunResult;

/*
 * Run p: dest->startup(desc) (every call, if it returns rows; the
 * server's receiver sends no RowDescription here), up to max_rows rows
 * (<= 0: all; a SELECT stops early, other statements always finish --
 * with RETURNING and a limit, the rows are kept and sent a limit at a
 * time, the final tag counting the last call's rows), then
 * dest->complete(tag) when it is done.  A SELECT's tag counts this call's
 * rows.  Running a finished portal again sends its tag with 0 rows.
 */
PortalRunResult tdb_session_execute(Session *s, Portal *p, int64 max_rows,
                                    DestReceiver *dest, ErrorData *error);

/* Sync: commit the implicit transaction, if any.  False if the commit
 * failed (*error set). */
bool tdb_session_sync(Session *s, ErrorData *error);

/* An error raised outside the session (the protocol layer's): end the
 * transaction as any error does. */
void tdb_session_fail(Session *s);

/*
 * The session's user, after authentication (role.c): current_user and
 * session_user, and the role whose privileges count.  Without it a
 * session is the bootstrap superuser (the shell, the C API).
 */
void tdb_session_set_user(Session *s, Oid roleid, const char *name);

/*
 * Read role name from the catalog in a short transaction of the session
 * (which must be idle), for authentication.  out->password is allocated
 * in the current memory context.  False if there is no such role or the
 * read failed (then *error, if given, holds the error; its sqlerrcode
 * is 0 when the role simply does not exist).
 */
bool tdb_session_lookup_role(Session *s, const char *name, RoleInfo *out,
                             ErrorData *error);

/*
 * Give setting name the value value for the whole session, as the
 * settings of a client's startup packet do (PGDATESTYLE, PGTZ,
 * options=-c name=value): the value becomes the session's default, the
 * one RESET, RESET ALL and SET ... TO DEFAULT return to (PostgreSQL's
 * reset value, from source "client").  Only before the session's first
 * transaction.  Raises as SET does (42704, 22023), leaving the setting
 * as it was.
 */
void tdb_session_set_default(Session *s, const char *name, const char *value);

/* The current values (read only: SET goes through the session). */
Settings *tdb_session_settings(Session *s);
Transaction *tdb_session_xact(Session *s);
Database *tdb_session_database(Session *s);

#endif /* TDB_TCOP_SESSION_H */
