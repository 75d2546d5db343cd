/*
 * text.c -- the string types' family: text, character varying(n),
 * character(n) (bpchar), name and "char".  This file holds text's own
 * input/output, comparisons and hashing, and the family's tables: the
 * functions, operators, casts, aggregates and type support of all five
 * types, whose implementations live in
 *
 *   bpchar.c    the length typmods of varchar/bpchar, bpchar semantics
 *   name.c      name
 *   char.c      "char"
 *   strfuncs.c  length, substr, position, replace, trims, pads, ...
 *   like.c      LIKE / ILIKE and like_escape
 *   concat.c    ||, concat, concat_ws, string_agg
 *
 * Comparison is bytewise, the "C" collation (builtins.h).  varchar has
 * no operators of its own: as in PostgreSQL it is binary-coercible to
 * text and uses text's.
 *
 * Entry point: tdb_builtins_text (registry.c).
 */
#include "common/base.h"

#include "common/elog.h"
#include "types/builtin_rows.h"
#include "types/hashfn.h"
#include "types/textfuncs.h"
#include "types/sendrecv.h"

/* ----------------------------------------------------------------------
 * text
 * ---------------------------------------------------------------------- */

static Datum
text_input(const char *str, int32 typmod)
{
    (void)typmod;
    return PointerGetDatum(tdb_text_from_cstring(str));
}

/* Also the output of varchar and bpchar (padding included). */
static char *
text_output(Datum value)
{
    return tdb_text_to_cstring(DatumGetPointer(value));
}

static int
text_cmp(FunctionCallInfo fcinfo)
{
    const varlena *a = PG_GETARG_VARLENA_P(0), *b = PG_GETARG_VARLENA_P(1);

    return tdb_bytes_cmp(VARDATA_ANY(a), VARSIZE_ANY_EXHDR(a), VARDATA_ANY(b),
                         VARSIZE_ANY_EXHDR(b));
}

TDB_CMP_FUNCS(tdb_text, text_cmp(fcinfo))

Datum
tdb_bttextcmp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(text_cmp(fcinfo));
}

Datum
tdb_hashtext(PG_FUNCTION_ARGS)
{
    const varlena *t = PG_GETARG_VARLENA_P(0);

    PG_RETURN_INT32(
        (int32)tdb_hash_bytes(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t)));
}

Datum
tdb_agg_pick(FunctionCallInfo fcinfo, int argno)
{
    const varlena *v = PG_GETARG_VARLENA_P(argno);
    varlena *copy;

    if (argno == 0 || fcinfo->context == NULL)
        PG_RETURN_POINTER(v);
    copy = tdb_mcxt_alloc(tdb_agg_group_mcxt(fcinfo), VARSIZE_ANY(v));
    memcpy(copy, v, VARSIZE_ANY(v));
    PG_RETURN_POINTER(copy);
}

static Datum
text_larger(PG_FUNCTION_ARGS)
{
    return tdb_agg_pick(fcinfo, text_cmp(fcinfo) >= 0 ? 0 : 1);
}

static Datum
text_smaller(PG_FUNCTION_ARGS)
{
    return tdb_agg_pick(fcinfo, text_cmp(fcinfo) <= 0 ? 0 : 1);
}

/* ----------------------------------------------------------------------
 * The tables
 * ---------------------------------------------------------------------- */

#define T TEXTOID
#define BP BPCHAROID
#define VC VARCHAROID
#define NM NAMEOID
#define CH CHAROID
#define I4 INT4OID

/* concat(a1, ..., an) and concat_ws(sep, a1, ..., an): one row per
 * argument count, all with PostgreSQL's OID of the variadic function. */
#define CONCAT_ROW(name_, oid_, fn_, nargs_, ...)                           \
    {                                                                       \
        .oid = (oid_), .name = (name_), .rettype = T, .nargs = (nargs_),    \
        .argtypes = {__VA_ARGS__}, .strict = false, .retset = false,        \
        .volatility = PROVOLATILE_STABLE, .fn = (fn_),                      \
        .variadic_any = true                                                \
    }
#define A ANYOID

