/*
 * regexp.c -- PostgreSQL's regular expressions (Spencer's ARE flavour)
 * on top of PCRE2: the pattern rewrite, compilation with PostgreSQL's
 * error messages, and a per-call-site cache of compiled patterns
 * (regexp.h).
 *
 * Design.  PCRE2 already speaks most of ARE (classes \d \s \w, bracket
 * expressions with [:alpha:], non-greedy quantifiers, lookahead and
 * lookbehind, back-references, (?:...)), so a pattern is not compiled
 * from scratch: one left-to-right pass (the Translator) copies it,
 * rewriting what ARE spells differently and rejecting what ARE rejects,
 * with PostgreSQL's messages:
 *
 *   ARE                      PCRE2                 why
 *   \m \M [[:<:]] [[:>:]]    \b(?=\w) \b(?<=\w)    word start / end
 *   \y \Y \Z                 \b \B \z              boundary, non-, end
 *   \b \B \v                 \x08 \\ \x0b          backspace, backslash, VT
 *   \uXXXX \UXXXXXXXX \xhhh  \x{...}               code points
 *   [[.c.]] [[=c=]]          c                     one-character collating
 *                                                  elements / classes
 *   ***= / ***: / (?opts)    compile options       directors and leading
 *                                                  embedded options
 *   a{1  x** (?P..) \h       errors                ARE rejects these
 *
 * Matching semantics follow ARE's defaults through compile options:
 * UTF-8 subjects, '.' matches newline and $ matches only at the very
 * end unless newline-sensitive flags say otherwise.  What cannot be
 * emulated (ARE's longest-match rule for alternations, case folding of
 * non-ASCII letters, newline-sensitive [^...]) is listed in README.md.
 *
 * Memory.  PCRE2 allocates through a general context whose malloc/free
 * are this file's, drawing from a memory context: the call site's
 * fn_mcxt for cached patterns (they live as long as the plan), the
 * current context otherwise.  Nothing is JIT-compiled, so resetting the
 * context frees everything PCRE2 allocated.
 *
 * Cache.  fcinfo->flinfo->fn_extra holds a RegexCache: the last
 * REGEX_CACHE_SIZE (pattern, flags) pairs compiled at that call site,
 * most recent first.  A constant pattern compiles once per plan; a
 * pattern that changes per row recompiles only when it is not among the
 * recent ones (the evicted entry is freed).
 */
#include "common/base.h"

#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/encode.h"
#include "types/regexp.h"
#include "types/strutil.h"
#include "types/textbuf.h"

/* ARE's limit on {m,n} counts (PostgreSQL's DUPMAX). */
#define REGEX_DUP_MAX 255
#define REGEX_CACHE_SIZE 4

struct Regex {
    char *pattern; /* the ARE text, as given (cache key) */
    Size len;
    int cflags;
    pcre2_code *code;
    pcre2_match_data *match;
    int ngroups;
};

typedef struct RegexCache {
    MemoryContext mcxt;
    pcre2_general_context *gctx;
    Regex *entries[REGEX_CACHE_SIZE]; /* most recently used first */
    int nentries;
} RegexCache;

static TDB_NORETURN void
regex_error(const char *what)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_REGULAR_EXPRESSION),
            errmsg("invalid regular expression: %s", what));
    __builtin_unreachable();
}

/* ----------------------------------------------------------------------
 * Options
 * ---------------------------------------------------------------------- */

bool
tdb_regex_apply_option(char c, int *cflags)
{
    if (c == 'b' || c == 'e')
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("%s regular expressions are not supported",
                       c == 'b' ? "basic" : "extended"));
    switch (c) {
    case 'c':
        *cflags &= ~REGEX_ICASE;
        return true;
    case 'i':
        *cflags |= REGEX_ICASE;
        return true;
    case 'm':
    case 'n':
        *cflags |= REGEX_NEWLINE;
        return true;
    case 'p':
        *cflags = (*cflags & ~REGEX_NEWLINE) | REGEX_NLSTOP;
        return true;
    case 'w':
        *cflags = (*cflags & ~REGEX_NEWLINE) | REGEX_NLANCH;
        return true;
    case 's':
        *cflags &= ~REGEX_NEWLINE;
        return true;
    case 'q':
        *cflags |= REGEX_QUOTE;
        return true;
    case 't':
        *cflags &= ~REGEX_EXPANDED;
        return true;
    case 'x':
        *cflags |= REGEX_EXPANDED;
        return true;
    default:
        return false;
    }
}

