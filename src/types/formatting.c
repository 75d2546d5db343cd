/*
 * formatting.c -- template-driven formatting: the template parser shared
 * by every to_char/to_number family (formatting.h), and the number
 * templates of PostgreSQL 15: to_char(int4|int8|numeric, text),
 * to_number(text, text), and the float4/float8 variants that the float
 * family registers.
 *
 * Pipeline of to_char for numbers:
 *
 *   template text ---tdb_fmt_parse + num_spec_add---> FmtNode[] + NumSpec
 *        (parsed once per call site: cached in fn_extra)
 *   value ---per-type preparation---> NumText
 *        (rounding to the template's fraction digits, the V shift, the
 *         '#' mask when the integer part does not fit, Roman numerals,
 *         the whole result for EEEE)
 *   FmtNode[] + NumText ---write_number---> text
 *
 * NumSpec is what the template says about the number: digit positions
 * before and after the point, where '0' padding starts, which sign
 * patterns appear, FM.  NumText is the value as the writer consumes it:
 * an unsigned digit string ("1234.50"), its sign, and how many digit
 * positions stay blank before the first digit.  write_number then walks
 * the template once: each digit position (9, 0, ., D) places the next
 * character of the digit string, a blank or a padding zero; the sign is
 * written just before the first digit that is printed (S, PR, or the
 * plain '-'), or by MI/PL/SG where they stand; literal text is copied.
 *
 * The writer reproduces PostgreSQL's output byte for byte, including its
 * corner cases: a NUL placed in the output (SG with no sign, digit
 * positions beyond a "NaN") ends the result there, FM drops trailing
 * fraction zeroes except those a '0' pattern asks for, and the number of
 * digit positions decides where a trailing PR bracket or S sign goes.
 * lc_numeric is C: D is '.', G is ',', L is a blank, S is '+'/'-'.
 *
 * to_number runs the template over the input instead (read_number):
 * digit positions collect digits, a point and a sign into
 * "[sign]digits[.digits]", literal characters skip one input character,
 * and the result goes through numeric's input with the typmod the
 * template implies, then is divided by 10^V.
 *
 * EXTENSION POINT for the date/time patterns (to_char(timestamp, text),
 * to_timestamp, to_date): they are another FmtDialect over the same
 * parser -- their own keyword table (HH24, YYYY, Mon, ...), the FM/TM
 * prefix and TH/th/SP postfix modifiers as FmtSuffix rows, separators
 * on -- plus a writer that walks the FmtNodes, using tdb_fmt_ordinal
 * for TH and tdb_fmt_roman for RM.  formatting.h spells out the steps.
 * That code can live in its own file with its own BuiltinSet; nothing
 * in the number code below (NumSpec, the writer, the reader) needs to
 * change.
 *
 * Entry points: tdb_fmt_parse, tdb_fmt_ordinal, tdb_fmt_roman,
 * tdb_float4_to_char, tdb_float8_to_char, and the BuiltinSet
 * tdb_builtins_formatting.
 */
#include "common/base.h"

#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/builtin_rows.h"
#include "types/builtins.h"
#include "types/formatting.h"
#include "types/numeric.h"
#include "types/numutils.h"
#include "types/strutil.h"
#include "types/textbuf.h"

/* ----------------------------------------------------------------------
 * The template parser (any dialect)
 * ---------------------------------------------------------------------- */

static const FmtKeyword *
match_keyword(const FmtDialect *dialect, const char *s)
{
    for (int i = 0; i < dialect->nkeywords; i++) {
        const FmtKeyword *k = &dialect->keywords[i];

        if (strncmp(s, k->name, (size_t)k->len) == 0)
            return k;
    }
    return NULL;
}

static const FmtSuffix *
match_suffix(const FmtDialect *dialect, const char *s, bool prefix)
{
    for (int i = 0; i < dialect->nsuffixes; i++) {
        const FmtSuffix *x = &dialect->suffixes[i];

        if (x->is_prefix == prefix && strncmp(s, x->name, (size_t)x->len) == 0)
            return x;
    }
    return NULL;
}

/* Store the character at *s (one UTF-8 character) in node; advance *s. */
static void
take_char(FmtNode *node, const char **s, FmtNodeKind kind)
{
    Size n = tdb_utf8_char_len_max(*s, strlen(*s));

    node->kind = (uint8)kind;
    node->suffix = 0;
    node->key = NULL;
    memcpy(node->chars, *s, n);
    node->chars[n] = '\0';
    *s += n;
}

static bool
is_ascii_punct(char c)
{
    return c > ' ' && c < 0x7f && !tdb_c_isalnum(c);
}

/*
 * A keyword (with its modifiers) at *s, as one node; false if none
 * starts here.  A prefix modifier that is not followed by a keyword is
 * consumed all the same, as PostgreSQL does.
 */
static bool
parse_keyword(FmtNode *node, const char **s, const FmtDialect *dialect,
              void *state)
{
    const FmtSuffix *x = match_suffix(dialect, *s, true);
    uint8 suffix = 0;

    if (x != NULL) {
        suffix = x->bit;
        *s += x->len;
    }
    if (**s == '\0' || (node->key = match_keyword(dialect, *s)) == NULL)
        return false;
    *s += node->key->len;
    node->kind = FMT_NODE_KEYWORD;
    node->suffix = suffix;
    if (dialect->on_keyword != NULL)
        dialect->on_keyword(state, node);
    if (**s != '\0' && (x = match_suffix(dialect, *s, false)) != NULL) {
        node->suffix |= x->bit;
        *s += x->len;
    }
    return true;
}

/*
 * A double-quoted literal at *s (just past the opening quote): one node
 * per character up to the closing quote or the end; a backslash takes
 * the next character literally.  Returns the next free node.
 */
static FmtNode *
parse_quoted(FmtNode *node, const char **s)
{
    while (**s != '\0') {
        if (**s == '"') {
            (*s)++;
            break;
        }
        if (**s == '\\' && (*s)[1] != '\0')
            (*s)++;
        take_char(node++, s, FMT_NODE_LITERAL);
    }
    return node;
}

FmtNode *
tdb_fmt_parse(const char *str, Size len, const FmtDialect *dialect, void *state)
{
    char *copy = tdb_palloc(len + 1);
    FmtNode *nodes = tdb_palloc_array(FmtNode, len + 1);
    FmtNode *node = nodes;
    const char *s = copy;

    memcpy(copy, str, len);
    copy[len] = '\0';
    while (*s != '\0') {
        if (parse_keyword(node, &s, dialect, state)) {
            node++;
        } else if (*s == '"') {
            s++;
            node = parse_quoted(node, &s);
        } else if (*s != '\0') {
            /* outside quotes a backslash only escapes a double quote */
            if (*s == '\\' && s[1] == '"')
                s++;
            if (dialect->separators && is_ascii_punct(*s))
                take_char(node++, &s, FMT_NODE_SEPARATOR);
            else if (tdb_c_isspace(*s))
                take_char(node++, &s, FMT_NODE_SPACE);
            else
                take_char(node++, &s, FMT_NODE_LITERAL);
        }
    }
    node->kind = FMT_NODE_END;
    node->key = NULL;
    tdb_pfree(copy);
    return nodes;
}

