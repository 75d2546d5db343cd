/*
 * numeric.c -- the numeric type: its stored form, text input and output,
 * numeric(p,s) typmods, comparison and hashing, casts to and from the
 * integer types, and the type family's built-in tables (BuiltinSet).
 *
 * The stored form is PostgreSQL's, byte for byte (tupledb stores
 * PostgreSQL's tuple format, and pageinspect output is a test oracle).
 * After the varlena header (4 bytes here; the tuple layer shortens it to
 * 1 byte when the value is stored, as PostgreSQL does) comes a 16-bit
 * header word, little-endian, whose top two bits choose the layout:
 *
 *   10 short: 1 0 s dddddd w wwwwww           then the digits
 *             s: sign (1 = negative); d: dscale, 0..63;
 *             w: weight, 7-bit two's complement, -64..63
 *   00/01 long: s s dddddddddddddd   int16 weight   then the digits
 *             s s: 00 positive, 01 negative; d: dscale, 0..16383
 *   11 special, 2 bytes, no digits: 0xC000 NaN, 0xD000 +Infinity,
 *             0xF000 -Infinity
 *
 * The digits are int16 base-10000 digits, most significant first, with
 * no leading or trailing zero digits (so zero has none, and its weight
 * is stored as 0).  The value is sum(digit[i] * 10000^(weight - i)); the
 * display scale dscale (digits printed after the decimal point) is kept
 * separately, so 1.50 and 1.5 have the same digits and different dscale,
 * compare equal and hash equal.  The short layout is used whenever weight
 * and dscale fit in it.  Examples, as stored in a tuple (1-byte varlena
 * header first):
 *
 *   0         07 | 00 80                   short, no digits
 *   1.50      0f | 00 81 | 01 00 88 13     short, dscale 2, weight 0:
 *                                          digits 1, 5000
 *   -12345    0f | 01 a0 | 01 00 29 09     short, negative, weight 1:
 *                                          digits 1, 2345
 *   1e-100    0f | 64 00 e7 ff | 01 00     long (dscale 100 > 63),
 *                                          weight -25: digit 1
 *   NaN       07 | 00 c0                   special
 *
 * tests/fixtures/pg/pg15_numeric.txt holds the bytes PostgreSQL 15 stored
 * for some 11,000 values; test_numeric.c compares ours with them.
 *
 * Values arriving as arguments may have a 1-byte varlena header and then
 * start at any address, so the header word and digits are read with
 * memcpy, and digits that are not 2-aligned are copied before use.
 * Results are palloc'd in the current memory context with a 4-byte
 * header.
 *
 * Entry points: the TypeSupport row (input, output, cmp, hash, eq,
 * apply_typmod, typmod_out) and the SQL functions listed in the tables at
 * the end; other files of the family use numeric.h.
 */
#include "common/base.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/builtin_rows.h"
#include "types/builtins.h"
#include "types/numeric.h"
#include "types/sendrecv.h"

#define NUMERIC_SIGN_MASK 0xC000
#define NUMERIC_EXT_SIGN_MASK 0xF000
#define NUMERIC_DSCALE_MASK 0x3FFF
#define NUMERIC_SHORT_SIGN_MASK 0x2000
#define NUMERIC_SHORT_DSCALE_MASK 0x1F80
#define NUMERIC_SHORT_DSCALE_SHIFT 7
#define NUMERIC_SHORT_DSCALE_MAX                                            \
    (NUMERIC_SHORT_DSCALE_MASK >> NUMERIC_SHORT_DSCALE_SHIFT)
#define NUMERIC_SHORT_WEIGHT_SIGN_MASK 0x0040
#define NUMERIC_SHORT_WEIGHT_MASK 0x003F
#define NUMERIC_SHORT_WEIGHT_MAX NUMERIC_SHORT_WEIGHT_MASK
#define NUMERIC_SHORT_WEIGHT_MIN (-(NUMERIC_SHORT_WEIGHT_MASK + 1))

/* ----------------------------------------------------------------------
 * The stored form
 * ---------------------------------------------------------------------- */

static bool
header_is_special(uint16 header)
{
    return (header & NUMERIC_SIGN_MASK) == NUMERIC_SPECIAL;
}

void
tdb_numeric_to_var(Datum value, NumericVar *var)
{
    tdb_numeric_to_var_local(value, var, NULL);
}

