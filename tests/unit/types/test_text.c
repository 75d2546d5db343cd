/*
 * test_text.c -- text, varchar(n), char(n), name and "char" through the
 * registry: input/output, the length typmods (22001), bpchar's padding
 * semantics, comparisons and hashing in the C collation, LIKE/ILIKE and
 * like_escape, the string functions with their edge cases and UTF-8
 * character counting, concat/concat_ws/||, the casts between the string
 * types, and the aggregates string_agg, min and max.  Expected values
 * come from PostgreSQL 15 (UTF8, locale C).
 */
#include "common/base.h"

#include "types_test.h"

static const TypeCase compare_cases[] = {
    {"=", "text,text", {"abc", "abc"}, "t"},
    {"<", "text,text", {"abc", "abd"}, "t"},
    {"<", "text,text", {"ab", "abc"}, "t"},
    {"<", "text,text", {"B", "a"}, "t"},
    {"<", "text,text", {"z", "é"}, "t"},
    {">=", "text,text", {"", ""}, "t"},
    {"<>", "text,text", {"a", "a "}, "t"},
    {"<=", "text,text", {"abc", "ab"}, "f"},
    {">", "text,text", {"b", "abc"}, "t"},
    {"=", "bpchar,bpchar", {"ab  ", "ab"}, "t"},
    {"<", "bpchar,bpchar", {"ab", "ab\t"}, "t"},
    {"<>", "bpchar,bpchar", {"a ", "a"}, "f"},
    {">", "bpchar,bpchar", {"b", "a     "}, "t"},
    {"=", "name,name", {"abc", "abc"}, "t"},
    {"<", "name,name", {"abc", "abcd"}, "t"},
    {"=", "name,text", {"abc", "abc"}, "t"},
    {"<", "name,text", {"abc", "abd"}, "t"},
    {">", "text,name", {"abd", "abc"}, "t"},
    {"<=", "text,name", {"abc", "abc"}, "t"},
    {"=", "char,char", {"a", "a"}, "t"},
    {"<", "char,char", {"a", "\\200"}, "t"},
    {">=", "char,char", {"b", "a"}, "t"},
    {"=", "text,text", {NULL, "a"}, NULL},
    {"bttextcmp", "text,text", {"b", "a"}, "1"},
    {"bpcharcmp", "bpchar,bpchar", {"a  ", "a"}, "0"},
    {"btnamecmp", "name,name", {"a", "b"}, "-1"},
    {"btcharcmp", "char,char", {"a", "a"}, "0"},
    {"hashtext", "text", {""}, "-1477818771"},
    {"hashtext", "text", {"a"}, "1075015857"},
    {"hashtext", "text", {"abcd"}, "-393934804"},
    {"hashtext", "text", {"abcde"}, "-445659580"},
    {"hashtext", "text", {"abcdefg"}, "501636814"},
    {"hashtext", "text", {"abcdefgh"}, "-1960928205"},
    {"hashtext", "text", {"abcdefghij"}, "1948051852"},
    {"hashtext", "text", {"abcdefghijkl"}, "-1586087212"},
    {"hashtext", "text", {"abcdefghijklm"}, "405849808"},
    {"hashtext", "text", {"hello world, hashed in three blocks!"}, "1955818417"},
    {"hashtext", "text", {"héllo"}, "-1340490493"},
    {"hashbpchar", "bpchar", {"ab  "}, "1718550461"},
    {"hashbpchar", "bpchar", {"ab"}, "1718550461"},
    {"hashname", "name", {"abc"}, "-785388649"},
    {"hashchar", "char", {"a"}, "463612535"},
    {"hashchar", "char", {"\\377"}, "385747274"},
};

TEST_BEGIN(test_text_compare_hash)
{
    tt_check_cases(compare_cases);
}
TEST_END

