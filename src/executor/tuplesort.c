/*
 * tuplesort.c -- sorting rows under work_mem, spilling sorted runs to
 * temporary files and merging them (the contract is in tuplesort.h).
 *
 * Design
 * ------
 * A row is copied once, as a minimal tuple, into the row context: a Bump
 * context, so a row costs exactly MAXALIGN(t_len) -- no chunk header, no
 * power-of-two rounding (PostgreSQL 15 pays a Generation chunk header per
 * row; an AllocSet would round up).  The sort itself moves 16-byte
 * SortEntry items {first key as a number, tuple pointer | NULL flag}
 * (PostgreSQL's SortTuple is 24 bytes): a row costs 16 + MAXALIGN(t_len),
 * which is what decides how many rows a run holds.
 *
 * The first key is stored as its type's normalized key (sortkey.h),
 * complemented for DESC, so ordering by it is an unsigned comparison or
 * a radix sort; with an abbreviating normalizer (text, numeric) equal
 * numbers fall back to the real comparison of the values read from the
 * tuples, and then to the other keys.  A first key without a normalizer
 * keeps its Datum in the entry and is compared by the type's function.
 * Entries whose first key is NULL are partitioned to the end the key
 * puts NULLs at before sorting, so the numbers never encode NULL.
 *
 * Memory is counted, not measured: the entry array at its allocated size
 * plus each row's MAXALIGN(t_len) (or, for the bounded heap, whose rows
 * live in an AllocSet because discarded rows are freed, its chunk
 * space).  The array doubles while everything counted is at most half of
 * work_mem, then grows once more by the ratio that fills work_mem, as
 * PostgreSQL's memtuples does, and never again; a load is full when the
 * array is or when the next row does not fit.
 *
 * States:
 *   LOADING -> SORTED_MEM                 everything fitted: sorted in place
 *   LOADING -> BOUNDED -> SORTED_MEM      a bound and > 2 x bound rows
 *   LOADING -> BUILDING -> MERGING        runs spilled; the final merge
 *                                         runs while the caller reads
 *                        -> SORTED_FILE   a single run, or a merge that a
 *                                         mark turned into one file
 *
 * Runs and merging are in tuplesort_merge.c: rows are written without
 * the 6 bytes of length and padding in front of a minimal tuple's
 * header; the merge order is work_mem / 32 kB (6 to 500, as PostgreSQL's
 * bounds); the merge heap compares the first keys normalized again as
 * rows are read (PostgreSQL's merge loses its abbreviated keys).
 */
#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "common/elog.h"
#include "executor/tuplesort_int.h"
#include "toast/detoast.h"

/* ----------------------------------------------------------------------
 * Comparing
 * ---------------------------------------------------------------------- */

/* Column col of a minimal tuple. */
static inline Datum
tuple_attr(Tuplesort *ts, const void *tuple, int col, bool *isnull)
{
    HeapTupleData view;

    tdb_minimal_tuple_heap_view((MinimalTuple)tuple, &view);
    return tdb_heap_getattr(&view, col, ts->desc, isnull);
}

int
tdb_sort_compare_datums(const SortKey *key, Datum a, bool a_null, Datum b,
                        bool b_null)
{
    FunctionCallInfoData fcinfo = {0};
    int32 cmp;

    if (a_null || b_null) {
        if (a_null && b_null)
            return 0;
        /* NULL is larger than everything unless nulls_first */
        return (a_null ? 1 : -1) * (key->nulls_first ? -1 : 1);
    }
    fcinfo.nargs = 2;
    fcinfo.args[0].value = a;
    fcinfo.args[1].value = b;
    cmp = DatumGetInt32(key->support->cmp(&fcinfo));
    return key->descending ? (cmp < 0 ? 1 : cmp > 0 ? -1 : 0) : cmp;
}

/*
 * Two values of key as tdb_sort_compare_datums, detoasting toasted
 * values for the comparison only (through the query's detoast cache, so
 * a toasted key is fetched once however many comparisons read it; two
 * reads of one cached value are the same pointer, equal at once).
 */
