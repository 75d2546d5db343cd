/*
 * aset.c -- AllocSet, the general-purpose memory context.
 *
 * Design
 * ------
 * Small requests (up to allocChunkLimit, normally 8 kB) are rounded up to a
 * power of two, 8 << k bytes for k = 0..10, and carved from the head block.
 * A freed small chunk goes onto the free list of its size class; the list
 * link is stored inside the freed chunk's own user bytes, which is why the
 * smallest class is 8 bytes and why the chunk header can stay at 8 bytes
 * (memchunk.h: the header's value field holds the class index k).  Nothing
 * goes back to the OS before reset or delete.
 *
 * Blocks grow geometrically: the first one is carved together with the
 * context struct (the "keeper", never freed by reset, so a per-row context
 * reset a million times never calls malloc), later ones double from
 * initBlockSize up to maxBlockSize.  When the head block cannot fit a
 * request, its remainder is cut into the largest power-of-two chunks that
 * fit and pushed onto the free lists before a new block becomes the head.
 *
 * Requests above allocChunkLimit get a dedicated block holding one external
 * chunk (memchunk.h), linked second in the block list so that the head
 * keeps serving small requests; pfree hands it straight back to the OS and
 * repalloc resizes it with realloc.
 *
 *    context+keeper block             later block
 *   +-----------+-------+------+---+  +-------+------+------+-----------+
 *   |AllocSet   |Block  |hdr|p |...|  |Block  |hdr|p |hdr|p |  unused   |
 *   |Context    |Data   |   |  |   |  |Data   |   |  |   |  |           |
 *   +-----------+-------+------+---+  +-------+------+------+-----------+
 *                                                          ^freeptr    ^endptr
 *
 * Checking builds
 * ---------------
 * Sizes are classed by size + 1 so every chunk has room for a sentinel byte
 * after the requested bytes.  A freed chunk is wiped with 0x7F; its header's
 * requested_size then holds a copy of the free-list link XORed with
 * MCHUNK_FREED_XOR, which (a) marks the chunk freed, so a second pfree is
 * reported as a double free, and (b) lets reuse compare the link stored in
 * the user bytes against the copy: a mismatch, or wipe bytes that changed,
 * means someone wrote to the chunk after freeing it.  The header's copy is
 * trusted, so the free list survives such a write.
 *
 * Invariants: every small chunk's header value is its class index; blocks
 * are MAXALIGNed and at most MEMORYCHUNK_MAX_BLOCKOFFSET bytes; the keeper
 * is always in the block list; mem_allocated equals the bytes of all blocks
 * (context struct included) obtained from the OS.
 */
#include "common/base.h"

#include "mmgr/mcxt_int.h"

#define ALLOC_MINBITS 3 /* smallest chunk is 8 bytes */
#define ALLOCSET_NUM_FREELISTS 11
#define ALLOC_CHUNK_LIMIT (1 << (ALLOCSET_NUM_FREELISTS - 1 + ALLOC_MINBITS))
/* Each block must hold at least this many maximum-size chunks. */
#define ALLOC_CHUNK_FRACTION 4

typedef struct AllocSetContext AllocSetContext;
typedef AllocSetContext *AllocSet;
typedef struct AllocBlockData *AllocBlock;

typedef struct AllocBlockData {
    AllocSet aset;    /* owning context */
    AllocBlock prev;  /* block list: head is the one being carved */
    AllocBlock next;
    char *freeptr;    /* first unused byte */
    char *endptr;     /* end of the block */
} AllocBlockData;

struct AllocSetContext {
    MemoryContextData header;
    /*
     * The head block's carving state lives here rather than in the block
     * while it is the head: the common allocation path then touches only
     * the context (one fewer dependent load), and the chunk header is one
     * add away (hdr_bias).  The head block's own freeptr is stale until
     * aset_head_store() writes it back, which every slow path that walks
     * blocks does first.
     */
    char *freeptr;   /* head block: first unused byte */
    char *endptr;    /* head block: its end */
    uint64 hdr_bias; /* MCTX_ASET_ID - (head block address << 34): a
                      * chunk at p gets hdrmask (p << 34) + hdr_bias +
                      * (class << 5), which equals MemoryChunkSetHdrMask */
    AllocBlock blocks;                               /* head block */
    MemoryChunk *freelist[ALLOCSET_NUM_FREELISTS];   /* per size class */
    Size initBlockSize;
    Size maxBlockSize;
    Size nextBlockSize;
    Size allocChunkLimit; /* larger requests get dedicated blocks */
    AllocBlock keeper;    /* block allocated with the context */
};

