/*
 * test_tempfile.c -- temporary files (storage/tempfile.h).
 *
 *   test_roundtrip_odd_sizes  6 MB written in odd-sized pieces (1 byte to
 *       5 buffers), read back in differently odd pieces, with 1 kB and
 *       8 kB buffers; counts short only at the end.
 *   test_buffering_and_size   size counts buffered bytes; nothing reaches
 *       the disk before the buffer fills or a rewind; name and mode.
 *   test_existing_names_skipped  a name that exists already (a dead
 *       process's file) is skipped, and the file left intact.
 *   test_rewind_seek_append   rewind and re-read, seek and tell, writing
 *       again after reading appends at the end.
 *   test_close_unlinks        close removes the file; closing twice is a
 *       no-op; use after close is an internal error.
 *   test_context_end_unlinks  deleting or resetting the owning context
 *       (or its parent) removes every file; a reset context can make new
 *       ones.
 *   test_close_then_delete    a closed file's callback closes nothing: a
 *       descriptor that reuses the number survives the context's end.
 *   test_misuse               buffer too small, read while writing, seek
 *       past the end.
 *   test_create_errors        a missing directory is created with its
 *       parents (0700); an impossible one raises with the path and %m.
 *   test_enospc_mid_write     injected ENOSPC in a buffered flush, a
 *       direct write, a short write + ENOSPC and a rewind: 53100 with
 *       PostgreSQL's message, size unchanged, the file still usable with
 *       the right contents, and nothing left after the context ends.
 *   test_read_errors          injected EIO and a file truncated behind
 *       our back raise; the read position is unchanged.
 *   test_fault_loops          STYLE.md's loop: fail open, mkdir, write,
 *       read number 1, 2, 3, ... of a workload until it succeeds; each
 *       run ends in success or a clean ERROR and leaves no file.
 *   test_many_files           300 files open at once, each with its own
 *       contents; the directory is empty afterwards.
 *   test_threads              4 threads creating files at once: distinct
 *       names, no file left.
 *   test_dirs                 tdb_tempfile_dir_for, tdb_tempfile_default_dir.
 *   test_orphan_cleanup       opening a data directory empties
 *       base/pgsql_tmp (files, subdirectories, symlinks without their
 *       targets); an opener that does not get the lock removes nothing.
 */
#include "common/base.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>

#include "storage/datadir.h"
#include "storage/fd.h"
#include "storage/tempfile.h"
#include "storage_test.h"

/* ----------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------- */

/* The byte at offset pos of a file written with seed. */
static inline uint8
pattern_byte(uint64 pos, uint32 seed)
{
    uint64 x = (pos + 1) * 0x9E3779B97F4A7C15ull ^ ((uint64)seed << 32);

    return (uint8)(x >> 56);
}

static void
fill_pattern(uint8 *buf, Size len, uint64 pos, uint32 seed)
{
    for (Size i = 0; i < len; i++)
        buf[i] = pattern_byte(pos + i, seed);
}

/* Index of the first byte of buf that is not the pattern at pos, or len. */
static Size
pattern_mismatch(const uint8 *buf, Size len, uint64 pos, uint32 seed)
{
    for (Size i = 0; i < len; i++)
        if (buf[i] != pattern_byte(pos + i, seed))
            return i;
    return len;
}

/* Entries in dir besides . and .., or -1 if it cannot be opened. */
static int
count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    const struct dirent *e;
    int n = 0;

    if (d == NULL)
        return -1;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

/* Append len pattern bytes (seed) to f, at its current size. */
static void
write_pattern(TempFile *f, Size len, uint32 seed)
{
    uint8 *buf = tdb_palloc(Max(len, 1));

    fill_pattern(buf, len, tdb_tempfile_size(f), seed);
    tdb_tempfile_write(f, buf, len);
    tdb_pfree(buf);
}

/*
 * Read everything from the read position on in pieces of piece bytes
 * and check it is the pattern; returns the bytes read.
 */
static uint64
check_pattern_rest(TempFile *f, Size piece, uint32 seed)
{
    uint8 *buf = tdb_palloc(piece);
    uint64 pos = tdb_tempfile_tell(f);
    uint64 total = 0;

    for (;;) {
        Size n = tdb_tempfile_read(f, buf, piece);
        Size bad = pattern_mismatch(buf, n, pos, seed);

        if (bad != n) {
            expect_u64_eq(pos + bad, UINT64_MAX); /* prints the offset */
            break;
        }
        pos += n;
        total += n;
        if (n < piece)
            break;
    }
    expect_u64_eq(tdb_tempfile_read(f, buf, piece), 0); /* stays at end */
    tdb_pfree(buf);
    return total;
}

/* A piece size: mostly small and odd, sometimes several buffers. */
static Size
odd_size(uint64 *rng, Size buffer_size)
{
    uint64 r = tdb_test_rand(rng);

    switch (r % 8) {
    case 0:
        return 1;
    case 1:
        return (Size)(r >> 8) % (5 * buffer_size) + 1;
    case 2:
        return buffer_size - 1 + (Size)(r >> 8) % 3; /* around the buffer */
    default:
        return (Size)(r >> 8) % 997 + 1;
    }
}

