/*
 * test_aset.c -- AllocSet specifics: the power-of-two size classes (8 << k,
 * k = 0..10) and their boundaries, the chunk limit (8192 with default
 * sizes, 1024 with ALLOCSET_SMALL_SIZES, derived from maxBlockSize),
 * dedicated blocks for larger requests and their exact accounting,
 * free-list reuse, in-place realloc, the keeper block, block growth, and
 * the salvaging of a full block's tail onto the free lists.
 *
 * Checking builds class a request by size + 1 (room for the sentinel), so
 * expected sizes are computed from aset_need() below.
 */
#include "common/base.h"

#include "mmgr_test.h"

#define ASET_MAX_CLASS ((Size)8192)

/* Bytes AllocSet sets aside for a request (checking: + sentinel byte). */
static Size
aset_need(Size size)
{
    return config_mcxt_checking ? size + 1 : size;
}

/* Largest request that is still a small (size-class) chunk. */
static Size
largest_small_request(Size chunk_limit)
{
    return config_mcxt_checking ? chunk_limit - 1 : chunk_limit;
}

/* What tdb_mcxt_chunk_space() must report for a fresh chunk. */
static Size
expected_space(Size size, Size chunk_limit)
{
    Size need = aset_need(size);

    if (need <= chunk_limit)
        return (need <= 8 ? 8 : tdb_next_power_of_2_64(need)) + CHUNK_HDR;
    return MAXALIGN(need) + CHUNK_HDR;
}

/*
 * True if a request of `size` got a block of its own: allocating it grew
 * mem_allocated and freeing it gave exactly that back.
 */
static bool
gets_dedicated_block(MemoryContext cxt, Size size)
{
    Size before = tdb_mcxt_mem_allocated(cxt, false);
    void *p = tdb_mcxt_alloc(cxt, size);
    Size during = tdb_mcxt_mem_allocated(cxt, false);

    tdb_pfree(p);
    return during > before && tdb_mcxt_mem_allocated(cxt, false) == before;
}

TEST_BEGIN(test_size_class_boundaries)
{
    MemoryContext cxt = create_aset(tdb_top_mcxt, "classes");

    for (int k = 0; k <= 10; k++) {
        Size boundary = (Size)8 << k;

        for (Size size = boundary - 1; size <= boundary + 1; size++) {
            void *p = tdb_mcxt_alloc(cxt, size);
            Size space = tdb_mcxt_chunk_space(p);

            if (space != expected_space(size, ASET_MAX_CLASS))
                tdb_test_fail(__FILE__, __LINE__,
                              "chunk_space(%zu-byte request) = %zu, "
                              "expected %zu",
                              size, space,
                              expected_space(size, ASET_MAX_CLASS));
            fill_pattern(p, size, (uint32)size);
            expect_pattern(p, size, (uint32)size);
            tdb_pfree(p);
        }
    }
    /* 0 and 1 land in the smallest class */
    expect_u64_eq(tdb_mcxt_chunk_space(tdb_mcxt_alloc(cxt, 0)), 8 + CHUNK_HDR);
    expect_u64_eq(tdb_mcxt_chunk_space(tdb_mcxt_alloc(cxt, 1)), 8 + CHUNK_HDR);
    tdb_mcxt_delete(cxt);
}
TEST_END

/* Requests around a context's chunk limit: small below, dedicated above. */
static void
check_chunk_limit(MemoryContext cxt, Size chunk_limit)
{
    Size last_small = largest_small_request(chunk_limit);

    for (Size size = last_small - 1; size <= last_small + 2; size++) {
        bool dedicated = size > last_small;
        void *p = tdb_mcxt_alloc(cxt, size);

        expect_u64_eq(tdb_mcxt_chunk_space(p),
                      expected_space(size, chunk_limit));
        tdb_pfree(p);
        if (gets_dedicated_block(cxt, size) != dedicated)
            tdb_test_fail(__FILE__, __LINE__,
                          "%s: a %zu-byte request %s a dedicated block "
                          "(chunk limit %zu)",
                          tdb_mcxt_name(cxt), size,
                          dedicated ? "did not get" : "got", chunk_limit);
    }
}

