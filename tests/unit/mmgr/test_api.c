/*
 * test_api.c -- the public memory-context API, exercised identically on
 * every context type (AllocSet, Generation, Slab, Bump) through the
 * mmgr_kinds[] table: alloc, alloc_zero, alloc_extended and its flags,
 * palloc & co. in the current context, strdup, the typed array macros and
 * their overflow checks, realloc, free, chunk_space, chunk_context,
 * is_empty, mem_allocated, stats, reset and delete; size edges common to
 * all types (0, 1, MaxAllocSize, MaxAllocSize + 1, HUGE beyond 30 bits).
 *
 * Type-specific behaviour (size classes, block recycling, fixed sizes, no
 * headers) is in test_aset.c, test_generation.c, test_slab.c and
 * test_bump.c.
 */
#include "common/base.h"

#include "mmgr_test.h"

/* ~1 GB + 8: more than the 30 bits a chunk header can encode. */
#define HUGE_REQUEST (((Size)1 << 30) + 8)

/* Sizes every kind but Slab is asked for (Slab gets its fixed size). */
static const Size plain_sizes[] = {0,    1,    7,    8,    9,     15,    16,
                                   17,   100,  255,  256,  1000,  4095,  4096,
                                   4097, 8191, 8192, 8193, 20000, 300000};

static bool
skip_big_allocations(void)
{
    return running_under_valgrind();
}

/* ----------------------------------------------------------------------
 * Allocation basics
 * ---------------------------------------------------------------------- */

/* Properties every live chunk has, whatever its context type. */
static void
expect_chunk_ok(const MmgrKind *kind, MemoryContext cxt, void *p, Size size)
{
    expect_ptr_not_null(p);
    expect_true(((uintptr_t)p % MAXIMUM_ALIGNOF) == 0);
    if (kind_has_chunk_queries(kind)) {
        expect_ptr_eq(tdb_mcxt_chunk_context(p), cxt);
        expect_u64_ge(tdb_mcxt_chunk_space(p), MAXALIGN(size) + CHUNK_HDR);
    }
}

TEST_BEGIN(test_alloc_sizes_all_kinds)
{
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
        void *ptrs[lengthof(plain_sizes)];
        Size sizes[lengthof(plain_sizes)];

        for (int i = 0; i < (int)lengthof(plain_sizes); i++) {
            sizes[i] = kind_size(kind, plain_sizes[i]);
            ptrs[i] = tdb_mcxt_alloc(cxt, sizes[i]);
            expect_chunk_ok(kind, cxt, ptrs[i], sizes[i]);
            fill_pattern(ptrs[i], sizes[i], (uint32)i);
        }
        /* nothing overlaps: every pattern is intact */
        for (int i = 0; i < (int)lengthof(plain_sizes); i++)
            expect_pattern(ptrs[i], sizes[i], (uint32)i);
        /* distinct pointers (a zero-byte chunk may share its address) */
        for (int i = 0; i < (int)lengthof(plain_sizes); i++)
            for (int j = i + 1; j < (int)lengthof(plain_sizes); j++)
                if (sizes[i] > 0 && sizes[j] > 0)
                    expect_ptr_ne(ptrs[i], ptrs[j]);
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

/* Dirty a context's memory, reset it, then demand zeroed chunks. */
TEST_BEGIN(test_alloc_zero_is_really_zero)
{
    static const Size sizes[] = {1, 24, 100, 1000, 5000, 100000};

    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);

        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < (int)lengthof(sizes); i++) {
                Size size = kind_size(kind, sizes[i]);
                void *dirty = tdb_mcxt_alloc(cxt, size);

                memset(dirty, 0xAB, size);
                if (kind->can_free && i % 2 == 0)
                    tdb_pfree(dirty); /* reused by AllocSet and Slab */
            }
            tdb_mcxt_reset(cxt);
            for (int i = 0; i < (int)lengthof(sizes); i++) {
                Size size = kind_size(kind, sizes[i]);
                void *z;

                if (round == 0)
                    z = tdb_mcxt_alloc_zero(cxt, size);
                else if (round == 1)
                    z = tdb_mcxt_alloc_extended(cxt, size, MCXT_ALLOC_ZERO);
                else {
                    MemoryContext old = tdb_mcxt_switch_to(cxt);

                    z = tdb_palloc0(size);
                    tdb_mcxt_switch_to(old);
                }
                expect_true(all_bytes_are(z, size, 0));
                memset(z, 0xCD, size);
                if (kind->can_free) {
                    tdb_pfree(z);
                    z = tdb_mcxt_alloc_zero(cxt, size);
                    expect_true(all_bytes_are(z, size, 0));
                }
            }
        }
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

