/*
 * concat.c -- string building over values of any type: concat(),
 * concat_ws(), the operators text || anynonarray and anynonarray ||
 * text, and the aggregate string_agg(text, text).
 *
 * Functions declared with "any" arguments learn the actual types from
 * fcinfo->flinfo->fn_expr_argtypes (fmgr.h).  concat and concat_ws
 * print each value with its type's output function (concat(true) is
 * "t"); the || operators convert through the cast to text instead, as
 * PostgreSQL's SQL definitions of them do (true || 'x' is "truex").
 * concat and concat_ws are PostgreSQL's VARIADIC "any" functions: each
 * is registered once per argument count up to FUNC_MAX_ARGS, and a call
 * written concat(VARIADIC arr) passes the array as the one variadic
 * argument (FmgrInfo.fn_expr_variadic): its elements are the values, and
 * a NULL array makes the result NULL, as in PostgreSQL.
 */
#include "common/base.h"

#include "common/elog.h"
#include "types/builtins.h"
#include "types/textfuncs.h"

/* The actual type of argument n, or an error naming fname. */
static Oid
any_arg_type(FunctionCallInfo fcinfo, int n, const char *fname)
{
    Oid typid = tdb_fn_expr_argtype(fcinfo->flinfo, n);

    if (typid == InvalidOid)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("could not determine data type of %s() input", fname));
    return typid;
}

/* Append the output-function text of argument n (not NULL). */
static void
append_output(TextBuf *tb, FunctionCallInfo fcinfo, int n, const char *fname)
{
    Oid typid = any_arg_type(fcinfo, n, fname);
    char *s = tdb_type_output(typid, PG_GETARG_DATUM(n));

    tdb_textbuf_append(tb, s, strlen(s));
}

/*
 * concat(VARIADIC arr) and concat_ws(sep, VARIADIC arr): the elements of
 * the array argument first (not NULL), printed, separated by sep (may be
 * NULL: nothing between them).
 */
static Datum
concat_array(FunctionCallInfo fcinfo, int first, const varlena *sep)
{
    TextBuf tb;
    ArrayValues elems = tdb_array_values(PG_GETARG_DATUM(first));

    tdb_textbuf_init(&tb, tdb_current_mcxt, 32);
    for (int i = 0; i < elems.n; i++) {
        char *s = tdb_type_output(elems.elemtype, elems.values[i]);

        if (i > 0 && sep != NULL)
            tdb_textbuf_append_text(&tb, sep);
        tdb_textbuf_append(&tb, s, strlen(s));
    }
    PG_RETURN_POINTER(tdb_textbuf_finish(&tb));
}

/*
 * The non-NULL arguments from first on, printed, separated by sep (may
 * be NULL: nothing between them); for a VARIADIC call, the elements of
 * the array that is argument first, and NULL for a NULL array.
 */
static Datum
concat_args(FunctionCallInfo fcinfo, int first, const varlena *sep,
            const char *fname)
{
    TextBuf tb;
    bool any = false;

    if (fcinfo->flinfo != NULL && fcinfo->flinfo->fn_expr_variadic) {
        if (PG_ARGISNULL(first))
            PG_RETURN_NULL();
        return concat_array(fcinfo, first, sep);
    }
    tdb_textbuf_init(&tb, tdb_current_mcxt, 32);
    for (int i = first; i < PG_NARGS(); i++) {
        if (PG_ARGISNULL(i))
            continue;
        if (any && sep != NULL)
            tdb_textbuf_append_text(&tb, sep);
        append_output(&tb, fcinfo, i, fname);
        any = true;
    }
    PG_RETURN_POINTER(tdb_textbuf_finish(&tb));
}

/* concat(...): NULLs are skipped. */
Datum
tdb_text_concat(PG_FUNCTION_ARGS)
{
    return concat_args(fcinfo, 0, NULL, "concat");
}

