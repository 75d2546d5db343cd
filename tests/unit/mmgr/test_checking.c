/*
 * test_checking.c -- misuse and corruption detection.
 *
 * Checking builds (MEMORY_CONTEXT_CHECKING, i.e. TDB_DEBUG) must catch,
 * naming the context:
 *   - a write past a chunk's requested size (the 0x7E sentinel), when the
 *     chunk is freed, reallocated, reset, or checked with tdb_mcxt_check
 *     -- on every context type and for chunks in dedicated blocks too
 *     (reported as a WARNING or an ERROR; either is accepted);
 *   - a double free, use of a chunk after its context was reset, and use
 *     of a chunk whose block already went back to the OS;
 *   - pfree/repalloc/chunk queries on a pointer no context owns: a malloc'd
 *     pointer, a stack buffer, a pointer into the middle of a chunk, even
 *     when the bytes in front of it imitate a chunk header;
 *   - a write to an AllocSet or Slab chunk after it was freed, when the
 *     chunk is handed out again or checked.
 * They also wipe freed memory with 0x7F and record the requested size.
 *
 * Pointers whose header bytes carry a reserved or unused method id are
 * rejected in release builds too; those cases run in both builds.
 *
 * Under valgrind (the VALGRIND_* macros come from mcxt_int.h, no-ops in
 * release builds), reads and writes of freed memory are marked accessible
 * first (valgrind would otherwise -- rightly -- report the test itself);
 * cases that read outside any live allocation are skipped there and under
 * AddressSanitizer.
 */
#include "common/base.h"

#include <stdlib.h>

#include "mmgr_test.h"

#define SKIP_UNLESS_CHECKING()                                                 \
    do {                                                                       \
        if (!config_mcxt_checking)                                             \
            test_skip("needs a MEMORY_CONTEXT_CHECKING build");                \
    } while (0)

/* Result of repalloc inside run_capturing (a global: not clobbered). */
static void *realloc_result;
static int check_result;

/* A request size that leaves slack for the sentinel in every type. */
static Size
small_size(const MmgrKind *kind)
{
    return kind_size(kind, 10);
}

/* The context name in quotes, as error messages print it. */
static const char *
quoted(const char *name)
{
    static char buf[4][128];
    static int next;
    char *b = buf[next++ % 4];

    snprintf(b, sizeof(buf[0]), "\"%s\"", name);
    return b;
}

/* Delete a context whose chunks were deliberately damaged, quietly. */
static void
delete_quietly(MemoryContext cxt)
{
    Outcome out;

    run_capturing(&out, tdb_mcxt_delete(cxt));
    expect_false(out.raised);
}

/* The report for misuse of a pointer: an ERROR with one of our codes. */
static void
expect_misuse_error(const Outcome *out, const char *needle)
{
    if (!out->raised) {
        tdb_test_fail(__FILE__, __LINE__, "expected an ERROR mentioning %s",
                      needle);
        return;
    }
    if (out->error.sqlerrcode != ERRCODE_INTERNAL_ERROR &&
        out->error.sqlerrcode != ERRCODE_DATA_CORRUPTED)
        tdb_test_fail(__FILE__, __LINE__, "unexpected SQLSTATE for: %s",
                      out->error.message);
    expect_str_contains(out->error.message, needle);
}

/* ----------------------------------------------------------------------
 * Sentinels: writing past the requested size
 * ---------------------------------------------------------------------- */

/* Allocate `size` in cxt and write one byte past it. */
static char *
overrun_chunk(MemoryContext cxt, Size size)
{
    char *p = tdb_mcxt_alloc(cxt, size);

    fill_pattern(p, size, 1);
    p[size] = 'X';
    return p;
}

static void
check_sentinel_on_free(const MmgrKind *kind, Size size)
{
    MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
    char *p = overrun_chunk(cxt, size);
    Outcome out;

    run_capturing(&out, tdb_pfree(p));
    expect_reported(&out, "write past chunk end");
    expect_reported(&out, quoted(kind->label));
    delete_quietly(cxt);
}

