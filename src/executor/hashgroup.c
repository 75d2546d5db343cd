/*
 * hashgroup.c -- grouping rows in the compact tuple hash table, spilling
 * to disk past the memory limit (interface and the consumer's loop in
 * hashgroup.h).
 *
 * Keys.  A row's key columns are hashed with their types' hash functions
 * (TypeSupport.hash), combined as PostgreSQL does -- rotate the running
 * hash left by one, XOR the column's hash, a NULL column adding only the
 * rotation -- and finished with murmurhash32's mixer, so the table's low
 * bits (its bucket) and high bits (the spill partition) are both well
 * spread.  Key columns whose equality is "same bytes" are compared by the
 * table bytewise -- one load or memcmp, no deforming -- and the others
 * through their "=" operator, because equal values may differ in bytes:
 *
 *   numeric    1.0 = 1.00 (different scales)
 *   float4/8   -0 = 0, and every NaN equals every other
 *   interval   '1 day' = '24 hours'
 *   bpchar     trailing spaces do not count
 *   name       bytes after the terminating NUL are not compared
 *   others     not known to be bytewise: the operator, to be safe
 *
 * The bytewise types (tdb_hashgroup_type_is_bytewise, the one list, which
 * hashed subplans use too) are those whose "=" compares the whole datum:
 * bool, "char", int2/4/8, oid and the reg* types, date, time,
 * timestamp[tz], uuid, bytea, text and varchar (tupledb's collations are
 * all deterministic).  Keeping the list explicit means a new type is
 * correct (if slower) until someone checks.
 *
 * The limit.  hash_mem = work_mem x hash_mem_multiplier.  Memory counted
 * against it: the table's contexts (buckets, group arena, scratch) and the
 * consumer's extra context (by-reference transition values, per-group
 * sorters).  It is checked when a group is created, as PostgreSQL does
 * (existing groups cannot be pushed out, so only a new group can be
 * refused), and includes the bucket array the next new group would
 * double -- so the table never grows past the limit by a doubling.  When
 * the planner expects to spill, the limit leaves room for the partitions'
 * write buffers (but never goes below 3/4 of hash_mem).  Passing it
 * enters spill mode; at least one group is always admitted, so every
 * batch makes progress.
 *
 * Partitions.  Entering spill mode picks 2^k partitions (k >= 2) so that
 * each is expected to fit (1.5 x estimated groups x bytes per group /
 * limit), at most 1024 and at most what a quarter of hash_mem of 8 kB
 * write buffers allows -- PostgreSQL's rule.  A row's partition is taken
 * from the hash bits below those earlier levels used: level 0 the top k
 * bits, its partitions' spills the next bits, and so on.  Spill record:
 * [uint32 hash][the row as a MinimalTuple], so a re-read row is never
 * re-hashed.  The files are temporary files (storage/tempfile.h) in a
 * context of the grouping: an error or a cancel, which deletes the
 * executor's memory, removes them; a finished batch's file is removed at
 * once.  If no hash bits are left (32 used), the batch cannot spill and
 * its table may pass the limit.
 *
 * Batches.  When a batch's input ends, its partitions that got rows are
 * pushed on a stack of pending batches (LIFO, like PostgreSQL), each with
 * the number of hash bits already used and its row count (an upper
 * bound of its groups, for choosing its own partitions if it spills).
 * EXPLAIN ANALYZE's Batches counts the first batch and every batch read
 * back; Memory Usage is the peak of the counted memory; Disk Usage the
 * peak of the spill files' bytes on disk at one time.
 */
#include "common/base.h"

#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/exec_int.h"
#include "executor/hashgroup.h"
#include "executor/tuplehash.h"
#include "storage/tempfile.h"
#include "toast/detoast.h"
#include "tuple/heaptuple.h"
#include "tuple/varlena.h"
#include "types/hashfn.h"

#define SPILL_BUFFER_SIZE 8192 /* a partition file's write buffer */
#define MIN_PARTITIONS 4
#define MAX_PARTITIONS 1024
#define PARTITION_FACTOR 1.5        /* room to spare when sizing partitions */
#define TMP_RESET_BYTES (64 * 1024) /* tmp_cxt is reset past this */

/* The "=" of one key column whose equality is not bytewise. */
typedef struct KeyEquality {
    PGFunction fn;
    FunctionCallInfoData fcinfo;
} KeyEquality;

