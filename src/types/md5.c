/*
 * md5.c -- MD5 (RFC 1321), written from the RFC's description.
 *
 * The message is processed in 64-byte blocks of sixteen little-endian
 * words; the last block(s) carry the 0x80 pad byte, zeros and the bit
 * length.  Each block runs four rounds of sixteen steps over the state
 * a, b, c, d with the round functions F, G, H, I, the sine-derived
 * constants md5_k and the per-round rotation amounts md5_s.
 */
#include "common/base.h"

#include "types/md5.h"

/* floor(|sin(i + 1)| * 2^32) */
static const uint32 md5_k[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee,
    0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
    0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
    0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
    0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
    0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05,
    0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
    0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
    0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* rotation amounts: four per round, repeated over the round's steps */
static const uint8 md5_s[4][4] = {
    {7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

static inline uint32
rotl32(uint32 x, int n)
{
    return (x << n) | (x >> (32 - n));
}

static void
md5_block(uint32 state[4], const uint8 block[64])
{
    uint32 w[16];
    uint32 a = state[0], b = state[1], c = state[2], d = state[3];

    for (int i = 0; i < 16; i++)
        w[i] = (uint32)block[4 * i] | (uint32)block[4 * i + 1] << 8 |
               (uint32)block[4 * i + 2] << 16 | (uint32)block[4 * i + 3] << 24;
    for (int i = 0; i < 64; i++) {
        int round = i / 16;
        uint32 f, t;
        int g;

        switch (round) {
        case 0:
            f = (b & c) | (~b & d);
            g = i;
            break;
        case 1:
            f = (d & b) | (~d & c);
            g = (5 * i + 1) % 16;
            break;
        case 2:
            f = b ^ c ^ d;
            g = (3 * i + 5) % 16;
            break;
        default:
            f = c ^ (b | ~d);
            g = (7 * i) % 16;
            break;
        }
        t = d;
        d = c;
        c = b;
        b = b + rotl32(a + f + md5_k[i] + w[g], md5_s[round][i % 4]);
        a = t;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

void
tdb_md5_hex(const void *data, Size len, char hex[33])
{
    static const char digits[] = "0123456789abcdef";
    uint32 state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    const uint8 *p = data;
    uint8 tail[128] = {0};
    Size rest = len % 64, tail_len;
    uint64 bits = (uint64)len * 8;

    for (Size off = 0; off + 64 <= len; off += 64)
        md5_block(state, p + off);
    /* the rest, 0x80, zeros to 56 mod 64, the length in bits */
    memcpy(tail, p + (len - rest), rest);
    tail[rest] = 0x80;
    tail_len = rest < 56 ? 64 : 128;
    for (int i = 0; i < 8; i++)
        tail[tail_len - 8 + i] = (uint8)(bits >> (8 * i));
    md5_block(state, tail);
    if (tail_len == 128)
        md5_block(state, tail + 64);
    for (int i = 0; i < 16; i++) {
        uint8 byte = (uint8)(state[i / 4] >> (8 * (i % 4)));

        hex[2 * i] = digits[byte >> 4];
        hex[2 * i + 1] = digits[byte & 0xf];
    }
    hex[32] = '\0';
}
