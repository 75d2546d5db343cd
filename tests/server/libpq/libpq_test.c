/*
 * libpq_test.c -- the libpq acceptance test: a C client built
 * against Debian's libpq 15 (libpq-dev), run by tests/server/run.sh
 * (group `libpq`) against `tupledb serve` and against a throwaway
 * PostgreSQL 15, with the same expectations for both.
 *
 *   libpq_test CONNINFO LABEL
 *
 * CONNINFO is a libpq connection string; LABEL ("tupledb", "postgresql")
 * prefixes every check name.  Each check prints one line
 *
 *     ok    libpq LABEL: NAME
 *     FAIL  libpq LABEL: NAME: what went wrong
 *
 * and the program ends with "RESULT libpq: N passed, N failed" and exit
 * status 1 if a check failed (2 if it could not connect).
 *
 * What it covers, in order (each step a function below):
 *
 *   connect     ParameterStatus values libpq reads (server_version as
 *               150000 or later, integer_datetimes, client_encoding)
 *   prepare     PQprepare with inferred parameter types and
 *               PQdescribePrepared: the nine parameter types (int4, int8,
 *               text, numeric, float8, bool, date, timestamptz, bytea),
 *               an explicit paramTypes array, the result columns
 *   params      PQexecPrepared with text parameters, binary parameters
 *               (the types' send formats built by hand) and NULLs in
 *               both formats
 *   results     the rows back with resultFormat 1, every binary value
 *               decoded and checked (numeric's digit groups, date and
 *               timestamptz as days / microseconds since 2000-01-01),
 *               and in text; PQfformat, PQftype, PQgetisnull
 *   errors      SQLSTATE, severity, primary message and statement
 *               position of syntax, name, runtime and input errors, on
 *               the simple and the extended protocol
 *   transaction BEGIN / an error / 25P02 / ROLLBACK, PQtransactionStatus
 *               at each step, then a committed block
 *   copy_in     COPY FROM STDIN through PQputCopyData in pieces that cut
 *               lines and escapes apart, PQputCopyEnd, the tag
 *   copy_fail   PQputCopyEnd with an error message: CopyFail, 57014
 *               "COPY from stdin failed: ...", nothing loaded
 *   copy_out    COPY TO STDOUT through PQgetCopyData, escapes included
 *   cancel      PQcancel of a long query, simple and extended protocol:
 *               57014 "canceling statement due to user request", the
 *               connection usable afterwards
 *   singlerow   PQsetSingleRowMode: one PGRES_SINGLE_TUPLE per row, then
 *               an empty PGRES_TUPLES_OK
 *   pipeline    PQenterPipelineMode: queries queued before one Sync, an
 *               error in the middle (PGRES_PIPELINE_ABORTED after it),
 *               the next Sync recovering, PQexitPipelineMode
 *
 * Values are chosen so the expected bytes are PostgreSQL 15's: the
 * program must pass unchanged against PostgreSQL itself.  The session
 * runs with TimeZone UTC and DateStyle ISO (set by the program).
 *
 * This is a client program, not engine code: it uses malloc through
 * libpq (PQfreemem, PQclear) and fixed buffers of its own.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

/* Type OIDs (pg_type.dat) */
#define BOOLOID 16
#define BYTEAOID 17
#define INT8OID 20
#define INT4OID 23
#define TEXTOID 25
#define FLOAT8OID 701
#define DATEOID 1082
#define TIMESTAMPTZOID 1184
#define NUMERICOID 1700

static const char *label;
static int npassed;
static int nfailed;
static PGconn *conn;

/* ----------------------------------------------------------------------
 * Checks
 * ---------------------------------------------------------------------- */

static bool check(bool cond, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * check -- print one check line; fmt (may be NULL) says what went wrong
 * when cond is false.  Returns cond.
 */
static bool
check(bool cond, const char *name, const char *fmt, ...)
{
    if (cond) {
        npassed++;
        printf("  ok    libpq %s: %s\n", label, name);
    } else {
        va_list ap;

        nfailed++;
        printf("  FAIL  libpq %s: %s", label, name);
        if (fmt != NULL) {
            printf(": ");
            va_start(ap, fmt);
            vprintf(fmt, ap);
            va_end(ap);
        }
        printf("\n");
    }
    fflush(stdout);
    return cond;
}

/* A string field of a result's error, "" when absent. */
static const char *
field(const PGresult *res, int code)
{
    const char *v = PQresultErrorField(res, code);

    return v != NULL ? v : "";
}

/* Check that res is an error with this SQLSTATE (and, if msg is not NULL,
 * this primary message); clears res. */
static void
expect_error(PGresult *res, const char *name, const char *sqlstate,
             const char *msg)
{
    const char *state = field(res, PG_DIAG_SQLSTATE);
    const char *primary = field(res, PG_DIAG_MESSAGE_PRIMARY);

    check(PQresultStatus(res) == PGRES_FATAL_ERROR &&
              strcmp(state, sqlstate) == 0 &&
              (msg == NULL || strcmp(primary, msg) == 0) &&
              strcmp(field(res, PG_DIAG_SEVERITY_NONLOCALIZED), "ERROR") == 0,
          name, "status %s, sqlstate %s, message \"%s\"",
          PQresStatus(PQresultStatus(res)), state, primary);
    PQclear(res);
}

/* Check a command's status and tag; clears res. */
static void
expect_command(PGresult *res, const char *name, ExecStatusType status,
               const char *tag)
{
    check(PQresultStatus(res) == status && strcmp(PQcmdStatus(res), tag) == 0,
          name, "status %s, tag \"%s\", error %s",
          PQresStatus(PQresultStatus(res)), PQcmdStatus(res),
          PQresultErrorMessage(res));
    PQclear(res);
}

/* Run a statement that must succeed (setup); a failure is a check. */
static void
run_ok(const char *sql)
{
    PGresult *res = PQexec(conn, sql);
    ExecStatusType st = PQresultStatus(res);

    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
        check(false, sql, "%s", PQresultErrorMessage(res));
    PQclear(res);
}

/* The single text value of a one-row, one-column query, in buf. */
static const char *
query_value(const char *sql, char *buf, size_t size)
{
    PGresult *res = PQexec(conn, sql);

    if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
        PQnfields(res) == 1)
        snprintf(buf, size, "%s", PQgetvalue(res, 0, 0));
    else
        snprintf(buf, size, "<%s: %s>", PQresStatus(PQresultStatus(res)),
                 PQresultErrorMessage(res));
    PQclear(res);
    return buf;
}

/* ----------------------------------------------------------------------
 * Binary formats (big-endian, as the types' send/recv functions use)
 * ---------------------------------------------------------------------- */

static void
put_u32(char *p, uint32_t v)
{
    v = htonl(v);
    memcpy(p, &v, 4);
}

static void
put_u64(char *p, uint64_t v)
{
    put_u32(p, (uint32_t)(v >> 32));
    put_u32(p + 4, (uint32_t)v);
}

