/*
 * fmgr.h -- how built-in SQL functions are called (PostgreSQL's
 * "version-1" calling convention, trimmed).
 *
 * Every SQL-callable function -- operator implementations, casts,
 * aggregate transition and final functions, ordinary functions -- has
 * the signature
 *
 *     Datum fn(FunctionCallInfo fcinfo)
 *
 * It reads its arguments from fcinfo->args[i] (value and isnull), sets
 * fcinfo->isnull if its result is NULL, and returns the result Datum.
 * A *strict* function (FuncDesc.strict) is never called with a NULL
 * argument: the caller (the expression interpreter) returns NULL
 * instead, so strict functions need not look at args[i].isnull.
 *
 * By-reference results are allocated in the current memory context,
 * which the executor resets per row (or per group for aggregates): a
 * function never frees what it returns.  Errors are raised with ereport
 * (22003 out of range, 22012 division by zero, 22P02 bad input, ...).
 *
 * fcinfo->flinfo gives the function's descriptor and fn_extra, a pointer
 * the function may use to cache state across calls of the same call site
 * (allocated in flinfo->fn_mcxt, which lives as long as the plan).
 * Aggregate transition functions also get fcinfo->context (an
 * AggCallContext, see builtins.h) for memory that lives per group.
 */
#ifndef TDB_TYPES_FMGR_H
#define TDB_TYPES_FMGR_H

#include "common/base.h"
#include "mmgr/mcxt.h"
#include "tuple/datum.h"
#include "tuple/varlena.h"

/* The most arguments a built-in function takes (PostgreSQL: 100). */
#define FUNC_MAX_ARGS 8

typedef struct FunctionCallInfoData *FunctionCallInfo;
typedef Datum (*PGFunction)(FunctionCallInfo fcinfo);

struct FuncDesc; /* builtins.h */

/* A call site's view of the function it calls. */
typedef struct FmgrInfo {
    const struct FuncDesc *fn_desc; /* what is called */
    PGFunction fn_addr;             /* == fn_desc->fn */
    void *fn_extra;                 /* the function's per-call-site cache */
    MemoryContext fn_mcxt;          /* where fn_extra lives */
    Oid fn_expr_rettype;            /* the call's result type (for
                                     * polymorphic functions) */
    int32 fn_expr_rettypmod;
    /*
     * The call's actual argument types, for functions declared with
     * "any" arguments (concat, concat_ws, text || anynonarray), which
     * must know how to print what they were given.  Filled by whoever
     * sets up the call; InvalidOid where unknown.
     */
    Oid fn_expr_argtypes[FUNC_MAX_ARGS];
    /*
     * The call passed its variadic arguments as one array (concat(VARIADIC
     * arr)): a function declared VARIADIC "any" finds them in the array
     * that is its last argument (PostgreSQL's get_fn_expr_variadic).
     */
    bool fn_expr_variadic;
} FmgrInfo;

/* The actual type of argument argno of the call, or InvalidOid. */
static inline Oid
tdb_fn_expr_argtype(const FmgrInfo *flinfo, int argno)
{
    if (flinfo == NULL || argno < 0 || argno >= FUNC_MAX_ARGS)
        return InvalidOid;
    return flinfo->fn_expr_argtypes[argno];
}

typedef struct NullableDatum {
    Datum value;
    bool isnull;
} NullableDatum;

typedef struct FunctionCallInfoData {
    FmgrInfo *flinfo;
    void *context;  /* AggCallContext for aggregate support functions */
    bool isnull;    /* out: the result is NULL */
    int16 nargs;
    NullableDatum args[FUNC_MAX_ARGS];
} FunctionCallInfoData;

/* ----- argument and result helpers (PostgreSQL's names) ----- */

#define PG_FUNCTION_ARGS FunctionCallInfo fcinfo
#define PG_NARGS() (fcinfo->nargs)
#define PG_ARGISNULL(n) (fcinfo->args[n].isnull)
#define PG_GETARG_DATUM(n) (fcinfo->args[n].value)
#define PG_GETARG_BOOL(n) DatumGetBool(PG_GETARG_DATUM(n))
#define PG_GETARG_CHAR(n) DatumGetChar(PG_GETARG_DATUM(n))
#define PG_GETARG_INT16(n) DatumGetInt16(PG_GETARG_DATUM(n))
#define PG_GETARG_INT32(n) DatumGetInt32(PG_GETARG_DATUM(n))
#define PG_GETARG_INT64(n) DatumGetInt64(PG_GETARG_DATUM(n))
#define PG_GETARG_OID(n) DatumGetObjectId(PG_GETARG_DATUM(n))
#define PG_GETARG_FLOAT8(n) DatumGetFloat8(PG_GETARG_DATUM(n))
#define PG_GETARG_POINTER(n) DatumGetPointer(PG_GETARG_DATUM(n))
/* A varlena argument; may have a short header (use VARDATA_ANY). */
#define PG_GETARG_VARLENA_P(n) ((varlena *)PG_GETARG_POINTER(n))

#define PG_RETURN_DATUM(x) return (x)
#define PG_RETURN_NULL()                                                    \
    do {                                                                    \
        fcinfo->isnull = true;                                              \
        return (Datum)0;                                                    \
    } while (0)
#define PG_RETURN_BOOL(x) return BoolGetDatum(x)
#define PG_RETURN_CHAR(x) return CharGetDatum(x)
#define PG_RETURN_INT16(x) return Int16GetDatum(x)
#define PG_RETURN_INT32(x) return Int32GetDatum(x)
#define PG_RETURN_INT64(x) return Int64GetDatum(x)
#define PG_RETURN_OID(x) return ObjectIdGetDatum(x)
#define PG_RETURN_FLOAT8(x) return Float8GetDatum(x)
#define PG_RETURN_POINTER(x) return PointerGetDatum(x)

/*
 * For a toast-aware function (FuncDesc.toast_aware), whose varlena
 * arguments arrive as stored: make argument n an inline uncompressed
 * value holding at least its first nbytes data bytes (nbytes < 0: all of
 * it).  An uncompressed external value is read only as far as needed.
 */
void tdb_fmgr_detoast_arg(FunctionCallInfo fcinfo, int n, int64 nbytes);

/* Data size of argument n once detoasted, without detoasting it. */
Size tdb_fmgr_arg_raw_len(FunctionCallInfo fcinfo, int n);

/*
 * Bytes [from, to) of argument n's data as a new plain value, reading
 * only the chunks covering them from an uncompressed external value.
 */
varlena *tdb_fmgr_arg_slice(FunctionCallInfo fcinfo, int n, Size from,
                            Size to);

/*
 * Call fn directly with the given arguments, none NULL (for one built-in
 * calling another, and for tests); raises if fn returns NULL.
 */
Datum tdb_direct_call1(PGFunction fn, Datum a1);
Datum tdb_direct_call2(PGFunction fn, Datum a1, Datum a2);
Datum tdb_direct_call3(PGFunction fn, Datum a1, Datum a2, Datum a3);

#endif /* TDB_TYPES_FMGR_H */
