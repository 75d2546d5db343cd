/*
 * exec_expr.c -- compiling expression trees into step programs (expr.h).
 *
 * compile_expr emits the steps that leave node's value in (resv, resnull)
 * and recurses so that each child's result lands exactly where its
 * parent reads it (a function's argument slot, a CASE's result).
 * Conditional control flow (AND/OR short circuit, CASE, COALESCE) uses
 * jumps whose targets are patched once the target step exists.  After
 * the program is complete, opcodes are replaced by the interpreter's
 * label addresses, so dispatch is one indirect jump per step.
 */
#include "common/base.h"

#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/executor.h"
#include "executor/expr_int.h"

/* ----------------------------------------------------------------------
 * Building the program
 * ---------------------------------------------------------------------- */

static ExprState *
new_state(Expr *expr)
{
    ExprState *state = tdb_palloc0(sizeof(ExprState));

    state->tag = T_PlanState; /* not a plan node; tagged for IsA checks */
    state->expr = expr;
    state->steps_size = 16;
    state->steps = tdb_palloc(sizeof(ExprEvalStep) * (Size)state->steps_size);
    return state;
}

/* Append a step; returns its index. */
static int
push_step(ExprState *state, const ExprEvalStep *step)
{
    if (state->nsteps == state->steps_size) {
        state->steps_size *= 2;
        state->steps = tdb_repalloc(
            state->steps, sizeof(ExprEvalStep) * (Size)state->steps_size);
    }
    state->steps[state->nsteps] = *step;
    return state->nsteps++;
}

static ExprEvalStep
make_step(ExprEvalOp op, Datum *resv, bool *resnull)
{
    ExprEvalStep step;

    memset(&step, 0, sizeof(step));
    step.opcode = op;
    step.resvalue = resv;
    step.resnull = resnull;
    return step;
}

/* Point the jump of step `at` at step `target`. */
static void
patch_jump(ExprState *state, int at, int target)
{
    ExprEvalStep *step = &state->steps[at];

    switch (step->opcode) {
    case EEOP_BOOL_AND_STEP_FIRST:
    case EEOP_BOOL_AND_STEP:
    case EEOP_BOOL_AND_LAST:
    case EEOP_BOOL_OR_STEP_FIRST:
    case EEOP_BOOL_OR_STEP:
    case EEOP_BOOL_OR_LAST:
        step->d.boolexpr.jumpdone = target;
        break;
    case EEOP_QUAL:
        step->d.qual.jumpdone = target;
        break;
    default:
        step->d.jump.jumpdone = target;
        break;
    }
}

/* Highest column referenced per input slot, for the FETCH steps. */
typedef struct FetchNeeds {
    int scan, outer, inner;
} FetchNeeds;

static bool
collect_fetch_needs(Node *node, void *context)
{
    FetchNeeds *needs = context;

    if (node == NULL)
        return false;
    if (IsA(node, Var)) {
        Var *var = (Var *)node;
        int *slot = var->varno == SCAN_VAR    ? &needs->scan
                    : var->varno == OUTER_VAR ? &needs->outer
                    : var->varno == INNER_VAR ? &needs->inner
                                              : NULL;

        if (slot == NULL)
            elog(ERROR, "unresolved variable %d.%d in a plan expression",
                 var->varno, var->varattno);
        if (var->varattno > 0)
            *slot = Max(*slot, var->varattno);
        return false;
    }
    if (IsA(node, Aggref))
        return false; /* its arguments belong to the Agg node's input */
    return tdb_expr_walk_children(node, collect_fetch_needs, context);
}

static void
push_fetch_steps(ExprState *state, Node *expr)
{
    FetchNeeds needs = {0, 0, 0};
    ExprEvalStep step;

    collect_fetch_needs(expr, &needs);
    if (needs.scan > 0) {
        step = make_step(EEOP_FETCH_SCAN, NULL, NULL);
        step.d.fetch.last_var = needs.scan;
        push_step(state, &step);
    }
    if (needs.outer > 0) {
        step = make_step(EEOP_FETCH_OUTER, NULL, NULL);
        step.d.fetch.last_var = needs.outer;
        push_step(state, &step);
    }
    if (needs.inner > 0) {
        step = make_step(EEOP_FETCH_INNER, NULL, NULL);
        step.d.fetch.last_var = needs.inner;
        push_step(state, &step);
    }
}

