/*
 * test_bufmgr.c -- the buffer pool: hits and misses, eviction and
 * write-back, checksums and corrupt pages, strategies, threads, error
 * recovery and injected disk-full errors.
 *
 * Every test makes a data directory in a temporary folder
 * (tdb_datadir_create), relations in it through smgr, and a small pool
 * (16-128 buffers) over it.  Pages hold one item, a "payload": a counter,
 * the relation and block number, and PAYLOAD_FILL bytes that all equal a
 * byte derived from the counter -- so a read proves which version of
 * which block came back, and a torn page shows as mixed bytes.
 *
 *   test_init_errors            bad sizes, double init, no pool, bad ids
 *   test_misuse                 release/lock/unlock/dirty without the pin
 *       or lock they need: internal errors, nothing changed
 *   test_default_pool           TDB_DEFAULT_NBUFFERS (128 MB) works
 *   test_hit_miss               hits, misses, reads after a cold start
 *   test_eviction_writeback     a table 6x the pool: evictions write dirty
 *       pages back and re-reads return the written bytes, twice over
 *   test_survives_restart       dirty pages reach disk at shutdown and
 *       come back after re-init
 *   test_checksums              pd_checksum on disk is PostgreSQL's;
 *       pages written without checksums carry none
 *   test_corrupt_page           a flipped byte: "invalid page in block N
 *       of relation base/R", XX001; the buffer is not kept, the next read
 *       fails again, repairing the byte makes it readable; a bad header
 *       without checksums
 *   test_new_page               all-zero blocks are accepted
 *   test_read_past_end          a block past the end: smgr's error, no
 *       buffer kept
 *   test_usage_count            pins count up to 5, the sweep down
 *   test_ring_bulkread          hot pages of A survive a scan of B (10x
 *       the pool) through a BULKREAD ring; without it they are evicted
 *   test_ring_bulkwrite         loading B through a BULKWRITE ring also
 *       keeps A
 *   test_ring_scans_fill_pool   repeated scans of B (fits in the pool),
 *       each through a new ring, pull B in a ring's worth per scan, until
 *       a scan reads and evicts nothing (PostgreSQL's behaviour too)
 *   test_read_sequential        read-ahead of a BULKREAD scan over a
 *       relation 2x the pool: every block right, one miss per 8 blocks,
 *       nothing read at or past the scan's end; a corrupt block inside a
 *       multi-block read raises XX001 when asked for (and one at a read's
 *       start at once), leaving no I/O in progress, no pin, and its
 *       neighbours readable; an injected preadv failure falls back to
 *       the single read (TDB_DEBUG builds)
 *   test_concurrent             4 readers (share locks) and a writer
 *       (exclusive) on threads over a pool half the table: no torn page,
 *       counters never go back, nothing lost in eviction
 *   test_concurrent_same_block  4 threads reading the same cold blocks
 *       read each block from disk once
 *   test_release_all_after_error  an ERROR while holding 20 pins (some
 *       locked, some pinned twice): tdb_buf_release_all_pins_of_thread
 *       drops them all, locks included
 *   test_many_pins              100 buffers pinned (the overflow table),
 *       released in random order
 *   test_cleanup_lock           waits for another thread's pin to go
 *   test_extend_disk_full       ENOSPC while extending: disk-full error,
 *       the relation and pool unchanged and usable (TDB_DEBUG builds)
 *   test_writeback_disk_full    ENOSPC writing a dirty victim back: the
 *       page stays dirty and is written later (TDB_DEBUG builds)
 *   test_forks                  block 0 of the main fork and of the
 *       visibility map are different buffers (tags differ by fork) and
 *       files (<rel>_vm, created by its first extension); fork lengths;
 *       a map change marked with tdb_buf_mark_dirty_before_main reaches
 *       disk before the main fork's next write, which fails without
 *       writing if the map cannot be made durable; truncating a fork
 *       forgets its buffers past the end; dropping a relation forgets
 *       every fork's buffers
 *   test_flush_relation         writes that relation only
 *   test_drop_relation          dirty pages of a dropped relation are
 *       discarded; the files can then be removed and re-created
 *   test_slot_hooks             slots pin and release pool buffers
 *   test_try_locks              conditional locks between threads
 */
#include "common/base.h"

#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <valgrind/valgrind.h>

#include "storage/buf_internals.h"
#include "storage/bufmgr.h"
#include "storage/datadir.h"
#include "storage/fd.h"
#include "storage/smgr.h"
#include "storage_test.h"
#include "tuple/heaptuple.h"
#include "tuple/slot.h"
#include "tuple/tupdesc.h"

/* ----------------------------------------------------------------------
 * The test database
 * ---------------------------------------------------------------------- */

static const char *db_path;
static DataDir *db;
static MemoryContextCallback pool_cleanup_cb;

static bool
under_valgrind(void)
{
    return RUNNING_ON_VALGRIND != 0;
}

/* Test end: a pool a failed test left behind is dropped, unwritten. */
static void
pool_cleanup(void *arg)
{
    (void)arg;
    tdb_bufmgr_discard();
}

/* A new data directory and a pool of nbuffers over it. */
static void
start(int nbuffers, bool checksums)
{
    db_path = test_path(test_tmpdir(), "db");
    db = tdb_datadir_create(NULL, db_path);
    pool_cleanup_cb.func = pool_cleanup;
    pool_cleanup_cb.arg = NULL;
    tdb_mcxt_register_reset_callback(tdb_top_mcxt, &pool_cleanup_cb);
    tdb_bufmgr_init(db_path, nbuffers, checksums);
}

/* Shut the pool down (writing everything) and start a cold one. */
static void
restart(int nbuffers, bool checksums)
{
    tdb_bufmgr_shutdown();
    tdb_bufmgr_init(db_path, nbuffers, checksums);
}

static void
expect_no_pins(void)
{
    BufferPoolStats stats;

    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.npinned, 0);
    expect_int_eq(tdb_buf_pins_held(), 0);
}

static void
finish(void)
{
    expect_no_pins();
    tdb_bufmgr_shutdown();
    expect_false(tdb_bufmgr_is_initialized());
    tdb_datadir_close(db);
}

/* A new, empty relation. */
static RelFileNumber
new_rel(void)
{
    RelFileNumber rel = tdb_datadir_alloc_relfilenumber(db);
    SMgrRelation s = tdb_smgr_open(NULL, db_path, rel);

    tdb_smgr_create(s, MAIN_FORKNUM, false);
    tdb_smgr_close(s);
    return rel;
}

static BlockNumber
rel_nblocks(RelFileNumber rel)
{
    SMgrRelation s = tdb_smgr_open(NULL, db_path, rel);
    BlockNumber n = tdb_smgr_nblocks(s, MAIN_FORKNUM);

    tdb_smgr_close(s);
    return n;
}

/* Path of the relation's segment 0 (current context). */
static char *
rel_path(RelFileNumber rel)
{
    char name[32];

    snprintf(name, sizeof(name), "base/%u", rel);
    return test_path(db_path, name);
}

/* Read block blkno's bytes straight from the file. */
static void
read_raw_block(RelFileNumber rel, BlockNumber blkno, void *block)
{
    int fd = open(rel_path(rel), O_RDONLY);

    expect_true(fd >= 0);
    expect_int_eq(pread(fd, block, BLCKSZ, (off_t)blkno * BLCKSZ), BLCKSZ);
    close(fd);
}

/* Write len bytes at byte offset off of block blkno, bypassing tupledb. */
static void
write_raw_bytes(RelFileNumber rel, BlockNumber blkno, Size off,
                const void *bytes, Size len)
{
    int fd = open(rel_path(rel), O_WRONLY);

    expect_true(fd >= 0);
    expect_int_eq(pwrite(fd, bytes, len, (off_t)blkno * BLCKSZ + (off_t)off),
                  (long long)len);
    close(fd);
}

/* ----------------------------------------------------------------------
 * Payloads
 * ---------------------------------------------------------------------- */

#define PAYLOAD_SIZE 4000

typedef struct PayloadHeader {
    uint64 counter;
    RelFileNumber rel;
    BlockNumber blkno;
} PayloadHeader;

static uint8
payload_byte(uint64 counter, BlockNumber blkno)
{
    return (uint8)(counter * 31 + blkno * 7 + 1);
}

/*
 * Store the payload (counter) of block blkno in page, adding the item if
 * the page has none.  Caller holds the exclusive lock.  Thread-safe (no
 * expect_*); false if the item could not be added.
 */
static bool
payload_write(Page page, RelFileNumber rel, BlockNumber blkno, uint64 counter)
{
    PayloadHeader hdr;
    char *item;

    if (tdb_page_get_max_offset(page) == 0) {
        static const char zeros[PAYLOAD_SIZE];

        if (tdb_page_add_item(page, zeros, PAYLOAD_SIZE, InvalidOffsetNumber,
                              0) != FirstOffsetNumber)
            return false;
    }
    item = tdb_page_get_item(page, tdb_page_get_item_id(page, 1));
    hdr.counter = counter;
    hdr.rel = rel;
    hdr.blkno = blkno;
    memcpy(item, &hdr, sizeof(hdr));
    memset(item + sizeof(hdr), payload_byte(counter, blkno),
           PAYLOAD_SIZE - sizeof(hdr));
    return true;
}

/*
 * Check page holds a consistent payload of rel's block blkno; *counter
 * receives its counter.  Thread-safe; false on any inconsistency.
 */
