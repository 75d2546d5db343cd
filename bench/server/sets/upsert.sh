# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154,SC2016 # run.sh sets $here and reads what the set defines; backquotes are markdown
# sets/upsert.sh -- bench/server/run.sh's "upsert" workload set (issue 22;
# make bench-upsert):
# INSERT ... ON CONFLICT DO UPDATE through each engine's server.
#
#   upsert  \set k random(1, 100000)
#           INSERT INTO up VALUES (:k, 1) ON CONFLICT (k)
#             DO UPDATE SET v = up.v + 1
#           on up (k int4 PRIMARY KEY, v int4) with 100,000 rows: every
#           transaction finds its key and updates the row
#   upsert_mix  the same with k random(1, 200000) on a table of the odd
#           keys up to 200,000: about half insert, half update
#
# -M simple and -M prepared, 1 client.  Each run changes the tables, and
# the engines alternate, so each sees the same kind of history.

set_heading="## Upsert (issue 22)"
set_make="make bench-upsert"
set_raw_name=upsert-raw.txt
set_notes=$here/notes-upsert.md
set_initdb_opts="-k"
set_rounds=3
set_time=10

set_load_sql() {
  cat <<'SQL'
CREATE TABLE up (k int4 PRIMARY KEY, v int4);
INSERT INTO up SELECT g, 0 FROM generate_series(1, 100000) g;
CREATE TABLE upmix (k int4 PRIMARY KEY, v int4);
INSERT INTO upmix SELECT g, 0 FROM generate_series(1, 200000, 2) g;
VACUUM ANALYZE up;
VACUUM ANALYZE upmix;
SQL
}
set_checks=("SELECT count(*) || ' ' || sum(k) FROM up" "SELECT count(*) || ' ' || sum(k) FROM upmix")

declare -A script_sql=(
  [upsert]='\set k random(1, 100000)
INSERT INTO up VALUES (:k, 1) ON CONFLICT (k) DO UPDATE SET v = up.v + 1;'
  [upsert_mix]='\set k random(1, 200000)
INSERT INTO upmix VALUES (:k, 1) ON CONFLICT (k) DO UPDATE SET v = upmix.v + 1;'
)
declare -A script_desc=(
  [upsert]='`INSERT INTO up VALUES (:k, 1) ON CONFLICT (k) DO UPDATE SET v = up.v + 1`, k random in 1..100000 (all updates)'
  [upsert_mix]='the same on upmix, k random in 1..200000 (half inserts)'
)

# name  script  mode  clients
set_workloads="upsert_simple upsert simple 1
upsert_prepared upsert prepared 1
upsert_mix_simple upsert_mix simple 1
upsert_mix_prepared upsert_mix prepared 1"
