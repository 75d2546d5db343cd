/*
 * indexsort.c -- sorting a B-tree's entries for CREATE INDEX (the
 * contract is in indexsort.h).
 *
 * Design
 * ------
 * The sort moves 16-byte SortEntry items (sortkey.h) and orders them by
 * their key number first: a radix sort, no call per comparison.  Two
 * kinds of entry:
 *
 *   pairs   an index of one column whose type orders as a 2-, 4- or 8-byte
 *           integer (int2, int4, int8, oid, date, time, timestamp[tz]):
 *           the entry *is* the index entry -- key = the value made an
 *           order-preserving unsigned number (sign bit flipped, complemented
 *           for DESC), ref = (block << 16 | offset) << 1 | NULL flag -- so
 *           no tuple is formed until the loader's, into one buffer, as the
 *           merge hands entries out.  16 bytes a row: a run of 64MB holds
 *           4M rows (PostgreSQL's 24-byte SortTuple plus a 16-byte index
 *           tuple in a chunk of 32 holds about 1.2M).
 *   packed  pairs of a key of at most 4 bytes in a table of fewer than
 *           2^22 blocks (32 GB): one uint64, key << 32 | block << 9 |
 *           offset, sorted by an LSD radix sort on the key bytes alone --
 *           stable, and rows arrive in TID order, so ties come out in TID
 *           order with no comparison at all -- into a scratch array of the
 *           same size (16 bytes a row in all, as pairs); runs hold 8 bytes
 *           a row and merge by one integer comparison.  NULL keys are kept
 *           apart as their TIDs, which arrive sorted, and emitted before or
 *           after the others.  Measured on 10M int4 keys at 64MB: the sort
 *           0.6 -> 0.15 s, the merge and run I/O halved.
 *   tuples  everything else: the index tuple is formed once, by
 *           tdb_bt_form_tuple, into a Bump context (no chunk header), and
 *           the entry holds its first key normalized (abbreviated for text,
 *           numeric...: sortkey.h) and a pointer to it.  Equal numbers are
 *           ordered by comparing the tuples (tdb_bt_compare_tuples: every
 *           key, then the heap TID).  A first key without normalizer sorts
 *           by that comparison alone.
 *
 * Entries whose first key is NULL are partitioned to the end NULLS FIRST /
 * LAST puts them at before sorting, so the numbers never encode NULL.
 * Memory is counted as the entry array's allocated size plus each tuple's
 * MAXALIGNed size; a load that reaches work_mem is sorted and appended to
 * one temporary file as a run -- pairs as the raw entries, tuples as the
 * key number then the tuple's bytes, so reading a run back needs no
 * normalizing -- and at the end the runs are merged through a binary heap
 * while the entries are emitted (in more passes only if there are more
 * runs than work_mem / 64 kB, capped at 500, can merge at once).
 */
#include "common/base.h"

#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/indexsort.h"
#include "executor/sortkey.h"
#include "storage/tempfile.h"
#include "toast/compress.h"
#include "tuple/varlena.h"

#define IS_INITIAL_ENTRIES 1024
#define IS_WRITE_BUFFER ((Size)256 * 1024)
#define IS_MERGE_BUFFER ((Size)64 * 1024) /* per input, for the order */
#define IS_MIN_ORDER 6
#define IS_MAX_ORDER 500
#define IS_MAX_READ_BUFFER ((Size)1024 * 1024)
#define IS_INTERRUPT_EVERY 65536
#define IS_SIGN ((uint64)1 << 63)
#define IS_PREFETCH_AHEAD 16

/* A run: bytes [start, end) of the current file. */
typedef struct Run {
    uint64 start;
    uint64 end;
} Run;

/* A run being merged: its current entry (tuples: ref points at tuple). */
typedef struct RunReader {
    TempFileReader *reader;
    SortEntry e;
    IndexTuple tuple; /* tuples: a BLCKSZ buffer */
} RunReader;

