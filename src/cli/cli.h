/*
 * cli.h -- the shell's internal interfaces, shared by the files of src/cli.
 *
 * The shell is a client of the public C API (api/tupledb.h) and of nothing
 * else in the library: like psql, it sends statement strings and prints
 * what comes back.  Because it is an ordinary program and not engine code,
 * it allocates with malloc (through tdb_cli_alloc and friends, which exit
 * with "out of memory" on failure, as psql's pg_malloc does) instead of
 * memory contexts.
 *
 * Pieces, one file each (see README.md):
 *   strbuf.c    growable strings (CliBuf) and allocation helpers
 *   log.c       psql's message prefixes ("psql:FILE:LINE: error: ...")
 *   wcwidth.c   UTF-8 decoding, validation and display width, psql's way
 *   print.c     aligned / unaligned result tables
 *   errors.c    ERROR / NOTICE text with LINE n: and the caret
 *   scan.c      splitting input lines into statements (psqlscan rules)
 *   slash.c     the arguments of backslash commands (psqlscanslash rules)
 *   vars.c      \set variables and the settings they drive
 *   exec.c      running one statement string and printing its results
 *   command.c   backslash commands
 *   describe.c  \dt and \d
 *   copy.c      COPY FROM STDIN / TO STDOUT data, \copy
 *   input.c     reading lines: readline with history, or a file
 *   mainloop.c  the read-scan-execute loop (psql's MainLoop)
 *   main.c      options and actions
 */
#ifndef TDB_CLI_CLI_H
#define TDB_CLI_CLI_H

#include "common/base.h"

#include <stdio.h>

#include "api/tupledb.h"

#define TDB_CLI_VERSION "0.1.0-dev"

/* psql's exit codes. */
#define CLI_EXIT_SUCCESS 0
#define CLI_EXIT_FAILURE 1 /* the shell's own error, or a failed -c */
#define CLI_EXIT_BADCONN 2 /* the database could not be opened */
#define CLI_EXIT_USER 3    /* a script stopped by ON_ERROR_STOP or Ctrl-C */

/* ----------------------------------------------------------------------
 * strbuf.c
 * ---------------------------------------------------------------------- */

/* A growable NUL-terminated string.  Zero-initialize, or tdb_cli_buf_init. */
typedef struct CliBuf {
    char *data; /* NULL until the first append; always NUL-terminated after */
    size_t len; /* bytes used, not counting the NUL */
    size_t cap; /* bytes allocated */
} CliBuf;

void *tdb_cli_alloc(size_t size);
void *tdb_cli_realloc(void *ptr, size_t size);
char *tdb_cli_strdup(const char *s);
char *tdb_cli_strndup(const char *s, size_t n);
void tdb_cli_buf_init(CliBuf *b);
void tdb_cli_buf_reset(CliBuf *b);
void tdb_cli_buf_free(CliBuf *b);
void tdb_cli_buf_append(CliBuf *b, const char *s, size_t n);
void tdb_cli_buf_puts(CliBuf *b, const char *s);
void tdb_cli_buf_putc(CliBuf *b, char c);
void tdb_cli_buf_printf(CliBuf *b, const char *fmt, ...) TDB_PRINTF(2, 3);
/* The text, "" while nothing was appended (borrowed from b). */
const char *tdb_cli_buf_str(const CliBuf *b);

/* ----------------------------------------------------------------------
 * log.c -- messages of the shell itself, with psql's prefixes
 * ---------------------------------------------------------------------- */

typedef enum CliLogLevel {
    CLI_LOG_INFO,    /* no level word (server messages, plain notes) */
    CLI_LOG_WARNING, /* "warning: " unless terse */
    CLI_LOG_ERROR,   /* "error: " unless terse */
    CLI_LOG_HINT     /* "hint: " unless terse (follows an error) */
} CliLogLevel;

/*
 * Where messages are coming from.  psql logs "PROG:FILE:LINE: error: msg"
 * while it reads a file (-f, \i), and only "msg" ("terse") while it reads
 * standard input or runs -c; before any input it logs "PROG: error: msg".
 */
typedef struct CliLogState {
    const char *progname;  /* basename of argv[0], as psql's get_progname */
    const char *inputfile; /* file being read (-f, \i), or NULL */
    uint64 lineno;         /* its current line */
    bool terse;
} CliLogState;

extern CliLogState tdb_cli_log_state;