/* ----------------------------------------------------------------------
 * Helpers shared with the date/time patterns
 * ---------------------------------------------------------------------- */

const char *
tdb_fmt_ordinal(const char *num, bool upper)
{
    static const char *const lower_forms[] = {"th", "st", "nd", "rd"};
    static const char *const upper_forms[] = {"TH", "ST", "ND", "RD"};
    Size len = strlen(num);
    char last = len > 0 ? num[len - 1] : '\0';
    int form = 0;

    if (!isdigit((unsigned char)last))
        ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                errmsg("\"%s\" is not a number", num));
    /* 11th, 12th, 13th, 111th ...; otherwise by the last digit */
    if (!(len > 1 && num[len - 2] == '1') && last >= '1' && last <= '3')
        form = last - '0';
    return upper ? upper_forms[form] : lower_forms[form];
}

/* Append the Roman numeral of one decimal digit d (0..9), given the
 * letters for one, five and ten units of its place. */
static void
roman_digit(char **p, int d, char one, char five, char ten)
{
    if (d == 9) {
        *(*p)++ = one;
        *(*p)++ = ten;
        return;
    }
    if (d == 4) {
        *(*p)++ = one;
        *(*p)++ = five;
        return;
    }
    if (d >= 5) {
        *(*p)++ = five;
        d -= 5;
    }
    while (d-- > 0)
        *(*p)++ = one;
}

char *
tdb_fmt_roman(int n)
{
    char *result = tdb_palloc(16); /* MMMDCCCLXXXVIII is the longest */
    char *p = result;

    if (n < 1 || n > 3999) {
        memset(result, '#', 15);
        result[15] = '\0';
        return result;
    }
    for (int m = n / 1000; m > 0; m--)
        *p++ = 'M';
    roman_digit(&p, n / 100 % 10, 'C', 'D', 'M');
    roman_digit(&p, n / 10 % 10, 'X', 'L', 'C');
    roman_digit(&p, n % 10, 'I', 'V', 'X');
    *p = '\0';
    return result;
}

/* ----------------------------------------------------------------------
 * Number templates: keywords and NumSpec
 * ---------------------------------------------------------------------- */

enum NumKey {
    NK_COMMA,
    NK_POINT,
    NK_ZERO,
    NK_NINE,
    NK_B,
    NK_C,
    NK_D,
    NK_EEEE,
    NK_FM,
    NK_G,
    NK_L,
    NK_MI,
    NK_PL,
    NK_PR,
    NK_RN,
    NK_rn,
    NK_SG,
    NK_SP,
    NK_S,
    NK_TH,
    NK_th,
    NK_V,
};

/*
 * PostgreSQL's number patterns, in its matching order (within a first
 * letter, longer names first).  B, C and SP are accepted and print
 * nothing, as there.
 */
static const FmtKeyword num_keywords[] = {
    {",", 1, NK_COMMA}, {".", 1, NK_POINT},   {"0", 1, NK_ZERO},
    {"9", 1, NK_NINE},  {"B", 1, NK_B},       {"C", 1, NK_C},
    {"D", 1, NK_D},     {"EEEE", 4, NK_EEEE}, {"FM", 2, NK_FM},
    {"G", 1, NK_G},     {"L", 1, NK_L},       {"MI", 2, NK_MI},
    {"PL", 2, NK_PL},   {"PR", 2, NK_PR},     {"RN", 2, NK_RN},
    {"SG", 2, NK_SG},   {"SP", 2, NK_SP},     {"S", 1, NK_S},
    {"TH", 2, NK_TH},   {"V", 1, NK_V},       {"b", 1, NK_B},
    {"c", 1, NK_C},     {"d", 1, NK_D},       {"eeee", 4, NK_EEEE},
    {"fm", 2, NK_FM},   {"g", 1, NK_G},       {"l", 1, NK_L},
    {"mi", 2, NK_MI},   {"pl", 2, NK_PL},     {"pr", 2, NK_PR},
    {"rn", 2, NK_rn},   {"sg", 2, NK_SG},     {"sp", 2, NK_SP},
    {"s", 1, NK_S},     {"th", 2, NK_th},     {"v", 1, NK_V},
};

/* NumSpec.flags */
#define NUMF_POINT 0x0001 /* '.' or D */
#define NUMF_ZERO 0x0002  /* a '0' before the point */
#define NUMF_BLANK 0x0004 /* B before any digit */
#define NUMF_FILL 0x0008  /* FM */
#define NUMF_LSIGN 0x0010 /* S */
#define NUMF_ANGLE 0x0020 /* PR */
#define NUMF_MINUS 0x0040 /* MI or SG */
#define NUMF_PLUS 0x0080  /* PL or SG */
#define NUMF_ROMAN 0x0100 /* RN or rn */
#define NUMF_SHIFT 0x0200 /* V */
#define NUMF_EEEE 0x0400

/* NumSpec.sign_place: where S puts the sign */
#define SIGN_NONE 0
#define SIGN_BEFORE 1 /* before the first printed digit */
#define SIGN_AFTER 2  /* after the last digit position */

typedef struct NumSpec {
    uint32 flags;
    int int_digits;   /* digit positions before the point */
    int frac_digits;  /* digit positions after the point */
    int shift_digits; /* 9s after V: the value is scaled by 10^this */
    int zero_from;    /* 1-based position of the first '0' before the
                       * point; 0 if none */
    int zero_to;      /* digit positions up to the last '0' */
    int sign_at;      /* int_digits when S appeared before the point */
    int sign_place;   /* SIGN_* */
} NumSpec;

static void
num_syntax_error(const char *msg)
{
    ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR), errmsg("%s", msg));
}

static void
num_spec_digit(NumSpec *spec, bool zero)
{
    if (spec->flags & NUMF_ANGLE)
        num_syntax_error(zero ? "\"0\" must be ahead of \"PR\""
                              : "\"9\" must be ahead of \"PR\"");
    if (!zero && (spec->flags & NUMF_SHIFT)) {
        spec->shift_digits++;
        return;
    }
    if (zero && !(spec->flags & (NUMF_ZERO | NUMF_POINT))) {
        spec->flags |= NUMF_ZERO;
        spec->zero_from = spec->int_digits + 1;
    }
    if (spec->flags & NUMF_POINT)
        spec->frac_digits++;
    else
        spec->int_digits++;
    if (zero)
        spec->zero_to = spec->int_digits + spec->frac_digits;
}