void
tdb_numeric_to_var_local(Datum value, NumericVar *var,
                         NumericDigit local[NUMERIC_LOCAL_DIGITS])
{
    const char *data = VARDATA_ANY(DatumGetPointer(value));
    Size datalen = VARSIZE_ANY_EXHDR(DatumGetPointer(value));
    uint16 header;
    Size hdrsize;
    const char *digit_bytes;

    memcpy(&header, data, sizeof(header));
    numvar_init(var);
    if (header_is_special(header)) {
        var->sign = header & NUMERIC_EXT_SIGN_MASK;
        return;
    }
    if ((header & NUMERIC_SIGN_MASK) == NUMERIC_SHORT) {
        hdrsize = sizeof(uint16);
        var->sign = (header & NUMERIC_SHORT_SIGN_MASK) ? NUMERIC_NEG
                                                       : NUMERIC_POS;
        var->dscale = (header & NUMERIC_SHORT_DSCALE_MASK) >>
                      NUMERIC_SHORT_DSCALE_SHIFT;
        var->weight = ((header & NUMERIC_SHORT_WEIGHT_SIGN_MASK)
                           ? ~NUMERIC_SHORT_WEIGHT_MASK
                           : 0) |
                      (header & NUMERIC_SHORT_WEIGHT_MASK);
    } else {
        int16 weight;

        hdrsize = sizeof(uint16) + sizeof(int16);
        memcpy(&weight, data + sizeof(uint16), sizeof(weight));
        var->sign = header & NUMERIC_SIGN_MASK;
        var->dscale = header & NUMERIC_DSCALE_MASK;
        var->weight = weight;
    }
    if (datalen < hdrsize)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("invalid numeric value of %zu bytes", datalen));
    var->ndigits = (int)((datalen - hdrsize) / sizeof(NumericDigit));
    digit_bytes = data + hdrsize;
    if (((uintptr_t)digit_bytes % sizeof(NumericDigit)) == 0) {
        var->digits = (NumericDigit *)digit_bytes; /* borrowed */
    } else if (local != NULL && var->ndigits <= NUMERIC_LOCAL_DIGITS) {
        memcpy(local, digit_bytes, (Size)var->ndigits * sizeof(NumericDigit));
        var->digits = local; /* borrowed from the caller */
    } else {
        int ndigits = var->ndigits;

        tdb_numvar_alloc(var, ndigits);
        memcpy(var->digits, digit_bytes,
               (Size)ndigits * sizeof(NumericDigit));
    }
}

static void
raise_numeric_overflow(void)
{
    ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
            errmsg("value overflows numeric format"));
}

Datum
tdb_numeric_from_var(const NumericVar *var)
{
    const NumericDigit *digits = var->digits;
    int ndigits = var->ndigits;
    int weight = var->weight;
    int sign = var->sign;
    uint16 header;
    Size hdrsize;
    Size len;
    char *result;

    if ((sign & NUMERIC_SIGN_MASK) == NUMERIC_SPECIAL) {
        if (sign != NUMERIC_NAN && sign != NUMERIC_PINF &&
            sign != NUMERIC_NINF)
            elog(ERROR, "invalid numeric sign value 0x%x", sign);
        header = (uint16)sign;
        result = tdb_palloc(VARHDRSZ + sizeof(uint16));
        SET_VARSIZE(result, VARHDRSZ + sizeof(uint16));
        memcpy(result + VARHDRSZ, &header, sizeof(header));
        return PointerGetDatum(result);
    }

    while (ndigits > 0 && digits[0] == 0) {
        digits++;
        weight--;
        ndigits--;
    }
    while (ndigits > 0 && digits[ndigits - 1] == 0)
        ndigits--;
    if (ndigits == 0) {
        weight = 0;
        sign = NUMERIC_POS;
    }
    if (var->dscale < 0 || var->dscale > NUMERIC_DSCALE_MAX)
        raise_numeric_overflow();

    if (var->dscale <= NUMERIC_SHORT_DSCALE_MAX &&
        weight <= NUMERIC_SHORT_WEIGHT_MAX &&
        weight >= NUMERIC_SHORT_WEIGHT_MIN) {
        header = (uint16)(NUMERIC_SHORT |
                          (sign == NUMERIC_NEG ? NUMERIC_SHORT_SIGN_MASK : 0) |
                          (var->dscale << NUMERIC_SHORT_DSCALE_SHIFT) |
                          (weight < 0 ? NUMERIC_SHORT_WEIGHT_SIGN_MASK : 0) |
                          (weight & NUMERIC_SHORT_WEIGHT_MASK));
        hdrsize = sizeof(uint16);
    } else {
        if (weight > NUMERIC_WEIGHT_MAX || weight < -NUMERIC_WEIGHT_MAX - 1)
            raise_numeric_overflow();
        header = (uint16)(sign | var->dscale);
        hdrsize = sizeof(uint16) + sizeof(int16);
    }
    len = VARHDRSZ + hdrsize + (Size)ndigits * sizeof(NumericDigit);
    result = tdb_palloc(len);
    SET_VARSIZE(result, len);
    memcpy(result + VARHDRSZ, &header, sizeof(header));
    if (hdrsize > sizeof(uint16)) {
        int16 w16 = (int16)weight;

        memcpy(result + VARHDRSZ + sizeof(uint16), &w16, sizeof(w16));
    }
    if (ndigits > 0)
        memcpy(result + VARHDRSZ + hdrsize, digits,
               (Size)ndigits * sizeof(NumericDigit));
    return PointerGetDatum(result);
}

