/*
 * bytea.c -- the binary string type bytea: input in PostgreSQL's hex
 * ("\x0a0b") and escape ("a\\b\001") formats, output in either (the
 * bytea_output setting), comparison and hashing, ||, the length
 * functions, substr/substring, position, overlay, the trims, get/set_byte
 * and get/set_bit, md5, encode/decode (encode.c), LIKE (like.c),
 * string_agg, and the I/O conversion casts with the string types.
 *
 * A bytea is a varlena whose data are raw bytes: lengths and positions
 * count bytes, comparison is memcmp then length (so '\x00' < '\x0000'),
 * and hashing hashes the bytes as text's does (hashvarlena).  Arguments
 * may have short headers; results are new values in the current memory
 * context.
 *
 * Output follows the session's bytea_output (types/typeio.h): 'hex'
 * ("\x0a0b", the default) or 'escape' (printable ASCII as itself, a
 * backslash doubled, every other byte as \ooo).
 *
 * Not here: sha224..512; convert_to/convert_from/convert (convert.c).
 *
 * Entry point: tdb_builtins_bytea (registry.c).
 */
#include "common/base.h"

#include <string.h>

#include "common/elog.h"
#include "types/builtin_rows.h"
#include "types/encode.h"
#include "types/hashfn.h"
#include "types/md5.h"
#include "types/textfuncs.h"
#include "types/sendrecv.h"
#include "types/typeio.h"

/* The data and byte length of bytea argument n. */
#define ARG_DATA(n) VARDATA_ANY(PG_GETARG_VARLENA_P(n))
#define ARG_LEN(n) VARSIZE_ANY_EXHDR(PG_GETARG_VARLENA_P(n))

static Datum
return_bytes(const char *data, Size len)
{
    PG_RETURN_POINTER(tdb_text_from_bytes(data, len));
}

/* ----------------------------------------------------------------------
 * Input and output
 * ---------------------------------------------------------------------- */

/* "\x" then hex digit pairs, or else the escape format (encode.h). */
static Datum
bytea_input(const char *str, int32 typmod)
{
    Size len = strlen(str);
    bool is_hex = str[0] == '\\' && str[1] == 'x';
    bytea *result = tdb_text_new(is_hex ? (len - 2) / 2 : len);
    Size n = is_hex ? tdb_hex_decode(str + 2, len - 2, VARDATA(result))
                    : tdb_escape_decode(str, len, VARDATA(result));

    (void)typmod;
    SET_VARSIZE(result, VARHDRSZ + n);
    return PointerGetDatum(result);
}

/* bytea_output = escape (sized exactly, as PostgreSQL allocates it). */
static char *
bytea_output_escape(const unsigned char *data, Size len)
{
    Size outlen = 1;
    char *out;
    char *p;

    for (Size i = 0; i < len; i++)
        outlen += data[i] == '\\'                      ? 2
                  : (data[i] < 0x20 || data[i] > 0x7e) ? 4
                                                       : 1;
    out = tdb_palloc(outlen);
    p = out;
    for (Size i = 0; i < len; i++) {
        unsigned char c = data[i];

        if (c == '\\') {
            *p++ = '\\';
            *p++ = '\\';
        } else if (c < 0x20 || c > 0x7e) {
            *p++ = '\\';
            *p++ = (char)('0' + (c >> 6));
            *p++ = (char)('0' + ((c >> 3) & 07));
            *p++ = (char)('0' + (c & 07));
        } else
            *p++ = (char)c;
    }
    *p = '\0';
    return out;
}

static char *
bytea_output(Datum value)
{
    const varlena *v = DatumGetPointer(value);
    Size len = VARSIZE_ANY_EXHDR(v);
    char *out;

    if (tdb_typeio()->bytea_output == BYTEA_OUTPUT_ESCAPE)
        return bytea_output_escape((const unsigned char *)VARDATA_ANY(v),
                                   len);
    out = tdb_palloc(2 * len + 3);
    out[0] = '\\';
    out[1] = 'x';
    out[2 + tdb_hex_encode(VARDATA_ANY(v), len, out + 2)] = '\0';
    return out;
}

/* ----------------------------------------------------------------------
 * Comparison and hashing
 * ---------------------------------------------------------------------- */

static int
bytea_cmp(FunctionCallInfo fcinfo)
{
    return tdb_bytes_cmp(ARG_DATA(0), ARG_LEN(0), ARG_DATA(1), ARG_LEN(1));
}

