/*
 * types_test.h -- helpers for the types layer's unit tests: call
 * built-in functions, operators, casts, aggregates and set-returning
 * functions through the registry (builtins.h) the way the executor
 * will, with arguments and results in their text forms.
 *
 * Case tables: a TypeCase names what to call and the text of each
 * argument (NULL for SQL NULL), and the expected result's text: NULL for
 * SQL NULL, or "ERROR <sqlstate> <message>" for an error with exactly
 * that SQLSTATE and message.
 *   name     a function name ("substr"), an operator ("+", "~~"), or
 *            "::" for a cast from the first type to the second
 *   types    the argument types, comma-separated pg_type names
 *            ("int4,text"); an operator with one type is prefix
 * The expected values were produced by PostgreSQL 15 (a C-locale UTF-8
 * database) for the same expressions: SELECT name(arg::type, ...),
 * SELECT arg::type op arg::type, SELECT arg::source::target.
 */
#ifndef TDB_TESTS_TYPES_TEST_H
#define TDB_TESTS_TYPES_TEST_H

#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "test.h"
#include "types/builtins.h"

typedef struct TypeCase {
    const char *name;
    const char *types;
    const char *args[FUNC_MAX_ARGS];
    const char *want;
} TypeCase;

#define TT_MAX_CANDIDATES 64

/* Split "int4,text" into OIDs; returns the count. */
static TDB_UNUSED int
tt_parse_types(const char *types, Oid *oids)
{
    char buf[256];
    int n = 0;

    if (types == NULL || types[0] == '\0')
        return 0;
    snprintf(buf, sizeof(buf), "%s", types);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        const TypeInfo *t = tdb_type_lookup_by_name(tok);

        if (t == NULL) {
            tdb_test_fail(__FILE__, __LINE__, "unknown type %s", tok);
            return n;
        }
        oids[n++] = t->oid;
    }
    return n;
}

/* The function name(types) (an "any" parameter accepts any type). */
static TDB_UNUSED const FuncDesc *
tt_find_func(const char *name, const Oid *types, int nargs)
{
    const FuncDesc *cands[TT_MAX_CANDIDATES];
    int n = tdb_func_candidates(name, cands, TT_MAX_CANDIDATES);

    for (int i = 0; i < n && i < TT_MAX_CANDIDATES; i++) {
        bool ok = cands[i]->nargs == nargs;

        for (int a = 0; ok && a < nargs; a++)
            ok = cands[i]->argtypes[a] == types[a] ||
                 cands[i]->argtypes[a] == ANYOID;
        if (ok)
            return cands[i];
    }
    return NULL;
}

/* The operator name(types) (prefix if one type; "any" accepts any). */
static TDB_UNUSED const OperDesc *
tt_find_oper(const char *name, const Oid *types, int nargs)
{
    const OperDesc *cands[TT_MAX_CANDIDATES];
    int n = tdb_oper_candidates(name, cands, TT_MAX_CANDIDATES);
    Oid left = nargs == 1 ? InvalidOid : types[0];
    Oid right = nargs == 1 ? types[0] : types[1];
    const OperDesc *exact = tdb_oper_lookup(name, left, right);

    if (exact != NULL)
        return exact;
    for (int i = 0; i < n && i < TT_MAX_CANDIDATES; i++)
        if ((cands[i]->left == left ||
             (left != InvalidOid && cands[i]->left == ANYOID)) &&
            (cands[i]->right == right || cands[i]->right == ANYOID))
            return cands[i];
    return NULL;
}

/*
 * Call fn with args as the executor does: a strict function with a NULL
 * argument is not called.  argtypes fill fn_expr_argtypes.
 */
static TDB_UNUSED Datum
tt_invoke(const FuncDesc *desc_or_null, PGFunction fn, bool strict,
          const Oid *argtypes, const Datum *args, const bool *nulls,
          int nargs, void *context, bool *isnull)
{
    FmgrInfo flinfo = {0};
    FunctionCallInfoData fcinfo = {0};

    flinfo.fn_desc = desc_or_null;
    flinfo.fn_addr = fn;
    flinfo.fn_mcxt = tdb_current_mcxt;
    fcinfo.flinfo = &flinfo;
    fcinfo.context = context;
    fcinfo.nargs = (int16)nargs;
    for (int i = 0; i < nargs; i++) {
        flinfo.fn_expr_argtypes[i] = argtypes[i];
        fcinfo.args[i].value = args[i];
        fcinfo.args[i].isnull = nulls[i];
        if (strict && nulls[i]) {
            *isnull = true;
            return (Datum)0;
        }
    }
    {
        Datum result = fn(&fcinfo);

        *isnull = fcinfo.isnull;
        return result;
    }
}

