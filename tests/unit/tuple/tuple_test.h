/*
 * tuple_test.h -- helpers shared by the tuple-layer unit tests
 * (tests/unit/tuple/test_*.c).  Header-only, like mmgr_test.h: every test
 * binary links just its own object, test.o and libtupledb.a.
 *
 *   tt_types[]            PostgreSQL's properties (typlen, typbyval,
 *                         typalign, typstorage) of the types the tests use
 *   ColSpec, tt_build_desc  a column list -> a finalized descriptor
 *   tt_random_*           seeded random descriptors, NULL patterns and
 *                         values (varlena lengths clustered around the
 *                         1-byte-header boundary, already-short, external
 *                         and compressed input forms, cstrings)
 *   tt_value_same         "is this deformed Datum the value the tuple was
 *                         formed from?"
 *   tt_ref_encode         an independent oracle for the data area, written
 *                         from the layout rules (pg-internals.md §1.7)
 *   tt_check_formed       every header/bitmap/padding/data byte of a
 *                         freshly formed tuple
 *   tt_check_deform       deform_tuple, deform_some in random steps,
 *                         getattr of every column and verify, all on an
 *                         exactly sized malloc'd copy
 *   tt_exact_*            exactly sized malloc'd copies: tdb_palloc chunks
 *                         have slack that would hide an overrun from ASan
 *                         and valgrind (tests may use malloc)
 *   tt_catch              run a call, return the SQLSTATE it raised
 *
 * Everything is `static TDB_UNUSED`: each test file uses a subset.
 */
#ifndef TDB_TESTS_TUPLE_TEST_H
#define TDB_TESTS_TUPLE_TEST_H

#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>

#include "mmgr/mcxt.h"
#include "test.h"
#include "tuple/heaptuple.h"
#include "tuple/slot.h"
#include "tuple/tupdesc.h"
#include "tuple/varlena.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define TT_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define TT_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define TT_POISON(p, n) VALGRIND_MAKE_MEM_NOACCESS((p), (n))
#define TT_UNPOISON(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#endif

/* A failure reported at the caller's line, with a formatted message. */
#define tt_fail(...) tdb_test_fail(__FILE__, __LINE__, __VA_ARGS__)

/* Randomized loops stop early once this many expectations have failed. */
#define TT_MAX_FAILURES 20

static TDB_UNUSED bool
tt_under_valgrind(void)
{
    return RUNNING_ON_VALGRIND != 0;
}

static TDB_UNUSED bool
tt_too_many_failures(void)
{
    return tdb_test_state.nfailed_expects >= TT_MAX_FAILURES;
}

/* malloc that cannot return NULL (tests only). */
static TDB_UNUSED void *
tt_malloc(Size size)
{
    void *p = malloc(size ? size : 1);

    if (p == NULL) {
        fprintf(stderr, "out of memory in test\n");
        abort();
    }
    return p;
}

/* ----------------------------------------------------------------------
 * Types
 * ---------------------------------------------------------------------- */

typedef enum TypeKind {
    TK_BOOL,
    TK_INT2,
    TK_INT4,
    TK_INT8,
    TK_FLOAT4,
    TK_FLOAT8,
    TK_CHAR, /* the 1-byte "char" */
    TK_OID,
    TK_DATE,
    TK_TIMESTAMP,
    TK_UUID,
    TK_NAME,
    TK_MACADDR,  /* 6 bytes aligned 'i': width not a multiple of alignment */
    TK_TID,      /* 6 bytes aligned 's' */
    TK_TIMETZ,   /* 12 bytes aligned 'd' */
    TK_INTERVAL, /* 16 bytes aligned 'd' (uuid: 16 aligned 'c') */
    TK_INT8REF,  /* int8 passed by reference, as on 32-bit PostgreSQL */
    TK_TEXT,
    TK_VARCHAR,
    TK_BPCHAR,
    TK_BYTEA,
    TK_NUMERIC,
    TK_INT2VECTOR, /* a PLAIN varlena: never gets a 1-byte header */
    TK_FLOAT8ARR,  /* _float8: a 'd'-aligned varlena */
    TK_CSTRING,
    TK_COUNT
} TypeKind;

/* pg_type's typlen, typbyval, typalign, typstorage. */
typedef struct TypeProps {
    const char *name;
    Oid oid;
    int16 len;
    bool byval;
    char align;
    char storage;
} TypeProps;

