/*
 * compress.h -- compressing and decompressing varlena values for TOAST,
 * with PostgreSQL's two methods and its exact byte formats.
 *
 * A compressed inline value (toast.h, pg-internals.md §2.2):
 *
 *   offset 0   uint32 header   (total size << 2) | 0b10, little-endian
 *   offset 4   uint32 tcinfo   raw data size (low 30 bits) | method << 30
 *   offset 8   data            a pglz stream, or a raw LZ4 block
 *
 * Method ids in tcinfo: 0 = pglz, 1 = lz4 (ToastCompressionId); the
 * column-level letters are 'p' and 'l' (TOAST_COMPRESSION_PGLZ/_LZ4).
 *
 * The pglz stream (our own implementation, pglz.c, byte-compatible with
 * PostgreSQL's src/common/pg_lzcompress.c): a control byte announces the
 * next 8 items, least significant bit first.  A clear bit is one literal
 * byte; a set bit is a back-reference tag
 *
 *   byte 0: high nibble = offset bits 11..8, low nibble = length - 3
 *   byte 1: offset bits 7..0
 *   byte 2: only when the low nibble is 0xF: length - 18 (0..255)
 *
 * copying `length` (3..273) bytes starting `offset` (1..4095) bytes back
 * in the output (the copy may overlap what it produces).  There is no
 * end marker: the stream ends when the raw size is reached.
 *
 * Every function allocates in the current memory context and raises on
 * error; nothing here keeps state between calls (all thread-safe).
 */
#ifndef TDB_TOAST_COMPRESS_H
#define TDB_TOAST_COMPRESS_H

#include "common/base.h"
#include "toast/toast.h"
#include "tuple/varlena.h"

/* ----- whole values ----- */

/*
 * Compress an inline, uncompressed value (4-byte or 1-byte header) with
 * `method` (TOAST_COMPRESSION_PGLZ or TOAST_COMPRESSION_LZ4).
 *
 * Returns a new compressed inline value (4-byte header with the
 * compressed bit, tcinfo, data) allocated in the current memory context,
 * or NULL when compression is not worth it, by PostgreSQL's rules:
 *   pglz: fewer than 32 data bytes, less than 25% saved, or no match in
 *         the first 1 KB of output (the default strategy);
 *   lz4:  the block is larger than the data;
 *   both: the result, 8-byte header included, is not smaller than the
 *         raw data size - 2 (so it beats a 4-byte header plus up to three
 *         pad bytes against a short value's 1-byte header).
 * Raises ERRCODE_INTERNAL_ERROR if liblz4 fails, or for an unknown method
 * or an input that is external or already compressed (a caller bug).
 */
varlena *tdb_toast_compress(const varlena *value, char method);

/*
 * Decompress a compressed inline value.  Returns a plain value with a
 * 4-byte header and exactly the recorded raw size, in the current memory
 * context.  Corrupt input (bad stream, truncated, wrong raw size) raises
 * ERRCODE_DATA_CORRUPTED with PostgreSQL's "compressed pglz data is
 * corrupt" / "compressed lz4 data is corrupt" ("compressed data is
 * corrupt" when VARSIZE is below the 8-byte header);
 * an invalid method id raises ERRCODE_INTERNAL_ERROR as in PostgreSQL.
 * Input bytes past VARSIZE(value) are never read, output never written
 * past the raw size.
 */
varlena *tdb_toast_decompress(const varlena *value);

/*
 * The first `slicelength` raw bytes of a compressed inline value, as a
 * plain 4-byte-header value (current memory context).  pglz stops as soon
 * as the slice is complete; lz4 uses LZ4_decompress_safe_partial.  A
 * slicelength at or beyond the raw size is a full decompression.  A valid
 * stream always yields exactly slicelength bytes, so fewer is corruption
 * (same errors as tdb_toast_decompress).  slicelength < 0 is a caller bug
 * (ERRCODE_INTERNAL_ERROR).
 *
 * The value may be a prefix of the compressed bytes (VARSIZE says how
 * much is present) as long as it contains everything the slice needs;
 * for pglz, tdb_pglz_maximum_compressed_size bounds that amount.
 */
