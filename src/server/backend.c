/*
 * backend.c -- one connection's thread (PostgreSQL's PostgresMain):
 * startup, then the message loop, then cleanup.
 *
 *     startup.c ----> loop:  ReadyForQuery (+ changed ParameterStatus)
 *                            read a message
 *                              'Q'  simple query: the session runs the
 *                                   string; results through a
 *                                   RemoteReceiver; 'E' or 'I'
 *                              'P' 'B' 'D' 'E' 'S' 'H' 'C'  extended.c
 *                              'X'  leave
 *                              'd' 'c' 'f'  ignored (a COPY that failed)
 *                              other  FATAL 08P01, leave
 *     cleanup: unregister, destroy the session (rolls back), log, close
 *
 * Malformed framing (a length under 4 or over the type's limit, an
 * unknown type) is FATAL 08P01 and closes only this connection; a body
 * that does not parse is an ERROR 08P01 and the connection goes on, as
 * in PostgreSQL.
 *
 * Shutdown: when the wake pipe fires, an idle connection (waiting for a
 * message) gets FATAL 57P01 "terminating connection due to administrator
 * command" and closes; a running statement has been cancelled by the
 * main thread and ends the same way.  Either way the session is
 * destroyed, which rolls back whatever it had in progress.
 *
 * Memory: the thread has its own context tree (tdb_mcxt_thread_init);
 * Backend.cxt holds the connection's state and the Session, msg_cxt one
 * message and is reset before the next.  The only malloc is the small
 * BackendStart record that carries the socket from the accepting thread
 * (contexts belong to one thread; this record crosses from one to the
 * other), freed first thing here.
 */
#include "common/base.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server_int.h"

/* Leave a connection the server is ending, with PostgreSQL's FATAL. */
static void
terminate_for_shutdown(Backend *be)
{
    tdb_pq_discard_partial(&be->port);
    tdb_pq_port_detach_wake(&be->port, 1000);
    tdb_backend_send_simple_error(be, FATAL, SRV_ERRCODE_ADMIN_SHUTDOWN,
                                  "terminating connection due to "
                                  "administrator command");
    (void)tdb_pq_flush(&be->port);
    be->terminate = true;
}

/* Send a FATAL protocol violation, log it and leave. */
TDB_PRINTF(2, 3)
static void
protocol_fatal(Backend *be, const char *fmt, ...)
{
    ErrorData e;
    va_list args;

    memset(&e, 0, sizeof(e));
    e.elevel = FATAL;
    e.sqlerrcode = SRV_ERRCODE_PROTOCOL_VIOLATION;
    va_start(args, fmt);
    (void)vsnprintf(e.message, sizeof(e.message), fmt, args);
    va_end(args);
    tdb_server_log(be->pid, "FATAL", "%s", e.message);
    tdb_pq_discard_partial(&be->port);
    tdb_backend_send_error(be, &e, 0);
    (void)tdb_pq_flush(&be->port);
    be->terminate = true;
}

/* Log a statement's error as PostgreSQL does (ERROR + STATEMENT). */
static void
log_statement_error(Backend *be, const ErrorData *e, const char *text)
{
    char sqlstate[6];

    tdb_sqlstate_unpack(e->sqlerrcode, sqlstate);
    tdb_server_log(be->pid, tdb_elevel_name(e->elevel), "%s", e->message);
    if (text != NULL)
        tdb_server_log(be->pid, "STATEMENT", "%s", text);
}

/*
 * After tdb_session_exec failed: end the connection if it broke or the
 * server is stopping, otherwise send the error.
 */
static void
report_exec_error(Backend *be, const ErrorData *e, const char *text)
{
    Port *port = &be->port;

    tdb_pq_discard_partial(port);
    if (port->broken) {
        tdb_server_log(be->pid, "LOG", "could not send data to client");
        be->terminate = true;
        return;
    }
    if (port->stopped || (atomic_load(&be->srv->shutting_down) &&
                          (e->sqlerrcode == ERRCODE_QUERY_CANCELED ||
                           e->sqlerrcode == SRV_ERRCODE_ADMIN_SHUTDOWN))) {
        terminate_for_shutdown(be);
        return;
    }
    log_statement_error(be, e, text);
    tdb_backend_send_error(be, e, 0);
}

