/*
 * test_oom.c -- out-of-memory behaviour on every context type.
 *
 *   - OS hooks that refuse every block: allocation raises
 *     ERRCODE_OUT_OF_MEMORY ("out of memory", detail naming the context),
 *     MCXT_ALLOC_NO_OOM returns NULL instead, a failed repalloc leaves the
 *     old chunk untouched, context creation fails cleanly, and afterwards
 *     the context works, its chunks are intact and no block leaked.
 *   - Fault injection (TDB_DEBUG builds; skipped in release builds):
 *     tdb_mcxt_inject_oom_after(n) fails exactly the n-th allocation call,
 *     once; and the STYLE.md loop -- rerun a workload failing allocation
 *     1, 2, 3, ... until it succeeds -- ends every run in success or a
 *     clean ERROR, leaks nothing and fails exactly once per allocation
 *     call.
 */
#include "common/base.h"

#include "mmgr_test.h"

/* Check an error is the standard OOM report for context `name`. */
static void
expect_oom_report(const ErrorData *e, const char *name)
{
    char quoted[128];

    snprintf(quoted, sizeof(quoted), "\"%s\"", name);
    expect_int_eq(e->sqlerrcode, ERRCODE_OUT_OF_MEMORY);
    expect_str_eq(e->message, "out of memory");
    expect_str_contains(e->detail, quoted);
}

/*
 * Allocate `size` bytes from cxt until an ERROR is raised (at most
 * `limit` times).  Returns whether one was raised, copying it to *error.
 */
static bool
alloc_until_error(MemoryContext cxt, Size size, int limit, ErrorData *error)
{
    volatile bool raised = false;

    TDB_TRY();
    {
        for (int i = 0; i < limit; i++)
            tdb_mcxt_alloc(cxt, size);
    }
    TDB_CATCH();
    {
        raised = true;
        *error = *tdb_error_current();
        tdb_error_flush();
    }
    TDB_END_TRY();
    return raised;
}

static void
check_refused_blocks(const MmgrKind *kind)
{
    Size size = kind_size(kind, 1000);
    MemoryContext cxt;
    void *keep[8];
    ErrorData e;
    MemoryContext old;

    hooks_install();
    cxt = kind->create(tdb_top_mcxt, kind->label);
    for (int i = 0; i < 8; i++) {
        keep[i] = tdb_mcxt_alloc(cxt, size);
        fill_pattern(keep[i], size, (uint32)i);
    }

    counting_hooks.refuse = true;
    /* whatever is left in the current block runs out quickly */
    expect_true(alloc_until_error(cxt, size, 100000, &e));
    expect_oom_report(&e, kind->label);
    expect_u64_gt(counting_hooks.nrefused, 0);

    /* NO_OOM turns the same failure into NULL, in every entry point */
    expect_ptr_null(tdb_mcxt_alloc_extended(cxt, size, MCXT_ALLOC_NO_OOM));
    expect_ptr_null(tdb_mcxt_alloc_extended(
        cxt, size, MCXT_ALLOC_NO_OOM | MCXT_ALLOC_ZERO | MCXT_ALLOC_HUGE));
    old = tdb_mcxt_switch_to(cxt);
    expect_ptr_null(tdb_palloc_extended(size, MCXT_ALLOC_NO_OOM));
    expect_error(tdb_palloc(size), ERRCODE_OUT_OF_MEMORY, "out of memory");
    expect_error(tdb_palloc0(size), ERRCODE_OUT_OF_MEMORY, "out of memory");
    tdb_mcxt_switch_to(old);
    expect_error(tdb_mcxt_alloc_zero(cxt, size), ERRCODE_OUT_OF_MEMORY,
                 "out of memory");
    if (kind->any_size) {
        /* a dedicated block is refused the same way */
        expect_ptr_null(
            tdb_mcxt_alloc_extended(cxt, 5000000, MCXT_ALLOC_NO_OOM));
        expect_error(tdb_mcxt_alloc(cxt, 5000000), ERRCODE_OUT_OF_MEMORY,
                     "out of memory");
        expect_oom_report(&tdb_test_last_error, kind->label);
    }
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  counting_hooks.live_bytes);

    /* memory is back: the context works and lost nothing */
    counting_hooks.refuse = false;
    for (int i = 0; i < 100; i++)
        tdb_mcxt_alloc(cxt, size);
    if (kind->any_size)
        tdb_mcxt_alloc(cxt, 5000000);
    for (int i = 0; i < 8; i++)
        expect_pattern(keep[i], size, (uint32)i);
    expect_int_eq(tdb_mcxt_check(cxt), 0);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  counting_hooks.live_bytes);
    tdb_mcxt_delete(cxt);
    expect_int_eq(counting_hooks.nlive, 0);
    expect_u64_eq(counting_hooks.size_mismatches, 0);
    hooks_remove();
}

