/*
 * test_sortkey.c -- the normalized first sort key and the entry sorts
 * (executor/sortkey.c).
 *
 * Normalizers: for every type that has one, a pool of values made by the
 * type's input function (thousands of random ones plus the edge cases:
 * extreme integers, +-0, +-Infinity and NaN, empty strings and strings of
 * 7, 8 and 9 bytes, trailing spaces for bpchar, numeric zero, tiny, huge,
 * negative, long and special values) -- varlenas also copied with a
 * 1-byte header at an odd address -- is checked against the type's btree
 * comparison function, the oracle:
 *   - for random pairs: a < b => norm(a) <= norm(b) (< when exact), and
 *     a = b => norm(a) = norm(b);
 *   - along the whole pool sorted by the comparison function (qsort), the
 *     normalized keys never decrease, and for an exact normalizer they
 *     increase exactly where the values do.
 * Sorts: tdb_sort_entries_by_key (with and without a tie function) and
 * tdb_sort_entries_by_cmp on sizes 0 .. 100000 and many distributions
 * (random, narrow, few distinct, all equal, sorted, reverse, organ pipe,
 * one varying byte), compared entry by entry with qsort on the same data;
 * the result must be a permutation of the input, the tie function must
 * only ever see equal keys, the comparison counts must stay O(n log n),
 * and an error raised by the tie function must leave every entry in the
 * array.
 */
#include "common/base.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/sortkey.h"
#include "mmgr/mcxt.h"
#include "test.h"
#include "tuple/varlena.h"
#include "types/builtins.h"

/* ----------------------------------------------------------------------
 * Value pools
 * ---------------------------------------------------------------------- */

typedef struct Pool {
    Oid typid;
    bool is_varlena;
    int n;
    int cap;
    Datum *values;
} Pool;

static uint64 rng_state;

static uint64
rnd(void)
{
    return tdb_test_rand(&rng_state);
}

static uint64
rnd_below(uint64 n)
{
    return rnd() % n;
}

static void
pool_init(Pool *p, Oid typid)
{
    const TypeInfo *t = tdb_type_lookup(typid);

    p->typid = typid;
    p->is_varlena = t != NULL && t->len == -1;
    p->n = 0;
    p->cap = 1024;
    p->values = tdb_palloc(sizeof(Datum) * (Size)p->cap);
}

static void
pool_add_datum(Pool *p, Datum d)
{
    if (p->n == p->cap) {
        p->cap *= 2;
        p->values = tdb_repalloc(p->values, sizeof(Datum) * (Size)p->cap);
    }
    p->values[p->n++] = d;
}

/*
 * A copy of a 4-byte-header varlena with a 1-byte header, at an odd
 * address (as a value read from a tuple may be), or 0 if too long.
 */
static Datum
short_header_copy(Datum d)
{
    const varlena *v = DatumGetPointer(d);
    Size len = VARSIZE_ANY_EXHDR(v);
    char *buf;

    if (len + VARHDRSZ_SHORT > VARATT_SHORT_MAX)
        return 0;
    buf = tdb_palloc(len + 3);
    buf[1] = (char)(((len + VARHDRSZ_SHORT) << 1) | 1);
    memcpy(buf + 2, VARDATA_ANY(v), len);
    return PointerGetDatum(buf + 1);
}

/* Add the value of str (and its short-header twin for varlenas). */
static void
pool_add(Pool *p, const char *str)
{
    Datum d = tdb_type_input(p->typid, str, -1);

    pool_add_datum(p, d);
    if (p->is_varlena && (rnd() & 1)) {
        Datum s = short_header_copy(d);

        if (s != 0)
            pool_add_datum(p, s);
    }
}

static void pool_addf(Pool *p, const char *fmt, ...) TDB_PRINTF(2, 3);

static void
pool_addf(Pool *p, const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    pool_add(p, buf);
}

/* ----------------------------------------------------------------------
 * Checking a normalizer against the type's comparison
 * ---------------------------------------------------------------------- */

static PGFunction sort_oracle_cmp;

static int
sign_of(int r)
{
    return (r > 0) - (r < 0);
}

static int
oracle(Datum a, Datum b)
{
    return sign_of(DatumGetInt32(tdb_direct_call2(sort_oracle_cmp, a, b)));
}

static int
qsort_oracle(const void *a, const void *b)
{
    return oracle(*(const Datum *)a, *(const Datum *)b);
}