/* 'Q': run a string of statements (PostgreSQL's exec_simple_query). */
static void
exec_simple_query(Backend *be, PqMsg *m)
{
    const char *text = tdb_pq_get_string(m);
    RemoteReceiver r;
    ErrorData error;
    bool ok;

    if (!tdb_pq_get_end(m)) {
        tdb_backend_send_simple_error(be, ERROR,
                                      SRV_ERRCODE_PROTOCOL_VIOLATION,
                                      "invalid message format");
        return;
    }
    tdb_extended_forget_unnamed(be);
    tdb_remote_receiver_init(&r, be);
    ok = tdb_session_exec(be->session, text, &r.base, &error);
    tdb_remote_receiver_done(&r);
    if (!ok) {
        report_exec_error(be, &error, text);
        tdb_copy_proto_after_error(be); /* a COPY out of step: FATAL */
        return;
    }
    if (r.ncompleted == 0) {
        /* nothing but whitespace, comments and semicolons */
        tdb_pq_begin(&be->port, 'I');
        tdb_pq_end(&be->port);
    }
}

/* ReadyForQuery with the session's transaction status. */
static void
send_ready_for_query(Backend *be)
{
    tdb_extended_end_of_transaction(be);
    tdb_backend_report_settings(be);
    tdb_pq_begin(&be->port, 'Z');
    tdb_pq_put_byte(&be->port,
                    tdb_session_transaction_status(be->session));
    tdb_pq_end(&be->port);
}

/*
 * The largest body a message of this type may have, or -1 if the type
 * is not a frontend message at all (PostgreSQL's SocketBackend).
 */
static int
message_limit(char type)
{
    switch (type) {
    case 'Q': /* Query */
    case 'P': /* Parse */
    case 'B': /* Bind */
    case 'F': /* FunctionCall */
    case 'd': /* CopyData */
        return PQ_LARGE_MESSAGE_LIMIT;
    case 'X': /* Terminate */
    case 'E': /* Execute */
    case 'C': /* Close */
    case 'D': /* Describe */
    case 'H': /* Flush */
    case 'S': /* Sync */
    case 'c': /* CopyDone */
    case 'f': /* CopyFail */
        return PQ_SMALL_MESSAGE_LIMIT;
    default:
        return -1;
    }
}

/*
 * Handle one message of a ready connection.  Returns true if a
 * ReadyForQuery is due (after a Query; extended.c sends its own at Sync).
 */
static bool
dispatch(Backend *be, PqMsg *m)
{
    switch (m->type) {
    case 'Q':
        exec_simple_query(be, m);
        return true;
    case 'X':
        be->terminate = true;
        return false;
    case 'P':
    case 'B':
    case 'D':
    case 'E':
    case 'S':
    case 'H':
    case 'C':
        return tdb_extended_message(be, m);
    case 'd':
    case 'c':
    case 'f':
        /* stray copy messages: a COPY failed before the client knew */
        return false;
    case 'F':
        tdb_backend_send_simple_error(be, ERROR,
                                      ERRCODE_FEATURE_NOT_SUPPORTED,
                                      "fastpath function calls are not "
                                      "supported");
        return true;
    default:
        protocol_fatal(be, "invalid frontend message type %d",
                       (unsigned char)m->type);
        return false;
    }
}

/* Read and handle messages until the connection ends. */
static void
message_loop(Backend *be)
{
    Port *port = &be->port;
    bool ready_due = true;

    while (!be->terminate) {
        unsigned char type;
        PqMsg m;
        int limit, rc;

        tdb_mcxt_switch_to(be->msg_cxt);
        tdb_mcxt_reset(be->msg_cxt);
        if (ready_due && !tdb_extended_ignoring(be)) {
            send_ready_for_query(be);
            ready_due = false;
        }
        rc = tdb_pq_read_bytes(port, &type, 1);
        if (rc == PQ_OK) {
            limit = message_limit((char)type);
            if (limit < 0) {
                protocol_fatal(be, "invalid frontend message type %d", type);
                break;
            }
            rc = tdb_pq_read_message(port, true, limit, be->msg_cxt, &m);
            m.type = (char)type;
            if (rc == PQ_EOF)
                tdb_server_log(be->pid, "LOG",
                               "incomplete message from client");
        }
        if (rc == PQ_EOF) {
            if (tdb_session_transaction_status(be->session) != 'I')
                tdb_server_log(be->pid, "LOG",
                               "unexpected EOF on client connection with "
                               "an open transaction");
            break;
        }
        if (rc == PQ_STOP) {
            terminate_for_shutdown(be);
            break;
        }
        if (rc == PQ_BAD_LENGTH) {
            protocol_fatal(be, "invalid message length");
            break;
        }
        /* after an error in an extended-protocol batch: skip to Sync */
        if (tdb_extended_ignoring(be) && m.type != 'S' && m.type != 'X')
            continue;
        if (dispatch(be, &m))
            ready_due = true;
        if (port->broken)
            break;
        if (port->stopped && !be->terminate)
            terminate_for_shutdown(be);
    }
}