static void
put_u16(char *p, uint16_t v)
{
    v = htons(v);
    memcpy(p, &v, 2);
}

static uint32_t
get_u32(const char *p)
{
    uint32_t v;

    memcpy(&v, p, 4);
    return ntohl(v);
}

static uint64_t
get_u64(const char *p)
{
    return ((uint64_t)get_u32(p) << 32) | get_u32(p + 4);
}

static uint16_t
get_u16(const char *p)
{
    uint16_t v;

    memcpy(&v, p, 2);
    return ntohs(v);
}

static double
get_f64(const char *p)
{
    uint64_t u = get_u64(p);
    double d;

    memcpy(&d, &u, 8);
    return d;
}

/* Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant). */
static int64_t
days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

    return era * 146097 + (int64_t)doe - 719468;
}

/* PostgreSQL's date: days since 2000-01-01. */
static int32_t
pg_date(int y, unsigned m, unsigned d)
{
    return (int32_t)(days_from_civil(y, m, d) - days_from_civil(2000, 1, 1));
}

/* PostgreSQL's timestamptz: microseconds since 2000-01-01 00:00 UTC. */
static int64_t
pg_timestamp(int y, unsigned mo, unsigned d, int h, int mi, int s, int usec)
{
    return ((int64_t)pg_date(y, mo, d) * 86400 + h * 3600 + mi * 60 + s) *
               1000000 +
           usec;
}

/*
 * A numeric in its binary form: ndigits, weight, sign, dscale (int16 each)
 * and ndigits base-10000 digits.  Writes into buf (at least 8 + 2 * n
 * bytes) and returns the length.
 */
static int
numeric_bin(char *buf, int16_t weight, uint16_t sign, int16_t dscale,
            int ndigits, const int16_t *digits)
{
    put_u16(buf, (uint16_t)ndigits);
    put_u16(buf + 2, (uint16_t)weight);
    put_u16(buf + 4, sign);
    put_u16(buf + 6, (uint16_t)dscale);
    for (int i = 0; i < ndigits; i++)
        put_u16(buf + 8 + 2 * i, (uint16_t)digits[i]);
    return 8 + 2 * ndigits;
}

/* ----------------------------------------------------------------------
 * The steps
 * ---------------------------------------------------------------------- */

static void
step_connect(void)
{
    const char *v;

    check(PQserverVersion(conn) >= 150000, "server_version is 15 or later",
          "%d", PQserverVersion(conn));
    v = PQparameterStatus(conn, "integer_datetimes");
    check(v != NULL && strcmp(v, "on") == 0, "integer_datetimes = on", "%s",
          v ? v : "(none)");
    v = PQparameterStatus(conn, "client_encoding");
    check(v != NULL && strcmp(v, "UTF8") == 0, "client_encoding = UTF8", "%s",
          v ? v : "(none)");
    run_ok("SET TimeZone = 'UTC'");
    run_ok("SET DateStyle = 'ISO, MDY'");
    v = PQparameterStatus(conn, "TimeZone");
    check(v != NULL && strcmp(v, "UTC") == 0,
          "SET TimeZone reported by ParameterStatus", "%s", v ? v : "(none)");
    run_ok("BEGIN");
    run_ok("SET application_name = 'libpq in a block'");
    v = PQparameterStatus(conn, "application_name");
    check(v != NULL && strcmp(v, "libpq in a block") == 0,
          "SET application_name in a block reported", "%s", v ? v : "(none)");
    run_ok("ROLLBACK");
    v = PQparameterStatus(conn, "application_name");
    check(v != NULL && strcmp(v, "") == 0,
          "ROLLBACK reports application_name's old value", "%s",
          v ? v : "(none)");
    check(PQtransactionStatus(conn) == PQTRANS_IDLE, "idle after connect",
          "%d", (int)PQtransactionStatus(conn));

    run_ok("DROP TABLE IF EXISTS lt");
    run_ok("CREATE TABLE lt (id int4, i8 int8, t text, n numeric, f float8, "
           "b bool, d date, ts timestamptz, by bytea)");
}

#define INSERT_SQL \
    "INSERT INTO lt VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"

static void
step_prepare(void)
{
    static const Oid want[9] = {INT4OID, INT8OID,    TEXTOID,
                                NUMERICOID, FLOAT8OID, BOOLOID,
                                DATEOID, TIMESTAMPTZOID, BYTEAOID};
    static const Oid given[2] = {INT8OID, 0};
    PGresult *res;
    char got[256];
    bool same = true;
    int len = 0;

    res = PQprepare(conn, "ins", INSERT_SQL, 9, NULL);
    expect_command(res, "PQprepare INSERT with 9 inferred parameters",
                   PGRES_COMMAND_OK, "");

    res = PQdescribePrepared(conn, "ins");
    if (PQresultStatus(res) == PGRES_COMMAND_OK) {
        for (int i = 0; i < PQnparams(res); i++)
            len += snprintf(got + len, sizeof(got) - (size_t)len, " %u",
                            PQparamtype(res, i));
        for (int i = 0; i < 9; i++)
            same = same && PQnparams(res) == 9 && PQparamtype(res, i) == want[i];
    } else {
        snprintf(got, sizeof(got), "%s", PQresultErrorMessage(res));
        same = false;
    }
    check(same, "PQdescribePrepared: the parameter types from the columns",
          "got%s", got);
    check(PQnfields(res) == 0, "PQdescribePrepared: INSERT has no columns",
          "%d", PQnfields(res));
    PQclear(res);

    /* explicit types: $1 given as int8, $2 inferred from the comparison */
    res = PQprepare(conn, "sel_given",
                    "SELECT $1 + 1 AS plus, t FROM lt WHERE t = $2", 2, given);
    expect_command(res, "PQprepare with paramTypes", PGRES_COMMAND_OK, "");
    res = PQdescribePrepared(conn, "sel_given");
    check(PQresultStatus(res) == PGRES_COMMAND_OK && PQnparams(res) == 2 &&
              PQparamtype(res, 0) == INT8OID &&
              PQparamtype(res, 1) == TEXTOID && PQnfields(res) == 2 &&
              PQftype(res, 0) == INT8OID && PQftype(res, 1) == TEXTOID &&
              strcmp(PQfname(res, 0), "plus") == 0,
          "PQdescribePrepared: given and inferred types, result columns",
          "status %s nparams %d p1 %u p2 %u nfields %d",
          PQresStatus(PQresultStatus(res)), PQnparams(res),
          PQparamtype(res, 0), PQparamtype(res, 1), PQnfields(res));
    PQclear(res);

    res = PQprepare(conn, "bad", "SELECT nosuch FROM lt", 0, NULL);
    check(PQresultStatus(res) == PGRES_FATAL_ERROR &&
              strcmp(field(res, PG_DIAG_SQLSTATE), "42703") == 0 &&
              strcmp(field(res, PG_DIAG_STATEMENT_POSITION), "8") == 0,
          "PQprepare of a bad column: 42703 at position 8", "%s %s %s",
          field(res, PG_DIAG_SQLSTATE), field(res, PG_DIAG_STATEMENT_POSITION),
          field(res, PG_DIAG_MESSAGE_PRIMARY));
    PQclear(res);
}

