/*
 * hba.c -- reading and matching pg_hba.conf (hba.h).
 *
 * A line is split into fields at whitespace ('#' starts a comment
 * outside double quotes); the fields are checked in order -- type,
 * database, user, address (host lines), method -- and the first problem
 * ends the load with PostgreSQL's wording for it.  Matching walks the
 * lines in order: type, then database, user and address.
 */
#include "common/base.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/hba.h"

#define HBA_MAX_FIELDS 16
#define HBA_MAX_LINE 4096

/* What a load in progress carries. */
typedef struct HbaParse {
    MemoryContext cxt;
    char *errbuf;
    Size errlen;
    bool failed;
} HbaParse;

TDB_PRINTF(2, 3)
static void
parse_error(HbaParse *p, const char *fmt, ...)
{
    va_list args;

    if (p->failed)
        return;
    va_start(args, fmt);
    (void)vsnprintf(p->errbuf, p->errlen, fmt, args);
    va_end(args);
    p->failed = true;
}

/* Split line into fields (quotes kept, so "all" can mean a name). */
static int
split_fields(char *line, char **fields)
{
    int n = 0;
    char *c = line;

    for (;;) {
        char *start;
        bool quoted = false;

        while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n')
            c++;
        if (*c == '\0' || *c == '#' || n == HBA_MAX_FIELDS)
            break;
        start = c;
        while (*c != '\0' &&
               (quoted || (*c != ' ' && *c != '\t' && *c != '\r' &&
                           *c != '\n' && *c != '#'))) {
            if (*c == '"')
                quoted = !quoted;
            c++;
        }
        fields[n++] = start;
        if (*c == '#') {
            *c = '\0';
            break;
        }
        if (*c != '\0')
            *c++ = '\0';
    }
    return n;
}

/*
 * A DATABASE or USER field: NULL for all, else the comma-separated names
 * (quotes removed) in *names.
 */
static char **
parse_name_list(HbaParse *p, const char *field, int *nnames)
{
    char **names;
    int n = 1;
    const char *c;

    if (strcmp(field, "all") == 0) {
        *nnames = 0;
        return NULL;
    }
    for (c = field; *c != '\0'; c++)
        n += *c == ',';
    names = tdb_mcxt_alloc(p->cxt, sizeof(char *) * (Size)n);
    *nnames = 0;
    for (c = field;;) {
        char *name = tdb_mcxt_alloc(p->cxt, strlen(c) + 1);
        int len = 0;
        bool quoted = false;

        for (; *c != '\0' && (quoted || *c != ','); c++) {
            if (*c == '"')
                quoted = !quoted;
            else
                name[len++] = *c;
        }
        name[len] = '\0';
        if (len == 0)
            parse_error(p, "empty name in list \"%s\"", field);
        names[(*nnames)++] = name;
        if (*c != ',')
            break;
        c++;
    }
    return names;
}

/* Parse an address into family/bytes; false if it is not one. */
static bool
parse_address(const char *text, int *family, uint8 *addr)
{
    memset(addr, 0, 16);
    if (inet_pton(AF_INET, text, addr) == 1) {
        *family = AF_INET;
        return true;
    }
    if (inet_pton(AF_INET6, text, addr) == 1) {
        *family = AF_INET6;
        return true;
    }
    return false;
}

/* A mask of prefix bits for family; false if prefix is out of range. */
static bool
mask_from_prefix(const char *prefix, int family, uint8 *mask)
{
    int maxbits = family == AF_INET ? 32 : 128;
    char *end;
    long bits = strtol(prefix, &end, 10);

    if (*prefix == '\0' || *end != '\0' || bits < 0 || bits > maxbits)
        return false;
    memset(mask, 0, 16);
    for (int i = 0; i < bits; i++)
        mask[i / 8] |= (uint8)(0x80 >> (i % 8));
    return true;
}

