/*
 * slab.c -- Slab, a memory context for chunks of one fixed size.
 *
 * Design
 * ------
 * Every block holds chunksPerBlock chunks of fullChunkSize bytes (8-byte
 * header + MAXALIGN(chunkSize)).  Each block keeps
 *   - a free list threaded through its freed chunks (the link lives in the
 *     chunk's user bytes), reused first because those are warm in cache;
 *   - an "unused" watermark: chunks past it were never handed out, so a new
 *     block needs no free-list initialisation at all.
 * Both allocation and free are O(1).
 *
 * Fullness ordering: blocks with free space sit in one of
 * SLAB_BLOCKLIST_COUNT - 1 lists bucketed by their number of free chunks
 * (list 0 holds full blocks).  Allocation always takes the first block of
 * the lowest non-empty bucket -- the fullest blocks -- so that sparse
 * blocks drain and can be returned.  A block whose last chunk is freed is
 * kept on an empty-block list (up to SLAB_MAXIMUM_EMPTY_BLOCKS, to absorb
 * alloc/free oscillation) or given back to the OS.
 *
 *   block: | SlabBlock | hdr chunk | hdr chunk | ... | hdr chunk | slack |
 *                                              ^unused
 *
 * Checking builds reserve a sentinel byte after each chunk, wipe freed
 * chunks with 0x7F and keep a second copy of the free-list link in the
 * header's requested_size (XORed with MCHUNK_FREED_XOR), exactly as
 * AllocSet does, to catch double frees and writes after free.
 *
 * Invariants: a block is in exactly one of blocklist[slab_list_index(nfree)]
 * (when 0 < nfree < chunksPerBlock, or nfree == 0) or emptyblocks (nfree ==
 * chunksPerBlock); curBlocklistIndex is the lowest non-empty bucket >= 1, or
 * 0 if there is none.
 */
#include "common/base.h"

#include "common/dlist.h"
#include "mmgr/mcxt_int.h"

#define SLAB_BLOCKLIST_COUNT 4
#define SLAB_MAXIMUM_EMPTY_BLOCKS 10

typedef struct SlabContext SlabContext;

typedef struct SlabBlock {
    SlabContext *slab;     /* owner */
    int32 nfree;           /* free chunks: on the free list + unused */
    int32 nunused;         /* chunks past the watermark */
    MemoryChunk *freehead; /* free list of returned chunks */
    char *unused;          /* first never-used chunk */
    dlist_node node;       /* in one blocklist[] or emptyblocks */
} SlabBlock;

struct SlabContext {
    MemoryContextData header;
    Size chunkSize;          /* the one size callers request */
    Size fullChunkSize;      /* header + usable bytes */
    Size blockSize;
    int32 chunksPerBlock;
    int32 blocklist_shift;   /* nfree >> shift picks the bucket */
    int32 curBlocklistIndex; /* lowest non-empty bucket >= 1, or 0 */
    int32 nemptyblocks;
    dlist_head emptyblocks;
    dlist_head blocklist[SLAB_BLOCKLIST_COUNT];
};

#define SLAB_BLOCKHDRSZ MAXALIGN(sizeof(SlabBlock))
#define SLAB_CHUNKHDRSZ sizeof(MemoryChunk)
#define SLAB_CONTEXTSZ MAXALIGN(sizeof(SlabContext))

static inline Size
slab_usable(const SlabContext *slab)
{
    return slab->fullChunkSize - SLAB_CHUNKHDRSZ;
}

/* Bucket of a block with nfree free chunks (0 = full). */
static inline int
slab_list_index(const SlabContext *slab, int32 nfree)
{
    if (nfree == 0)
        return 0;
    return ((nfree - 1) >> slab->blocklist_shift) + 1;
}

static void
slab_update_cur_index(SlabContext *slab)
{
    slab->curBlocklistIndex = 0;
    for (int i = 1; i < SLAB_BLOCKLIST_COUNT; i++) {
        if (!dlist_is_empty(&slab->blocklist[i])) {
            slab->curBlocklistIndex = i;
            break;
        }
    }
}