/* ----------------------------------------------------------------------
 * Node by node
 * ---------------------------------------------------------------------- */

static void compile_expr(ExprState *state, Expr *node, Datum *resv,
                         bool *resnull, EState *estate);

static FunctionCallInfo
new_fcinfo(int nargs, const FuncDesc *desc, PGFunction fn, Oid rettype)
{
    FunctionCallInfo fcinfo = tdb_palloc0(sizeof(FunctionCallInfoData));
    FmgrInfo *flinfo = tdb_palloc0(sizeof(FmgrInfo));

    flinfo->fn_desc = desc;
    flinfo->fn_addr = fn;
    flinfo->fn_mcxt = tdb_current_mcxt;
    flinfo->fn_expr_rettype = rettype;
    flinfo->fn_expr_rettypmod = -1;
    fcinfo->flinfo = flinfo;
    fcinfo->nargs = (int16)nargs;
    return fcinfo;
}

/* A call of fn with args: arguments into the call's slots, then the call. */
static void
compile_call(ExprState *state, List *args, const FuncDesc *desc,
             PGFunction fn, bool strict, Oid rettype, Datum *resv,
             bool *resnull, EState *estate)
{
    int nargs = list_length(args);
    FunctionCallInfo fcinfo;
    ExprEvalStep step;

    if (nargs > FUNC_MAX_ARGS)
        elog(ERROR, "too many arguments (%d) in a function call", nargs);
    fcinfo = new_fcinfo(nargs, desc, fn, rettype);
    for (int i = 0; i < nargs; i++)
        fcinfo->flinfo->fn_expr_argtypes[i] = exprType(list_nth(args, i));
    for (int i = 0; i < nargs; i++)
        compile_expr(state, list_nth(args, i), &fcinfo->args[i].value,
                     &fcinfo->args[i].isnull, estate);
    step = make_step(strict && nargs > 0 ? EEOP_FUNC_STRICT : EEOP_FUNC,
                     resv, resnull);
    step.d.func.fcinfo = fcinfo;
    step.d.func.fn = fn;
    step.d.func.nargs = nargs;
    push_step(state, &step);
}

static void
compile_bool(ExprState *state, BoolExpr *b, Datum *resv, bool *resnull,
             EState *estate)
{
    int nargs = list_length(b->args);
    bool is_and = b->boolop == AND_EXPR;
    bool *anynull;
    List *jumps = NIL;

    if (b->boolop == NOT_EXPR) {
        compile_expr(state, linitial(b->args), resv, resnull, estate);
        push_step(state, &(ExprEvalStep){.opcode = EEOP_BOOL_NOT,
                                         .resvalue = resv,
                                         .resnull = resnull});
        return;
    }
    anynull = tdb_palloc0(sizeof(bool));
    for (int i = 0; i < nargs; i++) {
        ExprEvalOp op = i == nargs - 1
                            ? (is_and ? EEOP_BOOL_AND_LAST : EEOP_BOOL_OR_LAST)
                        : i == 0 ? (is_and ? EEOP_BOOL_AND_STEP_FIRST
                                           : EEOP_BOOL_OR_STEP_FIRST)
                                 : (is_and ? EEOP_BOOL_AND_STEP
                                           : EEOP_BOOL_OR_STEP);
        ExprEvalStep step;

        compile_expr(state, list_nth(b->args, i), resv, resnull, estate);
        step = make_step(op, resv, resnull);
        step.d.boolexpr.anynull = anynull;
        jumps = tdb_lappend_int(jumps, push_step(state, &step));
    }
    for (int i = 0; i < list_length(jumps); i++)
        patch_jump(state, list_nth_int(jumps, i), state->nsteps);
}

