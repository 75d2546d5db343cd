/*
 * test_datetime.c -- date, time, timestamp, timestamptz and interval
 * through the registry (types/builtins.h), as the analyzer and executor
 * will reach them.
 *
 * The main test replays tests/fixtures/pg/pg15_datetime.txt: some 36,000
 * cases (input of every type with and without typmods, thousands of
 * random token combinations for the parser, every operator, extract/
 * date_part/date_trunc over every unit, age, make_*, justify_*, casts,
 * aggregates, and random arithmetic) with the answers a real PostgreSQL
 * 15 gave: the output text, the result type, and for date/time results
 * the stored value (its binary send form); or the error's SQLSTATE,
 * message, detail and hint.  The other tests cover what the fixture
 * cannot: the clock ('now', 'today', now()), the registry's rows,
 * hashing, unaligned interval arguments, aggregate memory, the keyword
 * tables, format_type.
 */
#include "common/base.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog/pg_type.h"
#include "mmgr/mcxt.h"
#include "test.h"
#include "types_test.h"
#include "types/builtins.h"
#include "types/datetime.h"

/* ----------------------------------------------------------------------
 * Calling through fmgr
 * ---------------------------------------------------------------------- */

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

static const FuncDesc *
find_func(const char *name, int nargs, const Oid *types)
{
    const FuncDesc *cands[64];
    int n = tdb_func_candidates(name, cands, 64);

    for (int i = 0; i < n && i < 64; i++) {
        bool ok = cands[i]->nargs == nargs;

        for (int a = 0; ok && a < nargs; a++)
            ok = cands[i]->argtypes[a] == types[a];
        if (ok)
            return cands[i];
    }
    return NULL;
}

static const AggDesc *
find_agg(const char *name, Oid type)
{
    const AggDesc *cands[32];
    int n = tdb_agg_candidates(name, cands, 32);

    for (int i = 0; i < n && i < 32; i++)
        if (cands[i]->nargs == 1 && cands[i]->argtypes[0] == type)
            return cands[i];
    return NULL;
}

/* ----------------------------------------------------------------------
 * Types named as in SQL, with typmods
 * ---------------------------------------------------------------------- */

/* Interval typmod range bits of a field name (year, month, ...). */
static int
interval_field_bit(const char *f, int len)
{
    static const struct {
        const char *name;
        int bit;
    } fields[] = {{"year", DTF_YEAR},     {"month", DTF_MONTH},
                  {"day", DTF_DAY},       {"hour", DTF_HOUR},
                  {"minute", DTF_MINUTE}, {"second", DTF_SECOND}};

    for (Size i = 0; i < lengthof(fields); i++)
        if ((int)strlen(fields[i].name) == len &&
            strncmp(f, fields[i].name, (Size)len) == 0)
            return (int)i;
    return -1;
}

/*
 * "date", "time(3)", "timestamptz(0)", "interval day to second(2)",
 * "int4", ...: the type's OID, and its typmod in *typmod (-1 if none).
 */
static Oid
parse_type(const char *spec, int32 *typmod)
{
    static const int order_bits[] = {DTF_YEAR, DTF_MONTH,  DTF_DAY,
                                     DTF_HOUR, DTF_MINUTE, DTF_SECOND};
    char name[64];
    Size n = strcspn(spec, " (");
    const char *rest = spec + n;
    const TypeInfo *t;
    int precision = -1;
    const char *paren;

    snprintf(name, sizeof(name), "%.*s", (int)n, spec);
    t = tdb_type_lookup_by_name(name);
    if (t == NULL)
        elog(ERROR, "unknown type \"%s\" in fixture", spec);
    *typmod = -1;
    paren = strchr(rest, '(');
    if (paren != NULL)
        precision = atoi(paren + 1);
    if (t->oid != INTERVALOID) {
        *typmod = precision;
        return t->oid;
    }
    if (*rest == ' ') {
        /* "interval f1 [to f2][(p)]" */
        const char *f1 = rest + 1;
        int len1 = (int)strcspn(f1, " (");
        int lo = interval_field_bit(f1, len1);
        int hi = lo;
        int range = 0;
        const char *to = strstr(f1, " to ");

        if (to != NULL)
            hi = interval_field_bit(to + 4, (int)strcspn(to + 4, " ("));
        for (int i = lo; i <= hi; i++)
            range |= INTERVAL_MASK(order_bits[i]);
        *typmod = INTERVAL_TYPMOD(
            precision >= 0 ? precision : INTERVAL_FULL_PRECISION, range);
    } else if (precision >= 0)
        *typmod = INTERVAL_TYPMOD(precision, INTERVAL_FULL_RANGE);
    return t->oid;
}

