/*
 * exec_subplan.c -- subqueries inside expressions: SubPlans (run per
 * evaluation, with correlated parameters) and initplans (uncorrelated:
 * run once, on first use of the parameter they set).
 *
 * Kinds, with SQL's NULL rules:
 *   EXISTS   true if the subquery returns a row;
 *   EXPR     the single row's first column (NULL if no row; 21000 if
 *            more than one);
 *   ANY      (x IN / x op ANY (subquery)): testexpr compares x with the
 *            row's columns (Params); true if it is true for some row,
 *            else NULL if it was NULL for some row, else false;
 *   ALL      false if testexpr is false for some row, else NULL if NULL
 *            for some row, else true.
 * A correlated subplan is rescanned with new parameter values each time;
 * an uncorrelated ANY / ALL one that is not hashed reads its subquery
 * through a Materialize (optimizer/subselect.c), so a rescan replays the rows.
 *
 * Hashed ANY (SubPlan.use_hash: `x IN (SELECT ...)`, and NOT IN, which
 * is NOT over it), PostgreSQL's "hashed SubPlan": the planner sets it for
 * an uncorrelated subquery compared by equalities that hash, whose rows
 * fit in hash memory.  The first evaluation runs the subquery once and
 * keeps its distinct rows -- the right-hand sides of the equalities,
 * widened to the key type -- in two compact tuple hash tables
 * (tuplehash.h; no per-row tuple copies): `rows` for the rows without a
 * NULL, `null_rows` for those with one (with one column, at most the
 * single all-NULL row).  Then for each outer row, with x the left-hand
 * sides:
 *
 *   subquery empty                 false (x is not even evaluated)
 *   x has no NULL, found in rows   true
 *   x has no NULL, otherwise       NULL if some row of null_rows is a
 *                                  partial match, else false
 *   x all NULL                     NULL
 *   x partly NULL                  NULL if some row of null_rows or of
 *                                  rows is a partial match, else false
 *
 * where a partial match is a row that no column proves different from x:
 * every column where both are non-NULL compares equal (PostgreSQL's
 * findPartialMatch; a full scan of the table, as there).  This relies on
 * the equalities never returning NULL for non-NULL inputs, which the
 * planner ensures (strict, hashable operators).
 *
 * Types: each comparison `x = y` has a key type.  Usually x and y have
 * the same type; for the cross-type equalities that hash (int2/int4/int8,
 * float4/float8, name/text) the narrower side is widened to the wider
 * type first, which is exact, so equality and hashing are the key type's
 * (and int4 2 finds int8 2).  The key type's hash function hashes, and
 * its "=" compares unless its equality is "same bytes" (integers, text in
 * the C collation, ...), which the table then does itself.
 *
 * Lifetime: the subquery reads nothing of the outer query, and the
 * initplan Params it may read are computed once per execution, so its
 * rows cannot change within the statement: the tables are built once per
 * SubPlanState and live in the statement's memory.
 */
#include "common/base.h"

#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "common/stack_depth.h"
#include "executor/exec_int.h"
#include "executor/hashgroup.h"
#include "executor/tuplehash.h"
#include "types/builtins.h"
#include "types/hashfn.h"

/* One compared column of a hashed subplan. */
typedef struct HashColumn {
    ExprState *lhs;      /* the outer value, over the caller's row */
    ExprState *rhs;      /* the subquery's value, over its output Params */
    PGFunction lhs_cast; /* widens the outer value to the key type, or NULL */
    PGFunction rhs_cast; /* widens the subquery's value, or NULL */
    PGFunction hash;     /* the key type's hash function */
    PGFunction eq;       /* the key type's equality */
} HashColumn;

/* A hashed subplan's tables (see the header). */
typedef struct SubPlanHash {
    int ncols;
    HashColumn *cols;
    TupleHashTable *rows;      /* distinct rows without a NULL */
    TupleHashTable *null_rows; /* distinct rows with some NULL */
    bool built;
    bool have_rows;
    bool have_null_rows;
    ExprContext *inner; /* evaluates the rhs expressions per row */
    Datum *values;      /* scratch: a key being probed */
    bool *isnull;
    Datum *stored; /* scratch: a stored key (partial matches) */
    bool *stored_isnull;
} SubPlanHash;

