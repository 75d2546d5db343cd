/*
 * exec_functionscan.c -- FunctionScan: the rows of a set-returning
 * function in FROM (generate_series), one call per row through the
 * SRFCallContext protocol (builtins.h).  The arguments are evaluated
 * once per scan.
 */
#include "common/base.h"

#include "common/elog.h"
#include "executor/exec_int.h"

typedef struct FunctionScanState {
    PlanState ps;
    FuncExpr *func;
    List *arg_states;    /* ExprState per argument */
    FunctionCallInfoData fcinfo;
    FmgrInfo flinfo;
    SRFCallContext srf;
    bool started;
    bool args_null;      /* strict function with a NULL argument: no rows */
    TupleTableSlot *scan_slot;
    MemoryContext multi_call_mcxt;
    int64 ordinal;
} FunctionScanState;

static void
start_call(FunctionScanState *fs)
{
    ExprContext *econtext = fs->ps.econtext;
    MemoryContext old = tdb_mcxt_switch_to(fs->multi_call_mcxt);

    fs->args_null = false;
    for (int i = 0; i < list_length(fs->arg_states); i++) {
        fs->fcinfo.args[i].value = tdb_exec_eval_expr(
            list_nth(fs->arg_states, i), econtext, &fs->fcinfo.args[i].isnull);
        if (fs->fcinfo.args[i].isnull && fs->func->func->strict)
            fs->args_null = true;
    }
    tdb_mcxt_switch_to(old);
    fs->srf.call_no = 0;
    fs->srf.is_done = false;
    fs->srf.state = NULL;
    fs->srf.multi_call_mcxt = fs->multi_call_mcxt;
    fs->ordinal = 0;
    fs->started = true;
}

static TupleTableSlot *
exec_functionscan(PlanState *node)
{
    FunctionScanState *fs = (FunctionScanState *)node;
    ExprContext *econtext = node->econtext;

    if (!fs->started)
        start_call(fs);
    for (;;) {
        Datum value;

        tdb_exec_check_interrupts(node->estate);
        if (fs->args_null || fs->srf.is_done)
            return NULL;
        tdb_exec_reset_row(econtext);
        {
            MemoryContext old = tdb_mcxt_switch_to(econtext->per_row_mcxt);

            fs->fcinfo.isnull = false;
            value = fs->func->func->fn(&fs->fcinfo);
            tdb_mcxt_switch_to(old);
        }
        fs->srf.call_no++;
        if (fs->srf.is_done)
            return NULL;
        tdb_slot_clear(fs->scan_slot);
        fs->scan_slot->tts_values[0] = value;
        fs->scan_slot->tts_isnull[0] = fs->fcinfo.isnull;
        if (fs->scan_slot->tts_tupleDescriptor->natts > 1) {
            fs->scan_slot->tts_values[1] = Int64GetDatum(++fs->ordinal);
            fs->scan_slot->tts_isnull[1] = false;
        }
        tdb_slot_store_virtual(fs->scan_slot);
        if (tdb_exec_filter(node))
            return tdb_exec_project(node->projection, econtext);
    }
}

static void
rescan_functionscan(PlanState *node)
{
    FunctionScanState *fs = (FunctionScanState *)node;

    tdb_mcxt_reset(fs->multi_call_mcxt);
    fs->started = false;
}

PlanState *
tdb_exec_init_functionscan(FunctionScan *plan, EState *estate)
{
    FunctionScanState *fs = tdb_palloc0(sizeof(FunctionScanState));
    List *scan_tlist;

    fs->ps.tag = T_PlanState;
    tdb_exec_init_common(&fs->ps, &plan->plan, estate,
                         sizeof(FunctionScanState));
    if (!IsA(plan->funcexpr, FuncExpr) ||
        !((FuncExpr *)plan->funcexpr)->func->retset)
        elog(ERROR, "FunctionScan needs a set-returning function");
    fs->func = (FuncExpr *)plan->funcexpr;
    for (int i = 0; i < list_length(fs->func->args); i++)
        fs->arg_states = tdb_lappend(
            fs->arg_states,
            tdb_exec_init_expr(list_nth(fs->func->args, i), estate));
    fs->flinfo.fn_desc = fs->func->func;
    fs->flinfo.fn_addr = fs->func->func->fn;
    fs->flinfo.fn_mcxt = estate->query_mcxt;
    fs->flinfo.fn_expr_rettype = exprType(plan->funcexpr);
    fs->fcinfo.flinfo = &fs->flinfo;
    fs->fcinfo.nargs = (int16)list_length(fs->func->args);
    fs->fcinfo.context = &fs->srf;
    fs->multi_call_mcxt = tdb_aset_create(estate->query_mcxt, "SRF multi-call",
                                          ALLOCSET_SMALL_SIZES);
    scan_tlist = tdb_list_make1(
        tdb_make_target_entry(plan->funcexpr, 1, "value", false));
    if (plan->ordinality)
        scan_tlist = tdb_lappend(
            scan_tlist,
            tdb_make_target_entry(
                (Expr *)tdb_make_const(INT8OID, -1, 0, false), 2,
                "ordinality", false));
    fs->scan_slot = tdb_slot_create(tdb_exec_type_from_tlist(scan_tlist),
                                    &tdb_tts_ops_virtual);
    fs->ps.econtext->scan_slot = fs->scan_slot;
    fs->ps.exec = exec_functionscan;
    fs->ps.rescan = rescan_functionscan;
    tdb_exec_assign_projection(&fs->ps);
    return &fs->ps;
}
