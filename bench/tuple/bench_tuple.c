/*
 * bench_tuple.c -- tuple-deforming micro-benchmark: tupledb's deformer
 * (src/tuple) against a "textbook" reference deformer kept in this file.
 *
 * A benchmark, never a pass/fail test: it prints figures and exits 0
 * whatever they are (non-zero only for a usage or setup error, or when
 * tupledb and the reference disagree on a value).  bench/tuple/run.sh runs
 * it, takes medians and paired ratios and writes the "Tuple deforming"
 * section of bench/RESULTS.md.  See bench/README.md for how to read it.
 *
 * Shapes (the tables of the pgsql-hackers "Make tuple deformation faster"
 * tests), each 1,000,000 tuples (--tuples) formed with tdb_heap_form_tuple
 * in a Bump context, so they lie back to back in memory as after a scan.
 * Every tuple is formed twice, into two contexts: tupledb deforms copy 0,
 * the reference copy 1, so neither finds in the cache the lines the other
 * has just read.
 *
 *   shape           columns                                   NULLs
 *   fixed16         16 int4                                   none
 *   fixed16_null1   16 int4                                   column 1
 *   text16          text (10-30 bytes, 1-byte header), 15 int4 none
 *   fixed64, fixed64_null1, text64: the same plus 48 int4 after column 16
 *
 * Tuple i holds i + j in int4 column j (1-based); the text is 10-30
 * pseudo-random letters (fixed seed).
 *
 * Operations.  Every one is a pass over the tuples, timed for tupledb
 * ("tdb") and for the reference ("ref"), interleaved (see below):
 *
 *   op            tdb                               ref
 *   full          tdb_heap_deform_tuple (all        ref_heap_deform_some
 *                 columns into values/isnull)       (all columns)
 *   slot_all      tdb_slot_store_heap_tuple +       ref_heap_deform_some
 *                 tdb_slot_getallattrs              (all columns)
 *   getattr N     tdb_heap_getattr(N)               ref_heap_getattr(N):
 *                                                   walk from column 1
 *   slot_getattr  tdb_slot_store_heap_tuple +       ref_heap_deform_some:
 *     N           tdb_slot_getattr(N) (deforms      deform columns 1..N
 *                 columns 1..N)
 *
 * Each pass adds the int4 it fetched last (the last column for a full
 * deform) and the first column's isnull into a checksum; both variants must
 * agree, so neither can be optimised away.  Before timing, an untimed pass
 * compares the full values/isnull arrays of both deformers on every tuple
 * and, on a sample, every single-column fetch.
 *
 * The reference deformer is PostgreSQL's heap_deform_tuple /
 * nocachegetattr as they were before PostgreSQL 18, minus attcacheoff: a
 * 104-byte attribute struct per column (FormData_pg_attribute's fixed
 * part), alignment decided per attribute of every tuple by testing the
 * alignment character (att_align_nominal), a null test per column
 * (att_isnull), the pad-or-short-varlena peek (att_align_pointer), and
 * offsets recomputed from column 1 every time, also for a single column.
 * It is noipa, so it is called like a library function, as tupledb's is.
 *
 * Output: one record per line, whitespace-separated, first word the type:
 *   info <key> <value...>
 *   shape <shape> <natts> <avg t_len> <t_hoff> <avg chunk bytes>
 *   time <shape> <op> <attnum> <round> <variant> <ns_per_tuple> <checksum>
 *       (op "getattr_pos": the fixed64 columns timed all interleaved, for
 *       the position-independence check)
 *   pass <shape> <op> <attnum> <variant> <ntuples>     (--profile)
 *   perf <shape> <op> <attnum> <variant> <ntuples> <passes>   (--perf)
 * attnum is "-" for full and slot_all.
 *
 * Usage:
 *   bench_tuple [--tuples N] [--rounds R] [--slices S] [--repeat K]
 *               [--unit U] [--shape S[,S...]]
 *   bench_tuple --profile [--tuples N] [--shape S[,S...]]
 *   bench_tuple --perf OP[:ATTNUM]:VARIANT --shape S --passes P [--tuples N]
 *   bench_tuple --info
 * A measurement of one variant passes over all the tuples --repeat K times
 * (default 1; ns are per tuple deformed).  The variants take turns every
 * --unit U passes (default 1) over 1/--slices of the tuples (default 16),
 * and which goes first alternates, so both see the same machine speed.
 * With a few dozen tuples and many passes the tuples stay in L1, which
 * takes memory out of the figures: run.sh uses --tuples 48 --repeat 20000
 * --unit 100 --slices 1.
 *
 * --profile runs every pass exactly once per variant, for callgrind: every
 * pass is a function named pass_<op>_<variant>, so
 *   valgrind --tool=callgrind --toggle-collect='pass_*' \
 *       --dump-after=pass_full_tdb --dump-after=pass_full_ref ... \
 *       bench_tuple --profile --tuples 100000
 * (--dump-after takes no wildcard: one per pass function) writes one
 * profile per pass, in the order of the "pass" records; see
 * bench/tuple/profile.sh.
 * --perf runs one operation P times and nothing else timed, for perf stat
 * (run it with --passes 0 too and subtract: building the tuples remains).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base.h"
#include "mmgr/mcxt.h"
#include "tuple/heaptuple.h"
#include "tuple/slot.h"
#include "tuple/tupdesc.h"
#include "tuple/varlena.h"

#include "bench.h"

#define INT4OID ((Oid)23)
#define TEXTOID ((Oid)25)

/* Not inlined, not cloned, not analysed across the call: a reference
 * deformer is called like a library function, and each pass keeps its
 * name for callgrind. */