static bool
payload_read(Page page, RelFileNumber rel, BlockNumber blkno, uint64 *counter)
{
    const ItemIdData *lp;
    PayloadHeader hdr;
    const uint8 *item;
    uint8 byte;

    if (tdb_page_get_max_offset(page) != 1)
        return false;
    lp = tdb_page_get_item_id(page, 1);
    if (!ItemIdIsNormal(lp) || ItemIdGetLength(lp) != PAYLOAD_SIZE)
        return false;
    item =
        (const uint8 *)tdb_page_get_item(page, tdb_page_get_item_id(page, 1));
    memcpy(&hdr, item, sizeof(hdr));
    if (hdr.rel != rel || hdr.blkno != blkno)
        return false;
    byte = payload_byte(hdr.counter, blkno);
    for (Size i = sizeof(hdr); i < PAYLOAD_SIZE; i++)
        if (item[i] != byte)
            return false;
    *counter = hdr.counter;
    return true;
}

/* Add nblocks blocks to rel, block b with counter start + b. */
static void
fill_rel(RelFileNumber rel, BlockNumber nblocks, uint64 start,
         BufferAccessStrategy strategy)
{
    BlockNumber first = rel_nblocks(rel);

    for (BlockNumber i = 0; i < nblocks; i++) {
        BlockNumber blkno = InvalidBlockNumber;
        Buffer buf = tdb_buf_extend(rel, strategy, &blkno);

        expect_int_eq(blkno, first + i);
        expect_true(
            payload_write(tdb_buf_page(buf), rel, blkno, start + blkno));
        tdb_buf_mark_dirty(buf);
        tdb_buf_unlock_release(buf);
    }
}

/* Rewrite block blkno's payload with counter. */
static void
update_block(RelFileNumber rel, BlockNumber blkno, uint64 counter)
{
    Buffer buf = tdb_buf_read(rel, blkno, NULL);

    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    expect_true(payload_write(tdb_buf_page(buf), rel, blkno, counter));
    tdb_buf_mark_dirty(buf);
    tdb_buf_unlock_release(buf);
}

/* The counter of block blkno, read through the pool (checked). */
static uint64
read_counter(RelFileNumber rel, BlockNumber blkno,
             BufferAccessStrategy strategy)
{
    Buffer buf = tdb_buf_read(rel, blkno, strategy);
    uint64 counter = UINT64_MAX;

    tdb_buf_lock(buf, BUF_LOCK_SHARE);
    expect_true(payload_read(tdb_buf_page(buf), rel, blkno, &counter));
    expect_int_eq(tdb_buf_block_number(buf), blkno);
    expect_int_eq(tdb_buf_relnumber(buf), rel);
    tdb_buf_unlock_release(buf);
    return counter;
}

static BufferUsage
usage_now(void)
{
    BufferUsage u;

    tdb_buf_usage(&u);
    return u;
}

/* ----------------------------------------------------------------------
 * Setup and misuse
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_init_errors)
{
    const char *dir = test_tmpdir();

    expect_false(tdb_bufmgr_is_initialized());
    expect_int_eq(tdb_bufmgr_nbuffers(), 0);
    tdb_bufmgr_shutdown(); /* no pool: nothing to do */
    expect_error(tdb_buf_read(16384, 0, NULL), ERRCODE_INTERNAL_ERROR,
                 "not initialized");
    expect_error(tdb_buf_strategy_create(BUF_STRATEGY_BULKREAD),
                 ERRCODE_INTERNAL_ERROR, "not initialized");
    expect_error(tdb_buf_release(1), ERRCODE_INTERNAL_ERROR, "bad buffer ID");
    expect_int_eq(tdb_buf_release_all_pins_of_thread(), 0);

    expect_error(tdb_bufmgr_init(dir, 15, false),
                 ERRCODE_INVALID_PARAMETER_VALUE,
                 "invalid number of buffers: 15");
    expect_error(tdb_bufmgr_init(dir, -1, false),
                 ERRCODE_INVALID_PARAMETER_VALUE, NULL);
    expect_false(tdb_bufmgr_is_initialized());

    start(16, false);
    expect_int_eq(tdb_bufmgr_nbuffers(), 16);
    expect_error(tdb_bufmgr_init(db_path, 16, false), ERRCODE_INTERNAL_ERROR,
                 "already initialized");
    expect_error(tdb_buf_release(0), ERRCODE_INTERNAL_ERROR,
                 "bad buffer ID: 0");
    expect_error(tdb_buf_release(17), ERRCODE_INTERNAL_ERROR,
                 "bad buffer ID: 17");
    expect_error(tdb_buf_read(16384, InvalidBlockNumber, NULL),
                 ERRCODE_INTERNAL_ERROR, "invalid block number");
    expect_error(tdb_buf_strategy_create((BufferAccessStrategyType)99),
                 ERRCODE_INTERNAL_ERROR, "unrecognized");
    /* a relation that does not exist */
    expect_error(tdb_buf_read(99999, 0, NULL), ERRCODE_UNDEFINED_FILE, NULL);
    expect_false(tdb_buf_is_cached(99999, 0));
    finish();
}
TEST_END

TEST_BEGIN(test_misuse)
{
    RelFileNumber rel;
    Buffer buf;
    BufferPoolStats stats;

    start(16, false);
    rel = new_rel();
    fill_rel(rel, 2, 0, NULL);

    buf = tdb_buf_read(rel, 0, NULL);
    expect_error(tdb_buf_release(buf + 1), ERRCODE_INTERNAL_ERROR,
                 "is not pinned by this thread");
    expect_error(tdb_buf_incr_pin(buf + 1), ERRCODE_INTERNAL_ERROR,
                 "is not pinned");
    expect_error(tdb_buf_lock(buf + 1, BUF_LOCK_SHARE), ERRCODE_INTERNAL_ERROR,
                 "is not pinned");
    expect_error(tdb_buf_lock(buf, BUF_LOCK_UNLOCK), ERRCODE_INTERNAL_ERROR,
                 "is not locked");
    expect_error(tdb_buf_mark_dirty(buf), ERRCODE_INTERNAL_ERROR,
                 "without its exclusive lock");
    expect_error(tdb_buf_mark_dirty_hint(buf), ERRCODE_INTERNAL_ERROR,
                 "without its lock");
    expect_error(tdb_buf_lock(buf, (BufferLockMode)7), ERRCODE_INTERNAL_ERROR,
                 "unrecognized buffer lock mode");

    tdb_buf_lock(buf, BUF_LOCK_SHARE);
    expect_error(tdb_buf_mark_dirty(buf), ERRCODE_INTERNAL_ERROR,
                 "without its exclusive lock");
    expect_error(tdb_buf_lock(buf, BUF_LOCK_SHARE), ERRCODE_INTERNAL_ERROR,
                 "already locked");
    expect_error(tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE), ERRCODE_INTERNAL_ERROR,
                 "already locked");
    expect_error(tdb_buf_release(buf), ERRCODE_INTERNAL_ERROR,
                 "while this thread holds its lock");
    tdb_buf_mark_dirty_hint(buf); /* fine under a share lock */
    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.ndirty, 2); /* extend + hint; both blocks dirty */

    /* a second pin may go while locked; the last may not */
    tdb_buf_incr_pin(buf);
    tdb_buf_release(buf);
    expect_error(tdb_buf_lock_for_cleanup(buf), ERRCODE_INTERNAL_ERROR,
                 "already locked");
    tdb_buf_unlock_release(buf);

    /* the cleanup lock needs exactly one local pin */
    buf = tdb_buf_read(rel, 0, NULL);
    tdb_buf_incr_pin(buf);
    expect_error(tdb_buf_lock_for_cleanup(buf), ERRCODE_INTERNAL_ERROR,
                 "incorrect local pin count: 2");
    tdb_buf_release(buf);
    tdb_buf_release(buf);

    /* dropping a relation this thread pins */
    buf = tdb_buf_read(rel, 1, NULL);
    expect_error(tdb_buf_drop_relation(rel), ERRCODE_INTERNAL_ERROR,
                 "is pinned by this thread");
    expect_true(tdb_buf_is_cached(rel, 0)); /* refused before dropping */
    expect_error(tdb_bufmgr_shutdown(), ERRCODE_INTERNAL_ERROR,
                 "1 buffers are pinned");
    expect_true(tdb_bufmgr_is_initialized());
    tdb_buf_release(buf);
    finish();
}
TEST_END

TEST_BEGIN(test_default_pool)
{
    RelFileNumber rel;

    expect_int_eq((long long)TDB_DEFAULT_NBUFFERS * BLCKSZ, 128LL << 20);
    start(TDB_DEFAULT_NBUFFERS, true);
    expect_int_eq(tdb_bufmgr_nbuffers(), TDB_DEFAULT_NBUFFERS);
    rel = new_rel();
    fill_rel(rel, 3, 100, NULL);
    expect_int_eq(read_counter(rel, 2, NULL), 102);
    /* pages are 4096-aligned */
    {
        Buffer buf = tdb_buf_read(rel, 1, NULL);

        expect_int_eq((uintptr_t)tdb_buf_page(buf) % 4096, 0);
        tdb_buf_release(buf);
    }
    finish();
}
TEST_END

/* ----------------------------------------------------------------------
 * Caching, eviction, write-back
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_hit_miss)
{
    RelFileNumber rel;
    BufferUsage u0, u1;
    BufferPoolStats stats;

    start(16, false);
    rel = new_rel();
    u0 = usage_now();
    fill_rel(rel, 8, 0, NULL);
    u1 = usage_now();
    expect_u64_eq(u1.extends - u0.extends, 8);
    expect_u64_eq(u1.dirtied - u0.dirtied, 8);
    expect_u64_eq(u1.reads - u0.reads, 0);

    /* what extend made is cached */
    u0 = usage_now();
    expect_int_eq(read_counter(rel, 3, NULL), 3);
    u1 = usage_now();
    expect_u64_eq(u1.hits - u0.hits, 1);
    expect_u64_eq(u1.misses - u0.misses, 0);

    /* a cold pool reads each block once, then hits */
    restart(16, false);
    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.nvalid, 0);
    u0 = usage_now();
    for (BlockNumber b = 0; b < 8; b++)
        expect_int_eq(read_counter(rel, b, NULL), b);
    u1 = usage_now();
    expect_u64_eq(u1.misses - u0.misses, 8);
    expect_u64_eq(u1.reads - u0.reads, 8);
    expect_u64_eq(u1.hits - u0.hits, 0);
    expect_u64_eq(u1.evictions - u0.evictions, 0);
    for (int round = 0; round < 3; round++)
        for (BlockNumber b = 0; b < 8; b++)
            expect_int_eq(read_counter(rel, b, NULL), b);
    u0 = usage_now();
    expect_u64_eq(u0.hits - u1.hits, 24);
    expect_u64_eq(u0.reads - u1.reads, 0);
    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.nbuffers, 16);
    expect_int_eq(stats.nvalid, 8);
    expect_int_eq(stats.ndirty, 0);
    expect_true(tdb_buf_is_cached(rel, 7));
    expect_false(tdb_buf_is_cached(rel, 8));
    finish();
}
TEST_END

