/*
 * parser.c -- libpg_query as tupledb's parser (parser.h).
 *
 * pg_query_parse_protobuf parses the whole script with PostgreSQL's
 * grammar and serializes the tree as protobuf bytes; pbtree.c decodes
 * them into protobuf-c's structs in the caller's memory context, so the
 * tree lives and dies with that context: an error anywhere later unwinds
 * to the statement boundary, which resets the context, and nothing leaks.
 * (The tree used to be malloc'd and freed by a reset callback;
 * protobuf-c's free_unpacked walks every field descriptor of every node
 * -- a Node has one per node type -- which cost ~6% of the server's CPU
 * on a 10-row SELECT through the simple protocol.)
 *
 * Deep statements.  The tree is as deep as the statement is nested
 * (`SELECT 1+1+...+1` with 10,000 terms: 20,000 levels), and the library
 * serializes it recursively, about 180 bytes of stack a level, where no
 * check of ours can reach.  So before the call, parse_depth.c bounds the
 * depth from the text's tokens, and the parse runs where that much stack
 * is free: on the caller's stack when it has room (every ordinary
 * statement), else on a fresh stack made for the call
 * (common/stack_depth.h).  A bound so large that no statement that deep
 * could be analyzed within max_stack_depth is refused at once with
 * PostgreSQL's 54001 (after the grammar alone has had its say, as
 * PostgreSQL reports a syntax error before that), so nobody makes the
 * library build a million-level tree.  Decoding uses no recursion
 * (pbtree.c), and the analyzer's recursion checks the stack depth.
 */
#include "common/base.h"

#include <pg_query.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/elog.h"
#include "common/stack_depth.h"
#include "parser/parse_int.h"
#include "parser/parser.h"

int
tdb_sql_char_position(const char *sql, int offset)
{
    int chars = 0;

    if (offset < 0)
        return 0;
    for (int i = 0; i < offset && sql[i] != '\0'; i++)
        if (((unsigned char)sql[i] & 0xC0) != 0x80)
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

/*
 * Stack for libpg_query's recursion per level of the tree it serializes
 * (its outfuncs, protobuf-c's get_packed_size and pack: 176 bytes
 * measured), with margin; and what the parse uses outside that recursion
 * (a 4 kB buffer for stderr, bison's first stacks, the pack's frames).
 */
#define LIBRARY_STACK_PER_LEVEL 256
#define LIBRARY_STACK_BASE ((Size)64 * 1024)

/*
 * The grammar alone (no tree serialized) recurses only to find an error's
 * position in an expression (exprLocation, down the left operands).
 */
#define GRAMMAR_STACK_PER_LEVEL 128

/*
 * A text whose tree may be deeper than max_stack_depth / this many bytes
 * is refused (54001) without building the tree.  Analysis needs ten times
 * that stack per level, so no such statement could run, even with a
 * bound as loose as a long chain of parenthesized set operations gets
 * (about 25 per level): the deepest of those PostgreSQL runs at its
 * default 2MB, 7,232 UNION ALLs, is bound at 188,000 of the 262,144.
 */
#define STACK_BYTES_PER_LEVEL_MIN 8

/*
 * Stack for libpg_query's deparse, per level of the tree: protobuf-c's
 * unpack of it (960 bytes measured), then the readfuncs and the deparser,
 * with margin.  Its depth is known, and held to max_stack_depth / this
 * many bytes: twice what PostgreSQL itself runs at its default 2MB
 * (13,056 casts, 26,000 levels).
 */
#define DEPARSE_STACK_PER_LEVEL 1280
#define DEPARSE_STACK_BYTES_PER_LEVEL_MIN 64

typedef struct LibraryCall {
    const char *sql;
    PgQueryProtobufParseResult parsed;
    PgQuerySplitResult split;
    const ProtobufCMessage *tree; /* to deparse */
    PgQueryDeparseResult deparsed;
    bool no_memory;
} LibraryCall;

static void
call_parse(void *arg)
{
    LibraryCall *call = arg;

    call->parsed = pg_query_parse_protobuf(call->sql);
}

static void
call_split(void *arg)
{
    LibraryCall *call = arg;

    call->split = pg_query_split_with_parser(call->sql);
}

/* Pack call->tree and deparse it (protobuf-c's pack recurses too). */
static void
call_deparse(void *arg)
{
    LibraryCall *call = arg;
    PgQueryProtobuf pbuf;

    pbuf.len = protobuf_c_message_get_packed_size(call->tree);
    /* malloc: no memory context on a fresh stack's thread */
    pbuf.data = malloc(pbuf.len > 0 ? pbuf.len : 1);
    if (pbuf.data == NULL) {
        call->no_memory = true;
        return;
    }
    protobuf_c_message_pack(call->tree, (uint8_t *)pbuf.data);
    call->deparsed = pg_query_deparse_protobuf(pbuf);
    free(pbuf.data);
}

/*
 * fn(arg) where at least need bytes of stack are free: here, or on a
 * fresh stack (common/stack_depth.h).  fn must not raise.
 */
static void
run_with_stack(Size need, void (*fn)(void *arg), void *arg)
{
    int rc;

    if (need <= tdb_stack_room()) {
        fn(arg);
        return;
    }
    rc = tdb_stack_run(need, fn, arg);
    if (rc != 0)
        ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"),
                errdetail("Failed on request of a stack of %zu kB to parse "
                          "the statement: %s.",
                          need / 1024, strerror(rc)));
}