/*
 * How a key column is hashed.  The hash only has to agree with itself
 * (one table, one set of key types; spilled rows keep theirs), so types
 * with bytewise equality hash their bytes inline -- no function call --
 * and the rest call the type's hash function.
 */
typedef enum KeyHashKind {
    KEY_HASH_BYVAL,   /* bytewise, by value: the Datum's bits */
    KEY_HASH_BYTES,   /* bytewise, fixed width by reference: its bytes */
    KEY_HASH_VARLENA, /* bytewise varlena: the payload's bytes */
    KEY_HASH_FUNCTION /* TypeSupport.hash */
} KeyHashKind;

/* A spilled partition waiting to be read back as a batch. */
typedef struct PendingBatch {
    TempFile *file;
    int used_bits; /* hash bits its rows share (from the top) */
    uint64 rows;
} PendingBatch;

struct HashGrouping {
    EState *estate;
    MemoryContext cxt;        /* "HashGrouping": this, keys, buffers */
    MemoryContext tmp_cxt;    /* hashing/equality calls, spilled-row forming */
    MemoryContext spill_cxt;  /* the temporary files and their buffers */
    MemoryContext extra_mcxt; /* the consumer's, counted */
    TupleDesc input_desc;
    int nkeys;
    int *key_cols;
    int deform_natts; /* columns to deform at once per row */
    KeyHashKind *hash_kinds;
    PGFunction *hash_fns; /* KEY_HASH_FUNCTION: the type's */
    FunctionCallInfoData hash_fcinfo;
    bool may_allocate; /* some hash/equality call may allocate, or a
                        * key is detoasted (pinned in tmp_cxt) */
    bool *key_varlena; /* the key column's values may be toasted */
    Datum *key_values; /* the current row's key */
    bool *key_nulls;
    Datum *group_values; /* a group's key (next_group) */
    bool *group_nulls;
    TupleHashTable *table;
    Size state_size;
    /* one key column: its NULL group, kept beside the table so the table's
     * keys need no null bitmap (a bare int4 key is 4 bytes, one compare) */
    bool null_aside;
    char *null_group;         /* state_size bytes */
    bool null_group_used;     /* exists in this batch */
    bool null_group_returned; /* next_group handed it out */
    uint64 seen_alloc_events; /* the table's, at the last limit check */
    Size table_mem;           /* its memory then */
    double est_groups;
    double est_input_rows;

    /* the limit */
    bool spill_allowed; /* the consumer's choice */
    bool can_spill;     /* this batch may still spill */
    Size hash_mem;      /* work_mem x hash_mem_multiplier */
    Size mem_limit;     /* what the table may hold in this batch */

    /* the current batch */
    int used_bits;        /* hash bits fixed for this batch's rows */
    uint64 batch_rows;    /* estimate for partitioning (later batches) */
    TempFile *batch_file; /* the batch's input (NULL: the child) */
    bool input_done;
    bool iterating;
    TupleHashIterator iter;
    TupleTableSlot *read_slot; /* a minimal slot over read_buf */
    char *read_buf;
    Size read_capacity;
    uint32 read_hash; /* the hash stored with the row read */

    /* spill mode of the current batch */
    bool spilling;
    int npartitions; /* 0 until spill mode */
    int partition_shift;
    TempFile **partitions;
    uint64 *partition_rows;

    /* pending batches (a stack) */
    PendingBatch *pending;
    int npending, pending_capacity;

    /* statistics */
    int batches_used;
    Size mem_peak;
    uint64 disk_peak;
};

/* ---------- keys ---------- */

/* The list: see the header comment ("Keys"). */
bool
tdb_hashgroup_type_is_bytewise(Oid type)
{
    switch (type) {
    case BOOLOID:
    case CHAROID:
    case INT2OID:
    case INT4OID:
    case INT8OID:
    case OIDOID:
    case REGCLASSOID:
    case REGTYPEOID:
    case REGNAMESPACEOID:
    case DATEOID:
    case TIMEOID:
    case TIMESTAMPOID:
    case TIMESTAMPTZOID:
    case UUIDOID:
    case BYTEAOID:
    case TEXTOID: /* the C collation */
    case VARCHAROID:
        return true;
    default:
        return false;
    }
}

