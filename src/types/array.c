/*
 * array.c -- one-dimensional arrays of a few element types, as far as
 * PostgreSQL's catalog queries use them (psql's \d asks pg_policy,
 * pg_statistic_ext and pg_publication with them, and \d+ joins a
 * table's reloptions into text).
 *
 * Types: text[], name[], oid[], "char"[], int2[], int4[] and int2vector (an
 * int2 array numbered from 0, printed space-separated); and record[], the
 * paths of WITH RECURSIVE's SEARCH / CYCLE (record.c compares them).  Arrays
 * are values in queries only, never table columns.  The layout is PostgreSQL's
 * ArrayType:
 *
 *   int32 varlena header | int32 ndim (0 or 1) | int32 dataoffset (0:
 *   no null bitmap) | Oid elemtype | int32 dims[ndim] | int32
 *   lbound[ndim] | padding to 8 | elements, each aligned to the element
 *   type's typalign, variable-length ones with 4-byte headers
 *
 * NULL elements are not supported (22004-free: 0A000 where one would
 * appear).  What is here: input ('{a,"b c"}', '{}'), output, =,
 * binary send/receive (PostgreSQL's array_send format),
 * || (array_cat, not strict: NULL || a is a), array_to_string, unnest,
 * array_upper, subscripting (the analyzer calls the "array subscript"
 * function for a[i]) and ARRAY(subquery) (tdb_array_construct, used by
 * the executor).  x op ANY / ALL (array) is a ScalarArrayOpExpr
 * (parser/parse_expr.c; executor/exec_interp.c compares the elements) and
 * ARRAY[...] an ArrayExpr (tdb_array_construct).
 *
 * Entry point: tdb_builtins_array (registry.c).
 */
#include "common/base.h"

#include <ctype.h>
#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "tuple/varlena.h"
#include "types/builtin_rows.h"
#include "types/packed.h"
#include "types/textbuf.h"

/* TextBuf as a C string builder in the current memory context */
static void
sb_init(TextBuf *tb)
{
    tdb_textbuf_init(tb, tdb_current_mcxt, 32);
}

static char *
sb_cstring(TextBuf *tb)
{
    tdb_textbuf_append(tb, "", 1);
    tb->len--;
    return tb->buf + VARHDRSZ;
}

typedef struct ArrayHeader {
    int32 vl_len_;
    int32 ndim;
    int32 dataoffset;
    Oid elemtype;
} ArrayHeader;

#define ARR_DIMS(a) ((int32 *)((char *)(a) + sizeof(ArrayHeader)))
#define ARR_LBOUND(a) (ARR_DIMS(a) + ((const ArrayHeader *)(a))->ndim)
#define ARR_OVERHEAD(ndim) \
    MAXALIGN(sizeof(ArrayHeader) + 2 * sizeof(int32) * (Size)(ndim))

/* An array's elements, read out (values point into the array). */
typedef struct ArrayElems {
    Oid elemtype;
    int n;
    int lbound;
    Datum *values;
} ArrayElems;

Size
tdb_packed_align(Size off, char align)
{
    Size a = align == 'd' ? 8 : align == 'i' ? 4 : align == 's' ? 2 : 1;

    return (off + a - 1) & ~(a - 1);
}

Size
tdb_packed_size(const TypeInfo *t, Datum v)
{
    if (t->len > 0)
        return (Size)t->len;
    return VARSIZE_ANY_EXHDR(DatumGetPointer(v)) + VARHDRSZ;
}

char *
tdb_packed_store(const TypeInfo *t, char *p, Datum v)
{
    if (t->byval)
        switch (t->len) {
        case 1:
            *p = DatumGetChar(v);
            break;
        case 2:
            memcpy(p, &(int16){DatumGetInt16(v)}, 2);
            break;
        case 4:
            memcpy(p, &(int32){DatumGetInt32(v)}, 4);
            break;
        default:
            memcpy(p, &(int64){DatumGetInt64(v)}, 8);
        }
    else if (t->len > 0)
        memcpy(p, DatumGetPointer(v), (Size)t->len);
    else {
        const void *src = DatumGetPointer(v);
        Size len = VARSIZE_ANY_EXHDR(src);

        SET_VARSIZE(p, len + VARHDRSZ);
        memcpy(p + VARHDRSZ, VARDATA_ANY(src), len);
    }
    return p + tdb_packed_size(t, PointerGetDatum(p));
}

