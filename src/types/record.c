/*
 * record.c -- anonymous records (type record, OID 2249) and arrays of
 * them (record[], 2287), for what WITH RECURSIVE's SEARCH and CYCLE
 * clauses make of them (parser/analyze.c, "SEARCH and CYCLE"): the
 * ordering column of SEARCH BREADTH FIRST (a record), of SEARCH DEPTH
 * FIRST and CYCLE's path (arrays of records) -- built, compared, hashed
 * and printed exactly as PostgreSQL does, for rows of any column types
 * tupledb has.
 *
 * Layout.  PostgreSQL's composite datums name their row type by a typmod
 * registered in the backend's type cache; tupledb has no such registry,
 * and these values never reach a table, so a record carries its field
 * types itself:
 *
 *   int32 varlena header | int32 natts | Oid types[natts]
 *   | bool nulls[natts] | padding to 8 | each non-NULL field at its
 *   type's alignment (from the start of the record): by-value types in
 *   their length, fixed-length by-reference types their bytes, varlena
 *   types with a 4-byte header, never compressed or external
 *
 * A record inside a tuple may come back with a 1-byte header, or at an
 * address without the alignment the layout assumes: readers make an
 * aligned copy first (record_fields).
 *
 * Semantics, PostgreSQL's:
 *   - output (record_out): "(f1,f2,...)", a NULL field empty, a field
 *     quoted ("...", inner " and \ doubled) when it is empty or holds a
 *     quote, backslash, parenthesis, comma or white space;
 *   - comparison (record_cmp, btree): field by field with the field
 *     type's comparison, NULL after every value and equal to NULL;
 *   - equality (record_eq): field by field, NULL equal to NULL -- so
 *     `ROW(...) = ANY (path)` finds a repeated row even with NULL fields;
 *   - hashing (hash_record): h = h * 31 + field hash, NULL hashing 0;
 *   - arrays of records compare element by element, then by length; hash
 *     h = h * 31 + element hash from 1.
 * Field types without a comparison, equality or hash function raise
 * PostgreSQL's 42883 when one is needed.  Input of an anonymous record
 * is 0A000 as in PostgreSQL; there is no binary format yet.
 *
 * Entry points: tdb_record_construct (the executor's ROW step),
 * tdb_builtins_record (registry.c), and the functions the SEARCH / CYCLE
 * rewrite calls (builtins.h: TDB_RECORD_*).
 */
#include "common/base.h"

#include <ctype.h>
#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "tuple/tupdesc.h" /* MaxTupleAttributeNumber */
#include "tuple/varlena.h"
#include "types/builtin_rows.h"
#include "types/packed.h"
#include "types/textbuf.h"

#define RECORDARRAYOID 2287

typedef struct RecordHeader {
    int32 vl_len_;
    int32 natts;
} RecordHeader;

/* A record's fields, read out (values point into the record). */
typedef struct RecordFields {
    int natts;
    const Oid *types;
    Datum *values;
    const bool *nulls;
} RecordFields;

static const TypeInfo *
field_type(Oid typid)
{
    const TypeInfo *t = tdb_type_lookup(typid);

    if (t == NULL || t->len == -2)
        elog(ERROR, "record field of unsupported type %u", typid);
    return t;
}

/* Where the values start: after the types and NULL flags, at 8. */
static Size
data_offset(int natts)
{
    return MAXALIGN(sizeof(RecordHeader) + (Size)natts * sizeof(Oid) +
                    (Size)natts * sizeof(bool));
}

