/*
 * strfuncs.c -- the SQL string functions over text: length,
 * octet_length, lower, upper, initcap, substr/substring, position/strpos,
 * replace, repeat, chr, reverse, left, right, lpad, rpad,
 * btrim/ltrim/rtrim, split_part, starts_with, md5.
 *
 * Positions and lengths count UTF-8 characters, as in a PostgreSQL
 * database with encoding UTF8; case mapping is the C locale's (ASCII
 * letters only).  Arguments may have short varlena headers; results are
 * new texts in the current memory context (or an argument returned
 * unchanged where PostgreSQL does that too).  Errors and their messages
 * are PostgreSQL's: 22011 for a negative substring length, 22023 for
 * split_part's field 0, 54000 "requested length too large" (and chr's
 * for what is not a character).
 */
#include "common/base.h"

#include <string.h>

#include "common/elog.h"
#include "common/utf8.h"
#include "types/md5.h"
#include "types/strutil.h"
#include "types/textbuf.h"
#include "types/textfuncs.h"

/* The data and byte length of text argument n. */
#define ARG_DATA(n) VARDATA_ANY(PG_GETARG_VARLENA_P(n))
#define ARG_LEN(n) VARSIZE_ANY_EXHDR(PG_GETARG_VARLENA_P(n))

static TDB_NORETURN void
length_too_large(void)
{
    ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
            errmsg("requested length too large"));
    __builtin_unreachable();
}

/* Raise unless a result of nbytes bytes can be a text value. */
static void
check_result_length(int64 nbytes)
{
    if (nbytes < 0 || nbytes > (int64)(MaxAllocSize - VARHDRSZ))
        length_too_large();
}

static Datum
return_bytes(const char *data, Size len)
{
    PG_RETURN_POINTER(tdb_text_from_bytes(data, len));
}

/* ----------------------------------------------------------------------
 * Lengths and case
 * ---------------------------------------------------------------------- */

Datum
tdb_textlen(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)tdb_utf8_strlen(ARG_DATA(0), ARG_LEN(0)));
}

Datum
tdb_textoctetlen(PG_FUNCTION_ARGS)
{
    /* toast-aware: the stored size is known without detoasting */
    PG_RETURN_INT32((int32)tdb_fmgr_arg_raw_len(fcinfo, 0));
}

/* A copy of text argument 0 with map applied to every byte. */
static Datum
map_bytes(FunctionCallInfo fcinfo, char (*map)(char))
{
    const char *s = ARG_DATA(0);
    Size len = ARG_LEN(0);
    text *result = tdb_text_from_bytes(s, len);
    char *r = VARDATA(result);

    for (Size i = 0; i < len; i++)
        r[i] = map(r[i]);
    PG_RETURN_POINTER(result);
}

Datum
tdb_lower(PG_FUNCTION_ARGS)
{
    return map_bytes(fcinfo, tdb_c_tolower);
}

Datum
tdb_upper(PG_FUNCTION_ARGS)
{
    return map_bytes(fcinfo, tdb_c_toupper);
}

/* First letter of each word upper case, the rest lower case; a word is
 * a run of ASCII letters and digits. */
Datum
tdb_initcap(PG_FUNCTION_ARGS)
{
    text *result = tdb_text_from_bytes(ARG_DATA(0), ARG_LEN(0));
    char *r = VARDATA(result);
    bool in_word = false;

    for (Size i = 0; i < ARG_LEN(0); i++) {
        r[i] = in_word ? tdb_c_tolower(r[i]) : tdb_c_toupper(r[i]);
        in_word = tdb_c_isalnum(r[i]);
    }
    PG_RETURN_POINTER(result);
}

/* ----------------------------------------------------------------------
 * Substrings
 * ---------------------------------------------------------------------- */

/*
 * Characters [start, start + count) of s (1-based; count < 0: to the
 * end), clipped to the string, as a new text.
 */