#define BENCH_OPAQUE __attribute__((noipa))

/* ----------------------------------------------------------------------
 * The reference ("textbook") deformer
 * ---------------------------------------------------------------------- */

/*
 * FormData_pg_attribute's fixed part as of PostgreSQL 17 (104 bytes): what
 * the deform loop walked through, one of these per column, before
 * CompactAttribute.  attcacheoff exists but the reference never uses it.
 */
typedef struct RefAttribute {
    Oid attrelid;
    char attname[NAMEDATALEN];
    Oid atttypid;
    int16 attlen;
    int16 attnum;
    int32 attcacheoff; /* unused: no cached offsets */
    int32 atttypmod;
    int16 attndims;
    bool attbyval;
    char attalign; /* 'c', 's', 'i', 'd' */
    char attstorage;
    char attcompression;
    bool attnotnull;
    bool atthasdef;
    bool atthasmissing;
    char attidentity;
    char attgenerated;
    bool attisdropped;
    bool attislocal;
    int16 attinhcount;
    Oid attcollation;
} RefAttribute;

_Static_assert(sizeof(RefAttribute) == 104,
               "RefAttribute mirrors PostgreSQL 17's 104-byte attribute");

typedef struct RefTupleDesc {
    int natts;
    RefAttribute attrs[FLEXIBLE_ARRAY_MEMBER];
} RefTupleDesc;

/* PostgreSQL 17's att_align_nominal: the alignment character, tested in
 * this order, for every attribute of every tuple. */
static TDB_ALWAYS_INLINE Size
ref_align_nominal(Size off, char attalign)
{
    return attalign == 'i'   ? INTALIGN(off)
           : attalign == 'c' ? off
           : attalign == 'd' ? DOUBLEALIGN(off)
                             : SHORTALIGN(off);
}

/* att_align_pointer for a varlena: a non-zero byte is a 1-byte header and
 * needs no alignment; zero is padding or an aligned 4-byte header. */
static TDB_ALWAYS_INLINE Size
ref_align_pointer(Size off, char attalign, const char *ptr)
{
    return *(const uint8 *)ptr != 0 ? off : ref_align_nominal(off, attalign);
}

/* fetch_att */
static TDB_ALWAYS_INLINE Datum
ref_fetch_att(const char *p, bool attbyval, int attlen)
{
    if (attbyval) {
        if (attlen == (int)sizeof(Datum)) {
            Datum v;

            memcpy(&v, p, sizeof(v));
            return v;
        }
        if (attlen == (int)sizeof(int32)) {
            int32 v;

            memcpy(&v, p, sizeof(v));
            return Int32GetDatum(v);
        }
        if (attlen == (int)sizeof(int16)) {
            int16 v;

            memcpy(&v, p, sizeof(v));
            return Int16GetDatum(v);
        }
        return CharGetDatum(*p);
    }
    return PointerGetDatum(p);
}

/* att_addlength_pointer */
static TDB_ALWAYS_INLINE Size
ref_addlength_pointer(Size off, int attlen, const char *ptr)
{
    if (attlen > 0)
        return off + (Size)attlen;
    if (attlen == -1)
        return off + VARSIZE_ANY(ptr);
    return off + strlen(ptr) + 1;
}

/*
 * heap_deform_tuple before PostgreSQL 18, without attcacheoff: extract the
 * first `natts` columns (all of them for a full deform).  Columns the tuple
 * lacks read as NULL (these tuples have no missing values).
 */
BENCH_OPAQUE static void
ref_heap_deform_some(const HeapTupleData *tuple, const RefTupleDesc *desc,
                     Datum *values, bool *isnull, int natts)
{
    const HeapTupleHeaderData *tup = tuple->t_data;
    bool hasnulls = HeapTupleHeaderHasNulls(tup);
    int tup_natts = HeapTupleHeaderGetNatts(tup);
    const char *tp = (const char *)tup + tup->t_hoff;
    const bits8 *bp = tup->t_bits;
    Size off = 0;
    int attnum;
    int n = natts < tup_natts ? natts : tup_natts;

    for (attnum = 0; attnum < n; attnum++) {
        const RefAttribute *thisatt = &desc->attrs[attnum];

        if (hasnulls && att_isnull(attnum, bp)) {
            values[attnum] = (Datum)0;
            isnull[attnum] = true;
            continue;
        }
        isnull[attnum] = false;
        if (thisatt->attlen == -1)
            off = ref_align_pointer(off, thisatt->attalign, tp + off);
        else
            off = ref_align_nominal(off, thisatt->attalign);
        values[attnum] =
            ref_fetch_att(tp + off, thisatt->attbyval, thisatt->attlen);
        off = ref_addlength_pointer(off, thisatt->attlen, tp + off);
    }
    for (; attnum < natts; attnum++) {
        values[attnum] = (Datum)0;
        isnull[attnum] = true;
    }
}

