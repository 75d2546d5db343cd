/*
 * numutils.h -- text <-> integer conversions with PostgreSQL's input
 * rules and messages, shared by the integer types and anything else
 * that parses an integer from SQL text.
 */
#ifndef TDB_TYPES_NUMUTILS_H
#define TDB_TYPES_NUMUTILS_H

#include "common/base.h"

/*
 * Parse str as a decimal integer in [min, max], PostgreSQL 15's way:
 * optional leading and trailing whitespace, an optional sign, at least
 * one digit, nothing else.  typname is the SQL name used in messages
 * ("integer", "smallint", "bigint").  Raises 22P02
 * `invalid input syntax for type integer: "x"` or 22003
 * `value "x" is out of range for type integer` (as soon as the digits
 * read so far exceed the range, as PostgreSQL does).
 */
int64 tdb_parse_int64(const char *str, int64 min, int64 max,
                      const char *typname);

/* v in decimal, palloc'd in the current memory context. */
char *tdb_int64_to_cstring(int64 v);

#endif /* TDB_TYPES_NUMUTILS_H */
