/*
 * fd.c -- file-system wrappers that return -1 and keep errno, and the
 * per-thread fault table that tests arm to make them fail.
 *
 * Shape of every wrapper (one exit):
 *
 *     rc = fault_check(op, &len);     injected failure or shortened len
 *     if (rc == 0)
 *         rc = <system call, EINTR retried>;
 *     return rc;
 *
 * fault_check() costs one predictable branch on a constant in release
 * builds (config_debug is false, so the compiler drops the table code)
 * and a thread-local test plus a counter increment in TDB_DEBUG builds.
 *
 * The fault table (FD_MAX_FAULTS slots, per thread) holds armed faults;
 * each slot counts down the calls of its operation and fires once.  Slots
 * are independent, so "short write, then ENOSPC on the retry" is two
 * faults armed together for FD_OP_WRITE with n = 1 and n = 2.
 */
#include "common/base.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/errcodes.h"
#include "storage/fd.h"

/* ----------------------------------------------------------------------
 * Fault injection
 * ---------------------------------------------------------------------- */

typedef struct FdFault {
    bool armed;
    FdOp op;
    uint32 countdown; /* calls of op until it fires (1 = the next) */
    int err;          /* errno to fail with, or FD_FAULT_SHORT */
} FdFault;

static _Thread_local FdFault faults[FD_MAX_FAULTS];
static _Thread_local int nfaults_armed = 0;
static _Thread_local uint64 op_counts[FD_NOPS];

static const char *const op_names[FD_NOPS] = {
    [FD_OP_OPEN] = "open",     [FD_OP_CLOSE] = "close",
    [FD_OP_READ] = "read",     [FD_OP_WRITE] = "write",
    [FD_OP_FSYNC] = "fsync",   [FD_OP_TRUNCATE] = "truncate",
    [FD_OP_SIZE] = "size",     [FD_OP_UNLINK] = "unlink",
    [FD_OP_RENAME] = "rename", [FD_OP_MKDIR] = "mkdir",
    [FD_OP_LOCK] = "lock",
};

bool
tdb_fd_inject(FdOp op, uint32 n, int err)
{
    bool is_transfer = op == FD_OP_READ || op == FD_OP_WRITE;

    if (!config_debug || op >= FD_NOPS || n == 0 ||
        (err == FD_FAULT_SHORT && !is_transfer))
        return false;
    for (int i = 0; i < FD_MAX_FAULTS; i++) {
        if (!faults[i].armed) {
            faults[i] =
                (FdFault){.armed = true, .op = op, .countdown = n, .err = err};
            nfaults_armed++;
            return true;
        }
    }
    return false;
}

void
tdb_fd_inject_clear(void)
{
    memset(faults, 0, sizeof(faults));
    nfaults_armed = 0;
}

int
tdb_fd_inject_pending(void)
{
    return nfaults_armed;
}

uint64
tdb_fd_op_count(FdOp op)
{
    return op < FD_NOPS ? op_counts[op] : 0;
}

const char *
tdb_fd_op_name(FdOp op)
{
    return op < FD_NOPS ? op_names[op] : "?";
}

/*
 * One call of op is about to happen: count it and step every armed fault
 * for op.  Returns -1 with errno set if a failing fault fired; otherwise
 * 0, with *len halved (at least 1 byte) if a short-transfer fault fired.
 * len is NULL for operations that transfer nothing.
 */
static int
fault_fire(FdOp op, size_t *len)
{
    int rc = 0;

    for (int i = 0; i < FD_MAX_FAULTS; i++) {
        FdFault *f = &faults[i];

        if (!f->armed || f->op != op || --f->countdown > 0)
            continue;
        f->armed = false;
        nfaults_armed--;
        if (f->err != FD_FAULT_SHORT) {
            errno = f->err;
            rc = -1;
        } else if (len != NULL && *len > 1)
            *len /= 2;
    }
    return rc;
}

static inline int
fault_check(FdOp op, size_t *len)
{
    if (!config_debug)
        return 0;
    op_counts[op]++;
    if (likely(nfaults_armed == 0))
        return 0;
    return fault_fire(op, len);
}

/* ----------------------------------------------------------------------
 * Wrappers
 * ---------------------------------------------------------------------- */

int
tdb_fd_open(const char *path, int flags, mode_t mode)
{
    int fd = fault_check(FD_OP_OPEN, NULL);

    if (fd == 0) {
        do
            fd = open(path, flags | O_CLOEXEC, mode);
        while (fd < 0 && errno == EINTR);
    }
    return fd;
}

int
tdb_fd_close(int fd)
{
    int rc = fault_check(FD_OP_CLOSE, NULL);

    /* An injected failure still closes: close(2) never leaves fd open. */
    if (rc == 0)
        rc = close(fd);
    else {
        int save_errno = errno;

        (void)close(fd);
        errno = save_errno;
    }
    return rc;
}

ssize_t
tdb_fd_pread_full(int fd, void *buf, size_t len, off_t offset)
{
    size_t done = 0;
    ssize_t rc = 0;

    while (done < len) {
        size_t want = len - done;

        rc = fault_check(FD_OP_READ, &want);
        if (rc == 0)
            rc = pread(fd, (char *)buf + done, want, offset + (off_t)done);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            break; /* error, or end of file */
        done += (size_t)rc;
    }
    return rc < 0 ? -1 : (ssize_t)done;
}

