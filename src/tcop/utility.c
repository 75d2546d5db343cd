/*
 * utility.c -- statements that are not queries (PostgreSQL's
 * ProcessUtility, for what tupledb has): transaction control (BEGIN,
 * COMMIT, ROLLBACK and their spellings) and SET / SHOW / RESET are the
 * traffic cop's own, because they change the session; every other
 * utility statement is dispatched to commands/ (tables, VACUUM, COPY,
 * roles).
 *
 * Each statement kind has a small function; tdb_tcop_run_utility
 * dispatches on the parse node.  Messages, warnings and command tags are
 * PostgreSQL's.
 */
#include "common/base.h"

#include <pg_query.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "catalog/pg_type.h"
#include "commands/commands.h"
#include "common/elog.h"
#include "parser/typename.h"
#include "tcop/tcop_int.h"
#include "types/builtins.h"

/* ----------------------------------------------------------------------
 * Transaction control
 * ---------------------------------------------------------------------- */

bool
tdb_tcop_is_transaction_end(const PgQuery__Node *stmt)
{
    PgQuery__TransactionStmtKind kind;

    if (stmt->node_case != PG_QUERY__NODE__NODE_TRANSACTION_STMT)
        return false;
    kind = stmt->transaction_stmt->kind;
    return kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT ||
           kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK;
}

static void
no_transaction_warning(void)
{
    ereport(WARNING, errcode(ERRCODE_NO_ACTIVE_SQL_TRANSACTION),
            errmsg("there is no transaction in progress"));
}

static void
begin_block(Statement *st)
{
    Session *s = st->session;

    if (s->explicit_block)
        ereport(WARNING, errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
                errmsg("there is already a transaction in progress"));
    s->explicit_block = true;
    tdb_stmt_complete(st, "BEGIN");
}

static void
end_block(Statement *st, bool commit)
{
    Session *s = st->session;
    bool was_block = s->explicit_block;
    bool committed = false;

    if (!was_block)
        no_transaction_warning();
    s->explicit_block = false;
    if (tdb_xact_state(s->xact) == XACT_STATE_IDLE) {
        tdb_stmt_complete(st, commit ? "COMMIT" : "ROLLBACK");
        return;
    }
    if (commit)
        committed = tdb_xact_commit(s->xact);
    else
        tdb_xact_abort(s->xact);
    tdb_stmt_complete(st, committed ? "COMMIT" : "ROLLBACK");
}

static void
run_transaction_stmt(Statement *st, const PgQuery__TransactionStmt *ts)
{
    switch (ts->kind) {
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START:
        begin_block(st);
        return;
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT:
        end_block(st, true);
        return;
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK:
        end_block(st, false);
        return;
    default:
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("savepoints and prepared transactions are not "
                       "supported yet"),
                errposition(stmt_errpos(st, st->parsed->location)));
    }
}

/* ----------------------------------------------------------------------
 * SET / SHOW / RESET
 * ---------------------------------------------------------------------- */

/*
 * SET TIME ZONE INTERVAL '...' [HOUR TO MINUTE]: the literal read as an
 * interval of that typmod and written back in the current IntervalStyle,
 * as "INTERVAL '...'" (the form PostgreSQL hands to TimeZone).
 */
static bool
append_interval_arg(const Statement *st, const PgQuery__TypeCast *tc,
                    char *buf, Size size)
{
    Size len = strlen(buf);
    Oid typid;
    int32 typmod;
    const PgQuery__Node *arg = tc->arg;

    if (tc->type_name == NULL || arg == NULL ||
        arg->node_case != PG_QUERY__NODE__NODE_A_CONST ||
        arg->a_const->val_case != PG_QUERY__A__CONST__VAL_SVAL)
        return false;
    tdb_sql_resolve_typename(st, tc->type_name, &typid, &typmod);
    if (typid != INTERVALOID)
        return false;
    snprintf(buf + len, size - len, "INTERVAL '%s'",
             tdb_type_output(INTERVALOID,
                             tdb_type_input(INTERVALOID,
                                            arg->a_const->sval->sval,
                                            typmod)));
    return true;
}

/* The text of one SET argument (a constant), appended to buf. */
static void
append_set_arg(const Statement *st, const PgQuery__Node *arg, char *buf,
               Size size)
{
    Size len = strlen(buf);
    const PgQuery__AConst *c;

    if (arg->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) {
        if (append_interval_arg(st, arg->type_cast, buf, size))
            return;
        arg = arg->type_cast->arg;
    }
    if (arg->node_case != PG_QUERY__NODE__NODE_A_CONST)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("SET requires a constant value"),
                errposition(stmt_errpos(st, st->parsed->location)));
    c = arg->a_const;
    switch (c->val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL:
        snprintf(buf + len, size - len, "%d", c->ival->ival);
        break;
    case PG_QUERY__A__CONST__VAL_FVAL:
        snprintf(buf + len, size - len, "%s", c->fval->fval);
        break;
    case PG_QUERY__A__CONST__VAL_SVAL:
        snprintf(buf + len, size - len, "%s", c->sval->sval);
        break;
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
        snprintf(buf + len, size - len, "%s",
                 c->boolval->boolval ? "on" : "off");
        break;
    default:
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("SET requires a constant value"),
                errposition(stmt_errpos(st, c->location)));
    }
}

/* End of the transaction: SET LOCALs end (commit), or every SET of the
 * transaction is undone (abort). */
