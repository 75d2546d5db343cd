#!/usr/bin/env bash
# run.sh -- end-to-end tests of `tupledb serve` with real clients.
#
#   tests/server/run.sh [PATH/TO/tupledb] [GROUP...]
#
# Starts `tupledb serve` on fresh data directories, on a free TCP port
# (127.0.0.1) and a Unix socket in a private directory, and talks to it
# with real psql 15 ($PGBIN/psql) and with pgwire.py, a raw-protocol
# client for what psql cannot show.  Groups (default: all, in this order):
#
#   protocol   pgwire.py: startup, simple query, errors, malformed
#              packets, CancelRequest, concurrent sessions, settings, the extended
#              protocol, the COPY sub-protocol, statement_timeout and
#              lock_timeout (simple and extended protocol, lock waits),
#              22021 for bytes that are not UTF-8 (query text, names, Bind
#              parameters, COPY data; the
#              group passes against PostgreSQL 15 too), index scans with
#              Bind parameters (Unix socket; startup and query again over
#              TCP)
#   deep       pgwire.py: statements nested past max_stack_depth (1+1+...,
#              ||, UNION ALL, INTERSECT, casts; 10k, 100k and 1M terms)
#              get PostgreSQL's 54001 and past the grammar's stack its
#              "memory exhausted"; the session, another session (also
#              while a 1M-term statement is parsed) and the server go on
#              (the group passes against PostgreSQL 15 too)
#   limit      --max-connections 3: the 4th client gets 53300
#   shutdown   SIGTERM with an open transaction and a running query:
#              both get FATAL 57P01, the server exits 0 and removes its
#              socket; after a restart committed rows are there and the
#              open transaction's are not
#   auth       roles and passwords: SCRAM-SHA-256 through pgwire.py
#              (the exchange, wrong passwords, missing roles, NOLOGIN,
#              malformed and truncated SASL messages, clients leaving
#              mid-exchange), real psql with PGPASSWORD right and wrong,
#              libpq's password= with sslmode disable/prefer, a verifier
#              made by PostgreSQL 15, the password method, pg_hba.conf
#              reject / no entry / scram-only for host lines, pg_authid
#              through the extended protocol (pgwire.py authid), database
#              names (the data directory "tdb", postgres, FATAL 3D000
#              for the rest, after the password), pgbench and
#              node-postgres with a password, SIGHUP reloading the
#              file (a bad one keeps the old rules), an hba syntax error
#              refusing the start
#   psql       tests/server/cases/*.sh run twice -- psql (under the name
#              tupledb) against the server, and the tupledb shell on a
#              data directory -- and the outputs compared byte for byte;
#              psql over TCP; psql's Ctrl-C cancel; pgbench in its three
#              query modes (a script without variables, and one with
#              \set random() variables, which become Bind parameters);
#              pgbench -i -s 1 and -S (its query an Index Scan using
#              pgbench_accounts_pkey); \gdesc; two psql at once; sql/*.sql through psql
#              against PostgreSQL 15's expected/*.out (made by
#              regen_expected.sh), with the client environment of
#              sql/NAME.env
#   libpq      tests/server/libpq/libpq_test.c, compiled here against
#              Debian's libpq (libpq-dev): prepared statements with text,
#              binary and NULL parameters, binary results, COPY in and
#              out, CopyFail, PQcancel, errors, a transaction, single-row
#              and pipeline mode -- against the server, then unchanged
#              against a throwaway PostgreSQL 15 so its expectations are
#              PostgreSQL's (skipped without libpq-fe.h; the PostgreSQL
#              run is skipped without $PGBIN/initdb)
#   node       node-postgres (npm `pg`, installed into tests/server/node
#              on first use): parameterized and named prepared statements,
#              transactions, err.code (skipped without node/npm)
#   cli        the shell's own cases (tests/cli/cases) through psql and
#              the server, against their expected files (psql 15 output
#              on PostgreSQL 15)
#   regress    the SQL regression suite (tests/regress/sql) through psql
#              -X -a -q against the server, diffed against
#              tests/regress/expected -- the issue's acceptance test;
#              files in tests/regress/known_failures.txt count as skipped
#              (compared as tests/regress/compare.sh says)
#   damage     files damaged while the server was down: a table file cut
#              short fails every statement that reaches the table with
#              XX001 (restart included) and is never written over; DROP
#              works; a deleted pg_xact segment makes the server and the
#              shell refuse the database with PostgreSQL's "could not
#              access status of transaction" and its DETAIL; an index
#              page failing its checksum, pages of impossible B-tree
#              structure with right checksums, a bad metapage and a file
#              of garbage fail INSERT and VACUUM with XX001 / XX002
#              naming the index while other tables work, and REINDEX
#              INDEX / TABLE repairs each (tests/server/btpage.py damages
#              the file)
#
# Prints one line per check and ends with
#   RESULT server: N passed, N failed, N skipped
# which tests/run_unit.sh totals (make check runs this script through
# build/<flavour>/tests/server_e2e).  Without psql 15 or python3 the
# checks that need them are skipped.  Exits 0 unless a check failed.
#
# Environment: PGBIN (default /usr/lib/postgresql/15/bin),
# TDB_SERVER_KEEP=1 keeps the work directory (logs, outputs).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# shellcheck source=tests/server/lib.sh
source "$HERE/lib.sh"
# shellcheck source=tests/cli/lib.sh
source "$ROOT/tests/cli/lib.sh"
# shellcheck source=tests/regress/compare.sh
source "$ROOT/tests/regress/compare.sh"

TDB=${1:-$ROOT/build/release/tupledb}
shift || true
if [ ! -x "$TDB" ]; then
  echo "run.sh: $TDB is not an executable" >&2
  echo "RESULT server: 0 passed, 1 failed, 0 skipped"
  exit 1
fi
TDB=$(cd "$(dirname "$TDB")" && pwd)/$(basename "$TDB")
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PSQL=$PGBIN/psql

