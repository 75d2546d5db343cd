/*
 * test_fd.c -- the file-system wrappers and their fault table.
 *
 *   test_transfer_roundtrip   pwrite_full/pread_full round trip, reads at
 *       and past end of file return short counts, not errors.
 *   test_file_operations      size, truncate, rename, unlink, mkdir,
 *       rmdir, fsync of files and directories, dir_is_empty,
 *       is_same_file; failures return -1 with the right errno.
 *   test_real_enospc          writing to /dev/full fails with ENOSPC.
 *   test_try_lock             a second open description of a locked file
 *       cannot lock it (EWOULDBLOCK), in the same process; closing the
 *       first releases it.
 *   test_errcode_mapping      errno -> SQLSTATE, as PostgreSQL maps it.
 *   test_inject_api           argument checks, a full table, pending and
 *       clear; release builds report injection unavailable.
 *   test_inject_each_op       every operation fails on exactly the nth
 *       call with the armed errno, and only once (table-driven).
 *   test_short_transfers      short reads and writes are retried to
 *       completion; a short write followed by ENOSPC fails the write
 *       with part of it on disk.
 */
#include "common/base.h"

#include <fcntl.h>

#include "storage/fd.h"
#include "storage_test.h"

/* Open (creating) a file in dir for reading and writing. */
static int
open_file(const char *dir, const char *name)
{
    char *path = test_path(dir, name);
    int fd = tdb_fd_open(path, O_RDWR | O_CREAT, TDB_FILE_MODE);

    expect_int_ne(fd, -1);
    return fd;
}

TEST_BEGIN(test_transfer_roundtrip)
{
    const char *dir = test_tmpdir();
    int fd = open_file(dir, "data");
    char out[3 * BLCKSZ], in[4 * BLCKSZ];
    off_t size = 0;

    for (int b = 0; b < 3; b++)
        fill_block(out + b * BLCKSZ, (uint32)b);
    expect_int_eq(tdb_fd_pwrite_full(fd, out, sizeof(out), 0), 0);
    expect_int_eq(tdb_fd_size(fd, &size), 0);
    expect_int_eq(size, sizeof(out));

    /* whole file, then a read straddling the end, then one past it */
    expect_int_eq(tdb_fd_pread_full(fd, in, sizeof(out), 0), sizeof(out));
    expect_true(memcmp(in, out, sizeof(out)) == 0);
    expect_int_eq(tdb_fd_pread_full(fd, in, 2 * BLCKSZ, 2 * BLCKSZ), BLCKSZ);
    expect_true(block_matches(in, 2));
    expect_int_eq(tdb_fd_pread_full(fd, in, BLCKSZ, 5 * BLCKSZ), 0);

    /* a write at an offset leaves the rest alone */
    fill_block(out, 42);
    expect_int_eq(tdb_fd_pwrite_full(fd, out, BLCKSZ, BLCKSZ), 0);
    expect_int_eq(tdb_fd_pread_full(fd, in, 3 * BLCKSZ, 0), 3 * BLCKSZ);
    expect_true(block_matches(in, 0));
    expect_true(block_matches(in + BLCKSZ, 42));
    expect_true(block_matches(in + 2 * BLCKSZ, 2));
    expect_int_eq(tdb_fd_close(fd), 0);

    /* errors keep errno */
    errno = 0;
    expect_int_eq(tdb_fd_pread_full(-1, in, 1, 0), -1);
    expect_int_eq(errno, EBADF);
    errno = 0;
    expect_int_eq(tdb_fd_pwrite_full(-1, in, 1, 0), -1);
    expect_int_eq(errno, EBADF);
}
TEST_END

