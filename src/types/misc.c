/*
 * misc.c -- set-returning functions over integers: generate_series(start,
 * stop [, step]) for int4 and int8.
 *
 * Protocol (builtins.h, SRFCallContext): the executor calls the function
 * once per row; the first call (call_no 0) sets up the state in
 * multi_call_mcxt; a call that has no row left sets is_done.  The
 * series stops before a value would overflow instead of raising, as in
 * PostgreSQL: generate_series(2147483646, 2147483647) is two rows.
 *
 * Also format_type and pg_size_pretty, which psql's describe commands
 * call.
 *
 * Entry point: tdb_builtins_misc (registry.c).
 */
#include "common/base.h"

#include <stdio.h>

#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "toast/detoast.h"
#include "tuple/varlena.h"
#include "types/builtin_rows.h"

typedef struct SeriesState {
    int64 current;
    int64 stop;
    int64 step;
    int64 min, max; /* the result type's range */
    bool exhausted; /* the next value would overflow */
} SeriesState;

/* Argument n of an int4 (is_int4) or int8 series, widened. */
static int64
series_arg(FunctionCallInfo fcinfo, int n, bool is_int4)
{
    return is_int4 ? PG_GETARG_INT32(n) : PG_GETARG_INT64(n);
}

/*
 * The next row of generate_series(start, stop[, step]) over int4
 * (is_int4) or int8 into *value; false (and is_done set) when the
 * series is over.  Raises 22023 for a zero step.
 */
static bool
series_next(FunctionCallInfo fcinfo, bool is_int4, int64 *value)
{
    SRFCallContext *srf = fcinfo->context;
    SeriesState *st = srf->state;

    if (srf->call_no == 0 || st == NULL) {
        int64 step = PG_NARGS() == 3 ? series_arg(fcinfo, 2, is_int4) : 1;

        if (step == 0)
            ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("step size cannot equal zero"));
        st = tdb_mcxt_alloc(srf->multi_call_mcxt, sizeof(SeriesState));
        st->current = series_arg(fcinfo, 0, is_int4);
        st->stop = series_arg(fcinfo, 1, is_int4);
        st->step = step;
        st->min = is_int4 ? INT32_MIN : INT64_MIN;
        st->max = is_int4 ? INT32_MAX : INT64_MAX;
        st->exhausted = false;
        srf->state = st;
    }
    if (st->exhausted || (st->step > 0 && st->current > st->stop) ||
        (st->step < 0 && st->current < st->stop)) {
        srf->is_done = true;
        return false;
    }
    *value = st->current;
    if (__builtin_add_overflow(st->current, st->step, &st->current) ||
        st->current < st->min || st->current > st->max)
        st->exhausted = true;
    return true;
}

static Datum
generate_series_int4(PG_FUNCTION_ARGS)
{
    int64 value = 0;

    if (!series_next(fcinfo, true, &value))
        PG_RETURN_NULL();
    PG_RETURN_INT32((int32)value);
}

static Datum
generate_series_int8(PG_FUNCTION_ARGS)
{
    int64 value = 0;

    if (!series_next(fcinfo, false, &value))
        PG_RETURN_NULL();
    PG_RETURN_INT64(value);
}

#define SRF(oid_, fn_, type_, nargs_, ...)                                     \
    {                                                                          \
        .oid = (oid_), .name = "generate_series", .rettype = (type_),          \
        .nargs = (nargs_), .argtypes = {__VA_ARGS__}, .strict = true,          \
        .retset = true, .volatility = PROVOLATILE_IMMUTABLE, .fn = (fn_)       \
    }

/*
 * format_type(type oid, typmod int4): the type's SQL name (psql's \gdesc
 * asks for it).  Not strict, as in PostgreSQL: a NULL typmod means none,
 * a NULL type gives NULL.
 */
static Datum
format_type_fn(PG_FUNCTION_ARGS)
{
    int32 typmod = PG_ARGISNULL(1) ? -1 : PG_GETARG_INT32(1);

    if (PG_ARGISNULL(0))
        PG_RETURN_NULL();
    PG_RETURN_POINTER(
        tdb_text_from_cstring(tdb_format_type(PG_GETARG_OID(0), typmod)));
}

/*
 * pg_size_pretty(bigint): a byte count in the largest unit (bytes, kB,
 * MB, GB, TB, PB; 1024 apart) that keeps it below 10240 bytes or 20480
 * of a larger unit, rounded half away from zero, as PostgreSQL 15 prints
 * it.  Each step divides by 1024, keeping one extra bit before the first
 * rounded unit so that the rounding sees it.
 */
