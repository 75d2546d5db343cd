/*
 * describe.c -- \dt and \d: what the catalog holds, in psql's layout.
 *
 *          List of relations              \dt, \d
 *   Schema | Name | Type  | Owner
 *   -------+------+-------+-------
 *   public | t    | table | alice
 *
 *               Table "public.t"          \d t
 *   Column |  Type   | Collation | Nullable | Default
 *   -------+---------+-----------+----------+---------
 *   a      | integer |           | not null | 1
 *
 * Both read the catalog with ordinary SQL (pg_class, pg_namespace,
 * pg_attribute, pg_type, pg_attrdef, using only the columns tupledb's
 * catalog has -- see catalog/catalog.h), so they work once the engine
 * runs SELECT with joins, and until then report the engine's error.
 * What psql asks the server for and tupledb's catalog lacks is computed
 * here: a column's type name as format_type prints it ("character
 * varying(10)"), and the owner, which is the operating-system user that
 * runs the shell (tupledb has no roles; initdb names PostgreSQL's first
 * role after that user too).
 *
 * A pattern is psql's: unquoted letters are folded to lower case,
 * "double quotes" keep case, * and ? are wildcards, and "schema.name"
 * matches both parts.  Without a pattern \dt hides pg_catalog.  An empty
 * list is psql's "Did not find any relations." on stderr.
 */
#include "common/base.h"

#include <ctype.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

#define TABLES_QUERY                                                        \
    "SELECT c.oid, n.nspname, c.relname\n"                                  \
    "FROM pg_catalog.pg_class c\n"                                          \
    "     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace\n"       \
    "WHERE c.relkind = 'r'\n"                                               \
    "ORDER BY 2, 3"

#define COLUMNS_QUERY                                                       \
    "SELECT a.attname, t.typname, a.atttypmod, a.attnotnull, d.adbin\n"     \
    "FROM pg_catalog.pg_attribute a\n"                                      \
    "     JOIN pg_catalog.pg_type t ON t.oid = a.atttypid\n"                \
    "     LEFT JOIN pg_catalog.pg_attrdef d\n"                              \
    "       ON d.adrelid = a.attrelid AND d.adnum = a.attnum\n"             \
    "WHERE a.attrelid = %s AND a.attnum > 0 AND NOT a.attisdropped\n"       \
    "ORDER BY a.attnum"

/* A parsed pattern: NULL parts match anything. */
typedef struct Pattern {
    char *schema;
    char *name;
} Pattern;

/* Split and fold a psql pattern ("Sch"."x*" -> Sch, x*; AbC -> abc). */
static void
parse_pattern(const char *text, Pattern *pat)
{
    CliBuf part;
    bool in_quotes = false;

    pat->schema = pat->name = NULL;
    if (text == NULL)
        return;
    tdb_cli_buf_init(&part);
    tdb_cli_buf_puts(&part, "");
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '"') {
            if (in_quotes && p[1] == '"') {
                tdb_cli_buf_putc(&part, '"');
                p++;
            } else
                in_quotes = !in_quotes;
        } else if (!in_quotes && *p == '.' && pat->schema == NULL) {
            pat->schema = tdb_cli_strdup(tdb_cli_buf_str(&part));
            tdb_cli_buf_reset(&part);
        } else
            tdb_cli_buf_putc(&part, in_quotes ? *p
                                              : (char)tolower((unsigned char)*p));
    }
    pat->name = part.data;
}

static void
free_pattern(Pattern *pat)
{
    free(pat->schema);
    free(pat->name);
}

/* Glob match: * any run, ? any one character (byte). */
static bool
glob_match(const char *pat, const char *s)
{
    if (*pat == '\0')
        return *s == '\0';
    if (*pat == '*')
        return glob_match(pat + 1, s) || (*s != '\0' && glob_match(pat, s + 1));
    if (*s == '\0')
        return false;
    return (*pat == '?' || *pat == *s) && glob_match(pat + 1, s + 1);
}

