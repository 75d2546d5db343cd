/*
 * exec_modifytable.c -- ModifyTable: INSERT, UPDATE and DELETE of the
 * rows its child produces, with RETURNING.
 *
 *   INSERT  the child's rows are the new rows, in table column order
 *           (the planner added defaults and casts); NOT NULL is checked
 *           (23502), then the row is formed and inserted -- from the
 *           second row on through a bulk-insert state, so INSERT ...
 *           SELECT fills pages a page at a time.
 *   UPDATE  the child's rows carry the new column values and, in
 *           ctid_col, the TID of the row to replace.
 *   DELETE  the child's rows carry the TID in ctid_col.
 *
 * INSERT ... ON CONFLICT checks the arbiter indexes before inserting
 * (insert_on_conflict): a conflicting live row makes DO NOTHING skip the
 * new row and DO UPDATE update the conflicting one instead -- its new
 * version the SET list over the conflicting row (SCAN_VAR) and the
 * proposed one, EXCLUDED (INNER_VAR), when the WHERE holds -- with the
 * same constraint checks and index entries as an UPDATE.  A conflicting
 * row this very command inserted or updated is 21000, as in PostgreSQL.
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
    int64 ninserted;             /* INSERT: rows inserted so far */
    bool done;
    /* INSERT ... ON CONFLICT */
    bool *arbiters;                /* per index of indexes; NULL: every
                                    * unique index */
    TupleTableSlot *existing_slot; /* DO UPDATE: the conflicting row (heap
                                    * slot, pinned until the next row) */
    TupleTableSlot *update_slot;   /* DO UPDATE: its new version */
    ExprState **conflict_set;      /* the new version's columns */
    ExprState *conflict_where;     /* DO UPDATE ... WHERE, or NULL */
    double nconflicts;             /* EXPLAIN ANALYZE's counts */
    double nconflict_filtered;
    double nproposed;
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
form_row(ModifyTableState *mt, TupleTableSlot *row, TupleTableSlot *old,
         Datum **stored)
{
    MemoryContext cxt =
        tdb_mcxt_switch_to(mt->ps.econtext->per_row_mcxt);
    HeapTuple tup = tdb_toast_form_tuple(
        &mt->toast, row->tts_values, row->tts_isnull,
        old ? old->tts_values : NULL, old ? old->tts_isnull : NULL, stored);

    tdb_mcxt_switch_to(cxt);
    return tup;
}

/* Insert mt->row_slot (checked) with its index entries. */
static void
insert_row(ModifyTableState *mt)
{
    EState *estate = mt->ps.estate;
    HeapTuple tup = form_row(mt, mt->row_slot, NULL, NULL);

    /*
     * The bulk-insert state from the second row on: setting up its ring
     * cost a one-row INSERT 8,700 of the executor's 44,000 instructions
     * (callgrind, INSERT ... ON CONFLICT DO UPDATE of one row).
     */
    if (mt->bistate == NULL && mt->ninserted++ == 1)
        mt->bistate = tdb_heap_bulk_insert_begin();
    tdb_heap_insert(mt->rel, tup, estate->xact, mt->bistate);
    if (mt->indexes != NULL)
        tdb_exec_insert_index_entries(mt->indexes, estate, mt->ps.econtext,
                                      mt->row_slot, &tup->t_self);
}

/*
 * Replace the row at otid by row (checked already; old: the stored row
 * when it has out-of-line values, else NULL).  Returns tdb_heap_update's
 * result; on TM_OK the new version has its index entries and the old
 * one's out-of-line values that the new one does not keep are deleted.
 */
static TM_Result
update_row(ModifyTableState *mt, ItemPointer otid, TupleTableSlot *row,
           TupleTableSlot *old)
{
    EState *estate = mt->ps.estate;
    TM_FailureData tmfd;
    TM_Result result;
    Datum *stored;
    HeapTuple tup = form_row(mt, row, old, &stored);

    result = tdb_heap_update(mt->rel, otid, tup, estate->xact, &tmfd);
    if (result != TM_OK)
        return result;
    /* no HOT: the new version gets an entry in every index */
    if (mt->indexes != NULL)
        tdb_exec_insert_index_entries(mt->indexes, estate, mt->ps.econtext, row,
                                      &tup->t_self);
    if (old != NULL)
        tdb_toast_delete_row(&mt->toast, old->tts_values, old->tts_isnull,
                             stored, row->tts_isnull);
    return TM_OK;
}

/*
 * DO UPDATE of the conflicting row at tid, stored in mt->existing_slot:
 * the new version computed from it and the proposed row (mt->row_slot),
 * if the WHERE holds.  Returns the new version, or NULL when the WHERE
 * filtered the row out.
 */
