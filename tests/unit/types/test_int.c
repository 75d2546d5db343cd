/*
 * test_int.c -- int2, int4, int8 and oid through the registry: input
 * edge cases and their errors, every arithmetic operator's overflow
 * and division by zero, the mixed-width operators, casts between the
 * widths, hashing that agrees across widths, and the aggregates count,
 * sum, min and max.  Expected values come from PostgreSQL 15.
 */
#include "common/base.h"

#include "types_test.h"

/* ----------------------------------------------------------------------
 * Input and output
 * ---------------------------------------------------------------------- */

static const TypeCase io_cases[] = {
    {"::", "text,int4", {" 12 "}, "12"},
    {"::", "text,int4", {"+5"}, "5"},
    {"::", "text,int2", {"-0"}, "0"},
    {"::", "text,int4", {"-2147483648"}, "-2147483648"},
    {"::", "text,int4", {"2147483647"}, "2147483647"},
    {"::", "text,int4", {"2147483648"}, "ERROR 22003 value \"2147483648\" is out of range for type integer"},
    {"::", "text,int4", {"-2147483649"}, "ERROR 22003 value \"-2147483649\" is out of range for type integer"},
    {"::", "text,int4", {"99999999999x"}, "ERROR 22003 value \"99999999999x\" is out of range for type integer"},
    {"::", "text,int4", {"1 2"}, "ERROR 22P02 invalid input syntax for type integer: \"1 2\""},
    {"::", "text,int4", {""}, "ERROR 22P02 invalid input syntax for type integer: \"\""},
    {"::", "text,int4", {"-"}, "ERROR 22P02 invalid input syntax for type integer: \"-\""},
    {"::", "text,int4", {"abc"}, "ERROR 22P02 invalid input syntax for type integer: \"abc\""},
    {"::", "text,int4", {"12a"}, "ERROR 22P02 invalid input syntax for type integer: \"12a\""},
    {"::", "text,int4", {"0x10"}, "ERROR 22P02 invalid input syntax for type integer: \"0x10\""},
    {"::", "text,int4", {"1e3"}, "ERROR 22P02 invalid input syntax for type integer: \"1e3\""},
    {"::", "text,int4", {"\t\n 7\r\n"}, "7"},
    {"::", "text,int4", {"+-1"}, "ERROR 22P02 invalid input syntax for type integer: \"+-1\""},
    {"::", "text,int4", {"00000000000000000000042"}, "42"},
    {"::", "text,int2", {"32767"}, "32767"},
    {"::", "text,int2", {"-32768"}, "-32768"},
    {"::", "text,int2", {"32768"}, "ERROR 22003 value \"32768\" is out of range for type smallint"},
    {"::", "text,int2", {"99999"}, "ERROR 22003 value \"99999\" is out of range for type smallint"},
    {"::", "text,int2", {"x"}, "ERROR 22P02 invalid input syntax for type smallint: \"x\""},
    {"::", "text,int8", {"-9223372036854775808"}, "-9223372036854775808"},
    {"::", "text,int8", {"9223372036854775807"}, "9223372036854775807"},
    {"::", "text,int8", {"9223372036854775808"}, "ERROR 22003 value \"9223372036854775808\" is out of range for type bigint"},
    {"::", "text,int8", {"-9223372036854775809"}, "ERROR 22003 value \"-9223372036854775809\" is out of range for type bigint"},
    {"::", "text,int8", {"  "}, "ERROR 22P02 invalid input syntax for type bigint: \"  \""},
    {"::", "text,int8", {"18446744073709551616"}, "ERROR 22003 value \"18446744073709551616\" is out of range for type bigint"},
    {"::", "text,oid", {"-1"}, "4294967295"},
    {"::", "text,oid", {"4294967295"}, "4294967295"},
    {"::", "text,oid", {" 7 "}, "7"},
    {"::", "text,oid", {"4294967296"}, "ERROR 22003 value \"4294967296\" is out of range for type oid"},
    {"::", "text,oid", {"-2147483648"}, "2147483648"},
    {"::", "text,oid", {"-2147483649"}, "ERROR 22003 value \"-2147483649\" is out of range for type oid"},
    {"::", "text,oid", {"x"}, "ERROR 22P02 invalid input syntax for type oid: \"x\""},
    {"::", "text,oid", {""}, "ERROR 22P02 invalid input syntax for type oid: \"\""},
    {"::", "text,oid", {"12x"}, "ERROR 22P02 invalid input syntax for type oid: \"12x\""},
    {"::", "text,oid", {"99999999999999999999"}, "ERROR 22003 value \"99999999999999999999\" is out of range for type oid"},
    {"::", "int4,text", {"-42"}, "-42"},
    {"::", "int8,varchar", {"-9223372036854775808"}, "-9223372036854775808"},
    {"::", "oid,text", {"4294967295"}, "4294967295"},
};

