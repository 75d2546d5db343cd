/*
 * packed.h -- inside the types layer: values packed one after another
 * the way PostgreSQL's arrays pack their elements, shared by arrays
 * (array.c) and anonymous records (record.c).
 *
 * A value sits at its type's alignment counted from the start of the
 * enclosing varlena (which readers keep 8-byte aligned): a by-value type
 * in its length, a fixed-length by-reference type as its bytes, a
 * varlena with a 4-byte header (never short, compressed or external).
 * Reads and writes go through memcpy, so a misaligned buffer is safe
 * for by-value types; by-reference values are returned as pointers into
 * the buffer.
 */
#ifndef TDB_TYPES_PACKED_H
#define TDB_TYPES_PACKED_H

#include "common/base.h"
#include "catalog/pg_type.h"

/* off rounded up to the alignment ('c', 's', 'i', 'd'). */
Size tdb_packed_align(Size off, char align);

/* The bytes v takes packed (a varlena's with a 4-byte header). */
Size tdb_packed_size(const TypeInfo *t, Datum v);

/* Write v at p; returns the byte after it. */
char *tdb_packed_store(const TypeInfo *t, char *p, Datum v);

/* The value packed at p. */
Datum tdb_packed_fetch(const TypeInfo *t, const char *p);

#endif /* TDB_TYPES_PACKED_H */
