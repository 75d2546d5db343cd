/*
 * bump.c -- Bump, an allocate-only memory context with no chunk headers.
 *
 * Design
 * ------
 * An allocation is MAXALIGN(size) bytes taken from the head block's
 * freeptr; nothing else is written, so a Bump chunk costs exactly its
 * aligned size (the point: hash-aggregate groups and sort tuples that all
 * die together at the end of a query).  Memory is reclaimed only by reset
 * or delete.  Blocks double from initBlockSize to maxBlockSize; a request
 * above allocChunkLimit gets a dedicated block linked at the tail, so the
 * head block stays in use.
 *
 *   block: | BumpBlock | chunk | chunk | chunk | ... |  unused  |
 *                                                    ^freeptr   ^endptr
 *
 * tdb_pfree, tdb_repalloc, tdb_mcxt_chunk_space and tdb_mcxt_chunk_context
 * are not supported.  Checking builds give every chunk a MemoryChunk header
 * (method id MCTX_BUMP_ID, value = requested size when it fits) so those
 * calls raise a clear error naming the context, and so sentinels can be
 * verified on reset.  In release builds the bytes before a Bump chunk
 * belong to the previous chunk, so such a call is undefined behaviour --
 * the contract documented in mcxt.h and README.md.
 *
 * Invariants: the keeper block (allocated with the context) is always in
 * the list; mem_allocated equals the context struct plus all blocks.
 */
#include "common/base.h"

#include "common/dlist.h"
#include "mmgr/mcxt_int.h"

#define BUMP_CHUNK_FRACTION 8

typedef struct BumpContext BumpContext;

typedef struct BumpBlock {
    dlist_node node;      /* in the context's block list */
    BumpContext *context; /* owner (used by checking builds' errors) */
    char *freeptr;
    char *endptr;
} BumpBlock;

struct BumpContext {
    MemoryContextData header;
    Size initBlockSize;
    Size maxBlockSize;
    Size nextBlockSize;
    Size allocChunkLimit;
    BumpBlock *keeper; /* allocated with the context */
    dlist_head blocks; /* head = block being filled */
};

#define BUMP_BLOCKHDRSZ MAXALIGN(sizeof(BumpBlock))
#define BUMP_CONTEXTSZ MAXALIGN(sizeof(BumpContext))
#ifdef MEMORY_CONTEXT_CHECKING
#define BUMP_CHUNKHDRSZ sizeof(MemoryChunk)
#else
#define BUMP_CHUNKHDRSZ 0
#endif

static inline Size
bump_chunk_size(Size size)
{
    return MAXALIGN(config_mcxt_checking ? size + 1 : size);
}

static inline Size
bump_block_size(const BumpBlock *block)
{
    return (Size)(block->endptr - (const char *)block);
}

static void
bump_init_block(BumpContext *set, BumpBlock *block, Size blksize)
{
    block->context = set;
    block->freeptr = (char *)block + BUMP_BLOCKHDRSZ;
    block->endptr = (char *)block + blksize;
    tdb_mcxt_registry_add(block, blksize);
    VALGRIND_MAKE_MEM_NOACCESS(block->freeptr,
                               (Size)(block->endptr - block->freeptr));
}

MemoryContext
tdb_bump_create(MemoryContext parent, const char *name, Size minContextSize,
                Size initBlockSize, Size maxBlockSize)
{
    Size firstBlockSize, allocSize;
    BumpContext *set;

    if (initBlockSize < 1024 || initBlockSize != MAXALIGN(initBlockSize) ||
        maxBlockSize < initBlockSize ||
        maxBlockSize > MEMORYCHUNK_MAX_BLOCKOFFSET ||
        maxBlockSize != MAXALIGN(maxBlockSize) ||
        minContextSize != MAXALIGN(minContextSize) ||
        minContextSize > MEMORYCHUNK_MAX_BLOCKOFFSET)
        elog(ERROR, "invalid block sizes for memory context \"%s\"", name);

    firstBlockSize = minContextSize != 0 ? minContextSize : initBlockSize;
    if (firstBlockSize < BUMP_BLOCKHDRSZ + 64)
        firstBlockSize = BUMP_BLOCKHDRSZ + 64;
    allocSize = BUMP_CONTEXTSZ + firstBlockSize;

    set = tdb_mcxt_block_alloc(allocSize);
    if (set == NULL)
        tdb_mcxt_create_failed(name, allocSize);
    memset(set, 0, sizeof(*set));
    dlist_init(&set->blocks);
    set->keeper = (BumpBlock *)((char *)set + BUMP_CONTEXTSZ);
    bump_init_block(set, set->keeper, firstBlockSize);
    dlist_push_head(&set->blocks, &set->keeper->node);

    set->initBlockSize = initBlockSize;
    set->maxBlockSize = maxBlockSize;
    set->nextBlockSize = initBlockSize;
    set->allocChunkLimit = (maxBlockSize - BUMP_BLOCKHDRSZ) /
                               BUMP_CHUNK_FRACTION -
                           BUMP_CHUNKHDRSZ;

    set->header.mem_allocated = allocSize;
    tdb_mcxt_init_header(&set->header, MCTX_BUMP_ID, parent, name);
    return &set->header;
}

