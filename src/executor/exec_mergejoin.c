/*
 * exec_mergejoin.c -- MergeJoin: join two inputs sorted on the join keys
 * by walking them side by side.
 *
 * Both inputs arrive sorted ascending, NULLs last, on their keys (the
 * planner puts a Sort under each side that is not sorted already).  The
 * keys of the outer row are compared with those of the inner row, key
 * by key: by the type's three-way comparison, or for a cross-type clause
 * (int4 = int8) by its "=" and the "<" of the same two types.  Equal
 * keys make a group of inner rows that every outer row with those keys
 * joins; the inner side is marked at the group's first row, and an outer
 * row with the same keys as the previous one restores the inner side to
 * the mark to read the group again.  So the inner input must support
 * mark / restore (Sort, Material: tdb_exec_supports_mark).
 *
 * A row with a NULL key matches nothing: it is output at once,
 * null-extended, by the side being filled (LEFT / FULL / ANTI outer rows,
 * RIGHT / FULL inner rows) and otherwise skipped.  A NULL in the first
 * key means every later row of that input has one too (NULLs sort last),
 * so a side that is not filled ends there.
 *
 * The state machine (PostgreSQL's), one step per MergeJoinStep:
 *
 *   INIT_OUTER -> INIT_INNER -> SKIP_TEST
 *   SKIP_TEST:  outer < inner -> SKIP_OUTER (outer unmatched, advance)
 *               outer > inner -> SKIP_INNER (inner unmatched, advance)
 *               equal         -> mark inner, JOIN_TUPLES
 *   JOIN_TUPLES: join the pair (joinqual, then qual) -> NEXT_INNER
 *                (SEMI / ANTI: the first match -> NEXT_OUTER)
 *   NEXT_INNER: next inner equal to the outer -> JOIN_TUPLES,
 *               else NEXT_OUTER
 *   NEXT_OUTER: next outer -> TEST_OUTER
 *   TEST_OUTER: equal to the marked group -> restore inner, JOIN_TUPLES;
 *               else compare with the current inner (the first row past
 *               the group) -> SKIP_TEST / SKIP_INNER
 *   END_OUTER:  the outer input is done: remaining inner rows unmatched
 *   END_INNER:  the inner input is done: remaining outer rows unmatched
 *   DONE:       nothing more (no input is read again after its end)
 *
 * A state that outputs a row returns it and is re-entered on the next
 * call; the `matched` flags, set before a null-extended row is output,
 * keep it from being output twice.  Inner rows of a group read again
 * after a restore were all matched on the first pass, because RIGHT and
 * FULL merge joins have no join quals beyond the merge clauses (the
 * planner's rule, as PostgreSQL's): an inner row's match is then decided
 * by its keys alone.
 *
 * Memory: each side's key values are computed in an ExprContext of their
 * own, reset when that side moves to its next row; the marked group's
 * keys are computed over a copy of its first row (the `marked` slot)
 * in a third, reset at the next mark.  Joined rows are built in the
 * node's per-row memory.
 */
#include "common/base.h"

#include "common/elog.h"
#include "executor/exec_int.h"

typedef enum MergeJoinStep {
    MJ_INIT_OUTER,
    MJ_INIT_INNER,
    MJ_SKIP_TEST,
    MJ_SKIP_OUTER,
    MJ_SKIP_INNER,
    MJ_JOIN_TUPLES,
    MJ_NEXT_INNER,
    MJ_NEXT_OUTER,
    MJ_TEST_OUTER,
    MJ_END_OUTER,
    MJ_END_INNER,
    MJ_DONE,
} MergeJoinStep;

/* What a row's keys allow. */
typedef enum KeyState {
    KEYS_MATCHABLE, /* no NULL key */
    KEYS_NULL,      /* a NULL key: the row matches nothing */
    KEYS_END,       /* the input is done (or only NULL first keys follow
                     * on a side that is not filled) */
} KeyState;

/* One merge clause: outer key = inner key. */
typedef struct MergeKey {
    ExprState *outer_expr; /* over the outer row (OUTER_VAR) */
    ExprState *inner_expr; /* over the inner row (INNER_VAR) */
    PGFunction cmp;        /* the type's comparison, or NULL: */
    PGFunction eq;         /* cross-type: outer = inner, */
    PGFunction lt;         /* outer < inner */
    FunctionCallInfoData fcinfo;
} MergeKey;