/* ----------------------------------------------------------------------
 * Tests
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_roundtrip_odd_sizes)
{
    const char *dir = test_tmpdir();
    const Size buffer_sizes[] = {TDB_TEMPFILE_MIN_BUFFER, 8192};
    const uint64 target = 6 * 1024 * 1024;
    uint64 seed = tdb_test_seed();

    for (Size b = 0; b < lengthof(buffer_sizes); b++) {
        Size bufsize = buffer_sizes[b];
        uint64 rng = seed + b;
        TempFile *f = tdb_tempfile_create(tdb_current_mcxt, dir, bufsize);
        uint8 *chunk = tdb_palloc(5 * bufsize + 2);
        uint64 pos = 0, mismatch_at = UINT64_MAX;

        while (pos < target) {
            Size n = odd_size(&rng, bufsize);

            fill_pattern(chunk, n, pos, (uint32)b);
            tdb_tempfile_write(f, chunk, n);
            pos += n;
            expect_u64_eq(tdb_tempfile_size(f), pos);
        }
        tdb_tempfile_rewind(f);
        expect_u64_eq(file_size(tdb_tempfile_path(f)), pos);

        /* read back in other odd pieces */
        for (uint64 rpos = 0; rpos < pos;) {
            Size want = odd_size(&rng, bufsize);
            Size got = tdb_tempfile_read(f, chunk, want);
            Size bad = pattern_mismatch(chunk, got, rpos, (uint32)b);

            if (got < want)
                expect_u64_eq(rpos + got, pos); /* short only at the end */
            if (bad != got && mismatch_at == UINT64_MAX)
                mismatch_at = rpos + bad;
            if (got == 0)
                break;
            rpos += got;
            expect_u64_eq(tdb_tempfile_tell(f), rpos);
        }
        expect_u64_eq(mismatch_at, UINT64_MAX);
        expect_u64_eq(tdb_tempfile_read(f, chunk, 10), 0);
        tdb_tempfile_close(f);
        tdb_pfree(chunk);
    }
    expect_int_eq(count_entries(dir), 0);
}
TEST_END

TEST_BEGIN(test_buffering_and_size)
{
    const char *dir = test_tmpdir();
    TempFile *f = tdb_tempfile_create(tdb_current_mcxt, dir, 4096);
    const char *path = tdb_tempfile_path(f);
    char expected_prefix[64];
    struct stat st;
    char buf[5000];

    /* named pgsql_tmp<pid>.<n>, 0600, empty */
    snprintf(expected_prefix, sizeof(expected_prefix), "/pgsql_tmp%d.",
             (int)getpid());
    expect_str_contains(path, expected_prefix);
    expect_int_eq(strncmp(path, dir, strlen(dir)), 0);
    expect_int_eq(stat(path, &st), 0);
    expect_int_eq(st.st_mode & 0777, 0600);
    expect_u64_eq(tdb_tempfile_size(f), 0);

    /* buffered: counted, not on disk yet */
    write_pattern(f, 100, 7);
    expect_u64_eq(tdb_tempfile_size(f), 100);
    expect_int_eq(file_size(path), 0);
    write_pattern(f, 3995, 7);
    expect_u64_eq(tdb_tempfile_size(f), 4095);
    expect_int_eq(file_size(path), 0);
    /* the 4096th byte fills the buffer, which goes out */
    write_pattern(f, 2, 7);
    expect_u64_eq(tdb_tempfile_size(f), 4097);
    expect_int_eq(file_size(path), 4096);

    /* a zero-length write is nothing */
    tdb_tempfile_write(f, buf, 0);
    expect_u64_eq(tdb_tempfile_size(f), 4097);

    tdb_tempfile_rewind(f);
    expect_int_eq(file_size(path), 4097);
    expect_u64_eq(tdb_tempfile_size(f), 4097);
    expect_u64_eq(tdb_tempfile_read(f, buf, sizeof(buf)), 4097);
    expect_u64_eq(pattern_mismatch((uint8 *)buf, 4097, 0, 7), 4097);

    /* an empty file reads as empty */
    f = tdb_tempfile_create(tdb_current_mcxt, dir, 4096);
    tdb_tempfile_rewind(f);
    expect_u64_eq(tdb_tempfile_read(f, buf, sizeof(buf)), 0);
    expect_u64_eq(tdb_tempfile_size(f), 0);
}
TEST_END

TEST_BEGIN(test_existing_names_skipped)
{
    const char *dir = test_tmpdir();
    TempFile *f = tdb_tempfile_create(tdb_current_mcxt, dir, 1024);
    unsigned long long n =
        strtoull(strrchr(tdb_tempfile_path(f), '.') + 1, NULL, 10);
    char name[64], contents[16];
    TempFile *g;

    /* the next names are taken (a dead process with our pid, in a
     * shared /tmp): they are skipped, not truncated */
    for (unsigned long long k = 1; k <= 5; k++) {
        snprintf(name, sizeof(name), "pgsql_tmp%d.%llu", (int)getpid(), n + k);
        write_text_file(test_path(dir, name), "precious");
    }
    g = tdb_tempfile_create(tdb_current_mcxt, dir, 1024);
    snprintf(name, sizeof(name), "/pgsql_tmp%d.%llu", (int)getpid(), n + 6);
    expect_str_contains(tdb_tempfile_path(g), name);
    write_pattern(g, 3000, 1);
    tdb_tempfile_close(g);
    tdb_tempfile_close(f);
    for (unsigned long long k = 1; k <= 5; k++) {
        snprintf(name, sizeof(name), "pgsql_tmp%d.%llu", (int)getpid(), n + k);
        memset(contents, 0, sizeof(contents));
        expect_int_eq(
            read_raw_file(test_path(dir, name), contents, sizeof(contents) - 1),
            8);
        expect_str_eq(contents, "precious");
    }
    expect_int_eq(count_entries(dir), 5);
}
TEST_END

