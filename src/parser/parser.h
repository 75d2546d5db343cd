/*
 * parser.h -- SQL text to PostgreSQL parse trees, with libpg_query.
 *
 * libpg_query is PostgreSQL's own grammar as a library; its parse trees
 * come out as protobuf-c structs (pg_query/pg_query.pb-c.h), which the
 * analyzer reads directly.  Syntax errors are PostgreSQL's own messages
 * and cursor positions (42601).
 *
 * libpg_query parses in its own memory contexts; the tree a ParsedScript
 * holds is decoded into the memory context current at tdb_sql_parse, and
 * goes when that context is reset or deleted, so callers treat it like
 * any palloc'd object.  Never free part of it with protobuf-c's
 * free_unpacked: it is not malloc'd.  Any depth of tree may be parsed
 * (parser.c); the functions walking it recursively check the stack.
 */
#ifndef TDB_PARSER_PARSER_H
#define TDB_PARSER_PARSER_H

#include "common/base.h"
#include "mmgr/mcxt.h"

#include <pg_query/pg_query.pb-c.h>

/* One statement of a script. */
typedef struct ParsedStatement {
    PgQuery__Node *stmt; /* the raw parse tree (borrowed from the script) */
    int location;        /* byte offset of the statement in the script */
    int length;          /* its length in bytes (0: to the end) */
} ParsedStatement;

typedef struct ParsedScript {
    const char *text;    /* the script (borrowed) */
    int nstatements;
    ParsedStatement *statements;
    PgQuery__ParseResult *result; /* in the context, like the script */
    int depth; /* levels of messages in the deepest statement */
} ParsedScript;

/*
 * Parse a script of zero or more statements, in the current memory
 * context.  Raises 42601 with PostgreSQL's message and cursor position
 * (errposition, 1-based in characters) on a syntax error, and 54001
 * "stack depth limit exceeded" for a script nested too deep for any
 * stage to take (max_stack_depth, common/stack_depth.h).
 */
ParsedScript *tdb_sql_parse(const char *text);

/*
 * The SQL text of a raw expression (a node of a tree tdb_sql_parse
 * made), as PostgreSQL's deparser prints it (libpg_query's), in the
 * current memory context.  Raises 54001 for an expression too deep for
 * any stage to take, as tdb_sql_parse does.
 */
char *tdb_sql_deparse_raw_expr(PgQuery__Node *expr);

/* The name of a statement's node type, e.g. "SelectStmt" (for messages). */
const char *tdb_sql_node_name(const PgQuery__Node *node);

/*
 * Characters (not bytes) before byte offset `offset` of text, plus one:
 * the 1-based cursor position PostgreSQL reports for an error at that
 * byte.  -1 (no location) gives 0.
 */
int tdb_sql_char_position(const char *text, int offset);

/*
 * Does an identifier need double quotes in SQL text (upper case or other
 * characters, a leading digit, a keyword that is not unreserved)?
 */
bool tdb_sql_ident_needs_quotes(const char *ident);

#endif /* TDB_PARSER_PARSER_H */
