/*
 * bpchar.c -- character(n) ("bpchar", blank-padded) and character
 * varying(n) (varchar): the length typmods and bpchar's semantics.
 *
 * A typmod stores n + VARHDRSZ, as PostgreSQL does (varchar(3) has
 * typmod 7); -1 means no limit.  Lengths n count characters.
 *
 * Fitting a value to n characters (on input, on assignment, in a cast):
 *   - longer than n: the excess must be spaces, which are cut off, or
 *     22001 "value too long for type character varying(n)" is raised;
 *     an explicit cast cuts without looking;
 *   - bpchar shorter than n is padded with spaces.
 * bpchar ignores trailing spaces when comparing, hashing and measuring
 * length(), but keeps them in its stored form (octet_length counts
 * them; the cast to text drops them, see tdb_rtrim1).
 */
#include "common/base.h"

#include <stdio.h>

#include "common/elog.h"
#include "types/hashfn.h"
#include "types/strutil.h"
#include "types/textfuncs.h"

static TDB_NORETURN void
value_too_long(const char *sqlname, int32 maxlen)
{
    ereport(ERROR, errcode(ERRCODE_STRING_DATA_RIGHT_TRUNCATION),
            errmsg("value too long for type %s(%d)", sqlname, maxlen));
    __builtin_unreachable();
}

/*
 * The byte length of s[0..len) cut to maxlen characters; unless
 * is_explicit, raises if a cut byte is not a space.
 */
static Size
cut_to_chars(const char *s, Size len, int32 maxlen, bool is_explicit,
             const char *sqlname)
{
    Size keep = tdb_utf8_char_offset(s, len, (Size)maxlen);

    if (!is_explicit)
        for (Size i = keep; i < len; i++)
            if (s[i] != ' ')
                value_too_long(sqlname, maxlen);
    return keep;
}

/* s[0..len) made to fit varchar with typmod (a new text). */
static text *
varchar_fit(const char *s, Size len, int32 typmod, bool is_explicit)
{
    int32 maxlen = typmod - VARHDRSZ;

    /* bytes > maxlen is necessary for characters > maxlen: cheap test */
    if (typmod >= VARHDRSZ && len > (Size)maxlen)
        len = cut_to_chars(s, len, maxlen, is_explicit, "character varying");
    return tdb_text_from_bytes(s, len);
}

/* s[0..len) made to fit bpchar with typmod: cut and/or padded. */
static text *
bpchar_fit(const char *s, Size len, int32 typmod, bool is_explicit)
{
    int32 maxlen = typmod - VARHDRSZ;
    Size nchars, total;
    text *result;

    if (typmod < VARHDRSZ)
        return tdb_text_from_bytes(s, len);
    nchars = tdb_utf8_strlen(s, len);
    if (nchars > (Size)maxlen) {
        len = cut_to_chars(s, len, maxlen, is_explicit, "character");
        nchars = (Size)maxlen;
    }
    total = len + ((Size)maxlen - nchars);
    result = tdb_text_new(total);
    memcpy(VARDATA(result), s, len);
    memset(VARDATA(result) + len, ' ', total - len);
    return result;
}

Datum
tdb_varchar_input(const char *str, int32 typmod)
{
    return PointerGetDatum(varchar_fit(str, strlen(str), typmod, false));
}

Datum
tdb_bpchar_input(const char *str, int32 typmod)
{
    return PointerGetDatum(bpchar_fit(str, strlen(str), typmod, false));
}

/* Length coercions: the value itself when it already fits. */
Datum
tdb_varchar_apply_typmod(Datum value, int32 typmod, bool is_explicit)
{
    const varlena *t = DatumGetPointer(value);
    Size len = VARSIZE_ANY_EXHDR(t);

    if (typmod < VARHDRSZ || len <= (Size)(typmod - VARHDRSZ))
        return value;
    return PointerGetDatum(
        varchar_fit(VARDATA_ANY(t), len, typmod, is_explicit));
}

Datum
tdb_bpchar_apply_typmod(Datum value, int32 typmod, bool is_explicit)
{
    const varlena *t = DatumGetPointer(value);
    const char *s = VARDATA_ANY(t);
    Size len = VARSIZE_ANY_EXHDR(t);

    if (typmod < VARHDRSZ ||
        tdb_utf8_strlen(s, len) == (Size)(typmod - VARHDRSZ))
        return value;
    return PointerGetDatum(bpchar_fit(s, len, typmod, is_explicit));
}

/* SQL-callable forms: varchar(v, typmod, explicit), bpchar(...). */
Datum
tdb_varchar_fn(PG_FUNCTION_ARGS)
{
    return tdb_varchar_apply_typmod(PG_GETARG_DATUM(0), PG_GETARG_INT32(1),
                                    PG_GETARG_BOOL(2));
}

Datum
tdb_bpchar_fn(PG_FUNCTION_ARGS)
{
    return tdb_bpchar_apply_typmod(PG_GETARG_DATUM(0), PG_GETARG_INT32(1),
                                   PG_GETARG_BOOL(2));
}

/* "(n)" for both types */
char *
tdb_char_typmod_out(int32 typmod)
{
    char buf[16];

    if (typmod < VARHDRSZ)
        return tdb_pstrdup("");
    snprintf(buf, sizeof(buf), "(%d)", (int)(typmod - VARHDRSZ));
    return tdb_pstrdup(buf);
}

/* ----------------------------------------------------------------------
 * bpchar semantics
 * ---------------------------------------------------------------------- */

/* Bytes of bpchar argument n without its trailing spaces. */
static Size
bpchar_true_len(FunctionCallInfo fcinfo, int n)
{
    const varlena *t = PG_GETARG_VARLENA_P(n);
    Size len = VARSIZE_ANY_EXHDR(t);

    while (len > 0 && VARDATA_ANY(t)[len - 1] == ' ')
        len--;
    return len;
}

static int
bpchar_cmp(FunctionCallInfo fcinfo)
{
    return tdb_bytes_cmp(
        VARDATA_ANY(PG_GETARG_VARLENA_P(0)), bpchar_true_len(fcinfo, 0),
        VARDATA_ANY(PG_GETARG_VARLENA_P(1)), bpchar_true_len(fcinfo, 1));
}

TDB_CMP_FUNCS(tdb_bpchar, bpchar_cmp(fcinfo))

Datum
tdb_bpcharcmp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(bpchar_cmp(fcinfo));
}

Datum
tdb_hashbpchar(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)tdb_hash_bytes(VARDATA_ANY(PG_GETARG_VARLENA_P(0)),
                                          bpchar_true_len(fcinfo, 0)));
}

Datum
tdb_bpchar_larger(PG_FUNCTION_ARGS)
{
    return tdb_agg_pick(fcinfo, bpchar_cmp(fcinfo) >= 0 ? 0 : 1);
}

Datum
tdb_bpchar_smaller(PG_FUNCTION_ARGS)
{
    return tdb_agg_pick(fcinfo, bpchar_cmp(fcinfo) <= 0 ? 0 : 1);
}

/* length(bpchar): characters without the padding */
Datum
tdb_bpcharlen(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)tdb_utf8_strlen(VARDATA_ANY(PG_GETARG_VARLENA_P(0)),
                                           bpchar_true_len(fcinfo, 0)));
}