#define ALLOC_BLOCKHDRSZ MAXALIGN(sizeof(AllocBlockData))
#define ALLOC_CHUNKHDRSZ sizeof(MemoryChunk)
#define ALLOC_CONTEXTSZ MAXALIGN(sizeof(AllocSetContext))

/* Bytes a request needs: checking builds keep one byte for the sentinel. */
static inline Size
aset_needed(Size size)
{
    return config_mcxt_checking ? size + 1 : size;
}

/* Size class k for a request of `need` bytes (need <= ALLOC_CHUNK_LIMIT). */
static inline Size
aset_freelist_index(Size need)
{
    if (need <= (1 << ALLOC_MINBITS))
        return 0;
    return (Size)(tdb_leftmost_one_pos64(need - 1) - ALLOC_MINBITS + 1);
}

static inline Size
aset_class_size(Size fidx)
{
    return (Size)(1 << ALLOC_MINBITS) << fidx;
}

/* Usable bytes of a small chunk. */
static inline Size
aset_small_chunk_size(const MemoryChunk *chunk)
{
    return aset_class_size(MemoryChunkGetValue(chunk));
}

static inline AllocBlock
aset_external_block(const MemoryChunk *chunk)
{
    return (AllocBlock)((char *)chunk - ALLOC_BLOCKHDRSZ);
}

static inline AllocSet
aset_of_chunk(const MemoryChunk *chunk)
{
    if (MemoryChunkIsExternal(chunk))
        return aset_external_block(chunk)->aset;
    return ((AllocBlock)MemoryChunkGetBlock(chunk))->aset;
}

/* Make the context's carving state that of the (new) head block. */
static inline void
aset_head_load(AllocSet set)
{
    AllocBlock head = set->blocks;

    set->freeptr = head->freeptr;
    set->endptr = head->endptr;
    set->hdr_bias = (uint64)MCTX_ASET_ID -
                    ((uint64)(uintptr_t)head << MEMORYCHUNK_BLOCKOFFSET_BASEBIT);
}

/* Write the carving state back into the head block. */
static inline void
aset_head_store(AllocSet set)
{
    set->blocks->freeptr = set->freeptr;
}

/* Bytes of a block as obtained from the OS (the keeper includes the
 * context struct in front of it). */
static inline Size
aset_block_size(AllocSet set, AllocBlock block)
{
    char *start = block == set->keeper ? (char *)set : (char *)block;

    return (Size)(block->endptr - start);
}

/* ----- free-list links (stored in the freed chunk's user bytes) ----- */

static inline MemoryChunk **
aset_link_slot(MemoryChunk *chunk)
{
    return (MemoryChunk **)MemoryChunkGetPointer(chunk);
}

static void
aset_push_free(AllocSet set, MemoryChunk *chunk, Size fidx)
{
    MemoryChunk *next = set->freelist[fidx];

    if (config_mcxt_checking) {
        Size usable = aset_class_size(fidx);

        mcxt_wipe(MemoryChunkGetPointer(chunk), usable);
#ifdef MEMORY_CONTEXT_CHECKING
        chunk->requested_size = (Size)(uintptr_t)next ^ MCHUNK_FREED_XOR;
#endif
    }
    *aset_link_slot(chunk) = next;
    set->freelist[fidx] = chunk;
    VALGRIND_MAKE_MEM_NOACCESS(MemoryChunkGetPointer(chunk),
                               aset_class_size(fidx));
}