TEST_BEGIN(test_rewind_seek_append)
{
    const char *dir = test_tmpdir();
    TempFile *f = tdb_tempfile_create(tdb_current_mcxt, dir, 1024);
    uint8 buf[3000];

    write_pattern(f, 50000, 3);
    tdb_tempfile_rewind(f);
    expect_u64_eq(tdb_tempfile_tell(f), 0);
    expect_u64_eq(tdb_tempfile_read(f, buf, 777), 777);
    expect_u64_eq(pattern_mismatch(buf, 777, 0, 3), 777);
    expect_u64_eq(tdb_tempfile_tell(f), 777);

    /* rewind and re-read everything, twice */
    for (int pass = 0; pass < 2; pass++) {
        tdb_tempfile_rewind(f);
        expect_u64_eq(check_pattern_rest(f, 333, 3), 50000);
    }

    /* seek: into the buffered window, behind it, to the very end */
    tdb_tempfile_seek(f, 49990);
    expect_u64_eq(tdb_tempfile_read(f, buf, 100), 10);
    expect_u64_eq(pattern_mismatch(buf, 10, 49990, 3), 10);
    tdb_tempfile_seek(f, 49500);
    expect_u64_eq(tdb_tempfile_tell(f), 49500);
    expect_u64_eq(check_pattern_rest(f, 1, 3), 500);
    tdb_tempfile_seek(f, 12345);
    expect_u64_eq(check_pattern_rest(f, 2048, 3), 50000 - 12345);
    tdb_tempfile_seek(f, 50000);
    expect_u64_eq(tdb_tempfile_read(f, buf, 1), 0);

    /* writing after reading appends at the end */
    tdb_tempfile_seek(f, 100);
    write_pattern(f, 20001, 3);
    expect_u64_eq(tdb_tempfile_size(f), 70001);
    expect_u64_eq(tdb_tempfile_tell(f), 70001);
    write_pattern(f, 5, 3);
    tdb_tempfile_rewind(f);
    expect_u64_eq(check_pattern_rest(f, 4096, 3), 70006);
    expect_u64_eq(file_size(tdb_tempfile_path(f)), 70006);

    /* and a small file is read back from its buffer after a rewind */
    f = tdb_tempfile_create(tdb_current_mcxt, dir, 1024);
    write_pattern(f, 600, 9);
    tdb_tempfile_rewind(f);
    expect_u64_eq(check_pattern_rest(f, 7, 9), 600);
    tdb_tempfile_seek(f, 599);
    expect_u64_eq(check_pattern_rest(f, 7, 9), 1);
}
TEST_END

/* Readers: independent cursors over ranges of one file; truncation. */
TEST_BEGIN(test_readers_and_truncate)
{
    const char *dir = test_tmpdir();
    TempFile *f = tdb_tempfile_create(tdb_current_mcxt, dir, 4096);
    TempFileReader *r[3];
    uint64 at[3] = {0, 20000, 45000}, end[3] = {20000, 45000, 60000};
    uint8 buf[2500];
    bool more = true;

    write_pattern(f, 60000, 5);
    /* created while the file is still being written: flushes it */
    for (int i = 0; i < 3; i++)
        r[i] = tdb_tempfile_reader_create(f, at[i], end[i], 1024 + 1000 * i,
                                          tdb_current_mcxt);
    expect_u64_eq(file_size(tdb_tempfile_path(f)), 60000);
    /* interleaved reads of odd sizes, each stopping at its range's end */
    while (more) {
        more = false;
        for (int i = 0; i < 3; i++) {
            Size want = (Size)(37 + 911 * i) % sizeof(buf) + 1;
            Size got = tdb_tempfile_reader_read(r[i], buf, want);

            expect_u64_eq(pattern_mismatch(buf, got, at[i], 5), got);
            at[i] += got;
            expect_u64_eq(tdb_tempfile_reader_tell(r[i]), at[i]);
            if (got == want)
                more = true;
            else
                expect_u64_eq(at[i], end[i]);
        }
    }
    /* seek back inside a range, and past a buffer's worth in one read */
    tdb_tempfile_reader_seek(r[1], 21000);
    expect_u64_eq(tdb_tempfile_reader_read(r[1], buf, 2400), 2400);
    expect_u64_eq(pattern_mismatch(buf, 2400, 21000, 5), 2400);
    expect_error(tdb_tempfile_reader_seek(r[1], 45001), ERRCODE_INTERNAL_ERROR,
                 "cannot seek");
    expect_error(tdb_tempfile_reader_create(f, 10, 60001, 1024,
                                            tdb_current_mcxt),
                 ERRCODE_INTERNAL_ERROR, "outside");
    for (int i = 0; i < 3; i++)
        tdb_tempfile_reader_free(r[i]);

    /* truncate: empty, then written and read again from the start */
    tdb_tempfile_truncate(f);
    expect_u64_eq(tdb_tempfile_size(f), 0);
    expect_u64_eq(file_size(tdb_tempfile_path(f)), 0);
    write_pattern(f, 3000, 6);
    r[0] = tdb_tempfile_reader_create(f, 0, 3000, 1024, tdb_current_mcxt);
    expect_u64_eq(tdb_tempfile_reader_read(r[0], buf, sizeof(buf)), 2500);
    expect_u64_eq(pattern_mismatch(buf, 2500, 0, 6), 2500);
    tdb_tempfile_close(f);
}
TEST_END