/* Print one message to stderr (flushing stdout first, as psql does). */
void tdb_cli_log(CliLogLevel level, const char *fmt, ...) TDB_PRINTF(2, 3);

/* ----------------------------------------------------------------------
 * wcwidth.c
 * ---------------------------------------------------------------------- */

/* Length in bytes of the UTF-8 character starting with byte c (1..4). */
int tdb_cli_utf8_len(unsigned char c);
/* The code point of the character at s (psql's decoding, no checks). */
uint32 tdb_cli_utf8_decode(const unsigned char *s);
/*
 * Display width of the code point, psql's rules: -1 for a control
 * character, 0 for NUL and non-spacing characters, 2 for East Asian wide
 * and fullwidth characters, 1 otherwise.
 */
int tdb_cli_ucs_width(uint32 cp);
/* Display width of the character at s (a complete UTF-8 sequence). */
int tdb_cli_char_width(const unsigned char *s);
/*
 * A copy of s without the bytes and characters psql drops before printing
 * a value (invalid UTF-8 sequences, some non-characters); malloc'd.
 */
char *tdb_cli_utf8_validate(const char *s);

/* ----------------------------------------------------------------------
 * print.c
 * ---------------------------------------------------------------------- */

typedef enum CliFormat { CLI_FORMAT_ALIGNED, CLI_FORMAT_UNALIGNED } CliFormat;

/* How tables are printed (psql's \pset options that exist here). */
typedef struct CliPrintOptions {
    CliFormat format;
    bool tuples_only;      /* -t: no header, no footer */
    const char *field_sep; /* unaligned: between fields ("|") */
    const char *record_sep; /* unaligned: between records ("\n") */
    const char *null_print; /* text shown for NULL ("") */
} CliPrintOptions;

/* One table to print.  Cells are row-major; a NULL cell is SQL NULL. */
typedef struct CliTable {
    int ncolumns;
    const char *const *headers;
    const char *aligns; /* 'l' or 'r' per column */
    long nrows;
    const char *const *cells;
    const char *title;  /* printed above (centered), or NULL */
    const char *const *footers; /* printed below, or NULL */
    int nfooters;
    bool default_footer; /* print "(N rows)" when there are no footers */
} CliTable;

void tdb_cli_print_table(FILE *out, const CliTable *table,
                         const CliPrintOptions *opt);
/* psql's alignment for a column of the type: 'r' for numbers, else 'l'. */
char tdb_cli_type_alignment(unsigned int type_oid);

/* ----------------------------------------------------------------------
 * errors.c
 * ---------------------------------------------------------------------- */

/* psql's VERBOSITY: how much of an error report is printed. */
typedef enum CliVerbosity {
    CLI_VERBOSITY_DEFAULT,
    CLI_VERBOSITY_VERBOSE, /* SQLSTATE before the message; no LOCATION */
    CLI_VERBOSITY_TERSE,   /* severity, message and position only */
    CLI_VERBOSITY_SQLSTATE /* severity and SQLSTATE only */
} CliVerbosity;

/*
 * Append the text libpq builds for an error or notice ("ERROR:  msg\n",
 * "LINE n: ...\n" and the caret line when there is a position into query,
 * "DETAIL:  ...", "HINT:  ...", and "CONTEXT:  ..." for errors) to out.
 * query may be NULL.
 */
void tdb_cli_format_error(CliBuf *out, const tupledb_error *e,
                          const char *query, bool is_error,
                          CliVerbosity verbosity);

/* ----------------------------------------------------------------------
 * vars.c -- \set variables
 * ---------------------------------------------------------------------- */

typedef enum CliEcho {
    CLI_ECHO_NONE,
    CLI_ECHO_ERRORS,
    CLI_ECHO_QUERIES,
    CLI_ECHO_ALL
} CliEcho;

typedef struct CliVar {
    char *name;
    char *value;
    struct CliVar *next; /* sorted by name */
} CliVar;

/* The shell's state: psql's `pset`. */
typedef struct Shell {
    tupledb *db;
    CliVar *vars;
    CliPrintOptions popt;
    bool quiet;
    bool timing;
    bool on_error_stop;
    CliEcho echo;
    CliVerbosity verbosity;
    bool notty;       /* stdin or stdout is not a terminal */
    bool interactive; /* reading stdin from a terminal right now */
    bool use_readline;
    FILE *cur_cmd_source; /* the input being run (psql's cur_cmd_source):
                           * COPY FROM STDIN reads its data from there */
    FILE *copy_stream;    /* \copy's file while it runs, else NULL */
} Shell;