/* ----------------------------------------------------------------------
 * The ARE -> PCRE2 rewrite
 * ---------------------------------------------------------------------- */

typedef struct Translator {
    const char *p;   /* next pattern byte */
    const char *end;
    TextBuf out;     /* the PCRE2 pattern */
    bool have_atom;  /* the last item may take a quantifier (false
                      * after a quantifier: ARE has no a** or a{1}{2}) */
    int depth;       /* open parentheses */
    uint64 lookaround; /* bit d: the group at depth d (< 64) is a
                        * lookaround constraint, which takes no
                        * quantifier either */
    int cflags;
} Translator;

static void
emit(Translator *tr, const char *s)
{
    tdb_textbuf_append(&tr->out, s, strlen(s));
}

static void
emit_bytes(Translator *tr, const char *s, Size n)
{
    tdb_textbuf_append(&tr->out, s, n);
}

static bool
at_end(const Translator *tr)
{
    return tr->p >= tr->end;
}

/* Copy the (UTF-8) character at tr->p. */
static void
copy_char(Translator *tr)
{
    Size n = tdb_utf8_char_len_max(tr->p, (Size)(tr->end - tr->p));

    emit_bytes(tr, tr->p, n);
    tr->p += n;
}

static bool
is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/*
 * \uXXXX, \UXXXXXXXX (exactly ndigits hex digits, ndigits > 0) or \xhhh
 * (ndigits 0: one or more): the code point as \x{...}.
 */
static void
code_point_escape(Translator *tr, int ndigits)
{
    const char *start = tr->p;

    while (!at_end(tr) && tdb_hex_digit_value(*tr->p) >= 0 &&
           (ndigits == 0 || tr->p - start < ndigits))
        tr->p++;
    if (tr->p == start || (ndigits > 0 && tr->p - start != ndigits))
        regex_error("invalid escape \\ sequence");
    emit(tr, "\\x{");
    emit_bytes(tr, start, (Size)(tr->p - start));
    emit(tr, "}");
}

/*
 * The escapes that mean one character or a class, the same inside and
 * outside brackets; tr->p is past the letter c.  Returns false if c is
 * not one of them.
 */
static bool
char_escape(Translator *tr, char c)
{
    static const struct {
        char are;
        const char *pcre;
    } simple[] = {
        {'a', "\\x07"}, {'b', "\\x08"}, {'B', "\\\\"}, {'e', "\\x1b"},
        {'f', "\\f"},   {'n', "\\n"},   {'r', "\\r"},  {'t', "\\t"},
        {'v', "\\x0b"}, {'d', "\\d"},   {'D', "\\D"},  {'s', "\\s"},
        {'S', "\\S"},   {'w', "\\w"},   {'W', "\\W"},
    };

    for (Size i = 0; i < lengthof(simple); i++)
        if (simple[i].are == c) {
            emit(tr, simple[i].pcre);
            return true;
        }
    if (c == 'u' || c == 'U' || c == 'x') {
        code_point_escape(tr, c == 'u' ? 4 : c == 'U' ? 8 : 0);
        return true;
    }
    if (c == 'c') {
        if (at_end(tr))
            regex_error("invalid escape \\ sequence");
        emit(tr, "\\c");
        copy_char(tr);
        return true;
    }
    return false;
}

/*
 * A backslash escape outside brackets; tr->p is past the backslash.
 * Sets have_atom: constraints (\m, \y, \A, ...) take no quantifier.
 */
static void
translate_escape(Translator *tr)
{
    static const struct {
        char are;
        const char *pcre;
    } constraints[] = {
        {'A', "\\A"}, {'Z', "\\z"}, {'y', "\\b"},
        {'Y', "\\B"}, {'m', "\\b(?=\\w)"}, {'M', "\\b(?<=\\w)"},
    };
    char c;

    if (at_end(tr))
        regex_error("invalid escape \\ sequence");
    c = *tr->p;
    tr->have_atom = true;
    if (!tdb_c_isalnum(c)) {
        emit(tr, "\\");
        copy_char(tr);
        return;
    }
    tr->p++;
    if (is_digit(c)) {
        /* a back-reference or an octal escape: PCRE2 reads both alike */
        emit(tr, "\\");
        emit_bytes(tr, &c, 1);
        while (!at_end(tr) && is_digit(*tr->p))
            copy_char(tr);
        return;
    }
    for (Size i = 0; i < lengthof(constraints); i++)
        if (constraints[i].are == c) {
            emit(tr, constraints[i].pcre);
            tr->have_atom = false;
            return;
        }
    if (!char_escape(tr, c))
        regex_error("invalid escape \\ sequence");
}