ssize_t
tdb_fd_preadv(int fd, struct iovec *iov, int iovcnt, off_t offset)
{
    size_t total = 0, len;
    ssize_t rc;

    for (int i = 0; i < iovcnt; i++)
        total += iov[i].iov_len;
    len = total;
    rc = fault_check(FD_OP_READ, &len);
    if (rc != 0)
        return rc;
    if (len < total) {
        /* an injected short read: keep the first len bytes' buffers */
        size_t keep = 0;
        int n = 0;

        while (keep + iov[n].iov_len < len)
            keep += iov[n++].iov_len;
        iov[n].iov_len = len - keep;
        iovcnt = n + 1;
    }
    do
        rc = preadv(fd, iov, iovcnt, offset);
    while (rc < 0 && errno == EINTR);
    return rc;
}

int
tdb_fd_pwrite_full(int fd, const void *buf, size_t len, off_t offset)
{
    size_t done = 0;
    ssize_t rc = 0;

    while (done < len) {
        size_t want = len - done;

        rc = fault_check(FD_OP_WRITE, &want);
        if (rc == 0)
            rc = pwrite(fd, (const char *)buf + done, want,
                        offset + (off_t)done);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc == 0) {
            /* no progress and no errno: assume the disk is full */
            errno = ENOSPC;
            rc = -1;
        }
        if (rc < 0)
            break;
        done += (size_t)rc;
    }
    return rc < 0 ? -1 : 0;
}

int
tdb_fd_fsync(int fd)
{
    int rc = fault_check(FD_OP_FSYNC, NULL);

    if (rc == 0) {
        do
            rc = fsync(fd);
        while (rc < 0 && errno == EINTR);
    }
    return rc;
}

int
tdb_fd_fsync_dir(const char *path)
{
    int fd = tdb_fd_open(path, O_RDONLY | O_DIRECTORY, 0);
    int rc = -1;

    if (fd >= 0) {
        int save_errno;

        rc = tdb_fd_fsync(fd);
        /* some file systems cannot fsync a directory; PostgreSQL, too,
         * takes EINVAL/EBADF from a directory fsync as nothing to do */
        if (rc != 0 && (errno == EINVAL || errno == EBADF))
            rc = 0;
        save_errno = errno;
        if (tdb_fd_close(fd) != 0 && rc == 0)
            rc = -1; /* report the close's errno */
        else
            errno = save_errno; /* report the fsync's errno, if any */
    }
    return rc;
}

int
tdb_fd_truncate(int fd, off_t length)
{
    int rc = fault_check(FD_OP_TRUNCATE, NULL);

    if (rc == 0) {
        do
            rc = ftruncate(fd, length);
        while (rc < 0 && errno == EINTR);
    }
    return rc;
}

int
tdb_fd_size(int fd, off_t *size)
{
    struct stat st;
    int rc = fault_check(FD_OP_SIZE, NULL);

    if (rc == 0)
        rc = fstat(fd, &st);
    if (rc == 0)
        *size = st.st_size;
    return rc;
}

int
tdb_fd_unlink(const char *path)
{
    int rc = fault_check(FD_OP_UNLINK, NULL);

    if (rc == 0)
        rc = unlink(path);
    return rc;
}

int
tdb_fd_rename(const char *from, const char *to)
{
    int rc = fault_check(FD_OP_RENAME, NULL);

    if (rc == 0)
        rc = rename(from, to);
    return rc;
}

int
tdb_fd_mkdir(const char *path, mode_t mode)
{
    int rc = fault_check(FD_OP_MKDIR, NULL);

    if (rc == 0)
        rc = mkdir(path, mode);
    return rc;
}

int
tdb_fd_rmdir(const char *path)
{
    int rc = fault_check(FD_OP_UNLINK, NULL);

    if (rc == 0)
        rc = rmdir(path);
    return rc;
}

int
tdb_fd_try_lock(int fd)
{
    int rc = fault_check(FD_OP_LOCK, NULL);

    if (rc == 0) {
        do
            rc = flock(fd, LOCK_EX | LOCK_NB);
        while (rc < 0 && errno == EINTR);
    }
    return rc;
}

int
tdb_fd_dir_is_empty(const char *path, bool *is_empty)
{
    DIR *dir = opendir(path);
    int rc = -1;

    if (dir != NULL) {
        const struct dirent *entry;
        int save_errno;

        *is_empty = true;
        errno = 0;
        while ((entry = readdir(dir)) != NULL) {
            if (strcmp(entry->d_name, ".") != 0 &&
                strcmp(entry->d_name, "..") != 0) {
                *is_empty = false;
                break;
            }
        }
        rc = errno != 0 ? -1 : 0; /* readdir sets errno only on failure */
        save_errno = errno;
        (void)closedir(dir);
        errno = save_errno;
    }
    return rc;
}

int
tdb_fd_is_same_file(int fd, const char *path, bool *same)
{
    struct stat fd_st, path_st;
    int rc = fstat(fd, &fd_st);

    if (rc == 0 && stat(path, &path_st) != 0) {
        if (errno == ENOENT)
            *same = false;
        else
            rc = -1;
    } else if (rc == 0)
        *same =
            fd_st.st_dev == path_st.st_dev && fd_st.st_ino == path_st.st_ino;
    return rc;
}

int
tdb_fd_errcode(int err)
{
    switch (err) {
    case EPERM:
    case EACCES:
    case EROFS:
        return ERRCODE_INSUFFICIENT_PRIVILEGE;
    case ENOENT:
        return ERRCODE_UNDEFINED_FILE;
    case EEXIST:
        return ERRCODE_DUPLICATE_FILE;
    case ENOTDIR:
    case EISDIR:
    case ENOTEMPTY:
        return ERRCODE_WRONG_OBJECT_TYPE;
    case ENOSPC:
        return ERRCODE_DISK_FULL;
    case ENFILE:
    case EMFILE:
        return ERRCODE_INSUFFICIENT_RESOURCES;
    case EIO:
        return ERRCODE_IO_ERROR;
    default:
        return ERRCODE_INTERNAL_ERROR;
    }
}