TEST_BEGIN(test_eviction_writeback)
{
    const BlockNumber nblocks = 100;
    RelFileNumber rel;
    BufferUsage u0, u1;
    uint64 seed = tdb_test_seed();
    uint64 counters[100];

    start(16, true);
    rel = new_rel();
    u0 = usage_now();
    fill_rel(rel, nblocks, 1000, NULL);
    u1 = usage_now();
    /* all but the last 16 or so were evicted, each written back first */
    expect_u64_ge(u1.evictions - u0.evictions, nblocks - 16);
    expect_u64_ge(u1.writes - u0.writes, nblocks - 16);
    expect_int_eq(rel_nblocks(rel), nblocks);

    for (BlockNumber b = 0; b < nblocks; b++) {
        counters[b] = 1000 + b;
        expect_int_eq(read_counter(rel, b, NULL), counters[b]);
    }
    /* random updates, then everything read back twice */
    for (int i = 0; i < 300; i++) {
        BlockNumber b = (BlockNumber)(tdb_test_rand(&seed) % nblocks);

        counters[b] += 5001;
        update_block(rel, b, counters[b]);
    }
    for (int round = 0; round < 2; round++)
        for (BlockNumber b = 0; b < nblocks; b++)
            expect_u64_eq(read_counter(rel, b, NULL), counters[b]);
    u0 = usage_now();
    expect_u64_gt(u0.reads - u1.reads, nblocks);
    finish();
}
TEST_END

TEST_BEGIN(test_survives_restart)
{
    RelFileNumber rel;
    char block[BLCKSZ];
    uint64 counter;

    start(32, false);
    rel = new_rel();
    fill_rel(rel, 20, 7, NULL); /* all cached, dirty */
    for (BlockNumber b = 0; b < 20; b += 2)
        update_block(rel, b, 500 + b);
    tdb_bufmgr_shutdown();

    /* on disk now */
    read_raw_block(rel, 4, block);
    expect_true(payload_read(block, rel, 4, &counter));
    expect_u64_eq(counter, 504);
    read_raw_block(rel, 5, block);
    expect_true(payload_read(block, rel, 5, &counter));
    expect_u64_eq(counter, 12);

    tdb_bufmgr_init(db_path, 16, false);
    for (BlockNumber b = 0; b < 20; b++)
        expect_u64_eq(read_counter(rel, b, NULL), b % 2 == 0 ? 500 + b : 7 + b);
    finish();
}
TEST_END

TEST_BEGIN(test_checksums)
{
    RelFileNumber rel, rel2;
    char block[BLCKSZ];

    start(16, true);
    rel = new_rel();
    fill_rel(rel, 40, 0, NULL);
    tdb_buf_flush_all();
    for (BlockNumber b = 0; b < 40; b += 13) {
        uint16 stored;

        read_raw_block(rel, b, block);
        stored = tdb_page_header(block)->pd_checksum;
        expect_int_ne(stored, 0);
        expect_int_eq(stored, tdb_page_checksum(block, b));
        expect_int_eq(tdb_page_verify(block, b, true, NULL), PAGE_VERIFY_OK);
    }
    /* the page in memory is not touched by the write */
    {
        Buffer buf = tdb_buf_read(rel, 39, NULL);

        tdb_buf_lock(buf, BUF_LOCK_SHARE);
        expect_int_eq(tdb_page_header(tdb_buf_page(buf))->pd_checksum, 0);
        tdb_buf_unlock_release(buf);
    }
    /* and verified on the way back */
    restart(16, true);
    for (BlockNumber b = 0; b < 40; b++)
        expect_int_eq(read_counter(rel, b, NULL), b);

    /* a pool without checksums writes none */
    restart(16, false);
    rel2 = new_rel();
    fill_rel(rel2, 2, 0, NULL);
    tdb_buf_flush_relation(rel2);
    read_raw_block(rel2, 1, block);
    expect_int_eq(tdb_page_header(block)->pd_checksum, 0);
    expect_int_eq(tdb_page_verify(block, 1, false, NULL), PAGE_VERIFY_OK);
    finish();
}
TEST_END

TEST_BEGIN(test_corrupt_page)
{
    RelFileNumber rel;
    char msg[128];
    uint8 byte, flipped;
    const Size off = BLCKSZ - 100; /* inside the payload */
    BufferPoolStats stats;
    BufferUsage u0, u1;

    start(16, true);
    rel = new_rel();
    fill_rel(rel, 4, 0, NULL);
    restart(16, true); /* on disk, not cached */

    {
        char block[BLCKSZ];

        read_raw_block(rel, 2, block);
        byte = (uint8)block[off];
    }
    flipped = byte ^ 0x10;
    write_raw_bytes(rel, 2, off, &flipped, 1);

    snprintf(msg, sizeof(msg), "invalid page in block 2 of relation base/%u",
             rel);
    u0 = usage_now();
    expect_error(tdb_buf_read(rel, 2, NULL), ERRCODE_DATA_CORRUPTED, msg);
    expect_str_contains(tdb_test_last_error.detail, "checksum");
    u1 = usage_now();
    expect_u64_eq(u1.misses - u0.misses, 1);
    expect_u64_eq(u1.reads - u0.reads, 0);
    expect_false(tdb_buf_is_cached(rel, 2));
    expect_int_eq(tdb_buf_usage_count(rel, 2), -1); /* not even mapped */
    expect_no_pins();
    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.nvalid, 0);

    /* the next read goes to disk again, and fails again */
    expect_error(tdb_buf_read(rel, 2, NULL), ERRCODE_DATA_CORRUPTED, msg);
    /* other blocks are fine */
    expect_int_eq(read_counter(rel, 1, NULL), 1);
    expect_int_eq(read_counter(rel, 3, NULL), 3);

    /* repaired on disk: readable */
    write_raw_bytes(rel, 2, off, &byte, 1);
    expect_int_eq(read_counter(rel, 2, NULL), 2);

    /* without checksums a damaged header is still caught */
    restart(16, false);
    {
        uint16 bad_upper = 10; /* below pd_lower */

        write_raw_bytes(rel, 3, offsetof(PageHeaderData, pd_upper), &bad_upper,
                        sizeof(bad_upper));
    }
    snprintf(msg, sizeof(msg), "invalid page in block 3 of relation base/%u",
             rel);
    expect_error(tdb_buf_read(rel, 3, NULL), ERRCODE_DATA_CORRUPTED, msg);
    expect_false(tdb_buf_is_cached(rel, 3));
    /* the byte flipped in the payload goes unnoticed without checksums:
     * the page is sane, only its data changed */
    write_raw_bytes(rel, 2, off, &flipped, 1);
    {
        Buffer buf = tdb_buf_read(rel, 2, NULL);
        uint64 counter;

        tdb_buf_lock(buf, BUF_LOCK_SHARE);
        expect_false(payload_read(tdb_buf_page(buf), rel, 2, &counter));
        tdb_buf_unlock_release(buf);
    }
    finish();
}
TEST_END

TEST_BEGIN(test_new_page)
{
    RelFileNumber rel;
    PGAlignedBlock zero;
    SMgrRelation s;
    Buffer buf;
    BlockNumber blkno;

    start(16, true);
    rel = new_rel();
    memset(zero.data, 0, BLCKSZ);
    s = tdb_smgr_open(NULL, db_path, rel);
    tdb_smgr_extend(s, MAIN_FORKNUM, 0, zero.data);
    tdb_smgr_extend(s, MAIN_FORKNUM, 1, zero.data);
    tdb_smgr_close(s);

    buf = tdb_buf_read(rel, 1, NULL);
    tdb_buf_lock(buf, BUF_LOCK_SHARE);
    expect_true(tdb_page_is_all_zero(tdb_buf_page(buf)));
    tdb_buf_unlock_release(buf);
    /* the next extension appends after them */
    buf = tdb_buf_extend(rel, NULL, &blkno);
    expect_int_eq(blkno, 2);
    expect_true(tdb_page_is_new(tdb_buf_page(buf)) == false);
    expect_int_eq(tdb_page_get_max_offset(tdb_buf_page(buf)), 0);
    tdb_buf_unlock_release(buf);
    finish();
}
TEST_END

TEST_BEGIN(test_read_past_end)
{
    RelFileNumber rel;

    start(16, false);
    rel = new_rel();
    fill_rel(rel, 2, 0, NULL);
    expect_error(tdb_buf_read(rel, 5, NULL), ERRCODE_DATA_CORRUPTED,
                 "could not read block 5");
    expect_false(tdb_buf_is_cached(rel, 5));
    expect_int_eq(tdb_buf_usage_count(rel, 5), -1);
    expect_no_pins();
    /* block 2 does not exist either -- until it is added */
    expect_error(tdb_buf_read(rel, 2, NULL), ERRCODE_DATA_CORRUPTED,
                 "read only 0 of 8192 bytes");
    fill_rel(rel, 1, 0, NULL);
    expect_int_eq(read_counter(rel, 2, NULL), 2);
    finish();
}
TEST_END