struct SubPlanState {
    SubPlan *sub;
    PlanState *planstate;
    ExprState *testexpr;
    List *arg_states;   /* ExprState per correlated argument */
    bool started;       /* planstate has run once (rescan next time) */
    SubPlanHash *hash;  /* use_hash: the tables, else NULL */
};

static SubPlanHash *init_hash(SubPlan *sub, EState *estate);

SubPlanState *
tdb_exec_init_subplan(SubPlan *sub, EState *estate)
{
    SubPlanState *ss = tdb_palloc0(sizeof(SubPlanState));
    Plan *plan;

    if (sub->plan_id < 1 || sub->plan_id > list_length(estate->subplans))
        elog(ERROR, "subplan %d does not exist", sub->plan_id);
    plan = list_nth(estate->subplans, sub->plan_id - 1);
    ss->sub = sub;
    ss->planstate = tdb_exec_init_node(plan, estate);
    /* ended with the statement (a subplan stopped early holds pins) */
    estate->subplan_states = tdb_lappend(estate->subplan_states,
                                         ss->planstate);
    if (sub->use_hash)
        ss->hash = init_hash(sub, estate);
    else
        ss->testexpr = tdb_exec_init_expr(sub->testexpr, estate);
    for (int i = 0; i < list_length(sub->args); i++)
        ss->arg_states = tdb_lappend(
            ss->arg_states, tdb_exec_init_expr(list_nth(sub->args, i), estate));
    return ss;
}

/* Point the subquery's output Params at the row's columns. */
static void
set_output_params(SubPlanState *ss, EState *estate, TupleTableSlot *row)
{
    for (int i = 0; i < list_length(ss->sub->param_ids); i++) {
        ParamExecData *p = &estate->params[list_nth_int(ss->sub->param_ids, i)];

        p->value = tdb_slot_getattr(row, i + 1, &p->isnull);
    }
}

/* Start (or restart) the subquery with the current correlation values. */
static void
start_subquery(SubPlanState *ss, ExprContext *econtext)
{
    EState *estate = econtext->estate;

    for (int i = 0; i < list_length(ss->sub->par_param); i++) {
        ParamExecData *p = &estate->params[list_nth_int(ss->sub->par_param, i)];

        p->value = tdb_exec_eval_expr(list_nth(ss->arg_states, i), econtext,
                                      &p->isnull);
    }
    if (ss->started)
        tdb_exec_rescan(ss->planstate);
    ss->started = true;
}

/* A copy of value (of type typid) in the current memory context. */
static Datum
copy_value(Datum value, Oid typid)
{
    const TypeInfo *t = tdb_type_lookup(typid);
    Size size;
    void *copy;

    if (t == NULL || t->byval)
        return value;
    size = t->len > 0    ? (Size)t->len
           : t->len == -1 ? VARSIZE_ANY(DatumGetPointer(value))
                          : strlen(DatumGetPointer(value)) + 1;
    copy = tdb_palloc(size);
    memcpy(copy, DatumGetPointer(value), size);
    return PointerGetDatum(copy);
}

static Datum
run_scalar(SubPlanState *ss, MemoryContext caller, bool *isnull)
{
    TupleTableSlot *row = tdb_exec_proc_node(ss->planstate);
    Datum value;
    MemoryContext old;

    if (row == NULL) {
        *isnull = true;
        return (Datum)0;
    }
    value = tdb_slot_getattr(row, 1, isnull);
    /* the row goes away with the next call: keep a copy in the caller's
     * per-row memory */
    if (!*isnull) {
        old = tdb_mcxt_switch_to(caller);
        value = copy_value(value, exprType(&ss->sub->xpr));
        tdb_mcxt_switch_to(old);
    }
    if (tdb_exec_proc_node(ss->planstate) != NULL)
        ereport(ERROR, errcode(ERRCODE_CARDINALITY_VIOLATION),
                errmsg("more than one row returned by a subquery used as "
                       "an expression"));
    return value;
}