static const FuncDesc text_funcs[] = {
    FUNC(1317, "length", tdb_textlen, I4, 1, T),
    FUNC(1381, "char_length", tdb_textlen, I4, 1, T),
    FUNC(1369, "character_length", tdb_textlen, I4, 1, T),
    FUNC(1257, "textlen", tdb_textlen, I4, 1, T),
    FUNC(1318, "length", tdb_bpcharlen, I4, 1, BP),
    FUNC(1372, "char_length", tdb_bpcharlen, I4, 1, BP),
    FUNC(1367, "character_length", tdb_bpcharlen, I4, 1, BP),
    FUNC_TOAST(1374, "octet_length", tdb_textoctetlen, I4, 1, T),
    FUNC_TOAST(1375, "octet_length", tdb_textoctetlen, I4, 1, BP),
    FUNC(870, "lower", tdb_lower, T, 1, T),
    FUNC(871, "upper", tdb_upper, T, 1, T),
    FUNC(872, "initcap", tdb_initcap, T, 1, T),
    FUNC_TOAST(877, "substr", tdb_text_substr, T, 3, T, I4, I4),
    FUNC_TOAST(883, "substr", tdb_text_substr_no_len, T, 2, T, I4),
    FUNC_TOAST(936, "substring", tdb_text_substr, T, 3, T, I4, I4),
    FUNC_TOAST(937, "substring", tdb_text_substr_no_len, T, 2, T, I4),
    FUNC(1404, "overlay", tdb_text_overlay, T, 4, T, T, I4, I4),
    FUNC(1405, "overlay", tdb_text_overlay_no_len, T, 3, T, T, I4),
    FUNC(849, "position", tdb_textpos, I4, 2, T, T),
    FUNC(868, "strpos", tdb_textpos, I4, 2, T, T),
    FUNC(2087, "replace", tdb_replace_text, T, 3, T, T, T),
    FUNC(1622, "repeat", tdb_repeat, T, 2, T, I4),
    FUNC(1621, "chr", tdb_chr, T, 1, I4),
    FUNC(3062, "reverse", tdb_text_reverse, T, 1, T),
    FUNC_TOAST(3060, "left", tdb_text_left, T, 2, T, I4),
    FUNC(3061, "right", tdb_text_right, T, 2, T, I4),
    FUNC(873, "lpad", tdb_lpad, T, 3, T, I4, T),
    FUNC(879, "lpad", tdb_lpad_space, T, 2, T, I4),
    FUNC(874, "rpad", tdb_rpad, T, 3, T, I4, T),
    FUNC(880, "rpad", tdb_rpad_space, T, 2, T, I4),
    FUNC(884, "btrim", tdb_btrim, T, 2, T, T),
    FUNC(885, "btrim", tdb_btrim1, T, 1, T),
    FUNC(875, "ltrim", tdb_ltrim, T, 2, T, T),
    FUNC(881, "ltrim", tdb_ltrim1, T, 1, T),
    FUNC(876, "rtrim", tdb_rtrim, T, 2, T, T),
    FUNC(882, "rtrim", tdb_rtrim1, T, 1, T),
    FUNC(2088, "split_part", tdb_split_part, T, 3, T, T, I4),
    FUNC(3696, "starts_with", tdb_text_starts_with, BOOLOID, 2, T, T),
    FUNC(2311, "md5", tdb_md5_text, T, 1, T),
    FUNC(1258, "textcat", tdb_textcat, T, 2, T, T),
    FUNC(1637, "like_escape", tdb_like_escape, T, 2, T, T),
    FUNC(850, "textlike", tdb_textlike, BOOLOID, 2, T, T),
    FUNC(851, "textnlike", tdb_textnlike, BOOLOID, 2, T, T),
    FUNC(1633, "texticlike", tdb_texticlike, BOOLOID, 2, T, T),
    FUNC(1634, "texticnlike", tdb_texticnlike, BOOLOID, 2, T, T),
    FUNC_V(2003, "textanycat", tdb_textanycat, PROVOLATILE_STABLE, T, 2, T,
           A),
    FUNC_V(2004, "anytextcat", tdb_anytextcat, PROVOLATILE_STABLE, T, 2, A,
           T),
    CONCAT_ROW("concat", 3058, tdb_text_concat, 1, A),
    CONCAT_ROW("concat", 3058, tdb_text_concat, 2, A, A),
    CONCAT_ROW("concat", 3058, tdb_text_concat, 3, A, A, A),
    CONCAT_ROW("concat", 3058, tdb_text_concat, 4, A, A, A, A),
    CONCAT_ROW("concat", 3058, tdb_text_concat, 5, A, A, A, A, A),
    CONCAT_ROW("concat", 3058, tdb_text_concat, 6, A, A, A, A, A, A),
    CONCAT_ROW("concat", 3058, tdb_text_concat, 7, A, A, A, A, A, A, A),
    CONCAT_ROW("concat", 3058, tdb_text_concat, 8, A, A, A, A, A, A, A, A),
    CONCAT_ROW("concat_ws", 3059, tdb_text_concat_ws, 2, T, A),
    CONCAT_ROW("concat_ws", 3059, tdb_text_concat_ws, 3, T, A, A),
    CONCAT_ROW("concat_ws", 3059, tdb_text_concat_ws, 4, T, A, A, A),
    CONCAT_ROW("concat_ws", 3059, tdb_text_concat_ws, 5, T, A, A, A, A),
    CONCAT_ROW("concat_ws", 3059, tdb_text_concat_ws, 6, T, A, A, A, A, A),
    CONCAT_ROW("concat_ws", 3059, tdb_text_concat_ws, 7, T, A, A, A, A, A,
               A),
    CONCAT_ROW("concat_ws", 3059, tdb_text_concat_ws, 8, T, A, A, A, A, A, A,
               A),
    /* the cast functions, callable by name */
    FUNC(401, "text", tdb_rtrim1, T, 1, BP),
    FUNC(406, "text", tdb_name_text, T, 1, NM),
    FUNC(946, "text", tdb_char_text, T, 1, CH),
    FUNC(407, "name", tdb_text_name, NM, 1, T),
    FUNC(409, "name", tdb_bpchar_name, NM, 1, BP),
    FUNC(1400, "name", tdb_text_name, NM, 1, VC),
    FUNC(408, "bpchar", tdb_name_text, BP, 1, NM),
    FUNC(860, "bpchar", tdb_char_bpchar, BP, 1, CH),
    FUNC(668, "bpchar", tdb_bpchar_fn, BP, 3, BP, I4, BOOLOID),
    FUNC(669, "varchar", tdb_varchar_fn, VC, 3, VC, I4, BOOLOID),
    FUNC(1401, "varchar", tdb_name_text, VC, 1, NM),
    FUNC(944, "char", tdb_text_char, CH, 1, T),
    FUNC(78, "char", tdb_i4tochar, CH, 1, I4),
    FUNC(77, "int4", tdb_chartoi4, I4, 1, CH),
    /* support functions */
    FUNC(458, "text_larger", text_larger, T, 2, T, T),
    FUNC(459, "text_smaller", text_smaller, T, 2, T, T),
    FUNC(1063, "bpchar_larger", tdb_bpchar_larger, BP, 2, BP, BP),
    FUNC(1064, "bpchar_smaller", tdb_bpchar_smaller, BP, 2, BP, BP),
    FUNC(360, "bttextcmp", tdb_bttextcmp, I4, 2, T, T),
    FUNC(1078, "bpcharcmp", tdb_bpcharcmp, I4, 2, BP, BP),
    FUNC(359, "btnamecmp", tdb_btnamecmp, I4, 2, NM, NM),
    FUNC(358, "btcharcmp", tdb_btcharcmp, I4, 2, CH, CH),
    FUNC(400, "hashtext", tdb_hashtext, I4, 1, T),
    FUNC(1080, "hashbpchar", tdb_hashbpchar, I4, 1, BP),
    FUNC(455, "hashname", tdb_hashname, I4, 1, NM),
    FUNC(454, "hashchar", tdb_hashchar, I4, 1, CH),
};

