/*
 * test_regex.c -- regular expressions below SQL: the ARE rewrite and
 * PostgreSQL's error messages (through the operators), the replacement
 * syntax of regexp_replace, SIMILAR TO's pattern conversion, and the
 * per-call-site cache of compiled patterns (one call site evaluated
 * with a constant pattern, then with more distinct patterns than the
 * cache holds).  Expected values come from PostgreSQL 15 (UTF8, locale C).
 */
#include "common/base.h"

#include "types_test.h"

static const TypeCase regex_cases[] = {
    {"~", "text,text", {"foo bar", "\\mbar\\M"}, "t"},
    {"~", "text,text", {"foobar", "\\ybar"}, "f"},
    {"~", "text,text", {"a\\b", "a\\Bb"}, "t"},
    {"~", "text,text", {"a\nb", "a.b"}, "t"},
    {"~", "text,text", {"ab\n", "b$"}, "f"},
    {"~", "text,text", {"ab\n", "(?n)b$"}, "t"},
    {"~", "text,text", {"a.b", "***=a.b"}, "t"},
    {"~", "text,text", {"axb", "***=a.b"}, "f"},
    {"~", "text,text", {"a", "[[.a.]]"}, "t"},
    {"~", "text,text", {"a{x}", "a{"}, "t"},
    {"~", "text,text", {"\xc3\xa9", "^.$"}, "t"},
    {"~*", "text,text", {"ABC", "b"}, "t"},
    {"!~", "text,text", {"abc", "b"}, "f"},
    {"~", "text,text", {"abc", "a{1"},
     "ERROR 2201B invalid regular expression: braces {} not balanced"},
    {"~", "text,text", {"abc", "a{1}{2}"},
     "ERROR 2201B invalid regular expression: quantifier operand invalid"},
    {"~", "text,text", {"abc", "(?=a)*"},
     "ERROR 2201B invalid regular expression: quantifier operand invalid"},
    {"~", "text,text", {"abc", "a{256}"},
     "ERROR 2201B invalid regular expression: invalid repetition count(s)"},
    {"~", "text,text", {"abc", "\\h"},
     "ERROR 2201B invalid regular expression: invalid escape \\ sequence"},
    {"~", "text,text", {"abc", "(a)\\2"},
     "ERROR 2201B invalid regular expression: invalid backreference number"},
    {"~", "text,text", {"abc", "(?z)a"},
     "ERROR 2201B invalid regular expression: invalid embedded option"},
    {"~", "text,text", {"abc", "[[.ab.]]"},
     "ERROR 2201B invalid regular expression: invalid collating element"},
    {"regexp_replace", "text,text,text",
     {"hello world", "(\\w+) (\\w+)", "\\2 \\1 \\& \\\\ \\0 \\3 \\a"},
     "world hello hello world \\ \\0  \\a"},
    {"regexp_replace", "text,text,text,text", {"aaa", "a*?", "x", "g"},
     "xaxaxax"},
    {"regexp_replace", "text,text,text,text", {"abc", "b", "x", "z"},
     "ERROR 22023 invalid regular expression option: \"z\""},
    {"regexp_replace", "text,text,text,int4,int4",
     {"abcabcabc", "b", "X", "2", "2"},
     "abcaXcabc"},
    {"regexp_count", "text,text", {"aaa", "a*"}, "2"},
    {"regexp_instr", "text,text,int4,int4,int4",
     {"abcabc", "b", "1", "2", "1"},
     "6"},
    {"substring", "text,text", {"foobar", "(z)?b"}, NULL},
    {"similar_to_escape", "text,text", {"a#\"b#\"c", "#"},
     "^(?:a){1,1}?(b){1,1}(?:c)$"},
    {"similar_to_escape", "text", {"[%_]x(y|z).\\"}, "^(?:[%_]x(?:y|z)\\.)$"},
    {"substring", "text,text,text", {"aXbXc", "%#\"X%#\"", "#"}, "XbXc"},
};

TEST_BEGIN(test_regex_functions)
{
    tt_check_cases(regex_cases);
}
TEST_END

/* Evaluate text ~ pattern at one call site (flinfo kept across calls). */
static bool
match_at(FmgrInfo *flinfo, PGFunction fn, const char *s, const char *pat)
{
    FunctionCallInfoData fcinfo = {0};

    fcinfo.flinfo = flinfo;
    fcinfo.nargs = 2;
    fcinfo.args[0].value = PointerGetDatum(tdb_text_from_cstring(s));
    fcinfo.args[1].value = PointerGetDatum(tdb_text_from_cstring(pat));
    return DatumGetBool(fn(&fcinfo));
}

TEST_BEGIN(test_regex_cache)
{
    const OperDesc *op = tdb_oper_lookup("~", TEXTOID, TEXTOID);
    FmgrInfo flinfo = {0};
    void *cache;
    char pat[16], subject[16];

    expect_ptr_not_null(op);
    if (op == NULL)
        return;
    flinfo.fn_mcxt = tdb_current_mcxt;
    /* a constant pattern: the cache is made once and reused */
    expect_true(match_at(&flinfo, op->fn, "abc", "^a"));
    cache = flinfo.fn_extra;
    expect_ptr_not_null(cache);
    for (int i = 0; i < 100; i++)
        expect_int_eq(match_at(&flinfo, op->fn, i % 2 ? "abc" : "xbc", "^a"),
                      i % 2);
    expect_ptr_eq(flinfo.fn_extra, cache);
    /* patterns changing per row: more than the cache holds, revisited */
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < 10; i++) {
            snprintf(pat, sizeof(pat), "^%d$", i);
            snprintf(subject, sizeof(subject), "%d", i);
            expect_true(match_at(&flinfo, op->fn, subject, pat));
            expect_false(match_at(&flinfo, op->fn, "x", pat));
        }
    /* flags are part of the key: ~* after ~ with the same pattern */
    {
        const OperDesc *iop = tdb_oper_lookup("~*", TEXTOID, TEXTOID);

        expect_false(match_at(&flinfo, op->fn, "ABC", "^a"));
        expect_true(match_at(&flinfo, iop->fn, "ABC", "^a"));
        expect_false(match_at(&flinfo, op->fn, "ABC", "^a"));
    }
    /* an invalid pattern leaves the cache usable */
    expect_error(match_at(&flinfo, op->fn, "abc", "("),
                 ERRCODE_INVALID_REGULAR_EXPRESSION,
                 "parentheses () not balanced");
    expect_true(match_at(&flinfo, op->fn, "abc", "^a"));
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "types_regex",
                     TEST_CASE(test_regex_functions),
                     TEST_CASE(test_regex_cache));
}
