/*
 * like.c -- LIKE and ILIKE (operators ~~, !~~, ~~*, !~~*) for text,
 * bpchar and name, LIKE for bytea (where '_' is one byte), and
 * like_escape(), which rewrites a pattern written
 * with an ESCAPE clause into the default backslash form.
 *
 * Pattern language (SQL, as PostgreSQL reads it): '%' matches any run of
 * characters, '_' exactly one character, '\' makes the next pattern
 * character literal; everything else matches itself, byte for byte.
 * ILIKE folds ASCII letters of both sides to lower case first (the C
 * locale), then matches the same way.
 *
 * The matcher walks text and pattern together.  At a '%' it first
 * absorbs any following '%' and '_' (each '_' consuming one text
 * character), then tries the rest of the pattern at each later text
 * position whose byte equals the next literal, recursing once per
 * candidate.  A recursive call that runs out of text reports ABORT,
 * which tells every caller that starting later cannot help either, so
 * patterns with many '%' stay polynomial.
 *
 * A pattern ending in a lone '\' raises 22025 when the matcher reaches
 * it with text left to match, as in PostgreSQL.
 */
#include "common/base.h"

#include "common/elog.h"
#include "common/stack_depth.h"
#include "types/strutil.h"
#include "types/textfuncs.h"

typedef enum LikeResult { LIKE_TRUE, LIKE_FALSE, LIKE_ABORT } LikeResult;

static TDB_NORETURN void
pattern_ends_in_escape(void)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_ESCAPE_SEQUENCE),
            errmsg("LIKE pattern must not end with escape character"));
    __builtin_unreachable();
}

/* Bytes of the character at t: one for bytea, else a UTF-8 character. */
static Size
char_step(const char *t, Size tlen, bool bytewise)
{
    return bytewise ? 1 : tdb_utf8_char_len_max(t, tlen);
}

static LikeResult
like_match(const char *t, Size tlen, const char *p, Size plen, bool bytewise)
{
    while (tlen > 0 && plen > 0) {
        char pc = *p;

        if (pc == '%') {
            char first;

            p++, plen--;
            /* "%_%_%" is "at least two characters, then anything" */
            for (; plen > 0 && (*p == '%' || *p == '_'); p++, plen--) {
                if (*p == '_') {
                    Size n;

                    if (tlen == 0)
                        return LIKE_ABORT;
                    n = char_step(t, tlen, bytewise);
                    t += n, tlen -= n;
                }
            }
            if (plen == 0)
                return LIKE_TRUE;
            if (*p == '\\' && plen < 2)
                pattern_ends_in_escape();
            first = *p == '\\' ? p[1] : *p;
            /* each '%' may recurse, as deep as the pattern has them */
            tdb_check_stack_depth();
            /* try each text position that starts with the literal */
            while (tlen > 0) {
                Size n;

                if (*t == first) {
                    LikeResult r = like_match(t, tlen, p, plen, bytewise);

                    if (r != LIKE_FALSE)
                        return r;
                }
                n = char_step(t, tlen, bytewise);
                t += n, tlen -= n;
            }
            return LIKE_ABORT;
        }
        if (pc == '_') {
            Size n = char_step(t, tlen, bytewise);

            t += n, tlen -= n;
            p++, plen--;
            continue;
        }
        if (pc == '\\') {
            p++, plen--;
            if (plen == 0)
                pattern_ends_in_escape();
        }
        /* a literal byte (escaped or not) */
        if (*p != *t)
            return LIKE_FALSE;
        p++, plen--;
        t++, tlen--;
    }
    if (tlen > 0)
        return LIKE_FALSE;
    /* text used up: only '%'s may be left in the pattern */
    while (plen > 0 && *p == '%')
        p++, plen--;
    return plen == 0 ? LIKE_TRUE : LIKE_ABORT;
}

static bool
like_bytes(const char *t, Size tlen, const char *p, Size plen)
{
    return like_match(t, tlen, p, plen, false) == LIKE_TRUE;
}

/* ILIKE: both sides with ASCII letters lower-cased. */
static bool
ilike_bytes(const char *t, Size tlen, const char *p, Size plen)
{
    char *lt = tdb_palloc(tlen + 1), *lp = tdb_palloc(plen + 1);
    bool result;

    for (Size i = 0; i < tlen; i++)
        lt[i] = tdb_c_tolower(t[i]);
    for (Size i = 0; i < plen; i++)
        lp[i] = tdb_c_tolower(p[i]);
    result = like_bytes(lt, tlen, lp, plen);
    tdb_pfree(lt);
    tdb_pfree(lp);
    return result;
}

