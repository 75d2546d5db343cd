/*
 * exec_seqscan.c -- SeqScan: every row of a table visible to the
 * statement's snapshot (heapam's page-at-a-time scan), filtered by the
 * node's qual and projected.
 *
 * The per-row loop is the engine's hottest path (a `SELECT sum(c16)`
 * over a million rows runs it a million times), so it does only what
 * the row needs:
 *   - the per-row memory is reset only when the qual or the projection
 *     may allocate there (expr.h, tdb_expr_may_allocate);
 *   - a projection that is the identity over the table's columns (the
 *     target list is every column in order: PostgreSQL's "physical
 *     tlist") is skipped and the scan slot itself returned;
 *   - other projections of plain columns take tdb_exec_project's
 *     Var-only path (no interpreter; a single column is fetched without
 *     deforming the ones before it);
 *   - with no qual and a projection of one column, the row does not even
 *     go through the scan slot: exec_seqscan_column fetches the column
 *     from the heap tuple (tdb_heap_getattr) into the result slot.  The
 *     scan's own pin on the page keeps a by-reference value valid until
 *     the next row is asked for, as the slot's pin did.  Storing the row
 *     in the slot and projecting from it cost about 60 instructions per
 *     row more (callgrind, `SELECT sum(c16)`);
 *   - cancel is checked every SEQSCAN_INTERRUPT_ROWS rows, not every row;
 *   - a parent that can take the column of many rows at once (a plain
 *     count/sum, exec_agg.c) gets a page's worth per call
 *     (tdb_exec_seqscan_batch);
 *   - a parent that looks at one column of every row and keeps few rows
 *     (a top-N sort, exec_sort.c) gets a page's worth of that column and
 *     asks for the rows it keeps (tdb_exec_seqscan_key_batch).
 */
#include "common/base.h"

#include "access/heapam.h"
#include "executor/exec_int.h"

/*
 * Rows between two interrupt checks.  The check is an indirect call into
 * the session (about 10 instructions); a scan returns a row in under 100
 * instructions, so checking each row cost over 5 % (callgrind, `SELECT
 * sum(c16)`), and 64 rows take well under a millisecond.
 */
#define SEQSCAN_INTERRUPT_ROWS 64

typedef struct SeqScanState {
    PlanState ps;
    Relation rel;
    HeapScanDesc scan;
    TupleTableSlot *scan_slot; /* heap slot pinning the current page */
    bool reset_per_row;        /* qual or projection may allocate */
    bool return_scan_slot;     /* the projection is the identity */
    int single_attnum;         /* exec_seqscan_column's column, 1-based */
    HeapTupleData *batch;      /* tdb_exec_seqscan_key_batch's rows */
    Buffer batch_buffer;       /* their page */
    uint32 rows_unchecked;     /* rows since the last interrupt check */
} SeqScanState;

static TupleTableSlot *
exec_seqscan(PlanState *node)
{
    SeqScanState *ss = (SeqScanState *)node;
    ExprContext *econtext = node->econtext;

    if (ss->scan == NULL)
        ss->scan = tdb_heap_beginscan(ss->rel, node->estate->snapshot);
    for (;;) {
        if (unlikely(++ss->rows_unchecked >= SEQSCAN_INTERRUPT_ROWS)) {
            ss->rows_unchecked = 0;
            tdb_exec_check_interrupts(node->estate);
        }
        if (!tdb_heap_getnextslot(ss->scan, ss->scan_slot))
            return NULL;
        if (ss->reset_per_row)
            tdb_exec_reset_row(econtext);
        if (node->qual == NULL || tdb_exec_filter(node)) {
            if (ss->return_scan_slot)
                return ss->scan_slot;
            return tdb_exec_project(node->projection, econtext);
        }
    }
}

