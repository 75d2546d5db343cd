/*
 * test_parse_tree.c -- unit tests for parsing statements of any depth:
 * the decoder and copier without recursion (parser/pbtree.c), the depth
 * bound (parser/parse_depth.c) and tdb_sql_parse's use of them
 * (parser/parser.c).
 *
 * Covers: every statement of the SQL regression suite and deep statements
 * of every shape decode to exactly what libpg_query packed (packed again,
 * the bytes are the same) and copy the same way; the bound is never below
 * the real depth, for all of them; long flat statements (IN lists, VALUES,
 * OR chains, CASE arms, AND chains) get a small bound; brackets nested
 * past the grammar's stack give no bound; tdb_sql_parse parses a deep
 * statement on a thread with a 256 kB stack, refuses a hopelessly deep one
 * with 54001, and reports the grammar's error first when there is one;
 * tdb_sql_deparse_raw_expr deparses a deep expression on a thread with a
 * 1 MB stack, and refuses a hopelessly deep one with 54001.
 */
#include "common/base.h"

#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <pg_query.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/elog.h"
#include "common/stack_depth.h"
#include "mmgr/mcxt.h"
#include "parser/parse_int.h"
#include "parser/parser.h"
#include "test.h"

/* ----- statements ----- */

/* A growable string in the current memory context. */
typedef struct Sql {
    char *data;
    Size len, cap;
} Sql;

static void
sql_add(Sql *s, const char *piece)
{
    Size n = strlen(piece);

    if (s->len + n + 1 > s->cap) {
        Size cap = Max(s->cap * 2, s->len + n + 1024);
        char *data = tdb_palloc(cap);

        if (s->len > 0)
            memcpy(data, s->data, s->len);
        s->data = data;
        s->cap = cap;
    }
    memcpy(s->data + s->len, piece, n + 1);
    s->len += n;
}

static void
sql_repeat(Sql *s, const char *piece, int n)
{
    for (int i = 0; i < n; i++)
        sql_add(s, piece);
}

/*
 * Statements nested n levels: prefix, n times open, middle, n times
 * close, suffix.  Each level adds at least one level to the tree, except
 * in the flat shapes: parentheses make no node, and a chain of ORs of
 * ANDs is one flattened OR.
 */
typedef struct Shape {
    const char *name;
    const char *parts[5]; /* prefix, open, middle, close, suffix */
    bool flat;
} Shape;

