/*
 * print.c -- result tables printed byte for byte as psql prints them.
 *
 * Aligned format (psql's default, border 1, ASCII line style):
 *
 *      a  |   b   | c         <- headers centered; extra space goes right
 *   ------+-------+---        <- "-" rule, "-+-" between columns
 *    x    |    42 |           <- text left-aligned, numbers right-aligned
 *    two +|     1 | y         <- a value with a newline: "+" after each
 *    lines|       |              line but the last (same in headers)
 *   (2 rows)                  <- footer, then an empty line
 *
 * Every column is as wide as its widest header or value line, measured in
 * display columns (wcwidth.c).  Cells are shown as psql formats them: a
 * tab becomes spaces up to the next multiple of 8, a carriage return the
 * two characters \r, other control characters \xNN (ASCII) or \uNNNN;
 * invalid UTF-8 is dropped first.  The last column of a line is not padded
 * unless it is right-aligned or continues on the next line, and a header
 * line always ends in a space or "+".  A table with no columns prints a
 * rule of "--".  -t drops headers and footer but keeps the widths and the
 * closing empty line.  (psql's wrapped format, other borders and line
 * styles, the pager and \x are not implemented.)
 *
 * Unaligned format (-A): fields joined by the field separator, records by
 * the record separator, the header as the first record, the footer as the
 * last, values as they are (no escaping), a newline at the end.
 */
#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* One display line of a formatted cell. */
typedef struct CellLine {
    size_t offset; /* into the cell's formatted text */
    size_t nbytes;
    int width; /* display columns */
} CellLine;

/* A cell formatted for aligned output. */
typedef struct FormattedCell {
    CliBuf text;     /* formatted bytes of all lines, one after another */
    CellLine *lines; /* nlines entries */
    int nlines;
    int width; /* the widest line */
} FormattedCell;

/* Start a new display line at the end of the formatted text. */
static void
start_line(FormattedCell *fc)
{
    fc->lines = tdb_cli_realloc(fc->lines,
                                sizeof(CellLine) * (size_t)(fc->nlines + 1));
    fc->lines[fc->nlines].offset = fc->text.len;
    fc->lines[fc->nlines].nbytes = 0;
    fc->lines[fc->nlines].width = 0;
    fc->nlines++;
}

/* Add n bytes of display width w to the current line. */
static void
add_to_line(FormattedCell *fc, const char *bytes, size_t n, int w)
{
    CellLine *line = &fc->lines[fc->nlines - 1];

    tdb_cli_buf_append(&fc->text, bytes, n);
    line->nbytes += n;
    line->width += w;
    if (line->width > fc->width)
        fc->width = line->width;
}

/*
 * Format the (already validated) text s into display lines, as psql's
 * pg_wcsformat does.
 */
static void
format_cell(FormattedCell *fc, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    memset(fc, 0, sizeof(*fc));
    tdb_cli_buf_init(&fc->text);
    start_line(fc);
    while (*p != '\0') {
        int len = tdb_cli_utf8_len(*p);
        int w;
        char esc[16];

        if (strnlen((const char *)p, (size_t)len) < (size_t)len)
            break; /* a truncated character ends the text */
        w = tdb_cli_char_width(p);
        if (len == 1 && *p == '\n')
            start_line(fc);
        else if (len == 1 && *p == '\r')
            add_to_line(fc, "\\r", 2, 2);
        else if (len == 1 && *p == '\t') {
            do
                add_to_line(fc, " ", 1, 1);
            while (fc->lines[fc->nlines - 1].width % 8 != 0);
        } else if (len == 1 && w < 0) {
            snprintf(esc, sizeof(esc), "\\x%02X", *p);
            add_to_line(fc, esc, 4, 4);
        } else if (w < 0) {
            /* psql counts 6 columns whatever the number of hex digits */
            int n = snprintf(esc, sizeof(esc), "\\u%04X",
                             (unsigned int)tdb_cli_utf8_decode(p));

            add_to_line(fc, esc, (size_t)n, 6);
        } else
            add_to_line(fc, (const char *)p, (size_t)len, w);
        p += len;
    }
}

static void
free_cell(FormattedCell *fc)
{
    tdb_cli_buf_free(&fc->text);
    free(fc->lines);
}

static void
put_spaces(FILE *out, int n)
{
    for (int i = 0; i < n; i++)
        fputc(' ', out);
}

