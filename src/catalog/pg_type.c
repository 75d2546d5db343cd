/*
 * pg_type.c -- the table of built-in types (pg_type.h), with PostgreSQL
 * 15's OIDs and properties.
 */
#include "common/base.h"

#include <string.h>

#include "catalog/pg_type.h"

/* oid, name, len, byval, align, storage, category, preferred, typtype,
 * array, column_type -- in OID order */
static const TypeInfo builtin_types[] = {
    {BOOLOID, "bool", 1, true, 'c', 'p', 'B', true, 'b', 1000, true},
    {BYTEAOID, "bytea", -1, false, 'i', 'x', 'U', false, 'b', 1001, true},
    {CHAROID, "char", 1, true, 'c', 'p', 'Z', false, 'b', 1002, true},
    {NAMEOID, "name", 64, false, 'c', 'p', 'S', false, 'b', 1003, true},
    {INT8OID, "int8", 8, true, 'd', 'p', 'N', false, 'b', 1016, true},
    {INT2OID, "int2", 2, true, 's', 'p', 'N', false, 'b', 1005, true},
    /* arrays (array.c): values in queries, not column types */
    {22, "int2vector", -1, false, 'i', 'p', 'A', false, 'b', 1006, false},
    {INT4OID, "int4", 4, true, 'i', 'p', 'N', false, 'b', 1007, true},
    {TEXTOID, "text", -1, false, 'i', 'x', 'S', true, 'b', 1009, true},
    {OIDOID, "oid", 4, true, 'i', 'p', 'N', false, 'b', 1028, true},
    {TIDOID, "tid", 6, false, 's', 'p', 'U', false, 'b', 1010, false},
    {FLOAT4OID, "float4", 4, true, 'i', 'p', 'N', false, 'b', 1021, true},
    {FLOAT8OID, "float8", 8, true, 'd', 'p', 'N', true, 'b', 1022, true},
    {UNKNOWNOID, "unknown", -2, false, 'c', 'p', 'X', false, 'p', 0, false},
    {1002, "_char", -1, false, 'i', 'x', 'A', false, 'b', 0, false},
    {1003, "_name", -1, false, 'i', 'x', 'A', false, 'b', 0, false},
    {1005, "_int2", -1, false, 'i', 'x', 'A', false, 'b', 0, false},
    {1007, "_int4", -1, false, 'i', 'x', 'A', false, 'b', 0, false},
    {1009, "_text", -1, false, 'i', 'x', 'A', false, 'b', 0, false},
    {1028, "_oid", -1, false, 'i', 'x', 'A', false, 'b', 0, false},
    {BPCHAROID, "bpchar", -1, false, 'i', 'x', 'S', false, 'b', 1014, true},
    {VARCHAROID, "varchar", -1, false, 'i', 'x', 'S', false, 'b', 1015, true},
    {DATEOID, "date", 4, true, 'i', 'p', 'D', false, 'b', 1182, true},
    {TIMEOID, "time", 8, true, 'd', 'p', 'D', false, 'b', 1183, true},
    {TIMESTAMPOID, "timestamp", 8, true, 'd', 'p', 'D', false, 'b', 1115, true},
    {TIMESTAMPTZOID, "timestamptz", 8, true, 'd', 'p', 'D', true, 'b', 1185,
     true},
    {INTERVALOID, "interval", 16, false, 'd', 'p', 'T', true, 'b', 1187, true},
    {NUMERICOID, "numeric", -1, false, 'i', 'm', 'N', false, 'b', 1231, true},
    {REGCLASSOID, "regclass", 4, true, 'i', 'p', 'N', false, 'b', 2210, true},
    {REGTYPEOID, "regtype", 4, true, 'i', 'p', 'N', false, 'b', 2211, true},
    {RECORDOID, "record", -1, false, 'd', 'x', 'P', false, 'p', 2287, false},
    /* record[]: SEARCH / CYCLE's paths (types/record.c) */
    {2287, "_record", -1, false, 'd', 'x', 'P', false, 'p', 0, false},
    {CSTRINGOID, "cstring", -2, false, 'c', 'p', 'P', false, 'p', 1263, false},
    {ANYOID, "any", 4, true, 'i', 'p', 'P', false, 'p', 0, false},
    {INTERNALOID, "internal", 8, true, 'd', 'p', 'P', false, 'p', 0, false},
    {ANYELEMENTOID, "anyelement", 4, true, 'i', 'p', 'P', false, 'p', 0, false},
    {UUIDOID, "uuid", 16, false, 'c', 'p', 'U', false, 'b', 2951, true},
    {REGNAMESPACEOID, "regnamespace", 4, true, 'i', 'p', 'N', false, 'b', 4090,
     true},
};

#define NBUILTIN_TYPES ((int)(sizeof(builtin_types) / sizeof(builtin_types[0])))

const TypeInfo *
tdb_type_lookup(Oid typid)
{
    /* output and detoasting ask per value: a direct-mapped memo of the
     * types found lately, per thread, before the linear search */
    static __thread const TypeInfo *recent[64];
    const TypeInfo **slot = &recent[typid & 63];

    if (*slot != NULL && (*slot)->oid == typid)
        return *slot;
    for (int i = 0; i < NBUILTIN_TYPES; i++)
        if (builtin_types[i].oid == typid) {
            *slot = &builtin_types[i];
            return *slot;
        }
    return NULL;
}

const TypeInfo *
tdb_type_lookup_by_name(const char *name)
{
    for (int i = 0; i < NBUILTIN_TYPES; i++)
        if (strcmp(builtin_types[i].name, name) == 0)
            return &builtin_types[i];
    return NULL;
}

Oid
tdb_type_element_of(Oid array_type)
{
    if (array_type == InvalidOid)
        return InvalidOid;
    for (int i = 0; i < NBUILTIN_TYPES; i++)
        if (builtin_types[i].array == array_type &&
            builtin_types[i].typtype != 'p')
            return builtin_types[i].oid;
    return InvalidOid;
}

const TypeInfo *
tdb_type_all(int *n)
{
    *n = NBUILTIN_TYPES;
    return builtin_types;
}
