/*
 * base64.h -- base64 with the standard alphabet and '=' padding
 * (RFC 4648 section 4), as SCRAM messages and PostgreSQL's SCRAM
 * verifiers use it.  No allocation, no errors raised.
 */
#ifndef TDB_COMMON_BASE64_H
#define TDB_COMMON_BASE64_H

#include "common/base.h"

/* Characters that encoding len bytes produces (without a NUL). */
static inline Size
tdb_b64_enc_len(Size len)
{
    return (len + 2) / 3 * 4;
}

/* Bytes at most that decoding len characters produces. */
static inline Size
tdb_b64_dec_len(Size len)
{
    return len / 4 * 3 + 3;
}

/*
 * Encode src[0..len-1] into dst, which has room for tdb_b64_enc_len(len)
 * + 1 bytes; dst is NUL-terminated.  Returns the encoded length.
 */
Size tdb_b64_encode(const void *src, Size len, char *dst);

/*
 * Decode src[0..len-1] into dst (room for dstlen bytes).  Returns the
 * decoded length, or -1 if src is not valid base64 (a character outside
 * the alphabet, bad padding, a length that is not a multiple of 4) or
 * does not fit.
 */
int tdb_b64_decode(const char *src, Size len, uint8 *dst, Size dstlen);

#endif /* TDB_COMMON_BASE64_H */
