/*
 * exec_indexscan.c -- Index Scan and Index Only Scan (plannodes.h,
 * IndexScan): a table read through one of its B-tree indexes
 * (access/nbtree.h), PostgreSQL's nodeIndexscan.c and
 * nodeIndexonlyscan.c in one node.
 *
 *   start / rescan   compute the keys: each key's value evaluated once
 *        |           (constants, parameters), fitted to the column's type
 *        |           (an int8 bound on an int4 column); an IN list
 *        |           becomes its sorted distinct non-null items.  A key
 *        v           no row can satisfy (a NULL value) ends the scan.
 *   B-tree scan      one per combination of IN-list items, in index order
 *        |           (the last list varies fastest), each a
 *        |           tdb_bt_beginscan / rescan with that item as "="
 *        v
 *   heap TID  --> Index Scan: tdb_heap_fetch under the statement's
 *                 snapshot (every row version has its own entry: no HOT
 *                 chains to follow), then the qual and the projection;
 *                 Index Only Scan: the entry's key columns into a
 *                 table-shaped virtual slot, after a heap visit only when
 *                 the visibility map does not call the page all-visible
 *                 (counted for EXPLAIN ANALYZE's "Heap Fetches").
 *
 * The visibility map bit is read without a lock (visibilitymap.h): a set
 * bit means every row on the page was visible to every transaction when
 * VACUUM set it, and any change to the page clears it before the change
 * can be seen, so a row an entry leads to on such a page is visible to
 * this statement's snapshot unless its deletion cleared the bit first --
 * which happens before the deleting transaction can commit, hence before
 * a snapshot that could miss the row existed or while it still counts
 * the deleter as running, when the row is still visible to it.
 */
#include "common/base.h"

#include <string.h>

#include "access/heapam.h"
#include "access/nbtree.h"
#include "access/visibilitymap.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/exec_int.h"
#include "executor/execindex.h"
#include "toast/detoast.h"
#include "types/builtins.h"

/* Rows between two interrupt checks (as a SeqScan's). */
#define INDEXSCAN_INTERRUPT_ROWS 64

/* An IN-list or = ANY (array) key's sorted distinct values. */
typedef struct ArrayKey {
    int key;      /* index into IndexScan.keys / the BTScanKeyData */
    Datum *elems; /* in the order the scan visits them */
    int nelems;
    int cur;
} ArrayKey;

typedef struct IndexScanState {
    PlanState ps;
    IndexScan *plan;
    Relation rel;
    BTIndexData bt;
    BTScanDesc scan;
    BTScanDirection dir;
    TupleTableSlot *scan_slot; /* heap slot (Index Scan), or virtual
                                * table-shaped (Index Only Scan) */
    TupleTableSlot *heap_slot; /* Index Only Scan: heap visits */
    ExprState **key_args;      /* per key: its value or array, or NULL */
    ExprState ***key_items;    /* per key: its IN-list items, or NULL */
    BTScanKeyData *skeys;      /* the keys as the B-tree takes them */
    int nskeys;
    ArrayKey *arrays;
    int narrays;
    MemoryContext key_mcxt; /* the key values, reset at each start */
    bool started;
    bool empty; /* a key no row satisfies */
    bool reset_per_row;
    int *ios_attnums; /* Index Only Scan: table column of each index
                       * column (0: none) */
    Datum ios_values[INDEX_MAX_KEYS];
    bool ios_isnull[INDEX_MAX_KEYS];
    Buffer vmbuf;
    double heap_fetches;
    uint32 rows_unchecked;
} IndexScanState;

/* ----------------------------------------------------------------------
 * Keys
 * ---------------------------------------------------------------------- */

static int64
int_value(Oid type, Datum d)
{
    switch (type) {
    case INT2OID:
        return DatumGetInt16(d);
    case INT4OID:
        return DatumGetInt32(d);
    default:
        return DatumGetInt64(d);
    }
}

static Datum
int_datum(Oid type, int64 v)
{
    switch (type) {
    case INT2OID:
        return Int16GetDatum((int16)v);
    case INT4OID:
        return Int32GetDatum((int32)v);
    default:
        return Int64GetDatum(v);
    }
}

/*
 * Fit a value of integer type arg_type to the integer column type col:
 * out of the column's range, "<" / "<=" of a value above it become
 * "<= max" and ">" / ">=" of one below it ">= min"; false if no value of
 * the column satisfies the condition (PostgreSQL's cross-type integer
 * operators compare without converting; so does the result here).
 */