/* Raise the grammar's error (the caller frees the result first). */
static TDB_NORETURN void
syntax_error(const char *message, int cursor)
{
    const char *hint = grammar_hint(message);

    ereport(ERROR, errcode(grammar_errcode(message)), errmsg("%s", message),
            hint != NULL ? errhint("%s", hint) : 0, errposition(cursor));
}

/*
 * sql's tree would be too deep for any stage to take: raise the
 * grammar's error if it has one, as PostgreSQL's raw parse comes first,
 * else 54001.
 */
static TDB_NORETURN void
too_deep(const char *sql, Size bound)
{
    LibraryCall call = {.sql = sql};
    char message[ERRMSG_MAX];
    int cursor;

    run_with_stack(LIBRARY_STACK_BASE + bound * GRAMMAR_STACK_PER_LEVEL,
                   call_split, &call);
    if (call.split.error == NULL) {
        pg_query_free_split_result(call.split);
        tdb_stack_depth_error();
    }
    snprintf(message, sizeof(message), "%s", call.split.error->message);
    cursor = call.split.error->cursorpos;
    pg_query_free_split_result(call.split);
    syntax_error(message, cursor);
}

/*
 * libpg_query's parse of sql, given the stack its recursion needs: an
 * upper bound of the tree's depth (parse_depth.c) says how much.
 */
static PgQueryProtobufParseResult
library_parse(const char *sql)
{
    LibraryCall call = {.sql = sql};
    Size bound;

    if (!tdb_sql_depth_bound(sql, &bound)) {
        /* brackets beyond the grammar's stack: it fails before any
         * tree exists */
        call_parse(&call);
        return call.parsed;
    }
    if (bound > tdb_stack_depth_limit() / STACK_BYTES_PER_LEVEL_MIN)
        too_deep(sql, bound);
    run_with_stack(LIBRARY_STACK_BASE + bound * LIBRARY_STACK_PER_LEVEL,
                   call_parse, &call);
    return call.parsed;
}

/*
 * Could sql hold an identifier of NAMEDATALEN bytes or more?  A cheap
 * look at the text before asking the scanner: a run that long of
 * identifier characters, or of anything between double quotes.
 */
static bool
may_hold_long_identifier(const char *sql)
{
    int run = 0;

    for (const char *c = sql; *c != '\0'; c++) {
        unsigned char ch = (unsigned char)*c;

        if (ch == '"') {
            const char *close = strchr(c + 1, '"');

            if (close == NULL || close - c - 1 >= NAMEDATALEN)
                return true;
            c = close;
            run = 0;
        } else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                   (ch >= '0' && ch <= '9') || ch == '_' || ch == '$' ||
                   ch >= 0x80) {
            if (++run >= NAMEDATALEN)
                return true;
        } else
            run = 0;
    }
    return false;
}

/* The identifier a token spells: quotes removed (a doubled quote is
 * one), or folded to lower case as the scanner folds it. */
static char *
token_identifier(const char *spelling, int len)
{
    char *ident = tdb_palloc((Size)len + 1);
    int n = 0;

    if (len >= 2 && spelling[0] == '"') {
        for (int i = 1; i < len - 1; i++) {
            ident[n++] = spelling[i];
            if (spelling[i] == '"')
                i++;
        }
    } else {
        for (int i = 0; i < len; i++)
            ident[n++] = (spelling[i] >= 'A' && spelling[i] <= 'Z')
                             ? (char)(spelling[i] - 'A' + 'a')
                             : spelling[i];
    }
    ident[n] = '\0';
    return ident;
}

/*
 * PostgreSQL's scanner cuts an identifier of NAMEDATALEN bytes or more
 * to NAMEDATALEN - 1 (on a character boundary) and says so with a
 * NOTICE; libpg_query cuts it silently, so the NOTICE is raised here,
 * once per identifier token, in the order of the text.
 */
