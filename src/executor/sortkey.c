/*
 * sortkey.c -- normalized first sort keys, and the in-memory sort of
 * 16-byte SortEntry items by them (see sortkey.h for the contract).
 *
 * Normalizers
 * -----------
 * Each maps a value to a uint64 whose unsigned order agrees with the
 * type's btree comparison function in src/types (the oracle):
 *
 *   int2/4/8, date, time, timestamp[tz]  the signed integer with its sign
 *                              bit flipped (exact)
 *   oid, bool, "char"          zero-extended (exact; "char" compares as
 *                              an unsigned byte)
 *   float4/8                   -0 made +0, every NaN made UINT64_MAX
 *                              (NaN = NaN > +Infinity, as flt8_cmp), the
 *                              others by the usual trick: negative values
 *                              have every bit inverted, positive ones the
 *                              sign bit set (exact)
 *   text, varchar, bytea       the first 8 data bytes big-endian, zero-
 *                              padded (abbreviating: a proper prefix pads
 *                              with zeroes, which no continuation can sort
 *                              below, so "ab" <= "ab\x01..." holds)
 *   bpchar                     the same over the value without its
 *                              trailing spaces (what bpchar compares)
 *   name                       the same over the NUL-terminated string
 *   uuid                       its first 8 bytes (memcmp order)
 *   numeric                    see numeric_normalize: class, saturated
 *                              weight, 4 leading base-10000 digits
 *
 * Values are read in place (short 1-byte varlena headers included, via
 * VARDATA_ANY): no normalizer allocates.  interval and the other types
 * have none; their sorts use tdb_sort_entries_by_cmp.
 *
 * Sorting by key
 * --------------
 * tdb_sort_entries_by_key is an in-place most-significant-digit radix
 * sort ("American flag" sort): a partition's keys are first ORed and
 * ANDed together, which shows the bits that vary; the partition is then
 * distributed on the highest *varying* byte (one counting pass, then
 * in-place swaps that move each entry into its bucket), and each
 * bucket is sorted the same way on a lower byte.  Constant leading bytes
 * -- the sign-flip bit of small integers, a common text prefix -- thus
 * cost nothing, and a bucket's keys always share one more byte than its
 * parent's, so the recursion is at most 8 deep, each level holding a
 * 256-entry array of bucket ends (2 kB) on the stack.  Partitions smaller
 * than RADIX_MIN_ENTRIES are finished by an introsort with the key
 * comparison inlined (key, then the tie function on equal keys); a
 * partition whose keys are all equal is sorted by the tie function alone.
 *
 * The comparison sorts (the small partitions above, and
 * tdb_sort_entries_by_cmp) are one introsort, compiled twice with the
 * comparison inlined (an always-inline body selected by a constant
 * mode): quicksort with the median of three (ninther above 40 entries),
 * Bentley-McIlroy three-way partitioning (runs of equal entries leave
 * the recursion at once, so few distinct values cost O(n log k)),
 * PostgreSQL's "is it already sorted?" scan before partitioning (sorted
 * input costs n - 1 comparisons), insertion sort below 16 entries,
 * heapsort when the depth passes 2 log2(n) (O(n log n) worst case).  The
 * quicksort keeps its pending ranges on a small array, always continuing
 * with the smaller side, so its stack is O(log n) too.  Nothing is
 * allocated: a tie or cmp function that raises leaves the array in some
 * order, with every entry still in it.
 *
 * Measured with bench/sort/bench_sort.c (make bench-sortkey): 5,000,000
 * entries, release build (gcc 12 -O2), one core of the development VM,
 * best of 3, ms; introsort and qsort_r compare keys through a callback:
 *
 *   keys                              radix   introsort   qsort_r
 *   int8 1..5M scrambled (the issue)    172        763       1248
 *   random 64-bit                       211        765       1235
 *   md5 hex prefixes (text-like)        247        787       1287
 *   100 distinct values                  52        293       1363
 *
 * The radix sort is 5-7x faster than glibc's qsort_r on distinct keys,
 * 26x on few distinct ones.  Placing entries four at a time (see
 * radix_distribute) instead of by swap cycles took the int case from
 * 322 ms to 214, and duplicates from 210 to 49.  RADIX_MIN_ENTRIES: 64
 * gave 214 / 263 ms (int / random), 96..256 all about 170 / 210.
 */
