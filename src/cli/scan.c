/*
 * scan.c -- splitting input into statements, by psql's lexing rules.
 *
 * psql does not parse SQL; it lexes just enough to know where a statement
 * ends: at a semicolon that is outside quotes, comments and parentheses.
 * Input comes one line at a time (without its newline; mainloop.c puts
 * the newlines into the statement text), and the lexer state carries over
 * from line to line:
 *
 *   INITIAL --'--> XQ  ('' stays inside)       --'--> INITIAL
 *           --E'-> XE  (\x escapes; '' inside) --'--> INITIAL
 *           --B' X' -> XB (no escapes)         --'--> INITIAL
 *           --U&'-> XUS, --"--> XD, --U&"--> XUI (""-doubling) --> INITIAL
 *           --$tag$--> XDOLQ                   --$tag$--> INITIAL
 *           --slash-star--> XC (nested)        --star-slash--> INITIAL
 *           -- "--" comment: to the end of the line
 *
 * In INITIAL, "(" and ")" count the parenthesis depth, ";" at depth 0
 * ends the statement (the ";" stays in the text), "\;" puts a ";" in the
 * text without ending it, "\:" a ":", and any other "\" starts a
 * backslash command.  :name, :'name' and :"name" are replaced by the
 * variable's value (as SQL text, a quoted literal, a quoted identifier)
 * when it is set; the value of :name is lexed in turn.  Whitespace and
 * "--" comments are left out while the statement text is still empty.
 * Like psql, a statement that begins CREATE [OR REPLACE] FUNCTION or
 * PROCEDURE counts BEGIN (and CASE inside it) against END, so that the
 * semicolons of a BEGIN ATOMIC body do not end the statement.
 *
 * Identifiers may contain '$' (so a$b$ is one identifier, not a dollar
 * quote), $1 is a parameter, and a dollar-quote tag is an identifier
 * without '$'.  The scanner works on bytes: every character that matters
 * is ASCII and UTF-8 continuation bytes are never ASCII.
 */
#include "common/base.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"

typedef enum LexState {
    LEX_INITIAL,
    LEX_XC,    /* C-style comment */
    LEX_XQ,    /* '...' */
    LEX_XE,    /* E'...' */
    LEX_XB,    /* B'...' and X'...' */
    LEX_XUS,   /* U&'...' */
    LEX_XD,    /* "..." */
    LEX_XUI,   /* U&"..." */
    LEX_XDOLQ  /* $tag$...$tag$ */
} LexState;

/* Text being lexed: the input line, or a variable's value inside it. */
typedef struct LexFrame {
    char *text;    /* malloc'd for a variable's value; borrowed for a line */
    size_t pos;
    size_t len;
    char *varname; /* the variable whose value this is, or NULL */
} LexFrame;

#define MAX_FRAMES 16

struct CliScanState {
    LexFrame frames[MAX_FRAMES];
    int nframes; /* frames[0] is the line */
    LexState state;
    int xcdepth;     /* comment nesting beyond the first */
    int paren_depth;
    int begin_depth; /* BEGIN ... END of a CREATE FUNCTION body */
    char *dolqstart; /* the $tag$ of the open dollar quote */
    int identifier_count;
    char identifiers[4]; /* first letters of the leading keywords */
    CliGetVar get_var;
    void *var_arg;
};

CliScanState *
tdb_cli_scan_create(CliGetVar get_var, void *arg)
{
    CliScanState *st = tdb_cli_alloc(sizeof(CliScanState));

    memset(st, 0, sizeof(*st));
    st->get_var = get_var;
    st->var_arg = arg;
    st->frames[0].text = (char *)"";
    st->nframes = 1;
    return st;
}

static void
pop_frames(CliScanState *st)
{
    while (st->nframes > 1) {
        LexFrame *f = &st->frames[--st->nframes];

        free(f->text);
        free(f->varname);
    }
}

void
tdb_cli_scan_destroy(CliScanState *st)
{
    pop_frames(st);
    free(st->dolqstart);
    free(st);
}