/* The text arguments converted with their types' input functions. */
static TDB_UNUSED void
tt_input_args(const Oid *types, const char *const *texts, int nargs,
              Datum *args, bool *nulls)
{
    for (int i = 0; i < nargs; i++) {
        nulls[i] = texts[i] == NULL;
        args[i] = nulls[i] ? (Datum)0 : tdb_type_input(types[i], texts[i], -1);
    }
}

/* Run one case; returns the result's text (or NULL), raising on error. */
static TDB_UNUSED const char *
tt_eval(const TypeCase *c)
{
    Oid types[FUNC_MAX_ARGS];
    Datum args[FUNC_MAX_ARGS];
    bool nulls[FUNC_MAX_ARGS];
    int nargs = tt_parse_types(c->types, types);
    bool isnull = false;
    Datum result;
    Oid rettype;

    if (strcmp(c->name, "::") == 0) {
        const CastDesc *cast = tdb_cast_lookup(types[0], types[1]);

        if (cast == NULL)
            return "no such cast";
        if (c->args[0] == NULL)
            return NULL;
        tt_input_args(types, c->args, 1, args, nulls);
        if (cast->method == CAST_METHOD_FUNCTION)
            result = tdb_direct_call1(cast->fn, args[0]);
        else if (cast->method == CAST_METHOD_BINARY)
            result = args[0];
        else
            result = tdb_type_input(types[1],
                                    tdb_type_output(types[0], args[0]), -1);
        return tdb_type_output(types[1], result);
    }
    tt_input_args(types, c->args, nargs, args, nulls);
    if ((c->name[0] >= 'a' && c->name[0] <= 'z') || c->name[0] == '_') {
        const FuncDesc *f = tt_find_func(c->name, types, nargs);

        if (f == NULL)
            return "no such function";
        result = tt_invoke(f, f->fn, f->strict, types, args, nulls, nargs,
                           NULL, &isnull);
        rettype = f->rettype;
    } else {
        const OperDesc *op = tt_find_oper(c->name, types, nargs);

        if (op == NULL)
            return "no such operator";
        result = tt_invoke(NULL, op->fn, op->strict, types, args, nulls,
                           nargs, NULL, &isnull);
        rettype = op->result;
    }
    return isnull ? NULL : tdb_type_output(rettype, result);
}

/* Check case number i; a failure names it. */
static TDB_UNUSED void
tt_check_case(const TypeCase *c, int i, const char *file, int line)
{
    const char *volatile got = NULL;
    char errbuf[ERRMSG_MAX + 16];
    volatile bool raised = false;

    TDB_TRY();
    {
        got = tt_eval(c);
    }
    TDB_CATCH();
    {
        const ErrorData *e = tdb_error_current();
        char state[6];

        tdb_sqlstate_unpack(e->sqlerrcode, state);
        snprintf(errbuf, sizeof(errbuf), "ERROR %s %s", state, e->message);
        raised = true;
        tdb_error_flush();
    }
    TDB_END_TRY();
    if (raised)
        got = errbuf;
    if ((got == NULL) != (c->want == NULL) ||
        (got != NULL && strcmp(got, c->want) != 0))
        tdb_test_fail(file, line,
                      "case %d: %s(%s) [%s, %s, %s]: got %s%s%s, "
                      "expected %s%s%s",
                      i, c->name, c->types, c->args[0] ? c->args[0] : "NULL",
                      c->args[1] ? c->args[1] : "NULL",
                      c->args[2] ? c->args[2] : "NULL", got ? "\"" : "",
                      got ? got : "NULL", got ? "\"" : "",
                      c->want ? "\"" : "", c->want ? c->want : "NULL",
                      c->want ? "\"" : "");
}

static TDB_UNUSED void
tt_run_cases(const TypeCase *cases, int ncases, const char *file, int line)
{
    for (int i = 0; i < ncases; i++)
        tt_check_case(&cases[i], i, file, line);
}

#define tt_check_cases(cases)                                               \
    tt_run_cases((cases), (int)lengthof(cases), __FILE__, __LINE__)

/* ----------------------------------------------------------------------
 * Aggregates and set-returning functions
 * ---------------------------------------------------------------------- */

/*
 * Aggregate name(argtype) over the values (text, NULL = SQL NULL; for a
 * two-argument aggregate, values alternate arg0, arg1 per row; for
 * count(*), nrows rows of no arguments), evaluated as builtins.h states;
 * returns the result's text or NULL.
 */