static void
check_pool(Pool *p, bool want_exact)
{
    const TypeSupport *ts = tdb_type_support(p->typid);
    bool exact = !want_exact;
    SortKeyNormalizer norm = tdb_sortkey_normalizer(p->typid, &exact);
    int nbad_pairs = 0, nbad_sorted = 0;

    expect_ptr_not_null(ts);
    expect_ptr_not_null(norm);
    expect_true(exact == want_exact);
    if (ts == NULL || norm == NULL)
        return;
    sort_oracle_cmp = ts->cmp;

    /* Random pairs (including a value with itself). */
    for (int i = 0; i < 200000; i++) {
        Datum a = p->values[rnd_below((uint64)p->n)];
        Datum b = p->values[rnd_below((uint64)p->n)];
        int c = oracle(a, b);
        uint64 ka = norm(a), kb = norm(b);
        bool ok;

        if (c == 0)
            ok = ka == kb;
        else if (c < 0)
            ok = exact ? ka < kb : ka <= kb;
        else
            ok = exact ? ka > kb : ka >= kb;
        if (!ok && nbad_pairs++ < 5)
            tdb_test_fail(__FILE__, __LINE__,
                          "type %u: %s vs %s: cmp %d, keys %016llx %016llx",
                          p->typid, tdb_type_output(p->typid, a),
                          tdb_type_output(p->typid, b), c,
                          (unsigned long long)ka, (unsigned long long)kb);
    }

    /* Along the pool in the type's order. */
    qsort(p->values, (size_t)p->n, sizeof(Datum), qsort_oracle);
    for (int i = 1; i < p->n; i++) {
        Datum a = p->values[i - 1], b = p->values[i];
        int c = oracle(a, b);
        uint64 ka = norm(a), kb = norm(b);
        bool ok = c <= 0 && ka <= kb && (c != 0 || ka == kb) &&
                  (!exact || c == 0 || ka < kb);

        if (!ok && nbad_sorted++ < 5)
            tdb_test_fail(__FILE__, __LINE__,
                          "type %u sorted: %s then %s: cmp %d, keys %016llx "
                          "%016llx",
                          p->typid, tdb_type_output(p->typid, a),
                          tdb_type_output(p->typid, b), c,
                          (unsigned long long)ka, (unsigned long long)kb);
    }
    expect_int_eq(nbad_pairs, 0);
    expect_int_eq(nbad_sorted, 0);
}

/* ----------------------------------------------------------------------
 * Normalizer tests, type by type
 * ---------------------------------------------------------------------- */

static void
add_int_values(Pool *p, int64 min, int64 max)
{
    const int64 edges[] = {0,
                           1,
                           -1,
                           2,
                           -2,
                           255,
                           256,
                           -255,
                           -256,
                           65535,
                           65536,
                           INT16_MAX,
                           INT16_MIN,
                           INT32_MAX,
                           INT32_MIN,
                           (int64)INT32_MAX + 1,
                           (int64)INT32_MIN - 1,
                           INT64_MAX,
                           INT64_MIN,
                           INT64_MAX - 1,
                           INT64_MIN + 1};

    for (size_t i = 0; i < lengthof(edges); i++)
        if (edges[i] >= min && edges[i] <= max)
            pool_addf(p, "%lld", (long long)edges[i]);
    for (int i = 0; i < 4000; i++) {
        uint64 r = rnd();
        int64 v;

        switch (i % 3) {
        case 0: { /* anywhere in range */
            uint64 range = (uint64)max - (uint64)min + 1; /* 0: all */

            v = range == 0 ? (int64)r : (int64)((uint64)min + r % range);
            break;
        }
        case 1: /* small, both signs */
            v = (int64)(r % 2001) - 1000;
            break;
        default: /* near the ends */
            v = (r & 1) ? max - (int64)(r % 1000 >> 1)
                        : min + (int64)(r % 1000 >> 1);
            break;
        }
        if (v < min || v > max)
            continue;
        pool_addf(p, "%lld", (long long)v);
    }
}

TEST_BEGIN(test_norm_integers)
{
    Pool p;

    pool_init(&p, INT2OID);
    add_int_values(&p, INT16_MIN, INT16_MAX);
    check_pool(&p, true);
    pool_init(&p, INT4OID);
    add_int_values(&p, INT32_MIN, INT32_MAX);
    check_pool(&p, true);
    pool_init(&p, INT8OID);
    add_int_values(&p, INT64_MIN, INT64_MAX);
    check_pool(&p, true);
    pool_init(&p, OIDOID);
    add_int_values(&p, 0, UINT32_MAX);
    check_pool(&p, true);

    pool_init(&p, BOOLOID);
    pool_add(&p, "t");
    pool_add(&p, "f");
    pool_add(&p, "yes");
    pool_add(&p, "off");
    check_pool(&p, true);
}
TEST_END