#define OPER_BOOL(oid_, name_, l_, r_, fn_, neg_)                           \
    OPER(oid_, name_, l_, r_, BOOLOID, fn_, NULL, neg_)

static const OperDesc text_opers[] = {
    /* text */
    OPER_EQ(98, T, T, tdb_texteq), OPER_NE(531, T, T, tdb_textne),
    OPER_LT(664, T, T, tdb_textlt), OPER_LE(665, T, T, tdb_textle),
    OPER_GT(666, T, T, tdb_textgt), OPER_GE(667, T, T, tdb_textge),
    OPER(654, "||", T, T, T, tdb_textcat, NULL, NULL),
    OPER_S(2779, "||", T, A, T, tdb_textanycat, NULL, NULL),
    OPER_S(2780, "||", A, T, T, tdb_anytextcat, NULL, NULL),
    OPER_BOOL(1209, "~~", T, T, tdb_textlike, "!~~"),
    OPER_BOOL(1210, "!~~", T, T, tdb_textnlike, "~~"),
    OPER_BOOL(1627, "~~*", T, T, tdb_texticlike, "!~~*"),
    OPER_BOOL(1628, "!~~*", T, T, tdb_texticnlike, "~~*"),
    OPER_BOOL(3877, "^@", T, T, tdb_text_starts_with, NULL),
    /* bpchar: LIKE sees the padding, as in PostgreSQL */
    OPER_EQ(1054, BP, BP, tdb_bpchareq), OPER_NE(1057, BP, BP, tdb_bpcharne),
    OPER_LT(1058, BP, BP, tdb_bpcharlt), OPER_LE(1059, BP, BP, tdb_bpcharle),
    OPER_GT(1060, BP, BP, tdb_bpchargt), OPER_GE(1061, BP, BP, tdb_bpcharge),
    OPER_BOOL(1211, "~~", BP, T, tdb_textlike, "!~~"),
    OPER_BOOL(1212, "!~~", BP, T, tdb_textnlike, "~~"),
    OPER_BOOL(1629, "~~*", BP, T, tdb_texticlike, "!~~*"),
    OPER_BOOL(1630, "!~~*", BP, T, tdb_texticnlike, "~~*"),
    /* name, and name against text */
    OPER_EQ(93, NM, NM, tdb_nameeq), OPER_NE(643, NM, NM, tdb_namene),
    OPER_LT(660, NM, NM, tdb_namelt), OPER_LE(661, NM, NM, tdb_namele),
    OPER_GT(662, NM, NM, tdb_namegt), OPER_GE(663, NM, NM, tdb_namege),
    OPER_EQ(254, NM, T, tdb_name_texteq), OPER_NE(259, NM, T, tdb_name_textne),
    OPER_LT(255, NM, T, tdb_name_textlt), OPER_LE(256, NM, T, tdb_name_textle),
    OPER_GT(258, NM, T, tdb_name_textgt), OPER_GE(257, NM, T, tdb_name_textge),
    OPER_EQ(260, T, NM, tdb_text_nameeq), OPER_NE(265, T, NM, tdb_text_namene),
    OPER_LT(261, T, NM, tdb_text_namelt), OPER_LE(262, T, NM, tdb_text_namele),
    OPER_GT(264, T, NM, tdb_text_namegt), OPER_GE(263, T, NM, tdb_text_namege),
    OPER_BOOL(1207, "~~", NM, T, tdb_namelike, "!~~"),
    OPER_BOOL(1208, "!~~", NM, T, tdb_namenlike, "~~"),
    OPER_BOOL(1625, "~~*", NM, T, tdb_nameiclike, "!~~*"),
    OPER_BOOL(1626, "!~~*", NM, T, tdb_nameicnlike, "~~*"),
    /* "char" */
    OPER_EQ(92, CH, CH, tdb_chareq), OPER_NE(630, CH, CH, tdb_charne),
    OPER_LT(631, CH, CH, tdb_charlt), OPER_LE(632, CH, CH, tdb_charle),
    OPER_GT(633, CH, CH, tdb_chargt), OPER_GE(634, CH, CH, tdb_charge),
};

