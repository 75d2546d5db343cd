#!/usr/bin/env bash
# bench/index/run.sh TUPLEDB [ROUNDS] -- what indexes cost writes and
# builds (issue 22), tupledb against PostgreSQL 15 on the same machine:
#   insert_1m_nokey   INSERT ... SELECT of 1M int4 rows, no index
#   insert_1m_pkey    the same into a table with an int4 PRIMARY KEY
#   insert_1m_pkey_rand  ... keys in scattered order
#   create_index_1m   CREATE INDEX on 1M int4 keys (scattered order)
#   create_index_10m  CREATE INDEX on 10M int4 keys (scattered order)
# Both servers as bench/README.md's server harness runs them: tupledb
# serve with its defaults, a throwaway PostgreSQL 15 (fsync on,
# shared_buffers 128MB, jit off, no parallel workers, initdb -k);
# maintenance_work_mem 64MB in both.  Times are psql's \timing of each
# statement (ms), the best of ROUNDS (default 3), engines alternating.
set -euo pipefail
TDB=$(realpath "$1"); ROUNDS=${2:-3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PORT=${PORT:-55433}; SCRIPT=$0
# shellcheck source=../../tests/fixtures/pg/throwaway_pg.sh
. "$ROOT/tests/fixtures/pg/throwaway_pg.sh"
pg_throwaway_start bench-index "-k" \
  "-c shared_buffers=128MB -c jit=off -c max_parallel_workers_per_gather=0 -c max_parallel_maintenance_workers=0"
TDB_DIR=$(mktemp -d /tmp/bench-index-tdb.XXXXXX)
chmod 755 "$TDB_DIR"
TPORT=$((PORT + 1))
"$TDB" serve "$TDB_DIR/data" --port "$TPORT" --socket-dir "$TDB_DIR" \
  --superuser bench >"$TDB_DIR/log" 2>&1 &
TPID=$!
trap 'kill $TPID 2>/dev/null; wait $TPID 2>/dev/null; rm -rf "$TDB_DIR"; pg_throwaway_cleanup 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -S "$TDB_DIR/.s.PGSQL.$TPORT" ] && break; sleep 0.1; done

tdb_sql() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$TDB_DIR" -p "$TPORT" -U bench -d postgres "$@"; }
pg_sql() { psql_run "$@"; }

# run ENGINE SQL: the milliseconds of the last statement of SQL
timed() {
  local engine=$1 sql=$2
  printf 'SET maintenance_work_mem = %s;\n\\timing on\n%s\n' "'64MB'" "$sql" |
    "${engine}_sql" 2>&1 | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1
}

declare -A setup=(
  [insert_1m_nokey]="DROP TABLE IF EXISTS w; CREATE TABLE w (k int4);"
  [insert_1m_pkey]="DROP TABLE IF EXISTS w; CREATE TABLE w (k int4 PRIMARY KEY);"
  [insert_1m_pkey_rand]="DROP TABLE IF EXISTS w; CREATE TABLE w (k int4 PRIMARY KEY);"
  [create_index_1m]="DROP TABLE IF EXISTS w; CREATE TABLE w (k int4); INSERT INTO w SELECT (g::int8 * 7919 % 1000003)::int4 FROM generate_series(1, 1000000) g; VACUUM w;"
  [create_index_10m]="DROP TABLE IF EXISTS w; CREATE TABLE w (k int4); INSERT INTO w SELECT (g::int8 * 7919 % 10000019)::int4 FROM generate_series(1, 10000000) g; VACUUM w;"
)
declare -A work=(
  [insert_1m_nokey]="INSERT INTO w SELECT g FROM generate_series(1, 1000000) g;"
  [insert_1m_pkey]="INSERT INTO w SELECT g FROM generate_series(1, 1000000) g;"
  [insert_1m_pkey_rand]="INSERT INTO w SELECT (g::int8 * 7919 % 1000003)::int4 FROM generate_series(1, 1000000) g;"
  [create_index_1m]="CREATE INDEX w_k ON w (k);"
  [create_index_10m]="CREATE INDEX w_k ON w (k);"
)
printf '%-22s %12s %12s %8s\n' workload "tupledb ms" "pg15 ms" ratio
for w in insert_1m_nokey insert_1m_pkey insert_1m_pkey_rand create_index_1m create_index_10m; do
  best_t="" best_p=""
  for r in $(seq "$ROUNDS"); do
    for e in $( ((r % 2)) && echo "tdb pg" || echo "pg tdb"); do
      printf "%s\n" "${setup[$w]}" | "${e}_sql" >/dev/null 2>&1
      [ "$e" = pg ] && pg_sql -c CHECKPOINT >/dev/null
      t=$(timed "$e" "${work[$w]}")
      if [ "$e" = tdb ]; then
        [ -z "$best_t" ] || (( $(echo "$t < $best_t" | bc) )) && best_t=$t
      else
        [ -z "$best_p" ] || (( $(echo "$t < $best_p" | bc) )) && best_p=$t
      fi
    done
  done
  printf '%-22s %12.0f %12.0f %8.2f\n' "$w" "$best_t" "$best_p" "$(echo "$best_t / $best_p" | bc -l)"
done
