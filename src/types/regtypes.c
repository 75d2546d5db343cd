/*
 * regtypes.c -- the OID alias types regclass, regtype and regnamespace:
 * an OID that reads and prints as the name of the object it identifies,
 * as PostgreSQL's catalog queries use them (`c.oid::regclass`,
 * `reloftype::regtype::text`).
 *
 * Values are OIDs (4 bytes, by value); casts to and from oid and int4
 * are binary, so comparisons go through oid's operators, as in
 * PostgreSQL.  Text form:
 *   regclass      the relation's name (quoted when it needs quotes);
 *                 read by name or as a number.  The catalog is the
 *                 session's, reached through TypeIOSettings.catalog
 *                 (types/typeio.h); without one, numbers only.
 *   regtype       format_type's name of a built-in type ("integer").
 *   regnamespace  pg_catalog or public.
 * OID 0 prints as "-" and "-" reads as 0; an OID that names nothing
 * prints as the number.  Unknown names raise 42P01 / 42704 / 3F000 with
 * PostgreSQL's messages.
 *
 * Also pg_get_expr, which prints a stored expression through the same
 * session catalog.
 *
 * Entry point: tdb_builtins_regtypes (registry.c).
 */
#include "common/base.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "types/builtin_rows.h"
#include "types/sendrecv.h"
#include "types/hashfn.h"
#include "types/typeio.h"

/* "-", or digits only: an OID given as a number (*oid), else false */
static bool
numeric_oid(const char *str, Oid *oid)
{
    unsigned long v = 0;

    if (strcmp(str, "-") == 0) {
        *oid = InvalidOid;
        return true;
    }
    if (*str == '\0')
        return false;
    for (const char *p = str; *p != '\0'; p++) {
        if (!isdigit((unsigned char)*p))
            return false;
        v = v * 10 + (unsigned long)(*p - '0');
        if (v > UINT32_MAX)
            ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("value \"%s\" is out of range for type oid", str));
    }
    *oid = (Oid)v;
    return true;
}

static char *
oid_number(Oid oid)
{
    char *buf = tdb_palloc(16);

    if (oid == InvalidOid)
        snprintf(buf, 16, "-");
    else
        snprintf(buf, 16, "%u", oid);
    return buf;
}

/* A name as an identifier: unquoted if lower-case letters, digits and
 * underscores not starting with a digit, else in double quotes. */
static char *
quote_ident(const char *name)
{
    bool plain = name[0] != '\0' && !isdigit((unsigned char)name[0]);
    char *out, *p;

    for (const char *c = name; *c != '\0' && plain; c++)
        plain = (*c >= 'a' && *c <= 'z') || isdigit((unsigned char)*c) ||
                *c == '_';
    if (plain)
        return tdb_mcxt_strdup(tdb_current_mcxt, name);
    out = p = tdb_palloc(strlen(name) * 2 + 3);
    *p++ = '"';
    for (const char *c = name; *c != '\0'; c++) {
        if (*c == '"')
            *p++ = '"';
        *p++ = *c;
    }
    *p++ = '"';
    *p = '\0';
    return out;
}

/* An identifier as regclass reads it: "Quoted" keeps case, else folded
 * to lower case.  One part, or pg_catalog./public. before it. */
static char *
unquote_ident(const char *str)
{
    char *out = tdb_palloc(strlen(str) + 1), *p = out;

    if (str[0] == '"') {
        for (const char *c = str + 1; *c != '\0'; c++) {
            if (*c == '"') {
                if (c[1] != '"')
                    break;
                c++;
            }
            *p++ = *c;
        }
    } else
        for (const char *c = str; *c != '\0'; c++)
            *p++ = (char)tolower((unsigned char)*c);
    *p = '\0';
    return out;
}

static Datum
regclass_input(const char *str, int32 typmod)
{
    const CatalogLookup *cat = tdb_typeio()->catalog;
    const char *name = str;
    int schema_len = 0;
    char *relname;
    Oid oid;

    (void)typmod;
    if (numeric_oid(str, &oid))
        return ObjectIdGetDatum(oid);
    if (strncmp(name, "pg_catalog.", 11) == 0)
        schema_len = 11;
    else if (strncmp(name, "public.", 7) == 0)
        schema_len = 7;
    name += schema_len;
    relname = unquote_ident(name);
    oid = cat != NULL ? cat->relation_oid(cat->arg, relname) : InvalidOid;
    /* named as PostgreSQL names it: the identifiers as read, unquoted */
    if (oid == InvalidOid)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
                errmsg("relation \"%.*s%s\" does not exist", schema_len,
                       str, relname));
    return ObjectIdGetDatum(oid);
}

