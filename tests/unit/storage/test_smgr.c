/*
 * test_smgr.c -- relation files: blocks, segments, errors and injected
 * I/O faults.
 *
 * Built twice (Makefile): storage_smgr with the production 1 GB segments,
 * and storage_smgr_smallseg with this file and smgr.c compiled with
 * -DTDB_RELSEG_SIZE=4, so that segment boundaries come every 32 KB.  Tests
 * that need to write across several boundaries skip themselves in the
 * 1 GB build; test_sparse_segment_boundary crosses the real 1 GB boundary
 * cheaply with a sparse file.
 *
 *   test_segment_size           the binary links the smgr.o it was meant to
 *   test_create_exists          create, exists, duplicate create, paths
 *   test_roundtrip              extend, read, overwrite; a new handle
 *       (after close) reads the same bytes
 *   test_many_segments          3+ segments: files and sizes, reads
 *       through a fresh handle, truncate to inside / at the boundary of /
 *       to zero removes later segment files, extend again afterwards
 *   test_sparse_segment_boundary  a full (sparse) segment 0, extend into
 *       segment 1, truncate back
 *   test_read_errors            past the end, in a missing segment, a
 *       file cut mid-block (read only N of 8192 bytes; extend repairs it),
 *       a missing relation, an over-long segment
 *   test_unlink                 every segment removed; the same handle can
 *       create the relation again
 *   test_misuse                 truncate beyond the end, extend past
 *       block 0xFFFFFFFE, debug-build position checks
 *   test_descriptors_released   close and a parent context reset both
 *       close every segment descriptor
 *   test_extend_fault_loop      STYLE.md's loop: fail the 1st, 2nd, ...
 *       write / open / size call of a multi-segment extend until it
 *       succeeds; each failure has the right SQLSTATE and leaves whole
 *       blocks with the earlier data intact
 *   test_extend_enospc_message  the exact message and hint
 *   test_extend_truncate_back_fails  a partial block that cannot be cut
 *       off is ignored by nblocks and overwritten by the next extend
 *   test_write_faults           ENOSPC / EIO / torn overwrite of an
 *       existing block
 *   test_read_faults            EIO and short reads
 *   test_immedsync_faults       every fsync of immedsync can fail
 *   test_removal_faults         a failed unlink or truncate leaves a
 *       gapless prefix of segments
 *   test_forks                  PostgreSQL's fork file names (_fsm, _vm,
 *       _init, and their segments); forks created, extended, read and
 *       truncated independently; unlink removes every fork, unlink_fork
 *       one; an invalid fork number is an internal error
 */
#include "common/base.h"

#include <dirent.h>

#include "storage/fd.h"
#include "storage/smgr.h"
#include "storage_test.h"

#define TEST_REL ((RelFileNumber)16384)

/* Segment boundaries are cheap to cross only with small segments. */
#define SMALL_SEGMENTS (RELSEG_SIZE <= 16)

/* A data directory with just the base/ folder smgr needs. */
static const char *
make_datadir(void)
{
    const char *dir = test_tmpdir();

    expect_int_eq(tdb_fd_mkdir(test_path(dir, "base"), TDB_DIR_MODE), 0);
    return dir;
}

/* Path of segment segno of TEST_REL (current context). */
static char *
seg_path(const char *datadir, uint32 segno)
{
    char name[64];

    if (segno == 0)
        snprintf(name, sizeof(name), "base/%u", TEST_REL);
    else
        snprintf(name, sizeof(name), "base/%u.%u", TEST_REL, segno);
    return test_path(datadir, name);
}

/* Number of segment files of TEST_REL, checking they are 0, 1, ... n-1
 * with no gap and nothing after a missing one. */
static uint32
count_segments(const char *datadir)
{
    uint32 n = 0;

    while (file_exists(seg_path(datadir, n)))
        n++;
    for (uint32 s = n + 1; s < n + 4; s++)
        expect_false(file_exists(seg_path(datadir, s)));
    return n;
}

static SMgrRelation
create_rel(const char *datadir)
{
    SMgrRelation rel = tdb_smgr_open(NULL, datadir, TEST_REL);

    tdb_smgr_create(rel, MAIN_FORKNUM, false);
    return rel;
}

/* Extend rel with blocks from .. to-1, block b holding pattern b. */
static void
extend_blocks(SMgrRelation rel, BlockNumber from, BlockNumber to)
{
    char block[BLCKSZ];

    for (BlockNumber b = from; b < to; b++) {
        fill_block(block, b);
        tdb_smgr_extend(rel, MAIN_FORKNUM, b, block);
    }
}