static void
put_line(FILE *out, const FormattedCell *fc, int line)
{
    fwrite(tdb_cli_buf_str(&fc->text) + fc->lines[line].offset, 1,
           fc->lines[line].nbytes, out);
}

/* The "(N rows)" footer, or the table's own footers. */
static int
footer_lines(const CliTable *t, const char *const **footers,
             char *default_footer, size_t size)
{
    if (t->nfooters > 0) {
        *footers = t->footers;
        return t->nfooters;
    }
    if (!t->default_footer)
        return 0;
    snprintf(default_footer, size, t->nrows == 1 ? "(%ld row)" : "(%ld rows)",
             t->nrows);
    return 1;
}

/* The header line(s): each header centered in its column. */
static void
print_aligned_header(FILE *out, const CliTable *t,
                     const FormattedCell *headers, const int *widths)
{
    int ncols = t->ncolumns;
    int remaining = ncols;
    bool *done = tdb_cli_alloc(sizeof(bool) * (size_t)Max(ncols, 1));

    memset(done, 0, sizeof(bool) * (size_t)Max(ncols, 1));
    for (int line = 0; remaining > 0; line++) {
        for (int i = 0; i < ncols; i++) {
            fputc(' ', out);
            if (!done[i]) {
                int nbspace = widths[i] - headers[i].lines[line].width;

                put_spaces(out, nbspace / 2);
                put_line(out, &headers[i], line);
                put_spaces(out, (nbspace + 1) / 2);
                if (line + 1 >= headers[i].nlines) {
                    done[i] = true;
                    remaining--;
                }
            } else
                put_spaces(out, widths[i]);
            fputc(done[i] ? ' ' : '+', out);
            if (i < ncols - 1)
                fputc('|', out);
        }
        fputc('\n', out);
    }
    free(done);

    /* the rule under the header */
    fputc('-', out);
    for (int i = 0; i < ncols; i++) {
        for (int j = 0; j < widths[i]; j++)
            fputc('-', out);
        if (i < ncols - 1)
            fputs("-+-", out);
    }
    fputs("-\n", out);
}

/* One table row, over as many lines as its tallest cell. */
static void
print_aligned_row(FILE *out, const CliTable *t, const FormattedCell *cells,
                  const int *widths)
{
    int ncols = t->ncolumns;
    bool more = true;

    for (int line = 0; more; line++) {
        more = false;
        for (int j = 0; j < ncols; j++) {
            const FormattedCell *fc = &cells[j];
            bool not_last = j < ncols - 1;
            bool continues = line + 1 < fc->nlines;
            int used = widths[j];

            fputc(' ', out);
            if (line < fc->nlines) {
                used = fc->lines[line].width;
                if (t->aligns[j] == 'r')
                    put_spaces(out, widths[j] - used);
                put_line(out, fc, line);
                if (continues)
                    more = true;
            } else if (not_last)
                put_spaces(out, widths[j]);
            if (t->aligns[j] != 'r' && (not_last || continues))
                put_spaces(out, widths[j] - used);
            if (continues)
                fputc('+', out);
            else if (not_last)
                fputc(' ', out);
            if (not_last)
                fputc('|', out);
        }
        fputc('\n', out);
    }
}

static void
print_aligned(FILE *out, const CliTable *t, const CliPrintOptions *opt,
              char **headers, char **cells)
{
    int ncols = t->ncolumns;
    size_t n = (size_t)Max(ncols, 1);
    FormattedCell *hcells = tdb_cli_alloc(sizeof(FormattedCell) * n);
    FormattedCell *rcells = tdb_cli_alloc(sizeof(FormattedCell) * n);
    int *widths = tdb_cli_alloc(sizeof(int) * n);
    int width_total = ncols > 0 ? ncols * 3 - 1 : 0;
    const char *const *footers = NULL;
    char default_footer[64];
    int nfooters;

    /* widths: the widest header or value line of each column */
    for (int i = 0; i < ncols; i++) {
        format_cell(&hcells[i], headers[i]);
        widths[i] = hcells[i].width;
    }
    for (long r = 0; r < t->nrows; r++)
        for (int i = 0; i < ncols; i++) {
            FormattedCell fc;

            format_cell(&fc, cells[r * ncols + i]);
            if (fc.width > widths[i])
                widths[i] = fc.width;
            free_cell(&fc);
        }
    for (int i = 0; i < ncols; i++)
        width_total += widths[i];

    if (t->title != NULL && !opt->tuples_only) {
        FormattedCell title;

        format_cell(&title, t->title);
        if (title.width < width_total)
            put_spaces(out, (width_total - title.width) / 2);
        fprintf(out, "%s\n", t->title);
        free_cell(&title);
    }
    if (!opt->tuples_only)
        print_aligned_header(out, t, hcells, widths);

    for (long r = 0; r < t->nrows && ncols > 0; r++) {
        for (int i = 0; i < ncols; i++)
            format_cell(&rcells[i], cells[r * ncols + i]);
        print_aligned_row(out, t, rcells, widths);
        for (int i = 0; i < ncols; i++)
            free_cell(&rcells[i]);
    }

    nfooters = footer_lines(t, &footers, default_footer,
                            sizeof(default_footer));
    if (!opt->tuples_only)
        for (int i = 0; i < nfooters; i++)
            fprintf(out, "%s\n", footers != NULL ? footers[i] : default_footer);
    fputc('\n', out);

    for (int i = 0; i < ncols; i++)
        free_cell(&hcells[i]);
    free(hcells);
    free(rcells);
    free(widths);
}

