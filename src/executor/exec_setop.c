/*
 * exec_setop.c -- SetOp: INTERSECT / EXCEPT [ALL] over the two inputs
 * appended, each row tagged with its side (flag column: 0 left, 1 right).
 * For each group of equal rows (NULLs equal), with l and r its rows from
 * each side, the output is PostgreSQL's: INTERSECT one row if l > 0 and
 * r > 0; INTERSECT ALL min(l, r) rows; EXCEPT one row if l > 0 and r = 0;
 * EXCEPT ALL max(l - r, 0) rows (output_count).
 *
 * Two strategies (plannodes.h, SetOpStrategy):
 *
 *   SORTED  the input is sorted by the columns: a group is a run of equal
 *           rows, counted as it passes, output before the next run is
 *           read.  A copy of the group's first row is what is output.
 *
 *   HASHED  a hash grouping (hashgroup.h) keyed by the data columns whose
 *           per-group state is the two counters: the batch's whole input
 *           is counted first, then its groups are walked and each output
 *           its number of times, the row rebuilt from the group's stored
 *           key (no row is kept).  Only rows of the input that comes
 *           first in the Append (flag first_flag) create groups: a group
 *           the first input lacks has l = 0 (EXCEPT) or min(l, r) = 0
 *           (INTERSECT, whose inputs the planner may swap) and outputs
 *           nothing, so the table holds at most the first input's groups.
 *           The other input's rows only count in existing groups
 *           (tdb_hashgroup_lookup_existing).  Past work_mem x
 *           hash_mem_multiplier the grouping spills: rows whose group is
 *           not in the table go to partitions on disk, read back as later
 *           batches.  A partition keeps the input's order, so within each
 *           batch the first input's rows still come before the other's,
 *           and a group is complete in exactly one batch.  Output order is
 *           the table's, batch by batch.
 */
#include "common/base.h"

#include "executor/exec_int.h"
#include "executor/hashgroup.h"

/* Per group of the hashed strategy: its rows from each input. */
typedef struct SetOpCounts {
    int64 left;  /* rows with flag 0 */
    int64 right; /* rows with flag 1 */
} SetOpCounts;

typedef struct SetOpState {
    PlanState ps;
    SetOp *plan;
    int64 to_emit;             /* copies of the current group still to
                                * return */
    TupleTableSlot *group_row; /* the row output for the current group */
    /* sorted */
    TupleTableSlot *next_row; /* the row that began the next group */
    bool have_next;
    bool input_done;
    /* hashed */
    HashGrouping *hash;
    bool batch_filled;     /* the current batch's input is counted */
    bool hash_done;        /* every batch is out */
    uint32 rows_unchecked; /* input rows since the last interrupt
                            * check */
} SetOpState;

#define SETOP_INTERRUPT_ROWS 4096

static int64
output_count(SetOpCmd cmd, int64 left, int64 right)
{
    switch (cmd) {
    case SETOPCMD_INTERSECT:
        return left > 0 && right > 0 ? 1 : 0;
    case SETOPCMD_INTERSECT_ALL:
        return left < right ? left : right;
    case SETOPCMD_EXCEPT:
        return left > 0 && right == 0 ? 1 : 0;
    case SETOPCMD_EXCEPT_ALL:
        return left > right ? left - right : 0;
    }
    return 0;
}

/* The row's flag: 0 (left input) or 1 (right input). */
static int
row_flag(SetOp *plan, TupleTableSlot *row)
{
    bool isnull;

    return DatumGetInt32(tdb_slot_getattr(row, plan->flag_col, &isnull)) != 0;
}

/* Return the current group's row once more, projected. */
static TupleTableSlot *
emit_group_row(SetOpState *ss)
{
    ExprContext *econtext = ss->ps.econtext;

    ss->to_emit--;
    econtext->outer_slot = ss->group_row;
    tdb_exec_reset_row(econtext);
    return tdb_exec_project(ss->ps.projection, econtext);
}

/* ----------------------------------------------------------------------
 * Sorted
 * ---------------------------------------------------------------------- */

static TupleTableSlot *
exec_setop_sorted(PlanState *node)
{
    SetOpState *ss = (SetOpState *)node;
    SetOp *plan = ss->plan;

    for (;;) {
        int64 left = 0, right = 0;
        TupleTableSlot *row;

        if (ss->to_emit > 0)
            return emit_group_row(ss);
        if (ss->have_next) {
            tdb_slot_copy(ss->group_row, ss->next_row);
            ss->have_next = false;
        } else {
            if (ss->input_done)
                return NULL;
            row = tdb_exec_proc_node(node->lefttree);
            if (row == NULL) {
                ss->input_done = true;
                return NULL;
            }
            tdb_slot_copy(ss->group_row, row);
        }
        if (row_flag(plan, ss->group_row))
            right++;
        else
            left++;
        while (!ss->input_done) {
            row = tdb_exec_proc_node(node->lefttree);
            if (row == NULL) {
                ss->input_done = true;
                break;
            }
            if (!tdb_exec_rows_equal(ss->group_row, row, plan->num_cols,
                                     plan->col_idx, plan->eq_ops)) {
                tdb_slot_copy(ss->next_row, row);
                ss->have_next = true;
                break;
            }
            if (row_flag(plan, row))
                right++;
            else
                left++;
        }
        ss->to_emit = output_count(plan->cmd, left, right);
    }
}

