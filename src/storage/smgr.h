/*
 * smgr.h -- relation files: the blocks of one relation, stored in
 * PostgreSQL's layout of 1 GB segment files.
 *
 * A relation's storage is named by its RelFileNumber inside the data
 * directory's base/ folder:
 *
 *     <datadir>/base/<relfilenumber>     blocks 0 .. RELSEG_SIZE-1
 *     <datadir>/base/<relfilenumber>.1   blocks RELSEG_SIZE .. 2*RELSEG_SIZE-1
 *     <datadir>/base/<relfilenumber>.2   ...
 *
 * Each fork of the relation (block.h: MAIN_FORKNUM, FSM_FORKNUM,
 * VISIBILITYMAP_FORKNUM, INIT_FORKNUM) is a file set of its own, named
 * with PostgreSQL's suffixes -- <relfilenumber>_fsm, _vm, _init -- and
 * segmented the same way (<relfilenumber>_vm.1, ...).  Every call below
 * but open/close/unlink names the fork it works on.  Only the main fork
 * must exist while the relation does; the others exist once created.
 *
 * Every segment but the last holds exactly RELSEG_SIZE blocks; the last
 * holds 0 .. RELSEG_SIZE blocks.  Segment 0 always exists while the
 * relation does.  Block b lives in segment b / RELSEG_SIZE at byte offset
 * (b % RELSEG_SIZE) * BLCKSZ.  Blocks are opaque BLCKSZ-byte images here;
 * page layout and checksums belong to page.h and the buffer pool.
 *
 * A handle (SMgrRelation) caches one open descriptor per segment.  It is
 * created by tdb_smgr_open() in a small memory context of its own, a child
 * of the context the caller names; tdb_smgr_close() deletes that context,
 * and so does resetting or deleting the parent -- a reset callback closes
 * the descriptors, so an ERROR that unwinds past the owner leaks no file.
 *
 * Errors are raised with ereport(ERROR) (none of this runs inside a
 * critical section); SQLSTATEs follow PostgreSQL's errcode_for_file_access
 * (tdb_fd_errcode), plus ERRCODE_DATA_CORRUPTED for reads past the end of
 * the file.  Messages are PostgreSQL's md.c messages, naming the segment
 * file's full path.  A fork number outside 0 .. MAX_FORKNUM is an internal
 * error.
 *
 * Threads: a handle is not thread-safe (its descriptor cache is unlocked).
 * Several handles on one relation are allowed; a handle does not cache
 * the relation's length, so each sees the others' extensions.  Truncating
 * or unlinking through one handle while another still has the removed
 * segments open leaves that one writing to unlinked files: callers (the
 * buffer pool) must close or forget other handles first.
 */
#ifndef TDB_STORAGE_SMGR_H
#define TDB_STORAGE_SMGR_H

#include "common/base.h"
#include "mmgr/mcxt.h"
#include "storage/block.h"

typedef struct SMgrRelationData *SMgrRelation;

/*
 * Open a handle on relation relnumber of the data directory at datadir
 * (borrowed; copied).  No file is touched.  The handle lives in a new
 * child context of parent (NULL: the current context).
 */
SMgrRelation tdb_smgr_open(MemoryContext parent, const char *datadir,
                           RelFileNumber relnumber);

/* Close the segment files and free the handle. */
void tdb_smgr_close(SMgrRelation rel);

/* The relation's file number, and the main fork's (or fork's) segment 0
 * path (borrowed, lives as long as the handle). */
RelFileNumber tdb_smgr_relnumber(SMgrRelation rel);
const char *tdb_smgr_path(SMgrRelation rel);
const char *tdb_smgr_fork_path(SMgrRelation rel, ForkNumber fork);

/* Blocks per segment this build uses (RELSEG_SIZE as compiled into smgr.c). */
BlockNumber tdb_smgr_segment_blocks(void);

/* Whether the fork's segment 0 exists (asking the file system, not the
 * descriptor cache).  Raises on errors other than "no such file". */
bool tdb_smgr_exists(SMgrRelation rel, ForkNumber fork);

/*
 * Create the fork's (empty) segment 0.  If it exists already, raise
 * ERRCODE_DUPLICATE_FILE ("could not create file ...: File exists"),
 * unless allow_existing, in which case the existing file is kept as it is.
 * The new name becomes durable with tdb_smgr_immedsync().
 */
void tdb_smgr_create(SMgrRelation rel, ForkNumber fork, bool allow_existing);

