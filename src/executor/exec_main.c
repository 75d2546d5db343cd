/*
 * exec_main.c -- running a planned statement: create the EState, build
 * the PlanState tree, register initplans, pull every row to the
 * receiver, end the nodes.
 */
#include "common/base.h"

#include "catalog/catalog.h"
#include "common/elog.h"
#include "common/stack_depth.h"
#include "executor/exec_int.h"
#include "toast/detoast.h"
#include "toast/toaster.h"

EState *
tdb_exec_create_estate(Transaction *xact, Snapshot snapshot,
                       PlannedStmt *stmt)
{
    MemoryContext cxt = tdb_aset_create(tdb_current_mcxt, "ExecutorState",
                                        ALLOCSET_DEFAULT_SIZES);
    EState *estate = tdb_mcxt_alloc_zero(cxt, sizeof(EState));

    estate->query_mcxt = cxt;
    estate->xact = xact;
    estate->snapshot = snapshot;
    estate->subplans = stmt->subplans;
    estate->nparams = stmt->nparams;
    estate->params = tdb_mcxt_alloc_zero(
        cxt, sizeof(ParamExecData) * (Size)Max(1, stmt->nparams));
    estate->work_mem = 4096;
    estate->hash_mem_multiplier = 2.0;
    estate->temp_dir = NULL; /* no data directory: the caller sets it */
    return estate;
}

void
tdb_exec_free_estate(EState *estate)
{
    for (int i = 0; i < list_length(estate->relations); i++)
        tdb_relation_close(list_nth(estate->relations, i));
    tdb_mcxt_delete(estate->query_mcxt);
}

Relation
tdb_exec_open_relation(EState *estate, Oid relid)
{
    MemoryContext old;
    Relation rel;

    for (int i = 0; i < list_length(estate->relations); i++) {
        rel = list_nth(estate->relations, i);
        if (rel->rd_id == relid)
            return rel;
    }
    old = tdb_mcxt_switch_to(estate->query_mcxt);
    rel = tdb_relation_open_by_oid(estate->xact, relid, REL_LOCK_SHARE);
    estate->relations = tdb_lappend(estate->relations, rel);
    tdb_mcxt_switch_to(old);
    return rel;
}

void
tdb_exec_forget_running_query(void)
{
    tdb_detoast_env_pop(NULL);
}

void
tdb_exec_init_toast_target(EState *estate, Relation rel, ToastTarget *target)
{
    target->rel = rel;
    target->toastrel = rel->rd_toastrelid != InvalidOid
                           ? tdb_exec_open_relation(estate, rel->rd_toastrelid)
                           : NULL;
    target->xact = estate->xact;
    target->default_compression = estate->default_toast_compression != 0
                                      ? estate->default_toast_compression
                                      : TOAST_COMPRESSION_PGLZ;
}

/* The detoast cache's way to open a toast relation: as the statement's
 * other relations, once per query, locked to the end of the transaction. */
static Relation
open_toast_relation(void *arg, Oid relid)
{
    return tdb_exec_open_relation(arg, relid);
}

/* The query's detoast cache, made at the first entry into the executor. */
DetoastEnv *
tdb_exec_detoast_env(EState *estate)
{
    if (estate->detoast_env == NULL)
        estate->detoast_env = tdb_detoast_env_create(
            estate->query_mcxt, (Size)estate->detoast_cache_kb * 1024,
            open_toast_relation, estate);
    return estate->detoast_env;
}

/* trace_detoast: the query's detoasting counters as a LOG line. */
static void
trace_detoast(EState *estate)
{
    const DetoastStats *st;

    if (!estate->trace_detoast || estate->detoast_env == NULL)
        return;
    st = tdb_detoast_env_stats(estate->detoast_env);
    ereport(LOG,
            errmsg("detoast: %llu requests, %llu cache hits, %llu fetched, "
                   "%llu slices fetched, %llu decompressed, %llu evicted, "
                   "%llu uncached, peak %zu kB",
                   (unsigned long long)st->requests,
                   (unsigned long long)st->hits,
                   (unsigned long long)st->fetches,
                   (unsigned long long)st->slice_fetches,
                   (unsigned long long)st->decompressions,
                   (unsigned long long)st->evictions,
                   (unsigned long long)st->uncached,
                   (st->bytes_peak + 1023) / 1024));
}

