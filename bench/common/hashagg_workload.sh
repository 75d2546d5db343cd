# shellcheck shell=bash
# hashagg_workload.sh -- issue 8's workload, sourced by the two harnesses
# that measure it: bench/sql/sets/hashagg.sh (each engine's own client,
# \timing; make bench-hashagg) and bench/server/sets/hashagg.sh (pgbench
# through each engine's server; make bench-hashagg-pgbench).  The tables
# and queries of the pgsql-hackers thread "Reduce TupleHashEntryData
# struct size by half", as Jeff Davis gave them there (shared/reference/
# threads/tuplehash-entry-size.txt):
#
#   c          1,000 rows a = 1..1000 (1,000 groups of one row)
#   wide       1,000 rows t = repeat(md5(a::text), 10) (320-byte text)
#   wide_copy  the same rows again
#   big        (i, j) = (g, 1) for g in 1..N: N groups of one row
#
# Defines
#   hashagg_sql[Q]          the SQL of c, wide, except and big (big's
#                           result rows counted and summed in the engine:
#                           sending 10M rows to a client would cost far
#                           more than the aggregation)
#   hashagg_tables_sql N    the SQL that loads the tables, big with N rows
#                           (none when N is 0), ending with VACUUM FREEZE
#                           ANALYZE and a count(*) of every table
#   hashagg_pgbench_subheading
#                           the "### " subsection of "## Hash aggregation
#                           (issue 8)" that the pgbench figures go to; the
#                           shell-timed report keeps it when it rewrites
#                           the section

# shellcheck disable=SC2034 # used by the sets that source this file
declare -A hashagg_sql=(
  [c]="SELECT a, count(*) FROM c GROUP BY a"
  [wide]="SELECT t, count(*) FROM wide GROUP BY t"
  [except]="SELECT t FROM wide EXCEPT SELECT t FROM wide_copy"
  [big]="SELECT count(*), sum(s) FROM (SELECT i, sum(j) AS s FROM big GROUP BY i) g"
)
# shellcheck disable=SC2034
hashagg_pgbench_subheading="### c, wide and except through each engine's server (pgbench)"

hashagg_tables_sql() {
  local t tables="c wide wide_copy"
  cat <<'SQL'
CREATE TABLE c (a int NOT NULL);
INSERT INTO c SELECT a FROM generate_series(1, 1000) a;
CREATE TABLE wide (t text NOT NULL);
INSERT INTO wide SELECT repeat(md5(a::text), 10) FROM generate_series(1, 1000) a;
CREATE TABLE wide_copy (t text NOT NULL);
INSERT INTO wide_copy SELECT * FROM wide;
SQL
  if [ "$1" -gt 0 ]; then
    printf '%s\n' "CREATE TABLE big (i int, j int);" \
      "INSERT INTO big SELECT g, 1 FROM generate_series(1, $1) g;"
    tables="$tables big"
  fi
  for t in $tables; do echo "VACUUM FREEZE ANALYZE $t;"; done
  for t in $tables; do echo "SELECT count(*) FROM $t;"; done
}
