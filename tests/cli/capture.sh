#!/usr/bin/env bash
# capture.sh -- regenerate tests/cli/expected/*.out with real psql 15 and
# PostgreSQL 15.
#
#   tests/cli/capture.sh [CASE...]
#
# Starts a throwaway PostgreSQL 15 (tests/fixtures/pg/throwaway_pg.sh),
# puts psql in a private bin directory under the name `tupledb` (psql
# names itself after argv[0], so its "PROG:FILE:LINE:" prefixes read
# "tupledb:..." exactly as the shell's do) and runs every case against a
# fresh database, connection settings coming from PGHOST/PGPORT/PGUSER/
# PGDATABASE.  The cases use only what both tupledb and PostgreSQL run
# today (DDL, transaction control, SET/RESET, backslash commands), so the
# expected files are psql's own output.
#
# Environment: PGBIN (default /usr/lib/postgresql/15/bin), PG_OS_USER.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PORT=54318
SCRIPT=capture.sh
# shellcheck source=tests/fixtures/pg/throwaway_pg.sh
source "$ROOT/tests/fixtures/pg/throwaway_pg.sh"
# shellcheck source=tests/cli/lib.sh
source "$HERE/lib.sh"
pg_throwaway_start tdb-clicap "" ""

mkdir "$TMP/bin"
ln -s "$PSQL" "$TMP/bin/tupledb"
export PGHOST="$TMP/sock" PGPORT=$PORT PGUSER=tdb PGDATABASE=clicase

if [ $# -gt 0 ]; then cases=("$@")
else cases=(); for f in "$HERE"/cases/*.sh; do cases+=("$(basename "$f" .sh)"); done
fi
for name in "${cases[@]}"; do
  psql_run -c "DROP DATABASE IF EXISTS clicase" -c "CREATE DATABASE clicase" >/dev/null
  run_case "$name" "$TMP/bin" "$HERE/expected/$name.out"
  echo "captured $name"
done
