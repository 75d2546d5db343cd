/*
 * test_elog.c -- unit tests for the error-reporting module (common/elog.c).
 *
 * Covers: ereport(ERROR) caught by TDB_TRY with every ErrorData field
 * (SQLSTATE, message, detail, hint, context, position, location); elog's
 * XX000; the default SQLSTATEs per level; nested TRY blocks (rethrow,
 * handling, raising from a CATCH part) and restoration of the exception
 * stack; %m expansion from the errno saved when the report started; reports
 * below ERROR going to the notice hook while execution continues; a report
 * raised while another is being built; truncation of long messages;
 * tdb_sqlstate_unpack and tdb_elevel_name; and, in child processes, what an
 * uncaught ERROR, a FATAL and a PANIC do to the process.
 */
#include "common/base.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/elog.h"
#include "test.h"

/* ----- helpers ----- */

/* Notices received by record_notice (reports below ERROR). */
typedef struct NoticeLog {
    int count;
    int elevel[8];
    int sqlerrcode[8];
    char message[8][ERRMSG_MAX];
    void *arg_seen;
} NoticeLog;

static void
record_notice(const ErrorData *edata, void *arg)
{
    NoticeLog *log = arg;

    log->arg_seen = arg;
    if (log->count < 8) {
        log->elevel[log->count] = edata->elevel;
        log->sqlerrcode[log->count] = edata->sqlerrcode;
        snprintf(log->message[log->count], ERRMSG_MAX, "%s", edata->message);
    }
    log->count++;
}

static void
other_notice(const ErrorData *edata, void *arg)
{
    (void)edata;
    (void)arg;
}

static void
expect_sqlstate(int code, const char *text)
{
    char buf[6];

    tdb_sqlstate_unpack(code, buf);
    expect_str_eq(buf, text);
}

/* ----- catching ----- */

TEST_BEGIN(test_ereport_error_caught_with_all_fields)
{
    volatile bool caught = false;
    volatile bool ran_past = false;
    ErrorData copy;
    char state[6];

    memset(&copy, 0, sizeof(copy));
    TDB_TRY();
    {
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid value \"%s\" for %d", "abc", 42),
                errdetail("The value must be numeric."),
                errhint("Use a number."),
                errcontext_msg("while parsing %s", "x"), errposition(17));
        ran_past = true;
    }
    TDB_CATCH();
    {
        caught = true;
        copy = *tdb_error_current();
        tdb_error_flush();
    }
    TDB_END_TRY();

    expect_true(caught);
    expect_false(ran_past);
    expect_int_eq(copy.elevel, ERROR);
    expect_int_eq(copy.sqlerrcode, ERRCODE_INVALID_PARAMETER_VALUE);
    tdb_sqlstate_unpack(copy.sqlerrcode, state);
    expect_str_eq(state, "22023");
    expect_str_eq(copy.message, "invalid value \"abc\" for 42");
    expect_str_eq(copy.detail, "The value must be numeric.");
    expect_str_eq(copy.hint, "Use a number.");
    expect_str_eq(copy.context, "while parsing x");
    expect_int_eq(copy.cursorpos, 17);
    expect_str_contains(copy.filename, "test_elog.c");
    expect_int_ne(copy.lineno, 0);
    expect_str_eq(copy.funcname, "test_ereport_error_caught_with_all_fields");
}
TEST_END

TEST_BEGIN(test_unset_fields_are_empty)
{
    expect_error(ereport(ERROR, errcode(ERRCODE_QUERY_CANCELED),
                         errmsg("canceling statement")),
                 ERRCODE_QUERY_CANCELED, "canceling statement");
    expect_str_eq(tdb_test_last_error.detail, "");
    expect_str_eq(tdb_test_last_error.hint, "");
    expect_str_eq(tdb_test_last_error.context, "");
    expect_int_eq(tdb_test_last_error.cursorpos, 0);
}
TEST_END

TEST_BEGIN(test_elog_is_internal_error)
{
    expect_error(elog(ERROR, "unrecognized node type: %d", 99),
                 ERRCODE_INTERNAL_ERROR, "unrecognized node type: 99");
    /* an ERROR without errcode() defaults to XX000 as well */
    expect_error(ereport(ERROR, errmsg("no code")), ERRCODE_INTERNAL_ERROR,
                 "no code");
}
TEST_END

TEST_BEGIN(test_error_flush_forgets_error)
{
    expect_error(elog(ERROR, "x"), ERRCODE_INTERNAL_ERROR, "x");
    expect_ptr_null(tdb_error_current());
}
TEST_END