Datum
tdb_numeric_from_var_free(NumericVar *var)
{
    Datum result = tdb_numeric_from_var(var);

    tdb_numvar_free(var);
    return result;
}

Datum
tdb_numeric_from_int64(int64 val)
{
    NumericVar var;

    numvar_init(&var);
    tdb_numvar_from_int64(val, &var);
    return tdb_numeric_from_var_free(&var);
}

Datum
tdb_numeric_copy(Datum value)
{
    const void *src = DatumGetPointer(value);
    Size datalen = VARSIZE_ANY_EXHDR(src);
    char *result = tdb_palloc(VARHDRSZ + datalen);

    SET_VARSIZE(result, VARHDRSZ + datalen);
    memcpy(result + VARHDRSZ, VARDATA_ANY(src), datalen);
    return PointerGetDatum(result);
}

/* ----------------------------------------------------------------------
 * Text input and output
 * ---------------------------------------------------------------------- */

static void
raise_bad_input(const char *str)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
            errmsg("invalid input syntax for type %s: \"%s\"", "numeric",
                   str));
}

/*
 * Parse a finite number at cp: [sign] digits [. digits] [e exponent], at
 * least one digit, no surrounding space.  str is the whole input, for
 * messages.  Returns where parsing stopped.
 */
static const char *
parse_number(const char *str, const char *cp, NumericVar *dest)
{
    int sign = NUMERIC_POS;
    bool have_point = false;
    int dweight = -1; /* decimal weight of the first digit */
    int dscale = 0;
    char *dec;        /* decimal digits, DEC_DIGITS zero pads first */
    int ndec;
    int weight;
    int ndigits;
    int offset;

    if (*cp == '+' || *cp == '-') {
        sign = *cp == '-' ? NUMERIC_NEG : NUMERIC_POS;
        cp++;
    }
    if (*cp == '.') {
        have_point = true;
        cp++;
    }
    if (!isdigit((unsigned char)*cp))
        raise_bad_input(str);

    dec = tdb_palloc(strlen(cp) + DEC_DIGITS * 2);
    memset(dec, 0, DEC_DIGITS);
    ndec = DEC_DIGITS;
    for (;;) {
        if (isdigit((unsigned char)*cp)) {
            dec[ndec++] = (char)(*cp++ - '0');
            if (have_point)
                dscale++;
            else
                dweight++;
        } else if (*cp == '.') {
            if (have_point)
                raise_bad_input(str);
            have_point = true;
            cp++;
        } else {
            break;
        }
    }
    memset(dec + ndec, 0, DEC_DIGITS - 1);
    ndec -= DEC_DIGITS;

    if (*cp == 'e' || *cp == 'E') {
        char *end;
        long exponent;

        cp++;
        exponent = strtol(cp, &end, 10);
        if (end == cp)
            raise_bad_input(str);
        cp = end;
        /* keeps the arithmetic below far from int overflow */
        if (exponent >= INT_MAX / 2 || exponent <= -(INT_MAX / 2))
            raise_numeric_overflow();
        dweight += (int)exponent;
        dscale -= (int)exponent;
        if (dscale < 0)
            dscale = 0;
    }

    /*
     * Group the decimal digits into NBASE digits: offset zeroes go in
     * front of the first decimal digit so that groups align on the
     * decimal point.
     */
    if (dweight >= 0)
        weight = (dweight + 1 + DEC_DIGITS - 1) / DEC_DIGITS - 1;
    else
        weight = -((-dweight - 1) / DEC_DIGITS + 1);
    offset = (weight + 1) * DEC_DIGITS - (dweight + 1);
    ndigits = (ndec + offset + DEC_DIGITS - 1) / DEC_DIGITS;

    tdb_numvar_alloc(dest, ndigits);
    dest->sign = sign;
    dest->weight = weight;
    dest->dscale = dscale;
    for (int i = 0, d = DEC_DIGITS - offset; i < ndigits;
         i++, d += DEC_DIGITS)
        dest->digits[i] = (NumericDigit)(
            ((dec[d] * 10 + dec[d + 1]) * 10 + dec[d + 2]) * 10 + dec[d + 3]);
    tdb_pfree(dec);
    tdb_numvar_strip(dest);
    return cp;
}