/* The ADDRESS field (and a MASK field, which it may consume). */
static void
parse_host_address(HbaParse *p, HbaLine *line, char **fields, int nfields,
                   int *next)
{
    char *addr = fields[*next], *slash;

    (*next)++;
    if (strcmp(addr, "all") == 0) {
        line->any_address = true;
        return;
    }
    slash = strchr(addr, '/');
    if (slash != NULL)
        *slash = '\0';
    if (!parse_address(addr, &line->family, line->addr)) {
        parse_error(p, "invalid IP address \"%s\"", addr);
        return;
    }
    if (slash != NULL) {
        if (!mask_from_prefix(slash + 1, line->family, line->mask))
            parse_error(p, "invalid CIDR mask in address \"%s/%s\"", addr,
                        slash + 1);
        return;
    }
    if (*next >= nfields) {
        parse_error(p, "end-of-line before netmask specification");
        return;
    }
    {
        int mask_family;

        if (!parse_address(fields[*next], &mask_family, line->mask))
            parse_error(p, "invalid IP mask \"%s\"", fields[*next]);
        else if (mask_family != line->family)
            parse_error(p, "IP address and mask do not match");
        (*next)++;
    }
}

static bool
parse_method(const char *name, HbaMethod *method)
{
    if (strcmp(name, "trust") == 0)
        *method = HBA_TRUST;
    else if (strcmp(name, "reject") == 0)
        *method = HBA_REJECT;
    else if (strcmp(name, "scram-sha-256") == 0 || strcmp(name, "md5") == 0)
        *method = HBA_SCRAM;
    else if (strcmp(name, "password") == 0)
        *method = HBA_PASSWORD;
    else
        return false;
    return true;
}

/* Parse one non-empty line's fields into *line. */
static void
parse_line(HbaParse *p, HbaLine *line, char **fields, int nfields)
{
    const char *type = fields[0];
    int next = 1;

    if (strcmp(type, "local") == 0)
        line->is_local = true;
    else if (strcmp(type, "hostssl") == 0)
        line->ssl_only = true;
    else if (strcmp(type, "host") != 0 && strcmp(type, "hostnossl") != 0) {
        parse_error(p, "invalid connection type \"%s\"", type);
        return;
    }
    if (next >= nfields) {
        parse_error(p, "end-of-line before database specification");
        return;
    }
    line->databases = parse_name_list(p, fields[next++], &line->ndatabases);
    if (next >= nfields) {
        parse_error(p, "end-of-line before role specification");
        return;
    }
    line->users = parse_name_list(p, fields[next++], &line->nusers);
    if (!line->is_local) {
        if (next >= nfields) {
            parse_error(p, "end-of-line before IP address specification");
            return;
        }
        parse_host_address(p, line, fields, nfields, &next);
    }
    if (p->failed)
        return;
    if (next >= nfields) {
        parse_error(p, "end-of-line before authentication method");
        return;
    }
    if (!parse_method(fields[next], &line->method)) {
        parse_error(p, "invalid authentication method \"%s\"", fields[next]);
        return;
    }
    if (++next < nfields)
        parse_error(p, "authentication option \"%s\" is not supported",
                    fields[next]);
}

HbaRules *
tdb_hba_load(const char *path, MemoryContext cxt, char *errbuf, Size errlen,
             int *errline)
{
    HbaParse p = {cxt, errbuf, errlen, false};
    HbaRules *rules = tdb_mcxt_alloc_zero(cxt, sizeof(HbaRules));
    int maxlines = 16, lineno = 0;
    char buf[HBA_MAX_LINE];
    FILE *f = fopen(path, "r");

    *errline = 0;
    if (f == NULL) {
        snprintf(errbuf, errlen, "could not open file \"%s\": %s", path,
                 strerror(errno));
        return NULL;
    }
    rules->path = tdb_mcxt_strdup(cxt, path);
    rules->lines = tdb_mcxt_alloc(cxt, sizeof(HbaLine) * (Size)maxlines);
    while (!p.failed && fgets(buf, sizeof(buf), f) != NULL) {
        char *fields[HBA_MAX_FIELDS], copy[HBA_MAX_LINE];
        HbaLine *line;
        int nfields;

        lineno++;
        buf[strcspn(buf, "\r\n")] = '\0';
        memcpy(copy, buf, sizeof(copy));
        nfields = split_fields(buf, fields);
        if (nfields == 0)
            continue;
        if (rules->nlines == maxlines) {
            maxlines *= 2;
            rules->lines = tdb_repalloc(rules->lines,
                                        sizeof(HbaLine) * (Size)maxlines);
        }
        line = &rules->lines[rules->nlines++];
        memset(line, 0, sizeof(*line));
        line->lineno = lineno;
        line->text = tdb_mcxt_strdup(cxt, copy);
        parse_line(&p, line, fields, nfields);
    }
    fclose(f);
    if (p.failed) {
        *errline = lineno;
        return NULL;
    }
    return rules;
}