struct IndexSort {
    const BTIndexData *bt;
    IndexSortConfig cfg;
    bool pairs;
    bool packed;     /* pairs packed into a uint64 (vals[]) */
    bool short_varlena; /* tuples: one packable varlena column */
    uint64 *vals;    /* packed: the load */
    uint64 *scratch; /* packed: the radix sort's second array */
    uint32 *nulls;   /* packed: TIDs (block << 9 | offset) of rows
                      * whose key is NULL, ascending */
    int64 nnulls;
    int64 nulls_capacity;
    TempFile *nullfile;     /* packed: the NULLs' TIDs that did not fit */
    uint32 last_tid;        /* packed: the last TID put */
    int key_len;            /* pairs: 2, 4 or 8 */
    bool key_unsigned;      /* pairs: oid */
    SortKeyNormalizer norm; /* tuples: the first key's, or NULL */
    bool desc, nulls_first; /* the first key's */
    MemoryContext cxt;      /* everything of the sort, files too */
    MemoryContext tuplecxt; /* tuples: the current load's */
    SortEntry *entries;
    int64 count;
    int64 capacity;
    int64 max_capacity;
    Size budget;      /* work_mem in bytes */
    Size tuple_bytes; /* the current load's tuples */
    int64 total;
    int64 since_check;
    TempFile *file; /* the runs, one after another */
    Run *runs;
    int nruns;
    int runs_capacity;
    union { /* pairs: the tuple handed to emit */
        IndexTupleData hdr;
        char bytes[16];
        uint64 align;
    } out;
};

/* ----------------------------------------------------------------------
 * Pairs: the value as a number and back
 * ---------------------------------------------------------------------- */

static inline uint64
pair_key(const IndexSort *s, Datum v)
{
    uint64 k;

    if (s->key_len == 2)
        k = (uint64)(int64)DatumGetInt16(v) ^ IS_SIGN;
    else if (s->key_len == 4)
        k = s->key_unsigned ? (uint64)DatumGetUInt32(v)
                            : (uint64)(int64)DatumGetInt32(v) ^ IS_SIGN;
    else
        k = (uint64)DatumGetInt64(v) ^ IS_SIGN;
    return s->desc ? ~k : k;
}

/* The key's value stored as the index tuple stores it (at its width). */
static inline void
pair_store(const IndexSort *s, uint64 k, char *dst)
{
    if (s->desc)
        k = ~k;
    if (s->key_len == 2) {
        int16 v = (int16)(int64)(k ^ IS_SIGN);

        memcpy(dst, &v, sizeof(v));
    } else if (s->key_len == 4) {
        int32 v =
            s->key_unsigned ? (int32)(uint32)k : (int32)(int64)(k ^ IS_SIGN);

        memcpy(dst, &v, sizeof(v));
    } else {
        int64 v = (int64)(k ^ IS_SIGN);

        memcpy(dst, &v, sizeof(v));
    }
}

static inline uintptr_t
pair_ref(const ItemPointerData *tid, bool isnull)
{
    uint64 t = ((uint64)ItemPointerGetBlockNumber(tid) << 16) |
               ItemPointerGetOffsetNumber(tid);

    return (uintptr_t)(t << 1 | (isnull ? 1 : 0));
}

#define IS_PACKED_MAX_BLOCKS ((BlockNumber)1 << 22)
#define IS_OFFSET_BITS 9 /* MaxHeapTuplesPerPage < 512 */

static inline uint32
packed_tid(const ItemPointerData *tid)
{
    return ItemPointerGetBlockNumber(tid) << IS_OFFSET_BITS |
           ItemPointerGetOffsetNumber(tid);
}

/* A packed pair: the key's 32 bits (sign flipped, complemented for DESC)
 * above the TID's. */
static inline uint64
packed_value(const IndexSort *s, Datum v, const ItemPointerData *tid)
{
    uint32 k = s->key_len == 2   ? (uint32)(int32)DatumGetInt16(v) ^ 0x80000000u
               : s->key_unsigned ? DatumGetUInt32(v)
                                 : (uint32)DatumGetInt32(v) ^ 0x80000000u;

    if (s->desc)
        k = ~k;
    return (uint64)k << 32 | packed_tid(tid);
}

/* Which single-column key types sort as pairs: their width, signedness. */
static bool
pair_type(const BTIndexData *bt, int *len, bool *is_unsigned)
{
    const TupleAttr *a;

    if (bt->tupdesc->natts != 1 || bt->nkeyatts != 1)
        return false;
    a = TupleDescAttr(bt->tupdesc, 0);
    *is_unsigned = false;
    switch (a->atttypid) {
    case INT2OID:
        *len = 2;
        break;
    case INT4OID:
    case DATEOID:
        *len = 4;
        break;
    case OIDOID:
        *len = 4;
        *is_unsigned = true;
        break;
    case INT8OID:
    case TIMEOID:
    case TIMESTAMPOID:
    case TIMESTAMPTZOID:
        *len = 8;
        break;
    default:
        return false;
    }
    return a->attbyval && a->attlen == *len;
}

