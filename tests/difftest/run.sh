#!/usr/bin/env bash
# run.sh -- the differential expression test: tupledb against PostgreSQL 15.
#
#   tests/difftest/run.sh [PATH/TO/tupledb]
#
# gen_exprs.py writes TDB_DIFFTEST_COUNT (default 10000) random typed
# expressions from seed TDB_DIFFTEST_SEED (default 1; "random" picks one
# and prints it) into one script; the script runs through real psql on a
# throwaway PostgreSQL 15 (tests/fixtures/pg/throwaway_pg.sh) and through
# the tupledb shell on a fresh data directory, both with -X -a -q -A -t
# and VERBOSITY sqlstate; compare.py then requires every statement to
# print the same rows or fail with the same SQLSTATE, and prints
#   RESULT difftest: N passed, N failed, 0 skipped
# (make check runs this through build/release/tests/difftest and totals
# it).  Without PostgreSQL 15 or python3 on the machine the whole test
# counts as one skipped test.  Outputs stay in tests/difftest/results/.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PORT=54333
SCRIPT=difftest
SEED=${TDB_DIFFTEST_SEED:-1}
COUNT=${TDB_DIFFTEST_COUNT:-10000}
bin=${1:-$ROOT/build/release/tupledb}

skip() {
  echo "difftest: skipped: $1"
  echo "RESULT difftest: 0 passed, 0 failed, 1 skipped"
  exit 0
}
[ -x "$bin" ] || { echo "difftest: $bin is not an executable" >&2
                   echo "RESULT difftest: 0 passed, 1 failed, 0 skipped"; exit 1; }
command -v python3 >/dev/null || skip "python3 not found"
[ -x "$PGBIN/postgres" ] || skip "PostgreSQL 15 not found in $PGBIN (set PGBIN)"
[ "$SEED" = random ] && SEED=$((RANDOM * 32768 + RANDOM))
echo "difftest: seed $SEED, $COUNT expressions"

out=$HERE/results
rm -rf "$out"; mkdir -p "$out"
python3 "$HERE/gen_exprs.py" "$SEED" "$COUNT" > "$out/script.sql" || exit 1

# shellcheck source=../fixtures/pg/throwaway_pg.sh
. "$ROOT/tests/fixtures/pg/throwaway_pg.sh"
pg_throwaway_start tdb-difftest "" "" 
as_pg env PGCLIENTENCODING=UTF8 PGTZ=UTC "$PSQL" -X -a -q -A -t \
  -h "$TMP/sock" -p "$PORT" -U tdb -d postgres \
  < "$out/script.sql" > "$out/postgresql.out" 2>&1

db=$(mktemp -d "${TMPDIR:-/tmp}/tdb-difftest-db.XXXXXX")
timeout 600 "$bin" -X -a -q -A -t "$db/data" \
  < "$out/script.sql" > "$out/tupledb.out" 2>&1
rc=$?
rm -rf "$db"
[ $rc -eq 0 ] || echo "difftest: the tupledb shell exited with status $rc"
python3 "$HERE/compare.py" "$out/script.sql" "$out/postgresql.out" \
  "$out/tupledb.out" 20 | tee "$out/summary.txt"
status=${PIPESTATUS[0]}
[ $rc -eq 0 ] || exit 1
exit "$status"
