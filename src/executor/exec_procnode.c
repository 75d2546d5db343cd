/*
 * exec_procnode.c -- the dispatcher: plan node type -> its init function,
 * a node's first call (the stack depth check) and the instrumented
 * wrapper EXPLAIN ANALYZE uses.
 *
 * Initialization recurses down the plan and checks the stack depth at
 * each node; so does each node's first call (tdb_exec_proc_node_slow),
 * because running a plan recurses as deep, with other frames.  Ending
 * does not check: it runs during error recovery, which must not raise,
 * and goes no deeper than initialization went; nor does rescanning,
 * which goes no deeper than the calls that checked.
 */
#include "common/base.h"

#include <time.h>

#include "common/elog.h"
#include "common/stack_depth.h"
#include "executor/exec_int.h"

PlanState *
tdb_exec_init_node(Plan *plan, EState *estate)
{
    PlanState *ps;

    tdb_check_stack_depth();

    if (plan == NULL)
        return NULL;
    switch (nodeTag(plan)) {
    case T_Result:
        ps = tdb_exec_init_result((Result *)plan, estate);
        break;
    case T_ValuesScan:
        ps = tdb_exec_init_valuesscan((ValuesScan *)plan, estate);
        break;
    case T_SeqScan:
        ps = tdb_exec_init_seqscan((SeqScan *)plan, estate);
        break;
    case T_IndexScan:
        ps = tdb_exec_init_indexscan((IndexScan *)plan, estate);
        break;
    case T_FunctionScan:
        ps = tdb_exec_init_functionscan((FunctionScan *)plan, estate);
        break;
    case T_SubqueryScan:
        ps = tdb_exec_init_subqueryscan((SubqueryScan *)plan, estate);
        break;
    case T_NestLoop:
        ps = tdb_exec_init_nestloop((NestLoop *)plan, estate);
        break;
    case T_HashJoin:
        ps = tdb_exec_init_hashjoin((HashJoin *)plan, estate);
        break;
    case T_MergeJoin:
        ps = tdb_exec_init_mergejoin((MergeJoin *)plan, estate);
        break;
    case T_Agg:
        ps = tdb_exec_init_agg((Agg *)plan, estate);
        break;
    case T_Sort:
        ps = tdb_exec_init_sort((Sort *)plan, estate);
        break;
    case T_Material:
        ps = tdb_exec_init_material((Material *)plan, estate);
        break;
    case T_Limit:
        ps = tdb_exec_init_limit((Limit *)plan, estate);
        break;
    case T_Unique:
        ps = tdb_exec_init_unique((Unique *)plan, estate);
        break;
    case T_Append:
        ps = tdb_exec_init_append((Append *)plan, estate);
        break;
    case T_ProjectSet:
        ps = tdb_exec_init_projectset((ProjectSet *)plan, estate);
        break;
    case T_RecursiveUnion:
        ps = tdb_exec_init_recursiveunion((RecursiveUnion *)plan, estate);
        break;
    case T_WorkTableScan:
        ps = tdb_exec_init_worktablescan((WorkTableScan *)plan, estate);
        break;
    case T_CteScan:
        ps = tdb_exec_init_ctescan((CteScan *)plan, estate);
        break;
    case T_SetOp:
        ps = tdb_exec_init_setop((SetOp *)plan, estate);
        break;
    case T_ModifyTable:
        ps = tdb_exec_init_modifytable((ModifyTable *)plan, estate);
        break;
    default:
        elog(ERROR, "unrecognized plan node type %d", (int)nodeTag(plan));
    }
    if (estate->instrument)
        ps->instr = tdb_palloc0(sizeof(Instrumentation));
    return ps;
}

static double
now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static TupleTableSlot *
exec_instrumented(PlanState *node)
{
    Instrumentation *instr = node->instr;
    double start = now_ms();
    TupleTableSlot *slot = node->exec(node);
    double elapsed = now_ms() - start;

    instr->total_ms += elapsed;
    if (!instr->running) {
        instr->running = true;
        instr->nloops += 1;
        instr->first_row_ms += elapsed;
    }
    if (slot != NULL)
        instr->ntuples += 1;
    return slot;
}

TupleTableSlot *
tdb_exec_proc_node_slow(PlanState *node)
{
    tdb_check_stack_depth();
    node->exec_fast = node->instr == NULL;
    if (node->instr != NULL)
        return exec_instrumented(node);
    return node->exec(node);
}

void
tdb_exec_end_node(PlanState *node)
{
    if (node == NULL)
        return;
    if (node->end != NULL)
        node->end(node);
    tdb_exec_end_node(node->lefttree);
    tdb_exec_end_node(node->righttree);
}

void
tdb_exec_mark_pos(PlanState *node)
{
    if (node->mark_pos == NULL)
        elog(ERROR, "plan node does not support mark/restore");
    node->mark_pos(node);
}

void
tdb_exec_restore_pos(PlanState *node)
{
    if (node->restore_pos == NULL)
        elog(ERROR, "plan node does not support mark/restore");
    node->restore_pos(node);
}

bool
tdb_exec_supports_mark(const Plan *plan)
{
    return plan != NULL &&
           (nodeTag(plan) == T_Sort || nodeTag(plan) == T_Material);
}

void
tdb_exec_rescan(PlanState *node)
{
    if (node->instr != NULL)
        node->instr->running = false;
    if (node->rescan != NULL)
        node->rescan(node);
    else {
        if (node->lefttree != NULL)
            tdb_exec_rescan(node->lefttree);
        if (node->righttree != NULL)
            tdb_exec_rescan(node->righttree);
    }
}
