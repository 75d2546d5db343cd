/*
 * exec_hashjoin.c -- HashJoin and its Hash child: build a hash table of
 * the inner rows on the join keys, then probe it with each outer row.
 *
 * The table holds the inner rows as minimal tuples (copied into the
 * node's "HashTableContext") in a chained hash table sized from the
 * planner's row estimate and grown by doubling.  A probe walks the chain
 * of the outer key's hash, compares the full hash first, then the keys
 * with the join's equality operators, then the remaining join qual.
 * Rows with a NULL key never match (they are still emitted by the outer
 * side of LEFT/FULL and, through their `matched` flag, the inner side of
 * RIGHT/FULL).  Everything stays in memory (no batching yet).
 *
 * Join types: INNER, LEFT, RIGHT, FULL, SEMI, ANTI.
 */
#include "common/base.h"

#include <string.h>

#include "common/elog.h"
#include "executor/exec_int.h"

typedef struct HashEntry {
    uint32 hash;
    bool matched;
    int32 next; /* index of the next entry in the chain, -1 at the end */
    MinimalTuple tuple;
} HashEntry;

typedef struct HashJoinState {
    PlanState ps;
    JoinType jointype;
    ExprState *joinqual;
    List *outer_keys; /* ExprState over the outer row (OUTER_VAR) */
    List *inner_keys; /* ExprState over the inner row (INNER_VAR) */
    const OperDesc **eq_ops;
    const TypeSupport **key_support;       /* of the outer keys' types */
    const TypeSupport **inner_key_support; /* of the inner keys' types: a
                                            * cross-type "=" (float4 =
                                            * float8) hashes each side with
                                            * its own type's function */
    int nkeys;

    MemoryContext table_mcxt;
    HashEntry *entries;
    int32 nentries, entries_size;
    int32 *buckets; /* heads, -1 = empty */
    uint32 nbuckets;  /* a power of two */
    bool built;

    TupleTableSlot *inner_slot; /* minimal slot over stored rows */
    TupleTableSlot *null_outer;
    TupleTableSlot *null_inner;

    /* probe state */
    TupleTableSlot *outer;
    bool need_new_outer;
    bool outer_matched;
    bool outer_has_null_key;
    uint32 outer_hash;
    Datum *outer_key_values;
    Datum *inner_key_values; /* scratch for comparing a candidate */
    int32 chain; /* next entry to look at, -1: chain done */
    int32 unmatched_scan; /* RIGHT/FULL tail: next entry to check */
} HashJoinState;

/* ----------------------------------------------------------------------
 * Keys and hashing
 * ---------------------------------------------------------------------- */

static uint32
combine_hash(uint32 a, uint32 b)
{
    return a ^ (b + 0x9e3779b9U + (a << 6) + (a >> 2));
}

/*
 * Evaluate keys over econtext into values; hash them.  false if a key
 * is NULL (the row matches nothing).
 */
static bool
eval_keys(HashJoinState *hj, List *keys, const TypeSupport **support,
          ExprContext *econtext, Datum *values, uint32 *hash)
{
    uint32 h = 0;

    for (int i = 0; i < hj->nkeys; i++) {
        FunctionCallInfoData fcinfo = {0};
        bool isnull;

        values[i] = tdb_exec_eval_expr(list_nth(keys, i), econtext, &isnull);
        if (isnull)
            return false;
        fcinfo.nargs = 1;
        fcinfo.args[0].value = values[i];
        h = combine_hash(h, DatumGetUInt32(support[i]->hash(&fcinfo)));
    }
    *hash = h;
    return true;
}

static bool
keys_equal(HashJoinState *hj, const Datum *outer_values,
           const Datum *inner_values)
{
    for (int i = 0; i < hj->nkeys; i++) {
        FunctionCallInfoData fcinfo = {0};
        Datum eq;

        fcinfo.nargs = 2;
        fcinfo.args[0].value = outer_values[i];
        fcinfo.args[1].value = inner_values[i];
        eq = hj->eq_ops[i]->fn(&fcinfo);
        if (fcinfo.isnull || !DatumGetBool(eq))
            return false;
    }
    return true;
}