#ifdef MEMORY_CONTEXT_CHECKING
static inline bool
aset_chunk_is_free(const MemoryChunk *chunk)
{
    return (chunk->requested_size >> 63) != 0;
}

/*
 * Checking builds: verify that a chunk on a free list was not written to
 * after being freed.  Returns the trusted link (the header's copy).
 */
static MemoryChunk *
aset_verify_free_chunk(AllocSet set, MemoryChunk *chunk, Size fidx,
                       bool warn)
{
    MemoryChunk *trusted =
        (MemoryChunk *)(uintptr_t)(chunk->requested_size ^ MCHUNK_FREED_XOR);
    unsigned char *p = MemoryChunkGetPointer(chunk);
    Size usable = aset_class_size(fidx);
    bool damaged;

    VALGRIND_MAKE_MEM_DEFINED(p, usable);
    damaged = *aset_link_slot(chunk) != trusted;
    for (Size i = sizeof(MemoryChunk *); i < usable && !damaged; i++)
        damaged = p[i] != MCXT_WIPE_BYTE;
    if (damaged && warn)
        ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("detected write to chunk %p in memory context \"%s\" "
                       "after it was freed",
                       (void *)p, set->header.name));
    return trusted;
}
#endif

/* ----- creation ----- */

static void
aset_init_block(AllocBlock block, AllocSet set, char *end)
{
    block->aset = set;
    block->prev = NULL;
    block->next = NULL;
    block->freeptr = (char *)block + ALLOC_BLOCKHDRSZ;
    block->endptr = end;
    tdb_mcxt_registry_add(block, (Size)(end - (char *)block));
    VALGRIND_MAKE_MEM_NOACCESS(block->freeptr,
                               (Size)(end - block->freeptr));
}

MemoryContext
tdb_aset_create(MemoryContext parent, const char *name, Size minContextSize,
                Size initBlockSize, Size maxBlockSize)
{
    Size firstBlockSize;
    AllocSet set;

    if (initBlockSize < 1024 || initBlockSize != MAXALIGN(initBlockSize) ||
        maxBlockSize < initBlockSize ||
        maxBlockSize > MEMORYCHUNK_MAX_BLOCKOFFSET ||
        maxBlockSize != MAXALIGN(maxBlockSize) ||
        (minContextSize != 0 &&
         (minContextSize != MAXALIGN(minContextSize) ||
          minContextSize > MEMORYCHUNK_MAX_BLOCKOFFSET)))
        elog(ERROR, "invalid block sizes for memory context \"%s\"", name);

    firstBlockSize = ALLOC_CONTEXTSZ + ALLOC_BLOCKHDRSZ + ALLOC_CHUNKHDRSZ;
    if (minContextSize != 0)
        firstBlockSize = firstBlockSize > minContextSize ? firstBlockSize
                                                         : minContextSize;
    else
        firstBlockSize = firstBlockSize > initBlockSize ? firstBlockSize
                                                        : initBlockSize;

    set = tdb_mcxt_block_alloc(firstBlockSize);
    if (set == NULL)
        tdb_mcxt_create_failed(name, firstBlockSize);
    memset(set, 0, sizeof(AllocSetContext));

    set->keeper = (AllocBlock)((char *)set + ALLOC_CONTEXTSZ);
    aset_init_block(set->keeper, set, (char *)set + firstBlockSize);
    set->blocks = set->keeper;
    aset_head_load(set);
    set->initBlockSize = initBlockSize;
    set->maxBlockSize = maxBlockSize;
    set->nextBlockSize = initBlockSize;

    /*
     * Halve the chunk limit until ALLOC_CHUNK_FRACTION maximum-size chunks
     * fit in a maximum-size block: bigger requests are better off in a
     * block of their own than wasting most of a small block.
     */
    set->allocChunkLimit = ALLOC_CHUNK_LIMIT;
    while ((Size)(set->allocChunkLimit + ALLOC_CHUNKHDRSZ) >
           (maxBlockSize - ALLOC_BLOCKHDRSZ) / ALLOC_CHUNK_FRACTION)
        set->allocChunkLimit >>= 1;

    set->header.mem_allocated = firstBlockSize;
    tdb_mcxt_init_header(&set->header, MCTX_ASET_ID, parent, name);
    return &set->header;
}