/* ----------------------------------------------------------------------
 * Comparing
 * ---------------------------------------------------------------------- */

static inline IndexTuple
entry_tuple(const SortEntry *e)
{
    return (IndexTuple)SORT_ENTRY_TUPLE(e);
}

/* Pairs with equal keys: by heap TID (the NULL flags are equal too). */
static int
tie_pairs(const SortEntry *a, const SortEntry *b, void *arg)
{
    (void)arg;
    return a->ref < b->ref ? -1 : a->ref > b->ref ? 1 : 0;
}

/* Tuples: every key, then the heap TID. */
static int
cmp_tuples(const SortEntry *a, const SortEntry *b, void *arg)
{
    const IndexSort *s = arg;

    return tdb_bt_compare_tuples(s->bt, entry_tuple(a), entry_tuple(b), true);
}

/* Order of two entries (from different runs). */
static inline int
entry_cmp(IndexSort *s, const SortEntry *a, const SortEntry *b)
{
    if (s->packed) /* key and TID in one number, all distinct */
        return a->key < b->key ? -1 : 1;
    if (s->pairs || s->norm != NULL) {
        bool an = (a->ref & SORT_ENTRY_NULL) != 0;
        bool bn = (b->ref & SORT_ENTRY_NULL) != 0;

        if (an != bn)
            return an == s->nulls_first ? -1 : 1;
        if (a->key != b->key)
            return a->key < b->key ? -1 : 1;
        if (s->pairs)
            return tie_pairs(a, b, NULL);
    }
    return cmp_tuples(a, b, s);
}

/* ----------------------------------------------------------------------
 * Loading
 * ---------------------------------------------------------------------- */

IndexSort *
tdb_index_sort_begin(const BTIndexData *bt, const IndexSortConfig *cfg)
{
    MemoryContext cxt = tdb_aset_create(cfg->parent, "index build sort",
                                        ALLOCSET_DEFAULT_SIZES);
    IndexSort *s = tdb_mcxt_alloc_zero(cxt, sizeof(IndexSort));

    s->bt = bt;
    s->cfg = *cfg;
    s->cxt = cxt;
    s->budget = (Size)Max(cfg->work_mem_kb, 64) * 1024;
    s->desc = bt->keys[0].desc;
    s->nulls_first = bt->keys[0].nulls_first;
    s->pairs = pair_type(bt, &s->key_len, &s->key_unsigned);
    if (!s->pairs) {
        bool exact;

        s->norm = tdb_sortkey_normalizer(
            TupleDescAttr(bt->tupdesc, 0)->atttypid, &exact);
        s->short_varlena =
            bt->tupdesc->natts == 1 &&
            bt->tupdesc->compact_attrs[0].attlen == -1 &&
            (bt->tupdesc->compact_attrs[0].attflags & ATTR_PACKABLE);
        s->tuplecxt = tdb_bump_create(
            cxt, "index build tuples", 0, 8192,
            Min((Size)1024 * 1024, Max((Size)8192, s->budget / 16)));
    }
    s->packed = s->pairs && s->key_len <= 4 && cfg->heap_blocks > 0 &&
                cfg->heap_blocks <= IS_PACKED_MAX_BLOCKS;
    /* pairs: 16 bytes a row; packed: two arrays of 8 */
    s->max_capacity =
        (int64)Min(s->budget, MaxAllocSize) / (int64)sizeof(SortEntry);
    s->capacity = Min((int64)IS_INITIAL_ENTRIES, s->max_capacity);
    if (s->packed) {
        s->vals = tdb_mcxt_alloc(cxt, sizeof(uint64) * (Size)s->capacity);
        s->scratch = tdb_mcxt_alloc(cxt, sizeof(uint64) * (Size)s->capacity);
        s->nulls_capacity = 256;
        s->nulls =
            tdb_mcxt_alloc(cxt, sizeof(uint32) * (Size)s->nulls_capacity);
    } else
        s->entries = tdb_mcxt_alloc(cxt, sizeof(SortEntry) * (Size)s->capacity);
    return s;
}

static void
check_interrupts(IndexSort *s)
{
    if (++s->since_check >= IS_INTERRUPT_EVERY) {
        s->since_check = 0;
        if (s->cfg.check_interrupts != NULL)
            s->cfg.check_interrupts(s->cfg.check_interrupts_arg);
    }
}

