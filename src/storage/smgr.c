/*
 * smgr.c -- relation files as RELSEG_SIZE-block segments (PostgreSQL's
 * md.c layout), through an SMgrRelation handle that caches descriptors.
 *
 * Layout (see smgr.h): segment s of fork F of relation N is base/N<F>
 * (s = 0) or base/N<F>.s, where <F> is "" for the main fork and "_fsm",
 * "_vm", "_init" for the others; segment s holds blocks s*RELSEG_SIZE
 * onwards, and every segment before the last is exactly RELSEG_SIZE
 * blocks long.  Finding a fork's length therefore walks its segments
 * from 0 until one is short or missing (fork_nblocks); that walk also
 * opens, and caches, every segment.  Each fork has its own descriptor
 * cache (SMgrFork); the invariants below hold per fork.
 *
 * Invariants kept by this file:
 *   1. A segment other than the last is full.  extend() only creates
 *      segment s at its first block, i.e. when segment s-1 is full;
 *      truncate() and unlink() remove segments from the last downwards,
 *      so a crash part-way leaves a shorter but gapless relation.
 *   2. No file ends in a partial block after a failed extend(): the
 *      segment is truncated back to the block boundary before the error
 *      is raised.  (If even that fails, nblocks still ignores the partial
 *      block and the next extend overwrites it.)
 *   3. seg_fds[s] is -1 or an open descriptor of segment s; descriptors
 *      are closed when a segment is removed and by the context reset
 *      callback (close_segments), which tdb_smgr_close() triggers.
 *   4. Only extend() makes a file longer.  write() overwrites a block
 *      that exists and refuses one past its segment's end, so a file
 *      truncated behind the database's back stays short -- the evidence
 *      the layers above detect it by (the committed length).
 *
 *   5. unlink() removes the other forks before the main fork, so a crash
 *      part-way never leaves a fork without its relation.
 *
 * Entry points: tdb_smgr_open/close, exists, create, nblocks, read, write,
 * extend, truncate, unlink, unlink_fork, immedsync.
 */
#include "common/base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#include "common/elog.h"
#include "storage/fd.h"
#include "storage/smgr.h"

/* Each fork's segment array starts with room for this many segments. */
#define INITIAL_SEG_FDS 4

/* One fork's files. */
typedef struct SMgrFork {
    char *path;      /* "<datadir>/base/<relnumber><suffix>": segment 0 */
    int *seg_fds;    /* seg_fds[s]: descriptor of segment s or -1 */
    uint32 nseg_fds; /* entries in seg_fds */
} SMgrFork;

struct SMgrRelationData {
    MemoryContext cxt;       /* this handle's own context (holds it all) */
    RelFileNumber relnumber; /* the relation's file number */
    char *basedir;           /* "<datadir>/base" */
    char *seg_path;          /* scratch for segment_path() */
    Size seg_path_size;      /* bytes allocated for seg_path */
    SMgrFork forks[NUM_FORKS];            /* indexed by ForkNumber */
    MemoryContextCallback close_callback; /* runs close_segments() */
};

/* ----------------------------------------------------------------------
 * Segments
 * ---------------------------------------------------------------------- */

static inline uint32
block_segno(BlockNumber blkno)
{
    return blkno / RELSEG_SIZE;
}

/* Byte offset of block blkno inside its segment. */
static inline off_t
block_offset(BlockNumber blkno)
{
    return (off_t)(blkno % RELSEG_SIZE) * BLCKSZ;
}

/* The fork's state; an invalid fork number is a caller's bug. */
static inline SMgrFork *
fork_of(SMgrRelation rel, ForkNumber fork)
{
    if (unlikely((unsigned)fork > (unsigned)MAX_FORKNUM))
        elog(ERROR, "invalid fork number %d", (int)fork);
    return &rel->forks[fork];
}

/*
 * The path of segment segno of fork f.  Borrowed: it points into the
 * handle and is overwritten by the next call (segment 0's is stable).
 */
static const char *
segment_path(SMgrRelation rel, SMgrFork *f, uint32 segno)
{
    if (segno == 0)
        return f->path;
    snprintf(rel->seg_path, rel->seg_path_size, "%s.%u", f->path, segno);
    return rel->seg_path;
}

