/*
 * test_model.c -- randomized model test of all four context types against
 * a reference: counting OS hooks that record every live block and its
 * size, plus a table of the live chunks with a per-chunk byte pattern.
 *
 * Each run creates one context while the hooks are installed (so every
 * block the hooks see belongs to it) and applies a few thousand random
 * steps: alloc / alloc_zero / alloc_extended, pfree, repalloc, reset
 * (Bump: alloc and reset only; Slab: one size, realloc to the same size).
 * After every step:
 *   mem_allocated(cxt, false) == mem_allocated(cxt, true) == bytes of the
 *   live hooked blocks, and the hooks saw every free with the right size;
 * every 64 steps and at the end, additionally:
 *   stats totalspace == mem_allocated, nblocks == live hooked blocks (or
 *   one less: a context header of its own),
 *   used space >= the live requested bytes, every live chunk's pattern is
 *   intact, chunk_space(p) >= its size and chunk_context(p) == cxt (not
 *   Bump), and tdb_mcxt_check finds nothing;
 * after a reset: mem_allocated is back to its value right after creation;
 * after delete: no hooked block is left.
 *
 * The seed comes from tdb_test_seed() (printed; TDB_TEST_SEED=N reruns it)
 * and the failing step is reported, so a failure can be replayed.
 */
#include "common/base.h"

#include "mmgr_test.h"

/* Steps per context; a stress run can raise it: CFLAGS=-DMODEL_STEPS=N. */
#ifndef MODEL_STEPS
#define MODEL_STEPS 3000
#endif
#define MODEL_SLOTS 96
#define MODEL_FULL_CHECK_EVERY 64

typedef struct ModelChunk {
    void *p; /* NULL = free slot */
    Size size;
    uint32 tag;
} ModelChunk;

typedef struct Model {
    const MmgrKind *kind;
    MemoryContext cxt;
    Size fresh_mem; /* mem_allocated right after creation / reset */
    ModelChunk slots[MODEL_SLOTS];
    uint64 rng;
    uint32 next_tag;
    int step;
} Model;

static uint64
model_rand(Model *m, uint64 bound)
{
    return tdb_test_rand(&m->rng) % bound;
}

/* A request size: mostly small, many around class boundaries, some big. */
static Size
model_size(Model *m)
{
    uint64 r = model_rand(m, 100);

    if (m->kind->fixed_size)
        return m->kind->fixed_size;
    if (r < 45)
        return (Size)model_rand(m, 65);
    if (r < 70)
        return 65 + (Size)model_rand(m, 960);
    if (r < 85) {
        Size boundary = (Size)8 << model_rand(m, 11);

        return boundary - 1 + (Size)model_rand(m, 3);
    }
    if (r < 97)
        return 1025 + (Size)model_rand(m, 20000);
    return 20001 + (Size)model_rand(m, 400000);
}

