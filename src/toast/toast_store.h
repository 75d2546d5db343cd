/*
 * toast_store.h -- the out-of-line chunk store: a value's bytes written
 * as chunk rows of a table's TOAST relation, read back whole or as a
 * slice, and deleted.
 *
 * The toast relation is an ordinary heap relation with PostgreSQL's
 * columns (chunk_id oid, chunk_seq int4, chunk_data bytea, all PLAIN);
 * its rows are PostgreSQL heap tuples.  The pointer kept in the owning
 * row is PostgreSQL's varatt_external (toast.h).  What differs is how a
 * value's chunks are found: tupledb has no btree yet, so va_valueid is
 * the address of the value's first chunk (toast_store.c explains the
 * scheme and why):
 *
 *     va_valueid = ((block << 3) | (offset - 1)) + 1
 *
 * and the chunks of a multi-chunk value lie 4 to a page on consecutive
 * pages, so any chunk's place is computed, not looked up.  New values
 * reuse the pages VACUUM freed (a run of empty pages for several chunks,
 * a page with room for one; toast_store.c), else extend the relation.
 *
 * Callers hold REL_LOCK_SHARE on the toast relation (as on its table).
 * Storing and deleting take the database-wide writer lock through the
 * transaction (tdb_xact_assign_xid), like every heap write, and register
 * the relation for the commit-time flush.  Fetching applies no snapshot
 * (see tdb_toast_fetch_value) and may run concurrently with a writer.
 */
#ifndef TDB_TOAST_TOAST_STORE_H
#define TDB_TOAST_TOAST_STORE_H

#include "common/base.h"
#include "access/relation.h"
#include "access/xact.h"
#include "storage/block.h"
#include "toast/toast.h"
#include "tuple/itemptr.h"

/* Chunk rows per page of a multi-chunk value: full rows are 2032 bytes. */
#define TOAST_CHUNKS_PER_PAGE 4
/* Rows per toast page at most: the offset takes 3 bits of the value id. */
#define TOAST_MAX_ROWS_PER_PAGE 8
/* Block numbers a value id can name: 0 .. TOAST_MAX_BLOCK - 1. */
#define TOAST_MAX_BLOCK ((BlockNumber)((1U << 29) - 1))

/* The value id of the chunk row at (block, offset); never 0 (InvalidOid). */
static inline Oid
tdb_toast_valueid_encode(BlockNumber block, OffsetNumber offset)
{
    Assert(block < TOAST_MAX_BLOCK && offset >= 1 &&
           offset <= TOAST_MAX_ROWS_PER_PAGE);
    return (Oid)(((block << 3) | (uint32)(offset - 1)) + 1);
}

/* Where value id valueid (not 0) says the first chunk is. */
static inline void
tdb_toast_valueid_decode(Oid valueid, BlockNumber *block, OffsetNumber *offset)
{
    uint32 v = (uint32)valueid - 1;

    *block = v >> 3;
    *offset = (OffsetNumber)((v & 7) + 1);
}

/*
 * What this thread's chunk-store calls did since it started (counters
 * only grow: take two readings and subtract), for tests and EXPLAIN.
 */
typedef struct ToastStoreStats {
    uint64 values_stored;  /* tdb_toast_store_value calls completed */
    uint64 chunks_written; /* chunk rows inserted */
    uint64 values_fetched; /* fetch and slice calls completed */
    uint64 chunks_read;    /* chunk rows read by fetches and slices */
    uint64 pages_read;     /* toast pages pinned by fetches and slices */
    uint64 chunks_deleted; /* chunk rows stamped deleted */
} ToastStoreStats;

void tdb_toast_store_stats(ToastStoreStats *out);

/*
 * Store len bytes of data (1 .. TOAST_MAX_VALUE_SIZE - VARHDRSZ) as a
 * new value of toastrel, as rows of xact's current command, and fill
 * *out: va_rawsize = rawsize, va_extinfo = len | extinfo_method_bits
 * (the method id already shifted to the top 2 bits, 0 for an
 * uncompressed value), va_valueid, va_toastrelid = toastrel->rd_id.
 *
 * data is what the chunks hold: for a compressed value va_tcinfo and
 * the compressed bytes (everything after the 4-byte header), for an
 * uncompressed one the raw data (rawsize = len + VARHDRSZ).  Chunks are
 * formed and inserted a few pages at a time, so storing needs little
 * memory beyond data.  Raises 54000 "toast relation ... is full" once
 * the relation has TOAST_MAX_BLOCK blocks and no run of empty pages
 * takes the value (a value id could not name a new page), the writer
 * lock's and the buffer pool's errors (53100 when the disk is full).  On
 * an error, the chunks already inserted die with the transaction.
 */
void tdb_toast_store_value(Relation toastrel, Transaction *xact,
                           const char *data, Size len, int32 rawsize,
                           uint32 extinfo_method_bits, varatt_external *out);

/*
 * The whole value ptr names, allocated in the current memory context:
 * for a compressed pointer the inline-compressed datum (a fresh 4-byte
 * compressed header in front of the stored bytes: va_tcinfo and the
 * compressed data), else a plain 4-byte-header value.
 *
 * No snapshot is applied (PostgreSQL's toast snapshot): the caller got
 * ptr from a row its snapshot sees, and chunks are removed only once
 * that row is dead to everyone, so every chunk of the value is there --
 * also chunks whose xmax a later delete stamped.  A chunk that is not
 * where the scheme puts it, or has the wrong chunk_id, chunk_seq or
 * size, raises ERRCODE_DATA_CORRUPTED (PostgreSQL's messages).
 */
varlena *tdb_toast_fetch_value(Relation toastrel, const varatt_external *ptr);

/*
 * Part of the value, reading only the chunks (and pages) that cover it,
 * allocated in the current memory context.  length < 0 means "to the
 * end"; offset < 0 is treated as 0.
 *
 * Uncompressed pointer: bytes [offset, offset + length) of the value,
 * clipped to it (empty if offset is past the end), as a plain 4-byte-
 * header value.
 *
 * Compressed pointer: the prefix [0, offset + length) of the *stored*
 * bytes (va_tcinfo, then compressed data), clipped to extsize, as an
 * inline-compressed datum -- a decompressor that needs only the start of
 * the data (pglz producing a prefix of the raw value) reads it; the
 * caller works out how much that is.  Errors as tdb_toast_fetch_value.
 */
varlena *tdb_toast_fetch_slice(Relation toastrel, const varatt_external *ptr,
                               int32 offset, int32 length);

/*
 * Stamp every chunk row of the value deleted by xact's current command
 * (xmax, as tdb_heap_delete).  Each chunk is checked first as a fetch
 * checks it (XX001 otherwise, nothing stamped on that page), so a
 * damaged pointer never deletes another value's rows.  A value is
 * deleted once, as PostgreSQL's simple_heap_delete insists: chunks
 * already deleted raise "tuple already updated by self" (by this
 * command), "attempted to delete invisible tuple" (by an earlier command
 * of xact, or stored by this very command) or "tuple concurrently
 * deleted" (by a committed transaction); the transaction must then
 * abort.  Takes the writer lock; registers toastrel for the commit-time
 * flush.
 */
void tdb_toast_delete_value(Relation toastrel, const varatt_external *ptr,
                            Transaction *xact);

#endif /* TDB_TOAST_TOAST_STORE_H */
