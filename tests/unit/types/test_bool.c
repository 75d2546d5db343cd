/*
 * test_bool.c -- bool through the registry: PostgreSQL's input
 * spellings and prefixes, output, comparisons, casts to and from int4
 * and text, hashing, and the aggregates bool_and, bool_or and every.
 * Expected values come from PostgreSQL 15.
 */
#include "common/base.h"

#include "types_test.h"

static const TypeCase bool_cases[] = {
    {"::", "text,bool", {"t"}, "t"},
    {"::", "text,bool", {"TRUE"}, "t"},
    {"::", "text,bool", {"  TrU  "}, "t"},
    {"::", "text,bool", {"tru"}, "t"},
    {"::", "text,bool", {"truex"}, "ERROR 22P02 invalid input syntax for type boolean: \"truex\""},
    {"::", "text,bool", {"f"}, "f"},
    {"::", "text,bool", {"FALSE"}, "f"},
    {"::", "text,bool", {"fa"}, "f"},
    {"::", "text,bool", {"y"}, "t"},
    {"::", "text,bool", {"YES"}, "t"},
    {"::", "text,bool", {"n"}, "f"},
    {"::", "text,bool", {"no"}, "f"},
    {"::", "text,bool", {"on"}, "t"},
    {"::", "text,bool", {"ON"}, "t"},
    {"::", "text,bool", {"of"}, "f"},
    {"::", "text,bool", {"off"}, "f"},
    {"::", "text,bool", {"o"}, "ERROR 22P02 invalid input syntax for type boolean: \"o\""},
    {"::", "text,bool", {"offf"}, "ERROR 22P02 invalid input syntax for type boolean: \"offf\""},
    {"::", "text,bool", {"1"}, "t"},
    {"::", "text,bool", {"0"}, "f"},
    {"::", "text,bool", {"01"}, "ERROR 22P02 invalid input syntax for type boolean: \"01\""},
    {"::", "text,bool", {"2"}, "ERROR 22P02 invalid input syntax for type boolean: \"2\""},
    {"::", "text,bool", {""}, "ERROR 22P02 invalid input syntax for type boolean: \"\""},
    {"::", "text,bool", {"   "}, "ERROR 22P02 invalid input syntax for type boolean: \"   \""},
    {"::", "text,bool", {"\tyes\n"}, "t"},
    {"::", "text,bool", {"abc"}, "ERROR 22P02 invalid input syntax for type boolean: \"abc\""},
    {"::", "text,bool", {"t rue"}, "ERROR 22P02 invalid input syntax for type boolean: \"t rue\""},
    {"::", "varchar,bool", {"no"}, "f"},
    {"::", "bool,text", {"t"}, "true"},
    {"::", "bool,text", {"f"}, "false"},
    {"::", "bool,varchar", {"t"}, "true"},
    {"::", "bool,bpchar", {"f"}, "false"},
    {"::", "bool,int4", {"t"}, "1"},
    {"::", "bool,int4", {"f"}, "0"},
    {"::", "int4,bool", {"0"}, "f"},
    {"::", "int4,bool", {"-5"}, "t"},
    {"=", "bool,bool", {"t", "t"}, "t"},
    {"<>", "bool,bool", {"t", "f"}, "t"},
    {"<", "bool,bool", {"f", "t"}, "t"},
    {"<", "bool,bool", {"t", "f"}, "f"},
    {">", "bool,bool", {"t", "f"}, "t"},
    {"<=", "bool,bool", {"t", "t"}, "t"},
    {">=", "bool,bool", {"f", "t"}, "f"},
    {"=", "bool,bool", {"t", NULL}, NULL},
    {"bool", "int4", {"7"}, "t"},
    {"int4", "bool", {"t"}, "1"},
    {"text", "bool", {"f"}, "false"},
    {"btboolcmp", "bool,bool", {"t", "f"}, "1"},
};

TEST_BEGIN(test_bool_cases)
{
    tt_check_cases(bool_cases);
}
TEST_END

TEST_BEGIN(test_bool_support)
{
    const TypeSupport *ts = tdb_type_support(BOOLOID);
    const CastDesc *c;

    expect_str_eq(tdb_type_output(BOOLOID, BoolGetDatum(true)), "t");
    expect_str_eq(tdb_type_output(BOOLOID, BoolGetDatum(false)), "f");
    expect_int_eq(DatumGetInt32(tdb_direct_call2(ts->cmp, BoolGetDatum(false),
                                                 BoolGetDatum(true))) < 0,
                  1);
    expect_true(DatumGetBool(
        tdb_direct_call2(ts->eq, BoolGetDatum(true), BoolGetDatum(true))));
    /* PostgreSQL hashes bool like "char": hashchar(1) */
    expect_int_eq(DatumGetInt32(tdb_direct_call1(ts->hash, BoolGetDatum(true))),
                  DatumGetInt32(tdb_direct_call1(
                      tdb_type_support(CHAROID)->hash, CharGetDatum(1))));
    expect_error(tdb_type_input(BOOLOID, "maybe", -1),
                 ERRCODE_INVALID_TEXT_REPRESENTATION,
                 "invalid input syntax for type boolean: \"maybe\"");
    c = tdb_cast_lookup(BOOLOID, INT4OID);
    expect_true(c != NULL && c->context == CAST_EXPLICIT);
    c = tdb_cast_lookup(BOOLOID, TEXTOID);
    expect_true(c != NULL && c->context == CAST_ASSIGNMENT);
    c = tdb_cast_lookup(TEXTOID, BOOLOID);
    expect_true(c != NULL && c->context == CAST_EXPLICIT &&
                c->method == CAST_METHOD_INOUT);
    expect_str_eq(tdb_format_type(BOOLOID, -1), "boolean");
}
TEST_END

TEST_BEGIN(test_bool_aggregates)
{
    static const char *const mixed[] = {"t", NULL, "f", "t"};
    static const char *const trues[] = {"t", NULL, "t"};
    static const char *const nulls[] = {NULL, NULL};

    expect_str_eq(tt_aggregate("bool_and", "bool", mixed, 4), "f");
    expect_str_eq(tt_aggregate("bool_or", "bool", mixed, 4), "t");
    expect_str_eq(tt_aggregate("every", "bool", mixed, 4), "f");
    expect_str_eq(tt_aggregate("bool_and", "bool", trues, 3), "t");
    expect_str_eq(tt_aggregate("every", "bool", trues, 3), "t");
    expect_ptr_null(tt_aggregate("bool_or", "bool", nulls, 2));
    expect_ptr_null(tt_aggregate("bool_and", "bool", NULL, 0));
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "types_bool", TEST_CASE(test_bool_cases),
                     TEST_CASE(test_bool_support),
                     TEST_CASE(test_bool_aggregates));
}
