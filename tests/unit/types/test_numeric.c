/*
 * test_numeric.c -- the numeric type through the registry
 * (types/builtins.h), as the analyzer and executor will reach it.
 *
 * The main test replays tests/fixtures/pg/pg15_numeric.txt: about 16,700
 * cases (input with and without typmods, typmod coercion, every
 * operator, the functions, casts to and from the integer types,
 * aggregates, and 2,200 random expressions) with the results a real
 * PostgreSQL 15 gave: the output text, or the SQLSTATE, message and
 * detail of the error, and for numeric results the exact bytes
 * PostgreSQL stored on disk.  Each case is evaluated through the
 * registry's lookups (tdb_type_input, tdb_oper_lookup,
 * tdb_func_candidates, tdb_cast_lookup, tdb_agg_candidates) and fmgr
 * calls.  The other tests cover what the fixture cannot: the registry's
 * rows themselves, hashing, values with 1-byte headers at odd addresses,
 * aggregate state memory, long sums.
 */
#include "common/base.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/pg_type.h"
#include "mmgr/mcxt.h"
#include "test.h"
#include "types_test.h"
#include "types/builtins.h"
#include "types/numeric.h"

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
call1(PGFunction fn, Datum a)
{
    return tdb_direct_call1(fn, a);
}

static Datum
num(const char *s)
{
    return tdb_type_input(NUMERICOID, s, -1);
}

static char *
out(Datum d)
{
    return tdb_type_output(NUMERICOID, d);
}

static int32
make_typmod(int precision, int scale)
{
    return ((precision << 16) | (scale & 0x7ff)) + VARHDRSZ;
}

static const FuncDesc *
find_func(const char *name, int nargs, Oid arg0, Oid arg1)
{
    const FuncDesc *cands[16];
    int n = tdb_func_candidates(name, cands, 16);

    for (int i = 0; i < n && i < 16; i++)
        if (cands[i]->nargs == nargs && cands[i]->argtypes[0] == arg0 &&
            (nargs < 2 || cands[i]->argtypes[1] == arg1))
            return cands[i];
    return NULL;
}

static const AggDesc *
find_agg(const char *name, Oid argtype)
{
    const AggDesc *cands[16];
    int n = tdb_agg_candidates(name, cands, 16);

    for (int i = 0; i < n && i < 16; i++)
        if (cands[i]->nargs == 1 && cands[i]->argtypes[0] == argtype)
            return cands[i];
    return NULL;
}

static Oid
int_type_oid(const char *name)
{
    if (strcmp(name, "int2") == 0)
        return INT2OID;
    if (strcmp(name, "int4") == 0)
        return INT4OID;
    if (strcmp(name, "int8") == 0)
        return INT8OID;
    return NUMERICOID;
}

/* An integer literal as a Datum of the integer type (no int.c needed). */
static Datum
int_datum(Oid type, const char *s)
{
    long long v = strtoll(s, NULL, 10);

    if (type == INT2OID)
        return Int16GetDatum((int16)v);
    if (type == INT4OID)
        return Int32GetDatum((int32)v);
    return Int64GetDatum((int64)v);
}

/* A copy of a varlena in the current memory context. */
static Datum
copy_varlena(Datum d)
{
    Size len = VARSIZE_ANY(DatumGetPointer(d));
    void *copy = tdb_palloc(len);

    memcpy(copy, DatumGetPointer(d), len);
    return PointerGetDatum(copy);
}

/*
 * Run an aggregate over the comma-separated values ("null" = NULL) as
 * the executor does (builtins.h, AggDesc): the state lives in group_mcxt,
 * each input in a per-row context reset after every row.
 */