/* ARRAY(subquery): every row's column, in the caller's memory */
static Datum
run_array(SubPlanState *ss, MemoryContext caller)
{
    TargetEntry *first = linitial(ss->planstate->plan->targetlist);
    Oid elemtype = exprType(first->expr);
    Datum *values;
    int n = 0, max = 16;
    TupleTableSlot *row;
    Datum result;
    MemoryContext old = tdb_mcxt_switch_to(caller);

    values = tdb_palloc(sizeof(Datum) * (Size)max);
    tdb_mcxt_switch_to(old);
    while ((row = tdb_exec_proc_node(ss->planstate)) != NULL) {
        bool isnull;
        Datum v = tdb_slot_getattr(row, 1, &isnull);

        if (isnull)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("arrays with NULL elements are not supported "
                           "yet"));
        old = tdb_mcxt_switch_to(caller);
        if (n == max) {
            max *= 2;
            values = tdb_repalloc(values, sizeof(Datum) * (Size)max);
        }
        /* array elements are never toasted */
        values[n++] = copy_value(tdb_type_detoast(elemtype, v), elemtype);
        tdb_mcxt_switch_to(old);
    }
    old = tdb_mcxt_switch_to(caller);
    result = tdb_array_construct(elemtype, values, n, 1);
    tdb_mcxt_switch_to(old);
    return result;
}

static Datum
run_any_all(SubPlanState *ss, ExprContext *econtext, bool *isnull)
{
    bool is_any = ss->sub->sublink_type == ANY_SUBLINK;
    bool any_null = false;
    TupleTableSlot *row;

    while ((row = tdb_exec_proc_node(ss->planstate)) != NULL) {
        bool rnull;
        Datum r;

        set_output_params(ss, econtext->estate, row);
        r = tdb_exec_eval_expr(ss->testexpr, econtext, &rnull);
        if (rnull)
            any_null = true;
        else if (DatumGetBool(r) == is_any) {
            *isnull = false;
            return BoolGetDatum(is_any);
        }
    }
    *isnull = any_null;
    return BoolGetDatum(!is_any);
}

/*
 * Run the subquery.  Called from expression evaluation, i.e. in some
 * node's per-row memory; the subquery's nodes allocate what they keep
 * across rows (scan state, ...) in whatever is current when they run, so
 * they run in the statement's memory instead.
 */
/* ----------------------------------------------------------------------
 * Hashed ANY
 * ---------------------------------------------------------------------- */

/*
 * The exact widenings behind the cross-type equalities that hash: a value
 * of `from` is equal (by the cross-type operator) to a value of `to` iff
 * its widened value is equal to it by `to`'s own "=".  (Implicit casts in
 * general are not enough: text -> name is implicit and truncates.)
 */
static const struct {
    Oid from;
    Oid to;
} exact_widenings[] = {
    {INT2OID, INT4OID},     {INT2OID, INT8OID}, {INT4OID, INT8OID},
    {FLOAT4OID, FLOAT8OID}, {NAMEOID, TEXTOID},
};

static bool
widens_exactly(Oid from, Oid to)
{
    for (size_t i = 0; i < lengthof(exact_widenings); i++)
        if (exact_widenings[i].from == from && exact_widenings[i].to == to)
            return true;
    return false;
}

/*
 * How to hash the comparison `left op right`: the key type, and the cast
 * function that widens each side to it (NULL: already of the key type).
 * false if the executor cannot hash it.
 */
static bool
hash_key_type(const OperDesc *op, Oid *key_type, PGFunction *lhs_cast,
              PGFunction *rhs_cast)
{
    const CastDesc *cast = NULL;
    const TypeInfo *type;
    const TypeSupport *support;

    *lhs_cast = *rhs_cast = NULL;
    if (op->left == op->right)
        *key_type = op->left;
    else if (widens_exactly(op->left, op->right)) {
        *key_type = op->right;
        cast = tdb_cast_lookup(op->left, op->right);
        if (cast == NULL || cast->method != CAST_METHOD_FUNCTION)
            return false;
        *lhs_cast = cast->fn;
    } else if (widens_exactly(op->right, op->left)) {
        *key_type = op->left;
        cast = tdb_cast_lookup(op->right, op->left);
        if (cast == NULL || cast->method != CAST_METHOD_FUNCTION)
            return false;
        *rhs_cast = cast->fn;
    } else
        return false;
    type = tdb_type_lookup(*key_type);
    support = tdb_type_support(*key_type);
    return type != NULL && (type->len > 0 || type->len == -1) &&
           support != NULL && support->hash != NULL &&
           tdb_oper_lookup("=", *key_type, *key_type) != NULL;
}

