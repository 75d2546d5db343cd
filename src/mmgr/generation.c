/*
 * generation.c -- Generation, a memory context for chunks with similar
 * lifetimes (FIFO-ish: sort tuples, queued tuples, reorder buffers).
 *
 * Design
 * ------
 * Chunks of MAXALIGN(size) bytes are carved sequentially from the current
 * block; the header's value field holds that size.  pfree never reuses a
 * chunk: it only counts it (block->nfree++).  When a block's last live
 * chunk is freed the block is empty and is
 *   - reset in place if it is the current block or the keeper,
 *   - otherwise kept as the single spare "freeblock" if there is none yet,
 *   - otherwise returned to the OS.
 * So memory comes back in whole blocks as soon as a generation of chunks
 * dies, with no free-list bookkeeping, and a context in steady FIFO use
 * cycles between two blocks without calling malloc.  The price: one
 * long-lived chunk pins its whole block.
 *
 * Blocks double from initBlockSize to maxBlockSize.  Requests above
 * allocChunkLimit (at most 1/8 of a maximum block) get a dedicated block
 * holding one external chunk, freed straight back to the OS.
 *
 *   block: | GenerationBlock | hdr | chunk | hdr | chunk | ... | unused |
 *                                                             ^freeptr ^endptr
 *
 * Checking builds reserve one byte after each chunk for the sentinel,
 * wipe freed chunks with 0x7F and mark them freed (requested_size =
 * SIZE_MAX) so a second pfree is reported as a double free.
 *
 * Invariants: nfree <= nchunks per block; the current block, the keeper and
 * the freeblock are in the block list; mem_allocated equals the bytes of
 * all blocks plus the context struct obtained from the OS.
 */
#include "common/base.h"

#include "common/dlist.h"
#include "mmgr/mcxt_int.h"

#define GENERATION_CHUNK_FRACTION 8

typedef struct GenerationContext GenerationContext;

typedef struct GenerationBlock {
    dlist_node node;            /* in context's block list */
    GenerationContext *context; /* owner */
    Size blksize;               /* bytes obtained from the OS */
    int32 nchunks;              /* chunks carved from the block */
    int32 nfree;                /* of those, freed */
    char *freeptr;
    char *endptr;
} GenerationBlock;

struct GenerationContext {
    MemoryContextData header;
    Size initBlockSize;
    Size maxBlockSize;
    Size nextBlockSize;
    Size allocChunkLimit;
    GenerationBlock *block;     /* current block: new chunks come from here */
    GenerationBlock *freeblock; /* one empty spare block, or NULL */
    GenerationBlock *keeper;    /* allocated with the context */
    dlist_head blocks;
};

#define GEN_BLOCKHDRSZ MAXALIGN(sizeof(GenerationBlock))
#define GEN_CHUNKHDRSZ sizeof(MemoryChunk)
#define GEN_CONTEXTSZ MAXALIGN(sizeof(GenerationContext))

static inline Size
gen_chunk_size(Size size)
{
    return MAXALIGN(config_mcxt_checking ? size + 1 : size);
}

static inline GenerationBlock *
gen_external_block(const MemoryChunk *chunk)
{
    return (GenerationBlock *)((char *)chunk - GEN_BLOCKHDRSZ);
}

static inline GenerationBlock *
gen_block_of(const MemoryChunk *chunk)
{
    if (MemoryChunkIsExternal(chunk))
        return gen_external_block(chunk);
    return (GenerationBlock *)MemoryChunkGetBlock(chunk);
}

static inline Size
gen_usable(const GenerationBlock *block, const MemoryChunk *chunk)
{
    if (MemoryChunkIsExternal(chunk))
        return (Size)(block->endptr - (const char *)(chunk + 1));
    return MemoryChunkGetValue(chunk);
}

static inline Size
gen_block_free_space(const GenerationBlock *block)
{
    return (Size)(block->endptr - block->freeptr);
}

