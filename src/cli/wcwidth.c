/*
 * wcwidth.c -- UTF-8 characters the way psql measures and cleans them.
 *
 * psql lines up columns by display width, using PostgreSQL's own Unicode
 * tables rather than the C library's wcwidth (whose tables differ between
 * C libraries and versions).  The tables here (wcwidth_table.h) were
 * generated from psql 15 itself by tests/fixtures/psql/capture_widths.sh,
 * which measures the padding psql puts after every code point; the rules
 * below U+00A0 are psql's fixed ones:
 *
 *   U+0000                      width 0
 *   U+0001..U+001F, U+007F..U+009F   control characters: width -1 (the
 *                               printer shows them as \xNN or \uNNNN)
 *   everything else             the tables, else width 1
 *
 * Decoding follows psql's too: the first byte alone decides the sequence
 * length (0xxxxxxx 1, 110xxxxx 2, 1110xxxx 3, 11110xxx 4, anything else
 * 1), and before printing a value psql drops invalid sequences and a few
 * non-characters (tdb_cli_utf8_validate; the check mirrors psql's
 * utf_charcheck, and dropped_ranges lists the code points it rejects).
 */
#include "common/base.h"

#include <string.h>

#include "cli/cli.h"

typedef struct WidthRange {
    uint32 first;
    uint32 last;
} WidthRange;

#include "cli/wcwidth_table.h"


int
tdb_cli_utf8_len(unsigned char c)
{
    if ((c & 0x80) == 0)
        return 1;
    if ((c & 0xe0) == 0xc0)
        return 2;
    if ((c & 0xf0) == 0xe0)
        return 3;
    if ((c & 0xf8) == 0xf0)
        return 4;
    return 1;
}

uint32
tdb_cli_utf8_decode(const unsigned char *s)
{
    if ((s[0] & 0x80) == 0)
        return s[0];
    if ((s[0] & 0xe0) == 0xc0)
        return ((uint32)(s[0] & 0x1f) << 6) | (s[1] & 0x3f);
    if ((s[0] & 0xf0) == 0xe0)
        return ((uint32)(s[0] & 0x0f) << 12) | ((uint32)(s[1] & 0x3f) << 6) |
               (s[2] & 0x3f);
    if ((s[0] & 0xf8) == 0xf0)
        return ((uint32)(s[0] & 0x07) << 18) |
               ((uint32)(s[1] & 0x3f) << 12) | ((uint32)(s[2] & 0x3f) << 6) |
               (s[3] & 0x3f);
    return 0xffffffff; /* invalid on purpose: width -1 */
}

/* Is cp in one of the n sorted ranges? */
static bool
in_ranges(uint32 cp, const WidthRange *ranges, size_t n)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (cp < ranges[mid].first)
            hi = mid;
        else if (cp > ranges[mid].last)
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

int
tdb_cli_ucs_width(uint32 cp)
{
    if (cp == 0)
        return 0;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp > 0x10ffff)
        return -1;
    if (in_ranges(cp, control_ranges, lengthof(control_ranges)))
        return -1;
    if (in_ranges(cp, width0_ranges, lengthof(width0_ranges)))
        return 0;
    if (in_ranges(cp, width2_ranges, lengthof(width2_ranges)))
        return 2;
    return 1;
}

int
tdb_cli_char_width(const unsigned char *s)
{
    return tdb_cli_ucs_width(tdb_cli_utf8_decode(s));
}

/*
 * Length of the valid character at s, or -1 if psql's check rejects it:
 * continuation bytes must be 10xxxxxx, overlong 2- and 3-byte forms and
 * code points past U+10FFFF are invalid, as are the code points of
 * dropped_ranges (which psql's check happens to catch).
 */
static int
valid_char_len(const unsigned char *s)
{
    int len = tdb_cli_utf8_len(s[0]);

    if (len == 1)
        return (s[0] & 0x80) == 0 ? 1 : -1;
    for (int i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return -1;
    if (len == 2 && (s[0] & 0x1f) <= 0x01)
        return -1;
    if (len == 3 && (s[0] & 0x0f) == 0 && (s[1] & 0x20) == 0)
        return -1;
    if (len == 4) {
        uint32 plane = ((uint32)(s[0] & 0x07) << 2) | ((s[1] & 0x30) >> 4);

        if (plane == 0 || plane > 0x10)
            return -1;
    }
    if (in_ranges(tdb_cli_utf8_decode(s), dropped_ranges,
                  lengthof(dropped_ranges)))
        return -1;
    return len;
}

char *
tdb_cli_utf8_validate(const char *s)
{
    size_t n = strlen(s);
    char *out = tdb_cli_alloc(n + 1);
    const unsigned char *p = (const unsigned char *)s;
    size_t o = 0;

    while (*p != '\0') {
        int len = valid_char_len(p);

        if (len > 0) {
            memcpy(out + o, p, (size_t)len);
            o += (size_t)len;
            p += len;
        } else
            p++; /* skip one byte and try again, as psql does */
    }
    out[o] = '\0';
    return out;
}