static int
compare_values(const Tuplesort *ts, const SortKey *key, Datum a, bool an,
               Datum b, bool bn)
{
    const varlena *va, *vb;
    DetoastRef ra, rb;
    int cmp;

    if (an || bn || ts->desc->compact_attrs[key->col - 1].attlen != -1)
        return tdb_sort_compare_datums(key, a, an, b, bn);
    va = (const varlena *)DatumGetPointer(a);
    vb = (const varlena *)DatumGetPointer(b);
    if (likely(!VARATT_IS_EXTENDED(va) && !VARATT_IS_EXTENDED(vb)))
        return tdb_sort_compare_datums(key, a, false, b, false);
    va = tdb_detoast_acquire(va, &ra);
    vb = tdb_detoast_acquire(vb, &rb);
    cmp = va == vb ? 0
                   : tdb_sort_compare_datums(key, PointerGetDatum(va), false,
                                             PointerGetDatum(vb), false);
    tdb_detoast_release(&rb);
    tdb_detoast_release(&ra);
    return cmp;
}

/* The first key's normalized form, detoasting a toasted value for it. */
static uint64
normalize_first_key(const Tuplesort *ts, Datum v)
{
    const varlena *tv = (const varlena *)DatumGetPointer(v);
    DetoastRef ref;
    uint64 n;

    if (ts->desc->compact_attrs[ts->keys[0].col - 1].attlen != -1 ||
        likely(!VARATT_IS_EXTENDED(tv)))
        return ts->norm(v);
    n = ts->norm(PointerGetDatum(tdb_detoast_acquire(tv, &ref)));
    tdb_detoast_release(&ref);
    return n;
}

/* Keys from..nkeys-1 of two rows. */
static int
compare_keys_from(Tuplesort *ts, const SortEntry *a, const SortEntry *b,
                  int from)
{
    const void *ta = SORT_ENTRY_TUPLE(a);
    const void *tb = SORT_ENTRY_TUPLE(b);

    for (int k = from; k < ts->nkeys; k++) {
        const SortKey *key = &ts->keys[k];
        bool an, bn;
        Datum av = tuple_attr(ts, ta, key->col, &an);
        Datum bv = tuple_attr(ts, tb, key->col, &bn);
        int cmp = compare_values(ts, key, av, an, bv, bn);

        if (cmp != 0)
            return cmp;
    }
    return 0;
}

/* Two rows whose entries' keys are equal numbers (both non-NULL). */
static int
compare_ties(const SortEntry *a, const SortEntry *b, void *arg)
{
    Tuplesort *ts = arg;

    /* an abbreviated first key proves nothing: compare the values */
    return compare_keys_from(ts, a, b, ts->abbreviated ? 0 : 1);
}

/* Two rows whose first keys are both NULL. */
static int
compare_after_first(const SortEntry *a, const SortEntry *b, void *arg)
{
    return compare_keys_from(arg, a, b, 1);
}

/* Two rows with non-NULL first keys held as Datums (no normalizer). */
static int
compare_unnormalized(const SortEntry *a, const SortEntry *b, void *arg)
{
    Tuplesort *ts = arg;
    int cmp = compare_values(ts, &ts->keys[0], (Datum)a->key, false,
                                      (Datum)b->key, false);

    return cmp != 0 ? cmp : compare_keys_from(ts, a, b, 1);
}

/* The full order of two entries. */
int
tdb_ts_compare(Tuplesort *ts, const SortEntry *a, const SortEntry *b)
{
    bool an = (a->ref & SORT_ENTRY_NULL) != 0;
    bool bn = (b->ref & SORT_ENTRY_NULL) != 0;

    if (ts->nkeys == 0)
        return 0;
    if (an || bn) {
        if (!(an && bn))
            return (an ? 1 : -1) * (ts->keys[0].nulls_first ? -1 : 1);
        return compare_after_first(a, b, ts);
    }
    if (ts->norm == NULL)
        return compare_unnormalized(a, b, ts);
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (!ts->abbreviated && ts->nkeys == 1)
        return 0;
    return compare_ties(a, b, ts);
}

/*
 * The first key when it is an integer at a cached offset and the row
 * (heap tuple header tup of len bytes; a minimal tuple's heap view) has
 * no NULLs -- every row of most sorts: one load.  False: read it the
 * general way.
 */
