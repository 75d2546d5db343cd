/*
 * storage_test.h -- helpers shared by the storage unit tests
 * (tests/unit/storage/test_*.c).  Header-only, everything `static
 * TDB_UNUSED`.
 *
 *   test_tmpdir()           a fresh mkdtemp directory under $TMPDIR (or
 *                           /tmp), removed with everything in it when the
 *                           test's memory-context tree is deleted -- also
 *                           when the test fails or an ERROR escapes it.
 *   test_path()             "<dir>/<name>" in the current context.
 *   file_size/file_exists/write_text_file/read_text_file
 *                           raw stdio/stat access, bypassing the code
 *                           under test, to inspect and damage files.
 *   fill_block/block_matches  a BLCKSZ pattern derived from a seed, so a
 *                           read proves which block image came back.
 *   NoticeCapture           collect the WARNINGs a statement emits.
 *   child_start/child_wait  run a function in a forked process (for the
 *                           cross-process lock tests); the child's exit
 *                           status says whether its expectations held.
 *   Signal                  a pipe for "ready"/"go" messages between them.
 */
#ifndef TDB_TESTS_STORAGE_TEST_H
#define TDB_TESTS_STORAGE_TEST_H

#include "common/base.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mmgr/mcxt.h"
#include "storage/block.h"
#include "test.h"

/* ----------------------------------------------------------------------
 * Temporary directories
 * ---------------------------------------------------------------------- */

typedef struct TestDir {
    char path[512];
    MemoryContextCallback cleanup;
} TestDir;

static int
remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

static void
remove_tree(void *arg)
{
    const char *path = arg;

    if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 &&
        errno != ENOENT)
        fprintf(stdout, "    warning: could not remove %s\n", path);
}

/*
 * A new empty directory, removed (recursively) when the test ends.
 * Allocated in TopMemoryContext, whose deletion runs the removal after
 * every other context -- and so every open handle -- is gone.
 */
static TDB_UNUSED const char *
test_tmpdir(void)
{
    TestDir *td = tdb_mcxt_alloc_zero(tdb_top_mcxt, sizeof(TestDir));
    const char *base = getenv("TMPDIR");

    snprintf(td->path, sizeof(td->path), "%s/tdb_storage_XXXXXX",
             base != NULL && *base != '\0' ? base : "/tmp");
    if (mkdtemp(td->path) == NULL) {
        fprintf(stdout, "    mkdtemp(%s) failed: %s\n", td->path,
                strerror(errno));
        abort();
    }
    td->cleanup.func = remove_tree;
    td->cleanup.arg = td->path;
    tdb_mcxt_register_reset_callback(tdb_top_mcxt, &td->cleanup);
    return td->path;
}

/* "<dir>/<name>", allocated in the current context. */
static TDB_UNUSED char *
test_path(const char *dir, const char *name)
{
    Size size = strlen(dir) + strlen(name) + 2;
    char *path = tdb_palloc(size);

    snprintf(path, size, "%s/%s", dir, name);
    return path;
}

/* ----------------------------------------------------------------------
 * Raw file access (not through the code under test)
 * ---------------------------------------------------------------------- */