/* One input's current row and its key values. */
typedef struct MergeSide {
    TupleTableSlot *row; /* NULL: none (at the end) */
    KeyState state;
    bool matched;          /* joined at least once (fill decisions) */
    ExprContext *keys_cxt; /* key evaluation, reset per row */
    Datum *values;
} MergeSide;

typedef struct MergeJoinState {
    PlanState ps;
    JoinType jointype;
    ExprState *joinqual;
    bool fill_outer;   /* LEFT, FULL, ANTI: unmatched outer rows output */
    bool fill_inner;   /* RIGHT, FULL: unmatched inner rows output */
    bool single_match; /* SEMI, ANTI: an outer row's first match is all */
    int nkeys;
    MergeKey *keys;
    MergeJoinStep step;
    MergeSide outer;
    MergeSide inner;
    /* the marked group: a copy of its first inner row, and its keys */
    TupleTableSlot *marked;
    ExprContext *mark_cxt;
    Datum *mark_values;
    TupleTableSlot *null_outer; /* all-NULL rows for null-extending */
    TupleTableSlot *null_inner;
} MergeJoinState;

/* ----------------------------------------------------------------------
 * Keys
 * ---------------------------------------------------------------------- */

/*
 * Evaluate one side's keys over econtext (whose slot the caller set) into
 * values.  fill: the side's unmatched rows are output, so a NULL first
 * key is not the end.
 */
static KeyState
eval_keys(MergeJoinState *mj, ExprContext *econtext, bool outer_side,
          Datum *values, bool fill)
{
    tdb_exec_reset_row(econtext);
    for (int i = 0; i < mj->nkeys; i++) {
        MergeKey *key = &mj->keys[i];
        bool isnull;

        values[i] = tdb_exec_eval_expr(
            outer_side ? key->outer_expr : key->inner_expr, econtext, &isnull);
        if (isnull)
            return i == 0 && !fill ? KEYS_END : KEYS_NULL;
    }
    return KEYS_MATCHABLE;
}

static int
compare_key(MergeKey *key, Datum outer, Datum inner)
{
    FunctionCallInfoData *fcinfo = &key->fcinfo;

    fcinfo->args[0].value = outer;
    fcinfo->args[1].value = inner;
    fcinfo->isnull = false;
    if (key->cmp != NULL)
        return DatumGetInt32(key->cmp(fcinfo));
    if (DatumGetBool(key->eq(fcinfo)))
        return 0;
    fcinfo->isnull = false;
    return DatumGetBool(key->lt(fcinfo)) ? -1 : 1;
}

/* The outer row's keys against inner_values (neither has a NULL key):
 * < 0, 0, > 0. */
static int
compare_outer(MergeJoinState *mj, const Datum *inner_values)
{
    for (int i = 0; i < mj->nkeys; i++) {
        int cmp =
            compare_key(&mj->keys[i], mj->outer.values[i], inner_values[i]);

        if (cmp != 0)
            return cmp;
    }
    return 0;
}

/* ----------------------------------------------------------------------
 * Moving along the inputs
 * ---------------------------------------------------------------------- */

/* The next row of one input (the outer when is_outer) and its key
 * state. */
static KeyState
fetch_side(MergeJoinState *mj, bool is_outer)
{
    MergeSide *side = is_outer ? &mj->outer : &mj->inner;

    side->matched = false;
    side->row = tdb_exec_proc_node(is_outer ? mj->ps.lefttree
                                            : mj->ps.righttree);
    if (side->row == NULL)
        return side->state = KEYS_END;
    if (is_outer)
        side->keys_cxt->outer_slot = side->row;
    else
        side->keys_cxt->inner_slot = side->row;
    side->state = eval_keys(mj, side->keys_cxt, is_outer, side->values,
                            is_outer ? mj->fill_outer : mj->fill_inner);
    if (side->state == KEYS_END)
        side->row = NULL;
    return side->state;
}

static KeyState
fetch_outer(MergeJoinState *mj)
{
    return fetch_side(mj, true);
}

static KeyState
fetch_inner(MergeJoinState *mj)
{
    return fetch_side(mj, false);
}

