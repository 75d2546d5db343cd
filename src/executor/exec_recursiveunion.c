/*
 * exec_recursiveunion.c -- WITH RECURSIVE: RecursiveUnion and the
 * WorkTableScan nodes of its recursive term.
 *
 * The working table holds the rows the previous round produced; each
 * round rescans the recursive term, whose WorkTableScans read the
 * working table, and collects what it produces into the next one.  Both
 * are tuplestores (tuplestore.h: work_mem each, spilled to a temporary
 * file beyond it, as PostgreSQL's), swapped per round; each WorkTableScan
 * has a reader of the same number in both.  UNION without ALL keeps a
 * hash set of every row returned so far (chained, keyed by the hash of
 * all columns; in memory, as PostgreSQL's) and drops repeats -- which is
 * also what makes a cycle end.
 */
#include "common/base.h"

#include <string.h>

#include "common/elog.h"
#include "executor/exec_int.h"
#include "executor/tuplestore.h"
#include "toast/detoast.h"

typedef struct SeenRow {
    uint32 hash;
    int32 next;
    MinimalTuple tuple;
} SeenRow;

typedef struct RecursiveUnionState {
    PlanState ps;
    RecursiveUnion *plan;
    bool nonrec_done;
    bool done;
    int64 round;  /* grows whenever the working table changes */
    int nreaders; /* WorkTableScans: readers 0.. of both tables */
    /* working table (read by WorkTableScan) and the next one */
    Tuplestore *work;
    Tuplestore *next;
    /* UNION: every row returned so far */
    MemoryContext seen_mcxt;
    SeenRow *seen;
    int32 nseen, seen_size;
    int32 *buckets;
    uint32 nbuckets;
    TupleTableSlot *probe;
    int *cols; /* 1..num_cols, for tdb_exec_rows_equal */
} RecursiveUnionState;

/* ----- UNION's duplicate check ----- */

static uint32
row_hash(RecursiveUnionState *rs, TupleTableSlot *row)
{
    uint32 h = 0;

    for (int c = 0; c < rs->plan->num_cols; c++) {
        bool isnull;
        Datum v = tdb_slot_getattr(row, c + 1, &isnull);
        FunctionCallInfoData fcinfo = {0};

        DetoastRef ref;

        if (isnull)
            continue;
        /* a toasted value hashes by its contents (stays cached) */
        if (TupleDescAttr(row->tts_tupleDescriptor, c)->attlen == -1)
            v = PointerGetDatum(
                tdb_detoast_acquire((const varlena *)DatumGetPointer(v), &ref));
        else
            ref.entry = ref.copy = NULL;
        fcinfo.nargs = 1;
        fcinfo.args[0].value = v;
        h = h * 31 + DatumGetUInt32(rs->plan->support[c]->hash(&fcinfo));
        tdb_detoast_release(&ref);
    }
    return h;
}

static void
grow_seen_buckets(RecursiveUnionState *rs)
{
    uint32 n = rs->nbuckets * 2;
    int32 *b = tdb_mcxt_alloc(rs->seen_mcxt, sizeof(int32) * (Size)n);

    memset(b, 0xff, sizeof(int32) * (Size)n);
    for (int32 i = 0; i < rs->nseen; i++) {
        rs->seen[i].next = b[rs->seen[i].hash & (n - 1)];
        b[rs->seen[i].hash & (n - 1)] = i;
    }
    rs->buckets = b;
    rs->nbuckets = n;
}

/* Remember row; false if an equal row was returned before. */
static bool
first_time(RecursiveUnionState *rs, TupleTableSlot *row)
{
    uint32 h = row_hash(rs, row);
    SeenRow *s;
    MemoryContext old;

    for (int32 i = rs->buckets[h & (rs->nbuckets - 1)]; i >= 0;
         i = rs->seen[i].next) {
        if (rs->seen[i].hash != h)
            continue;
        tdb_slot_store_minimal_tuple(rs->probe, rs->seen[i].tuple, false);
        if (tdb_exec_rows_equal(rs->probe, row, rs->plan->num_cols, rs->cols,
                                rs->plan->eq_ops))
            return false;
    }
    if (rs->nseen == rs->seen_size) {
        rs->seen_size *= 2;
        rs->seen = tdb_repalloc(rs->seen, sizeof(SeenRow) *
                                              (Size)rs->seen_size);
    }
    s = &rs->seen[rs->nseen];
    s->hash = h;
    old = tdb_mcxt_switch_to(rs->seen_mcxt);
    s->tuple = tdb_slot_copy_minimal_tuple(row, 0);
    tdb_mcxt_switch_to(old);
    s->next = rs->buckets[h & (rs->nbuckets - 1)];
    rs->buckets[h & (rs->nbuckets - 1)] = rs->nseen++;
    if ((uint32)rs->nseen > rs->nbuckets)
        grow_seen_buckets(rs);
    return true;
}

/* ----- rounds ----- */

/* The next round's rows become the working table. */
static void
swap_tables(RecursiveUnionState *rs)
{
    Tuplestore *spare = rs->work;

    rs->work = rs->next;
    rs->next = spare;
    tdb_tuplestore_clear(rs->next);
    for (int i = 0; i < rs->nreaders; i++)
        tdb_tuplestore_rewind(rs->work, i);
    rs->round++;
}

