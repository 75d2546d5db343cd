/*
 * auth.c -- client authentication (PostgreSQL's ClientAuthentication and
 * the role checks of InitPostgres), after the StartupMessage:
 *
 *     pg_hba.conf line for (local|host, address, database, user)
 *        none    --> FATAL 28000 no pg_hba.conf entry for host ...
 *        reject  --> FATAL 28000 pg_hba.conf rejects connection ...
 *        trust   --> ok
 *        scram-sha-256 --> R/10 "SCRAM-SHA-256"
 *                          <- p SASLInitialResponse: client-first
 *                          R/11 server-first (nonce, salt, iterations)
 *                          <- p SASLResponse: client-final with proof
 *                          R/12 server-final "v=<signature>"
 *        password --> R/3, <- p clear-text password
 *     R/0 AuthenticationOk
 *     role missing   --> FATAL 28000 role "x" does not exist
 *     role NOLOGIN   --> FATAL 28000 role "x" is not permitted to log in
 *
 * A wrong password, a role without a password (or without a SCRAM
 * verifier) and a role that does not exist all end the same way --
 * FATAL 28P01 password authentication failed for user "x" -- and only
 * after the whole exchange: for a role that is missing, the salt is made
 * up from a per-server secret and the user name (PostgreSQL's mock
 * salt), so it is the same on every attempt and the exchange cannot tell
 * whether the role exists.  The reason goes to the server log as DETAIL.
 * A message that breaks the SCRAM grammar is FATAL 08P01 "malformed
 * SCRAM message" (PostgreSQL's wording).  A client that disconnects
 * mid-exchange (psql does, to prompt for a password) ends the
 * connection quietly.  The proof is compared in constant time.
 *
 * Nothing here raises: every failure sends its FATAL and returns false,
 * and the caller closes the connection.
 */
#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/base64.h"
#include "common/scram.h"
#include "server/server_int.h"

/* PostgreSQL's limit on an authentication message (PG_MAX_AUTH_TOKEN_LENGTH). */
#define AUTH_MAX_MESSAGE 65535

/* A formatted string in the current memory context. */
TDB_PRINTF(1, 2)
static char *
auth_printf(const char *fmt, ...)
{
    va_list args;
    int len;
    char *buf;

    va_start(args, fmt);
    len = vsnprintf(NULL, 0, fmt, args);
    va_end(args);
    buf = tdb_palloc((Size)len + 1);
    va_start(args, fmt);
    (void)vsnprintf(buf, (Size)len + 1, fmt, args);
    va_end(args);
    return buf;
}

/* len bytes of a message as a NUL-terminated string (current context). */
static char *
copy_bytes(const char *data, int len)
{
    char *s = tdb_palloc((Size)len + 1);

    memcpy(s, data, (Size)len);
    s[len] = '\0';
    return s;
}

/* How an authentication step ended. */
typedef enum AuthResult {
    AUTH_OK,
    AUTH_FAILED, /* wrong password and friends: 28P01 follows */
    AUTH_ENDED,  /* a FATAL was sent already, or the client left */
} AuthResult;

/* Send a FATAL with a message (and a detail for the log only). */
TDB_PRINTF(4, 5)
static void
auth_fatal(Backend *be, int sqlerrcode, const char *log_detail,
           const char *fmt, ...)
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
    if (log_detail != NULL)
        tdb_server_log(be->pid, "DETAIL", "%s", log_detail);
    tdb_backend_send_error(be, &e, FATAL);
    (void)tdb_pq_flush(&be->port);
}

/* FATAL 08P01 "malformed SCRAM message" with a detail the client sees. */
static AuthResult
malformed(Backend *be, const char *detail)
{
    ErrorData e;

    memset(&e, 0, sizeof(e));
    e.elevel = FATAL;
    e.sqlerrcode = SRV_ERRCODE_PROTOCOL_VIOLATION;
    snprintf(e.message, sizeof(e.message), "malformed SCRAM message");
    snprintf(e.detail, sizeof(e.detail), "%s", detail);
    tdb_server_log(be->pid, "FATAL", "%s", e.message);
    tdb_server_log(be->pid, "DETAIL", "%s", e.detail);
    tdb_backend_send_error(be, &e, FATAL);
    (void)tdb_pq_flush(&be->port);
    return AUTH_ENDED;
}

