/*
 * regexfuncs.c -- the SQL face of regular expressions: the operators
 * ~ ~* !~ !~* (text, bpchar with its padding, name), regexp_replace,
 * regexp_like, regexp_count, regexp_instr, regexp_substr,
 * regexp_split_to_table,
 * substring(text FROM pattern), SIMILAR TO's similar_to_escape and
 * substring(text SIMILAR pattern ESCAPE e), with PostgreSQL 15's
 * signatures, OIDs, argument checks and messages.
 *
 * Matching itself is regexp.c's (PCRE2 behind an ARE rewrite and a
 * per-call-site cache of compiled patterns).  Positions that SQL sees
 * (start, regexp_instr's result) count characters; the matcher works in
 * bytes, converted at the edges.
 *
 * Successive matches (regexp_replace with 'g', regexp_count, the N-th
 * match of regexp_instr/regexp_substr) are found as PostgreSQL finds
 * them: each search starts where the previous match ended, one character
 * further if that match was empty, and stops past the end of the string.
 *
 * Entry point: tdb_builtins_regex (registry.c).
 */
#include "common/base.h"

#include <string.h>

#include "common/elog.h"
#include "types/builtin_rows.h"
#include "types/regexp.h"
#include "types/strutil.h"
#include "types/textfuncs.h"

#define ARG_DATA(n) VARDATA_ANY(PG_GETARG_VARLENA_P(n))
#define ARG_LEN(n) VARSIZE_ANY_EXHDR(PG_GETARG_VARLENA_P(n))

/* The pattern in text argument n, compiled with cflags. */
static Regex *
pattern_arg(FunctionCallInfo fcinfo, int n, int cflags)
{
    return tdb_regex_compile(fcinfo, ARG_DATA(n), ARG_LEN(n), cflags);
}

/* ----------------------------------------------------------------------
 * Flags
 * ---------------------------------------------------------------------- */

typedef struct RegexFlags {
    int cflags;
    bool global; /* 'g' */
} RegexFlags;

/*
 * The flags in text argument argno (argno >= PG_NARGS(): none).  fname
 * names a function that does not accept 'g' (NULL: it does).
 */
static RegexFlags
flags_arg(FunctionCallInfo fcinfo, int argno, const char *fname)
{
    RegexFlags f = {0, false};
    const char *s;
    Size len;

    if (argno >= PG_NARGS())
        return f;
    s = ARG_DATA(argno);
    len = ARG_LEN(argno);
    for (Size i = 0; i < len; i += tdb_utf8_char_len_max(s + i, len - i)) {
        if (s[i] == 'g')
            f.global = true;
        else if (!tdb_regex_apply_option(s[i], &f.cflags))
            ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("invalid regular expression option: \"%.*s\"",
                           (int)tdb_utf8_char_len_max(s + i, len - i),
                           s + i));
    }
    if (f.global && fname != NULL)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("%s() does not support the \"global\" option", fname));
    return f;
}

/* Integer argument argno (def when absent), checked against min..max. */
static int32
int_arg(FunctionCallInfo fcinfo, int argno, int32 def, int32 min, int32 max,
        const char *name)
{
    int32 v = argno < PG_NARGS() ? PG_GETARG_INT32(argno) : def;

    if (v < min || v > max)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid value for parameter \"%s\": %d", name, v));
    return v;
}

/* ----------------------------------------------------------------------
 * Successive matches
 * ---------------------------------------------------------------------- */

typedef struct MatchIter {
    Regex *re;
    const char *s;
    Size len;
    Size search; /* where the next search starts; > len: done */
} MatchIter;

/*
 * Byte offset of character start (1-based) of s, or len + 1 if the
 * string has fewer than start - 1 characters (nothing to search).
 */
static Size
start_offset(const char *s, Size len, int32 start)
{
    Size off = tdb_utf8_char_offset(s, len, (Size)(start - 1));

    if (off == len && tdb_utf8_strlen(s, len) < (Size)(start - 1))
        return len + 1;
    return off;
}