TEST_BEGIN(test_refused_blocks_raise_out_of_memory)
{
    for (int k = 0; k < N_MMGR_KINDS; k++)
        check_refused_blocks(&mmgr_kinds[k]);
}
TEST_END

static void
check_refused_realloc(const MmgrKind *kind)
{
    MemoryContext cxt;
    void *p;
    void *q;

    hooks_install();
    cxt = kind->create(tdb_top_mcxt, kind->label);
    p = tdb_mcxt_alloc(cxt, 20000);
    fill_pattern(p, 20000, 7);

    counting_hooks.refuse = true;
    q = tdb_repalloc_extended(p, 3000000, MCXT_ALLOC_NO_OOM);
    expect_ptr_null(q);
    expect_pattern(p, 20000, 7);
    expect_ptr_eq(tdb_mcxt_chunk_context(p), cxt);
    expect_error(tdb_repalloc(p, 3000000), ERRCODE_OUT_OF_MEMORY,
                 "out of memory");
    expect_oom_report(&tdb_test_last_error, kind->label);
    expect_pattern(p, 20000, 7);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  counting_hooks.live_bytes);

    counting_hooks.refuse = false;
    q = tdb_repalloc(p, 3000000);
    expect_pattern(q, 20000, 7);
    tdb_pfree(q);
    tdb_mcxt_delete(cxt);
    expect_int_eq(counting_hooks.nlive, 0);
    hooks_remove();
}

TEST_BEGIN(test_refused_realloc_keeps_old_chunk)
{
    for (int k = 0; k < N_MMGR_KINDS; k++)
        if (mmgr_kinds[k].can_free && mmgr_kinds[k].any_size)
            check_refused_realloc(&mmgr_kinds[k]);
}
TEST_END

/*
 * The largest legal HUGE request: the block size computed for it must not
 * wrap around; the OS refuses it and the caller gets NULL or OOM.
 */
static void
check_largest_huge_request(const MmgrKind *kind)
{
    MemoryContext cxt;
    Size before;

    hooks_install();
    cxt = kind->create(tdb_top_mcxt, kind->label);
    before = tdb_mcxt_mem_allocated(cxt, false);
    counting_hooks.refuse_above = (Size)1 << 40;
    expect_ptr_null(tdb_mcxt_alloc_extended(
        cxt, MaxAllocHugeSize, MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM));
    expect_u64_ge(counting_hooks.last_refused, MaxAllocHugeSize);
    counting_hooks.last_refused = 0;
    expect_error(
        tdb_mcxt_alloc_extended(cxt, MaxAllocHugeSize - 7, MCXT_ALLOC_HUGE),
        ERRCODE_OUT_OF_MEMORY, "out of memory");
    expect_u64_ge(counting_hooks.last_refused, MaxAllocHugeSize - 7);
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false), before);
    counting_hooks.refuse_above = 0;
    tdb_mcxt_delete(cxt);
    expect_int_eq(counting_hooks.nlive, 0);
    hooks_remove();
}

TEST_BEGIN(test_largest_huge_request_fails_cleanly)
{
    for (int k = 0; k < N_MMGR_KINDS; k++)
        if (mmgr_kinds[k].any_size)
            check_largest_huge_request(&mmgr_kinds[k]);
}
TEST_END