/*
 * Packed values by their upper 32 bits (the key), stably: LSD radix sort,
 * a byte at a time, skipping bytes equal in every value; the result is
 * in s->vals.
 */
static void
sort_packed(IndexSort *s)
{
    size_t n = (size_t)s->count;
    size_t counts[4][256];
    uint64 *src = s->vals, *dst = s->scratch;

    if (n < 2)
        return;
    memset(counts, 0, sizeof(counts));
    for (size_t i = 0; i < n; i++) {
        uint32 k = (uint32)(src[i] >> 32);

        counts[0][k & 0xFF]++;
        counts[1][(k >> 8) & 0xFF]++;
        counts[2][(k >> 16) & 0xFF]++;
        counts[3][k >> 24]++;
    }
    for (int p = 0; p < 4; p++) {
        int shift = 32 + 8 * p;
        size_t pos = 0, starts[256];

        if (counts[p][(src[0] >> shift) & 0xFF] == n)
            continue; /* one value of this byte */
        for (int b = 0; b < 256; b++) {
            starts[b] = pos;
            pos += counts[p][b];
        }
        for (size_t i = 0; i < n; i++)
            dst[starts[(src[i] >> shift) & 0xFF]++] = src[i];
        {
            uint64 *t = src;

            src = dst;
            dst = t;
        }
    }
    if (src != s->vals) {
        /* keep vals the sorted array: swap the two buffers */
        s->scratch = s->vals;
        s->vals = src;
    }
}

/* Sort the current load in place. */
static void
sort_load(IndexSort *s)
{
    SortEntry *e = s->entries;
    size_t n = (size_t)s->count, lo = 0, hi = n, nnull;

    if (s->packed) {
        sort_packed(s);
        return;
    }

    if (!s->pairs && s->norm == NULL) {
        tdb_sort_entries_by_cmp(e, n, cmp_tuples, s);
        return;
    }
    /* NULL first keys to the end they sort at */
    while (lo < hi) {
        bool isnull = (e[lo].ref & SORT_ENTRY_NULL) != 0;

        if (isnull != s->nulls_first) {
            SortEntry t = e[lo];

            e[lo] = e[--hi];
            e[hi] = t;
        } else
            lo++;
    }
    /* e[0, lo): the entries sorting first (NULLs if nulls_first) */
    nnull = s->nulls_first ? lo : n - lo;
    {
        SortEntry *nulls = s->nulls_first ? e : e + lo;
        SortEntry *vals = s->nulls_first ? e + lo : e;

        tdb_sort_entries_by_key(vals, n - nnull,
                                s->pairs ? tie_pairs : cmp_tuples, s);
        if (s->pairs)
            tdb_sort_entries_by_key(nulls, nnull, tie_pairs, s);
        else
            tdb_sort_entries_by_cmp(nulls, nnull, cmp_tuples, s);
    }
}

static void
write_entry(IndexSort *s, TempFile *f, const SortEntry *e)
{
    if (s->packed) {
        tdb_tempfile_write(f, &e->key, sizeof(e->key));
    } else if (s->pairs) {
        tdb_tempfile_write(f, e, sizeof(SortEntry));
    } else {
        IndexTuple t = entry_tuple(e);

        tdb_tempfile_write(f, &e->key, sizeof(e->key));
        tdb_tempfile_write(f, t, IndexTupleSize(t));
    }
}

static void
add_run(IndexSort *s, uint64 start, uint64 end)
{
    if (s->nruns == s->runs_capacity) {
        s->runs_capacity = s->runs_capacity == 0 ? 16 : s->runs_capacity * 2;
        s->runs =
            s->runs == NULL
                ? tdb_mcxt_alloc(s->cxt, sizeof(Run) * (Size)s->runs_capacity)
                : tdb_repalloc(s->runs, sizeof(Run) * (Size)s->runs_capacity);
    }
    s->runs[s->nruns].start = start;
    s->runs[s->nruns].end = end;
    s->nruns++;
}

