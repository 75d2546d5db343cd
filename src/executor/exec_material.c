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
 * sorted already): the mark is a second read position, copied from the
 * scan's and back -- rows read since are kept, so they are replayed.  There the
 * input may read parameters that change between scans (a correlated subquery),
 * so the plan asks (rescan_input) that a rescan forget the rows and rescan the
 * input.
 *
 * Rows are kept in a tuplestore (tuplestore.h): in memory up to
 * work_mem, in a temporary file beyond it, as PostgreSQL's Material.
 * Reader 0 is the scan's position, reader 1 the mark.
 */
#include "common/base.h"

#include "common/elog.h"
#include "executor/exec_int.h"
#include "executor/tuplestore.h"

#define READ_POS 0
#define MARK_POS 1

typedef struct MaterialState {
    PlanState ps;
    Tuplestore *store;   /* the input's rows read so far, in order */
    bool input_done;     /* the input returned its last row */
    TupleTableSlot *out; /* minimal slot over the row last returned */
} MaterialState;

static TupleTableSlot *
exec_material(PlanState *node)
{
    MaterialState *ms = (MaterialState *)node;
    TupleTableSlot *row;

    /* the store's row may be freed by the next put: only this node puts,
     * and its output is valid only until its next call anyway */
    if (tdb_tuplestore_read(ms->store, READ_POS, ms->out, false))
        return ms->out;
    if (ms->input_done)
        return NULL;
    row = tdb_exec_proc_node(node->lefttree);
    if (row == NULL) {
        ms->input_done = true;
        return NULL;
    }
    tdb_tuplestore_put(ms->store, row);
    if (!tdb_tuplestore_read(ms->store, READ_POS, ms->out, false))
        elog(ERROR, "Materialize lost the row it stored");
    return ms->out;
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
    tdb_tuplestore_rewind(ms->store, READ_POS);
    tdb_tuplestore_rewind(ms->store, MARK_POS);
    if (((Material *)node->plan)->rescan_input) {
        tdb_tuplestore_clear(ms->store);
        ms->input_done = false;
        tdb_exec_rescan(node->lefttree);
    }
}

static void
mark_material(PlanState *node)
{
    MaterialState *ms = (MaterialState *)node;

    tdb_tuplestore_copy_position(ms->store, READ_POS, MARK_POS);
}

static void
restore_material(PlanState *node)
{
    MaterialState *ms = (MaterialState *)node;

    tdb_tuplestore_copy_position(ms->store, MARK_POS, READ_POS);
}

PlanState *
tdb_exec_init_material(Material *plan, EState *estate)
{
    MaterialState *ms = tdb_palloc0(sizeof(MaterialState));

    ms->ps.tag = T_PlanState;
    tdb_exec_init_common(&ms->ps, &plan->plan, estate, sizeof(MaterialState));
    ms->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    ms->store = tdb_tuplestore_create(
        estate->query_mcxt, (Size)estate->work_mem * 1024, estate->temp_dir);
    (void)tdb_tuplestore_add_reader(ms->store); /* READ_POS */
    (void)tdb_tuplestore_add_reader(ms->store); /* MARK_POS */
    ms->out =
        tdb_slot_create(ms->ps.lefttree->result_desc, &tdb_tts_ops_minimal);
    ms->ps.exec = exec_material;
    ms->ps.rescan = rescan_material;
    ms->ps.mark_pos = mark_material;
    ms->ps.restore_pos = restore_material;
    return &ms->ps;
}
