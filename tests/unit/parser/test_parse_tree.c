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
 * A statement of shape `shape` nested n levels: each adds at least one
 * level to the tree, except in the shapes of flat_shapes.
 */
static char *
deep_statement(const char *shape, int n)
{
    Sql s = {0};

    if (strcmp(shape, "plus") == 0) {
        sql_add(&s, "SELECT 1");
        sql_repeat(&s, "+1", n);
    } else if (strcmp(shape, "concat") == 0) {
        sql_add(&s, "SELECT 'x'");
        sql_repeat(&s, "||'x'", n);
    } else if (strcmp(shape, "tlist") == 0) {
        sql_add(&s, "SELECT a");
        sql_repeat(&s, "+a", n);
        sql_add(&s, " FROM t");
    } else if (strcmp(shape, "union") == 0) {
        sql_add(&s, "SELECT 1");
        sql_repeat(&s, " UNION ALL SELECT 1", n);
    } else if (strcmp(shape, "union_columns") == 0) {
        sql_add(&s, "SELECT 1, 2, 3 FROM t");
        sql_repeat(&s, " UNION SELECT a, b+1, c FROM t WHERE a AND b", n);
    } else if (strcmp(shape, "union_parens") == 0) {
        sql_repeat(&s, "(", n);
        sql_add(&s, "SELECT 1");
        sql_repeat(&s, " UNION ALL SELECT 1)", n);
    } else if (strcmp(shape, "intersect") == 0) {
        sql_add(&s, "SELECT 1");
        sql_repeat(&s, " INTERSECT SELECT 1", n);
    } else if (strcmp(shape, "join") == 0) {
        sql_add(&s, "SELECT 1 FROM t t0");
        for (int i = 0; i < n; i++) {
            char buf[64];

            snprintf(buf, sizeof(buf), " JOIN t t%d ON f(a, b) AND c OR d", i);
            sql_add(&s, buf);
        }
    } else if (strcmp(shape, "cast") == 0) {
        sql_add(&s, "SELECT 1");
        sql_repeat(&s, "::int", n);
    } else if (strcmp(shape, "collate") == 0) {
        sql_add(&s, "SELECT 'a'");
        sql_repeat(&s, " COLLATE \"C\"", n);
    } else if (strcmp(shape, "isnull") == 0) {
        sql_add(&s, "SELECT 1");
        sql_repeat(&s, " IS NULL", n);
    } else if (strcmp(shape, "between") == 0) {
        sql_add(&s, "SELECT 1 BETWEEN 0 AND 2");
        sql_repeat(&s, " IS TRUE", n);
    } else if (strcmp(shape, "attimezone") == 0) {
        sql_add(&s, "SELECT now()");
        sql_repeat(&s, " AT TIME ZONE 'UTC'", n);
    } else if (strcmp(shape, "parens") == 0) {
        sql_add(&s, "SELECT ");
        sql_repeat(&s, "(", n);
        sql_add(&s, "1");
        sql_repeat(&s, ")", n);
    } else if (strcmp(shape, "neg") == 0) {
        sql_add(&s, "SELECT ");
        sql_repeat(&s, "- ", n);
        sql_add(&s, "a");
    } else if (strcmp(shape, "not") == 0) {
        sql_add(&s, "SELECT ");
        sql_repeat(&s, "NOT ", n);
        sql_add(&s, "true");
    } else if (strcmp(shape, "subquery") == 0) {
        sql_add(&s, "SELECT ");
        sql_repeat(&s, "(SELECT ", n);
        sql_add(&s, "1");
        sql_repeat(&s, ")", n);
    } else if (strcmp(shape, "from") == 0) {
        sql_add(&s, "SELECT * FROM ");
        sql_repeat(&s, "(SELECT * FROM ", n);
        sql_add(&s, "t");
        sql_repeat(&s, ") s", n);
    } else if (strcmp(shape, "case") == 0) {
        sql_add(&s, "SELECT ");
        sql_repeat(&s, "CASE WHEN a = 1 THEN 1 WHEN b THEN ", n);
        sql_add(&s, "1");
        sql_repeat(&s, " ELSE 2 END", n);
    } else if (strcmp(shape, "case_arg") == 0) {
        sql_add(&s, "SELECT ");
        sql_repeat(&s, "CASE CASE ", n);
        sql_add(&s, "1");
        sql_repeat(&s, " WHEN 1 THEN 2 END WHEN 2 THEN 3 END", n);
    } else if (strcmp(shape, "func") == 0) {
        sql_add(&s, "SELECT ");
        sql_repeat(&s, "abs(", n);
        sql_add(&s, "1");
        sql_repeat(&s, ")", n);
    } else if (strcmp(shape, "row") == 0) {
        sql_add(&s, "SELECT ");
        sql_repeat(&s, "ROW(1, ", n);
        sql_add(&s, "1");
        sql_repeat(&s, ")", n);
    } else if (strcmp(shape, "array") == 0) {
        sql_add(&s, "SELECT ");
        sql_repeat(&s, "ARRAY[1, ", n);
        sql_add(&s, "1");
        sql_repeat(&s, "]", n);
    } else if (strcmp(shape, "in_sub") == 0) {
        sql_add(&s, "SELECT 1 WHERE 1 IN ");
        sql_repeat(&s, "(SELECT 1 WHERE 1 IN ", n);
        sql_add(&s, "(SELECT 1)");
        sql_repeat(&s, ")", n);
    } else if (strcmp(shape, "and_parens") == 0) {
        sql_add(&s, "SELECT ");
        sql_repeat(&s, "(true AND ", n);
        sql_add(&s, "true");
        sql_repeat(&s, ")", n);
    } else if (strcmp(shape, "or_and") == 0) {
        sql_add(&s, "SELECT 1 WHERE a = 1");
        sql_repeat(&s, " OR b AND NOT c = 2 + 1", n);
    } else if (strcmp(shape, "insert") == 0) {
        sql_add(&s, "INSERT INTO t VALUES (1");
        sql_repeat(&s, " + 1", n);
        sql_add(&s, ") RETURNING a");
        sql_repeat(&s, " * 2", n);
    } else if (strcmp(shape, "default") == 0) {
        sql_add(&s, "CREATE TABLE t (a int DEFAULT 1");
        sql_repeat(&s, " + 1", n);
        sql_add(&s, ", b int CHECK (b > 0");
        sql_repeat(&s, " - 1", n);
        sql_add(&s, "))");
    } else if (strcmp(shape, "strings") == 0) {
        /* tokens hidden in strings, comments and quoted names do not
         * count: the chain is the || between them */
        sql_add(&s, "SELECT 'a,b'");
        sql_repeat(&s,
                   " || E'(\\'' || $q$)), AND$q$ /* ( , */ || \"x, y\" "
                   "-- , (\n|| U&'d' ",
                   n);
    } else if (strcmp(shape, "multi") == 0) {
        for (int i = 0; i < n; i++)
            sql_add(&s, "SELECT 1 + 1 + 1; ");
        sql_add(&s, "SELECT 1");
        sql_repeat(&s, " + 1", n);
    } else {
        Assert(false);
    }
    return s.data;
}

