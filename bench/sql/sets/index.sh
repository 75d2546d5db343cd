# shellcheck shell=bash
# sets/index.sh -- bench/sql/run.sh's "index" workload set (issue 22,
# "Benchmark"; make bench-index): index builds and index writes in
# tupledb and PostgreSQL 15.
#
#   i4   N rows (k int4): k = 7919 i mod 10,000,019 (a prime), distinct
#        keys in scrambled order
#   i4d  N rows (k int4): the same k / 10, ten rows per key (deduplicated
#        into posting lists by both engines)
#   tx   N rows (k text COLLATE "C"): md5(i::text), 32 characters
#   wk, wp, wr  empty: (k int4), (k int4 PRIMARY KEY) twice
#   N = 10,000,000 (QUICK: 200,000)
#
# Queries (each run is undone by its qafter, untimed):
#   ci_int4, ci_int4_ser    CREATE INDEX ON i4 (k)
#   ci_int4dup              CREATE INDEX ON i4d (k)
#   ci_text, ci_text_ser    CREATE INDEX ON tx (k)
#   ins_nokey               INSERT 1M ascending int4 rows into wk
#   ins_pk, ins_pk_rand     ... into a table with an int4 PRIMARY KEY,
#                           ascending / scattered keys
# Every query runs at maintenance_work_mem 64MB (PostgreSQL 15's default)
# in both engines.  PostgreSQL builds with its default 2 parallel workers
# (max_parallel_maintenance_workers = 2; on this 2-vCPU machine it plans
# 2 for these tables) in the plain queries, and with none in the _ser
# ones; tupledb builds serially in both.  The text column has the "C"
# collation in both engines (the throwaway PostgreSQL is initdb'd with
# --locale=C too), so both compare bytes: like with like.
# set_describe builds each index once more in both engines and reports
# its size (pg_relation_size).

set_heading="## Index writes and builds (issue 22)"
set_raw_name=index-raw.txt
set_notes=$here/notes-index.md
set_perf_query=ci_int4
set_perf_runs=1
set_rows=10000000 set_quick_rows=200000
set_rounds=3 set_quick_rounds=1
set_profile=0
set_cg_desc="not measured"

ins_rows=1000000
[ "${QUICK:-0}" != 1 ] || ins_rows=100000

all_queries="ci_int4 ci_int4_ser ci_int4dup ci_text ci_text_ser ins_nokey ins_pk ins_pk_rand"
declare -A qsql=(
  [ci_int4]="CREATE INDEX i4_k ON i4 (k)"
  [ci_int4_ser]="CREATE INDEX i4_k ON i4 (k)"
  [ci_int4dup]="CREATE INDEX i4d_k ON i4d (k)"
  [ci_text]="CREATE INDEX tx_k ON tx (k)"
  [ci_text_ser]="CREATE INDEX tx_k ON tx (k)"
  [ins_nokey]="INSERT INTO wk SELECT g FROM generate_series(1, $ins_rows) g"
  [ins_pk]="INSERT INTO wp SELECT g FROM generate_series(1, $ins_rows) g"
  [ins_pk_rand]="INSERT INTO wr SELECT (g::int8 * 7919 % 1000003)::int4 FROM generate_series(1, $ins_rows) g"
)
for q in $all_queries; do qsetup[$q]="SET maintenance_work_mem = '64MB';"; done
qsetup_pg[ci_int4_ser]="SET max_parallel_maintenance_workers = 0;"
qsetup_pg[ci_text_ser]="SET max_parallel_maintenance_workers = 0;"
qafter[ci_int4]="DROP INDEX i4_k;"
qafter[ci_int4_ser]="DROP INDEX i4_k;"
qafter[ci_int4dup]="DROP INDEX i4d_k;"
qafter[ci_text]="DROP INDEX tx_k;"
qafter[ci_text_ser]="DROP INDEX tx_k;"
qafter[ins_nokey]="TRUNCATE wk;"
qafter[ins_pk]="TRUNCATE wp;"
qafter[ins_pk_rand]="TRUNCATE wr;"
# one timed run per session (plus the warm-up run)
for q in $all_queries; do qreps[$q]=1; done
declare -A qshort=(
  [ci_int4]="CREATE INDEX int4" [ci_int4_ser]="… PG serial"
  [ci_int4dup]="… int4, 10 dups/key" [ci_text]="CREATE INDEX text"
  [ci_text_ser]="… PG serial" [ins_nokey]="INSERT, no key"
  [ins_pk]="INSERT, PK asc" [ins_pk_rand]="INSERT, PK scattered"
)
declare -A qlong=(
  [ci_int4]="ci_int4: 10M scattered int4 keys, PostgreSQL with 2 parallel workers"
  [ci_int4_ser]="ci_int4_ser: the same, PostgreSQL serial"
  [ci_int4dup]="ci_int4dup: 10M int4, ten rows per key, PostgreSQL parallel"
  [ci_text]="ci_text: 10M md5 text keys (C collation), PostgreSQL parallel"
  [ci_text_ser]="ci_text_ser: the same, PostgreSQL serial"
  [ins_nokey]="ins_nokey: INSERT of 1M int4 rows, no index"
  [ins_pk]="ins_pk: the same with an int4 PRIMARY KEY, ascending keys"
  [ins_pk_rand]="ins_pk_rand: the same, scattered keys"
)
# issue 22: CREATE INDEX in at most half PostgreSQL's time, i.e. at least
# 2x its speed (the ratio is PostgreSQL / tupledb)
declare -A qtarget=([ci_int4]=2 [ci_int4_ser]=2 [ci_text]=2 [ci_text_ser]=2)
set_target_text="Target (issue 22): CREATE INDEX on 10M int4 and on 10M text keys in at most half PostgreSQL's time (ratio ≥ 2.00×), index sizes at most PostgreSQL's (the size table above)."

