/*
 * tempfile.c -- buffered temporary files owned by a memory context
 * (tempfile.h), and the removal of the ones a crash left behind.
 *
 * Format: none.  A temporary file is the bytes its writer appended, in
 * order, in "<dir>/pgsql_tmp<pid>.<n>": pid is the process's, n a
 * process-wide atomic counter, so threads serving different connections
 * never pick the same name; the file is created with O_EXCL (and the next
 * n tried on EEXIST), so a leftover of a dead process that had the same
 * pid -- possible in a shared /tmp -- is never reused.  Nothing is
 * fsync'ed: after a crash the contents are garbage and are removed.
 *
 * One buffer serves both directions.  The file is in one of two modes:
 *
 *                   write (appends)
 *        +---------------------------------+
 *        v                                 |
 *     WRITING --- rewind / seek ------> READING --- read, seek
 *     (create)   (flushes the buffer)
 *
 *   WRITING: buffer[0 .. buf_len) holds the bytes at file offsets
 *            [buf_start, size) that are not on disk yet; [0, buf_start)
 *            is on disk.  buf_start + buf_len == size.
 *   READING: [0, size) is on disk; buffer[0 .. buf_len) is a clean copy of
 *            [buf_start, buf_start + buf_len) (buf_len 0: no copy);
 *            read_pos <= size is the next byte to read.
 *
 * After a flush the buffer still holds what it wrote, so a file smaller
 * than its buffer is never read back from disk.  Transfers of at least a
 * buffer's worth bypass the buffer (one pwrite/pread from the caller's
 * memory instead of many copies).
 *
 * Errors.  A write that fails part-way leaves the state as before the
 * call (write_failed): whatever the call had appended to the buffer is
 * dropped; if an earlier flush in the same call succeeded, everything up
 * to the call's start is on disk, so buf_start moves back to it with an
 * empty buffer.  Bytes of the failed pwrite beyond the logical size are
 * cut off by a best-effort truncate (they would be overwritten by the
 * next write anyway; cutting them gives the space back at once).  Reads
 * are bounded by the logical size, never by the file's length, so such
 * bytes are never read either way.  A failed read restores the read
 * position and drops the (possibly half-filled) buffer (read_exact).
 *
 * Lifetime: the struct, the path and the buffer are allocated in the
 * owning context, with a reset callback (tempfile_release) embedded in the
 * struct.  Reset or deletion of the context runs the callback, which
 * closes and unlinks the file: that is how an ERROR, a cancel or the end
 * of a statement removes every temporary file, with no list of open files
 * to walk (and no resource owner, which tupledb's executor does not have
 * for files).  tdb_tempfile_close does the same at once and marks the
 * struct closed (fd -1), so the callback later finds nothing to do.  The
 * context API has no way to unregister a callback, so the struct itself
 * stays until the context goes.
 *
 * Leftovers (tdb_tempfile_remove_all): a crash, kill -9 or power loss
 * runs no callback.  datadir.c calls tdb_tempfile_remove_all on
 * "<datadir>/base/pgsql_tmp" when it opens the directory holding its
 * lock, as PostgreSQL removes its temporary files at startup.
 */
#include "common/base.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/elog.h"
#include "storage/fd.h"
#include "storage/tempfile.h"

/* Names tried before giving up when every one exists already. */
#define CREATE_ATTEMPTS 100

/* Deepest directory nesting tdb_tempfile_remove_all descends into. */
#define REMOVE_MAX_DEPTH 16

struct TempFile {
    MemoryContext cxt; /* owner: holds this struct, path and buffer */
    int fd;            /* the open file, or -1 once closed */
    bool reading;      /* READING mode (else WRITING), see the header */
    char *path;        /* "<dir>/pgsql_tmp<pid>.<n>"; NULL once closed */
    char *buffer;      /* buffer_size bytes; NULL once closed */
    Size buffer_size;  /* bytes allocated for buffer */
    Size buf_len;      /* valid bytes in buffer */
    uint64 buf_start;  /* file offset of buffer[0] */
    uint64 size;       /* logical size: bytes written so far */
    uint64 read_pos;   /* READING: next byte to read */
    MemoryContextCallback release; /* runs tempfile_release() */
};

/*
 * The n of the next file name.  Process-wide and shared by every thread;
 * an atomic counter needs no lock.
 */
static atomic_uint_fast64_t next_file_number;