/* No qual, the projection is one column: see the file header. */
static TupleTableSlot *
exec_seqscan_column(PlanState *node)
{
    SeqScanState *ss = (SeqScanState *)node;
    HeapTuple tup;
    Datum value;
    bool isnull;

    if (ss->scan == NULL)
        ss->scan = tdb_heap_beginscan(ss->rel, node->estate->snapshot);
    if (unlikely(++ss->rows_unchecked >= SEQSCAN_INTERRUPT_ROWS)) {
        ss->rows_unchecked = 0;
        tdb_exec_check_interrupts(node->estate);
    }
    if ((tup = tdb_heap_getnext(ss->scan)) == NULL)
        return NULL;
    value = tdb_heap_getattr(tup, ss->single_attnum, ss->rel->rd_att,
                             &isnull);
    return tdb_exec_project_value(node->projection, value, isnull);
}

bool
tdb_exec_seqscan_can_batch(PlanState *node)
{
    /* exec_seqscan_column is only ever set on a SeqScanState */
    return node->exec == exec_seqscan_column && node->instr == NULL;
}

/*
 * exec_seqscan_column for up to max rows of one page, without a result
 * slot (tdb_heap_getnext_column: the tuples located, then the column read
 * in one loop of the tuple layer).  Interrupts are checked once per
 * batch.
 */
int
tdb_exec_seqscan_batch(PlanState *node, Datum *values, bool *isnull, int max)
{
    SeqScanState *ss = (SeqScanState *)node;

    Assert(tdb_exec_seqscan_can_batch(node));
    if (unlikely(ss->scan == NULL))
        ss->scan = tdb_heap_beginscan(ss->rel, node->estate->snapshot);
    tdb_exec_check_interrupts(node->estate);
    return tdb_heap_getnext_column(ss->scan, ss->single_attnum, values,
                                   isnull, max);
}

bool
tdb_exec_seqscan_can_key_batch(PlanState *node)
{
    SeqScanState *ss = (SeqScanState *)node;

    return node->exec == exec_seqscan && ss->return_scan_slot &&
           node->qual == NULL && node->instr == NULL;
}

/*
 * Column attnum of up to max next rows of one page (the rows the scan
 * would return: no qual, the identity projection), remembered for
 * tdb_exec_seqscan_key_batch_row.  Interrupts are checked once per batch.
 */
int
tdb_exec_seqscan_key_batch(PlanState *node, int attnum, Datum *values,
                           bool *isnull, int max)
{
    SeqScanState *ss = (SeqScanState *)node;
    int n;

    Assert(tdb_exec_seqscan_can_key_batch(node));
    if (unlikely(ss->scan == NULL))
        ss->scan = tdb_heap_beginscan(ss->rel, node->estate->snapshot);
    if (ss->batch == NULL)
        ss->batch = tdb_mcxt_alloc(node->estate->query_mcxt,
                                   sizeof(HeapTupleData) *
                                       MaxHeapTuplesPerPage);
    tdb_exec_check_interrupts(node->estate);
    n = tdb_heap_getnext_rows(ss->scan, ss->batch, max, &ss->batch_buffer);
    tdb_heap_getattr_array(ss->batch, n, attnum, ss->rel->rd_att, values,
                           isnull);
    return n;
}

/* Row k of the last key batch, in the scan slot (valid until the next
 * call of the scan). */
TupleTableSlot *
tdb_exec_seqscan_key_batch_row(PlanState *node, int k)
{
    SeqScanState *ss = (SeqScanState *)node;
    const HeapTupleData *t = &ss->batch[k];

    tdb_slot_store_buffer_row(ss->scan_slot, t->t_data, t->t_len,
                              ItemPointerGetBlockNumber(&t->t_self),
                              ItemPointerGetOffsetNumber(&t->t_self),
                              t->t_tableOid, ss->batch_buffer);
    return ss->scan_slot;
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
    ss->reset_per_row = tdb_expr_may_allocate(ss->ps.qual) ||
                        tdb_expr_may_allocate(ss->ps.projection);
    ss->return_scan_slot = tdb_exec_projection_is_identity(ss->ps.projection,
                                                           ss->rel->rd_att);
    if (ss->ps.qual == NULL && !ss->return_scan_slot &&
        ss->ps.projection->var_slot_kind == SCAN_VAR &&
        ss->ps.projection->var_single >= 0) {
        ss->single_attnum = ss->ps.projection->var_single + 1;
        ss->ps.exec = exec_seqscan_column;
    }
    return &ss->ps;
}
