#!/usr/bin/env bash
# run.sh BENCH_BINARY -- the heap storage benchmark (issue 4): bulk insert
# of 10,000,000 narrow rows and sequential scan of 1,000,000 16-column
# rows through tupledb's C API, with PostgreSQL 15 doing the same work in
# SQL for context.
#
# Steps:
#   1. tupledb bulk insert: each round, in a fresh database under a
#      temporary directory: 10M rows (a int4, b int4) with
#      tdb_heap_multi_insert in batches through one BulkInsertState, then
#      1M rows with tdb_heap_insert one at a time, then the 10M rows
#      formed but not inserted (what forming them costs); the order
#      rotates each round;
#   2. tupledb scan: 1M rows x 16 int4 loaded once; then per round, one
#      process each, in rotating order: a cold scan (database just opened,
#      default 128 MB pool), a cold scan with the table file also evicted
#      from the OS page cache, and in a pool more than four times the
#      table (so no BULKREAD ring) a first scan loading it followed by
#      warm scans through a slot and with heap_getattr; each scan sums
#      c16 and checks the sum;
#   3. where the time goes: perf record -e cpu-clock --call-graph dwarf
#      over one 10M bulk insert (user and kernel, self and inclusive),
#      and callgrind instructions per row by function for the load, its
#      commit and the scans;
#   4. PostgreSQL 15 (if it can be started; tests/fixtures/pg/
#      throwaway_pg.sh): INSERT INTO narrow SELECT g, g FROM
#      generate_series(...) with the default WAL settings and with
#      wal_level=minimal (table created in the same transaction: no WAL
#      for its rows, fsync at commit -- what tupledb does now), and
#      SELECT sum(c16) FROM wide in 128 MB and in a large shared_buffers;
#      data checksums on, fsync on, no parallel query, no JIT;
#   5. prints the markdown section and replaces "## Heap storage (issue
#      4)" in bench/RESULTS.md -- only the text from that heading to the
#      next "## " heading.
#
# A benchmark, not a test: it fails only on a setup problem or a wrong
# scan result.  If PostgreSQL cannot be started, the section says so.
#
# Environment:
#   QUICK                1: small sizes (1M / 100k / 100k rows, 3 rounds)
#                        for development; do not commit its figures
#   TDB_BENCH_ROUNDS     insert rounds (default 5)
#   TDB_BENCH_SCAN_RUNS  scan rounds: runs of each scan variant (default 11)
#   TDB_BENCH_PG         0 skips PostgreSQL
#   TDB_BENCH_PG_ROUNDS  PostgreSQL insert rounds per configuration
#                        (default 3)
#   TDB_BENCH_PROFILE    0 skips perf and callgrind
#   TDB_BENCH_RESULTS    file to update (default bench/RESULTS.md); "-"
#                        prints the section without writing any file
#   TDB_BENCH_RAW        raw records (default heap-raw.txt next to the
#                        binary)
#   TDB_BENCH_REPORT_ONLY 1: measure nothing, rebuild the section from the
#                        raw records of an earlier run
#   PGBIN                PostgreSQL binaries (default
#                        /usr/lib/postgresql/15/bin)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/common/lib.sh
. "$here/../common/lib.sh"
root=$bench_root
bin=${1:?usage: run.sh BENCH_BINARY}
[ -x "$bin" ] || bench_die "$bin is not executable"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

if [ "${QUICK:-0}" = 1 ]; then
  narrow_rows=1000000 single_rows=100000 wide_rows=100000 cg_rows=100000
  rounds=${TDB_BENCH_ROUNDS:-3} scan_runs=${TDB_BENCH_SCAN_RUNS:-5}
  pg_rounds=${TDB_BENCH_PG_ROUNDS:-2}
else
  narrow_rows=10000000 single_rows=1000000 wide_rows=1000000 cg_rows=1000000
  rounds=${TDB_BENCH_ROUNDS:-5} scan_runs=${TDB_BENCH_SCAN_RUNS:-11}
  pg_rounds=${TDB_BENCH_PG_ROUNDS:-3}
fi
batch=1000
results=${TDB_BENCH_RESULTS:-$root/bench/RESULTS.md}
raw=${TDB_BENCH_RAW:-$(dirname "$bin")/heap-raw.txt}
heading="## Heap storage (issue 4)"
export PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}

tag() { awk -v t="$1" '{ print t, $0 }' >>"$raw"; }

# tdb_run TAG ARGS...: one bench_heap process on a fresh $work/db,
# records tagged; the database is removed afterwards.
tdb_run() {
  local t=$1
  shift
  rm -rf "$work/db"
  sync
  "$bin" --dir "$work/db" "$@" | tag "$t"
  rm -rf "$work/db"
}