/* Size of the file at path, or -1 if it does not exist. */
static TDB_UNUSED long long
file_size(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

static TDB_UNUSED bool
file_exists(const char *path)
{
    return file_size(path) >= 0;
}

/* Replace the file's contents by len bytes of data. */
static TDB_UNUSED void
write_raw_file(const char *path, const void *data, Size len)
{
    FILE *f = fopen(path, "wb");

    expect_ptr_not_null(f);
    if (f != NULL) {
        expect_u64_eq(fwrite(data, 1, len, f), len);
        fclose(f);
    }
}

static TDB_UNUSED void
write_text_file(const char *path, const char *contents)
{
    write_raw_file(path, contents, strlen(contents));
}

/* Read up to len bytes of the file into buf; returns the count, -1 if it
 * cannot be opened. */
static TDB_UNUSED long
read_raw_file(const char *path, void *buf, Size len)
{
    FILE *f = fopen(path, "rb");
    long n;

    if (f == NULL)
        return -1;
    n = (long)fread(buf, 1, len, f);
    fclose(f);
    return n;
}

/* Truncate (or extend with zeros) the file at path to size bytes. */
static TDB_UNUSED void
set_file_size(const char *path, long long size)
{
    expect_int_eq(truncate(path, (off_t)size), 0);
}

/* ----------------------------------------------------------------------
 * Block images
 * ---------------------------------------------------------------------- */

/* Fill a BLCKSZ block with a pattern that depends on seed and position. */
static TDB_UNUSED void
fill_block(void *block, uint32 seed)
{
    uint32 *words = block;

    for (uint32 i = 0; i < BLCKSZ / 4; i++)
        words[i] = (seed * 0x9E3779B1u) ^ (i * 0x85EBCA6Bu) ^ i;
}

static TDB_UNUSED bool
block_matches(const void *block, uint32 seed)
{
    char expected[BLCKSZ];

    fill_block(expected, seed);
    return memcmp(block, expected, BLCKSZ) == 0;
}

/* ----------------------------------------------------------------------
 * Capturing WARNINGs
 * ---------------------------------------------------------------------- */

typedef struct NoticeCapture {
    int nwarnings;
    char last[ERRMSG_MAX]; /* message of the last report */
    ErrorNoticeHook old_hook;
    void *old_arg;
} NoticeCapture;

static void
notice_capture_hook(const ErrorData *edata, void *arg)
{
    NoticeCapture *cap = arg;

    if (edata->elevel == WARNING)
        cap->nwarnings++;
    snprintf(cap->last, sizeof(cap->last), "%s", edata->message);
}

static TDB_UNUSED void
notice_capture_begin(NoticeCapture *cap)
{
    memset(cap, 0, sizeof(*cap));
    cap->old_hook =
        tdb_error_set_notice_hook(notice_capture_hook, cap, &cap->old_arg);
}

static TDB_UNUSED void
notice_capture_end(NoticeCapture *cap)
{
    tdb_error_set_notice_hook(cap->old_hook, cap->old_arg, NULL);
}

/* ----------------------------------------------------------------------
 * Child processes
 * ---------------------------------------------------------------------- */

typedef void (*ChildFunc)(void *arg);

/*
 * Fork; the child runs fn(arg) and exits 0 if it returned with every
 * expectation met, 1 if an expectation failed, 2 if an ERROR escaped.
 * The child leaves with _exit, so it runs no cleanup of the parent's
 * (temporary directories, open handles).  Returns the child's pid.
 */
static TDB_UNUSED pid_t
child_start(ChildFunc fn, void *arg)
{
    pid_t pid;

    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        fprintf(stdout, "    fork failed: %s\n", strerror(errno));
        abort();
    }
    if (pid == 0) {
        volatile int status = 0;

        alarm(60); /* never outlive a parent that stopped talking to us */
        tdb_test_state.nfailed_expects = 0;
        TDB_TRY();
        {
            fn(arg);
        }
        TDB_CATCH();
        {
            printf("    child: unexpected error: %s\n",
                   tdb_error_current()->message);
            status = 2;
        }
        TDB_END_TRY();
        if (status == 0 && tdb_test_state.nfailed_expects > 0)
            status = 1;
        fflush(stdout);
        _exit(status);
    }
    return pid;
}

/* Wait for a child; returns its exit status (or 128 + signal). */
static TDB_UNUSED int
child_wait(pid_t pid)
{
    int status;

    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A pipe for one-byte "go" messages between parent and child. */
typedef struct Signal {
    int fds[2];
} Signal;

static TDB_UNUSED void
signal_init(Signal *s)
{
    expect_int_eq(pipe(s->fds), 0);
}

static TDB_UNUSED void
signal_send(Signal *s)
{
    char c = 'x';

    expect_int_eq(write(s->fds[1], &c, 1), 1);
}

/* Wait for one message; false if the other side closed without sending. */
static TDB_UNUSED bool
signal_wait(Signal *s)
{
    char c;
    ssize_t n;

    do
        n = read(s->fds[0], &c, 1);
    while (n < 0 && errno == EINTR);
    return n == 1;
}

/*
 * After fork each process keeps only its end of a pipe, so that a reader
 * sees end-of-file instead of hanging if the other process dies.
 */
static TDB_UNUSED void
signal_sender(Signal *s)
{
    close(s->fds[0]);
    s->fds[0] = -1;
}

static TDB_UNUSED void
signal_receiver(Signal *s)
{
    close(s->fds[1]);
    s->fds[1] = -1;
}

static TDB_UNUSED void
signal_close(Signal *s)
{
    for (int i = 0; i < 2; i++)
        if (s->fds[i] >= 0)
            close(s->fds[i]);
}

#endif /* TDB_TESTS_STORAGE_TEST_H */
