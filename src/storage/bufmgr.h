/*
 * bufmgr.h -- the buffer pool: one process-wide cache of relation pages,
 * shared by every thread (tupledb runs a thread per connection where
 * PostgreSQL runs a process per backend).
 *
 * A buffer is one BLCKSZ page slot of the pool, named by a 1-based Buffer
 * (tuple/slot.h; InvalidBuffer is 0).  The pool maps (relation file number,
 * fork, block number) to buffers -- the main fork's calls name no fork,
 * the other forks' calls end in _fork -- reads missing blocks through smgr,
 * verifies them (page.h), and writes dirty pages back when they are evicted or
 * flushed, with their checksum.  Replacement is PostgreSQL's clock sweep;
 * bulk operations can confine themselves to a small ring of buffers
 * (BufferAccessStrategy) so that one big scan does not evict everything.
 *
 * Typical use (a reader, then a writer):
 *
 *     Buffer buf = tdb_buf_read(rel, blkno, NULL);     pinned
 *     tdb_buf_lock(buf, BUF_LOCK_SHARE);
 *     ... read tdb_buf_page(buf) ...
 *     tdb_buf_unlock_release(buf);
 *
 *     Buffer buf = tdb_buf_read(rel, blkno, NULL);
 *     tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
 *     ... change the page ...
 *     tdb_buf_mark_dirty(buf);                          before unlocking
 *     tdb_buf_unlock_release(buf);
 *
 * The rules (numbered in src/storage/README.md, "Buffer pool"):
 *   - Pin before anything else: a pin keeps the buffer from being evicted
 *     or re-used for another block; the page pointer, tag and block
 *     number are valid only while the caller holds one.
 *   - Content locks (per buffer, readers/writer): share to read the page,
 *     exclusive to change it.  A pin without a lock may only look at
 *     things that cannot move (a tuple in a page it pinned before).
 *   - Every change is followed by tdb_buf_mark_dirty() under the exclusive
 *     lock: the one place the WAL will hook into.
 *   - Pins and locks belong to the thread that took them; error recovery
 *     drops them all with tdb_buf_release_all_pins_of_thread().
 *
 * Errors: reads raise smgr's errors (ERRCODE_IO_ERROR, ...), and
 * ERRCODE_DATA_CORRUPTED "invalid page in block N of relation base/R" for
 * a page that fails tdb_page_verify; extension raises ERRCODE_DISK_FULL
 * when the disk is full.  Whatever fails, the call leaves no pin, lock or
 * half-read buffer behind, and the pool stays usable.  Misuse (releasing
 * a buffer not pinned, locking a buffer twice, marking a buffer dirty
 * without the exclusive lock) raises an internal error in every build.
 *
 * Threads: every function may be called from any thread, once the pool is
 * initialized; tdb_bufmgr_init/shutdown must not run concurrently with
 * anything else.  A BufferAccessStrategy belongs to one thread.
 */
#ifndef TDB_STORAGE_BUFMGR_H
#define TDB_STORAGE_BUFMGR_H

#include "common/base.h"
#include "storage/block.h"
#include "storage/page.h"
#include "tuple/slot.h" /* Buffer, InvalidBuffer */

/* 16384 buffers of 8 kB: a 128 MB pool, PostgreSQL's shared_buffers. */
#define TDB_DEFAULT_NBUFFERS 16384
/* The smallest pool tdb_bufmgr_init accepts (PostgreSQL's minimum too). */
#define TDB_MIN_NBUFFERS 16
/* The largest: 2^30 buffers (8 TB of 8 kB pages). */
#define TDB_MAX_NBUFFERS (1 << 30)

/* Content lock modes for tdb_buf_lock. */
typedef enum BufferLockMode {
    BUF_LOCK_UNLOCK = 0,    /* release the lock this thread holds */
    BUF_LOCK_SHARE = 1,     /* read the page; others may read too */
    BUF_LOCK_EXCLUSIVE = 2, /* change the page; nobody else locks it */
} BufferLockMode;

/*
 * Buffer access strategies (PostgreSQL's): a ring of a few buffers that a
 * bulk operation keeps re-using instead of taking buffers from the rest of
 * the pool.  Ring sizes as PostgreSQL's, capped at 1/8 of the pool:
 *   BULKREAD   256 kB  sequential scans of large relations
 *   BULKWRITE   16 MB  bulk loads (COPY, CREATE TABLE AS)
 *   VACUUM     256 kB  vacuum
 */
typedef enum BufferAccessStrategyType {
    BUF_STRATEGY_BULKREAD = 1,
    BUF_STRATEGY_BULKWRITE,
    BUF_STRATEGY_VACUUM,
} BufferAccessStrategyType;

/* NULL means "no strategy": the normal clock sweep over the whole pool. */
typedef struct BufferAccessStrategyData *BufferAccessStrategy;

