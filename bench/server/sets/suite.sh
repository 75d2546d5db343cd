# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154,SC2016,SC2031 # run.sh sets $here, $root, $QUICK and $WORKLOADS and reads what the set defines; backquotes are markdown
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
#            deform_a48/b48/c48  the same three with 48 extra int4
#                           columns: 1M rows x 64 columns, sum(c64)
#   hashagg  hashagg_c/wide/except/big   bench/common/hashagg_workload.sh's
#                           (big: 10M groups at the default work_mem 4MB,
#                           spilling; hashagg_bigmem: at 4GB, in memory)
#   sort     sort_pow2      bench/sql/sets/sort.sh's pow2: 10M 64-byte
#                           tuples ORDER BY a OFFSET 10000000, work_mem 64MB
#            sort_k64       its k64: 5M rows ORDER BY k OFFSET 5000000, 64MB
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
# QUICK=1 loads smaller tables (deform 100,000 rows, big 200,000, sort's
# s 200,000 and p 400,000); the sort queries then get work_mem 4MB so
# that they still spill (sort.sh's rule).

# shellcheck source=bench/common/hashagg_workload.sh
. "$here/../common/hashagg_workload.sh"

set_heading="## Benchmark suite (issue 11)"
set_make="make bench"
set_raw_name=suite-raw.txt
set_chart=bench/suite-ratios.png
# perf stat of the server side per workload, after the timed rounds
set_perf=1
# data checksums on in PostgreSQL too: tupledb always writes and verifies
# them (a page read from the OS cache is checked in both engines)
set_initdb_opts="-k"
set_notes=$here/notes-suite.md
# 38 workloads x 2 engines x 3 rounds x 5 s (longer for the slow ones):
# about 25 minutes of runs
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
# sql_script SET Q: a pgbench script of that set's query Q, its SETs as
# the transaction's first statements, one per line (pgbench sends each
# line's statement on its own)
sql_script() { printf '%s\n%s;' "$(sql_setup "$1" "$2" | sed 's/; */;\n/g')" "$(sql_query "$1" "$2")"; }

# table sizes: QUICK=1 loads smaller ones
deform_rows_full=1000000 deform_rows_quick=100000
big_rows_full=10000000 big_rows_quick=200000
sort_rows_full=5000000 sort_rows_quick=200000
deform_rows=$deform_rows_full big_rows=$big_rows_full sort_rows=$sort_rows_full
if [ "${QUICK:-0}" = 1 ]; then
  deform_rows=$deform_rows_quick big_rows=$big_rows_quick sort_rows=$sort_rows_quick
fi

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
# the 48-extra-column variants: the same queries over the 64-column tables
declare -A deform48_what=([a]="64 int4, no NULLs" [b]="c1 NULL, 64 columns" [c]="text c1, then 63 int4")
for q in a b c; do
  sql=$(sql_query sql "deform_$q" | sed 's/\bc16\b/c64/; s/\bt16/t64/')
  script_sql[deform_${q}48]="$sql;"
  script_desc[deform_${q}48]="deform ($q), 48 extra columns: \`$sql\` (${deform48_what[$q]})"
done
for q in c wide except big; do
  script_sql[hashagg_$q]="${hashagg_sql[$q]};"
  script_desc[hashagg_$q]="hashagg $q: \`${hashagg_sql[$q]}\`"
done
script_desc[hashagg_big]+=" (10M groups, work_mem 4MB: spills)"
script_sql[hashagg_bigmem]="SET work_mem = '4GB';
${hashagg_sql[big]};"
script_desc[hashagg_bigmem]="hashagg big, work_mem 4GB (10M groups in memory)"
declare -A sort_what=([pow2]="p's 64-byte tuples by bigint" [k64]="s by bigint")
for q in pow2 k64; do
  script_sql[sort_$q]=$(sql_script sort "$q")
  script_desc[sort_$q]="sort $q: ${sort_what[$q]}, \`$(sql_query sort "$q")\`, work_mem $(sql_set sort eval 'printf %s "$wm"')"