static const TypeCase func_cases[] = {
    {"length", "text", {"héllo"}, "5"},
    {"length", "text", {""}, "0"},
    {"char_length", "text", {"日本語"}, "3"},
    {"character_length", "text", {"ab"}, "2"},
    {"octet_length", "text", {"héllo"}, "6"},
    {"length", "bpchar", {"ab  "}, "2"},
    {"octet_length", "bpchar", {"ab  "}, "4"},
    {"char_length", "bpchar", {"  "}, "0"},
    {"lower", "text", {"ÀBC Déf"}, "Àbc déf"},
    {"upper", "text", {"héllo wörld"}, "HéLLO WöRLD"},
    {"initcap", "text", {"hello WORLD foo_bar 3rd"}, "Hello World Foo_Bar 3rd"},
    {"initcap", "text", {"élan vital"}, "éLan Vital"},
    {"initcap", "text", {"o'neil mc-donald"}, "O'Neil Mc-Donald"},
    {"substr", "text,int4,int4", {"hello", "2", "3"}, "ell"},
    {"substr", "text,int4,int4", {"hello", "0", "3"}, "he"},
    {"substr", "text,int4,int4", {"hello", "-1", "3"}, "h"},
    {"substr", "text,int4,int4", {"hello", "-5", "3"}, ""},
    {"substr", "text,int4,int4", {"hello", "4", "10"}, "lo"},
    {"substr", "text,int4,int4", {"hello", "6", "1"}, ""},
    {"substr", "text,int4,int4", {"hello", "2", "0"}, ""},
    {"substr", "text,int4,int4", {"hello", "2", "-1"}, "ERROR 22011 negative substring length not allowed"},
    {"substr", "text,int4,int4", {"hello", "2", "2147483647"}, "ello"},
    {"substr", "text,int4,int4", {"hello", "-2147483648", "2147483647"}, ""},
    {"substr", "text,int4,int4", {"héllo", "2", "2"}, "él"},
    {"substr", "text,int4", {"héllo", "3"}, "llo"},
    {"substr", "text,int4", {"hello", "-3"}, "hello"},
    {"substr", "text,int4", {"hello", "9"}, ""},
    {"substring", "text,int4,int4", {"日本語テキスト", "3", "2"}, "語テ"},
    {"substring", "text,int4", {"abc", "2"}, "bc"},
    {"position", "text,text", {"hello", "ll"}, "3"},
    {"position", "text,text", {"hello", ""}, "1"},
    {"position", "text,text", {"", ""}, "1"},
    {"position", "text,text", {"hello", "z"}, "0"},
    {"strpos", "text,text", {"héllo", "llo"}, "3"},
    {"strpos", "text,text", {"日本語", "語"}, "3"},
    {"replace", "text,text,text", {"abcabc", "b", "XX"}, "aXXcaXXc"},
    {"replace", "text,text,text", {"aaaa", "aa", "b"}, "bb"},
    {"replace", "text,text,text", {"abc", "", "X"}, "abc"},
    {"replace", "text,text,text", {"", "a", "X"}, ""},
    {"replace", "text,text,text", {"abc", "abc", ""}, ""},
    {"replace", "text,text,text", {"abc", NULL, "x"}, NULL},
    {"repeat", "text,int4", {"ab", "3"}, "ababab"},
    {"repeat", "text,int4", {"ab", "0"}, ""},
    {"repeat", "text,int4", {"ab", "-1"}, ""},
    {"repeat", "text,int4", {"", "1000000"}, ""},
    {"repeat", "text,int4", {"abc", "1000000000"}, "ERROR 54000 requested length too large"},
    {"chr", "int4", {"65"}, "A"},
    {"chr", "int4", {"233"}, "é"},
    {"chr", "int4", {"55295"}, "\xed\x9f\xbf"},
    {"chr", "int4", {"57344"}, "\xee\x80\x80"},
    {"chr", "int4", {"128512"}, "😀"},
    {"chr", "int4", {"1114111"}, "\xf4\x8f\xbf\xbf"},
    {"chr", "int4", {"0"}, "ERROR 54000 null character not permitted"},
    {"chr", "int4", {"-1"}, "ERROR 22023 character number must be positive"},
    {"chr", "int4", {"55296"}, "ERROR 54000 requested character not valid for encoding: 55296"},
    {"chr", "int4", {"57343"}, "ERROR 54000 requested character not valid for encoding: 57343"},
    {"chr", "int4", {"1114112"}, "ERROR 54000 requested character too large for encoding: 1114112"},
    {"reverse", "text", {"héllo"}, "olléh"},
    {"reverse", "text", {""}, ""},
    {"left", "text,int4", {"héllo", "2"}, "hé"},
    {"left", "text,int4", {"hello", "-2"}, "hel"},
    {"left", "text,int4", {"hello", "-9"}, ""},
    {"left", "text,int4", {"hello", "9"}, "hello"},
    {"left", "text,int4", {"hello", "-2147483648"}, ""},
    {"right", "text,int4", {"héllo", "4"}, "éllo"},
    {"right", "text,int4", {"hello", "-2"}, "llo"},
    {"right", "text,int4", {"hello", "-9"}, ""},
    {"right", "text,int4", {"hello", "0"}, ""},
    {"right", "text,int4", {"hello", "-2147483648"}, "hello"},
    {"lpad", "text,int4,text", {"hi", "5", "xy"}, "xyxhi"},
    {"lpad", "text,int4,text", {"hello", "3", "xy"}, "hel"},
    {"lpad", "text,int4,text", {"hi", "5", ""}, "hi"},
    {"lpad", "text,int4,text", {"hi", "-1", "x"}, ""},
    {"lpad", "text,int4,text", {"hé", "4", "日本"}, "日本hé"},
    {"lpad", "text,int4", {"hi", "4"}, "  hi"},
    {"lpad", "text,int4", {"hi", "300000000"}, "ERROR 54000 requested length too large"},
    {"rpad", "text,int4,text", {"hi", "5", "xy"}, "hixyx"},
    {"rpad", "text,int4,text", {"héllo", "2", "x"}, "hé"},
    {"rpad", "text,int4", {"hi", "4"}, "hi  "},
    {"btrim", "text", {"  a b  "}, "a b"},
    {"btrim", "text", {"\t a \t"}, "	 a 	"},
    {"btrim", "text,text", {"xxaxyx", "xy"}, "a"},
    {"btrim", "text,text", {"xxxx", "x"}, ""},
    {"btrim", "text,text", {"éaé", "é"}, "a"},
    {"btrim", "text,text", {"abc", ""}, "abc"},
    {"ltrim", "text", {"  a  "}, "a  "},
    {"ltrim", "text,text", {"zzyabc", "yz"}, "abc"},
    {"rtrim", "text", {"  a  "}, "  a"},
    {"rtrim", "text,text", {"abcxxzx", "xz"}, "abc"},
    {"rtrim", "text,text", {"日本語語", "語"}, "日本"},
    {"split_part", "text,text,int4", {"a,b,c", ",", "2"}, "b"},
    {"split_part", "text,text,int4", {"a,b,c", ",", "4"}, ""},
    {"split_part", "text,text,int4", {"a,b,c", ",", "-1"}, "c"},
    {"split_part", "text,text,int4", {"a,b,c", ",", "-3"}, "a"},
    {"split_part", "text,text,int4", {"a,b,c", ",", "-4"}, ""},
    {"split_part", "text,text,int4", {"a,b,c", ",", "0"}, "ERROR 22023 field position must not be zero"},
    {"split_part", "text,text,int4", {"", ",", "1"}, ""},
    {"split_part", "text,text,int4", {"abc", "", "1"}, "abc"},
    {"split_part", "text,text,int4", {"abc", "", "-1"}, "abc"},
    {"split_part", "text,text,int4", {"abc", "", "2"}, ""},
    {"split_part", "text,text,int4", {"abc", "x", "1"}, "abc"},
    {"split_part", "text,text,int4", {"abc", "x", "2"}, ""},
    {"split_part", "text,text,int4", {"a--b----c", "--", "3"}, ""},
    {"split_part", "text,text,int4", {"a,b,", ",", "3"}, ""},
    {"split_part", "text,text,int4", {"aaa", "aa", "2"}, "a"},
    {"starts_with", "text,text", {"hello", "he"}, "t"},
    {"starts_with", "text,text", {"hello", ""}, "t"},
    {"starts_with", "text,text", {"he", "hello"}, "f"},
    {"^@", "text,text", {"alpha", "alp"}, "t"},
    {"md5", "text", {""}, "d41d8cd98f00b204e9800998ecf8427e"},
    {"md5", "text", {"abc"}, "900150983cd24fb0d6963f7d28e17f72"},
    {"md5", "text", {"The quick brown fox jumps over the lazy dog, and then some more text to pass 64 bytes"}, "51a4741a871ef123c7a3ff6095248a87"},
    {"md5", "text", {"0123456789012345678901234567890123456789012345678901234"}, "6e7a4fc92eb1c3f6e652425bcc8d44b5"},
    {"md5", "text", {"01234567890123456789012345678901234567890123456789012345"}, "8af270b2847610e742b0791b53648c09"},
    {"textcat", "text,text", {"ab", "cd"}, "abcd"},
    {"||", "text,text", {"ab", "cd"}, "abcd"},
    {"||", "text,text", {"ab", NULL}, NULL},
    {"||", "text,int4", {"a", "1"}, "a1"},
    {"||", "int4,text", {"1", "a"}, "1a"},
    {"||", "bool,text", {"t", "x"}, "truex"},
    {"||", "text,bpchar", {"x", "ab  "}, "xab"},
    {"concat", "text,int4,bool,bpchar,text", {"a", "1", "t", "b  ", NULL}, "a1tb  "},
    {"concat", "text", {NULL}, ""},
    {"concat", "int8,name,char", {"-5", "nm", "q"}, "-5nmq"},
    {"concat_ws", "text,int4,text,text", {",", "1", NULL, "b"}, "1,b"},
    {"concat_ws", "text,int4", {NULL, "1"}, NULL},
    {"concat_ws", "text,text,text", {"", "a", "b"}, "ab"},
    {"concat_ws", "text,bool,int2", {"--", "f", "7"}, "f--7"},
};