static const CastDesc text_casts[] = {
    CAST_BINARY(T, VC, CAST_IMPLICIT),
    CAST_BINARY(T, BP, CAST_IMPLICIT),
    CAST(T, NM, CAST_IMPLICIT, tdb_text_name),
    CAST(T, CH, CAST_ASSIGNMENT, tdb_text_char),
    CAST_BINARY(VC, T, CAST_IMPLICIT),
    CAST_BINARY(VC, BP, CAST_IMPLICIT),
    CAST(VC, NM, CAST_IMPLICIT, tdb_text_name),
    CAST(VC, CH, CAST_ASSIGNMENT, tdb_text_char),
    CAST(BP, T, CAST_IMPLICIT, tdb_rtrim1),
    CAST(BP, VC, CAST_IMPLICIT, tdb_rtrim1),
    CAST(BP, NM, CAST_IMPLICIT, tdb_bpchar_name),
    CAST(BP, CH, CAST_ASSIGNMENT, tdb_text_char),
    CAST(NM, T, CAST_IMPLICIT, tdb_name_text),
    CAST(NM, VC, CAST_ASSIGNMENT, tdb_name_text),
    CAST(NM, BP, CAST_ASSIGNMENT, tdb_name_text),
    CAST_INOUT(NM, CH, CAST_EXPLICIT),
    CAST(CH, T, CAST_IMPLICIT, tdb_char_text),
    CAST(CH, VC, CAST_ASSIGNMENT, tdb_char_text),
    CAST(CH, BP, CAST_ASSIGNMENT, tdb_char_bpchar),
    CAST_INOUT(CH, NM, CAST_ASSIGNMENT),
    CAST(CH, I4, CAST_EXPLICIT, tdb_chartoi4),
    CAST(I4, CH, CAST_EXPLICIT, tdb_i4tochar),
};

