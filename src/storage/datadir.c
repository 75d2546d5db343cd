/*
 * datadir.c -- creating, opening, locking and closing a data directory,
 * and keeping its control file.
 *
 * Life of a handle:
 *
 *   create:  mkdir (or accept an empty dir) -> lock -> mkdir global/, base/
 *            -> control file (IN_PRODUCTION) -> TDB_VERSION -> fsync dirs
 *   open:    dir exists? -> TDB_VERSION ok? -> lock -> read + validate the
 *            control file -> remove leftover temporary files
 *            (base/pgsql_tmp) -> rewrite the control file as IN_PRODUCTION
 *   close:   rewrite control file as SHUT_DOWN -> unlink tupledb.pid ->
 *            unlock (close the descriptor) -> delete the handle's context
 *
 * The lock (lock_acquire): open-or-create tupledb.pid, flock it
 * exclusively without waiting, then check the path still names the file
 * that was locked -- a closing holder unlinks tupledb.pid while holding
 * the lock, and an opener that opened the old file just before the unlink
 * would otherwise lock a file nobody else can see.  The winner writes its
 * pid into the file, which is how a loser names the holder.
 *
 * Every handle owns a child memory context; its reset callback
 * (datadir_release) closes the lock descriptor, so an ERROR during open, or
 * deleting the parent context, never leaves the directory locked.
 *
 * Writing files (write_file_durably): temp file, write, fsync, close,
 * rename over the target, fsync the directory.  On a full disk the temp
 * file cannot be written; the control file is then overwritten in place
 * (overwrite_control_in_place), as PostgreSQL always writes pg_control:
 * its 80 bytes lie in one disk sector, whose write is atomic, and its CRC
 * would catch a torn one.  So the statements that free space (TRUNCATE,
 * which hands out a new relation file number, and DROP) still work when
 * the disk is full, and so does opening the directory to run them: a
 * lock file whose pid cannot be written stays empty (only the flock
 * counts).
 */
#include "common/base.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common/crc32c.h"
#include "common/elog.h"
#include "storage/datadir.h"
#include "storage/fd.h"
#include "storage/tempfile.h"

#define VERSION_FILE "TDB_VERSION"
#define LOCK_FILE "tupledb.pid"

/* The control file is small enough to be overwritten atomically (one
 * sector of the smallest disks). */
_Static_assert(sizeof(ControlFileData) <= 512,
               "the control file fits in one sector");

/* Tries before giving up on a lock file that keeps being replaced. */
#define LOCK_ATTEMPTS 100

struct DataDir {
    MemoryContext cxt;            /* this handle's own context (holds it all) */
    char *path;                   /* the directory, as given */
    char *version_path;           /* <path>/TDB_VERSION */
    char *global_dir;             /* <path>/global */
    char *base_dir;               /* <path>/base */
    char *temp_dir;               /* <path>/base/pgsql_tmp (tempfile.h) */
    char *control_path;           /* <path>/global/tdb_control */
    char *control_tmp;            /* <path>/global/tdb_control.tmp */
    char *version_tmp;            /* <path>/TDB_VERSION.tmp */
    char *lock_path;              /* <path>/tupledb.pid */
    int lock_fd;                  /* tupledb.pid, or -1 */
    bool lock_held;               /* lock_fd is flock'ed and is tupledb.pid */
    bool was_clean;               /* control state at open was SHUT_DOWN */
    pthread_mutex_t control_lock; /* protects control and its file */
    ControlFileData control;      /* the control file as last written */
    MemoryContextCallback release_callback; /* runs datadir_release() */
};

/* ----------------------------------------------------------------------
 * Files
 * ---------------------------------------------------------------------- */

/* "<dir>/<name>", allocated in cxt. */
static char *
path_join(MemoryContext cxt, const char *dir, const char *name)
{
    Size size = strlen(dir) + 1 + strlen(name) + 1;
    char *result = tdb_mcxt_alloc(cxt, size);

    snprintf(result, size, "%s/%s", dir, name);
    return result;
}