/* The value of variable name, or NULL (borrowed). */
const char *tdb_cli_var_get(const Shell *sh, const char *name);
/*
 * Set (value != NULL) or unset variable name, running its hook (e.g.
 * ON_ERROR_STOP must be a boolean).  false, after logging why, if the
 * name or the value is not acceptable; the variable is then unchanged.
 */
bool tdb_cli_var_set(Shell *sh, const char *name, const char *value);
/* Print every variable as psql's \set does: name = 'value'. */
void tdb_cli_var_print_all(const Shell *sh);
void tdb_cli_var_free_all(Shell *sh);
/* psql's ParseVariableBool; logs an error naming `name` if invalid. */
bool tdb_cli_parse_bool(const char *value, const char *name, bool *result);

/* psql's {space}: the whitespace of SQL and of backslash commands. */
static inline bool
cli_is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* ----------------------------------------------------------------------
 * scan.c -- statement splitting
 * ---------------------------------------------------------------------- */

typedef enum CliScanResult {
    CLI_SCAN_SEMICOLON,  /* a statement ended (its ';' is in the buffer) */
    CLI_SCAN_BACKSLASH,  /* a backslash command starts after the '\' */
    CLI_SCAN_INCOMPLETE, /* end of line inside a quote, comment, (...) */
    CLI_SCAN_EOL         /* end of line, statement not finished */
} CliScanResult;

/* What the prompt shows in its %R position. */
typedef enum CliPromptStatus {
    CLI_PROMPT_READY,       /* = */
    CLI_PROMPT_CONTINUE,    /* - */
    CLI_PROMPT_COMMENT,     /* * */
    CLI_PROMPT_SINGLEQUOTE, /* ' */
    CLI_PROMPT_DOUBLEQUOTE, /* " */
    CLI_PROMPT_DOLLARQUOTE, /* $ */
    CLI_PROMPT_PAREN        /* ( */
} CliPromptStatus;

typedef struct CliScanState CliScanState;

/* Variable lookup for :name substitution (NULL: not set). */
typedef const char *(*CliGetVar)(void *arg, const char *name);

CliScanState *tdb_cli_scan_create(CliGetVar get_var, void *arg);
void tdb_cli_scan_destroy(CliScanState *st);
/* Start scanning a new line (borrowed until the next setup). */
void tdb_cli_scan_setup(CliScanState *st, const char *line);
/* Scan on from where the last call stopped, appending to query. */
CliScanResult tdb_cli_scan(CliScanState *st, CliBuf *query,
                           CliPromptStatus *prompt);
/* Forget quotes, comments and parentheses (after Ctrl-C, \r, ...). */
void tdb_cli_scan_reset(CliScanState *st);
/* Is the scanner inside a quoted string or comment? */
bool tdb_cli_scan_in_quote(const CliScanState *st);
/* The unscanned rest of the current line (borrowed). */
const char *tdb_cli_scan_rest(const CliScanState *st);
/* Skip n bytes of the current line (consumed by the slash scanner). */
void tdb_cli_scan_skip(CliScanState *st, size_t n);

/* ----------------------------------------------------------------------
 * slash.c -- backslash command arguments
 * ---------------------------------------------------------------------- */

typedef enum CliSlashArg {
    CLI_ARG_NORMAL,    /* psql's OT_NORMAL: quotes, :vars, 'escapes' */
    CLI_ARG_SQLID,     /* OT_SQLID: as NORMAL, unquoted text lowercased,
                        * double quotes removed */
    CLI_ARG_WHOLE_LINE /* the rest of the line, as is */
} CliSlashArg;

/* The command name after the backslash (malloc'd; "" if none). */
char *tdb_cli_slash_command(CliScanState *st);
/* The next argument (malloc'd), or NULL when the command's arguments end. */
char *tdb_cli_slash_option(CliScanState *st, const Shell *sh,
                           CliSlashArg type);
/* Swallow a "\\" that ends the command's arguments, if present. */
void tdb_cli_slash_end(CliScanState *st);

/* ----------------------------------------------------------------------
 * exec.c
 * ---------------------------------------------------------------------- */

/*
 * Send one statement string (psql's SendQuery): echo it for -e, run it,
 * print results, command tags, notices and the error, then the time for
 * \timing.  true if it succeeded.
 */