/* Send an Authentication message: code, then len bytes of data. */
static void
send_auth(Backend *be, int32 code, const void *data, size_t len)
{
    tdb_pq_begin(&be->port, 'R');
    tdb_pq_put_int32(&be->port, code);
    if (len > 0)
        tdb_pq_put_bytes(&be->port, data, len);
    tdb_pq_end(&be->port);
}

/*
 * Send what is buffered and read the client's 'p' answer into *m.
 * AUTH_ENDED if the client left or sent something else (then FATAL
 * 08P01 "expected <what> response, got message type N").
 */
static AuthResult
read_response(Backend *be, const char *what, PqMsg *m)
{
    int rc;

    if (!tdb_pq_flush(&be->port))
        return AUTH_ENDED;
    rc = tdb_pq_read_message(&be->port, false, AUTH_MAX_MESSAGE, be->msg_cxt,
                             m);
    if (rc == PQ_EOF || rc == PQ_STOP)
        return AUTH_ENDED; /* psql reconnects after asking for a password */
    if (rc == PQ_TIMEOUT) {
        tdb_server_log(be->pid, "FATAL",
                       "canceling authentication due to timeout");
        return AUTH_ENDED;
    }
    if (rc == PQ_BAD_LENGTH) {
        auth_fatal(be, SRV_ERRCODE_PROTOCOL_VIOLATION, NULL,
                   "invalid message length");
        return AUTH_ENDED;
    }
    if (m->type != 'p') {
        auth_fatal(be, SRV_ERRCODE_PROTOCOL_VIOLATION, NULL,
                   "expected %s response, got message type %d", what,
                   (int)(unsigned char)m->type);
        return AUTH_ENDED;
    }
    return AUTH_OK;
}

/* ----------------------------------------------------------------------
 * SCRAM-SHA-256
 * ---------------------------------------------------------------------- */

/* The state of one exchange. */
typedef struct ScramState {
    ScramVerifier verifier;
    bool doomed;              /* fail at the end whatever the proof */
    char gs2_header[4];       /* "n,," or "y,," */
    char *client_first_bare;  /* msg_cxt copies, until the end */
    char *client_nonce;
    char server_first[512];
    char full_nonce[128];
} ScramState;

/*
 * The verifier to run the exchange against: the role's, or a mock one
 * (same salt every time for the same name) when there is none to use.
 */
static void
choose_verifier(Backend *be, const RoleInfo *role, ScramState *st)
{
    uint8 mac[SHA256_DIGEST_LENGTH];

    if (role != NULL && role->password != NULL &&
        tdb_scram_parse_verifier(role->password, &st->verifier))
        return;
    st->doomed = true;
    tdb_hmac_sha256(be->srv->mock_secret, sizeof(be->srv->mock_secret),
                    be->user, strlen(be->user), mac);
    memset(&st->verifier, 0, sizeof(st->verifier));
    st->verifier.iterations = SCRAM_DEFAULT_ITERATIONS;
    st->verifier.saltlen = SCRAM_DEFAULT_SALT_LEN;
    memcpy(st->verifier.salt, mac, SCRAM_DEFAULT_SALT_LEN);
    memcpy(st->verifier.stored_key, mac, SCRAM_KEY_LEN);
}

/* A printable attribute value ends at ',' or the end; NUL-terminates it
 * in place and advances *p past the comma. */
static char *
take_value(char **p)
{
    char *start = *p, *comma = strchr(start, ',');

    if (comma != NULL) {
        *comma = '\0';
        *p = comma + 1;
    } else
        *p = start + strlen(start);
    return start;
}

/* Expect "<attr>=" at *p; false if something else is there. */
static bool
take_attr(char **p, char attr)
{
    if ((*p)[0] != attr || (*p)[1] != '=')
        return false;
    *p += 2;
    return true;
}

