/*
 * encoding.c -- PostgreSQL's encodings by number and name, their
 * checks, and which pairs PostgreSQL converts between (encoding.h).
 *
 * Three tables, all facts about PostgreSQL 15 (pg_encoding_to_char,
 * pg_char_to_encoding, pg_encoding_max_length, pg_conversion):
 *
 *   encodings[]   number -> canonical name, longest character
 *   aliases[]     every name PostgreSQL accepts, already reduced to its
 *                 lower-case letters and digits, -> number
 *   pairs[]       the conversions PostgreSQL has between two encodings
 *                 other than UTF8, either way (every encoding but
 *                 MULE_INTERNAL also converts to and from UTF8)
 *
 * Checking: a single-byte encoding (SQL_ASCII included) accepts every
 * byte but NUL; UTF8 is utf8.h's; the other multibyte encodings (the
 * EUC family, SJIS, BIG5, GBK, UHC, GB18030, JOHAB, MULE_INTERNAL) are
 * not checked yet and raise 0A000.
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>

#include "common/elog.h"
#include "common/encoding.h"
#include "common/utf8.h"

typedef struct EncodingDef {
    const char *name;
    int max_length;
} EncodingDef;

static const EncodingDef encodings[TDB_ENC_COUNT] = {
    {"SQL_ASCII", 1},  {"EUC_JP", 3},        {"EUC_CN", 3},
    {"EUC_KR", 3},     {"EUC_TW", 4},        {"EUC_JIS_2004", 3},
    {"UTF8", 4},       {"MULE_INTERNAL", 4}, {"LATIN1", 1},
    {"LATIN2", 1},     {"LATIN3", 1},        {"LATIN4", 1},
    {"LATIN5", 1},     {"LATIN6", 1},        {"LATIN7", 1},
    {"LATIN8", 1},     {"LATIN9", 1},        {"LATIN10", 1},
    {"WIN1256", 1},    {"WIN1258", 1},       {"WIN866", 1},
    {"WIN874", 1},     {"KOI8R", 1},         {"WIN1251", 1},
    {"WIN1252", 1},    {"ISO_8859_5", 1},    {"ISO_8859_6", 1},
    {"ISO_8859_7", 1}, {"ISO_8859_8", 1},    {"WIN1250", 1},
    {"WIN1253", 1},    {"WIN1254", 1},       {"WIN1255", 1},
    {"WIN1257", 1},    {"KOI8U", 1},         {"SJIS", 2},
    {"BIG5", 2},       {"GBK", 2},           {"UHC", 2},
    {"GB18030", 4},    {"JOHAB", 3},         {"SHIFT_JIS_2004", 2},
};

/* the numbers used in the tables below */
enum {
    SQL_ASCII = 0,
    EUC_JP,
    EUC_CN,
    EUC_KR,
    EUC_TW,
    EUC_JIS_2004,
    UTF8,
    MULE,
    LATIN1,
    LATIN2,
    LATIN3,
    LATIN4,
    LATIN5,
    LATIN6,
    LATIN7,
    LATIN8,
    LATIN9,
    LATIN10,
    WIN1256,
    WIN1258,
    WIN866,
    WIN874,
    KOI8R,
    WIN1251,
    WIN1252,
    ISO_8859_5,
    ISO_8859_6,
    ISO_8859_7,
    ISO_8859_8,
    WIN1250,
    WIN1253,
    WIN1254,
    WIN1255,
    WIN1257,
    KOI8U,
    SJIS,
    BIG5,
    GBK,
    UHC,
    GB18030,
    JOHAB,
    SHIFT_JIS_2004
};
_Static_assert(UTF8 == TDB_ENC_UTF8 && LATIN1 == TDB_ENC_LATIN1 &&
                   MULE == TDB_ENC_MULE_INTERNAL &&
                   SHIFT_JIS_2004 + 1 == TDB_ENC_COUNT,
               "encoding numbers are PostgreSQL's");

typedef struct EncodingAlias {
    const char *name; /* lower-case letters and digits only */
    int enc;
} EncodingAlias;

