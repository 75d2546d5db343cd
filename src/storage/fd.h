/*
 * fd.h -- thin wrappers over the file-system calls storage needs, with a
 * fault-injection hook for tests.
 *
 * Every wrapper is code that must not unwind (STYLE.md section 5): it
 * returns -1 with errno set on failure and never raises; the caller
 * raises the SQLSTATE, normally errcode(tdb_fd_errcode(saved_errno)) and a
 * message ending in ": %m".  EINTR is retried inside the wrappers.
 *
 * Files are opened with O_CLOEXEC; data files are created 0600 and
 * directories 0700 (TDB_FILE_MODE, TDB_DIR_MODE), as PostgreSQL does.
 *
 * Fault injection (TDB_DEBUG builds; the calls exist in every build and
 * report "unavailable" in release builds):
 *
 *     tdb_fd_inject(FD_OP_WRITE, 3, ENOSPC);   third write from now fails
 *     tdb_fd_inject(FD_OP_WRITE, 1, FD_FAULT_SHORT);  next write is short
 *     tdb_fd_inject(FD_OP_FSYNC, 1, EIO);      next fsync fails
 *     ... run the code under test ...
 *     tdb_fd_inject_clear();
 *
 * Each armed fault counts the calls of its operation from the moment it
 * was armed and fires once, on the nth.  A fault with an errno makes the
 * call do nothing and fail with that errno; FD_FAULT_SHORT makes a read or
 * write transfer only half of what it was asked for (at least one byte)
 * and return that count -- the *_full wrappers then loop, so a short write
 * followed by an armed ENOSPC is how a disk fills up mid-block.  Faults and
 * counters are per thread.  A "write" or "read" here is one pwrite/pread
 * system call, so one tdb_fd_pwrite_full may count several.
 */
#ifndef TDB_STORAGE_FD_H
#define TDB_STORAGE_FD_H

#include "common/base.h"

#include <sys/types.h>
#include <sys/uio.h>

/* Permissions of the files and directories tupledb creates. */
#define TDB_FILE_MODE 0600
#define TDB_DIR_MODE 0700

/* The operations the fault table can target, one per wrapper family. */
typedef enum FdOp {
    FD_OP_OPEN,     /* tdb_fd_open (and the open inside tdb_fd_fsync_dir) */
    FD_OP_CLOSE,    /* tdb_fd_close */
    FD_OP_READ,     /* one pread inside tdb_fd_pread_full */
    FD_OP_WRITE,    /* one pwrite inside tdb_fd_pwrite_full */
    FD_OP_FSYNC,    /* tdb_fd_fsync, tdb_fd_fsync_dir */
    FD_OP_TRUNCATE, /* tdb_fd_truncate */
    FD_OP_SIZE,     /* tdb_fd_size */
    FD_OP_UNLINK,   /* tdb_fd_unlink, tdb_fd_rmdir */
    FD_OP_RENAME,   /* tdb_fd_rename */
    FD_OP_MKDIR,    /* tdb_fd_mkdir */
    FD_OP_LOCK,     /* tdb_fd_try_lock */
    FD_NOPS
} FdOp;

/* Pseudo-errno for tdb_fd_inject: a short transfer instead of a failure. */
#define FD_FAULT_SHORT 0

/* At most this many faults can be armed at once. */
#define FD_MAX_FAULTS 8

/*
 * open(2) with O_CLOEXEC added.  mode is used with O_CREAT (pass
 * TDB_FILE_MODE).  Returns the descriptor, or -1 with errno.
 */
int tdb_fd_open(const char *path, int flags, mode_t mode);

/* close(2).  Returns 0, or -1 with errno; the descriptor is gone either
 * way (Linux never leaves it open, so EINTR is not retried). */
int tdb_fd_close(int fd);

/*
 * Read len bytes at offset into buf, looping over short reads.  Returns
 * the number of bytes read -- less than len only at end of file -- or -1
 * with errno (bytes read before the error are in buf but not counted).
 */
ssize_t tdb_fd_pread_full(int fd, void *buf, size_t len, off_t offset);

/*
 * One preadv(2) of iovcnt buffers at offset (EINTR retried).  Returns the
 * number of bytes read -- short at end of file -- or -1 with errno.  Not
 * looped over short reads: a caller reading blocks counts the whole ones
 * it got.  Counts as one FD_OP_READ for fault injection (a short fault
 * trims iov, which is the caller's and may be changed).
 */