/* Set up a block: empty, registered, linked at the list's tail. */
static void
gen_init_block(GenerationContext *set, GenerationBlock *block, Size blksize)
{
    block->context = set;
    block->blksize = blksize;
    block->nchunks = 0;
    block->nfree = 0;
    block->freeptr = (char *)block + GEN_BLOCKHDRSZ;
    block->endptr = (char *)block + blksize;
    tdb_mcxt_registry_add(block, blksize);
    VALGRIND_MAKE_MEM_NOACCESS(block->freeptr, gen_block_free_space(block));
    dlist_push_tail(&set->blocks, &block->node);
}

/* Make an emptied block ready to be carved again. */
static void
gen_block_mark_empty(GenerationBlock *block)
{
    char *start = (char *)block + GEN_BLOCKHDRSZ;

    if (config_mcxt_checking) {
        VALGRIND_MAKE_MEM_UNDEFINED(start, (Size)(block->freeptr - start));
        mcxt_wipe(start, (Size)(block->freeptr - start));
    }
    block->nchunks = 0;
    block->nfree = 0;
    block->freeptr = start;
    VALGRIND_MAKE_MEM_NOACCESS(start, gen_block_free_space(block));
}

static void
gen_block_free(GenerationContext *set, GenerationBlock *block)
{
    dlist_delete(&block->node);
    set->header.mem_allocated -= block->blksize;
    tdb_mcxt_registry_remove(block);
    tdb_mcxt_block_free(block, block->blksize);
}

MemoryContext
tdb_generation_create(MemoryContext parent, const char *name,
                      Size minContextSize, Size initBlockSize,
                      Size maxBlockSize)
{
    Size firstBlockSize, allocSize;
    GenerationContext *set;

    if (initBlockSize < 1024 || initBlockSize != MAXALIGN(initBlockSize) ||
        maxBlockSize < initBlockSize ||
        maxBlockSize > MEMORYCHUNK_MAX_BLOCKOFFSET ||
        maxBlockSize != MAXALIGN(maxBlockSize) ||
        minContextSize != MAXALIGN(minContextSize) ||
        minContextSize > MEMORYCHUNK_MAX_BLOCKOFFSET)
        elog(ERROR, "invalid block sizes for memory context \"%s\"", name);

    firstBlockSize = minContextSize != 0 ? minContextSize : initBlockSize;
    if (firstBlockSize < GEN_BLOCKHDRSZ + GEN_CHUNKHDRSZ + 8)
        firstBlockSize = GEN_BLOCKHDRSZ + GEN_CHUNKHDRSZ + 8;
    allocSize = GEN_CONTEXTSZ + firstBlockSize;

    set = tdb_mcxt_block_alloc(allocSize);
    if (set == NULL)
        tdb_mcxt_create_failed(name, allocSize);
    memset(set, 0, sizeof(*set));
    dlist_init(&set->blocks);

    set->keeper = (GenerationBlock *)((char *)set + GEN_CONTEXTSZ);
    gen_init_block(set, set->keeper, firstBlockSize);
    set->block = set->keeper;
    set->freeblock = NULL;
    set->initBlockSize = initBlockSize;
    set->maxBlockSize = maxBlockSize;
    set->nextBlockSize = initBlockSize;
    set->allocChunkLimit = (maxBlockSize - GEN_BLOCKHDRSZ) /
                               GENERATION_CHUNK_FRACTION -
                           GEN_CHUNKHDRSZ;
    if (set->allocChunkLimit > MEMORYCHUNK_MAX_VALUE)
        set->allocChunkLimit = MEMORYCHUNK_MAX_VALUE;

    set->header.mem_allocated = allocSize;
    tdb_mcxt_init_header(&set->header, MCTX_GENERATION_ID, parent, name);
    return &set->header;
}