TEST_BEGIN(test_int_io)
{
    tt_check_cases(io_cases);
}
TEST_END

/* ----------------------------------------------------------------------
 * Operators
 * ---------------------------------------------------------------------- */

static const TypeCase arith_cases[] = {
    {"+", "int4,int4", {"2147483647", "1"}, "ERROR 22003 integer out of range"},
    {"+", "int4,int4", {"2147483646", "1"}, "2147483647"},
    {"-", "int4,int4", {"-2147483648", "1"}, "ERROR 22003 integer out of range"},
    {"*", "int4,int4", {"65536", "32768"}, "ERROR 22003 integer out of range"},
    {"*", "int4,int4", {"-65536", "32768"}, "-2147483648"},
    {"/", "int4,int4", {"7", "-2"}, "-3"},
    {"/", "int4,int4", {"-7", "2"}, "-3"},
    {"/", "int4,int4", {"1", "0"}, "ERROR 22012 division by zero"},
    {"/", "int4,int4", {"-2147483648", "-1"}, "ERROR 22003 integer out of range"},
    {"%", "int4,int4", {"-7", "3"}, "-1"},
    {"%", "int4,int4", {"7", "-3"}, "1"},
    {"%", "int4,int4", {"-2147483648", "-1"}, "0"},
    {"%", "int4,int4", {"5", "0"}, "ERROR 22012 division by zero"},
    {"-", "int4", {"-2147483648"}, "ERROR 22003 integer out of range"},
    {"-", "int4", {"5"}, "-5"},
    {"+", "int4", {"5"}, "5"},
    {"@", "int4", {"-2147483648"}, "ERROR 22003 integer out of range"},
    {"@", "int4", {"-5"}, "5"},
    {"+", "int2,int2", {"32767", "1"}, "ERROR 22003 smallint out of range"},
    {"-", "int2,int2", {"-32768", "1"}, "ERROR 22003 smallint out of range"},
    {"*", "int2,int2", {"-32768", "-1"}, "ERROR 22003 smallint out of range"},
    {"/", "int2,int2", {"-32768", "-1"}, "ERROR 22003 smallint out of range"},
    {"/", "int2,int2", {"5", "0"}, "ERROR 22012 division by zero"},
    {"%", "int2,int2", {"-32768", "-1"}, "0"},
    {"-", "int2", {"-32768"}, "ERROR 22003 smallint out of range"},
    {"@", "int2", {"-32768"}, "ERROR 22003 smallint out of range"},
    {"+", "int8,int8", {"9223372036854775807", "1"}, "ERROR 22003 bigint out of range"},
    {"-", "int8,int8", {"-9223372036854775808", "1"}, "ERROR 22003 bigint out of range"},
    {"*", "int8,int8", {"4294967296", "4294967296"}, "ERROR 22003 bigint out of range"},
    {"*", "int8,int8", {"-9223372036854775808", "-1"}, "ERROR 22003 bigint out of range"},
    {"*", "int8,int8", {"3037000499", "3037000499"}, "9223372030926249001"},
    {"/", "int8,int8", {"-9223372036854775808", "-1"}, "ERROR 22003 bigint out of range"},
    {"/", "int8,int8", {"9", "0"}, "ERROR 22012 division by zero"},
    {"%", "int8,int8", {"-9223372036854775808", "-1"}, "0"},
    {"%", "int8,int8", {"-9", "4"}, "-1"},
    {"-", "int8", {"-9223372036854775808"}, "ERROR 22003 bigint out of range"},
    {"@", "int8", {"-9223372036854775808"}, "ERROR 22003 bigint out of range"},
    {"@", "int8", {"-9223372036854775807"}, "9223372036854775807"},
    /* mixed widths: the result type decides the range */
    {"+", "int2,int4", {"32767", "2147483647"}, "ERROR 22003 integer out of range"},
    {"+", "int2,int4", {"32767", "1"}, "32768"},
    {"+", "int4,int2", {"2147483647", "1"}, "ERROR 22003 integer out of range"},
    {"-", "int2,int4", {"-32768", "2147483647"}, "ERROR 22003 integer out of range"},
    {"*", "int4,int2", {"2147483647", "2"}, "ERROR 22003 integer out of range"},
    {"/", "int4,int2", {"-2147483648", "-1"}, "ERROR 22003 integer out of range"},
    {"/", "int2,int4", {"-32768", "-1"}, "32768"},
    {"/", "int2,int4", {"1", "0"}, "ERROR 22012 division by zero"},
    {"+", "int2,int8", {"1", "9223372036854775807"}, "ERROR 22003 bigint out of range"},
    {"-", "int8,int2", {"-9223372036854775808", "1"}, "ERROR 22003 bigint out of range"},
    {"*", "int8,int2", {"4611686018427387904", "2"}, "ERROR 22003 bigint out of range"},
    {"/", "int8,int2", {"-9223372036854775808", "-1"}, "ERROR 22003 bigint out of range"},
    {"/", "int2,int8", {"7", "2"}, "3"},
    {"+", "int4,int8", {"2147483647", "2147483647"}, "4294967294"},
    {"-", "int8,int4", {"-9223372036854775808", "1"}, "ERROR 22003 bigint out of range"},
    {"*", "int4,int8", {"-2147483648", "4294967296"}, "-9223372036854775808"},
    {"*", "int4,int8", {"-2147483648", "4294967297"}, "ERROR 22003 bigint out of range"},
    {"/", "int8,int4", {"-9223372036854775808", "-1"}, "ERROR 22003 bigint out of range"},
    {"/", "int4,int8", {"-2147483648", "-1"}, "2147483648"},
    {"/", "int8,int4", {"5", "0"}, "ERROR 22012 division by zero"},
    /* bitwise */
    {"&", "int4,int4", {"12", "10"}, "8"},
    {"|", "int2,int2", {"12", "10"}, "14"},
    {"#", "int8,int8", {"12", "10"}, "6"},
    {"~", "int4", {"5"}, "-6"},
    {"~", "int2", {"0"}, "-1"},
    {"<<", "int4,int4", {"1", "32"}, "1"},
    {"<<", "int4,int4", {"1", "-1"}, "-2147483648"},
    {"<<", "int4,int4", {"1", "31"}, "-2147483648"},
    {"<<", "int2,int4", {"1", "20"}, "0"},
    {"<<", "int2,int4", {"1", "15"}, "-32768"},
    {">>", "int2,int4", {"-32768", "1"}, "-16384"},
    {">>", "int4,int4", {"-8", "1"}, "-4"},
    {"<<", "int8,int4", {"1", "64"}, "1"},
    {"<<", "int8,int4", {"1", "63"}, "-9223372036854775808"},
    {">>", "int8,int4", {"-9223372036854775808", "63"}, "-1"},
    /* NULLs: every operator is strict */
    {"+", "int4,int4", {NULL, "1"}, NULL},
    {"/", "int4,int4", {"1", NULL}, NULL},
    {"-", "int8", {NULL}, NULL},
};