/* One TRY block that completes normally; returns the path taken. */
static int
try_without_error(sigjmp_buf *before)
{
    volatile int path = 0;

    TDB_TRY();
    {
        expect_ptr_ne(tdb_exception_stack, before);
        path = 1;
    }
    TDB_CATCH();
    {
        path = 2;
    }
    TDB_END_TRY();
    return path;
}

/* One TRY block that unwinds; returns the path taken. */
static int
try_with_error(sigjmp_buf *before)
{
    volatile int path = 0;

    TDB_TRY();
    {
        elog(ERROR, "unwind");
    }
    TDB_CATCH();
    {
        /* inside CATCH the outer handler is active again */
        expect_ptr_eq(tdb_exception_stack, before);
        path = 3;
        tdb_error_flush();
    }
    TDB_END_TRY();
    return path;
}

TEST_BEGIN(test_exception_stack_restored)
{
    sigjmp_buf *before = tdb_exception_stack;

    expect_int_eq(try_without_error(before), 1);
    expect_ptr_eq(tdb_exception_stack, before);
    expect_int_eq(try_with_error(before), 3);
    expect_ptr_eq(tdb_exception_stack, before);
}
TEST_END

/* Inner levels of the nesting tests (a TRY block per function: the
 * macros declare locals that must not shadow each other). */
static volatile bool inner_caught;
static volatile bool after_inner;

static void
inner_catch_and_rethrow(void)
{
    TDB_TRY();
    {
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("inner failure %d", 7));
    }
    TDB_CATCH();
    {
        inner_caught = true;
        expect_str_eq(tdb_error_current()->message, "inner failure 7");
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    after_inner = true;
}

static void
inner_catch_and_handle(void)
{
    TDB_TRY();
    {
        elog(ERROR, "handled");
    }
    TDB_CATCH();
    {
        inner_caught = true;
        tdb_error_flush();
    }
    TDB_END_TRY();
    after_inner = true;
}

static void
inner_catch_and_raise_another(void)
{
    TDB_TRY();
    {
        elog(ERROR, "first");
    }
    TDB_CATCH();
    {
        inner_caught = true;
        tdb_error_flush();
        ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("second"));
    }
    TDB_END_TRY();
    after_inner = true;
}

/* Run inner() inside an outer TRY; returns whether the outer caught. */
static bool
run_nested(void (*inner)(void), ErrorData *caught_error)
{
    volatile bool outer_caught = false;

    inner_caught = false;
    after_inner = false;
    TDB_TRY();
    {
        inner();
    }
    TDB_CATCH();
    {
        outer_caught = true;
        *caught_error = *tdb_error_current();
        tdb_error_flush();
    }
    TDB_END_TRY();
    return outer_caught;
}

TEST_BEGIN(test_nested_try_rethrow)
{
    ErrorData e;

    memset(&e, 0, sizeof(e));
    expect_true(run_nested(inner_catch_and_rethrow, &e));
    expect_true(inner_caught);
    expect_false(after_inner);
    expect_str_eq(e.message, "inner failure 7");
    expect_int_eq(e.sqlerrcode, ERRCODE_DATA_CORRUPTED);
}
TEST_END

TEST_BEGIN(test_nested_try_inner_handles)
{
    ErrorData e;

    expect_false(run_nested(inner_catch_and_handle, &e));
    expect_true(inner_caught);
    expect_true(after_inner);
}
TEST_END

TEST_BEGIN(test_error_raised_in_catch_reaches_outer)
{
    ErrorData e;

    memset(&e, 0, sizeof(e));
    expect_true(run_nested(inner_catch_and_raise_another, &e));
    expect_true(inner_caught);
    expect_false(after_inner);
    expect_str_eq(e.message, "second");
    expect_int_eq(e.sqlerrcode, ERRCODE_OUT_OF_MEMORY);
}
TEST_END

static void
raise_and_catch(int i)
{
    expect_error(elog(ERROR, "error %d", i), ERRCODE_INTERNAL_ERROR, "error");
}

TEST_BEGIN(test_repeated_errors_do_not_exhaust_stack)
{
    /* Each caught ERROR must release its errordata slot. */
    for (int i = 0; i < 3 * ERRORDATA_STACK_SIZE; i++)
        raise_and_catch(i);
    expect_str_eq(tdb_test_last_error.message, "error 14");
}
TEST_END

/* ----- %m and errno ----- */