/* The directory containing path (allocated in cxt). */
static char *
parent_dir(MemoryContext cxt, const char *path)
{
    char *copy = tdb_mcxt_strdup(cxt, path);
    Size len = strlen(copy);
    char *slash;

    while (len > 1 && copy[len - 1] == '/')
        copy[--len] = '\0';
    slash = strrchr(copy, '/');
    if (slash == NULL)
        return tdb_mcxt_strdup(cxt, ".");
    if (slash == copy)
        slash[1] = '\0'; /* the root */
    else
        *slash = '\0';
    return copy;
}

/* fsync a directory's entries; raises on failure. */
static void
fsync_dir_or_error(const char *path)
{
    if (tdb_fd_fsync_dir(path) != 0) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not fsync file \"%s\": %m", path));
    }
}

/*
 * Replace file path (in directory dir) by len bytes of data, crash-safely:
 * tmp_path is written, fsync'ed and closed, renamed over path, and dir is
 * fsync'ed.  A failure before the rename removes tmp_path and leaves path
 * as it was; the error names the step and file.
 */
static void
write_file_durably(const char *dir, const char *path, const char *tmp_path,
                   const void *data, Size len)
{
    const char *failed = NULL; /* the step on tmp_path that failed */
    int save_errno = 0;
    int fd = tdb_fd_open(tmp_path, O_WRONLY | O_CREAT | O_TRUNC, TDB_FILE_MODE);

    if (fd < 0)
        failed = "create";
    else if (tdb_fd_pwrite_full(fd, data, len, 0) != 0)
        failed = "write";
    else if (tdb_fd_fsync(fd) != 0)
        failed = "fsync";
    save_errno = errno;
    if (fd >= 0 && tdb_fd_close(fd) != 0 && failed == NULL) {
        failed = "close";
        save_errno = errno;
    }
    if (failed != NULL) {
        if (fd >= 0)
            (void)tdb_fd_unlink(tmp_path); /* best effort: leave no litter */
        errno = save_errno;
        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not %s file \"%s\": %m", failed, tmp_path),
                save_errno == ENOSPC ? errhint("Check free disk space.") : 0);
    }
    if (tdb_fd_rename(tmp_path, path) != 0) {
        save_errno = errno;
        (void)tdb_fd_unlink(tmp_path); /* best effort, as above */
        errno = save_errno;
        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not rename file \"%s\" to \"%s\": %m", tmp_path,
                       path));
    }
    fsync_dir_or_error(dir);
}

/*
 * Read up to len bytes of file path into buf; returns the count.  Raises
 * "could not open/read file".  missing_ok: return -1 if it does not exist.
 */
static ssize_t
read_small_file(const char *path, void *buf, Size len, bool missing_ok)
{
    int fd = tdb_fd_open(path, O_RDONLY, 0);
    ssize_t nread;

    if (fd < 0) {
        int save_errno = errno;

        if (save_errno == ENOENT && missing_ok)
            return -1;
        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not open file \"%s\": %m", path));
    }
    nread = tdb_fd_pread_full(fd, buf, len, 0);
    if (nread < 0) {
        int save_errno = errno;

        (void)tdb_fd_close(fd); /* read-only: nothing to lose */
        errno = save_errno;
        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not read file \"%s\": %m", path));
    }
    (void)tdb_fd_close(fd);
    return nread;
}

/* mkdir that raises; EEXIST is an error too. */
static void
make_dir(const char *path)
{
    if (tdb_fd_mkdir(path, TDB_DIR_MODE) != 0) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not create directory \"%s\": %m", path));
    }
}

/* ----------------------------------------------------------------------
 * The version file
 * ---------------------------------------------------------------------- */

static void
write_version_file(DataDir *dd)
{
    char text[16];
    int len = snprintf(text, sizeof(text), "%d\n", TDB_DATADIR_VERSION);

    write_file_durably(dd->path, dd->version_path, dd->version_tmp, text,
                       (Size)len);
}

