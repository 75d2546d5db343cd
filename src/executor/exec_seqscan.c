/*
 * exec_seqscan.c -- SeqScan: every row of a table visible to the
 * statement's snapshot (heapam's page-at-a-time scan), filtered by the
 * node's qual and projected.
 */
#include "common/base.h"

#include "access/heapam.h"
#include "executor/exec_int.h"

typedef struct SeqScanState {
    PlanState ps;
    Relation rel;
    HeapScanDesc scan;
    TupleTableSlot *scan_slot; /* heap slot pinning the current page */
} SeqScanState;

static TupleTableSlot *
exec_seqscan(PlanState *node)
{
    SeqScanState *ss = (SeqScanState *)node;
    ExprContext *econtext = node->econtext;

    if (ss->scan == NULL)
        ss->scan = tdb_heap_beginscan(ss->rel, node->estate->snapshot);
    for (;;) {
        tdb_exec_check_interrupts(node->estate);
        if (!tdb_heap_getnextslot(ss->scan, ss->scan_slot))
            return NULL;
        tdb_exec_reset_row(econtext);
        if (tdb_exec_filter(node))
            return tdb_exec_project(node->projection, econtext);
    }
}

static void
end_seqscan(PlanState *node)
{
    SeqScanState *ss = (SeqScanState *)node;

    tdb_slot_clear(ss->scan_slot);
    if (ss->scan != NULL)
        tdb_heap_endscan(ss->scan);
    ss->scan = NULL;
}

static void
rescan_seqscan(PlanState *node)
{
    SeqScanState *ss = (SeqScanState *)node;

    tdb_slot_clear(ss->scan_slot);
    if (ss->scan != NULL)
        tdb_heap_rescan(ss->scan);
}

PlanState *
tdb_exec_init_seqscan(SeqScan *plan, EState *estate)
{
    SeqScanState *ss = tdb_palloc0(sizeof(SeqScanState));

    ss->ps.tag = T_PlanState;
    tdb_exec_init_common(&ss->ps, &plan->plan, estate, sizeof(SeqScanState));
    ss->rel = tdb_exec_open_relation(estate, plan->relid);
    ss->scan_slot = tdb_slot_create(ss->rel->rd_att, &tdb_tts_ops_heap);
    ss->ps.econtext->scan_slot = ss->scan_slot;
    ss->ps.exec = exec_seqscan;
    ss->ps.end = end_seqscan;
    ss->ps.rescan = rescan_seqscan;
    tdb_exec_assign_projection(&ss->ps);
    return &ss->ps;
}