TEST_BEGIN(test_norm_char)
{
    Pool p;

    pool_init(&p, CHAROID);
    pool_add(&p, "");
    pool_add(&p, "\\377"); /* octal escape: byte 0xff */
    pool_add(&p, "\\200");
    pool_add(&p, "\xc3\xa9"); /* first byte of a UTF-8 sequence: 0xc3 */
    for (int c = 1; c < 128; c++) {
        char s[2] = {(char)c, 0};

        if (c != '\\')
            pool_add(&p, s);
    }
    for (int c = 0; c < 256; c += 7)
        pool_addf(&p, "\\%03o", c);
    check_pool(&p, true);
}
TEST_END

static void
add_float_text(Pool *p, double v, bool is_float4)
{
    if (isnan(v))
        pool_add(p, (rnd() & 1) ? "NaN" : "nan");
    else if (isinf(v))
        pool_add(p, v > 0 ? "Infinity" : "-Infinity");
    else if (is_float4)
        pool_addf(p, "%.9g", v);
    else
        pool_addf(p, "%.17g", v);
}

static void
add_float_values(Pool *p, bool is_float4)
{
    static const char *const edges[] = {
        "0",       "-0",       "NaN",           "Infinity", "-Infinity",
        "1",       "-1",       "1e-45",         "-1e-45",   "1e-300",
        "-1e-300", "4.9e-324", "-4.9e-324",     "1e300",    "-1e300",
        "3.4e38",  "-3.4e38",  "1.1754944e-38", "0.5",      "-0.5"};

    for (size_t i = 0; i < lengthof(edges); i++) {
        if (is_float4 && (strstr(edges[i], "300") || strstr(edges[i], "324")))
            continue;
        pool_add(p, edges[i]);
    }
    for (int i = 0; i < 4000; i++) {
        uint64 r = rnd();
        double v;

        if (i % 2 == 0) {
            /* any bit pattern: NaNs of every payload, subnormals */
            if (is_float4) {
                uint32 bits = (uint32)r;
                float f;

                memcpy(&f, &bits, sizeof(f));
                v = f;
            } else
                memcpy(&v, &r, sizeof(v));
        } else
            v = ((double)(int64)(r % 2001) - 1000.0) / 8.0; /* repeats */
        add_float_text(p, v, is_float4);
    }
}

TEST_BEGIN(test_norm_floats)
{
    Pool p;

    pool_init(&p, FLOAT4OID);
    add_float_values(&p, true);
    check_pool(&p, true);
    pool_init(&p, FLOAT8OID);
    add_float_values(&p, false);
    check_pool(&p, true);
}
TEST_END

TEST_BEGIN(test_norm_datetime)
{
    static const char *const dates[] = {
        "infinity",   "-infinity",  "4713-01-01 BC", "5874897-12-31",
        "2000-01-01", "1999-12-31", "0044-03-15 BC"};
    static const char *const times[] = {
        "00:00:00", "24:00:00", "23:59:59.999999", "12:00", "00:00:00.000001"};
    Pool p;

    pool_init(&p, DATEOID);
    for (size_t i = 0; i < lengthof(dates); i++)
        pool_add(&p, dates[i]);
    for (int i = 0; i < 3000; i++) {
        bool bc = rnd_below(10) == 0;

        pool_addf(&p, "%04d-%02d-%02d%s", 1 + (int)rnd_below(bc ? 4000 : 9999),
                  1 + (int)rnd_below(12), 1 + (int)rnd_below(28),
                  bc ? " BC" : "");
    }
    check_pool(&p, true);

    pool_init(&p, TIMEOID);
    for (size_t i = 0; i < lengthof(times); i++)
        pool_add(&p, times[i]);
    for (int i = 0; i < 3000; i++)
        pool_addf(&p, "%02d:%02d:%02d.%06d", (int)rnd_below(24),
                  (int)rnd_below(60), (int)rnd_below(60),
                  (int)rnd_below(1000000));
    check_pool(&p, true);

    for (int t = 0; t < 2; t++) {
        pool_init(&p, t == 0 ? TIMESTAMPOID : TIMESTAMPTZOID);
        pool_add(&p, "infinity");
        pool_add(&p, "-infinity");
        pool_add(&p, "4713-01-01 00:00:00 BC");
        pool_add(&p, "294276-12-31 23:59:59.999999");
        for (int i = 0; i < 3000; i++) {
            bool bc = rnd_below(20) == 0;

            pool_addf(&p, "%04d-%02d-%02d %02d:%02d:%02d.%06d%s%s",
                      1 + (int)rnd_below(bc ? 4000 : 9999),
                      1 + (int)rnd_below(12), 1 + (int)rnd_below(28),
                      (int)rnd_below(24), (int)rnd_below(60),
                      (int)rnd_below(60), (int)rnd_below(1000000),
                      t == 1 ? ((rnd() & 1) ? "+05:30" : "-08") : "",
                      bc ? " BC" : "");
        }
        check_pool(&p, true);
    }
}
TEST_END

