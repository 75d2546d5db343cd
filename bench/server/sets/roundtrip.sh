# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154,SC2016 # run.sh sets $here and reads what the set defines; backquotes are markdown
# sets/roundtrip.sh -- bench/server/run.sh's default workload set (issue
# 7; make bench-server): round trips.
#
#   select1  SELECT 1, -M simple / -M prepared, 1 client and 2 clients
#   small    \set id random(1, 990)
#            SELECT id, v, n FROM small WHERE id BETWEEN :id AND :id + 9
#            (10 of 1000 rows), -M simple / -M prepared, 1 client
#
# on small (id int4, v text, n int4) with 1000 rows and no index (tupledb
# has none yet, so PostgreSQL does not get one either); plus the memory of
# idle connections and the system calls per transaction.

set_heading="## Server round trips (issue 7)"
set_make="make bench-server"
set_raw_name=server-raw.txt
set_notes=$here/notes-roundtrip.md
set_conn_memory=1
set_conn_memory_sql="SELECT count(*) FROM small"
set_strace=1

set_load_sql() {
  cat <<'SQL'
CREATE TABLE small (id int4, v text, n int4);
INSERT INTO small SELECT g, 'value ' || g, g % 7 FROM generate_series(1, 1000) g;
VACUUM ANALYZE small;
SQL
}
set_checks=("SELECT count(*) || ' ' || sum(id) FROM small WHERE id BETWEEN 500 AND 509")

declare -A script_sql=(
  [select1]='SELECT 1;'
  [small]='\set id random(1, 990)
SELECT id, v, n FROM small WHERE id BETWEEN :id AND :id + 9;'
)
declare -A script_desc=([select1]='`SELECT 1`' [small]='10 of 1000 rows')

# name  script  mode  clients
set_workloads="select1_simple_c1 select1 simple 1
select1_prepared_c1 select1 prepared 1
select1_simple_c2 select1 simple 2
select1_prepared_c2 select1 prepared 2
small_simple_c1 small simple 1
small_prepared_c1 small prepared 1"
