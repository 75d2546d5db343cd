/*
 * main.c -- the `tupledb` program: a psql-compatible shell on a database
 * directory.
 *
 *   tupledb [OPTION]... [DATADIR]
 *   tupledb serve [DATADIR] [OPTION]...     (the server: src/server)
 *
 * DATADIR (default ./tdbdata) is opened, and created if needed, through
 * the public C API.  Then, as psql does: the -c and -f actions run in the
 * order given and the program ends; without actions, statements are read
 * from standard input -- typed at a prompt with readline when stdin and
 * stdout are terminals, read as a script otherwise.
 *
 * Exit status, as psql's: 0 success; 1 an error of the shell itself (bad
 * option, unreadable -f file) or a failed last -c; 2 the database could
 * not be opened; 3 a script stopped by ON_ERROR_STOP (or Ctrl-C).
 * Failed statements in a script do not change the status by themselves.
 */
#include "common/base.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "server/server.h"

/* One -c or -f, in command-line order. */
typedef struct Action {
    bool is_file;
    char *value;
} Action;

typedef struct Options {
    Action *actions;
    int nactions;
    const char *datadir;
    bool no_readline;
} Options;

static void
usage(const char *progname)
{
    printf("%s is a psql-compatible shell for the tupledb database.\n\n",
           progname);
    printf("Usage:\n  %s [OPTION]... [DATADIR]\n\n", progname);
    printf("DATADIR is the database directory (created if needed; "
           "default ./tdbdata).\n\n");
    puts("General options:\n"
         "  -c, --command=COMMAND    run only single command (SQL or "
         "internal) and exit\n"
         "  -f, --file=FILENAME      execute commands from file, then exit\n"
         "  -v, --set=, --variable=NAME=VALUE\n"
         "                           set tupledb variable NAME to VALUE\n"
         "                           (e.g., -v ON_ERROR_STOP=1)\n"
         "  -V, --version            output version information, then exit\n"
         "  -X, --no-psqlrc          accepted (there is no startup file)\n"
         "  -?, --help               show this help, then exit\n"
         "\n"
         "Input and output options:\n"
         "  -a, --echo-all           echo all input from script\n"
         "  -e, --echo-queries       echo commands sent to server\n"
         "  -n, --no-readline        disable enhanced command line editing "
         "(readline)\n"
         "  -q, --quiet              run quietly (no messages, only query "
         "output)\n"
         "\n"
         "Output format options:\n"
         "  -A, --no-align           unaligned table output mode\n"
         "  -F, --field-separator=STRING\n"
         "                           field separator for unaligned output "
         "(default: \"|\")\n"
         "  -t, --tuples-only        print rows only");
}

static void
add_action(Options *o, bool is_file, const char *value)
{
    o->actions = tdb_cli_realloc(o->actions,
                                 sizeof(Action) * (size_t)(o->nactions + 1));
    o->actions[o->nactions].is_file = is_file;
    o->actions[o->nactions].value = tdb_cli_strdup(value);
    o->nactions++;
}

/* -v NAME=VALUE (NAME alone unsets). */
static bool
set_variable_option(Shell *sh, const char *arg)
{
    const char *eq = strchr(arg, '=');
    char *name;
    bool ok;

    if (eq == NULL)
        return tdb_cli_var_set(sh, arg, NULL);
    name = tdb_cli_strndup(arg, (size_t)(eq - arg));
    ok = tdb_cli_var_set(sh, name, eq + 1);
    free(name);
    return ok;
}

/* Parse argv into o and sh; exits on a bad option (status 1). */
static void
parse_options(int argc, char **argv, Options *o, Shell *sh)
{
    static const struct option long_options[] = {
        {"echo-all", no_argument, NULL, 'a'},
        {"no-align", no_argument, NULL, 'A'},
        {"command", required_argument, NULL, 'c'},
        {"echo-queries", no_argument, NULL, 'e'},
        {"file", required_argument, NULL, 'f'},
        {"field-separator", required_argument, NULL, 'F'},
        {"no-readline", no_argument, NULL, 'n'},
        {"quiet", no_argument, NULL, 'q'},
        {"tuples-only", no_argument, NULL, 't'},
        {"set", required_argument, NULL, 'v'},
        {"variable", required_argument, NULL, 'v'},
        {"version", no_argument, NULL, 'V'},
        {"no-psqlrc", no_argument, NULL, 'X'},
        {"help", optional_argument, NULL, 1},
        {NULL, 0, NULL, 0},
    };
    const char *progname = tdb_cli_log_state.progname;
    int c;

    while ((c = getopt_long(argc, argv, "aAc:ef:F:nqtv:VX?", long_options,
                            NULL)) != -1) {
        switch (c) {
        case 'a':
            tdb_cli_var_set(sh, "ECHO", "all");
            break;
        case 'A':
            sh->popt.format = CLI_FORMAT_UNALIGNED;
            break;
        case 'c':
            add_action(o, false, optarg);
            break;
        case 'e':
            tdb_cli_var_set(sh, "ECHO", "queries");
            break;
        case 'f':
            add_action(o, true, optarg);
            break;
        case 'F':
            free((char *)sh->popt.field_sep);
            sh->popt.field_sep = tdb_cli_strdup(optarg);
            break;
        case 'n':
            o->no_readline = true;
            break;
        case 'q':
            tdb_cli_var_set(sh, "QUIET", "on");
            break;
        case 't':
            sh->popt.tuples_only = true;
            break;
        case 'v':
            if (!set_variable_option(sh, optarg))
                exit(CLI_EXIT_FAILURE);
            break;
        case 'V':
            printf("%s (tupledb) %s\n", progname, TDB_CLI_VERSION);
            exit(CLI_EXIT_SUCCESS);
        case 'X':
            break;
        case '?':
            if (optind <= argc && argv[optind - 1] != NULL &&
                (strcmp(argv[optind - 1], "-?") == 0)) {
                usage(progname);
                exit(CLI_EXIT_SUCCESS);
            }
            tdb_cli_log(CLI_LOG_HINT, "Try \"%s --help\" for more information.",
                        progname);
            exit(CLI_EXIT_FAILURE);
        case 1:
            usage(progname);
            exit(CLI_EXIT_SUCCESS);
        default:
            break;
        }
    }
    if (optind < argc)
        o->datadir = argv[optind++];
    if (optind < argc) {
        tdb_cli_log(CLI_LOG_WARNING, "extra command-line argument \"%s\" "
                                     "ignored",
                    argv[optind]);
    }
}

