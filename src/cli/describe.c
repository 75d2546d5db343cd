/*
 * describe.c -- \dt, \d and their + forms: what the catalog holds, in
 * psql's layout.
 *
 *          List of relations              \dt, \d        (\dt+ adds
 *   Schema | Name | Type  | Owner          Persistence, Access method,
 *   -------+------+-------+-------         Size, Description)
 *   public | t    | table | alice
 *
 *               Table "public.t"          \d t           (\d+ adds
 *   Column |  Type   | Collation | Nullable | Default     Storage,
 *   -------+---------+-----------+----------+---------    Compression,
 *   a      | integer |           | not null | 1           Stats target,
 *   Indexes:                                             Description and
 *       "t_pkey" PRIMARY KEY, btree (a)                  "Access method:
 *   Check constraints:                                   heap")
 *       "t_a_check" CHECK (a > 0)
 *
 *         Index "public.t_pkey"           \d t_pkey      (\d+ adds
 *   Column |  Type   | Key? | Definition                 Storage,
 *   a      | integer | yes  | a                           Stats target)
 *   primary key, btree, for table "public.t"
 *
 * \di lists indexes as \dt lists tables, with each one's table after
 * its owner.
 * All of them read the catalog with ordinary SQL on the pg_catalog views and
 * functions psql's own queries use (parser/system_views.c): format_type,
 * pg_get_expr and pg_get_constraintdef print types, defaults and CHECK
 * constraints as PostgreSQL does, pg_get_userbyid names the owner (the
 * bootstrap role, named after the operating-system user), and
 * pg_table_size the size; so the shell prints what psql prints against
 * `tupledb serve`.
 *
 * A pattern is psql's: unquoted letters are folded to lower case,
 * "double quotes" keep case, * and ? are wildcards, and "schema.name"
 * matches both parts.  Without a pattern \dt hides pg_catalog.  An empty
 * list is psql's "Did not find any relations." on stderr.
 */
#include "common/base.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* The relations of the relkinds %s ('r', 'i'): for an index, its table
 * too; then the relkind. */
#define RELATIONS_QUERY                                                     \
    "SELECT c.oid, n.nspname, c.relname,\n"                                 \
    "  pg_catalog.pg_get_userbyid(c.relowner),\n"                           \
    "  CASE c.relpersistence WHEN 'p' THEN 'permanent'"                    \
    " WHEN 't' THEN 'temporary' WHEN 'u' THEN 'unlogged' END,\n"            \
    "  am.amname,\n"                                                        \
    "  pg_catalog.pg_size_pretty(pg_catalog.pg_table_size(c.oid)),\n"       \
    "  pg_catalog.obj_description(c.oid, 'pg_class'), t.relname,\n"         \
    "  c.relkind\n"                                                         \
    "FROM pg_catalog.pg_class c\n"                                          \
    "     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace\n"       \
    "     LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam\n"              \
    "     LEFT JOIN pg_catalog.pg_index i ON i.indexrelid = c.oid\n"        \
    "     LEFT JOIN pg_catalog.pg_class t ON t.oid = i.indrelid\n"          \
    "WHERE c.relkind IN (%s)\n"                                             \
    "ORDER BY 2, 3"
#define TABLES_NCOLS 10

#define COLUMNS_QUERY                                                       \
    "SELECT a.attname,\n"                                                   \
    "  pg_catalog.format_type(a.atttypid, a.atttypmod),\n"                  \
    "  a.attnotnull,\n"                                                     \
    "  (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid, true)\n"          \
    "   FROM pg_catalog.pg_attrdef d\n"                                     \
    "   WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum\n"              \
    "     AND a.atthasdef),\n"                                              \
    "  CASE a.attstorage WHEN 'p' THEN 'plain' WHEN 'm' THEN 'main'"       \
    " WHEN 'e' THEN 'external' WHEN 'x' THEN 'extended' END,\n"             \
    "  pg_catalog.col_description(a.attrelid, a.attnum),\n"                 \
    "  a.attcompression\n"                                                  \
    "FROM pg_catalog.pg_attribute a\n"                                      \
    "WHERE a.attrelid = %s AND a.attnum > 0 AND NOT a.attisdropped\n"       \
    "ORDER BY a.attnum"
#define COLUMNS_NCOLS 7