# pg_part: PostgreSQL's figures as "pg ..." records on stdout.  Runs in a
# subshell: throwaway_pg.sh exits when the server cannot be started.
pg_part() {
  # shellcheck disable=SC2034 # read by throwaway_pg.sh
  PORT=54329 SCRIPT=bench-heap
  # shellcheck source=tests/fixtures/pg/throwaway_pg.sh
  . "$root/tests/fixtures/pg/throwaway_pg.sh"
  local common="-c fsync=on -c synchronous_commit=on -c full_page_writes=on -c max_parallel_workers_per_gather=0 -c jit=off -c shared_buffers=128MB"
  local wide_cols wide_sel r
  pg_throwaway_start bench-heap-pg "-k" "$common" >&2

  # pg_sql LABEL_PREFIX: run stdin through psql, turning "@label" echoes
  # and "Time: X ms" lines into "<label> <ms>", other output "key value".
  pg_sql() {
    psql_run -At -F ' ' | awk '
      /^@/ { label = substr($0, 2); next }
      /^Time: / { print label, $2; next }
      NF { print }'
  }
  # restart with other settings (appended to the start-up options)
  pg_restart() {
    as_pg "$PGBIN/pg_ctl" stop -D "$TMP/data" -m fast -w >/dev/null
    SERVER_OPTS="$SERVER_OPTS $1"
    pg_start
  }

  echo "info version $(psql_run -At -c 'SHOW server_version')"
  echo "info settings $(psql_run -At -F ' ' -c "SELECT string_agg(name || '=' || setting, ' ' ORDER BY name) FROM pg_settings WHERE name IN ('fsync','data_checksums','wal_level','shared_buffers','synchronous_commit','full_page_writes','max_wal_size','max_parallel_workers_per_gather','jit','work_mem')")"

  # insert: per round a fresh table, created in the transaction that fills it
  pg_insert_rounds() {
    local cfg=$1
    for ((r = 0; r < pg_rounds; r++)); do
      pg_sql <<SQL | awk -v r="$r" -v cfg="$cfg" '
        $1 == "insert" { ins = $2 } $1 == "commit" { com = $2 }
        $1 == "size" { size = $2 } $1 == "hwm" { hwm = $2 }
        END { print r, "insert", cfg, ins, com, size, hwm }'
DROP TABLE IF EXISTS narrow;
CHECKPOINT;
\! sync
BEGIN;
CREATE TABLE narrow (a int4, b int4);
\timing on
\echo @insert
INSERT INTO narrow SELECT g, g FROM generate_series(1, $narrow_rows) g;
\echo @commit
COMMIT;
\timing off
SELECT 'size', pg_relation_size('narrow');
SELECT 'hwm', (regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'), 'VmHWM:\s+(\d+)'))[1];
SQL
    done
  }

  pg_insert_rounds wal
  # what producing the rows costs PostgreSQL without storing them
  for ((r = 0; r < pg_rounds; r++)); do
    pg_sql <<SQL | awk -v r="$r" '$1 == "source" { print r, "source", $2 }'
\timing on
\echo @source
SELECT count(*) FROM (SELECT g, g FROM generate_series(1, $narrow_rows) g) s;
SQL
  done

  # the wide table: loaded, one scan to set hint bits, checkpoint
  wide_cols=$(seq -s ', ' -f 'c%g int4' 1 16)
  wide_sel=$(seq -s ', ' -f 'g + %g' 0 15)
  pg_sql <<SQL | awk '$1 == "load" { l = $2 } $1 == "hints" { h = $2 } $1 == "size" { s = $2 } END { print "-", "load", l, s; print "-", "scan", "hints", 0, h, s, "-" }'
DROP TABLE IF EXISTS narrow;
CREATE TABLE wide ($wide_cols);
\timing on
\echo @load
INSERT INTO wide SELECT $wide_sel FROM generate_series(1, $wide_rows) g;
\echo @hints
SELECT count(*) FROM wide;
\timing off
CHECKPOINT;
SELECT 'size', pg_relation_size('wide');
SQL
  pg_scans() {
    local cfg=$1 first=$2
    {
      printf '%s\n' '\timing on'
      if [ "$first" = 1 ]; then printf '%s\n' '\echo @first' 'SELECT sum(c16) FROM wide;'; fi
      for ((r = 0; r < scan_runs; r++)); do
        printf '%s\n' "\\echo @scan_$r" 'SELECT sum(c16) FROM wide;'
      done
      printf '%s\n' '\timing off'
      echo "SELECT 'size', pg_relation_size('wide');"
    } | pg_sql | awk -v cfg="$cfg" '
      $1 == "size" { size = $2; next }
      NF == 1 { sum = $1; next }
      $1 == "first" { t["first"] = $2; next }
      $1 ~ /^scan_/ { n++; t[$1] = $2 }
      END {
        if ("first" in t) print "-", "scan", "first", 0, t["first"], size, sum
        for (i = 0; i < n; i++) print "-", "scan", cfg, i, t["scan_" i], size, sum
      }'
  }
  pg_scans pool128 0
  # a pool more than four times the table: no ring, the table stays
  pg_restart "-c shared_buffers=${big_pool_kb}kB"
  pg_scans warm 1

  # no WAL for a table created in the loading transaction
  pg_restart "-c wal_level=minimal -c max_wal_senders=0 -c shared_buffers=128MB"
  pg_insert_rounds nowal
}

measure() {
  : >"$raw"
  work=$(mktemp -d "${TMPDIR:-/tmp}/bench-heap.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  {
    echo "info narrow_rows $narrow_rows"
    echo "info single_rows $single_rows"
    echo "info wide_rows $wide_rows"
    echo "info batch $batch"
    echo "info rounds $rounds"
    echo "info scan_runs $scan_runs"
    echo "info pg_rounds $pg_rounds"
    echo "info cg_rows $cg_rows"
    echo "info tmpdir $work"
    echo "info fs $(df -T "$work" | awk 'NR == 2 { print $2, $1 }')"
    echo "info mem_total_kb $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"
  } >>"$raw"

  local start r k
  start=$(date +%s)
  echo "bench-heap: bulk insert, $rounds rounds ($narrow_rows rows bulk, $single_rows single, $narrow_rows formed only)"
  for ((r = 0; r < rounds; r++)); do
    for ((k = 0; k < 3; k++)); do
      case $(((r + k) % 3)) in
        0) tdb_run "tdb $r" insert-bulk --rows "$narrow_rows" --batch "$batch" ;;
        1) tdb_run "tdb $r" insert-bulk --rows "$single_rows" --single ;;
        2) tdb_run "tdb $r" insert-bulk --rows "$narrow_rows" --batch "$batch" --form-only ;;
      esac
    done
  done
  echo "bench-heap: scans, $wide_rows rows x 16 int4, $scan_runs runs each"
  rm -rf "$work/wide"
  "$bin" --dir "$work/wide" load-wide --rows "$wide_rows" | tag "tdb -"
  pages=$(awk '$2 == "-" && $3 == "load" { print $7 }' "$raw")
  big_pool=$((4 * pages + 4096))
  big_pool_kb=$((big_pool * 8))
  echo "info big_pool $big_pool" >>"$raw"
  # one process per variant and round, the variants taking turns, so that
  # the machine's drift spreads over all of them
  for ((r = 0; r < scan_runs; r++)); do
    for ((k = 0; k < 3; k++)); do
      case $(((r + k) % 3)) in
        0) "$bin" --dir "$work/wide" scan-cold --runs 1 --round "$r" ;;
        1) "$bin" --dir "$work/wide" scan-cold --runs 1 --round "$r" --drop-os-cache ;;
        2) "$bin" --dir "$work/wide" scan-warm --runs 1 --round "$r" --nbuffers "$big_pool" ;;
      esac
    done
  done | tag "tdb -"
  echo "run elapsed tdb $(($(date +%s) - start))" >>"$raw"

  start=$(date +%s)
  if [ "${TDB_BENCH_PROFILE:-1}" != 0 ]; then
    # perf: a software clock works where hardware counters do not
    if command -v perf >/dev/null &&
      perf record -q -e cpu-clock -o "$work/perf.probe" -- true >/dev/null 2>&1; then
      echo "bench-heap: perf record -e cpu-clock over one bulk insert of $narrow_rows rows"
      rm -rf "$work/db"
      sync
      perf record -q --call-graph dwarf,16384 -e cpu-clock -F 1000 -o "$work/perf.data" -- \
        "$bin" --dir "$work/db" insert-bulk --rows "$narrow_rows" --batch "$batch" 2>/dev/null |
        tag "perf run"
      rm -rf "$work/db"
      {
        perf report -i "$work/perf.data" --stdio --no-children -g none --sort dso 2>/dev/null |
          awk '/^ *[0-9.]+%/ { sub(/%/, "", $1); print "perf dso", $1, $2 }'
        perf report -i "$work/perf.data" --stdio --no-children -g none --sort sym 2>/dev/null |
          awk '/^ *[0-9.]+%/ { sub(/%/, "", $1); print "perf sym", $1, $2, $3 }' |
          head -n 25
        # inclusive shares ("children") of the functions the report names
        perf report -i "$work/perf.data" --stdio --children -g none --sort sym 2>/dev/null |
          awk '/^ *[0-9.]+% +[0-9.]+%/ {
            sub(/%/, "", $1); f = $4
            if (f ~ /^(load_rows|form_rows|tdb_heap_multi_insert|tdb_buf_extend|tdb_smgr_extend|flush_buffer|tdb_smgr_write|commit_load|tdb_fd_fsync)$/ && !(f in seen)) {
              seen[f] = 1; print "perf incl", $1, f
            }
          }'
      } >>"$raw"
    else
      echo "perf info missing" >>"$raw"
    fi
    if bench_want_callgrind; then
      echo "bench-heap: callgrind, $cg_rows rows bulk insert, $wide_rows rows scan"
      rm -rf "$work/db"
      valgrind --tool=callgrind --compress-strings=no --compress-pos=no \
        --callgrind-out-file="$work/cg.insert" \
        --toggle-collect=load_rows --toggle-collect=commit_load \
        --dump-after=load_rows --dump-after=commit_load \
        "$bin" --dir "$work/db" insert-bulk --rows "$cg_rows" --batch "$batch" \
        >/dev/null 2>"$work/cg.err" || { tail -5 "$work/cg.err" >&2; bench_die "callgrind failed"; }
      rm -rf "$work/db"
      valgrind --tool=callgrind --compress-strings=no --compress-pos=no \
        --callgrind-out-file="$work/cg.scan" --toggle-collect='scan_rows_*' \
        --dump-after=scan_rows_slot --dump-after=scan_rows_getattr \
        "$bin" --dir "$work/wide" scan-warm --runs 1 --nbuffers "$big_pool" \
        >/dev/null 2>"$work/cg.err" || { tail -5 "$work/cg.err" >&2; bench_die "callgrind failed"; }
      # dumps: insert .1 load, .2 commit; scan .1 first (slot, reading
      # the file into the pool), .2 warm slot, .3 warm getattr
      for part in insert:1:load:"$cg_rows" insert:2:commit:"$cg_rows" \
        scan:1:scan_first:"$wide_rows" scan:2:scan_slot:"$wide_rows" \
        scan:3:scan_getattr:"$wide_rows"; do
        IFS=: read -r f i name n <<<"$part"
        bench_cg_summary "$work/cg.$f.$i" | awk -v k="$name" -v n="$n" '{ printf "cg total %s %.1f\n", k, $1 / n }' >>"$raw"
        bench_cg_selfcost fn "$n" 12 "$work/cg.$f.$i" | awk -v k="$name" '{ print "cg fn", k, $1, $3 }' >>"$raw"
      done
    fi
  fi
  echo "run elapsed profile $(($(date +%s) - start))" >>"$raw"

  start=$(date +%s)
  if [ "${TDB_BENCH_PG:-1}" != 0 ]; then
    echo "bench-heap: PostgreSQL ($PGBIN): $pg_rounds insert rounds per configuration, $scan_runs scans"
    if (pg_part) >"$work/pg.out" 2>"$work/pg.err"; then
      tag pg <"$work/pg.out"
    else
      msg=$(tail -n 3 "$work/pg.err" | tr '\n' ' ')
      echo "bench-heap: PostgreSQL could not be run: $msg"
      echo "pg info failed ${msg:-unknown error}" >>"$raw"
    fi
  else
    echo "pg info failed skipped (TDB_BENCH_PG=0)" >>"$raw"
  fi
  echo "run elapsed pg $(($(date +%s) - start))" >>"$raw"
}

