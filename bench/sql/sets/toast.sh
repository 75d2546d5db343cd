# shellcheck shell=bash
# sets/toast.sh -- bench/sql/run.sh's "toast" workload set (issue 10,
# "Benchmark"; make bench-toast): one large toasted value used once per
# row of a 1,000-row table, in tupledb and PostgreSQL 15.
#
# Tables (the same SQL in both engines):
#   outer_t(x int)          1,000 rows, x a permutation of 1..1000
#                           (x = 389 i mod 1000 + 1) so the sorts sort
#   toasted(id int, v text) one row; v = the md5 hex digests of 1..20,000
#                           concatenated: 640,000 characters of hex, which
#                           pglz will not compress (it stores it raw
#                           anyway); the column is SET STORAGE EXTERNAL so
#                           neither engine tries to compress it: an
#                           out-of-line value of 321 chunks, "ext"
#   toasted_lz4(id int, v text COMPRESSION lz4)
#                           one row; v = a 640,006-character WKT polygon
#                           of 33,684 five-decimal points (the pgsql-hackers
#                           case was PostGIS geometry): lz4 brings it to
#                           about 400 kB, stored out of line compressed,
#                           so every detoast fetches ~201 chunks and
#                           decompresses them, "lz4"
#
# Queries, for each value V (ext: toasted, lz4: toasted_lz4), each with an
# untoasted twin Q_u (the baseline of the "within 2x" target): the twin
# takes the value once per query through an InitPlan, (SELECT v || ''
# FROM V), whose result is a fresh in-memory copy (|| builds a new
# varlena: neither compressed nor a TOAST pointer), and otherwise runs
# the same plan; notes-toast.md says why this baseline.
#   nli_V   nested loop, V inner: outer_t o LEFT JOIN V t ON true (a left
#           join's nested loop keeps its preserved side outer in both
#           engines: neither has a right nested loop), sum(strpos(t.v,
#           o.x::text))
#   nlo_V   nested loop, V outer: V t LEFT JOIN outer_t o ON true
#   init_V  InitPlan: count(*) FROM outer_t WHERE strpos((SELECT v FROM
#           V), x::text) > 0
#   sort_V  1,000 rows sorted by the toasted key: outer_t o LEFT JOIN V t
#           ON true ORDER BY t.v, o.x OFFSET 1000 (every comparison
#           compares two copies of the 640 kB value, which are equal, then
#           x), work_mem 1GB: the untoasted twin sorts 1,000 in-memory
#           copies of the value (625 MB in PostgreSQL) and must not spill
# Every session runs SET enable_hashjoin = off; SET enable_mergejoin =
# off first (a nested loop is the only join left; ON true has no hashable
# or mergeable clause anyway).  set_explain=1: the plans of both engines
# go into the report, and qshape[Q] (an extended regular expression over
# the plan's lines joined by " | ") checks that each engine ran the shape
# the query is named for.

set_heading="## TOAST (issue 10)"
set_raw_name=toast-raw.txt
set_notes=$here/notes-toast.md
set_perf_query=nli_lz4
set_perf_runs=3
set_explain=1
# outer rows; the value's size is fixed (issue 10: ~640 kB, 1,000 rows)
set_rows=1000 set_quick_rows=1000
set_rounds=5 set_quick_rounds=1
set_profile=0
set_cg_desc="the same tables"