/*
 * Check rel's state after anything: every segment file holds whole
 * blocks, every segment before the last is full, and each block b holds
 * pattern b (except `skip`).  Returns nblocks.
 */
static BlockNumber
check_relation(SMgrRelation rel, const char *datadir, BlockNumber skip)
{
    BlockNumber nblocks = tdb_smgr_nblocks(rel, MAIN_FORKNUM);
    uint32 nsegs = count_segments(datadir);
    char block[BLCKSZ];

    for (uint32 s = 0; s < nsegs; s++) {
        long long size = file_size(seg_path(datadir, s));

        expect_int_eq(size % BLCKSZ, 0);
        if (s + 1 < nsegs)
            expect_int_eq(size, (long long)RELSEG_SIZE * BLCKSZ);
    }
    for (BlockNumber b = 0; b < nblocks; b++) {
        if (b == skip)
            continue;
        tdb_smgr_read(rel, MAIN_FORKNUM, b, block);
        if (!block_matches(block, b))
            tdb_test_fail(__FILE__, __LINE__, "block %u has wrong contents", b);
    }
    return nblocks;
}

TEST_BEGIN(test_segment_size)
{
    expect_u64_eq(tdb_smgr_segment_blocks(), RELSEG_SIZE);
}
TEST_END

TEST_BEGIN(test_create_exists)
{
    const char *dir = make_datadir();
    SMgrRelation rel = tdb_smgr_open(NULL, dir, TEST_REL);
    SMgrRelation other;

    expect_str_eq(tdb_smgr_path(rel), seg_path(dir, 0));
    expect_u64_eq(tdb_smgr_relnumber(rel), TEST_REL);
    expect_false(tdb_smgr_exists(rel, MAIN_FORKNUM));
    tdb_smgr_create(rel, MAIN_FORKNUM, false);
    expect_true(tdb_smgr_exists(rel, MAIN_FORKNUM));
    expect_int_eq(file_size(seg_path(dir, 0)), 0);
    expect_u64_eq(tdb_smgr_nblocks(rel, MAIN_FORKNUM), 0);

    expect_error(tdb_smgr_create(rel, MAIN_FORKNUM, false),
                 ERRCODE_DUPLICATE_FILE, "could not create file");
    expect_str_contains(tdb_test_last_error.message, "File exists");
    tdb_smgr_create(rel, MAIN_FORKNUM, true);

    /* a second handle sees the file and refuses to create it again */
    other = tdb_smgr_open(NULL, dir, TEST_REL);
    expect_true(tdb_smgr_exists(other, MAIN_FORKNUM));
    expect_error(tdb_smgr_create(other, MAIN_FORKNUM, false),
                 ERRCODE_DUPLICATE_FILE, seg_path(dir, 0));
    tdb_smgr_create(other, MAIN_FORKNUM, true);
    tdb_smgr_close(other);
    tdb_smgr_close(rel);
}
TEST_END

TEST_BEGIN(test_roundtrip)
{
    const char *dir = make_datadir();
    SMgrRelation rel = create_rel(dir);
    char block[BLCKSZ];

    extend_blocks(rel, 0, 5);
    expect_u64_eq(tdb_smgr_nblocks(rel, MAIN_FORKNUM), 5);
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber), 5);

    /* overwrite block 2 with another pattern, then put it back */
    fill_block(block, 1000);
    tdb_smgr_write(rel, MAIN_FORKNUM, 2, block);
    memset(block, 0, sizeof(block));
    tdb_smgr_read(rel, MAIN_FORKNUM, 2, block);
    expect_true(block_matches(block, 1000));
    expect_u64_eq(check_relation(rel, dir, 2), 5);
    fill_block(block, 2);
    tdb_smgr_write(rel, MAIN_FORKNUM, 2, block);
    tdb_smgr_immedsync(rel, MAIN_FORKNUM);
    tdb_smgr_close(rel);

    /* a new handle reads the same bytes */
    rel = tdb_smgr_open(NULL, dir, TEST_REL);
    expect_true(tdb_smgr_exists(rel, MAIN_FORKNUM));
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber), 5);
    tdb_smgr_close(rel);
}
TEST_END

