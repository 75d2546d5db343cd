/*
 * expr.h -- compiled expressions: an expression tree is turned once per
 * plan into a flat array of steps that an interpreter runs with
 * computed-goto dispatch (PostgreSQL's ExecInterpExpr design).
 *
 * A step reads its inputs from where earlier steps left them and writes
 * its result to (resvalue, resnull) pointers chosen at compile time --
 * usually the argument slots of the function call that consumes it --
 * so evaluating `a + 1 > b` is five steps with no tree walking and no
 * intermediate copies:
 *
 *     FETCH_SCAN(upto 2)              deform the scan tuple to column 2
 *     SCAN_VAR(1)      -> fcinfo1.args[0]
 *     CONST(1)         -> fcinfo1.args[1]
 *     FUNC_STRICT(int4pl, fcinfo1) -> fcinfo2.args[0]
 *     SCAN_VAR(2)      -> fcinfo2.args[1]
 *     FUNC_STRICT(int4gt, fcinfo2) -> state result
 *     DONE
 *
 * Column fetches deform only up to the highest column any step of the
 * expression needs (one FETCH step per input slot at the start).
 * Strict functions are skipped when an argument is NULL.  All
 * by-reference results are allocated in the per-row memory context
 * (ExprContext.per_row_mcxt), which the plan node resets per row.
 */
#ifndef TDB_EXECUTOR_EXPR_H
#define TDB_EXECUTOR_EXPR_H

#include "common/base.h"
#include "executor/primnodes.h"
#include "tuple/slot.h"
#include "types/fmgr.h"

struct EState;
struct SubPlanState;

/* Values passed between plans: initplan results, correlated params. */
typedef struct ParamExecData {
    Datum value;
    bool isnull;
    struct SubPlanState *pending; /* an initplan not run yet, or NULL */
} ParamExecData;

/* The value of a $n of a prepared statement (Bind's), for one execution. */
typedef struct ParamExternData {
    Datum value;
    bool isnull;
    Oid ptype;
} ParamExternData;

/* What an expression is evaluated against. */
typedef struct ExprContext {
    TupleTableSlot *scan_slot;  /* SCAN_VAR columns */
    TupleTableSlot *outer_slot; /* OUTER_VAR columns (left input) */
    TupleTableSlot *inner_slot; /* INNER_VAR columns (right input) */
    MemoryContext per_row_mcxt; /* reset by the node for each row */
    MemoryContext per_query_mcxt;
    Datum *agg_values; /* Agg output: the groups' aggregate results */
    bool *agg_nulls;
    struct EState *estate;
} ExprContext;

typedef struct ExprEvalStep ExprEvalStep;

typedef struct ExprState {
    NodeTag tag;
    bool is_qual;  /* a qual: NULL counts as false, result is bool */
    Datum resvalue;
    bool resnull;
    TupleTableSlot *result_slot; /* projections: where columns go */
    ExprEvalStep *steps;
    int nsteps;
    int steps_size;
    /* CASE test value of the innermost simple CASE being compiled / run */
    Datum *caseval_value;
    bool *caseval_null;
    Expr *expr; /* the source tree (for EXPLAIN) */
} ExprState;

/*
 * Compile expr (NULL allowed: evaluates to NULL... never used) for
 * evaluation with ExprContexts of the given estate (subplans, params).
 * Allocated in the current memory context (the plan's).
 */
ExprState *tdb_exec_init_expr(Expr *expr, struct EState *estate);

/*
 * Compile a qual: a List of boolean expressions ANDed, where NULL counts
 * as false (WHERE, JOIN ON, HAVING).  NIL gives NULL (always true).
 */
ExprState *tdb_exec_init_qual(List *qual, struct EState *estate);

/*
 * Compile a projection: the target list's expressions are evaluated into
 * result_slot's columns (a virtual slot with the target list's shape);
 * resjunk entries included.
 */
ExprState *tdb_exec_init_projection(List *targetlist,
                                    TupleTableSlot *result_slot,
                                    struct EState *estate);

/* Run a compiled expression. */
Datum tdb_exec_interp(ExprState *state, ExprContext *econtext, bool *isnull);

static inline Datum
tdb_exec_eval_expr(ExprState *state, ExprContext *econtext, bool *isnull)
{
    return tdb_exec_interp(state, econtext, isnull);
}

/* A qual: true if it holds (NULL state: no qual, true). */
static inline bool
tdb_exec_qual(ExprState *state, ExprContext *econtext)
{
    bool isnull;

    if (state == NULL)
        return true;
    return DatumGetBool(tdb_exec_interp(state, econtext, &isnull)) &&
           !isnull;
}

/* A projection: fills and returns its result slot. */
TupleTableSlot *tdb_exec_project(ExprState *projection,
                                 ExprContext *econtext);

/* EXPLAIN-free debugging: number of steps (tests check the compilation). */
int tdb_expr_nsteps(const ExprState *state);

#endif /* TDB_EXECUTOR_EXPR_H */