/* ----------------------------------------------------------------------
 * Building
 * ---------------------------------------------------------------------- */

static void
grow_buckets(HashJoinState *hj)
{
    uint32 nbuckets = hj->nbuckets * 2;
    int32 *buckets =
        tdb_mcxt_alloc(hj->table_mcxt, sizeof(int32) * (Size)nbuckets);

    memset(buckets, 0xff, sizeof(int32) * (Size)nbuckets);
    for (int32 i = 0; i < hj->nentries; i++) {
        uint32 b = hj->entries[i].hash & (nbuckets - 1);

        hj->entries[i].next = buckets[b];
        buckets[b] = i;
    }
    tdb_pfree(hj->buckets);
    hj->buckets = buckets;
    hj->nbuckets = nbuckets;
}

static void
add_entry(HashJoinState *hj, TupleTableSlot *row, uint32 hash, bool chained)
{
    HashEntry *e;
    MemoryContext old;

    if (hj->nentries == hj->entries_size) {
        hj->entries_size *= 2;
        hj->entries = tdb_repalloc(hj->entries,
                                   sizeof(HashEntry) * (Size)hj->entries_size);
    }
    e = &hj->entries[hj->nentries];
    old = tdb_mcxt_switch_to(hj->table_mcxt);
    e->tuple = tdb_slot_copy_minimal_tuple(row, 0);
    tdb_mcxt_switch_to(old);
    e->hash = hash;
    e->matched = false;
    e->next = -1;
    if (chained) {
        uint32 b = hash & (hj->nbuckets - 1);

        e->next = hj->buckets[b];
        hj->buckets[b] = hj->nentries;
    }
    hj->nentries++;
    if ((uint32)hj->nentries > hj->nbuckets)
        grow_buckets(hj);
}

static void
build_table(HashJoinState *hj)
{
    PlanState *hash_node = hj->ps.righttree;
    ExprContext *econtext = hj->ps.econtext;
    Datum *values = tdb_palloc(sizeof(Datum) * (Size)Max(1, hj->nkeys));
    bool keep_null_keys =
        hj->jointype == JOIN_RIGHT || hj->jointype == JOIN_FULL;

    for (;;) {
        TupleTableSlot *row = tdb_exec_proc_node(hash_node);
        uint32 hash;
        bool has_key;

        if (row == NULL)
            break;
        tdb_exec_check_interrupts(hj->ps.estate);
        econtext->inner_slot = row;
        tdb_exec_reset_row(econtext);
        has_key = eval_keys(hj, hj->inner_keys, hj->inner_key_support, econtext, values, &hash);
        if (has_key || keep_null_keys)
            add_entry(hj, row, has_key ? hash : 0, has_key);
    }
    hj->built = true;
}

/* ----------------------------------------------------------------------
 * Probing
 * ---------------------------------------------------------------------- */

static TupleTableSlot *
emit(HashJoinState *hj)
{
    if (tdb_exec_qual(hj->ps.qual, hj->ps.econtext))
        return tdb_exec_project(hj->ps.projection, hj->ps.econtext);
    return NULL;
}

/* Load entry i into the inner slot and set it as the inner row. */
static void
load_entry(HashJoinState *hj, int32 i)
{
    tdb_slot_store_minimal_tuple(hj->inner_slot, hj->entries[i].tuple,
                                 false);
    hj->ps.econtext->inner_slot = hj->inner_slot;
}

/* The next outer row; false at the end of the outer input. */
static bool
next_outer(HashJoinState *hj)
{
    ExprContext *econtext = hj->ps.econtext;
    TupleTableSlot *outer = tdb_exec_proc_node(hj->ps.lefttree);

    if (outer == NULL)
        return false;
    econtext->outer_slot = outer;
    tdb_exec_reset_row(econtext);
    hj->outer_has_null_key =
        !eval_keys(hj, hj->outer_keys, hj->key_support, econtext, hj->outer_key_values,
                   &hj->outer_hash);
    hj->outer_matched = false;
    hj->chain = hj->outer_has_null_key
                    ? -1
                    : hj->buckets[hj->outer_hash & (hj->nbuckets - 1)];
    return true;
}