/*
 * heap_getattr -> fastgetattr -> nocachegetattr before PostgreSQL 18,
 * without attcacheoff: the column's own null bit, then a walk from column
 * 1 that aligns and measures every non-null column before it.
 */
BENCH_OPAQUE static Datum
ref_heap_getattr(const HeapTupleData *tuple, int attnum,
                 const RefTupleDesc *desc, bool *isnull)
{
    const HeapTupleHeaderData *tup = tuple->t_data;
    int target = attnum - 1;
    bool hasnulls = HeapTupleHeaderHasNulls(tup);
    const char *tp;
    const bits8 *bp = tup->t_bits;
    Size off = 0;

    if (attnum > HeapTupleHeaderGetNatts(tup)) {
        *isnull = true; /* missing: these tuples have no missing values */
        return (Datum)0;
    }
    if (hasnulls && att_isnull(target, bp)) {
        *isnull = true;
        return (Datum)0;
    }
    *isnull = false;
    tp = (const char *)tup + tup->t_hoff;
    for (int i = 0;; i++) {
        const RefAttribute *att = &desc->attrs[i];

        if (hasnulls && att_isnull(i, bp))
            continue;
        if (att->attlen == -1)
            off = ref_align_pointer(off, att->attalign, tp + off);
        else
            off = ref_align_nominal(off, att->attalign);
        if (i == target)
            break;
        off = ref_addlength_pointer(off, att->attlen, tp + off);
    }
    return ref_fetch_att(tp + off, desc->attrs[target].attbyval,
                         desc->attrs[target].attlen);
}

/* The reference descriptor mirroring a tupledb one. */
static RefTupleDesc *
ref_tupdesc_from(TupleDesc desc)
{
    RefTupleDesc *ref = calloc(1, offsetof(RefTupleDesc, attrs) +
                                      (Size)desc->natts * sizeof(RefAttribute));

    if (ref == NULL)
        tdb_bench_die("out of memory");
    ref->natts = desc->natts;
    for (int i = 0; i < desc->natts; i++) {
        const TupleAttr *a = TupleDescAttr(desc, i);
        RefAttribute *r = &ref->attrs[i];

        r->attrelid = 16384;
        memcpy(r->attname, a->attname, NAMEDATALEN);
        r->atttypid = a->atttypid;
        r->attlen = a->attlen;
        r->attnum = (int16)(i + 1);
        r->attcacheoff = -1;
        r->atttypmod = a->atttypmod;
        r->attbyval = a->attbyval;
        r->attalign = a->attalign;
        r->attstorage = a->attstorage;
        r->attnotnull = a->attnotnull;
        r->attisdropped = a->attisdropped;
        r->atthasmissing = a->atthasmissing;
        r->attislocal = true;
    }
    return ref;
}

/* ----------------------------------------------------------------------
 * Shapes and tuples
 * ---------------------------------------------------------------------- */

typedef struct Shape {
    const char *name;
    int natts;
    bool null_first; /* column 1 is NULL in every tuple */
    bool text_first; /* column 1 is text */
} Shape;

static const Shape shapes[] = {
    {"fixed16", 16, false, false},      {"fixed16_null1", 16, true, false},
    {"text16", 16, false, true},        {"fixed64", 64, false, false},
    {"fixed64_null1", 64, true, false}, {"text64", 64, false, true},
};

typedef enum OpKind {
    OP_FULL,
    OP_SLOT_ALL,
    OP_GETATTR,
    OP_SLOT_GETATTR
} OpKind;

static const char *const op_names[] = {"full", "slot_all", "getattr",
                                       "slot_getattr"};

typedef struct Op {
    OpKind kind;
    int attnum; /* getattr / slot_getattr: 1-based column */
} Op;

#define MAX_OPS 16

/*
 * The operations measured on a shape: full deforms, then single columns.
 * Column 16 is the sum(c16) of the hackers' tests; on the 64-column shapes
 * also the last column, and on fixed64 (no NULLs, every offset cached) the
 * positions 1, 8, 16, 32, 64 for the position-independence check.
 */
