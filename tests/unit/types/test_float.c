/*
 * test_float.c -- float4 and float8 through the registry
 * (types/builtins.h), as the analyzer and executor reach them.
 *
 * The main test replays tests/fixtures/pg/pg15_float.txt: about 28,700
 * cases (input syntax and 9,000 values chosen to exercise the shortest
 * round-trip output, every operator over grids of ordinary and extreme
 * values, the functions, casts between the floats, the integer types,
 * numeric and text, the aggregates, and 4,000 random expressions) with
 * the results a real PostgreSQL 15 gave: the output text and the value's
 * exact bits (float4send/float8send), or the SQLSTATE, message and
 * detail of the error.  Each case is evaluated through the registry's
 * lookups (tdb_type_input, tdb_oper_lookup, tdb_func_candidates,
 * tdb_cast_lookup, tdb_agg_candidates) and fmgr calls.  The other tests
 * cover what the fixture cannot: the registry's rows, hashing across
 * the two widths, output round trips of a million random values,
 * random(), and aggregate state memory.
 */
#include "common/base.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/pg_type.h"
#include "mmgr/mcxt.h"
#include "test.h"
#include "types_test.h"
#include "types/builtins.h"
#include "types/float.h"

/* ----------------------------------------------------------------------
 * Calling through fmgr
 * ---------------------------------------------------------------------- */

/* fn(args...) with the given NULL flags; *isnull receives the result's. */
static Datum
call_fn(PGFunction fn, int nargs, const Datum *args, const bool *nulls,
        void *context, bool *isnull)
{
    FunctionCallInfoData fcinfo;
    Datum result;

    memset(&fcinfo, 0, sizeof(fcinfo));
    fcinfo.nargs = (int16)nargs;
    fcinfo.context = context;
    for (int i = 0; i < nargs; i++) {
        fcinfo.args[i].value = args[i];
        fcinfo.args[i].isnull = nulls != NULL && nulls[i];
    }
    result = fn(&fcinfo);
    *isnull = fcinfo.isnull;
    return result;
}

static Datum
f8(const char *s)
{
    return tdb_type_input(FLOAT8OID, s, -1);
}

static Datum
f4(const char *s)
{
    return tdb_type_input(FLOAT4OID, s, -1);
}

static char *
out8(Datum d)
{
    return tdb_type_output(FLOAT8OID, d);
}

static char *
out4(Datum d)
{
    return tdb_type_output(FLOAT4OID, d);
}

/* "float4,float8" -> OIDs; "-" -> none.  Returns the count. */
static int
parse_types(const char *spec, Oid *types)
{
    char buf[64];
    int n = 0;

    if (strcmp(spec, "-") == 0)
        return 0;
    snprintf(buf, sizeof(buf), "%s", spec);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        const TypeInfo *t = tdb_type_lookup_by_name(tok);

        if (t == NULL)
            elog(ERROR, "unknown type \"%s\" in fixture", tok);
        types[n++] = t->oid;
    }
    return n;
}

static const FuncDesc *
find_func(const char *name, int nargs, const Oid *types)
{
    const FuncDesc *cands[32];
    int n = tdb_func_candidates(name, cands, 32);

    for (int i = 0; i < n && i < 32; i++) {
        bool ok = cands[i]->nargs == nargs;

        for (int a = 0; ok && a < nargs; a++)
            ok = cands[i]->argtypes[a] == types[a];
        if (ok)
            return cands[i];
    }
    return NULL;
}

static const AggDesc *
find_agg(const char *name, int nargs, const Oid *types)
{
    const AggDesc *cands[32];
    int n = tdb_agg_candidates(name, cands, 32);

    for (int i = 0; i < n && i < 32; i++)
        if (cands[i]->nargs == nargs && cands[i]->argtypes[0] == types[0] &&
            (nargs < 2 || cands[i]->argtypes[1] == types[1]))
            return cands[i];
    return NULL;
}

/*
 * Run an aggregate over comma-separated rows ("null" = NULL; a
 * two-argument aggregate's row is "y:x") as the executor does
 * (builtins.h, AggDesc): the state lives in group_mcxt, each input in a
 * per-row context reset after every row, a strict transition function
 * starts from a copy of the first input.
 */