TEST_BEGIN(test_int_arithmetic)
{
    tt_check_cases(arith_cases);
}
TEST_END

static const TypeCase cmp_cases[] = {
    {"=", "int2,int4", {"5", "5"}, "t"},
    {"<>", "int4,int2", {"5", "5"}, "f"},
    {"<", "int2,int8", {"-1", "9223372036854775807"}, "t"},
    {">", "int8,int2", {"-1", "-32768"}, "t"},
    {"<=", "int4,int8", {"2147483647", "2147483648"}, "t"},
    {">=", "int8,int4", {"2147483648", "2147483647"}, "t"},
    {"=", "int8,int4", {"4294967297", "1"}, "f"},
    {"<", "int2,int2", {"-32768", "32767"}, "t"},
    {">", "int4,int4", {"-1", "0"}, "f"},
    {"<=", "int8,int8", {"5", "5"}, "t"},
    {"<", "oid,oid", {"1", "4294967295"}, "t"},
    {">", "oid,oid", {"2147483648", "2147483647"}, "t"},
    {"=", "oid,oid", {"-1", "4294967295"}, "t"},
    {"=", "int4,int4", {NULL, NULL}, NULL},
};

TEST_BEGIN(test_int_comparisons)
{
    tt_check_cases(cmp_cases);
}
TEST_END