/*
 * Number of blocks in the fork: full segments times RELSEG_SIZE plus
 * the whole blocks in the last one (a partial trailing block, which only a
 * crash or a failed truncate can leave, is not counted; the next extend
 * overwrites it).  Raises ERRCODE_UNDEFINED_FILE if the fork does not
 * exist, ERRCODE_DATA_CORRUPTED if a segment is longer than RELSEG_SIZE.
 */
BlockNumber tdb_smgr_nblocks(SMgrRelation rel, ForkNumber fork);

/*
 * Read block blkno into buffer (BLCKSZ bytes).  A block that lies wholly
 * or partly past the end of the file raises ERRCODE_DATA_CORRUPTED:
 *   could not read block B in file "P": read only N of 8192 bytes
 * a failed read raises with the errno's SQLSTATE (EIO: ERRCODE_IO_ERROR):
 *   could not read block B in file "P": <strerror>
 */
void tdb_smgr_read(SMgrRelation rel, ForkNumber fork, BlockNumber blkno,
                   void *buffer);

/*
 * Read up to nblocks consecutive blocks from blkno into buffers[0..] with
 * one preadv; never crosses a segment's end, nor reads more than
 * SMGR_READV_MAX blocks.  Returns the number of whole blocks read -- 0 if
 * blkno is past the end of the relation -- or -1 with errno if the read
 * failed.  Unlike tdb_smgr_read nothing is raised for a short or failed
 * read (only an error opening a segment): the caller reads the block it
 * needs with tdb_smgr_read, which reports it.
 */
#define SMGR_READV_MAX 16
int tdb_smgr_readv(SMgrRelation rel, ForkNumber fork, BlockNumber blkno,
                   void *const *buffers, int nblocks);

/*
 * Overwrite existing block blkno (< nblocks) with buffer.  On failure
 * (ERRCODE_DISK_FULL, ERRCODE_IO_ERROR, ...) the block's bytes on disk
 * are undefined -- old, new or mixed -- and the caller must keep its copy
 * (the buffer stays dirty) and retry or rely on WAL.  A block past the
 * end of its segment (the file was truncated behind the database's back)
 * is never written, so no gap of zeros appears in the file:
 * ERRCODE_DATA_CORRUPTED
 *   could not write block B in file "P": it's only N blocks now
 * (N counts the blocks up to the end of that segment).
 */
void tdb_smgr_write(SMgrRelation rel, ForkNumber fork, BlockNumber blkno,
                    const void *buffer);

/*
 * Append block blkno, which must be the current nblocks (checked in
 * TDB_DEBUG builds; callers track the length), with contents buffer; a
 * new segment file is created when blkno starts one.  On failure the
 * file is truncated back to blkno blocks, so it never ends in a partial
 * block, and the error is raised with hint "Check free disk space.":
 *   could not extend file "P": No space left on device   (ERRCODE_DISK_FULL)
 * Blocks before blkno are untouched.  Extending past block 0xFFFFFFFE
 * raises ERRCODE_PROGRAM_LIMIT_EXCEEDED.
 */
void tdb_smgr_extend(SMgrRelation rel, ForkNumber fork, BlockNumber blkno,
                     const void *buffer);

/*
 * Shrink the fork to nblocks blocks: later segment files are removed
 * (last first, so a crash part-way leaves a shorter but gapless relation)
 * and the segment holding the new end is truncated.  Segment 0 is kept
 * even for nblocks = 0.  nblocks beyond the current length is an error.
 */
void tdb_smgr_truncate(SMgrRelation rel, ForkNumber fork, BlockNumber nblocks);

/*
 * Remove every segment file of every fork of the relation: the other
 * forks first, the main fork last, each fork's segments last first (a
 * crash part-way never leaves a fork without its main file).  A relation
 * or fork that does not exist is not an error.  The handle stays usable
 * (e.g. to create the relation again).
 */
void tdb_smgr_unlink(SMgrRelation rel);

/* Remove every segment file of one fork (last first); a fork that does
 * not exist is not an error. */
void tdb_smgr_unlink_fork(SMgrRelation rel, ForkNumber fork);

/*
 * fsync every segment file of the fork, then base/ itself so that newly created
 * segment names are durable too.  Raises on failure.  Note: after a
 * failed fsync the kernel may have dropped the dirty pages, so a retry
 * that succeeds proves nothing; durability-critical callers must treat
 * the error as fatal (PostgreSQL PANICs; tupledb's WAL will do likewise).
 */
void tdb_smgr_immedsync(SMgrRelation rel, ForkNumber fork);

#endif /* TDB_STORAGE_SMGR_H */
