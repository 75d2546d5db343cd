/*
 * command.c -- backslash commands (psql's HandleSlashCmds and the exec_
 * functions it dispatches to).
 *
 * A command reads its arguments with tdb_cli_slash_option; arguments it
 * did not want are reported ("\echo: extra argument "x" ignored") and
 * dropped, and a "\\" after them is swallowed.  After a failed command
 * the rest of the line is dropped silently.  An unknown command is
 * psql's "invalid command \foo" (plus "Try \? for help." when typing).
 *
 * Supported: \q \quit, \? \h(elp), \echo [-n], \timing [on|off],
 * \set [NAME [VALUE...]], \unset NAME, \i \include FILE, \dt [PATTERN],
 * \d [PATTERN], \pset for the few options that exist (format,
 * tuples_only, fieldsep, null), \a, \t, \f, \copy (copy.c).
 */
#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* A command's handler: read its arguments from st, do it. */
typedef CliCmdResult (*CmdFunc)(Shell *sh, CliScanState *st,
                                const char *cmd);

static CliCmdResult
cmd_quit(Shell *sh, CliScanState *st, const char *cmd)
{
    (void)sh, (void)st, (void)cmd;
    return CLI_CMD_TERMINATE;
}

static CliCmdResult
cmd_help(Shell *sh, CliScanState *st, const char *cmd)
{
    (void)sh, (void)st, (void)cmd;
    tdb_cli_print_help(stdout);
    return CLI_CMD_OK;
}

static CliCmdResult
cmd_echo(Shell *sh, CliScanState *st, const char *cmd)
{
    bool first = true, no_newline = false;
    char *arg;

    (void)cmd;
    while ((arg = tdb_cli_slash_option(st, sh, CLI_ARG_NORMAL)) != NULL) {
        if (first && !no_newline && strcmp(arg, "-n") == 0)
            no_newline = true;
        else {
            if (!first)
                fputc(' ', stdout);
            fputs(arg, stdout);
            first = false;
        }
        free(arg);
    }
    if (!no_newline)
        fputc('\n', stdout);
    fflush(stdout);
    return CLI_CMD_OK;
}

/* Set *setting from value (a boolean), or flip it when value is NULL. */
static bool
set_or_flip(const char *value, const char *name, bool *setting)
{
    if (value == NULL) {
        *setting = !*setting;
        return true;
    }
    return tdb_cli_parse_bool(value, name, setting);
}

static void
print_format(const Shell *sh)
{
    if (!sh->quiet)
        printf("Output format is %s.\n",
               sh->popt.format == CLI_FORMAT_ALIGNED ? "aligned"
                                                     : "unaligned");
}

static void
print_tuples_only(const Shell *sh)
{
    if (!sh->quiet)
        puts(sh->popt.tuples_only ? "Tuples only is on."
                                  : "Tuples only is off.");
}

static CliCmdResult
cmd_timing(Shell *sh, CliScanState *st, const char *cmd)
{
    char *opt = tdb_cli_slash_option(st, sh, CLI_ARG_NORMAL);
    bool ok = set_or_flip(opt, "\\timing", &sh->timing);

    (void)cmd;
    if (!sh->quiet) /* psql shows the state even after a bad value */
        puts(sh->timing ? "Timing is on." : "Timing is off.");
    free(opt);
    return ok ? CLI_CMD_OK : CLI_CMD_ERROR;
}

static CliCmdResult
cmd_set(Shell *sh, CliScanState *st, const char *cmd)
{
    char *name = tdb_cli_slash_option(st, sh, CLI_ARG_NORMAL);
    CliBuf value;
    char *arg;
    bool ok;

    (void)cmd;
    if (name == NULL) {
        tdb_cli_var_print_all(sh);
        return CLI_CMD_OK;
    }
    /* the value is all further arguments, concatenated */
    tdb_cli_buf_init(&value);
    while ((arg = tdb_cli_slash_option(st, sh, CLI_ARG_NORMAL)) != NULL) {
        tdb_cli_buf_puts(&value, arg);
        free(arg);
    }
    ok = tdb_cli_var_set(sh, name, tdb_cli_buf_str(&value));
    tdb_cli_buf_free(&value);
    free(name);
    return ok ? CLI_CMD_OK : CLI_CMD_ERROR;
}

/* The argument a command cannot do without (NULL after logging why). */
static char *
required_option(Shell *sh, CliScanState *st, const char *cmd)
{
    char *arg = tdb_cli_slash_option(st, sh, CLI_ARG_NORMAL);

    if (arg == NULL)
        tdb_cli_log(CLI_LOG_ERROR, "\\%s: missing required argument", cmd);
    return arg;
}

