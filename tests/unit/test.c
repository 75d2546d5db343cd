/*
 * test.c -- the runner behind test.h: runs the named test functions, each
 * inside a TDB_TRY with a fresh memory-context tree, and prints the
 * summary line that tests/run_unit.sh totals.
 */
#include "common/base.h"

#include <dirent.h>
#include <limits.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mmgr/mcxt.h"
#include "test.h"

TestState tdb_test_state;
ErrorData tdb_test_last_error;

void
tdb_test_fail(const char *file, int line, const char *fmt, ...)
{
    va_list args;

    tdb_test_state.nfailed_expects++;
    fprintf(stdout, "    %s:%d: ", file, line);
    va_start(args, fmt);
    vfprintf(stdout, fmt, args);
    va_end(args);
    fputc('\n', stdout);
    fflush(stdout);
}

void
tdb_test_skip(const char *fmt, ...)
{
    va_list args;

    tdb_test_state.skipped = true;
    va_start(args, fmt);
    vsnprintf(tdb_test_state.skip_reason, sizeof(tdb_test_state.skip_reason),
              fmt, args);
    va_end(args);
}

int
tdb_test_count_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;

    if (d == NULL)
        return 0;
    while ((de = readdir(d)) != NULL)
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

uint64
tdb_test_seed(void)
{
    static uint64 seed;
    const char *env;

    if (seed != 0)
        return seed;
    env = getenv("TDB_TEST_SEED");
    if (env && *env)
        seed = strtoull(env, NULL, 0);
    else {
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        seed = ((uint64)ts.tv_sec * 1000000007u) ^ (uint64)ts.tv_nsec;
    }
    if (seed == 0)
        seed = 1;
    printf("# random seed: TDB_TEST_SEED=%llu\n", (unsigned long long)seed);
    return seed;
}

uint64
tdb_test_rand(uint64 *state)
{
    uint64 x = *state;

    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/*
 * __FILE__ is tests/unit/test.c as the Makefile compiles it (relative to
 * the repository root), so the fixtures are in its directory's
 * ../fixtures.
 */
FILE *
tdb_test_open_fixture(const char *relpath, const char *env_var, char *path,
                      Size pathlen)
{
    const char *env = env_var != NULL ? getenv(env_var) : NULL;
    char srcdir[PATH_MAX];
    char exe[PATH_MAX];
    FILE *f;
    ssize_t n;

    if (env != NULL && *env != '\0') {
        snprintf(path, pathlen, "%s", env);
        return fopen(path, "r");
    }
    snprintf(srcdir, sizeof(srcdir), "%s", __FILE__);
    snprintf(path, pathlen, "%s/../fixtures/%s", dirname(srcdir), relpath);
    if ((f = fopen(path, "r")) != NULL || __FILE__[0] == '/')
        return f;
    n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    snprintf(srcdir, sizeof(srcdir), "%s", __FILE__);
    snprintf(path, pathlen, "%s/../../../%s/../fixtures/%s", dirname(exe),
             dirname(srcdir), relpath);
    return fopen(path, "r");
}

static bool
selected(int argc, char **argv, const char *name)
{
    if (argc <= 1)
        return true;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return true;
    return false;
}

/* Run one test; returns 1 passed, 0 failed, -1 skipped. */
static int
run_one(TestFunc fn)
{
    volatile bool escaped = false;

    tdb_mcxt_thread_init();
    TDB_TRY();
    {
        fn();
    }
    TDB_CATCH();
    {
        const ErrorData *e = tdb_error_current();

        escaped = true;
        printf("    unexpected %s: %s (%s:%d)\n", tdb_elevel_name(e->elevel),
               e->message, e->filename ? e->filename : "?", e->lineno);
        tdb_error_flush();
    }
    TDB_END_TRY();
    tdb_mcxt_thread_done();

    if (escaped || tdb_test_state.nfailed_expects > 0)
        return 0;
    return tdb_test_state.skipped ? -1 : 1;
}

/*
 * tdb_test_main(argc, argv, suite, fn1, "fn1", fn2, "fn2", ..., NULL) --
 * called through the test_main() macro, which passes names via TEST_CASE.
 */
int
tdb_test_main(int argc, char **argv, const char *suite, ...)
{
    va_list args;
    int npassed = 0, nfailed = 0, nskipped = 0;

    setvbuf(stdout, NULL, _IOLBF, 0);
    va_start(args, suite);
    for (;;) {
        TestFunc fn = va_arg(args, TestFunc);
        const char *name;
        int rc;

        if (fn == NULL)
            break;
        name = va_arg(args, const char *);
        if (!selected(argc, argv, name))
            continue;
        memset(&tdb_test_state, 0, sizeof(tdb_test_state));
        tdb_test_state.name = name;
        rc = run_one(fn);
        if (rc > 0) {
            npassed++;
            printf("  ok    %s\n", name);
        } else if (rc < 0) {
            nskipped++;
            printf("  skip  %s (%s)\n", name, tdb_test_state.skip_reason);
        } else {
            nfailed++;
            printf("  FAIL  %s\n", name);
        }
    }
    va_end(args);
    printf("RESULT %s: %d passed, %d failed, %d skipped\n", suite, npassed,
           nfailed, nskipped);
    return nfailed == 0 ? 0 : 1;
}