TDB_CMP_FUNCS_DECL(tdb_bytea);
TDB_CMP_FUNCS(tdb_bytea, bytea_cmp(fcinfo))

static Datum
byteacmp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(bytea_cmp(fcinfo));
}

/* ----------------------------------------------------------------------
 * Lengths, concatenation, substrings
 * ---------------------------------------------------------------------- */

static Datum
byteaoctetlen(PG_FUNCTION_ARGS)
{
    /* toast-aware: the stored size is known without detoasting */
    PG_RETURN_INT32((int32)tdb_fmgr_arg_raw_len(fcinfo, 0));
}

static Datum
byteabitlen(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)(ARG_LEN(0) * 8));
}

static Datum
bytea_bit_count(PG_FUNCTION_ARGS)
{
    const char *s = ARG_DATA(0);
    int64 n = 0;

    for (Size i = 0; i < ARG_LEN(0); i++)
        n += __builtin_popcount((uint8)s[i]);
    PG_RETURN_INT64(n);
}

/* a || b, also the body of overlay(). */
static bytea *
concat3(const char *a, Size alen, const char *b, Size blen, const char *c,
        Size clen)
{
    bytea *result = tdb_text_new(alen + blen + clen);

    memcpy(VARDATA(result), a, alen);
    memcpy(VARDATA(result) + alen, b, blen);
    memcpy(VARDATA(result) + alen + blen, c, clen);
    return result;
}

static Datum
byteacat(PG_FUNCTION_ARGS)
{
    PG_RETURN_POINTER(
        concat3(ARG_DATA(0), ARG_LEN(0), ARG_DATA(1), ARG_LEN(1), "", 0));
}

/*
 * The byte range [start, start + count) of a value of len bytes (1-based;
 * count < 0: to the end), clipped to it: *from and *to are offsets.
 */
static void
byte_range(Size len, int64 start, int64 count, Size *from, Size *to)
{
    int64 end = count < 0 ? INT64_MAX : start + count;

    if (start < 1)
        start = 1;
    if (end <= start || start > (int64)len) {
        *from = *to = 0;
        return;
    }
    *from = (Size)(start - 1);
    *to = end - 1 > (int64)len ? len : (Size)(end - 1);
}

static TDB_NORETURN void
negative_length(void)
{
    ereport(ERROR, errcode(ERRCODE_SUBSTRING_ERROR),
            errmsg("negative substring length not allowed"));
    __builtin_unreachable();
}

static Datum
substring_of_arg(FunctionCallInfo fcinfo, int64 start, int64 count)
{
    Size from, to;

    /* toast-aware: only the bytes wanted are read of a toasted value */
    byte_range(tdb_fmgr_arg_raw_len(fcinfo, 0), start, count, &from, &to);
    PG_RETURN_POINTER(tdb_fmgr_arg_slice(fcinfo, 0, from, to));
}

static Datum
bytea_substr(PG_FUNCTION_ARGS)
{
    if (PG_GETARG_INT32(2) < 0)
        negative_length();
    return substring_of_arg(fcinfo, PG_GETARG_INT32(1), PG_GETARG_INT32(2));
}

static Datum
bytea_substr_no_len(PG_FUNCTION_ARGS)
{
    return substring_of_arg(fcinfo, PG_GETARG_INT32(1), -1);
}

/*
 * overlay(a placing b from start [for count]): a's bytes before start,
 * b, then a's bytes from start + count on (count defaults to b's
 * length).
 */
static Datum
overlay_bytes(FunctionCallInfo fcinfo, int64 count)
{
    const char *a = ARG_DATA(0);
    int64 start = PG_GETARG_INT32(2);
    Size head_from, head_to, tail_from, tail_to;

    if (start < 1)
        negative_length();
    if (start + count > INT32_MAX || start + count < INT32_MIN)
        ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                errmsg("integer out of range"));
    byte_range(ARG_LEN(0), 1, start - 1, &head_from, &head_to);
    byte_range(ARG_LEN(0), start + count, -1, &tail_from, &tail_to);
    PG_RETURN_POINTER(concat3(a, head_to, ARG_DATA(1), ARG_LEN(1),
                              a + tail_from, tail_to - tail_from));
}

static Datum
bytea_overlay(PG_FUNCTION_ARGS)
{
    return overlay_bytes(fcinfo, PG_GETARG_INT32(3));
}

static Datum
bytea_overlay_no_len(PG_FUNCTION_ARGS)
{
    return overlay_bytes(fcinfo, (int64)ARG_LEN(1));
}

