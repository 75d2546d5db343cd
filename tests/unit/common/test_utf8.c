/*
 * test_utf8.c -- the UTF-8 check (common/utf8.h).
 *
 *   test_known           the inputs and the edges of RFC 3629's
 *       table (overlong forms, surrogates, U+10FFFF), NUL, truncation.
 *   test_messages        22021 with PostgreSQL 15's byte lists (taken
 *       from its answers to the same strings).
 *   test_every_position  a bad byte at each offset of an ASCII string,
 *       so the eight-bytes-at-a-time path stops exactly there.
 *   test_against_decoder every one- and two-byte string, and every
 *       three- and four-byte string over a set of interesting bytes,
 *       against a plain decoder written from the definition (decode
 *       the code point, then refuse overlong forms, surrogates and
 *       values past U+10FFFF).
 */
#include "common/base.h"

#include <string.h>

#include "common/utf8.h"
#include "test.h"

/* The definition: length of the valid character at s, or 0. */
static int
decode_char_len(const unsigned char *s, Size len)
{
    uint32 cp;
    int n;

    if (s[0] == 0)
        return 0;
    if (s[0] < 0x80)
        return 1;
    if ((s[0] & 0xe0) == 0xc0) {
        n = 2;
        cp = s[0] & 0x1f;
    } else if ((s[0] & 0xf0) == 0xe0) {
        n = 3;
        cp = s[0] & 0x0f;
    } else if ((s[0] & 0xf8) == 0xf0) {
        n = 4;
        cp = s[0] & 0x07;
    } else
        return 0;
    if (len < (Size)n)
        return 0;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
        (n == 4 && cp < 0x10000))
        return 0; /* overlong */
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

/* The definition's valid prefix of s[0..len). */
static Size
decode_prefix(const unsigned char *s, Size len)
{
    Size i = 0;

    while (i < len) {
        int n = decode_char_len(s + i, len - i);

        if (n == 0)
            break;
        i += (Size)n;
    }
    return i;
}

static Size
verify(const char *s)
{
    return tdb_utf8_verify(s, strlen(s));
}