TEST_BEGIN(test_many_segments)
{
    const char *dir;
    SMgrRelation rel;
    BlockNumber n = 3 * RELSEG_SIZE + 2;

    if (!SMALL_SEGMENTS)
        test_skip("needs small segments (see storage_smgr_smallseg)");
    dir = make_datadir();
    rel = create_rel(dir);
    extend_blocks(rel, 0, n);
    tdb_smgr_immedsync(rel, MAIN_FORKNUM);
    tdb_smgr_close(rel);

    expect_int_eq(count_segments(dir), 4);
    expect_int_eq(file_size(seg_path(dir, 3)), 2 * BLCKSZ);

    rel = tdb_smgr_open(NULL, dir, TEST_REL);
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber), n);

    /* into the middle of segment 2: segment 3 goes */
    tdb_smgr_truncate(rel, MAIN_FORKNUM, 2 * RELSEG_SIZE + 1);
    expect_int_eq(count_segments(dir), 3);
    expect_int_eq(file_size(seg_path(dir, 2)), BLCKSZ);
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber),
                  2 * RELSEG_SIZE + 1);

    /* exactly to a boundary: the full segment 0 stays, alone */
    tdb_smgr_truncate(rel, MAIN_FORKNUM, RELSEG_SIZE);
    expect_int_eq(count_segments(dir), 1);
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber), RELSEG_SIZE);

    /* growing again recreates the removed segments */
    extend_blocks(rel, RELSEG_SIZE, 2 * RELSEG_SIZE + 3);
    expect_int_eq(count_segments(dir), 3);
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber),
                  2 * RELSEG_SIZE + 3);

    /* to zero: segment 0 stays, empty */
    tdb_smgr_truncate(rel, MAIN_FORKNUM, 0);
    expect_int_eq(count_segments(dir), 1);
    expect_int_eq(file_size(seg_path(dir, 0)), 0);
    expect_u64_eq(tdb_smgr_nblocks(rel, MAIN_FORKNUM), 0);
    extend_blocks(rel, 0, 1);
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber), 1);
    tdb_smgr_close(rel);
}
TEST_END

TEST_BEGIN(test_sparse_segment_boundary)
{
    const char *dir = make_datadir();
    SMgrRelation rel = create_rel(dir);
    char block[BLCKSZ];

    /* a full segment 0 of zeros, without writing 1 GB */
    set_file_size(seg_path(dir, 0), (long long)RELSEG_SIZE * BLCKSZ);
    expect_u64_eq(tdb_smgr_nblocks(rel, MAIN_FORKNUM), RELSEG_SIZE);

    fill_block(block, RELSEG_SIZE);
    tdb_smgr_extend(rel, MAIN_FORKNUM, RELSEG_SIZE, block);
    expect_int_eq(file_size(seg_path(dir, 1)), BLCKSZ);
    expect_u64_eq(tdb_smgr_nblocks(rel, MAIN_FORKNUM), RELSEG_SIZE + 1);

    memset(block, 0xAB, sizeof(block));
    tdb_smgr_read(rel, MAIN_FORKNUM, RELSEG_SIZE, block);
    expect_true(block_matches(block, RELSEG_SIZE));
    tdb_smgr_read(rel, MAIN_FORKNUM, RELSEG_SIZE - 1, block);
    for (int i = 0; i < BLCKSZ; i++)
        if (block[i] != 0) {
            tdb_test_fail(__FILE__, __LINE__, "byte %d is not zero", i);
            break;
        }

    tdb_smgr_truncate(rel, MAIN_FORKNUM, RELSEG_SIZE);
    expect_false(file_exists(seg_path(dir, 1)));
    expect_u64_eq(tdb_smgr_nblocks(rel, MAIN_FORKNUM), RELSEG_SIZE);
    tdb_smgr_unlink(rel);
    tdb_smgr_close(rel);
}
TEST_END

