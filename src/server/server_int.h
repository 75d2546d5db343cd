/*
 * server_int.h -- what the files of src/server share; nothing outside
 * the folder includes it.
 *
 * Three objects:
 *
 *   Server   one per `tupledb serve`: the Database, the listening
 *            sockets, the registry of sessions (for the connection
 *            limit, CancelRequest and shutdown) and the wake pipe that
 *            tells every connection thread to stop.  Shared by all
 *            threads; `lock` protects the fields marked so.
 *   Port     one connection's socket and its input and output buffers
 *            (pqcomm.c); used only by the connection's thread, except
 *            that the wake pipe can interrupt its waits.
 *   Backend  one connection's thread state: the Port, the Session, the
 *            startup parameters, what was last reported with
 *            ParameterStatus (backend.c, startup.c, dest_remote.c,
 *            extended.c).
 *
 * Threads: the main thread accepts connections and handles signals
 * (postmaster.c); every connection gets a detached thread that owns its
 * memory-context tree (tdb_mcxt_thread_init) and everything in its
 * Backend.  A thread touches another's Session only through
 * tdb_session_cancel, under Server.lock, and a thread removes its
 * session from the registry (under the lock) before destroying it.
 */
#ifndef TDB_SERVER_SERVER_INT_H
#define TDB_SERVER_SERVER_INT_H

#include "common/base.h"

#include <pthread.h>
#include <stdatomic.h>

#include "catalog/database.h"
#include "server/hba.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "server/server.h"
#include "tcop/session.h"

/* ----------------------------------------------------------------------
 * Protocol constants (PostgreSQL's pqcomm.h)
 * ---------------------------------------------------------------------- */

#define PQ_PROTOCOL(major, minor) (((uint32)(major) << 16) | (uint32)(minor))
#define PQ_PROTOCOL_MAJOR(v) ((v) >> 16)
#define PQ_PROTOCOL_MINOR(v) ((v) & 0xffff)
#define PQ_CANCEL_REQUEST_CODE PQ_PROTOCOL(1234, 5678)
#define PQ_NEGOTIATE_SSL_CODE PQ_PROTOCOL(1234, 5679)
#define PQ_NEGOTIATE_GSS_CODE PQ_PROTOCOL(1234, 5680)

/* Longest startup-phase packet, as PostgreSQL's MAX_STARTUP_PACKET_LENGTH. */
#define PQ_MAX_STARTUP_PACKET_LENGTH 10000
/* Body limits after startup (PostgreSQL's PQ_SMALL/LARGE_MESSAGE_LIMIT):
 * messages that carry SQL or data may be large, the others not. */
#define PQ_SMALL_MESSAGE_LIMIT 10000
#define PQ_LARGE_MESSAGE_LIMIT ((int)(MaxAllocSize - 1))

/* SQLSTATEs only the server raises (errcodes.h lists the engine's). */
/* Authentication request codes ('R'). */
#define SRV_AUTH_OK 0
#define SRV_AUTH_CLEARTEXT 3
#define SRV_AUTH_SASL 10
#define SRV_AUTH_SASL_CONTINUE 11
#define SRV_AUTH_SASL_FINAL 12

#define SRV_ERRCODE_PROTOCOL_VIOLATION MAKE_SQLSTATE('0', '8', 'P', '0', '1')
#define SRV_ERRCODE_CONNECTION_FAILURE MAKE_SQLSTATE('0', '8', '0', '0', '6')
#define SRV_ERRCODE_TOO_MANY_CONNECTIONS MAKE_SQLSTATE('5', '3', '3', '0', '0')
#define SRV_ERRCODE_ADMIN_SHUTDOWN MAKE_SQLSTATE('5', '7', 'P', '0', '1')
#define SRV_ERRCODE_CANNOT_CONNECT_NOW MAKE_SQLSTATE('5', '7', 'P', '0', '3')
#define SRV_ERRCODE_INVALID_AUTHORIZATION                                   \
    MAKE_SQLSTATE('2', '8', '0', '0', '0')
