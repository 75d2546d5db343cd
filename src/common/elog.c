/*
 * elog.c -- building, emitting and unwinding error reports.
 *
 * tdb_errstart() pushes a fresh ErrorData onto the thread's small fixed
 * stack; the errcode()/errmsg()/... calls fill it; tdb_errfinish() either
 * hands a report below ERROR to the notice hook and pops it, or, for ERROR,
 * moves it into the thread's "current error" slot and siglongjmps to the
 * innermost TDB_TRY.  Nothing on this path allocates memory, so it works
 * while the allocator itself is reporting out-of-memory.
 *
 * With no TDB_TRY active, an ERROR is printed to stderr and the process
 * aborts: that is a bug in the caller (every entry point catches).
 */
#include "common/base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/elog.h"

_Thread_local sigjmp_buf *tdb_exception_stack = NULL;
_Thread_local ErrorContextCallback *tdb_error_context_stack = NULL;

static _Thread_local ErrorData errordata[ERRORDATA_STACK_SIZE];
static _Thread_local int errordata_depth = -1;
static _Thread_local ErrorData current_error;
static _Thread_local bool have_current_error = false;

static void default_notice_hook(const ErrorData *edata, void *arg);
static _Thread_local ErrorNoticeHook notice_hook = default_notice_hook;
static _Thread_local void *notice_hook_arg = NULL;

void
tdb_assert_failed(const char *cond, const char *file, int line)
{
    fprintf(stderr, "TRAP: failed Assert(\"%s\"), File: \"%s\", Line: %d\n",
            cond, file, line);
    fflush(stderr);
    abort();
}

const char *
tdb_elevel_name(int elevel)
{
    switch (elevel) {
    case DEBUG1:
        return "DEBUG";
    case LOG:
        return "LOG";
    case INFO:
        return "INFO";
    case NOTICE:
        return "NOTICE";
    case WARNING:
        return "WARNING";
    case ERROR:
        return "ERROR";
    case FATAL:
        return "FATAL";
    case PANIC:
        return "PANIC";
    default:
        return "???";
    }
}

void
tdb_sqlstate_unpack(int sqlerrcode, char buf[6])
{
    for (int i = 0; i < 5; i++) {
        buf[i] = (char)((sqlerrcode & 0x3F) + '0');
        sqlerrcode >>= 6;
    }
    buf[5] = '\0';
}

static void
print_report(FILE *out, const ErrorData *edata)
{
    char state[6];

    tdb_sqlstate_unpack(edata->sqlerrcode, state);
    fprintf(out, "%s:  %s\n", tdb_elevel_name(edata->elevel), edata->message);
    if (edata->detail[0])
        fprintf(out, "DETAIL:  %s\n", edata->detail);
    if (edata->hint[0])
        fprintf(out, "HINT:  %s\n", edata->hint);
    if (edata->context[0])
        fprintf(out, "CONTEXT:  %s\n", edata->context);
    if (config_debug && edata->filename)
        fprintf(out, "LOCATION:  %s, %s:%d (SQLSTATE %s)\n",
                edata->funcname ? edata->funcname : "?", edata->filename,
                edata->lineno, state);
    fflush(out);
}

static void
default_notice_hook(const ErrorData *edata, void *arg)
{
    (void)arg;
    print_report(stderr, edata);
}

ErrorNoticeHook
tdb_error_set_notice_hook(ErrorNoticeHook hook, void *arg, void **old_arg)
{
    ErrorNoticeHook old = notice_hook;

    if (old_arg)
        *old_arg = notice_hook_arg;
    notice_hook = hook ? hook : default_notice_hook;
    notice_hook_arg = arg;
    return old;
}

/*
 * Begin a report.  Returns false if the report is to be ignored (never, at
 * present; kept so that a future log_min_messages can filter cheaply).
 */
bool
tdb_errstart(int elevel)
{
    int saved_errno = errno;
    ErrorData *edata;

    if (errordata_depth + 1 >= ERRORDATA_STACK_SIZE) {
        /* Reports raised while building reports, over and over: give up. */
        errordata_depth = -1;
        fprintf(stderr, "PANIC:  ERRORDATA_STACK_SIZE exceeded\n");
        abort();
    }
    edata = &errordata[++errordata_depth];
    edata->elevel = elevel;
    edata->sqlerrcode = elevel >= ERROR ? ERRCODE_INTERNAL_ERROR
                        : elevel == WARNING ? ERRCODE_WARNING
                                            : ERRCODE_SUCCESSFUL_COMPLETION;
    edata->cursorpos = 0;
    edata->saved_errno = saved_errno;
    edata->filename = NULL;
    edata->lineno = 0;
    edata->funcname = NULL;
    edata->message[0] = edata->detail[0] = edata->hint[0] = '\0';
    edata->context[0] = '\0';
    errno = saved_errno;
    return true;
}