Datum
tdb_packed_fetch(const TypeInfo *t, const char *p)
{
    if (!t->byval)
        return PointerGetDatum(p);
    return tdb_fetch_byval(p, t->len);
}

static const TypeInfo *
elem_info(Oid elemtype)
{
    const TypeInfo *t = tdb_type_lookup(elemtype);

    if (t == NULL)
        elog(ERROR, "array of unknown type %u", elemtype);
    return t;
}

Datum
tdb_array_construct(Oid elemtype, const Datum *values, int n, int lbound)
{
    const TypeInfo *t = elem_info(elemtype);
    int ndim = n > 0 ? 1 : 0;
    Size size = ARR_OVERHEAD(ndim);
    char *arr, *p;

    for (int i = 0; i < n; i++)
        size = tdb_packed_align(size, t->align) + tdb_packed_size(t, values[i]);
    arr = tdb_palloc0(size);
    SET_VARSIZE(arr, size);
    ((ArrayHeader *)arr)->ndim = ndim;
    ((ArrayHeader *)arr)->dataoffset = 0;
    ((ArrayHeader *)arr)->elemtype = elemtype;
    if (ndim == 1) {
        ARR_DIMS(arr)[0] = n;
        ARR_LBOUND(arr)[0] = lbound;
    }
    p = arr + ARR_OVERHEAD(ndim);
    for (int i = 0; i < n; i++)
        p = tdb_packed_store(
            t, arr + tdb_packed_align((Size)(p - arr), t->align), values[i]);
    return PointerGetDatum(arr);
}

static ArrayElems
deconstruct(Datum d)
{
    const char *arr = DatumGetPointer(d);
    const ArrayHeader *h;
    const TypeInfo *t;
    ArrayElems e;
    Size off;

    if (VARATT_IS_SHORT(arr) || ((uintptr_t)arr & 7) != 0) {
        /* from inside a tuple (a 1-byte header, or at an offset aligned
         * less than the elements' offsets assume): an aligned copy */
        Size len = VARSIZE_ANY_EXHDR(arr);
        char *copy = tdb_palloc(len + VARHDRSZ);

        SET_VARSIZE(copy, len + VARHDRSZ);
        memcpy(copy + VARHDRSZ, VARDATA_ANY(arr), len);
        arr = copy;
    }
    h = (const ArrayHeader *)arr;
    if (h->ndim > 1 || h->dataoffset != 0)
        elog(ERROR, "unexpected array layout");
    t = elem_info(h->elemtype);
    e.elemtype = h->elemtype;
    e.n = h->ndim == 1 ? ARR_DIMS(arr)[0] : 0;
    e.lbound = h->ndim == 1 ? ARR_LBOUND(arr)[0] : 1;
    e.values = tdb_palloc(sizeof(Datum) * (Size)Max(e.n, 1));
    off = ARR_OVERHEAD(h->ndim);
    for (int i = 0; i < e.n; i++) {
        off = tdb_packed_align(off, t->align);
        e.values[i] = tdb_packed_fetch(t, arr + off);
        off += tdb_packed_size(t, e.values[i]);
    }
    return e;
}

ArrayValues
tdb_array_values(Datum array)
{
    ArrayElems e = deconstruct(array);
    ArrayValues v = {e.elemtype, e.n, e.lbound, e.values};

    return v;
}

/* ----------------------------------------------------------------------
 * Input and output
 * ---------------------------------------------------------------------- */

static void
array_syntax_error(const char *str, const char *detail)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
            errmsg("malformed array literal: \"%s\"", str),
            errdetail("%s", detail));
}

/*
 * '{a, "b c", d}' of elemtype: elements separated by commas, quoted
 * ("...", backslash escapes) or not (surrounding white space dropped).
 * An unquoted NULL is a NULL element: not supported yet.
 */