static void
iter_init(MatchIter *it, Regex *re, const char *s, Size len, int32 start)
{
    it->re = re;
    it->s = s;
    it->len = len;
    it->search = start_offset(s, len, start);
}

/* The next match (groups readable with tdb_regex_group); false at end. */
static bool
iter_next(MatchIter *it)
{
    Size so, eo;

    if (it->search > it->len ||
        !tdb_regex_exec(it->re, it->s, it->len, it->search))
        return false;
    tdb_regex_group(it->re, 0, &so, &eo);
    it->search = eo;
    if (so == eo)
        it->search += eo < it->len ? tdb_utf8_char_len_max(it->s + eo,
                                                           it->len - eo)
                                   : 1;
    return true;
}

/* Advance to the n-th match (n >= 1) from the start; false if none. */
static bool
iter_nth(MatchIter *it, int32 n)
{
    for (int32 i = 0; i < n; i++)
        if (!iter_next(it))
            return false;
    return true;
}

/* ----------------------------------------------------------------------
 * The operators
 * ---------------------------------------------------------------------- */

/* Argument 0 (a name if name_arg, else text or bpchar) ~ argument 1. */
static Datum
regex_op(FunctionCallInfo fcinfo, bool name_arg, int cflags, bool negate)
{
    Regex *re = pattern_arg(fcinfo, 1, cflags);
    const char *s;
    Size len;

    if (name_arg) {
        s = PG_GETARG_POINTER(0);
        len = strlen(s);
    } else {
        s = ARG_DATA(0);
        len = ARG_LEN(0);
    }
    PG_RETURN_BOOL(tdb_regex_exec(re, s, len, 0) != negate);
}

static Datum
textregexeq(PG_FUNCTION_ARGS)
{
    return regex_op(fcinfo, false, 0, false);
}

static Datum
textregexne(PG_FUNCTION_ARGS)
{
    return regex_op(fcinfo, false, 0, true);
}

static Datum
texticregexeq(PG_FUNCTION_ARGS)
{
    return regex_op(fcinfo, false, REGEX_ICASE, false);
}

static Datum
texticregexne(PG_FUNCTION_ARGS)
{
    return regex_op(fcinfo, false, REGEX_ICASE, true);
}

static Datum
nameregexeq(PG_FUNCTION_ARGS)
{
    return regex_op(fcinfo, true, 0, false);
}

static Datum
nameregexne(PG_FUNCTION_ARGS)
{
    return regex_op(fcinfo, true, 0, true);
}

static Datum
nameicregexeq(PG_FUNCTION_ARGS)
{
    return regex_op(fcinfo, true, REGEX_ICASE, false);
}

static Datum
nameicregexne(PG_FUNCTION_ARGS)
{
    return regex_op(fcinfo, true, REGEX_ICASE, true);
}

/* regexp_like(string, pattern [, flags]) */
static Datum
regexp_like(PG_FUNCTION_ARGS)
{
    RegexFlags f = flags_arg(fcinfo, 2, "regexp_like");

    return regex_op(fcinfo, false, f.cflags, false);
}

/* ----------------------------------------------------------------------
 * regexp_replace
 * ---------------------------------------------------------------------- */

/*
 * Append the replacement text r[0..rlen) for the current match of it:
 * \1..\9 insert that group (nothing if it did not take part or does not
 * exist), \& the whole match, \\ a backslash; any other backslash is
 * kept as it is.
 */
static void
append_replacement(TextBuf *tb, const char *r, Size rlen, const MatchIter *it)
{
    for (Size i = 0; i < rlen; i++) {
        int group = -1;
        Size so, eo;

        if (r[i] != '\\' || i + 1 == rlen) {
            tdb_textbuf_append(tb, r + i, 1);
            continue;
        }
        if (r[i + 1] >= '1' && r[i + 1] <= '9')
            group = r[i + 1] - '0';
        else if (r[i + 1] == '&')
            group = 0;
        else if (r[i + 1] != '\\') {
            tdb_textbuf_append(tb, r + i, 1);
            continue;
        }
        i++;
        if (group < 0)
            tdb_textbuf_append(tb, "\\", 1);
        else if (tdb_regex_group(it->re, group, &so, &eo))
            tdb_textbuf_append(tb, it->s + so, eo - so);
    }
}

