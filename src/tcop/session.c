/*
 * session.c -- a session and its statement loop (session.h).
 *
 * The statement boundary is here: each statement runs inside TDB_TRY in
 * its own memory context; on an error the handler
 *   1. releases every buffer pin and content lock the thread holds,
 *   2. ends the transaction -- aborted if implicit, failed (25P02 until
 *      ROLLBACK) if inside an explicit block -- which also releases the
 *      writer lock and relation locks,
 *   3. resets the statement's memory,
 * and the error goes back to the caller.  Nothing a failed statement
 * wrote can become visible: its rows carry an xid that never commits.
 *
 * Type I/O settings: while tdb_session_exec runs, the session's
 * TypeIOSettings is the thread's current one (types/typeio.h), so that
 * date/time, float and bytea I/O see this session's TimeZone, DateStyle,
 * ...  Its times: the command string's arrival (statement_timestamp(),
 * taken once per call as PostgreSQL takes it once per message), which
 * also becomes the start of a transaction that a statement of the string
 * begins (now()).  Its settings part is refreshed from s->settings
 * before each statement and whenever SET, RESET or a transaction's end
 * changes them (tdb_tcop_sync_typeio).
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>

#include "commands/commands.h"
#include "common/elog.h"
#include "common/stack_depth.h"
#include "common/utf8.h"
#include "storage/bufmgr.h"
#include "tcop/tcop_int.h"

Session *
tdb_session_create(Database *db, MemoryContext parent)
{
    MemoryContext cxt = tdb_aset_create(
        parent != NULL ? parent : tdb_current_mcxt, "Session",
        ALLOCSET_DEFAULT_SIZES);
    Session *s = tdb_mcxt_alloc_zero(cxt, sizeof(Session));

    s->db = db;
    s->cxt = cxt;
    s->exec_cxt = tdb_aset_create(cxt, "MessageContext", ALLOCSET_DEFAULT_SIZES);
    s->stmt_cxt =
        tdb_aset_create(cxt, "PortalContext", ALLOCSET_DEFAULT_SIZES);
    s->xact = tdb_database_session(db, cxt);
    tdb_guc_init(&s->settings, tdb_tzcache_create(cxt));
    s->reset_settings = s->settings;
    s->typeio = tdb_typeio_defaults;
    tdb_tcop_sync_typeio(s);
    tdb_tcop_init_catalog_lookup(s);
    return s;
}

void
tdb_session_destroy(Session *s)
{
    tdb_tcop_timeout_stop(s);
    tdb_tcop_close_dead_portals(s, true);
    tdb_xact_abort(s->xact);
    tdb_mcxt_delete(s->cxt);
}

char
tdb_session_transaction_status(Session *s)
{
    if (tdb_xact_state(s->xact) == XACT_STATE_FAILED)
        return 'E';
    return s->explicit_block ? 'T' : 'I';
}

void
tdb_session_cancel(Session *s)
{
    atomic_store(&s->cancel_pending, 1);
}

void
tdb_session_check_interrupts(Session *s)
{
    tdb_xact_check_cancel(&s->cancel_pending);
}

void
tdb_tcop_timeout_start(Session *s)
{
    tdb_stmt_timer_arm(&s->stmt_timer, &s->cancel_pending,
                       s->settings.statement_timeout);
}

void
tdb_tcop_timeout_stop(Session *s)
{
    tdb_stmt_timer_disarm(&s->stmt_timer);
}

void
tdb_session_set_default(Session *s, const char *name, const char *value)
{
    Assert(!s->settings_saved);
    tdb_guc_set(&s->settings, name, value);
    /* the value as computed (DateStyle's parts not named are kept) */
    tdb_guc_copy(&s->reset_settings, &s->settings, name);
    tdb_tcop_sync_typeio(s);
}

Settings *
tdb_session_settings(Session *s)
{
    return &s->settings;
}