TEST_BEGIN(test_sentinel_caught_by_pfree)
{
    SKIP_UNLESS_CHECKING();
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];

        if (!kind->can_free)
            continue;
        check_sentinel_on_free(kind, small_size(kind));
        if (kind->any_size) {
            check_sentinel_on_free(kind, 20000);   /* AllocSet: dedicated */
            check_sentinel_on_free(kind, 3000000); /* dedicated everywhere */
        }
    }
    /* AllocSet: an exact power of two still has room for the sentinel */
    check_sentinel_on_free(&mmgr_kinds[0], 16);
    check_sentinel_on_free(&mmgr_kinds[0], 8192);
}
TEST_END

static void
check_sentinel_on_realloc(const MmgrKind *kind, Size size, Size new_size)
{
    MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
    char *p = overrun_chunk(cxt, size);
    Outcome out;

    run_capturing(&out, realloc_result = tdb_repalloc(p, new_size));
    expect_reported(&out, "write past chunk end");
    expect_reported(&out, quoted(kind->label));
    delete_quietly(cxt);
}

TEST_BEGIN(test_sentinel_caught_by_repalloc)
{
    SKIP_UNLESS_CHECKING();
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        Size s = small_size(kind);

        if (!kind->can_free)
            continue;
        /* in place (same or smaller size) and moving */
        check_sentinel_on_realloc(kind, s, s);
        check_sentinel_on_realloc(kind, s, kind_size(kind, 5000));
        if (kind->any_size)
            check_sentinel_on_realloc(kind, 20000, 40000);
    }
}
TEST_END

static void
check_sentinel_on_reset(const MmgrKind *kind, Size size, bool delete)
{
    MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
    Outcome out;

    tdb_mcxt_alloc(cxt, kind_size(kind, 30));
    overrun_chunk(cxt, size);
    tdb_mcxt_alloc(cxt, kind_size(kind, 30));
    if (delete) {
        run_capturing(&out, tdb_mcxt_delete(cxt));
    } else {
        run_capturing(&out, tdb_mcxt_reset(cxt));
        delete_quietly(cxt);
    }
    expect_reported(&out, "write past chunk end");
    expect_reported(&out, quoted(kind->label));
}

TEST_BEGIN(test_sentinel_caught_by_reset)
{
    SKIP_UNLESS_CHECKING();
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];

        check_sentinel_on_reset(kind, small_size(kind), false);
        if (kind->any_size)
            check_sentinel_on_reset(kind, 3000000, false);
    }
}
TEST_END

TEST_BEGIN(test_sentinel_caught_by_delete)
{
    SKIP_UNLESS_CHECKING();
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];

        check_sentinel_on_reset(kind, small_size(kind), true);
        if (kind->any_size)
            check_sentinel_on_reset(kind, 3000000, true);
    }
}
TEST_END

static void
check_sentinel_on_check(const MmgrKind *kind, Size size)
{
    MemoryContext parent = create_aset(tdb_top_mcxt, "parent");
    MemoryContext cxt = kind->create(parent, kind->label);
    char *p;
    Outcome out;

    tdb_mcxt_alloc(cxt, kind_size(kind, 30));
    p = overrun_chunk(cxt, size);
    tdb_mcxt_alloc(cxt, kind_size(kind, 30));

    check_result = 0;
    run_capturing(&out, check_result = tdb_mcxt_check(cxt));
    expect_reported(&out, "write past chunk end");
    expect_reported(&out, quoted(kind->label));
    if (!out.raised)
        expect_true(check_result >= 1);
    /* checking an ancestor finds it as well */
    check_result = 0;
    run_capturing(&out, check_result = tdb_mcxt_check(tdb_top_mcxt));
    expect_reported(&out, quoted(kind->label));
    /* repaired, the context checks clean again */
    p[size] = (char)MCXT_SENTINEL_BYTE;
    check_result = -1;
    run_capturing(&out, check_result = tdb_mcxt_check(parent));
    expect_silent(&out);
    expect_int_eq(check_result, 0);
    tdb_mcxt_delete(parent);
}

TEST_BEGIN(test_sentinel_caught_by_check)
{
    SKIP_UNLESS_CHECKING();
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];

        check_sentinel_on_check(kind, small_size(kind));
        if (kind->any_size) {
            check_sentinel_on_check(kind, 20000);
            check_sentinel_on_check(kind, 3000000);
        }
    }
}
TEST_END

