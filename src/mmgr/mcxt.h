/*
 * mcxt.h -- tupledb's memory contexts: the public API.
 *
 * Every allocation in tupledb belongs to a memory context.  Contexts form a
 * tree; resetting a context frees everything allocated in it (and deletes
 * its children) in one step, deleting it also removes the context itself.
 * Code therefore frees by resetting a context, not by walking structures.
 *
 * Four implementations sit behind one method table (see mcxt_int.h):
 *
 *   AllocSet    general purpose: power-of-two size classes, per-class free
 *               lists; tdb_aset_create().
 *   Generation  chunks with similar lifetimes (FIFO-ish, e.g. sort tuples):
 *               no reuse of freed chunks, whole blocks recycled when their
 *               last chunk is freed; tdb_generation_create().
 *   Slab        one fixed chunk size, O(1) alloc/free, blocks kept ordered
 *               by fullness; tdb_slab_create().
 *   Bump        allocate-only, no chunk header at all; tdb_bump_create().
 *               tdb_pfree/tdb_repalloc/chunk queries on a Bump chunk are
 *               errors (caught in checking builds, where Bump chunks carry a
 *               header; undefined in release builds -- see README.md).
 *
 * Every chunk handed out by AllocSet, Generation and Slab is preceded by an
 * 8-byte header (memchunk.h) from which tdb_pfree()/tdb_repalloc() find the
 * owning context in O(1).  Checking builds (MEMORY_CONTEXT_CHECKING) add the
 * requested size in front of it (16 bytes in all).
 *
 * Errors: allocation never returns NULL unless MCXT_ALLOC_NO_OOM is passed;
 * it raises ERRCODE_OUT_OF_MEMORY ("out of memory") instead.  Sizes above
 * MaxAllocSize (1 GB - 1) are rejected unless MCXT_ALLOC_HUGE is passed.
 * Misuse (freeing a pointer no context owns, double free, freeing a Bump
 * chunk, writing past a chunk's end or after free) raises an error naming
 * the context in checking builds.
 *
 * Threads: contexts are not thread-safe; each belongs to one thread at a
 * time.  tdb_current_mcxt and tdb_top_mcxt are per thread.
 */
#ifndef TDB_MMGR_MCXT_H
#define TDB_MMGR_MCXT_H

#include <stdio.h>

#include "common/base.h"

typedef struct MemoryContextData *MemoryContext;

/* Largest ordinary request: 1 GB - 1 (also the largest varlena). */
#define MaxAllocSize ((Size)0x3fffffff)
#define AllocSizeIsValid(size) ((Size)(size) <= MaxAllocSize)
/* Largest request with MCXT_ALLOC_HUGE. */
#define MaxAllocHugeSize (SIZE_MAX / 2)
#define AllocHugeSizeIsValid(size) ((Size)(size) <= MaxAllocHugeSize)

/* Flags for the _extended allocation calls. */
#define MCXT_ALLOC_HUGE 0x01   /* allow sizes above MaxAllocSize */
#define MCXT_ALLOC_NO_OOM 0x02 /* return NULL instead of raising on OOM */
#define MCXT_ALLOC_ZERO 0x04   /* zero the returned memory */

/* Standard block-size parameters for tdb_aset_create() and friends. */
#define ALLOCSET_DEFAULT_MINSIZE 0
#define ALLOCSET_DEFAULT_INITSIZE (8 * 1024)
#define ALLOCSET_DEFAULT_MAXSIZE (8 * 1024 * 1024)
#define ALLOCSET_DEFAULT_SIZES                                              \
    ALLOCSET_DEFAULT_MINSIZE, ALLOCSET_DEFAULT_INITSIZE,                    \
        ALLOCSET_DEFAULT_MAXSIZE
#define ALLOCSET_SMALL_MINSIZE 0
#define ALLOCSET_SMALL_INITSIZE (1 * 1024)
#define ALLOCSET_SMALL_MAXSIZE (8 * 1024)
#define ALLOCSET_SMALL_SIZES                                                \
    ALLOCSET_SMALL_MINSIZE, ALLOCSET_SMALL_INITSIZE, ALLOCSET_SMALL_MAXSIZE
#define ALLOCSET_START_SMALL_SIZES                                          \
    ALLOCSET_SMALL_MINSIZE, ALLOCSET_SMALL_INITSIZE, ALLOCSET_DEFAULT_MAXSIZE

/* Chunks above this size always get a block of their own in an AllocSet. */
#define ALLOCSET_SEPARATE_THRESHOLD 8192

#define SLAB_DEFAULT_BLOCK_SIZE (8 * 1024)
#define SLAB_LARGE_BLOCK_SIZE (8 * 1024 * 1024)

/* The thread's current context (target of tdb_palloc) and its root. */
extern _Thread_local MemoryContext tdb_current_mcxt;
extern _Thread_local MemoryContext tdb_top_mcxt;

/*
 * Create this thread's TopMemoryContext (an AllocSet named
 * "TopMemoryContext") and make it current.  Idempotent.  Call once per
 * thread before allocating; tdb_mcxt_thread_done() deletes the whole tree.
 */
