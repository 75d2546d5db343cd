# shellcheck shell=bash
# sets/types.sh -- bench/sql/run.sh's "types" workload set (issue 6,
# "Benchmark"; make bench-types): numeric addition, multiplication,
# sum() and avg() and float8 arithmetic and output over 1M values.
# Sourced by run.sh; README.md ("Workload sets") says what a set defines.
#
# The table, identical in both engines because it is computed with exact
# arithmetic only (integer products modulo primes, numeric scaling, and
# an int8 divided by 2^32, which is exact in float8, times 1000, one
# correctly rounded product):
#
#   tnum (a numeric(12,2)   0 .. 1,000,000.06, 2 decimals
#         b numeric(10,4)   -50 .. 50.0002, 4 decimals
#         f float8)         0 .. 1000, 13 to 17 significant digits
#
# The float8 output queries: `sum(length(f::text))` measures the
# conversion to text alone (float8out and the text result, no client),
# `COPY (SELECT f FROM tnum) TO '/dev/null'` the whole output path of a
# dump (float8out, COPY's text escaping, buffered writes), both inside
# the server, so neither times a network or a client's printing.

set_heading="## Types (issue 6)"
set_raw_name=types-raw.txt
set_notes=$here/notes-types.md
set_perf_query=f8_text

all_queries="scan num_add num_mul num_sum num_avg f8_mul f8_text f8_copy"
declare -A qsql=(
  [scan]="SELECT count(f) FROM tnum"
  [num_add]="SELECT sum(a + b) FROM tnum"
  [num_mul]="SELECT sum(a * b) FROM tnum"
  [num_sum]="SELECT sum(a) FROM tnum"
  [num_avg]="SELECT avg(a) FROM tnum"
  [f8_mul]="SELECT sum(f * 1.5) FROM tnum"
  [f8_text]="SELECT sum(length(f::text)) FROM tnum"
  [f8_copy]="COPY (SELECT f FROM tnum) TO '/dev/null'"
)
declare -A qshort=(
  [scan]="scan (baseline)" [num_add]="numeric +" [num_mul]="numeric ×"
  [num_sum]="sum(numeric)" [num_avg]="avg(numeric)" [f8_mul]="float8 ×"
  [f8_text]="float8 → text" [f8_copy]="float8 COPY out"
)
declare -A qlong=()
declare -A qtarget=()
set_target_text=""

# set_load_sql N: tnum with N rows
set_load_sql() {
  cat <<SQL
CREATE TABLE tnum (a numeric(12,2), b numeric(10,4), f float8);
INSERT INTO tnum SELECT ((g::int8 * 7919) % 100000007) * 0.01, ((g::int8 * 104729) % 1000003) * 0.0001 - 50, ((g::int8 * 2654435761) % 4294967296)::float8 / 4294967296 * 1000 FROM generate_series(1, $1) g;
VACUUM ANALYZE tnum;
SELECT count(*) FROM tnum;
SQL
}

set_cg_rows() { echo "$2"; }

set_describe() {
  printf 'Both engines hold the same table, loaded with the same SQL through their own client: `tnum` with %s rows of `a numeric(12,2)` (0 to 1,000,000, 2 decimals), `b numeric(10,4)` (−50 to 50, 4 decimals) and `f float8` (0 to 1000, 13 to 17 significant digits), computed from `generate_series` with exact arithmetic only, so the values are the same bits in both (%s bytes in PostgreSQL); then `VACUUM ANALYZE` (and a `CHECKPOINT` in PostgreSQL). `scan` reads the rows and nothing else (tupledb on its batched path for simple aggregates, which the other queries cannot take: see "Reading the figures"). float8 output is measured inside the engine, with no client in the way: `sum(length(f::text))` is the conversion to text alone, `COPY ... TO '"'"'/dev/null'"'"'` the whole path of a dump (conversion, COPY'"'"'s text escaping, buffered writes).\n' \
    "$(bench_commas "$1")" "$(bench_commas "$(psql_run -At -c "SELECT pg_relation_size('tnum')")")"
}