/*
 * A random string of len bytes for text-like types: mostly from a small
 * alphabet (so prefixes are shared and values repeat), with spaces, tabs
 * and control bytes (below a space, so trailing-space rules matter).
 */
static void
random_string(char *buf, int len)
{
    static const char alphabet[] = "ab \t\x01~Z0";

    for (int i = 0; i < len; i++) {
        uint64 r = rnd();

        buf[i] = (r & 0x30) ? alphabet[(r >> 8) % (sizeof(alphabet) - 1)]
                            : (char)(1 + (r >> 16) % 127);
    }
    buf[len] = '\0';
}

static int
random_length(void)
{
    static const int lengths[] = {0, 1, 2, 6, 7, 8, 9, 10, 15, 16, 17, 40};

    return rnd_below(3) == 0 ? (int)rnd_below(130)
                             : lengths[rnd_below(lengthof(lengths))];
}

static void
add_string_values(Pool *p, bool trailing_spaces)
{
    char buf[256];

    pool_add(p, "");
    pool_add(p, " ");
    pool_add(p, "ab");
    pool_add(p, "ab\x01");
    pool_add(p, "ab ");
    pool_add(p, "ab\t");
    pool_add(p, "abcdefg");
    pool_add(p, "abcdefgh");
    pool_add(p, "abcdefghi");
    pool_add(p, "abcdefgh ");
    pool_add(p, "abcdefg ");
    pool_add(p, "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f");
    for (int i = 0; i < 5000; i++) {
        int len = random_length();

        random_string(buf, len);
        if (trailing_spaces && (rnd() & 1)) {
            int nspaces = (int)rnd_below(12);

            for (int s = 0; s < nspaces && len < 250; s++)
                buf[len++] = ' ';
            buf[len] = '\0';
        }
        pool_add(p, buf);
    }
}

TEST_BEGIN(test_norm_strings)
{
    Pool p;
    char buf[256];

    pool_init(&p, TEXTOID);
    add_string_values(&p, true);
    check_pool(&p, false);
    pool_init(&p, VARCHAROID);
    add_string_values(&p, true);
    check_pool(&p, false);
    pool_init(&p, BPCHAROID);
    add_string_values(&p, true);
    check_pool(&p, false);
    pool_init(&p, NAMEOID);
    add_string_values(&p, true);
    check_pool(&p, false);

    /* bytea: any byte, NULs included ('\x00' < '\x0000'). */
    pool_init(&p, BYTEAOID);
    pool_add(&p, "\\x");
    pool_add(&p, "\\x00");
    pool_add(&p, "\\x0000");
    pool_add(&p, "\\x00000000000000");
    pool_add(&p, "\\x0000000000000000");
    pool_add(&p, "\\x000000000000000000");
    pool_add(&p, "\\xffffffffffffffffff");
    for (int i = 0; i < 5000; i++) {
        int len = random_length() % 60;
        char *q = buf + 2;

        buf[0] = '\\';
        buf[1] = 'x';
        for (int j = 0; j < len; j++) {
            static const char hex[] = "0123456789abcdef";
            uint64 r = rnd();
            int byte =
                (r & 3) ? (int)((r >> 8) % 4) * 0x55 : (int)(r >> 8) & 0xFF;

            *q++ = hex[byte >> 4];
            *q++ = hex[byte & 15];
        }
        *q = '\0';
        pool_add(&p, buf);
    }
    check_pool(&p, false);

    pool_init(&p, UUIDOID);
    pool_add(&p, "00000000-0000-0000-0000-000000000000");
    pool_add(&p, "ffffffff-ffff-ffff-ffff-ffffffffffff");
    for (int i = 0; i < 4000; i++) {
        uint64 hi = rnd(), lo = rnd();

        if (rnd() & 1)
            hi &= UINT64_C(0xFF00000000000001); /* shared first bytes */
        pool_addf(&p, "%08x-%04x-%04x-%04x-%04x%08x", (uint32)(hi >> 32),
                  (uint32)(hi >> 16) & 0xFFFF, (uint32)hi & 0xFFFF,
                  (uint32)(lo >> 48), (uint32)(lo >> 32) & 0xFFFF, (uint32)lo);
    }
    check_pool(&p, false);
}
TEST_END

/* A random decimal: sign, up to 30 digits before and after the point,
 * sometimes an exponent. */
