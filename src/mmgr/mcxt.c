/*
 * mcxt.c -- the memory-context API: the tree, the allocation front door,
 * dispatch on the chunk header, statistics, and the hooks tests use.
 *
 * Allocation:  tdb_mcxt_alloc(cxt, size) validates the size, asks
 *   cxt->methods->alloc, and turns a NULL (the OS refused a block) into an
 *   "out of memory" ERROR unless MCXT_ALLOC_NO_OOM was given.
 *
 * Free/realloc/chunk queries:  read the 8-byte header in front of the
 *   pointer, take its 4-bit method id and call that implementation
 *   (memchunk.h).  Ids that no implementation uses lead to handlers that
 *   raise "invalid pointer" errors; in checking builds the header is also
 *   validated against the registry of live blocks first, so a pointer that
 *   no context owns is reported rather than followed.
 *
 * Tree:  contexts are linked parent -> firstchild, children doubly linked
 *   through prevchild/nextchild.  Reset deletes the children, runs the
 *   reset callbacks and asks the implementation to free all chunks.
 *   Delete works bottom-up with a loop, never recursion, so that a very
 *   deep tree cannot overflow the stack (it may run during error recovery).
 *
 * Blocks:  every block any implementation obtains from the OS goes through
 *   tdb_mcxt_block_alloc/_realloc/_free, which call the replaceable
 *   MemoryContextOsHooks (malloc/realloc/free by default).
 */
#include "common/base.h"

#include <pthread.h>
#include <stdlib.h>

#include "mmgr/mcxt_int.h"

_Thread_local MemoryContext tdb_current_mcxt = NULL;
_Thread_local MemoryContext tdb_top_mcxt = NULL;

/* ----------------------------------------------------------------------
 * OS hooks
 * ---------------------------------------------------------------------- */

static void *
default_block_alloc(Size size)
{
    return malloc(size);
}

static void *
default_block_realloc(void *block, Size old_size, Size new_size)
{
    (void)old_size;
    return realloc(block, new_size);
}

static void
default_block_free(void *block, Size size)
{
    (void)size;
    free(block);
}

static const MemoryContextOsHooks default_os_hooks = {
    default_block_alloc, default_block_realloc, default_block_free};

/* Process-wide; changed only by tests while no other thread allocates. */
static const MemoryContextOsHooks *os_hooks = &default_os_hooks;

void
tdb_mcxt_set_os_hooks(const MemoryContextOsHooks *hooks)
{
    os_hooks = hooks ? hooks : &default_os_hooks;
}

void *
tdb_mcxt_block_alloc(Size size)
{
    return os_hooks->block_alloc(size);
}

void *
tdb_mcxt_block_realloc(void *block, Size old_size, Size new_size)
{
    return os_hooks->block_realloc(block, old_size, new_size);
}

void
tdb_mcxt_block_free(void *block, Size size)
{
    os_hooks->block_free(block, size);
}

/* ----------------------------------------------------------------------
 * Fault injection (TDB_DEBUG builds)
 * ---------------------------------------------------------------------- */

static _Thread_local uint64 oom_countdown = 0;

bool
tdb_mcxt_inject_oom_after(uint64 n)
{
    if (!config_debug)
        return false;
    oom_countdown = n;
    return true;
}

/* True if this allocation call must fail (injected OOM). */
static inline bool
injected_oom(void)
{
    if (config_debug && unlikely(oom_countdown != 0))
        return --oom_countdown == 0;
    return false;
}

/* ----------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------- */

void
tdb_mcxt_alloc_failed(MemoryContext cxt, Size size, int flags)
{
    (void)flags;
    ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"),
            errdetail("Failed on request of size %zu in memory context \"%s\".",
                      size, cxt ? cxt->name : "?"));
}

void
tdb_mcxt_create_failed(const char *name, Size size)
{
    ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"),
            errdetail("Failed while creating memory context \"%s\" "
                      "(request of size %zu).",
                      name, size));
}

