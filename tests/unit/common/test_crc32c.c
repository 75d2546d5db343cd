/*
 * test_crc32c.c -- CRC-32C against published check values, and the
 * software and hardware implementations against each other.
 *
 *   test_known_values   "123456789" (the standard check value) and the
 *       iSCSI test patterns of RFC 3720 appendix B.4, through the
 *       dispatching entry point and both implementations.
 *   test_incremental    any split of a buffer into pieces gives the
 *       one-shot CRC.
 *   test_sw_matches_hw  random buffers at every length 0..300 and every
 *       start alignment 0..7 (skipped where the CPU lacks SSE4.2).
 */
#include "common/base.h"

#include "common/crc32c.h"
#include "test.h"

/* CRC-32C of buf with one implementation, finalized. */
static uint32
crc_with(uint32 (*update)(uint32, const void *, Size), const void *buf,
         Size len)
{
    return tdb_crc32c_final(update(TDB_CRC32C_INIT, buf, len));
}

TEST_BEGIN(test_known_values)
{
    uint8 zeros[32], ones[32], incr[32], decr[32];
    const struct {
        const void *data;
        Size len;
        uint32 crc;
    } cases[] = {
        {"123456789", 9, 0xE3069283}, {"", 0, 0x00000000},
        {zeros, 32, 0x8A9136AA},      {ones, 32, 0x62A8AB43},
        {incr, 32, 0x46DD794E},       {decr, 32, 0x113FDB5C},
    };

    for (int i = 0; i < 32; i++) {
        zeros[i] = 0;
        ones[i] = 0xFF;
        incr[i] = (uint8)i;
        decr[i] = (uint8)(31 - i);
    }
    for (Size i = 0; i < lengthof(cases); i++) {
        expect_u64_eq(tdb_crc32c(cases[i].data, cases[i].len), cases[i].crc);
        expect_u64_eq(
            crc_with(tdb_crc32c_update_sw, cases[i].data, cases[i].len),
            cases[i].crc);
        expect_u64_eq(
            crc_with(tdb_crc32c_update_hw, cases[i].data, cases[i].len),
            cases[i].crc);
    }
}
TEST_END

TEST_BEGIN(test_incremental)
{
    uint8 buf[200];
    uint64 rng = tdb_test_seed();
    uint32 whole;

    for (Size i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8)tdb_test_rand(&rng);
    whole = tdb_crc32c(buf, sizeof(buf));
    for (Size split = 0; split <= sizeof(buf); split++) {
        uint32 crc = TDB_CRC32C_INIT;

        crc = tdb_crc32c_update(crc, buf, split);
        crc = tdb_crc32c_update(crc, buf + split, sizeof(buf) - split);
        expect_u64_eq(tdb_crc32c_final(crc), whole);
    }
}
TEST_END

TEST_BEGIN(test_sw_matches_hw)
{
    uint8 buf[300 + 8];
    uint64 rng = tdb_test_seed();

    if (!tdb_crc32c_hw_available())
        test_skip("no CRC-32C instruction on this CPU");
    for (Size i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8)tdb_test_rand(&rng);
    for (Size start = 0; start < 8; start++)
        for (Size len = 0; len <= 300; len++)
            expect_u64_eq(crc_with(tdb_crc32c_update_sw, buf + start, len),
                          crc_with(tdb_crc32c_update_hw, buf + start, len));
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "common_crc32c", TEST_CASE(test_known_values),
                     TEST_CASE(test_incremental),
                     TEST_CASE(test_sw_matches_hw));
}