TEST_BEGIN(test_alloc_extended_flags)
{
    static const int flag_sets[] = {
        0,
        MCXT_ALLOC_NO_OOM,
        MCXT_ALLOC_HUGE,
        MCXT_ALLOC_ZERO,
        MCXT_ALLOC_NO_OOM | MCXT_ALLOC_ZERO,
        MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM | MCXT_ALLOC_ZERO,
    };

    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);

        for (int f = 0; f < (int)lengthof(flag_sets); f++) {
            Size size = kind_size(kind, 40 + 1000 * (Size)f);
            void *p = tdb_mcxt_alloc_extended(cxt, size, flag_sets[f]);

            expect_chunk_ok(kind, cxt, p, size);
            if (flag_sets[f] & MCXT_ALLOC_ZERO)
                expect_true(all_bytes_are(p, size, 0));
            fill_pattern(p, size, (uint32)f);
            expect_pattern(p, size, (uint32)f);
        }
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

TEST_BEGIN(test_palloc_family_uses_current_context)
{
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
        MemoryContext old = tdb_mcxt_switch_to(cxt);
        Size top_before = tdb_mcxt_mem_allocated(tdb_top_mcxt, false);
        void *a, *b, *c;

        expect_true(tdb_mcxt_is_empty(cxt));
        a = tdb_palloc(kind_size(kind, 50));
        b = tdb_palloc0(kind_size(kind, 60));
        c = tdb_palloc_extended(kind_size(kind, 70),
                                MCXT_ALLOC_ZERO | MCXT_ALLOC_NO_OOM);
        tdb_mcxt_switch_to(old);

        expect_false(tdb_mcxt_is_empty(cxt));
        expect_chunk_ok(kind, cxt, a, kind_size(kind, 50));
        expect_chunk_ok(kind, cxt, b, kind_size(kind, 60));
        expect_chunk_ok(kind, cxt, c, kind_size(kind, 70));
        expect_true(all_bytes_are(b, kind_size(kind, 60), 0));
        expect_true(all_bytes_are(c, kind_size(kind, 70), 0));
        /* nothing went to the previous current context */
        expect_u64_eq(tdb_mcxt_mem_allocated(tdb_top_mcxt, false), top_before);
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

TEST_BEGIN(test_strdup)
{
    char longstr[10001];

    memset(longstr, 'q', sizeof(longstr) - 1);
    longstr[sizeof(longstr) - 1] = '\0';
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
        char slab_sized[SLAB_TEST_CHUNK];
        MemoryContext old;
        char *s;

        /* a string whose copy is exactly the Slab's chunk size */
        memset(slab_sized, 's', sizeof(slab_sized) - 1);
        slab_sized[sizeof(slab_sized) - 1] = '\0';
        s = tdb_mcxt_strdup(cxt, slab_sized);
        expect_str_eq(s, slab_sized);
        expect_ptr_ne(s, slab_sized);
        if (kind_has_chunk_queries(kind))
            expect_ptr_eq(tdb_mcxt_chunk_context(s), cxt);
        if (kind->fixed_size == 0) {
            expect_str_eq(tdb_mcxt_strdup(cxt, ""), "");
            expect_str_eq(tdb_mcxt_strdup(cxt, "hello"), "hello");
            expect_str_eq(tdb_mcxt_strdup(cxt, longstr), longstr);
            old = tdb_mcxt_switch_to(cxt);
            s = tdb_pstrdup("current");
            tdb_mcxt_switch_to(old);
            expect_str_eq(s, "current");
            if (kind_has_chunk_queries(kind))
                expect_ptr_eq(tdb_mcxt_chunk_context(s), cxt);
        }
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * Typed allocation macros
 * ---------------------------------------------------------------------- */

typedef struct Pair {
    int64 a;
    int64 b;
} Pair;

TEST_BEGIN(test_typed_allocation_macros)
{
    MemoryContext cxt = create_aset(tdb_top_mcxt, "typed");
    MemoryContext old = tdb_mcxt_switch_to(cxt);
    Pair *one = tdb_palloc_object(Pair);
    Pair *zero = tdb_palloc0_object(Pair);
    int64 *arr = tdb_palloc_array(int64, 100);
    int64 *zarr = tdb_palloc0_array(int64, 1000);

    tdb_mcxt_switch_to(old);
    expect_u64_ge(tdb_mcxt_chunk_space(one), sizeof(Pair) + CHUNK_HDR);
    expect_true(zero->a == 0 && zero->b == 0);
    expect_u64_ge(tdb_mcxt_chunk_space(arr), 100 * sizeof(int64) + CHUNK_HDR);
    expect_true(all_bytes_are(zarr, 1000 * sizeof(int64), 0));
    for (int i = 0; i < 100; i++)
        arr[i] = i * 3;
    old = tdb_mcxt_switch_to(cxt);
    arr = tdb_repalloc_array(arr, int64, 5000);
    tdb_mcxt_switch_to(old);
    for (int i = 0; i < 100; i++)
        expect_int_eq(arr[i], i * 3);
    expect_u64_ge(tdb_mcxt_chunk_space(arr), 5000 * sizeof(int64));
    expect_ptr_eq(tdb_mcxt_chunk_context(arr), cxt);

    expect_u64_eq(tdb_mcxt_array_size(3, 5), 15);
    expect_u64_eq(tdb_mcxt_array_size(0, 100), 0);
    expect_u64_eq(tdb_mcxt_array_size(100, 0), 0);
    tdb_mcxt_delete(cxt);
}
TEST_END

TEST_BEGIN(test_typed_array_overflow_raises)
{
    MemoryContext cxt = create_aset(tdb_top_mcxt, "typed");
    MemoryContext old = tdb_mcxt_switch_to(cxt);
    Size before = tdb_mcxt_mem_allocated(cxt, false);
    /* count * 8 wraps around to exactly 8: must not allocate 8 bytes */
    Size wrap_count = SIZE_MAX / 8 + 2;
    int64 *arr = tdb_palloc_array(int64, 10);

    expect_error(tdb_palloc_array(int64, wrap_count), ERRCODE_INTERNAL_ERROR,
                 "invalid memory alloc request size");
    expect_error(tdb_palloc0_array(Pair, SIZE_MAX / 2), ERRCODE_INTERNAL_ERROR,
                 "invalid memory alloc request size");
    expect_error(tdb_palloc_array(char, SIZE_MAX), ERRCODE_INTERNAL_ERROR,
                 "invalid memory alloc request size");
    /* no overflow, but more than MaxAllocSize */
    expect_error(tdb_palloc_array(int64, MaxAllocSize / 8 + 1),
                 ERRCODE_INTERNAL_ERROR, "invalid memory alloc request size");
    expect_error((void)tdb_repalloc_array(arr, int64, wrap_count),
                 ERRCODE_INTERNAL_ERROR, "invalid memory alloc request size");
    expect_error(tdb_mcxt_array_size(SIZE_MAX, 2), ERRCODE_INTERNAL_ERROR,
                 "invalid memory alloc request size");
    expect_error(tdb_mcxt_array_size((Size)1 << 32, (Size)1 << 32),
                 ERRCODE_INTERNAL_ERROR, "invalid memory alloc request size");
    tdb_mcxt_switch_to(old);
    /* the failed requests allocated nothing; the old array survived */
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), before);
    expect_ptr_eq(tdb_mcxt_chunk_context(arr), cxt);
    tdb_mcxt_delete(cxt);
}
TEST_END