#include "common/base.h"

#include <math.h>
#include <string.h>

#include "catalog/pg_type.h"
#include "executor/sortkey.h"
#include "tuple/varlena.h"

_Static_assert(sizeof(SortEntry) == 16, "SortEntry must be 16 bytes");

/* ----------------------------------------------------------------------
 * Normalizers
 * ---------------------------------------------------------------------- */

#define SIGN_BIT_64 (UINT64_C(1) << 63)

static uint64
int2_normalize(Datum value)
{
    return (uint64)(int64)DatumGetInt16(value) ^ SIGN_BIT_64;
}

static uint64
int4_normalize(Datum value)
{
    return (uint64)(int64)DatumGetInt32(value) ^ SIGN_BIT_64;
}

/* int8, time, timestamp, timestamptz: all int64 inside. */
static uint64
int8_normalize(Datum value)
{
    return (uint64)DatumGetInt64(value) ^ SIGN_BIT_64;
}

/* oid: a stored oid above 2^31 reads back sign-extended (datum.h), so
 * only the low 32 bits count. */
static uint64
oid_normalize(Datum value)
{
    return (uint64)DatumGetObjectId(value);
}

static uint64
bool_normalize(Datum value)
{
    return DatumGetBool(value) ? 1 : 0;
}

/* "char" compares as an unsigned byte (char.c). */
static uint64
char_normalize(Datum value)
{
    return (uint64)(uint8)DatumGetChar(value);
}

static uint64
float4_normalize(Datum value)
{
    float f = DatumGetFloat4(value);
    uint32 bits;

    if (unlikely(isnan(f)))
        return UINT64_MAX;
    if (f == 0.0f)
        f = 0.0f; /* -0 equals +0 */
    memcpy(&bits, &f, sizeof(bits));
    bits = (bits & UINT32_C(0x80000000)) ? ~bits : bits | UINT32_C(0x80000000);
    return (uint64)bits << 32;
}

static uint64
float8_normalize(Datum value)
{
    double f = DatumGetFloat8(value);
    uint64 bits;

    if (unlikely(isnan(f)))
        return UINT64_MAX; /* above +Infinity's 0xFFF0... */
    if (f == 0.0)
        f = 0.0;
    memcpy(&bits, &f, sizeof(bits));
    return (bits & SIGN_BIT_64) ? ~bits : bits | SIGN_BIT_64;
}

/* The first min(len, 8) bytes at p as a big-endian number, zero-padded
 * on the right. */
static inline uint64
bytes_prefix(const char *p, Size len)
{
    uint64 v = 0;

    memcpy(&v, p, len < 8 ? len : 8);
    return __builtin_bswap64(v); /* base.h: little-endian only */
}

/* text, varchar, bytea: memcmp then length. */
static uint64
bytes_normalize(Datum value)
{
    const varlena *v = DatumGetPointer(value);

    Assert(!VARATT_IS_EXTERNAL(v) && !VARATT_IS_COMPRESSED(v));
    return bytes_prefix(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v));
}

/*
 * bpchar compares without trailing spaces: "ab " = "ab" < "ab\t" (a tab
 * is below a space, so stripping matters for the order, not only for
 * equality).
 */
static uint64
bpchar_normalize(Datum value)
{
    const varlena *v = DatumGetPointer(value);
    const char *data = VARDATA_ANY(v);
    Size len = VARSIZE_ANY_EXHDR(v);

    Assert(!VARATT_IS_EXTERNAL(v) && !VARATT_IS_COMPRESSED(v));
    while (len > 0 && data[len - 1] == ' ')
        len--;
    return bytes_prefix(data, len);
}