static void
num_spec_point(NumSpec *spec)
{
    if (spec->flags & NUMF_POINT)
        num_syntax_error("multiple decimal points");
    if (spec->flags & NUMF_SHIFT)
        num_syntax_error("cannot use \"V\" and decimal point together");
    spec->flags |= NUMF_POINT;
}

static void
num_spec_lsign(NumSpec *spec)
{
    if (spec->flags & NUMF_LSIGN)
        num_syntax_error("cannot use \"S\" twice");
    if (spec->flags & (NUMF_PLUS | NUMF_MINUS | NUMF_ANGLE))
        num_syntax_error(
            "cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together");
    spec->flags |= NUMF_LSIGN;
    if (spec->flags & NUMF_POINT) {
        spec->sign_place = SIGN_AFTER;
    } else {
        spec->sign_place = SIGN_BEFORE;
        spec->sign_at = spec->int_digits;
    }
}

/* MI, PL or SG: which names the pattern for the message, flags its bits. */
static void
num_spec_sign_pattern(NumSpec *spec, const char *which, uint32 flags)
{
    if (spec->flags & NUMF_LSIGN)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("cannot use \"S\" and \"%s\" together", which));
    spec->flags |= flags;
}

static void
num_spec_eeee(NumSpec *spec)
{
    if (spec->flags & NUMF_EEEE)
        num_syntax_error("cannot use \"EEEE\" twice");
    if (spec->flags & (NUMF_BLANK | NUMF_FILL | NUMF_LSIGN | NUMF_ANGLE |
                       NUMF_MINUS | NUMF_PLUS | NUMF_ROMAN | NUMF_SHIFT))
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("\"EEEE\" is incompatible with other formats"),
                errdetail("\"EEEE\" may only be used together with digit "
                          "and decimal point patterns."));
    spec->flags |= NUMF_EEEE;
}

/* The number dialect's on_keyword hook: fold one pattern into the spec
 * (state), raising 42601 for combinations PostgreSQL rejects. */
static void
num_spec_add(void *state, const FmtNode *node)
{
    NumSpec *spec = state;
    int id = node->key->id;

    if ((spec->flags & NUMF_EEEE) && id != NK_EEEE)
        num_syntax_error("\"EEEE\" must be the last pattern used");
    switch (id) {
    case NK_NINE:
    case NK_ZERO:
        num_spec_digit(spec, id == NK_ZERO);
        break;
    case NK_B:
        if (spec->int_digits == 0 && spec->frac_digits == 0 &&
            !(spec->flags & NUMF_ZERO))
            spec->flags |= NUMF_BLANK;
        break;
    case NK_D:
    case NK_POINT:
        num_spec_point(spec);
        break;
    case NK_FM:
        spec->flags |= NUMF_FILL;
        break;
    case NK_S:
        num_spec_lsign(spec);
        break;
    case NK_MI:
        num_spec_sign_pattern(spec, "MI", NUMF_MINUS);
        break;
    case NK_PL:
        num_spec_sign_pattern(spec, "PL", NUMF_PLUS);
        break;
    case NK_SG:
        num_spec_sign_pattern(spec, "SG", NUMF_MINUS | NUMF_PLUS);
        break;
    case NK_PR:
        if (spec->flags & (NUMF_LSIGN | NUMF_PLUS | NUMF_MINUS))
            num_syntax_error(
                "cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together");
        spec->flags |= NUMF_ANGLE;
        break;
    case NK_RN:
    case NK_rn:
        spec->flags |= NUMF_ROMAN;
        break;
    case NK_V:
        if (spec->flags & NUMF_POINT)
            num_syntax_error("cannot use \"V\" and decimal point together");
        spec->flags |= NUMF_SHIFT;
        break;
    case NK_EEEE:
        num_spec_eeee(spec);
        break;
    default: /* C, G, L, SP, TH: nothing to record */
        break;
    }
}

static const FmtDialect num_dialect = {
    .keywords = num_keywords,
    .nkeywords = (int)lengthof(num_keywords),
    .suffixes = NULL,
    .nsuffixes = 0,
    .separators = false,
    .on_keyword = num_spec_add,
};

/* A parsed number template. */
typedef struct NumTemplate {
    FmtNode *nodes;
    NumSpec spec;
    Size src_len; /* the template text it was parsed from */
    char *src;
} NumTemplate;

static Size
count_nodes(const FmtNode *nodes)
{
    Size n = 0;

    while (nodes[n].kind != FMT_NODE_END)
        n++;
    return n + 1;
}

/* A copy of tmpl (nodes and text) in mcxt. */
static NumTemplate *
num_template_copy(const NumTemplate *tmpl, MemoryContext mcxt)
{
    Size nnodes = count_nodes(tmpl->nodes);
    NumTemplate *copy = tdb_mcxt_alloc(mcxt, sizeof(NumTemplate));

    *copy = *tmpl;
    copy->nodes =
        tdb_mcxt_alloc(mcxt, tdb_mcxt_array_size(nnodes, sizeof(FmtNode)));
    memcpy(copy->nodes, tmpl->nodes, nnodes * sizeof(FmtNode));
    copy->src = tdb_mcxt_alloc(mcxt, tmpl->src_len + 1);
    memcpy(copy->src, tmpl->src, tmpl->src_len);
    return copy;
}

/*
 * The parsed form of template fmt.  A call site keeps the last template
 * it parsed in fn_extra (templates are nearly always constants), so a
 * query formatting many rows parses once.  Raises the template's 42601
 * errors.  The result is borrowed: do not modify it.
 */
static const NumTemplate *
num_template(FunctionCallInfo fcinfo, const varlena *fmt)
{
    FmgrInfo *flinfo = fcinfo->flinfo;
    const char *src = VARDATA_ANY(fmt);
    Size len = VARSIZE_ANY_EXHDR(fmt);
    NumTemplate *cached = flinfo != NULL ? flinfo->fn_extra : NULL;
    NumTemplate tmpl;

    if (cached != NULL && cached->src_len == len &&
        memcmp(cached->src, src, len) == 0)
        return cached;
    memset(&tmpl, 0, sizeof(tmpl));
    tmpl.nodes = tdb_fmt_parse(src, len, &num_dialect, &tmpl.spec);
    tmpl.src_len = len;
    tmpl.src = (char *)src;
    if (flinfo == NULL || flinfo->fn_mcxt == NULL)
        return num_template_copy(&tmpl, tdb_current_mcxt);
    flinfo->fn_extra = num_template_copy(&tmpl, flinfo->fn_mcxt);
    return flinfo->fn_extra;
}

/* ----------------------------------------------------------------------
 * Writing a number through a template (to_char)
 * ---------------------------------------------------------------------- */

