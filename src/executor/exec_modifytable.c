/*
 * exec_modifytable.c -- ModifyTable: INSERT, UPDATE and DELETE of the
 * rows its child produces, with RETURNING.
 *
 *   INSERT  the child's rows are the new rows, in table column order
 *           (the planner added defaults and casts); NOT NULL is checked
 *           (23502), then the row is formed and inserted -- through a
 *           bulk-insert state, so INSERT ... SELECT fills pages a page
 *           at a time.
 *   UPDATE  the child's rows carry the new column values and, in
 *           ctid_col, the TID of the row to replace.
 *   DELETE  the child's rows carry the TID in ctid_col.
 *
 * A row the statement itself already changed (TM_SELF_MODIFIED: a join
 * produced it twice) is skipped, as PostgreSQL does.  A row changed by a
 * transaction that committed after the statement's snapshot raises
 * 40001: tupledb does not re-evaluate the statement for the newer
 * version yet (PostgreSQL's EvalPlanQual in READ COMMITTED).
 *
 * The node returns RETURNING rows (scan row = the new or deleted row);
 * without RETURNING it consumes everything on its first call and
 * returns NULL.  estate->processed counts the rows changed.
 */
#include "common/base.h"

#include <string.h>

#include "access/heapam.h"
#include "common/elog.h"
#include "executor/exec_int.h"
#include "executor/execindex.h"
#include "toast/toaster.h"
#include "types/builtins.h"

typedef struct ModifyTableState {
    PlanState ps;
    ModifyTable *plan;
    Relation rel;
    BulkInsertState bistate;
    TupleTableSlot *row_slot;   /* the changed row, table-shaped */
    TupleTableSlot *old_slot;   /* DELETE ... RETURNING: the old row */
    List *checks;               /* ExprState per CHECK constraint */
    ToastTarget toast;          /* where rows go, for the toaster */
    TupleTableSlot *stored_slot; /* a changed row as stored (heap slot) */
    IndexWriters *indexes;       /* the table's indexes, or NULL */
    bool done;
} ModifyTableState;

/* "Failing row contains (...)." for constraint violations. */
static void
failing_row(ModifyTableState *mt, TupleTableSlot *row, char *detail,
            Size size)
{
    TupleDesc desc = mt->rel->rd_att;
    Size len = (Size)snprintf(detail, size, "Failing row contains (");

    for (int c = 0; c < desc->natts && len < size; c++) {
        const char *str =
            row->tts_isnull[c]
                ? "null"
                : tdb_type_output(TupleDescAttr(desc, c)->atttypid,
                                  row->tts_values[c]);

        len += (Size)snprintf(detail + len, size - len, "%s%s",
                              c > 0 ? ", " : "", str);
    }
    if (len < size)
        snprintf(detail + len, size - len, ").");
}

/* NOT NULL (23502) and CHECK (23514), with PostgreSQL's messages. */
static void
check_constraints(ModifyTableState *mt, TupleTableSlot *row)
{
    TupleDesc desc = mt->rel->rd_att;
    ExprContext *econtext = mt->ps.econtext;
    char detail[ERRMSG_MAX];

    for (int i = 0; i < desc->natts; i++) {
        const TupleAttr *att = TupleDescAttr(desc, i);

        if (!att->attnotnull || !row->tts_isnull[i])
            continue;
        failing_row(mt, row, detail, sizeof(detail));
        ereport(ERROR, errcode(ERRCODE_NOT_NULL_VIOLATION),
                errmsg("null value in column \"%s\" of relation \"%s\" "
                       "violates not-null constraint",
                       att->attname, mt->rel->rd_name),
                errdetail("%s", detail));
    }
    econtext->scan_slot = row;
    for (int i = 0; i < list_length(mt->checks); i++) {
        bool isnull;
        Datum ok = tdb_exec_eval_expr(list_nth(mt->checks, i), econtext,
                                      &isnull);

        if (isnull || DatumGetBool(ok))
            continue; /* NULL passes a CHECK */
        failing_row(mt, row, detail, sizeof(detail));
        ereport(ERROR, errcode(ERRCODE_CHECK_VIOLATION),
                errmsg("new row for relation \"%s\" violates check "
                       "constraint \"%s\"",
                       mt->rel->rd_name,
                       (const char *)list_nth(mt->plan->check_names, i)),
                errdetail("%s", detail));
    }
}