/*
 * Parse TDB_VERSION's contents: decimal digits and a newline, nothing
 * else.  Returns the version, or -1 if the text is not of that form.
 */
static int
parse_version(const char *text, ssize_t len)
{
    int version = 0;
    ssize_t i = 0;

    for (; i < len && text[i] >= '0' && text[i] <= '9'; i++) {
        if (version > (INT_MAX - 9) / 10)
            return -1;
        version = version * 10 + (text[i] - '0');
    }
    if (i == 0 || i + 1 != len || text[i] != '\n')
        return -1;
    return version;
}

/* Check that dd->path is a data directory of this build's version. */
static void
check_version_file(DataDir *dd)
{
    char text[32];
    ssize_t len = read_small_file(dd->version_path, text, sizeof(text), true);
    int version;

    if (len < 0)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_FILE),
                errmsg("\"%s\" is not a valid data directory", dd->path),
                errdetail("File \"%s\" is missing.", dd->version_path));
    version = parse_version(text, len);
    if (version < 0)
        ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                errmsg("\"%s\" is not a valid data directory", dd->path),
                errdetail("File \"%s\" does not contain valid data.",
                          dd->version_path));
    if (version != TDB_DATADIR_VERSION)
        ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                errmsg("database files are incompatible with this build"),
                errdetail("The data directory was initialized with version "
                          "%d, which is not compatible with this version %d.",
                          version, TDB_DATADIR_VERSION));
}

/* ----------------------------------------------------------------------
 * The control file
 * ---------------------------------------------------------------------- */

static uint32
control_crc(const ControlFileData *control)
{
    return tdb_crc32c(control, offsetof(ControlFileData, crc));
}

/*
 * Overwrite the existing control file at path with control, in place:
 * write, fsync.  Needs no free space.  Returns 0, or -1 with errno.
 */
static int
overwrite_control_in_place(const char *path, const ControlFileData *control)
{
    int fd = tdb_fd_open(path, O_WRONLY, 0);
    int rc = 0;
    int save_errno;

    if (fd < 0)
        return -1;
    if (tdb_fd_pwrite_full(fd, control, sizeof(*control), 0) != 0 ||
        tdb_fd_fsync(fd) != 0)
        rc = -1;
    save_errno = errno;
    if (tdb_fd_close(fd) != 0 && rc == 0)
        return -1;
    errno = save_errno;
    return rc;
}

/*
 * Make *control dd's control file (crash-safely), stamping time and CRC.
 * dd->control is updated only once the new file is in place, so after an
 * error the handle still describes what is on disk.  Caller holds
 * control_lock (or is creating/opening/closing).  On a full disk the
 * file is overwritten in place (see the file header).
 */
static void
control_write(DataDir *dd, ControlFileData *control)
{
    control->time = (int64)time(NULL);
    control->crc = control_crc(control);
    TDB_TRY();
    {
        write_file_durably(dd->global_dir, dd->control_path, dd->control_tmp,
                           control, sizeof(*control));
    }
    TDB_CATCH();
    {
        const ErrorData *e = tdb_error_current();

        if (e->sqlerrcode != ERRCODE_DISK_FULL ||
            overwrite_control_in_place(dd->control_path, control) != 0)
            TDB_RE_THROW();
        tdb_error_flush();
    }
    TDB_END_TRY();
    dd->control = *control;
}

static TDB_NORETURN void
report_incompatible(const char *what, uint32 found, uint32 expected)
{
    ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
            errmsg("database files are incompatible with this build"),
            errdetail("The data directory was initialized with %s %u, but "
                      "this build uses %s %u.",
                      what, found, what, expected));
}

/*
 * Read and validate the control file into dd->control.  The order makes
 * each message the most useful one: magic and format version first
 * (readable whatever the format), then size, CRC, build parameters and
 * state.
 */