/* An argument's value from its text (float8 has no type support yet). */
static Datum
input_value(Oid type, const char *str)
{
    if (type == FLOAT8OID)
        return Float8GetDatum(strtod(str, NULL));
    return tdb_type_input(type, str, -1);
}

/* ----------------------------------------------------------------------
 * Aggregates, as the executor runs them
 * ---------------------------------------------------------------------- */

static Datum
copy_value(Oid type, Datum d)
{
    const TypeInfo *t = tdb_type_lookup(type);
    Size len;
    void *copy;

    if (t->byval)
        return d;
    len = t->len > 0 ? (Size)t->len : VARSIZE_ANY(DatumGetPointer(d));
    copy = tdb_palloc(len);
    memcpy(copy, DatumGetPointer(d), len);
    return PointerGetDatum(copy);
}

/*
 * Run agg over the comma-separated values ("null" = NULL, "" = no rows):
 * the state lives in a group context, each input in a per-row context
 * reset after every row.  The result is copied into the current context.
 */
static Datum
run_agg(const AggDesc *agg, const char *values, bool *isnull)
{
    MemoryContext outer = tdb_current_mcxt;
    MemoryContext group = tdb_aset_create(outer, "agg group",
                                          ALLOCSET_DEFAULT_SIZES);
    MemoryContext row = tdb_aset_create(outer, "agg row",
                                        ALLOCSET_DEFAULT_SIZES);
    AggCallContext aggctx = {group};
    Datum state = 0;
    bool state_null = true;
    char *copy = tdb_pstrdup(values);
    char *p = copy;
    Datum result;

    while (*copy != '\0' && p != NULL) {
        char *comma = strchr(p, ',');
        MemoryContext old;
        bool in_null;
        Datum input = 0;

        if (comma != NULL)
            *comma = '\0';
        old = tdb_mcxt_switch_to(row);
        in_null = strcmp(p, "null") == 0;
        if (!in_null)
            input = tdb_type_input(agg->argtypes[0], p, -1);
        if (agg->strict_trans && in_null) {
            /* skipped */
        } else if (agg->strict_trans && state_null) {
            tdb_mcxt_switch_to(group);
            state = copy_value(agg->transtype, input);
            state_null = false;
        } else {
            Datum args[2] = {state, input};
            bool nulls[2] = {state_null, in_null};
            Datum newval = call_fn(agg->transfn, 2, args, nulls, &aggctx,
                                   &state_null);

            tdb_mcxt_switch_to(group);
            state = agg->transtype == INTERNALOID || state_null
                        ? newval
                        : copy_value(agg->transtype, newval);
        }
        tdb_mcxt_switch_to(old);
        tdb_mcxt_reset(row);
        p = comma != NULL ? comma + 1 : NULL;
    }
    if (agg->finalfn == NULL) {
        *isnull = state_null;
        result = state;
    } else {
        bool nulls[1] = {state_null};

        result = call_fn(agg->finalfn, 1, &state, nulls, &aggctx, isnull);
    }
    if (!*isnull)
        result = copy_value(agg->rettype, result);
    tdb_mcxt_delete(row);
    tdb_mcxt_delete(group);
    return result;
}

/* ----------------------------------------------------------------------
 * The PostgreSQL 15 fixture
 * ---------------------------------------------------------------------- */

#define NFIELDS 15
#define NARGS 7

/*
 * Evaluate one case (kind, name, types, args) the way the executor
 * would; *type receives the result type.
 */
