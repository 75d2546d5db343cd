/*
 * textfuncs.h -- inside the types layer: the text family's functions,
 * implemented across text.c, bpchar.c, name.c, char.c, strfuncs.c,
 * like.c and concat.c, and listed in text.c's tables.  Not for other
 * layers: they reach these through the registry (builtins.h).
 *
 * Text arguments may carry short (1-byte) varlena headers: read them
 * with VARDATA_ANY / VARSIZE_ANY_EXHDR.  Results are allocated in the
 * current memory context.
 */
#ifndef TDB_TYPES_TEXTFUNCS_H
#define TDB_TYPES_TEXTFUNCS_H

#include "common/base.h"

#include "types/builtins.h"
#include "types/textbuf.h"

/* name's fixed width, terminator included (PostgreSQL's NAMEDATALEN). */
#define NAMEDATALEN 64

/* Bytewise comparison (the C collation): memcmp, then the shorter one
 * first. */
static inline int
tdb_bytes_cmp(const char *a, Size alen, const char *b, Size blen)
{
    int r = memcmp(a, b, alen < blen ? alen : blen);

    if (r != 0)
        return r;
    return alen < blen ? -1 : alen > blen ? 1 : 0;
}

/* A new text of len data bytes, header set, data uninitialized, in the
 * current memory context. */
static inline text *
tdb_text_new(Size len)
{
    text *t = tdb_palloc(VARHDRSZ + len);

    SET_VARSIZE(t, VARHDRSZ + len);
    return t;
}

/*
 * The six comparison functions prefix##eq, ne, lt, le, gt, ge of one
 * pair of argument types, from an int expression over fcinfo that
 * compares argument 0 with argument 1.
 */
#define TDB_CMP_FUNCS(prefix, cmp)                                             \
    Datum prefix##eq(PG_FUNCTION_ARGS)                                         \
    {                                                                          \
        PG_RETURN_BOOL((cmp) == 0);                                            \
    }                                                                          \
    Datum prefix##ne(PG_FUNCTION_ARGS)                                         \
    {                                                                          \
        PG_RETURN_BOOL((cmp) != 0);                                            \
    }                                                                          \
    Datum prefix##lt(PG_FUNCTION_ARGS)                                         \
    {                                                                          \
        PG_RETURN_BOOL((cmp) < 0);                                             \
    }                                                                          \
    Datum prefix##le(PG_FUNCTION_ARGS)                                         \
    {                                                                          \
        PG_RETURN_BOOL((cmp) <= 0);                                            \
    }                                                                          \
    Datum prefix##gt(PG_FUNCTION_ARGS)                                         \
    {                                                                          \
        PG_RETURN_BOOL((cmp) > 0);                                             \
    }                                                                          \
    Datum prefix##ge(PG_FUNCTION_ARGS)                                         \
    {                                                                          \
        PG_RETURN_BOOL((cmp) >= 0);                                            \
    }
#define TDB_CMP_FUNCS_DECL(prefix)                                             \
    Datum prefix##eq(PG_FUNCTION_ARGS);                                        \
    Datum prefix##ne(PG_FUNCTION_ARGS);                                        \
    Datum prefix##lt(PG_FUNCTION_ARGS);                                        \
    Datum prefix##le(PG_FUNCTION_ARGS);                                        \
    Datum prefix##gt(PG_FUNCTION_ARGS);                                        \
    Datum prefix##ge(PG_FUNCTION_ARGS)

/*
 * Return argument argno of a larger/smaller function.  Called as an
 * aggregate transition function (fcinfo->context set), a new input
 * (argno 1) is first copied into the group's memory, where the state
 * must live.
 */
Datum tdb_agg_pick(FunctionCallInfo fcinfo, int argno);

/* text.c */
TDB_CMP_FUNCS_DECL(tdb_text);
Datum tdb_bttextcmp(PG_FUNCTION_ARGS);
Datum tdb_hashtext(PG_FUNCTION_ARGS);

/* bpchar.c: character(n) and character varying(n) */
Datum tdb_varchar_input(const char *str, int32 typmod);
Datum tdb_bpchar_input(const char *str, int32 typmod);
Datum tdb_varchar_apply_typmod(Datum value, int32 typmod, bool is_explicit);
Datum tdb_bpchar_apply_typmod(Datum value, int32 typmod, bool is_explicit);
char *tdb_char_typmod_out(int32 typmod);
Datum tdb_varchar_fn(PG_FUNCTION_ARGS);
Datum tdb_bpchar_fn(PG_FUNCTION_ARGS);
TDB_CMP_FUNCS_DECL(tdb_bpchar);
Datum tdb_bpcharcmp(PG_FUNCTION_ARGS);
Datum tdb_hashbpchar(PG_FUNCTION_ARGS);
Datum tdb_bpchar_larger(PG_FUNCTION_ARGS);
Datum tdb_bpchar_smaller(PG_FUNCTION_ARGS);
Datum tdb_bpcharlen(PG_FUNCTION_ARGS);