/* Sort the load, append it to the file as a run, empty the load. */
static void
dump_run(IndexSort *s)
{
    uint64 start;

    sort_load(s);
    if (s->file == NULL)
        s->file = tdb_tempfile_create(s->cxt,
                                      s->cfg.temp_dir != NULL
                                          ? s->cfg.temp_dir
                                          : tdb_tempfile_default_dir(),
                                      IS_WRITE_BUFFER);
    start = tdb_tempfile_size(s->file);
    if (s->packed)
        tdb_tempfile_write(s->file, s->vals, sizeof(uint64) * (Size)s->count);
    else if (s->pairs)
        tdb_tempfile_write(s->file, s->entries,
                           sizeof(SortEntry) * (Size)s->count);
    else
        for (int64 i = 0; i < s->count; i++) {
            /* sorted entries point at tuples in random memory order:
             * fetch ahead (10M text keys: writing the runs took a third
             * of the build waiting for each tuple's cache line) */
            if (i + IS_PREFETCH_AHEAD < s->count)
                __builtin_prefetch(
                    entry_tuple(&s->entries[i + IS_PREFETCH_AHEAD]));
            write_entry(s, s->file, &s->entries[i]);
            check_interrupts(s);
        }
    add_run(s, start, tdb_tempfile_size(s->file));
    s->count = 0;
    s->tuple_bytes = 0;
    if (s->tuplecxt != NULL)
        tdb_mcxt_reset(s->tuplecxt);
}

/* Room for one more entry: grow the array while work_mem allows, else
 * dump the load. */
static void
make_room(IndexSort *s)
{
    int64 want = s->capacity * 2;
    Size other =
        s->packed ? sizeof(uint32) * (Size)s->nulls_capacity : s->tuple_bytes;

    if (want <= s->max_capacity &&
        (Size)want * sizeof(SortEntry) + other <= s->budget) {
        if (s->packed) {
            s->vals = tdb_repalloc(s->vals, sizeof(uint64) * (Size)want);
            tdb_pfree(s->scratch);
            s->scratch = tdb_mcxt_alloc(s->cxt, sizeof(uint64) * (Size)want);
        } else
            s->entries =
                tdb_repalloc(s->entries, sizeof(SortEntry) * (Size)want);
        s->capacity = want;
    } else
        dump_run(s);
}

/* Packed: a row whose key is NULL.  Its TID joins the list (in TID order,
 * as rows come); a full list that work_mem does not let grow goes to the
 * end of the NULLs' file. */
static void
put_null(IndexSort *s, const ItemPointerData *tid)
{
    if (s->nnulls == s->nulls_capacity) {
        int64 want = s->nulls_capacity * 2;

        if ((Size)s->capacity * sizeof(SortEntry) +
                (Size)want * sizeof(uint32) <=
            s->budget) {
            s->nulls = tdb_repalloc(s->nulls, sizeof(uint32) * (Size)want);
            s->nulls_capacity = want;
        } else {
            if (s->nullfile == NULL)
                s->nullfile = tdb_tempfile_create(
                    s->cxt,
                    s->cfg.temp_dir != NULL ? s->cfg.temp_dir
                                            : tdb_tempfile_default_dir(),
                    IS_WRITE_BUFFER);
            tdb_tempfile_write(s->nullfile, s->nulls,
                               sizeof(uint32) * (Size)s->nnulls);
            s->nnulls = 0;
        }
    }
    s->nulls[s->nnulls++] = packed_tid(tid);
}

/*
 * tdb_bt_form_tuple's tuple for a one-column index of a packable varlena
 * (text, varchar, bytea...) whose value fits a 1-byte header, into the
 * load's memory: the header, the value with that header, zero padding.
 * NULL for any other value (the general path forms it).  On 10M md5 keys
 * this is ~40 instructions a row where the general path takes ~190.
 */
static IndexTuple
form_short_varlena(IndexSort *s, Datum value, const ItemPointerData *tid)
{
    const char *p = DatumGetPointer(value);
    Size len, size;
    IndexTuple t;

    if (VARATT_IS_SHORT(p))
        len = VARSIZE_1B(p);
    else if (VARATT_CAN_MAKE_SHORT(p))
        len = VARATT_CONVERTED_SHORT_SIZE(p);
    else
        return NULL;
    size = MAXALIGN(sizeof(IndexTupleData) + len);
    t = tdb_mcxt_alloc(s->tuplecxt, size);
    memset((char *)t + size - sizeof(uint64), 0, sizeof(uint64));
    t->t_tid = *tid;
    t->t_info = (uint16)(size | INDEX_VAR_MASK);
    if (VARATT_IS_SHORT(p))
        memcpy((char *)t + sizeof(IndexTupleData), p, len);
    else {
        SET_VARSIZE_SHORT((char *)t + sizeof(IndexTupleData), len);
        memcpy((char *)t + sizeof(IndexTupleData) + 1, VARDATA(p), len - 1);
    }
    return t;
}

