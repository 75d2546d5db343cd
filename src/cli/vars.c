/*
 * vars.c -- \set variables and the settings they drive.
 *
 * Variables are a sorted list of name/value strings (psql's variables.c).
 * A few names are hooked to settings, as in psql: ON_ERROR_STOP and QUIET
 * take psql's booleans (on/off, true/false, yes/no, 1/0 and unique
 * prefixes; a bare "\set NAME" means on, \unset means off), ECHO takes
 * none / errors / queries / all, and VERBOSITY default / verbose / terse /
 * sqlstate (how errors are printed; verbose adds the SQLSTATE but has no
 * LOCATION line, tupledb reports no source locations).  A bad value is refused with psql's
 * message and leaves the variable as it was.  Other names are plain
 * variables for :name substitution and \echo.
 */
#include "common/base.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"

bool
tdb_cli_parse_bool(const char *value, const char *name, bool *result)
{
    size_t len = strlen(value);

    if (len > 0 && strncasecmp(value, "true", len) == 0)
        *result = true;
    else if (len > 0 && strncasecmp(value, "false", len) == 0)
        *result = false;
    else if (len > 0 && strncasecmp(value, "yes", len) == 0)
        *result = true;
    else if (len > 0 && strncasecmp(value, "no", len) == 0)
        *result = false;
    else if (strncasecmp(value, "on", len > 2 ? len : 2) == 0)
        *result = true; /* "o" alone is not unique */
    else if (strncasecmp(value, "off", len > 2 ? len : 2) == 0)
        *result = false;
    else if (strcmp(value, "1") == 0)
        *result = true;
    else if (strcmp(value, "0") == 0)
        *result = false;
    else {
        if (name != NULL)
            tdb_cli_log(CLI_LOG_ERROR,
                        "unrecognized value \"%s\" for \"%s\": Boolean "
                        "expected",
                        value, name);
        return false;
    }
    return true;
}

/* A boolean setting: NULL (unset) is off, "" (\set NAME) is on. */
static bool
bool_hook(const char *name, const char *value, bool *setting)
{
    if (value == NULL) {
        *setting = false;
        return true;
    }
    if (value[0] == '\0') {
        *setting = true;
        return true;
    }
    return tdb_cli_parse_bool(value, name, setting);
}

/*
 * A variable whose value is one of names (case-insensitive), stored as
 * its index in *setting; unsetting it selects names[0], as psql does.
 */
static bool
enum_hook(const char *name, const char *value, const char *const *names,
          int nnames, int *setting)
{
    char allowed[128] = "";

    if (value == NULL) {
        *setting = 0;
        return true;
    }
    for (int i = 0; i < nnames; i++)
        if (strcasecmp(value, names[i]) == 0) {
            *setting = i;
            return true;
        }
    for (int i = 0; i < nnames; i++) {
        strncat(allowed, i == 0 ? "" : ", ", sizeof(allowed) - strlen(allowed) - 1);
        strncat(allowed, names[i], sizeof(allowed) - strlen(allowed) - 1);
    }
    tdb_cli_log(CLI_LOG_ERROR, "unrecognized value \"%s\" for \"%s\"",
                value, name);
    tdb_cli_log(CLI_LOG_INFO, "Available values are: %s.", allowed);
    return false;
}

static bool
echo_hook(Shell *sh, const char *value)
{
    static const char *const names[] = {"none", "errors", "queries", "all"};
    int echo = (int)sh->echo;
    bool ok = enum_hook("ECHO", value, names, (int)lengthof(names), &echo);

    sh->echo = (CliEcho)echo;
    return ok;
}

/* The order matches CliVerbosity. */
static bool
verbosity_hook(Shell *sh, const char *value)
{
    static const char *const names[] = {"default", "verbose", "terse",
                                        "sqlstate"};
    int verbosity = (int)sh->verbosity;
    bool ok = enum_hook("VERBOSITY", value, names, (int)lengthof(names),
                        &verbosity);

    sh->verbosity = (CliVerbosity)verbosity;
    return ok;
}

/* Run the setting hook of name, if it has one. */
static bool
run_hook(Shell *sh, const char *name, const char *value)
{
    if (strcmp(name, "ON_ERROR_STOP") == 0)
        return bool_hook(name, value, &sh->on_error_stop);
    if (strcmp(name, "QUIET") == 0)
        return bool_hook(name, value, &sh->quiet);
    if (strcmp(name, "ECHO") == 0)
        return echo_hook(sh, value);
    if (strcmp(name, "VERBOSITY") == 0)
        return verbosity_hook(sh, value);
    return true;
}

/* psql's rule: letters, digits and underscores (and non-ASCII bytes). */
static bool
valid_name(const char *name)
{
    if (name[0] == '\0')
        return false;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (!(isalnum(*p) || *p == '_' || *p >= 0x80))
            return false;
    return true;
}

const char *
tdb_cli_var_get(const Shell *sh, const char *name)
{
    for (const CliVar *v = sh->vars; v != NULL; v = v->next)
        if (strcmp(v->name, name) == 0)
            return v->value;
    return NULL;
}

bool
tdb_cli_var_set(Shell *sh, const char *name, const char *value)
{
    CliVar **link = &sh->vars;

    if (!valid_name(name)) {
        tdb_cli_log(CLI_LOG_ERROR, "invalid variable name: \"%s\"", name);
        return false;
    }
    if (!run_hook(sh, name, value))
        return false;
    while (*link != NULL && strcmp((*link)->name, name) < 0)
        link = &(*link)->next;
    if (*link != NULL && strcmp((*link)->name, name) == 0) {
        CliVar *v = *link;

        if (value != NULL) {
            free(v->value);
            v->value = tdb_cli_strdup(value);
        } else {
            *link = v->next;
            free(v->name);
            free(v->value);
            free(v);
        }
    } else if (value != NULL) {
        CliVar *v = tdb_cli_alloc(sizeof(CliVar));

        v->name = tdb_cli_strdup(name);
        v->value = tdb_cli_strdup(value);
        v->next = *link;
        *link = v;
    }
    return true;
}

void
tdb_cli_var_print_all(const Shell *sh)
{
    for (const CliVar *v = sh->vars; v != NULL; v = v->next)
        printf("%s = '%s'\n", v->name, v->value);
}

void
tdb_cli_var_free_all(Shell *sh)
{
    while (sh->vars != NULL) {
        CliVar *v = sh->vars;

        sh->vars = v->next;
        free(v->name);
        free(v->value);
        free(v);
    }
}