/* The value as the writer consumes it. */
typedef struct NumText {
    char *digits;    /* "1234.50" (no sign), a '#' mask, a Roman numeral,
                      * or for EEEE the whole result */
    char sign;       /* '+' or '-'; 0 for Roman numerals */
    int lead_blanks; /* digit positions before the first digit */
} NumText;

typedef struct NumWriter {
    NumSpec spec; /* the template's, adjusted for this value */
    TextBuf out;
    const char *number;    /* NumText.digits */
    const char *next;      /* its next character to place */
    const char *last_kept; /* FM: the last fraction character to print */
    char sign;             /* '+', '-' or 0 */
    bool sign_written;     /* the sign is written or not wanted */
    bool in_number;        /* the last digit position printed a digit */
    int slot;              /* digit positions done so far */
    int lead_blanks;       /* NumText.lead_blanks */
    int last_slot;         /* the sign-closing position (see closing_slot) */
} NumWriter;

static void
out_char(NumWriter *w, char c)
{
    tdb_textbuf_append(&w->out, &c, 1);
}

static void
out_str(NumWriter *w, const char *s)
{
    tdb_textbuf_append(&w->out, s, strlen(s));
}

static bool
has_flag(const NumWriter *w, uint32 flag)
{
    return (w->spec.flags & flag) != 0;
}

/* The last fraction character of number that is not a trailing zero
 * (the point itself if all are zero); NULL without a point. */
static const char *
last_significant(const char *number)
{
    const char *point = strchr(number, '.');
    const char *last = point;

    if (point == NULL)
        return NULL;
    for (const char *p = point + 1; *p != '\0'; p++)
        if (*p != '0')
            last = p;
    return last;
}

/* FM: keep fraction zeroes up to the last '0' pattern. */
static void
keep_zero_patterns(NumWriter *w)
{
    const char *end = w->number + strlen(w->number);
    const char *z;

    if (w->last_kept == NULL || w->spec.zero_to <= w->lead_blanks)
        return;
    z = w->number + (w->spec.zero_to - w->lead_blanks);
    if (z > end)
        z = end;
    if (w->last_kept < z)
        w->last_kept = z;
}

/* Sign handling decided once per value, before the template walk. */
static void
writer_init_sign(NumWriter *w)
{
    NumSpec *spec = &w->spec;

    if (spec->flags & (NUMF_PLUS | NUMF_MINUS)) {
        /* MI/SG write the sign themselves; PL alone leaves '-' to the
         * digits */
        w->sign_written = (spec->flags & NUMF_MINUS) != 0;
        return;
    }
    if (w->sign != '-' && (spec->flags & NUMF_FILL))
        spec->flags &= ~NUMF_ANGLE;
    w->sign_written = w->sign == '+' && (spec->flags & NUMF_FILL) &&
                      !(spec->flags & NUMF_LSIGN);
    /* S after every integer digit position goes after the number */
    if (spec->sign_place == SIGN_BEFORE && spec->int_digits == spec->sign_at)
        spec->sign_place = SIGN_AFTER;
}

static void
writer_init(NumWriter *w, const NumSpec *spec, const NumText *nt)
{
    memset(w, 0, sizeof(*w));
    w->spec = *spec;
    if (w->spec.zero_from > 0)
        w->spec.zero_from--; /* 0-based from here on */
    if (w->spec.flags & NUMF_ROMAN) {
        /* RN ignores every other pattern but FM */
        w->spec.flags = (w->spec.flags & NUMF_FILL) | NUMF_ROMAN;
        w->spec.sign_place = SIGN_NONE;
        w->spec.sign_at = w->spec.int_digits = w->spec.frac_digits = 0;
    }
    w->number = w->next = nt->digits;
    w->sign = nt->sign;
    w->lead_blanks = nt->lead_blanks;
    writer_init_sign(w);
    w->last_slot = w->spec.frac_digits + w->spec.int_digits - 1;
    if (has_flag(w, NUMF_FILL) && has_flag(w, NUMF_POINT)) {
        w->last_kept = last_significant(w->number);
        keep_zero_patterns(w);
    }
    if (!w->sign_written && w->lead_blanks == 0)
        w->last_slot++;
    tdb_textbuf_init(&w->out, tdb_current_mcxt, 32);
}

/* A leading zero that prints as a blank: "0.5" through 9.9 is " .5". */
static bool
zero_is_blank(const NumWriter *w)
{
    return !has_flag(w, NUMF_ZERO) && w->next == w->number &&
           w->number[0] == '0' && w->spec.frac_digits != 0;
}

/* FM with nothing worth printing after the point ("3." for 3.00). */
static bool
keeps_bare_point(const NumWriter *w)
{
    return w->last_kept != NULL && *w->last_kept == '.';
}

static bool
sign_is_due(const NumWriter *w)
{
    bool at_number = w->slot >= w->lead_blanks ||
                     (has_flag(w, NUMF_ZERO) && w->spec.zero_from == w->slot);

    return at_number && (!zero_is_blank(w) || keeps_bare_point(w));
}

static void
write_leading_sign(NumWriter *w)
{
    if (has_flag(w, NUMF_LSIGN)) {
        if (w->spec.sign_place == SIGN_BEFORE) {
            out_char(w, w->sign == '-' ? '-' : '+');
            w->sign_written = true;
        }
    } else if (has_flag(w, NUMF_ANGLE)) {
        out_char(w, w->sign == '+' ? ' ' : '<');
        w->sign_written = true;
    } else if (w->sign == '+') {
        if (!has_flag(w, NUMF_FILL))
            out_char(w, ' ');
        w->sign_written = true;
    } else if (w->sign == '-') {
        out_char(w, '-');
        w->sign_written = true;
    }
}

/* Place the next character of the number (or a stand-in for it). */
static void
place_next_char(NumWriter *w, int key)
{
    if (*w->next == '.') {
        out_char(w, '.');
    } else if (w->last_kept != NULL && w->next > w->last_kept &&
               key != NK_ZERO) {
        /* FM: a trailing zero left out */
    } else if (zero_is_blank(w)) {
        if (!has_flag(w, NUMF_FILL))
            out_char(w, ' ');
        else if (keeps_bare_point(w))
            out_char(w, '0');
    } else {
        /* a digit, a '#', a letter of NaN -- or the NUL past its end,
         * which ends the result there */
        out_char(w, *w->next);
        w->in_number = true;
    }
    if (*w->next != '\0')
        w->next++;
}

/* The digit position after which PR's '>' or a trailing S goes. */
static int
closing_slot(const NumWriter *w)
{
    if (w->last_kept != NULL && w->last_kept == w->next)
        return w->slot;
    return w->last_slot + (w->lead_blanks > 0 ? 1 : 0) +
           (has_flag(w, NUMF_POINT) ? 1 : 0);
}