static void
control_read(DataDir *dd)
{
    /* one spare byte reveals a file that is too long */
    char buf[sizeof(ControlFileData) + 1];
    ssize_t len = read_small_file(dd->control_path, buf, sizeof(buf), false);
    ControlFileData control;
    uint32 crc;

    memset(&control, 0, sizeof(control));
    memcpy(&control, buf,
           (Size)len < sizeof(control) ? (Size)len : sizeof(control));
    if ((Size)len < offsetof(ControlFileData, blcksz) ||
        control.magic != TDB_CONTROL_MAGIC)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("control file \"%s\" contains invalid data",
                       dd->control_path),
                errdetail("It does not start with the tupledb control file "
                          "magic number."));
    if (control.control_version != TDB_CONTROL_VERSION)
        report_incompatible("control file format", control.control_version,
                            TDB_CONTROL_VERSION);
    if ((Size)len < sizeof(control))
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("could not read file \"%s\": read %zd of %zu",
                       dd->control_path, len, sizeof(control)));
    if ((Size)len > sizeof(control))
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("control file \"%s\" is longer than %zu bytes",
                       dd->control_path, sizeof(control)));
    crc = control_crc(&control);
    if (crc != control.crc)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("incorrect checksum in control file \"%s\"",
                       dd->control_path),
                errdetail("The stored CRC-32C is %08X, the contents give "
                          "%08X.",
                          control.crc, crc));
    if (control.blcksz != BLCKSZ)
        report_incompatible("BLCKSZ", control.blcksz, BLCKSZ);
    if (control.relseg_size != RELSEG_SIZE)
        report_incompatible("RELSEG_SIZE", control.relseg_size, RELSEG_SIZE);
    if (control.state != CONTROL_DB_SHUT_DOWN &&
        control.state != CONTROL_DB_IN_PRODUCTION)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("control file \"%s\" contains invalid data",
                       dd->control_path),
                errdetail("The database state %u is unknown.", control.state));
    dd->control = control;
}

/*
 * Write *control as the new control file and release control_lock, which
 * the caller took -- also when the write raises.
 */