static bool
fit_int_key(Oid col, Oid arg_type, int *strategy, Datum *value)
{
    int64 v = int_value(arg_type, *value);
    int64 lo = col == INT2OID   ? INT16_MIN
               : col == INT4OID ? INT32_MIN
                                : INT64_MIN;
    int64 hi = col == INT2OID   ? INT16_MAX
               : col == INT4OID ? INT32_MAX
                                : INT64_MAX;

    if (v > hi) {
        if (*strategy != BT_LESS && *strategy != BT_LESS_EQUAL)
            return false;
        *strategy = BT_LESS_EQUAL;
        v = hi;
    } else if (v < lo) {
        if (*strategy != BT_GREATER && *strategy != BT_GREATER_EQUAL)
            return false;
        *strategy = BT_GREATER_EQUAL;
        v = lo;
    }
    *value = int_datum(col, v);
    return true;
}

/*
 * A key's value in the column's type, a varlena one detoasted (the
 * B-tree compares plain values; an initplan's result may be a toasted
 * column value), in the current memory context (the keys'); false if no
 * row can match.
 */
static bool
key_value(IndexScanState *is, const IndexKey *k, int *strategy, Datum *value)
{
    const TupleAttr *att = TupleDescAttr(is->bt.tupdesc, k->attno - 1);

    if (att->attlen == -1 && VARATT_IS_EXTENDED(DatumGetPointer(*value))) {
        DetoastEnv *outer =
            tdb_detoast_env_push(tdb_exec_detoast_env(is->ps.estate));

        *value = PointerGetDatum(tdb_detoast(DatumGetPointer(*value)));
        tdb_detoast_env_pop(outer);
    }
    if (k->arg_type == att->atttypid)
        return true;
    return fit_int_key(att->atttypid, k->arg_type, strategy, value);
}

/* Sort elems by the column's type order and drop duplicates (insertion
 * sort: IN lists are short); returns the count left. */
static int
sort_distinct(const BTKeyColumn *col, Datum *elems, int n)
{
    int out = 0;

    for (int i = 1; i < n; i++) {
        Datum d = elems[i];
        int j = i;

        for (; j > 0 && col->cmp(elems[j - 1], d, col->cmp_arg) > 0; j--)
            elems[j] = elems[j - 1];
        elems[j] = d;
    }
    for (int i = 0; i < n; i++)
        if (out == 0 || col->cmp(elems[out - 1], elems[i], col->cmp_arg) != 0)
            elems[out++] = elems[i];
    return out;
}

/*
 * An IN-list or = ANY (array) key's values: evaluated, fitted, sorted,
 * in visiting order (a NULL array has none).
 */
static void
compute_array(IndexScanState *is, int k, ArrayKey *ak)
{
    const IndexKey *key = &is->plan->keys[k];
    const BTKeyColumn *col = &is->bt.keys[key->attno - 1];
    int n = list_length(key->items), m = 0;
    Datum *array_elems = NULL;
    bool reverse;

    if (key->array != NULL) {
        bool isnull;
        Datum a = tdb_exec_eval_expr(is->key_args[k], is->ps.econtext, &isnull);

        n = 0;
        if (!isnull) {
            ArrayValues av = tdb_array_values(a);

            n = av.n;
            array_elems = av.values;
        }
    }
    ak->key = k;
    ak->elems = tdb_palloc(sizeof(Datum) * (Size)Max(n, 1));
    for (int i = 0; i < n; i++) {
        bool isnull = false;
        int strategy = BT_EQUAL;
        Datum d = array_elems != NULL
                      ? array_elems[i]
                      : tdb_exec_eval_expr(is->key_items[k][i], is->ps.econtext,
                                           &isnull);

        if (!isnull && key_value(is, key, &strategy, &d))
            ak->elems[m++] = d;
    }
    ak->nelems = sort_distinct(col, ak->elems, m);
    /* the index stores DESC columns in reverse; a backward scan visits
     * the index from its end */
    reverse = col->desc != (is->dir == BT_BACKWARD);
    if (reverse)
        for (int i = 0, j = ak->nelems - 1; i < j; i++, j--) {
            Datum t = ak->elems[i];

            ak->elems[i] = ak->elems[j];
            ak->elems[j] = t;
        }
    ak->cur = 0;
    if (ak->nelems == 0)
        is->empty = true;
}