if [ "${TDB_BENCH_REPORT_ONLY:-0}" = 1 ]; then
  [ -s "$raw" ] || bench_die "no raw records in $raw"
else
  measure
fi

section=$(mktemp)
trap 'rm -f "$section"; [ -z "${work:-}" ] || rm -rf "$work"' EXIT

bench_describe_machine
awk "${bench_machine_vars[@]}" -v heading="$heading" -v quick="${QUICK:-0}" "$bench_awk_stats"'
function mb(bytes) { return bytes / 1048576 }
function f0(v) { return v < 0 ? "n/a" : sprintf("%.0f", v) }
function f1(v) { return v < 0 ? "n/a" : sprintf("%.1f", v) }
function f2(v) { return v < 0 ? "n/a" : sprintf("%.2f", v) }
function sec(ns) { return ns < 0 ? "n/a" : sprintf("%.3f", ns / 1e9) }
function ms(ns) { return ns < 0 ? "n/a" : sprintf("%.1f", ns / 1e6) }
# millions of rows per second for nrows rows in ns nanoseconds
function mrps(nrows, ns) { return ns <= 0 ? "n/a" : sprintf("%.2f", nrows / ns * 1e3) }
function mbps(bytes, ns) { return ns <= 0 ? "n/a" : sprintf("%.0f", mb(bytes) / (ns / 1e9)) }
# callgrind self instructions per row of function fn in part p (0 if absent)
function cgfn(p, fn) { return ((p, fn) in cgv) ? cgv[p, fn] : 0 }
# perf: inclusive share of CPU samples of function f, as "12.3%"
function pin(f) { return (f in incl) ? sprintf("%.1f%%", incl[f]) : "n/a" }
function commas(v,    s, r) {
  s = sprintf("%d", v); r = ""
  while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
  return s r
}