static const Shape shapes[] = {
    {"plus", {"SELECT 1", "+1", "", "", ""}, false},
    {"concat", {"SELECT 'x'", "||'x'", "", "", ""}, false},
    {"tlist", {"SELECT a", "+a", "", "", " FROM t"}, false},
    {"union", {"SELECT 1", " UNION ALL SELECT 1", "", "", ""}, false},
    /* commas, AND and OR inside the steps of a set operation */
    {"union_columns",
     {"SELECT 1, 2, 3 FROM t", " UNION SELECT a, b+1, c FROM t WHERE a AND b",
      "", "", ""},
     false},
    {"union_parens", {"", "(", "SELECT 1", " UNION ALL SELECT 1)", ""}, false},
    {"intersect", {"SELECT 1", " INTERSECT SELECT 1", "", "", ""}, false},
    /* and in the steps of a join */
    {"join",
     {"SELECT 1 FROM t t0", " JOIN t ON f(a, b) AND c OR d", "", "", ""},
     false},
    {"cast", {"SELECT 1", "::int", "", "", ""}, false},
    {"collate", {"SELECT 'a'", " COLLATE \"C\"", "", "", ""}, false},
    {"isnull", {"SELECT 1", " IS NULL", "", "", ""}, false},
    /* BETWEEN's AND separates nothing */
    {"between", {"SELECT 1 BETWEEN 0 AND 2", " IS TRUE", "", "", ""}, false},
    {"attimezone", {"SELECT now()", " AT TIME ZONE 'UTC'", "", "", ""}, false},
    {"parens", {"SELECT ", "(", "1", ")", ""}, true},
    {"neg", {"SELECT ", "- ", "a", "", ""}, false},
    {"not", {"SELECT ", "NOT ", "true", "", ""}, false},
    {"subquery", {"SELECT ", "(SELECT ", "1", ")", ""}, false},
    {"from", {"SELECT * FROM ", "(SELECT * FROM ", "t", ") s", ""}, false},
    {"case",
     {"SELECT ", "CASE WHEN a = 1 THEN 1 WHEN b THEN ", "1", " ELSE 2 END", ""},
     false},
    {"case_arg",
     {"SELECT ", "CASE CASE ", "1", " WHEN 1 THEN 2 END WHEN 2 THEN 3 END", ""},
     false},
    {"func", {"SELECT ", "abs(", "1", ")", ""}, false},
    {"row", {"SELECT ", "ROW(1, ", "1", ")", ""}, false},
    {"array", {"SELECT ", "ARRAY[1, ", "1", "]", ""}, false},
    {"in_sub",
     {"SELECT 1 WHERE 1 IN ", "(SELECT 1 WHERE 1 IN ", "(SELECT 1)", ")", ""},
     false},
    {"and_parens", {"SELECT ", "(true AND ", "true", ")", ""}, false},
    {"or_and",
     {"SELECT 1 WHERE a = 1", " OR b AND NOT c = 2 + 1", "", "", ""},
     true},
    {"insert",
     {"INSERT INTO t VALUES (1", " + 1", ") RETURNING a", " * 2", ""},
     false},
    {"default",
     {"CREATE TABLE t (a int DEFAULT 1", " + 1", ", b int CHECK (b > 0", " - 1",
      "))"},
     false},
    /* tokens hidden in strings, comments and quoted names do not count:
     * the chain is the || between them */
    {"strings",
     {"SELECT 'a,b'",
      " || E'(\\'' || $q$)), AND$q$ /* ( , */ || \"x, y\" -- , (\n|| "
      "U&'d' ",
      "", "", ""},
     false},
    {"multi", {"", "SELECT 1 + 1 + 1; ", "SELECT 1", " + 1", ""}, false},
};

static char *
nested(const Shape *shape, int n)
{
    Sql s = {0};

    sql_add(&s, shape->parts[0]);
    sql_repeat(&s, shape->parts[1], n);
    sql_add(&s, shape->parts[2]);
    sql_repeat(&s, shape->parts[3], n);
    sql_add(&s, shape->parts[4]);
    return s.data;
}

/* The statement of the shape named name, nested n levels. */
static char *
deep_statement(const char *name, int n)
{
    for (Size i = 0; i < lengthof(shapes); i++)
        if (strcmp(shapes[i].name, name) == 0)
            return nested(&shapes[i], n);
    Assert(false);
    return NULL;
}

/* ----- checking one statement ----- */

typedef struct Checked {
    int statements; /* that parsed */
    int max_depth;
    double max_ratio; /* bound / depth */
} Checked;

static bool
same_bytes(const ProtobufCMessage *msg, const PgQueryProtobuf *pbuf)
{
    Size len = protobuf_c_message_get_packed_size(msg);
    uint8_t *bytes;

    if (len != pbuf->len)
        return false;
    bytes = tdb_palloc(len + 1);
    protobuf_c_message_pack(msg, bytes);
    return memcmp(bytes, pbuf->data, len) == 0;
}

/*
 * Parse sql with libpg_query; if it parses, check the decoder, the copy
 * and the bound against it.
 */