static bool
key_equal_by_operator(Datum a, Datum b, void *arg)
{
    KeyEquality *eq = arg;

    eq->fcinfo.nargs = 2;
    eq->fcinfo.isnull = false;
    eq->fcinfo.args[0].value = a;
    eq->fcinfo.args[0].isnull = false;
    eq->fcinfo.args[1].value = b;
    eq->fcinfo.args[1].isnull = false;
    return DatumGetBool(eq->fn(&eq->fcinfo));
}

/* The table's description of key column k. */
static void
describe_key_column(HashGrouping *hg, const HashGroupingSpec *spec, int k,
                    TupleHashKeyColumn *col)
{
    TupleAttr *att = TupleDescAttr(spec->input_desc, spec->key_cols[k] - 1);
    const TypeSupport *support = tdb_type_support(att->atttypid);

    if (support == NULL || support->hash == NULL)
        elog(ERROR, "no hash function for type %u", att->atttypid);
    if (att->attlen < 0 && att->attlen != -1)
        elog(ERROR, "cannot hash a value of type %u", att->atttypid);
    hg->hash_fns[k] = support->hash;
    memset(col, 0, sizeof(*col));
    col->typlen = att->attlen;
    col->typbyval = att->attbyval;
    col->typalign = (uint8)tdb_typalign_to_alignby(att->attalign);
    if (!tdb_hashgroup_type_is_bytewise(att->atttypid))
        hg->hash_kinds[k] = KEY_HASH_FUNCTION;
    else if (att->attbyval)
        hg->hash_kinds[k] = KEY_HASH_BYVAL;
    else
        hg->hash_kinds[k] = att->attlen > 0 ? KEY_HASH_BYTES : KEY_HASH_VARLENA;
    if (!tdb_hashgroup_type_is_bytewise(att->atttypid)) {
        KeyEquality *eq = tdb_palloc0(sizeof(KeyEquality));

        eq->fn = spec->eq_ops[k] != NULL ? spec->eq_ops[k]->fn : support->eq;
        if (eq->fn == NULL)
            elog(ERROR, "no equality function for type %u", att->atttypid);
        col->equal = key_equal_by_operator;
        col->equal_arg = eq;
        hg->may_allocate = true;
    }
}

/*
 * Hash of a byte string for keys compared bytewise: eight bytes per step
 * (a multiply, a rotate, a multiply folded into the running value, in
 * the manner of murmur3's 64-bit body), about one instruction per byte
 * where the Jenkins hash behind hashtext takes several -- the cost that
 * dominates grouping by long text keys.  Only equal bytes must hash
 * alike here (one table, hashes stored with spilled rows), so it need
 * not agree with PostgreSQL's hash functions.
 */
static uint32
hash_key_bytes(const char *p, Size len)
{
    const uint64 c1 = 0x87c37b91114253d5ULL, c2 = 0x4cf5ad432745937fULL;
    uint64 h = 0x9e3779b97f4a7c15ULL ^ ((uint64)len * c1);
    uint64 tail = 0;

    for (; len >= 8; len -= 8, p += 8) {
        uint64 w;

        memcpy(&w, p, 8);
        w *= c1;
        w = (w << 31) | (w >> 33);
        h ^= w * c2;
        h = ((h << 27) | (h >> 37)) * 5 + 0x52dce729;
    }
    if (len > 0) {
        memcpy(&tail, p, len);
        tail *= c1;
        tail = (tail << 31) | (tail >> 33);
        h ^= tail * c2;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return (uint32)h ^ (uint32)(h >> 32);
}

/* Hash of one non-NULL key value. */
static inline uint32
hash_key_value(HashGrouping *hg, int k, Datum value)
{
    switch (hg->hash_kinds[k]) {
    case KEY_HASH_BYVAL:
        return (uint32)value ^ (uint32)((uint64)value >> 32);
    case KEY_HASH_BYTES:
        return tdb_hash_bytes(
            DatumGetPointer(value),
            (Size)TupleDescAttr(hg->input_desc, hg->key_cols[k] - 1)->attlen);
    case KEY_HASH_VARLENA: {
        const void *v = DatumGetPointer(value);

        if (VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v))
            elog(ERROR, "hash grouping keys must be detoasted");
        return hash_key_bytes(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v));
    }
    default: {
        FunctionCallInfo fcinfo = &hg->hash_fcinfo;

        fcinfo->nargs = 1;
        fcinfo->isnull = false;
        fcinfo->args[0].value = value;
        fcinfo->args[0].isnull = false;
        return DatumGetUInt32(hg->hash_fns[k](fcinfo));
    }
    }
}

