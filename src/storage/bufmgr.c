/*
 * bufmgr.c -- the buffer pool: mapping blocks to buffers, pins, content
 * locks, reading, extending and writing back pages (PostgreSQL's
 * bufmgr.c and buf_table.c, re-thought for threads in one process).
 *
 * The structures and which lock protects each field are in
 * buf_internals.h; replacement (free list, clock sweep, rings) is in
 * buf_strategy.c; the relations' smgr handles, extension locks and
 * pending fsyncs are in buf_relation.c.  This file holds:
 *
 *   - the mapping table: tag -> buffer, chained through the descriptors,
 *     NUM_BUFFER_PARTITIONS readers/writer locks;
 *   - pins: a shared refcount in each buffer's state word, counting the
 *     threads that hold a pin, plus each thread's own counts
 *     (PrivateRefCount: an 8-entry array and an overflow hash table, as
 *     in PostgreSQL) that also record the content lock the thread holds,
 *     so error recovery can release everything
 *     (tdb_buf_release_all_pins_of_thread);
 *   - I/O: BM_IO_IN_PROGRESS makes one thread the reader (or writer) of a
 *     buffer; others wait on the buffer's condition variable.
 *
 * A buffer's life (flags of the state word; every transition is made
 * with the header lock held, the re-tagging and forgetting ones also with
 * the partition locks):
 *
 *   free (no tag) ----buffer_alloc----> TAG_VALID            (pinned)
 *   TAG_VALID ---start_buffer_io(read)--> TAG_VALID|IO_IN_PROGRESS
 *       --read + verify ok--> TAG_VALID|VALID
 *       --failed--> TAG_VALID|IO_ERROR, forgotten (-> free) by the last
 *                   unpin of a failed reader (unpin_and_forget); a
 *                   waiting thread instead retries the read itself
 *   VALID --tdb_buf_mark_dirty--> VALID|DIRTY
 *   VALID|DIRTY --flush_buffer--> VALID|DIRTY|IO_IN_PROGRESS --> VALID
 *       (still DIRTY if changed during the write: JUST_DIRTIED)
 *   any, unpinned, usage 0 --buffer_alloc (victim)--> written back if
 *       dirty, then re-tagged for the new block
 *   any, unpinned --tdb_buf_drop_relation--> free (dirty data dropped)
 *
 * Invariants:
 *   1. BM_TAG_VALID <=> the buffer is in the mapping table under its tag;
 *      no two buffers carry the same valid tag.
 *   2. A buffer is re-tagged or forgotten only while nobody else pins it,
 *      and only with the header lock and the partition locks of the old
 *      and new tag held; so a pin holder's tag never changes.
 *   3. The shared refcount equals the number of threads whose private
 *      count for the buffer is above zero.
 *   4. A thread holds a content lock only on a buffer it pins, and at most
 *      one (share or exclusive) per buffer; PrivateRefCount.lock_mode says
 *      which.
 *   5. BM_IO_IN_PROGRESS is set by one pin holder at a time and always
 *      cleared by it, error or not, before its call returns or raises.
 *   6. BM_VALID is set only after the page passed tdb_page_verify (or was
 *      made by tdb_buf_extend); a page that fails never becomes valid.
 *   7. A dirty page leaves the pool only through flush_buffer, which
 *      writes a private copy (checksummed); only tdb_buf_drop_relation
 *      discards dirty pages.
 *
 * Entry points: see bufmgr.h.
 */
#include "common/base.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "common/elog.h"
#include "common/hashmix.h"
#include "storage/buf_internals.h"

BufferPool *tdb_buf_pool = NULL;

/* Alignment of the page slots: what O_DIRECT would need. */
#define PAGE_SLOT_ALIGN 4096

/* ----------------------------------------------------------------------
 * Small helpers
 * ---------------------------------------------------------------------- */

void
tdb_buf_pthread_failed(const char *what, int rc)
{
    ereport(PANIC, errcode(ERRCODE_INTERNAL_ERROR),
            errmsg("buffer pool could not %s: %s", what, strerror(rc)));
}

static inline void
check_pool(void)
{
    if (unlikely(tdb_buf_pool == NULL))
        elog(ERROR, "buffer pool is not initialized");
}

/* The descriptor of a Buffer; raises for an id outside the pool. */
static inline BufferDesc *
buffer_get_desc(Buffer buffer)
{
    if (unlikely(tdb_buf_pool == NULL || buffer < 1 ||
                 buffer > tdb_buf_pool->nbuffers))
        elog(ERROR, "bad buffer ID: %d", buffer);
    return buf_desc(buffer - 1);
}

static inline Page
buf_page(const BufferDesc *desc)
{
    return tdb_buf_pool->pages + (Size)desc->buf_id * BLCKSZ;
}

/* A fork's name in messages: its path in the data directory. */
static void
relation_name(RelFileNumber rel, ForkNumber fork, char *buf, Size size)
{
    snprintf(buf, size, "base/%u%s", rel, tdb_fork_suffix(fork));
}

/* Round ptr up to a multiple of align (a power of two). */
static inline void *
align_up(void *ptr, Size align)
{
    return (void *)TYPEALIGN(align, ptr);
}

/* ----------------------------------------------------------------------
 * The header lock (a spinlock in the state word)
 * ---------------------------------------------------------------------- */

/*
 * Spin with the CPU's pause hint, then yield the processor: the lock is
 * held for a few instructions, so a long wait means its holder was
 * descheduled (more threads than cores, or valgrind serializing them).
 */
#define SPINS_BEFORE_YIELD 100

static inline void
spin_delay(int *spins)
{
    if (++*spins < SPINS_BEFORE_YIELD) {
#if defined(__x86_64__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("isb" ::: "memory");
#endif
    } else {
        sched_yield();
        *spins = 0;
    }
}

uint32
tdb_buf_hdr_lock_slow(BufferDesc *desc)
{
    int spins = 0;

    for (;;) {
        uint32 old;

        while (atomic_load_explicit(&desc->state, memory_order_relaxed) &
               BM_LOCKED)
            spin_delay(&spins);
        old = atomic_fetch_or_explicit(&desc->state, BM_LOCKED,
                                       memory_order_acquire);
        if (!(old & BM_LOCKED))
            return old | BM_LOCKED;
    }
}

uint32
tdb_buf_hdr_wait_unlocked(BufferDesc *desc)
{
    int spins = 0;
    uint32 state;

    while ((state = atomic_load_explicit(&desc->state, memory_order_acquire)) &
           BM_LOCKED)
        spin_delay(&spins);
    return state;
}

/* ----------------------------------------------------------------------
 * Mapping table
 *
 * A chained hash table whose entries are the descriptors themselves
 * (hash_next), so it never allocates: nbuckets is nbuffers rounded up to
 * a power of two (load factor <= 1).  A bucket belongs to partition
 * (bucket % NUM_BUFFER_PARTITIONS); lookups take its lock shared, changes
 * exclusive.  A miss takes the new tag's and the victim's old tag's
 * partitions exclusively, in ascending order.
 *
 * Why 16 partitions (PostgreSQL had 16 until 9.5, 128 since, for
 * machines with dozens of cores): measured on this project's 2-core VM
 * with a throwaway loop of tdb_buf_read + tdb_buf_release hits on random
 * blocks of a 1024-block relation (release build), 1, 16 and 128
 * partitions all cost ~50 ns per pair with one thread and ~95-120 ns per
 * pair and thread with two.  perf puts the two-thread cost in the atomic
 * operations -- the partition rwlock (~35%) and the pin/unpin CAS on the
 * state word (~27%) -- whose cache lines move between the cores; the
 * partition count does not change it at two cores.  16 keeps two lookups
 * of different blocks on different lock lines with probability 15/16 at a
 * kilobyte of memory.  Revisit (128, or lock-free optimistic lookups)
 * when a many-core machine shows the partition locks in a profile.
 * ---------------------------------------------------------------------- */

/*
 * murmur3's 64-bit finalizer over (relation, block), the fork folded
 * into the top bits: the main fork's hash is what it was before forks
 * existed, and one XOR is all a tag costs more (two relations whose
 * numbers differ only in bits 30-31 share hashes across forks; the
 * comparison of the whole tag keeps that harmless).
 */
static inline uint32
buf_tag_hash(const BufferTag *tag)
{
    return (uint32)tdb_murmurhash64((((uint64)tag->rel << 32) | tag->blkno) ^
                                    ((uint64)tag->fork << 62));
}

static inline BufMappingPartition *
partition_of(uint32 hash)
{
    return &tdb_buf_pool->partitions[hash % NUM_BUFFER_PARTITIONS];
}

/* The buffer mapped to tag, or NULL.  Caller holds the partition lock. */
static BufferDesc *
mapping_lookup(uint32 hash, const BufferTag *tag)
{
    Buffer b = tdb_buf_pool->buckets[hash & tdb_buf_pool->bucket_mask];

    while (b != InvalidBuffer) {
        BufferDesc *desc = buf_desc(b - 1);

        if (buf_tag_equal(&desc->tag, tag))
            return desc;
        b = desc->hash_next;
    }
    return NULL;
}

