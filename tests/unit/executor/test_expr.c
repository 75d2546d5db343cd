/*
 * test_expr.c -- the expression compiler and interpreter on their own:
 * column fetches that deform only as far as needed, strict calls skipped
 * on NULL, SQL's three-valued AND/OR/NOT, CASE, COALESCE, NULLIF,
 * IS DISTINCT FROM, IN lists, quals and projections; Var-only
 * projections, the per-row memory verdict (may_allocate) and an Agg
 * node's transition program (count, sum, FILTER, int8 overflow).
 */
#include "common/base.h"

#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "test.h"
#include "tuple/heaptuple.h"
#include "types/builtins.h"

/* A heap tuple of n int4 columns; nulls[i] makes column i NULL. */
static TupleTableSlot *
int_row(int n, const int32 *values, const bool *nulls)
{
    TupleDesc desc = tdb_tupdesc_create(n);
    Datum d[16];
    bool isnull[16];
    TupleTableSlot *slot;

    for (int i = 0; i < n; i++) {
        char name[16];

        snprintf(name, sizeof(name), "c%d", i + 1);
        tdb_tupdesc_init_attr(desc, i, name, INT4OID, -1, 4, true, 'i', 'p');
        d[i] = Int32GetDatum(values[i]);
        isnull[i] = nulls != NULL && nulls[i];
    }
    tdb_tupdesc_finalize(desc);
    slot = tdb_slot_create(desc, &tdb_tts_ops_heap);
    tdb_slot_store_heap_tuple(slot, tdb_heap_form_tuple(desc, d, isnull),
                              true);
    return slot;
}

static ExprContext *
context_for(TupleTableSlot *scan)
{
    ExprContext *econtext = tdb_palloc0(sizeof(ExprContext));

    econtext->scan_slot = scan;
    econtext->per_row_mcxt =
        tdb_aset_create(tdb_current_mcxt, "row", ALLOCSET_SMALL_SIZES);
    return econtext;
}

static Expr *
col(int attno)
{
    return (Expr *)tdb_make_var(SCAN_VAR, attno, INT4OID, -1, 0);
}

static Expr *
int4(int32 v)
{
    return (Expr *)tdb_make_const(INT4OID, -1, Int32GetDatum(v), false);
}

static Expr *
null_bool(void)
{
    return (Expr *)tdb_make_bool_const(false, true);
}

static Expr *
boolc(bool b)
{
    return (Expr *)tdb_make_bool_const(b, false);
}

static Expr *
op(const char *name, Expr *l, Expr *r)
{
    OpExpr *o = makeNode(OpExpr);

    o->op = tdb_oper_lookup(name, exprType(l), exprType(r));
    o->args = tdb_list_make2(l, r);
    o->xpr.type_oid = o->op->result;
    o->xpr.typmod = -1;
    o->xpr.location = -1;
    return (Expr *)o;
}

static Expr *
boolop(BoolExprType type, Expr *a, Expr *b)
{
    BoolExpr *e = makeNode(BoolExpr);

    e->boolop = type;
    e->args = b != NULL ? tdb_list_make2(a, b) : tdb_list_make1(a);
    e->xpr.type_oid = BOOLOID;
    e->xpr.location = -1;
    return (Expr *)e;
}

/* Evaluate e over slot; *isnull out. */
static Datum
eval(Expr *e, TupleTableSlot *slot, bool *isnull)
{
    ExprState *state = tdb_exec_init_expr(e, NULL);

    return tdb_exec_eval_expr(state, context_for(slot), isnull);
}

/* "t", "f" or "null" for a boolean expression. */
static const char *
truth(Expr *e, TupleTableSlot *slot)
{
    bool isnull;
    Datum d = eval(e, slot, &isnull);

    return isnull ? "null" : DatumGetBool(d) ? "t" : "f";
}