static inline void *
gen_hand_out(MemoryChunk *chunk, Size size, Size usable)
{
    void *pointer = MemoryChunkGetPointer(chunk);

    VALGRIND_MAKE_MEM_UNDEFINED(pointer, usable);
#ifdef MEMORY_CONTEXT_CHECKING
    chunk->requested_size = size;
    mcxt_set_sentinel(pointer, size, usable);
#else
    (void)size;
    (void)usable;
#endif
    return pointer;
}

static TDB_NOINLINE void *
gen_alloc_large(GenerationContext *set, Size size, Size chunk_size, int flags)
{
    Size blksize = chunk_size + GEN_BLOCKHDRSZ + GEN_CHUNKHDRSZ;
    GenerationBlock *block = tdb_mcxt_block_alloc(blksize);
    MemoryChunk *chunk;

    if (block == NULL)
        return mcxt_alloc_oom(&set->header, size, flags);
    set->header.mem_allocated += blksize;
    gen_init_block(set, block, blksize);
    block->nchunks = 1;
    block->freeptr = block->endptr;

    chunk = (MemoryChunk *)((char *)block + GEN_BLOCKHDRSZ);
    VALGRIND_MAKE_MEM_UNDEFINED(chunk, GEN_CHUNKHDRSZ);
    MemoryChunkSetHdrMaskExternal(chunk, MCTX_GENERATION_ID);
    return gen_hand_out(chunk, size, chunk_size);
}

/* Find or make a block with room for `required` bytes of chunk + header. */
static GenerationBlock *
gen_block_for(GenerationContext *set, Size required)
{
    GenerationBlock *block = set->freeblock;
    Size blksize;

    if (block != NULL && gen_block_free_space(block) >= required) {
        set->freeblock = NULL;
        return block;
    }

    blksize = set->nextBlockSize;
    set->nextBlockSize <<= 1;
    if (set->nextBlockSize > set->maxBlockSize)
        set->nextBlockSize = set->maxBlockSize;
    while (blksize < required + GEN_BLOCKHDRSZ)
        blksize <<= 1;

    block = tdb_mcxt_block_alloc(blksize);
    if (block == NULL)
        return NULL;
    set->header.mem_allocated += blksize;
    gen_init_block(set, block, blksize);
    return block;
}

/* Carve a chunk from a block known to have room. */
static inline void *
gen_carve(GenerationBlock *block, Size size, Size chunk_size)
{
    MemoryChunk *chunk = (MemoryChunk *)block->freeptr;

    VALGRIND_MAKE_MEM_UNDEFINED(chunk, GEN_CHUNKHDRSZ);
    block->freeptr += chunk_size + GEN_CHUNKHDRSZ;
    block->nchunks++;
    MemoryChunkSetHdrMask(chunk, block, chunk_size, MCTX_GENERATION_ID);
    return gen_hand_out(chunk, size, chunk_size);
}

/* The current block is full: switch to the spare or a new block. */
static TDB_NOINLINE void *
gen_alloc_from_new_block(GenerationContext *set, Size size, Size chunk_size,
                         int flags)
{
    GenerationBlock *block = gen_block_for(set, chunk_size + GEN_CHUNKHDRSZ);

    if (block == NULL)
        return mcxt_alloc_oom(&set->header, size, flags);
    set->block = block;
    return gen_carve(block, size, chunk_size);
}

static void *
gen_alloc(MemoryContext cxt, Size size, int flags)
{
    GenerationContext *set = (GenerationContext *)cxt;
    Size chunk_size = gen_chunk_size(size);
    GenerationBlock *block = set->block;

    if (unlikely(chunk_size > set->allocChunkLimit))
        return gen_alloc_large(set, size, chunk_size, flags);
    if (unlikely(gen_block_free_space(block) < chunk_size + GEN_CHUNKHDRSZ))
        return gen_alloc_from_new_block(set, size, chunk_size, flags);
    return gen_carve(block, size, chunk_size);
}