TEST_BEGIN(test_read_errors)
{
    const char *dir = make_datadir();
    SMgrRelation rel = create_rel(dir);
    SMgrRelation missing = tdb_smgr_open(NULL, dir, TEST_REL + 1);
    char block[BLCKSZ];
    char expected[256];

    extend_blocks(rel, 0, 3);

    /* the block after the last */
    snprintf(expected, sizeof(expected),
             "could not read block 3 in file \"%s\": read only 0 of 8192 "
             "bytes",
             seg_path(dir, 0));
    expect_error(tdb_smgr_read(rel, MAIN_FORKNUM, 3, block),
                 ERRCODE_DATA_CORRUPTED, expected);

    /* a block in a segment that does not exist */
    snprintf(expected, sizeof(expected),
             "could not read block %u in file \"%s\": read only 0 of 8192 "
             "bytes",
             2 * RELSEG_SIZE, seg_path(dir, 2));
    expect_error(tdb_smgr_read(rel, MAIN_FORKNUM, 2 * RELSEG_SIZE, block),
                 ERRCODE_DATA_CORRUPTED, expected);

    /* cut the file in the middle of block 2 (a torn extend, a bad copy) */
    set_file_size(seg_path(dir, 0), 2 * BLCKSZ + 1000);
    expect_u64_eq(tdb_smgr_nblocks(rel, MAIN_FORKNUM), 2);
    snprintf(expected, sizeof(expected),
             "could not read block 2 in file \"%s\": read only 1000 of 8192 "
             "bytes",
             seg_path(dir, 0));
    expect_error(tdb_smgr_read(rel, MAIN_FORKNUM, 2, block),
                 ERRCODE_DATA_CORRUPTED, expected);
    tdb_smgr_read(rel, MAIN_FORKNUM, 1, block); /* earlier blocks are fine */
    expect_true(block_matches(block, 1));
    /* extending overwrites the partial block: whole blocks again */
    extend_blocks(rel, 2, 3);
    expect_int_eq(file_size(seg_path(dir, 0)), 3 * BLCKSZ);
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber), 3);

    /* a relation that does not exist */
    expect_error(tdb_smgr_nblocks(missing, MAIN_FORKNUM),
                 ERRCODE_UNDEFINED_FILE, "could not open file");
    expect_str_contains(tdb_test_last_error.message, "No such file");
    expect_error(tdb_smgr_read(missing, MAIN_FORKNUM, 0, block),
                 ERRCODE_UNDEFINED_FILE, "(target block 0)");

    /* a segment longer than a segment (sparse, so cheap in any build) */
    set_file_size(seg_path(dir, 0), ((long long)RELSEG_SIZE + 1) * BLCKSZ);
    expect_error(tdb_smgr_nblocks(rel, MAIN_FORKNUM), ERRCODE_DATA_CORRUPTED,
                 "is longer than a segment");
    tdb_smgr_close(missing);
    tdb_smgr_close(rel);
}
TEST_END

TEST_BEGIN(test_unlink)
{
    const char *dir = make_datadir();
    SMgrRelation rel = create_rel(dir);
    BlockNumber n = SMALL_SEGMENTS ? 2 * RELSEG_SIZE + 1 : 3;

    extend_blocks(rel, 0, n);
    expect_int_eq(count_segments(dir), SMALL_SEGMENTS ? 3 : 1);
    tdb_smgr_unlink(rel);
    expect_int_eq(count_segments(dir), 0);
    expect_false(tdb_smgr_exists(rel, MAIN_FORKNUM));
    tdb_smgr_unlink(rel); /* nothing to remove: not an error */

    /* the handle forgot its descriptors: a new relation starts empty */
    tdb_smgr_create(rel, MAIN_FORKNUM, false);
    expect_u64_eq(tdb_smgr_nblocks(rel, MAIN_FORKNUM), 0);
    extend_blocks(rel, 0, 2);
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber), 2);
    tdb_smgr_close(rel);
}
TEST_END

/* Path of segment segno of fork suffix sfx of TEST_REL. */
static char *
fork_seg_path(const char *datadir, const char *sfx, uint32 segno)
{
    char name[64];

    if (segno == 0)
        snprintf(name, sizeof(name), "base/%u%s", TEST_REL, sfx);
    else
        snprintf(name, sizeof(name), "base/%u%s.%u", TEST_REL, sfx, segno);
    return test_path(datadir, name);
}

