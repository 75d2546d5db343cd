/*
 * exec_nestloop.c -- NestLoop: for each outer row, scan the inner input
 * (rescanned per outer row) and join the pairs that pass the join
 * qual.  Join types: INNER, LEFT (an outer row without a match is
 * joined to an all-NULL inner row), SEMI (the first match only), ANTI
 * (outer rows without a match).  The planner turns RIGHT joins around
 * and uses a hash join for FULL.
 */
#include "common/base.h"

#include "common/elog.h"
#include "executor/exec_int.h"

typedef struct NestLoopState {
    PlanState ps;
    JoinType jointype;
    ExprState *joinqual;
    bool need_new_outer;
    bool matched;                 /* current outer row found a match */
    TupleTableSlot *null_inner;   /* all NULLs, for LEFT/ANTI output */
} NestLoopState;

/* Emit the current pair if it passes the node's qual. */
static TupleTableSlot *
emit(PlanState *node)
{
    if (tdb_exec_qual(node->qual, node->econtext))
        return tdb_exec_project(node->projection, node->econtext);
    return NULL;
}

static TupleTableSlot *
exec_nestloop(PlanState *node)
{
    NestLoopState *nl = (NestLoopState *)node;
    ExprContext *econtext = node->econtext;

    for (;;) {
        TupleTableSlot *inner, *out;

        if (nl->need_new_outer) {
            TupleTableSlot *outer = tdb_exec_proc_node(node->lefttree);

            if (outer == NULL)
                return NULL;
            econtext->outer_slot = outer;
            nl->need_new_outer = false;
            nl->matched = false;
            tdb_exec_rescan(node->righttree);
        }
        tdb_exec_check_interrupts(node->estate);
        inner = tdb_exec_proc_node(node->righttree);
        if (inner == NULL) {
            nl->need_new_outer = true;
            if (!nl->matched &&
                (nl->jointype == JOIN_LEFT || nl->jointype == JOIN_ANTI)) {
                econtext->inner_slot = nl->null_inner;
                tdb_exec_reset_row(econtext);
                if ((out = emit(node)) != NULL)
                    return out;
            }
            continue;
        }
        econtext->inner_slot = inner;
        tdb_exec_reset_row(econtext);
        if (!tdb_exec_join_filter(node, nl->joinqual))
            continue;
        nl->matched = true;
        if (nl->jointype == JOIN_ANTI) {
            nl->need_new_outer = true;
            continue;
        }
        if (nl->jointype == JOIN_SEMI)
            nl->need_new_outer = true;
        if ((out = emit(node)) != NULL)
            return out;
    }
}

static void
rescan_nestloop(PlanState *node)
{
    ((NestLoopState *)node)->need_new_outer = true;
    tdb_exec_rescan(node->lefttree);
}

/* An all-NULL virtual slot shaped like ps's result. */
TupleTableSlot *
tdb_exec_null_slot(PlanState *ps)
{
    TupleTableSlot *slot =
        tdb_slot_create(ps->result_desc, &tdb_tts_ops_virtual);

    for (int i = 0; i < ps->result_desc->natts; i++) {
        slot->tts_values[i] = (Datum)0;
        slot->tts_isnull[i] = true;
    }
    tdb_slot_store_virtual(slot);
    return slot;
}

PlanState *
tdb_exec_init_nestloop(NestLoop *plan, EState *estate)
{
    NestLoopState *nl = tdb_palloc0(sizeof(NestLoopState));

    nl->ps.tag = T_PlanState;
    tdb_exec_init_common(&nl->ps, &plan->plan, estate, sizeof(NestLoopState));
    if (plan->jointype == JOIN_RIGHT || plan->jointype == JOIN_FULL)
        elog(ERROR, "nested loop cannot do RIGHT or FULL joins");
    nl->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    nl->ps.righttree = tdb_exec_init_node(plan->plan.righttree, estate);
    nl->jointype = plan->jointype;
    nl->joinqual = tdb_exec_init_qual(plan->joinqual, estate);
    nl->need_new_outer = true;
    nl->null_inner = tdb_exec_null_slot(nl->ps.righttree);
    nl->ps.exec = exec_nestloop;
    nl->ps.rescan = rescan_nestloop;
    tdb_exec_assign_projection(&nl->ps);
    return &nl->ps;
}
