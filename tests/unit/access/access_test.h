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
 */
#ifndef TDB_TESTS_ACCESS_TEST_H
#define TDB_TESTS_ACCESS_TEST_H

#include "common/base.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

#endif /* TDB_TESTS_ACCESS_TEST_H */