static const TypeProps tt_types[TK_COUNT] = {
    [TK_BOOL] = {"bool", 16, 1, true, 'c', 'p'},
    [TK_INT2] = {"int2", 21, 2, true, 's', 'p'},
    [TK_INT4] = {"int4", 23, 4, true, 'i', 'p'},
    [TK_INT8] = {"int8", 20, 8, true, 'd', 'p'},
    [TK_FLOAT4] = {"float4", 700, 4, true, 'i', 'p'},
    [TK_FLOAT8] = {"float8", 701, 8, true, 'd', 'p'},
    [TK_CHAR] = {"char", 18, 1, true, 'c', 'p'},
    [TK_OID] = {"oid", 26, 4, true, 'i', 'p'},
    [TK_DATE] = {"date", 1082, 4, true, 'i', 'p'},
    [TK_TIMESTAMP] = {"timestamp", 1114, 8, true, 'd', 'p'},
    [TK_UUID] = {"uuid", 2950, 16, false, 'c', 'p'},
    [TK_NAME] = {"name", 19, 64, false, 'c', 'p'},
    [TK_MACADDR] = {"macaddr", 829, 6, false, 'i', 'p'},
    [TK_TID] = {"tid", 27, 6, false, 's', 'p'},
    [TK_TIMETZ] = {"timetz", 1266, 12, false, 'd', 'p'},
    [TK_INTERVAL] = {"interval", 1186, 16, false, 'd', 'p'},
    [TK_INT8REF] = {"int8 (by reference)", 20, 8, false, 'd', 'p'},
    [TK_TEXT] = {"text", 25, -1, false, 'i', 'x'},
    [TK_VARCHAR] = {"varchar", 1043, -1, false, 'i', 'x'},
    [TK_BPCHAR] = {"bpchar", 1042, -1, false, 'i', 'x'},
    [TK_BYTEA] = {"bytea", 17, -1, false, 'i', 'x'},
    [TK_NUMERIC] = {"numeric", 1700, -1, false, 'i', 'm'},
    [TK_INT2VECTOR] = {"int2vector", 22, -1, false, 'i', 'p'},
    [TK_FLOAT8ARR] = {"_float8", 1022, -1, false, 'd', 'x'},
    [TK_CSTRING] = {"cstring", 2275, -2, false, 'c', 'p'},
};

/* One column of a test descriptor. */
typedef struct ColSpec {
    TypeKind type;
    bool notnull;
    bool dropped;
    bool has_missing;  /* tdb_tupdesc_set_missing() is called ... */
    bool missing_null; /* ... with isnull = true, */
    Datum missing;     /* ... or with this value */
} ColSpec;

/* Describe column i of desc as type t (name "c<i+1>"). */
static TDB_UNUSED void
tt_init_attr(TupleDesc desc, int i, TypeKind t)
{
    const TypeProps *tp = &tt_types[t];
    char name[16];

    snprintf(name, sizeof(name), "c%d", i + 1);
    tdb_tupdesc_init_attr(desc, i, name, tp->oid, -1, tp->len, tp->byval,
                          tp->align, tp->storage);
}

/* A finalized descriptor for cols[0..natts), in the current context. */
static TDB_UNUSED TupleDesc
tt_build_desc(const ColSpec *cols, int natts)
{
    TupleDesc desc = tdb_tupdesc_create(natts);

    for (int i = 0; i < natts; i++) {
        tt_init_attr(desc, i, cols[i].type);
        desc->attrs[i].attnotnull = cols[i].notnull;
        desc->attrs[i].attisdropped = cols[i].dropped;
        if (cols[i].has_missing)
            tdb_tupdesc_set_missing(desc, i, cols[i].missing,
                                    cols[i].missing_null);
    }
    tdb_tupdesc_finalize(desc);
    return desc;
}

/* A finalized descriptor of plain nullable columns of the given types. */
static TDB_UNUSED TupleDesc
tt_desc_of(const TypeKind *types, int natts)
{
    TupleDesc desc = tdb_tupdesc_create(natts);

    for (int i = 0; i < natts; i++)
        tt_init_attr(desc, i, types[i]);
    tdb_tupdesc_finalize(desc);
    return desc;
}

/* ----------------------------------------------------------------------
 * Values
 * ---------------------------------------------------------------------- */

/* How a varlena input Datum is encoded. */
typedef enum VarForm {
    VF_4B,         /* plain 4-byte header (what type input functions make) */
    VF_SHORT,      /* already-short 1-byte header (data <= 126 bytes) */
    VF_EXTERNAL,   /* an on-disk TOAST pointer: 0x01, tag 18, 16 bytes */
    VF_COMPRESSED, /* 4-byte header, compressed-inline bits (xxxxxx10) */
} VarForm;

/*
 * A varlena holding `len` data bytes in the given form, in the current
 * context.  VF_EXTERNAL ignores data beyond 16 bytes (the pointer body).
 */