/*
 * [.c.] or [=c=] inside brackets (tr->p at the '['): a collating element
 * or equivalence class of one character, which is the character itself.
 */
static void
translate_collating(Translator *tr)
{
    char kind = tr->p[1];
    const char *start = tr->p + 2, *q = start;

    while (q + 1 < tr->end && !(q[0] == kind && q[1] == ']'))
        q++;
    if (q + 1 >= tr->end)
        regex_error("brackets [] not balanced");
    if (q == start ||
        tdb_utf8_char_len_max(start, (Size)(q - start)) != (Size)(q - start))
        regex_error("invalid collating element");
    if (!tdb_c_isalnum(*start) && (uint8)*start < 0x80)
        emit(tr, "\\");
    emit_bytes(tr, start, (Size)(q - start));
    tr->p = q + 2;
}

/* A bracket expression; tr->p is at the '['. */
static void
translate_bracket(Translator *tr)
{
    if ((Size)(tr->end - tr->p) >= 7 &&
        (memcmp(tr->p, "[[:<:]]", 7) == 0 || memcmp(tr->p, "[[:>:]]", 7) == 0)) {
        emit(tr, tr->p[3] == '<' ? "\\b(?=\\w)" : "\\b(?<=\\w)");
        tr->p += 7;
        tr->have_atom = false;
        return;
    }
    copy_char(tr);
    if (!at_end(tr) && *tr->p == '^')
        copy_char(tr);
    if (!at_end(tr) && *tr->p == ']')
        copy_char(tr);
    while (!at_end(tr) && *tr->p != ']') {
        if (*tr->p == '[' && tr->p + 1 < tr->end &&
            (tr->p[1] == '.' || tr->p[1] == '=')) {
            translate_collating(tr);
        } else if (*tr->p == '[' && tr->p + 1 < tr->end && tr->p[1] == ':') {
            const char *close = memmem(tr->p + 2, (Size)(tr->end - tr->p - 2),
                                       ":]", 2);

            if (close == NULL)
                regex_error("brackets [] not balanced");
            emit_bytes(tr, tr->p, (Size)(close + 2 - tr->p));
            tr->p = close + 2;
        } else if (*tr->p == '\\') {
            char c;

            if (++tr->p == tr->end)
                regex_error("invalid escape \\ sequence");
            c = *tr->p;
            if (!tdb_c_isalnum(c)) {
                emit(tr, "\\");
                copy_char(tr);
            } else if (tr->p++, is_digit(c)) {
                emit(tr, "\\");
                emit_bytes(tr, &c, 1);
            } else if (!char_escape(tr, c)) {
                regex_error("invalid escape \\ sequence");
            }
        } else {
            copy_char(tr);
        }
    }
    if (at_end(tr))
        regex_error("brackets [] not balanced");
    copy_char(tr);
    tr->have_atom = true;
}

/* A decimal count at tr->p (a digit is there), capped above DUP_MAX. */
static long
read_count(Translator *tr)
{
    long v = 0;

    for (; !at_end(tr) && is_digit(*tr->p); tr->p++)
        if (v <= REGEX_DUP_MAX)
            v = v * 10 + (*tr->p - '0');
    return v;
}

/*
 * {m}, {m,} or {m,n}; tr->p is at the '{', which is followed by a digit.
 * Checked as ARE checks it (counts up to 255, m <= n, the closing brace).
 */
static void
translate_bound(Translator *tr)
{
    const char *start = tr->p;
    long m, n;

    tr->p++;
    m = n = read_count(tr);
    if (!at_end(tr) && *tr->p == ',') {
        tr->p++;
        n = !at_end(tr) && is_digit(*tr->p) ? read_count(tr) : -1;
    }
    if (at_end(tr) || *tr->p != '}')
        regex_error("braces {} not balanced");
    if (m > REGEX_DUP_MAX || n > REGEX_DUP_MAX || (n >= 0 && m > n))
        regex_error("invalid repetition count(s)");
    tr->p++;
    emit_bytes(tr, start, (Size)(tr->p - start));
}

/* A quantifier at tr->p: * + ? or a bound, maybe followed by '?'. */
static void
translate_quantifier(Translator *tr)
{
    if (!tr->have_atom)
        regex_error("quantifier operand invalid");
    if (*tr->p == '{')
        translate_bound(tr);
    else
        copy_char(tr);
    if (!at_end(tr) && *tr->p == '?')
        copy_char(tr); /* non-greedy */
    tr->have_atom = false;
}

