/*
 * name.c -- the name type (identifiers in the catalogs): a fixed
 * NAMEDATALEN-byte, NUL-padded string passed by reference.  Input and
 * casts from text truncate to NAMEDATALEN - 1 bytes at a character
 * boundary, as PostgreSQL does.  Comparisons are bytewise (C
 * collation), also against text (name = text, text < name, ...).
 */
#include "common/base.h"

#include "common/elog.h"
#include "types/hashfn.h"
#include "types/strutil.h"
#include "types/textfuncs.h"

/* A new name from len bytes, clipped to NAMEDATALEN - 1 bytes. */
static char *
make_name(const char *s, Size len)
{
    char *result = tdb_palloc0(NAMEDATALEN);

    if (len >= NAMEDATALEN)
        len = tdb_utf8_clip_bytes(s, len, NAMEDATALEN - 1);
    memcpy(result, s, len);
    return result;
}

Datum
tdb_name_input(const char *str, int32 typmod)
{
    (void)typmod;
    return PointerGetDatum(make_name(str, strlen(str)));
}

char *
tdb_name_output(Datum value)
{
    return tdb_pstrdup(DatumGetPointer(value));
}

#define NAME_STR(n) ((const char *)PG_GETARG_POINTER(n))

static int
name_cmp(FunctionCallInfo fcinfo)
{
    const char *a = NAME_STR(0), *b = NAME_STR(1);

    return tdb_bytes_cmp(a, strlen(a), b, strlen(b));
}

/* name vs text; swapped: the text is argument 0 */
static int
name_text_cmp(FunctionCallInfo fcinfo, bool swapped)
{
    const char *name = NAME_STR(swapped ? 1 : 0);
    const varlena *t = PG_GETARG_VARLENA_P(swapped ? 0 : 1);
    int r =
        tdb_bytes_cmp(name, strlen(name), VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));

    return swapped ? -r : r;
}

TDB_CMP_FUNCS(tdb_name, name_cmp(fcinfo))
TDB_CMP_FUNCS(tdb_name_text, name_text_cmp(fcinfo, false))
TDB_CMP_FUNCS(tdb_text_name, name_text_cmp(fcinfo, true))

Datum
tdb_btnamecmp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(name_cmp(fcinfo));
}

Datum
tdb_hashname(PG_FUNCTION_ARGS)
{
    const char *s = NAME_STR(0);

    PG_RETURN_INT32((int32)tdb_hash_bytes(s, strlen(s)));
}

/* casts */

Datum
tdb_name_text(PG_FUNCTION_ARGS)
{
    PG_RETURN_POINTER(tdb_text_from_cstring(NAME_STR(0)));
}

Datum
tdb_text_name(PG_FUNCTION_ARGS)
{
    const varlena *t = PG_GETARG_VARLENA_P(0);

    PG_RETURN_POINTER(make_name(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t)));
}

/* bpchar -> name drops the padding first */
Datum
tdb_bpchar_name(PG_FUNCTION_ARGS)
{
    const varlena *t = PG_GETARG_VARLENA_P(0);
    Size len = VARSIZE_ANY_EXHDR(t);

    while (len > 0 && VARDATA_ANY(t)[len - 1] == ' ')
        len--;
    PG_RETURN_POINTER(make_name(VARDATA_ANY(t), len));
}