TEST_BEGIN(test_file_operations)
{
    const char *dir = test_tmpdir();
    char *a = test_path(dir, "a"), *b = test_path(dir, "b");
    char *sub = test_path(dir, "sub");
    int fd = open_file(dir, "a");
    int fd2;
    off_t size = 0;
    bool flag = false;
    char block[BLCKSZ];

    fill_block(block, 7);
    expect_int_eq(tdb_fd_pwrite_full(fd, block, BLCKSZ, 0), 0);
    expect_int_eq(tdb_fd_fsync(fd), 0);
    expect_int_eq(tdb_fd_truncate(fd, 100), 0);
    expect_int_eq(tdb_fd_size(fd, &size), 0);
    expect_int_eq(size, 100);

    /* rename keeps the open file; is_same_file follows the path */
    expect_int_eq(tdb_fd_is_same_file(fd, a, &flag), 0);
    expect_true(flag);
    expect_int_eq(tdb_fd_rename(a, b), 0);
    expect_int_eq(tdb_fd_is_same_file(fd, a, &flag), 0);
    expect_false(flag); /* a is gone */
    expect_int_eq(tdb_fd_is_same_file(fd, b, &flag), 0);
    expect_true(flag);
    fd2 = open_file(dir, "a"); /* a new, different file named a */
    expect_int_eq(tdb_fd_is_same_file(fd, a, &flag), 0);
    expect_false(flag);
    expect_int_eq(tdb_fd_close(fd2), 0);

    /* directories */
    expect_int_eq(tdb_fd_mkdir(sub, TDB_DIR_MODE), 0);
    expect_int_eq(tdb_fd_mkdir(sub, TDB_DIR_MODE), -1);
    expect_int_eq(errno, EEXIST);
    expect_int_eq(tdb_fd_dir_is_empty(sub, &flag), 0);
    expect_true(flag);
    expect_int_eq(tdb_fd_dir_is_empty(dir, &flag), 0);
    expect_false(flag);
    expect_int_eq(tdb_fd_dir_is_empty(a, &flag), -1);
    expect_int_eq(errno, ENOTDIR);
    expect_int_eq(tdb_fd_fsync_dir(dir), 0);
    expect_int_eq(tdb_fd_fsync_dir(test_path(dir, "missing")), -1);
    expect_int_eq(errno, ENOENT);
    expect_int_eq(tdb_fd_rmdir(dir), -1);
    expect_int_eq(errno, ENOTEMPTY);
    expect_int_eq(tdb_fd_rmdir(sub), 0);
    expect_false(file_exists(sub));

    /* unlink; the open descriptor stays usable */
    expect_int_eq(tdb_fd_unlink(b), 0);
    expect_false(file_exists(b));
    expect_int_eq(tdb_fd_unlink(b), -1);
    expect_int_eq(errno, ENOENT);
    expect_int_eq(tdb_fd_size(fd, &size), 0);
    expect_int_eq(tdb_fd_close(fd), 0);

    expect_int_eq(tdb_fd_open(test_path(dir, "missing"), O_RDONLY, 0), -1);
    expect_int_eq(errno, ENOENT);
    expect_int_eq(tdb_fd_close(-1), -1);
    expect_int_eq(errno, EBADF);
}
TEST_END

TEST_BEGIN(test_real_enospc)
{
    int fd = tdb_fd_open("/dev/full", O_WRONLY, 0);
    char block[BLCKSZ];

    if (fd < 0)
        test_skip("/dev/full is not available");
    memset(block, 1, sizeof(block));
    errno = 0;
    expect_int_eq(tdb_fd_pwrite_full(fd, block, sizeof(block), 0), -1);
    expect_int_eq(errno, ENOSPC);
    expect_int_eq(tdb_fd_errcode(errno), ERRCODE_DISK_FULL);
    tdb_fd_close(fd);
}
TEST_END

TEST_BEGIN(test_try_lock)
{
    const char *dir = test_tmpdir();
    int first = open_file(dir, "lock");
    int second = open_file(dir, "lock");

    expect_int_eq(tdb_fd_try_lock(first), 0);
    expect_int_eq(tdb_fd_try_lock(first), 0); /* re-locking is fine */
    expect_int_eq(tdb_fd_try_lock(second), -1);
    expect_int_eq(errno, EWOULDBLOCK);
    expect_int_eq(tdb_fd_close(first), 0);
    expect_int_eq(tdb_fd_try_lock(second), 0);
    expect_int_eq(tdb_fd_close(second), 0);
}
TEST_END

