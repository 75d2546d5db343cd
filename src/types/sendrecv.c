/*
 * sendrecv.c -- the binary wire formats of the built-in types
 * (TypeSupport.send / .recv, PostgreSQL's typsend / typreceive), used by
 * the server for Bind parameters and DataRow columns in format 1.
 *
 * Every format is PostgreSQL's, in network byte order:
 *   bool                 1 byte, 0 or 1
 *   int2 / int4 / int8   two's complement, 2 / 4 / 8 bytes
 *   oid                  unsigned, 4 bytes
 *   float4 / float8      the IEEE 754 bits as a 4 / 8 byte integer
 *   text, varchar,       the characters, no terminator, no length (the
 *   bpchar, name         message carries it); recv runs the text through
 *                        the type's input function (name truncates)
 *   bytea                the bytes
 *   uuid                 the 16 bytes
 *   numeric              int16 ndigits, int16 weight, int16 sign (0x0000,
 *                        0x4000 negative, 0xC000 NaN, 0xD000 +Inf,
 *                        0xF000 -Inf), int16 dscale, then ndigits int16
 *                        base-10000 digits, most significant first
 *   date                 int32 days since 2000-01-01
 *   time                 int64 microseconds since midnight
 *   timestamp[tz]        int64 microseconds since 2000-01-01 00:00 (UTC
 *                        for timestamptz)
 *   interval             int64 microseconds, int32 days, int32 months
 * A recv given too few bytes raises 08P01 "insufficient data left in
 * message" (PostgreSQL's recv functions read past the end of the
 * parameter's buffer); too many bytes, or a value its type cannot hold,
 * raise 22P03 (invalid_binary_representation).  For the fixed-length
 * types the Bind caller (tcop/prepare.c) checks for too many bytes first,
 * with PostgreSQL's message naming the parameter.
 *
 * The functions are listed in each family's TypeSupport row (bool.c,
 * int.c, ...); they live together here because they share the byte
 * order helpers and have one concern, the wire.
 */
#include "common/base.h"

#include <stdint.h>
#include <string.h>

#include "common/elog.h"
#include "common/utf8.h"
#include "tuple/varlena.h"
#include "types/datetime.h"
#include "types/numeric.h"
#include "types/sendrecv.h"
#include "types/textfuncs.h"

/* ----------------------------------------------------------------------
 * Byte order
 * ---------------------------------------------------------------------- */

static void
put_u16(char *p, uint16 v)
{
    p[0] = (char)(v >> 8);
    p[1] = (char)v;
}

static void
put_u32(char *p, uint32 v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (char)(v >> (24 - 8 * i));
}

static void
put_u64(char *p, uint64 v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (char)(v >> (56 - 8 * i));
}

static uint16
get_u16(const char *p)
{
    return (uint16)(((uint16)(uint8)p[0] << 8) | (uint8)p[1]);
}

static uint32
get_u32(const char *p)
{
    uint32 v = 0;

    for (int i = 0; i < 4; i++)
        v = (v << 8) | (uint8)p[i];
    return v;
}

static uint64
get_u64(const char *p)
{
    uint64 v = 0;

    for (int i = 0; i < 8; i++)
        v = (v << 8) | (uint8)p[i];
    return v;
}

TDB_NORETURN static void
bad_binary(const char *what)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
            errmsg("incorrect binary data format for type %s", what));
}

/* PostgreSQL's pq_getmsgbytes past the end of the buffer. */
TDB_NORETURN static void
short_binary(void)
{
    ereport(ERROR, errcode(ERRCODE_PROTOCOL_VIOLATION),
            errmsg("insufficient data left in message"));
}

static void
expect_len(int len, int want, const char *what)
{
    if (len < want)
        short_binary();
    if (len > want)
        bad_binary(what);
}

static char *
fixed_send(int n, int *len)
{
    *len = n;
    return tdb_palloc((Size)n);
}

/* ----------------------------------------------------------------------
 * bool, integers, oid, floats
 * ---------------------------------------------------------------------- */

char *
tdb_bool_send(Datum value, int *len)
{
    char *buf = fixed_send(1, len);

    buf[0] = DatumGetBool(value) ? 1 : 0;
    return buf;
}

Datum
tdb_bool_recv(const char *buf, int len)
{
    expect_len(len, 1, "boolean");
    return BoolGetDatum(buf[0] != 0);
}

/* "char": its one byte (PostgreSQL's charsend / charrecv) */
char *
tdb_char_send(Datum value, int *len)
{
    char *buf = fixed_send(1, len);

    buf[0] = DatumGetChar(value);
    return buf;
}

Datum
tdb_char_recv(const char *buf, int len)
{
    expect_len(len, 1, "\"char\"");
    return CharGetDatum(buf[0]);
}

char *
tdb_int2_send(Datum value, int *len)
{
    char *buf = fixed_send(2, len);

    put_u16(buf, (uint16)DatumGetInt16(value));
    return buf;
}

