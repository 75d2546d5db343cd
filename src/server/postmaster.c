/*
 * postmaster.c -- the server's main thread: open the database, listen,
 * accept, keep the registry of sessions, and shut down in order
 * (PostgreSQL's postmaster, with threads for backends).
 *
 *   tdb_server_run:
 *     open the Database (one per process, shared by every session)
 *     listen: TCP on each listen address, the Unix socket
 *             <socket_dir>/.s.PGSQL.<port> (mode 0777, as PostgreSQL's)
 *     loop: poll the listening sockets and the wake pipe
 *           accept --> a detached connection thread (backend.c)
 *     SIGTERM / SIGINT: the handler writes a byte to the wake pipe, which
 *     every thread polls, then:
 *       1. stop accepting: close the listening sockets, remove the socket
 *          file;
 *       2. cancel every running statement (and again every 100 ms, for
 *          one that started after the first round);
 *       3. wait for every connection thread to end -- each sends FATAL
 *          57P01 to its client and destroys its session, rolling back;
 *       4. close the database cleanly (write and fsync every page, mark
 *          the data directory shut down).
 *     A second signal while that runs is an immediate shutdown: the
 *     socket file goes and the process exits at once, as after a crash
 *     (the WAL recovers committed work on the next start).
 *     SIGHUP: the handler writes a byte to the reload pipe, which only
 *     this thread polls; it reads pg_hba.conf again and, if the file is
 *     good, makes the new rules current (a bad file is logged and the
 *     old rules stay, as in PostgreSQL).
 *
 * Connection limit: a new connection always gets a thread that reads its
 * startup packet -- a CancelRequest must get through even when the
 * server is full -- but only max_connections of them get a session;
 * the rest are told 53300 "sorry, too many clients already".  Threads
 * are capped at 2 * max_connections + 10, beyond which a connection is
 * closed at once.
 *
 * Locking: Server.lock protects the registry (slots, nsessions,
 * next_pid), nthreads and the current hba rules (a reload swaps the
 * pointer; superseded rule sets stay allocated until shutdown, so a
 * connection may go on reading the set it took).  tdb_session_cancel is called under it, and a
 * connection unregisters under it before destroying its session, so a
 * cancel never touches a session being freed.
 */
#include "common/base.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "common/scram.h"
#include "common/stack_depth.h"
#include "server/server_int.h"

#define MAX_LISTEN_SOCKETS 16
#define LISTEN_BACKLOG 128

/* What the signal handler may touch (async-signal-safe writes only). */
static int signal_wake_fd = -1;
static int signal_reload_fd = -1;
static volatile sig_atomic_t signals_received = 0;
static char socket_path_for_signal[sizeof(((struct sockaddr_un *)0)->sun_path)];

/* ----------------------------------------------------------------------
 * The registry
 * ---------------------------------------------------------------------- */

static int32
random_key(void)
{
    uint32 key;

    if (getrandom(&key, sizeof(key), GRND_NONBLOCK) != (ssize_t)sizeof(key)) {
        struct timespec ts;

        /* no entropy yet: time and address bits, still unguessable
         * enough for a cancel key on a local server */
        clock_gettime(CLOCK_MONOTONIC, &ts);
        key = (uint32)ts.tv_nsec * 2654435761u ^ (uint32)(uintptr_t)&ts;
    }
    return (int32)key;
}

bool
tdb_server_register(Server *srv, Session *session, int32 pid, int32 *key)
{
    bool ok = false;

    pthread_mutex_lock(&srv->lock);
    if (!atomic_load(&srv->shutting_down) &&
        srv->nsessions < srv->opts->max_connections) {
        for (int i = 0; i < srv->opts->max_connections; i++) {
            BackendSlot *slot = &srv->slots[i];

            if (slot->in_use)
                continue;
            slot->in_use = true;
            slot->pid = pid;
            slot->key = random_key();
            slot->session = session;
            *key = slot->key;
            srv->nsessions++;
            ok = true;
            break;
        }
    }
    pthread_mutex_unlock(&srv->lock);
    return ok;
}

