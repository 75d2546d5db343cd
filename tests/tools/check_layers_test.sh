#!/usr/bin/env bash
# check_layers_test.sh -- tools/check_layers.sh must pass the tree as it
# is and fail each kind of include the layering forbids.  Each case copies
# src/ and tests/unit/ to a scratch tree, adds one include (or folder), and
# runs the checker on that tree.  Prints "RESULT tools_check_layers: ...".
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
checker=$repo/tools/check_layers.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

passed=0
failed=0

# fresh_tree: the repository's src/ and tests/unit/ in $scratch/tree
fresh_tree() {
  rm -rf "$scratch/tree"
  mkdir -p "$scratch/tree/tests"
  cp -r "$repo/src" "$scratch/tree/src"
  cp -r "$repo/tests/unit" "$scratch/tree/tests/unit"
}

# expect NAME WANT(ok|fail) [MESSAGE]: run the checker on the scratch tree;
# a failure must print MESSAGE.
expect() {
  local name=$1 want=$2 message=${3:-}
  local out rc
  out=$("$checker" "$scratch/tree" 2>&1)
  rc=$?
  if { [ "$want" = ok ] && [ $rc -eq 0 ]; } ||
     { [ "$want" = fail ] && [ $rc -ne 0 ] &&
       printf '%s\n' "$out" | grep -qF -- "$message"; }; then
    echo "  ok $name"
    passed=$((passed + 1))
  else
    echo "  FAIL $name: wanted $want${message:+ ($message)}, got status $rc:"
    printf '%s\n' "$out" | sed 's/^/    /'
    failed=$((failed + 1))
  fi
}

# add_include FILE HEADER: append an #include of HEADER to FILE
add_include() {
  printf '#include "%s"\n' "$2" >> "$scratch/tree/$1"
}

fresh_tree
expect "the tree as it is" ok

fresh_tree
add_include src/parser/parser.c tcop/session.h
expect "a layer includes one above it" fail \
  "src/parser/parser.c:"
fresh_tree
add_include src/server/pqcomm.c optimizer/planner.h
expect "a layer includes one beside it that it may not use" fail \
  "server/ may not use optimizer/"

fresh_tree
add_include src/commands/explain.c executor/exec_int.h
expect "a private header of another folder" fail \
  "includes executor/exec_int.h, private to src/executor/"
fresh_tree
add_include src/catalog/database.c storage/buf_internals.h
expect "the buffer pool's private header outside storage/" fail \
  "private to src/storage/"
fresh_tree
add_include tests/unit/catalog/test_catalog.c access/access_int.h
expect "a unit test includes another layer's private header" fail \
  "tests/unit/catalog/test_catalog.c:"
fresh_tree
add_include tests/unit/access/test_xact.c access/access_int.h
expect "a unit test includes its own layer's private header" ok

fresh_tree
mkdir "$scratch/tree/src/newlayer"
expect "a folder missing from the layer table" fail \
  "src/newlayer/ is not in the layer table"

echo "RESULT tools_check_layers: $passed passed, $failed failed, 0 skipped"
[ $failed -eq 0 ]