/* position(b in a): 1-based offset of b's first occurrence, 0 if none;
 * an empty b is at 1. */
static Datum
byteapos(PG_FUNCTION_ARGS)
{
    const char *s = ARG_DATA(0);
    const char *hit = memmem(s, ARG_LEN(0), ARG_DATA(1), ARG_LEN(1));

    PG_RETURN_INT32(hit == NULL ? 0 : (int32)(hit - s) + 1);
}

/* Remove the bytes found in argument 1 from the start and/or end. */
static Datum
trim_bytes(FunctionCallInfo fcinfo, bool leading, bool trailing)
{
    const char *s = ARG_DATA(0), *set = ARG_DATA(1);
    Size start = 0, end = ARG_LEN(0), set_len = ARG_LEN(1);

    while (leading && start < end && memchr(set, s[start], set_len) != NULL)
        start++;
    while (trailing && end > start && memchr(set, s[end - 1], set_len) != NULL)
        end--;
    return return_bytes(s + start, end - start);
}

static Datum
byteatrim(PG_FUNCTION_ARGS)
{
    return trim_bytes(fcinfo, true, true);
}

static Datum
bytealtrim(PG_FUNCTION_ARGS)
{
    return trim_bytes(fcinfo, true, false);
}

static Datum
byteartrim(PG_FUNCTION_ARGS)
{
    return trim_bytes(fcinfo, false, true);
}

/* ----------------------------------------------------------------------
 * Bytes and bits
 * ---------------------------------------------------------------------- */

/* Raise 2202E unless 0 <= index < limit. */
static void
check_index(int64 index, int64 limit)
{
    if (index < 0 || index >= limit)
        ereport(ERROR, errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
                errmsg("index %lld out of valid range, 0..%lld",
                       (long long)index, (long long)(limit - 1)));
}

static Datum
byteaGetByte(PG_FUNCTION_ARGS)
{
    int32 n = PG_GETARG_INT32(1);

    check_index(n, (int64)ARG_LEN(0));
    PG_RETURN_INT32((uint8)ARG_DATA(0)[n]);
}

static Datum
byteaGetBit(PG_FUNCTION_ARGS)
{
    int64 n = PG_GETARG_INT64(1);

    check_index(n, (int64)ARG_LEN(0) * 8);
    PG_RETURN_INT32(((uint8)ARG_DATA(0)[n / 8] >> (n % 8)) & 1);
}

/* A copy of bytea argument 0, to modify. */
static bytea *
copy_arg0(FunctionCallInfo fcinfo)
{
    return tdb_text_from_bytes(ARG_DATA(0), ARG_LEN(0));
}

static Datum
byteaSetByte(PG_FUNCTION_ARGS)
{
    int32 n = PG_GETARG_INT32(1);
    bytea *result;

    check_index(n, (int64)ARG_LEN(0));
    result = copy_arg0(fcinfo);
    VARDATA(result)[n] = (char)PG_GETARG_INT32(2);
    PG_RETURN_POINTER(result);
}

static Datum
byteaSetBit(PG_FUNCTION_ARGS)
{
    int64 n = PG_GETARG_INT64(1);
    int32 bit = PG_GETARG_INT32(2);
    bytea *result;
    uint8 mask = (uint8)(1u << (n % 8));

    check_index(n, (int64)ARG_LEN(0) * 8);
    if (bit != 0 && bit != 1)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("new bit must be 0 or 1"));
    result = copy_arg0(fcinfo);
    if (bit)
        VARDATA(result)[n / 8] |= (char)mask;
    else
        VARDATA(result)[n / 8] &= (char)~mask;
    PG_RETURN_POINTER(result);
}

static Datum
md5_bytea(PG_FUNCTION_ARGS)
{
    char hex[33];

    tdb_md5_hex(ARG_DATA(0), ARG_LEN(0), hex);
    return return_bytes(hex, 32);
}

/* ----------------------------------------------------------------------
 * The tables
 * ---------------------------------------------------------------------- */

#define BY BYTEAOID
#define I4 INT4OID
#define I8 INT8OID
#define T TEXTOID