/* Copy the child's row (table columns first) into the table-shaped slot. */
static void
load_new_row(ModifyTableState *mt, TupleTableSlot *child_row)
{
    TupleDesc desc = mt->rel->rd_att;
    TupleTableSlot *row = mt->row_slot;

    tdb_slot_getallattrs(child_row);
    tdb_slot_clear(row);
    for (int i = 0; i < desc->natts; i++) {
        int col = mt->plan->operation == CMD_UPDATE
                      ? mt->plan->update_cols[i] - 1
                      : i;

        row->tts_values[i] = child_row->tts_values[col];
        row->tts_isnull[i] = child_row->tts_isnull[col];
    }
    tdb_slot_store_virtual(row);
}

static ItemPointer
child_tid(ModifyTableState *mt, TupleTableSlot *child_row)
{
    bool isnull;
    Datum d = tdb_slot_getattr(child_row, mt->plan->ctid_col, &isnull);

    if (isnull)
        elog(ERROR, "ctid is NULL");
    return (ItemPointer)DatumGetPointer(d);
}

static void
raise_concurrent(TM_Result result, const char *what)
{
    (void)result;
    ereport(ERROR, errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
            errmsg("could not serialize access due to concurrent %s", what));
}

/*
 * The stored values of the row at tid when they include out-of-line
 * values (which an UPDATE may keep and a DELETE must delete), deformed
 * into mt->stored_slot; NULL otherwise.
 */
static TupleTableSlot *
stored_row_with_externals(ModifyTableState *mt, ItemPointer tid)
{
    EState *estate = mt->ps.estate;
    HeapTuple tup;

    if (mt->toast.toastrel == NULL)
        return NULL;
    if (!tdb_heap_fetch(mt->rel, estate->snapshot, tid, mt->stored_slot))
        return NULL;
    tup = tdb_slot_heap_tuple(mt->stored_slot);
    if (tup == NULL || !tdb_toast_tuple_has_external(tup)) {
        tdb_slot_clear(mt->stored_slot); /* its pin */
        return NULL;
    }
    tdb_slot_getallattrs(mt->stored_slot);
    return mt->stored_slot;
}

/*
 * Form the row to store from mt->row_slot (toasting what needs it; old:
 * the stored row an UPDATE replaces, or NULL; *stored as for
 * tdb_toast_form_tuple), in the per-row context, which the next row's
 * tdb_exec_reset_row empties: the heap copies the tuple into its page,
 * so nothing outlives the row.  Formed in the query context instead, an
 * INSERT ... SELECT of 1,000,000 16-int4 rows kept every tuple until the
 * end of the statement: 130 MB (t16_text: 195 MB) at the peak, of which
 * glibc then kept 57 MB resident in the thread's arena for good.
 */
static HeapTuple
form_row(ModifyTableState *mt, TupleTableSlot *old, Datum **stored)
{
    MemoryContext cxt =
        tdb_mcxt_switch_to(mt->ps.econtext->per_row_mcxt);
    HeapTuple tup = tdb_toast_form_tuple(
        &mt->toast, mt->row_slot->tts_values, mt->row_slot->tts_isnull,
        old ? old->tts_values : NULL, old ? old->tts_isnull : NULL, stored);

    tdb_mcxt_switch_to(cxt);
    return tup;
}

/* Do one row's change.  false: skipped (already changed by us). */
static bool
apply_row(ModifyTableState *mt, TupleTableSlot *child_row)
{
    EState *estate = mt->ps.estate;
    TM_FailureData tmfd;
    TM_Result result;

    switch (mt->plan->operation) {
    case CMD_INSERT: {
        HeapTuple tup;

        load_new_row(mt, child_row);
        check_constraints(mt, mt->row_slot);
        tup = form_row(mt, NULL, NULL);
        tdb_heap_insert(mt->rel, tup, estate->xact, mt->bistate);
        if (mt->indexes != NULL)
            tdb_exec_insert_index_entries(mt->indexes, estate, mt->ps.econtext,
                                          mt->row_slot, &tup->t_self);
        return true;
    }
    case CMD_UPDATE: {
        ItemPointerData otid = *child_tid(mt, child_row);
        TupleTableSlot *old = stored_row_with_externals(mt, &otid);
        Datum *stored;
        HeapTuple tup;

        load_new_row(mt, child_row);
        check_constraints(mt, mt->row_slot);
        tup = form_row(mt, old, &stored);
        result = tdb_heap_update(mt->rel, &otid, tup, estate->xact, &tmfd);
        if (result == TM_SELF_MODIFIED) {
            tdb_slot_clear(mt->stored_slot);
            return false;
        }
        if (result != TM_OK)
            raise_concurrent(result, "update");
        /* no HOT: the new version gets an entry in every index */
        if (mt->indexes != NULL)
            tdb_exec_insert_index_entries(mt->indexes, estate, mt->ps.econtext,
                                          mt->row_slot, &tup->t_self);
        if (old != NULL) {
            tdb_toast_delete_row(&mt->toast, old->tts_values, old->tts_isnull,
                                 stored, mt->row_slot->tts_isnull);
            tdb_slot_clear(old);
        }
        return true;
    }
    case CMD_DELETE: {
        ItemPointerData tid = *child_tid(mt, child_row);
        TupleTableSlot *old = stored_row_with_externals(mt, &tid);

        if (mt->plan->returning != NIL) {
            /* the old row, for RETURNING: the child's scan row */
            tdb_slot_getallattrs(child_row);
            tdb_slot_copy(mt->old_slot, child_row);
        }
        result = tdb_heap_delete(mt->rel, &tid, estate->xact, &tmfd);
        if (result == TM_SELF_MODIFIED) {
            tdb_slot_clear(mt->stored_slot);
            return false;
        }
        if (result != TM_OK)
            raise_concurrent(result, "delete");
        if (old != NULL) {
            tdb_toast_delete_row(&mt->toast, old->tts_values, old->tts_isnull,
                                 NULL, NULL);
            tdb_slot_clear(old);
        }
        return true;
    }
    default:
        elog(ERROR, "unexpected ModifyTable operation");
    }
}