static TDB_UNUSED Datum
tt_make_varlena(const char *data, Size len, VarForm form)
{
    char *p;

    switch (form) {
    case VF_SHORT:
        Assert(len <= VARATT_SHORT_MAX - VARHDRSZ_SHORT);
        p = tdb_palloc(VARHDRSZ_SHORT + len);
        SET_VARSIZE_SHORT(p, VARHDRSZ_SHORT + len);
        memcpy(p + VARHDRSZ_SHORT, data, len);
        break;
    case VF_EXTERNAL:
        p = tdb_palloc0(TOAST_POINTER_SIZE);
        p[0] = 0x01;
        p[1] = (char)VARTAG_ONDISK;
        memcpy(p + VARHDRSZ_EXTERNAL, data, len < 16 ? len : 16);
        break;
    case VF_COMPRESSED: {
        uint32 hdr = (uint32)((VARHDRSZ_COMPRESSED + len) << 2) | 0x02;
        uint32 tcinfo = (uint32)len * 2; /* "raw size": never read here */

        p = tdb_palloc(VARHDRSZ_COMPRESSED + len);
        memcpy(p, &hdr, 4);
        memcpy(p + 4, &tcinfo, 4);
        memcpy(p + VARHDRSZ_COMPRESSED, data, len);
        break;
    }
    default:
        p = tdb_palloc(VARHDRSZ + len);
        SET_VARSIZE(p, VARHDRSZ + len);
        memcpy(p + VARHDRSZ, data, len);
        break;
    }
    return PointerGetDatum(p);
}

/* A text-like varlena with a 4-byte header holding the C string s. */
static TDB_UNUSED Datum
tt_text(const char *s)
{
    return tt_make_varlena(s, strlen(s), VF_4B);
}

static TDB_UNUSED uint64
tt_rand(uint64 *rng, uint64 bound)
{
    return bound == 0 ? 0 : tdb_test_rand(rng) % bound;
}

static TDB_UNUSED bool
tt_chance(uint64 *rng, int percent)
{
    return tt_rand(rng, 100) < (uint64)percent;
}

static TDB_UNUSED void
tt_random_bytes(uint64 *rng, char *buf, Size len)
{
    for (Size i = 0; i < len; i++)
        buf[i] = (char)tdb_test_rand(rng);
}

/*
 * A varlena data length in 0..300, a third of the time right at the
 * 1-byte-header boundary (126 data bytes is the largest short value).
 */
static TDB_UNUSED Size
tt_random_varlena_len(uint64 *rng)
{
    uint64 r = tt_rand(rng, 100);

    if (r < 35)
        return 124 + (Size)tt_rand(rng, 6); /* 124 .. 129 */
    if (r < 45)
        return (Size)tt_rand(rng, 3); /* 0 .. 2 */
    return (Size)tt_rand(rng, 301);
}

/* 64 random bits, with the interesting edges overweighted. */
static TDB_UNUSED uint64
tt_random_bits(uint64 *rng)
{
    static const uint64 edges[] = {0,
                                   1,
                                   UINT64_MAX,
                                   0x80,
                                   0x7F,
                                   0x8000,
                                   0x7FFF,
                                   0x80000000,
                                   0x7FFFFFFF,
                                   0x8000000000000000ull,
                                   0x7FFFFFFFFFFFFFFFull};

    if (tt_chance(rng, 15))
        return edges[tt_rand(rng, lengthof(edges))];
    return tdb_test_rand(rng);
}

/*
 * A random value of type t, built the way callers build Datums (the
 * datum.h constructors; by-reference values palloc'd in the current
 * context).
 */
static TDB_UNUSED Datum
tt_random_value(uint64 *rng, TypeKind t)
{
    uint64 r = tt_random_bits(rng);

    switch (t) {
    case TK_BOOL:
        return BoolGetDatum((r & 1) != 0);
    case TK_INT2:
        return Int16GetDatum((int16)r);
    case TK_INT4:
    case TK_DATE:
        return Int32GetDatum((int32)r);
    case TK_INT8:
    case TK_TIMESTAMP:
        return Int64GetDatum((int64)r);
    case TK_FLOAT4: {
        uint32 bits = (uint32)r;
        float f;

        memcpy(&f, &bits, sizeof(f));
        return Float4GetDatum(f);
    }
    case TK_FLOAT8: {
        double f;

        memcpy(&f, &r, sizeof(f));
        return Float8GetDatum(f);
    }
    case TK_CHAR:
        return CharGetDatum((char)r);
    case TK_OID:
        return ObjectIdGetDatum((Oid)r);
    case TK_UUID:
    case TK_MACADDR:
    case TK_TID:
    case TK_TIMETZ:
    case TK_INTERVAL:
    case TK_INT8REF: {
        char *p = tdb_palloc((Size)tt_types[t].len);

        tt_random_bytes(rng, p, (Size)tt_types[t].len);
        return PointerGetDatum(p);
    }
    case TK_NAME: {
        char *p = tdb_palloc0(NAMEDATALEN);
        Size len = (Size)tt_rand(rng, NAMEDATALEN);

        for (Size i = 0; i < len; i++)
            p[i] = (char)('a' + tt_rand(rng, 26));
        return PointerGetDatum(p);
    }
    case TK_CSTRING: {
        Size len = tt_random_varlena_len(rng);
        char *p = tdb_palloc(len + 1);

        for (Size i = 0; i < len; i++)
            p[i] = (char)(1 + tt_rand(rng, 255));
        p[len] = '\0';
        return PointerGetDatum(p);
    }
    default: {
        Size len = tt_random_varlena_len(rng);
        char *data = tdb_palloc(len + 1);
        VarForm form = VF_4B;
        Datum d;

        tt_random_bytes(rng, data, len);
        if (len <= 126 && tt_chance(rng, 20))
            form = VF_SHORT;
        else if (tt_chance(rng, 3))
            form = VF_EXTERNAL;
        else if (tt_chance(rng, 3))
            form = VF_COMPRESSED;
        d = tt_make_varlena(data, len, form);
        tdb_pfree(data);
        return d;
    }
    }
}

