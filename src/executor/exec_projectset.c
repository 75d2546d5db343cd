/*
 * exec_projectset.c -- ProjectSet: set-returning functions in the select
 * list (SELECT generate_series(1, 3), x ...).
 *
 * For each input row the SRFs' arguments are evaluated once, then each
 * output row calls every SRF that is not yet exhausted (SRFCallContext,
 * builtins.h) and evaluates the other columns; an exhausted SRF gives
 * NULL while others go on; the input row is done when all are (so a
 * row whose SRFs all return nothing produces no output).
 */
#include "common/base.h"

#include "common/elog.h"
#include "executor/exec_int.h"

typedef struct SrfColumn {
    FuncExpr *func;
    List *arg_states;
    FunctionCallInfoData fcinfo;
    FmgrInfo flinfo;
    SRFCallContext srf;
    bool strict_null; /* strict with a NULL argument: no rows */
} SrfColumn;

typedef struct ProjectSetState {
    PlanState ps;
    int ncols;
    SrfColumn **srfs;        /* per column: its SRF, or NULL */
    List *col_states;        /* ExprState per column (non-SRF), or NULL */
    MemoryContext srf_mcxt;  /* SRF states of the current input row */
    bool need_input;
} ProjectSetState;

static void
start_row(ProjectSetState *ps)
{
    ExprContext *econtext = ps->ps.econtext;
    MemoryContext old;

    tdb_mcxt_reset(ps->srf_mcxt);
    old = tdb_mcxt_switch_to(ps->srf_mcxt);
    for (int c = 0; c < ps->ncols; c++) {
        SrfColumn *s = ps->srfs[c];

        if (s == NULL)
            continue;
        s->strict_null = false;
        for (int a = 0; a < list_length(s->arg_states); a++) {
            s->fcinfo.args[a].value =
                tdb_exec_eval_expr(list_nth(s->arg_states, a), econtext,
                                   &s->fcinfo.args[a].isnull);
            if (s->fcinfo.args[a].isnull && s->func->func->strict)
                s->strict_null = true;
        }
        s->srf.call_no = 0;
        s->srf.is_done = s->strict_null;
        s->srf.state = NULL;
        s->srf.multi_call_mcxt = ps->srf_mcxt;
    }
    tdb_mcxt_switch_to(old);
}

static TupleTableSlot *
exec_projectset(PlanState *node)
{
    ProjectSetState *ps = (ProjectSetState *)node;
    ExprContext *econtext = node->econtext;
    TupleTableSlot *out = node->result_slot;

    for (;;) {
        bool any_alive = false;

        if (ps->need_input) {
            TupleTableSlot *row = tdb_exec_proc_node(node->lefttree);

            if (row == NULL)
                return NULL;
            econtext->outer_slot = row;
            tdb_exec_reset_row(econtext);
            start_row(ps);
            ps->need_input = false;
        }
        tdb_exec_check_interrupts(node->estate);
        tdb_slot_clear(out);
        for (int c = 0; c < ps->ncols; c++) {
            SrfColumn *s = ps->srfs[c];
            MemoryContext old;

            if (s == NULL)
                continue;
            out->tts_isnull[c] = true;
            out->tts_values[c] = 0;
            if (s->srf.is_done)
                continue;
            old = tdb_mcxt_switch_to(econtext->per_row_mcxt);
            s->fcinfo.isnull = false;
            out->tts_values[c] = s->func->func->fn(&s->fcinfo);
            tdb_mcxt_switch_to(old);
            s->srf.call_no++;
            if (s->srf.is_done) {
                out->tts_values[c] = 0;
                continue;
            }
            out->tts_isnull[c] = s->fcinfo.isnull;
            any_alive = true;
        }
        if (!any_alive) {
            ps->need_input = true;
            continue;
        }
        for (int c = 0; c < ps->ncols; c++)
            if (ps->srfs[c] == NULL)
                out->tts_values[c] = tdb_exec_eval_expr(
                    list_nth(ps->col_states, c), econtext,
                    &out->tts_isnull[c]);
        tdb_slot_store_virtual(out);
        return out;
    }
}

static void
rescan_projectset(PlanState *node)
{
    ((ProjectSetState *)node)->need_input = true;
    tdb_exec_rescan(node->lefttree);
}

PlanState *
tdb_exec_init_projectset(ProjectSet *plan, EState *estate)
{
    ProjectSetState *ps = tdb_palloc0(sizeof(ProjectSetState));
    List *tlist = plan->plan.targetlist;

    ps->ps.tag = T_PlanState;
    tdb_exec_init_common(&ps->ps, &plan->plan, estate, sizeof(ProjectSetState));
    ps->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    ps->ncols = list_length(tlist);
    ps->srfs = tdb_palloc0(sizeof(SrfColumn *) * (Size)Max(1, ps->ncols));
    ps->srf_mcxt = tdb_aset_create(estate->query_mcxt, "SRF states",
                                   ALLOCSET_SMALL_SIZES);
    for (int c = 0; c < ps->ncols; c++) {
        Expr *e = ((TargetEntry *)list_nth(tlist, c))->expr;

        if (IsA(e, FuncExpr) && ((FuncExpr *)e)->func->retset) {
            SrfColumn *s = tdb_palloc0(sizeof(SrfColumn));

            s->func = (FuncExpr *)e;
            for (int a = 0; a < list_length(s->func->args); a++)
                s->arg_states = tdb_lappend(
                    s->arg_states,
                    tdb_exec_init_expr(list_nth(s->func->args, a), estate));
            s->flinfo.fn_desc = s->func->func;
            s->flinfo.fn_addr = s->func->func->fn;
            s->flinfo.fn_mcxt = estate->query_mcxt;
            s->flinfo.fn_expr_rettype = exprType(e);
            s->fcinfo.flinfo = &s->flinfo;
            s->fcinfo.nargs = (int16)list_length(s->func->args);
            s->fcinfo.context = &s->srf;
            ps->srfs[c] = s;
            ps->col_states = tdb_lappend(ps->col_states, NULL);
        } else
            ps->col_states =
                tdb_lappend(ps->col_states, tdb_exec_init_expr(e, estate));
    }
    ps->need_input = true;
    ps->ps.exec = exec_projectset;
    ps->ps.rescan = rescan_projectset;
    return &ps->ps;
}