all_queries=""
declare -A qsql=() qshort=() qlong=() qsetup=() qreps=() qtarget=() qbase=() qbasetarget=() qshape=()
for v in ext lz4; do
  tab=toasted
  [ $v = ext ] || tab=toasted_$v
  u="(SELECT (SELECT v || '' FROM $tab) AS v OFFSET 0)"
  qsql[nli_$v]="SELECT sum(strpos(t.v, o.x::text)) FROM outer_t o LEFT JOIN $tab t ON true"
  qsql[nli_${v}_u]="SELECT sum(strpos(t.v, o.x::text)) FROM outer_t o LEFT JOIN $u t ON true"
  qsql[nlo_$v]="SELECT sum(strpos(t.v, o.x::text)) FROM $tab t LEFT JOIN outer_t o ON true"
  qsql[nlo_${v}_u]="SELECT sum(strpos(t.v, o.x::text)) FROM $u t LEFT JOIN outer_t o ON true"
  qsql[init_$v]="SELECT count(*) FROM outer_t WHERE strpos((SELECT v FROM $tab), x::text) > 0"
  qsql[init_${v}_u]="SELECT count(*) FROM outer_t WHERE strpos((SELECT v || '' FROM $tab), x::text) > 0"
  qsql[sort_$v]="SELECT o.x FROM outer_t o LEFT JOIN $tab t ON true ORDER BY t.v, o.x OFFSET 1000"
  qsql[sort_${v}_u]="SELECT o.x FROM outer_t o LEFT JOIN $u t ON true ORDER BY t.v, o.x OFFSET 1000"
  for s in nli nlo init sort; do
    q=${s}_$v
    all_queries="$all_queries $q ${q}_u"
    qbase[$q]=${q}_u
    qtarget[$q]=10
    qbasetarget[$q]=2
    qsetup[$q]="SET enable_hashjoin = off; SET enable_mergejoin = off;"
    [ $s != sort ] || qsetup[$q]="${qsetup[$q]} SET work_mem = '1GB';"
    qsetup[${q}_u]=${qsetup[$q]}
  done
  # the wanted shapes: the table scanned under the Nested Loop first is
  # its outer side; the untoasted twins read the value in an InitPlan
  # under the same side
  qshape[nli_$v]="Nested Loop.* \| *-> *Seq Scan on outer_t .*$tab"
  qshape[nlo_$v]="Nested Loop.* \| *-> *Seq Scan on $tab .*outer_t"
  qshape[nli_${v}_u]="Nested Loop.* \| *-> *Seq Scan on outer_t .*InitPlan.*$tab"
  qshape[nlo_${v}_u]="Nested Loop.*InitPlan.*$tab .*Seq Scan on outer_t"
  qshape[init_$v]="InitPlan.*$tab.*Seq Scan on outer_t"
  qshape[init_${v}_u]=${qshape[init_$v]}
  qshape[sort_$v]="Sort.*Nested Loop.* \| *-> *Seq Scan on outer_t .*$tab"
  qshape[sort_${v}_u]="Sort.*Nested Loop.* \| *-> *Seq Scan on outer_t .*InitPlan.*$tab"
  what="640,000 hex characters, EXTERNAL (out of line, uncompressed)"
  [ $v = ext ] || what="640,006-character WKT polygon, lz4 (out of line, compressed)"
  qshort[nli_$v]="NL inner, $v" qshort[nli_${v}_u]="NL inner, $v untoasted"
  qshort[nlo_$v]="NL outer, $v" qshort[nlo_${v}_u]="NL outer, $v untoasted"
  qshort[init_$v]="InitPlan, $v" qshort[init_${v}_u]="InitPlan, $v untoasted"
  qshort[sort_$v]="sort, $v" qshort[sort_${v}_u]="sort, $v untoasted"
  qlong[nli_$v]="nli_$v: nested loop, $tab inner ($what)"
  qlong[nli_${v}_u]="nli_${v}_u: the same, the value held in memory (InitPlan)"
  qlong[nlo_$v]="nlo_$v: nested loop, $tab outer"
  qlong[nlo_${v}_u]="nlo_${v}_u: the same, the value held in memory (InitPlan)"
  qlong[init_$v]="init_$v: the value as an InitPlan parameter"
  qlong[init_${v}_u]="init_${v}_u: the same, an untoasted copy as the parameter"
  qlong[sort_$v]="sort_$v: 1,000 rows ordered by the toasted value"
  qlong[sort_${v}_u]="sort_${v}_u: the same, 1,000 in-memory copies of the value"
  # seconds per run in PostgreSQL: one timed run per session
  qreps[sort_$v]=1 qreps[sort_${v}_u]=1
