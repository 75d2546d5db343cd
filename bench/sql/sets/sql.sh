# shellcheck shell=bash
# sets/sql.sh -- bench/sql/run.sh's default workload set (issue 5): the
# deform queries of the pgsql-hackers thread "Make tuple deformation
# faster" over 16-column tables, a filter, a join and a GROUP BY.
# Sourced by run.sh; README.md ("Workload sets") says what a set defines.

set_heading="## SQL queries (issue 5)"
set_raw_name=sql-raw.txt
set_notes=$here/notes.md
set_perf_query=deform_a

all_queries="deform_a deform_b deform_c filter join group"
declare -A qsql=(
  [deform_a]="SELECT sum(c16) FROM t16"
  [deform_b]="SELECT sum(c16) FROM t16_null1"
  [deform_c]="SELECT sum(c16) FROM t16_text"
  [filter]="SELECT count(*) FROM t16 WHERE c1 % 7 = 3"
  [join]="SELECT count(*) FROM jbig b JOIN jsmall s ON b.k = s.k"
  [group]="SELECT count(*), sum(s) FROM (SELECT c1 % 100000 AS g, sum(c2) AS s FROM t16 GROUP BY 1) x"
)
declare -A qshort=(
  [deform_a]="(a) no NULLs" [deform_b]="(b) c1 NULL" [deform_c]="(c) text c1"
  [filter]="filter" [join]="join" [group]="group by"
)
declare -A qlong=(
  [deform_a]="(a) 16 int4, no NULLs"
  [deform_b]="(b) c1 NULL in every row"
  [deform_c]="(c) text c1, then 15 int4"
)
# issue 5's target: each deform query at least 3x PostgreSQL's speed
declare -A qtarget=([deform_a]=3 [deform_b]=3 [deform_c]=3)
set_target_text="Target (issue 5): each deform query at least 3× PostgreSQL's speed on the same machine."

big_rows=100000 small_rows=10000

# deform_tables_sql N COLS: tCOLS, tCOLS_null1 and tCOLS_text with N rows
# of COLS columns -- all int4 without NULLs; c1 NULL in every row; a text
# c1 then int4 -- and their VACUUM ANALYZE.  COLS = 16 is the thread's
# table; the benchmark suite (bench/server/sets/suite.sh) also loads
# COLS = 64, its "48 extra columns" variant.
deform_tables_sql() {
  local n=$1 cols=$2 ints ints_tail vals vals_tail t
  ints=$(seq -s ', ' -f 'c%g int4' 1 "$cols")
  ints_tail=$(seq -s ', ' -f 'c%g int4' 2 "$cols")
  vals=$(seq -s ', ' -f 'g + %g' 0 $((cols - 1)))
  vals_tail=$(seq -s ', ' -f 'g + %g' 1 $((cols - 1)))
  cat <<SQL
CREATE TABLE t$cols ($ints);
INSERT INTO t$cols SELECT $vals FROM generate_series(1, $n) g;
CREATE TABLE t${cols}_null1 ($ints);
INSERT INTO t${cols}_null1 SELECT NULL::int4, $vals_tail FROM generate_series(1, $n) g;
CREATE TABLE t${cols}_text (c1 text, $ints_tail);
INSERT INTO t${cols}_text SELECT substr(md5(g::text), 1, 10 + g % 21), $vals_tail FROM generate_series(1, $n) g;
SQL
  for t in "t$cols" "t${cols}_null1" "t${cols}_text"; do echo "VACUUM ANALYZE $t;"; done
}

# set_load_sql N: the tables with N rows for the 16-column ones, as SQL
# that both engines run unchanged
set_load_sql() {
  deform_tables_sql "$1" 16
  cat <<SQL
CREATE TABLE jbig (k int4, v int4);
INSERT INTO jbig SELECT g, g FROM generate_series(1, $big_rows) g;
CREATE TABLE jsmall (k int4, w int4);
INSERT INTO jsmall SELECT g * 10, g FROM generate_series(1, $small_rows) g;
VACUUM ANALYZE jbig;
VACUUM ANALYZE jsmall;
SELECT count(*) FROM t16;
SELECT count(*) FROM t16_null1;
SELECT count(*) FROM t16_text;
SELECT count(*) FROM jbig;
SELECT count(*) FROM jsmall;
SQL
}

# set_cg_rows Q N: the rows callgrind's per-row figure of Q divides by,
# with N-row tables
set_cg_rows() {
  if [ "$1" = join ]; then echo "$big_rows"; else echo "$2"; fi
}

# set_describe ROWS: the report's paragraph on the tables (markdown, one
# line); run after loading, with PostgreSQL up
set_describe() {
  printf 'Both engines hold the same tables, loaded with the same SQL through their own client (%s-row `t16`, `t16_null1`, `t16_text`: 16 columns as in the pgsql-hackers thread "Make tuple deformation faster"; `jbig` %s rows and `jsmall` %s rows), then `VACUUM ANALYZE` (and a `CHECKPOINT` in PostgreSQL). `t16` is %s bytes in PostgreSQL, over a quarter of the 128 MB of shared buffers in both engines, so every scan reads it through a 256 kB ring from the OS page cache.\n' \
    "$(bench_commas "$1")" "$(bench_commas "$big_rows")" "$(bench_commas "$small_rows")" \
    "$(bench_commas "$(psql_run -At -c "SELECT pg_relation_size('t16')")")"
}