static Datum
pg_size_pretty_int8(PG_FUNCTION_ARGS)
{
    static const char *const units[] = {"bytes", "kB", "MB", "GB", "TB",
                                        "PB"};
    int64 size = PG_GETARG_INT64(0);
    char buf[64];

    for (int u = 0;; u++) {
        bool last = u == (int)lengthof(units) - 1;
        int64 limit = u == 0 ? 10 * 1024 : 20 * 1024 - 1;
        int64 magnitude = size < 0 ? -size : size;

        if (last || magnitude < limit) {
            if (u > 0) /* half_rounded: the extra bit decides */
                size = (size + (size < 0 ? -1 : 1)) / 2;
            snprintf(buf, sizeof(buf), "%lld %s", (long long)size, units[u]);
            break;
        }
        /* 10 bits per unit; the step into kB keeps a rounding bit */
        size /= (int64)1 << (u == 0 ? 9 : 10);
    }
    PG_RETURN_POINTER(tdb_text_from_cstring(buf));
}

/*
 * pg_column_size(any): the bytes the value takes where it is stored --
 * an out-of-line value's stored (possibly compressed) size, a compressed
 * value's compressed size.  Toast-aware: nothing is detoasted.
 */
static Datum
pg_column_size(PG_FUNCTION_ARGS)
{
    const TypeInfo *type =
        tdb_type_lookup(tdb_fn_expr_argtype(fcinfo->flinfo, 0));
    Datum value = PG_GETARG_DATUM(0);

    if (type == NULL || type->len == -1)
        PG_RETURN_INT32((int32)tdb_toast_datum_size(
            (const varlena *)DatumGetPointer(value)));
    if (type->len == -2)
        PG_RETURN_INT32((int32)strlen(DatumGetPointer(value)) + 1);
    PG_RETURN_INT32(type->len);
}

/* pg_column_compression(any): "pglz" or "lz4" for a compressed value
 * (inline or out of line), else NULL.  Toast-aware. */
static Datum
pg_column_compression(PG_FUNCTION_ARGS)
{
    const TypeInfo *type =
        tdb_type_lookup(tdb_fn_expr_argtype(fcinfo->flinfo, 0));
    const varlena *v = (const varlena *)PG_GETARG_POINTER(0);
    ToastCompressionId method;

    if (type != NULL && type->len != -1)
        PG_RETURN_NULL();
    if (VARATT_IS_EXTERNAL_ONDISK(v)) {
        varatt_external ptr;

        tdb_toast_pointer_get(v, &ptr);
        if (!VARATT_EXTERNAL_IS_COMPRESSED(&ptr))
            PG_RETURN_NULL();
        method = VARATT_EXTERNAL_GET_COMPRESS_METHOD(&ptr);
    } else if (VARATT_IS_COMPRESSED(v))
        method = VARDATA_COMPRESSED_GET_COMPRESS_METHOD(v);
    else
        PG_RETURN_NULL();
    PG_RETURN_POINTER(tdb_text_from_cstring(
        method == TOAST_LZ4_COMPRESSION_ID ? "lz4" : "pglz"));
}

static const FuncDesc misc_funcs[] = {
    {.oid = 1269, .name = "pg_column_size", .rettype = INT4OID, .nargs = 1,
     .argtypes = {ANYOID}, .strict = true, .retset = false,
     .volatility = PROVOLATILE_STABLE, .fn = pg_column_size,
     .toast_aware = true},
    {.oid = 2121, .name = "pg_column_compression", .rettype = TEXTOID,
     .nargs = 1, .argtypes = {ANYOID}, .strict = true, .retset = false,
     .volatility = PROVOLATILE_STABLE, .fn = pg_column_compression,
     .toast_aware = true},
    FUNC(3166, "pg_size_pretty", pg_size_pretty_int8, TEXTOID, 1, INT8OID),
    {.oid = 1081, .name = "format_type", .rettype = TEXTOID, .nargs = 2,
     .argtypes = {OIDOID, INT4OID}, .strict = false, .retset = false,
     .volatility = PROVOLATILE_STABLE, .fn = format_type_fn},
    SRF(1067, generate_series_int4, INT4OID, 2, INT4OID, INT4OID),
    SRF(1066, generate_series_int4, INT4OID, 3, INT4OID, INT4OID, INT4OID),
    SRF(1069, generate_series_int8, INT8OID, 2, INT8OID, INT8OID),
    SRF(1068, generate_series_int8, INT8OID, 3, INT8OID, INT8OID, INT8OID),
};

const BuiltinSet tdb_builtins_misc = {
    .name = "misc",
    .funcs = misc_funcs,
    .nfuncs = (int)lengthof(misc_funcs),
};
