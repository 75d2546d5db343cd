/*
 * scram.c -- SCRAM-SHA-256's key derivation and PostgreSQL's verifier
 * format (scram.h).  The protocol exchange itself is the server's
 * (server/auth_scram.c).
 */
#include "common/base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "common/base64.h"
#include "common/scram.h"

void
tdb_scram_salted_password(const char *password, Size pwlen,
                          const uint8 *salt, Size saltlen, int iterations,
                          uint8 out[SCRAM_KEY_LEN])
{
    static const uint8 block_one[4] = {0, 0, 0, 1}; /* INT(1) */
    HmacSha256Context keyed, h;
    uint8 u[SCRAM_KEY_LEN];

    /* The key is the same for every iteration: set it up once and copy. */
    tdb_hmac_sha256_init(&keyed, password, pwlen);

    /* U1 = HMAC(password, salt || INT(1)) */
    h = keyed;
    tdb_hmac_sha256_update(&h, salt, saltlen);
    tdb_hmac_sha256_update(&h, block_one, sizeof(block_one));
    tdb_hmac_sha256_final(&h, u);
    memcpy(out, u, SCRAM_KEY_LEN);

    /* Ui = HMAC(password, Ui-1); the result XORs them all */
    for (int i = 2; i <= iterations; i++) {
        h = keyed;
        tdb_hmac_sha256_update(&h, u, SCRAM_KEY_LEN);
        tdb_hmac_sha256_final(&h, u);
        for (int j = 0; j < SCRAM_KEY_LEN; j++)
            out[j] ^= u[j];
    }
    memset(&keyed, 0, sizeof(keyed));
    memset(u, 0, sizeof(u));
}

void
tdb_scram_client_key(const uint8 salted[SCRAM_KEY_LEN],
                     uint8 out[SCRAM_KEY_LEN])
{
    tdb_hmac_sha256(salted, SCRAM_KEY_LEN, "Client Key", 10, out);
}

void
tdb_scram_server_key(const uint8 salted[SCRAM_KEY_LEN],
                     uint8 out[SCRAM_KEY_LEN])
{
    tdb_hmac_sha256(salted, SCRAM_KEY_LEN, "Server Key", 10, out);
}

/* StoredKey and ServerKey of password under salt and iterations. */
static void
derive_keys(const char *password, const uint8 *salt, int saltlen,
            int iterations, uint8 stored[SCRAM_KEY_LEN],
            uint8 server[SCRAM_KEY_LEN])
{
    uint8 salted[SCRAM_KEY_LEN], client[SCRAM_KEY_LEN];

    tdb_scram_salted_password(password, strlen(password), salt,
                              (Size)saltlen, iterations, salted);
    tdb_scram_client_key(salted, client);
    tdb_sha256(client, SCRAM_KEY_LEN, stored);
    tdb_scram_server_key(salted, server);
    memset(salted, 0, sizeof(salted));
    memset(client, 0, sizeof(client));
}

void
tdb_scram_build_verifier(const char *password, const uint8 *salt,
                         int saltlen, int iterations, char *buf)
{
    uint8 stored[SCRAM_KEY_LEN], server[SCRAM_KEY_LEN];
    char salt64[SCRAM_MAX_SALT_LEN / 3 * 4 + 8];
    char stored64[48], server64[48];

    Assert(saltlen > 0 && saltlen <= SCRAM_MAX_SALT_LEN);
    derive_keys(password, salt, saltlen, iterations, stored, server);
    tdb_b64_encode(salt, (Size)saltlen, salt64);
    tdb_b64_encode(stored, SCRAM_KEY_LEN, stored64);
    tdb_b64_encode(server, SCRAM_KEY_LEN, server64);
    snprintf(buf, SCRAM_VERIFIER_MAXLEN, "%s$%d:%s$%s:%s", SCRAM_MECHANISM,
             iterations, salt64, stored64, server64);
}

/* Decode the base64 text [start, end) into dst (max bytes); want > 0:
 * exactly that many bytes.  The length, or -1. */
