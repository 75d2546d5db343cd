/*
 * buf_internals.h -- the buffer pool's shared structures, for bufmgr.c,
 * buf_strategy.c, buf_relation.c and the buffer pool's unit tests only.
 *
 * The pool (one per process, tdb_buf_pool):
 *
 *     descs[nbuffers]    BufferDesc, 192 bytes each: tag, state word,
 *                        mapping-chain and free-list links, content lock,
 *                        a mutex + condition variable to wait on
 *     pages[nbuffers]    the BLCKSZ page slots, 4096-aligned
 *     buckets[]          tag -> buffer hash table, chained through
 *                        BufferDesc.hash_next, split into
 *                        NUM_BUFFER_PARTITIONS partitions with one
 *                        readers/writer lock each
 *     free list, clock hand      (buf_strategy.c)
 *     relations[]        per relation: the smgr handles the pool reads
 *                        and writes with, its forks' extension locks,
 *                        which forks need an fsync, and the write order
 *                        between its visibility map and main fork
 *                        (buf_relation.c)
 *
 * The state word (BufferDesc.state, one atomic uint32, PostgreSQL's
 * layout):
 *
 *     bits  0-17  refcount      threads holding a pin (a thread counts
 *                               once however many pins it holds: its own
 *                               count is thread-local, PrivateRefCount)
 *     bits 18-21  usage count   0 .. BM_MAX_USAGE_COUNT, for the clock
 *     bits 22-31  flags         BM_* below; BM_LOCKED is the header lock
 *
 * The header lock is a spinlock in the state word: held for a few
 * instructions, never across a call that blocks, allocates or raises.
 * Pins and unpins change the refcount with a compare-and-swap without
 * taking it (they wait while it is held).
 *
 * Which lock protects what:
 *
 *   BufferDesc.tag        written with the header lock AND the exclusive
 *                         locks of the partitions of the old and the new
 *                         tag; readable under either, or by a pin holder
 *                         (a pinned buffer is never re-tagged)
 *   BufferDesc.state      atomic; flags and usage count change under the
 *                         header lock, refcount by CAS (see above)
 *   BufferDesc.hash_next  the partition lock of the bucket it chains
 *   BufferDesc.free_next  pool->freelist_lock
 *   buckets[b]            the partition lock of bucket b (b % partitions)
 *   page contents         the content lock (rwlock), with a pin
 *   BufRelation fields    pool->rel_lock (extension_lock is itself a lock)
 *   pool->cxt             after init, allocated from/freed into only under
 *                         pool->rel_lock (contexts are not thread-safe)
 *   everything else in BufferPool: set by init, constant until shutdown
 *
 * Lock order (a thread holding a lock on the left may take one on the
 * right, never the reverse):
 *
 *   content lock -> extension lock -> partition locks (ascending) ->
 *       wait_mutex -> header lock
 *   rel_lock and freelist_lock: leaf locks (nothing taken inside them)
 *
 * Two content locks are taken further right than that, safely: a dirty
 * victim's, which is only tried (pthread_rwlock_tryrdlock), and the new
 * buffer's in tdb_buf_extend, which nobody else can reach before it is
 * valid.
 */
#ifndef TDB_STORAGE_BUF_INTERNALS_H
#define TDB_STORAGE_BUF_INTERNALS_H

#include "common/base.h"

#include <pthread.h>
#include <stdatomic.h>

#include "mmgr/mcxt.h"
#include "storage/bufmgr.h"
#include "storage/smgr.h"

/* ----- the state word ----- */

#define BUF_REFCOUNT_ONE 1U
#define BUF_REFCOUNT_MASK ((1U << 18) - 1)
#define BUF_USAGECOUNT_SHIFT 18
#define BUF_USAGECOUNT_ONE (1U << BUF_USAGECOUNT_SHIFT)
#define BUF_USAGECOUNT_MASK (0xFU << BUF_USAGECOUNT_SHIFT)

#define BM_LOCKED (1U << 22)           /* the header lock */
#define BM_DIRTY (1U << 23)            /* page differs from disk */
#define BM_VALID (1U << 24)            /* page holds the tag's block */
#define BM_TAG_VALID (1U << 25)        /* tag is set, buffer is mapped */
#define BM_IO_IN_PROGRESS (1U << 26)   /* a read or write is under way */
#define BM_IO_ERROR (1U << 27)         /* the last I/O failed */
#define BM_JUST_DIRTIED (1U << 28)     /* dirtied since the write began */
#define BM_PIN_COUNT_WAITER (1U << 29) /* a cleanup locker waits */