void
tdb_mcxt_bad_size(MemoryContext cxt, Size size)
{
    elog(ERROR, "invalid memory alloc request size %zu in memory context \"%s\"",
         size, cxt ? cxt->name : "?");
}

void
tdb_mcxt_corrupt(MemoryContext cxt, const void *pointer, const char *what)
{
    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("%s: chunk %p in memory context \"%s\"", what, pointer,
                   cxt ? cxt->name : "?"));
}

/* ----------------------------------------------------------------------
 * Dispatch on the chunk header
 * ---------------------------------------------------------------------- */

TDB_NORETURN TDB_COLD static void
bogus_pointer(const void *pointer, const char *operation)
{
    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("%s called with invalid pointer %p (header 0x%016llx): "
                   "not a chunk of any memory context",
                   operation, pointer,
                   (unsigned long long)tdb_chunk_hdrmask(pointer)));
}

static void *
bogus_alloc(MemoryContext cxt, Size size, int flags)
{
    (void)size;
    (void)flags;
    elog(ERROR, "memory context \"%s\" has no allocator", cxt->name);
}

static void
bogus_free(void *pointer)
{
    bogus_pointer(pointer, "pfree");
}

static void *
bogus_realloc(void *pointer, Size size, int flags)
{
    (void)size;
    (void)flags;
    bogus_pointer(pointer, "repalloc");
}

static MemoryContext
bogus_get_chunk_context(void *pointer)
{
    bogus_pointer(pointer, "tdb_mcxt_chunk_context");
}

static Size
bogus_get_chunk_space(void *pointer)
{
    bogus_pointer(pointer, "tdb_mcxt_chunk_space");
}

static const MemoryContextMethods bogus_methods = {
    .alloc = bogus_alloc,
    .free_p = bogus_free,
    .realloc = bogus_realloc,
    .get_chunk_context = bogus_get_chunk_context,
    .get_chunk_space = bogus_get_chunk_space,
};

static const MemoryContextMethods *const mcxt_methods[16] = {
    [MCTX_RESERVED0_ID] = &bogus_methods,
    [MCTX_RESERVED1_ID] = &bogus_methods,
    [MCTX_RESERVED2_ID] = &bogus_methods,
    [MCTX_ASET_ID] = &tdb_aset_methods,
    [MCTX_GENERATION_ID] = &tdb_generation_methods,
    [MCTX_SLAB_ID] = &tdb_slab_methods,
    [MCTX_UNUSED6_ID] = &bogus_methods,
    [MCTX_BUMP_ID] = &tdb_bump_methods,
    [MCTX_UNUSED8_ID] = &bogus_methods,
    [MCTX_UNUSED9_ID] = &bogus_methods,
    [MCTX_UNUSED10_ID] = &bogus_methods,
    [MCTX_UNUSED11_ID] = &bogus_methods,
    [MCTX_UNUSED12_ID] = &bogus_methods,
    [MCTX_UNUSED13_ID] = &bogus_methods,
    [MCTX_UNUSED14_ID] = &bogus_methods,
    [MCTX_RESERVED15_ID] = &bogus_methods,
};

/*
 * The implementation owning the chunk at pointer.  Checking builds validate
 * the header against the block registry before anything follows it.
 */
static inline const MemoryContextMethods *
chunk_methods(const void *pointer, const char *operation)
{
    MemoryContextMethodID id =
        (MemoryContextMethodID)(tdb_chunk_hdrmask(pointer) &
                                MEMORY_CONTEXT_METHODID_MASK);

    if (config_mcxt_checking)
        tdb_mcxt_validate_chunk(pointer, id, operation);
    return mcxt_methods[id];
}

