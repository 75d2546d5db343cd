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
 * (ExprContext.per_row_mcxt), which the plan node resets per row -- or
 * not at all when none of its programs can allocate there
 * (tdb_expr_may_allocate): resetting an empty context was three calls
 * per row and node.
 *
 * An Agg node's aggregate transitions are a program too
 * (tdb_exec_init_agg_trans): per input row, each aggregate's FILTER and
 * arguments and then its transition, with dedicated steps for count and
 * sum over int2/int4 (no function call) and a call back into the Agg
 * node for every other aggregate, as PostgreSQL 11's EEOP_AGG_* steps.
 *
 * Projections whose every column is a plain column of one input slot
 * ("Var-only") run without the interpreter: a loop of copies, and when
 * they read a single column of a heap slot that is not deformed yet,
 * that one column is fetched directly (tdb_slot_fetch_attr) instead of
 * deforming every column before it.
 */
#ifndef TDB_EXECUTOR_EXPR_H
#define TDB_EXECUTOR_EXPR_H

#include "common/base.h"
#include "nodes/primnodes.h"
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
    /* Agg input: the transition states the per-row program advances
     * (tdb_exec_init_agg_trans), those of the current row's group */
    Datum *agg_trans_values;
    bool *agg_trans_nulls;
    struct EState *estate;
} ExprContext;

typedef struct ExprEvalStep ExprEvalStep;

typedef struct ExprState {
    NodeTag tag;
    bool is_qual;  /* a qual: NULL counts as false, result is bool */
    bool may_allocate; /* some step may allocate in per-row memory */
    bool scan_var_fetch; /* compiling: its one scan column read is a
                          * SCAN_VAR_FETCH (exec_expr.c) */
    bool keep_toasted;   /* compiling: the expression being compiled is
                          * an argument of a function that detoasts (or
                          * only measures) its argument itself */
    Datum resvalue;
    bool resnull;
    TupleTableSlot *result_slot; /* projections: where columns go */
    /* Var-only projections (see above): result column i is input column
     * var_attnums[i] (0-based) of var_slot_kind's slot; var_single is
     * that column when they all read the same one, else -1 */
    int var_slot_kind; /* 0: not Var-only; SCAN_VAR, OUTER_VAR, INNER_VAR */
    int var_ncols;
    int var_last;      /* highest column read, 1-based */
    int var_single;
    int *var_attnums;
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

/*
 * One aggregate of an Agg node's per-input-row program.  Its arguments
 * are evaluated into fcinfo->args[1..nargs] (args[0] is the transition
 * state's place); then, by kind:
 *   AGG_TRANS_COUNT_STAR  count(*): the int8 state plus one
 *   AGG_TRANS_COUNT       count(x): the same if x is not NULL
 *   AGG_TRANS_SUM_INT2/4  sum(int2/int4): an int8 state, NULL until the
 *                         first non-NULL input, which starts it
 *   AGG_TRANS_CALL        callback(callback_arg, aggno): the Agg node
 *                         runs the transition (any other aggregate,
 *                         DISTINCT / ORDER BY buffering)
 * On int8 overflow the dedicated steps call fallback_fn (the
 * aggregate's transition function) with the state and the input, which
 * raises PostgreSQL's error.  A FILTER that is not true skips the
 * aggregate.
 */
typedef enum AggTransKind {
    AGG_TRANS_CALL,
    AGG_TRANS_COUNT_STAR,
    AGG_TRANS_COUNT,
    AGG_TRANS_SUM_INT2,
    AGG_TRANS_SUM_INT4,
} AggTransKind;

typedef struct AggTransSpec {
    AggTransKind kind;
    List *args;                  /* Expr */
    Expr *filter;                /* or NULL */
    FunctionCallInfo fcinfo;     /* argument places; args[0] for the state */
    PGFunction fallback_fn;      /* the transition function */
    void (*callback)(void *arg, int aggno);
    void *callback_arg;
} AggTransSpec;

/*
 * Compile the per-input-row program of an Agg node with naggs
 * aggregates (aggno = index in specs).  Run it with
 * tdb_exec_interp(state, econtext, &isnull) after setting
 * econtext->outer_slot to the input row and econtext->agg_trans_values /
 * agg_trans_nulls to the row's group's states; its result is
 * meaningless.  Allocated in the current memory context.
 */
ExprState *tdb_exec_init_agg_trans(const AggTransSpec *specs, int naggs,
                                   struct EState *estate);

/*
 * May running state allocate in the per-row memory context?  False for
 * programs of column reads, constants, control flow, the dedicated
 * aggregate steps and calls of functions whose arguments and result are
 * all of by-value types (integers, bool, float, ...); a node whose
 * programs all answer false need not reset its per-row context.
 */
static inline bool
tdb_expr_may_allocate(const ExprState *state)
{
    return state != NULL && state->may_allocate;
}

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

/*
 * A projection's virtual result slot, cleared and then marked filled,
 * without the generic calls when the slot owns nothing (the usual case:
 * only a parent materializing it makes it own a copy).  What
 * tdb_slot_clear + tdb_slot_store_virtual do, minus their checks, which
 * hold by construction for a projection's slot, and minus resetting
 * tts_tid / tts_tableOid: nothing sets them in a virtual slot.
 */
static inline void
tdb_exec_result_slot_begin(TupleTableSlot *slot)
{
    if (unlikely(slot->tts_flags & TTS_FLAG_SHOULDFREE))
        tdb_slot_clear(slot);
    slot->tts_flags = TTS_FLAG_EMPTY;
}

static inline void
tdb_exec_result_slot_end(TupleTableSlot *slot)
{
    slot->tts_flags = 0;
    slot->tts_nvalid = slot->tts_tupleDescriptor->natts;
}

/*
 * A Var-only projection that reads one column (var_single >= 0), given
 * that column's value by the caller: fill and return the result slot.
 * For nodes that fetch the column straight from a tuple.
 */
static inline TupleTableSlot *
tdb_exec_project_value(ExprState *projection, Datum value, bool isnull)
{
    TupleTableSlot *slot = projection->result_slot;

    tdb_exec_result_slot_begin(slot);
    slot->tts_values[0] = value;
    slot->tts_isnull[0] = isnull;
    for (int i = 1; i < projection->var_ncols; i++) {
        slot->tts_values[i] = value;
        slot->tts_isnull[i] = isnull;
    }
    tdb_exec_result_slot_end(slot);
    return slot;
}

/*
 * Is projection the identity over a slot of input_desc's shape: column i
 * is input column i for every column, same types?  Then a node may
 * return its input slot instead of projecting.
 */
bool tdb_exec_projection_is_identity(const ExprState *projection,
                                     TupleDesc input_desc);

/* EXPLAIN-free debugging: number of steps (tests check the compilation). */
int tdb_expr_nsteps(const ExprState *state);

#endif /* TDB_EXECUTOR_EXPR_H */