Datum
tdb_record_construct(int natts, const Oid *types, const Datum *values,
                     const bool *nulls)
{
    Size size;
    char *rec, *p;

    if (natts < 0 || natts > MaxTupleAttributeNumber)
        elog(ERROR, "record of %d fields", natts);
    size = data_offset(natts);
    for (int i = 0; i < natts; i++) {
        const TypeInfo *t = field_type(types[i]);
        const void *v = DatumGetPointer(values[i]);

        if (nulls[i])
            continue;
        if (t->len == -1 && (VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v)))
            elog(ERROR, "toasted value in a record field");
        size = tdb_packed_align(size, t->align) + tdb_packed_size(t, values[i]);
    }
    rec = tdb_palloc0(size);
    SET_VARSIZE(rec, size);
    ((RecordHeader *)rec)->natts = natts;
    memcpy(rec + sizeof(RecordHeader), types, (Size)natts * sizeof(Oid));
    memcpy(rec + sizeof(RecordHeader) + (Size)natts * sizeof(Oid), nulls,
           (Size)natts * sizeof(bool));
    p = rec + data_offset(natts);
    for (int i = 0; i < natts; i++) {
        const TypeInfo *t = field_type(types[i]);

        if (!nulls[i])
            p = tdb_packed_store(
                t, rec + tdb_packed_align((Size)(p - rec), t->align),
                values[i]);
    }
    return PointerGetDatum(rec);
}

/*
 * A record value with a 4-byte header at an 8-byte aligned address: the
 * value itself, or a copy in the current memory context.
 */
static const char *
aligned_value(Datum d)
{
    const char *v = DatumGetPointer(d);
    Size len;
    char *copy;

    if (VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v))
        elog(ERROR, "toasted record value");
    if (!VARATT_IS_SHORT(v) && ((uintptr_t)v & 7) == 0)
        return v;
    len = VARSIZE_ANY_EXHDR(v);
    copy = tdb_palloc(len + VARHDRSZ);
    SET_VARSIZE(copy, len + VARHDRSZ);
    memcpy(copy + VARHDRSZ, VARDATA_ANY(v), len);
    return copy;
}

static RecordFields
record_fields(Datum d)
{
    const char *rec = aligned_value(d);
    RecordFields f;
    Size off;

    f.natts = ((const RecordHeader *)rec)->natts;
    f.types = (const Oid *)(rec + sizeof(RecordHeader));
    f.nulls = (const bool *)(rec + sizeof(RecordHeader) +
                             (Size)f.natts * sizeof(Oid));
    f.values = tdb_palloc0(sizeof(Datum) * (Size)Max(f.natts, 1));
    off = data_offset(f.natts);
    for (int i = 0; i < f.natts; i++) {
        const TypeInfo *t = field_type(f.types[i]);

        if (f.nulls[i])
            continue;
        off = tdb_packed_align(off, t->align);
        f.values[i] = tdb_packed_fetch(t, rec + off);
        off += tdb_packed_size(t, f.values[i]);
    }
    return f;
}

/* ----------------------------------------------------------------------
 * Input and output
 * ---------------------------------------------------------------------- */

static Datum
record_input(const char *str, int32 typmod)
{
    (void)str;
    (void)typmod;
    ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
            errmsg("input of anonymous composite types is not implemented"));
}

/* record_out: "(a,,"b c")" */
static char *
record_output(Datum d)
{
    RecordFields f = record_fields(d);
    TextBuf buf;

    tdb_textbuf_init(&buf, tdb_current_mcxt, 32);
    tdb_textbuf_append(&buf, "(", 1);
    for (int i = 0; i < f.natts; i++) {
        const char *v;
        bool quote;

        if (i > 0)
            tdb_textbuf_append(&buf, ",", 1);
        if (f.nulls[i])
            continue;
        v = tdb_type_output(f.types[i], f.values[i]);
        quote = v[0] == '\0';
        for (const char *c = v; *c != '\0' && !quote; c++)
            quote = strchr("\"\\(),", *c) != NULL || isspace((unsigned char)*c);
        if (!quote) {
            tdb_textbuf_append(&buf, v, strlen(v));
            continue;
        }
        tdb_textbuf_append(&buf, "\"", 1);
        for (const char *c = v; *c != '\0'; c++) {
            if (*c == '"' || *c == '\\')
                tdb_textbuf_append(&buf, c, 1);
            tdb_textbuf_append(&buf, c, 1);
        }
        tdb_textbuf_append(&buf, "\"", 1);
    }
    tdb_textbuf_append(&buf, ")", 1);
    tdb_textbuf_append(&buf, "", 1); /* the C string's end */
    return buf.buf + VARHDRSZ;
}

