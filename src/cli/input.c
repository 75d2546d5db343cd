/*
 * input.c -- reading input lines: readline (with history) when a person
 * types, plain reads from a file otherwise.
 *
 * History lives in ~/.tupledb_history (or $TUPLEDB_HISTORY), holds the
 * last 500 entries (psql's HISTSIZE) and is written back at exit.  A
 * statement typed over several lines is one entry, lines joined by
 * newlines, as in psql.
 *
 * Ctrl-C at the prompt: readline runs through its callback interface, fed
 * one key at a time from a select() loop here, and is told not to catch
 * signals.  exec.c's SIGINT handler (installed without SA_RESTART) makes
 * select() fail with EINTR; the loop then throws away the line being
 * edited, restores the terminal and reports the interruption, so that the
 * main loop drops the statement being typed and prompts again, as psql
 * does.  (Ending readline from inside its blocking read would lose the
 * next key typed.)
 */
#include "common/base.h"

#include <errno.h>
#include <stdio.h>
#include <sys/select.h>
#include <stdlib.h>
#include <string.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "cli/cli.h"

#define HISTORY_SIZE 500

static char *history_file;
static bool history_loaded;

/* The line readline's callback interface handed back. */
static char *finished_line;
static bool line_finished;

static void
on_line(char *line)
{
    finished_line = line; /* NULL at end of input (Ctrl-D) */
    line_finished = true;
    rl_callback_handler_remove();
}

/*
 * readline(prompt), but through the callback interface so that Ctrl-C can
 * abandon the line cleanly (see the header).  *interrupted says it did.
 */
static char *
read_with_readline(const char *prompt, bool *interrupted)
{
    int fd = fileno(rl_instream != NULL ? rl_instream : stdin);

    finished_line = NULL;
    line_finished = false;
    rl_callback_handler_install(prompt, on_line);
    while (!line_finished) {
        fd_set fds;

        FD_ZERO(&fds);
        FD_SET(fd, &fds);
        if (select(fd + 1, &fds, NULL, NULL, NULL) < 0) {
            if (errno == EINTR && tdb_cli_cancel_pressed()) {
                rl_free_line_state();
                rl_callback_sigcleanup();
                rl_callback_handler_remove();
                *interrupted = true;
                return NULL;
            }
            if (errno != EINTR) {
                rl_callback_handler_remove();
                return NULL;
            }
            continue;
        }
        rl_callback_read_char();
    }
    return finished_line;
}

void
tdb_cli_input_init(Shell *sh)
{
    const char *env = getenv("TUPLEDB_HISTORY");
    const char *home = getenv("HOME");

    if (!sh->use_readline)
        return;
    rl_readline_name = "tupledb";
    rl_catch_signals = 0;
    using_history();
    if (env != NULL && env[0] != '\0')
        history_file = tdb_cli_strdup(env);
    else if (home != NULL) {
        CliBuf path;

        tdb_cli_buf_init(&path);
        tdb_cli_buf_printf(&path, "%s/.tupledb_history", home);
        history_file = path.data;
    }
    if (history_file != NULL)
        read_history(history_file); /* a missing file is fine */
    stifle_history(HISTORY_SIZE);
    history_loaded = true;
}

void
tdb_cli_input_finish(void)
{
    if (history_loaded && history_file != NULL) {
        stifle_history(HISTORY_SIZE);
        if (write_history(history_file) != 0)
            tdb_cli_log(CLI_LOG_ERROR, "could not save history to file "
                                       "\"%s\": %s",
                        history_file, strerror(errno));
    }
    free(history_file);
    history_file = NULL;
    history_loaded = false;
}

void
tdb_cli_history_add(Shell *sh, const char *entry)
{
    if (sh->use_readline && history_loaded && entry[0] != '\0')
        add_history(entry);
}

/* One line of a file, without its newline (malloc'd), or NULL at EOF. */
static char *
read_file_line(FILE *source)
{
    CliBuf line;
    int c;

    tdb_cli_buf_init(&line);
    while ((c = getc(source)) != EOF && c != '\n')
        tdb_cli_buf_putc(&line, (char)c);
    if (c == EOF && line.data == NULL) {
        if (!feof(source) && errno == EINTR)
            clearerr(source); /* Ctrl-C: the caller sees the flag */
        return NULL;
    }
    if (line.data == NULL)
        tdb_cli_buf_puts(&line, "");
    return line.data;
}

char *
tdb_cli_read_line(Shell *sh, FILE *source, const char *prompt,
                  bool *interrupted)
{
    char *line;

    *interrupted = false;
    if (!sh->interactive)
        return read_file_line(source);
    if (!sh->use_readline) {
        fputs(prompt, stdout);
        fflush(stdout);
        line = read_file_line(source);
        if (line == NULL && tdb_cli_cancel_pressed()) {
            *interrupted = true;
            return tdb_cli_strdup("");
        }
        return line;
    }
    line = read_with_readline(prompt, interrupted);
    if (*interrupted) {
        free(line);
        return tdb_cli_strdup("");
    }
    return line;
}