static bool
is_quantifier_start(const Translator *tr)
{
    char c = *tr->p;

    return c == '*' || c == '+' || c == '?' ||
           (c == '{' && tr->p + 1 < tr->end && is_digit(tr->p[1]));
}

static void
open_group(Translator *tr, bool is_lookaround)
{
    if (tr->depth < 64) {
        if (is_lookaround)
            tr->lookaround |= (uint64)1 << tr->depth;
        else
            tr->lookaround &= ~((uint64)1 << tr->depth);
    }
    tr->depth++;
}

/* ')': a group may take a quantifier, a lookaround may not. */
static void
close_group(Translator *tr)
{
    copy_char(tr);
    tr->have_atom = true;
    if (tr->depth > 0 && --tr->depth < 64)
        tr->have_atom = !(tr->lookaround & ((uint64)1 << tr->depth));
}

/* "(?" constructs ARE knows: (?: (?= (?! (?<= (?<! and (?#comment). */
static void
translate_group_extension(Translator *tr)
{
    static const char *const kinds[] = {"(?:", "(?=", "(?!", "(?<=", "(?<!"};
    Size left = (Size)(tr->end - tr->p);

    if (left >= 3 && memcmp(tr->p, "(?#", 3) == 0) {
        const char *close = memchr(tr->p, ')', left);

        if (close == NULL)
            regex_error("parentheses () not balanced");
        tr->p = close + 1;
        return;
    }
    for (Size i = 0; i < lengthof(kinds); i++) {
        Size n = strlen(kinds[i]);

        if (left >= n && memcmp(tr->p, kinds[i], n) == 0) {
            emit_bytes(tr, tr->p, n);
            tr->p += n;
            tr->have_atom = false;
            open_group(tr, i > 0);
            return;
        }
    }
    regex_error("quantifier operand invalid");
}

/* In expanded mode: skip whitespace and #-comments (copied through,
 * PCRE2's extended mode ignores them too).  Returns true if it did. */
static bool
skip_expanded_space(Translator *tr)
{
    if (!(tr->cflags & REGEX_EXPANDED))
        return false;
    if (tdb_c_isspace(*tr->p)) {
        copy_char(tr);
        return true;
    }
    if (*tr->p == '#') {
        while (!at_end(tr) && *tr->p != '\n')
            copy_char(tr);
        return true;
    }
    return false;
}

/* One item of the pattern body at tr->p. */
static void
translate_item(Translator *tr)
{
    char c = *tr->p;

    if (skip_expanded_space(tr))
        return;
    if (is_quantifier_start(tr)) {
        translate_quantifier(tr);
        return;
    }
    switch (c) {
    case '\\':
        tr->p++;
        translate_escape(tr);
        return;
    case '[':
        translate_bracket(tr);
        return;
    case '(':
        if (tr->p + 1 < tr->end && tr->p[1] == '?') {
            translate_group_extension(tr);
            return;
        }
        copy_char(tr);
        tr->have_atom = false;
        open_group(tr, false);
        return;
    case ')':
        close_group(tr);
        return;
    case '|':
    case '^':
    case '$':
        copy_char(tr);
        tr->have_atom = false;
        return;
    case '{':
        /* not a bound (no digit follows): a literal brace */
        tr->p++;
        emit(tr, "\\{");
        tr->have_atom = true;
        return;
    default:
        copy_char(tr);
        tr->have_atom = true;
        return;
    }
}

/*
 * The leading director ***= (literal) or ***: (ARE) and embedded options
 * "(?letters)"; updates tr->cflags and advances tr->p past them.
 */
static void
translate_prefix(Translator *tr)
{
    Size left = (Size)(tr->end - tr->p);

    if (left >= 4 && memcmp(tr->p, "***=", 4) == 0) {
        tr->p += 4;
        tr->cflags |= REGEX_QUOTE;
        return;
    }
    if (left >= 4 && memcmp(tr->p, "***:", 4) == 0)
        tr->p += 4;
    if (tr->cflags & REGEX_QUOTE)
        return;
    if (tr->end - tr->p >= 3 && tr->p[0] == '(' && tr->p[1] == '?' &&
        ((tr->p[2] >= 'a' && tr->p[2] <= 'z') ||
         (tr->p[2] >= 'A' && tr->p[2] <= 'Z'))) {
        for (tr->p += 2; !at_end(tr) && *tr->p != ')'; tr->p++)
            if (!tdb_regex_apply_option(*tr->p, &tr->cflags))
                regex_error("invalid embedded option");
        if (at_end(tr))
            regex_error("invalid embedded option");
        tr->p++;
    }
}