TEST_BEGIN(test_usage_count)
{
    RelFileNumber rel;
    BufferAccessStrategy ring;

    start(16, false);
    rel = new_rel();
    fill_rel(rel, 3, 0, NULL);
    restart(16, false);

    expect_int_eq(tdb_buf_usage_count(rel, 0), -1);
    read_counter(rel, 0, NULL);
    expect_int_eq(tdb_buf_usage_count(rel, 0), 1);
    for (int i = 0; i < 10; i++)
        read_counter(rel, 0, NULL);
    expect_int_eq(tdb_buf_usage_count(rel, 0), BM_MAX_USAGE_COUNT);

    /* a thread's extra pins do not count again */
    read_counter(rel, 1, NULL);
    {
        Buffer buf = tdb_buf_read(rel, 1, NULL);
        Buffer again = tdb_buf_read(rel, 1, NULL);

        expect_int_eq(again, buf);
        expect_int_eq(tdb_buf_usage_count(rel, 1), 2);
        tdb_buf_release(again);
        tdb_buf_release(buf);
    }

    /* strategy pins only lift 0 to 1 */
    ring = tdb_buf_strategy_create(BUF_STRATEGY_BULKREAD);
    expect_int_eq(tdb_buf_strategy_nbuffers(ring), 2); /* 16 / 8 */
    for (int i = 0; i < 5; i++)
        read_counter(rel, 2, ring);
    expect_int_eq(tdb_buf_usage_count(rel, 2), 1);
    tdb_buf_strategy_free(ring);
    finish();
}
TEST_END

/* ----------------------------------------------------------------------
 * Strategies
 * ---------------------------------------------------------------------- */

/* Blocks of rel 0..n-1 still cached. */
static BlockNumber
count_cached(RelFileNumber rel, BlockNumber n)
{
    BlockNumber cached = 0;

    for (BlockNumber b = 0; b < n; b++)
        if (tdb_buf_is_cached(rel, b))
            cached++;
    return cached;
}

/* Make A's 40 pages hot in a pool of 64. */
static void
heat(RelFileNumber a, BlockNumber na)
{
    for (int round = 0; round < 3; round++)
        for (BlockNumber b = 0; b < na; b++)
            read_counter(a, b, NULL);
}

TEST_BEGIN(test_ring_bulkread)
{
    const int nbuffers = 64;
    const BlockNumber na = 40, nb = 640; /* B is 10x the pool */
    RelFileNumber a, b;
    BufferAccessStrategy ring;
    BufferUsage u0, u1;

    start(nbuffers, false);
    a = new_rel();
    b = new_rel();
    fill_rel(a, na, 0, NULL);
    fill_rel(b, nb, 0, NULL);
    restart(nbuffers, false);
    heat(a, na);
    expect_int_eq(count_cached(a, na), na);

    ring = tdb_buf_strategy_create(BUF_STRATEGY_BULKREAD);
    expect_int_eq(tdb_buf_strategy_nbuffers(ring), nbuffers / 8);
    u0 = usage_now();
    for (BlockNumber blk = 0; blk < nb; blk++)
        expect_int_eq(read_counter(b, blk, ring), blk);
    u1 = usage_now();
    expect_u64_eq(u1.reads - u0.reads, nb);
    /* only the ring's buffers were recycled */
    expect_u64_le(u1.evictions - u0.evictions, nb);
    expect_int_eq(count_cached(a, na), na);
    expect_int_eq(count_cached(b, nb), nbuffers / 8);
    /* and A is still a hit */
    u0 = usage_now();
    heat(a, na);
    u1 = usage_now();
    expect_u64_eq(u1.reads - u0.reads, 0);
    tdb_buf_strategy_free(ring);

    /* The same scan without the ring throws A out. */
    for (BlockNumber blk = 0; blk < nb; blk++)
        read_counter(b, blk, NULL);
    expect_u64_lt(count_cached(a, na), na / 4);
    finish();
}
TEST_END

/*
 * A ring recycles only what its own misses took; each new ring starts
 * empty and takes its buffers from the free list.  So scans of a table
 * that fits in the pool, each with a new ring (as each query's seq scan
 * has), leave one ring's worth more of it cached per scan, until a scan
 * is all hits: no read, no eviction.  The storage README's figures rest
 * on this.
 */
TEST_BEGIN(test_ring_scans_fill_pool)
{
    const int nbuffers = 64, ring_size = nbuffers / 8;
    const BlockNumber nb = 40; /* over a quarter of the pool, fits in it */
    RelFileNumber b;
    BufferUsage u0, u1;
    int scans = 0;

    start(nbuffers, false);
    b = new_rel();
    fill_rel(b, nb, 0, NULL);
    restart(nbuffers, false);

    for (;;) {
        BufferAccessStrategy ring =
            tdb_buf_strategy_create(BUF_STRATEGY_BULKREAD);
        int before = count_cached(b, nb);

        expect_int_eq(tdb_buf_strategy_nbuffers(ring), ring_size);
        u0 = usage_now();
        for (BlockNumber blk = 0; blk < nb; blk++)
            expect_int_eq(read_counter(b, blk, ring), blk);
        u1 = usage_now();
        tdb_buf_strategy_free(ring);
        scans++;
        expect_int_eq(count_cached(b, nb),
                      Min(before + ring_size, (int)nb));
        if (u1.reads == u0.reads)
            break;
        expect_u64_eq(u1.reads - u0.reads, nb - (BlockNumber)before);
        if (scans > (int)nb)
            break; /* never converging: fails below */
    }
    /* 5 scans to pull in 40 blocks 8 at a time, the 6th all hits */
    expect_int_eq(scans, (int)(nb / (BlockNumber)ring_size) + 1);
    expect_u64_eq(u1.evictions - u0.evictions, 0);
    expect_u64_eq(u1.hits - u0.hits, nb);
    finish();
}
TEST_END

/* No buffer of the pool has I/O in progress (none is stuck). */
static void
expect_no_io_in_progress(void)
{
    for (int32 i = 0; i < tdb_bufmgr_nbuffers(); i++)
        expect_false(atomic_load(&buf_desc(i)->state) & BM_IO_IN_PROGRESS);
}

/* read_counter through tdb_buf_read_sequential. */
static uint64
read_counter_seq(RelFileNumber rel, BlockNumber blkno, BlockNumber nblocks,
                 BufferAccessStrategy strategy)
{
    Buffer buf = tdb_buf_read_sequential(rel, blkno, nblocks, strategy);
    uint64 counter = UINT64_MAX;

    tdb_buf_lock(buf, BUF_LOCK_SHARE);
    expect_true(payload_read(tdb_buf_page(buf), rel, blkno, &counter));
    expect_int_eq(tdb_buf_block_number(buf), blkno);
    tdb_buf_unlock_release(buf);
    return counter;
}

TEST_BEGIN(test_read_sequential)
{
    const int nbuffers = 128; /* ring 16: read-ahead of 8 */
    const BlockNumber nb = 256;
    const Size off = BLCKSZ - 100; /* inside the payload */
    RelFileNumber rel;
    BufferAccessStrategy ring;
    BufferUsage u0, u1;
    char msg[128];
    uint8 byte13, byte16, flipped;

    start(nbuffers, true);
    rel = new_rel();
    fill_rel(rel, nb, 0, NULL);
    restart(nbuffers, true);
    ring = tdb_buf_strategy_create(BUF_STRATEGY_BULKREAD);
    expect_int_eq(tdb_buf_strategy_read_ahead(ring), 8);

    /* A cold scan: one miss (and one preadv) per 8 blocks. */
    u0 = usage_now();
    for (BlockNumber b = 0; b < nb; b++)
        expect_int_eq(read_counter_seq(rel, b, nb, ring), b);
    u1 = usage_now();
    expect_u64_eq(u1.reads - u0.reads, nb);
    expect_u64_eq(u1.misses - u0.misses, nb / 8);
    expect_u64_eq(u1.hits - u0.hits, nb - nb / 8);
    expect_no_pins();
    expect_no_io_in_progress();

    /* A scan whose end is short of the file's stops there. */
    restart(nbuffers, true);
    expect_int_eq(read_counter_seq(rel, 0, 3, ring), 0);
    expect_true(tdb_buf_is_cached(rel, 2));
    expect_false(tdb_buf_is_cached(rel, 3));
    /* ... and an end past the file's (a stale length) reads what is
     * there: the blocks past the end are not kept, nothing raised */
    expect_int_eq(read_counter_seq(rel, nb - 2, nb + 8, ring), nb - 2);
    expect_true(tdb_buf_is_cached(rel, nb - 1));
    expect_int_eq(tdb_buf_usage_count(rel, nb), -1);
    expect_no_pins();
    expect_no_io_in_progress();

    /* Corrupt block 13 (inside the read of 8..15) and 16 (the start of
     * the next read). */
    restart(nbuffers, true);
    {
        char block[BLCKSZ];

        read_raw_block(rel, 13, block);
        byte13 = (uint8)block[off];
        flipped = byte13 ^ 0x10;
        write_raw_bytes(rel, 13, off, &flipped, 1);
        read_raw_block(rel, 16, block);
        byte16 = (uint8)block[off];
        flipped = byte16 ^ 0x10;
        write_raw_bytes(rel, 16, off, &flipped, 1);
    }
    for (BlockNumber b = 0; b < 13; b++)
        expect_int_eq(read_counter_seq(rel, b, nb, ring), b);
    /* 14 and 15 came with 8; 13 did not stay */
    expect_true(tdb_buf_is_cached(rel, 14));
    expect_true(tdb_buf_is_cached(rel, 15));
    expect_int_eq(tdb_buf_usage_count(rel, 13), -1);
    expect_no_io_in_progress();
    snprintf(msg, sizeof(msg), "invalid page in block 13 of relation base/%u",
             rel);
    expect_error(tdb_buf_read_sequential(rel, 13, nb, ring),
                 ERRCODE_DATA_CORRUPTED, msg);
    expect_str_contains(tdb_test_last_error.detail, "checksum");
    expect_no_pins();
    expect_no_io_in_progress();
    expect_int_eq(tdb_buf_usage_count(rel, 13), -1);
    /* the neighbours read fine, through the ring or not */
    expect_int_eq(read_counter_seq(rel, 12, nb, ring), 12);
    expect_int_eq(read_counter_seq(rel, 14, nb, ring), 14);
    expect_int_eq(read_counter(rel, 15, NULL), 15);

    /* 16 starts a read: raised at once; 17..23 were read and kept */
    snprintf(msg, sizeof(msg), "invalid page in block 16 of relation base/%u",
             rel);
    expect_error(tdb_buf_read_sequential(rel, 16, nb, ring),
                 ERRCODE_DATA_CORRUPTED, msg);
    expect_no_pins();
    expect_no_io_in_progress();
    expect_int_eq(tdb_buf_usage_count(rel, 16), -1);
    u0 = usage_now();
    for (BlockNumber b = 17; b < 24; b++)
        expect_int_eq(read_counter_seq(rel, b, nb, ring), b);
    u1 = usage_now();
    expect_u64_eq(u1.reads - u0.reads, 0);
    /* the next read starts after them */
    expect_int_eq(read_counter_seq(rel, 24, nb, ring), 24);
    expect_true(tdb_buf_is_cached(rel, 31));

    /* repaired on disk: a new scan reads everything */
    write_raw_bytes(rel, 13, off, &byte13, 1);
    write_raw_bytes(rel, 16, off, &byte16, 1);
    restart(nbuffers, true);
    for (BlockNumber b = 0; b < nb; b++)
        expect_int_eq(read_counter_seq(rel, b, nb, ring), b);

    /* A failed preadv: the asked-for block is read alone. */
    restart(nbuffers, true);
    if (tdb_fd_inject(FD_OP_READ, 1, EIO)) {
        uint64 reads0 = tdb_fd_op_count(FD_OP_READ);

        expect_int_eq(read_counter_seq(rel, 40, nb, ring), 40);
        expect_u64_eq(tdb_fd_op_count(FD_OP_READ) - reads0, 2);
        expect_false(tdb_buf_is_cached(rel, 41));
        tdb_fd_inject_clear();
        /* a short one: the whole blocks it got are kept */
        expect_true(tdb_fd_inject(FD_OP_READ, 1, FD_FAULT_SHORT));
        expect_int_eq(read_counter_seq(rel, 48, nb, ring), 48);
        expect_true(tdb_buf_is_cached(rel, 51));
        expect_false(tdb_buf_is_cached(rel, 52));
        tdb_fd_inject_clear();
        for (BlockNumber b = 41; b < 64; b++)
            expect_int_eq(read_counter_seq(rel, b, nb, ring), b);
        expect_no_io_in_progress();
    }
    tdb_buf_strategy_free(ring);
    finish();
}
TEST_END