/* Report a broken invariant with the step and seed; returns false. */
#define MODEL_EXPECT(m, cond)                                                  \
    ((cond) ? true                                                             \
            : (tdb_test_fail(__FILE__, __LINE__,                               \
                             "%s, step %d (TDB_TEST_SEED=%llu): %s",           \
                             (m)->kind->label, (m)->step,                      \
                             (unsigned long long)tdb_test_seed(), #cond),      \
               false))

static bool
model_check_chunk(Model *m, ModelChunk *c)
{
    bool ok = MODEL_EXPECT(m, check_pattern(c->p, c->size, c->tag) == c->size);

    if (kind_has_chunk_queries(m->kind)) {
        ok &= MODEL_EXPECT(m, tdb_mcxt_chunk_context(c->p) == m->cxt);
        ok &= MODEL_EXPECT(m, tdb_mcxt_chunk_space(c->p) >=
                                  MAXALIGN(c->size) + CHUNK_HDR);
    }
    return ok;
}

/* The cheap invariants, checked after every step. */
static bool
model_check_accounting(Model *m)
{
    Size mem = tdb_mcxt_mem_allocated(m->cxt, false);

    return MODEL_EXPECT(m, mem == counting_hooks.live_bytes) &&
           MODEL_EXPECT(m, tdb_mcxt_mem_allocated(m->cxt, true) == mem) &&
           MODEL_EXPECT(m, counting_hooks.size_mismatches == 0) &&
           MODEL_EXPECT(m, counting_hooks.unknown_frees == 0) &&
           MODEL_EXPECT(m, !counting_hooks.overflow);
}

/* Everything, including every live chunk's contents. */
static bool
model_check_all(Model *m)
{
    MemoryContextCounters c;
    Size live_bytes = 0;
    bool ok = model_check_accounting(m);
    Outcome out;
    volatile int problems = 0;

    for (int i = 0; i < MODEL_SLOTS; i++) {
        if (m->slots[i].p == NULL)
            continue;
        ok &= model_check_chunk(m, &m->slots[i]);
        live_bytes += m->slots[i].size;
    }
    memset(&c, 0, sizeof(c));
    tdb_mcxt_stats_collect(m->cxt, false, &c);
    ok &=
        MODEL_EXPECT(m, c.totalspace == tdb_mcxt_mem_allocated(m->cxt, false));
    /* every OS block is a counted block, except possibly a context header
     * obtained on its own (Slab has no keeper block) */
    ok &= MODEL_EXPECT(m, c.nblocks <= (Size)counting_hooks.nlive);
    ok &= MODEL_EXPECT(m, c.nblocks + 1 >= (Size)counting_hooks.nlive);
    ok &= MODEL_EXPECT(m, c.freespace <= c.totalspace);
    ok &= MODEL_EXPECT(m, c.totalspace - c.freespace >= live_bytes);
    run_capturing(&out, problems = tdb_mcxt_check(m->cxt));
    ok &= MODEL_EXPECT(m, problems == 0 && !outcome_reported(&out));
    return ok;
}

static ModelChunk *
model_random_live(Model *m)
{
    int start = (int)model_rand(m, MODEL_SLOTS);

    for (int i = 0; i < MODEL_SLOTS; i++) {
        ModelChunk *c = &m->slots[(start + i) % MODEL_SLOTS];

        if (c->p != NULL)
            return c;
    }
    return NULL;
}

static bool
model_free(Model *m, ModelChunk *c)
{
    bool ok = model_check_chunk(m, c);

    tdb_pfree(c->p);
    c->p = NULL;
    return ok;
}

static bool
model_alloc(Model *m)
{
    ModelChunk *c = &m->slots[model_rand(m, MODEL_SLOTS)];
    Size size = model_size(m);
    uint64 how = model_rand(m, 4);
    bool ok = true;

    if (c->p != NULL) {
        if (m->kind->can_free)
            ok &= model_free(m, c);
        else
            ok &= model_check_chunk(m, c); /* Bump: just forget it */
    }
    if (how == 0) {
        c->p = tdb_mcxt_alloc_zero(m->cxt, size);
        ok &= MODEL_EXPECT(m, all_bytes_are(c->p, size, 0));
    } else if (how == 1)
        c->p = tdb_mcxt_alloc_extended(m->cxt, size,
                                       MCXT_ALLOC_NO_OOM | MCXT_ALLOC_HUGE);
    else
        c->p = tdb_mcxt_alloc(m->cxt, size);
    ok &= MODEL_EXPECT(m, c->p != NULL);
    ok &= MODEL_EXPECT(m, ((uintptr_t)c->p % MAXIMUM_ALIGNOF) == 0);
    c->size = size;
    c->tag = m->next_tag++;
    fill_pattern(c->p, size, c->tag);
    return ok && model_check_chunk(m, c);
}

static bool
model_realloc(Model *m, ModelChunk *c)
{
    Size size = model_size(m);
    Size keep = size < c->size ? size : c->size;
    bool ok = model_check_chunk(m, c);

    c->p = tdb_repalloc(c->p, size);
    ok &= MODEL_EXPECT(m, check_pattern(c->p, keep, c->tag) == keep);
    c->size = size;
    c->tag = m->next_tag++;
    fill_pattern(c->p, size, c->tag);
    return ok && model_check_chunk(m, c);
}

static bool
model_reset(Model *m)
{
    bool ok = model_check_all(m);

    tdb_mcxt_reset(m->cxt);
    memset(m->slots, 0, sizeof(m->slots));
    ok &=
        MODEL_EXPECT(m, tdb_mcxt_mem_allocated(m->cxt, false) == m->fresh_mem);
    ok &= MODEL_EXPECT(m, tdb_mcxt_is_empty(m->cxt));
    return ok;
}

/* One step; returns false if an invariant broke. */
static bool
model_step(Model *m)
{
    uint64 op = model_rand(m, 1000);
    ModelChunk *c = model_random_live(m);
    bool can_free = m->kind->can_free;

    if (op < 450 || c == NULL)
        return model_alloc(m);
    if (op < 700 && can_free)
        return model_free(m, c);
    if (op < 880 && can_free)
        return model_realloc(m, c);
    if (op < 990 || (op < 995 && !can_free))
        return model_check_chunk(m, c);
    return model_reset(m);
}

static void
run_model(const MmgrKind *kind, uint64 salt)
{
    Model *m = tdb_mcxt_alloc_zero(tdb_top_mcxt, sizeof(Model));

    m->kind = kind;
    m->rng = (tdb_test_seed() ^ (salt * 0x9E3779B97F4A7C15ULL)) | 1;
    hooks_install();
    m->cxt = kind->create(tdb_top_mcxt, kind->label);
    m->fresh_mem = tdb_mcxt_mem_allocated(m->cxt, false);

    for (m->step = 0; m->step < MODEL_STEPS; m->step++) {
        if (!model_step(m) || !model_check_accounting(m))
            break;
        if (m->step % MODEL_FULL_CHECK_EVERY == 0 && !model_check_all(m))
            break;
    }
    if (m->step == MODEL_STEPS)
        model_check_all(m);
    tdb_mcxt_delete(m->cxt);
    expect_int_eq(counting_hooks.nlive, 0);
    expect_u64_eq(counting_hooks.live_bytes, 0);
    expect_u64_eq(counting_hooks.size_mismatches, 0);
    expect_u64_eq(counting_hooks.unknown_frees, 0);
    hooks_remove();
}

/* ----- the default-size contexts of mmgr_kinds[] ----- */

TEST_BEGIN(test_model_aset)
{
    run_model(&mmgr_kinds[0], 1);
}
TEST_END

TEST_BEGIN(test_model_generation)
{
    run_model(&mmgr_kinds[1], 2);
}
TEST_END

TEST_BEGIN(test_model_slab)
{
    run_model(&mmgr_kinds[2], 3);
}
TEST_END

TEST_BEGIN(test_model_bump)
{
    run_model(&mmgr_kinds[3], 4);
}
TEST_END

/* ----- small blocks: many more block boundaries and dedicated blocks ----- */

static MemoryContext
create_small_aset(MemoryContext parent, const char *name)
{
    return tdb_aset_create(parent, name, ALLOCSET_SMALL_SIZES);
}

static MemoryContext
create_small_generation(MemoryContext parent, const char *name)
{
    return tdb_generation_create(parent, name, 0, 1024, 16384);
}

static MemoryContext
create_small_slab(MemoryContext parent, const char *name)
{
    return tdb_slab_create(parent, name, 1024, 24);
}

static MemoryContext
create_small_bump(MemoryContext parent, const char *name)
{
    return tdb_bump_create(parent, name, 0, 1024, 16384);
}

static const MmgrKind small_kinds[] = {
    {"SmallAllocSet", MCTX_ASET_ID, create_small_aset, 0, true, true, true},
    {"SmallGeneration", MCTX_GENERATION_ID, create_small_generation, 0, true,
     true, false},
    {"SmallSlab", MCTX_SLAB_ID, create_small_slab, 24, true, false, true},
    {"SmallBump", MCTX_BUMP_ID, create_small_bump, 0, false, true, false},
};

TEST_BEGIN(test_model_small_blocks)
{
    for (int k = 0; k < (int)lengthof(small_kinds); k++)
        run_model(&small_kinds[k], 10 + (uint64)k);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "mmgr_model", TEST_CASE(test_model_aset),
                     TEST_CASE(test_model_generation),
                     TEST_CASE(test_model_slab), TEST_CASE(test_model_bump),
                     TEST_CASE(test_model_small_blocks));
}