void
tdb_server_unregister(Server *srv, int32 pid)
{
    pthread_mutex_lock(&srv->lock);
    for (int i = 0; i < srv->opts->max_connections; i++) {
        BackendSlot *slot = &srv->slots[i];

        if (slot->in_use && slot->pid == pid) {
            memset(slot, 0, sizeof(*slot));
            srv->nsessions--;
            break;
        }
    }
    pthread_mutex_unlock(&srv->lock);
}

bool
tdb_server_cancel(Server *srv, int32 pid, int32 key)
{
    bool found = false;

    pthread_mutex_lock(&srv->lock);
    for (int i = 0; i < srv->opts->max_connections; i++) {
        BackendSlot *slot = &srv->slots[i];

        if (slot->in_use && slot->pid == pid) {
            if (slot->key == key) {
                tdb_session_cancel(slot->session);
                found = true;
            }
            break;
        }
    }
    pthread_mutex_unlock(&srv->lock);
    return found;
}

/* Cancel every running statement (shutdown). */
static void
cancel_all(Server *srv)
{
    pthread_mutex_lock(&srv->lock);
    for (int i = 0; i < srv->opts->max_connections; i++)
        if (srv->slots[i].in_use)
            tdb_session_cancel(srv->slots[i].session);
    pthread_mutex_unlock(&srv->lock);
}

/* ----------------------------------------------------------------------
 * Signals
 * ---------------------------------------------------------------------- */