static Datum
run_agg(const AggDesc *agg, const char *rows, bool *isnull)
{
    MemoryContext group = tdb_aset_create(tdb_current_mcxt, "agg group",
                                          ALLOCSET_DEFAULT_SIZES);
    MemoryContext row = tdb_aset_create(tdb_current_mcxt, "agg row",
                                        ALLOCSET_DEFAULT_SIZES);
    AggCallContext aggctx = {group};
    Datum state = 0;
    bool state_null = agg->initval == NULL;
    char *copy = tdb_pstrdup(rows);
    char *save = NULL;
    Datum result;

    if (!state_null)
        state = tdb_type_input(agg->transtype, agg->initval, -1);
    for (char *tok = strtok_r(copy, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        MemoryContext old = tdb_mcxt_switch_to(row);
        Datum args[3];
        bool nulls[3];
        bool any_null = false;
        char *values[2] = {tok, NULL};

        if (agg->nargs == 2) {
            char *colon = strchr(tok, ':');

            values[1] = colon != NULL ? colon + 1 : "null";
            if (colon != NULL)
                *colon = '\0';
        }
        for (int a = 0; a < agg->nargs; a++) {
            nulls[a + 1] = strcmp(values[a], "null") == 0;
            args[a + 1] = nulls[a + 1] ? 0
                                       : tdb_type_input(agg->argtypes[a],
                                                        values[a], -1);
            any_null |= nulls[a + 1];
        }
        if (agg->strict_trans && any_null) {
            /* skipped */
        } else if (agg->strict_trans && state_null) {
            state = args[1]; /* by value: the executor's copy */
            state_null = false;
        } else {
            args[0] = state;
            nulls[0] = state_null;
            state = call_fn(agg->transfn, agg->nargs + 1, args, nulls,
                            &aggctx, &state_null);
        }
        tdb_mcxt_switch_to(old);
        tdb_mcxt_reset(row);
    }
    if (agg->finalfn == NULL) {
        *isnull = state_null;
        result = state;
    } else if (state_null && agg->strict_final) {
        *isnull = true;
        result = 0;
    } else {
        bool nulls[1] = {state_null};

        result = call_fn(agg->finalfn, 1, &state, nulls, &aggctx, isnull);
    }
    tdb_mcxt_delete(row);
    tdb_mcxt_delete(group);
    return result; /* by value (float or int8): nothing to copy out */
}

/* ----------------------------------------------------------------------
 * The PostgreSQL 15 fixture
 * ---------------------------------------------------------------------- */

#define NFIELDS 9

/*
 * Evaluate one fixture case (kind, name, types, arg1, arg2; NULL =
 * absent) the way the executor would; *type receives the result type.
 */
static Datum
eval_case(char *const *f, Oid *type, bool *isnull)
{
    const char *kind = f[0];
    const char *name = f[1];
    Oid types[2];
    int ntypes = parse_types(f[2], types);
    const char *a1 = f[3];
    const char *a2 = f[4];
    Datum args[2];

    *isnull = false;
    if (strcmp(kind, "in") == 0) {
        *type = types[0];
        return tdb_type_input(types[0], a1, -1);
    }
    if (strcmp(kind, "op") == 0) {
        const OperDesc *op =
            ntypes == 1 ? tdb_oper_lookup(name, InvalidOid, types[0])
                        : tdb_oper_lookup(name, types[0], types[1]);

        if (op == NULL)
            elog(ERROR, "no operator %s for %s", name, f[2]);
        *type = op->result;
        for (int i = 0; i < ntypes; i++)
            args[i] = tdb_type_input(types[i], i == 0 ? a1 : a2, -1);
        return call_fn(op->fn, ntypes, args, NULL, NULL, isnull);
    }
    if (strcmp(kind, "fn") == 0) {
        const FuncDesc *fn = find_func(name, ntypes, types);

        if (fn == NULL)
            elog(ERROR, "no function %s(%s)", name, f[2]);
        *type = fn->rettype;
        for (int i = 0; i < ntypes; i++)
            args[i] = tdb_type_input(types[i], i == 0 ? a1 : a2, -1);
        return call_fn(fn->fn, ntypes, args, NULL, NULL, isnull);
    }
    if (strcmp(kind, "cast") == 0) {
        const CastDesc *cast = tdb_cast_lookup(types[0], types[1]);
        Datum value = tdb_type_input(types[0], a1, -1);

        if (cast == NULL)
            elog(ERROR, "no cast %s", f[2]);
        *type = types[1];
        if (cast->method == CAST_METHOD_FUNCTION)
            return tdb_direct_call1(cast->fn, value);
        if (cast->method == CAST_METHOD_INOUT)
            return tdb_type_input(types[1],
                                  tdb_type_output(types[0], value), -1);
        return value;
    }
    if (strcmp(kind, "agg") == 0) {
        const AggDesc *agg = find_agg(name, ntypes, types);

        if (agg == NULL)
            elog(ERROR, "no aggregate %s(%s)", name, f[2]);
        *type = agg->rettype;
        return run_agg(agg, a1, isnull);
    }
    elog(ERROR, "unknown case kind \"%s\"", kind);
}

/* The result as PostgreSQL's (expr)::text prints it. */
static char *
result_text(Oid type, Datum value)
{
    if (type == BOOLOID)
        return tdb_pstrdup(DatumGetBool(value) ? "true" : "false");
    return tdb_type_output(type, value);
}

/* float4send / float8send: the bits, big-endian, as hex. */
static char *
send_hex(Oid type, Datum value)
{
    char *hex = tdb_palloc(17);

    if (type == FLOAT4OID)
        snprintf(hex, 17, "%08x", (unsigned)(uint32)value);
    else
        snprintf(hex, 17, "%016llx", (unsigned long long)value);
    return hex;
}

TEST_BEGIN(test_pg15_fixture)
{
    char path[1024];
    FILE *f = tdb_test_open_fixture("pg/pg15_float.txt", "TDB_FLOAT_FIXTURE",
                                    path, sizeof(path));
    MemoryContext outer = tdb_current_mcxt;
    MemoryContext per_case;
    char *line = NULL;
    size_t cap = 0;
    int ncases = 0;
    int nbits_checked = 0;
    int nerrors_checked = 0;
    int mismatches = 0;

    if (f == NULL) {
        tdb_test_fail(__FILE__, __LINE__, "cannot open fixture %s", path);
        return;
    }
    per_case = tdb_aset_create(outer, "float case", ALLOCSET_DEFAULT_SIZES);
    while (getline(&line, &cap, f) > 0) {
        char *fields[NFIELDS];
        volatile bool raised = false;
        Datum value = 0;
        Oid type = InvalidOid;
        bool isnull = false;
        ErrorData err;
        const char *status;
        char *volatile got_text = NULL;
        char *volatile hex = NULL;
        char got_state[6] = "";
        bool same;

        if (line[0] == '#')
            continue;
        line[strcspn(line, "\n")] = '\0';
        if (!tt_split_fields(line, fields, NFIELDS)) {
            tdb_test_fail(__FILE__, __LINE__, "bad fixture line %d", ncases);
            continue;
        }
        for (int i = 3; i < NFIELDS; i++)
            fields[i] = tt_field(fields[i]);
        ncases++;

        tdb_mcxt_switch_to(per_case);
        TDB_TRY();
        {
            value = eval_case(fields, &type, &isnull);
            if (!isnull) {
                got_text = result_text(type, value);
                if (type == FLOAT4OID || type == FLOAT8OID)
                    hex = send_hex(type, value);
            }
        }
        TDB_CATCH();
        {
            raised = true;
            err = *tdb_error_current();
            tdb_error_flush();
        }
        TDB_END_TRY();
        tdb_mcxt_switch_to(per_case);

        status = fields[5];
        if (raised) {
            tdb_sqlstate_unpack(err.sqlerrcode, got_state);
            same = strcmp(status, "err") == 0 &&
                   tt_str_equal(got_state, fields[6]) &&
                   tt_str_equal(err.message, fields[7]) &&
                   tt_str_equal(err.detail[0] ? err.detail : NULL, fields[8]);
            nerrors_checked += same;
        } else if (isnull) {
            same = strcmp(status, "null") == 0;
        } else {
            same = strcmp(status, "ok") == 0 &&
                   tt_str_equal(got_text, fields[6]) &&
                   tt_str_equal(hex, fields[7]);
            nbits_checked += same && hex != NULL;
        }
        if (!same) {
            if (++mismatches <= 40)
                tdb_test_fail(
                    __FILE__, __LINE__,
                    "%s %s %s [%s] [%s]: PostgreSQL %s %.80s %.120s %s; "
                    "tupledb %s %.80s %.120s %s",
                    fields[0], fields[1], fields[2],
                    fields[3] ? fields[3] : "", fields[4] ? fields[4] : "",
                    status, fields[6] ? fields[6] : "",
                    fields[7] ? fields[7] : "", fields[8] ? fields[8] : "",
                    raised ? "err" : isnull ? "null" : "ok",
                    raised ? got_state : got_text ? got_text : "",
                    raised ? err.message : hex ? hex : "",
                    raised ? err.detail : "");
        }
        tdb_mcxt_switch_to(outer);
        tdb_mcxt_reset(per_case);
    }
    free(line);
    fclose(f);
    tdb_mcxt_switch_to(outer);
    tdb_mcxt_delete(per_case);
    printf("  %d cases from %s: %d float results bit-identical, %d errors "
           "identical, %d mismatches\n",
           ncases, path, nbits_checked, nerrors_checked, mismatches);
    expect_int_eq(mismatches, 0);
    expect_u64_ge((uint64)ncases, 28000);
}
TEST_END

/* ----------------------------------------------------------------------
 * The registry's rows
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_registry_rows)
{
    static const struct {
        Oid source;
        Oid target;
        char context;
    } casts[] = {
        {INT2OID, FLOAT4OID, CAST_IMPLICIT},
        {INT4OID, FLOAT4OID, CAST_IMPLICIT},
        {INT8OID, FLOAT4OID, CAST_IMPLICIT},
        {INT2OID, FLOAT8OID, CAST_IMPLICIT},
        {INT4OID, FLOAT8OID, CAST_IMPLICIT},
        {INT8OID, FLOAT8OID, CAST_IMPLICIT},
        {FLOAT4OID, INT2OID, CAST_ASSIGNMENT},
        {FLOAT4OID, INT4OID, CAST_ASSIGNMENT},
        {FLOAT4OID, INT8OID, CAST_ASSIGNMENT},
        {FLOAT8OID, INT2OID, CAST_ASSIGNMENT},
        {FLOAT8OID, INT4OID, CAST_ASSIGNMENT},
        {FLOAT8OID, INT8OID, CAST_ASSIGNMENT},
        {FLOAT4OID, FLOAT8OID, CAST_IMPLICIT},
        {FLOAT8OID, FLOAT4OID, CAST_ASSIGNMENT},
        {FLOAT4OID, NUMERICOID, CAST_ASSIGNMENT},
        {FLOAT8OID, NUMERICOID, CAST_ASSIGNMENT},
        {NUMERICOID, FLOAT4OID, CAST_IMPLICIT},
        {NUMERICOID, FLOAT8OID, CAST_IMPLICIT},
    };
    const OperDesc *eq48 = tdb_oper_lookup("=", FLOAT4OID, FLOAT8OID);
    const OperDesc *pow = tdb_oper_lookup("^", FLOAT8OID, FLOAT8OID);
    const FuncDesc *random_fn = find_func("random", 0, NULL);
    const TypeSupport *ts4 = tdb_type_support(FLOAT4OID);
    const TypeSupport *ts8 = tdb_type_support(FLOAT8OID);
    const CastDesc *cast;
    Oid f4f4[2] = {FLOAT4OID, FLOAT4OID};
    Oid one_f8[1] = {FLOAT8OID};

    for (Size i = 0; i < lengthof(casts); i++) {
        cast = tdb_cast_lookup(casts[i].source, casts[i].target);
        expect_ptr_not_null(cast);
        if (cast != NULL) {
            expect_int_eq(cast->context, casts[i].context);
            expect_int_eq(cast->method, CAST_METHOD_FUNCTION);
        }
    }
    cast = tdb_cast_lookup(FLOAT8OID, TEXTOID);
    expect_true(cast != NULL && cast->method == CAST_METHOD_INOUT &&
                cast->context == CAST_ASSIGNMENT);
    cast = tdb_cast_lookup(TEXTOID, FLOAT4OID);
    expect_true(cast != NULL && cast->method == CAST_METHOD_INOUT &&
                cast->context == CAST_EXPLICIT);

    expect_ptr_not_null(eq48);
    expect_ptr_not_null(pow);
    expect_ptr_not_null(random_fn);
    expect_ptr_not_null(ts4);
    expect_ptr_not_null(ts8);
    if (eq48 == NULL || pow == NULL || random_fn == NULL || ts4 == NULL ||
        ts8 == NULL)
        return;
    expect_int_eq(eq48->oid, 1120);
    /* hashable: the hash join hashes each side by its own type */
    expect_true(eq48->is_equality);
    expect_true(tdb_oper_lookup("=", FLOAT8OID, FLOAT8OID)->is_equality);
    expect_int_eq(pow->oid, 965);
    expect_int_eq(pow->result, FLOAT8OID);
    expect_int_eq(tdb_oper_lookup("|/", InvalidOid, FLOAT8OID)->oid, 596);
    expect_int_eq(tdb_oper_lookup("-", InvalidOid, FLOAT4OID)->oid, 584);
    expect_int_eq(random_fn->volatility, PROVOLATILE_VOLATILE);
    expect_int_eq(find_func("sqrt", 1, one_f8)->volatility,
                  PROVOLATILE_IMMUTABLE);
    expect_ptr_not_null(find_func("float4larger", 2, f4f4));
    expect_str_eq(tdb_format_type(FLOAT4OID, -1), "real");
    expect_str_eq(tdb_format_type(FLOAT8OID, -1), "double precision");

    /* aggregate result types: sum keeps the width, the rest are float8 */
    expect_int_eq(find_agg("sum", 1, f4f4)->rettype, FLOAT4OID);
    expect_int_eq(find_agg("avg", 1, f4f4)->rettype, FLOAT8OID);
    expect_int_eq(find_agg("stddev", 1, f4f4)->rettype, FLOAT8OID);
    expect_int_eq(find_agg("max", 1, f4f4)->rettype, FLOAT4OID);
    expect_true(tdb_is_aggregate_name("regr_slope"));
}
TEST_END