/*
 * The row's key into key_values/key_nulls; returns its hash: per column,
 * rotate left by one and XOR the value's hash (NULL: rotate only), then
 * murmurhash32's mixer.
 */
static inline uint32
hash_row_key(HashGrouping *hg, TupleTableSlot *row)
{
    uint32 h = 0;

    if (row->tts_nvalid < hg->deform_natts)
        tdb_slot_getsomeattrs(row, hg->deform_natts);
    for (int k = 0; k < hg->nkeys; k++) {
        int col = hg->key_cols[k] - 1;

        h = (h << 1) | (h >> 31);
        hg->key_values[k] = row->tts_values[col];
        hg->key_nulls[k] = row->tts_isnull[col];
        if (!hg->key_nulls[k]) {
            /* groups are keyed by contents: a toasted key is detoasted
             * (through the query's cache; pinned in tmp_cxt) */
            if (hg->key_varlena[k])
                hg->key_values[k] = tdb_detoast_datum(hg->key_values[k]);
            h ^= hash_key_value(hg, k, hg->key_values[k]);
        }
    }
    return tdb_murmurhash32(h);
}

/* ---------- memory ---------- */

static Size
counted_memory(const HashGrouping *hg)
{
    Size mem = tdb_tuplehash_mem_allocated(hg->table);

    if (hg->extra_mcxt != NULL)
        mem += tdb_mcxt_mem_allocated(hg->extra_mcxt, true);
    return mem;
}

static void
note_memory_peak(HashGrouping *hg)
{
    Size mem = counted_memory(hg);

    if (mem > hg->mem_peak)
        hg->mem_peak = mem;
}

/* Bytes one group is expected to take (buckets at 3/4 load included). */
static double
bytes_per_group(const HashGrouping *hg)
{
    uint64 ngroups = tdb_tuplehash_ngroups(hg->table);

    if (ngroups > 0)
        return (double)counted_memory(hg) / (double)ngroups;
    return 8.0 / 0.75 + (double)MAXALIGN(hg->state_size) +
           (double)MAXALIGN(8 * hg->nkeys + 8);
}

/*
 * Partitions for spilling groups expected to number est: a power of two
 * of at least MIN_PARTITIONS, limited by MAX_PARTITIONS, by the write
 * buffers a quarter of hash_mem holds, and by the hash bits left.
 * Returns log2 of the count (0: cannot spill).
 */
static int
choose_partition_bits(const HashGrouping *hg, double est)
{
    double wanted = PARTITION_FACTOR * est * bytes_per_group(hg);
    double n = 1 + wanted / (double)Max(hg->mem_limit, 1);
    double by_buffers = (double)(hg->hash_mem / 4) / SPILL_BUFFER_SIZE;
    int bits = 0;

    if (n > by_buffers)
        n = by_buffers;
    if (n < MIN_PARTITIONS)
        n = MIN_PARTITIONS;
    if (n > MAX_PARTITIONS)
        n = MAX_PARTITIONS;
    while ((double)(1 << bits) < n)
        bits++;
    if (hg->used_bits + bits > 32)
        bits = 32 - hg->used_bits;
    return bits;
}

/* Set mem_limit for a batch expected to have est groups. */
static void
set_limit(HashGrouping *hg, double est)
{
    double need = est * bytes_per_group(hg);

    hg->mem_limit = hg->hash_mem;
    if (need > (double)hg->hash_mem) {
        /* leave room for the write buffers of the expected spill */
        int bits = choose_partition_bits(hg, est);
        Size buffers = (Size)SPILL_BUFFER_SIZE << bits;
        Size floor = hg->hash_mem / 4 * 3;

        hg->mem_limit =
            hg->hash_mem > buffers + floor ? hg->hash_mem - buffers : floor;
    }
}

/* ---------- spilling ---------- */