static ErrorData *
top_report(void)
{
    if (errordata_depth < 0) {
        fprintf(stderr, "PANIC:  errstart was not called\n");
        abort();
    }
    return &errordata[errordata_depth];
}

int
tdb_errcode(int sqlerrcode)
{
    top_report()->sqlerrcode = sqlerrcode;
    return 0;
}

int
tdb_errposition(int cursorpos)
{
    top_report()->cursorpos = cursorpos;
    return 0;
}

/*
 * Expand %m to strerror(saved_errno), then format into dst (truncating).
 */
TDB_PRINTF(3, 0)
static void
format_into(char *dst, int saved_errno, const char *fmt, va_list args)
{
    char expanded[ERRMSG_MAX];
    size_t out = 0;

    for (const char *p = fmt; *p && out + 1 < sizeof(expanded); p++) {
        if (p[0] == '%' && p[1] == 'm') {
            const char *err = strerror(saved_errno);
            size_t len = strlen(err);

            if (len > sizeof(expanded) - 1 - out)
                len = sizeof(expanded) - 1 - out;
            memcpy(expanded + out, err, len);
            out += len;
            p++;
        } else if (p[0] == '%' && p[1] == '%') {
            /* keep "%%" intact for vsnprintf */
            if (out + 2 >= sizeof(expanded))
                break;
            expanded[out++] = '%';
            expanded[out++] = '%';
            p++;
        } else {
            expanded[out++] = *p;
        }
    }
    expanded[out] = '\0';
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    vsnprintf(dst, ERRMSG_MAX, expanded, args);
#pragma GCC diagnostic pop
}

#define DEFINE_ERR_FIELD_SETTER(fn, field)                                  \
    int fn(const char *fmt, ...)                                            \
    {                                                                       \
        ErrorData *edata = top_report();                                    \
        va_list args;                                                       \
        va_start(args, fmt);                                                \
        format_into(edata->field, edata->saved_errno, fmt, args);           \
        va_end(args);                                                       \
        return 0;                                                           \
    }

DEFINE_ERR_FIELD_SETTER(tdb_errmsg, message)
DEFINE_ERR_FIELD_SETTER(tdb_errdetail, detail)
DEFINE_ERR_FIELD_SETTER(tdb_errhint, hint)

/* A context line goes after the lines already there (errfinish's
 * callbacks add theirs after the one the report itself gave). */
int
tdb_errcontext(const char *fmt, ...)
{
    ErrorData *edata = top_report();
    char line[ERRMSG_MAX];
    size_t used = strlen(edata->context);
    va_list args;

    va_start(args, fmt);
    format_into(line, edata->saved_errno, fmt, args);
    va_end(args);
    if (used > 0 && used + 1 < sizeof(edata->context))
        edata->context[used++] = '\n';
    snprintf(edata->context + used, sizeof(edata->context) - used, "%s",
             line);
    return 0;
}

void
tdb_errfinish(const char *filename, int lineno, const char *funcname)
{
    ErrorData *edata = top_report();

    /* the context lines of whatever is running (innermost first) */
    for (ErrorContextCallback *cb = tdb_error_context_stack; cb != NULL;
         cb = cb->previous)
        cb->callback(cb->arg);
    edata = top_report();
    edata->filename = filename;
    edata->lineno = lineno;
    edata->funcname = funcname;

    if (edata->elevel < ERROR) {
        ErrorData copy = *edata;

        errordata_depth--;
        notice_hook(&copy, notice_hook_arg);
        return;
    }

    current_error = *edata;
    have_current_error = true;
    errordata_depth = -1;

    if (current_error.elevel >= PANIC) {
        print_report(stderr, &current_error);
        abort();
    }
    if (current_error.elevel == ERROR && tdb_exception_stack != NULL)
        siglongjmp(*tdb_exception_stack, 1);

    /* FATAL, or an ERROR nobody catches: report and end the process. */
    print_report(stderr, &current_error);
    if (current_error.elevel == ERROR)
        abort();
    exit(1);
}

const ErrorData *
tdb_error_current(void)
{
    return have_current_error ? &current_error : NULL;
}

void
tdb_error_flush(void)
{
    have_current_error = false;
    errordata_depth = -1;
}

void
tdb_error_rethrow(void)
{
    if (!have_current_error) {
        fprintf(stderr, "PANIC:  rethrow without a current error\n");
        abort();
    }
    if (tdb_exception_stack != NULL)
        siglongjmp(*tdb_exception_stack, 1);
    print_report(stderr, &current_error);
    abort();
}