static void
random_numeric(char *buf, Size size)
{
    static const char *const stems[] = {
        "1", "9999", "12345678901234567890", "0.0001", "10000", "99999999"};
    char digits_before[64], digits_after[64];
    int nb = (int)rnd_below(31), na = (int)rnd_below(31);
    const char *sign = (rnd() & 1) ? "-" : "";

    for (int i = 0; i < nb; i++)
        digits_before[i] = (char)('0' + rnd_below(10));
    digits_before[nb] = '\0';
    for (int i = 0; i < na; i++)
        digits_after[i] = (char)('0' + rnd_below(10));
    digits_after[na] = '\0';

    switch (rnd_below(4)) {
    case 0: /* a shared stem with a random tail */
        snprintf(buf, size, "%s%s%s", sign, stems[rnd_below(lengthof(stems))],
                 digits_before);
        break;
    case 1: /* an exponent across the saturation range */
        snprintf(buf, size, "%s%s.%se%d", sign, nb ? digits_before : "1",
                 digits_after, (int)rnd_below(700) - 350);
        break;
    default:
        snprintf(buf, size, "%s%s.%s", sign, nb ? digits_before : "0",
                 digits_after);
        break;
    }
}

TEST_BEGIN(test_norm_numeric)
{
    static const char *const edges[] = {
        "0", "-0", "0.000", "NaN", "Infinity", "-Infinity", "1", "1.0", "1.50",
        "1.5", "-1.5", "-1.50", "0.0001", "-0.0001", "9999", "10000", "-9999",
        "-10000",
        /* tiny and huge, around weight -62 / 63 (10^-248 / 10^252) */
        "1e-248", "1e-249", "1e-252", "1e-253", "9.999e-249", "1e-300",
        "1e-1000", "-1e-248", "-1e-249", "-1e-300", "1e251", "1e252",
        "9.999e255", "1e256", "1e300", "1e1000", "-1e252", "-1e256", "-1e300",
        "-1e1000",
        /* the same first 16 digits, then different */
        "1234567890123456", "1234567890123456.1", "1234567890123457",
        "-1234567890123456", "-1234567890123456.1",
        "0.12345678901234567890123456789012345678901234567890",
        "0.12345678901234567890123456789012345678901234567891"};
    Pool p;
    char buf[256];

    pool_init(&p, NUMERICOID);
    for (size_t i = 0; i < lengthof(edges); i++)
        pool_add(&p, edges[i]);
    for (int i = 0; i < 6000; i++) {
        random_numeric(buf, sizeof(buf));
        pool_add(&p, buf);
    }
    check_pool(&p, false);
}
TEST_END

TEST_BEGIN(test_norm_none)
{
    bool exact = true;

    expect_ptr_null(tdb_sortkey_normalizer(INTERVALOID, &exact));
    expect_ptr_null(tdb_sortkey_normalizer(TIDOID, &exact));
    expect_ptr_null(tdb_sortkey_normalizer(InvalidOid, &exact));
}
TEST_END

/* ----------------------------------------------------------------------
 * The sorts
 * ---------------------------------------------------------------------- */

/* Per entry: a secondary value the tie function orders by. */
static uint32 *tie_values;
static uint64 ncalls;
static uint64 nbad_tie_calls;
static uint64 raise_after; /* raise in the tie function at this call */

static size_t
entry_index(const SortEntry *e)
{
    return e->ref >> 3;
}

static int
tie_cmp(const SortEntry *a, const SortEntry *b, void *arg)
{
    uint32 x = tie_values[entry_index(a)], y = tie_values[entry_index(b)];

    (void)arg;
    ncalls++;
    if (a->key != b->key)
        nbad_tie_calls++;
    if (raise_after != 0 && ncalls == raise_after)
        ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR),
                errmsg("tie function failed"));
    return x < y ? -1 : x > y ? 1 : 0;
}

/* key, then the secondary value: for tdb_sort_entries_by_cmp and qsort. */
static int
full_cmp(const SortEntry *a, const SortEntry *b, void *arg)
{
    uint32 x = tie_values[entry_index(a)], y = tie_values[entry_index(b)];

    (void)arg;
    ncalls++;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return x < y ? -1 : x > y ? 1 : 0;
}

static int
qsort_full(const void *a, const void *b)
{
    return full_cmp(a, b, NULL);
}

typedef enum Distribution {
    DIST_RANDOM, /* full 64-bit */
    DIST_SMALL,  /* 0 .. 2n, sign-flipped like an int */
    DIST_FEW,    /* 5 distinct */
    DIST_EQUAL,  /* all equal */
    DIST_SORTED,
    DIST_REVERSE,
    DIST_ORGAN,    /* up then down */
    DIST_ONE_BYTE, /* only byte 3 varies */
    DIST_TEXTLIKE, /* ASCII hex bytes, shared prefixes */
    DIST_NEARLY,   /* sorted, 1% swapped */
    NDIST
} Distribution;

static const char *const dist_names[NDIST] = {
    "random",  "small", "few",      "equal",    "sorted",
    "reverse", "organ", "one-byte", "textlike", "nearly-sorted"};