static Datum
array_input(const char *str, Oid elemtype, int lbound)
{
    const char *p = str;
    Datum *values;
    int n = 0, max = 8;
    TextBuf item;

    while (isspace((unsigned char)*p))
        p++;
    if (*p != '{')
        array_syntax_error(str, "Array value must start with \"{\" or "
                                "dimension information.");
    p++;
    values = tdb_palloc(sizeof(Datum) * (Size)max);
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '}')
        p++;
    else
        for (;;) {
            bool quoted = false;
            Size trailing = 0;

            sb_init(&item);
            while (isspace((unsigned char)*p))
                p++;
            if (*p == '"') {
                quoted = true;
                for (p++; *p != '"'; p++) {
                    if (*p == '\\' && p[1] != '\0')
                        p++;
                    if (*p == '\0')
                        array_syntax_error(str, "Unexpected end of input.");
                    tdb_textbuf_append(&item, p, 1);
                }
                p++;
                while (isspace((unsigned char)*p))
                    p++;
            } else
                for (; *p != ',' && *p != '}'; p++) {
                    if (*p == '\0')
                        array_syntax_error(str, "Unexpected end of input.");
                    if (*p == '{' || *p == '"')
                        array_syntax_error(str, "Unexpected array element.");
                    if (*p == '\\' && p[1] != '\0')
                        p++;
                    trailing = isspace((unsigned char)*p) ? trailing + 1 : 0;
                    tdb_textbuf_append(&item, p, 1);
                }
            if (*p == '\0')
                array_syntax_error(str, "Unexpected end of input.");
            if (*p != ',' && *p != '}')
                array_syntax_error(str, "Unexpected array element.");
            item.len -= trailing;
            if (!quoted && item.len == 0)
                array_syntax_error(str, "Unexpected \"}\" character.");
            if (!quoted && strcasecmp(sb_cstring(&item), "NULL") == 0)
                ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("arrays with NULL elements are not "
                               "supported yet"));
            if (n == max) {
                max *= 2;
                values = tdb_repalloc(values, sizeof(Datum) * (Size)max);
            }
            values[n++] = tdb_type_input(elemtype, sb_cstring(&item),
                                         -1);
            if (*p++ == '}')
                break;
        }
    while (isspace((unsigned char)*p))
        p++;
    if (*p != '\0')
        array_syntax_error(str, "Junk after closing right brace.");
    return tdb_array_construct(elemtype, values, n, lbound);
}

/* an element as array_out writes it: quoted when it must be */
static void
append_element(TextBuf *buf, const char *v)
{
    bool quote = v[0] == '\0' || strcasecmp(v, "NULL") == 0;

    for (const char *c = v; *c != '\0' && !quote; c++)
        quote = strchr("{},\"\\", *c) != NULL || isspace((unsigned char)*c);
    if (!quote) {
        tdb_textbuf_append(buf, v, strlen(v));
        return;
    }
    tdb_textbuf_append(buf, "\"", 1);
    for (const char *c = v; *c != '\0'; c++) {
        if (*c == '"' || *c == '\\')
            tdb_textbuf_append(buf, "\\", 1);
        tdb_textbuf_append(buf, c, 1);
    }
    tdb_textbuf_append(buf, "\"", 1);
}

char *
tdb_array_output(Datum d)
{
    ArrayElems e = deconstruct(d);
    TextBuf buf;

    sb_init(&buf);
    if (e.n > 0 && e.lbound != 1) {
        char dims[48];
        int len = snprintf(dims, sizeof(dims), "[%d:%d]=", e.lbound,
                           e.lbound + e.n - 1);

        tdb_textbuf_append(&buf, dims, (Size)len);
    }
    tdb_textbuf_append(&buf, "{", 1);
    for (int i = 0; i < e.n; i++) {
        if (i > 0)
            tdb_textbuf_append(&buf, ",", 1);
        append_element(&buf, tdb_type_output(e.elemtype, e.values[i]));
    }
    tdb_textbuf_append(&buf, "}", 1);
    return sb_cstring(&buf);
}

/* int2vector: "1 2 3", numbered from 0 */
static Datum
int2vector_input(const char *str, int32 typmod)
{
    Datum *values = tdb_palloc(sizeof(Datum) * (strlen(str) / 2 + 1));
    int n = 0;
    const char *p = str;

    (void)typmod;
    for (;;) {
        char num[16];
        Size len = 0;

        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0')
            break;
        while (*p != '\0' && !isspace((unsigned char)*p) && len < 15)
            num[len++] = *p++;
        num[len] = '\0';
        values[n++] = tdb_type_input(INT2OID, num, -1);
    }
    return tdb_array_construct(INT2OID, values, n, 0);
}

