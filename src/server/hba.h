/*
 * hba.h -- the client authentication file, DATADIR/pg_hba.conf, in
 * PostgreSQL's format (a subset): which connections may use which
 * authentication method.
 *
 *     # TYPE  DATABASE  USER  ADDRESS          METHOD
 *     local   all       all                    trust
 *     host    all       all   127.0.0.1/32     scram-sha-256
 *     host    mydb      bob   10.0.0.0 255.0.0.0  password
 *
 * TYPE: local (Unix socket), host / hostnossl (TCP; there is no TLS, so
 * hostssl lines never match).  DATABASE and USER: all, or names separated
 * by commas (double quotes keep a name as written).  ADDRESS: all, an
 * address with a /prefix length, or an address and a separate mask.
 * METHOD: trust, reject, scram-sha-256, md5 (as in PostgreSQL when the
 * stored password is a SCRAM verifier -- the only kind tupledb makes --
 * it means scram-sha-256), password (clear text over the wire).  The
 * first line that matches decides; none matching is a refusal.
 *
 * The file is read at server start -- a syntax error there stops the
 * start, with the file and line -- and again on SIGHUP (postmaster.c; a
 * bad file then keeps the old rules).  A rule set is allocated in the
 * context given to tdb_hba_load and read-only afterwards, so connection
 * threads share it without a lock.
 */
#ifndef TDB_SERVER_HBA_H
#define TDB_SERVER_HBA_H

#include "common/base.h"
#include "mmgr/mcxt.h"

typedef enum HbaMethod {
    HBA_TRUST,
    HBA_REJECT,
    HBA_SCRAM,
    HBA_PASSWORD,
} HbaMethod;

typedef struct HbaLine {
    int lineno;
    char *text;            /* the line as written, for the log */
    bool is_local;         /* local; else host / hostnossl */
    bool ssl_only;         /* hostssl: never matches without TLS */
    char **databases;      /* NULL: all */
    int ndatabases;
    char **users;          /* NULL: all */
    int nusers;
    bool any_address;      /* host lines: ADDRESS all */
    int family;            /* AF_INET or AF_INET6 */
    uint8 addr[16];
    uint8 mask[16];
    HbaMethod method;
} HbaLine;

typedef struct HbaRules {
    const char *path;
    HbaLine *lines;
    int nlines;
} HbaRules;

/*
 * Read and check the file at path, allocating in cxt.  Returns NULL on
 * an error, with a message ("invalid authentication method \"x\"") in
 * errbuf and its line number in *errline (0: the file itself, e.g. it
 * cannot be read).
 */
HbaRules *tdb_hba_load(const char *path, MemoryContext cxt, char *errbuf,
                       Size errlen, int *errline);

/*
 * The first line matching a connection: is_unix, or the client's
 * address as text ("127.0.0.1", "::1"); NULL if none matches.
 */
const HbaLine *tdb_hba_match(const HbaRules *rules, bool is_unix,
                             const char *remote_host, const char *database,
                             const char *user);

/*
 * Write the default file at path if there is none (a new data
 * directory): trust for the Unix socket and for 127.0.0.1 and ::1, with
 * comments on how to require passwords.  0, or -1 with errno.
 */
int tdb_hba_write_default(const char *path);

const char *tdb_hba_method_name(HbaMethod method);

#endif /* TDB_SERVER_HBA_H */