/*
 * A prepared upsert executed many times through the extended protocol
 * (INSERT ... ON CONFLICT DO UPDATE with EXCLUDED and RETURNING), DO
 * NOTHING's tag, and 21000 from one execution leaving the next working.
 */
static void
step_upsert(void)
{
    enum { NKEYS = 17, NEXEC = 300 };
    int seen[NKEYS] = {0}, last[NKEYS] = {0};
    long want_sum = 0, want_hits = 0;
    bool all_ok = true;
    char got[256], sql[128];
    PGresult *res;

    run_ok("DROP TABLE IF EXISTS ups");
    run_ok(
        "CREATE TABLE ups (k int4 PRIMARY KEY, v int4, hits int4 DEFAULT 0)");
    res = PQprepare(conn, "ups",
                    "INSERT INTO ups VALUES ($1, $2) ON CONFLICT (k) DO UPDATE "
                    "SET v = EXCLUDED.v, hits = ups.hits + 1 RETURNING hits",
                    2, NULL);
    expect_command(res, "PQprepare an upsert", PGRES_COMMAND_OK, "");
    res = PQdescribePrepared(conn, "ups");
    check(PQresultStatus(res) == PGRES_COMMAND_OK && PQnparams(res) == 2 &&
              PQparamtype(res, 0) == INT4OID &&
              PQparamtype(res, 1) == INT4OID && PQnfields(res) == 1 &&
              PQftype(res, 0) == INT4OID,
          "PQdescribePrepared: the upsert's parameters and RETURNING",
          "status %s nparams %d nfields %d", PQresStatus(PQresultStatus(res)),
          PQnparams(res), PQnfields(res));
    PQclear(res);
    for (int i = 0; i < NEXEC; i++) {
        char kbuf[16], vbuf[16];
        const char *values[2] = {kbuf, vbuf};
        char want_hits_s[16];
        int k = (i * 7) % NKEYS;

        snprintf(kbuf, sizeof(kbuf), "%d", k);
        snprintf(vbuf, sizeof(vbuf), "%d", i);
        snprintf(want_hits_s, sizeof(want_hits_s), "%d", seen[k]);
        res = PQexecPrepared(conn, "ups", 2, values, NULL, NULL, 0);
        if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1 ||
            strcmp(PQcmdStatus(res), "INSERT 0 1") != 0 ||
            strcmp(PQgetvalue(res, 0, 0), want_hits_s) != 0) {
            if (all_ok)
                check(false, "the prepared upsert executed 300 times",
                      "execution %d: status %s tag \"%s\" %s", i,
                      PQresStatus(PQresultStatus(res)), PQcmdStatus(res),
                      PQresultErrorMessage(res));
            all_ok = false;
        }
        PQclear(res);
        seen[k]++;
        last[k] = i;
    }
    if (all_ok)
        check(true, "the prepared upsert executed 300 times", NULL);
    for (int k = 0; k < NKEYS; k++) {
        want_sum += last[k];
        want_hits += seen[k] - 1;
    }
    snprintf(sql, sizeof(sql), "%d %ld %ld", NKEYS, want_sum, want_hits);
    check(strcmp(query_value("SELECT count(*) || ' ' || sum(v) || ' ' || "
                             "sum(hits) FROM ups",
                             got, sizeof(got)),
                 sql) == 0,
          "the upserted rows", "got \"%s\", want \"%s\"", got, sql);

    /* binary parameters */
    {
        char kb[4], vb[4];
        const char *values[2] = {kb, vb};
        const int lengths[2] = {4, 4}, formats[2] = {1, 1};

        put_u32(kb, 3);
        put_u32(vb, 1000);
        res = PQexecPrepared(conn, "ups", 2, values, lengths, formats, 0);
        expect_command(res, "the upsert with binary parameters",
                       PGRES_TUPLES_OK, "INSERT 0 1");
        check(strcmp(query_value("SELECT v FROM ups WHERE k = 3", got,
                                 sizeof(got)),
                     "1000") == 0,
              "the binary upsert's new value", "got %s", got);
    }

    res = PQprepare(conn, "ups_nothing",
                    "INSERT INTO ups VALUES ($1, $2) ON CONFLICT DO NOTHING", 2,
                    NULL);
    expect_command(res, "PQprepare DO NOTHING", PGRES_COMMAND_OK, "");
    {
        const char *values[2] = {"5", "0"};

        res = PQexecPrepared(conn, "ups_nothing", 2, values, NULL, NULL, 0);
        expect_command(res, "DO NOTHING on a conflict: INSERT 0 0",
                       PGRES_COMMAND_OK, "INSERT 0 0");
        values[0] = "500";
        res = PQexecPrepared(conn, "ups_nothing", 2, values, NULL, NULL, 0);
        expect_command(res, "DO NOTHING without one: INSERT 0 1",
                       PGRES_COMMAND_OK, "INSERT 0 1");
    }

    res = PQprepare(conn, "ups_twice",
                    "INSERT INTO ups VALUES ($1, 1), ($1, 2) ON CONFLICT (k) "
                    "DO UPDATE SET v = EXCLUDED.v",
                    1, NULL);
    expect_command(res, "PQprepare an upsert of one key twice",
                   PGRES_COMMAND_OK, "");
    {
        const char *values[1] = {"6"};

        res = PQexecPrepared(conn, "ups_twice", 1, values, NULL, NULL, 0);
        expect_error(res, "a row affected twice: 21000", "21000",
                     "ON CONFLICT DO UPDATE command cannot affect row a "
                     "second time");
        check(PQtransactionStatus(conn) == PQTRANS_IDLE, "idle after the 21000",
              "%d", (int)PQtransactionStatus(conn));
        values[0] = "600";
        res = PQexecPrepared(conn, "ups_twice", 1, values, NULL, NULL, 0);
        expect_error(res, "a new key twice: 21000", "21000", NULL);
    }
    snprintf(sql, sizeof(sql), "%d %ld", NKEYS + 1, want_sum - last[3] + 1000);
    check(strcmp(query_value("SELECT count(*) || ' ' || sum(v) FROM ups", got,
                             sizeof(got)),
                 sql) == 0,
          "the failed upserts left nothing", "got \"%s\", want \"%s\"", got,
          sql);
    run_ok("DROP TABLE ups");
}