static void
enter_spill_mode(HashGrouping *hg)
{
    /*
     * Groups still to come: a spilled batch has at most its rows; the
     * first batch at most the input's (the planner's group count is a
     * guess -- a tenth of the rows -- and too few partitions cost a
     * recursive pass over every spilled row, too many only buffers)
     */
    double est = hg->batch_file == NULL
                     ? Max(hg->est_groups, hg->est_input_rows)
                     : (double)hg->batch_rows;
    int bits;

    /* the groups still to come: at least as many as are in the table */
    est = Max(est, (double)tdb_tuplehash_ngroups(hg->table));
    bits = choose_partition_bits(hg, est);
    if (bits == 0) {
        hg->can_spill = false; /* no hash bits left: grow instead */
        return;
    }
    hg->spilling = true;
    hg->npartitions = 1 << bits;
    hg->partition_shift = 32 - hg->used_bits - bits;
    hg->partitions = tdb_mcxt_alloc_zero(
        hg->spill_cxt, sizeof(TempFile *) * (Size)hg->npartitions);
    hg->partition_rows = tdb_mcxt_alloc_zero(
        hg->spill_cxt, sizeof(uint64) * (Size)hg->npartitions);
}

/* After a new group: past the limit (or about to be, by the next bucket
 * doubling)?  Then spill from now on. */
static inline void
check_limit(HashGrouping *hg)
{
    uint64 events = tdb_tuplehash_alloc_events(hg->table);
    Size mem;

    /* the table's memory changes only when it allocates */
    if (events != hg->seen_alloc_events) {
        hg->seen_alloc_events = events;
        hg->table_mem = tdb_tuplehash_mem_allocated(hg->table);
    }
    mem = hg->table_mem;
    if (hg->extra_mcxt != NULL)
        mem += tdb_mcxt_mem_allocated(hg->extra_mcxt, true);

    if (mem > hg->mem_peak)
        hg->mem_peak = mem;
    if (mem + tdb_tuplehash_grow_bytes(hg->table) > hg->mem_limit)
        enter_spill_mode(hg);
}

static const char *
temp_dir(const HashGrouping *hg)
{
    return hg->estate->temp_dir != NULL ? hg->estate->temp_dir
                                        : tdb_tempfile_default_dir();
}

/* Write row (hash h) to its partition. */
static void
spill_row(HashGrouping *hg, TupleTableSlot *row, uint32 h)
{
    uint32 p = (uint32)(((uint64)h >> hg->partition_shift) &
                        (uint64)(hg->npartitions - 1));
    MemoryContext old;
    MinimalTuple tup;

    if (hg->partitions[p] == NULL)
        hg->partitions[p] =
            tdb_tempfile_create(hg->spill_cxt, temp_dir(hg), SPILL_BUFFER_SIZE);
    old = tdb_mcxt_switch_to(hg->tmp_cxt);
    /* the record in one write: the hash in the 8 bytes before the tuple */
    tup = tdb_slot_copy_minimal_tuple(row, sizeof(uint64));
    memcpy((char *)tup - sizeof(h), &h, sizeof(h));
    tdb_tempfile_write(hg->partitions[p], (char *)tup - sizeof(h),
                       sizeof(h) + tup->t_len);
    tdb_mcxt_switch_to(old);
    /* the copies go in batches: a reset per row was a visible cost */
    if (tdb_mcxt_mem_allocated(hg->tmp_cxt, false) > TMP_RESET_BYTES)
        tdb_mcxt_reset(hg->tmp_cxt);
    hg->partition_rows[p]++;
}

/* Bytes of every open spill file. */
static uint64
disk_in_use(const HashGrouping *hg)
{
    uint64 bytes = 0;

    if (hg->batch_file != NULL)
        bytes += tdb_tempfile_size(hg->batch_file);
    for (int i = 0; i < hg->npending; i++)
        bytes += tdb_tempfile_size(hg->pending[i].file);
    for (int p = 0; p < hg->npartitions; p++)
        if (hg->partitions[p] != NULL)
            bytes += tdb_tempfile_size(hg->partitions[p]);
    return bytes;
}

static void
push_pending(HashGrouping *hg, TempFile *file, int used_bits, uint64 rows)
{
    if (hg->npending == hg->pending_capacity) {
        int cap = Max(16, hg->pending_capacity * 2);
        PendingBatch *p =
            tdb_mcxt_alloc(hg->cxt, sizeof(PendingBatch) * (Size)cap);

        if (hg->npending > 0)
            memcpy(p, hg->pending, sizeof(PendingBatch) * (Size)hg->npending);
        if (hg->pending != NULL)
            tdb_pfree(hg->pending);
        hg->pending = p;
        hg->pending_capacity = cap;
    }
    hg->pending[hg->npending].file = file;
    hg->pending[hg->npending].used_bits = used_bits;
    hg->pending[hg->npending].rows = rows;
    hg->npending++;
}

