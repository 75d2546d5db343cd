/*
 * tuplehash.c -- the compact tuple hash table (issue 8; interface in
 * tuplehash.h).
 *
 * Buckets: 8 bytes.
 *
 *     TupleHashBucket   +-----------------+-----------------+
 *                       | uint32 ref      | uint32 hash     |
 *                       +-----------------+-----------------+
 *
 * Open addressing with linear probing over a power-of-two array.  `ref`
 * names a group in the arena below; ref 0 means "empty", so the array is
 * allocated zeroed and no status byte exists.  A probe compares the stored
 * hash first: a mismatch (all but ~1 in 2^32 of the non-matching probes)
 * never touches the group, so a lookup reads one cache line of buckets
 * (eight of them) and then exactly one group.  PostgreSQL's
 * TupleHashEntryData is 24 bytes up to version 17 (firstTuple, additional,
 * status, hash) and 16 in 18 (the `additional` pointer folded into the
 * tuple's chunk): a 64-bit pointer is what keeps it that large.  A 32-bit
 * arena reference halves it again, and the reference needs no status:
 * together 8 bytes, a third of PostgreSQL 15's and half of PostgreSQL 18's.
 *
 * Load factor: the table doubles when an insert would make it more than
 * 3/4 full.  Linear probing's expected probe length for a miss is about
 * (1 + 1/(1-a)^2)/2 buckets: 8.5 at a = 3/4, i.e. 68 bytes -- one or two
 * cache lines, all compared on the hash alone.  At 7/8 it would be 32
 * buckets (four lines); at 1/2, 2.5 buckets but 16-32 bytes of buckets per
 * group.  At 3/4 buckets cost 10.7-21.3 bytes per group, still below
 * PostgreSQL 18's 17.8-35.6 (16 bytes at its 0.9 fill factor) and far below
 * 15's 26.7-53.3.  Growing re-inserts by the stored hash only: no key is
 * read.  Robin-hood insertion (simplehash) is not needed to bound probe
 * lengths at this fill.
 *
 * Groups: one allocation per group, no chunk header, in a chunked arena:
 *
 *     group = [ per-group state, MAXALIGN(state_size), zeroed when new ]
 *             [ key, encoded as below, MAXALIGNed ]
 *
 * The arena is a directory of chunks taken from a Bump context ("tuple
 * hash groups"): 8 KB, doubling to 8 MB; a group bigger than 2 MB gets a
 * chunk of its own.  ref = (chunk number + 1) << 20 | offset / 8, so a
 * chunk's groups can start anywhere in its first 8 MB (2^20 eight-byte
 * units) and 4095 chunks address at least 4095 x 8 MB ~ 32 GB of groups --
 * far beyond any sane hash_mem (hashgroup.c keeps a spilling table under
 * work_mem x hash_mem_multiplier).  Finding a group costs one load from
 * the directory (a few hundred bytes, always cached).  A caller with a
 * memory limit caps the chunk size (tdb_tuplehash_set_max_chunk_size, and
 * the Bump context's blocks with it), so one new chunk never overshoots
 * the limit by more than a sixteenth; past a quarter of the directory the
 * chunks double again, so the full size stays addressable.
 *
 * Key formats, chosen at create time:
 *
 *  - bare: every column fixed-width with bytewise equality (int2/4/8, oid,
 *    date, bool, ...).  The values are stored at fixed, naturally aligned
 *    offsets, after a null bitmap unless every column is declared NOT NULL
 *    (a NULL column's bytes stay zero), so the key has one length and equality
 * is one compare: a 32- or 64-bit load for a 4- or 8-byte key (a single
 *    int4/int8 column), memcmp otherwise.
 *
 *  - general (mixed, varlena, NULLs): a compact minimal-tuple-like form
 *
 *        [uint32 total length][null bitmap, 1 bit per column]
 *        [the non-NULL values, aligned relative to the key start]
 *
 *    with varlena values re-headed canonically (1-byte header when the
 *    payload is at most 126 bytes, unaligned; otherwise 4-byte header,
 *    int-aligned) and padding zeroed.  No 23-byte MinimalTuple header, no
 *    infomask.  Because the encoding is canonical, keys whose columns all
 *    have bytewise equality are equal iff their encodings are: the length
 *    word, then memcmp -- no deforming.  Columns with an equality function
 *    (numeric, float, non-deterministic collations) are compared by
 *    walking both encodings side by side.
 *
 * A probe key is encoded once per lookup into a scratch buffer of the
 * table, compared with the candidate groups, and copied as is into a new
 * group.
 *
 * Memory: the table struct, directory, buckets and scratch buffer live in
 * the table's AllocSet ("tuple hash table"), the arena chunks in its Bump
 * child; tdb_tuplehash_mem_allocated() reports both contexts' block bytes,
 * exactly what the memory-context layer holds for the table.
 */