static void
step_params(void)
{
    PGresult *res;
    /* row 1: text parameters */
    const char *text_vals[9] = {"1",
                                "9000000000",
                                "h\xc3\xa9llo, world",
                                "12345.678900",
                                "-2.5e-3",
                                "true",
                                "2024-02-29",
                                "2024-02-29 12:34:56.789+02",
                                "\\x00ff10"};
    /* row 2: binary parameters */
    char b_id[4], b_i8[8], b_n[32], b_f[8], b_b[1], b_d[4], b_ts[8];
    char b_by[4] = {'\0', 'a', '\\', (char)0xfe};
    const char *bin_text = "tab\there";
    static const int16_t ndigits[2] = {1, 5000};
    const char *bin_vals[9];
    int bin_lens[9];
    int bin_fmts[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    double f = -1234.0625;
    uint64_t fu;
    /* row 3 and 4: NULLs, in text and in binary format */
    const char *null_vals[9] = {"3", NULL, NULL, NULL, NULL,
                                NULL, NULL, NULL, NULL};
    char b_id4[4];
    const char *null_bin_vals[9] = {b_id4, NULL, NULL, NULL, NULL,
                                    NULL, NULL, NULL, NULL};
    int null_bin_lens[9] = {4};

    res = PQexecPrepared(conn, "ins", 9, text_vals, NULL, NULL, 0);
    expect_command(res, "PQexecPrepared, text parameters", PGRES_COMMAND_OK,
                   "INSERT 0 1");

    put_u32(b_id, 2);
    put_u64(b_i8, (uint64_t)-9000000000LL);
    memcpy(&fu, &f, 8);
    put_u64(b_f, fu);
    b_b[0] = 0;
    put_u32(b_d, (uint32_t)pg_date(1999, 12, 31));
    put_u64(b_ts, (uint64_t)pg_timestamp(2038, 1, 19, 3, 14, 8, 123456));
    bin_vals[0] = b_id;
    bin_lens[0] = 4;
    bin_vals[1] = b_i8;
    bin_lens[1] = 8;
    bin_vals[2] = bin_text;
    bin_lens[2] = (int)strlen(bin_text);
    /* -1.5000: weight 0, sign negative, dscale 4, digits 1 5000 */
    bin_vals[3] = b_n;
    bin_lens[3] = numeric_bin(b_n, 0, 0x4000, 4, 2, ndigits);
    bin_vals[4] = b_f;
    bin_lens[4] = 8;
    bin_vals[5] = b_b;
    bin_lens[5] = 1;
    bin_vals[6] = b_d;
    bin_lens[6] = 4;
    bin_vals[7] = b_ts;
    bin_lens[7] = 8;
    bin_vals[8] = b_by;
    bin_lens[8] = 4;
    res = PQexecPrepared(conn, "ins", 9, bin_vals, bin_lens, bin_fmts, 0);
    expect_command(res, "PQexecPrepared, binary parameters", PGRES_COMMAND_OK,
                   "INSERT 0 1");

    res = PQexecPrepared(conn, "ins", 9, null_vals, NULL, NULL, 0);
    expect_command(res, "PQexecPrepared, NULL parameters (text format)",
                   PGRES_COMMAND_OK, "INSERT 0 1");
    put_u32(b_id4, 4);
    res = PQexecPrepared(conn, "ins", 9, null_bin_vals, null_bin_lens,
                         bin_fmts, 0);
    expect_command(res, "PQexecPrepared, NULL parameters (binary format)",
                   PGRES_COMMAND_OK, "INSERT 0 1");

    /* bad input: a text value the type rejects, a binary value of the
     * wrong length */
    text_vals[0] = "12x";
    res = PQexecPrepared(conn, "ins", 9, text_vals, NULL, NULL, 0);
    expect_error(res, "text parameter the type rejects: 22P02", "22P02",
                 "invalid input syntax for type integer: \"12x\"");
    bin_lens[0] = 3;
    res = PQexecPrepared(conn, "ins", 9, bin_vals, bin_lens, bin_fmts, 0);
    expect_error(res, "binary int4 parameter of 3 bytes: 08P01", "08P01",
                 "insufficient data left in message");
    {
        char b_id5[5] = {0, 0, 0, 9, 0};

        bin_vals[0] = b_id5;
        bin_lens[0] = 5;
        res = PQexecPrepared(conn, "ins", 9, bin_vals, bin_lens, bin_fmts, 0);
        expect_error(res, "binary int4 parameter of 5 bytes: 22P03", "22P03",
                     "incorrect binary data format in bind parameter 1");
    }

    /* PQexecParams: an unnamed statement, text and binary in one call */
    {
        const char *vals[2] = {"41", b_id};
        const int lens[2] = {0, 4};
        const int fmts[2] = {0, 1};
        const Oid types[2] = {INT4OID, INT4OID};

        res = PQexecParams(conn, "SELECT $1 + $2 AS s", 2, types, vals, lens,
                           fmts, 0);
        check(PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
                  strcmp(PQgetvalue(res, 0, 0), "43") == 0 &&
                  PQftype(res, 0) == INT4OID,
              "PQexecParams: a text and a binary parameter", "%s %s",
              PQresStatus(PQresultStatus(res)),
              PQntuples(res) == 1 ? PQgetvalue(res, 0, 0)
                                  : PQresultErrorMessage(res));
        PQclear(res);
    }
}

/* Check the binary numeric in v against the expected header and digits. */
static bool
numeric_is(const char *v, int len, int16_t weight, uint16_t sign,
           int16_t dscale, int ndigits, const int16_t *digits)
{
    if (len != 8 + 2 * ndigits || get_u16(v) != ndigits ||
        (int16_t)get_u16(v + 2) != weight || get_u16(v + 4) != sign ||
        (int16_t)get_u16(v + 6) != dscale)
        return false;
    for (int i = 0; i < ndigits; i++)
        if ((int16_t)get_u16(v + 8 + 2 * i) != digits[i])
            return false;
    return true;
}

static void
step_results(void)
{
    static const int16_t n1[3] = {1, 2345, 6789};
    static const int16_t n2[2] = {1, 5000};
    PGresult *res;
    const char *id_vals[1];
    char b_id[4];
    int lens[1] = {4};
    int fmts[1] = {1};
    bool formats_ok = true;

    res = PQprepare(conn, "sel",
                    "SELECT id, i8, t, n, f, b, d, ts, by FROM lt WHERE id = $1",
                    1, NULL);
    expect_command(res, "PQprepare SELECT", PGRES_COMMAND_OK, "");

    /* row 1 in binary, the parameter in binary too */
    put_u32(b_id, 1);
    id_vals[0] = b_id;
    res = PQexecPrepared(conn, "sel", 1, id_vals, lens, fmts, 1);
    if (!check(PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
                   PQnfields(res) == 9,
               "binary results: one row of nine columns", "%s %s",
               PQresStatus(PQresultStatus(res)), PQresultErrorMessage(res))) {
        PQclear(res);
        return;
    }
    for (int i = 0; i < 9; i++)
        formats_ok = formats_ok && PQfformat(res, i) == 1;
    check(formats_ok, "binary results: PQfformat 1 for every column", NULL);
    check(PQftype(res, 3) == NUMERICOID && PQftype(res, 7) == TIMESTAMPTZOID,
          "binary results: PQftype", "%u %u", PQftype(res, 3),
          PQftype(res, 7));
    check(PQgetlength(res, 0, 0) == 4 && get_u32(PQgetvalue(res, 0, 0)) == 1,
          "binary int4", NULL);
    check(PQgetlength(res, 0, 1) == 8 &&
              get_u64(PQgetvalue(res, 0, 1)) == 9000000000ULL,
          "binary int8", NULL);
    check(PQgetlength(res, 0, 2) == 13 &&
              memcmp(PQgetvalue(res, 0, 2), "h\xc3\xa9llo, world", 13) == 0,
          "binary text (UTF-8 bytes)", "length %d", PQgetlength(res, 0, 2));
    check(numeric_is(PQgetvalue(res, 0, 3), PQgetlength(res, 0, 3), 1, 0, 6, 3,
                     n1),
          "binary numeric 12345.678900: weight 1, dscale 6, 1 2345 6789",
          "length %d", PQgetlength(res, 0, 3));
    check(PQgetlength(res, 0, 4) == 8 &&
              get_f64(PQgetvalue(res, 0, 4)) == -2.5e-3,
          "binary float8", "%.17g", get_f64(PQgetvalue(res, 0, 4)));
    check(PQgetlength(res, 0, 5) == 1 && PQgetvalue(res, 0, 5)[0] == 1,
          "binary bool", NULL);
    check(PQgetlength(res, 0, 6) == 4 &&
              (int32_t)get_u32(PQgetvalue(res, 0, 6)) == pg_date(2024, 2, 29),
          "binary date: days since 2000-01-01", "%d",
          (int32_t)get_u32(PQgetvalue(res, 0, 6)));
    check(PQgetlength(res, 0, 7) == 8 &&
              (int64_t)get_u64(PQgetvalue(res, 0, 7)) ==
                  pg_timestamp(2024, 2, 29, 10, 34, 56, 789000),
          "binary timestamptz: UTC microseconds since 2000-01-01",
          "%" PRId64, (int64_t)get_u64(PQgetvalue(res, 0, 7)));
    check(PQgetlength(res, 0, 8) == 3 &&
              memcmp(PQgetvalue(res, 0, 8), "\x00\xff\x10", 3) == 0,
          "binary bytea", NULL);
    PQclear(res);

    /* row 2 (inserted in binary) read back in text */
    {
        static const char *want[9] = {
            "2", "-9000000000", "tab\there", "-1.5000", "-1234.0625", "f",
            "1999-12-31", "2038-01-19 03:14:08.123456+00", "\\x00615cfe"};
        const char *vals[1] = {"2"};
        char bad[256] = "";

        res = PQexecPrepared(conn, "sel", 1, vals, NULL, NULL, 0);
        if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1) {
            for (int i = 0; i < 9; i++)
                if (strcmp(PQgetvalue(res, 0, i), want[i]) != 0 && !bad[0])
                    snprintf(bad, sizeof(bad), "column %d: \"%s\", not \"%s\"",
                             i + 1, PQgetvalue(res, 0, i), want[i]);
        } else {
            snprintf(bad, sizeof(bad), "%s", PQresultErrorMessage(res));
        }
        check(bad[0] == '\0',
              "binary parameters read back in text", "%s", bad);
        PQclear(res);
    }

    /* row 2's numeric in binary: as sent */
    {
        const char *vals[1] = {"2"};
        const int rfmt = 1;

        res = PQexecParams(conn, "SELECT n, by FROM lt WHERE id = $1", 1, NULL,
                           vals, NULL, NULL, rfmt);
        check(PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
                  numeric_is(PQgetvalue(res, 0, 0), PQgetlength(res, 0, 0), 0,
                             0x4000, 4, 2, n2) &&
                  PQgetlength(res, 0, 1) == 4 &&
                  memcmp(PQgetvalue(res, 0, 1), "\0a\\\xfe", 4) == 0,
              "binary numeric -1.5000 and bytea with a NUL byte round trip",
              "%s", PQresultErrorMessage(res));
        PQclear(res);
    }

    /* rows 3 and 4: NULLs in every column but id, in both formats */
    for (int rf = 0; rf <= 1; rf++) {
        const char *vals[1] = {rf ? "4" : "3"};
        bool nulls = true;

        res = PQexecPrepared(conn, "sel", 1, vals, NULL, NULL, rf);
        if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1) {
            for (int i = 1; i < 9; i++)
                nulls = nulls && PQgetisnull(res, 0, i) &&
                        PQgetlength(res, 0, i) == 0;
            nulls = nulls && !PQgetisnull(res, 0, 0);
        } else {
            nulls = false;
        }
        check(nulls,
              rf ? "NULL parameters read back as NULL (binary results)"
                 : "NULL parameters read back as NULL (text results)",
              "%s", PQresultErrorMessage(res));
        PQclear(res);
    }

    /* a WHERE with a NULL parameter matches nothing */
    {
        const char *vals[1] = {NULL};

        res = PQexecPrepared(conn, "sel", 1, vals, NULL, NULL, 0);
        check(PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 0,
              "WHERE id = NULL parameter: no rows", "%s %d",
              PQresStatus(PQresultStatus(res)), PQntuples(res));
        PQclear(res);
    }

    /* PQdescribePrepared of the SELECT: the columns' types */
    res = PQdescribePrepared(conn, "sel");
    check(PQresultStatus(res) == PGRES_COMMAND_OK && PQnparams(res) == 1 &&
              PQparamtype(res, 0) == INT4OID && PQnfields(res) == 9 &&
              PQftype(res, 8) == BYTEAOID && strcmp(PQfname(res, 6), "d") == 0,
          "PQdescribePrepared SELECT: parameter and columns", "%s",
          PQresultErrorMessage(res));
    PQclear(res);

    /* a statement never prepared (PQclosePrepared is libpq 17) */
    res = PQexecPrepared(conn, "nosuch_stmt", 0, NULL, NULL, NULL, 0);
    expect_error(res, "an unknown prepared statement: 26000", "26000",
                 "prepared statement \"nosuch_stmt\" does not exist");
}