TEST_BEGIN(test_text_functions)
{
    tt_check_cases(func_cases);
}
TEST_END

static const TypeCase like_cases[] = {
    {"~~", "text,text", {"abc", "abc"}, "t"},
    {"~~", "text,text", {"abc", "a%"}, "t"},
    {"~~", "text,text", {"abc", "%c"}, "t"},
    {"~~", "text,text", {"abc", "%b%"}, "t"},
    {"~~", "text,text", {"abc", "_b_"}, "t"},
    {"~~", "text,text", {"abc", "__"}, "f"},
    {"~~", "text,text", {"abc", "%%%"}, "t"},
    {"~~", "text,text", {"", "%"}, "t"},
    {"~~", "text,text", {"", "_"}, "f"},
    {"~~", "text,text", {"", ""}, "t"},
    {"~~", "text,text", {"a", ""}, "f"},
    {"~~", "text,text", {"héllo", "h_llo"}, "t"},
    {"~~", "text,text", {"héllo", "h__llo"}, "f"},
    {"~~", "text,text", {"日本語", "%本%"}, "t"},
    {"~~", "text,text", {"日本語", "_本_"}, "t"},
    {"~~", "text,text", {"a%c", "a\\%c"}, "t"},
    {"~~", "text,text", {"abc", "a\\%c"}, "f"},
    {"~~", "text,text", {"a_c", "%\\_%"}, "t"},
    {"~~", "text,text", {"abc", "%\\_%"}, "f"},
    {"~~", "text,text", {"a\\c", "a\\\\c"}, "t"},
    {"~~", "text,text", {"abc", "a\\bc"}, "t"},
    {"~~", "text,text", {"abc", "x\\"}, "f"},
    {"~~", "text,text", {"x", "x\\"}, "f"},
    {"~~", "text,text", {"xy", "x\\"}, "ERROR 22025 LIKE pattern must not end with escape character"},
    {"~~", "text,text", {"xy", "x%\\"}, "ERROR 22025 LIKE pattern must not end with escape character"},
    {"~~", "text,text", {"mississippi", "%iss%ppi"}, "t"},
    {"~~", "text,text", {"mississippi", "%is%is%is%"}, "f"},
    {"~~", "text,text", {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "%a%a%a%a%a%a%a%c"}, "f"},
    {"~~", "text,text", {"abc", "%_%_%_%_"}, "f"},
    {"~~", "text,text", {"abcd", "%_%_%_%_"}, "t"},
    {"!~~", "text,text", {"abc", "a%"}, "f"},
    {"~~*", "text,text", {"ABC", "a%"}, "t"},
    {"~~*", "text,text", {"abc", "A_C"}, "t"},
    {"~~*", "text,text", {"ÉA", "éa"}, "f"},
    {"!~~*", "text,text", {"ABC", "%b%"}, "f"},
    {"~~", "bpchar,text", {"a  ", "a"}, "f"},
    {"~~", "bpchar,text", {"a  ", "a%"}, "t"},
    {"!~~", "bpchar,text", {"ab", "a_"}, "f"},
    {"~~*", "bpchar,text", {"AB", "ab"}, "t"},
    {"~~", "name,text", {"pg_class", "pg\\_%"}, "t"},
    {"!~~", "name,text", {"pgxclass", "pg\\_%"}, "t"},
    {"~~*", "name,text", {"PG_Class", "pg_c%"}, "t"},
    {"!~~*", "name,text", {"PG_Class", "pg_c%"}, "f"},
    {"~~", "text,text", {NULL, "a"}, NULL},
    {"like_escape", "text,text", {"a#%b\\c", "#"}, "a\\%b\\\\c"},
    {"like_escape", "text,text", {"a#%b\\c##", "#"}, "a\\%b\\\\c\\#"},
    {"like_escape", "text,text", {"a#\\b", "#"}, "a\\\\b"},
    {"like_escape", "text,text", {"a\\b%", ""}, "a\\\\b%"},
    {"like_escape", "text,text", {"a\\%b", "\\"}, "a\\%b"},
    {"like_escape", "text,text", {"a§%", "§"}, "a\\%"},
    {"like_escape", "text,text", {"abc", "##"}, "ERROR 22025 invalid escape string"},
};