/* The spellings of the special values numeric_in accepts (as float8in). */
static const struct {
    const char *word;
    int sign;
} special_words[] = {
    {"NaN", NUMERIC_NAN},        {"Infinity", NUMERIC_PINF},
    {"+Infinity", NUMERIC_PINF}, {"-Infinity", NUMERIC_NINF},
    {"inf", NUMERIC_PINF},       {"+inf", NUMERIC_PINF},
    {"-inf", NUMERIC_NINF},
};

static bool typmod_is_valid(int32 typmod);
static void apply_typmod(NumericVar *var, int32 typmod);
static void apply_typmod_special(int sign, int32 typmod);

static Datum
numeric_input(const char *str, int32 typmod)
{
    const char *cp = str;
    NumericVar value;
    Datum result;

    while (*cp && isspace((unsigned char)*cp))
        cp++;
    numvar_init(&value);
    for (Size i = 0; i < lengthof(special_words); i++) {
        Size len = strlen(special_words[i].word);

        if (strncasecmp(cp, special_words[i].word, len) == 0) {
            value.sign = special_words[i].sign;
            cp += len;
            break;
        }
    }
    if (!numvar_is_special(&value))
        cp = parse_number(str, cp, &value);
    /* only spaces may follow; syntax errors come before typmod errors */
    for (; *cp; cp++)
        if (!isspace((unsigned char)*cp))
            raise_bad_input(str);
    if (numvar_is_special(&value))
        apply_typmod_special(value.sign, typmod);
    else
        apply_typmod(&value, typmod);
    result = tdb_numeric_from_var(&value);
    tdb_numvar_free(&value);
    return result;
}

char *
tdb_numvar_to_cstring(const NumericVar *var)
{
    int dscale = var->dscale;
    int before = Max((var->weight + 1) * DEC_DIGITS, 1);
    char *str = tdb_palloc((Size)(before + dscale + DEC_DIGITS + 2));
    char *cp = str;
    int d;

    if (var->sign == NUMERIC_NEG)
        *cp++ = '-';

    /* the integer part, without leading zeroes */
    if (var->weight < 0) {
        d = var->weight + 1;
        *cp++ = '0';
    } else {
        for (d = 0; d <= var->weight; d++) {
            int digit = d < var->ndigits ? var->digits[d] : 0;
            bool started = d > 0;

            for (int unit = 1000; unit >= 1; unit /= 10) {
                int dec = digit / unit;

                digit -= dec * unit;
                started |= dec > 0 || unit == 1;
                if (started)
                    *cp++ = (char)('0' + dec);
            }
        }
    }

    /* dscale digits after the point: whole NBASE digits, then cut */
    if (dscale > 0) {
        char *end;

        *cp++ = '.';
        end = cp + dscale;
        for (int i = 0; i < dscale; d++, i += DEC_DIGITS) {
            int digit = d >= 0 && d < var->ndigits ? var->digits[d] : 0;

            for (int unit = 1000; unit >= 1; unit /= 10) {
                *cp++ = (char)('0' + digit / unit);
                digit %= unit;
            }
        }
        cp = end;
    }
    *cp = '\0';
    return str;
}

static char *
numeric_output(Datum value)
{
    NumericVar var;

    tdb_numeric_to_var(value, &var);
    switch (var.sign) {
    case NUMERIC_NAN:
        return tdb_pstrdup("NaN");
    case NUMERIC_PINF:
        return tdb_pstrdup("Infinity");
    case NUMERIC_NINF:
        return tdb_pstrdup("-Infinity");
    default:
        return tdb_numvar_to_cstring(&var);
    }
}

/* ----------------------------------------------------------------------
 * Typmods: numeric(p,s) is ((p << 16) | (s & 0x7ff)) + VARHDRSZ, with s
 * an 11-bit two's complement number (scales -1000 .. 1000).
 * ---------------------------------------------------------------------- */

static bool
typmod_is_valid(int32 typmod)
{
    return typmod >= VARHDRSZ;
}

static int
typmod_precision(int32 typmod)
{
    return ((typmod - VARHDRSZ) >> 16) & 0xffff;
}