TEST_BEGIN(test_check_counts_each_problem)
{
    MemoryContext cxt;
    Outcome out;

    SKIP_UNLESS_CHECKING();
    cxt = create_aset(tdb_top_mcxt, "two_problems");
    overrun_chunk(cxt, 10);
    tdb_mcxt_alloc(cxt, 100);
    overrun_chunk(cxt, 300);
    check_result = 0;
    run_capturing(&out, check_result = tdb_mcxt_check(cxt));
    expect_false(out.raised);
    expect_int_eq(check_result, 2);
    expect_int_eq(out.notices.nwarnings, 2);
    delete_quietly(cxt);
}
TEST_END

/* ----------------------------------------------------------------------
 * Double free and use after reset
 * ---------------------------------------------------------------------- */

static void
check_double_free(const MmgrKind *kind)
{
    MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
    Size s = kind_size(kind, 64);
    void *keep = tdb_mcxt_alloc(cxt, s); /* keeps the block non-empty */
    void *p = tdb_mcxt_alloc(cxt, s);
    void *q;
    Outcome out;

    tdb_pfree(p);
    run_capturing(&out, tdb_pfree(p));
    expect_misuse_error(&out, "double free");
    expect_str_contains(out.error.message, quoted(kind->label));
    run_capturing(&out, realloc_result = tdb_repalloc(p, s));
    expect_misuse_error(&out, quoted(kind->label));
    /* the context is intact: allocation and a clean check still work */
    q = tdb_mcxt_alloc(cxt, s);
    fill_pattern(q, s, 3);
    expect_ptr_eq(tdb_mcxt_chunk_context(keep), cxt);
    check_result = -1;
    run_capturing(&out, check_result = tdb_mcxt_check(cxt));
    expect_silent(&out);
    expect_int_eq(check_result, 0);
    tdb_mcxt_delete(cxt);
}

TEST_BEGIN(test_double_free_raises)
{
    SKIP_UNLESS_CHECKING();
    for (int k = 0; k < N_MMGR_KINDS; k++)
        if (mmgr_kinds[k].can_free)
            check_double_free(&mmgr_kinds[k]);
}
TEST_END

/*
 * A chunk whose block already went back to the OS.  The hooks keep such
 * blocks mapped (quarantine), so reading the stale header is safe here;
 * the registry must still reject it.
 */
static void
check_freed_block(const MmgrKind *kind, Size size, bool by_reset)
{
    MemoryContext cxt;
    void *p;
    Outcome out;

    hooks_install();
    counting_hooks.quarantine = true;
    cxt = kind->create(tdb_top_mcxt, kind->label);
    if (by_reset) {
        /* fill the keeper so that p lands in a later block */
        for (int i = 0; i < 100; i++)
            tdb_mcxt_alloc(cxt, size);
    }
    p = tdb_mcxt_alloc(cxt, size);
    if (by_reset)
        tdb_mcxt_reset(cxt);
    else
        tdb_pfree(p);
    expect_true(counting_hooks.nquarantined >= 1);
    run_capturing(&out, tdb_pfree(p));
    expect_misuse_error(&out, "invalid pointer");
    run_capturing(&out, realloc_result = tdb_repalloc(p, 10));
    expect_misuse_error(&out, "invalid pointer");
    run_capturing(&out, tdb_mcxt_chunk_context(p));
    expect_misuse_error(&out, "invalid pointer");
    tdb_mcxt_delete(cxt);
    hooks_remove();
}

TEST_BEGIN(test_chunk_of_returned_block_rejected)
{
    SKIP_UNLESS_CHECKING();
    /* a dedicated block freed by pfree (a double free of a large chunk) */
    check_freed_block(&mmgr_kinds[0], 50000, false);
    check_freed_block(&mmgr_kinds[1], 3000000, false);
    /* an ordinary block freed by reset */
    check_freed_block(&mmgr_kinds[0], 1000, true);
    check_freed_block(&mmgr_kinds[1], 1000, true);
    check_freed_block(&mmgr_kinds[2], kind_size(&mmgr_kinds[2], 0), true);
    check_freed_block(&mmgr_kinds[3], 1000, true);
}
TEST_END