TEST_BEGIN(test_errcode_mapping)
{
    static const struct {
        int err;
        int sqlstate;
    } cases[] = {
        {ENOENT, ERRCODE_UNDEFINED_FILE},
        {EEXIST, ERRCODE_DUPLICATE_FILE},
        {ENOSPC, ERRCODE_DISK_FULL},
        {EIO, ERRCODE_IO_ERROR},
        {EACCES, ERRCODE_INSUFFICIENT_PRIVILEGE},
        {EPERM, ERRCODE_INSUFFICIENT_PRIVILEGE},
        {EROFS, ERRCODE_INSUFFICIENT_PRIVILEGE},
        {ENOTDIR, ERRCODE_WRONG_OBJECT_TYPE},
        {EISDIR, ERRCODE_WRONG_OBJECT_TYPE},
        {ENOTEMPTY, ERRCODE_WRONG_OBJECT_TYPE},
        {EMFILE, ERRCODE_INSUFFICIENT_RESOURCES},
        {ENFILE, ERRCODE_INSUFFICIENT_RESOURCES},
        {EBADF, ERRCODE_INTERNAL_ERROR},
    };

    for (Size i = 0; i < lengthof(cases); i++)
        expect_int_eq(tdb_fd_errcode(cases[i].err), cases[i].sqlstate);
}
TEST_END

TEST_BEGIN(test_inject_api)
{
    if (!config_debug) {
        expect_false(tdb_fd_inject(FD_OP_WRITE, 1, EIO));
        expect_int_eq(tdb_fd_inject_pending(), 0);
        expect_u64_eq(tdb_fd_op_count(FD_OP_WRITE), 0);
        test_skip("fault injection needs a TDB_DEBUG build");
    }
    expect_false(tdb_fd_inject(FD_OP_WRITE, 0, EIO)); /* n >= 1 */
    expect_false(tdb_fd_inject(FD_NOPS, 1, EIO));     /* no such op */
    expect_false(tdb_fd_inject(FD_OP_FSYNC, 1, FD_FAULT_SHORT));
    expect_int_eq(tdb_fd_inject_pending(), 0);
    for (int i = 0; i < FD_MAX_FAULTS; i++)
        expect_true(tdb_fd_inject(FD_OP_UNLINK, (uint32)(i + 1), EIO));
    expect_false(tdb_fd_inject(FD_OP_UNLINK, 1, EIO)); /* table full */
    expect_int_eq(tdb_fd_inject_pending(), FD_MAX_FAULTS);
    tdb_fd_inject_clear();
    expect_int_eq(tdb_fd_inject_pending(), 0);
    expect_str_eq(tdb_fd_op_name(FD_OP_FSYNC), "fsync");
    expect_str_eq(tdb_fd_op_name(FD_NOPS), "?");
}
TEST_END

/* Everything one operation needs for test_inject_each_op. */
typedef struct OpEnv {
    const char *dir;
    int fd; /* an open file with a block in it */
    int counter;
} OpEnv;

/* Run one call of op; returns its result (0 or -1, or bytes read). */
static long
call_op(FdOp op, OpEnv *env)
{
    char block[BLCKSZ];
    char name[32];
    off_t size;

    snprintf(name, sizeof(name), "f%d", env->counter++);
    switch (op) {
    case FD_OP_OPEN: {
        int fd = tdb_fd_open(test_path(env->dir, name), O_RDWR | O_CREAT,
                             TDB_FILE_MODE);

        if (fd >= 0)
            tdb_fd_close(fd);
        return fd < 0 ? -1 : 0;
    }
    case FD_OP_CLOSE:
        return tdb_fd_close(dup(env->fd));
    case FD_OP_READ:
        return tdb_fd_pread_full(env->fd, block, BLCKSZ, 0) < 0 ? -1 : 0;
    case FD_OP_WRITE:
        fill_block(block, 1);
        return tdb_fd_pwrite_full(env->fd, block, BLCKSZ, 0);
    case FD_OP_FSYNC:
        return tdb_fd_fsync(env->fd);
    case FD_OP_TRUNCATE:
        return tdb_fd_truncate(env->fd, BLCKSZ);
    case FD_OP_SIZE:
        return tdb_fd_size(env->fd, &size);
    case FD_OP_UNLINK: {
        char *path = test_path(env->dir, name);

        write_text_file(path, "x");
        return tdb_fd_unlink(path);
    }
    case FD_OP_RENAME: {
        char *path = test_path(env->dir, name);

        write_text_file(path, "x");
        return tdb_fd_rename(path, test_path(env->dir, "renamed"));
    }
    case FD_OP_MKDIR:
        return tdb_fd_mkdir(test_path(env->dir, name), TDB_DIR_MODE);
    case FD_OP_LOCK:
        return tdb_fd_try_lock(env->fd);
    case FD_NOPS:
        break;
    }
    return -2;
}