/* Register the initplans of plan (and below) as pending parameters. */
static void
register_initplans(Plan *plan, EState *estate)
{
    tdb_check_stack_depth();

    if (plan == NULL)
        return;
    for (int i = 0; i < list_length(plan->initplans); i++) {
        SubPlan *sub = list_nth(plan->initplans, i);
        SubPlanState *ss;

        /* a WITH query computed once: its CTE scans run it (exec_ctescan.c) */
        if (sub->sublink_type == CTE_SUBLINK)
            continue;
        ss = tdb_exec_init_subplan(sub, estate);
        for (int p = 0; p < list_length(sub->set_param); p++)
            estate->params[list_nth_int(sub->set_param, p)].pending = ss;
    }
    register_initplans(plan->lefttree, estate);
    register_initplans(plan->righttree, estate);
    if (IsA(plan, SubqueryScan))
        register_initplans(((SubqueryScan *)plan)->subplan, estate);
    if (IsA(plan, Append))
        for (int i = 0; i < list_length(((Append *)plan)->appendplans); i++)
            register_initplans(list_nth(((Append *)plan)->appendplans, i),
                               estate);
}

/* The statement's visible columns: the top target list without junk. */
static TupleDesc
visible_desc(Plan *plan)
{
    List *visible = NIL;

    for (int i = 0; i < list_length(plan->targetlist); i++) {
        TargetEntry *te = list_nth(plan->targetlist, i);

        if (!te->resjunk)
            visible = tdb_lappend(visible, te);
    }
    return tdb_exec_type_from_tlist(visible);
}

PlanState *
tdb_exec_start(PlannedStmt *stmt, EState *estate, DestReceiver *dest)
{
    MemoryContext old = tdb_mcxt_switch_to(estate->query_mcxt);
    DetoastEnv *outer_env = tdb_detoast_env_push(tdb_exec_detoast_env(estate));
    PlanState *top;
    bool sends_rows = stmt->command == CMD_SELECT || stmt->has_returning;

    for (int i = 0; i < list_length(stmt->subplans); i++)
        register_initplans(list_nth(stmt->subplans, i), estate);
    register_initplans(stmt->plan, estate);
    top = tdb_exec_init_node(stmt->plan, estate);
    if (sends_rows && dest != NULL && dest->startup != NULL)
        dest->startup(dest, visible_desc(top->plan));
    tdb_detoast_env_pop(outer_env);
    tdb_mcxt_switch_to(old);
    return top;
}

void
tdb_exec_finish(EState *estate, PlanState *top)
{
    MemoryContext old = tdb_mcxt_switch_to(estate->query_mcxt);
    DetoastEnv *outer_env = tdb_detoast_env_push(tdb_exec_detoast_env(estate));

    tdb_exec_end_node(top);
    for (int i = 0; i < list_length(estate->subplan_states); i++)
        tdb_exec_end_node(list_nth(estate->subplan_states, i));
    trace_detoast(estate);
    tdb_detoast_env_pop(outer_env);
    tdb_mcxt_switch_to(old);
}

bool
tdb_exec_fetch(PlannedStmt *stmt, EState *estate, PlanState *top,
               DestReceiver *dest, int64 count)
{
    MemoryContext old = tdb_mcxt_switch_to(estate->query_mcxt);
    DetoastEnv *outer_env = tdb_detoast_env_push(tdb_exec_detoast_env(estate));
    bool sends_rows = stmt->command == CMD_SELECT || stmt->has_returning;
    TupleTableSlot *slot;
    int64 n = 0;

    while (count <= 0 || n < count) {
        slot = tdb_exec_proc_node(top);
        if (slot == NULL) {
            tdb_detoast_env_pop(outer_env);
            tdb_mcxt_switch_to(old);
            tdb_exec_finish(estate, top);
            return true;
        }
        n++;
        if (stmt->command == CMD_SELECT)
            estate->processed++;
        if (sends_rows && dest != NULL && dest->receive != NULL)
            dest->receive(dest, slot);
    }
    tdb_detoast_env_pop(outer_env);
    tdb_mcxt_switch_to(old);
    return false;
}

PlanState *
tdb_exec_run(PlannedStmt *stmt, EState *estate, DestReceiver *dest)
{
    PlanState *top = tdb_exec_start(stmt, estate, dest);

    (void)tdb_exec_fetch(stmt, estate, top, dest, 0);
    return top;
}