/* The next inner entry of the chain matching the current outer row. */
static bool
next_match(HashJoinState *hj)
{
    ExprContext *econtext = hj->ps.econtext;
    Datum *inner_values = hj->inner_key_values;

    while (hj->chain >= 0) {
        int32 i = hj->chain;
        uint32 hash;

        hj->chain = hj->entries[i].next;
        if (hj->entries[i].hash != hj->outer_hash)
            continue;
        load_entry(hj, i);
        /* no per-row reset here: the outer key values computed for this
         * outer row live in that memory until the next outer row */
        (void)eval_keys(hj, hj->inner_keys, hj->inner_key_support, econtext, inner_values, &hash);
        if (!keys_equal(hj, hj->outer_key_values, inner_values) ||
            !tdb_exec_join_filter(&hj->ps, hj->joinqual))
            continue;
        hj->entries[i].matched = true;
        return true;
    }
    return false;
}

/* RIGHT/FULL: inner rows that never matched, joined to NULLs. */
static TupleTableSlot *
emit_unmatched_inner(HashJoinState *hj)
{
    while (hj->unmatched_scan < hj->nentries) {
        int32 i = hj->unmatched_scan++;
        TupleTableSlot *out;

        if (hj->entries[i].matched)
            continue;
        load_entry(hj, i);
        hj->ps.econtext->outer_slot = hj->null_outer;
        tdb_exec_reset_row(hj->ps.econtext);
        if ((out = emit(hj)) != NULL)
            return out;
    }
    return NULL;
}

static TupleTableSlot *
exec_hashjoin(PlanState *node)
{
    HashJoinState *hj = (HashJoinState *)node;
    JoinType jt = hj->jointype;

    if (!hj->built)
        build_table(hj);
    for (;;) {
        TupleTableSlot *out;

        tdb_exec_check_interrupts(node->estate);
        if (hj->need_new_outer) {
            if (!next_outer(hj)) {
                if (jt == JOIN_RIGHT || jt == JOIN_FULL)
                    return emit_unmatched_inner(hj);
                return NULL;
            }
            hj->need_new_outer = false;
        }
        if (next_match(hj)) {
            hj->outer_matched = true;
            if (jt == JOIN_ANTI) {
                hj->need_new_outer = true;
                continue;
            }
            if (jt == JOIN_SEMI)
                hj->need_new_outer = true;
            if ((out = emit(hj)) != NULL)
                return out;
            continue;
        }
        hj->need_new_outer = true;
        if (!hj->outer_matched &&
            (jt == JOIN_LEFT || jt == JOIN_FULL || jt == JOIN_ANTI)) {
            node->econtext->inner_slot = hj->null_inner;
            if ((out = emit(hj)) != NULL)
                return out;
        }
    }
}

static void
reset_table(HashJoinState *hj)
{
    tdb_mcxt_reset(hj->table_mcxt);
    hj->nbuckets = 1024;
    hj->buckets = tdb_mcxt_alloc(hj->table_mcxt, sizeof(int32) * 1024);
    memset(hj->buckets, 0xff, sizeof(int32) * 1024);
    hj->entries_size = 1024;
    hj->entries = tdb_mcxt_alloc(hj->table_mcxt, sizeof(HashEntry) * 1024);
    hj->nentries = 0;
    hj->built = false;
}

static void
rescan_hashjoin(PlanState *node)
{
    HashJoinState *hj = (HashJoinState *)node;

    /* the inner input does not change between rescans unless it has
     * parameters; rebuild to be safe */
    reset_table(hj);
    hj->need_new_outer = true;
    hj->unmatched_scan = 0;
    tdb_exec_rescan(node->lefttree);
    tdb_exec_rescan(node->righttree);
}

/* ----------------------------------------------------------------------
 * The Hash node: passes its child's rows up (and shows in EXPLAIN)
 * ---------------------------------------------------------------------- */

static TupleTableSlot *
exec_hash(PlanState *node)
{
    return tdb_exec_proc_node(node->lefttree);
}

/* The Hash node's state: a pass-through with a way back to its join. */
typedef struct HashState {
    PlanState ps;
    HashJoinState *join;
} HashState;