static inline MemoryChunk **
slab_link_slot(MemoryChunk *chunk)
{
    return (MemoryChunk **)MemoryChunkGetPointer(chunk);
}

MemoryContext
tdb_slab_create(MemoryContext parent, const char *name, Size blockSize,
                Size chunkSize)
{
    Size usable = MAXALIGN(config_mcxt_checking ? chunkSize + 1 : chunkSize);
    Size fullChunkSize;
    Size chunksPerBlock;
    SlabContext *slab;

    if (usable < sizeof(MemoryChunk *))
        usable = sizeof(MemoryChunk *); /* room for the free-list link */
    fullChunkSize = SLAB_CHUNKHDRSZ + usable;
    if (chunkSize > MEMORYCHUNK_MAX_VALUE ||
        blockSize > MEMORYCHUNK_MAX_BLOCKOFFSET ||
        blockSize != MAXALIGN(blockSize) ||
        blockSize < SLAB_BLOCKHDRSZ + fullChunkSize)
        elog(ERROR,
             "block size %zu for slab memory context \"%s\" is too small "
             "for %zu-byte chunks",
             blockSize, name, chunkSize);
    chunksPerBlock = (blockSize - SLAB_BLOCKHDRSZ) / fullChunkSize;
    if (chunksPerBlock > INT32_MAX)
        elog(ERROR, "too many chunks per block for slab memory context \"%s\"",
             name);

    slab = tdb_mcxt_block_alloc(SLAB_CONTEXTSZ);
    if (slab == NULL)
        tdb_mcxt_create_failed(name, SLAB_CONTEXTSZ);
    memset(slab, 0, sizeof(*slab));
    slab->chunkSize = chunkSize;
    slab->fullChunkSize = fullChunkSize;
    slab->blockSize = blockSize;
    slab->chunksPerBlock = (int32)chunksPerBlock;
    /* smallest shift mapping 1..chunksPerBlock onto buckets 1..COUNT-1 */
    slab->blocklist_shift = 0;
    while (((slab->chunksPerBlock - 1) >> slab->blocklist_shift) >=
           SLAB_BLOCKLIST_COUNT - 1)
        slab->blocklist_shift++;
    dlist_init(&slab->emptyblocks);
    for (int i = 0; i < SLAB_BLOCKLIST_COUNT; i++)
        dlist_init(&slab->blocklist[i]);

    slab->header.mem_allocated = SLAB_CONTEXTSZ;
    tdb_mcxt_init_header(&slab->header, MCTX_SLAB_ID, parent, name);
    return &slab->header;
}

/* Make a block hold nothing: every chunk behind the unused watermark. */
static void
slab_block_make_empty(SlabContext *slab, SlabBlock *block)
{
    block->nfree = slab->chunksPerBlock;
    block->nunused = slab->chunksPerBlock;
    block->freehead = NULL;
    block->unused = (char *)block + SLAB_BLOCKHDRSZ;
    VALGRIND_MAKE_MEM_NOACCESS(block->unused,
                               slab->blockSize - SLAB_BLOCKHDRSZ);
}

static SlabBlock *
slab_new_block(SlabContext *slab)
{
    SlabBlock *block = tdb_mcxt_block_alloc(slab->blockSize);

    if (block == NULL)
        return NULL;
    slab->header.mem_allocated += slab->blockSize;
    tdb_mcxt_registry_add(block, slab->blockSize);
    block->slab = slab;
    slab_block_make_empty(slab, block);
    return block;
}

static void
slab_free_block(SlabContext *slab, SlabBlock *block)
{
    slab->header.mem_allocated -= slab->blockSize;
    tdb_mcxt_registry_remove(block);
    tdb_mcxt_block_free(block, slab->blockSize);
}