/* ----- allocation ----- */

/* Finish a chunk about to be handed out (checking: size, sentinel). */
static inline void *
aset_hand_out(MemoryChunk *chunk, Size size, Size usable)
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

/* A request above allocChunkLimit: a dedicated block, one external chunk. */
static TDB_NOINLINE void *
aset_alloc_large(AllocSet set, Size size, int flags)
{
    Size chunk_size = MAXALIGN(aset_needed(size));
    Size blksize = chunk_size + ALLOC_BLOCKHDRSZ + ALLOC_CHUNKHDRSZ;
    AllocBlock block = tdb_mcxt_block_alloc(blksize);
    MemoryChunk *chunk;

    if (block == NULL)
        return mcxt_alloc_oom(&set->header, size, flags);
    set->header.mem_allocated += blksize;
    aset_init_block(block, set, (char *)block + blksize);
    block->freeptr = block->endptr;

    chunk = (MemoryChunk *)((char *)block + ALLOC_BLOCKHDRSZ);
    VALGRIND_MAKE_MEM_UNDEFINED(chunk, ALLOC_CHUNKHDRSZ);
    MemoryChunkSetHdrMaskExternal(chunk, MCTX_ASET_ID);

    /* Link it second, so the head block keeps serving small chunks. */
    block->prev = set->blocks;
    block->next = set->blocks->next;
    if (block->next)
        block->next->prev = block;
    set->blocks->next = block;

    return aset_hand_out(chunk, size, chunk_size);
}

/*
 * Cut the unused tail of the head block into power-of-two chunks for the
 * free lists, so the space is not lost when a new head block takes over.
 */
static void
aset_salvage_block_tail(AllocSet set, AllocBlock block)
{
    Size avail = (Size)(block->endptr - block->freeptr);

    while (avail >= (1 << ALLOC_MINBITS) + ALLOC_CHUNKHDRSZ) {
        Size usable = avail - ALLOC_CHUNKHDRSZ;
        Size fidx = aset_freelist_index(usable);
        MemoryChunk *chunk;

        /* aset_freelist_index rounds up; step down unless exact */
        if (aset_class_size(fidx) != usable)
            fidx--;
        chunk = (MemoryChunk *)block->freeptr;
        VALGRIND_MAKE_MEM_UNDEFINED(chunk, ALLOC_CHUNKHDRSZ);
        block->freeptr += aset_class_size(fidx) + ALLOC_CHUNKHDRSZ;
        avail -= aset_class_size(fidx) + ALLOC_CHUNKHDRSZ;
        MemoryChunkSetHdrMask(chunk, block, fidx, MCTX_ASET_ID);
        VALGRIND_MAKE_MEM_UNDEFINED(MemoryChunkGetPointer(chunk),
                                    aset_class_size(fidx));
        aset_push_free(set, chunk, fidx);
    }
}

/* Make a new head block able to hold `required` bytes; NULL on OOM. */
static AllocBlock
aset_new_block(AllocSet set, Size required)
{
    Size blksize = set->nextBlockSize;
    AllocBlock block;

    set->nextBlockSize <<= 1;
    if (set->nextBlockSize > set->maxBlockSize)
        set->nextBlockSize = set->maxBlockSize;
    while (blksize < required)
        blksize <<= 1;

    block = tdb_mcxt_block_alloc(blksize);
    /* Under memory pressure, settle for a smaller block. */
    while (block == NULL && blksize > required &&
           blksize > 1024 * 1024) {
        blksize >>= 1;
        if (blksize < required)
            break;
        block = tdb_mcxt_block_alloc(blksize);
    }
    if (block == NULL)
        return NULL;

    set->header.mem_allocated += blksize;
    aset_init_block(block, set, (char *)block + blksize);
    block->next = set->blocks;
    set->blocks->prev = block;
    set->blocks = block;
    aset_head_load(set);
    return block;
}