/* ----------------------------------------------------------------------
 * Size limits
 * ---------------------------------------------------------------------- */

static void
check_oversize_requests(const MmgrKind *kind)
{
    MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
    Size before = tdb_mcxt_mem_allocated(cxt, false);

    expect_error(tdb_mcxt_alloc(cxt, MaxAllocSize + 1), ERRCODE_INTERNAL_ERROR,
                 "invalid memory alloc request size");
    expect_str_contains(tdb_test_last_error.message, kind->label);
    expect_error(tdb_mcxt_alloc_zero(cxt, MaxAllocSize + 1),
                 ERRCODE_INTERNAL_ERROR, "invalid memory alloc request size");
    /* NO_OOM does not turn a bad size into NULL */
    expect_error(
        tdb_mcxt_alloc_extended(cxt, MaxAllocSize + 1, MCXT_ALLOC_NO_OOM),
        ERRCODE_INTERNAL_ERROR, "invalid memory alloc request size");
    expect_error(tdb_mcxt_alloc_extended(cxt, SIZE_MAX, MCXT_ALLOC_HUGE),
                 ERRCODE_INTERNAL_ERROR, "invalid memory alloc request size");
    expect_error(tdb_mcxt_alloc_extended(cxt, MaxAllocHugeSize + 1,
                                         MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM),
                 ERRCODE_INTERNAL_ERROR, "invalid memory alloc request size");
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), before);
    expect_true(tdb_mcxt_is_empty(cxt));
    tdb_mcxt_delete(cxt);
}