static inline bool
int_key(const Tuplesort *ts, const HeapTupleHeaderData *tup, uint32 len,
        Datum *v)
{
    const Size hoff = MAXALIGN(SizeofHeapTupleHeader);
    const char *p = (const char *)tup + hoff + ts->key_offset;

    if ((tup->t_infomask & HEAP_HASNULL) != 0 || tup->t_hoff != hoff ||
        HeapTupleHeaderGetNatts(tup) < ts->keys[0].col ||
        len < hoff + (Size)ts->key_offset + (Size)ts->key_int_len)
        return false;
    if (ts->key_int_len == 8) {
        int64 x;

        memcpy(&x, p, 8);
        *v = (Datum)x;
    } else if (ts->key_int_len == 4) {
        int32 x;

        memcpy(&x, p, 4);
        *v = (Datum)(int64)x;
    } else {
        int16 x;

        memcpy(&x, p, 2);
        *v = (Datum)(int64)x;
    }
    return true;
}

/* Fill e for a tuple (its first key read from the tuple itself, so a
 * by-reference Datum kept in the entry points into it). */
void
tdb_ts_make_entry(Tuplesort *ts, SortEntry *e, MinimalTuple tuple)
{
    bool isnull = false;
    Datum v = 0;

    e->ref = (uintptr_t)tuple;
    if (ts->key_int_len > 0 &&
        int_key((Tuplesort *)ts,
                (const HeapTupleHeaderData *)((const char *)tuple -
                                              MINIMAL_TUPLE_OFFSET),
                tuple->t_len + MINIMAL_TUPLE_OFFSET, &v)) {
        /* an integer first key at a fixed offset: one load */
    } else if (ts->nkeys > 0)
        v = tuple_attr(ts, tuple, ts->keys[0].col, &isnull);
    if (isnull) {
        e->key = 0;
        e->ref |= SORT_ENTRY_NULL;
    } else if (ts->norm != NULL) {
        uint64 n = normalize_first_key(ts, v);

        e->key = ts->keys[0].descending ? ~n : n;
    } else
        e->key = (uint64)v;
}

/* ----------------------------------------------------------------------
 * Sorting a load in memory
 * ---------------------------------------------------------------------- */

/* Move the NULL-first-key entries to the end (or the start with NULLS
 * FIRST); returns the index of the first non-NULL entry and sets *nnull. */
static int64
partition_nulls(Tuplesort *ts, SortEntry *e, int64 n, int64 *nnull)
{
    bool first = ts->nkeys > 0 && ts->keys[0].nulls_first;
    int64 lo = 0, hi = n;

    /* [0, lo) one kind, [hi, n) the other */
    while (lo < hi) {
        bool isnull = (e[lo].ref & SORT_ENTRY_NULL) != 0;

        if (isnull == first)
            lo++;
        else {
            SortEntry t = e[lo];

            e[lo] = e[--hi];
            e[hi] = t;
        }
    }
    *nnull = first ? lo : n - lo;
    return first ? lo : 0;
}

static void
sort_entries(Tuplesort *ts, SortEntry *e, int64 n)
{
    int64 nnull, start;

    if (n < 2 || ts->nkeys == 0)
        return;
    start = partition_nulls(ts, e, n, &nnull);
    if (nnull > 1 && ts->nkeys > 1) {
        SortEntry *nulls = ts->keys[0].nulls_first ? e : e + (n - nnull);

        tdb_sort_entries_by_cmp(nulls, (size_t)nnull, compare_after_first,
                                ts);
    }
    if (ts->norm == NULL)
        tdb_sort_entries_by_cmp(e + start, (size_t)(n - nnull),
                                compare_unnormalized, ts);
    else
        tdb_sort_entries_by_key(
            e + start, (size_t)(n - nnull),
            ts->abbreviated || ts->nkeys > 1 ? compare_ties : NULL, ts);
}

void
tdb_ts_sort_load(Tuplesort *ts)
{
    sort_entries(ts, ts->entries, ts->count);
}

/* ----------------------------------------------------------------------
 * Memory
 * ---------------------------------------------------------------------- */

/* The bytes a row of the load is counted for. */
static inline Size
row_space(const Tuplesort *ts, MinimalTuple tuple)
{
    return ts->bound > 0 ? tdb_mcxt_chunk_space(tuple) : MAXALIGN(tuple->t_len);
}

static inline Size
counted(const Tuplesort *ts)
{
    return (Size)ts->capacity * sizeof(SortEntry) + ts->tuple_bytes;
}

static void
note_memory(Tuplesort *ts)
{
    Size used = counted(ts);

    if (used > ts->max_mem)
        ts->max_mem = used;
}

