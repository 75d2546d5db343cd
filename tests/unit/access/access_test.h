/*
 * access_test.h -- helpers shared by the access unit tests
 * (tests/unit/access/test_*.c), on top of storage_test.h's temporary
 * directories, raw file access and notice capture.  Header-only,
 * everything `static TDB_UNUSED`.
 *
 *   new_datadir()      a fresh data directory in a test_tmpdir()
 *   test_sprintf()     printf into the current memory context
 *   file_byte()        one byte of a file, read raw
 *   begin_new()        a new session transaction, begun
 *   join_within()      join a thread, ending the process if it hangs
 *   make_clog_page()   write a zeroed commit log page if it is missing
 *   jump_next_xid()    move the control file's next xid as if the ids
 *                      before it had been handed out
 */
#ifndef TDB_TESTS_ACCESS_TEST_H
#define TDB_TESTS_ACCESS_TEST_H

#include "common/base.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/clog.h"
#include "access/xact.h"
#include "storage/datadir.h"
#include "storage/storage_test.h"

static TDB_UNUSED DataDir *
new_datadir(void)
{
    return tdb_datadir_create(NULL, test_path(test_tmpdir(), "db"));
}

/* printf into a string allocated in the current context. */
static TDB_UNUSED TDB_PRINTF(1, 2) char *test_sprintf(const char *fmt, ...)
{
    va_list args;
    int len;
    char *buf;

    va_start(args, fmt);
    len = vsnprintf(NULL, 0, fmt, args);
    va_end(args);
    buf = tdb_palloc((Size)len + 1);
    va_start(args, fmt);
    vsnprintf(buf, (Size)len + 1, fmt, args);
    va_end(args);
    return buf;
}

/* Byte `offset` of the file at path, read raw; -1 if there is none. */
static TDB_UNUSED int
file_byte(const char *path, long offset)
{
    FILE *f = fopen(path, "rb");
    int c;

    if (f == NULL)
        return -1;
    if (fseek(f, offset, SEEK_SET) != 0) {
        fclose(f);
        return -1;
    }
    c = fgetc(f);
    fclose(f);
    return c == EOF ? -1 : c;
}

/* A new session transaction in the current context, begun. */
static TDB_UNUSED Transaction *
begin_new(TransactionManager *tm)
{
    Transaction *xact = tdb_xact_create(tm, NULL);

    tdb_xact_begin(xact);
    return xact;
}

/*
 * Join a thread.  A thread still running after 120 s (valgrind is slow,
 * but not that slow) is a hang: report it and end the process, because
 * the thread still uses the test's memory.
 */
static TDB_UNUSED bool
join_within(pthread_t thread)
{
    struct timespec deadline;

    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 120;
    if (pthread_timedjoin_np(thread, NULL, &deadline) == 0)
        return true;
    printf("    a thread did not finish within 120 s\n");
    fflush(stdout);
    abort();
}

/*
 * Write the commit log page of xid, zeroed, into dd's pg_xact if the
 * file lacks it -- as a reservation (clog.h) would have -- without a
 * commit log handle.
 */
static TDB_UNUSED void
make_clog_page(DataDir *dd, TransactionId xid)
{
    uint32 pageno = xid / CLOG_XACTS_PER_PAGE;
    char *dir = test_path(tdb_datadir_path(dd), CLOG_DIR);
    char name[16];
    off_t offset = (off_t)(pageno % CLOG_PAGES_PER_SEGMENT) * BLCKSZ;
    struct stat st;
    int fd;

    snprintf(name, sizeof(name), "%04X", pageno / CLOG_PAGES_PER_SEGMENT);
    (void)mkdir(dir, 0700);
    fd = open(test_path(dir, name), O_RDWR | O_CREAT, 0600);
    if (fd < 0 || fstat(fd, &st) != 0) {
        perror("make_clog_page");
        abort();
    }
    if (st.st_size < offset + BLCKSZ) {
        static const char zeros[BLCKSZ];

        if (pwrite(fd, zeros, BLCKSZ, offset) != BLCKSZ) {
            perror("make_clog_page");
            abort();
        }
    }
    close(fd);
}

/*
 * Set dd's next xid to next, as if the ids before it had been handed
 * out: the commit log page of next - 1 -- the one an open reads -- is
 * made first.  The pages of ids between the old and the new next xid are
 * not (a jump to 2^31 would take gigabytes): asking about those ids
 * fails, as for a damaged log.
 */
static TDB_UNUSED void
jump_next_xid(DataDir *dd, TransactionId next)
{
    make_clog_page(dd, next - 1);
    tdb_datadir_set_next_xid(dd, next);
}

#endif /* TDB_TESTS_ACCESS_TEST_H */