TEST_BEGIN(test_forks)
{
    static const char *const sfx[NUM_FORKS] = {"", "_fsm", "_vm", "_init"};
    const char *dir = make_datadir();
    SMgrRelation rel = create_rel(dir);
    BlockNumber n = SMALL_SEGMENTS ? RELSEG_SIZE + 1 : 2;
    char block[BLCKSZ];

    _Static_assert(MAIN_FORKNUM == 0 && FSM_FORKNUM == 1 &&
                       VISIBILITYMAP_FORKNUM == 2 && INIT_FORKNUM == 3,
                   "PostgreSQL's fork numbers");
    for (int f = 0; f <= MAX_FORKNUM; f++)
        expect_str_eq(tdb_smgr_fork_path(rel, (ForkNumber)f),
                      fork_seg_path(dir, sfx[f], 0));
    expect_str_eq(tdb_smgr_path(rel), tdb_smgr_fork_path(rel, MAIN_FORKNUM));

    /* only the main fork exists; the others are created on demand */
    for (int f = 1; f <= MAX_FORKNUM; f++)
        expect_false(tdb_smgr_exists(rel, (ForkNumber)f));
    expect_error(tdb_smgr_nblocks(rel, VISIBILITYMAP_FORKNUM),
                 ERRCODE_UNDEFINED_FILE, fork_seg_path(dir, "_vm", 0));
    tdb_smgr_create(rel, VISIBILITYMAP_FORKNUM, false);
    tdb_smgr_create(rel, FSM_FORKNUM, false);
    expect_true(tdb_smgr_exists(rel, VISIBILITYMAP_FORKNUM));
    expect_true(file_exists(fork_seg_path(dir, "_vm", 0)));
    expect_true(file_exists(fork_seg_path(dir, "_fsm", 0)));
    expect_false(file_exists(fork_seg_path(dir, "_init", 0)));

    /* independent contents and lengths; segments per fork */
    extend_blocks(rel, 0, 3);
    for (BlockNumber b = 0; b < n; b++) {
        fill_block(block, 500 + b);
        tdb_smgr_extend(rel, VISIBILITYMAP_FORKNUM, b, block);
    }
    expect_u64_eq(tdb_smgr_nblocks(rel, MAIN_FORKNUM), 3);
    expect_u64_eq(tdb_smgr_nblocks(rel, VISIBILITYMAP_FORKNUM), n);
    expect_u64_eq(tdb_smgr_nblocks(rel, FSM_FORKNUM), 0);
    expect_true(file_exists(fork_seg_path(dir, "_vm", 1)) == SMALL_SEGMENTS);
    tdb_smgr_read(rel, VISIBILITYMAP_FORKNUM, n - 1, block);
    expect_true(block_matches(block, 500 + n - 1));
    tdb_smgr_read(rel, MAIN_FORKNUM, 1, block);
    expect_true(block_matches(block, 1));
    tdb_smgr_immedsync(rel, VISIBILITYMAP_FORKNUM);

    /* truncating one fork leaves the others alone */
    tdb_smgr_truncate(rel, VISIBILITYMAP_FORKNUM, 1);
    expect_u64_eq(tdb_smgr_nblocks(rel, VISIBILITYMAP_FORKNUM), 1);
    expect_false(file_exists(fork_seg_path(dir, "_vm", 1)));
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber), 3);

    /* unlink_fork: one fork; unlink: all of them, segments included */
    tdb_smgr_unlink_fork(rel, FSM_FORKNUM);
    expect_false(file_exists(fork_seg_path(dir, "_fsm", 0)));
    expect_true(tdb_smgr_exists(rel, VISIBILITYMAP_FORKNUM));
    for (BlockNumber b = 1; b < n; b++) {
        fill_block(block, 500 + b);
        tdb_smgr_extend(rel, VISIBILITYMAP_FORKNUM, b, block);
    }
    tdb_smgr_create(rel, INIT_FORKNUM, false);
    tdb_smgr_unlink(rel);
    for (int f = 0; f <= MAX_FORKNUM; f++) {
        expect_false(tdb_smgr_exists(rel, (ForkNumber)f));
        expect_false(file_exists(fork_seg_path(dir, sfx[f], 0)));
        expect_false(file_exists(fork_seg_path(dir, sfx[f], 1)));
    }

    expect_error(tdb_smgr_exists(rel, (ForkNumber)(MAX_FORKNUM + 1)),
                 ERRCODE_INTERNAL_ERROR, "invalid fork number 4");
    expect_error(tdb_smgr_nblocks(rel, InvalidForkNumber),
                 ERRCODE_INTERNAL_ERROR, "invalid fork number -1");
    tdb_smgr_close(rel);
}
TEST_END

TEST_BEGIN(test_misuse)
{
    const char *dir = make_datadir();
    SMgrRelation rel = create_rel(dir);
    char block[BLCKSZ];

    extend_blocks(rel, 0, 2);
    expect_error(tdb_smgr_truncate(rel, MAIN_FORKNUM, 3),
                 ERRCODE_INTERNAL_ERROR, "to 3 blocks: it's only 2 blocks now");
    fill_block(block, 0);
    expect_error(tdb_smgr_extend(rel, MAIN_FORKNUM, InvalidBlockNumber, block),
                 ERRCODE_PROGRAM_LIMIT_EXCEEDED, "cannot extend file");
    if (config_debug)
        expect_error(tdb_smgr_extend(rel, MAIN_FORKNUM, 3, block),
                     ERRCODE_INTERNAL_ERROR, "extending with block 3");
    /* in every build: a write never makes a file longer (a gap of zeros) */
    expect_error(tdb_smgr_write(rel, MAIN_FORKNUM, 2, block),
                 ERRCODE_DATA_CORRUPTED, "could not write block 2 in file");
    expect_str_contains(tdb_test_last_error.message, "it's only 2 blocks now");
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber), 2);
    tdb_smgr_close(rel);
}
TEST_END

