/*
 * hashfn.h -- the hash functions behind the types' hash support routines
 * (TypeSupport.hash) and the SQL functions hashint4, hashtext, ...
 *
 * They compute exactly PostgreSQL's values (Bob Jenkins' lookup3 mixing
 * as PostgreSQL's hash_bytes applies it on a little-endian machine), so
 * hashint4(1) and hashtext('a') print the same numbers in tupledb and in
 * PostgreSQL, and a future hash partitioning agrees with PostgreSQL's.
 *
 * Cross-type rule: equal integers hash equal whatever their width
 * (tdb_hash_int64 of a value in int4 range equals tdb_hash_uint32 of it),
 * so int2/int4/int8 values can share one hash table.
 */
#ifndef TDB_TYPES_HASHFN_H
#define TDB_TYPES_HASHFN_H

#include "common/base.h"
#include "common/hashmix.h" /* tdb_murmurhash32 for combined keys */

/* Hash of len bytes at key (PostgreSQL's hash_bytes). */
uint32 tdb_hash_bytes(const void *key, Size len);

/* Hash of one 32-bit word (PostgreSQL's hash_bytes_uint32). */
uint32 tdb_hash_uint32(uint32 k);

/* Hash of an int8, equal to tdb_hash_uint32 for values in int4 range
 * (PostgreSQL's hashint8). */
uint32 tdb_hash_int64(int64 v);

#endif /* TDB_TYPES_HASHFN_H */
