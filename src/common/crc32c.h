/*
 * crc32c.h -- CRC-32C (Castagnoli), the checksum PostgreSQL uses for its
 * control file and WAL records: polynomial 0x1EDC6F41, processed
 * bit-reflected (0x82F63B78), initial value and final XOR 0xFFFFFFFF.
 * The CRC-32C of the ASCII bytes "123456789" is 0xE3069283.
 *
 *     uint32 crc = tdb_crc32c(data, len);              one buffer
 *
 *     uint32 crc = TDB_CRC32C_INIT;                    several pieces
 *     crc = tdb_crc32c_update(crc, a, alen);
 *     crc = tdb_crc32c_update(crc, b, blen);
 *     crc = tdb_crc32c_final(crc);
 *
 * Two implementations: slicing-by-8 tables in software (any CPU), and the
 * SSE4.2 crc32 instruction, chosen once per process at first use when the
 * CPU has it.  Both give identical results; tests compare them.
 * Thread-safe: the one-time setup runs under pthread_once.
 */
#ifndef TDB_COMMON_CRC32C_H
#define TDB_COMMON_CRC32C_H

#include "common/base.h"

#define TDB_CRC32C_INIT ((uint32)0xFFFFFFFF)

/* Feed len bytes into a running CRC (start from TDB_CRC32C_INIT). */
uint32 tdb_crc32c_update(uint32 crc, const void *data, Size len);

/* Finish a running CRC. */
static inline uint32
tdb_crc32c_final(uint32 crc)
{
    return crc ^ 0xFFFFFFFF;
}

/* The CRC-32C of one buffer. */
static inline uint32
tdb_crc32c(const void *data, Size len)
{
    return tdb_crc32c_final(tdb_crc32c_update(TDB_CRC32C_INIT, data, len));
}

/* ----- the implementations, for tests and benchmarks ----- */

/* Software slicing-by-8. */
uint32 tdb_crc32c_update_sw(uint32 crc, const void *data, Size len);
/* Whether this CPU has the crc32 instruction (SSE4.2). */
bool tdb_crc32c_hw_available(void);
/* The instruction; falls back to software where it is not available. */
uint32 tdb_crc32c_update_hw(uint32 crc, const void *data, Size len);

#endif /* TDB_COMMON_CRC32C_H */
