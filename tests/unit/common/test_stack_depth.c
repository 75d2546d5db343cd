/*
 * test_stack_depth.c -- unit tests for the recursion limit
 * (common/stack_depth.c).
 *
 * Covers: no check without a base; 54001 with PostgreSQL's message and
 * HINT once a recursion passes max_stack_depth, close to the limit and
 * not before; nested enters keep the base and leave restores the limit;
 * a SET while running; a thread whose stack is smaller than the setting
 * (the limit is clamped, so a runaway recursion still ends in 54001, not
 * a crash) and the most max_stack_depth may be there; tdb_stack_room;
 * tdb_stack_run giving a recursion far more stack than the thread has;
 * the stack size for statement threads from the rlimit.
 */
#include "common/base.h"

#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>

#include "common/elog.h"
#include "common/stack_depth.h"
#include "mmgr/mcxt.h"
#include "test.h"

/* ----- a recursion of known frames ----- */

#define FRAME 1024

static intptr_t deepest; /* lowest frame address reached */

/* Recurse n levels of at least FRAME bytes each, checking at every one;
 * 0 unless a frame was overwritten. */
static TDB_NOINLINE int
recurse(int n)
{
    volatile char pad[FRAME];
    intptr_t here = (intptr_t)__builtin_frame_address(0);

    tdb_check_stack_depth();
    pad[0] = (char)n;
    if (deepest == 0 || here < deepest)
        deepest = here;
    if (n <= 0)
        return 0;
    return recurse(n - 1) + (pad[0] != (char)n);
}

/* Recurse n levels with no check (for tdb_stack_run). */
static TDB_NOINLINE int
recurse_unchecked(int n)
{
    volatile char pad[FRAME];

    pad[0] = (char)n;
    if (n <= 0)
        return 0;
    return recurse_unchecked(n - 1) + (pad[0] != (char)n);
}

/* Run recurse(n) under enter(max_kb); true if it raised 54001. */
static bool
recursion_fails(int max_kb, int n, intptr_t *used)
{
    StackDepthSave save;
    volatile bool failed = false;

    deepest = 0;
    tdb_stack_depth_enter(&save, max_kb);
    TDB_TRY();
    {
        (void)recurse(n);
    }
    TDB_CATCH();
    {
        const ErrorData *e = tdb_error_current();

        failed = e->sqlerrcode == ERRCODE_STATEMENT_TOO_COMPLEX;
        tdb_test_last_error = *e;
        tdb_error_flush();
    }
    TDB_END_TRY();
    if (used != NULL)
        *used = tdb_stack_base - deepest;
    tdb_stack_depth_leave(&save);
    return failed;
}

/* ----- the check ----- */

TEST_BEGIN(test_no_base_never_fires)
{
    expect_int_eq(tdb_stack_base, 0);
    /* 1 MB of recursion, no limit set: no error */
    expect_int_eq(recurse(1000), 0);
    expect_false(tdb_stack_is_too_deep());
}
TEST_END

TEST_BEGIN(test_limit_raises_54001)
{
    intptr_t used = 0;

    expect_true(recursion_fails(100, 100000, &used));
    expect_str_eq(tdb_test_last_error.message, "stack depth limit exceeded");
    expect_str_eq(tdb_test_last_error.hint,
                  "Increase the configuration parameter \"max_stack_depth\" "
                  "(currently 100kB), after ensuring the platform's stack "
                  "depth limit is adequate.");
    /* it went up to the limit, and not a frame more */
    expect_int_ge(used, 100 * 1024 - 2 * FRAME);
    expect_int_le(used, 100 * 1024 + 2 * FRAME);
    /* below the limit: no error */
    expect_false(recursion_fails(2048, 1000, NULL));
    /* the state is gone after leave */
    expect_int_eq(tdb_stack_base, 0);
}
TEST_END

TEST_BEGIN(test_nested_enter_keeps_base)
{
    StackDepthSave outer, inner;
    intptr_t base;

    tdb_stack_depth_enter(&outer, 2048);
    base = tdb_stack_base;
    expect_int_ne(base, 0);
    expect_int_eq(tdb_stack_limit, 2048 * 1024);
    tdb_stack_depth_enter(&inner, 100);
    expect_int_eq(tdb_stack_base, base);
    expect_int_eq(tdb_stack_limit, 100 * 1024);
    tdb_stack_depth_leave(&inner);
    expect_int_eq(tdb_stack_base, base);
    expect_int_eq(tdb_stack_limit, 2048 * 1024);
    tdb_stack_depth_leave(&outer);
    expect_int_eq(tdb_stack_base, 0);
}
TEST_END

TEST_BEGIN(test_set_while_running)
{
    StackDepthSave save;
    volatile bool failed = false;

    tdb_stack_depth_enter(&save, 2048);
    tdb_stack_depth_set(200);
    expect_int_eq(tdb_stack_limit, 200 * 1024);
    expect_u64_eq(tdb_stack_depth_limit(), 200 * 1024);
    TDB_TRY();
    {
        (void)recurse(1000); /* 1 MB: more than 200kB */
    }
    TDB_CATCH();
    {
        failed =
            tdb_error_current()->sqlerrcode == ERRCODE_STATEMENT_TOO_COMPLEX;
        tdb_test_last_error = *tdb_error_current();
        tdb_error_flush();
    }
    TDB_END_TRY();
    expect_true(failed);
    expect_str_contains(tdb_test_last_error.hint, "(currently 200kB)");
    tdb_stack_depth_leave(&save);
    /* without a running entry, SET changes nothing */
    tdb_stack_depth_set(100);
    expect_int_eq(tdb_stack_base, 0);
}
TEST_END

