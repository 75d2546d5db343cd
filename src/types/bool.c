/*
 * bool.c -- the boolean type: input (PostgreSQL's spellings and
 * prefixes), output "t"/"f", comparisons (false < true), hashing, the
 * casts to and from int4 and text, and the aggregates bool_and, bool_or
 * and every.
 *
 * Entry point: tdb_builtins_bool (registry.c).
 */
#include "common/base.h"

#include <strings.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/builtin_rows.h"
#include "types/hashfn.h"
#include "types/strutil.h"
#include "types/sendrecv.h"

/* ----------------------------------------------------------------------
 * Input and output
 * ---------------------------------------------------------------------- */

/*
 * The words boolean input accepts, each also as a case-insensitive
 * prefix of at least min_len characters ("t", "tr", "of" but not "o").
 */
static const struct {
    const char *word;
    Size min_len;
    bool value;
} bool_words[] = {
    {"true", 1, true}, {"false", 1, false}, {"yes", 1, true}, {"no", 1, false},
    {"on", 2, true},   {"off", 2, false},   {"1", 1, true},   {"0", 1, false},
};

/*
 * Parse a boolean: surrounding whitespace ignored, then one of
 * bool_words.  Raises 22P02 with the original string.
 */
static Datum
bool_input(const char *str, int32 typmod)
{
    const char *start = str;
    Size len;

    (void)typmod;
    while (tdb_c_isspace(*start))
        start++;
    len = strlen(start);
    while (len > 0 && tdb_c_isspace(start[len - 1]))
        len--;
    for (Size i = 0; i < lengthof(bool_words); i++)
        if (len >= bool_words[i].min_len && len <= strlen(bool_words[i].word) &&
            strncasecmp(start, bool_words[i].word, len) == 0)
            return BoolGetDatum(bool_words[i].value);
    ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
            errmsg("invalid input syntax for type boolean: \"%s\"", str));
    __builtin_unreachable();
}

static char *
bool_output(Datum value)
{
    return tdb_pstrdup(DatumGetBool(value) ? "t" : "f");
}

/* ----------------------------------------------------------------------
 * Operators and support functions
 * ---------------------------------------------------------------------- */

static Datum
booleq(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(PG_GETARG_BOOL(0) == PG_GETARG_BOOL(1));
}

static Datum
boolne(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(PG_GETARG_BOOL(0) != PG_GETARG_BOOL(1));
}

static Datum
boollt(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(PG_GETARG_BOOL(0) < PG_GETARG_BOOL(1));
}

static Datum
boolgt(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(PG_GETARG_BOOL(0) > PG_GETARG_BOOL(1));
}

static Datum
boolle(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(PG_GETARG_BOOL(0) <= PG_GETARG_BOOL(1));
}

static Datum
boolge(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(PG_GETARG_BOOL(0) >= PG_GETARG_BOOL(1));
}

static Datum
btboolcmp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)PG_GETARG_BOOL(0) - (int32)PG_GETARG_BOOL(1));
}

/* PostgreSQL hashes bool with hashchar: the byte as a 32-bit word. */
static Datum
hashbool(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)tdb_hash_uint32((uint32)PG_GETARG_BOOL(0)));
}

/* bool::text is "true"/"false" (not the output function's "t"/"f"). */
static Datum
booltext(PG_FUNCTION_ARGS)
{
    PG_RETURN_POINTER(
        tdb_text_from_cstring(PG_GETARG_BOOL(0) ? "true" : "false"));
}

static Datum
bool_int4(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(PG_GETARG_BOOL(0) ? 1 : 0);
}

static Datum
int4_bool(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(PG_GETARG_INT32(0) != 0);
}

/* bool_and / every and bool_or: strict, so NULLs are skipped and the
 * first value starts the state. */
static Datum
booland_statefunc(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(PG_GETARG_BOOL(0) && PG_GETARG_BOOL(1));
}

static Datum
boolor_statefunc(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(PG_GETARG_BOOL(0) || PG_GETARG_BOOL(1));
}

/* ----------------------------------------------------------------------
 * The tables
 * ---------------------------------------------------------------------- */

#define B BOOLOID

static const FuncDesc bool_funcs[] = {
    FUNC(2557, "bool", int4_bool, B, 1, INT4OID),
    FUNC(2558, "int4", bool_int4, INT4OID, 1, B),
    FUNC(2971, "text", booltext, TEXTOID, 1, B),
    FUNC(1693, "btboolcmp", btboolcmp, INT4OID, 2, B, B),
    FUNC(2515, "booland_statefunc", booland_statefunc, B, 2, B, B),
    FUNC(2516, "boolor_statefunc", boolor_statefunc, B, 2, B, B),
};

static const OperDesc bool_opers[] = {
    OPER_EQ(91, B, B, booleq),   OPER_NE(85, B, B, boolne),
    OPER_LT(58, B, B, boollt),   OPER_GT(59, B, B, boolgt),
    OPER_LE(1694, B, B, boolle), OPER_GE(1695, B, B, boolge),
};

static const CastDesc bool_casts[] = {
    CAST(B, INT4OID, CAST_EXPLICIT, bool_int4),
    CAST(INT4OID, B, CAST_EXPLICIT, int4_bool),
    CAST(B, TEXTOID, CAST_ASSIGNMENT, booltext),
    CAST(B, VARCHAROID, CAST_ASSIGNMENT, booltext),
    CAST(B, BPCHAROID, CAST_ASSIGNMENT, booltext),
    CAST_INOUT(B, NAMEOID, CAST_ASSIGNMENT),
    CASTS_INOUT_FROM_STRINGS(B),
};

static const AggDesc bool_aggs[] = {
    AGG(2517, "bool_and", 1, B, InvalidOid, B, B, booland_statefunc, true, NULL,
        NULL),
    AGG(2518, "bool_or", 1, B, InvalidOid, B, B, boolor_statefunc, true, NULL,
        NULL),
    AGG(2519, "every", 1, B, InvalidOid, B, B, booland_statefunc, true, NULL,
        NULL),
};

static const TypeSupport bool_types[] = {
    {.typid = B,
     .input = bool_input,
     .output = bool_output,
     .cmp = btboolcmp,
     .hash = hashbool,
     .eq = booleq,
     .send = tdb_bool_send,
     .recv = tdb_bool_recv},
};

const BuiltinSet tdb_builtins_bool = BUILTIN_SET(
    "bool", bool_funcs, bool_opers, bool_casts, bool_aggs, bool_types);