static Datum
eval_case(char *const *f, Oid *type, bool *isnull)
{
    const char *kind = f[0];
    const char *name = f[1];
    char *const *a = f + 3;
    Oid types[NARGS];
    int32 typmods[NARGS];
    Datum args[NARGS];
    int nargs = 0;
    char typebuf[256];

    *isnull = false;
    if (strcmp(kind, "in") == 0) {
        int32 typmod;
        Datum v;

        *type = parse_type(name, &typmod);
        v = tdb_type_input(*type, a[0], typmod);
        if (typmod >= 0)
            v = tdb_type_support(*type)->apply_typmod(v, typmod, true);
        return v;
    }
    if (strcmp(kind, "agg") == 0) {
        int32 typmod;
        const AggDesc *agg = find_agg(name, parse_type(f[2], &typmod));

        if (agg == NULL)
            elog(ERROR, "no aggregate %s(%s)", name, f[2]);
        *type = agg->rettype;
        return run_agg(agg, a[0], isnull);
    }

    snprintf(typebuf, sizeof(typebuf), "%s", f[2]);
    for (char *save = NULL, *tok = strtok_r(typebuf, ",", &save);
         tok != NULL && nargs < NARGS; tok = strtok_r(NULL, ",", &save)) {
        types[nargs] = parse_type(tok, &typmods[nargs]);
        nargs++;
    }

    if (strcmp(kind, "cast") == 0) {
        const CastDesc *cast = tdb_cast_lookup(types[0], types[1]);
        Datum v = input_value(types[0], a[0]);

        /* to the same type: only the typmod applies */
        if (cast == NULL && types[0] != types[1])
            elog(ERROR, "no cast from %s", f[2]);
        *type = types[1];
        if (cast == NULL)
            ;
        else if (cast->method == CAST_METHOD_FUNCTION)
            v = call_fn(cast->fn, 1, &v, NULL, NULL, isnull);
        else if (cast->method == CAST_METHOD_INOUT)
            v = tdb_type_input(types[1], tdb_type_output(types[0], v), -1);
        if (!*isnull && typmods[1] >= 0)
            v = tdb_type_support(types[1])
                    ->apply_typmod(v, typmods[1], true);
        return v;
    }

    for (int i = 0; i < nargs; i++)
        args[i] = input_value(types[i], a[i]);
    if (strcmp(kind, "op") == 0) {
        const OperDesc *op =
            nargs == 1 ? tdb_oper_lookup(name, InvalidOid, types[0])
                       : tdb_oper_lookup(name, types[0], types[1]);

        if (op == NULL)
            elog(ERROR, "no operator %s(%s)", name, f[2]);
        *type = op->result;
        return call_fn(op->fn, nargs, args, NULL, NULL, isnull);
    }
    if (strcmp(kind, "fn") == 0) {
        const FuncDesc *fn = find_func(name, nargs, types);

        if (fn == NULL)
            elog(ERROR, "no function %s(%s)", name, f[2]);
        *type = fn->rettype;
        return call_fn(fn->fn, nargs, args, NULL, NULL, isnull);
    }
    elog(ERROR, "unknown case kind \"%s\"", kind);
}

/* The stored value as its binary send form (big-endian), as hex. */
static char *
send_hex(Oid type, Datum value)
{
    uint8 bytes[16];
    int n = 0;
    char *hex;

    switch (type) {
    case DATEOID: {
        uint32 v = (uint32)DatumGetInt32(value);

        for (int i = 3; i >= 0; i--)
            bytes[n++] = (uint8)(v >> (8 * i));
        break;
    }
    case TIMEOID:
    case TIMESTAMPOID:
    case TIMESTAMPTZOID: {
        uint64 v = (uint64)DatumGetInt64(value);

        for (int i = 7; i >= 0; i--)
            bytes[n++] = (uint8)(v >> (8 * i));
        break;
    }
    case INTERVALOID: {
        Interval iv = tdb_interval_get(value);

        for (int i = 7; i >= 0; i--)
            bytes[n++] = (uint8)((uint64)iv.time >> (8 * i));
        for (int i = 3; i >= 0; i--)
            bytes[n++] = (uint8)((uint32)iv.day >> (8 * i));
        for (int i = 3; i >= 0; i--)
            bytes[n++] = (uint8)((uint32)iv.month >> (8 * i));
        break;
    }
    default:
        return NULL;
    }
    hex = tdb_palloc((Size)n * 2 + 1);
    for (int i = 0; i < n; i++)
        sprintf(hex + 2 * i, "%02x", bytes[i]);
    return hex;
}

/* Does our result print as PostgreSQL's text?  float8 compares as a
 * double (PostgreSQL prints the shortest exact form). */
static bool
same_text(Oid type, Datum value, const char *want, char **got)
{
    if (type == FLOAT8OID) {
        double mine = DatumGetFloat8(value);
        double theirs = strtod(want, NULL);
        char buf[64];

        snprintf(buf, sizeof(buf), "%.17g", mine);
        *got = tdb_pstrdup(buf);
        return (isnan(mine) && isnan(theirs)) ||
               memcmp(&mine, &theirs, sizeof(mine)) == 0;
    }
    if (type == BOOLOID)
        *got = tdb_pstrdup(DatumGetBool(value) ? "true" : "false");
    else
        *got = tdb_type_output(type, value);
    return strcmp(*got, want) == 0;
}

/* COPY text escapes (\\, \t, \n) undone in place. */
static void
unescape(char *s)
{
    char *w = s;

    for (char *r = s; *r; r++) {
        if (*r == '\\' && r[1] != '\0') {
            r++;
            *w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
        } else
            *w++ = *r;
    }
    *w = '\0';
}

/*
 * Replay the fixture at tests/fixtures/relpath (or $env_var); at least
 * min_cases cases.  want_tzdata: if not NULL, the fixture's "# tzdata"
 * line must name the installed time zone database's version, or the
 * test is skipped.
 */