static void
compile_case(ExprState *state, CaseExpr *c, Datum *resv, bool *resnull,
             EState *estate)
{
    Datum *saved_value = state->caseval_value;
    bool *saved_null = state->caseval_null;
    List *end_jumps = NIL;
    int nwhens = list_length(c->whens);

    if (c->arg != NULL) {
        Datum *caseval = tdb_palloc(sizeof(Datum));
        bool *casenull = tdb_palloc(sizeof(bool));

        compile_expr(state, c->arg, caseval, casenull, estate);
        state->caseval_value = caseval;
        state->caseval_null = casenull;
    }
    for (int i = 0; i < nwhens; i++) {
        CaseWhen *w = list_nth(c->whens, i);
        Datum *condv = tdb_palloc(sizeof(Datum));
        bool *condn = tdb_palloc(sizeof(bool));
        ExprEvalStep step;
        int skip;

        compile_expr(state, w->expr, condv, condn, estate);
        step = make_step(EEOP_JUMP_IF_NOT_TRUE, condv, condn);
        skip = push_step(state, &step);
        compile_expr(state, w->result, resv, resnull, estate);
        step = make_step(EEOP_JUMP, NULL, NULL);
        end_jumps = tdb_lappend_int(end_jumps, push_step(state, &step));
        patch_jump(state, skip, state->nsteps);
    }
    compile_expr(state, c->defresult, resv, resnull, estate);
    for (int i = 0; i < list_length(end_jumps); i++)
        patch_jump(state, list_nth_int(end_jumps, i), state->nsteps);
    state->caseval_value = saved_value;
    state->caseval_null = saved_null;
}

static void
compile_coalesce(ExprState *state, CoalesceExpr *c, Datum *resv,
                 bool *resnull, EState *estate)
{
    List *jumps = NIL;
    int nargs = list_length(c->args);

    for (int i = 0; i < nargs; i++) {
        compile_expr(state, list_nth(c->args, i), resv, resnull, estate);
        if (i < nargs - 1) {
            ExprEvalStep step =
                make_step(EEOP_JUMP_IF_NOT_NULL, resv, resnull);

            jumps = tdb_lappend_int(jumps, push_step(state, &step));
        }
    }
    for (int i = 0; i < list_length(jumps); i++)
        patch_jump(state, list_nth_int(jumps, i), state->nsteps);
}

/* A two-argument equality call used by NULLIF / IS DISTINCT FROM. */
static FunctionCallInfo
compile_pair(ExprState *state, List *args, const OperDesc *op,
             EState *estate)
{
    FunctionCallInfo fcinfo = new_fcinfo(2, NULL, op->fn, BOOLOID);

    compile_expr(state, linitial(args), &fcinfo->args[0].value,
                 &fcinfo->args[0].isnull, estate);
    compile_expr(state, list_nth(args, 1), &fcinfo->args[1].value,
                 &fcinfo->args[1].isnull, estate);
    return fcinfo;
}

static void
compile_inlist(ExprState *state, InListExpr *in, Datum *resv, bool *resnull,
               EState *estate)
{
    Datum *argv = tdb_palloc(sizeof(Datum));
    bool *argn = tdb_palloc(sizeof(bool));
    int nitems = list_length(in->items);
    bool *anynull = tdb_palloc0(sizeof(bool));
    List *jumps = NIL;

    compile_expr(state, in->arg, argv, argn, estate);
    for (int i = 0; i < nitems; i++) {
        FunctionCallInfo fcinfo = new_fcinfo(2, NULL, in->op->fn, BOOLOID);
        ExprEvalStep step = make_step(EEOP_INLIST_ARG,
                                      &fcinfo->args[0].value,
                                      &fcinfo->args[0].isnull);

        step.d.inlist.value = argv;
        step.d.inlist.isnull = argn;
        push_step(state, &step);
        compile_expr(state, list_nth(in->items, i), &fcinfo->args[1].value,
                     &fcinfo->args[1].isnull, estate);
        step = make_step(EEOP_FUNC_STRICT, resv, resnull);
        step.d.func.fcinfo = fcinfo;
        step.d.func.fn = in->op->fn;
        step.d.func.nargs = 2;
        push_step(state, &step);
        step = make_step(i == nitems - 1 ? EEOP_BOOL_OR_LAST
                         : i == 0        ? EEOP_BOOL_OR_STEP_FIRST
                                         : EEOP_BOOL_OR_STEP,
                         resv, resnull);
        step.d.boolexpr.anynull = anynull;
        jumps = tdb_lappend_int(jumps, push_step(state, &step));
    }
    for (int i = 0; i < list_length(jumps); i++)
        patch_jump(state, list_nth_int(jumps, i), state->nsteps);
    if (in->is_not)
        push_step(state, &(ExprEvalStep){.opcode = EEOP_BOOL_NOT,
                                         .resvalue = resv,
                                         .resnull = resnull});
}

