/*
 * test_tuplehash.c -- the compact tuple hash table (executor/tuplehash.c)
 * against simple reference models: randomized inserts and lookups (about
 * two million on int keys, with a good and with degenerate hash functions
 * that force full 32-bit collisions), bare int4/int8 keys with and without
 * NULLs, general-format keys (text of many lengths across the 1-byte /
 * 4-byte header boundary, in either input header form, mixed multi-column
 * keys with NULLs, columns with their own equality function), growth,
 * iteration seeing every group exactly once, the decoded keys, groups big
 * enough for a chunk of their own, exact memory accounting and reset.
 */
#include "common/base.h"

#include <string.h>

#include "executor/tuplehash.h"
#include "test.h"
#include "tuple/varlena.h"

/* Per-group state of the tests: which key the group belongs to, a count. */
typedef struct GroupState {
    int64 id;
    int64 count;
} GroupState;

static uint32
mix32(uint64 x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb3f99a87dd97ULL;
    x ^= x >> 33;
    return (uint32)x;
}

static const TupleHashKeyColumn int4_col = {
    .typlen = 4, .typbyval = true, .typalign = 4, .not_null = true};
static const TupleHashKeyColumn int8_col = {
    .typlen = 8, .typbyval = true, .typalign = 8};
static const TupleHashKeyColumn int2_col = {
    .typlen = 2, .typbyval = true, .typalign = 2};
static const TupleHashKeyColumn text_col = {
    .typlen = -1, .typbyval = false, .typalign = 4};

/* Count every group once through the iterator; checks ids are unique. */
static uint64
iterate_and_check(TupleHashTable *t, int64 nids, const int64 *counts)
{
    TupleHashIterator it;
    GroupState *g;
    uint64 n = 0, nbad = 0;
    bool *seen = tdb_palloc0((Size)nids);

    tdb_tuplehash_iter_start(t, &it);
    while ((g = tdb_tuplehash_iter_next(t, &it)) != NULL) {
        n++;
        if (g->id < 0 || g->id >= nids || seen[g->id] ||
            (counts != NULL && counts[g->id] != g->count))
            nbad++;
        else
            seen[g->id] = true;
    }
    expect_u64_eq(nbad, 0);
    tdb_pfree(seen);
    return n;
}

/*
 * Randomized model test on one int4 or int8 key column: nops lookups/inserts of
 * keys drawn from [0, domain), hashed by `hashfn`; every returned group
 * must carry its key's id, is_new must match the model, and at the end the
 * counts, the group count and the iteration must agree with the model.
 */
static void
int_model(const TupleHashKeyColumn *col, int64 nops, int32 domain,
          uint32 (*hashfn)(int32))
{
    uint64 seed = tdb_test_seed();
    int64 *counts = tdb_palloc0((Size)domain * sizeof(int64));
    TupleHashTable *t =
        tdb_tuplehash_create(col, 1, sizeof(GroupState), 0, tdb_current_mcxt);
    uint64 distinct = 0, nbad = 0, nbad_key = 0;

    expect_true(tdb_tuplehash_key_is_bare(t));
    for (int64 i = 0; i < nops; i++) {
        int32 key = (int32)(tdb_test_rand(&seed) % (uint64)domain);
        Datum v = col->typlen == 4 ? Int32GetDatum(key)
                                   : Int64GetDatum((int64)key << 20);
        uint32 h = hashfn(key);

        if (tdb_test_rand(&seed) % 4 == 0) {
            GroupState *g = tdb_tuplehash_lookup(t, &v, NULL, h);

            if ((g == NULL) != (counts[key] == 0) ||
                (g != NULL && g->id != key))
                nbad++;
        } else {
            bool is_new;
            GroupState *g =
                tdb_tuplehash_lookup_or_insert(t, &v, NULL, h, &is_new);

            if (is_new != (counts[key] == 0))
                nbad++;
            if (is_new) {
                if (g->id != 0 || g->count != 0)
                    nbad++; /* new state must be zeroed */
                g->id = key;
                distinct++;
            }
            if (g->id != key)
                nbad++;
            g->count++;
            counts[key]++;
        }
    }
    expect_u64_eq(nbad, 0);
    expect_u64_eq(tdb_tuplehash_ngroups(t), distinct);
    expect_u64_eq(iterate_and_check(t, domain, counts), distinct);

    /* decoded keys */
    {
        TupleHashIterator it;
        GroupState *g;

        tdb_tuplehash_iter_start(t, &it);
        while ((g = tdb_tuplehash_iter_next(t, &it)) != NULL) {
            Datum v;
            bool isnull;

            tdb_tuplehash_group_key(t, g, &v, &isnull);
            if (isnull ||
                DatumGetInt64(v) != (col->typlen == 4 ? g->id : g->id << 20))
                nbad_key++;
        }
        expect_u64_eq(nbad_key, 0);
    }
    /* load factor kept at or under 3/4 */
    expect_u64_le(tdb_tuplehash_ngroups(t) * 4, tdb_tuplehash_nbuckets(t) * 3);
    tdb_tuplehash_destroy(t);
    tdb_pfree(counts);
}