/* ----------------------------------------------------------------------
 * Creating and closing
 * ---------------------------------------------------------------------- */

/* Close and unlink, ignoring failures: nothing in the file matters any
 * more, and a file left behind is removed at the next directory open. */
static void
close_and_unlink(TempFile *f)
{
    if (f->fd >= 0) {
        (void)tdb_fd_close(f->fd);
        f->fd = -1;
        (void)tdb_fd_unlink(f->path);
    }
}

/* The owning context's reset callback. */
static void
tempfile_release(void *arg)
{
    close_and_unlink(arg);
}

/* mkdir that accepts an existing directory; 0, or -1 with errno. */
static int
make_dir(const char *path)
{
    return tdb_fd_mkdir(path, TDB_DIR_MODE) == 0 || errno == EEXIST ? 0 : -1;
}

/*
 * mkdir -p: create dir (no trailing slash; the function modifies it while
 * it runs and restores it) and its missing parents with TDB_DIR_MODE.  It
 * starts at dir itself and climbs only while a parent is missing, so the
 * usual case -- only dir is missing -- costs one mkdir.  If an existing
 * component is not a directory, the open that follows reports ENOTDIR.
 * Raises on any other failure.
 */
static void
make_dirs(char *dir)
{
    char *end;
    int save_errno;

    if (make_dir(dir) == 0)
        return;
    save_errno = errno;
    end = strrchr(dir, '/');
    while (end != NULL && end > dir && end[-1] == '/')
        end--; /* "a//b": the parent is "a" */
    if (save_errno == ENOENT && end != NULL && end != dir) {
        /* create the parent, then try again */
        *end = '\0';
        make_dirs(dir);
        *end = '/';
        if (make_dir(dir) == 0)
            return;
        save_errno = errno;
    }
    errno = save_errno;
    ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
            errmsg("could not create directory \"%s\": %m", dir));
}

/*
 * Create f's file under a fresh name in dir, creating dir if needed;
 * sets f->path and f->fd.  Raises if it cannot.
 */
static void
open_new_file(TempFile *f, const char *dir)
{
    /* "/" + prefix + pid + "." + n + NUL */
    Size path_size = strlen(dir) + sizeof(TDB_TEMPFILE_PREFIX) + 48;
    bool made_dirs = false;
    int save_errno;

    f->path = tdb_mcxt_alloc(f->cxt, path_size);
    for (int attempt = 1;; attempt++) {
        uint64 n = atomic_fetch_add(&next_file_number, 1);

        snprintf(f->path, path_size, "%s/%s%d.%llu", dir, TDB_TEMPFILE_PREFIX,
                 (int)getpid(), (unsigned long long)n);
        f->fd = tdb_fd_open(f->path, O_RDWR | O_CREAT | O_EXCL, TDB_FILE_MODE);
        if (f->fd >= 0)
            return;
        save_errno = errno;
        if (save_errno == ENOENT && !made_dirs) {
            char *copy = tdb_mcxt_strdup(f->cxt, dir);
            Size len = strlen(copy);

            while (len > 1 && copy[len - 1] == '/')
                copy[--len] = '\0';
            make_dirs(copy);
            tdb_pfree(copy);
            made_dirs = true;
        } else if (save_errno != EEXIST || attempt >= CREATE_ATTEMPTS)
            break;
    }
    errno = save_errno;
    ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
            errmsg("could not create temporary file \"%s\": %m", f->path));
}

TempFile *
tdb_tempfile_create(MemoryContext cxt, const char *dir, Size buffer_size)
{
    TempFile *f;

    if (buffer_size < TDB_TEMPFILE_MIN_BUFFER)
        elog(ERROR, "temporary file buffer of %zu bytes is too small",
             buffer_size);
    /* memory first, so that running out of it cannot leak a descriptor */
    f = tdb_mcxt_alloc_zero(cxt, sizeof(TempFile));
    f->cxt = cxt;
    f->fd = -1;
    f->buffer = tdb_mcxt_alloc(cxt, buffer_size);
    f->buffer_size = buffer_size;
    f->release.func = tempfile_release;
    f->release.arg = f;
    tdb_mcxt_register_reset_callback(cxt, &f->release);
    open_new_file(f, dir);
    return f;
}