static void
step_errors(void)
{
    PGresult *res;

    res = PQexec(conn, "SELECT 1/0");
    expect_error(res, "division by zero: 22012", "22012", "division by zero");

    res = PQexec(conn, "SELECT * FROM nosuch");
    check(strcmp(field(res, PG_DIAG_SQLSTATE), "42P01") == 0 &&
              strcmp(field(res, PG_DIAG_STATEMENT_POSITION), "15") == 0 &&
              strcmp(field(res, PG_DIAG_MESSAGE_PRIMARY),
                     "relation \"nosuch\" does not exist") == 0 &&
              strcmp(field(res, PG_DIAG_SEVERITY), "ERROR") == 0,
          "unknown table: 42P01 at position 15", "%s %s \"%s\"",
          field(res, PG_DIAG_SQLSTATE), field(res, PG_DIAG_STATEMENT_POSITION),
          field(res, PG_DIAG_MESSAGE_PRIMARY));
    PQclear(res);

    res = PQexec(conn, "SELECT 1 FROM lt WHERE WHERE");
    check(strcmp(field(res, PG_DIAG_SQLSTATE), "42601") == 0 &&
              strcmp(field(res, PG_DIAG_STATEMENT_POSITION), "24") == 0 &&
              strcmp(field(res, PG_DIAG_MESSAGE_PRIMARY),
                     "syntax error at or near \"WHERE\"") == 0,
          "syntax error: 42601 at position 24", "%s %s \"%s\"",
          field(res, PG_DIAG_SQLSTATE), field(res, PG_DIAG_STATEMENT_POSITION),
          field(res, PG_DIAG_MESSAGE_PRIMARY));
    PQclear(res);

    res = PQexecParams(conn, "SELECT 'x' || $1 FROM lt WHERE nocol = 1", 1,
                       NULL, (const char *const[]){"a"}, NULL, NULL, 0);
    check(strcmp(field(res, PG_DIAG_SQLSTATE), "42703") == 0 &&
              strcmp(field(res, PG_DIAG_STATEMENT_POSITION), "32") == 0,
          "extended protocol: unknown column, 42703 at position 32", "%s %s",
          field(res, PG_DIAG_SQLSTATE), field(res, PG_DIAG_STATEMENT_POSITION));
    PQclear(res);

    res = PQexecParams(conn, "SELECT 10 / $1::int4", 1, NULL,
                       (const char *const[]){"0"}, NULL, NULL, 0);
    expect_error(res, "extended protocol: division by zero at run time",
                 "22012", "division by zero");

    res = PQexec(conn, "SELECT 'abc'::int4");
    check(strcmp(field(res, PG_DIAG_SQLSTATE), "22P02") == 0 &&
              strcmp(field(res, PG_DIAG_STATEMENT_POSITION), "8") == 0,
          "bad literal: 22P02 at position 8", "%s %s",
          field(res, PG_DIAG_SQLSTATE), field(res, PG_DIAG_STATEMENT_POSITION));
    PQclear(res);

    check(PQtransactionStatus(conn) == PQTRANS_IDLE,
          "idle after errors outside a block", "%d",
          (int)PQtransactionStatus(conn));
}

