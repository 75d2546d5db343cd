/*
 * errors.c -- error and notice text, laid out as libpq lays it out for
 * psql (default verbosity, CONTEXT shown for errors only):
 *
 *   ERROR:  syntax error at or near "selec"
 *   LINE 2:   selec 1;
 *             ^
 *   DETAIL:  ...
 *   HINT:  ...
 *   CONTEXT:  ...
 *
 * The LINE display (libpq's reportErrorPosition): the error position
 * counts characters of the statement text from 1; LINE n is the line
 * holding it (\r, \n and \r\n each end a line), tabs are shown as single
 * spaces, and the caret sits under the position, counting display columns
 * (wide characters take two, control characters one).  A line wider than
 * 60 columns is cut to a window: if the position is far enough from the
 * start, the line keeps its first 60 columns and ends in "..."; otherwise
 * the right side is cut 10 columns past the position ("...") and, if still
 * too wide, the left side too ("..." after "LINE n: ").  A position past
 * the end of the text shows nothing.
 */
#include "common/base.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

#define DISPLAY_SIZE 60  /* the widest LINE text shown, in columns */
#define MIN_RIGHT_CUT 10 /* columns kept to the right of the position */

/* Display width for the LINE text: at least 1 per character. */
static int
position_width(const char *s)
{
    int w = tdb_cli_char_width((const unsigned char *)s);

    return w <= 0 ? 1 : w;
}

/* Append the LINE n: text and the caret line for 1-based position loc. */
static void
append_position(CliBuf *out, const char *query, int loc)
{
    char *text = tdb_cli_strdup(query);
    size_t slen = strlen(text) + 1;
    int *byte_at = tdb_cli_alloc(sizeof(int) * slen);
    int *col_at = tdb_cli_alloc(sizeof(int) * slen);
    int cno, byteoff = 0, col = 0, loc_line = 1, ibeg = 0, iend = -1;
    bool beg_trunc = false, end_trunc = false;

    loc--; /* to 0-based */
    for (cno = 0; text[byteoff] != '\0'; cno++) {
        char ch = text[byteoff];

        byte_at[cno] = byteoff;
        col_at[cno] = col;
        if (ch == '\t')
            text[byteoff] = ' ';
        else if (ch == '\r' || ch == '\n') {
            if (cno < loc) {
                if (ch == '\r' || cno == 0 || text[byte_at[cno - 1]] != '\r')
                    loc_line++;
                ibeg = cno + 1;
            } else {
                iend = cno;
                break;
            }
        }
        col += position_width(&text[byteoff]);
        byteoff += tdb_cli_utf8_len((unsigned char)text[byteoff]);
        if ((size_t)byteoff >= slen) /* a truncated last character */
            byteoff = (int)slen - 1;
    }
    if (iend < 0) {
        iend = cno;
        byte_at[iend] = byteoff;
        col_at[iend] = col;
    }

    if (loc <= cno) {
        int prefix_width;
        size_t start = out->len;

        if (col_at[iend] - col_at[ibeg] > DISPLAY_SIZE) {
            if (col_at[ibeg] + DISPLAY_SIZE >= col_at[loc] + MIN_RIGHT_CUT) {
                while (col_at[iend] - col_at[ibeg] > DISPLAY_SIZE)
                    iend--;
                end_trunc = true;
            } else {
                while (col_at[loc] + MIN_RIGHT_CUT < col_at[iend]) {
                    iend--;
                    end_trunc = true;
                }
                while (col_at[iend] - col_at[ibeg] > DISPLAY_SIZE) {
                    ibeg++;
                    beg_trunc = true;
                }
            }
        }
        text[byte_at[iend]] = '\0';
        tdb_cli_buf_printf(out, "LINE %d: ", loc_line);
        if (beg_trunc)
            tdb_cli_buf_puts(out, "...");
        prefix_width = 0;
        for (size_t i = start; i < out->len;
             i += (size_t)tdb_cli_utf8_len((unsigned char)out->data[i]))
            prefix_width += position_width(&out->data[i]);
        tdb_cli_buf_puts(out, &text[byte_at[ibeg]]);
        if (end_trunc)
            tdb_cli_buf_puts(out, "...");
        tdb_cli_buf_putc(out, '\n');
        for (int i = 0; i < prefix_width + col_at[loc] - col_at[ibeg]; i++)
            tdb_cli_buf_putc(out, ' ');
        tdb_cli_buf_puts(out, "^\n");
    }
    free(col_at);
    free(byte_at);
    free(text);
}

void
tdb_cli_format_error(CliBuf *out, const tupledb_error *e, const char *query,
                     bool is_error, CliVerbosity verbosity)
{
    const char *severity = e->severity != NULL ? e->severity : "ERROR";
    const char *message = e->message != NULL ? e->message
                                             : "no error text available";

    /* libpq falls back to terse when a report has no SQLSTATE. */
    if (verbosity == CLI_VERBOSITY_SQLSTATE) {
        if (e->sqlstate[0] != '\0') {
            tdb_cli_buf_printf(out, "%s:  %.5s\n", severity, e->sqlstate);
            return;
        }
        verbosity = CLI_VERBOSITY_TERSE;
    }
    /* Terse reports put the position after the message, no LINE text. */
    if (verbosity == CLI_VERBOSITY_TERSE) {
        tdb_cli_buf_printf(out, "%s:  %s", severity, message);
        if (e->position > 0)
            tdb_cli_buf_printf(out, " at character %d", e->position);
        tdb_cli_buf_putc(out, '\n');
        return;
    }
    if (verbosity == CLI_VERBOSITY_VERBOSE && e->sqlstate[0] != '\0')
        tdb_cli_buf_printf(out, "%s:  %.5s: %s\n", severity, e->sqlstate,
                           message);
    else
        tdb_cli_buf_printf(out, "%s:  %s\n", severity, message);
    if (query != NULL && e->position > 0)
        append_position(out, query, e->position);
    if (e->detail != NULL)
        tdb_cli_buf_printf(out, "DETAIL:  %s\n", e->detail);
    if (e->hint != NULL)
        tdb_cli_buf_printf(out, "HINT:  %s\n", e->hint);
    if (is_error && e->context != NULL)
        tdb_cli_buf_printf(out, "CONTEXT:  %s\n", e->context);
}