static void
notice_truncated_identifiers(const char *sql)
{
    PgQueryScanResult scan;
    PgQuery__ScanResult *tokens;

    if (!may_hold_long_identifier(sql))
        return;
    scan = pg_query_scan(sql);
    if (scan.error != NULL) {
        pg_query_free_scan_result(scan);
        return;
    }
    tokens = pg_query__scan_result__unpack(NULL, scan.pbuf.len,
                                           (const uint8_t *)scan.pbuf.data);
    pg_query_free_scan_result(scan);
    if (tokens == NULL)
        return;
    for (size_t i = 0; i < tokens->n_tokens; i++) {
        const PgQuery__ScanToken *tok = tokens->tokens[i];
        char *ident;
        int cut;

        if (tok->token != PG_QUERY__TOKEN__IDENT ||
            tok->end - tok->start < NAMEDATALEN)
            continue;
        ident = token_identifier(sql + tok->start, tok->end - tok->start);
        if (strlen(ident) < NAMEDATALEN)
            continue;
        cut = NAMEDATALEN - 1;
        while (cut > 0 && ((unsigned char)ident[cut] & 0xC0) == 0x80)
            cut--; /* ident[cut] continues a character: cut before it */
        ereport(NOTICE, errcode(ERRCODE_NAME_TOO_LONG),
                errmsg("identifier \"%s\" will be truncated to \"%.*s\"",
                       ident, cut, ident));
    }
    pg_query__scan_result__free_unpacked(tokens, NULL);
}

ParsedScript *
tdb_sql_parse(const char *sql)
{
    PgQueryProtobufParseResult parsed = library_parse(sql);
    ParsedScript *script;
    PgQuery__ParseResult *result;
    int depth = 0;

    if (parsed.error != NULL) {
        char message[ERRMSG_MAX];
        int cursor = parsed.error->cursorpos;

        /* copy what we report: the result is freed before raising */
        snprintf(message, sizeof(message), "%s", parsed.error->message);
        pg_query_free_protobuf_parse_result(parsed);
        syntax_error(message, cursor);
    }
    result = (PgQuery__ParseResult *)tdb_pb_decode(
        &pg_query__parse_result__descriptor,
        (const uint8_t *)parsed.parse_tree.data, parsed.parse_tree.len,
        tdb_current_mcxt, &depth);
    pg_query_free_protobuf_parse_result(parsed);
    if (result == NULL)
        ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"),
                errdetail("Failed while reading the parse tree."));
    notice_truncated_identifiers(sql);

    script = tdb_palloc(sizeof(ParsedScript));
    script->text = sql;
    script->result = result;
    script->depth = depth;
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

char *
tdb_sql_deparse_raw_expr(PgQuery__Node *expr)
{
    PgQuery__ResTarget target = PG_QUERY__RES_TARGET__INIT;
    PgQuery__Node target_node = PG_QUERY__NODE__INIT;
    PgQuery__Node *targets[1] = {&target_node};
    PgQuery__SelectStmt select = PG_QUERY__SELECT_STMT__INIT;
    PgQuery__Node select_node = PG_QUERY__NODE__INIT;
    PgQuery__RawStmt raw = PG_QUERY__RAW_STMT__INIT;
    PgQuery__RawStmt *raws[1] = {&raw};
    PgQuery__ParseResult result = PG_QUERY__PARSE_RESULT__INIT;
    LibraryCall call = {.tree = &result.base};
    int depth = tdb_pb_depth(&expr->base, tdb_current_mcxt);
    char *sql;

    /* SELECT expr, deparsed, less its "SELECT " */
    target.val = expr;
    target_node.node_case = PG_QUERY__NODE__NODE_RES_TARGET;
    target_node.res_target = &target;
    select.n_target_list = 1;
    select.target_list = targets;
    select.limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
    select.op = PG_QUERY__SET_OPERATION__SETOP_NONE;
    select_node.node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
    select_node.select_stmt = &select;
    raw.stmt = &select_node;
    result.version = PG_VERSION_NUM;
    result.n_stmts = 1;
    result.stmts = raws;

    if (depth < 0 || (Size)depth > tdb_stack_depth_limit() /
                                       DEPARSE_STACK_BYTES_PER_LEVEL_MIN)
        tdb_stack_depth_error();
    run_with_stack(LIBRARY_STACK_BASE +
                       (Size)(depth + 8) * DEPARSE_STACK_PER_LEVEL,
                   call_deparse, &call);
    if (call.no_memory)
        ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
    if (call.deparsed.error != NULL) {
        char message[ERRMSG_MAX];

        snprintf(message, sizeof(message), "%s", call.deparsed.error->message);
        pg_query_free_deparse_result(call.deparsed);
        elog(ERROR, "could not deparse an expression: %s", message);
    }
    sql = tdb_mcxt_strdup(tdb_current_mcxt,
                          call.deparsed.query + strlen("SELECT "));
    pg_query_free_deparse_result(call.deparsed);
    return sql;
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