/* Checking builds: refuse double frees, warn about overruns. */
static void
gen_check_before_free(GenerationContext *set, MemoryChunk *chunk,
                      Size usable)
{
#ifdef MEMORY_CONTEXT_CHECKING
    void *pointer = MemoryChunkGetPointer(chunk);

    if (chunk->requested_size == MCHUNK_SIZE_FREED)
        tdb_mcxt_corrupt(&set->header, pointer,
                         "double free (pfree of an already freed chunk)");
    if (!mcxt_sentinel_ok(pointer, chunk->requested_size, usable))
        ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("detected write past chunk end in memory context "
                       "\"%s\" %p",
                       set->header.name, pointer));
#else
    (void)set;
    (void)chunk;
    (void)usable;
#endif
}

void
tdb_generation_free(void *pointer)
{
    MemoryChunk *chunk = PointerGetMemoryChunk(pointer);
    GenerationBlock *block = gen_block_of(chunk);
    GenerationContext *set = block->context;
    Size usable = gen_usable(block, chunk);

    gen_check_before_free(set, chunk, usable);
    if (config_mcxt_checking) {
        /* a dedicated block goes straight back to the OS: no need */
        if (!MemoryChunkIsExternal(chunk))
            mcxt_wipe(pointer, usable);
#ifdef MEMORY_CONTEXT_CHECKING
        chunk->requested_size = MCHUNK_SIZE_FREED;
#endif
    }
    VALGRIND_MAKE_MEM_NOACCESS(pointer, usable);

    block->nfree++;
    Assert(block->nfree <= block->nchunks);
    if (block->nfree < block->nchunks)
        return;

    /* The block is empty. */
    if (block == set->block || block == set->keeper) {
        gen_block_mark_empty(block);
    } else if (set->freeblock == NULL && !MemoryChunkIsExternal(chunk)) {
        gen_block_mark_empty(block);
        set->freeblock = block;
    } else {
        gen_block_free(set, block);
    }
}

static void *
gen_realloc(void *pointer, Size size, int flags)
{
    MemoryChunk *chunk = PointerGetMemoryChunk(pointer);
    GenerationBlock *block = gen_block_of(chunk);
    GenerationContext *set = block->context;
    Size usable = gen_usable(block, chunk);
    Size copy = usable;
    void *newp;

    gen_check_before_free(set, chunk, usable);
    if (gen_chunk_size(size) <= usable) {
#ifdef MEMORY_CONTEXT_CHECKING
        if (size > chunk->requested_size)
            VALGRIND_MAKE_MEM_UNDEFINED((char *)pointer +
                                            chunk->requested_size,
                                        size - chunk->requested_size);
        chunk->requested_size = size;
        mcxt_set_sentinel(pointer, size, usable);
#endif
        return pointer;
    }
#ifdef MEMORY_CONTEXT_CHECKING
    copy = chunk->requested_size;
#endif
    newp = gen_alloc(&set->header, size, flags);
    if (newp == NULL)
        return NULL;
    memcpy(newp, pointer, copy < size ? copy : size);
    tdb_generation_free(pointer);
    return newp;
}

static MemoryContext
gen_get_chunk_context(void *pointer)
{
    return &gen_block_of(PointerGetMemoryChunk(pointer))->context->header;
}

static Size
gen_get_chunk_space(void *pointer)
{
    MemoryChunk *chunk = PointerGetMemoryChunk(pointer);

    return gen_usable(gen_block_of(chunk), chunk) + GEN_CHUNKHDRSZ;
}

static int gen_check(MemoryContext cxt);

static void
gen_reset(MemoryContext cxt)
{
    GenerationContext *set = (GenerationContext *)cxt;
    dlist_mutable_iter iter;

    if (config_mcxt_checking)
        gen_check(cxt);
    dlist_foreach_modify(iter, &set->blocks) {
        GenerationBlock *block =
            dlist_container(GenerationBlock, node, iter.cur);

        if (block == set->keeper)
            gen_block_mark_empty(block);
        else
            gen_block_free(set, block);
    }
    set->block = set->keeper;
    set->freeblock = NULL;
    set->nextBlockSize = set->initBlockSize;
}