/* ----------------------------------------------------------------------
 * Hashing and comparison
 * ---------------------------------------------------------------------- */

static int32
hash8(const char *s)
{
    return DatumGetInt32(
        tdb_direct_call1(tdb_type_support(FLOAT8OID)->hash, f8(s)));
}

static int32
hash4(const char *s)
{
    return DatumGetInt32(
        tdb_direct_call1(tdb_type_support(FLOAT4OID)->hash, f4(s)));
}

static int32
cmp8(const char *a, const char *b)
{
    return DatumGetInt32(
        tdb_direct_call2(tdb_type_support(FLOAT8OID)->cmp, f8(a), f8(b)));
}

TEST_BEGIN(test_hash_and_compare)
{
    const OperDesc *eq48 = tdb_oper_lookup("=", FLOAT4OID, FLOAT8OID);

    /* PostgreSQL 15's values: SELECT hashfloat8(1.5), hashfloat8('NaN') */
    expect_int_eq(hash8("1.5"), 630860146);
    expect_int_eq(hash8("NaN"), -1275764840);
    /* both zeros hash 0, every NaN like the standard one */
    expect_int_eq(hash8("0"), 0);
    expect_int_eq(hash8("-0"), 0);
    expect_int_eq(hash8("-NaN"), hash8("NaN"));
    expect_int_eq(hash8("nan(123)"), hash8("NaN"));
    /* float4 hashes its value widened: equal across the widths */
    expect_int_eq(hash4("1.5"), hash8("1.5"));
    expect_int_eq(hash4("-0"), 0);
    expect_int_eq(hash4("NaN"), hash8("NaN"));
    expect_int_eq(hash4("0.1"), hash8("0.100000001490116119384765625"));
    expect_int_ne(hash4("0.1"), hash8("0.1"));
    expect_true(DatumGetBool(tdb_direct_call2(eq48->fn, f4("0.5"), f8("0.5"))));
    expect_false(
        DatumGetBool(tdb_direct_call2(eq48->fn, f4("0.1"), f8("0.1"))));

    /* NaN equals NaN and sorts above Infinity; -0 equals 0 */
    expect_int_eq(cmp8("NaN", "NaN"), 0);
    expect_int_eq(cmp8("NaN", "Infinity"), 1);
    expect_int_eq(cmp8("-Infinity", "NaN"), -1);
    expect_int_eq(cmp8("Infinity", "1e308"), 1);
    expect_int_eq(cmp8("-0", "0"), 0);
    expect_int_eq(cmp8("-1e-320", "0"), -1);
}
TEST_END