bool tdb_cli_send_query(Shell *sh, const char *query);
/*
 * Run query and hand back its (one) result set instead of printing it:
 * column names and type OIDs, and the cells row-major with NULL for SQL
 * NULL; everything malloc'd, freed by tdb_cli_result_free.  On an error,
 * prints it as tdb_cli_send_query would and returns false.
 */
typedef struct CliResult {
    int ncolumns;
    char **names;
    unsigned int *types;
    long nrows;
    char **cells;
} CliResult;
bool tdb_cli_run_query(Shell *sh, const char *query, CliResult *result);
void tdb_cli_result_free(CliResult *result);
/* Ctrl-C handling: cancel a running statement, else note the press. */
void tdb_cli_signals_init(Shell *sh);
/* Was Ctrl-C pressed since the last call?  Clears the flag. */
bool tdb_cli_cancel_pressed(void);

/* ----------------------------------------------------------------------
 * copy.c
 * ---------------------------------------------------------------------- */

/* One COPY's data side (psql's handleCopyIn / handleCopyOut). */
typedef struct CliCopy {
    bool active;        /* a COPY started in this statement string */
    bool is_from;
    FILE *stream;       /* where the data comes from / goes */
    bool done;          /* FROM: "\." or the end of the stream was read */
    bool at_line_begin;
    bool prompt;        /* FROM a terminal: ">> " before each line */
    bool failed;        /* TO: a write failed (reported once) */
} CliCopy;

/* A COPY begins (the copy_start callback). */
void tdb_cli_copy_start(Shell *sh, CliCopy *c, int is_from);
/* The copy_in callback: the next line (or piece of one) of the data. */
int tdb_cli_copy_in(Shell *sh, CliCopy *c, char *buf, int size,
                    const char **fail_message);
/* The copy_out callback: write a line of data. */
void tdb_cli_copy_out(Shell *sh, CliCopy *c, const char *data, int len);
/* After the statement string: flush; false if writing failed. */
bool tdb_cli_copy_end(Shell *sh, CliCopy *c);
/* \copy ARGS (the rest of the line): true if it succeeded. */
bool tdb_cli_do_copy(Shell *sh, const char *args);

/* ----------------------------------------------------------------------
 * command.c, describe.c
 * ---------------------------------------------------------------------- */

typedef enum CliCmdResult {
    CLI_CMD_OK,        /* done; go on with the line */
    CLI_CMD_ERROR,     /* failed (counts for ON_ERROR_STOP) */
    CLI_CMD_TERMINATE  /* \q */
} CliCmdResult;

/*
 * Run the backslash command that starts at the scanner's position (just
 * after the '\'), consuming its arguments.
 */
CliCmdResult tdb_cli_slash_cmd(Shell *sh, CliScanState *st);
/* \dt [PATTERN] and \d without a table: the list of tables. */
bool tdb_cli_list_tables(Shell *sh, const char *pattern, bool verbose);
/* \di [PATTERN]: the list of indexes. */
bool tdb_cli_list_indexes(Shell *sh, const char *pattern, bool verbose);
/* \d TABLE: columns of each table matching pattern. */
bool tdb_cli_describe_table(Shell *sh, const char *pattern,
                            bool verbose);
/* \? */
void tdb_cli_print_help(FILE *out);

/* ----------------------------------------------------------------------
 * input.c, mainloop.c
 * ---------------------------------------------------------------------- */

/* Set up readline and load the history file (interactive use). */
void tdb_cli_input_init(Shell *sh);
/* Save the history file (at exit). */
void tdb_cli_input_finish(void);
/*
 * Read one line without its newline (malloc'd), or NULL at end of input.
 * Interactive: readline with prompt; Ctrl-C returns "" and sets the
 * *interrupted flag.  Otherwise a line of source.
 */
char *tdb_cli_read_line(Shell *sh, FILE *source, const char *prompt,
                        bool *interrupted);
/* Add a finished statement or command to the readline history. */
void tdb_cli_history_add(Shell *sh, const char *entry);

/* Read and run everything from source (psql's MainLoop); an exit code. */
int tdb_cli_main_loop(Shell *sh, FILE *source);
/* \i FILE and -f FILE ("-" is stdin): an exit code. */
int tdb_cli_process_file(Shell *sh, const char *filename);

#endif /* TDB_CLI_CLI_H */