static void
step_transaction(void)
{
    PGresult *res;
    char buf[128];

    run_ok("CREATE TABLE ltx (i int4)");
    run_ok("BEGIN");
    check(PQtransactionStatus(conn) == PQTRANS_INTRANS,
          "in a block after BEGIN", "%d", (int)PQtransactionStatus(conn));
    res = PQexecParams(conn, "INSERT INTO ltx VALUES ($1)", 1, NULL,
                       (const char *const[]){"1"}, NULL, NULL, 0);
    expect_command(res, "INSERT in a block", PGRES_COMMAND_OK, "INSERT 0 1");
    res = PQexec(conn, "SELECT 1/0");
    PQclear(res);
    check(PQtransactionStatus(conn) == PQTRANS_INERROR,
          "failed block after an error", "%d", (int)PQtransactionStatus(conn));
    res = PQexecParams(conn, "INSERT INTO ltx VALUES ($1)", 1, NULL,
                       (const char *const[]){"2"}, NULL, NULL, 0);
    expect_error(res, "a statement in a failed block: 25P02", "25P02",
                 "current transaction is aborted, commands ignored until end "
                 "of transaction block");
    res = PQexec(conn, "COMMIT");
    expect_command(res, "COMMIT of a failed block reports ROLLBACK",
                   PGRES_COMMAND_OK, "ROLLBACK");
    check(strcmp(query_value("SELECT count(*) FROM ltx", buf, sizeof(buf)),
                 "0") == 0,
          "the failed block left nothing", "%s", buf);

    run_ok("BEGIN");
    for (int i = 1; i <= 3; i++) {
        char v[8];
        const char *vals[1] = {v};

        snprintf(v, sizeof(v), "%d", i);
        res = PQexecParams(conn, "INSERT INTO ltx VALUES ($1)", 1, NULL, vals,
                           NULL, NULL, 0);
        PQclear(res);
    }
    res = PQexec(conn, "COMMIT");
    expect_command(res, "COMMIT", PGRES_COMMAND_OK, "COMMIT");
    check(strcmp(query_value("SELECT sum(i) FROM ltx", buf, sizeof(buf)),
                 "6") == 0,
          "the committed block's rows", "%s", buf);
}

/* Send data in pieces of 1..7 bytes, so lines and escapes are cut. */
static bool
put_in_pieces(const char *data)
{
    size_t len = strlen(data);
    size_t off = 0;
    int piece = 1;

    while (off < len) {
        size_t n = (size_t)piece;

        if (n > len - off)
            n = len - off;
        if (PQputCopyData(conn, data + off, (int)n) != 1)
            return false;
        off += n;
        piece = piece % 7 + 1;
    }
    return true;
}

static void
step_copy_in(void)
{
    static const char data[] = "1\tone\n"
                               "2\ttab\\there\n"
                               "3\t\\N\n"
                               "4\tback\\\\slash\n"
                               "5\tnew\\nline\n";
    PGresult *res;
    char buf[128];
    char *big;
    size_t len = 0;

    run_ok("CREATE TABLE lc (i int4, t text)");
    res = PQexec(conn, "COPY lc FROM STDIN");
    check(PQresultStatus(res) == PGRES_COPY_IN && PQnfields(res) == 2 &&
              PQbinaryTuples(res) == 0,
          "COPY FROM STDIN: PGRES_COPY_IN, two text columns", "%s %s",
          PQresStatus(PQresultStatus(res)), PQresultErrorMessage(res));
    PQclear(res);
    check(put_in_pieces(data), "PQputCopyData in pieces of 1-7 bytes", "%s",
          PQerrorMessage(conn));
    check(PQputCopyEnd(conn, NULL) == 1, "PQputCopyEnd", "%s",
          PQerrorMessage(conn));
    res = PQgetResult(conn);
    expect_command(res, "COPY FROM STDIN: tag", PGRES_COMMAND_OK, "COPY 5");
    PQclear(PQgetResult(conn));

    /* 10000 rows in one CopyData each of about 64 kB */
    big = malloc(10000 * 32);
    if (big == NULL)
        abort();
    for (int i = 0; i < 10000; i++)
        len += (size_t)sprintf(big + len, "%d\trow %d\n", 100 + i, i);
    res = PQexec(conn, "COPY lc (i, t) FROM STDIN");
    PQclear(res);
    for (size_t off = 0; off < len; off += 65536) {
        size_t n = len - off < 65536 ? len - off : 65536;

        if (PQputCopyData(conn, big + off, (int)n) != 1)
            break;
    }
    free(big);
    PQputCopyEnd(conn, NULL);
    res = PQgetResult(conn);
    expect_command(res, "COPY FROM STDIN: 10000 rows in 64 kB pieces",
                   PGRES_COMMAND_OK, "COPY 10000");
    PQclear(PQgetResult(conn));
    check(strcmp(query_value("SELECT count(*) || ' ' || sum(i) FROM lc", buf,
                             sizeof(buf)),
                 "10005 50995015") == 0,
          "the copied rows are there", "%s", buf);

    /* bad data: the error names the line */
    res = PQexec(conn, "COPY lc FROM STDIN");
    PQclear(res);
    put_in_pieces("7\tok\nx\tbad\n");
    PQputCopyEnd(conn, NULL);
    res = PQgetResult(conn);
    check(strcmp(field(res, PG_DIAG_SQLSTATE), "22P02") == 0 &&
              strcmp(field(res, PG_DIAG_CONTEXT), "COPY lc, line 2, column i: \"x\"") == 0,
          "COPY FROM STDIN of bad data: 22P02 with its line", "%s \"%s\"",
          field(res, PG_DIAG_SQLSTATE), field(res, PG_DIAG_CONTEXT));
    PQclear(res);
    PQclear(PQgetResult(conn));
}