/* Is name in the list (NULL: all)? */
static bool
name_matches(char **names, int nnames, const char *name)
{
    if (names == NULL)
        return true;
    for (int i = 0; i < nnames; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

/* Does the client's address fall in the line's network? */
static bool
address_matches(const HbaLine *line, const char *remote_host)
{
    int family;
    uint8 addr[16];
    int len;

    if (line->any_address)
        return true;
    if (!parse_address(remote_host, &family, addr) || family != line->family)
        return false;
    len = family == AF_INET ? 4 : 16;
    for (int i = 0; i < len; i++)
        if ((addr[i] & line->mask[i]) != (line->addr[i] & line->mask[i]))
            return false;
    return true;
}

const HbaLine *
tdb_hba_match(const HbaRules *rules, bool is_unix, const char *remote_host,
              const char *database, const char *user)
{
    for (int i = 0; i < rules->nlines; i++) {
        const HbaLine *line = &rules->lines[i];

        if (line->is_local != is_unix || line->ssl_only)
            continue;
        if (!name_matches(line->databases, line->ndatabases, database) ||
            !name_matches(line->users, line->nusers, user))
            continue;
        if (!is_unix && !address_matches(line, remote_host))
            continue;
        return line;
    }
    return NULL;
}

static const char default_hba[] =
    "# pg_hba.conf -- who may connect to this tupledb data directory, and\n"
    "# how they prove who they are.  Read when `tupledb serve` starts; the\n"
    "# first line that matches a connection decides.\n"
    "#\n"
    "# TYPE   DATABASE  USER  ADDRESS        METHOD\n"
    "#\n"
    "# TYPE: local (the Unix socket) or host (TCP).  DATABASE, USER: all,\n"
    "# or names separated by commas.  ADDRESS (host only): all, an address\n"
    "# with a /prefix length, or an address and a mask.  METHOD: trust (no\n"
    "# password), scram-sha-256 (a password checked by SCRAM; md5 means the\n"
    "# same), password (a password sent in clear text), reject.\n"
    "#\n"
    "# To require passwords over TCP, give the user one\n"
    "#     CREATE ROLE alice LOGIN PASSWORD 'secret';\n"
    "# and change trust to scram-sha-256 on the host lines, then restart.\n"
    "# A connection no line matches is refused.\n"
    "\n"
    "local   all       all                  trust\n"
    "host    all       all   127.0.0.1/32   trust\n"
    "host    all       all   ::1/128        trust\n";

int
tdb_hba_write_default(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    Size len = sizeof(default_hba) - 1;

    if (fd < 0)
        return errno == EEXIST ? 0 : -1;
    if (write(fd, default_hba, len) != (ssize_t)len || fsync(fd) != 0) {
        int save = errno;

        close(fd);
        unlink(path);
        errno = save != 0 ? save : EIO;
        return -1;
    }
    return close(fd);
}

const char *
tdb_hba_method_name(HbaMethod method)
{
    switch (method) {
    case HBA_TRUST:
        return "trust";
    case HBA_REJECT:
        return "reject";
    case HBA_SCRAM:
        return "scram-sha-256";
    case HBA_PASSWORD:
        return "password";
    }
    return "?";
}
