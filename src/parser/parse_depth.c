/*
 * parse_depth.c -- how deep the parse tree of a text can be, known before
 * parsing it (parse_int.h).
 *
 * libpg_query serializes its tree recursively, about 180 bytes of stack
 * per level of messages, and that recursion cannot be checked from
 * outside: parser.c must give it enough stack before the call, and for
 * that it needs an upper bound of the depth the text can produce.  The
 * bound comes from a scan of the text's tokens (PostgreSQL's lexical
 * rules for strings, quoted identifiers, dollar quotes and comments, so
 * that only real tokens count), on three facts of PostgreSQL's grammar:
 *
 * 1. A token adds at most two levels: `+ 1` adds an A_Expr and its Node
 *    wrapper, a prefix `NOT` or `-` the same; fixed wrappers (a target's
 *    ResTarget, a statement's RawStmt) add a constant per list item.
 * 2. Bracketed parts -- ( ), [ ] and CASE ... END -- hang below the part
 *    around them: a group's depth is what its content gives plus a
 *    constant, and the enclosing part counts the group as one token.
 * 3. What commas, semicolons, AND, OR (except BETWEEN's) and CASE's WHEN,
 *    THEN and ELSE separate are siblings: list elements, the flattened
 *    arguments of an AND / OR (PostgreSQL's grammar makes `a AND b AND c`
 *    one BoolExpr), CASE's arms.  So the depth of a level is its deepest
 *    segment's, not the sum.  Except where the level chains statement
 *    parts: set operations and joins nest to the left, with target lists
 *    and ON conditions inside each step, so a level holding UNION,
 *    INTERSECT, EXCEPT or JOIN counts all of its tokens as one segment.
 *
 * Within a segment the bound is 2 per token, whatever the tokens, so it
 * holds for every chain of operators, postfix forms (IS NULL, ::type,
 * COLLATE, AT TIME ZONE) and prefix forms alike.  It is loose by a small
 * factor for chains and tight for what big statements usually are: long
 * IN lists, VALUES rows, OR chains and CASE arms are many short segments.
 *
 * Brackets nested more than the grammar's stack holds (bison's 10,000
 * entries; every open bracket keeps one) cannot parse at all: the parse
 * fails with "memory exhausted" before any tree exists, and the scan says
 * so instead of giving a bound.  tests/unit/parser/test_parse_depth.c
 * checks the bound against the real depth of the regression suite's
 * statements and of deep ones of every shape.
 */
#include "common/base.h"

#include <strings.h>

#include "parser/parse_int.h"

/* the grammar's stack (bison's YYMAXDEPTH in PostgreSQL's gram.c) */
#define GRAMMAR_STACK_MAX 10000

/* levels a segment's list item and a group's own nodes add at most */
#define SEGMENT_LEVELS 8
#define GROUP_LEVELS 8
/* the levels above the first statement's content (ParseResult, RawStmt,
 * the statement) */
#define TOP_LEVELS 16

typedef struct Group {
    char closer;     /* ')', ']', or 'E' for CASE's END; 0 at the top */
    bool chain;      /* holds UNION, INTERSECT, EXCEPT or JOIN */
    bool between;    /* after BETWEEN: the next AND is its own */
    Size tokens;     /* at this level (a closed group counts one) */
    Size inner;      /* the deepest closed group's bound */
    Size seg_tokens; /* the same for the current segment */
    Size seg_inner;
    Size seg_max; /* the deepest closed segment's bound */
} Group;

#define GROUPS_INLINE 32

static bool
is_ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c >= 0x80;
}

static bool
is_ident_cont(unsigned char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9') || c == '$';
}

static bool
is_op_char(unsigned char c)
{
    return c != '\0' && strchr("~!@#^&|`?+-*/%<>=", c) != NULL;
}

static void
add_token(Group *g)
{
    g->tokens++;
    g->seg_tokens++;
}