#include "common/base.h"

#include <string.h>

#include "common/elog.h"
#include "executor/tuplehash.h"
#include "tuple/varlena.h"

/* ---------- layout constants ---------- */

typedef struct TupleHashBucket {
    uint32 ref;  /* group reference; 0 = empty bucket */
    uint32 hash; /* the key's hash */
} TupleHashBucket;

_Static_assert(sizeof(TupleHashBucket) == 8, "tuple hash buckets are 8 bytes");

#define REF_OFFSET_BITS 20 /* offset in a chunk, in 8-byte units */
#define REF_OFFSET_MASK ((1u << REF_OFFSET_BITS) - 1)
#define REF_MAX_CHUNKS ((1u << (32 - REF_OFFSET_BITS)) - 1) /* 4095 */
#define ARENA_MIN_CHUNK ((Size)8 * 1024)
#define ARENA_MAX_CHUNK ((Size)8 << REF_OFFSET_BITS) /* 8 MB */
#define ARENA_DEDICATED_OVER (ARENA_MAX_CHUNK / 4)   /* 2 MB */
#define MIN_BUCKETS 8
#define MAX_BUCKETS ((uint64)1 << 31)

_Static_assert(ARENA_MAX_CHUNK == ((Size)(REF_OFFSET_MASK + 1) << 3),
               "an arena chunk's offsets must fit in a reference");

/* Offset of the general format's null bitmap, after the length word. */
#define GENERAL_HDR ((uint32)sizeof(uint32))

/* Largest payload stored with a 1-byte varlena header. */
#define SHORT_PAYLOAD_MAX ((Size)VARATT_SHORT_MAX - VARHDRSZ_SHORT)

struct TupleHashTable {
    MemoryContext cxt;       /* "tuple hash table": this struct, buckets, ... */
    MemoryContext arena_cxt; /* "tuple hash groups" (Bump): arena chunks */

    /* the key */
    int ncols;
    TupleHashKeyColumn *cols; /* ncols entries */
    bool bare;                /* bare fixed-width format, else general */
    bool bitwise;             /* every column has bytewise equality */
    bool may_have_nulls;      /* bare: a null bitmap leads the key */
    bool single_int_key;      /* bare: one NOT NULL by-value 4/8-byte column */
    uint32 nullbitmap_len;    /* bytes of the null bitmap */
    uint32 bare_len;          /* bare: the key's length */
    uint32 *bare_offsets;     /* bare: each column's offset */
    Size state_space;         /* MAXALIGN(state_size) */

    /* the scratch encoding of the probe key */
    char *probe;
    Size probe_capacity;
    uint32 probe_len;

    /* buckets */
    TupleHashBucket *buckets;
    uint64 nbuckets; /* a power of two */
    uint64 grow_at;  /* grow before the group count exceeds this */
    uint64 ngroups;
    uint64 initial_nbuckets;

    /* the group arena */
    char **chunks;    /* chunk number -> start */
    Size *chunk_used; /* bytes of groups in each chunk (the current
                       * chunk's: cur - its start) */
    uint32 nchunks;
    uint32 chunks_capacity;
    uint32 cur_chunk; /* chunk being carved (valid if cur != NULL) */
    char *cur;        /* next free byte of cur_chunk */
    Size cur_free;    /* bytes left in cur_chunk */
    Size next_chunk_size;
    uint64 alloc_events; /* chunks and bucket arrays allocated so far */
    Size max_chunk_size; /* chunks stop doubling here (a memory limit's
                          * granularity); ARENA_MAX_CHUNK by default */
    Size group_bytes;    /* bytes handed out to groups */
};

/* ---------- the arena ---------- */

