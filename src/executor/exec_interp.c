/*
 * exec_interp.c -- the expression interpreter (expr.h): runs a step
 * program with computed-goto dispatch (GCC's labels as values), one
 * indirect jump per step and no switch, as PostgreSQL's ExecInterpExpr.
 *
 * Called with state == NULL it returns its label table, which the
 * compiler uses to replace opcodes by addresses (exec_expr.c, finish()).
 */
#include "common/base.h"

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/executor.h"
#include "executor/expr_int.h"
#include "toast/detoast.h"
#include "types/builtins.h"

#define EEO_CASE(op) CASE_##op:
#define EEO_DISPATCH() goto *((void *)op->opcode)
#define EEO_NEXT()                                                          \
    do {                                                                    \
        op++;                                                               \
        EEO_DISPATCH();                                                     \
    } while (0)
#define EEO_JUMP(target)                                                    \
    do {                                                                    \
        op = &state->steps[target];                                         \
        EEO_DISPATCH();                                                     \
    } while (0)

/* Deform slot up to column n if it is not already. */
static inline void
fetch_upto(TupleTableSlot *slot, int n)
{
    if (slot->tts_nvalid < n)
        tdb_slot_getsomeattrs(slot, n);
}

/* Run a function call step's function. */
static inline Datum
call_function(ExprEvalStep *op)
{
    FunctionCallInfo fcinfo = op->d.func.fcinfo;

    fcinfo->isnull = false;
    return op->d.func.fn(fcinfo);
}

/*
 * x op ANY / ALL (array), as PostgreSQL's ExecEvalScalarArrayOp: NULL
 * for a NULL array; false (ANY) / true (ALL) for an empty one, even for
 * a NULL x; NULL for a NULL x and a strict op; else the first element
 * deciding it (true for ANY, false for ALL), or NULL if a comparison was
 * NULL, or the other answer.  Elements are read in the per-row context.
 */
static TDB_NOINLINE Datum
scalar_array_op(ScalarArrayOpState *ss, bool *isnull)
{
    FunctionCallInfo fcinfo = ss->fcinfo;
    Datum *elems = ss->elems;
    int n = ss->nelems;
    bool have_null = false;

    *isnull = false;
    if (ss->array_isnull) {
        *isnull = true;
        return (Datum)0;
    }
    if (!ss->is_const) {
        ArrayValues av = tdb_array_values(ss->array);

        n = av.n;
        elems = av.values;
    }
    if (n == 0)
        return BoolGetDatum(!ss->use_or);
    if (fcinfo->args[0].isnull && ss->strict) {
        *isnull = true;
        return (Datum)0;
    }
    fcinfo->args[1].isnull = false;
    for (int i = 0; i < n; i++) {
        Datum r;

        fcinfo->args[1].value = elems[i];
        fcinfo->isnull = false;
        r = ss->fn(fcinfo);
        if (fcinfo->isnull)
            have_null = true;
        else if (DatumGetBool(r) == ss->use_or)
            return BoolGetDatum(ss->use_or);
    }
    if (have_null) {
        *isnull = true;
        return (Datum)0;
    }
    return BoolGetDatum(!ss->use_or);
}

/* ARRAY[...] of the evaluated elements (detoasted: arrays hold plain
 * values), in the current memory context. */
static TDB_NOINLINE Datum
array_construct(ExprEvalStep *op)
{
    int n = op->d.array.nelems;
    Datum *values = tdb_palloc(sizeof(Datum) * (Size)Max(n, 1));

    for (int i = 0; i < n; i++) {
        if (op->d.array.nulls[i])
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("arrays with NULL elements are not supported "
                           "yet"));
        values[i] =
            tdb_type_detoast(op->d.array.elemtype, op->d.array.values[i]);
    }
    return tdb_array_construct(op->d.array.elemtype, values, n, 1);
}

static bool
booltest(int test, Datum value, bool isnull)
{
    switch (test) {
    case IS_TRUE:
        return !isnull && DatumGetBool(value);
    case IS_NOT_TRUE:
        return isnull || !DatumGetBool(value);
    case IS_FALSE:
        return !isnull && !DatumGetBool(value);
    case IS_NOT_FALSE:
        return isnull || DatumGetBool(value);
    case IS_UNKNOWN:
        return isnull;
    default:
        return !isnull;
    }
}