/* Mark the inner input at the current inner row, the first of a group. */
static void
mark_group(MergeJoinState *mj)
{
    Assert(mj->inner.row != mj->marked);
    tdb_exec_mark_pos(mj->ps.righttree);
    tdb_slot_copy(mj->marked, mj->inner.row);
    mj->mark_cxt->inner_slot = mj->marked;
    (void)eval_keys(mj, mj->mark_cxt, false, mj->mark_values, true);
}

/* Go back to the marked group's first row (already joined once). */
static void
restore_group(MergeJoinState *mj)
{
    tdb_exec_restore_pos(mj->ps.righttree);
    mj->inner.row = mj->marked;
    mj->inner.state = KEYS_MATCHABLE;
    mj->inner.matched = true;
    for (int i = 0; i < mj->nkeys; i++)
        mj->inner.values[i] = mj->mark_values[i];
}

/* ----------------------------------------------------------------------
 * Output
 * ---------------------------------------------------------------------- */

/* The joined row of the econtext's two slots if it passes the qual. */
static TupleTableSlot *
emit(MergeJoinState *mj)
{
    if (tdb_exec_filter(&mj->ps))
        return tdb_exec_project(mj->ps.projection, mj->ps.econtext);
    return NULL;
}

/* The current outer row null-extended, once, if outer rows are filled. */
static TupleTableSlot *
fill_outer(MergeJoinState *mj)
{
    ExprContext *econtext = mj->ps.econtext;

    if (!mj->fill_outer || mj->outer.matched || mj->outer.row == NULL)
        return NULL;
    mj->outer.matched = true;
    econtext->outer_slot = mj->outer.row;
    econtext->inner_slot = mj->null_inner;
    tdb_exec_reset_row(econtext);
    return emit(mj);
}

/* The current inner row null-extended, once, if inner rows are filled. */
static TupleTableSlot *
fill_inner(MergeJoinState *mj)
{
    ExprContext *econtext = mj->ps.econtext;

    if (!mj->fill_inner || mj->inner.matched || mj->inner.row == NULL)
        return NULL;
    mj->inner.matched = true;
    econtext->outer_slot = mj->null_outer;
    econtext->inner_slot = mj->inner.row;
    tdb_exec_reset_row(econtext);
    return emit(mj);
}

/*
 * JOIN_TUPLES: the current rows have equal keys.  Returns the joined row,
 * or NULL if the join qual or the qual rejected it (or ANTI matched).
 */
static TupleTableSlot *
join_tuples(MergeJoinState *mj)
{
    ExprContext *econtext = mj->ps.econtext;

    mj->step = MJ_NEXT_INNER;
    econtext->outer_slot = mj->outer.row;
    econtext->inner_slot = mj->inner.row;
    tdb_exec_reset_row(econtext);
    if (!tdb_exec_join_filter(&mj->ps, mj->joinqual))
        return NULL;
    mj->outer.matched = true;
    mj->inner.matched = true;
    if (mj->single_match)
        mj->step = MJ_NEXT_OUTER;
    if (mj->jointype == JOIN_ANTI)
        return NULL;
    return emit(mj);
}

/* The step after the outer input ended: the inner rows left, if filled. */
static MergeJoinStep
outer_done(MergeJoinState *mj)
{
    return mj->fill_inner ? MJ_END_OUTER : MJ_DONE;
}

/* The step after the inner input ended: the outer rows left, if filled. */
static MergeJoinStep
inner_done(MergeJoinState *mj)
{
    return mj->fill_outer ? MJ_END_INNER : MJ_DONE;
}

/* ----------------------------------------------------------------------
 * The state machine
 * ---------------------------------------------------------------------- */

/*
 * Emit the pending unmatched row of one input (outer joins), or read its
 * next row and choose the step: on_match when its keys can match, the
 * input's end step at its end; a NULL key stays on this step (its row is
 * output or skipped by the next call).
 */
static TupleTableSlot *
advance_side(MergeJoinState *mj, bool is_outer, MergeJoinStep on_match)
{
    TupleTableSlot *out = is_outer ? fill_outer(mj) : fill_inner(mj);

    if (out != NULL)
        return out;
    switch (fetch_side(mj, is_outer)) {
    case KEYS_MATCHABLE:
        mj->step = on_match;
        break;
    case KEYS_NULL:
        break;
    case KEYS_END:
        mj->step = is_outer ? outer_done(mj) : inner_done(mj);
        break;
    }
    return NULL;
}