/* name: a NUL-terminated string in a 64-byte buffer, compared by strlen
 * and memcmp (name.c). */
static uint64
name_normalize(Datum value)
{
    const char *s = DatumGetPointer(value);

    return bytes_prefix(s, strnlen(s, 8));
}

/* uuid: 16 bytes compared by memcmp. */
static uint64
uuid_normalize(Datum value)
{
    return bytes_prefix(DatumGetPointer(value), 8);
}

/*
 * numeric.  The stored form is PostgreSQL's (diagrammed in
 * types/numeric.c): after the varlena header a little-endian uint16
 * whose top bits choose the layout --
 *   10 short: sign bit 0x2000, 7-bit two's-complement weight in the low
 *      bits, then the base-10000 int16 digits
 *   00 / 01 long: positive / negative, then an int16 weight, then digits
 *   11 special: 0xC000 NaN, 0xD000 +Infinity, 0xF000 -Infinity
 * The value is sum(digit[i] * 10000^(weight - i)); stored digits have no
 * leading zero (skipped here anyway, for safety), zero has none.
 *
 * The code, from the top bit down:
 *   3 bits  class: -Infinity 0, negative 1, zero 2, positive 3,
 *           +Infinity 4, NaN 5 (NaN sorts above +Infinity, cmp_numerics)
 *   61 bits for a positive value: the magnitude --
 *           7 bits  weight + 63 for weights -62..63; 0 for any smaller
 *                   weight and 127 for any larger, the digits then 0
 *                   (saturation merges values, it never reorders them)
 *           54 bits the first four digits as one decimal number
 *                   d0*10^12 + d1*10^8 + d2*10^4 + d3  (< 10^16 < 2^54)
 *           for a negative value, 2^61 - 1 minus its magnitude, so larger
 *           magnitudes come first; 0 for the others.
 * A larger weight with a non-zero leading digit is a larger magnitude,
 * and equal weights compare by digits lexicographically, of which the
 * first four are kept: a < b implies code(a) <= code(b).
 */
#define NUMKEY_CLASS_SHIFT 61
#define NUMKEY_BODY_MAX ((UINT64_C(1) << NUMKEY_CLASS_SHIFT) - 1)
#define NUMKEY_DIGIT_BITS 54
#define NUMKEY_WEIGHT_BIAS 63
#define NUMKEY_WEIGHT_MIN (-62) /* field 1 */
#define NUMKEY_WEIGHT_MAX 63    /* field 126 */
#define NUMKEY_WEIGHT_ABOVE 127

enum {
    NUMKEY_NINF = 0,
    NUMKEY_NEG = 1,
    NUMKEY_ZERO = 2,
    NUMKEY_POS = 3,
    NUMKEY_PINF = 4,
    NUMKEY_NAN = 5
};

