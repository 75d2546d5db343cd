/*
 * typename.h -- resolving type names of the parse tree (typename.c).
 */
#ifndef TDB_PARSER_TYPENAME_H
#define TDB_PARSER_TYPENAME_H

#include "common/base.h"
#include "parser/statement.h"

/*
 * The OID and typmod of tn (a built-in type, optionally qualified with
 * pg_catalog).  Raises 42704 type "x" does not exist, 0A000 for arrays,
 * and PostgreSQL's typmod errors, with the type name's position.
 */
void tdb_sql_resolve_typename(const Statement *st, const PgQuery__TypeName *tn,
                              Oid *typid, int32 *typmod);

#endif /* TDB_PARSER_TYPENAME_H */
