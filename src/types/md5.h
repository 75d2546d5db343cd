/*
 * md5.h -- the MD5 message digest (RFC 1321), for SQL's md5().
 */
#ifndef TDB_TYPES_MD5_H
#define TDB_TYPES_MD5_H

#include "common/base.h"

/* The digest of data[0..len) as 32 lowercase hex digits and a NUL. */
void tdb_md5_hex(const void *data, Size len, char hex[33]);

#endif /* TDB_TYPES_MD5_H */
