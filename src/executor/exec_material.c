/*
 * exec_material.c -- Material ("Materialize" in EXPLAIN): keep the rows
 * of the input as they pass, so a rescan replays them instead of running
 * the input again.
 *
 * The planner puts it where PostgreSQL does and tupledb can run it: on
 * top of a subplan that is not correlated and not hashed (an ANY / ALL
 * subquery compared row by row, rescanned for every outer row), unless
 * the subplan's top node keeps its rows anyway (Sort, Function Scan,
 * WorkTable Scan).  Its input is then the same on every scan -- nothing
 * it reads changes within the statement -- so a rescan only rewinds: the
 * input is never rescanned.
 *
 * Reading is lazy, as PostgreSQL's tuplestore-backed Material: a scan
 * that stops early (ANY found its match) leaves the input where it is;
 * a later scan replays the stored rows, then goes on reading the input
 * where the first one stopped.
 *
 * It also supports mark / restore (a merge join's inner input that is
 * sorted already): the mark is the index of the row after the one last
 * returned, and restoring rewinds `next` to it -- rows read since are
 * kept, so they are replayed.  There the input may read parameters that
 * change between scans (a correlated subquery), so the plan asks
 * (rescan_input) that a rescan forget the rows and rescan the input.
 *
 * Rows are copied as minimal tuples into the node's "Materialize"
 * context.  Like Sort, everything stays in memory (PostgreSQL's
 * tuplestore spills beyond work_mem; tupledb's external storage is
 * issue 9).
 */
#include "common/base.h"

#include "common/elog.h"
#include "executor/exec_int.h"

typedef struct MaterialState {
    PlanState ps;
    MemoryContext rows_mcxt; /* "Materialize": the copies and the array */
    MinimalTuple *rows;      /* the input's rows read so far, in order */
    int64 nrows;
    int64 capacity;
    int64 next;          /* the next row this scan returns */
    int64 mark;          /* `next` when the position was marked */
    bool input_done;     /* the input returned its last row */
    TupleTableSlot *out; /* minimal slot over rows[next - 1] */
} MaterialState;

static TupleTableSlot *
exec_material(PlanState *node)
{
    MaterialState *ms = (MaterialState *)node;
    TupleTableSlot *row;
    MemoryContext old;

    if (ms->next < ms->nrows) {
        tdb_slot_store_minimal_tuple(ms->out, ms->rows[ms->next++], false);
        return ms->out;
    }
    if (ms->input_done)
        return NULL;
    row = tdb_exec_proc_node(node->lefttree);
    if (row == NULL) {
        ms->input_done = true;
        return NULL;
    }
    old = tdb_mcxt_switch_to(ms->rows_mcxt);
    if (ms->nrows == ms->capacity) {
        ms->capacity *= 2;
        ms->rows =
            tdb_repalloc(ms->rows, tdb_mcxt_array_size((Size)ms->capacity,
                                                       sizeof(MinimalTuple)));
    }
    ms->rows[ms->nrows++] = tdb_slot_copy_minimal_tuple(row, 0);
    tdb_mcxt_switch_to(old);
    ms->next = ms->nrows;
    tdb_slot_store_minimal_tuple(ms->out, ms->rows[ms->nrows - 1], false);
    return ms->out;
}

static void
reset_rows(MaterialState *ms)
{
    tdb_mcxt_reset(ms->rows_mcxt);
    ms->capacity = 64;
    ms->rows = tdb_mcxt_alloc(
        ms->rows_mcxt,
        tdb_mcxt_array_size((Size)ms->capacity, sizeof(MinimalTuple)));
    ms->nrows = 0;
    ms->input_done = false;
}

/*
 * Rewind: the input cannot have changed (see the header); or, with
 * rescan_input, forget the rows and read the input again.
 */
static void
rescan_material(PlanState *node)
{
    MaterialState *ms = (MaterialState *)node;

    tdb_slot_clear(ms->out);
    ms->next = 0;
    ms->mark = 0;
    if (((Material *)node->plan)->rescan_input) {
        reset_rows(ms);
        tdb_exec_rescan(node->lefttree);
    }
}

static void
mark_material(PlanState *node)
{
    MaterialState *ms = (MaterialState *)node;

    ms->mark = ms->next;
}

static void
restore_material(PlanState *node)
{
    MaterialState *ms = (MaterialState *)node;

    ms->next = ms->mark;
}

PlanState *
tdb_exec_init_material(Material *plan, EState *estate)
{
    MaterialState *ms = tdb_palloc0(sizeof(MaterialState));

    ms->ps.tag = T_PlanState;
    tdb_exec_init_common(&ms->ps, &plan->plan, estate, sizeof(MaterialState));
    ms->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    ms->rows_mcxt = tdb_aset_create(estate->query_mcxt, "Materialize",
                                    ALLOCSET_DEFAULT_SIZES);
    reset_rows(ms);
    ms->out =
        tdb_slot_create(ms->ps.lefttree->result_desc, &tdb_tts_ops_minimal);
    ms->ps.exec = exec_material;
    ms->ps.rescan = rescan_material;
    ms->ps.mark_pos = mark_material;
    ms->ps.restore_pos = restore_material;
    return &ms->ps;
}