/* Chain desc (tagged with hash's tag).  Caller holds the partition lock
 * exclusively. */
static void
mapping_insert(uint32 hash, BufferDesc *desc)
{
    int32 *head = &tdb_buf_pool->buckets[hash & tdb_buf_pool->bucket_mask];

    desc->hash_next = *head;
    *head = desc->buf_id + 1;
}

/* Unchain desc.  Caller holds the partition lock exclusively. */
static void
mapping_delete(uint32 hash, BufferDesc *desc)
{
    int32 *link = &tdb_buf_pool->buckets[hash & tdb_buf_pool->bucket_mask];

    while (*link != desc->buf_id + 1) {
        if (*link == InvalidBuffer)
            ereport(PANIC, errcode(ERRCODE_INTERNAL_ERROR),
                    errmsg("buffer %d is missing from the mapping table",
                           desc->buf_id + 1));
        link = &buf_desc(*link - 1)->hash_next;
    }
    *link = desc->hash_next;
    desc->hash_next = InvalidBuffer;
}

/* Exclusive locks on a (the new tag's) and b (the old tag's, or NULL), in
 * address order -- the partitions are an array, so that is index order. */
static void
lock_partitions(BufMappingPartition *a, BufMappingPartition *b)
{
    if (b == NULL || b == a)
        buf_rwlock_wrlock(&a->lock);
    else if (a < b) {
        buf_rwlock_wrlock(&a->lock);
        buf_rwlock_wrlock(&b->lock);
    } else {
        buf_rwlock_wrlock(&b->lock);
        buf_rwlock_wrlock(&a->lock);
    }
}

static void
unlock_partitions(BufMappingPartition *a, BufMappingPartition *b)
{
    buf_rwlock_unlock(&a->lock);
    if (b != NULL && b != a)
        buf_rwlock_unlock(&b->lock);
}

/* ----------------------------------------------------------------------
 * This thread's pins (PostgreSQL's PrivateRefCount)
 *
 * The shared refcount counts threads; how many pins a thread holds on a
 * buffer, and which content lock, is recorded here, thread-local: eight
 * array entries (searched linearly: a thread rarely pins more buffers at
 * once) and, beyond them, an open-addressing hash table in a memory
 * context under the thread's TopMemoryContext.  Taking a new pin first
 * reserves an entry (ref_reserve, which may allocate and so raise) so
 * that recording it after the shared refcount went up cannot fail.
 * ---------------------------------------------------------------------- */

typedef struct PrivateRefCount {
    Buffer buffer;   /* InvalidBuffer: a free entry */
    int32 refcount;  /* pins held, >= 1 in a used entry */
    int32 lock_mode; /* the BufferLockMode held on the content */
} PrivateRefCount;

#define REFCOUNT_ARRAY_ENTRIES 8

typedef struct RefOverflow {
    MemoryContext cxt;        /* holds this struct and entries */
    PrivateRefCount *entries; /* linear probing, InvalidBuffer = empty */
    uint32 size;              /* power of two */
    int bits;                 /* log2(size) */
    uint32 used;
    MemoryContextCallback forget; /* clears ref_overflow on delete */
} RefOverflow;

static _Thread_local PrivateRefCount ref_array[REFCOUNT_ARRAY_ENTRIES];
/* A free ref_array entry set aside by ref_reserve, or NULL: then the
 * overflow table has room for one more. */
static _Thread_local PrivateRefCount *ref_reserved;
static _Thread_local RefOverflow *ref_overflow;
/* Buffers this thread pins (used entries). */
static _Thread_local int32 ref_nbuffers;
/* This thread's counters. */
static _Thread_local BufferUsage buf_usage;

static inline uint32
overflow_home(const RefOverflow *o, Buffer buffer)
{
    return ((uint32)buffer * 0x9E3779B1u) >> (32 - o->bits);
}

static PrivateRefCount *
overflow_find(Buffer buffer)
{
    RefOverflow *o = ref_overflow;
    uint32 mask = o->size - 1;

    for (uint32 i = overflow_home(o, buffer);; i = (i + 1) & mask) {
        if (o->entries[i].buffer == buffer)
            return &o->entries[i];
        if (o->entries[i].buffer == InvalidBuffer)
            return NULL;
    }
}

/* The free slot for buffer (which is not in the table). */
static PrivateRefCount *
overflow_slot(RefOverflow *o, Buffer buffer)
{
    uint32 mask = o->size - 1;
    uint32 i = overflow_home(o, buffer);

    while (o->entries[i].buffer != InvalidBuffer)
        i = (i + 1) & mask;
    return &o->entries[i];
}

/* Backward-shift deletion: keeps every entry reachable from its home. */
static void
overflow_delete(PrivateRefCount *entry)
{
    RefOverflow *o = ref_overflow;
    uint32 mask = o->size - 1;
    uint32 hole = (uint32)(entry - o->entries);

    for (uint32 j = (hole + 1) & mask; o->entries[j].buffer != InvalidBuffer;
         j = (j + 1) & mask) {
        uint32 home = overflow_home(o, o->entries[j].buffer);

        /* entry j may fill the hole unless its home lies in (hole, j] */
        if (hole <= j ? (home <= hole || home > j)
                      : (home <= hole && home > j)) {
            o->entries[hole] = o->entries[j];
            hole = j;
        }
    }
    o->entries[hole].buffer = InvalidBuffer;
    o->entries[hole].refcount = 0;
    o->entries[hole].lock_mode = BUF_LOCK_UNLOCK;
    o->used--;
}

/* Reset callback of the overflow context (the thread's tree is going). */
static void
overflow_forget(void *arg)
{
    RefOverflow *o = arg;

    /* Pins still recorded here can no longer be released: leak them
     * rather than leave a dangling table (a thread must release its pins
     * before deleting its memory contexts). */
    ref_nbuffers -= (int32)o->used;
    if (ref_overflow == o)
        ref_overflow = NULL;
}

/* Make sure the overflow table can take one more entry. */
static void
overflow_make_room(void)
{
    RefOverflow *o = ref_overflow;

    if (o == NULL) {
        MemoryContext cxt =
            tdb_aset_create(tdb_top_mcxt, "BufferPins", ALLOCSET_SMALL_SIZES);

        o = tdb_mcxt_alloc_zero(cxt, sizeof(RefOverflow));
        o->cxt = cxt;
        o->bits = 4;
        o->size = 1U << o->bits;
        o->entries =
            tdb_mcxt_alloc_zero(cxt, o->size * sizeof(PrivateRefCount));
        o->forget.func = overflow_forget;
        o->forget.arg = o;
        tdb_mcxt_register_reset_callback(cxt, &o->forget);
        ref_overflow = o;
    } else if ((o->used + 1) * 2 > o->size) {
        /* keep the load at most 1/2 */
        PrivateRefCount *old = o->entries;
        uint32 old_size = o->size;
        PrivateRefCount *entries = tdb_mcxt_alloc_zero(
            o->cxt, (Size)old_size * 2 * sizeof(PrivateRefCount));

        o->entries = entries;
        o->size = old_size * 2;
        o->bits++;
        for (uint32 i = 0; i < old_size; i++)
            if (old[i].buffer != InvalidBuffer)
                *overflow_slot(o, old[i].buffer) = old[i];
        tdb_pfree(old);
    }
}

/* This thread's entry for buffer, or NULL if it holds no pin on it. */
static inline PrivateRefCount *
ref_get(Buffer buffer)
{
    for (int i = 0; i < REFCOUNT_ARRAY_ENTRIES; i++)
        if (ref_array[i].buffer == buffer)
            return &ref_array[i];
    if (ref_overflow != NULL && ref_overflow->used > 0)
        return overflow_find(buffer);
    return NULL;
}

/* Set aside room for one new entry.  May raise (out of memory). */
static inline void
ref_reserve(void)
{
    if (ref_reserved != NULL)
        return;
    for (int i = 0; i < REFCOUNT_ARRAY_ENTRIES; i++)
        if (ref_array[i].buffer == InvalidBuffer) {
            ref_reserved = &ref_array[i];
            return;
        }
    overflow_make_room();
}

/* A new entry for buffer (refcount 0) in the reserved room. */
static PrivateRefCount *
ref_new(Buffer buffer)
{
    PrivateRefCount *ref;

    if (ref_reserved != NULL) {
        ref = ref_reserved;
        ref_reserved = NULL;
    } else {
        Assert(ref_overflow != NULL &&
               (ref_overflow->used + 1) * 2 <= ref_overflow->size);
        ref = overflow_slot(ref_overflow, buffer);
        ref_overflow->used++;
    }
    ref->buffer = buffer;
    ref->refcount = 0;
    ref->lock_mode = BUF_LOCK_UNLOCK;
    ref_nbuffers++;
    return ref;
}

static void
ref_forget(PrivateRefCount *ref)
{
    Assert(ref->refcount == 0 && ref->lock_mode == BUF_LOCK_UNLOCK);
    if (ref >= ref_array && ref < ref_array + REFCOUNT_ARRAY_ENTRIES)
        ref->buffer = InvalidBuffer;
    else
        overflow_delete(ref);
    ref_nbuffers--;
}