static const char *
clobber_errno(const char *s)
{
    errno = EACCES;
    return s;
}

TEST_BEGIN(test_percent_m_expansion)
{
    char expected[ERRMSG_MAX];

    snprintf(expected, sizeof(expected), "could not open file \"f\": %s",
             strerror(ENOENT));
    errno = ENOENT;
    expect_error(ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR),
                         errmsg("could not open file \"%s\": %m", "f")),
                 ERRCODE_INTERNAL_ERROR, NULL);
    expect_str_eq(tdb_test_last_error.message, expected);
    expect_int_eq(tdb_test_last_error.saved_errno, ENOENT);
}
TEST_END

TEST_BEGIN(test_percent_m_uses_errno_at_report_start)
{
    char expected[ERRMSG_MAX];

    /* errno changed while evaluating the arguments must not leak into %m */
    snprintf(expected, sizeof(expected), "x: %s", strerror(ENOENT));
    errno = ENOENT;
    expect_error(ereport(ERROR, errmsg("%s: %m", clobber_errno("x"))),
                 ERRCODE_INTERNAL_ERROR, NULL);
    expect_str_eq(tdb_test_last_error.message, expected);

    /* %m also works in detail and hint */
    errno = ENOSPC;
    expect_error(ereport(ERROR, errmsg("write failed"), errdetail("%m."),
                         errhint("%m!")),
                 ERRCODE_INTERNAL_ERROR, "write failed");
    snprintf(expected, sizeof(expected), "%s.", strerror(ENOSPC));
    expect_str_eq(tdb_test_last_error.detail, expected);
    snprintf(expected, sizeof(expected), "%s!", strerror(ENOSPC));
    expect_str_eq(tdb_test_last_error.hint, expected);
}
TEST_END

TEST_BEGIN(test_percent_percent_m_is_literal)
{
    errno = ENOENT;
    expect_error(elog(ERROR, "100%%m done %d%%", 5), ERRCODE_INTERNAL_ERROR,
                 NULL);
    expect_str_eq(tdb_test_last_error.message, "100%m done 5%");
}
TEST_END

TEST_BEGIN(test_warning_preserves_errno)
{
    NoticeLog log;
    void *old_arg;
    ErrorNoticeHook old;

    memset(&log, 0, sizeof(log));
    old = tdb_error_set_notice_hook(record_notice, &log, &old_arg);
    errno = EINTR;
    ereport(WARNING, errmsg("w"));
    expect_int_eq(errno, EINTR);
    tdb_error_set_notice_hook(old, old_arg, NULL);
    expect_int_eq(log.count, 1);
}
TEST_END

/* ----- reports below ERROR ----- */

TEST_BEGIN(test_warning_goes_to_hook_and_continues)
{
    NoticeLog log;
    void *old_arg = NULL;
    ErrorNoticeHook old;
    volatile bool continued = false;

    memset(&log, 0, sizeof(log));
    old = tdb_error_set_notice_hook(record_notice, &log, &old_arg);
    TDB_TRY();
    {
        ereport(WARNING, errmsg("careful: %d", 1));
        ereport(NOTICE, errmsg("note"));
        ereport(WARNING, errcode(ERRCODE_DATA_CORRUPTED), errmsg("coded"));
        continued = true;
    }
    TDB_CATCH();
    {
        tdb_error_flush();
    }
    TDB_END_TRY();
    tdb_error_set_notice_hook(old, old_arg, NULL);

    expect_true(continued);
    expect_int_eq(log.count, 3);
    expect_ptr_eq(log.arg_seen, &log);
    expect_int_eq(log.elevel[0], WARNING);
    expect_int_eq(log.sqlerrcode[0], ERRCODE_WARNING);
    expect_str_eq(log.message[0], "careful: 1");
    expect_int_eq(log.elevel[1], NOTICE);
    expect_int_eq(log.sqlerrcode[1], ERRCODE_SUCCESSFUL_COMPLETION);
    expect_str_eq(log.message[1], "note");
    expect_int_eq(log.sqlerrcode[2], ERRCODE_DATA_CORRUPTED);
    /* a warning is not an error: nothing is pending afterwards */
    expect_ptr_null(tdb_error_current());
}
TEST_END