done
declare -A toast_what=([nli]="nested loop, toasted inner" [nlo]="nested loop, toasted outer"
  [init]="InitPlan parameter" [sort]="1,000 rows sorted by the toasted value")
for q in nli nlo init sort; do
  sql=$(sql_query toast "${q}_ext")
  script_sql[toast_$q]=$(sql_script toast "${q}_ext")
  script_desc[toast_$q]="toast $q: ${toast_what[$q]}"
done
unset q sql

# name  script  mode  clients
set_workloads=$(for s in point_select1 point_small deform_a deform_b deform_c \
                       deform_a48 deform_b48 deform_c48 \
                       hashagg_c hashagg_wide hashagg_except hashagg_big hashagg_bigmem \
                       sort_pow2 sort_k64 \
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
  if selected deform; then
    sql_set sql deform_tables_sql "$deform_rows" 16
    sql_set sql deform_tables_sql "$deform_rows" 64
  fi
  if selected hashagg; then hashagg_tables_sql "$big_rows"; fi
  # sort.sh loads the tables of the queries in $queries
  if selected sort; then sql_set sort eval "queries='pow2 k64'; set_load_sql $sort_rows"; fi
  if selected toast; then sql_set toast set_load_sql 1000; fi
}

set_prepare() {
  local s
  set_checks=()
  for s in $(awk '{ print $2 }' <<<"$WORKLOADS" | sort -u); do
    case $s in
      point_small) set_checks+=("SELECT count(*) || ' ' || sum(id) FROM small WHERE id BETWEEN 500 AND 509") ;;
      deform_*|hashagg_[cwe]*) set_checks+=("${script_sql[$s]%;}") ;;
      # the big tables: their contents (the queries take seconds)
      hashagg_big*) set_checks+=("SELECT count(*), sum(i), sum(j) FROM big") ;;
      sort_pow2) set_checks+=("SELECT count(*), sum(a), sum(f) FROM p") ;;
      sort_k64) set_checks+=("SELECT count(*), sum(k), sum(length(pad)) FROM s") ;;
    esac
  done
}

set_describe() {
  # the sizes of the run recorded (a report rebuilt from a QUICK run's raw
  # records says QUICK's)
  local rows=$deform_rows_full big=$big_rows_full srows=$sort_rows_full
  if grep -qx 'cfg quick=1' "$raw"; then
    rows=$deform_rows_quick big=$big_rows_quick srows=$sort_rows_quick
  fi
  printf '%s\n' "Each workload is one pgbench script run by every engine, \`-M simple\` and \`-M prepared\`, 1 client. Tables, loaded through psql with the same SQL in all: \`small\` (1,000 rows, no index); \`t16\`, \`t16_null1\`, \`t16_text\` ($(bench_commas "$rows") rows of 16 columns, bench/sql/sets/sql.sh) and \`t64\`, \`t64_null1\`, \`t64_text\` (the same with 48 extra int4 columns); \`c\`, \`wide\`, \`wide_copy\` (1,000 rows) and \`big\` ($(bench_commas "$big") rows \`(i, j) = (g, 1)\`, as many groups; bench/common/hashagg_workload.sh); \`p\` ($(bench_commas $((srows * 2))) rows of six bigint columns, a 64-byte MinimalTuple) and \`s\` ($(bench_commas "$srows") rows \`(k bigint, pad text)\`, scrambled keys; bench/sql/sets/sort.sh); \`outer_t\` (1,000 rows) and \`toasted\` (one 640,000-character EXTERNAL value, bench/sql/sets/toast.sh). A script's \`SET\`s (the toast scripts' \`enable_hashjoin = off\`, \`enable_mergejoin = off\` and, for the toast sort, \`work_mem = '1GB'\`; the sorts' work_mem; hashagg bigmem's \`work_mem = '4GB'\`) are their own statements at the start of each transaction. A query that takes seconds completes few transactions in a run: below 1 tps the milliseconds per transaction are the figure to read, and they are coarse."
}