/* Output then input: a cast through text. */
static Datum
io_coerce(ExprEvalStep *op, Datum value)
{
    char *str = op->d.iocoerce.out->output(value);

    return op->d.iocoerce.in->input(str, op->d.iocoerce.typmod);
}

/* GREATEST / LEAST over the evaluated arguments; NULLs are ignored. */
static Datum
minmax(ExprEvalStep *op, bool *isnull)
{
    FunctionCallInfoData fcinfo = {0};
    Datum best = 0;
    bool found = false;

    for (int i = 0; i < op->d.minmax.nargs; i++) {
        int32 cmp;

        if (op->d.minmax.nulls[i])
            continue;
        if (!found) {
            best = op->d.minmax.values[i];
            found = true;
            continue;
        }
        fcinfo.nargs = 2;
        fcinfo.args[0].value = op->d.minmax.values[i];
        fcinfo.args[1].value = best;
        cmp = DatumGetInt32(op->d.minmax.support->cmp(&fcinfo));
        if (op->d.minmax.is_greatest ? cmp > 0 : cmp < 0)
            best = op->d.minmax.values[i];
    }
    *isnull = !found;
    return best;
}

/* The equality of a DISTINCT / NULLIF step's two arguments. */
static inline bool
pair_equal(ExprEvalStep *op)
{
    FunctionCallInfo fcinfo = op->d.distinct.fcinfo;

    fcinfo->isnull = false;
    return DatumGetBool(op->d.distinct.fn(fcinfo)) && !fcinfo->isnull;
}

/*
 * An aggregate step's int8 state would overflow: call the aggregate's
 * transition function on the state and the input instead, which raises
 * PostgreSQL's error (and stores what it returns, should it return).
 */
TDB_NOINLINE TDB_COLD static void
agg_fallback(ExprEvalStep *op, ExprContext *econtext)
{
    FunctionCallInfo fcinfo = op->d.agg.fcinfo;
    int aggno = op->d.agg.aggno;

    fcinfo->args[0].value = econtext->agg_trans_values[aggno];
    fcinfo->args[0].isnull = econtext->agg_trans_nulls[aggno];
    fcinfo->isnull = false;
    econtext->agg_trans_values[aggno] = op->d.agg.fallback(fcinfo);
    econtext->agg_trans_nulls[aggno] = fcinfo->isnull;
}

/* count: the int8 state of aggregate op plus one. */
static TDB_ALWAYS_INLINE void
agg_count(ExprEvalStep *op, ExprContext *econtext)
{
    Datum *state = &econtext->agg_trans_values[op->d.agg.aggno];
    int64 n;

    if (unlikely(__builtin_add_overflow(DatumGetInt64(*state), 1, &n)))
        agg_fallback(op, econtext);
    else
        *state = Int64GetDatum(n);
}

/* sum(int2/int4): add x to the int8 state, which x starts if NULL. */
static TDB_ALWAYS_INLINE void
agg_sum(ExprEvalStep *op, ExprContext *econtext, int64 x)
{
    int aggno = op->d.agg.aggno;
    Datum *state = &econtext->agg_trans_values[aggno];
    int64 sum;

    if (econtext->agg_trans_nulls[aggno]) {
        *state = Int64GetDatum(x);
        econtext->agg_trans_nulls[aggno] = false;
    } else if (unlikely(__builtin_add_overflow(DatumGetInt64(*state), x,
                                               &sum)))
        agg_fallback(op, econtext);
    else
        *state = Int64GetDatum(sum);
}