static void
settings_at_xact_end(XactEvent event, void *arg)
{
    Session *s = arg;

    if (event == XACT_EVENT_COMMIT)
        s->settings = s->session_settings;
    else if (event == XACT_EVENT_ABORT)
        s->settings = s->xact_start_settings;
    else
        return;
    s->settings_saved = false;
    tdb_tcop_sync_typeio(s);
}

/* Before the transaction's first SET: remember how to undo it. */
static void
save_settings(Session *s)
{
    if (s->settings_saved)
        return;
    s->xact_start_settings = s->settings;
    s->session_settings = s->settings;
    s->settings_saved = true;
    tdb_xact_register_callback(s->xact, settings_at_xact_end, s);
}

/* Apply one SET (value NULL: RESET, SET ... TO DEFAULT: the session's
 * default) to the current values and, unless it is LOCAL, to the values
 * that survive the transaction. */
static void
apply_set(Session *s, const char *name, const char *value, bool is_local)
{
    if (value != NULL)
        tdb_guc_set(&s->settings, name, value);
    else
        tdb_guc_copy(&s->settings, &s->reset_settings, name);
    /* the value as computed now (DateStyle keeps parts it does not set) */
    if (!is_local)
        tdb_guc_copy(&s->session_settings, &s->settings, name);
}

/* A setting only a superuser may set: is the session's role one? */
static void
check_set_privilege(Statement *st, const PgQuery__VariableSetStmt *vs)
{
    RoleInfo role;

    if (vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL ||
        vs->name == NULL || !tdb_guc_is_superuser_only(vs->name))
        return;
    tdb_guc_check_privilege(vs->name,
                            tdb_stmt_user_role(st, &role) && role.superuser);
}

static void
run_set(Statement *st, const PgQuery__VariableSetStmt *vs)
{
    Session *s = st->session;
    Settings *settings = &s->settings;
    char value[256] = "";

    if (vs->is_local && !s->explicit_block) {
        ereport(WARNING, errcode(ERRCODE_NO_ACTIVE_SQL_TRANSACTION),
                errmsg("SET LOCAL can only be used in transaction blocks"));
        check_set_privilege(st, vs); /* PostgreSQL checks it all the same */
        tdb_stmt_complete(st, "SET");
        return;
    }
    check_set_privilege(st, vs);
    save_settings(s);

    switch (vs->kind) {
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE:
        for (size_t i = 0; i < vs->n_args; i++) {
            if (i > 0)
                strncat(value, ", ", sizeof(value) - strlen(value) - 1);
            append_set_arg(st, vs->args[i], value, sizeof(value));
        }
        apply_set(s, vs->name, value, vs->is_local);
        break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT:
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET:
        apply_set(s, vs->name, NULL, vs->is_local);
        break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL:
        /* every setting tupledb has is one RESET ALL resets (none of
         * PostgreSQL's GUC_NO_RESET_ALL ones) */
        *settings = s->reset_settings;
        s->session_settings = s->reset_settings;
        break;
    default:
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("this form of SET is not supported yet"),
                errposition(stmt_errpos(st, st->parsed->location)));
    }
    /* the transaction's lock waits use it from now on (RESET ALL too) */
    tdb_xact_set_lock_timeout(st->session->xact, settings->lock_timeout);
    tdb_tcop_sync_typeio(s);
    tdb_stmt_complete(st, vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ||
                                  vs->kind ==
                                      PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL
                              ? "RESET"
                              : "SET");
}

static void
run_show(Statement *st, const PgQuery__VariableShowStmt *vs)
{
    const char *label;
    const char *value;

    if (strcasecmp(vs->name, "all") == 0)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("SHOW ALL is not supported yet"));
    value = tdb_guc_show(&st->session->settings, vs->name, &label);
    tdb_dest_send_text_column(st->dest, label, &value, 1);
    tdb_stmt_complete(st, "SHOW");
}

/* ----------------------------------------------------------------------
 * Dispatch
 * ---------------------------------------------------------------------- */

bool
tdb_tcop_run_utility(Statement *st)
{
    const PgQuery__Node *n = st->parsed->stmt;

    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
        run_transaction_stmt(st, n->transaction_stmt);
        return true;
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
        run_set(st, n->variable_set_stmt);
        return true;
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
        run_show(st, n->variable_show_stmt);
        return true;
    case PG_QUERY__NODE__NODE_CREATE_STMT:
        tdb_sql_create_table(st, n->create_stmt);
        return true;
    case PG_QUERY__NODE__NODE_DROP_STMT:
        tdb_sql_drop(st, n->drop_stmt);
        return true;
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
        tdb_sql_truncate(st, n->truncate_stmt);
        return true;
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
        tdb_sql_alter_table(st, n->alter_table_stmt);
        return true;
    case PG_QUERY__NODE__NODE_VACUUM_STMT:
        tdb_sql_vacuum(st, n->vacuum_stmt);
        return true;
    case PG_QUERY__NODE__NODE_INDEX_STMT:
        tdb_sql_create_index(st, n->index_stmt);
        return true;
    case PG_QUERY__NODE__NODE_RENAME_STMT:
        if (n->rename_stmt->rename_type !=
            PG_QUERY__OBJECT_TYPE__OBJECT_INDEX)
            return tdb_sql_run_role_utility(st); /* ALTER ROLE ... RENAME */
        tdb_sql_rename(st, n->rename_stmt);
        return true;
    case PG_QUERY__NODE__NODE_REINDEX_STMT:
        tdb_sql_reindex(st, n->reindex_stmt);
        return true;
    case PG_QUERY__NODE__NODE_COPY_STMT:
        tdb_sql_copy(st, n->copy_stmt);
        return true;
    default:
        return tdb_sql_run_role_utility(st);
    }
}
