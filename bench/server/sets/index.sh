# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154,SC2016 # run.sh sets $here and $QUICK and reads what the set defines; backquotes are markdown
# sets/index.sh -- bench/server/run.sh's "index" workload set (issue 22;
# make bench-index-scan): reads through a B-tree, side by side through
# each engine's server.
#
#   point     \set id random(1, N)
#             SELECT bal FROM acct WHERE id = :id      (a primary key
#             lookup on N = 10M rows), -M simple / -M prepared, 1 client
#   range     SELECT sum(bal) FROM acct
#               WHERE id BETWEEN :id AND :id + 999     (1,000 rows by the
#             index: Index Scan), -M prepared
#   ioscount  SELECT count(*) FROM acct
#               WHERE id BETWEEN :id AND :id + 999     (Index Only Scan of
#             an all-visible table), -M prepared
#   orderlim  SELECT id, bal FROM acct ORDER BY id LIMIT 10
#             (the first rows of the index, no sort), -M prepared
#   pgbench_S pgbench's select-only transaction on the tables of
#             `pgbench -i -s 10` (created with COPY, primary keys added by
#             ALTER TABLE, VACUUMed -- through each engine's server):
#             SELECT abalance FROM pgbench_accounts WHERE aid = :aid,
#             -M simple and -M prepared, 1 and 2 clients
#
# acct (id int4 PRIMARY KEY, bal int4, filler char(84)): pgbench_accounts'
# row, 10M rows (QUICK=1: 1M), loaded before its primary key is added,
# then VACUUM ANALYZE, so both engines read an all-visible table.

set_heading="## Index scans (issue 22)"
set_make="make bench-index-scan"
set_raw_name=index-raw.txt
set_notes=$here/notes-index.md
# perf stat of the server side: CPU time per transaction
set_perf=1
set_initdb_opts="-k"
set_rounds=3
set_time=10

acct_rows=10000000
[ "${QUICK:-0}" = 1 ] && acct_rows=1000000

set_describe() {
  printf '%s' "acct: $acct_rows rows (id int4 PRIMARY KEY, bal int4, filler char(84)), loaded then keyed by ALTER TABLE, VACUUM ANALYZE; pgbench_accounts of \`pgbench -i -s 10\` (1M rows)."
}

set_load_sql() {
  cat <<SQL
CREATE TABLE acct (id int4 NOT NULL, bal int4 NOT NULL, filler char(84));
INSERT INTO acct SELECT g, g % 1000, '' FROM generate_series(1, $acct_rows) g;
ALTER TABLE acct ADD PRIMARY KEY (id);
VACUUM ANALYZE acct;
SQL
}

# pgbench -i -s 10 through the engine's server, after the SQL load
set_load_engine() {
  local eng=$1
  # shellcheck disable=SC2046 # conn_args is a list of options
  as_pg "$PGBENCH" -i -s 10 -q $(conn_args "$eng")
}

set_checks=(
  "SELECT count(*) || ' ' || sum(bal) FROM acct WHERE id BETWEEN 5000 AND 5999"
  "SELECT count(*) || ' ' || sum(abalance) || ' ' || max(aid) FROM pgbench_accounts"
  "SELECT string_agg(id::text, ',') FROM (SELECT id FROM acct ORDER BY id LIMIT 10) s"
)

declare -A script_sql=(
  [point]="\\set id random(1, $acct_rows)
SELECT bal FROM acct WHERE id = :id;"
  [range]="\\set id random(1, $((acct_rows - 999)))
SELECT sum(bal) FROM acct WHERE id BETWEEN :id AND :id + 999;"
  [ioscount]="\\set id random(1, $((acct_rows - 999)))
SELECT count(*) FROM acct WHERE id BETWEEN :id AND :id + 999;"
  [orderlim]='SELECT id, bal FROM acct ORDER BY id LIMIT 10;'
  [pgbench_S]='\set aid random(1, 1000000)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;'
)
declare -A script_desc=(
  [point]="primary key lookup, $acct_rows rows"
  [range]='1,000 rows by the index'
  [ioscount]='count(*) of 1,000 keys (index only)'
  [orderlim]='`ORDER BY id LIMIT 10`'
  [pgbench_S]='`pgbench -S` (scale 10)'
)

# name  script  mode  clients
set_workloads="point_simple_c1 point simple 1
point_prepared_c1 point prepared 1
range_prepared_c1 range prepared 1
ioscount_prepared_c1 ioscount prepared 1
orderlim_prepared_c1 orderlim prepared 1
pgbench_S_simple_c1 pgbench_S simple 1
pgbench_S_prepared_c1 pgbench_S prepared 1
pgbench_S_simple_c2 pgbench_S simple 2
pgbench_S_prepared_c2 pgbench_S prepared 2"

set_load_desc_sql="acct: INSERT … SELECT of the rows, ALTER TABLE … ADD PRIMARY KEY, VACUUM ANALYZE"
set_load_desc_engine='`pgbench -i -s 10 -q` (COPY, primary keys, VACUUM)'