static void
compile_minmax(ExprState *state, MinMaxExpr *mm, Datum *resv, bool *resnull,
               EState *estate)
{
    int nargs = list_length(mm->args);
    ExprEvalStep step = make_step(EEOP_MINMAX, resv, resnull);

    step.d.minmax.values = tdb_palloc(sizeof(Datum) * (Size)nargs);
    step.d.minmax.nulls = tdb_palloc(sizeof(bool) * (Size)nargs);
    step.d.minmax.nargs = nargs;
    step.d.minmax.support = mm->support;
    step.d.minmax.is_greatest = mm->is_greatest;
    for (int i = 0; i < nargs; i++)
        compile_expr(state, list_nth(mm->args, i), &step.d.minmax.values[i],
                     &step.d.minmax.nulls[i], estate);
    push_step(state, &step);
}

static void
compile_var(ExprState *state, Var *var, Datum *resv, bool *resnull)
{
    ExprEvalOp op = var->varno == SCAN_VAR    ? EEOP_SCAN_VAR
                    : var->varno == OUTER_VAR ? EEOP_OUTER_VAR
                    : var->varno == INNER_VAR ? EEOP_INNER_VAR
                                              : EEOP_LAST;
    ExprEvalStep step = make_step(op, resv, resnull);

    if (var->varno == SCAN_VAR &&
        var->varattno == SelfItemPointerAttributeNumber) {
        step.opcode = EEOP_SCAN_CTID;
        push_step(state, &step);
        return;
    }
    if (op == EEOP_LAST || var->varattno < 1)
        elog(ERROR, "unresolved variable %d.%d in a plan expression",
             var->varno, var->varattno);
    step.d.var.attnum = var->varattno - 1;
    push_step(state, &step);
}

static void
compile_coercion(ExprState *state, Expr *node, Expr *arg, Datum *resv,
                 bool *resnull, EState *estate)
{
    ExprEvalStep step;

    compile_expr(state, arg, resv, resnull, estate);
    if (IsA(node, CoerceViaIO)) {
        step = make_step(EEOP_IOCOERCE, resv, resnull);
        step.d.iocoerce.out = tdb_type_support(exprType(arg));
        step.d.iocoerce.in = tdb_type_support(exprType(node));
        step.d.iocoerce.typmod = exprTypmod(node);
        if (step.d.iocoerce.out == NULL || step.d.iocoerce.in == NULL)
            elog(ERROR, "no I/O functions for a cast from type %u to %u",
                 exprType(arg), exprType(node));
    } else {
        step = make_step(EEOP_TYPMOD, resv, resnull);
        step.d.typmod.support = tdb_type_support(exprType(node));
        step.d.typmod.typmod = exprTypmod(node);
        step.d.typmod.is_explicit = ((CoerceToTypmod *)node)->is_explicit;
        if (step.d.typmod.support == NULL ||
            step.d.typmod.support->apply_typmod == NULL)
            return; /* the type has no typmod semantics */
    }
    push_step(state, &step);
}