static void
check_statement(const char *sql, Checked *c)
{
    PgQueryProtobufParseResult r = pg_query_parse_protobuf(sql);
    ProtobufCMessage *tree, *copy;
    int depth = 0;
    Size bound = 0;

    if (r.error != NULL) {
        pg_query_free_protobuf_parse_result(r);
        return;
    }
    tree = tdb_pb_decode(&pg_query__parse_result__descriptor,
                         (const uint8_t *)r.parse_tree.data, r.parse_tree.len,
                         tdb_current_mcxt, &depth);
    expect_ptr_not_null(tree);
    if (tree != NULL) {
        if (!same_bytes(tree, &r.parse_tree))
            tdb_test_fail(__FILE__, __LINE__, "decoded differently: %.200s",
                          sql);
        copy = tdb_pb_copy(tree, tdb_current_mcxt);
        expect_ptr_not_null(copy);
        if (copy != NULL && !same_bytes(copy, &r.parse_tree))
            tdb_test_fail(__FILE__, __LINE__, "copied differently: %.200s",
                          sql);
    }
    if (!tdb_sql_depth_bound(sql, &bound))
        tdb_test_fail(__FILE__, __LINE__, "no bound for: %.200s", sql);
    else if (bound < (Size)depth)
        tdb_test_fail(__FILE__, __LINE__,
                      "bound %zu below the depth %d of: %.200s", bound, depth,
                      sql);
    c->statements++;
    c->max_depth = Max(c->max_depth, depth);
    if (depth > 0 && (double)bound / depth > c->max_ratio)
        c->max_ratio = (double)bound / depth;
    pg_query_free_protobuf_parse_result(r);
}

/* The regression suite's directory, from the repository root or from the
 * test binary (build/<flavour>/tests/). */
static DIR *
open_regress_dir(char *path, Size pathlen)
{
    char exe[PATH_MAX];
    ssize_t n;
    DIR *dir;

    snprintf(path, pathlen, "tests/regress/sql");
    if ((dir = opendir(path)) != NULL)
        return dir;
    n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    snprintf(path, pathlen, "%s/../../../tests/regress/sql", dirname(exe));
    return opendir(path);
}

/* Check every statement of a regression file (psql's commands left out). */
static void
check_file(const char *path, Checked *c)
{
    FILE *f = fopen(path, "r");
    Sql script = {0};
    char line[65536];
    PgQuerySplitResult split;

    if (f == NULL) {
        tdb_test_fail(__FILE__, __LINE__, "cannot read %s", path);
        return;
    }
    sql_add(&script, "");
    while (fgets(line, sizeof(line), f) != NULL)
        if (line[0] != '\\')
            sql_add(&script, line);
    fclose(f);
    split = pg_query_split_with_scanner(script.data);
    for (int i = 0; split.error == NULL && i < split.n_stmts; i++) {
        PgQuerySplitStmt *st = split.stmts[i];
        char *one = tdb_palloc((Size)st->stmt_len + 1);

        memcpy(one, script.data + st->stmt_location, (Size)st->stmt_len);
        one[st->stmt_len] = '\0';
        check_statement(one, c);
    }
    pg_query_free_split_result(split);
}

/* ----- the tests ----- */