#define CHECKS_QUERY                                                        \
    "SELECT r.conname, pg_catalog.pg_get_constraintdef(r.oid, true)\n"      \
    "FROM pg_catalog.pg_constraint r\n"                                     \
    "WHERE r.conrelid = %s AND r.contype = 'c'\n"                           \
    "ORDER BY 1"

/* psql's query for the "Indexes:" footer, in its order */
#define INDEXES_QUERY                                                       \
    "SELECT c2.relname, i.indisprimary, i.indisunique, i.indisvalid,\n"     \
    "  pg_catalog.pg_get_indexdef(i.indexrelid, 0, true), con.contype\n"    \
    "FROM pg_catalog.pg_class c2\n"                                         \
    "     JOIN pg_catalog.pg_index i ON i.indexrelid = c2.oid\n"            \
    "     LEFT JOIN pg_catalog.pg_constraint con ON con.conrelid =\n"       \
    "       i.indrelid AND con.conindid = i.indexrelid\n"                   \
    "       AND con.contype IN ('p', 'u', 'x')\n"                           \
    "WHERE i.indrelid = %s\n"                                               \
    "ORDER BY i.indisprimary DESC, c2.relname"
#define INDEXES_NCOLS 6

/* An index's columns: psql's query for \d of an index */
#define INDEX_COLUMNS_QUERY                                                 \
    "SELECT a.attname,\n"                                                   \
    "  pg_catalog.format_type(a.atttypid, a.atttypmod),\n"                  \
    "  CASE WHEN a.attnum <= i.indnkeyatts THEN 'yes' ELSE 'no' END,\n"     \
    "  pg_catalog.pg_get_indexdef(a.attrelid, a.attnum, true),\n"           \
    "  CASE a.attstorage WHEN 'p' THEN 'plain' WHEN 'm' THEN 'main'"       \
    " WHEN 'e' THEN 'external' WHEN 'x' THEN 'extended' END\n"             \
    "FROM pg_catalog.pg_attribute a\n"                                      \
    "     JOIN pg_catalog.pg_index i ON i.indexrelid = a.attrelid\n"        \
    "WHERE a.attrelid = %s AND a.attnum > 0 AND NOT a.attisdropped\n"       \
    "ORDER BY a.attnum"
#define INDEX_COLUMNS_NCOLS 5

/* What the footer of \d of an index says about it */
#define INDEX_FOOTER_QUERY                                                  \
    "SELECT i.indisprimary, i.indisunique, i.indnullsnotdistinct,\n"        \
    "  am.amname, t.relname, pg_catalog.pg_get_expr(i.indpred,"              \
    " i.indrelid, true),\n"                                                 \
    "  i.indisvalid\n"                                                      \
    "FROM pg_catalog.pg_index i\n"                                          \
    "     JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid\n"             \
    "     JOIN pg_catalog.pg_am am ON am.oid = c.relam\n"                   \
    "     JOIN pg_catalog.pg_class t ON t.oid = i.indrelid\n"               \
    "WHERE c.oid = %s"

#define AM_QUERY                                                            \
    "SELECT am.amname FROM pg_catalog.pg_class c\n"                         \
    "     LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam\n"              \
    "WHERE c.oid = %s"

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

/* The relations of relkinds ("'r'", "'r', 'i'") matching pattern: rows
 * of RELATIONS_QUERY's columns. */