static inline char *
ref_to_group(const TupleHashTable *t, uint32 ref)
{
    return t->chunks[(ref >> REF_OFFSET_BITS) - 1] +
           ((Size)(ref & REF_OFFSET_MASK) << 3);
}

/* Register a new chunk of `size` bytes in the directory; its number. */
static uint32
arena_add_chunk(TupleHashTable *t, Size size)
{
    if (t->nchunks == REF_MAX_CHUNKS)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("hash table size exceeded"),
                errdetail("The group arena has all of its %u chunks.",
                          REF_MAX_CHUNKS));
    if (t->nchunks == t->chunks_capacity) {
        uint32 cap = t->chunks_capacity * 2;

        t->chunks =
            tdb_repalloc(t->chunks, tdb_mcxt_array_size(cap, sizeof(char *)));
        t->chunk_used =
            tdb_repalloc(t->chunk_used, tdb_mcxt_array_size(cap, sizeof(Size)));
        t->chunks_capacity = cap;
    }
    t->chunks[t->nchunks] =
        tdb_mcxt_alloc_extended(t->arena_cxt, size, MCXT_ALLOC_HUGE);
    t->alloc_events++;
    return t->nchunks++;
}

/* Out of line: a group that does not fit in the current chunk. */
static uint32
arena_alloc_slow(TupleHashTable *t, Size size)
{
    Size chunk_size;
    uint32 chunk;

    if (size > ARENA_DEDICATED_OVER) {
        /* a chunk of its own; the current one stays current */
        chunk = arena_add_chunk(t, size);
        t->chunk_used[chunk] = size;
        return (chunk + 1) << REF_OFFSET_BITS;
    }
    if (t->cur != NULL) /* the current chunk is done: record its fill */
        t->chunk_used[t->cur_chunk] = (Size)(t->cur - t->chunks[t->cur_chunk]);
    chunk_size = t->next_chunk_size;
    while (chunk_size < size)
        chunk_size *= 2;
    chunk = arena_add_chunk(t, chunk_size);
    /* chunks grow to the caller's cap, past it only when the directory
     * fills up (so a capped table can still address ~32 GB) */
    t->next_chunk_size =
        Min(chunk_size * 2, t->nchunks < REF_MAX_CHUNKS / 4 ? t->max_chunk_size
                                                            : ARENA_MAX_CHUNK);
    t->cur_chunk = chunk;
    t->cur = t->chunks[chunk] + size;
    t->cur_free = chunk_size - size;
    return (chunk + 1) << REF_OFFSET_BITS;
}

/* Allocate a group of `size` bytes (a multiple of 8); its reference. */
static inline uint32
arena_alloc(TupleHashTable *t, Size size)
{
    uint32 ref;

    t->group_bytes += size;
    if (likely(size <= t->cur_free && t->cur != NULL)) {
        Size offset = (Size)(t->cur - t->chunks[t->cur_chunk]);

        ref = ((t->cur_chunk + 1) << REF_OFFSET_BITS) | (uint32)(offset >> 3);
        t->cur += size;
        t->cur_free -= size;
        return ref;
    }
    return arena_alloc_slow(t, size);
}

static void
arena_reset(TupleHashTable *t)
{
    tdb_mcxt_reset(t->arena_cxt);
    t->nchunks = 0;
    t->cur = NULL;
    t->cur_free = 0;
    t->next_chunk_size = ARENA_MIN_CHUNK;
    t->group_bytes = 0;
}

/* ---------- key encoding ---------- */

static inline bool
bitmap_is_null(const char *bitmap, int col)
{
    return (bitmap[col >> 3] >> (col & 7)) & 1;
}

/* Store a by-value or fixed-width by-reference value at dst. */
static inline void
store_fixed(char *dst, const TupleHashKeyColumn *col, Datum value)
{
    if (!col->typbyval) {
        memcpy(dst, DatumGetPointer(value), (Size)col->typlen);
        return;
    }
    switch (col->typlen) {
    case 1: {
        uint8 v = (uint8)value;
        memcpy(dst, &v, 1);
        break;
    }
    case 2: {
        uint16 v = (uint16)value;
        memcpy(dst, &v, 2);
        break;
    }
    case 4: {
        uint32 v = (uint32)value;
        memcpy(dst, &v, 4);
        break;
    }
    default: {
        uint64 v = (uint64)value;
        memcpy(dst, &v, 8);
        break;
    }
    }
}