/* psql's get_progname: the last path component of argv[0]. */
static const char *
program_name(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');

    return slash != NULL ? slash + 1 : argv0;
}

/* Run the -c / -f actions in order (psql's rules for the status). */
static int
run_actions(Shell *sh, const Options *o)
{
    int rc = CLI_EXIT_SUCCESS;

    for (int i = 0; i < o->nactions; i++) {
        const Action *a = &o->actions[i];

        if (a->is_file)
            rc = tdb_cli_process_file(sh, a->value);
        else {
            tdb_cli_log_state.terse = true;
            if (sh->echo == CLI_ECHO_ALL)
                puts(a->value);
            if (a->value[0] == '\\') {
                CliScanState *st = tdb_cli_scan_create(NULL, NULL);
                CliCmdResult cr;

                tdb_cli_scan_setup(st, a->value + 1);
                cr = tdb_cli_slash_cmd(sh, st);
                tdb_cli_scan_destroy(st);
                rc = cr != CLI_CMD_ERROR ? CLI_EXIT_SUCCESS
                                         : CLI_EXIT_FAILURE;
            } else
                rc = tdb_cli_send_query(sh, a->value) ? CLI_EXIT_SUCCESS
                                                      : CLI_EXIT_FAILURE;
        }
        if (rc != CLI_EXIT_SUCCESS && sh->on_error_stop)
            break;
    }
    return rc;
}

/* What main's option parsing allocated. */
static void
free_options(Options *o, Shell *sh)
{
    for (int i = 0; i < o->nactions; i++)
        free(o->actions[i].value);
    free(o->actions);
    free((char *)sh->popt.field_sep);
    free((char *)sh->popt.null_print);
    tdb_cli_var_free_all(sh);
}

int
main(int argc, char **argv)
{
    Options o;
    Shell sh;
    char *errmsg = NULL;
    int rc;

    /* `tupledb serve ...` is the server (src/server), not the shell */
    if (argc > 1 && strcmp(argv[1], "serve") == 0)
        return tdb_server_main(argc - 1, argv + 1);

    tdb_cli_log_state.progname = program_name(argv[0]);
    memset(&o, 0, sizeof(o));
    memset(&sh, 0, sizeof(sh));
    sh.popt.format = CLI_FORMAT_ALIGNED;
    sh.popt.field_sep = tdb_cli_strdup("|");
    sh.popt.record_sep = "\n";
    sh.popt.null_print = tdb_cli_strdup("");
    sh.cur_cmd_source = stdin; /* -c: COPY FROM STDIN reads stdin */
    parse_options(argc, argv, &o, &sh);
    if (o.datadir == NULL)
        o.datadir = "./tdbdata";
    sh.notty = !isatty(fileno(stdin)) || !isatty(fileno(stdout));
    sh.use_readline = !o.no_readline;

    if (tupledb_open(o.datadir, &sh.db, &errmsg) != 0) {
        tdb_cli_log(CLI_LOG_ERROR, "could not open database \"%s\": %s",
                    o.datadir, errmsg != NULL ? errmsg : "unknown error");
        free(errmsg);
        free_options(&o, &sh);
        return CLI_EXIT_BADCONN;
    }
    tdb_cli_signals_init(&sh);

    if (o.nactions > 0)
        rc = run_actions(&sh, &o);
    else {
        tdb_cli_log_state.terse = true;
        if (!sh.notty) {
            if (!sh.quiet)
                printf("tupledb (%s)\nType \"help\" for help.\n\n",
                       TDB_CLI_VERSION);
            tdb_cli_input_init(&sh);
        } else
            sh.use_readline = false;
        rc = tdb_cli_main_loop(&sh, stdin);
        tdb_cli_input_finish();
    }
    fflush(stdout);
    tupledb_close(sh.db);
    free_options(&o, &sh);
    return rc;
}