/*
 * Replace match number n (0: every match) found from character start on
 * in text argument 0 by the replacement in argument 2.
 */
static Datum
replace_matches(FunctionCallInfo fcinfo, int cflags, int32 start, int32 n)
{
    MatchIter it;
    TextBuf tb;
    Size done = 0;
    int32 count = 0;

    iter_init(&it, pattern_arg(fcinfo, 1, cflags), ARG_DATA(0), ARG_LEN(0),
              start);
    tdb_textbuf_init(&tb, tdb_current_mcxt, it.len + 16);
    while (iter_next(&it)) {
        Size so, eo;

        if (n > 0 && ++count < n)
            continue;
        tdb_regex_group(it.re, 0, &so, &eo);
        tdb_textbuf_append(&tb, it.s + done, so - done);
        append_replacement(&tb, ARG_DATA(2), ARG_LEN(2), &it);
        done = eo;
        if (n > 0)
            break;
    }
    tdb_textbuf_append(&tb, it.s + done, it.len - done);
    PG_RETURN_POINTER(tdb_textbuf_finish(&tb));
}

/* regexp_replace(source, pattern, replacement [, flags]) */
static Datum
textregexreplace(PG_FUNCTION_ARGS)
{
    RegexFlags f = flags_arg(fcinfo, 3, NULL);

    return replace_matches(fcinfo, f.cflags, 1, f.global ? 0 : 1);
}

/* regexp_replace(source, pattern, replacement, start [, N [, flags]]) */
static Datum
textregexreplace_extended(PG_FUNCTION_ARGS)
{
    int32 start = int_arg(fcinfo, 3, 1, 1, INT32_MAX, "start");
    int32 n = int_arg(fcinfo, 4, 1, 0, INT32_MAX, "n");
    RegexFlags f = flags_arg(fcinfo, 5, NULL);

    if (PG_NARGS() <= 4)
        n = f.global ? 0 : 1;
    return replace_matches(fcinfo, f.cflags, start, n);
}

/* ----------------------------------------------------------------------
 * regexp_count, regexp_instr, regexp_substr
 * ---------------------------------------------------------------------- */

/* regexp_count(string, pattern [, start [, flags]]) */
static Datum
regexp_count(PG_FUNCTION_ARGS)
{
    int32 start = int_arg(fcinfo, 2, 1, 1, INT32_MAX, "start");
    RegexFlags f = flags_arg(fcinfo, 3, "regexp_count");
    MatchIter it;
    int32 count = 0;

    iter_init(&it, pattern_arg(fcinfo, 1, f.cflags), ARG_DATA(0), ARG_LEN(0),
              start);
    while (iter_next(&it))
        count++;
    PG_RETURN_INT32(count);
}

/*
 * Group subexpr of match n from character start in text argument 0 with
 * the pattern in argument 1: true and its byte range if there is one.
 */
static bool
find_nth_group(FunctionCallInfo fcinfo, MatchIter *it, int32 start, int32 n,
               int cflags, int32 subexpr, Size *so, Size *eo)
{
    iter_init(it, pattern_arg(fcinfo, 1, cflags), ARG_DATA(0), ARG_LEN(0),
              start);
    return subexpr <= tdb_regex_ngroups(it->re) && iter_nth(it, n) &&
           tdb_regex_group(it->re, subexpr, so, eo);
}

/* regexp_instr(string, pattern [, start [, N [, endoption [, flags
 * [, subexpr]]]]]): the character position, 0 if there is no match. */