static Datum
char_range(const char *s, Size len, int64 start, int64 count)
{
    int64 end = count < 0 ? INT64_MAX : start + count;
    Size from, to;

    if (start < 1)
        start = 1;
    if (end <= start)
        return return_bytes(s, 0);
    from = tdb_utf8_char_offset(s, len, (Size)(start - 1));
    to = end == INT64_MAX ? len
                          : from + tdb_utf8_char_offset(s + from, len - from,
                                                        (Size)(end - start));
    return return_bytes(s + from, to - from);
}

/* The most bytes the first nchars characters of UTF-8 text can take. */
#define UTF8_MAX_BYTES_PER_CHAR 4

/*
 * The substring functions are toast-aware: of a toasted string they read
 * only the prefix that can hold the characters asked for (a slice of an
 * uncompressed external value reads only its chunks).
 */
static void
detoast_chars(FunctionCallInfo fcinfo, int64 nchars)
{
    tdb_fmgr_detoast_arg(fcinfo, 0,
                         nchars < 0 ? -1
                                    : nchars * UTF8_MAX_BYTES_PER_CHAR);
}

/* substr(s, start, count): a negative count is an error. */
Datum
tdb_text_substr(PG_FUNCTION_ARGS)
{
    int32 start = PG_GETARG_INT32(1);
    int32 count = PG_GETARG_INT32(2);
    int64 end = (int64)start + count - 1; /* the last character wanted */

    if (count < 0)
        ereport(ERROR, errcode(ERRCODE_SUBSTRING_ERROR),
                errmsg("negative substring length not allowed"));
    detoast_chars(fcinfo, end < 0 ? 0 : end);
    return char_range(ARG_DATA(0), ARG_LEN(0), start, count);
}

Datum
tdb_text_substr_no_len(PG_FUNCTION_ARGS)
{
    detoast_chars(fcinfo, -1);
    return char_range(ARG_DATA(0), ARG_LEN(0), PG_GETARG_INT32(1), -1);
}

/*
 * overlay(s placing with from start [for count]): s's characters before
 * start, with, then s's characters from start + count on (count defaults
 * to with's length in characters; a negative one repeats characters, as
 * in PostgreSQL).
 */
static Datum
overlay_chars(FunctionCallInfo fcinfo, int64 count)
{
    const char *s = ARG_DATA(0);
    Size len = ARG_LEN(0);
    int64 start = PG_GETARG_INT32(2);
    Size head_len, tail_from;
    TextBuf tb;

    if (start < 1)
        ereport(ERROR, errcode(ERRCODE_SUBSTRING_ERROR),
                errmsg("negative substring length not allowed"));
    if (start + count > INT32_MAX || start + count < INT32_MIN)
        ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                errmsg("integer out of range"));
    head_len = tdb_utf8_char_offset(s, len, (Size)(start - 1));
    tail_from = start + count <= 1
                    ? 0
                    : tdb_utf8_char_offset(s, len, (Size)(start + count - 1));
    check_result_length((int64)head_len + (int64)ARG_LEN(1) +
                        (int64)(len - tail_from));
    tdb_textbuf_init(&tb, tdb_current_mcxt,
                     head_len + ARG_LEN(1) + (len - tail_from));
    tdb_textbuf_append(&tb, s, head_len);
    tdb_textbuf_append(&tb, ARG_DATA(1), ARG_LEN(1));
    tdb_textbuf_append(&tb, s + tail_from, len - tail_from);
    PG_RETURN_POINTER(tdb_textbuf_finish(&tb));
}

Datum
tdb_text_overlay(PG_FUNCTION_ARGS)
{
    return overlay_chars(fcinfo, PG_GETARG_INT32(3));
}

Datum
tdb_text_overlay_no_len(PG_FUNCTION_ARGS)
{
    return overlay_chars(fcinfo,
                         (int64)tdb_utf8_strlen(ARG_DATA(1), ARG_LEN(1)));
}

/* left(s, n): the first n characters; n < 0: all but the last -n. */
Datum
tdb_text_left(PG_FUNCTION_ARGS)
{
    int64 n = PG_GETARG_INT32(1);
    const char *s;
    Size len;

    detoast_chars(fcinfo, n < 0 ? -1 : n);
    s = ARG_DATA(0);
    len = ARG_LEN(0);

    if (n < 0)
        n += (int64)tdb_utf8_strlen(s, len);
    return char_range(s, len, 1, n < 0 ? 0 : n);
}

