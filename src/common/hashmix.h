/*
 * hashmix.h -- murmurhash3's finalizers, the bit mixers of the hash
 * tables that need every input bit to reach the low bits a bucket is
 * chosen by: the buffer mapping table (storage), hash grouping keys
 * combined from several columns (executor), the detoast cache (toast).
 * PostgreSQL's murmurhash32 / murmurhash64 (common/hashfn.h) are the
 * same functions.
 */
#ifndef TDB_COMMON_HASHMIX_H
#define TDB_COMMON_HASHMIX_H

#include "common/base.h"

/* The 32-bit finalizer. */
static inline uint32
tdb_murmurhash32(uint32 k)
{
    k ^= k >> 16;
    k *= 0x85ebca6bU;
    k ^= k >> 13;
    k *= 0xc2b2ae35U;
    k ^= k >> 16;
    return k;
}

/* The 64-bit finalizer. */
static inline uint64
tdb_murmurhash64(uint64 k)
{
    k ^= k >> 33;
    k *= UINT64_C(0xff51afd7ed558ccd);
    k ^= k >> 33;
    k *= UINT64_C(0xc4ceb9fe1a85ec53);
    k ^= k >> 33;
    return k;
}

#endif /* TDB_COMMON_HASHMIX_H */