static void
gen_delete(MemoryContext cxt)
{
    GenerationContext *set = (GenerationContext *)cxt;
    Size keeper_size = GEN_CONTEXTSZ + set->keeper->blksize;

    gen_reset(cxt);
    dlist_delete(&set->keeper->node);
    tdb_mcxt_registry_remove(set->keeper);
    tdb_mcxt_block_free(set, keeper_size);
}

static bool
gen_is_empty(MemoryContext cxt)
{
    GenerationContext *set = (GenerationContext *)cxt;

    for (dlist_node *n = dlist_first(&set->blocks); n != NULL;
         n = dlist_next(&set->blocks, n)) {
        GenerationBlock *block = dlist_container(GenerationBlock, node, n);

        if (block->nchunks > block->nfree)
            return false;
    }
    return true;
}

static void
gen_stats(MemoryContext cxt, MemoryContextCounters *totals)
{
    GenerationContext *set = (GenerationContext *)cxt;

    totals->totalspace += GEN_CONTEXTSZ;
    for (dlist_node *n = dlist_first(&set->blocks); n != NULL;
         n = dlist_next(&set->blocks, n)) {
        GenerationBlock *block = dlist_container(GenerationBlock, node, n);

        totals->nblocks++;
        totals->nchunks += (Size)(block->nchunks - block->nfree);
        totals->freechunks += (Size)block->nfree;
        totals->totalspace += block->blksize;
        totals->freespace += gen_block_free_space(block);
    }
}

/* Walk all chunks: headers, sentinels, freed-chunk wipes, counts. */
static int
gen_check(MemoryContext cxt)
{
    int problems = 0;
#ifdef MEMORY_CONTEXT_CHECKING
    GenerationContext *set = (GenerationContext *)cxt;

    for (dlist_node *n = dlist_first(&set->blocks); n != NULL;
         n = dlist_next(&set->blocks, n)) {
        GenerationBlock *block = dlist_container(GenerationBlock, node, n);
        char *p = (char *)block + GEN_BLOCKHDRSZ;
        int32 nchunks = 0, nfree = 0;

        while (p < block->freeptr) {
            MemoryChunk *chunk = (MemoryChunk *)p;
            void *pointer = chunk + 1;
            Size usable;

            if (!MemoryChunkIsExternal(chunk) &&
                (MemoryChunkGetBlock(chunk) != (void *)block ||
                 MemoryChunkGetMethodID(chunk) != MCTX_GENERATION_ID)) {
                ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("corrupt chunk header %p in memory context "
                               "\"%s\"", pointer, cxt->name));
                problems++;
                break;
            }
            usable = gen_usable(block, chunk);
            nchunks++;
            if (chunk->requested_size == MCHUNK_SIZE_FREED)
                nfree++;
            else if (!mcxt_sentinel_ok(pointer, chunk->requested_size,
                                       usable)) {
                ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("detected write past chunk end in memory "
                               "context \"%s\" %p", cxt->name, pointer));
                problems++;
            }
            p = (char *)pointer + usable;
        }
        if (nchunks != block->nchunks || nfree != block->nfree) {
            ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("block %p in memory context \"%s\" counts %d "
                           "chunks (%d free) but holds %d (%d free)",
                           (void *)block, cxt->name, block->nchunks,
                           block->nfree, nchunks, nfree));
            problems++;
        }
    }
#else
    (void)cxt;
#endif
    return problems;
}

const MemoryContextMethods tdb_generation_methods = {
    .alloc = gen_alloc,
    .free_p = tdb_generation_free,
    .realloc = gen_realloc,
    .reset = gen_reset,
    .delete_context = gen_delete,
    .get_chunk_context = gen_get_chunk_context,
    .get_chunk_space = gen_get_chunk_space,
    .is_empty = gen_is_empty,
    .stats = gen_stats,
    .check = gen_check,
    .external_chunk_offset = GEN_BLOCKHDRSZ,
};