TEST_BEGIN(test_ring_bulkwrite)
{
    const int nbuffers = 64;
    const BlockNumber na = 40, nb = 640;
    RelFileNumber a, b;
    BufferAccessStrategy ring;
    BufferUsage u0, u1;

    start(nbuffers, true);
    a = new_rel();
    b = new_rel();
    fill_rel(a, na, 0, NULL);
    heat(a, na);

    ring = tdb_buf_strategy_create(BUF_STRATEGY_BULKWRITE);
    expect_int_eq(tdb_buf_strategy_nbuffers(ring), nbuffers / 8);
    u0 = usage_now();
    fill_rel(b, nb, 77, ring);
    u1 = usage_now();
    /* the ring's dirty pages are written as it wraps round */
    expect_u64_ge(u1.writes - u0.writes, nb - nbuffers / 8);
    expect_int_eq(count_cached(a, na), na);
    tdb_buf_strategy_free(ring);

    ring = tdb_buf_strategy_create(BUF_STRATEGY_VACUUM);
    expect_int_eq(tdb_buf_strategy_nbuffers(ring), nbuffers / 8);
    for (BlockNumber blk = 0; blk < nb; blk += 3)
        expect_u64_eq(read_counter(b, blk, ring), 77 + blk);
    expect_int_eq(count_cached(a, na), na);
    tdb_buf_strategy_free(ring);
    finish();
}
TEST_END

/* ----------------------------------------------------------------------
 * Threads
 * ---------------------------------------------------------------------- */

#define CONC_NBLOCKS 48
#define CONC_READERS 4

typedef struct ConcShared {
    RelFileNumber rel;
    int iterations;
    uint64 seed;
    pthread_barrier_t start;
} ConcShared;

typedef struct ConcThread {
    ConcShared *shared;
    int id;
    bool writer;
    pthread_t thread;
    /* results, read by the main thread after join */
    long torn;                  /* inconsistent pages seen */
    long backwards;             /* counters that went back */
    long checked;               /* pages checked */
    long errors;                /* ERRORs caught */
    char error[ERRMSG_MAX];     /* the first one */
    uint64 final[CONC_NBLOCKS]; /* writer: last counter written */
    BufferUsage usage;
} ConcThread;

static void
conc_iteration(ConcThread *t, uint64 *rng, uint64 *seen)
{
    ConcShared *sh = t->shared;
    BlockNumber b = (BlockNumber)(tdb_test_rand(rng) % CONC_NBLOCKS);
    Buffer buf = tdb_buf_read(sh->rel, b, NULL);
    Page page = tdb_buf_page(buf);
    uint64 counter;

    if (t->writer) {
        tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
        if (!payload_read(page, sh->rel, b, &counter))
            t->torn++;
        else if (counter != t->final[b])
            t->backwards++; /* a write of ours was lost */
        t->final[b] = counter + 1;
        payload_write(page, sh->rel, b, counter + 1);
        tdb_buf_mark_dirty(buf);
    } else {
        tdb_buf_lock(buf, BUF_LOCK_SHARE);
        if (!payload_read(page, sh->rel, b, &counter))
            t->torn++;
        else {
            if (counter < seen[b])
                t->backwards++;
            seen[b] = counter;
        }
    }
    t->checked++;
    tdb_buf_unlock_release(buf);
}

static void *
conc_main(void *arg)
{
    ConcThread *t = arg;
    uint64 rng = t->shared->seed + (uint64)t->id * 7919;
    uint64 seen[CONC_NBLOCKS] = {0};

    tdb_mcxt_thread_init();
    pthread_barrier_wait(&t->shared->start);
    TDB_TRY();
    {
        for (int i = 0; i < t->shared->iterations; i++)
            conc_iteration(t, &rng, seen);
    }
    TDB_CATCH();
    {
        t->errors++;
        snprintf(t->error, sizeof(t->error), "%s",
                 tdb_error_current()->message);
        tdb_error_flush();
        tdb_buf_release_all_pins_of_thread();
    }
    TDB_END_TRY();
    tdb_buf_usage(&t->usage);
    tdb_mcxt_thread_done();
    return NULL;
}

TEST_BEGIN(test_concurrent)
{
    ConcShared shared;
    ConcThread threads[CONC_READERS + 1];
    uint64 writes_back = 0, evictions = 0;

    start(CONC_NBLOCKS / 2, true); /* the pool holds half the table */
    shared.rel = new_rel();
    fill_rel(shared.rel, CONC_NBLOCKS, 0, NULL);
    tdb_buf_flush_all();
    shared.iterations = under_valgrind() ? 300 : 5000;
    shared.seed = tdb_test_seed();
    pthread_barrier_init(&shared.start, NULL, CONC_READERS + 1);

    memset(threads, 0, sizeof(threads));
    for (int i = 0; i <= CONC_READERS; i++) {
        threads[i].shared = &shared;
        threads[i].id = i;
        threads[i].writer = i == CONC_READERS;
        if (threads[i].writer)
            for (BlockNumber b = 0; b < CONC_NBLOCKS; b++)
                threads[i].final[b] = b; /* what fill_rel wrote */
        expect_int_eq(
            pthread_create(&threads[i].thread, NULL, conc_main, &threads[i]),
            0);
    }
    for (int i = 0; i <= CONC_READERS; i++) {
        ConcThread *t = &threads[i];

        pthread_join(t->thread, NULL);
        if (t->errors > 0)
            tdb_test_fail(__FILE__, __LINE__, "thread %d: %s", i, t->error);
        expect_int_eq(t->torn, 0);
        expect_int_eq(t->backwards, 0);
        expect_int_eq(t->checked, shared.iterations);
        writes_back += t->usage.writes;
        evictions += t->usage.evictions;
    }
    pthread_barrier_destroy(&shared.start);
    expect_u64_gt(evictions, 0); /* the test did exercise eviction */
    expect_u64_gt(writes_back, 0);
    expect_no_pins();

    /* nothing the writer did was lost, in the pool or on disk */
    for (BlockNumber b = 0; b < CONC_NBLOCKS; b++)
        expect_u64_eq(read_counter(shared.rel, b, NULL),
                      threads[CONC_READERS].final[b]);
    restart(CONC_NBLOCKS / 2, true);
    for (BlockNumber b = 0; b < CONC_NBLOCKS; b++)
        expect_u64_eq(read_counter(shared.rel, b, NULL),
                      threads[CONC_READERS].final[b]);
    finish();
}
TEST_END

#define SAME_NTHREADS 4
#define SAME_NBLOCKS 64

typedef struct SameThread {
    RelFileNumber rel;
    pthread_barrier_t *start;
    pthread_t thread;
    long bad;
    BufferUsage usage;
} SameThread;