/* The batch's input ended: its partitions become pending batches. */
static void
finish_batch_input(HashGrouping *hg)
{
    uint64 disk;

    hg->input_done = true;
    note_memory_peak(hg);
    disk = disk_in_use(hg);
    if (disk > hg->disk_peak)
        hg->disk_peak = disk;
    if (hg->batch_file != NULL) {
        tdb_tempfile_close(hg->batch_file);
        hg->batch_file = NULL;
    }
    if (!hg->spilling)
        return;
    for (int p = 0; p < hg->npartitions; p++)
        if (hg->partitions[p] != NULL)
            push_pending(hg, hg->partitions[p], 32 - hg->partition_shift,
                         hg->partition_rows[p]);
    tdb_pfree(hg->partitions);
    tdb_pfree(hg->partition_rows);
    hg->partitions = NULL;
    hg->partition_rows = NULL;
    hg->npartitions = 0;
    hg->spilling = false;
}

/* Read the next spilled row of the batch into read_slot; false at EOF. */
static bool
read_spilled_row(HashGrouping *hg)
{
    uint32 header[2]; /* hash, then the tuple's t_len */
    Size n = tdb_tempfile_read(hg->batch_file, header, sizeof(header));

    if (n == 0)
        return false;
    if (n != sizeof(header) || header[1] < SizeofMinimalTupleHeader)
        elog(ERROR, "corrupt hash aggregation spill file");
    if (header[1] > hg->read_capacity) {
        Size cap = Max(MAXALIGN(header[1]), hg->read_capacity * 2);

        if (hg->read_buf != NULL)
            tdb_pfree(hg->read_buf);
        hg->read_buf = tdb_mcxt_alloc_extended(hg->cxt, cap, MCXT_ALLOC_HUGE);
        hg->read_capacity = cap;
    }
    memcpy(hg->read_buf, &header[1], sizeof(uint32));
    if (tdb_tempfile_read(hg->batch_file, hg->read_buf + sizeof(uint32),
                          header[1] - sizeof(uint32)) !=
        header[1] - sizeof(uint32))
        elog(ERROR, "corrupt hash aggregation spill file");
    hg->read_hash = header[0];
    tdb_slot_store_minimal_tuple(hg->read_slot, (MinimalTuple)hg->read_buf,
                                 false);
    return true;
}

/* ---------- the API ---------- */