static uint32
good_hash(int32 k)
{
    return mix32((uint64)(uint32)k);
}

/* Only 256 distinct hash values: many full collisions, long clusters. */
static uint32
hash_256(int32 k)
{
    return mix32((uint64)(uint32)k) & 0xff000000u;
}

/* Every key collides. */
static uint32
hash_const(int32 k)
{
    (void)k;
    return 42;
}

/*
 * The bare key lengths: 4 (int4 NOT NULL: one 32-bit compare), 8 (int8 NOT
 * NULL: one 64-bit compare; int4 with a null bitmap), 16 (int8 with a null
 * bitmap: memcmp).
 */
static TupleHashKeyColumn bare_cols[4];

static void
setup_bare_cols(void)
{
    bare_cols[0] = int4_col;
    bare_cols[1] = int8_col;
    bare_cols[1].not_null = true;
    bare_cols[2] = int4_col;
    bare_cols[2].not_null = false;
    bare_cols[3] = int8_col;
}

TEST_BEGIN(test_int_random_model)
{
    setup_bare_cols();
    int_model(&bare_cols[0], 2000000, 300000, good_hash);
    for (int i = 1; i < 4; i++)
        int_model(&bare_cols[i], 300000, 50000, good_hash);
}
TEST_END

TEST_BEGIN(test_int_collisions)
{
    setup_bare_cols();
    for (int i = 0; i < 4; i++) {
        int_model(&bare_cols[i], 100000, 3000, hash_256);
        int_model(&bare_cols[i], 10000, 400, hash_const);
    }
}
TEST_END

/* int8 key that may be NULL: the NULL group is one group like any other. */
TEST_BEGIN(test_int8_nullable)
{
    TupleHashTable *t = tdb_tuplehash_create(&int8_col, 1, sizeof(GroupState),
                                             0, tdb_current_mcxt);
    const int64 n = 50000;
    bool is_new;
    uint64 nbad = 0;

    expect_true(tdb_tuplehash_key_is_bare(t));
    for (int round = 0; round < 2; round++) {
        for (int64 i = 0; i < n; i++) {
            Datum v = Int64GetDatum(i * 1000003LL - (1LL << 40));
            bool isnull = false;
            GroupState *g = tdb_tuplehash_lookup_or_insert(
                t, &v, &isnull, mix32((uint64)i), &is_new);

            if (is_new != (round == 0))
                nbad++;
            g->id = i;
        }
        {
            Datum v = 0;
            bool isnull = true;
            GroupState *g =
                tdb_tuplehash_lookup_or_insert(t, &v, &isnull, 7, &is_new);

            expect_int_eq(is_new, round == 0);
            g->id = n;
        }
    }
    expect_u64_eq(nbad, 0);
    expect_u64_eq(tdb_tuplehash_ngroups(t), (uint64)n + 1);
    expect_u64_eq(iterate_and_check(t, n + 1, NULL), (uint64)n + 1);
    {
        /* a zero value is not the NULL key */
        Datum v = Int64GetDatum(0);
        bool isnull = false;

        expect_ptr_null(tdb_tuplehash_lookup(t, &v, &isnull, 7));
    }
    {
        TupleHashIterator it;
        GroupState *g;

        tdb_tuplehash_iter_start(t, &it);
        while ((g = tdb_tuplehash_iter_next(t, &it)) != NULL) {
            Datum v;
            bool isnull;

            tdb_tuplehash_group_key(t, g, &v, &isnull);
            if (g->id == n ? !isnull
                           : (isnull || DatumGetInt64(v) !=
                                            g->id * 1000003LL - (1LL << 40)))
                nbad++;
        }
        expect_u64_eq(nbad, 0);
    }
}
TEST_END