void
tdb_cli_scan_setup(CliScanState *st, const char *line)
{
    pop_frames(st);
    st->frames[0].text = (char *)line;
    st->frames[0].pos = 0;
    st->frames[0].len = strlen(line);
}

void
tdb_cli_scan_reset(CliScanState *st)
{
    st->state = LEX_INITIAL;
    st->xcdepth = 0;
    st->paren_depth = 0;
    st->begin_depth = 0;
    st->identifier_count = 0;
    free(st->dolqstart);
    st->dolqstart = NULL;
}

bool
tdb_cli_scan_in_quote(const CliScanState *st)
{
    return st->state != LEX_INITIAL;
}

const char *
tdb_cli_scan_rest(const CliScanState *st)
{
    const LexFrame *f = &st->frames[0];

    return f->text + f->pos;
}

void
tdb_cli_scan_skip(CliScanState *st, size_t n)
{
    LexFrame *f = &st->frames[0];

    f->pos = Min(f->pos + n, f->len);
}

/* ----------------------------------------------------------------------
 * Character classes (psql's, on bytes)
 * ---------------------------------------------------------------------- */

static bool
is_ident_start(int c)
{
    return isalpha(c) || c >= 0x80 || c == '_';
}

static bool
is_ident_cont(int c)
{
    return is_ident_start(c) || isdigit(c) || c == '$';
}

static bool
is_var_char(int c)
{
    return is_ident_start(c) || isdigit(c);
}

/* ----------------------------------------------------------------------
 * Lexing helpers on the current frame
 * ---------------------------------------------------------------------- */

static LexFrame *
cur(CliScanState *st)
{
    return &st->frames[st->nframes - 1];
}

/* Byte k ahead of the position (0 past the end). */
static int
peek(CliScanState *st, size_t k)
{
    LexFrame *f = cur(st);

    return f->pos + k < f->len ? (unsigned char)f->text[f->pos + k] : 0;
}

/* Copy n bytes from the position to the query text and advance. */
static void
echo(CliScanState *st, CliBuf *query, size_t n)
{
    LexFrame *f = cur(st);

    tdb_cli_buf_append(query, f->text + f->pos, n);
    f->pos += n;
}

/* Does the text at the position start with s? */
static bool
looking_at(CliScanState *st, const char *s)
{
    LexFrame *f = cur(st);
    size_t n = strlen(s);

    return f->pos + n <= f->len && memcmp(f->text + f->pos, s, n) == 0;
}

/*
 * Length of a dollar-quote delimiter ($$ or $tag$) at the position, 0 if
 * there is none.
 */
static size_t
dolq_delim_len(CliScanState *st)
{
    size_t n = 1;

    if (peek(st, 0) != '$')
        return 0;
    if (is_ident_start(peek(st, 1)))
        for (n = 2; is_ident_start(peek(st, n)) || isdigit(peek(st, n)); n++)
            ;
    return peek(st, n) == '$' ? n + 1 : 0;
}

/* The BEGIN ... END tracking of CREATE FUNCTION bodies (see header). */
static void
note_identifier(CliScanState *st, const char *word, size_t n)
{
    static const char *const keys[] = {"create", "function", "procedure",
                                       "or", "replace"};
    char lower[16];
    const char *ids = st->identifiers;

    if (st->identifier_count == 0)
        memset(st->identifiers, 0, sizeof(st->identifiers));
    if (n >= sizeof(lower)) {
        st->identifier_count++;
        return;
    }
    for (size_t i = 0; i < n; i++)
        lower[i] = (char)tolower((unsigned char)word[i]);
    lower[n] = '\0';
    for (size_t k = 0; k < lengthof(keys); k++)
        if (strcmp(lower, keys[k]) == 0 &&
            st->identifier_count < (int)sizeof(st->identifiers))
            st->identifiers[st->identifier_count] = lower[0];
    st->identifier_count++;

    if (ids[0] == 'c' &&
        (ids[1] == 'f' || ids[1] == 'p' ||
         (ids[1] == 'o' && ids[2] == 'r' && (ids[3] == 'f' || ids[3] == 'p'))) &&
        st->paren_depth == 0) {
        if (strcmp(lower, "begin") == 0)
            st->begin_depth++;
        else if (strcmp(lower, "case") == 0) {
            if (st->begin_depth >= 1)
                st->begin_depth++;
        } else if (strcmp(lower, "end") == 0) {
            if (st->begin_depth > 0)
                st->begin_depth--;
        }
    }
}

