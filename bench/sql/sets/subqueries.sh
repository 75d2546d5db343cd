# shellcheck shell=bash
# sets/subqueries.sh -- bench/sql/run.sh's "subqueries" workload set
# (issue 21, make bench-subqueries): EXISTS and NOT EXISTS nested in each
# other, in the shape of PostgreSQL's regression tests (self-joins of
# tenk1, 10,000 rows), which PostgreSQL answers at once by planning every
# level as a semi or anti join, and which tupledb ran for minutes while
# it left the nested levels as subplans re-run per row
# (src/optimizer/sublink.c).  The plans are checked (qshape): each query
# must be joins at every level, with no SubPlan.
#
#   tenk (unique1, unique2, two, ten, hundred, thousand): 10,000 rows,
#   unique1 = g, unique2 a permutation of 0..9999, the rest unique1
#   modulo 2, 10, 100, 1000 -- tenk1's columns of the same names

set_heading="## Nested EXISTS / NOT EXISTS (issue 21)"
set_raw_name=subqueries-raw.txt
set_notes=$here/notes-subqueries.md
set_perf_query=exists_not_exists
set_explain=1
set_rows=10000 set_quick_rows=10000
set_cg_desc="the same 10,000-row table"

all_queries="exists_not_exists not_exists_exists three_levels in_exists"
declare -A qsql=(
  [exists_not_exists]="SELECT count(*) FROM tenk a WHERE EXISTS (SELECT 1 FROM tenk b WHERE b.unique2 = a.unique1 AND NOT EXISTS (SELECT 1 FROM tenk c WHERE c.thousand = b.unique2))"
  [not_exists_exists]="SELECT count(*) FROM tenk a WHERE NOT EXISTS (SELECT 1 FROM tenk b WHERE b.unique2 = a.unique1 AND EXISTS (SELECT 1 FROM tenk c WHERE c.hundred = b.ten AND c.thousand = b.unique1))"
  [three_levels]="SELECT count(*) FROM tenk a WHERE EXISTS (SELECT 1 FROM tenk b WHERE b.unique1 = a.unique2 AND EXISTS (SELECT 1 FROM tenk c WHERE c.unique2 = b.thousand AND NOT EXISTS (SELECT 1 FROM tenk d WHERE d.hundred = c.ten AND d.unique1 = c.unique2)))"
  [in_exists]="SELECT count(*) FROM tenk a WHERE a.unique1 IN (SELECT b.unique2 FROM tenk b WHERE EXISTS (SELECT 1 FROM tenk c WHERE c.thousand = b.unique1 AND c.two = 0))"
)
declare -A qshort=(
  [exists_not_exists]="EXISTS (NOT EXISTS)"
  [not_exists_exists]="NOT EXISTS (EXISTS)"
  [three_levels]="EXISTS (EXISTS (NOT EXISTS))"
  [in_exists]="IN (EXISTS)"
)
declare -A qlong=()
# joins at every level: no subplan left in either engine's plan
declare -A qshape=(
  [exists_not_exists]='(Semi|Anti).*(Semi|Anti)'
  [not_exists_exists]='(Semi|Anti).*(Semi|Anti)'
  [three_levels]='(Semi|Anti).*(Semi|Anti).*(Semi|Anti)'
  [in_exists]='(Semi|Anti|Join).*(Semi|Anti)'
)
# at least as fast as PostgreSQL
declare -A qtarget=(
  [exists_not_exists]=1 [not_exists_exists]=1 [three_levels]=1 [in_exists]=1
)
set_target_text="Target (issue 21): every query planned as joins at every level (the plan shapes, checked) and at least as fast as PostgreSQL 15."

# set_load_sql N: tenk with N rows
set_load_sql() {
  cat <<SQL
CREATE TABLE tenk (unique1 int, unique2 int, two int, ten int, hundred int, thousand int);
INSERT INTO tenk SELECT g, (g::int8 * 7919) % $1, g % 2, g % 10, g % 100, g % 1000 FROM generate_series(0, $1 - 1) g;
VACUUM ANALYZE tenk;
SELECT count(*) FROM tenk;
SQL
}

set_cg_rows() { echo "$2"; }

set_describe() {
  printf 'Both engines hold the same table, loaded with the same SQL through their own client: `tenk` with %s rows in the shape of PostgreSQL'"'"'s regression table tenk1 (`unique1` 0..N-1, `unique2` a permutation of it, `two`, `ten`, `hundred`, `thousand` = `unique1` modulo 2, 10, 100, 1000), then `VACUUM ANALYZE`. Each query nests EXISTS / NOT EXISTS subqueries over self-joins of it.\n' \
    "$(bench_commas "$1")"
}