static void
replay_fixture(const char *relpath, const char *env_var, int min_cases,
               const char *want_tzdata)
{
    char path[1024];
    FILE *f = tdb_test_open_fixture(relpath, env_var, path, sizeof(path));
    MemoryContext outer = tdb_current_mcxt;
    MemoryContext per_case;
    char *line = NULL;
    size_t cap = 0;
    int ncases = 0;
    int nvalues = 0;
    int nerrors = 0;
    int mismatches = 0;

    if (f == NULL) {
        tdb_test_fail(__FILE__, __LINE__, "cannot open fixture %s", path);
        return;
    }
    per_case = tdb_aset_create(outer, "datetime case", ALLOCSET_DEFAULT_SIZES);
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
        volatile bool text_same = false;
        char got_state[6] = "";
        bool same;

        if (line[0] == '#') {
            /* the zone fixture names the database it was captured with */
            if (want_tzdata != NULL && strncmp(line, "# tzdata ", 9) == 0) {
                line[strcspn(line, "\n")] = '\0';
                if (strcmp(line + 9, want_tzdata) != 0) {
                    test_skip("time zone database %s here, fixture %s "
                              "captured with %s",
                              want_tzdata, path, line + 9);
                    break;
                }
            }
            continue;
        }
        line[strcspn(line, "\n")] = '\0';
        if (!tt_split_fields(line, fields, NFIELDS)) {
            tdb_test_fail(__FILE__, __LINE__, "bad fixture line %d", ncases);
            continue;
        }
        for (int i = 3; i < NFIELDS; i++) {
            fields[i] = tt_field(fields[i]);
            if (fields[i] != NULL)
                unescape(fields[i]);
        }
        ncases++;
        status = fields[10];

        tdb_mcxt_switch_to(per_case);
        TDB_TRY();
        {
            char *t = NULL;

            value = eval_case(fields, &type, &isnull);
            if (!isnull) {
                if (strcmp(status, "ok") == 0)
                    text_same = same_text(type, value, fields[11], &t);
                else
                    (void)same_text(type, value, "", &t);
                got_text = t;
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

        if (raised) {
            tdb_sqlstate_unpack(err.sqlerrcode, got_state);
            same = strcmp(status, "err") == 0 &&
                   tt_str_equal(got_state, fields[11]) &&
                   tt_str_equal(err.message, fields[12]) &&
                   tt_str_equal(err.detail[0] ? err.detail : NULL, fields[13]) &&
                   tt_str_equal(err.hint[0] ? err.hint : NULL, fields[14]);
            nerrors += same;
        } else if (isnull) {
            same = strcmp(status, "null") == 0 &&
                   type == (Oid)atol(fields[12]);
        } else {
            same = strcmp(status, "ok") == 0 && text_same &&
                   type == (Oid)atol(fields[12]) &&
                   tt_str_equal(hex, fields[13]);
            nvalues += same && hex != NULL;
        }
        if (!same && ++mismatches <= 60)
            tdb_test_fail(
                __FILE__, __LINE__,
                "%s %s(%s) [%s|%s|%s]: PostgreSQL %s %s %s %s %s; tupledb "
                "%s %s %s %s %s",
                fields[0], fields[1], fields[2],
                fields[3] ? fields[3] : "NULL", fields[4] ? fields[4] : "",
                fields[5] ? fields[5] : "", status,
                fields[11] ? fields[11] : "", fields[12] ? fields[12] : "",
                fields[13] ? fields[13] : "", fields[14] ? fields[14] : "",
                raised ? "err" : isnull ? "null" : "ok",
                raised ? got_state : got_text ? got_text : "",
                raised ? err.message : "", raised ? err.detail : "",
                raised ? err.hint : hex ? hex : "");
        tdb_mcxt_switch_to(outer);
        tdb_mcxt_reset(per_case);
    }
    free(line);
    fclose(f);
    tdb_mcxt_switch_to(outer);
    tdb_mcxt_delete(per_case);
    printf("  %d cases from %s: %d date/time values identical in text and "
           "bytes, %d errors identical, %d mismatches\n",
           ncases, path, nvalues, nerrors, mismatches);
    expect_int_eq(mismatches, 0);
    if (!tdb_test_state.skipped)
        expect_u64_ge((uint64)ncases, (uint64)min_cases);
}

TEST_BEGIN(test_pg15_fixture)
{
    replay_fixture("pg/pg15_datetime.txt", "TDB_DATETIME_FIXTURE", 48000,
                   NULL);
}
TEST_END

/* The version of the time zone database in use ("2025b"), or "none". */
static const char *
tzdata_version(void)
{
    const char *dir = getenv("TZDIR");
    char path[1024];
    static char version[128];
    FILE *f;

    snprintf(path, sizeof(path), "%s/tzdata.zi",
             dir != NULL && *dir != '\0' ? dir : "/usr/share/zoneinfo");
    snprintf(version, sizeof(version), "none");
    if ((f = fopen(path, "r")) != NULL) {
        char line[128];

        if (fgets(line, sizeof(line), f) != NULL &&
            strncmp(line, "# version ", 10) == 0) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(version, sizeof(version), "%s", line + 10);
        }
        fclose(f);
    }
    return version;
}

