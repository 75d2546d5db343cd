# e2e.sh -- what the end-to-end test scripts share (tests/toast,
# tests/vacuum and tests/spill run.sh), sourced by each after
# `set -uo pipefail`, so that each stays runnable by itself as
# `tests/X/run.sh [PATH/TO/tupledb]`:
#
#   . "$(dirname "${BASH_SOURCE[0]}")/../lib/e2e.sh"
#   e2e_start NAME "$@"
#
# e2e_start sets
#   ROOT     the repository
#   bin      its first argument made absolute (default
#            build/release/tupledb)
#   PSQL     psql 15 ($PSQL overrides)
#   work     a fresh temporary directory, removed at exit
#   db       $work/db, the data directory (created by the first run)
#   passed, failed, skipped   the counters
# and at exit calls e2e_cleanup_more if the script defines one (for what
# else it started), stops $server_pid if the script started a server,
# and removes $work.
#
#   ok NAME                one passing check
#   fail NAME [DETAIL...]  one failing check, each DETAIL on a line
#   skip NAME              one check that could not run here
#   tdb ARGS...            the shell on $db, quiet, no psqlrc
#   e2e_require_bin        end at once, one failure, unless $bin runs
#   e2e_result             the closing line
#                            RESULT NAME_e2e: N passed, N failed, N skipped
#                          its status 0 when nothing failed (the script's
#                          exit status: it is the script's last command)

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

e2e_start() {
  e2e_name=$1
  bin=${2:-$ROOT/build/release/tupledb}
  bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
  PSQL=${PSQL:-/usr/lib/postgresql/15/bin/psql}
  work=$(mktemp -d "${TMPDIR:-/tmp}/tdb-$e2e_name.XXXXXX")
  server_pid=
  trap e2e_cleanup EXIT
  db=$work/db
  passed=0; failed=0; skipped=0
}

e2e_cleanup() {
  if declare -F e2e_cleanup_more >/dev/null; then e2e_cleanup_more; fi
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}

ok() { echo "  ok    $1"; passed=$((passed + 1)); }
fail() {
  echo "  FAIL  $1"; shift
  for line in "$@"; do echo "    $line"; done
  failed=$((failed + 1))
}
skip() { echo "  SKIP  $1"; skipped=$((skipped + 1)); }
tdb() { "$bin" -X -q "$db" "$@"; }

e2e_require_bin() {
  tdb -c "SELECT 1" >/dev/null 2>&1 && return 0
  echo "cannot run $bin"
  echo "RESULT ${e2e_name}_e2e: 0 passed, 1 failed, 0 skipped"
  exit 1
}

e2e_result() {
  echo "RESULT ${e2e_name}_e2e: $passed passed, $failed failed, $skipped skipped"
  [ "$failed" -eq 0 ]
}