static const EncodingAlias aliases[] = {
    {"abc", WIN1258},
    {"alt", WIN866},
    {"big5", BIG5},
    {"euccn", EUC_CN},
    {"eucjis2004", EUC_JIS_2004},
    {"eucjp", EUC_JP},
    {"euckr", EUC_KR},
    {"euctw", EUC_TW},
    {"gb18030", GB18030},
    {"gbk", GBK},
    {"iso88591", LATIN1},
    {"iso885910", LATIN6},
    {"iso885913", LATIN7},
    {"iso885914", LATIN8},
    {"iso885915", LATIN9},
    {"iso885916", LATIN10},
    {"iso88592", LATIN2},
    {"iso88593", LATIN3},
    {"iso88594", LATIN4},
    {"iso88595", ISO_8859_5},
    {"iso88596", ISO_8859_6},
    {"iso88597", ISO_8859_7},
    {"iso88598", ISO_8859_8},
    {"iso88599", LATIN5},
    {"johab", JOHAB},
    {"koi8", KOI8R},
    {"koi8r", KOI8R},
    {"koi8u", KOI8U},
    {"latin1", LATIN1},
    {"latin10", LATIN10},
    {"latin2", LATIN2},
    {"latin3", LATIN3},
    {"latin4", LATIN4},
    {"latin5", LATIN5},
    {"latin6", LATIN6},
    {"latin7", LATIN7},
    {"latin8", LATIN8},
    {"latin9", LATIN9},
    {"mskanji", SJIS},
    {"muleinternal", MULE},
    {"shiftjis", SJIS},
    {"shiftjis2004", SHIFT_JIS_2004},
    {"sjis", SJIS},
    {"sqlascii", SQL_ASCII},
    {"tcvn", WIN1258},
    {"tcvn5712", WIN1258},
    {"uhc", UHC},
    {"unicode", UTF8},
    {"utf8", UTF8},
    {"vscii", WIN1258},
    {"win", WIN1251},
    {"win1250", WIN1250},
    {"win1251", WIN1251},
    {"win1252", WIN1252},
    {"win1253", WIN1253},
    {"win1254", WIN1254},
    {"win1255", WIN1255},
    {"win1256", WIN1256},
    {"win1257", WIN1257},
    {"win1258", WIN1258},
    {"win866", WIN866},
    {"win874", WIN874},
    {"win932", SJIS},
    {"win936", GBK},
    {"win949", UHC},
    {"win950", BIG5},
    {"windows1250", WIN1250},
    {"windows1251", WIN1251},
    {"windows1252", WIN1252},
    {"windows1253", WIN1253},
    {"windows1254", WIN1254},
    {"windows1255", WIN1255},
    {"windows1256", WIN1256},
    {"windows1257", WIN1257},
    {"windows1258", WIN1258},
    {"windows866", WIN866},
    {"windows874", WIN874},
    {"windows932", SJIS},
    {"windows936", GBK},
    {"windows949", UHC},
    {"windows950", BIG5},
};

/* PostgreSQL's conversions between two encodings other than UTF8; each
 * pair converts both ways. */
static const unsigned char pairs[][2] = {
    {MULE, KOI8R},
    {MULE, ISO_8859_5},
    {MULE, WIN1251},
    {MULE, WIN866},
    {MULE, EUC_CN},
    {MULE, EUC_JP},
    {MULE, SJIS},
    {MULE, EUC_KR},
    {MULE, EUC_TW},
    {MULE, BIG5},
    {MULE, LATIN1},
    {MULE, LATIN2},
    {MULE, LATIN3},
    {MULE, LATIN4},
    {MULE, WIN1250},
    {KOI8R, WIN1251},
    {KOI8R, WIN866},
    {KOI8R, ISO_8859_5},
    {WIN866, WIN1251},
    {WIN866, ISO_8859_5},
    {WIN1251, ISO_8859_5},
    {EUC_JP, SJIS},
    {EUC_TW, BIG5},
    {LATIN2, WIN1250},
    {EUC_JIS_2004, SHIFT_JIS_2004},
};

/* PostgreSQL's NAMEDATALEN: a longer name is no encoding's. */
#define MAX_NAME 64