Datum
tdb_exec_interp(ExprState *state, ExprContext *econtext, bool *isnull)
{
    static const void *const dispatch[] = {
        &&CASE_EEOP_DONE,
        &&CASE_EEOP_FETCH_SCAN,
        &&CASE_EEOP_FETCH_OUTER,
        &&CASE_EEOP_FETCH_INNER,
        &&CASE_EEOP_SCAN_VAR,
        &&CASE_EEOP_OUTER_VAR,
        &&CASE_EEOP_INNER_VAR,
        &&CASE_EEOP_SCAN_CTID,
        &&CASE_EEOP_SCAN_VAR_FETCH,
        &&CASE_EEOP_ASSIGN_SCAN_VAR,
        &&CASE_EEOP_ASSIGN_OUTER_VAR,
        &&CASE_EEOP_ASSIGN_INNER_VAR,
        &&CASE_EEOP_ASSIGN_TMP,
        &&CASE_EEOP_CONST,
        &&CASE_EEOP_FUNC,
        &&CASE_EEOP_FUNC_STRICT,
        &&CASE_EEOP_FUNC_STRICT_1,
        &&CASE_EEOP_FUNC_STRICT_2,
        &&CASE_EEOP_BOOL_AND_STEP_FIRST,
        &&CASE_EEOP_BOOL_AND_STEP,
        &&CASE_EEOP_BOOL_AND_LAST,
        &&CASE_EEOP_BOOL_OR_STEP_FIRST,
        &&CASE_EEOP_BOOL_OR_STEP,
        &&CASE_EEOP_BOOL_OR_LAST,
        &&CASE_EEOP_BOOL_NOT,
        &&CASE_EEOP_QUAL,
        &&CASE_EEOP_JUMP,
        &&CASE_EEOP_JUMP_IF_NULL,
        &&CASE_EEOP_JUMP_IF_NOT_NULL,
        &&CASE_EEOP_JUMP_IF_NOT_TRUE,
        &&CASE_EEOP_NULLTEST_ISNULL,
        &&CASE_EEOP_NULLTEST_ISNOTNULL,
        &&CASE_EEOP_BOOLTEST,
        &&CASE_EEOP_CASE_TESTVAL,
        &&CASE_EEOP_SET_CASEVAL,
        &&CASE_EEOP_PARAM_EXEC,
        &&CASE_EEOP_AGGREF,
        &&CASE_EEOP_IOCOERCE,
        &&CASE_EEOP_TYPMOD,
        &&CASE_EEOP_DISTINCT,
        &&CASE_EEOP_NULLIF,
        &&CASE_EEOP_MINMAX,
        &&CASE_EEOP_ROW,
        &&CASE_EEOP_INLIST_ARG,
        &&CASE_EEOP_INLIST_HASHED,
        &&CASE_EEOP_SUBPLAN,
        &&CASE_EEOP_SCALARARRAYOP,
        &&CASE_EEOP_ARRAY,
        &&CASE_EEOP_AGG_COUNT_STAR,
        &&CASE_EEOP_AGG_COUNT,
        &&CASE_EEOP_AGG_SUM_INT2,
        &&CASE_EEOP_AGG_SUM_INT4,
        &&CASE_EEOP_AGG_CALL,
        &&CASE_EEOP_DETOAST,
    };
    _Static_assert(sizeof(dispatch) / sizeof(dispatch[0]) == EEOP_LAST,
                   "one label per opcode");
    ExprEvalStep *op;
    TupleTableSlot *scan, *outer, *inner;
    TupleTableSlot *result_slot;
    MemoryContext old;
    Datum result;

    if (unlikely(state == NULL))
        return PointerGetDatum(dispatch);

    op = state->steps;
    scan = econtext->scan_slot;
    outer = econtext->outer_slot;
    inner = econtext->inner_slot;
    result_slot = state->result_slot;
    old = tdb_mcxt_switch_to(econtext->per_row_mcxt);
    EEO_DISPATCH();

    EEO_CASE(EEOP_DONE)
    {
        goto out;
    }
    EEO_CASE(EEOP_FETCH_SCAN)
    {
        fetch_upto(scan, op->d.fetch.last_var);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_FETCH_OUTER)
    {
        fetch_upto(outer, op->d.fetch.last_var);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_FETCH_INNER)
    {
        fetch_upto(inner, op->d.fetch.last_var);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_SCAN_VAR)
    {
        *op->resvalue = scan->tts_values[op->d.var.attnum];
        *op->resnull = scan->tts_isnull[op->d.var.attnum];
        EEO_NEXT();
    }
    EEO_CASE(EEOP_OUTER_VAR)
    {
        *op->resvalue = outer->tts_values[op->d.var.attnum];
        *op->resnull = outer->tts_isnull[op->d.var.attnum];
        EEO_NEXT();
    }
    EEO_CASE(EEOP_INNER_VAR)
    {
        *op->resvalue = inner->tts_values[op->d.var.attnum];
        *op->resnull = inner->tts_isnull[op->d.var.attnum];
        EEO_NEXT();
    }
    EEO_CASE(EEOP_SCAN_CTID)
    {
        *op->resvalue = PointerGetDatum(&scan->tts_tid);
        *op->resnull = false;
        EEO_NEXT();
    }
    EEO_CASE(EEOP_SCAN_VAR_FETCH)
    {
        int a = op->d.var.attnum;

        if (a < scan->tts_nvalid) {
            *op->resvalue = scan->tts_values[a];
            *op->resnull = scan->tts_isnull[a];
        } else
            *op->resvalue = tdb_slot_fetch_attr(scan, a + 1, op->resnull);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_ASSIGN_SCAN_VAR)
    {
        int r = op->d.assign_var.resultnum, a = op->d.assign_var.attnum;

        result_slot->tts_values[r] = scan->tts_values[a];
        result_slot->tts_isnull[r] = scan->tts_isnull[a];
        EEO_NEXT();
    }
    EEO_CASE(EEOP_ASSIGN_OUTER_VAR)
    {
        int r = op->d.assign_var.resultnum, a = op->d.assign_var.attnum;

        result_slot->tts_values[r] = outer->tts_values[a];
        result_slot->tts_isnull[r] = outer->tts_isnull[a];
        EEO_NEXT();
    }
    EEO_CASE(EEOP_ASSIGN_INNER_VAR)
    {
        int r = op->d.assign_var.resultnum, a = op->d.assign_var.attnum;

        result_slot->tts_values[r] = inner->tts_values[a];
        result_slot->tts_isnull[r] = inner->tts_isnull[a];
        EEO_NEXT();
    }
    EEO_CASE(EEOP_ASSIGN_TMP)
    {
        int r = op->d.assign_tmp.resultnum;

        result_slot->tts_values[r] = state->resvalue;
        result_slot->tts_isnull[r] = state->resnull;
        EEO_NEXT();
    }
    EEO_CASE(EEOP_CONST)
    {
        *op->resvalue = op->d.constval.value;
        *op->resnull = op->d.constval.isnull;
        EEO_NEXT();
    }
    EEO_CASE(EEOP_FUNC)
    {
        FunctionCallInfo fcinfo = op->d.func.fcinfo;

        *op->resvalue = call_function(op);
        *op->resnull = fcinfo->isnull;
        EEO_NEXT();
    }
    EEO_CASE(EEOP_FUNC_STRICT)
    {
        FunctionCallInfo fcinfo = op->d.func.fcinfo;

        for (int i = 0; i < op->d.func.nargs; i++)
            if (fcinfo->args[i].isnull) {
                *op->resnull = true;
                EEO_NEXT();
            }
        *op->resvalue = call_function(op);
        *op->resnull = fcinfo->isnull;
        EEO_NEXT();
    }
    /*
     * Strict calls of one and two arguments, the common ones (operators):
     * the NULL test without the loop, which reloaded nargs after every
     * test (13 instructions per call of int4eq, 3 here; callgrind).
     */
    EEO_CASE(EEOP_FUNC_STRICT_1)
    {
        FunctionCallInfo fcinfo = op->d.func.fcinfo;

        if (fcinfo->args[0].isnull) {
            *op->resnull = true;
            EEO_NEXT();
        }
        *op->resvalue = call_function(op);
        *op->resnull = fcinfo->isnull;
        EEO_NEXT();
    }
    EEO_CASE(EEOP_FUNC_STRICT_2)
    {
        FunctionCallInfo fcinfo = op->d.func.fcinfo;

        if (fcinfo->args[0].isnull | fcinfo->args[1].isnull) {
            *op->resnull = true;
            EEO_NEXT();
        }
        *op->resvalue = call_function(op);
        *op->resnull = fcinfo->isnull;
        EEO_NEXT();
    }
    /*
     * AND: a false argument decides (jump past the group: false); a NULL
     * one is remembered in the group's anynull; after the last argument
     * the result is NULL if any was NULL, else true.  OR is the mirror
     * image.  The first step of a group resets anynull, so an error in a
     * previous evaluation cannot leak into this one.
     */
    EEO_CASE(EEOP_BOOL_AND_STEP_FIRST)
    {
        *op->d.boolexpr.anynull = false;
    }
    /* FALLTHROUGH */
    EEO_CASE(EEOP_BOOL_AND_STEP)
    {
        if (*op->resnull)
            *op->d.boolexpr.anynull = true;
        else if (!DatumGetBool(*op->resvalue))
            EEO_JUMP(op->d.boolexpr.jumpdone);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_BOOL_AND_LAST)
    {
        if (*op->resnull)
            *op->d.boolexpr.anynull = true;
        else if (!DatumGetBool(*op->resvalue))
            EEO_NEXT();
        *op->resnull = *op->d.boolexpr.anynull;
        *op->resvalue = BoolGetDatum(!*op->resnull);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_BOOL_OR_STEP_FIRST)
    {
        *op->d.boolexpr.anynull = false;
    }
    /* FALLTHROUGH */
    EEO_CASE(EEOP_BOOL_OR_STEP)
    {
        if (*op->resnull)
            *op->d.boolexpr.anynull = true;
        else if (DatumGetBool(*op->resvalue))
            EEO_JUMP(op->d.boolexpr.jumpdone);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_BOOL_OR_LAST)
    {
        if (*op->resnull)
            *op->d.boolexpr.anynull = true;
        else if (DatumGetBool(*op->resvalue))
            EEO_NEXT();
        *op->resnull = *op->d.boolexpr.anynull;
        *op->resvalue = BoolGetDatum(false);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_BOOL_NOT)
    {
        if (!*op->resnull)
            *op->resvalue = BoolGetDatum(!DatumGetBool(*op->resvalue));
        EEO_NEXT();
    }
    EEO_CASE(EEOP_QUAL)
    {
        if (*op->resnull || !DatumGetBool(*op->resvalue)) {
            *op->resnull = false;
            *op->resvalue = BoolGetDatum(false);
            EEO_JUMP(op->d.qual.jumpdone);
        }
        EEO_NEXT();
    }
    EEO_CASE(EEOP_JUMP)
    {
        EEO_JUMP(op->d.jump.jumpdone);
    }
    EEO_CASE(EEOP_JUMP_IF_NULL)
    {
        if (*op->resnull)
            EEO_JUMP(op->d.jump.jumpdone);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_JUMP_IF_NOT_NULL)
    {
        if (!*op->resnull)
            EEO_JUMP(op->d.jump.jumpdone);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_JUMP_IF_NOT_TRUE)
    {
        if (*op->resnull || !DatumGetBool(*op->resvalue))
            EEO_JUMP(op->d.jump.jumpdone);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_NULLTEST_ISNULL)
    {
        *op->resvalue = BoolGetDatum(*op->resnull);
        *op->resnull = false;
        EEO_NEXT();
    }
    EEO_CASE(EEOP_NULLTEST_ISNOTNULL)
    {
        *op->resvalue = BoolGetDatum(!*op->resnull);
        *op->resnull = false;
        EEO_NEXT();
    }
    EEO_CASE(EEOP_BOOLTEST)
    {
        *op->resvalue = BoolGetDatum(
            booltest(op->d.booltest.test, *op->resvalue, *op->resnull));
        *op->resnull = false;
        EEO_NEXT();
    }
    EEO_CASE(EEOP_CASE_TESTVAL)
    {
        *op->resvalue = *op->d.casetest.value;
        *op->resnull = *op->d.casetest.isnull;
        EEO_NEXT();
    }
    EEO_CASE(EEOP_SET_CASEVAL)
    {
        EEO_NEXT();
    }
    EEO_CASE(EEOP_PARAM_EXEC)
    {
        tdb_exec_eval_param(econtext, op->d.param.paramid, op->resvalue,
                            op->resnull);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_DETOAST)
    {
        if (!*op->resnull) {
            const varlena *v = (const varlena *)DatumGetPointer(*op->resvalue);

            /* pinned to the per-row context: valid as long as a result
             * computed from it */
            if (unlikely(VARATT_IS_EXTENDED(v)))
                *op->resvalue = PointerGetDatum(tdb_detoast(v));
        }
        EEO_NEXT();
    }
    EEO_CASE(EEOP_AGGREF)
    {
        *op->resvalue = econtext->agg_values[op->d.aggref.aggno];
        *op->resnull = econtext->agg_nulls[op->d.aggref.aggno];
        EEO_NEXT();
    }
    EEO_CASE(EEOP_IOCOERCE)
    {
        if (!*op->resnull)
            *op->resvalue = io_coerce(op, *op->resvalue);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_TYPMOD)
    {
        if (!*op->resnull)
            *op->resvalue = op->d.typmod.support->apply_typmod(
                *op->resvalue, op->d.typmod.typmod,
                op->d.typmod.is_explicit);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_DISTINCT)
    {
        FunctionCallInfo fcinfo = op->d.distinct.fcinfo;
        bool distinct;

        if (fcinfo->args[0].isnull || fcinfo->args[1].isnull)
            distinct = fcinfo->args[0].isnull != fcinfo->args[1].isnull;
        else
            distinct = !pair_equal(op);
        *op->resvalue = BoolGetDatum(op->d.distinct.is_not ? !distinct
                                                           : distinct);
        *op->resnull = false;
        EEO_NEXT();
    }
    EEO_CASE(EEOP_NULLIF)
    {
        FunctionCallInfo fcinfo = op->d.distinct.fcinfo;

        if (!fcinfo->args[0].isnull && !fcinfo->args[1].isnull &&
            pair_equal(op)) {
            *op->resvalue = (Datum)0;
            *op->resnull = true;
        } else {
            *op->resvalue = fcinfo->args[0].value;
            *op->resnull = fcinfo->args[0].isnull;
        }
        EEO_NEXT();
    }
    EEO_CASE(EEOP_MINMAX)
    {
        *op->resvalue = minmax(op, op->resnull);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_ROW)
    {
        *op->resvalue = tdb_record_construct(op->d.row.nargs, op->d.row.types,
                                             op->d.row.values, op->d.row.nulls);
        *op->resnull = false;
        EEO_NEXT();
    }
    EEO_CASE(EEOP_INLIST_ARG)
    {
        *op->resvalue = *op->d.inlist.value;
        *op->resnull = *op->d.inlist.isnull;
        EEO_NEXT();
    }
    EEO_CASE(EEOP_INLIST_HASHED)
    {
        /* NULL IN (...) is NULL; a value not found is NULL when the list
         * holds a NULL (x = NULL is unknown), else false */
        const InListHash *h = op->d.inlist_hashed.hash;

        if (*op->d.inlist_hashed.isnull) {
            *op->resnull = true;
        } else if (tdb_inlist_hash_contains(h, *op->d.inlist_hashed.value)) {
            *op->resvalue = BoolGetDatum(!h->is_not);
            *op->resnull = false;
        } else {
            *op->resvalue = BoolGetDatum(h->is_not);
            *op->resnull = h->has_null;
        }
        EEO_NEXT();
    }
    EEO_CASE(EEOP_SCALARARRAYOP)
    {
        *op->resvalue = scalar_array_op(op->d.saop.state, op->resnull);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_ARRAY)
    {
        *op->resvalue = array_construct(op);
        *op->resnull = false;
        EEO_NEXT();
    }
    EEO_CASE(EEOP_SUBPLAN)
    {
        *op->resvalue =
            tdb_exec_subplan(op->d.subplan.sstate, econtext, op->resnull);
        EEO_NEXT();
    }

    EEO_CASE(EEOP_AGG_COUNT_STAR)
    {
        agg_count(op, econtext);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_AGG_COUNT)
    {
        if (!op->d.agg.fcinfo->args[1].isnull)
            agg_count(op, econtext);
        EEO_NEXT();
    }
    EEO_CASE(EEOP_AGG_SUM_INT2)
    {
        NullableDatum *arg = &op->d.agg.fcinfo->args[1];

        if (!arg->isnull)
            agg_sum(op, econtext, DatumGetInt16(arg->value));
        EEO_NEXT();
    }
    EEO_CASE(EEOP_AGG_SUM_INT4)
    {
        NullableDatum *arg = &op->d.agg.fcinfo->args[1];

        if (!arg->isnull)
            agg_sum(op, econtext, DatumGetInt32(arg->value));
        EEO_NEXT();
    }
    EEO_CASE(EEOP_AGG_CALL)
    {
        op->d.agg.callback(op->d.agg.callback_arg, op->d.agg.aggno);
        EEO_NEXT();
    }

out:
    tdb_mcxt_switch_to(old);
    result = state->resvalue;
    *isnull = state->resnull;
    return result;
}

const void *const *
tdb_exec_interp_labels(void)
{
    return (const void *const *)DatumGetPointer(
        tdb_exec_interp(NULL, NULL, NULL));
}