static uint64
make_key(Distribution dist, size_t i, size_t n)
{
    uint64 r = rnd();

    switch (dist) {
    case DIST_RANDOM:
        return r;
    case DIST_SMALL:
        return (r % (2 * n + 1)) ^ (UINT64_C(1) << 63);
    case DIST_FEW:
        return (r % 5) * UINT64_C(0x0101010101010101);
    case DIST_EQUAL:
        return UINT64_C(0xDEADBEEF);
    case DIST_SORTED:
    case DIST_NEARLY:
        return (uint64)i * 3;
    case DIST_REVERSE:
        return (uint64)(n - i) << 40;
    case DIST_ORGAN:
        return i < n / 2 ? i : n - i;
    case DIST_ONE_BYTE:
        return UINT64_C(0x1122334400667788) | ((r & 0xFF) << 24);
    case DIST_TEXTLIKE: {
        static const char hex[] = "0123456789abcdef";
        uint64 k = UINT64_C(0x3031) << 48; /* "01" */

        for (int b = 5; b >= 0; b--)
            k |= (uint64)(uint8)hex[(r >> (4 * b)) & 15] << (8 * b);
        return k;
    }
    default:
        return 0;
    }
}

static SortEntry *
make_entries(Distribution dist, size_t n, int tie_range)
{
    SortEntry *e = tdb_palloc(sizeof(SortEntry) * (n + 1));

    tie_values = tdb_palloc(sizeof(uint32) * (n + 1));
    for (size_t i = 0; i < n; i++) {
        e[i].key = make_key(dist, i, n);
        e[i].ref = (uintptr_t)i << 3;
        tie_values[i] = (uint32)rnd_below((uint64)tie_range);
    }
    if (dist == DIST_NEARLY) {
        for (size_t s = 0; s < n / 100; s++) {
            size_t a = rnd_below(n), b = rnd_below(n);
            SortEntry t = e[a];

            e[a] = e[b];
            e[b] = t;
        }
    }
    return e;
}

/* Every index 0..n-1 exactly once. */
static bool
is_permutation(const SortEntry *e, size_t n)
{
    bool *seen = tdb_palloc0(n + 1);
    bool ok = true;

    for (size_t i = 0; i < n && ok; i++) {
        size_t k = entry_index(&e[i]);

        if (k >= n || seen[k])
            ok = false;
        else
            seen[k] = true;
    }
    tdb_pfree(seen);
    return ok;
}

typedef enum SortVariant {
    VARIANT_KEY_TIE,
    VARIANT_KEY_ONLY,
    VARIANT_CMP
} SortVariant;

static void
check_sort(Distribution dist, size_t n, SortVariant variant)
{
    SortEntry *e = make_entries(dist, n, 4);
    SortEntry *ref = tdb_palloc(sizeof(SortEntry) * (n + 1));
    size_t nmismatch = 0;
    double bound;

    memcpy(ref, e, sizeof(SortEntry) * n);
    qsort(ref, n, sizeof(SortEntry), qsort_full);

    ncalls = nbad_tie_calls = 0;
    switch (variant) {
    case VARIANT_KEY_TIE:
        tdb_sort_entries_by_key(e, n, tie_cmp, NULL);
        break;
    case VARIANT_KEY_ONLY:
        tdb_sort_entries_by_key(e, n, NULL, NULL);
        break;
    case VARIANT_CMP:
        tdb_sort_entries_by_cmp(e, n, full_cmp, NULL);
        break;
    }

    for (size_t i = 0; i < n; i++) {
        bool same =
            e[i].key == ref[i].key && (variant == VARIANT_KEY_ONLY ||
                                       tie_values[entry_index(&e[i])] ==
                                           tie_values[entry_index(&ref[i])]);

        if (!same)
            nmismatch++;
    }
    if (nmismatch != 0 || !is_permutation(e, n) || nbad_tie_calls != 0)
        tdb_test_fail(__FILE__, __LINE__,
                      "%s n=%zu variant %d: %zu mismatches with qsort, "
                      "permutation %d, %llu tie calls on unequal keys",
                      dist_names[dist], n, (int)variant, nmismatch,
                      (int)is_permutation(e, n),
                      (unsigned long long)nbad_tie_calls);

    /* O(n log n) comparisons, whatever the input. */
    bound = 3.0 * (double)n * log2((double)n + 2) + 64;
    if ((double)ncalls > bound)
        tdb_test_fail(__FILE__, __LINE__,
                      "%s n=%zu variant %d: %llu comparisons (bound %.0f)",
                      dist_names[dist], n, (int)variant,
                      (unsigned long long)ncalls, bound);
    tdb_pfree(e);
    tdb_pfree(ref);
    tdb_pfree(tie_values);
}

