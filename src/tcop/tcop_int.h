/*
 * sql_int.h -- what the sql/ layer's files share: the session struct and
 * the context a statement runs in.
 */
#ifndef TDB_TCOP_TCOP_INT_H
#define TDB_TCOP_TCOP_INT_H

#include "common/base.h"

#include <signal.h>
#include <stdatomic.h>

_Static_assert(ATOMIC_INT_LOCK_FREE == 2,
               "cancel_pending is set from signal handlers");

#include <time.h>

#include "executor/dest.h"
#include "guc/guc.h"
#include "parser/parser.h"
#include "tcop/session.h"

/*
 * A session's statement_timeout timer (stmt_timeout.c).  Embedded in the
 * Session; next, in_list, deadline and flag are under stmt_timeout.c's
 * lock, active belongs to the session's thread.
 */
typedef struct StatementTimer {
    struct StatementTimer *next; /* the armed list */
    atomic_int *flag;            /* the session's cancel_pending */
    struct timespec deadline;    /* CLOCK_MONOTONIC */
    bool in_list;                /* armed and not yet fired */
    bool active;                 /* armed and not yet disarmed */
} StatementTimer;

/*
 * Arm t to store XACT_CANCEL_STATEMENT_TIMEOUT into *flag timeout_ms from
 * now; nothing if t is already active (PostgreSQL keeps a running
 * statement timeout across the messages of an extended-protocol batch)
 * or timeout_ms <= 0.  Raises 53000 if the timer thread cannot start.
 */
void tdb_stmt_timer_arm(StatementTimer *t, atomic_int *flag, int timeout_ms);
/* Disarm t (nothing if not active) and clear a timeout it fired that
 * nobody saw; a user's cancel request stays. */
void tdb_stmt_timer_disarm(StatementTimer *t);

struct Session {
    Database *db;
    Transaction *xact;
    MemoryContext cxt;       /* the session's life */
    MemoryContext exec_cxt;  /* one tdb_session_exec call: the parse tree */
    MemoryContext stmt_cxt;  /* one statement */
    Settings settings;
    /* SET is transactional (guc.h): the values at the transaction's
     * start (restored at abort) and the values without this
     * transaction's SET LOCALs (kept at commit), valid while
     * settings_saved */
    Settings xact_start_settings;
    Settings session_settings;
    bool settings_saved;
    /* what the types layer reads (types/typeio.h): the type I/O part of
     * settings, kept in step by tdb_sql_sync_typeio, and the start times
     * of the transaction and the current command string; installed as
     * the thread's current TypeIOSettings while the session runs */
    TypeIOSettings typeio;
    CatalogLookup catalog_lookup; /* typeio.catalog (regnames.c) */
    bool explicit_block;     /* inside BEGIN ... COMMIT/ROLLBACK */
    /* set by tdb_session_cancel from a signal handler or another
     * thread (the server's cancel requests); lock-free */
    atomic_int cancel_pending;  /* XACT_CANCEL_* (access/xact.h) */
    /* statement_timeout: armed at a statement's start (session.c,
     * prepare.c), disarmed at its end, its failure, or Sync */
    StatementTimer stmt_timer;
    /* prepare.c: every portal, and the transaction count that tells a
     * portal whether the transaction it started in is still going */
    struct Portal *portals;
    uint64 xact_epoch;        /* +1 at every transaction end */
    bool epoch_armed;         /* the callback is registered for the
                               * current transaction */
    int nrunning;             /* portals holding an executor (pins) */
    /* the session's role (role.c): set by the server after
     * authentication; InvalidOid in an embedded session, which acts as
     * the bootstrap superuser (user_name then filled at first use) */
    Oid user_oid;
    char user_name[NAMEDATALEN];
};

/*
 * The $n of a statement being prepared (PostgreSQL's variable parameter
 * analysis): types[i] is $i+1's type -- given by the client, deduced
 * from the first context that coerced it, UNKNOWNOID while referenced
 * but not yet deduced, InvalidOid while not referenced.  $n beyond
 * ntypes grows the array (allocated in the analysis' memory context).
 */
typedef struct ParamTypes {
    Oid *types;
    int ntypes;
} ParamTypes;

/* One statement being run. */
typedef struct Statement {
    Session *session;
    const char *text;            /* the whole string (positions count
                                  * from its start) */
    const ParsedStatement *parsed;
    DestReceiver *dest;
    ParamTypes *params;          /* preparing: $n allowed; NULL: a $n is
                                  * 42P02 */
    int system_view_depth;       /* > 0 while analyzing a system view's
                                  * definition (system_views.c) */
} Statement;

/*
 * errposition() argument for a parse-tree location (a byte offset in
 * st->text, -1 for none).
 */