TEST_BEGIN(test_text_like)
{
    tt_check_cases(like_cases);
}
TEST_END

static const TypeCase cast_cases[] = {
    {"::", "text,varchar", {"abc"}, "abc"},
    {"::", "varchar,text", {"abc "}, "abc "},
    {"::", "text,bpchar", {"ab  "}, "ab  "},
    {"::", "bpchar,text", {"ab  "}, "ab"},
    {"::", "bpchar,varchar", {"ab  "}, "ab"},
    {"::", "varchar,bpchar", {"ab "}, "ab "},
    {"::", "text,name", {"abc"}, "abc"},
    {"::", "text,name", {"0123456789012345678901234567890123456789012345678901234567890123456789"}, "012345678901234567890123456789012345678901234567890123456789012"},
    {"::", "text,name", {"ééééééééééééééééééééééééééééééééééééééééééé"}, "ééééééééééééééééééééééééééééééé"},
    {"::", "bpchar,name", {"ab  "}, "ab"},
    {"::", "name,text", {"abc"}, "abc"},
    {"::", "name,bpchar", {"abc"}, "abc"},
    {"::", "name,varchar", {"abc"}, "abc"},
    {"::", "text,char", {"abc"}, "a"},
    {"::", "text,char", {""}, ""},
    {"::", "text,char", {"\\101"}, "A"},
    {"::", "text,char", {"é"}, "\\303"},
    {"::", "char,text", {"\\200"}, "\\200"},
    {"::", "char,text", {""}, ""},
    {"::", "char,int4", {"\\200"}, "-128"},
    {"::", "char,int4", {"A"}, "65"},
    {"::", "int4,char", {"65"}, "A"},
    {"::", "int4,char", {"-128"}, "\\200"},
    {"::", "int4,char", {"200"}, "ERROR 22003 \"char\" out of range"},
    {"::", "text,char", {"\\377"}, "\\377"},
    {"::", "varchar,char", {"xyz"}, "x"},
    {"::", "bpchar,char", {"q  "}, "q"},
    {"text", "bpchar", {"ab  "}, "ab"},
    {"name", "text", {"abc"}, "abc"},
    {"char", "int4", {"66"}, "B"},
    {"int4", "char", {"B"}, "66"},
    {"bpchar", "name", {"nm"}, "nm"},
    {"varchar", "name", {"nm"}, "nm"},
};