/* The Datum a deformer yields for by-value bits v of width len: the low
 * len bytes, sign-extended (pg-internals.md §1.7). */
static TDB_UNUSED Datum
tt_byval_norm(Datum v, int16 len)
{
    switch (len) {
    case 1:
        return (Datum)(int64)(int8)v;
    case 2:
        return (Datum)(int64)(int16)v;
    case 4:
        return (Datum)(int64)(int32)v;
    default:
        return v;
    }
}

/* A random type; `palette` narrows the choice per descriptor. */
typedef enum TypePalette {
    TP_ANY,
    TP_FIXED,   /* fixed width only: every offset cacheable */
    TP_BYVAL,   /* by-value only */
    TP_VARLENA, /* mostly variable width */
    TP_RUNS,    /* blocks of one type (uniform runs), broken by others */
    TP_COUNT
} TypePalette;

static TDB_UNUSED TypeKind
tt_random_type(uint64 *rng, TypePalette palette)
{
    switch (palette) {
    case TP_FIXED:
        return (TypeKind)tt_rand(rng, TK_INT8REF + 1);
    case TP_BYVAL:
        return (TypeKind)tt_rand(rng, TK_TIMESTAMP + 1);
    case TP_VARLENA:
        if (tt_chance(rng, 80))
            return (TypeKind)(TK_TEXT + tt_rand(rng, TK_COUNT - TK_TEXT));
        return (TypeKind)tt_rand(rng, TK_COUNT);
    default:
        return (TypeKind)tt_rand(rng, TK_COUNT);
    }
}

/* Mostly 1..60 columns, sometimes 200..1600. */
static TDB_UNUSED int
tt_random_natts(uint64 *rng)
{
    if (tt_chance(rng, 2))
        return 200 + (int)tt_rand(rng, MaxHeapAttributeNumber - 200 + 1);
    return 1 + (int)tt_rand(rng, 60);
}

/* A missing value for type t as a catalog would hold it: by-value Datums
 * normalized (sign-extended) as if read from a tuple. */
static TDB_UNUSED Datum
tt_random_missing(uint64 *rng, TypeKind t)
{
    Datum d = tt_random_value(rng, t);

    return tt_types[t].byval ? tt_byval_norm(d, tt_types[t].len) : d;
}

/* Random column specs: a few NOT NULL and dropped columns, no missing. */
static TDB_UNUSED void
tt_random_cols(uint64 *rng, ColSpec *cols, int natts)
{
    TypePalette palette = (TypePalette)tt_rand(rng, TP_COUNT);
    /* often a leading run of NOT NULL by-value columns, as in a table
     * starting with "id int8 NOT NULL, ...": the guaranteed prefix */
    int prefix = tt_chance(rng, 40) ? (int)tt_rand(rng, (uint64)natts + 1) : 0;

    TypeKind block_type = TK_INT4;
    int block_left = 0;

    for (int i = 0; i < natts; i++) {
        memset(&cols[i], 0, sizeof(cols[i]));
        if (i < prefix) {
            cols[i].type = tt_random_type(rng, TP_BYVAL);
            cols[i].notnull = true;
            continue;
        }
        if (palette == TP_RUNS) {
            if (block_left-- <= 0) {
                block_type = tt_random_type(rng, TP_ANY);
                block_left = (int)tt_rand(rng, 20);
            }
            cols[i].type = block_type;
        } else {
            cols[i].type = tt_random_type(rng, palette);
        }
        cols[i].notnull = tt_chance(rng, 10);
        cols[i].dropped = !cols[i].notnull && tt_chance(rng, 3);
    }
}

/* Columns with a missing value (k of them, appended after n). */
static TDB_UNUSED void
tt_random_added_cols(uint64 *rng, ColSpec *cols, int n, int k)
{
    for (int i = n; i < n + k; i++) {
        memset(&cols[i], 0, sizeof(cols[i]));
        cols[i].type = tt_random_type(rng, TP_ANY);
        if (tt_chance(rng, 60)) {
            cols[i].has_missing = true;
            cols[i].missing_null = tt_chance(rng, 15);
            if (!cols[i].missing_null)
                cols[i].missing = tt_random_missing(rng, cols[i].type);
        }
    }
}