static uint64
numeric_normalize(Datum value)
{
    const varlena *v = DatumGetPointer(value);
    const char *data = VARDATA_ANY(v);
    Size datalen = VARSIZE_ANY_EXHDR(v);
    uint16 header;
    Size hdrsize;
    int weight;
    bool negative;
    Size ndigits;
    const char *digits;
    uint64 magnitude;
    uint64 packed = 0;

    Assert(!VARATT_IS_EXTERNAL(v) && !VARATT_IS_COMPRESSED(v));
    if (unlikely(datalen < sizeof(uint16)))
        return (uint64)NUMKEY_NAN << NUMKEY_CLASS_SHIFT; /* corrupt */
    memcpy(&header, data, sizeof(header));
    switch (header & 0xC000) {
    case 0xC000: /* special */
        if ((header & 0xF000) == 0xD000)
            return (uint64)NUMKEY_PINF << NUMKEY_CLASS_SHIFT;
        if ((header & 0xF000) == 0xF000)
            return (uint64)NUMKEY_NINF << NUMKEY_CLASS_SHIFT;
        return (uint64)NUMKEY_NAN << NUMKEY_CLASS_SHIFT;
    case 0x8000: /* short */
        hdrsize = sizeof(uint16);
        negative = (header & 0x2000) != 0;
        weight = (header & 0x0040) ? (int)(header & 0x003F) - 64
                                   : (int)(header & 0x003F);
        break;
    default: { /* long */
        int16 w16;

        hdrsize = 2 * sizeof(uint16);
        if (unlikely(datalen < hdrsize))
            return (uint64)NUMKEY_NAN << NUMKEY_CLASS_SHIFT;
        memcpy(&w16, data + sizeof(uint16), sizeof(w16));
        negative = (header & 0xC000) == 0x4000;
        weight = w16;
        break;
    }
    }
    ndigits = (datalen - hdrsize) / sizeof(int16);
    digits = data + hdrsize;

    /* Leading zero digits (not stored by numeric.c, but harmless). */
    for (;;) {
        int16 d;

        if (ndigits == 0)
            return (uint64)NUMKEY_ZERO << NUMKEY_CLASS_SHIFT;
        memcpy(&d, digits, sizeof(d));
        if (d != 0)
            break;
        digits += sizeof(int16);
        ndigits--;
        weight--;
    }

    if (weight < NUMKEY_WEIGHT_MIN)
        magnitude = 0;
    else if (weight > NUMKEY_WEIGHT_MAX)
        magnitude = (uint64)NUMKEY_WEIGHT_ABOVE << NUMKEY_DIGIT_BITS;
    else {
        for (int i = 0; i < 4; i++) {
            int16 d = 0;

            if ((Size)i < ndigits)
                memcpy(&d, digits + i * sizeof(int16), sizeof(d));
            packed = packed * 10000 + (uint64)(uint16)d;
        }
        magnitude =
            ((uint64)(weight + NUMKEY_WEIGHT_BIAS) << NUMKEY_DIGIT_BITS) |
            packed;
    }
    if (negative)
        return ((uint64)NUMKEY_NEG << NUMKEY_CLASS_SHIFT) |
               (NUMKEY_BODY_MAX - magnitude);
    return ((uint64)NUMKEY_POS << NUMKEY_CLASS_SHIFT) | magnitude;
}

SortKeyNormalizer
tdb_sortkey_normalizer(Oid typid, bool *exact)
{
    *exact = true;
    switch (typid) {
    case INT2OID:
        return int2_normalize;
    case INT4OID:
    case DATEOID:
        return int4_normalize;
    case INT8OID:
    case TIMEOID:
    case TIMESTAMPOID:
    case TIMESTAMPTZOID:
        return int8_normalize;
    case OIDOID:
        return oid_normalize;
    case BOOLOID:
        return bool_normalize;
    case CHAROID:
        return char_normalize;
    case FLOAT4OID:
        return float4_normalize;
    case FLOAT8OID:
        return float8_normalize;
    default:
        break;
    }
    *exact = false;
    switch (typid) {
    case TEXTOID:
    case VARCHAROID:
    case BYTEAOID:
        return bytes_normalize;
    case BPCHAROID:
        return bpchar_normalize;
    case NAMEOID:
        return name_normalize;
    case UUIDOID:
        return uuid_normalize;
    case NUMERICOID:
        return numeric_normalize;
    default:
        return NULL;
    }
}

/* ----------------------------------------------------------------------
 * The comparison sort (introsort), inlined per comparison mode
 * ---------------------------------------------------------------------- */

typedef enum SortMode {
    SORT_BY_CMP,    /* cmp alone */
    SORT_BY_KEY,    /* key alone (cmp unused) */
    SORT_BY_KEY_TIE /* key, then cmp on equal keys */
} SortMode;

/* Below this many entries, insertion sort. */
#define INSERTION_MAX 16
/* From this many entries, the pivot is the median of three medians. */
#define NINTHER_MIN 40

static TDB_ALWAYS_INLINE int
entry_cmp(const SortEntry *a, const SortEntry *b, SortMode mode,
          SortEntryCmp cmp, void *arg)
{
    if (mode == SORT_BY_CMP)
        return cmp(a, b, arg);
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return mode == SORT_BY_KEY_TIE ? cmp(a, b, arg) : 0;
}

