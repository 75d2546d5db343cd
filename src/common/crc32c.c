/*
 * crc32c.c -- CRC-32C in software (slicing-by-8) and with the SSE4.2
 * crc32 instruction, and the one-time choice between them.
 *
 * Software: table[0] is the classic byte-at-a-time table for the reflected
 * polynomial 0x82F63B78; table[k][b] is the CRC contribution of byte b
 * followed by k zero bytes, so eight table lookups consume eight input
 * bytes at once (little-endian loads; base.h guarantees the byte order).
 * The 8 KB of tables are computed once, under pthread_once, rather than
 * spelled out as 2048 constants.
 *
 * Hardware: `crc32q` consumes eight bytes per instruction.  It is compiled
 * with a target("sse4.2") attribute, so the rest of the build keeps the
 * baseline ISA, and used only when __builtin_cpu_supports says so.
 */
#include "common/base.h"

#include <pthread.h>

#include "common/crc32c.h"

#define CRC32C_POLY_REFLECTED 0x82F63B78u

typedef uint32 (*Crc32cFunc)(uint32 crc, const void *data, Size len);

/* Written once under crc32c_once, read-only afterwards. */
static uint32 crc32c_table[8][256];
static Crc32cFunc crc32c_impl;
static pthread_once_t crc32c_once = PTHREAD_ONCE_INIT;

static void
crc32c_init(void)
{
    for (uint32 b = 0; b < 256; b++) {
        uint32 crc = b;

        for (int bit = 0; bit < 8; bit++)
            crc = (crc >> 1) ^ ((crc & 1) ? CRC32C_POLY_REFLECTED : 0);
        crc32c_table[0][b] = crc;
    }
    for (int k = 1; k < 8; k++)
        for (int b = 0; b < 256; b++) {
            uint32 prev = crc32c_table[k - 1][b];

            crc32c_table[k][b] = (prev >> 8) ^ crc32c_table[0][prev & 0xFF];
        }
    crc32c_impl =
        tdb_crc32c_hw_available() ? tdb_crc32c_update_hw : tdb_crc32c_update_sw;
}

uint32
tdb_crc32c_update(uint32 crc, const void *data, Size len)
{
    pthread_once(&crc32c_once, crc32c_init);
    return crc32c_impl(crc, data, len);
}

uint32
tdb_crc32c_update_sw(uint32 crc, const void *data, Size len)
{
    const uint8 *p = data;
    const uint32(*t)[256];

    pthread_once(&crc32c_once, crc32c_init);
    t = crc32c_table;
    for (; len >= 8; p += 8, len -= 8) {
        uint32 lo, hi;

        memcpy(&lo, p, 4);
        memcpy(&hi, p + 4, 4);
        lo ^= crc;
        crc = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^
              t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^ t[3][hi & 0xFF] ^
              t[2][(hi >> 8) & 0xFF] ^ t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
    }
    for (; len > 0; p++, len--)
        crc = t[0][(crc ^ *p) & 0xFF] ^ (crc >> 8);
    return crc;
}

#if defined(__x86_64__)

bool
tdb_crc32c_hw_available(void)
{
    return __builtin_cpu_supports("sse4.2");
}

__attribute__((target("sse4.2"))) uint32
tdb_crc32c_update_hw(uint32 crc, const void *data, Size len)
{
    const uint8 *p = data;
    uint64 crc64;

    for (; len > 0 && ((uintptr_t)p & 7) != 0; p++, len--)
        crc = __builtin_ia32_crc32qi(crc, *p);
    crc64 = crc;
    for (; len >= 8; p += 8, len -= 8) {
        uint64 word;

        memcpy(&word, p, 8);
        crc64 = __builtin_ia32_crc32di(crc64, word);
    }
    crc = (uint32)crc64;
    for (; len > 0; p++, len--)
        crc = __builtin_ia32_crc32qi(crc, *p);
    return crc;
}

#else /* no hardware CRC-32C support compiled in for this platform */

bool
tdb_crc32c_hw_available(void)
{
    return false;
}

uint32
tdb_crc32c_update_hw(uint32 crc, const void *data, Size len)
{
    return tdb_crc32c_update_sw(crc, data, len);
}

#endif