/* Carve a chunk of chunk_size bytes (plus header in checking builds). */
static inline void *
bump_carve(BumpBlock *block, Size size, Size chunk_size)
{
    char *p = block->freeptr;

    block->freeptr += BUMP_CHUNKHDRSZ + chunk_size;
    VALGRIND_MAKE_MEM_UNDEFINED(p, BUMP_CHUNKHDRSZ + chunk_size);
#ifdef MEMORY_CONTEXT_CHECKING
    {
        MemoryChunk *chunk = (MemoryChunk *)p;
        Size offset = (Size)(p - (char *)block);

        chunk->requested_size = size;
        if (offset <= MEMORYCHUNK_MAX_BLOCKOFFSET)
            MemoryChunkSetHdrMask(chunk, block, 0, MCTX_BUMP_ID);
        else
            MemoryChunkSetHdrMaskExternal(chunk, MCTX_BUMP_ID);
        p += BUMP_CHUNKHDRSZ;
        mcxt_set_sentinel(p, size, chunk_size);
    }
#else
    (void)size;
#endif
    return p;
}

static TDB_NOINLINE void *
bump_alloc_large(BumpContext *set, Size size, Size chunk_size, int flags)
{
    Size blksize = BUMP_BLOCKHDRSZ + BUMP_CHUNKHDRSZ + chunk_size;
    BumpBlock *block = tdb_mcxt_block_alloc(blksize);

    if (block == NULL)
        return mcxt_alloc_oom(&set->header, size, flags);
    set->header.mem_allocated += blksize;
    bump_init_block(set, block, blksize);
    dlist_push_tail(&set->blocks, &block->node);
    return bump_carve(block, size, chunk_size);
}

static TDB_NOINLINE void *
bump_alloc_from_new_block(BumpContext *set, Size size, Size chunk_size,
                          int flags)
{
    Size required = BUMP_BLOCKHDRSZ + BUMP_CHUNKHDRSZ + chunk_size;
    Size blksize = set->nextBlockSize;
    BumpBlock *block;

    set->nextBlockSize <<= 1;
    if (set->nextBlockSize > set->maxBlockSize)
        set->nextBlockSize = set->maxBlockSize;
    while (blksize < required)
        blksize <<= 1;

    block = tdb_mcxt_block_alloc(blksize);
    if (block == NULL)
        return mcxt_alloc_oom(&set->header, size, flags);
    set->header.mem_allocated += blksize;
    bump_init_block(set, block, blksize);
    dlist_push_head(&set->blocks, &block->node);
    return bump_carve(block, size, chunk_size);
}

static void *
bump_alloc(MemoryContext cxt, Size size, int flags)
{
    BumpContext *set = (BumpContext *)cxt;
    Size chunk_size = bump_chunk_size(size);
    BumpBlock *block;

    if (unlikely(chunk_size > set->allocChunkLimit))
        return bump_alloc_large(set, size, chunk_size, flags);

    block = dlist_container(BumpBlock, node, set->blocks.head.next);
    if (unlikely((Size)(block->endptr - block->freeptr) <
                 BUMP_CHUNKHDRSZ + chunk_size))
        return bump_alloc_from_new_block(set, size, chunk_size, flags);
    return bump_carve(block, size, chunk_size);
}

/* The context of a Bump chunk, for error messages (checking builds). */
static const char *
bump_chunk_context_name(void *pointer)
{
    const MemoryChunk *chunk = PointerGetMemoryChunk(pointer);
    const BumpBlock *block;

    if (!config_mcxt_checking)
        return "?";
    /*
     * External here only means "too far from the block start to encode";
     * such a chunk is the first in a dedicated block.
     */
    if (MemoryChunkIsExternal(chunk))
        block = (const BumpBlock *)((const char *)chunk - BUMP_BLOCKHDRSZ);
    else
        block = MemoryChunkGetBlock(chunk);
    return block->context->header.name;
}

TDB_NORETURN static void
bump_unsupported(void *pointer, const char *operation)
{
    elog(ERROR,
         "%s is not supported by the bump memory allocator (chunk %p in "
         "memory context \"%s\")",
         operation, pointer, bump_chunk_context_name(pointer));
}

void
tdb_bump_free(void *pointer)
{
    bump_unsupported(pointer, "pfree");
}

static void *
bump_realloc(void *pointer, Size size, int flags)
{
    (void)size;
    (void)flags;
    bump_unsupported(pointer, "repalloc");
}