/* ----------------------------------------------------------------------
 * Functions and casts
 * ---------------------------------------------------------------------- */

static const TypeCase func_cases[] = {
    {"abs", "int2", {"-32767"}, "32767"},
    {"abs", "int4", {"-2147483648"}, "ERROR 22003 integer out of range"},
    {"abs", "int8", {"-9223372036854775807"}, "9223372036854775807"},
    {"mod", "int4,int4", {"-7", "3"}, "-1"},
    {"mod", "int2,int2", {"5", "0"}, "ERROR 22012 division by zero"},
    {"mod", "int8,int8", {"-9223372036854775808", "-1"}, "0"},
    {"gcd", "int4,int4", {"0", "0"}, "0"},
    {"gcd", "int4,int4", {"-12", "18"}, "6"},
    {"gcd", "int4,int4", {"-2147483648", "1"}, "1"},
    {"gcd", "int4,int4", {"-2147483648", "0"}, "ERROR 22003 integer out of range"},
    {"gcd", "int4,int4", {"-2147483648", "-2147483648"}, "ERROR 22003 integer out of range"},
    {"gcd", "int8,int8", {"-9223372036854775808", "0"}, "ERROR 22003 bigint out of range"},
    {"gcd", "int8,int8", {"-9223372036854775808", "6"}, "2"},
    {"lcm", "int4,int4", {"4", "-6"}, "12"},
    {"lcm", "int4,int4", {"0", "5"}, "0"},
    {"lcm", "int4,int4", {"2147483647", "2"}, "ERROR 22003 integer out of range"},
    {"lcm", "int4,int4", {"-2147483648", "1"}, "ERROR 22003 integer out of range"},
    {"lcm", "int8,int8", {"9223372036854775807", "3"}, "ERROR 22003 bigint out of range"},
    {"int4larger", "int4,int4", {"3", "-3"}, "3"},
    {"int8smaller", "int8,int8", {"3", "-3"}, "-3"},
    {"hashint4", "int4", {"1"}, "-1905060026"},
    {"hashint4", "int4", {"-1"}, "385747274"},
    {"hashint2", "int2", {"7"}, "-978793473"},
    {"hashint8", "int8", {"1"}, "-1905060026"},
    {"hashint8", "int8", {"-5"}, "1412886042"},
    {"hashint8", "int8", {"4294967296"}, "-1905060026"},
    {"hashint8", "int8", {"-9223372036854775808"}, "-96758253"},
    {"hashoid", "oid", {"3"}, "-28094569"},
    {"btint4cmp", "int4,int4", {"1", "2"}, "-1"},
    {"btint8cmp", "int8,int8", {"2", "2"}, "0"},
    {"btoidcmp", "oid,oid", {"4294967295", "1"}, "1"},
    {"int4", "int8", {"2147483648"}, "ERROR 22003 integer out of range"},
    {"int2", "int4", {"-32769"}, "ERROR 22003 smallint out of range"},
    {"int8", "oid", {"4294967295"}, "4294967295"},
    {"oid", "int8", {"-1"}, "ERROR 22003 OID out of range"},
    {"abs", "int4", {NULL}, NULL},
};

TEST_BEGIN(test_int_functions)
{
    tt_check_cases(func_cases);
}
TEST_END