/* Forget every entry without touching the pool (tdb_bufmgr_discard). */
static void
ref_forget_all(void)
{
    memset(ref_array, 0, sizeof(ref_array));
    ref_reserved = NULL;
    if (ref_overflow != NULL) {
        memset(ref_overflow->entries, 0,
               ref_overflow->size * sizeof(PrivateRefCount));
        ref_overflow->used = 0;
    }
    ref_nbuffers = 0;
}

/* The caller's entry for buffer; raises if it holds no pin. */
static inline PrivateRefCount *
ref_pinned(Buffer buffer)
{
    PrivateRefCount *ref = ref_get(buffer);

    if (unlikely(ref == NULL))
        elog(ERROR, "buffer %d is not pinned by this thread", buffer);
    return ref;
}

/* ----------------------------------------------------------------------
 * Pinning
 * ---------------------------------------------------------------------- */

/*
 * Pin desc for this thread (ref_reserve() done).  The first pin of the
 * thread raises the shared refcount and the usage count: by one up to
 * BM_MAX_USAGE_COUNT, or through a strategy only from 0 to 1, so ring
 * scans do not make pages look hot.  Returns whether the buffer is
 * BM_VALID.  Caller may hold the tag's partition lock (never a header
 * lock).
 */
static bool
pin_buffer(BufferDesc *desc, BufferAccessStrategy strategy)
{
    Buffer buffer = desc->buf_id + 1;
    PrivateRefCount *ref = ref_get(buffer);
    uint32 state;

    if (ref == NULL) {
        uint32 old = atomic_load_explicit(&desc->state, memory_order_relaxed);

        for (;;) {
            if (old & BM_LOCKED)
                old = tdb_buf_hdr_wait_unlocked(desc);
            state = old + BUF_REFCOUNT_ONE;
            if (strategy == NULL) {
                if (buf_state_usage(old) < BM_MAX_USAGE_COUNT)
                    state += BUF_USAGECOUNT_ONE;
            } else if (buf_state_usage(old) == 0)
                state += BUF_USAGECOUNT_ONE;
            if (atomic_compare_exchange_weak_explicit(&desc->state, &old, state,
                                                      memory_order_acq_rel,
                                                      memory_order_relaxed))
                break;
        }
        ref = ref_new(buffer);
    } else
        state = atomic_load_explicit(&desc->state, memory_order_acquire);
    ref->refcount++;
    return (state & BM_VALID) != 0;
}

/*
 * Pin desc, whose header lock the caller holds (state: the locked
 * state); releases the header lock.  The usage count is left alone (a
 * victim or a buffer being flushed is not being used).  ref_reserve()
 * done.
 */
static void
pin_buffer_locked(BufferDesc *desc, uint32 state)
{
    Buffer buffer = desc->buf_id + 1;
    PrivateRefCount *ref = ref_get(buffer);

    if (ref == NULL) {
        buf_hdr_unlock(desc, state + BUF_REFCOUNT_ONE);
        ref = ref_new(buffer);
    } else
        buf_hdr_unlock(desc, state); /* the thread counts once */
    ref->refcount++;
}

/* Wake the cleanup locker waiting for desc's pins to drop to one. */
static void
wake_pin_count_waiter(BufferDesc *desc)
{
    uint32 state;

    buf_mutex_lock(&desc->wait_mutex);
    state = buf_hdr_lock(desc);
    if ((state & BM_PIN_COUNT_WAITER) && buf_state_refcount(state) == 1) {
        buf_hdr_unlock(desc, state & ~BM_PIN_COUNT_WAITER);
        pthread_cond_broadcast(&desc->wait_cond);
    } else
        buf_hdr_unlock(desc, state);
    buf_mutex_unlock(&desc->wait_mutex);
}

/* Drop this thread's share of the shared refcount. */
static void
unpin_shared(BufferDesc *desc)
{
    uint32 old = atomic_load_explicit(&desc->state, memory_order_relaxed);
    uint32 state;

    for (;;) {
        if (old & BM_LOCKED)
            old = tdb_buf_hdr_wait_unlocked(desc);
        Assert(buf_state_refcount(old) > 0);
        state = old - BUF_REFCOUNT_ONE;
        if (atomic_compare_exchange_weak_explicit(&desc->state, &old, state,
                                                  memory_order_acq_rel,
                                                  memory_order_relaxed))
            break;
    }
    if ((state & BM_PIN_COUNT_WAITER) && buf_state_refcount(state) == 1)
        wake_pin_count_waiter(desc);
}

/* Drop one of this thread's pins on desc. */
static void
unpin_buffer(BufferDesc *desc)
{
    PrivateRefCount *ref = ref_get(desc->buf_id + 1);

    Assert(ref != NULL && ref->refcount > 0);
    if (--ref->refcount > 0)
        return;
    Assert(ref->lock_mode == BUF_LOCK_UNLOCK);
    ref_forget(ref);
    unpin_shared(desc);
}

/*
 * Drop the pin of a thread whose read or extension of desc failed; if
 * nobody else pins the buffer, forget it as well (unmap it and put it on
 * the free list), so that the failed block does not linger and the next
 * reader goes to disk again.  A valid buffer is just unpinned.
 */
static void
unpin_and_forget(BufferDesc *desc)
{
    PrivateRefCount *ref = ref_get(desc->buf_id + 1);
    BufferTag tag = desc->tag; /* stable: we pin it */
    uint32 hash = buf_tag_hash(&tag);
    BufMappingPartition *part = partition_of(hash);
    uint32 state;

    Assert(ref != NULL);
    if (ref->refcount == 1) {
        buf_rwlock_wrlock(&part->lock);
        state = buf_hdr_lock(desc);
        if (buf_state_refcount(state) == 1 &&
            !(state & (BM_VALID | BM_IO_IN_PROGRESS))) {
            Assert(state & BM_TAG_VALID);
            mapping_delete(hash, desc);
            desc->tag.rel = InvalidRelFileNumber;
            desc->tag.fork = InvalidForkNumber;
            desc->tag.blkno = InvalidBlockNumber;
            state &= ~(BM_TAG_VALID | BM_IO_ERROR | BM_DIRTY | BM_JUST_DIRTIED |
                       BUF_USAGECOUNT_MASK);
            buf_hdr_unlock(desc, state - BUF_REFCOUNT_ONE);
            buf_rwlock_unlock(&part->lock);
            ref->refcount = 0;
            ref_forget(ref);
            tdb_buf_freelist_push(desc);
            return;
        }
        buf_hdr_unlock(desc, state);
        buf_rwlock_unlock(&part->lock);
    }
    unpin_buffer(desc);
}

/* ----------------------------------------------------------------------
 * Buffer I/O state
 * ---------------------------------------------------------------------- */

/*
 * Become the thread doing desc's I/O: wait until no other I/O is in
 * progress, then, if there is still something to do -- for input, the
 * buffer is not valid; for output, it is dirty -- set BM_IO_IN_PROGRESS
 * and return true.  Returns false if another thread did the work
 * meanwhile.  Caller pins desc.  For output, BM_JUST_DIRTIED is cleared
 * here, so a change made after this point keeps the buffer dirty.
 */
static bool
start_buffer_io(BufferDesc *desc, bool for_input)
{
    uint32 state;
    bool todo;

    buf_mutex_lock(&desc->wait_mutex);
    for (;;) {
        state = buf_hdr_lock(desc);
        if (!(state & BM_IO_IN_PROGRESS))
            break;
        buf_hdr_unlock(desc, state);
        pthread_cond_wait(&desc->wait_cond, &desc->wait_mutex);
    }
    todo = for_input ? !(state & BM_VALID) : (state & BM_DIRTY) != 0;
    if (todo) {
        state |= BM_IO_IN_PROGRESS;
        if (!for_input)
            state &= ~BM_JUST_DIRTIED;
    }
    buf_hdr_unlock(desc, state);
    buf_mutex_unlock(&desc->wait_mutex);
    return todo;
}

/*
 * End the I/O this thread started on desc: clear BM_IO_IN_PROGRESS, set
 * set_flags (BM_VALID after a read, BM_IO_ERROR after a failure), clear
 * BM_DIRTY if clear_dirty and nobody dirtied the page since the write
 * began, and wake the waiters.
 */
static void
terminate_buffer_io(BufferDesc *desc, bool clear_dirty, uint32 set_flags)
{
    uint32 state;

    buf_mutex_lock(&desc->wait_mutex);
    state = buf_hdr_lock(desc);
    Assert(state & BM_IO_IN_PROGRESS);
    state &= ~(BM_IO_IN_PROGRESS | BM_IO_ERROR);
    if (clear_dirty && !(state & BM_JUST_DIRTIED))
        state &= ~BM_DIRTY;
    state |= set_flags;
    buf_hdr_unlock(desc, state);
    pthread_cond_broadcast(&desc->wait_cond);
    buf_mutex_unlock(&desc->wait_mutex);
}

/* Wait until desc has no I/O in progress (caller need not pin it). */
static void
wait_buffer_io(BufferDesc *desc)
{
    buf_mutex_lock(&desc->wait_mutex);
    while (atomic_load_explicit(&desc->state, memory_order_acquire) &
           BM_IO_IN_PROGRESS)
        pthread_cond_wait(&desc->wait_cond, &desc->wait_mutex);
    buf_mutex_unlock(&desc->wait_mutex);
}

