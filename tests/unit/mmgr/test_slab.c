/*
 * test_slab.c -- Slab specifics: one fixed chunk size (any other size, for
 * alloc or realloc, raises and leaves the context usable), chunk space,
 * freed chunks reused before never-used ones, allocation from the fullest
 * block, at most SLAB_MAXIMUM_EMPTY_BLOCKS (10) empty blocks kept,
 * creation-time validation, and accounting against counting OS hooks.
 */
#include "common/base.h"

#include "mmgr_test.h"

#define CHUNK 64
#define BLOCK 8192

/* Usable bytes a Slab sets aside per chunk (checking: + sentinel). */
static Size
slab_usable(Size chunk_size)
{
    Size usable = MAXALIGN(config_mcxt_checking ? chunk_size + 1 : chunk_size);

    return usable < sizeof(void *) ? sizeof(void *) : usable;
}

static MemoryContext
new_slab(Size block_size, Size chunk_size)
{
    return tdb_slab_create(tdb_top_mcxt, "slabby", block_size, chunk_size);
}

static void
check_wrong_size(MemoryContext cxt, void *p, Size size)
{
    expect_error(tdb_mcxt_alloc(cxt, size), ERRCODE_INTERNAL_ERROR, "slabby");
    expect_error(tdb_mcxt_alloc_zero(cxt, size), ERRCODE_INTERNAL_ERROR,
                 "slabby");
    expect_error(tdb_repalloc(p, size), ERRCODE_INTERNAL_ERROR, "slabby");
}

static void
check_wrong_sizes(MemoryContext cxt, void *p)
{
    static const Size wrong[] = {0, 1, CHUNK - 1, CHUNK + 1, 4096};

    for (int i = 0; i < (int)lengthof(wrong); i++)
        check_wrong_size(cxt, p, wrong[i]);
}

TEST_BEGIN(test_only_the_fixed_size)
{
    MemoryContext cxt = new_slab(BLOCK, CHUNK);
    void *p = tdb_mcxt_alloc(cxt, CHUNK);
    void *q;

    fill_pattern(p, CHUNK, 1);
    check_wrong_sizes(cxt, p);
    /* realloc to the same size is a no-op that keeps the chunk */
    q = tdb_repalloc(p, CHUNK);
    expect_ptr_eq(q, p);
    expect_pattern(q, CHUNK, 1);
    /* the failures left everything usable */
    q = tdb_mcxt_alloc(cxt, CHUNK);
    expect_ptr_eq(tdb_mcxt_chunk_context(q), cxt);
    expect_pattern(p, CHUNK, 1);
    tdb_pfree(p);
    tdb_pfree(q);
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_chunk_space_and_context)
{
    static const Size chunk_sizes[] = {0, 1, 8, 24, 63, 64, 100, 1000};

    for (int i = 0; i < (int)lengthof(chunk_sizes); i++) {
        MemoryContext cxt = new_slab(BLOCK, chunk_sizes[i]);
        void *p = tdb_mcxt_alloc(cxt, chunk_sizes[i]);

        expect_u64_eq(tdb_mcxt_chunk_space(p),
                      slab_usable(chunk_sizes[i]) + CHUNK_HDR);
        expect_ptr_eq(tdb_mcxt_chunk_context(p), cxt);
        expect_true(((uintptr_t)p % MAXIMUM_ALIGNOF) == 0);
        fill_pattern(p, chunk_sizes[i], 3);
        expect_pattern(p, chunk_sizes[i], 3);
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

TEST_BEGIN(test_freed_chunk_reused_first)
{
    MemoryContext cxt = new_slab(BLOCK, CHUNK);
    void *a = tdb_mcxt_alloc(cxt, CHUNK);
    void *b = tdb_mcxt_alloc(cxt, CHUNK);
    void *c = tdb_mcxt_alloc(cxt, CHUNK);

    tdb_pfree(b);
    expect_ptr_eq(tdb_mcxt_alloc(cxt, CHUNK), b);
    tdb_pfree(a);
    tdb_pfree(c);
    /* most recently freed first */
    expect_ptr_eq(tdb_mcxt_alloc(cxt, CHUNK), c);
    expect_ptr_eq(tdb_mcxt_alloc(cxt, CHUNK), a);
    tdb_mcxt_delete(cxt);
}
TEST_END

/* Index of the hooked block holding p (blocks[] collects them), or -1. */
static int
block_index(void *p, void **blocks, int *nblocks)
{
    void *start;
    Size size;

    if (!hook_block_of(p, &start, &size))
        return -1;
    for (int i = 0; i < *nblocks; i++)
        if (blocks[i] == start)
            return i;
    blocks[*nblocks] = start;
    return (*nblocks)++;
}

TEST_BEGIN(test_allocation_prefers_fullest_block)
{
    enum { MAXC = 1024 };
    MemoryContext cxt;
    void **ptrs = tdb_mcxt_alloc(tdb_top_mcxt, sizeof(void *) * MAXC);
    int *blk = tdb_mcxt_alloc(tdb_top_mcxt, sizeof(int) * MAXC);
    void *blocks[64];
    int nblocks = 0, per_block = 0, n;
    void *freed_in_a = NULL;
    void *p;

    hooks_install();
    cxt = new_slab(BLOCK, CHUNK);
    /* learn how many chunks a block holds */
    for (n = 0; n < MAXC; n++) {
        ptrs[n] = tdb_mcxt_alloc(cxt, CHUNK);
        blk[n] = block_index(ptrs[n], blocks, &nblocks);
        if (blk[n] == 1)
            break;
        per_block++;
    }
    expect_true(per_block > 8 && 3 * per_block < MAXC);
    /* three full blocks exactly */
    for (n = n + 1; n < 3 * per_block; n++) {
        ptrs[n] = tdb_mcxt_alloc(cxt, CHUNK);
        blk[n] = block_index(ptrs[n], blocks, &nblocks);
    }
    expect_int_eq(nblocks, 3);
    /* block 0 ends up with one free chunk, block 1 with all but one free */
    for (int i = 0, freed_b = 0; i < n; i++) {
        if (blk[i] == 0 && freed_in_a == NULL) {
            freed_in_a = ptrs[i];
            tdb_pfree(ptrs[i]);
        } else if (blk[i] == 1 && freed_b < per_block - 1) {
            tdb_pfree(ptrs[i]);
            freed_b++;
        }
    }
    p = tdb_mcxt_alloc(cxt, CHUNK);
    expect_ptr_eq(p, freed_in_a);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  counting_hooks.live_bytes);
    tdb_mcxt_delete(cxt);
    hooks_remove();
}
TEST_END

TEST_BEGIN(test_empty_blocks_kept_up_to_ten)
{
    enum { N = 4000 };
    MemoryContext cxt;
    void **ptrs = tdb_mcxt_alloc(tdb_top_mcxt, sizeof(void *) * N);
    Size fresh;
    uint64 nallocs;

    hooks_install();
    cxt = new_slab(1024, 100);
    fresh = tdb_mcxt_mem_allocated(cxt, false);
    expect_u64_eq(fresh, counting_hooks.live_bytes);
    for (int i = 0; i < N; i++)
        ptrs[i] = tdb_mcxt_alloc(cxt, 100);
    expect_true(counting_hooks.nlive > 100);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  counting_hooks.live_bytes);
    for (int i = 0; i < N; i++)
        tdb_pfree(ptrs[i]);
    /* the context header plus at most ten empty blocks */
    expect_true(counting_hooks.nlive <= 11);
    expect_true(counting_hooks.nlive >= 2);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  counting_hooks.live_bytes);
    expect_u64_le(tdb_mcxt_mem_allocated(cxt, false), fresh + 10 * 1024);
    /* the kept blocks are used again before new ones */
    nallocs = counting_hooks.nallocs;
    for (int i = 0; i < 20; i++)
        tdb_mcxt_alloc(cxt, 100);
    expect_u64_eq(counting_hooks.nallocs, nallocs);
    /* reset returns everything but the context itself */
    tdb_mcxt_reset(cxt);
    expect_int_eq(counting_hooks.nlive, 1);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), fresh);
    tdb_mcxt_delete(cxt);
    expect_int_eq(counting_hooks.nlive, 0);
    expect_u64_eq(counting_hooks.size_mismatches, 0);
    hooks_remove();
}
TEST_END