/* The Datum of a fixed-width value stored at src (inverse of store_fixed). */
static inline Datum
fetch_fixed(const char *src, const TupleHashKeyColumn *col)
{
    if (!col->typbyval)
        return PointerGetDatum(src);
    switch (col->typlen) {
    case 1: {
        int8 v;
        memcpy(&v, src, 1);
        return (Datum)(int64)v;
    }
    case 2: {
        int16 v;
        memcpy(&v, src, 2);
        return (Datum)(int64)v;
    }
    case 4: {
        int32 v;
        memcpy(&v, src, 4);
        return (Datum)(int64)v;
    }
    default: {
        int64 v;
        memcpy(&v, src, 8);
        return (Datum)v;
    }
    }
}

static void
ensure_probe(TupleHashTable *t, Size len)
{
    if (len <= t->probe_capacity)
        return;
    if (len > MaxAllocSize)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("grouping key too large"));
    t->probe = tdb_repalloc(t->probe, MAXALIGN(len));
    t->probe_capacity = MAXALIGN(len);
}

static void
check_varlena_inline(const void *v)
{
    if (VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v))
        elog(ERROR, "tuple hash key values must be detoasted");
}

/* Bytes of a varlena value once re-headed: 1-byte header or 4-byte. */
static inline Size
varlena_stored_size(Size payload)
{
    return payload <= SHORT_PAYLOAD_MAX ? payload + VARHDRSZ_SHORT
                                        : payload + VARHDRSZ;
}

/* Offset where a column's value starts when the previous ended at off. */
static inline Size
general_align(const TupleHashKeyColumn *col, Size off, Size payload)
{
    if (col->typlen == -1 && payload <= SHORT_PAYLOAD_MAX)
        return off; /* 1-byte headers are not aligned */
    return TYPEALIGN(col->typalign, off);
}

/* Encode the probe key into t->probe in the bare format. */
static void
encode_bare(TupleHashTable *t, const Datum *values, const bool *isnull)
{
    char *p = t->probe;

    if (t->single_int_key && (isnull == NULL || !isnull[0])) {
        /* one NOT NULL 4- or 8-byte by-value column: the value itself */
        if (t->bare_len == 4) {
            uint32 v = (uint32)values[0];

            memcpy(p, &v, 4);
        } else {
            uint64 v = (uint64)values[0];

            memcpy(p, &v, 8);
        }
        t->probe_len = t->bare_len;
        return;
    }
    if (t->may_have_nulls)
        memset(p, 0, t->bare_len);
    for (int c = 0; c < t->ncols; c++) {
        if (isnull != NULL && isnull[c]) {
            if (!t->may_have_nulls)
                elog(ERROR, "NULL in a NOT NULL tuple hash key column");
            p[c >> 3] |= (char)(1 << (c & 7));
            continue;
        }
        store_fixed(p + t->bare_offsets[c], &t->cols[c], values[c]);
    }
    t->probe_len = t->bare_len;
}

/* Encode the probe key into t->probe in the general format. */
static void
encode_general(TupleHashTable *t, const Datum *values, const bool *isnull)
{
    Size len = GENERAL_HDR + t->nullbitmap_len;
    char *p;

    /* pass 1: the length */
    for (int c = 0; c < t->ncols; c++) {
        const TupleHashKeyColumn *col = &t->cols[c];
        Size payload = 0;

        if (isnull != NULL && isnull[c])
            continue;
        if (col->typlen == -1) {
            check_varlena_inline(DatumGetPointer(values[c]));
            payload = VARSIZE_ANY_EXHDR(DatumGetPointer(values[c]));
            len =
                general_align(col, len, payload) + varlena_stored_size(payload);
        } else {
            len = general_align(col, len, 0) + (Size)col->typlen;
        }
    }
    if (len > MaxAllocSize)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("grouping key too large"));
    ensure_probe(t, len);
    p = t->probe;
    memset(p, 0, len);
    {
        uint32 len32 = (uint32)len;
        memcpy(p, &len32, sizeof(len32));
    }

    /* pass 2: the bytes */
    len = GENERAL_HDR + t->nullbitmap_len;
    for (int c = 0; c < t->ncols; c++) {
        const TupleHashKeyColumn *col = &t->cols[c];

        if (isnull != NULL && isnull[c]) {
            p[GENERAL_HDR + (c >> 3)] |= (char)(1 << (c & 7));
            continue;
        }
        if (col->typlen == -1) {
            const void *v = DatumGetPointer(values[c]);
            Size payload = VARSIZE_ANY_EXHDR(v);

            len = general_align(col, len, payload);
            if (payload <= SHORT_PAYLOAD_MAX) {
                SET_VARSIZE_SHORT(p + len, payload + VARHDRSZ_SHORT);
                memcpy(p + len + VARHDRSZ_SHORT, VARDATA_ANY(v), payload);
            } else {
                SET_VARSIZE(p + len, payload + VARHDRSZ);
                memcpy(p + len + VARHDRSZ, VARDATA_ANY(v), payload);
            }
            len += varlena_stored_size(payload);
        } else {
            len = general_align(col, len, 0);
            store_fixed(p + len, col, values[c]);
            len += (Size)col->typlen;
        }
    }
    t->probe_len = (uint32)len;
}