Transaction *
tdb_session_xact(Session *s)
{
    return s->xact;
}

Database *
tdb_session_database(Session *s)
{
    return s->db;
}

void
tdb_tcop_sync_typeio(Session *s)
{
    tdb_guc_typeio(&s->settings, &s->typeio);
    tdb_stack_depth_set(s->settings.max_stack_depth);
}

/* ----------------------------------------------------------------------
 * Who the session is
 * ---------------------------------------------------------------------- */

void
tdb_session_set_user(Session *s, Oid roleid, const char *name)
{
    s->user.oid = roleid;
    snprintf(s->user.name, sizeof(s->user.name), "%s", name);
}

bool
tdb_session_lookup_role(Session *s, const char *name, RoleInfo *out,
                        ErrorData *error)
{
    volatile bool found = false;
    MemoryContext cxt = tdb_current_mcxt;

    TDB_TRY();
    {
        tdb_xact_begin(s->xact);
        found = tdb_catalog_role_lookup(s->xact, name, out);
        if (found && out->password != NULL)
            out->password = tdb_mcxt_strdup(cxt, out->password);
        tdb_xact_commit(s->xact);
    }
    TDB_CATCH();
    {
        if (error != NULL)
            *error = *tdb_error_current();
        tdb_error_flush();
        tdb_tcop_recover_from_error(s);
        return false;
    }
    TDB_END_TRY();
    if (error != NULL)
        error->sqlerrcode = 0;
    return found;
}

/* ----------------------------------------------------------------------
 * The statement loop
 * ---------------------------------------------------------------------- */

Statement
tdb_tcop_statement(Session *s, const char *sql, const ParsedStatement *parsed,
                   DestReceiver *dest)
{
    Statement st = {
        .session = s,
        .db = s->db,
        .xact = s->xact,
        .settings = &s->settings,
        .user = &s->user,
        .cancel_flag = &s->cancel_pending,
        .in_transaction_block = s->explicit_block,
        .text = sql,
        .parsed = parsed,
        .dest = dest,
    };

    return st;
}

/* Forward NOTICE/WARNING reports to the statement's receiver. */
void
tdb_tcop_forward_notice(const ErrorData *edata, void *arg)
{
    DestReceiver *dest = arg;

    if (dest != NULL && dest->notice != NULL)
        dest->notice(dest, edata);
}

/* Start a transaction for a statement if none is in progress. */
void
tdb_tcop_ensure_transaction(Session *s)
{
    if (tdb_xact_state(s->xact) == XACT_STATE_IDLE) {
        tdb_xact_begin(s->xact);
        tdb_xact_set_lock_timeout(s->xact, s->settings.lock_timeout);
        tdb_xact_set_cancel_flag(s->xact, &s->cancel_pending);
        /* now() is the arrival of the command that began it */
        s->typeio.xact_start = s->typeio.stmt_start;
    }
}

/* A statement must give back every buffer pin it took; one that does
 * not is a bug worth a warning (and the pins are released). */
static void
check_pins_released(Session *s)
{
    int leaked;

    /* a suspended portal of the transaction keeps its scan's pin */
    tdb_tcop_close_dead_portals(s, false);
    if (s->nrunning > 0)
        return;
    leaked = tdb_buf_pins_held();

    if (leaked > 0) {
        (void)tdb_buf_release_all_pins_of_thread();
        elog(WARNING, "a statement left %d buffers pinned", leaked);
    }
}

void
tdb_tcop_run_statement(Statement *st)
{
    Session *s = st->session;

    if (tdb_xact_state(s->xact) == XACT_STATE_FAILED &&
        !tdb_tcop_is_transaction_end(st->parsed->stmt))
        tdb_xact_check_not_failed(s->xact); /* raises 25P02 */
    if (!tdb_tcop_is_transaction_end(st->parsed->stmt))
        tdb_tcop_ensure_transaction(s);
    tdb_tcop_sync_typeio(s);
    if (!tdb_tcop_run_utility(st) && !tdb_sql_run_query(st))
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("%s is not supported yet",
                       tdb_sql_node_name(st->parsed->stmt)),
                errposition(stmt_errpos(st, st->parsed->location)));
    check_pins_released(s);
    if (tdb_xact_state(s->xact) == XACT_STATE_IN_PROGRESS)
        tdb_xact_command_counter_increment(s->xact);
}

