/*
 * memchunk.h -- the 8-byte chunk header shared by AllocSet, Generation and
 * Slab (and by Bump in checking builds).
 *
 * Every chunk pointer p handed to a caller is immediately preceded by a
 * MemoryChunk.  In release builds it is one uint64, `hdrmask`:
 *
 *   bit  63                       34 33 ...                5  4   3   0
 *       +---------------------------+-------------------------+---+-----+
 *       | block offset (30 bits)    |  value (30 bits)        |ext| id  |
 *       +---------------------------+-------------------------+---+-----+
 *                                   ^ bit 34 is shared (see below)
 *
 *   id            bits 0-3   MemoryContextMethodID: which implementation
 *                            owns the chunk; tdb_pfree() dispatches on it.
 *   ext           bit 4      1 = "external" chunk (see below).
 *   value         bits 5-34  30 bits whose meaning the implementation
 *                            chooses: AllocSet keeps the free-list index,
 *                            Generation and Slab the chunk size.
 *   block offset  bits 34-63 p's header address minus the address of the
 *                            block holding it.  Blocks and chunks are
 *                            MAXALIGNed, so the offset is a multiple of 8
 *                            and its bit 0 (header bit 34) is always 0:
 *                            that bit can be shared with the top bit of
 *                            value.  Reading masks bit 0 off (0x3FFFFFFE).
 *
 * 4 + 1 + 30 + 30 = 65 bits fit in 64 because of the shared bit.  The block
 * header starts with (or holds) a pointer to its context, so
 * header -> block -> context is two dependent loads.
 *
 * External chunks are used when the value or the offset does not fit in 30
 * bits -- in practice, chunks that live alone in a dedicated block (large
 * AllocSet/Generation requests, huge allocations).  Bits 5-63 then hold a
 * fixed magic number, and the block is found at a fixed distance before the
 * chunk (the implementation's block-header size), because such a chunk is
 * always the first and only one in its block.  The chunk size is derived
 * from the block's end pointer.
 *
 * Checking builds (MEMORY_CONTEXT_CHECKING) put `requested_size` before
 * hdrmask, making the header 16 bytes; hdrmask always stays last so the
 * dispatch is the same in both builds.
 *
 * Method ids 0, 1, 2 and 15 are never assigned: 0000 is what zeroed memory
 * looks like, 0001/0010 what glibc malloc's size-field flags usually look
 * like, and 1111 what memory wiped with 0x7F looks like.  Dispatching on
 * one of them (a malloc'd pointer, a wiped/freed chunk) reaches an error
 * handler instead of corrupting memory.
 */
#ifndef TDB_MMGR_MEMCHUNK_H
#define TDB_MMGR_MEMCHUNK_H

#include "common/base.h"

typedef enum MemoryContextMethodID {
    MCTX_RESERVED0_ID = 0,
    MCTX_RESERVED1_ID = 1,
    MCTX_RESERVED2_ID = 2,
    MCTX_ASET_ID = 3,
    MCTX_GENERATION_ID = 4,
    MCTX_SLAB_ID = 5,
    MCTX_UNUSED6_ID = 6,
    MCTX_BUMP_ID = 7,
    MCTX_UNUSED8_ID = 8,
    MCTX_UNUSED9_ID = 9,
    MCTX_UNUSED10_ID = 10,
    MCTX_UNUSED11_ID = 11,
    MCTX_UNUSED12_ID = 12,
    MCTX_UNUSED13_ID = 13,
    MCTX_UNUSED14_ID = 14,
    MCTX_RESERVED15_ID = 15
} MemoryContextMethodID;

#define MEMORY_CONTEXT_METHODID_BITS 4 /* tdb_pfree (mcxt.h) masks 0xF */
#define MEMORY_CONTEXT_METHODID_MASK ((1 << MEMORY_CONTEXT_METHODID_BITS) - 1)

#define MEMORYCHUNK_EXTERNAL_BIT 4
#define MEMORYCHUNK_VALUE_BASEBIT 5
#define MEMORYCHUNK_VALUE_BITS 30
#define MEMORYCHUNK_BLOCKOFFSET_BASEBIT 34
#define MEMORYCHUNK_MAX_VALUE ((Size)0x3FFFFFFF)
#define MEMORYCHUNK_MAX_BLOCKOFFSET ((Size)0x3FFFFFFF)
#define MEMORYCHUNK_BLOCKOFFSET_MASK ((uint64)0x3FFFFFFE)
#define MEMORYCHUNK_EXTERNAL_FLAG ((uint64)1 << MEMORYCHUNK_EXTERNAL_BIT)
/* Bits 5-63 of an external chunk's header (low 5 bits cleared). */
#define MEMORYCHUNK_MAGIC ((uint64)0xC3A5E8F21D6B9470 & ~(uint64)0x1F)