static Datum
regexp_instr(PG_FUNCTION_ARGS)
{
    int32 start = int_arg(fcinfo, 2, 1, 1, INT32_MAX, "start");
    int32 n = int_arg(fcinfo, 3, 1, 1, INT32_MAX, "n");
    int32 endoption = int_arg(fcinfo, 4, 0, 0, 1, "endoption");
    RegexFlags f = flags_arg(fcinfo, 5, "regexp_instr");
    int32 subexpr = int_arg(fcinfo, 6, 0, 0, INT32_MAX, "subexpr");
    MatchIter it;
    Size so, eo;

    if (!find_nth_group(fcinfo, &it, start, n, f.cflags, subexpr, &so, &eo))
        PG_RETURN_INT32(0);
    PG_RETURN_INT32(
        (int32)tdb_utf8_strlen(it.s, endoption ? eo : so) + 1);
}

/* regexp_substr(string, pattern [, start [, N [, flags [, subexpr]]]]) */
static Datum
regexp_substr(PG_FUNCTION_ARGS)
{
    int32 start = int_arg(fcinfo, 2, 1, 1, INT32_MAX, "start");
    int32 n = int_arg(fcinfo, 3, 1, 1, INT32_MAX, "n");
    RegexFlags f = flags_arg(fcinfo, 4, "regexp_substr");
    int32 subexpr = int_arg(fcinfo, 5, 0, 0, INT32_MAX, "subexpr");
    MatchIter it;
    Size so, eo;

    if (!find_nth_group(fcinfo, &it, start, n, f.cflags, subexpr, &so, &eo))
        PG_RETURN_NULL();
    PG_RETURN_POINTER(tdb_text_from_bytes(it.s + so, eo - so));
}

/* ----------------------------------------------------------------------
 * regexp_split_to_table
 * ---------------------------------------------------------------------- */

/* Where a split left off, in the function's multi-call memory. */
typedef struct SplitState {
    Size piece_start; /* start of the piece not yet returned; > len: done */
    Size search;      /* where the next search starts */
} SplitState;

/*
 * The next match that separates pieces: matches that are empty at the
 * start or the end of the string or right after the previous separator
 * are skipped, as PostgreSQL skips them.  Sets *so, *eo; false if none.
 */
static bool
next_separator(Regex *re, const char *s, Size len, SplitState *st, Size *so,
               Size *eo)
{
    MatchIter it = {re, s, len, st->search};

    while (iter_next(&it)) {
        tdb_regex_group(re, 0, so, eo);
        if (*so < len && *eo > st->piece_start) {
            st->search = it.search;
            return true;
        }
    }
    st->search = len + 1;
    return false;
}

/* regexp_split_to_table(string, pattern [, flags]): the pieces between
 * the pattern's matches, one row each. */
static Datum
regexp_split_to_table(PG_FUNCTION_ARGS)
{
    SRFCallContext *srf = fcinfo->context;
    RegexFlags f = flags_arg(fcinfo, 2, "regexp_split_to_table");
    Regex *re = pattern_arg(fcinfo, 1, f.cflags);
    const char *s = ARG_DATA(0);
    Size len = ARG_LEN(0), so, eo, from;
    SplitState *st;

    if (srf->call_no == 0)
        srf->state = tdb_mcxt_alloc_zero(srf->multi_call_mcxt,
                                         sizeof(SplitState));
    st = srf->state;
    if (st->piece_start > len) {
        srf->is_done = true;
        PG_RETURN_NULL();
    }
    from = st->piece_start;
    if (!next_separator(re, s, len, st, &so, &eo)) {
        st->piece_start = len + 1;
        PG_RETURN_POINTER(tdb_text_from_bytes(s + from, len - from));
    }
    st->piece_start = eo;
    PG_RETURN_POINTER(tdb_text_from_bytes(s + from, so - from));
}

/* ----------------------------------------------------------------------
 * substring(string FROM pattern), SIMILAR TO
 * ---------------------------------------------------------------------- */

/* The first group of the first match of re in text argument 0 (the
 * whole match if re has no groups), or NULL. */
static Datum
first_group(FunctionCallInfo fcinfo, Regex *re)
{
    const char *s = ARG_DATA(0);
    Size so, eo;

    if (!tdb_regex_exec(re, s, ARG_LEN(0), 0) ||
        !tdb_regex_group(re, tdb_regex_ngroups(re) > 0 ? 1 : 0, &so, &eo))
        PG_RETURN_NULL();
    PG_RETURN_POINTER(tdb_text_from_bytes(s + so, eo - so));
}