/* name.c */
Datum tdb_name_input(const char *str, int32 typmod);
char *tdb_name_output(Datum value);
TDB_CMP_FUNCS_DECL(tdb_name);
TDB_CMP_FUNCS_DECL(tdb_name_text);
TDB_CMP_FUNCS_DECL(tdb_text_name);
Datum tdb_btnamecmp(PG_FUNCTION_ARGS);
Datum tdb_hashname(PG_FUNCTION_ARGS);
Datum tdb_name_text(PG_FUNCTION_ARGS);
Datum tdb_text_name(PG_FUNCTION_ARGS);
Datum tdb_bpchar_name(PG_FUNCTION_ARGS);

/* char.c: "char" */
Datum tdb_char_input(const char *str, int32 typmod);
char *tdb_char_output(Datum value);
TDB_CMP_FUNCS_DECL(tdb_char);
Datum tdb_btcharcmp(PG_FUNCTION_ARGS);
Datum tdb_hashchar(PG_FUNCTION_ARGS);
Datum tdb_char_text(PG_FUNCTION_ARGS);
Datum tdb_char_bpchar(PG_FUNCTION_ARGS);
Datum tdb_text_char(PG_FUNCTION_ARGS);
Datum tdb_chartoi4(PG_FUNCTION_ARGS);
Datum tdb_i4tochar(PG_FUNCTION_ARGS);

/* strfuncs.c */
Datum tdb_textlen(PG_FUNCTION_ARGS);
Datum tdb_textoctetlen(PG_FUNCTION_ARGS);
Datum tdb_lower(PG_FUNCTION_ARGS);
Datum tdb_upper(PG_FUNCTION_ARGS);
Datum tdb_initcap(PG_FUNCTION_ARGS);
Datum tdb_text_substr(PG_FUNCTION_ARGS);
Datum tdb_text_substr_no_len(PG_FUNCTION_ARGS);
Datum tdb_text_overlay(PG_FUNCTION_ARGS);
Datum tdb_text_overlay_no_len(PG_FUNCTION_ARGS);
Datum tdb_text_left(PG_FUNCTION_ARGS);
Datum tdb_text_right(PG_FUNCTION_ARGS);
Datum tdb_textpos(PG_FUNCTION_ARGS);
Datum tdb_text_starts_with(PG_FUNCTION_ARGS);
Datum tdb_replace_text(PG_FUNCTION_ARGS);
Datum tdb_split_part(PG_FUNCTION_ARGS);
Datum tdb_repeat(PG_FUNCTION_ARGS);
Datum tdb_chr(PG_FUNCTION_ARGS);
Datum tdb_text_reverse(PG_FUNCTION_ARGS);
Datum tdb_lpad(PG_FUNCTION_ARGS);
Datum tdb_rpad(PG_FUNCTION_ARGS);
Datum tdb_lpad_space(PG_FUNCTION_ARGS);
Datum tdb_rpad_space(PG_FUNCTION_ARGS);
Datum tdb_btrim(PG_FUNCTION_ARGS);
Datum tdb_ltrim(PG_FUNCTION_ARGS);
Datum tdb_rtrim(PG_FUNCTION_ARGS);
Datum tdb_btrim1(PG_FUNCTION_ARGS);
Datum tdb_ltrim1(PG_FUNCTION_ARGS);
Datum tdb_rtrim1(PG_FUNCTION_ARGS);
Datum tdb_md5_text(PG_FUNCTION_ARGS);

/* like.c */
Datum tdb_textlike(PG_FUNCTION_ARGS);
Datum tdb_textnlike(PG_FUNCTION_ARGS);
Datum tdb_texticlike(PG_FUNCTION_ARGS);
Datum tdb_texticnlike(PG_FUNCTION_ARGS);
Datum tdb_namelike(PG_FUNCTION_ARGS);
Datum tdb_namenlike(PG_FUNCTION_ARGS);
Datum tdb_nameiclike(PG_FUNCTION_ARGS);
Datum tdb_nameicnlike(PG_FUNCTION_ARGS);
Datum tdb_like_escape(PG_FUNCTION_ARGS);
Datum tdb_bytealike(PG_FUNCTION_ARGS);
Datum tdb_byteanlike(PG_FUNCTION_ARGS);

/* concat.c */
Datum tdb_textcat(PG_FUNCTION_ARGS);
Datum tdb_textanycat(PG_FUNCTION_ARGS);
Datum tdb_anytextcat(PG_FUNCTION_ARGS);
Datum tdb_text_concat(PG_FUNCTION_ARGS);
Datum tdb_text_concat_ws(PG_FUNCTION_ARGS);
Datum tdb_string_agg_transfn(PG_FUNCTION_ARGS);
Datum tdb_string_agg_finalfn(PG_FUNCTION_ARGS);

#endif /* TDB_TYPES_TEXTFUNCS_H */