/* ----------------------------------------------------------------------
 * Text input and output
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_text_edges)
{
    /* C-locale white space, all six characters, around the number */
    expect_str_eq(out8(f8("\v 1.5\f")), "1.5");
    expect_str_eq(out4(f4("\t-inf\n")), "-Infinity");
    expect_str_eq(out8(f8("\r2\r")), "2");
    expect_error(f8("1.5\x01"), ERRCODE_INVALID_TEXT_REPRESENTATION,
                 "invalid input syntax for type double precision");
    /* the out-of-range message quotes float8's number, float4's input */
    expect_error(f8("  1e400x  "), ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
                 "\"1e400\" is out of range for type double precision");
    expect_error(f4("  1e40  "), ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
                 "\"  1e40  \" is out of range for type real");

    /* output formats at the notation thresholds */
    expect_str_eq(out8(f8("1e15")), "1e+15");
    expect_str_eq(out8(f8("999999999999999")), "999999999999999");
    expect_str_eq(out8(f8("0.0001")), "0.0001");
    expect_str_eq(out8(f8("0.00001")), "1e-05");
    expect_str_eq(out8(f8("1e-310")), "1e-310");
    expect_str_eq(out8(f8("-1.7976931348623157e308")),
                  "-1.7976931348623157e+308");
    expect_str_eq(out4(f4("1e6")), "1e+06");
    expect_str_eq(out4(f4("999999")), "999999");
    expect_str_eq(out4(f4("16777216")), "1.6777216e+07");
    expect_str_eq(out4(f4("-0")), "-0");
}
TEST_END

