/*
 * access_test.h -- helpers shared by the access unit tests
 * (tests/unit/access/test_*.c), on top of storage_test.h's temporary
 * directories, raw file access and notice capture.  Header-only,
 * everything `static TDB_UNUSED`.
 *
 *   new_datadir()      a fresh data directory in a test_tmpdir()
 *   test_sprintf()     printf into the current memory context
 *   file_byte()        one byte of a file, read raw
 */
#ifndef TDB_TESTS_ACCESS_TEST_H
#define TDB_TESTS_ACCESS_TEST_H

#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>

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

#endif /* TDB_TESTS_ACCESS_TEST_H */