/* right(s, n): the last n characters; n < 0: all but the first -n. */
Datum
tdb_text_right(PG_FUNCTION_ARGS)
{
    const char *s = ARG_DATA(0);
    Size len = ARG_LEN(0);
    int64 n = PG_GETARG_INT32(1);
    int64 nchars = (int64)tdb_utf8_strlen(s, len);
    /* PostgreSQL negates n in int32: right(s, -2147483648) is all of s */
    int64 skip = n < 0 ? (n == INT32_MIN ? 0 : -n) : nchars - n;

    return char_range(s, len, skip + 1, -1);
}

/* ----------------------------------------------------------------------
 * Searching
 * ---------------------------------------------------------------------- */

/* Byte offset of the first occurrence of needle in s at or after from,
 * or -1.  (Valid UTF-8 matches only at character boundaries.) */
static int64
find_bytes(const char *s, Size len, Size from, const char *needle, Size nlen)
{
    const char *hit;

    if (from > len)
        return -1;
    hit = memmem(s + from, len - from, needle, nlen);
    return hit == NULL ? -1 : hit - s;
}

/* position(needle in s), strpos(s, needle): 1-based character position
 * of the first occurrence, 0 if none; an empty needle is at 1. */
Datum
tdb_textpos(PG_FUNCTION_ARGS)
{
    const char *s = ARG_DATA(0);
    int64 at = find_bytes(s, ARG_LEN(0), 0, ARG_DATA(1), ARG_LEN(1));

    PG_RETURN_INT32(at < 0 ? 0 : (int32)tdb_utf8_strlen(s, (Size)at) + 1);
}

Datum
tdb_text_starts_with(PG_FUNCTION_ARGS)
{
    Size plen = ARG_LEN(1);

    PG_RETURN_BOOL(ARG_LEN(0) >= plen &&
                   memcmp(ARG_DATA(0), ARG_DATA(1), plen) == 0);
}

/* replace(s, from, to): every non-overlapping occurrence, left to
 * right; an empty from changes nothing. */
Datum
tdb_replace_text(PG_FUNCTION_ARGS)
{
    const char *s = ARG_DATA(0), *from = ARG_DATA(1);
    Size len = ARG_LEN(0), flen = ARG_LEN(1);
    TextBuf tb;
    Size done = 0;
    int64 at;

    if (flen == 0 || len == 0)
        PG_RETURN_POINTER(PG_GETARG_VARLENA_P(0));
    tdb_textbuf_init(&tb, tdb_current_mcxt, len);
    while ((at = find_bytes(s, len, done, from, flen)) >= 0) {
        tdb_textbuf_append(&tb, s + done, (Size)at - done);
        tdb_textbuf_append_text(&tb, PG_GETARG_VARLENA_P(2));
        done = (Size)at + flen;
    }
    tdb_textbuf_append(&tb, s + done, len - done);
    PG_RETURN_POINTER(tdb_textbuf_finish(&tb));
}

/*
 * split_part(s, delimiter, n): field n (1-based; n < 0 counts from the
 * end) of s split at the delimiter's non-overlapping occurrences; ''
 * when there is no such field.  An empty delimiter makes s one field.
 */
Datum
tdb_split_part(PG_FUNCTION_ARGS)
{
    const char *s = ARG_DATA(0), *sep = ARG_DATA(1);
    Size len = ARG_LEN(0), seplen = ARG_LEN(1);
    int64 field = PG_GETARG_INT32(2);
    int64 nfields = 1, at;
    Size start = 0;

    if (field == 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("field position must not be zero"));
    if (len == 0)
        return return_bytes(s, 0);
    if (seplen > 0)
        for (at = find_bytes(s, len, 0, sep, seplen); at >= 0;
             at = find_bytes(s, len, (Size)at + seplen, sep, seplen))
            nfields++;
    if (field < 0)
        field += nfields + 1;
    if (field < 1 || field > nfields)
        return return_bytes(s, 0);
    /* skip field - 1 separators */
    for (int64 i = 1; i < field; i++)
        start = (Size)find_bytes(s, len, start, sep, seplen) + seplen;
    at = field == nfields ? (int64)len : find_bytes(s, len, start, sep, seplen);
    return return_bytes(s + start, (Size)at - start);
}