TEST_BEGIN(test_close_unlinks)
{
    const char *dir = test_tmpdir();
    TempFile *f = tdb_tempfile_create(tdb_current_mcxt, dir, 8192);
    TempFile *g = tdb_tempfile_create(tdb_current_mcxt, dir, 8192);
    char *path = tdb_pstrdup(tdb_tempfile_path(f));

    write_pattern(f, 100000, 1);
    expect_true(file_exists(path));
    expect_int_eq(count_entries(dir), 2);
    tdb_tempfile_close(f);
    expect_false(file_exists(path));
    expect_int_eq(count_entries(dir), 1);
    tdb_tempfile_close(f); /* twice: nothing */
    expect_u64_eq(tdb_tempfile_size(f), 100000);

    /* a closed file cannot be used */
    expect_error(tdb_tempfile_write(f, "x", 1), ERRCODE_INTERNAL_ERROR,
                 "closed");
    expect_error(tdb_tempfile_rewind(f), ERRCODE_INTERNAL_ERROR, "closed");
    expect_error(tdb_tempfile_path(f), ERRCODE_INTERNAL_ERROR, "closed");

    /* the other file is untouched */
    write_pattern(g, 10, 1);
    tdb_tempfile_close(g);
    expect_int_eq(count_entries(dir), 0);
}
TEST_END

TEST_BEGIN(test_context_end_unlinks)
{
    const char *dir = test_tmpdir();
    MemoryContext parent =
        tdb_aset_create(tdb_current_mcxt, "parent", ALLOCSET_DEFAULT_SIZES);
    MemoryContext cxt =
        tdb_aset_create(parent, "ExecutorState", ALLOCSET_DEFAULT_SIZES);
    TempFile *f;

    /* delete: written, read, empty and buffered-only files all go */
    f = tdb_tempfile_create(cxt, dir, 8192);
    write_pattern(f, 30000, 2);
    tdb_tempfile_rewind(f);
    f = tdb_tempfile_create(cxt, dir, 8192);
    write_pattern(f, 10, 2);
    (void)tdb_tempfile_create(cxt, dir, 1024);
    expect_int_eq(count_entries(dir), 3);
    tdb_mcxt_delete(cxt);
    expect_int_eq(count_entries(dir), 0);

    /* reset: the files go, the context makes new ones */
    cxt = tdb_aset_create(parent, "ExecutorState", ALLOCSET_DEFAULT_SIZES);
    f = tdb_tempfile_create(cxt, dir, 8192);
    write_pattern(f, 20000, 2);
    (void)tdb_tempfile_create(cxt, dir, 8192);
    expect_int_eq(count_entries(dir), 2);
    tdb_mcxt_reset(cxt);
    expect_int_eq(count_entries(dir), 0);
    f = tdb_tempfile_create(cxt, dir, 8192);
    write_pattern(f, 20000, 2);
    expect_int_eq(count_entries(dir), 1);

    /* resetting the parent deletes the child, and the files with it */
    (void)tdb_tempfile_create(parent, dir, 8192);
    expect_int_eq(count_entries(dir), 2);
    tdb_mcxt_reset(parent);
    expect_int_eq(count_entries(dir), 0);
    tdb_mcxt_delete(parent);
}
TEST_END

TEST_BEGIN(test_close_then_delete)
{
    const char *dir = test_tmpdir();
    MemoryContext cxt =
        tdb_aset_create(tdb_current_mcxt, "owner", ALLOCSET_DEFAULT_SIZES);
    TempFile *f = tdb_tempfile_create(cxt, dir, 8192);
    uint64 closes_before;
    int other;

    write_pattern(f, 9000, 4);
    tdb_tempfile_close(f);
    expect_int_eq(count_entries(dir), 0);

    /* the lowest free descriptor is the one the temp file had: a second
     * close from the callback would close this file */
    other = open(test_path(dir, "other"), O_RDWR | O_CREAT, 0600);
    expect_int_ne(other, -1);
    closes_before = tdb_fd_op_count(FD_OP_CLOSE);
    tdb_mcxt_delete(cxt);
    expect_u64_eq(tdb_fd_op_count(FD_OP_CLOSE), closes_before);
    expect_int_ne(fcntl(other, F_GETFD), -1);
    expect_true(file_exists(test_path(dir, "other")));
    close(other);
}
TEST_END

