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
 *   HASHED  the whole input is read first into a compact tuple hash table
 *           (tuplehash.h) whose per-group state is the two counters; then
 *           the table is walked and each group output its number of times,
 *           the row rebuilt from the group's stored key (no row is kept).
 *           Only rows of the input that comes first in the Append (flag
 *           first_flag) create groups: a group the first input lacks has
 *           l = 0 (EXCEPT) or min(l, r) = 0 (INTERSECT, whose inputs the
 *           planner may swap) and outputs nothing, so the table holds at
 *           most the first input's groups.  Output order is the table's.
 *
 * The hashed strategy is written as three parts so that the grouping can
 * later move onto a shared (spilling) hash-grouping module without
 * touching the rest: the grouping and output rules (hashed_advance,
 * hashed_next_group: a key and a flag in, groups and their counts out),
 * where the rows come from (hashed_fill: the child's rows), and the node
 * around them.
 */
#include "common/base.h"

#include "executor/exec_int.h"

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
    TupleTableSlot *next_row;   /* the row that began the next group */
    bool have_next;
    bool input_done;
    /* hashed */
    HashKeyInfo *keys;
    TupleHashTable *table;
    bool table_filled;
    TupleHashIterator iter;
    Datum *key_values; /* a row's key (ncols) */
    bool *key_isnull;
    Size mem_peak;         /* bytes the table held at most */
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
 * Hashed: grouping and output
 * ---------------------------------------------------------------------- */

/*
 * Count one row with key values/isnull (ncols each) from the input
 * flagged `flag`.  Rows of the first input find or create their group;
 * rows of the second only count in an existing one.
 */
static void
hashed_advance(SetOpState *ss, const Datum *values, const bool *isnull,
               int flag)
{
    uint32 hash = tdb_exec_hashkey_hash(ss->keys, values, isnull);
    SetOpCounts *counts;

    if (flag == ss->plan->first_flag) {
        bool is_new;

        counts = tdb_tuplehash_lookup_or_insert(ss->table, values, isnull, hash,
                                                &is_new);
    } else {
        counts = tdb_tuplehash_lookup(ss->table, values, isnull, hash);
        if (counts == NULL)
            return;
    }
    if (flag == 0)
        counts->left++;
    else
        counts->right++;
}

/*
 * Advance to the next group that outputs rows: its row (the key, into
 * group_row) and to_emit.  false when the table is exhausted.
 */
static bool
hashed_next_group(SetOpState *ss)
{
    SetOpCounts *counts;

    while ((counts = tdb_tuplehash_iter_next(ss->table, &ss->iter)) != NULL) {
        int64 n = output_count(ss->plan->cmd, counts->left, counts->right);
        TupleTableSlot *row = ss->group_row;

        if (n == 0)
            continue;
        tdb_slot_clear(row);
        tdb_tuplehash_group_key(ss->table, counts, ss->key_values,
                                ss->key_isnull);
        for (int c = 0; c < row->tts_tupleDescriptor->natts; c++) {
            row->tts_values[c] = (Datum)0;
            row->tts_isnull[c] = true; /* the flag: never read */
        }
        for (int k = 0; k < ss->plan->num_cols; k++) {
            row->tts_values[ss->plan->col_idx[k] - 1] = ss->key_values[k];
            row->tts_isnull[ss->plan->col_idx[k] - 1] = ss->key_isnull[k];
        }
        tdb_slot_store_virtual(row);
        ss->to_emit = n;
        return true;
    }
    return false;
}

/* ----------------------------------------------------------------------
 * Hashed: where the rows come from
 * ---------------------------------------------------------------------- */

/* Read the whole input into the table. */
static void
hashed_fill(SetOpState *ss)
{
    SetOp *plan = ss->plan;
    TupleTableSlot *row;

    while ((row = tdb_exec_proc_node(ss->ps.lefttree)) != NULL) {
        if (unlikely(++ss->rows_unchecked >= SETOP_INTERRUPT_ROWS)) {
            ss->rows_unchecked = 0;
            tdb_exec_check_interrupts(ss->ps.estate);
        }
        for (int k = 0; k < plan->num_cols; k++)
            ss->key_values[k] =
                tdb_slot_getattr(row, plan->col_idx[k], &ss->key_isnull[k]);
        hashed_advance(ss, ss->key_values, ss->key_isnull, row_flag(plan, row));
    }
    ss->mem_peak = Max(ss->mem_peak, tdb_tuplehash_mem_allocated(ss->table));
    ss->table_filled = true;
    tdb_tuplehash_iter_start(ss->table, &ss->iter);
}

/* ----------------------------------------------------------------------
 * The node
 * ---------------------------------------------------------------------- */

static TupleTableSlot *
exec_setop_hashed(PlanState *node)
{
    SetOpState *ss = (SetOpState *)node;

    if (!ss->table_filled)
        hashed_fill(ss);
    if (ss->to_emit == 0 && !hashed_next_group(ss))
        return NULL;
    return emit_group_row(ss);
}

bool
tdb_exec_setop_hash_stats(PlanState *node, int *batches, int64 *peak_kb)
{
    SetOpState *ss = (SetOpState *)node;

    if (node->exec != exec_setop_hashed)
        return false;
    *batches = 1; /* the table does not spill yet (issue 8) */
    *peak_kb = (int64)((ss->mem_peak + 1023) / 1024);
    return true;
}

static void
rescan_setop(PlanState *node)
{
    SetOpState *ss = (SetOpState *)node;

    ss->to_emit = 0;
    ss->have_next = false;
    ss->input_done = false;
    if (ss->table != NULL) {
        tdb_tuplehash_reset(ss->table);
        ss->table_filled = false;
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
        ss->keys = tdb_exec_hashkey_init(input_desc, plan->col_idx,
                                         plan->num_cols, plan->eq_ops);
        ss->table = tdb_tuplehash_create(tdb_exec_hashkey_columns(ss->keys),
                                         plan->num_cols, sizeof(SetOpCounts),
                                         (Size)Min(plan->num_groups, 65536.0),
                                         estate->query_mcxt);
        ss->key_values =
            tdb_palloc(sizeof(Datum) * (Size)Max(1, plan->num_cols));
        ss->key_isnull =
            tdb_palloc(sizeof(bool) * (Size)Max(1, plan->num_cols));
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