static int
shape_ops(const Shape *s, Op *ops)
{
    int n = 0;

    ops[n++] = (Op){OP_FULL, 0};
    ops[n++] = (Op){OP_SLOT_ALL, 0};
    if (s->natts == 64 && !s->null_first && !s->text_first) {
        static const int positions[] = {1, 8, 16, 32, 64};

        for (size_t i = 0; i < lengthof(positions); i++)
            ops[n++] = (Op){OP_GETATTR, positions[i]};
    } else {
        ops[n++] = (Op){OP_GETATTR, 16};
        if (s->natts == 64)
            ops[n++] = (Op){OP_GETATTR, 64};
    }
    ops[n++] = (Op){OP_SLOT_GETATTR, 16};
    return n;
}

typedef struct Bench {
    const Shape *shape;
    TupleDesc desc;
    RefTupleDesc *ref;
    /*
     * Two identical copies of the tuples, each in its own Bump context:
     * tupledb deforms copy 0, the reference copy 1, so that neither reads
     * lines the other has just brought into the cache.
     */
    MemoryContext cxt[2];
    HeapTuple *copy[2];
    size_t ntuples;
    Datum *values;  /* natts */
    bool *isnull;   /* TYPEALIGN(8, natts) */
    Datum *values2; /* the reference's, for verification */
    bool *isnull2;
    TupleTableSlot *slot;
} Bench;

static TupleDesc
make_desc(const Shape *s)
{
    TupleDesc desc = tdb_tupdesc_create(s->natts);

    for (int i = 0; i < s->natts; i++) {
        char name[16];

        snprintf(name, sizeof(name), "c%d", i + 1);
        if (i == 0 && s->text_first)
            tdb_tupdesc_init_attr(desc, i, name, TEXTOID, -1, -1, false, 'i',
                                  'x');
        else
            tdb_tupdesc_init_attr(desc, i, name, INT4OID, -1, 4, true, 'i',
                                  'p');
    }
    tdb_tupdesc_finalize(desc);
    return desc;
}

static void
bench_setup(Bench *b, const Shape *s, size_t ntuples)
{
    Size isnull_len = TYPEALIGN(8, (Size)s->natts);
    Datum *vals = calloc((Size)s->natts, sizeof(Datum));
    bool *nulls = calloc(isnull_len, 1);
    char textbuf[VARHDRSZ + 32];
    uint64 rng = UINT64_C(20241220);
    Size total_len = 0, chunk_span;

    memset(b, 0, sizeof(*b));
    b->shape = s;
    b->ntuples = ntuples;
    b->desc = make_desc(s);
    b->ref = ref_tupdesc_from(b->desc);
    b->copy[0] = malloc(ntuples * sizeof(HeapTuple));
    b->copy[1] = malloc(ntuples * sizeof(HeapTuple));
    b->values = calloc((Size)s->natts, sizeof(Datum));
    b->isnull = calloc(isnull_len, 1);
    b->values2 = calloc((Size)s->natts, sizeof(Datum));
    b->isnull2 = calloc(isnull_len, 1);
    if (vals == NULL || nulls == NULL || b->ref == NULL || b->copy[0] == NULL ||
        b->copy[1] == NULL || b->values == NULL || b->isnull == NULL ||
        b->values2 == NULL || b->isnull2 == NULL)
        tdb_bench_die("out of memory");
    b->slot = tdb_slot_create(b->desc, &tdb_tts_ops_heap);
    for (int c = 0; c < 2; c++)
        b->cxt[c] = tdb_bump_create(tdb_top_mcxt, "bench tuples",
                                    ALLOCSET_DEFAULT_SIZES);

    for (size_t t = 0; t < ntuples; t++) {
        for (int j = 0; j < s->natts; j++) {
            vals[j] = Int32GetDatum((int32)(t + (size_t)j + 1));
            nulls[j] = false;
        }
        if (s->null_first) {
            vals[0] = (Datum)0;
            nulls[0] = true;
        } else if (s->text_first) {
            uint64 r = tdb_bench_splitmix64(&rng);
            int len = 10 + (int)(r % 21); /* 10..30 */

            SET_VARSIZE(textbuf, (Size)(VARHDRSZ + len));
            for (int k = 0; k < len; k++)
                textbuf[VARHDRSZ + k] = (char)('a' + (r >> (k + 8)) % 26);
            vals[0] = PointerGetDatum(textbuf);
        }
        for (int c = 0; c < 2; c++) {
            MemoryContext old = tdb_mcxt_switch_to(b->cxt[c]);

            b->copy[c][t] = tdb_heap_form_tuple(b->desc, vals, nulls);
            tdb_mcxt_switch_to(old);
        }
        total_len += b->copy[0][t]->t_len;
    }

    /* The text became a 1-byte-header varlena, as in a stored table. */
    if (s->text_first) {
        const HeapTupleHeaderData *h = b->copy[0][0]->t_data;

        if (!VARATT_IS_SHORT((const char *)h + h->t_hoff))
            tdb_bench_die("%s: the text column did not get a 1-byte header",
                          s->name);
    }
    /* Bytes from one tuple to the next (within a Bump block). */
    chunk_span = (Size)((char *)b->copy[0][1] - (char *)b->copy[0][0]);
    printf("shape %s %d %.1f %u %zu\n", s->name, s->natts,
           (double)total_len / (double)ntuples,
           (unsigned)b->copy[0][0]->t_data->t_hoff, chunk_span);
    fflush(stdout);
    free(vals);
    free(nulls);
}