static void
handle_shutdown_signal(int signo)
{
    int save_errno = errno;

    (void)signo;
    signals_received++;
    if (signals_received > 1) {
        static const char msg[] =
            "LOG:  received immediate shutdown request\n";

        if (socket_path_for_signal[0] != '\0')
            (void)unlink(socket_path_for_signal);
        (void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
        _exit(2);
    }
    if (signal_wake_fd >= 0)
        (void)!write(signal_wake_fd, "x", 1);
    errno = save_errno;
}

static void
handle_reload_signal(int signo)
{
    int save_errno = errno;

    (void)signo;
    if (signal_reload_fd >= 0)
        (void)!write(signal_reload_fd, "x", 1);
    errno = save_errno;
}

static void
install_signals(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = handle_shutdown_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = handle_reload_signal;
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
}

/* ----------------------------------------------------------------------
 * Listening
 * ---------------------------------------------------------------------- */

typedef struct Listener {
    int fd;
    bool is_unix;
} Listener;

typedef struct ListenSet {
    Listener socks[MAX_LISTEN_SOCKETS];
    int n;
    char unix_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
} ListenSet;

/* Bind and listen on one resolved TCP address; logs either way. */
static void
listen_tcp_addr(ListenSet *ls, const struct addrinfo *ai, int port)
{
    char host[NI_MAXHOST];
    const char *family = ai->ai_family == AF_INET6 ? "IPv6" : "IPv4";
    int fd, one = 1;

    if (getnameinfo(ai->ai_addr, ai->ai_addrlen, host, sizeof(host), NULL, 0,
                    NI_NUMERICHOST) != 0)
        snprintf(host, sizeof(host), "?");
    if (ls->n >= MAX_LISTEN_SOCKETS) {
        tdb_server_log(0, "WARNING", "too many listen sockets: %s ignored",
                       host);
        return;
    }
    /* non-blocking: a connection that is gone by the time accept runs
     * must not stall the accept loop */
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
                ai->ai_protocol);
    if (fd < 0) {
        tdb_server_log(0, "LOG", "could not create %s socket for address "
                                 "\"%s\": %s",
                       family, host, strerror(errno));
        return;
    }
    (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (ai->ai_family == AF_INET6)
        (void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
        int err = errno;

        tdb_server_log(0, "LOG", "could not bind %s address \"%s\": %s",
                       family, host, strerror(err));
        if (err == EADDRINUSE)
            tdb_server_log(0, "HINT",
                           "Is another server already running on port %d? "
                           "If not, wait a few seconds and retry.",
                           port);
        close(fd);
        return;
    }
    if (listen(fd, LISTEN_BACKLOG) < 0) {
        tdb_server_log(0, "LOG", "could not listen on %s address \"%s\": %s",
                       family, host, strerror(errno));
        close(fd);
        return;
    }
    tdb_server_log(0, "LOG", "listening on %s address \"%s\", port %d",
                   family, host, port);
    ls->socks[ls->n].fd = fd;
    ls->socks[ls->n].is_unix = false;
    ls->n++;
}

/* Every address of listen_addresses; false if none could be used. */
static bool
listen_tcp(ListenSet *ls, const ServerOptions *o)
{
    char *list = tdb_pstrdup(o->listen_addresses);
    char portstr[16];
    int before = ls->n;
    bool any_requested = false;

    snprintf(portstr, sizeof(portstr), "%d", o->port);
    for (char *save = NULL, *item = strtok_r(list, ", \t", &save);
         item != NULL; item = strtok_r(NULL, ", \t", &save)) {
        struct addrinfo hints, *res = NULL;
        int rc, n_before = ls->n;

        any_requested = true;
        memset(&hints, 0, sizeof(hints));
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_PASSIVE;
        rc = getaddrinfo(strcmp(item, "*") == 0 ? NULL : item, portstr,
                         &hints, &res);
        if (rc != 0) {
            tdb_server_log(0, "LOG",
                           "could not translate host name \"%s\", service "
                           "\"%s\" to address: %s",
                           item, portstr, gai_strerror(rc));
            continue;
        }
        for (const struct addrinfo *ai = res; ai != NULL; ai = ai->ai_next)
            if (ai->ai_family == AF_INET || ai->ai_family == AF_INET6)
                listen_tcp_addr(ls, ai, o->port);
        freeaddrinfo(res);
        if (ls->n == n_before)
            tdb_server_log(0, "WARNING",
                           "could not create listen socket for \"%s\"",
                           item);
    }
    tdb_pfree(list);
    return !any_requested || ls->n > before;
}

/* The Unix socket; false if it could not be set up. */
static bool
listen_unix(ListenSet *ls, const ServerOptions *o)
{
    struct sockaddr_un addr;
    int fd, n;

    memset(&addr, 0, sizeof(addr));
    addr.sun_family = AF_UNIX;
    n = snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/.s.PGSQL.%d",
                 o->socket_dir, o->port);
    if (n < 0 || (size_t)n >= sizeof(addr.sun_path)) {
        tdb_server_log(0, "LOG",
                       "Unix-domain socket path \"%s/.s.PGSQL.%d\" is too "
                       "long",
                       o->socket_dir, o->port);
        return false;
    }
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        tdb_server_log(0, "LOG", "could not create Unix socket: %s",
                       strerror(errno));
        return false;
    }
    /* A socket file left by a server that died: remove it, unless a
     * server still answers on it. */
    if (access(addr.sun_path, F_OK) == 0) {
        if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0) {
            tdb_server_log(0, "LOG",
                           "another server is already running on socket "
                           "\"%s\"",
                           addr.sun_path);
            close(fd);
            return false;
        }
        close(fd);
        (void)unlink(addr.sun_path);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return false;
    }
    (void)fcntl(fd, F_SETFL, O_NONBLOCK);
    if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
        tdb_server_log(0, "LOG", "could not bind Unix address \"%s\": %s",
                       addr.sun_path, strerror(errno));
        close(fd);
        return false;
    }
    (void)chmod(addr.sun_path, 0777);
    if (listen(fd, LISTEN_BACKLOG) < 0) {
        tdb_server_log(0, "LOG", "could not listen on Unix socket \"%s\": %s",
                       addr.sun_path, strerror(errno));
        close(fd);
        (void)unlink(addr.sun_path);
        return false;
    }
    snprintf(ls->unix_path, sizeof(ls->unix_path), "%s", addr.sun_path);
    snprintf(socket_path_for_signal, sizeof(socket_path_for_signal), "%s",
             addr.sun_path);
    tdb_server_log(0, "LOG", "listening on Unix socket \"%s\"",
                   addr.sun_path);
    ls->socks[ls->n].fd = fd;
    ls->socks[ls->n].is_unix = true;
    ls->n++;
    return true;
}

static void
close_listeners(ListenSet *ls)
{
    for (int i = 0; i < ls->n; i++)
        close(ls->socks[i].fd);
    ls->n = 0;
    if (ls->unix_path[0] != '\0') {
        (void)unlink(ls->unix_path);
        ls->unix_path[0] = '\0';
        socket_path_for_signal[0] = '\0';
    }
}

