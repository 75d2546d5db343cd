/*
 * slash.c -- the words of a backslash command, by psql's rules
 * (psqlscanslash.l).
 *
 * The command name runs from after the backslash to the next whitespace
 * or backslash ("\dt+" is "dt+").  Then each call to tdb_cli_slash_option
 * reads one argument:
 *
 *   - leading whitespace is skipped; the arguments end at the end of the
 *     line or at a backslash ("\echo a \q" runs \echo a, then \q; a "\\"
 *     there is swallowed by tdb_cli_slash_end so that the rest of the
 *     line is read as SQL);
 *   - an argument is a run of unquoted text, '...' and "..." pieces up to
 *     whitespace or a backslash;
 *   - in '...', '' is a quote and \n \t \b \r \f, \digits (octal) and
 *     \xHH are escapes; any other \c is c;
 *   - "..." is kept with its quotes (CLI_ARG_NORMAL), or unquoted with ""
 *     meaning " (CLI_ARG_SQLID, where unquoted text is also lowercased);
 *   - :name, :'name' and :"name" in unquoted text are replaced by the
 *     variable's value (as is, as a literal, as an identifier) when it is
 *     set, and left as written otherwise.
 *
 * Backquotes (shell command substitution) are not implemented: they are
 * taken literally.
 */
#include "common/base.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static bool
is_var_char(int c)
{
    return isalnum(c) || c >= 0x80 || c == '_';
}

char *
tdb_cli_slash_command(CliScanState *st)
{
    const char *p = tdb_cli_scan_rest(st);
    size_t n = 0;

    while (p[n] != '\0' && !cli_is_space((unsigned char)p[n]) && p[n] != '\\')
        n++;
    tdb_cli_scan_skip(st, n);
    return tdb_cli_strndup(p, n);
}

/* A '...' piece starting at p (after the quote); returns the end. */
static const char *
single_quoted(const char *p, CliBuf *arg)
{
    while (*p != '\0') {
        if (*p == '\'') {
            if (p[1] != '\'')
                return p + 1;
            tdb_cli_buf_putc(arg, '\'');
            p += 2;
        } else if (*p == '\\' && p[1] != '\0') {
            char c = p[1];

            p += 2;
            switch (c) {
            case 'n': tdb_cli_buf_putc(arg, '\n'); break;
            case 't': tdb_cli_buf_putc(arg, '\t'); break;
            case 'b': tdb_cli_buf_putc(arg, '\b'); break;
            case 'r': tdb_cli_buf_putc(arg, '\r'); break;
            case 'f': tdb_cli_buf_putc(arg, '\f'); break;
            case 'x': {
                int v = 0, k = 0;

                while (k < 2 && isxdigit((unsigned char)*p)) {
                    v = v * 16 + (isdigit((unsigned char)*p)
                                      ? *p - '0'
                                      : tolower((unsigned char)*p) - 'a' + 10);
                    p++, k++;
                }
                if (k == 0)
                    tdb_cli_buf_putc(arg, 'x');
                else
                    tdb_cli_buf_putc(arg, (char)v);
                break;
            }
            default:
                if (c >= '0' && c <= '7') {
                    int v = c - '0', k = 1;

                    while (k < 3 && *p >= '0' && *p <= '7')
                        v = v * 8 + (*p++ - '0'), k++;
                    tdb_cli_buf_putc(arg, (char)v);
                } else
                    tdb_cli_buf_putc(arg, c);
            }
        } else
            tdb_cli_buf_putc(arg, *p++);
    }
    return p; /* unterminated: the rest of the line */
}

/* A "..." piece starting at p (at the quote); returns the end. */
static const char *
double_quoted(const char *p, CliBuf *arg, CliSlashArg type)
{
    if (type == CLI_ARG_NORMAL)
        tdb_cli_buf_putc(arg, '"');
    p++;
    while (*p != '\0') {
        if (*p == '"' && p[1] == '"') {
            tdb_cli_buf_append(arg, "\"\"", type == CLI_ARG_NORMAL ? 2 : 1);
            p += 2;
        } else if (*p == '"') {
            if (type == CLI_ARG_NORMAL)
                tdb_cli_buf_putc(arg, '"');
            return p + 1;
        } else
            tdb_cli_buf_putc(arg, *p++);
    }
    return p;
}

/* A :variable reference at p; returns the end (p itself if none). */
static const char *
variable(const char *p, CliBuf *arg, const Shell *sh)
{
    char quote = (p[1] == '\'' || p[1] == '"') ? p[1] : '\0';
    const char *name = p + (quote ? 2 : 1);
    size_t n = 0;
    char *var;
    const char *value;

    while (is_var_char((unsigned char)name[n]))
        n++;
    if (n == 0 || (quote && name[n] != quote))
        return p;
    var = tdb_cli_strndup(name, n);
    value = tdb_cli_var_get(sh, var);
    free(var);
    if (value == NULL && !quote)
        return p;
    if (value == NULL) { /* an unset :'name' stays as written */
        size_t len = (size_t)(name + n + 1 - p);

        tdb_cli_buf_append(arg, p, len);
        return p + len;
    }
    if (quote)
        tdb_cli_buf_putc(arg, quote);
    for (const char *v = value; *v != '\0'; v++) {
        if (quote && *v == quote)
            tdb_cli_buf_putc(arg, quote);
        tdb_cli_buf_putc(arg, *v);
    }
    if (quote)
        tdb_cli_buf_putc(arg, quote);
    return name + n + (quote ? 1 : 0);
}

char *
tdb_cli_slash_option(CliScanState *st, const Shell *sh, CliSlashArg type)
{
    const char *start = tdb_cli_scan_rest(st);
    const char *p = start;
    CliBuf arg;

    while (cli_is_space((unsigned char)*p))
        p++;
    if (type == CLI_ARG_WHOLE_LINE) {
        tdb_cli_scan_skip(st, strlen(start));
        return *p != '\0' ? tdb_cli_strdup(p) : NULL;
    }
    if (*p == '\0' || *p == '\\') {
        tdb_cli_scan_skip(st, (size_t)(p - start));
        return NULL;
    }
    tdb_cli_buf_init(&arg);
    tdb_cli_buf_puts(&arg, ""); /* an empty '' argument is "" not NULL */
    while (*p != '\0' && *p != '\\' && !cli_is_space((unsigned char)*p)) {
        if (*p == '\'')
            p = single_quoted(p + 1, &arg);
        else if (*p == '"')
            p = double_quoted(p, &arg, type);
        else if (*p == ':') {
            const char *after = variable(p, &arg, sh);

            if (after == p)
                tdb_cli_buf_putc(&arg, *p++);
            else
                p = after;
        } else {
            char c = *p++;

            tdb_cli_buf_putc(&arg, type == CLI_ARG_SQLID
                                       ? (char)tolower((unsigned char)c)
                                       : c);
        }
    }
    tdb_cli_scan_skip(st, (size_t)(p - start));
    return arg.data;
}

void
tdb_cli_slash_end(CliScanState *st)
{
    const char *start = tdb_cli_scan_rest(st);
    const char *p = start;

    while (cli_is_space((unsigned char)*p))
        p++;
    if (p[0] == '\\' && p[1] == '\\')
        tdb_cli_scan_skip(st, (size_t)(p - start) + 2);
}
