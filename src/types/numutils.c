/*
 * numutils.c -- decimal integer parsing and formatting (numutils.h).
 *
 * Parsing accumulates the magnitude in a uint64 and compares it with
 * the limit of the sign read (max, or -min), so the most negative value
 * of each width parses without a special case.
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/numutils.h"
#include "types/strutil.h"

static TDB_NORETURN void
invalid_syntax(const char *str, const char *typname)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
            errmsg("invalid input syntax for type %s: \"%s\"", typname, str));
    __builtin_unreachable();
}

int64
tdb_parse_int64(const char *str, int64 min, int64 max, const char *typname)
{
    const char *p = str;
    bool negative = false;
    uint64 limit, magnitude = 0;

    while (tdb_c_isspace(*p))
        p++;
    if (*p == '-' || *p == '+')
        negative = *p++ == '-';
    if (*p < '0' || *p > '9')
        invalid_syntax(str, typname);
    limit = negative ? (uint64)0 - (uint64)min : (uint64)max;
    for (; *p >= '0' && *p <= '9'; p++) {
        uint64 digit = (uint64)(*p - '0');

        if (magnitude > (limit - digit) / 10)
            ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("value \"%s\" is out of range for type %s", str,
                           typname));
        magnitude = magnitude * 10 + digit;
    }
    while (tdb_c_isspace(*p))
        p++;
    if (*p != '\0')
        invalid_syntax(str, typname);
    /* two's complement: the negation of the magnitude of min is min */
    return negative ? (int64)((uint64)0 - magnitude) : (int64)magnitude;
}

/*
 * Digits written backwards from the end of a buffer, not snprintf: every
 * integer column of every row sent goes through here, and snprintf's
 * format parsing was ~2% of the server's CPU on a 10-row SELECT.
 */
char *
tdb_int64_to_cstring(int64 v)
{
    char buf[24];
    char *p = buf + sizeof(buf);
    /* the magnitude in unsigned arithmetic: -INT64_MIN needs no case */
    uint64 magnitude = v < 0 ? (uint64)0 - (uint64)v : (uint64)v;
    Size len;
    char *result;

    *--p = '\0';
    do {
        *--p = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude != 0);
    if (v < 0)
        *--p = '-';
    len = (Size)(buf + sizeof(buf) - p);
    result = tdb_palloc(len);
    memcpy(result, p, len);
    return result;
}