/*
 * Carve a chunk of class fidx from the head block, which the caller has
 * checked has room (next = its end).
 */
static TDB_ALWAYS_INLINE void *
aset_carve(AllocSet set, char *start, char *next, Size size, Size fidx)
{
    MemoryChunk *chunk = (MemoryChunk *)start;

    set->freeptr = next;
    VALGRIND_MAKE_MEM_UNDEFINED(chunk, ALLOC_CHUNKHDRSZ);
    chunk->hdrmask = ((uint64)(uintptr_t)start
                      << MEMORYCHUNK_BLOCKOFFSET_BASEBIT) +
                     set->hdr_bias + (fidx << MEMORYCHUNK_VALUE_BASEBIT);
    Assert(MemoryChunkGetBlock(chunk) == (void *)set->blocks);
    Assert(MemoryChunkGetValue(chunk) == fidx);
    return aset_hand_out(chunk, size, aset_class_size(fidx));
}

/*
 * The head block cannot fit the chunk: salvage its tail, start a new head
 * block, carve from it.  Kept out of line so the common path in aset_alloc
 * stays small (callgrind: inlining it cost every allocation ~6 register
 * saves).
 */
static TDB_NOINLINE void *
aset_alloc_from_new_block(AllocSet set, Size size, Size fidx, int flags)
{
    AllocBlock block;

    aset_head_store(set);
    aset_salvage_block_tail(set, set->blocks);
    block = aset_new_block(set, aset_class_size(fidx) + ALLOC_BLOCKHDRSZ +
                                    ALLOC_CHUNKHDRSZ);
    if (block == NULL) {
        aset_head_load(set); /* the salvaged head is still the head */
        return mcxt_alloc_oom(&set->header, size, flags);
    }
    return aset_carve(set, set->freeptr,
                      set->freeptr + aset_class_size(fidx) + ALLOC_CHUNKHDRSZ,
                      size, fidx);
}

static void *
aset_alloc(MemoryContext cxt, Size size, int flags)
{
    AllocSet set = (AllocSet)cxt;
    Size need = aset_needed(size);
    MemoryChunk *chunk;
    Size fidx;

    if (unlikely(need > set->allocChunkLimit))
        return aset_alloc_large(set, size, flags);

    fidx = aset_freelist_index(need);
    chunk = set->freelist[fidx];
    if (likely(chunk != NULL)) {
        MemoryChunk *next;

#ifdef MEMORY_CONTEXT_CHECKING
        next = aset_verify_free_chunk(set, chunk, fidx, true);
#else
        next = *aset_link_slot(chunk);
#endif
        set->freelist[fidx] = next;
        return aset_hand_out(chunk, size, aset_class_size(fidx));
    }
    else {
        /*
         * Carve from the head block: the path every allocation after a
         * reset takes, and the per-row pattern's whole cost (callgrind,
         * bench/RESULTS.md).  It reads only the context.
         */
        char *start = set->freeptr;
        char *next = start + aset_class_size(fidx) + ALLOC_CHUNKHDRSZ;

        if (unlikely(next > set->endptr))
            return aset_alloc_from_new_block(set, size, fidx, flags);
        return aset_carve(set, start, next, size, fidx);
    }
}

/* ----- free ----- */

