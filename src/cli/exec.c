/*
 * exec.c -- running a statement string and printing what comes back
 * (psql's SendQuery and the result printing around it).
 *
 * tupledb_exec reports each statement of the string through callbacks:
 * columns, rows, then its command tag; or an error, after which nothing
 * else of the string runs.  As psql 15 does (SHOW_ALL_RESULTS), every
 * statement's result is printed when it completes:
 *
 *   rows          the table, as tdb_cli_print_table prints it; for
 *                 INSERT/UPDATE/DELETE ... RETURNING also the tag
 *   no rows       the command tag ("CREATE TABLE"), unless -q
 *   notice        "NOTICE:  ..." on stderr, when it arrives
 *   error         the error on stderr (rows of the failed statement are
 *                 dropped, as libpq drops them)
 *
 * then, with \timing, "Time: 1.234 ms" for the whole string.  psql's
 * variables ERROR, SQLSTATE, ROW_COUNT, LAST_ERROR_MESSAGE and
 * LAST_ERROR_SQLSTATE are set afterwards.
 *
 * Ctrl-C: while a statement runs, the SIGINT handler calls tupledb_cancel
 * (async-signal-safe) and writes "Cancel request sent", and the statement
 * fails with 57014.  At other times it only sets a flag that the input
 * side looks at (input.c, mainloop.c).
 */
#include "common/base.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

/* State shared with the SIGINT handler. */
static tupledb *volatile running_db; /* set while a statement runs */
static volatile sig_atomic_t cancel_pressed;

static void
handle_sigint(int signo)
{
    tupledb *db = running_db;
    int save_errno = errno;

    (void)signo;
    cancel_pressed = 1;
    if (db != NULL) {
        static const char msg[] = "Cancel request sent\n";

        tupledb_cancel(db);
        if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
            /* nothing to do about it in a signal handler */
        }
    }
    errno = save_errno;
}

void
tdb_cli_signals_init(Shell *sh)
{
    struct sigaction sa;

    (void)sh;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = handle_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a blocked read returns EINTR */
    sigaction(SIGINT, &sa, NULL);
}

bool
tdb_cli_cancel_pressed(void)
{
    bool pressed = cancel_pressed != 0;

    cancel_pressed = 0;
    return pressed;
}

/* ----------------------------------------------------------------------
 * Collecting a result
 * ---------------------------------------------------------------------- */

/* What one tupledb_exec call is collecting and printing. */
typedef struct ExecState {
    Shell *sh;
    const char *query;
    bool print;        /* print results (else keep the first for the caller) */
    bool has_result;   /* columns arrived; rows until the tag */
    CliResult result;  /* the current statement's rows */
    long cap_rows;
    long row_count;    /* for ROW_COUNT */
    bool failed;
    char sqlstate[6];
    char *error_message;
    CliCopy copy;      /* COPY FROM STDIN / TO STDOUT data (copy.c) */
} ExecState;

void
tdb_cli_result_free(CliResult *r)
{
    for (int i = 0; i < r->ncolumns; i++)
        free(r->names[i]);
    for (long i = 0; i < r->nrows * r->ncolumns; i++)
        free(r->cells[i]);
    free(r->names);
    free(r->types);
    free(r->cells);
    memset(r, 0, sizeof(*r));
}

static void
on_columns(void *arg, int ncolumns, const tupledb_column *columns)
{
    ExecState *es = arg;
    CliResult *r = &es->result;

    tdb_cli_result_free(r);
    es->has_result = true;
    es->cap_rows = 0;
    r->ncolumns = ncolumns;
    r->names = tdb_cli_alloc(sizeof(char *) * (size_t)Max(ncolumns, 1));
    r->types = tdb_cli_alloc(sizeof(unsigned int) * (size_t)Max(ncolumns, 1));
    for (int i = 0; i < ncolumns; i++) {
        r->names[i] = tdb_cli_strdup(columns[i].name);
        r->types[i] = columns[i].type_oid;
    }
}