TEST_BEGIN(test_text_casts)
{
    const CastDesc *c;

    tt_check_cases(cast_cases);
    c = tdb_cast_lookup(TEXTOID, VARCHAROID);
    expect_true(c != NULL && c->method == CAST_METHOD_BINARY &&
                c->context == CAST_IMPLICIT);
    c = tdb_cast_lookup(BPCHAROID, TEXTOID);
    expect_true(c != NULL && c->method == CAST_METHOD_FUNCTION &&
                c->context == CAST_IMPLICIT);
    c = tdb_cast_lookup(TEXTOID, CHAROID);
    expect_true(c != NULL && c->context == CAST_ASSIGNMENT);
    c = tdb_cast_lookup(INT4OID, CHAROID);
    expect_true(c != NULL && c->context == CAST_EXPLICIT);
    c = tdb_cast_lookup(NAMEOID, VARCHAROID);
    expect_true(c != NULL && c->context == CAST_ASSIGNMENT);
}
TEST_END

/* ----------------------------------------------------------------------
 * Typmods: varchar(n) and char(n)
 * ---------------------------------------------------------------------- */

#define VC3 (3 + VARHDRSZ)
#define BP3 (3 + VARHDRSZ)

static char *
fit(Oid typid, const char *s, int32 typmod, bool is_explicit)
{
    const TypeSupport *ts = tdb_type_support(typid);
    Datum v = tdb_type_input(typid, s, -1);

    return tdb_type_output(typid, ts->apply_typmod(v, typmod, is_explicit));
}

