/*
 * elog.h -- PostgreSQL-style error reporting for tupledb.
 *
 *     ereport(ERROR,
 *             errcode(ERRCODE_DIVISION_BY_ZERO),
 *             errmsg("division by zero"));
 *
 * A report at level ERROR or above never returns: ERROR unwinds with
 * siglongjmp to the innermost TDB_TRY block (ultimately the statement
 * boundary), FATAL ends the thread's session, PANIC aborts the process.
 * Levels below ERROR are handed to the thread's notice hook (stderr by
 * default) and execution continues.
 *
 * Design: error data lives in fixed-size, thread-local buffers (a stack of
 * ERRORDATA_STACK_SIZE entries for reports raised while another is being
 * built), so raising an error never allocates -- in particular, "out of
 * memory" can always be reported.  Messages longer than the buffers are
 * truncated.  The state is _Thread_local because tupledb runs one thread
 * per connection where PostgreSQL has one process.
 *
 * Catching:
 *
 *     TDB_TRY();
 *     {
 *         ... code that may raise ...
 *     }
 *     TDB_CATCH();
 *     {
 *         const ErrorData *e = tdb_error_current();
 *         ... clean up; usually TDB_RE_THROW() ...
 *     }
 *     TDB_END_TRY();
 *
 * Locals changed inside the TRY part and read in the CATCH part must be
 * `volatile`.  Never `return` or `goto` out of the TRY part.
 *
 * errno: ereport saves errno when the report starts, so `%m` in a message
 * always shows the errno of the failing call; never read errno inside the
 * argument list.
 */
#ifndef TDB_COMMON_ELOG_H
#define TDB_COMMON_ELOG_H

#include <setjmp.h>

#include "common/base.h"
#include "common/errcodes.h"

/* Report levels, in increasing severity (values as in PostgreSQL). */
#define DEBUG1 14
#define LOG 15
#define INFO 17
#define NOTICE 18
#define WARNING 19
#define ERROR 21
#define FATAL 22
#define PANIC 23

#define ERRORDATA_STACK_SIZE 5
#define ERRMSG_MAX 1024

/* One report, as built by the ereport() arguments. */
typedef struct ErrorData {
    int elevel;           /* DEBUG1 .. PANIC */
    int sqlerrcode;       /* packed SQLSTATE, see errcodes.h */
    int cursorpos;        /* 1-based position in the query text, 0 if none */
    int saved_errno;      /* errno when the report started, for %m */
    const char *filename; /* where it was raised (borrowed, static) */
    int lineno;
    const char *funcname;
    char message[ERRMSG_MAX];
    char detail[ERRMSG_MAX];
    char hint[ERRMSG_MAX];
    char context[ERRMSG_MAX];
} ErrorData;

/* Handler for reports below ERROR (NOTICE, WARNING, ...). */
typedef void (*ErrorNoticeHook)(const ErrorData *edata, void *arg);

bool tdb_errstart(int elevel);
void tdb_errfinish(const char *filename, int lineno, const char *funcname);
int tdb_errcode(int sqlerrcode);
int tdb_errmsg(const char *fmt, ...) TDB_PRINTF(1, 2);
int tdb_errdetail(const char *fmt, ...) TDB_PRINTF(1, 2);
int tdb_errhint(const char *fmt, ...) TDB_PRINTF(1, 2);
int tdb_errcontext(const char *fmt, ...) TDB_PRINTF(1, 2);
int tdb_errposition(int cursorpos);

/*
 * ereport(level, errcode(...), errmsg(...), ...): raise a report.  The
 * `pg_unreachable` tells the compiler that ERROR and above do not return.
 */
#define ereport(elevel, ...)                                                \
    do {                                                                    \
        const int ereport_elevel_ = (elevel);                               \
        if (tdb_errstart(ereport_elevel_)) {                                \
            (void)(__VA_ARGS__);                                            \
            tdb_errfinish(__FILE__, __LINE__, __func__);                    \
        }                                                                   \
        if (ereport_elevel_ >= ERROR)                                       \
            __builtin_unreachable();                                        \
    } while (0)