/*
 * Significant digits of an output text: the digits before any exponent,
 * without leading zeros and without trailing zeros (which our output has
 * only in the integer part, as in 1500).
 */
static int
significant_digits(const char *str)
{
    char digits[64];
    int n = 0;
    int first = 0;

    for (const char *p = str; *p != '\0' && *p != 'e' && n < 63; p++)
        if (*p >= '0' && *p <= '9')
            digits[n++] = *p;
    while (first < n && digits[first] == '0')
        first++;
    while (n > first && digits[n - 1] == '0')
        n--;
    return n - first;
}

/*
 * Random bit patterns: every finite value prints as text that reads back
 * as exactly the same bits, with at most 17 significant digits, and as
 * few as the shortest "%.*g" that reads back except where that one sits
 * exactly on an end of the rounding interval (an independent, slower
 * search; the fixture checks the digits themselves against PostgreSQL).
 */
TEST_BEGIN(test_output_round_trip)
{
    uint64 seed = tdb_test_seed();
    int n8 = 0;
    int n4 = 0;
    int n_ends = 0;

    for (int i = 0; i < 200000; i++) {
        uint64 bits = tdb_test_rand(&seed);
        double d;
        char *str;

        memcpy(&d, &bits, sizeof(d));
        if (!isfinite(d))
            continue;
        str = out8(Float8GetDatum(d));
        if (strtod(str, NULL) != d ||
            (d != 0 && signbit(d) != signbit(strtod(str, NULL)))) {
            tdb_test_fail(__FILE__, __LINE__, "%s does not read back as %a",
                          str, d);
            break;
        }
        if (significant_digits(str) > 17) {
            tdb_test_fail(__FILE__, __LINE__, "%s is too long", str);
            break;
        }
        if (i % 16 == 0 && d != 0) {
            /*
             * The shortest correctly rounded "%.*g" that reads back is as
             * long as ours, or one digit shorter and then exactly on an
             * end of the rounding interval (the midpoint to a neighbour,
             * exact in long double), which PostgreSQL does not accept.
             */
            char buf[40];
            int p = 1;
            int ours = significant_digits(str);

            for (; p < 17; p++) {
                snprintf(buf, sizeof(buf), "%.*g", p, d);
                if (strtod(buf, NULL) == d)
                    break;
            }
            if (ours != p) {
                long double back = strtold(buf, NULL);
                long double up = ((long double)d +
                                  (long double)nextafter(d, INFINITY)) / 2;
                long double down = ((long double)d +
                                    (long double)nextafter(d, -INFINITY)) / 2;

                if (ours < p || (back != up && back != down)) {
                    tdb_test_fail(__FILE__, __LINE__,
                                  "%s: %d digits, but %s reads back", str,
                                  ours, buf);
                    break;
                }
                n_ends++;
            }
        }
        tdb_mcxt_reset(tdb_current_mcxt);
        n8++;
    }
    for (int i = 0; i < 100000; i++) {
        uint32 bits = (uint32)tdb_test_rand(&seed);
        float v;
        char *str;

        memcpy(&v, &bits, sizeof(v));
        if (!isfinite(v))
            continue;
        str = out4(Float4GetDatum(v));
        if (strtof(str, NULL) != v) {
            tdb_test_fail(__FILE__, __LINE__, "%s does not read back as %a",
                          str, (double)v);
            break;
        }
        tdb_mcxt_reset(tdb_current_mcxt);
        n4++;
    }
    printf("  %d float8 and %d float4 values read back exactly; %d where a "
           "shorter decimal reads back only by a tie\n",
           n8, n4, n_ends);
}
TEST_END

