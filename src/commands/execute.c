/*
 * execute.c -- running a query statement: analyze, plan, take the
 * statement's snapshot, execute, report the command tag.  EXPLAIN comes
 * through here too (explain.c prints the plan).
 *
 * Snapshot and command id: the snapshot is taken after analysis (which
 * took the relation locks) with the transaction's current command id,
 * and the statement's own writes carry that same command id, so a
 * statement never sees its own changes (no Halloween problem for
 * INSERT ... SELECT from the same table).
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>

#include "commands/commands_int.h"
#include "optimizer/planner.h"
#include "parser/analyze.h"

static void
check_interrupts(void *arg)
{
    tdb_xact_check_cancel(arg);
}

void
tdb_sql_check_privileges(Statement *st, const PlannedStmt *stmt)
{
    for (int i = 0; i < list_length(stmt->checked_relids); i++) {
        const char *name = tdb_catalog_superuser_only(
            (Oid)list_nth_int(stmt->checked_relids, i));

        if (name != NULL && !tdb_stmt_user_is_superuser(st))
            ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                    errmsg("permission denied for table %s", name));
    }
}

EState *
tdb_sql_create_estate(Statement *st, PlannedStmt *stmt)
{
    Snapshot snap;
    EState *estate;
    const Settings *settings = st->settings;

    tdb_sql_check_privileges(st, stmt);
    snap = tdb_snapshot_take(tdb_xact_manager_of(st->xact), st->xact,
                             tdb_current_mcxt);
    estate = tdb_exec_create_estate(st->xact, snap, stmt);

    estate->work_mem = settings->work_mem;
    estate->trace_sort = settings->trace_sort;
    estate->detoast_cache_kb = settings->detoast_cache_size;
    estate->trace_detoast = settings->trace_detoast;
    estate->default_toast_compression =
        tdb_guc_default_toast_compression(settings);
    estate->hash_mem_multiplier = settings->hash_mem_multiplier;
    estate->temp_dir = tdb_database_temp_dir(st->db);
    estate->check_interrupts = check_interrupts;
    estate->check_interrupts_arg = st->cancel_flag;
    return estate;
}

void
tdb_sql_command_tag(char *buf, Size size, CmdType command, uint64 processed)
{
    switch (command) {
    case CMD_SELECT:
        snprintf(buf, size, "SELECT %llu", (unsigned long long)processed);
        break;
    case CMD_INSERT:
        snprintf(buf, size, "INSERT 0 %llu", (unsigned long long)processed);
        break;
    case CMD_UPDATE:
        snprintf(buf, size, "UPDATE %llu", (unsigned long long)processed);
        break;
    case CMD_DELETE:
        snprintf(buf, size, "DELETE %llu", (unsigned long long)processed);
        break;
    }
}

PlannedStmt *
tdb_sql_plan_statement(Statement *st, PgQuery__Node *node)
{
    Query *q = tdb_analyze_statement(st, node);

    return tdb_plan_query(st, q);
}

bool
tdb_sql_run_query(Statement *st)
{
    PgQuery__Node *node = st->parsed->stmt;
    PlannedStmt *stmt;
    EState *estate;
    char tag[64];

    if (tdb_sql_run_create_as(st))
        return true;
    switch (node->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
    case PG_QUERY__NODE__NODE_INSERT_STMT:
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
    case PG_QUERY__NODE__NODE_DELETE_STMT:
        break;
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
        tdb_sql_explain(st, node->explain_stmt);
        return true;
    default:
        return false;
    }
    stmt = tdb_sql_plan_statement(st, node);
    estate = tdb_sql_create_estate(st, stmt);
    (void)tdb_exec_run(stmt, estate, st->dest);
    tdb_sql_command_tag(tag, sizeof(tag), stmt->command, estate->processed);
    tdb_exec_free_estate(estate);
    tdb_stmt_complete(st, tag);
    return true;
}

/* After an error: no query of this thread runs any more. */
void
tdb_sql_forget_running_query(void)
{
    tdb_exec_forget_running_query();
}