static void
end_segment(Group *g)
{
    Size bound = 2 * g->seg_tokens + g->seg_inner + SEGMENT_LEVELS;

    g->seg_max = Max(g->seg_max, bound);
    g->seg_tokens = 0;
    g->seg_inner = 0;
}

/* The bound of g's content, plus its own levels. */
static Size
close_group(Group *g)
{
    end_segment(g);
    if (g->chain)
        return 2 * g->tokens + g->inner + SEGMENT_LEVELS + GROUP_LEVELS;
    return g->seg_max + GROUP_LEVELS;
}

/* The groups open while scanning; groups[0] is the top level. */
typedef struct GroupStack {
    Group *groups;
    int n;
    int capacity;
} GroupStack;

/* Open a group closed by closer; false past the grammar's stack. */
static bool
push_group(GroupStack *gs, char closer)
{
    Group *g;

    if (gs->n > GRAMMAR_STACK_MAX)
        return false;
    if (gs->n == gs->capacity) {
        Group *bigger = tdb_palloc(sizeof(Group) * (Size)gs->capacity * 2);

        memcpy(bigger, gs->groups, sizeof(Group) * (Size)gs->capacity);
        gs->groups = bigger; /* the old array goes with the context */
        gs->capacity *= 2;
    }
    g = &gs->groups[gs->n++];
    memset(g, 0, sizeof(Group));
    g->closer = closer;
    return true;
}

/* Close the innermost group into its parent. */
static void
pop_group(GroupStack *gs)
{
    Group *g = &gs->groups[--gs->n];
    Group *parent = &gs->groups[gs->n - 1];
    Size bound = close_group(g);

    add_token(parent);
    parent->inner = Max(parent->inner, bound);
    parent->seg_inner = Max(parent->seg_inner, bound);
}

/* Is the word [w, w + len) the keyword kw (lower case)? */
static bool
is_keyword(const char *w, Size len, const char *kw)
{
    return strlen(kw) == len && strncasecmp(w, kw, len) == 0;
}

/*
 * Skip a string literal whose opening quote is at *p: standard
 * ('' doubles a quote) or, with backslash_escapes, an E'' string.
 */
static const char *
skip_string(const char *p, bool backslash_escapes)
{
    for (p++; *p != '\0'; p++) {
        if (backslash_escapes && *p == '\\' && p[1] != '\0')
            p++;
        else if (*p == '\'') {
            if (p[1] != '\'')
                return p + 1;
            p++;
        }
    }
    return p;
}

/* Skip a quoted identifier ("" doubles a quote) opening at *p. */
static const char *
skip_quoted_ident(const char *p)
{
    for (p++; *p != '\0'; p++)
        if (*p == '"') {
            if (p[1] != '"')
                return p + 1;
            p++;
        }
    return p;
}

/*
 * If p starts a dollar quote ($tag$), skip the whole quoted string;
 * else return NULL.
 */
static const char *
skip_dollar_quote(const char *p)
{
    const char *tag_end = p + 1;
    Size tag_len;

    if (*tag_end != '$') {
        if (!is_ident_start((unsigned char)*tag_end))
            return NULL;
        while (is_ident_cont((unsigned char)*tag_end) && *tag_end != '$')
            tag_end++;
        if (*tag_end != '$')
            return NULL;
    }
    tag_len = (Size)(tag_end - p) + 1;
    for (const char *q = tag_end + 1; *q != '\0'; q++)
        if (*q == '$' && strncmp(q, p, tag_len) == 0)
            return q + tag_len;
    return p + strlen(p);
}

/* Skip a block comment (nested, as PostgreSQL nests them) at p. */
static const char *
skip_block_comment(const char *p)
{
    int depth = 0;

    while (*p != '\0') {
        if (p[0] == '/' && p[1] == '*') {
            depth++;
            p += 2;
        } else if (p[0] == '*' && p[1] == '/') {
            p += 2;
            if (--depth == 0)
                return p;
        } else
            p++;
    }
    return p;
}