TEST_BEGIN(test_text_typmods)
{
    /* input with the column's typmod */
    expect_str_eq(tdb_type_output(VARCHAROID,
                                  tdb_type_input(VARCHAROID, "ab", VC3)),
                  "ab");
    expect_str_eq(tdb_type_output(VARCHAROID,
                                  tdb_type_input(VARCHAROID, "abc   ", VC3)),
                  "abc");
    expect_error(tdb_type_input(VARCHAROID, "abcd", VC3),
                 ERRCODE_STRING_DATA_RIGHT_TRUNCATION,
                 "value too long for type character varying(3)");
    expect_str_eq(tdb_type_output(VARCHAROID,
                                  tdb_type_input(VARCHAROID, "日本語", VC3)),
                  "日本語");
    expect_str_eq(tdb_type_output(BPCHAROID,
                                  tdb_type_input(BPCHAROID, "a", BP3)),
                  "a  ");
    expect_str_eq(tdb_type_output(BPCHAROID,
                                  tdb_type_input(BPCHAROID, "é", BP3)),
                  "é  ");
    expect_str_eq(tdb_type_output(BPCHAROID,
                                  tdb_type_input(BPCHAROID, "abc  ", BP3)),
                  "abc");
    expect_error(tdb_type_input(BPCHAROID, "abcd", BP3),
                 ERRCODE_STRING_DATA_RIGHT_TRUNCATION,
                 "value too long for type character(3)");
    expect_str_eq(tdb_type_output(BPCHAROID,
                                  tdb_type_input(BPCHAROID, "ab ", -1)),
                  "ab ");

    /* assignment raises, an explicit cast cuts */
    expect_error(fit(VARCHAROID, "abcdef", VC3, false),
                 ERRCODE_STRING_DATA_RIGHT_TRUNCATION,
                 "value too long for type character varying(3)");
    expect_str_eq(fit(VARCHAROID, "abcdef", VC3, true), "abc");
    expect_str_eq(fit(VARCHAROID, "日本語テキスト", VC3, true), "日本語");
    expect_str_eq(fit(VARCHAROID, "ab    ", VC3, false), "ab ");
    expect_str_eq(fit(VARCHAROID, "ab", -1, false), "ab");
    expect_error(fit(BPCHAROID, "abcdef", BP3, false),
                 ERRCODE_STRING_DATA_RIGHT_TRUNCATION,
                 "value too long for type character(3)");
    expect_str_eq(fit(BPCHAROID, "abcdef", BP3, true), "abc");
    expect_str_eq(fit(BPCHAROID, "x", BP3, false), "x  ");
    expect_str_eq(fit(BPCHAROID, "x", 1 + VARHDRSZ, false), "x");
    expect_str_eq(fit(BPCHAROID, "日本語テ", BP3, true), "日本語");

    /* the SQL-callable length coercions */
    {
        static const TypeCase cases[] = {
            {"varchar", "varchar,int4,bool", {"abcd", "7", "t"}, "abc"},
            {"bpchar", "bpchar,int4,bool", {"ab", "8", "f"}, "ab  "},
        };

        tt_check_cases(cases);
    }

    expect_str_eq(tdb_format_type(VARCHAROID, VC3), "character varying(3)");
    expect_str_eq(tdb_format_type(BPCHAROID, 10 + VARHDRSZ), "character(10)");
    expect_str_eq(tdb_format_type(VARCHAROID, -1), "character varying");
    expect_ptr_null(tdb_type_support(TEXTOID)->apply_typmod);
}
TEST_END

