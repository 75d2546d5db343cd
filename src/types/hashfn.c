/*
 * hashfn.c -- PostgreSQL-compatible hashing of bytes and integers
 * (hashfn.h).
 *
 * The mixing is Bob Jenkins' public-domain lookup3: three 32-bit lanes
 * a, b, c start at 0x9e3779b9 + length + 3923095 (PostgreSQL's seed),
 * absorb the key twelve bytes at a time (little-endian words) with
 * mix(), absorb the 0..11 remaining bytes, then go through final(); c
 * is the hash.  In the tail the bytes destined for c are shifted up by
 * one byte, as lookup3 reserves c's low byte for the length.
 */
#include "common/base.h"

#include <string.h>

#include "types/hashfn.h"

#define HASH_SEED 0x9e3779b9u
#define HASH_EXTRA 3923095u

static inline uint32
rot32(uint32 x, int k)
{
    return (x << k) | (x >> (32 - k));
}

typedef struct HashLanes {
    uint32 a, b, c;
} HashLanes;

static inline void
hash_mix(HashLanes *h)
{
    h->a -= h->c; h->a ^= rot32(h->c, 4);  h->c += h->b;
    h->b -= h->a; h->b ^= rot32(h->a, 6);  h->a += h->c;
    h->c -= h->b; h->c ^= rot32(h->b, 8);  h->b += h->a;
    h->a -= h->c; h->a ^= rot32(h->c, 16); h->c += h->b;
    h->b -= h->a; h->b ^= rot32(h->a, 19); h->a += h->c;
    h->c -= h->b; h->c ^= rot32(h->b, 4);  h->b += h->a;
}

static inline void
hash_final(HashLanes *h)
{
    h->c ^= h->b; h->c -= rot32(h->b, 14);
    h->a ^= h->c; h->a -= rot32(h->c, 11);
    h->b ^= h->a; h->b -= rot32(h->a, 25);
    h->c ^= h->b; h->c -= rot32(h->b, 16);
    h->a ^= h->c; h->a -= rot32(h->c, 4);
    h->b ^= h->a; h->b -= rot32(h->a, 14);
    h->c ^= h->b; h->c -= rot32(h->b, 24);
}

/* Up to four bytes as the low bytes of a little-endian word. */
static inline uint32
load_le(const uint8 *p, Size n)
{
    uint32 w = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n == 4) {
        /* a whole word: one load (the loop below was 4 byte loads,
         * shifts and ORs per word of every hashed string) */
        memcpy(&w, p, 4);
        return w;
    }
#endif

    for (Size i = 0; i < n; i++)
        w |= (uint32)p[i] << (8 * i);
    return w;
}

uint32
tdb_hash_bytes(const void *key, Size len)
{
    const uint8 *k = key;
    HashLanes h;
    Size rest = len;

    h.a = h.b = h.c = HASH_SEED + (uint32)len + HASH_EXTRA;
    for (; rest >= 12; rest -= 12, k += 12) {
        h.a += load_le(k, 4);
        h.b += load_le(k + 4, 4);
        h.c += load_le(k + 8, 4);
        hash_mix(&h);
    }
    /* the 0..11 remaining bytes: a takes 0-3, b 4-7, c 8-10 (shifted) */
    h.a += load_le(k, rest < 4 ? rest : 4);
    if (rest > 4)
        h.b += load_le(k + 4, rest < 8 ? rest - 4 : 4);
    if (rest > 8)
        h.c += load_le(k + 8, rest - 8) << 8;
    hash_final(&h);
    return h.c;
}

uint32
tdb_hash_uint32(uint32 k)
{
    HashLanes h;

    h.a = h.b = h.c = HASH_SEED + (uint32)sizeof(uint32) + HASH_EXTRA;
    h.a += k;
    hash_final(&h);
    return h.c;
}

uint32
tdb_hash_int64(int64 v)
{
    uint32 lo = (uint32)v;
    uint32 hi = (uint32)((uint64)v >> 32);

    /* fold the high half in so that values in int4 range keep lo as is */
    lo ^= v >= 0 ? hi : ~hi;
    return tdb_hash_uint32(lo);
}