static void
control_commit(DataDir *dd, ControlFileData *control)
{
    TDB_TRY();
    {
        control_write(dd, control);
    }
    TDB_CATCH();
    {
        pthread_mutex_unlock(&dd->control_lock);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    pthread_mutex_unlock(&dd->control_lock);
}

/* A unique-enough identifier for a new directory, as PostgreSQL's initdb
 * makes one: creation time in seconds and microseconds, and the pid. */
static uint64
new_system_identifier(void)
{
    struct timeval tv;

    gettimeofday(&tv, NULL);
    return ((uint64)tv.tv_sec << 32) | ((uint64)tv.tv_usec << 12) |
           ((uint64)getpid() & 0xFFF);
}

/* ----------------------------------------------------------------------
 * The lock
 * ---------------------------------------------------------------------- */

/* Close the lock file, which drops the flock. */
static void
lock_release(DataDir *dd)
{
    if (dd->lock_fd >= 0) {
        /* nothing written to it matters: a close error loses nothing */
        (void)tdb_fd_close(dd->lock_fd);
        dd->lock_fd = -1;
    }
    dd->lock_held = false;
}

/*
 * Remove tupledb.pid if we hold the lock, then release it.  Removing
 * first is safe because the lock is still ours; a failure to remove is
 * ignored, since a left-over tupledb.pid is harmless (only the flock
 * counts).  Without the lock the file is someone else's: leave it.
 */
static void
lock_remove(DataDir *dd)
{
    if (dd->lock_held)
        (void)tdb_fd_unlink(dd->lock_path);
    lock_release(dd);
}

/* The pid written into a lock file, or 0 if it holds none (yet). */
static int
lock_holder_pid(int fd)
{
    char text[32];
    ssize_t len = tdb_fd_pread_full(fd, text, sizeof(text) - 1, 0);
    long pid = 0;

    if (len > 0) {
        text[len] = '\0';
        pid = strtol(text, NULL, 10);
    }
    return pid > 0 && pid <= INT_MAX ? (int)pid : 0;
}

static TDB_NORETURN void
report_locked(DataDir *dd, int pid)
{
    if (pid == 0)
        ereport(ERROR, errcode(ERRCODE_LOCK_NOT_AVAILABLE),
                errmsg("data directory \"%s\" is in use by another process",
                       dd->path),
                errhint("Close the other tupledb instance first."));
    ereport(
        ERROR, errcode(ERRCODE_LOCK_NOT_AVAILABLE),
        errmsg("data directory \"%s\" is in use by process %d", dd->path, pid),
        pid == (int)getpid()
            ? errdetail("This process has it open already.")
            : errhint("Close the other tupledb instance first."));
}

/*
 * Take the data directory's lock (see the file header) and write our pid
 * into tupledb.pid.  Raises ERRCODE_LOCK_NOT_AVAILABLE if another handle
 * holds it.  On return dd->lock_held; on error the lock is not held and
 * the descriptor closed.
 */
static void
lock_acquire(DataDir *dd)
{
    char text[16];
    int len;

    for (int attempt = 1; !dd->lock_held; attempt++) {
        bool same = false;
        int save_errno;

        dd->lock_fd =
            tdb_fd_open(dd->lock_path, O_RDWR | O_CREAT, TDB_FILE_MODE);
        if (dd->lock_fd < 0) {
            save_errno = errno;
            ereport(
                ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not create lock file \"%s\": %m", dd->lock_path));
        }
        if (tdb_fd_try_lock(dd->lock_fd) != 0) {
            int pid;

            save_errno = errno;
            pid = lock_holder_pid(dd->lock_fd);
            lock_release(dd);
            if (save_errno == EWOULDBLOCK)
                report_locked(dd, pid);
            errno = save_errno;
            ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                    errmsg("could not lock file \"%s\": %m", dd->lock_path));
        }
        if (tdb_fd_is_same_file(dd->lock_fd, dd->lock_path, &same) != 0) {
            save_errno = errno;
            lock_release(dd);
            errno = save_errno;
            ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                    errmsg("could not stat file \"%s\": %m", dd->lock_path));
        }
        if (same)
            dd->lock_held = true;
        else {
            /* the holder removed the file as we locked it: start again */
            lock_release(dd);
            if (attempt == LOCK_ATTEMPTS)
                ereport(ERROR, errcode(ERRCODE_LOCK_NOT_AVAILABLE),
                        errmsg("could not lock file \"%s\": it keeps being "
                               "replaced",
                               dd->lock_path));
        }
    }

    len = snprintf(text, sizeof(text), "%d\n", (int)getpid());
    if (tdb_fd_truncate(dd->lock_fd, 0) != 0 ||
        tdb_fd_pwrite_full(dd->lock_fd, text, (Size)len, 0) != 0) {
        int save_errno = errno;

        /* on a full disk the lock holds without the pid (see the file
         * header): a loser then reports the directory locked without
         * naming the holder */
        if (save_errno == ENOSPC)
            (void)tdb_fd_truncate(dd->lock_fd, 0);
        else
            ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                    errmsg("could not write lock file \"%s\": %m",
                           dd->lock_path));
    }
}

/* ----------------------------------------------------------------------
 * Creating and opening
 * ---------------------------------------------------------------------- */

/*
 * The handle context's reset callback: whatever path led here (close, an
 * ERROR during open, the parent context reset), the directory ends up
 * unlocked.
 */
static void
datadir_release(void *arg)
{
    DataDir *dd = arg;

    lock_release(dd);
    pthread_mutex_destroy(&dd->control_lock);
}