static void
write_trailing_sign(NumWriter *w)
{
    if (w->sign_written && has_flag(w, NUMF_ANGLE))
        out_char(w, w->sign == '+' ? ' ' : '>');
    else if (has_flag(w, NUMF_LSIGN) && w->spec.sign_place == SIGN_AFTER)
        out_char(w, w->sign == '-' ? '-' : '+');
}

/* One digit position: 9, 0, '.' or D. */
static void
write_digit_slot(NumWriter *w, int key)
{
    bool before_number = w->slot < w->lead_blanks;

    if (has_flag(w, NUMF_ROMAN))
        return;
    w->in_number = false;
    if (!w->sign_written && sign_is_due(w))
        write_leading_sign(w);
    if (before_number &&
        (!has_flag(w, NUMF_ZERO) || w->spec.zero_from > w->slot)) {
        if (!has_flag(w, NUMF_FILL))
            out_char(w, ' ');
    } else if (before_number) {
        out_char(w, '0');
        w->in_number = true;
    } else {
        place_next_char(w, key);
    }
    if (w->slot + 1 == closing_slot(w))
        write_trailing_sign(w);
    w->slot++;
}

/* ',' or G: a separator inside the number, a blank (or nothing, FM)
 * before it. */
static void
write_group_sep(NumWriter *w)
{
    if (w->in_number)
        out_char(w, ',');
    else if (!has_flag(w, NUMF_FILL))
        out_char(w, ' ');
}

static void
write_roman(NumWriter *w, bool lower)
{
    char *s = tdb_palloc(strlen(w->next) + 16);

    if (has_flag(w, NUMF_FILL))
        strcpy(s, w->next);
    else
        snprintf(s, strlen(w->next) + 16, "%15s", w->next);
    if (lower)
        for (char *p = s; *p != '\0'; p++)
            *p = tdb_c_tolower(*p);
    out_str(w, s);
    tdb_pfree(s);
}

/* MI ('-') or PL ('+'): that sign if the value has it, else a blank. */
static void
write_sign_pattern(NumWriter *w, char which)
{
    if (w->sign == which)
        out_char(w, which);
    else if (!has_flag(w, NUMF_FILL))
        out_char(w, ' ');
}

static void
write_keyword(NumWriter *w, int id)
{
    switch (id) {
    case NK_NINE:
    case NK_ZERO:
    case NK_POINT:
    case NK_D:
        write_digit_slot(w, id);
        break;
    case NK_COMMA:
    case NK_G:
        write_group_sep(w);
        break;
    case NK_L:
        out_char(w, ' '); /* the C locale has no currency symbol */
        break;
    case NK_RN:
    case NK_rn:
        write_roman(w, id == NK_rn);
        break;
    case NK_TH:
    case NK_th:
        if (!has_flag(w, NUMF_ROMAN | NUMF_POINT) && w->number[0] != '#' &&
            w->sign != '-')
            out_str(w, tdb_fmt_ordinal(w->number, id == NK_TH));
        break;
    case NK_MI:
        write_sign_pattern(w, '-');
        break;
    case NK_PL:
        write_sign_pattern(w, '+');
        break;
    case NK_SG:
        out_char(w, w->sign); /* 0 with RN: ends the result */
        break;
    default: /* S and PR are written with the digits; B, C, FM, SP, V */
        break;
    }
}

/* The result up to the first NUL written into it. */
static text *
finish_output(TextBuf *out)
{
    text *result = tdb_textbuf_finish(out);
    Size len = strnlen(VARDATA(result), VARSIZE(result) - VARHDRSZ);

    SET_VARSIZE(result, len + VARHDRSZ);
    return result;
}

static text *
write_number(const FmtNode *nodes, const NumSpec *spec, const NumText *nt)
{
    NumWriter w;

    if (spec->flags & NUMF_EEEE)
        return tdb_text_from_cstring(nt->digits);
    writer_init(&w, spec, nt);
    for (const FmtNode *n = nodes; n->kind != FMT_NODE_END; n++) {
        if (n->kind == FMT_NODE_KEYWORD)
            write_keyword(&w, n->key->id);
        else
            out_str(&w, n->chars);
    }
    return finish_output(&w.out);
}

/* ----------------------------------------------------------------------
 * Preparing values (NumText) for the writer
 * ---------------------------------------------------------------------- */

/* '#' in every digit position, with the point after the integer ones. */
static char *
overflow_mask(const NumSpec *spec)
{
    int len = spec->int_digits + spec->frac_digits + 1;
    char *mask = tdb_palloc((Size)len + 1);

    memset(mask, '#', (Size)len);
    mask[spec->int_digits] = '.';
    mask[len] = '\0';
    return mask;
}

/*
 * Set nt from a signed decimal string "[-]digits[.digits]" whose
 * fraction already has the template's length: the sign, the blanks
 * before it, or the '#' mask when its integer part is too long.
 */
static void
fit_decimal(const NumSpec *spec, char *str, NumText *nt)
{
    int int_len;

    nt->sign = str[0] == '-' ? '-' : '+';
    nt->digits = str[0] == '-' ? str + 1 : str;
    int_len = (int)strcspn(nt->digits, ".");
    if (int_len < spec->int_digits)
        nt->lead_blanks = spec->int_digits - int_len;
    else if (int_len > spec->int_digits)
        nt->digits = overflow_mask(spec);
}

/* EEEE for a value with no digits (NaN, infinities): " #.##e###"-like. */
static char *
sci_mask(const NumSpec *spec)
{
    int len = spec->int_digits + spec->frac_digits + 6;
    char *mask = tdb_palloc((Size)len + 1);

    memset(mask, '#', (Size)len);
    mask[0] = ' ';
    mask[spec->int_digits + 1] = '.';
    mask[len] = '\0';
    return mask;
}

/* A blank in front of an unsigned EEEE result, for alignment. */
static char *
pad_unsigned(char *s)
{
    char *padded;

    if (s[0] == '-')
        return s;
    padded = tdb_palloc(strlen(s) + 2);
    padded[0] = ' ';
    strcpy(padded + 1, s);
    return padded;
}

/*
 * The finite numeric value in scientific notation with frac digits in
 * the significand ("1.23e+02"), rounded half away from zero; zero has
 * exponent 0.  A carry may leave a two-digit significand ("10.0e+00"),
 * as in PostgreSQL.
 */