/* ----------------------------------------------------------------------
 * Building
 * ---------------------------------------------------------------------- */

/* repeat(s, n): s n times; n <= 0 gives ''. */
Datum
tdb_repeat(PG_FUNCTION_ARGS)
{
    const char *s = ARG_DATA(0);
    Size len = ARG_LEN(0);
    int64 count = PG_GETARG_INT32(1);
    text *result;

    if (count < 0)
        count = 0;
    check_result_length(count * (int64)len);
    result = tdb_text_new((Size)count * len);
    for (int64 i = 0; i < count; i++)
        memcpy(VARDATA(result) + i * (int64)len, s, len);
    PG_RETURN_POINTER(result);
}

/*
 * chr(n): the character whose code point is n, in UTF-8.  What would not
 * be valid UTF-8 text is refused with PostgreSQL's errors: 22023 for a
 * negative n, 54000 for 0 (NUL), a surrogate (U+D800..U+DFFF) or a code
 * point past U+10FFFF.
 */
Datum
tdb_chr(PG_FUNCTION_ARGS)
{
    int32 arg = PG_GETARG_INT32(0);
    uint32 cp;
    unsigned char buf[UTF8_MAX_CHAR_LEN];
    int n;

    if (arg < 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("character number must be positive"));
    if (arg == 0)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("null character not permitted"));
    cp = (uint32)arg;
    if (cp > 0x10ffff)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("requested character too large for encoding: %u", cp));
    if (cp < 0x80) {
        buf[0] = (unsigned char)cp;
        n = 1;
    } else if (cp < 0x800) {
        buf[0] = (unsigned char)(0xc0 | (cp >> 6));
        buf[1] = (unsigned char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        buf[0] = (unsigned char)(0xe0 | (cp >> 12));
        buf[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        buf[2] = (unsigned char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        buf[0] = (unsigned char)(0xf0 | (cp >> 18));
        buf[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
        buf[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        buf[3] = (unsigned char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    /* the surrogates encode to the 0xED 0xA0..0xBF sequences it refuses */
    if (tdb_utf8_verify_char(buf, (Size)n) != n)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("requested character not valid for encoding: %u", cp));
    PG_RETURN_POINTER(tdb_text_from_bytes((const char *)buf, (Size)n));
}

/* reverse(s): the characters in reverse order. */
Datum
tdb_text_reverse(PG_FUNCTION_ARGS)
{
    const char *s = ARG_DATA(0);
    Size len = ARG_LEN(0);
    text *result = tdb_text_from_bytes(s, len);
    char *end = VARDATA(result) + len;

    for (Size i = 0; i < len;) {
        Size n = tdb_utf8_char_len_max(s + i, len - i);

        end -= n;
        memcpy(end, s + i, n);
        i += n;
    }
    PG_RETURN_POINTER(result);
}

/*
 * lpad/rpad(s, n, fill): s cut or filled (with fill repeated) to n
 * characters, the fill on the left (lpad) or right.  An empty fill only
 * cuts; n < 0 is 0.
 */
static Datum
pad(FunctionCallInfo fcinfo, bool left, const char *fill, Size fill_len)
{
    const char *s = ARG_DATA(0);
    Size len = ARG_LEN(0);
    int64 n = PG_GETARG_INT32(1);
    int64 nchars = (int64)tdb_utf8_strlen(s, len);
    Size keep, fill_chars, fill_bytes = 0;
    TextBuf tb;

    if (n < 0)
        n = 0;
    if (nchars > n)
        nchars = n;
    if (fill_len == 0)
        n = nchars;
    /* the worst case, as PostgreSQL checks it before padding */
    check_result_length(n * UTF8_MAX_CHAR_LEN);
    keep = tdb_utf8_char_offset(s, len, (Size)nchars);
    fill_chars = (Size)(n - nchars);
    tdb_textbuf_init(&tb, tdb_current_mcxt, keep + fill_chars);
    if (!left)
        tdb_textbuf_append(&tb, s, keep);
    while (fill_chars > 0) {
        Size c =
            tdb_utf8_char_len_max(fill + fill_bytes, fill_len - fill_bytes);

        tdb_textbuf_append(&tb, fill + fill_bytes, c);
        fill_bytes += c;
        if (fill_bytes == fill_len)
            fill_bytes = 0;
        fill_chars--;
    }
    if (left)
        tdb_textbuf_append(&tb, s, keep);
    PG_RETURN_POINTER(tdb_textbuf_finish(&tb));
}

Datum
tdb_lpad(PG_FUNCTION_ARGS)
{
    return pad(fcinfo, true, ARG_DATA(2), ARG_LEN(2));
}

Datum
tdb_rpad(PG_FUNCTION_ARGS)
{
    return pad(fcinfo, false, ARG_DATA(2), ARG_LEN(2));
}

Datum
tdb_lpad_space(PG_FUNCTION_ARGS)
{
    return pad(fcinfo, true, " ", 1);
}

Datum
tdb_rpad_space(PG_FUNCTION_ARGS)
{
    return pad(fcinfo, false, " ", 1);
}

/* ----------------------------------------------------------------------
 * Trimming
 * ---------------------------------------------------------------------- */

/* Is the character c[0..clen) one of the characters of set? */
static bool
char_in_set(const char *c, Size clen, const char *set, Size set_len)
{
    for (Size i = 0; i < set_len;) {
        Size n = tdb_utf8_char_len_max(set + i, set_len - i);

        if (n == clen && memcmp(set + i, c, n) == 0)
            return true;
        i += n;
    }
    return false;
}

/* Start of the character that ends at s[end - 1]. */
static Size
char_start_before(const char *s, Size end)
{
    Size i = end - 1;

    while (i > 0 && ((uint8)s[i] & 0xc0) == 0x80)
        i--;
    return i;
}

/*
 * Remove the characters of set from the start (leading) and/or end
 * (trailing) of text argument 0.
 */
static Datum
trim(FunctionCallInfo fcinfo, bool leading, bool trailing, const char *set,
     Size set_len)
{
    const char *s = ARG_DATA(0);
    Size start = 0, end = ARG_LEN(0);

    while (leading && start < end) {
        Size n = tdb_utf8_char_len_max(s + start, end - start);

        if (!char_in_set(s + start, n, set, set_len))
            break;
        start += n;
    }
    while (trailing && end > start) {
        Size c = char_start_before(s, end);

        if (c < start || !char_in_set(s + c, end - c, set, set_len))
            break;
        end = c;
    }
    return return_bytes(s + start, end - start);
}

Datum
tdb_btrim(PG_FUNCTION_ARGS)
{
    return trim(fcinfo, true, true, ARG_DATA(1), ARG_LEN(1));
}

Datum
tdb_ltrim(PG_FUNCTION_ARGS)
{
    return trim(fcinfo, true, false, ARG_DATA(1), ARG_LEN(1));
}

Datum
tdb_rtrim(PG_FUNCTION_ARGS)
{
    return trim(fcinfo, false, true, ARG_DATA(1), ARG_LEN(1));
}

Datum
tdb_btrim1(PG_FUNCTION_ARGS)
{
    return trim(fcinfo, true, true, " ", 1);
}

Datum
tdb_ltrim1(PG_FUNCTION_ARGS)
{
    return trim(fcinfo, true, false, " ", 1);
}

/* rtrim(s) is also the bpchar -> text/varchar cast (drops the padding). */
Datum
tdb_rtrim1(PG_FUNCTION_ARGS)
{
    return trim(fcinfo, false, true, " ", 1);
}

/* ----------------------------------------------------------------------
 * md5
 * ---------------------------------------------------------------------- */

Datum
tdb_md5_text(PG_FUNCTION_ARGS)
{
    char hex[33];

    tdb_md5_hex(ARG_DATA(0), ARG_LEN(0), hex);
    return return_bytes(hex, 32);
}