/* Named zones: only meaningful with the database the fixture saw. */
TEST_BEGIN(test_pg15_zone_fixture)
{
    replay_fixture("pg/pg15_datetime_tz.txt", "TDB_DATETIME_TZ_FIXTURE",
                   1900, tzdata_version());
}
TEST_END


/* ----------------------------------------------------------------------
 * Helpers for the remaining tests
 * ---------------------------------------------------------------------- */

static Datum
in(Oid type, const char *s)
{
    return tdb_type_input(type, s, -1);
}

static char *
out(Oid type, Datum d)
{
    return tdb_type_output(type, d);
}

/* fn(args) of the function name with these argument types. */
static Datum
call_named(const char *name, int nargs, const Oid *types, const Datum *args,
           bool *isnull)
{
    const FuncDesc *fn = find_func(name, nargs, types);

    if (fn == NULL)
        elog(ERROR, "no function %s", name);
    return call_fn(fn->fn, nargs, args, NULL, NULL, isnull);
}

/* ----------------------------------------------------------------------
 * The clock: now(), 'now', 'today', age(ts)
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_clock)
{
    Oid none[1] = {InvalidOid};
    bool isnull;
    TimestampTz before = ((int64)time(NULL) - 946684800) * USECS_PER_SEC;
    TimestampTz now = DatumGetInt64(call_named("now", 0, none, NULL, &isnull));
    TimestampTz lit = DatumGetInt64(in(TIMESTAMPTZOID, "now"));
    TimestampTz after = ((int64)time(NULL) + 1 - 946684800) * USECS_PER_SEC;
    DateADT today = DatumGetInt32(in(DATEOID, "today"));
    DateADT expect_today = (DateADT)((lit / USECS_PER_DAY));
    const FuncDesc *cands[8];
    int n = tdb_func_candidates("now", cands, 8);
    Oid ts1[1] = {TIMESTAMPOID};
    Datum arg[1];
    Interval age;

    expect_false(isnull);
    expect_true(now >= before && now <= after);
    expect_true(lit >= before && lit <= after);
    expect_int_eq(n, 1);
    expect_int_eq(cands[0]->volatility, PROVOLATILE_STABLE);
    expect_int_eq(cands[0]->rettype, TIMESTAMPTZOID);
    expect_int_eq(cands[0]->oid, 1299);
    n = tdb_func_candidates("clock_timestamp", cands, 8);
    expect_true(n == 1 && cands[0]->volatility == PROVOLATILE_VOLATILE);

    expect_int_eq(today, expect_today);
    expect_int_eq(DatumGetInt32(in(DATEOID, "yesterday")), today - 1);
    expect_int_eq(DatumGetInt32(in(DATEOID, "tomorrow")), today + 1);
    expect_int_eq(DatumGetInt64(in(TIMESTAMPOID, "today")),
                  (int64)today * USECS_PER_DAY);
    expect_int_eq(DatumGetInt64(in(TIMESTAMPOID, "tomorrow 12:00")),
                  (int64)(today + 1) * USECS_PER_DAY + 12 * USECS_PER_HOUR);
    /* 'now' as a time is the time of day now */
    expect_true(DatumGetInt64(in(TIMEOID, "now")) < USECS_PER_DAY);
    expect_str_eq(out(TIMEOID, in(TIMEOID, "allballs")), "00:00:00");

    /* age(ts) is the age from midnight today */
    arg[0] = Int64GetDatum((int64)(today - 1) * USECS_PER_DAY);
    age = tdb_interval_get(call_named("age", 1, ts1, arg, &isnull));
    expect_int_eq(age.day, 1);
    expect_int_eq(age.month, 0);
    expect_int_eq(age.time, 0);
}
TEST_END

