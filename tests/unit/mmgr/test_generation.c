/*
 * test_generation.c -- Generation specifics: freed chunks are never
 * reused, a block whose chunks are all freed is recycled (current block,
 * keeper, one spare) or returned to the OS, FIFO use settles into a fixed
 * set of blocks with no OS calls, large requests get dedicated blocks that
 * go straight back, realloc within the chunk happens in place, and the
 * keeper block survives resets.  Accounting is checked against counting
 * OS hooks throughout.
 */
#include "common/base.h"

#include "mmgr_test.h"

static MemoryContext
new_generation(const char *name)
{
    return tdb_generation_create(tdb_top_mcxt, name, ALLOCSET_DEFAULT_SIZES);
}

/* mem_allocated is exactly what the hooks hold (one context alive). */
#define expect_accounting_exact(cxt)                                           \
    expect_u64_eq(tdb_mcxt_mem_allocated((cxt), false),                        \
                  counting_hooks.live_bytes)

TEST_BEGIN(test_freed_chunks_not_reused)
{
    MemoryContext cxt = new_generation("gen");
    void *keep = tdb_mcxt_alloc(cxt, 100);
    void *p = tdb_mcxt_alloc(cxt, 100);
    void *q;

    tdb_pfree(p);
    q = tdb_mcxt_alloc(cxt, 100);
    expect_ptr_ne(q, p);
    /* allocation is sequential within the block */
    expect_true((char *)q > (char *)p);
    expect_ptr_eq(tdb_mcxt_chunk_context(keep), cxt);
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_empty_blocks_recycled_or_freed)
{
    enum { N = 3000 };
    MemoryContext cxt;
    void **ptrs;
    int peak_blocks;
    uint64 nallocs;

    ptrs = tdb_mcxt_alloc(tdb_top_mcxt, sizeof(void *) * N);
    hooks_install();
    cxt = new_generation("gen");
    for (int i = 0; i < N; i++)
        ptrs[i] = tdb_mcxt_alloc(cxt, 200);
    peak_blocks = counting_hooks.nlive;
    expect_true(peak_blocks >= 4);
    expect_accounting_exact(cxt);

    /* free everything: at most keeper, current block and one spare stay */
    for (int i = 0; i < N; i++)
        tdb_pfree(ptrs[i]);
    expect_true(counting_hooks.nlive <= 3);
    expect_accounting_exact(cxt);

    /* the kept blocks serve the next allocations before any new block */
    nallocs = counting_hooks.nallocs;
    for (int i = 0; i < 30; i++)
        ptrs[i] = tdb_mcxt_alloc(cxt, 200);
    expect_u64_eq(counting_hooks.nallocs, nallocs);
    expect_accounting_exact(cxt);
    tdb_mcxt_delete(cxt);
    expect_int_eq(counting_hooks.nlive, 0);
    expect_u64_eq(counting_hooks.size_mismatches, 0);
    hooks_remove();
}
TEST_END

TEST_BEGIN(test_fifo_steady_state_without_os_calls)
{
    enum { WINDOW = 200, STEPS = 20000 };
    MemoryContext cxt;
    void **ring;
    uint64 warm_allocs = 0;
    Size warm_mem = 0;

    ring = tdb_mcxt_alloc_zero(tdb_top_mcxt, sizeof(void *) * WINDOW);
    hooks_install();
    cxt = new_generation("fifo");
    for (int step = 0; step < STEPS; step++) {
        int slot = step % WINDOW;

        if (ring[slot] != NULL) {
            expect_pattern(ring[slot], 300, (uint32)(step - WINDOW));
            tdb_pfree(ring[slot]);
        }
        ring[slot] = tdb_mcxt_alloc(cxt, 300);
        fill_pattern(ring[slot], 300, (uint32)step);
        if (step == STEPS / 4) {
            warm_allocs = counting_hooks.nallocs;
            warm_mem = tdb_mcxt_mem_allocated(cxt, false);
        }
    }
    expect_u64_eq(counting_hooks.nallocs, warm_allocs);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), warm_mem);
    expect_accounting_exact(cxt);
    tdb_mcxt_delete(cxt);
    expect_int_eq(counting_hooks.nlive, 0);
    hooks_remove();
}
TEST_END

TEST_BEGIN(test_one_live_chunk_pins_its_block)
{
    MemoryContext cxt;
    void *ptrs[200];
    void *pin;
    int live_before;

    hooks_install();
    cxt = new_generation("pin");
    /* fill the keeper, then a second block with a pinned chunk in it */
    for (int i = 0; i < 200; i++)
        ptrs[i] = tdb_mcxt_alloc(cxt, 100);
    pin = tdb_mcxt_alloc(cxt, 100);
    for (int i = 0; i < 200; i++)
        ptrs[i] = tdb_mcxt_alloc(cxt, 100);
    live_before = counting_hooks.nlive;
    for (int i = 0; i < 200; i++)
        tdb_pfree(ptrs[i]);
    /* the block holding `pin` cannot go */
    expect_ptr_eq(tdb_mcxt_chunk_context(pin), cxt);
    expect_true(counting_hooks.nlive >= 2);
    expect_true(counting_hooks.nlive <= live_before);
    expect_accounting_exact(cxt);
    tdb_pfree(pin);
    expect_accounting_exact(cxt);
    tdb_mcxt_delete(cxt);
    hooks_remove();
}
TEST_END