/* Make f->seg_fds long enough to hold segment segno. */
static void
seg_fds_reserve(SMgrFork *f, uint32 segno)
{
    uint32 old_n = f->nseg_fds;
    uint32 new_n = old_n;

    if (segno < old_n)
        return;
    while (new_n <= segno)
        new_n *= 2;
    f->seg_fds = tdb_repalloc_array(f->seg_fds, int, new_n);
    for (uint32 s = old_n; s < new_n; s++)
        f->seg_fds[s] = -1;
    f->nseg_fds = new_n;
}

/*
 * The descriptor of segment segno of fork f, opened (read-write) and
 * cached on first use.  create: create the file if it does not exist.
 * missing_ok: return -1 (errno ENOENT) if it does not exist; any other
 * failure raises, naming target when it is a valid block number
 * (PostgreSQL's wording).
 */
static int
segment_get(SMgrRelation rel, SMgrFork *f, uint32 segno, bool create,
            bool missing_ok, BlockNumber target)
{
    int fd;

    seg_fds_reserve(f, segno);
    if (f->seg_fds[segno] >= 0)
        return f->seg_fds[segno];

    fd = tdb_fd_open(segment_path(rel, f, segno),
                     O_RDWR | (create ? O_CREAT : 0), TDB_FILE_MODE);
    if (fd < 0) {
        int save_errno = errno;

        if (save_errno == ENOENT && missing_ok)
            return -1;
        if (target == InvalidBlockNumber)
            ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                    errmsg("could not open file \"%s\": %m",
                           segment_path(rel, f, segno)));
        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not open file \"%s\" (target block %u): %m",
                       segment_path(rel, f, segno), target));
    }
    f->seg_fds[segno] = fd;
    return fd;
}

/* Close segment segno's cached descriptor, if any. */
static void
segment_forget(SMgrFork *f, uint32 segno)
{
    if (segno < f->nseg_fds && f->seg_fds[segno] >= 0) {
        /*
         * A close error is ignored: the file is being removed, or the
         * handle dropped; what was written is made durable (or reported
         * lost) by fsync, never by close.
         */
        (void)tdb_fd_close(f->seg_fds[segno]);
        f->seg_fds[segno] = -1;
    }
}

/* Close every cached descriptor of fork f. */
static void
close_fork(SMgrFork *f)
{
    for (uint32 s = 0; s < f->nseg_fds; s++)
        segment_forget(f, s);
}

/* Memory context reset callback: close every cached descriptor. */
static void
close_segments(void *arg)
{
    SMgrRelation rel = arg;

    for (int fork = 0; fork <= MAX_FORKNUM; fork++)
        close_fork(&rel->forks[fork]);
}

/* Whole blocks in the open segment segno; raises if it is too long. */
static BlockNumber
segment_nblocks(SMgrRelation rel, SMgrFork *f, uint32 segno, int fd)
{
    off_t size;

    if (tdb_fd_size(fd, &size) != 0) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not seek to end of file \"%s\": %m",
                       segment_path(rel, f, segno)));
    }
    if (size > (off_t)RELSEG_SIZE * BLCKSZ)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("file \"%s\" is longer than a segment",
                       segment_path(rel, f, segno)),
                errdetail("It is %lld bytes long; a segment holds at most "
                          "%u blocks of %d bytes.",
                          (long long)size, RELSEG_SIZE, BLCKSZ));
    return (BlockNumber)(size / BLCKSZ);
}

/*
 * The fork's length in blocks, walking (and opening) the segments.
 * *last_segno receives the number of the last existing segment.  Raises
 * if segment 0 is missing.
 */
static BlockNumber
fork_nblocks(SMgrRelation rel, SMgrFork *f, uint32 *last_segno)
{
    uint32 segno = 0;
    int fd = segment_get(rel, f, 0, false, false, InvalidBlockNumber);
    uint64 total;

    for (;;) {
        BlockNumber n = segment_nblocks(rel, f, segno, fd);

        total = (uint64)segno * RELSEG_SIZE + n;
        if (total > MaxBlockNumber)
            ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("file \"%s\" extends beyond block %u",
                           segment_path(rel, f, segno), MaxBlockNumber));
        if (n < RELSEG_SIZE)
            break;
        fd = segment_get(rel, f, segno + 1, false, true, InvalidBlockNumber);
        if (fd < 0)
            break; /* the last segment is exactly full */
        segno++;
    }
    *last_segno = segno;
    return (BlockNumber)total;
}