/* Append value quoted as an SQL literal ('...', E'...' if it has \). */
static void
append_literal(CliBuf *query, const char *value)
{
    if (strchr(value, '\\') != NULL)
        tdb_cli_buf_puts(query, " E");
    tdb_cli_buf_putc(query, '\'');
    for (const char *p = value; *p != '\0'; p++) {
        if (*p == '\'' || *p == '\\')
            tdb_cli_buf_putc(query, *p);
        tdb_cli_buf_putc(query, *p);
    }
    tdb_cli_buf_putc(query, '\'');
}

/* Append value quoted as an SQL identifier ("..."). */
static void
append_identifier(CliBuf *query, const char *value)
{
    tdb_cli_buf_putc(query, '"');
    for (const char *p = value; *p != '\0'; p++) {
        if (*p == '"')
            tdb_cli_buf_putc(query, '"');
        tdb_cli_buf_putc(query, *p);
    }
    tdb_cli_buf_putc(query, '"');
}

/* Is name being expanded already (a variable that mentions itself)? */
static bool
expanding(const CliScanState *st, const char *name)
{
    for (int i = 1; i < st->nframes; i++)
        if (strcmp(st->frames[i].varname, name) == 0)
            return true;
    return false;
}

/*
 * A colon in INITIAL: "::" and ":=" are operators; :name, :'name' and
 * :"name" are variable references.  Consumes what it handles.
 */
static void
lex_colon(CliScanState *st, CliBuf *query)
{
    int next = peek(st, 1);
    size_t n;
    char *name;
    const char *value;

    if (next == ':' || next == '=') {
        echo(st, query, 2);
        return;
    }
    if (next == '\'' || next == '"') {
        for (n = 2; is_var_char(peek(st, n)); n++)
            ;
        if (n == 2 || peek(st, n) != next) {
            echo(st, query, 1); /* just the colon */
            return;
        }
        name = tdb_cli_strndup(cur(st)->text + cur(st)->pos + 2, n - 2);
        value = st->get_var != NULL ? st->get_var(st->var_arg, name) : NULL;
        if (value == NULL)
            echo(st, query, n + 1);
        else {
            cur(st)->pos += n + 1;
            if (next == '\'')
                append_literal(query, value);
            else
                append_identifier(query, value);
        }
        free(name);
        return;
    }
    for (n = 1; is_var_char(peek(st, n)); n++)
        ;
    if (n == 1) {
        echo(st, query, 1);
        return;
    }
    name = tdb_cli_strndup(cur(st)->text + cur(st)->pos + 1, n - 1);
    value = st->get_var != NULL ? st->get_var(st->var_arg, name) : NULL;
    if (value == NULL)
        echo(st, query, n);
    else if (expanding(st, name) || st->nframes >= MAX_FRAMES) {
        tdb_cli_log(CLI_LOG_WARNING,
                    "skipping recursive expansion of variable \"%s\"", name);
        echo(st, query, n);
    } else {
        LexFrame *f;

        cur(st)->pos += n;
        f = &st->frames[st->nframes++];
        f->text = tdb_cli_strdup(value);
        f->pos = 0;
        f->len = strlen(value);
        f->varname = name;
        return; /* the frame owns name */
    }
    free(name);
}