TEST_BEGIN(test_large_chunks_dedicated_and_returned)
{
    MemoryContext cxt;
    void *small, *big;
    int live;

    hooks_install();
    cxt = new_generation("large");
    small = tdb_mcxt_alloc(cxt, 64);
    live = counting_hooks.nlive;
    /* more than an eighth of the 8 MB maximum block */
    big = tdb_mcxt_alloc(cxt, 2 * 1024 * 1024);
    expect_int_eq(counting_hooks.nlive, live + 1);
    expect_u64_ge(tdb_mcxt_chunk_space(big), 2 * 1024 * 1024 + CHUNK_HDR);
    expect_accounting_exact(cxt);
    tdb_pfree(big);
    expect_int_eq(counting_hooks.nlive, live);
    expect_accounting_exact(cxt);
    /* small chunks keep coming from the same block meanwhile */
    expect_true((char *)tdb_mcxt_alloc(cxt, 64) > (char *)small);
    tdb_mcxt_delete(cxt);
    hooks_remove();
}
TEST_END

TEST_BEGIN(test_realloc_in_place_when_it_fits)
{
    MemoryContext cxt = new_generation("realloc");
    char *p = tdb_mcxt_alloc(cxt, 1000);
    char *q;

    fill_pattern(p, 1000, 4);
    q = tdb_repalloc(p, 10);
    expect_ptr_eq(q, p);
    expect_pattern(q, 10, 4);
    /* growing back within the original chunk stays put as well */
    q = tdb_repalloc(q, 900);
    expect_ptr_eq(q, p);
    expect_pattern(q, 10, 4);
    /* beyond it, the chunk moves */
    fill_pattern(q, 900, 5);
    q = tdb_repalloc(q, 5000);
    expect_ptr_ne(q, p);
    expect_pattern(q, 900, 5);
    expect_u64_ge(tdb_mcxt_chunk_space(q), 5000 + CHUNK_HDR);
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_keeper_survives_resets)
{
    MemoryContext cxt;
    Size fresh;

    hooks_install();
    cxt = new_generation("keeper");
    fresh = tdb_mcxt_mem_allocated(cxt, false);
    expect_int_eq(counting_hooks.nlive, 1);
    expect_accounting_exact(cxt);
    for (int row = 0; row < 1000; row++) {
        for (int i = 0; i < 10; i++)
            tdb_mcxt_alloc(cxt, 50 + (Size)i * 20);
        tdb_mcxt_reset(cxt);
    }
    expect_u64_eq(counting_hooks.nallocs, 1);
    for (int i = 0; i < 1000; i++)
        tdb_mcxt_alloc(cxt, 500);
    tdb_mcxt_alloc(cxt, 3000000);
    expect_true(counting_hooks.nlive > 2);
    tdb_mcxt_reset(cxt);
    expect_int_eq(counting_hooks.nlive, 1);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), fresh);
    tdb_mcxt_delete(cxt);
    expect_int_eq(counting_hooks.nlive, 0);
    hooks_remove();
}
TEST_END

TEST_BEGIN(test_stats_count_live_and_freed_chunks)
{
    MemoryContext cxt = new_generation("stats");
    MemoryContextCounters c;
    void *ptrs[20];

    for (int i = 0; i < 20; i++)
        ptrs[i] = tdb_mcxt_alloc(cxt, 64);
    for (int i = 0; i < 5; i++)
        tdb_pfree(ptrs[i]);
    memset(&c, 0, sizeof(c));
    tdb_mcxt_stats_collect(cxt, false, &c);
    expect_u64_eq(c.totalspace, tdb_mcxt_mem_allocated(cxt, false));
    expect_u64_eq(c.nchunks, 15);
    expect_u64_eq(c.freechunks, 5);
    expect_u64_eq(c.nblocks, 1);
    tdb_mcxt_delete(cxt);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "mmgr_generation",
                     TEST_CASE(test_freed_chunks_not_reused),
                     TEST_CASE(test_empty_blocks_recycled_or_freed),
                     TEST_CASE(test_fifo_steady_state_without_os_calls),
                     TEST_CASE(test_one_live_chunk_pins_its_block),
                     TEST_CASE(test_large_chunks_dedicated_and_returned),
                     TEST_CASE(test_realloc_in_place_when_it_fits),
                     TEST_CASE(test_keeper_survives_resets),
                     TEST_CASE(test_stats_count_live_and_freed_chunks));
}
