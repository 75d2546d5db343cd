#!/usr/bin/env bash
# bench/copy/run.sh -- load rows with COPY: tupledb against PostgreSQL 15.
#
#   bench/copy/run.sh [PATH/TO/tupledb]        (make bench-copy)
#
# Generates TDB_BENCH_ROWS (default 1,000,000) rows of
#   (id int, name text, amount numeric(12,2), day date, flag bool)
# as COPY text (about 45 MB) and loads them, each way in a fresh database:
#
#   server file   tupledb -c "COPY t FROM '/abs/file'"  (the engine alone)
#   script stdin  the data inline after COPY t FROM STDIN, through the
#                 shell's COPY callbacks
#   psql \copy    psql 15 -> tupledb serve (the CopyData protocol path)
#   PostgreSQL    psql 15 \copy -> PostgreSQL 15 (a throwaway cluster,
#                 fsync off as in the test fixtures; tupledb fsyncs at
#                 commit)
#
# Each time is the whole client run (open, COPY, commit, close), best of
# TDB_BENCH_ROUNDS (default 3).  Not a test: it prints numbers and exits 0
# unless its setup fails.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
TDB=${1:-$ROOT/build/release/tupledb}
TDB=$(cd "$(dirname "$TDB")" && pwd)/$(basename "$TDB")
ROWS=${TDB_BENCH_ROWS:-1000000}
ROUNDS=${TDB_BENCH_ROUNDS:-3}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PORT=54377
SCRIPT=run.sh

work=$(mktemp -d "${TMPDIR:-/tmp}/tdb-bench-copy.XXXXXX")
chmod 755 "$work"
srv_pid=
cleanup() {
  [ -n "$srv_pid" ] && kill -TERM "$srv_pid" 2>/dev/null && wait "$srv_pid" || true
  rm -rf "$work"
}
trap cleanup EXIT

TABLE="CREATE TABLE t (id int NOT NULL, name text, amount numeric(12,2), day date, flag bool)"
awk -v n="$ROWS" 'BEGIN {
  for (i = 1; i <= n; i++)
    printf "%d\tname %d\t%d.%02d\t2024-%02d-%02d\t%s\n",
           i, i * 7, i % 100000, i % 100, i % 12 + 1, i % 28 + 1,
           (i % 3 ? "t" : "f")
}' > "$work/data.txt"
chmod 644 "$work/data.txt"
echo "rows: $ROWS, $(du -m "$work/data.txt" | cut -f1) MB of COPY text"

now() { date +%s.%N; }
best=()
# time CMD... -> seconds of the fastest of ROUNDS runs (setup inside CMD)
timed() {
  local label=$1; shift
  local b=999999 t0 t1 s
  for _ in $(seq 1 "$ROUNDS"); do
    "$@" prepare
    t0=$(now); "$@" run; t1=$(now)
    "$@" verify
    s=$(echo "$t1 - $t0" | bc)
    b=$(echo "if ($s < $b) $s else $b" | bc)
  done
  printf '  %-14s %7.2f s  %9.0f rows/s\n' "$label" "$b" "$(echo "$ROWS / $b" | bc -l)"
}

check_count() {
  [ "$1" = "$ROWS" ] || { echo "$SCRIPT: expected $ROWS rows, got '$1'" >&2; exit 1; }
}

shell_file() {
  case $1 in
    prepare) rm -rf "$work/db"; "$TDB" -X -q -c "$TABLE" "$work/db" ;;
    run) "$TDB" -X -q -c "COPY t FROM '$work/data.txt'" "$work/db" ;;
    verify) check_count "$("$TDB" -X -A -t -c 'SELECT count(*) FROM t' "$work/db")" ;;
  esac
}
shell_stdin() {
  case $1 in
    prepare) rm -rf "$work/db"; "$TDB" -X -q -c "$TABLE" "$work/db"
             { echo 'COPY t FROM STDIN;'; cat "$work/data.txt"; echo '\.'; } > "$work/script.sql" ;;
    run) "$TDB" -X -q "$work/db" < "$work/script.sql" ;;
    verify) check_count "$("$TDB" -X -A -t -c 'SELECT count(*) FROM t' "$work/db")" ;;
  esac
}
psql_serve() {
  case $1 in
    prepare)
      [ -n "$srv_pid" ] && { kill -TERM "$srv_pid"; wait "$srv_pid" || true; srv_pid=; }
      # the data directory names the database, "bench"; the role too
      rm -rf "$work/bench"; mkdir -p "$work/sock"
      "$TDB" serve "$work/bench" --port 54378 --socket-dir "$work/sock" \
        --superuser bench > "$work/serve.log" 2>&1 &
      srv_pid=$!
      for _ in $(seq 1 100); do [ -S "$work/sock/.s.PGSQL.54378" ] && break; sleep 0.05; done
      "$PGBIN/psql" -X -q -h "$work/sock" -p 54378 -U bench -d bench -c "$TABLE" ;;
    run)
      "$PGBIN/psql" -X -q -h "$work/sock" -p 54378 -U bench -d bench -c "\\copy t from '$work/data.txt'" ;;
    verify)
      check_count "$("$PGBIN/psql" -X -A -t -h "$work/sock" -p 54378 -U bench -d bench -c 'SELECT count(*) FROM t')" ;;
  esac
}

echo "tupledb ($TDB):"
timed "server file" shell_file
timed "script stdin" shell_stdin
if [ -x "$PGBIN/psql" ]; then
  timed "psql \\copy" psql_serve
  kill -TERM "$srv_pid"; wait "$srv_pid" || true; srv_pid=
  # shellcheck source=../../tests/fixtures/pg/throwaway_pg.sh
  source "$ROOT/tests/fixtures/pg/throwaway_pg.sh"
  trap 'pg_throwaway_cleanup; cleanup' EXIT
  pg_throwaway_start tdb-bench-copy "" ""
  pg_copy() {
    case $1 in
      prepare) psql_run -c "DROP TABLE IF EXISTS t" -c "$TABLE" >/dev/null 2>&1 ;;
      run) as_pg "$PSQL" -X -q -h "$TMP/sock" -p "$PORT" -U tdb -d postgres -c "\\copy t from '$work/data.txt'" ;;
      verify) check_count "$(psql_run -A -t -c 'SELECT count(*) FROM t')" ;;
    esac
  }
  echo "PostgreSQL 15 (fsync off):"
  timed "psql \\copy" pg_copy
fi