typedef enum NullPattern {
    NP_NONE,
    NP_ALL,
    NP_FIRST,
    NP_LAST,
    NP_FIRST_LAST,
    NP_RANDOM, /* last: drawn more often */
    NP_COUNT
} NullPattern;

/*
 * Random values for cols: a NULL pattern (dropped columns are always NULL,
 * NOT NULL columns never -- except in one row out of 16: some paths form
 * tuples before constraints are checked, and such tuples must still
 * deform correctly), then a random value per non-null column.
 */
static TDB_UNUSED void
tt_random_row(uint64 *rng, const ColSpec *cols, int natts, Datum *values,
              bool *isnull)
{
    NullPattern np = (NullPattern)tt_rand(rng, NP_COUNT + 3);
    int percent = 5 + (int)tt_rand(rng, 91);
    bool obey_not_null = !tt_chance(rng, 6);

    if (np > NP_RANDOM)
        np = NP_RANDOM;
    for (int i = 0; i < natts; i++) {
        bool null;

        switch (np) {
        case NP_NONE:
            null = false;
            break;
        case NP_ALL:
            null = true;
            break;
        case NP_FIRST:
            null = (i == 0);
            break;
        case NP_LAST:
            null = (i == natts - 1);
            break;
        case NP_FIRST_LAST:
            null = (i == 0 || i == natts - 1);
            break;
        default:
            null = tt_chance(rng, percent);
            break;
        }
        if (cols[i].dropped)
            null = true;
        else if (cols[i].notnull && obey_not_null)
            null = false;
        isnull[i] = null;
        values[i] = null ? (Datum)0 : tt_random_value(rng, cols[i].type);
    }
}

/* ----------------------------------------------------------------------
 * Comparing values
 * ---------------------------------------------------------------------- */

/*
 * Is `got` (deformed) the value `want` was formed from?  By value: the
 * whole Datum, sign-extended.  Fixed by reference: attlen bytes.  cstring:
 * the string.  Varlena: the payload (headers may have been shortened);
 * external pointers byte for byte; compressed stays compressed.  On a
 * mismatch, writes the reason into why.
 */
static TDB_UNUSED bool
tt_value_same(const TupleAttr *att, Datum want, Datum got, char *why,
              Size whylen)
{
    const char *w = DatumGetPointer(want);
    const char *g = DatumGetPointer(got);

    if (att->attbyval) {
        Datum norm = tt_byval_norm(want, att->attlen);

        if (got == norm)
            return true;
        snprintf(why, whylen, "by-value Datum 0x%016llx, expected 0x%016llx",
                 (unsigned long long)got, (unsigned long long)norm);
        return false;
    }
    if (att->attlen > 0) {
        if (memcmp(w, g, (Size)att->attlen) == 0)
            return true;
        snprintf(why, whylen, "%d fixed bytes differ", att->attlen);
        return false;
    }
    if (att->attlen == -2) {
        if (strcmp(w, g) == 0)
            return true;
        snprintf(why, whylen, "cstring of %zu bytes, expected %zu", strlen(g),
                 strlen(w));
        return false;
    }
    if (VARATT_IS_EXTERNAL(w) || VARATT_IS_EXTERNAL(g)) {
        if (VARATT_IS_EXTERNAL(w) && VARATT_IS_EXTERNAL(g) &&
            memcmp(w, g, VARSIZE_ANY(w)) == 0)
            return true;
        snprintf(why, whylen, "external pointer differs");
        return false;
    }
    if (VARATT_IS_COMPRESSED(w) != VARATT_IS_COMPRESSED(g)) {
        snprintf(why, whylen, "compressed flag differs");
        return false;
    }
    if (VARATT_IS_COMPRESSED(w)) { /* compare the stored bytes */
        if (VARSIZE_4B(w) != VARSIZE_4B(g) ||
            memcmp(w, g, VARSIZE_4B(w)) != 0) {
            snprintf(why, whylen, "compressed bytes differ");
            return false;
        }
        return true;
    }
    if (VARSIZE_ANY_EXHDR(w) != VARSIZE_ANY_EXHDR(g)) {
        snprintf(why, whylen, "varlena payload of %zu bytes, expected %zu",
                 VARSIZE_ANY_EXHDR(g), VARSIZE_ANY_EXHDR(w));
        return false;
    }
    if (memcmp(VARDATA_ANY(w), VARDATA_ANY(g), VARSIZE_ANY_EXHDR(w)) != 0) {
        snprintf(why, whylen, "varlena payload bytes differ");
        return false;
    }
    return true;
}

