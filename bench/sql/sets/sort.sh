# shellcheck shell=bash
# sets/sort.sh -- bench/sql/run.sh's "sort" workload set (issue 9,
# "Benchmark"; make bench-sort): ORDER BY in tupledb and PostgreSQL 15.
#
#   s   N rows (k bigint, pad text): k = 7919 i mod 5,000,011 (a prime),
#       so N distinct keys in scrambled order; pad = md5(i::text), 32
#       characters.  N = 5,000,000 (QUICK: 200,000).
#   sn  the same N rows as (n numeric, pad text) with n = k * 1.001:
#       scrambled numerics of up to 7 integer digits and 3 decimals.
#   p   2N rows of six bigint columns, no NULLs (a = 7919 i mod
#       10,000,019, a prime; b..f = i): a MinimalTuple of exactly 64
#       bytes, the power-of-two case of the pgsql-hackers thread
#       "Reducing chunk header sizes on all memory context types"
#       (notes-sort.md has the arithmetic).  10,000,000 rows (QUICK:
#       400,000).
#
# Queries (the OFFSET is at least the table's rows, so each sorts every
# row and sends none to the client; limit sends 10):
#   pow2            SELECT * FROM p ORDER BY a OFFSET 10000000, work_mem 64MB
#                   (QUICK: 4MB, as for every "64MB" query, so that the
#                   small tables still spill)
#   k64, k1g        SELECT * FROM s ORDER BY k OFFSET 5000000, 64MB / 1GB
#   text64, text1g  the same ORDER BY pad (a text key, C collation)
#   num64, num1g    SELECT * FROM sn ORDER BY n OFFSET 5000000
#   limit           SELECT * FROM s ORDER BY k LIMIT 10 (top-N), 64MB
#
# set_trace=1: each query once more in both engines with trace_sort on;
# the report counts runs and tuples per run from the LOG lines
# (PostgreSQL's "finished writing run N to tape M", tupledb's "finished
# writing run N: T tuples, B bytes" once its tuplesort logs them), and
# shows EXPLAIN ANALYZE's Sort Method of both.  Only the tables the chosen
# queries read are loaded (TDB_BENCH_ONLY=pow2 loads p alone).

set_heading="## Sorting (issue 9)"
set_raw_name=sort-raw.txt
set_notes=$here/notes-sort.md
set_perf_query=k64
set_perf_runs=1
set_explain=1
set_trace=1
set_rows=5000000 set_quick_rows=200000
set_rounds=3 set_quick_rounds=1
# callgrind and perf on request (TDB_BENCH_PROFILE=1): they add minutes
set_profile=0
set_cg_desc="copies of the tables with 100,000 rows (p: 200,000)"

# QUICK's tables fit in 64MB, so its "64MB" queries get 4MB instead and
# still spill (the report names the work_mem each query ran with)
wm=64MB
[ "${QUICK:-0}" != 1 ] || wm=4MB

all_queries="pow2 k64 k1g text64 text1g num64 num1g limit"
declare -A qsql=(
  [pow2]="SELECT * FROM p ORDER BY a OFFSET 10000000"
  [k64]="SELECT * FROM s ORDER BY k OFFSET 5000000"
  [k1g]="SELECT * FROM s ORDER BY k OFFSET 5000000"
  [text64]="SELECT * FROM s ORDER BY pad OFFSET 5000000"
  [text1g]="SELECT * FROM s ORDER BY pad OFFSET 5000000"
  [num64]="SELECT * FROM sn ORDER BY n OFFSET 5000000"
  [num1g]="SELECT * FROM sn ORDER BY n OFFSET 5000000"
  [limit]="SELECT * FROM s ORDER BY k LIMIT 10"
)
declare -A qsetup=(
  [pow2]="SET work_mem = '$wm';"
  [k64]="SET work_mem = '$wm';" [k1g]="SET work_mem = '1GB';"
  [text64]="SET work_mem = '$wm';" [text1g]="SET work_mem = '1GB';"
  [num64]="SET work_mem = '$wm';" [num1g]="SET work_mem = '1GB';"
  [limit]="SET work_mem = '$wm';"
)
# seconds per run: one timed run per session (the top-N query three)
declare -A qreps=([pow2]=1 [k64]=1 [k1g]=1 [text64]=1 [text1g]=1 [num64]=1 [num1g]=1 [limit]=3)
declare -A qshort=(
  [pow2]="pow2" [k64]="k, $wm" [k1g]="k, 1GB" [text64]="text, $wm" [text1g]="text, 1GB"
  [num64]="numeric, $wm" [num1g]="numeric, 1GB" [limit]="k LIMIT 10"
)
declare -A qlong=(
  [pow2]="pow2: 64-byte MinimalTuples by bigint, work_mem $wm"
  [k64]="k64: s by bigint, $wm" [k1g]="k1g: s by bigint, 1GB"
  [text64]="text64: s by 32-byte text, $wm" [text1g]="text1g: s by 32-byte text, 1GB"
  [num64]="num64: sn by numeric, $wm" [num1g]="num1g: sn by numeric, 1GB"
  [limit]="limit: top 10 of s by bigint"
)
# issue 9's speed target: at least 2x PostgreSQL on the 5M-row sorts (its
# tuples-per-run target, more than PostgreSQL at the same work_mem, is
# read off the trace_sort table)
declare -A qtarget=([k64]=2 [k1g]=2 [text64]=2 [text1g]=2 [num64]=2 [num1g]=2)
set_target_text="Targets (issue 9): at least 2× PostgreSQL's speed on the 5M-row sorts (below), and more tuples per run than PostgreSQL at the same work_mem (the trace_sort table's last column above 1.00 on pow2 and the 64MB queries)."

