/*
 * smgr.c -- relation files as RELSEG_SIZE-block segments (PostgreSQL's
 * md.c layout), through an SMgrRelation handle that caches descriptors.
 *
 * Layout (see smgr.h): segment s of relation N is base/N (s = 0) or
 * base/N.s, holding blocks s*RELSEG_SIZE onwards; every segment before the
 * last is exactly RELSEG_SIZE blocks long.  Finding the length therefore
 * walks the segments from 0 until one is short or missing
 * (relation_nblocks); that walk also opens, and caches, every segment.
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
 * Entry points: tdb_smgr_open/close, exists, create, nblocks, read, write,
 * extend, truncate, unlink, immedsync.
 */
#include "common/base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#include "common/elog.h"
#include "storage/fd.h"
#include "storage/smgr.h"

/* The segment array starts with room for this many segments. */
#define INITIAL_SEG_FDS 4

struct SMgrRelationData {
    MemoryContext cxt;       /* this handle's own context (holds it all) */
    RelFileNumber relnumber; /* the relation's file number */
    char *basedir;           /* "<datadir>/base" */
    char *path;              /* "<datadir>/base/<relnumber>": segment 0 */
    char *seg_path;          /* scratch for segment_path() */
    Size seg_path_size;      /* bytes allocated for seg_path */
    int *seg_fds;            /* seg_fds[s]: descriptor of segment s or -1 */
    uint32 nseg_fds;         /* entries in seg_fds */
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

/*
 * The path of segment segno.  Borrowed: it points into the handle and is
 * overwritten by the next call (segment 0's is stable).
 */
static const char *
segment_path(SMgrRelation rel, uint32 segno)
{
    if (segno == 0)
        return rel->path;
    snprintf(rel->seg_path, rel->seg_path_size, "%s.%u", rel->path, segno);
    return rel->seg_path;
}

/* Make seg_fds long enough to hold segment segno. */
static void
seg_fds_reserve(SMgrRelation rel, uint32 segno)
{
    uint32 old_n = rel->nseg_fds;
    uint32 new_n = old_n;

    if (segno < old_n)
        return;
    while (new_n <= segno)
        new_n *= 2;
    rel->seg_fds = tdb_repalloc_array(rel->seg_fds, int, new_n);
    for (uint32 s = old_n; s < new_n; s++)
        rel->seg_fds[s] = -1;
    rel->nseg_fds = new_n;
}

/*
 * The descriptor of segment segno, opened (read-write) and cached on first
 * use.  create: create the file if it does not exist.  missing_ok: return
 * -1 (errno ENOENT) if it does not exist; any other failure raises,
 * naming target when it is a valid block number (PostgreSQL's wording).
 */
static int
segment_get(SMgrRelation rel, uint32 segno, bool create, bool missing_ok,
            BlockNumber target)
{
    int fd;

    seg_fds_reserve(rel, segno);
    if (rel->seg_fds[segno] >= 0)
        return rel->seg_fds[segno];

    fd = tdb_fd_open(segment_path(rel, segno), O_RDWR | (create ? O_CREAT : 0),
                     TDB_FILE_MODE);
    if (fd < 0) {
        int save_errno = errno;

        if (save_errno == ENOENT && missing_ok)
            return -1;
        if (target == InvalidBlockNumber)
            ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                    errmsg("could not open file \"%s\": %m",
                           segment_path(rel, segno)));
        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not open file \"%s\" (target block %u): %m",
                       segment_path(rel, segno), target));
    }
    rel->seg_fds[segno] = fd;
    return fd;
}

/* Close segment segno's cached descriptor, if any. */
static void
segment_forget(SMgrRelation rel, uint32 segno)
{
    if (segno < rel->nseg_fds && rel->seg_fds[segno] >= 0) {
        /*
         * A close error is ignored: the file is being removed, or the
         * handle dropped; what was written is made durable (or reported
         * lost) by fsync, never by close.
         */
        (void)tdb_fd_close(rel->seg_fds[segno]);
        rel->seg_fds[segno] = -1;
    }
}

/* Memory context reset callback: close every cached descriptor. */
static void
close_segments(void *arg)
{
    SMgrRelation rel = arg;

    for (uint32 s = 0; s < rel->nseg_fds; s++)
        segment_forget(rel, s);
}

/* Whole blocks in the open segment segno; raises if it is too long. */
static BlockNumber
segment_nblocks(SMgrRelation rel, uint32 segno, int fd)
{
    off_t size;

    if (tdb_fd_size(fd, &size) != 0) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not seek to end of file \"%s\": %m",
                       segment_path(rel, segno)));
    }
    if (size > (off_t)RELSEG_SIZE * BLCKSZ)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("file \"%s\" is longer than a segment",
                       segment_path(rel, segno)),
                errdetail("It is %lld bytes long; a segment holds at most "
                          "%u blocks of %d bytes.",
                          (long long)size, RELSEG_SIZE, BLCKSZ));
    return (BlockNumber)(size / BLCKSZ);
}