HashGrouping *
tdb_hashgroup_create(const HashGroupingSpec *spec, EState *estate)
{
    HashGrouping *hg = tdb_palloc0(sizeof(HashGrouping));
    TupleHashKeyColumn *cols =
        tdb_palloc0(sizeof(TupleHashKeyColumn) * (Size)Max(1, spec->nkeys));
    double hint;

    hg->estate = estate;
    hg->cxt = tdb_aset_create(tdb_current_mcxt, "HashGrouping",
                              ALLOCSET_DEFAULT_SIZES);
    hg->tmp_cxt = tdb_aset_create(hg->cxt, "HashGrouping temporary",
                                  ALLOCSET_DEFAULT_SIZES);
    hg->spill_cxt = tdb_aset_create(hg->cxt, "HashGrouping spill files",
                                    ALLOCSET_DEFAULT_SIZES);
    hg->extra_mcxt = spec->extra_mcxt;
    hg->input_desc = spec->input_desc;
    hg->nkeys = spec->nkeys;
    hg->key_cols = tdb_palloc(sizeof(int) * (Size)Max(1, spec->nkeys));
    memcpy(hg->key_cols, spec->key_cols, sizeof(int) * (Size)spec->nkeys);
    hg->hash_fns = tdb_palloc(sizeof(PGFunction) * (Size)Max(1, spec->nkeys));
    hg->hash_kinds =
        tdb_palloc(sizeof(KeyHashKind) * (Size)Max(1, spec->nkeys));
    hg->deform_natts = spec->deform_natts;
    hg->key_varlena = tdb_palloc0(sizeof(bool) * (Size)Max(1, spec->nkeys));
    for (int k = 0; k < spec->nkeys; k++) {
        describe_key_column(hg, spec, k, &cols[k]);
        hg->deform_natts = Max(hg->deform_natts, spec->key_cols[k]);
        hg->key_varlena[k] =
            TupleDescAttr(spec->input_desc, spec->key_cols[k] - 1)->attlen ==
            -1;
        if (hg->key_varlena[k])
            hg->may_allocate = true;
    }
    hg->null_aside = spec->nkeys == 1;
    if (hg->null_aside) {
        cols[0].not_null = true;
        hg->null_group = tdb_palloc(MAXALIGN(Max(spec->state_size, 1)));
    }
    hg->key_values = tdb_palloc0(sizeof(Datum) * (Size)Max(1, spec->nkeys));
    hg->key_nulls = tdb_palloc0(sizeof(bool) * (Size)Max(1, spec->nkeys));
    hg->group_values = tdb_palloc0(sizeof(Datum) * (Size)Max(1, spec->nkeys));
    hg->group_nulls = tdb_palloc0(sizeof(bool) * (Size)Max(1, spec->nkeys));
    hg->state_size = spec->state_size;
    hg->est_groups = Max(1.0, spec->est_groups);
    hg->est_input_rows = spec->est_input_rows;
    hg->spill_allowed = spec->can_spill;
    hg->can_spill = spec->can_spill;
    hg->hash_mem =
        (Size)((double)estate->work_mem * 1024.0 * estate->hash_mem_multiplier);
    hg->read_slot = tdb_slot_create(spec->input_desc, &tdb_tts_ops_minimal);

    /* start small: an underestimate only costs doublings */
    hint = Min(hg->est_groups, (double)hg->hash_mem /
                                   (8.0 / 0.75 + MAXALIGN(spec->state_size) +
                                    8.0 * spec->nkeys + 8.0) /
                                   2);
    hg->table = tdb_tuplehash_create(cols, spec->nkeys, spec->state_size,
                                     (Size)Max(hint, 1.0), hg->cxt);
    /* the arena grows in steps of at most 1/16 of the limit */
    if (hg->spill_allowed)
        tdb_tuplehash_set_max_chunk_size(hg->table, hg->hash_mem / 16);
    set_limit(hg, hg->est_groups);
    hg->batches_used = 1;
    return hg;
}

TupleTableSlot *
tdb_hashgroup_next_input(HashGrouping *hg, PlanState *child)
{
    if (hg->input_done)
        return NULL;
    if (hg->batch_file == NULL) {
        TupleTableSlot *row = tdb_exec_proc_node(child);

        if (row == NULL)
            finish_batch_input(hg);
        return row;
    }
    if (!read_spilled_row(hg)) {
        finish_batch_input(hg);
        return NULL;
    }
    return hg->read_slot;
}

/*
 * The key of row (from next_input) into key_values/key_nulls; returns its
 * hash.
 */
static inline uint32
row_key(HashGrouping *hg, TupleTableSlot *row)
{
    if (row == hg->read_slot) {
        /* read back from a spill file: the hash came with it */
        for (int k = 0; k < hg->nkeys; k++) {
            hg->key_values[k] =
                tdb_slot_getattr(row, hg->key_cols[k], &hg->key_nulls[k]);
            if (hg->key_varlena[k] && !hg->key_nulls[k])
                hg->key_values[k] = tdb_detoast_datum(hg->key_values[k]);
        }
        return hg->read_hash;
    }
    return hash_row_key(hg, row);
}

void *
tdb_hashgroup_lookup(HashGrouping *hg, TupleTableSlot *row, bool *is_new)
{
    MemoryContext old = NULL;
    uint32 h;
    void *state;

    if (hg->may_allocate)
        old = tdb_mcxt_switch_to(hg->tmp_cxt);
    h = row_key(hg, row);
    if (hg->null_aside && hg->key_nulls[0]) {
        /* the NULL group: beside the table, never spilled */
        if (old != NULL)
            tdb_mcxt_switch_to(old);
        *is_new = !hg->null_group_used;
        if (*is_new) {
            memset(hg->null_group, 0, hg->state_size);
            hg->null_group_used = true;
        }
        return hg->null_group;
    }
    if (!hg->spilling) {
        state = tdb_tuplehash_lookup_or_insert(hg->table, hg->key_values,
                                               hg->key_nulls, h, is_new);
        if (*is_new && hg->can_spill)
            check_limit(hg);
    } else {
        *is_new = false;
        state =
            tdb_tuplehash_lookup(hg->table, hg->key_values, hg->key_nulls, h);
    }
    if (old != NULL) {
        tdb_mcxt_switch_to(old);
        tdb_mcxt_reset(hg->tmp_cxt);
    }
    if (state == NULL)
        spill_row(hg, row, h);
    return state;
}