static const AggDesc text_aggs[] = {
    AGG(2145, "min", 1, T, InvalidOid, T, T, text_smaller, true, NULL, NULL),
    AGG(2129, "max", 1, T, InvalidOid, T, T, text_larger, true, NULL, NULL),
    AGG(2245, "min", 1, BP, InvalidOid, BP, BP, tdb_bpchar_smaller, true,
        NULL, NULL),
    AGG(2244, "max", 1, BP, InvalidOid, BP, BP, tdb_bpchar_larger, true, NULL,
        NULL),
    AGG(3538, "string_agg", 2, T, T, T, INTERNALOID, tdb_string_agg_transfn,
        false, tdb_string_agg_finalfn, NULL),
};

static const TypeSupport text_types[] = {
    {.typid = T, .input = text_input, .output = text_output,
     .cmp = tdb_bttextcmp, .hash = tdb_hashtext, .eq = tdb_texteq,
     .send = tdb_text_send, .recv = tdb_text_recv},
    {.typid = VC, .input = tdb_varchar_input, .output = text_output,
     .cmp = tdb_bttextcmp, .hash = tdb_hashtext, .eq = tdb_texteq,
     .apply_typmod = tdb_varchar_apply_typmod,
     .typmod_out = tdb_char_typmod_out,
     .send = tdb_varchar_send, .recv = tdb_varchar_recv},
    {.typid = BP, .input = tdb_bpchar_input, .output = text_output,
     .cmp = tdb_bpcharcmp, .hash = tdb_hashbpchar, .eq = tdb_bpchareq,
     .apply_typmod = tdb_bpchar_apply_typmod,
     .typmod_out = tdb_char_typmod_out,
     .send = tdb_bpchar_send, .recv = tdb_bpchar_recv},
    {.typid = NM, .input = tdb_name_input, .output = tdb_name_output,
     .cmp = tdb_btnamecmp, .hash = tdb_hashname, .eq = tdb_nameeq,
     .send = tdb_name_send, .recv = tdb_name_recv},
    {.typid = CH, .input = tdb_char_input, .output = tdb_char_output,
     .cmp = tdb_btcharcmp, .hash = tdb_hashchar, .eq = tdb_chareq,
     .send = tdb_char_send, .recv = tdb_char_recv},
};

const BuiltinSet tdb_builtins_text = BUILTIN_SET(
    "text", text_funcs, text_opers, text_casts, text_aggs, text_types);