/* Error recovery at the statement boundary (see the file header). */
void
tdb_tcop_recover_from_error(Session *s)
{
    tdb_tcop_timeout_stop(s);
    /* no query runs now: forget a detoast cache the error left active */
    tdb_sql_forget_running_query();
    (void)tdb_buf_release_all_pins_of_thread();
    tdb_tcop_forget_running_portals(s);
    if (s->explicit_block)
        tdb_xact_fail(s->xact);
    else
        tdb_xact_abort(s->xact);
    atomic_store(&s->cancel_pending, 0);
}

/* Commit the implicit transaction at the end of a string. */
void
tdb_tcop_finish_implicit_transaction(Session *s)
{
    if (!s->explicit_block &&
        tdb_xact_state(s->xact) == XACT_STATE_IN_PROGRESS)
        tdb_xact_commit(s->xact);
}

bool
tdb_session_exec(Session *s, const char *sql, DestReceiver *dest,
                 ErrorData *error)
{
    MemoryContext old = tdb_mcxt_switch_to(s->exec_cxt);
    void *old_arg;
    ErrorNoticeHook old_hook =
        tdb_error_set_notice_hook(tdb_tcop_forward_notice, dest, &old_arg);
    const TypeIOSettings *old_typeio = tdb_typeio_install(&s->typeio);
    volatile bool ok = true;
    StackDepthSave stack;

    tdb_stack_depth_enter(&stack, s->settings.max_stack_depth);
    atomic_store(&s->cancel_pending, 0); /* a cancel that came while idle is stale */
    s->typeio.stmt_start = tdb_typeio_clock();
    tdb_tcop_sync_typeio(s); /* settings may have changed between calls */
    TDB_TRY();
    {
        ParsedScript *script;

        /* PostgreSQL checks a query string's encoding as it arrives:
         * 22021 before parsing, with no position */
        tdb_utf8_check(sql, strlen(sql));
        /*
         * statement_timeout as PostgreSQL 13+ applies it to a simple
         * query string: from the start (parsing included) to the end of
         * each statement separately, with the value in force when the
         * statement starts.
         */
        tdb_tcop_timeout_start(s);
        script = tdb_sql_parse(sql);
        for (int i = 0; i < script->nstatements; i++) {
            Statement st =
                tdb_tcop_statement(s, sql, &script->statements[i], dest);

            tdb_tcop_timeout_start(s);
            tdb_mcxt_switch_to(s->stmt_cxt);
            tdb_tcop_run_statement(&st);
            tdb_mcxt_switch_to(s->exec_cxt);
            tdb_mcxt_reset(s->stmt_cxt);
            tdb_tcop_timeout_stop(s);
        }
        tdb_tcop_timeout_stop(s); /* an empty string */
        tdb_tcop_finish_implicit_transaction(s);
        tdb_tcop_close_dead_portals(s, false);
    }
    TDB_CATCH();
    {
        if (error != NULL)
            *error = *tdb_error_current();
        tdb_error_flush();
        tdb_mcxt_switch_to(s->exec_cxt);
        tdb_tcop_recover_from_error(s);
        ok = false;
    }
    TDB_END_TRY();

    tdb_error_set_notice_hook(old_hook, old_arg, NULL);
    tdb_typeio_install(old_typeio);
    tdb_stack_depth_leave(&stack);
    tdb_mcxt_switch_to(old);
    tdb_mcxt_reset(s->stmt_cxt);
    tdb_mcxt_reset(s->exec_cxt);
    return ok;
}
