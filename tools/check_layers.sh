#!/usr/bin/env bash
# check_layers.sh [ROOT] -- fail if an #include crosses the layering that
# README.md's "Source tour" writes down (../shared/DESIGN.md's layers):
#   1. a file in src/<layer>/ includes a header of a layer that <layer> may
#      not use (the table below: dependencies point down, never up);
#   2. any file outside src/<layer>/ (or its unit tests, tests/unit/<layer>/)
#      includes one of <layer>'s private headers, *_int.h (and
#      storage/buf_internals.h, PostgreSQL's name for the buffer pool's).
# ROOT defaults to the repository this script lives in.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

# layer -> the layers its files may include (besides its own).  Keep in
# step with README.md's "Source tour" and the folder READMEs.
declare -A MAY_USE=(
  [common]=""
  [mmgr]="common"
  [tuple]="common mmgr"
  [storage]="common mmgr tuple"
  [access]="common mmgr tuple storage"
  [toast]="common mmgr tuple storage access"
  [catalog]="common mmgr tuple storage access toast"
  [types]="common mmgr tuple toast catalog"
  [nodes]="common mmgr tuple access catalog types"
  [executor]="common mmgr tuple storage access toast catalog types nodes"
  [guc]="common mmgr toast types"
  [parser]="common mmgr tuple access catalog types nodes executor guc"
  [optimizer]="common mmgr tuple storage catalog types nodes executor guc parser"
  [commands]="common mmgr tuple storage access toast catalog types nodes executor guc parser optimizer"
  [tcop]="common mmgr tuple storage access toast catalog types nodes executor guc parser optimizer commands"
  [server]="common mmgr catalog types tcop"
  [api]="common mmgr catalog types tcop"
  [cli]="common api server"
)

# Every folder under src/ must be a known layer, so that a new folder is
# placed in the table on purpose.
table=""
for layer in "${!MAY_USE[@]}"; do
  table+="$layer ${MAY_USE[$layer]}"$'\n'
done
unknown=0
for dir in src/*/; do
  layer=$(basename "$dir")
  if [ -z "${MAY_USE[$layer]+x}" ]; then
    echo "check-layers: src/$layer/ is not in the layer table of $0" >&2
    unknown=1
  fi
done

# Then every project #include of src/, tests/ and bench/ (grep prints
# file:line:text; awk judges each against the table).
dirs=()
for dir in src tests bench; do
  [ -d "$dir" ] && dirs+=("$dir")
done
grep -rn --include='*.c' --include='*.h' '^#include "' "${dirs[@]}" |
awk -v table="$table" -v unknown=$unknown '
BEGIN {
  n = split(table, rows, "\n")
  for (i = 1; i <= n; i++) {
    m = split(rows[i], f, " ")
    if (m == 0) continue
    known[f[1]] = 1
    for (j = 2; j <= m; j++) may[f[1], f[j]] = 1
  }
  bad = unknown
}
{
  file = $0; sub(/:.*/, "", file)
  rest = substr($0, length(file) + 2)
  line = rest; sub(/:.*/, "", line)
  header = rest; sub(/^[^"]*"/, "", header); sub(/".*/, "", header)
  if (index(header, "/") == 0) next          # a header beside the file
  target = header; sub(/\/.*/, "", target)
  if (!(target in known)) next                # tests\x27 own helpers
  split(file, p, "/")
  owner = ""
  if (p[1] == "src") owner = p[2]
  else if (p[1] == "tests" && p[2] == "unit") owner = p[3]
  if (header ~ /_(int|internals)\.h$/ && owner != target) {
    printf "check-layers: %s:%s includes %s, private to src/%s/\n", file, line, header, target > "/dev/stderr"
    bad = 1
  }
  if (p[1] == "src" && owner != target && !((owner, target) in may)) {
    printf "check-layers: %s:%s includes %s: %s/ may not use %s/\n", file, line, header, owner, target > "/dev/stderr"
    bad = 1
  }
}
END {
  if (bad) exit 1
  print "check-layers: ok"
}'
