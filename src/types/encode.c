/*
 * encode.c -- binary data as text: the hex, base64 and escape codecs
 * behind encode(bytea, format) and decode(text, format), and the hex and
 * escape decoders that bytea's input function shares (encode.h).
 *
 * Design: a codec is a row of `codecs` -- its name, an upper bound of the
 * output size for an input size (for each direction), and the two
 * conversion routines, which write into a buffer of that bound and return
 * the size actually written.  encode()/decode() look the name up
 * (case-insensitively, as PostgreSQL does), allocate the bound, convert,
 * then set the varlena's size to what was written.
 *
 * The formats, as PostgreSQL 15 reads and writes them:
 *   hex     two lowercase digits per byte; decoding accepts either case
 *           and whitespace between digit pairs
 *   base64  RFC 2045's alphabet with '=' padding; encoding breaks lines
 *           after every 76 output characters (also after the last full
 *           line); decoding skips whitespace and, once padding has been
 *           seen, keeps the shorter group length for later groups
 *   escape  NUL, bytes >= 0x80 and backslash escaped on output ("\ooo",
 *           "\\"); on input "\\" and "\ooo" with the first digit 0-3
 */
#include "common/base.h"

#include <string.h>
#include <strings.h>

#include "common/elog.h"
#include "types/encode.h"
#include "types/strutil.h"
#include "types/textfuncs.h"

/* ----------------------------------------------------------------------
 * hex
 * ---------------------------------------------------------------------- */

static const char hex_digits[] = "0123456789abcdef";

Size
tdb_hex_encode(const char *src, Size len, char *dst)
{
    for (Size i = 0; i < len; i++) {
        uint8 b = (uint8)src[i];

        dst[2 * i] = hex_digits[b >> 4];
        dst[2 * i + 1] = hex_digits[b & 0xf];
    }
    return 2 * len;
}

int
tdb_hex_digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The hex digit at src[i] (of len bytes), or 22023 naming the character. */
static int
hex_digit_or_error(const char *src, Size len, Size i)
{
    int v = tdb_hex_digit_value(src[i]);

    if (v < 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid hexadecimal digit: \"%.*s\"",
                       (int)tdb_utf8_char_len_max(src + i, len - i),
                       src + i));
    return v;
}

static bool
is_hex_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

Size
tdb_hex_decode(const char *src, Size len, char *dst)
{
    Size n = 0;

    for (Size i = 0; i < len;) {
        int hi;

        if (is_hex_space(src[i])) {
            i++;
            continue;
        }
        hi = hex_digit_or_error(src, len, i++);
        if (i == len)
            ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("invalid hexadecimal data: odd number of digits"));
        dst[n++] = (char)(hi << 4 | hex_digit_or_error(src, len, i++));
    }
    return n;
}

static Size
hex_encoded_size(const char *src, Size len)
{
    (void)src;
    return 2 * len;
}

static Size
hex_decoded_size(const char *src, Size len)
{
    (void)src;
    return len / 2;
}

/* ----------------------------------------------------------------------
 * base64
 * ---------------------------------------------------------------------- */

static const char base64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

#define BASE64_LINE 76 /* output characters per line */

/* Four characters for the 24-bit group, the last pad ones as '='. */
static void
base64_put_group(uint32 group, int npad, char *dst)
{
    for (int k = 0; k < 4; k++)
        dst[k] = k >= 4 - npad ? '='
                               : base64_alphabet[(group >> (18 - 6 * k)) & 63];
}

static Size
base64_encode(const char *src, Size len, char *dst)
{
    Size n = 0, line = 0, i = 0;

    for (; i + 3 <= len; i += 3) {
        uint32 group = (uint32)(uint8)src[i] << 16 |
                       (uint32)(uint8)src[i + 1] << 8 | (uint8)src[i + 2];

        base64_put_group(group, 0, dst + n);
        n += 4;
        line += 4;
        if (line == BASE64_LINE) {
            dst[n++] = '\n';
            line = 0;
        }
    }
    if (i < len) {
        uint32 group = (uint32)(uint8)src[i] << 16;

        if (i + 1 < len)
            group |= (uint32)(uint8)src[i + 1] << 8;
        base64_put_group(group, i + 1 < len ? 1 : 2, dst + n);
        n += 4;
    }
    return n;
}

static Size
base64_encoded_size(const char *src, Size len)
{
    (void)src;
    return (len + 2) / 3 * 4 + len / (BASE64_LINE / 4 * 3) + 1;
}

/* The 6-bit value of base64 symbol src[i], or 22023. */
static uint32
base64_value_or_error(const char *src, Size len, Size i)
{
    const char *at = src[i] != '\0' ? strchr(base64_alphabet, src[i]) : NULL;

    if (at == NULL)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid symbol \"%.*s\" found while decoding base64 "
                       "sequence",
                       (int)tdb_utf8_char_len_max(src + i, len - i),
                       src + i));
    return (uint32)(at - base64_alphabet);
}

/*
 * Groups of four symbols make three bytes.  A '=' as a group's third or
 * fourth symbol marks the end: from then on every group yields only the
 * bytes before the first padding position (PostgreSQL's reading, which
 * does not reject data after the padding).
 */