static void
compile_expr(ExprState *state, Expr *node, Datum *resv, bool *resnull,
             EState *estate)
{
    ExprEvalStep step;

    switch (nodeTag(node)) {
    case T_Var:
        compile_var(state, (Var *)node, resv, resnull);
        return;
    case T_Const:
        step = make_step(EEOP_CONST, resv, resnull);
        step.d.constval.value = ((Const *)node)->constvalue;
        step.d.constval.isnull = ((Const *)node)->constisnull;
        push_step(state, &step);
        return;
    case T_Param:
        if (((Param *)node)->paramkind == PARAM_EXTERN) {
            /* a $n's value is fixed for the whole execution, and the
             * expression is compiled per execution: a constant step */
            int id = ((Param *)node)->paramid;

            if (estate == NULL || id < 1 || id > estate->n_ext_params)
                ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
                        errmsg("no value found for parameter %d", id));
            step = make_step(EEOP_CONST, resv, resnull);
            step.d.constval.value = estate->ext_params[id - 1].value;
            step.d.constval.isnull = estate->ext_params[id - 1].isnull;
            push_step(state, &step);
            return;
        }
        if (((Param *)node)->paramkind != PARAM_EXEC)
            elog(ERROR, "unexpected parameter kind %d",
                 (int)((Param *)node)->paramkind);
        step = make_step(EEOP_PARAM_EXEC, resv, resnull);
        step.d.param.paramid = ((Param *)node)->paramid;
        push_step(state, &step);
        return;
    case T_FuncExpr: {
        FuncExpr *f = (FuncExpr *)node;

        compile_call(state, f->args, f->func, f->func->fn, f->func->strict,
                     exprType(node), resv, resnull, estate);
        return;
    }
    case T_OpExpr: {
        OpExpr *o = (OpExpr *)node;

        compile_call(state, o->args, NULL, o->op->fn, o->op->strict,
                     exprType(node), resv, resnull, estate);
        return;
    }
    case T_BoolExpr:
        compile_bool(state, (BoolExpr *)node, resv, resnull, estate);
        return;
    case T_CaseExpr:
        compile_case(state, (CaseExpr *)node, resv, resnull, estate);
        return;
    case T_CaseTestExpr:
        step = make_step(EEOP_CASE_TESTVAL, resv, resnull);
        step.d.casetest.value = state->caseval_value;
        step.d.casetest.isnull = state->caseval_null;
        push_step(state, &step);
        return;
    case T_NullTest:
        compile_expr(state, ((NullTest *)node)->arg, resv, resnull, estate);
        push_step(state, &(ExprEvalStep){
                             .opcode = ((NullTest *)node)->is_not_null
                                           ? EEOP_NULLTEST_ISNOTNULL
                                           : EEOP_NULLTEST_ISNULL,
                             .resvalue = resv,
                             .resnull = resnull});
        return;
    case T_BooleanTest:
        compile_expr(state, ((BooleanTest *)node)->arg, resv, resnull,
                     estate);
        step = make_step(EEOP_BOOLTEST, resv, resnull);
        step.d.booltest.test = ((BooleanTest *)node)->booltesttype;
        push_step(state, &step);
        return;
    case T_CoalesceExpr:
        compile_coalesce(state, (CoalesceExpr *)node, resv, resnull, estate);
        return;
    case T_NullIfExpr:
    case T_DistinctExpr: {
        bool is_nullif = IsA(node, NullIfExpr);
        List *args = is_nullif ? ((NullIfExpr *)node)->args
                               : ((DistinctExpr *)node)->args;
        const OperDesc *op = is_nullif ? ((NullIfExpr *)node)->op
                                       : ((DistinctExpr *)node)->op;

        step = make_step(is_nullif ? EEOP_NULLIF : EEOP_DISTINCT, resv,
                         resnull);
        step.d.distinct.fcinfo = compile_pair(state, args, op, estate);
        step.d.distinct.fn = op->fn;
        step.d.distinct.is_not =
            !is_nullif && ((DistinctExpr *)node)->is_not;
        push_step(state, &step);
        return;
    }
    case T_MinMaxExpr:
        compile_minmax(state, (MinMaxExpr *)node, resv, resnull, estate);
        return;
    case T_RelabelType:
        compile_expr(state, ((RelabelType *)node)->arg, resv, resnull,
                     estate);
        return;
    case T_CoerceViaIO:
        compile_coercion(state, node, ((CoerceViaIO *)node)->arg, resv,
                         resnull, estate);
        return;
    case T_CoerceToTypmod:
        compile_coercion(state, node, ((CoerceToTypmod *)node)->arg, resv,
                         resnull, estate);
        return;
    case T_InListExpr:
        compile_inlist(state, (InListExpr *)node, resv, resnull, estate);
        return;
    case T_Aggref:
        step = make_step(EEOP_AGGREF, resv, resnull);
        step.d.aggref.aggno = ((Aggref *)node)->aggno;
        push_step(state, &step);
        return;
    case T_SubPlan:
        step = make_step(EEOP_SUBPLAN, resv, resnull);
        step.d.subplan.sstate =
            tdb_exec_init_subplan((SubPlan *)node, estate);
        push_step(state, &step);
        return;
    case T_TargetEntry:
        compile_expr(state, ((TargetEntry *)node)->expr, resv, resnull,
                     estate);
        return;
    default:
        elog(ERROR, "cannot compile expression node type %d",
             (int)nodeTag(node));
    }
}