static const TypeCase cast_cases[] = {
    {"::", "int8,int4", {"2147483647"}, "2147483647"},
    {"::", "int8,int4", {"2147483648"}, "ERROR 22003 integer out of range"},
    {"::", "int8,int4", {"-2147483649"}, "ERROR 22003 integer out of range"},
    {"::", "int8,int2", {"-32769"}, "ERROR 22003 smallint out of range"},
    {"::", "int8,int2", {"-32768"}, "-32768"},
    {"::", "int4,int2", {"32768"}, "ERROR 22003 smallint out of range"},
    {"::", "int4,int2", {"-5"}, "-5"},
    {"::", "int2,int4", {"-32768"}, "-32768"},
    {"::", "int2,int8", {"-1"}, "-1"},
    {"::", "int4,int8", {"-2147483648"}, "-2147483648"},
    {"::", "int4,oid", {"-1"}, "4294967295"},
    {"::", "int2,oid", {"-1"}, "4294967295"},
    {"::", "oid,int4", {"4294967295"}, "-1"},
    {"::", "oid,int8", {"4294967295"}, "4294967295"},
    {"::", "int8,oid", {"4294967296"}, "ERROR 22003 OID out of range"},
    {"::", "int8,oid", {"-1"}, "ERROR 22003 OID out of range"},
    {"::", "int8,oid", {"4294967295"}, "4294967295"},
    {"::", "bpchar,int4", {" 12 "}, "12"},
    {"::", "int4,bpchar", {"12"}, "12"},
    {"::", "name,int8", {"77"}, "77"},
};

TEST_BEGIN(test_int_casts)
{
    const CastDesc *c;

    tt_check_cases(cast_cases);
    /* contexts as in pg_cast */
    c = tdb_cast_lookup(INT4OID, INT8OID);
    expect_true(c != NULL && c->context == CAST_IMPLICIT);
    c = tdb_cast_lookup(INT8OID, INT4OID);
    expect_true(c != NULL && c->context == CAST_ASSIGNMENT);
    c = tdb_cast_lookup(INT4OID, TEXTOID);
    expect_true(c != NULL && c->context == CAST_ASSIGNMENT &&
                c->method == CAST_METHOD_INOUT);
    c = tdb_cast_lookup(TEXTOID, INT4OID);
    expect_true(c != NULL && c->context == CAST_EXPLICIT);
    c = tdb_cast_lookup(INT4OID, OIDOID);
    expect_true(c != NULL && c->method == CAST_METHOD_BINARY);
    expect_ptr_null(tdb_cast_lookup(INT4OID, INT4OID));
}
TEST_END

/* ----------------------------------------------------------------------
 * Support functions: equal values hash equal across the widths
 * ---------------------------------------------------------------------- */

static int32
call_hash(Oid typid, Datum v)
{
    return DatumGetInt32(tdb_direct_call1(tdb_type_support(typid)->hash, v));
}

TEST_BEGIN(test_int_hash_across_widths)
{
    static const int64 values[] = {0, 1, -1, 32767, -32768, 12345, -999};
    static const int64 wide[] = {2147483647, -2147483648LL, 65536, -70000};

    for (Size i = 0; i < lengthof(values); i++) {
        int32 h8 = call_hash(INT8OID, Int64GetDatum(values[i]));

        expect_int_eq(call_hash(INT2OID, Int16GetDatum((int16)values[i])), h8);
        expect_int_eq(call_hash(INT4OID, Int32GetDatum((int32)values[i])), h8);
    }
    for (Size i = 0; i < lengthof(wide); i++)
        expect_int_eq(call_hash(INT4OID, Int32GetDatum((int32)wide[i])),
                      call_hash(INT8OID, Int64GetDatum(wide[i])));
    /* the mixed-width equality operators may hash */
    expect_true(tdb_oper_lookup("=", INT2OID, INT8OID)->is_equality);
    expect_true(tdb_oper_lookup("=", INT8OID, INT4OID)->is_equality);
    expect_false(tdb_oper_lookup("<", INT4OID, INT4OID)->is_equality);
}
TEST_END