if [ $# -gt 0 ]; then groups=("$@")
else groups=(protocol deep limit shutdown auth psql libpq node cli regress damage)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tdb-srv.XXXXXX")
cleanup() {
  [ -n "${SRV_PID:-}" ] && kill -TERM "$SRV_PID" 2>/dev/null && wait "$SRV_PID"
  if [ "${TDB_SERVER_KEEP:-0}" = 1 ]; then echo "kept $work"
  else rm -rf "$work"; fi
}
trap cleanup EXIT
SRV_SOCKDIR=$work/sock
SRV_LOG=$work/server.log
mkdir "$SRV_SOCKDIR" "$work/bin-psql" "$work/bin-shell"
ln -s "$PSQL" "$work/bin-psql/tupledb"
ln -s "$TDB" "$work/bin-shell/tupledb"

have_python=true; command -v python3 >/dev/null || have_python=false
have_psql=true; [ -x "$PSQL" ] || have_psql=false

# psql's connection settings for the server under test: the database
# "postgres", which a tupledb server accepts for its one database
# whatever the data directory is called (src/server/README.md).
psql_env() {
  export PGHOST=$SRV_SOCKDIR PGPORT=$SRV_PORT PGUSER=tester PGDATABASE=postgres \
         PSQLRC=/dev/null PGCONNECT_TIMEOUT=20
}

pgwire() {
  python3 "$HERE/pgwire.py" "$@" 2>&1
}

# ----------------------------------------------------------------------

group_protocol() {
  $have_python || { skip "protocol" "no python3"; return; }
  SRV_PORT=$(free_port)
  server_start "$work/proto" || { fail "protocol: server start"; return; }
  count_from "$(pgwire "$SRV_SOCKDIR" "$SRV_PORT" startup query errors \
                 malformed cancel concurrent extended params settings copy timeout \
                 utf8 indexscan)"
  count_from "$(pgwire 127.0.0.1 "$SRV_PORT" startup query \
                 | sed 's/^  \(ok\|FAIL\|skip\)  */&tcp: /')"
  server_stop protocol
}

group_deep() {
  $have_python || { skip "deep" "no python3"; return; }
  SRV_PORT=$(free_port)
  server_start "$work/deep" || { fail "deep: server start"; return; }
  count_from "$(pgwire "$SRV_SOCKDIR" "$SRV_PORT" deep)"
  if kill -0 "$SRV_PID" 2>/dev/null; then ok "deep: the server is up"
  else fail "deep: the server is up" "$(tail -n 5 "$SRV_LOG")"; fi
  server_stop deep
}

group_limit() {
  $have_python || { skip "limit" "no python3"; return; }
  SRV_PORT=$(free_port)
  server_start "$work/limit" --max-connections 3 \
    || { fail "limit: server start"; return; }
  count_from "$(pgwire "$SRV_SOCKDIR" "$SRV_PORT" limit)"
  if grep -q 'FATAL:  sorry, too many clients already' "$SRV_LOG"; then
    ok "limit: refusal logged"
  else
    fail "limit: refusal logged"
  fi
  server_stop limit
}

group_shutdown() {
  local busy
  $have_python || { skip "shutdown" "no python3"; return; }
  SRV_PORT=$(free_port)
  server_start "$work/shut" || { fail "shutdown: server start"; return; }
  count_from "$(pgwire "$SRV_SOCKDIR" "$SRV_PORT" shutdown_setup)"
  # a client holding an open transaction and one running a long query
  pgwire "$SRV_SOCKDIR" "$SRV_PORT" shutdown_busy > "$work/busy.out" &
  busy=$!
  for _ in $(seq 1 200); do
    grep -q READY "$work/busy.out" && break
    sleep 0.05
  done
  sleep 0.3
  server_stop shutdown
  wait "$busy"
  count_from "$(grep -v READY "$work/busy.out")"
  server_start "$work/shut" || { fail "shutdown: restart"; return; }
  count_from "$(pgwire "$SRV_SOCKDIR" "$SRV_PORT" shutdown_check)"
  server_stop "shutdown (after restart)"
}

# The roles the auth group uses; PostgreSQL 15 made kat's verifier (for
# the password 'pencil', see tests/unit/common/test_scram.c).
AUTH_SETUP="CREATE ROLE alice LOGIN PASSWORD 'secret';
CREATE ROLE bob LOGIN;
CREATE ROLE nol NOLOGIN PASSWORD 'secret';
CREATE ROLE carol LOGIN PASSWORD 'clear';
CREATE ROLE rej LOGIN PASSWORD 'secret';
CREATE ROLE tdb LOGIN;
CREATE ROLE sue SUPERUSER LOGIN;
CREATE ROLE kat LOGIN PASSWORD 'SCRAM-SHA-256\$4096:33/7peTZnzNTxKRi3siOPQ==\$6pPJ30UGLDkxLXqcwKO4Pp3JrU0LGJzg5vBQlhvBHRg=:/7Cr3OghXtJRjQF3Mt+J9/mD3abRLo4kp/IOumGxL8M=';"

# auth_psql NAME EXPECTED USER PASSWORD [DATABASE]: psql over TCP prints
# EXPECTED (its output or its error line).
auth_psql() {
  local name=$1 expected=$2 user=$3 pw=$4 db=${5:-tdb} out
  out=$(env PGPASSWORD="$pw" PSQLRC=/dev/null PGCONNECT_TIMEOUT=20 \
        "$PSQL" -X -w -A -t -h 127.0.0.1 -p "$SRV_PORT" -U "$user" -d "$db" \
        -c "SELECT current_user" 2>&1)
  if [ "$out" = "$expected" ]; then ok "auth: $name"
  else fail "auth: $name" "$out"; fi
}

group_auth() {
  local hba=$work/auth-hba.conf out fatal
  $have_psql || { skip "auth" "no $PSQL"; return; }
  SRV_PORT=$(free_port)
  # the data directory "tdb" is the database tdb the clients ask for
  server_start "$work/tdb" || { fail "auth: server start"; return; }
  if grep -q '^host    all       all   127.0.0.1/32   trust$' "$work/tdb/pg_hba.conf"
  then ok "auth: a new data directory gets pg_hba.conf with trust defaults"
  else fail "auth: a new data directory gets pg_hba.conf with trust defaults"
  fi
  out=$(psql_env; "$PSQL" -X -q -v ON_ERROR_STOP=1 -c "$AUTH_SETUP" 2>&1)
  [ -z "$out" ] || fail "auth: creating the roles" "$out"
  server_stop
  {
    echo "# tests/server/run.sh's auth group"
    echo "local   all       all                     trust"
    echo "host    all       rej     127.0.0.1/32    reject"
    echo "host    all       carol   127.0.0.1/32    password"
    echo "host    tdb,postgres  all  127.0.0.1 255.255.255.255  scram-sha-256"
    echo "host    nosuch    alice   127.0.0.1/32    scram-sha-256"
  } > "$hba"
  server_start "$work/tdb" --hba "$hba" || { fail "auth: restart with --hba"; return; }

  fatal='psql: error: connection to server at "127.0.0.1", port '$SRV_PORT' failed: FATAL: '
  auth_psql "psql with the right PGPASSWORD" alice alice secret
  auth_psql "psql with a wrong PGPASSWORD" "$fatal"' password authentication failed for user "alice"' alice nope
  auth_psql "psql without a password (-w)" 'psql: error: connection to server at "127.0.0.1", port '$SRV_PORT' failed: fe_sendauth: no password supplied' alice ""
  auth_psql "a role without a password" "$fatal"' password authentication failed for user "bob"' bob secret
  auth_psql "a role that does not exist" "$fatal"' password authentication failed for user "nosuch"' nosuch secret
  auth_psql "a NOLOGIN role" "$fatal"' role "nol" is not permitted to log in' nol secret
  auth_psql "a verifier made by PostgreSQL 15" kat kat pencil
  auth_psql "the password method" carol carol clear
  auth_psql "the password method, wrong" "$fatal"' password authentication failed for user "carol"' carol wrong
  auth_psql "hba reject" "$fatal"' pg_hba.conf rejects connection for host "127.0.0.1", user "rej", database "tdb", no encryption' rej secret
  auth_psql "no hba entry" "$fatal"' no pg_hba.conf entry for host "127.0.0.1", user "alice", database "other", no encryption' alice secret other
  # a database that does not exist: the password first, as in PostgreSQL
  auth_psql "a database that does not exist" "$fatal"' database "nosuch" does not exist' alice secret nosuch
  auth_psql "a database that does not exist, wrong password" "$fatal"' password authentication failed for user "alice"' alice nope nosuch
  auth_psql "the database postgres" alice alice secret postgres
  for mode in disable prefer; do
    out=$(PSQLRC=/dev/null "$PSQL" -X -A -t -c "SELECT current_user" \
      "host=127.0.0.1 port=$SRV_PORT user=alice dbname=tdb password=secret sslmode=$mode" 2>&1)
    if [ "$out" = alice ]; then ok "auth: libpq password= with sslmode=$mode"
    else fail "auth: libpq password= with sslmode=$mode" "$out"; fi
  done
  if grep -q 'DETAIL:  Role "nosuch" does not exist.' "$SRV_LOG"; then
    ok "auth: the log says why (DETAIL), the client is not told"
  else fail "auth: the log says why (DETAIL), the client is not told"; fi

  $have_python && count_from "$(pgwire 127.0.0.1 "$SRV_PORT" auth)"
  $have_python && count_from "$(pgwire "$SRV_SOCKDIR" "$SRV_PORT" auth_trust authid dbname)"
  $have_python && count_from "$(pgwire 127.0.0.1 "$SRV_PORT" dbname_auth)"
  out=$(psql_env; "$PSQL" -X -d nosuch -c "SELECT 1" 2>&1)
  if [ "$out" = "psql: error: connection to server on socket \"$SRV_SOCKDIR/.s.PGSQL.$SRV_PORT\" failed: FATAL:  database \"nosuch\" does not exist" ]; then
    ok "auth: psql -d nosuch: FATAL 3D000"
  else fail "auth: psql -d nosuch: FATAL 3D000" "$out"; fi
  if grep -q 'FATAL:  database "nosuch" does not exist' "$SRV_LOG"; then
    ok "auth: a database that does not exist is logged"
  else fail "auth: a database that does not exist is logged"; fi

  if [ -x "$PGBIN/pgbench" ]; then
    printf 'SELECT 1;\n' > "$work/auth-bench.sql"
    if out=$(PGPASSWORD=secret timeout 60 "$PGBIN/pgbench" -n -h 127.0.0.1 \
             -p "$SRV_PORT" -U alice -c 2 -j 2 -t 20 -f "$work/auth-bench.sql" tdb 2>&1) &&
       [[ $out == *'number of transactions actually processed: 40/40'* ]]
    then ok "auth: pgbench -c 2 with a password"
    else fail "auth: pgbench -c 2 with a password" "$(echo "$out" | tail -n 3)"; fi
  fi
  if command -v node >/dev/null && [ -d "$HERE/node/node_modules/pg" ]; then
    count_from "$(timeout 60 node "$HERE/node/auth_test.js" 127.0.0.1 "$SRV_PORT" 2>&1)"
  else
    skip "auth: node-postgres" "node or the pg module is missing"
  fi
  # SIGHUP: a new file takes effect; a bad one is logged, the old rules stay
  printf 'local all all trust\nhost all all 127.0.0.1/32 reject\n' > "$hba"
  kill -HUP "$SRV_PID"
  for _ in $(seq 1 100); do
    grep -q 'received SIGHUP, reloading configuration files' "$SRV_LOG" && break
    sleep 0.05
  done
  auth_psql "SIGHUP reloads pg_hba.conf" "$fatal"' pg_hba.conf rejects connection for host "127.0.0.1", user "alice", database "tdb", no encryption' alice secret
  printf 'host all all 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 bogus\n' > "$hba"
  kill -HUP "$SRV_PID"
  for _ in $(seq 1 100); do
    grep -q 'LOG:  pg_hba.conf was not reloaded' "$SRV_LOG" && break
    sleep 0.05
  done
  if grep -q "CONTEXT:  line 2 of configuration file \"$hba\"" "$SRV_LOG"; then
    ok "auth: a bad file on SIGHUP is logged with its line"
  else fail "auth: a bad file on SIGHUP is logged with its line"; fi
  auth_psql "a bad file on SIGHUP keeps the old rules" "$fatal"' pg_hba.conf rejects connection for host "127.0.0.1", user "alice", database "tdb", no encryption' alice secret
  server_stop auth

  # a syntax error in the file: the server refuses to start, with the line
  printf 'local all all trust\nhost all all 127.0.0.1/32 magic\n' > "$hba"
  if "$TDB" serve "$work/tdb" --port "$SRV_PORT" --socket-dir "$SRV_SOCKDIR" \
       --listen 127.0.0.1 --hba "$hba" > "$work/auth-bad.log" 2>&1; then
    fail "auth: an hba syntax error stops the start" "exit 0"
  elif grep -q 'LOG:  invalid authentication method "magic"' "$work/auth-bad.log" &&
       grep -q "CONTEXT:  line 2 of configuration file \"$hba\"" "$work/auth-bad.log" &&
       grep -q "FATAL:  could not load $hba" "$work/auth-bad.log"; then
    ok "auth: an hba syntax error stops the start, with file and line"
  else
    fail "auth: an hba syntax error stops the start, with file and line" \
      "$(cat "$work/auth-bad.log")"
  fi
}

group_libpq() {
  local inc bin=$work/libpq_test
  inc=$(pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)
  if [ ! -f "$inc/libpq-fe.h" ]; then
    skip "libpq" "no libpq-fe.h (tools/deps.sh server-test installs libpq-dev)"
    return
  fi
  if ! ${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow \
       -Wmissing-prototypes -Wstrict-prototypes -Wformat=2 -O1 -g \
       -I"$inc" -o "$bin" "$HERE/libpq/libpq_test.c" -lpq > "$work/libpq-cc.out" 2>&1; then
    fail "libpq: compile libpq_test.c" "$(head -n 5 "$work/libpq-cc.out")"
    return
  fi
  SRV_PORT=$(free_port)
  server_start "$work/libpq" || { fail "libpq: server start"; return; }
  count_from "$(timeout 120 "$bin" \
    "host=$SRV_SOCKDIR port=$SRV_PORT user=tester dbname=postgres connect_timeout=20" \
    tupledb 2>&1)"
  server_stop libpq
  # The same program against PostgreSQL 15: its expectations must be
  # PostgreSQL's.  throwaway_pg.sh sets an EXIT trap, hence the subshell.
  if [ ! -x "$PGBIN/initdb" ]; then
    skip "libpq postgresql" "no $PGBIN/initdb"
    return
  fi
  # (a failed start exits the subshell: no RESULT line, one FAIL)
  count_from "$(
    # shellcheck disable=SC2034 # read by throwaway_pg.sh
    PORT=$(free_port) SCRIPT=run.sh
    # shellcheck source=tests/fixtures/pg/throwaway_pg.sh
    source "$ROOT/tests/fixtures/pg/throwaway_pg.sh"
    pg_throwaway_start tdb-libpq-pg "" "" 2>&1
    timeout 120 "$bin" "host=$TMP/sock port=$PORT user=tdb dbname=postgres" \
      postgresql 2>&1
  )"
}

group_node() {
  local dir=$HERE/node out
  command -v node >/dev/null || { skip "node" "node is not installed"; return; }
  if [ ! -d "$dir/node_modules/pg" ]; then
    command -v npm >/dev/null || { skip "node" "npm is not installed"; return; }
    (cd "$dir" && timeout 300 npm install --no-audit --no-fund --silent) \
      > "$work/npm.out" 2>&1
    [ -d "$dir/node_modules/pg" ] \
      || { skip "node" "npm install pg failed: $(tail -n 1 "$work/npm.out")"; return; }
  fi
  SRV_PORT=$(free_port)
  # the data directory "node" is the database pg_test.js asks for
  server_start "$work/node" || { fail "node: server start"; return; }
  timeout 120 node "$dir/pg_test.js" "$SRV_SOCKDIR" "$SRV_PORT" 2>&1 \
    | grep -v '^RESULT'
  server_stop node
}

group_psql() {
  local name out_psql out_shell pid sql owner client_env
  $have_psql || { skip "psql" "no $PSQL"; return; }
  CLI_CASES=$HERE/cases
  for f in "$HERE"/cases/*.sh; do
    name=$(basename "$f" .sh)
    out_psql=$work/case-$name.psql
    out_shell=$work/case-$name.shell
    SRV_PORT=$(free_port)
    server_start "$work/case-$name" || { fail "psql: $name (server start)"; continue; }
    (psql_env; run_case "$name" "$work/bin-psql" "$out_psql")
    server_stop
    (unset PGHOST PGPORT; run_case "$name" "$work/bin-shell" "$out_shell")
    if cmp -s "$out_shell" "$out_psql"; then
      ok "psql: $name.sh via psql and server = via the shell"
    else
      fail "psql: $name.sh via psql and server = via the shell"
      diff -u "$out_shell" "$out_psql" | sed 's/^/    /' | head -40
    fi
  done

  SRV_PORT=$(free_port)
  server_start "$work/psql" || { fail "psql: server start"; return; }
  (
    psql_env
    # over TCP (psql sends SSLRequest first)
    out=$("$PSQL" -X -h 127.0.0.1 -c "SELECT 'tcp' AS via" 2>&1)
    if [ "$out" = "$(printf ' via \n-----\n tcp\n(1 row)\n')" ]; then
      ok "psql: over TCP"
    else
      fail "psql: over TCP" "$out"
    fi

    # interactive psql on a terminal: prompts, multi-line input,
    # \timing, the transaction state in the prompt, errors
    python3 "$HERE/psql_tty.py" "$PSQL" 2>&1

    # Ctrl-C: psql sends a CancelRequest on a new connection
    "$PSQL" -X -c "SELECT count(*) FROM generate_series(1, 2000000000)" \
      > "$work/cancel.out" 2>&1 &
    pid=$!
    for _ in $(seq 1 100); do
      [ "$(grep -c 'connection authorized' "$SRV_LOG")" -ge 2 ] && break
      sleep 0.05
    done
    sleep 0.5
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    if grep -q '^ERROR:  canceling statement due to user request$' "$work/cancel.out" \
       && [ "$rc" -eq 1 ]; then
      ok "psql: Ctrl-C cancels the running statement (57014)"
    else
      fail "psql: Ctrl-C cancels the running statement" "rc=$rc $(cat "$work/cancel.out")"
    fi

    # pgbench: a custom script without variables, two clients, in each
    # query mode (extended and prepared use Parse/Bind/Describe/Execute)
    printf 'INSERT INTO pgb VALUES (1);\nSELECT count(*) FROM pgb;\n' > "$work/pgb.sql"
    "$PSQL" -X -q -c "CREATE TABLE pgb (i int)"
    for mode in simple extended prepared; do
      out=$("$PGBIN/pgbench" -n -f "$work/pgb.sql" -t 25 -c 2 -j 2 -M "$mode" 2>&1)
      if [[ $out == *'number of transactions actually processed: 50/50'* &&
            $out == *'number of failed transactions: 0 '* ]]; then
        ok "psql: pgbench -M $mode, 2 clients"
      else
        fail "psql: pgbench -M $mode, 2 clients" "$(echo "$out" | tail -n 5)"
      fi
    done
    out=$("$PSQL" -X -A -t -c "SELECT count(*) FROM pgb" 2>&1)
    [ "$out" = 150 ] && ok "psql: pgbench's inserts all there" \
      || fail "psql: pgbench's inserts all there" "$out"

    # pgbench with \set variables: under -M extended / prepared each :var
    # is a Bind parameter ($1, $2) of a statement planned once; every
    # account's balance must equal the sum of its logged deltas
    cat > "$work/pgb-set.sql" <<'PGB'
\set aid random(1, 100000)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgb_acc SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgb_acc WHERE aid = :aid;
INSERT INTO pgb_hist VALUES (:aid, :delta);
END;
PGB
    "$PSQL" -X -q -c "CREATE TABLE pgb_acc (aid int, abalance int)" \
      -c "INSERT INTO pgb_acc SELECT g, 0 FROM generate_series(1, 100000) g" \
      -c "CREATE TABLE pgb_hist (aid int, delta int)"
    for mode in simple extended prepared; do
      out=$("$PGBIN/pgbench" -n -f "$work/pgb-set.sql" -t 15 -c 2 -j 2 -M "$mode" 2>&1)
      if [[ $out == *'number of transactions actually processed: 30/30'* &&
            $out == *'number of failed transactions: 0 '* ]]; then
        ok "psql: pgbench \\set random() -M $mode, 2 clients"
      else
        fail "psql: pgbench \\set random() -M $mode, 2 clients" "$(echo "$out" | tail -n 5)"
      fi
    done
    out=$("$PSQL" -X -A -t -c "SELECT count(*) FROM pgb_hist" \
      -c "SELECT count(*) FROM (SELECT aid, sum(delta) AS s FROM pgb_hist GROUP BY aid) h JOIN pgb_acc a ON a.aid = h.aid WHERE a.abalance <> h.s" \
      -c "SELECT count(*) FROM pgb_acc WHERE abalance <> 0 AND aid NOT IN (SELECT aid FROM pgb_hist)" 2>&1)
    [ "$out" = "$(printf '90\n0\n0')" ] && ok "psql: pgbench's parameterized updates all applied" \
      || fail "psql: pgbench's parameterized updates all applied" "$out"

    # pgbench's own tables: after pgbench -i, the select-only script reads
    # pgbench_accounts through its primary key
    if out=$("$PGBIN/pgbench" -i -s 1 -q 2>&1); then
      plan=$("$PSQL" -X -A -t -c "EXPLAIN (COSTS OFF) SELECT abalance FROM pgbench_accounts WHERE aid = 12345" 2>&1)
      if [ "$plan" = "$(printf 'Index Scan using pgbench_accounts_pkey on pgbench_accounts\n  Index Cond: (aid = 12345)')" ]; then
        ok "psql: pgbench -S's query uses pgbench_accounts_pkey"
      else
        fail "psql: pgbench -S's query uses pgbench_accounts_pkey" "$plan"
      fi
      for mode in simple prepared; do
        out=$("$PGBIN/pgbench" -n -S -t 200 -M "$mode" 2>&1)
        if [[ $out == *'number of transactions actually processed: 200/200'* &&
              $out == *'number of failed transactions: 0 '* ]]; then
          ok "psql: pgbench -S -M $mode"
        else
          fail "psql: pgbench -S -M $mode" "$(echo "$out" | tail -n 5)"
        fi
      done
    else
      fail "psql: pgbench -i -s 1" "$(echo "$out" | tail -n 5)"
    fi

    # \gdesc: Parse + Describe S (nothing runs), then format_type
    out=$(printf '%s\n' "SELECT aid, abalance AS b, 1.5::numeric(4,1) AS n FROM pgb_acc WHERE aid = 1 \\gdesc" \
      "INSERT INTO pgb_acc VALUES (-1, -1) RETURNING aid \\gdesc" \
      "SELECT count(*) FROM pgb_acc WHERE aid = -1;" | "$PSQL" -X -A -t 2>&1)
    if [ "$out" = "$(printf 'aid|integer\nb|integer\nn|numeric(4,1)\naid|integer\n0')" ]; then
      ok "psql: \\gdesc describes without running"
    else
      fail "psql: \\gdesc describes without running" "$out"
    fi

    # two psql sessions at once, each in its own transaction
    "$PSQL" -X -q -c "CREATE TABLE two (who text, i int)"
    for who in a b; do
      {
        echo "BEGIN;"
        for i in $(seq 1 100); do echo "INSERT INTO two VALUES ('$who', $i);"; done
        echo "COMMIT;"
      } | "$PSQL" -X -q -v ON_ERROR_STOP=1 > "$work/two-$who.out" 2>&1 &
    done
    wait
    out=$("$PSQL" -X -A -t -c "SELECT who, count(*), sum(i) FROM two GROUP BY who ORDER BY who" 2>&1)
    if [ "$out" = "$(printf 'a|100|5050\nb|100|5050')" ]; then
      ok "psql: two concurrent sessions"
    else
      fail "psql: two concurrent sessions" "$out $(cat "$work"/two-*.out)"
    fi
  )
  server_stop "psql"

  # the files of sql/ through psql against PostgreSQL 15's output
  # (expected/NAME.out, made by regen_expected.sh: describe_pg15 is
  # psql's \dt+ and friends, reset_pg15 RESET with the client's
  # startup settings), each on a fresh server, with the client
  # environment regen_expected.sh gives them (sql/NAME.env's lines
  # last), the Owner field of unaligned rows replaced on both sides
  owner='s/^\([^|]*|[^|]*|table|\)[^|]*/\1OWNER/'
  for sql in "$HERE"/sql/*.sql; do
    name=$(basename "$sql" .sql)
    client_env=()
    [ -f "$HERE/sql/$name.env" ] && mapfile -t client_env < "$HERE/sql/$name.env"
    SRV_PORT=$(free_port)
    server_start "$work/sql-$name" || { fail "psql: $name server start"; continue; }
    (psql_env; env LC_ALL=C PGCLIENTENCODING=UTF8 PGTZ=UTC "${client_env[@]}" \
       "$PSQL" -X -a -q < "$sql" > "$work/$name.out" 2>&1)
    server_stop
    if diff -u <(sed "$owner" "$HERE/expected/$name.out") \
         <(sed "$owner" "$work/$name.out") > "$work/$name.diff"; then
      ok "psql: sql/$name.sql prints what PostgreSQL 15 prints"
    else
      fail "psql: sql/$name.sql prints what PostgreSQL 15 prints"
      sed 's/^/    /' "$work/$name.diff" | head -40
    fi
  done
}

group_cli() {
  local name expected got
  $have_psql || { skip "cli" "no $PSQL"; return; }
  CLI_CASES=$ROOT/tests/cli/cases
  for f in "$ROOT"/tests/cli/cases/*.sh; do
    name=$(basename "$f" .sh)
    expected=$ROOT/tests/cli/expected/$name.out
    got=$work/cli-$name.out
    [ -f "$expected" ] || { skip "cli: $name" "no expected file"; continue; }
    SRV_PORT=$(free_port)
    server_start "$work/cli-$name" || { fail "cli: $name (server start)"; continue; }
    (psql_env; run_case "$name" "$work/bin-psql" "$got")
    server_stop
    if cmp -s "$expected" "$got"; then
      ok "cli: tests/cli/cases/$name.sh through psql and the server"
    else
      fail "cli: tests/cli/cases/$name.sh through psql and the server"
      regress_diff "$expected" "$got" | sed 's/^/    /' | head -40
    fi
  done
}

group_regress() {
  local name expected got known
  $have_psql || { skip "regress" "no $PSQL"; return; }
  declare -A known=()
  # the shell's known failures, and those only real psql meets (its \d
  # sends catalog queries of its own)
  for list in "$ROOT/tests/regress/known_failures.txt" \
              "$ROOT/tests/server/regress_known_failures.txt"; do
    [ -f "$list" ] || continue
    while IFS= read -r line || [ -n "$line" ]; do
      line=${line%%#*}
      read -r kname kreason <<<"$line"
      [ -n "${kname:-}" ] && known[$kname]=${kreason:-known failure}
    done < "$list"
  done
  for sql in "$ROOT"/tests/regress/sql/*.sql; do
    name=$(basename "$sql" .sql)
    expected=$ROOT/tests/regress/expected/$name.out
    got=$work/regress-$name.out
    SRV_PORT=$(free_port)
    # the database regress_NAME, as regen_expected.sh names it, is the
    # data directory of that name
    server_start "$work/regress_$name" || { fail "regress: $name (server start)"; continue; }
    (psql_env; cd "$work" && LC_ALL=C \
       timeout 300 "$PSQL" -X -a -q -d "regress_$name" < "$sql" > "$got" 2>&1)
    server_stop
    if same_regress_output "$expected" "$got"; then
      ok "regress: $name through psql and the server"
    elif [ -n "${known[$name]:-}" ]; then
      skip "regress: $name" "known failure: ${known[$name]}"
    else
      fail "regress: $name through psql and the server"
      diff -u "$expected" "$got" | sed 's/^/    /' | head -40
    fi
  done
}

# damage_sql NAME EXPECTED SQL [STDIN]: SQL through psql (verbose
# errors), with STDIN as its input, prints a line EXPECTED.
damage_sql() {
  local name=$1 expected=$2 sql=$3 input=${4:-} out
  out=$(psql_env; "$PSQL" -X -q -A -t -v VERBOSITY=verbose -c "$sql" \
        <<<"$input" 2>&1)
  if grep -qxF -- "$expected" <<<"$out"; then ok "damage: $name"
  else fail "damage: $name" "$out"; fi
}

group_damage() {
  local dir=$work/damage dir2=$work/damage-xact file size sql out rc missing
  $have_psql || { skip "damage" "no $PSQL"; return; }
  SRV_PORT=$(free_port)
  server_start "$dir" || { fail "damage: server start"; return; }
  out=$(psql_env; "$PSQL" -X -q -A -t -v ON_ERROR_STOP=1 -c "
    CREATE TABLE t (a int, b text);
    INSERT INTO t SELECT g, repeat('x', 100) FROM generate_series(1, 1000) g;
    CREATE TABLE u (a int);
    INSERT INTO u VALUES (1);" \
    -c "SELECT relfilenode FROM pg_class WHERE relname = 't'" 2>&1)
  file=$dir/base/$out
  [ -f "$file" ] || { fail "damage: setup" "$out"; server_stop; return; }
  server_stop
  # the table's file loses 13 of its 18 blocks while the server is down
  truncate -s $((5 * 8192)) "$file"
  size=$(stat -c %s "$file")
  missing="ERROR:  XX001: relation \"t\" is missing blocks: its file base/$out has 5 blocks, but 18 were committed"
  server_start "$dir" || { fail "damage: restart"; return; }
  for sql in "SELECT count(*) FROM t" "INSERT INTO t VALUES (0, 'y')" \
             "INSERT INTO t SELECT g, 'z' FROM generate_series(1, 5000) g" \
             "UPDATE t SET a = 0 WHERE a = 1" "DELETE FROM t" \
             "COPY t TO STDOUT" "VACUUM t"; do
    damage_sql "$sql fails with XX001" "$missing" "$sql"
  done
  damage_sql "COPY t FROM STDIN fails with XX001" "$missing" \
    "COPY t FROM STDIN" "$(printf '7\tz\n8\tz')"
  if [ "$(stat -c %s "$file")" = "$size" ]; then
    ok "damage: no statement wrote over the missing blocks"
  else fail "damage: no statement wrote over the missing blocks" "$(stat -c %s "$file") bytes"
  fi
  damage_sql "other tables keep working" "2" \
    "INSERT INTO u VALUES (2); SELECT count(*) FROM u"
  server_stop
  server_start "$dir" || { fail "damage: second restart"; return; }
  damage_sql "still damaged after a restart" "$missing" \
    "INSERT INTO t VALUES (0, 'y')"
  damage_sql "still damaged after a restart (scan)" "$missing" \
    "SELECT count(*) FROM t"
  damage_sql "DROP TABLE works on the damaged table" "u" \
    "DROP TABLE t; SELECT relname FROM pg_class WHERE relname IN ('t', 'u')"
  if [ ! -e "$file" ]; then ok "damage: DROP TABLE removed the file"
  else fail "damage: DROP TABLE removed the file"; fi
  server_stop "damage"

  # a deleted commit log: the database is refused, never read as empty
  SRV_PORT=$(free_port)
  server_start "$dir2" || { fail "damage: server start (pg_xact)"; return; }
  out=$(psql_env; "$PSQL" -X -q -v ON_ERROR_STOP=1 -c "
    CREATE TABLE c (a int); INSERT INTO c VALUES (1);" 2>&1)
  [ -z "$out" ] || fail "damage: setup (pg_xact)" "$out"
  server_stop
  rm "$dir2/pg_xact/0000"
  "$TDB" serve "$dir2" --port "$SRV_PORT" --socket-dir "$SRV_SOCKDIR" \
    --listen 127.0.0.1 > "$SRV_LOG.damage" 2>&1 &
  SRV_PID=$!
  # it must exit by itself; one that starts serving is stopped
  for _ in $(seq 1 300); do
    kill -0 "$SRV_PID" 2>/dev/null || break
    [ -S "$SRV_SOCKDIR/.s.PGSQL.$SRV_PORT" ] && kill -TERM "$SRV_PID"
    sleep 0.05
  done
  wait "$SRV_PID"; rc=$?; SRV_PID=
  if [ "$rc" -ne 0 ] &&
     grep -qE "FATAL:  could not open database \".*\": could not access status of transaction [0-9]+$" "$SRV_LOG.damage" &&
     grep -qF "DETAIL:  Could not open file \"$dir2/pg_xact/0000\": No such file or directory." "$SRV_LOG.damage"
  then ok "damage: a deleted pg_xact segment: the server refuses to start"
  else fail "damage: a deleted pg_xact segment: the server refuses to start" "exit $rc; $(cat "$SRV_LOG.damage")"
  fi
  out=$("$TDB" "$dir2" -c "SELECT * FROM c" 2>&1); rc=$?
  if [ "$rc" -eq 2 ] &&
     grep -qE "could not access status of transaction [0-9]+$" <<<"$out" &&
     grep -qxF "DETAIL:  Could not open file \"$dir2/pg_xact/0000\": No such file or directory." <<<"$out"
  then ok "damage: a deleted pg_xact segment: the shell refuses the database"
  else fail "damage: a deleted pg_xact segment: the shell refuses the database" "exit $rc; $out"
  fi
  [ ! -e "$dir2/pg_xact/0000" ] || fail "damage: nothing recreated pg_xact/0000"

  # a crash right after COMMIT keeps the committed rows' index entries
  # (there is no WAL: index pages are flushed before the commit, as
  # table pages are), so the primary key still refuses their keys
  local dir3=$work/damage-index
  SRV_PORT=$(free_port)
  server_start "$dir3" || { fail "damage: server start (index)"; return; }
  out=$(psql_env; "$PSQL" -X -q -v ON_ERROR_STOP=1 \
        -c "CREATE TABLE k (a int PRIMARY KEY, b text)" \
        -c "INSERT INTO k SELECT g, 'v' || g FROM generate_series(1, 3000) g" 2>&1)
  [ -z "$out" ] || fail "damage: setup (index)" "$out"
  kill -KILL "$SRV_PID"; wait "$SRV_PID" 2>/dev/null; SRV_PID=
  rm -f "$SRV_SOCKDIR/.s.PGSQL.$SRV_PORT"
  server_start "$dir3" || { fail "damage: restart after a crash (index)"; return; }
  damage_sql "after a crash the primary key still has every committed key" \
    'DETAIL:  Key (a)=(2500) already exists.' "INSERT INTO k VALUES (2500, 'again')"
  damage_sql "... and the table every committed row" "3000" \
    "SELECT count(*) FROM k"
  server_stop
  group_damage_index
}

# index_file: the path of k_pkey's file (the server is up; REINDEX gives
# the index a new file each time)
index_file() {
  local rfn
  rfn=$(psql_env; "$PSQL" -X -q -A -t -c \
        "SELECT relfilenode FROM pg_class WHERE relname = 'k_pkey'" 2>&1)
  echo "$dir/base/$rfn"
}

# damage_index NAME DAMAGE ERROR [VACUUM_ERROR]: stop the server, damage k_pkey's file
# with `btpage.py FILE DAMAGE...`, restart; an INSERT that reaches the
# damaged page and a VACUUM fail with ERROR (VACUUM_ERROR if given; a
# line of psql's verbose
# output, "FILE" in it replaced by the file's base/N) and so does a
# lookup by key through the index; other tables work;
# REINDEX (INDEX or TABLE, alternately) repairs it: the keys are there
# again, the one deleted before the VACUUM can come back.
damage_index() {
  local name=$1 damage=$2 error=$3 verror=${4:-$3} file rel reindex out
  local gone=$((100 + nfixed))
  file=$(index_file)
  rel=base/${file##*/}
  server_stop
  # shellcheck disable=SC2086
  python3 "$HERE/btpage.py" "$file" $damage ||
    { fail "damage: index $name: btpage.py"; return; }
  server_start "$dir" || { fail "damage: index $name: restart"; return; }
  error=${error//FILE/$rel}
  verror=${verror//FILE/$rel}
  damage_sql "index $name: INSERT fails" "$error" \
    "INSERT INTO k VALUES (5, 'again')"
  damage_sql "index $name: a lookup by key fails" "$error" \
    "SELECT b FROM k WHERE a = 7"
  # the row goes by a sequential scan (a + 0 is not the index's key), so
  # that VACUUM has an entry to remove and meets the damage
  out=$(psql_env; "$PSQL" -X -q -A -t -v VERBOSITY=verbose \
        -c "DELETE FROM k WHERE a + 0 = $gone" -c "VACUUM k" 2>&1)
  if grep -qxF -- "$verror" <<<"$out"; then ok "damage: index $name: VACUUM fails"
  else fail "damage: index $name: VACUUM fails" "$out"; fi
  damage_sql "index $name: other tables work" "$((nfixed + 2))" \
    "INSERT INTO u VALUES ($((nfixed + 2))); SELECT count(*) FROM u"
  reindex="REINDEX INDEX k_pkey"
  [ $((nfixed % 2)) -eq 1 ] && reindex="REINDEX TABLE k"
  nfixed=$((nfixed + 1))
  damage_sql "index $name: $reindex repairs it" "repaired" \
    "$reindex; SELECT 'repaired'"
  damage_sql "index $name: every key is there" \
    'DETAIL:  Key (a)=(5) already exists.' "INSERT INTO k VALUES (5, 'again')"
  damage_sql "index $name: the deleted key can come back" "3000" \
    "INSERT INTO k VALUES ($gone, 'back'); SELECT count(*) FROM k"
}

# Index files damaged while the server is down: a page failing its
# checksum (XX001), pages whose checksum is right but whose B-tree
# structure is impossible (XX002 naming the index, or PostgreSQL's
# metapage message), and a file of garbage, which REINDEX replaces
# without reading any of it.
group_damage_index() {
  local dir=$work/damage-btree nfixed=0 out hk file
  SRV_PORT=$(free_port)
  server_start "$dir" || { fail "damage: server start (btree)"; return; }
  out=$(psql_env; "$PSQL" -X -q -v ON_ERROR_STOP=1 \
        -c "CREATE TABLE k (a int PRIMARY KEY, b text)" \
        -c "INSERT INTO k SELECT g, 'v' || g FROM generate_series(1, 3000) g" \
        -c "CREATE TABLE u (a int PRIMARY KEY); INSERT INTO u VALUES (1)" 2>&1)
  [ -z "$out" ] || fail "damage: setup (btree)" "$out"
  # block 1 is the leftmost leaf (keys from 1), block 0 the metapage
  damage_index "checksum" "flip 1 5000" \
    "ERROR:  XX001: invalid page in block 1 of relation FILE"
  damage_index "level" "set 1 8184 03000000" \
    'ERROR:  XX002: index "k_pkey" contains corrupted page at block 1'
  file=$(index_file)
  hk=$(python3 "$HERE/btpage.py" "$file" item 1 1)
  damage_index "high key size" "set 1 $((hk + 6)) f01f" \
    'ERROR:  XX002: index "k_pkey" contains corrupted page at block 1'
  damage_index "metapage version" "set 0 28 03000000" \
    'ERROR:  XX002: version mismatch in index "k_pkey": file version 3, current version 4, minimal supported version 2'
  damage_index "garbage file" "garbage" \
    "ERROR:  XX001: invalid page in block 0 of relation FILE" \
    "ERROR:  XX001: invalid page in block 1 of relation FILE"
  server_stop "damage (btree)"
}

PASSED=0; FAILED=0; SKIPPED=0
# Every check prints one "  ok" / "  FAIL" / "  skip" line (some from
# subshells or from pgwire.py), so the lines are what is counted.
for g in "${groups[@]}"; do
  echo "-- $g"
  if ! declare -F "group_$g" >/dev/null; then
    echo "  FAIL  unknown group $g" > "$work/group.out"
  else
    "group_$g" > "$work/group.out" 2>&1
  fi
  cat "$work/group.out"
  PASSED=$((PASSED + $(grep -c '^  ok ' "$work/group.out")))
  FAILED=$((FAILED + $(grep -c '^  FAIL ' "$work/group.out")))
  SKIPPED=$((SKIPPED + $(grep -c '^  skip ' "$work/group.out")))
done
echo "RESULT server: $PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" -eq 0 ]
