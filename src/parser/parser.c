/*
 * parser.c -- libpg_query as tupledb's parser (parser.h).
 *
 * pg_query_parse_protobuf parses the whole script; the protobuf bytes
 * are unpacked into C structs with protobuf-c's generated unpacker,
 * allocating from the caller's memory context (tdb_sql_pb_allocator):
 * the tree lives and dies with that context, so an error anywhere later
 * unwinds to the statement boundary, which resets the context, and
 * nothing leaks.  (The tree used to be malloc'd and freed by a reset
 * callback; protobuf-c's free_unpacked walks every field descriptor of
 * every node -- a Node has one per node type -- which cost ~6% of the
 * server's CPU on a 10-row SELECT through the simple protocol.)
 */
#include "common/base.h"

#include <pg_query.h>
#include <stdio.h>
#include <string.h>

#include "common/elog.h"
#include "parser/parser.h"

/* protobuf-c's allocation hooks over a memory context (allocator_data). */
static void *
pb_alloc(void *allocator_data, size_t size)
{
    /* NULL on OOM: protobuf-c then fails cleanly and the caller raises */
    return tdb_mcxt_alloc_extended(allocator_data, size > 0 ? size : 1,
                                   MCXT_ALLOC_NO_OOM);
}

static void
pb_free(void *allocator_data, void *pointer)
{
    /* the context's reset frees everything at once */
    (void)allocator_data;
    (void)pointer;
}

ProtobufCAllocator
tdb_sql_pb_allocator(MemoryContext cxt)
{
    ProtobufCAllocator allocator = {
        .alloc = pb_alloc, .free = pb_free, .allocator_data = cxt};

    return allocator;
}

int
tdb_sql_char_position(const char *text, int offset)
{
    int chars = 0;

    if (offset < 0)
        return 0;
    for (int i = 0; i < offset && text[i] != '\0'; i++)
        if (((unsigned char)text[i] & 0xC0) != 0x80)
            chars++;
    return chars + 1;
}

/*
 * libpg_query reports the grammar's message but not its HINT; the few
 * grammar errors PostgreSQL gives a hint are listed here.
 */
static const char *
grammar_hint(const char *message)
{
    static const struct {
        const char *message;
        const char *hint;
    } hints[] = {
        {"subquery in FROM must have an alias",
         "For example, FROM (SELECT ...) [AS] foo."},
        {"VALUES in FROM must have an alias",
         "For example, FROM (VALUES ...) [AS] foo."},
    };

    for (Size i = 0; i < sizeof(hints) / sizeof(hints[0]); i++)
        if (strcmp(message, hints[i].message) == 0)
            return hints[i].hint;
    return NULL;
}

/*
 * libpg_query reports no SQLSTATE.  Its errors are the grammar's and the
 * scanner's (42601), except the scanner's check of what an escape string
 * (E'\xff', E'\000') decoded to, which is PostgreSQL's encoding error
 * (22021, and no position, as the scanner gives none).
 */
static int
grammar_errcode(const char *message)
{
    static const char encoding_error[] = "invalid byte sequence for encoding";

    if (strncmp(message, encoding_error, sizeof(encoding_error) - 1) == 0)
        return ERRCODE_CHARACTER_NOT_IN_REPERTOIRE;
    return ERRCODE_SYNTAX_ERROR;
}

ParsedScript *
tdb_sql_parse(const char *text)
{
    PgQueryProtobufParseResult parsed = pg_query_parse_protobuf(text);
    ProtobufCAllocator allocator;
    ParsedScript *script;
    PgQuery__ParseResult *result;

    if (parsed.error != NULL) {
        char message[ERRMSG_MAX];
        int cursor = parsed.error->cursorpos;
        const char *hint = grammar_hint(parsed.error->message);

        /* copy what we report: the result is freed before raising */
        snprintf(message, sizeof(message), "%s", parsed.error->message);
        pg_query_free_protobuf_parse_result(parsed);
        ereport(ERROR, errcode(grammar_errcode(message)), errmsg("%s", message),
                hint != NULL ? errhint("%s", hint) : 0, errposition(cursor));
    }
    allocator = tdb_sql_pb_allocator(tdb_current_mcxt);
    result = pg_query__parse_result__unpack(
        &allocator, parsed.parse_tree.len,
        (const uint8_t *)parsed.parse_tree.data);
    pg_query_free_protobuf_parse_result(parsed);
    if (result == NULL)
        elog(ERROR, "could not unpack the parse tree");

    script = tdb_palloc(sizeof(ParsedScript));
    script->text = text;
    script->result = result;
    script->nstatements = (int)result->n_stmts;
    script->statements =
        tdb_palloc(sizeof(ParsedStatement) * (Size)Max(1, result->n_stmts));
    for (size_t i = 0; i < result->n_stmts; i++) {
        script->statements[i].stmt = result->stmts[i]->stmt;
        script->statements[i].location = result->stmts[i]->stmt_location;
        script->statements[i].length = result->stmts[i]->stmt_len;
    }
    return script;
}

const char *
tdb_sql_node_name(const PgQuery__Node *node)
{
    const ProtobufCFieldDescriptor *field;

    if (node == NULL || node->node_case == PG_QUERY__NODE__NODE__NOT_SET)
        return "(none)";
    field = protobuf_c_message_descriptor_get_field(
        &pg_query__node__descriptor, (unsigned)node->node_case);
    return field != NULL ? field->name : "(unknown)";
}

/*
 * Does ident need double quotes to read back as itself?  Yes unless it
 * is lower-case letters, digits and underscores (not starting with a
 * digit) and not a keyword other than an unreserved one -- PostgreSQL's
 * quote_identifier rule; the keyword kind comes from libpg_query's
 * scanner.
 */
bool
tdb_sql_ident_needs_quotes(const char *ident)
{
    PgQueryScanResult scan;
    PgQuery__ScanResult *tokens;
    bool quote;

    if (ident[0] == '\0' || (ident[0] >= '0' && ident[0] <= '9'))
        return true;
    for (const char *c = ident; *c != '\0'; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
              *c == '_'))
            return true;
    scan = pg_query_scan(ident);
    quote = true;
    if (scan.error == NULL) {
        tokens = pg_query__scan_result__unpack(
            NULL, scan.pbuf.len, (const uint8_t *)scan.pbuf.data);
        if (tokens != NULL) {
            quote = tokens->n_tokens != 1 ||
                    tokens->tokens[0]->keyword_kind >
                        PG_QUERY__KEYWORD_KIND__UNRESERVED_KEYWORD;
            pg_query__scan_result__free_unpacked(tokens, NULL);
        }
    }
    pg_query_free_scan_result(scan);
    return quote;
}
