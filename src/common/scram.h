/*
 * scram.h -- the SCRAM-SHA-256 computations (RFC 5802, RFC 7677) that
 * do not depend on the protocol: PBKDF2 ("Hi"), the keys derived from a
 * salted password, PostgreSQL's text form of a stored verifier, and a
 * strong random source for salts and nonces.
 *
 *     SaltedPassword = Hi(password, salt, iterations)
 *     ClientKey = HMAC(SaltedPassword, "Client Key")
 *     StoredKey = SHA-256(ClientKey)
 *     ServerKey = HMAC(SaltedPassword, "Server Key")
 *
 * A verifier, as PostgreSQL stores it in pg_authid.rolpassword:
 *
 *     SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>
 *
 * with salt and keys in base64.  New verifiers use 4096 iterations and
 * a 16-byte random salt, PostgreSQL's defaults.  The password is used
 * as its bytes: PostgreSQL first normalizes it with SASLprep, which
 * leaves ASCII unchanged, so verifiers agree for ASCII passwords (and
 * for any password a client sends through the same libpq, since libpq
 * normalizes too only when it is valid UTF-8 without prohibited
 * characters) -- see common/README.md.
 *
 * No allocation: results go to caller buffers.
 */
#ifndef TDB_COMMON_SCRAM_H
#define TDB_COMMON_SCRAM_H

#include "common/base.h"
#include "common/sha256.h"

#define SCRAM_KEY_LEN SHA256_DIGEST_LENGTH
#define SCRAM_DEFAULT_ITERATIONS 4096
#define SCRAM_DEFAULT_SALT_LEN 16
#define SCRAM_MAX_SALT_LEN 64
/* Random bytes behind the server's nonce (PostgreSQL's length). */
#define SCRAM_RAW_NONCE_LEN 18
#define SCRAM_MECHANISM "SCRAM-SHA-256"
/* Room for any verifier this module writes or accepts. */
#define SCRAM_VERIFIER_MAXLEN 256

/* A parsed verifier. */
typedef struct ScramVerifier {
    int iterations;
    uint8 salt[SCRAM_MAX_SALT_LEN];
    int saltlen;
    uint8 stored_key[SCRAM_KEY_LEN];
    uint8 server_key[SCRAM_KEY_LEN];
} ScramVerifier;

/* Hi(password, salt, iterations): PBKDF2-HMAC-SHA-256, one block. */
void tdb_scram_salted_password(const char *password, Size pwlen,
                               const uint8 *salt, Size saltlen,
                               int iterations, uint8 out[SCRAM_KEY_LEN]);

/* HMAC(salted, "Client Key") / HMAC(salted, "Server Key"). */
void tdb_scram_client_key(const uint8 salted[SCRAM_KEY_LEN],
                          uint8 out[SCRAM_KEY_LEN]);
void tdb_scram_server_key(const uint8 salted[SCRAM_KEY_LEN],
                          uint8 out[SCRAM_KEY_LEN]);

/*
 * The verifier of password with the given salt and iterations, written
 * NUL-terminated into buf (SCRAM_VERIFIER_MAXLEN bytes).
 */
void tdb_scram_build_verifier(const char *password, const uint8 *salt,
                              int saltlen, int iterations, char *buf);

/*
 * Parse a verifier's text.  False if text is not one (then *out is
 * undefined): a wrong prefix, a non-positive iteration count, base64
 * that does not decode, keys that are not 32 bytes.
 */
bool tdb_scram_parse_verifier(const char *text, ScramVerifier *out);

/* Does password produce verifier v?  (The plain "password" method.) */
bool tdb_scram_verify_password(const ScramVerifier *v, const char *password);

/*
 * The exchange's two checks over AuthMessage (client-first-bare ","
 * server-first "," client-final-without-proof): does the client's proof
 * show it knows ClientKey (SHA-256(proof XOR HMAC(StoredKey, msg)) ==
 * StoredKey, compared in constant time)?  And the server's signature
 * HMAC(ServerKey, msg) that proves the server knows the verifier.
 */
bool tdb_scram_verify_client_proof(const ScramVerifier *v,
                                   const char *authmsg, Size len,
                                   const uint8 proof[SCRAM_KEY_LEN]);
void tdb_scram_server_signature(const ScramVerifier *v, const char *authmsg,
                                Size len, uint8 out[SCRAM_KEY_LEN]);

/* Compare len bytes in time that does not depend on where they differ. */
bool tdb_timingsafe_equal(const void *a, const void *b, Size len);

/*
 * Fill buf with len bytes from the kernel's random source (getrandom).
 * False if it is not available (the caller refuses to go on).
 */
bool tdb_strong_random(void *buf, Size len);

#endif /* TDB_COMMON_SCRAM_H */
