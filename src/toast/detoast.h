/*
 * detoast.h -- reading TOAST values back, through a per-query cache.
 *
 * Values stay toasted (an 18-byte external pointer, or compressed bytes)
 * while rows move through scans, slots, sorts and hash tables; they are
 * detoasted where something needs their bytes: the expression
 * interpreter's column and parameter reads, comparisons, hashing,
 * output.  Every one of those goes through tdb_detoast(), which asks the
 * query's DetoastEnv: a value is fetched / decompressed at most once per
 * query while it fits the cache's budget, whatever plan shape reads it
 * and however often.
 *
 * Identity.  An external value is known by its pointer (toast relation
 * OID + value id, the whole 16 bytes compared); the chunks behind a
 * pointer never change while any row pointing at them is visible, and
 * the cache lives for one query, so a hit can never hand a snapshot a
 * value it should not see.  A compressed inline value is known by its
 * compressed bytes (hash + memcmp): equal bytes decompress equally,
 * wherever the row was copied to (sort runs, hash tables, subplan
 * parameters), so no owning tuple has to stay put.
 *
 * Budget and eviction.  detoast_cache_size bounds the cache.  It is a
 * segmented LRU: a newly detoasted value goes on a small probationary
 * list (1/64 of the budget, at least 1 MB; a larger value goes straight
 * to the protected list), and moves to the protected list when it is
 * used again.  Eviction takes the probationary list's least recently
 * used value first.  So a value used again soon -- on the next row of a
 * nested loop, by the next comparison, by the other half of the same
 * expression -- is detoasted once, a value used twice stays while the
 * budget holds it, and a scan that reads each of many values once
 * cycles through 1 MB instead of the whole budget (measured: a plain LRU
 * over 64 MB made such a scan 2.4x slower than no cache; now ~7%).
 *
 * Lifetime of what tdb_detoast() returns.  A cached value is pinned to
 * the memory context current at the call: it stays valid until that
 * context is next reset or deleted -- exactly as long as if it had been
 * palloc'd there, which is what PostgreSQL's detoasting does.  Eviction
 * (LRU, over the budget) skips pinned values.  Code that detoasts in a
 * long-lived context many times (a sort comparator) uses
 * tdb_detoast_acquire / tdb_detoast_release instead, so the values it
 * looked at can be evicted again.
 *
 * Without an active env (unit tests, code outside a query) compressed
 * values are decompressed into the current context and external values
 * cannot be read (an error).
 */
#ifndef TDB_TOAST_DETOAST_H
#define TDB_TOAST_DETOAST_H

#include "common/base.h"
#include "access/relation.h"
#include "mmgr/mcxt.h"
#include "toast/toast.h"
#include "tuple/datum.h"

typedef struct DetoastEnv DetoastEnv;

/* Opens a toast relation by OID for the env (the executor's relation
 * list: opened once per query, locked to the end of the transaction). */
typedef Relation (*DetoastOpenRelFn)(void *arg, Oid relid);

/* What a query's detoasting did (EXPLAIN ANALYZE, trace_detoast). */
typedef struct DetoastStats {
    uint64 requests;       /* toasted values asked for (whole) */
    uint64 hits;           /* ... served from the cache */
    uint64 fetches;        /* external values read whole from disk */
    uint64 slice_fetches;  /* external slices read (only their chunks) */
    uint64 decompressions; /* values decompressed */
    uint64 evictions;      /* cached values dropped for the budget */
    uint64 uncached;       /* values larger than the budget, not kept */
    Size bytes_peak;       /* most bytes the cache held */
} DetoastStats;

/*
 * A cache for one query, in a new context under parent (normally the
 * executor's query context, so it goes with it).  budget 0 disables the
 * cache (every use detoasts, as PostgreSQL).
 */
DetoastEnv *tdb_detoast_env_create(MemoryContext parent, Size budget,
                                   DetoastOpenRelFn open_rel, void *arg);

/* Make env the thread's active env; returns the one it replaces (give
 * it back to tdb_detoast_env_pop).  Deleting an active env's context
 * deactivates it. */
DetoastEnv *tdb_detoast_env_push(DetoastEnv *env);
void tdb_detoast_env_pop(DetoastEnv *previous);
DetoastEnv *tdb_detoast_env_current(void);

const DetoastStats *tdb_detoast_env_stats(const DetoastEnv *env);

/* ----- reading values ----- */

/*
 * The value with its bytes inline and uncompressed (a 4-byte header, or
 * v itself if it was not toasted -- possibly with a short header).  See
 * the lifetime rule above.  Raises for corrupt or missing data.
 */
varlena *tdb_detoast(const varlena *v);

static inline Datum
tdb_detoast_datum(Datum d)
{
    const varlena *v = (const varlena *)DatumGetPointer(d);

    if (likely(!VARATT_IS_EXTENDED(v)))
        return d;
    return PointerGetDatum(tdb_detoast(v));
}

/* A detoasted value held for a short scope (see the header comment). */
typedef struct DetoastRef {
    void *entry;    /* the cache entry pinned, or NULL */
    varlena *copy;  /* an uncached copy to free, or NULL */
} DetoastRef;

varlena *tdb_detoast_acquire(const varlena *v, DetoastRef *ref);
void tdb_detoast_release(DetoastRef *ref);

/*
 * Bytes [offset, offset + length) of the value's data (length < 0: to
 * the end), clipped to the value, as a new plain value in the current
 * context.  An uncompressed external value not in the cache is read
 * chunk by chunk, only the chunks covering the slice.
 */
varlena *tdb_detoast_slice(const varlena *v, int32 offset, int32 length);

/*
 * An external value's stored form, read from its toast relation: the
 * compressed inline datum if it was compressed, else the plain value.
 * Other values are returned as they are.  Not cached (the toaster uses
 * this to copy a value into another table).
 */
varlena *tdb_detoast_fetch_stored(const varlena *v);

/* Size the value has detoasted, header included (PostgreSQL's
 * toast_raw_datum_size), without detoasting it. */
Size tdb_toast_raw_datum_size(const varlena *v);

/* Size the value takes where it is stored (pg_column_size): an external
 * value's stored bytes, else its inline size. */
Size tdb_toast_datum_size(const varlena *v);

#endif /* TDB_TOAST_DETOAST_H */