/*
 * The LIKE family's operators: argument 0 (a name if name_arg, else a
 * text or bpchar, padding included) against the pattern in argument 1;
 * icase for ILIKE, negate for NOT.
 */
static Datum
like_op(FunctionCallInfo fcinfo, bool name_arg, bool icase, bool negate)
{
    const varlena *pat = PG_GETARG_VARLENA_P(1);
    const char *t;
    Size tlen;
    bool match;

    if (name_arg) {
        t = PG_GETARG_POINTER(0);
        tlen = strlen(t);
    } else {
        t = VARDATA_ANY(PG_GETARG_VARLENA_P(0));
        tlen = VARSIZE_ANY_EXHDR(PG_GETARG_VARLENA_P(0));
    }
    match = (icase ? ilike_bytes : like_bytes)(t, tlen, VARDATA_ANY(pat),
                                               VARSIZE_ANY_EXHDR(pat));
    PG_RETURN_BOOL(match != negate);
}

Datum
tdb_textlike(PG_FUNCTION_ARGS)
{
    return like_op(fcinfo, false, false, false);
}

Datum
tdb_textnlike(PG_FUNCTION_ARGS)
{
    return like_op(fcinfo, false, false, true);
}

Datum
tdb_texticlike(PG_FUNCTION_ARGS)
{
    return like_op(fcinfo, false, true, false);
}

Datum
tdb_texticnlike(PG_FUNCTION_ARGS)
{
    return like_op(fcinfo, false, true, true);
}

Datum
tdb_namelike(PG_FUNCTION_ARGS)
{
    return like_op(fcinfo, true, false, false);
}

Datum
tdb_namenlike(PG_FUNCTION_ARGS)
{
    return like_op(fcinfo, true, false, true);
}

Datum
tdb_nameiclike(PG_FUNCTION_ARGS)
{
    return like_op(fcinfo, true, true, false);
}

Datum
tdb_nameicnlike(PG_FUNCTION_ARGS)
{
    return like_op(fcinfo, true, true, true);
}

/*
 * like_escape(pattern, escape): the pattern rewritten for backslash
 * escaping.  An empty escape disables escaping (every '\' is doubled);
 * otherwise each unescaped escape character becomes '\', and each '\'
 * that is not itself escaped is doubled.  The escape must be one
 * character (22025).
 */
/* bytea LIKE: '_' matches one byte. */
static Datum
bytea_like_op(FunctionCallInfo fcinfo, bool negate)
{
    const varlena *t = PG_GETARG_VARLENA_P(0), *pat = PG_GETARG_VARLENA_P(1);
    bool match = like_match(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t),
                            VARDATA_ANY(pat), VARSIZE_ANY_EXHDR(pat),
                            true) == LIKE_TRUE;

    PG_RETURN_BOOL(match != negate);
}

Datum
tdb_bytealike(PG_FUNCTION_ARGS)
{
    return bytea_like_op(fcinfo, false);
}

Datum
tdb_byteanlike(PG_FUNCTION_ARGS)
{
    return bytea_like_op(fcinfo, true);
}

Datum
tdb_like_escape(PG_FUNCTION_ARGS)
{
    const char *p = VARDATA_ANY(PG_GETARG_VARLENA_P(0));
    Size plen = VARSIZE_ANY_EXHDR(PG_GETARG_VARLENA_P(0));
    const char *e = VARDATA_ANY(PG_GETARG_VARLENA_P(1));
    Size elen = VARSIZE_ANY_EXHDR(PG_GETARG_VARLENA_P(1));
    bool after_escape = false;
    TextBuf tb;

    if (elen > 0 && tdb_utf8_strlen(e, elen) != 1)
        ereport(ERROR, errcode(ERRCODE_INVALID_ESCAPE_SEQUENCE),
                errmsg("invalid escape string"),
                errhint("Escape string must be empty or one character."));
    tdb_textbuf_init(&tb, tdb_current_mcxt, plen * 2);
    for (Size i = 0; i < plen;) {
        Size n = tdb_utf8_char_len_max(p + i, plen - i);

        if (elen > 0 && n == elen && memcmp(p + i, e, n) == 0 &&
            !after_escape) {
            tdb_textbuf_append(&tb, "\\", 1);
            after_escape = true;
        } else if (p[i] == '\\') {
            tdb_textbuf_append(&tb, after_escape ? "\\" : "\\\\",
                               after_escape ? 1 : 2);
            after_escape = false;
        } else {
            tdb_textbuf_append(&tb, p + i, n);
            after_escape = false;
        }
        i += n;
    }
    PG_RETURN_POINTER(tdb_textbuf_finish(&tb));
}
