/*
 * sendrecv.h -- inside the types layer: the binary wire formats
 * (sendrecv.c) that the families' TypeSupport rows list as .send / .recv.
 */
#ifndef TDB_TYPES_SENDRECV_H
#define TDB_TYPES_SENDRECV_H

#include "common/base.h"
#include "types/builtins.h"

#define TDB_SENDRECV(name)                                                     \
    char *tdb_##name##_send(Datum value, int *len);                            \
    Datum tdb_##name##_recv(const char *buf, int len)

TDB_SENDRECV(bool);
TDB_SENDRECV(char);
TDB_SENDRECV(int2);
TDB_SENDRECV(int4);
TDB_SENDRECV(int8);
TDB_SENDRECV(oid);
TDB_SENDRECV(float4);
TDB_SENDRECV(float8);
TDB_SENDRECV(text);
TDB_SENDRECV(varchar);
TDB_SENDRECV(bpchar);
TDB_SENDRECV(name);
TDB_SENDRECV(bytea);
TDB_SENDRECV(uuid);
TDB_SENDRECV(numeric);
TDB_SENDRECV(date);
TDB_SENDRECV(time);
TDB_SENDRECV(timestamp);
TDB_SENDRECV(interval);

#endif /* TDB_TYPES_SENDRECV_H */