bool
tdb_exec_subplan_op_hashable(const OperDesc *op)
{
    Oid key_type;
    PGFunction lhs_cast, rhs_cast;

    return op->is_equality && op->strict &&
           hash_key_type(op, &key_type, &lhs_cast, &rhs_cast);
}

/* TupleHashEqualFn for key types compared by their "=". */
static bool
hash_column_equal(Datum a, Datum b, void *arg)
{
    return DatumGetBool(tdb_direct_call2(((HashColumn *)arg)->eq, a, b));
}

static SubPlanHash *
init_hash(SubPlan *sub, EState *estate)
{
    SubPlanHash *h = tdb_palloc0(sizeof(SubPlanHash));
    Expr *test = sub->testexpr;
    List *ops =
        IsA(test, BoolExpr) ? ((BoolExpr *)test)->args : tdb_list_make1(test);
    TupleHashKeyColumn *keys;
    Plan *plan = list_nth(estate->subplans, sub->plan_id - 1);
    double hash_mem =
        (double)estate->work_mem * 1024.0 * estate->hash_mem_multiplier;
    Size hint;

    h->ncols = list_length(ops);
    h->cols = tdb_palloc0(sizeof(HashColumn) * (Size)h->ncols);
    keys = tdb_palloc0(sizeof(TupleHashKeyColumn) * (Size)h->ncols);
    for (int c = 0; c < h->ncols; c++) {
        OpExpr *op = list_nth(ops, c);
        HashColumn *col = &h->cols[c];
        const TypeInfo *type;
        Oid key_type;

        if (!IsA(op, OpExpr) || list_length(op->args) != 2 ||
            !hash_key_type(op->op, &key_type, &col->lhs_cast, &col->rhs_cast))
            elog(ERROR, "hashed subplan with a comparison it cannot hash");
        type = tdb_type_lookup(key_type);
        col->lhs = tdb_exec_init_expr(linitial(op->args), estate);
        col->rhs = tdb_exec_init_expr(list_nth(op->args, 1), estate);
        col->hash = tdb_type_support(key_type)->hash;
        col->eq = tdb_oper_lookup("=", key_type, key_type)->fn;
        keys[c].typlen = type->len;
        keys[c].typbyval = type->byval;
        keys[c].typalign = (uint8)(type->align == 'd'   ? 8
                                   : type->align == 'i' ? 4
                                   : type->align == 's' ? 2
                                                        : 1);
        if (!tdb_hashgroup_type_is_bytewise(key_type)) {
            keys[c].equal = hash_column_equal;
            keys[c].equal_arg = col;
        }
        keys[c].not_null = true;
    }
    /* the planner's row estimate, but no more groups than hash memory
     * could hold (PostgreSQL caps its bucket count the same way) */
    hint = (Size)Max(1.0, Min(plan->plan_rows, hash_mem / 32.0));
    h->rows = tdb_tuplehash_create(keys, h->ncols, 0, hint, estate->query_mcxt);
    for (int c = 0; c < h->ncols; c++)
        keys[c].not_null = false;
    /* one column: NULL is the only row with a NULL */
    h->null_rows = tdb_tuplehash_create(
        keys, h->ncols, 0, h->ncols == 1 ? 1 : hint / 16, estate->query_mcxt);
    h->inner = tdb_palloc0(sizeof(ExprContext));
    h->inner->per_query_mcxt = estate->query_mcxt;
    h->inner->per_row_mcxt = tdb_aset_create(
        estate->query_mcxt, "SubPlan hash row", ALLOCSET_DEFAULT_SIZES);
    h->inner->estate = estate;
    h->values = tdb_palloc(sizeof(Datum) * (Size)h->ncols);
    h->isnull = tdb_palloc(sizeof(bool) * (Size)h->ncols);
    h->stored = tdb_palloc(sizeof(Datum) * (Size)h->ncols);
    h->stored_isnull = tdb_palloc(sizeof(bool) * (Size)h->ncols);
    return h;
}