static char *
numeric_sci(Datum value, int frac)
{
    NumericVar var;
    NumericVar scale;
    NumericVar sig;
    NumericDigit unit;
    int exponent = 0;
    char *sig_text;
    char *result;
    Size len;

    tdb_numeric_to_var(value, &var);
    if (var.ndigits > 0) {
        int lead = var.digits[0];

        exponent = var.weight * DEC_DIGITS;
        for (; lead >= 10; lead /= 10)
            exponent++;
    }
    /* scale = 10^exponent as one base-NBASE digit */
    numvar_init(&scale);
    scale.weight = exponent >= 0 ? exponent / DEC_DIGITS
                                 : -((-exponent + DEC_DIGITS - 1) / DEC_DIGITS);
    unit = 1;
    for (int i = exponent - scale.weight * DEC_DIGITS; i > 0; i--)
        unit *= 10;
    scale.ndigits = 1;
    scale.digits = &unit;
    numvar_init(&sig);
    tdb_numvar_div(&var, &scale, &sig, Max(frac, 0), true);
    sig_text = tdb_numvar_to_cstring(&sig);
    len = strlen(sig_text) + 16;
    result = tdb_palloc(len);
    snprintf(result, len, "%se%+03d", sig_text, exponent);
    tdb_numvar_free(&sig);
    tdb_numvar_free(&var);
    return result;
}

/*
 * A double printed as PostgreSQL's snprintf prints it: the C library's
 * digits, but "NaN", "Infinity" and "-Infinity" (with '+' if plus)
 * for the special values.  conv is 'e' or 'f'.
 */
static char *
print_double(double v, char conv, int prec, bool plus)
{
    char *s;
    int len;

    if (isnan(v))
        return tdb_pstrdup("NaN");
    if (isinf(v))
        return tdb_pstrdup(v < 0  ? "-Infinity"
                           : plus ? "+Infinity"
                                  : "Infinity");
    if (conv == 'e')
        len = plus ? snprintf(NULL, 0, "%+.*e", prec, v)
                   : snprintf(NULL, 0, "%.*e", prec, v);
    else
        len = snprintf(NULL, 0, "%.*f", prec, v);
    s = tdb_palloc((Size)len + 1);
    if (conv == 'e') {
        if (plus)
            snprintf(s, (Size)len + 1, "%+.*e", prec, v);
        else
            snprintf(s, (Size)len + 1, "%.*e", prec, v);
    } else {
        snprintf(s, (Size)len + 1, "%.*f", prec, v);
    }
    return s;
}

/* EEEE through the C library ('+' turned into the alignment blank). */
static char *
double_sci(double v, const NumSpec *spec)
{
    char *s = print_double(v, 'e', spec->frac_digits, true);

    if (s[0] == '+')
        s[0] = ' ';
    return s;
}

/* An integer value with the template's fraction digits as zeroes. */
static void
integer_text(int64 value, const NumSpec *spec, NumText *nt)
{
    char *whole = tdb_int64_to_cstring(value);
    Size wlen = strlen(whole);
    char *str;

    if (spec->frac_digits == 0) {
        fit_decimal(spec, whole, nt);
        return;
    }
    str = tdb_palloc(wlen + (Size)spec->frac_digits + 2);
    memcpy(str, whole, wlen);
    str[wlen] = '.';
    memset(str + wlen + 1, '0', (Size)spec->frac_digits);
    str[wlen + 1 + (Size)spec->frac_digits] = '\0';
    fit_decimal(spec, str, nt);
}

/* A cast function from the registry, called on one value. */
static Datum
cast_value(Oid source, Oid target, Datum value)
{
    const CastDesc *cast = tdb_cast_lookup(source, target);

    if (cast == NULL || cast->fn == NULL)
        elog(ERROR, "no cast from type %u to type %u", source, target);
    return tdb_direct_call1(cast->fn, value);
}

static void
int4_text(int32 value, NumSpec *spec, NumText *nt)
{
    if (spec->flags & NUMF_ROMAN) {
        nt->digits = tdb_fmt_roman(value);
    } else if (spec->flags & NUMF_EEEE) {
        nt->digits = double_sci((double)value, spec);
    } else {
        if (spec->flags & NUMF_SHIFT) {
            /*
             * PostgreSQL multiplies in int32 and lets it wrap; a factor
             * beyond int32 (V with 10 or more 9s) becomes INT32_MIN, as
             * the double-to-int conversion does on x86-64.
             */
            uint32 factor = 0x80000000u;

            if (spec->shift_digits <= 9) {
                factor = 1;
                for (int i = 0; i < spec->shift_digits; i++)
                    factor *= 10;
            }
            value = (int32)((uint32)value * factor);
            spec->int_digits += spec->shift_digits;
        }
        integer_text(value, spec, nt);
    }
}

static void
int8_text(int64 value, NumSpec *spec, NumText *nt)
{
    if (spec->flags & NUMF_ROMAN) {
        Datum v = cast_value(INT8OID, INT4OID, Int64GetDatum(value));

        nt->digits = tdb_fmt_roman(DatumGetInt32(v));
    } else if (spec->flags & NUMF_EEEE) {
        nt->digits = pad_unsigned(
            numeric_sci(tdb_numeric_from_int64(value), spec->frac_digits));
    } else {
        if (spec->flags & NUMF_SHIFT) {
            double factor = pow(10.0, spec->shift_digits);

            if (!(factor < 9223372036854775808.0) ||
                __builtin_mul_overflow(value, (int64)factor, &value))
                ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("bigint out of range"));
            spec->int_digits += spec->shift_digits;
        }
        integer_text(value, spec, nt);
    }
}

/* 10^n as a numeric Datum (PostgreSQL's power(10, n), same scale). */
static Datum
numeric_pow10(int n)
{
    return tdb_direct_call2(tdb_numeric_power, tdb_numeric_from_int64(10),
                            tdb_numeric_from_int64(n));
}

static bool
numeric_is_special(Datum value)
{
    NumericVar var;

    tdb_numeric_to_var(value, &var);
    return numvar_is_special(&var);
}

static void
numeric_text(Datum value, NumSpec *spec, NumText *nt)
{
    if (spec->flags & NUMF_ROMAN) {
        Datum v = cast_value(NUMERICOID, INT4OID, value);

        nt->digits = tdb_fmt_roman(DatumGetInt32(v));
    } else if (spec->flags & NUMF_EEEE) {
        nt->digits = numeric_is_special(value)
                         ? sci_mask(spec)
                         : pad_unsigned(numeric_sci(value, spec->frac_digits));
    } else {
        Datum rounded;

        if (spec->flags & NUMF_SHIFT) {
            value = tdb_direct_call2(tdb_numeric_mul, value,
                                     numeric_pow10(spec->shift_digits));
            spec->int_digits += spec->shift_digits;
        }
        rounded = tdb_direct_call2(tdb_numeric_round, value,
                                   Int32GetDatum(spec->frac_digits));
        fit_decimal(spec, tdb_type_output(NUMERICOID, rounded), nt);
    }
}