/*
 * What this thread's buffer accesses cost since it started: the figures of
 * EXPLAIN (BUFFERS), PostgreSQL's BufferUsage.  Counters only grow;
 * callers take two readings and subtract.
 */
typedef struct BufferUsage {
    uint64 hits;      /* tdb_buf_read found the block valid in the pool */
    uint64 misses;    /* tdb_buf_read had to read it (or failed to) */
    uint64 reads;     /* blocks read from disk successfully */
    uint64 writes;    /* dirty blocks written back (eviction or flush) */
    uint64 evictions; /* valid blocks thrown out to make room */
    uint64 extends;   /* blocks added by tdb_buf_extend */
    uint64 dirtied;   /* clean buffers this thread made dirty */
} BufferUsage;

/* A snapshot of the whole pool (tdb_buf_pool_stats). */
typedef struct BufferPoolStats {
    int32 nbuffers; /* the pool's size */
    int32 nvalid;   /* buffers holding a block */
    int32 ndirty;   /* ... changed since it was read or written */
    int32 npinned;  /* ... pinned by some thread */
} BufferPoolStats;

/* ----------------------------------------------------------------------
 * The pool
 * ---------------------------------------------------------------------- */

/*
 * Create the process's buffer pool: nbuffers (TDB_MIN_NBUFFERS ..
 * TDB_MAX_NBUFFERS; ERRCODE_INVALID_PARAMETER_VALUE otherwise) page
 * slots for relations of the data directory at datadir (borrowed; copied),
 * which the caller has opened (datadir.h) and keeps open.  checksums:
 * whether pages carry data checksums (set on write, verified on read).
 * The pool lives in a top-level memory context of its own.  Registers
 * tdb_buf_incr_pin/tdb_buf_release as the slot layer's buffer hooks.
 * Raises if a pool exists already.
 */
void tdb_bufmgr_init(const char *datadir, int nbuffers, bool checksums);

/*
 * Write every dirty buffer, fsync the relations written, and free the
 * pool.  No thread may hold a pin (internal error otherwise).  If writing
 * fails, the error is raised and the pool stays as it was (retry, or give
 * up as a crash would).  A no-op without a pool.
 */
void tdb_bufmgr_shutdown(void);

/*
 * Free the pool without writing anything -- what a crash does to it --
 * and forget this thread's pins.  Other threads must not hold pins.  For
 * giving up on a database (catalog/database.c) and for crash tests.
 */
void tdb_bufmgr_discard(void);

/* Whether the pool exists, and its number of buffers (0 if not). */
bool tdb_bufmgr_is_initialized(void);
int tdb_bufmgr_nbuffers(void);

/* ----------------------------------------------------------------------
 * Getting buffers
 * ---------------------------------------------------------------------- */

/*
 * Return block blkno of relation rel, pinned (not locked).  If the block
 * is not in the pool, a buffer is taken by the clock sweep (or from
 * strategy's ring), written back first if dirty, and the block is read
 * and verified.  Several threads asking for the same missing block read
 * it once: the others wait for that read.  strategy may be NULL.
 *
 * Raises smgr's read errors (a block past the end of the relation:
 * ERRCODE_DATA_CORRUPTED "could not read block ..."), ERRCODE_DATA_CORRUPTED
 * "invalid page in block %u of relation base/%u" for a page that fails
 * verification (the buffer is then forgotten, so the next read tries the
 * disk again), the victim's write errors, and "no unpinned buffers
 * available" if every buffer is pinned.
 */
Buffer tdb_buf_read(RelFileNumber rel, BlockNumber blkno,
                    BufferAccessStrategy strategy);

/* tdb_buf_read of a block of any fork of rel (block.h: ForkNumber). */
Buffer tdb_buf_read_fork(RelFileNumber rel, ForkNumber fork, BlockNumber blkno,
                         BufferAccessStrategy strategy);

/*
 * tdb_buf_read for a scan reading blocks blkno, blkno + 1, ... in order,
 * nblocks being the relation's length for the scan.  With a BULKREAD
 * strategy, a miss reads blkno and up to 15 following blocks (below
 * nblocks, none already in the pool; at most half the ring) with one
 * system call, so the scan's next calls hit them.  Raises what
 * tdb_buf_read raises, for blkno only: a following block that cannot be
 * read or fails verification is dropped, and raises when asked for.
 * Buffer usage counts every block read from disk in reads, but only
 * blkno's miss in misses (the following blocks are hits when asked for).
 */
Buffer tdb_buf_read_sequential(RelFileNumber rel, BlockNumber blkno,
                               BlockNumber nblocks,
                               BufferAccessStrategy strategy);