static void
print_unaligned(FILE *out, const CliTable *t, const CliPrintOptions *opt,
                char **headers, char **cells)
{
    int ncols = t->ncolumns;
    bool need_recordsep = false;
    const char *const *footers = NULL;
    char default_footer[64];
    int nfooters;

    if (!opt->tuples_only && t->title != NULL) {
        fputs(t->title, out);
        fputs(opt->record_sep, out);
    }
    if (!opt->tuples_only) {
        for (int i = 0; i < ncols; i++) {
            if (i > 0)
                fputs(opt->field_sep, out);
            fputs(headers[i], out);
        }
        need_recordsep = true;
    }
    for (long r = 0; r < t->nrows && ncols > 0; r++)
        for (int i = 0; i < ncols; i++) {
            if (need_recordsep) {
                fputs(opt->record_sep, out);
                need_recordsep = false;
            }
            fputs(cells[r * ncols + i], out);
            if (i < ncols - 1)
                fputs(opt->field_sep, out);
            else
                need_recordsep = true;
        }
    nfooters = footer_lines(t, &footers, default_footer,
                            sizeof(default_footer));
    if (!opt->tuples_only)
        for (int i = 0; i < nfooters; i++) {
            if (need_recordsep)
                fputs(opt->record_sep, out);
            fputs(footers != NULL ? footers[i] : default_footer, out);
            need_recordsep = true;
        }
    if (need_recordsep)
        fputc('\n', out);
}

/*
 * Print table to out in the format of opt.  The texts are validated
 * (psql drops invalid UTF-8 before printing) and NULL cells shown as
 * opt->null_print.
 */
void
tdb_cli_print_table(FILE *out, const CliTable *t, const CliPrintOptions *opt)
{
    int ncols = t->ncolumns;
    size_t ncells = (size_t)t->nrows * (size_t)ncols;
    char **headers = tdb_cli_alloc(sizeof(char *) * (size_t)Max(ncols, 1));
    char **cells = tdb_cli_alloc(sizeof(char *) * Max(ncells, 1));

    for (int i = 0; i < ncols; i++)
        headers[i] = tdb_cli_utf8_validate(t->headers[i]);
    for (size_t i = 0; i < ncells; i++)
        cells[i] = tdb_cli_utf8_validate(
            t->cells[i] != NULL ? t->cells[i] : opt->null_print);
    if (opt->format == CLI_FORMAT_UNALIGNED)
        print_unaligned(out, t, opt, headers, cells);
    else
        print_aligned(out, t, opt, headers, cells);
    for (int i = 0; i < ncols; i++)
        free(headers[i]);
    for (size_t i = 0; i < ncells; i++)
        free(cells[i]);
    free(headers);
    free(cells);
}

char
tdb_cli_type_alignment(unsigned int type_oid)
{
    switch (type_oid) {
    case 20:   /* int8 */
    case 21:   /* int2 */
    case 23:   /* int4 */
    case 26:   /* oid */
    case 28:   /* xid */
    case 29:   /* cid */
    case 700:  /* float4 */
    case 701:  /* float8 */
    case 790:  /* money */
    case 1700: /* numeric */
    case 5069: /* xid8 */
        return 'r';
    default:
        return 'l';
    }
}