/*
 * A float value: at most max_digits significant digits (DBL_DIG or
 * FLT_DIG), the fraction shortened to make room; V scales in the
 * value's own precision (single: float arithmetic).
 */
static void
float_text(double value, bool single, int max_digits, NumSpec *spec,
           NumText *nt)
{
    double val = value;
    int whole_len;

    if (spec->flags & NUMF_ROMAN) {
        double r = rint(value);

        /* out of int range (and NaN) behaves as INT32_MIN: '#' */
        nt->digits = tdb_fmt_roman(
            r >= INT32_MIN && r <= INT32_MAX ? (int)r : INT32_MIN);
        return;
    }
    if (spec->flags & NUMF_EEEE) {
        nt->digits = isnan(value) || isinf(value) ? sci_mask(spec)
                                                  : double_sci(value, spec);
        return;
    }
    if (spec->flags & NUMF_SHIFT) {
        double factor = pow(10.0, spec->shift_digits);

        val = single ? (double)((float)value * (float)factor) : value * factor;
        spec->int_digits += spec->shift_digits;
    }
    whole_len = (int)strlen(print_double(fabs(val), 'f', 0, false));
    if (whole_len >= max_digits)
        spec->frac_digits = 0;
    else if (whole_len + spec->frac_digits > max_digits)
        spec->frac_digits = max_digits - whole_len;
    fit_decimal(spec, print_double(val, 'f', spec->frac_digits, false), nt);
}

/* ----------------------------------------------------------------------
 * to_char entry points
 * ---------------------------------------------------------------------- */

/* Templates at least this long give '' (to_char) or NULL (to_number),
 * as PostgreSQL's output-size guard does. */
#define NUM_TEMPLATE_MAX ((Size)(INT_MAX - VARHDRSZ) / 8)

typedef struct NumJob {
    const FmtNode *nodes;
    NumSpec spec; /* a copy: preparation adjusts it */
    NumText nt;
} NumJob;

/* Parse the call's template (argument 1); false if it is empty. */
static bool
num_job_start(FunctionCallInfo fcinfo, NumJob *job)
{
    const varlena *fmt = PG_GETARG_VARLENA_P(1);
    Size len = VARSIZE_ANY_EXHDR(fmt);
    const NumTemplate *tmpl;

    if (len == 0 || len >= NUM_TEMPLATE_MAX)
        return false;
    tmpl = num_template(fcinfo, fmt);
    memset(job, 0, sizeof(*job));
    job->nodes = tmpl->nodes;
    job->spec = tmpl->spec;
    return true;
}

static Datum
num_job_finish(const NumJob *job)
{
    return PointerGetDatum(write_number(job->nodes, &job->spec, &job->nt));
}

static Datum
empty_text(void)
{
    return PointerGetDatum(tdb_text_from_bytes("", 0));
}

/* The argument types to_char formats. */
typedef enum NumArgKind {
    NUM_ARG_INT4,
    NUM_ARG_INT8,
    NUM_ARG_NUMERIC,
    NUM_ARG_FLOAT4,
    NUM_ARG_FLOAT8,
} NumArgKind;

/* to_char(value, template) for a value (argument 0) of the given kind. */
static Datum
number_to_char(FunctionCallInfo fcinfo, NumArgKind kind)
{
    Datum value = PG_GETARG_DATUM(0);
    NumJob job;

    if (!num_job_start(fcinfo, &job))
        return empty_text();
    switch (kind) {
    case NUM_ARG_INT4:
        int4_text(DatumGetInt32(value), &job.spec, &job.nt);
        break;
    case NUM_ARG_INT8:
        int8_text(DatumGetInt64(value), &job.spec, &job.nt);
        break;
    case NUM_ARG_NUMERIC:
        numeric_text(value, &job.spec, &job.nt);
        break;
    case NUM_ARG_FLOAT4:
        float_text(DatumGetFloat4(value), true, FLT_DIG, &job.spec, &job.nt);
        break;
    case NUM_ARG_FLOAT8:
        float_text(DatumGetFloat8(value), false, DBL_DIG, &job.spec, &job.nt);
        break;
    }
    return num_job_finish(&job);
}

static Datum
int4_to_char(PG_FUNCTION_ARGS)
{
    return number_to_char(fcinfo, NUM_ARG_INT4);
}

static Datum
int8_to_char(PG_FUNCTION_ARGS)
{
    return number_to_char(fcinfo, NUM_ARG_INT8);
}

static Datum
numeric_to_char(PG_FUNCTION_ARGS)
{
    return number_to_char(fcinfo, NUM_ARG_NUMERIC);
}

Datum
tdb_float4_to_char(PG_FUNCTION_ARGS)
{
    return number_to_char(fcinfo, NUM_ARG_FLOAT4);
}

Datum
tdb_float8_to_char(PG_FUNCTION_ARGS)
{
    return number_to_char(fcinfo, NUM_ARG_FLOAT8);
}

/* ----------------------------------------------------------------------
 * Reading a number through a template (to_number)
 * ---------------------------------------------------------------------- */

typedef struct NumReader {
    const NumSpec *spec;
    const char *in; /* the input text */
    Size len;
    Size pos;  /* next input byte */
    char *out; /* out[0]: ' ', '-' or '+'; then digits and '.' */
    Size nout;
    int int_read;  /* digits read before the point */
    int frac_read; /* digits read after it */
    bool point_read;
} NumReader;

static bool
at_end(const NumReader *r)
{
    return r->pos >= r->len;
}

static char
peek(const NumReader *r)
{
    return r->in[r->pos];
}

/* A sign before the first digit: S's, or '-', '+' and PR's '<'. */
static void
read_leading_sign(NumReader *r)
{
    char c = peek(r);
    bool lsign =
        (r->spec->flags & NUMF_LSIGN) && r->spec->sign_place == SIGN_BEFORE;

    if (c == '-' || (!lsign && c == '<' && (r->spec->flags & NUMF_ANGLE)))
        r->out[0] = '-';
    else if (c == '+')
        r->out[0] = '+';
    else
        return;
    r->pos++;
}

/*
 * A sign right after a digit: S takes the character after the one just
 * read if it is a sign; with MI/PL/SG a sign standing where a digit was
 * expected counts (the caller's advance then skips it).
 */
static void
read_trailing_sign(NumReader *r, bool took)
{
    uint32 flags = r->spec->flags;

    if ((flags & NUMF_LSIGN) && took && r->pos + 1 < r->len &&
        !isdigit((unsigned char)r->in[r->pos + 1])) {
        char c = r->in[r->pos + 1];

        if (c == '-' || c == '+') {
            r->pos++;
            r->out[0] = c;
        }
    } else if (!took && !(flags & NUMF_LSIGN) &&
               (flags & (NUMF_PLUS | NUMF_MINUS))) {
        if (peek(r) == '-' || peek(r) == '+')
            r->out[0] = peek(r);
    }
}

