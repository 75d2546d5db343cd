/*
 * startup.c -- a connection's startup phase (PostgreSQL's
 * ProcessStartupPacket and the part of InitPostgres a client sees).
 *
 *     read packet ---- SSLRequest / GSSENCRequest --> 'N', read again
 *          |---------- CancelRequest --> cancel the session, close
 *          |---------- protocol != 3.x --> FATAL, close
 *          v
 *     StartupMessage: user, database, options, other keys = settings
 *          |  (_pq_.* keys or minor > 0 --> NegotiateProtocolVersion)
 *          v
 *     session + registry slot (53300 when max_connections are in use)
 *          v
 *     authentication (auth.c: pg_hba.conf, trust / SCRAM-SHA-256 /
 *     password, the role) ending in AuthenticationOk, the database
 *     (3D000 if there is none of that name), the settings,
 *     ParameterStatus x 13,
 *     BackendKeyData; the message loop then sends ReadyForQuery.
 *
 * Every failure is a FATAL ErrorResponse (when the client can read one)
 * and a log line; the caller closes the connection.  The whole phase
 * runs under the authentication timeout (Port.timeout_ms).
 *
 * The database: a data directory holds one, named after the directory
 * (tdb_database_name).  A client may ask for it by that name or as
 * "postgres", PostgreSQL's default database, where tools such as
 * psql -l, createdb and pgAdmin connect first; any other name,
 * template0 and template1 included (tupledb has no templates to copy),
 * is FATAL 3D000 "database "x" does not exist".  PostgreSQL checks it
 * after authentication and the role's checks and before the startup
 * settings are applied, so the same client meets the same failure first
 * here: a wrong password is still 28P01, an unknown setting under a
 * wrong database is 3D000.  As there, the user and database names are
 * cut to NAMEDATALEN - 1 bytes first.
 *
 * Settings: any StartupMessage key other than user, database, options
 * and replication names a setting, checked as SET would check it (an
 * unknown name is FATAL 42704, as in PostgreSQL) and made the session's
 * default, the value RESET returns to (tdb_session_set_default); options
 * holds "-c name=value" / "--name=value" words.  client_encoding
 * SQL_ASCII (what psql sends under LANG=C) is accepted and echoed back:
 * tupledb passes bytes through unchanged, which is what SQL_ASCII means.
 */
#include "common/base.h"

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "server/server_int.h"

/* One StartupMessage setting, in packet order. */
typedef struct StartupSetting {
    const char *name;
    const char *value;
} StartupSetting;

/*
 * The ParameterStatus names PostgreSQL 15 reports, in its order, and
 * where each value lives: a string field of the session's Settings (the
 * text SHOW prints), or NO_FIELD for the values fixed for the
 * connection's life, reported once at startup.
 *
 * The check runs before every ReadyForQuery, so it only compares the six
 * strings that can change with what was sent last.  Reading each value
 * through tdb_guc_show (a lookup by name and a palloc'd copy per
 * setting) cost about 6,600 instructions per round trip, a third of the
 * server's work for a prepared `SELECT 1` (callgrind, bench/server).
 */
#define NO_FIELD ((size_t)-1)
static const struct {
    const char *name;
    size_t field; /* offsetof(Settings, ...) or NO_FIELD */
} reported[SRV_NREPORTED] = {
    {"application_name", offsetof(Settings, application_name)},
    {"client_encoding", offsetof(Settings, client_encoding)},
    {"DateStyle", offsetof(Settings, datestyle)},
    {"default_transaction_read_only", NO_FIELD},
    {"in_hot_standby", NO_FIELD},
    {"integer_datetimes", NO_FIELD},
    {"IntervalStyle", offsetof(Settings, intervalstyle)},
    {"is_superuser", NO_FIELD},
    {"server_encoding", NO_FIELD},
    {"server_version", NO_FIELD},
    {"session_authorization", NO_FIELD},
    {"standard_conforming_strings",
     offsetof(Settings, standard_conforming_strings)},
    {"TimeZone", offsetof(Settings, timezone)},
};