/* Format a duration as PostgreSQL's disconnection line does. */
static void
format_session_time(double seconds, char *buf, size_t len)
{
    long total_ms = (long)(seconds * 1000.0);

    snprintf(buf, len, "%ld:%02ld:%02ld.%03ld", total_ms / 3600000,
             (total_ms / 60000) % 60, (total_ms / 1000) % 60,
             total_ms % 1000);
}

/* Everything the connection holds, released; never raises. */
static void
cleanup(Backend *be)
{
    if (be->registered) {
        tdb_server_unregister(be->srv, be->pid);
        be->registered = false;
    }
    if (be->session != NULL) {
        char elapsed[32];

        TDB_TRY();
        {
            tdb_session_destroy(be->session);
        }
        TDB_CATCH();
        {
            tdb_server_log(be->pid, "WARNING", "ending the session: %s",
                           tdb_error_current()->message);
            tdb_error_flush();
        }
        TDB_END_TRY();
        be->session = NULL;
        format_session_time(tdb_server_now() - be->start_time, elapsed,
                            sizeof(elapsed));
        tdb_server_log(be->pid, "LOG",
                       "disconnection: session time: %s user=%s "
                       "database=%s host=%s%s%s",
                       elapsed, be->user, be->database,
                       be->port.remote_host,
                       be->port.remote_port[0] != '\0' ? " port=" : "",
                       be->port.remote_port);
    }
    if (!be->port.broken)
        (void)tdb_pq_flush(&be->port);
    tdb_pq_port_close(&be->port);
}

/* The connection, start to end, inside one catch-all. */
static void
run_connection(Backend *be, const BackendStart *start)
{
    TDB_TRY();
    {
        be->cxt = tdb_aset_create(tdb_top_mcxt, "Connection",
                                  ALLOCSET_DEFAULT_SIZES);
        be->msg_cxt = tdb_aset_create(be->cxt, "MessageContext",
                                      ALLOCSET_DEFAULT_SIZES);
        tdb_pq_port_init(&be->port, start->sock, be->srv->wake_pipe[0],
                         be->cxt);
        be->port.is_unix = start->is_unix;
        snprintf(be->port.remote_host, sizeof(be->port.remote_host), "%s",
                 start->host);
        snprintf(be->port.remote_port, sizeof(be->port.remote_port), "%s",
                 start->port);
        tdb_server_log(be->pid, "LOG", "connection received: host=%s%s%s",
                       start->host, start->port[0] != '\0' ? " port=" : "",
                       start->port);
        if (tdb_backend_startup(be)) {
            tdb_extended_init(be);
            message_loop(be);
        }
    }
    TDB_CATCH();
    {
        /* out of memory outside a statement, or a bug: this connection
         * ends, the others go on */
        ErrorData e = *tdb_error_current();

        tdb_error_flush();
        tdb_server_log(be->pid, "FATAL", "%s", e.message);
        if (be->cxt != NULL && !be->port.broken) {
            tdb_pq_discard_partial(&be->port);
            tdb_backend_send_error(be, &e, FATAL);
        }
    }
    TDB_END_TRY();
    if (be->cxt != NULL)
        cleanup(be);
    else
        (void)close(start->sock);
}

void *
tdb_backend_thread(void *arg)
{
    BackendStart start = *(BackendStart *)arg;
    Server *srv = start.srv;
    Backend be;
    sigset_t mask;

    free(arg);
    /* Signals are the main thread's business. */
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    pthread_sigmask(SIG_BLOCK, &mask, NULL);

    tdb_mcxt_thread_init();
    memset(&be, 0, sizeof(be));
    be.srv = srv;
    be.pid = start.pid;
    be.start_time = tdb_server_now();
    be.port.sock = -1;
    run_connection(&be, &start);
    tdb_mcxt_thread_done();

    pthread_mutex_lock(&srv->lock);
    srv->nthreads--;
    pthread_cond_broadcast(&srv->thread_exited);
    pthread_mutex_unlock(&srv->lock);
    return NULL;
}