done
unset v tab u s q what
all_queries=${all_queries# }
set_target_text="Targets (issue 10): every toasted shape at least 10× faster than PostgreSQL (below), and within 2× of the same query on the untoasted copy of the value (the toasted ÷ untoasted table above)."

set_load_sql() {
  printf '%s\n' "CREATE TABLE outer_t (x int);" \
    "INSERT INTO outer_t SELECT (i * 389) % 1000 + 1 FROM generate_series(1, $1) i;" \
    "CREATE TABLE toasted (id int, v text);" \
    "ALTER TABLE toasted ALTER COLUMN v SET STORAGE EXTERNAL;" \
    "INSERT INTO toasted SELECT 1, string_agg(md5(i::text), '' ORDER BY i) FROM generate_series(1, 20000) i;" \
    "CREATE TABLE toasted_lz4 (id int, v text COMPRESSION lz4);" \
    "INSERT INTO toasted_lz4 SELECT 1, 'POLYGON((' || string_agg(to_char(-74 + ((i::int8 * 7919) % 100000) / 100000.0, 'FM990.00000') || ' ' || to_char(40 + ((i::int8 * 104729) % 100000) / 100000.0, 'FM990.00000'), ',' ORDER BY i) || '))' FROM generate_series(1, 33684) i;" \
    "VACUUM FREEZE ANALYZE outer_t;" "VACUUM FREEZE ANALYZE toasted;" "VACUUM FREEZE ANALYZE toasted_lz4;" \
    "SELECT count(*) FROM outer_t;" "SELECT count(*) FROM toasted;" "SELECT count(*) FROM toasted_lz4;"
}

set_cg_rows() { echo "$2"; }

# the values as each engine stores them, checked alike in both (a
# describe line per engine; run.sh's result check does not cover them)
toast_value_sql="SELECT 'toasted', length(v), md5(v), pg_column_size(v), pg_column_compression(v) FROM toasted UNION ALL SELECT 'toasted_lz4', length(v), md5(v), pg_column_size(v), pg_column_compression(v) FROM toasted_lz4 ORDER BY 1;"

set_describe() {
  local pgv
  pgv=$(psql_run -At -F ' ' -c "$toast_value_sql" | awk '{ printf "%s`%s`: %s characters, md5 %s, stored %s bytes (%s)", sep, $1, $2, $3, $4, ($5 == "" ? "uncompressed" : $5); sep = "; " }')
  printf 'Both engines hold the same tables, loaded with the same SQL through their own client: `outer_t(x int)`, %s rows, x = 389·i mod 1000 + 1 (a permutation of 1..1000, so a sort by x has work to do); `toasted(id int, v text)` with `SET STORAGE EXTERNAL` and one row whose v is the md5 hex digests of 1..20,000 concatenated (640,000 characters that do not compress: out of line, uncompressed); `toasted_lz4(id int, v text COMPRESSION lz4)` with one row whose v is a WKT polygon of 33,684 points with five decimals (compressible, like the PostGIS geometry of the pgsql-hackers thread: out of line, lz4-compressed). As PostgreSQL stores them (`pg_column_size`, `pg_column_compression`): %s. Every session first runs `SET enable_hashjoin = off; SET enable_mergejoin = off;` (the sorts also `SET work_mem = '"'"'1GB'"'"'`). Each toasted query has an untoasted twin (`_u`, "untoasted") that takes the value through an InitPlan `(SELECT v || '"'"''"'"' FROM ...)` — one detoast per query, then an in-memory copy — and otherwise runs the same plan. The last commit that changed tupledb'"'"'s code (`src/`) is %s.\n' \
    "$(bench_commas "$1")" "$pgv" "$(git -C "$root" log -1 --format='%h (%cs)' -- src)"
}