/* An identifier, or a string prefix (E' B' X' N' U&' U&"). */
static void
lex_word(CliScanState *st, CliBuf *query)
{
    int c = peek(st, 0), next = peek(st, 1);
    size_t n;

    if (next == '\'') {
        switch (c) {
        case 'e': case 'E':
            st->state = LEX_XE;
            echo(st, query, 2);
            return;
        case 'b': case 'B': case 'x': case 'X':
            st->state = LEX_XB;
            echo(st, query, 2);
            return;
        case 'n': case 'N':
            echo(st, query, 1); /* N'...' is an ordinary string */
            return;
        default:
            break;
        }
    }
    if ((c == 'u' || c == 'U') && next == '&' &&
        (peek(st, 2) == '\'' || peek(st, 2) == '"')) {
        st->state = peek(st, 2) == '\'' ? LEX_XUS : LEX_XUI;
        echo(st, query, 3);
        return;
    }
    for (n = 1; is_ident_cont(peek(st, n)); n++)
        ;
    note_identifier(st, cur(st)->text + cur(st)->pos, n);
    echo(st, query, n);
}

/* A number: digits, a fraction, an exponent (never a '$' or quote). */
static void
lex_number(CliScanState *st, CliBuf *query)
{
    size_t n = 0;

    while (isdigit(peek(st, n)))
        n++;
    if (peek(st, n) == '.' && peek(st, n + 1) != '.') {
        n++;
        while (isdigit(peek(st, n)))
            n++;
    }
    if (peek(st, n) == 'e' || peek(st, n) == 'E') {
        size_t e = n + 1;

        if (peek(st, e) == '+' || peek(st, e) == '-')
            e++;
        if (isdigit(peek(st, e))) {
            n = e;
            while (isdigit(peek(st, n)))
                n++;
        }
    }
    echo(st, query, Max(n, 1));
}

/*
 * One step in INITIAL.  Returns true and sets *result when the scan must
 * stop (a statement-ending semicolon or a backslash command).
 */
static bool
lex_initial(CliScanState *st, CliBuf *query, CliScanResult *result)
{
    int c = peek(st, 0);
    size_t n;

    if (cli_is_space(c)) {
        for (n = 1; cli_is_space(peek(st, n)); n++)
            ;
        if (query->len > 0)
            echo(st, query, n);
        else
            cur(st)->pos += n;
    } else if (c == '-' && peek(st, 1) == '-') {
        n = cur(st)->len - cur(st)->pos; /* to the end of the text */
        if (query->len > 0)
            echo(st, query, n);
        else
            cur(st)->pos += n;
    } else if (c == '/' && peek(st, 1) == '*') {
        st->state = LEX_XC;
        st->xcdepth = 0;
        echo(st, query, 2);
    } else if (c == '\'') {
        st->state = LEX_XQ;
        echo(st, query, 1);
    } else if (c == '"') {
        st->state = LEX_XD;
        echo(st, query, 1);
    } else if (c == '$') {
        n = dolq_delim_len(st);
        if (n > 0) {
            st->dolqstart = tdb_cli_strndup(cur(st)->text + cur(st)->pos, n);
            st->state = LEX_XDOLQ;
            echo(st, query, n);
        } else {
            for (n = 1; isdigit(peek(st, n)); n++) /* $1: a parameter */
                ;
            echo(st, query, n);
        }
    } else if (is_ident_start(c))
        lex_word(st, query);
    else if (isdigit(c) || (c == '.' && isdigit(peek(st, 1))))
        lex_number(st, query);
    else if (c == ':')
        lex_colon(st, query);
    else if (c == '(') {
        st->paren_depth++;
        echo(st, query, 1);
    } else if (c == ')') {
        if (st->paren_depth > 0)
            st->paren_depth--;
        echo(st, query, 1);
    } else if (c == ';') {
        echo(st, query, 1);
        if (st->paren_depth == 0 && st->begin_depth == 0) {
            st->identifier_count = 0;
            *result = CLI_SCAN_SEMICOLON;
            return true;
        }
    } else if (c == '\\' && st->nframes == 1) {
        if (peek(st, 1) == ';' || peek(st, 1) == ':') {
            cur(st)->pos++;
            if (peek(st, 0) == ';')
                st->identifier_count = 0;
            echo(st, query, 1);
        } else {
            cur(st)->pos++;
            *result = CLI_SCAN_BACKSLASH;
            return true;
        }
    } else
        echo(st, query, 1);
    return false;
}