/*
 * Evaluate one side of every comparison over econtext into h->values /
 * h->isnull, widened to the key types, allocating in econtext's per-row
 * memory.  Returns the number of NULLs; *hash receives the key's hash
 * (PostgreSQL's combination: rotate, xor each non-NULL column's hash,
 * then murmurhash3's finalizer).
 */
static int
eval_key(SubPlanHash *h, bool lhs, ExprContext *econtext, uint32 *hash)
{
    MemoryContext old = tdb_mcxt_switch_to(econtext->per_row_mcxt);
    uint32 k = 0;
    int nnull = 0;

    for (int c = 0; c < h->ncols; c++) {
        HashColumn *col = &h->cols[c];
        PGFunction cast = lhs ? col->lhs_cast : col->rhs_cast;
        Datum v = tdb_exec_eval_expr(lhs ? col->lhs : col->rhs, econtext,
                                     &h->isnull[c]);

        k = (k << 1) | (k >> 31);
        if (h->isnull[c]) {
            nnull++;
            continue;
        }
        if (cast != NULL)
            v = tdb_direct_call1(cast, v);
        h->values[c] = v;
        k ^= DatumGetUInt32(tdb_direct_call1(col->hash, v));
    }
    tdb_mcxt_switch_to(old);
    *hash = tdb_murmurhash32(k);
    return nnull;
}

/*
 * Run the subquery and fill the tables.  Called in the statement's
 * memory (the subquery's nodes keep their state there).
 */
static void
build_hash(SubPlanState *ss, ExprContext *econtext)
{
    SubPlanHash *h = ss->hash;
    EState *estate = econtext->estate;
    TupleTableSlot *row;

    start_subquery(ss, econtext);
    while ((row = tdb_exec_proc_node(ss->planstate)) != NULL) {
        uint32 hash;
        bool is_new;
        int nnull;

        tdb_exec_reset_row(h->inner);
        set_output_params(ss, estate, row);
        nnull = eval_key(h, false, h->inner, &hash);
        if (nnull == 0) {
            (void)tdb_tuplehash_lookup_or_insert(h->rows, h->values, NULL, hash,
                                                 &is_new);
            h->have_rows = true;
        } else {
            (void)tdb_tuplehash_lookup_or_insert(h->null_rows, h->values,
                                                 h->isnull, hash, &is_new);
            h->have_null_rows = true;
        }
    }
    tdb_exec_reset_row(h->inner);
    h->built = true;
}

/*
 * Is some row of table not provably different from the key in h->values
 * / h->isnull: equal in every column where both are non-NULL?  The key
 * type's "=" runs in the current memory context.
 */
static bool
partial_match(SubPlanHash *h, TupleHashTable *table, EState *estate)
{
    TupleHashIterator it;
    void *group;
    uint64 n = 0;

    tdb_tuplehash_iter_start(table, &it);
    while ((group = tdb_tuplehash_iter_next(table, &it)) != NULL) {
        bool unequal = false;

        if ((++n & 1023) == 0)
            tdb_exec_check_interrupts(estate);
        tdb_tuplehash_group_key(table, group, h->stored, h->stored_isnull);
        for (int c = 0; c < h->ncols && !unequal; c++)
            if (!h->isnull[c] && !h->stored_isnull[c] &&
                !DatumGetBool(tdb_direct_call2(h->cols[c].eq, h->values[c],
                                               h->stored[c])))
                unequal = true;
        if (!unequal)
            return true;
    }
    return false;
}

/*
 * x IN (subquery) by the tables (the header has the rules).  Runs in the
 * statement's memory; evaluates x in econtext's per-row memory.
 */
