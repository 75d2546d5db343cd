#!/usr/bin/env bash
# run.sh -- end-to-end tests of the tupledb shell against psql's output.
#
#   tests/cli/run.sh [PATH/TO/tupledb] [CASE...]
#
# Runs every tests/cli/cases/CASE.sh (a few shell lines that call
# `tupledb` with -c, -f, stdin, ...) with the given binary (default
# build/release/tupledb) on a fresh data directory, and compares stdout,
# stderr and the exit status byte for byte with expected/CASE.out, which
# capture.sh produced by running the same lines with real psql 15 against
# PostgreSQL 15.  Prints one line per case and the closing
#   RESULT cli_e2e: N passed, N failed, N skipped
# that tests/run_unit.sh totals (make check runs this through
# build/<flavour>/tests/cli_e2e).  Exits 0 only if every case passed.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# shellcheck source=tests/cli/lib.sh
source "$HERE/lib.sh"

bin=${1:-$ROOT/build/release/tupledb}
shift || true
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
if [ ! -x "$bin" ]; then
  echo "run.sh: $bin is not an executable" >&2
  echo "RESULT cli_e2e: 0 passed, 1 failed, 0 skipped"
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tdb-cli-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
ln -s "$bin" "$work/bin/tupledb"

if [ $# -gt 0 ]; then cases=("$@")
else cases=(); for f in "$HERE"/cases/*.sh; do cases+=("$(basename "$f" .sh)"); done
fi
passed=0; failed=0; skipped=0
for name in "${cases[@]}"; do
  expected="$HERE/expected/$name.out"
  if [ ! -f "$expected" ]; then
    echo "  SKIP  $name (no expected/$name.out: run tests/cli/capture.sh)"
    skipped=$((skipped + 1))
    continue
  fi
  run_case "$name" "$work/bin" "$work/$name.out"
  if cmp -s "$expected" "$work/$name.out"; then
    echo "  ok    $name"
    passed=$((passed + 1))
  else
    echo "  FAIL  $name"
    diff -u "$expected" "$work/$name.out" | sed 's/^/    /' | head -60
    failed=$((failed + 1))
  fi
done
echo "RESULT cli_e2e: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
