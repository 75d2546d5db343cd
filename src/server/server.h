/*
 * server.h -- `tupledb serve`: the PostgreSQL v3 wire protocol over one
 * shared Database, so that psql, pgbench, libpq programs and other
 * PostgreSQL drivers connect to tupledb unchanged.
 *
 *     ServerOptions o;
 *     tdb_server_options_init(&o);
 *     o.datadir = "mydb";
 *     o.port = 5433;
 *     return tdb_server_run(&o);      blocks until SIGTERM / SIGINT
 *
 * tdb_server_run opens the database, listens on TCP (listen_addresses)
 * and on a Unix socket (socket_dir/.s.PGSQL.<port>), runs one thread per
 * connection, and on SIGTERM or SIGINT shuts down in order: it stops
 * accepting, cancels running statements, ends every session (each rolls
 * back what it has in progress), closes the database cleanly and removes
 * the Unix socket.  Connections and errors are logged to stderr.
 *
 * The calling thread must not have called into the library yet, or must
 * have done so only through tdb_mcxt_thread_init(); the server owns the
 * process's signal dispositions for SIGTERM, SIGINT and SIGPIPE while it
 * runs.
 */
#ifndef TDB_SERVER_SERVER_H
#define TDB_SERVER_SERVER_H

#include "common/base.h"

/* What `tupledb serve` reports as server_version: libpq reads 15.0. */
#define TDB_SERVER_VERSION "15.0 (tupledb)"
#define TDB_SERVER_VERSION_NUM 150000
#define TDB_SERVER_DEFAULT_PORT 5433

typedef struct ServerOptions {
    const char *datadir;          /* the database directory (required) */
    const char *listen_addresses; /* comma-separated host names or
                                   * addresses, "*" for all, "" for no
                                   * TCP; default "localhost" */
    int port;                     /* TCP port and socket file number */
    const char *socket_dir;       /* directory of the Unix socket; "" for
                                   * none; default "/tmp" */
    int max_connections;          /* sessions at once (default 100) */
    int nbuffers;                 /* buffer pool pages; 0: the default */
    int authentication_timeout;   /* seconds a client may take to finish
                                   * startup (default 60) */
    const char *hba_file;         /* the client authentication file; NULL:
                                   * DATADIR/pg_hba.conf, written with
                                   * trust defaults if missing (hba.h) */
    const char *superuser;        /* the bootstrap superuser's name if
                                   * DATADIR is created; NULL: the OS
                                   * user's (as initdb) */
} ServerOptions;

/* Fill o with the defaults (datadir NULL). */
void tdb_server_options_init(ServerOptions *o);

/*
 * Run the server until it is told to stop.  Returns the process exit
 * status: 0 after an orderly shutdown, 1 if the database could not be
 * opened or no socket could be set up (the reason is logged), 2 if the
 * database could not be closed cleanly.
 */
int tdb_server_run(const ServerOptions *o);

/*
 * `tupledb serve DATADIR [--port N] [--listen ADDR] [--socket-dir DIR]
 * [--max-connections N]`: parse the arguments (argv[0] is "serve") and
 * run.  Returns the exit status.
 */
int tdb_server_main(int argc, char **argv);

#endif /* TDB_SERVER_SERVER_H */
