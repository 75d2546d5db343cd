/*
 * datum.h -- Datum, the machine word every SQL value travels in.
 *
 * A Datum holds a by-value type's value (bool, int2/4/8, float4/8, oid,
 * date, timestamp, ...) directly, or a pointer to a by-reference value
 * (varlena, uuid, name, ...).  Values fetched from a tuple are
 * sign-extended from their width (so a stored oid above 2^31 reads back
 * with its high bits set); only the low attlen bytes are significant, and
 * the DatumGet* functions read just those.
 * 64-bit only: int8 and float8 are by value.
 */
#ifndef TDB_TUPLE_DATUM_H
#define TDB_TUPLE_DATUM_H

#include "common/base.h"

#include <string.h>

typedef uintptr_t Datum;

_Static_assert(sizeof(Datum) == 8, "Datum must be 8 bytes");

static inline bool DatumGetBool(Datum d) { return d != 0; }
static inline Datum BoolGetDatum(bool b) { return (Datum)(b ? 1 : 0); }
static inline char DatumGetChar(Datum d) { return (char)d; }
static inline Datum CharGetDatum(char c) { return (Datum)(int64)c; }
static inline int16 DatumGetInt16(Datum d) { return (int16)d; }
static inline Datum Int16GetDatum(int16 v) { return (Datum)(int64)v; }
static inline int32 DatumGetInt32(Datum d) { return (int32)d; }
static inline Datum Int32GetDatum(int32 v) { return (Datum)(int64)v; }
static inline uint32 DatumGetUInt32(Datum d) { return (uint32)d; }
static inline Datum UInt32GetDatum(uint32 v) { return (Datum)v; }
static inline Oid DatumGetObjectId(Datum d) { return (Oid)d; }
static inline Datum ObjectIdGetDatum(Oid v) { return (Datum)v; }
static inline int64 DatumGetInt64(Datum d) { return (int64)d; }
static inline Datum Int64GetDatum(int64 v) { return (Datum)v; }
static inline void *DatumGetPointer(Datum d) { return (void *)d; }
static inline Datum PointerGetDatum(const void *p) { return (Datum)p; }

static inline float
DatumGetFloat4(Datum d)
{
    uint32 bits = (uint32)d;
    float f;

    memcpy(&f, &bits, sizeof(f));
    return f;
}

/* Sign-extended like every 4-byte value fetched from a tuple. */
static inline Datum
Float4GetDatum(float f)
{
    int32 bits;

    memcpy(&bits, &f, sizeof(bits));
    return (Datum)(int64)bits;
}

static inline double
DatumGetFloat8(Datum d)
{
    double f;

    memcpy(&f, &d, sizeof(f));
    return f;
}

static inline Datum
Float8GetDatum(double f)
{
    Datum d;

    memcpy(&d, &f, sizeof(d));
    return d;
}

/*
 * The Datum of a by-value value of len bytes (1, 2, 4 or 8) stored at p,
 * which need not be aligned; ints sign-extended, as the *GetDatum
 * functions make them.  (heaptuple.c's deformer keeps its own copy,
 * specialised by column.)
 */
static inline Datum
tdb_fetch_byval(const char *p, int len)
{
    switch (len) {
    case 1:
        return CharGetDatum(*p);
    case 2: {
        int16 v;

        memcpy(&v, p, 2);
        return Int16GetDatum(v);
    }
    case 4: {
        int32 v;

        memcpy(&v, p, 4);
        return Int32GetDatum(v);
    }
    default: {
        int64 v;

        memcpy(&v, p, 8);
        return Int64GetDatum(v);
    }
    }
}

#endif /* TDB_TUPLE_DATUM_H */