/* substring(string FROM pattern) */
static Datum
textregexsubstr(PG_FUNCTION_ARGS)
{
    return first_group(fcinfo, pattern_arg(fcinfo, 1, 0));
}

/* Building the ARE equivalent of a SIMILAR TO pattern. */
typedef struct SimilarState {
    TextBuf tb;
    bool after_escape; /* the previous character was the escape */
    bool in_class;     /* inside [...] */
    int nquotes;       /* escape-double-quote separators so far */
    bool lazy_first;   /* make the first part's quantifiers non-greedy */
} SimilarState;

static void
similar_emit(SimilarState *st, const char *s, Size n)
{
    tdb_textbuf_append(&st->tb, s, n);
}

/* The character ch[0..n) (c: its byte if ASCII) after the escape. */
static void
similar_escaped(SimilarState *st, const char *ch, Size n, char c)
{
    if (c != '"' || st->in_class) {
        similar_emit(st, "\\", 1);
        similar_emit(st, ch, n);
        return;
    }
    if (st->nquotes >= 2)
        ereport(ERROR, errcode(ERRCODE_INVALID_USE_OF_ESCAPE_CHARACTER),
                errmsg("SQL regular expression may not contain more than "
                       "two escape-double-quote separators"));
    /* the first part is non-greedy, the second a group */
    if (st->nquotes++ == 0)
        similar_emit(st, "){1,1}?(", 8);
    else
        similar_emit(st, "){1,1}(?:", 9);
}

/* An unescaped character. */
static void
similar_plain(SimilarState *st, const char *ch, Size n, char c)
{
    bool lazy = st->lazy_first && st->nquotes == 0;

    if (st->in_class) {
        if (c == '\\')
            similar_emit(st, "\\", 1);
        similar_emit(st, ch, n);
        st->in_class = c != ']';
        return;
    }
    if (c == '[')
        st->in_class = true;
    if (c == '%')
        similar_emit(st, lazy ? ".*?" : ".*", lazy ? 3 : 2);
    else if (c == '_')
        similar_emit(st, ".", 1);
    else if (c == '(')
        similar_emit(st, "(?:", 3);
    else {
        if (c == '\\' || c == '.' || c == '^' || c == '$')
            similar_emit(st, "\\", 1);
        similar_emit(st, ch, n);
        if (lazy && (c == '*' || c == '+' || c == '?' || c == '}'))
            similar_emit(st, "?", 1);
    }
}

/*
 * The ARE equivalent of SQL pattern p[0..plen) with escape character
 * e[0..elen) (elen 0: no escape), as PostgreSQL writes it: anchored,
 * % -> .*, _ -> ., ( -> (?:, the ARE specials \ . ^ $ escaped, and the
 * escape-double-quote separators marking the part substring() returns.
 *
 * lazy_first: for substring(), whose first part ARE matches as short as
 * possible ({1,1}? makes it non-greedy, and in ARE that governs the
 * quantifiers inside); PCRE2 needs each of them made non-greedy.
 */
static text *
similar_to_regex(const char *p, Size plen, const char *e, Size elen,
                 bool lazy_first)
{
    SimilarState st = {.lazy_first = lazy_first};

    tdb_textbuf_init(&st.tb, tdb_current_mcxt, plen + 16);
    similar_emit(&st, "^(?:", 4);
    for (Size i = 0; i < plen;) {
        Size n = tdb_utf8_char_len_max(p + i, plen - i);
        char c = n == 1 ? p[i] : '\0';

        if (st.after_escape) {
            similar_escaped(&st, p + i, n, c);
            st.after_escape = false;
        } else if (elen > 0 && n == elen && memcmp(p + i, e, n) == 0) {
            st.after_escape = true;
        } else {
            similar_plain(&st, p + i, n, c);
        }
        i += n;
    }
    similar_emit(&st, ")$", 2);
    return tdb_textbuf_finish(&st.tb);
}