/*
 * Walk to the next value of a general-format key: `off` (in/out) is the
 * end of the previous value; returns the value's Datum and advances past
 * it.  A varlena at an unaligned offset starts there when its first byte
 * is non-zero (a 1-byte header is always odd); a zero byte is padding
 * before a 4-byte header.
 */
static inline Datum
general_next_value(const char *key, const TupleHashKeyColumn *col, Size *off)
{
    Size o = *off;

    if (col->typlen == -1) {
        if (o != TYPEALIGN(col->typalign, o) && key[o] == 0)
            o = TYPEALIGN(col->typalign, o);
        *off = o + VARSIZE_ANY(key + o);
        return PointerGetDatum(key + o);
    }
    o = TYPEALIGN(col->typalign, o);
    *off = o + (Size)col->typlen;
    return fetch_fixed(key + o, col);
}

/* Equality of two non-NULL values of one column stored in the encoding. */
static bool
column_values_equal(const TupleHashKeyColumn *col, Datum a, Datum b)
{
    if (col->equal != NULL)
        return col->equal(a, b, col->equal_arg);
    if (col->typlen == -1) {
        const void *va = DatumGetPointer(a), *vb = DatumGetPointer(b);
        Size la = VARSIZE_ANY_EXHDR(va);

        return la == VARSIZE_ANY_EXHDR(vb) &&
               memcmp(VARDATA_ANY(va), VARDATA_ANY(vb), la) == 0;
    }
    if (col->typbyval)
        return a == b;
    return memcmp(DatumGetPointer(a), DatumGetPointer(b), (Size)col->typlen) ==
           0;
}

/* General format with some column compared by its equality function. */
static bool
general_equal_by_column(const TupleHashTable *t, const char *a, const char *b)
{
    Size off_a = GENERAL_HDR + t->nullbitmap_len;
    Size off_b = off_a;

    if (memcmp(a + GENERAL_HDR, b + GENERAL_HDR, t->nullbitmap_len) != 0)
        return false;
    for (int c = 0; c < t->ncols; c++) {
        const TupleHashKeyColumn *col = &t->cols[c];
        Datum va, vb;

        if (bitmap_is_null(a + GENERAL_HDR, c))
            continue;
        va = general_next_value(a, col, &off_a);
        vb = general_next_value(b, col, &off_b);
        if (!column_values_equal(col, va, vb))
            return false;
    }
    return true;
}

/* Is the stored key `stored` equal to the encoded probe key? */
static inline bool
key_equal(const TupleHashTable *t, const char *stored)
{
    const char *probe = t->probe;

    if (t->bare) {
        if (t->bare_len == 4)
            return *(const uint32 *)stored == *(const uint32 *)probe;
        if (t->bare_len == 8)
            return *(const uint64 *)stored == *(const uint64 *)probe;
        return memcmp(stored, probe, t->bare_len) == 0;
    }
    if (*(const uint32 *)stored != t->probe_len)
        return t->bitwise ? false : general_equal_by_column(t, stored, probe);
    if (t->bitwise)
        return memcmp(stored + GENERAL_HDR, probe + GENERAL_HDR,
                      t->probe_len - GENERAL_HDR) == 0;
    return general_equal_by_column(t, stored, probe);
}

