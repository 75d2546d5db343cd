#!/usr/bin/env bash
# run.sh BENCH_BINARY -- the B-tree benchmark (issue 22, first increment):
# bench_nbtree on a fresh temporary data directory, three rounds, 1M random
# int4 inserts, 1M point lookups (rescan and fresh scans) and a 1M-key
# build; then callgrind instructions per operation on 100k rows (the
# figures to compare across changes: wall times move with the machine's
# load).  Prints the records; writes nothing else.
set -euo pipefail
BIN=${1:?usage: run.sh BENCH_BINARY}
ROWS=${ROWS:-1000000}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tdb-bench-nbtree.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

for round in 1 2 3; do
  echo "# round $round"
  "$BIN" --dir "$TMP/db$round" --rows "$ROWS" --lookups "$ROWS"
  rm -rf "$TMP/db$round"
done

if command -v valgrind >/dev/null; then
  for fn in run_insert run_lookup run_lookup_fresh run_build; do
    valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.$fn" --toggle-collect="$fn" \
      "$BIN" --dir "$TMP/cg-$fn" --rows 100000 --lookups 100000 >/dev/null 2>&1
    ir=$(callgrind_annotate "$TMP/cg.$fn" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
    echo "callgrind $fn $((ir / 100000)) Ir/op"
    rm -rf "$TMP/cg-$fn"
  done
fi