/* The current value of reported setting i (borrowed). */
static const char *
reported_value(Backend *be, const Settings *settings, int i)
{
    const char *name = reported[i].name;

    if (reported[i].field == offsetof(Settings, client_encoding) &&
        be->client_encoding[0] != '\0')
        return be->client_encoding; /* the SQL_ASCII echo */
    if (reported[i].field != NO_FIELD)
        return (const char *)settings + reported[i].field;
    if (strcmp(name, "default_transaction_read_only") == 0 ||
        strcmp(name, "in_hot_standby") == 0)
        return "off";
    if (strcmp(name, "integer_datetimes") == 0)
        return "on";
    if (strcmp(name, "is_superuser") == 0)
        return be->is_superuser ? "on" : "off";
    if (strcmp(name, "server_encoding") == 0)
        return "UTF8";
    if (strcmp(name, "server_version") == 0)
        return TDB_SERVER_VERSION;
    Assert(strcmp(name, "session_authorization") == 0);
    return be->user;
}

void
tdb_backend_report_settings(Backend *be)
{
    Port *port = &be->port;
    const Settings *settings = tdb_session_settings(be->session);

    /* A SET client_encoding ends the SQL_ASCII echo of the startup. */
    if (be->client_encoding[0] != '\0' &&
        strcmp(settings->client_encoding, "UTF8") != 0)
        be->client_encoding[0] = '\0';
    for (int i = 0; i < SRV_NREPORTED; i++) {
        const char *value;

        if (be->settings_reported && reported[i].field == NO_FIELD)
            continue; /* fixed for the connection */
        value = reported_value(be, settings, i);
        if (be->settings_reported && strcmp(be->reported[i], value) == 0)
            continue;
        snprintf(be->reported[i], sizeof(be->reported[i]), "%s", value);
        tdb_pq_begin(port, 'S');
        tdb_pq_put_string(port, reported[i].name);
        tdb_pq_put_string(port, value);
        tdb_pq_end(port);
    }
    be->settings_reported = true;
}

/* Send a FATAL with the given code and message and log it. */
TDB_PRINTF(3, 4)
static void
startup_fatal(Backend *be, int sqlerrcode, const char *fmt, ...)
{
    ErrorData e;
    va_list args;

    memset(&e, 0, sizeof(e));
    e.elevel = FATAL;
    e.sqlerrcode = sqlerrcode;
    va_start(args, fmt);
    (void)vsnprintf(e.message, sizeof(e.message), fmt, args);
    va_end(args);
    tdb_server_log(be->pid, "FATAL", "%s", e.message);
    tdb_backend_send_error(be, &e, 0);
    (void)tdb_pq_flush(&be->port);
}

/* A CancelRequest body (after the code): Int32 pid, Int32 key. */
static void
process_cancel(Backend *be, PqMsg *m)
{
    int32 pid = tdb_pq_get_int32(m);
    int32 key = tdb_pq_get_int32(m);

    if (!tdb_pq_get_end(m)) {
        tdb_server_log(be->pid, "LOG", "invalid length of cancel request");
        return;
    }
    if (!tdb_server_cancel(be->srv, pid, key))
        tdb_server_log(be->pid, "LOG",
                       "PID %d in cancel request did not match any "
                       "process",
                       (int)pid);
}

/*
 * Split an options value into words as PostgreSQL's pg_split_opts does:
 * whitespace separates, a backslash makes the next character literal.
 * Returns the number of words; words[] gets palloc'd strings.
 */
static int
split_options(const char *opts, char **words, int maxwords)
{
    int n = 0;
    const char *p = opts;

    while (n < maxwords) {
        char *word;
        int len = 0;

        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0')
            break;
        word = tdb_palloc(strlen(p) + 1);
        while (*p != '\0' && !isspace((unsigned char)*p)) {
            if (*p == '\\' && p[1] != '\0')
                p++;
            word[len++] = *p++;
        }
        word[len] = '\0';
        words[n++] = word;
    }
    return n;
}

/*
 * "name=value" (from -c or --) into a setting: dashes in the name become
 * underscores, as in PostgreSQL's ParseLongOption.  False if no '='.
 */