static void
check_use_after_reset(const MmgrKind *kind)
{
    MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
    Size s = kind_size(kind, 64);
    void *p;
    Outcome out;

    tdb_mcxt_alloc(cxt, s); /* make sure the block survives the reset */
    p = tdb_mcxt_alloc(cxt, s);
    tdb_mcxt_reset(cxt);
    run_capturing(&out, tdb_pfree(p));
    expect_true(out.raised);
    run_capturing(&out, realloc_result = tdb_repalloc(p, s));
    expect_true(out.raised);
    run_capturing(&out, tdb_mcxt_chunk_context(p));
    expect_true(out.raised);
    tdb_mcxt_delete(cxt);
}

TEST_BEGIN(test_use_after_reset_raises)
{
    SKIP_UNLESS_CHECKING();
    if (running_under_valgrind())
        test_skip("reads memory valgrind knows is freed");
    /* kinds whose keeper block survives a reset (Slab frees all blocks) */
    check_use_after_reset(&mmgr_kinds[0]);
    check_use_after_reset(&mmgr_kinds[1]);
}
TEST_END

/* ----------------------------------------------------------------------
 * Pointers no context owns
 * ---------------------------------------------------------------------- */

/* Every chunk operation on p must raise "invalid pointer". */
static void
expect_all_ops_rejected(void *p, int line)
{
    Outcome out;
    int failures = tdb_test_state.nfailed_expects;

    run_capturing(&out, tdb_pfree(p));
    expect_misuse_error(&out, "invalid pointer");
    run_capturing(&out, realloc_result = tdb_repalloc(p, 16));
    expect_misuse_error(&out, "invalid pointer");
    run_capturing(&out, tdb_mcxt_chunk_space(p));
    expect_misuse_error(&out, "invalid pointer");
    run_capturing(&out, tdb_mcxt_chunk_context(p));
    expect_misuse_error(&out, "invalid pointer");
    if (tdb_test_state.nfailed_expects != failures)
        printf("    (pointer with header 0x%016llx, from line %d)\n",
               (unsigned long long)tdb_chunk_hdrmask(p), line);
}

/* Header words with a reserved or unused method id: rejected in all builds. */
static const uint64 bogus_headers[] = {
    0,                     /* zeroed memory */
    0x7F7F7F7F7F7F7F7FULL, /* wiped memory: id 15 */
    0x0000000000000051ULL, /* a glibc malloc size field: id 1 */
    0x0000000000100002ULL, /* an mmapped malloc chunk: id 2 */
    0x000055D4C3A8E2B0ULL, /* a heap pointer: id 0 */
    0x000055D4C3A8E2B8ULL, /* a heap pointer: id 8 */
    0x0000000000000006ULL, /* the unused aligned-redirect id */
    0x000000000000000EULL, /* unused id 14 */
};

/* Header words imitating real chunks: only the registry can tell. */
static uint64
forged_header(MemoryContextMethodID id, Size offset, Size value)
{
    return ((uint64)offset << MEMORYCHUNK_BLOCKOFFSET_BASEBIT) |
           ((uint64)value << MEMORYCHUNK_VALUE_BASEBIT) | (uint64)id;
}

static const MemoryContextMethodID real_ids[] = {
    MCTX_ASET_ID, MCTX_GENERATION_ID, MCTX_SLAB_ID, MCTX_BUMP_ID};

TEST_BEGIN(test_stack_pointer_rejected)
{
    uint64 buf[8];

    for (int i = 0; i < (int)lengthof(bogus_headers); i++) {
        memset(buf, 0, sizeof(buf));
        buf[3] = bogus_headers[i];
        expect_all_ops_rejected(&buf[4], __LINE__);
    }
    if (!config_mcxt_checking)
        return; /* forged headers would be followed in release builds */
    for (int i = 0; i < (int)lengthof(real_ids); i++) {
        memset(buf, 0, sizeof(buf));
        buf[3] = forged_header(real_ids[i], 0, 0);
        expect_all_ops_rejected(&buf[4], __LINE__);
        buf[3] = forged_header(real_ids[i], 32, 3);
        expect_all_ops_rejected(&buf[4], __LINE__);
        buf[3] = forged_header(real_ids[i], 4096, 64);
        expect_all_ops_rejected(&buf[4], __LINE__);
        /* an external chunk with the right magic */
        buf[3] =
            MEMORYCHUNK_MAGIC | MEMORYCHUNK_EXTERNAL_FLAG | (uint64)real_ids[i];
        expect_all_ops_rejected(&buf[4], __LINE__);
    }
}
TEST_END