/* The clock's usage count saturates here (PostgreSQL's value). */
#define BM_MAX_USAGE_COUNT 5

static inline uint32
buf_state_refcount(uint32 state)
{
    return state & BUF_REFCOUNT_MASK;
}

static inline uint32
buf_state_usage(uint32 state)
{
    return (state & BUF_USAGECOUNT_MASK) >> BUF_USAGECOUNT_SHIFT;
}

/* ----- descriptors ----- */

/* The block a buffer holds: block blkno of fork fork of relation rel. */
typedef struct BufferTag {
    RelFileNumber rel;
    ForkNumber fork; /* MAIN_FORKNUM for the relation's rows */
    BlockNumber blkno;
} BufferTag;

static inline bool
buf_tag_equal(const BufferTag *a, const BufferTag *b)
{
    return a->rel == b->rel && a->blkno == b->blkno && a->fork == b->fork;
}

/* free_next values besides buffer ids */
#define FREENEXT_END_OF_LIST (-1)
#define FREENEXT_NOT_IN_LIST (-2)

typedef struct BufferDesc {
    /* first cache line: what lookups and the clock touch */
    BufferTag tag;        /* see the lock table above */
    int32 buf_id;         /* 0-based; the Buffer is buf_id + 1; constant */
    _Atomic uint32 state; /* refcount, usage count, flags */
    int32 hash_next;      /* next Buffer in the bucket's chain, 0 = end */
    int32 free_next;      /* next buf_id on the free list, FREENEXT_* */
    pthread_rwlock_t content_lock; /* the page: share/exclusive */
    /*
     * Waiting: for BM_IO_IN_PROGRESS to clear, and (the cleanup locker)
     * for BM_PIN_COUNT_WAITER to clear.  Whoever clears either flag does
     * so holding wait_mutex and then broadcasts, so a waiter that checked
     * the flag under wait_mutex cannot miss the wakeup.
     */
    pthread_mutex_t wait_mutex;
    pthread_cond_t wait_cond;
} BufferDesc;

/* Padded to whole cache lines, so neighbours do not share one. */
#define BUFFERDESC_PAD_TO_SIZE 192
typedef union BufferDescPadded {
    BufferDesc desc;
    char pad[BUFFERDESC_PAD_TO_SIZE];
} BufferDescPadded;
_Static_assert(sizeof(BufferDesc) <= BUFFERDESC_PAD_TO_SIZE,
               "BufferDesc fits its padding");

/*
 * Mapping partitions: 16, as PostgreSQL had until 9.5 (it has 128 now,
 * for many-core machines).  A hit holds a partition's read lock for a
 * few dozen nanoseconds; only a miss takes write locks.  The measurement
 * behind the choice is in bufmgr.c ("Mapping table").  A power of two.
 */
#define NUM_BUFFER_PARTITIONS 16

typedef union BufMappingPartition {
    pthread_rwlock_t lock;
    char pad[64]; /* one cache line each */
} BufMappingPartition;

/* ----- relations ----- */

/* An smgr handle the pool owns, in a top-level memory context of its own
 * (so it can be opened and closed without any pool lock). */
typedef struct BufRelFile {
    MemoryContext cxt;
    SMgrRelation smgr;
} BufRelFile;

/* Idle handles kept per relation; more concurrent I/Os open extra ones
 * that are closed after use. */
#define BUF_REL_IDLE_FILES 4

typedef struct BufRelation {
    RelFileNumber relnumber;  /* constant */
    struct BufRelation *next; /* hash chain; rel_lock */
    uint8 needs_sync;         /* bit 1 << fork: written since last fsync;
                               * rel_lock */
    int nidle;                /* rel_lock */
    BufRelFile *idle[BUF_REL_IDLE_FILES]; /* rel_lock */
    /*
     * Write order (tdb_buf_mark_dirty_before_main): ordered_marks counts
     * changes of the visibility map that must be on disk before the next
     * write of a main-fork block; ordered_durable is the count that was
     * made durable (written and fsynced) last.  A main-fork write waits
     * for nothing while they are equal.  rel_lock.
     */
    uint64 ordered_marks;
    uint64 ordered_durable;
    /* serialize tdb_buf_extend, per fork */
    pthread_mutex_t extension_lock[NUM_FORKS];
} BufRelation;