/*
 * The PCRE2 form of the ARE pattern[0..len) (in the current memory
 * context; *out_len its length); *cflags gains the pattern's embedded
 * options.
 */
static char *
translate(const char *pattern, Size len, int *cflags, Size *out_len)
{
    Translator tr = {.p = pattern, .end = pattern + len, .cflags = *cflags};

    tdb_textbuf_init(&tr.out, tdb_current_mcxt, len + 16);
    translate_prefix(&tr);
    if (tr.cflags & REGEX_QUOTE)
        emit_bytes(&tr, tr.p, (Size)(tr.end - tr.p));
    else
        while (!at_end(&tr))
            translate_item(&tr);
    *cflags = tr.cflags;
    *out_len = tr.out.len;
    return tr.out.buf + VARHDRSZ;
}

/* ----------------------------------------------------------------------
 * Compiling
 * ---------------------------------------------------------------------- */

static void *
pcre_alloc(PCRE2_SIZE size, void *mcxt)
{
    return tdb_mcxt_alloc_extended((MemoryContext)mcxt, size,
                                   MCXT_ALLOC_NO_OOM);
}

static void
pcre_free(void *pointer, void *mcxt)
{
    (void)mcxt;
    if (pointer != NULL)
        tdb_pfree(pointer);
}

static TDB_NORETURN void
out_of_memory(void)
{
    ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
    __builtin_unreachable();
}

/* PostgreSQL's message for a PCRE2 compile error, or NULL. */
static const char *
pg_message_for(int error)
{
    switch (error) {
    case PCRE2_ERROR_MISSING_CLOSING_PARENTHESIS:
    case PCRE2_ERROR_UNMATCHED_CLOSING_PARENTHESIS:
        return "parentheses () not balanced";
    case PCRE2_ERROR_MISSING_SQUARE_BRACKET:
        return "brackets [] not balanced";
    case PCRE2_ERROR_QUANTIFIER_INVALID:
        return "quantifier operand invalid";
    case PCRE2_ERROR_QUANTIFIER_OUT_OF_ORDER:
    case PCRE2_ERROR_QUANTIFIER_TOO_BIG:
        return "invalid repetition count(s)";
    case PCRE2_ERROR_BAD_SUBPATTERN_REFERENCE:
        return "invalid backreference number";
    case PCRE2_ERROR_UNKNOWN_POSIX_CLASS:
    case PCRE2_ERROR_POSIX_CLASS_NOT_IN_CLASS:
        return "invalid character class";
    case PCRE2_ERROR_CLASS_RANGE_ORDER:
    case PCRE2_ERROR_CLASS_INVALID_RANGE:
        return "invalid character range";
    case PCRE2_ERROR_END_BACKSLASH:
    case PCRE2_ERROR_UNKNOWN_ESCAPE:
        return "invalid escape \\ sequence";
    default:
        return NULL;
    }
}

static TDB_NORETURN void
compile_error(int error)
{
    const char *pg = pg_message_for(error);
    PCRE2_UCHAR buf[256];

    if (error == PCRE2_ERROR_HEAP_FAILED)
        out_of_memory();
    if (pg == NULL && pcre2_get_error_message(error, buf, sizeof(buf)) > 0)
        pg = (const char *)buf;
    regex_error(pg != NULL ? pg : "unknown error");
}

static uint32
pcre_options(int cflags)
{
    uint32 opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;

    if (cflags & REGEX_ICASE)
        opts |= PCRE2_CASELESS;
    if (cflags & REGEX_QUOTE)
        return opts | PCRE2_LITERAL;
    if (!(cflags & REGEX_NLSTOP))
        opts |= PCRE2_DOTALL;
    opts |= (cflags & REGEX_NLANCH) ? PCRE2_MULTILINE : PCRE2_DOLLAR_ENDONLY;
    if (cflags & REGEX_EXPANDED)
        opts |= PCRE2_EXTENDED;
    return opts;
}