static bool
parse_long_option(char *arg, StartupSetting *out)
{
    char *eq = strchr(arg, '=');

    if (eq == NULL)
        return false;
    *eq = '\0';
    for (char *c = arg; *c != '\0'; c++)
        if (*c == '-')
            *c = '_';
    out->name = arg;
    out->value = eq + 1;
    return true;
}

/*
 * Apply one setting to the session.  Returns false after sending the
 * FATAL the setting earned.
 */
static bool
apply_setting(Backend *be, const char *name, const char *value)
{
    volatile bool ok = true;

    if (strcasecmp(name, "client_encoding") == 0 &&
        strcasecmp(value, "SQL_ASCII") == 0) {
        snprintf(be->client_encoding, sizeof(be->client_encoding),
                 "SQL_ASCII");
        return true;
    }
    TDB_TRY();
    {
        tdb_guc_check_privilege(name, be->is_superuser);
        tdb_session_set_default(be->session, name, value);
    }
    TDB_CATCH();
    {
        ErrorData e = *tdb_error_current();

        tdb_error_flush();
        tdb_server_log(be->pid, "FATAL", "%s", e.message);
        tdb_backend_send_error(be, &e, FATAL);
        (void)tdb_pq_flush(&be->port);
        ok = false;
    }
    TDB_END_TRY();
    return ok;
}

/* The settings of the options key; false after a FATAL. */
static bool
apply_options(Backend *be, const char *options)
{
    char *words[64];
    int n = split_options(options, words, 64);

    for (int i = 0; i < n; i++) {
        StartupSetting set;
        char *arg = NULL;

        if (strcmp(words[i], "-c") == 0 && i + 1 < n)
            arg = words[++i];
        else if (strncmp(words[i], "-c", 2) == 0 && words[i][2] != '\0')
            arg = words[i] + 2;
        else if (strncmp(words[i], "--", 2) == 0)
            arg = words[i] + 2;
        if (arg == NULL || !parse_long_option(arg, &set)) {
            startup_fatal(be, ERRCODE_SYNTAX_ERROR,
                          "invalid command-line argument for server "
                          "process: %s",
                          words[i]);
            return false;
        }
        if (!apply_setting(be, set.name, set.value))
            return false;
    }
    return true;
}

/*
 * Does the database the client named exist?  FATAL 3D000 if not (see the
 * file header for the names that do).
 */
static bool
check_database(Backend *be)
{
    if (strcmp(be->database, tdb_database_name(be->srv->db)) == 0 ||
        strcmp(be->database, "postgres") == 0)
        return true;
    startup_fatal(be, SRV_ERRCODE_UNDEFINED_DATABASE,
                  "database \"%s\" does not exist", be->database);
    return false;
}

/* Cut a startup packet's name to NAMEDATALEN - 1 bytes, as PostgreSQL
 * does before looking it up (bytes, not characters, as there). */
static void
clip_name(char *name)
{
    if (strlen(name) >= NAMEDATALEN)
        name[NAMEDATALEN - 1] = '\0';
}

/* Create the session and take a registry slot; false after a FATAL. */
static bool
start_session(Backend *be)
{
    volatile bool ok = true;

    TDB_TRY();
    {
        be->session = tdb_session_create(be->srv->db, be->cxt);
    }
    TDB_CATCH();
    {
        ErrorData e = *tdb_error_current();

        tdb_error_flush();
        tdb_server_log(be->pid, "FATAL", "%s", e.message);
        tdb_backend_send_error(be, &e, FATAL);
        (void)tdb_pq_flush(&be->port);
        ok = false;
    }
    TDB_END_TRY();
    if (!ok)
        return false;
    if (!tdb_server_register(be->srv, be->session, be->pid, &be->key)) {
        if (atomic_load(&be->srv->shutting_down))
            startup_fatal(be, SRV_ERRCODE_CANNOT_CONNECT_NOW,
                          "the database system is shutting down");
        else
            startup_fatal(be, SRV_ERRCODE_TOO_MANY_CONNECTIONS,
                          "sorry, too many clients already");
        return false;
    }
    be->registered = true;
    return true;
}