TEST_BEGIN(test_deform_only_what_is_needed)
{
    int32 v[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    TupleTableSlot *slot = int_row(16, v, NULL);
    bool isnull;
    Datum d;

    d = eval(op("+", col(3), int4(100)), slot, &isnull);
    expect_int_eq(DatumGetInt32(d), 103);
    expect_false(isnull);
    /* one column read once: fetched alone, nothing deformed */
    expect_int_eq(slot->tts_nvalid, 0);
    d = eval(op("+", col(3), col(3)), slot, &isnull);
    expect_int_eq(DatumGetInt32(d), 6);
    /* read twice: the fetch step deformed columns 1..3 only */
    expect_int_eq(slot->tts_nvalid, 3);
    d = eval(op("+", col(3), int4(100)), slot, &isnull);
    expect_int_eq(DatumGetInt32(d), 103); /* from the deformed column */
    d = eval(op("*", col(16), col(2)), slot, &isnull);
    expect_int_eq(DatumGetInt32(d), 32);
    expect_int_eq(slot->tts_nvalid, 16);
}
TEST_END

TEST_BEGIN(test_strict_skips_null)
{
    int32 v[2] = {7, 0};
    bool nulls[2] = {false, true};
    TupleTableSlot *slot = int_row(2, v, nulls);
    bool isnull;

    /* 7 / NULL is NULL: the division (which would fail on 0) never runs */
    (void)eval(op("/", col(1), col(2)), slot, &isnull);
    expect_true(isnull);
    expect_error((void)eval(op("/", col(1), int4(0)), slot, &isnull),
                 ERRCODE_DIVISION_BY_ZERO, "division by zero");
}
TEST_END

TEST_BEGIN(test_three_valued_logic)
{
    int32 v[1] = {1};
    TupleTableSlot *slot = int_row(1, v, NULL);
    Expr *t = boolc(true), *f = boolc(false), *n = null_bool();

    expect_str_eq(truth(boolop(AND_EXPR, t, n), slot), "null");
    expect_str_eq(truth(boolop(AND_EXPR, n, f), slot), "f");
    expect_str_eq(truth(boolop(AND_EXPR, t, t), slot), "t");
    expect_str_eq(truth(boolop(OR_EXPR, f, n), slot), "null");
    expect_str_eq(truth(boolop(OR_EXPR, n, t), slot), "t");
    expect_str_eq(truth(boolop(OR_EXPR, f, f), slot), "f");
    expect_str_eq(truth(boolop(NOT_EXPR, n, NULL), slot), "null");
    expect_str_eq(truth(boolop(NOT_EXPR, f, NULL), slot), "t");
    /* a group evaluated twice starts clean: NULL then a decided FALSE */
    {
        Expr *e = boolop(AND_EXPR, boolop(OR_EXPR, n, f), t);
        ExprState *state = tdb_exec_init_expr(e, NULL);
        ExprContext *econtext = context_for(slot);
        bool isnull;

        (void)tdb_exec_eval_expr(state, econtext, &isnull);
        expect_true(isnull);
        (void)tdb_exec_eval_expr(state, econtext, &isnull);
        expect_true(isnull);
    }
}
TEST_END

TEST_BEGIN(test_case_coalesce_nullif_distinct)
{
    int32 v[2] = {5, 0};
    bool nulls[2] = {false, true};
    TupleTableSlot *slot = int_row(2, v, nulls);
    CaseExpr *c = makeNode(CaseExpr);
    CaseWhen *w = makeNode(CaseWhen);
    CoalesceExpr *co = makeNode(CoalesceExpr);
    NullIfExpr *ni = makeNode(NullIfExpr);
    DistinctExpr *di = makeNode(DistinctExpr);
    bool isnull;

    w->expr = op(">", col(1), int4(3));
    w->result = int4(1);
    c->whens = tdb_list_make1(w);
    c->defresult = int4(0);
    c->xpr.type_oid = INT4OID;
    expect_int_eq(DatumGetInt32(eval((Expr *)c, slot, &isnull)), 1);
    w->expr = op(">", col(2), int4(3)); /* NULL > 3: not true -> ELSE */
    expect_int_eq(DatumGetInt32(eval((Expr *)c, slot, &isnull)), 0);

    co->args = tdb_list_make2(col(2), int4(9));
    co->xpr.type_oid = INT4OID;
    expect_int_eq(DatumGetInt32(eval((Expr *)co, slot, &isnull)), 9);

    ni->op = tdb_oper_lookup("=", INT4OID, INT4OID);
    ni->args = tdb_list_make2(col(1), int4(5));
    ni->xpr.type_oid = INT4OID;
    (void)eval((Expr *)ni, slot, &isnull);
    expect_true(isnull);

    di->op = ni->op;
    di->args = tdb_list_make2(col(2), int4(5));
    di->xpr.type_oid = BOOLOID;
    expect_str_eq(truth((Expr *)di, slot), "t");
    di->args = tdb_list_make2(col(2), col(2));
    expect_str_eq(truth((Expr *)di, slot), "f");
}
TEST_END

TEST_BEGIN(test_in_list)
{
    int32 v[2] = {2, 0};
    bool nulls[2] = {false, true};
    TupleTableSlot *slot = int_row(2, v, nulls);
    InListExpr *in = makeNode(InListExpr);

    in->op = tdb_oper_lookup("=", INT4OID, INT4OID);
    in->arg = col(1);
    in->items = tdb_list_make2(int4(1), col(2)); /* 2 IN (1, NULL) */
    in->xpr.type_oid = BOOLOID;
    expect_str_eq(truth((Expr *)in, slot), "null");
    in->items = tdb_lappend(in->items, int4(2));
    expect_str_eq(truth((Expr *)in, slot), "t");
    in->is_not = true;
    expect_str_eq(truth((Expr *)in, slot), "f");
    in->items = tdb_list_make2(int4(1), int4(3));
    expect_str_eq(truth((Expr *)in, slot), "t");
}
TEST_END

TEST_BEGIN(test_qual_and_projection)
{
    int32 v[3] = {1, 2, 3};
    TupleTableSlot *slot = int_row(3, v, NULL);
    ExprContext *econtext = context_for(slot);
    ExprState *qual;
    List *tlist;
    TupleTableSlot *out;
    TupleDesc desc;

    qual = tdb_exec_init_qual(tdb_list_make2(op("<", col(1), col(2)),
                                             op("<", col(2), col(3))),
                              NULL);
    expect_true(tdb_exec_qual(qual, econtext));
    qual = tdb_exec_init_qual(tdb_list_make2(op("<", col(1), col(2)),
                                             null_bool()),
                              NULL);
    expect_false(tdb_exec_qual(qual, econtext)); /* NULL counts as false */
    expect_true(tdb_exec_qual(NULL, econtext));

    tlist = tdb_list_make2(
        tdb_make_target_entry(col(3), 1, "c3", false),
        tdb_make_target_entry(op("+", col(1), col(2)), 2, "sum", false));
    desc = tdb_exec_type_from_tlist(tlist);
    out = tdb_slot_create(desc, &tdb_tts_ops_virtual);
    out = tdb_exec_project(tdb_exec_init_projection(tlist, out, NULL),
                           econtext);
    expect_int_eq(DatumGetInt32(out->tts_values[0]), 3);
    expect_int_eq(DatumGetInt32(out->tts_values[1]), 3);
    expect_str_eq(TupleDescAttr(desc, 1)->attname, "sum");
}
TEST_END

/* The aggregate named name whose first argument type is argtype. */
static const AggDesc *
agg_named(const char *name, Oid argtype, int nargs)
{
    const AggDesc *cands[16];
    int n = tdb_agg_candidates(name, cands, 16);

    for (int i = 0; i < n; i++)
        if (cands[i]->nargs == nargs &&
            (nargs == 0 || cands[i]->argtypes[0] == argtype))
            return cands[i];
    return NULL;
}

static void
callback_counter(void *arg, int aggno)
{
    ((int *)arg)[aggno]++;
}

TEST_BEGIN(test_agg_trans_program)
{
    int32 v[3] = {5, 0, -2};
    bool nulls[3] = {false, true, false};
    TupleTableSlot *slot = int_row(3, v, nulls);
    ExprContext *econtext = context_for(slot);
    FunctionCallInfoData fc[5];
    AggTransSpec specs[5];
    Datum values[5];
    bool trans_nulls[5];
    int calls[5] = {0};
    ExprState *state;
    bool isnull;

    memset(fc, 0, sizeof(fc));
    memset(specs, 0, sizeof(specs));
    /* count(*), count(c2), sum(c1), sum(c3) FILTER (WHERE c1 > 9), and
     * one through the callback */
    specs[0].kind = AGG_TRANS_COUNT_STAR;
    specs[0].fallback_fn = agg_named("count", InvalidOid, 0)->transfn;
    specs[1].kind = AGG_TRANS_COUNT;
    specs[1].args = tdb_list_make1(col(2));
    specs[2].kind = AGG_TRANS_SUM_INT4;
    specs[2].args = tdb_list_make1(col(1));
    specs[2].fallback_fn = agg_named("sum", INT4OID, 1)->transfn;
    specs[3].kind = AGG_TRANS_SUM_INT4;
    specs[3].args = tdb_list_make1(col(3));
    specs[3].filter = op(">", col(1), int4(9));
    specs[4].kind = AGG_TRANS_CALL;
    specs[4].args = tdb_list_make1(col(3));
    for (int i = 0; i < 5; i++) {
        specs[i].fcinfo = &fc[i];
        specs[i].callback = callback_counter;
        specs[i].callback_arg = calls;
        fc[i].nargs = (int16)(list_length(specs[i].args) + 1);
    }
    state = tdb_exec_init_agg_trans(specs, 5, NULL);
    expect_true(tdb_expr_may_allocate(state)); /* the callback may */

    values[0] = values[1] = Int64GetDatum(0);
    trans_nulls[0] = trans_nulls[1] = false;
    trans_nulls[2] = trans_nulls[3] = trans_nulls[4] = true;
    econtext->agg_trans_values = values;
    econtext->agg_trans_nulls = trans_nulls;
    for (int row = 0; row < 3; row++)
        (void)tdb_exec_interp(state, econtext, &isnull);
    expect_int_eq(DatumGetInt64(values[0]), 3);  /* count(*) */
    expect_int_eq(DatumGetInt64(values[1]), 0);  /* c2 is NULL */
    expect_false(trans_nulls[2]);                /* started by the input */
    expect_int_eq(DatumGetInt64(values[2]), 15); /* 5 + 5 + 5 */
    expect_true(trans_nulls[3]);                 /* filtered out: NULL */
    expect_int_eq(calls[4], 3);
    expect_int_eq(DatumGetInt32(fc[4].args[1].value), -2);

    /* int8 overflow: the transition function raises PostgreSQL's error */
    values[0] = Int64GetDatum(INT64_MAX);
    expect_error((void)tdb_exec_interp(state, econtext, &isnull),
                 ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
    values[0] = Int64GetDatum(0);
    values[2] = Int64GetDatum(INT64_MAX - 4);
    expect_error((void)tdb_exec_interp(state, econtext, &isnull),
                 ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");

    /* without the callback nothing may allocate */
    state = tdb_exec_init_agg_trans(specs, 4, NULL);
    expect_false(tdb_expr_may_allocate(state));
}
TEST_END

TEST_BEGIN(test_var_only_projection)
{
    int32 v[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    TupleTableSlot *slot = int_row(16, v, NULL);
    ExprContext *econtext = context_for(slot);
    List *tlist;
    TupleTableSlot *out;
    ExprState *proj;

    /* one column: fetched without deforming the fifteen before it */
    tlist = tdb_list_make1(tdb_make_target_entry(col(16), 1, "c16", false));
    out = tdb_slot_create(tdb_exec_type_from_tlist(tlist),
                          &tdb_tts_ops_virtual);
    proj = tdb_exec_init_projection(tlist, out, NULL);
    expect_int_eq(proj->var_single, 15);
    expect_false(tdb_expr_may_allocate(proj));
    out = tdb_exec_project(proj, econtext);
    expect_int_eq(DatumGetInt32(out->tts_values[0]), 16);
    expect_false(out->tts_isnull[0]);
    expect_int_eq(out->tts_nvalid, 1);
    expect_int_eq(slot->tts_nvalid, 0);
    expect_false(tdb_exec_projection_is_identity(proj,
                                                 slot->tts_tupleDescriptor));

    /* several columns: deformed up to the last one, copied */
    tlist = tdb_list_make2(tdb_make_target_entry(col(3), 1, "c3", false),
                           tdb_make_target_entry(col(2), 2, "c2", false));
    out = tdb_slot_create(tdb_exec_type_from_tlist(tlist),
                          &tdb_tts_ops_virtual);
    proj = tdb_exec_init_projection(tlist, out, NULL);
    expect_int_eq(proj->var_single, -1);
    out = tdb_exec_project(proj, econtext);
    expect_int_eq(DatumGetInt32(out->tts_values[0]), 3);
    expect_int_eq(DatumGetInt32(out->tts_values[1]), 2);
    expect_int_eq(slot->tts_nvalid, 3);

    /* every column in order: the identity */
    tlist = NIL;
    for (int i = 1; i <= 16; i++)
        tlist = tdb_lappend(tlist, tdb_make_target_entry(col(i), i, "c",
                                                         false));
    out = tdb_slot_create(tdb_exec_type_from_tlist(tlist),
                          &tdb_tts_ops_virtual);
    proj = tdb_exec_init_projection(tlist, out, NULL);
    expect_true(tdb_exec_projection_is_identity(proj,
                                                slot->tts_tupleDescriptor));

    /* an expression is not Var-only; int4 arithmetic cannot allocate */
    tlist = tdb_list_make1(
        tdb_make_target_entry(op("+", col(1), int4(1)), 1, "x", false));
    out = tdb_slot_create(tdb_exec_type_from_tlist(tlist),
                          &tdb_tts_ops_virtual);
    proj = tdb_exec_init_projection(tlist, out, NULL);
    expect_int_eq(proj->var_slot_kind, 0);
    expect_false(tdb_expr_may_allocate(proj));
    out = tdb_exec_project(proj, econtext);
    expect_int_eq(DatumGetInt32(out->tts_values[0]), 2);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "executor_expr",
                     TEST_CASE(test_deform_only_what_is_needed),
                     TEST_CASE(test_strict_skips_null),
                     TEST_CASE(test_three_valued_logic),
                     TEST_CASE(test_case_coalesce_nullif_distinct),
                     TEST_CASE(test_in_list),
                     TEST_CASE(test_qual_and_projection),
                     TEST_CASE(test_agg_trans_program),
                     TEST_CASE(test_var_only_projection));
}