static char *
int2vector_output(Datum d)
{
    ArrayElems e = deconstruct(d);
    TextBuf buf;

    sb_init(&buf);
    for (int i = 0; i < e.n; i++) {
        char *v = tdb_type_output(INT2OID, e.values[i]);

        if (i > 0)
            tdb_textbuf_append(&buf, " ", 1);
        tdb_textbuf_append(&buf, v, strlen(v));
    }
    return sb_cstring(&buf);
}

#define ARRAY_IO(name_, elem_)                                              \
    static Datum name_##_array_input(const char *str, int32 typmod)         \
    {                                                                       \
        (void)typmod;                                                       \
        return array_input(str, (elem_), 1);                                \
    }
ARRAY_IO(text, TEXTOID)
ARRAY_IO(name, NAMEOID)
ARRAY_IO(oid, OIDOID)
ARRAY_IO(char, CHAROID)
ARRAY_IO(int2, INT2OID)
ARRAY_IO(int4, INT4OID)

/* ----------------------------------------------------------------------
 * Binary format (array_send / array_recv): int32 ndim, int32 "has
 * NULLs" flag, Oid element type, per dimension int32 length and lower
 * bound, then each element as int32 length (-1: NULL) and its type's
 * binary form; all big-endian.
 * ---------------------------------------------------------------------- */

static void
put_int32(TextBuf *buf, int32 v)
{
    uint32 u = (uint32)v;
    char b[4] = {(char)(u >> 24), (char)(u >> 16), (char)(u >> 8), (char)u};

    tdb_textbuf_append(buf, b, 4);
}

static int32
get_int32(const char **p, const char *end)
{
    const unsigned char *u = (const unsigned char *)*p;

    if (end - *p < 4)
        ereport(ERROR, errcode(ERRCODE_PROTOCOL_VIOLATION),
                errmsg("insufficient data left in message"));
    *p += 4;
    return (int32)((uint32)u[0] << 24 | (uint32)u[1] << 16 |
                   (uint32)u[2] << 8 | (uint32)u[3]);
}

static char *
array_send(Datum value, int *len)
{
    ArrayElems e = deconstruct(value);
    TextBuf buf;

    sb_init(&buf);
    put_int32(&buf, e.n > 0 ? 1 : 0);
    put_int32(&buf, 0); /* no NULL elements */
    put_int32(&buf, (int32)e.elemtype);
    if (e.n > 0) {
        put_int32(&buf, e.n);
        put_int32(&buf, e.lbound);
    }
    for (int i = 0; i < e.n; i++) {
        int elen;
        char *data = tdb_type_send(e.elemtype, e.values[i], &elen);

        put_int32(&buf, elen);
        tdb_textbuf_append(&buf, data, (Size)elen);
    }
    *len = (int)buf.len;
    return buf.buf + VARHDRSZ;
}

/* An array of elemtype from its binary form; *lbound_out: its lower
 * bound (1 for an empty array). */
static Datum
array_recv(const char *buf, int len, Oid elemtype, int *lbound_out)
{
    const char *p = buf, *end = buf + len;
    int32 ndim = get_int32(&p, end);
    int32 flags = get_int32(&p, end);
    Oid got = (Oid)get_int32(&p, end);
    int32 n = 0, lbound = 1;
    Datum *values;

    if (ndim < 0 || ndim > 6)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid number of dimensions: %d", ndim));
    if (flags != 0 && flags != 1)
        ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                errmsg("invalid array flags"));
    if (got != elemtype)
        ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
                errmsg("binary data has array element type %u (%s) instead "
                       "of expected %u (%s)",
                       got, tdb_format_type(got, -1), elemtype,
                       tdb_format_type(elemtype, -1)));
    if (ndim > 1)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("multidimensional arrays are not supported yet"));
    if (ndim == 1) {
        n = get_int32(&p, end);
        lbound = get_int32(&p, end);
        if (n < 0 || n > (end - p) / 4)
            ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                    errmsg("array size exceeds the maximum allowed"));
    }
    values = tdb_palloc(sizeof(Datum) * (Size)Max(n, 1));
    for (int i = 0; i < n; i++) {
        int32 elen = get_int32(&p, end);

        if (elen == -1)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("NULL array elements are not supported yet"));
        if (elen < 0 || elen > end - p)
            ereport(ERROR, errcode(ERRCODE_PROTOCOL_VIOLATION),
                    errmsg("insufficient data left in message"));
        values[i] = tdb_type_receive(elemtype, p, elen);
        p += elen;
    }
    if (p != end)
        ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                errmsg("incorrect binary data format in array element"));
    *lbound_out = lbound;
    return tdb_array_construct(elemtype, values, n, lbound);
}