bool
tdb_sql_depth_bound(const char *sql, Size *bound)
{
    Group inline_groups[GROUPS_INLINE];
    GroupStack gs = {inline_groups, 0, GROUPS_INLINE};
    const char *p = sql;
    Group *g;

    (void)push_group(&gs, '\0');
    while (*p != '\0') {
        unsigned char c = (unsigned char)*p;
        const char *start = p;

        g = &gs.groups[gs.n - 1];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
            c == '\v') {
            p++;
            continue;
        }
        if (c == '-' && p[1] == '-') {
            while (*p != '\0' && *p != '\n' && *p != '\r')
                p++;
            continue;
        }
        if (c == '/' && p[1] == '*') {
            p = skip_block_comment(p);
            continue;
        }
        if (c == '(' || c == '[') {
            if (!push_group(&gs, c == '(' ? ')' : ']'))
                return false;
            p++;
            continue;
        }
        if ((c == ')' || c == ']') && gs.n > 1 && g->closer == c) {
            pop_group(&gs);
            p++;
            continue;
        }
        if (c == ',' || c == ';') {
            add_token(g);
            end_segment(g);
            p++;
            continue;
        }
        if (c == '\'') {
            p = skip_string(p, false);
        } else if ((c == 'e' || c == 'E') && p[1] == '\'') {
            p = skip_string(p + 1, true);
        } else if ((c == 'b' || c == 'B' || c == 'x' || c == 'X' || c == 'n' ||
                    c == 'N') &&
                   p[1] == '\'') {
            p = skip_string(p + 1, false);
        } else if ((c == 'u' || c == 'U') && p[1] == '&' &&
                   (p[2] == '\'' || p[2] == '"')) {
            p = p[2] == '\'' ? skip_string(p + 2, false)
                             : skip_quoted_ident(p + 2);
        } else if (c == '"') {
            p = skip_quoted_ident(p);
        } else if (c == '$' && (p = skip_dollar_quote(start)) != NULL) {
            /* a dollar-quoted string */
        } else if (c == '$') {
            p = start + 1; /* a parameter, $1 */
            while (*p >= '0' && *p <= '9')
                p++;
        } else if (is_ident_start(c)) {
            Size len;

            while (is_ident_cont((unsigned char)*p))
                p++;
            len = (Size)(p - start);
            if (is_keyword(start, len, "case")) {
                if (!push_group(&gs, 'E'))
                    return false;
                continue;
            }
            if (is_keyword(start, len, "end") && g->closer == 'E') {
                pop_group(&gs);
                continue;
            }
            add_token(g);
            if (is_keyword(start, len, "union") ||
                is_keyword(start, len, "intersect") ||
                is_keyword(start, len, "except") ||
                is_keyword(start, len, "join"))
                g->chain = true;
            else if (is_keyword(start, len, "between"))
                g->between = true;
            else if (is_keyword(start, len, "and") && g->between)
                g->between = false;
            else if (is_keyword(start, len, "and") ||
                     is_keyword(start, len, "or") ||
                     is_keyword(start, len, "when") ||
                     is_keyword(start, len, "then") ||
                     is_keyword(start, len, "else"))
                end_segment(g);
            continue;
        } else if (c >= '0' && c <= '9') {
            while ((*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
                   is_ident_start((unsigned char)*p))
                p++;
        } else if (is_op_char(c)) {
            /* an operator ends where a comment starts */
            while (is_op_char((unsigned char)*p) &&
                   !(p[0] == '-' && p[1] == '-') &&
                   !(p[0] == '/' && p[1] == '*'))
                p++;
        } else
            p++; /* . : and anything else: one token */
        add_token(g);
    }
    /* unclosed groups (a syntax error to come) close at the end */
    while (gs.n > 1)
        pop_group(&gs);
    *bound = close_group(&gs.groups[0]) + TOP_LEVELS;
    return true;
}
