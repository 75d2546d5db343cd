/*
 * strbuf.c -- growable strings and allocation for the shell.
 *
 * The shell is a program on top of the public API, not engine code, so it
 * allocates with malloc.  Allocation failure ends the program with
 * "out of memory", as psql's pg_malloc does: an interactive shell has no
 * better way to go on.
 *
 * A CliBuf doubles its capacity when it fills, so appending n bytes one
 * at a time costs O(n); it is always NUL-terminated once anything was
 * appended (tdb_cli_buf_str gives "" before that).
 */
#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static void
out_of_memory(void)
{
    fprintf(stderr, "%s: out of memory\n",
            tdb_cli_log_state.progname != NULL ? tdb_cli_log_state.progname
                                               : "tupledb");
    exit(CLI_EXIT_FAILURE);
}

/* malloc that never returns NULL (a 0-byte request gets 1 byte). */
void *
tdb_cli_alloc(size_t size)
{
    void *p = malloc(size > 0 ? size : 1);

    if (p == NULL)
        out_of_memory();
    return p;
}

void *
tdb_cli_realloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size > 0 ? size : 1);

    if (p == NULL)
        out_of_memory();
    return p;
}

char *
tdb_cli_strdup(const char *s)
{
    return tdb_cli_strndup(s, strlen(s));
}

/* A malloc'd copy of the first n bytes of s, NUL-terminated. */
char *
tdb_cli_strndup(const char *s, size_t n)
{
    char *p = tdb_cli_alloc(n + 1);

    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void
tdb_cli_buf_init(CliBuf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

/* Empty the buffer, keeping its memory. */
void
tdb_cli_buf_reset(CliBuf *b)
{
    b->len = 0;
    if (b->data != NULL)
        b->data[0] = '\0';
}

void
tdb_cli_buf_free(CliBuf *b)
{
    free(b->data);
    tdb_cli_buf_init(b);
}

/* Make room for n more bytes and the NUL. */
static void
buf_reserve(CliBuf *b, size_t n)
{
    size_t need = b->len + n + 1;

    if (need <= b->cap)
        return;
    if (need < b->len) /* wrapped around */
        out_of_memory();
    while (b->cap < need)
        b->cap = b->cap < 64 ? 64 : b->cap * 2;
    b->data = tdb_cli_realloc(b->data, b->cap);
}

void
tdb_cli_buf_append(CliBuf *b, const char *s, size_t n)
{
    buf_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void
tdb_cli_buf_puts(CliBuf *b, const char *s)
{
    tdb_cli_buf_append(b, s, strlen(s));
}

void
tdb_cli_buf_putc(CliBuf *b, char c)
{
    tdb_cli_buf_append(b, &c, 1);
}

void
tdb_cli_buf_printf(CliBuf *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    buf_reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

const char *
tdb_cli_buf_str(const CliBuf *b)
{
    return b->data != NULL ? b->data : "";
}