/* Take one chunk from a block that has a free one. */
static MemoryChunk *
slab_take_chunk(SlabContext *slab, SlabBlock *block)
{
    MemoryChunk *chunk = block->freehead;

    if (chunk != NULL) {
        MemoryChunk *next;
#ifdef MEMORY_CONTEXT_CHECKING
        unsigned char *p = MemoryChunkGetPointer(chunk);
        bool damaged;

        next = (MemoryChunk *)(uintptr_t)(chunk->requested_size ^
                                          MCHUNK_FREED_XOR);
        VALGRIND_MAKE_MEM_DEFINED(p, slab_usable(slab));
        damaged = *slab_link_slot(chunk) != next;
        for (Size i = sizeof(void *); i < slab_usable(slab) && !damaged; i++)
            damaged = p[i] != MCXT_WIPE_BYTE;
        if (damaged)
            ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("detected write to chunk %p in memory context "
                           "\"%s\" after it was freed",
                           (void *)p, slab->header.name));
#else
        next = *slab_link_slot(chunk);
#endif
        block->freehead = next;
    } else {
        Assert(block->nunused > 0);
        chunk = (MemoryChunk *)block->unused;
        VALGRIND_MAKE_MEM_UNDEFINED(chunk, SLAB_CHUNKHDRSZ);
        block->unused += slab->fullChunkSize;
        block->nunused--;
        MemoryChunkSetHdrMask(chunk, block, slab_usable(slab), MCTX_SLAB_ID);
    }
    block->nfree--;
    return chunk;
}

static void *
slab_alloc(MemoryContext cxt, Size size, int flags)
{
    SlabContext *slab = (SlabContext *)cxt;
    SlabBlock *block;
    MemoryChunk *chunk;
    int old_index, new_index;
    void *pointer;

    if (unlikely(size != slab->chunkSize))
        elog(ERROR,
             "unexpected alloc chunk size %zu (expected %zu) in slab memory "
             "context \"%s\"",
             size, slab->chunkSize, cxt->name);

    if (slab->curBlocklistIndex != 0) {
        dlist_node *n = dlist_first(&slab->blocklist[slab->curBlocklistIndex]);

        block = dlist_container(SlabBlock, node, n);
        old_index = slab->curBlocklistIndex;
    } else {
        dlist_node *n = dlist_first(&slab->emptyblocks);

        if (n != NULL) {
            block = dlist_container(SlabBlock, node, n);
            dlist_delete(n);
            slab->nemptyblocks--;
        } else {
            block = slab_new_block(slab);
            if (block == NULL)
                return mcxt_alloc_oom(cxt, size, flags);
        }
        old_index = -1; /* in no bucket yet */
    }

    chunk = slab_take_chunk(slab, block);
    new_index = slab_list_index(slab, block->nfree);
    if (new_index != old_index) {
        if (old_index >= 0)
            dlist_delete(&block->node);
        dlist_push_head(&slab->blocklist[new_index], &block->node);
        slab_update_cur_index(slab);
    }

    pointer = MemoryChunkGetPointer(chunk);
    VALGRIND_MAKE_MEM_UNDEFINED(pointer, slab_usable(slab));
#ifdef MEMORY_CONTEXT_CHECKING
    chunk->requested_size = size;
    mcxt_set_sentinel(pointer, size, slab_usable(slab));
#endif
    return pointer;
}

static void
slab_check_before_free(SlabContext *slab, MemoryChunk *chunk)
{
#ifdef MEMORY_CONTEXT_CHECKING
    void *pointer = MemoryChunkGetPointer(chunk);

    if ((chunk->requested_size >> 63) != 0)
        tdb_mcxt_corrupt(&slab->header, pointer,
                         "double free (pfree of an already freed chunk)");
    if (!mcxt_sentinel_ok(pointer, chunk->requested_size, slab_usable(slab)))
        ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("detected write past chunk end in memory context "
                       "\"%s\" %p",
                       slab->header.name, pointer));
#else
    (void)slab;
    (void)chunk;
#endif
}

