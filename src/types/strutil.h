/*
 * strutil.h -- character helpers of the types layer: the C locale's
 * character classes (tupledb's only collation/ctype is "C", so case
 * mapping touches ASCII letters only, as PostgreSQL's lower()/upper()
 * do in a C-locale database) and UTF-8 character stepping (the database
 * encoding is UTF-8: lengths and positions count characters).
 *
 * All inline; strings are (pointer, byte length) pairs, not necessarily
 * NUL-terminated, and are assumed to be valid UTF-8 (a truncated
 * sequence at the end counts as one character).
 */
#ifndef TDB_TYPES_STRUTIL_H
#define TDB_TYPES_STRUTIL_H

#include "common/base.h"

#include <string.h>

/* The most bytes one UTF-8 character takes. */
#define UTF8_MAX_CHAR_LEN 4

/* isspace() of the C locale. */
static inline bool
tdb_c_isspace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
}

static inline bool
tdb_c_isalnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

static inline char
tdb_c_tolower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c;
}

static inline char
tdb_c_toupper(char c)
{
    return c >= 'a' && c <= 'z' ? (char)(c - ('a' - 'A')) : c;
}

/* Bytes of the UTF-8 character whose first byte is *s (1..4). */
static inline Size
tdb_utf8_char_len(const char *s)
{
    uint8 c = (uint8)*s;

    if ((c & 0xe0) == 0xc0)
        return 2;
    if ((c & 0xf0) == 0xe0)
        return 3;
    if ((c & 0xf8) == 0xf0)
        return 4;
    return 1;
}

/* Bytes of the character at s, never past the len bytes left. */
static inline Size
tdb_utf8_char_len_max(const char *s, Size len)
{
    Size n = tdb_utf8_char_len(s);

    return n < len ? n : len;
}

/*
 * Number of characters in s[0..len).  Runs of ASCII are skipped eight
 * bytes at a time (length(f::text) of a float8 went from about 380 to
 * under 100 instructions per value); a word with a byte >= 0x80 steps
 * character by character from there, so malformed input counts as before.
 */
static inline Size
tdb_utf8_strlen(const char *s, Size len)
{
    Size n = 0;
    Size i = 0;

    for (;;) {
        uint64 word;

        while (i + 8 <= len) {
            memcpy(&word, s + i, 8);
            if ((word & 0x8080808080808080ULL) != 0)
                break;
            i += 8;
            n += 8;
        }
        if (i >= len)
            return n;
        /* one character (ASCII or not), then try words again */
        i += tdb_utf8_char_len_max(s + i, len - i);
        n++;
    }
}

/* Bytes taken by the first nchars characters of s[0..len) (all of s if
 * it has fewer). */
static inline Size
tdb_utf8_char_offset(const char *s, Size len, Size nchars)
{
    Size i = 0;

    for (; i < len && nchars > 0; nchars--)
        i += tdb_utf8_char_len_max(s + i, len - i);
    return i;
}

/* The longest prefix of s[0..len) that ends on a character boundary and
 * has at most limit bytes. */
static inline Size
tdb_utf8_clip_bytes(const char *s, Size len, Size limit)
{
    Size i = 0;

    while (i < len) {
        Size n = tdb_utf8_char_len_max(s + i, len - i);

        if (i + n > limit)
            break;
        i += n;
    }
    return i;
}

#endif /* TDB_TYPES_STRUTIL_H */