/* A handle for path, in a new child context of parent; touches no file. */
static DataDir *
datadir_alloc(MemoryContext parent, const char *path)
{
    MemoryContext cxt =
        tdb_aset_create(parent != NULL ? parent : tdb_current_mcxt, "DataDir",
                        ALLOCSET_SMALL_SIZES);
    DataDir *dd = tdb_mcxt_alloc_zero(cxt, sizeof(*dd));

    dd->cxt = cxt;
    dd->lock_fd = -1;
    dd->path = tdb_mcxt_strdup(cxt, path);
    dd->version_path = path_join(cxt, path, VERSION_FILE);
    dd->version_tmp = path_join(cxt, path, VERSION_FILE ".tmp");
    dd->global_dir = path_join(cxt, path, "global");
    dd->base_dir = path_join(cxt, path, "base");
    dd->temp_dir = tdb_tempfile_dir_for(cxt, path);
    dd->control_path = path_join(cxt, dd->global_dir, "tdb_control");
    dd->control_tmp = path_join(cxt, dd->global_dir, "tdb_control.tmp");
    dd->lock_path = path_join(cxt, path, LOCK_FILE);
    pthread_mutex_init(&dd->control_lock, NULL);
    tdb_mcxt_set_ident(cxt, dd->path);

    dd->release_callback.func = datadir_release;
    dd->release_callback.arg = dd;
    tdb_mcxt_register_reset_callback(cxt, &dd->release_callback);
    return dd;
}

/*
 * Build a new data directory at dd->path (see tdb_datadir_create).
 * *made_dir is set once this call has created the directory itself.
 */
static void
datadir_initialize(DataDir *dd, volatile bool *made_dir)
{
    ControlFileData control;
    bool is_empty = false;

    if (tdb_fd_mkdir(dd->path, TDB_DIR_MODE) == 0)
        *made_dir = true;
    else if (errno != EEXIST) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not create directory \"%s\": %m", dd->path));
    } else if (tdb_fd_dir_is_empty(dd->path, &is_empty) != 0) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not open directory \"%s\": %m", dd->path));
    } else if (!is_empty)
        ereport(ERROR, errcode(ERRCODE_DUPLICATE_FILE),
                errmsg("directory \"%s\" exists but is not empty", dd->path),
                errhint("Remove or empty it, or choose another path for "
                        "the new data directory."));

    lock_acquire(dd);
    make_dir(dd->global_dir);
    make_dir(dd->base_dir);

    memset(&control, 0, sizeof(control));
    control.magic = TDB_CONTROL_MAGIC;
    control.control_version = TDB_CONTROL_VERSION;
    control.blcksz = BLCKSZ;
    control.relseg_size = RELSEG_SIZE;
    control.state = CONTROL_DB_IN_PRODUCTION;
    control.system_identifier = new_system_identifier();
    control.next_xid = CONTROL_FIRST_NORMAL_XID;
    control.next_relfilenumber = FirstNormalRelFileNumber;
    control_write(dd, &control);

    /* last: its presence marks a complete directory; this also fsyncs
     * the directory, making global/ and base/ durable */
    write_version_file(dd);
    if (*made_dir)
        fsync_dir_or_error(parent_dir(dd->cxt, dd->path));
    dd->was_clean = true;
}

/*
 * Undo a failed datadir_initialize, best effort (errors are ignored: the
 * caller is about to re-raise the error that matters).  Files are removed
 * only while we hold the lock -- without it they may be another creator's.
 * So if taking the lock itself failed (flock returning an error other than
 * EWOULDBLOCK), an empty tupledb.pid and the directory remain.
 */
static void
datadir_initialize_undo(DataDir *dd, bool made_dir)
{
    if (dd->lock_held) {
        const char *files[] = {dd->version_path, dd->version_tmp,
                               dd->control_path, dd->control_tmp};

        for (Size i = 0; i < lengthof(files); i++)
            (void)tdb_fd_unlink(files[i]);
        (void)tdb_fd_rmdir(dd->global_dir);
        (void)tdb_fd_rmdir(dd->base_dir);
        lock_remove(dd);
    }
    if (made_dir)
        (void)tdb_fd_rmdir(dd->path);
}