TEST_BEGIN(test_regression_statements)
{
    char dirpath[PATH_MAX];
    DIR *dir = open_regress_dir(dirpath, sizeof(dirpath));
    struct dirent *e;
    Checked c = {0};

    if (dir == NULL) {
        tdb_test_fail(__FILE__, __LINE__, "no %s", dirpath);
        return;
    }
    while ((e = readdir(dir)) != NULL) {
        char path[PATH_MAX + 256];
        Size len = strlen(e->d_name);

        if (len < 5 || strcmp(e->d_name + len - 4, ".sql") != 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", dirpath, e->d_name);
        check_file(path, &c);
    }
    closedir(dir);
    /* the suite has a few thousand statements */
    expect_int_gt(c.statements, 1000);
    printf("    %d statements, deepest %d levels, bound at most %.1fx\n",
           c.statements, c.max_depth, c.max_ratio);
}
TEST_END

TEST_BEGIN(test_deep_statements)
{
    static const int sizes[] = {0, 1, 2, 3, 10, 100, 1000};

    for (Size i = 0; i < lengthof(shapes); i++) {
        Checked c = {0};

        for (Size j = 0; j < lengthof(sizes); j++)
            check_statement(nested(&shapes[i], sizes[j]), &c);
        if (c.statements != (int)lengthof(sizes))
            tdb_test_fail(__FILE__, __LINE__, "%s: %d of %d parsed",
                          shapes[i].name, c.statements, (int)lengthof(sizes));
        /* each level of nesting is at least one level of the tree */
        if (shapes[i].flat)
            expect_int_lt(c.max_depth, 20);
        else
            expect_int_gt(c.max_depth, 1000);
        printf("    %-14s deepest %5d levels, bound at most %.1fx\n",
               shapes[i].name, c.max_depth, c.max_ratio);
    }
}
TEST_END

/* Bound of a statement made of prefix, n times piece, suffix. */
static Size
bound_of(const char *prefix, const char *piece, int n, const char *suffix)
{
    Sql s = {0};
    Size bound = 0;

    sql_add(&s, prefix);
    sql_repeat(&s, piece, n);
    sql_add(&s, suffix);
    expect_true(tdb_sql_depth_bound(s.data, &bound));
    return bound;
}

TEST_BEGIN(test_flat_statements_stay_shallow)
{
    /* what big statements usually are: many short siblings */
    expect_u64_lt(bound_of("SELECT 1 IN (1", ", 1", 100000, ")"), 100);
    expect_u64_lt(bound_of("VALUES (1, 'a')", ", (1 + 2, 'b')", 100000, ""),
                  100);
    expect_u64_lt(
        bound_of("SELECT * FROM t WHERE a = 0", " OR a = 1", 100000, ""), 100);
    expect_u64_lt(bound_of("SELECT true", " AND a > 1", 100000, ""), 100);
    expect_u64_lt(bound_of("SELECT CASE a WHEN 0 THEN 'x'", " WHEN 1 THEN 'y'",
                           100000, " ELSE 'z' END"),
                  100);
    expect_u64_lt(bound_of("SELECT ARRAY[1", ", 2", 100000, "]"), 100);
    expect_u64_lt(bound_of("SELECT 1", "; SELECT 2", 100000, ""), 100);
    expect_u64_lt(bound_of("SELECT a BETWEEN 1 AND 2", " OR b = 3", 100000, ""),
                  100);
    /* a chain is deep, and its bound says so */
    expect_u64_gt(bound_of("SELECT 1", " + 1", 100000, ""), 200000);
}
TEST_END

TEST_BEGIN(test_grammar_stack_limit)
{
    Size bound;
    char *sql = deep_statement("parens", 10001);

    /* the grammar's stack holds no more: no bound, and the parse fails
     * at once with PostgreSQL's "memory exhausted" */
    expect_false(tdb_sql_depth_bound(sql, &bound));
    expect_error(tdb_sql_parse(sql), ERRCODE_SYNTAX_ERROR, "memory exhausted");
    expect_false(tdb_sql_depth_bound(deep_statement("case", 10001), &bound));
    expect_true(tdb_sql_depth_bound(deep_statement("parens", 9000), &bound));
}
TEST_END

/* ----- parsing and deparsing on a small stack ----- */

/*
 * tdb_sql_parse(sql) -- and with deparse, tdb_sql_deparse_raw_expr of
 * its first target -- on a thread with a 1 MB stack.
 */
typedef struct SmallRun {
    const char *sql;
    bool deparse;
    int depth;  /* the script's, or the expression's */
    char *text; /* the deparse (malloc'd) */
    int sqlerrcode;
} SmallRun;

static void *
small_run_main(void *arg)
{
    SmallRun *sr = arg;
    StackDepthSave save;

    tdb_mcxt_thread_init();
    tdb_stack_depth_enter(&save, STACK_DEPTH_DEFAULT_KB);
    TDB_TRY();
    {
        ParsedScript *script = tdb_sql_parse(sr->sql);

        sr->depth = script->depth;
        if (sr->deparse) {
            PgQuery__Node *expr = script->statements[0]
                                      .stmt->select_stmt->target_list[0]
                                      ->res_target->val;
            char *deparsed = tdb_sql_deparse_raw_expr(expr);

            sr->depth = tdb_pb_depth(&expr->base, tdb_current_mcxt);
            sr->text = strdup(deparsed);
        }
    }
    TDB_CATCH();
    {
        sr->sqlerrcode = tdb_error_current()->sqlerrcode;
        tdb_error_flush();
    }
    TDB_END_TRY();
    tdb_stack_depth_leave(&save);
    tdb_mcxt_thread_done();
    return NULL;
}

static void
run_on_small_stack(SmallRun *sr, const char *sql, bool deparse)
{
    pthread_attr_t attr;
    pthread_t thread;

    memset(sr, 0, sizeof(*sr));
    sr->sql = sql;
    sr->deparse = deparse;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1024 * 1024);
    expect_int_eq(pthread_create(&thread, &attr, small_run_main, sr), 0);
    pthread_join(thread, NULL);
    pthread_attr_destroy(&attr);
}