void
tdb_slab_free(void *pointer)
{
    MemoryChunk *chunk = PointerGetMemoryChunk(pointer);
    SlabBlock *block = MemoryChunkGetBlock(chunk);
    SlabContext *slab = block->slab;
    int old_index, new_index;

    slab_check_before_free(slab, chunk);
    if (config_mcxt_checking) {
        mcxt_wipe(pointer, slab_usable(slab));
#ifdef MEMORY_CONTEXT_CHECKING
        chunk->requested_size =
            (Size)(uintptr_t)block->freehead ^ MCHUNK_FREED_XOR;
#endif
    }
    *slab_link_slot(chunk) = block->freehead;
    block->freehead = chunk;
    VALGRIND_MAKE_MEM_NOACCESS(pointer, slab_usable(slab));

    old_index = slab_list_index(slab, block->nfree);
    block->nfree++;

    if (block->nfree == slab->chunksPerBlock) {
        /* Now empty: keep a few for reuse, return the rest. */
        dlist_delete(&block->node);
        if (slab->nemptyblocks < SLAB_MAXIMUM_EMPTY_BLOCKS) {
            slab_block_make_empty(slab, block);
            dlist_push_head(&slab->emptyblocks, &block->node);
            slab->nemptyblocks++;
        } else {
            slab_free_block(slab, block);
        }
        slab_update_cur_index(slab);
        return;
    }

    new_index = slab_list_index(slab, block->nfree);
    if (new_index != old_index) {
        dlist_delete(&block->node);
        dlist_push_head(&slab->blocklist[new_index], &block->node);
        slab_update_cur_index(slab);
    }
}

static void *
slab_realloc(void *pointer, Size size, int flags)
{
    MemoryChunk *chunk = PointerGetMemoryChunk(pointer);
    SlabBlock *block = MemoryChunkGetBlock(chunk);
    SlabContext *slab = block->slab;

    (void)flags;
    slab_check_before_free(slab, chunk);
    if (size != slab->chunkSize)
        elog(ERROR,
             "slab memory context \"%s\" does not support realloc() to a "
             "different size (%zu, chunk size %zu)",
             slab->header.name, size, slab->chunkSize);
    return pointer;
}

static MemoryContext
slab_get_chunk_context(void *pointer)
{
    SlabBlock *block = MemoryChunkGetBlock(PointerGetMemoryChunk(pointer));

    return &block->slab->header;
}

static Size
slab_get_chunk_space(void *pointer)
{
    SlabBlock *block = MemoryChunkGetBlock(PointerGetMemoryChunk(pointer));

    return block->slab->fullChunkSize;
}

static int slab_check(MemoryContext cxt);

/* Free every block on a list. */
static void
slab_free_list(SlabContext *slab, dlist_head *list)
{
    dlist_mutable_iter iter;

    dlist_foreach_modify(iter, list) {
        SlabBlock *block = dlist_container(SlabBlock, node, iter.cur);

        dlist_delete(iter.cur);
        slab_free_block(slab, block);
    }
}

static void
slab_reset(MemoryContext cxt)
{
    SlabContext *slab = (SlabContext *)cxt;

    if (config_mcxt_checking)
        slab_check(cxt);
    slab_free_list(slab, &slab->emptyblocks);
    slab->nemptyblocks = 0;
    for (int i = 0; i < SLAB_BLOCKLIST_COUNT; i++)
        slab_free_list(slab, &slab->blocklist[i]);
    slab->curBlocklistIndex = 0;
}

static void
slab_delete(MemoryContext cxt)
{
    slab_reset(cxt);
    tdb_mcxt_block_free(cxt, SLAB_CONTEXTSZ);
}

static bool
slab_is_empty(MemoryContext cxt)
{
    SlabContext *slab = (SlabContext *)cxt;

    for (int i = 0; i < SLAB_BLOCKLIST_COUNT; i++)
        if (!dlist_is_empty(&slab->blocklist[i]))
            return false;
    return true;
}