/* ----- the pool ----- */

typedef struct BufferPool {
    MemoryContext cxt; /* "BufferPool", a top-level context */
    char *datadir;
    bool checksums;
    int32 nbuffers;
    BufferDescPadded *descs;
    char *pages; /* nbuffers * BLCKSZ */

    /* the mapping table */
    uint32 bucket_mask; /* nbuckets - 1; nbuckets >= partitions */
    int32 *buckets;     /* first Buffer of each chain, 0 = empty */
    BufMappingPartition *partitions;

    /* replacement (buf_strategy.c) */
    _Atomic uint64 next_victim;    /* the clock hand, unbounded */
    pthread_mutex_t freelist_lock; /* the free list */
    _Atomic int32 first_free;      /* buf_id, FREENEXT_END_OF_LIST if empty;
                                    * changed under freelist_lock, read
                                    * without it as a hint */

    /* relations (buf_relation.c) */
    pthread_mutex_t rel_lock;
    BufRelation **rel_buckets;
    uint32 rel_nbuckets; /* power of two */
    uint32 rel_count;
} BufferPool;

/* The process's pool, NULL when there is none. */
extern BufferPool *tdb_buf_pool;

static inline BufferDesc *
buf_desc(int32 buf_id)
{
    return &tdb_buf_pool->descs[buf_id].desc;
}

/* ----- the header lock ----- */

uint32 tdb_buf_hdr_lock_slow(BufferDesc *desc);
uint32 tdb_buf_hdr_wait_unlocked(BufferDesc *desc);

/* Take the header lock; returns the state (with BM_LOCKED set). */
static inline uint32
buf_hdr_lock(BufferDesc *desc)
{
    uint32 old =
        atomic_fetch_or_explicit(&desc->state, BM_LOCKED, memory_order_acquire);

    if (likely(!(old & BM_LOCKED)))
        return old | BM_LOCKED;
    return tdb_buf_hdr_lock_slow(desc);
}

/* Store state (the lock holder's updated copy) and release the lock. */
static inline void
buf_hdr_unlock(BufferDesc *desc, uint32 state)
{
    atomic_store_explicit(&desc->state, state & ~BM_LOCKED,
                          memory_order_release);
}

/* ----- pthread calls that cannot fail unless memory is damaged ----- */

/* PANIC: a pool lock call failed (rc is its error number). */
TDB_NORETURN void tdb_buf_pthread_failed(const char *what, int rc);

static inline void
buf_mutex_lock(pthread_mutex_t *mutex)
{
    int rc = pthread_mutex_lock(mutex);

    if (unlikely(rc != 0))
        tdb_buf_pthread_failed("lock a mutex", rc);
}

static inline void
buf_mutex_unlock(pthread_mutex_t *mutex)
{
    int rc = pthread_mutex_unlock(mutex);

    if (unlikely(rc != 0))
        tdb_buf_pthread_failed("unlock a mutex", rc);
}

static inline void
buf_rwlock_rdlock(pthread_rwlock_t *lock)
{
    int rc = pthread_rwlock_rdlock(lock);

    if (unlikely(rc != 0))
        tdb_buf_pthread_failed("share-lock a readers/writer lock", rc);
}

static inline void
buf_rwlock_wrlock(pthread_rwlock_t *lock)
{
    int rc = pthread_rwlock_wrlock(lock);

    if (unlikely(rc != 0))
        tdb_buf_pthread_failed("lock a readers/writer lock", rc);
}

static inline void
buf_rwlock_unlock(pthread_rwlock_t *lock)
{
    int rc = pthread_rwlock_unlock(lock);

    if (unlikely(rc != 0))
        tdb_buf_pthread_failed("unlock a readers/writer lock", rc);
}

/* ----- between bufmgr.c and buf_strategy.c ----- */

/*
 * A buffer to re-use for a new block, chosen from strategy's ring (if
 * any), the free list, or by the clock sweep; returned with its header
 * locked (*state: the locked state), unpinned.  *from_ring: it came from
 * the ring.  Raises "no unpinned buffers available" when a whole sweep
 * finds every buffer pinned.
 */
