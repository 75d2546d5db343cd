/*
 * stack_depth.h -- how deep a thread may recurse, and stacks to recurse on.
 *
 * Parse analysis, planning, expression compilation, executor start-up and
 * deparsing all recurse as deep as the statement is nested, and a
 * statement's text decides that: `SELECT 1+1+...+1` with 10,000 terms is
 * a tree 10,000 levels deep.  As in PostgreSQL (its max_stack_depth and
 * check_stack_depth), each recursive entry compares the current stack
 * address with the address recorded when the thread started running
 * statements and raises
 *
 *     ERROR:  stack depth limit exceeded   (54001, with PostgreSQL's HINT)
 *
 * once the distance passes the limit, long before the thread's real stack
 * ends: the statement fails, the session and the server go on.
 *
 *     StackDepthSave save;
 *
 *     tdb_stack_depth_enter(&save, settings->max_stack_depth);
 *     ... run statements: every recursive function starts with
 *         tdb_check_stack_depth(); ...
 *     tdb_stack_depth_leave(&save);
 *
 * The state is thread-local.  The first enter of a thread records the
 * base; nested enters (a statement boundary inside another one) keep it.
 * The limit is max_stack_depth, but never more than the thread's stack
 * holds below the base less the slop: an embedded caller may call in
 * from a thread with a small stack, or from deep in its own recursion.
 * With no enter (unit tests calling a layer directly), the check never
 * fires.
 *
 * The check is two thread-local loads and a compare, so it belongs at the
 * entry of each recursive function, never per row.
 *
 * Some recursion is not ours: libpg_query's parse serializes its tree
 * recursively.  tdb_stack_room() says how much stack is left, and
 * tdb_stack_run() runs a function on a fresh stack of a given size when
 * the caller's is too short (parser/parser.c).
 */
#ifndef TDB_COMMON_STACK_DEPTH_H
#define TDB_COMMON_STACK_DEPTH_H

#include "common/base.h"

/*
 * The slop: what a thread may use past the limit -- the frames between
 * two checks, leaf functions that do not check (libc's formatting, a
 * regular expression's matcher, the error report itself).  PostgreSQL
 * keeps 512kB below the platform's limit, and so does tupledb on a stack
 * of 2MB or more; a smaller stack (an embedded caller's thread) keeps a
 * quarter of itself, at least 64kB, so that it can still run statements.
 */
#define STACK_DEPTH_SLOP ((Size)512 * 1024)
#define STACK_DEPTH_SLOP_MIN ((Size)64 * 1024)

/* max_stack_depth's default and minimum, in kB (PostgreSQL's). */
#define STACK_DEPTH_DEFAULT_KB 2048
#define STACK_DEPTH_MIN_KB 100

/* The thread's base address (0: no check) and limit in bytes below it. */
extern _Thread_local intptr_t tdb_stack_base;
extern _Thread_local intptr_t tdb_stack_limit;

/* Raise 54001 "stack depth limit exceeded" with PostgreSQL's HINT. */
TDB_NORETURN TDB_COLD void tdb_stack_depth_error(void);

/*
 * Has this thread gone deeper than its limit?  The signed distance is
 * negative without a base (0) and above the base, so one compare covers
 * the three cases.  The frame address, not a local's address: with
 * AddressSanitizer's fake stacks a local may live on the heap.
 */
static inline bool
tdb_stack_is_too_deep(void)
{
    intptr_t here = (intptr_t)__builtin_frame_address(0);

    return unlikely(tdb_stack_base - here > tdb_stack_limit);
}

/* The check for the entry of a recursive function. */
static inline void
tdb_check_stack_depth(void)
{
    if (tdb_stack_is_too_deep())
        tdb_stack_depth_error();
}

/* What tdb_stack_depth_enter changes, to give back at leave. */
typedef struct StackDepthSave {
    intptr_t base;
    intptr_t limit;
    int limit_kb;
} StackDepthSave;

/*
 * The calling thread starts (or, nested, goes on) running statements with
 * max_stack_depth = max_kb (kB).  *save receives what leave restores.
 */
void tdb_stack_depth_enter(StackDepthSave *save, int max_kb);
void tdb_stack_depth_leave(const StackDepthSave *save);

/* A SET of max_stack_depth while statements run: the limit from now on. */
void tdb_stack_depth_set(int max_kb);

/* max_stack_depth in force on this thread, in bytes (the default when
 * no statement runs). */
Size tdb_stack_depth_limit(void);

/*
 * The most max_stack_depth may be on this thread, in kB: its stack's size
 * less the slop (PostgreSQL's rule with the process's stack rlimit), at
 * least STACK_DEPTH_MIN_KB.
 */
int tdb_stack_depth_max_kb(void);

/*
 * Bytes of stack the caller may still use: from here to the end of the
 * thread's stack, less the slop (0 if less than that is left).
 */
Size tdb_stack_room(void);

/*
 * The stack size for a thread that runs statements (the server's
 * connection threads): the process's stack rlimit, as PostgreSQL's
 * backends get it, but at least 8 MB so that the default max_stack_depth
 * has room, and 64 MB when the rlimit is unlimited.
 */
Size tdb_stack_size_for_threads(void);

/*
 * Run fn(arg) on a new thread whose stack has stack_size bytes, and wait
 * for it.  The memory is reserved, not committed: only the pages fn
 * touches are used.  fn must not raise (there is no TDB_TRY on that
 * thread) and must not use the caller's thread-local state; the caller
 * is blocked meanwhile, so fn may use the caller's memory contexts through
 * pointers it is given.  Returns 0, or an errno value when no thread
 * could be made.
 */
int tdb_stack_run(Size stack_size, void (*fn)(void *arg), void *arg);

#endif /* TDB_COMMON_STACK_DEPTH_H */