/* ---------- buckets ---------- */

static void
buckets_allocate(TupleHashTable *t, uint64 nbuckets)
{
    t->buckets = tdb_mcxt_alloc_extended(
        t->cxt, tdb_mcxt_array_size(nbuckets, sizeof(TupleHashBucket)),
        MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
    t->nbuckets = nbuckets;
    t->grow_at = nbuckets / 4 * 3;
    t->alloc_events++;
}

/* Double the bucket array, re-inserting by the stored hashes. */
static void
buckets_grow(TupleHashTable *t)
{
    TupleHashBucket *old = t->buckets;
    uint64 old_n = t->nbuckets;
    uint64 mask;

    if (old_n >= MAX_BUCKETS)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("hash table size exceeded"));
    buckets_allocate(t, old_n * 2);
    mask = t->nbuckets - 1;
    for (uint64 i = 0; i < old_n; i++) {
        uint64 j;

        if (old[i].ref == 0)
            continue;
        j = old[i].hash & mask;
        while (t->buckets[j].ref != 0)
            j = (j + 1) & mask;
        t->buckets[j] = old[i];
    }
    tdb_pfree(old);
}

/* ---------- the API ---------- */

/* Choose the key format and the bare offsets. */
static void
setup_key_format(TupleHashTable *t)
{
    bool all_fixed = true;
    Size off;

    t->bitwise = true;
    for (int c = 0; c < t->ncols; c++) {
        const TupleHashKeyColumn *col = &t->cols[c];

        if (col->typlen == -1)
            all_fixed = false;
        else if (col->typlen <= 0 ||
                 (col->typbyval && col->typlen != 1 && col->typlen != 2 &&
                  col->typlen != 4 && col->typlen != 8))
            elog(ERROR, "unsupported tuple hash key column (typlen %d)",
                 col->typlen);
        if (col->typalign != 1 && col->typalign != 2 && col->typalign != 4 &&
            col->typalign != 8)
            elog(ERROR, "bad tuple hash key alignment %d", col->typalign);
        if (col->equal != NULL)
            t->bitwise = false;
    }
    t->nullbitmap_len = (uint32)((t->ncols + 7) / 8);
    t->bare = all_fixed && t->bitwise;
    if (!t->bare)
        return;

    /* bare: the null bitmap if any column may be NULL, then the values */
    t->may_have_nulls = false;
    for (int c = 0; c < t->ncols; c++)
        if (!t->cols[c].not_null)
            t->may_have_nulls = true;
    off = t->may_have_nulls ? t->nullbitmap_len : 0;
    t->bare_offsets = tdb_mcxt_alloc(
        t->cxt, tdb_mcxt_array_size((Size)Max(t->ncols, 1), sizeof(uint32)));
    for (int c = 0; c < t->ncols; c++) {
        off = TYPEALIGN(t->cols[c].typalign, off);
        t->bare_offsets[c] = (uint32)off;
        off += (Size)t->cols[c].typlen;
    }
    t->bare_len = (uint32)off;
    t->single_int_key = t->ncols == 1 && !t->may_have_nulls &&
                        t->cols[0].typbyval &&
                        (t->bare_len == 4 || t->bare_len == 8);
}

TupleHashTable *
tdb_tuplehash_create(const TupleHashKeyColumn *cols, int ncols, Size state_size,
                     Size nbuckets_hint, MemoryContext parent)
{
    MemoryContext cxt =
        tdb_aset_create(parent, "tuple hash table", ALLOCSET_SMALL_SIZES);
    TupleHashTable *t = tdb_mcxt_alloc_zero(cxt, sizeof(TupleHashTable));
    uint64 nbuckets;

    t->cxt = cxt;
    t->arena_cxt =
        tdb_bump_create(cxt, "tuple hash groups", ALLOCSET_DEFAULT_SIZES);
    t->max_chunk_size = ARENA_MAX_CHUNK;
    t->ncols = ncols;
    t->cols =
        tdb_mcxt_alloc(cxt, tdb_mcxt_array_size((Size)Max(ncols, 1),
                                                sizeof(TupleHashKeyColumn)));
    if (ncols > 0)
        memcpy(t->cols, cols, (Size)ncols * sizeof(TupleHashKeyColumn));
    setup_key_format(t);
    t->state_space = MAXALIGN(state_size);

    t->probe_capacity = MAXALIGN(Max(t->bare ? t->bare_len : 64, 8));
    /* zeroed: a bare key's padding is never written, so it stays zero */
    t->probe = tdb_mcxt_alloc_zero(cxt, t->probe_capacity);

    t->chunks_capacity = 16;
    t->chunks = tdb_mcxt_alloc(cxt, 16 * sizeof(char *));
    t->chunk_used = tdb_mcxt_alloc(cxt, 16 * sizeof(Size));
    arena_reset(t);

    /* room for the hinted groups without growing */
    nbuckets = MIN_BUCKETS;
    while (nbuckets < MAX_BUCKETS && nbuckets / 4 * 3 < nbuckets_hint)
        nbuckets *= 2;
    t->initial_nbuckets = nbuckets;
    buckets_allocate(t, nbuckets);
    return t;
}