static void
bench_teardown(Bench *b)
{
    tdb_slot_drop(b->slot);
    for (int c = 0; c < 2; c++) {
        tdb_mcxt_delete(b->cxt[c]);
        free(b->copy[c]);
    }
    tdb_pfree(b->desc);
    free(b->ref);
    free(b->values);
    free(b->isnull);
    free(b->values2);
    free(b->isnull2);
}

/* ----------------------------------------------------------------------
 * The passes: one function per operation and variant, named for callgrind.
 * Each deforms tuples[0 .. n) and returns its checksum.
 * ---------------------------------------------------------------------- */

BENCH_OPAQUE static int64
pass_full_tdb(Bench *b, HeapTuple *tuples, size_t n)
{
    TupleDesc desc = b->desc;
    Datum *values = b->values;
    bool *isnull = b->isnull;
    int last = desc->natts - 1;
    int64 sum = 0;

    for (size_t t = 0; t < n; t++) {
        tdb_heap_deform_tuple(tuples[t], desc, values, isnull);
        sum += DatumGetInt32(values[last]) + isnull[0];
    }
    return sum;
}

BENCH_OPAQUE static int64
pass_full_ref(Bench *b, HeapTuple *tuples, size_t n)
{
    const RefTupleDesc *ref = b->ref;
    Datum *values = b->values;
    bool *isnull = b->isnull;
    int natts = ref->natts;
    int64 sum = 0;

    for (size_t t = 0; t < n; t++) {
        ref_heap_deform_some(tuples[t], ref, values, isnull, natts);
        sum += DatumGetInt32(values[natts - 1]) + isnull[0];
    }
    return sum;
}

BENCH_OPAQUE static int64
pass_slot_all_tdb(Bench *b, HeapTuple *tuples, size_t n)
{
    TupleTableSlot *slot = b->slot;
    int last = b->desc->natts - 1;
    int64 sum = 0;

    for (size_t t = 0; t < n; t++) {
        tdb_slot_store_heap_tuple(slot, tuples[t], false);
        tdb_slot_getallattrs(slot);
        sum += DatumGetInt32(slot->tts_values[last]) + slot->tts_isnull[0];
    }
    tdb_slot_clear(slot);
    return sum;
}

BENCH_OPAQUE static int64
pass_getattr_tdb(Bench *b, HeapTuple *tuples, size_t n, int attnum)
{
    TupleDesc desc = b->desc;
    int64 sum = 0;

    for (size_t t = 0; t < n; t++) {
        bool isnull;
        Datum d = tdb_heap_getattr(tuples[t], attnum, desc, &isnull);

        sum += DatumGetInt32(d) + isnull;
    }
    return sum;
}

BENCH_OPAQUE static int64
pass_getattr_ref(Bench *b, HeapTuple *tuples, size_t n, int attnum)
{
    const RefTupleDesc *ref = b->ref;
    int64 sum = 0;

    for (size_t t = 0; t < n; t++) {
        bool isnull;
        Datum d = ref_heap_getattr(tuples[t], attnum, ref, &isnull);

        sum += DatumGetInt32(d) + isnull;
    }
    return sum;
}

BENCH_OPAQUE static int64
pass_slot_getattr_tdb(Bench *b, HeapTuple *tuples, size_t n, int attnum)
{
    TupleTableSlot *slot = b->slot;
    int64 sum = 0;

    for (size_t t = 0; t < n; t++) {
        bool isnull;
        Datum d;

        tdb_slot_store_heap_tuple(slot, tuples[t], false);
        d = tdb_slot_getattr(slot, attnum, &isnull);
        sum += DatumGetInt32(d) + isnull;
    }
    tdb_slot_clear(slot);
    return sum;
}

BENCH_OPAQUE static int64
pass_slot_getattr_ref(Bench *b, HeapTuple *tuples, size_t n, int attnum)
{
    const RefTupleDesc *ref = b->ref;
    Datum *values = b->values;
    bool *isnull = b->isnull;
    int64 sum = 0;

    for (size_t t = 0; t < n; t++) {
        ref_heap_deform_some(tuples[t], ref, values, isnull, attnum);
        sum += DatumGetInt32(values[attnum - 1]) + isnull[attnum - 1];
    }
    return sum;
}