static TupleTableSlot *
exec_modifytable(PlanState *node)
{
    ModifyTableState *mt = (ModifyTableState *)node;
    ExprContext *econtext = node->econtext;

    while (!mt->done) {
        TupleTableSlot *child_row = tdb_exec_proc_node(node->lefttree);

        if (child_row == NULL) {
            mt->done = true;
            break;
        }
        tdb_exec_check_interrupts(node->estate);
        tdb_exec_reset_row(econtext);
        if (!apply_row(mt, child_row))
            continue;
        node->estate->processed++;
        if (mt->plan->returning != NIL) {
            econtext->scan_slot = mt->plan->operation == CMD_DELETE
                                      ? mt->old_slot
                                      : mt->row_slot;
            /* UPDATE ... FROM / DELETE ... USING: the other tables' columns */
            econtext->outer_slot = child_row;
            return tdb_exec_project(node->projection, econtext);
        }
    }
    if (mt->bistate != NULL) {
        tdb_heap_bulk_insert_end(mt->bistate);
        mt->bistate = NULL;
    }
    return NULL;
}

static void
end_modifytable(PlanState *node)
{
    ModifyTableState *mt = (ModifyTableState *)node;

    if (mt->bistate != NULL)
        tdb_heap_bulk_insert_end(mt->bistate);
    mt->bistate = NULL;
    tdb_slot_clear(mt->stored_slot);
}

PlanState *
tdb_exec_init_modifytable(ModifyTable *plan, EState *estate)
{
    ModifyTableState *mt = tdb_palloc0(sizeof(ModifyTableState));

    mt->ps.tag = T_PlanState;
    /* the node's output is RETURNING's shape */
    plan->plan.targetlist = plan->returning;
    tdb_exec_init_common(&mt->ps, &plan->plan, estate,
                         sizeof(ModifyTableState));
    mt->plan = plan;
    mt->rel = tdb_exec_open_relation(estate, plan->relid);
    mt->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    mt->row_slot = tdb_slot_create(mt->rel->rd_att, &tdb_tts_ops_virtual);
    mt->old_slot = tdb_slot_create(mt->ps.lefttree->result_desc,
                                   &tdb_tts_ops_minimal);
    mt->stored_slot = tdb_slot_create(mt->rel->rd_att, &tdb_tts_ops_heap);
    tdb_exec_init_toast_target(estate, mt->rel, &mt->toast);
    if (plan->operation == CMD_INSERT)
        mt->bistate = tdb_heap_bulk_insert_begin();
    if (plan->operation != CMD_DELETE)
        mt->indexes = tdb_exec_open_indexes(estate, mt->rel, plan->index_exprs,
                                            plan->index_keycols);
    for (int i = 0; i < list_length(plan->check_exprs); i++)
        mt->checks = tdb_lappend(
            mt->checks, tdb_exec_init_expr(list_nth(plan->check_exprs, i),
                                           estate));
    mt->ps.exec = exec_modifytable;
    mt->ps.end = end_modifytable;
    if (plan->returning != NIL)
        tdb_exec_assign_projection(&mt->ps);
    return &mt->ps;
}