/*
 * The first key as its normalizer must read it: a large value the index
 * stores compressed (index_form_tuple's rule, execindex.c) decompressed,
 * into the current (per-row) memory context; any other value as is.
 */
static inline Datum
normalizable(const IndexSort *s, Datum v)
{
    if (TupleDescAttr(s->bt->tupdesc, 0)->attlen == -1 &&
        VARATT_IS_COMPRESSED(DatumGetPointer(v)))
        return PointerGetDatum(tdb_toast_decompress(DatumGetPointer(v)));
    return v;
}

void
tdb_index_sort_put(IndexSort *s, const Datum *values, const bool *isnull,
                   const ItemPointerData *tid)
{
    SortEntry *e;

    if (s->packed) {
        uint32 t = packed_tid(tid);

        /* inside the table, and in TID order: the stable radix sort and
         * the NULL list rely on it */
        if (unlikely(ItemPointerGetBlockNumber(tid) >= s->cfg.heap_blocks ||
                     (t <= s->last_tid && s->total > 0)))
            elog(ERROR, "index build row (%u,%u) is out of heap order",
                 ItemPointerGetBlockNumber(tid),
                 ItemPointerGetOffsetNumber(tid));
        s->last_tid = t;
        if (isnull[0])
            put_null(s, tid);
        else {
            if (s->count == s->capacity)
                make_room(s);
            s->vals[s->count++] = packed_value(s, values[0], tid);
        }
        s->total++;
        check_interrupts(s);
        return;
    }
    if (s->count == s->capacity)
        make_room(s);
    e = &s->entries[s->count++];
    if (s->pairs) {
        e->key = isnull[0] ? 0 : pair_key(s, values[0]);
        e->ref = pair_ref(tid, isnull[0]);
    } else {
        IndexTuple t = s->short_varlena && !isnull[0]
                           ? form_short_varlena(s, values[0], tid)
                           : NULL;

        if (t == NULL) {
            MemoryContext old = tdb_mcxt_switch_to(s->tuplecxt);

            t = tdb_bt_form_tuple((BTIndex)s->bt, values, isnull, tid);
            tdb_mcxt_switch_to(old);
        }
        s->tuple_bytes += MAXALIGN(IndexTupleSize(t));
        e->ref = (uintptr_t)t;
        e->key = 0;
        if (s->norm != NULL) {
            if (isnull[0])
                e->ref |= SORT_ENTRY_NULL;
            else {
                e->key = s->norm(normalizable(s, values[0]));
                if (s->desc)
                    e->key = ~e->key;
            }
        }
        if ((Size)s->capacity * sizeof(SortEntry) + s->tuple_bytes > s->budget)
            dump_run(s);
    }
    s->total++;
    check_interrupts(s);
}

int64
tdb_index_sort_count(const IndexSort *s)
{
    return s->total;
}

/* ----------------------------------------------------------------------
 * Emitting and merging
 * ---------------------------------------------------------------------- */

/* The index tuple of a row whose key is NULL, from its packed TID. */
static inline void
emit_null(IndexSort *s, uint32 tid, IndexSortEmit emit, void *arg)
{
    IndexTuple itup = &s->out.hdr;

    memset(s->out.bytes, 0, sizeof(s->out.bytes));
    ItemPointerSet(&itup->t_tid, tid >> IS_OFFSET_BITS,
                   (OffsetNumber)(tid & ((1u << IS_OFFSET_BITS) - 1)));
    itup->t_info = sizeof(s->out.bytes) | INDEX_NULL_MASK;
    emit(arg, itup);
}

static inline void
emit_packed(IndexSort *s, uint64 v, IndexSortEmit emit, void *arg)
{
    IndexTuple itup = &s->out.hdr;
    uint32 k = (uint32)(v >> 32), tid = (uint32)v;
    char *dst = s->out.bytes + MAXALIGN(sizeof(IndexTupleData));

    memset(s->out.bytes, 0, sizeof(s->out.bytes));
    ItemPointerSet(&itup->t_tid, tid >> IS_OFFSET_BITS,
                   (OffsetNumber)(tid & ((1u << IS_OFFSET_BITS) - 1)));
    itup->t_info = sizeof(s->out.bytes);
    if (s->desc)
        k = ~k;
    if (!s->key_unsigned)
        k ^= 0x80000000u;
    if (s->key_len == 2) {
        int16 x = (int16)(int32)k;

        memcpy(dst, &x, sizeof(x));
    } else
        memcpy(dst, &k, sizeof(k));
    emit(arg, itup);
}