/* ----------------------------------------------------------------------
 * Comparison, equality, hashing
 * ---------------------------------------------------------------------- */

/* The two records' fields, checked to be comparable. */
static void
comparable_fields(Datum a, Datum b, RecordFields *fa, RecordFields *fb)
{
    *fa = record_fields(a);
    *fb = record_fields(b);
    if (fa->natts != fb->natts)
        ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
                errmsg("cannot compare record types with different numbers "
                       "of columns"));
    for (int i = 0; i < fa->natts; i++)
        if (fa->types[i] != fb->types[i])
            ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
                    errmsg("cannot compare dissimilar column types %s and %s "
                           "at record column %d",
                           tdb_format_type(fa->types[i], -1),
                           tdb_format_type(fb->types[i], -1), i + 1));
}

/*
 * The field type's hash function (hash), equality (eq: its "=" as a
 * boolean function, else its comparison) or comparison; 42883 if it has
 * none.  *is_cmp (eq only): the function returned is a comparison.
 */
static PGFunction
field_function(Oid typid, bool hash, bool eq, bool *is_cmp)
{
    const TypeSupport *s = tdb_type_support(typid);
    PGFunction fn = s == NULL ? NULL : hash ? s->hash : eq ? s->eq : s->cmp;

    if (eq) {
        const OperDesc *op;

        *is_cmp = false;
        if (fn == NULL && (op = tdb_oper_lookup("=", typid, typid)) != NULL)
            fn = op->fn; /* arrays: "=" without support functions */
        if (fn == NULL && s != NULL && s->cmp != NULL) {
            fn = s->cmp; /* equal when the comparison says so */
            *is_cmp = true;
        }
    }
    if (fn == NULL)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_FUNCTION),
                hash ? errmsg("could not identify a hash function for type "
                              "%s",
                              tdb_format_type(typid, -1))
                : eq ? errmsg("could not identify an equality operator for "
                              "type %s",
                              tdb_format_type(typid, -1))
                     : errmsg("could not identify a comparison function for "
                              "type %s",
                              tdb_format_type(typid, -1)));
    return fn;
}

static Datum
call2(PGFunction fn, Datum a, Datum b)
{
    FunctionCallInfoData fcinfo = {0};

    fcinfo.nargs = 2;
    fcinfo.args[0].value = a;
    fcinfo.args[1].value = b;
    return fn(&fcinfo);
}

static int32
compare_records(Datum a, Datum b)
{
    RecordFields fa, fb;

    comparable_fields(a, b, &fa, &fb);
    for (int i = 0; i < fa.natts; i++) {
        int32 c;

        if (fa.nulls[i] || fb.nulls[i]) {
            if (fa.nulls[i] && fb.nulls[i])
                continue;
            return fa.nulls[i] ? 1 : -1; /* NULL sorts last */
        }
        c = DatumGetInt32(call2(field_function(fa.types[i], false, false, NULL),
                                fa.values[i], fb.values[i]));
        if (c != 0)
            return c < 0 ? -1 : 1;
    }
    return 0;
}

static bool
records_equal(Datum a, Datum b)
{
    RecordFields fa, fb;

    comparable_fields(a, b, &fa, &fb);
    for (int i = 0; i < fa.natts; i++) {
        bool is_cmp;
        PGFunction fn;
        Datum r;

        if (fa.nulls[i] || fb.nulls[i]) {
            if (fa.nulls[i] && fb.nulls[i])
                continue;
            return false;
        }
        fn = field_function(fa.types[i], false, true, &is_cmp);
        r = call2(fn, fa.values[i], fb.values[i]);
        if (is_cmp ? DatumGetInt32(r) != 0 : !DatumGetBool(r))
            return false;
    }
    return true;
}

