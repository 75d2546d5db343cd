/*
 * formatting.h -- inside the types layer: the template language of
 * to_char / to_number (PostgreSQL's "Data Type Formatting Functions"),
 * shared by the number formatting in formatting.c and, later, the
 * date/time patterns (to_char(timestamp, text), to_timestamp, ...).
 *
 * A template is a string such as 'FM9,999.00"USD"' or 'YYYY-MM-DD'.
 * tdb_fmt_parse cuts it into FmtNodes, one per keyword or per literal
 * character, driven by an FmtDialect: the keyword table of one family of
 * patterns (numbers, or date/time), optional prefix/postfix modifiers
 * (date/time's FM..., ...TH), and a hook that sees every keyword as it is
 * parsed (numbers use it to build their NumSpec and reject bad
 * combinations).  Literal text, double-quoted strings and backslash
 * escapes are the same for every dialect.
 *
 * Adding the date/time patterns (the extension point):
 *   1. a keyword table (FmtKeyword rows, ids of your own, rows sharing a
 *      first character ordered longest first: "HH24", "HH12", "HH");
 *   2. the FM/TH/th/SP/TM modifiers as FmtSuffix rows (is_prefix for FM,
 *      TM; postfix for TH, th, SP); tdb_fmt_parse stores their OR in
 *      FmtNode.suffix;
 *   3. separators = true, so punctuation parses as FMT_NODE_SEPARATOR
 *      (to_timestamp treats separators and spaces specially);
 *   4. walk the nodes and write each keyword's field; use
 *      tdb_fmt_ordinal for the TH suffix and tdb_fmt_roman for RM.
 * Nothing in the number code needs to change.
 *
 * Memory: everything returned is palloc'd in the current memory context.
 */
#ifndef TDB_TYPES_FORMATTING_H
#define TDB_TYPES_FORMATTING_H

#include "common/base.h"

#include "tuple/varlena.h"
#include "types/fmgr.h"

/* One pattern of a dialect: name as written, and the dialect's own id. */
typedef struct FmtKeyword {
    const char *name;
    int len; /* strlen(name) */
    int id;
} FmtKeyword;

/* A modifier written before (is_prefix) or after a keyword. */
typedef struct FmtSuffix {
    const char *name;
    int len;
    uint8 bit; /* OR'ed into FmtNode.suffix */
    bool is_prefix;
} FmtSuffix;

typedef enum FmtNodeKind {
    FMT_NODE_END = 0,   /* terminates the node array */
    FMT_NODE_KEYWORD,   /* key is set */
    FMT_NODE_LITERAL,   /* one character of literal text, in chars */
    FMT_NODE_SPACE,     /* one white-space character, in chars */
    FMT_NODE_SEPARATOR, /* punctuation (dialects with separators only) */
} FmtNodeKind;

typedef struct FmtNode {
    uint8 kind;            /* FmtNodeKind */
    uint8 suffix;          /* OR of FmtSuffix.bit (keywords only) */
    const FmtKeyword *key; /* FMT_NODE_KEYWORD: the pattern */
    char chars[5];         /* other kinds: one UTF-8 character + NUL */
} FmtNode;

typedef struct FmtDialect {
    /* Matched first to last: the first row that is a prefix of the
     * template at the current position wins. */
    const FmtKeyword *keywords;
    int nkeywords;
    const FmtSuffix *suffixes; /* may be NULL */
    int nsuffixes;
    /* Classify ASCII punctuation outside quotes as separators. */
    bool separators;
    /* Called for each keyword node right after it is parsed, with the
     * caller's state; may raise (e.g. 42601 for a bad combination). */
    void (*on_keyword)(void *state, const FmtNode *node);
} FmtDialect;

/*
 * Parse len bytes of template str (need not be NUL-terminated; parsing
 * stops at a NUL as PostgreSQL's does).  Returns an array ending in an
 * FMT_NODE_END node, palloc'd in the current memory context.
 */
FmtNode *tdb_fmt_parse(const char *str, Size len, const FmtDialect *dialect,
                       void *state);

/*
 * The English ordinal suffix of the decimal number that ends num:
 * "st", "nd", "rd" or "th" ("ST"... if upper); teens take "th".  Raises
 * 22P02 `"x" is not a number` if num does not end in a digit.
 */
const char *tdb_fmt_ordinal(const char *num, bool upper);

/*
 * n in upper-case Roman numerals, or 15 '#' if n is outside 1..3999;
 * palloc'd.
 */
char *tdb_fmt_roman(int n);

/*
 * to_char(float4, text) and to_char(float8, text), with PostgreSQL's
 * float rules (at most FLT_DIG / DBL_DIG significant digits, the rest
 * of the digit positions padded with zeroes).  Not registered here: the
 * float family lists them in its tables (pg_proc 1775 and 1776,
 * strict, stable).
 */
Datum tdb_float4_to_char(PG_FUNCTION_ARGS);
Datum tdb_float8_to_char(PG_FUNCTION_ARGS);

#endif /* TDB_TYPES_FORMATTING_H */