varlena *tdb_toast_decompress_slice(const varlena *value, int32 slicelength);

/* ----- method names and ids ----- */

/* "pglz" / "lz4" for a method id; NULL for any other id. */
const char *tdb_toast_compression_name(ToastCompressionId cmid);

/* "pglz" / "lz4" for 'p' / 'l'; NULL for any other letter (incl. '\0'). */
const char *tdb_toast_compression_method_name(char method);

/* 'p' -> TOAST_PGLZ_COMPRESSION_ID, 'l' -> TOAST_LZ4_COMPRESSION_ID,
 * anything else -> TOAST_INVALID_COMPRESSION_ID. */
ToastCompressionId tdb_toast_compression_id(char method);

/*
 * Look up a method name, case-sensitively as PostgreSQL's
 * CompressionNameToMethod: "pglz" -> 'p', "lz4" -> 'l'.  Returns false
 * (and leaves *method alone) for anything else, "default" included.  The
 * default_toast_compression setting, whose values PostgreSQL matches
 * case-insensitively, should fold case first.
 */
bool tdb_toast_compression_lookup(const char *name, char *method);

/*
 * The attcompression letter for ALTER TABLE ... SET COMPRESSION name and
 * CREATE TABLE's COMPRESSION clause: "pglz" -> 'p', "lz4" -> 'l', NULL or
 * "default" -> TOAST_COMPRESSION_DEFAULT ('\0').  Any other name raises
 * ERRCODE_INVALID_PARAMETER_VALUE: invalid compression method "%s".
 */
char tdb_toast_compression_parse(const char *name);

/* ----- pglz on raw buffers ----- */

/* Output space tdb_pglz_compress needs for slen input bytes. */
#define TDB_PGLZ_MAX_OUTPUT(slen) ((int32)(slen) + 4)

/* pglz's default strategy (PostgreSQL's PGLZ_strategy_default). */
#define TDB_PGLZ_MIN_INPUT_SIZE 32     /* shorter inputs: not compressed */
#define TDB_PGLZ_MIN_COMP_RATE 25      /* percent that must be saved */
#define TDB_PGLZ_FIRST_SUCCESS_BY 1024 /* give up without a match by then */
#define TDB_PGLZ_MATCH_SIZE_GOOD 128   /* a match this long ends a search */
#define TDB_PGLZ_MATCH_SIZE_DROP 10    /* ... lowered 10% per candidate */

/*
 * Compress slen bytes at src into dst (room for TDB_PGLZ_MAX_OUTPUT(slen)
 * bytes) with pglz's default strategy.  Returns the stream's length, or
 * -1 when the strategy declines (see tdb_toast_compress); dst is then
 * undefined.  The output is the bytes PostgreSQL's pglz_compress writes
 * on x86-64 (same hash, history and match rules).  Works in a small
 * scratch allocation in the current memory context, freed before return.
 */
int32 tdb_pglz_compress(const char *src, int32 slen, char *dst);

/*
 * Decompress the pglz stream src[0..slen) into dst, producing at most
 * rawsize bytes.  Returns the number of bytes written, or -1 if the
 * stream is corrupt: a tag cut short by the end of the input, an offset
 * of 0 or one reaching before the start of the output, or -- when
 * check_complete -- not exactly rawsize bytes produced from exactly slen
 * bytes consumed, or a last match running past rawsize (PostgreSQL clips
 * that one; no compressor writes it).  With check_complete false (slices) it
 * stops as soon as rawsize bytes are out.  Never reads outside src[0..slen) nor
 * writes outside dst[0..rawsize).
 */
int32 tdb_pglz_decompress(const char *src, int32 slen, char *dst, int32 rawsize,
                          bool check_complete);

/*
 * How many bytes of a pglz stream of total_compressed_size bytes can be
 * needed to produce the first rawsize bytes: at most 9 bits per output
 * byte (a literal and its control bit), capped at the total.  Lets slice
 * fetches of external values read only the leading chunks.
 */
int32 tdb_pglz_maximum_compressed_size(int32 rawsize,
                                       int32 total_compressed_size);

#endif /* TDB_TOAST_COMPRESS_H */