$1 == "info" { info[$2] = $3; if ($2 == "fs") info["fsdev"] = $4; next }
$1 == "run" && $2 == "elapsed" { el[$3] = $4; next }
$1 == "tdb" && $3 == "insert" {
  k = "ins" SUBSEP $4
  rows[$4] = $5
  add(k SUBSEP "total", $6 + $7); add(k SUBSEP "ins", $6); add(k SUBSEP "com", $7)
  bytes[$4] = $8; pages[$4] = $9; rss0[$4] = $10; hwm[$4] = ($4 in hwm && hwm[$4] > $11) ? hwm[$4] : $11
  wload[$4] = $12; wcommit[$4] = $13; ext[$4] = $14
  next
}
$1 == "tdb" && $3 == "form" { rows["form"] = $4; add("form", $5); next }
$1 == "tdb" && $3 == "load" { load_rows = $4; load_ns = $5; wbytes = $6; wpages = $7; next }
$1 == "tdb" && $3 == "scan" {
  v = $4; add("scan" SUBSEP v, $7); srows[v] = $6; sbytes[v] = $8
  sreads[v] = $11; swrites[v] = $12; nsv[v]++
  next
}
$1 == "perf" && $2 == "info" { perf_missing = 1; next }
$1 == "perf" && $2 == "dso" { ndso++; dso[ndso] = $4; dsop[ndso] = $3; next }
$1 == "perf" && $2 == "sym" { nsym++; sym[nsym] = $5; symk[nsym] = $4; symp[nsym] = $3; next }
$1 == "perf" && $2 == "incl" { incl[$4] = $3; next }
$1 == "perf" && $2 == "run" && $3 == "insert" { perf_ns = $6 + $7; next }
$1 == "cg" && $2 == "total" { cgt[$3] = $4; next }
$1 == "cg" && $2 == "fn" { ncgf[$3]++; cgf[$3, ncgf[$3]] = sprintf("%8.1f  %s", $4, $5); cgv[$3, $5] = $4; next }
$1 == "pg" && $2 == "info" {
  if ($3 == "failed") { pg_failed = $0; sub(/^pg info failed /, "", pg_failed) }
  else { v = $0; sub(/^pg info [a-z_]+ /, "", v); pginfo[$3] = v }
  next
}
$1 == "pg" && $3 == "insert" {
  k = "pgins" SUBSEP $4; pgcfg[$4] = 1
  add(k SUBSEP "total", $5 + $6); add(k SUBSEP "ins", $5); add(k SUBSEP "com", $6)
  pgbytes[$4] = $7; pghwm[$4] = $8
  next
}
$1 == "pg" && $3 == "source" { add("pgsource", $4); next }
$1 == "pg" && $3 == "load" { pg_load_ms = $4; pg_wbytes = $5; next }
$1 == "pg" && $3 == "scan" { add("pgscan" SUBSEP $4, $6); pgsbytes[$4] = $7; pgsum[$4] = $8; next }