TEST_BEGIN(test_oversize_requests_raise)
{
    for (int k = 0; k < N_MMGR_KINDS; k++)
        check_oversize_requests(&mmgr_kinds[k]);
}
TEST_END

static void
check_oversize_realloc(const MmgrKind *kind)
{
    MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
    void *p = tdb_mcxt_alloc(cxt, kind_size(kind, 64));

    fill_pattern(p, kind_size(kind, 64), 5);
    expect_error(tdb_repalloc(p, MaxAllocSize + 1), ERRCODE_INTERNAL_ERROR,
                 "invalid memory alloc request size");
    expect_error(
        tdb_repalloc_extended(p, SIZE_MAX, MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM),
        ERRCODE_INTERNAL_ERROR, "invalid memory alloc request size");
    expect_pattern(p, kind_size(kind, 64), 5);
    expect_ptr_eq(tdb_mcxt_chunk_context(p), cxt);
    tdb_pfree(p);
    tdb_mcxt_delete(cxt);
}

TEST_BEGIN(test_oversize_realloc_raises_and_keeps_chunk)
{
    for (int k = 0; k < N_MMGR_KINDS; k++)
        if (mmgr_kinds[k].can_free)
            check_oversize_realloc(&mmgr_kinds[k]);
}
TEST_END

/* Allocate `size` (touching only the ends), then give it back. */
static void
big_alloc_roundtrip(const MmgrKind *kind, Size size, int flags)
{
    MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
    Size before = tdb_mcxt_mem_allocated(cxt, false);
    unsigned char *p = tdb_mcxt_alloc_extended(cxt, size, flags);

    expect_ptr_not_null(p);
    if (p == NULL)
        return;
    p[0] = 0x11;
    p[size - 1] = 0x22;
    expect_u64_ge(tdb_mcxt_mem_allocated(cxt, false), before + size);
    expect_u64_ge(tdb_mcxt_mem_allocated(tdb_top_mcxt, true), size);
    if (kind_has_chunk_queries(kind)) {
        expect_ptr_eq(tdb_mcxt_chunk_context(p), cxt);
        expect_u64_ge(tdb_mcxt_chunk_space(p), size + CHUNK_HDR);
        /* a dedicated block: its accounting is close to the chunk's */
        expect_u64_le(tdb_mcxt_mem_allocated(cxt, false) - before,
                      tdb_mcxt_chunk_space(p) + 256);
    }
    expect_int_eq(p[0], 0x11);
    expect_int_eq(p[size - 1], 0x22);
    if (kind->can_free) {
        tdb_pfree(p);
        expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), before);
    } else {
        tdb_mcxt_reset(cxt);
        expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), before);
    }
    tdb_mcxt_delete(cxt);
}