/* Text key number i: length varies over 0..299, content depends on i. */
static text *
make_text(int64 i, bool short_header)
{
    Size len = (Size)((i * 7919) % 300);
    char buf[320];
    text *v;

    for (Size k = 0; k < len; k++)
        buf[k] = (char)('a' + (i + (int64)k * 31) % 26);
    if (len > 0)
        snprintf(buf, sizeof(buf) < len ? sizeof(buf) : len + 1, "%lld",
                 (long long)i); /* unique prefix */
    if (len > 0 && len < 8) {
        /* too short for the number: key is "<i mod 26^len>" letters */
        int64 x = i;
        for (Size k = 0; k < len; k++) {
            buf[k] = (char)('A' + x % 26);
            x /= 26;
        }
    }
    if (short_header && len + 1 <= VARATT_SHORT_MAX) {
        v = tdb_palloc(len + 1);
        SET_VARSIZE_SHORT(v, len + 1);
        memcpy((char *)v + 1, buf, len);
        return v;
    }
    return tdb_text_from_bytes(buf, len);
}

/*
 * Text keys of lengths 0..299 (the 1-byte header stops at 126 bytes of
 * payload), each inserted twice: once with a 4-byte header, once with a
 * 1-byte one where that exists; both must find the same group.  Keys are
 * distinct by construction only for i where the bytes differ, so the
 * model is "bytes -> first id", checked through the decoded key.
 */
static void
text_model(uint32 (*hashfn)(const text *), int64 n)
{
    TupleHashTable *t = tdb_tuplehash_create(&text_col, 1, sizeof(GroupState),
                                             0, tdb_current_mcxt);
    uint64 nbad = 0, groups = 0;

    expect_false(tdb_tuplehash_key_is_bare(t));
    for (int round = 0; round < 2; round++) {
        for (int64 i = 0; i < n; i++) {
            text *v = make_text(i, round == 1);
            Datum d = PointerGetDatum(v);
            bool isnull = false, is_new;
            GroupState *g = tdb_tuplehash_lookup_or_insert(t, &d, &isnull,
                                                           hashfn(v), &is_new);
            Datum back;
            bool back_null;

            if (is_new) {
                if (round == 1)
                    nbad++;
                g->id = i;
                groups++;
            }
            g->count++;
            /* the group's key has exactly the probe's bytes */
            tdb_tuplehash_group_key(t, g, &back, &back_null);
            if (back_null ||
                VARSIZE_ANY_EXHDR(DatumGetPointer(back)) !=
                    VARSIZE_ANY_EXHDR(v) ||
                memcmp(VARDATA_ANY(DatumGetPointer(back)), VARDATA_ANY(v),
                       VARSIZE_ANY_EXHDR(v)) != 0)
                nbad++;
            tdb_pfree(v);
        }
    }
    expect_u64_eq(nbad, 0);
    expect_u64_eq(tdb_tuplehash_ngroups(t), groups);
    expect_u64_eq(iterate_and_check(t, n, NULL), groups);
    tdb_tuplehash_destroy(t);
}

static uint32
text_hash(const text *v)
{
    uint64 h = 1469598103934665603ULL;
    const unsigned char *p = (const unsigned char *)VARDATA_ANY(v);

    for (Size k = 0; k < VARSIZE_ANY_EXHDR(v); k++)
        h = (h ^ p[k]) * 1099511628211ULL;
    return mix32(h);
}

static uint32
text_hash_degenerate(const text *v)
{
    return (uint32)(VARSIZE_ANY_EXHDR(v) % 3); /* 3 hash values */
}

TEST_BEGIN(test_text_keys)
{
    text_model(text_hash, 20000);
    text_model(text_hash_degenerate, 1500);
}
TEST_END

/*
 * Mixed key (int4, text and int2 NULLable, int8 never NULL) in the
 * general format, with a hash of only 64 values: combination id c maps to
 * one key; NULLs in the first two columns come from id bits.
 */
static void
mixed_key(int64 c, Datum *values, bool *isnull, text **to_free)
{
    isnull[0] = c % 5 == 0;
    values[0] = Int32GetDatum((int32)(c / 7));
    isnull[1] = c % 3 == 0;
    *to_free =
        isnull[1] ? NULL : make_text(c % 1000 + (c / 1000) * 1000, c & 1);
    values[1] = PointerGetDatum(*to_free);
    isnull[2] = false;
    values[2] = Int64GetDatum(c * 3 - 7); /* makes the key unique to c */
    isnull[3] = c % 11 == 0;
    values[3] = Int16GetDatum((int16)(c % 13));
}

