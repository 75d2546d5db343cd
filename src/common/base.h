/*
 * base.h -- the first include of every tupledb source file.
 *
 * Fixed-width integer names, Size, Assert and the assertion/checking build
 * switches, branch hints, attribute macros and alignment arithmetic.  Nothing
 * here allocates or has link-level symbols, so every layer (mmgr included)
 * may use it.
 *
 * Build switches (set by the Makefile, never by hand in source):
 *   TDB_DEBUG                 assertion build: Assert() active, extra checks.
 *   MEMORY_CONTEXT_CHECKING   memory-context checking (implied by TDB_DEBUG):
 *                             16-byte chunk headers holding the requested size,
 *                             sentinels, wiping, double-free detection.
 * Debug-only code is written as `if (config_debug) { ... }` so that release
 * builds still compile (and type-check) it; the optimizer removes it.
 */
#ifndef TDB_COMMON_BASE_H
#define TDB_COMMON_BASE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if !defined(__x86_64__) && !defined(__aarch64__)
#error "tupledb supports 64-bit little-endian platforms only (x86_64, aarch64)"
#endif
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "tupledb's on-disk format is little-endian only"
#endif

typedef int8_t int8;
typedef int16_t int16;
typedef int32_t int32;
typedef int64_t int64;
typedef uint8_t uint8;
typedef uint16_t uint16;
typedef uint32_t uint32;
typedef uint64_t uint64;
typedef size_t Size;

/* Object identifiers, as in PostgreSQL's catalogs (type OIDs, relations). */
typedef uint32 Oid;
#define InvalidOid ((Oid)0)

/* Unaligned "bits" arrays, e.g. a tuple's null bitmap. */
typedef uint8 bits8;

_Static_assert(sizeof(void *) == 8, "64-bit pointers required");
_Static_assert(sizeof(Size) == 8, "64-bit size_t required");

#if defined(TDB_DEBUG) && !defined(MEMORY_CONTEXT_CHECKING)
#define MEMORY_CONTEXT_CHECKING 1
#endif

#ifdef TDB_DEBUG
static const bool config_debug = true;
#else
static const bool config_debug = false;
#endif

#ifdef MEMORY_CONTEXT_CHECKING
static const bool config_mcxt_checking = true;
#else
static const bool config_mcxt_checking = false;
#endif

/* ----- compiler attributes ----- */
/* Larger / smaller of two values (arguments evaluated twice). */
#define Max(x, y) ((x) > (y) ? (x) : (y))
#define Min(x, y) ((x) < (y) ? (x) : (y))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define TDB_NORETURN __attribute__((noreturn))
#define TDB_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define TDB_FALLTHROUGH __attribute__((fallthrough))
#define TDB_UNUSED __attribute__((unused))
#define TDB_NOINLINE __attribute__((noinline))
#define TDB_ALWAYS_INLINE inline __attribute__((always_inline))
#define TDB_COLD __attribute__((cold))
#define lengthof(array) (sizeof(array) / sizeof((array)[0]))
#define FLEXIBLE_ARRAY_MEMBER /* empty: C99 flexible array member */

/* ----- assertions ----- */
TDB_NORETURN void tdb_assert_failed(const char *cond, const char *file,
                                    int line);

/*
 * Assert(cond): an invariant, checked only in TDB_DEBUG builds.  The
 * condition must have no side effects; in release builds it is still
 * compiled (so it cannot rot) but never evaluated.
 */
#define Assert(cond)                                                        \
    do {                                                                    \
        if (config_debug && !(cond))                                        \
            tdb_assert_failed(#cond, __FILE__, __LINE__);                   \
    } while (0)

/* ----- alignment ----- */
#define MAXIMUM_ALIGNOF 8
#define TYPEALIGN(alignval, len)                                            \
    (((uintptr_t)(len) + ((alignval) - 1)) & ~((uintptr_t)((alignval) - 1)))
#define TYPEALIGN_DOWN(alignval, len)                                       \
    (((uintptr_t)(len)) & ~((uintptr_t)((alignval) - 1)))
#define SHORTALIGN(len) TYPEALIGN(2, (len))
#define INTALIGN(len) TYPEALIGN(4, (len))
#define LONGALIGN(len) TYPEALIGN(8, (len))
#define DOUBLEALIGN(len) TYPEALIGN(8, (len))
#define MAXALIGN(len) TYPEALIGN(MAXIMUM_ALIGNOF, (len))
#define MAXALIGN_DOWN(len) TYPEALIGN_DOWN(MAXIMUM_ALIGNOF, (len))
#define PointerIsAligned(p, type) (((uintptr_t)(p) % _Alignof(type)) == 0)

/* ----- bit helpers ----- */

/* Position (0-based) of the most significant set bit; word must be != 0. */
static inline int
tdb_leftmost_one_pos64(uint64 word)
{
    return 63 - __builtin_clzll(word);
}

/* Smallest power of two >= num; num must be in 1 .. 2^63. */
static inline uint64
tdb_next_power_of_2_64(uint64 num)
{
    return num <= 1 ? 1 : (uint64)1 << (tdb_leftmost_one_pos64(num - 1) + 1);
}

#endif /* TDB_COMMON_BASE_H */