/*
 * Make room for one more entry: grow the array as PostgreSQL grows its
 * memtuples (double while at most half the limit is used, then once by
 * the ratio that reaches it).  False when the array cannot grow.
 */
static bool
grow_entries(Tuplesort *ts)
{
    Size used = counted(ts);
    int64 newcap;
    Size max_entries = MaxAllocHugeSize / sizeof(SortEntry);

    if (!ts->can_grow)
        return false;
    if (used <= ts->limit / 2)
        newcap = ts->capacity * 2;
    else {
        double ratio = (double)ts->limit / (double)Max(used, 1);

        ts->can_grow = false;   /* the last growth */
        newcap = (int64)((double)ts->capacity * ratio);
        /* the growth itself must fit */
        if ((Size)(newcap - ts->capacity) * sizeof(SortEntry) >
            ts->limit - Min(ts->limit, used))
            newcap = ts->capacity +
                     (int64)((ts->limit - Min(ts->limit, used)) /
                             sizeof(SortEntry));
    }
    if ((Size)newcap > max_entries)
        newcap = (int64)max_entries;
    if (newcap <= ts->capacity + 1)
        return false;
    ts->entries = tdb_repalloc_extended(
        ts->entries, (Size)newcap * sizeof(SortEntry), MCXT_ALLOC_HUGE);
    ts->capacity = newcap;
    note_memory(ts);
    return true;
}

static void
create_tuple_context(Tuplesort *ts)
{
    if (ts->bound > 0)
        /* the bounded heap frees the rows it drops */
        ts->tuplecxt = tdb_aset_create(ts->sortcxt, "Caller tuples",
                                       ALLOCSET_DEFAULT_SIZES);
    else {
        Size max_block = Min(TUPLESORT_MAX_BLOCK,
                             Max((Size)8192, ts->limit / 16));

        ts->tuplecxt = tdb_bump_create(ts->sortcxt, "Caller tuples", 0,
                                       Min((Size)8192, max_block), max_block);
    }
}