/* Packed: every NULL key's tuple, in TID order (the file's, then the
 * list's). */
static void
emit_nulls(IndexSort *s, IndexSortEmit emit, void *arg)
{
    if (s->nullfile != NULL) {
        uint32 batch[1024];
        Size got;

        tdb_tempfile_rewind(s->nullfile);
        while ((got = tdb_tempfile_read(s->nullfile, batch, sizeof(batch))) >
               0) {
            for (Size i = 0; i < got / sizeof(uint32); i++) {
                emit_null(s, batch[i], emit, arg);
                check_interrupts(s);
            }
        }
    }
    for (int64 i = 0; i < s->nnulls; i++) {
        emit_null(s, s->nulls[i], emit, arg);
        check_interrupts(s);
    }
}

static inline void
emit_entry(IndexSort *s, const SortEntry *e, IndexSortEmit emit, void *arg)
{
    if (s->packed)
        emit_packed(s, e->key, emit, arg);
    else if (s->pairs) {
        uint64 t = (uint64)e->ref >> 1;
        IndexTuple itup = &s->out.hdr;

        /* tdb_bt_form_tuple's layout: the value at offset 8, the tuple
         * 16 bytes; a NULL has the bitmap (all zero) there instead */
        memset(s->out.bytes, 0, sizeof(s->out.bytes));
        ItemPointerSet(&itup->t_tid, (BlockNumber)(t >> 16),
                       (OffsetNumber)(t & 0xFFFF));
        itup->t_info = sizeof(s->out.bytes);
        if (e->ref & SORT_ENTRY_NULL)
            itup->t_info |= INDEX_NULL_MASK;
        else
            pair_store(s, e->key,
                       s->out.bytes + MAXALIGN(sizeof(IndexTupleData)));
        emit(arg, itup);
    } else
        emit(arg, entry_tuple(e));
}

/* Read r's next entry; false at the end of its run. */
static bool
reader_next(IndexSort *s, RunReader *r)
{
    Size size;

    if (s->packed) {
        size = tdb_tempfile_reader_read(r->reader, &r->e.key, sizeof(r->e.key));
        if (size == 0)
            return false;
        if (size != sizeof(r->e.key))
            elog(ERROR, "index build run ends inside an entry");
        return true;
    }
    if (s->pairs) {
        size = tdb_tempfile_reader_read(r->reader, &r->e, sizeof(SortEntry));
        if (size == 0)
            return false;
        if (size != sizeof(SortEntry))
            elog(ERROR, "index build run ends inside an entry");
        return true;
    }
    size = tdb_tempfile_reader_read(r->reader, &r->e.key, sizeof(r->e.key));
    if (size == 0)
        return false;
    if (size != sizeof(r->e.key) ||
        tdb_tempfile_reader_read(r->reader, r->tuple, sizeof(IndexTupleData)) !=
            sizeof(IndexTupleData) ||
        IndexTupleSize(r->tuple) < sizeof(IndexTupleData))
        elog(ERROR, "index build run ends inside an entry");
    size = IndexTupleSize(r->tuple) - sizeof(IndexTupleData);
    if (tdb_tempfile_reader_read(
            r->reader, (char *)r->tuple + sizeof(IndexTupleData), size) != size)
        elog(ERROR, "index build run ends inside an entry");
    r->e.ref = (uintptr_t)r->tuple;
    /* the first key is NULL: the tuple has nulls and bit 0 is clear */
    if (s->norm != NULL && (r->tuple->t_info & INDEX_NULL_MASK) &&
        (((const uint8 *)r->tuple)[sizeof(IndexTupleData)] & 1) == 0)
        r->e.ref |= SORT_ENTRY_NULL;
    return true;
}

static void
sift_down(IndexSort *s, RunReader *in, int *heap, int n, int i)
{
    int x = heap[i];

    for (;;) {
        int c = 2 * i + 1;

        if (c >= n)
            break;
        if (c + 1 < n && entry_cmp(s, &in[heap[c + 1]].e, &in[heap[c]].e) < 0)
            c++;
        if (entry_cmp(s, &in[heap[c]].e, &in[x].e) >= 0)
            break;
        heap[i] = heap[c];
        i = c;
    }
    heap[i] = x;
}

/*
 * Merge runs[0, n) of file f: into file out as one run (out != NULL), or
 * to emit.  The readers live in a context of their own, deleted after.
 */