Datum
tdb_int2_recv(const char *buf, int len)
{
    expect_len(len, 2, "smallint");
    return Int16GetDatum((int16)get_u16(buf));
}

char *
tdb_int4_send(Datum value, int *len)
{
    char *buf = fixed_send(4, len);

    put_u32(buf, (uint32)DatumGetInt32(value));
    return buf;
}

Datum
tdb_int4_recv(const char *buf, int len)
{
    expect_len(len, 4, "integer");
    return Int32GetDatum((int32)get_u32(buf));
}

char *
tdb_int8_send(Datum value, int *len)
{
    char *buf = fixed_send(8, len);

    put_u64(buf, (uint64)DatumGetInt64(value));
    return buf;
}

Datum
tdb_int8_recv(const char *buf, int len)
{
    expect_len(len, 8, "bigint");
    return Int64GetDatum((int64)get_u64(buf));
}

char *
tdb_oid_send(Datum value, int *len)
{
    char *buf = fixed_send(4, len);

    put_u32(buf, DatumGetObjectId(value));
    return buf;
}

Datum
tdb_oid_recv(const char *buf, int len)
{
    expect_len(len, 4, "oid");
    return ObjectIdGetDatum(get_u32(buf));
}

char *
tdb_float4_send(Datum value, int *len)
{
    char *buf = fixed_send(4, len);
    float f = DatumGetFloat4(value);
    uint32 bits;

    memcpy(&bits, &f, sizeof(bits));
    put_u32(buf, bits);
    return buf;
}

Datum
tdb_float4_recv(const char *buf, int len)
{
    uint32 bits;
    float f;

    expect_len(len, 4, "real");
    bits = get_u32(buf);
    memcpy(&f, &bits, sizeof(f));
    return Float4GetDatum(f);
}

char *
tdb_float8_send(Datum value, int *len)
{
    char *buf = fixed_send(8, len);
    double f = DatumGetFloat8(value);
    uint64 bits;

    memcpy(&bits, &f, sizeof(bits));
    put_u64(buf, bits);
    return buf;
}

Datum
tdb_float8_recv(const char *buf, int len)
{
    uint64 bits;
    double f;

    expect_len(len, 8, "double precision");
    bits = get_u64(buf);
    memcpy(&f, &bits, sizeof(f));
    return Float8GetDatum(f);
}

/* ----------------------------------------------------------------------
 * Character types: the bytes are the text
 * ---------------------------------------------------------------------- */

/* Value to bytes through the output function (bpchar keeps its pad). */
static char *
string_send(Oid typid, Datum value, int *len)
{
    char *s = tdb_type_output(typid, value);

    *len = (int)strlen(s);
    return s;
}

static Datum
string_recv(Oid typid, const char *buf, int len)
{
    char *s;

    /* the bytes become text: checked as PostgreSQL's textrecv does */
    tdb_utf8_check(buf, (Size)len);
    s = tdb_palloc((Size)len + 1);
    memcpy(s, buf, (Size)len);
    s[len] = '\0';
    return tdb_type_input(typid, s, -1);
}

char *
tdb_text_send(Datum value, int *len)
{
    return string_send(TEXTOID, value, len);
}

Datum
tdb_text_recv(const char *buf, int len)
{
    return string_recv(TEXTOID, buf, len);
}

char *
tdb_varchar_send(Datum value, int *len)
{
    return string_send(VARCHAROID, value, len);
}

Datum
tdb_varchar_recv(const char *buf, int len)
{
    return string_recv(VARCHAROID, buf, len);
}

char *
tdb_bpchar_send(Datum value, int *len)
{
    return string_send(BPCHAROID, value, len);
}

Datum
tdb_bpchar_recv(const char *buf, int len)
{
    return string_recv(BPCHAROID, buf, len);
}

char *
tdb_name_send(Datum value, int *len)
{
    return string_send(NAMEOID, value, len);
}

Datum
tdb_name_recv(const char *buf, int len)
{
    return string_recv(NAMEOID, buf, len);
}

/* ----------------------------------------------------------------------
 * bytea and uuid: the bytes themselves
 * ---------------------------------------------------------------------- */

char *
tdb_bytea_send(Datum value, int *len)
{
    const void *v = DatumGetPointer(value);
    Size n = VARSIZE_ANY_EXHDR(v);
    char *buf = tdb_palloc(Max(n, 1));

    memcpy(buf, VARDATA_ANY(v), n);
    *len = (int)n;
    return buf;
}

Datum
tdb_bytea_recv(const char *buf, int len)
{
    return PointerGetDatum(tdb_text_from_bytes(buf, (Size)len));
}

char *
tdb_uuid_send(Datum value, int *len)
{
    char *buf = fixed_send(16, len);

    memcpy(buf, DatumGetPointer(value), 16);
    return buf;
}

