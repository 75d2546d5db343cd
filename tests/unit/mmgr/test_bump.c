/*
 * test_bump.c -- Bump specifics: chunks are carved back to back with no
 * header in release builds (a header per chunk in checking builds), large
 * requests get a dedicated block without disturbing the head block, the
 * accounting is exact, reset keeps only the keeper block, and -- in
 * checking builds -- tdb_pfree, tdb_repalloc, tdb_mcxt_chunk_space and
 * tdb_mcxt_chunk_context on a Bump chunk raise an error that names the
 * context.  (In release builds those calls are undefined: not tested.)
 */
#include "common/base.h"

#include "mmgr_test.h"

/* Distance between two consecutive Bump chunks of `size` bytes. */
static Size
bump_stride(Size size)
{
    if (config_mcxt_checking)
        return CHUNK_HDR + MAXALIGN(size + 1);
    return MAXALIGN(size);
}

static MemoryContext
new_bump(const char *name)
{
    return tdb_bump_create(tdb_top_mcxt, name, ALLOCSET_DEFAULT_SIZES);
}

TEST_BEGIN(test_chunks_back_to_back)
{
    static const Size sizes[] = {1, 8, 13, 16, 100, 255};
    MemoryContext cxt = new_bump("bump");

    for (int i = 0; i < (int)lengthof(sizes); i++) {
        char *a = tdb_mcxt_alloc(cxt, sizes[i]);
        char *b = tdb_mcxt_alloc(cxt, sizes[i]);

        /* release builds: no header at all between chunks */
        expect_u64_eq((Size)(b - a), bump_stride(sizes[i]));
        fill_pattern(a, sizes[i], 1);
        fill_pattern(b, sizes[i], 2);
        expect_pattern(a, sizes[i], 1);
    }
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_used_space_is_exactly_the_chunks)
{
    MemoryContext cxt = new_bump("bump");
    MemoryContextCounters before, after;

    memset(&before, 0, sizeof(before));
    tdb_mcxt_stats_collect(cxt, false, &before);
    /* 100 x 24 bytes fit in the keeper in both builds */
    for (int i = 0; i < 100; i++)
        tdb_mcxt_alloc(cxt, 24);
    memset(&after, 0, sizeof(after));
    tdb_mcxt_stats_collect(cxt, false, &after);
    expect_u64_eq(after.totalspace, before.totalspace);
    expect_u64_eq((after.totalspace - after.freespace) -
                      (before.totalspace - before.freespace),
                  100 * bump_stride(24));
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_large_request_leaves_head_block_in_use)
{
    MemoryContext cxt;
    char *a, *big, *b;
    int live;

    hooks_install();
    cxt = new_bump("bump");
    a = tdb_mcxt_alloc(cxt, 40);
    live = counting_hooks.nlive;
    big = tdb_mcxt_alloc(cxt, 3 * 1024 * 1024);
    expect_int_eq(counting_hooks.nlive, live + 1);
    big[0] = big[3 * 1024 * 1024 - 1] = 1;
    b = tdb_mcxt_alloc(cxt, 40);
    expect_u64_eq((Size)(b - a), bump_stride(40));
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  counting_hooks.live_bytes);
    tdb_mcxt_delete(cxt);
    expect_int_eq(counting_hooks.nlive, 0);
    hooks_remove();
}
TEST_END

