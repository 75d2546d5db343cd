/*
 * test_encoding.c -- PostgreSQL's encodings by name and number
 * (common/encoding.h).  The SQL regression file convert.sql checks every
 * alias and number against PostgreSQL 15 itself; this covers what SQL
 * cannot reach or PostgreSQL answers differently.
 *
 *   test_names        cleaning rules, too-long and empty names
 *   test_conversions  which pairs PostgreSQL converts: symmetric, every
 *       encoding but MULE_INTERNAL with UTF8, a few others
 *   test_verify       NUL in each single-byte encoding, counting UTF-8
 *       characters, 0A000 for the unchecked multibyte encodings (and
 *       their ASCII accepted), the byte lists of the messages
 */
#include "common/base.h"

#include <string.h>

#include "common/encoding.h"
#include "test.h"

TEST_BEGIN(test_names)
{
    char long_name[80];

    expect_int_eq(tdb_encoding_from_name("UTF8"), TDB_ENC_UTF8);
    expect_int_eq(tdb_encoding_from_name("--u.T.f 8--"), TDB_ENC_UTF8);
    expect_int_eq(tdb_encoding_from_name("ISO_8859_1"), TDB_ENC_LATIN1);
    expect_int_eq(tdb_encoding_from_name("Sql_Ascii"), TDB_ENC_SQL_ASCII);
    expect_int_eq(tdb_encoding_from_name("MULE_INTERNAL"),
                  TDB_ENC_MULE_INTERNAL);
    expect_int_eq(tdb_encoding_from_name(""), -1);
    expect_int_eq(tdb_encoding_from_name("utf"), -1);
    expect_int_eq(tdb_encoding_from_name("utf8\xc3\xa9"), TDB_ENC_UTF8);
    /* 63 characters may name an encoding, 64 may not */
    memset(long_name, '-', sizeof(long_name));
    memcpy(long_name + 59, "utf8", 5);
    expect_int_eq(tdb_encoding_from_name(long_name), TDB_ENC_UTF8);
    memset(long_name, '-', sizeof(long_name));
    memcpy(long_name + 60, "utf8", 5);
    expect_int_eq(tdb_encoding_from_name(long_name), -1);
    for (int enc = 0; enc < TDB_ENC_COUNT; enc++)
        expect_int_eq(tdb_encoding_from_name(tdb_encoding_name(enc)), enc);
    expect_true(tdb_encoding_name(-1) == NULL);
    expect_true(tdb_encoding_name(TDB_ENC_COUNT) == NULL);
    expect_int_eq(tdb_encoding_max_length(TDB_ENC_COUNT), 0);
    expect_int_eq(tdb_encoding_max_length(TDB_ENC_UTF8), 4);
}
TEST_END

TEST_BEGIN(test_conversions)
{
    int mule = TDB_ENC_MULE_INTERNAL, latin2 = tdb_encoding_from_name("LATIN2");
    int win1250 = tdb_encoding_from_name("WIN1250");

    for (int a = 1; a < TDB_ENC_COUNT; a++)
        for (int b = 1; b < TDB_ENC_COUNT; b++)
            if (a != b)
                expect_int_eq(tdb_encoding_has_conversion(a, b),
                              tdb_encoding_has_conversion(b, a));
    for (int enc = 1; enc < TDB_ENC_COUNT; enc++)
        if (enc != TDB_ENC_UTF8)
            expect_int_eq(tdb_encoding_has_conversion(enc, TDB_ENC_UTF8),
                          enc != mule);
    expect_true(tdb_encoding_has_conversion(latin2, win1250));
    expect_true(tdb_encoding_has_conversion(TDB_ENC_LATIN1, mule));
    expect_false(tdb_encoding_has_conversion(TDB_ENC_LATIN1, latin2));
    expect_false(tdb_encoding_has_conversion(tdb_encoding_from_name("EUC_JP"),
                                             tdb_encoding_from_name("BIG5")));
}
TEST_END

TEST_BEGIN(test_verify)
{
    char hex[TDB_ENC_CHAR_HEX_SIZE];

    expect_int_eq(
        tdb_encoding_verify(TDB_ENC_UTF8, "caf\xc3\xa9 \xf0\x9f\x98\x80", 10),
        6);
    expect_int_eq(tdb_encoding_verify(TDB_ENC_LATIN1, "caf\xe9\xff", 5), 5);
    for (int enc = 0; enc < TDB_ENC_COUNT; enc++)
        if (enc != TDB_ENC_UTF8) {
            expect_int_eq(tdb_encoding_verify(enc, "ascii", 5), 5);
            expect_error(tdb_encoding_verify(enc, "a\0b", 3),
                         ERRCODE_CHARACTER_NOT_IN_REPERTOIRE, ": 0x00");
            expect_str_contains(tdb_test_last_error.message,
                                tdb_encoding_name(enc));
        }
    expect_error(
        tdb_encoding_verify(tdb_encoding_from_name("SJIS"), "a\x82\xa0", 3),
        ERRCODE_FEATURE_NOT_SUPPORTED, "encoding \"SJIS\" is not supported");
    expect_error(tdb_encoding_verify(TDB_ENC_UTF8, "a\xe2\x82", 3),
                 ERRCODE_CHARACTER_NOT_IN_REPERTOIRE, "UTF8\": 0xe2 0x82");
    expect_error(tdb_encoding_report_untranslatable(
                     TDB_ENC_UTF8, TDB_ENC_LATIN1, "\xf0\x9f\x98\x80", 4),
                 ERRCODE_UNTRANSLATABLE_CHARACTER,
                 "character with byte sequence 0xf0 0x9f 0x98 0x80 in "
                 "encoding \"UTF8\" has no equivalent in encoding "
                 "\"LATIN1\"");
    tdb_encoding_char_hex(TDB_ENC_LATIN1, "\xc3\xa9", 2, hex);
    expect_str_eq(hex, " 0xc3");
    tdb_encoding_char_hex(TDB_ENC_UTF8, "\xf0\x9f", 2, hex);
    expect_str_eq(hex, " 0xf0 0x9f");
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "common_encoding", TEST_CASE(test_names),
                     TEST_CASE(test_conversions), TEST_CASE(test_verify));
}