void tdb_mcxt_thread_init(void);
void tdb_mcxt_thread_done(void);

/* ----- creating contexts ----- */

/*
 * Each create function makes a child of `parent` (NULL for a new root).
 * `name` must be a string that outlives the context (normally a literal).
 * Block sizes are in bytes; maxBlockSize is at most 1 GB - 1.
 */
MemoryContext tdb_aset_create(MemoryContext parent, const char *name,
                              Size minContextSize, Size initBlockSize,
                              Size maxBlockSize);
MemoryContext tdb_generation_create(MemoryContext parent, const char *name,
                                    Size minContextSize, Size initBlockSize,
                                    Size maxBlockSize);
MemoryContext tdb_slab_create(MemoryContext parent, const char *name,
                              Size blockSize, Size chunkSize);
MemoryContext tdb_bump_create(MemoryContext parent, const char *name,
                              Size minContextSize, Size initBlockSize,
                              Size maxBlockSize);

/* ----- allocating ----- */

/*
 * The leading fields of every context.  They are public only so that
 * tdb_mcxt_alloc() can be inlined into its callers -- the hottest call in
 * the engine; inlining saved a call, a jump and a dependent load per
 * allocation (bench/RESULTS.md, "Memory contexts").  Nothing outside
 * src/mmgr may read or write them.
 */
typedef struct MemoryContextHot {
    /* the implementation's allocator (raises on OOM itself) */
    void *(*alloc)(MemoryContext cxt, Size size, int flags);
} MemoryContextHot;

/* Out-of-line tdb_mcxt_alloc: bad sizes, fault injection. */
void *tdb_mcxt_alloc_checked(MemoryContext cxt, Size size);

/*
 * Allocate size bytes (MAXALIGNed) in cxt; raises on OOM or bad size.
 * The memory is uninitialised; it lives until the context is reset or
 * deleted, or tdb_pfree'd.
 */
static inline void *
tdb_mcxt_alloc(MemoryContext cxt, Size size)
{
    MemoryContextHot *hot = (MemoryContextHot *)cxt;

    if (unlikely(size > MaxAllocSize) || config_debug)
        return tdb_mcxt_alloc_checked(cxt, size);
    return hot->alloc(cxt, size, 0);
}
/* The same, zero-filled. */
void *tdb_mcxt_alloc_zero(MemoryContext cxt, Size size);
/* The same with MCXT_ALLOC_* flags; NULL only with MCXT_ALLOC_NO_OOM. */
void *tdb_mcxt_alloc_extended(MemoryContext cxt, Size size, int flags);

/* In the thread's current context. */
static inline void *
tdb_palloc(Size size)
{
    return tdb_mcxt_alloc(tdb_current_mcxt, size);
}
void *tdb_palloc0(Size size);
void *tdb_palloc_extended(Size size, int flags);

/*
 * Free functions indexed by the 4-bit method id in the chunk header
 * (memchunk.h).  Public only so tdb_pfree can be inlined; do not call.
 */
extern void (*const tdb_mcxt_free_functions[16])(void *pointer);
/* Out-of-line tdb_pfree of checking builds: validates the header first. */
void tdb_pfree_checked(void *pointer);

/*
 * Free a chunk (not allowed for Bump chunks).  Inline: one load of the
 * header word in front of the pointer, one table load, one call.
 */
static inline void
tdb_pfree(void *pointer)
{
    if (config_mcxt_checking) {
        tdb_pfree_checked(pointer);
        return;
    }
    tdb_mcxt_free_functions[((const uint64 *)pointer)[-1] & 0xF](pointer);
}

/*
 * Resize a chunk, keeping its context and contents up to the smaller size.
 * Returns the new address (the old pointer must not be used again).
 */
void *tdb_repalloc(void *pointer, Size size);
/* The same with MCXT_ALLOC_HUGE / MCXT_ALLOC_NO_OOM (NULL leaves the
 * old chunk untouched). */
void *tdb_repalloc_extended(void *pointer, Size size, int flags);

/* Bytes the chunk really occupies, header included. */
Size tdb_mcxt_chunk_space(void *pointer);
/* The context that owns a chunk. */
MemoryContext tdb_mcxt_chunk_context(void *pointer);

/* Duplicate a NUL-terminated string into cxt / the current context. */
char *tdb_mcxt_strdup(MemoryContext cxt, const char *string);
char *tdb_pstrdup(const char *string);

/*
 * Overflow-checked typed allocation: tdb_palloc_object(T),
 * tdb_palloc_array(T, n), tdb_palloc0_array(T, n).  n * sizeof(T) that
 * overflows raises like an oversized request.
 */
Size tdb_mcxt_array_size(Size nmemb, Size size);
#define tdb_palloc_object(type) ((type *)tdb_palloc(sizeof(type)))
#define tdb_palloc0_object(type) ((type *)tdb_palloc0(sizeof(type)))
#define tdb_palloc_array(type, count)                                       \
    ((type *)tdb_palloc(tdb_mcxt_array_size((count), sizeof(type))))