/*
 * Add one block to relation rel -- an empty page (tdb_page_init, no
 * special space), written to disk at once -- and return it pinned and
 * exclusively locked; *blkno_out receives its block number.  Extensions of
 * one relation are serialized (a per-relation extension lock); the
 * relation's length is asked of the file, so every extension must go
 * through the pool.  On failure (ERRCODE_DISK_FULL "could not extend file
 * ...", hint "Check free disk space.") the relation keeps its length and
 * the pool holds nothing of the new block.
 */
Buffer tdb_buf_extend(RelFileNumber rel, BufferAccessStrategy strategy,
                      BlockNumber *blkno_out);

/* tdb_buf_extend of fork of rel; a fork other than the main one that does
 * not exist yet is created by its first block.  Each fork has its own
 * extension lock. */
Buffer tdb_buf_extend_fork(RelFileNumber rel, ForkNumber fork,
                           BufferAccessStrategy strategy,
                           BlockNumber *blkno_out);

/*
 * The relation's length in blocks, asked of its files (extensions go
 * through the pool, which writes a new block at once, so the files are
 * never shorter than what the pool holds).  Raises
 * ERRCODE_UNDEFINED_FILE if the relation does not exist.
 */
BlockNumber tdb_buf_relation_nblocks(RelFileNumber rel);

/* The same for a fork of rel; 0 for a fork other than the main one that
 * does not exist. */
BlockNumber tdb_buf_fork_nblocks(RelFileNumber rel, ForkNumber fork);

/* ----------------------------------------------------------------------
 * Pins
 * ---------------------------------------------------------------------- */

/* Drop one pin.  The thread must hold one; the last pin must not be
 * dropped while the thread holds the content lock (internal error). */
void tdb_buf_release(Buffer buffer);

/* Take one more pin on a buffer this thread has pinned already (a slot
 * keeping its own pin). */
void tdb_buf_incr_pin(Buffer buffer);

/* tdb_buf_lock(buffer, BUF_LOCK_UNLOCK), then tdb_buf_release(buffer). */
void tdb_buf_unlock_release(Buffer buffer);

/*
 * Error recovery (the statement boundary): release every content lock and
 * every pin this thread still holds.  Returns the number of buffers that
 * were pinned (0 after a statement that cleaned up after itself).  Never
 * raises.
 */
int tdb_buf_release_all_pins_of_thread(void);

/* Number of distinct buffers this thread holds pinned. */
int tdb_buf_pins_held(void);

/* ----------------------------------------------------------------------
 * Content locks and the page
 * ---------------------------------------------------------------------- */

/*
 * Take (BUF_LOCK_SHARE, BUF_LOCK_EXCLUSIVE) or release (BUF_LOCK_UNLOCK)
 * the buffer's content lock; waits for a conflicting holder.  The thread
 * must hold a pin and, to take a lock, must not hold this buffer's lock
 * already.  Threads that lock two buffers of a relation lock the lower
 * block number first.  Locks are not fair to readers: a waiting exclusive
 * locker blocks new share lockers (writers do not starve).
 */
void tdb_buf_lock(Buffer buffer, BufferLockMode mode);

/* tdb_buf_lock without waiting: false (nothing taken) if it would wait. */
bool tdb_buf_try_lock(Buffer buffer, BufferLockMode mode);

/*
 * The cleanup lock: the exclusive lock while no other thread holds a pin,
 * needed to move tuples in the page (tdb_page_compact), as nobody can then
 * hold a pointer into it.  Waits until the other pins are gone (without
 * holding the lock meanwhile).  The thread must hold exactly one pin.
 * Released with tdb_buf_lock(buffer, BUF_LOCK_UNLOCK).
 */
void tdb_buf_lock_for_cleanup(Buffer buffer);

/* The cleanup lock if it is free now; false (nothing taken) otherwise. */
bool tdb_buf_try_lock_for_cleanup(Buffer buffer);

/*
 * The buffer's page (BLCKSZ bytes, 4096-aligned).  Valid while the thread
 * holds its pin; read it under a content lock.  Borrowed.
 */
Page tdb_buf_page(Buffer buffer);

/* The block a pinned buffer holds, its relation and its fork. */
BlockNumber tdb_buf_block_number(Buffer buffer);
RelFileNumber tdb_buf_relnumber(Buffer buffer);
ForkNumber tdb_buf_fork_number(Buffer buffer);

/*
 * The block held by the pool page that ptr points into (anywhere in its
 * BLCKSZ bytes), or InvalidBlockNumber if ptr is not inside the pool (a
 * private copy).  The caller holds the page's pin.  For error reports
 * that have a page but not its buffer (an index item found corrupt).
 */
BlockNumber tdb_buf_block_of_pointer(const void *ptr);

/*
 * Record that the page was changed: it will be written back before its
 * buffer is re-used.  The thread holds the exclusive content lock (else
 * an internal error).  Every page change passes through here; when the
 * WAL exists this is where a change is tied to its WAL record (see
 * "WAL HOOK" in bufmgr.c).
 */
