/*
 * test_detoast.c -- the per-query detoast cache (toast/detoast.h) on
 * compressed inline values: one decompression per value however many
 * uses and copies, pins that outlive nothing, LRU eviction within the
 * budget, values larger than the budget, slices, and an env deleted
 * while pins in other contexts are live.  Out-of-line values go through
 * the same cache; they are exercised end to end (tests/regress toast_*).
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>

#include "test.h"
#include "toast/compress.h"
#include "toast/detoast.h"

/* A compressible value of n bytes whose content depends on seed. */
static varlena *
make_plain(Size n, int seed)
{
    varlena *v = tdb_palloc(VARHDRSZ + n);

    char tag[16];
    int taglen = snprintf(tag, sizeof(tag), "%08d", seed);

    SET_VARSIZE(v, VARHDRSZ + n);
    for (Size i = 0; i < n; i++)
        VARDATA(v)[i] = (char)('a' + (int)((i / 64 + (Size)seed) % 26));
    memcpy(VARDATA(v), tag, Min((Size)taglen, n)); /* distinct per seed */
    return v;
}

static varlena *
make_compressed(Size n, int seed)
{
    varlena *c = tdb_toast_compress(make_plain(n, seed), TOAST_COMPRESSION_LZ4);

    if (c == NULL)
        tdb_test_fail(__FILE__, __LINE__, "value did not compress");
    return c;
}

/* A copy of v at another address (as a sort or a hash table copies). */
static varlena *
copy_of(const varlena *v)
{
    varlena *c = tdb_palloc(VARSIZE_4B(v));

    memcpy(c, v, VARSIZE_4B(v));
    return c;
}

static bool
equals_plain(const varlena *v, Size n, int seed)
{
    varlena *p = make_plain(n, seed);

    return VARSIZE_ANY_EXHDR(v) == n &&
           memcmp(VARDATA_ANY(v), VARDATA(p), n) == 0;
}

static DetoastEnv *
new_env(Size budget)
{
    return tdb_detoast_env_create(tdb_current_mcxt, budget, NULL, NULL);
}

TEST_BEGIN(test_one_decompression_per_value)
{
    DetoastEnv *env = new_env(1 << 20);
    DetoastEnv *prev = tdb_detoast_env_push(env);
    varlena *c = make_compressed(100000, 1);
    varlena *first = tdb_detoast(c);
    const DetoastStats *st = tdb_detoast_env_stats(env);

    expect_true(equals_plain(first, 100000, 1));
    for (int i = 0; i < 100; i++) {
        /* the same bytes at another address are the same value */
        varlena *again = tdb_detoast(i % 2 ? c : copy_of(c));

        expect_ptr_eq(again, first);
    }
    expect_u64_eq(st->requests, 101);
    expect_u64_eq(st->hits, 100);
    expect_u64_eq(st->decompressions, 1);
    tdb_detoast_env_pop(prev);
}
TEST_END

TEST_BEGIN(test_plain_values_untouched)
{
    DetoastEnv *env = new_env(1 << 20);
    DetoastEnv *prev = tdb_detoast_env_push(env);
    varlena *p = make_plain(5000, 2);

    expect_ptr_eq(tdb_detoast(p), p);
    expect_u64_eq(tdb_detoast_env_stats(env)->requests, 0);
    tdb_detoast_env_pop(prev);
}
TEST_END

/* Values used in a context that is reset become evictable; values
 * pinned are not evicted however full the cache is. */