static const char *const deep_shapes[] = {
    "plus",         "concat",    "tlist",      "union",   "union_columns",
    "union_parens", "intersect", "join",       "cast",    "collate",
    "isnull",       "between",   "attimezone", "parens",  "neg",
    "not",          "subquery",  "from",       "case",    "case_arg",
    "func",         "row",       "array",      "in_sub",  "and_parens",
    "or_and",       "insert",    "default",    "strings", "multi",
};

/* shapes that nest in the text but not in the tree: parentheses make no
 * node, and a chain of ORs of ANDs is one flattened OR */
static bool
is_flat_shape(const char *shape)
{
    return strcmp(shape, "parens") == 0 || strcmp(shape, "or_and") == 0;
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

    for (Size i = 0; i < lengthof(deep_shapes); i++) {
        Checked c = {0};

        for (Size j = 0; j < lengthof(sizes); j++)
            check_statement(deep_statement(deep_shapes[i], sizes[j]), &c);
        if (c.statements != (int)lengthof(sizes))
            tdb_test_fail(__FILE__, __LINE__, "%s: %d of %d parsed",
                          deep_shapes[i], c.statements, (int)lengthof(sizes));
        /* each level of nesting is at least one level of the tree */
        if (is_flat_shape(deep_shapes[i]))
            expect_int_lt(c.max_depth, 20);
        else
            expect_int_gt(c.max_depth, 1000);
        printf("    %-14s deepest %5d levels, bound at most %.1fx\n",
               deep_shapes[i], c.max_depth, c.max_ratio);
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

/* ----- tdb_sql_parse on a small stack ----- */

typedef struct SmallParse {
    const char *sql;
    int depth;
    int sqlerrcode;
    char message[ERRMSG_MAX];
} SmallParse;

static void *
small_parse_main(void *arg)
{
    SmallParse *sp = arg;
    StackDepthSave save;

    tdb_mcxt_thread_init();
    tdb_stack_depth_enter(&save, tdb_stack_depth_max_kb());
    TDB_TRY();
    {
        ParsedScript *script = tdb_sql_parse(sp->sql);

        sp->depth = script->depth;
    }
    TDB_CATCH();
    {
        sp->sqlerrcode = tdb_error_current()->sqlerrcode;
        snprintf(sp->message, sizeof(sp->message), "%s",
                 tdb_error_current()->message);
        tdb_error_flush();
    }
    TDB_END_TRY();
    tdb_stack_depth_leave(&save);
    tdb_mcxt_thread_done();
    return NULL;
}

/* tdb_sql_parse(sql) on a thread with a stack of kb kB. */
static void
parse_on_small_stack(SmallParse *sp, const char *sql, int kb)
{
    pthread_attr_t attr;
    pthread_t thread;

    memset(sp, 0, sizeof(*sp));
    sp->sql = sql;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (Size)kb * 1024);
    expect_int_eq(pthread_create(&thread, &attr, small_parse_main, sp), 0);
    pthread_join(thread, NULL);
    pthread_attr_destroy(&attr);
}

TEST_BEGIN(test_parse_on_a_small_stack)
{
    SmallParse sp;

    /* 8,000 levels take 1.4 MB of the library's recursion: more than the
     * thread has, so the parse must run on a stack of its own */
    parse_on_small_stack(&sp, deep_statement("plus", 4000), 1024);
    expect_int_eq(sp.sqlerrcode, 0);
    expect_int_gt(sp.depth, 8000);
    /* and a short one in place */
    parse_on_small_stack(&sp, "SELECT 1 + 2", 1024);
    expect_int_eq(sp.sqlerrcode, 0);
    expect_int_eq(sp.depth, 11);
}
TEST_END

/* ----- deparsing a deep expression ----- */

typedef struct SmallDeparse {
    const char *sql;
    int depth;
    char *text;
    int sqlerrcode;
} SmallDeparse;

static void *
small_deparse_main(void *arg)
{
    SmallDeparse *sd = arg;
    StackDepthSave save;

    tdb_mcxt_thread_init();
    tdb_stack_depth_enter(&save, STACK_DEPTH_DEFAULT_KB);
    TDB_TRY();
    {
        ParsedScript *script = tdb_sql_parse(sd->sql);
        PgQuery__Node *expr = script->statements[0]
                                  .stmt->select_stmt->target_list[0]
                                  ->res_target->val;
        char *deparsed = tdb_sql_deparse_raw_expr(expr);

        sd->depth = tdb_pb_depth(&expr->base, tdb_current_mcxt);
        sd->text = strdup(deparsed);
    }
    TDB_CATCH();
    {
        sd->sqlerrcode = tdb_error_current()->sqlerrcode;
        tdb_error_flush();
    }
    TDB_END_TRY();
    tdb_stack_depth_leave(&save);
    tdb_mcxt_thread_done();
    return NULL;
}

static void
deparse_on_small_stack(SmallDeparse *sd, const char *sql)
{
    pthread_attr_t attr;
    pthread_t thread;

    memset(sd, 0, sizeof(*sd));
    sd->sql = sql;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1024 * 1024);
    expect_int_eq(pthread_create(&thread, &attr, small_deparse_main, sd), 0);
    pthread_join(thread, NULL);
    pthread_attr_destroy(&attr);
}