void
tdb_exec_hash_stats(PlanState *hash, int64 *nbuckets, int64 *bytes)
{
    HashJoinState *hj = ((HashState *)hash)->join;

    *nbuckets = hj->nbuckets;
    *bytes = (int64)tdb_mcxt_mem_allocated(hj->table_mcxt, true);
}

static PlanState *
init_hash(Hash *plan, EState *estate)
{
    HashState *hs = tdb_palloc0(sizeof(HashState));
    PlanState *ps = &hs->ps;

    ps->tag = T_PlanState;
    tdb_exec_init_common(ps, &plan->plan, estate, sizeof(PlanState));
    ps->lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    ps->exec = exec_hash;
    if (estate->instrument)
        ps->instr = tdb_palloc0(sizeof(Instrumentation));
    return ps;
}

static List *
init_exprs(List *exprs, EState *estate)
{
    List *states = NIL;

    for (int i = 0; i < list_length(exprs); i++)
        states = tdb_lappend(states,
                             tdb_exec_init_expr(list_nth(exprs, i), estate));
    return states;
}

PlanState *
tdb_exec_init_hashjoin(HashJoin *plan, EState *estate)
{
    HashJoinState *hj = tdb_palloc0(sizeof(HashJoinState));

    hj->ps.tag = T_PlanState;
    tdb_exec_init_common(&hj->ps, &plan->plan, estate, sizeof(HashJoinState));
    if (!IsA(plan->plan.righttree, Hash))
        elog(ERROR, "the inner input of a hash join must be a Hash node");
    hj->ps.lefttree = tdb_exec_init_node(plan->plan.lefttree, estate);
    hj->ps.righttree = init_hash((Hash *)plan->plan.righttree, estate);
    ((HashState *)hj->ps.righttree)->join = hj;
    hj->jointype = plan->jointype;
    hj->joinqual = tdb_exec_init_qual(plan->joinqual, estate);
    hj->outer_keys = init_exprs(plan->outer_keys, estate);
    hj->inner_keys = init_exprs(plan->inner_keys, estate);
    hj->nkeys = list_length(plan->hashclauses);
    hj->eq_ops = tdb_palloc(sizeof(OperDesc *) * (Size)Max(1, hj->nkeys));
    hj->key_support =
        tdb_palloc(sizeof(TypeSupport *) * (Size)Max(1, hj->nkeys));
    hj->inner_key_support =
        tdb_palloc(sizeof(TypeSupport *) * (Size)Max(1, hj->nkeys));
    for (int i = 0; i < hj->nkeys; i++) {
        OpExpr *clause = list_nth(plan->hashclauses, i);

        hj->eq_ops[i] = clause->op;
        hj->key_support[i] =
            tdb_type_support(exprType(list_nth(plan->outer_keys, i)));
        hj->inner_key_support[i] =
            tdb_type_support(exprType(list_nth(plan->inner_keys, i)));
        if (hj->key_support[i] == NULL || hj->key_support[i]->hash == NULL ||
            hj->inner_key_support[i] == NULL ||
            hj->inner_key_support[i]->hash == NULL)
            elog(ERROR, "no hash function for a join key");
    }
    hj->outer_key_values =
        tdb_palloc(sizeof(Datum) * (Size)Max(1, hj->nkeys));
    hj->inner_key_values =
        tdb_palloc(sizeof(Datum) * (Size)Max(1, hj->nkeys));
    hj->table_mcxt = tdb_aset_create(estate->query_mcxt, "HashTableContext",
                                     ALLOCSET_DEFAULT_SIZES);
    reset_table(hj);
    hj->inner_slot = tdb_slot_create(hj->ps.righttree->result_desc,
                                     &tdb_tts_ops_minimal);
    hj->null_outer = tdb_exec_null_slot(hj->ps.lefttree);
    hj->null_inner = tdb_exec_null_slot(hj->ps.righttree);
    hj->need_new_outer = true;
    hj->ps.exec = exec_hashjoin;
    hj->ps.rescan = rescan_hashjoin;
    tdb_exec_assign_projection(&hj->ps);
    return &hj->ps;
}