/* ----------------------------------------------------------------------
 * Accepting
 * ---------------------------------------------------------------------- */

/* Accept one connection on l and start its thread. */
static void
accept_one(Server *srv, const Listener *l)
{
    struct sockaddr_storage addr;
    socklen_t addrlen = sizeof(addr);
    BackendStart *start;
    pthread_attr_t attr;
    pthread_t thread;
    int fd, rc;

    fd = accept4(l->fd, (struct sockaddr *)&addr, &addrlen, SOCK_CLOEXEC);
    if (fd < 0) {
        if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED) {
            tdb_server_log(0, "LOG", "could not accept new connection: %s",
                           strerror(errno));
            if (errno == EMFILE || errno == ENFILE)
                usleep(100 * 1000); /* let connections end */
        }
        return;
    }
    pthread_mutex_lock(&srv->lock);
    if (srv->nthreads >= srv->max_threads) {
        pthread_mutex_unlock(&srv->lock);
        tdb_server_log(0, "LOG",
                       "could not fork new process for connection: too "
                       "many connection threads");
        close(fd);
        return;
    }
    srv->nthreads++;
    start = malloc(sizeof(BackendStart));
    if (start != NULL) {
        memset(start, 0, sizeof(*start));
        start->pid = ++srv->next_pid;
    }
    pthread_mutex_unlock(&srv->lock);
    if (start == NULL)
        goto fail;
    start->srv = srv;
    start->sock = fd;
    start->is_unix = l->is_unix;
    if (l->is_unix)
        snprintf(start->host, sizeof(start->host), "[local]");
    else {
        int one = 1;

        (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        (void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
        if (getnameinfo((struct sockaddr *)&addr, addrlen, start->host,
                        sizeof(start->host), start->port, sizeof(start->port),
                        NI_NUMERICHOST | NI_NUMERICSERV) != 0)
            snprintf(start->host, sizeof(start->host), "?");
    }
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    /* the stack max_stack_depth is checked against (stack_depth.h) */
    pthread_attr_setstacksize(&attr, tdb_stack_size_for_threads());
    rc = pthread_create(&thread, &attr, tdb_backend_thread, start);
    pthread_attr_destroy(&attr);
    if (rc == 0)
        return;
    tdb_server_log(0, "LOG", "could not start a thread for a connection: %s",
                   strerror(rc));
    free(start);
fail:
    close(fd);
    pthread_mutex_lock(&srv->lock);
    srv->nthreads--;
    pthread_mutex_unlock(&srv->lock);
}

static void reload_hba(Server *srv);

/* Poll and accept until the wake pipe fires (and reload on SIGHUP). */
static void
accept_loop(Server *srv, ListenSet *ls)
{
    struct pollfd fds[MAX_LISTEN_SOCKETS + 2];

    for (;;) {
        int rc;

        for (int i = 0; i < ls->n; i++) {
            fds[i].fd = ls->socks[i].fd;
            fds[i].events = POLLIN;
            fds[i].revents = 0;
        }
        fds[ls->n].fd = srv->wake_pipe[0];
        fds[ls->n].events = POLLIN;
        fds[ls->n].revents = 0;
        fds[ls->n + 1].fd = srv->reload_pipe[0];
        fds[ls->n + 1].events = POLLIN;
        fds[ls->n + 1].revents = 0;
        rc = poll(fds, (nfds_t)ls->n + 2, -1);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc < 0) {
            tdb_server_log(0, "LOG", "poll() failed in the accept loop: %s",
                           strerror(errno));
            usleep(100 * 1000);
            continue;
        }
        if (fds[ls->n].revents != 0)
            return;
        if (fds[ls->n + 1].revents != 0)
            reload_hba(srv);
        for (int i = 0; i < ls->n; i++)
            if (fds[i].revents != 0)
                accept_one(srv, &ls->socks[i]);
    }
}