/* ----------------------------------------------------------------------
 * The registry's rows and format_type
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_registry_rows)
{
    int year_to_month = INTERVAL_MASK(DTF_YEAR) | INTERVAL_MASK(DTF_MONTH);
    int day_to_second = INTERVAL_MASK(DTF_DAY) | INTERVAL_MASK(DTF_HOUR) |
                        INTERVAL_MASK(DTF_MINUTE) | INTERVAL_MASK(DTF_SECOND);
    const OperDesc *op;
    const CastDesc *cast;
    static const struct {
        Oid source;
        Oid target;
        char context;
    } casts[] = {
        {DATEOID, TIMESTAMPOID, CAST_IMPLICIT},
        {DATEOID, TIMESTAMPTZOID, CAST_IMPLICIT},
        {TIMESTAMPOID, TIMESTAMPTZOID, CAST_IMPLICIT},
        {TIMESTAMPTZOID, TIMESTAMPOID, CAST_ASSIGNMENT},
        {TIMESTAMPOID, DATEOID, CAST_ASSIGNMENT},
        {TIMESTAMPTZOID, DATEOID, CAST_ASSIGNMENT},
        {TIMESTAMPOID, TIMEOID, CAST_ASSIGNMENT},
        {TIMEOID, INTERVALOID, CAST_IMPLICIT},
        {INTERVALOID, TIMEOID, CAST_ASSIGNMENT},
    };

    op = tdb_oper_lookup("=", DATEOID, DATEOID);
    expect_true(op != NULL && op->oid == 1093 && op->is_equality);
    op = tdb_oper_lookup("=", DATEOID, TIMESTAMPOID);
    expect_true(op != NULL && op->oid == 2347 && !op->is_equality);
    op = tdb_oper_lookup("=", TIMESTAMPOID, TIMESTAMPTZOID);
    expect_true(op != NULL && op->oid == 2536 && !op->is_equality);
    op = tdb_oper_lookup("=", INTERVALOID, INTERVALOID);
    expect_true(op != NULL && op->oid == 1330 && op->is_equality);
    op = tdb_oper_lookup("-", InvalidOid, INTERVALOID);
    expect_true(op != NULL && op->oid == 1336);
    op = tdb_oper_lookup("+", DATEOID, INTERVALOID);
    expect_true(op != NULL && op->result == TIMESTAMPOID);
    op = tdb_oper_lookup("-", TIMESTAMPTZOID, TIMESTAMPTZOID);
    expect_true(op != NULL && op->result == INTERVALOID);
    op = tdb_oper_lookup("*", FLOAT8OID, INTERVALOID);
    expect_true(op != NULL && op->oid == 1584);

    for (Size i = 0; i < lengthof(casts); i++) {
        cast = tdb_cast_lookup(casts[i].source, casts[i].target);
        expect_true(cast != NULL && cast->context == casts[i].context &&
                    cast->method == CAST_METHOD_FUNCTION);
    }
    cast = tdb_cast_lookup(INTERVALOID, TEXTOID);
    expect_true(cast != NULL && cast->method == CAST_METHOD_INOUT &&
                cast->context == CAST_ASSIGNMENT);
    cast = tdb_cast_lookup(TEXTOID, DATEOID);
    expect_true(cast != NULL && cast->method == CAST_METHOD_INOUT &&
                cast->context == CAST_EXPLICIT);
    expect_ptr_null(tdb_cast_lookup(DATEOID, TIMEOID));

    expect_int_eq(find_agg("sum", INTERVALOID)->rettype, INTERVALOID);
    expect_int_eq(find_agg("avg", INTERVALOID)->transtype, INTERNALOID);
    expect_int_eq(find_agg("max", TIMESTAMPTZOID)->oid, 2127);
    expect_int_eq(find_agg("min", DATEOID)->oid, 2138);

    /* typmods print where PostgreSQL's format_type puts them */
    expect_str_eq(tdb_format_type(TIMESTAMPOID, 3),
                  "timestamp(3) without time zone");
    expect_str_eq(tdb_format_type(TIMESTAMPTZOID, 0),
                  "timestamp(0) with time zone");
    expect_str_eq(tdb_format_type(TIMEOID, 6), "time(6) without time zone");
    expect_str_eq(tdb_format_type(TIMESTAMPOID, -1),
                  "timestamp without time zone");
    expect_str_eq(tdb_format_type(DATEOID, -1), "date");
    expect_str_eq(tdb_format_type(INTERVALOID, INTERVAL_TYPMOD(3,
                                                  INTERVAL_FULL_RANGE)),
                  "interval(3)");
    expect_str_eq(tdb_format_type(INTERVALOID,
                                  INTERVAL_TYPMOD(INTERVAL_FULL_PRECISION,
                                                  year_to_month)),
                  "interval year to month");
    expect_str_eq(tdb_format_type(INTERVALOID,
                                  INTERVAL_TYPMOD(2, day_to_second)),
                  "interval day to second(2)");
    expect_true(tdb_dt_check_token_tables());
}
TEST_END

/* ----------------------------------------------------------------------
 * Hashing and comparison
 * ---------------------------------------------------------------------- */

static int32
hash_of(Oid type, const char *s)
{
    return DatumGetInt32(
        tdb_direct_call1(tdb_type_support(type)->hash, in(type, s)));
}

