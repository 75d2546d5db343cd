#!/usr/bin/env bash
# regen_expected.sh -- produce tests/regress/expected/*.out with real
# PostgreSQL 15, the way pg_regress does.
#
#   tests/regress/regen_expected.sh            every sql/*.sql
#   tests/regress/regen_expected.sh NAME...    only sql/NAME.sql
#
# Starts a throwaway PostgreSQL 15 server (tests/fixtures/pg/throwaway_pg.sh:
# a private directory, initdb --locale=C --encoding=UTF8, a unix socket and
# no TCP listener; run as root it switches to an unprivileged OS user),
# then for each file creates a fresh database from template0, runs
#   psql -X -a -q -d DB < sql/NAME.sql > expected/NAME.out 2>&1
# exactly as pg_regress does (stdin, so errors carry no "psql:file:line:"
# prefix), drops the database, and finally stops the server and removes
# its directory.  The expected files are only ever written by this script,
# never edited by hand.
#
# Environment: PGBIN (default /usr/lib/postgresql/15/bin), PG_OS_USER (the
# OS user to run the server as when invoked as root), REGEN_DIR (the
# directory holding sql/ and expected/; default this one:
# tests/server/regen_expected.sh points it at tests/server).  A file
# sql/NAME.env, if there is one, holds more client environment for NAME,
# a VAR=value per line (PGDATESTYLE, PGTZ, PGOPTIONS: libpq sends them in
# its startup packet).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE=${REGEN_DIR:-$ROOT/tests/regress}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PORT=54332            # only names the socket file inside our private directory
SCRIPT=regen_expected.sh

if [ $# -gt 0 ]; then names=("$@")
else names=(); for f in "$HERE"/sql/*.sql; do names+=("$(basename "$f" .sql)"); done
fi
for name in "${names[@]}"; do
  [ -f "$HERE/sql/$name.sql" ] || { echo "$SCRIPT: no sql/$name.sql" >&2; exit 1; }
done

export LC_ALL=C

# shellcheck source=../fixtures/pg/throwaway_pg.sh
source "$ROOT/tests/fixtures/pg/throwaway_pg.sh"
pg_throwaway_start tdb-regress "" ""

for name in "${names[@]}"; do
  db="regress_$name"
  client_env=()
  if [ -f "$HERE/sql/$name.env" ]; then
    mapfile -t client_env < "$HERE/sql/$name.env"
  fi
  psql_run -c "CREATE DATABASE \"$db\" TEMPLATE template0" >/dev/null
  # stdin and stdout are opened by this shell, so the unprivileged
  # server user needs no access to the work tree.  env -i: no stray PG*
  # variables from the caller; English messages, UTF8 client encoding.
  as_pg env -i PATH="$PATH" LC_ALL=C PGCLIENTENCODING=UTF8 PGTZ=UTC \
    "${client_env[@]}" "$PSQL" -X -a -q \
    -h "$TMP/sock" -p "$PORT" -U tdb -d "$db" \
    < "$HERE/sql/$name.sql" > "$HERE/expected/$name.out" 2>&1 || true
  psql_run -c "DROP DATABASE \"$db\"" >/dev/null
  echo "expected/$name.out"
done