static Datum
run_agg(const AggDesc *agg, const char *values, bool *isnull)
{
    MemoryContext group = tdb_aset_create(tdb_current_mcxt, "agg group",
                                          ALLOCSET_DEFAULT_SIZES);
    MemoryContext row = tdb_aset_create(tdb_current_mcxt, "agg row",
                                        ALLOCSET_DEFAULT_SIZES);
    AggCallContext aggctx = {group};
    Datum state = 0;
    bool state_null = true;
    char *copy = tdb_pstrdup(values);
    char *save = NULL;
    Datum result;

    for (char *tok = strtok_r(copy, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        MemoryContext old = tdb_mcxt_switch_to(row);
        bool in_null = strcmp(tok, "null") == 0;
        Datum input = 0;

        if (!in_null)
            input = agg->argtypes[0] == NUMERICOID
                        ? num(tok)
                        : int_datum(agg->argtypes[0], tok);
        if (agg->strict_trans && in_null) {
            /* skipped */
        } else if (agg->strict_trans && state_null) {
            tdb_mcxt_switch_to(group);
            state = copy_varlena(input); /* the executor's copy */
            state_null = false;
        } else {
            Datum args[2] = {state, input};
            bool nulls[2] = {state_null, in_null};

            state = call_fn(agg->transfn, 2, args, nulls, &aggctx,
                            &state_null);
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
    /* the result may live in the group's memory: copy it out */
    if (!*isnull && agg->rettype == NUMERICOID)
        result = copy_varlena(result);
    tdb_mcxt_delete(row);
    tdb_mcxt_delete(group);
    return result;
}

/* ----------------------------------------------------------------------
 * The PostgreSQL 15 fixture
 * ---------------------------------------------------------------------- */

#define NFIELDS 8

/* "p,s" -> typmod; "-" -> -1 */
static int32
parse_typmod(const char *spec)
{
    int precision;
    int scale = 0;

    if (strcmp(spec, "-") == 0)
        return -1;
    if (sscanf(spec, "%d,%d", &precision, &scale) < 1)
        elog(ERROR, "bad typmod \"%s\" in fixture", spec);
    return make_typmod(precision, scale);
}

/*
 * Evaluate one fixture case (kind, name, arg1, arg2; NULL = absent) the
 * way the executor would; *type receives the result type.
 */
static Datum
eval_case(char *const *f, Oid *type, bool *isnull)
{
    const char *kind = f[0];
    const char *name = f[1];
    const char *a1 = f[2];
    const char *a2 = f[3];

    *isnull = false;
    *type = NUMERICOID;
    if (strcmp(kind, "in") == 0)
        return tdb_type_input(NUMERICOID, a1, parse_typmod(name));
    if (strcmp(kind, "typmod") == 0)
        return tdb_type_support(NUMERICOID)
            ->apply_typmod(num(a1), parse_typmod(name), true);
    if (strcmp(kind, "op") == 0) {
        const OperDesc *op = a2 == NULL
                                 ? tdb_oper_lookup(name, InvalidOid, NUMERICOID)
                                 : tdb_oper_lookup(name, NUMERICOID, NUMERICOID);
        Datum args[2];

        if (op == NULL)
            elog(ERROR, "no operator %s for numeric", name);
        *type = op->result;
        args[0] = num(a1);
        if (a2 == NULL)
            return call_fn(op->fn, 1, args, NULL, NULL, isnull);
        args[1] = num(a2);
        return call_fn(op->fn, 2, args, NULL, NULL, isnull);
    }
    if (strcmp(kind, "fn") == 0 || strcmp(kind, "fni") == 0) {
        bool int_arg = kind[2] == 'i';
        int nargs = a2 == NULL ? 1 : 2;
        const FuncDesc *fn = find_func(name, nargs, NUMERICOID,
                                       int_arg ? INT4OID : NUMERICOID);
        Datum args[2];

        if (fn == NULL)
            elog(ERROR, "no function %s for numeric", name);
        *type = fn->rettype;
        args[0] = num(a1);
        if (nargs == 2)
            args[1] = int_arg ? Int32GetDatum(atoi(a2)) : num(a2);
        return call_fn(fn->fn, nargs, args, NULL, NULL, isnull);
    }
    if (strcmp(kind, "to") == 0 || strcmp(kind, "from") == 0) {
        bool to = kind[0] == 't';
        Oid other = int_type_oid(name);
        const CastDesc *cast = to ? tdb_cast_lookup(NUMERICOID, other)
                                  : tdb_cast_lookup(other, NUMERICOID);

        if (cast == NULL || cast->method != CAST_METHOD_FUNCTION)
            elog(ERROR, "no cast between numeric and %s", name);
        *type = to ? other : NUMERICOID;
        return call1(cast->fn, to ? num(a1) : int_datum(other, a1));
    }
    if (strcmp(kind, "agg") == 0) {
        const AggDesc *agg = find_agg(name, int_type_oid(a1));

        if (agg == NULL)
            elog(ERROR, "no aggregate %s(%s)", name, a1);
        *type = agg->rettype;
        return run_agg(agg, a2, isnull);
    }
    elog(ERROR, "unknown case kind \"%s\"", kind);
}

/* The result as PostgreSQL's (expr)::text prints it. */
static char *
result_text(Oid type, Datum value)
{
    char buf[32];

    switch (type) {
    case NUMERICOID:
        return out(value);
    case BOOLOID:
        return tdb_pstrdup(DatumGetBool(value) ? "true" : "false");
    case INT2OID:
        snprintf(buf, sizeof(buf), "%d", DatumGetInt16(value));
        break;
    case INT4OID:
        snprintf(buf, sizeof(buf), "%d", DatumGetInt32(value));
        break;
    default:
        snprintf(buf, sizeof(buf), "%lld", (long long)DatumGetInt64(value));
        break;
    }
    return tdb_pstrdup(buf);
}

/*
 * The bytes the value takes in a tuple, as hex: the tuple layer stores a
 * varlena of at most 126 data bytes with a 1-byte header (PostgreSQL's
 * heap_fill_tuple does the same).
 */
static char *
stored_hex(Datum value)
{
    const uint8 *p = DatumGetPointer(value);
    Size datalen = VARSIZE_ANY_EXHDR(p);
    const uint8 *data = (const uint8 *)VARDATA_ANY(p);
    char *hex = tdb_palloc(2 * (datalen + 4) + 1);
    char *h = hex;

    if (VARHDRSZ_SHORT + datalen <= VARATT_SHORT_MAX) {
        h += sprintf(h, "%02x", (unsigned)(((VARHDRSZ_SHORT + datalen) << 1) |
                                           1));
    } else {
        uint32 header = (uint32)(VARHDRSZ + datalen) << 2;

        for (int i = 0; i < 4; i++)
            h += sprintf(h, "%02x", (header >> (8 * i)) & 0xff);
    }
    for (Size i = 0; i < datalen; i++)
        h += sprintf(h, "%02x", data[i]);
    return hex;
}

TEST_BEGIN(test_pg15_fixture)
{
    char path[1024];
    FILE *f = tdb_test_open_fixture("pg/pg15_numeric.txt",
                                    "TDB_NUMERIC_FIXTURE", path,
                                    sizeof(path));
    MemoryContext outer = tdb_current_mcxt;
    MemoryContext per_case;
    char *line = NULL;
    size_t cap = 0;
    int ncases = 0;
    int nbytes_checked = 0;
    int nerrors_checked = 0;
    int mismatches = 0;

    if (f == NULL) {
        tdb_test_fail(__FILE__, __LINE__, "cannot open fixture %s", path);
        return;
    }
    per_case = tdb_aset_create(outer, "numeric case", ALLOCSET_DEFAULT_SIZES);
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
        for (int i = 2; i < NFIELDS; i++)
            fields[i] = tt_field(fields[i]);
        ncases++;

        tdb_mcxt_switch_to(per_case);
        TDB_TRY();
        {
            value = eval_case(fields, &type, &isnull);
            if (!isnull) {
                got_text = result_text(type, value);
                if (type == NUMERICOID)
                    hex = stored_hex(value);
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

        status = fields[4];
        if (raised) {
            tdb_sqlstate_unpack(err.sqlerrcode, got_state);
            same = strcmp(status, "err") == 0 &&
                   tt_str_equal(got_state, fields[5]) &&
                   tt_str_equal(err.message, fields[6]) &&
                   tt_str_equal(err.detail[0] ? err.detail : NULL, fields[7]);
            nerrors_checked += same;
        } else if (isnull) {
            same = strcmp(status, "null") == 0;
        } else {
            same = strcmp(status, "ok") == 0 &&
                   tt_str_equal(got_text, fields[5]) &&
                   (type != NUMERICOID || fields[6] == NULL ||
                    tt_str_equal(hex, fields[6]));
            nbytes_checked += same && type == NUMERICOID && fields[6] != NULL;
        }
        if (!same) {
            if (++mismatches <= 40)
                tdb_test_fail(
                    __FILE__, __LINE__,
                    "%s %s [%s] [%s]: PostgreSQL %s %.80s %.120s %s; tupledb "
                    "%s %.80s %.120s %s",
                    fields[0], fields[1], fields[2] ? fields[2] : "",
                    fields[3] ? fields[3] : "", status,
                    fields[5] ? fields[5] : "", fields[6] ? fields[6] : "",
                    fields[7] ? fields[7] : "",
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
    printf("  %d cases from %s: %d stored values byte-identical, %d errors "
           "identical, %d mismatches\n",
           ncases, path, nbytes_checked, nerrors_checked, mismatches);
    expect_int_eq(mismatches, 0);
    expect_u64_ge((uint64)ncases, 16000);
}
TEST_END

/* ----------------------------------------------------------------------
 * The registry's rows
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_registry_rows)
{
    const TypeSupport *ts = tdb_type_support(NUMERICOID);
    const OperDesc *eq = tdb_oper_lookup("=", NUMERICOID, NUMERICOID);
    const CastDesc *cast;
    static const struct {
        Oid source;
        Oid target;
        char context;
    } casts[] = {
        {INT2OID, NUMERICOID, CAST_IMPLICIT},
        {INT4OID, NUMERICOID, CAST_IMPLICIT},
        {INT8OID, NUMERICOID, CAST_IMPLICIT},
        {NUMERICOID, INT2OID, CAST_ASSIGNMENT},
        {NUMERICOID, INT4OID, CAST_ASSIGNMENT},
        {NUMERICOID, INT8OID, CAST_ASSIGNMENT},
    };

    expect_ptr_not_null(ts);
    expect_ptr_not_null(eq);
    if (ts == NULL || eq == NULL)
        return;
    expect_int_eq(eq->oid, 1752);
    expect_true(eq->is_equality);
    expect_str_eq(eq->negator, "<>");
    expect_int_eq(tdb_oper_lookup("-", InvalidOid, NUMERICOID)->oid, 1751);
    expect_int_eq(tdb_oper_lookup("^", NUMERICOID, NUMERICOID)->oid, 1038);

    for (Size i = 0; i < lengthof(casts); i++) {
        cast = tdb_cast_lookup(casts[i].source, casts[i].target);
        expect_ptr_not_null(cast);
        if (cast != NULL) {
            expect_int_eq(cast->context, casts[i].context);
            expect_int_eq(cast->method, CAST_METHOD_FUNCTION);
        }
    }
    cast = tdb_cast_lookup(NUMERICOID, TEXTOID);
    expect_true(cast != NULL && cast->method == CAST_METHOD_INOUT &&
                cast->context == CAST_ASSIGNMENT);
    cast = tdb_cast_lookup(TEXTOID, NUMERICOID);
    expect_true(cast != NULL && cast->method == CAST_METHOD_INOUT &&
                cast->context == CAST_EXPLICIT);

    /* typmods: numeric(p,s) = ((p << 16) | s) + 4 */
    expect_str_eq(ts->typmod_out(make_typmod(10, 2)), "(10,2)");
    expect_str_eq(ts->typmod_out(make_typmod(5, -3)), "(5,-3)");
    expect_str_eq(tdb_format_type(NUMERICOID, make_typmod(10, 2)),
                  "numeric(10,2)");
    expect_str_eq(tdb_format_type(NUMERICOID, -1), "numeric");
    expect_str_eq(out(ts->apply_typmod(num("1.5"), make_typmod(5, 2), false)),
                  "1.50");

    /* aggregates: result types and INTERNAL states */
    expect_int_eq(find_agg("sum", INT8OID)->rettype, NUMERICOID);
    expect_int_eq(find_agg("avg", INT4OID)->transtype, INTERNALOID);
    expect_int_eq(find_agg("max", NUMERICOID)->transtype, NUMERICOID);
    /* sum(int4) is int.c's and returns int8, not numeric */
    expect_int_eq(find_agg("sum", INT4OID)->rettype, INT8OID);
    expect_true(tdb_is_aggregate_name("stddev_pop"));
}
TEST_END

/* ----------------------------------------------------------------------
 * Comparison and hashing
 * ---------------------------------------------------------------------- */

static int32
hash_of(const char *s)
{
    return DatumGetInt32(call1(tdb_type_support(NUMERICOID)->hash, num(s)));
}

static int32
cmp_of(const char *a, const char *b)
{
    return DatumGetInt32(
        tdb_direct_call2(tdb_type_support(NUMERICOID)->cmp, num(a), num(b)));
}

TEST_BEGIN(test_hash_and_compare)
{
    PGFunction eq = tdb_type_support(NUMERICOID)->eq;

    /* equal values hash equal whatever their scale */
    expect_int_eq(hash_of("1"), hash_of("1.0"));
    expect_int_eq(hash_of("1.00"), hash_of("1.000000000000"));
    expect_int_eq(hash_of("10000"), hash_of("1e4"));
    expect_int_eq(hash_of("0"), hash_of("-0.000"));
    expect_int_eq(hash_of("0.00012"), hash_of("1.2e-4"));
    expect_int_ne(hash_of("1"), hash_of("2"));
    expect_int_ne(hash_of("1"), hash_of("10000"));
    expect_int_ne(hash_of("12"), hash_of("1.2"));
    expect_true(DatumGetBool(tdb_direct_call2(eq, num("1.0"), num("1.00"))));
    expect_false(DatumGetBool(tdb_direct_call2(eq, num("1.0"), num("1.01"))));

    /* NaN sorts above +Infinity, above every finite value */
    expect_int_eq(cmp_of("NaN", "NaN"), 0);
    expect_true(cmp_of("NaN", "Infinity") > 0);
    expect_true(cmp_of("Infinity", "1e1000") > 0);
    expect_true(cmp_of("-1e1000", "-Infinity") > 0);
    expect_int_eq(cmp_of("-Infinity", "-Infinity"), 0);
    expect_true(cmp_of("0.0001", "-0.0001") > 0);
    expect_true(cmp_of("-0.0001", "-0.001") > 0);
    expect_int_eq(cmp_of("2.50", "2.5"), 0);
}
TEST_END

/* ----------------------------------------------------------------------
 * Arguments with 1-byte headers at odd addresses (as a tuple hands them
 * over): header word and digits must be read without alignment.
 * ---------------------------------------------------------------------- */

static Datum
as_short_varlena(Datum value, char *buf)
{
    Size datalen = VARSIZE_ANY_EXHDR(DatumGetPointer(value));

    SET_VARSIZE_SHORT(buf, VARHDRSZ_SHORT + datalen);
    memcpy(buf + 1, VARDATA_ANY(DatumGetPointer(value)), datalen);
    return PointerGetDatum(buf);
}

TEST_BEGIN(test_short_header_arguments)
{
    char storage[2][130];
    const OperDesc *mul = tdb_oper_lookup("*", NUMERICOID, NUMERICOID);
    /* offsets 1 and 2: the digits start at odd and even addresses */
    Datum a = as_short_varlena(num("-12345.678"), storage[0] + 1);
    Datum b = as_short_varlena(num("1e-70"), storage[1] + 2);

    expect_str_eq(out(a), "-12345.678");
    expect_str_eq(out(b), "0." /* 69 zeroes */
                          "000000000000000000000000000000000000000000000000000"
                          "0000000000000000001");
    expect_str_eq(out(tdb_direct_call2(mul->fn, a, a)), "152415765.279684");
    expect_str_eq(out(tdb_direct_call2(mul->fn, a, num("2"))), "-24691.356");
    expect_int_eq(cmp_of("-12345.678", "-12345.678"), 0);
    expect_int_eq(DatumGetInt32(tdb_direct_call2(
                      tdb_type_support(NUMERICOID)->cmp, a, num("-12345.678"))),
                  0);
}
TEST_END

/*
 * The fast paths of + - * (small finite operands, numeric_ops.c) give the
 * same stored bytes as the general NumericVar routines, over random
 * operands of every size around their limits: 0 to 10 NBASE digits,
 * weights from -3 to 5, every sign, zeros, trailing zero digits, both
 * header forms.
 */
static Datum
random_numeric(uint64 *seed)
{
    char buf[128];
    char *p = buf;
    int nint = (int)(tdb_test_rand(seed) % 22);   /* integer digits */
    int nfrac = (int)(tdb_test_rand(seed) % 18);  /* fraction digits */

    if (tdb_test_rand(seed) % 2)
        *p++ = '-';
    if (nint == 0)
        *p++ = '0';
    for (int i = 0; i < nint; i++)
        *p++ = (char)('0' + (i == 0 ? 1 + tdb_test_rand(seed) % 9
                                    : tdb_test_rand(seed) % 10));
    if (nfrac > 0) {
        *p++ = '.';
        for (int i = 0; i < nfrac; i++)
            *p++ = (char)('0' + (tdb_test_rand(seed) % 3 == 0
                                     ? 0
                                     : tdb_test_rand(seed) % 10));
    }
    *p = '\0';
    return num(buf);
}

static bool
same_numeric(Datum a, Datum b)
{
    return VARSIZE_ANY(DatumGetPointer(a)) == VARSIZE_ANY(DatumGetPointer(b)) &&
           memcmp(DatumGetPointer(a), DatumGetPointer(b),
                  VARSIZE_ANY(DatumGetPointer(a))) == 0;
}

TEST_BEGIN(test_fast_arithmetic)
{
    uint64 seed = tdb_test_seed();
    const OperDesc *add = tdb_oper_lookup("+", NUMERICOID, NUMERICOID);
    const OperDesc *sub = tdb_oper_lookup("-", NUMERICOID, NUMERICOID);
    const OperDesc *mul = tdb_oper_lookup("*", NUMERICOID, NUMERICOID);
    int n = 0;

    for (int i = 0; i < 200000; i++) {
        Datum a = random_numeric(&seed);
        Datum b = i % 7 == 0 ? num("0") : random_numeric(&seed);
        NumericVar va, vb, r;
        Datum want;

        tdb_numeric_to_var(a, &va);
        tdb_numeric_to_var(b, &vb);
        numvar_init(&r);
        tdb_numvar_add(&va, &vb, &r);
        want = tdb_numeric_from_var_free(&r);
        if (!same_numeric(tdb_direct_call2(add->fn, a, b), want)) {
            tdb_test_fail(__FILE__, __LINE__, "%s + %s: %s, want %s", out(a),
                          out(b), out(tdb_direct_call2(add->fn, a, b)),
                          out(want));
            break;
        }
        numvar_init(&r);
        tdb_numvar_sub(&va, &vb, &r);
        want = tdb_numeric_from_var_free(&r);
        if (!same_numeric(tdb_direct_call2(sub->fn, a, b), want)) {
            tdb_test_fail(__FILE__, __LINE__, "%s - %s: %s, want %s", out(a),
                          out(b), out(tdb_direct_call2(sub->fn, a, b)),
                          out(want));
            break;
        }
        numvar_init(&r);
        tdb_numvar_mul(&va, &vb, &r, va.dscale + vb.dscale);
        want = tdb_numeric_from_var_free(&r);
        if (!same_numeric(tdb_direct_call2(mul->fn, a, b), want)) {
            tdb_test_fail(__FILE__, __LINE__, "%s * %s: %s, want %s", out(a),
                          out(b), out(tdb_direct_call2(mul->fn, a, b)),
                          out(want));
            break;
        }
        tdb_mcxt_reset(tdb_current_mcxt);
        n++;
    }
    printf("  %d random pairs: + - * agree with the general routines\n", n);
}
TEST_END

/* ----------------------------------------------------------------------
 * Errors, with PostgreSQL's SQLSTATEs, messages and details
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_errors)
{
    const OperDesc *div = tdb_oper_lookup("/", NUMERICOID, NUMERICOID);
    const CastDesc *to_int2 = tdb_cast_lookup(NUMERICOID, INT2OID);

    expect_error(num("1.2.3"), ERRCODE_INVALID_TEXT_REPRESENTATION,
                 "invalid input syntax for type numeric: \"1.2.3\"");
    expect_error(tdb_direct_call2(div->fn, num("1"), num("0.00")),
                 ERRCODE_DIVISION_BY_ZERO, "division by zero");
    expect_error(tdb_type_input(NUMERICOID, "123.456", make_typmod(4, 2)),
                 ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow");
    expect_str_eq(tdb_test_last_error.detail,
                  "A field with precision 4, scale 2 must round to an "
                  "absolute value less than 10^2.");
    expect_error(call1(to_int2->fn, num("32767.5")),
                 ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "smallint out of range");
    expect_error(call1(to_int2->fn, num("NaN")), ERRCODE_FEATURE_NOT_SUPPORTED,
                 "cannot convert NaN to smallint");
    expect_error(num("1e200000"), ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
                 "value overflows numeric format");
}
TEST_END

/* ----------------------------------------------------------------------
 * Aggregates: state memory and long sums
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_agg_state_in_group_memory)
{
    const AggDesc *avg = find_agg("avg", NUMERICOID);
    const AggDesc *max = find_agg("max", NUMERICOID);
    bool isnull;

    /*
     * run_agg resets the per-row context after every row (so an input
     * kept by reference, or a state allocated there, would be garbage
     * under MEMORY_CONTEXT_CHECKING / ASan)
     */
    expect_str_eq(out(run_agg(avg, "1,2", &isnull)), "1.5000000000000000");
    expect_str_eq(out(run_agg(max, "1,5.5,2,7.25,3", &isnull)), "7.25");
    run_agg(avg, "null,null", &isnull);
    expect_true(isnull);
}
TEST_END

TEST_BEGIN(test_long_sums)
{
    const AggDesc *sum = find_agg("sum", NUMERICOID);
    const AggDesc *sum8 = find_agg("sum", INT8OID);
    const AggDesc *var = find_agg("var_pop", NUMERICOID);
    Size cap = 200000 * 12;
    char *values = tdb_palloc(cap);
    char *v8 = tdb_palloc(cap);
    Size len = 0;
    Size len8 = 0;
    bool isnull;

    /* 0.01 + 0.02 + ... + 200.00 and -1 - 2 - ... - 20000, with carries */
    for (int i = 1; i <= 20000; i++) {
        len += (Size)snprintf(values + len, cap - len, "%s%d.%02d",
                              i > 1 ? "," : "", i / 100, i % 100);
        len8 += (Size)snprintf(v8 + len8, cap - len8, "%s-%d",
                               i > 1 ? "," : "", i);
    }
    expect_str_eq(out(run_agg(sum, values, &isnull)), "2000100.00");
    expect_str_eq(out(run_agg(sum8, v8, &isnull)), "-200010000");
    /* population variance of 0.01 .. 200.00: (n^2 - 1) / 12 * 0.0001 */
    expect_str_eq(out(run_agg(var, values, &isnull)),
                  "3333.3333250000000000");
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "types_numeric",
                     TEST_CASE(test_pg15_fixture),
                     TEST_CASE(test_registry_rows),
                     TEST_CASE(test_hash_and_compare),
                     TEST_CASE(test_short_header_arguments),
                     TEST_CASE(test_fast_arithmetic),
                     TEST_CASE(test_errors),
                     TEST_CASE(test_agg_state_in_group_memory),
                     TEST_CASE(test_long_sums));
}