TEST_BEGIN(test_pins_and_eviction)
{
    DetoastEnv *env = new_env(300000);
    DetoastEnv *prev = tdb_detoast_env_push(env);
    const DetoastStats *st = tdb_detoast_env_stats(env);
    MemoryContext row = tdb_aset_create(tdb_current_mcxt, "row",
                                        ALLOCSET_DEFAULT_SIZES);
    varlena *a = make_compressed(100000, 3);
    varlena *b = make_compressed(100000, 4);
    varlena *c = make_compressed(100000, 5);
    varlena *d = make_compressed(100000, 6);
    MemoryContext old = tdb_mcxt_switch_to(row);
    varlena *pa, *pb, *pc;

    /* three 100 kB values in a 300 kB budget, all pinned by "row": the
     * third goes over budget rather than evict a pinned value */
    pa = tdb_detoast(a);
    pb = tdb_detoast(b);
    pc = tdb_detoast(c);
    expect_u64_eq(st->evictions, 0);
    expect_true(equals_plain(pa, 100000, 3));
    expect_true(equals_plain(pb, 100000, 4));
    expect_true(equals_plain(pc, 100000, 5));
    tdb_mcxt_switch_to(old);
    tdb_mcxt_reset(row); /* the row is done: nothing pinned */

    old = tdb_mcxt_switch_to(row);
    (void)tdb_detoast(b); /* b is now the most recent */
    (void)tdb_detoast(d);
    /* the least recently used unpinned entries went: a, then c */
    expect_u64_ge(st->evictions, 1);
    expect_u64_eq(st->decompressions, 4);
    (void)tdb_detoast(b);
    expect_u64_eq(st->decompressions, 4); /* b stayed */
    (void)tdb_detoast(a);
    expect_u64_eq(st->decompressions, 5); /* a was evicted */
    tdb_mcxt_switch_to(old);
    tdb_mcxt_delete(row);
    tdb_detoast_env_pop(prev);
}
TEST_END

TEST_BEGIN(test_acquire_release)
{
    DetoastEnv *env = new_env(150000);
    DetoastEnv *prev = tdb_detoast_env_push(env);
    const DetoastStats *st = tdb_detoast_env_stats(env);
    varlena *a = make_compressed(100000, 7);
    varlena *b = make_compressed(100000, 8);
    DetoastRef ra, rb;
    varlena *pa = tdb_detoast_acquire(a, &ra);

    /* a is held: b cannot evict it and goes over the budget */
    (void)tdb_detoast_acquire(b, &rb);
    expect_u64_eq(st->evictions, 0);
    expect_true(equals_plain(pa, 100000, 7));
    tdb_detoast_release(&rb);
    tdb_detoast_release(&ra);
    /* released: a third value may evict them */
    (void)tdb_detoast_acquire(make_compressed(100000, 9), &ra);
    expect_u64_ge(st->evictions, 1);
    tdb_detoast_release(&ra);
    tdb_detoast_env_pop(prev);
}
TEST_END

TEST_BEGIN(test_larger_than_budget)
{
    DetoastEnv *env = new_env(10000);
    DetoastEnv *prev = tdb_detoast_env_push(env);
    const DetoastStats *st = tdb_detoast_env_stats(env);
    varlena *c = make_compressed(100000, 10);
    varlena *x = tdb_detoast(c);
    varlena *y = tdb_detoast(c);

    expect_true(equals_plain(x, 100000, 10));
    expect_ptr_ne(x, y); /* not kept: detoasted each time, as PostgreSQL */
    expect_u64_eq(st->uncached, 2);
    expect_u64_eq(st->decompressions, 2);
    tdb_detoast_env_pop(prev);
}
TEST_END

TEST_BEGIN(test_no_env_and_no_budget)
{
    varlena *c = make_compressed(50000, 11);
    DetoastEnv *env;
    DetoastEnv *prev;

    /* no env: decompressed into the current context */
    expect_true(equals_plain(tdb_detoast(c), 50000, 11));
    /* budget 0: the cache is off */
    env = new_env(0);
    prev = tdb_detoast_env_push(env);
    expect_ptr_ne(tdb_detoast(c), tdb_detoast(c));
    expect_u64_eq(tdb_detoast_env_stats(env)->decompressions, 2);
    tdb_detoast_env_pop(prev);
}
TEST_END