TEST_BEGIN(test_hash_and_compare)
{
    /* PostgreSQL 15's values (hashint4(8826), timestamp_hash(...), ...) */
    expect_int_eq(hash_of(DATEOID, "2024-03-01"), 159550630);
    expect_int_eq(hash_of(TIMESTAMPOID, "2024-03-01 12:34:56"), 903368730);
    expect_int_eq(hash_of(TIMESTAMPTZOID, "2024-03-01 12:34:56+00"),
                  903368730);
    expect_int_eq(hash_of(TIMEOID, "12:34:56"), 1578700661);
    expect_int_eq(hash_of(INTERVALOID, "1 day"), -2053980660);
    expect_int_eq(hash_of(TIMESTAMPOID, "infinity"), -1524351049);
    expect_int_eq(
        hash_of(INTERVALOID,
                "178956970 years 7 mons 2147483647 days "
                "2562047788:00:54.775807"),
        -523051888);
    /* intervals equal as 30-day months and 24-hour days hash alike */
    expect_int_eq(hash_of(INTERVALOID, "1 mon"), 1574789525);
    expect_int_eq(hash_of(INTERVALOID, "30 days"), 1574789525);
    expect_int_eq(hash_of(INTERVALOID, "720:00:00"), 1574789525);
    expect_int_eq(DatumGetInt32(tdb_direct_call2(
                      tdb_type_support(INTERVALOID)->cmp,
                      in(INTERVALOID, "1 mon"), in(INTERVALOID, "30 days"))),
                  0);
    expect_true(DatumGetBool(tdb_direct_call2(
        tdb_type_support(INTERVALOID)->eq, in(INTERVALOID, "1 day"),
        in(INTERVALOID, "24:00:00"))));
    expect_int_eq(DatumGetInt32(tdb_direct_call2(
                      tdb_type_support(DATEOID)->cmp, in(DATEOID, "infinity"),
                      in(DATEOID, "5874897-12-31"))),
                  1);
}
TEST_END

/* ----------------------------------------------------------------------
 * Interval arguments at unaligned addresses (a copy out of a tuple)
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_unaligned_interval)
{
    char *raw = tdb_palloc(64);
    Interval v =
        tdb_interval_get(in(INTERVALOID, "1 year 2 mons 3 days 04:05:06"));
    char *odd = raw + 3;
    Oid types[2] = {TIMESTAMPOID, INTERVALOID};
    Datum args[2];
    bool isnull;

    memcpy(odd, &v, sizeof(v));
    expect_str_eq(out(INTERVALOID, PointerGetDatum(odd)),
                  "1 year 2 mons 3 days 04:05:06");
    args[0] = in(TIMESTAMPOID, "2024-01-31 00:00:00");
    args[1] = PointerGetDatum(odd);
    expect_str_eq(out(TIMESTAMPOID, call_fn(tdb_oper_lookup("+", types[0],
                                                            types[1])->fn,
                                            2, args, NULL, NULL, &isnull)),
                  "2025-04-03 04:05:06");
    expect_int_eq(DatumGetInt32(tdb_direct_call1(
                      tdb_type_support(INTERVALOID)->hash,
                      PointerGetDatum(odd))),
                  DatumGetInt32(tdb_direct_call1(
                      tdb_type_support(INTERVALOID)->hash,
                      in(INTERVALOID, "1 year 2 mons 3 days 04:05:06"))));
}
TEST_END

/* ----------------------------------------------------------------------
 * Aggregates over many rows, with the per-row memory reset
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_interval_aggregates)
{
    char *values = tdb_palloc(20000);
    Size used = 0;
    bool isnull;

    /* 1 .. 1000 seconds, and a NULL */
    for (int i = 1; i <= 1000; i++)
        used += (Size)snprintf(values + used, 20000 - used, "%s%d seconds",
                               i > 1 ? "," : "", i);
    snprintf(values + used, 20000 - used, ",null");
    expect_str_eq(out(INTERVALOID, run_agg(find_agg("sum", INTERVALOID),
                                           values, &isnull)),
                  "139:01:40");
    expect_str_eq(out(INTERVALOID, run_agg(find_agg("avg", INTERVALOID),
                                           values, &isnull)),
                  "00:08:20.5");
    expect_str_eq(out(INTERVALOID, run_agg(find_agg("max", INTERVALOID),
                                           values, &isnull)),
                  "00:16:40");
    (void)run_agg(find_agg("avg", INTERVALOID), "null,null", &isnull);
    expect_true(isnull);
}
TEST_END

