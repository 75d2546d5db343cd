/*
 * copy.c -- COPY data in the shell (psql's copy.c): the data side of
 * COPY ... FROM STDIN / TO STDOUT, and the \copy command.
 *
 * COPY ... FROM STDIN reads the lines that follow the statement in the
 * input being run (psql's cur_cmd_source: the script, stdin, or the file
 * of \i), up to a line "\." or the end of that input, and hands them to
 * the statement as they are -- the "\." line included, the engine stops
 * there.  Reading goes through the same FILE as the statements, so the
 * script goes on after the data; the data lines are counted in the line
 * numbers of later messages and are not echoed by -a, as in psql.  From
 * a terminal, psql's "Enter data to be copied ..." note and a ">> "
 * prompt per line are shown.  COPY ... TO STDOUT writes the lines to
 * stdout, before the "COPY n" tag.
 *
 * \copy rewrites itself into COPY ... FROM STDIN / TO STDOUT with the
 * data coming from or going to a client-side file (or stdin/stdout, or
 * psql's pstdin/pstdout), splitting its argument with psql's strtokx
 * rules, and runs it like any statement:
 *
 *   \copy { table [ ( column_list ) ] | ( query ) }
 *         { from | to } { 'filename' | stdin | stdout | pstdin | pstdout }
 *         [ [ with ] ( option [, ...] ) ] [ ...old-style options ]
 *
 * PROGRAM is refused (psql would run a shell command).
 */
#include "common/base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

/* ----------------------------------------------------------------------
 * The data side of COPY
 * ---------------------------------------------------------------------- */

void
tdb_cli_copy_start(Shell *sh, CliCopy *c, int is_from)
{
    memset(c, 0, sizeof(*c));
    c->active = true;
    c->is_from = is_from != 0;
    c->at_line_begin = true;
    if (sh->copy_stream != NULL)
        c->stream = sh->copy_stream;
    else
        c->stream = c->is_from ? sh->cur_cmd_source : stdout;
    if (c->is_from && isatty(fileno(c->stream))) {
        c->prompt = true;
        if (!sh->quiet)
            puts("Enter data to be copied followed by a newline.\n"
                 "End with a backslash and a period on a line by itself, "
                 "or an EOF signal.");
    }
}

int
tdb_cli_copy_in(Shell *sh, CliCopy *c, char *buf, int size,
                const char **fail_message)
{
    char *got;
    size_t len;

    if (c->done)
        return 0;
    if (c->at_line_begin && c->prompt) {
        fputs(">> ", stdout);
        fflush(stdout);
    }
    got = fgets(buf, size, c->stream);
    if (got == NULL) {
        c->done = true;
        if (tdb_cli_cancel_pressed()) {
            clearerr(c->stream);
            *fail_message = "canceled by user";
            return -1;
        }
        if (ferror(c->stream)) {
            *fail_message = "aborted because of read failure";
            return -1;
        }
        return 0;
    }
    len = strlen(buf);
    if (len > 0 && buf[len - 1] == '\n') {
        /* the end marker only as a whole line (psql does not look
         * inside CSV quotes either) */
        if (c->at_line_begin &&
            ((len == 3 && memcmp(buf, "\\.\n", 3) == 0) ||
             (len == 4 && memcmp(buf, "\\.\r\n", 4) == 0)))
            c->done = true;
        if (c->stream == sh->cur_cmd_source)
            tdb_cli_log_state.lineno++;
        c->at_line_begin = true;
    } else
        c->at_line_begin = false;
    return (int)len;
}

void
tdb_cli_copy_out(Shell *sh, CliCopy *c, const char *data, int len)
{
    (void)sh;
    if (c->failed)
        return;
    if (fwrite(data, 1, (size_t)len, c->stream) != (size_t)len) {
        tdb_cli_log(CLI_LOG_ERROR, "could not write COPY data: %s",
                    strerror(errno));
        c->failed = true; /* once; the rest of the data is dropped */
    }
}

bool
tdb_cli_copy_end(Shell *sh, CliCopy *c)
{
    if (!c->active)
        return true;
    c->active = false;
    /* a COPY FROM that failed early: psql would have sent the rest of
     * the data anyway, so the lines up to "\." are not statements */
    if (c->is_from && !c->done) {
        char buf[8192];
        const char *fail;

        while (tdb_cli_copy_in(sh, c, buf, sizeof(buf), &fail) > 0)
            ;
    }
    if (!c->is_from && !c->failed && fflush(c->stream) != 0) {
        tdb_cli_log(CLI_LOG_ERROR, "could not write COPY data: %s",
                    strerror(errno));
        c->failed = true;
    }
    return !c->failed;
}

/* ----------------------------------------------------------------------
 * \copy: psql's strtokx and parse_slash_copy
 * ---------------------------------------------------------------------- */

/* A tokenizer over one string, as psql's strtokx (without its static
 * state). */
typedef struct Tokens {
    char *storage; /* a copy with room for the NULs inserted */
    char *next;    /* where the next call starts; NULL when done */
} Tokens;