#define SRV_ERRCODE_UNDEFINED_DATABASE MAKE_SQLSTATE('3', 'D', '0', '0', '0')
#define SRV_ERRCODE_INVALID_CURSOR_NAME MAKE_SQLSTATE('3', '4', '0', '0', '0')
#define SRV_ERRCODE_UNDEFINED_PSTATEMENT MAKE_SQLSTATE('2', '6', '0', '0', '0')
#define SRV_ERRCODE_DUPLICATE_PSTATEMENT MAKE_SQLSTATE('4', '2', 'P', '0', '5')
#define SRV_ERRCODE_DUPLICATE_CURSOR MAKE_SQLSTATE('4', '2', 'P', '0', '3')

/* ----------------------------------------------------------------------
 * Server (postmaster.c)
 * ---------------------------------------------------------------------- */

/* A live session, as the registry knows it. */
typedef struct BackendSlot {
    bool in_use;
    int32 pid;        /* BackendKeyData process id */
    int32 key;        /* BackendKeyData secret */
    Session *session; /* for tdb_session_cancel */
} BackendSlot;

typedef struct Server {
    const ServerOptions *opts;
    Database *db;          /* shared by every session */
    MemoryContext cxt;     /* the server's (main thread only) */
    int reload_pipe[2];    /* [0] readable after SIGHUP (main thread) */
    const HbaRules *hba;   /* pg_hba.conf's current rules (lock; the
                            * rules themselves are read-only) */
    uint8 mock_secret[32]; /* random at start: the salts of roles that do
                            * not exist (auth.c); read-only */
    int wake_pipe[2];      /* [0] becomes readable when shutdown starts */
    atomic_bool shutting_down;

    pthread_mutex_t lock;
    pthread_cond_t thread_exited; /* signalled when nthreads drops */
    int nthreads;       /* connection threads alive (lock) */
    int max_threads;    /* refuse to start more than this */
    BackendSlot *slots; /* max_connections entries (lock) */
    int nsessions;      /* slots in use (lock) */
    int32 next_pid;     /* (lock) */
} Server;

/*
 * Take a registry slot for pid's session; fills *key with a new random
 * secret.  Returns false when max_connections sessions exist already (or
 * shutdown began).
 */
bool tdb_server_register(Server *srv, Session *session, int32 pid,
                         int32 *key);
/* Give back the slot of pid (before its session is destroyed). */
void tdb_server_unregister(Server *srv, int32 pid);
/* The current pg_hba.conf rules (a SIGHUP may replace them; a set once
 * returned stays valid until shutdown). */
const HbaRules *tdb_server_hba(Server *srv);
/* CancelRequest: cancel pid's statement if key matches; false if not. */
bool tdb_server_cancel(Server *srv, int32 pid, int32 key);

/* ----------------------------------------------------------------------
 * Port: socket I/O (pqcomm.c)
 * ---------------------------------------------------------------------- */

/* Results of the reading calls. */
#define PQ_OK 0
#define PQ_EOF (-1)     /* the client closed the connection, or I/O error */
#define PQ_STOP (-2)    /* the server is shutting down */
#define PQ_TIMEOUT (-3) /* Port.timeout_ms passed without input */

typedef struct Port {
    int sock;
    int wake_fd;           /* Server.wake_pipe[0] */
    bool is_unix;
    char remote_host[64];  /* "127.0.0.1", "::1" or "[local]" */
    char remote_port[16];  /* "" for a Unix socket */
    MemoryContext cxt;     /* owns the buffers */
    char *inbuf;
    size_t incap, inbeg, inend; /* unread input is inbuf[inbeg, inend) */
    char *outbuf;
    size_t outcap, outlen;
    size_t msgstart;       /* offset of the message being built */
    bool in_message;       /* between tdb_pq_begin and tdb_pq_end */
    bool broken;           /* a read or write failed: stop using it */
    bool stopped;          /* an I/O wait ended by shutdown */
    int timeout_ms;        /* for reads; -1 waits for ever */
    int send_timeout_ms;   /* for writes; -1 waits for ever */
} Port;

/* One frontend message, read whole. */
typedef struct PqMsg {
    char type;   /* the type byte; 0 for startup packets */
    char *data;  /* the body (NUL-terminated one past len) */
    int len;     /* body length */
    int cursor;  /* read position of the tdb_pq_get* calls */
    bool bad;    /* a get ran past the end or found no NUL */
} PqMsg;