static const FuncDesc bytea_funcs[] = {
    FUNC_TOAST(2010, "length", byteaoctetlen, I4, 1, BY),
    FUNC_TOAST(720, "octet_length", byteaoctetlen, I4, 1, BY),
    FUNC(1810, "bit_length", byteabitlen, I4, 1, BY),
    FUNC(6163, "bit_count", bytea_bit_count, I8, 1, BY),
    FUNC(2011, "byteacat", byteacat, BY, 2, BY, BY),
    FUNC_TOAST(2085, "substr", bytea_substr, BY, 3, BY, I4, I4),
    FUNC_TOAST(2086, "substr", bytea_substr_no_len, BY, 2, BY, I4),
    FUNC_TOAST(2012, "substring", bytea_substr, BY, 3, BY, I4, I4),
    FUNC_TOAST(2013, "substring", bytea_substr_no_len, BY, 2, BY, I4),
    FUNC(749, "overlay", bytea_overlay, BY, 4, BY, BY, I4, I4),
    FUNC(752, "overlay", bytea_overlay_no_len, BY, 3, BY, BY, I4),
    FUNC(2014, "position", byteapos, I4, 2, BY, BY),
    FUNC(2015, "btrim", byteatrim, BY, 2, BY, BY),
    FUNC(6195, "ltrim", bytealtrim, BY, 2, BY, BY),
    FUNC(6196, "rtrim", byteartrim, BY, 2, BY, BY),
    FUNC(721, "get_byte", byteaGetByte, I4, 2, BY, I4),
    FUNC(722, "set_byte", byteaSetByte, BY, 3, BY, I4, I4),
    FUNC(723, "get_bit", byteaGetBit, I4, 2, BY, I8),
    FUNC(724, "set_bit", byteaSetBit, BY, 3, BY, I8, I4),
    FUNC(2321, "md5", md5_bytea, T, 1, BY),
    FUNC(1946, "encode", tdb_binary_encode, T, 2, BY, T),
    FUNC(1947, "decode", tdb_binary_decode, BY, 2, T, T),
    FUNC(2005, "bytealike", tdb_bytealike, BOOLOID, 2, BY, BY),
    FUNC(2006, "byteanlike", tdb_byteanlike, BOOLOID, 2, BY, BY),
    FUNC(2007, "like", tdb_bytealike, BOOLOID, 2, BY, BY),
    FUNC(2008, "notlike", tdb_byteanlike, BOOLOID, 2, BY, BY),
    FUNC(1954, "byteacmp", byteacmp, I4, 2, BY, BY),
    FUNC(1948, "byteaeq", tdb_byteaeq, BOOLOID, 2, BY, BY),
    FUNC(1953, "byteane", tdb_byteane, BOOLOID, 2, BY, BY),
    FUNC(1949, "bytealt", tdb_bytealt, BOOLOID, 2, BY, BY),
    FUNC(1950, "byteale", tdb_byteale, BOOLOID, 2, BY, BY),
    FUNC(1951, "byteagt", tdb_byteagt, BOOLOID, 2, BY, BY),
    FUNC(1952, "byteage", tdb_byteage, BOOLOID, 2, BY, BY),
};

static const OperDesc bytea_opers[] = {
    OPER_EQ(1955, BY, BY, tdb_byteaeq), OPER_NE(1956, BY, BY, tdb_byteane),
    OPER_LT(1957, BY, BY, tdb_bytealt), OPER_LE(1958, BY, BY, tdb_byteale),
    OPER_GT(1959, BY, BY, tdb_byteagt), OPER_GE(1960, BY, BY, tdb_byteage),
    OPER(2016, "~~", BY, BY, BOOLOID, tdb_bytealike, NULL, "!~~"),
    OPER(2017, "!~~", BY, BY, BOOLOID, tdb_byteanlike, NULL, "~~"),
    OPER(2018, "||", BY, BY, BY, byteacat, NULL, NULL),
};

static const CastDesc bytea_casts[] = {
    CASTS_INOUT_TO_STRINGS(BY),
    CASTS_INOUT_FROM_STRINGS(BY),
};

static const AggDesc bytea_aggs[] = {
    /* the text version's state and functions work on any varlena */
    AGG(3545, "string_agg", 2, BY, BY, BY, INTERNALOID,
        tdb_string_agg_transfn, false, tdb_string_agg_finalfn, NULL),
};

static const TypeSupport bytea_types[] = {
    {.typid = BY, .input = bytea_input, .output = bytea_output,
     .cmp = byteacmp, .hash = tdb_hashtext, .eq = tdb_byteaeq,
     .send = tdb_bytea_send, .recv = tdb_bytea_recv},
};

const BuiltinSet tdb_builtins_bytea = BUILTIN_SET(
    "bytea", bytea_funcs, bytea_opers, bytea_casts, bytea_aggs, bytea_types);