static CliCmdResult
cmd_unset(Shell *sh, CliScanState *st, const char *cmd)
{
    char *name = required_option(sh, st, cmd);
    bool ok;

    if (name == NULL)
        return CLI_CMD_ERROR;
    ok = tdb_cli_var_set(sh, name, NULL);
    free(name);
    return ok ? CLI_CMD_OK : CLI_CMD_ERROR;
}

static CliCmdResult
cmd_include(Shell *sh, CliScanState *st, const char *cmd)
{
    char *file = required_option(sh, st, cmd);
    int rc;

    if (file == NULL)
        return CLI_CMD_ERROR;
    rc = tdb_cli_process_file(sh, file);
    free(file);
    return rc == CLI_EXIT_SUCCESS ? CLI_CMD_OK : CLI_CMD_ERROR;
}

static CliCmdResult
cmd_describe(Shell *sh, CliScanState *st, const char *cmd)
{
    char *pattern = tdb_cli_slash_option(st, sh, CLI_ARG_NORMAL);
    bool verbose = strchr(cmd, '+') != NULL;
    bool ok;

    if (cmd[1] == 'i')
        ok = tdb_cli_list_indexes(sh, pattern, verbose);
    else if (cmd[1] == 't' || pattern == NULL) /* \dt, or \d alone */
        ok = tdb_cli_list_tables(sh, pattern, verbose);
    else
        ok = tdb_cli_describe_table(sh, pattern, verbose);
    free(pattern);
    return ok ? CLI_CMD_OK : CLI_CMD_ERROR;
}

/* \pset OPTION [VALUE] for the options the printer has. */
static CliCmdResult
cmd_pset(Shell *sh, CliScanState *st, const char *cmd)
{
    char *opt = tdb_cli_slash_option(st, sh, CLI_ARG_NORMAL);
    char *value = opt != NULL ? tdb_cli_slash_option(st, sh, CLI_ARG_NORMAL)
                              : NULL;
    CliPrintOptions *p = &sh->popt;
    bool ok = true;

    if (opt == NULL) {
        tdb_cli_log(CLI_LOG_ERROR, "\\%s: missing required argument", cmd);
        ok = false;
    } else if (strcmp(opt, "format") == 0) {
        if (value == NULL)
            ; /* just show it */
        else if (strcmp(value, "aligned") == 0)
            p->format = CLI_FORMAT_ALIGNED;
        else if (strcmp(value, "unaligned") == 0)
            p->format = CLI_FORMAT_UNALIGNED;
        else {
            tdb_cli_log(CLI_LOG_ERROR, "\\pset: allowed formats are aligned, "
                                       "unaligned");
            ok = false;
        }
        if (ok)
            print_format(sh);
    } else if (strcmp(opt, "tuples_only") == 0) {
        ok = set_or_flip(value, opt, &p->tuples_only);
        if (ok)
            print_tuples_only(sh);
    } else if (strcmp(opt, "fieldsep") == 0 || strcmp(opt, "null") == 0) {
        bool is_null = opt[0] == 'n';
        const char **target = is_null ? &p->null_print : &p->field_sep;

        if (value != NULL) {
            free((char *)*target);
            *target = tdb_cli_strdup(value);
        }
        if (!sh->quiet)
            printf(is_null ? "Null display is \"%s\".\n"
                           : "Field separator is \"%s\".\n",
                   *target);
    } else {
        tdb_cli_log(CLI_LOG_ERROR, "\\pset: unknown option: %s", opt);
        ok = false;
    }
    free(opt);
    free(value);
    return ok ? CLI_CMD_OK : CLI_CMD_ERROR;
}

/* \a: toggle aligned / unaligned. */
static CliCmdResult
cmd_toggle_align(Shell *sh, CliScanState *st, const char *cmd)
{
    (void)st, (void)cmd;
    sh->popt.format = sh->popt.format == CLI_FORMAT_ALIGNED
                          ? CLI_FORMAT_UNALIGNED
                          : CLI_FORMAT_ALIGNED;
    print_format(sh);
    return CLI_CMD_OK;
}

/* \t: toggle tuples only. */
static CliCmdResult
cmd_toggle_tuples(Shell *sh, CliScanState *st, const char *cmd)
{
    char *value = tdb_cli_slash_option(st, sh, CLI_ARG_NORMAL);
    bool ok = set_or_flip(value, "tuples_only", &sh->popt.tuples_only);

    (void)cmd;
    if (ok)
        print_tuples_only(sh);
    free(value);
    return ok ? CLI_CMD_OK : CLI_CMD_ERROR;
}

