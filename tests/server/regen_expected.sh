#!/usr/bin/env bash
# regen_expected.sh -- make tests/server/expected/NAME.out with real
# PostgreSQL 15, for each tests/server/sql/NAME.sql that run.sh's psql
# group runs through psql against `tupledb serve`.
#
#   tests/server/regen_expected.sh            every sql/*.sql
#   tests/server/regen_expected.sh NAME...    only sql/NAME.sql
#
# Starts a throwaway PostgreSQL 15 (tests/fixtures/pg/throwaway_pg.sh),
# creates a fresh database per file and runs
#   psql -X -a -q < sql/NAME.sql > expected/NAME.out 2>&1
# with LC_ALL=C and the client environment of sql/NAME.env if there is
# one (a VAR=value per line: PGDATESTYLE, PGTZ, PGOPTIONS, which libpq
# sends in its startup packet), exactly as run.sh runs the file against
# tupledb.  The expected files are only ever written by this script.
#
# Environment: PGBIN (default /usr/lib/postgresql/15/bin), PG_OS_USER (the
# OS user to run the server as when invoked as root).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PORT=54333            # only names the socket file inside our private directory
SCRIPT=regen_expected.sh

if [ $# -gt 0 ]; then names=("$@")
else names=(); for f in "$HERE"/sql/*.sql; do names+=("$(basename "$f" .sql)"); done
fi
for name in "${names[@]}"; do
  [ -f "$HERE/sql/$name.sql" ] || { echo "$SCRIPT: no sql/$name.sql" >&2; exit 1; }
done

# shellcheck source=../fixtures/pg/throwaway_pg.sh
source "$ROOT/tests/fixtures/pg/throwaway_pg.sh"
pg_throwaway_start tdb-server-regen "" ""

for name in "${names[@]}"; do
  db="server_$name"
  client_env=()
  if [ -f "$HERE/sql/$name.env" ]; then
    mapfile -t client_env < "$HERE/sql/$name.env"
  fi
  psql_run -c "CREATE DATABASE \"$db\" TEMPLATE template0" >/dev/null
  # env -i: no stray PG* variables from the caller
  as_pg env -i PATH="$PATH" LC_ALL=C "${client_env[@]}" "$PSQL" -X -a -q \
    -h "$TMP/sock" -p "$PORT" -U tdb -d "$db" \
    < "$HERE/sql/$name.sql" > "$HERE/expected/$name.out" 2>&1 || true
  psql_run -c "DROP DATABASE \"$db\"" >/dev/null
  echo "expected/$name.out"
done