TEST_BEGIN(test_create_validation)
{
    MemoryContext cxt;

    /* a block that cannot hold one chunk */
    expect_error(tdb_slab_create(tdb_top_mcxt, "tiny", 64, 100),
                 ERRCODE_INTERNAL_ERROR, "tiny");
    expect_error(tdb_slab_create(tdb_top_mcxt, "odd", 1001, 8),
                 ERRCODE_INTERNAL_ERROR, "odd");
    expect_error(tdb_slab_create(tdb_top_mcxt, "huge", SLAB_DEFAULT_BLOCK_SIZE,
                                 MaxAllocSize + 1),
                 ERRCODE_INTERNAL_ERROR, "huge");
    /* one chunk per block is fine */
    cxt = tdb_slab_create(tdb_top_mcxt, "one", 1024, 900);
    for (int i = 0; i < 5; i++)
        fill_pattern(tdb_mcxt_alloc(cxt, 900), 900, (uint32)i);
    tdb_mcxt_delete(cxt);
    /* large blocks of large chunks */
    cxt = tdb_slab_create(tdb_top_mcxt, "large", SLAB_LARGE_BLOCK_SIZE, 50000);
    for (int i = 0; i < 300; i++)
        memset(tdb_mcxt_alloc(cxt, 50000), i, 64);
    expect_u64_ge(tdb_mcxt_mem_allocated(cxt, false), 300 * 50000);
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_stats)
{
    MemoryContext cxt = new_slab(BLOCK, CHUNK);
    MemoryContextCounters c;
    void *ptrs[100];

    for (int i = 0; i < 100; i++)
        ptrs[i] = tdb_mcxt_alloc(cxt, CHUNK);
    for (int i = 0; i < 100; i += 4)
        tdb_pfree(ptrs[i]);
    memset(&c, 0, sizeof(c));
    tdb_mcxt_stats_collect(cxt, false, &c);
    expect_u64_eq(c.totalspace, tdb_mcxt_mem_allocated(cxt, false));
    expect_u64_eq(c.nchunks, 75);
    expect_u64_ge(c.freechunks, 25);
    expect_u64_ge(c.freespace, 25 * (slab_usable(CHUNK) + CHUNK_HDR));
    expect_u64_ge(c.totalspace - c.freespace,
                  75 * (slab_usable(CHUNK) + CHUNK_HDR));
    tdb_mcxt_delete(cxt);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "mmgr_slab",
                     TEST_CASE(test_only_the_fixed_size),
                     TEST_CASE(test_chunk_space_and_context),
                     TEST_CASE(test_freed_chunk_reused_first),
                     TEST_CASE(test_allocation_prefers_fullest_block),
                     TEST_CASE(test_empty_blocks_kept_up_to_ten),
                     TEST_CASE(test_create_validation), TEST_CASE(test_stats));
}