static inline int
stmt_errpos(const Statement *st, int location)
{
    return tdb_sql_char_position(st->text, location);
}

struct PlannedStmt;
struct EState;

/* execute.c: run st if it is a query (SELECT, INSERT, UPDATE, DELETE,
 * EXPLAIN); false if it is not. */
bool tdb_sql_run_query(Statement *st);
/* Analyze and plan a query statement. */
struct PlannedStmt *tdb_sql_plan_statement(Statement *st,
                                           PgQuery__Node *node);
/* An EState with the statement's snapshot, the session's settings and
 * its database's directory for temporary files. */
struct EState *tdb_sql_create_estate(Statement *st, struct PlannedStmt *stmt);
/* After an error at the statement boundary: forget the query that was
 * running (its detoast cache). */
void tdb_sql_forget_running_query(void);

/* createas.c: run st if it is CREATE TABLE AS or SELECT INTO; false if
 * it is not. */
bool tdb_sql_run_create_as(Statement *st);

/* A RangeVar's table name; schemas other than public are refused. */
const char *tdb_sql_table_name(const Statement *st,
                               const PgQuery__RangeVar *rv);

/*
 * utility.c: the attcompression (toast/toast.h) of a column of type typid
 * from a method name ("pglz", "lz4", "default" or NULL), as CREATE TABLE's
 * COMPRESSION clause and ALTER TABLE ... SET COMPRESSION take it; raises
 * PostgreSQL's 0A000 for a type that cannot be compressed and 22023 for
 * an unknown method.
 */
char tdb_sql_column_compression(Oid typid, const char *name);

/* role.c: run st if it is CREATE / ALTER / DROP ROLE; false if not. */
bool tdb_sql_run_role_utility(Statement *st);
/* role.c: the session's user name (current_user, session_user). */
const char *tdb_sql_session_user_name(Session *s);

/* utility.c: run st if it is a utility statement; false if it is not. */
bool tdb_sql_run_utility(Statement *st);
/* utility.c: the statement's command tag to its receiver. */
void tdb_sql_complete(Statement *st, const char *tag);

/* commands/tablecmds.c: CREATE TABLE, ALTER TABLE, DROP TABLE, TRUNCATE. */
void tdb_sql_create_table(Statement *st, const PgQuery__CreateStmt *cs);
void tdb_sql_alter_table(Statement *st, const PgQuery__AlterTableStmt *as);
void tdb_sql_drop(Statement *st, const PgQuery__DropStmt *ds);
void tdb_sql_truncate(Statement *st, const PgQuery__TruncateStmt *ts);
/* commands/vacuumcmds.c: VACUUM and ANALYZE. */
void tdb_sql_vacuum(Statement *st, const PgQuery__VacuumStmt *vs);

/* Send a one-column result of text values (SHOW). */
void tdb_sql_send_text_result(Statement *st, const char *label,
                              const char *const *values, int nvalues);

/* session.c: run one statement of a script (checks, implicit
 * transaction, utility or query, pins, command counter). */
void tdb_sql_run_statement(Statement *st);
/* Start a transaction if none is in progress. */
void tdb_sql_ensure_transaction(Session *s);
/* Commit the implicit transaction (not inside BEGIN ... COMMIT). */
void tdb_sql_finish_implicit_transaction(Session *s);
/* The notice hook that forwards to a DestReceiver (arg); NULL dest
 * drops notices. */
void tdb_sql_forward_notice(const ErrorData *edata, void *arg);
/* The statement boundary's error recovery (session.c's header). */
void tdb_sql_recover_from_error(Session *s);
/* Arm the session's statement timer with the session's statement_timeout
 * (if not armed already, and if the setting is not 0). */
void tdb_sql_timeout_start(Session *s);
/* Disarm it. */
void tdb_sql_timeout_stop(Session *s);

/* prepare.c: the session's portals when its transaction ends or it is
 * destroyed: end the executors of portals whose transaction is over
 * (releasing their pins); with all = true, of every portal. */
void tdb_sql_close_dead_portals(Session *s, bool all);
/* An error released every pin: the running portals' executors are gone
 * without being ended. */
void tdb_sql_forget_running_portals(Session *s);

/* Is st a statement allowed in a failed transaction block? */
bool tdb_sql_is_transaction_end(const PgQuery__Node *stmt);

/* regnames.c: point s->typeio.catalog at the session's catalog. */
void tdb_sql_init_catalog_lookup(Session *s);

/* session.c: copy the settings' type I/O part into s->typeio (after
 * anything changes s->settings: SET, RESET, the end of a transaction). */
void tdb_sql_sync_typeio(Session *s);

#endif /* TDB_TCOP_TCOP_INT_H */
