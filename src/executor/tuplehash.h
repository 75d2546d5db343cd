/*
 * tuplehash.h -- the compact tuple hash table behind every hashed operation
 * (hash aggregation, hashed DISTINCT and set operations, hashed subplans).
 *
 * A table maps a grouping key (a few columns, each a Datum + isnull) to one
 * group: the key, stored in a compact encoding, and `state_size` bytes of
 * per-group state (aggregate transition values, set-operation counters),
 * both in one headerless allocation of a group arena.  The caller computes
 * the key's 32-bit hash (the table never hashes); equal keys must hash
 * equally.  Layout, formats and the reasons for them: tuplehash.c.
 *
 * Usage:
 *
 *     TupleHashKeyColumn cols[1] = {{.typlen = 4, .typbyval = true,
 *                                    .typalign = 4}};
 *     TupleHashTable *t = tdb_tuplehash_create(cols, 1, 16, 0, cxt);
 *     bool is_new;
 *     MyState *st = tdb_tuplehash_lookup_or_insert(t, values, isnull,
 *                                                  hash, &is_new);
 *     ... (st is zeroed when is_new)
 *     TupleHashIterator it;
 *     tdb_tuplehash_iter_start(t, &it);
 *     while ((st = tdb_tuplehash_iter_next(t, &it)) != NULL)
 *         tdb_tuplehash_group_key(t, st, values, isnull);
 *
 * Memory: everything the table holds lives in one context it creates below
 * the caller's (an AllocSet for the table, its buckets and scratch space,
 * with a Bump child for the group arena); tdb_tuplehash_mem_allocated() is
 * exactly what those contexts hold, and deleting the caller's context frees
 * it all.  Errors: out of memory (53200) and more groups than the table can
 * address (54000) raise an ERROR.
 */
#ifndef TDB_EXECUTOR_TUPLEHASH_H
#define TDB_EXECUTOR_TUPLEHASH_H

#include "common/base.h"
#include "mmgr/mcxt.h"
#include "tuple/datum.h"

/*
 * Equality of two non-NULL values of one key column, for types whose
 * equality is not "same bytes" (numeric: 1.0 = 1.00; float8: -0 = 0; a
 * non-deterministic collation).  `arg` is TupleHashKeyColumn.equal_arg.
 * Must not raise for valid values.
 */
typedef bool (*TupleHashEqualFn)(Datum a, Datum b, void *arg);

/* One column of the grouping key. */
typedef struct TupleHashKeyColumn {
    int16 typlen;           /* > 0 fixed width, -1 varlena (no cstring) */
    bool typbyval;          /* passed by value (typlen 1, 2, 4 or 8) */
    uint8 typalign;         /* alignment in bytes: 1, 2, 4 or 8 */
    TupleHashEqualFn equal; /* NULL: values are equal iff their bytes are
                             * (ints, date, bool, text in a deterministic
                             * collation, ...) */
    void *equal_arg;        /* passed to equal */
    bool not_null;          /* never NULL: lets a bare key drop its null
                             * bitmap (a NULL then raises an ERROR) */
} TupleHashKeyColumn;

typedef struct TupleHashTable TupleHashTable;

/* Iteration position; plain data, owned by the caller. */
typedef struct TupleHashIterator {
    uint32 chunk;  /* arena chunk being walked */
    uint64 offset; /* the next group's offset in it */
} TupleHashIterator;

/*
 * Create a table in a new context below `parent`.  cols[0..ncols-1]
 * describe the key (copied); ncols may be 0 (one group for everything).
 * Values passed for varlena columns must be detoasted (not external, not
 * compressed); short or 4-byte headers are both fine.  state_size: bytes
 * of per-group state (zeroed for a new group, MAXALIGNed).  nbuckets_hint:
 * expected number of groups (0 if unknown).  Returns the table, owned by
 * the new context (freed with `parent`, or by tdb_tuplehash_destroy).
 */
TupleHashTable *tdb_tuplehash_create(const TupleHashKeyColumn *cols, int ncols,
                                     Size state_size, Size nbuckets_hint,
                                     MemoryContext parent);

/* Free the table and everything it holds. */
void tdb_tuplehash_destroy(TupleHashTable *table);

/*
 * Find the group of the key (values/isnull: ncols entries; isnull may be
 * NULL when no column is NULL), creating it when absent.  hash: the key's
 * hash.  *is_new (out) tells whether the group was created.  Returns the
 * group's state (state_size bytes, MAXALIGNed, zeroed when new), valid
 * until tdb_tuplehash_reset or destroy.  Invalidates running iterations
 * when it creates a group.
 */
void *tdb_tuplehash_lookup_or_insert(TupleHashTable *table, const Datum *values,
                                     const bool *isnull, uint32 hash,
                                     bool *is_new);

/* The same without inserting: the group's state, or NULL if absent. */
void *tdb_tuplehash_lookup(TupleHashTable *table, const Datum *values,
                           const bool *isnull, uint32 hash);

/*
 * The key of the group whose state is `state` (a pointer the table
 * returned): values/isnull (out, ncols each).  By-reference values point
 * into the group (valid as long as the group); varlena values may carry a
 * short (1-byte) header, as in a heap tuple.
 */
void tdb_tuplehash_group_key(TupleHashTable *table, const void *state,
                             Datum *values, bool *isnull);

/* Iterate over every group once, in the order they were created (no
 * inserts meanwhile). */
void tdb_tuplehash_iter_start(TupleHashTable *table, TupleHashIterator *it);
/* The next group's state, or NULL at the end. */
void *tdb_tuplehash_iter_next(TupleHashTable *table, TupleHashIterator *it);

/* Drop every group, keeping the table usable (memory back to the start). */
void tdb_tuplehash_reset(TupleHashTable *table);

/* Number of groups. */
uint64 tdb_tuplehash_ngroups(const TupleHashTable *table);
/* Number of buckets (a power of two). */
uint64 tdb_tuplehash_nbuckets(const TupleHashTable *table);
/* Bytes of the table's contexts (buckets, arena, table): exact. */
Size tdb_tuplehash_mem_allocated(const TupleHashTable *table);
/*
 * Cap the size of the group arena's chunks (rounded down to a power of
 * two, 8 kB to 8 MB): a table kept under a memory limit then overshoots
 * it by at most one chunk.  Past 1023 chunks they grow again regardless,
 * so the table can still address its full size.
 */
void tdb_tuplehash_set_max_chunk_size(TupleHashTable *table, Size size);
/*
 * Bytes the next new group would add to the bucket array: the doubled
 * array (the old one is freed after the copy), or 0 if it fits.  Lets a
 * caller with a memory limit stop before a growth would pass it.
 */
Size tdb_tuplehash_grow_bytes(const TupleHashTable *table);
/*
 * A counter that changes whenever the table allocates memory (an arena
 * chunk, a bucket array): tdb_tuplehash_mem_allocated() can only have
 * changed if it did -- a cheap test for a caller checking a limit per
 * new group.
 */
uint64 tdb_tuplehash_alloc_events(const TupleHashTable *table);
/* Bytes of the arena actually holding groups (keys + states). */
Size tdb_tuplehash_group_bytes(const TupleHashTable *table);
/* Whether the key uses the bare fixed-width format (see tuplehash.c). */
bool tdb_tuplehash_key_is_bare(const TupleHashTable *table);

#endif /* TDB_EXECUTOR_TUPLEHASH_H */