void
tdb_tempfile_close(TempFile *f)
{
    if (f->path == NULL)
        return; /* closed already */
    close_and_unlink(f);
    tdb_pfree(f->buffer);
    tdb_pfree(f->path);
    f->buffer = NULL;
    f->path = NULL;
    f->buf_len = 0;
}

/* Misuse of a closed file is a bug in the caller, not a user error. */
static inline void
check_open(const TempFile *f)
{
    if (unlikely(f->fd < 0))
        elog(ERROR, "temporary file used after it was closed");
}

/* ----------------------------------------------------------------------
 * Writing
 * ---------------------------------------------------------------------- */

/*
 * A pwrite for the write starting at logical offset start failed with
 * errno: put the state back to what it was at start (see the header),
 * then raise.
 */
static TDB_NORETURN void
write_failed(TempFile *f, uint64 start)
{
    int save_errno = errno;

    if (start >= f->buf_start)
        f->buf_len = (Size)(start - f->buf_start);
    else {
        /* an earlier flush of this call put [0, start) on disk */
        f->buf_start = start;
        f->buf_len = 0;
    }
    f->size = start;
    (void)tdb_fd_truncate(f->fd, (off_t)f->buf_start); /* best effort */
    errno = save_errno;
    ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
            errmsg("could not write to file \"%s\": %m", f->path));
}

/* WRITING: write the buffer out; it then holds a clean copy of what it
 * wrote, at [buf_start, buf_start + buf_len).  Returns 0, or -1 with
 * errno, changing nothing. */
static int
flush_buffer(TempFile *f)
{
    if (f->buf_len == 0)
        return 0;
    return tdb_fd_pwrite_full(f->fd, f->buffer, f->buf_len,
                              (off_t)f->buf_start);
}

void
tdb_tempfile_write(TempFile *f, const void *data, Size len)
{
    const char *src = data;
    uint64 start;

    check_open(f);
    if (f->reading) {
        /* everything is on disk: start an empty buffer at the end */
        f->reading = false;
        f->buf_start = f->size;
        f->buf_len = 0;
    }
    start = f->size;
    while (len > 0) {
        Size n;

        if (f->buf_len == 0 && len >= f->buffer_size) {
            /* a buffer's worth or more: straight from the caller */
            if (tdb_fd_pwrite_full(f->fd, src, len, (off_t)f->buf_start) != 0)
                write_failed(f, start);
            f->buf_start += len;
            f->size += len;
            return;
        }
        n = Min(len, f->buffer_size - f->buf_len);
        memcpy(f->buffer + f->buf_len, src, n);
        f->buf_len += n;
        f->size += n;
        src += n;
        len -= n;
        if (f->buf_len == f->buffer_size) {
            if (flush_buffer(f) != 0)
                write_failed(f, start);
            f->buf_start += f->buf_len;
            f->buf_len = 0;
        }
    }
}

/* ----------------------------------------------------------------------
 * Reading
 * ---------------------------------------------------------------------- */

void
tdb_tempfile_seek(TempFile *f, uint64 offset)
{
    check_open(f);
    if (offset > f->size)
        elog(ERROR,
             "cannot seek to byte %llu of temporary file \"%s\" of %llu "
             "bytes",
             (unsigned long long)offset, f->path, (unsigned long long)f->size);
    if (!f->reading) {
        if (flush_buffer(f) != 0) {
            int save_errno = errno;

            /* the bytes stay buffered: a retry may still succeed */
            (void)tdb_fd_truncate(f->fd, (off_t)f->buf_start);
            errno = save_errno;
            ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                    errmsg("could not write to file \"%s\": %m", f->path));
        }
        f->reading = true; /* the buffer is now a clean copy */
    }
    f->read_pos = offset;
}

void
tdb_tempfile_rewind(TempFile *f)
{
    tdb_tempfile_seek(f, 0);
}

/*
 * Read len bytes at file offset offset into dest, all of which lie below
 * the logical size.  On failure -- an I/O error, or a file shorter than
 * what was written to it -- the read position goes back to restore_pos,
 * the buffer is dropped (it may be half-filled) and the error raised.
 */
static void
read_exact(TempFile *f, void *dest, Size len, uint64 offset, uint64 restore_pos)
{
    ssize_t nread = tdb_fd_pread_full(f->fd, dest, len, (off_t)offset);
    int save_errno = errno;

    if (nread >= 0 && (Size)nread == len)
        return;
    f->read_pos = restore_pos;
    f->buf_len = 0;
    if (nread < 0) {
        errno = save_errno;
        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not read file \"%s\": %m", f->path));
    }
    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("could not read file \"%s\": read only %zd of %zu bytes",
                   f->path, nread, len));
}

