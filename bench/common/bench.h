/*
 * bench.h -- what every benchmark under bench/ needs: a clock, fixed-seed
 * pseudo-random numbers, a compiler barrier and a fatal-error exit.
 *
 * Header-only: every helper is static inline, so including it defines no
 * link-level symbol and each benchmark's timed loops compile exactly as if
 * the helper were written in place (the helpers used inside a timed loop
 * are always-inline).  The benchmarks' own record formats, statistics and
 * reports stay in bench/<name>/; what is shared by the run.sh and
 * profile.sh scripts is in bench/common/lib.sh.
 *
 *   tdb_bench_now_ns        CLOCK_MONOTONIC in nanoseconds
 *   tdb_bench_splitmix64    next word of a splitmix64 sequence (set-up data)
 *   tdb_bench_xorshift64    next word of a xorshift64 sequence (cheap enough
 *                           to run inside a timed loop)
 *   tdb_bench_escape        compiler barrier: a pointer escapes, memory may
 *                           be read
 *   tdb_bench_die           "<program>: <message>" on stderr, exit status 2
 *
 * Exit status 2 is the benchmarks' "setup is broken" status (bench/README.md):
 * a bad option, a failed allocation, or a disagreement between tupledb and
 * the reference it is compared with.  A figure is never a reason to fail.
 */
#ifndef TDB_BENCH_COMMON_BENCH_H
#define TDB_BENCH_COMMON_BENCH_H

#include <err.h>
#include <stdarg.h>
#include <time.h>

#include "common/base.h"

/* The current CLOCK_MONOTONIC time in nanoseconds. */
static inline uint64
tdb_bench_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64)ts.tv_sec * UINT64_C(1000000000) + (uint64)ts.tv_nsec;
}

/*
 * Advance *state and return the next splitmix64 word.  Statistically good
 * and never zero-locked, so any seed works; used to build the benchmarks'
 * data from a fixed seed, so every variant and every run sees the same.
 */
static inline uint64
tdb_bench_splitmix64(uint64 *state)
{
    uint64 z = (*state += UINT64_C(0x9E3779B97F4A7C15));

    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/*
 * Advance *state (which must not be 0) and return it: Marsaglia's
 * xorshift64, three shifts and three xors, cheap enough to draw a random
 * number per operation inside a timed loop without dominating it.  Keep
 * *state in a local variable of the loop so that it stays in a register.
 */
static TDB_ALWAYS_INLINE uint64
tdb_bench_xorshift64(uint64 *state)
{
    uint64 x = *state;

    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}

/*
 * Tell the compiler that p escapes and that memory may be read here.
 * Without it GCC may delete stores to a chunk that is freed unread, and
 * then drop the whole malloc/free pair.  Emits no instruction.
 */
static TDB_ALWAYS_INLINE void
tdb_bench_escape(const void *p)
{
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/*
 * Print "<program>: <message>\n" on stderr and exit with status 2.  The
 * program name is the last component of argv[0] (glibc's
 * program_invocation_short_name, through verrx), so that a benchmark's
 * messages need no set-up.
 */
static inline TDB_NORETURN TDB_PRINTF(1, 2) void tdb_bench_die(const char *fmt,
                                                               ...)
{
    va_list ap;

    va_start(ap, fmt);
    verrx(2, fmt, ap);
}

#endif /* TDB_BENCH_COMMON_BENCH_H */