TEST_BEGIN(test_misuse)
{
    const char *dir = test_tmpdir();
    TempFile *f;
    char buf[10];

    expect_error(tdb_tempfile_create(tdb_current_mcxt, dir, 1023),
                 ERRCODE_INTERNAL_ERROR, "too small");
    expect_int_eq(count_entries(dir), 0);

    f = tdb_tempfile_create(tdb_current_mcxt, dir, 1024);
    write_pattern(f, 10, 1);
    expect_error(tdb_tempfile_read(f, buf, 1), ERRCODE_INTERNAL_ERROR,
                 "being written");
    expect_error(tdb_tempfile_seek(f, 11), ERRCODE_INTERNAL_ERROR,
                 "cannot seek");
    tdb_tempfile_seek(f, 10);
    expect_u64_eq(tdb_tempfile_read(f, buf, 1), 0);
}
TEST_END

TEST_BEGIN(test_create_errors)
{
    const char *dir = test_tmpdir();
    const char *deep = test_path(dir, "a/b//c/");
    const char *blocker = test_path(dir, "file");
    TempFile *f;
    struct stat st;

    /* missing parents are created, 0700 */
    f = tdb_tempfile_create(tdb_current_mcxt, deep, 1024);
    write_pattern(f, 5000, 1);
    expect_int_eq(stat(test_path(dir, "a/b/c"), &st), 0);
    expect_true(S_ISDIR(st.st_mode));
    expect_int_eq(st.st_mode & 0777, 0700);
    expect_int_eq(stat(test_path(dir, "a"), &st), 0);
    expect_int_eq(st.st_mode & 0777, 0700);
    expect_int_eq(count_entries(test_path(dir, "a/b/c")), 1);
    tdb_tempfile_close(f);
    expect_int_eq(count_entries(test_path(dir, "a/b/c")), 0);

    /* a directory that cannot exist: the error names the path and why */
    write_text_file(blocker, "x");
    expect_error(
        tdb_tempfile_create(tdb_current_mcxt, test_path(blocker, "sub"), 8192),
        ERRCODE_WRONG_OBJECT_TYPE, ": Not a directory");
    expect_str_contains(tdb_test_last_error.message, blocker);
    expect_str_contains(tdb_test_last_error.message,
                        "could not create temporary file");

    /* mkdir refused (injected: the tests may run as root) */
    if (config_debug) {
        const char *refused = test_path(dir, "x/y");

        expect_true(tdb_fd_inject(FD_OP_MKDIR, 2, EACCES));
        expect_error(tdb_tempfile_create(tdb_current_mcxt, refused, 8192),
                     ERRCODE_INSUFFICIENT_PRIVILEGE,
                     "could not create directory \"");
        expect_str_contains(tdb_test_last_error.message, ": Permission denied");
        /* the second mkdir was the parent's */
        expect_str_contains(tdb_test_last_error.message, "/x\": ");
        expect_int_eq(count_entries(test_path(dir, "x")), -1);
    }
    expect_int_eq(count_entries(dir), 2); /* "a" and "file" */
}
TEST_END

TEST_BEGIN(test_enospc_mid_write)
{
    const char *dir = test_tmpdir();
    MemoryContext cxt;
    TempFile *f;
    uint8 *big;
    char message[1024];

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    cxt = tdb_aset_create(tdb_current_mcxt, "owner", ALLOCSET_DEFAULT_SIZES);
    f = tdb_tempfile_create(cxt, dir, 8192);
    big = tdb_palloc(40000);

    /* 1. a buffered write whose flush fails: nothing of it counts */
    write_pattern(f, 5000, 5);
    expect_true(tdb_fd_inject(FD_OP_WRITE, 1, ENOSPC));
    fill_pattern(big, 4000, 5000, 5);
    expect_error(tdb_tempfile_write(f, big, 4000), ERRCODE_DISK_FULL,
                 "could not write to file");
    snprintf(message, sizeof(message),
             "could not write to file \"%s\": No space left on device",
             tdb_tempfile_path(f));
    expect_str_eq(tdb_test_last_error.message, message);
    expect_u64_eq(tdb_tempfile_size(f), 5000);

    /* 2. a flush that succeeds, then a direct write that fails in the
     *    same call: the call's start is on disk, nothing after it */
    fill_pattern(big, 30000, 5000, 5);
    expect_true(tdb_fd_inject(FD_OP_WRITE, 2, ENOSPC));
    expect_error(tdb_tempfile_write(f, big, 30000), ERRCODE_DISK_FULL,
                 "No space left on device");
    expect_u64_eq(tdb_tempfile_size(f), 5000);
    expect_int_eq(tdb_fd_inject_pending(), 0);

    /* 3. a short write, then ENOSPC: part of it reached the disk, and is
     *    cut off again */
    expect_true(tdb_fd_inject(FD_OP_WRITE, 1, FD_FAULT_SHORT));
    expect_true(tdb_fd_inject(FD_OP_WRITE, 2, ENOSPC));
    expect_error(tdb_tempfile_write(f, big, 30000), ERRCODE_DISK_FULL,
                 "No space left on device");
    expect_u64_eq(tdb_tempfile_size(f), 5000);
    expect_u64_le(file_size(tdb_tempfile_path(f)), 5000);

    /* the file goes on from where it was */
    write_pattern(f, 20000, 5);
    expect_u64_eq(tdb_tempfile_size(f), 25000);

    /* 4. the flush in rewind fails: the bytes stay buffered, a retry
     *    writes them */
    write_pattern(f, 100, 5);
    expect_true(tdb_fd_inject(FD_OP_WRITE, 1, ENOSPC));
    expect_error(tdb_tempfile_rewind(f), ERRCODE_DISK_FULL,
                 "No space left on device");
    expect_u64_eq(tdb_tempfile_size(f), 25100);
    tdb_tempfile_rewind(f);
    expect_u64_eq(check_pattern_rest(f, 999, 5), 25100);

    /* 5. after an ERROR the statement's context goes, and the file */
    write_pattern(f, 50000, 5);
    expect_true(tdb_fd_inject(FD_OP_WRITE, 1, ENOSPC));
    expect_error(write_pattern(f, 50000, 5), ERRCODE_DISK_FULL, NULL);
    expect_int_eq(count_entries(dir), 1);
    tdb_mcxt_delete(cxt);
    expect_int_eq(count_entries(dir), 0);
    tdb_fd_inject_clear();
}
TEST_END