/*
 * The relation's length in blocks, walking (and opening) the segments.
 * *last_segno receives the number of the last existing segment.  Raises
 * if segment 0 is missing.
 */
static BlockNumber
relation_nblocks(SMgrRelation rel, uint32 *last_segno)
{
    uint32 segno = 0;
    int fd = segment_get(rel, 0, false, false, InvalidBlockNumber);
    uint64 total;

    for (;;) {
        BlockNumber n = segment_nblocks(rel, segno, fd);

        total = (uint64)segno * RELSEG_SIZE + n;
        if (total > MaxBlockNumber)
            ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("file \"%s\" extends beyond block %u",
                           segment_path(rel, segno), MaxBlockNumber));
        if (n < RELSEG_SIZE)
            break;
        fd = segment_get(rel, segno + 1, false, true, InvalidBlockNumber);
        if (fd < 0)
            break; /* the last segment is exactly full */
        segno++;
    }
    *last_segno = segno;
    return (BlockNumber)total;
}

/* Remove segment segno's file; a missing file is not an error. */
static void
segment_remove(SMgrRelation rel, uint32 segno)
{
    segment_forget(rel, segno);
    if (tdb_fd_unlink(segment_path(rel, segno)) != 0 && errno != ENOENT) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not remove file \"%s\": %m",
                       segment_path(rel, segno)));
    }
}

/*
 * Debug builds check the callers' block bookkeeping: an extend must
 * append exactly at the end.  (A write's block is checked in every
 * build: check_block_exists.)
 */
static void
check_append_position(SMgrRelation rel, BlockNumber blkno)
{
    BlockNumber nblocks;

    if (!config_debug)
        return;
    nblocks = tdb_smgr_nblocks(rel);
    if (blkno != nblocks)
        elog(ERROR, "extending with block %u of file \"%s\" of %u blocks",
             blkno, rel->path, nblocks);
}

/*
 * Raise unless block blkno lies wholly inside its open segment fd.  A
 * write past the end would extend the file, leaving all-zero blocks --
 * valid empty pages -- in the gap: a file truncated behind the
 * database's back would then read without error, its lost rows silently
 * gone (invariant 4).  One fstat per write; the write itself costs more.
 */
static void
check_block_exists(SMgrRelation rel, BlockNumber blkno, int fd)
{
    uint32 segno = block_segno(blkno);
    BlockNumber seg_blocks = segment_nblocks(rel, segno, fd);

    if (blkno % RELSEG_SIZE >= seg_blocks)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("could not write block %u in file \"%s\": it's only "
                       "%u blocks now",
                       blkno, segment_path(rel, segno),
                       segno * RELSEG_SIZE + seg_blocks));
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
    Size path_size = strlen(datadir) + sizeof("/base/4294967295");

    rel->cxt = cxt;
    rel->relnumber = relnumber;
    rel->basedir = tdb_mcxt_alloc(cxt, path_size);
    snprintf(rel->basedir, path_size, "%s/base", datadir);
    rel->path = tdb_mcxt_alloc(cxt, path_size);
    snprintf(rel->path, path_size, "%s/%u", rel->basedir, relnumber);
    rel->seg_path_size = path_size + sizeof(".4294967295");
    rel->seg_path = tdb_mcxt_alloc(cxt, rel->seg_path_size);
    rel->nseg_fds = INITIAL_SEG_FDS;
    rel->seg_fds = tdb_mcxt_alloc(cxt, INITIAL_SEG_FDS * sizeof(int));
    for (uint32 s = 0; s < INITIAL_SEG_FDS; s++)
        rel->seg_fds[s] = -1;
    tdb_mcxt_set_ident(cxt, rel->path);

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
    return rel->path;
}

BlockNumber
tdb_smgr_segment_blocks(void)
{
    return RELSEG_SIZE;
}

bool
tdb_smgr_exists(SMgrRelation rel)
{
    /* forget cached descriptors: another handle may have unlinked them */
    close_segments(rel);
    return segment_get(rel, 0, false, true, InvalidBlockNumber) >= 0;
}

void
tdb_smgr_create(SMgrRelation rel, bool allow_existing)
{
    int fd;

    close_segments(rel); /* none may outlive a file that was removed */
    fd = tdb_fd_open(rel->path, O_RDWR | O_CREAT | O_EXCL, TDB_FILE_MODE);
    if (fd < 0) {
        int save_errno = errno;

        if (save_errno == EEXIST && allow_existing)
            return;
        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not create file \"%s\": %m", rel->path));
    }
    rel->seg_fds[0] = fd;
}

BlockNumber
tdb_smgr_nblocks(SMgrRelation rel)
{
    uint32 last_segno;

    return relation_nblocks(rel, &last_segno);
}