TEST_BEGIN(test_notice_hook_swap_returns_previous)
{
    NoticeLog a, b;
    void *old_arg = NULL;
    void *orig_arg = NULL;
    ErrorNoticeHook orig, prev;

    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    orig = tdb_error_set_notice_hook(record_notice, &a, &orig_arg);
    prev = tdb_error_set_notice_hook(other_notice, &b, &old_arg);
    expect_true(prev == record_notice);
    expect_ptr_eq(old_arg, &a);
    ereport(WARNING, errmsg("to other"));
    expect_int_eq(a.count, 0);
    prev = tdb_error_set_notice_hook(record_notice, &b, NULL);
    expect_true(prev == other_notice);
    ereport(WARNING, errmsg("to b"));
    expect_int_eq(b.count, 1);
    expect_str_eq(b.message[0], "to b");
    tdb_error_set_notice_hook(orig, orig_arg, NULL);
}
TEST_END

static const char *
warn_while_building(void)
{
    ereport(WARNING, errmsg("nested warning"));
    return "built";
}

TEST_BEGIN(test_report_raised_while_building_another)
{
    NoticeLog log;
    void *old_arg;
    ErrorNoticeHook old;

    memset(&log, 0, sizeof(log));
    old = tdb_error_set_notice_hook(record_notice, &log, &old_arg);
    expect_error(ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                         errmsg("outer"),
                         errdetail("%s", warn_while_building())),
                 ERRCODE_DATA_CORRUPTED, "outer");
    tdb_error_set_notice_hook(old, old_arg, NULL);
    expect_str_eq(tdb_test_last_error.detail, "built");
    expect_int_eq(log.count, 1);
    expect_str_eq(log.message[0], "nested warning");
}
TEST_END

TEST_BEGIN(test_long_message_truncated)
{
    char big[3 * ERRMSG_MAX];

    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    expect_error(elog(ERROR, "%s", big), ERRCODE_INTERNAL_ERROR, "aaaa");
    expect_u64_eq(strlen(tdb_test_last_error.message), ERRMSG_MAX - 1);
}
TEST_END

/* ----- SQLSTATE and level names ----- */

TEST_BEGIN(test_sqlstate_unpack)
{
    expect_sqlstate(ERRCODE_SUCCESSFUL_COMPLETION, "00000");
    expect_sqlstate(ERRCODE_WARNING, "01000");
    expect_sqlstate(ERRCODE_FEATURE_NOT_SUPPORTED, "0A000");
    expect_sqlstate(ERRCODE_DATA_CORRUPTED, "XX001");
    expect_sqlstate(ERRCODE_INTERNAL_ERROR, "XX000");
    expect_sqlstate(ERRCODE_OUT_OF_MEMORY, "53200");
    expect_sqlstate(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "54000");
    expect_sqlstate(ERRCODE_INVALID_PARAMETER_VALUE, "22023");
    expect_sqlstate(ERRCODE_QUERY_CANCELED, "57014");
    expect_sqlstate(MAKE_SQLSTATE('4', '2', 'P', '0', '1'), "42P01");
}
TEST_END

TEST_BEGIN(test_elevel_names)
{
    expect_str_eq(tdb_elevel_name(DEBUG1), "DEBUG");
    expect_str_eq(tdb_elevel_name(LOG), "LOG");
    expect_str_eq(tdb_elevel_name(INFO), "INFO");
    expect_str_eq(tdb_elevel_name(NOTICE), "NOTICE");
    expect_str_eq(tdb_elevel_name(WARNING), "WARNING");
    expect_str_eq(tdb_elevel_name(ERROR), "ERROR");
    expect_str_eq(tdb_elevel_name(FATAL), "FATAL");
    expect_str_eq(tdb_elevel_name(PANIC), "PANIC");
}
TEST_END

/* ----- what ends the process (checked in a child) ----- */

/* Run fn in a child with stderr discarded; returns the wait status. */
static int
run_in_child(void (*fn)(void))
{
    pid_t pid;
    int status = 0;

    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);

        if (devnull >= 0)
            dup2(devnull, STDERR_FILENO);
        tdb_exception_stack = NULL; /* no TRY block in the child */
        fn();
        _exit(0);
    }
    if (pid < 0)
        return -1;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return status;
}

static void
raise_uncaught_error(void)
{
    elog(ERROR, "nobody catches this");
}

static void
raise_fatal(void)
{
    ereport(FATAL, errmsg("terminating connection"));
}

static void
raise_panic_inside_try(void)
{
    TDB_TRY();
    {
        ereport(PANIC, errmsg("shared state damaged"));
    }
    TDB_CATCH();
    {
        _exit(3); /* PANIC must not be catchable */
    }
    TDB_END_TRY();
}