TEST_BEGIN(test_slices)
{
    DetoastEnv *env = new_env(1 << 20);
    DetoastEnv *prev = tdb_detoast_env_push(env);
    varlena *c = make_compressed(100000, 12);
    varlena *plain = make_plain(100000, 12);
    varlena *s = tdb_detoast_slice(c, 5000, 300);

    expect_u64_eq(VARSIZE_ANY_EXHDR(s), 300);
    expect_true(memcmp(VARDATA_ANY(s), VARDATA(plain) + 5000, 300) == 0);
    /* clipped at the end; a slice of a plain value */
    s = tdb_detoast_slice(c, 99990, 100);
    expect_u64_eq(VARSIZE_ANY_EXHDR(s), 10);
    s = tdb_detoast_slice(plain, 10, -1);
    expect_u64_eq(VARSIZE_ANY_EXHDR(s), 99990);
    expect_u64_eq(tdb_toast_raw_datum_size(c), 100000 + VARHDRSZ);
    expect_u64_eq(tdb_toast_datum_size(c), VARSIZE_4B(c));
    tdb_detoast_env_pop(prev);
}
TEST_END

/*
 * A scan reading each value once cycles through the probationary
 * segment (1 MB here), not the whole budget; a value used twice is
 * protected and survives the scan.
 */
TEST_BEGIN(test_scan_resistance)
{
    DetoastEnv *env = new_env(64 * 1024 * 1024);
    DetoastEnv *prev = tdb_detoast_env_push(env);
    const DetoastStats *st = tdb_detoast_env_stats(env);
    MemoryContext row = tdb_aset_create(tdb_current_mcxt, "row",
                                        ALLOCSET_DEFAULT_SIZES);
    varlena *kept = make_compressed(20000, 100);
    varlena *kept_value;
    MemoryContext old;

    (void)tdb_detoast(kept);
    kept_value = tdb_detoast(kept); /* used twice: protected */
    old = tdb_mcxt_switch_to(row);
    for (int i = 0; i < 400; i++) {
        varlena *c;

        tdb_mcxt_switch_to(old);
        c = make_compressed(20000, 200 + i); /* distinct values */
        tdb_mcxt_switch_to(row);
        expect_true(equals_plain(tdb_detoast(c), 20000, 200 + i));
        tdb_mcxt_reset(row);
    }
    tdb_mcxt_switch_to(old);
    /* 400 x 20 kB went through a 1 MB segment */
    expect_u64_lt(st->bytes_peak, 1024 * 1024 + 2 * 21000 + 20000 + 1000);
    expect_u64_gt(st->evictions, 300);
    expect_ptr_eq(tdb_detoast(kept), kept_value); /* still cached */
    expect_u64_eq(st->decompressions, 401);
    tdb_mcxt_delete(row);
    tdb_detoast_env_pop(prev);
}
TEST_END

/* The env's context goes while a context outside it still holds a pin:
 * the pin's callback must not touch the freed cache (ASan/valgrind). */
TEST_BEGIN(test_env_deleted_before_pins)
{
    MemoryContext query = tdb_aset_create(tdb_current_mcxt, "query",
                                          ALLOCSET_DEFAULT_SIZES);
    MemoryContext outside = tdb_aset_create(tdb_current_mcxt, "outside",
                                            ALLOCSET_DEFAULT_SIZES);
    DetoastEnv *env = tdb_detoast_env_create(query, 1 << 20, NULL, NULL);
    DetoastEnv *prev = tdb_detoast_env_push(env);
    MemoryContext old = tdb_mcxt_switch_to(outside);
    varlena *c = make_compressed(50000, 13);

    expect_true(equals_plain(tdb_detoast(c), 50000, 13));
    tdb_mcxt_switch_to(old);
    tdb_mcxt_delete(query); /* also deactivates the env */
    expect_ptr_eq(tdb_detoast_env_current(), prev);
    tdb_mcxt_delete(outside); /* runs the detached pin's callback */
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "toast_detoast",
                     TEST_CASE(test_one_decompression_per_value),
                     TEST_CASE(test_plain_values_untouched),
                     TEST_CASE(test_pins_and_eviction),
                     TEST_CASE(test_acquire_release),
                     TEST_CASE(test_larger_than_budget),
                     TEST_CASE(test_no_env_and_no_budget),
                     TEST_CASE(test_slices),
                     TEST_CASE(test_scan_resistance),
                     TEST_CASE(test_env_deleted_before_pins));
}
