#!/usr/bin/env bash
# run_unit.sh BUILDDIR... -- run every unit-test binary in BUILDDIR/tests,
# total the "RESULT suite: N passed, N failed, N skipped" lines, and print
# the overall "N passed, N failed, N skipped".  A binary that dies without
# its RESULT line (crash, sanitizer abort, valgrind error) counts as one
# failed test.  TDB_TEST_WRAPPER (e.g. "valgrind -q") prefixes each run.
set -uo pipefail

passed=0; failed=0; skipped=0
failed_suites=()
for dir in "$@"; do
  flavour=$(basename "$dir")
  for bin in "$dir"/tests/*; do
    [ -f "$bin" ] && [ -x "$bin" ] || continue
    name="$flavour/$(basename "$bin")"
    echo "== $name"
    out=$(${TDB_TEST_WRAPPER:-} "$bin" 2>&1)
    rc=$?
    echo "$out" | grep -v '^  ok ' || true
    line=$(echo "$out" | grep -E '^RESULT ' | tail -n 1)
    if [ -n "$line" ]; then
      p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped/\1/')
      f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped/\2/')
      s=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped/\3/')
      passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
      if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "  FAIL  $name exited with status $rc"
        failed=$((failed + 1))
      fi
    else
      echo "  FAIL  $name died (status $rc) before reporting"
      failed=$((failed + 1))
    fi
    if [ "$rc" -ne 0 ]; then failed_suites+=("$name"); fi
  done
done
echo
if [ ${#failed_suites[@]} -gt 0 ]; then
  echo "failed suites: ${failed_suites[*]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