void tdb_pq_port_init(Port *port, int sock, int wake_fd, MemoryContext cxt);
/* Close the socket (idempotent). */
void tdb_pq_port_close(Port *port);
/*
 * Stop watching the wake pipe, and give writes timeout_ms: for the last
 * message of a connection the server is ending.
 */
void tdb_pq_port_detach_wake(Port *port, int timeout_ms);

/*
 * Read exactly n bytes into dst, waiting as needed (and flushing pending
 * output before a wait).  PQ_OK or PQ_EOF / PQ_STOP / PQ_TIMEOUT.
 */
int tdb_pq_read_bytes(Port *port, void *dst, size_t n);
/* Bytes already received and not yet read. */
size_t tdb_pq_pending_input(const Port *port);
/* Wait until at least one byte can be read; PQ_OK or an I/O result. */
int tdb_pq_wait_input(Port *port);

/*
 * Read one message: its type byte (none if startup), Int32 length, body.
 * The body is allocated in cxt.  Returns PQ_OK, an I/O result, or:
 */
#define PQ_BAD_LENGTH (-4) /* length < 4 or body > maxlen */
int tdb_pq_read_message(Port *port, bool startup, int maxlen,
                        MemoryContext cxt, PqMsg *msg);

/* Cursor-style getters over a message body (network byte order). */
int tdb_pq_get_byte(PqMsg *m);
int16 tdb_pq_get_int16(PqMsg *m);
int32 tdb_pq_get_int32(PqMsg *m);
const char *tdb_pq_get_string(PqMsg *m);
const char *tdb_pq_get_bytes(PqMsg *m, int n);
/* True if the whole body was consumed and nothing was bad. */
bool tdb_pq_get_end(const PqMsg *m);

/*
 * Building messages into the output buffer: begin, put..., end.  The
 * buffer is sent when it grows past a threshold, on tdb_pq_flush, and
 * before the connection waits for input.  Allocation failure raises.
 */
void tdb_pq_begin(Port *port, char type);
void tdb_pq_put_byte(Port *port, int b);
void tdb_pq_put_int16(Port *port, int v);
void tdb_pq_put_int32(Port *port, int32 v);
void tdb_pq_put_bytes(Port *port, const void *data, size_t n);
void tdb_pq_put_string(Port *port, const char *s); /* with its NUL */
void tdb_pq_end(Port *port);
/* Drop a message left half-built by an error (no-op if none). */
void tdb_pq_discard_partial(Port *port);
/* A bare byte (the 'N' answer to SSLRequest): no framing. */
void tdb_pq_put_raw_byte(Port *port, int b);
/* Send everything buffered.  false if the socket broke or shutdown. */
bool tdb_pq_flush(Port *port);

/* ----------------------------------------------------------------------
 * Backend: one connection (backend.c, startup.c, dest_remote.c,
 * extended.c)
 * ---------------------------------------------------------------------- */

/* The settings clients learn through ParameterStatus. */
#define SRV_NREPORTED 13

typedef struct ExtendedState ExtendedState; /* extended.c */
typedef struct RemoteCopy RemoteCopy;       /* copy_proto.c */

typedef struct Backend {
    Server *srv;
    Port port;
    MemoryContext cxt;     /* the connection's: lives as long as it */
    MemoryContext msg_cxt; /* one frontend message; reset per message */
    Session *session;      /* NULL until startup registered it */
    int32 pid, key;
    bool registered;
    char *user;
    char *database;
    bool is_superuser;     /* the authenticated role's (is_superuser) */
    char *application_name;
    char client_encoding[16]; /* as reported; see startup.c */
    char reported[SRV_NREPORTED][128]; /* last ParameterStatus values */
    bool settings_reported;  /* reported[] holds what was sent */
    double start_time;       /* seconds since the epoch */
    bool terminate;          /* leave the message loop */
    ExtendedState *ext;      /* extended-protocol state */
    RemoteCopy *copy;        /* the COPY sub-protocol (copy_proto.c) */
} Backend;

/* What the accepting thread hands a new connection thread (malloc'd by
 * the acceptor, freed by the connection thread). */