void
tdb_smgr_read(SMgrRelation rel, BlockNumber blkno, void *buffer)
{
    uint32 segno = block_segno(blkno);
    int fd = segment_get(rel, segno, false, segno > 0, blkno);
    ssize_t nread = 0; /* a missing later segment: past the end */

    if (fd >= 0)
        nread = tdb_fd_pread_full(fd, buffer, BLCKSZ, block_offset(blkno));
    if (nread < 0) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not read block %u in file \"%s\": %m", blkno,
                       segment_path(rel, segno)));
    }
    if (nread != BLCKSZ)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("could not read block %u in file \"%s\": read only %d "
                       "of %d bytes",
                       blkno, segment_path(rel, segno), (int)nread, BLCKSZ));
}

int
tdb_smgr_readv(SMgrRelation rel, BlockNumber blkno, void *const *buffers,
               int nblocks)
{
    uint32 segno = block_segno(blkno);
    int fd = segment_get(rel, segno, false, segno > 0, blkno);
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
tdb_smgr_write(SMgrRelation rel, BlockNumber blkno, const void *buffer)
{
    uint32 segno = block_segno(blkno);
    int fd;

    fd = segment_get(rel, segno, false, false, blkno);
    check_block_exists(rel, blkno, fd);
    if (tdb_fd_pwrite_full(fd, buffer, BLCKSZ, block_offset(blkno)) != 0) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not write block %u in file \"%s\": %m", blkno,
                       segment_path(rel, segno)),
                save_errno == ENOSPC ? errhint("Check free disk space.") : 0);
    }
}

void
tdb_smgr_extend(SMgrRelation rel, BlockNumber blkno, const void *buffer)
{
    uint32 segno = block_segno(blkno);
    off_t offset = block_offset(blkno);
    int fd;

    if (blkno == InvalidBlockNumber)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("cannot extend file \"%s\" beyond %u blocks", rel->path,
                       InvalidBlockNumber));
    check_append_position(rel, blkno);
    /* the first block of a later segment creates its file */
    fd = segment_get(rel, segno, segno > 0 && offset == 0, false, blkno);
    if (tdb_fd_pwrite_full(fd, buffer, BLCKSZ, offset) != 0) {
        int save_errno = errno;

        /* Invariant 2: cut off whatever part of the block was written. */
        if (tdb_fd_truncate(fd, offset) != 0) {
            int truncate_errno = errno;

            ereport(WARNING, errcode(tdb_fd_errcode(truncate_errno)),
                    errmsg("could not truncate file \"%s\" to %u blocks: %m",
                           segment_path(rel, segno), blkno % RELSEG_SIZE));
        }
        errno = save_errno; /* %m below is the write's error */
        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not extend file \"%s\": %m",
                       segment_path(rel, segno)),
                errhint("Check free disk space."));
    }
}

void
tdb_smgr_truncate(SMgrRelation rel, BlockNumber nblocks)
{
    uint32 last_segno;
    BlockNumber cur = relation_nblocks(rel, &last_segno);
    uint32 keep_segno = nblocks == 0 ? 0 : block_segno(nblocks - 1);
    BlockNumber keep_blocks = nblocks - keep_segno * RELSEG_SIZE;
    int fd;

    if (nblocks > cur)
        ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR),
                errmsg("could not truncate file \"%s\" to %u blocks: it's "
                       "only %u blocks now",
                       rel->path, nblocks, cur));
    for (uint32 s = last_segno; s > keep_segno; s--)
        segment_remove(rel, s);
    fd = rel->seg_fds[keep_segno];
    if (tdb_fd_truncate(fd, (off_t)keep_blocks * BLCKSZ) != 0) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not truncate file \"%s\" to %u blocks: %m",
                       segment_path(rel, keep_segno), keep_blocks));
    }
}

void
tdb_smgr_unlink(SMgrRelation rel)
{
    uint32 last_segno = 0;

    if (segment_get(rel, 0, false, true, InvalidBlockNumber) < 0)
        return;
    /* Every existing segment, not just the ones nblocks would count. */
    while (segment_get(rel, last_segno + 1, false, true, InvalidBlockNumber) >=
           0)
        last_segno++;
    for (uint32 s = last_segno + 1; s-- > 0;)
        segment_remove(rel, s);
}

void
tdb_smgr_immedsync(SMgrRelation rel)
{
    uint32 last_segno;

    (void)relation_nblocks(rel, &last_segno); /* opens every segment */
    for (uint32 s = 0; s <= last_segno; s++) {
        if (tdb_fd_fsync(rel->seg_fds[s]) != 0) {
            int save_errno = errno;

            ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                    errmsg("could not fsync file \"%s\": %m",
                           segment_path(rel, s)));
        }
    }
    if (tdb_fd_fsync_dir(rel->basedir) != 0) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not fsync file \"%s\": %m", rel->basedir));
    }
}