TEST_BEGIN(test_read_errors)
{
    const char *dir = test_tmpdir();
    TempFile *f = tdb_tempfile_create(tdb_current_mcxt, dir, 1024);
    uint8 buf[5000];

    write_pattern(f, 20000, 6);
    tdb_tempfile_seek(f, 3000);
    if (config_debug) {
        /* a failed refill, a failed direct read */
        expect_true(tdb_fd_inject(FD_OP_READ, 1, EIO));
        expect_error(tdb_tempfile_read(f, buf, 100), ERRCODE_IO_ERROR,
                     "could not read file");
        expect_str_contains(tdb_test_last_error.message, "Input/output error");
        expect_u64_eq(tdb_tempfile_tell(f), 3000);
        expect_u64_eq(tdb_tempfile_read(f, buf, 100), 100);
        expect_u64_eq(pattern_mismatch(buf, 100, 3000, 6), 100);
        /* 100 from the buffer, then a direct read that fails */
        expect_true(tdb_fd_inject(FD_OP_READ, 1, EIO));
        expect_error(tdb_tempfile_read(f, buf, 5000), ERRCODE_IO_ERROR, NULL);
        expect_u64_eq(tdb_tempfile_tell(f), 3100);
        expect_u64_eq(check_pattern_rest(f, 5000, 6), 20000 - 3100);
    }

    /* someone truncated the file: DATA_CORRUPTED, position kept */
    tdb_tempfile_seek(f, 0);
    set_file_size(tdb_tempfile_path(f), 10000);
    tdb_tempfile_seek(f, 9000);
    expect_error(tdb_tempfile_read(f, buf, 5000), ERRCODE_DATA_CORRUPTED,
                 "read only");
    expect_u64_eq(tdb_tempfile_tell(f), 9000);
}
TEST_END

/* test_fault_loops: the workload, owning its files through cxt (the
 * executor's context, which the statement boundary deletes). */
static void
fault_workload(MemoryContext cxt, const char *dir)
{
    TempFile *a = tdb_tempfile_create(cxt, dir, 1024);
    TempFile *b = tdb_tempfile_create(cxt, dir, 2048);
    uint64 rng = 42;

    for (int i = 0; i < 200; i++) {
        write_pattern(a, odd_size(&rng, 1024), 1);
        write_pattern(b, odd_size(&rng, 2048), 2);
    }
    tdb_tempfile_rewind(a);
    tdb_tempfile_rewind(b);
    expect_u64_eq(check_pattern_rest(a, 1500, 1), tdb_tempfile_size(a));
    expect_u64_eq(check_pattern_rest(b, 100, 2), tdb_tempfile_size(b));
    tdb_tempfile_close(a);
}

/*
 * test_fault_loops: one run of the workload with call n of op failing
 * with err, as a statement: its context is deleted at the end, whatever
 * happened.  Returns whether the run failed, which must be with sqlstate.
 */
static bool
fault_run(FdOp op, uint32 n, int err, int sqlstate, const char *dir)
{
    MemoryContext cxt = tdb_aset_create(tdb_current_mcxt, "ExecutorState",
                                        ALLOCSET_SMALL_SIZES);
    volatile bool failed = false;

    expect_true(tdb_fd_inject(op, n, err));
    TDB_TRY();
    {
        fault_workload(cxt, dir);
    }
    TDB_CATCH();
    {
        failed = true;
        if (tdb_error_current()->sqlerrcode != sqlstate)
            expect_str_eq(tdb_error_current()->message, "(other error)");
        tdb_error_flush();
    }
    TDB_END_TRY();
    tdb_mcxt_delete(cxt);
    /* no file remains (or no directory was made) */
    expect_true(count_entries(dir) <= 0);
    return failed;
}