/*
 * One step: sets mj->step to the next one; returns a row to output, or
 * NULL (then *done says whether the join is over).
 */
static TupleTableSlot *
step(MergeJoinState *mj, bool *done)
{
    TupleTableSlot *out = NULL;

    switch (mj->step) {
    case MJ_INIT_OUTER:
        switch (fetch_outer(mj)) {
        case KEYS_MATCHABLE:
            mj->step = MJ_INIT_INNER;
            break;
        case KEYS_NULL:
            out = fill_outer(mj);
            break;
        case KEYS_END:
            /* no outer rows: every inner row is unmatched */
            mj->inner.row = NULL;
            mj->step = outer_done(mj);
            break;
        }
        break;
    case MJ_INIT_INNER:
        switch (fetch_inner(mj)) {
        case KEYS_MATCHABLE:
            mj->step = MJ_SKIP_TEST;
            break;
        case KEYS_NULL:
            out = fill_inner(mj);
            break;
        case KEYS_END:
            mj->step = inner_done(mj);
            break;
        }
        break;
    case MJ_SKIP_TEST: {
        int cmp = compare_outer(mj, mj->inner.values);

        if (cmp == 0) {
            mark_group(mj);
            mj->step = MJ_JOIN_TUPLES;
        } else
            mj->step = cmp < 0 ? MJ_SKIP_OUTER : MJ_SKIP_INNER;
        break;
    }
    case MJ_SKIP_OUTER:
        out = advance_side(mj, true, MJ_SKIP_TEST);
        break;
    case MJ_SKIP_INNER:
        out = advance_side(mj, false, MJ_SKIP_TEST);
        break;
    case MJ_JOIN_TUPLES:
        out = join_tuples(mj);
        break;
    case MJ_NEXT_INNER:
        if ((out = fill_inner(mj)) != NULL)
            break;
        if (fetch_inner(mj) == KEYS_MATCHABLE &&
            compare_outer(mj, mj->inner.values) == 0)
            mj->step = MJ_JOIN_TUPLES;
        else
            mj->step = MJ_NEXT_OUTER; /* the group is over for this row */
        break;
    case MJ_NEXT_OUTER:
        out = advance_side(mj, true, MJ_TEST_OUTER);
        break;
    case MJ_TEST_OUTER:
        if (compare_outer(mj, mj->mark_values) == 0) {
            restore_group(mj);
            mj->step = MJ_JOIN_TUPLES;
        } else if (mj->inner.row == NULL) {
            mj->step = inner_done(mj);
        } else
            mj->step = mj->inner.state == KEYS_MATCHABLE ? MJ_SKIP_TEST
                                                         : MJ_SKIP_INNER;
        break;
    case MJ_END_OUTER:
        if ((out = fill_inner(mj)) != NULL)
            break;
        *done = mj->inner.state == KEYS_END || fetch_inner(mj) == KEYS_END;
        break;
    case MJ_END_INNER:
        if ((out = fill_outer(mj)) != NULL)
            break;
        *done = mj->outer.state == KEYS_END || fetch_outer(mj) == KEYS_END;
        break;
    case MJ_DONE:
        *done = true;
        break;
    default:
        elog(ERROR, "unrecognized merge join step %d", (int)mj->step);
    }
    return out;
}

static TupleTableSlot *
exec_mergejoin(PlanState *node)
{
    MergeJoinState *mj = (MergeJoinState *)node;

    for (;;) {
        bool done = false;
        TupleTableSlot *out;

        tdb_exec_check_interrupts(node->estate);
        out = step(mj, &done);
        if (out != NULL)
            return out;
        if (done) {
            mj->step = MJ_DONE;
            return NULL;
        }
    }
}

static void
rescan_mergejoin(PlanState *node)
{
    MergeJoinState *mj = (MergeJoinState *)node;

    mj->step = MJ_INIT_OUTER;
    mj->outer.row = NULL;
    mj->outer.state = KEYS_MATCHABLE;
    mj->inner.row = NULL;
    mj->inner.state = KEYS_MATCHABLE;
    tdb_slot_clear(mj->marked);
    tdb_exec_rescan(node->lefttree);
    tdb_exec_rescan(node->righttree);
}