void
tdb_tuplehash_destroy(TupleHashTable *table)
{
    tdb_mcxt_delete(table->cxt);
}

/* Make a group for the encoded probe key; its reference. */
static uint32
new_group(TupleHashTable *t)
{
    Size key_space = MAXALIGN(t->probe_len);
    /* never 0 bytes: a group must start inside its chunk */
    uint32 ref =
        arena_alloc(t, Max(t->state_space + key_space, MAXIMUM_ALIGNOF));
    char *g = ref_to_group(t, ref);

    if (t->state_space <= 32) {
        /* small states (one or two aggregates): a few stores, no call */
        for (Size i = 0; i < t->state_space; i += 8)
            memset(g + i, 0, 8);
    } else
        memset(g, 0, t->state_space);
    if (t->bare && key_space == 8) {
        /* the probe's padding is zero (never written): copy it along */
        memcpy(g + t->state_space, t->probe, 8);
        return ref;
    }
    memcpy(g + t->state_space, t->probe, t->probe_len);
    if (key_space > t->probe_len)
        memset(g + t->state_space + t->probe_len, 0, key_space - t->probe_len);
    return ref;
}

/*
 * Probe for the encoded key.  Returns the group (its state), or NULL with
 * *empty set to the empty bucket that ends the probe.
 */
static inline void *
probe(TupleHashTable *t, uint32 hash, uint64 *empty)
{
    uint64 mask = t->nbuckets - 1;
    uint64 i = hash & mask;

    for (;;) {
        const TupleHashBucket *b = &t->buckets[i];

        if (b->ref == 0) {
            *empty = i;
            return NULL;
        }
        if (b->hash == hash) {
            char *g = ref_to_group(t, b->ref);

            if (key_equal(t, g + t->state_space))
                return g;
        }
        i = (i + 1) & mask;
    }
}

static inline void
encode_probe(TupleHashTable *t, const Datum *values, const bool *isnull)
{
    if (t->bare)
        encode_bare(t, values, isnull);
    else
        encode_general(t, values, isnull);
}

void *
tdb_tuplehash_lookup_or_insert(TupleHashTable *t, const Datum *values,
                               const bool *isnull, uint32 hash, bool *is_new)
{
    uint64 empty = 0;
    void *g;

    encode_probe(t, values, isnull);
    g = probe(t, hash, &empty);
    if (g != NULL) {
        *is_new = false;
        return g;
    }
    if (t->ngroups + 1 > t->grow_at) {
        uint64 mask;

        buckets_grow(t);
        mask = t->nbuckets - 1;
        empty = hash & mask;
        while (t->buckets[empty].ref != 0)
            empty = (empty + 1) & mask;
    }
    t->buckets[empty].ref = new_group(t);
    t->buckets[empty].hash = hash;
    t->ngroups++;
    *is_new = true;
    return ref_to_group(t, t->buckets[empty].ref);
}

void *
tdb_tuplehash_lookup(TupleHashTable *t, const Datum *values, const bool *isnull,
                     uint32 hash)
{
    uint64 empty = 0;

    encode_probe(t, values, isnull);
    return probe(t, hash, &empty);
}