static char *
regclass_output(Datum value)
{
    const CatalogLookup *cat = tdb_typeio()->catalog;
    Oid oid = DatumGetObjectId(value);
    char *name;

    if (oid == InvalidOid || cat == NULL)
        return oid_number(oid);
    name = cat->relation_name(cat->arg, oid);
    return name != NULL ? quote_ident(name) : oid_number(oid);
}

static Datum
regtype_input(const char *str, int32 typmod)
{
    const TypeInfo *type;
    Oid oid;
    int n;
    const TypeInfo *all = tdb_type_all(&n);

    (void)typmod;
    if (numeric_oid(str, &oid))
        return ObjectIdGetDatum(oid);
    /* the internal name (int4) or format_type's (integer) */
    type = tdb_type_lookup_by_name(unquote_ident(str));
    for (int i = 0; type == NULL && i < n; i++)
        if (strcmp(tdb_format_type(all[i].oid, -1), str) == 0)
            type = &all[i];
    if (type == NULL)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
                errmsg("type \"%s\" does not exist", str));
    return ObjectIdGetDatum(type->oid);
}

static char *
regtype_output(Datum value)
{
    Oid oid = DatumGetObjectId(value);

    if (oid == InvalidOid || tdb_type_lookup(oid) == NULL)
        return oid_number(oid);
    return tdb_format_type(oid, -1);
}

static Datum
regnamespace_input(const char *str, int32 typmod)
{
    Oid oid;
    char *name = unquote_ident(str);

    (void)typmod;
    if (numeric_oid(str, &oid))
        return ObjectIdGetDatum(oid);
    if (strcmp(name, "pg_catalog") == 0)
        return ObjectIdGetDatum(PG_CATALOG_NAMESPACE);
    if (strcmp(name, "public") == 0)
        return ObjectIdGetDatum(PG_PUBLIC_NAMESPACE);
    if (strcmp(name, "pg_toast") == 0)
        return ObjectIdGetDatum(PG_TOAST_NAMESPACE);
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_SCHEMA),
            errmsg("schema \"%s\" does not exist", name));
}

static char *
regnamespace_output(Datum value)
{
    Oid oid = DatumGetObjectId(value);

    if (oid == PG_CATALOG_NAMESPACE)
        return tdb_mcxt_strdup(tdb_current_mcxt, "pg_catalog");
    if (oid == PG_PUBLIC_NAMESPACE)
        return tdb_mcxt_strdup(tdb_current_mcxt, "public");
    if (oid == PG_TOAST_NAMESPACE)
        return tdb_mcxt_strdup(tdb_current_mcxt, "pg_toast");
    return oid_number(oid);
}

/* as oid's: unsigned order, hashed as a uint32 */
static Datum
regcmp(PG_FUNCTION_ARGS)
{
    Oid a = PG_GETARG_OID(0), b = PG_GETARG_OID(1);

    PG_RETURN_INT32(a < b ? -1 : a > b ? 1 : 0);
}

static Datum
regeq(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(PG_GETARG_OID(0) == PG_GETARG_OID(1));
}

static Datum
reghash(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)tdb_hash_uint32(PG_GETARG_OID(0)));
}

/* The session's catalog, or 0A000 naming the function. */
static const CatalogLookup *
session_catalog(const char *fn)
{
    const CatalogLookup *cat = tdb_typeio()->catalog;

    if (cat == NULL)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("%s needs a session", fn));
    return cat;
}

/*
 * pg_get_expr(expr, relation [, pretty]): a stored DEFAULT or CHECK
 * expression (tupledb stores SQL text where PostgreSQL stores a node
 * tree) printed back as PostgreSQL prints it, through the session's
 * catalog.  Stable, as in PostgreSQL.
 */
static Datum
pg_get_expr_fn(PG_FUNCTION_ARGS)
{
    const CatalogLookup *cat = session_catalog("pg_get_expr");
    char *sql = tdb_text_to_cstring(PG_GETARG_VARLENA_P(0));
    bool pretty = PG_NARGS() > 2 && PG_GETARG_BOOL(2);
    PG_RETURN_POINTER(tdb_text_from_cstring(
        cat->deparse_expr(cat->arg, sql, PG_GETARG_OID(1), pretty)));
}

/*
 * pg_get_indexdef(index [, column, pretty]): the index's CREATE INDEX
 * statement, or one column's definition; NULL for an OID that is not an
 * index or a column it does not have.  Stable, as in PostgreSQL.
 */
