/*
 * utf8.c -- the UTF-8 check of every way into text (utf8.h).
 *
 * A character is valid when its bytes fall in one of the rows of RFC
 * 3629's table (the well-formed sequences); the first byte fixes the
 * length and the range of the second byte, which is what rules out
 * overlong forms, surrogates and code points past U+10FFFF:
 *
 *     first      second     third/fourth
 *     01..7F                                 (00 is refused: NUL)
 *     C2..DF     80..BF
 *     E0         A0..BF     80..BF
 *     E1..EC     80..BF     80..BF
 *     ED         80..9F     80..BF           (no surrogates)
 *     EE..EF     80..BF     80..BF
 *     F0         90..BF     80..BF x2
 *     F1..F3     80..BF     80..BF x2
 *     F4         80..8F     80..BF x2        (nothing past U+10FFFF)
 *
 * Speed: this runs on every text Bind parameter, COPY line and query
 * string, which are mostly ASCII, so eight bytes at a time are tested
 * for "all in 01..7F" with three word operations; a word that fails the
 * test says which of its bytes to look at (the lowest flagged one), and
 * only that character goes through the table.  Measured with callgrind
 * on a COPY FROM of 200,000 lines of 83 bytes (one line in ten with
 * 2-, 3- and 4-byte characters): 145 instructions a line, where the
 * byte-at-a-time loop COPY had before took 850.
 */
#include "common/base.h"

#include <string.h>

#include "common/elog.h"
#include "common/encoding.h"
#include "common/utf8.h"

#define ONES 0x0101010101010101ULL
#define HIGH 0x8080808080808080ULL

/*
 * The high bit of each byte of the word that is outside 01..7F, and
 * maybe of some bytes above the first such one.  Subtracting one from
 * every byte sets a byte's high bit if the byte was 00 and borrows from
 * the byte above, so only bytes above a 00 can be flagged falsely; the
 * OR with the word itself adds the bytes >= 80.  The lowest flagged byte
 * is therefore always a true one.
 */
static inline uint64
non_ascii_or_nul_bytes(uint64 w)
{
    return ((w - ONES) | w) & HIGH;
}

int
tdb_utf8_verify_char(const unsigned char *s, Size len)
{
    unsigned char c = s[0];
    unsigned char lo = 0x80, hi = 0xbf;
    int n;

    if (c < 0x80)
        return c != 0 ? 1 : 0;
    if (c < 0xc2)
        return 0; /* a continuation byte, or an overlong 2-byte form */
    if (c < 0xe0)
        n = 2;
    else if (c < 0xf0) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
    } else if (c < 0xf5) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if (len < (Size)n || s[1] < lo || s[1] > hi)
        return 0;
    for (int i = 2; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

Size
tdb_utf8_verify(const char *s, Size len)
{
    const unsigned char *p = (const unsigned char *)s;
    Size i = 0;

    for (;;) {
        int n;

        while (i + 8 <= len) {
            uint64 w, bad;

            memcpy(&w, p + i, 8);
            bad = non_ascii_or_nul_bytes(w);
            if (bad != 0) {
                /* little-endian: the lowest flagged byte comes first */
                i += (Size)(__builtin_ctzll(bad) >> 3);
                goto check_char;
            }
            i += 8;
        }
        while (i < len && p[i] - 1u < 0x7fu)
            i++;
        if (i >= len)
            return len;
    check_char:
        n = tdb_utf8_verify_char(p + i, len - i);
        if (n == 0)
            return i;
        i += (Size)n;
    }
}

void
tdb_utf8_report_invalid(const char *s, Size len)
{
    char hex[TDB_ENC_CHAR_HEX_SIZE];

    tdb_encoding_char_hex(TDB_ENC_UTF8, s, len, hex);
    ereport(ERROR, errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
            errmsg("invalid byte sequence for encoding \"UTF8\":%s", hex));
}