TEST_BEGIN(test_text_type_support)
{
    static const Oid types[] = {TEXTOID, VARCHAROID, BPCHAROID, NAMEOID,
                                CHAROID};

    for (Size i = 0; i < lengthof(types); i++) {
        const TypeSupport *ts = tdb_type_support(types[i]);
        Datum a = tdb_type_input(types[i], "a", -1);
        Datum b = tdb_type_input(types[i], "b", -1);

        expect_ptr_not_null(ts);
        expect_true(DatumGetInt32(tdb_direct_call2(ts->cmp, a, b)) < 0);
        expect_true(DatumGetInt32(tdb_direct_call2(ts->cmp, b, a)) > 0);
        expect_true(DatumGetBool(tdb_direct_call2(ts->eq, a, a)));
        expect_str_eq(tdb_type_output(types[i], b), "b");
    }
    /* bpchar: trailing spaces do not count for equality or hashing */
    {
        const TypeSupport *ts = tdb_type_support(BPCHAROID);
        Datum x = tdb_type_input(BPCHAROID, "x", -1);
        Datum xp = tdb_type_input(BPCHAROID, "x   ", -1);

        expect_true(DatumGetBool(tdb_direct_call2(ts->eq, x, xp)));
        expect_int_eq(DatumGetInt32(tdb_direct_call1(ts->hash, x)),
                      DatumGetInt32(tdb_direct_call1(ts->hash, xp)));
    }
    /* text with a short (1-byte) header reads the same */
    {
        char buf[8];
        Datum plain = tdb_type_input(TEXTOID, "abc", -1);

        SET_VARSIZE_SHORT(buf, 4);
        memcpy(buf + 1, "abc", 3);
        expect_true(DatumGetBool(tdb_direct_call2(
            tdb_type_support(TEXTOID)->eq, plain, PointerGetDatum(buf))));
        expect_int_eq(
            DatumGetInt32(tdb_direct_call1(tdb_type_support(TEXTOID)->hash,
                                           PointerGetDatum(buf))),
            DatumGetInt32(
                tdb_direct_call1(tdb_type_support(TEXTOID)->hash, plain)));
    }
    /* name input keeps at most 63 bytes */
    expect_int_eq(
        (long long)strlen(DatumGetPointer(tdb_type_input(
            NAMEOID,
            "0123456789012345678901234567890123456789012345678901234567890123456789",
            -1))),
        63);
    expect_str_eq(tdb_type_output(CHAROID, tdb_type_input(CHAROID, "\\377", -1)),
                  "\\377");
    expect_str_eq(tdb_type_output(CHAROID, tdb_type_input(CHAROID, "", -1)),
                  "");
}
TEST_END