/* The client-first-message (data, len bytes; NUL-terminated). */
static AuthResult
read_client_first(Backend *be, ScramState *st, char *data, int len)
{
    char *p = data, *bare;

    if (len <= 0 || (int)strlen(data) != len)
        return malformed(be, "The message is empty.");
    switch (*p) {
    case 'n':
    case 'y':
        snprintf(st->gs2_header, sizeof(st->gs2_header), "%c,,", *p);
        p++;
        break;
    case 'p':
        return malformed(be, "The client selected SCRAM-SHA-256 without "
                             "channel binding, but the SCRAM message "
                             "includes channel binding data.");
    default:
        return malformed(be, "Unexpected channel-binding flag.");
    }
    if (*p++ != ',')
        return malformed(be, "Comma expected.");
    if (*p == 'a') {
        auth_fatal(be, ERRCODE_FEATURE_NOT_SUPPORTED, NULL,
                   "client uses authorization identity, but it is not "
                   "supported");
        return AUTH_ENDED;
    }
    if (*p++ != ',')
        return malformed(be, "Comma expected.");
    bare = p;
    st->client_first_bare = tdb_mcxt_strdup(be->msg_cxt, bare);
    if (*p == 'm') {
        auth_fatal(be, ERRCODE_FEATURE_NOT_SUPPORTED, NULL,
                   "client requires an unsupported SCRAM extension");
        return AUTH_ENDED;
    }
    /* n=<user>: ignored, the startup packet's user counts (as in PG) */
    if (!take_attr(&p, 'n'))
        return malformed(be, "Expected attribute \"n\".");
    (void)take_value(&p);
    if (!take_attr(&p, 'r'))
        return malformed(be, "Expected attribute \"r\".");
    st->client_nonce = take_value(&p);
    if (st->client_nonce[0] == '\0' ||
        strlen(st->client_nonce) > sizeof(st->full_nonce) / 2)
        return malformed(be, "Invalid nonce.");
    for (const char *c = st->client_nonce; *c != '\0'; c++)
        if (*c < 0x21 || *c > 0x7e)
            return malformed(be, "Non-printable characters in the nonce.");
    st->client_nonce = tdb_mcxt_strdup(be->msg_cxt, st->client_nonce);
    return AUTH_OK;
}

/* The server-first-message: our nonce, the salt, the iterations. */
static AuthResult
send_server_first(Backend *be, ScramState *st)
{
    uint8 raw[SCRAM_RAW_NONCE_LEN];
    char nonce[48], salt[SCRAM_MAX_SALT_LEN * 2];

    if (!tdb_strong_random(raw, sizeof(raw))) {
        auth_fatal(be, ERRCODE_INTERNAL_ERROR, NULL,
                   "could not generate random nonce");
        return AUTH_ENDED;
    }
    tdb_b64_encode(raw, sizeof(raw), nonce);
    tdb_b64_encode(st->verifier.salt, (Size)st->verifier.saltlen, salt);
    snprintf(st->full_nonce, sizeof(st->full_nonce), "%s%s",
             st->client_nonce, nonce);
    snprintf(st->server_first, sizeof(st->server_first), "r=%s,s=%s,i=%d",
             st->full_nonce, salt, st->verifier.iterations);
    send_auth(be, SRV_AUTH_SASL_CONTINUE, st->server_first,
              strlen(st->server_first));
    return AUTH_OK;
}

/*
 * The client-final-message: channel binding, nonce, proof.  Verifies
 * the proof and sends the server-final-message.
 */