static uint32
hash_record(Datum d)
{
    RecordFields f = record_fields(d);
    uint32 h = 0;

    for (int i = 0; i < f.natts; i++) {
        FunctionCallInfoData fcinfo = {0};
        uint32 eh = 0;

        if (!f.nulls[i]) {
            fcinfo.nargs = 1;
            fcinfo.args[0].value = f.values[i];
            eh = DatumGetUInt32(
                field_function(f.types[i], true, false, NULL)(&fcinfo));
        }
        h = (h << 5) - h + eh;
    }
    return h;
}

static Datum
record_cmp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(compare_records(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)));
}

static Datum
record_hash(PG_FUNCTION_ARGS)
{
    return UInt32GetDatum(hash_record(PG_GETARG_DATUM(0)));
}

static Datum
record_eq(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(records_equal(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)));
}

static Datum
record_ne(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(!records_equal(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)));
}

/* <, <=, >, >= over a comparison of two values */
#define CMP_OP(name_, compare_, test_)                                         \
    static Datum name_(PG_FUNCTION_ARGS)                                       \
    {                                                                          \
        int32 c = compare_(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1));            \
                                                                               \
        PG_RETURN_BOOL(test_);                                                 \
    }
CMP_OP(record_lt, compare_records, c < 0)
CMP_OP(record_le, compare_records, c <= 0)
CMP_OP(record_gt, compare_records, c > 0)
CMP_OP(record_ge, compare_records, c >= 0)

/* ----------------------------------------------------------------------
 * Arrays of records
 * ---------------------------------------------------------------------- */

/* array_cmp over record elements: element by element, then the shorter
 * first (one-dimensional arrays from 1, as tupledb makes them) */
static int32
compare_record_arrays(Datum a, Datum b)
{
    ArrayValues ea = tdb_array_values(a);
    ArrayValues eb = tdb_array_values(b);

    for (int i = 0; i < Min(ea.n, eb.n); i++) {
        int32 c = compare_records(ea.values[i], eb.values[i]);

        if (c != 0)
            return c;
    }
    if (ea.n != eb.n)
        return ea.n < eb.n ? -1 : 1;
    if (ea.n > 0 && ea.lbound != eb.lbound)
        return ea.lbound < eb.lbound ? -1 : 1;
    return 0;
}

static Datum
record_array_cmp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(
        compare_record_arrays(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)));
}

static bool
record_arrays_equal(Datum a, Datum b)
{
    ArrayValues ea = tdb_array_values(a);
    ArrayValues eb = tdb_array_values(b);

    if (ea.n != eb.n || (ea.n > 0 && ea.lbound != eb.lbound))
        return false;
    for (int i = 0; i < ea.n; i++)
        if (!records_equal(ea.values[i], eb.values[i]))
            return false;
    return true;
}

static Datum
record_array_eq(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(record_arrays_equal(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)));
}

static Datum
record_array_ne(PG_FUNCTION_ARGS)
{
    PG_RETURN_BOOL(
        !record_arrays_equal(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)));
}

CMP_OP(record_array_lt, compare_record_arrays, c < 0)
CMP_OP(record_array_le, compare_record_arrays, c <= 0)
CMP_OP(record_array_gt, compare_record_arrays, c > 0)
CMP_OP(record_array_ge, compare_record_arrays, c >= 0)

static Datum
record_array_hash(PG_FUNCTION_ARGS)
{
    ArrayValues e = tdb_array_values(PG_GETARG_DATUM(0));
    uint32 h = 1;

    for (int i = 0; i < e.n; i++)
        h = (h << 5) - h + hash_record(e.values[i]);
    return UInt32GetDatum(h);
}

/* ----------------------------------------------------------------------
 * What the SEARCH / CYCLE rewrite calls
 * ---------------------------------------------------------------------- */

/* ARRAY[row]: the path of the non-recursive term's rows */
static Datum
record_path_start(PG_FUNCTION_ARGS)
{
    Datum row = PointerGetDatum(aligned_value(PG_GETARG_DATUM(0)));

    PG_RETURN_DATUM(tdb_array_construct(RECORDOID, &row, 1, 1));
}