static TDB_ALWAYS_INLINE void
entry_swap(SortEntry *a, SortEntry *b)
{
    SortEntry t = *a;

    *a = *b;
    *b = t;
}

static TDB_ALWAYS_INLINE void
entry_vecswap(SortEntry *a, SortEntry *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        entry_swap(&a[i], &b[i]);
}

/*
 * Insertion sort.  Comparing keys alone cannot fail, so that mode moves
 * the entry being inserted through a hole (one copy per step); with a
 * callback, which may raise, the entry is also stored at each step, so
 * that the array holds every entry at every call (the file header's
 * promise).
 */
static TDB_ALWAYS_INLINE void
insertion_sort(SortEntry *e, size_t n, SortMode mode, SortEntryCmp cmp,
               void *arg)
{
    for (size_t i = 1; i < n; i++) {
        SortEntry x = e[i];
        size_t j = i;

        for (; j > 0 && entry_cmp(&x, &e[j - 1], mode, cmp, arg) < 0; j--) {
            e[j] = e[j - 1];
            if (mode != SORT_BY_KEY)
                e[j - 1] = x;
        }
        if (mode == SORT_BY_KEY)
            e[j] = x;
    }
}

/* Heapsort's sift-down, by swaps: a comparison that raises leaves every
 * entry in the array (heapsort is the rare fallback; speed is no
 * concern). */
static TDB_ALWAYS_INLINE void
sift_down(SortEntry *e, size_t root, size_t n, SortMode mode, SortEntryCmp cmp,
          void *arg)
{
    for (;;) {
        size_t child = 2 * root + 1;

        if (child >= n)
            break;
        if (child + 1 < n &&
            entry_cmp(&e[child], &e[child + 1], mode, cmp, arg) < 0)
            child++;
        if (entry_cmp(&e[root], &e[child], mode, cmp, arg) >= 0)
            break;
        entry_swap(&e[root], &e[child]);
        root = child;
    }
}

static TDB_ALWAYS_INLINE void
heap_sort(SortEntry *e, size_t n, SortMode mode, SortEntryCmp cmp, void *arg)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(e, i, n, mode, cmp, arg);
    for (size_t end = n; end-- > 1;) {
        entry_swap(&e[0], &e[end]);
        sift_down(e, 0, end, mode, cmp, arg);
    }
}

static TDB_ALWAYS_INLINE SortEntry *
median3(SortEntry *a, SortEntry *b, SortEntry *c, SortMode mode,
        SortEntryCmp cmp, void *arg)
{
    if (entry_cmp(a, b, mode, cmp, arg) < 0) {
        if (entry_cmp(b, c, mode, cmp, arg) < 0)
            return b;
        return entry_cmp(a, c, mode, cmp, arg) < 0 ? c : a;
    }
    if (entry_cmp(b, c, mode, cmp, arg) > 0)
        return b;
    return entry_cmp(a, c, mode, cmp, arg) > 0 ? c : a;
}

/* A range waiting on the quicksort's own stack. */
typedef struct PendingRange {
    SortEntry *e;
    size_t n;
    int depth_left;
} PendingRange;

/*
 * The introsort itself.  The larger side of each partition waits on
 * pending[] while the smaller one is sorted, so at most log2(n) + 1
 * ranges ever wait: 64 entries cover any size_t n.
 */