static void
raise_fatal_inside_try(void)
{
    TDB_TRY();
    {
        ereport(FATAL, errmsg("terminating connection"));
    }
    TDB_CATCH();
    {
        _exit(3); /* FATAL is not caught by TDB_TRY */
    }
    TDB_END_TRY();
}

TEST_BEGIN(test_uncaught_error_aborts)
{
    int status = run_in_child(raise_uncaught_error);

    expect_true(WIFSIGNALED(status));
    if (WIFSIGNALED(status))
        expect_int_eq(WTERMSIG(status), SIGABRT);
}
TEST_END

TEST_BEGIN(test_fatal_exits_and_is_not_caught)
{
    int status = run_in_child(raise_fatal);

    expect_true(WIFEXITED(status));
    if (WIFEXITED(status))
        expect_int_eq(WEXITSTATUS(status), 1);
    status = run_in_child(raise_fatal_inside_try);
    expect_true(WIFEXITED(status));
    if (WIFEXITED(status))
        expect_int_eq(WEXITSTATUS(status), 1);
}
TEST_END

TEST_BEGIN(test_panic_aborts_even_inside_try)
{
    int status = run_in_child(raise_panic_inside_try);

    expect_true(WIFSIGNALED(status));
    if (WIFSIGNALED(status))
        expect_int_eq(WTERMSIG(status), SIGABRT);
}
TEST_END


/* ----- context callbacks ----- */

static void
context_line(void *arg)
{
    errcontext_msg("%s", (const char *)arg);
}

static void
raise_with_inner_context(void)
{
    ErrorContextCallback inner = {NULL, context_line, (void *)"inner"};

    tdb_error_context_push(&inner);
    ereport(ERROR, errcode(ERRCODE_BAD_COPY_FILE_FORMAT), errmsg("boom"),
            errcontext_msg("own"));
}

TEST_BEGIN(test_context_callbacks_innermost_first)
{
    ErrorContextCallback outer = {NULL, context_line, (void *)"outer"};
    NoticeLog log;
    void *old_arg;
    ErrorNoticeHook old;

    tdb_error_context_push(&outer);
    expect_error(raise_with_inner_context(), ERRCODE_BAD_COPY_FILE_FORMAT,
                 "boom");
    expect_str_eq(tdb_test_last_error.context, "own\ninner\nouter");
    /* the catch dropped the inner frame's callback, not the outer one */
    expect_ptr_eq(tdb_error_context_stack, &outer);

    /* notices get the lines too */
    memset(&log, 0, sizeof(log));
    old = tdb_error_set_notice_hook(record_notice, &log, &old_arg);
    ereport(NOTICE, errmsg("hello"));
    tdb_error_set_notice_hook(old, old_arg, NULL);
    expect_int_eq(log.count, 1);
    tdb_error_context_pop(&outer);
    expect_ptr_null(tdb_error_context_stack);
    expect_error(elog(ERROR, "plain"), ERRCODE_INTERNAL_ERROR, "plain");
    expect_str_eq(tdb_test_last_error.context, "");
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "common_elog",
        TEST_CASE(test_ereport_error_caught_with_all_fields),
        TEST_CASE(test_unset_fields_are_empty),
        TEST_CASE(test_elog_is_internal_error),
        TEST_CASE(test_error_flush_forgets_error),
        TEST_CASE(test_exception_stack_restored),
        TEST_CASE(test_nested_try_rethrow),
        TEST_CASE(test_nested_try_inner_handles),
        TEST_CASE(test_error_raised_in_catch_reaches_outer),
        TEST_CASE(test_repeated_errors_do_not_exhaust_stack),
        TEST_CASE(test_percent_m_expansion),
        TEST_CASE(test_percent_m_uses_errno_at_report_start),
        TEST_CASE(test_percent_percent_m_is_literal),
        TEST_CASE(test_warning_preserves_errno),
        TEST_CASE(test_warning_goes_to_hook_and_continues),
        TEST_CASE(test_notice_hook_swap_returns_previous),
        TEST_CASE(test_report_raised_while_building_another),
        TEST_CASE(test_long_message_truncated), TEST_CASE(test_sqlstate_unpack),
        TEST_CASE(test_elevel_names), TEST_CASE(test_uncaught_error_aborts),
        TEST_CASE(test_fatal_exits_and_is_not_caught),
        TEST_CASE(test_panic_aborts_even_inside_try),
        TEST_CASE(test_context_callbacks_innermost_first));
}