/* Expect column i deformed as (got, got_null) to be (want, want_null). */
#define tt_expect_column(desc, i, want, want_null, got, got_null, ...)         \
    tt_expect_column_at(__FILE__, __LINE__, (desc), (i), (want), (want_null),  \
                        (got), (got_null), __VA_ARGS__)

TDB_PRINTF(9, 10)
static TDB_UNUSED bool
tt_expect_column_at(const char *file, int line, TupleDesc desc, int i,
                    Datum want, bool want_null, Datum got, bool got_null,
                    const char *fmt, ...)
{
    char ctx[200];
    char why[160];
    va_list args;

    if (want_null == got_null &&
        (want_null ||
         tt_value_same(TupleDescAttr(desc, i), want, got, why, sizeof(why))))
        return true;
    if (want_null != got_null)
        snprintf(why, sizeof(why), "isnull %d, expected %d", got_null,
                 want_null);
    va_start(args, fmt);
    vsnprintf(ctx, sizeof(ctx), fmt, args);
    va_end(args);
    tdb_test_fail(file, line, "%s: column %d (%s): %s", ctx, i + 1,
                  TupleDescAttr(desc, i)->attname, why);
    return false;
}

/* ----------------------------------------------------------------------
 * The layout oracle
 * ---------------------------------------------------------------------- */

/*
 * The data area PostgreSQL writes for these values, from the rules in
 * pg-internals.md §1.7 (not from heaptuple.c): fixed width aligned to
 * attalign; cstrings and 1-byte-header varlenas unaligned; a 4-byte-header
 * varlena of <= 126 data bytes in a non-PLAIN column rewritten with a
 * 1-byte header, unaligned; any other varlena aligned and copied.  Writes
 * into buf (zeroed, so padding is zero) unless buf is NULL; returns the
 * length.
 */
static TDB_UNUSED Size
tt_ref_encode(TupleDesc desc, const Datum *values, const bool *isnull,
              char *buf)
{
    Size off = 0;

    for (int i = 0; i < desc->natts; i++) {
        const TupleAttr *att = TupleDescAttr(desc, i);
        Size alignby = tdb_typalign_to_alignby(att->attalign);
        const char *p = DatumGetPointer(values[i]);
        Size len;

        if (isnull[i])
            continue;
        if (att->attbyval) {
            uint64 v = values[i];

            off = TYPEALIGN(alignby, off);
            if (buf)
                memcpy(buf + off, &v, (Size)att->attlen); /* little-endian */
            off += (Size)att->attlen;
            continue;
        }
        if (att->attlen > 0) {
            off = TYPEALIGN(alignby, off);
            len = (Size)att->attlen;
        } else if (att->attlen == -2) {
            len = strlen(p) + 1;
        } else if (VARATT_IS_1B(p)) { /* short or external: as is */
            len = VARSIZE_ANY(p);
        } else if (att->attstorage != 'p' && VARATT_IS_4B_U(p) &&
                   VARSIZE_4B(p) - VARHDRSZ <= 126) {
            Size data = VARSIZE_4B(p) - VARHDRSZ;

            if (buf) {
                buf[off] = (char)(((1 + data) << 1) | 1);
                memcpy(buf + off + 1, p + VARHDRSZ, data);
            }
            off += 1 + data;
            continue;
        } else {
            off = TYPEALIGN(alignby, off);
            len = VARSIZE_4B(p);
        }
        if (buf)
            memcpy(buf + off, p, len);
        off += len;
    }
    return off;
}

/* ----------------------------------------------------------------------
 * Exactly sized copies
 * ---------------------------------------------------------------------- */

/* An exactly sized malloc'd copy of tup's bytes; free with tt_exact_free. */
static TDB_UNUSED HeapTupleData
tt_exact_copy(const HeapTupleData *tup)
{
    HeapTupleData copy = *tup;

    copy.t_data = tt_malloc(tup->t_len);
    memcpy(copy.t_data, tup->t_data, tup->t_len);
    return copy;
}

static TDB_UNUSED void
tt_exact_free(HeapTupleData *tup)
{
    free(tup->t_data);
    tup->t_data = NULL;
}

/*
 * The heap view of an exactly sized malloc'd copy of mtup, whose 8 bytes
 * in front (the view's xmin/xmax, which must never be read) are poisoned
 * for ASan and valgrind.  Free with tt_exact_minimal_free.
 */
static TDB_UNUSED HeapTupleData
tt_exact_minimal_view(const MinimalTupleData *mtup)
{
    char *buf = tt_malloc(MINIMAL_TUPLE_OFFSET + mtup->t_len);
    HeapTupleData view;

    memcpy(buf + MINIMAL_TUPLE_OFFSET, mtup, mtup->t_len);
    TT_POISON(buf, MINIMAL_TUPLE_OFFSET);
    tdb_minimal_tuple_heap_view((MinimalTuple)(buf + MINIMAL_TUPLE_OFFSET),
                                &view);
    return view;
}