static TDB_ALWAYS_INLINE void
introsort(SortEntry *e, size_t n, SortMode mode, SortEntryCmp cmp, void *arg)
{
    PendingRange pending[64];
    int npending = 0;
    int depth_left = 2 * (64 - __builtin_clzll((unsigned long long)n | 1));

    for (;;) {
        size_t pa, pb, pc, pd, s, nless, ngreater;
        bool sorted = true;

        if (n <= INSERTION_MAX) {
            insertion_sort(e, n, mode, cmp, arg);
            goto next_range;
        }
        if (depth_left-- == 0) {
            heap_sort(e, n, mode, cmp, arg);
            goto next_range;
        }
        /* PostgreSQL's presorted check: cheap on random input (it stops
         * at the first inversion), linear on sorted input. */
        for (size_t i = 1; i < n; i++) {
            if (entry_cmp(&e[i - 1], &e[i], mode, cmp, arg) > 0) {
                sorted = false;
                break;
            }
        }
        if (sorted)
            goto next_range;

        /* Pivot to e[0]. */
        {
            SortEntry *lo = e, *mid = e + n / 2, *hi = e + n - 1;

            if (n >= NINTHER_MIN) {
                size_t d = n / 8;

                lo = median3(lo, lo + d, lo + 2 * d, mode, cmp, arg);
                mid = median3(mid - d, mid, mid + d, mode, cmp, arg);
                hi = median3(hi - 2 * d, hi - d, hi, mode, cmp, arg);
            }
            entry_swap(e, median3(lo, mid, hi, mode, cmp, arg));
        }

        /*
         * Bentley-McIlroy: entries equal to the pivot collect at both
         * ends, [1, pa) and (pd, n), while [pa, pb) < pivot < (pc, pd].
         */
        pa = pb = 1;
        pc = pd = n - 1;
        for (;;) {
            int r;

            while (pb <= pc &&
                   (r = entry_cmp(&e[pb], e, mode, cmp, arg)) <= 0) {
                if (r == 0)
                    entry_swap(&e[pa++], &e[pb]);
                pb++;
            }
            while (pb <= pc &&
                   (r = entry_cmp(&e[pc], e, mode, cmp, arg)) >= 0) {
                if (r == 0)
                    entry_swap(&e[pc], &e[pd--]);
                pc--;
            }
            if (pb > pc)
                break;
            entry_swap(&e[pb++], &e[pc--]);
        }
        /* Bring the equal ends to the middle. */
        s = Min(pa, pb - pa);
        entry_vecswap(e, e + pb - s, s);
        s = Min(pd - pc, n - 1 - pd);
        entry_vecswap(e + pb, e + n - s, s);
        nless = pb - pa;
        ngreater = pd - pc;

        /* Continue with the smaller side; the larger one waits. */
        {
            SortEntry *less = e, *greater = e + n - ngreater;

            if (nless < ngreater) {
                if (ngreater > 1) {
                    pending[npending++] =
                        (PendingRange){greater, ngreater, depth_left};
                }
                n = nless;
            } else {
                if (nless > 1) {
                    pending[npending++] =
                        (PendingRange){less, nless, depth_left};
                }
                e = greater;
                n = ngreater;
            }
            Assert(npending <= (int)lengthof(pending));
            if (n > 1)
                continue;
        }

    next_range:
        if (npending == 0)
            return;
        npending--;
        e = pending[npending].e;
        n = pending[npending].n;
        depth_left = pending[npending].depth_left;
    }
}

static void
sort_by_cmp(SortEntry *e, size_t n, SortEntryCmp cmp, void *arg)
{
    introsort(e, n, SORT_BY_CMP, cmp, arg);
}

static void
sort_by_key_small(SortEntry *e, size_t n, SortEntryCmp tie, void *arg)
{
    if (tie != NULL)
        introsort(e, n, SORT_BY_KEY_TIE, tie, arg);
    else
        introsort(e, n, SORT_BY_KEY, NULL, NULL);
}

void
tdb_sort_entries_by_cmp(SortEntry *e, size_t n, SortEntryCmp cmp, void *arg)
{
    if (n > 1)
        sort_by_cmp(e, n, cmp, arg);
}

/* ----------------------------------------------------------------------
 * The radix sort
 * ---------------------------------------------------------------------- */

/*
 * Partitions below this many entries go to the inlined introsort
 * (measured with bench_sort on 5M entries: see the file header).
 */
