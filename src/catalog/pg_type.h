/*
 * pg_type.h -- the built-in types: their PostgreSQL OIDs and storage
 * properties (pg_type's typlen, typbyval, typalign, typstorage, ...).
 *
 * tupledb has no CREATE TYPE, so the list is fixed at build time; this
 * table is its one source.  Bootstrap copies it into the pg_type catalog
 * (so queries can read it), and the layers above look types up here
 * without touching a page.  OIDs, names and properties are PostgreSQL
 * 15's, so wire-protocol type OIDs and catalog queries match.
 */
#ifndef TDB_CATALOG_PG_TYPE_H
#define TDB_CATALOG_PG_TYPE_H

#include "common/base.h"

/* PostgreSQL's type OIDs (pg_type.dat) for the types tupledb knows. */
#define BOOLOID 16
#define BYTEAOID 17
#define CHAROID 18
#define NAMEOID 19
#define INT8OID 20
#define INT2OID 21
#define INT4OID 23
#define TEXTOID 25
#define OIDOID 26
#define TIDOID 27
#define FLOAT4OID 700
#define FLOAT8OID 701
#define UNKNOWNOID 705
#define BPCHAROID 1042
#define VARCHAROID 1043
#define DATEOID 1082
#define TIMEOID 1083
#define TIMESTAMPOID 1114
#define TIMESTAMPTZOID 1184
#define INTERVALOID 1186
#define NUMERICOID 1700
#include "tuple/tupdesc.h" /* RECORDOID (2249) */
#define CSTRINGOID 2275
#define ANYOID 2276
#define INTERNALOID 2281
#define ANYELEMENTOID 2283
#define UUIDOID 2950
#define REGCLASSOID 2205
#define REGTYPEOID 2206
#define REGNAMESPACEOID 4089

/* Namespaces (pg_namespace OIDs). */
#define PG_CATALOG_NAMESPACE 11
#define PG_PUBLIC_NAMESPACE 2200
#define PG_TOAST_NAMESPACE 99 /* TOAST relations (catalog.h) */

typedef struct TypeInfo {
    Oid oid;
    const char *name;  /* typname */
    int16 len;         /* typlen: > 0 fixed, -1 varlena, -2 cstring */
    bool byval;        /* typbyval */
    char align;        /* typalign: 'c', 's', 'i', 'd' */
    char storage;      /* typstorage: 'p', 'e', 'm', 'x' */
    char category;     /* typcategory: 'B' bool, 'N' numeric, 'S' string,
                        * 'D' date/time, 'T' timespan, 'U' user, 'Z' ... */
    bool preferred;    /* typispreferred within its category */
    char typtype;      /* 'b' base, 'p' pseudo */
    Oid array;         /* typarray: the array type's OID */
    bool column_type;  /* may be a table column's type */
} TypeInfo;

/* The built-in type with this OID, or NULL. */
const TypeInfo *tdb_type_lookup(Oid typid);

/* The built-in type named name (pg_type.typname, e.g. "int4"), or NULL. */
const TypeInfo *tdb_type_lookup_by_name(const char *name);

/* The element type of the array type array_type (pg_type.typelem of an
 * array type), or InvalidOid if it is not an array type. */
Oid tdb_type_element_of(Oid array_type);

/* All of them, for bootstrap: *n receives the count. */
const TypeInfo *tdb_type_all(int *n);

#endif /* TDB_CATALOG_PG_TYPE_H */