static TDB_UNUSED void
tt_exact_minimal_free(HeapTupleData *view)
{
    TT_UNPOISON(view->t_data, MINIMAL_TUPLE_OFFSET);
    free(view->t_data);
    view->t_data = NULL;
}

/* ----------------------------------------------------------------------
 * Checking formed tuples
 * ---------------------------------------------------------------------- */

/* Expected t_hoff for a tuple of natts columns. */
static TDB_UNUSED Size
tt_expected_hoff(int natts, bool hasnull)
{
    return MAXALIGN(SizeofHeapTupleHeader +
                    (hasnull ? (Size)BITMAPLEN(natts) : 0));
}

/*
 * Check every byte of a tuple just formed from values/isnull with desc:
 * the composite-Datum header fields, t_ctid, natts, infomask, t_hoff, the
 * null bitmap (bit set = not null, bits past natts clear), the zero bytes
 * between bitmap and t_hoff, and the data area against tt_ref_encode
 * (which also proves every padding byte is zero).
 */
static TDB_UNUSED void
tt_check_formed(HeapTuple tuple, TupleDesc desc, const Datum *values,
                const bool *isnull, const char *ctx)
{
    const HeapTupleHeaderData *td = tuple->t_data;
    const char *bytes = (const char *)td;
    int natts = desc->natts;
    bool hasnull = false, hasvar = false, hasext = false;
    uint16 infomask;
    Size hoff, ref_len;
    char *ref;

    for (int i = 0; i < natts; i++) {
        int16 attlen = TupleDescAttr(desc, i)->attlen;

        if (isnull[i]) {
            hasnull = true;
        } else if (attlen < 0) {
            hasvar = true;
            if (attlen == -1 && VARATT_IS_EXTERNAL(DatumGetPointer(values[i])))
                hasext = true;
        }
    }
    hoff = tt_expected_hoff(natts, hasnull);
    infomask = (uint16)((hasnull ? HEAP_HASNULL : 0) |
                        (hasvar ? HEAP_HASVARWIDTH : 0) |
                        (hasext ? HEAP_HASEXTERNAL : 0));

    if (td->t_hoff != hoff)
        tt_fail("%s: t_hoff %u, expected %zu", ctx, td->t_hoff, hoff);
    if (td->t_infomask2 != (uint16)natts)
        tt_fail("%s: t_infomask2 0x%04x, expected natts %d", ctx,
                td->t_infomask2, natts);
    if (td->t_infomask != infomask)
        tt_fail("%s: t_infomask 0x%04x, expected 0x%04x", ctx, td->t_infomask,
                infomask);
    if (VARSIZE(&td->t_choice.t_datum.datum_len_) != tuple->t_len ||
        td->t_choice.t_datum.datum_typmod != desc->tdtypmod ||
        td->t_choice.t_datum.datum_typeid != desc->tdtypeid)
        tt_fail("%s: composite Datum header fields wrong", ctx);
    if (ItemPointerGetBlockNumber(&td->t_ctid) != InvalidBlockNumber ||
        ItemPointerGetOffsetNumber(&td->t_ctid) != InvalidOffsetNumber)
        tt_fail("%s: t_ctid is not invalid", ctx);
    if (tuple->t_len < hoff) {
        tt_fail("%s: t_len %u below t_hoff %zu", ctx, tuple->t_len, hoff);
        return;
    }

    if (hasnull) {
        for (int i = 0; i < BITMAPLEN(natts) * 8; i++) {
            bool set = (td->t_bits[i >> 3] >> (i & 7)) & 1;
            bool want = i < natts && !isnull[i];

            if (set != want) {
                tt_fail("%s: null bitmap bit %d is %d, expected %d", ctx, i,
                        set, want);
                break;
            }
        }
    }
    for (Size b = SizeofHeapTupleHeader + (hasnull ? BITMAPLEN(natts) : 0);
         b < hoff; b++)
        if (bytes[b] != 0) {
            tt_fail("%s: header pad byte %zu is 0x%02x", ctx, b,
                    (uint8)bytes[b]);
            break;
        }

    ref_len = tt_ref_encode(desc, values, isnull, NULL);
    if (ref_len != tuple->t_len - hoff) {
        tt_fail("%s: data area of %zu bytes, expected %zu", ctx,
                tuple->t_len - hoff, ref_len);
        return;
    }
    ref = tt_malloc(ref_len);
    memset(ref, 0, ref_len);
    tt_ref_encode(desc, values, isnull, ref);
    for (Size b = 0; b < ref_len; b++)
        if (bytes[hoff + b] != ref[b]) {
            tt_fail("%s: data byte %zu is 0x%02x, expected 0x%02x", ctx, b,
                    (uint8)bytes[hoff + b], (uint8)ref[b]);
            break;
        }
    free(ref);
}