Size
tdb_tempfile_read(TempFile *f, void *data, Size len)
{
    char *dest = data;
    uint64 start;
    Size done = 0;

    check_open(f);
    if (unlikely(!f->reading))
        elog(ERROR, "temporary file \"%s\" is being written, not read",
             f->path);
    start = f->read_pos;
    while (done < len && f->read_pos < f->size) {
        uint64 want = Min((uint64)(len - done), f->size - f->read_pos);
        Size n;

        if (f->read_pos >= f->buf_start &&
            f->read_pos < f->buf_start + f->buf_len) {
            /* from the buffer */
            Size at = (Size)(f->read_pos - f->buf_start);

            n = (Size)Min(want, (uint64)(f->buf_len - at));
            memcpy(dest + done, f->buffer + at, n);
        } else if (want >= f->buffer_size) {
            /* a buffer's worth or more: straight into the caller's */
            n = (Size)want;
            read_exact(f, dest + done, n, f->read_pos, start);
        } else {
            /* refill the buffer at the read position, then copy */
            Size fill =
                (Size)Min((uint64)f->buffer_size, f->size - f->read_pos);

            read_exact(f, f->buffer, fill, f->read_pos, start);
            f->buf_start = f->read_pos;
            f->buf_len = fill;
            continue;
        }
        done += n;
        f->read_pos += n;
    }
    return done;
}

/* ----------------------------------------------------------------------
 * Inspecting, directories
 * ---------------------------------------------------------------------- */

void
tdb_tempfile_truncate(TempFile *f)
{
    check_open(f);
    if (tdb_fd_truncate(f->fd, 0) != 0)
        ereport(ERROR, errcode(tdb_fd_errcode(errno)),
                errmsg("could not truncate file \"%s\": %m", f->path));
    f->reading = false;
    f->buf_start = 0;
    f->buf_len = 0;
    f->size = 0;
    f->read_pos = 0;
}

/* ----------------------------------------------------------------------
 * Readers
 * ---------------------------------------------------------------------- */

struct TempFileReader {
    TempFile *file;
    uint64 pos;       /* next byte to read */
    uint64 start, end;
    char *buffer;
    Size buffer_size;
    uint64 buf_start; /* file offset of buffer[0] */
    Size buf_len;     /* valid bytes in buffer */
};

TempFileReader *
tdb_tempfile_reader_create(TempFile *f, uint64 start, uint64 end,
                           Size buffer_size, MemoryContext cxt)
{
    TempFileReader *r;

    check_open(f);
    if (start > end || end > f->size)
        elog(ERROR, "reader range %llu-%llu outside temporary file \"%s\" "
             "of %llu bytes",
             (unsigned long long)start, (unsigned long long)end, f->path,
             (unsigned long long)f->size);
    if (!f->reading)
        tdb_tempfile_seek(f, 0); /* flush */
    buffer_size = Max(buffer_size, TDB_TEMPFILE_MIN_BUFFER);
    r = tdb_mcxt_alloc_zero(cxt, sizeof(TempFileReader));
    r->file = f;
    r->pos = r->start = start;
    r->end = end;
    r->buffer = tdb_mcxt_alloc(cxt, buffer_size);
    r->buffer_size = buffer_size;
    return r;
}

/* pread exactly len bytes at offset into dest; raises naming the file. */
static void
reader_pread(TempFileReader *r, void *dest, Size len, uint64 offset)
{
    ssize_t nread = tdb_fd_pread_full(r->file->fd, dest, len, (off_t)offset);

    if (nread >= 0 && (Size)nread == len)
        return;
    r->buf_len = 0;
    if (nread < 0)
        ereport(ERROR, errcode(tdb_fd_errcode(errno)),
                errmsg("could not read file \"%s\": %m", r->file->path));
    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("could not read file \"%s\": read only %zd of %zu bytes",
                   r->file->path, nread, len));
}

