/*
 * char.c -- the one-byte type "char" (CHAROID, the catalogs' flag
 * columns): input, output, comparisons (as unsigned bytes), hashing and
 * casts to and from int4 and the string types.
 *
 * Text form (PostgreSQL 15): a byte with the high bit set is written as
 * a backslash and three octal digits ("\200"), and that form is read
 * back; the zero byte is the empty string; any other input takes the
 * first byte of the string.
 */
#include "common/base.h"

#include "common/elog.h"
#include "types/hashfn.h"
#include "types/textfuncs.h"

static bool
is_octal(char c)
{
    return c >= '0' && c <= '7';
}

/* The byte that s[0..len) stands for. */
static char
char_from_bytes(const char *s, Size len)
{
    if (len == 4 && s[0] == '\\' && is_octal(s[1]) && is_octal(s[2]) &&
        is_octal(s[3]))
        return (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) | (s[3] - '0'));
    return len > 0 ? s[0] : '\0';
}

/* The text form of c into buf (at least 5 bytes); returns its length. */
static Size
char_to_bytes(char c, char *buf)
{
    uint8 u = (uint8)c;

    if (u & 0x80) {
        buf[0] = '\\';
        buf[1] = (char)('0' + (u >> 6));
        buf[2] = (char)('0' + ((u >> 3) & 7));
        buf[3] = (char)('0' + (u & 7));
        buf[4] = '\0';
        return 4;
    }
    buf[0] = c;
    buf[1] = '\0';
    return c != '\0' ? 1 : 0;
}

Datum
tdb_char_input(const char *str, int32 typmod)
{
    (void)typmod;
    return CharGetDatum(char_from_bytes(str, strlen(str)));
}

char *
tdb_char_output(Datum value)
{
    char *buf = tdb_palloc(5);

    char_to_bytes(DatumGetChar(value), buf);
    return buf;
}

static int
char_cmp(FunctionCallInfo fcinfo)
{
    return (int)(uint8)PG_GETARG_CHAR(0) - (int)(uint8)PG_GETARG_CHAR(1);
}

TDB_CMP_FUNCS(tdb_char, char_cmp(fcinfo))

Datum
tdb_btcharcmp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(char_cmp(fcinfo));
}

/* the byte, sign-extended, as a 32-bit word (PostgreSQL's hashchar) */
Datum
tdb_hashchar(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(
        (int32)tdb_hash_uint32((uint32)(int32)(int8)PG_GETARG_CHAR(0)));
}

Datum
tdb_char_text(PG_FUNCTION_ARGS)
{
    char buf[5];
    Size len = char_to_bytes(PG_GETARG_CHAR(0), buf);

    PG_RETURN_POINTER(tdb_text_from_bytes(buf, len));
}

/* "char" -> bpchar: the byte itself, even the zero byte */
Datum
tdb_char_bpchar(PG_FUNCTION_ARGS)
{
    char c = PG_GETARG_CHAR(0);

    PG_RETURN_POINTER(tdb_text_from_bytes(&c, 1));
}

Datum
tdb_text_char(PG_FUNCTION_ARGS)
{
    const varlena *t = PG_GETARG_VARLENA_P(0);

    PG_RETURN_CHAR(char_from_bytes(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t)));
}

Datum
tdb_chartoi4(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int8)PG_GETARG_CHAR(0));
}

Datum
tdb_i4tochar(PG_FUNCTION_ARGS)
{
    int32 v = PG_GETARG_INT32(0);

    if (v < INT8_MIN || v > INT8_MAX)
        ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                errmsg("\"char\" out of range"));
    PG_RETURN_CHAR((char)v);
}
