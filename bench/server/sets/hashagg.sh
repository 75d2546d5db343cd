# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154,SC2016 # run.sh sets $here and reads what the set defines; backquotes are markdown
# sets/hashagg.sh -- bench/server/run.sh's "hashagg" workload set (issue
# 8; make bench-hashagg-pgbench, and make bench-hashagg after the
# shell-timed set): c, wide and except of the pgsql-hackers thread
# "Reduce TupleHashEntryData struct size by half" as the thread measured
# them, transactions per second with pgbench, here through each engine's
# server:
#
#   c       SELECT a, count(*) FROM c GROUP BY a        (1,000 rows back)
#   wide    SELECT t, count(*) FROM wide GROUP BY t     (1,000 rows back)
#   except  SELECT t FROM wide EXCEPT SELECT t FROM wide_copy  (none)
#
# each a pgbench script of that one statement, -M prepared and -M simple,
# 1 client.  The tables and the SQL are bench/common/hashagg_workload.sh's,
# the same as the shell-timed set (bench/sql/sets/hashagg.sh) loads and
# runs, without big.  The figures go to a subsection of that set's section
# ("## Hash aggregation (issue 8)"), which its report keeps.

# shellcheck source=bench/common/hashagg_workload.sh
. "$here/../common/hashagg_workload.sh"

set_heading="## Hash aggregation (issue 8)"
set_subheading=$hashagg_pgbench_subheading
set_make="make bench-hashagg-pgbench"
set_raw_name=hashagg-pgbench-raw.txt
set_notes=$here/notes-hashagg.md
# data checksums, as the shell-timed set's PostgreSQL (tupledb checksums
# its pages too)
set_initdb_opts="-k"
# 12 runs a round (3 queries, 2 modes, 2 engines): about 8 minutes
set_rounds=7
set_time=6

set_load_sql() { hashagg_tables_sql 0; }
set_checks=("${hashagg_sql[c]}" "${hashagg_sql[wide]}" "${hashagg_sql[except]}")

declare -A script_sql=(
  [c]="${hashagg_sql[c]};"
  [wide]="${hashagg_sql[wide]};"
  [except]="${hashagg_sql[except]};"
)
declare -A script_desc=(
  [c]="c: \`${hashagg_sql[c]}\` (1,000 rows)"
  [wide]="wide: \`${hashagg_sql[wide]}\` (1,000 rows)"
  [except]="except: \`${hashagg_sql[except]}\` (no rows)"
)
# issue 8: ahead of PostgreSQL (tupledb / PostgreSQL tps above 1)
declare -A script_target=([c]=1 [wide]=1 [except]=1)
set_target_text="Targets (issue 8): on \`c\`, \`wide\` and \`except\`, ahead of PostgreSQL, that is tupledb ÷ PostgreSQL tps above 1 (the ratio of the medians), in each protocol mode."

# name  script  mode  clients
set_workloads="c_prepared c prepared 1
c_simple c simple 1
wide_prepared wide prepared 1
wide_simple wide simple 1
except_prepared except prepared 1
except_simple except simple 1"

set_describe() {
  printf '%s\n' "Both servers hold the thread's \`c\` (1,000 rows \`a int\`, 1 to 1000), \`wide\` and \`wide_copy\` (the same 1,000 rows \`repeat(md5(a::text), 10)\`, 320-byte texts), loaded through psql with the SQL of the shell-timed table above (bench/common/hashagg_workload.sh: the INSERTs, \`VACUUM FREEZE ANALYZE\`, a \`count(*)\` of each table), then a \`CHECKPOINT\` in PostgreSQL; both answer each query alike before anything is timed. A transaction is one query, its result rows (1,000, 1,000, none) sent to pgbench, which reads and discards them."
}
