/*
 * buf_strategy.c -- which buffer to re-use: the free list, the clock
 * sweep, and the rings of buffer access strategies (PostgreSQL's
 * freelist.c).
 *
 * A buffer for a new block comes from, in this order:
 *
 *   1. the caller's ring, if it has a strategy and the ring's next slot
 *      holds a buffer nobody pins whose usage count is at most 1 (so only
 *      the ring's own owner has used it lately);
 *   2. the free list: buffers that hold no block (all of them after init,
 *      and those tdb_buf_drop_relation or a failed read gave back);
 *   3. the clock sweep: the hand (an atomic counter, taken modulo
 *      nbuffers, so threads sweep without a lock) passes over the
 *      buffers; a pinned one is skipped, one with a usage count above 0
 *      has it decremented, and the first unpinned one at 0 is the victim.
 *      Pins raise the usage count (up to BM_MAX_USAGE_COUNT = 5), so a
 *      page used often survives up to five passes of the hand.
 *
 * What 2 or 3 return is then put in the ring's current slot.  A ring
 * thus cycles through at most ring-size buffers: a sequential scan of a
 * table many times the pool's size evicts only those, instead of every
 * page in the pool.  Pins through a strategy raise a usage count only from
 * 0 to 1 (bufmgr.c, pin_buffer), so ring buffers stay cheap to re-use and
 * hot pages a ring scan happens to hit do not get hotter.
 *
 * Everything returns the buffer with its header locked and unpinned: the
 * caller (bufmgr.c, buffer_alloc) pins it under that lock.
 *
 * Entry points: tdb_buf_strategy_create/free/nbuffers (public),
 * tdb_buf_strategy_get_victim, tdb_buf_strategy_read_ahead,
 * tdb_buf_freelist_push,
 * tdb_buf_strategy_init (bufmgr.c).
 */
#include "common/base.h"

#include "common/elog.h"
#include "storage/buf_internals.h"

/* Ring sizes (PostgreSQL's GetAccessStrategy), in bytes. */
#define RING_BULKREAD_BYTES (256 * 1024)
#define RING_BULKWRITE_BYTES (16 * 1024 * 1024)
#define RING_VACUUM_BYTES (256 * 1024)

struct BufferAccessStrategyData {
    BufferAccessStrategyType type;
    int32 nbuffers; /* ring slots */
    int32 current;  /* the slot last handed out */
    /* The ring: Buffers, InvalidBuffer for a slot not filled yet.  A
     * buffer listed here may since hold another block, or be pinned by
     * others: get_from_ring checks before re-using it. */
    Buffer buffers[FLEXIBLE_ARRAY_MEMBER];
};

/* ----------------------------------------------------------------------
 * Strategies
 * ---------------------------------------------------------------------- */

BufferAccessStrategy
tdb_buf_strategy_create(BufferAccessStrategyType type)
{
    Size bytes;
    int32 nbuffers;
    BufferAccessStrategy strategy;

    switch (type) {
    case BUF_STRATEGY_BULKREAD:
        bytes = RING_BULKREAD_BYTES;
        break;
    case BUF_STRATEGY_BULKWRITE:
        bytes = RING_BULKWRITE_BYTES;
        break;
    case BUF_STRATEGY_VACUUM:
        bytes = RING_VACUUM_BYTES;
        break;
    default:
        elog(ERROR, "unrecognized buffer access strategy: %d", (int)type);
    }
    if (tdb_buf_pool == NULL)
        elog(ERROR, "buffer pool is not initialized");

    /* No more than 1/8 of the pool (PostgreSQL's cap), at least one. */
    nbuffers = (int32)(bytes / BLCKSZ);
    if (nbuffers > tdb_buf_pool->nbuffers / 8)
        nbuffers = tdb_buf_pool->nbuffers / 8;
    if (nbuffers < 1)
        nbuffers = 1;

    strategy = tdb_palloc0(offsetof(struct BufferAccessStrategyData, buffers) +
                           tdb_mcxt_array_size((Size)nbuffers, sizeof(Buffer)));
    strategy->type = type;
    strategy->nbuffers = nbuffers;
    strategy->current = nbuffers - 1; /* the first slot used is 0 */
    return strategy;
}

void
tdb_buf_strategy_free(BufferAccessStrategy strategy)
{
    if (strategy != NULL)
        tdb_pfree(strategy);
}

int
tdb_buf_strategy_nbuffers(BufferAccessStrategy strategy)
{
    return strategy != NULL ? strategy->nbuffers : 0;
}

int
tdb_buf_strategy_read_ahead(BufferAccessStrategy strategy)
{
    int n;

    if (strategy == NULL || strategy->type != BUF_STRATEGY_BULKREAD)
        return 1;
    n = strategy->nbuffers / 2;
    if (n > BUF_READ_AHEAD_MAX)
        n = BUF_READ_AHEAD_MAX;
    return n > 1 ? n : 1;
}

