/*
 * encode.h -- inside the types layer: the binary-to-text codecs shared
 * by bytea's input/output (bytea.c) and the SQL functions encode() and
 * decode() (encode.c).
 *
 * Decoders raise PostgreSQL's errors (22023 for bad hex and base64 data,
 * 22P02 for a bad escape sequence); destination buffers are the caller's
 * and must hold the bound stated per function.
 */
#ifndef TDB_TYPES_ENCODE_H
#define TDB_TYPES_ENCODE_H

#include "common/base.h"

#include "types/fmgr.h"

/* The value of hex digit c (either case), or -1. */
int tdb_hex_digit_value(char c);

/* Two lowercase hex digits per byte: writes 2 * len chars, returns that. */
Size tdb_hex_encode(const char *src, Size len, char *dst);

/*
 * Hex digit pairs to bytes, skipping spaces, tabs, newlines and carriage
 * returns between pairs.  dst holds at least len / 2 bytes; returns the
 * number written.  22023 on a non-hex character or an odd digit count.
 */
Size tdb_hex_decode(const char *src, Size len, char *dst);

/*
 * bytea's escape format: "\\" is a backslash, "\ooo" (first digit 0-3)
 * an octal byte, any other byte itself; a backslash followed by anything
 * else raises 22P02 "invalid input syntax for type bytea".  dst holds at
 * least len bytes; returns the number written.
 */
Size tdb_escape_decode(const char *src, Size len, char *dst);

/* encode(bytea, format) -> text and decode(text, format) -> bytea, for
 * the formats hex, base64 and escape (case-insensitive). */
Datum tdb_binary_encode(PG_FUNCTION_ARGS);
Datum tdb_binary_decode(PG_FUNCTION_ARGS);

#endif /* TDB_TYPES_ENCODE_H */