/* Finish the program: DONE, then opcodes to label addresses. */
static void
finish(ExprState *state)
{
    const void *const *labels = tdb_exec_interp_labels();

    push_step(state, &(ExprEvalStep){.opcode = EEOP_DONE});
    for (int i = 0; i < state->nsteps; i++)
        state->steps[i].opcode = (intptr_t)labels[state->steps[i].opcode];
}

ExprState *
tdb_exec_init_expr(Expr *expr, EState *estate)
{
    ExprState *state;

    if (expr == NULL)
        return NULL;
    state = new_state(expr);
    push_fetch_steps(state, (Node *)expr);
    compile_expr(state, expr, &state->resvalue, &state->resnull, estate);
    finish(state);
    return state;
}

ExprState *
tdb_exec_init_qual(List *qual, EState *estate)
{
    ExprState *state;
    List *jumps = NIL;

    if (qual == NIL)
        return NULL;
    state = new_state(NULL);
    state->is_qual = true;
    push_fetch_steps(state, (Node *)qual);
    for (int i = 0; i < list_length(qual); i++) {
        ExprEvalStep step = make_step(EEOP_QUAL, &state->resvalue,
                                      &state->resnull);

        compile_expr(state, list_nth(qual, i), &state->resvalue,
                     &state->resnull, estate);
        jumps = tdb_lappend_int(jumps, push_step(state, &step));
    }
    for (int i = 0; i < list_length(jumps); i++)
        patch_jump(state, list_nth_int(jumps, i), state->nsteps);
    finish(state);
    return state;
}

ExprState *
tdb_exec_init_projection(List *targetlist, TupleTableSlot *result_slot,
                         EState *estate)
{
    ExprState *state = new_state(NULL);

    state->result_slot = result_slot;
    push_fetch_steps(state, (Node *)targetlist);
    for (int i = 0; i < list_length(targetlist); i++) {
        TargetEntry *te = list_nth(targetlist, i);
        Expr *e = te->expr;
        ExprEvalStep step;

        if (IsA(e, Var) && ((Var *)e)->varattno > 0 &&
            ((Var *)e)->varno < 0) {
            Var *var = (Var *)e;

            step = make_step(var->varno == SCAN_VAR ? EEOP_ASSIGN_SCAN_VAR
                             : var->varno == OUTER_VAR
                                 ? EEOP_ASSIGN_OUTER_VAR
                                 : EEOP_ASSIGN_INNER_VAR,
                             NULL, NULL);
            step.d.assign_var.attnum = var->varattno - 1;
            step.d.assign_var.resultnum = i;
        } else {
            compile_expr(state, e, &state->resvalue, &state->resnull,
                         estate);
            step = make_step(EEOP_ASSIGN_TMP, NULL, NULL);
            step.d.assign_tmp.resultnum = i;
        }
        push_step(state, &step);
    }
    finish(state);
    return state;
}

TupleTableSlot *
tdb_exec_project(ExprState *projection, ExprContext *econtext)
{
    TupleTableSlot *slot = projection->result_slot;
    bool isnull;

    tdb_slot_clear(slot);
    (void)tdb_exec_interp(projection, econtext, &isnull);
    tdb_slot_store_virtual(slot);
    return slot;
}

int
tdb_expr_nsteps(const ExprState *state)
{
    return state != NULL ? state->nsteps : 0;
}