/* Create a context of `kind` named `name` while the OS refuses memory. */
static void
create_refused(const MmgrKind *kind, const char *name)
{
    hooks_install();
    counting_hooks.refuse = true;
    expect_error(kind->create(tdb_top_mcxt, name), ERRCODE_OUT_OF_MEMORY,
                 "out of memory");
    hooks_remove();
    expect_int_eq(counting_hooks.nlive, 0);
}

TEST_BEGIN(test_refused_create_fails_cleanly)
{
    Size top_tree = tdb_mcxt_mem_allocated(tdb_top_mcxt, true);

    for (int k = 0; k < N_MMGR_KINDS; k++)
        create_refused(&mmgr_kinds[k], mmgr_kinds[k].label);
    /* nothing half-built was linked under the parent */
    expect_u64_eq(tdb_mcxt_mem_allocated(tdb_top_mcxt, true), top_tree);
}
TEST_END

TEST_BEGIN(test_refused_create_names_new_context)
{
    /* the detail should name the context being created, not its parent */
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        create_refused(&mmgr_kinds[k], "NewContext");
        expect_str_contains(tdb_test_last_error.detail, "NewContext");
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * Fault injection
 * ---------------------------------------------------------------------- */

static bool
injection_available(void)
{
    return tdb_mcxt_inject_oom_after(0);
}

static void
check_inject_nth(const MmgrKind *kind)
{
    MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
    Size size = kind_size(kind, 48);
    void *p = tdb_mcxt_alloc(cxt, size);
    MemoryContext old;

    fill_pattern(p, size, 1);
    /* exactly the third call fails, once */
    expect_true(tdb_mcxt_inject_oom_after(3));
    tdb_mcxt_alloc(cxt, size);
    tdb_mcxt_alloc_zero(cxt, size);
    expect_error(tdb_mcxt_alloc(cxt, size), ERRCODE_OUT_OF_MEMORY,
                 "out of memory");
    expect_oom_report(&tdb_test_last_error, kind->label);
    for (int i = 0; i < 10; i++)
        expect_ptr_not_null(tdb_mcxt_alloc(cxt, size));

    /* every entry point counts and honours NO_OOM */
    tdb_mcxt_inject_oom_after(1);
    expect_ptr_null(tdb_mcxt_alloc_extended(cxt, size, MCXT_ALLOC_NO_OOM));
    old = tdb_mcxt_switch_to(cxt);
    tdb_mcxt_inject_oom_after(2);
    tdb_palloc(size);
    expect_error(tdb_palloc0(size), ERRCODE_OUT_OF_MEMORY, "out of memory");
    tdb_mcxt_inject_oom_after(1);
    expect_ptr_null(tdb_palloc_extended(size, MCXT_ALLOC_NO_OOM));
    tdb_mcxt_switch_to(old);
    if (kind->can_free) {
        tdb_mcxt_inject_oom_after(1);
        expect_error(tdb_repalloc(p, size), ERRCODE_OUT_OF_MEMORY,
                     "out of memory");
        tdb_mcxt_inject_oom_after(1);
        expect_ptr_null(tdb_repalloc_extended(p, size, MCXT_ALLOC_NO_OOM));
        expect_pattern(p, size, 1);
    }

    /* n = 0 disarms a pending injection */
    tdb_mcxt_inject_oom_after(2);
    tdb_mcxt_inject_oom_after(0);
    for (int i = 0; i < 10; i++)
        expect_ptr_not_null(tdb_mcxt_alloc(cxt, size));
    expect_pattern(p, size, 1);
    tdb_mcxt_delete(cxt);
}

TEST_BEGIN(test_inject_oom_after_nth_call)
{
    if (!injection_available())
        test_skip("fault injection needs a TDB_DEBUG build");
    for (int k = 0; k < N_MMGR_KINDS; k++)
        check_inject_nth(&mmgr_kinds[k]);
}
TEST_END

/* The "statement": a fixed sequence of allocation calls in cxt. */
#define WORKLOAD_CALLS_FREE 9 /* kinds with pfree/repalloc */
#define WORKLOAD_CALLS_BUMP 6

static void
workload(const MmgrKind *kind, MemoryContext cxt)
{
    Size s = kind_size(kind, 100);
    Size big = kind_size(kind, 200000);
    MemoryContext old;
    char *a, *b;

    a = tdb_mcxt_alloc(cxt, s); /* 1 */
    fill_pattern(a, s, 1);
    b = tdb_mcxt_alloc_zero(cxt, big);                /* 2 */
    tdb_mcxt_alloc_extended(cxt, s, MCXT_ALLOC_ZERO); /* 3 */
    old = tdb_mcxt_switch_to(cxt);
    tdb_palloc(s);    /* 4 */
    tdb_palloc0(big); /* 5 */
    tdb_mcxt_switch_to(old);
    tdb_mcxt_alloc(cxt, s); /* 6 */
    if (kind->can_free) {
        a = tdb_repalloc(a, kind_size(kind, 5000)); /* 7 */
        expect_pattern(a, s, 1);
        tdb_pfree(b);
        b = tdb_mcxt_alloc(cxt, s); /* 8 */
        b = tdb_repalloc(b, s);     /* 9 */
        tdb_pfree(b);
    }
}

/* Run the workload with the n-th call failing; returns whether it failed. */
static bool
run_with_injection(const MmgrKind *kind, uint64 n)
{
    MemoryContext cxt = kind->create(tdb_top_mcxt, "statement");
    volatile bool failed = false;
    Outcome out;
    volatile int problems = -1;

    tdb_mcxt_inject_oom_after(n);
    TDB_TRY();
    {
        workload(kind, cxt);
    }
    TDB_CATCH();
    {
        failed = true;
        expect_oom_report(tdb_error_current(), "statement");
        tdb_error_flush();
    }
    TDB_END_TRY();
    tdb_mcxt_inject_oom_after(0);
    /* success or a clean error: the context is consistent and usable */
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, false),
                  counting_hooks.live_bytes);
    run_capturing(&out, problems = tdb_mcxt_check(cxt));
    expect_silent(&out);
    expect_int_eq(problems, 0);
    tdb_mcxt_alloc(cxt, kind_size(kind, 10));
    tdb_mcxt_delete(cxt);
    /* and nothing leaked */
    expect_int_eq(counting_hooks.nlive, 0);
    return failed;
}