/*
 * float8 output by Ryu against the exact method (the slower big-integer
 * digit loop, which the fixture and the round trips above check): the
 * same text for random bit patterns, every binary exponent, integers
 * around 2^53, short decimals (k / 10^j, where ties and exact interval
 * ends happen), powers of two and their neighbours, and denormals.
 */
static bool
ryu_agrees(double d)
{
    char fast[FLOAT_TEXT_BUFSIZE];
    char exact[FLOAT_TEXT_BUFSIZE];

    tdb_float8_format(d, fast);
    tdb_float8_format_exact(d, exact);
    if (strcmp(fast, exact) != 0) {
        tdb_test_fail(__FILE__, __LINE__, "%a: Ryu printed %s, exact %s", d,
                      fast, exact);
        return false;
    }
    return true;
}

TEST_BEGIN(test_output_ryu)
{
    uint64 seed = tdb_test_seed();
    int n = 0;

    for (int i = 0; i < 1000000; i++) {
        uint64 bits = tdb_test_rand(&seed);
        double d;

        /* half of them with a biased exponent near 1023 (ordinary values) */
        if (i % 2 == 0)
            bits = (bits & 0x800FFFFFFFFFFFFFULL) |
                   ((uint64)(1023 - 60 + (int)((bits >> 52) % 120)) << 52);
        memcpy(&d, &bits, sizeof(d));
        if (isfinite(d) && !ryu_agrees(d))
            goto done;
        n++;
    }
    for (int e = 0; e < 2047; e++) {
        for (int k = 0; k < 64; k++) {
            uint64 mant = k < 8 ? (uint64)k : k >= 56
                              ? ((1ULL << 52) - 1 - (uint64)(63 - k))
                              : (tdb_test_rand(&seed) & ((1ULL << 52) - 1));
            uint64 bits = ((uint64)e << 52) | mant;
            double d;

            memcpy(&d, &bits, sizeof(d));
            if (!ryu_agrees(d))
                goto done;
            n++;
        }
    }
    for (int64 v = -3000; v <= 3000; v++) {
        double big = 9007199254740992.0 + (double)v * 2;

        if (!ryu_agrees((double)v) || !ryu_agrees(big) ||
            !ryu_agrees(9007199254740992.0 + (double)v))
            goto done;
        n += 3;
    }
    for (int j = 0; j <= 22; j++) {
        double p10 = pow(10, j);

        for (int k = 1; k <= 20000; k++) {
            double a = (double)k / p10;
            double b = (double)k * p10;
            double c = (double)(tdb_test_rand(&seed) % 100000000000000000ULL) /
                       p10;

            if (!ryu_agrees(a) || !ryu_agrees(b) || !ryu_agrees(c) ||
                !ryu_agrees(nextafter(a, 0)) || !ryu_agrees(nextafter(a, 1e300)))
                goto done;
            n += 5;
        }
    }
    for (int e = -1074; e <= 1023; e++) {
        double p = ldexp(1.0, e);

        if (!ryu_agrees(p) || !ryu_agrees(nextafter(p, 0)) ||
            !ryu_agrees(nextafter(p, INFINITY)) || !ryu_agrees(-p))
            goto done;
        n += 4;
    }
    if (!ryu_agrees(1e23) || !ryu_agrees(DBL_MAX) || !ryu_agrees(DBL_MIN) ||
        !ryu_agrees(5e-324) || !ryu_agrees(0.1) || !ryu_agrees(1.0 / 3))
        goto done;
done:
    printf("  %d float8 values print the same by Ryu and by the exact "
           "method\n",
           n);
}
TEST_END

