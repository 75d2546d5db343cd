/*
 * stack_depth.c -- the recursion limit of a thread and stacks to run on
 * (stack_depth.h).
 *
 * A thread's stack bounds come from pthread_getattr_np, once per thread:
 * for a thread we made, the size we gave it; for the process's main
 * thread, glibc's answer from the stack rlimit and the memory map (which
 * is why it is cached: it reads /proc/self/maps).  PostgreSQL compares
 * max_stack_depth with the stack rlimit; a thread has its own size, and
 * that is what tupledb compares with.
 *
 * tdb_stack_run's stacks are mapped with MAP_NORESERVE, outside the
 * memory contexts (DESIGN.md's documented exceptions to "no malloc"):
 * the memory is address space until touched, so a parse that may need a
 * deep stack costs what it really uses, and it is unmapped on return.
 */
#include "common/base.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/elog.h"
#include "common/stack_depth.h"

_Thread_local intptr_t tdb_stack_base = 0;
_Thread_local intptr_t tdb_stack_limit = 0;

/* max_stack_depth as set, in kB, for the HINT */
static _Thread_local int limit_kb = STACK_DEPTH_DEFAULT_KB;

/* the thread's stack: its lowest usable address and its size (0 until
 * looked up) */
static _Thread_local uintptr_t stack_lo = 0;
static _Thread_local Size thread_stack_size = 0;

#define MB ((Size)1024 * 1024)

void
tdb_stack_depth_error(void)
{
    ereport(ERROR, errcode(ERRCODE_STATEMENT_TOO_COMPLEX),
            errmsg("stack depth limit exceeded"),
            errhint("Increase the configuration parameter \"max_stack_depth\" "
                    "(currently %dkB), after ensuring the platform's stack "
                    "depth limit is adequate.",
                    limit_kb));
}

/*
 * Look the thread's stack up (once per thread): the lowest address it may
 * use, and its size as PostgreSQL counts it -- the stack rlimit for the
 * main thread; for other threads the size they were made with (glibc puts
 * the guard page below it).
 */
static void
find_stack(void)
{
    pthread_attr_t attr;
    struct rlimit rl;
    void *addr;
    size_t size;
    uintptr_t top = 0;

    if (stack_lo != 0)
        return;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
            top = (uintptr_t)addr + size;
            stack_lo = (uintptr_t)addr;
            thread_stack_size = size;
        }
        pthread_attr_destroy(&attr);
    }
    if (top == 0) /* cannot happen with glibc: assume 8MB from here */
        top = (uintptr_t)__builtin_frame_address(0);
    if (getpid() == gettid() || stack_lo == 0) {
        thread_stack_size = 8 * MB;
        if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
            thread_stack_size = (Size)rl.rlim_cur;
        else if (stack_lo != 0)
            thread_stack_size = top - stack_lo;
        thread_stack_size = Min(thread_stack_size, top - 1);
        stack_lo = top - thread_stack_size;
    }
}

/* The slop of this thread's stack (stack_depth.h). */
static Size
slop(void)
{
    find_stack();
    if (thread_stack_size >= 4 * STACK_DEPTH_SLOP)
        return STACK_DEPTH_SLOP;
    return Max(thread_stack_size / 4, STACK_DEPTH_SLOP_MIN);
}

/* The limit for max_kb on this thread, from the current base. */
static void
set_limit(int max_kb)
{
    intptr_t room;
    intptr_t limit = (intptr_t)max_kb * 1024;

    room = tdb_stack_base - (intptr_t)stack_lo - (intptr_t)slop();
    tdb_stack_limit = Max(Min(limit, room), 0);
    limit_kb = max_kb;
}

void
tdb_stack_depth_enter(StackDepthSave *save, int max_kb)
{
    save->base = tdb_stack_base;
    save->limit = tdb_stack_limit;
    save->limit_kb = limit_kb;
    if (tdb_stack_base == 0)
        tdb_stack_base = (intptr_t)__builtin_frame_address(0);
    set_limit(max_kb);
}

void
tdb_stack_depth_leave(const StackDepthSave *save)
{
    tdb_stack_base = save->base;
    tdb_stack_limit = save->limit;
    limit_kb = save->limit_kb;
}

void
tdb_stack_depth_set(int max_kb)
{
    if (tdb_stack_base != 0)
        set_limit(max_kb);
}

Size
tdb_stack_depth_limit(void)
{
    return (Size)limit_kb * 1024;
}

int
tdb_stack_depth_max_kb(void)
{
    Size reserve = slop();

    if (thread_stack_size < reserve + STACK_DEPTH_MIN_KB * 1024)
        return STACK_DEPTH_MIN_KB;
    return (int)Min((thread_stack_size - reserve) / 1024, (Size)INT_MAX);
}

Size
tdb_stack_room(void)
{
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    Size reserve = slop();

    if (here < stack_lo + reserve)
        return 0;
    return here - stack_lo - reserve;
}

Size
tdb_stack_size_for_threads(void)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_STACK, &rl) != 0)
        return 8 * MB;
    if (rl.rlim_cur == RLIM_INFINITY)
        return 64 * MB;
    return Min(Max((Size)rl.rlim_cur, 8 * MB), 1024 * MB);
}

typedef struct StackRun {
    void (*fn)(void *arg);
    void *arg;
} StackRun;

static void *
stack_run_main(void *arg)
{
    StackRun *run = arg;

    run->fn(run->arg);
    return NULL;
}

int
tdb_stack_run(Size stack_size, void (*fn)(void *arg), void *arg)
{
    Size page = (Size)sysconf(_SC_PAGESIZE);
    Size size = (stack_size + page - 1) / page * page;
    StackRun run = {fn, arg};
    pthread_attr_t attr;
    pthread_t thread;
    sigset_t all, old;
    char *mem;
    int rc;

    /* a guard page below the stack: an overflow faults, never corrupts */
    mem = mmap(NULL, size + page, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (mem == MAP_FAILED)
        return errno;
    if (mprotect(mem, page, PROT_NONE) != 0) {
        rc = errno;
        munmap(mem, size + page);
        return rc;
    }
    pthread_attr_init(&attr);
    pthread_attr_setstack(&attr, mem + page, size);
    /* the helper takes no signals: they stay with the threads that
     * handle them */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&thread, &attr, stack_run_main, &run);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc == 0)
        pthread_join(thread, NULL);
    pthread_attr_destroy(&attr);
    munmap(mem, size + page);
    return rc;
}