static AuthResult
read_client_final(Backend *be, ScramState *st, char *data, int len)
{
    char *p = data, *binding, *nonce, *without_proof, *authmsg, *proof64;
    char expected_binding[8], signature64[48], final[64];
    uint8 proof[SCRAM_KEY_LEN + 3], signature[SCRAM_KEY_LEN];
    Size without_len;

    if (len <= 0 || (int)strlen(data) != len)
        return malformed(be, "The message is empty.");
    if (!take_attr(&p, 'c'))
        return malformed(be, "Expected attribute \"c\".");
    binding = take_value(&p);
    tdb_b64_encode(st->gs2_header, 3, expected_binding);
    if (strcmp(binding, expected_binding) != 0) {
        auth_fatal(be, SRV_ERRCODE_PROTOCOL_VIOLATION, NULL,
                   "SCRAM channel binding check failed");
        return AUTH_ENDED;
    }
    if (!take_attr(&p, 'r'))
        return malformed(be, "Expected attribute \"r\".");
    nonce = take_value(&p);
    if (strcmp(nonce, st->full_nonce) != 0)
        return malformed(be, "Nonce does not match.");
    /* extensions, then p=<proof> last */
    while (*p != '\0' && !(p[0] == 'p' && p[1] == '='))
        (void)take_value(&p);
    if (!take_attr(&p, 'p'))
        return malformed(be, "Could not find proof in client-final-message.");
    proof64 = p;
    if (strchr(proof64, ',') != NULL ||
        tdb_b64_decode(proof64, strlen(proof64), proof, sizeof(proof)) !=
            SCRAM_KEY_LEN)
        return malformed(be, "Malformed proof in client-final-message.");

    /* client-final-without-proof: the bytes before ",p=" */
    without_len = (Size)(proof64 - 3 - data);
    without_proof = tdb_mcxt_alloc(be->msg_cxt, without_len + 1);
    memcpy(without_proof, data, without_len);
    without_proof[without_len] = '\0';
    /* take_value wrote NULs over the commas: put them back */
    for (Size i = 0; i < without_len; i++)
        if (without_proof[i] == '\0')
            without_proof[i] = ',';
    authmsg = auth_printf("%s,%s,%s", st->client_first_bare,
                           st->server_first, without_proof);

    if (!tdb_scram_verify_client_proof(&st->verifier, authmsg,
                                       strlen(authmsg), proof) ||
        st->doomed)
        return AUTH_FAILED;
    tdb_scram_server_signature(&st->verifier, authmsg, strlen(authmsg),
                               signature);
    tdb_b64_encode(signature, sizeof(signature), signature64);
    snprintf(final, sizeof(final), "v=%s", signature64);
    send_auth(be, SRV_AUTH_SASL_FINAL, final, strlen(final));
    return AUTH_OK;
}

/* The whole SCRAM-SHA-256 exchange (role NULL: it does not exist). */
static AuthResult
scram_exchange(Backend *be, const RoleInfo *role)
{
    static const char mechanisms[] = SCRAM_MECHANISM "\0";
    ScramState st;
    PqMsg m;
    AuthResult r;
    const char *mech;
    int32 len;
    const char *data;

    memset(&st, 0, sizeof(st));
    choose_verifier(be, role, &st);
    send_auth(be, SRV_AUTH_SASL, mechanisms, sizeof(mechanisms));
    if ((r = read_response(be, "SASL", &m)) != AUTH_OK)
        return r;
    mech = tdb_pq_get_string(&m);
    len = tdb_pq_get_int32(&m);
    if (m.bad) {
        auth_fatal(be, SRV_ERRCODE_PROTOCOL_VIOLATION, NULL,
                   "invalid SASL initial response message");
        return AUTH_ENDED;
    }
    if (strcmp(mech, SCRAM_MECHANISM) != 0) {
        auth_fatal(be, SRV_ERRCODE_PROTOCOL_VIOLATION, NULL,
                   "client selected an invalid SASL authentication "
                   "mechanism");
        return AUTH_ENDED;
    }
    data = len >= 0 ? tdb_pq_get_bytes(&m, len) : NULL;
    if (data == NULL || !tdb_pq_get_end(&m))
        return malformed(be, "The message is empty.");
    if ((r = read_client_first(be, &st, copy_bytes(data, len),
                               len)) != AUTH_OK ||
        (r = send_server_first(be, &st)) != AUTH_OK)
        return r;
    if ((r = read_response(be, "SASL", &m)) != AUTH_OK)
        return r;
    return read_client_final(be, &st, copy_bytes(m.data, m.len),
                             m.len);
}

