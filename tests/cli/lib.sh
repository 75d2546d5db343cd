# shellcheck shell=bash
# lib.sh -- sourced by run.sh and capture.sh: run one end-to-end case.
#
#   run_case CASE BINDIR OUT
#
# runs tests/cli/cases/CASE.sh with bash in a fresh temporary directory
# holding copies of the cases' .sql files, with BINDIR first in PATH (it
# holds the `tupledb` to test: our binary, or real psql under that name),
# and writes OUT:
#
#   <what the case printed on stdout>
#   --- stderr ---
#   <what it printed on stderr>
#   --- exit N ---
#
# "Time: 1.234 ms" lines (\timing) become "Time: N ms", the only thing
# that may differ from run to run.  The environment the client sees is
# fixed (no psqlrc, no history file, C locale, UTF-8).

CLI_CASES=$(cd "$(dirname "${BASH_SOURCE[0]}")/cases" && pwd)

run_case() {
  local name=$1 bindir=$2 out=$3 dir rc
  dir=$(mktemp -d "${TMPDIR:-/tmp}/tdb-cli-case.XXXXXX")
  cp "$CLI_CASES"/*.sql "$dir"/
  (
    cd "$dir" || exit 99
    export PATH="$bindir:$PATH" PSQLRC=/dev/null LC_ALL=C.UTF-8 \
           PSQL_HISTORY=/dev/null TUPLEDB_HISTORY=/dev/null
    bash "$CLI_CASES/$name.sh" > "$dir/.stdout" 2> "$dir/.stderr" < /dev/null
    echo $? > "$dir/.rc"
  )
  rc=$(cat "$dir/.rc")
  {
    sed -E 's/^Time: [0-9]+\.[0-9]{3} ms.*$/Time: N ms/' "$dir/.stdout"
    echo "--- stderr ---"
    sed -E 's/^Time: [0-9]+\.[0-9]{3} ms.*$/Time: N ms/' "$dir/.stderr"
    echo "--- exit $rc ---"
  } > "$out"
  rm -rf "$dir"
}
