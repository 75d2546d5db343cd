/*
 * exec_ctescan.c -- CteScan ("CTE Scan on name"): a reference to a WITH
 * query computed once, whose rows every CTE Scan of it shares.
 *
 * The first CteScan of a WITH query to be initialized creates the shared
 * state and leaves it in PARAM_EXEC slot cte_param, where the others
 * find it: the WITH query's plan (the statement's subplan cte_plan_id,
 * initialized once and ended with the statement's subplans, so EXPLAIN
 * ANALYZE finds its counters) and a tuplestore of the rows computed so
 * far, in which each CteScan has a reader of its own.
 *
 * Lazy, as PostgreSQL's CTE scans: a scan reads the stored rows from its
 * position; at their end, it runs the plan for one more row, stores it
 * and returns it -- so the plan runs only as far as the furthest reader
 * needs (`LIMIT 1` over it computes one row, and a row that would raise
 * an error is never computed if nobody reads that far).  Each scan keeps
 * its own copy of its row (tuplestore.h), since another scan may add
 * rows, and so move older ones to disk, before it is called again.
 *
 * A rescan rewinds the scan's reader: the rows are the same, except for
 * a WITH query that reads the working table of an enclosing WITH
 * RECURSIVE (CteScan.wt_params), which a new round of the recursion
 * changes.  Its rows are then forgotten and computed again by the first
 * scan rescanned in the new round (the rounds of the recursions it reads
 * are compared with those its rows were computed for), so the other scans
 * rescanned in the same round only rewind.
 */
#include "common/base.h"

#include "common/elog.h"
#include "executor/exec_int.h"
#include "executor/tuplestore.h"

/* What the CteScans of one WITH query share. */
typedef struct CteShared {
    PlanState *planstate; /* the WITH query's plan */
    Tuplestore *store;    /* its rows computed so far */
    bool done;            /* the plan returned its last row */
    bool started;         /* the plan has run (rescan it to start again) */
    List *wt_params;      /* working tables it reads (CteScan.wt_params) */
    int64 rounds;         /* their rounds when the rows were computed */
} CteShared;

typedef struct CteScanState {
    PlanState ps;
    CteShared *shared;
    int reader;
    TupleTableSlot *scan_slot;
} CteScanState;

/* The rounds of the recursions whose working tables the rows depend on
 * (each only grows, so the sum changes whenever one does). */
static int64
worktable_rounds(EState *estate, List *wt_params)
{
    int64 sum = 0;

    for (int i = 0; i < list_length(wt_params); i++)
        sum += tdb_exec_worktable_round(estate, list_nth_int(wt_params, i));
    return sum;
}

/* Run the WITH query's plan for its next row and store it; false at
 * its end. */
static bool
compute_row(CteScanState *cs)
{
    CteShared *sh = cs->shared;
    EState *estate = cs->ps.estate;
    MemoryContext old;
    TupleTableSlot *row;

    if (sh->done)
        return false;
    /* the plan's nodes keep state across rows in the current memory: the
     * statement's, not the caller's per-row memory */
    old = tdb_mcxt_switch_to(estate->query_mcxt);
    sh->started = true;
    row = tdb_exec_proc_node(sh->planstate);
    if (row == NULL)
        sh->done = true;
    else
        tdb_tuplestore_put(sh->store, row);
    tdb_mcxt_switch_to(old);
    return row != NULL;
}

static TupleTableSlot *
exec_ctescan(PlanState *node)
{
    CteScanState *cs = (CteScanState *)node;
    ExprContext *econtext = node->econtext;

    for (;;) {
        if (!tdb_tuplestore_read(cs->shared->store, cs->reader, cs->scan_slot,
                                 true)) {
            if (!compute_row(cs))
                return NULL;
            if (!tdb_tuplestore_read(cs->shared->store, cs->reader,
                                     cs->scan_slot, true))
                elog(ERROR, "CTE scan lost the row it stored");
        }
        tdb_exec_reset_row(econtext);
        if (tdb_exec_filter(node))
            return tdb_exec_project(node->projection, econtext);
    }
}

static void
rescan_ctescan(PlanState *node)
{
    CteScanState *cs = (CteScanState *)node;
    CteShared *sh = cs->shared;

    tdb_slot_clear(cs->scan_slot);
    if (sh->wt_params != NIL) {
        int64 rounds = worktable_rounds(node->estate, sh->wt_params);

        if (rounds != sh->rounds) {
            /* a new round of a recursion it reads: compute again */
            tdb_tuplestore_clear(sh->store);
            sh->done = false;
            if (sh->started)
                tdb_exec_rescan(sh->planstate);
            sh->started = false;
            sh->rounds = rounds;
        }
    }
    tdb_tuplestore_rewind(sh->store, cs->reader);
}

/* The shared state of the WITH query plan reads, created by its first
 * CteScan. */
static CteShared *
shared_state(CteScan *plan, EState *estate)
{
    ParamExecData *p;
    CteShared *sh;
    Plan *cte_plan;

    if (plan->cte_param < 0 || plan->cte_param >= estate->nparams ||
        plan->cte_plan_id < 1 ||
        plan->cte_plan_id > list_length(estate->subplans))
        elog(ERROR, "CTE scan of \"%s\" without its plan", plan->ctename);
    p = &estate->params[plan->cte_param];
    if (p->value != (Datum)0)
        return DatumGetPointer(p->value);
    sh = tdb_mcxt_alloc_zero(estate->query_mcxt, sizeof(CteShared));
    p->value = PointerGetDatum(sh);
    cte_plan = list_nth(estate->subplans, plan->cte_plan_id - 1);
    sh->planstate = tdb_exec_init_node(cte_plan, estate);
    estate->subplan_states = tdb_lappend(estate->subplan_states, sh->planstate);
    sh->store = tdb_tuplestore_create(
        estate->query_mcxt, (Size)estate->work_mem * 1024, estate->temp_dir);
    sh->wt_params = plan->wt_params;
    sh->rounds = worktable_rounds(estate, sh->wt_params);
    return sh;
}

PlanState *
tdb_exec_init_ctescan(CteScan *plan, EState *estate)
{
    CteScanState *cs = tdb_palloc0(sizeof(CteScanState));

    cs->ps.tag = T_PlanState;
    tdb_exec_init_common(&cs->ps, &plan->plan, estate, sizeof(CteScanState));
    cs->shared = shared_state(plan, estate);
    cs->reader = tdb_tuplestore_add_reader(cs->shared->store);
    cs->scan_slot = tdb_slot_create(cs->shared->planstate->result_desc,
                                    &tdb_tts_ops_minimal);
    cs->ps.econtext->scan_slot = cs->scan_slot;
    cs->ps.exec = exec_ctescan;
    cs->ps.rescan = rescan_ctescan;
    tdb_exec_assign_projection(&cs->ps);
    return &cs->ps;
}
