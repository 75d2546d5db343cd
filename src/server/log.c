/*
 * log.c -- the server log: connections, disconnections, errors and the
 * server's own life, one line per event on stderr in PostgreSQL's
 * default layout (log_line_prefix '%m [%p] '):
 *
 *     2025-01-02 03:04:05.678 UTC [17] LOG:  connection received: host=[local]
 *
 * where [17] is the connection's BackendKeyData process id ([0] for the
 * server itself).  Each line is formatted into a local buffer and written
 * with one write(), so lines from concurrent connection threads never
 * interleave; a message that does not fit the buffer is truncated.
 */
#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "server/server_int.h"

#define LOG_LINE_MAX 4096

double
tdb_server_now(void)
{
    struct timeval tv;

    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void
tdb_server_log(int32 pid, const char *level, const char *fmt, ...)
{
    char line[LOG_LINE_MAX];
    struct timeval tv;
    struct tm tm;
    size_t n;
    va_list args;

    gettimeofday(&tv, NULL);
    gmtime_r(&tv.tv_sec, &tm);
    n = strftime(line, sizeof(line), "%Y-%m-%d %H:%M:%S", &tm);
    n += (size_t)snprintf(line + n, sizeof(line) - n, ".%03d UTC [%d] %s:  ",
                          (int)(tv.tv_usec / 1000), (int)pid, level);
    if (n < sizeof(line)) {
        va_start(args, fmt);
        (void)vsnprintf(line + n, sizeof(line) - n, fmt, args);
        va_end(args);
    }
    n = strlen(line);
    if (n >= sizeof(line) - 1)
        n = sizeof(line) - 2;
    line[n++] = '\n';
    /* best effort: a log that cannot be written must not stop the server */
    if (write(STDERR_FILENO, line, n) < 0)
        return;
}