static MemoryContext
bump_get_chunk_context(void *pointer)
{
    bump_unsupported(pointer, "tdb_mcxt_chunk_context");
}

static Size
bump_get_chunk_space(void *pointer)
{
    bump_unsupported(pointer, "tdb_mcxt_chunk_space");
}

static int bump_check(MemoryContext cxt);

static void
bump_reset(MemoryContext cxt)
{
    BumpContext *set = (BumpContext *)cxt;
    dlist_mutable_iter iter;

    if (config_mcxt_checking)
        bump_check(cxt);
    dlist_foreach_modify(iter, &set->blocks) {
        BumpBlock *block = dlist_container(BumpBlock, node, iter.cur);

        if (block == set->keeper) {
            char *start = (char *)block + BUMP_BLOCKHDRSZ;

            if (config_mcxt_checking) {
                VALGRIND_MAKE_MEM_UNDEFINED(start,
                                            (Size)(block->freeptr - start));
                mcxt_wipe(start, (Size)(block->freeptr - start));
            }
            block->freeptr = start;
            VALGRIND_MAKE_MEM_NOACCESS(start, (Size)(block->endptr - start));
        } else {
            dlist_delete(iter.cur);
            set->header.mem_allocated -= bump_block_size(block);
            tdb_mcxt_registry_remove(block);
            tdb_mcxt_block_free(block, bump_block_size(block));
        }
    }
    /* the keeper becomes the head again */
    dlist_delete(&set->keeper->node);
    dlist_push_head(&set->blocks, &set->keeper->node);
    set->nextBlockSize = set->initBlockSize;
}

static void
bump_delete(MemoryContext cxt)
{
    BumpContext *set = (BumpContext *)cxt;

    bump_reset(cxt);
    tdb_mcxt_registry_remove(set->keeper);
    tdb_mcxt_block_free(set, BUMP_CONTEXTSZ + bump_block_size(set->keeper));
}

static bool
bump_is_empty(MemoryContext cxt)
{
    BumpContext *set = (BumpContext *)cxt;

    for (dlist_node *n = dlist_first(&set->blocks); n != NULL;
         n = dlist_next(&set->blocks, n)) {
        BumpBlock *block = dlist_container(BumpBlock, node, n);

        if (block->freeptr != (char *)block + BUMP_BLOCKHDRSZ)
            return false;
    }
    return true;
}

static void
bump_stats(MemoryContext cxt, MemoryContextCounters *totals)
{
    BumpContext *set = (BumpContext *)cxt;

    totals->totalspace += BUMP_CONTEXTSZ;
    for (dlist_node *n = dlist_first(&set->blocks); n != NULL;
         n = dlist_next(&set->blocks, n)) {
        BumpBlock *block = dlist_container(BumpBlock, node, n);

        totals->nblocks++;
        totals->totalspace += bump_block_size(block);
        totals->freespace += (Size)(block->endptr - block->freeptr);
    }
}

/* Checking builds: verify every chunk's header and sentinel. */
static int
bump_check(MemoryContext cxt)
{
    int problems = 0;
#ifdef MEMORY_CONTEXT_CHECKING
    BumpContext *set = (BumpContext *)cxt;

    for (dlist_node *n = dlist_first(&set->blocks); n != NULL;
         n = dlist_next(&set->blocks, n)) {
        BumpBlock *block = dlist_container(BumpBlock, node, n);
        char *p = (char *)block + BUMP_BLOCKHDRSZ;

        while (p < block->freeptr) {
            MemoryChunk *chunk = (MemoryChunk *)p;
            char *pointer = p + BUMP_CHUNKHDRSZ;
            Size chunk_size = bump_chunk_size(chunk->requested_size);

            if (MemoryChunkGetMethodID(chunk) != MCTX_BUMP_ID ||
                pointer + chunk_size > block->freeptr) {
                ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("corrupt chunk header %p in memory context "
                               "\"%s\"", (void *)pointer, cxt->name));
                problems++;
                break;
            }
            if (!mcxt_sentinel_ok(pointer, chunk->requested_size,
                                  chunk_size)) {
                ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("detected write past chunk end in memory "
                               "context \"%s\" %p", cxt->name,
                               (void *)pointer));
                problems++;
            }
            p = pointer + chunk_size;
        }
    }
#else
    (void)cxt;
#endif
    return problems;
}

const MemoryContextMethods tdb_bump_methods = {
    .alloc = bump_alloc,
    .free_p = tdb_bump_free,
    .realloc = bump_realloc,
    .reset = bump_reset,
    .delete_context = bump_delete,
    .get_chunk_context = bump_get_chunk_context,
    .get_chunk_space = bump_get_chunk_space,
    .is_empty = bump_is_empty,
    .stats = bump_stats,
    .check = bump_check,
    .external_chunk_offset = BUMP_BLOCKHDRSZ,
};