#define errcode(code) tdb_errcode(code)
#define errmsg(...) tdb_errmsg(__VA_ARGS__)
#define errdetail(...) tdb_errdetail(__VA_ARGS__)
#define errhint(...) tdb_errhint(__VA_ARGS__)
/* Adds a CONTEXT line (after the ones already there, newline-separated). */
#define errcontext_msg(...) tdb_errcontext(__VA_ARGS__)
#define errposition(pos) tdb_errposition(pos)

/*
 * elog(level, fmt, ...): for can't-happen internal conditions; SQLSTATE
 * XX000 (internal_error) at ERROR and above.
 */
#define elog(elevel, ...)                                                   \
    ereport((elevel), errcode(ERRCODE_INTERNAL_ERROR), errmsg(__VA_ARGS__))

/* ----- context lines (PostgreSQL's error_context_stack) ----- */

/*
 * Code that wants its reports to say where they happened ("COPY t, line
 * 3, column b: ...") pushes a callback for as long as it runs:
 *
 *     ErrorContextCallback cb = {NULL, my_context_fn, my_state};
 *     tdb_error_context_push(&cb);
 *     ... work that may raise ...
 *     tdb_error_context_pop(&cb);
 *
 * When any report (ERROR or below) is finished, every callback on the
 * thread's stack is called, innermost first, and may add a line with
 * errcontext_msg().  Callbacks must not raise or allocate from a context
 * that may be out of memory.  An error that unwinds past the frame that
 * pushed a callback drops it: TDB_TRY restores the stack as it was.
 */
typedef struct ErrorContextCallback {
    struct ErrorContextCallback *previous;
    void (*callback)(void *arg);
    void *arg;
} ErrorContextCallback;

extern _Thread_local ErrorContextCallback *tdb_error_context_stack;

static inline void
tdb_error_context_push(ErrorContextCallback *cb)
{
    cb->previous = tdb_error_context_stack;
    tdb_error_context_stack = cb;
}

static inline void
tdb_error_context_pop(ErrorContextCallback *cb)
{
    tdb_error_context_stack = cb->previous;
}

/* ----- catching ----- */

/* The innermost TRY block's jump buffer (thread-local). */
extern _Thread_local sigjmp_buf *tdb_exception_stack;

#define TDB_TRY()                                                           \
    do {                                                                    \
        sigjmp_buf *tdb_save_exception_stack_ = tdb_exception_stack;        \
        ErrorContextCallback *volatile tdb_save_context_stack_ =            \
            tdb_error_context_stack;                                        \
        sigjmp_buf tdb_local_sigjmp_buf_;                                   \
        if (sigsetjmp(tdb_local_sigjmp_buf_, 0) == 0) {                     \
            tdb_exception_stack = &tdb_local_sigjmp_buf_

#define TDB_CATCH()                                                         \
        } else {                                                            \
            tdb_exception_stack = tdb_save_exception_stack_;                \
            tdb_error_context_stack = tdb_save_context_stack_

#define TDB_END_TRY()                                                       \
        }                                                                   \
        tdb_exception_stack = tdb_save_exception_stack_;                    \
        tdb_error_context_stack = tdb_save_context_stack_;                  \
    } while (0)

/* Use inside TDB_CATCH: propagate the caught error to the next level. */
#define TDB_RE_THROW() tdb_error_rethrow()

/* The error being handled (valid inside TDB_CATCH until tdb_error_flush). */
const ErrorData *tdb_error_current(void);

/* Forget the current error (the CATCH block has handled it). */
void tdb_error_flush(void);

/* Re-raise the current error to the next enclosing TRY block. */
TDB_NORETURN void tdb_error_rethrow(void);

/* Install the handler for reports below ERROR; returns the previous one. */
ErrorNoticeHook tdb_error_set_notice_hook(ErrorNoticeHook hook, void *arg,
                                          void **old_arg);

/* Format an SQLSTATE into buf (6 bytes). */
void tdb_sqlstate_unpack(int sqlerrcode, char buf[6]);

/* Name of a report level as PostgreSQL prints it ("ERROR", "WARNING"). */
const char *tdb_elevel_name(int elevel);

#endif /* TDB_COMMON_ELOG_H */