/* Checking builds: complain about damage before a chunk is given up. */
static void
aset_check_before_free(AllocSet set, MemoryChunk *chunk, Size usable)
{
#ifdef MEMORY_CONTEXT_CHECKING
    void *pointer = MemoryChunkGetPointer(chunk);

    if (aset_chunk_is_free(chunk))
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

static void
aset_free_large(AllocSet set, MemoryChunk *chunk)
{
    AllocBlock block = aset_external_block(chunk);
    Size blksize = (Size)(block->endptr - (char *)block);

    aset_check_before_free(set, chunk,
                           (Size)(block->endptr - (char *)(chunk + 1)));
    if (block->prev)
        block->prev->next = block->next;
    else
        set->blocks = block->next;
    if (block->next)
        block->next->prev = block->prev;
    set->header.mem_allocated -= blksize;
    tdb_mcxt_registry_remove(block);
    tdb_mcxt_block_free(block, blksize);
}

void
tdb_aset_free(void *pointer)
{
    MemoryChunk *chunk = PointerGetMemoryChunk(pointer);
    AllocSet set;
    Size fidx;

    if (MemoryChunkIsExternal(chunk)) {
        aset_free_large(aset_external_block(chunk)->aset, chunk);
        return;
    }
    fidx = MemoryChunkGetValue(chunk);
    set = ((AllocBlock)MemoryChunkGetBlock(chunk))->aset;
    aset_check_before_free(set, chunk, aset_class_size(fidx));
    aset_push_free(set, chunk, fidx);
}

/* ----- realloc ----- */

/* Bytes of the old chunk's contents worth copying. */
static inline Size
aset_copy_size(const MemoryChunk *chunk, Size usable)
{
#ifdef MEMORY_CONTEXT_CHECKING
    return chunk->requested_size < usable ? chunk->requested_size : usable;
#else
    (void)chunk;
    return usable;
#endif
}

/* Move a chunk to a freshly allocated one (copy, free the old). */
static void *
aset_realloc_by_copy(AllocSet set, void *pointer, Size size, Size old_usable,
                     int flags)
{
    MemoryChunk *chunk = PointerGetMemoryChunk(pointer);
    Size copy = aset_copy_size(chunk, old_usable);
    void *newp = aset_alloc(&set->header, size, flags);

    if (newp == NULL)
        return NULL;
    VALGRIND_MAKE_MEM_DEFINED(pointer, copy);
    memcpy(newp, pointer, copy < size ? copy : size);
    tdb_aset_free(pointer);
    return newp;
}

static void *
aset_realloc_large(AllocSet set, MemoryChunk *chunk, Size size, int flags)
{
    AllocBlock block = aset_external_block(chunk);
    Size old_blksize = (Size)(block->endptr - (char *)block);
    Size chunk_size = MAXALIGN(aset_needed(size));
    Size blksize = chunk_size + ALLOC_BLOCKHDRSZ + ALLOC_CHUNKHDRSZ;
    Size old_usable = (Size)(block->endptr - (char *)(chunk + 1));
    AllocBlock newblock;

    aset_check_before_free(set, chunk, old_usable);
    if (aset_needed(size) <= set->allocChunkLimit)
        return aset_realloc_by_copy(set, MemoryChunkGetPointer(chunk), size,
                                    old_usable, flags);

    tdb_mcxt_registry_remove(block);
    newblock = tdb_mcxt_block_realloc(block, old_blksize, blksize);
    if (newblock == NULL) {
        tdb_mcxt_registry_add(block, old_blksize);
        return NULL;
    }
    set->header.mem_allocated += blksize;
    set->header.mem_allocated -= old_blksize;
    tdb_mcxt_registry_add(newblock, blksize);
    newblock->freeptr = newblock->endptr = (char *)newblock + blksize;
    if (newblock->prev)
        newblock->prev->next = newblock;
    else
        set->blocks = newblock;
    if (newblock->next)
        newblock->next->prev = newblock;

    chunk = (MemoryChunk *)((char *)newblock + ALLOC_BLOCKHDRSZ);
#ifdef MEMORY_CONTEXT_CHECKING
    if (size > chunk->requested_size)
        VALGRIND_MAKE_MEM_UNDEFINED((char *)(chunk + 1) +
                                        chunk->requested_size,
                                    size - chunk->requested_size);
    chunk->requested_size = size;
    mcxt_set_sentinel(chunk + 1, size, chunk_size);
#endif
    return MemoryChunkGetPointer(chunk);
}

static void *
aset_realloc(void *pointer, Size size, int flags)
{
    MemoryChunk *chunk = PointerGetMemoryChunk(pointer);
    AllocSet set;
    Size usable;

    if (MemoryChunkIsExternal(chunk))
        return aset_realloc_large(aset_external_block(chunk)->aset, chunk,
                                  size, flags);

    set = ((AllocBlock)MemoryChunkGetBlock(chunk))->aset;
    usable = aset_small_chunk_size(chunk);
    aset_check_before_free(set, chunk, usable);
    if (aset_needed(size) <= usable) {
        /* Fits in place (growing within the class, or shrinking). */
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
    return aset_realloc_by_copy(set, pointer, size, usable, flags);
}

/* ----- chunk queries ----- */

static MemoryContext
aset_get_chunk_context(void *pointer)
{
    return &aset_of_chunk(PointerGetMemoryChunk(pointer))->header;
}

static Size
aset_get_chunk_space(void *pointer)
{
    MemoryChunk *chunk = PointerGetMemoryChunk(pointer);

    if (MemoryChunkIsExternal(chunk))
        return (Size)(aset_external_block(chunk)->endptr - (char *)chunk);
    return aset_small_chunk_size(chunk) + ALLOC_CHUNKHDRSZ;
}

/* ----- reset / delete ----- */

static int aset_check(MemoryContext cxt);

static void
aset_free_block(AllocSet set, AllocBlock block)
{
    Size blksize = (Size)(block->endptr - (char *)block);

    set->header.mem_allocated -= blksize;
    tdb_mcxt_registry_remove(block);
    tdb_mcxt_block_free(block, blksize);
}

/*
 * Empty every free list with one 8-byte store per list.  Not memset: its
 * overlapping 32-byte vector stores cannot be forwarded to the 8-byte loads
 * of set->freelist[k] that the next allocations of each class make, so a
 * per-row context paid a store-forwarding stall per size class per row.
 * The volatile keeps the compiler from turning the loop back into memset.
 */
static void
aset_clear_freelists(AllocSet set)
{
    MemoryChunk *volatile *lists = set->freelist;

    for (int i = 0; i < ALLOCSET_NUM_FREELISTS; i++)
        lists[i] = NULL;
}

static void
aset_reset(MemoryContext cxt)
{
    AllocSet set = (AllocSet)cxt;
    AllocBlock block = set->blocks;

    if (config_mcxt_checking)
        aset_check(cxt);
    aset_head_store(set);

    while (block != NULL) {
        AllocBlock next = block->next;

        if (block == set->keeper) {
            char *start = (char *)block + ALLOC_BLOCKHDRSZ;

            if (config_mcxt_checking) {
                VALGRIND_MAKE_MEM_UNDEFINED(start,
                                            (Size)(block->freeptr - start));
                mcxt_wipe(start, (Size)(block->freeptr - start));
            }
            block->freeptr = start;
            block->prev = block->next = NULL;
            VALGRIND_MAKE_MEM_NOACCESS(start, (Size)(block->endptr - start));
        } else {
            aset_free_block(set, block);
        }
        block = next;
    }
    aset_clear_freelists(set);
    set->blocks = set->keeper;
    aset_head_load(set);
    set->nextBlockSize = set->initBlockSize;
}

static void
aset_delete(MemoryContext cxt)
{
    AllocSet set = (AllocSet)cxt;
    AllocBlock block = set->blocks;
    Size keeper_size = aset_block_size(set, set->keeper);

    if (config_mcxt_checking)
        aset_check(cxt);
    while (block != NULL) {
        AllocBlock next = block->next;

        if (block != set->keeper)
            aset_free_block(set, block);
        block = next;
    }
    tdb_mcxt_registry_remove(set->keeper);
    tdb_mcxt_block_free(set, keeper_size);
}

static bool
aset_is_empty(MemoryContext cxt)
{
    AllocSet set = (AllocSet)cxt;

    /*
     * Every allocation either carves from the keeper (moving its freeptr)
     * or adds a block; chunks freed onto the free lists were carved too,
     * so they leave the keeper's freeptr moved and count as not empty.
     */
    return set->blocks == set->keeper && set->keeper->next == NULL &&
           set->freeptr == (char *)set->keeper + ALLOC_BLOCKHDRSZ;
}

/* ----- statistics and checking ----- */

static void
aset_stats(MemoryContext cxt, MemoryContextCounters *totals)
{
    AllocSet set = (AllocSet)cxt;

    aset_head_store(set);
    for (AllocBlock block = set->blocks; block != NULL; block = block->next) {
        totals->nblocks++;
        totals->totalspace += aset_block_size(set, block);
        totals->freespace += (Size)(block->endptr - block->freeptr);
    }
    for (Size fidx = 0; fidx < ALLOCSET_NUM_FREELISTS; fidx++) {
        for (MemoryChunk *chunk = set->freelist[fidx]; chunk != NULL;) {
            MemoryChunk *next;

#ifdef MEMORY_CONTEXT_CHECKING
            next = (MemoryChunk *)(uintptr_t)(chunk->requested_size ^
                                              MCHUNK_FREED_XOR);
#else
            next = *aset_link_slot(chunk);
#endif
            totals->freechunks++;
            totals->freespace += aset_class_size(fidx) + ALLOC_CHUNKHDRSZ;
            chunk = next;
        }
    }
}

/*
 * Walk every chunk of every block, verifying headers, sentinels of live
 * chunks and the wipe of freed ones.  Problems are WARNINGs; returns how
 * many were found.  Only meaningful in checking builds.
 */
static int
aset_check(MemoryContext cxt)
{
    int problems = 0;
#ifdef MEMORY_CONTEXT_CHECKING
    AllocSet set = (AllocSet)cxt;
    const char *name = cxt->name;

    aset_head_store(set);
    for (AllocBlock block = set->blocks; block != NULL; block = block->next) {
        char *p = (char *)block + ALLOC_BLOCKHDRSZ;

        if (block->aset != set) {
            ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("block %p in memory context \"%s\" has a wrong "
                           "owner", (void *)block, name));
            problems++;
            continue;
        }
        while (p < block->freeptr) {
            MemoryChunk *chunk = (MemoryChunk *)p;
            void *pointer = chunk + 1;
            Size usable;

            if (MemoryChunkIsExternal(chunk)) {
                usable = (Size)(block->endptr - (char *)pointer);
            } else {
                usable = aset_small_chunk_size(chunk);
                if (MemoryChunkGetBlock(chunk) != (void *)block ||
                    MemoryChunkGetMethodID(chunk) != MCTX_ASET_ID) {
                    ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                            errmsg("corrupt chunk header %p in memory "
                                   "context \"%s\"", pointer, name));
                    problems++;
                    break;
                }
            }
            if (aset_chunk_is_free(chunk)) {
                /* verify without warning twice; count damage here */
                MemoryChunk *trusted = (MemoryChunk *)(uintptr_t)(
                    chunk->requested_size ^ MCHUNK_FREED_XOR);
                unsigned char *u = pointer;
                bool damaged;

                VALGRIND_MAKE_MEM_DEFINED(u, usable);
                damaged = *aset_link_slot(chunk) != trusted;
                for (Size i = sizeof(void *); i < usable && !damaged; i++)
                    damaged = u[i] != MCXT_WIPE_BYTE;
                VALGRIND_MAKE_MEM_NOACCESS(u, usable);
                if (damaged) {
                    ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                            errmsg("detected write to chunk %p in memory "
                                   "context \"%s\" after it was freed",
                                   pointer, name));
                    problems++;
                }
            } else if (!mcxt_sentinel_ok(pointer, chunk->requested_size,
                                         usable)) {
                ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("detected write past chunk end in memory "
                               "context \"%s\" %p", name, pointer));
                problems++;
            }
            p = (char *)pointer + usable;
        }
    }
#else
    (void)cxt;
#endif
    return problems;
}

const MemoryContextMethods tdb_aset_methods = {
    .alloc = aset_alloc,
    .free_p = tdb_aset_free,
    .realloc = aset_realloc,
    .reset = aset_reset,
    .delete_context = aset_delete,
    .get_chunk_context = aset_get_chunk_context,
    .get_chunk_space = aset_get_chunk_space,
    .is_empty = aset_is_empty,
    .stats = aset_stats,
    .check = aset_check,
    .external_chunk_offset = ALLOC_BLOCKHDRSZ,
};