/* path || ARRAY[row]: the path of a row the recursive term made */
static Datum
record_path_append(PG_FUNCTION_ARGS)
{
    ArrayValues e = tdb_array_values(PG_GETARG_DATUM(0));
    Datum *values = tdb_palloc(sizeof(Datum) * (Size)(e.n + 1));

    memcpy(values, e.values, sizeof(Datum) * (Size)e.n);
    values[e.n] = PointerGetDatum(aligned_value(PG_GETARG_DATUM(1)));
    PG_RETURN_DATUM(tdb_array_construct(RECORDOID, values, e.n + 1,
                                        e.n > 0 ? e.lbound : 1));
}

/* row = ANY (path), by record equality (NULL fields equal): is the row
 * in the path already? */
static Datum
record_path_contains(PG_FUNCTION_ARGS)
{
    ArrayValues e = tdb_array_values(PG_GETARG_DATUM(1));

    for (int i = 0; i < e.n; i++)
        if (records_equal(PG_GETARG_DATUM(0), e.values[i]))
            PG_RETURN_BOOL(true);
    PG_RETURN_BOOL(false);
}

/* SEARCH BREADTH FIRST's depth: the ordering record's first field */
static Datum
record_path_depth(PG_FUNCTION_ARGS)
{
    RecordFields f = record_fields(PG_GETARG_DATUM(0));

    if (f.natts < 1 || f.types[0] != INT8OID || f.nulls[0])
        elog(ERROR, "SEARCH BREADTH FIRST ordering record without a depth");
    PG_RETURN_DATUM(f.values[0]);
}

#define RA RECORDARRAYOID

static const FuncDesc record_funcs[] = {
    FUNC(0, TDB_RECORD_PATH_START, record_path_start, RA, 1, RECORDOID),
    FUNC(0, TDB_RECORD_PATH_APPEND, record_path_append, RA, 2, RA, RECORDOID),
    FUNC(0, TDB_RECORD_PATH_CONTAINS, record_path_contains, BOOLOID, 2,
         RECORDOID, RA),
    FUNC(0, TDB_RECORD_PATH_DEPTH, record_path_depth, INT8OID, 1, RECORDOID),
};

static const OperDesc record_opers[] = {
    OPER_ROW(2988, "=", RECORDOID, RECORDOID, BOOLOID, record_eq, "=", "<>",
             true),
    OPER(2989, "<>", RECORDOID, RECORDOID, BOOLOID, record_ne, "<>", "="),
    OPER(2990, "<", RECORDOID, RECORDOID, BOOLOID, record_lt, ">", ">="),
    OPER(2991, ">", RECORDOID, RECORDOID, BOOLOID, record_gt, "<", "<="),
    OPER(2992, "<=", RECORDOID, RECORDOID, BOOLOID, record_le, ">=", ">"),
    OPER(2993, ">=", RECORDOID, RECORDOID, BOOLOID, record_ge, "<=", "<"),
    OPER_ROW(1070, "=", RA, RA, BOOLOID, record_array_eq, "=", "<>", true),
    OPER(1071, "<>", RA, RA, BOOLOID, record_array_ne, "<>", "="),
    OPER(1072, "<", RA, RA, BOOLOID, record_array_lt, ">", ">="),
    OPER(1073, ">", RA, RA, BOOLOID, record_array_gt, "<", "<="),
    OPER(1074, "<=", RA, RA, BOOLOID, record_array_le, ">=", ">"),
    OPER(1075, ">=", RA, RA, BOOLOID, record_array_ge, "<=", "<"),
};

static const TypeSupport record_types[] = {
    {.typid = RECORDOID,
     .input = record_input,
     .output = record_output,
     .cmp = record_cmp,
     .hash = record_hash,
     .eq = record_eq},
    {.typid = RA,
     .input = record_input,
     .output = tdb_array_output,
     .cmp = record_array_cmp,
     .hash = record_array_hash,
     .eq = record_array_eq},
};

const BuiltinSet tdb_builtins_record = {
    .name = "record",
    .funcs = record_funcs,
    .nfuncs = (int)lengthof(record_funcs),
    .opers = record_opers,
    .nopers = (int)lengthof(record_opers),
    .types = record_types,
    .ntypes = (int)lengthof(record_types),
};