/* One variant of an operation over tuples [from, to) of its own copy. */
static int64
run_pass(Bench *b, const Op *op, bool tdb, size_t from, size_t to)
{
    HeapTuple *tuples = b->copy[tdb ? 0 : 1] + from;
    size_t n = to - from;

    switch (op->kind) {
    case OP_FULL:
        return tdb ? pass_full_tdb(b, tuples, n) : pass_full_ref(b, tuples, n);
    case OP_SLOT_ALL:
        return tdb ? pass_slot_all_tdb(b, tuples, n)
                   : pass_full_ref(b, tuples, n);
    case OP_GETATTR:
        return tdb ? pass_getattr_tdb(b, tuples, n, op->attnum)
                   : pass_getattr_ref(b, tuples, n, op->attnum);
    case OP_SLOT_GETATTR:
        return tdb ? pass_slot_getattr_tdb(b, tuples, n, op->attnum)
                   : pass_slot_getattr_ref(b, tuples, n, op->attnum);
    }
    tdb_bench_die("unknown operation");
}

/* ----------------------------------------------------------------------
 * Verification: both deformers must produce identical values
 * ---------------------------------------------------------------------- */

static void
verify(Bench *b, const Op *ops, int nops)
{
    int natts = b->desc->natts;
    size_t step = b->ntuples > 1000 ? b->ntuples / 1000 : 1;

    for (size_t t = 0; t < b->ntuples; t++) {
        HeapTuple tup = b->copy[0][t];
        HeapTuple twin = b->copy[1][t];

        if (tup->t_len != twin->t_len ||
            memcmp(tup->t_data, twin->t_data, tup->t_len) != 0)
            tdb_bench_die("%s: tuple %zu: the two copies differ",
                          b->shape->name, t);
        /* Both deformers on the same tuple: by-reference Datums (the
         * text) must then be the same pointers. */
        tdb_heap_deform_tuple(tup, b->desc, b->values, b->isnull);
        ref_heap_deform_some(tup, b->ref, b->values2, b->isnull2, natts);
        if (memcmp(b->values, b->values2, (Size)natts * sizeof(Datum)) != 0 ||
            memcmp(b->isnull, b->isnull2, (Size)natts) != 0)
            tdb_bench_die("%s: tuple %zu: tdb and reference deform differently",
                          b->shape->name, t);
        if (t % step != 0)
            continue;
        /* On a sample: every single-column fetch, both ways, and the
         * slot's. */
        for (int a = 1; a <= natts; a++) {
            bool n1, n2;
            Datum d1 = tdb_heap_getattr(tup, a, b->desc, &n1);
            Datum d2 = ref_heap_getattr(tup, a, b->ref, &n2);

            if (d1 != d2 || n1 != n2 || d1 != b->values2[a - 1] ||
                n1 != b->isnull2[a - 1])
                tdb_bench_die("%s: tuple %zu column %d: getattr differs",
                              b->shape->name, t, a);
        }
        for (int i = 0; i < nops; i++) {
            bool n1;
            Datum d1;

            if (ops[i].kind != OP_SLOT_GETATTR)
                continue;
            tdb_slot_store_heap_tuple(b->slot, tup, false);
            d1 = tdb_slot_getattr(b->slot, ops[i].attnum, &n1);
            if (d1 != b->values2[ops[i].attnum - 1] ||
                n1 != b->isnull2[ops[i].attnum - 1])
                tdb_bench_die("%s: tuple %zu: slot_getattr(%d) differs",
                              b->shape->name, t, ops[i].attnum);
        }
        tdb_slot_store_heap_tuple(b->slot, tup, false);
        tdb_slot_getallattrs(b->slot);
        if (memcmp(b->slot->tts_values, b->values2,
                   (Size)natts * sizeof(Datum)) != 0 ||
            memcmp(b->slot->tts_isnull, b->isnull2, (Size)natts) != 0)
            tdb_bench_die("%s: tuple %zu: slot_getallattrs differs",
                          b->shape->name, t);
    }
    tdb_slot_clear(b->slot);
}

/* ----------------------------------------------------------------------
 * Modes
 * ---------------------------------------------------------------------- */

static void
print_op(const Op *op)
{
    if (op->kind == OP_GETATTR || op->kind == OP_SLOT_GETATTR)
        printf("%s %d", op_names[op->kind], op->attnum);
    else
        printf("%s -", op_names[op->kind]);
}

/*
 * Time every operation, both variants, `rounds` times.  One measurement of
 * a variant covers all the tuples `repeat` times.  It is cut into units --
 * one of `slices` ranges of the tuples, passed over `per_unit` times in a
 * row -- and the two variants alternate unit by unit, the first of each
 * pair alternating too, so that drift of the machine's speed hits both
 * alike.
 */