/* ----------------------------------------------------------------------
 * Initialization
 * ---------------------------------------------------------------------- */

/* Compiled expression and comparison of merge clause i. */
static void
init_key(MergeKey *key, MergeJoin *plan, int i, EState *estate)
{
    OpExpr *clause = list_nth(plan->mergeclauses, i);
    Expr *outer = list_nth(plan->outer_keys, i);
    Expr *inner = list_nth(plan->inner_keys, i);
    Oid ltype = exprType(outer), rtype = exprType(inner);

    key->outer_expr = tdb_exec_init_expr(outer, estate);
    key->inner_expr = tdb_exec_init_expr(inner, estate);
    key->fcinfo.nargs = 2;
    if (ltype == rtype) {
        const TypeSupport *support = tdb_type_support(ltype);

        if (support == NULL || support->cmp == NULL)
            elog(ERROR, "no comparison function for a merge join key");
        key->cmp = support->cmp;
    } else {
        const OperDesc *lt = tdb_oper_lookup("<", ltype, rtype);

        if (lt == NULL)
            elog(ERROR, "no \"<\" operator for a cross-type merge join key");
        key->eq = clause->op->fn;
        key->lt = lt->fn;
    }
}

static ExprContext *
make_keys_context(EState *estate)
{
    ExprContext *econtext = tdb_palloc0(sizeof(ExprContext));

    econtext->per_query_mcxt = estate->query_mcxt;
    econtext->per_row_mcxt =
        tdb_aset_create(estate->query_mcxt, "MergeKeys", ALLOCSET_SMALL_SIZES);
    econtext->estate = estate;
    return econtext;
}

static void
init_side(MergeSide *side, int nkeys, EState *estate)
{
    side->keys_cxt = make_keys_context(estate);
    side->values = tdb_palloc0(sizeof(Datum) * (Size)Max(1, nkeys));
}

PlanState *
tdb_exec_init_mergejoin(MergeJoin *plan, EState *estate)
{
    MergeJoinState *mj = tdb_palloc0(sizeof(MergeJoinState));
    JoinType jt = plan->jointype;

    mj->ps.tag = T_PlanState;
    tdb_exec_init_common(&mj->ps, &plan->plan, estate, sizeof(MergeJoinState));
    if (!tdb_exec_supports_mark(plan->plan.righttree))
        elog(ERROR, "the inner input of a merge join must support mark");
    mj->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    mj->ps.righttree = tdb_exec_init_node(plan->plan.righttree, estate);
    mj->jointype = jt;
    mj->joinqual = tdb_exec_init_qual(plan->joinqual, estate);
    mj->fill_outer = jt == JOIN_LEFT || jt == JOIN_FULL || jt == JOIN_ANTI;
    mj->fill_inner = jt == JOIN_RIGHT || jt == JOIN_FULL;
    mj->single_match = jt == JOIN_SEMI || jt == JOIN_ANTI;
    if (mj->fill_inner && plan->joinqual != NIL)
        elog(ERROR, "a RIGHT or FULL merge join cannot have a join filter");
    mj->nkeys = list_length(plan->mergeclauses);
    if (mj->nkeys == 0)
        elog(ERROR, "a merge join needs at least one merge clause");
    mj->keys = tdb_palloc0(sizeof(MergeKey) * (Size)mj->nkeys);
    for (int i = 0; i < mj->nkeys; i++)
        init_key(&mj->keys[i], plan, i, estate);
    init_side(&mj->outer, mj->nkeys, estate);
    init_side(&mj->inner, mj->nkeys, estate);
    mj->mark_cxt = make_keys_context(estate);
    mj->mark_values = tdb_palloc0(sizeof(Datum) * (Size)mj->nkeys);
    mj->marked =
        tdb_slot_create(mj->ps.righttree->result_desc, &tdb_tts_ops_minimal);
    mj->null_outer = tdb_exec_null_slot(mj->ps.lefttree);
    mj->null_inner = tdb_exec_null_slot(mj->ps.righttree);
    mj->step = MJ_INIT_OUTER;
    mj->ps.exec = exec_mergejoin;
    mj->ps.rescan = rescan_mergejoin;
    tdb_exec_assign_projection(&mj->ps);
    return &mj->ps;
}