/* ----------------------------------------------------------------------
 * Block registry (checking builds)
 *
 * An open-addressing hash set of live block addresses with their end
 * addresses, linear probing, backward-shift deletion.  Process-wide and
 * protected by a mutex because different threads' contexts register
 * blocks concurrently.  Allocated with raw malloc: it serves the allocator.
 * ---------------------------------------------------------------------- */

typedef struct RegistryEntry {
    uintptr_t block; /* 0 = empty slot */
    uintptr_t end;
} RegistryEntry;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static RegistryEntry *registry_slots;
static Size registry_mask; /* capacity - 1; capacity is a power of two */
static Size registry_count;

static inline Size
registry_hash(uintptr_t key)
{
    return (Size)((key >> 3) * UINT64_C(0x9E3779B97F4A7C15) >> 20);
}

static void
registry_insert_locked(uintptr_t block, uintptr_t end)
{
    Size i = registry_hash(block) & registry_mask;

    while (registry_slots[i].block != 0 && registry_slots[i].block != block)
        i = (i + 1) & registry_mask;
    if (registry_slots[i].block == 0)
        registry_count++;
    registry_slots[i].block = block;
    registry_slots[i].end = end;
}

static void
registry_grow_locked(void)
{
    RegistryEntry *old = registry_slots;
    Size old_capacity = old ? registry_mask + 1 : 0;
    Size capacity = old ? old_capacity * 2 : 1024;

    /* raw calloc: the registry is the allocator's own bookkeeping */
    registry_slots = calloc(capacity, sizeof(RegistryEntry));
    if (registry_slots == NULL) {
        fprintf(stderr, "PANIC:  out of memory growing the block registry\n");
        abort();
    }
    registry_mask = capacity - 1;
    registry_count = 0;
    for (Size i = 0; i < old_capacity; i++)
        if (old[i].block != 0)
            registry_insert_locked(old[i].block, old[i].end);
    free(old);
}

void
tdb_mcxt_registry_add(const void *block, Size size)
{
    if (!config_mcxt_checking)
        return;
    pthread_mutex_lock(&registry_lock);
    if (registry_slots == NULL || (registry_count + 1) * 2 > registry_mask + 1)
        registry_grow_locked();
    registry_insert_locked((uintptr_t)block, (uintptr_t)block + size);
    pthread_mutex_unlock(&registry_lock);
}

void
tdb_mcxt_registry_remove(const void *block)
{
    Size i, j;

    if (!config_mcxt_checking)
        return;
    pthread_mutex_lock(&registry_lock);
    if (registry_slots == NULL)
        goto done;
    i = registry_hash((uintptr_t)block) & registry_mask;
    while (registry_slots[i].block != (uintptr_t)block) {
        if (registry_slots[i].block == 0)
            goto done;
        i = (i + 1) & registry_mask;
    }
    /* Backward-shift deletion keeps probe sequences intact. */
    j = i;
    for (;;) {
        Size home;

        j = (j + 1) & registry_mask;
        if (registry_slots[j].block == 0)
            break;
        home = registry_hash(registry_slots[j].block) & registry_mask;
        /* Move j back to i unless its home lies cyclically in (i, j]. */
        if (((j - home) & registry_mask) >= ((j - i) & registry_mask)) {
            registry_slots[i] = registry_slots[j];
            i = j;
        }
    }
    registry_slots[i].block = 0;
    registry_slots[i].end = 0;
    registry_count--;
done:
    pthread_mutex_unlock(&registry_lock);
}