/* End the token that ends just before p, moving the rest one byte on
 * when p is not whitespace (the room for this is in storage). */
static void
end_token(Tokens *t, char *p, const char *whitespace)
{
    if (*p == '\0') {
        t->next = p;
        return;
    }
    if (strchr(whitespace, *p) == NULL)
        memmove(p + 1, p, strlen(p) + 1);
    *p = '\0';
    t->next = p + 1;
}

/*
 * The next token: whitespace skipped; a character of delim alone; a
 * quoted string (quote characters, doubled quotes and escape inside,
 * with E'' strings when e_strings) kept with its quotes; or a run up to
 * whitespace, a delimiter or a quote.  NULL at the end.
 */
static char *
next_token(Tokens *t, const char *whitespace, const char *delim,
           const char *quote, char escape, bool e_strings)
{
    char *start, *p;
    size_t n;

    if (t->next == NULL)
        return NULL;
    start = t->next + strspn(t->next, whitespace);
    if (*start == '\0') {
        t->next = NULL;
        return NULL;
    }
    if (delim != NULL && strchr(delim, *start) != NULL) {
        end_token(t, start + 1, whitespace);
        return start;
    }
    p = start;
    if (e_strings && (*p == 'E' || *p == 'e') && p[1] == '\'') {
        quote = "'";
        escape = '\\';
        p++;
    }
    if (quote != NULL && strchr(quote, *p) != NULL) {
        char q = *p++;

        for (; *p != '\0'; p++) {
            if (*p == escape && p[1] != '\0')
                p++;
            else if (*p == q && p[1] == q)
                p++;
            else if (*p == q) {
                p++;
                break;
            }
        }
        end_token(t, p, whitespace);
        return start;
    }
    n = strcspn(start, whitespace);
    if (delim != NULL)
        n = Min(n, strcspn(start, delim));
    if (quote != NULL)
        n = Min(n, strcspn(start, quote));
    end_token(t, start + n, whitespace);
    return start;
}

/* The rest of the string after the last token, as it is. */
static char *
rest_of_line(Tokens *t)
{
    char *rest = t->next;

    t->next = NULL;
    return rest != NULL && *rest != '\0' ? rest : NULL;
}

/* Remove the quotes of a token in place (doubled quotes are one). */
static void
strip_quotes(char *s, char quote)
{
    char *src = s, *dst = s;

    if (*src == quote)
        src++;
    while (*src != '\0') {
        if (*src == quote && src[1] == '\0')
            break;
        if (*src == quote && src[1] == quote)
            src++;
        *dst++ = *src++;
    }
    *dst = '\0';
}

/* psql's canonicalize_path, the parts that matter on Unix: duplicate
 * and trailing slashes, trailing "/." components. */
static void
canonicalize_path(char *path)
{
    char *src = path, *dst = path;
    size_t len;

    for (; *src != '\0'; src++)
        if (!(*src == '/' && dst > path && dst[-1] == '/'))
            *dst++ = *src;
    *dst = '\0';
    for (;;) {
        len = strlen(path);
        if (len > 1 && path[len - 1] == '/')
            path[len - 1] = '\0';
        else if (len >= 2 && strcmp(path + len - 2, "/.") == 0)
            path[len == 2 ? 1 : len - 2] = '\0';
        else
            break;
    }
}

/* "~/x" and "~" with $HOME, as psql's expand_tilde. */
static char *
expand_tilde(char *file)
{
    const char *home = getenv("HOME");
    char *expanded;

    if (file[0] != '~' || (file[1] != '\0' && file[1] != '/') ||
        home == NULL)
        return file;
    expanded = tdb_cli_alloc(strlen(home) + strlen(file));
    strcpy(expanded, home);
    strcat(expanded, file + 1);
    free(file);
    return expanded;
}

/* What \copy's argument says. */
typedef struct SlashCopy {
    CliBuf before;  /* "table (cols)" or "(query)", as given */
    bool from;
    bool psql_inout; /* pstdin / pstdout */
    char *file;     /* NULL: stdin / stdout */
    char *after;    /* the options, or NULL */
} SlashCopy;

static void
slash_copy_free(SlashCopy *sc)
{
    tdb_cli_buf_free(&sc->before);
    free(sc->file);
    free(sc->after);
}