static bool
pattern_matches(const Pattern *pat, const char *schema, const char *name)
{
    if (pat->name == NULL) /* no pattern: user tables only */
        return strcmp(schema, "pg_catalog") != 0;
    if (pat->schema != NULL && !glob_match(pat->schema, schema))
        return false;
    return glob_match(pat->name, name);
}

/* The owner shown for every table: the OS user (see the header). */
static const char *
owner_name(void)
{
    const struct passwd *pw = getpwuid(geteuid());

    return pw != NULL ? pw->pw_name : "tupledb";
}

/* The tables matching pattern: rows of (oid, schema, name). */
static bool
matching_tables(Shell *sh, const Pattern *pat, CliResult *tables)
{
    long kept = 0;

    if (!tdb_cli_run_query(sh, TABLES_QUERY, tables))
        return false;
    for (long r = 0; r < tables->nrows; r++) {
        char **row = &tables->cells[r * 3];

        if (row[1] != NULL && row[2] != NULL &&
            pattern_matches(pat, row[1], row[2])) {
            for (int i = 0; i < 3; i++) {
                char *v = row[i];

                row[i] = NULL;
                tables->cells[kept * 3 + i] = v;
            }
            kept++;
        } else
            for (int i = 0; i < 3; i++) {
                free(row[i]);
                row[i] = NULL;
            }
    }
    tables->nrows = kept;
    return true;
}

static void
report_not_found(const char *pattern)
{
    if (pattern != NULL)
        tdb_cli_log(CLI_LOG_ERROR, "Did not find any relation named \"%s\".",
                    pattern);
    else
        tdb_cli_log(CLI_LOG_ERROR, "Did not find any relations.");
}

bool
tdb_cli_list_tables(Shell *sh, const char *pattern)
{
    static const char *const headers[] = {"Schema", "Name", "Type", "Owner"};
    Pattern pat;
    CliResult tables;
    const char **cells;
    CliTable t;

    parse_pattern(pattern, &pat);
    if (!matching_tables(sh, &pat, &tables)) {
        free_pattern(&pat);
        return false;
    }
    free_pattern(&pat);
    if (tables.nrows == 0 && !sh->quiet) {
        report_not_found(pattern);
        tdb_cli_result_free(&tables);
        return true;
    }
    cells = tdb_cli_alloc(sizeof(char *) * 4 * (size_t)Max(tables.nrows, 1));
    for (long r = 0; r < tables.nrows; r++) {
        cells[r * 4] = tables.cells[r * 3 + 1];
        cells[r * 4 + 1] = tables.cells[r * 3 + 2];
        cells[r * 4 + 2] = "table";
        cells[r * 4 + 3] = owner_name();
    }
    memset(&t, 0, sizeof(t));
    t.ncolumns = 4;
    t.headers = headers;
    t.aligns = "llll";
    t.nrows = tables.nrows;
    t.cells = cells;
    t.title = "List of relations";
    t.default_footer = true;
    tdb_cli_print_table(stdout, &t, &sh->popt);
    free(cells);
    tdb_cli_result_free(&tables);
    return true;
}