TEST_BEGIN(test_known)
{
    /* valid */
    expect_u64_eq(tdb_utf8_verify("", 0), 0);
    expect_u64_eq(tdb_utf8_verify(NULL, 0), 0);
    expect_u64_eq(verify("plain ASCII, longer than one word"), 33);
    expect_u64_eq(verify("\x7f"), 1);
    expect_u64_eq(verify("\xc2\x80"), 2);         /* U+0080 */
    expect_u64_eq(verify("\xdf\xbf"), 2);         /* U+07FF */
    expect_u64_eq(verify("\xe0\xa0\x80"), 3);     /* U+0800 */
    expect_u64_eq(verify("\xed\x9f\xbf"), 3);     /* U+D7FF */
    expect_u64_eq(verify("\xee\x80\x80"), 3);     /* U+E000 */
    expect_u64_eq(verify("\xef\xbf\xbf"), 3);     /* U+FFFF */
    expect_u64_eq(verify("\xf0\x90\x80\x80"), 4); /* U+10000 */
    expect_u64_eq(verify("\xf4\x8f\xbf\xbf"), 4); /* U+10FFFF */
    expect_u64_eq(verify("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), 14);

    /* invalid: the offset of the bad character */
    expect_u64_eq(verify("\xff\xfe"), 0);
    expect_u64_eq(verify("ab\xfe"), 2);
    expect_u64_eq(verify("\xc0\x80"), 0);         /* overlong NUL */
    expect_u64_eq(verify("\xc1\xbf"), 0);         /* overlong */
    expect_u64_eq(verify("\xe0\x9f\xbf"), 0);     /* overlong */
    expect_u64_eq(verify("\xf0\x8f\xbf\xbf"), 0); /* overlong */
    expect_u64_eq(verify("x\xed\xa0\x80"), 1);    /* U+D800 */
    expect_u64_eq(verify("\xed\xbf\xbf"), 0);     /* U+DFFF */
    expect_u64_eq(verify("\xf4\x90\x80\x80"), 0); /* U+110000 */
    expect_u64_eq(verify("\xf5\x80\x80\x80"), 0);
    expect_u64_eq(verify("\xf8\x88\x80\x80\x80"), 0); /* 5-byte form */
    expect_u64_eq(verify("\x80"), 0);                 /* continuation */
    expect_u64_eq(verify("\xc3\xa9\xbf"), 2);         /* stray one */
    expect_u64_eq(verify("\xc3("), 0);                /* not 10xxxxxx */
    expect_u64_eq(verify("\xe2\x82("), 0);
    expect_u64_eq(verify("\xf0\x9f\x98("), 0);
    expect_u64_eq(tdb_utf8_verify("ab\0cd", 5), 2); /* NUL */
    /* cut short by the end of the string */
    expect_u64_eq(tdb_utf8_verify("a\xe2\x82\xac", 3), 1);
    expect_u64_eq(tdb_utf8_verify("a\xf0\x9f\x98\x80", 4), 1);

    expect_int_eq(
        tdb_utf8_verify_char((const unsigned char *)"\xe2\x82\xac", 3), 3);
    expect_int_eq(
        tdb_utf8_verify_char((const unsigned char *)"\xe2\x82\xac", 2), 0);
    expect_int_eq(tdb_utf8_verify_char((const unsigned char *)"", 1), 0);
}
TEST_END

/* PostgreSQL 15's messages for the same strings (SELECT over the wire). */
TEST_BEGIN(test_messages)
{
    const struct {
        const char *s;
        Size len;
        const char *bytes;
    } cases[] = {
        {"\xff\xfe", 2, ": 0xff"},
        {"\xc0\x80", 2, ": 0xc0 0x80"},
        {"\xed\xa0\x80", 3, ": 0xed 0xa0 0x80"},
        {"\xf4\x90\x80\x80", 4, ": 0xf4 0x90 0x80 0x80"},
        {"\xf0\x80\x80\x80", 4, ": 0xf0 0x80 0x80 0x80"},
        {"\xf8\x88\x80\x80\x80", 5, ": 0xf8"},
        {"\x80", 1, ": 0x80"},
        {"\0", 1, ": 0x00"},
        {"a\0b", 3, ": 0x00"},
        /* cut short: what is left; followed by more: the announced length */
        {"a\xe2\x82", 3, ": 0xe2 0x82"},
        {"a\xe2\x82'", 4, ": 0xe2 0x82 0x27"},
        {"\xe2\x82\x62", 3, ": 0xe2 0x82 0x62"},
    };

    for (volatile Size i = 0; i < lengthof(cases); i++) {
        const char *s = cases[i].s;
        Size len = cases[i].len;

        expect_true(tdb_utf8_verify(s, len) < len);
        expect_error(tdb_utf8_check(s, len),
                     ERRCODE_CHARACTER_NOT_IN_REPERTOIRE, cases[i].bytes);
        expect_str_contains(tdb_test_last_error.message,
                            "invalid byte sequence for encoding \"UTF8\"");
    }
    tdb_utf8_check("valid \xc3\xa9", 8); /* raises nothing */
}
TEST_END

TEST_BEGIN(test_every_position)
{
    static const unsigned char bad[] = {0x00, 0x80, 0xc3, 0xff};
    char buf[48];

    /* every bad byte, string length, position and start alignment */
    for (Size b = 0; b < lengthof(bad); b++)
        for (Size start = 0; start < 8; start++)
            for (Size len = 1; len <= 33; len++)
                for (Size pos = 0; pos < len; pos++) {
                    memset(buf, 'a', sizeof(buf));
                    buf[start + pos] = (char)bad[b];
                    expect_u64_eq(tdb_utf8_verify(buf + start, len), pos);
                }
}
TEST_END

TEST_BEGIN(test_against_decoder)
{
    static const unsigned char tails[] = {0x00, 0x01, 0x41, 0x7f, 0x80, 0x81,
                                          0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0,
                                          0xc2, 0xe0, 0xf0, 0xff};
    unsigned char s[4];
    int nfailed = 0;

    for (int b0 = 0; b0 < 256; b0++)
        for (int b1 = 0; b1 < 256; b1++) {
            s[0] = (unsigned char)b0;
            s[1] = (unsigned char)b1;
            for (Size len = 1; len <= 2; len++)
                if (tdb_utf8_verify((char *)s, len) != decode_prefix(s, len))
                    nfailed++;
            for (Size t2 = 0; t2 < lengthof(tails); t2++)
                for (Size t3 = 0; t3 < lengthof(tails); t3++) {
                    s[2] = tails[t2];
                    s[3] = tails[t3];
                    for (Size len = 3; len <= 4; len++)
                        if (tdb_utf8_verify((char *)s, len) !=
                            decode_prefix(s, len))
                            nfailed++;
                }
        }
    expect_int_eq(nfailed, 0);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "common_utf8", TEST_CASE(test_known),
                     TEST_CASE(test_messages), TEST_CASE(test_every_position),
                     TEST_CASE(test_against_decoder));
}
