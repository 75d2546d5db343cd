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
#include "common/stack_depth.h"
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
        /* an expression this large comes from the statement (a huge IN
         * list of computed items): the user's error, not an internal one */
        if ((Size)state->steps_size * 2 > MaxAllocSize / sizeof(ExprEvalStep))
            ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                    errmsg("expression is too complex"),
                    errdetail("It needs more than %zu evaluation steps.",
                              MaxAllocSize / sizeof(ExprEvalStep)));
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

/*
 * Highest column referenced per input slot, for the FETCH steps; and how
 * many references the scan slot gets.
 */
typedef struct FetchNeeds {
    int scan, outer, inner;
    int scan_refs;
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
        if (var->varattno > 0) {
            *slot = Max(*slot, var->varattno);
            if (slot == &needs->scan)
                needs->scan_refs++;
        }
        return false;
    }
    if (IsA(node, Aggref))
        return false; /* its arguments belong to the Agg node's input */
    return tdb_expr_walk_children(node, collect_fetch_needs, context);
}

/*
 * The FETCH steps of a program over expr.  An expression that reads a
 * single column of the scan row once (`WHERE c1 % 7 = 3`) gets no FETCH:
 * its SCAN_VAR_FETCH step reads that column without deforming the ones
 * before it (state->scan_var_fetch, for compile_var).  Not for
 * projections, whose column copies (ASSIGN_SCAN_VAR) read the deformed
 * arrays.
 */