bool
tdb_mcxt_registry_contains(const void *block, const void *end)
{
    bool found = false;
    Size i;

    if (!config_mcxt_checking)
        return true;
    pthread_mutex_lock(&registry_lock);
    if (registry_slots != NULL) {
        i = registry_hash((uintptr_t)block) & registry_mask;
        while (registry_slots[i].block != 0) {
            if (registry_slots[i].block == (uintptr_t)block) {
                found = (uintptr_t)end <= registry_slots[i].end;
                break;
            }
            i = (i + 1) & registry_mask;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    return found;
}

void
tdb_mcxt_validate_chunk(const void *pointer, MemoryContextMethodID id,
                        const char *operation)
{
    const MemoryContextMethods *methods = mcxt_methods[id];
    const MemoryChunk *chunk = PointerGetMemoryChunk(pointer);
    const void *block;

    if (methods == &bogus_methods)
        bogus_pointer(pointer, operation);
    if (MemoryChunkIsExternal(chunk)) {
        if (!MemoryChunkExternalMagicOK(chunk))
            bogus_pointer(pointer, operation);
        block = (const char *)chunk - methods->external_chunk_offset;
    } else {
        block = MemoryChunkGetBlock(chunk);
    }
    if (!tdb_mcxt_registry_contains(block, pointer))
        bogus_pointer(pointer, operation);
}

/* ----------------------------------------------------------------------
 * Allocation front door
 * ---------------------------------------------------------------------- */

void *
tdb_mcxt_alloc_extended(MemoryContext cxt, Size size, int flags)
{
    void *ret;

    if (unlikely((flags & MCXT_ALLOC_HUGE) ? !AllocHugeSizeIsValid(size)
                                           : !AllocSizeIsValid(size)))
        tdb_mcxt_bad_size(cxt, size);
    if (injected_oom())
        return mcxt_alloc_oom(cxt, size, flags);
    ret = cxt->hot.alloc(cxt, size, flags);
    if (unlikely(ret == NULL))
        return NULL; /* only with MCXT_ALLOC_NO_OOM */
    if (flags & MCXT_ALLOC_ZERO)
        memset(ret, 0, size);
    return ret;
}

/*
 * The out-of-line part of tdb_mcxt_alloc (mcxt.h): oversized requests,
 * and in TDB_DEBUG builds every request, so fault injection sees them.
 */
void *
tdb_mcxt_alloc_checked(MemoryContext cxt, Size size)
{
    if (unlikely(!AllocSizeIsValid(size)))
        tdb_mcxt_bad_size(cxt, size);
    if (injected_oom())
        tdb_mcxt_alloc_failed(cxt, size, 0);
    return cxt->hot.alloc(cxt, size, 0);
}

void *
tdb_mcxt_alloc_zero(MemoryContext cxt, Size size)
{
    return tdb_mcxt_alloc_extended(cxt, size, MCXT_ALLOC_ZERO);
}

void *
tdb_palloc0(Size size)
{
    return tdb_mcxt_alloc_extended(tdb_current_mcxt, size, MCXT_ALLOC_ZERO);
}

void *
tdb_palloc_extended(Size size, int flags)
{
    return tdb_mcxt_alloc_extended(tdb_current_mcxt, size, flags);
}

/*
 * Free functions indexed by method id: one dependent load from the header
 * to the function, where chunk_methods() needs two (table, then method).
 */
void (*const tdb_mcxt_free_functions[16])(void *) = {
    [MCTX_RESERVED0_ID] = bogus_free,
    [MCTX_RESERVED1_ID] = bogus_free,
    [MCTX_RESERVED2_ID] = bogus_free,
    [MCTX_ASET_ID] = tdb_aset_free,
    [MCTX_GENERATION_ID] = tdb_generation_free,
    [MCTX_SLAB_ID] = tdb_slab_free,
    [MCTX_UNUSED6_ID] = bogus_free,
    [MCTX_BUMP_ID] = tdb_bump_free,
    [MCTX_UNUSED8_ID] = bogus_free,
    [MCTX_UNUSED9_ID] = bogus_free,
    [MCTX_UNUSED10_ID] = bogus_free,
    [MCTX_UNUSED11_ID] = bogus_free,
    [MCTX_UNUSED12_ID] = bogus_free,
    [MCTX_UNUSED13_ID] = bogus_free,
    [MCTX_UNUSED14_ID] = bogus_free,
    [MCTX_RESERVED15_ID] = bogus_free,
};

void
tdb_pfree_checked(void *pointer)
{
    MemoryContextMethodID id =
        (MemoryContextMethodID)(tdb_chunk_hdrmask(pointer) &
                                MEMORY_CONTEXT_METHODID_MASK);

    tdb_mcxt_validate_chunk(pointer, id, "pfree");
    tdb_mcxt_free_functions[id](pointer);
}

void *
tdb_repalloc_extended(void *pointer, Size size, int flags)
{
    const MemoryContextMethods *methods = chunk_methods(pointer, "repalloc");
    void *ret;

    if (unlikely((flags & MCXT_ALLOC_HUGE) ? !AllocHugeSizeIsValid(size)
                                           : !AllocSizeIsValid(size)))
        tdb_mcxt_bad_size(methods->get_chunk_context(pointer), size);
    if (injected_oom())
        return mcxt_alloc_oom(methods->get_chunk_context(pointer), size,
                              flags);
    ret = methods->realloc(pointer, size, flags);
    if (unlikely(ret == NULL))
        return mcxt_alloc_oom(methods->get_chunk_context(pointer), size,
                              flags);
    return ret;
}

void *
tdb_repalloc(void *pointer, Size size)
{
    return tdb_repalloc_extended(pointer, size, 0);
}

Size
tdb_mcxt_chunk_space(void *pointer)
{
    return chunk_methods(pointer, "tdb_mcxt_chunk_space")
        ->get_chunk_space(pointer);
}

MemoryContext
tdb_mcxt_chunk_context(void *pointer)
{
    return chunk_methods(pointer, "tdb_mcxt_chunk_context")
        ->get_chunk_context(pointer);
}

Size
tdb_mcxt_array_size(Size nmemb, Size size)
{
    Size total;

    if (__builtin_mul_overflow(nmemb, size, &total) ||
        !AllocHugeSizeIsValid(total))
        tdb_mcxt_bad_size(tdb_current_mcxt, SIZE_MAX);
    return total;
}

char *
tdb_mcxt_strdup(MemoryContext cxt, const char *string)
{
    Size len = strlen(string) + 1;
    char *copy = tdb_mcxt_alloc(cxt, len);

    memcpy(copy, string, len);
    return copy;
}

char *
tdb_pstrdup(const char *string)
{
    return tdb_mcxt_strdup(tdb_current_mcxt, string);
}

/* ----------------------------------------------------------------------
 * The tree
 * ---------------------------------------------------------------------- */

void
tdb_mcxt_init_header(MemoryContext cxt, MemoryContextMethodID id,
                     MemoryContext parent, const char *name)
{
    cxt->methods = mcxt_methods[id];
    cxt->hot.alloc = cxt->methods->alloc;
    cxt->method_id = id;
    cxt->parent = NULL;
    cxt->firstchild = NULL;
    cxt->prevchild = NULL;
    cxt->nextchild = NULL;
    cxt->name = name;
    cxt->ident = NULL;
    cxt->reset_cbs = NULL;
    if (parent != NULL)
        tdb_mcxt_set_parent(cxt, parent);
}

void
tdb_mcxt_set_parent(MemoryContext cxt, MemoryContext new_parent)
{
    Assert(cxt != new_parent);
    if (cxt->parent == new_parent)
        return;
    if (cxt->parent != NULL) {
        if (cxt->prevchild != NULL)
            cxt->prevchild->nextchild = cxt->nextchild;
        else
            cxt->parent->firstchild = cxt->nextchild;
        if (cxt->nextchild != NULL)
            cxt->nextchild->prevchild = cxt->prevchild;
    }
    cxt->parent = new_parent;
    cxt->prevchild = NULL;
    cxt->nextchild = NULL;
    if (new_parent != NULL) {
        cxt->nextchild = new_parent->firstchild;
        if (cxt->nextchild != NULL)
            cxt->nextchild->prevchild = cxt;
        new_parent->firstchild = cxt;
    }
}

/* Pop and run the reset callbacks, most recent first, each exactly once. */
static void
run_reset_callbacks(MemoryContext cxt)
{
    MemoryContextCallback *cb;

    while ((cb = cxt->reset_cbs) != NULL) {
        cxt->reset_cbs = cb->next;
        cb->func(cb->arg);
    }
}

void
tdb_mcxt_register_reset_callback(MemoryContext cxt, MemoryContextCallback *cb)
{
    cb->next = cxt->reset_cbs;
    cxt->reset_cbs = cb;
}

void
tdb_mcxt_reset_only(MemoryContext cxt)
{
    /*
     * Allocation does not maintain an "is reset" flag (that was a store on
     * every allocation); each implementation can tell cheaply whether it
     * holds anything.
     */
    run_reset_callbacks(cxt);
    if (!cxt->methods->is_empty(cxt))
        cxt->methods->reset(cxt);
}

void
tdb_mcxt_reset(MemoryContext cxt)
{
    if (cxt->firstchild != NULL)
        tdb_mcxt_delete_children(cxt);
    tdb_mcxt_reset_only(cxt);
}

/* Next context of a pre-order walk of root's subtree, or NULL. */
static MemoryContext
tree_next(MemoryContext cur, MemoryContext root)
{
    if (cur->firstchild != NULL)
        return cur->firstchild;
    while (cur != root) {
        if (cur->nextchild != NULL)
            return cur->nextchild;
        cur = cur->parent;
    }
    return NULL;
}

void
tdb_mcxt_reset_children(MemoryContext cxt)
{
    for (MemoryContext c = cxt->firstchild ? cxt->firstchild : NULL;
         c != NULL; c = tree_next(c, cxt))
        tdb_mcxt_reset_only(c);
}

/* Delete one context that has no children. */
static void
delete_leaf(MemoryContext cxt)
{
    Assert(cxt->firstchild == NULL);
    run_reset_callbacks(cxt);
    tdb_mcxt_set_parent(cxt, NULL);
    if (tdb_current_mcxt == cxt)
        tdb_current_mcxt = NULL;
    cxt->methods->delete_context(cxt);
}

void
tdb_mcxt_delete(MemoryContext cxt)
{
    MemoryContext cur = cxt;

    for (;;) {
        MemoryContext parent;

        while (cur->firstchild != NULL)
            cur = cur->firstchild;
        parent = cur->parent;
        delete_leaf(cur);
        if (cur == cxt)
            break;
        cur = parent;
    }
}

void
tdb_mcxt_delete_children(MemoryContext cxt)
{
    while (cxt->firstchild != NULL)
        tdb_mcxt_delete(cxt->firstchild);
}

/* ----------------------------------------------------------------------
 * Inspection
 * ---------------------------------------------------------------------- */

const char *
tdb_mcxt_name(MemoryContext cxt)
{
    return cxt->name;
}

void
tdb_mcxt_set_ident(MemoryContext cxt, const char *ident)
{
    cxt->ident = ident;
}

MemoryContext
tdb_mcxt_parent(MemoryContext cxt)
{
    return cxt->parent;
}

bool
tdb_mcxt_is_empty(MemoryContext cxt)
{
    return cxt->reset_cbs == NULL && cxt->methods->is_empty(cxt);
}

Size
tdb_mcxt_mem_allocated(MemoryContext cxt, bool recurse)
{
    Size total = cxt->mem_allocated;

    if (recurse)
        for (MemoryContext c = cxt->firstchild; c != NULL;
             c = tree_next(c, cxt))
            total += c->mem_allocated;
    return total;
}

void
tdb_mcxt_stats_collect(MemoryContext cxt, bool recurse,
                       MemoryContextCounters *totals)
{
    cxt->methods->stats(cxt, totals);
    if (recurse)
        for (MemoryContext c = cxt->firstchild; c != NULL;
             c = tree_next(c, cxt))
            c->methods->stats(c, totals);
}

/* "T total in B blocks; F free (C chunks); U used" (no newline). */
static void
print_counters(FILE *out, const MemoryContextCounters *c)
{
    fprintf(out, "%zu total in %zu blocks; %zu free (%zu chunks); %zu used",
            c->totalspace, c->nblocks, c->freespace, c->freechunks,
            c->totalspace - c->freespace);
}

#define STATS_MAX_LEVEL 100

static void
stats_print_level(MemoryContext cxt, FILE *out, int level, int max_children,
                  MemoryContextCounters *grand)
{
    MemoryContextCounters own = {0};
    MemoryContextCounters rest = {0};
    int nchildren = 0, nrest = 0;

    cxt->methods->stats(cxt, &own);
    grand->nblocks += own.nblocks;
    grand->nchunks += own.nchunks;
    grand->freechunks += own.freechunks;
    grand->totalspace += own.totalspace;
    grand->freespace += own.freespace;

    /* As PostgreSQL prints it: the ident, if any, after the figures. */
    fprintf(out, "%*s%s: ", level * 2, "", cxt->name);
    print_counters(out, &own);
    if (cxt->ident)
        fprintf(out, ": %s", cxt->ident);
    fputc('\n', out);

    for (MemoryContext child = cxt->firstchild; child != NULL;
         child = child->nextchild) {
        if (nchildren < max_children && level + 1 < STATS_MAX_LEVEL) {
            stats_print_level(child, out, level + 1, max_children, grand);
            nchildren++;
        } else {
            tdb_mcxt_stats_collect(child, true, &rest);
            nrest += 1;
            for (MemoryContext d = child->firstchild; d != NULL;
                 d = tree_next(d, child))
                nrest++;
        }
    }
    if (nrest > 0) {
        grand->nblocks += rest.nblocks;
        grand->nchunks += rest.nchunks;
        grand->freechunks += rest.freechunks;
        grand->totalspace += rest.totalspace;
        grand->freespace += rest.freespace;
        fprintf(out, "%*s%d more child contexts containing ", (level + 1) * 2,
                "", nrest);
        print_counters(out, &rest);
        fputc('\n', out);
    }
}

void
tdb_mcxt_stats_print(MemoryContext cxt, FILE *out, int max_children)
{
    MemoryContextCounters grand = {0};

    stats_print_level(cxt, out, 0, max_children, &grand);
    fprintf(out,
            "Grand total: %zu bytes in %zu blocks; %zu free (%zu chunks); "
            "%zu used\n",
            grand.totalspace, grand.nblocks, grand.freespace,
            grand.freechunks, grand.totalspace - grand.freespace);
    fflush(out);
}

int
tdb_mcxt_check(MemoryContext cxt)
{
    int problems = 0;

    if (!config_mcxt_checking)
        return 0;
    problems += cxt->methods->check(cxt);
    for (MemoryContext c = cxt->firstchild; c != NULL; c = tree_next(c, cxt))
        problems += c->methods->check(c);
    return problems;
}

/* ----------------------------------------------------------------------
 * Per-thread setup
 * ---------------------------------------------------------------------- */

void
tdb_mcxt_thread_init(void)
{
    if (tdb_top_mcxt != NULL)
        return;
    tdb_top_mcxt = tdb_aset_create(NULL, "TopMemoryContext",
                                   ALLOCSET_DEFAULT_SIZES);
    tdb_current_mcxt = tdb_top_mcxt;
}

void
tdb_mcxt_thread_done(void)
{
    MemoryContext top = tdb_top_mcxt;

    if (top == NULL)
        return;
    tdb_top_mcxt = NULL;
    tdb_current_mcxt = NULL;
    tdb_mcxt_delete(top);
    oom_countdown = 0;
}