TEST_BEGIN(test_deparse_deep_expression)
{
    SmallDeparse sd;

    /* the library's deparse takes ~1 kB a level: 4,000 levels are more
     * than the thread's 1 MB, so it runs on a stack of its own */
    deparse_on_small_stack(&sd, deep_statement("plus", 1999));
    expect_int_eq(sd.sqlerrcode, 0);
    expect_int_eq(sd.depth, 2 * 1999 + 3);
    /* PostgreSQL's deparser: ((1 + 1) + 1) ... + 1 */
    expect_ptr_not_null(sd.text);
    if (sd.text != NULL) {
        expect_int_eq(strlen(sd.text), 1998 + 1 + 1999 * 4 + 1998);
        expect_int_eq(strspn(sd.text, "("), 1998);
        expect_int_eq(strncmp(sd.text + 1998, "1 + 1) + 1) + 1)", 16), 0);
        expect_str_eq(sd.text + strlen(sd.text) - 6, "1) + 1");
    }
    free(sd.text);
    /* deeper than twice what PostgreSQL runs: 54001 */
    deparse_on_small_stack(&sd, deep_statement("plus", 20000));
    expect_int_eq(sd.sqlerrcode, ERRCODE_STATEMENT_TOO_COMPLEX);
    expect_ptr_null(sd.text);
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