/* concat_ws(sep, ...): NULL if sep is NULL; NULL values skipped. */
Datum
tdb_text_concat_ws(PG_FUNCTION_ARGS)
{
    if (PG_ARGISNULL(0))
        PG_RETURN_NULL();
    return concat_args(fcinfo, 1, PG_GETARG_VARLENA_P(0), "concat_ws");
}

/* Argument n of any type as text, through its cast to text. */
static const varlena *
any_to_text(FunctionCallInfo fcinfo, int n)
{
    Oid typid = any_arg_type(fcinfo, n, "textcat");
    const CastDesc *cast;

    if (typid == TEXTOID)
        return PG_GETARG_VARLENA_P(n);
    cast = tdb_cast_lookup(typid, TEXTOID);
    if (cast != NULL && cast->method == CAST_METHOD_FUNCTION)
        return DatumGetPointer(tdb_direct_call1(cast->fn, PG_GETARG_DATUM(n)));
    if (cast != NULL && cast->method == CAST_METHOD_BINARY)
        return PG_GETARG_VARLENA_P(n);
    return tdb_text_from_cstring(tdb_type_output(typid, PG_GETARG_DATUM(n)));
}

static Datum
concat_two(const varlena *a, const varlena *b)
{
    TextBuf tb;

    tdb_textbuf_init(&tb, tdb_current_mcxt,
                     VARSIZE_ANY_EXHDR(a) + VARSIZE_ANY_EXHDR(b));
    tdb_textbuf_append_text(&tb, a);
    tdb_textbuf_append_text(&tb, b);
    PG_RETURN_POINTER(tdb_textbuf_finish(&tb));
}

/* text || text */
Datum
tdb_textcat(PG_FUNCTION_ARGS)
{
    return concat_two(PG_GETARG_VARLENA_P(0), PG_GETARG_VARLENA_P(1));
}

/* text || anynonarray */
Datum
tdb_textanycat(PG_FUNCTION_ARGS)
{
    return concat_two(PG_GETARG_VARLENA_P(0), any_to_text(fcinfo, 1));
}

/* anynonarray || text */
Datum
tdb_anytextcat(PG_FUNCTION_ARGS)
{
    return concat_two(any_to_text(fcinfo, 0), PG_GETARG_VARLENA_P(1));
}

/* ----------------------------------------------------------------------
 * string_agg(value text, delimiter text)
 * ---------------------------------------------------------------------- */

/*
 * Transition (not strict): the state is a TextBuf in the group's
 * memory, created at the first non-NULL value; each later non-NULL value
 * is preceded by that row's delimiter (a NULL delimiter adds nothing).
 */
Datum
tdb_string_agg_transfn(PG_FUNCTION_ARGS)
{
    TextBuf *tb = PG_ARGISNULL(0) ? NULL : PG_GETARG_POINTER(0);

    if (PG_ARGISNULL(1)) {
        if (tb == NULL)
            PG_RETURN_NULL();
        PG_RETURN_POINTER(tb);
    }
    if (tb == NULL) {
        MemoryContext group = tdb_agg_group_mcxt(fcinfo);

        tb = tdb_mcxt_alloc(group, sizeof(TextBuf));
        tdb_textbuf_init(tb, group, 64);
    } else if (!PG_ARGISNULL(2)) {
        tdb_textbuf_append_text(tb, PG_GETARG_VARLENA_P(2));
    }
    tdb_textbuf_append_text(tb, PG_GETARG_VARLENA_P(1));
    PG_RETURN_POINTER(tb);
}

/* Final: the text built (a copy in the current context), NULL if no
 * value was aggregated. */
Datum
tdb_string_agg_finalfn(PG_FUNCTION_ARGS)
{
    TextBuf *tb;

    if (PG_ARGISNULL(0))
        PG_RETURN_NULL();
    tb = PG_GETARG_POINTER(0);
    PG_RETURN_POINTER(tdb_text_from_bytes(tb->buf + VARHDRSZ, tb->len));
}
