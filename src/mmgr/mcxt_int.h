/*
 * mcxt_int.h -- internals shared by the memory-context implementations.
 * Only the .c files of src/mmgr (and the mmgr unit tests) include this file.
 *
 * A context type is a MemoryContextMethods table plus a struct that starts
 * with MemoryContextData.  mcxt.c owns the tree (parent/child links, reset
 * callbacks, accounting sums), the size checks, the OOM report and the
 * dispatch from a chunk header's method id to the owning implementation.
 */
#ifndef TDB_MMGR_MCXT_INT_H
#define TDB_MMGR_MCXT_INT_H

#include "common/base.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "mmgr/memchunk.h"

typedef struct MemoryContextMethods {
    /*
     * Allocate size bytes; size has been validated against MaxAllocSize /
     * MaxAllocHugeSize already.  When the OS refuses memory the method
     * itself raises "out of memory" (mcxt_alloc_oom), or returns NULL if
     * flags has MCXT_ALLOC_NO_OOM.  Raising inside the method keeps the
     * front door (tdb_mcxt_alloc) a tail call with no test after it.
     */
    void *(*alloc)(MemoryContext cxt, Size size, int flags);
    /* Free a chunk of this type. */
    void (*free_p)(void *pointer);
    /* Resize; returns NULL (old chunk intact) when the OS refuses memory. */
    void *(*realloc)(void *pointer, Size size, int flags);
    /* Free every chunk, keep the context (and its keeper block). */
    void (*reset)(MemoryContext cxt);
    /* Free everything including the context struct. */
    void (*delete_context)(MemoryContext cxt);
    MemoryContext (*get_chunk_context)(void *pointer);
    Size (*get_chunk_space)(void *pointer);
    bool (*is_empty)(MemoryContext cxt);
    /* Add this context's own statistics to *totals. */
    void (*stats)(MemoryContext cxt, MemoryContextCounters *totals);
    /* Checking builds: verify all chunks; returns problems found. */
    int (*check)(MemoryContext cxt);
    /*
     * Distance from a dedicated block's start to its external chunk's
     * header: lets the checking build validate external chunks.
     */
    Size external_chunk_offset;
} MemoryContextMethods;

typedef struct MemoryContextData {
    MemoryContextHot hot; /* the alloc function: see mcxt.h */
    const MemoryContextMethods *methods; /* implementation */
    MemoryContextMethodID method_id;
    Size mem_allocated;   /* bytes of blocks obtained from the OS */
    MemoryContext parent; /* NULL for a root */
    MemoryContext firstchild;
    MemoryContext prevchild; /* siblings: doubly linked */
    MemoryContext nextchild;
    const char *name;  /* borrowed, outlives the context */
    const char *ident; /* borrowed, optional */
    MemoryContextCallback *reset_cbs;
} MemoryContextData;

/*
 * Link a freshly built context into the tree and initialise the common
 * header.  The implementation has already allocated `cxt` (as part of its
 * keeper block) and accounted its blocks in mem_allocated.
 */
void tdb_mcxt_init_header(MemoryContext cxt, MemoryContextMethodID id,
                          MemoryContext parent, const char *name);

/* ----- OS block allocation (the single replaceable hook) ----- */
void *tdb_mcxt_block_alloc(Size size);
void *tdb_mcxt_block_realloc(void *block, Size old_size, Size new_size);
void tdb_mcxt_block_free(void *block, Size size);

/* ----- errors raised by the implementations ----- */
TDB_NORETURN TDB_COLD void tdb_mcxt_alloc_failed(MemoryContext cxt,
                                                 Size size, int flags);
TDB_NORETURN TDB_COLD void tdb_mcxt_create_failed(const char *name,
                                                  Size size);
TDB_NORETURN TDB_COLD void tdb_mcxt_bad_size(MemoryContext cxt, Size size);
TDB_NORETURN TDB_COLD void tdb_mcxt_corrupt(MemoryContext cxt,
                                            const void *pointer,
                                            const char *what);

/*
 * For an implementation whose OS request failed: NULL if the caller passed
 * MCXT_ALLOC_NO_OOM, otherwise raise "out of memory" naming the context.
 */
static inline void *
mcxt_alloc_oom(MemoryContext cxt, Size size, int flags)
{
    if (flags & MCXT_ALLOC_NO_OOM)
        return NULL;
    tdb_mcxt_alloc_failed(cxt, size, flags);
}

/* ----- checking-build helpers (MEMORY_CONTEXT_CHECKING) ----- */

#define MCXT_SENTINEL_BYTE 0x7E
#define MCXT_WIPE_BYTE 0x7F

#if defined(MEMORY_CONTEXT_CHECKING) && defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define TDB_HAVE_VALGRIND 1
#endif
#endif
#ifndef TDB_HAVE_VALGRIND
#define VALGRIND_MAKE_MEM_NOACCESS(addr, size) ((void)0)
#define VALGRIND_MAKE_MEM_UNDEFINED(addr, size) ((void)0)
#define VALGRIND_MAKE_MEM_DEFINED(addr, size) ((void)0)
#endif

/* Write the sentinel after `requested` bytes when the chunk has room. */
static inline void
mcxt_set_sentinel(void *pointer, Size requested, Size usable)
{
    if (requested < usable)
        ((unsigned char *)pointer)[requested] = MCXT_SENTINEL_BYTE;
}

static inline bool
mcxt_sentinel_ok(const void *pointer, Size requested, Size usable)
{
    return requested >= usable ||
           ((const unsigned char *)pointer)[requested] == MCXT_SENTINEL_BYTE;
}

/* Fill freed memory so use-after-free reads garbage, not stale data. */
static inline void
mcxt_wipe(void *pointer, Size size)
{
    memset(pointer, MCXT_WIPE_BYTE, size);
}

/*
 * Checking builds keep a registry of every live block (address and size),
 * so that a pointer whose header points at no block is reported as "not
 * owned by any memory context" instead of being followed.  No-ops in
 * release builds.
 */
void tdb_mcxt_registry_add(const void *block, Size size);
void tdb_mcxt_registry_remove(const void *block);
bool tdb_mcxt_registry_contains(const void *block, const void *end);

/*
 * Validate a chunk header in checking builds before an implementation
 * follows it: the method id must match, the block (found from the offset or
 * at the external position) must be a live registered block and contain
 * the chunk.  Raises an error otherwise.
 */
void tdb_mcxt_validate_chunk(const void *pointer, MemoryContextMethodID id,
                             const char *operation);

/*
 * The free function of each implementation, extern so that tdb_pfree can
 * dispatch through a table of functions (one dependent load) rather than
 * a table of method tables (two).
 */
void tdb_aset_free(void *pointer);
void tdb_generation_free(void *pointer);
void tdb_slab_free(void *pointer);
void tdb_bump_free(void *pointer);

/* The method table of each implementation. */
extern const MemoryContextMethods tdb_aset_methods;
extern const MemoryContextMethods tdb_generation_methods;
extern const MemoryContextMethods tdb_slab_methods;
extern const MemoryContextMethods tdb_bump_methods;

#endif /* TDB_MMGR_MCXT_INT_H */