TEST_BEGIN(test_parse_on_a_small_stack)
{
    SmallRun sr;

    /* 8,000 levels take 1.4 MB of the library's recursion: more than the
     * thread has, so the parse must run on a stack of its own */
    run_on_small_stack(&sr, deep_statement("plus", 4000), false);
    expect_int_eq(sr.sqlerrcode, 0);
    expect_int_gt(sr.depth, 8000);
    /* and a short one in place */
    run_on_small_stack(&sr, "SELECT 1 + 2", false);
    expect_int_eq(sr.sqlerrcode, 0);
    expect_int_eq(sr.depth, 11);
}
TEST_END

TEST_BEGIN(test_deparse_deep_expression)
{
    SmallRun sr;

    /* the library's deparse takes ~1 kB a level: 4,000 levels are more
     * than the thread's 1 MB, so it runs on a stack of its own */
    run_on_small_stack(&sr, deep_statement("plus", 1999), true);
    expect_int_eq(sr.sqlerrcode, 0);
    expect_int_eq(sr.depth, 2 * 1999 + 3);
    /* PostgreSQL's deparser: ((1 + 1) + 1) ... + 1 */
    expect_ptr_not_null(sr.text);
    if (sr.text != NULL) {
        expect_int_eq(strlen(sr.text), 1998 + 1 + 1999 * 4 + 1998);
        expect_int_eq(strspn(sr.text, "("), 1998);
        expect_int_eq(strncmp(sr.text + 1998, "1 + 1) + 1) + 1)", 16), 0);
        expect_str_eq(sr.text + strlen(sr.text) - 6, "1) + 1");
    }
    free(sr.text);
    /* deeper than twice what PostgreSQL runs: 54001 */
    run_on_small_stack(&sr, deep_statement("plus", 20000), true);
    expect_int_eq(sr.sqlerrcode, ERRCODE_STATEMENT_TOO_COMPLEX);
    expect_ptr_null(sr.text);
}
TEST_END

TEST_BEGIN(test_too_deep_for_any_stage)
{
    char *deep = deep_statement("plus", 1000000);
    Sql bad = {0};

    /* no statement that deep could be analyzed within max_stack_depth:
     * refused before the library builds it */
    expect_error(tdb_sql_parse(deep), ERRCODE_STATEMENT_TOO_COMPLEX,
                 "stack depth limit exceeded");
    expect_str_contains(tdb_test_last_error.hint, "max_stack_depth");
    /* but the grammar speaks first, as in PostgreSQL */
    sql_add(&bad, deep);
    sql_add(&bad, " FROM FROM");
    expect_error(tdb_sql_parse(bad.data), ERRCODE_SYNTAX_ERROR,
                 "syntax error at or near \"FROM\"");
    expect_int_eq(tdb_test_last_error.cursorpos, (long long)strlen(deep) + 7);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "parser_parse_tree",
                     TEST_CASE(test_regression_statements),
                     TEST_CASE(test_deep_statements),
                     TEST_CASE(test_flat_statements_stay_shallow),
                     TEST_CASE(test_grammar_stack_limit),
                     TEST_CASE(test_parse_on_a_small_stack),
                     TEST_CASE(test_deparse_deep_expression),
                     TEST_CASE(test_too_deep_for_any_stage));
}
