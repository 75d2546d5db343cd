#!/usr/bin/env bash
# run.sh -- the differential tests: tupledb against PostgreSQL 15.
#
#   tests/difftest/run.sh [PATH/TO/tupledb]
#
# Two generated scripts, from seed TDB_DIFFTEST_SEED (default 1; "random"
# picks one and prints it):
#   exprs    gen_exprs.py: TDB_DIFFTEST_COUNT (default 10000) random typed
#            expressions over tables of ordinary and edge values;
#   queries  gen_queries.py: TDB_DIFFTEST_QUERIES (default 2000) random
#            join / filter / subquery / grouping queries.
# Each script runs through real psql on a throwaway PostgreSQL 15
# (tests/fixtures/pg/throwaway_pg.sh) and through the tupledb shell on a
# fresh data directory, both with -X -a -q -A -t and VERBOSITY sqlstate;
# compare.py requires every statement to print the same rows or fail with
# the same SQLSTATE.  The last line totals both:
#   RESULT difftest: N passed, N failed, 0 skipped
# (make check runs this through build/release/tests/difftest).  Without
# PostgreSQL 15 or python3 the test counts as one skipped test.  Outputs
# stay in tests/difftest/results/.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PORT=54333
SCRIPT=difftest
SEED=${TDB_DIFFTEST_SEED:-1}
COUNT=${TDB_DIFFTEST_COUNT:-10000}
QUERIES=${TDB_DIFFTEST_QUERIES:-2000}
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
echo "difftest: seed $SEED, $COUNT expressions, $QUERIES queries"

out=$HERE/results
rm -rf "$out"; mkdir -p "$out"
python3 "$HERE/gen_exprs.py" "$SEED" "$COUNT" > "$out/exprs.sql" || exit 1
python3 "$HERE/gen_queries.py" "$SEED" "$QUERIES" > "$out/queries.sql" || exit 1

# shellcheck source=../fixtures/pg/throwaway_pg.sh
. "$ROOT/tests/fixtures/pg/throwaway_pg.sh"
pg_throwaway_start tdb-difftest "" ""

passed=0; failed=0; status=0
for name in exprs queries; do
  as_pg env PGCLIENTENCODING=UTF8 PGTZ=UTC "$PSQL" -X -a -q -A -t \
    -h "$TMP/sock" -p "$PORT" -U tdb -d postgres \
    -c "DROP TABLE IF EXISTS vs, ve, t1, t2, t3, t4" >/dev/null 2>&1
  as_pg env PGCLIENTENCODING=UTF8 PGTZ=UTC "$PSQL" -X -a -q -A -t \
    -h "$TMP/sock" -p "$PORT" -U tdb -d postgres \
    < "$out/$name.sql" > "$out/$name.postgresql.out" 2>&1
  db=$(mktemp -d "${TMPDIR:-/tmp}/tdb-difftest-db.XXXXXX")
  timeout 600 "$bin" -X -a -q -A -t "$db/data" \
    < "$out/$name.sql" > "$out/$name.tupledb.out" 2>&1
  rc=$?
  rm -rf "$db"
  if [ $rc -ne 0 ]; then
    echo "difftest: the tupledb shell exited with status $rc on $name"
    status=1; failed=$((failed + 1))
  fi
  line=$(python3 "$HERE/compare.py" "$out/$name.sql" "$out/$name.postgresql.out" \
         "$out/$name.tupledb.out" 20 "$name" | tee -a "$out/summary.txt" | tee /dev/stderr | tail -n 1)
  p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1/')
  f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\2/')
  passed=$((passed + p)); failed=$((failed + f))
  [ "$f" -eq 0 ] || status=1
done 2>&1
echo "RESULT difftest: $passed passed, $failed failed, 0 skipped"
exit $status