# one insert table row: label, rows, samples key (ns), bytes, extra cells
function insrow(label, nrows, k, b, split_cells, tbl, peak,    best, med) {
  best = lo(k SUBSEP "total"); med = median(k SUBSEP "total")
  printf "| %s | %s | %s | %s | **%s** | %s | **%s** | %s | %s | %s | %s |\n", label, commas(nrows), \
    sec(best), sec(med), mrps(nrows, med), mrps(nrows, best), mbps(b, med), mbps(b, best), \
    split_cells, tbl, peak
}
# the same for PostgreSQL (samples in ms)
function pginsrow(label, cfg,    k, best, med, b) {
  k = "pgins" SUBSEP cfg; b = pgbytes[cfg]
  best = lo(k SUBSEP "total") * 1e6; med = median(k SUBSEP "total") * 1e6
  printf "| %s | %s | %s | %s | **%s** | %s | **%s** | %s | %s / %s | %.1f | %.0f (backend, incl. shared buffers it touched) |\n", \
    label, commas(info["narrow_rows"]), sec(best), sec(med), mrps(info["narrow_rows"], med), \
    mrps(info["narrow_rows"], best), mbps(b, med), mbps(b, best), \
    sec(median(k SUBSEP "ins") * 1e6), sec(median(k SUBSEP "com") * 1e6), mb(b), pghwm[cfg] / 1024
}
function scanrow(label, v, pool,    k, best, med) {
  k = "scan" SUBSEP v
  if (!(v in nsv)) return
  best = lo(k); med = median(k)
  printf "| %s | %s | %d | %s | %s | **%s** | %s | **%s** | %s | %s / %s |\n", label, pool, nsv[v], ms(best), ms(med), \
    mrps(srows[v], med), mrps(srows[v], best), mbps(sbytes[v], med), mbps(sbytes[v], best), \
    commas(sreads[v]), commas(swrites[v])
}
function pgscanrow(label, v, pool,    k, best, med) {
  k = "pgscan" SUBSEP v
  if (!n[k]) return
  best = lo(k) * 1e6; med = median(k) * 1e6
  printf "| %s | %s | %d | %s | %s | **%s** | %s | **%s** | %s | – |\n", label, pool, n[k], ms(best), ms(med), \
    mrps(info["wide_rows"], med), mrps(info["wide_rows"], best), mbps(pgsbytes[v], med), mbps(pgsbytes[v], best)
}