/* Compute every key for a new scan (start or rescan). */
static void
compute_keys(IndexScanState *is)
{
    IndexScan *plan = is->plan;
    MemoryContext old;

    tdb_mcxt_reset(is->key_mcxt);
    old = tdb_mcxt_switch_to(is->key_mcxt);
    is->empty = false;
    is->nskeys = 0;
    is->narrays = 0;
    for (int k = 0; k < plan->nkeys && !is->empty; k++) {
        const IndexKey *key = &plan->keys[k];
        BTScanKeyData *sk = &is->skeys[is->nskeys++];

        sk->attno = key->attno;
        sk->strategy = (BTStrategy)key->strategy;
        sk->argument = (Datum)0;
        if (key->strategy == BT_IS_NULL || key->strategy == BT_IS_NOT_NULL)
            continue;
        if (key->items != NIL || key->array != NULL) {
            ArrayKey *ak = &is->arrays[is->narrays++];

            compute_array(is, k, ak);
            ak->key = is->nskeys - 1;
            if (!is->empty)
                sk->argument = ak->elems[0];
        } else {
            bool isnull;
            int strategy = key->strategy;
            Datum d =
                tdb_exec_eval_expr(is->key_args[k], is->ps.econtext, &isnull);

            if (isnull || !key_value(is, key, &strategy, &d))
                is->empty = true;
            sk->strategy = (BTStrategy)strategy;
            sk->argument = d;
        }
    }
    tdb_mcxt_switch_to(old);
}

/* The next combination of IN-list items (the last list fastest); false
 * when every combination was scanned. */
static bool
advance_arrays(IndexScanState *is)
{
    for (int i = is->narrays - 1; i >= 0; i--) {
        ArrayKey *ak = &is->arrays[i];

        if (++ak->cur < ak->nelems) {
            is->skeys[ak->key].argument = ak->elems[ak->cur];
            return true;
        }
        ak->cur = 0;
        is->skeys[ak->key].argument = ak->elems[0];
    }
    return false;
}

/* ----------------------------------------------------------------------
 * Rows
 * ---------------------------------------------------------------------- */

/* The next heap TID of the scan (over every IN-list combination). */
static bool
next_tid(IndexScanState *is, ItemPointerData *tid)
{
    if (!is->started) {
        is->started = true;
        compute_keys(is);
        if (is->empty)
            return false;
        if (is->scan == NULL) {
            is->scan =
                tdb_bt_beginscan(&is->bt, is->skeys, is->nskeys, is->dir);
            if (is->plan->index_only)
                tdb_bt_scan_keep_tuples(is->scan);
        } else
            tdb_bt_rescan(is->scan, is->skeys, is->nskeys);
    } else if (is->empty)
        return false;
    while (!tdb_bt_getnext(is->scan, tid)) {
        if (!advance_arrays(is)) {
            is->empty = true;
            return false;
        }
        tdb_bt_rescan(is->scan, is->skeys, is->nskeys);
    }
    return true;
}

/* Index Only Scan: the entry's columns into the virtual scan slot. */
static void
store_index_row(IndexScanState *is)
{
    TupleTableSlot *slot = is->scan_slot;
    int natts = slot->tts_tupleDescriptor->natts;

    tdb_bt_scan_current_values(is->scan, is->ios_values, is->ios_isnull);
    tdb_slot_clear(slot);
    for (int i = 0; i < natts; i++)
        slot->tts_isnull[i] = true;
    for (int c = 0; c < is->bt.tupdesc->natts; c++) {
        int attnum = is->ios_attnums[c];

        if (attnum > 0) {
            slot->tts_values[attnum - 1] = is->ios_values[c];
            slot->tts_isnull[attnum - 1] = is->ios_isnull[c];
        }
    }
    tdb_slot_store_virtual(slot);
}

static TupleTableSlot *
exec_indexscan(PlanState *node)
{
    IndexScanState *is = (IndexScanState *)node;
    EState *estate = node->estate;
    ItemPointerData tid;

    for (;;) {
        if (unlikely(++is->rows_unchecked >= INDEXSCAN_INTERRUPT_ROWS)) {
            is->rows_unchecked = 0;
            tdb_exec_check_interrupts(estate);
        }
        if (!next_tid(is, &tid)) {
            tdb_slot_clear(is->scan_slot);
            return NULL;
        }
        if (is->plan->index_only) {
            if (!VM_ALL_VISIBLE(is->rel, ItemPointerGetBlockNumber(&tid),
                                &is->vmbuf)) {
                is->heap_fetches += 1;
                if (!tdb_heap_fetch(is->rel, estate->snapshot, &tid,
                                    is->heap_slot))
                    continue;
                tdb_slot_clear(is->heap_slot);
            }
            store_index_row(is);
        } else if (!tdb_heap_fetch(is->rel, estate->snapshot, &tid,
                                   is->scan_slot))
            continue;
        if (is->reset_per_row)
            tdb_exec_reset_row(node->econtext);
        if (node->qual == NULL || tdb_exec_filter(node))
            return tdb_exec_project_or_pass(node, is->scan_slot);
    }
}

