/*
 * toast.h -- TOAST formats and constants shared by the toast layer's
 * parts: compression (compress.h), the chunk store (toast_store.h), the
 * toaster that decides what to compress or move out of line
 * (toaster.h) and detoasting with its per-query cache (detoast.h).
 *
 * The formats are PostgreSQL's (pg-internals.md §2):
 *
 *   compressed inline   [4B header (len << 2) | 0b10][va_tcinfo u32][data]
 *                       va_tcinfo: raw data size (header excluded) in the
 *                       low 30 bits, compression method id in the top 2
 *   external on disk    [0x01][18][varatt_external, 16 bytes, unaligned]
 *
 * A value stored out of line is compressed iff its extsize is smaller
 * than rawsize - VARHDRSZ (no flag); the bytes in the chunks are then
 * va_tcinfo followed by the compressed data (everything after the 4-byte
 * header), else the raw data.
 */
#ifndef TDB_TOAST_TOAST_H
#define TDB_TOAST_TOAST_H

#include "common/base.h"
#include "tuple/varlena.h"

/* ----- thresholds for 8 kB pages (PostgreSQL's values) ----- */

/* The toaster runs on a row whose data exceeds this (4 rows per page). */
#define TOAST_TUPLE_THRESHOLD 2032
/* ... and shrinks it until it fits this. */
#define TOAST_TUPLE_TARGET 2032
/* The target when MAIN columns go out of line: one row per page. */
#define TOAST_TUPLE_TARGET_MAIN 8160
/* Data bytes per chunk: a full chunk row is 2032 bytes, 4 per page. */
#define TOAST_MAX_CHUNK_SIZE 1996
/* Index values larger than this are compressed as the index tuple is
 * formed (PostgreSQL's TOAST_INDEX_TARGET, MaxHeapTupleSize / 16). */
#define TOAST_INDEX_TARGET 510
/* Only values larger than this are candidates (MAXALIGN(18)). */
#define TOAST_MIN_CANDIDATE 24
/* The largest value: a 30-bit length (1 GB - 1), header included. */
#define TOAST_MAX_VALUE_SIZE ((Size)0x3FFFFFFF)

/* ----- compression methods ----- */

/* The 2-bit method ids stored in va_tcinfo / va_extinfo. */
typedef enum ToastCompressionId {
    TOAST_PGLZ_COMPRESSION_ID = 0,
    TOAST_LZ4_COMPRESSION_ID = 1,
    TOAST_INVALID_COMPRESSION_ID = 2
} ToastCompressionId;

/* pg_attribute.attcompression: '\0' = default_toast_compression */
#define TOAST_COMPRESSION_DEFAULT '\0'
#define TOAST_COMPRESSION_PGLZ 'p'
#define TOAST_COMPRESSION_LZ4 'l'

#define VARLENA_EXTSIZE_BITS 30
#define VARLENA_EXTSIZE_MASK ((1U << VARLENA_EXTSIZE_BITS) - 1)

/* ----- storage strategies (pg_attribute.attstorage) ----- */
#define TYPSTORAGE_PLAIN 'p'
#define TYPSTORAGE_EXTERNAL 'e'
#define TYPSTORAGE_MAIN 'm'
#define TYPSTORAGE_EXTENDED 'x'

/* ----- the on-disk external pointer ----- */

/*
 * The 16-byte payload after [0x01][VARTAG_ONDISK].  Stored unaligned in
 * tuples: always memcpy it out (tdb_toast_pointer_get) before reading a
 * field.  No padding: UPDATE compares pointers with memcmp.
 */
typedef struct varatt_external {
    int32 va_rawsize;    /* original size incl. a 4-byte header */
    uint32 va_extinfo;   /* stored bytes (low 30) | method (top 2) */
    Oid va_valueid;      /* chunk_id in the toast relation */
    Oid va_toastrelid;   /* the toast relation's OID */
} varatt_external;

_Static_assert(sizeof(varatt_external) == 16, "varatt_external is 16 bytes");

/* Is v an on-disk external pointer? */
static inline bool
VARATT_IS_EXTERNAL_ONDISK(const void *v)
{
    return VARATT_IS_EXTERNAL(v) && VARTAG_1B_E(v) == VARTAG_ONDISK;
}

/* Compressed inline or external of any kind: needs detoasting. */
static inline bool
VARATT_IS_EXTENDED(const void *v)
{
    return !VARATT_IS_4B_U(v) && !VARATT_IS_SHORT(v);
}

/* Copy the pointer of an on-disk external value out of a tuple. */
static inline void
tdb_toast_pointer_get(const void *v, varatt_external *out)
{
    memcpy(out, (const char *)v + VARHDRSZ_EXTERNAL, sizeof(*out));
}

/* Write [0x01][18][ptr] into dst (TOAST_POINTER_SIZE bytes). */
static inline void
tdb_toast_pointer_set(void *dst, const varatt_external *ptr)
{
    ((uint8 *)dst)[0] = 0x01;
    ((uint8 *)dst)[1] = VARTAG_ONDISK;
    memcpy((char *)dst + VARHDRSZ_EXTERNAL, ptr, sizeof(*ptr));
}

static inline Size
VARATT_EXTERNAL_GET_EXTSIZE(const varatt_external *p)
{
    return p->va_extinfo & VARLENA_EXTSIZE_MASK;
}

static inline ToastCompressionId
VARATT_EXTERNAL_GET_COMPRESS_METHOD(const varatt_external *p)
{
    return (ToastCompressionId)(p->va_extinfo >> VARLENA_EXTSIZE_BITS);
}

/* Compressed iff fewer bytes were stored than the raw data has. */
static inline bool
VARATT_EXTERNAL_IS_COMPRESSED(const varatt_external *p)
{
    return VARATT_EXTERNAL_GET_EXTSIZE(p) <
           (Size)p->va_rawsize - (Size)VARHDRSZ;
}

/* ----- compressed inline values ----- */

static inline uint32
tdb_toast_tcinfo(const void *v)
{
    uint32 t;

    memcpy(&t, (const char *)v + VARHDRSZ, sizeof(t));
    return t;
}

/* Raw data size (header excluded) of a compressed inline value. */
static inline Size
VARDATA_COMPRESSED_GET_EXTSIZE(const void *v)
{
    return tdb_toast_tcinfo(v) & VARLENA_EXTSIZE_MASK;
}

static inline ToastCompressionId
VARDATA_COMPRESSED_GET_COMPRESS_METHOD(const void *v)
{
    return (ToastCompressionId)(tdb_toast_tcinfo(v) >> VARLENA_EXTSIZE_BITS);
}

#endif /* TDB_TOAST_TOAST_H */