static Size
base64_decode(const char *src, Size len, char *dst)
{
    Size n = 0;
    uint32 group = 0;
    int nsymbols = 0;
    int nbytes_per_group = 3;

    for (Size i = 0; i < len; i++) {
        uint32 v = 0;

        if (is_hex_space(src[i]))
            continue;
        if (src[i] == '=') {
            if (nbytes_per_group == 3) {
                if (nsymbols != 2 && nsymbols != 3)
                    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("unexpected \"=\" while decoding base64 "
                                   "sequence"));
                nbytes_per_group = nsymbols - 1;
            }
        } else {
            v = base64_value_or_error(src, len, i);
        }
        group = group << 6 | v;
        if (++nsymbols < 4)
            continue;
        for (int k = 0; k < nbytes_per_group; k++)
            dst[n++] = (char)(group >> (16 - 8 * k));
        group = 0;
        nsymbols = 0;
    }
    if (nsymbols != 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid base64 end sequence"),
                errhint("Input data is missing padding, is truncated, or is "
                        "otherwise corrupted."));
    return n;
}

static Size
base64_decoded_size(const char *src, Size len)
{
    (void)src;
    return len / 4 * 3 + 3;
}

/* ----------------------------------------------------------------------
 * escape
 * ---------------------------------------------------------------------- */

static bool
escape_needs_octal(uint8 b)
{
    return b == 0 || b >= 0x80;
}

static Size
escape_encode(const char *src, Size len, char *dst)
{
    Size n = 0;

    for (Size i = 0; i < len; i++) {
        uint8 b = (uint8)src[i];

        if (escape_needs_octal(b)) {
            dst[n++] = '\\';
            dst[n++] = (char)('0' + (b >> 6));
            dst[n++] = (char)('0' + ((b >> 3) & 7));
            dst[n++] = (char)('0' + (b & 7));
        } else {
            if (b == '\\')
                dst[n++] = '\\';
            dst[n++] = (char)b;
        }
    }
    return n;
}

static Size
escape_encoded_size(const char *src, Size len)
{
    Size n = 0;

    for (Size i = 0; i < len; i++)
        n += escape_needs_octal((uint8)src[i]) ? 4 : src[i] == '\\' ? 2 : 1;
    return n;
}

static bool
is_octal(char c, char max)
{
    return c >= '0' && c <= max;
}

Size
tdb_escape_decode(const char *src, Size len, char *dst)
{
    Size n = 0;

    for (Size i = 0; i < len;) {
        if (src[i] != '\\') {
            dst[n++] = src[i++];
        } else if (i + 3 < len && is_octal(src[i + 1], '3') &&
                   is_octal(src[i + 2], '7') && is_octal(src[i + 3], '7')) {
            dst[n++] = (char)((src[i + 1] - '0') << 6 |
                              (src[i + 2] - '0') << 3 | (src[i + 3] - '0'));
            i += 4;
        } else if (i + 1 < len && src[i + 1] == '\\') {
            dst[n++] = '\\';
            i += 2;
        } else {
            ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                    errmsg("invalid input syntax for type bytea"));
        }
    }
    return n;
}

static Size
escape_decoded_size(const char *src, Size len)
{
    (void)src;
    return len;
}

/* ----------------------------------------------------------------------
 * encode() and decode()
 * ---------------------------------------------------------------------- */

typedef Size (*CodecSize)(const char *src, Size len);
typedef Size (*CodecConvert)(const char *src, Size len, char *dst);

typedef struct Codec {
    const char *name;
    CodecSize encoded_size; /* upper bounds of the output */
    CodecConvert encode;
    CodecSize decoded_size;
    CodecConvert decode;
} Codec;

static const Codec codecs[] = {
    {"hex", hex_encoded_size, tdb_hex_encode, hex_decoded_size,
     tdb_hex_decode},
    {"base64", base64_encoded_size, base64_encode, base64_decoded_size,
     base64_decode},
    {"escape", escape_encoded_size, escape_encode, escape_decoded_size,
     tdb_escape_decode},
};

/* The codec named by text argument 1, or 22023. */
static const Codec *
codec_arg(FunctionCallInfo fcinfo)
{
    char *name = tdb_text_to_cstring(PG_GETARG_VARLENA_P(1));

    for (Size i = 0; i < lengthof(codecs); i++)
        if (strcasecmp(codecs[i].name, name) == 0)
            return &codecs[i];
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
            errmsg("unrecognized encoding: \"%s\"", name));
}

/* Convert varlena argument 0 with one direction of the codec. */
static Datum
convert_arg(FunctionCallInfo fcinfo, CodecSize size, CodecConvert convert)
{
    const varlena *in = PG_GETARG_VARLENA_P(0);
    const char *src = VARDATA_ANY(in);
    Size len = VARSIZE_ANY_EXHDR(in);
    varlena *out = tdb_text_new(size(src, len));

    SET_VARSIZE(out, VARHDRSZ + convert(src, len, VARDATA(out)));
    PG_RETURN_POINTER(out);
}

Datum
tdb_binary_encode(PG_FUNCTION_ARGS)
{
    const Codec *c = codec_arg(fcinfo);

    return convert_arg(fcinfo, c->encoded_size, c->encode);
}

Datum
tdb_binary_decode(PG_FUNCTION_ARGS)
{
    const Codec *c = codec_arg(fcinfo);

    return convert_arg(fcinfo, c->decoded_size, c->decode);
}