/* Apply fn to every block of the context, empty ones included. */
#define SLAB_FOREACH_BLOCK(slab, block, body)                               \
    do {                                                                    \
        for (int list_ = -1; list_ < SLAB_BLOCKLIST_COUNT; list_++) {       \
            dlist_head *head_ = list_ < 0 ? &(slab)->emptyblocks            \
                                          : &(slab)->blocklist[list_];      \
            for (dlist_node *n_ = dlist_first(head_); n_ != NULL;           \
                 n_ = dlist_next(head_, n_)) {                              \
                SlabBlock *block = dlist_container(SlabBlock, node, n_);    \
                body                                                        \
            }                                                               \
        }                                                                   \
    } while (0)

static void
slab_stats(MemoryContext cxt, MemoryContextCounters *totals)
{
    SlabContext *slab = (SlabContext *)cxt;
    Size slack = slab->blockSize - SLAB_BLOCKHDRSZ -
                 (Size)slab->chunksPerBlock * slab->fullChunkSize;

    totals->totalspace += SLAB_CONTEXTSZ;
    SLAB_FOREACH_BLOCK(slab, block, {
        totals->nblocks++;
        totals->totalspace += slab->blockSize;
        totals->nchunks += (Size)(slab->chunksPerBlock - block->nfree);
        totals->freechunks += (Size)block->nfree;
        totals->freespace += (Size)block->nfree * slab->fullChunkSize + slack;
    });
}

/* Verify free-list lengths, freed-chunk wipes and live-chunk sentinels. */
static int
slab_check(MemoryContext cxt)
{
    int problems = 0;
#ifdef MEMORY_CONTEXT_CHECKING
    SlabContext *slab = (SlabContext *)cxt;

    SLAB_FOREACH_BLOCK(slab, block, {
        int32 nfreelist = 0;
        char *p = (char *)block + SLAB_BLOCKHDRSZ;

        for (; p < block->unused; p += slab->fullChunkSize) {
            MemoryChunk *chunk = (MemoryChunk *)p;
            unsigned char *u = (unsigned char *)(chunk + 1);

            if ((chunk->requested_size >> 63) != 0) {
                MemoryChunk *trusted = (MemoryChunk *)(uintptr_t)(
                    chunk->requested_size ^ MCHUNK_FREED_XOR);
                bool damaged;

                nfreelist++;
                VALGRIND_MAKE_MEM_DEFINED(u, slab_usable(slab));
                damaged = *slab_link_slot(chunk) != trusted;
                for (Size i = sizeof(void *); i < slab_usable(slab) && !damaged;
                     i++)
                    damaged = u[i] != MCXT_WIPE_BYTE;
                VALGRIND_MAKE_MEM_NOACCESS(u, slab_usable(slab));
                if (damaged) {
                    ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                            errmsg("detected write to chunk %p in memory "
                                   "context \"%s\" after it was freed",
                                   (void *)u, cxt->name));
                    problems++;
                }
            } else if (!mcxt_sentinel_ok(u, chunk->requested_size,
                                         slab_usable(slab))) {
                ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("detected write past chunk end in memory "
                               "context \"%s\" %p", cxt->name, (void *)u));
                problems++;
            }
        }
        if (nfreelist + block->nunused != block->nfree) {
            ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("block %p in slab memory context \"%s\" counts %d "
                           "free chunks but has %d",
                           (void *)block, cxt->name, block->nfree,
                           nfreelist + block->nunused));
            problems++;
        }
    });
#else
    (void)cxt;
#endif
    return problems;
}

const MemoryContextMethods tdb_slab_methods = {
    .alloc = slab_alloc,
    .free_p = tdb_slab_free,
    .realloc = slab_realloc,
    .reset = slab_reset,
    .delete_context = slab_delete,
    .get_chunk_context = slab_get_chunk_context,
    .get_chunk_space = slab_get_chunk_space,
    .is_empty = slab_is_empty,
    .stats = slab_stats,
    .check = slab_check,
    .external_chunk_offset = 0, /* slab chunks are never external */
};