TEST_BEGIN(test_fault_loops)
{
    static const struct {
        FdOp op;
        int err;
        int sqlstate;
    } cases[] = {
        {FD_OP_OPEN, EMFILE, ERRCODE_INSUFFICIENT_RESOURCES},
        {FD_OP_MKDIR, EACCES, ERRCODE_INSUFFICIENT_PRIVILEGE},
        {FD_OP_WRITE, ENOSPC, ERRCODE_DISK_FULL},
        {FD_OP_READ, EIO, ERRCODE_IO_ERROR},
    };
    const char *top = test_tmpdir();

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    for (Size c = 0; c < lengthof(cases); c++) {
        /* for mkdir, a directory two levels deep that does not exist */
        const char *dir =
            test_path(top, cases[c].op == FD_OP_MKDIR ? "new/dir" : "existing");
        int nerrors = 0;

        for (uint32 n = 1; n <= 2000; n++) {
            if (cases[c].op == FD_OP_MKDIR)
                remove_tree((void *)test_path(top, "new"));
            if (!fault_run(cases[c].op, n, cases[c].err, cases[c].sqlstate,
                           dir))
                break;
            expect_int_eq(tdb_fd_inject_pending(), 0);
            nerrors++;
        }
        /* the run that succeeded never reached call n */
        expect_int_eq(tdb_fd_inject_pending(), 1);
        tdb_fd_inject_clear();
        /* open: 2; mkdir: 3 ("new/dir" fails, "new", "new/dir");
         * write and read: many */
        if (cases[c].op == FD_OP_OPEN)
            expect_int_eq(nerrors, 2);
        if (cases[c].op == FD_OP_MKDIR)
            expect_int_eq(nerrors, 3);
        if (cases[c].op == FD_OP_WRITE || cases[c].op == FD_OP_READ)
            expect_true(nerrors > 20 && nerrors < 2000);
    }
}
TEST_END

TEST_BEGIN(test_many_files)
{
    enum { NFILES = 300 };
    const char *dir = test_tmpdir();
    MemoryContext cxt =
        tdb_aset_create(tdb_current_mcxt, "spill", ALLOCSET_DEFAULT_SIZES);
    TempFile **files = tdb_palloc_array(TempFile *, NFILES);
    uint64 bad = 0;

    for (int i = 0; i < NFILES; i++)
        files[i] = tdb_tempfile_create(cxt, dir, 1024);
    expect_int_eq(count_entries(dir), NFILES);
    /* interleaved writes, as hash aggregation's partitions do */
    for (int round = 0; round < 5; round++)
        for (int i = 0; i < NFILES; i++)
            write_pattern(files[i], (Size)(round * 311 + i % 17 + 1),
                          (uint32)i);
    for (int i = 0; i < NFILES; i++) {
        uint64 size = tdb_tempfile_size(files[i]);

        tdb_tempfile_rewind(files[i]);
        if (check_pattern_rest(files[i], 640, (uint32)i) != size)
            bad++;
    }
    expect_u64_eq(bad, 0);
    /* close some now, the rest with the context */
    for (int i = 0; i < NFILES; i += 3)
        tdb_tempfile_close(files[i]);
    expect_int_eq(count_entries(dir), NFILES - NFILES / 3);
    tdb_mcxt_delete(cxt);
    expect_int_eq(count_entries(dir), 0);
}
TEST_END

/* test_threads: each thread's work and findings. */
enum { NTHREADS = 4, FILES_PER_THREAD = 50 };
typedef struct ThreadWork {
    const char *dir;
    char names[FILES_PER_THREAD][64];
    int nfailures;
    char failure[ERRMSG_MAX];
} ThreadWork;

static void *
thread_main(void *arg)
{
    ThreadWork *w = arg;

    tdb_mcxt_thread_init();
    TDB_TRY();
    {
        MemoryContext cxt =
            tdb_aset_create(tdb_current_mcxt, "thread", ALLOCSET_DEFAULT_SIZES);

        for (int i = 0; i < FILES_PER_THREAD; i++) {
            TempFile *f = tdb_tempfile_create(cxt, w->dir, 1024);
            const char *slash = strrchr(tdb_tempfile_path(f), '/');
            uint8 buf[3000];

            snprintf(w->names[i], sizeof(w->names[i]), "%s", slash + 1);
            fill_pattern(buf, sizeof(buf), 0, (uint32)i);
            tdb_tempfile_write(f, buf, sizeof(buf));
            tdb_tempfile_rewind(f);
            memset(buf, 0, sizeof(buf));
            if (tdb_tempfile_read(f, buf, sizeof(buf)) != sizeof(buf) ||
                pattern_mismatch(buf, sizeof(buf), 0, (uint32)i) != sizeof(buf))
                w->nfailures++;
        }
        tdb_mcxt_delete(cxt);
    }
    TDB_CATCH();
    {
        w->nfailures++;
        snprintf(w->failure, sizeof(w->failure), "%s",
                 tdb_error_current()->message);
        tdb_error_flush();
    }
    TDB_END_TRY();
    tdb_mcxt_thread_done();
    return NULL;
}

TEST_BEGIN(test_threads)
{
    const char *dir = test_tmpdir();
    ThreadWork *work = tdb_palloc0_array(ThreadWork, NTHREADS);
    pthread_t threads[NTHREADS];
    int nduplicates = 0;

    for (int t = 0; t < NTHREADS; t++) {
        work[t].dir = dir;
        expect_int_eq(pthread_create(&threads[t], NULL, thread_main, &work[t]),
                      0);
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(threads[t], NULL);
        if (work[t].nfailures > 0)
            expect_str_eq(work[t].failure, "");
        expect_int_eq(work[t].nfailures, 0);
    }
    /* every name distinct */
    for (int a = 0; a < NTHREADS * FILES_PER_THREAD; a++)
        for (int b = a + 1; b < NTHREADS * FILES_PER_THREAD; b++)
            if (strcmp(
                    work[a / FILES_PER_THREAD].names[a % FILES_PER_THREAD],
                    work[b / FILES_PER_THREAD].names[b % FILES_PER_THREAD]) ==
                0)
                nduplicates++;
    expect_int_eq(nduplicates, 0);
    expect_int_eq(count_entries(dir), 0);
}
TEST_END

