/*
 * fmgr.c -- direct calls of built-in functions (fmgr.h): one built-in
 * calling another, and tests, without an expression around them.
 */
#include "common/base.h"

#include "common/elog.h"
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