TEST_BEGIN(test_sort_sizes_and_distributions)
{
    static const size_t sizes[] = {
        0,  1,   2,   3,   4,   5,   15,  16,  17,   31,   63,    64,
        65, 100, 127, 128, 129, 255, 256, 257, 1000, 4097, 10000, 100000};

    for (size_t s = 0; s < lengthof(sizes); s++)
        for (int d = 0; d < NDIST; d++)
            for (int v = 0; v < 3; v++) {
                if (sizes[s] == 100000 && d != DIST_RANDOM && d != DIST_FEW &&
                    d != DIST_SORTED && d != DIST_SMALL && d != DIST_TEXTLIKE)
                    continue;
                check_sort((Distribution)d, sizes[s], (SortVariant)v);
            }
    /* Random sizes. */
    for (int i = 0; i < 200; i++)
        check_sort((Distribution)rnd_below(NDIST), rnd_below(3000),
                   (SortVariant)rnd_below(3));
}
TEST_END

/*
 * The comparison sort's worst cases: "median of three killer" style
 * inputs and many equal entries must stay O(n log n) (the bound in
 * check_sort), with a comparison that sees only the tie values.
 */
static int
tie_only_cmp(const SortEntry *a, const SortEntry *b, void *arg)
{
    uint32 x = tie_values[entry_index(a)], y = tie_values[entry_index(b)];

    (void)arg;
    ncalls++;
    return x < y ? -1 : x > y ? 1 : 0;
}

TEST_BEGIN(test_sort_cmp_patterns)
{
    const size_t n = 50000;

    for (int pattern = 0; pattern < 6; pattern++) {
        SortEntry *e = tdb_palloc(sizeof(SortEntry) * n);
        double bound = 3.0 * (double)n * log2((double)n) + 64;
        bool sorted = true;

        tie_values = tdb_palloc(sizeof(uint32) * n);
        for (size_t i = 0; i < n; i++) {
            uint32 v;

            switch (pattern) {
            case 0: /* sawtooth */
                v = (uint32)(i % 37);
                break;
            case 1: /* pipe organ */
                v = (uint32)(i < n / 2 ? i : n - i);
                break;
            case 2: /* even ascending, odd descending */
                v = (uint32)((i & 1) ? n - i : i);
                break;
            case 3: /* two values */
                v = (uint32)(rnd() & 1);
                break;
            case 4: /* sorted with the last entry smallest */
                v = (uint32)(i + 1 == n ? 0 : i + 1);
                break;
            default: /* reverse */
                v = (uint32)(n - i);
                break;
            }
            e[i].key = 0;
            e[i].ref = (uintptr_t)i << 3;
            tie_values[i] = v;
        }
        ncalls = 0;
        tdb_sort_entries_by_cmp(e, n, tie_only_cmp, NULL);
        for (size_t i = 1; i < n; i++)
            if (tie_values[entry_index(&e[i - 1])] >
                tie_values[entry_index(&e[i])])
                sorted = false;
        expect_true(sorted);
        expect_true(is_permutation(e, n));
        if ((double)ncalls > bound)
            tdb_test_fail(__FILE__, __LINE__,
                          "pattern %d: %llu comparisons (bound %.0f)", pattern,
                          (unsigned long long)ncalls, bound);
        tdb_pfree(e);
        tdb_pfree(tie_values);
    }
}
TEST_END

/*
 * McIlroy's "killer adversary": a comparison that decides the values
 * lazily, as it is asked, so as to make a quicksort go quadratic.  Every
 * entry starts as "gas" (above every decided value); when two gas entries
 * meet, one is frozen to the next solid value -- the one that is not the
 * current pivot candidate.  (Against this introsort the presorted
 * check already wins: each partition freezes its entries in scan order.)
 */
static int *adv_val;
static int adv_gas, adv_nsolid;
static size_t adv_candidate;

static int
adversary_cmp(const SortEntry *a, const SortEntry *b, void *arg)
{
    size_t x = entry_index(a), y = entry_index(b);

    (void)arg;
    ncalls++;
    if (adv_val[x] == adv_gas && adv_val[y] == adv_gas) {
        if (x == adv_candidate)
            adv_val[x] = adv_nsolid++;
        else
            adv_val[y] = adv_nsolid++;
    }
    if (adv_val[x] == adv_gas)
        adv_candidate = x;
    else if (adv_val[y] == adv_gas)
        adv_candidate = y;
    return adv_val[x] < adv_val[y] ? -1 : adv_val[x] > adv_val[y] ? 1 : 0;
}

