/*
 * test.h -- tupledb's own unit-test framework (no external dependency).
 *
 *     TEST_BEGIN(test_something)
 *     {
 *         expect_u64_eq(1 + 1, 2);
 *     }
 *     TEST_END
 *
 *     int main(int argc, char **argv)
 *     {
 *         return test_main(argc, argv, "mmgr_aset",
 *                          TEST_CASE(test_something), TEST_CASE(test_other));
 *     }
 *
 * Each expect_* macro prints the expression, both values, file and line when
 * it fails, and the test continues (so one run shows every failure).  A test
 * fails if any expectation failed or an ERROR escaped it; test_skip() marks
 * it skipped.  test_main() runs the tests (all, or those named on the
 * command line), prints one line per test and a closing
 *     RESULT <name>: N passed, N failed, N skipped
 * line that tests/run_unit.sh totals, and exits 0 only if nothing failed.
 *
 * Every test starts with a fresh thread memory-context tree
 * (tdb_mcxt_thread_init) and ends by deleting it.
 */
#ifndef TDB_TEST_H
#define TDB_TEST_H

#include "common/base.h"

#include <inttypes.h>
#include <stdio.h>

#include "common/elog.h"

typedef void (*TestFunc)(void);

/* Internal state of the running test. */
typedef struct TestState {
    const char *name;
    int nfailed_expects;
    bool skipped;
    char skip_reason[256];
} TestState;
extern TestState tdb_test_state;

void tdb_test_fail(const char *file, int line, const char *fmt, ...)
    TDB_PRINTF(3, 4);
void tdb_test_skip(const char *fmt, ...) TDB_PRINTF(1, 2);
int tdb_test_main(int argc, char **argv, const char *suite, ...);
/* Seed for randomized tests: TDB_TEST_SEED or a time-based value (printed). */
uint64 tdb_test_seed(void);
/* A small fast PRNG (xorshift64*), deterministic per seed. */
uint64 tdb_test_rand(uint64 *state);
/*
 * Open tests/fixtures/<relpath> for reading: the file named by $<env_var>
 * when that is set (env_var may be NULL), else the fixture found from the
 * working directory (the repository root, where make runs the tests) or,
 * failing that, from the test binary's location
 * (build/<flavour>/tests/<binary>).  `path` receives the last path tried,
 * for messages.  NULL if it cannot be opened: a test that needs its
 * fixture must then fail, not skip.
 */
FILE *tdb_test_open_fixture(const char *relpath, const char *env_var,
                            char *path, Size pathlen);
/* The entries of directory dir but "." and "..": 0 if it does not exist
 * (temporary files a test expects, or expects gone). */
int tdb_test_count_files(const char *dir);

#define TEST_BEGIN(fn) static void fn(void)
#define TEST_END

/* List entries for test_main: TEST_CASE(fn) passes the function and name. */
#define TEST_CASE(fn) (TestFunc)(fn), #fn
#define test_main(argc, argv, suite, ...)                                   \
    tdb_test_main((argc), (argv), (suite), __VA_ARGS__, (TestFunc)NULL)
#define test_skip(...)                                                      \
    do {                                                                    \
        tdb_test_skip(__VA_ARGS__);                                         \
        return;                                                             \
    } while (0)