static void
on_row(void *arg, int ncolumns, const char *const *values)
{
    ExecState *es = arg;
    CliResult *r = &es->result;

    if (r->nrows == es->cap_rows) {
        es->cap_rows = es->cap_rows < 16 ? 16 : es->cap_rows * 2;
        r->cells = tdb_cli_realloc(r->cells, sizeof(char *) *
                                                 (size_t)es->cap_rows *
                                                 (size_t)Max(ncolumns, 1));
    }
    for (int i = 0; i < ncolumns; i++)
        r->cells[r->nrows * ncolumns + i] =
            values[i] != NULL ? tdb_cli_strdup(values[i]) : NULL;
    r->nrows++;
}

/* Print a result set the way psql's printQuery does. */
static void
print_result(Shell *sh, const CliResult *r)
{
    char *aligns = tdb_cli_alloc((size_t)Max(r->ncolumns, 1));
    CliTable t;

    for (int i = 0; i < r->ncolumns; i++)
        aligns[i] = tdb_cli_type_alignment(r->types[i]);
    memset(&t, 0, sizeof(t));
    t.ncolumns = r->ncolumns;
    t.headers = (const char *const *)r->names;
    t.aligns = aligns;
    t.nrows = r->nrows;
    t.cells = (const char *const *)r->cells;
    t.default_footer = true;
    tdb_cli_print_table(stdout, &t, &sh->popt);
    free(aligns);
}

static bool
tag_is_dml(const char *tag)
{
    return strncmp(tag, "INSERT", 6) == 0 || strncmp(tag, "UPDATE", 6) == 0 ||
           strncmp(tag, "DELETE", 6) == 0;
}

/* The number at the end of a command tag ("INSERT 0 3" -> 3), or 0. */
static long
tag_count(const char *tag)
{
    const char *sp = strrchr(tag, ' ');

    return sp != NULL ? strtol(sp + 1, NULL, 10) : 0;
}

static void
on_complete(void *arg, const char *tag)
{
    ExecState *es = arg;
    /* psql leaves out the tag of a COPY whose data went to stdout */
    bool copy_to_stdout =
        es->copy.active && !es->copy.is_from && es->copy.stream == stdout;

    es->row_count = tag_count(tag);
    if (es->copy.active && !tdb_cli_copy_end(es->sh, &es->copy))
        es->failed = true;
    if (!es->print || copy_to_stdout)
        return;
    if (es->has_result) {
        print_result(es->sh, &es->result);
        tdb_cli_result_free(&es->result);
        es->has_result = false;
        if (tag_is_dml(tag) && !es->sh->quiet)
            printf("%s\n", tag);
    } else if (!es->sh->quiet)
        printf("%s\n", tag);
}

static void
on_notice(void *arg, const tupledb_error *notice)
{
    ExecState *es = arg;
    CliBuf msg;

    tdb_cli_buf_init(&msg);
    tdb_cli_format_error(&msg, notice, es->query, false,
                         es->sh->verbosity);
    tdb_cli_log(CLI_LOG_INFO, "%s", tdb_cli_buf_str(&msg));
    tdb_cli_buf_free(&msg);
}

static void
on_error(void *arg, const tupledb_error *error)
{
    ExecState *es = arg;
    CliBuf msg;

    /* a failed COPY FROM STDIN: psql reads the rest of the data first,
     * so the message's line number comes after it */
    (void)tdb_cli_copy_end(es->sh, &es->copy);
    tdb_cli_result_free(&es->result);
    es->has_result = false;
    es->failed = true;
    memcpy(es->sqlstate, error->sqlstate, sizeof(es->sqlstate));
    es->sqlstate[5] = '\0';
    free(es->error_message);
    es->error_message = tdb_cli_strdup(error->message != NULL ? error->message
                                                              : "");
    tdb_cli_buf_init(&msg);
    tdb_cli_format_error(&msg, error, es->query, true,
                         es->sh->verbosity);
    tdb_cli_log(CLI_LOG_INFO, "%s", tdb_cli_buf_str(&msg));
    tdb_cli_buf_free(&msg);
}

static void
on_copy_start(void *arg, int is_from, int ncolumns)
{
    ExecState *es = arg;

    (void)ncolumns;
    tdb_cli_copy_start(es->sh, &es->copy, is_from);
}