#ifndef RADIX_MIN_ENTRIES
#define RADIX_MIN_ENTRIES 128
#endif

#define RADIX_DIGIT(key, shift) ((unsigned)((key) >> (shift)) & 0xFFu)

/*
 * Distribute e[0..n) on the byte at shift into 256 buckets; ends[b]
 * receives the end of bucket b (bucket b starts at ends[b - 1], or 0).
 * A function of its own so that the scratch next[] is off the stack
 * while the caller recurses.
 */
static TDB_NOINLINE void
radix_distribute(SortEntry *e, size_t n, int shift, size_t ends[256])
{
    size_t next[256];
    size_t counts[256] = {0};
    size_t sum = 0;
    uint8 remaining[256]; /* buckets with entries still to place */
    int nremaining = 0;

    for (size_t i = 0; i < n; i++)
        counts[RADIX_DIGIT(e[i].key, shift)]++;
    for (int b = 0; b < 256; b++) {
        next[b] = sum;
        sum += counts[b];
        ends[b] = sum;
    }
    /*
     * Place the entries (Skarupke's variant of the American flag sort):
     * visit each bucket's unplaced part, swapping every entry found there
     * to the next free place of its own bucket; the entry coming back may
     * belong anywhere and waits for the next round.  A visited bucket's
     * own entries go to its front (next[b] never passes the visit), so
     * the four digits of a group can be read before any of its swaps:
     * four independent loads instead of the classic swap cycle's chain of
     * dependent ones (a quarter faster on 5M random keys).  Every swap
     * places one entry, so the rounds cost O(n) in all.
     */
    for (int b = 0; b < 256; b++)
        if (next[b] < ends[b])
            remaining[nremaining++] = (uint8)b;
    while (nremaining > 0) {
        int nkept = 0;

        for (int r = 0; r < nremaining; r++) {
            int b = remaining[r];
            size_t p = next[b], end = ends[b];

            for (; p + 4 <= end; p += 4) {
                unsigned d0 = RADIX_DIGIT(e[p].key, shift);
                unsigned d1 = RADIX_DIGIT(e[p + 1].key, shift);
                unsigned d2 = RADIX_DIGIT(e[p + 2].key, shift);
                unsigned d3 = RADIX_DIGIT(e[p + 3].key, shift);

                entry_swap(&e[p], &e[next[d0]++]);
                entry_swap(&e[p + 1], &e[next[d1]++]);
                entry_swap(&e[p + 2], &e[next[d2]++]);
                entry_swap(&e[p + 3], &e[next[d3]++]);
            }
            for (; p < end; p++)
                entry_swap(&e[p], &e[next[RADIX_DIGIT(e[p].key, shift)]++]);
            if (next[b] < end)
                remaining[nkept++] = (uint8)b;
        }
        nremaining = nkept;
    }
}

static void
radix_sort(SortEntry *e, size_t n, SortEntryCmp tie, void *arg)
{
    uint64 key_or = 0, key_and = UINT64_MAX, varying;
    size_t ends[256];
    size_t start;
    int shift;

    if (n < RADIX_MIN_ENTRIES) {
        sort_by_key_small(e, n, tie, arg);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        key_or |= e[i].key;
        key_and &= e[i].key;
    }
    varying = key_or & ~key_and;
    if (varying == 0) {
        /* All keys equal: only the tie function can order them. */
        if (tie != NULL)
            sort_by_cmp(e, n, tie, arg);
        return;
    }
    shift = (63 - __builtin_clzll(varying)) & ~7;
    radix_distribute(e, n, shift, ends);

    /* Each bucket's keys agree on this byte and every higher one. */
    start = 0;
    for (int b = 0; b < 256; b++) {
        size_t count = ends[b] - start;

        if (count > 1)
            radix_sort(e + start, count, tie, arg);
        start = ends[b];
    }
}

void
tdb_sort_entries_by_key(SortEntry *e, size_t n, SortEntryCmp tie, void *arg)
{
    if (n > 1)
        radix_sort(e, n, tie, arg);
}
