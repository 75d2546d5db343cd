/*
 * tempfile.h -- temporary files for operators that spill to disk (hash
 * aggregation's partitions, external sort's runs).
 *
 *     TempFile *f = tdb_tempfile_create(estate->query_mcxt, dir, 8192);
 *     tdb_tempfile_write(f, &rec, sizeof(rec));     ... many times
 *     tdb_tempfile_rewind(f);
 *     while (tdb_tempfile_read(f, &rec, sizeof(rec)) == sizeof(rec))
 *         ...
 *     tdb_tempfile_close(f);           or let the context's end do it
 *
 * A TempFile is an anonymous byte stream in a file of its own,
 * "<dir>/pgsql_tmp<pid>.<n>" (PostgreSQL's naming), owned by a memory
 * context: resetting or deleting the context closes and unlinks the file,
 * so an ERROR or a cancel -- which delete the executor's context -- never
 * leaves a file behind.  Files a crash leaves behind are removed the next
 * time the data directory is opened (tdb_tempfile_remove_all).
 *
 * Writes are appended through a buffer; tdb_tempfile_rewind (or
 * tdb_tempfile_seek) flushes it and switches to reading; a write after
 * reading switches back and appends at the end.  There is no fsync: the
 * data is worthless after a crash.
 *
 * Errors: every failure raises ERROR with the errno's SQLSTATE
 * (tdb_fd_errcode) and a message naming the file; a full disk is 53100
 * (disk_full) "could not write to file "P": No space left on device".
 * A write or read that raises changes nothing visible: the file's size
 * and read position are what they were before the call.
 *
 * Threads: a TempFile belongs to one thread (like its memory context);
 * any number of threads may create files at once.
 */
#ifndef TDB_STORAGE_TEMPFILE_H
#define TDB_STORAGE_TEMPFILE_H

#include "common/base.h"
#include "mmgr/mcxt.h"

typedef struct TempFile TempFile;

/* Temporary files are named TDB_TEMPFILE_PREFIX "<pid>.<n>" and live in
 * the data directory's base/TDB_TEMPFILE_DIR (PostgreSQL's names). */
#define TDB_TEMPFILE_PREFIX "pgsql_tmp"
#define TDB_TEMPFILE_DIR "pgsql_tmp"

/* Smallest buffer tdb_tempfile_create accepts. */
#define TDB_TEMPFILE_MIN_BUFFER 1024

/*
 * Open a new, empty temporary file in directory dir (created with its
 * parents if missing, mode 0700), owned by cxt: when cxt is reset or
 * deleted (end of statement, ERROR, cancel -- all of which delete the
 * executor's context) the file is closed and unlinked.  The struct and a
 * buffer of buffer_size bytes (>= TDB_TEMPFILE_MIN_BUFFER; 8192 is
 * typical) are allocated in cxt.  ERROR (with errcode from
 * tdb_fd_errcode and a message naming the path, ending ": %m") if it
 * cannot be created.
 */
TempFile *tdb_tempfile_create(MemoryContext cxt, const char *dir,
                              Size buffer_size);

/*
 * Append len bytes (buffered).  ERROR on failure: ENOSPC gives SQLSTATE
 * 53100 "could not write to file "P": No space left on device"; after an
 * error the file holds exactly what it held before the call (none of
 * data counts as written).  Called after reading, it switches back to
 * writing at the end of the file; the read position is forgotten.
 */
void tdb_tempfile_write(TempFile *f, const void *data, Size len);

/* Flush pending writes and position reading at the start (the same as
 * tdb_tempfile_seek(f, 0)).  ERROR if the flush fails; the pending bytes
 * then stay buffered, so a retry may succeed. */
void tdb_tempfile_rewind(TempFile *f);

/*
 * Flush pending writes and position reading at byte offset, which must
 * not exceed tdb_tempfile_size (ERROR otherwise).  Seeking inside the
 * buffered window costs no I/O.
 */
void tdb_tempfile_seek(TempFile *f, uint64 offset);

/*
 * Read up to len bytes at the read position into data and advance it;
 * returns the count (less than len only at end of file).  ERROR on I/O
 * failure, or if the file is shorter on disk than what was written
 * (ERRCODE_DATA_CORRUPTED); the read position is then unchanged.  The
 * file must be in read mode (after rewind or seek): reading while
 * writing is an internal error.
 */
Size tdb_tempfile_read(TempFile *f, void *data, Size len);

/*
 * Empty the file (a sort level whose runs were all merged): size 0, in
 * write mode.  ERROR if the truncation fails.  Readers of it must not be
 * used afterwards.
 */
void tdb_tempfile_truncate(TempFile *f);

/*
 * Readers: independent cursors over a byte range of a file, each with a
 * buffer of its own, so one file can be read at many places at once (a
 * sort merging runs stored one after another in one file).  Creating a
 * reader flushes the file's pending writes (ERROR as tdb_tempfile_rewind)
 * and leaves it in read mode; [start, end) must lie within what was
 * written.  Writing to the file while its readers are in use is not
 * allowed.  The reader and its buffer are allocated in cxt.
 */
typedef struct TempFileReader TempFileReader;

TempFileReader *tdb_tempfile_reader_create(TempFile *f, uint64 start,
                                           uint64 end, Size buffer_size,
                                           MemoryContext cxt);
/* Read up to len bytes (fewer only at the range's end); ERROR on I/O
 * failure or a short file, the position then unchanged. */
Size tdb_tempfile_reader_read(TempFileReader *r, void *data, Size len);
/* The position (a file offset) of the next byte; seek to one in
 * [start, end]. */
uint64 tdb_tempfile_reader_tell(const TempFileReader *r);
void tdb_tempfile_reader_seek(TempFileReader *r, uint64 offset);
void tdb_tempfile_reader_free(TempFileReader *r);

/* Bytes written so far (the file's logical size, including what is still
 * buffered). */
uint64 tdb_tempfile_size(const TempFile *f);

/* The read position while reading; tdb_tempfile_size while writing
 * (where the next write goes). */
uint64 tdb_tempfile_tell(const TempFile *f);

/* The file's path (borrowed, valid until the file is closed). */
const char *tdb_tempfile_path(const TempFile *f);

/*
 * Close and unlink now, freeing its buffer; the context callback then
 * does nothing.  Never raises: a failure to unlink leaves the file for
 * the next data-directory open to remove.  Closing twice is a no-op;
 * every other call on a closed file is an internal error.  The small
 * struct itself stays allocated until cxt is reset.
 */
void tdb_tempfile_close(TempFile *f);

/* The directory temporary files go in for a data directory:
 * "<datadir>/base/pgsql_tmp", allocated in cxt. */
char *tdb_tempfile_dir_for(MemoryContext cxt, const char *datadir);

/*
 * The directory for temporary files when there is no data directory
 * (executor unit tests, EState.temp_dir NULL): $TMPDIR if set and not
 * empty, else "/tmp".  Borrowed.
 */
const char *tdb_tempfile_default_dir(void);

/*
 * Remove everything inside dir (files, and subdirectories with their
 * contents; symbolic links are removed, not followed), keeping dir
 * itself -- PostgreSQL's RemovePgTempFiles.  For crash leftovers: call it
 * only while no temporary file in dir can be in use, i.e. holding the
 * data directory's lock, before any session runs.  A missing dir is
 * nothing to do.  Never raises: each entry that cannot be removed is
 * reported as a WARNING and skipped.  Returns the number of entries
 * removed.
 */
uint64 tdb_tempfile_remove_all(const char *dir);

#endif /* TDB_STORAGE_TEMPFILE_H */