# which tables the chosen queries read
sort_tables() {
  local q want_p=0 want_s=0 want_sn=0
  for q in $queries; do
    case $q in
      pow2) want_p=1 ;;
      num*) want_s=1 want_sn=1 ;; # sn is made from s
      *) want_s=1 ;;
    esac
  done
  [ $want_p = 0 ] || echo p
  [ $want_s = 0 ] || echo s
  [ $want_sn = 0 ] || echo sn
}

# set_load_sql N: s and sn with N rows, p with 2N, those the queries read
set_load_sql() {
  local t tables
  tables=$(sort_tables)
  for t in $tables; do
    case $t in
      p)
        printf '%s\n' "CREATE TABLE p (a bigint NOT NULL, b bigint NOT NULL, c bigint NOT NULL, d bigint NOT NULL, e bigint NOT NULL, f bigint NOT NULL);" \
          "INSERT INTO p SELECT (i::int8 * 7919) % 10000019, i, i, i, i, i FROM generate_series(1, $(($1 * 2))) i;" ;;
      s)
        printf '%s\n' "CREATE TABLE s (k bigint NOT NULL, pad text NOT NULL);" \
          "INSERT INTO s SELECT (i::int8 * 7919) % 5000011, md5(i::text) FROM generate_series(1, $1) i;" ;;
      sn)
        printf '%s\n' "CREATE TABLE sn (n numeric NOT NULL, pad text NOT NULL);" \
          "INSERT INTO sn SELECT k * 1.001, pad FROM s;" ;;
    esac
  done
  for t in $tables; do echo "VACUUM FREEZE ANALYZE $t;"; done
  for t in $tables; do echo "SELECT count(*) FROM $t;"; done
}

# set_qrows Q N / set_cg_rows Q N: Q's input rows with N-row tables
set_qrows() {
  case $1 in
    pow2) echo $(($2 * 2)) ;;
    *) echo "$2" ;;
  esac
}
set_cg_rows() { set_qrows "$@"; }

set_describe() {
  local t sizes="" tables
  tables=$(sort_tables)
  for t in $tables; do
    sizes="$sizes${sizes:+, }\`$t\` $(bench_commas "$(psql_run -At -c "SELECT pg_relation_size('$t')")")"
  done
  printf 'Both engines hold the same tables, loaded with the same SQL through their own client (`INSERT ... SELECT ... FROM generate_series`), then `VACUUM FREEZE ANALYZE` (and a `CHECKPOINT` in PostgreSQL): `s`, %s rows `(k bigint, pad text)` with k = 7919·i mod 5,000,011 (distinct keys in scrambled order) and pad = md5(i::text) (32 characters); `sn`, the same rows as `(n numeric, pad text)` with n = k × 1.001; `p`, %s rows of six `bigint` columns without NULLs (a = 7919·i mod 10,000,019, b to f = i), whose MinimalTuple is exactly 64 bytes. Tables loaded for this run (the queries'"'"' own; bytes in PostgreSQL): %s. Every query but `limit` has an OFFSET at least its table'"'"'s rows, so it sorts every row and sends none to the client. PostgreSQL runs with `max_parallel_workers_per_gather = 0`, so each query is one serial sort. The last commit that changed tupledb'"'"'s code (`src/`) is %s.\n' \
    "$(bench_commas "$1")" "$(bench_commas $(($1 * 2)))" "$sizes" \
    "$(git -C "$root" log -1 --format='%h (%cs)' -- src)"
}