TEST_BEGIN(test_mixed_keys_model)
{
    TupleHashKeyColumn cols[4] = {int4_col, text_col, int8_col, int2_col};
    TupleHashTable *t;
    const int64 domain = 20000, nops = 200000;
    int64 *counts = tdb_palloc0((Size)domain * sizeof(int64));
    uint64 seed = tdb_test_seed(), nbad = 0, distinct = 0;

    cols[0].not_null = false;
    t = tdb_tuplehash_create(cols, 4, sizeof(GroupState), 16, tdb_current_mcxt);
    expect_false(tdb_tuplehash_key_is_bare(t));
    for (int64 i = 0; i < nops; i++) {
        int64 c = (int64)(tdb_test_rand(&seed) % (uint64)domain);
        Datum values[4];
        bool isnull[4], is_new;
        text *tofree;
        GroupState *g;

        mixed_key(c, values, isnull, &tofree);
        g = tdb_tuplehash_lookup_or_insert(t, values, isnull,
                                           mix32((uint64)c) & 63, &is_new);
        if (is_new != (counts[c] == 0))
            nbad++;
        if (is_new) {
            g->id = c;
            distinct++;
        }
        if (g->id != c)
            nbad++;
        g->count++;
        counts[c]++;
        if (tofree != NULL)
            tdb_pfree(tofree);
    }
    expect_u64_eq(nbad, 0);
    expect_u64_eq(iterate_and_check(t, domain, counts), distinct);

    /* every group decodes to its key */
    {
        TupleHashIterator it;
        GroupState *g;

        tdb_tuplehash_iter_start(t, &it);
        while ((g = tdb_tuplehash_iter_next(t, &it)) != NULL) {
            Datum want[4], got[4];
            bool want_null[4], got_null[4];
            text *tofree;

            mixed_key(g->id, want, want_null, &tofree);
            tdb_tuplehash_group_key(t, g, got, got_null);
            for (int k = 0; k < 4; k++) {
                if (want_null[k] != got_null[k]) {
                    nbad++;
                    continue;
                }
                if (want_null[k])
                    continue;
                if (k == 1) {
                    const void *a = DatumGetPointer(want[1]);
                    const void *b = DatumGetPointer(got[1]);

                    if (VARSIZE_ANY_EXHDR(a) != VARSIZE_ANY_EXHDR(b) ||
                        memcmp(VARDATA_ANY(a), VARDATA_ANY(b),
                               VARSIZE_ANY_EXHDR(a)) != 0)
                        nbad++;
                } else if (want[k] != got[k]) {
                    nbad++;
                }
            }
            if (tofree != NULL)
                tdb_pfree(tofree);
        }
    }
    expect_u64_eq(nbad, 0);
    tdb_pfree(counts);
}
TEST_END

/* float8 equality: -0 = 0 (bytes differ). */
static bool
float8_equal(Datum a, Datum b, void *arg)
{
    (void)arg;
    return DatumGetFloat8(a) == DatumGetFloat8(b);
}

/* bpchar-like equality: trailing spaces do not count. */
static bool
text_equal_ignoring_trailing_spaces(Datum a, Datum b, void *arg)
{
    const void *va = DatumGetPointer(a), *vb = DatumGetPointer(b);
    Size la = VARSIZE_ANY_EXHDR(va), lb = VARSIZE_ANY_EXHDR(vb);
    const char *pa = VARDATA_ANY(va), *pb = VARDATA_ANY(vb);

    (void)arg;
    while (la > 0 && pa[la - 1] == ' ')
        la--;
    while (lb > 0 && pb[lb - 1] == ' ')
        lb--;
    return la == lb && memcmp(pa, pb, la) == 0;
}

TEST_BEGIN(test_equality_functions)
{
    TupleHashKeyColumn cols[2] = {
        {.typlen = 8, .typbyval = true, .typalign = 8, .equal = float8_equal},
        {.typlen = -1,
         .typalign = 4,
         .equal = text_equal_ignoring_trailing_spaces}};
    TupleHashTable *t =
        tdb_tuplehash_create(cols, 2, sizeof(GroupState), 0, tdb_current_mcxt);
    static const char *const texts[] = {"ab", "ab ", "ab     ", "abc", ""};
    static const double nums[] = {0.0, -0.0, 1.5};
    bool is_new;

    expect_false(tdb_tuplehash_key_is_bare(t));
    for (int i = 0; i < (int)lengthof(nums); i++) {
        for (int j = 0; j < (int)lengthof(texts); j++) {
            Datum v[2] = {Float8GetDatum(nums[i]),
                          PointerGetDatum(tdb_text_from_cstring(texts[j]))};
            bool isnull[2] = {false, false};

            /* hash: the trimmed length; 0 and -0 hash alike */
            tdb_tuplehash_lookup_or_insert(
                t, v, isnull,
                (uint32)(strspn(texts[j], "abc") + (nums[i] == 1.5 ? 100 : 0)),
                &is_new);
        }
    }
    /* {0, -0} x {"ab"*, "abc", ""} + {1.5} x {"ab"*, "abc", ""} */
    expect_u64_eq(tdb_tuplehash_ngroups(t), 6);
    tdb_tuplehash_destroy(t);
}
TEST_END