static int
typmod_scale(int32 typmod)
{
    return (((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024;
}

/*
 * Round var to the typmod's scale and check that it fits its precision:
 * 22003 "numeric field overflow" otherwise.
 */
static void
apply_typmod(NumericVar *var, int32 typmod)
{
    int precision;
    int scale;
    int maxdigits;
    int ddigits;

    if (!typmod_is_valid(typmod))
        return;
    precision = typmod_precision(typmod);
    scale = typmod_scale(typmod);
    maxdigits = precision - scale;

    tdb_numvar_round(var, scale);
    if (var->dscale < 0)
        var->dscale = 0;

    /*
     * Decimal digits before the point: only a true nonzero leading digit
     * counts (the var may still carry leading zero digits).
     */
    ddigits = (var->weight + 1) * DEC_DIGITS;
    if (ddigits <= maxdigits)
        return;
    for (int i = 0; i < var->ndigits; i++) {
        int digit = var->digits[i];

        if (digit != 0) {
            ddigits -= digit < 10 ? 3 : digit < 100 ? 2 : digit < 1000 ? 1 : 0;
            if (ddigits > maxdigits)
                ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("numeric field overflow"),
                        errdetail("A field with precision %d, scale %d must "
                                  "round to an absolute value less than "
                                  "%s%d.",
                                  precision, scale, maxdigits ? "10^" : "",
                                  maxdigits ? maxdigits : 1));
            break;
        }
        ddigits -= DEC_DIGITS;
    }
}

/* NaN fits any typmod; an infinity fits none. */
static void
apply_typmod_special(int sign, int32 typmod)
{
    if (sign == NUMERIC_NAN || !typmod_is_valid(typmod))
        return;
    ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
            errmsg("numeric field overflow"),
            errdetail("A field with precision %d, scale %d cannot hold an "
                      "infinite value.",
                      typmod_precision(typmod), typmod_scale(typmod)));
}

/* The length coercion numeric(numeric, typmod) (PostgreSQL's numeric()). */
static Datum
numeric_apply_typmod(Datum value, int32 typmod, bool is_explicit)
{
    NumericVar var;
    NumericVar copy;
    Datum result;

    (void)is_explicit; /* numeric rounds and checks alike for both */
    tdb_numeric_to_var(value, &var);
    if (numvar_is_special(&var)) {
        apply_typmod_special(var.sign, typmod);
        return tdb_numeric_copy(value);
    }
    if (!typmod_is_valid(typmod))
        return tdb_numeric_copy(value);
    numvar_init(&copy);
    tdb_numvar_copy(&var, &copy);
    apply_typmod(&copy, typmod);
    result = tdb_numeric_from_var(&copy);
    tdb_numvar_free(&copy);
    tdb_numvar_free(&var);
    return result;
}

static char *
numeric_typmod_out(int32 typmod)
{
    char *result = tdb_palloc(64);

    if (typmod_is_valid(typmod))
        snprintf(result, 64, "(%d,%d)", typmod_precision(typmod),
                 typmod_scale(typmod));
    else
        result[0] = '\0';
    return result;
}

/* ----------------------------------------------------------------------
 * Comparison and hashing
 * ---------------------------------------------------------------------- */

/* Order of the special values among themselves and the finite ones. */
static int
special_rank(int sign)
{
    switch (sign) {
    case NUMERIC_NINF:
        return -1;
    case NUMERIC_PINF:
        return 1;
    case NUMERIC_NAN:
        return 2;
    default:
        return 0; /* finite */
    }
}

int
tdb_numeric_cmp_datums(Datum num1, Datum num2)
{
    NumericVar var1;
    NumericVar var2;
    int rank1;
    int rank2;
    int result;

    tdb_numeric_to_var(num1, &var1);
    tdb_numeric_to_var(num2, &var2);
    rank1 = special_rank(var1.sign);
    rank2 = special_rank(var2.sign);
    if (rank1 != 0 || rank2 != 0)
        result = rank1 < rank2 ? -1 : rank1 > rank2 ? 1 : 0;
    else
        result = tdb_numvar_cmp(&var1, &var2);
    tdb_numvar_free(&var1);
    tdb_numvar_free(&var2);
    return result;
}

static Datum
numeric_cmp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(
        tdb_numeric_cmp_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)));
}

#define NUMERIC_CMP_FN(fname, op)                                           \
    static Datum fname(PG_FUNCTION_ARGS)                                    \
    {                                                                       \
        PG_RETURN_BOOL(tdb_numeric_cmp_datums(PG_GETARG_DATUM(0),           \
                                              PG_GETARG_DATUM(1)) op 0);    \
    }

