/*
 * test_print.c -- the shell's table printer against real psql 15.
 *
 * tests/fixtures/psql/print/ holds, per case, a query's result as the
 * printer's input (NAME.data: columns with their type OIDs, rows of
 * values) and what psql 15 printed for it in the aligned (NAME.aligned),
 * tuples-only (NAME.tuples) and unaligned (NAME.unaligned) formats,
 * captured by tests/fixtures/psql/capture_print.sh.  Each test feeds the
 * same columns and rows to tdb_cli_print_table and compares the bytes.
 * The cases cover NULLs, wide and combining UTF-8 characters, values and
 * headers with newlines, control characters, an empty result, a result
 * without columns, number vs text alignment, one row and many rows.
 */
#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "test.h"

/* A parsed NAME.data file. */
typedef struct PrintCase {
    int ncolumns;
    char **headers;
    char *aligns;
    long nrows;
    char **cells;
} PrintCase;

/* The whole fixture file tests/fixtures/psql/print/NAME.EXT (malloc'd). */
static char *
read_fixture(const char *name, const char *ext)
{
    char rel[256], path[1024];
    FILE *f;
    CliBuf buf;
    int c;

    snprintf(rel, sizeof(rel), "psql/print/%s.%s", name, ext);
    f = tdb_test_open_fixture(rel, NULL, path, sizeof(path));
    if (f == NULL) {
        tdb_test_fail(__FILE__, __LINE__, "cannot open fixture %s", path);
        return NULL;
    }
    tdb_cli_buf_init(&buf);
    tdb_cli_buf_puts(&buf, "");
    while ((c = getc(f)) != EOF)
        tdb_cli_buf_putc(&buf, (char)c);
    fclose(f);
    return buf.data;
}

/* Decode hex ("-" is NULL) into a malloc'd string. */
static char *
unhex(const char *hex, size_t n)
{
    char *out;

    if (n == 1 && hex[0] == '-')
        return NULL;
    out = tdb_cli_alloc(n / 2 + 1);
    for (size_t i = 0; i + 1 < n; i += 2) {
        unsigned int byte;

        sscanf(hex + i, "%2x", &byte);
        out[i / 2] = (char)byte;
    }
    out[n / 2] = '\0';
    return out;
}

/* Parse NAME.data (format: see capture_print.sh). */
static bool
load_case(const char *name, PrintCase *pc)
{
    char *text = read_fixture(name, "data");
    char *line, *save = NULL;
    int col = 0;

    memset(pc, 0, sizeof(*pc));
    if (text == NULL)
        return false;
    for (line = strtok_r(text, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "columns ", 8) == 0) {
            pc->ncolumns = atoi(line + 8);
            pc->headers = tdb_cli_alloc(sizeof(char *) *
                                        (size_t)Max(pc->ncolumns, 1));
            pc->aligns = tdb_cli_alloc((size_t)Max(pc->ncolumns, 1));
        } else if (strncmp(line, "col ", 4) == 0) {
            char *sp = strchr(line + 4, ' ');

            pc->aligns[col] =
                tdb_cli_type_alignment((unsigned int)atoi(line + 4));
            pc->headers[col++] = unhex(sp + 1, strlen(sp + 1));
        } else if (strncmp(line, "row", 3) == 0) {
            const char *p = line + 3;

            pc->cells = tdb_cli_realloc(
                pc->cells, sizeof(char *) * (size_t)(pc->nrows + 1) *
                               (size_t)Max(pc->ncolumns, 1));
            for (int i = 0; i < pc->ncolumns; i++) {
                size_t n;

                p += strspn(p, " ");
                n = strcspn(p, " ");
                pc->cells[pc->nrows * pc->ncolumns + i] = unhex(p, n);
                p += n;
            }
            pc->nrows++;
        }
    }
    free(text);
    return true;
}