/* Open file descriptors of this process. */
static int
count_open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;

    if (d == NULL)
        return -1;
    while (readdir(d) != NULL)
        n++;
    closedir(d);
    return n;
}

TEST_BEGIN(test_descriptors_released)
{
    const char *dir = make_datadir();
    int before = count_open_fds();
    BlockNumber n = SMALL_SEGMENTS ? 2 * RELSEG_SIZE + 1 : 2;
    MemoryContext cxt;
    SMgrRelation rel;

    if (before < 0)
        test_skip("/proc/self/fd is not available");
    rel = create_rel(dir);
    extend_blocks(rel, 0, n);
    expect_true(count_open_fds() > before);
    tdb_smgr_close(rel);
    expect_int_eq(count_open_fds(), before);

    /* a handle abandoned with its context (as an ERROR would) */
    cxt = tdb_aset_create(tdb_current_mcxt, "test", ALLOCSET_SMALL_SIZES);
    rel = tdb_smgr_open(cxt, dir, TEST_REL);
    expect_u64_eq(tdb_smgr_nblocks(rel, MAIN_FORKNUM), n);
    expect_true(count_open_fds() > before);
    tdb_mcxt_reset(cxt);
    expect_int_eq(count_open_fds(), before);
    tdb_mcxt_delete(cxt);
}
TEST_END

/* ----------------------------------------------------------------------
 * Injected faults (TDB_DEBUG builds)
 * ---------------------------------------------------------------------- */

/* A fault to inject: op fails with err; short_first: a short transfer
 * comes first, then the failure on the retry. */
typedef struct Fault {
    FdOp op;
    int err;
    bool short_first;
    int sqlstate;
} Fault;

/* Arm f so that it strikes at the nth call of its operation. */
static void
arm_fault(const Fault *f, uint32 n)
{
    if (f->short_first) {
        expect_true(tdb_fd_inject(f->op, n, FD_FAULT_SHORT));
        expect_true(tdb_fd_inject(f->op, n + 1, f->err));
    } else
        expect_true(tdb_fd_inject(f->op, n, f->err));
}

static bool
try_extend(SMgrRelation rel, BlockNumber from, BlockNumber to, ErrorData *error)
{
    RETURN_CAUGHT(extend_blocks(rel, from, to), error);
}

static bool
try_immedsync(SMgrRelation rel, ErrorData *error)
{
    RETURN_CAUGHT(tdb_smgr_immedsync(rel, MAIN_FORKNUM), error);
}

TEST_BEGIN(test_extend_fault_loop)
{
    static const Fault faults[] = {
        {FD_OP_WRITE, ENOSPC, false, ERRCODE_DISK_FULL},
        {FD_OP_WRITE, ENOSPC, true, ERRCODE_DISK_FULL},
        {FD_OP_WRITE, EIO, false, ERRCODE_IO_ERROR},
        {FD_OP_OPEN, EMFILE, false, ERRCODE_INSUFFICIENT_RESOURCES},
        {FD_OP_SIZE, EIO, false, ERRCODE_IO_ERROR},
    };
    const char *dir;
    /* start just before a boundary and cross one (or more) */
    BlockNumber from = SMALL_SEGMENTS ? RELSEG_SIZE - 2 : 2;
    BlockNumber to = SMALL_SEGMENTS ? 2 * RELSEG_SIZE + 1 : 6;
    SMgrRelation setup;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dir = make_datadir();
    setup = create_rel(dir);
    extend_blocks(setup, 0, from);
    tdb_smgr_close(setup);

    for (Size i = 0; i < lengthof(faults); i++) {
        const Fault *f = &faults[i];
        uint32 nfailures = 0;

        for (uint32 n = 1;; n++) {
            SMgrRelation rel = tdb_smgr_open(NULL, dir, TEST_REL);
            ErrorData e;
            BlockNumber nblocks;

            arm_fault(f, n);
            if (!try_extend(rel, from, to, &e)) {
                /* the workload is done before the nth call: stop */
                expect_true(tdb_fd_inject_pending() > 0);
                tdb_fd_inject_clear();
                expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber), to);
                tdb_smgr_truncate(rel, MAIN_FORKNUM, from);
                tdb_smgr_close(rel);
                break;
            }
            tdb_fd_inject_clear();
            nfailures++;
            if (e.sqlerrcode != f->sqlstate)
                tdb_test_fail(__FILE__, __LINE__,
                              "%s fault %zu at call %u: wrong SQLSTATE, "
                              "message \"%s\"",
                              tdb_fd_op_name(f->op), i, n, e.message);
            nblocks = check_relation(rel, dir, InvalidBlockNumber);
            expect_u64_ge(nblocks, from);
            expect_u64_lt(nblocks, to);
            tdb_smgr_truncate(rel, MAIN_FORKNUM, from);
            tdb_smgr_close(rel);
        }
        expect_u64_gt(nfailures, 0);
    }
}
TEST_END

