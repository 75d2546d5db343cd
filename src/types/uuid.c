/*
 * uuid.c -- the uuid type: 16 bytes, passed by reference (typlen 16, no
 * varlena header).  Input accepts what PostgreSQL 15 accepts: 32 hex
 * digits in either case, optionally wrapped in braces, with an optional
 * hyphen after any group of four digits except the last
 * ("{A0EEBC99-9C0B4EF8-BB6D6BB9-BD380A11}" is valid); anything else,
 * leading or trailing spaces included, raises 22P02.  Output is the
 * canonical lowercase 8-4-4-4-12 form.
 *
 * Values compare as unsigned bytes (memcmp) and hash with hash_bytes
 * over the 16 bytes, as PostgreSQL's uuid_hash does.  gen_random_uuid()
 * makes a version-4 UUID from getrandom(2).
 *
 * Entry point: tdb_builtins_uuid (registry.c).
 */
#include "common/base.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "common/elog.h"
#include "types/builtin_rows.h"
#include "types/encode.h"
#include "types/hashfn.h"
#include "types/textfuncs.h"
#include "types/sendrecv.h"

#define UUID_LEN 16

static const uint8 *
arg_uuid(FunctionCallInfo fcinfo, int n)
{
    return (const uint8 *)PG_GETARG_POINTER(n);
}

/* ----------------------------------------------------------------------
 * Input and output
 * ---------------------------------------------------------------------- */

static TDB_NORETURN void
invalid_uuid(const char *str)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
            errmsg("invalid input syntax for type uuid: \"%s\"", str));
    __builtin_unreachable();
}

/* Parse the 16 bytes at *s into out, advancing *s; false on bad syntax. */
static bool
parse_uuid_bytes(const char **s, uint8 *out)
{
    const char *p = *s;

    for (int i = 0; i < UUID_LEN; i++) {
        int hi = tdb_hex_digit_value(p[0]);
        int lo = hi < 0 ? -1 : tdb_hex_digit_value(p[1]);

        if (lo < 0)
            return false;
        out[i] = (uint8)(hi << 4 | lo);
        p += 2;
        /* a hyphen may follow every second byte but the last */
        if (*p == '-' && i % 2 == 1 && i < UUID_LEN - 1)
            p++;
    }
    *s = p;
    return true;
}

static Datum
uuid_input(const char *str, int32 typmod)
{
    uint8 *result = tdb_palloc(UUID_LEN);
    const char *p = str;
    bool braced = *p == '{';

    (void)typmod;
    if (braced)
        p++;
    if (!parse_uuid_bytes(&p, result) || (braced && *p++ != '}') || *p != '\0')
        invalid_uuid(str);
    return PointerGetDatum(result);
}

static char *
uuid_output(Datum value)
{
    const uint8 *u = DatumGetPointer(value);
    char *out = tdb_palloc(2 * UUID_LEN + 5);
    char *p = out;

    for (int i = 0; i < UUID_LEN; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            *p++ = '-';
        p += tdb_hex_encode((const char *)u + i, 1, p);
    }
    *p = '\0';
    return out;
}

/* ----------------------------------------------------------------------
 * Comparison, hashing, generation
 * ---------------------------------------------------------------------- */

static int
uuid_cmp_args(FunctionCallInfo fcinfo)
{
    return memcmp(arg_uuid(fcinfo, 0), arg_uuid(fcinfo, 1), UUID_LEN);
}

TDB_CMP_FUNCS_DECL(tdb_uuid_);
TDB_CMP_FUNCS(tdb_uuid_, uuid_cmp_args(fcinfo))

static Datum
uuid_cmp(PG_FUNCTION_ARGS)
{
    int r = uuid_cmp_args(fcinfo);

    PG_RETURN_INT32(r < 0 ? -1 : r > 0 ? 1 : 0);
}

static Datum
uuid_hash(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)tdb_hash_bytes(arg_uuid(fcinfo, 0), UUID_LEN));
}

/* Version 4 (random): 122 random bits, version nibble 4, variant 10. */
static Datum
gen_random_uuid(PG_FUNCTION_ARGS)
{
    uint8 *u = tdb_palloc(UUID_LEN);
    Size got = 0;

    (void)fcinfo;
    while (got < UUID_LEN) {
        ssize_t n = getrandom(u + got, UUID_LEN - got, 0);

        if (n < 0 && errno != EINTR)
            ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR),
                    errmsg("could not generate random values"));
        if (n > 0)
            got += (Size)n;
    }
    u[6] = (uint8)((u[6] & 0x0f) | 0x40);
    u[8] = (uint8)((u[8] & 0x3f) | 0x80);
    PG_RETURN_POINTER(u);
}

/* ----------------------------------------------------------------------
 * The tables
 * ---------------------------------------------------------------------- */

#define U UUIDOID

static const FuncDesc uuid_funcs[] = {
    FUNC_V(3432, "gen_random_uuid", gen_random_uuid, PROVOLATILE_VOLATILE, U,
           0, InvalidOid),
    FUNC(2960, "uuid_cmp", uuid_cmp, INT4OID, 2, U, U),
    FUNC(2963, "uuid_hash", uuid_hash, INT4OID, 1, U),
    FUNC(2956, "uuid_eq", tdb_uuid_eq, BOOLOID, 2, U, U),
    FUNC(2959, "uuid_ne", tdb_uuid_ne, BOOLOID, 2, U, U),
    FUNC(2954, "uuid_lt", tdb_uuid_lt, BOOLOID, 2, U, U),
    FUNC(2955, "uuid_le", tdb_uuid_le, BOOLOID, 2, U, U),
    FUNC(2958, "uuid_gt", tdb_uuid_gt, BOOLOID, 2, U, U),
    FUNC(2957, "uuid_ge", tdb_uuid_ge, BOOLOID, 2, U, U),
};

static const OperDesc uuid_opers[] = {
    OPER_EQ(2972, U, U, tdb_uuid_eq), OPER_NE(2973, U, U, tdb_uuid_ne),
    OPER_LT(2974, U, U, tdb_uuid_lt), OPER_GT(2975, U, U, tdb_uuid_gt),
    OPER_LE(2976, U, U, tdb_uuid_le), OPER_GE(2977, U, U, tdb_uuid_ge),
};

static const CastDesc uuid_casts[] = {
    CASTS_INOUT_TO_STRINGS(U),
    CASTS_INOUT_FROM_STRINGS(U),
};

static const TypeSupport uuid_types[] = {
    {.typid = U, .input = uuid_input, .output = uuid_output,
     .cmp = uuid_cmp, .hash = uuid_hash, .eq = tdb_uuid_eq,
     .send = tdb_uuid_send, .recv = tdb_uuid_recv},
};

/* PostgreSQL 15 has no aggregates over uuid (min/max came in 17). */
const BuiltinSet tdb_builtins_uuid = {
    .name = "uuid",
    .funcs = uuid_funcs,
    .nfuncs = (int)lengthof(uuid_funcs),
    .opers = uuid_opers,
    .nopers = (int)lengthof(uuid_opers),
    .casts = uuid_casts,
    .ncasts = (int)lengthof(uuid_casts),
    .types = uuid_types,
    .ntypes = (int)lengthof(uuid_types),
};