/* Parse \copy's argument; false (after saying why) if it does not. */
static bool
parse_slash_copy(const char *args, SlashCopy *sc)
{
    static const char ws[] = " \t\n\r";
    Tokens t;
    char *token;
    bool ok = false;

    memset(sc, 0, sizeof(*sc));
    tdb_cli_buf_init(&sc->before);
    tdb_cli_buf_puts(&sc->before, "");
    if (args == NULL) {
        tdb_cli_log(CLI_LOG_ERROR, "\\copy: arguments required");
        slash_copy_free(sc);
        return false;
    }
    t.storage = tdb_cli_alloc(2 * strlen(args) + 1);
    strcpy(t.storage, args);
    t.next = t.storage;

    token = next_token(&t, ws, ".,()", "\"", 0, false);
    if (token == NULL)
        goto done;
    if (strcasecmp(token, "binary") == 0) {
        tdb_cli_buf_puts(&sc->before, token);
        if ((token = next_token(&t, ws, ".,()", "\"", 0, false)) == NULL)
            goto done;
    }
    if (token[0] == '(') { /* (query): up to the matching parenthesis */
        int parens = 1;

        while (parens > 0) {
            tdb_cli_buf_printf(&sc->before, " %s", token);
            if ((token = next_token(&t, ws, "()", "\"'", 0, true)) == NULL)
                goto done;
            if (token[0] == '(')
                parens++;
            else if (token[0] == ')')
                parens--;
        }
    }
    tdb_cli_buf_printf(&sc->before, " %s", token);
    if ((token = next_token(&t, ws, ".,()", "\"", 0, false)) == NULL)
        goto done;
    if (token[0] == '.') { /* schema.table */
        tdb_cli_buf_puts(&sc->before, token);
        if ((token = next_token(&t, ws, ".,()", "\"", 0, false)) == NULL)
            goto done;
        tdb_cli_buf_puts(&sc->before, token);
        if ((token = next_token(&t, ws, ".,()", "\"", 0, false)) == NULL)
            goto done;
    }
    if (token[0] == '(') { /* the column list */
        for (;;) {
            tdb_cli_buf_printf(&sc->before, " %s", token);
            if ((token = next_token(&t, ws, "()", "\"", 0, false)) == NULL)
                goto done;
            if (token[0] == ')')
                break;
        }
        tdb_cli_buf_printf(&sc->before, " %s", token);
        if ((token = next_token(&t, ws, ".,()", "\"", 0, false)) == NULL)
            goto done;
    }
    if (strcasecmp(token, "from") == 0)
        sc->from = true;
    else if (strcasecmp(token, "to") != 0)
        goto done;
    if ((token = next_token(&t, ws, ";", "'", 0, false)) == NULL)
        goto done;
    if (strcasecmp(token, "program") == 0) {
        tdb_cli_log(CLI_LOG_ERROR, "\\copy: PROGRAM is not supported");
        slash_copy_free(sc);
        free(t.storage);
        return false;
    }
    if (strcasecmp(token, "stdin") == 0 || strcasecmp(token, "stdout") == 0)
        sc->file = NULL;
    else if (strcasecmp(token, "pstdin") == 0 ||
             strcasecmp(token, "pstdout") == 0)
        sc->psql_inout = true;
    else {
        strip_quotes(token, '\'');
        sc->file = expand_tilde(tdb_cli_strdup(token));
    }
    token = rest_of_line(&t);
    if (token != NULL)
        sc->after = tdb_cli_strdup(token);
    ok = true;
    token = NULL;

done:
    if (!ok) {
        if (token != NULL)
            tdb_cli_log(CLI_LOG_ERROR, "\\copy: parse error at \"%s\"",
                        token);
        else
            tdb_cli_log(CLI_LOG_ERROR, "\\copy: parse error at end of line");
        slash_copy_free(sc);
    }
    free(t.storage);
    return ok;
}

bool
tdb_cli_do_copy(Shell *sh, const char *args)
{
    SlashCopy sc;
    FILE *stream;
    CliBuf query;
    struct stat st;
    bool ok;

    if (!parse_slash_copy(args, &sc))
        return false;
    if (sc.file != NULL) {
        canonicalize_path(sc.file);
        stream = fopen(sc.file, sc.from ? "r" : "w");
    } else if (!sc.psql_inout)
        stream = sc.from ? sh->cur_cmd_source : stdout;
    else
        stream = sc.from ? stdin : stdout;
    if (stream == NULL) {
        tdb_cli_log(CLI_LOG_ERROR, "%s: %s", sc.file, strerror(errno));
        slash_copy_free(&sc);
        return false;
    }
    if (fstat(fileno(stream), &st) != 0 || S_ISDIR(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            tdb_cli_log(CLI_LOG_ERROR, "%s: cannot copy from/to a directory",
                        sc.file);
        else
            tdb_cli_log(CLI_LOG_ERROR, "could not stat file \"%s\": %s",
                        sc.file, strerror(errno));
        if (sc.file != NULL)
            fclose(stream);
        slash_copy_free(&sc);
        return false;
    }

    tdb_cli_buf_init(&query);
    tdb_cli_buf_printf(&query, "COPY %s%s%s", tdb_cli_buf_str(&sc.before),
                       sc.from ? " FROM STDIN " : " TO STDOUT ",
                       sc.after != NULL ? sc.after : "");
    sh->copy_stream = stream;
    ok = tdb_cli_send_query(sh, tdb_cli_buf_str(&query));
    sh->copy_stream = NULL;
    tdb_cli_buf_free(&query);
    if (sc.file != NULL && fclose(stream) != 0) {
        tdb_cli_log(CLI_LOG_ERROR, "%s: %s", sc.file, strerror(errno));
        ok = false;
    }
    slash_copy_free(&sc);
    return ok;
}