TEST_BEGIN(test_chunk_limit_default_sizes)
{
    MemoryContext cxt =
        tdb_aset_create(tdb_top_mcxt, "default", ALLOCSET_DEFAULT_SIZES);

    check_chunk_limit(cxt, 8192);
    tdb_mcxt_delete(cxt);
    cxt = tdb_aset_create(tdb_top_mcxt, "start_small",
                          ALLOCSET_START_SMALL_SIZES);
    check_chunk_limit(cxt, 8192);
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_chunk_limit_small_sizes)
{
    MemoryContext cxt =
        tdb_aset_create(tdb_top_mcxt, "small", ALLOCSET_SMALL_SIZES);

    check_chunk_limit(cxt, 1024);
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_chunk_limit_follows_max_block_size)
{
    /* at least four maximum-size chunks must fit in a maximum block */
    MemoryContext cxt = tdb_aset_create(tdb_top_mcxt, "16k", 0, 1024, 16384);

    check_chunk_limit(cxt, 2048);
    tdb_mcxt_delete(cxt);
    cxt = tdb_aset_create(tdb_top_mcxt, "32k", 0, 8192, 32768);
    check_chunk_limit(cxt, 4096);
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_dedicated_block_accounting)
{
    static const Size sizes[] = {8193, 8200, 20000, 1000000, 10000001};
    MemoryContext cxt = create_aset(tdb_top_mcxt, "large");
    Size before = tdb_mcxt_mem_allocated(cxt, false);
    Size overhead = 0;

    for (int i = 0; i < (int)lengthof(sizes); i++) {
        void *p = tdb_mcxt_alloc(cxt, sizes[i]);
        Size space = tdb_mcxt_chunk_space(p);
        Size delta = tdb_mcxt_mem_allocated(cxt, false) - before;

        expect_u64_eq(space, MAXALIGN(aset_need(sizes[i])) + CHUNK_HDR);
        /* the block costs the chunk plus a fixed block header */
        if (i == 0)
            overhead = delta - space;
        expect_u64_eq(delta - space, overhead);
        expect_u64_le(overhead, 64);

        /* growing and shrinking a dedicated chunk keeps that invariant */
        p = tdb_repalloc(p, sizes[i] * 2);
        expect_u64_eq(tdb_mcxt_chunk_space(p),
                      MAXALIGN(aset_need(sizes[i] * 2)) + CHUNK_HDR);
        expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false) - before,
                      tdb_mcxt_chunk_space(p) + overhead);
        p = tdb_repalloc(p, sizes[i] + 8);
        expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false) - before,
                      tdb_mcxt_chunk_space(p) + overhead);

        tdb_pfree(p);
        expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), before);
    }
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_huge_chunk_space_exact)
{
    MemoryContext cxt;
    Size size = ((Size)1 << 30) + 8;
    Size before;
    char *p;

    if (running_under_valgrind())
        test_skip("1 GB allocation under valgrind");
    cxt = create_aset(tdb_top_mcxt, "huge");
    before = tdb_mcxt_mem_allocated(cxt, false);
    p = tdb_mcxt_alloc_extended(cxt, size, MCXT_ALLOC_HUGE);
    p[0] = p[size - 1] = 1;
    expect_u64_eq(tdb_mcxt_chunk_space(p),
                  MAXALIGN(aset_need(size)) + CHUNK_HDR);
    expect_u64_ge(tdb_mcxt_mem_allocated(cxt, false) - before,
                  tdb_mcxt_chunk_space(p));
    expect_u64_le(tdb_mcxt_mem_allocated(cxt, false) - before,
                  tdb_mcxt_chunk_space(p) + 64);
    tdb_pfree(p);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), before);
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_dedicated_blocks_go_back_to_os)
{
    MemoryContext cxt;
    void *p;
    uint64 nfrees, nreallocs;

    hooks_install();
    cxt = create_aset(tdb_top_mcxt, "large");
    p = tdb_mcxt_alloc(cxt, 100000);
    expect_int_eq(counting_hooks.nlive, 2);
    /* resizing a dedicated chunk is one OS realloc, not alloc+copy+free */
    nreallocs = counting_hooks.nreallocs;
    p = tdb_repalloc(p, 300000);
    expect_u64_eq(counting_hooks.nreallocs, nreallocs + 1);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  counting_hooks.live_bytes);
    nfrees = counting_hooks.nfrees;
    tdb_pfree(p);
    expect_u64_eq(counting_hooks.nfrees, nfrees + 1);
    expect_int_eq(counting_hooks.nlive, 1);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  counting_hooks.live_bytes);
    tdb_mcxt_delete(cxt);
    expect_int_eq(counting_hooks.nlive, 0);
    expect_u64_eq(counting_hooks.size_mismatches, 0);
    hooks_remove();
}
TEST_END