/* ----------------------------------------------------------------------
 * Checking deformation
 * ---------------------------------------------------------------------- */

/*
 * Deform `tuple` (which the caller made exactly sized) with desc every
 * way there is and compare with want/want_null (desc->natts entries,
 * columns past the tuple's natts holding the expected missing values):
 *   - tdb_heap_deform_tuple into exactly sized arrays;
 *   - tdb_heap_deform_some in random increments (isnull sized
 *     TYPEALIGN(8, natts) as documented), checking the state's nvalid;
 *   - tdb_heap_getattr of every column, in random order;
 *   - tdb_heap_tuple_verify.
 */
static TDB_UNUSED void
tt_check_deform(HeapTuple tuple, TupleDesc desc, const Datum *want,
                const bool *want_null, uint64 *rng, const char *ctx)
{
    int natts = desc->natts;
    Datum *values = tt_malloc((Size)natts * sizeof(Datum));
    bool *isnull = tt_malloc((Size)natts);
    bool *isnull8 = tt_malloc(TYPEALIGN(8, (Size)natts));
    int *order = tt_malloc((Size)natts * sizeof(int));
    DeformState state = DEFORM_STATE_INIT;

    /* poison: an entry left unwritten is then always wrong */
    for (int i = 0; i < natts; i++) {
        values[i] = (Datum)0xDEADBEEFDEADBEEFull;
        isnull[i] = !want_null[i];
        isnull8[i] = !want_null[i];
    }
    tdb_heap_deform_tuple(tuple, desc, values, isnull);
    for (int i = 0; i < natts; i++)
        if (!tt_expect_column(desc, i, want[i], want_null[i], values[i],
                              isnull[i], "%s: deform_tuple", ctx))
            break;

    for (int i = 0; i < natts; i++)
        values[i] = (Datum)0xDEADBEEFDEADBEEFull;
    while (state.nvalid < natts) {
        int step = 1 + (int)tt_rand(rng, tt_chance(rng, 50) ? 3 : natts);
        int upto = state.nvalid + step > natts ? natts : state.nvalid + step;
        int before = state.nvalid;

        tdb_heap_deform_some(tuple, desc, values, isnull8, &state, upto);
        if (state.nvalid != upto) {
            tt_fail("%s: deform_some(%d) left nvalid %d", ctx, upto,
                    state.nvalid);
            break;
        }
        /* asking again for no more is a no-op */
        tdb_heap_deform_some(tuple, desc, values, isnull8, &state,
                             (int)tt_rand(rng, (uint64)upto + 1));
        for (int i = before; i < upto; i++)
            if (!tt_expect_column(desc, i, want[i], want_null[i], values[i],
                                  isnull8[i], "%s: deform_some to %d", ctx,
                                  upto))
                break;
    }

    for (int i = 0; i < natts; i++)
        order[i] = i;
    for (int i = natts - 1; i > 0; i--) {
        int j = (int)tt_rand(rng, (uint64)i + 1);
        int t = order[i];

        order[i] = order[j];
        order[j] = t;
    }
    for (int k = 0; k < natts; k++) {
        int i = order[k];
        bool null;
        Datum d = tdb_heap_getattr(tuple, i + 1, desc, &null);

        if (!tt_expect_column(desc, i, want[i], want_null[i], d, null,
                              "%s: getattr", ctx))
            break;
    }

    tdb_heap_tuple_verify(tuple, desc);

    free(values);
    free(isnull);
    free(isnull8);
    free(order);
}

/* ----------------------------------------------------------------------
 * Catching errors
 * ---------------------------------------------------------------------- */

/* The message of the last error tt_catch caught. */
static TDB_UNUSED char tt_caught_message[ERRMSG_MAX];

/*
 * Run fn(arg): 0 if it returned normally, else the SQLSTATE of the ERROR
 * it raised (caught and flushed; the message is kept in
 * tt_caught_message).
 */
static TDB_UNUSED int
tt_catch(void (*fn)(void *), void *arg)
{
    volatile int code = 0;

    TDB_TRY();
    {
        fn(arg);
    }
    TDB_CATCH();
    {
        const ErrorData *e = tdb_error_current();

        code = e->sqlerrcode != 0 ? e->sqlerrcode : -1;
        snprintf(tt_caught_message, sizeof(tt_caught_message), "%s",
                 e->message);
        tdb_error_flush();
    }
    TDB_END_TRY();
    return code;
}

/* "XX001" for an SQLSTATE, in a static buffer. */
static TDB_UNUSED const char *
tt_sqlstate(int code)
{
    static char buf[6];

    tdb_sqlstate_unpack(code, buf);
    return buf;
}

#endif /* TDB_TESTS_TUPLE_TEST_H */