#define expect_true(cond)                                                   \
    do {                                                                    \
        if (!(cond))                                                        \
            tdb_test_fail(__FILE__, __LINE__, "expected true: %s", #cond);  \
    } while (0)
#define expect_false(cond)                                                  \
    do {                                                                    \
        if (cond)                                                           \
            tdb_test_fail(__FILE__, __LINE__, "expected false: %s", #cond); \
    } while (0)

#define EXPECT_CMP_(type, fmt, a, op, b)                                    \
    do {                                                                    \
        type expect_a_ = (a);                                               \
        type expect_b_ = (b);                                               \
        if (!(expect_a_ op expect_b_))                                      \
            tdb_test_fail(__FILE__, __LINE__,                               \
                          "expected %s " #op " %s, got " fmt " vs " fmt,    \
                          #a, #b, expect_a_, expect_b_);                    \
    } while (0)

#define expect_u64_eq(a, b) EXPECT_CMP_(uint64, "%" PRIu64, a, ==, b)
#define expect_u64_ne(a, b) EXPECT_CMP_(uint64, "%" PRIu64, a, !=, b)
#define expect_u64_lt(a, b) EXPECT_CMP_(uint64, "%" PRIu64, a, <, b)
#define expect_u64_le(a, b) EXPECT_CMP_(uint64, "%" PRIu64, a, <=, b)
#define expect_u64_gt(a, b) EXPECT_CMP_(uint64, "%" PRIu64, a, >, b)
#define expect_u64_ge(a, b) EXPECT_CMP_(uint64, "%" PRIu64, a, >=, b)
#define expect_int_eq(a, b) EXPECT_CMP_(long long, "%lld", a, ==, b)
#define expect_int_ne(a, b) EXPECT_CMP_(long long, "%lld", a, !=, b)
#define expect_int_lt(a, b) EXPECT_CMP_(long long, "%lld", a, <, b)
#define expect_int_le(a, b) EXPECT_CMP_(long long, "%lld", a, <=, b)
#define expect_int_gt(a, b) EXPECT_CMP_(long long, "%lld", a, >, b)
#define expect_int_ge(a, b) EXPECT_CMP_(long long, "%lld", a, >=, b)
#define expect_ptr_eq(a, b) EXPECT_CMP_(const void *, "%p", a, ==, b)
#define expect_ptr_ne(a, b) EXPECT_CMP_(const void *, "%p", a, !=, b)
#define expect_ptr_null(a) expect_ptr_eq(a, NULL)
#define expect_ptr_not_null(a) expect_ptr_ne(a, NULL)

#define expect_str_eq(a, b)                                                 \
    do {                                                                    \
        const char *expect_a_ = (a);                                        \
        const char *expect_b_ = (b);                                        \
        if (expect_a_ == NULL || expect_b_ == NULL ||                       \
            strcmp(expect_a_, expect_b_) != 0)                              \
            tdb_test_fail(__FILE__, __LINE__,                               \
                          "expected %s == %s, got \"%s\" vs \"%s\"", #a,    \
                          #b, expect_a_ ? expect_a_ : "(null)",             \
                          expect_b_ ? expect_b_ : "(null)");                \
    } while (0)

#define expect_str_contains(haystack, needle)                               \
    do {                                                                    \
        const char *expect_h_ = (haystack);                                 \
        const char *expect_n_ = (needle);                                   \
        if (expect_h_ == NULL || strstr(expect_h_, expect_n_) == NULL)      \
            tdb_test_fail(__FILE__, __LINE__,                               \
                          "expected %s to contain \"%s\", got \"%s\"",      \
                          #haystack, expect_n_,                             \
                          expect_h_ ? expect_h_ : "(null)");                \
    } while (0)

/*
 * RETURN_CAUGHT(stmt, error) -- the body of a function that runs stmt,
 * catches an ERROR into *error (an ErrorData) and returns whether one
 * came.  Such functions keep the callers' loop variables from living
 * across a setjmp.
 */
#define RETURN_CAUGHT(stmt, error)                                             \
    do {                                                                       \
        volatile bool raised_ = false;                                         \
        TDB_TRY();                                                             \
        {                                                                      \
            stmt;                                                              \
        }                                                                      \
        TDB_CATCH();                                                           \
        {                                                                      \
            *(error) = *tdb_error_current();                                   \
            tdb_error_flush();                                                 \
            raised_ = true;                                                    \
        }                                                                      \
        TDB_END_TRY();                                                         \
        return raised_;                                                        \
    } while (0)

/* Copy of the last error caught by expect_error (valid until the next). */
extern ErrorData tdb_test_last_error;

/*
 * expect_error(stmt, ERRCODE_x, "substring"): run stmt, which must raise an
 * ERROR with that SQLSTATE whose message contains the substring (NULL: any
 * message).  The error is caught and flushed; tdb_test_last_error keeps it.
 */
#define expect_error(stmt, code, substr)                                    \
    do {                                                                    \
        volatile bool expect_raised_ = false;                               \
        TDB_TRY();                                                          \
        {                                                                   \
            stmt;                                                           \
        }                                                                   \
        TDB_CATCH();                                                        \
        {                                                                   \
            expect_raised_ = true;                                          \
            tdb_test_last_error = *tdb_error_current();                     \
            tdb_error_flush();                                              \
        }                                                                   \
        TDB_END_TRY();                                                      \
        if (!expect_raised_)                                                \
            tdb_test_fail(__FILE__, __LINE__,                               \
                          "expected an error from: %s", #stmt);             \
        else {                                                              \
            if (tdb_test_last_error.sqlerrcode != (code))                   \
                tdb_test_fail(__FILE__, __LINE__,                           \
                              "wrong SQLSTATE from %s (message: %s)",       \
                              #stmt, tdb_test_last_error.message);          \
            if ((substr) != NULL)                                           \
                expect_str_contains(tdb_test_last_error.message,            \
                                    (const char *)(substr));                \
        }                                                                   \
    } while (0)

#endif /* TDB_TEST_H */