TEST_BEGIN(test_freed_chunk_reused_lifo)
{
    MemoryContext cxt = create_aset(tdb_top_mcxt, "reuse");
    void *a = tdb_mcxt_alloc(cxt, 100);
    void *b = tdb_mcxt_alloc(cxt, 110);
    void *c = tdb_mcxt_alloc(cxt, 10);
    Size mem = tdb_mcxt_mem_allocated(cxt, false);

    tdb_pfree(a);
    tdb_pfree(b);
    /* same class (128): most recently freed first */
    expect_ptr_eq(tdb_mcxt_alloc(cxt, 120), b);
    expect_ptr_eq(tdb_mcxt_alloc(cxt, 65), a);
    /* freeing never returns small chunks' memory to the OS */
    tdb_pfree(c);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), mem);
    expect_ptr_eq(tdb_mcxt_alloc(cxt, 9), c);
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_realloc_within_class_in_place)
{
    MemoryContext cxt = create_aset(tdb_top_mcxt, "inplace");
    char *p = tdb_mcxt_alloc(cxt, 70);
    char *q;

    fill_pattern(p, 70, 1);
    /* 70 -> 100 stays in the 128-byte class */
    q = tdb_repalloc(p, 100);
    expect_ptr_eq(q, p);
    expect_pattern(q, 70, 1);
    /* shrinking never moves a small chunk */
    q = tdb_repalloc(q, 3);
    expect_ptr_eq(q, p);
    expect_pattern(q, 3, 1);
    /* crossing the class boundary moves it, contents preserved */
    fill_pattern(q, 3, 2);
    q = tdb_repalloc(q, 200);
    expect_ptr_ne(q, p);
    expect_pattern(q, 3, 2);
    expect_u64_eq(tdb_mcxt_chunk_space(q), expected_space(200, ASET_MAX_CLASS));
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_keeper_block)
{
    MemoryContext cxt;

    hooks_install();
    cxt = tdb_aset_create(tdb_top_mcxt, "keeper", ALLOCSET_DEFAULT_SIZES);
    /* context header and first block are one OS block of initBlockSize */
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  ALLOCSET_DEFAULT_INITSIZE);
    expect_int_eq(counting_hooks.nlive, 1);
    /* a per-row reset cycle never goes to the OS */
    for (int row = 0; row < 1000; row++) {
        for (int i = 0; i < 10; i++)
            tdb_mcxt_alloc(cxt, 16 + (Size)i * 50);
        tdb_mcxt_reset(cxt);
    }
    expect_u64_eq(counting_hooks.nallocs, 1);
    expect_u64_eq(counting_hooks.nfrees, 0);
    /* a bigger burst does, and reset returns all but the keeper */
    for (int i = 0; i < 100; i++)
        tdb_mcxt_alloc(cxt, 1000);
    expect_true(counting_hooks.nlive > 1);
    tdb_mcxt_reset(cxt);
    expect_int_eq(counting_hooks.nlive, 1);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  ALLOCSET_DEFAULT_INITSIZE);
    tdb_mcxt_delete(cxt);

    /* minContextSize overrides initBlockSize for the keeper */
    cxt = tdb_aset_create(tdb_top_mcxt, "min", 32768, 8192, 65536);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), 32768);
    tdb_mcxt_delete(cxt);
    cxt = tdb_aset_create(tdb_top_mcxt, "small", ALLOCSET_SMALL_SIZES);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), ALLOCSET_SMALL_INITSIZE);
    tdb_mcxt_delete(cxt);
    expect_int_eq(counting_hooks.nlive, 0);
    hooks_remove();
}
TEST_END

TEST_BEGIN(test_block_sizes_double_up_to_max)
{
    MemoryContext cxt;
    uint64 n;

    hooks_install();
    cxt = tdb_aset_create(tdb_top_mcxt, "growth", 0, 8192, 131072);
    for (int i = 0; i < 2000; i++)
        tdb_mcxt_alloc(cxt, 1000);
    n = counting_hooks.nallocs;
    expect_true(n >= 8);
    /* alloc_sizes[0] is the keeper; then 8k, 16k, ... capped at 128k */
    for (uint64 i = 1; i < n && i < lengthof(counting_hooks.alloc_sizes); i++) {
        Size want = (Size)8192 << (i - 1);

        if (want > 131072)
            want = 131072;
        if (counting_hooks.alloc_sizes[i] != want)
            tdb_test_fail(
                __FILE__, __LINE__, "block %llu has %zu bytes, expected %zu",
                (unsigned long long)i, counting_hooks.alloc_sizes[i], want);
    }
    /* after a reset, growth starts over from initBlockSize */
    tdb_mcxt_reset(cxt);
    n = counting_hooks.nallocs;
    for (int i = 0; i < 10; i++)
        tdb_mcxt_alloc(cxt, 1000);
    expect_u64_eq(counting_hooks.nallocs, n + 1);
    if (n < lengthof(counting_hooks.alloc_sizes))
        expect_u64_eq(counting_hooks.alloc_sizes[n], 8192);
    tdb_mcxt_delete(cxt);
    hooks_remove();
}
TEST_END