static void
step_copy_fail(void)
{
    PGresult *res;
    char buf[128];

    res = PQexec(conn, "COPY lc FROM STDIN");
    PQclear(res);
    put_in_pieces("-900\tnever\n-901\tnever\n");
    check(PQputCopyEnd(conn, "client gave up") == 1,
          "PQputCopyEnd with an error message", "%s", PQerrorMessage(conn));
    res = PQgetResult(conn);
    expect_error(res, "CopyFail: 57014", "57014",
                 "COPY from stdin failed: client gave up");
    PQclear(PQgetResult(conn));
    check(strcmp(query_value("SELECT count(*) FROM lc WHERE i < 0",
                             buf, sizeof(buf)),
                 "0") == 0,
          "CopyFail: nothing loaded", "%s", buf);
    check(PQtransactionStatus(conn) == PQTRANS_IDLE,
          "CopyFail: the connection is idle again", "%d",
          (int)PQtransactionStatus(conn));
}

static void
step_copy_out(void)
{
    static const char want[] = "1\tone\n"
                               "2\ttab\\there\n"
                               "3\t\\N\n"
                               "4\tback\\\\slash\n"
                               "5\tnew\\nline\n";
    PGresult *res;
    char got[512];
    size_t len = 0;
    int nrows = 0;
    int rc;
    char *row;

    res = PQexec(conn, "COPY (SELECT i, t FROM lc WHERE i < 100 ORDER BY i) "
                       "TO STDOUT");
    check(PQresultStatus(res) == PGRES_COPY_OUT && PQnfields(res) == 2,
          "COPY TO STDOUT: PGRES_COPY_OUT", "%s %s",
          PQresStatus(PQresultStatus(res)), PQresultErrorMessage(res));
    PQclear(res);
    while ((rc = PQgetCopyData(conn, &row, 0)) > 0) {
        if (len + (size_t)rc < sizeof(got)) {
            memcpy(got + len, row, (size_t)rc);
            len += (size_t)rc;
        }
        nrows++;
        PQfreemem(row);
    }
    got[len] = '\0';
    check(rc == -1 && nrows == 5 && strcmp(got, want) == 0,
          "PQgetCopyData: one row per call, PostgreSQL's escapes",
          "rc %d rows %d \"%s\"", rc, nrows, got);
    res = PQgetResult(conn);
    expect_command(res, "COPY TO STDOUT: tag", PGRES_COMMAND_OK, "COPY 5");
    PQclear(PQgetResult(conn));

    res = PQexec(conn, "COPY lc TO STDOUT (FORMAT csv)");
    PQclear(res);
    nrows = 0;
    while ((rc = PQgetCopyData(conn, &row, 0)) > 0) {
        nrows++;
        PQfreemem(row);
    }
    res = PQgetResult(conn);
    check(rc == -1 && nrows == 10005 &&
              PQresultStatus(res) == PGRES_COMMAND_OK &&
              strcmp(PQcmdStatus(res), "COPY 10005") == 0,
          "COPY TO STDOUT in CSV: 10005 rows", "rows %d tag %s", nrows,
          PQcmdStatus(res));
    PQclear(res);
    PQclear(PQgetResult(conn));
}

/* Send a long query, cancel it after a moment, expect 57014. */
static void
cancel_one(const char *name, bool extended)
{
    static const char sql[] =
        "SELECT count(*) FROM generate_series(1, 2000000000)";
    PGcancel *cancel;
    PGresult *res;
    char errbuf[256];
    char buf[64];
    struct timespec pause = {0, 300 * 1000 * 1000};
    int sent;

    if (extended)
        sent = PQsendQueryParams(conn, sql, 0, NULL, NULL, NULL, NULL, 0);
    else
        sent = PQsendQuery(conn, sql);
    if (!check(sent == 1, name, "send: %s", PQerrorMessage(conn)))
        return;
    nanosleep(&pause, NULL);
    cancel = PQgetCancel(conn);
    check(cancel != NULL && PQcancel(cancel, errbuf, sizeof(errbuf)) == 1,
          "PQcancel sends the CancelRequest", "%s", errbuf);
    PQfreeCancel(cancel);
    res = PQgetResult(conn);
    expect_error(res, name, "57014", "canceling statement due to user request");
    while ((res = PQgetResult(conn)) != NULL)
        PQclear(res);
    check(strcmp(query_value("SELECT 42", buf, sizeof(buf)), "42") == 0,
          "the connection works after the cancel", "%s", buf);
}

static void
step_cancel(void)
{
    cancel_one("PQcancel of a running query: 57014", false);
    cancel_one("PQcancel of a running extended-protocol query: 57014", true);
}

static void
step_singlerow(void)
{
    PGresult *res;
    int nsingle = 0;
    bool in_order = true;
    bool ended = false;

    check(PQsendQueryParams(conn,
                            "SELECT g, 'r' || g AS r FROM generate_series(1, "
                            "$1::int4) g",
                            1, NULL, (const char *const[]){"5"}, NULL, NULL,
                            0) == 1 &&
              PQsetSingleRowMode(conn) == 1,
          "PQsetSingleRowMode after PQsendQueryParams", "%s",
          PQerrorMessage(conn));
    while ((res = PQgetResult(conn)) != NULL) {
        if (PQresultStatus(res) == PGRES_SINGLE_TUPLE && PQntuples(res) == 1) {
            nsingle++;
            in_order = in_order && atoi(PQgetvalue(res, 0, 0)) == nsingle &&
                       PQnfields(res) == 2;
        } else if (PQresultStatus(res) == PGRES_TUPLES_OK &&
                   PQntuples(res) == 0 && PQnfields(res) == 2) {
            ended = true;
        } else {
            in_order = false;
        }
        PQclear(res);
    }
    check(nsingle == 5 && in_order && ended,
          "single-row mode: 5 PGRES_SINGLE_TUPLE, then PGRES_TUPLES_OK",
          "%d rows, in order %d, end %d", nsingle, in_order, ended);

    /* an error after some rows: the rows so far, then the error */
    nsingle = 0;
    ended = false;
    PQsendQuery(conn, "SELECT 10 / (3 - g) FROM generate_series(1, 5) g");
    PQsetSingleRowMode(conn);
    while ((res = PQgetResult(conn)) != NULL) {
        if (PQresultStatus(res) == PGRES_SINGLE_TUPLE)
            nsingle++;
        else if (PQresultStatus(res) == PGRES_FATAL_ERROR &&
                 strcmp(field(res, PG_DIAG_SQLSTATE), "22012") == 0)
            ended = true;
        PQclear(res);
    }
    check(nsingle == 2 && ended,
          "single-row mode: two rows, then the error at the third", "%d %d",
          nsingle, ended);
}

