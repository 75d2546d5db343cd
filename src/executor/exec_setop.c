/*
 * exec_setop.c -- SetOp: INTERSECT / EXCEPT [ALL] over the two inputs
 * appended, each row tagged with its side (flag column: 0 left, 1
 * right) and sorted on the columns: for each group of equal rows, count
 * both sides and output per PostgreSQL's rules -- INTERSECT: one row if
 * both counts > 0; INTERSECT ALL: min(l, r) rows; EXCEPT: one row if
 * l > 0 and r == 0; EXCEPT ALL: max(l - r, 0) rows.
 */
#include "common/base.h"

#include "executor/exec_int.h"

typedef struct SetOpState {
    PlanState ps;
    TupleTableSlot *group_row;  /* copy of the current group's first row */
    TupleTableSlot *next_row;   /* the row that began the next group */
    bool have_next;
    bool input_done;
    int64 to_emit;              /* copies of group_row still to return */
} SetOpState;

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

static bool
is_right(SetOp *plan, TupleTableSlot *row)
{
    bool isnull;

    return DatumGetInt32(tdb_slot_getattr(row, plan->flag_col, &isnull)) != 0;
}

static TupleTableSlot *
exec_setop(PlanState *node)
{
    SetOpState *ss = (SetOpState *)node;
    SetOp *plan = (SetOp *)node->plan;

    for (;;) {
        int64 left = 0, right = 0;
        TupleTableSlot *row;

        if (ss->to_emit > 0) {
            ss->to_emit--;
            node->econtext->outer_slot = ss->group_row;
            tdb_exec_reset_row(node->econtext);
            return tdb_exec_project(node->projection, node->econtext);
        }
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
        if (is_right(plan, ss->group_row))
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
            if (is_right(plan, row))
                right++;
            else
                left++;
        }
        ss->to_emit = output_count(plan->cmd, left, right);
    }
}

static void
rescan_setop(PlanState *node)
{
    SetOpState *ss = (SetOpState *)node;

    ss->have_next = false;
    ss->input_done = false;
    ss->to_emit = 0;
    tdb_exec_rescan(node->lefttree);
}

PlanState *
tdb_exec_init_setop(SetOp *plan, EState *estate)
{
    SetOpState *ss = tdb_palloc0(sizeof(SetOpState));

    ss->ps.tag = T_PlanState;
    tdb_exec_init_common(&ss->ps, &plan->plan, estate, sizeof(SetOpState));
    ss->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    ss->group_row = tdb_slot_create(ss->ps.lefttree->result_desc,
                                    &tdb_tts_ops_minimal);
    ss->next_row = tdb_slot_create(ss->ps.lefttree->result_desc,
                                   &tdb_tts_ops_minimal);
    ss->ps.exec = exec_setop;
    ss->ps.rescan = rescan_setop;
    tdb_exec_assign_projection(&ss->ps);
    return &ss->ps;
}
