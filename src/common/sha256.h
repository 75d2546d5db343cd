/*
 * sha256.h -- SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), the
 * hash and MAC under SCRAM-SHA-256 authentication (common/scram.h).
 *
 *     Sha256Context c;                      several pieces
 *     tdb_sha256_init(&c);
 *     tdb_sha256_update(&c, a, alen);
 *     tdb_sha256_update(&c, b, blen);
 *     tdb_sha256_final(&c, digest);
 *
 *     tdb_sha256(data, len, digest);        one buffer
 *     tdb_hmac_sha256(key, klen, msg, mlen, mac);
 *
 * Everything is on the caller's stack: no allocation, no errors,
 * thread-safe.  Known-answer tests (FIPS 180-2 examples, RFC 4231) are
 * in tests/unit/common/test_scram.c.
 */
#ifndef TDB_COMMON_SHA256_H
#define TDB_COMMON_SHA256_H

#include "common/base.h"

#define SHA256_DIGEST_LENGTH 32
#define SHA256_BLOCK_LENGTH 64

typedef struct Sha256Context {
    uint32 state[8];
    uint64 nbytes;                     /* bytes hashed so far */
    uint8 block[SHA256_BLOCK_LENGTH];  /* a partial block */
    Size nblock;                       /* bytes in block */
} Sha256Context;

void tdb_sha256_init(Sha256Context *c);
void tdb_sha256_update(Sha256Context *c, const void *data, Size len);
/* Write the digest; c must be initialized again before reuse. */
void tdb_sha256_final(Sha256Context *c, uint8 digest[SHA256_DIGEST_LENGTH]);
void tdb_sha256(const void *data, Size len,
                uint8 digest[SHA256_DIGEST_LENGTH]);

/* HMAC-SHA-256 in pieces: init with the key, update, final. */
typedef struct HmacSha256Context {
    Sha256Context inner;
    uint8 outer_key[SHA256_BLOCK_LENGTH]; /* key XOR opad */
} HmacSha256Context;

void tdb_hmac_sha256_init(HmacSha256Context *h, const void *key, Size keylen);
void tdb_hmac_sha256_update(HmacSha256Context *h, const void *data, Size len);
void tdb_hmac_sha256_final(HmacSha256Context *h,
                           uint8 mac[SHA256_DIGEST_LENGTH]);
void tdb_hmac_sha256(const void *key, Size keylen, const void *data,
                     Size len, uint8 mac[SHA256_DIGEST_LENGTH]);

#endif /* TDB_COMMON_SHA256_H */