static TupleTableSlot *
conflict_update(ModifyTableState *mt, ItemPointer tid)
{
    ExprContext *econtext = mt->ps.econtext;
    TupleTableSlot *existing = mt->existing_slot;
    TupleTableSlot *row = mt->update_slot;
    TupleDesc desc = mt->rel->rd_att;
    TupleTableSlot *old = NULL;
    HeapTuple stored = tdb_slot_heap_tuple(existing);
    MemoryContext cxt;

    tdb_slot_getallattrs(existing);
    econtext->scan_slot = existing;
    econtext->inner_slot = mt->row_slot;
    if (mt->conflict_where != NULL) {
        bool isnull;
        Datum ok = tdb_exec_eval_expr(mt->conflict_where, econtext, &isnull);

        if (isnull || !DatumGetBool(ok)) {
            mt->nconflict_filtered++;
            return NULL;
        }
    }
    cxt = tdb_mcxt_switch_to(econtext->per_row_mcxt);
    tdb_slot_clear(row);
    for (int i = 0; i < desc->natts; i++)
        row->tts_values[i] = tdb_exec_eval_expr(mt->conflict_set[i], econtext,
                                                &row->tts_isnull[i]);
    tdb_slot_store_virtual(row);
    tdb_mcxt_switch_to(cxt);
    check_constraints(mt, row);
    if (mt->toast.toastrel != NULL && stored != NULL &&
        tdb_toast_tuple_has_external(stored))
        old = existing;
    if (update_row(mt, tid, row, old) != TM_OK)
        elog(ERROR, "conflicting row changed before its update");
    return row;
}

/*
 * INSERT ... ON CONFLICT of mt->row_slot (checked already): insert it
 * unless a live row holds one of its keys in an arbiter index; then skip
 * it (DO NOTHING) or update that row (DO UPDATE).  Returns the inserted
 * or updated row, NULL when nothing was changed.
 *
 * The concurrent writers of a later issue turn this into PostgreSQL's
 * speculative insertion (execindex.h, tdb_exec_find_arbiter_conflict):
 * wait for a conflicting row's inserter still in progress and check
 * again, insert speculatively and come back to the check when the
 * arbiters' entries find a conflict after all, and lock the conflicting
 * row -- on TM_UPDATED / TM_DELETED, check again for the newer version.
 */
static TupleTableSlot *
insert_on_conflict(ModifyTableState *mt)
{
    EState *estate = mt->ps.estate;
    ItemPointerData conflict;

    for (;;) {
        if (!tdb_exec_find_arbiter_conflict(mt->indexes, mt->arbiters, estate,
                                            mt->ps.econtext, mt->row_slot,
                                            &conflict)) {
            insert_row(mt);
            return mt->row_slot;
        }
        if (mt->plan->on_conflict == ONCONFLICT_NOTHING) {
            mt->nconflicts++;
            return NULL;
        }
        switch (tdb_heap_fetch_for_update(mt->rel, estate->xact, &conflict,
                                          mt->existing_slot)) {
        case TM_OK:
            mt->nconflicts++;
            return conflict_update(mt, &conflict);
        case TM_INVISIBLE:
            /* inserted or updated by this command: which version wins
             * would depend on the order of the rows */
            ereport(ERROR, errcode(ERRCODE_CARDINALITY_VIOLATION),
                    errmsg("ON CONFLICT DO UPDATE command cannot affect row "
                           "a second time"),
                    errhint("Ensure that no rows proposed for insertion "
                            "within the same command have duplicate "
                            "constrained values."));
            break; /* not reached */
        case TM_UPDATED:
        case TM_DELETED:
            continue; /* gone since the check: check again */
        case TM_SELF_MODIFIED:
            /* the check sees no row this transaction deleted */
            elog(ERROR, "unexpected self-updated tuple");
            break; /* not reached */
        default:
            elog(ERROR, "conflicting row is being changed");
        }
    }
}

/*
 * Do one row's change.  Returns the changed row for RETURNING (the new
 * row, or DELETE's old one), NULL when skipped (already changed by us;
 * an ON CONFLICT that changed nothing).
 */
