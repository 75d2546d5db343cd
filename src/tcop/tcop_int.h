/*
 * tcop_int.h -- what tcop/'s files share: the Session struct, the
 * statement loop's steps, portals and the statement timer.  Nothing
 * outside tcop/ includes it: the layers below see a session only through
 * a Statement (parser/statement.h), the server and the C API through
 * tcop/session.h.
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
#include "parser/statement.h"
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
    /* the values RESET and SET ... TO DEFAULT return to (PostgreSQL's
     * reset values): the built-in defaults, with what the client set
     * when it connected (tdb_session_set_default) */
    Settings reset_settings;
    /* SET is transactional (guc.h): the values at the transaction's
     * start (restored at abort) and the values without this
     * transaction's SET LOCALs (kept at commit), valid while
     * settings_saved */
    Settings xact_start_settings;
    Settings session_settings;
    bool settings_saved;
    /* what the types layer reads (types/typeio.h): the type I/O part of
     * settings, kept in step by tdb_tcop_sync_typeio, and the start times
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
    /* who the session is (parser/statement.h): set by the server after
     * authentication (tdb_session_set_user); an embedded session acts
     * as the bootstrap superuser */
    SessionUser user;
};

/*
 * A Statement of session s for the statement parsed (of the string
 * sql), sending to dest; params, system_view_depth unset.
 */
Statement tdb_tcop_statement(Session *s, const char *sql,
                             const ParsedStatement *parsed, DestReceiver *dest);

/* utility.c: run st if it is a utility statement; false if it is not. */
bool tdb_tcop_run_utility(Statement *st);

/* session.c: run one statement of a script (checks, implicit
 * transaction, utility or query, pins, command counter). */
void tdb_tcop_run_statement(Statement *st);
/* Start a transaction if none is in progress. */
void tdb_tcop_ensure_transaction(Session *s);
/* Commit the implicit transaction (not inside BEGIN ... COMMIT). */
void tdb_tcop_finish_implicit_transaction(Session *s);
/* The notice hook that forwards to a DestReceiver (arg); NULL dest
 * drops notices. */
void tdb_tcop_forward_notice(const ErrorData *edata, void *arg);
/* The statement boundary's error recovery (session.c's header). */
void tdb_tcop_recover_from_error(Session *s);
/* Arm the session's statement timer with the session's statement_timeout
 * (if not armed already, and if the setting is not 0). */
void tdb_tcop_timeout_start(Session *s);
/* Disarm it. */
void tdb_tcop_timeout_stop(Session *s);

/* prepare.c: the session's portals when its transaction ends or it is
 * destroyed: end the executors of portals whose transaction is over
 * (releasing their pins); with all = true, of every portal. */
void tdb_tcop_close_dead_portals(Session *s, bool all);
/* An error released every pin: the running portals' executors are gone
 * without being ended. */
void tdb_tcop_forget_running_portals(Session *s);

/* Is st a statement allowed in a failed transaction block? */
bool tdb_tcop_is_transaction_end(const PgQuery__Node *stmt);

/* regnames.c: point s->typeio.catalog at the session's catalog. */
void tdb_tcop_init_catalog_lookup(Session *s);
/* regnames.c: a stored DEFAULT / CHECK expression of relation relid
 * printed as pg_get_expr prints it (current context). */
char *tdb_tcop_deparse_stored_expr(Session *s, const char *sql, Oid relid,
                                   bool pretty);
/* indexdefs.c: pg_get_indexdef's and pg_get_constraintdef's text
 * (current context), or NULL for no such index, column or constraint. */
char *tdb_tcop_index_def(Session *s, Oid indexoid, int colno, bool pretty);
char *tdb_tcop_constraint_def(Session *s, Oid conoid, bool pretty);

/* session.c: copy the settings' type I/O part into s->typeio, and
 * max_stack_depth into the thread's limit (common/stack_depth.h), after
 * anything changes s->settings: SET, RESET, the end of a transaction. */
void tdb_tcop_sync_typeio(Session *s);

#endif /* TDB_TCOP_TCOP_INT_H */