TEST_BEGIN(test_smaller_block_under_memory_pressure)
{
    MemoryContext cxt;
    uint64 refused;

    hooks_install();
    cxt = tdb_aset_create(tdb_top_mcxt, "pressure", 0, 8 * 1024 * 1024,
                          8 * 1024 * 1024);
    /* the OS now refuses anything above 2 MB */
    counting_hooks.refuse_above = 2 * 1024 * 1024;
    refused = counting_hooks.nrefused;
    /* the next block would be 8 MB: settle for a smaller one, no error */
    for (int i = 0; i < 10000; i++)
        tdb_mcxt_alloc(cxt, 1000);
    expect_u64_gt(counting_hooks.nrefused, refused);
    for (uint64 i = 1;
         i < counting_hooks.nallocs && i < lengthof(counting_hooks.alloc_sizes);
         i++)
        expect_u64_le(counting_hooks.alloc_sizes[i], 2 * 1024 * 1024);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  counting_hooks.live_bytes);
    counting_hooks.refuse_above = 0;
    tdb_mcxt_delete(cxt);
    expect_int_eq(counting_hooks.nlive, 0);
    hooks_remove();
}
TEST_END

TEST_BEGIN(test_full_block_tail_salvaged)
{
    MemoryContext cxt = create_aset(tdb_top_mcxt, "salvage");
    MemoryContextCounters before, after;
    Size mem;
    void *p;

    /* fill the keeper with 1 kB-class chunks until a new block appears */
    mem = tdb_mcxt_mem_allocated(cxt, false);
    while (tdb_mcxt_mem_allocated(cxt, false) == mem)
        tdb_mcxt_alloc(cxt, 1000);
    /* the keeper's tail went onto the free lists, not lost */
    memset(&before, 0, sizeof(before));
    tdb_mcxt_stats_collect(cxt, false, &before);
    expect_u64_ge(before.freechunks, 1);
    /*
     * The biggest piece of the ~700-byte tail is a 512-byte chunk: a
     * request of that class comes from the free list.
     */
    p = tdb_mcxt_alloc(cxt, 500);
    memset(&after, 0, sizeof(after));
    tdb_mcxt_stats_collect(cxt, false, &after);
    expect_ptr_not_null(p);
    expect_u64_eq(after.freechunks + 1, before.freechunks);
    expect_u64_eq(after.freespace + expected_space(500, ASET_MAX_CLASS),
                  before.freespace);
    expect_u64_eq(after.totalspace, before.totalspace);
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_stats_free_lists)
{
    MemoryContext cxt = create_aset(tdb_top_mcxt, "stats");
    MemoryContextCounters c0, c1;
    void *ptrs[10];

    for (int i = 0; i < 10; i++)
        ptrs[i] = tdb_mcxt_alloc(cxt, 200);
    memset(&c0, 0, sizeof(c0));
    tdb_mcxt_stats_collect(cxt, false, &c0);
    for (int i = 0; i < 10; i++)
        tdb_pfree(ptrs[i]);
    memset(&c1, 0, sizeof(c1));
    tdb_mcxt_stats_collect(cxt, false, &c1);
    expect_u64_eq(c1.freechunks, c0.freechunks + 10);
    expect_u64_eq(c1.freespace,
                  c0.freespace + 10 * expected_space(200, ASET_MAX_CLASS));
    expect_u64_eq(c1.totalspace, c0.totalspace);
    tdb_mcxt_delete(cxt);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "mmgr_aset",
                     TEST_CASE(test_size_class_boundaries),
                     TEST_CASE(test_chunk_limit_default_sizes),
                     TEST_CASE(test_chunk_limit_small_sizes),
                     TEST_CASE(test_chunk_limit_follows_max_block_size),
                     TEST_CASE(test_dedicated_block_accounting),
                     TEST_CASE(test_huge_chunk_space_exact),
                     TEST_CASE(test_dedicated_blocks_go_back_to_os),
                     TEST_CASE(test_freed_chunk_reused_lifo),
                     TEST_CASE(test_realloc_within_class_in_place),
                     TEST_CASE(test_keeper_block),
                     TEST_CASE(test_block_sizes_double_up_to_max),
                     TEST_CASE(test_smaller_block_under_memory_pressure),
                     TEST_CASE(test_full_block_tail_salvaged),
                     TEST_CASE(test_stats_free_lists));
}