/* The escape text argument n: empty or one character (22025). */
static void
check_escape_arg(FunctionCallInfo fcinfo, int n)
{
    Size elen = ARG_LEN(n);

    if (elen > 0 && tdb_utf8_strlen(ARG_DATA(n), elen) != 1)
        ereport(ERROR, errcode(ERRCODE_INVALID_ESCAPE_SEQUENCE),
                errmsg("invalid escape string"),
                errhint("Escape string must be empty or one character."));
}

/* similar_to_escape(pattern [, escape]): the default escape is '\'. */
static Datum
similar_to_escape(PG_FUNCTION_ARGS)
{
    if (PG_NARGS() < 2)
        PG_RETURN_POINTER(
            similar_to_regex(ARG_DATA(0), ARG_LEN(0), "\\", 1, false));
    check_escape_arg(fcinfo, 1);
    PG_RETURN_POINTER(
        similar_to_regex(ARG_DATA(0), ARG_LEN(0), ARG_DATA(1), ARG_LEN(1),
                         false));
}

/*
 * Run body, adding to any error it raises the CONTEXT line PostgreSQL
 * prints for a function it defines in SQL (substring(text, text, text)
 * is "select substring($1, similar_to_escape($2, $3))" there).
 */
static Datum
call_as_sql_function(FunctionCallInfo fcinfo, PGFunction body,
                     const char *fname)
{
    volatile Datum result = 0;

    TDB_TRY();
    {
        result = body(fcinfo);
    }
    TDB_CATCH();
    {
        ErrorData e = *tdb_error_current();

        tdb_error_flush();
        ereport(ERROR, errcode(e.sqlerrcode), errmsg("%s", e.message),
                errdetail("%s", e.detail), errhint("%s", e.hint),
                errcontext_msg("%s%sSQL function \"%s\" statement 1",
                               e.context, e.context[0] ? "\n" : "", fname));
    }
    TDB_END_TRY();
    return result;
}

static Datum
similar_substring_body(PG_FUNCTION_ARGS)
{
    text *re_text;

    check_escape_arg(fcinfo, 2);
    re_text = similar_to_regex(ARG_DATA(1), ARG_LEN(1), ARG_DATA(2),
                               ARG_LEN(2), true);
    return first_group(fcinfo,
                       tdb_regex_compile(fcinfo, VARDATA(re_text),
                                         VARSIZE(re_text) - VARHDRSZ, 0));
}

/* substring(string SIMILAR pattern ESCAPE escape) */
static Datum
textregexsubstr_similar(PG_FUNCTION_ARGS)
{
    return call_as_sql_function(fcinfo, similar_substring_body, "substring");
}

/* ----------------------------------------------------------------------
 * The tables
 * ---------------------------------------------------------------------- */

#define T TEXTOID
#define BP BPCHAROID
#define NM NAMEOID
#define I4 INT4OID
#define B BOOLOID

