/*
 * mainloop.c -- read lines, cut them into statements and backslash
 * commands, run them (psql's MainLoop), for stdin, -f files and \i.
 *
 * Each line is scanned (scan.c) into the statement buffer; lines of one
 * statement are joined with newlines, and the text psql would send is
 * exactly what is sent, so error positions and LINE numbers agree:
 *
 *   - an empty line outside a quoted string or comment is skipped (and
 *     not echoed by -a);
 *   - whitespace and "--" comments before a statement are left out;
 *   - a ';' at the top level sends the statement (with its ';'); the rest
 *     of the line is scanned after it has run;
 *   - a backslash command runs when reached; a line holding only one does
 *     not add a newline to an unfinished statement;
 *   - at the end of a file, an unfinished statement is sent as it is
 *     (not when typing: there it is dropped when the shell quits).
 *
 * With ON_ERROR_STOP, the first failure ends the file with exit status 3;
 * otherwise failures do not change the exit status of a file.  Typing
 * "help", "quit" or "exit" alone on a line does what psql does.  Ctrl-C
 * while typing clears the unfinished statement; while reading a file it
 * stops with exit status 3.
 */
#include "common/base.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"

/* Variable lookup for the scanner's :name substitution. */
static const char *
get_var(void *arg, const char *name)
{
    return tdb_cli_var_get(arg, name);
}

/* psql's default prompt "%/%R%x%# " with the database called tupledb. */
static void
make_prompt(Shell *sh, CliPromptStatus status, char *buf, size_t size)
{
    static const char marks[] = "=-*'\"$(";
    char txn = tupledb_transaction_status(sh->db);

    snprintf(buf, size, "tupledb%c%s> ", marks[status],
             txn == 'T' ? "*" : txn == 'E' ? "!" : "");
}

/*
 * Is line one of the words help / quit / exit / \q alone (plus an
 * optional semicolon and whitespace)?  Returns the word's length or 0.
 */
static size_t
assistance_word(const char *line, const char *word)
{
    size_t n = strlen(word);
    const char *rest;

    if (strncasecmp(line, word, n) != 0)
        return 0;
    rest = line + n;
    while (isspace((unsigned char)*rest))
        rest++;
    if (*rest == ';')
        rest++;
    while (isspace((unsigned char)*rest))
        rest++;
    return *rest == '\0' ? n : 0;
}

/*
 * The interactive words psql understands.  Returns true if the shell
 * must quit; *skip is set when the line was consumed.
 */
static bool
handle_assistance(const CliBuf *query, CliPromptStatus prompt,
                  const char *line, bool *skip)
{
    bool statement_ready = prompt == CLI_PROMPT_READY ||
                           prompt == CLI_PROMPT_CONTINUE ||
                           prompt == CLI_PROMPT_PAREN;

    *skip = false;
    if (assistance_word(line, "help")) {
        if (query->len != 0)
            puts("Use \\? for help or press control-C to clear the input "
                 "buffer.");
        else {
            puts("You are using tupledb, a psql-compatible shell for the "
                 "tupledb database.");
            puts("Type:  \\? for help with tupledb commands\n"
                 "       terminate with semicolon to execute query\n"
                 "       \\q to quit");
            *skip = true;
        }
    } else if (assistance_word(line, "quit") || assistance_word(line, "exit")) {
        if (query->len == 0)
            return true;
        puts(statement_ready ? "Use \\q to quit." : "Use control-D to quit.");
    } else if (strncmp(line, "\\q", 2) == 0 && assistance_word(line, "\\q") &&
               query->len != 0 && !statement_ready)
        puts("Use control-D to quit.");
    return false;
}

/* Send the buffered statement and clear the buffer. */
static bool
send_statement(Shell *sh, CliBuf *query)
{
    bool ok = tdb_cli_send_query(sh, tdb_cli_buf_str(query));

    tdb_cli_buf_reset(query);
    return ok;
}

/* Hand a pending multi-line history entry to readline. */
static void
flush_history(Shell *sh, CliBuf *history)
{
    if (history->len > 0)
        tdb_cli_history_add(sh, tdb_cli_buf_str(history));
    tdb_cli_buf_reset(history);
}

static void
append_history(CliBuf *history, const char *line)
{
    if (history->len > 0)
        tdb_cli_buf_putc(history, '\n');
    tdb_cli_buf_puts(history, line);
}