typedef struct BackendStart {
    Server *srv;
    int sock;
    bool is_unix;
    int32 pid;       /* the connection's number, for the log and
                      * BackendKeyData */
    char host[64];
    char port[16];
} BackendStart;

/* The connection thread's body: startup, the message loop, cleanup. */
void *tdb_backend_thread(void *arg);

/*
 * Startup (startup.c): SSL/GSS negotiation, CancelRequest, the
 * StartupMessage, authentication, the session, ParameterStatus,
 * BackendKeyData.  Returns true when the connection is ready for the
 * first ReadyForQuery; false when it must close (a FATAL was sent, or a
 * cancel request was handled, or the client left).
 */
bool tdb_backend_startup(Backend *be);

/*
 * Authentication (auth.c): the pg_hba.conf line, the method's exchange,
 * AuthenticationOk, the role's LOGIN check; sets the session's user.
 * False after a FATAL (or when the client left).
 */
bool tdb_backend_authenticate(Backend *be);

/* Send the ParameterStatus messages whose value changed (all at first). */
void tdb_backend_report_settings(Backend *be);

/*
 * Error and notice messages (dest_remote.c).  elevel overrides
 * e->elevel when nonzero (a session error sent as FATAL).
 */
void tdb_backend_send_error(Backend *be, const ErrorData *e, int elevel);
/* A NOTICE/WARNING/INFO, if client_min_messages lets it through. */
void tdb_backend_send_notice(Backend *be, const ErrorData *e);
/* Build an ErrorData from a code and message and send it. */
void tdb_backend_send_simple_error(Backend *be, int elevel, int sqlerrcode,
                                   const char *fmt, ...) TDB_PRINTF(4, 5);

/*
 * The receiver that turns a session's results into RowDescription /
 * DataRow / CommandComplete / NoticeResponse messages.  With
 * send_rowdesc false, startup sends nothing (Execute after Describe).
 */
typedef struct RemoteReceiver {
    DestReceiver base;
    Backend *be;
    bool send_rowdesc;
    const int16 *formats;   /* result format codes (extended); NULL: text */
    int nformats;
    const Oid *origtbl;     /* per column: source table and column for
                             * RowDescription; NULL: 0 and 0 */
    const int16 *origcol;
    int ncompleted;         /* statements that sent CommandComplete */
    int ncolumns;
    Oid *typids;
    MemoryContext row_cxt;  /* reset after every row */
} RemoteReceiver;

void tdb_remote_receiver_init(RemoteReceiver *r, Backend *be);
void tdb_remote_receiver_done(RemoteReceiver *r);
/* Send a RowDescription for desc (formats as in r). */
void tdb_remote_send_rowdesc(RemoteReceiver *r, TupleDesc desc);

/*
 * The COPY sub-protocol (copy_proto.c): the connection's CopyChannel for
 * COPY FROM STDIN / TO STDOUT (created on first use), and the check after
 * a failed statement: a COPY that met a non-COPY message ends the
 * connection (FATAL 08P01) as PostgreSQL does.
 */
CopyChannel *tdb_copy_proto_channel(Backend *be);
void tdb_copy_proto_after_error(Backend *be);

/* Extended protocol (extended.c). */
void tdb_extended_init(Backend *be);
/* Handle P/B/D/E/S/H/C; returns true when a ReadyForQuery is due
 * (after Sync). */
bool tdb_extended_message(Backend *be, PqMsg *m);
/* A simple Query discards the unnamed statement and portal. */
void tdb_extended_forget_unnamed(Backend *be);
/* True while skipping messages until Sync after an error. */
bool tdb_extended_ignoring(Backend *be);
/* Before ReadyForQuery: outside a transaction no portal survives. */
void tdb_extended_end_of_transaction(Backend *be);

/* ----------------------------------------------------------------------
 * The log (log.c): one line per event on stderr, PostgreSQL's layout
 * "2025-01-02 03:04:05.678 UTC [pid] LEVEL:  message".
 * ---------------------------------------------------------------------- */

void tdb_server_log(int32 pid, const char *level, const char *fmt, ...)
    TDB_PRINTF(3, 4);
/* Seconds since the epoch, with microseconds. */
double tdb_server_now(void);

#endif /* TDB_SERVER_SERVER_INT_H */