static void
merge_runs(IndexSort *s, TempFile *f, const Run *runs, int n, TempFile *out,
           IndexSortEmit emit, void *arg)
{
    MemoryContext mcxt =
        tdb_aset_create(s->cxt, "index build merge", ALLOCSET_DEFAULT_SIZES);
    RunReader *in = tdb_mcxt_alloc_zero(mcxt, sizeof(RunReader) * (Size)n);
    int *heap = tdb_mcxt_alloc(mcxt, sizeof(int) * (Size)n);
    Size bufsize =
        Min(IS_MAX_READ_BUFFER, Max((Size)8192, s->budget / (Size)n));
    int nheap = 0;

    for (int i = 0; i < n; i++) {
        in[i].reader = tdb_tempfile_reader_create(f, runs[i].start, runs[i].end,
                                                  bufsize, mcxt);
        if (!s->pairs)
            in[i].tuple = tdb_mcxt_alloc(mcxt, BLCKSZ);
        if (reader_next(s, &in[i]))
            heap[nheap++] = i;
    }
    for (int i = nheap / 2 - 1; i >= 0; i--)
        sift_down(s, in, heap, nheap, i);
    while (nheap > 0) {
        RunReader *top = &in[heap[0]];

        if (out != NULL)
            write_entry(s, out, &top->e);
        else
            emit_entry(s, &top->e, emit, arg);
        if (!reader_next(s, top))
            heap[0] = heap[--nheap];
        if (nheap > 1)
            sift_down(s, in, heap, nheap, 0);
        check_interrupts(s);
    }
    tdb_mcxt_delete(mcxt);
}

/* Sort the load in memory and emit it. */
static void
emit_load(IndexSort *s, IndexSortEmit emit, void *arg)
{
    sort_load(s);
    for (int64 i = 0; i < s->count; i++) {
        if (s->packed)
            emit_packed(s, s->vals[i], emit, arg);
        else {
            if (!s->pairs && i + IS_PREFETCH_AHEAD < s->count)
                __builtin_prefetch(
                    entry_tuple(&s->entries[i + IS_PREFETCH_AHEAD]));
            emit_entry(s, &s->entries[i], emit, arg);
        }
        check_interrupts(s);
    }
}

/* Write the load as the last run, merge the runs and emit. */
static void
merge_all(IndexSort *s, IndexSortEmit emit, void *arg)
{
    int order;

    if (s->count > 0)
        dump_run(s);
    /* the load's memory goes to the merge's read buffers */
    if (s->packed) {
        tdb_pfree(s->vals);
        tdb_pfree(s->scratch);
        s->vals = s->scratch = NULL;
    } else {
        tdb_pfree(s->entries);
        s->entries = NULL;
    }
    s->capacity = 0;
    order = (int)Min((Size)IS_MAX_ORDER,
                     Max((Size)IS_MIN_ORDER, s->budget / IS_MERGE_BUFFER));
    while (s->nruns > order) {
        /* a pass: every `order` runs into one run of a new file */
        TempFile *out = tdb_tempfile_create(s->cxt,
                                            s->cfg.temp_dir != NULL
                                                ? s->cfg.temp_dir
                                                : tdb_tempfile_default_dir(),
                                            IS_WRITE_BUFFER);
        Run *old = s->runs;
        int nold = s->nruns;

        s->runs = NULL;
        s->nruns = 0;
        s->runs_capacity = 0;
        for (int i = 0; i < nold; i += order) {
            uint64 start = tdb_tempfile_size(out);

            merge_runs(s, s->file, old + i, Min(order, nold - i), out, NULL,
                       NULL);
            add_run(s, start, tdb_tempfile_size(out));
        }
        tdb_tempfile_close(s->file);
        tdb_pfree(old);
        s->file = out;
    }
    merge_runs(s, s->file, s->runs, s->nruns, NULL, emit, arg);
}

void
tdb_index_sort_finish(IndexSort *s, IndexSortEmit emit, void *arg)
{
    if (s->packed && s->nulls_first)
        emit_nulls(s, emit, arg);
    if (s->nruns == 0)
        emit_load(s, emit, arg);
    else
        merge_all(s, emit, arg);
    if (s->packed && !s->nulls_first)
        emit_nulls(s, emit, arg);
}

void
tdb_index_sort_end(IndexSort *s)
{
    tdb_mcxt_delete(s->cxt);
}