/* Remove segment segno's file; a missing file is not an error. */
static void
segment_remove(SMgrRelation rel, SMgrFork *f, uint32 segno)
{
    segment_forget(f, segno);
    if (tdb_fd_unlink(segment_path(rel, f, segno)) != 0 && errno != ENOENT) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not remove file \"%s\": %m",
                       segment_path(rel, f, segno)));
    }
}

/*
 * Debug builds check the callers' block bookkeeping: an extend must
 * append exactly at the end.  (A write's block is checked in every
 * build: check_block_exists.)
 */
static void
check_append_position(SMgrRelation rel, SMgrFork *f, BlockNumber blkno)
{
    BlockNumber nblocks;
    uint32 last_segno;

    if (!config_debug)
        return;
    nblocks = fork_nblocks(rel, f, &last_segno);
    if (blkno != nblocks)
        elog(ERROR, "extending with block %u of file \"%s\" of %u blocks",
             blkno, f->path, nblocks);
}

/*
 * Raise unless block blkno lies wholly inside its open segment fd.  A
 * write past the end would extend the file, leaving all-zero blocks --
 * valid empty pages -- in the gap: a file truncated behind the
 * database's back would then read without error, its lost rows silently
 * gone (invariant 4).  One fstat per write; the write itself costs more.
 */
static void
check_block_exists(SMgrRelation rel, SMgrFork *f, BlockNumber blkno, int fd)
{
    uint32 segno = block_segno(blkno);
    BlockNumber seg_blocks = segment_nblocks(rel, f, segno, fd);

    if (blkno % RELSEG_SIZE >= seg_blocks)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("could not write block %u in file \"%s\": it's only "
                       "%u blocks now",
                       blkno, segment_path(rel, f, segno),
                       segno * RELSEG_SIZE + seg_blocks));
}

/* Remove every segment file of fork f that exists (last first). */
static void
unlink_fork(SMgrRelation rel, SMgrFork *f)
{
    uint32 last_segno = 0;

    if (segment_get(rel, f, 0, false, true, InvalidBlockNumber) < 0)
        return;
    /* Every existing segment, not just the ones nblocks would count. */
    while (segment_get(rel, f, last_segno + 1, false, true,
                       InvalidBlockNumber) >= 0)
        last_segno++;
    for (uint32 s = last_segno + 1; s-- > 0;)
        segment_remove(rel, f, s);
}

/* ----------------------------------------------------------------------
 * Entry points
 * ---------------------------------------------------------------------- */

SMgrRelation
tdb_smgr_open(MemoryContext parent, const char *datadir,
              RelFileNumber relnumber)
{
    MemoryContext cxt =
        tdb_aset_create(parent != NULL ? parent : tdb_current_mcxt,
                        "SMgrRelation", ALLOCSET_SMALL_SIZES);
    SMgrRelation rel = tdb_mcxt_alloc_zero(cxt, sizeof(*rel));
    Size path_size = strlen(datadir) + sizeof("/base/4294967295_init");

    rel->cxt = cxt;
    rel->relnumber = relnumber;
    rel->basedir = tdb_mcxt_alloc(cxt, path_size);
    snprintf(rel->basedir, path_size, "%s/base", datadir);
    for (int fork = 0; fork <= MAX_FORKNUM; fork++) {
        SMgrFork *f = &rel->forks[fork];

        f->path = tdb_mcxt_alloc(cxt, path_size);
        snprintf(f->path, path_size, "%s/%u%s", rel->basedir, relnumber,
                 tdb_fork_suffix((ForkNumber)fork));
        f->nseg_fds = INITIAL_SEG_FDS;
        f->seg_fds = tdb_mcxt_alloc(cxt, INITIAL_SEG_FDS * sizeof(int));
        for (uint32 s = 0; s < INITIAL_SEG_FDS; s++)
            f->seg_fds[s] = -1;
    }
    rel->seg_path_size = path_size + sizeof(".4294967295");
    rel->seg_path = tdb_mcxt_alloc(cxt, rel->seg_path_size);
    tdb_mcxt_set_ident(cxt, rel->forks[MAIN_FORKNUM].path);

    rel->close_callback.func = close_segments;
    rel->close_callback.arg = rel;
    tdb_mcxt_register_reset_callback(cxt, &rel->close_callback);
    return rel;
}