/* The next result of a pipeline: its status, or -1 for NULL. */
static int
next_status(PGresult **out)
{
    PGresult *res = PQgetResult(conn);

    *out = res;
    return res != NULL ? (int)PQresultStatus(res) : -1;
}

static void
step_pipeline(void)
{
    PGresult *res;
    int st;
    char seen[512] = "";
    size_t len = 0;
    bool ok = true;

    if (!check(PQenterPipelineMode(conn) == 1, "PQenterPipelineMode", "%s",
               PQerrorMessage(conn)))
        return;
    check(PQpipelineStatus(conn) == PQ_PIPELINE_ON, "pipeline status on",
          NULL);

    /* batch 1: insert, select, an error, a statement after it */
    PQsendQueryParams(conn, "INSERT INTO ltx VALUES ($1)", 1, NULL,
                      (const char *const[]){"100"}, NULL, NULL, 0);
    PQsendQueryParams(conn, "SELECT sum(i) FROM ltx", 0, NULL, NULL, NULL, NULL,
                      0);
    PQsendQueryParams(conn, "SELECT 1/0", 0, NULL, NULL, NULL, NULL, 0);
    PQsendQueryParams(conn, "INSERT INTO ltx VALUES ($1)", 1, NULL,
                      (const char *const[]){"1000"}, NULL, NULL, 0);
    PQpipelineSync(conn);
    /* batch 2, queued before batch 1's results are read */
    PQsendPrepare(conn, "pipe_sel", "SELECT count(*) FROM ltx WHERE i >= $1",
                  1, NULL);
    PQsendQueryPrepared(conn, "pipe_sel", 1, (const char *const[]){"100"},
                        NULL, NULL, 0);
    PQpipelineSync(conn);

    /* batch 1 */
    st = next_status(&res);
    ok = ok && st == PGRES_COMMAND_OK && strcmp(PQcmdStatus(res), "INSERT 0 1") == 0;
    len += (size_t)snprintf(seen + len, sizeof(seen) - len, "%s ",
                            st >= 0 ? PQresStatus((ExecStatusType)st) : "NULL");
    PQclear(res);
    ok = ok && next_status(&res) == -1;
    st = next_status(&res);
    ok = ok && st == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
         strcmp(PQgetvalue(res, 0, 0), "106") == 0;
    len += (size_t)snprintf(seen + len, sizeof(seen) - len, "%s ",
                            st >= 0 ? PQresStatus((ExecStatusType)st) : "NULL");
    PQclear(res);
    ok = ok && next_status(&res) == -1;
    st = next_status(&res);
    ok = ok && st == PGRES_FATAL_ERROR &&
         strcmp(field(res, PG_DIAG_SQLSTATE), "22012") == 0;
    len += (size_t)snprintf(seen + len, sizeof(seen) - len, "%s ",
                            st >= 0 ? PQresStatus((ExecStatusType)st) : "NULL");
    PQclear(res);
    ok = ok && next_status(&res) == -1;
    st = next_status(&res);
    ok = ok && st == PGRES_PIPELINE_ABORTED;
    len += (size_t)snprintf(seen + len, sizeof(seen) - len, "%s ",
                            st >= 0 ? PQresStatus((ExecStatusType)st) : "NULL");
    PQclear(res);
    ok = ok && next_status(&res) == -1;
    st = next_status(&res);
    ok = ok && st == PGRES_PIPELINE_SYNC;
    len += (size_t)snprintf(seen + len, sizeof(seen) - len, "%s ",
                            st >= 0 ? PQresStatus((ExecStatusType)st) : "NULL");
    PQclear(res);
    check(ok,
          "pipeline: INSERT, SELECT, an error, an aborted statement, Sync",
          "%s", seen);

    /* batch 2: the error rolled batch 1 back (one implicit transaction) */
    ok = true;
    len = 0;
    seen[0] = '\0';
    st = next_status(&res);
    ok = ok && st == PGRES_COMMAND_OK;
    len += (size_t)snprintf(seen + len, sizeof(seen) - len, "%s ",
                            st >= 0 ? PQresStatus((ExecStatusType)st) : "NULL");
    PQclear(res);
    ok = ok && next_status(&res) == -1;
    st = next_status(&res);
    ok = ok && st == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
         strcmp(PQgetvalue(res, 0, 0), "0") == 0;
    len += (size_t)snprintf(seen + len, sizeof(seen) - len, "%s %s ",
                            st >= 0 ? PQresStatus((ExecStatusType)st) : "NULL",
                            st == PGRES_TUPLES_OK ? PQgetvalue(res, 0, 0) : "");
    PQclear(res);
    ok = ok && next_status(&res) == -1;
    st = next_status(&res);
    ok = ok && st == PGRES_PIPELINE_SYNC;
    len += (size_t)snprintf(seen + len, sizeof(seen) - len, "%s",
                            st >= 0 ? PQresStatus((ExecStatusType)st) : "NULL");
    PQclear(res);
    check(ok,
          "pipeline: the next Sync recovers; the failed batch was rolled back",
          "%s", seen);

    check(PQexitPipelineMode(conn) == 1, "PQexitPipelineMode", "%s",
          PQerrorMessage(conn));
    check(PQtransactionStatus(conn) == PQTRANS_IDLE, "idle after the pipeline",
          "%d", (int)PQtransactionStatus(conn));
}

/* Notices (DROP ... IF EXISTS) are not checked here. */
static void
ignore_notice(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

int
main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: libpq_test CONNINFO LABEL\n");
        return 2;
    }
    label = argv[2];
    conn = PQconnectdb(argv[1]);
    if (PQstatus(conn) != CONNECTION_OK) {
        check(false, "connect", "%s", PQerrorMessage(conn));
        printf("RESULT libpq: %d passed, %d failed\n", npassed, nfailed);
        PQfinish(conn);
        return 2;
    }
    check(true, "connect", NULL);
    PQsetNoticeProcessor(conn, ignore_notice, NULL);

    step_connect();
    step_prepare();
    step_upsert();
    step_params();
    step_results();
    step_errors();
    step_transaction();
    step_copy_in();
    step_copy_fail();
    step_copy_out();
    step_cancel();
    step_singlerow();
    step_pipeline();

    PQfinish(conn);
    printf("RESULT libpq: %d passed, %d failed\n", npassed, nfailed);
    return nfailed > 0 ? 1 : 0;
}