TEST_BEGIN(test_malloc_pointer_rejected)
{
    void *small, *big;
    uint64 *buf;

    if (running_under_valgrind() || MMGR_TEST_ASAN)
        test_skip("reads malloc's own header in front of the pointer");
    small = malloc(64);
    big = malloc(1 << 20);
    expect_all_ops_rejected(small, __LINE__);
    expect_all_ops_rejected(big, __LINE__);
    free(small);
    free(big);

    /* the middle of a malloc'd buffer, header bytes forged */
    buf = calloc(16, sizeof(uint64));
    expect_all_ops_rejected(&buf[8], __LINE__);
    if (config_mcxt_checking) {
        buf[7] = forged_header(MCTX_ASET_ID, 64, 2);
        expect_all_ops_rejected(&buf[8], __LINE__);
    }
    free(buf);
}
TEST_END

static void
check_interior_pointer(const MmgrKind *kind)
{
    MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
    Size s = kind->fixed_size ? kind->fixed_size : 256;
    uint64 *p = tdb_mcxt_alloc_zero(cxt, s);
    void *mid = &p[6];

    /* zeroed contents: header id 0 */
    expect_all_ops_rejected(mid, __LINE__);
    for (int i = 0; i < (int)lengthof(bogus_headers); i++) {
        p[5] = bogus_headers[i];
        expect_all_ops_rejected(mid, __LINE__);
    }
    if (config_mcxt_checking) {
        /* contents that look like a header of each type */
        for (int i = 0; i < (int)lengthof(real_ids); i++) {
            p[5] = forged_header(real_ids[i], 0, 0);
            expect_all_ops_rejected(mid, __LINE__);
            p[5] = forged_header(real_ids[i], 24, 4);
            expect_all_ops_rejected(mid, __LINE__);
            p[5] = 3; /* a small integer */
            expect_all_ops_rejected(mid, __LINE__);
        }
    }
    /* the real chunk is unaffected */
    memset(p, 0, s);
    if (kind->can_free) {
        expect_ptr_eq(tdb_mcxt_chunk_context(p), cxt);
        tdb_pfree(p);
    }
    tdb_mcxt_delete(cxt);
}

TEST_BEGIN(test_interior_pointer_rejected)
{
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        /* release Bump chunks have no header to go wrong with */
        if (!mmgr_kinds[k].can_free && !config_mcxt_checking)
            continue;
        check_interior_pointer(&mmgr_kinds[k]);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * Write after free, wiping, requested size
 * ---------------------------------------------------------------------- */

/* Write to a freed chunk as a buggy caller would. */
static void
scribble_on_freed(char *p, Size offset, char value)
{
    VALGRIND_MAKE_MEM_UNDEFINED(p + offset, 1);
    p[offset] = value;
}

static void
check_write_after_free(const MmgrKind *kind, Size offset)
{
    MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
    Size s = kind_size(kind, 64);
    char *p = tdb_mcxt_alloc(cxt, s);
    Outcome out;

    tdb_mcxt_alloc(cxt, s);
    tdb_pfree(p);
    scribble_on_freed(p, offset, 'Z');

    /* tdb_mcxt_check sees it while the chunk is on the free list */
    check_result = 0;
    run_capturing(&out, check_result = tdb_mcxt_check(cxt));
    expect_reported(&out, "after it was freed");
    expect_reported(&out, quoted(kind->label));

    /* and handing the chunk out again reports it */
    run_capturing(&out, realloc_result = tdb_mcxt_alloc(cxt, s));
    expect_reported(&out, "after it was freed");
    expect_reported(&out, quoted(kind->label));
    /* the free list survived: the context keeps working */
    for (int i = 0; i < 50; i++)
        fill_pattern(tdb_mcxt_alloc(cxt, s), s, (uint32)i);
    delete_quietly(cxt);
}

TEST_BEGIN(test_write_after_free_caught)
{
    SKIP_UNLESS_CHECKING();
    /* AllocSet and Slab hand freed chunks out again */
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        if (!mmgr_kinds[k].reuses_freed)
            continue;
        check_write_after_free(&mmgr_kinds[k], 20); /* in the wiped bytes */
        check_write_after_free(&mmgr_kinds[k], 0);  /* in the list link */
        check_write_after_free(&mmgr_kinds[k], 63);
    }
}
TEST_END