TEST_BEGIN(test_max_alloc_size_is_allowed)
{
    if (skip_big_allocations())
        test_skip("1 GB allocations under valgrind");
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        if (!mmgr_kinds[k].any_size)
            continue;
        big_alloc_roundtrip(&mmgr_kinds[k], MaxAllocSize, 0);
    }
}
TEST_END

TEST_BEGIN(test_huge_beyond_30_bits)
{
    if (skip_big_allocations())
        test_skip("1 GB allocations under valgrind");
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        if (!mmgr_kinds[k].any_size)
            continue;
        big_alloc_roundtrip(&mmgr_kinds[k], HUGE_REQUEST, MCXT_ALLOC_HUGE);
        big_alloc_roundtrip(&mmgr_kinds[k], HUGE_REQUEST,
                            MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
    }
}
TEST_END

/* A small chunk grown past 1 GB with HUGE and shrunk back. */
static void
huge_realloc_roundtrip(const MmgrKind *kind)
{
    MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
    Size before = tdb_mcxt_mem_allocated(cxt, false);
    unsigned char *small = tdb_mcxt_alloc(cxt, 4096);
    unsigned char *p;

    fill_pattern(small, 4096, 3);
    /* without HUGE the request is refused */
    expect_error(tdb_repalloc(small, HUGE_REQUEST), ERRCODE_INTERNAL_ERROR,
                 "invalid memory alloc request size");
    p = tdb_repalloc_extended(small, HUGE_REQUEST, MCXT_ALLOC_HUGE);
    expect_pattern(p, 4096, 3);
    p[HUGE_REQUEST - 1] = 0x5C;
    expect_ptr_eq(tdb_mcxt_chunk_context(p), cxt);
    expect_u64_ge(tdb_mcxt_chunk_space(p), HUGE_REQUEST + CHUNK_HDR);
    expect_u64_ge(tdb_mcxt_mem_allocated(cxt, false), HUGE_REQUEST);
    /* and back to a small chunk (AllocSet gives the block back;
     * Generation may shrink in place) */
    p = tdb_repalloc(p, 1000);
    expect_pattern(p, 1000, 3);
    if (kind->id == MCTX_ASET_ID)
        expect_u64_lt(tdb_mcxt_mem_allocated(cxt, false), HUGE_REQUEST);
    tdb_pfree(p);
    tdb_mcxt_reset(cxt);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), before);
    tdb_mcxt_delete(cxt);
}

TEST_BEGIN(test_huge_realloc_across_1gb)
{
    if (skip_big_allocations() || MMGR_TEST_ASAN)
        test_skip("realloc of 1 GB copies under valgrind/ASan");
    for (int k = 0; k < N_MMGR_KINDS; k++)
        if (mmgr_kinds[k].can_free && mmgr_kinds[k].any_size)
            huge_realloc_roundtrip(&mmgr_kinds[k]);
}
TEST_END

/* ----------------------------------------------------------------------
 * realloc
 * ---------------------------------------------------------------------- */

/*
 * Walk one chunk through a size sequence, checking that the first
 * min(old, new) bytes survive each step and the chunk stays in cxt.
 */
static void
realloc_walk(MemoryContext cxt, const Size *sizes, int n)
{
    Size cur = sizes[0];
    void *p = tdb_mcxt_alloc(cxt, cur);

    fill_pattern(p, cur, 0);
    for (int i = 1; i < n; i++) {
        Size next = sizes[i];
        Size keep = cur < next ? cur : next;

        p = tdb_repalloc(p, next);
        expect_ptr_not_null(p);
        if (check_pattern(p, keep, (uint32)(i - 1)) != keep)
            tdb_test_fail(__FILE__, __LINE__,
                          "%s: contents lost resizing %zu -> %zu bytes",
                          tdb_mcxt_name(cxt), cur, next);
        expect_ptr_eq(tdb_mcxt_chunk_context(p), cxt);
        expect_u64_ge(tdb_mcxt_chunk_space(p), MAXALIGN(next) + CHUNK_HDR);
        fill_pattern(p, next, (uint32)i);
        cur = next;
    }
    expect_pattern(p, cur, (uint32)(n - 1));
    tdb_pfree(p);
}