static TupleTableSlot *
apply_row(ModifyTableState *mt, TupleTableSlot *child_row)
{
    EState *estate = mt->ps.estate;
    TM_FailureData tmfd;
    TM_Result result;

    switch (mt->plan->operation) {
    case CMD_INSERT:
        load_new_row(mt, child_row);
        check_constraints(mt, mt->row_slot);
        mt->nproposed++;
        if (mt->plan->on_conflict != ONCONFLICT_NONE && mt->indexes != NULL)
            return insert_on_conflict(mt);
        insert_row(mt);
        return mt->row_slot;
    case CMD_UPDATE: {
        ItemPointerData otid = *child_tid(mt, child_row);
        TupleTableSlot *old = stored_row_with_externals(mt, &otid);

        load_new_row(mt, child_row);
        check_constraints(mt, mt->row_slot);
        result = update_row(mt, &otid, mt->row_slot, old);
        tdb_slot_clear(mt->stored_slot);
        if (result == TM_SELF_MODIFIED)
            return NULL;
        if (result != TM_OK)
            raise_concurrent(result, "update");
        return mt->row_slot;
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
            return NULL;
        }
        if (result != TM_OK)
            raise_concurrent(result, "delete");
        if (old != NULL) {
            tdb_toast_delete_row(&mt->toast, old->tts_values, old->tts_isnull,
                                 NULL, NULL);
            tdb_slot_clear(old);
        }
        return mt->old_slot;
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
        TupleTableSlot *changed;

        if (child_row == NULL) {
            mt->done = true;
            break;
        }
        tdb_exec_check_interrupts(node->estate);
        if (mt->existing_slot != NULL)
            tdb_slot_clear(mt->existing_slot); /* the last row's pin */
        tdb_exec_reset_row(econtext);
        changed = apply_row(mt, child_row);
        if (changed == NULL)
            continue;
        node->estate->processed++;
        if (mt->plan->returning != NIL) {
            econtext->scan_slot = changed;
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
    if (mt->existing_slot != NULL)
        tdb_slot_clear(mt->existing_slot);
}

/*
 * ON CONFLICT's arbiters as flags over mt->indexes (NULL: every unique
 * index), and DO UPDATE's expressions.
 */
static void
init_on_conflict(ModifyTableState *mt, EState *estate)
{
    ModifyTable *plan = mt->plan;

    if (plan->arbiter_oids != NIL && mt->indexes != NULL) {
        mt->arbiters = tdb_palloc0(sizeof(bool) * (Size)mt->indexes->n);
        for (int a = 0; a < list_length(plan->arbiter_oids); a++) {
            bool found = false;

            for (int i = 0; i < mt->indexes->n; i++)
                if (mt->indexes->w[i].ri->ri_oid ==
                    (Oid)list_nth_int(plan->arbiter_oids, a))
                    found = mt->arbiters[i] = true;
            if (!found)
                elog(ERROR, "arbiter index %u of \"%s\" is gone",
                     (Oid)list_nth_int(plan->arbiter_oids, a),
                     mt->rel->rd_name);
        }
    }
    if (plan->on_conflict != ONCONFLICT_UPDATE)
        return;
    mt->existing_slot = tdb_slot_create(mt->rel->rd_att, &tdb_tts_ops_heap);
    mt->update_slot = tdb_slot_create(mt->rel->rd_att, &tdb_tts_ops_virtual);
    mt->conflict_set = tdb_palloc(
        sizeof(ExprState *) * (Size)Max(1, list_length(plan->conflict_set)));
    for (int i = 0; i < list_length(plan->conflict_set); i++)
        mt->conflict_set[i] =
            tdb_exec_init_expr(list_nth(plan->conflict_set, i), estate);
    if (plan->conflict_where != NULL) {
        mt->conflict_where = tdb_exec_init_expr(plan->conflict_where, estate);
        mt->conflict_where->is_qual = true;
    }
}

void
tdb_exec_modifytable_conflict_stats(PlanState *node, double *inserted,
                                    double *conflicting, double *filtered)
{
    ModifyTableState *mt = (ModifyTableState *)node;

    *inserted = mt->nproposed - mt->nconflicts;
    *conflicting = mt->nconflicts;
    *filtered = mt->nconflict_filtered;
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
    if (plan->operation != CMD_DELETE)
        mt->indexes = tdb_exec_open_indexes(estate, mt->rel, plan->index_exprs,
                                            plan->index_keycols);
    for (int i = 0; i < list_length(plan->check_exprs); i++)
        mt->checks = tdb_lappend(
            mt->checks, tdb_exec_init_expr(list_nth(plan->check_exprs, i),
                                           estate));
    if (plan->on_conflict != ONCONFLICT_NONE)
        init_on_conflict(mt, estate);
    mt->ps.exec = exec_modifytable;
    mt->ps.end = end_modifytable;
    if (plan->returning != NIL)
        tdb_exec_assign_projection(&mt->ps);
    return &mt->ps;
}