TEST_BEGIN(test_extend_enospc_message)
{
    const char *dir;
    SMgrRelation rel;
    char block[BLCKSZ];
    char expected[256];

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dir = make_datadir();
    rel = create_rel(dir);
    extend_blocks(rel, 0, 1);
    fill_block(block, 1);
    expect_true(tdb_fd_inject(FD_OP_WRITE, 1, ENOSPC));
    snprintf(expected, sizeof(expected),
             "could not extend file \"%s\": No space left on device",
             seg_path(dir, 0));
    expect_error(tdb_smgr_extend(rel, MAIN_FORKNUM, 1, block),
                 ERRCODE_DISK_FULL, expected);
    expect_str_eq(tdb_test_last_error.hint, "Check free disk space.");
    expect_int_eq(file_size(seg_path(dir, 0)), BLCKSZ);
    tdb_smgr_close(rel);
}
TEST_END

TEST_BEGIN(test_extend_truncate_back_fails)
{
    const char *dir;
    SMgrRelation rel;
    NoticeCapture cap;
    char block[BLCKSZ];

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dir = make_datadir();
    rel = create_rel(dir);
    extend_blocks(rel, 0, 2);

    /* half a block reaches the disk, then it is full, then the cleanup
     * truncate fails too */
    fill_block(block, 2);
    expect_true(tdb_fd_inject(FD_OP_WRITE, 1, FD_FAULT_SHORT));
    expect_true(tdb_fd_inject(FD_OP_WRITE, 2, ENOSPC));
    expect_true(tdb_fd_inject(FD_OP_TRUNCATE, 1, EIO));
    notice_capture_begin(&cap);
    expect_error(tdb_smgr_extend(rel, MAIN_FORKNUM, 2, block),
                 ERRCODE_DISK_FULL,
                 "No space left on device"); /* the write's errno, not EIO */
    notice_capture_end(&cap);
    expect_int_eq(cap.nwarnings, 1);
    expect_str_contains(cap.last, "could not truncate file");
    expect_int_eq(file_size(seg_path(dir, 0)), 2 * BLCKSZ + BLCKSZ / 2);

    /* the partial block is not counted, and the next extend replaces it */
    expect_u64_eq(tdb_smgr_nblocks(rel, MAIN_FORKNUM), 2);
    extend_blocks(rel, 2, 3);
    expect_int_eq(file_size(seg_path(dir, 0)), 3 * BLCKSZ);
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber), 3);
    tdb_smgr_close(rel);
}
TEST_END

TEST_BEGIN(test_write_faults)
{
    static const Fault faults[] = {
        {FD_OP_WRITE, ENOSPC, false, ERRCODE_DISK_FULL},
        {FD_OP_WRITE, EIO, false, ERRCODE_IO_ERROR},
        {FD_OP_WRITE, ENOSPC, true, ERRCODE_DISK_FULL},
    };
    const char *dir;
    SMgrRelation rel;
    char block[BLCKSZ];

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dir = make_datadir();
    rel = create_rel(dir);
    extend_blocks(rel, 0, 3);
    for (Size i = 0; i < lengthof(faults); i++) {
        fill_block(block, 77);
        arm_fault(&faults[i], 1);
        expect_error(tdb_smgr_write(rel, MAIN_FORKNUM, 1, block),
                     faults[i].sqlstate, "could not write block 1 in file");
        tdb_fd_inject_clear();
        /* the other blocks are intact; block 1 is old, or torn by a
         * short write (first half new) */
        expect_u64_eq(check_relation(rel, dir, 1), 3);
        tdb_smgr_read(rel, MAIN_FORKNUM, 1, block);
        expect_true(faults[i].short_first ? !block_matches(block, 1)
                                          : block_matches(block, 1));
        fill_block(block, 1); /* repair */
        tdb_smgr_write(rel, MAIN_FORKNUM, 1, block);
    }
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber), 3);
    tdb_smgr_close(rel);
}
TEST_END

