/*
 * exec_valuesscan.c -- ValuesScan: VALUES (...), (...) -- each row's
 * expressions evaluated into the scan slot, then filtered and projected.
 */
#include "common/base.h"

#include "executor/exec_int.h"

typedef struct ValuesScanState {
    PlanState ps;
    List *rows;       /* List of ExprState per row */
    int next;         /* next row */
    TupleTableSlot *scan_slot;
} ValuesScanState;

static TupleTableSlot *
exec_valuesscan(PlanState *node)
{
    ValuesScanState *vs = (ValuesScanState *)node;
    ExprContext *econtext = node->econtext;

    while (vs->next < list_length(vs->rows)) {
        List *exprs = list_nth(vs->rows, vs->next++);

        tdb_exec_reset_row(econtext);
        tdb_slot_clear(vs->scan_slot);
        for (int i = 0; i < list_length(exprs); i++)
            vs->scan_slot->tts_values[i] =
                tdb_exec_eval_expr(list_nth(exprs, i), econtext,
                                   &vs->scan_slot->tts_isnull[i]);
        tdb_slot_store_virtual(vs->scan_slot);
        if (tdb_exec_filter(node))
            return tdb_exec_project(node->projection, econtext);
    }
    return NULL;
}

static void
rescan_valuesscan(PlanState *node)
{
    ((ValuesScanState *)node)->next = 0;
}

PlanState *
tdb_exec_init_valuesscan(ValuesScan *plan, EState *estate)
{
    ValuesScanState *vs = tdb_palloc0(sizeof(ValuesScanState));
    List *first = linitial(plan->values_lists);
    List *scan_tlist = NIL;

    vs->ps.tag = T_PlanState;
    tdb_exec_init_common(&vs->ps, &plan->plan, estate,
                         sizeof(ValuesScanState));
    for (int i = 0; i < list_length(first); i++)
        scan_tlist = tdb_lappend(
            scan_tlist, tdb_make_target_entry(list_nth(first, i), i + 1,
                                              "column", false));
    vs->scan_slot = tdb_slot_create(tdb_exec_type_from_tlist(scan_tlist),
                                    &tdb_tts_ops_virtual);
    for (int r = 0; r < list_length(plan->values_lists); r++) {
        List *exprs = list_nth(plan->values_lists, r);
        List *states = NIL;

        for (int i = 0; i < list_length(exprs); i++)
            states = tdb_lappend(
                states, tdb_exec_init_expr(list_nth(exprs, i), estate));
        vs->rows = tdb_lappend(vs->rows, states);
    }
    vs->ps.econtext->scan_slot = vs->scan_slot;
    vs->ps.exec = exec_valuesscan;
    vs->ps.rescan = rescan_valuesscan;
    tdb_exec_assign_projection(&vs->ps);
    return &vs->ps;
}
