/*
 * convert.c -- text and bytes in other encodings: convert_from(bytea,
 * name), convert_to(text, name), convert(bytea, name, name),
 * length(bytea, name), and the encoding catalog functions
 * pg_char_to_encoding, pg_encoding_to_char, pg_encoding_max_length and
 * getdatabaseencoding.
 *
 * The database encoding is UTF8, so convert_from(b, e) is convert(b, e,
 * 'UTF8') read as text, and convert_to(t, e) is convert(t, 'UTF8', e).
 * convert runs PostgreSQL's steps in its order, so that the same input
 * fails with the same error:
 *
 *   1. both names must be encodings (22023 invalid source / destination
 *      encoding name);
 *   2. the bytes must be well formed in the source encoding (22021,
 *      common/encoding.h) -- UTF8 to UTF8 checks too, which is how
 *      convert_from(b, 'UTF8') refuses bad bytes;
 *   3. empty input, the same encoding on both sides, or SQL_ASCII as
 *      the destination: the bytes are the answer; SQL_ASCII as the
 *      source: the bytes are the answer once step 2 passes for the
 *      destination encoding;
 *   4. PostgreSQL must have a conversion between the two (42883
 *      "default conversion function ... does not exist");
 *   5. convert, each character that has no equivalent raising 22P05.
 *
 * Conversions done: LATIN1 <-> UTF8 (byte b is U+00bb), and any pair
 * for pure-ASCII input (every encoding extends ASCII, and every
 * conversion maps it to itself).  A non-ASCII character in another
 * conversion PostgreSQL makes (LATIN2, WIN1252, EUC_JP, ...) raises
 * 0A000 until tupledb has its table.
 *
 * Entry point: tdb_builtins_convert (registry.c).
 */
#include "common/base.h"

#include <string.h>

#include "common/elog.h"
#include "common/encoding.h"
#include "types/builtin_rows.h"
#include "types/textfuncs.h"

/* The encoding named by argument n of type name. */
#define ARG_NAME(n) ((const char *)PG_GETARG_POINTER(n))

/* The encoding a name stands for; 22023 with what ("source",
 * "destination") in the message if it stands for none. */
static int
encoding_arg(const char *name, const char *what)
{
    int enc = tdb_encoding_from_name(name);

    if (enc < 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid %s encoding name \"%s\"", what, name));
    return enc;
}

/* The length of the leading run of ASCII bytes of s[0..len). */
static Size
ascii_prefix(const unsigned char *s, Size len)
{
    Size i = 0;

    while (i < len && s[i] < 0x80)
        i++;
    return i;
}

/*
 * LATIN1 to UTF-8 (to_utf8) or back: LATIN1's byte 80..FF is U+0080..
 * U+00FF, two bytes in UTF-8 (C2 80..C3 BF); no UTF-8 character above
 * has an equivalent (22P05).  s[0..done) is ASCII; s is valid in its
 * encoding.  The result is a new bytea in the current memory context.
 */
static bytea *
convert_latin1(const unsigned char *s, Size len, Size done, bool to_utf8)
{
    bytea *result = tdb_text_new(to_utf8 ? done + 2 * (len - done) : len);
    unsigned char *out = (unsigned char *)VARDATA(result);
    Size n = done;

    memcpy(out, s, done);
    for (Size i = done; i < len; i++) {
        if (s[i] < 0x80)
            out[n++] = s[i];
        else if (to_utf8) {
            out[n++] = (unsigned char)(0xc0 | (s[i] >> 6));
            out[n++] = (unsigned char)(0x80 | (s[i] & 0x3f));
        } else if (s[i] < 0xc4) {
            out[n++] = (unsigned char)((s[i] << 6) | (s[i + 1] & 0x3f));
            i++;
        } else
            tdb_encoding_report_untranslatable(TDB_ENC_UTF8, TDB_ENC_LATIN1,
                                               (const char *)s + i, len - i);
    }
    SET_VARSIZE(result, VARHDRSZ + n);
    return result;
}

/*
 * The bytes of v converted from encoding src to dst, as a new bytea in
 * the current memory context (a text when dst is UTF8); raises the
 * errors of steps 2 to 5 above.
 */