static void *
same_main(void *arg)
{
    SameThread *t = arg;

    tdb_mcxt_thread_init();
    pthread_barrier_wait(t->start);
    TDB_TRY();
    {
        for (BlockNumber b = 0; b < SAME_NBLOCKS; b++) {
            Buffer buf = tdb_buf_read(t->rel, b, NULL);
            uint64 counter;

            tdb_buf_lock(buf, BUF_LOCK_SHARE);
            if (!payload_read(tdb_buf_page(buf), t->rel, b, &counter) ||
                counter != b)
                t->bad++;
            tdb_buf_unlock_release(buf);
        }
    }
    TDB_CATCH();
    {
        t->bad++;
        tdb_error_flush();
        tdb_buf_release_all_pins_of_thread();
    }
    TDB_END_TRY();
    tdb_buf_usage(&t->usage);
    tdb_mcxt_thread_done();
    return NULL;
}

TEST_BEGIN(test_concurrent_same_block)
{
    SameThread threads[SAME_NTHREADS];
    pthread_barrier_t barrier;
    RelFileNumber rel;
    uint64 reads = 0, hits = 0;

    start(2 * SAME_NBLOCKS, false); /* nothing gets evicted */
    rel = new_rel();
    fill_rel(rel, SAME_NBLOCKS, 0, NULL);
    restart(2 * SAME_NBLOCKS, false);

    pthread_barrier_init(&barrier, NULL, SAME_NTHREADS);
    memset(threads, 0, sizeof(threads));
    for (int i = 0; i < SAME_NTHREADS; i++) {
        threads[i].rel = rel;
        threads[i].start = &barrier;
        expect_int_eq(
            pthread_create(&threads[i].thread, NULL, same_main, &threads[i]),
            0);
    }
    for (int i = 0; i < SAME_NTHREADS; i++) {
        pthread_join(threads[i].thread, NULL);
        expect_int_eq(threads[i].bad, 0);
        reads += threads[i].usage.reads;
        hits += threads[i].usage.hits;
        expect_u64_eq(threads[i].usage.misses, threads[i].usage.reads);
    }
    pthread_barrier_destroy(&barrier);
    /* each block was read from disk by exactly one of the threads */
    expect_u64_eq(reads, SAME_NBLOCKS);
    expect_u64_eq(hits, (SAME_NTHREADS - 1) * SAME_NBLOCKS);
    finish();
}
TEST_END

/* ----------------------------------------------------------------------
 * Error recovery
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_release_all_after_error)
{
    const int npinned = 20; /* more than the 8 array entries */
    RelFileNumber rel;
    Buffer bufs[20];
    volatile int released = -1;
    BufferPoolStats stats;

    start(32, false);
    rel = new_rel();
    fill_rel(rel, (BlockNumber)npinned, 0, NULL);

    TDB_TRY();
    {
        for (int i = 0; i < npinned; i++) {
            bufs[i] = tdb_buf_read(rel, (BlockNumber)i, NULL);
            if (i % 5 == 0)
                tdb_buf_lock(bufs[i], BUF_LOCK_EXCLUSIVE);
            else if (i % 5 == 1)
                tdb_buf_lock(bufs[i], BUF_LOCK_SHARE);
            if (i % 3 == 0)
                tdb_buf_incr_pin(bufs[i]);
        }
        tdb_buf_mark_dirty(bufs[0]);
        expect_int_eq(tdb_buf_pins_held(), npinned);
        tdb_buf_pool_stats(&stats);
        expect_int_eq(stats.npinned, npinned);
        elog(ERROR, "something went wrong mid-statement");
    }
    TDB_CATCH();
    {
        expect_str_eq(tdb_error_current()->message,
                      "something went wrong mid-statement");
        tdb_error_flush();
        released = tdb_buf_release_all_pins_of_thread();
    }
    TDB_END_TRY();

    expect_int_eq(released, npinned);
    expect_no_pins();
    expect_int_eq(tdb_buf_release_all_pins_of_thread(), 0);

    /* the locks are free again: exclusive and cleanup locks succeed */
    for (int i = 0; i < npinned; i++) {
        Buffer buf = tdb_buf_read(rel, (BlockNumber)i, NULL);

        expect_int_eq(buf, bufs[i]);
        expect_true(tdb_buf_try_lock_for_cleanup(buf));
        tdb_buf_unlock_release(buf);
    }
    /* the pool goes on working: a full eviction cycle */
    fill_rel(rel, 64, 100, NULL);
    for (BlockNumber b = 0; b < 84; b++)
        expect_u64_eq(read_counter(rel, b, NULL), b < 20 ? b : 100 + b);
    finish();
}
TEST_END

TEST_BEGIN(test_many_pins)
{
    enum { NPINS = 100, NBLOCKS = 1024 };
    RelFileNumber rel;
    Buffer bufs[NPINS];
    BlockNumber blocks[NPINS];
    int extra[NPINS];
    bool chosen[NBLOCKS] = {false};
    uint64 seed = tdb_test_seed();
    BufferPoolStats stats;

    start(NBLOCKS, false);
    rel = new_rel();
    fill_rel(rel, NBLOCKS, 0, NULL);
    /*
     * Pin 100 random buffers (92 of them in the overflow table; random ids
     * collide in its hash, so lookups and deletions probe), some twice.
     */
    for (int i = 0; i < NPINS; i++) {
        BlockNumber b;

        do
            b = (BlockNumber)(tdb_test_rand(&seed) % NBLOCKS);
        while (chosen[b]);
        chosen[b] = true;
        blocks[i] = b;
        bufs[i] = tdb_buf_read(rel, b, NULL);
        extra[i] = (int)(tdb_test_rand(&seed) % 3);
        for (int k = 0; k < extra[i]; k++)
            tdb_buf_incr_pin(bufs[i]);
    }
    expect_int_eq(tdb_buf_pins_held(), NPINS);
    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.npinned, NPINS);
    /* release in another random order: every entry stays findable */
    for (int i = NPINS - 1; i > 0; i--) {
        int j = (int)(tdb_test_rand(&seed) % (uint64)(i + 1));
        Buffer tb = bufs[i];
        BlockNumber tblk = blocks[i];
        int te = extra[i];

        bufs[i] = bufs[j];
        blocks[i] = blocks[j];
        extra[i] = extra[j];
        bufs[j] = tb;
        blocks[j] = tblk;
        extra[j] = te;
    }
    for (int i = 0; i < NPINS; i++) {
        expect_int_eq(tdb_buf_block_number(bufs[i]), blocks[i]);
        for (int k = 0; k <= extra[i]; k++)
            tdb_buf_release(bufs[i]);
        expect_error(tdb_buf_release(bufs[i]), ERRCODE_INTERNAL_ERROR,
                     "is not pinned");
        expect_int_eq(tdb_buf_pins_held(), NPINS - 1 - i);
    }
    expect_no_pins();
    finish();
}
TEST_END

/* ----------------------------------------------------------------------
 * Cleanup locks and conditional locks
 * ---------------------------------------------------------------------- */

typedef struct PinHolder {
    RelFileNumber rel;
    BlockNumber blkno;
    BufferLockMode lock_mode; /* taken after the pin, if any */
    pthread_barrier_t pinned;
    volatile int released; /* set just before the release */
    int delay_ms;
    pthread_t thread;
} PinHolder;

static void *
pin_holder_main(void *arg)
{
    PinHolder *h = arg;
    Buffer buf;
    struct timespec ts = {0, (long)h->delay_ms * 1000000L};

    tdb_mcxt_thread_init();
    buf = tdb_buf_read(h->rel, h->blkno, NULL);
    if (h->lock_mode != BUF_LOCK_UNLOCK)
        tdb_buf_lock(buf, h->lock_mode);
    pthread_barrier_wait(&h->pinned);
    nanosleep(&ts, NULL);
    __atomic_store_n(&h->released, 1, __ATOMIC_SEQ_CST);
    if (h->lock_mode != BUF_LOCK_UNLOCK)
        tdb_buf_lock(buf, BUF_LOCK_UNLOCK);
    tdb_buf_release(buf);
    tdb_mcxt_thread_done();
    return NULL;
}

static void
pin_holder_start(PinHolder *h, RelFileNumber rel, BlockNumber blkno,
                 BufferLockMode mode, int delay_ms)
{
    memset(h, 0, sizeof(*h));
    h->rel = rel;
    h->blkno = blkno;
    h->lock_mode = mode;
    h->delay_ms = delay_ms;
    pthread_barrier_init(&h->pinned, NULL, 2);
    expect_int_eq(pthread_create(&h->thread, NULL, pin_holder_main, h), 0);
    pthread_barrier_wait(&h->pinned);
}

static void
pin_holder_join(PinHolder *h)
{
    pthread_join(h->thread, NULL);
    pthread_barrier_destroy(&h->pinned);
}

TEST_BEGIN(test_cleanup_lock)
{
    RelFileNumber rel;
    PinHolder holder;
    Buffer buf;

    start(16, false);
    rel = new_rel();
    fill_rel(rel, 2, 0, NULL);

    buf = tdb_buf_read(rel, 1, NULL);
    pin_holder_start(&holder, rel, 1, BUF_LOCK_UNLOCK, 50);
    expect_false(tdb_buf_try_lock_for_cleanup(buf)); /* the other pin */
    tdb_buf_lock_for_cleanup(buf);                   /* waits for it */
    expect_int_eq(__atomic_load_n(&holder.released, __ATOMIC_SEQ_CST), 1);
    tdb_page_compact(tdb_buf_page(buf));
    tdb_buf_mark_dirty(buf);
    tdb_buf_unlock_release(buf);
    pin_holder_join(&holder);

    /* the holder also holds a share lock: the cleanup lock waits for
     * both to go */
    buf = tdb_buf_read(rel, 0, NULL);
    pin_holder_start(&holder, rel, 0, BUF_LOCK_SHARE, 30);
    tdb_buf_lock_for_cleanup(buf);
    expect_int_eq(__atomic_load_n(&holder.released, __ATOMIC_SEQ_CST), 1);
    tdb_buf_unlock_release(buf);
    pin_holder_join(&holder);

    expect_int_eq(read_counter(rel, 1, NULL), 1);
    finish();
}
TEST_END