/* Groups larger than the arena's 2 MB threshold get a chunk of their own. */
TEST_BEGIN(test_large_groups)
{
    TupleHashTable *t =
        tdb_tuplehash_create(&text_col, 1, 40, 0, tdb_current_mcxt);
    static const Size sizes[] = {3 << 20, 100, 1 << 20, 9 << 20, 5000, 7};
    text *vals[lengthof(sizes)];
    bool is_new;

    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < (int)lengthof(sizes); i++) {
            Datum d;
            bool isnull = false;
            char *st;

            if (round == 0) {
                char *buf = tdb_palloc(sizes[i]);

                memset(buf, 'a' + i, sizes[i]);
                vals[i] = tdb_text_from_bytes(buf, sizes[i]);
                tdb_pfree(buf);
            }
            d = PointerGetDatum(vals[i]);
            st = tdb_tuplehash_lookup_or_insert(t, &d, &isnull, 5, &is_new);
            expect_int_eq(is_new, round == 0);
            if (round == 0)
                st[0] = (char)i;
            else
                expect_int_eq(st[0], i);
        }
    }
    expect_u64_eq(tdb_tuplehash_ngroups(t), lengthof(sizes));
    expect_u64_ge(tdb_tuplehash_mem_allocated(t), tdb_tuplehash_group_bytes(t));
    tdb_tuplehash_destroy(t);
}
TEST_END

/*
 * Accounting: the table's figure is exactly the bytes its contexts hold
 * (everything below the parent but the parent's own blocks), at least the
 * buckets plus the groups; reset frees the groups and the grown buckets.
 */
TEST_BEGIN(test_memory_accounting_and_reset)
{
    MemoryContext parent =
        tdb_aset_create(tdb_top_mcxt, "parent", ALLOCSET_DEFAULT_SIZES);
    TupleHashTable *t = tdb_tuplehash_create(&int4_col, 1, 8, 0, parent);
    Size after_create = tdb_tuplehash_mem_allocated(t), after_reset = 0;
    const int32 n = 1000000;

    expect_u64_eq(tdb_tuplehash_mem_allocated(t),
                  tdb_mcxt_mem_allocated(parent, true) -
                      tdb_mcxt_mem_allocated(parent, false));
    for (int round = 0; round < 2; round++) {
        for (int32 i = 0; i < n; i++) {
            Datum v = Int32GetDatum(i);
            bool is_new;
            int64 *count = tdb_tuplehash_lookup_or_insert(
                t, &v, NULL, mix32((uint64)i), &is_new);

            (*count)++;
        }
        expect_u64_eq(tdb_tuplehash_ngroups(t), (uint64)n);
        expect_u64_eq(tdb_tuplehash_mem_allocated(t),
                      tdb_mcxt_mem_allocated(parent, true) -
                          tdb_mcxt_mem_allocated(parent, false));
        expect_u64_ge(tdb_tuplehash_mem_allocated(t),
                      tdb_tuplehash_nbuckets(t) * 8 +
                          tdb_tuplehash_group_bytes(t));
        /* bare int4 key (4 bytes, MAXALIGNed) + 8-byte state */
        expect_u64_eq(tdb_tuplehash_group_bytes(t), (uint64)n * 16);
        if (round == 0)
            printf("  # %d int4 groups, 8-byte state: %.1f bytes/group "
                   "(buckets %.1f, groups %.1f)\n",
                   n, (double)tdb_tuplehash_mem_allocated(t) / n,
                   (double)tdb_tuplehash_nbuckets(t) * 8 / n,
                   (double)tdb_tuplehash_group_bytes(t) / n);

        tdb_tuplehash_reset(t);
        expect_u64_eq(tdb_tuplehash_ngroups(t), 0);
        {
            TupleHashIterator it;

            tdb_tuplehash_iter_start(t, &it);
            expect_ptr_null(tdb_tuplehash_iter_next(t, &it));
        }
        /*
         * The arena is back to its empty state and the buckets to their
         * initial count; the AllocSet keeps the blocks its grown directory
         * and freed bucket arrays left on its free lists (a few KB), the
         * same after every reset: nothing leaks from round to round.
         */
        if (round == 0)
            after_reset = tdb_tuplehash_mem_allocated(t);
        expect_u64_eq(tdb_tuplehash_mem_allocated(t), after_reset);
        expect_u64_le(after_reset, after_create + 8192);
        expect_u64_eq(tdb_tuplehash_group_bytes(t), 0);
    }
    tdb_mcxt_delete(parent);
}
TEST_END