static int
on_copy_in(void *arg, char *buf, int size, const char **fail_message)
{
    ExecState *es = arg;

    return tdb_cli_copy_in(es->sh, &es->copy, buf, size, fail_message);
}

static void
on_copy_out(void *arg, const char *data, int len)
{
    ExecState *es = arg;

    tdb_cli_copy_out(es->sh, &es->copy, data, len);
}

static double
now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* psql's PrintTiming: ms, then (mm:ss.sss) and longer forms past 1 s. */
static void
print_timing(double ms)
{
    double seconds, minutes, hours, days;

    if (ms < 1000.0) {
        printf("Time: %.3f ms\n", ms);
        return;
    }
    seconds = ms / 1000.0;
    minutes = (double)(long)(seconds / 60.0);
    seconds -= 60.0 * minutes;
    if (minutes < 60.0) {
        printf("Time: %.3f ms (%02d:%06.3f)\n", ms, (int)minutes, seconds);
        return;
    }
    hours = (double)(long)(minutes / 60.0);
    minutes -= 60.0 * hours;
    if (hours < 24.0) {
        printf("Time: %.3f ms (%02d:%02d:%06.3f)\n", ms, (int)hours,
               (int)minutes, seconds);
        return;
    }
    days = (double)(long)(hours / 24.0);
    hours -= 24.0 * days;
    printf("Time: %.3f ms (%.0f d %02d:%02d:%06.3f)\n", ms, days, (int)hours,
           (int)minutes, seconds);
}

/* psql's variables describing the last query. */
static void
set_result_vars(Shell *sh, const ExecState *es)
{
    char buf[32];

    tdb_cli_var_set(sh, "ERROR", es->failed ? "true" : "false");
    tdb_cli_var_set(sh, "SQLSTATE", es->failed ? es->sqlstate : "00000");
    snprintf(buf, sizeof(buf), "%ld", es->failed ? 0 : es->row_count);
    tdb_cli_var_set(sh, "ROW_COUNT", buf);
    if (es->failed) {
        tdb_cli_var_set(sh, "LAST_ERROR_MESSAGE", es->error_message);
        tdb_cli_var_set(sh, "LAST_ERROR_SQLSTATE", es->sqlstate);
    }
}

/* Run query with es collecting; true if it succeeded. */
static bool
exec_collect(Shell *sh, const char *query, ExecState *es)
{
    static const tupledb_callbacks callbacks = {
        .columns = on_columns,
        .row = on_row,
        .complete = on_complete,
        .notice = on_notice,
        .error = on_error,
        .copy_start = on_copy_start,
        .copy_in = on_copy_in,
        .copy_out = on_copy_out};
    double start;
    int rc;

    es->sh = sh;
    es->query = query;
    start = now_ms();
    running_db = sh->db;
    rc = tupledb_exec(sh->db, query, &callbacks, es);
    running_db = NULL;
    if (!tdb_cli_copy_end(sh, &es->copy))
        rc = -1;
    if (es->print && sh->timing)
        print_timing(now_ms() - start);
    set_result_vars(sh, es);
    free(es->error_message);
    es->error_message = NULL;
    fflush(stdout);
    return rc == 0 && !es->failed;
}

bool
tdb_cli_send_query(Shell *sh, const char *query)
{
    ExecState es;
    bool ok;

    if (sh->echo == CLI_ECHO_QUERIES) {
        puts(query);
        fflush(stdout);
    }
    memset(&es, 0, sizeof(es));
    es.print = true;
    ok = exec_collect(sh, query, &es);
    tdb_cli_result_free(&es.result);
    if (!ok && sh->echo == CLI_ECHO_ERRORS)
        tdb_cli_log(CLI_LOG_INFO, "STATEMENT:  %s", query);
    return ok;
}

bool
tdb_cli_run_query(Shell *sh, const char *query, CliResult *result)
{
    ExecState es;
    bool ok;

    memset(&es, 0, sizeof(es));
    es.print = false;
    ok = exec_collect(sh, query, &es);
    if (ok)
        *result = es.result;
    else
        tdb_cli_result_free(&es.result);
    return ok;
}