void tdb_buf_mark_dirty(Buffer buffer);

/*
 * tdb_buf_mark_dirty for a change of a visibility map page that must
 * reach disk no later than any later write of a block of the relation's
 * main fork: before the pool next writes a main-fork page of the
 * relation (eviction, flush, shutdown), it writes the map's dirty pages
 * and fsyncs the map.  For clearing a bit (visibilitymap.c: "a set bit
 * is never wrong"); the buffer must be a VISIBILITYMAP_FORKNUM page,
 * exclusively locked.  Raises out of memory only if the relation's
 * entry in the pool cannot be made.
 */
void tdb_buf_mark_dirty_before_main(Buffer buffer);

/*
 * The same for a change made under a share lock that may be lost without
 * harm -- hint bits (PostgreSQL's MarkBufferDirtyHint).  The thread holds
 * a content lock of either mode.
 */
void tdb_buf_mark_dirty_hint(Buffer buffer);

/*
 * Write page as block blkno of rel's main fork straight to the file,
 * bypassing the pool: for a loader that builds a new relation in private
 * memory (CREATE INDEX, as PostgreSQL's nbtsort writes with smgrextend).
 * extend: blkno is the file's current length and the file grows by the
 * page; else blkno exists and is overwritten.  The page's checksum is set
 * in place (when checksums are on; an all-zero page gets none).  The pool
 * must hold no buffer of those blocks and nobody else may use the
 * relation meanwhile; the file is marked for the fsync of
 * tdb_buf_flush_relation.  Raises smgr's write / extend errors.
 */
void tdb_buf_write_unbuffered(RelFileNumber rel, BlockNumber blkno, Page page,
                              bool extend);

/* ----------------------------------------------------------------------
 * Whole relations and the whole pool
 * ---------------------------------------------------------------------- */

/*
 * Write every dirty buffer of relation rel (every fork; the visibility
 * map before the main fork where tdb_buf_mark_dirty_before_main asks
 * for it), then fsync its files (e.g.
 * after a bulk load that skips the WAL).  Takes each dirty buffer's share
 * lock in turn -- unless this thread holds that buffer's lock already --
 * so the caller should hold no other content lock (another thread holding
 * one of rel's locks may be waiting for it).  Raises the write or fsync
 * error; buffers not written stay dirty.
 */
void tdb_buf_flush_relation(RelFileNumber rel);

/*
 * Forget every buffer of relation rel -- of every fork -- dirty ones
 * included (their changes are discarded), and close the pool's files of
 * it: for DROP and TRUNCATE,
 * before the files are removed.  No thread may use the relation meanwhile
 * (the caller holds the relation's exclusive lock); a pin held by this
 * thread on one of its buffers is an internal error.
 */
void tdb_buf_drop_relation(RelFileNumber rel);

/* Write every dirty buffer and fsync every relation written since its
 * last fsync: a checkpoint without WAL.  Locks and errors as
 * tdb_buf_flush_relation. */
void tdb_buf_flush_all(void);

/*
 * Cut fork of rel down to nblocks blocks: forget its buffers of blocks
 * nblocks and later (dirty ones discarded), then truncate the file (a
 * fork that does not exist is left alone).  As for
 * tdb_buf_drop_relation, nobody else may use those blocks meanwhile.
 */
void tdb_buf_truncate_fork(RelFileNumber rel, ForkNumber fork,
                           BlockNumber nblocks);

/* ----------------------------------------------------------------------
 * Strategies
 * ---------------------------------------------------------------------- */

/*
 * A new ring for a bulk operation of the given type, allocated in the
 * current memory context (free it with tdb_buf_strategy_free, or reset
 * the context).  Its buffers are taken as the operation goes; the pool
 * must exist.  Use it from one thread only.
 */
BufferAccessStrategy tdb_buf_strategy_create(BufferAccessStrategyType type);
void tdb_buf_strategy_free(BufferAccessStrategy strategy);

/* The ring's size in buffers. */
int tdb_buf_strategy_nbuffers(BufferAccessStrategy strategy);

/* ----------------------------------------------------------------------
 * Statistics
 * ---------------------------------------------------------------------- */

/* This thread's counters (see BufferUsage). */
void tdb_buf_usage(BufferUsage *usage);

/* Count the pool's valid, dirty and pinned buffers (a moment's view). */
void tdb_buf_pool_stats(BufferPoolStats *stats);

/* Whether block blkno of rel is in the pool and valid (for tests and
 * diagnostics; the answer may change at once). */
bool tdb_buf_is_cached(RelFileNumber rel, BlockNumber blkno);
bool tdb_buf_fork_is_cached(RelFileNumber rel, ForkNumber fork,
                            BlockNumber blkno);

#endif /* TDB_STORAGE_BUFMGR_H */