/*
 * A multi-column bare key with padding (int2 at 0, int8 at 8, NOT NULL):
 * the padding never differs between probes, so equal pairs meet.
 */
TEST_BEGIN(test_bare_multicolumn_padding)
{
    TupleHashKeyColumn cols[2] = {int2_col, int8_col};
    TupleHashTable *t;
    uint64 nbad = 0;

    cols[0].not_null = cols[1].not_null = true;
    t = tdb_tuplehash_create(cols, 2, sizeof(GroupState), 0, tdb_current_mcxt);
    expect_true(tdb_tuplehash_key_is_bare(t));
    for (int round = 0; round < 2; round++) {
        for (int64 i = 0; i < 30000; i++) {
            Datum v[2] = {Int16GetDatum((int16)(i % 300 - 150)),
                          Int64GetDatum(i / 300 - 7)};
            bool is_new;
            GroupState *g = tdb_tuplehash_lookup_or_insert(
                t, v, NULL, mix32((uint64)i) & 0xff, &is_new);
            Datum back[2];
            bool back_null[2];

            if (is_new != (round == 0))
                nbad++;
            if (is_new)
                g->id = i;
            tdb_tuplehash_group_key(t, g, back, back_null);
            if (g->id != i || back_null[0] || back_null[1] || back[0] != v[0] ||
                back[1] != v[1])
                nbad++;
        }
    }
    expect_u64_eq(nbad, 0);
    expect_u64_eq(tdb_tuplehash_ngroups(t), 30000);
}
TEST_END

/* No key columns: every row belongs to one group. */
TEST_BEGIN(test_zero_columns)
{
    TupleHashTable *t =
        tdb_tuplehash_create(NULL, 0, sizeof(GroupState), 0, tdb_current_mcxt);
    bool is_new;
    GroupState *first =
        tdb_tuplehash_lookup_or_insert(t, NULL, NULL, 0, &is_new);

    expect_true(is_new);
    for (int i = 0; i < 100; i++)
        expect_ptr_eq(tdb_tuplehash_lookup_or_insert(t, NULL, NULL, 0, &is_new),
                      first);
    expect_u64_eq(tdb_tuplehash_ngroups(t), 1);

    /* no state either (a hashed DISTINCT of no columns): still one group */
    t = tdb_tuplehash_create(NULL, 0, 0, 0, tdb_current_mcxt);
    for (int i = 0; i < 3; i++) {
        tdb_tuplehash_lookup_or_insert(t, NULL, NULL, 0, &is_new);
        expect_int_eq(is_new, i == 0);
    }
    expect_u64_eq(tdb_tuplehash_ngroups(t), 1);
}
TEST_END

/* A NULL in a column declared NOT NULL is a caller bug: an ERROR. */
TEST_BEGIN(test_null_in_not_null_column)
{
    TupleHashTable *t =
        tdb_tuplehash_create(&int4_col, 1, 8, 0, tdb_current_mcxt);
    Datum v = 0;
    bool isnull = true, is_new;

    expect_error(tdb_tuplehash_lookup_or_insert(t, &v, &isnull, 0, &is_new),
                 ERRCODE_INTERNAL_ERROR, "NOT NULL");
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "executor_tuplehash", TEST_CASE(test_int_random_model),
        TEST_CASE(test_int_collisions), TEST_CASE(test_int8_nullable),
        TEST_CASE(test_text_keys), TEST_CASE(test_mixed_keys_model),
        TEST_CASE(test_equality_functions), TEST_CASE(test_large_groups),
        TEST_CASE(test_memory_accounting_and_reset),
        TEST_CASE(test_bare_multicolumn_padding), TEST_CASE(test_zero_columns),
        TEST_CASE(test_null_in_not_null_column));
}
