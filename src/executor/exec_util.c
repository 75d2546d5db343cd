/*
 * exec_util.c -- what every plan node's initialization shares: the
 * ExprContext, the result descriptor and slot, the compiled projection
 * and qual.
 */
#include "common/base.h"

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/executor.h"
#include "toast/detoast.h"

TupleDesc
tdb_exec_type_from_tlist(List *targetlist)
{
    int n = list_length(targetlist);
    TupleDesc desc = tdb_tupdesc_create(n);

    for (int i = 0; i < n; i++) {
        TargetEntry *te = list_nth(targetlist, i);
        Oid typid = exprType(te->expr);
        const TypeInfo *type = tdb_type_lookup(typid);

        if (type == NULL)
            elog(ERROR, "unknown result type %u", typid);
        tdb_tupdesc_init_attr(desc, i,
                              te->resname != NULL ? te->resname : "?column?",
                              typid, exprTypmod(te->expr),
                              type->len == -2 ? -1 : type->len,
                              type->len == -2 ? false : type->byval,
                              type->align, type->storage);
    }
    tdb_tupdesc_finalize(desc);
    return desc;
}

void
tdb_exec_init_common(PlanState *ps, Plan *plan, EState *estate, size_t size)
{
    ExprContext *econtext = tdb_palloc0(sizeof(ExprContext));

    (void)size;
    ps->plan = plan;
    ps->estate = estate;
    econtext->per_query_mcxt = estate->query_mcxt;
    econtext->per_row_mcxt = tdb_aset_create(
        estate->query_mcxt, "ExprContext", ALLOCSET_DEFAULT_SIZES);
    econtext->estate = estate;
    ps->econtext = econtext;
    ps->result_desc = tdb_exec_type_from_tlist(plan->targetlist);
    ps->result_slot = tdb_slot_create(ps->result_desc, &tdb_tts_ops_virtual);
}

void
tdb_exec_assign_projection(PlanState *ps)
{
    ps->projection = tdb_exec_init_projection(ps->plan->targetlist,
                                              ps->result_slot, ps->estate);
    ps->qual = tdb_exec_init_qual(ps->plan->qual, ps->estate);
}

TupleTableSlot *
tdb_exec_project_or_pass(PlanState *ps, TupleTableSlot *in)
{
    (void)in;
    return tdb_exec_project(ps->projection, ps->econtext);
}

/* a = b for two varlena values, detoasted for the call only (through the
 * query's cache: two reads of one toasted value are the same pointer). */
static bool
toastable_values_equal(Datum a, Datum b, const OperDesc *eq)
{
    FunctionCallInfoData fcinfo = {0};
    DetoastRef ra, rb;
    const varlena *va =
        tdb_detoast_acquire((const varlena *)DatumGetPointer(a), &ra);
    const varlena *vb =
        tdb_detoast_acquire((const varlena *)DatumGetPointer(b), &rb);
    bool equal = va == vb;

    if (!equal) {
        fcinfo.nargs = 2;
        fcinfo.args[0].value = PointerGetDatum(va);
        fcinfo.args[1].value = PointerGetDatum(vb);
        equal = DatumGetBool(eq->fn(&fcinfo));
    }
    tdb_detoast_release(&rb);
    tdb_detoast_release(&ra);
    return equal;
}

bool
tdb_exec_rows_equal(TupleTableSlot *a, TupleTableSlot *b, int ncols,
                    const int *cols, const OperDesc *const *eq_ops)
{
    for (int k = 0; k < ncols; k++) {
        bool an, bn;
        Datum av = tdb_slot_getattr(a, cols[k], &an);
        Datum bv = tdb_slot_getattr(b, cols[k], &bn);
        FunctionCallInfoData fcinfo = {0};

        if (an || bn) {
            if (an != bn)
                return false;
            continue; /* NULLs are not distinct here */
        }
        if (TupleDescAttr(a->tts_tupleDescriptor, cols[k] - 1)->attlen == -1) {
            if (!toastable_values_equal(av, bv, eq_ops[k]))
                return false;
            continue;
        }
        fcinfo.nargs = 2;
        fcinfo.args[0].value = av;
        fcinfo.args[1].value = bv;
        if (!DatumGetBool(eq_ops[k]->fn(&fcinfo)))
            return false;
    }
    return true;
}