static Datum
pg_get_indexdef_fn(PG_FUNCTION_ARGS)
{
    const CatalogLookup *cat = session_catalog("pg_get_indexdef");
    bool three = PG_NARGS() > 2;
    char *def = cat->index_def(cat->arg, PG_GETARG_OID(0),
                               three ? PG_GETARG_INT32(1) : 0,
                               three && PG_GETARG_BOOL(2));

    if (def == NULL)
        PG_RETURN_NULL();
    PG_RETURN_POINTER(tdb_text_from_cstring(def));
}

/* pg_get_constraintdef(constraint [, pretty]); NULL for no such
 * constraint. */
static Datum
pg_get_constraintdef_fn(PG_FUNCTION_ARGS)
{
    const CatalogLookup *cat = session_catalog("pg_get_constraintdef");
    char *def = cat->constraint_def(cat->arg, PG_GETARG_OID(0),
                                    PG_NARGS() > 1 && PG_GETARG_BOOL(1));

    if (def == NULL)
        PG_RETURN_NULL();
    PG_RETURN_POINTER(tdb_text_from_cstring(def));
}

static const FuncDesc regtypes_funcs[] = {
    FUNC_V(1716, "pg_get_expr", pg_get_expr_fn, PROVOLATILE_STABLE, TEXTOID, 2,
           TEXTOID, OIDOID),
    FUNC_V(2509, "pg_get_expr", pg_get_expr_fn, PROVOLATILE_STABLE, TEXTOID, 3,
           TEXTOID, OIDOID, BOOLOID),
    FUNC_V(1643, "pg_get_indexdef", pg_get_indexdef_fn, PROVOLATILE_STABLE,
           TEXTOID, 1, OIDOID),
    FUNC_V(2507, "pg_get_indexdef", pg_get_indexdef_fn, PROVOLATILE_STABLE,
           TEXTOID, 3, OIDOID, INT4OID, BOOLOID),
    FUNC_V(1387, "pg_get_constraintdef", pg_get_constraintdef_fn,
           PROVOLATILE_STABLE, TEXTOID, 1, OIDOID),
    FUNC_V(2508, "pg_get_constraintdef", pg_get_constraintdef_fn,
           PROVOLATILE_STABLE, TEXTOID, 2, OIDOID, BOOLOID),
};

#define RC REGCLASSOID
#define RT REGTYPEOID
#define RN REGNAMESPACEOID

static const CastDesc regtypes_casts[] = {
    CAST_BINARY(OIDOID, RC, CAST_IMPLICIT),
    CAST_BINARY(RC, OIDOID, CAST_IMPLICIT),
    CAST_BINARY(INT4OID, RC, CAST_IMPLICIT),
    CAST_BINARY(RC, INT4OID, CAST_ASSIGNMENT),
    CAST_BINARY(OIDOID, RT, CAST_IMPLICIT),
    CAST_BINARY(RT, OIDOID, CAST_IMPLICIT),
    CAST_BINARY(INT4OID, RT, CAST_IMPLICIT),
    CAST_BINARY(RT, INT4OID, CAST_ASSIGNMENT),
    CAST_BINARY(OIDOID, RN, CAST_IMPLICIT),
    CAST_BINARY(RN, OIDOID, CAST_IMPLICIT),
    CAST_BINARY(INT4OID, RN, CAST_IMPLICIT),
    CAST_BINARY(RN, INT4OID, CAST_ASSIGNMENT),
    CASTS_INOUT_TO_STRINGS(RC),
    CASTS_INOUT_TO_STRINGS(RT),
    CASTS_INOUT_TO_STRINGS(RN),
    CASTS_INOUT_FROM_STRINGS(RC),
    CASTS_INOUT_FROM_STRINGS(RT),
    CASTS_INOUT_FROM_STRINGS(RN),
};

static const TypeSupport regtypes_types[] = {
    {.typid = RC, .input = regclass_input, .output = regclass_output,
     .cmp = regcmp, .hash = reghash, .eq = regeq,
     .send = tdb_oid_send, .recv = tdb_oid_recv},
    {.typid = RT, .input = regtype_input, .output = regtype_output,
     .cmp = regcmp, .hash = reghash, .eq = regeq,
     .send = tdb_oid_send, .recv = tdb_oid_recv},
    {.typid = RN, .input = regnamespace_input, .output = regnamespace_output,
     .cmp = regcmp, .hash = reghash, .eq = regeq,
     .send = tdb_oid_send, .recv = tdb_oid_recv},
};

const BuiltinSet tdb_builtins_regtypes = {
    .name = "regtypes",
    .funcs = regtypes_funcs,
    .nfuncs = (int)lengthof(regtypes_funcs),
    .casts = regtypes_casts,
    .ncasts = (int)lengthof(regtypes_casts),
    .types = regtypes_types,
    .ntypes = (int)lengthof(regtypes_types),
};