/* The one-argument concat row. */
static const FuncDesc *
concat1(void)
{
    const FuncDesc *cands[16];
    int n = tdb_func_candidates("concat", cands, 16);

    expect_int_eq(n, FUNC_MAX_ARGS);
    for (int i = 0; i < n && i < 16; i++)
        if (cands[i]->nargs == 1)
            return cands[i];
    return NULL;
}

/* Call concat(1) without telling it the argument's type. */
static void
call_concat_untyped(const FuncDesc *f)
{
    FunctionCallInfoData fcinfo = {0};
    FmgrInfo flinfo = {0};

    fcinfo.flinfo = &flinfo;
    fcinfo.nargs = 1;
    fcinfo.args[0].value = Int32GetDatum(1);
    (void)f->fn(&fcinfo);
}

/* concat's "any" arguments need the call's argument types */
TEST_BEGIN(test_text_concat_needs_types)
{
    const FuncDesc *f = concat1();

    expect_ptr_not_null(f);
    if (f == NULL)
        return;
    expect_false(f->strict);
    expect_int_eq(f->volatility, PROVOLATILE_STABLE);
    expect_error(call_concat_untyped(f), ERRCODE_INVALID_PARAMETER_VALUE,
                 "could not determine data type of concat() input");
}
TEST_END

TEST_BEGIN(test_text_aggregates)
{
    static const char *const words[] = {"pear", ",", NULL, ";", "apple", "-",
                                        "fig", NULL, "", "+"};
    static const char *const vals[] = {"pear", NULL, "Apple", "apple", "fig"};
    static const char *const padded[] = {"b  ", "a", "a "};
    static const char *const nulls[] = {NULL, ",", NULL, ","};

    expect_str_eq(tt_aggregate("string_agg", "text,text", words, 5),
                  "pear-applefig+");
    expect_ptr_null(tt_aggregate("string_agg", "text,text", nulls, 2));
    expect_ptr_null(tt_aggregate("string_agg", "text,text", NULL, 0));
    expect_str_eq(tt_aggregate("min", "text", vals, 5), "Apple");
    expect_str_eq(tt_aggregate("max", "text", vals, 5), "pear");
    expect_str_eq(tt_aggregate("max", "bpchar", padded, 3), "b  ");
    expect_str_eq(tt_aggregate("min", "bpchar", padded, 3), "a");
    expect_ptr_null(tt_aggregate("max", "text", nulls, 1));
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "types_text",
                     TEST_CASE(test_text_compare_hash),
                     TEST_CASE(test_text_functions), TEST_CASE(test_text_like),
                     TEST_CASE(test_text_casts), TEST_CASE(test_text_typmods),
                     TEST_CASE(test_text_type_support),
                     TEST_CASE(test_text_concat_needs_types),
                     TEST_CASE(test_text_aggregates));
}
