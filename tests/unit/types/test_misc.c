/*
 * test_misc.c -- generate_series over int4 and int8 through the
 * registry's set-returning protocol: steps up and down, empty series,
 * the series that stops short of overflow, a zero step (22023), NULL
 * arguments (no rows).  Expected rows come from PostgreSQL 15.
 */
#include "common/base.h"

#include "types_test.h"

static void
expect_series(const char *types, const char *a, const char *b, const char *c,
              const char *want)
{
    const char *args[3] = {a, b, c};

    expect_str_eq(tt_srf("generate_series", types, args, 100), want);
}

TEST_BEGIN(test_generate_series_int4)
{
    expect_series("int4,int4", "1", "5", NULL, "1,2,3,4,5");
    expect_series("int4,int4", "5", "1", NULL, "");
    expect_series("int4,int4", "3", "3", NULL, "3");
    expect_series("int4,int4,int4", "1", "10", "3", "1,4,7,10");
    expect_series("int4,int4,int4", "10", "1", "-4", "10,6,2");
    expect_series("int4,int4,int4", "1", "10", "-1", "");
    expect_series("int4,int4", "2147483645", "2147483647", NULL,
                  "2147483645,2147483646,2147483647");
    expect_series("int4,int4,int4", "-2147483646", "-2147483648", "-1",
                  "-2147483646,-2147483647,-2147483648");
    expect_series("int4,int4,int4", "0", "2147483647", "2000000000",
                  "0,2000000000");
    expect_series("int4,int4", NULL, "5", NULL, "");
    expect_error(expect_series("int4,int4,int4", "1", "5", "0", ""),
                 ERRCODE_INVALID_PARAMETER_VALUE,
                 "step size cannot equal zero");
}
TEST_END

TEST_BEGIN(test_generate_series_int8)
{
    expect_series("int8,int8", "4294967296", "4294967298", NULL,
                  "4294967296,4294967297,4294967298");
    expect_series("int8,int8,int8", "9223372036854775806",
                  "9223372036854775807", "1",
                  "9223372036854775806,9223372036854775807");
    expect_series("int8,int8,int8", "-9223372036854775807",
                  "-9223372036854775808", "-5", "-9223372036854775807");
    expect_series("int8,int8,int8", "0", "10", "5", "0,5,10");
    expect_error(expect_series("int8,int8,int8", "1", "5", "0", ""),
                 ERRCODE_INVALID_PARAMETER_VALUE,
                 "step size cannot equal zero");
}
TEST_END

TEST_BEGIN(test_generate_series_rows)
{
    const FuncDesc *cands[8];
    int n = tdb_func_candidates("generate_series", cands, 8);

    /* int4, int8 (misc.c); numeric, timestamp, timestamptz (series.c) */
    expect_int_eq(n, 8);
    for (int i = 0; i < n && i < 8; i++) {
        expect_true(cands[i]->retset);
        expect_true(cands[i]->strict);
        expect_int_eq(cands[i]->rettype, cands[i]->argtypes[0]);
    }
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "types_misc",
                     TEST_CASE(test_generate_series_int4),
                     TEST_CASE(test_generate_series_int8),
                     TEST_CASE(test_generate_series_rows));
}