/* ----------------------------------------------------------------------
 * Typmods and time zone names
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_typmods)
{
    const TypeSupport *ts = tdb_type_support(TIMESTAMPOID);
    const TypeSupport *tm = tdb_type_support(TIMEOID);
    const TypeSupport *iv = tdb_type_support(INTERVALOID);
    int32 ym = INTERVAL_TYPMOD(INTERVAL_FULL_PRECISION,
                               INTERVAL_MASK(DTF_YEAR) |
                                   INTERVAL_MASK(DTF_MONTH));

    expect_str_eq(ts->typmod_out(0), "(0)");
    expect_str_eq(out(TIMESTAMPOID,
                      ts->apply_typmod(in(TIMESTAMPOID,
                                          "2024-03-01 12:34:56.5"),
                                       0, false)),
                  "2024-03-01 12:34:57");
    expect_str_eq(out(TIMEOID, tm->apply_typmod(in(TIMEOID, "23:59:59.99"),
                                                1, false)),
                  "24:00:00");
    expect_str_eq(iv->typmod_out(ym), " year to month");
    expect_str_eq(out(INTERVALOID,
                      iv->apply_typmod(in(INTERVALOID, "1 year 2 mons 3 days"),
                                       ym, false)),
                  "1 year 2 mons");
    /* the range steers input: a bare number is the last field */
    expect_str_eq(out(INTERVALOID, tdb_type_input(INTERVALOID, "3", ym)),
                  "3 mons");
    expect_error(ts->apply_typmod(in(TIMESTAMPOID, "2024-03-01"), 7, false),
                 ERRCODE_INVALID_PARAMETER_VALUE,
                 "timestamp(7) precision must be between 0 and 6");
}
TEST_END

TEST_BEGIN(test_zone_names)
{
    const DtZone *zone;
    int tz;
    DtTm tm = {0};

    zone = tdb_dt_zone_load("gmt");
    expect_true(zone != NULL && tdb_dt_zone_fixed_offset(zone, &tz) &&
                tz == 0);
    zone = tdb_dt_zone_load("UTC+3");
    expect_true(zone != NULL && tdb_dt_zone_fixed_offset(zone, &tz) &&
                tz == 3 * 3600);
    zone = tdb_dt_zone_load("<+0530>-5:30");
    expect_true(zone != NULL && tdb_dt_zone_fixed_offset(zone, &tz) &&
                tz == -(5 * 3600 + 30 * 60));
    /* a POSIX zone with rules: US rules by default */
    zone = tdb_dt_zone_load("XST5XDT");
    expect_true(zone != NULL && !tdb_dt_zone_fixed_offset(zone, &tz));
    tm.tm_year = 2024;
    tm.tm_mon = 7;
    tm.tm_mday = 1;
    tm.tm_hour = 12;
    expect_int_eq(tdb_dt_zone_offset(&tm, zone), 4 * 3600);
    expect_int_eq(tm.tm_isdst, 1);
    tm.tm_mon = 1;
    expect_int_eq(tdb_dt_zone_offset(&tm, zone), 5 * 3600);
    expect_int_eq(tm.tm_isdst, 0);
    expect_ptr_null(tdb_dt_zone_load("EST5EDT,M3.2.0"));
    expect_ptr_null(tdb_dt_zone_load("foo/bar"));
    expect_ptr_null(tdb_dt_zone_load(""));
    if (tdb_dt_zone_load("america/new_york") != NULL) {
        /* the system time zone database is there */
        zone = tdb_dt_zone_load("etc/gmt+5");
        expect_true(tdb_dt_zone_fixed_offset(zone, &tz) && tz == 5 * 3600);
        zone = tdb_dt_zone_load("america/new_york");
        expect_true(zone != NULL && !tdb_dt_zone_fixed_offset(zone, &tz));
        expect_str_eq(out(TIMESTAMPTZOID,
                          in(TIMESTAMPTZOID, "2024-03-01 12:00 Etc/GMT-14")),
                      "2024-02-29 22:00:00+00");
        expect_str_eq(out(TIMESTAMPTZOID,
                          in(TIMESTAMPTZOID, "2024-07-01 12:00 Europe/Paris")),
                      "2024-07-01 10:00:00+00");
        /* a timestamp without time zone ignores the zone */
        expect_str_eq(out(TIMESTAMPOID,
                          in(TIMESTAMPOID, "2024-03-01 12:00 Europe/Paris")),
                      "2024-03-01 12:00:00");
    } else
        test_skip("no time zone database in TZDIR or /usr/share/zoneinfo");
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "types_datetime",
                     TEST_CASE(test_pg15_fixture),
                     TEST_CASE(test_pg15_zone_fixture), TEST_CASE(test_clock),
                     TEST_CASE(test_registry_rows),
                     TEST_CASE(test_hash_and_compare),
                     TEST_CASE(test_unaligned_interval),
                     TEST_CASE(test_interval_aggregates),
                     TEST_CASE(test_typmods), TEST_CASE(test_zone_names));
}