int
tdb_encoding_from_name(const char *name)
{
    char clean[MAX_NAME];
    Size n = 0;

    if (strlen(name) >= MAX_NAME)
        return -1;
    for (const char *p = name; *p != '\0'; p++) {
        char c = *p;

        if (c >= 'A' && c <= 'Z')
            clean[n++] = (char)(c - 'A' + 'a');
        else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            clean[n++] = c;
    }
    clean[n] = '\0';
    for (Size i = 0; i < lengthof(aliases); i++)
        if (strcmp(clean, aliases[i].name) == 0)
            return aliases[i].enc;
    return -1;
}

const char *
tdb_encoding_name(int enc)
{
    return enc >= 0 && enc < TDB_ENC_COUNT ? encodings[enc].name : NULL;
}

int
tdb_encoding_max_length(int enc)
{
    return enc >= 0 && enc < TDB_ENC_COUNT ? encodings[enc].max_length : 0;
}

bool
tdb_encoding_has_conversion(int src, int dst)
{
    Assert(src != dst && src != SQL_ASCII && dst != SQL_ASCII);
    if (src == UTF8 || dst == UTF8)
        return src != MULE && dst != MULE;
    for (Size i = 0; i < lengthof(pairs); i++)
        if ((pairs[i][0] == src && pairs[i][1] == dst) ||
            (pairs[i][0] == dst && pairs[i][1] == src))
            return true;
    return false;
}

void
tdb_encoding_char_hex(int enc, const char *s, Size len, char *buf)
{
    const unsigned char *p = (const unsigned char *)s;
    Size want = 1, n = 0;

    Assert(len >= 1);
    /* UTF-8: 110xxxxx 2, 1110xxxx 3, 11110xxx 4 (pg_utf_mblen) */
    if (enc == UTF8) {
        if ((p[0] & 0xe0) == 0xc0)
            want = 2;
        else if ((p[0] & 0xf0) == 0xe0)
            want = 3;
        else if ((p[0] & 0xf8) == 0xf0)
            want = 4;
    }
    if (want > len)
        want = len;
    buf[0] = '\0';
    for (Size k = 0; k < want; k++)
        n +=
            (Size)snprintf(buf + n, TDB_ENC_CHAR_HEX_SIZE - n, " 0x%02x", p[k]);
}

Size
tdb_encoding_verify(int enc, const char *s, Size len)
{
    const unsigned char *p = (const unsigned char *)s;

    Assert(enc >= 0 && enc < TDB_ENC_COUNT);
    if (enc == UTF8) {
        Size ok = tdb_utf8_verify(s, len), nchars = 0;

        if (ok != len)
            tdb_utf8_report_invalid(s + ok, len - ok);
        for (Size i = 0; i < len; i++)
            nchars += (p[i] & 0xc0) != 0x80;
        return nchars;
    }
    /*
     * Every encoding is a superset of ASCII, so NUL is the only bad byte
     * of a single-byte one, and a multibyte one's ASCII bytes are
     * characters of their own; the rest of a multibyte one is not
     * checked yet.
     */
    for (Size i = 0; i < len; i++) {
        if (p[i] == 0)
            ereport(ERROR, errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
                    errmsg("invalid byte sequence for encoding \"%s\": 0x00",
                           encodings[enc].name));
        if (p[i] >= 0x80 && encodings[enc].max_length > 1)
            ereport(
                ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("encoding \"%s\" is not supported", encodings[enc].name),
                errdetail("tupledb checks only UTF8 and the single-byte "
                          "encodings so far, and ASCII in the others."));
    }
    return len;
}

void
tdb_encoding_report_unsupported(int src, int dst)
{
    ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
            errmsg("conversion between %s and %s is not supported",
                   encodings[src].name, encodings[dst].name),
            errdetail("tupledb converts only between UTF8, SQL_ASCII and "
                      "LATIN1 so far."));
}

void
tdb_encoding_report_untranslatable(int src, int dst, const char *s, Size len)
{
    char hex[TDB_ENC_CHAR_HEX_SIZE];

    tdb_encoding_char_hex(src, s, len, hex);
    ereport(ERROR, errcode(ERRCODE_UNTRANSLATABLE_CHARACTER),
            errmsg("character with byte sequence%s in encoding \"%s\" has no "
                   "equivalent in encoding \"%s\"",
                   hex, encodings[src].name, encodings[dst].name));
}