void
tdb_smgr_close(SMgrRelation rel)
{
    tdb_mcxt_delete(rel->cxt); /* runs close_segments() */
}

RelFileNumber
tdb_smgr_relnumber(SMgrRelation rel)
{
    return rel->relnumber;
}

const char *
tdb_smgr_path(SMgrRelation rel)
{
    return rel->forks[MAIN_FORKNUM].path;
}

const char *
tdb_smgr_fork_path(SMgrRelation rel, ForkNumber fork)
{
    return fork_of(rel, fork)->path;
}

BlockNumber
tdb_smgr_segment_blocks(void)
{
    return RELSEG_SIZE;
}

bool
tdb_smgr_exists(SMgrRelation rel, ForkNumber fork)
{
    SMgrFork *f = fork_of(rel, fork);

    /* forget cached descriptors: another handle may have unlinked them */
    close_fork(f);
    return segment_get(rel, f, 0, false, true, InvalidBlockNumber) >= 0;
}

void
tdb_smgr_create(SMgrRelation rel, ForkNumber fork, bool allow_existing)
{
    SMgrFork *f = fork_of(rel, fork);
    int fd;

    close_fork(f); /* none may outlive a file that was removed */
    fd = tdb_fd_open(f->path, O_RDWR | O_CREAT | O_EXCL, TDB_FILE_MODE);
    if (fd < 0) {
        int save_errno = errno;

        if (save_errno == EEXIST && allow_existing)
            return;
        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not create file \"%s\": %m", f->path));
    }
    f->seg_fds[0] = fd;
}

BlockNumber
tdb_smgr_nblocks(SMgrRelation rel, ForkNumber fork)
{
    uint32 last_segno;

    return fork_nblocks(rel, fork_of(rel, fork), &last_segno);
}

void
tdb_smgr_read(SMgrRelation rel, ForkNumber fork, BlockNumber blkno,
              void *buffer)
{
    SMgrFork *f = fork_of(rel, fork);
    uint32 segno = block_segno(blkno);
    int fd = segment_get(rel, f, segno, false, segno > 0, blkno);
    ssize_t nread = 0; /* a missing later segment: past the end */

    if (fd >= 0)
        nread = tdb_fd_pread_full(fd, buffer, BLCKSZ, block_offset(blkno));
    if (nread < 0) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not read block %u in file \"%s\": %m", blkno,
                       segment_path(rel, f, segno)));
    }
    if (nread != BLCKSZ)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("could not read block %u in file \"%s\": read only %d "
                       "of %d bytes",
                       blkno, segment_path(rel, f, segno), (int)nread, BLCKSZ));
}

int
tdb_smgr_readv(SMgrRelation rel, ForkNumber fork, BlockNumber blkno,
               void *const *buffers, int nblocks)
{
    SMgrFork *f = fork_of(rel, fork);
    uint32 segno = block_segno(blkno);
    int fd = segment_get(rel, f, segno, false, segno > 0, blkno);
    struct iovec iov[SMGR_READV_MAX];
    BlockNumber left_in_segment = RELSEG_SIZE - blkno % RELSEG_SIZE;
    ssize_t nread;

    if (fd < 0)
        return 0; /* a missing later segment: past the end */
    if (nblocks > SMGR_READV_MAX)
        nblocks = SMGR_READV_MAX;
    if ((BlockNumber)nblocks > left_in_segment)
        nblocks = (int)left_in_segment;
    for (int i = 0; i < nblocks; i++) {
        iov[i].iov_base = buffers[i];
        iov[i].iov_len = BLCKSZ;
    }
    nread = tdb_fd_preadv(fd, iov, nblocks, block_offset(blkno));
    if (nread < 0)
        return -1;
    return (int)(nread / BLCKSZ);
}