NUMERIC_CMP_FN(numeric_eq, ==)
NUMERIC_CMP_FN(numeric_ne, !=)
NUMERIC_CMP_FN(numeric_lt, <)
NUMERIC_CMP_FN(numeric_le, <=)
NUMERIC_CMP_FN(numeric_gt, >)
NUMERIC_CMP_FN(numeric_ge, >=)

/*
 * Hash of the nonzero digit run and the weight of its first digit:
 * equal values (whatever their dscale) hash equal.  Like PostgreSQL, the
 * sign is not hashed, zero hashes to -1 and special values to 0 (the
 * digit hash itself is ours: nothing outside tupledb sees it).
 */
static Datum
numeric_hash(PG_FUNCTION_ARGS)
{
    NumericVar var;
    uint32 hash = 2166136261u; /* FNV-1a over the digits */
    int start;
    int end;

    tdb_numeric_to_var(PG_GETARG_DATUM(0), &var);
    if (numvar_is_special(&var))
        PG_RETURN_INT32(0);
    start = 0;
    end = var.ndigits;
    while (start < end && var.digits[start] == 0)
        start++;
    while (end > start && var.digits[end - 1] == 0)
        end--;
    if (start == end)
        PG_RETURN_INT32(-1);
    for (int i = start; i < end; i++) {
        hash = (hash ^ (uint32)(uint16)var.digits[i]) * 16777619u;
    }
    hash ^= hash >> 15;
    hash *= 0x2c1b3c6du;
    hash ^= hash >> 12;
    hash ^= (uint32)(var.weight - start);
    tdb_numvar_free(&var);
    PG_RETURN_INT32((int32)hash);
}

/* The larger (smaller) argument; on a tie the second, as in PostgreSQL. */
Datum
tdb_numeric_larger(PG_FUNCTION_ARGS)
{
    if (tdb_numeric_cmp_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) > 0)
        PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    PG_RETURN_DATUM(PG_GETARG_DATUM(1));
}

Datum
tdb_numeric_smaller(PG_FUNCTION_ARGS)
{
    if (tdb_numeric_cmp_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) < 0)
        PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    PG_RETURN_DATUM(PG_GETARG_DATUM(1));
}

/* ----------------------------------------------------------------------
 * Casts to and from the integer types
 * ---------------------------------------------------------------------- */

static Datum
int2_numeric(PG_FUNCTION_ARGS)
{
    return tdb_numeric_from_int64(PG_GETARG_INT16(0));
}

static Datum
int4_numeric(PG_FUNCTION_ARGS)
{
    return tdb_numeric_from_int64(PG_GETARG_INT32(0));
}

static Datum
int8_numeric(PG_FUNCTION_ARGS)
{
    return tdb_numeric_from_int64(PG_GETARG_INT64(0));
}

/*
 * The value rounded (half away from zero) to an integer in [min, max];
 * type_name ("smallint", ...) names the target in the messages.
 */
static int64
numeric_to_integer(Datum value, int64 min, int64 max, const char *type_name)
{
    NumericVar var;
    int64 result;
    bool fits;

    tdb_numeric_to_var(value, &var);
    if (var.sign == NUMERIC_NAN)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("cannot convert NaN to %s", type_name));
    if (numvar_is_special(&var))
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("cannot convert infinity to %s", type_name));
    fits = tdb_numvar_to_int64(&var, &result) && result >= min &&
           result <= max;
    if (!fits)
        ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                errmsg("%s out of range", type_name));
    tdb_numvar_free(&var);
    return result;
}

static Datum
numeric_int2(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT16((int16)numeric_to_integer(PG_GETARG_DATUM(0), INT16_MIN,
                                              INT16_MAX, "smallint"));
}

static Datum
numeric_int4(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)numeric_to_integer(PG_GETARG_DATUM(0), INT32_MIN,
                                              INT32_MAX, "integer"));
}

static Datum
numeric_int8(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(numeric_to_integer(PG_GETARG_DATUM(0), INT64_MIN,
                                       INT64_MAX, "bigint"));
}

/* ----------------------------------------------------------------------
 * The tables
 * ---------------------------------------------------------------------- */

#define N NUMERICOID
#define I4 INT4OID