/* A new Regex for pattern in the cache's memory. */
static Regex *
compile_new(RegexCache *cache, const char *pattern, Size len, int cflags)
{
    int eff_flags = cflags;
    Size pcre_len;
    char *pcre_pattern = translate(pattern, len, &eff_flags, &pcre_len);
    pcre2_compile_context *cctx = pcre2_compile_context_create(cache->gctx);
    pcre2_code *code;
    Regex *re;
    int error;
    PCRE2_SIZE offset;
    uint32 ncaptures;

    if (cctx == NULL)
        out_of_memory();
    pcre2_set_newline(cctx, PCRE2_NEWLINE_LF);
    code = pcre2_compile((PCRE2_SPTR)pcre_pattern, pcre_len,
                         pcre_options(eff_flags), &error, &offset, cctx);
    pcre2_compile_context_free(cctx);
    if (code == NULL)
        compile_error(error);
    re = tdb_mcxt_alloc_zero(cache->mcxt, sizeof(Regex));
    re->code = code;
    re->match = pcre2_match_data_create_from_pattern(re->code, cache->gctx);
    if (re->match == NULL)
        out_of_memory();
    pcre2_pattern_info(re->code, PCRE2_INFO_CAPTURECOUNT, &ncaptures);
    re->ngroups = (int)ncaptures;
    re->pattern = tdb_mcxt_alloc(cache->mcxt, len + 1);
    memcpy(re->pattern, pattern, len);
    re->len = len;
    re->cflags = cflags;
    return re;
}

static void
regex_free(Regex *re)
{
    pcre2_match_data_free(re->match);
    pcre2_code_free(re->code);
    tdb_pfree(re->pattern);
    tdb_pfree(re);
}

static RegexCache *
cache_create(MemoryContext mcxt)
{
    RegexCache *cache = tdb_mcxt_alloc_zero(mcxt, sizeof(RegexCache));

    cache->mcxt = mcxt;
    cache->gctx = pcre2_general_context_create(pcre_alloc, pcre_free, mcxt);
    if (cache->gctx == NULL)
        out_of_memory();
    return cache;
}

/* The call site's cache, created on first use; a throwaway one in the
 * current context for a call without a call site. */
static RegexCache *
cache_for(FunctionCallInfo fcinfo)
{
    FmgrInfo *flinfo = fcinfo->flinfo;

    if (flinfo == NULL || flinfo->fn_mcxt == NULL)
        return cache_create(tdb_current_mcxt);
    if (flinfo->fn_extra == NULL)
        flinfo->fn_extra = cache_create(flinfo->fn_mcxt);
    return flinfo->fn_extra;
}

Regex *
tdb_regex_compile(FunctionCallInfo fcinfo, const char *pattern, Size len,
                  int cflags)
{
    RegexCache *cache = cache_for(fcinfo);
    Regex *re;
    int i;

    for (i = 0; i < cache->nentries; i++) {
        re = cache->entries[i];
        if (re->cflags == cflags && re->len == len &&
            memcmp(re->pattern, pattern, len) == 0)
            break;
    }
    if (i == cache->nentries) {
        re = compile_new(cache, pattern, len, cflags);
        if (cache->nentries == REGEX_CACHE_SIZE)
            regex_free(cache->entries[--cache->nentries]);
        i = cache->nentries++;
    } else {
        re = cache->entries[i];
    }
    /* move to the front */
    memmove(&cache->entries[1], &cache->entries[0], (Size)i * sizeof(Regex *));
    cache->entries[0] = re;
    return re;
}

/* ----------------------------------------------------------------------
 * Matching
 * ---------------------------------------------------------------------- */

int
tdb_regex_ngroups(const Regex *re)
{
    return re->ngroups;
}

bool
tdb_regex_exec(Regex *re, const char *subject, Size len, Size start)
{
    int rc = pcre2_match(re->code, (PCRE2_SPTR)subject, len, start, 0,
                         re->match, NULL);

    if (rc >= 0)
        return true;
    if (rc == PCRE2_ERROR_NOMATCH)
        return false;
    if (rc == PCRE2_ERROR_NOMEMORY || rc == PCRE2_ERROR_HEAPLIMIT)
        out_of_memory();
    {
        PCRE2_UCHAR buf[256];

        pcre2_get_error_message(rc, buf, sizeof(buf));
        ereport(ERROR, errcode(ERRCODE_INVALID_REGULAR_EXPRESSION),
                errmsg("regular expression failed: %s", (const char *)buf));
    }
}

bool
tdb_regex_group(const Regex *re, int i, Size *so, Size *eo)
{
    const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(re->match);

    if (i > re->ngroups || ov[2 * i] == PCRE2_UNSET)
        return false;
    *so = ov[2 * i];
    *eo = ov[2 * i + 1];
    return true;
}
