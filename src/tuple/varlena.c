/*
 * varlena.c -- building and reading plain variable-length values
 * (varlena.h).  Compressed and external forms belong to the TOAST layer.
 */
#include "common/base.h"

#include <string.h>

#include "mmgr/mcxt.h"
#include "tuple/varlena.h"

text *
tdb_text_from_bytes(const char *data, Size len)
{
    text *result = tdb_palloc(VARHDRSZ + len);

    SET_VARSIZE(result, VARHDRSZ + len);
    memcpy(VARDATA(result), data, len);
    return result;
}

text *
tdb_text_from_cstring(const char *s)
{
    return tdb_text_from_bytes(s, strlen(s));
}

char *
tdb_text_to_cstring(const void *value)
{
    Size len = VARSIZE_ANY_EXHDR(value);
    char *result = tdb_palloc(len + 1);

    memcpy(result, VARDATA_ANY(value), len);
    result[len] = '\0';
    return result;
}