#define ARRAY_RECV(name_, elem_)                                            \
    static Datum name_##_array_recv(const char *buf, int len)               \
    {                                                                       \
        int lbound;                                                         \
                                                                            \
        return array_recv(buf, len, (elem_), &lbound);                      \
    }
ARRAY_RECV(text, TEXTOID)
ARRAY_RECV(name, NAMEOID)
ARRAY_RECV(oid, OIDOID)
ARRAY_RECV(char, CHAROID)
ARRAY_RECV(int2, INT2OID)
ARRAY_RECV(int4, INT4OID)

/* int2vector: an int2 array numbered from 0 (PostgreSQL's int2vectorrecv
 * checks just that) */
static Datum
int2vector_recv(const char *buf, int len)
{
    int lbound;
    Datum v = array_recv(buf, len, INT2OID, &lbound);

    if (deconstruct(v).n > 0 && lbound != 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid int2vector data"));
    return v;
}

/* ----------------------------------------------------------------------
 * Functions and operators
 * ---------------------------------------------------------------------- */

/* element equality: by bytes (the element types here compare so:
 * integers, "char", oid, and text/name in the "C" collation) */
static bool
elems_equal(const TypeInfo *t, Datum a, Datum b)
{
    if (t->byval)
        return a == b;
    if (t->len > 0)
        return memcmp(DatumGetPointer(a), DatumGetPointer(b),
                      (Size)t->len) == 0;
    return VARSIZE_ANY_EXHDR(DatumGetPointer(a)) ==
               VARSIZE_ANY_EXHDR(DatumGetPointer(b)) &&
           memcmp(VARDATA_ANY(DatumGetPointer(a)),
                  VARDATA_ANY(DatumGetPointer(b)),
                  VARSIZE_ANY_EXHDR(DatumGetPointer(a))) == 0;
}

/* a = b: same element type, bounds and elements */
static Datum
array_eq(PG_FUNCTION_ARGS)
{
    ArrayElems a = deconstruct(PG_GETARG_DATUM(0));
    ArrayElems b = deconstruct(PG_GETARG_DATUM(1));
    const TypeInfo *t = elem_info(a.elemtype);

    if (a.n != b.n || (a.n > 0 && a.lbound != b.lbound))
        PG_RETURN_BOOL(false);
    for (int i = 0; i < a.n; i++)
        if (!elems_equal(t, a.values[i], b.values[i]))
            PG_RETURN_BOOL(false);
    PG_RETURN_BOOL(true);
}

/* a || b: the elements of both; a NULL side gives the other */
static Datum
array_cat(PG_FUNCTION_ARGS)
{
    ArrayElems a, b;
    Datum *values;

    if (PG_ARGISNULL(0) && PG_ARGISNULL(1))
        PG_RETURN_NULL();
    if (PG_ARGISNULL(0))
        PG_RETURN_DATUM(PG_GETARG_DATUM(1));
    if (PG_ARGISNULL(1))
        PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    a = deconstruct(PG_GETARG_DATUM(0));
    b = deconstruct(PG_GETARG_DATUM(1));
    if (a.n == 0)
        PG_RETURN_DATUM(PG_GETARG_DATUM(1));
    if (b.n == 0)
        PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    values = tdb_palloc(sizeof(Datum) * (Size)(a.n + b.n));
    memcpy(values, a.values, sizeof(Datum) * (Size)a.n);
    memcpy(values + a.n, b.values, sizeof(Datum) * (Size)b.n);
    PG_RETURN_DATUM(
        tdb_array_construct(a.elemtype, values, a.n + b.n, a.lbound));
}

/* array_to_string(a, sep): the elements' text joined by sep */
static Datum
array_to_string(PG_FUNCTION_ARGS)
{
    ArrayElems e = deconstruct(PG_GETARG_DATUM(0));
    const varlena *sep = PG_GETARG_VARLENA_P(1);
    TextBuf buf;

    sb_init(&buf);
    for (int i = 0; i < e.n; i++) {
        char *v = tdb_type_output(e.elemtype, e.values[i]);

        if (i > 0)
            tdb_textbuf_append(&buf, VARDATA_ANY(sep), VARSIZE_ANY_EXHDR(sep));
        tdb_textbuf_append(&buf, v, strlen(v));
    }
    PG_RETURN_POINTER(tdb_textbuf_finish(&buf));
}

/* array_upper(a, dim): the upper bound, NULL without that dimension */
static Datum
array_upper(PG_FUNCTION_ARGS)
{
    ArrayElems e = deconstruct(PG_GETARG_DATUM(0));

    if (PG_GETARG_INT32(1) != 1 || e.n == 0)
        PG_RETURN_NULL();
    PG_RETURN_INT32(e.lbound + e.n - 1);
}

/* a[i]: NULL outside the bounds, as in PostgreSQL */
static Datum
array_subscript(PG_FUNCTION_ARGS)
{
    ArrayElems e = deconstruct(PG_GETARG_DATUM(0));
    int i = PG_GETARG_INT32(1) - e.lbound;
    const TypeInfo *t = elem_info(e.elemtype);
    Datum v;

    if (i < 0 || i >= e.n)
        PG_RETURN_NULL();
    v = e.values[i];
    if (!t->byval) { /* a copy: the result outlives the array */
        Size size = tdb_packed_size(t, v);
        void *copy = tdb_palloc(size);

        memcpy(copy, DatumGetPointer(v), size);
        v = PointerGetDatum(copy);
    }
    PG_RETURN_DATUM(v);
}

typedef struct UnnestState {
    ArrayElems elems;
    int next;
} UnnestState;

/* unnest(a): one row per element */
static Datum
array_unnest(PG_FUNCTION_ARGS)
{
    SRFCallContext *srf = fcinfo->context;
    UnnestState *st = srf->state;

    if (srf->call_no == 0 || st == NULL) {
        MemoryContext old = tdb_mcxt_switch_to(srf->multi_call_mcxt);
        const void *arr = DatumGetPointer(PG_GETARG_DATUM(0));
        void *copy = tdb_palloc(VARSIZE_ANY(arr));

        memcpy(copy, arr, VARSIZE_ANY(arr));
        st = tdb_palloc(sizeof(UnnestState));
        st->elems = deconstruct(PointerGetDatum(copy));
        st->next = 0;
        srf->state = st;
        tdb_mcxt_switch_to(old);
    }
    if (st->next >= st->elems.n) {
        srf->is_done = true;
        PG_RETURN_NULL();
    }
    PG_RETURN_DATUM(st->elems.values[st->next++]);
}

#define TA 1009
#define NA 1003
#define OA 1028
#define CA 1002
#define SA 1005
#define I2V 22
#define IA 1007
#define RA 2287 /* record[]: SEARCH / CYCLE paths (record.c) */

#define ARRAY_FUNCS(arr_, elem_)                                            \
    FUNC_V(395, "array_to_string", array_to_string, PROVOLATILE_STABLE,     \
           TEXTOID, 2, arr_, TEXTOID),                                      \
        FUNC_SRF(2331, "unnest", array_unnest, elem_, 1, arr_),             \
        FUNC(2092, "array_upper", array_upper, INT4OID, 2, arr_, INT4OID),  \
        FUNC(0, "array subscript", array_subscript, elem_, 2, arr_, INT4OID)

static const FuncDesc array_funcs[] = {
    ARRAY_FUNCS(TA, TEXTOID),
    ARRAY_FUNCS(NA, NAMEOID),
    ARRAY_FUNCS(OA, OIDOID),
    ARRAY_FUNCS(CA, CHAROID),
    ARRAY_FUNCS(SA, INT2OID),
    ARRAY_FUNCS(I2V, INT2OID),
    ARRAY_FUNCS(IA, INT4OID),
    /* record[]: no unnest (FROM would need a column definition list) */
    FUNC_V(395, "array_to_string", array_to_string, PROVOLATILE_STABLE, TEXTOID,
           2, RA, TEXTOID),
    FUNC(2092, "array_upper", array_upper, INT4OID, 2, RA, INT4OID),
    FUNC(0, "array subscript", array_subscript, RECORDOID, 2, RA, INT4OID),
};

#define ARRAY_CAT(arr_)                                                     \
    {                                                                       \
        .oid = 375, .name = "||", .left = (arr_), .right = (arr_),          \
        .result = (arr_), .fn = array_cat, .strict = false,                 \
        .commutator = NULL, .negator = NULL, .is_equality = false,          \
        .volatility = PROVOLATILE_IMMUTABLE                                 \
    }

static const OperDesc array_opers[] = {
    OPER_ROW(1070, "=", TA, TA, BOOLOID, array_eq, "=", NULL, false),
    OPER_ROW(1070, "=", NA, NA, BOOLOID, array_eq, "=", NULL, false),
    OPER_ROW(1070, "=", OA, OA, BOOLOID, array_eq, "=", NULL, false),
    OPER_ROW(1070, "=", CA, CA, BOOLOID, array_eq, "=", NULL, false),
    OPER_ROW(1070, "=", SA, SA, BOOLOID, array_eq, "=", NULL, false),
    OPER_ROW(1070, "=", IA, IA, BOOLOID, array_eq, "=", NULL, false),
    ARRAY_CAT(TA),
    ARRAY_CAT(NA),
    ARRAY_CAT(OA),
    ARRAY_CAT(CA),
    ARRAY_CAT(SA),
    ARRAY_CAT(IA),
    ARRAY_CAT(RA),
};

static const CastDesc array_casts[] = {
    CAST_BINARY(I2V, SA, CAST_IMPLICIT),
    CASTS_INOUT_TO_STRINGS(TA),
    CASTS_INOUT_TO_STRINGS(NA),
    CASTS_INOUT_TO_STRINGS(OA),
    CASTS_INOUT_TO_STRINGS(CA),
    CASTS_INOUT_TO_STRINGS(SA),
    CASTS_INOUT_TO_STRINGS(IA),
    CASTS_INOUT_FROM_STRINGS(TA),
    CASTS_INOUT_FROM_STRINGS(NA),
    CASTS_INOUT_FROM_STRINGS(OA),
    CASTS_INOUT_FROM_STRINGS(CA),
    CASTS_INOUT_FROM_STRINGS(SA),
    CASTS_INOUT_FROM_STRINGS(IA),
};

static const TypeSupport array_types[] = {
    {.typid = TA,
     .input = text_array_input,
     .output = tdb_array_output,
     .send = array_send,
     .recv = text_array_recv},
    {.typid = NA,
     .input = name_array_input,
     .output = tdb_array_output,
     .send = array_send,
     .recv = name_array_recv},
    {.typid = OA,
     .input = oid_array_input,
     .output = tdb_array_output,
     .send = array_send,
     .recv = oid_array_recv},
    {.typid = CA,
     .input = char_array_input,
     .output = tdb_array_output,
     .send = array_send,
     .recv = char_array_recv},
    {.typid = SA,
     .input = int2_array_input,
     .output = tdb_array_output,
     .send = array_send,
     .recv = int2_array_recv},
    {.typid = IA,
     .input = int4_array_input,
     .output = tdb_array_output,
     .send = array_send,
     .recv = int4_array_recv},
    {.typid = I2V,
     .input = int2vector_input,
     .output = int2vector_output,
     .send = array_send,
     .recv = int2vector_recv},
};

const BuiltinSet tdb_builtins_array = {
    .name = "array",
    .funcs = array_funcs,
    .nfuncs = (int)lengthof(array_funcs),
    .opers = array_opers,
    .nopers = (int)lengthof(array_opers),
    .casts = array_casts,
    .ncasts = (int)lengthof(array_casts),
    .types = array_types,
    .ntypes = (int)lengthof(array_types),
};