TEST_BEGIN(test_realloc_preserves_contents)
{
    /* across size classes, into and out of dedicated blocks */
    static const Size walk[] = {1,       7,    8,    9,     100,   1000,
                                8191,    8192, 8193, 20000, 3000,  300000,
                                2000000, 5,    0,    16,    70000, 1};

    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt;

        if (!kind->can_free || !kind->any_size)
            continue;
        cxt = kind->create(tdb_top_mcxt, kind->label);
        realloc_walk(cxt, walk, (int)lengthof(walk));
        /* with neighbours alive around it */
        for (int i = 0; i < 50; i++)
            fill_pattern(tdb_mcxt_alloc(cxt, (Size)i * 13), (Size)i * 13, 9);
        realloc_walk(cxt, walk, (int)lengthof(walk));
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

TEST_BEGIN(test_realloc_extended_no_oom_success)
{
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt;
        void *p;

        if (!kind->can_free)
            continue;
        cxt = kind->create(tdb_top_mcxt, kind->label);
        p = tdb_mcxt_alloc(cxt, kind_size(kind, 30));
        fill_pattern(p, kind_size(kind, 30), 1);
        p = tdb_repalloc_extended(p, kind_size(kind, 3000), MCXT_ALLOC_NO_OOM);
        expect_ptr_not_null(p);
        expect_pattern(p, kind_size(kind, 30), 1);
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * free, is_empty, mem_allocated, reset, delete
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_free_then_reuse_keeps_others_intact)
{
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt;
        void *ptrs[64];
        Size sizes[64];

        if (!kind->can_free)
            continue;
        cxt = kind->create(tdb_top_mcxt, kind->label);
        for (int i = 0; i < 64; i++) {
            sizes[i] = kind_size(kind, (Size)(i * 97 % 700));
            ptrs[i] = tdb_mcxt_alloc(cxt, sizes[i]);
            fill_pattern(ptrs[i], sizes[i], (uint32)i);
        }
        for (int i = 0; i < 64; i += 2)
            tdb_pfree(ptrs[i]);
        for (int i = 0; i < 64; i += 2) {
            ptrs[i] = tdb_mcxt_alloc(cxt, sizes[i]);
            fill_pattern(ptrs[i], sizes[i], (uint32)(i + 100));
        }
        for (int i = 0; i < 64; i++)
            expect_pattern(ptrs[i], sizes[i], (uint32)(i % 2 ? i : i + 100));
        for (int i = 0; i < 64; i++)
            tdb_pfree(ptrs[i]);
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

TEST_BEGIN(test_is_empty_and_reset)
{
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
        Size fresh = tdb_mcxt_mem_allocated(cxt, false);

        expect_true(tdb_mcxt_is_empty(cxt));
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 500; i++)
                tdb_mcxt_alloc(cxt, kind_size(kind, (Size)(i % 50) * 40));
            tdb_mcxt_alloc(cxt, kind_size(kind, 2000000));
            expect_false(tdb_mcxt_is_empty(cxt));
            expect_u64_gt(tdb_mcxt_mem_allocated(cxt, false), fresh);
            /* a reset gives back everything but the keeper block */
            tdb_mcxt_reset(cxt);
            expect_true(tdb_mcxt_is_empty(cxt));
            expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), fresh);
        }
        /* reset_only behaves the same on a childless context */
        tdb_mcxt_alloc(cxt, kind_size(kind, 10));
        tdb_mcxt_reset_only(cxt);
        expect_true(tdb_mcxt_is_empty(cxt));
        expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), fresh);
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