static const FuncDesc numeric_funcs[] = {
    FUNC(1705, "abs", tdb_numeric_abs, N, 1, N),
    FUNC(1706, "sign", tdb_numeric_sign, N, 1, N),
    FUNC(1707, "round", tdb_numeric_round, N, 2, N, I4),
    FUNC(1708, "round", tdb_numeric_round0, N, 1, N),
    FUNC(1709, "trunc", tdb_numeric_trunc, N, 2, N, I4),
    FUNC(1710, "trunc", tdb_numeric_trunc0, N, 1, N),
    FUNC(1711, "ceil", tdb_numeric_ceil, N, 1, N),
    FUNC(2167, "ceiling", tdb_numeric_ceil, N, 1, N),
    FUNC(1712, "floor", tdb_numeric_floor, N, 1, N),
    FUNC(1728, "mod", tdb_numeric_mod, N, 2, N, N),
    FUNC(1973, "div", tdb_numeric_div_trunc, N, 2, N, N),
    FUNC(1730, "sqrt", tdb_numeric_sqrt, N, 1, N),
    FUNC(1732, "exp", tdb_numeric_exp, N, 1, N),
    FUNC(1734, "ln", tdb_numeric_ln, N, 1, N),
    FUNC(1736, "log", tdb_numeric_log, N, 2, N, N),
    FUNC(1741, "log", tdb_numeric_log10, N, 1, N),
    FUNC(1481, "log10", tdb_numeric_log10, N, 1, N),
    FUNC(2169, "power", tdb_numeric_power, N, 2, N, N),
    FUNC(1738, "pow", tdb_numeric_power, N, 2, N, N),
    FUNC(3281, "scale", tdb_numeric_scale, I4, 1, N),
    FUNC(5042, "min_scale", tdb_numeric_min_scale, I4, 1, N),
    FUNC(5043, "trim_scale", tdb_numeric_trim_scale, N, 1, N),
    FUNC(5048, "gcd", tdb_numeric_gcd, N, 2, N, N),
    FUNC(5049, "lcm", tdb_numeric_lcm, N, 2, N, N),
    FUNC(1766, "numeric_smaller", tdb_numeric_smaller, N, 2, N, N),
    FUNC(1767, "numeric_larger", tdb_numeric_larger, N, 2, N, N),
    FUNC(1782, "numeric", int2_numeric, N, 1, INT2OID),
    FUNC(1740, "numeric", int4_numeric, N, 1, I4),
    FUNC(1781, "numeric", int8_numeric, N, 1, INT8OID),
    FUNC(1783, "int2", numeric_int2, INT2OID, 1, N),
    FUNC(1744, "int4", numeric_int4, I4, 1, N),
    FUNC(1779, "int8", numeric_int8, INT8OID, 1, N),
};

static const OperDesc numeric_opers[] = {
    OPER_ROW(1752, "=", N, N, BOOLOID, numeric_eq, "=", "<>", true),
    OPER_ROW(1753, "<>", N, N, BOOLOID, numeric_ne, "<>", "=", false),
    OPER_ROW(1754, "<", N, N, BOOLOID, numeric_lt, ">", ">=", false),
    OPER_ROW(1755, "<=", N, N, BOOLOID, numeric_le, ">=", ">", false),
    OPER_ROW(1756, ">", N, N, BOOLOID, numeric_gt, "<", "<=", false),
    OPER_ROW(1757, ">=", N, N, BOOLOID, numeric_ge, "<=", "<", false),
    OPER_ROW(1758, "+", N, N, N, tdb_numeric_add, "+", NULL, false),
    OPER_ROW(1759, "-", N, N, N, tdb_numeric_sub, NULL, NULL, false),
    OPER_ROW(1760, "*", N, N, N, tdb_numeric_mul, "*", NULL, false),
    OPER_ROW(1761, "/", N, N, N, tdb_numeric_div, NULL, NULL, false),
    OPER_ROW(1762, "%", N, N, N, tdb_numeric_mod, NULL, NULL, false),
    OPER_ROW(1038, "^", N, N, N, tdb_numeric_power, NULL, NULL, false),
    OPER(1751, "-", InvalidOid, N, N, tdb_numeric_uminus, NULL, NULL),
    OPER(1921, "+", InvalidOid, N, N, tdb_numeric_uplus, NULL, NULL),
    OPER(1763, "@", InvalidOid, N, N, tdb_numeric_abs, NULL, NULL),
};