static Datum
run_hashed(SubPlanState *ss, ExprContext *econtext, bool *isnull)
{
    SubPlanHash *h = ss->hash;
    EState *estate = econtext->estate;
    MemoryContext old;
    uint32 hash;
    int nnull;
    bool partial;

    if (!h->built)
        build_hash(ss, econtext);
    *isnull = false;
    if (!h->have_rows && !h->have_null_rows)
        return BoolGetDatum(false);
    nnull = eval_key(h, true, econtext, &hash);
    if (nnull == h->ncols) {
        /* all NULL: no row can be provably different */
        *isnull = true;
        return BoolGetDatum(false);
    }
    if (nnull == 0 && h->have_rows &&
        tdb_tuplehash_lookup(h->rows, h->values, NULL, hash) != NULL)
        return BoolGetDatum(true);
    old = tdb_mcxt_switch_to(econtext->per_row_mcxt);
    partial = (h->have_null_rows && partial_match(h, h->null_rows, estate)) ||
              (nnull > 0 && h->have_rows && partial_match(h, h->rows, estate));
    tdb_mcxt_switch_to(old);
    *isnull = partial;
    return BoolGetDatum(false);
}

/* ---------------------------------------------------------------------- */

Datum
tdb_exec_subplan(SubPlanState *ss, ExprContext *econtext, bool *isnull)
{
    MemoryContext caller = tdb_current_mcxt;
    MemoryContext old;
    Datum result = (Datum)0;

    /* a subquery's expressions may hold subqueries: this recurses as
     * deep as they nest (the check costs nothing next to a subquery) */
    tdb_check_stack_depth();
    old = tdb_mcxt_switch_to(econtext->estate->query_mcxt);
    if (ss->hash != NULL) {
        result = run_hashed(ss, econtext, isnull);
        tdb_mcxt_switch_to(old);
        return result;
    }
    start_subquery(ss, econtext);
    *isnull = false;
    switch (ss->sub->sublink_type) {
    case EXISTS_SUBLINK:
        result = BoolGetDatum(tdb_exec_proc_node(ss->planstate) != NULL);
        break;
    case EXPR_SUBLINK:
        result = run_scalar(ss, caller, isnull);
        break;
    case ARRAY_SUBLINK:
        result = run_array(ss, caller);
        break;
    case ANY_SUBLINK:
    case ALL_SUBLINK:
        result = run_any_all(ss, econtext, isnull);
        break;
    case CTE_SUBLINK:
        elog(ERROR, "a WITH query's plan is run by its CTE scans");
    }
    tdb_mcxt_switch_to(old);
    return result;
}

void
tdb_exec_eval_param(ExprContext *econtext, int paramid, Datum *value,
                    bool *isnull)
{
    EState *estate = econtext->estate;
    ParamExecData *p;

    if (paramid < 0 || paramid >= estate->nparams)
        elog(ERROR, "parameter %d does not exist", paramid);
    p = &estate->params[paramid];
    if (p->pending != NULL) {
        /* an initplan: run it now, once */
        SubPlanState *ss = p->pending;
        MemoryContext old = tdb_mcxt_switch_to(estate->query_mcxt);
        bool rnull;
        Datum r;

        p->pending = NULL;
        r = tdb_exec_subplan(ss, econtext, &rnull);
        if (!rnull && !tdb_type_lookup(exprType(&ss->sub->xpr))->byval) {
            /* keep the value beyond the row that first asked for it */
            const TypeInfo *t = tdb_type_lookup(exprType(&ss->sub->xpr));
            Size size = t->len > 0 ? (Size)t->len
                                   : VARSIZE_ANY(DatumGetPointer(r));
            void *copy = tdb_palloc(size);

            memcpy(copy, DatumGetPointer(r), size);
            r = PointerGetDatum(copy);
        }
        tdb_mcxt_switch_to(old);
        p->value = r;
        p->isnull = rnull;
    }
    *value = p->value;
    *isnull = p->isnull;
}

PlanState *
tdb_exec_subplan_planstate(EState *estate, int plan_id)
{
    Plan *plan;

    if (plan_id < 1 || plan_id > list_length(estate->subplans))
        return NULL;
    plan = list_nth(estate->subplans, plan_id - 1);
    for (int i = 0; i < list_length(estate->subplan_states); i++) {
        PlanState *ps = list_nth(estate->subplan_states, i);

        if (ps->plan == plan)
            return ps;
    }
    return NULL;
}