TEST_BEGIN(test_reset_keeps_only_keeper)
{
    MemoryContext cxt;
    Size fresh;

    hooks_install();
    cxt = new_bump("bump");
    fresh = tdb_mcxt_mem_allocated(cxt, false);
    expect_u64_eq(fresh, counting_hooks.live_bytes);
    expect_int_eq(counting_hooks.nlive, 1);
    /* per-row cycles stay inside the keeper: no OS calls */
    for (int row = 0; row < 1000; row++) {
        for (int i = 0; i < 20; i++)
            tdb_mcxt_alloc(cxt, 30 + (Size)i);
        tdb_mcxt_reset(cxt);
    }
    expect_u64_eq(counting_hooks.nallocs, 1);
    for (int i = 0; i < 5000; i++)
        tdb_mcxt_alloc(cxt, 100);
    tdb_mcxt_alloc(cxt, 2000000);
    expect_true(counting_hooks.nlive > 3);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  counting_hooks.live_bytes);
    tdb_mcxt_reset(cxt);
    expect_int_eq(counting_hooks.nlive, 1);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), fresh);
    expect_true(tdb_mcxt_is_empty(cxt));
    tdb_mcxt_delete(cxt);
    expect_int_eq(counting_hooks.nlive, 0);
    expect_u64_eq(counting_hooks.size_mismatches, 0);
    hooks_remove();
}
TEST_END

TEST_BEGIN(test_same_start_after_reset)
{
    MemoryContext cxt = new_bump("bump");
    void *first = tdb_mcxt_alloc(cxt, 64);

    for (int i = 0; i < 3000; i++)
        tdb_mcxt_alloc(cxt, 64);
    tdb_mcxt_reset(cxt);
    expect_ptr_eq(tdb_mcxt_alloc(cxt, 64), first);
    tdb_mcxt_delete(cxt);
}
TEST_END

/* ----- unsupported operations (checking builds) ----- */

static void
expect_unsupported_error(const char *what)
{
    expect_str_contains(tdb_test_last_error.message,
                        "not supported by the bump memory allocator");
    expect_str_contains(tdb_test_last_error.message, "\"BumpName\"");
    expect_str_contains(tdb_test_last_error.message, what);
}

/* All four unsupported calls on one chunk; the chunk stays usable. */
static void
check_unsupported_on(void *p, Size size)
{
    fill_pattern(p, size, 8);
    expect_error(tdb_pfree(p), ERRCODE_INTERNAL_ERROR, NULL);
    expect_unsupported_error("pfree");
    expect_error(tdb_repalloc(p, 10), ERRCODE_INTERNAL_ERROR, NULL);
    expect_unsupported_error("repalloc");
    expect_error(tdb_mcxt_chunk_space(p), ERRCODE_INTERNAL_ERROR, NULL);
    expect_unsupported_error("chunk_space");
    expect_error(tdb_mcxt_chunk_context(p), ERRCODE_INTERNAL_ERROR, NULL);
    expect_unsupported_error("chunk_context");
    expect_pattern(p, size, 8);
}

TEST_BEGIN(test_unsupported_operations_raise)
{
    MemoryContext cxt;

    if (!config_mcxt_checking)
        test_skip("undefined on Bump chunks in release builds");
    cxt = tdb_bump_create(tdb_top_mcxt, "BumpName", ALLOCSET_DEFAULT_SIZES);
    check_unsupported_on(tdb_mcxt_alloc(cxt, 32), 32);
    check_unsupported_on(tdb_mcxt_alloc(cxt, 0), 0);
    /* a chunk in a dedicated block, and one in a later block */
    check_unsupported_on(tdb_mcxt_alloc(cxt, 3000000), 100);
    for (int i = 0; i < 500; i++)
        tdb_mcxt_alloc(cxt, 100);
    check_unsupported_on(tdb_mcxt_alloc(cxt, 100), 100);
    /* the context still works and resets cleanly */
    tdb_mcxt_alloc(cxt, 10);
    tdb_mcxt_reset(cxt);
    tdb_mcxt_delete(cxt);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "mmgr_bump",
                     TEST_CASE(test_chunks_back_to_back),
                     TEST_CASE(test_used_space_is_exactly_the_chunks),
                     TEST_CASE(test_large_request_leaves_head_block_in_use),
                     TEST_CASE(test_reset_keeps_only_keeper),
                     TEST_CASE(test_same_start_after_reset),
                     TEST_CASE(test_unsupported_operations_raise));
}
