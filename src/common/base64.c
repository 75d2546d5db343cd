/*
 * base64.c -- base64 encoding and strict decoding (base64.h).
 *
 * Decoding takes four characters at a time into three bytes; '=' may
 * only pad the last group (one or two of them), and anything else
 * outside the alphabet, including whitespace, makes the input invalid:
 * SCRAM's attributes never contain any, and a lax decoder would accept
 * two spellings of one proof.
 */
#include "common/base.h"

#include "common/base64.h"

static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

Size
tdb_b64_encode(const void *src, Size len, char *dst)
{
    const uint8 *s = src;
    char *d = dst;

    for (Size i = 0; i < len; i += 3) {
        uint32 group = (uint32)s[i] << 16;

        if (i + 1 < len)
            group |= (uint32)s[i + 1] << 8;
        if (i + 2 < len)
            group |= s[i + 2];
        *d++ = alphabet[(group >> 18) & 0x3f];
        *d++ = alphabet[(group >> 12) & 0x3f];
        *d++ = i + 1 < len ? alphabet[(group >> 6) & 0x3f] : '=';
        *d++ = i + 2 < len ? alphabet[group & 0x3f] : '=';
    }
    *d = '\0';
    return (Size)(d - dst);
}

/* The 6-bit value of c, or -1. */
static int
b64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

int
tdb_b64_decode(const char *src, Size len, uint8 *dst, Size dstlen)
{
    Size out = 0;

    if (len % 4 != 0)
        return -1;
    for (Size i = 0; i < len; i += 4) {
        bool last = i + 4 == len;
        int npad = 0;
        uint32 group = 0;

        for (int j = 0; j < 4; j++) {
            char c = src[i + j];
            int v;

            if (c == '=' && last && j >= 2) {
                npad++;
                v = 0;
            } else if (npad > 0 || (v = b64_value(c)) < 0)
                return -1; /* padding in the middle, or a bad character */
            group = (group << 6) | (uint32)v;
        }
        if (out + (Size)(3 - npad) > dstlen)
            return -1;
        dst[out++] = (uint8)(group >> 16);
        if (npad < 2)
            dst[out++] = (uint8)(group >> 8);
        if (npad < 1)
            dst[out++] = (uint8)group;
    }
    return (int)out;
}