/* ----------------------------------------------------------------------
 * WAL hooks
 *
 * No WAL exists yet.  These two functions are where it plugs in; each is
 * called from exactly one place.
 * ---------------------------------------------------------------------- */

/*
 * WAL HOOK (the write-ahead rule).  Called by flush_buffer with the LSN of
 * the copy about to be written, before the write: the WAL must be durable
 * up to that LSN first (PostgreSQL's XLogFlush in FlushBuffer), or a
 * crash could leave a page on disk whose change the WAL does not have.
 * Will call the WAL's flush; today every LSN is 0 and nothing is to do.
 */
static inline void
wal_flush_before_write(XLogRecPtr lsn)
{
    (void)lsn;
}

/*
 * WAL HOOK (page changes).  Called by tdb_buf_mark_dirty, under the
 * exclusive content lock, for every change of a page.  The WAL layer's
 * rule will be PostgreSQL's: inside one critical section the caller
 * changes the page, marks it dirty, inserts the WAL record and stamps the
 * page with the record's LSN (tdb_page_set_lsn) before unlocking.  This is
 * where the WAL will check that discipline (debug builds) and learn which
 * pages need a full-page image after a checkpoint.
 */
static inline void
wal_page_changed(BufferDesc *desc)
{
    (void)desc;
}

/* ----------------------------------------------------------------------
 * Writing back
 * ---------------------------------------------------------------------- */

/*
 * Write desc's page out if it is dirty.  Caller pins desc.  The page is
 * copied under a share content lock (taken here unless this thread holds
 * a lock on it already; conditional: return false at once if the lock is
 * busy), and the copy -- checksummed, if checksums are on -- is written
 * after the lock is released: hint-bit setters may change the page under
 * a share lock, and the checksum must match the bytes written.  Returns
 * true if the buffer was written or needed no write.  On a write error the
 * buffer stays dirty, the caller's pin is dropped and the error raised.
 */
static bool flush_ordered_first(RelFileNumber rel, bool conditional);