Datum
tdb_uuid_recv(const char *buf, int len)
{
    char *u;

    expect_len(len, 16, "uuid");
    u = tdb_palloc(16);
    memcpy(u, buf, 16);
    return PointerGetDatum(u);
}

/* ----------------------------------------------------------------------
 * numeric
 * ---------------------------------------------------------------------- */

char *
tdb_numeric_send(Datum value, int *len)
{
    NumericVar var;
    char *buf;

    tdb_numeric_to_var(value, &var);
    *len = 8 + 2 * var.ndigits;
    buf = tdb_palloc((Size)*len);
    put_u16(buf, (uint16)var.ndigits);
    put_u16(buf + 2, (uint16)(int16)var.weight);
    put_u16(buf + 4, (uint16)var.sign);
    put_u16(buf + 6, (uint16)var.dscale);
    for (int i = 0; i < var.ndigits; i++)
        put_u16(buf + 8 + 2 * i, (uint16)var.digits[i]);
    return buf;
}

Datum
tdb_numeric_recv(const char *buf, int len)
{
    NumericVar var;
    int ndigits, sign, dscale;

    if (len < 8)
        short_binary();
    ndigits = get_u16(buf);
    if (len < 8 + 2 * ndigits)
        short_binary();
    if (len > 8 + 2 * ndigits)
        bad_binary("numeric");
    sign = get_u16(buf + 4);
    if (sign != NUMERIC_POS && sign != NUMERIC_NEG && sign != NUMERIC_NAN &&
        sign != NUMERIC_PINF && sign != NUMERIC_NINF)
        ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                errmsg("invalid sign in external \"numeric\" value"));
    dscale = get_u16(buf + 6);
    if ((dscale & NUMERIC_DSCALE_MAX) != dscale)
        ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                errmsg("invalid scale in external \"numeric\" value"));
    if ((sign & NUMERIC_SPECIAL) == NUMERIC_SPECIAL)
        return tdb_numeric_from_var(sign == NUMERIC_NAN    ? &tdb_numvar_nan
                                    : sign == NUMERIC_PINF ? &tdb_numvar_pinf
                                                           : &tdb_numvar_ninf);
    numvar_init(&var);
    tdb_numvar_alloc(&var, ndigits);
    var.weight = (int16)get_u16(buf + 2);
    var.sign = sign;
    var.dscale = dscale;
    for (int i = 0; i < ndigits; i++) {
        int d = (int16)get_u16(buf + 8 + 2 * i);

        if (d < 0 || d >= NBASE)
            ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                    errmsg("invalid digit in external \"numeric\" value"));
        var.digits[i] = (NumericDigit)d;
    }
    /* as PostgreSQL: digits past the display scale are dropped */
    tdb_numvar_trunc(&var, dscale);
    return tdb_numeric_from_var_free(&var);
}

/* ----------------------------------------------------------------------
 * Date and time
 * ---------------------------------------------------------------------- */

char *
tdb_date_send(Datum value, int *len)
{
    return tdb_int4_send(value, len);
}

Datum
tdb_date_recv(const char *buf, int len)
{
    int32 days;

    expect_len(len, 4, "date");
    days = (int32)get_u32(buf);
    /* the infinities are INT32_MIN / INT32_MAX, as in PostgreSQL */
    if (days != INT32_MIN && days != INT32_MAX &&
        (days < DATE_MIN_DAYS || days >= DATE_END_DAYS))
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("date out of range"));
    return Int32GetDatum(days);
}

char *
tdb_time_send(Datum value, int *len)
{
    return tdb_int8_send(value, len);
}

Datum
tdb_time_recv(const char *buf, int len)
{
    int64 t;

    expect_len(len, 8, "time without time zone");
    t = (int64)get_u64(buf);
    if (t < 0 || t > USECS_PER_DAY)
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("time out of range"));
    return Int64GetDatum(t);
}

char *
tdb_timestamp_send(Datum value, int *len)
{
    return tdb_int8_send(value, len);
}

Datum
tdb_timestamp_recv(const char *buf, int len)
{
    expect_len(len, 8, "timestamp");
    return Int64GetDatum((int64)get_u64(buf));
}

char *
tdb_interval_send(Datum value, int *len)
{
    const Interval *span = DatumGetPointer(value);
    char *buf = fixed_send(16, len);

    put_u64(buf, (uint64)span->time);
    put_u32(buf + 8, (uint32)span->day);
    put_u32(buf + 12, (uint32)span->month);
    return buf;
}

Datum
tdb_interval_recv(const char *buf, int len)
{
    Interval *span = tdb_palloc(sizeof(Interval));

    expect_len(len, 16, "interval");
    span->time = (int64)get_u64(buf);
    span->day = (int32)get_u32(buf + 8);
    span->month = (int32)get_u32(buf + 12);
    return PointerGetDatum(span);
}