static bool
matching_relations(Shell *sh, const Pattern *pat, const char *relkinds,
                   CliResult *tables)
{
    long kept = 0;
    CliBuf query;
    bool ok;

    tdb_cli_buf_init(&query);
    tdb_cli_buf_printf(&query, RELATIONS_QUERY, relkinds);
    ok = tdb_cli_run_query(sh, tdb_cli_buf_str(&query), tables);
    tdb_cli_buf_free(&query);
    if (!ok)
        return false;
    for (long r = 0; r < tables->nrows; r++) {
        char **row = &tables->cells[r * TABLES_NCOLS];

        if (row[1] != NULL && row[2] != NULL &&
            pattern_matches(pat, row[1], row[2])) {
            for (int i = 0; i < TABLES_NCOLS; i++) {
                char *v = row[i];

                row[i] = NULL;
                tables->cells[kept * TABLES_NCOLS + i] = v;
            }
            kept++;
        } else
            for (int i = 0; i < TABLES_NCOLS; i++) {
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

/* a cell as printed: NULL is the empty string */
static const char *
cell(const char *v)
{
    return v != NULL ? v : "";
}

/*
 * \dt and \di: the tables or the indexes matching pattern, in psql's
 * columns (an index's table after its owner).
 */
static bool
list_relations(Shell *sh, const char *pattern, bool verbose, char relkind)
{
    static const char *const headers[] = {
        "Schema", "Name",          "Type", "Owner",      "Table",
        "Persistence", "Access method", "Size", "Description"};
    bool is_index = relkind == 'i';
    int ncols = (verbose ? 8 : 4) + (is_index ? 1 : 0);
    Pattern pat;
    CliResult tables;
    const char **cells;
    const char *shown_headers[9];
    CliTable t;

    for (int i = 0, h = 0; i < 9; i++)
        if (i != 4 || is_index)
            shown_headers[h++] = headers[i];
    parse_pattern(pattern, &pat);
    if (!matching_relations(sh, &pat, is_index ? "'i'" : "'r'", &tables)) {
        free_pattern(&pat);
        return false;
    }
    free_pattern(&pat);
    if (tables.nrows == 0 && !sh->quiet) {
        report_not_found(pattern);
        tdb_cli_result_free(&tables);
        return true;
    }
    cells = tdb_cli_alloc(sizeof(char *) * (size_t)ncols *
                          (size_t)Max(tables.nrows, 1));
    for (long r = 0; r < tables.nrows; r++) {
        char **row = &tables.cells[r * TABLES_NCOLS];
        const char **out = &cells[r * ncols];

        int c = 0;

        out[c++] = cell(row[1]);
        out[c++] = cell(row[2]);
        out[c++] = is_index ? "index" : "table";
        out[c++] = cell(row[3]);
        if (is_index)
            out[c++] = cell(row[8]);
        for (int i = 4; c < ncols; i++)
            out[c++] = cell(row[i]);
    }
    memset(&t, 0, sizeof(t));
    t.ncolumns = ncols;
    t.headers = shown_headers;
    t.aligns = "lllllllll";
    t.nrows = tables.nrows;
    t.cells = cells;
    t.title = "List of relations";
    t.default_footer = true;
    tdb_cli_print_table(stdout, &t, &sh->popt);
    free(cells);
    tdb_cli_result_free(&tables);
    return true;
}

bool
tdb_cli_list_tables(Shell *sh, const char *pattern, bool verbose)
{
    return list_relations(sh, pattern, verbose, 'r');
}

bool
tdb_cli_list_indexes(Shell *sh, const char *pattern, bool verbose)
{
    return list_relations(sh, pattern, verbose, 'i');
}

/* Run a query whose one %s stands for a table's OID. */
static bool
run_for_table(Shell *sh, const char *fmt, const char *oid, CliResult *res)
{
    const char *mark = strstr(fmt, "%s");
    CliBuf query;
    bool ok;

    tdb_cli_buf_init(&query);
    tdb_cli_buf_printf(&query, "%.*s%s%s", (int)(mark - fmt), fmt, oid,
                       mark + 2);
    ok = tdb_cli_run_query(sh, tdb_cli_buf_str(&query), res);
    tdb_cli_buf_free(&query);
    return ok;
}

/*
 * One line of the "Indexes:" footer as psql prints it: the name, what
 * the index is (PRIMARY KEY, UNIQUE CONSTRAINT, UNIQUE), and its
 * definition from the access method on ("btree (a) WHERE ...").
 */
static char *
index_footer_line(char *const *row)
{
    const char *def = cell(row[4]);
    const char *using = strstr(def, " USING ");
    const char *kind = "";
    CliBuf line;

    if (strcmp(cell(row[1]), "t") == 0)
        kind = " PRIMARY KEY,";
    else if (strcmp(cell(row[2]), "t") == 0)
        kind = strcmp(cell(row[5]), "u") == 0 ? " UNIQUE CONSTRAINT,"
                                               : " UNIQUE,";
    tdb_cli_buf_init(&line);
    tdb_cli_buf_printf(&line, "    \"%s\"%s %s%s", cell(row[0]), kind,
                       using != NULL ? using + 7 : def,
                       strcmp(cell(row[3]), "t") == 0 ? "" : " INVALID");
    return line.data;
}

/*
 * The footers of \d: the indexes, the CHECK constraints, and for \d+ the
 * access method, each a malloc'd line appended to *footers.
 */
static bool
table_footers(Shell *sh, const char *oid, bool verbose, char ***footers,
              int *nfooters)
{
    CliResult indexes, checks, am;
    CliBuf line;

    if (!run_for_table(sh, INDEXES_QUERY, oid, &indexes))
        return false;
    if (!run_for_table(sh, CHECKS_QUERY, oid, &checks)) {
        tdb_cli_result_free(&indexes);
        return false;
    }
    *footers = tdb_cli_alloc(sizeof(char *) *
                             (size_t)(indexes.nrows + checks.nrows + 3));
    *nfooters = 0;
    if (indexes.nrows > 0)
        (*footers)[(*nfooters)++] = tdb_cli_strdup("Indexes:");
    for (long r = 0; r < indexes.nrows; r++)
        (*footers)[(*nfooters)++] =
            index_footer_line(&indexes.cells[r * INDEXES_NCOLS]);
    tdb_cli_result_free(&indexes);
    if (checks.nrows > 0)
        (*footers)[(*nfooters)++] = tdb_cli_strdup("Check constraints:");
    for (long r = 0; r < checks.nrows; r++) {
        tdb_cli_buf_init(&line);
        tdb_cli_buf_printf(&line, "    \"%s\" %s",
                           cell(checks.cells[r * 2]),
                           cell(checks.cells[r * 2 + 1]));
        (*footers)[(*nfooters)++] = line.data;
    }
    tdb_cli_result_free(&checks);
    if (verbose) {
        if (!run_for_table(sh, AM_QUERY, oid, &am))
            return false;
        if (am.nrows == 1 && am.cells[0] != NULL) {
            tdb_cli_buf_init(&line);
            tdb_cli_buf_printf(&line, "Access method: %s", am.cells[0]);
            (*footers)[(*nfooters)++] = line.data;
        }
        tdb_cli_result_free(&am);
    }
    return true;
}

/* attcompression as psql prints it: the method's name, or empty for the
 * default ('\0', which arrives as an empty string). */
static const char *
compression_name(const char *attcompression)
{
    if (attcompression == NULL || attcompression[0] == '\0')
        return "";
    if (attcompression[0] == 'p')
        return "pglz";
    if (attcompression[0] == 'l')
        return "lz4";
    return "???";
}

/*
 * Print one \d table under its title, kind "schema.name" ("Table",
 * "Index"), with footers; every column left-aligned, as psql's.
 */
static void
print_description(Shell *sh, const char *kind, const char *schema,
                  const char *name, const char *const *headers, int ncols,
                  const char **cells, long nrows, const char *const *footers,
                  int nfooters)
{
    CliBuf title;
    CliTable t;

    tdb_cli_buf_init(&title);
    tdb_cli_buf_printf(&title, "%s \"%s.%s\"", kind, schema, name);
    memset(&t, 0, sizeof(t));
    t.ncolumns = ncols;
    t.headers = headers;
    t.aligns = "lllllllll"; /* at most 9 columns */
    t.nrows = nrows;
    t.cells = cells;
    t.title = tdb_cli_buf_str(&title);
    t.footers = footers;
    t.nfooters = nfooters;
    tdb_cli_print_table(stdout, &t, &sh->popt);
    tdb_cli_buf_free(&title);
}

/* Print the \d table of one table. */
static bool
describe_one(Shell *sh, const char *oid, const char *schema,
             const char *name, bool verbose)
{
    static const char *const headers[] = {
        "Column",  "Type",        "Collation",    "Nullable",
        "Default", "Storage",     "Compression",  "Stats target",
        "Description"};
    int ncols = verbose ? 9 : 5;
    CliResult cols;
    const char **cells;
    char **footers = NULL;
    int nfooters = 0;

    if (!run_for_table(sh, COLUMNS_QUERY, oid, &cols))
        return false;
    if (!table_footers(sh, oid, verbose, &footers, &nfooters)) {
        tdb_cli_result_free(&cols);
        return false;
    }
    cells = tdb_cli_alloc(sizeof(char *) * (size_t)ncols *
                          (size_t)Max(cols.nrows, 1));
    for (long r = 0; r < cols.nrows; r++) {
        char **row = &cols.cells[r * COLUMNS_NCOLS];
        const char **out = &cells[r * ncols];

        out[0] = cell(row[0]);
        out[1] = cell(row[1]);
        out[2] = "";
        out[3] = row[2] != NULL && strcmp(row[2], "t") == 0 ? "not null" : "";
        out[4] = cell(row[3]);
        if (verbose) {
            out[5] = cell(row[4]);
            out[6] = compression_name(row[6]);
            out[7] = "";
            out[8] = cell(row[5]);
        }
    }
    print_description(sh, "Table", schema, name, headers, ncols, cells,
                      cols.nrows, (const char *const *)footers, nfooters);
    for (int i = 0; i < nfooters; i++)
        free(footers[i]);
    free(footers);
    free(cells);
    tdb_cli_result_free(&cols);
    return true;
}

/*
 * The footer line of \d of an index, as psql writes it: "primary key, "
 * or "unique [nulls not distinct], ", the access method, the table,
 * then the predicate of a partial index and ", invalid".
 */
static char *
index_footer(char *const *row, const char *schema)
{
    CliBuf line;

    tdb_cli_buf_init(&line);
    if (strcmp(cell(row[0]), "t") == 0)
        tdb_cli_buf_puts(&line, "primary key, ");
    else if (strcmp(cell(row[1]), "t") == 0)
        tdb_cli_buf_puts(&line, strcmp(cell(row[2]), "t") == 0
                                    ? "unique nulls not distinct, "
                                    : "unique, ");
    tdb_cli_buf_printf(&line, "%s, for table \"%s.%s\"", cell(row[3]), schema,
                       cell(row[4]));
    if (row[5] != NULL && row[5][0] != '\0')
        tdb_cli_buf_printf(&line, ", predicate (%s)", row[5]);
    if (strcmp(cell(row[6]), "t") != 0)
        tdb_cli_buf_puts(&line, ", invalid");
    return line.data;
}

/* Print the \d table of one index. */
static bool
describe_index(Shell *sh, const char *oid, const char *schema,
               const char *name, bool verbose)
{
    static const char *const headers[] = {
        "Column", "Type", "Key?", "Definition", "Storage", "Stats target"};
    int ncols = verbose ? 6 : 4;
    CliResult cols, about;
    const char **cells;
    char *footer = NULL;

    if (!run_for_table(sh, INDEX_COLUMNS_QUERY, oid, &cols))
        return false;
    if (!run_for_table(sh, INDEX_FOOTER_QUERY, oid, &about)) {
        tdb_cli_result_free(&cols);
        return false;
    }
    if (about.nrows == 1)
        footer = index_footer(about.cells, schema);
    tdb_cli_result_free(&about);
    cells = tdb_cli_alloc(sizeof(char *) * (size_t)ncols *
                          (size_t)Max(cols.nrows, 1));
    for (long r = 0; r < cols.nrows; r++) {
        char **row = &cols.cells[r * INDEX_COLUMNS_NCOLS];
        const char **out = &cells[r * ncols];

        for (int c = 0; c < 4; c++)
            out[c] = cell(row[c]);
        if (verbose) {
            out[4] = cell(row[4]);
            out[5] = "";
        }
    }
    print_description(sh, "Index", schema, name, headers, ncols, cells,
                      cols.nrows, (const char *const *)&footer,
                      footer != NULL ? 1 : 0);
    free(footer);
    free(cells);
    tdb_cli_result_free(&cols);
    return true;
}

bool
tdb_cli_describe_table(Shell *sh, const char *pattern, bool verbose)
{
    Pattern pat;
    CliResult tables;
    bool ok = true;

    parse_pattern(pattern, &pat);
    ok = matching_relations(sh, &pat, "'r', 'i'", &tables);
    free_pattern(&pat);
    if (!ok)
        return false;
    if (tables.nrows == 0) {
        if (!sh->quiet)
            report_not_found(pattern);
        ok = false;
    }
    for (long r = 0; r < tables.nrows && ok; r++) {
        char **row = &tables.cells[r * TABLES_NCOLS];

        if (strcmp(cell(row[9]), "i") == 0)
            ok = describe_index(sh, row[0], row[1], row[2], verbose);
        else
            ok = describe_one(sh, row[0], row[1], row[2], verbose);
    }
    tdb_cli_result_free(&tables);
    return ok;
}