void *
tdb_hashgroup_lookup_existing(HashGrouping *hg, TupleTableSlot *row)
{
    MemoryContext old = NULL;
    uint32 h;
    void *state;

    if (hg->may_allocate)
        old = tdb_mcxt_switch_to(hg->tmp_cxt);
    h = row_key(hg, row);
    if (hg->null_aside && hg->key_nulls[0])
        /* the NULL group is never spilled: it exists now or not at all */
        state = hg->null_group_used ? hg->null_group : NULL;
    else
        state =
            tdb_tuplehash_lookup(hg->table, hg->key_values, hg->key_nulls, h);
    if (old != NULL) {
        tdb_mcxt_switch_to(old);
        tdb_mcxt_reset(hg->tmp_cxt);
    }
    /* absent while spilling: its group may be in a partition; absent
     * otherwise: no row that creates groups had its key in this batch */
    if (state == NULL && hg->spilling && !(hg->null_aside && hg->key_nulls[0]))
        spill_row(hg, row, h);
    return state;
}

void *
tdb_hashgroup_next_group(HashGrouping *hg, TupleTableSlot *key_slot)
{
    void *state;

    if (!hg->iterating) {
        tdb_tuplehash_iter_start(hg->table, &hg->iter);
        hg->iterating = true;
        hg->null_group_returned = false;
    }
    state = tdb_tuplehash_iter_next(hg->table, &hg->iter);
    if (state != NULL)
        tdb_tuplehash_group_key(hg->table, state, hg->group_values,
                                hg->group_nulls);
    else if (hg->null_group_used && !hg->null_group_returned) {
        state = hg->null_group;
        hg->null_group_returned = true;
        hg->group_nulls[0] = true;
        hg->group_values[0] = (Datum)0;
    } else
        return NULL;
    /* non-key columns stay NULL from the first group on: only the key
     * columns are rewritten */
    if (tdb_slot_is_empty(key_slot)) {
        memset(key_slot->tts_isnull, true,
               sizeof(bool) * (Size)key_slot->tts_tupleDescriptor->natts);
        tdb_slot_store_virtual(key_slot);
    }
    for (int k = 0; k < hg->nkeys; k++) {
        key_slot->tts_values[hg->key_cols[k] - 1] = hg->group_values[k];
        key_slot->tts_isnull[hg->key_cols[k] - 1] = hg->group_nulls[k];
    }
    return state;
}

bool
tdb_hashgroup_next_batch(HashGrouping *hg)
{
    PendingBatch batch;

    tdb_tuplehash_reset(hg->table);
    hg->iterating = false;
    hg->null_group_used = false;
    if (hg->npending == 0)
        return false;
    batch = hg->pending[--hg->npending];
    hg->batch_file = batch.file;
    hg->used_bits = batch.used_bits;
    hg->batch_rows = batch.rows;
    hg->input_done = false;
    hg->can_spill = hg->spill_allowed;
    hg->batches_used++;
    tdb_tempfile_rewind(hg->batch_file);
    set_limit(hg, (double)batch.rows);
    return true;
}

void
tdb_hashgroup_reset(HashGrouping *hg)
{
    tdb_slot_clear(hg->read_slot);
    tdb_tuplehash_reset(hg->table);
    /* every spill file (pending, partitions, the batch's) goes */
    tdb_mcxt_reset(hg->spill_cxt);
    hg->partitions = NULL;
    hg->partition_rows = NULL;
    hg->npartitions = 0;
    hg->spilling = false;
    hg->npending = 0;
    hg->batch_file = NULL;
    hg->input_done = false;
    hg->iterating = false;
    hg->null_group_used = false;
    hg->used_bits = 0;
    hg->can_spill = hg->spill_allowed;
    hg->batches_used = 1; /* per scan, as EXPLAIN ANALYZE shows it */
    set_limit(hg, hg->est_groups);
}

void
tdb_hashgroup_stats(const HashGrouping *hg, int *batches, int64 *mem_peak_kb,
                    int64 *disk_kb)
{
    *batches = hg->batches_used;
    *mem_peak_kb = (int64)((hg->mem_peak + 1023) / 1024);
    *disk_kb = (int64)((hg->disk_peak + 1023) / 1024);
}