TEST_BEGIN(test_inject_each_op)
{
    OpEnv env = {.dir = test_tmpdir()};
    char block[BLCKSZ];

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    env.fd = open_file(env.dir, "data");
    fill_block(block, 1);
    expect_int_eq(tdb_fd_pwrite_full(env.fd, block, BLCKSZ, 0), 0);

    for (int op = 0; op < FD_NOPS; op++) {
        int err = op % 2 == 0 ? EIO : ENOSPC;
        uint64 before = tdb_fd_op_count((FdOp)op);

        /* the third call fails, the calls around it succeed */
        expect_true(tdb_fd_inject((FdOp)op, 3, err));
        for (int call = 1; call <= 4; call++) {
            long rc;

            errno = 0;
            rc = call_op((FdOp)op, &env);
            if (rc != (call == 3 ? -1 : 0) || (call == 3 && errno != err))
                tdb_test_fail(__FILE__, __LINE__, "%s call %d: rc %ld errno %d",
                              tdb_fd_op_name((FdOp)op), call, rc, errno);
        }
        expect_int_eq(tdb_fd_inject_pending(), 0);
        expect_u64_eq(tdb_fd_op_count((FdOp)op) - before, 4);
    }
    tdb_fd_close(env.fd);
}
TEST_END

TEST_BEGIN(test_short_transfers)
{
    const char *dir = test_tmpdir();
    int fd = open_file(dir, "data");
    char out[2 * BLCKSZ], in[2 * BLCKSZ];
    uint64 writes, reads;
    off_t size = 0;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    fill_block(out, 1);
    fill_block(out + BLCKSZ, 2);

    /* two short writes in a row: the loop finishes the job */
    writes = tdb_fd_op_count(FD_OP_WRITE);
    expect_true(tdb_fd_inject(FD_OP_WRITE, 1, FD_FAULT_SHORT));
    expect_true(tdb_fd_inject(FD_OP_WRITE, 2, FD_FAULT_SHORT));
    expect_int_eq(tdb_fd_pwrite_full(fd, out, sizeof(out), 0), 0);
    expect_u64_eq(tdb_fd_op_count(FD_OP_WRITE) - writes, 3);

    /* a short read is retried too */
    reads = tdb_fd_op_count(FD_OP_READ);
    expect_true(tdb_fd_inject(FD_OP_READ, 1, FD_FAULT_SHORT));
    expect_int_eq(tdb_fd_pread_full(fd, in, sizeof(in), 0), sizeof(in));
    expect_u64_eq(tdb_fd_op_count(FD_OP_READ) - reads, 2);
    expect_true(memcmp(in, out, sizeof(out)) == 0);

    /* the disk fills up mid-write: half is on disk, the call fails */
    expect_int_eq(tdb_fd_truncate(fd, 0), 0);
    expect_true(tdb_fd_inject(FD_OP_WRITE, 1, FD_FAULT_SHORT));
    expect_true(tdb_fd_inject(FD_OP_WRITE, 2, ENOSPC));
    errno = 0;
    expect_int_eq(tdb_fd_pwrite_full(fd, out, sizeof(out), 0), -1);
    expect_int_eq(errno, ENOSPC);
    expect_int_eq(tdb_fd_size(fd, &size), 0);
    expect_int_eq(size, BLCKSZ);
    tdb_fd_close(fd);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "storage_fd", TEST_CASE(test_transfer_roundtrip),
        TEST_CASE(test_file_operations), TEST_CASE(test_real_enospc),
        TEST_CASE(test_try_lock), TEST_CASE(test_errcode_mapping),
        TEST_CASE(test_inject_api), TEST_CASE(test_inject_each_op),
        TEST_CASE(test_short_transfers));
}