ssize_t tdb_fd_preadv(int fd, struct iovec *iov, int iovcnt, off_t offset);

/*
 * Write len bytes from buf at offset, looping over short writes.  Returns
 * 0 when every byte is written, or -1 with errno.  A write that makes no
 * progress without an errno is reported as ENOSPC (as PostgreSQL assumes).
 * After a failure, part of the range may have been written: a caller that
 * was appending truncates the file back (tdb_fd_truncate).
 */
int tdb_fd_pwrite_full(int fd, const void *buf, size_t len, off_t offset);

/* fsync(2) of an open file.  Returns 0, or -1 with errno. */
int tdb_fd_fsync(int fd);

/*
 * Make a directory's entries durable: open it read-only, fsync, close.
 * Needed after creating, renaming or removing a file in it.  Returns 0,
 * or -1 with errno (of the first step that failed).
 */
int tdb_fd_fsync_dir(const char *path);

/* ftruncate(2).  Returns 0, or -1 with errno. */
int tdb_fd_truncate(int fd, off_t length);

/* The file's size in bytes, stored in *size.  Returns 0, or -1 with errno
 * (*size untouched). */
int tdb_fd_size(int fd, off_t *size);

/* unlink(2).  Returns 0, or -1 with errno. */
int tdb_fd_unlink(const char *path);

/* rename(2); atomic replacement of `to`.  Returns 0, or -1 with errno.
 * Durability needs fsyncs of the file before and the directory after. */
int tdb_fd_rename(const char *from, const char *to);

/* mkdir(2) with mode (pass TDB_DIR_MODE).  Returns 0, or -1 with errno. */
int tdb_fd_mkdir(const char *path, mode_t mode);

/* rmdir(2) of an empty directory (counted as FD_OP_UNLINK).  Returns 0,
 * or -1 with errno. */
int tdb_fd_rmdir(const char *path);

/*
 * flock(fd, LOCK_EX | LOCK_NB): take an exclusive advisory lock on the
 * open file description without waiting.  Returns 0, or -1 with errno
 * (EWOULDBLOCK: another open description holds it -- in this process or
 * another).  The lock is released when the description is closed.
 */
int tdb_fd_try_lock(int fd);

/*
 * Whether the directory at path has no entries besides "." and "..",
 * stored in *is_empty.  Returns 0, or -1 with errno.  (Not injectable.)
 */
int tdb_fd_dir_is_empty(const char *path, bool *is_empty);

/*
 * Whether path names the file open as fd (same device and inode), stored
 * in *same; a path that does not exist is not the same file.  Returns 0,
 * or -1 with errno.  (Not injectable.)
 */
int tdb_fd_is_same_file(int fd, const char *path, bool *same);

/*
 * The SQLSTATE for a failed file operation with errno err, as PostgreSQL's
 * errcode_for_file_access() maps it: ENOENT undefined_file, EEXIST
 * duplicate_file, ENOSPC disk_full, EIO io_error, EACCES/EPERM/EROFS
 * insufficient_privilege, ENOTDIR/EISDIR/ENOTEMPTY wrong_object_type,
 * ENFILE/EMFILE insufficient_resources, anything else internal_error.
 */
int tdb_fd_errcode(int err);

/* ----- fault injection (TDB_DEBUG builds) ----- */

/*
 * Arm a fault: the nth call (n >= 1) of op from now fails with errno err,
 * or is short if err is FD_FAULT_SHORT (FD_OP_READ / FD_OP_WRITE only).
 * Returns false if injection is unavailable (release build) or the table
 * is full.
 */
bool tdb_fd_inject(FdOp op, uint32 n, int err);

/* Disarm every fault of this thread. */
void tdb_fd_inject_clear(void);

/* Armed faults of this thread that have not fired yet. */
int tdb_fd_inject_pending(void);

/*
 * Calls of op made by this thread since it started (TDB_DEBUG builds; 0
 * in release builds).  Tests difference two readings to learn how many
 * calls a workload makes, then fail each of them in turn.
 */
uint64 tdb_fd_op_count(FdOp op);

/* The operation's name ("write", "fsync", ...), for test messages. */
const char *tdb_fd_op_name(FdOp op);

#endif /* TDB_STORAGE_FD_H */