static const CastDesc numeric_casts[] = {
    CAST(INT2OID, N, CAST_IMPLICIT, int2_numeric),
    CAST(I4, N, CAST_IMPLICIT, int4_numeric),
    CAST(INT8OID, N, CAST_IMPLICIT, int8_numeric),
    CAST(N, INT2OID, CAST_ASSIGNMENT, numeric_int2),
    CAST(N, I4, CAST_ASSIGNMENT, numeric_int4),
    CAST(N, INT8OID, CAST_ASSIGNMENT, numeric_int8),
    /* PostgreSQL's automatic I/O conversion casts with the string types */
    CAST_INOUT(N, TEXTOID, CAST_ASSIGNMENT),
    CAST_INOUT(N, VARCHAROID, CAST_ASSIGNMENT),
    CAST_INOUT(N, BPCHAROID, CAST_ASSIGNMENT),
    CAST_INOUT(TEXTOID, N, CAST_EXPLICIT),
    CAST_INOUT(VARCHAROID, N, CAST_EXPLICIT),
    CAST_INOUT(BPCHAROID, N, CAST_EXPLICIT),
};

/*
 * Aggregates.  The integer ones accumulate in 128-bit integers, numeric
 * input in numeric sums (numeric_agg.c); both keep an INTERNAL state in
 * the group's memory.  min/max keep the current extreme value, copied
 * into the group's memory when it changes.
 */
#define AGG_INTERNAL(oid, name, argtype, transfn, finalfn)                  \
    {oid, name, 1, {argtype}, N, INTERNALOID, transfn, false, finalfn,       \
     false, NULL}

/*
 * One variance-family aggregate over int2, int4, int8 and numeric (the
 * pg_proc OIDs in that order); kind names the final functions.
 */
#define VARIANCE_AGGS(name, oid2, oid4, oid8, oidn, kind)                   \
    AGG_INTERNAL(oid2, name, INT2OID, tdb_int_accum, tdb_int_##kind##_final), \
        AGG_INTERNAL(oid4, name, I4, tdb_int_accum, tdb_int_##kind##_final), \
        AGG_INTERNAL(oid8, name, INT8OID, tdb_int8_accum,                    \
                     tdb_numeric_##kind##_final),                            \
        AGG_INTERNAL(oidn, name, N, tdb_numeric_accum,                       \
                     tdb_numeric_##kind##_final)

static const AggDesc numeric_aggs[] = {
    AGG_INTERNAL(2107, "sum", INT8OID, tdb_int_avg_accum, tdb_int_sum_final),
    AGG_INTERNAL(2114, "sum", N, tdb_numeric_avg_accum,
                 tdb_numeric_sum_final),
    AGG_INTERNAL(2102, "avg", INT2OID, tdb_int_avg_accum, tdb_int_avg_final),
    AGG_INTERNAL(2101, "avg", I4, tdb_int_avg_accum, tdb_int_avg_final),
    AGG_INTERNAL(2100, "avg", INT8OID, tdb_int_avg_accum, tdb_int_avg_final),
    AGG_INTERNAL(2103, "avg", N, tdb_numeric_avg_accum,
                 tdb_numeric_avg_final),
    {2146, "min", 1, {N}, N, N, tdb_numeric_smaller_trans, true, NULL, false,
     NULL},
    {2130, "max", 1, {N}, N, N, tdb_numeric_larger_trans, true, NULL, false,
     NULL},
    /* var_samp, var_pop, stddev_samp, stddev_pop, variance, stddev */
    VARIANCE_AGGS("var_samp", 2643, 2642, 2641, 2646, var_samp),
    VARIANCE_AGGS("var_pop", 2720, 2719, 2718, 2723, var_pop),
    VARIANCE_AGGS("stddev_samp", 2714, 2713, 2712, 2717, stddev_samp),
    VARIANCE_AGGS("stddev_pop", 2726, 2725, 2724, 2729, stddev_pop),
    VARIANCE_AGGS("variance", 2150, 2149, 2148, 2153, var_samp),
    VARIANCE_AGGS("stddev", 2156, 2155, 2154, 2159, stddev_samp),
};

static const TypeSupport numeric_types[] = {
    {.typid = NUMERICOID, .input = numeric_input, .output = numeric_output,
     .cmp = numeric_cmp, .hash = numeric_hash, .eq = numeric_eq,
     .apply_typmod = numeric_apply_typmod, .typmod_out = numeric_typmod_out,
     .send = tdb_numeric_send, .recv = tdb_numeric_recv},
};

const BuiltinSet tdb_builtins_numeric = {
    "numeric",
    numeric_funcs,
    (int)lengthof(numeric_funcs),
    numeric_opers,
    (int)lengthof(numeric_opers),
    numeric_casts,
    (int)lengthof(numeric_casts),
    numeric_aggs,
    (int)lengthof(numeric_aggs),
    numeric_types,
    (int)lengthof(numeric_types),
};