/*
 * At a quote character inside a string or identifier quoted with it: a
 * doubled quote stays inside, a single one ends the quoted text.
 */
static void
lex_quote_char(CliScanState *st, CliBuf *query, int quote)
{
    if (peek(st, 0) == quote && peek(st, 1) == quote)
        echo(st, query, 2);
    else {
        if (peek(st, 0) == quote)
            st->state = LEX_INITIAL;
        echo(st, query, 1);
    }
}

/* One step inside a quoted string, identifier or comment. */
static void
lex_quoted(CliScanState *st, CliBuf *query)
{
    int c = peek(st, 0);

    switch (st->state) {
    case LEX_XC:
        if (c == '/' && peek(st, 1) == '*') {
            st->xcdepth++;
            echo(st, query, 2);
        } else if (c == '*' && peek(st, 1) == '/') {
            if (st->xcdepth <= 0)
                st->state = LEX_INITIAL;
            else
                st->xcdepth--;
            echo(st, query, 2);
        } else
            echo(st, query, 1);
        break;
    case LEX_XE:
        if (c == '\\') {
            echo(st, query, peek(st, 1) != 0 ? 2 : 1);
            break;
        }
        TDB_FALLTHROUGH;
    case LEX_XQ:
    case LEX_XUS:
        lex_quote_char(st, query, '\'');
        break;
    case LEX_XB:
        if (c == '\'')
            st->state = LEX_INITIAL;
        echo(st, query, 1);
        break;
    case LEX_XD:
    case LEX_XUI:
        lex_quote_char(st, query, '"');
        break;
    case LEX_XDOLQ:
        if (c == '$' && looking_at(st, st->dolqstart)) {
            echo(st, query, strlen(st->dolqstart));
            free(st->dolqstart);
            st->dolqstart = NULL;
            st->state = LEX_INITIAL;
        } else
            echo(st, query, 1);
        break;
    case LEX_INITIAL:
        break;
    }
}

/* The result and prompt at the end of the line (psql_scan's switch). */
static CliScanResult
end_of_line(const CliScanState *st, const CliBuf *query,
            CliPromptStatus *prompt)
{
    switch (st->state) {
    case LEX_INITIAL:
        if (st->paren_depth > 0) {
            *prompt = CLI_PROMPT_PAREN;
            return CLI_SCAN_INCOMPLETE;
        }
        if (st->begin_depth > 0) {
            *prompt = CLI_PROMPT_CONTINUE;
            return CLI_SCAN_INCOMPLETE;
        }
        if (query->len > 0) {
            *prompt = CLI_PROMPT_CONTINUE;
            return CLI_SCAN_EOL;
        }
        *prompt = CLI_PROMPT_READY;
        return CLI_SCAN_INCOMPLETE;
    case LEX_XC:
        *prompt = CLI_PROMPT_COMMENT;
        break;
    case LEX_XD:
    case LEX_XUI:
        *prompt = CLI_PROMPT_DOUBLEQUOTE;
        break;
    case LEX_XDOLQ:
        *prompt = CLI_PROMPT_DOLLARQUOTE;
        break;
    case LEX_XQ:
    case LEX_XE:
    case LEX_XB:
    case LEX_XUS:
        *prompt = CLI_PROMPT_SINGLEQUOTE;
        break;
    }
    return CLI_SCAN_INCOMPLETE;
}

CliScanResult
tdb_cli_scan(CliScanState *st, CliBuf *query, CliPromptStatus *prompt)
{
    for (;;) {
        LexFrame *f = cur(st);
        CliScanResult result;

        if (f->pos >= f->len) {
            if (st->nframes == 1)
                return end_of_line(st, query, prompt);
            free(f->text);
            free(f->varname);
            st->nframes--;
            continue;
        }
        if (st->state != LEX_INITIAL)
            lex_quoted(st, query);
        else if (lex_initial(st, query, &result))
            return result;
    }
}