/* ----- threads with small and large stacks ----- */

typedef struct SmallThread {
    int max_kb;
    bool failed;
    intptr_t used;
    Size room;
} SmallThread;

static void *
small_thread_main(void *arg)
{
    SmallThread *t = arg;

    tdb_mcxt_thread_init();
    t->max_kb = tdb_stack_depth_max_kb();
    t->room = tdb_stack_room();
    /* max_stack_depth 2MB on a 1 MB stack: the limit is what there is,
     * less the slop, so the recursion ends in 54001, not SIGSEGV */
    t->failed = recursion_fails(2048, 100000, &t->used);
    return NULL;
}

TEST_BEGIN(test_small_thread_clamps_limit)
{
    pthread_attr_t attr;
    pthread_t thread;
    SmallThread t = {0};

    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1024 * 1024);
    expect_int_eq(pthread_create(&thread, &attr, small_thread_main, &t), 0);
    pthread_join(thread, NULL);
    pthread_attr_destroy(&attr);
    /* a small stack keeps a quarter of itself free, not 512kB */
    expect_int_eq(t.max_kb, 768);
    expect_true(t.failed);
    expect_int_le(t.used, 768 * 1024);
    expect_int_gt(t.used, 700 * 1024);
    expect_u64_le(t.room, 768 * 1024);
    expect_u64_gt(t.room, 700 * 1024);
}
TEST_END

/* tdb_stack_room under a 64 kB frame */
static TDB_NOINLINE Size
room_below_64k(void)
{
    volatile char pad[64 * 1024];

    pad[0] = 1;
    return tdb_stack_room() + (Size)(pad[0] - 1);
}

TEST_BEGIN(test_room_shrinks_with_depth)
{
    Size outer = tdb_stack_room();
    Size inner = room_below_64k();

    expect_u64_gt(outer, 0);
    expect_u64_le(inner + 64 * 1024, outer);
    /* the main thread: the rlimit less the slop, less what is used */
    expect_u64_gt(outer, (Size)4 * 1024 * 1024);
}
TEST_END

typedef struct DeepRun {
    int levels;
    int result;
    Size room;
} DeepRun;

static void
deep_run(void *arg)
{
    DeepRun *run = arg;

    run->room = tdb_stack_room();
    run->result = recurse_unchecked(run->levels);
}

TEST_BEGIN(test_stack_run_gives_a_deep_stack)
{
    /* 40 MB of recursion: five times the thread's own stack */
    DeepRun run = {40 * 1024, -1, 0};

    expect_int_eq(tdb_stack_run((Size)64 * 1024 * 1024, deep_run, &run), 0);
    expect_int_eq(run.result, 0);
    expect_u64_gt(run.room, (Size)60 * 1024 * 1024);
    expect_u64_le(run.room, (Size)64 * 1024 * 1024);
}
TEST_END

TEST_BEGIN(test_thread_stack_size_from_rlimit)
{
    struct rlimit saved, rl;

    expect_int_eq(getrlimit(RLIMIT_STACK, &saved), 0);
    rl = saved;
    rl.rlim_cur = 4 * 1024 * 1024;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < rl.rlim_cur)
        test_skip("the stack rlimit's hard limit is below 4MB");
    expect_int_eq(setrlimit(RLIMIT_STACK, &rl), 0);
    /* at least 8MB, so the default 2MB has its headroom */
    expect_u64_eq(tdb_stack_size_for_threads(), (Size)8 * 1024 * 1024);
    rl.rlim_cur = 16 * 1024 * 1024;
    if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= rl.rlim_cur) {
        expect_int_eq(setrlimit(RLIMIT_STACK, &rl), 0);
        expect_u64_eq(tdb_stack_size_for_threads(), (Size)16 * 1024 * 1024);
    }
    if (rl.rlim_max == RLIM_INFINITY) {
        rl.rlim_cur = RLIM_INFINITY;
        expect_int_eq(setrlimit(RLIMIT_STACK, &rl), 0);
        expect_u64_eq(tdb_stack_size_for_threads(), (Size)64 * 1024 * 1024);
    }
    expect_int_eq(setrlimit(RLIMIT_STACK, &saved), 0);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "common_stack_depth",
                     TEST_CASE(test_no_base_never_fires),
                     TEST_CASE(test_limit_raises_54001),
                     TEST_CASE(test_nested_enter_keeps_base),
                     TEST_CASE(test_set_while_running),
                     TEST_CASE(test_small_thread_clamps_limit),
                     TEST_CASE(test_room_shrinks_with_depth),
                     TEST_CASE(test_stack_run_gives_a_deep_stack),
                     TEST_CASE(test_thread_stack_size_from_rlimit));
}