/*
 * One digit position: skip one blank, take a leading sign before the
 * first digit, then a digit (fraction digits only up to the template's
 * count) or the point, then a sign stuck to the number.  The caller
 * advances one byte afterwards.
 */
static void
read_digit_slot(NumReader *r, int key)
{
    bool took = false;
    char c;

    if (!at_end(r) && peek(r) == ' ')
        r->pos++;
    if (at_end(r))
        return;
    if (r->out[0] == ' ' && (key == NK_ZERO || key == NK_NINE) &&
        r->int_read + r->frac_read == 0) {
        read_leading_sign(r);
        if (at_end(r))
            return;
    }
    c = peek(r);
    if (isdigit((unsigned char)c)) {
        if (r->point_read && r->frac_read == r->spec->frac_digits)
            return;
        r->out[r->nout++] = c;
        if (r->point_read)
            r->frac_read++;
        else
            r->int_read++;
        took = true;
    } else if ((r->spec->flags & NUMF_POINT) && !r->point_read && c == '.') {
        r->out[r->nout++] = '.';
        r->point_read = true;
        took = true;
    }
    if (r->out[0] == ' ' && r->int_read + r->frac_read > 0)
        read_trailing_sign(r, took);
}

/* Skip up to n characters that cannot be part of a number. */
static void
skip_non_data(NumReader *r, int n)
{
    for (; n > 0 && !at_end(r); n--) {
        if (strchr("0123456789.,+-", peek(r)) != NULL)
            break;
        r->pos += tdb_utf8_char_len_max(r->in + r->pos, r->len - r->pos);
    }
}

/* MI ('-'), PL ('+') or SG (either, which == 0): take the sign if the
 * input has it here, else skip one non-data character. */
static void
read_sign_pattern(NumReader *r, char which)
{
    char c = peek(r);

    if ((which == 0 && (c == '-' || c == '+')) || c == which) {
        r->out[0] = c;
        r->pos++;
    } else {
        skip_non_data(r, 1);
    }
}

static void
read_keyword(NumReader *r, int id)
{
    switch (id) {
    case NK_NINE:
    case NK_ZERO:
    case NK_POINT:
    case NK_D:
        read_digit_slot(r, id);
        r->pos++;
        break;
    case NK_COMMA:
    case NK_G:
        if (!(r->spec->flags & NUMF_FILL) && peek(r) == ',')
            r->pos++;
        break;
    case NK_L:
        skip_non_data(r, 1);
        break;
    case NK_TH:
    case NK_th:
        if (!(r->spec->flags & NUMF_POINT))
            skip_non_data(r, 2);
        break;
    case NK_MI:
        read_sign_pattern(r, '-');
        break;
    case NK_PL:
        read_sign_pattern(r, '+');
        break;
    case NK_SG:
        read_sign_pattern(r, 0);
        break;
    default:
        break;
    }
}

/*
 * Run the template over input[0..len): returns "[sign]digits[.digits]"
 * (the sign a blank if none was read), palloc'd, and the count of
 * fraction digits read in *frac_read.
 */
static char *
read_number(const FmtNode *nodes, const NumSpec *spec, const char *input,
            Size len, int *frac_read)
{
    NumReader r;

    memset(&r, 0, sizeof(r));
    r.spec = spec;
    r.in = input;
    r.len = len;
    r.out = tdb_palloc(count_nodes(nodes) + 2);
    r.out[r.nout++] = ' ';
    for (const FmtNode *n = nodes; n->kind != FMT_NODE_END && !at_end(&r);
         n++) {
        if (n->kind == FMT_NODE_KEYWORD)
            read_keyword(&r, n->key->id);
        else
            r.pos += tdb_utf8_char_len_max(r.in + r.pos, r.len - r.pos);
    }
    if (r.nout > 1 && r.out[r.nout - 1] == '.')
        r.nout--;
    r.out[r.nout] = '\0';
    *frac_read = r.frac_read;
    return r.out;
}

static void
not_for_input(const char *pattern)
{
    ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
            errmsg("\"%s\" not supported for input", pattern));
}

static Datum
numeric_to_number(PG_FUNCTION_ARGS)
{
    const varlena *input = PG_GETARG_VARLENA_P(0);
    const varlena *fmt = PG_GETARG_VARLENA_P(1);
    Size len = VARSIZE_ANY_EXHDR(fmt);
    const NumTemplate *tmpl;
    const NumSpec *spec;
    char *digits;
    int scale;
    int precision;
    Datum result;

    if (len == 0 || len >= (Size)INT_MAX / 8)
        PG_RETURN_NULL();
    tmpl = num_template(fcinfo, fmt);
    spec = &tmpl->spec;
    if (spec->flags & NUMF_EEEE)
        not_for_input("EEEE");
    if (spec->flags & NUMF_ROMAN)
        not_for_input("RN");
    digits = read_number(tmpl->nodes, spec, VARDATA_ANY(input),
                         VARSIZE_ANY_EXHDR(input), &scale);
    precision = spec->int_digits + spec->shift_digits + scale;
    result = tdb_type_input(NUMERICOID, digits,
                            ((precision << 16) | scale) + VARHDRSZ);
    if (spec->flags & NUMF_SHIFT)
        result = tdb_direct_call2(tdb_numeric_mul, result,
                                  numeric_pow10(-spec->shift_digits));
    PG_RETURN_DATUM(result);
}

/* ----------------------------------------------------------------------
 * The tables
 * ---------------------------------------------------------------------- */

static const FuncDesc formatting_funcs[] = {
    FUNC_V(1772, "to_char", numeric_to_char, PROVOLATILE_STABLE, TEXTOID, 2,
           NUMERICOID, TEXTOID),
    FUNC_V(1773, "to_char", int4_to_char, PROVOLATILE_STABLE, TEXTOID, 2,
           INT4OID, TEXTOID),
    FUNC_V(1774, "to_char", int8_to_char, PROVOLATILE_STABLE, TEXTOID, 2,
           INT8OID, TEXTOID),
    FUNC_V(1775, "to_char", tdb_float4_to_char, PROVOLATILE_STABLE, TEXTOID,
           2, FLOAT4OID, TEXTOID),
    FUNC_V(1776, "to_char", tdb_float8_to_char, PROVOLATILE_STABLE, TEXTOID,
           2, FLOAT8OID, TEXTOID),
    FUNC_V(1777, "to_number", numeric_to_number, PROVOLATILE_STABLE, NUMERICOID,
           2, TEXTOID, TEXTOID),
};

const BuiltinSet tdb_builtins_formatting = {
    .name = "formatting",
    .funcs = formatting_funcs,
    .nfuncs = (int)lengthof(formatting_funcs),
};
