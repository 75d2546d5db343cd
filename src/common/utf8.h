/*
 * utf8.h -- checking that bytes are UTF-8, the database encoding.
 *
 * Every way bytes become text checks them here first, as PostgreSQL
 * does with pg_verify_mbstr: a query string when it arrives, each Bind
 * parameter in text format (whatever its type) and each binary one of a
 * string type, each COPY line, a function that makes text out of bytes
 * or code points.  What passes is well-formed UTF-8 (RFC 3629) without
 * NUL bytes: no overlong forms, no surrogates (U+D800..U+DFFF), nothing
 * past U+10FFFF, no lone continuation bytes, no character cut short.
 * Everything above the boundary may then assume valid UTF-8.
 *
 *     tdb_utf8_check(s, len);                 raise 22021 unless valid
 *     Size ok = tdb_utf8_verify(s, len);      the valid prefix's length
 *     if (ok != len) ... tdb_utf8_report_invalid(s + ok, len - ok);
 *
 * The error is PostgreSQL's: 22021 `invalid byte sequence for encoding
 * "UTF8": 0xed 0xa0 0x80`, listing the bad character's bytes -- as many
 * as its first byte announces (1 for a byte that starts no sequence),
 * fewer when the string ends first.
 */
#ifndef TDB_COMMON_UTF8_H
#define TDB_COMMON_UTF8_H

#include "common/base.h"

/*
 * The number of leading bytes of s[0..len) that are whole, valid UTF-8
 * characters other than NUL: len when all of s is valid, else the offset
 * of the first bad character.  Runs of ASCII are checked eight bytes at
 * a time.
 */
Size tdb_utf8_verify(const char *s, Size len);

/*
 * The length (1..4) of the valid character at s[0..len) (len >= 1), or
 * 0 if it is not one (NUL included).
 */
int tdb_utf8_verify_char(const unsigned char *s, Size len);

/*
 * Raise 22021 for the bad character at s, with len (>= 1) bytes
 * available from s (the rest of the string, or of the line and its line
 * end).
 */
TDB_NORETURN TDB_COLD void tdb_utf8_report_invalid(const char *s, Size len);

/* Raise 22021 unless s[0..len) is valid UTF-8 without NUL bytes. */
static inline void
tdb_utf8_check(const char *s, Size len)
{
    Size ok = tdb_utf8_verify(s, len);

    if (unlikely(ok != len))
        tdb_utf8_report_invalid(s + ok, len - ok);
}

#endif /* TDB_COMMON_UTF8_H */