static bool
freed_bytes_are_wiped(const char *p, Size from, Size to)
{
    bool ok;

    VALGRIND_MAKE_MEM_DEFINED(p + from, to - from);
    ok = all_bytes_are(p + from, to - from, MCXT_WIPE_BYTE);
    VALGRIND_MAKE_MEM_NOACCESS(p + from, to - from);
    return ok;
}

TEST_BEGIN(test_freed_memory_wiped)
{
    SKIP_UNLESS_CHECKING();
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt;
        Size s = kind_size(kind, 64);
        char *p;
        /* AllocSet and Slab keep the free-list link in the first bytes */
        Size from = kind->reuses_freed ? sizeof(void *) : 0;

        if (!kind->can_free)
            continue;
        cxt = kind->create(tdb_top_mcxt, kind->label);
        tdb_mcxt_alloc(cxt, s);
        p = tdb_mcxt_alloc(cxt, s);
        memset(p, 0xAA, s);
        tdb_pfree(p);
        expect_true(freed_bytes_are_wiped(p, from, s));
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

TEST_BEGIN(test_reset_wipes_keeper)
{
    SKIP_UNLESS_CHECKING();
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt;
        char *p;

        if (kind->id == MCTX_SLAB_ID)
            continue; /* no keeper: all blocks go back to the OS */
        cxt = kind->create(tdb_top_mcxt, kind->label);
        p = tdb_mcxt_alloc(cxt, 200);
        memset(p, 0xAA, 200);
        tdb_mcxt_reset(cxt);
        expect_true(freed_bytes_are_wiped(p, 0, 200));
        tdb_mcxt_delete(cxt);
    }
}
TEST_END

TEST_BEGIN(test_requested_size_recorded)
{
    SKIP_UNLESS_CHECKING();
#ifdef MEMORY_CONTEXT_CHECKING
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);

        for (Size size = 0; size < 300; size += 37) {
            Size s = kind_size(kind, size);
            void *p = tdb_mcxt_alloc(cxt, s);
            const MemoryChunk *chunk = PointerGetMemoryChunk(p);

            expect_u64_eq(chunk->requested_size, s);
            expect_int_eq(MemoryChunkGetMethodID(chunk), kind->id);
            expect_int_eq(((const unsigned char *)p)[s], MCXT_SENTINEL_BYTE);
            if (kind->can_free && kind->any_size) {
                p = tdb_repalloc(p, s + 5);
                chunk = PointerGetMemoryChunk(p);
                expect_u64_eq(chunk->requested_size, s + 5);
                expect_int_eq(((const unsigned char *)p)[s + 5],
                              MCXT_SENTINEL_BYTE);
            }
        }
        tdb_mcxt_delete(cxt);
    }
#endif
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "mmgr_checking", TEST_CASE(test_sentinel_caught_by_pfree),
        TEST_CASE(test_sentinel_caught_by_repalloc),
        TEST_CASE(test_sentinel_caught_by_reset),
        TEST_CASE(test_sentinel_caught_by_delete),
        TEST_CASE(test_sentinel_caught_by_check),
        TEST_CASE(test_check_counts_each_problem),
        TEST_CASE(test_double_free_raises),
        TEST_CASE(test_chunk_of_returned_block_rejected),
        TEST_CASE(test_use_after_reset_raises),
        TEST_CASE(test_stack_pointer_rejected),
        TEST_CASE(test_malloc_pointer_rejected),
        TEST_CASE(test_interior_pointer_rejected),
        TEST_CASE(test_write_after_free_caught),
        TEST_CASE(test_freed_memory_wiped), TEST_CASE(test_reset_wipes_keeper),
        TEST_CASE(test_requested_size_recorded));
}