#define tdb_palloc0_array(type, count)                                      \
    ((type *)tdb_palloc0(tdb_mcxt_array_size((count), sizeof(type))))
#define tdb_repalloc_array(pointer, type, count)                            \
    ((type *)tdb_repalloc((pointer), tdb_mcxt_array_size((count), sizeof(type))))

/* ----- switching ----- */

/* Make cxt current; returns the previous current context. */
static inline MemoryContext
tdb_mcxt_switch_to(MemoryContext cxt)
{
    MemoryContext old = tdb_current_mcxt;

    tdb_current_mcxt = cxt;
    return old;
}

/* ----- resetting and deleting ----- */

/* Delete all children, run reset callbacks, free every chunk (keeping
 * the context and its keeper block). */
void tdb_mcxt_reset(MemoryContext cxt);
/* The same without touching children. */
void tdb_mcxt_reset_only(MemoryContext cxt);
/* tdb_mcxt_reset_only() on every descendant (they survive). */
void tdb_mcxt_reset_children(MemoryContext cxt);
/* Delete cxt and all its descendants (bottom-up, no recursion). */
void tdb_mcxt_delete(MemoryContext cxt);
/* Delete all descendants of cxt. */
void tdb_mcxt_delete_children(MemoryContext cxt);
/* Move cxt under new_parent (NULL makes it a root). */
void tdb_mcxt_set_parent(MemoryContext cxt, MemoryContext new_parent);

/*
 * Callback run when the context is next reset or deleted (most recently
 * registered first, each once).  The struct is caller-owned, normally
 * allocated in cxt itself; it must stay valid until then.
 */
typedef void (*MemoryContextCallbackFunction)(void *arg);
typedef struct MemoryContextCallback {
    MemoryContextCallbackFunction func;
    void *arg;
    struct MemoryContextCallback *next; /* managed by the context */
} MemoryContextCallback;
void tdb_mcxt_register_reset_callback(MemoryContext cxt,
                                      MemoryContextCallback *cb);

/* ----- inspecting ----- */

const char *tdb_mcxt_name(MemoryContext cxt);
/* Optional extra identification printed by the stats dump (borrowed). */
void tdb_mcxt_set_ident(MemoryContext cxt, const char *ident);
MemoryContext tdb_mcxt_parent(MemoryContext cxt);
/*
 * True if the context holds no live chunk and has no pending reset
 * callback.  AllocSet: nothing carved since creation or the last reset
 * (chunks freed onto its free lists still count); Generation, Slab:
 * every chunk freed; Bump: nothing allocated.
 */
bool tdb_mcxt_is_empty(MemoryContext cxt);

/*
 * Bytes obtained from the OS for this context's blocks (its keeper block
 * and header included); with recurse, summed over the subtree.
 */
Size tdb_mcxt_mem_allocated(MemoryContext cxt, bool recurse);

/* Statistics of one context (or a subtree). */
typedef struct MemoryContextCounters {
    Size nblocks;    /* blocks obtained from the OS */
    Size nchunks;    /* live (allocated, not freed) chunks, where tracked */
    Size freechunks; /* chunks on free lists */
    Size totalspace; /* bytes in blocks (== mem_allocated) */
    Size freespace;  /* bytes in free chunks + unused block tails */
} MemoryContextCounters;

/* Add cxt's own statistics (recurse: and its descendants') to *totals. */
void tdb_mcxt_stats_collect(MemoryContext cxt, bool recurse,
                            MemoryContextCounters *totals);

/*
 * Print one line per context, indented by depth, in PostgreSQL's
 * MemoryContextStats format, then a "Grand total" line:
 *   name: T total in B blocks; F free (C chunks); U used
 * At most max_children children are listed per parent; the rest are
 * summarised in one line.
 */
void tdb_mcxt_stats_print(MemoryContext cxt, FILE *out, int max_children);

/*
 * Verify every chunk's sentinel and header in cxt's subtree (checking
 * builds; a no-op otherwise).  Problems are reported as WARNINGs; returns
 * the number found.
 */
int tdb_mcxt_check(MemoryContext cxt);

/* ----- testing hooks ----- */

/*
 * Every block a context obtains from or returns to the OS passes through
 * these hooks (default: malloc/realloc/free).  Tests replace them to count
 * bytes or to fail the Nth request.  Set them only while no context is in
 * use with the old hooks (a block must be freed by the allocator that made
 * it).  NULL restores the defaults.
 */
typedef struct MemoryContextOsHooks {
    void *(*block_alloc)(Size size);
    void *(*block_realloc)(void *block, Size old_size, Size new_size);
    void (*block_free)(void *block, Size size);
} MemoryContextOsHooks;
void tdb_mcxt_set_os_hooks(const MemoryContextOsHooks *hooks);

/*
 * Fault injection (TDB_DEBUG builds only; ignored otherwise): make the
 * n-th allocation call from now on (tdb_mcxt_alloc*, tdb_palloc*,
 * tdb_repalloc*) fail as out of memory; n = 0 disables.  Returns whether
 * injection is available in this build.
 */
bool tdb_mcxt_inject_oom_after(uint64 n);

#endif /* TDB_MMGR_MCXT_H */