/* ----------------------------------------------------------------------
 * random()
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_random)
{
    const FuncDesc *fn = find_func("random", 0, NULL);
    double sum = 0;
    double first = -1;
    bool varies = false;

    if (fn == NULL) {
        tdb_test_fail(__FILE__, __LINE__, "no random()");
        return;
    }
    for (int i = 0; i < 100000; i++) {
        bool isnull;
        double v = DatumGetFloat8(call_fn(fn->fn, 0, NULL, NULL, NULL,
                                          &isnull));

        if (!(v >= 0.0 && v < 1.0)) {
            tdb_test_fail(__FILE__, __LINE__, "random() gave %g", v);
            return;
        }
        if (first < 0)
            first = v;
        else if (v != first)
            varies = true;
        sum += v;
    }
    expect_true(varies);
    /* the mean of 100,000 uniform draws is 0.5 within a few 0.001s */
    expect_true(fabs(sum / 100000 - 0.5) < 0.01);
}
TEST_END

/* ----------------------------------------------------------------------
 * Aggregates: state memory and a long input
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_aggregates)
{
    Oid f8_1[1] = {FLOAT8OID};
    Oid f8_2[2] = {FLOAT8OID, FLOAT8OID};
    Size cap = 100000 * 16;
    char *values = tdb_palloc(cap);
    char *pairs = tdb_palloc(cap * 2);
    Size len = 0;
    Size plen = 0;
    bool isnull;

    /*
     * run_agg resets the per-row context after every row, so a state
     * allocated there would be garbage under MEMORY_CONTEXT_CHECKING/ASan.
     */
    for (int i = 1; i <= 100000; i++) {
        len += (Size)snprintf(values + len, cap - len, "%s%d.5",
                              i > 1 ? "," : "", i);
        plen += (Size)snprintf(pairs + plen, cap * 2 - plen, "%s%d:%d",
                               i > 1 ? "," : "", 3 * i + 7, i);
    }
    /*
     * 1.5 + 2.5 + ... + 100000.5, exact in binary; the expected values
     * are PostgreSQL 15's for the same rows (generate_series)
     */
    expect_str_eq(out8(run_agg(find_agg("sum", 1, f8_1), values, &isnull)),
                  "5000100000");
    expect_str_eq(out8(run_agg(find_agg("avg", 1, f8_1), values, &isnull)),
                  "50001");
    /* n (n^2 - 1) / 12 over n: population variance of 1 .. n */
    expect_str_eq(
        out8(run_agg(find_agg("var_pop", 1, f8_1), values, &isnull)),
        "833333333.25");
    /* an exact line y = 3x + 7, where rounding shows in the intercept */
    expect_str_eq(
        out8(run_agg(find_agg("regr_slope", 2, f8_2), pairs, &isnull)), "3");
    expect_str_eq(
        out8(run_agg(find_agg("regr_intercept", 2, f8_2), pairs, &isnull)),
        "7.000000000019074");
    expect_str_eq(out8(run_agg(find_agg("corr", 2, f8_2), pairs, &isnull)),
                  "1");
    run_agg(find_agg("stddev", 1, f8_1), "null,null", &isnull);
    expect_true(isnull);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "types_float",
                     TEST_CASE(test_pg15_fixture),
                     TEST_CASE(test_registry_rows),
                     TEST_CASE(test_hash_and_compare),
                     TEST_CASE(test_text_edges),
                     TEST_CASE(test_output_round_trip),
                     TEST_CASE(test_output_ryu),
                     TEST_CASE(test_random),
                     TEST_CASE(test_aggregates));
}