typedef struct MemoryChunk {
#ifdef MEMORY_CONTEXT_CHECKING
    /*
     * Bytes the caller asked for.  For a freed AllocSet/Slab chunk it holds
     * a second copy of the free-list link XORed with MCHUNK_FREED_XOR (top
     * bit set, so never a valid size); other freed chunks hold SIZE_MAX.
     */
    Size requested_size;
#endif
    uint64 hdrmask; /* must be last: it sits directly before the pointer */
} MemoryChunk;

#define MEMORYCHUNK_HDRSZ sizeof(MemoryChunk)
#ifdef MEMORY_CONTEXT_CHECKING
_Static_assert(sizeof(MemoryChunk) == 16, "checking chunk header is 16 bytes");
#else
_Static_assert(sizeof(MemoryChunk) == 8, "chunk header must be 8 bytes");
#endif

#define MCHUNK_FREED_XOR ((Size)0xA5A5F00DDEADBEEF | ((Size)1 << 63))
#define MCHUNK_SIZE_FREED SIZE_MAX

/* The chunk header of a user pointer, and back. */
#define PointerGetMemoryChunk(p)                                            \
    ((MemoryChunk *)((char *)(p) - sizeof(MemoryChunk)))
#define MemoryChunkGetPointer(c) ((void *)((char *)(c) + sizeof(MemoryChunk)))

/* The raw header word of the chunk behind pointer p. */
static inline uint64
tdb_chunk_hdrmask(const void *p)
{
    return ((const uint64 *)p)[-1];
}

static inline MemoryContextMethodID
MemoryChunkGetMethodID(const MemoryChunk *chunk)
{
    return (MemoryContextMethodID)(chunk->hdrmask &
                                   MEMORY_CONTEXT_METHODID_MASK);
}

static inline bool
MemoryChunkIsExternal(const MemoryChunk *chunk)
{
    return (chunk->hdrmask & MEMORYCHUNK_EXTERNAL_FLAG) != 0;
}

/* True if an external chunk's header carries the magic (corruption check). */
static inline bool
MemoryChunkExternalMagicOK(const MemoryChunk *chunk)
{
    return (chunk->hdrmask & ~(uint64)0x1F) == MEMORYCHUNK_MAGIC;
}

static inline Size
MemoryChunkGetValue(const MemoryChunk *chunk)
{
    return (Size)((chunk->hdrmask >> MEMORYCHUNK_VALUE_BASEBIT) &
                  MEMORYCHUNK_MAX_VALUE);
}

static inline void *
MemoryChunkGetBlock(const MemoryChunk *chunk)
{
    Size offset = (Size)((chunk->hdrmask >> MEMORYCHUNK_BLOCKOFFSET_BASEBIT) &
                         MEMORYCHUNK_BLOCKOFFSET_MASK);

    return (void *)((char *)chunk - offset);
}

/*
 * Write the header of a chunk living at `chunk` inside `block`.  The offset
 * must be a multiple of 8 and at most MEMORYCHUNK_MAX_BLOCKOFFSET; the value
 * at most MEMORYCHUNK_MAX_VALUE.
 */
static inline void
MemoryChunkSetHdrMask(MemoryChunk *chunk, const void *block, Size value,
                      MemoryContextMethodID methodid)
{
    Size offset = (Size)((const char *)chunk - (const char *)block);

    Assert((offset & 7) == 0);
    Assert(offset <= MEMORYCHUNK_MAX_BLOCKOFFSET);
    Assert(value <= MEMORYCHUNK_MAX_VALUE);
    Assert((int)methodid <= MEMORY_CONTEXT_METHODID_MASK);

    chunk->hdrmask = ((uint64)offset << MEMORYCHUNK_BLOCKOFFSET_BASEBIT) |
                     ((uint64)value << MEMORYCHUNK_VALUE_BASEBIT) |
                     (uint64)methodid;
}

/* Write the header of a chunk alone in a dedicated block. */
static inline void
MemoryChunkSetHdrMaskExternal(MemoryChunk *chunk,
                              MemoryContextMethodID methodid)
{
    chunk->hdrmask = MEMORYCHUNK_MAGIC | MEMORYCHUNK_EXTERNAL_FLAG |
                     (uint64)methodid;
}

#endif /* TDB_MMGR_MEMCHUNK_H */