TEST_BEGIN(test_try_locks)
{
    RelFileNumber rel;
    PinHolder holder;
    Buffer buf;

    start(16, false);
    rel = new_rel();
    fill_rel(rel, 1, 0, NULL);
    buf = tdb_buf_read(rel, 0, NULL);

    /* another thread's share lock: share yes, exclusive no */
    pin_holder_start(&holder, rel, 0, BUF_LOCK_SHARE, 20);
    expect_false(tdb_buf_try_lock(buf, BUF_LOCK_EXCLUSIVE));
    expect_true(tdb_buf_try_lock(buf, BUF_LOCK_SHARE));
    tdb_buf_lock(buf, BUF_LOCK_UNLOCK);
    pin_holder_join(&holder);

    /* another thread's exclusive lock: neither; the blocking call waits */
    pin_holder_start(&holder, rel, 0, BUF_LOCK_EXCLUSIVE, 30);
    expect_false(tdb_buf_try_lock(buf, BUF_LOCK_SHARE));
    expect_false(tdb_buf_try_lock(buf, BUF_LOCK_EXCLUSIVE));
    tdb_buf_lock(buf, BUF_LOCK_SHARE);
    expect_int_eq(__atomic_load_n(&holder.released, __ATOMIC_SEQ_CST), 1);
    tdb_buf_lock(buf, BUF_LOCK_UNLOCK);
    pin_holder_join(&holder);

    expect_true(tdb_buf_try_lock(buf, BUF_LOCK_EXCLUSIVE));
    expect_error(tdb_buf_try_lock(buf, BUF_LOCK_SHARE), ERRCODE_INTERNAL_ERROR,
                 "already locked");
    tdb_buf_unlock_release(buf);
    finish();
}
TEST_END

/* ----------------------------------------------------------------------
 * Disk full
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_extend_disk_full)
{
    RelFileNumber rel;
    BufferPoolStats before, after;
    Buffer buf;
    BlockNumber blkno;

    start(16, true);
    rel = new_rel();
    fill_rel(rel, 3, 0, NULL);
    tdb_buf_flush_all();
    if (!tdb_fd_inject(FD_OP_WRITE, 1, ENOSPC))
        test_skip("fault injection needs a TDB_DEBUG build");

    tdb_buf_pool_stats(&before);
    expect_error(tdb_buf_extend(rel, NULL, &blkno), ERRCODE_DISK_FULL,
                 "could not extend file");
    expect_str_eq(tdb_test_last_error.hint, "Check free disk space.");
    tdb_fd_inject_clear();
    tdb_buf_pool_stats(&after);
    expect_int_eq(after.nvalid, before.nvalid);
    expect_false(tdb_buf_is_cached(rel, 3));
    expect_int_eq(tdb_buf_usage_count(rel, 3), -1);
    expect_no_pins();
    expect_int_eq(rel_nblocks(rel), 3);

    /* a short write, then no space: the same, no partial block left */
    expect_true(tdb_fd_inject(FD_OP_WRITE, 1, FD_FAULT_SHORT));
    expect_true(tdb_fd_inject(FD_OP_WRITE, 2, ENOSPC));
    expect_error(tdb_buf_extend(rel, NULL, &blkno), ERRCODE_DISK_FULL, NULL);
    tdb_fd_inject_clear();
    expect_int_eq(file_size(rel_path(rel)), 3 * BLCKSZ);

    /* the extension lock was released: extend works again */
    buf = tdb_buf_extend(rel, NULL, &blkno);
    expect_int_eq(blkno, 3);
    expect_true(payload_write(tdb_buf_page(buf), rel, blkno, blkno));
    tdb_buf_mark_dirty(buf);
    tdb_buf_unlock_release(buf);
    restart(16, true);
    for (BlockNumber b = 0; b < 4; b++)
        expect_int_eq(read_counter(rel, b, NULL), b);

    /* STYLE.md's loop: fail the 1st, 2nd, ... write of a 5-block
     * extension until it succeeds (once the relation outgrows the pool,
     * some of the writes are dirty victims written back); every failure
     * is clean and keeps what was added before it */
    restart(16, true);
    for (volatile uint32 n = 1;; n++) {
        volatile bool failed = false;
        BlockNumber len = rel_nblocks(rel);

        expect_true(tdb_fd_inject(FD_OP_WRITE, n, ENOSPC));
        TDB_TRY();
        {
            fill_rel(rel, 5, 1000, NULL);
        }
        TDB_CATCH();
        {
            failed = true;
            expect_int_eq(tdb_error_current()->sqlerrcode, ERRCODE_DISK_FULL);
            tdb_error_flush();
            tdb_buf_release_all_pins_of_thread();
        }
        TDB_END_TRY();
        tdb_fd_inject_clear();
        expect_no_pins();
        if (!failed)
            break;
        expect_true(rel_nblocks(rel) < len + 5);
        if (n > 100) {
            tdb_test_fail(__FILE__, __LINE__, "never succeeded");
            break;
        }
    }
    for (BlockNumber b = 0; b < rel_nblocks(rel); b++)
        expect_int_eq(read_counter(rel, b, NULL), b < 4 ? b : 1000 + b);
    finish();
}
TEST_END

TEST_BEGIN(test_writeback_disk_full)
{
    RelFileNumber rel;
    BufferPoolStats stats;

    start(16, true);
    rel = new_rel();
    fill_rel(rel, 24, 0, NULL);
    tdb_buf_flush_all();
    restart(16, true);
    for (BlockNumber b = 0; b < 16; b++)
        update_block(rel, b, 100 + b); /* 16 dirty buffers, a full pool */
    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.ndirty, 16);

    if (!tdb_fd_inject(FD_OP_WRITE, 1, ENOSPC))
        test_skip("fault injection needs a TDB_DEBUG build");
    expect_error(tdb_buf_read(rel, 20, NULL), ERRCODE_DISK_FULL,
                 "could not write block");
    tdb_fd_inject_clear();
    expect_no_pins();
    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.ndirty, 16); /* the victim is still dirty */
    expect_int_eq(stats.nvalid, 16);
    expect_false(tdb_buf_is_cached(rel, 20));

    /* and flush_all: the failure leaves the rest dirty, a retry works */
    expect_true(tdb_fd_inject(FD_OP_WRITE, 3, EIO));
    expect_error(tdb_buf_flush_all(), ERRCODE_IO_ERROR, "could not write");
    tdb_fd_inject_clear();
    expect_no_pins();
    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.ndirty, 14);
    tdb_buf_flush_all();
    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.ndirty, 0);

    restart(16, true);
    for (BlockNumber b = 0; b < 24; b++)
        expect_int_eq(read_counter(rel, b, NULL), b < 16 ? 100 + b : b);
    finish();
}
TEST_END

/* ----------------------------------------------------------------------
 * Whole relations
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_flush_relation)
{
    RelFileNumber a, b;
    BufferPoolStats stats;
    char block[BLCKSZ];
    uint64 counter;

    start(32, false);
    a = new_rel();
    b = new_rel();
    fill_rel(a, 5, 0, NULL);
    fill_rel(b, 5, 0, NULL);
    tdb_buf_flush_all();
    update_block(a, 2, 42);
    update_block(b, 2, 43);
    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.ndirty, 2);

    tdb_buf_flush_relation(a);
    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.ndirty, 1);
    read_raw_block(a, 2, block);
    expect_true(payload_read(block, a, 2, &counter));
    expect_u64_eq(counter, 42);
    read_raw_block(b, 2, block);
    expect_true(payload_read(block, b, 2, &counter));
    expect_u64_eq(counter, 2); /* not yet */

    /* flushing while holding a lock on one of its buffers */
    {
        Buffer buf = tdb_buf_read(b, 2, NULL);

        tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
        tdb_buf_flush_relation(b);
        tdb_buf_unlock_release(buf);
    }
    read_raw_block(b, 2, block);
    expect_true(payload_read(block, b, 2, &counter));
    expect_u64_eq(counter, 43);
    finish();
}
TEST_END

TEST_BEGIN(test_drop_relation)
{
    RelFileNumber a, b;
    BufferPoolStats stats;
    SMgrRelation s;
    Buffer buf;
    BlockNumber blkno;

    start(32, false);
    a = new_rel();
    b = new_rel();
    fill_rel(a, 6, 0, NULL);
    fill_rel(b, 6, 0, NULL);
    tdb_buf_flush_all();
    update_block(a, 1, 99); /* dirty, to be discarded */

    tdb_buf_drop_relation(a);
    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.nvalid, 6);
    expect_int_eq(stats.ndirty, 0);
    expect_int_eq(count_cached(a, 6), 0);
    expect_int_eq(count_cached(b, 6), 6);
    /* the discarded change never reached the file */
    expect_int_eq(read_counter(a, 1, NULL), 1);

    /* DROP: forget, then remove the files; the pool holds none open */
    tdb_buf_drop_relation(a);
    s = tdb_smgr_open(NULL, db_path, a);
    tdb_smgr_unlink(s);
    expect_false(file_exists(rel_path(a)));
    /* re-created empty: extension starts over at block 0 */
    tdb_smgr_create(s, MAIN_FORKNUM, false);
    tdb_smgr_close(s);
    buf = tdb_buf_extend(a, NULL, &blkno);
    expect_int_eq(blkno, 0);
    tdb_buf_unlock_release(buf);
    expect_error(tdb_buf_read(a, 1, NULL), ERRCODE_DATA_CORRUPTED,
                 "could not read block 1");

    /* dropping a relation the pool never saw */
    tdb_buf_drop_relation(123456);
    for (BlockNumber blk = 0; blk < 6; blk++)
        expect_int_eq(read_counter(b, blk, NULL), blk);
    finish();
}
TEST_END

/* Path of segment 0 of fork sfx ("", "_vm", ...) of rel. */
static char *
fork_path(RelFileNumber rel, const char *sfx)
{
    char name[48];

    snprintf(name, sizeof(name), "base/%u%s", rel, sfx);
    return test_path(db_path, name);
}