static void
free_case(PrintCase *pc)
{
    for (int i = 0; i < pc->ncolumns; i++)
        free(pc->headers[i]);
    for (long i = 0; i < pc->nrows * pc->ncolumns; i++)
        free(pc->cells[i]);
    free(pc->headers);
    free(pc->aligns);
    free(pc->cells);
}

/* Print pc with opt into a string (malloc'd). */
static char *
print_to_string(const PrintCase *pc, const CliPrintOptions *opt)
{
    char *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    CliTable t;

    memset(&t, 0, sizeof(t));
    t.ncolumns = pc->ncolumns;
    t.headers = (const char *const *)pc->headers;
    t.aligns = pc->aligns;
    t.nrows = pc->nrows;
    t.cells = (const char *const *)pc->cells;
    t.default_footer = true;
    tdb_cli_print_table(f, &t, opt);
    fclose(f);
    return out;
}

/* Compare our output with psql's in NAME.EXT. */
static void
expect_same_as_psql(const char *name, const char *ext,
                    const CliPrintOptions *opt)
{
    PrintCase pc;
    char *expected, *got;

    if (!load_case(name, &pc))
        return;
    expected = read_fixture(name, ext);
    got = print_to_string(&pc, opt);
    if (expected != NULL && strcmp(got, expected) != 0)
        tdb_test_fail(__FILE__, __LINE__,
                      "%s.%s differs from psql:\n--- psql\n%s--- ours\n%s",
                      name, ext, expected, got);
    free(expected);
    free(got);
    free_case(&pc);
}

/* Every case in the three formats psql printed it in. */
static void
check_case(const char *name)
{
    CliPrintOptions opt = {CLI_FORMAT_ALIGNED, false, "|", "\n", ""};

    expect_same_as_psql(name, "aligned", &opt);
    opt.tuples_only = true;
    expect_same_as_psql(name, "tuples", &opt);
    opt.tuples_only = false;
    opt.format = CLI_FORMAT_UNALIGNED;
    expect_same_as_psql(name, "unaligned", &opt);
}

/* Every captured case (tests/fixtures/psql/print/NAME.sql). */
TEST_BEGIN(test_psql_cases)
{
    static const char *const cases[] = {
        "nulls",        "utf8_wide", "multiline",    "empty",
        "numeric_text", "single_row", "many_rows",   "zero_columns",
        "controls",     "headers",
    };

    for (size_t i = 0; i < lengthof(cases); i++)
        check_case(cases[i]);
}
TEST_END

/* Widths psql uses, spot-checked (the tables come from psql itself). */
TEST_BEGIN(test_display_width)
{
    expect_int_eq(tdb_cli_char_width((const unsigned char *)"a"), 1);
    expect_int_eq(tdb_cli_char_width((const unsigned char *)"\xe6\x97\xa5"),
                  2); /* U+65E5 */
    expect_int_eq(tdb_cli_char_width((const unsigned char *)"\xcc\x81"),
                  0); /* U+0301 combining acute */
    expect_int_eq(tdb_cli_char_width((const unsigned char *)"\x07"), -1);
    expect_int_eq(tdb_cli_ucs_width(0x85), -1);
    expect_int_eq(tdb_cli_ucs_width(0x1F418), 2); /* elephant */
    expect_int_eq(tdb_cli_ucs_width(0xA0), 1);
}
TEST_END

/* psql drops invalid UTF-8 before printing. */
TEST_BEGIN(test_validate)
{
    char *s = tdb_cli_utf8_validate("a\xff" "b\xc3(\xe6\x97\xa5");

    expect_str_eq(s, "ab(\xe6\x97\xa5");
    free(s);
    s = tdb_cli_utf8_validate("x\xf0\x9f\xbf\xbey"); /* U+1FFFE */
    expect_str_eq(s, "xy");
    free(s);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "cli_print", TEST_CASE(test_psql_cases),
                     TEST_CASE(test_display_width), TEST_CASE(test_validate));
}