static void
injection_loop(const MmgrKind *kind)
{
    int expected_calls =
        kind->can_free ? WORKLOAD_CALLS_FREE : WORKLOAD_CALLS_BUMP;
    uint64 n;

    hooks_install();
    for (n = 1; n <= 100; n++)
        if (!run_with_injection(kind, n))
            break;
    hooks_remove();
    /* every allocation call failed once, then the workload succeeded */
    expect_u64_eq(n, (uint64)expected_calls + 1);
}

TEST_BEGIN(test_inject_oom_rerun_until_success)
{
    if (!injection_available())
        test_skip("fault injection needs a TDB_DEBUG build");
    for (int k = 0; k < N_MMGR_KINDS; k++)
        injection_loop(&mmgr_kinds[k]);
}
TEST_END

TEST_BEGIN(test_inject_unavailable_in_release)
{
    /* the documented return value: availability == debug build */
    expect_true(tdb_mcxt_inject_oom_after(0) == config_debug);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "mmgr_oom",
                     TEST_CASE(test_refused_blocks_raise_out_of_memory),
                     TEST_CASE(test_refused_realloc_keeps_old_chunk),
                     TEST_CASE(test_largest_huge_request_fails_cleanly),
                     TEST_CASE(test_refused_create_fails_cleanly),
                     TEST_CASE(test_refused_create_names_new_context),
                     TEST_CASE(test_inject_oom_after_nth_call),
                     TEST_CASE(test_inject_oom_rerun_until_success),
                     TEST_CASE(test_inject_unavailable_in_release));
}