/* ----------------------------------------------------------------------
 * Hashed
 * ---------------------------------------------------------------------- */

/*
 * Count the current batch's input: a row of the first input finds or
 * creates its group, a row of the other only counts in an existing one;
 * either may go to a spill partition instead, to be counted in a later
 * batch.
 */
static void
hashed_fill(SetOpState *ss)
{
    SetOp *plan = ss->plan;
    TupleTableSlot *row;

    while ((row = tdb_hashgroup_next_input(ss->hash, ss->ps.lefttree)) !=
           NULL) {
        int flag = row_flag(plan, row);
        SetOpCounts *counts;

        if (unlikely(++ss->rows_unchecked >= SETOP_INTERRUPT_ROWS)) {
            ss->rows_unchecked = 0;
            tdb_exec_check_interrupts(ss->ps.estate);
        }
        if (flag == plan->first_flag) {
            bool is_new;

            counts = tdb_hashgroup_lookup(ss->hash, row, &is_new);
        } else
            counts = tdb_hashgroup_lookup_existing(ss->hash, row);
        if (counts == NULL)
            continue;
        if (flag == 0)
            counts->left++;
        else
            counts->right++;
    }
    ss->batch_filled = true;
}

static TupleTableSlot *
exec_setop_hashed(PlanState *node)
{
    SetOpState *ss = (SetOpState *)node;

    for (;;) {
        SetOpCounts *counts;

        if (ss->to_emit > 0)
            return emit_group_row(ss);
        if (ss->hash_done)
            return NULL;
        if (!ss->batch_filled)
            hashed_fill(ss);
        /* group_row gets the group's key, valid until the next batch */
        counts = tdb_hashgroup_next_group(ss->hash, ss->group_row);
        if (counts != NULL) {
            ss->to_emit =
                output_count(ss->plan->cmd, counts->left, counts->right);
            continue;
        }
        /* the batch is out; the next spilled one, if any, begins */
        ss->batch_filled = false;
        if (!tdb_hashgroup_next_batch(ss->hash))
            ss->hash_done = true;
    }
}

bool
tdb_exec_setop_hash_stats(PlanState *node, int *batches, int64 *peak_kb,
                          int64 *disk_kb)
{
    SetOpState *ss = (SetOpState *)node;

    if (node->exec != exec_setop_hashed)
        return false;
    tdb_hashgroup_stats(ss->hash, batches, peak_kb, disk_kb);
    return true;
}

static void
rescan_setop(PlanState *node)
{
    SetOpState *ss = (SetOpState *)node;

    ss->to_emit = 0;
    ss->have_next = false;
    ss->input_done = false;
    if (ss->hash != NULL) {
        tdb_hashgroup_reset(ss->hash);
        tdb_slot_clear(ss->group_row);
        ss->batch_filled = false;
        ss->hash_done = false;
    }
    tdb_exec_rescan(node->lefttree);
}

PlanState *
tdb_exec_init_setop(SetOp *plan, EState *estate)
{
    SetOpState *ss = tdb_palloc0(sizeof(SetOpState));
    TupleDesc input_desc;

    ss->ps.tag = T_PlanState;
    tdb_exec_init_common(&ss->ps, &plan->plan, estate, sizeof(SetOpState));
    ss->plan = plan;
    ss->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    input_desc = ss->ps.lefttree->result_desc;
    if (plan->strategy == SETOP_HASHED) {
        HashGroupingSpec spec = {0};

        spec.input_desc = input_desc;
        spec.nkeys = plan->num_cols;
        spec.key_cols = plan->col_idx;
        spec.eq_ops = (const OperDesc *const *)plan->eq_ops;
        spec.deform_natts = plan->flag_col; /* read with the keys */
        spec.state_size = sizeof(SetOpCounts);
        spec.est_groups = plan->num_groups;
        spec.est_input_rows = plan->plan.lefttree->plan_rows;
        spec.can_spill = true;
        ss->hash = tdb_hashgroup_create(&spec, estate);
        ss->group_row = tdb_slot_create(input_desc, &tdb_tts_ops_virtual);
        ss->ps.exec = exec_setop_hashed;
    } else {
        ss->group_row = tdb_slot_create(input_desc, &tdb_tts_ops_minimal);
        ss->next_row = tdb_slot_create(input_desc, &tdb_tts_ops_minimal);
        ss->ps.exec = exec_setop_sorted;
    }
    ss->ps.rescan = rescan_setop;
    tdb_exec_assign_projection(&ss->ps);
    return &ss->ps;
}