/* Cancel, then wait for every connection thread to end. */
static void
wait_for_connections(Server *srv)
{
    pthread_mutex_lock(&srv->lock);
    while (srv->nthreads > 0) {
        struct timespec deadline;

        pthread_mutex_unlock(&srv->lock);
        cancel_all(srv);
        pthread_mutex_lock(&srv->lock);
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_nsec += 100 * 1000 * 1000;
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000L;
        }
        (void)pthread_cond_timedwait(&srv->thread_exited, &srv->lock,
                                     &deadline);
    }
    pthread_mutex_unlock(&srv->lock);
}

/* ----------------------------------------------------------------------
 * The server
 * ---------------------------------------------------------------------- */

void
tdb_server_options_init(ServerOptions *o)
{
    memset(o, 0, sizeof(*o));
    o->listen_addresses = "localhost";
    o->port = TDB_SERVER_DEFAULT_PORT;
    o->socket_dir = "/tmp";
    o->max_connections = 100;
    o->authentication_timeout = 60;
}

/* Open the database; NULL (and logged) on failure. */
static Database *
open_database(const ServerOptions *o)
{
    Database *volatile db = NULL;

    TDB_TRY();
    {
        DatabaseOptions dopts;

        memset(&dopts, 0, sizeof(dopts));
        dopts.nbuffers = o->nbuffers;
        dopts.superuser = o->superuser;
        db = tdb_database_open(o->datadir, &dopts);
    }
    TDB_CATCH();
    {
        const ErrorData *e = tdb_error_current();

        tdb_server_log(0, "FATAL", "could not open database \"%s\": %s",
                       o->datadir, e->message);
        if (e->detail[0] != '\0')
            tdb_server_log(0, "DETAIL", "%s", e->detail);
        if (e->hint[0] != '\0')
            tdb_server_log(0, "HINT", "%s", e->hint);
        tdb_error_flush();
        db = NULL;
    }
    TDB_END_TRY();
    return db;
}

/*
 * The client authentication file's path (the option's, or DATADIR's
 * pg_hba.conf, written with its defaults if missing) into path; false
 * (logged) if the default file cannot be written.
 */
static bool
hba_path(const ServerOptions *o, char *path, Size size)
{
    if (o->hba_file != NULL) {
        snprintf(path, size, "%s", o->hba_file);
        return true;
    }
    snprintf(path, size, "%s/pg_hba.conf", o->datadir);
    if (tdb_hba_write_default(path) != 0) {
        tdb_server_log(0, "FATAL", "could not create file \"%s\": %s", path,
                       strerror(errno));
        return false;
    }
    return true;
}

/* Read the rules at path into cxt; NULL, logged as PostgreSQL logs it
 * (the error, its line as CONTEXT), if the file has an error. */
static HbaRules *
read_hba(const char *path, MemoryContext cxt)
{
    char err[512];
    int errline;
    HbaRules *rules = tdb_hba_load(path, cxt, err, sizeof(err), &errline);

    if (rules == NULL) {
        tdb_server_log(0, "LOG", "%s", err);
        if (errline > 0)
            tdb_server_log(0, "CONTEXT",
                           "line %d of configuration file \"%s\"", errline,
                           path);
    }
    return rules;
}

/* The rules at start; NULL (logged) stops the start. */
static HbaRules *
load_hba(const ServerOptions *o, MemoryContext cxt)
{
    char path[4096];
    HbaRules *rules;

    if (!hba_path(o, path, sizeof(path)))
        return NULL;
    rules = read_hba(path, cxt);
    if (rules == NULL)
        tdb_server_log(0, "FATAL", "could not load %s", path);
    return rules;
}

/* SIGHUP: read the file again; keep the old rules if it is bad. */
static void
reload_hba(Server *srv)
{
    char byte[64];
    HbaRules *rules;

    while (read(srv->reload_pipe[0], byte, sizeof(byte)) > 0)
        ; /* several signals: one reload */
    tdb_server_log(0, "LOG",
                   "received SIGHUP, reloading configuration files");
    rules = read_hba(srv->hba->path, srv->cxt);
    if (rules == NULL) {
        tdb_server_log(0, "LOG", "%s was not reloaded", "pg_hba.conf");
        return;
    }
    pthread_mutex_lock(&srv->lock);
    srv->hba = rules;
    pthread_mutex_unlock(&srv->lock);
}