TEST_BEGIN(test_read_faults)
{
    const char *dir;
    SMgrRelation rel;
    char block[BLCKSZ];

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dir = make_datadir();
    rel = create_rel(dir);
    extend_blocks(rel, 0, 2);
    expect_true(tdb_fd_inject(FD_OP_READ, 1, EIO));
    expect_error(tdb_smgr_read(rel, MAIN_FORKNUM, 1, block), ERRCODE_IO_ERROR,
                 "could not read block 1 in file");
    expect_str_contains(tdb_test_last_error.message, "Input/output error");
    expect_true(tdb_fd_inject(FD_OP_READ, 1, FD_FAULT_SHORT));
    tdb_smgr_read(rel, MAIN_FORKNUM, 1, block);
    expect_true(block_matches(block, 1));
    expect_int_eq(tdb_fd_inject_pending(), 0);
    tdb_smgr_close(rel);
}
TEST_END

TEST_BEGIN(test_immedsync_faults)
{
    const char *dir;
    SMgrRelation rel;
    uint32 nsegs, nfailures = 0;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dir = make_datadir();
    rel = create_rel(dir);
    extend_blocks(rel, 0, SMALL_SEGMENTS ? RELSEG_SIZE + 1 : 1);
    nsegs = count_segments(dir);
    for (uint32 n = 1;; n++) {
        ErrorData e;

        expect_true(tdb_fd_inject(FD_OP_FSYNC, n, EIO));
        if (!try_immedsync(rel, &e))
            break;
        nfailures++;
        expect_int_eq(e.sqlerrcode, ERRCODE_IO_ERROR);
        expect_str_contains(e.message, "could not fsync file");
    }
    tdb_fd_inject_clear();
    expect_u64_eq(nfailures, nsegs + 1); /* every segment, then base/ */
    tdb_smgr_close(rel);
}
TEST_END

TEST_BEGIN(test_removal_faults)
{
    const char *dir;
    SMgrRelation rel;
    uint32 nsegs;
    BlockNumber n = SMALL_SEGMENTS ? 3 * RELSEG_SIZE + 1 : 1;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dir = make_datadir();
    rel = create_rel(dir);
    extend_blocks(rel, 0, n);
    nsegs = count_segments(dir);

    /* each failed removal leaves a shorter gapless relation, readable:
     * the second unlink fails, after the last segment went */
    for (uint32 left = nsegs; left > 1; left--) {
        expect_true(tdb_fd_inject(FD_OP_UNLINK, 2, EIO));
        expect_error(tdb_smgr_unlink(rel), ERRCODE_IO_ERROR,
                     "could not remove file");
        tdb_fd_inject_clear();
        expect_int_eq(count_segments(dir), left - 1);
        (void)check_relation(rel, dir, InvalidBlockNumber);
    }
    tdb_smgr_unlink(rel);
    expect_int_eq(count_segments(dir), 0);

    /* a failed truncate: the end segment fails to shrink, later
     * segments are already gone */
    tdb_smgr_create(rel, MAIN_FORKNUM, false);
    extend_blocks(rel, 0, n);
    expect_true(tdb_fd_inject(FD_OP_TRUNCATE, 1, EIO));
    expect_error(tdb_smgr_truncate(rel, MAIN_FORKNUM, 1), ERRCODE_IO_ERROR,
                 "could not truncate file");
    tdb_fd_inject_clear();
    expect_int_eq(count_segments(dir), 1);
    tdb_smgr_truncate(rel, MAIN_FORKNUM, 1);
    expect_u64_eq(check_relation(rel, dir, InvalidBlockNumber), 1);
    tdb_smgr_close(rel);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, SMALL_SEGMENTS ? "storage_smgr_smallseg" : "storage_smgr",
        TEST_CASE(test_segment_size), TEST_CASE(test_create_exists),
        TEST_CASE(test_roundtrip), TEST_CASE(test_many_segments),
        TEST_CASE(test_sparse_segment_boundary), TEST_CASE(test_read_errors),
        TEST_CASE(test_unlink), TEST_CASE(test_misuse),
        TEST_CASE(test_descriptors_released), TEST_CASE(test_extend_fault_loop),
        TEST_CASE(test_extend_enospc_message),
        TEST_CASE(test_extend_truncate_back_fails),
        TEST_CASE(test_write_faults), TEST_CASE(test_read_faults),
        TEST_CASE(test_immedsync_faults), TEST_CASE(test_removal_faults),
        TEST_CASE(test_forks));
}