static TupleTableSlot *
exec_recursiveunion(PlanState *node)
{
    RecursiveUnionState *rs = (RecursiveUnionState *)node;

    while (!rs->done) {
        PlanState *child = rs->nonrec_done ? node->righttree : node->lefttree;
        TupleTableSlot *row = tdb_exec_proc_node(child);

        tdb_exec_check_interrupts(node->estate);
        if (row != NULL) {
            if (!rs->plan->all && !first_time(rs, row))
                continue;
            tdb_tuplestore_put(rs->next, row);
            return row;
        }
        /* a term is exhausted: start the next round, if any */
        rs->nonrec_done = true;
        swap_tables(rs);
        if (tdb_tuplestore_rows(rs->work) == 0)
            rs->done = true;
        else
            tdb_exec_rescan(node->righttree);
    }
    return NULL;
}

static void
reset_union(RecursiveUnionState *rs)
{
    tdb_tuplestore_clear(rs->work);
    tdb_tuplestore_clear(rs->next);
    tdb_mcxt_reset(rs->seen_mcxt);
    rs->seen_size = 64;
    rs->seen = tdb_mcxt_alloc(rs->seen_mcxt, sizeof(SeenRow) * 64);
    rs->nseen = 0;
    rs->nbuckets = 64;
    rs->buckets = tdb_mcxt_alloc(rs->seen_mcxt, sizeof(int32) * 64);
    memset(rs->buckets, 0xff, sizeof(int32) * 64);
    rs->nonrec_done = false;
    rs->done = false;
    rs->round++;
}

static void
rescan_recursiveunion(PlanState *node)
{
    reset_union((RecursiveUnionState *)node);
    tdb_exec_rescan(node->lefttree);
    tdb_exec_rescan(node->righttree);
}

PlanState *
tdb_exec_init_recursiveunion(RecursiveUnion *plan, EState *estate)
{
    RecursiveUnionState *rs = tdb_palloc0(sizeof(RecursiveUnionState));

    rs->ps.tag = T_PlanState;
    tdb_exec_init_common(&rs->ps, &plan->plan, estate,
                         sizeof(RecursiveUnionState));
    rs->plan = plan;
    rs->work = tdb_tuplestore_create(
        estate->query_mcxt, (Size)estate->work_mem * 1024, estate->temp_dir);
    rs->next = tdb_tuplestore_create(
        estate->query_mcxt, (Size)estate->work_mem * 1024, estate->temp_dir);
    rs->seen_mcxt = tdb_aset_create(estate->query_mcxt, "RecursiveUnion",
                                    ALLOCSET_DEFAULT_SIZES);
    reset_union(rs);
    /* the WorkTableScans below find this node through the parameter */
    estate->params[plan->wt_param].value = PointerGetDatum(rs);
    rs->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    rs->ps.righttree = tdb_exec_init_node(plan->plan.righttree, estate);
    rs->probe = tdb_slot_create(rs->ps.lefttree->result_desc,
                                &tdb_tts_ops_minimal);
    rs->cols = tdb_palloc(sizeof(int) * (Size)Max(1, plan->num_cols));
    for (int c = 0; c < plan->num_cols; c++)
        rs->cols[c] = c + 1;
    rs->ps.exec = exec_recursiveunion;
    rs->ps.rescan = rescan_recursiveunion;
    return &rs->ps;
}

int64
tdb_exec_worktable_round(EState *estate, int wt_param)
{
    RecursiveUnionState *rs;

    if (wt_param < 0 || wt_param >= estate->nparams ||
        (rs = DatumGetPointer(estate->params[wt_param].value)) == NULL)
        elog(ERROR, "working table %d outside its RecursiveUnion", wt_param);
    return rs->round;
}

/* ----- WorkTableScan ----- */

typedef struct WorkTableScanState {
    PlanState ps;
    RecursiveUnionState *ru;
    int reader; /* in both tables */
    TupleTableSlot *scan_slot;
} WorkTableScanState;

static TupleTableSlot *
exec_worktablescan(PlanState *node)
{
    WorkTableScanState *ws = (WorkTableScanState *)node;
    ExprContext *econtext = node->econtext;

    /* nothing is put into the working table while it is read: the row
     * may stay where it is */
    while (
        tdb_tuplestore_read(ws->ru->work, ws->reader, ws->scan_slot, false)) {
        tdb_exec_reset_row(econtext);
        if (tdb_exec_filter(node))
            return tdb_exec_project(node->projection, econtext);
    }
    return NULL;
}

static void
rescan_worktablescan(PlanState *node)
{
    WorkTableScanState *ws = (WorkTableScanState *)node;

    tdb_tuplestore_rewind(ws->ru->work, ws->reader);
}

PlanState *
tdb_exec_init_worktablescan(WorkTableScan *plan, EState *estate)
{
    WorkTableScanState *ws = tdb_palloc0(sizeof(WorkTableScanState));

    ws->ps.tag = T_PlanState;
    tdb_exec_init_common(&ws->ps, &plan->plan, estate,
                         sizeof(WorkTableScanState));
    ws->ru = DatumGetPointer(estate->params[plan->wt_param].value);
    if (ws->ru == NULL)
        elog(ERROR, "WorkTableScan outside a RecursiveUnion");
    ws->reader = tdb_tuplestore_add_reader(ws->ru->work);
    if (tdb_tuplestore_add_reader(ws->ru->next) != ws->reader)
        elog(ERROR, "WorkTableScan readers out of step");
    ws->ru->nreaders++;
    ws->scan_slot = tdb_slot_create(ws->ru->ps.result_desc,
                                    &tdb_tts_ops_minimal);
    ws->ps.econtext->scan_slot = ws->scan_slot;
    ws->ps.exec = exec_worktablescan;
    ws->ps.rescan = rescan_worktablescan;
    tdb_exec_assign_projection(&ws->ps);
    return &ws->ps;
}