static TDB_UNUSED const char *
tt_aggregate(const char *name, const char *types, const char *const *values,
             int nrows)
{
    const AggDesc *cands[TT_MAX_CANDIDATES];
    int ncands = tdb_agg_candidates(name, cands, TT_MAX_CANDIDATES);
    Oid argtypes[2] = {InvalidOid, InvalidOid};
    int nargs = tt_parse_types(types, argtypes);
    const AggDesc *agg = NULL;
    MemoryContext group =
        tdb_aset_create(tdb_current_mcxt, "group", ALLOCSET_DEFAULT_SIZES);
    AggCallContext actx = {group};
    Datum state = 0;
    bool state_null;
    bool isnull = false;
    Datum result;

    for (int i = 0; i < ncands && i < TT_MAX_CANDIDATES; i++)
        if (cands[i]->nargs == nargs &&
            (nargs == 0 || cands[i]->argtypes[0] == argtypes[0] ||
             cands[i]->argtypes[0] == ANYOID))
            agg = cands[i];
    if (agg == NULL)
        return "no such aggregate";
    state_null = agg->initval == NULL;
    if (!state_null)
        state = tdb_type_input(agg->transtype, agg->initval, -1);
    for (int r = 0; r < nrows; r++) {
        Oid ftypes[3] = {agg->transtype, argtypes[0], argtypes[1]};
        Datum args[3];
        bool nulls[3];
        bool any_null = false;

        tt_input_args(argtypes, values + r * nargs, nargs, args + 1,
                      nulls + 1);
        for (int a = 1; a <= nargs; a++)
            any_null |= nulls[a];
        if (agg->strict_trans && any_null)
            continue;
        if (agg->strict_trans && state_null) {
            /* the first input, copied into the group's memory */
            const TypeInfo *t = tdb_type_lookup(agg->transtype);

            state = args[1];
            if (!t->byval) {
                Size len = t->len > 0 ? (Size)t->len
                                      : VARSIZE_ANY(DatumGetPointer(args[1]));
                void *copy = tdb_mcxt_alloc(group, len);

                memcpy(copy, DatumGetPointer(args[1]), len);
                state = PointerGetDatum(copy);
            }
            state_null = false;
            continue;
        }
        args[0] = state;
        nulls[0] = state_null;
        state = tt_invoke(NULL, agg->transfn, false, ftypes, args, nulls,
                          nargs + 1, &actx, &state_null);
    }
    if (agg->finalfn != NULL && !(agg->strict_final && state_null)) {
        Oid ftype = agg->transtype;

        result = tt_invoke(NULL, agg->finalfn, false, &ftype, &state,
                           &state_null, 1, &actx, &isnull);
    } else {
        result = state;
        isnull = state_null;
    }
    return isnull ? NULL : tdb_type_output(agg->rettype, result);
}

/*
 * All rows of the set-returning function name(types) with text args,
 * as "v1,v2,..." (at most max_rows rows).
 */
static TDB_UNUSED const char *
tt_srf(const char *name, const char *types, const char *const *texts,
       int max_rows)
{
    Oid argtypes[FUNC_MAX_ARGS];
    Datum args[FUNC_MAX_ARGS];
    bool nulls[FUNC_MAX_ARGS];
    int nargs = tt_parse_types(types, argtypes);
    const FuncDesc *f = tt_find_func(name, argtypes, nargs);
    SRFCallContext srf = {0};
    char *out = tdb_palloc0(4096);
    Size used = 0;

    if (f == NULL || !f->retset)
        return "no such set-returning function";
    tt_input_args(argtypes, texts, nargs, args, nulls);
    for (int i = 0; i < nargs; i++)
        if (f->strict && nulls[i])
            return ""; /* a strict set-returning function: no rows */
    srf.multi_call_mcxt = tdb_current_mcxt;
    for (int row = 0; row < max_rows; row++, srf.call_no++) {
        bool isnull;
        Datum v = tt_invoke(f, f->fn, f->strict, argtypes, args, nulls,
                            nargs, &srf, &isnull);

        if (srf.is_done)
            break;
        used += (Size)snprintf(out + used, 4096 - used, "%s%s",
                               row > 0 ? "," : "",
                               isnull ? "NULL" : tdb_type_output(f->rettype, v));
    }
    return out;
}

/* ----- PostgreSQL fixture files (tests/fixtures/pg, NAME.txt) -----
 * One case per line, fields separated by tabs, \N for NULL. */

/*
 * Split line (its newline already cut) into exactly n tab-separated
 * fields in place; false if it has another count.  (strtok_r would merge
 * empty fields.)
 */
static TDB_UNUSED bool
tt_split_fields(char *line, char **fields, int n)
{
    char *tok = line;
    int nf = 0;

    for (; nf < n; nf++) {
        char *tab = strchr(tok, '\t');

        fields[nf] = tok;
        if (tab == NULL) {
            nf++;
            break;
        }
        *tab = '\0';
        tok = tab + 1;
    }
    return nf == n;
}

/* A fixture field: NULL for \N. */
static TDB_UNUSED char *
tt_field(char *s)
{
    return strcmp(s, "\\N") == 0 ? NULL : s;
}

/* Equal strings, NULL equal only to NULL. */
static TDB_UNUSED bool
tt_str_equal(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    return strcmp(a, b) == 0;
}

#endif /* TDB_TESTS_TYPES_TEST_H */
