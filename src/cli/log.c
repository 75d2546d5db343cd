/*
 * log.c -- the shell's own messages, prefixed the way psql prefixes them.
 *
 * psql sends every message through one function (fe_utils' pg_log_*), and
 * the prefix depends on where input comes from:
 *
 *   reading a file (-f FILE, -f -, \i FILE)   PROG:FILE:LINE: error: msg
 *   reading stdin, running -c ("terse")       msg
 *   before any input (bad option, -f of a missing file)
 *                                             PROG: error: msg
 *
 * "error: " / "warning: " / "hint: " appear only in the non-terse forms; server
 * messages (ERROR:, NOTICE: ...) are logged at INFO level, which has no
 * level word, so they read "PROG:FILE:LINE: ERROR:  ...".  PROG is the
 * program's name as invoked (psql's get_progname of argv[0]): "tupledb",
 * or "psql" when the binary is run through a link of that name.
 *
 * stdout is flushed before anything goes to stderr, so that both streams
 * sent to one file (2>&1, as pg_regress does) come out in order.
 */
#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

CliLogState tdb_cli_log_state = {"tupledb", NULL, 0, false};

void
tdb_cli_log(CliLogLevel level, const char *fmt, ...)
{
    const CliLogState *ls = &tdb_cli_log_state;
    va_list ap;
    int n;

    fflush(stdout);
    if (!ls->terse || ls->inputfile != NULL) {
        if (!ls->terse)
            fprintf(stderr, "%s:", ls->progname);
        if (ls->inputfile != NULL) {
            fprintf(stderr, "%s:", ls->inputfile);
            if (ls->lineno > 0)
                fprintf(stderr, "%llu:", (unsigned long long)ls->lineno);
        }
        fputc(' ', stderr);
    }
    if (!ls->terse) {
        if (level == CLI_LOG_ERROR)
            fputs("error: ", stderr);
        else if (level == CLI_LOG_WARNING)
            fputs("warning: ", stderr);
        else if (level == CLI_LOG_HINT)
            fputs("hint: ", stderr);
    }

    /* Format, then strip one trailing newline (server messages have one). */
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n > 0) {
        char *text = tdb_cli_alloc((size_t)n + 1);

        va_start(ap, fmt);
        vsnprintf(text, (size_t)n + 1, fmt, ap);
        va_end(ap);
        if (text[n - 1] == '\n')
            text[n - 1] = '\0';
        fputs(text, stderr);
        free(text);
    }
    fputc('\n', stderr);
}