static double
now_seconds(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void
tdb_ts_trace(Tuplesort *ts, const char *fmt, ...)
{
    char line[256];
    va_list args;

    va_start(args, fmt);
    (void)vsnprintf(line, sizeof(line), fmt, args);
    va_end(args);
    ereport(LOG, errmsg("%s: elapsed: %.2f s", line, now_seconds() - ts->began));
}

Size
tdb_ts_load_limit(const Tuplesort *ts)
{
    Size total = (Size)Max(ts->cfg.work_mem_kb, 64) * 1024;

    /* the run files' write buffers come out of work_mem (half at most) */
    return total - Min(ts->file_buffers, total / 2);
}

void
tdb_ts_check_interrupts(Tuplesort *ts)
{
    if (++ts->since_check >= TS_INTERRUPT_EVERY) {
        ts->since_check = 0;
        if (ts->cfg.check_interrupts != NULL)
            ts->cfg.check_interrupts(ts->cfg.check_interrupts_arg);
    }
}

/* ----------------------------------------------------------------------
 * Bounded heap (top-N): the entries a max-heap, the kept row that sorts
 * last at the root
 * ---------------------------------------------------------------------- */

static void
heap_sift_down_bounded(Tuplesort *ts, int64 i)
{
    SortEntry *e = ts->entries;
    int64 n = ts->count;

    for (;;) {
        int64 l = 2 * i + 1, big = i;

        if (l < n && tdb_ts_compare(ts, &e[l], &e[big]) > 0)
            big = l;
        if (l + 1 < n && tdb_ts_compare(ts, &e[l + 1], &e[big]) > 0)
            big = l + 1;
        if (big == i)
            return;
        SortEntry t = e[i];
        e[i] = e[big];
        e[big] = t;
        i = big;
    }
}

static void
free_row(Tuplesort *ts, SortEntry *e)
{
    MinimalTuple tuple = SORT_ENTRY_TUPLE(e);

    ts->tuple_bytes -= row_space(ts, tuple);
    tdb_pfree(tuple);
}

/* Keep only the first `bound` rows of the load, as a heap. */
static void
make_bounded_heap(Tuplesort *ts)
{
    sort_entries(ts, ts->entries, ts->count);
    for (int64 i = ts->bound; i < ts->count; i++)
        free_row(ts, &ts->entries[i]);
    ts->count = ts->bound;
    /* sorted ascending; reversed it is a max-heap */
    for (int64 i = 0, j = ts->count - 1; i < j; i++, j--) {
        SortEntry t = ts->entries[i];

        ts->entries[i] = ts->entries[j];
        ts->entries[j] = t;
    }
    ts->status = SORT_BOUNDED;
}

/* A new row for the heap: replaces the root if it sorts before it. */
static void
put_bounded(Tuplesort *ts, SortEntry *candidate)
{
    if (tdb_ts_compare(ts, candidate, &ts->entries[0]) >= 0) {
        free_row(ts, candidate);
        return;
    }
    free_row(ts, &ts->entries[0]);
    ts->entries[0] = *candidate;
    heap_sift_down_bounded(ts, 0);
}

/* ----------------------------------------------------------------------
 * Loading
 * ---------------------------------------------------------------------- */

Tuplesort *
tdb_tuplesort_begin(TupleDesc desc, const SortKey *keys, int nkeys,
                    const TuplesortConfig *cfg)
{
    /* small blocks: anything larger than 1 kB (the entry array, file
     * buffers) gets a block of its own, allocated at its exact size */
    MemoryContext cxt =
        tdb_aset_create(cfg->parent, "TupleSort main", 0, 8192, 8192);
    Tuplesort *ts = tdb_mcxt_alloc_zero(cxt, sizeof(Tuplesort));
    bool exact = true;

    ts->sortcxt = cxt;
    ts->mergecxt = tdb_aset_create(cxt, "TupleSort merge", 0, 8192, 8192);
    ts->desc = desc;
    ts->keys = keys;
    ts->nkeys = nkeys;
    ts->cfg = *cfg;
    if (nkeys > 0)
        ts->norm = tdb_sortkey_normalizer(TupleDescAttr(desc, keys[0].col - 1)
                                              ->atttypid,
                                          &exact);
    ts->abbreviated = ts->norm != NULL && !exact;
    if (nkeys > 0) {
        const CompactAttribute *c = &desc->compact_attrs[keys[0].col - 1];

        if (c->attcacheoff >= 0 && (c->attflags & ATTR_BYVAL) &&
            (c->attlen == 2 || c->attlen == 4 || c->attlen == 8)) {
            ts->key_offset = c->attcacheoff;
            ts->key_int_len = c->attlen;
        }
    }
    ts->last_input = -1;
    ts->out = tdb_slot_create(desc, &tdb_tts_ops_minimal);
    tdb_tuplesort_reset(ts);
    if (cfg->trace) {
        ts->began = now_seconds();
        tdb_ts_trace(ts, "begin tuple sort: nkeys = %d, workMem = %d, "
                         "randomAccess = f",
                     nkeys, Max(cfg->work_mem_kb, 64));
    }
    return ts;
}

void
tdb_tuplesort_set_bound(Tuplesort *ts, int64 bound)
{
    /* as PostgreSQL: a huge bound is no bound (2 x bound must fit) */
    if (ts->total > 0 || bound <= 0 || bound > INT32_MAX / 2)
        return;
    ts->bound = bound;
}

/* Start spilling: the load becomes the first run. */
static void
start_runs(Tuplesort *ts)
{
    if (ts->cfg.trace)
        tdb_ts_trace(ts, "switching to external sort after %lld tuples",
                     (long long)ts->count);
    ts->status = SORT_BUILDING;
    ts->can_grow = false;
    tdb_ts_dump_run(ts);
    if (ts->bound > 0) {
        /* the bound is given up: later loads need no freeing, so their
         * rows go in a headerless context */
        tdb_mcxt_delete(ts->tuplecxt);
        ts->tuplecxt = NULL;
        ts->bound = 0;
    }
}

/* Copy a row into the load's context and count it. */
static MinimalTuple
copy_row(Tuplesort *ts, TupleTableSlot *row)
{
    MemoryContext old;
    MinimalTuple tuple;

    if (ts->tuplecxt == NULL)
        create_tuple_context(ts);
    old = tdb_mcxt_switch_to(ts->tuplecxt);
    tuple = tdb_slot_copy_minimal_tuple(row, 0);
    tdb_mcxt_switch_to(old);
    ts->tuple_bytes += row_space(ts, tuple);
    return tuple;
}

/* The load is full: spill it (the first time, start spilling). */
static void
spill_load(Tuplesort *ts)
{
    if (ts->status == SORT_LOADING)
        start_runs(ts);
    else
        tdb_ts_dump_run(ts);
}

/* A bound is set and the load is still in memory. */
static inline bool
heap_possible(const Tuplesort *ts)
{
    return ts->bound > 0 && ts->status == SORT_LOADING;
}

/*
 * The top-N heap is full: does a row with this first key sort at or
 * after its root, as the first key alone shows (the usual case once the
 * heap holds good rows)?  Then it is dropped without being copied.
 */
static bool
value_rejected(const Tuplesort *ts, Datum v, bool isnull)
{
    const SortKey *key = &ts->keys[0];
    const SortEntry *root = &ts->entries[0];
    bool root_null = (root->ref & SORT_ENTRY_NULL) != 0;
    uint64 n;

    if (isnull || root_null) {
        if (isnull && root_null)
            return false; /* the other keys decide */
        /* the NULL one sorts last unless NULLS FIRST */
        return isnull != key->nulls_first;
    }
    n = normalize_first_key(ts, v);
    if (key->descending)
        n = ~n;
    if (n != root->key)
        return n > root->key; /* decisive even when abbreviated */
    return !ts->abbreviated && ts->nkeys == 1; /* equal: no better */
}

/* value_rejected for a row. */
static bool
heap_rejects(Tuplesort *ts, TupleTableSlot *row)
{
    bool isnull;
    Datum v;
    HeapTuple ht;

    if (ts->norm == NULL)
        return false;
    ht = ts->key_int_len > 0 ? tdb_slot_heap_tuple(row) : NULL;
    if (ht != NULL && int_key(ts, ht->t_data, ht->t_len, &v))
        isnull = false;
    else
        v = tdb_slot_fetch_attr(row, ts->keys[0].col, &isnull);
    return value_rejected(ts, v, isnull);
}

bool
tdb_tuplesort_skips(Tuplesort *ts, Datum first_key, bool isnull)
{
    if (ts->status != SORT_BOUNDED || ts->norm == NULL ||
        !value_rejected(ts, first_key, isnull))
        return false;
    ts->total++;
    return true;
}

/* A row for the top-N heap (made from the load if not made yet). */
static void
put_into_heap(Tuplesort *ts, SortEntry *entry)
{
    if (ts->status != SORT_BOUNDED)
        make_bounded_heap(ts);
    put_bounded(ts, entry);
    note_memory(ts);
}

void
tdb_tuplesort_put(Tuplesort *ts, TupleTableSlot *row)
{
    MinimalTuple tuple;
    SortEntry entry;

    ts->total++;
    if (ts->status == SORT_BOUNDED) {
        if (heap_rejects(ts, row))
            return;
        tdb_ts_make_entry(ts, &entry, copy_row(ts, row));
        put_into_heap(ts, &entry);
        return;
    }
    if (ts->count == ts->capacity && !grow_entries(ts)) {
        /* the array is full: so is the load */
        if (heap_possible(ts) && ts->count >= ts->bound) {
            tdb_ts_make_entry(ts, &entry, copy_row(ts, row));
            put_into_heap(ts, &entry);
            return;
        }
        spill_load(ts);
    }
    tuple = copy_row(ts, row);
    if (counted(ts) > ts->limit && ts->count > 0) {
        if (heap_possible(ts) && ts->count >= ts->bound) {
            tdb_ts_make_entry(ts, &entry, tuple);
            put_into_heap(ts, &entry);
            return;
        }
        /* over the limit: spill the load without this row (spilling
         * frees its copy; copy it again into the emptied load) */
        ts->tuple_bytes -= row_space(ts, tuple);
        spill_load(ts);
        tuple = copy_row(ts, row);
    }
    tdb_ts_make_entry(ts, &ts->entries[ts->count++], tuple);
    note_memory(ts);
    if (heap_possible(ts) && ts->count > 2 * ts->bound)
        make_bounded_heap(ts);
}

/* ----------------------------------------------------------------------
 * Reading
 * ---------------------------------------------------------------------- */

void
tdb_tuplesort_perform(Tuplesort *ts)
{
    switch (ts->status) {
    case SORT_LOADING:
    case SORT_BOUNDED:
        ts->method = ts->status == SORT_BOUNDED ? "top-N heapsort"
                                                : "quicksort";
        sort_entries(ts, ts->entries, ts->count);
        ts->status = SORT_SORTED_MEM;
        if (ts->cfg.trace)
            tdb_ts_trace(ts, "internal sort ended, %llu KB used",
                         (unsigned long long)((ts->max_mem + 1023) / 1024));
        break;
    case SORT_BUILDING:
        if (ts->count > 0)
            tdb_ts_dump_run(ts);
        tdb_ts_merge_runs(ts);
        break;
    default:
        break;
    }
    ts->read_pos = 0;
    ts->mark_pos = 0;
    ts->mark_offset = 0;
}

/* ----------------------------------------------------------------------
 * Reading
 * ---------------------------------------------------------------------- */

TupleTableSlot *
tdb_tuplesort_next(Tuplesort *ts)
{
    MinimalTuple tuple = NULL;

    switch (ts->status) {
    case SORT_SORTED_MEM:
        if (ts->read_pos + TS_PREFETCH_AHEAD < ts->count)
            __builtin_prefetch(SORT_ENTRY_TUPLE(
                &ts->entries[ts->read_pos + TS_PREFETCH_AHEAD]));
        if (ts->read_pos < ts->count)
            tuple = SORT_ENTRY_TUPLE(&ts->entries[ts->read_pos++]);
        break;
    case SORT_SORTED_FILE:
    case SORT_MERGING:
        tuple = tdb_ts_next_from_disk(ts);
        break;
    default:
        elog(ERROR, "tuplesort read before it was sorted");
    }
    if (tuple == NULL) {
        tdb_slot_clear(ts->out);
        return NULL;
    }
    tdb_slot_store_minimal_tuple(ts->out, tuple, false);
    return ts->out;
}

void
tdb_tuplesort_mark(Tuplesort *ts)
{
    if (ts->status == SORT_SORTED_MEM)
        ts->mark_pos = ts->read_pos;
    else if (ts->status == SORT_SORTED_FILE || ts->status == SORT_MERGING)
        tdb_ts_mark_on_disk(ts);
    else
        elog(ERROR, "tuplesort marked before it was sorted");
}

void
tdb_tuplesort_restore(Tuplesort *ts)
{
    if (ts->status == SORT_SORTED_MEM)
        ts->read_pos = ts->mark_pos;
    else
        tdb_ts_restore_on_disk(ts);
}

bool
tdb_tuplesort_rewind(Tuplesort *ts)
{
    if (ts->status == SORT_SORTED_MEM) {
        ts->read_pos = 0;
        return true;
    }
    return tdb_ts_rewind_on_disk(ts);
}

/* ----------------------------------------------------------------------
 * The rest
 * ---------------------------------------------------------------------- */

void
tdb_tuplesort_reset(Tuplesort *ts)
{
    tdb_slot_clear(ts->out);
    tdb_ts_drop_runs(ts);
    if (ts->tuplecxt != NULL)
        tdb_mcxt_delete(ts->tuplecxt);
    ts->tuplecxt = NULL;
    if (ts->entries != NULL)
        tdb_pfree(ts->entries);
    ts->capacity = TS_INITIAL_ENTRIES;
    ts->entries =
        tdb_mcxt_alloc(ts->sortcxt, sizeof(SortEntry) * TS_INITIAL_ENTRIES);
    ts->can_grow = true;
    ts->count = 0;
    ts->total = 0;
    ts->tuple_bytes = 0;
    ts->limit = tdb_ts_load_limit(ts);
    ts->status = SORT_LOADING;
    ts->bound = 0;
    /* method, max_mem and max_disk stay: EXPLAIN reports the last sort */
    ts->read_pos = ts->mark_pos = 0;
    ts->merges = 0;
    ts->runs_written = 0;
    note_memory(ts);
}

int64
tdb_tuplesort_count(const Tuplesort *ts)
{
    return ts->total;
}

void
tdb_tuplesort_stats(const Tuplesort *ts, TuplesortStats *stats)
{
    stats->method = ts->method != NULL ? ts->method : "still in progress";
    stats->on_disk = ts->max_disk > 0;
    stats->space_kb = stats->on_disk ? (int64)((ts->max_disk + 1023) / 1024)
                                     : (int64)((ts->max_mem + 1023) / 1024);
}

void
tdb_tuplesort_end(Tuplesort *ts)
{
    tdb_mcxt_delete(ts->sortcxt);
}