static void
end_indexscan(PlanState *node)
{
    IndexScanState *is = (IndexScanState *)node;

    tdb_slot_clear(is->scan_slot);
    if (is->heap_slot != NULL)
        tdb_slot_clear(is->heap_slot);
    if (is->scan != NULL)
        tdb_bt_endscan(is->scan);
    is->scan = NULL;
    if (is->vmbuf != InvalidBuffer)
        tdb_buf_release(is->vmbuf);
    is->vmbuf = InvalidBuffer;
}

/* Start over: the keys are computed again (parameters may have changed). */
static void
rescan_indexscan(PlanState *node)
{
    IndexScanState *is = (IndexScanState *)node;

    tdb_slot_clear(is->scan_slot);
    is->started = false;
}

double
tdb_exec_indexscan_heap_fetches(PlanState *node)
{
    return ((IndexScanState *)node)->heap_fetches;
}

PlanState *
tdb_exec_init_indexscan(IndexScan *plan, EState *estate)
{
    IndexScanState *is = tdb_palloc0(sizeof(IndexScanState));
    const RelationIndex *ri = NULL;

    is->ps.tag = T_PlanState;
    tdb_exec_init_common(&is->ps, &plan->plan, estate, sizeof(IndexScanState));
    is->plan = plan;
    is->rel = tdb_exec_open_relation(estate, plan->relid);
    for (int i = 0; i < is->rel->rd_nindexes; i++)
        if (is->rel->rd_indexes[i].ri_oid == plan->indexid)
            ri = &is->rel->rd_indexes[i];
    if (ri == NULL)
        elog(ERROR, "index %u of table \"%s\" not found", plan->indexid,
             is->rel->rd_name);
    tdb_exec_index_open_scan(&is->bt, is->rel, ri, plan->indexexprs);
    is->dir = plan->backward ? BT_BACKWARD : BT_FORWARD;
    is->vmbuf = InvalidBuffer;
    if (plan->index_only) {
        is->scan_slot = tdb_slot_create(is->rel->rd_att, &tdb_tts_ops_virtual);
        is->heap_slot = tdb_slot_create(is->rel->rd_att, &tdb_tts_ops_heap);
        is->ios_attnums = tdb_palloc(sizeof(int) * (Size)ri->ri_natts);
        for (int c = 0; c < ri->ri_natts; c++)
            is->ios_attnums[c] = ri->ri_attnums[c];
    } else
        is->scan_slot = tdb_slot_create(is->rel->rd_att, &tdb_tts_ops_heap);
    is->ps.econtext->scan_slot = is->scan_slot;
    is->key_mcxt = tdb_aset_create(estate->query_mcxt, "index scan keys",
                                   ALLOCSET_SMALL_SIZES);
    is->key_args = tdb_palloc0(sizeof(ExprState *) * (Size)Max(1, plan->nkeys));
    is->key_items =
        tdb_palloc0(sizeof(ExprState **) * (Size)Max(1, plan->nkeys));
    for (int k = 0; k < plan->nkeys; k++) {
        IndexKey *key = &plan->keys[k];

        if (key->arg != NULL || key->array != NULL)
            is->key_args[k] = tdb_exec_init_expr(
                key->arg != NULL ? key->arg : key->array, estate);
        if (key->items != NIL) {
            is->key_items[k] =
                tdb_palloc(sizeof(ExprState *) * (Size)list_length(key->items));
            for (int i = 0; i < list_length(key->items); i++)
                is->key_items[k][i] =
                    tdb_exec_init_expr(list_nth(key->items, i), estate);
        }
    }
    is->skeys = tdb_palloc0(sizeof(BTScanKeyData) * (Size)Max(1, plan->nkeys));
    is->arrays = tdb_palloc0(sizeof(ArrayKey) * (Size)Max(1, plan->nkeys));
    is->ps.exec = exec_indexscan;
    is->ps.end = end_indexscan;
    is->ps.rescan = rescan_indexscan;
    tdb_exec_assign_projection(&is->ps);
    is->reset_per_row = tdb_expr_may_allocate(is->ps.qual) ||
                        tdb_expr_may_allocate(is->ps.projection);
    return &is->ps;
}