TEST_BEGIN(test_mem_allocated_covers_requests)
{
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
        Size fresh = tdb_mcxt_mem_allocated(cxt, false);
        Size requested = 0;
        MemoryContextCounters c;

        expect_u64_gt(fresh, 0);
        for (int i = 0; i < 3000; i++) {
            Size size = kind_size(kind, (Size)(i % 200) + 1);

            tdb_mcxt_alloc(cxt, size);
            requested += size;
        }
        expect_u64_ge(tdb_mcxt_mem_allocated(cxt, false), fresh + requested);
        expect_u64_eq(tdb_mcxt_mem_allocated(cxt, true),
                      tdb_mcxt_mem_allocated(cxt, false));
        memset(&c, 0, sizeof(c));
        tdb_mcxt_stats_collect(cxt, false, &c);
        expect_u64_eq(c.totalspace, tdb_mcxt_mem_allocated(cxt, false));
        expect_u64_ge(c.totalspace - c.freespace, requested);
        expect_u64_ge(c.nblocks, 1);
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

TEST_BEGIN(test_every_block_returned_on_delete)
{
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt;
        void *big = NULL;

        hooks_install();
        cxt = kind->create(tdb_top_mcxt, kind->label);
        /* creation's blocks are exactly what mem_allocated counts */
        expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                      counting_hooks.live_bytes);
        for (int i = 0; i < 2000; i++)
            tdb_mcxt_alloc(cxt, kind_size(kind, (Size)(i % 300) * 7));
        if (kind->any_size)
            big = tdb_mcxt_alloc(cxt, 3000000);
        if (big && kind->can_free)
            big = tdb_repalloc(big, 5000000);
        expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                      counting_hooks.live_bytes);
        tdb_mcxt_delete(cxt);
        expect_int_eq(counting_hooks.nlive, 0);
        expect_u64_eq(counting_hooks.live_bytes, 0);
        expect_u64_eq(counting_hooks.size_mismatches, 0);
        expect_u64_eq(counting_hooks.unknown_frees, 0);
        hooks_remove();
    }
}
TEST_END

TEST_BEGIN(test_create_rejects_bad_block_sizes)
{
    expect_error(tdb_aset_create(tdb_top_mcxt, "bad", 0, 100, 8192),
                 ERRCODE_INTERNAL_ERROR, "bad");
    expect_error(tdb_aset_create(tdb_top_mcxt, "bad", 0, 8192, 4096),
                 ERRCODE_INTERNAL_ERROR, "bad");
    expect_error(
        tdb_generation_create(tdb_top_mcxt, "bad", 0, 8192, MaxAllocSize + 1),
        ERRCODE_INTERNAL_ERROR, "bad");
    expect_error(tdb_bump_create(tdb_top_mcxt, "bad", 0, 8193, 16384),
                 ERRCODE_INTERNAL_ERROR, "bad");
    /* a Slab block that cannot hold a single chunk */
    expect_error(tdb_slab_create(tdb_top_mcxt, "bad", 1024, 2000),
                 ERRCODE_INTERNAL_ERROR, "bad");
    /* nothing was left behind in the parent */
    expect_true(tdb_mcxt_mem_allocated(tdb_top_mcxt, true) ==
                tdb_mcxt_mem_allocated(tdb_top_mcxt, false));
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "mmgr_api", TEST_CASE(test_alloc_sizes_all_kinds),
        TEST_CASE(test_alloc_zero_is_really_zero),
        TEST_CASE(test_alloc_extended_flags),
        TEST_CASE(test_palloc_family_uses_current_context),
        TEST_CASE(test_strdup), TEST_CASE(test_typed_allocation_macros),
        TEST_CASE(test_typed_array_overflow_raises),
        TEST_CASE(test_oversize_requests_raise),
        TEST_CASE(test_oversize_realloc_raises_and_keeps_chunk),
        TEST_CASE(test_max_alloc_size_is_allowed),
        TEST_CASE(test_huge_beyond_30_bits),
        TEST_CASE(test_huge_realloc_across_1gb),
        TEST_CASE(test_realloc_preserves_contents),
        TEST_CASE(test_realloc_extended_no_oom_success),
        TEST_CASE(test_free_then_reuse_keeps_others_intact),
        TEST_CASE(test_is_empty_and_reset),
        TEST_CASE(test_mem_allocated_covers_requests),
        TEST_CASE(test_every_block_returned_on_delete),
        TEST_CASE(test_create_rejects_bad_block_sizes));
}