static const FuncDesc regex_funcs[] = {
    FUNC(1254, "textregexeq", textregexeq, B, 2, T, T),
    FUNC(1256, "textregexne", textregexne, B, 2, T, T),
    FUNC(1238, "texticregexeq", texticregexeq, B, 2, T, T),
    FUNC(1239, "texticregexne", texticregexne, B, 2, T, T),
    FUNC(1658, "bpcharregexeq", textregexeq, B, 2, BP, T),
    FUNC(1659, "bpcharregexne", textregexne, B, 2, BP, T),
    FUNC(1656, "bpcharicregexeq", texticregexeq, B, 2, BP, T),
    FUNC(1657, "bpcharicregexne", texticregexne, B, 2, BP, T),
    FUNC(79, "nameregexeq", nameregexeq, B, 2, NM, T),
    FUNC(1252, "nameregexne", nameregexne, B, 2, NM, T),
    FUNC(1240, "nameicregexeq", nameicregexeq, B, 2, NM, T),
    FUNC(1241, "nameicregexne", nameicregexne, B, 2, NM, T),
    FUNC(2284, "regexp_replace", textregexreplace, T, 3, T, T, T),
    FUNC(2285, "regexp_replace", textregexreplace, T, 4, T, T, T, T),
    FUNC(6253, "regexp_replace", textregexreplace_extended, T, 4, T, T, T,
         I4),
    FUNC(6252, "regexp_replace", textregexreplace_extended, T, 5, T, T, T,
         I4, I4),
    FUNC(6251, "regexp_replace", textregexreplace_extended, T, 6, T, T, T,
         I4, I4, T),
    FUNC(6263, "regexp_like", regexp_like, B, 2, T, T),
    FUNC(6264, "regexp_like", regexp_like, B, 3, T, T, T),
    FUNC(6254, "regexp_count", regexp_count, I4, 2, T, T),
    FUNC(6255, "regexp_count", regexp_count, I4, 3, T, T, I4),
    FUNC(6256, "regexp_count", regexp_count, I4, 4, T, T, I4, T),
    FUNC(6257, "regexp_instr", regexp_instr, I4, 2, T, T),
    FUNC(6258, "regexp_instr", regexp_instr, I4, 3, T, T, I4),
    FUNC(6259, "regexp_instr", regexp_instr, I4, 4, T, T, I4, I4),
    FUNC(6260, "regexp_instr", regexp_instr, I4, 5, T, T, I4, I4, I4),
    FUNC(6261, "regexp_instr", regexp_instr, I4, 6, T, T, I4, I4, I4, T),
    FUNC(6262, "regexp_instr", regexp_instr, I4, 7, T, T, I4, I4, I4, T, I4),
    FUNC(6265, "regexp_substr", regexp_substr, T, 2, T, T),
    FUNC(6266, "regexp_substr", regexp_substr, T, 3, T, T, I4),
    FUNC(6267, "regexp_substr", regexp_substr, T, 4, T, T, I4, I4),
    FUNC(6268, "regexp_substr", regexp_substr, T, 5, T, T, I4, I4, T),
    FUNC(6269, "regexp_substr", regexp_substr, T, 6, T, T, I4, I4, T, I4),
    FUNC_SRF(2765, "regexp_split_to_table", regexp_split_to_table, T, 2, T,
             T),
    FUNC_SRF(2766, "regexp_split_to_table", regexp_split_to_table, T, 3, T,
             T, T),
    FUNC(2073, "substring", textregexsubstr, T, 2, T, T),
    FUNC(2074, "substring", textregexsubstr_similar, T, 3, T, T, T),
    FUNC(1987, "similar_to_escape", similar_to_escape, T, 1, T),
    FUNC(1986, "similar_to_escape", similar_to_escape, T, 2, T, T),
};

#define REGEX_OPER(oid_, name_, l_, fn_, neg_)                              \
    OPER(oid_, name_, l_, T, B, fn_, NULL, neg_)

static const OperDesc regex_opers[] = {
    REGEX_OPER(641, "~", T, textregexeq, "!~"),
    REGEX_OPER(642, "!~", T, textregexne, "~"),
    REGEX_OPER(1228, "~*", T, texticregexeq, "!~*"),
    REGEX_OPER(1229, "!~*", T, texticregexne, "~*"),
    REGEX_OPER(1055, "~", BP, textregexeq, "!~"),
    REGEX_OPER(1056, "!~", BP, textregexne, "~"),
    REGEX_OPER(1234, "~*", BP, texticregexeq, "!~*"),
    REGEX_OPER(1235, "!~*", BP, texticregexne, "~*"),
    REGEX_OPER(639, "~", NM, nameregexeq, "!~"),
    REGEX_OPER(640, "!~", NM, nameregexne, "~"),
    REGEX_OPER(1226, "~*", NM, nameicregexeq, "!~*"),
    REGEX_OPER(1227, "!~*", NM, nameicregexne, "~*"),
};

const BuiltinSet tdb_builtins_regex = {
    .name = "regex",
    .funcs = regex_funcs,
    .nfuncs = (int)lengthof(regex_funcs),
    .opers = regex_opers,
    .nopers = (int)lengthof(regex_opers),
};