Size
tdb_tempfile_reader_read(TempFileReader *r, void *data, Size len)
{
    char *dest = data;
    Size done = 0;

    check_open(r->file);
    while (done < len && r->pos < r->end) {
        uint64 want = Min((uint64)(len - done), r->end - r->pos);
        Size n;

        if (r->pos >= r->buf_start && r->pos < r->buf_start + r->buf_len) {
            Size at = (Size)(r->pos - r->buf_start);

            n = (Size)Min(want, (uint64)(r->buf_len - at));
            memcpy(dest + done, r->buffer + at, n);
        } else if (want >= r->buffer_size) {
            n = (Size)want;
            reader_pread(r, dest + done, n, r->pos);
        } else {
            Size fill = (Size)Min((uint64)r->buffer_size, r->end - r->pos);

            reader_pread(r, r->buffer, fill, r->pos);
            r->buf_start = r->pos;
            r->buf_len = fill;
            continue;
        }
        done += n;
        r->pos += n;
    }
    return done;
}

uint64
tdb_tempfile_reader_tell(const TempFileReader *r)
{
    return r->pos;
}

void
tdb_tempfile_reader_seek(TempFileReader *r, uint64 offset)
{
    if (offset < r->start || offset > r->end)
        elog(ERROR, "cannot seek a reader of temporary file \"%s\" to byte "
             "%llu", r->file->path, (unsigned long long)offset);
    r->pos = offset;
}

void
tdb_tempfile_reader_free(TempFileReader *r)
{
    tdb_pfree(r->buffer);
    tdb_pfree(r);
}

uint64
tdb_tempfile_size(const TempFile *f)
{
    return f->size;
}

uint64
tdb_tempfile_tell(const TempFile *f)
{
    return f->reading ? f->read_pos : f->size;
}

const char *
tdb_tempfile_path(const TempFile *f)
{
    check_open(f);
    return f->path;
}

char *
tdb_tempfile_dir_for(MemoryContext cxt, const char *datadir)
{
    static const char suffix[] = "/base/" TDB_TEMPFILE_DIR;
    Size size = strlen(datadir) + sizeof(suffix);
    char *dir = tdb_mcxt_alloc(cxt, size);

    snprintf(dir, size, "%s%s", datadir, suffix);
    return dir;
}

const char *
tdb_tempfile_default_dir(void)
{
    const char *dir = getenv("TMPDIR");

    return dir != NULL && dir[0] != '\0' ? dir : "/tmp";
}

/* Report an entry that could not be removed (errno: why). */
static void
report_not_removed(const char *path)
{
    int save_errno = errno;

    ereport(WARNING, errcode(tdb_fd_errcode(save_errno)),
            errmsg("could not remove file \"%s\": %m", path));
}

/* Remove everything in dir (see tdb_tempfile_remove_all), depth levels
 * below the top; adds the entries removed to *nremoved. */
static void
remove_dir_contents(const char *dir, int depth, uint64 *nremoved)
{
    DIR *d = opendir(dir);
    const struct dirent *entry;

    if (d == NULL) {
        int save_errno = errno;

        if (save_errno != ENOENT || depth > 0)
            ereport(WARNING, errcode(tdb_fd_errcode(save_errno)),
                    errmsg("could not open directory \"%s\": %m", dir));
        return;
    }
    while ((errno = 0, entry = readdir(d)) != NULL) {
        char path[PATH_MAX];
        struct stat st;
        int rc;

        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        if (snprintf(path, sizeof(path), "%s/%s", dir, entry->d_name) >=
            (int)sizeof(path)) {
            errno = ENAMETOOLONG;
            report_not_removed(entry->d_name);
            continue;
        }
        /* lstat: a symbolic link is removed itself, never followed */
        rc = lstat(path, &st);
        if (rc == 0 && S_ISDIR(st.st_mode)) {
            if (depth + 1 < REMOVE_MAX_DEPTH)
                remove_dir_contents(path, depth + 1, nremoved);
            rc = tdb_fd_rmdir(path);
        } else if (rc == 0)
            rc = tdb_fd_unlink(path);
        if (rc == 0)
            (*nremoved)++;
        else if (errno != ENOENT) /* ENOENT: gone meanwhile */
            report_not_removed(path);
    }
    if (errno != 0) {
        int save_errno = errno;

        ereport(WARNING, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not read directory \"%s\": %m", dir));
    }
    (void)closedir(d);
}

uint64
tdb_tempfile_remove_all(const char *dir)
{
    uint64 nremoved = 0;

    remove_dir_contents(dir, 0, &nremoved);
    return nremoved;
}