/* \f [SEP]: the unaligned field separator. */
static CliCmdResult
cmd_fieldsep(Shell *sh, CliScanState *st, const char *cmd)
{
    char *value = tdb_cli_slash_option(st, sh, CLI_ARG_NORMAL);

    (void)cmd;
    if (value != NULL) {
        free((char *)sh->popt.field_sep);
        sh->popt.field_sep = value;
    }
    if (!sh->quiet)
        printf("Field separator is \"%s\".\n", sh->popt.field_sep);
    return CLI_CMD_OK;
}

/* \copy ...: the rest of the line, psql's syntax (copy.c). */
static CliCmdResult
cmd_copy(Shell *sh, CliScanState *st, const char *cmd)
{
    char *args = tdb_cli_slash_option(st, sh, CLI_ARG_WHOLE_LINE);
    bool ok = tdb_cli_do_copy(sh, args);

    (void)cmd;
    free(args);
    return ok ? CLI_CMD_OK : CLI_CMD_ERROR;
}

typedef struct CmdEntry {
    const char *name;
    CmdFunc func;
} CmdEntry;

static const CmdEntry commands[] = {
    {"q", cmd_quit},          {"quit", cmd_quit},
    {"?", cmd_help},          {"h", cmd_help},
    {"help", cmd_help},       {"echo", cmd_echo},
    {"timing", cmd_timing},   {"set", cmd_set},
    {"unset", cmd_unset},     {"i", cmd_include},
    {"include", cmd_include}, {"d", cmd_describe},
    {"dt", cmd_describe},     {"d+", cmd_describe},
    {"dt+", cmd_describe},    {"di", cmd_describe},
    {"di+", cmd_describe},    {"pset", cmd_pset},
    {"a", cmd_toggle_align},  {"t", cmd_toggle_tuples},
    {"f", cmd_fieldsep},      {"copy", cmd_copy},
};

CliCmdResult
tdb_cli_slash_cmd(Shell *sh, CliScanState *st)
{
    char *cmd = tdb_cli_slash_command(st);
    CliCmdResult result = CLI_CMD_ERROR;
    bool found = false;
    char *arg;

    for (size_t i = 0; i < lengthof(commands); i++)
        if (strcmp(cmd, commands[i].name) == 0) {
            result = commands[i].func(sh, st, cmd);
            found = true;
            break;
        }
    if (!found) {
        tdb_cli_log(CLI_LOG_ERROR, "invalid command \\%s", cmd);
        if (sh->interactive)
            tdb_cli_log(CLI_LOG_HINT, "Try \\? for help.");
    }
    if (result != CLI_CMD_ERROR) {
        while ((arg = tdb_cli_slash_option(st, sh, CLI_ARG_NORMAL)) != NULL) {
            tdb_cli_log(CLI_LOG_WARNING, "\\%s: extra argument \"%s\" ignored",
                        cmd, arg);
            free(arg);
        }
    } else
        free(tdb_cli_slash_option(st, sh, CLI_ARG_WHOLE_LINE));
    tdb_cli_slash_end(st);
    free(cmd);
    return result;
}

void
tdb_cli_print_help(FILE *out)
{
    fputs("General\n"
          "  \\q                     quit tupledb\n"
          "\n"
          "Help\n"
          "  \\?                     show help on backslash commands\n"
          "\n"
          "Query Buffer and Input\n"
          "  \\i FILE                execute commands from file\n"
          "  \\timing [on|off]       toggle timing of commands (currently "
          "shown after each\n"
          "                         statement as \"Time: ... ms\")\n"
          "\n"
          "Input/Output\n"
          "  \\echo [-n] [STRING]    write string to standard output (-n for "
          "no newline)\n"
          "\n"
          "Informational\n"
          "  \\d [NAME]             list tables, or describe table NAME\n"
          "  \\dt [PATTERN]         list tables\n"
          "\n"
          "Formatting\n"
          "  \\a                     toggle between unaligned and aligned "
          "output mode\n"
          "  \\f [STRING]            show or set field separator for "
          "unaligned output\n"
          "  \\pset NAME [VALUE]     set table output option\n"
          "                         (format aligned|unaligned, tuples_only, "
          "fieldsep, null)\n"
          "  \\t [on|off]            show only rows\n"
          "\n"
          "Variables\n"
          "  \\set [NAME [VALUE]]    set internal variable, or list all if no "
          "parameters\n"
          "                         (ON_ERROR_STOP, QUIET, ECHO, VERBOSITY, "
          "and any name for :NAME)\n"
          "  \\unset NAME            unset (delete) internal variable\n",
          out);
}