/* NegotiateProtocolVersion: the newest 3.x we speak, unknown options. */
static void
send_negotiate(Backend *be, const char **unknown, int nunknown)
{
    Port *port = &be->port;

    tdb_pq_begin(port, 'v');
    tdb_pq_put_int32(port, (int32)PQ_PROTOCOL(3, 0));
    tdb_pq_put_int32(port, nunknown);
    for (int i = 0; i < nunknown; i++)
        tdb_pq_put_string(port, unknown[i]);
    tdb_pq_end(port);
}

/*
 * The StartupMessage's key/value pairs (m positioned after the protocol
 * code) and everything after them.  Returns false after a FATAL.
 */
static bool
process_startup_message(Backend *be, PqMsg *m, uint32 proto)
{
    StartupSetting *settings;
    const char **unknown;
    const char *options = NULL;
    int nsettings = 0, nunknown = 0, maxpairs = m->len / 2 + 1;

    settings = tdb_palloc(sizeof(StartupSetting) * (Size)maxpairs);
    unknown = tdb_palloc(sizeof(char *) * (Size)maxpairs);
    for (;;) {
        const char *name = tdb_pq_get_string(m);
        const char *value;

        if (m->bad || name[0] == '\0')
            break;
        value = tdb_pq_get_string(m);
        if (m->bad)
            break;
        if (strcmp(name, "user") == 0)
            be->user = tdb_mcxt_strdup(be->cxt, value);
        else if (strcmp(name, "database") == 0)
            be->database = tdb_mcxt_strdup(be->cxt, value);
        else if (strcmp(name, "options") == 0)
            options = value;
        else if (strcmp(name, "replication") == 0) {
            if (strcasecmp(value, "false") != 0 &&
                strcasecmp(value, "off") != 0 && strcmp(value, "0") != 0 &&
                strcasecmp(value, "no") != 0) {
                startup_fatal(be, ERRCODE_FEATURE_NOT_SUPPORTED,
                              "replication connections are not supported");
                return false;
            }
        } else if (strncmp(name, "_pq_.", 5) == 0)
            unknown[nunknown++] = name;
        else {
            settings[nsettings].name = name;
            settings[nsettings].value = value;
            nsettings++;
        }
    }
    if (!tdb_pq_get_end(m)) {
        startup_fatal(be, SRV_ERRCODE_PROTOCOL_VIOLATION,
                      "invalid startup packet layout: expected terminator "
                      "as last byte");
        return false;
    }
    if (PQ_PROTOCOL_MINOR(proto) > 0 || nunknown > 0)
        send_negotiate(be, unknown, nunknown);
    if (be->user == NULL || be->user[0] == '\0') {
        startup_fatal(be, SRV_ERRCODE_INVALID_AUTHORIZATION,
                      "no PostgreSQL user name specified in startup packet");
        return false;
    }
    if (be->database == NULL || be->database[0] == '\0')
        be->database = be->user;
    clip_name(be->user);
    clip_name(be->database);

    if (!start_session(be))
        return false;

    if (!tdb_backend_authenticate(be)) /* auth.c; R/0 on success */
        return false;
    if (!check_database(be))
        return false;

    if (options != NULL && !apply_options(be, options))
        return false;
    for (int i = 0; i < nsettings; i++)
        if (!apply_setting(be, settings[i].name, settings[i].value))
            return false;
    be->application_name = tdb_mcxt_strdup(
        be->cxt, tdb_session_settings(be->session)->application_name);

    tdb_backend_report_settings(be);
    tdb_pq_begin(&be->port, 'K');
    tdb_pq_put_int32(&be->port, be->pid);
    tdb_pq_put_int32(&be->port, be->key);
    tdb_pq_end(&be->port);
    tdb_server_log(be->pid, "LOG",
                   "connection authorized: user=%s database=%s "
                   "application_name=%s",
                   be->user, be->database, be->application_name);
    return true;
}