/* Read block blkno of fork sfx of rel straight from disk and return its
 * payload counter (0 if it holds none). */
static uint64
raw_fork_counter(RelFileNumber rel, const char *sfx, BlockNumber blkno)
{
    PGAlignedBlock block;
    char *path = fork_path(rel, sfx);
    int fd = open(path, O_RDONLY);
    uint64 counter = 0;

    expect_true(fd >= 0);
    expect_int_eq(pread(fd, block.data, BLCKSZ, (off_t)blkno * BLCKSZ), BLCKSZ);
    close(fd);
    if (!payload_read(block.data, rel, blkno, &counter))
        return 0;
    return counter;
}

/* Set the payload of a pinned buffer's block to counter (exclusively
 * locked meanwhile); before_main: mark it with
 * tdb_buf_mark_dirty_before_main. */
static void
set_payload(Buffer buf, RelFileNumber rel, uint64 counter, bool before_main)
{
    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    expect_true(payload_write(tdb_buf_page(buf), rel, tdb_buf_block_number(buf),
                              counter));
    if (before_main)
        tdb_buf_mark_dirty_before_main(buf);
    else
        tdb_buf_mark_dirty(buf);
    tdb_buf_lock(buf, BUF_LOCK_UNLOCK);
}

TEST_BEGIN(test_forks)
{
    RelFileNumber a;
    Buffer main_buf, vm_buf;
    BlockNumber blkno;
    uint64 counter;

    start(16, false);
    a = new_rel();
    fill_rel(a, 1, 1, NULL); /* main block 0: counter 1 */
    expect_int_eq(tdb_buf_fork_nblocks(a, VISIBILITYMAP_FORKNUM), 0);
    expect_false(file_exists(fork_path(a, "_vm")));
    vm_buf = tdb_buf_extend_fork(a, VISIBILITYMAP_FORKNUM, NULL, &blkno);
    expect_int_eq(blkno, 0);
    expect_true(file_exists(fork_path(a, "_vm")));
    expect_true(payload_write(tdb_buf_page(vm_buf), a, 0, 2));
    tdb_buf_mark_dirty(vm_buf);
    tdb_buf_unlock_release(vm_buf);
    expect_int_eq(tdb_buf_fork_nblocks(a, VISIBILITYMAP_FORKNUM), 1);
    expect_int_eq(tdb_buf_fork_nblocks(a, FSM_FORKNUM), 0);
    expect_int_eq(tdb_buf_relation_nblocks(a), 1);

    /* same relation and block, different forks: different buffers */
    main_buf = tdb_buf_read(a, 0, NULL);
    vm_buf = tdb_buf_read_fork(a, VISIBILITYMAP_FORKNUM, 0, NULL);
    expect_int_ne(main_buf, vm_buf);
    expect_int_eq(tdb_buf_fork_number(main_buf), MAIN_FORKNUM);
    expect_int_eq(tdb_buf_fork_number(vm_buf), VISIBILITYMAP_FORKNUM);
    expect_int_eq(tdb_buf_block_number(vm_buf), 0);
    expect_int_eq(tdb_buf_relnumber(vm_buf), a);
    expect_true(payload_read(tdb_buf_page(main_buf), a, 0, &counter));
    expect_int_eq(counter, 1);
    expect_true(payload_read(tdb_buf_page(vm_buf), a, 0, &counter));
    expect_int_eq(counter, 2);
    tdb_buf_release(main_buf);
    tdb_buf_release(vm_buf);
    expect_error(tdb_buf_read_fork(a, (ForkNumber)7, 0, NULL),
                 ERRCODE_INTERNAL_ERROR, "invalid fork number 7");

    /* each in its own file, across a cold restart */
    restart(16, false);
    expect_int_eq(raw_fork_counter(a, "", 0), 1);
    expect_int_eq(raw_fork_counter(a, "_vm", 0), 2);
    main_buf = tdb_buf_read(a, 0, NULL); /* the lower buffer: flushed first */
    vm_buf = tdb_buf_read_fork(a, VISIBILITYMAP_FORKNUM, 0, NULL);
    expect_true(tdb_buf_fork_is_cached(a, VISIBILITYMAP_FORKNUM, 0));
    expect_false(tdb_buf_fork_is_cached(a, FSM_FORKNUM, 0));

    /* write order: the map change marked before-main goes first ... */
    set_payload(vm_buf, a, 3, true);
    set_payload(main_buf, a, 4, false);
    expect_error(set_payload(main_buf, a, 4, true), ERRCODE_INTERNAL_ERROR,
                 "is not a visibility map page");
    tdb_buf_lock(main_buf, BUF_LOCK_UNLOCK);
    tdb_buf_release(main_buf);
    tdb_buf_release(vm_buf);
    if (config_debug) {
        /* ... and if the map cannot be made durable, the main page is
         * not written at all */
        expect_true(tdb_fd_inject(FD_OP_FSYNC, 1, EIO));
        expect_error(tdb_buf_flush_all(), ERRCODE_IO_ERROR,
                     "could not fsync file");
        tdb_fd_inject_clear();
        expect_int_eq(raw_fork_counter(a, "", 0), 1);
    }
    tdb_buf_flush_all();
    expect_int_eq(raw_fork_counter(a, "_vm", 0), 3);
    expect_int_eq(raw_fork_counter(a, "", 0), 4);

    /* truncating a fork forgets its buffers past the new end only */
    for (BlockNumber b = 1; b < 3; b++) {
        vm_buf = tdb_buf_extend_fork(a, VISIBILITYMAP_FORKNUM, NULL, &blkno);
        expect_int_eq(blkno, b);
        tdb_buf_unlock_release(vm_buf);
    }
    tdb_buf_truncate_fork(a, VISIBILITYMAP_FORKNUM, 1);
    expect_int_eq(tdb_buf_fork_nblocks(a, VISIBILITYMAP_FORKNUM), 1);
    expect_true(tdb_buf_fork_is_cached(a, VISIBILITYMAP_FORKNUM, 0));
    expect_false(tdb_buf_fork_is_cached(a, VISIBILITYMAP_FORKNUM, 1));
    expect_true(tdb_buf_is_cached(a, 0));
    tdb_buf_truncate_fork(a, FSM_FORKNUM, 0); /* no such fork: nothing */

    /* dropping the relation forgets every fork's buffers */
    tdb_buf_drop_relation(a);
    expect_false(tdb_buf_fork_is_cached(a, VISIBILITYMAP_FORKNUM, 0));
    expect_false(tdb_buf_is_cached(a, 0));
    finish();
}
TEST_END

TEST_BEGIN(test_slot_hooks)
{
    RelFileNumber rel;
    TupleDesc desc;
    Datum values[1] = {Int32GetDatum(12345)};
    bool isnull[1] = {false};
    HeapTuple formed;
    HeapTupleData tuple;
    TupleTableSlot *slot;
    Buffer buf;
    BlockNumber blkno;
    OffsetNumber off;
    Page page;
    BufferPoolStats stats;

    start(16, false);
    rel = new_rel();
    desc = tdb_tupdesc_create(1);
    tdb_tupdesc_init_attr(desc, 0, "a", 23, -1, 4, true, 'i', 'p');
    tdb_tupdesc_finalize(desc);
    formed = tdb_heap_form_tuple(desc, values, isnull);

    buf = tdb_buf_extend(rel, NULL, &blkno);
    page = tdb_buf_page(buf);
    off = tdb_page_add_item(page, formed->t_data, formed->t_len,
                            InvalidOffsetNumber, PAGE_ADD_IS_HEAP);
    expect_int_eq(off, 1);
    tdb_buf_mark_dirty(buf);
    tdb_buf_lock(buf, BUF_LOCK_UNLOCK);

    tuple.t_len = formed->t_len;
    ItemPointerSet(&tuple.t_self, blkno, off);
    tuple.t_tableOid = rel;
    tuple.t_data = (HeapTupleHeader)tdb_page_get_item(
        page, tdb_page_get_item_id(page, off));
    slot = tdb_slot_create(desc, &tdb_tts_ops_heap);
    tdb_slot_store_buffer_tuple(slot, &tuple, buf);
    tdb_buf_release(buf); /* the slot's pin keeps it */
    expect_int_eq(tdb_buf_pins_held(), 1);
    tdb_buf_pool_stats(&stats);
    expect_int_eq(stats.npinned, 1);
    {
        bool null;

        expect_int_eq(DatumGetInt32(tdb_slot_getattr(slot, 1, &null)), 12345);
    }
    tdb_slot_clear(slot);
    expect_no_pins();
    tdb_slot_drop(slot);
    finish();
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "storage_bufmgr", TEST_CASE(test_init_errors),
        TEST_CASE(test_misuse), TEST_CASE(test_default_pool),
        TEST_CASE(test_hit_miss), TEST_CASE(test_eviction_writeback),
        TEST_CASE(test_survives_restart), TEST_CASE(test_checksums),
        TEST_CASE(test_corrupt_page), TEST_CASE(test_new_page),
        TEST_CASE(test_read_past_end), TEST_CASE(test_usage_count),
        TEST_CASE(test_ring_bulkread), TEST_CASE(test_ring_bulkwrite),
        TEST_CASE(test_ring_scans_fill_pool), TEST_CASE(test_read_sequential),
        TEST_CASE(test_concurrent), TEST_CASE(test_concurrent_same_block),
        TEST_CASE(test_release_all_after_error), TEST_CASE(test_many_pins),
        TEST_CASE(test_cleanup_lock), TEST_CASE(test_try_locks),
        TEST_CASE(test_extend_disk_full), TEST_CASE(test_writeback_disk_full),
        TEST_CASE(test_flush_relation), TEST_CASE(test_drop_relation),
        TEST_CASE(test_slot_hooks), TEST_CASE(test_forks));
}