static bool
flush_buffer(BufferDesc *desc, bool conditional)
{
    BufferPool *pool = tdb_buf_pool;
    PrivateRefCount *ref = ref_get(desc->buf_id + 1);
    bool take_lock = ref->lock_mode == BUF_LOCK_UNLOCK;
    BufferTag tag = desc->tag; /* stable: we pin it */
    PGAlignedBlock copy;
    volatile bool ordered_ok = true;

    if (take_lock) {
        if (!conditional)
            buf_rwlock_rdlock(&desc->content_lock);
        else if (pthread_rwlock_tryrdlock(&desc->content_lock) != 0)
            return false;
    }
    if (!start_buffer_io(desc, false)) {
        if (take_lock)
            buf_rwlock_unlock(&desc->content_lock);
        return true; /* written by someone else meanwhile */
    }
    memcpy(copy.data, buf_page(desc), BLCKSZ);
    if (take_lock)
        buf_rwlock_unlock(&desc->content_lock);

    TDB_TRY();
    {
        /* the copy holds every change whose map change was marked
         * before it was taken: make those durable first */
        if (tag.fork == MAIN_FORKNUM)
            ordered_ok = flush_ordered_first(tag.rel, conditional);
        if (ordered_ok) {
            wal_flush_before_write(tdb_page_get_lsn(copy.data));
            if (pool->checksums)
                tdb_page_set_checksum(copy.data, tag.blkno);
            tdb_buf_relfile_op(tag.rel, tag.fork, RELFILE_WRITE, tag.blkno,
                               copy.data);
        }
    }
    TDB_CATCH();
    {
        terminate_buffer_io(desc, false, BM_IO_ERROR);
        unpin_buffer(desc);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    if (!ordered_ok) {
        terminate_buffer_io(desc, false, 0); /* still dirty */
        return false;
    }
    terminate_buffer_io(desc, true, 0);
    buf_usage.writes++;
    return true;
}

/*
 * Write every dirty buffer (all) or rel's (those of fork, or of every
 * fork with InvalidForkNumber).  conditional: only try the content locks
 * (flush_buffer); returns false at the first buffer whose lock was
 * taken, leaving it and the rest dirty.  Otherwise returns true.
 */
static bool
flush_buffers(RelFileNumber rel, ForkNumber fork, bool all, bool conditional)
{
    BufferPool *pool = tdb_buf_pool;

    for (int32 i = 0; i < pool->nbuffers; i++) {
        BufferDesc *desc = buf_desc(i);
        uint32 state;
        bool ok;

        /* Unlocked peek: most buffers are clean. */
        state = atomic_load_explicit(&desc->state, memory_order_relaxed);
        if ((state & (BM_VALID | BM_DIRTY)) != (BM_VALID | BM_DIRTY))
            continue;
        ref_reserve();
        state = buf_hdr_lock(desc);
        if ((state & (BM_VALID | BM_DIRTY)) == (BM_VALID | BM_DIRTY) &&
            (all || (desc->tag.rel == rel &&
                     (fork == InvalidForkNumber || desc->tag.fork == fork)))) {
            pin_buffer_locked(desc, state);
            ok = flush_buffer(desc, conditional);
            unpin_buffer(desc);
            if (!ok)
                return false;
        } else
            buf_hdr_unlock(desc, state);
    }
    return true;
}

/*
 * Before a main-fork block of rel is written: if changes of rel's
 * visibility map were marked (tdb_buf_mark_dirty_before_main) since the
 * map was last made durable, write its dirty pages and fsync it.  The
 * count of marks is read before the map is written, so every mark made
 * before the caller copied its page is covered; a mark made later only
 * makes the next write flush again.  Threads doing this at once each
 * write what is still dirty (a page another is writing is waited for)
 * and fsync.  conditional: as flush_buffers; false means nothing was
 * made durable and the caller must not write.  Raises the write or
 * fsync error (the marks stay pending).
 */
static bool
flush_ordered_first(RelFileNumber rel, bool conditional)
{
    uint64 marks;

    if (!tdb_buf_rel_ordered_needed(rel, &marks))
        return true;
    if (!flush_buffers(rel, VISIBILITYMAP_FORKNUM, false, conditional))
        return false;
    tdb_buf_sync_relations(rel, VISIBILITYMAP_FORKNUM, false);
    tdb_buf_rel_ordered_done(rel, marks);
    return true;
}

/* ----------------------------------------------------------------------
 * Finding a buffer for a block
 * ---------------------------------------------------------------------- */

/*
 * Return the buffer for tag, pinned.  If the block is mapped already,
 * *found is set and the buffer returned as it is (it may not be valid
 * yet: its reader may still be at work, or may have failed).  Otherwise
 * a victim is taken (strategy_get_victim), written back if dirty,
 * re-tagged and mapped; *found is false and the buffer is not valid: the
 * caller reads or initializes the page (start_buffer_io first, as another
 * thread may find the buffer too and race to read it).
 */
static BufferDesc *
buffer_alloc(const BufferTag *tag, BufferAccessStrategy strategy, bool *found)
{
    uint32 hash = buf_tag_hash(tag);
    BufMappingPartition *part = partition_of(hash);
    BufferDesc *desc;

    ref_reserve();
    buf_rwlock_rdlock(&part->lock);
    desc = mapping_lookup(hash, tag);
    if (desc != NULL) {
        pin_buffer(desc, strategy);
        buf_rwlock_unlock(&part->lock);
        *found = true;
        return desc;
    }
    buf_rwlock_unlock(&part->lock);

    for (;;) {
        BufferDesc *victim;
        BufMappingPartition *old_part = NULL;
        uint32 old_hash = 0;
        uint32 state;
        bool from_ring;
        bool had_tag;

        ref_reserve();
        victim = tdb_buf_strategy_get_victim(strategy, &state, &from_ring);
        pin_buffer_locked(victim, state);

        /*
         * Write a dirty victim back first.  Its content lock is only
         * tried: someone who pinned it since the sweep may hold it and
         * wait for a lock this thread holds.
         */
        if ((state & BM_DIRTY) && !flush_buffer(victim, true)) {
            unpin_buffer(victim);
            continue;
        }

        /* Our pin keeps the victim's tag from changing. */
        state = atomic_load_explicit(&victim->state, memory_order_acquire);
        had_tag = (state & BM_TAG_VALID) != 0;
        if (had_tag) {
            old_hash = buf_tag_hash(&victim->tag);
            old_part = partition_of(old_hash);
        }
        ref_reserve();
        lock_partitions(part, old_part);

        /* Someone may have mapped our block meanwhile: use theirs. */
        desc = mapping_lookup(hash, tag);
        if (desc != NULL) {
            pin_buffer(desc, strategy);
            unlock_partitions(part, old_part);
            unpin_buffer(victim);
            *found = true;
            return desc;
        }

        /* Re-use the victim only if it is still unused and clean. */
        state = buf_hdr_lock(victim);
        if (buf_state_refcount(state) != 1 || (state & BM_DIRTY)) {
            buf_hdr_unlock(victim, state);
            unlock_partitions(part, old_part);
            unpin_buffer(victim);
            continue;
        }
        if (had_tag) {
            mapping_delete(old_hash, victim);
            if (state & BM_VALID)
                buf_usage.evictions++;
        }
        victim->tag = *tag;
        state &= ~(BM_VALID | BM_DIRTY | BM_JUST_DIRTIED | BM_IO_ERROR |
                   BUF_USAGECOUNT_MASK);
        state |= BM_TAG_VALID | BUF_USAGECOUNT_ONE;
        mapping_insert(hash, victim);
        buf_hdr_unlock(victim, state);
        unlock_partitions(part, old_part);
        *found = false;
        return victim;
    }
}

/*
 * Read desc's block from disk (unless already_read: the caller put it in
 * the page) and verify it (caller started the input I/O).  On failure:
 * end the I/O with BM_IO_ERROR, drop the pin (and the buffer, if nobody
 * else waits for it) and raise.
 */
static void
read_buffer_block(BufferDesc *desc, bool already_read)
{
    BufferPool *pool = tdb_buf_pool;
    Page page = buf_page(desc);

    TDB_TRY();
    {
        PageVerifyReport report;

        if (!already_read)
            tdb_buf_relfile_op(desc->tag.rel, desc->tag.fork, RELFILE_READ,
                               desc->tag.blkno, page);
        if (!tdb_page_verify_ok(tdb_page_verify(page, desc->tag.blkno,
                                                pool->checksums, &report))) {
            char relname[32];

            relation_name(desc->tag.rel, desc->tag.fork, relname,
                          sizeof(relname));
            tdb_page_raise_invalid(relname, desc->tag.blkno, &report);
        }
    }
    TDB_CATCH();
    {
        terminate_buffer_io(desc, false, BM_IO_ERROR);
        unpin_and_forget(desc);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    terminate_buffer_io(desc, false, BM_VALID);
}

/*
 * Like start_buffer_io(desc, true), but never waits: false if the buffer
 * is valid or another thread's I/O on it is in progress.  Read-ahead
 * uses it on buffers it has just mapped, so it neither waits for another
 * thread while holding I/O on other buffers nor reads a block twice.
 */
static bool
start_buffer_io_nowait(BufferDesc *desc)
{
    uint32 state;
    bool todo;

    buf_mutex_lock(&desc->wait_mutex);
    state = buf_hdr_lock(desc);
    todo = !(state & (BM_VALID | BM_IO_IN_PROGRESS));
    if (todo)
        state |= BM_IO_IN_PROGRESS;
    buf_hdr_unlock(desc, state);
    buf_mutex_unlock(&desc->wait_mutex);
    return todo;
}

/* End a read-ahead buffer's I/O as failed and drop it (it was not asked
 * for: nothing is raised; a later tdb_buf_read reads it again). */
static void
abort_read_ahead(BufferDesc *desc)
{
    terminate_buffer_io(desc, false, BM_IO_ERROR);
    unpin_and_forget(desc);
}

/*
 * Read desc's block (whose input I/O the caller started) together with up
 * to max - 1 following blocks below end, with one preadv (a sequential
 * scan's read-ahead: fewer system calls per block).
 *
 * The following blocks get buffers as any miss does (buffer_alloc through
 * the strategy's ring), pinned, with input I/O started; gathering stops at
 * the first block that is mapped already (in the pool, or being read by
 * another thread) or whose I/O another thread started meanwhile -- nothing
 * here waits for another thread while holding I/O in progress.  After the
 * read, each following block that came back whole and passes
 * tdb_page_verify becomes BM_VALID; any other is aborted (BM_IO_ERROR,
 * forgotten) without an error: if the scan asks for it, tdb_buf_read reads
 * it alone and raises then, exactly as without read-ahead.  Their pins are
 * dropped, so the scan's next tdb_buf_read calls hit them.  desc's own
 * block then ends as read_buffer_block ends it (valid, or raising).  If
 * the preadv fails or returns not even desc's block, the others are
 * aborted and desc's block is read alone, which reports the error.
 *
 * Invariant 5: an error while gathering or reading (buffer_alloc's victim
 * write-back or "no unpinned buffers", smgr opening a segment) ends every
 * I/O started here as failed and drops its pin before it propagates.
 */
static void
read_ahead(BufferDesc *desc, BlockNumber end, int max,
           BufferAccessStrategy strategy)
{
    BufferDesc *volatile descs[BUF_READ_AHEAD_MAX];
    volatile int n = 1;
    volatile int nread = 0;

    Assert(max <= BUF_READ_AHEAD_MAX && max <= SMGR_READV_MAX);
    descs[0] = desc;
    TDB_TRY();
    {
        BufferTag tag = desc->tag;
        void *pages[BUF_READ_AHEAD_MAX];

        while (n < max && tag.blkno + 1 < end) {
            BufferDesc *next;
            bool found;

            tag.blkno++;
            next = buffer_alloc(&tag, strategy, &found);
            if (found || !start_buffer_io_nowait(next)) {
                unpin_buffer(next);
                break;
            }
            descs[n] = next;
            n = n + 1;
        }
        if (n > 1) {
            for (int i = 0; i < n; i++)
                pages[i] = buf_page(descs[i]);
            nread = tdb_buf_relfile_readv(desc->tag.rel, desc->tag.fork,
                                          desc->tag.blkno, pages, n);
        }
    }
    TDB_CATCH();
    {
        for (int i = 0; i < n; i++)
            abort_read_ahead(descs[i]);
        TDB_RE_THROW();
    }
    TDB_END_TRY();

    for (int i = 1; i < n; i++) {
        BufferDesc *next = descs[i];
        PageVerifyReport report;

        if (i < nread &&
            tdb_page_verify_ok(tdb_page_verify(buf_page(next),
                                               next->tag.blkno,
                                               tdb_buf_pool->checksums,
                                               &report))) {
            terminate_buffer_io(next, false, BM_VALID);
            unpin_buffer(next);
            buf_usage.reads++;
        } else
            abort_read_ahead(next);
    }
    read_buffer_block(desc, nread >= 1);
}

/* tdb_buf_read and tdb_buf_read_sequential: reading ahead up to max
 * blocks, none at or past end, if max > 1. */
static Buffer
read_buffer(RelFileNumber rel, ForkNumber fork, BlockNumber blkno,
            BufferAccessStrategy strategy, BlockNumber end, int max)
{
    BufferTag tag;
    BufferDesc *desc;
    bool found;

    check_pool();
    if (blkno == InvalidBlockNumber)
        elog(ERROR, "invalid block number %u", blkno);
    tag.rel = rel;
    tag.fork = fork;
    tag.blkno = blkno;
    desc = buffer_alloc(&tag, strategy, &found);
    if (found &&
        (atomic_load_explicit(&desc->state, memory_order_acquire) & BM_VALID)) {
        buf_usage.hits++;
        return desc->buf_id + 1;
    }
    if (!start_buffer_io(desc, true)) {
        buf_usage.hits++; /* another thread read it while we waited */
        return desc->buf_id + 1;
    }
    buf_usage.misses++;
    if (max > 1 && blkno + 1 < end)
        read_ahead(desc, end, max, strategy);
    else
        read_buffer_block(desc, false);
    buf_usage.reads++;
    return desc->buf_id + 1;
}

Buffer
tdb_buf_read(RelFileNumber rel, BlockNumber blkno,
             BufferAccessStrategy strategy)
{
    return read_buffer(rel, MAIN_FORKNUM, blkno, strategy, InvalidBlockNumber,
                       1);
}

/* Raise for a fork number out of range (a caller's bug). */
static inline void
check_fork(ForkNumber fork)
{
    if (unlikely((unsigned)fork > (unsigned)MAX_FORKNUM))
        elog(ERROR, "invalid fork number %d", (int)fork);
}

Buffer
tdb_buf_read_fork(RelFileNumber rel, ForkNumber fork, BlockNumber blkno,
                  BufferAccessStrategy strategy)
{
    check_fork(fork);
    return read_buffer(rel, fork, blkno, strategy, InvalidBlockNumber, 1);
}

Buffer
tdb_buf_read_sequential(RelFileNumber rel, BlockNumber blkno,
                        BlockNumber nblocks, BufferAccessStrategy strategy)
{
    return read_buffer(rel, MAIN_FORKNUM, blkno, strategy, nblocks,
                       tdb_buf_strategy_read_ahead(strategy));
}

Buffer
tdb_buf_extend(RelFileNumber rel, BufferAccessStrategy strategy,
               BlockNumber *blkno_out)
{
    return tdb_buf_extend_fork(rel, MAIN_FORKNUM, strategy, blkno_out);
}

Buffer
tdb_buf_extend_fork(RelFileNumber rel, ForkNumber fork,
                    BufferAccessStrategy strategy, BlockNumber *blkno_out)
{
    BufferPool *pool;
    BufRelation *entry;
    BufferDesc *volatile desc = NULL;
    volatile bool io_started = false;
    volatile bool locked = false;
    Buffer buffer;

    check_pool();
    check_fork(fork);
    pool = tdb_buf_pool;
    entry = tdb_buf_rel_entry(rel);
    buf_mutex_lock(&entry->extension_lock[fork]);
    TDB_TRY();
    {
        PGAlignedBlock copy;
        BufferTag tag;
        bool found;
        Page page;

        tag.rel = rel;
        tag.fork = fork;
        tag.blkno = tdb_buf_relfile_op(rel, fork, RELFILE_NBLOCKS, 0, NULL);
        desc = buffer_alloc(&tag, strategy, &found);
        /* A valid buffer past the end: someone wrote where no block is. */
        if (!start_buffer_io(desc, true)) {
            char relname[32];

            relation_name(rel, fork, relname, sizeof(relname));
            ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("unexpected data beyond EOF in block %u of "
                           "relation %s",
                           tag.blkno, relname));
        }
        io_started = true;
        /* Nobody can hold the lock of a buffer that is not valid yet. */
        buf_rwlock_wrlock(&desc->content_lock);
        locked = true;

        page = buf_page(desc);
        tdb_page_init(page, 0);
        memcpy(copy.data, page, BLCKSZ);
        if (pool->checksums)
            tdb_page_set_checksum(copy.data, tag.blkno);
        tdb_buf_relfile_op(rel, fork, RELFILE_EXTEND, tag.blkno, copy.data);
    }
    TDB_CATCH();
    {
        if (desc != NULL) {
            if (io_started)
                terminate_buffer_io(desc, false, BM_IO_ERROR);
            if (locked)
                buf_rwlock_unlock(&desc->content_lock);
            unpin_and_forget(desc);
        }
        buf_mutex_unlock(&entry->extension_lock[fork]);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    terminate_buffer_io(desc, false, BM_VALID);
    buf_mutex_unlock(&entry->extension_lock[fork]);

    buffer = desc->buf_id + 1;
    ref_get(buffer)->lock_mode = BUF_LOCK_EXCLUSIVE;
    buf_usage.extends++;
    if (blkno_out != NULL)
        *blkno_out = desc->tag.blkno;
    return buffer;
}

void
tdb_buf_write_unbuffered(RelFileNumber rel, BlockNumber blkno, Page page,
                         bool extend)
{
    check_pool();
    if (tdb_buf_pool->checksums)
        tdb_page_set_checksum(page, blkno);
    tdb_buf_relfile_op(rel, MAIN_FORKNUM,
                       extend ? RELFILE_EXTEND : RELFILE_WRITE, blkno, page);
}

/* ----------------------------------------------------------------------
 * Pins and locks: the public calls
 * ---------------------------------------------------------------------- */

BlockNumber
tdb_buf_relation_nblocks(RelFileNumber rel)
{
    check_pool();
    return tdb_buf_relfile_op(rel, MAIN_FORKNUM, RELFILE_NBLOCKS,
                              InvalidBlockNumber, NULL);
}

BlockNumber
tdb_buf_fork_nblocks(RelFileNumber rel, ForkNumber fork)
{
    check_pool();
    check_fork(fork);
    return tdb_buf_relfile_op(rel, fork, RELFILE_NBLOCKS, InvalidBlockNumber,
                              NULL);
}

void
tdb_buf_release(Buffer buffer)
{
    BufferDesc *desc = buffer_get_desc(buffer);
    PrivateRefCount *ref = ref_pinned(buffer);

    if (ref->refcount == 1 && ref->lock_mode != BUF_LOCK_UNLOCK)
        elog(ERROR, "buffer %d released while this thread holds its lock",
             buffer);
    unpin_buffer(desc);
}

void
tdb_buf_incr_pin(Buffer buffer)
{
    (void)buffer_get_desc(buffer);
    ref_pinned(buffer)->refcount++;
}

void
tdb_buf_unlock_release(Buffer buffer)
{
    tdb_buf_lock(buffer, BUF_LOCK_UNLOCK);
    tdb_buf_release(buffer);
}

/* Release one entry's lock and pin (error recovery). */
static void
release_ref(PrivateRefCount *ref)
{
    BufferDesc *desc = buf_desc(ref->buffer - 1);

    if (ref->lock_mode != BUF_LOCK_UNLOCK)
        buf_rwlock_unlock(&desc->content_lock);
    ref->lock_mode = BUF_LOCK_UNLOCK;
    ref->refcount = 0;
    ref_forget(ref);
    unpin_shared(desc);
}

int
tdb_buf_release_all_pins_of_thread(void)
{
    int n = 0;

    if (tdb_buf_pool == NULL) {
        ref_forget_all();
        return 0;
    }
    for (int i = 0; i < REFCOUNT_ARRAY_ENTRIES; i++)
        if (ref_array[i].buffer != InvalidBuffer) {
            release_ref(&ref_array[i]);
            n++;
        }
    /* Deletion shifts entries, so start the scan over after each one. */
    while (ref_overflow != NULL && ref_overflow->used > 0) {
        uint32 j = 0;

        while (ref_overflow->entries[j].buffer == InvalidBuffer)
            j++;
        release_ref(&ref_overflow->entries[j]);
        n++;
    }
    return n;
}

int
tdb_buf_pins_held(void)
{
    return ref_nbuffers;
}

void
tdb_buf_lock(Buffer buffer, BufferLockMode mode)
{
    BufferDesc *desc = buffer_get_desc(buffer);
    PrivateRefCount *ref = ref_pinned(buffer);

    switch (mode) {
    case BUF_LOCK_UNLOCK:
        if (ref->lock_mode == BUF_LOCK_UNLOCK)
            elog(ERROR, "buffer %d is not locked by this thread", buffer);
        buf_rwlock_unlock(&desc->content_lock);
        ref->lock_mode = BUF_LOCK_UNLOCK;
        return;
    case BUF_LOCK_SHARE:
    case BUF_LOCK_EXCLUSIVE:
        if (ref->lock_mode != BUF_LOCK_UNLOCK)
            elog(ERROR, "buffer %d is already locked by this thread", buffer);
        if (mode == BUF_LOCK_SHARE)
            buf_rwlock_rdlock(&desc->content_lock);
        else
            buf_rwlock_wrlock(&desc->content_lock);
        ref->lock_mode = mode;
        return;
    }
    elog(ERROR, "unrecognized buffer lock mode: %d", (int)mode);
}

bool
tdb_buf_try_lock(Buffer buffer, BufferLockMode mode)
{
    BufferDesc *desc = buffer_get_desc(buffer);
    PrivateRefCount *ref = ref_pinned(buffer);
    int rc;

    if (mode != BUF_LOCK_SHARE && mode != BUF_LOCK_EXCLUSIVE)
        elog(ERROR, "unrecognized buffer lock mode: %d", (int)mode);
    if (ref->lock_mode != BUF_LOCK_UNLOCK)
        elog(ERROR, "buffer %d is already locked by this thread", buffer);
    rc = mode == BUF_LOCK_SHARE ? pthread_rwlock_tryrdlock(&desc->content_lock)
                                : pthread_rwlock_trywrlock(&desc->content_lock);
    if (rc == EBUSY)
        return false;
    if (rc != 0)
        tdb_buf_pthread_failed("try a readers/writer lock", rc);
    ref->lock_mode = mode;
    return true;
}

/* Checks shared by the cleanup-lock calls. */
static PrivateRefCount *
cleanup_lock_ref(Buffer buffer)
{
    PrivateRefCount *ref = ref_pinned(buffer);

    if (ref->refcount != 1)
        elog(ERROR, "incorrect local pin count: %d", ref->refcount);
    if (ref->lock_mode != BUF_LOCK_UNLOCK)
        elog(ERROR, "buffer %d is already locked by this thread", buffer);
    return ref;
}

void
tdb_buf_lock_for_cleanup(Buffer buffer)
{
    BufferDesc *desc = buffer_get_desc(buffer);
    PrivateRefCount *ref = cleanup_lock_ref(buffer);

    for (;;) {
        uint32 state;

        buf_rwlock_wrlock(&desc->content_lock);
        state = buf_hdr_lock(desc);
        if (buf_state_refcount(state) == 1) {
            buf_hdr_unlock(desc, state);
            ref->lock_mode = BUF_LOCK_EXCLUSIVE;
            return;
        }
        if (state & BM_PIN_COUNT_WAITER) {
            buf_hdr_unlock(desc, state);
            buf_rwlock_unlock(&desc->content_lock);
            elog(ERROR, "multiple threads attempting to wait for pincount 1");
        }
        /*
         * Let the other pin holders finish (they may need the lock to do
         * so) and sleep until the last of them unpins: unpin_shared
         * clears the flag under wait_mutex and wakes us.
         */
        buf_hdr_unlock(desc, state | BM_PIN_COUNT_WAITER);
        buf_rwlock_unlock(&desc->content_lock);
        buf_mutex_lock(&desc->wait_mutex);
        while (atomic_load_explicit(&desc->state, memory_order_acquire) &
               BM_PIN_COUNT_WAITER)
            pthread_cond_wait(&desc->wait_cond, &desc->wait_mutex);
        buf_mutex_unlock(&desc->wait_mutex);
    }
}

bool
tdb_buf_try_lock_for_cleanup(Buffer buffer)
{
    BufferDesc *desc = buffer_get_desc(buffer);
    PrivateRefCount *ref = cleanup_lock_ref(buffer);
    uint32 state;
    int rc = pthread_rwlock_trywrlock(&desc->content_lock);

    if (rc == EBUSY)
        return false;
    if (rc != 0)
        tdb_buf_pthread_failed("try a readers/writer lock", rc);
    state = buf_hdr_lock(desc);
    buf_hdr_unlock(desc, state);
    if (buf_state_refcount(state) != 1) {
        buf_rwlock_unlock(&desc->content_lock);
        return false;
    }
    ref->lock_mode = BUF_LOCK_EXCLUSIVE;
    return true;
}

Page
tdb_buf_page(Buffer buffer)
{
    BufferDesc *desc = buffer_get_desc(buffer);

    Assert(ref_get(buffer) != NULL);
    return buf_page(desc);
}

BlockNumber
tdb_buf_block_number(Buffer buffer)
{
    BufferDesc *desc = buffer_get_desc(buffer);

    Assert(ref_get(buffer) != NULL);
    return desc->tag.blkno;
}

BlockNumber
tdb_buf_block_of_pointer(const void *ptr)
{
    const char *p = ptr;
    Size off;

    if (tdb_buf_pool == NULL || p < tdb_buf_pool->pages ||
        p >= tdb_buf_pool->pages + (Size)tdb_buf_pool->nbuffers * BLCKSZ)
        return InvalidBlockNumber;
    off = (Size)(p - tdb_buf_pool->pages);
    return buf_desc((int)(off / BLCKSZ))->tag.blkno;
}

RelFileNumber
tdb_buf_relnumber(Buffer buffer)
{
    BufferDesc *desc = buffer_get_desc(buffer);

    Assert(ref_get(buffer) != NULL);
    return desc->tag.rel;
}

ForkNumber
tdb_buf_fork_number(Buffer buffer)
{
    BufferDesc *desc = buffer_get_desc(buffer);

    Assert(ref_get(buffer) != NULL);
    return desc->tag.fork;
}

/* Set BM_DIRTY | BM_JUST_DIRTIED; count the buffer if it was clean. */
static void
set_dirty(BufferDesc *desc)
{
    uint32 old = atomic_load_explicit(&desc->state, memory_order_relaxed);

    for (;;) {
        if (old & BM_LOCKED)
            old = tdb_buf_hdr_wait_unlocked(desc);
        if ((old & (BM_DIRTY | BM_JUST_DIRTIED)) ==
            (BM_DIRTY | BM_JUST_DIRTIED))
            return;
        if (atomic_compare_exchange_weak_explicit(
                &desc->state, &old, old | BM_DIRTY | BM_JUST_DIRTIED,
                memory_order_acq_rel, memory_order_relaxed))
            break;
    }
    if (!(old & BM_DIRTY))
        buf_usage.dirtied++;
}

void
tdb_buf_mark_dirty(Buffer buffer)
{
    BufferDesc *desc = buffer_get_desc(buffer);
    PrivateRefCount *ref = ref_pinned(buffer);

    if (ref->lock_mode != BUF_LOCK_EXCLUSIVE)
        elog(ERROR, "buffer %d is marked dirty without its exclusive lock",
             buffer);
    wal_page_changed(desc);
    set_dirty(desc);
}

void
tdb_buf_mark_dirty_before_main(Buffer buffer)
{
    BufferDesc *desc = buffer_get_desc(buffer);

    if (desc->tag.fork != VISIBILITYMAP_FORKNUM)
        elog(ERROR, "buffer %d is not a visibility map page", buffer);
    /* counted before the page is dirty: a main-fork write that finds the
     * mark covers this change once it is made (under this lock) */
    tdb_buf_rel_ordered_mark(desc->tag.rel);
    tdb_buf_mark_dirty(buffer);
}

void
tdb_buf_mark_dirty_hint(Buffer buffer)
{
    BufferDesc *desc = buffer_get_desc(buffer);
    PrivateRefCount *ref = ref_pinned(buffer);

    if (ref->lock_mode == BUF_LOCK_UNLOCK)
        elog(ERROR, "buffer %d is marked dirty without its lock", buffer);
    /* With the WAL and checksums, PostgreSQL logs a full-page image of
     * the first hint after a checkpoint here; tupledb will have to too. */
    set_dirty(desc);
}

/* ----------------------------------------------------------------------
 * Whole relations and the pool
 * ---------------------------------------------------------------------- */

void
tdb_buf_flush_relation(RelFileNumber rel)
{
    check_pool();
    /* one pass over the pool: the first main-fork page written makes the
     * map durable first if a change of it was marked (flush_buffer) */
    flush_buffers(rel, InvalidForkNumber, false, false);
    tdb_buf_sync_relations(rel, InvalidForkNumber, false);
}

void
tdb_buf_flush_all(void)
{
    check_pool();
    flush_buffers(InvalidRelFileNumber, InvalidForkNumber, true, false);
    tdb_buf_sync_relations(InvalidRelFileNumber, InvalidForkNumber, true);
}

static void invalidate_buffer(BufferDesc *desc, RelFileNumber rel,
                              ForkNumber fork, BlockNumber first_block);

void
tdb_buf_truncate_fork(RelFileNumber rel, ForkNumber fork, BlockNumber nblocks)
{
    BufferPool *pool;

    check_pool();
    check_fork(fork);
    pool = tdb_buf_pool;
    for (int32 i = 0; i < pool->nbuffers; i++)
        invalidate_buffer(buf_desc(i), rel, fork, nblocks);
    tdb_buf_relfile_truncate(rel, fork, nblocks);
    /* the map cut short must be durable before the heap grows into the
     * blocks it covered (visibilitymap.c) */
    if (fork == VISIBILITYMAP_FORKNUM)
        tdb_buf_rel_ordered_mark(rel);
}

/*
 * Forget desc if it holds a block of rel (of fork, block first_block or
 * later; InvalidForkNumber: any block of any fork): wait for other
 * threads' pins to go (they can only be transient: flushes and
 * evictions), unmap it and put it on the free list.
 */
static void
invalidate_buffer(BufferDesc *desc, RelFileNumber rel, ForkNumber fork,
                  BlockNumber first_block)
{
    for (;;) {
        uint32 state = buf_hdr_lock(desc);
        BufferTag tag = desc->tag;
        uint32 hash;
        BufMappingPartition *part;

        if (!(state & BM_TAG_VALID) || tag.rel != rel ||
            (fork != InvalidForkNumber &&
             (tag.fork != fork || tag.blkno < first_block))) {
            buf_hdr_unlock(desc, state);
            return;
        }
        buf_hdr_unlock(desc, state);

        hash = buf_tag_hash(&tag);
        part = partition_of(hash);
        buf_rwlock_wrlock(&part->lock);
        state = buf_hdr_lock(desc);
        if (!(state & BM_TAG_VALID) || !buf_tag_equal(&desc->tag, &tag)) {
            /* re-used meanwhile: look again */
            buf_hdr_unlock(desc, state);
            buf_rwlock_unlock(&part->lock);
            continue;
        }
        if (buf_state_refcount(state) != 0) {
            buf_hdr_unlock(desc, state);
            buf_rwlock_unlock(&part->lock);
            if (ref_get(desc->buf_id + 1) != NULL)
                elog(ERROR,
                     "buffer %d of relation %u is pinned by this "
                     "thread",
                     desc->buf_id + 1, rel);
            if (state & BM_IO_IN_PROGRESS)
                wait_buffer_io(desc);
            else
                sched_yield();
            continue;
        }
        mapping_delete(hash, desc);
        desc->tag.rel = InvalidRelFileNumber;
        desc->tag.fork = InvalidForkNumber;
        desc->tag.blkno = InvalidBlockNumber;
        state &= ~(BM_TAG_VALID | BM_VALID | BM_DIRTY | BM_JUST_DIRTIED |
                   BM_IO_ERROR | BUF_USAGECOUNT_MASK);
        buf_hdr_unlock(desc, state);
        buf_rwlock_unlock(&part->lock);
        tdb_buf_freelist_push(desc);
        return;
    }
}

static void
check_not_pinned_here(const PrivateRefCount *ref, RelFileNumber rel)
{
    if (buf_desc(ref->buffer - 1)->tag.rel == rel)
        elog(ERROR, "buffer %d of relation %u is pinned by this thread",
             ref->buffer, rel);
}

void
tdb_buf_drop_relation(RelFileNumber rel)
{
    BufferPool *pool;

    check_pool();
    pool = tdb_buf_pool;
    /* Refuse before dropping anything if this thread pins a buffer of
     * rel (a pin holder's tag is stable, so this is exact). */
    for (int i = 0; i < REFCOUNT_ARRAY_ENTRIES; i++)
        if (ref_array[i].buffer != InvalidBuffer)
            check_not_pinned_here(&ref_array[i], rel);
    if (ref_overflow != NULL)
        for (uint32 i = 0; i < ref_overflow->size; i++)
            if (ref_overflow->entries[i].buffer != InvalidBuffer)
                check_not_pinned_here(&ref_overflow->entries[i], rel);
    for (int32 i = 0; i < pool->nbuffers; i++)
        invalidate_buffer(buf_desc(i), rel, InvalidForkNumber, 0);
    tdb_buf_rel_forget(rel);
}

/* ----------------------------------------------------------------------
 * Statistics
 * ---------------------------------------------------------------------- */

void
tdb_buf_usage(BufferUsage *usage)
{
    *usage = buf_usage;
}

void
tdb_buf_pool_stats(BufferPoolStats *stats)
{
    memset(stats, 0, sizeof(*stats));
    if (tdb_buf_pool == NULL)
        return;
    stats->nbuffers = tdb_buf_pool->nbuffers;
    for (int32 i = 0; i < tdb_buf_pool->nbuffers; i++) {
        uint32 state =
            atomic_load_explicit(&buf_desc(i)->state, memory_order_relaxed);

        if (state & BM_VALID) {
            stats->nvalid++;
            if (state & BM_DIRTY)
                stats->ndirty++;
        }
        if (buf_state_refcount(state) > 0)
            stats->npinned++;
    }
}

/* The state of rel/fork/blkno's buffer (header lock not kept), or false. */
static bool
lookup_state(RelFileNumber rel, ForkNumber fork, BlockNumber blkno,
             uint32 *state)
{
    BufferTag tag;
    uint32 hash;
    BufMappingPartition *part;
    BufferDesc *desc;

    if (tdb_buf_pool == NULL)
        return false;
    tag.rel = rel;
    tag.fork = fork;
    tag.blkno = blkno;
    hash = buf_tag_hash(&tag);
    part = partition_of(hash);
    buf_rwlock_rdlock(&part->lock);
    desc = mapping_lookup(hash, &tag);
    if (desc != NULL)
        *state = atomic_load_explicit(&desc->state, memory_order_acquire);
    buf_rwlock_unlock(&part->lock);
    return desc != NULL;
}

bool
tdb_buf_is_cached(RelFileNumber rel, BlockNumber blkno)
{
    uint32 state;

    return lookup_state(rel, MAIN_FORKNUM, blkno, &state) && (state & BM_VALID);
}

bool
tdb_buf_fork_is_cached(RelFileNumber rel, ForkNumber fork, BlockNumber blkno)
{
    uint32 state;

    return lookup_state(rel, fork, blkno, &state) && (state & BM_VALID);
}

int
tdb_buf_usage_count(RelFileNumber rel, BlockNumber blkno)
{
    uint32 state;

    return lookup_state(rel, MAIN_FORKNUM, blkno, &state)
               ? (int)buf_state_usage(state)
               : -1;
}

/* ----------------------------------------------------------------------
 * Creating and freeing the pool
 * ---------------------------------------------------------------------- */

static const SlotBufferHooks buf_slot_hooks = {tdb_buf_incr_pin,
                                               tdb_buf_release};

bool
tdb_bufmgr_is_initialized(void)
{
    return tdb_buf_pool != NULL;
}

int
tdb_bufmgr_nbuffers(void)
{
    return tdb_buf_pool != NULL ? tdb_buf_pool->nbuffers : 0;
}

/* Initialize the pool's locks (after its memory is allocated). */
static void
pool_init_locks(BufferPool *pool)
{
    pthread_rwlockattr_t attr;
    int rc;

    /* Writer-preferring rwlocks: a stream of share lockers must not
     * starve an exclusive locker (nobody re-takes a share lock it holds,
     * which would deadlock with this kind). */
    if ((rc = pthread_rwlockattr_init(&attr)) != 0 ||
        (rc = pthread_rwlockattr_setkind_np(
             &attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP)) != 0)
        tdb_buf_pthread_failed("set up readers/writer lock attributes", rc);
    for (int32 i = 0; i < pool->nbuffers; i++) {
        BufferDesc *desc = &pool->descs[i].desc;

        desc->buf_id = i;
        desc->tag.rel = InvalidRelFileNumber;
        desc->tag.fork = InvalidForkNumber;
        desc->tag.blkno = InvalidBlockNumber;
        atomic_init(&desc->state, 0);
        desc->hash_next = InvalidBuffer;
        if ((rc = pthread_rwlock_init(&desc->content_lock, &attr)) != 0 ||
            (rc = pthread_mutex_init(&desc->wait_mutex, NULL)) != 0 ||
            (rc = pthread_cond_init(&desc->wait_cond, NULL)) != 0)
            tdb_buf_pthread_failed("initialize a buffer's locks", rc);
    }
    for (int i = 0; i < NUM_BUFFER_PARTITIONS; i++)
        if ((rc = pthread_rwlock_init(&pool->partitions[i].lock, NULL)) != 0)
            tdb_buf_pthread_failed("initialize a mapping lock", rc);
    pthread_rwlockattr_destroy(&attr);
    if ((rc = pthread_mutex_init(&pool->freelist_lock, NULL)) != 0 ||
        (rc = pthread_mutex_init(&pool->rel_lock, NULL)) != 0)
        tdb_buf_pthread_failed("initialize a mutex", rc);
    tdb_buf_strategy_init(pool);
}

void
tdb_bufmgr_init(const char *datadir, int nbuffers, bool checksums)
{
    MemoryContext cxt;
    BufferPool *volatile pool = NULL;

    if (tdb_buf_pool != NULL)
        elog(ERROR, "buffer pool is already initialized");
    if (nbuffers < TDB_MIN_NBUFFERS || nbuffers > TDB_MAX_NBUFFERS)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid number of buffers: %d", nbuffers),
                errdetail("The buffer pool needs between %d and %d buffers.",
                          TDB_MIN_NBUFFERS, TDB_MAX_NBUFFERS));

    /* A top-level context: the pool outlives any thread's tree. */
    cxt = tdb_aset_create(NULL, "BufferPool", ALLOCSET_DEFAULT_SIZES);
    TDB_TRY();
    {
        BufferPool *p = tdb_mcxt_alloc_zero(cxt, sizeof(BufferPool));
        uint32 nbuckets = (uint32)tdb_next_power_of_2_64((uint64)nbuffers);
        Size desc_bytes =
            tdb_mcxt_array_size((Size)nbuffers, sizeof(BufferDescPadded));
        Size page_bytes = tdb_mcxt_array_size((Size)nbuffers, BLCKSZ);

        if (nbuckets < NUM_BUFFER_PARTITIONS)
            nbuckets = NUM_BUFFER_PARTITIONS;
        p->cxt = cxt;
        p->datadir = tdb_mcxt_strdup(cxt, datadir);
        p->checksums = checksums;
        p->nbuffers = nbuffers;
        p->descs =
            align_up(tdb_mcxt_alloc_extended(cxt, desc_bytes + 64,
                                             MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO),
                     64);
        /* Pages are not zeroed: a slot is read or initialized before use. */
        p->pages =
            align_up(tdb_mcxt_alloc_extended(cxt, page_bytes + PAGE_SLOT_ALIGN,
                                             MCXT_ALLOC_HUGE),
                     PAGE_SLOT_ALIGN);
        p->bucket_mask = nbuckets - 1;
        p->buckets =
            tdb_mcxt_alloc_extended(cxt, (Size)nbuckets * sizeof(int32),
                                    MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
        p->partitions = align_up(
            tdb_mcxt_alloc_zero(
                cxt, NUM_BUFFER_PARTITIONS * sizeof(BufMappingPartition) + 64),
            64);
        tdb_buf_rel_init(p);
        pool = p;
    }
    TDB_CATCH();
    {
        tdb_mcxt_delete(cxt);
        TDB_RE_THROW();
    }
    TDB_END_TRY();

    pool_init_locks(pool);
    tdb_buf_pool = pool;
    tdb_slot_set_buffer_hooks(&buf_slot_hooks);
}

/* Free everything of the pool (nothing is written). */
static void
pool_free(void)
{
    BufferPool *pool = tdb_buf_pool;

    tdb_buf_rel_free_all();
    for (int32 i = 0; i < pool->nbuffers; i++) {
        BufferDesc *desc = &pool->descs[i].desc;

        pthread_rwlock_destroy(&desc->content_lock);
        pthread_mutex_destroy(&desc->wait_mutex);
        pthread_cond_destroy(&desc->wait_cond);
    }
    for (int i = 0; i < NUM_BUFFER_PARTITIONS; i++)
        pthread_rwlock_destroy(&pool->partitions[i].lock);
    pthread_mutex_destroy(&pool->freelist_lock);
    pthread_mutex_destroy(&pool->rel_lock);
    tdb_buf_pool = NULL;
    tdb_slot_set_buffer_hooks(NULL);
    tdb_mcxt_delete(pool->cxt);
}

void
tdb_bufmgr_shutdown(void)
{
    BufferPoolStats stats;

    if (tdb_buf_pool == NULL)
        return;
    tdb_buf_pool_stats(&stats);
    if (stats.npinned > 0)
        elog(ERROR,
             "cannot shut down the buffer pool: %d buffers are "
             "pinned",
             stats.npinned);
    tdb_buf_flush_all();
    pool_free();
}

void
tdb_bufmgr_discard(void)
{
    if (tdb_buf_pool == NULL)
        return;
    ref_forget_all();
    pool_free();
}