bool
tdb_backend_startup(Backend *be)
{
    Port *port = &be->port;
    bool ssl_done = false, gss_done = false;

    port->timeout_ms = be->srv->opts->authentication_timeout * 1000;
    /* scratch allocations of the phase go with each packet */
    tdb_mcxt_switch_to(be->msg_cxt);
    for (;;) {
        PqMsg m;
        uint32 proto;
        int rc;

        tdb_mcxt_reset(be->msg_cxt);
        /* A client that leaves between packets is not worth a log line
         * (psql's check that a server is up, or one that disliked 'N'). */
        rc = tdb_pq_wait_input(port);
        if (rc == PQ_EOF)
            return false;
        if (rc == PQ_OK)
            rc = tdb_pq_read_message(port, true,
                                     PQ_MAX_STARTUP_PACKET_LENGTH - 4,
                                     be->msg_cxt, &m);
        if (rc == PQ_EOF) {
            tdb_server_log(be->pid, "LOG", "incomplete startup packet");
            return false;
        }
        if (rc == PQ_TIMEOUT) {
            tdb_server_log(be->pid, "FATAL",
                           "canceling authentication due to timeout");
            return false;
        }
        if (rc == PQ_STOP) {
            tdb_pq_port_detach_wake(port, 1000);
            startup_fatal(be, SRV_ERRCODE_CANNOT_CONNECT_NOW,
                          "the database system is shutting down");
            return false;
        }
        if (rc == PQ_BAD_LENGTH || m.len < 4) {
            startup_fatal(be, SRV_ERRCODE_PROTOCOL_VIOLATION,
                          "invalid length of startup packet");
            return false;
        }
        proto = (uint32)tdb_pq_get_int32(&m);
        if (proto == PQ_CANCEL_REQUEST_CODE) {
            process_cancel(be, &m);
            return false;
        }
        if ((proto == PQ_NEGOTIATE_SSL_CODE && !ssl_done) ||
            (proto == PQ_NEGOTIATE_GSS_CODE && !gss_done)) {
            if (proto == PQ_NEGOTIATE_SSL_CODE)
                ssl_done = true;
            else
                gss_done = true;
            /* no TLS or GSSAPI encryption here (yet) */
            tdb_pq_put_raw_byte(port, 'N');
            if (!tdb_pq_flush(port))
                return false;
            /* Bytes sent before our answer could only be plaintext
             * smuggled past an encryption request. */
            if (tdb_pq_pending_input(port) > 0) {
                startup_fatal(be, SRV_ERRCODE_PROTOCOL_VIOLATION,
                              "received unencrypted data after %s request",
                              ssl_done && proto == PQ_NEGOTIATE_SSL_CODE
                                  ? "SSL"
                                  : "GSSAPI encryption");
                return false;
            }
            continue;
        }
        if (PQ_PROTOCOL_MAJOR(proto) != 3) {
            if (PQ_PROTOCOL_MAJOR(proto) < 3) {
                /* a pre-3.0 client reads only the old error layout */
                char text[160];

                snprintf(text, sizeof(text),
                         "FATAL:  unsupported frontend protocol %u.%u: "
                         "server supports 3.0 to 3.0\n",
                         (unsigned)PQ_PROTOCOL_MAJOR(proto),
                         (unsigned)PQ_PROTOCOL_MINOR(proto));
                tdb_pq_put_raw_byte(port, 'E');
                tdb_pq_put_string(port, text);
                (void)tdb_pq_flush(port);
                tdb_server_log(be->pid, "FATAL",
                               "unsupported frontend protocol %u.%u: server "
                               "supports 3.0 to 3.0",
                               (unsigned)PQ_PROTOCOL_MAJOR(proto),
                               (unsigned)PQ_PROTOCOL_MINOR(proto));
                return false;
            }
            startup_fatal(be, ERRCODE_FEATURE_NOT_SUPPORTED,
                          "unsupported frontend protocol %u.%u: server "
                          "supports 3.0 to 3.0",
                          (unsigned)PQ_PROTOCOL_MAJOR(proto),
                          (unsigned)PQ_PROTOCOL_MINOR(proto));
            return false;
        }
        if (!process_startup_message(be, &m, proto))
            return false;
        port->timeout_ms = -1;
        return true;
    }
}
