# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154,SC2016 # run.sh sets $here, $root, $QUICK and $WORKLOADS and reads what the set defines; backquotes are markdown
# sets/suite.sh -- bench/server/run.sh's "suite" workload set (issue 11;
# make bench): the workloads of the pgsql-hackers threads tupledb's design
# comes from, side by side through each engine's server, every one with
# pgbench -M simple and -M prepared, 1 client.  Groups (TDB_BENCH_ONLY
# takes a group, a script or a workload name):
#
#   point    point_select1  SELECT 1
#            point_small    10 of 1,000 rows (roundtrip.sh's `small`)
#   deform   deform_a/b/c   SELECT sum(c16) over 1M rows x 16 int4: no
#                           NULLs; c1 NULL; a text c1 then 15 int4 (the
#                           tables and queries of bench/sql/sets/sql.sh)
#   hashagg  hashagg_c/wide/except   bench/common/hashagg_workload.sh's
#   toast    toast_nli/nlo/init/sort the ~640 kB EXTERNAL value and the
#                           1,000-row outer table of bench/sql/sets/toast.sh,
#                           with its plan-forcing SETs as the script's
#                           first statements (a transaction is the SETs
#                           and the query)
#
# The SQL is not copied here: the shell-timed sets are sourced in a
# subshell (sql_set) and asked for their tables and queries, so that a
# change there changes this set too.
#
# Not in this increment: the 48-extra-column deform variants, hash
# aggregation's `big`, the sort workloads (power-of-two tuples, 5M-row
# ORDER BY k OFFSET: bench/sql/sets/sort.sh, make bench-sort).

# shellcheck source=bench/common/hashagg_workload.sh
. "$here/../common/hashagg_workload.sh"

set_heading="## Benchmark suite (issue 11)"
set_make="make bench"
set_raw_name=suite-raw.txt
set_chart=bench/suite-ratios.png
# perf stat of the server side per workload, after the timed rounds
set_perf=1
set_notes=$here/notes-suite.md
# 24 workloads x 2 engines x 3 rounds x 5 s: about 12 minutes of runs
set_rounds=3
set_time=5

# sql_set SET CMD...: CMD in a subshell that has sourced
# bench/sql/sets/SET.sh (its variables stay there)
sql_set() {
  local set=$1
  shift
  (
    here=$root/bench/sql
    # shellcheck disable=SC1090
    . "$here/sets/$set.sh"
    "$@"
  )
}
# sql_query SET Q: that set's qsql[Q]
sql_query() { sql_set "$1" eval "printf '%s' \"\${qsql[$2]}\""; }
# sql_setup SET Q: that set's qsetup[Q] (the SETs a session runs first)
sql_setup() { sql_set "$1" eval "printf '%s' \"\${qsetup[$2]:-}\""; }

# deform rows: QUICK=1 loads a tenth
deform_rows_full=1000000 deform_rows_quick=100000
deform_rows=$deform_rows_full
[ "${QUICK:-0}" != 1 ] || deform_rows=$deform_rows_quick

declare -A script_sql=() script_desc=()
script_sql[point_select1]='SELECT 1;'
script_desc[point_select1]='point: `SELECT 1`'
script_sql[point_small]='\set id random(1, 990)
SELECT id, v, n FROM small WHERE id BETWEEN :id AND :id + 9;'
script_desc[point_small]='point: 10 of 1,000 rows (`small`, no index)'
for q in a b c; do
  sql=$(sql_query sql "deform_$q")
  script_sql[deform_$q]="$sql;"
  script_desc[deform_$q]="deform ($q): \`$sql\`"
done
script_desc[deform_a]+=" (16 int4, no NULLs)"
script_desc[deform_b]+=" (c1 NULL)"
script_desc[deform_c]+=" (text c1, then 15 int4)"
for q in c wide except; do
  script_sql[hashagg_$q]="${hashagg_sql[$q]};"
  script_desc[hashagg_$q]="hashagg $q: \`${hashagg_sql[$q]}\`"
done
declare -A toast_what=([nli]="nested loop, toasted inner" [nlo]="nested loop, toasted outer"
  [init]="InitPlan parameter" [sort]="1,000 rows sorted by the toasted value")
for q in nli nlo init sort; do
  sql=$(sql_query toast "${q}_ext")
  # one SET per line: pgbench sends each line's statement on its own
  script_sql[toast_$q]="$(sql_setup toast "${q}_ext" | sed 's/; */;\n/g')
$sql;"
  script_desc[toast_$q]="toast $q: ${toast_what[$q]}"
done
unset q sql

# name  script  mode  clients
set_workloads=$(for s in point_select1 point_small deform_a deform_b deform_c \
                       hashagg_c hashagg_wide hashagg_except \
                       toast_nli toast_nlo toast_init toast_sort; do
  for m in simple prepared; do echo "${s}_$m $s $m 1"; done
done)

# a group is loaded (and checked) only when one of its workloads runs
selected() { awk -v g="$1" '$2 ~ "^" g "_" { found = 1 } END { exit !found }' <<<"$WORKLOADS"; }

set_load_sql() {
  if selected point; then
    printf '%s\n' "CREATE TABLE small (id int4, v text, n int4);" \
      "INSERT INTO small SELECT g, 'value ' || g, g % 7 FROM generate_series(1, 1000) g;" \
      "VACUUM ANALYZE small;"
  fi
  if selected deform; then sql_set sql set_load_sql "$deform_rows"; fi
  if selected hashagg; then hashagg_tables_sql 0; fi
  if selected toast; then sql_set toast set_load_sql 1000; fi
}

set_prepare() {
  local s
  set_checks=()
  for s in $(awk '{ print $2 }' <<<"$WORKLOADS" | sort -u); do
    case $s in
      point_small) set_checks+=("SELECT count(*) || ' ' || sum(id) FROM small WHERE id BETWEEN 500 AND 509") ;;
      deform_*|hashagg_*) set_checks+=("${script_sql[$s]%;}") ;;
    esac
  done
}

set_describe() {
  # the rows of the run recorded (a report rebuilt from a QUICK run's raw
  # records says QUICK's)
  local rows=$deform_rows_full
  ! grep -qx 'cfg quick=1' "$raw" || rows=$deform_rows_quick
  printf '%s\n' "Each workload is one pgbench script run by both engines, \`-M simple\` and \`-M prepared\`, 1 client. Tables, loaded through psql with the same SQL in both: \`small\` (1,000 rows, no index); \`t16\`, \`t16_null1\`, \`t16_text\` ($(bench_commas "$rows") rows of 16 columns, bench/sql/sets/sql.sh); \`c\`, \`wide\`, \`wide_copy\` (1,000 rows, bench/common/hashagg_workload.sh); \`outer_t\` (1,000 rows) and \`toasted\` (one 640,000-character EXTERNAL value, bench/sql/sets/toast.sh). The toast scripts first run \`SET enable_hashjoin = off\`, \`SET enable_mergejoin = off\` (and, for the sort, \`SET work_mem = '1GB'\`) as their own statements of each transaction. A query that takes seconds (PostgreSQL's toast sort) completes few transactions in a run, so its tps is coarse. Not in this increment: the 48-extra-column deform tables, hash aggregation's \`big\`, the sort workloads (make bench-sort)."
}