void
tdb_smgr_write(SMgrRelation rel, ForkNumber fork, BlockNumber blkno,
               const void *buffer)
{
    SMgrFork *f = fork_of(rel, fork);
    uint32 segno = block_segno(blkno);
    int fd;

    fd = segment_get(rel, f, segno, false, false, blkno);
    check_block_exists(rel, f, blkno, fd);
    if (tdb_fd_pwrite_full(fd, buffer, BLCKSZ, block_offset(blkno)) != 0) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not write block %u in file \"%s\": %m", blkno,
                       segment_path(rel, f, segno)),
                save_errno == ENOSPC ? errhint("Check free disk space.") : 0);
    }
}

void
tdb_smgr_extend(SMgrRelation rel, ForkNumber fork, BlockNumber blkno,
                const void *buffer)
{
    SMgrFork *f = fork_of(rel, fork);
    uint32 segno = block_segno(blkno);
    off_t offset = block_offset(blkno);
    int fd;

    if (blkno == InvalidBlockNumber)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("cannot extend file \"%s\" beyond %u blocks", f->path,
                       InvalidBlockNumber));
    check_append_position(rel, f, blkno);
    /* the first block of a later segment creates its file */
    fd = segment_get(rel, f, segno, segno > 0 && offset == 0, false, blkno);
    if (tdb_fd_pwrite_full(fd, buffer, BLCKSZ, offset) != 0) {
        int save_errno = errno;

        /* Invariant 2: cut off whatever part of the block was written. */
        if (tdb_fd_truncate(fd, offset) != 0) {
            int truncate_errno = errno;

            ereport(WARNING, errcode(tdb_fd_errcode(truncate_errno)),
                    errmsg("could not truncate file \"%s\" to %u blocks: %m",
                           segment_path(rel, f, segno), blkno % RELSEG_SIZE));
        }
        errno = save_errno; /* %m below is the write's error */
        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not extend file \"%s\": %m",
                       segment_path(rel, f, segno)),
                errhint("Check free disk space."));
    }
}

void
tdb_smgr_truncate(SMgrRelation rel, ForkNumber fork, BlockNumber nblocks)
{
    SMgrFork *f = fork_of(rel, fork);
    uint32 last_segno;
    BlockNumber cur = fork_nblocks(rel, f, &last_segno);
    uint32 keep_segno = nblocks == 0 ? 0 : block_segno(nblocks - 1);
    BlockNumber keep_blocks = nblocks - keep_segno * RELSEG_SIZE;
    int fd;

    if (nblocks > cur)
        ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR),
                errmsg("could not truncate file \"%s\" to %u blocks: it's "
                       "only %u blocks now",
                       f->path, nblocks, cur));
    for (uint32 s = last_segno; s > keep_segno; s--)
        segment_remove(rel, f, s);
    fd = f->seg_fds[keep_segno];
    if (tdb_fd_truncate(fd, (off_t)keep_blocks * BLCKSZ) != 0) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not truncate file \"%s\" to %u blocks: %m",
                       segment_path(rel, f, keep_segno), keep_blocks));
    }
}

void
tdb_smgr_unlink_fork(SMgrRelation rel, ForkNumber fork)
{
    unlink_fork(rel, fork_of(rel, fork));
}

void
tdb_smgr_unlink(SMgrRelation rel)
{
    /* the other forks first: a crash part-way leaves a relation without
     * some of them (an absent fork reads as empty), never a fork whose
     * main file is gone */
    for (int fork = MAX_FORKNUM; fork >= 0; fork--)
        unlink_fork(rel, &rel->forks[fork]);
}

void
tdb_smgr_immedsync(SMgrRelation rel, ForkNumber fork)
{
    SMgrFork *f = fork_of(rel, fork);
    uint32 last_segno;

    (void)fork_nblocks(rel, f, &last_segno); /* opens every segment */
    for (uint32 s = 0; s <= last_segno; s++) {
        if (tdb_fd_fsync(f->seg_fds[s]) != 0) {
            int save_errno = errno;

            ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                    errmsg("could not fsync file \"%s\": %m",
                           segment_path(rel, f, s)));
        }
    }
    if (tdb_fd_fsync_dir(rel->basedir) != 0) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not fsync file \"%s\": %m", rel->basedir));
    }
}