static int
decode_part(const char *start, const char *end, uint8 *dst, Size max,
            int want)
{
    uint8 tmp[SCRAM_MAX_SALT_LEN + 3];
    int n = tdb_b64_decode(start, (Size)(end - start), tmp, sizeof(tmp));

    if (n <= 0 || (Size)n > max || (want > 0 && n != want))
        return -1;
    memcpy(dst, tmp, (Size)n);
    return n;
}

bool
tdb_scram_parse_verifier(const char *text, ScramVerifier *out)
{
    const char *p = text, *colon, *dollar, *colon2;
    char *end;
    long iterations;
    Size prefix = strlen(SCRAM_MECHANISM);

    if (strncmp(p, SCRAM_MECHANISM, prefix) != 0 || p[prefix] != '$')
        return false;
    p += prefix + 1;
    errno = 0;
    iterations = strtol(p, &end, 10);
    if (end == p || *end != ':' || errno != 0 || iterations <= 0 ||
        iterations > INT32_MAX)
        return false;
    out->iterations = (int)iterations;
    colon = end;
    dollar = strchr(colon + 1, '$');
    if (dollar == NULL)
        return false;
    out->saltlen = decode_part(colon + 1, dollar, out->salt,
                               sizeof(out->salt), 0);
    if (out->saltlen < 0)
        return false;
    colon2 = strchr(dollar + 1, ':');
    if (colon2 == NULL)
        return false;
    return decode_part(dollar + 1, colon2, out->stored_key, SCRAM_KEY_LEN,
                       SCRAM_KEY_LEN) > 0 &&
           decode_part(colon2 + 1, colon2 + 1 + strlen(colon2 + 1),
                       out->server_key, SCRAM_KEY_LEN,
                       SCRAM_KEY_LEN) > 0;
}

bool
tdb_scram_verify_password(const ScramVerifier *v, const char *password)
{
    uint8 stored[SCRAM_KEY_LEN], server[SCRAM_KEY_LEN];
    bool ok;

    derive_keys(password, v->salt, v->saltlen, v->iterations, stored,
                server);
    ok = tdb_timingsafe_equal(stored, v->stored_key, SCRAM_KEY_LEN) &
         tdb_timingsafe_equal(server, v->server_key, SCRAM_KEY_LEN);
    return ok;
}

bool
tdb_timingsafe_equal(const void *a, const void *b, Size len)
{
    const volatile uint8 *x = a, *y = b;
    uint8 diff = 0;

    for (Size i = 0; i < len; i++)
        diff |= (uint8)(x[i] ^ y[i]);
    return diff == 0;
}

bool
tdb_strong_random(void *buf, Size len)
{
    uint8 *p = buf;

    while (len > 0) {
        ssize_t n = getrandom(p, len, 0);

        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        p += n;
        len -= (Size)n;
    }
    return true;
}

bool
tdb_scram_verify_client_proof(const ScramVerifier *v, const char *authmsg,
                              Size len, const uint8 proof[SCRAM_KEY_LEN])
{
    uint8 signature[SCRAM_KEY_LEN], client_key[SCRAM_KEY_LEN];
    uint8 stored[SCRAM_KEY_LEN];

    /* ClientKey = ClientProof XOR HMAC(StoredKey, AuthMessage) */
    tdb_hmac_sha256(v->stored_key, SCRAM_KEY_LEN, authmsg, len, signature);
    for (int i = 0; i < SCRAM_KEY_LEN; i++)
        client_key[i] = proof[i] ^ signature[i];
    tdb_sha256(client_key, SCRAM_KEY_LEN, stored);
    return tdb_timingsafe_equal(stored, v->stored_key, SCRAM_KEY_LEN);
}

void
tdb_scram_server_signature(const ScramVerifier *v, const char *authmsg,
                           Size len, uint8 out[SCRAM_KEY_LEN])
{
    tdb_hmac_sha256(v->server_key, SCRAM_KEY_LEN, authmsg, len, out);
}