TEST_BEGIN(test_dirs)
{
    const char *old = getenv("TMPDIR");
    char *saved = old != NULL ? tdb_pstrdup(old) : NULL;

    expect_str_eq(tdb_tempfile_dir_for(tdb_current_mcxt, "/data/db"),
                  "/data/db/base/pgsql_tmp");
    expect_str_eq(tdb_tempfile_dir_for(tdb_current_mcxt, "rel"),
                  "rel/base/pgsql_tmp");

    setenv("TMPDIR", "/var/tmp/x", 1);
    expect_str_eq(tdb_tempfile_default_dir(), "/var/tmp/x");
    setenv("TMPDIR", "", 1);
    expect_str_eq(tdb_tempfile_default_dir(), "/tmp");
    unsetenv("TMPDIR");
    expect_str_eq(tdb_tempfile_default_dir(), "/tmp");
    if (saved != NULL)
        setenv("TMPDIR", saved, 1);
}
TEST_END

TEST_BEGIN(test_orphan_cleanup)
{
    const char *top = test_tmpdir();
    const char *db = test_path(top, "db");
    const char *outside = test_path(top, "outside");
    DataDir *dd = tdb_datadir_create(NULL, db);
    const char *tmp = tdb_tempfile_dir_for(tdb_current_mcxt, db);
    const char *tdir = test_path(tmp, "pgsql_tmp4242.7.fileset");
    NoticeCapture cap;
    TempFile *live;

    expect_str_eq(tdb_datadir_temp_dir(dd), tmp);
    tdb_datadir_close(dd);

    /* a missing directory is nothing to remove */
    expect_u64_eq(tdb_tempfile_remove_all(tmp), 0);
    dd = tdb_datadir_open(NULL, db);
    tdb_datadir_close(dd);

    /* what a crash leaves: files, a shared-fileset directory, a link */
    expect_int_eq(mkdir(tmp, 0700), 0);
    write_text_file(test_path(tmp, "pgsql_tmp4242.0"), "left over");
    write_text_file(test_path(tmp, "pgsql_tmp4242.1"), "");
    write_text_file(test_path(tmp, "stray"), "x");
    expect_int_eq(mkdir(tdir, 0700), 0);
    write_text_file(test_path(tdir, "0.0"), "y");
    expect_int_eq(mkdir(test_path(tdir, "inner"), 0700), 0);
    write_text_file(test_path(tdir, "inner/1.0"), "z");
    write_text_file(outside, "keep me");
    expect_int_eq(symlink(outside, test_path(tmp, "link")), 0);
    expect_int_eq(count_entries(tmp), 5);

    notice_capture_begin(&cap);
    dd = tdb_datadir_open(NULL, db);
    notice_capture_end(&cap);
    expect_int_eq(cap.nwarnings, 0);
    expect_int_eq(count_entries(tmp), 0); /* the directory itself stays */
    expect_true(file_exists(outside));

    /* a live file while we hold the lock: a second opener fails on the
     * lock and removes nothing */
    live =
        tdb_tempfile_create(tdb_current_mcxt, tdb_datadir_temp_dir(dd), 8192);
    write_pattern(live, 100, 1);
    expect_error(tdb_datadir_open(NULL, db), ERRCODE_LOCK_NOT_AVAILABLE,
                 "is in use");
    expect_int_eq(count_entries(tmp), 1);
    tdb_tempfile_rewind(live);
    expect_u64_eq(check_pattern_rest(live, 64, 1), 100);

    /* a crash now: the next open removes it */
    write_text_file(test_path(tmp, "pgsql_tmp1.1"), "from a crash");
    tdb_datadir_close(dd);
    expect_int_eq(count_entries(tmp), 2);
    dd = tdb_datadir_open(NULL, db);
    expect_int_eq(count_entries(tmp), 0);
    tdb_tempfile_close(live); /* its file is gone already: no error */
    tdb_datadir_close(dd);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "storage_tempfile", TEST_CASE(test_roundtrip_odd_sizes),
        TEST_CASE(test_buffering_and_size),
        TEST_CASE(test_existing_names_skipped),
        TEST_CASE(test_rewind_seek_append), TEST_CASE(test_readers_and_truncate),
        TEST_CASE(test_close_unlinks),
        TEST_CASE(test_context_end_unlinks), TEST_CASE(test_close_then_delete),
        TEST_CASE(test_misuse), TEST_CASE(test_create_errors),
        TEST_CASE(test_enospc_mid_write), TEST_CASE(test_read_errors),
        TEST_CASE(test_fault_loops), TEST_CASE(test_many_files),
        TEST_CASE(test_threads), TEST_CASE(test_dirs),
        TEST_CASE(test_orphan_cleanup));
}