END {
  nr = info["narrow_rows"]; wr = info["wide_rows"]
  have_pg = (pg_failed == "")
  print heading
  print ""
  print "Generated by `make bench-heap` (bench/heap/run.sh); rerunning it replaces this section."
  if (quick == 1) { print ""; print "**QUICK=1 run: reduced sizes, for development only.**" }
  print ""
  printf "* Date: %s; source: %s\n", date, rev
  printf "* Machine: %s, %s CPUs visible, %s, %.1f GB RAM, Linux %s\n", cpu, ncpu, caches, info["mem_total_kb"] / 1048576, kernel
  printf "* Compiler: %s, release build (-O2)\n", cc
  printf "* Files: a temporary directory under %s (%s on %s, the file system of /tmp); every test database is created there and removed afterwards\n", \
    info["tmpdir"] ~ /^\/tmp\// ? "/tmp" : info["tmpdir"], info["fs"], info["fsdev"]
  printf "* tupledb: through the C API (database.h, catalog.h, heapam.h), one thread; default buffer pool %d MB; page checksums on; commit writes back the table'"'"'s dirty pages and fsyncs its file (there is no WAL yet)\n", 16384 * 8 / 1024
  if (have_pg)
    printf "* PostgreSQL %s, a throwaway server on a Unix socket, driven by psql (`\\timing`: client-side elapsed time of each statement); initdb -k (data checksums); settings: %s\n", pginfo["version"], pginfo["settings"]
  else
    printf "* PostgreSQL: **not measured** (%s)\n", pg_failed
  printf "* Wall time: %s s tupledb, %s s perf + callgrind, %s s PostgreSQL\n", el["tdb"], el["profile"], el["pg"]
  print ""

  print "### Bulk insert: " commas(nr) " rows of (a int4, b int4)"
  print ""
  printf "One transaction in a fresh database: CREATE TABLE (committed before the clock starts), the rows inserted, COMMIT. tupledb forms row *i* = (*i*, *i*) with `tdb_heap_form_tuple` in a memory context reset after every batch of %d rows and inserts the batch with one `tdb_heap_multi_insert` call, all through one BulkInsertState (a %s ring, as PostgreSQL'"'"'s COPY); the clock stops after `tdb_xact_commit`, which writes the remaining dirty pages and fsyncs the file. **Time** = begin to end of commit, best and median of %d rounds (one process per run; the three tupledb variants take turns). **MB/s** = size of the table file ÷ time. **Peak RSS** = VmHWM of the process at the end (buffer pool pages it touched included). The single-row variant calls `tdb_heap_insert` for each row without a bulk state (its pages stay in the 128 MB pool until commit).\n", \
    info["batch"], "16 MB BULKWRITE", info["rounds"]
  print ""
  print "| variant | rows | best s | median s | **Mrows/s** (median) | Mrows/s (best) | **MB/s** (median) | MB/s (best) | insert / commit s (median) | table MB | peak RSS MB |"
  print "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
  insrow("tupledb `tdb_heap_multi_insert`, " info["batch"] " rows per call", rows["bulk"], "ins" SUBSEP "bulk", bytes["bulk"], \
    sec(median("ins" SUBSEP "bulk" SUBSEP "ins")) " / " sec(median("ins" SUBSEP "bulk" SUBSEP "com")), sprintf("%.1f", mb(bytes["bulk"])), sprintf("%.1f", hwm["bulk"] / 1024))
  insrow("tupledb `tdb_heap_insert` per row", rows["single"], "ins" SUBSEP "single", bytes["single"], \
    sec(median("ins" SUBSEP "single" SUBSEP "ins")) " / " sec(median("ins" SUBSEP "single" SUBSEP "com")), sprintf("%.1f", mb(bytes["single"])), sprintf("%.1f", hwm["single"] / 1024))
  printf "| tupledb forming the rows only (no insert) | %s | %s | %s | %s | %s | – | – | – | – | – |\n", commas(rows["form"]), \
    sec(lo("form")), sec(median("form")), mrps(rows["form"], median("form")), mrps(rows["form"], lo("form"))
  if (have_pg) {
    pginsrow("PostgreSQL `INSERT INTO narrow SELECT g, g FROM generate_series(1, N) g`, default WAL (`wal_level=replica`)", "wal")
    pginsrow("PostgreSQL, the same with `wal_level=minimal` (table created in the same transaction: no WAL for its rows, flushed and fsynced at commit)", "nowal")
    printf "| PostgreSQL producing the rows only: `SELECT count(*) FROM (SELECT g, g FROM generate_series(1, N) g) s` | %s | %s | %s | %s | %s | – | – | – | – | – |\n", \
      commas(nr), sec(lo("pgsource") * 1e6), sec(median("pgsource") * 1e6), mrps(nr, median("pgsource") * 1e6), mrps(nr, lo("pgsource") * 1e6)
  }
  print ""
  printf "tupledb page traffic of one %s-row bulk insert: %s pages extended (each written once as an empty initialized page when the file grows), %s written back by the ring during the load, %s at commit (one of them pg_class'"'"'s page); %.0f rows per page. RSS before the load, database open: %.1f MB.", \
    commas(rows["bulk"]), commas(ext["bulk"]), commas(wload["bulk"]), commas(wcommit["bulk"]), rows["bulk"] / pages["bulk"], rss0["bulk"] / 1024
  if (have_pg) printf " PostgreSQL'"'"'s table file is %s bytes against tupledb'"'"'s %s: the same page and tuple layout.", commas(pgbytes["wal"]), commas(bytes["bulk"])
  print ""
  print ""

  print "### Sequential scan: " commas(wr) " rows × 16 int4, sum(c16)"
  print ""
  ring = (wpages > 16384 / 4)
  printf "The table (row *i* holds *i* + *j* − 1 in c*j*; %.1f MB, %s pages) is loaded with the bulk path in %s s and committed. One scan then sets the rows'"'"' hint bits (%s ms), which dirties every page, so each is written back once more (through the ring during that scan, or when the database closes), as PostgreSQL does after its first read of new rows; then the database is closed. Each measured scan runs in a read-only transaction, takes a snapshot and sums c16 through a heap slot (`tdb_heap_getnextslot` + `tdb_slot_getattr(16)`, which deforms columns 1–16: what the executor will do), timed from opening the relation to `tdb_heap_endscan`; the sum is checked. *Cold*: the database is reopened before each run, so the pool is empty%s; the file comes from the OS page cache (*cold, file evicted*: `posix_fadvise(DONTNEED)` on the file first, so it is read from the virtual disk, whose speed depends on the host). *Warm*: a pool of %s buffers (%.0f MB, over four times the table, so no ring) loaded by a first scan, then the table is scanned from memory; `heap_getattr` is `tdb_heap_getnext` + `tdb_heap_getattr(16)` (one column at its cached offset, nothing deformed), alternating with the slot runs. MB/s = table file size ÷ time.\n", \
    mb(wbytes), commas(wpages), sec(load_ns), ms(median("scan" SUBSEP "hints")), \
    ring ? " and, the table being larger than a quarter of the 128 MB pool, the scan reads through a 256 kB BULKREAD ring (as PostgreSQL'"'"'s would), so this is also what every later scan in that pool costs" : "", \
    commas(info["big_pool"]), info["big_pool"] * 8 / 1024
  print ""
  print "| variant | pool | runs | best ms | median ms | **Mrows/s** (median) | Mrows/s (best) | **MB/s** (median) | MB/s (best) | pages read from file / written, per run |"
  print "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|"
  scanrow("tupledb cold: pool empty, file in the OS page cache", "cold", "128 MB (ring)")
  scanrow("tupledb cold, file evicted from the OS page cache", "cold_os", "128 MB (ring)")
  scanrow("tupledb first scan into the large pool", "first", sprintf("%.0f MB", info["big_pool"] * 8 / 1024))
  scanrow("tupledb warm, slot (`slot_getattr(16)`)", "warm_slot", sprintf("%.0f MB", info["big_pool"] * 8 / 1024))
  scanrow("tupledb warm, `heap_getattr(16)`", "warm_getattr", sprintf("%.0f MB", info["big_pool"] * 8 / 1024))
  if (have_pg) {
    pgscanrow("PostgreSQL `SELECT sum(c16) FROM wide`, table read from the OS page cache", "pool128", "128 MB shared_buffers (ring)")
    pgscanrow("PostgreSQL, first scan after a restart with large shared_buffers", "first", sprintf("%.0f MB shared_buffers", info["big_pool"] * 8 / 1024))
    pgscanrow("PostgreSQL warm", "warm", sprintf("%.0f MB shared_buffers", info["big_pool"] * 8 / 1024))
  }
  print ""
  if (have_pg)
    printf "PostgreSQL loaded the same table in %.3f s (INSERT ... SELECT, default WAL), set hint bits with one `count(*)` and a CHECKPOINT; its sum(c16) was %s (tupledb: checked against N(N+1)/2 + 15N). Its table file is %s bytes.\n\n", \
      pg_load_ms / 1000, pgsum["warm"], commas(pgsbytes["warm"])

  print "### Where the time goes"
  print ""
  if (ndso > 0) {
    printf "`perf record -e cpu-clock --call-graph dwarf` (a software clock: this VM has no hardware counters; it samples CPU time only, so waiting for the disk in fsync does not show) over one %s-row bulk insert (%s s under perf). Share of CPU samples by object: ", commas(nr), sec(perf_ns)
    for (i = 1; i <= ndso && i <= 4; i++) printf "%s%s %s%%", (i > 1 ? ", " : ""), dso[i], dsop[i]
    print ". Inclusive share of the main steps (a function with everything it calls):"
    print ""
    print "| step | function | share of CPU samples |"
    print "|---|---|--:|"
    printf "| forming and inserting the rows | `load_rows` | %s |\n", pin("load_rows")
    printf "| · forming the rows | `form_rows` → `tdb_heap_form_tuple` | %s |\n", pin("form_rows")
    printf "| · inserting them | `tdb_heap_multi_insert` | %s |\n", pin("tdb_heap_multi_insert")
    printf "| · · getting a new page | `tdb_buf_extend` | %s |\n", pin("tdb_buf_extend")
    printf "| · · · writing the empty page to grow the file | `tdb_smgr_extend` (`pwrite`) | %s |\n", pin("tdb_smgr_extend")
    printf "| · · · writing back the dirty ring buffer it replaces | `flush_buffer` (checksum + `tdb_smgr_write`) | %s |\n", pin("flush_buffer")
    printf "| commit: last pages written, fsync (CPU only) | `commit_load` | %s |\n", pin("commit_load")
    print ""
    print "Self time by function, top entries ([k]: kernel):"
    print ""
    print "```"
    for (i = 1; i <= nsym && i <= 18; i++) printf "%6.2f%%  %s %s\n", symp[i], symk[i], sym[i]
    print "```"
    print ""
  } else if (perf_missing) {
    print "perf could not record on this machine; only callgrind figures follow."
    print ""
  }
  if ("load" in cgt) {
    printf "callgrind, instructions per row by function (self cost; inlined code counts for its caller; system calls and time in the kernel are not counted): the bulk load of %s rows (`load_rows`: forming and inserting) and its commit, and scans of the %s-row table (first scan reading the file into the pool, then warm with the slot and with `heap_getattr`).\n", commas(info["cg_rows"]), commas(wr)
    print ""
    print "```"
    split("load commit scan_first scan_slot scan_getattr", parts, " ")
    names["load"] = "bulk load (form + tdb_heap_multi_insert)"
    names["commit"] = "commit of the bulk load"
    names["scan_first"] = "first scan (reading into the pool, checksums verified)"
    names["scan_slot"] = "warm scan, slot"
    names["scan_getattr"] = "warm scan, heap_getattr"
    for (p = 1; p <= 5; p++) {
      q = parts[p]
      printf "%s: %.1f Ir/row\n", names[q], cgt[q]
      for (i = 1; i <= ncgf[q]; i++) print cgf[q, i]
      print ""
    }
    print "```"
    print ""
  }

  print "### Reading the figures"
  print ""
  bi = median("ins" SUBSEP "bulk" SUBSEP "ins"); bt = median("ins" SUBSEP "bulk" SUBSEP "total")
  fm = median("form") * rows["bulk"] / rows["form"]
  printf "* **Bulk insert.** %s rows take %s s median (%s s best) including the commit: %s Mrows/s, %s MB/s of table written. Forming the rows alone takes %s s, %.0f%% of the insert phase, so storing them costs about %.0f ns per row. The commit (%s s) writes the last %s dirty pages and fsyncs the %.0f MB file, of which the ring had handed %.0f%% to the kernel during the load. The single-row path costs %.0f ns per row against %.0f ns: each row looks its page up in the pool, pins, locks, unlocks and unpins it, which the bulk path does once per page (%.0f rows). Without a ring, the single-row load keeps its pages in the pool until commit (peak RSS %.1f MB for %s rows, against %.1f MB for the %s-row bulk load).\n", \
    commas(rows["bulk"]), sec(bt), sec(lo("ins" SUBSEP "bulk" SUBSEP "total")), mrps(rows["bulk"], bt), mbps(bytes["bulk"], bt), \
    sec(fm), 100 * fm / bi, (bi - fm) / rows["bulk"], sec(median("ins" SUBSEP "bulk" SUBSEP "com")), commas(wcommit["bulk"]), mb(bytes["bulk"]), 100 * wload["bulk"] / pages["bulk"], \
    median("ins" SUBSEP "single" SUBSEP "total") / rows["single"], bt / rows["bulk"], rows["bulk"] / pages["bulk"], \
    hwm["single"] / 1024, commas(rows["single"]), hwm["bulk"] / 1024, commas(rows["bulk"])
  if (ndso > 0) {
    kshare = -1
    for (i = 1; i <= ndso; i++) if (dso[i] ~ /kernel/) kshare = dsop[i]
    printf "* **Where the bulk insert'"'"'s time goes.** %s%% of the CPU samples are in the kernel, most of them in `pwrite`. Every page reaches the kernel twice (%s extends and %s write-backs, one of them a pg_class page, for %s table pages): `tdb_buf_extend` writes each new page to the file as an initialized empty page, with a checksum, and the page is written again with its rows when the ring evicts it or at commit. The first write alone, `tdb_smgr_extend`, takes %s of the CPU samples, %s writing the pages back (%s with their checksums)%s. PostgreSQL 15 also writes each new page twice (it extends with a page of zeros, which it does not checksum); PostgreSQL 16 extends several pages at a time, with `posix_fallocate` for larger extensions. `tdb_page_checksum` runs twice per page as well: %.0f of the load'"'"'s %.0f instructions per row and %.0f of the commit'"'"'s %.0f (callgrind), half of it on the empty pages. Forming the rows (`tdb_heap_form_tuple` in an AllocSet, %s of the samples) is the other big item.\n", \
      kshare < 0 ? "n/a" : kshare, commas(ext["bulk"]), commas(wload["bulk"] + wcommit["bulk"]), commas(pages["bulk"]), \
      pin("tdb_smgr_extend"), (incl["tdb_smgr_extend"] > incl["flush_buffer"]) ? "more than" : "against", pin("flush_buffer"), \
      (incl["tdb_smgr_extend"] > incl["flush_buffer"]) ? ": growing the file allocates page-cache pages and file blocks, overwriting them does not" : "", \
      cgfn("load", "tdb_page_checksum"), cgt["load"], cgfn("commit", "tdb_page_checksum"), cgt["commit"], pin("form_rows")
  }
  cm = median("scan" SUBSEP "cold"); wm = median("scan" SUBSEP "warm_slot"); gm = median("scan" SUBSEP "warm_getattr")
  printf "* **Scan.** From an empty pool (file in the OS page cache) %s rows take %s ms median, %s Mrows/s and %s MB/s; with the table in the pool %s ms through a slot and %s ms with `heap_getattr`. The difference between cold and warm, %.0f ns per page, is reading each page: the `pread` copying 8 kB from the page cache, taking a buffer (through the ring), and checking the page'"'"'s checksum and header (callgrind, first scan against a warm one: %.0f more instructions per row, %.0f of them `tdb_page_checksum`). Between the two warm variants, the slot deforms all 16 columns to reach c16 (`tdb_heap_deform_some`, %.0f instructions per row), where `heap_getattr` jumps to the cached offset. The rest of the per-row cost is returning the row (`tdb_heap_getnext` with the page-at-a-time visibility pass inlined, %.0f; `tdb_buf_page`, an out-of-line call per row, %.0f) and the visibility test of each row (%.0f).%s\n", \
    commas(srows["cold"]), ms(cm), mrps(srows["cold"], cm), mbps(sbytes["cold"], cm), ms(wm), ms(gm), (cm - wm) / wpages, \
    cgt["scan_first"] - cgt["scan_slot"], cgfn("scan_first", "tdb_page_checksum"), cgfn("scan_slot", "tdb_heap_deform_some"), \
    cgfn("scan_slot", "tdb_heap_getnext"), cgfn("scan_slot", "tdb_buf_page"), cgfn("scan_slot", "tdb_heap_tuple_satisfies_mvcc"), \
    (lo("scan" SUBSEP "first") > 1.2 * lo("scan" SUBSEP "cold")) ? sprintf(" The first scan into the large pool (%s ms) is slower than a cold scan through the ring because it reads into pool pages never touched before: the pool'"'"'s memory is allocated, not touched, when the database opens, so each page costs page faults on first use, while a ring keeps reusing its 32 buffers.", ms(median("scan" SUBSEP "first"))) : ""
  if (have_pg) {
    printf "* **PostgreSQL, for context only: not the same client, not the same work.** tupledb is called directly from C; PostgreSQL runs SQL sent by psql over a Unix socket, and its times include parsing, planning and the executor. Its `INSERT ... SELECT` inserts row by row (`heap_insert`; among SQL commands only COPY uses the multi-insert path and a BULKWRITE ring), materializes `generate_series` into a tuplestore first (beyond work_mem it spills to a temporary file: the \"producing the rows only\" line shows what that costs), and with the default settings writes WAL for every row, which tupledb does not have yet. `wal_level=minimal` with the table created in the same transaction removes the WAL for the rows and makes PostgreSQL flush and fsync the table at commit, as tupledb does. Median ratios, PostgreSQL ÷ tupledb bulk insert: %s with WAL, %s without; scan from the OS page cache %s, warm scan (tupledb through the slot) %s. Like for like comparisons wait for tupledb'"'"'s SQL layer, when both are driven by the same client.\n", \
      x(ratio(median("pgins" SUBSEP "wal" SUBSEP "total") * 1e6, bt)), x(ratio(median("pgins" SUBSEP "nowal" SUBSEP "total") * 1e6, bt)), \
      x(ratio(median("pgscan" SUBSEP "pool128") * 1e6, cm)), x(ratio(median("pgscan" SUBSEP "warm") * 1e6, wm))
  }
  printf "* **Noise.** Timings on this shared 2-vCPU VM drift between runs (compare the best and median columns); instruction counts repeat exactly. Medians are over %d insert rounds and %d scans per variant, in one invocation; compare figures within a run rather than across runs or machines.\n", info["rounds"], info["scan_runs"]
}
' "$raw" >"$section"

cat "$section"

if [ "$results" != "-" ]; then
  bench_write_section "$results" "$heading" "$section"
  echo "bench-heap: updated $results (raw records: $raw)"
fi