int
tdb_cli_main_loop(Shell *sh, FILE *source)
{
    CliScanState *st = tdb_cli_scan_create(get_var, sh);
    CliBuf query, history;
    CliPromptStatus prompt = CLI_PROMPT_READY;
    int result = CLI_EXIT_SUCCESS;
    bool prev_interactive = sh->interactive;
    FILE *prev_source = sh->cur_cmd_source;
    uint64 prev_lineno = tdb_cli_log_state.lineno;
    bool terminate = false;

    sh->interactive = source == stdin && !sh->notty;
    sh->cur_cmd_source = source; /* COPY FROM STDIN reads its data here */
    tdb_cli_log_state.lineno = 0;
    tdb_cli_buf_init(&query);
    tdb_cli_buf_init(&history);

    while (result == CLI_EXIT_SUCCESS && !terminate) {
        char prompt_text[64];
        bool interrupted, skip, success = true, die_on_error;
        bool saved_in_history = false;
        long added_nl = -1;
        char *line;

        if (!sh->interactive && tdb_cli_cancel_pressed()) {
            result = CLI_EXIT_USER; /* Ctrl-C stops a script */
            break;
        }
        fflush(stdout);
        if (query.len == 0)
            prompt = CLI_PROMPT_READY;
        make_prompt(sh, prompt, prompt_text, sizeof(prompt_text));
        line = tdb_cli_read_line(sh, source, prompt_text, &interrupted);
        if (interrupted) {
            /* Ctrl-C at the prompt: forget the unfinished statement */
            free(line);
            tdb_cli_scan_reset(st);
            tdb_cli_buf_reset(&query);
            tdb_cli_buf_reset(&history);
            putchar('\n');
            continue;
        }
        if (line == NULL) {
            if (!sh->interactive && tdb_cli_cancel_pressed())
                result = CLI_EXIT_USER;
            else if (sh->interactive)
                puts(sh->quiet ? "" : "\\q");
            break;
        }
        tdb_cli_log_state.lineno++;

        /* a UTF-8 byte-order mark at the start of input is ignored */
        if (tdb_cli_log_state.lineno == 1 &&
            strncmp(line, "\xef\xbb\xbf", 3) == 0)
            memmove(line, line + 3, strlen(line + 3) + 1);
        if (line[0] == '\0' && !tdb_cli_scan_in_quote(st)) {
            free(line);
            continue;
        }
        if (sh->interactive) {
            terminate = handle_assistance(&query, prompt, line, &skip);
            if (terminate || skip) {
                free(line);
                fflush(stdout);
                continue;
            }
        }
        if (sh->echo == CLI_ECHO_ALL && !sh->interactive) {
            puts(line);
            fflush(stdout);
        }
        if (query.len > 0) {
            tdb_cli_buf_putc(&query, '\n');
            added_nl = (long)query.len;
        }
        die_on_error = sh->on_error_stop;

        tdb_cli_scan_setup(st, line);
        while (success || !die_on_error) {
            CliScanResult sr = tdb_cli_scan(st, &query, &prompt);

            if (sr == CLI_SCAN_SEMICOLON) {
                if (sh->interactive && !saved_in_history) {
                    append_history(&history, line);
                    flush_history(sh, &history);
                    saved_in_history = true;
                }
                success = send_statement(sh, &query);
                added_nl = -1;
            } else if (sr == CLI_SCAN_BACKSLASH) {
                CliCmdResult cr;

                /* a line of only a backslash command adds no newline */
                if ((long)query.len == added_nl) {
                    query.data[--query.len] = '\0';
                    flush_history(sh, &history);
                }
                added_nl = -1;
                if (sh->interactive && !saved_in_history) {
                    append_history(&history, line);
                    flush_history(sh, &history);
                    saved_in_history = true;
                }
                cr = tdb_cli_slash_cmd(sh, st);
                success = cr != CLI_CMD_ERROR;
                if (cr == CLI_CMD_TERMINATE) {
                    terminate = true;
                    break;
                }
            }
            if (sr == CLI_SCAN_INCOMPLETE || sr == CLI_SCAN_EOL)
                break;
        }
        if (sh->interactive) {
            if (!saved_in_history)
                append_history(&history, line);
            if (query.len == 0)
                flush_history(sh, &history);
        }
        free(line);
        if (!sh->interactive && !success && die_on_error)
            result = CLI_EXIT_USER;
    }

    /* a statement without a semicolon at the end of a file */
    if (query.len > 0 && !sh->interactive && result == CLI_EXIT_SUCCESS &&
        !terminate) {
        if (!send_statement(sh, &query) && sh->on_error_stop)
            result = CLI_EXIT_USER;
    }

    tdb_cli_buf_free(&query);
    tdb_cli_buf_free(&history);
    tdb_cli_scan_destroy(st);
    sh->interactive = prev_interactive;
    sh->cur_cmd_source = prev_source;
    tdb_cli_log_state.lineno = prev_lineno;
    return result;
}

int
tdb_cli_process_file(Shell *sh, const char *filename)
{
    CliLogState saved = tdb_cli_log_state;
    FILE *f;
    int rc;

    if (strcmp(filename, "-") == 0) {
        f = stdin;
        filename = "<stdin>";
    } else if ((f = fopen(filename, "r")) == NULL) {
        tdb_cli_log(CLI_LOG_ERROR, "%s: %s", filename, strerror(errno));
        return CLI_EXIT_FAILURE;
    }
    tdb_cli_log_state.inputfile = filename;
    tdb_cli_log_state.terse = false;
    rc = tdb_cli_main_loop(sh, f);
    if (f != stdin)
        fclose(f);
    tdb_cli_log_state.inputfile = saved.inputfile;
    tdb_cli_log_state.lineno = saved.lineno;
    tdb_cli_log_state.terse = saved.inputfile == NULL;
    return rc;
}
