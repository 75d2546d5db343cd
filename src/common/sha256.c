/*
 * sha256.c -- SHA-256 (FIPS 180-4 section 6.2) and HMAC-SHA-256
 * (RFC 2104); see sha256.h.
 *
 * The compression function works on one 64-byte block: the message
 * schedule W[0..63] (16 big-endian words, then the sigma0/sigma1
 * recurrence) and 64 rounds over the eight working variables.  Input
 * is buffered up to a block; final pads with 0x80, zeros, and the
 * message length in bits as a big-endian 64-bit number.  Speed does not
 * matter here (a few thousand blocks per login), clarity does.
 */
#include "common/base.h"

#include <string.h>

#include "common/sha256.h"

/* The first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes (FIPS 180-4, 4.2.2). */
static const uint32 round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32
rotr(uint32 x, int n)
{
    return (x >> n) | (x << (32 - n));
}

static inline uint32
load_be32(const uint8 *p)
{
    return ((uint32)p[0] << 24) | ((uint32)p[1] << 16) |
           ((uint32)p[2] << 8) | (uint32)p[3];
}

static inline void
store_be32(uint8 *p, uint32 v)
{
    p[0] = (uint8)(v >> 24);
    p[1] = (uint8)(v >> 16);
    p[2] = (uint8)(v >> 8);
    p[3] = (uint8)v;
}

/* Fold one 64-byte block into the state. */
static void
compress(uint32 state[8], const uint8 *block)
{
    uint32 w[64];
    uint32 a = state[0], b = state[1], c = state[2], d = state[3];
    uint32 e = state[4], f = state[5], g = state[6], h = state[7];

    for (int t = 0; t < 16; t++)
        w[t] = load_be32(block + 4 * t);
    for (int t = 16; t < 64; t++) {
        uint32 s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^
                    (w[t - 15] >> 3);
        uint32 s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^
                    (w[t - 2] >> 10);

        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    for (int t = 0; t < 64; t++) {
        uint32 sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        uint32 choose = (e & f) ^ (~e & g);
        uint32 t1 = h + sum1 + choose + round_constants[t] + w[t];
        uint32 sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        uint32 majority = (a & b) ^ (a & c) ^ (b & c);
        uint32 t2 = sum0 + majority;

        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

void
tdb_sha256_init(Sha256Context *c)
{
    /* the fractional parts of the square roots of the first 8 primes */
    static const uint32 initial[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };

    memcpy(c->state, initial, sizeof(initial));
    c->nbytes = 0;
    c->nblock = 0;
}

void
tdb_sha256_update(Sha256Context *c, const void *data, Size len)
{
    const uint8 *p = data;

    c->nbytes += len;
    while (len > 0) {
        Size take = SHA256_BLOCK_LENGTH - c->nblock;

        if (take > len)
            take = len;
        if (c->nblock == 0 && len >= SHA256_BLOCK_LENGTH) {
            compress(c->state, p); /* a whole block: no copy */
            take = SHA256_BLOCK_LENGTH;
        } else {
            memcpy(c->block + c->nblock, p, take);
            c->nblock += take;
            if (c->nblock == SHA256_BLOCK_LENGTH) {
                compress(c->state, c->block);
                c->nblock = 0;
            }
        }
        p += take;
        len -= take;
    }
}

void
tdb_sha256_final(Sha256Context *c, uint8 digest[SHA256_DIGEST_LENGTH])
{
    uint64 nbits = c->nbytes * 8;

    c->block[c->nblock++] = 0x80;
    if (c->nblock > SHA256_BLOCK_LENGTH - 8) {
        memset(c->block + c->nblock, 0, SHA256_BLOCK_LENGTH - c->nblock);
        compress(c->state, c->block);
        c->nblock = 0;
    }
    memset(c->block + c->nblock, 0, SHA256_BLOCK_LENGTH - 8 - c->nblock);
    store_be32(c->block + 56, (uint32)(nbits >> 32));
    store_be32(c->block + 60, (uint32)nbits);
    compress(c->state, c->block);
    for (int i = 0; i < 8; i++)
        store_be32(digest + 4 * i, c->state[i]);
    memset(c, 0, sizeof(*c)); /* no key material left behind */
}

void
tdb_sha256(const void *data, Size len, uint8 digest[SHA256_DIGEST_LENGTH])
{
    Sha256Context c;

    tdb_sha256_init(&c);
    tdb_sha256_update(&c, data, len);
    tdb_sha256_final(&c, digest);
}

/* ----------------------------------------------------------------------
 * HMAC: H((K ^ opad) || H((K ^ ipad) || m)), a key longer than a block
 * replaced by its hash first.
 * ---------------------------------------------------------------------- */

void
tdb_hmac_sha256_init(HmacSha256Context *h, const void *key, Size keylen)
{
    uint8 k[SHA256_BLOCK_LENGTH] = {0};
    uint8 inner_key[SHA256_BLOCK_LENGTH];

    if (keylen > SHA256_BLOCK_LENGTH)
        tdb_sha256(key, keylen, k);
    else if (keylen > 0)
        memcpy(k, key, keylen);
    for (int i = 0; i < SHA256_BLOCK_LENGTH; i++) {
        inner_key[i] = k[i] ^ 0x36;
        h->outer_key[i] = k[i] ^ 0x5c;
    }
    tdb_sha256_init(&h->inner);
    tdb_sha256_update(&h->inner, inner_key, sizeof(inner_key));
    memset(k, 0, sizeof(k));
    memset(inner_key, 0, sizeof(inner_key));
}

void
tdb_hmac_sha256_update(HmacSha256Context *h, const void *data, Size len)
{
    tdb_sha256_update(&h->inner, data, len);
}

void
tdb_hmac_sha256_final(HmacSha256Context *h, uint8 mac[SHA256_DIGEST_LENGTH])
{
    uint8 inner[SHA256_DIGEST_LENGTH];
    Sha256Context outer;

    tdb_sha256_final(&h->inner, inner);
    tdb_sha256_init(&outer);
    tdb_sha256_update(&outer, h->outer_key, sizeof(h->outer_key));
    tdb_sha256_update(&outer, inner, sizeof(inner));
    tdb_sha256_final(&outer, mac);
    memset(h, 0, sizeof(*h));
}

void
tdb_hmac_sha256(const void *key, Size keylen, const void *data, Size len,
                uint8 mac[SHA256_DIGEST_LENGTH])
{
    HmacSha256Context h;

    tdb_hmac_sha256_init(&h, key, keylen);
    tdb_hmac_sha256_update(&h, data, len);
    tdb_hmac_sha256_final(&h, mac);
}