const HbaRules *
tdb_server_hba(Server *srv)
{
    const HbaRules *rules;

    pthread_mutex_lock(&srv->lock);
    rules = srv->hba;
    pthread_mutex_unlock(&srv->lock);
    return rules;
}

/* Close the database; false (and logged) on failure. */
static bool
close_database(Database *db)
{
    volatile bool ok = true;

    TDB_TRY();
    {
        tdb_database_close(db);
    }
    TDB_CATCH();
    {
        tdb_server_log(0, "LOG", "could not close the database cleanly: %s",
                       tdb_error_current()->message);
        tdb_error_flush();
        ok = false;
    }
    TDB_END_TRY();
    return ok;
}

int
tdb_server_run(const ServerOptions *o)
{
    Server srv;
    ListenSet ls;
    MemoryContext cxt;
    int status = 0;

    tdb_mcxt_thread_init();
    memset(&srv, 0, sizeof(srv));
    memset(&ls, 0, sizeof(ls));
    srv.opts = o;
    srv.max_threads = 2 * o->max_connections + 10;
    atomic_init(&srv.shutting_down, false);
    pthread_mutex_init(&srv.lock, NULL);
    pthread_cond_init(&srv.thread_exited, NULL);
    if (pipe2(srv.wake_pipe, O_CLOEXEC) < 0) {
        tdb_server_log(0, "FATAL", "could not create the wake pipe: %s",
                       strerror(errno));
        return 1;
    }
    if (pipe2(srv.reload_pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
        tdb_server_log(0, "FATAL", "could not create the reload pipe: %s",
                       strerror(errno));
        close(srv.wake_pipe[0]);
        close(srv.wake_pipe[1]);
        return 1;
    }
    signal_wake_fd = srv.wake_pipe[1];
    signal_reload_fd = srv.reload_pipe[1];
    install_signals();

    cxt = tdb_aset_create(tdb_top_mcxt, "Server", ALLOCSET_SMALL_SIZES);
    srv.cxt = cxt;
    srv.slots = tdb_mcxt_alloc_zero(
        cxt, tdb_mcxt_array_size((Size)o->max_connections,
                                 sizeof(BackendSlot)));

    srv.db = open_database(o);
    if (srv.db == NULL) {
        status = 1;
        goto done;
    }
    srv.hba = load_hba(o, cxt);
    if (srv.hba == NULL)
        status = 1;
    else if (!tdb_strong_random(srv.mock_secret, sizeof(srv.mock_secret))) {
        tdb_server_log(0, "FATAL", "could not generate random numbers");
        status = 1;
    }
    if (status == 0 && o->listen_addresses[0] != '\0' &&
        !listen_tcp(&ls, o)) {
        tdb_server_log(0, "FATAL", "could not create any TCP/IP sockets");
        status = 1;
    }
    if (status == 0 && o->socket_dir[0] != '\0' && !listen_unix(&ls, o)) {
        tdb_server_log(0, "FATAL", "could not create any Unix-domain "
                                   "sockets");
        status = 1;
    }
    if (status == 0 && ls.n == 0) {
        tdb_server_log(0, "FATAL", "no socket created for listening");
        status = 1;
    }
    if (status != 0) {
        close_listeners(&ls);
        if (!close_database(srv.db))
            status = 2;
        goto done;
    }
    tdb_server_log(0, "LOG", "database system is ready to accept "
                             "connections");

    accept_loop(&srv, &ls);

    tdb_server_log(0, "LOG", "received fast shutdown request");
    atomic_store(&srv.shutting_down, true);
    close_listeners(&ls);
    tdb_server_log(0, "LOG", "aborting any active transactions");
    wait_for_connections(&srv);
    tdb_server_log(0, "LOG", "shutting down");
    if (!close_database(srv.db))
        status = 2;
    else
        tdb_server_log(0, "LOG", "database system is shut down");

done:
    signal_wake_fd = -1;
    signal_reload_fd = -1;
    close(srv.wake_pipe[0]);
    close(srv.wake_pipe[1]);
    close(srv.reload_pipe[0]);
    close(srv.reload_pipe[1]);
    pthread_cond_destroy(&srv.thread_exited);
    pthread_mutex_destroy(&srv.lock);
    tdb_mcxt_delete(cxt);
    return status;
}