TEST_BEGIN(test_sort_cmp_adversary)
{
    const size_t n = 20000;
    SortEntry *e = tdb_palloc(sizeof(SortEntry) * n);
    double bound = 6.0 * (double)n * log2((double)n);
    bool sorted = true;

    adv_val = tdb_palloc(sizeof(int) * n);
    adv_gas = (int)n;
    adv_nsolid = 0;
    adv_candidate = SIZE_MAX; /* no candidate yet */
    for (size_t i = 0; i < n; i++) {
        e[i].key = 0;
        e[i].ref = (uintptr_t)i << 3;
        adv_val[i] = adv_gas;
    }
    ncalls = 0;
    tdb_sort_entries_by_cmp(e, n, adversary_cmp, NULL);
    for (size_t i = 1; i < n; i++)
        if (adv_val[entry_index(&e[i - 1])] > adv_val[entry_index(&e[i])])
            sorted = false;
    expect_true(sorted);
    expect_true(is_permutation(e, n));
    if ((double)ncalls > bound)
        tdb_test_fail(__FILE__, __LINE__,
                      "%llu comparisons against the adversary (bound %.0f)",
                      (unsigned long long)ncalls, bound);
}
TEST_END

/* A tie function that raises leaves every entry in the array. */
static void
check_tie_raises(bool by_key)
{
    const size_t n = 20000;
    SortEntry *volatile e = make_entries(DIST_FEW, n, 1000);

    ncalls = 0;
    raise_after = 5000;
    if (by_key)
        expect_error(tdb_sort_entries_by_key(e, n, tie_cmp, NULL),
                     ERRCODE_INTERNAL_ERROR, "tie function failed");
    else
        expect_error(tdb_sort_entries_by_cmp(e, n, tie_cmp, NULL),
                     ERRCODE_INTERNAL_ERROR, "tie function failed");
    raise_after = 0;
    expect_true(is_permutation(e, n));
}

TEST_BEGIN(test_sort_tie_raises)
{
    check_tie_raises(true);
    check_tie_raises(false);
}
TEST_END

/*
 * The same at every comparison of a small sort, where the insertion
 * sort runs: 12 entries in reverse order of their tie values (all keys
 * equal, or two keys, so that both the tie-only and the key-then-tie
 * comparisons are used), the tie function raising at its 1st, 2nd, ...
 * call until a sort completes.  Each failed sort must leave all 12.
 */
/* Sort e (n entries) with tie_cmp; true if the tie function raised. */
static bool
sort_raised(SortEntry *e, size_t n, bool by_key)
{
    volatile bool raised = false;

    TDB_TRY();
    {
        if (by_key)
            tdb_sort_entries_by_key(e, n, tie_cmp, NULL);
        else
            tdb_sort_entries_by_cmp(e, n, tie_cmp, NULL);
    }
    TDB_CATCH();
    {
        tdb_error_flush();
        raised = true;
    }
    TDB_END_TRY();
    return raised;
}

static void
check_small_tie_raises(int nkeys, bool by_key)
{
    const size_t n = 12;
    bool completed = false;

    for (uint64 k = 1; !completed && k < 1000; k++) {
        SortEntry *e = tdb_palloc(sizeof(SortEntry) * n);

        tie_values = tdb_palloc(sizeof(uint32) * n);
        for (size_t i = 0; i < n; i++) {
            e[i].key = (uint64)(i % (size_t)nkeys);
            e[i].ref = (uintptr_t)i << 3;
            tie_values[i] = (uint32)(n - i);
        }
        ncalls = 0;
        raise_after = k;
        completed = !sort_raised(e, n, by_key);
        raise_after = 0;
        if (!is_permutation(e, n))
            tdb_test_fail(__FILE__, __LINE__,
                          "%s sort of %zu entries (%d keys) lost an entry "
                          "when the tie function raised at call %llu",
                          by_key ? "key" : "cmp", n, nkeys,
                          (unsigned long long)k);
    }
    expect_true(completed);
}

TEST_BEGIN(test_small_sort_tie_raises)
{
    check_small_tie_raises(1, true);
    check_small_tie_raises(2, true);
    check_small_tie_raises(1, false);
}
TEST_END

int
main(int argc, char **argv)
{
    rng_state = tdb_test_seed();
    return test_main(
        argc, argv, "executor_sortkey", TEST_CASE(test_norm_integers),
        TEST_CASE(test_norm_char), TEST_CASE(test_norm_floats),
        TEST_CASE(test_norm_datetime), TEST_CASE(test_norm_strings),
        TEST_CASE(test_norm_numeric), TEST_CASE(test_norm_none),
        TEST_CASE(test_sort_sizes_and_distributions),
        TEST_CASE(test_sort_cmp_patterns), TEST_CASE(test_sort_cmp_adversary),
        TEST_CASE(test_sort_tie_raises),
        TEST_CASE(test_small_sort_tie_raises));
}