static bytea *
convert_bytes(const varlena *v, int src, int dst)
{
    const unsigned char *s = (const unsigned char *)VARDATA_ANY(v);
    Size len = VARSIZE_ANY_EXHDR(v), done;

    tdb_encoding_verify(src, (const char *)s, len);
    if (len == 0 || src == dst || dst == TDB_ENC_SQL_ASCII)
        return tdb_text_from_bytes((const char *)s, len);
    if (src == TDB_ENC_SQL_ASCII) {
        tdb_encoding_verify(dst, (const char *)s, len);
        return tdb_text_from_bytes((const char *)s, len);
    }
    if (!tdb_encoding_has_conversion(src, dst))
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_FUNCTION),
                errmsg("default conversion function for encoding \"%s\" to "
                       "\"%s\" does not exist",
                       tdb_encoding_name(src), tdb_encoding_name(dst)));
    done = ascii_prefix(s, len);
    if (done == len)
        return tdb_text_from_bytes((const char *)s, len);
    if (src == TDB_ENC_LATIN1 && dst == TDB_ENC_UTF8)
        return convert_latin1(s, len, done, true);
    if (src == TDB_ENC_UTF8 && dst == TDB_ENC_LATIN1)
        return convert_latin1(s, len, done, false);
    tdb_encoding_report_unsupported(src, dst);
}

/* convert(bytea, name, name) */
static Datum
pg_convert(PG_FUNCTION_ARGS)
{
    int src = encoding_arg(ARG_NAME(1), "source");
    int dst = encoding_arg(ARG_NAME(2), "destination");

    PG_RETURN_POINTER(convert_bytes(PG_GETARG_VARLENA_P(0), src, dst));
}

/* convert_from(bytea, name): valid UTF-8, so a text */
static Datum
pg_convert_from(PG_FUNCTION_ARGS)
{
    int src = encoding_arg(ARG_NAME(1), "source");

    PG_RETURN_POINTER(convert_bytes(PG_GETARG_VARLENA_P(0), src, TDB_ENC_UTF8));
}

/* convert_to(text, name) */
static Datum
pg_convert_to(PG_FUNCTION_ARGS)
{
    int dst = encoding_arg(ARG_NAME(1), "destination");

    PG_RETURN_POINTER(convert_bytes(PG_GETARG_VARLENA_P(0), TDB_ENC_UTF8, dst));
}

/* length(bytea, name): the characters of well-formed bytes */
static Datum
length_in_encoding(PG_FUNCTION_ARGS)
{
    const varlena *v = PG_GETARG_VARLENA_P(0);
    int enc = tdb_encoding_from_name(ARG_NAME(1));

    if (enc < 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid encoding name \"%s\"", ARG_NAME(1)));
    PG_RETURN_INT32(
        (int32)tdb_encoding_verify(enc, VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v)));
}

static Datum
pg_char_to_encoding(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(tdb_encoding_from_name(ARG_NAME(0)));
}

/* A new name value holding s. */
static Datum
return_name(const char *s)
{
    char *result = tdb_palloc0(NAMEDATALEN);

    strcpy(result, s);
    PG_RETURN_POINTER(result);
}

/* the empty name for a number that is no encoding's */
static Datum
pg_encoding_to_char(PG_FUNCTION_ARGS)
{
    const char *name = tdb_encoding_name(PG_GETARG_INT32(0));

    return return_name(name != NULL ? name : "");
}

/* NULL for a number that is no encoding's */
static Datum
pg_encoding_max_length(PG_FUNCTION_ARGS)
{
    int n = tdb_encoding_max_length(PG_GETARG_INT32(0));

    if (n == 0)
        PG_RETURN_NULL();
    PG_RETURN_INT32(n);
}

static Datum
getdatabaseencoding(PG_FUNCTION_ARGS)
{
    (void)fcinfo;
    return return_name(tdb_encoding_name(TDB_ENC_UTF8));
}

/* ----------------------------------------------------------------------
 * The table
 * ---------------------------------------------------------------------- */

#define BY BYTEAOID
#define I4 INT4OID
#define NM NAMEOID
#define T TEXTOID
#define STABLE PROVOLATILE_STABLE

static const FuncDesc convert_funcs[] = {
    FUNC_V(1813, "convert", pg_convert, STABLE, BY, 3, BY, NM, NM),
    FUNC_V(1714, "convert_from", pg_convert_from, STABLE, T, 2, BY, NM),
    FUNC_V(1717, "convert_to", pg_convert_to, STABLE, BY, 2, T, NM),
    FUNC_V(1713, "length", length_in_encoding, STABLE, I4, 2, BY, NM),
    FUNC_V(1264, "pg_char_to_encoding", pg_char_to_encoding, STABLE, I4, 1, NM),
    FUNC_V(1597, "pg_encoding_to_char", pg_encoding_to_char, STABLE, NM, 1, I4),
    FUNC(2319, "pg_encoding_max_length", pg_encoding_max_length, I4, 1, I4),
    FUNC_V(1039, "getdatabaseencoding", getdatabaseencoding, STABLE, NM, 0,
           InvalidOid),
};

const BuiltinSet tdb_builtins_convert = {
    .name = "convert",
    .funcs = convert_funcs,
    .nfuncs = (int)lengthof(convert_funcs),
};