static void
time_shape(Bench *b, const Op *ops, int nops, int rounds, int repeat,
           int slices, int per_unit)
{
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < nops; i++) {
            uint64 elapsed[2] = {0, 0};
            int64 sum[2] = {0, 0};
            int unit = 0;

            for (int p = 0; p < repeat; p += per_unit) {
                for (int s = 0; s < slices; s++, unit++) {
                    size_t from = b->ntuples * (size_t)s / (size_t)slices;
                    size_t to = b->ntuples * (size_t)(s + 1) / (size_t)slices;

                    for (int k = 0; k < 2; k++) {
                        int v = (k + r + unit) % 2; /* 0 tdb, 1 ref */
                        uint64 t0 = tdb_bench_now_ns();

                        for (int q = 0; q < per_unit; q++)
                            sum[v] += run_pass(b, &ops[i], v == 0, from, to);
                        elapsed[v] += tdb_bench_now_ns() - t0;
                    }
                }
            }
            if (sum[0] != sum[1])
                tdb_bench_die("%s %s %d: checksum tdb %lld != reference %lld",
                              b->shape->name, op_names[ops[i].kind],
                              ops[i].attnum, (long long)sum[0],
                              (long long)sum[1]);
            for (int v = 0; v < 2; v++) {
                printf("time %s ", b->shape->name);
                print_op(&ops[i]);
                printf(" %d %s %.3f %lld\n", r, v == 0 ? "tdb" : "ref",
                       (double)elapsed[v] /
                           ((double)b->ntuples * (double)repeat),
                       (long long)sum[v]);
            }
            fflush(stdout);
        }
    }
}

/*
 * The position-independence check: tdb_heap_getattr and the reference at
 * every measured column, all of them interleaved unit by unit (rotating
 * which goes first), so that columns compare under the same machine speed.
 * Records carry the operation name "getattr_pos".
 */
static void
time_positions(Bench *b, const Op *ops, int nops, int rounds, int repeat,
               int slices, int per_unit)
{
    Op pos[MAX_OPS];
    int npos = 0;

    for (int i = 0; i < nops; i++)
        if (ops[i].kind == OP_GETATTR)
            pos[npos++] = ops[i];
    if (npos < 3)
        return;
    for (int r = 0; r < rounds; r++) {
        uint64 elapsed[MAX_OPS][2];
        int64 sum[MAX_OPS][2];
        int unit = 0;

        memset(elapsed, 0, sizeof(elapsed));
        memset(sum, 0, sizeof(sum));
        for (int p = 0; p < repeat; p += per_unit) {
            for (int s = 0; s < slices; s++, unit++) {
                size_t from = b->ntuples * (size_t)s / (size_t)slices;
                size_t to = b->ntuples * (size_t)(s + 1) / (size_t)slices;

                for (int k = 0; k < 2 * npos; k++) {
                    int j = (k + r + unit) % (2 * npos);
                    int i = j / 2, v = j % 2; /* v: 0 tdb, 1 ref */
                    uint64 t0 = tdb_bench_now_ns();

                    for (int q = 0; q < per_unit; q++)
                        sum[i][v] += run_pass(b, &pos[i], v == 0, from, to);
                    elapsed[i][v] += tdb_bench_now_ns() - t0;
                }
            }
        }
        for (int i = 0; i < npos; i++) {
            if (sum[i][0] != sum[i][1])
                tdb_bench_die(
                    "%s getattr %d: checksum tdb %lld != reference %lld",
                    b->shape->name, pos[i].attnum, (long long)sum[i][0],
                    (long long)sum[i][1]);
            for (int v = 0; v < 2; v++)
                printf("time %s getattr_pos %d %d %s %.3f %lld\n",
                       b->shape->name, pos[i].attnum, r, v == 0 ? "tdb" : "ref",
                       (double)elapsed[i][v] /
                           ((double)b->ntuples * (double)repeat),
                       (long long)sum[i][v]);
        }
        fflush(stdout);
    }
}

static void
profile_shape(Bench *b, const Op *ops, int nops)
{
    for (int i = 0; i < nops; i++) {
        int64 sum[2];

        for (int v = 0; v < 2; v++) {
            printf("pass %s ", b->shape->name);
            print_op(&ops[i]);
            printf(" %s %zu\n", v == 0 ? "tdb" : "ref", b->ntuples);
            fflush(stdout);
            sum[v] = run_pass(b, &ops[i], v == 0, 0, b->ntuples);
        }
        if (sum[0] != sum[1])
            tdb_bench_die("%s %s: checksum tdb %lld != reference %lld",
                          b->shape->name, op_names[ops[i].kind],
                          (long long)sum[0], (long long)sum[1]);
    }
}