/* format_type's name for a type (typname + typmod); malloc'd. */
static char *
format_type(const char *typname, int typmod)
{
    static const struct {
        const char *typname, *display;
    } names[] = {
        {"int2", "smallint"},
        {"int4", "integer"},
        {"int8", "bigint"},
        {"float4", "real"},
        {"float8", "double precision"},
        {"bool", "boolean"},
        {"varchar", "character varying"},
        {"bpchar", "character"},
        {"timestamp", "timestamp without time zone"},
        {"timestamptz", "timestamp with time zone"},
        {"time", "time without time zone"},
        {"timetz", "time with time zone"},
        {"char", "\"char\""},
    };
    CliBuf out;

    tdb_cli_buf_init(&out);
    if (typname[0] == '_') { /* an array type */
        char *elem = format_type(typname + 1, typmod);

        tdb_cli_buf_printf(&out, "%s[]", elem);
        free(elem);
        return out.data;
    }
    if (strcmp(typname, "bpchar") == 0 && typmod < 0) {
        tdb_cli_buf_puts(&out, "bpchar");
        return out.data;
    }
    if (strcmp(typname, "numeric") == 0 && typmod >= 4) {
        int t = typmod - 4;
        int scale = (((t & 0x7ff) ^ 1024) - 1024);

        tdb_cli_buf_printf(&out, "numeric(%d,%d)", (t >> 16) & 0xffff,
                           scale);
        return out.data;
    }
    for (size_t i = 0; i < lengthof(names); i++)
        if (strcmp(typname, names[i].typname) == 0) {
            const char *d = names[i].display;
            const char *zone = strstr(d, " with");

            if (typmod >= 0 && zone != NULL) /* timestamp(3) with... */
                tdb_cli_buf_printf(&out, "%.*s(%d)%s", (int)(zone - d), d,
                                   typmod, zone);
            else if (typmod >= 4 && (strcmp(typname, "varchar") == 0 ||
                                     strcmp(typname, "bpchar") == 0))
                tdb_cli_buf_printf(&out, "%s(%d)", d, typmod - 4);
            else
                tdb_cli_buf_puts(&out, d);
            return out.data;
        }
    tdb_cli_buf_puts(&out, typname);
    return out.data;
}

/* Print the \d table of one table. */
static bool
describe_one(Shell *sh, const char *oid, const char *schema,
             const char *name)
{
    static const char *const headers[] = {"Column", "Type", "Collation",
                                          "Nullable", "Default"};
    CliBuf query, title;
    CliResult cols;
    char **cells;
    CliTable t;
    bool ok;

    tdb_cli_buf_init(&query);
    tdb_cli_buf_printf(&query, COLUMNS_QUERY, oid);
    ok = tdb_cli_run_query(sh, tdb_cli_buf_str(&query), &cols);
    tdb_cli_buf_free(&query);
    if (!ok)
        return false;
    cells = tdb_cli_alloc(sizeof(char *) * 5 * (size_t)Max(cols.nrows, 1));
    for (long r = 0; r < cols.nrows; r++) {
        char **row = &cols.cells[r * 5];

        cells[r * 5] = tdb_cli_strdup(row[0] != NULL ? row[0] : "");
        cells[r * 5 + 1] = format_type(row[1] != NULL ? row[1] : "?",
                                       row[2] != NULL ? atoi(row[2]) : -1);
        cells[r * 5 + 2] = tdb_cli_strdup("");
        cells[r * 5 + 3] = tdb_cli_strdup(
            row[3] != NULL && strcmp(row[3], "t") == 0 ? "not null" : "");
        cells[r * 5 + 4] = tdb_cli_strdup(row[4] != NULL ? row[4] : "");
    }
    tdb_cli_buf_init(&title);
    tdb_cli_buf_printf(&title, "Table \"%s.%s\"", schema, name);
    memset(&t, 0, sizeof(t));
    t.ncolumns = 5;
    t.headers = headers;
    t.aligns = "lllll";
    t.nrows = cols.nrows;
    t.cells = (const char *const *)cells;
    t.title = tdb_cli_buf_str(&title);
    tdb_cli_print_table(stdout, &t, &sh->popt);
    for (long i = 0; i < cols.nrows * 5; i++)
        free(cells[i]);
    free(cells);
    tdb_cli_buf_free(&title);
    tdb_cli_result_free(&cols);
    return true;
}

bool
tdb_cli_describe_table(Shell *sh, const char *pattern)
{
    Pattern pat;
    CliResult tables;
    bool ok = true;

    parse_pattern(pattern, &pat);
    ok = matching_tables(sh, &pat, &tables);
    free_pattern(&pat);
    if (!ok)
        return false;
    if (tables.nrows == 0) {
        if (!sh->quiet)
            report_not_found(pattern);
        ok = false;
    }
    for (long r = 0; r < tables.nrows && ok; r++)
        ok = describe_one(sh, tables.cells[r * 3], tables.cells[r * 3 + 1],
                          tables.cells[r * 3 + 2]);
    tdb_cli_result_free(&tables);
    return ok;
}