/* Open dd->path's existing data directory (see tdb_datadir_open). */
static void
datadir_open_existing(DataDir *dd)
{
    ControlFileData control;
    int fd = tdb_fd_open(dd->path, O_RDONLY | O_DIRECTORY, 0);

    /* the directory first: a clearer error than "TDB_VERSION is missing" */
    if (fd < 0) {
        int save_errno = errno;

        if (save_errno == ENOENT)
            ereport(ERROR, errcode(ERRCODE_UNDEFINED_FILE),
                    errmsg("data directory \"%s\" does not exist", dd->path));
        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not open directory \"%s\": %m", dd->path));
    }
    (void)tdb_fd_close(fd); /* read-only: nothing to lose */

    check_version_file(dd);
    lock_acquire(dd);
    control_read(dd);
    /* temporary files of an earlier opener that crashed: nobody else can
     * be using them while we hold the lock */
    (void)tdb_tempfile_remove_all(dd->temp_dir);
    dd->was_clean = dd->control.state == CONTROL_DB_SHUT_DOWN;
    control = dd->control;
    control.state = CONTROL_DB_IN_PRODUCTION;
    control_write(dd, &control);
}

DataDir *
tdb_datadir_create(MemoryContext parent, const char *path)
{
    DataDir *dd = datadir_alloc(parent, path);
    volatile bool made_dir = false;

    TDB_TRY();
    {
        datadir_initialize(dd, &made_dir);
    }
    TDB_CATCH();
    {
        datadir_initialize_undo(dd, made_dir);
        tdb_mcxt_delete(dd->cxt);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    return dd;
}

DataDir *
tdb_datadir_open(MemoryContext parent, const char *path)
{
    DataDir *dd = datadir_alloc(parent, path);

    TDB_TRY();
    {
        datadir_open_existing(dd);
    }
    TDB_CATCH();
    {
        lock_remove(dd); /* if we got as far as locking */
        tdb_mcxt_delete(dd->cxt);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    return dd;
}

DataDir *
tdb_datadir_open_or_create(MemoryContext parent, const char *path)
{
    bool is_empty = false;

    if (tdb_fd_dir_is_empty(path, &is_empty) != 0) {
        int save_errno = errno;

        if (save_errno != ENOENT)
            ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                    errmsg("could not open directory \"%s\": %m", path));
        is_empty = true; /* missing: create it */
    }
    return is_empty ? tdb_datadir_create(parent, path)
                    : tdb_datadir_open(parent, path);
}

void
tdb_datadir_close(DataDir *dd)
{
    ControlFileData control = dd->control;

    control.state = CONTROL_DB_SHUT_DOWN;
    control_write(dd, &control);
    lock_remove(dd);
    tdb_mcxt_delete(dd->cxt);
}

/* ----------------------------------------------------------------------
 * Reading and updating
 * ---------------------------------------------------------------------- */

const char *
tdb_datadir_path(const DataDir *dd)
{
    return dd->path;
}

const char *
tdb_datadir_temp_dir(const DataDir *dd)
{
    return dd->temp_dir;
}

bool
tdb_datadir_was_shut_down_cleanly(const DataDir *dd)
{
    return dd->was_clean;
}

void
tdb_datadir_get_control(DataDir *dd, ControlFileData *control)
{
    pthread_mutex_lock(&dd->control_lock);
    *control = dd->control;
    pthread_mutex_unlock(&dd->control_lock);
}

TransactionId
tdb_datadir_next_xid(DataDir *dd)
{
    ControlFileData control;

    tdb_datadir_get_control(dd, &control);
    return control.next_xid;
}

void
tdb_datadir_set_next_xid(DataDir *dd, TransactionId next_xid)
{
    ControlFileData control;

    pthread_mutex_lock(&dd->control_lock);
    control = dd->control;
    control.next_xid = next_xid;
    control_commit(dd, &control);
}

RelFileNumber
tdb_datadir_next_relfilenumber(DataDir *dd)
{
    ControlFileData control;

    tdb_datadir_get_control(dd, &control);
    return control.next_relfilenumber;
}

RelFileNumber
tdb_datadir_alloc_relfilenumber(DataDir *dd)
{
    ControlFileData control;
    RelFileNumber result;

    pthread_mutex_lock(&dd->control_lock);
    control = dd->control;
    result = control.next_relfilenumber;
    control.next_relfilenumber =
        result == UINT32_MAX ? FirstNormalRelFileNumber : result + 1;
    control_commit(dd, &control);
    return result;
}
