/*
 * sortkey.h -- the first sort key as an unsigned 64-bit number, and the
 * in-memory sort of (key, tuple) entries that uses it (sortkey.c).
 *
 * A sort compares its first key a great many times; tuplesort.c stores
 * it next to each tuple's reference in a 16-byte SortEntry.  When the
 * key's type has a *normalizer* -- a function from a value to a uint64
 * whose unsigned order agrees with the type's comparison -- entries are
 * ordered by that number alone, with no call: by a radix sort when there
 * are many, by an inlined comparison sort when few.
 *
 *   exact normalizer   norm(a) == norm(b)  <=>  cmp(a, b) == 0, so equal
 *                      numbers are equal values (int2/4/8, oid, date,
 *                      timestamp[tz], time, float4/8, bool, "char").
 *   abbreviating one   a < b => norm(a) <= norm(b) only: equal numbers
 *                      prove nothing (PostgreSQL's abbreviated keys: text,
 *                      varchar, bpchar, name, bytea, uuid, numeric); the
 *                      caller's tie function decides, from the tuples.
 *
 * Entries with equal keys are passed to the tie function, which orders
 * them by the authoritative comparison (an abbreviated first key, then
 * the other keys).  Sorting is in place and not stable (as PostgreSQL's).
 */
#ifndef TDB_EXECUTOR_SORTKEY_H
#define TDB_EXECUTOR_SORTKEY_H

#include "common/base.h"
#include "tuple/datum.h"

/* One sorted item: 16 bytes, no padding. */
typedef struct SortEntry {
    uint64 key;     /* the normalized first key, or the raw Datum when
                     * the key has no normalizer */
    uintptr_t ref;  /* the tuple (8-byte aligned) | SORT_ENTRY_NULL */
} SortEntry;

/* ref's low bit: the first key is NULL (key then holds 0). */
#define SORT_ENTRY_NULL ((uintptr_t)1)
#define SORT_ENTRY_TUPLE(e) ((void *)((e)->ref & ~(uintptr_t)7))

/* Order of two entries: < 0, 0, > 0. */
typedef int (*SortEntryCmp)(const SortEntry *a, const SortEntry *b,
                            void *arg);

/* A value -> its order-preserving uint64 (see above). */
typedef uint64 (*SortKeyNormalizer)(Datum value);

/*
 * The normalizer for values of type typid (compared by its btree
 * comparison, C collation for text), or NULL when the type has none;
 * *exact tells which kind it is.
 */
SortKeyNormalizer tdb_sortkey_normalizer(Oid typid, bool *exact);

/*
 * Sort e[0..n) by key, unsigned ascending; runs of equal keys are
 * ordered by tie (NULL: left as they are -- the keys were exact and the
 * only key).  Radix sort (most significant byte first, in place) for
 * large n, inlined comparison sort for small partitions.  No allocation
 * beyond O(log n) stack; tie may raise (the array is then in some order).
 */
void tdb_sort_entries_by_key(SortEntry *e, size_t n, SortEntryCmp tie,
                             void *arg);

/*
 * Sort e[0..n) by cmp alone (a first key with no normalizer).  Not
 * stable, O(n log n) worst case, no allocation beyond O(log n) stack.
 */
void tdb_sort_entries_by_cmp(SortEntry *e, size_t n, SortEntryCmp cmp,
                             void *arg);

#endif /* TDB_EXECUTOR_SORTKEY_H */