static void
push_fetch_steps(ExprState *state, Node *expr, bool allow_var_fetch)
{
    FetchNeeds needs = {0, 0, 0, 0};
    ExprEvalStep step;

    collect_fetch_needs(expr, &needs);
    state->scan_var_fetch = allow_var_fetch && needs.scan_refs == 1;
    if (needs.scan > 0 && !state->scan_var_fetch) {
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

/* The call step of compile_call (out of line: compile_call's frame is
 * on the recursion's path, once per level of nesting). */
static TDB_NOINLINE void
push_call_step(ExprState *state, FunctionCallInfo fcinfo, PGFunction fn,
               bool strict, int nargs, Datum *resv, bool *resnull)
{
    ExprEvalStep step = make_step(!strict || nargs == 0 ? EEOP_FUNC
                                  : nargs == 1          ? EEOP_FUNC_STRICT_1
                                  : nargs == 2          ? EEOP_FUNC_STRICT_2
                                                        : EEOP_FUNC_STRICT,
                                  resv, resnull);

    step.d.func.fcinfo = fcinfo;
    step.d.func.fn = fn;
    step.d.func.nargs = nargs;
    push_step(state, &step);
}

/* A call of fn with args: arguments into the call's slots, then the
 * call.  Returns the call's fcinfo (in the ExprState's memory). */
static FunctionCallInfo
compile_call(ExprState *state, List *args, const FuncDesc *desc,
             PGFunction fn, bool strict, Oid rettype, Datum *resv,
             bool *resnull, EState *estate)
{
    int nargs = list_length(args);
    FunctionCallInfo fcinfo;

    if (nargs > FUNC_MAX_ARGS)
        elog(ERROR, "too many arguments (%d) in a function call", nargs);
    fcinfo = new_fcinfo(nargs, desc, fn, rettype);
    for (int i = 0; i < nargs; i++)
        fcinfo->flinfo->fn_expr_argtypes[i] = exprType(list_nth(args, i));
    for (int i = 0; i < nargs; i++) {
        state->keep_toasted = desc != NULL && desc->toast_aware;
        compile_expr(state, list_nth(args, i), &fcinfo->args[i].value,
                     &fcinfo->args[i].isnull, estate);
    }
    push_call_step(state, fcinfo, fn, strict, nargs, resv, resnull);
    return fcinfo;
}

/* AND and OR (NOT is compile_expr's own). */
static TDB_NOINLINE void
compile_bool(ExprState *state, BoolExpr *b, Datum *resv, bool *resnull,
             EState *estate)
{
    int nargs = list_length(b->args);
    bool is_and = b->boolop == AND_EXPR;
    bool *anynull;
    List *jumps = NIL;

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

static TDB_NOINLINE void
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

static TDB_NOINLINE void
compile_coalesce(ExprState *state, CoalesceExpr *c, Datum *resv, bool *resnull,
                 EState *estate)
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

/*
 * IN lists of at least this many constants are hashed when their "="
 * hashes (PostgreSQL's MIN_ARRAY_SIZE_FOR_HASHED_SAOP): below it, a
 * comparison per item is as cheap as a hash probe.
 */
#define INLIST_HASH_MIN_ITEMS 9

/* The hash support function of in's comparison, or NULL if the list
 * cannot be hashed (an item that is not a constant, a "=" of two types
 * or one without a hash). */
static PGFunction
inlist_hash_function(const InListExpr *in)
{
    const TypeSupport *support;

    if (list_length(in->items) < INLIST_HASH_MIN_ITEMS ||
        !in->op->is_equality || !in->op->strict ||
        in->op->left != in->op->right)
        return NULL;
    for (int i = 0; i < list_length(in->items); i++)
        if (!IsA(list_nth(in->items, i), Const))
            return NULL;
    support = tdb_type_support(in->op->left);
    return support != NULL ? support->hash : NULL;
}

static uint32
inlist_hash_value(PGFunction hash_fn, Datum v)
{
    return DatumGetUInt32(tdb_direct_call1(hash_fn, v));
}

/* The hash table of in's constants, in the current memory context. */
static InListHash *
build_inlist_hash(const InListExpr *in, PGFunction hash_fn)
{
    InListHash *h = tdb_palloc0(sizeof(InListHash));
    Size n = (Size)list_length(in->items);
    Size size = 16;

    while (size < n + n / 2) /* load at most 2/3 */
        size *= 2;
    if (size > UINT32_MAX)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("IN list has too many items"));
    h->entries = tdb_palloc_extended(size * sizeof(InListHashEntry),
                                     MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
    h->mask = (uint32)(size - 1);
    h->hash_fn = hash_fn;
    h->eq_fn = in->op->fn;
    h->is_not = in->is_not;
    for (int i = 0; i < list_length(in->items); i++) {
        const Const *c = list_nth(in->items, i);
        uint32 hash;
        uint32 slot;

        if (c->constisnull) {
            h->has_null = true;
            continue;
        }
        if (tdb_inlist_hash_contains(h, c->constvalue))
            continue; /* a repeated item */
        hash = inlist_hash_value(hash_fn, c->constvalue);
        for (slot = hash & h->mask; h->entries[slot].used;
             slot = (slot + 1) & h->mask)
            ;
        h->entries[slot] = (InListHashEntry){c->constvalue, hash, true};
    }
    return h;
}

bool
tdb_inlist_hash_contains(const InListHash *h, Datum v)
{
    uint32 hash = inlist_hash_value(h->hash_fn, v);

    for (uint32 slot = hash & h->mask; h->entries[slot].used;
         slot = (slot + 1) & h->mask) {
        const InListHashEntry *e = &h->entries[slot];

        if (e->hash == hash &&
            DatumGetBool(tdb_direct_call2(h->eq_fn, v, e->value)))
            return true;
    }
    return false;
}

static TDB_NOINLINE void
compile_inlist(ExprState *state, InListExpr *in, Datum *resv, bool *resnull,
               EState *estate)
{
    Datum *argv = tdb_palloc(sizeof(Datum));
    bool *argn = tdb_palloc(sizeof(bool));
    int nitems = list_length(in->items);
    bool *anynull = tdb_palloc0(sizeof(bool));
    List *jumps = NIL;
    PGFunction hash_fn = inlist_hash_function(in);

    compile_expr(state, in->arg, argv, argn, estate);
    if (hash_fn != NULL) {
        ExprEvalStep step = make_step(EEOP_INLIST_HASHED, resv, resnull);

        step.d.inlist_hashed.value = argv;
        step.d.inlist_hashed.isnull = argn;
        step.d.inlist_hashed.hash = build_inlist_hash(in, hash_fn);
        push_step(state, &step);
        return;
    }
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
        step = make_step(EEOP_FUNC_STRICT_2, resv, resnull);
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

static TDB_NOINLINE void
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

/*
 * x op ANY / ALL (array): x into the call's first argument and the array
 * evaluated, then EEOP_SCALARARRAYOP compares each element.  A constant
 * array is read into its elements here, once for the statement.
 */
static TDB_NOINLINE void
compile_saop(ExprState *state, ScalarArrayOpExpr *saop, Datum *resv,
             bool *resnull, EState *estate)
{
    ScalarArrayOpState *ss = tdb_palloc0(sizeof(ScalarArrayOpState));
    Expr *array = list_nth(saop->args, 1);
    ExprEvalStep step;

    ss->fcinfo = new_fcinfo(2, NULL, saop->op->fn, BOOLOID);
    ss->fn = saop->op->fn;
    ss->use_or = saop->use_or;
    ss->strict = saop->op->strict;
    compile_expr(state, linitial(saop->args), &ss->fcinfo->args[0].value,
                 &ss->fcinfo->args[0].isnull, estate);
    if (IsA(array, Const)) {
        ss->is_const = true;
        ss->array_isnull = ((Const *)array)->constisnull;
        if (!ss->array_isnull) {
            ArrayValues av = tdb_array_values(((Const *)array)->constvalue);

            ss->nelems = av.n;
            ss->elems = av.values;
        }
    } else
        compile_expr(state, array, &ss->array, &ss->array_isnull, estate);
    step = make_step(EEOP_SCALARARRAYOP, resv, resnull);
    step.d.saop.state = ss;
    push_step(state, &step);
}

/* Each of args evaluated into (*values)[i] / (*nulls)[i], arrays
 * allocated here (in the ExprState's memory). */
static void
compile_each(ExprState *state, List *args, Datum **values, bool **nulls,
             EState *estate)
{
    int n = list_length(args);

    *values = tdb_palloc(sizeof(Datum) * (Size)Max(n, 1));
    *nulls = tdb_palloc(sizeof(bool) * (Size)Max(n, 1));
    for (int i = 0; i < n; i++)
        compile_expr(state, list_nth(args, i), &(*values)[i], &(*nulls)[i],
                     estate);
}

/* ARRAY[...]: the elements evaluated, then made one array (EEOP_ARRAY). */
static void
compile_array(ExprState *state, ArrayExpr *arr, Datum *resv, bool *resnull,
              EState *estate)
{
    ExprEvalStep step = make_step(EEOP_ARRAY, resv, resnull);

    step.d.array.nelems = list_length(arr->elements);
    step.d.array.elemtype = arr->element_type;
    compile_each(state, arr->elements, &step.d.array.values,
                 &step.d.array.nulls, estate);
    push_step(state, &step);
}

/* ROW(...): the fields evaluated, then made one record (EEOP_ROW). */
static void
compile_row(ExprState *state, RowExpr *row, Datum *resv, bool *resnull,
            EState *estate)
{
    int nargs = list_length(row->args);
    ExprEvalStep step = make_step(EEOP_ROW, resv, resnull);

    step.d.row.types = tdb_palloc(sizeof(Oid) * (Size)Max(nargs, 1));
    step.d.row.nargs = nargs;
    for (int i = 0; i < nargs; i++)
        step.d.row.types[i] = exprType(list_nth(row->args, i));
    compile_each(state, row->args, &step.d.row.values, &step.d.row.nulls,
                 estate);
    push_step(state, &step);
}

/*
 * After a column or parameter read of a type whose values may be
 * toasted: detoast it (EEOP_DETOAST), unless the reader takes it as it
 * is stored.  Projections copy columns with ASSIGN steps instead, which
 * leave values toasted: rows carry 18-byte pointers, not the values.
 */
static void
push_detoast(ExprState *state, Oid typid, bool keep_toasted, Datum *resv,
             bool *resnull)
{
    const TypeInfo *type = typid != InvalidOid ? tdb_type_lookup(typid)
                                               : NULL;

    if (keep_toasted || type == NULL || type->len != -1 ||
        type->storage == 'p')
        return;
    push_step(state, &(ExprEvalStep){.opcode = EEOP_DETOAST,
                                     .resvalue = resv,
                                     .resnull = resnull});
}

static void
compile_var(ExprState *state, Var *var, Datum *resv, bool *resnull,
            bool keep_toasted)
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
    if (op == EEOP_SCAN_VAR && state->scan_var_fetch)
        step.opcode = EEOP_SCAN_VAR_FETCH;
    step.d.var.attnum = var->varattno - 1;
    push_step(state, &step);
    push_detoast(state, exprType(var), keep_toasted, resv, resnull);
}

static TDB_NOINLINE void
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

/*
 * The nodes without children (and SubPlan, whose plan is compiled
 * apart): out of line, as are the node types' own compile functions
 * (TDB_NOINLINE), so that the steps they build take no room in
 * compile_expr's frame, which recursion repeats once per level of
 * nesting: `a+a+...+a` with 4,000 terms must compile within
 * max_stack_depth, as it runs in PostgreSQL (with them inlined, the
 * frame was 400 bytes and 3,400 terms the most).
 */
static TDB_NOINLINE void
compile_leaf(ExprState *state, Expr *node, Datum *resv, bool *resnull,
             EState *estate, bool keep_toasted)
{
    ExprEvalStep step;

    switch (nodeTag(node)) {
    case T_Var:
        compile_var(state, (Var *)node, resv, resnull, keep_toasted);
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
        push_detoast(state, exprType(node), keep_toasted, resv,
                     resnull);
        return;
    case T_CaseTestExpr:
        step = make_step(EEOP_CASE_TESTVAL, resv, resnull);
        step.d.casetest.value = state->caseval_value;
        step.d.casetest.isnull = state->caseval_null;
        push_step(state, &step);
        return;
    case T_Aggref:
        step = make_step(EEOP_AGGREF, resv, resnull);
        step.d.aggref.aggno = ((Aggref *)node)->aggno;
        push_step(state, &step);
        return;
    case T_SubPlan:
        step = make_step(EEOP_SUBPLAN, resv, resnull);
        step.d.subplan.sstate = tdb_exec_init_subplan((SubPlan *)node, estate);
        push_step(state, &step);
        /* a scalar subquery's value is its row's column as stored */
        push_detoast(state, exprType(node), keep_toasted, resv, resnull);
        return;
    default:
        elog(ERROR, "cannot compile expression node type %d",
             (int)nodeTag(node));
    }
}

/* The step after the argument of a NOT, a NullTest or a BooleanTest
 * (out of line, as compile_leaf). */
static TDB_NOINLINE void
push_test_step(ExprState *state, Expr *node, Datum *resv, bool *resnull)
{
    ExprEvalStep step;

    if (IsA(node, BoolExpr))
        step = make_step(EEOP_BOOL_NOT, resv, resnull);
    else if (IsA(node, NullTest))
        step =
            make_step(((NullTest *)node)->is_not_null ? EEOP_NULLTEST_ISNOTNULL
                                                      : EEOP_NULLTEST_ISNULL,
                      resv, resnull);
    else {
        step = make_step(EEOP_BOOLTEST, resv, resnull);
        step.d.booltest.test = ((BooleanTest *)node)->booltesttype;
    }
    push_step(state, &step);
}

/* NULLIF(a, b) and a IS [NOT] DISTINCT FROM b. */
static TDB_NOINLINE void
compile_nullif_distinct(ExprState *state, Expr *node, Datum *resv,
                        bool *resnull, EState *estate)
{
    bool is_nullif = IsA(node, NullIfExpr);
    List *args =
        is_nullif ? ((NullIfExpr *)node)->args : ((DistinctExpr *)node)->args;
    const OperDesc *op =
        is_nullif ? ((NullIfExpr *)node)->op : ((DistinctExpr *)node)->op;
    ExprEvalStep step =
        make_step(is_nullif ? EEOP_NULLIF : EEOP_DISTINCT, resv, resnull);

    step.d.distinct.fcinfo = compile_pair(state, args, op, estate);
    step.d.distinct.fn = op->fn;
    step.d.distinct.is_not = !is_nullif && ((DistinctExpr *)node)->is_not;
    push_step(state, &step);
}

static void
compile_expr(ExprState *state, Expr *node, Datum *resv, bool *resnull,
             EState *estate)
{
    bool keep_toasted = state->keep_toasted;

    tdb_check_stack_depth();

    state->keep_toasted = false; /* applies to this node only */
    switch (nodeTag(node)) {
    case T_FuncExpr: {
        FuncExpr *f = (FuncExpr *)node;

        FunctionCallInfo fcinfo =
            compile_call(state, f->args, f->func, f->func->fn,
                         f->func->strict, exprType(node), resv, resnull,
                         estate);

        fcinfo->flinfo->fn_expr_variadic = f->funcvariadic;
        return;
    }
    case T_OpExpr: {
        OpExpr *o = (OpExpr *)node;

        (void)compile_call(state, o->args, NULL, o->op->fn, o->op->strict,
                     exprType(node), resv, resnull, estate);
        return;
    }
    case T_BoolExpr:
        if (((BoolExpr *)node)->boolop == NOT_EXPR) {
            /* here: NOT NOT ... NOT x nests as deep as it is long */
            compile_expr(state, linitial(((BoolExpr *)node)->args), resv,
                         resnull, estate);
            push_test_step(state, node, resv, resnull);
            return;
        }
        compile_bool(state, (BoolExpr *)node, resv, resnull, estate);
        return;
    case T_CaseExpr:
        compile_case(state, (CaseExpr *)node, resv, resnull, estate);
        return;
    case T_NullTest:
        compile_expr(state, ((NullTest *)node)->arg, resv, resnull, estate);
        push_test_step(state, node, resv, resnull);
        return;
    case T_BooleanTest:
        compile_expr(state, ((BooleanTest *)node)->arg, resv, resnull,
                     estate);
        push_test_step(state, node, resv, resnull);
        return;
    case T_CoalesceExpr:
        compile_coalesce(state, (CoalesceExpr *)node, resv, resnull, estate);
        return;
    case T_NullIfExpr:
    case T_DistinctExpr:
        compile_nullif_distinct(state, node, resv, resnull, estate);
        return;
    case T_MinMaxExpr:
        compile_minmax(state, (MinMaxExpr *)node, resv, resnull, estate);
        return;
    case T_RowExpr:
        compile_row(state, (RowExpr *)node, resv, resnull, estate);
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
    case T_ScalarArrayOpExpr:
        compile_saop(state, (ScalarArrayOpExpr *)node, resv, resnull, estate);
        break;
    case T_ArrayExpr:
        compile_array(state, (ArrayExpr *)node, resv, resnull, estate);
        break;
    case T_InListExpr:
        compile_inlist(state, (InListExpr *)node, resv, resnull, estate);
        return;
    case T_TargetEntry:
        compile_expr(state, ((TargetEntry *)node)->expr, resv, resnull,
                     estate);
        return;
    default:
        compile_leaf(state, node, resv, resnull, estate, keep_toasted);
        return;
    }
}

static bool
type_is_byval(Oid typid)
{
    const TypeInfo *type = typid != InvalidOid ? tdb_type_lookup(typid)
                                               : NULL;

    return type != NULL && type->byval && type->len > 0;
}

/*
 * May this step allocate in the per-row memory context (expr.h,
 * tdb_expr_may_allocate)?  A function call may not when its arguments
 * and result are all of by-value types and it is not volatile: such a
 * built-in computes on registers (int4mod, int4eq, int8pl, ...).  An
 * unknown argument type (InvalidOid) counts as by-reference.
 */
static bool
step_may_allocate(const ExprEvalStep *step)
{
    switch ((ExprEvalOp)step->opcode) {
    case EEOP_FUNC:
    case EEOP_FUNC_STRICT:
    case EEOP_FUNC_STRICT_1:
    case EEOP_FUNC_STRICT_2: {
        const FmgrInfo *flinfo = step->d.func.fcinfo->flinfo;

        if (flinfo->fn_desc != NULL &&
            flinfo->fn_desc->volatility == PROVOLATILE_VOLATILE)
            return true;
        if (!type_is_byval(flinfo->fn_expr_rettype))
            return true;
        for (int a = 0; a < step->d.func.nargs; a++)
            if (!type_is_byval(flinfo->fn_expr_argtypes[a]))
                return true;
        return false;
    }
    case EEOP_PARAM_EXEC:
    case EEOP_DETOAST:
    case EEOP_IOCOERCE:
    case EEOP_TYPMOD:
    case EEOP_DISTINCT:
    case EEOP_NULLIF:
    case EEOP_MINMAX:
    case EEOP_ROW:
    case EEOP_SCALARARRAYOP:
    case EEOP_ARRAY:
    case EEOP_SUBPLAN:
    case EEOP_AGG_CALL:
        return true;
    default:
        return false;
    }
}

/* Finish the program: DONE, then opcodes to label addresses. */
static void
finish(ExprState *state)
{
    const void *const *labels = tdb_exec_interp_labels();

    push_step(state, &(ExprEvalStep){.opcode = EEOP_DONE});
    for (int i = 0; i < state->nsteps; i++) {
        state->may_allocate |= step_may_allocate(&state->steps[i]);
        state->steps[i].opcode = (intptr_t)labels[state->steps[i].opcode];
    }
}

ExprState *
tdb_exec_init_expr(Expr *expr, EState *estate)
{
    ExprState *state;

    if (expr == NULL)
        return NULL;
    state = new_state(expr);
    push_fetch_steps(state, (Node *)expr, true);
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
    push_fetch_steps(state, (Node *)qual, true);
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

/*
 * If every target is a plain column (varattno > 0) of the same input
 * slot, record the copy list for tdb_exec_project's Var-only path.
 */
static void
analyze_var_only(ExprState *state, List *targetlist)
{
    int n = list_length(targetlist);
    int kind = 0, last = 0, single = -1;
    int *attnums;

    /* an empty target list reads no slot (the node may have none) */
    if (n == 0)
        return;
    attnums = tdb_palloc(sizeof(int) * (Size)n);

    for (int i = 0; i < n; i++) {
        Expr *e = ((TargetEntry *)list_nth(targetlist, i))->expr;
        Var *var = (Var *)e;

        if (!IsA(e, Var) || var->varattno <= 0 ||
            (var->varno != SCAN_VAR && var->varno != OUTER_VAR &&
             var->varno != INNER_VAR) ||
            (kind != 0 && var->varno != kind))
            return;
        kind = var->varno;
        attnums[i] = var->varattno - 1;
        last = Max(last, (int)var->varattno);
        single = i == 0 || single == attnums[i] ? attnums[i] : -2;
    }
    state->var_slot_kind = kind;
    state->var_ncols = n;
    state->var_last = last;
    state->var_single = single >= 0 ? single : -1;
    state->var_attnums = attnums;
}

ExprState *
tdb_exec_init_projection(List *targetlist, TupleTableSlot *result_slot,
                         EState *estate)
{
    ExprState *state = new_state(NULL);

    state->result_slot = result_slot;
    analyze_var_only(state, targetlist);
    push_fetch_steps(state, (Node *)targetlist, false);
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

    tdb_exec_result_slot_begin(slot);
    if (projection->var_slot_kind != 0) {
        TupleTableSlot *in = projection->var_slot_kind == SCAN_VAR
                                 ? econtext->scan_slot
                             : projection->var_slot_kind == OUTER_VAR
                                 ? econtext->outer_slot
                                 : econtext->inner_slot;
        const int *attnums = projection->var_attnums;

        if (projection->var_single >= 0 &&
            in->tts_nvalid <= projection->var_single) {
            /* one column, not deformed yet: fetch just that one */
            Datum value = tdb_slot_fetch_attr(in, projection->var_single + 1,
                                              &isnull);

            for (int i = 0; i < projection->var_ncols; i++) {
                slot->tts_values[i] = value;
                slot->tts_isnull[i] = isnull;
            }
        } else {
            if (in->tts_nvalid < projection->var_last)
                tdb_slot_getsomeattrs(in, projection->var_last);
            for (int i = 0; i < projection->var_ncols; i++) {
                slot->tts_values[i] = in->tts_values[attnums[i]];
                slot->tts_isnull[i] = in->tts_isnull[attnums[i]];
            }
        }
    } else
        (void)tdb_exec_interp(projection, econtext, &isnull);
    tdb_exec_result_slot_end(slot);
    return slot;
}

bool
tdb_exec_projection_is_identity(const ExprState *projection,
                                TupleDesc input_desc)
{
    TupleDesc out;

    if (projection == NULL || projection->var_slot_kind == 0)
        return false;
    out = projection->result_slot->tts_tupleDescriptor;
    if (out->natts != input_desc->natts ||
        projection->var_ncols != input_desc->natts)
        return false;
    for (int i = 0; i < out->natts; i++)
        if (projection->var_attnums[i] != i ||
            TupleDescAttr(out, i)->atttypid !=
                TupleDescAttr(input_desc, i)->atttypid)
            return false;
    return true;
}

ExprState *
tdb_exec_init_agg_trans(const AggTransSpec *specs, int naggs, EState *estate)
{
    static const ExprEvalOp ops[] = {
        [AGG_TRANS_CALL] = EEOP_AGG_CALL,
        [AGG_TRANS_COUNT_STAR] = EEOP_AGG_COUNT_STAR,
        [AGG_TRANS_COUNT] = EEOP_AGG_COUNT,
        [AGG_TRANS_SUM_INT2] = EEOP_AGG_SUM_INT2,
        [AGG_TRANS_SUM_INT4] = EEOP_AGG_SUM_INT4,
    };
    ExprState *state = new_state(NULL);
    List *inputs = NIL;

    for (int i = 0; i < naggs; i++) {
        for (int a = 0; a < list_length(specs[i].args); a++)
            inputs = tdb_lappend(inputs, list_nth(specs[i].args, a));
        if (specs[i].filter != NULL)
            inputs = tdb_lappend(inputs, specs[i].filter);
    }
    push_fetch_steps(state, (Node *)inputs, true);
    for (int i = 0; i < naggs; i++) {
        const AggTransSpec *spec = &specs[i];
        FunctionCallInfo fcinfo = spec->fcinfo;
        int nargs = list_length(spec->args);
        int skip = -1;
        ExprEvalStep step;

        if (nargs + 1 > FUNC_MAX_ARGS)
            elog(ERROR, "too many arguments (%d) in an aggregate", nargs);
        if (spec->filter != NULL) {
            Datum *fv = tdb_palloc(sizeof(Datum));
            bool *fn = tdb_palloc(sizeof(bool));

            compile_expr(state, spec->filter, fv, fn, estate);
            step = make_step(EEOP_JUMP_IF_NOT_TRUE, fv, fn);
            skip = push_step(state, &step);
        }
        for (int a = 0; a < nargs; a++)
            compile_expr(state, list_nth(spec->args, a),
                         &fcinfo->args[a + 1].value,
                         &fcinfo->args[a + 1].isnull, estate);
        step = make_step(ops[spec->kind], NULL, NULL);
        step.d.agg.aggno = i;
        step.d.agg.fcinfo = fcinfo;
        step.d.agg.fallback = spec->fallback_fn;
        step.d.agg.callback = spec->callback;
        step.d.agg.callback_arg = spec->callback_arg;
        push_step(state, &step);
        if (skip >= 0)
            patch_jump(state, skip, state->nsteps);
    }
    finish(state);
    return state;
}

int
tdb_expr_nsteps(const ExprState *state)
{
    return state != NULL ? state->nsteps : 0;
}
