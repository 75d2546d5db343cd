/*
 * test_hba.c -- pg_hba.conf parsing and matching (server/hba.h).
 *
 *   test_default_file   the default file is written once, parses, and
 *       trusts the socket, 127.0.0.1 and ::1 but not other addresses.
 *   test_matching       first match wins; database/user lists; CIDR and
 *       separate masks; IPv6; hostssl never matches; no match is NULL.
 *   test_errors         each kind of mistake is refused with PostgreSQL's
 *       wording and the line it is on.
 */
#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmgr/mcxt.h"
#include "server/hba.h"
#include "test.h"

static char path[256];

/* Write text to a fresh temporary file (path). */
static void
write_file(const char *text)
{
    FILE *f;

    snprintf(path, sizeof(path), "/tmp/tdb-hba-test.%d", (int)getpid());
    f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static HbaRules *
load(const char *text, char *err, int *line)
{
    write_file(text);
    return tdb_hba_load(path, tdb_current_mcxt, err, 256, line);
}

TEST_BEGIN(test_default_file)
{
    char err[256];
    int line;
    HbaRules *rules;
    const HbaLine *m;

    snprintf(path, sizeof(path), "/tmp/tdb-hba-default.%d", (int)getpid());
    unlink(path);
    expect_int_eq(tdb_hba_write_default(path), 0);
    expect_int_eq(tdb_hba_write_default(path), 0); /* exists: untouched */
    rules = tdb_hba_load(path, tdb_current_mcxt, err, sizeof(err), &line);
    expect_ptr_not_null(rules);
    m = tdb_hba_match(rules, true, "[local]", "db", "u");
    expect_true(m != NULL && m->method == HBA_TRUST);
    m = tdb_hba_match(rules, false, "127.0.0.1", "db", "u");
    expect_true(m != NULL && m->method == HBA_TRUST);
    m = tdb_hba_match(rules, false, "::1", "db", "u");
    expect_true(m != NULL && m->method == HBA_TRUST);
    expect_ptr_null(tdb_hba_match(rules, false, "10.1.2.3", "db", "u"));
    unlink(path);
}
TEST_END

TEST_BEGIN(test_matching)
{
    char err[256];
    int line;
    HbaRules *rules = load(
        "# comment\n"
        "local   all   all   reject  # trailing comment\n"
        "hostssl all   all   all     trust\n"
        "host    db1,\"Db2\" alice,bob  10.0.0.0/8  password\n"
        "host    all   bob   10.1.0.0 255.255.0.0  reject\n"
        "host    all   all   10.0.0.0/8  scram-sha-256\n"
        "host    all   all   fe80::/16   md5\n",
        err, &line);
    const HbaLine *m;

    expect_ptr_not_null(rules);
    if (rules == NULL)
        return;
    expect_int_eq(rules->nlines, 6);
    m = tdb_hba_match(rules, true, "[local]", "x", "y");
    expect_true(m != NULL && m->method == HBA_REJECT && m->lineno == 2);
    m = tdb_hba_match(rules, false, "10.1.2.3", "Db2", "bob");
    expect_true(m != NULL && m->method == HBA_PASSWORD && m->lineno == 4);
    m = tdb_hba_match(rules, false, "10.1.2.3", "db3", "bob");
    expect_true(m != NULL && m->method == HBA_REJECT && m->lineno == 5);
    m = tdb_hba_match(rules, false, "10.2.2.3", "db3", "bob");
    expect_true(m != NULL && m->method == HBA_SCRAM && m->lineno == 6);
    m = tdb_hba_match(rules, false, "fe80::1", "db3", "bob");
    expect_true(m != NULL && m->method == HBA_SCRAM && m->lineno == 7);
    expect_ptr_null(tdb_hba_match(rules, false, "11.0.0.1", "db", "u"));
    expect_ptr_null(tdb_hba_match(rules, false, "::1", "db", "u"));
    unlink(path);
}
TEST_END

TEST_BEGIN(test_errors)
{
    static const struct {
        const char *text;
        const char *message;
        int line;
    } cases[] = {
        {"local all all trust\nhost all all 127.0.0.1/32 magic\n",
         "invalid authentication method \"magic\"", 2},
        {"hots all all 127.0.0.1/32 trust\n",
         "invalid connection type \"hots\"", 1},
        {"host all all 127.0.0.1/33 trust\n",
         "invalid CIDR mask in address \"127.0.0.1/33\"", 1},
        {"host all all 300.0.0.1/32 trust\n",
         "invalid IP address \"300.0.0.1\"", 1},
        {"host all all 127.0.0.1 trust\n", "invalid IP mask \"trust\"", 1},
        {"\n\nhost all all\n", "end-of-line before IP address specification",
         3},
        {"local all\n", "end-of-line before role specification", 1},
        {"local all all\n", "end-of-line before authentication method", 1},
        {"local all all trust clientcert=1\n",
         "authentication option \"clientcert=1\" is not supported", 1},
        {"host all all ::1 255.0.0.0 trust\n",
         "IP address and mask do not match", 1},
    };
    char err[256];
    int line;

    for (Size i = 0; i < lengthof(cases); i++) {
        expect_ptr_null(load(cases[i].text, err, &line));
        expect_str_eq(err, cases[i].message);
        expect_int_eq(line, cases[i].line);
    }
    unlink(path);
    expect_ptr_null(tdb_hba_load("/nonexistent/pg_hba.conf", tdb_current_mcxt,
                                 err, sizeof(err), &line));
    expect_int_eq(line, 0);
    expect_str_contains(err, "could not open file");
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "server_hba", TEST_CASE(test_default_file),
                     TEST_CASE(test_matching), TEST_CASE(test_errors));
}