void
tdb_tuplehash_group_key(TupleHashTable *t, const void *state, Datum *values,
                        bool *isnull)
{
    const char *key = (const char *)state + t->state_space;

    if (t->bare) {
        for (int c = 0; c < t->ncols; c++) {
            isnull[c] = t->may_have_nulls && bitmap_is_null(key, c);
            values[c] =
                isnull[c] ? (Datum)0
                          : fetch_fixed(key + t->bare_offsets[c], &t->cols[c]);
        }
        return;
    }
    {
        Size off = GENERAL_HDR + t->nullbitmap_len;

        for (int c = 0; c < t->ncols; c++) {
            isnull[c] = bitmap_is_null(key + GENERAL_HDR, c);
            values[c] = isnull[c] ? (Datum)0
                                  : general_next_value(key, &t->cols[c], &off);
        }
    }
}

/* Bytes the group at g takes in the arena (as new_group allocated it). */
static inline Size
group_space(const TupleHashTable *t, const char *g)
{
    Size key_len;

    if (t->bare)
        key_len = t->bare_len;
    else /* the general format's length word */
        key_len = *(const uint32 *)(g + t->state_space);
    return Max(t->state_space + MAXALIGN(key_len), MAXIMUM_ALIGNOF);
}

/*
 * Iteration walks the arena, not the buckets: chunk by chunk, group after
 * group, in the order the groups were created.  Walking the buckets
 * visits the groups in hash order -- a cache miss per group once the
 * table outgrows the cache (a third of a 10M-group aggregation's time
 * went there); the arena is read sequentially.
 */
void
tdb_tuplehash_iter_start(TupleHashTable *t, TupleHashIterator *it)
{
    (void)t;
    it->chunk = 0;
    it->offset = 0;
}

void *
tdb_tuplehash_iter_next(TupleHashTable *t, TupleHashIterator *it)
{
    while (it->chunk < t->nchunks) {
        Size used = t->cur != NULL && it->chunk == t->cur_chunk
                        ? (Size)(t->cur - t->chunks[it->chunk])
                        : t->chunk_used[it->chunk];

        if (it->offset < used) {
            char *g = t->chunks[it->chunk] + it->offset;

            it->offset += group_space(t, g);
            return g;
        }
        it->chunk++;
        it->offset = 0;
    }
    return NULL;
}

void
tdb_tuplehash_reset(TupleHashTable *t)
{
    arena_reset(t);
    tdb_pfree(t->buckets);
    buckets_allocate(t, t->initial_nbuckets);
    t->ngroups = 0;
}

uint64
tdb_tuplehash_ngroups(const TupleHashTable *t)
{
    return t->ngroups;
}

uint64
tdb_tuplehash_nbuckets(const TupleHashTable *t)
{
    return t->nbuckets;
}

Size
tdb_tuplehash_mem_allocated(const TupleHashTable *t)
{
    return tdb_mcxt_mem_allocated(t->cxt, true);
}

void
tdb_tuplehash_set_max_chunk_size(TupleHashTable *t, Size size)
{
    Size chunk = ARENA_MIN_CHUNK;

    while (chunk * 2 <= size && chunk < ARENA_MAX_CHUNK)
        chunk *= 2;
    if (t->ngroups != 0)
        elog(ERROR, "the arena's chunk size is set before the first group");
    /* the Bump context's blocks must not outgrow the chunks either */
    tdb_mcxt_delete(t->arena_cxt);
    t->arena_cxt =
        tdb_bump_create(t->cxt, "tuple hash groups", ALLOCSET_DEFAULT_MINSIZE,
                        ALLOCSET_DEFAULT_INITSIZE, chunk);
    arena_reset(t);
    t->max_chunk_size = chunk;
    t->next_chunk_size = Min(t->next_chunk_size, chunk);
}

Size
tdb_tuplehash_grow_bytes(const TupleHashTable *t)
{
    if (t->ngroups + 1 <= t->grow_at)
        return 0;
    return (Size)tdb_mcxt_array_size(t->nbuckets * 2, sizeof(TupleHashBucket));
}

uint64
tdb_tuplehash_alloc_events(const TupleHashTable *t)
{
    return t->alloc_events;
}

Size
tdb_tuplehash_group_bytes(const TupleHashTable *t)
{
    return t->group_bytes;
}

bool
tdb_tuplehash_key_is_bare(const TupleHashTable *t)
{
    return t->bare;
}