/* The "password" method: the password in clear text, checked against
 * the role's verifier. */
static AuthResult
password_exchange(Backend *be, const RoleInfo *role)
{
    ScramVerifier v;
    PqMsg m;
    AuthResult r;
    const char *password;

    send_auth(be, SRV_AUTH_CLEARTEXT, NULL, 0);
    if ((r = read_response(be, "password", &m)) != AUTH_OK)
        return r;
    password = tdb_pq_get_string(&m);
    if (!tdb_pq_get_end(&m)) {
        auth_fatal(be, SRV_ERRCODE_PROTOCOL_VIOLATION, NULL,
                   "invalid password packet size");
        return AUTH_ENDED;
    }
    if (role == NULL || role->password == NULL ||
        !tdb_scram_parse_verifier(role->password, &v) ||
        !tdb_scram_verify_password(&v, password))
        return AUTH_FAILED;
    return AUTH_OK;
}

/* ----------------------------------------------------------------------
 * The entry point
 * ---------------------------------------------------------------------- */

/* Why a password check failed, for the log's DETAIL. */
static const char *
failure_detail(const RoleInfo *role, bool found, const HbaLine *line)
{
    char *detail = !found ? auth_printf("Role \"%s\" does not exist.",
                                        role->name)
                   : role->password == NULL
                       ? auth_printf("User \"%s\" has no password assigned.",
                                     role->name)
                       : "";

    return auth_printf("%s%sConnection matched pg_hba.conf line %d: \"%s\"",
                        detail, detail[0] != '\0' ? "\n\t" : "",
                        line->lineno, line->text);
}

bool
tdb_backend_authenticate(Backend *be)
{
    const char *host = be->port.is_unix ? "[local]" : be->port.remote_host;
    const HbaLine *line = tdb_hba_match(tdb_server_hba(be->srv),
                                        be->port.is_unix,
                                        be->port.remote_host, be->database,
                                        be->user);
    ErrorData err;
    RoleInfo role;
    bool found;
    AuthResult r = AUTH_OK;

    if (line == NULL) {
        auth_fatal(be, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION, NULL,
                   "no pg_hba.conf entry for host \"%s\", user \"%s\", "
                   "database \"%s\", no encryption",
                   host, be->user, be->database);
        return false;
    }
    if (line->method == HBA_REJECT) {
        auth_fatal(be, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION, NULL,
                   "pg_hba.conf rejects connection for host \"%s\", user "
                   "\"%s\", database \"%s\", no encryption",
                   host, be->user, be->database);
        return false;
    }
    found = tdb_session_lookup_role(be->session, be->user, &role, &err);
    if (!found && err.sqlerrcode != 0) {
        tdb_server_log(be->pid, "FATAL", "%s", err.message);
        tdb_backend_send_error(be, &err, FATAL);
        (void)tdb_pq_flush(&be->port);
        return false;
    }
    if (!found)
        snprintf(role.name, sizeof(role.name), "%s", be->user);
    if (line->method == HBA_SCRAM)
        r = scram_exchange(be, found ? &role : NULL);
    else if (line->method == HBA_PASSWORD)
        r = password_exchange(be, found ? &role : NULL);
    if (r == AUTH_ENDED)
        return false;
    if (r == AUTH_FAILED) {
        auth_fatal(be, ERRCODE_INVALID_PASSWORD,
                   failure_detail(&role, found, line),
                   "password authentication failed for user \"%s\"",
                   be->user);
        return false;
    }

    send_auth(be, SRV_AUTH_OK, NULL, 0);
    if (!found) {
        auth_fatal(be, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION, NULL,
                   "role \"%s\" does not exist", be->user);
        return false;
    }
    if (!role.canlogin) {
        auth_fatal(be, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION, NULL,
                   "role \"%s\" is not permitted to log in", be->user);
        return false;
    }
    tdb_session_set_user(be->session, role.oid, role.name);
    be->is_superuser = role.superuser;
    return true;
}