# set_load_sql N: the tables with N rows
set_load_sql() {
  cat <<SQL
CREATE TABLE i4 (k int4);
INSERT INTO i4 SELECT (g::int8 * 7919 % 10000019)::int4 FROM generate_series(1, $1) g;
CREATE TABLE i4d (k int4);
INSERT INTO i4d SELECT (g::int8 * 7919 % 10000019)::int4 / 10 FROM generate_series(1, $1) g;
CREATE TABLE tx (k text COLLATE "C");
INSERT INTO tx SELECT md5(g::text) FROM generate_series(1, $1) g;
CREATE TABLE wk (k int4);
CREATE TABLE wp (k int4 PRIMARY KEY);
CREATE TABLE wr (k int4 PRIMARY KEY);
VACUUM ANALYZE i4;
VACUUM ANALYZE i4d;
VACUUM ANALYZE tx;
SELECT count(*) FROM i4;
SELECT count(*) FROM i4d;
SELECT count(*) FROM tx;
SQL
}

set_cg_rows() { echo "$2"; }

# index_size ENGINE TABLE: build an index on TABLE (k) once, print its
# bytes, drop it
index_size() {
  local sql="SET maintenance_work_mem = '64MB'; CREATE INDEX size_probe ON $2 (k); SELECT pg_relation_size('size_probe'); DROP INDEX size_probe;"
  if [ "$1" = pg ]; then
    psql_run -At -c "$sql" | grep -E '^[0-9]+$'
  else
    printf '%s\n' "$sql" | "$tdb" -X -q -At "$work/tdb" | grep -E '^[0-9]+$'
  fi
}

set_describe() {
  local t s_t s_p
  printf 'Both engines hold the same tables, loaded with the same SQL through their own client (`INSERT ... SELECT ... FROM generate_series`), then `VACUUM ANALYZE` (and a `CHECKPOINT` in PostgreSQL): `i4`, %s rows `(k int4)` with k = 7919·i mod 10,000,019 (distinct keys in scrambled order); `i4d`, the same k ÷ 10 (ten rows per key); `tx`, %s rows `(k text COLLATE "C")` with k = md5(i::text). The INSERTs go into empty tables `wk (k int4)`, `wp` and `wr (k int4 PRIMARY KEY)`, truncated after each run. PostgreSQL 15 is initdb'"'"'d with `-k` (checksums) and `--locale=C`, `shared_buffers` 128MB (tupledb'"'"'s pool), fsync on in both; every query sets `maintenance_work_mem = '"'"'64MB'"'"'` (PostgreSQL'"'"'s default) in both. PostgreSQL'"'"'s CREATE INDEX runs with its default `max_parallel_maintenance_workers = 2` (2 workers plus the leader on this 2-vCPU machine, each sorting in a third of maintenance_work_mem), and with 0 in the `_ser` queries; tupledb'"'"'s build is serial. The last commit that changed tupledb'"'"'s code (`src/`) is %s.\n\n' \
    "$(bench_commas "$1")" "$(bench_commas "$1")" \
    "$(git -C "$root" log -1 --format='%h (%cs)' -- src)"
  printf '| index (pg_relation_size) | tupledb bytes | PostgreSQL 15 bytes | tupledb ÷ PostgreSQL |\n|---|---:|---:|---:|\n'
  for t in i4 i4d tx; do
    s_t=$(index_size tdb "$t")
    s_p=$(index_size pg "$t")
    printf '| `%s (k)` | %s | %s | %.3f |\n' "$t" "$(bench_commas "$s_t")" "$(bench_commas "$s_p")" \
      "$(echo "$s_t / $s_p" | bc -l)"
  done
  printf '\n'
}