/* "--perf OP[:ATTNUM]:VARIANT" */
static void
parse_perf_spec(const char *spec, Op *op, bool *tdb)
{
    char buf[64];
    char *parts[3];
    char *save = NULL;
    int n = 0;

    snprintf(buf, sizeof(buf), "%s", spec);
    for (char *p = strtok_r(buf, ":", &save); p != NULL && n < 3;
         p = strtok_r(NULL, ":", &save))
        parts[n++] = p;
    if (n < 2)
        tdb_bench_die("--perf takes OP[:ATTNUM]:tdb|ref, not %s", spec);
    op->attnum = n == 3 ? atoi(parts[1]) : 0;
    if (strcmp(parts[n - 1], "tdb") == 0)
        *tdb = true;
    else if (strcmp(parts[n - 1], "ref") == 0)
        *tdb = false;
    else
        tdb_bench_die("--perf variant must be tdb or ref, not %s",
                      parts[n - 1]);
    for (size_t k = 0; k < lengthof(op_names); k++)
        if (strcmp(parts[0], op_names[k]) == 0) {
            op->kind = (OpKind)k;
            if ((op->kind == OP_GETATTR || op->kind == OP_SLOT_GETATTR) &&
                op->attnum < 1)
                tdb_bench_die("--perf %s needs an attribute number", parts[0]);
            return;
        }
    tdb_bench_die("unknown operation %s", parts[0]);
}

static bool
shape_selected(const char *list, const char *name)
{
    size_t len = strlen(name);

    if (list == NULL)
        return true;
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);

        if (n == len && strncmp(p, name, len) == 0)
            return true;
        p += n + (end ? 1 : 0);
    }
    return false;
}

int
main(int argc, char **argv)
{
    size_t ntuples = 1000000;
    int rounds = 7;
    int repeat = 1;
    int slices = 16;
    int per_unit = 1;
    const char *shape_list = NULL;
    const char *perf_spec = NULL;
    long passes = -1;
    bool profile = false;
    bool info_only = false;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;

        if (strcmp(arg, "--profile") == 0) {
            profile = true;
            continue;
        }
        if (strcmp(arg, "--info") == 0) {
            info_only = true;
            continue;
        }
        if (val == NULL)
            tdb_bench_die("option %s needs a value", arg);
        if (strcmp(arg, "--tuples") == 0)
            ntuples = (size_t)atoll(val);
        else if (strcmp(arg, "--rounds") == 0)
            rounds = atoi(val);
        else if (strcmp(arg, "--repeat") == 0)
            repeat = atoi(val);
        else if (strcmp(arg, "--slices") == 0)
            slices = atoi(val);
        else if (strcmp(arg, "--unit") == 0)
            per_unit = atoi(val);
        else if (strcmp(arg, "--shape") == 0)
            shape_list = val;
        else if (strcmp(arg, "--perf") == 0)
            perf_spec = val;
        else if (strcmp(arg, "--passes") == 0)
            passes = atol(val);
        else
            tdb_bench_die("unknown option %s", arg);
        i++;
    }
    if (ntuples < 2 || rounds < 1 || repeat < 1 || slices < 1 ||
        (size_t)slices > ntuples || per_unit < 1 || repeat % per_unit != 0)
        tdb_bench_die("bad --tuples, --rounds, --repeat, --slices or --unit");
    if (perf_spec != NULL &&
        (passes < 0 || shape_list == NULL || strchr(shape_list, ',') != NULL))
        tdb_bench_die("--perf needs --passes P and a single --shape");
    if (shape_list != NULL) {
        bool any = false;

        for (size_t s = 0; s < lengthof(shapes); s++)
            any |= shape_selected(shape_list, shapes[s].name);
        if (!any)
            tdb_bench_die("no shape matches %s", shape_list);
    }

    tdb_mcxt_thread_init();
    printf("info tuples %zu\n", ntuples);
    printf("info rounds %d\n", rounds);
    printf("info repeat %d\n", repeat);
    printf("info slices %d\n", slices);
    printf("info unit %d\n", per_unit);
    printf("info sizeof_CompactAttribute %zu\n", sizeof(CompactAttribute));
    printf("info sizeof_RefAttribute %zu\n", sizeof(RefAttribute));
    fflush(stdout);
    if (info_only)
        return 0;

    for (size_t s = 0; s < lengthof(shapes); s++) {
        Bench b;
        Op ops[MAX_OPS];
        int nops = shape_ops(&shapes[s], ops);

        if (!shape_selected(shape_list, shapes[s].name))
            continue;
        bench_setup(&b, &shapes[s], ntuples);
        if (perf_spec != NULL) {
            Op op;
            bool tdb;

            parse_perf_spec(perf_spec, &op, &tdb);
            if (op.attnum > shapes[s].natts)
                tdb_bench_die("column %d out of range", op.attnum);
            for (long p = 0; p < passes; p++)
                (void)run_pass(&b, &op, tdb, 0, ntuples);
            printf("perf %s ", shapes[s].name);
            print_op(&op);
            printf(" %s %zu %ld\n", tdb ? "tdb" : "ref", ntuples, passes);
        } else if (profile) {
            profile_shape(&b, ops, nops);
        } else {
            verify(&b, ops, nops); /* also the warm-up */
            time_shape(&b, ops, nops, rounds, repeat, slices, per_unit);
            time_positions(&b, ops, nops, rounds, repeat, slices, per_unit);
        }
        bench_teardown(&b);
    }
    tdb_mcxt_thread_done();
    return 0;
}