BufferDesc *tdb_buf_strategy_get_victim(BufferAccessStrategy strategy,
                                        uint32 *state, bool *from_ring);

/*
 * How many consecutive blocks a read through strategy may read at once
 * (bufmgr.c, read_ahead): for a BULKREAD ring, up to half the ring (so
 * the blocks read ahead do not push one another out of it) and at most
 * BUF_READ_AHEAD_MAX; 1 (no read-ahead) for anything else.
 */
#define BUF_READ_AHEAD_MAX 16
int tdb_buf_strategy_read_ahead(BufferAccessStrategy strategy);

/* Put an invalid, unpinned buffer on the free list (once). */
void tdb_buf_freelist_push(BufferDesc *desc);

/* Set up the free list (every buffer on it) and the clock. */
void tdb_buf_strategy_init(BufferPool *pool);

/* ----- between bufmgr.c and buf_relation.c ----- */

/* What tdb_buf_relfile_op does through a relation's smgr handle. */
typedef enum RelFileOp {
    RELFILE_READ,
    RELFILE_WRITE,
    RELFILE_EXTEND,
    RELFILE_NBLOCKS,
    RELFILE_SYNC,
} RelFileOp;

/*
 * One smgr call (tdb_smgr_read, _write, _extend, _nblocks, _immedsync)
 * on fork fork of relation rel through a handle of the pool's: page is
 * the block's BLCKSZ bytes for READ, WRITE and EXTEND.  Returns the
 * block count for RELFILE_NBLOCKS (0 for a fork other than the main one
 * that does not exist), else 0.  A WRITE or EXTEND leaves the fork
 * needing an fsync.  Raises what the smgr call raises, and out of memory
 * if rel's entry cannot be made.  Takes only rel_lock (a leaf), never
 * across the smgr call.
 */
BlockNumber tdb_buf_relfile_op(RelFileNumber rel, ForkNumber fork, RelFileOp op,
                               BlockNumber blkno, void *page);

/* tdb_smgr_readv on a fork of rel the same way (its result: whole blocks
 * read, or -1 with errno). */
int tdb_buf_relfile_readv(RelFileNumber rel, ForkNumber fork, BlockNumber blkno,
                          void *const *pages, int npages);

/* tdb_smgr_truncate of a fork of rel (a fork that does not exist is left
 * alone). */
void tdb_buf_relfile_truncate(RelFileNumber rel, ForkNumber fork,
                              BlockNumber nblocks);

/* rel's entry (its extension_lock), created if needed; valid until
 * tdb_buf_drop_relation(rel) or shutdown.  Raises out of memory. */
BufRelation *tdb_buf_rel_entry(RelFileNumber rel);

/*
 * fsync the relation forks written since their last fsync: those of rel
 * (fork: that one only; InvalidForkNumber: all), or every one (all).
 * One whose fsync fails stays flagged and the error is raised.
 */
void tdb_buf_sync_relations(RelFileNumber rel, ForkNumber fork, bool all);

/*
 * The write order of tdb_buf_mark_dirty_before_main.  _mark: one more
 * change of rel's visibility map must be durable before rel's next
 * main-fork write.  _needed: whether a main-fork write of rel must first
 * make the visibility map durable; *marks receives the count to pass to
 * _done once it has been.  _done: the changes counted up to marks are
 * durable.  Raise out of memory only if rel has no entry and none can be
 * made (_mark).
 */
void tdb_buf_rel_ordered_mark(RelFileNumber rel);
bool tdb_buf_rel_ordered_needed(RelFileNumber rel, uint64 *marks);
void tdb_buf_rel_ordered_done(RelFileNumber rel, uint64 marks);

/* Set up pool's empty registry (tdb_bufmgr_init, before the pool is
 * published); forget rel's entry (tdb_buf_drop_relation, after its
 * buffers); free every entry without syncing (pool_free). */
void tdb_buf_rel_init(BufferPool *pool);
void tdb_buf_rel_forget(RelFileNumber rel);
void tdb_buf_rel_free_all(void);

/* ----- for tests ----- */

/* The usage count of block blkno of rel's main fork, -1 if it is not in
 * the pool. */
int tdb_buf_usage_count(RelFileNumber rel, BlockNumber blkno);

#endif /* TDB_STORAGE_BUF_INTERNALS_H */
