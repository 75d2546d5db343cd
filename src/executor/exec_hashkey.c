/*
 * exec_hashkey.c -- grouping keys of SQL types for the compact tuple hash
 * table (tuplehash.h), which knows byte layouts but no types: per key
 * column, the TupleHashKeyColumn the table is created with, and the hash
 * of a whole key.
 *
 * Equality.  tuplehash compares keys bytewise unless a column carries an
 * equality function, and bytewise comparison is what makes its keys cheap
 * (a bare fixed-width key is one load or memcmp; a general key is a length
 * word and memcmp, no deforming).  So a column gets the type's equality
 * operator only where equal values may have different bytes:
 *
 *   numeric    1.0 = 1.00 (different scales)
 *   float4/8   -0 = 0, and every NaN equals every other
 *   interval   '1 day' = '24 hours'
 *   bpchar     trailing spaces do not count
 *   name       bytes after the terminating NUL are not compared
 *   others     not known to be bytewise: the operator, to be safe
 *
 * The bytewise types (whitelisted below) are those whose equality
 * operator compares the whole datum: bool, "char", int2/4/8, oid and the
 * reg* types, date, time, timestamp[tz], uuid, bytea, text and varchar
 * (tupledb's collations are all deterministic).  Keeping the list
 * explicit means a new type is correct (if slower) until someone checks.
 *
 * Hash.  Each column's hash is the type's hash function (hash support 1,
 * so equal values hash equally even when their bytes differ); columns are
 * combined as PostgreSQL's TupleHashTableHash does (rotate left one bit,
 * xor the column's hash; a NULL contributes nothing) and the result is
 * mixed once more (PostgreSQL's hash_bytes_uint32; PostgreSQL uses
 * murmur3's finalizer there), because tuplehash takes bucket numbers from
 * the low bits and rotated column hashes leave them poorly spread.  Two
 * keys that differ only in where a NULL sits may collide; tuplehash's
 * equality tells them apart.
 *
 * TOAST.  tuplehash requires varlena values detoasted.  tupledb has no
 * TOAST yet, so a compressed or external value here is a bug and raises an
 * internal error; detoasting (into the caller's per-row memory) goes in
 * tdb_exec_hashkey_hash when TOAST lands.
 */
#include "common/base.h"

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/exec_int.h"
#include "tuple/varlena.h"
#include "types/hashfn.h"

/* A non-bytewise column's equality: its operator, with a reusable call. */
typedef struct KeyEquality {
    PGFunction fn;
    FunctionCallInfoData fcinfo;
} KeyEquality;

struct HashKeyInfo {
    int ncols;
    TupleHashKeyColumn *cols;
    PGFunction *hash_fns;        /* per column: the type's hash */
    bool *is_varlena;            /* per column: check for TOAST */
    FunctionCallInfoData fcinfo; /* the hash calls */
};

/* Does the type's "=" compare the datum's bytes (see the header)? */
static bool
equality_is_bytewise(Oid type)
{
    switch (type) {
    case BOOLOID:
    case CHAROID:
    case INT2OID:
    case INT4OID:
    case INT8OID:
    case OIDOID:
    case REGCLASSOID:
    case REGTYPEOID:
    case REGNAMESPACEOID:
    case DATEOID:
    case TIMEOID:
    case TIMESTAMPOID:
    case TIMESTAMPTZOID:
    case UUIDOID:
    case BYTEAOID:
    case TEXTOID:
    case VARCHAROID:
        return true;
    default:
        return false;
    }
}

static bool
call_equality(Datum a, Datum b, void *arg)
{
    KeyEquality *eq = arg;

    eq->fcinfo.isnull = false;
    eq->fcinfo.nargs = 2;
    eq->fcinfo.args[0].value = a;
    eq->fcinfo.args[0].isnull = false;
    eq->fcinfo.args[1].value = b;
    eq->fcinfo.args[1].isnull = false;
    return DatumGetBool(eq->fn(&eq->fcinfo));
}

HashKeyInfo *
tdb_exec_hashkey_init(TupleDesc desc, const int *cols, int ncols,
                      const OperDesc *const *eq_ops)
{
    HashKeyInfo *info = tdb_palloc0(sizeof(HashKeyInfo));

    info->ncols = ncols;
    info->cols = tdb_palloc0(sizeof(TupleHashKeyColumn) * (Size)Max(1, ncols));
    info->hash_fns = tdb_palloc0(sizeof(PGFunction) * (Size)Max(1, ncols));
    info->is_varlena = tdb_palloc0(sizeof(bool) * (Size)Max(1, ncols));
    for (int k = 0; k < ncols; k++) {
        const TupleAttr *att = TupleDescAttr(desc, cols[k] - 1);
        const TypeSupport *support = tdb_type_support(att->atttypid);
        TupleHashKeyColumn *col = &info->cols[k];

        if (support == NULL || support->hash == NULL)
            elog(ERROR, "could not find a hash function for type %u",
                 att->atttypid);
        if (att->attlen < 0 && att->attlen != -1)
            elog(ERROR, "cannot hash a value of type %u", att->atttypid);
        info->hash_fns[k] = support->hash;
        info->is_varlena[k] = att->attlen == -1;
        col->typlen = att->attlen;
        col->typbyval = att->attbyval;
        col->typalign = TupleDescCompactAttr(desc, cols[k] - 1)->attalignby;
        if (!equality_is_bytewise(att->atttypid)) {
            KeyEquality *eq = tdb_palloc0(sizeof(KeyEquality));

            eq->fn = eq_ops != NULL && eq_ops[k] != NULL ? eq_ops[k]->fn
                                                         : support->eq;
            if (eq->fn == NULL)
                elog(ERROR, "could not find an equality function for type %u",
                     att->atttypid);
            col->equal = call_equality;
            col->equal_arg = eq;
        }
    }
    return info;
}

const TupleHashKeyColumn *
tdb_exec_hashkey_columns(const HashKeyInfo *info)
{
    return info->cols;
}

/* rotate left by one bit */
static inline uint32
rotl1(uint32 h)
{
    return (h << 1) | (h >> 31);
}

uint32
tdb_exec_hashkey_hash(HashKeyInfo *info, const Datum *values,
                      const bool *isnull)
{
    FunctionCallInfoData *fcinfo = &info->fcinfo;
    uint32 h = 0;

    for (int k = 0; k < info->ncols; k++) {
        h = rotl1(h);
        if (isnull != NULL && isnull[k])
            continue;
        if (info->is_varlena[k]) {
            const void *p = DatumGetPointer(values[k]);

            if (VARATT_IS_EXTERNAL(p) || VARATT_IS_4B_C(p))
                elog(ERROR, "cannot hash a toasted value");
        }
        fcinfo->isnull = false;
        fcinfo->nargs = 1;
        fcinfo->args[0].value = values[k];
        fcinfo->args[0].isnull = false;
        h ^= DatumGetUInt32(info->hash_fns[k](fcinfo));
    }
    return tdb_hash_uint32(h);
}