TEST_BEGIN(test_int_type_support)
{
    static const Oid types[] = {INT2OID, INT4OID, INT8OID, OIDOID};

    for (Size i = 0; i < lengthof(types); i++) {
        const TypeSupport *ts = tdb_type_support(types[i]);
        Datum one = tdb_type_input(types[i], "1", -1);
        Datum two = tdb_type_input(types[i], "2", -1);

        expect_ptr_not_null(ts);
        expect_int_eq(DatumGetInt32(tdb_direct_call2(ts->cmp, one, two)), -1);
        expect_int_eq(DatumGetInt32(tdb_direct_call2(ts->cmp, two, one)), 1);
        expect_int_eq(DatumGetInt32(tdb_direct_call2(ts->cmp, one, one)), 0);
        expect_true(DatumGetBool(tdb_direct_call2(ts->eq, two, two)));
        expect_false(DatumGetBool(tdb_direct_call2(ts->eq, one, two)));
        expect_ptr_null(ts->apply_typmod);
    }
    expect_str_eq(tdb_format_type(INT8OID, -1), "bigint");
}
TEST_END

/* ----------------------------------------------------------------------
 * Aggregates
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_int_aggregates)
{
    static const char *const ints[] = {"3", NULL, "-7", "12", NULL};
    static const char *const nulls[] = {NULL, NULL};
    static const char *const big[] = {"2147483647", "2147483647", "1"};
    static const char *const oids[] = {"4294967295", "1", "2147483648"};

    expect_str_eq(tt_aggregate("count", "", NULL, 5), "5");
    expect_str_eq(tt_aggregate("count", "", NULL, 0), "0");
    expect_str_eq(tt_aggregate("count", "int4", ints, 5), "3");
    expect_str_eq(tt_aggregate("count", "text", nulls, 2), "0");
    expect_str_eq(tt_aggregate("sum", "int4", ints, 5), "8");
    expect_str_eq(tt_aggregate("sum", "int2", ints, 5), "8");
    expect_str_eq(tt_aggregate("sum", "int4", big, 3), "4294967295");
    expect_ptr_null(tt_aggregate("sum", "int4", nulls, 2));
    expect_ptr_null(tt_aggregate("sum", "int4", NULL, 0));
    expect_str_eq(tt_aggregate("min", "int4", ints, 5), "-7");
    expect_str_eq(tt_aggregate("max", "int2", ints, 5), "12");
    expect_str_eq(tt_aggregate("max", "int8", big, 3), "2147483647");
    expect_ptr_null(tt_aggregate("max", "int8", nulls, 2));
    expect_str_eq(tt_aggregate("max", "oid", oids, 3), "4294967295");
    expect_str_eq(tt_aggregate("min", "oid", oids, 3), "1");
}
TEST_END

/* Registry rows: PostgreSQL's OIDs, strictness, result types. */
TEST_BEGIN(test_int_registry_rows)
{
    const OperDesc *op = tdb_oper_lookup("+", INT2OID, INT4OID);
    const AggDesc *aggs[8];
    int n;

    expect_int_eq(op->oid, 552);
    expect_int_eq(op->result, INT4OID);
    expect_str_eq(op->commutator, "+");
    op = tdb_oper_lookup("<", INT4OID, INT8OID);
    expect_int_eq(op->oid, 37);
    expect_str_eq(op->negator, ">=");
    expect_str_eq(op->commutator, ">");
    op = tdb_oper_lookup("-", InvalidOid, INT4OID);
    expect_int_eq(op->oid, 558);
    expect_ptr_null(tdb_oper_lookup("%", INT2OID, INT4OID));
    n = tdb_agg_candidates("count", aggs, 8);
    expect_int_eq(n, 2);
    expect_true(tdb_is_aggregate_name("sum"));
    expect_false(tdb_is_aggregate_name("abs"));
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "types_int", TEST_CASE(test_int_io),
                     TEST_CASE(test_int_arithmetic),
                     TEST_CASE(test_int_comparisons),
                     TEST_CASE(test_int_functions), TEST_CASE(test_int_casts),
                     TEST_CASE(test_int_hash_across_widths),
                     TEST_CASE(test_int_type_support),
                     TEST_CASE(test_int_aggregates),
                     TEST_CASE(test_int_registry_rows));
}