/*
 * Advance the ring to its next slot and return that slot's buffer if it
 * can be re-used now (header locked, *state set), else NULL -- the slot
 * is then filled by whatever the caller finds elsewhere.
 */
static BufferDesc *
get_from_ring(BufferAccessStrategy strategy, uint32 *state)
{
    Buffer buffer;
    BufferDesc *desc;
    uint32 s;

    if (++strategy->current >= strategy->nbuffers)
        strategy->current = 0;
    buffer = strategy->buffers[strategy->current];
    if (buffer == InvalidBuffer || buffer > tdb_buf_pool->nbuffers)
        return NULL; /* empty, or left from a pool since shut down */

    desc = buf_desc(buffer - 1);
    s = buf_hdr_lock(desc);
    if (buf_state_refcount(s) == 0 && buf_state_usage(s) <= 1) {
        *state = s;
        return desc;
    }
    buf_hdr_unlock(desc, s);
    return NULL;
}

/* ----------------------------------------------------------------------
 * The free list
 * ---------------------------------------------------------------------- */

void
tdb_buf_freelist_push(BufferDesc *desc)
{
    BufferPool *pool = tdb_buf_pool;

    buf_mutex_lock(&pool->freelist_lock);
    if (desc->free_next == FREENEXT_NOT_IN_LIST) {
        desc->free_next =
            atomic_load_explicit(&pool->first_free, memory_order_relaxed);
        atomic_store_explicit(&pool->first_free, desc->buf_id,
                              memory_order_relaxed);
    }
    buf_mutex_unlock(&pool->freelist_lock);
}

/*
 * Pop buffers off the free list until one is unpinned with usage count 0
 * (a buffer on the list may have been taken meanwhile through a ring that
 * still names it).  Returns it header-locked, or NULL if the list ran
 * out.
 */
static BufferDesc *
get_from_freelist(uint32 *state)
{
    BufferPool *pool = tdb_buf_pool;

    /* Unlocked peek: the list is empty in a warm pool. */
    while (atomic_load_explicit(&pool->first_free, memory_order_relaxed) >= 0) {
        BufferDesc *desc = NULL;
        int32 id;
        uint32 s;

        buf_mutex_lock(&pool->freelist_lock);
        id = atomic_load_explicit(&pool->first_free, memory_order_relaxed);
        if (id >= 0) {
            desc = buf_desc(id);
            atomic_store_explicit(&pool->first_free, desc->free_next,
                                  memory_order_relaxed);
            desc->free_next = FREENEXT_NOT_IN_LIST;
        }
        buf_mutex_unlock(&pool->freelist_lock);
        if (desc == NULL)
            break;

        s = buf_hdr_lock(desc);
        if (buf_state_refcount(s) == 0 && buf_state_usage(s) == 0) {
            *state = s;
            return desc;
        }
        buf_hdr_unlock(desc, s);
    }
    return NULL;
}

/* ----------------------------------------------------------------------
 * The clock sweep
 * ---------------------------------------------------------------------- */

BufferDesc *
tdb_buf_strategy_get_victim(BufferAccessStrategy strategy, uint32 *state,
                            bool *from_ring)
{
    BufferPool *pool = tdb_buf_pool;
    BufferDesc *desc;
    int32 trycounter;

    *from_ring = false;
    if (strategy != NULL && (desc = get_from_ring(strategy, state)) != NULL) {
        *from_ring = true;
        return desc;
    }

    desc = get_from_freelist(state);
    if (desc == NULL) {
        /*
         * Give up after a full pass that found every buffer pinned; a
         * pass that decrements a usage count starts the count anew, as
         * the buffer will be a candidate next time round.
         */
        trycounter = pool->nbuffers;
        for (;;) {
            uint64 hand = atomic_fetch_add_explicit(&pool->next_victim, 1,
                                                    memory_order_relaxed);
            uint32 s;

            desc = buf_desc((int32)(hand % (uint64)pool->nbuffers));
            s = buf_hdr_lock(desc);
            if (buf_state_refcount(s) == 0) {
                if (buf_state_usage(s) == 0) {
                    *state = s;
                    break;
                }
                s -= BUF_USAGECOUNT_ONE;
                trycounter = pool->nbuffers;
            } else if (--trycounter == 0) {
                buf_hdr_unlock(desc, s);
                elog(ERROR, "no unpinned buffers available");
            }
            buf_hdr_unlock(desc, s);
        }
    }

    if (strategy != NULL)
        strategy->buffers[strategy->current] = desc->buf_id + 1;
    return desc;
}

void
tdb_buf_strategy_init(BufferPool *pool)
{
    for (int32 i = 0; i < pool->nbuffers; i++)
        pool->descs[i].desc.free_next =
            i + 1 < pool->nbuffers ? i + 1 : FREENEXT_END_OF_LIST;
    atomic_init(&pool->first_free, 0);
    atomic_init(&pool->next_victim, 0);
}
