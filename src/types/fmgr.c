/*
 * fmgr.c -- direct calls of built-in functions (fmgr.h): one built-in
 * calling another, and tests, without an expression around them.
 */
#include "common/base.h"

#include "common/elog.h"
#include "toast/detoast.h"
#include "types/fmgr.h"

static Datum
direct_call(PGFunction fn, int nargs, const Datum *args)
{
    FunctionCallInfoData fcinfo = {0};
    Datum result;

    fcinfo.nargs = (int16)nargs;
    for (int i = 0; i < nargs; i++)
        fcinfo.args[i].value = args[i];
    result = fn(&fcinfo);
    if (fcinfo.isnull)
        elog(ERROR, "function returned NULL in a direct call");
    return result;
}

Datum
tdb_direct_call1(PGFunction fn, Datum a1)
{
    return direct_call(fn, 1, &a1);
}

Datum
tdb_direct_call2(PGFunction fn, Datum a1, Datum a2)
{
    Datum args[2] = {a1, a2};

    return direct_call(fn, 2, args);
}

Datum
tdb_direct_call3(PGFunction fn, Datum a1, Datum a2, Datum a3)
{
    Datum args[3] = {a1, a2, a3};

    return direct_call(fn, 3, args);
}

void
tdb_fmgr_detoast_arg(FunctionCallInfo fcinfo, int n, int64 nbytes)
{
    const varlena *v = (const varlena *)PG_GETARG_POINTER(n);

    if (!VARATT_IS_EXTENDED(v))
        return;
    if (nbytes < 0 ||
        (Size)nbytes >= tdb_toast_raw_datum_size(v) - VARHDRSZ)
        v = tdb_detoast(v);
    else
        v = tdb_detoast_slice(v, 0, (int32)nbytes);
    fcinfo->args[n].value = PointerGetDatum(v);
}

Size
tdb_fmgr_arg_raw_len(FunctionCallInfo fcinfo, int n)
{
    const varlena *v = (const varlena *)PG_GETARG_POINTER(n);

    if (!VARATT_IS_EXTENDED(v))
        return VARSIZE_ANY_EXHDR(v);
    return tdb_toast_raw_datum_size(v) - VARHDRSZ;
}

varlena *
tdb_fmgr_arg_slice(FunctionCallInfo fcinfo, int n, Size from, Size to)
{
    const varlena *v = (const varlena *)PG_GETARG_POINTER(n);

    return tdb_detoast_slice(v, (int32)from, (int32)(to - from));
}
