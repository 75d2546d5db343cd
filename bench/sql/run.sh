#!/usr/bin/env bash
# run.sh TUPLEDB_SHELL [SET] -- whole SQL queries in tupledb and PostgreSQL
# 15, each through its own client: the tupledb shell with \timing against
# psql with \timing.  SET names a workload set, sets/SET.sh: the tables,
# the queries and the report's section (bench/README.md, "Workload
# sets"):
#   sql     (default; make bench-sql) issue 5: deform, filter, join and
#           GROUP BY queries over 16-column tables
#   types   (make bench-types) issue 6: numeric + x sum avg and float8
#           arithmetic and output over 1M values
#   hashagg (make bench-hashagg) issue 8: the GROUP BY / EXCEPT workloads
#           of the "Reduce TupleHashEntryData struct size by half"
#           thread, with EXPLAIN ANALYZE's Batches / Memory Usage /
#           Disk Usage of both engines
#   sort    (make bench-sort) issue 9: ORDER BY over 5M rows at work_mem
#           64MB and 1GB (bigint, text and numeric keys), a top-N LIMIT,
#           and the power-of-two MinimalTuple case of the "Reducing chunk
#           header sizes" thread, with each engine's trace_sort runs and
#           EXPLAIN ANALYZE Sort Method
#   toast   (make bench-toast) issue 10: a 640 kB toasted value used once
#           per row of a 1,000-row table (nested loop with the toasted
#           table inner and outer, InitPlan, sort by the toasted key),
#           each query also on an untoasted copy of the value (qbase),
#           with the plans of both engines checked against the wanted
#           shape (qshape)
#
# Steps:
#   1. loads the set's tables into a fresh tupledb database (through the
#      shell) and into a throwaway PostgreSQL 15 (tests/fixtures/pg/
#      throwaway_pg.sh; initdb -k, shared_buffers 128MB, work_mem 4MB,
#      jit off, max_parallel_workers_per_gather 0), with the same SQL
#      (the set's set_load_sql, which ends with VACUUM ANALYZE --
#      PostgreSQL: hint bits set, pages all-visible, statistics; tupledb
#      accepts it and does nothing -- and a count(*) of every table,
#      which sets tupledb's hint bits), then a CHECKPOINT in PostgreSQL;
#   2. runs every query once in each engine and stops (exit 2) unless
#      both print the same result (the same rows in any order: a GROUP
#      BY's order is unspecified); a set with set_explain=1 also runs
#      EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) of every query
#      in both and keeps each hashed node's Batches, Memory Usage and Disk
#      Usage; a set with set_trace=1 also runs every query once more in
#      both engines with trace_sort on (and client_min_messages = log),
#      untimed but for \timing, keeping the sort's LOG lines, and keeps
#      each Sort node's "Sort Method:" line from the EXPLAIN ANALYZE;
#   3. timing: per round and query, one session per engine (a new shell
#      process opening the database / a new psql connection and backend),
#      which engine goes first alternating between rounds; a session runs
#      the query once untimed (warm-up: catalog caches, code paths) and
#      then TDB_BENCH_REPS times (the set's qreps[Q] for query Q, if it
#      has one) with \timing, after the set's qsetup[Q] statements
#      (e.g. SET work_mem), which are not timed.  The session's peak RSS is
#      recorded too: VmHWM of the tupledb shell process (the whole
#      engine) and of the PostgreSQL backend (read from /proc at the end
#      of the session);
#   4. where the time goes (TDB_BENCH_PROFILE=0 skips it): callgrind
#      instruction counts per row in both engines on a copy of the tables
#      with 100k rows (tupledb: the shell with --toggle-collect=
#      tdb_exec_run; PostgreSQL: postgres --single with
#      --toggle-collect=standard_ExecutorRun), self cost by function; and
#      perf record -e cpu-clock -a over repeated runs of the set's perf
#      query in each engine (user/kernel split, top functions);
#   5. prints the markdown section and replaces the set's heading ("## SQL
#      queries (issue 5)", "## Types (issue 6)", "## Hash aggregation
#      (issue 8)") in bench/RESULTS.md -- only that section.
#
# A benchmark, not a test: it fails only when its setup is broken or the
# two engines disagree on a result.
#
# Environment:
#   QUICK              1: 100k-row tables, 3 rounds (development; do not
#                      commit its figures); a set may choose other sizes
#                      and rounds (set_rows, set_quick_rows, set_rounds,
#                      set_quick_rounds)
#   TDB_BENCH_ROUNDS   rounds (default 7)
#   TDB_BENCH_REPS     timed runs per session (default 3; a set's
#                      qreps[Q] overrides it for query Q)
#   TDB_BENCH_ONLY     space-separated query names to run (default all)
#   TDB_BENCH_PROFILE  0 skips callgrind and perf, 1 runs them (default:
#                      the set's set_profile, else 1)
#   TDB_BENCH_COMPARE  another tupledb shell (e.g. built before a
#                      change): timed in the same rounds on the same
#                      database, as a third engine taking its turn, and
#                      shown as "tupledb before" next to this one
#   TDB_BENCH_RESULTS  file to update (default bench/RESULTS.md); "-"
#                      prints the section without writing any file
#   TDB_BENCH_RAW      raw records (default SET-raw.txt next to the shell
#                      binary: sql-raw.txt, types-raw.txt, hashagg-raw.txt)
#   TDB_BENCH_SECTION  where the report's section is written as well
#                      (default SET-section.md next to the raw records),
#                      for pasting when RESULTS.md is not written
#   TDB_BENCH_REPORT_ONLY 1: measure nothing, rebuild the section from the
#                      raw records of an earlier run
#   TDB_BENCH_PG_ONLY  1: PostgreSQL only -- tupledb loads nothing and
#                      runs nothing, every query is reported as not run
#                      in tupledb, and RESULTS.md is not written unless
#                      TDB_BENCH_RESULTS names a file (for measuring
#                      PostgreSQL's side of a workload tupledb cannot
#                      run yet)
#   TDB_BENCH_PGPORT   the throwaway PostgreSQL's port (default 54331;
#                      it only names the socket file in a private
#                      directory, there is no TCP listener)
#   PGBIN              PostgreSQL binaries (default
#                      /usr/lib/postgresql/15/bin)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/common/lib.sh
. "$here/../common/lib.sh"
root=$bench_root
tdb=${1:?usage: run.sh TUPLEDB_SHELL [SET]}
[ -x "$tdb" ] || bench_die "$tdb is not executable"
tdb=$(cd "$(dirname "$tdb")" && pwd)/$(basename "$tdb")
set_name=${2:-sql}
[ -f "$here/sets/$set_name.sh" ] ||
  bench_die "unknown workload set $set_name (known: $(cd "$here/sets" && ls | sed 's/\.sh$//' | tr '\n' ' '))"
# what a set may leave out (README.md, "Workload sets"): per-query setup
# statements, timed runs and memory targets; EXPLAIN ANALYZE figures; the
# number of perf runs; the queries whose rate (queries per second) the
# report shows; whether a tupledb error on a query PostgreSQL runs is
# reported (and the query timed in PostgreSQL only) instead of stopping;
# what callgrind's copy of the tables is (default "copies of the tables
# with 100,000 rows"); the "### " subsections of the set's section that
# another benchmark writes (bench_write_subsection), kept when this one
# rewrites the section
declare -A qsetup=() qreps=() qmemtarget=()
# qsetup_pg[Q]: setup statements for PostgreSQL only, after qsetup[Q]
# (settings tupledb does not have, e.g. max_parallel_maintenance_workers);
# qafter[Q]: statements run after every run of Q, untimed, that undo what
# it did (DROP INDEX after CREATE INDEX, TRUNCATE after INSERT)
declare -A qsetup_pg=() qafter=()
# qbase[Q]=B: query B is Q's baseline (the toast set: the same query on an
# untoasted copy of the value); the report gets a table of tupledb's (and
# PostgreSQL's) Q ÷ B, with qbasetarget[Q] the highest acceptable
# tupledb Q ÷ B.  qshape[Q]: with set_explain=1, an extended regular
# expression that Q's plan (its lines joined by " | ") must match in each
# engine; the report says whether it did
declare -A qbase=() qbasetarget=() qshape=()
set_explain=0 set_perf_runs=10 set_show_qps="" set_tolerate_errors=0 set_cg_desc=""
# set_trace=1: trace_sort runs and Sort Method lines (the sort set);
# set_qrows Q N (a function, with set_trace): the input rows of Q with
# N-row tables; the sizes and rounds of a normal and a QUICK run; whether
# callgrind and perf run unless TDB_BENCH_PROFILE says
set_trace=0 set_rows=1000000 set_quick_rows=100000 set_rounds=7 set_quick_rounds=3
set_profile=1
set_keep_subsections=()
# queries tupledb failed with an error (set_tolerate_errors=1): the error
declare -A tdb_failed=()
# shellcheck source=bench/sql/sets/sql.sh
. "$here/sets/$set_name.sh"

if [ "${QUICK:-0}" = 1 ]; then
  rows=$set_quick_rows rounds=${TDB_BENCH_ROUNDS:-$set_quick_rounds}
else
  rows=$set_rows rounds=${TDB_BENCH_ROUNDS:-$set_rounds}
fi
reps=${TDB_BENCH_REPS:-3}
cg_rows=100000
pg_only=${TDB_BENCH_PG_ONLY:-0}
if [ "$pg_only" = 1 ]; then
  results=${TDB_BENCH_RESULTS:--}
else
  results=${TDB_BENCH_RESULTS:-$root/bench/RESULTS.md}
fi
raw=${TDB_BENCH_RAW:-$(dirname "$tdb")/$set_raw_name}
section_out=${TDB_BENCH_SECTION:-${raw%-raw.txt}-section.md}
[ "$section_out" != "$raw" ] || section_out=$raw.section.md
profile_on=${TDB_BENCH_PROFILE:-$set_profile}
heading=$set_heading
compare=${TDB_BENCH_COMPARE:-}
if [ -n "$compare" ]; then
  [ -x "$compare" ] || bench_die "$compare is not executable"
  compare=$(cd "$(dirname "$compare")" && pwd)/$(basename "$compare")
fi
export PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}

queries=${TDB_BENCH_ONLY:-$all_queries}
for q in $queries; do
  [ -n "${qsql[$q]:-}" ] || bench_die "unknown query $q (known: $all_queries)"
done
# a query's baseline runs with it, right after it
for q in $queries; do
  b=${qbase[$q]:-}
  [ -z "$b" ] || [[ " $queries " == *" $b "* ]] || queries=${queries/$q/$q $b}
done
# PostgreSQL only: every query is "failed" in tupledb, so nothing runs there
if [ "$pg_only" = 1 ]; then
  for q in $queries; do tdb_failed[$q]="not run (TDB_BENCH_PG_ONLY=1)"; done
  [ -z "$compare" ] || bench_die "TDB_BENCH_COMPARE and TDB_BENCH_PG_ONLY exclude each other"
fi

# setup_sql Q [ENGINE]: the statements a session runs before query Q
# (untimed); ENGINE pg adds qsetup_pg[Q]
setup_sql() {
  [ -z "${qsetup[$1]:-}" ] || printf '%s\n' "${qsetup[$1]}"
  [ "${2:-}" != pg ] || [ -z "${qsetup_pg[$1]:-}" ] || printf '%s\n' "${qsetup_pg[$1]}"
}

# after_sql Q: qafter[Q] with \timing off around it (nothing if none)
after_sql() {
  [ -z "${qafter[$1]:-}" ] || printf '%s\n' '\timing off' "${qafter[$1]}" '\timing on'
}

# session_input Q [ENGINE]: a timing session's statements (setup,
# warm-up, then reps)
session_input() {
  local q=$1 i n=${qreps[$1]:-$reps}
  setup_sql "$q" "${2:-}"
  printf '%s\n' '\timing on' '\echo @warm' "${qsql[$q]};"
  after_sql "$q"
  for ((i = 0; i < n; i++)); do
    printf '%s\n' "\\echo @$i" "${qsql[$q]};"
    after_sql "$q"
  done
  printf '%s\n' '\timing off'
}

# timing_filter ENGINE Q ROUND: "@label" and "Time: X ms" lines into
# "time ENGINE Q ROUND REP MS" records (the warm-up is "warm")
timing_filter() {
  awk -v e="$1" -v q="$2" -v r="$3" '
    /^@/ { label = substr($0, 2); next }
    /^Time: / { print "time", e, q, r, label, $2; next }
    $1 == "hwm" { print "rss", e, q, r, $2 }'
}

tdb_session() { # Q ROUND [ENGINE BINARY]
  local q=$1 r=$2 e=${3:-tdb} bin=${4:-$tdb} out
  out=$(session_input "$q" |
    /usr/bin/time -f 'hwm %M' -o "$work/tdb.rss" "$bin" -X -q -At -F ' ' "$work/tdb" 2>"$work/tdb.err") ||
    { cat "$work/tdb.err" >&2; bench_die "tupledb session failed ($q, $bin)"; }
  { printf '%s\n' "$out"; cat "$work/tdb.rss"; } | timing_filter "$e" "$q" "$r"
}

pg_session() { # Q ROUND
  local q=$1 r=$2
  {
    session_input "$q" pg
    echo "SELECT 'hwm', (regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'), 'VmHWM:\s+(\d+)'))[1];"
  } | psql_run -At -F ' ' | timing_filter pg "$q" "$r"
}

measure() {
  : >"$raw"
  work=$(mktemp -d "${TMPDIR:-/tmp}/bench-$set_name.XXXXXX")
  chmod 755 "$work"
  trap 'rm -rf "$work"' EXIT
  {
    echo "info set $set_name"
    echo "info rows $rows"
    echo "info rounds $rounds"
    echo "info reps $reps"
    echo "info cg_rows $cg_rows"
    echo "info quick ${QUICK:-0}"
    echo "info perf_query $set_perf_query"
    echo "info perf_runs $set_perf_runs"
    echo "info cg_desc $set_cg_desc"
    echo "info target_text $set_target_text"
    echo "info show_qps $set_show_qps"
    for q in $queries; do
      echo "query $q ${qsql[$q]}"
      echo "qreps $q ${qreps[$q]:-$reps}"
      [ -z "${qsetup[$q]:-}" ] || echo "qsetup $q ${qsetup[$q]}"
      [ -z "${qsetup_pg[$q]:-}" ] || echo "qsetup_pg $q ${qsetup_pg[$q]}"
      [ -z "${qmemtarget[$q]:-}" ] || echo "memtarget $q ${qmemtarget[$q]}"
      echo "qshort $q ${qshort[$q]}"
      echo "qlong $q ${qlong[$q]:-${qshort[$q]}}"
      [ -z "${qtarget[$q]:-}" ] || echo "target $q ${qtarget[$q]}"
      [ -z "${qbase[$q]:-}" ] || echo "qbase $q ${qbase[$q]} ${qbasetarget[$q]:--}"
    done
  } >>"$raw"

  # PostgreSQL runs in this shell (throwaway_pg.sh's trap stops it when
  # the script exits); the settings of bench/heap, plus work_mem
  # shellcheck disable=SC2034 # read by throwaway_pg.sh
  PORT=${TDB_BENCH_PGPORT:-54331} SCRIPT=bench-$set_name
  # shellcheck source=tests/fixtures/pg/throwaway_pg.sh
  . "$root/tests/fixtures/pg/throwaway_pg.sh"
  local pgopts="-c fsync=on -c synchronous_commit=on -c max_parallel_workers_per_gather=0 -c jit=off -c shared_buffers=128MB -c work_mem=4MB"
  pg_throwaway_start "bench-$set_name-pg" "-k" "$pgopts"
  trap 'pg_throwaway_cleanup; rm -rf "$work"' EXIT
  echo "pginfo version $(psql_run -At -c 'SHOW server_version')" >>"$raw"
  echo "pginfo settings $(psql_run -At -F ' ' -c "SELECT string_agg(name || '=' || current_setting(name), ' ' ORDER BY name) FROM pg_settings WHERE name IN ('fsync','data_checksums','shared_buffers','work_mem','hash_mem_multiplier','max_parallel_workers_per_gather','jit')")" >>"$raw"
  echo "info tdb_version $("$tdb" --version | head -n 1)" >>"$raw"

  local start q r e
  start=$(date +%s)
  echo "bench-$set_name: loading $rows-row tables into tupledb and PostgreSQL $(psql_run -At -c 'SHOW server_version')"
  if [ "$pg_only" = 1 ]; then
    echo "info pg_only 1" >>"$raw"
  else
    set_load_sql "$rows" | { printf '%s\n' '\timing on'; cat; } |
      "$tdb" -X -q -At "$work/tdb" 2>&1 | awk '/^Time: / { t += $2 } /ERROR/ { print > "/dev/stderr"; bad = 1 } END { printf "load tdb %.0f\n", t; exit bad }' >>"$raw" ||
      bench_die "loading tupledb failed"
  fi
  { set_load_sql "$rows"; echo "CHECKPOINT;"; } | { printf '%s\n' '\timing on'; cat; } |
    psql_run -At 2>&1 | tee "$work/pgload.log" | awk '/^Time: / { t += $2 } /ERROR/ { print > "/dev/stderr"; bad = 1 } END { printf "load pg %.0f\n", t; exit bad }' >>"$raw" ||
    { echo "status ${PIPESTATUS[*]}" >&2; tail -n 5 "$work/pgload.log" >&2; bench_die "loading PostgreSQL failed"; }
  [ "$pg_only" = 1 ] || echo "info tdb_bytes $(du -sb "$work/tdb" | awk '{ print $1 }')" >>"$raw"
  set_describe "$rows" | sed 's/^/desc /' >>"$raw"
  echo "elapsed load $(($(date +%s) - start))" >>"$raw"

  # same answers, or no figures: the same rows in any order (sorted
  # before comparing); a one-row result goes into the report, a longer
  # or empty one as its row count
  for q in $queries; do
    local a b
    b=$({ setup_sql "$q" pg; printf '%s\n' "${qsql[$q]};" "${qafter[$q]:-}"; } | psql_run -At 2>&1 | LC_ALL=C sort)
    if [ "$pg_only" = 1 ]; then
      a=$b
      echo "failed tdb $q ${tdb_failed[$q]}" >>"$raw"
    else
      a=$({ setup_sql "$q"; printf '%s\n' "${qsql[$q]};" "${qafter[$q]:-}"; } | "$tdb" -X -q -At "$work/tdb" 2>&1 | LC_ALL=C sort)
    fi
    if [ "$a" != "$b" ]; then
      if [ "$set_tolerate_errors" = 1 ] && printf '%s\n' "$a" | grep -q '^ERROR:' &&
        ! printf '%s\n' "$b" | grep -q '^ERROR:'; then
        # the report says so; PostgreSQL's figures are still measured
        tdb_failed[$q]=$(printf '%s\n' "$a" | grep -m 1 '^ERROR:')
        echo "failed tdb $q ${tdb_failed[$q]}" >>"$raw"
        echo "bench-$set_name: $q: tupledb fails: ${tdb_failed[$q]}" >&2
        a=$b
      else
        bench_die "$q: tupledb printed '$(printf '%s' "$a" | head -c 2000)', PostgreSQL '$(printf '%s' "$b" | head -c 2000)'"
      fi
    fi
    echo "$a" >"$work/result.$q"
    if [ -z "$a" ]; then
      # a query that returned no rows (a COPY TO prints nothing either)
      case ${qsql[$q]} in
        SELECT* | WITH*) echo "result $q 0 rows" >>"$raw" ;;
        *) echo "result $q " >>"$raw" ;;
      esac
    elif [ "$(printf '%s\n' "$a" | wc -l)" -le 1 ]; then
      echo "result $q $a" >>"$raw"
    else
      echo "result $q $(bench_commas "$(printf '%s\n' "$a" | wc -l)") rows" >>"$raw"
    fi
  done
  [ "$set_explain" != 1 ] || for q in $queries; do explain_query "$q" >>"$raw"; done
  [ "$set_trace" != 1 ] || for q in $queries; do trace_query "$q" >>"$raw"; done
  # the footprint of a session that runs nothing big
  for ((r = 0; r < 3; r++)); do
    qsql[idle]="SELECT 1"
    [ "$pg_only" = 1 ] || tdb_session idle "$r" >>"$raw"
    pg_session idle "$r" >>"$raw"
  done
  if [ -n "$compare" ]; then
    echo "info compare_rev $(basename "$compare")" >>"$raw"
    for q in $queries; do
      [ -z "${tdb_failed[$q]:-}" ] || continue
      [ "$({ setup_sql "$q"; printf '%s\n' "${qsql[$q]};" "${qafter[$q]:-}"; } | "$compare" -X -q -At "$work/tdb" 2>&1 | LC_ALL=C sort)" = \
        "$(cat "$work/result.$q")" ] ||
        bench_die "$q: $compare prints another result"
    done
  fi

  start=$(date +%s)
  echo "bench-$set_name: $rounds rounds x ($queries), $reps timed runs per session"
  local engines=(tdb pg) k n e
  [ -z "$compare" ] || engines+=(base)
  n=${#engines[@]}
  for ((r = 0; r < rounds; r++)); do
    for q in $queries; do
      # the engines take turns at going first
      for ((k = 0; k < n; k++)); do
        e=${engines[$(((r + ${#q} + k) % n))]}
        case $e in
          tdb) [ -n "${tdb_failed[$q]:-}" ] || tdb_session "$q" "$r" ;;
          pg) pg_session "$q" "$r" ;;
          base) [ -n "${tdb_failed[$q]:-}" ] || tdb_session "$q" "$r" base "$compare" ;;
        esac
      done
    done >>"$raw"
  done
  echo "elapsed timing $(($(date +%s) - start))" >>"$raw"

  if [ "$profile_on" != 0 ]; then
    start=$(date +%s)
    profile
    echo "elapsed profile $(($(date +%s) - start))" >>"$raw"
  fi
  # both engines done: stop PostgreSQL and remove both databases here,
  # since the report below sets its own EXIT trap
  pg_throwaway_cleanup
  rm -rf "$work"
  trap - EXIT
}

# explain_query Q: EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) of Q
# (after its setup) in both engines, as records
#   plan ENGINE Q LINE                     every line of the plan
#   explain ENGINE Q NODE BATCHES MEMKB DISKKB
# one "explain" per node that reports Batches (HashAggregate, and hashed
# SetOp where the engine prints it), "-" for a figure it does not print;
# "explain ENGINE Q none - - -" when no node does
explain_query() {
  local q=$1 e out
  for e in tdb pg; do
    if [ "$e" = tdb ] && [ -n "${tdb_failed[$q]:-}" ]; then
      printf '%s\n' "plan tdb $q ${tdb_failed[$q]}" "explain tdb $q $([ "$pg_only" = 1 ] && echo none || echo failed) - - -"
      continue
    fi
    if [ "$e" = tdb ]; then
      out=$({ setup_sql "$q"; printf '%s\n' "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${qsql[$q]};"; } |
        "$tdb" -X -q -At "$work/tdb" 2>&1) || bench_die "$q: tupledb's EXPLAIN ANALYZE failed: $out"
    else
      out=$({ setup_sql "$q"; printf '%s\n' "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${qsql[$q]};"; } |
        psql_run -At 2>&1) || bench_die "$q: PostgreSQL's EXPLAIN ANALYZE failed: $out"
    fi
    if [ -n "${qshape[$q]:-}" ]; then
      if printf '%s\n' "$out" | awk '{ printf "%s%s", (NR > 1 ? " | " : ""), $0 } END { print "" }' | grep -Eq -- "${qshape[$q]}"; then
        echo "shape $e $q ok"
      else
        echo "shape $e $q bad"
        echo "bench-$set_name: $q: the $e plan is not the wanted shape (${qshape[$q]})" >&2
      fi
    fi
    printf '%s\n' "$out" | awk -v e="$e" -v q="$q" '
      function field(name,    m) {
        return match($0, name ": [0-9]+") ? substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2) : "-"
      }
      { print "plan", e, q, $0 }
      /->|^[A-Z]/ { node = $0; sub(/^ *(-> *)?/, "", node); sub(/ *\(.*$/, "", node); gsub(/ /, "_", node) }
      /Batches: / { n++; print "explain", e, q, node, field("Batches"), field("Memory Usage"), field("Disk Usage") }
      /Sort Method: / {
        m = $0; sub(/^.*Sort Method: */, "", m); kind = "-"; kb = "-"
        if (match(m, /  *(Memory|Disk): *[0-9]+ *kB/)) {
          sp = substr(m, RSTART, RLENGTH); m = substr(m, 1, RSTART - 1)
          kind = sp; sub(/^ */, "", kind); sub(/:.*/, "", kind)
          kb = sp; gsub(/[^0-9]/, "", kb)
        }
        gsub(/ /, "_", m)
        print "sortmethod", e, q, m, kind, kb
      }
      END { if (!n) print "explain", e, q, "none - - -" }'
  done
}

# trace_query Q: Q once per engine (after its setup) with trace_sort on and
# the LOG messages sent to the client, as records
#   trace ENGINE Q LINE       every line of the output that looks like a
#                             sort trace message (a LOG/DEBUG/INFO line, or
#                             one naming a tuple sort, a run, a merge)
#   tracetime ENGINE Q MS     the statement's \timing
#   tracerows Q N             the query's input rows (set_qrows)
# An engine that prints no such lines gives no trace records (tupledb
# until its tuplesort logs them).
trace_query() {
  local q=$1 e out input
  [ -z "$(declare -F set_qrows)" ] || echo "tracerows $q $(set_qrows "$q" "$rows")"
  input=$({ setup_sql "$q"; printf '%s\n' "SET trace_sort = on;" "SET client_min_messages = log;" '\timing on' "${qsql[$q]};"; })
  for e in tdb pg; do
    [ "$e" = pg ] || [ -z "${tdb_failed[$q]:-}" ] || continue
    if [ "$e" = tdb ]; then
      out=$(printf '%s\n' "$input" | "$tdb" -X -q -At "$work/tdb" 2>&1) || true
    else
      out=$(printf '%s\n' "$input" | psql_run -At 2>&1) || true
    fi
    printf '%s\n' "$out" | awk -v e="$e" -v q="$q" '
      /^Time: / { print "tracetime", e, q, $2; next }
      /^(LOG|DEBUG[0-9]*|INFO): / || /tuple sort|writing run|performsort|sort ended|sort of worker|merge (step|pass)|switching to external|tapes?/ {
        print "trace", e, q, $0
      }'
  done
}

# perf record -a over one session running query Q n + 1 times; the
# samples of that session's engine process (the tupledb shell, the
# PostgreSQL backend), by pid -- other sessions on the machine may run
# processes of the same name -- as "perf ENGINE share|sym ..." records
perf_session() { # ENGINE Q N
  local e=$1 q=$2 n=$3 i perf_pid pid
  {
    [ "$e" = pg ] && echo "SELECT pg_backend_pid();"
    setup_sql "$q"
    for ((i = 0; i <= n; i++)); do printf '%s\n' "${qsql[$q]};"; done
  } >"$work/perf.sql"
  perf record -q -a -e cpu-clock -F 4000 -o "$work/perf.$e" >/dev/null 2>&1 &
  perf_pid=$!
  sleep 1
  if [ "$e" = tdb ]; then
    "$tdb" -X -q -At "$work/tdb" <"$work/perf.sql" >/dev/null &
    pid=$!
    wait "$pid"
  else
    pid=$(psql_run -At <"$work/perf.sql" | awk 'NR == 1')
  fi
  kill -INT "$perf_pid"
  wait "$perf_pid" || true
  # Kernel samples of a system-wide recording are lost by perf report's
  # --pid filter, so they are counted from perf script (an address in
  # the kernel's half); perf report --pid names the user-space ones
  # (PostgreSQL's static functions included, as addresses) with shares
  # of the user samples, scaled here to shares of all.
  perf script -i "$work/perf.$e" -F pid,ip,sym 2>/dev/null |
    awk -v pid="$pid" '$1 == pid { n++; if ($2 ~ /^ffff/) { nk++; k[$3]++ } }
      END {
        printf "kshare %.4f\n", n ? nk / n : 0
        for (f in k) printf "ksym %.2f %s\n", 100 * k[f] / n, f
      }' >"$work/perf.$e.k"
  perf report -i "$work/perf.$e" --pid "$pid" --percentage relative --stdio --no-children --sort dso,sym 2>/dev/null |
    awk -v kf="$work/perf.$e.k" -v e="$e" '
      BEGIN { while ((getline l < kf) > 0) { split(l, a, " ")
                if (a[1] == "kshare") ks = a[2]; else { nk++; kp[nk] = a[2]; kn[nk] = a[3] } } }
      /^ *[0-9.]+%/ { sub(/%/, "", $1); print "perf", e, "sym", $1 * (1 - ks), $2, $3, $4 }
      END {
        printf "perf %s share %.1f %.1f\n", e, 100 * ks, 100 * (1 - ks)
        for (i = 1; i <= nk; i++) print "perf", e, "sym", kp[i], "[kernel]", "[k]", kn[i]
      }' | sort -t ' ' -k4,4 -g -r | awk '$3 == "share" || ++k <= 16' |
    python3 -c '
# name PostgreSQL'"'"'s static functions (perf prints an address) after
# the exported function that precedes them in the binary
import bisect, subprocess, sys
syms = []
for path in sys.argv[1:]:
    out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True).stdout
    syms += [(int(f[0], 16), f[2]) for f in (l.split() for l in out.splitlines()) if len(f) == 3 and f[1] in "Tt"]
syms.sort()
keys = [a for a, _ in syms]
for line in sys.stdin:
    f = line.split()
    if f[2] != "sym":
        print(line, end="")
        continue
    name = f[6] if len(f) > 6 else "?"
    if name.startswith("0x") and keys:
        i = bisect.bisect_right(keys, int(name, 16)) - 1
        if i >= 0:
            name = "~" + syms[i][1]
    print(" ".join(f[:4]), f[5], name)
' "$PGBIN/postgres"
}

profile() {
  local q part n
  echo "bench-$set_name: callgrind ($cg_rows-row tables) and perf"
  # the same tables, smaller, for callgrind
  set_load_sql "$cg_rows" | "$tdb" -X -q -At "$work/tdbcg" >/dev/null 2>&1 ||
    bench_die "loading the callgrind copy into tupledb failed"
  psql_run -q -c "CREATE DATABASE cg" >/dev/null
  { echo '\connect cg'; set_load_sql "$cg_rows"; echo "CHECKPOINT;"; } |
    psql_run >/dev/null ||
    bench_die "loading the callgrind copy into PostgreSQL failed"

  if [ -n "${tdb_failed[$set_perf_query]:-}" ]; then
    echo "perf skipped $set_perf_query" >>"$raw"
  elif command -v perf >/dev/null &&
    perf record -q -a -e cpu-clock -o "$work/perf.probe" -- true >/dev/null 2>&1; then
    perf_session tdb "$set_perf_query" "$set_perf_runs" >>"$raw"
    perf_session pg "$set_perf_query" "$set_perf_runs" >>"$raw"
  else
    echo "perf info missing" >>"$raw"
  fi

  if bench_want_callgrind; then
    for q in $queries; do
      { setup_sql "$q"; printf '%s\n' "${qsql[$q]};"; } |
        valgrind --tool=callgrind --compress-strings=no --compress-pos=no \
          --callgrind-out-file="$work/cg.tdb.$q" --toggle-collect=tdb_exec_run \
          "$tdb" -X -q -At "$work/tdbcg" >/dev/null 2>"$work/cg.err" ||
        { tail -5 "$work/cg.err" >&2; bench_die "callgrind failed (tupledb, $q)"; }
    done
    # PostgreSQL in single-user mode, the server stopped
    as_pg "$PGBIN/pg_ctl" stop -D "$TMP/data" -m fast -w >/dev/null
    for q in $queries; do
      { setup_sql "$q"; printf '%s\n' "${qsql[$q]};"; } | as_pg valgrind --tool=callgrind --compress-strings=no --compress-pos=no \
        --callgrind-out-file="$TMP/cg.pg.$q" --toggle-collect=standard_ExecutorRun \
        "$PGBIN/postgres" --single -D "$TMP/data" -c shared_buffers=128MB -c work_mem=4MB \
        -c jit=off -c max_parallel_workers_per_gather=0 cg >/dev/null 2>"$work/cg.err" ||
        { tail -5 "$work/cg.err" >&2; bench_die "callgrind failed (PostgreSQL, $q)"; }
      mv "$TMP/cg.pg.$q" "$work/cg.pg.$q"
    done
    pg_start
    for q in $queries; do
      n=$(set_cg_rows "$q" "$cg_rows")
      for part in tdb pg; do
        bench_cg_summary "$work/cg.$part.$q" |
          awk -v e="$part" -v q="$q" -v n="$n" '{ printf "cg total %s %s %.1f %d\n", e, q, $1 / n, n }' >>"$raw"
        bench_cg_selfcost fn "$n" 10 "$work/cg.$part.$q" |
          awk -v e="$part" -v q="$q" '{ print "cg fn", e, q, $1, $3 }' >>"$raw"
      done
    done
  fi
}

if [ "${TDB_BENCH_REPORT_ONLY:-0}" = 1 ]; then
  [ -s "$raw" ] || bench_die "no raw records in $raw"
else
  measure
fi

section=$(mktemp)
trap 'rm -f "$section"' EXIT

bench_describe_machine
# shellcheck disable=SC2016 # awk program
awk "${bench_machine_vars[@]}" -v heading="$heading" -v quick="${QUICK:-0}" \
  "$bench_awk_stats"'
function f1(v) { return v < 0 ? "n/a" : sprintf("%.1f", v) }
function mb(kb) { return kb < 0 ? "n/a" : sprintf("%.0f", kb / 1024) }
function dash(v) { return v == "" || v == "-" ? "–" : v }
function unders(v) { gsub(/_/, " ", v); return v }
function commasd(v) { return v ~ /^[0-9]+$/ ? commas(v) : v }
function commas(v,    s, r) {
  s = sprintf("%d", v); r = ""
  while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
  return s r
}
# rounds of query q: paired ratio PostgreSQL median / tupledb median
function paired(q,    r, k) {
  for (r = 0; r < 1000; r++) {
    if (!(("tdb" SUBSEP q SUBSEP r) in n) || !(("pg" SUBSEP q SUBSEP r) in n)) continue
    add("pair" SUBSEP q, median("pg" SUBSEP q SUBSEP r) / median("tdb" SUBSEP q SUBSEP r))
  }
}
# rounds of engine e: the median of query q over the median of its
# baseline b, per round
function based(e, q, b,    r) {
  for (r = 0; r < 1000; r++) {
    if (!((e SUBSEP q SUBSEP r) in n) || !((e SUBSEP b SUBSEP r) in n)) continue
    add("based" SUBSEP e SUBSEP q, median(e SUBSEP q SUBSEP r) / median(e SUBSEP b SUBSEP r))
  }
}
function shp(e, q) { return (e, q) in shape ? (shape[e, q] == "ok" ? "as wanted" : "**not as wanted**") : "–" }
$1 == "info" { v = $0; sub(/^info [a-z0-9_]+ /, "", v); info[$2] = v; if ($2 == "pg_only") pg_only = 1; next }
$1 == "pginfo" { v = $0; sub(/^pginfo [a-z0-9_]+ /, "", v); pginfo[$2] = v; next }
$1 == "query" { nq++; qs[nq] = $2; v = $0; sub(/^query [a-z0-9_]+ /, "", v); sql[$2] = v; next }
$1 == "qshort" { v = $0; sub(/^qshort [a-z0-9_]+ /, "", v); short[$2] = v; next }
$1 == "qlong" { v = $0; sub(/^qlong [a-z0-9_]+ /, "", v); long[$2] = v; next }
$1 == "target" { target[$2] = $3; next }
$1 == "qbase" { base[$2] = $3; if ($4 != "-") basetarget[$2] = $4; have_qbase = 1; next }
$1 == "shape" { shape[$2, $3] = $4; next }
$1 == "memtarget" { memtarget[$2] = $3; next }
$1 == "failed" { v = $0; sub(/^failed [a-z]+ [a-z0-9_]+ /, "", v); failed[$3] = v; next }
$1 == "qreps" { qreps[$2] = $3; if ($3 != info["reps"]) odd_reps = 1; next }
$1 == "qsetup" { v = $0; sub(/^qsetup [a-z0-9_]+ /, "", v); setup[$2] = v; next }
$1 == "qsetup_pg" { v = $0; sub(/^qsetup_pg [a-z0-9_]+ /, "", v); setup_pg[$2] = v; next }
$1 == "explain" { k = $2 SUBSEP $3; nx[k]++; xnode[k, nx[k]] = $4; xb[k, nx[k]] = $5; xm[k, nx[k]] = $6; xd[k, nx[k]] = $7; have_explain = 1; if ($4 != "none") have_batches = 1; next }
$1 == "sortmethod" { k = $2 SUBSEP $3; nsm[k]++; smeth[k, nsm[k]] = $4; skind[k, nsm[k]] = $5; skb[k, nsm[k]] = $6; have_sortmethod = 1; next }
$1 == "tracerows" { trows[$2] = $3; next }
$1 == "tracetime" { ttime[$2, $3] = $4; next }
$1 == "trace" { k = $2 SUBSEP $3; v = $0; sub(/^trace [a-z]+ [a-z0-9_]+ /, "", v); ntr[k]++; tr[k, ntr[k]] = v; have_trace = 1; next }
$1 == "plan" { k = $2 SUBSEP $3; v = $0; sub(/^plan [a-z]+ [a-z0-9_]+ /, "", v); np[k]++; plan[k, np[k]] = v; next }
$1 == "desc" { v = $0; sub(/^desc /, "", v); desc = desc v "\n"; next }
$1 == "result" { v = $0; sub(/^result [a-z0-9_]+ /, "", v); gsub(/\|/, ", ", v); res[$2] = v; next }
$1 == "load" { load[$2] = $3; next }
$1 == "elapsed" { el[$2] = $3; next }
$1 == "time" && $5 != "warm" {
  add($2 SUBSEP $3, $6); add($2 SUBSEP $3 SUBSEP $4, $6)
  if ($2 == "base") have_base = 1
  next
}
$1 == "rss" { add("rss" SUBSEP $2 SUBSEP $3, $5); next }
$1 == "perf" && $2 == "info" { perf_missing = 1; next }
$1 == "perf" && $2 == "skipped" { perf_skipped = $3; next }
$1 == "perf" && $3 == "share" { kshare[$2] = $4; ushare[$2] = $5; have_perf = 1; next }
$1 == "perf" && $3 == "sym" { ns[$2]++; sym[$2, ns[$2]] = $6; symk[$2, ns[$2]] = $5; symp[$2, ns[$2]] = $4; next }
$1 == "cg" && $2 == "total" { cgt[$3, $4] = $5; have_cg = 1; next }
$1 == "cg" && $2 == "fn" { ncgf[$3, $4]++; cgf[$3, $4, ncgf[$3, $4]] = sprintf("%8.1f  %s", $5, $6); cgv[$3, $4, $6] = $5; next }

# trace_sort figures of engine en on query q into tf[]: runs, tuples per
# run (first run, and the mean of all but the last when the engine logs
# the tuples of each run), merge passes or final merge width, how the sort
# ended; "" where the trace does not say
function trace_figures(en, q,    k, j, l, v, a, nr, tsum, tn, lastt) {
  delete tf
  k = en SUBSEP q; nr = 0; tn = 0; tsum = 0
  for (j = 1; j <= ntr[k]; j++) {
    l = tr[k, j]
    if (match(l, /finished writing run [0-9]+/)) {
      v = substr(l, RSTART, RLENGTH); sub(/.* /, "", v); if (v + 0 > nr) nr = v + 0
      if (match(l, /run [0-9]+[^0-9]+[0-9]+ tuples/)) {
        v = substr(l, RSTART, RLENGTH); sub(/ tuples/, "", v); sub(/.*[^0-9]/, "", v)
        tn++; tper[tn] = v + 0
      }
    }
    if (match(l, /performsort done: [0-9]+ runs?/)) { v = substr(l, RSTART, RLENGTH); gsub(/[^0-9]/, "", v); tf["runs_logged"] = v + 0 }
    if (match(l, /[0-9]+ merge pass/)) { v = substr(l, RSTART, RLENGTH); sub(/ .*/, "", v); tf["passes"] = v }
    if (match(l, /finished [0-9]+-way merge step/)) tf["steps"]++
    if (match(l, /[0-9]+-way final merge/)) { v = substr(l, RSTART, RLENGTH); gsub(/[^0-9]/, "", v); tf["final"] = v }
    if (match(l, /switching to external sort with [0-9]+ tapes/)) { v = substr(l, RSTART, RLENGTH); gsub(/[^0-9]/, "", v); tf["tapes"] = v }
    if (match(l, /external sort[a-z ]*(of worker -?[0-9]+ )?ended, [0-9]+ disk blocks used/)) { v = substr(l, RSTART, RLENGTH); sub(/ disk.*/, "", v); sub(/.* /, "", v); tf["ended"] = "external, " commas(v) " disk blocks" }
    if (match(l, /internal sort[a-z ]*(of worker -?[0-9]+ )?ended, [0-9]+ KB used/)) { v = substr(l, RSTART, RLENGTH); sub(/ KB.*/, "", v); sub(/.* /, "", v); tf["ended"] = "internal, " commas(v) " KB" }
    if (match(l, /workMem = [0-9]+/)) { v = substr(l, RSTART, RLENGTH); gsub(/[^0-9]/, "", v); tf["workmem"] = v }
  }
  if (tf["runs_logged"] != "") nr = tf["runs_logged"]
  tf["runs"] = nr
  if (tn > 0) {
    tf["first"] = tper[1]
    for (j = 1; j < tn; j++) tsum += tper[j]
    tf["mean"] = tn > 1 ? tsum / (tn - 1) : tper[1]
    tf["exact"] = 1
  } else if (nr > 0 && trows[q] > 0) {
    tf["mean"] = trows[q] / nr
    tf["hi"] = nr > 1 ? trows[q] / (nr - 1) : trows[q]
  }
  return ntr[k] > 0
}
function sort_trace_report(    i, q, e, en, have, j, k) {
  print "### trace_sort"
  print ""
  print "Each query once more in each engine with `SET trace_sort = on; SET client_min_messages = log;` (after its setup), untimed but for `\\timing`; the figures come from the LOG lines. PostgreSQL 15 logs each run it writes (`finished writing run N to tape M`), not its tuples, so its tuples per run is **≈ input rows ÷ runs**: every run but the last holds the same number of tuples (as many as fit in work_mem) and the last holds the rest, so a full run holds between rows ÷ runs and rows ÷ (runs − 1), the range given. tupledb logs the tuples of each run (`finished writing run N: T tuples, B bytes`): its figure is exact, the mean of all runs but the last (and its first run in parentheses). The last column divides tupledb'"'"'s figure by the upper end of PostgreSQL'"'"'s range, the comparison least favourable to tupledb. \"–\": the engine logged no such figure (an in-memory sort writes no runs)."
  print ""
  print "| query | input rows | tupledb runs | tupledb tuples per run | tupledb merge (steps + final width) | tupledb sort | tupledb ms | PostgreSQL runs | PostgreSQL tuples per run | PostgreSQL merge (tapes; steps + final width) | PostgreSQL sort | PostgreSQL ms | tuples per run tupledb ÷ PostgreSQL (its upper end) |"
  print "|---|--:|--:|--:|--:|---|--:|--:|--:|---|---|--:|--:|"
  for (i = 1; i <= nq; i++) {
    q = qs[i]
    trace_figures("tdb", q)
    t_runs = tf["runs"]; t_mean = tf["mean"]; t_first = tf["first"]; t_end = tf["ended"]; t_any = ntr["tdb" SUBSEP q] > 0
    t_pass = (tf["steps"] + 0) " steps" (tf["final"] != "" ? " + " tf["final"] "-way final" : "")
    if (t_runs == 0) t_pass = "–"
    trace_figures("pg", q)
    p_runs = tf["runs"]; p_mean = tf["mean"]; p_hi = tf["hi"]; p_end = tf["ended"]
    p_merge = (tf["tapes"] != "" ? tf["tapes"] " tapes; " : "") (tf["steps"] + 0) " steps" (tf["final"] != "" ? " + " tf["final"] "-way final" : "")
    if (p_runs == 0) p_merge = "–"
    printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", short[q], (q in trows ? commas(trows[q]) : "–"), \
      (t_any && t_runs > 0 ? commas(t_runs) : (t_any ? "0" : "–")), \
      (t_mean != "" ? commas(t_mean) (t_first != "" ? " (" commas(t_first) ")" : "") : "–"), dash(t_pass), dash(t_end), \
      (("tdb" SUBSEP q) in ttime ? f1(ttime["tdb", q]) : "–"), \
      (p_runs > 0 ? commas(p_runs) : "0"), (p_mean != "" ? "≈ " commas(p_mean) (p_hi != "" && p_hi != p_mean ? "–" commas(p_hi) : "") : "–"), \
      p_merge, dash(p_end), (("pg" SUBSEP q) in ttime ? f1(ttime["pg", q]) : "–"), \
      (t_mean != "" && p_mean != "" && p_mean > 0 ? sprintf("%.2f", t_mean / (p_hi != "" ? p_hi : p_mean)) : "–")
  }
  print ""
  print "<details><summary>The trace lines</summary>"
  print ""
  print "```"
  for (i = 1; i <= nq; i++) {
    q = qs[i]
    for (e = 1; e <= 2; e++) {
      en = e == 1 ? "tdb" : "pg"; k = en SUBSEP q
      printf "%s, %s:%s\n", short[q], (e == 1 ? "tupledb" : "PostgreSQL"), (ntr[k] ? "" : " (no trace lines)")
      for (j = 1; j <= ntr[k]; j++) print "  " tr[k, j]
      print ""
    }
  }
  print "```"
  print ""
  print "</details>"
  print ""
}

END {
  for (i = 1; i <= nq; i++) names[qs[i]] = long[qs[i]] ": `" (qs[i] in setup ? setup[qs[i]] " " : "") sql[qs[i]] "`" (qs[i] in setup_pg ? " (PostgreSQL first also `" setup_pg[qs[i]] "`)" : "")
  print heading
  print ""
  if (quick == 1)
    print "**QUICK run (small tables, few rounds): for development only, not comparable.**\n"
  if (pg_only)
    print "**PostgreSQL only (TDB_BENCH_PG_ONLY=1): tupledb ran nothing; its columns are empty.**\n"
  printf "`make bench-%s` (bench/sql/run.sh, workload set `%s`) on %s: %s (%s vCPUs; %s), kernel %s, %s, tupledb at %s. PostgreSQL %s: %s.\n\n", \
    info["set"], info["set"], date, cpu, ncpu, caches, kernel, cc, rev, pginfo["version"], pginfo["settings"]
  printf "%s\n", desc
  printf "Each query runs in %s rounds; in each round each engine gets one new session (a new `tupledb` shell process / a new psql connection), which engine goes first alternating, and each session runs the query once untimed and then %s times under `\\timing` (the client-side time of the statement: the shell calling the C API in-process, psql a round trip to the backend). Times are medians and minima over all timed runs; the ratio is **PostgreSQL ÷ tupledb** (2.00× means tupledb takes half the time), of the medians, with the min–max of the per-round ratios. Peak RSS is VmHWM of the session: the tupledb shell process, which is the whole engine, and the PostgreSQL backend (which also counts the shared memory it touched).\n\n", \
    info["rounds"], info["reps"]
  if (odd_reps) {
    printf "Timed runs per session by query:"
    for (i = 1; i <= nq; i++) printf "%s %s %s", (i > 1 ? "," : ""), short[qs[i]], qreps[qs[i]]
    printf "; the statements before a query'"'"'s SQL in its name run at the start of the session, untimed.\n\n"
  }
  qps = info["show_qps"] != ""
  split(info["show_qps"], qpsl, " "); for (k in qpsl) want_qps[qpsl[k]] = 1
  print "| query | result | tupledb median ms | tupledb best | PostgreSQL median ms | PostgreSQL best | **PostgreSQL ÷ tupledb** | per-round min–max | peak RSS tupledb / PostgreSQL (MB) |" (qps ? " queries/s tupledb / PostgreSQL (of the medians) |" : "") (have_base ? " tupledb before: median ms | best | PostgreSQL ÷ tupledb before |" : "")
  print "|---|---|--:|--:|--:|--:|--:|--:|--:|" (qps ? "--:|" : "") (have_base ? "--:|--:|--:|" : "")
  for (i = 1; i <= nq; i++) {
    q = qs[i]; paired(q)
    tm = median("tdb" SUBSEP q); pm = median("pg" SUBSEP q)
    printf "| %s | %s | %s | %s | %s | %s | **%s** | %s | %s / %s |", names[q], res[q] (q in failed ? " (PostgreSQL)" : ""), \
      (q in failed ? (pg_only ? "not run" : "**fails**") : f1(tm)), (q in failed ? "–" : f1(lo("tdb" SUBSEP q))), \
      f1(pm), f1(lo("pg" SUBSEP q)), x(ratio(pm, tm)), xrange("pair" SUBSEP q), \
      (q in failed ? "–" : mb(median("rss" SUBSEP "tdb" SUBSEP q))), mb(median("rss" SUBSEP "pg" SUBSEP q))
    if (qps)
      printf " %s |", (q in want_qps && tm > 0 && pm > 0 ? commas(1000 / tm) " / " commas(1000 / pm) : "–")
    if (have_base)
      printf " %s | %s | %s |", f1(median("base" SUBSEP q)), f1(lo("base" SUBSEP q)), x(ratio(pm, median("base" SUBSEP q)))
    printf "\n"
  }
  for (i = 1; i <= nq; i++)
    if (qs[i] in failed && !pg_only) printf "\n**tupledb fails %s**: `%s` (PostgreSQL'"'"'s figures are measured all the same).\n", short[qs[i]], failed[qs[i]]
  if (have_qbase) {
    print ""
    print "Each query against its baseline (the same query on the untoasted copy of the value): the toasted query'"'"'s median over the baseline'"'"'s, with the min–max of the per-round ratios (each round times both in the same way); the speed ratio **PostgreSQL ÷ tupledb** of the toasted query again; and whether each engine'"'"'s plan has the shape the query is named for (its EXPLAIN, below)."
    print ""
    print "| query | PostgreSQL ms | tupledb ms | **PostgreSQL ÷ tupledb** | per-round min–max | PostgreSQL ms untoasted | PostgreSQL toasted ÷ untoasted (rounds) | tupledb ms untoasted | **tupledb toasted ÷ untoasted** | per-round min–max | plan shape tupledb / PostgreSQL |"
    print "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"
    for (i = 1; i <= nq; i++) {
      q = qs[i]
      if (!(q in base)) continue
      b = base[q]; paired(q); based("tdb", q, b); based("pg", q, b)
      tm = median("tdb" SUBSEP q); pm = median("pg" SUBSEP q)
      tb = median("tdb" SUBSEP b); pb = median("pg" SUBSEP b)
      printf "| %s | %s | %s | **%s** | %s | %s | %s | %s | **%s** | %s | %s / %s |\n", short[q], f1(pm), (q in failed ? "–" : f1(tm)), \
        x(ratio(pm, tm)), xrange("pair" SUBSEP q), f1(pb), x(ratio(pm, pb)) " (" xrange("based" SUBSEP "pg" SUBSEP q) ")", (b in failed ? "–" : f1(tb)), \
        x(ratio(tm, tb)), xrange("based" SUBSEP "tdb" SUBSEP q), shp("tdb", q) " (" shp("tdb", b) ")", shp("pg", q) " (" shp("pg", b) ")"
    }
    print ""
    print "The plan shape column: toasted query (its baseline)."
  }
  if (pg_only)
    printf "\nAn idle session (`SELECT 1`) peaks at %s MB (PostgreSQL backend). Loading took %.1f s in PostgreSQL (the INSERTs, VACUUM ANALYZE, CHECKPOINT).", \
      mb(median("rss" SUBSEP "pg" SUBSEP "idle")), load["pg"] / 1000
  else
  printf "\nAn idle session (`SELECT 1`) peaks at %s MB (tupledb) and %s MB (PostgreSQL backend). Loading took %.1f s in tupledb and %.1f s in PostgreSQL (the INSERTs, VACUUM ANALYZE%s).", \
    mb(median("rss" SUBSEP "tdb" SUBSEP "idle")), mb(median("rss" SUBSEP "pg" SUBSEP "idle")), load["tdb"] / 1000, load["pg"] / 1000, ", CHECKPOINT"
  if (have_base) printf " The \"before\" columns are `%s`, another build of the shell timed in the same rounds on the same database (TDB_BENCH_COMPARE).", info["compare_rev"]
  print "\n"
  if (have_sortmethod) {
    print "`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)` of each query, once per engine after the result check (after the query'"'"'s setup statements): the `Sort Method` line of each Sort node."
    print ""
    print "| query | tupledb Sort Method | tupledb Memory / Disk kB | PostgreSQL Sort Method | PostgreSQL Memory / Disk kB |"
    print "|---|---|--:|---|--:|"
    for (i = 1; i <= nq; i++) {
      q = qs[i]; kt = "tdb" SUBSEP q; kp = "pg" SUBSEP q
      m = nsm[kt] > nsm[kp] ? nsm[kt] : nsm[kp]
      if (m == 0) m = 1
      for (j = 1; j <= m; j++)
        printf "| %s | %s | %s | %s | %s |\n", short[q], \
          (q in failed ? (pg_only ? "not run" : "fails") : dash(unders(smeth[kt, j]))), ((kt, j) in skind ? skind[kt, j] " " commasd(skb[kt, j]) : "–"), \
          dash(unders(smeth[kp, j])), ((kp, j) in skind ? skind[kp, j] " " commasd(skb[kp, j]) : "–")
    }
    print ""
  }
  if (have_trace) sort_trace_report()
  if (have_batches) {
    print "`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)` of each query, once per engine after the result check (after the query'"'"'s setup statements), each node that reports `Batches` (\"–\": the engine prints no such node or figure; PostgreSQL 15 prints none for a hashed SetOp):"
    print ""
    print "| query | node | tupledb Batches | tupledb Memory Usage kB | tupledb Disk Usage kB | PostgreSQL node | PostgreSQL Batches | PostgreSQL Memory Usage kB | PostgreSQL Disk Usage kB | Memory Usage tupledb ÷ PostgreSQL |"
    print "|---|---|--:|--:|--:|---|--:|--:|--:|--:|"
    for (i = 1; i <= nq; i++) {
      q = qs[i]; kt = "tdb" SUBSEP q; kp = "pg" SUBSEP q
      m = nx[kt] > nx[kp] ? nx[kt] : nx[kp]
      for (j = 1; j <= m; j++) {
        mt = xm[kt, j]; mp = xm[kp, j]
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", short[q], dash(unders(xnode[kt, j])), dash(xb[kt, j]), dash(commasd(mt)), dash(commasd(xd[kt, j])), \
          dash(unders(xnode[kp, j])), dash(xb[kp, j]), dash(commasd(mp)), dash(commasd(xd[kp, j])), \
          (mt ~ /^[0-9]+$/ && mp ~ /^[0-9]+$/ && mp > 0 ? sprintf("%.2f", mt / mp) : "–")
      }
    }
    print ""
  }
  if (info["target_text"] != "") {
    print info["target_text"]
    print ""
    for (i = 1; i <= nq; i++) {
      q = qs[i]
      if (!(q in target)) continue
      r = ratio(median("pg" SUBSEP q), median("tdb" SUBSEP q))
      if (q in failed) { printf "* %s: — **%s**\n", short[q], (pg_only ? "not measured" : "missed (tupledb fails the query)"); continue }
      printf "* %s: %s — **%s** (median ratio; rounds %s)\n", short[q], x(r), (r >= target[q] ? "met" : "missed"), xrange("pair" SUBSEP q)
    }
    for (i = 1; i <= nq; i++) {
      q = qs[i]
      if (!(q in basetarget)) continue
      b = base[q]
      if (q in failed || b in failed) { printf "* %s within %s× of its untoasted baseline: — **%s**\n", short[q], basetarget[q], (pg_only ? "not measured" : "missed (tupledb fails the query)"); continue }
      r = ratio(median("tdb" SUBSEP q), median("tdb" SUBSEP b))
      printf "* %s ÷ %s (tupledb): %s — **%s** (target at most %s×; rounds %s)\n", short[q], short[b], x(r), (r >= 0 && r <= basetarget[q] ? "met" : "missed"), basetarget[q], xrange("based" SUBSEP "tdb" SUBSEP q)
    }
    for (i = 1; i <= nq; i++) {
      q = qs[i]
      if (!(q in memtarget)) continue
      mt = xm["tdb" SUBSEP q, 1]; mp = xm["pg" SUBSEP q, 1]
      if (q in failed)
        printf "* %s memory: — **missed** (tupledb fails the query; PostgreSQL: %s kB)\n", short[q], commasd(mp)
      else if (mt ~ /^[0-9]+$/ && mp ~ /^[0-9]+$/ && mp > 0)
        printf "* %s memory: EXPLAIN ANALYZE Memory Usage %s kB (tupledb) ÷ %s kB (PostgreSQL) = %.2f, target at most %s — **%s**\n", \
          short[q], commas(mt), commas(mp), mt / mp, memtarget[q], (mt / mp <= memtarget[q] ? "met" : "missed")
      else
        printf "* %s memory: no Memory Usage from %s — **not measured**\n", short[q], (mt ~ /^[0-9]+$/ ? "PostgreSQL" : "tupledb")
    }
    print ""
  }

  if (have_explain) {
    print "<details><summary>The plans (EXPLAIN ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)</summary>"
    print ""
    print "```"
    for (i = 1; i <= nq; i++) {
      q = qs[i]
      for (e = 1; e <= 2; e++) {
        k = (e == 1 ? "tdb" : "pg") SUBSEP q
        printf "%s, %s:\n", short[q], (e == 1 ? "tupledb" : "PostgreSQL")
        for (j = 1; j <= np[k]; j++) print "  " plan[k, j]
        print ""
      }
    }
    print "```"
    print ""
    print "</details>"
    print ""
  }
  print "### Where the time goes"
  print ""
  if (have_cg) {
    printf "callgrind instructions per row (`Ir`; repeatable, blind to cache misses and to the kernel) on %s counting only the executor: tupledb'"'"'s `tdb_exec_run`, PostgreSQL'"'"'s `standard_ExecutorRun` in single-user mode (`postgres --single`, same settings). Both include reading the pages from the OS page cache into the buffer pool and checking their checksums.\n\n", (info["cg_desc"] != "" ? info["cg_desc"] : "copies of the tables with " commas(info["cg_rows"]) " rows")
    print "| query | tupledb Ir/row | PostgreSQL Ir/row | PostgreSQL ÷ tupledb |"
    print "|---|--:|--:|--:|"
    for (i = 1; i <= nq; i++) {
      q = qs[i]
      printf "| %s | %.0f | %.0f | %s |\n", short[q], cgt["tdb", q], cgt["pg", q], x(ratio(cgt["pg", q], cgt["tdb", q]))
    }
    print ""
    print "tupledb'"'"'s self instructions per row by function (inlined code counts for its caller):"
    print ""
    print "```"
    for (i = 1; i <= nq; i++) {
      q = qs[i]
      printf "%s: %.1f Ir/row\n", short[q], cgt["tdb", q]
      for (k = 1; k <= ncgf["tdb", q] && k <= 8; k++) print cgf["tdb", q, k]
      print ""
    }
    print "```"
    print ""
  }
  if (have_perf) {
    printf "`perf record -e cpu-clock -a` (a software clock: this VM has no hardware counters) over one session running %s %d times, samples of the engine'"'"'s process only: tupledb spends %.0f%% of its time in the kernel, PostgreSQL %.0f%%.\n\n", (info["perf_query"] in short ? short[info["perf_query"]] : info["perf_query"]), (info["perf_runs"] != "" ? info["perf_runs"] : 10) + 1, kshare["tdb"], kshare["pg"]
    print "Top functions (self; [k] kernel):"
    print ""
    print "```"
    for (e = 1; e <= 2; e++) {
      en = e == 1 ? "tdb" : "pg"
      print (e == 1 ? "tupledb" : "PostgreSQL")
      for (k = 1; k <= ns[en] && k <= 12; k++) printf "%6.2f%%  %s %s\n", symp[en, k], symk[en, k], sym[en, k]
      print ""
    }
    print "```"
    print ""
  } else if (perf_skipped != "") {
    printf "perf did not run: tupledb fails its query (%s).\n\n", short[perf_skipped]
  } else if (perf_missing) {
    print "perf could not record on this machine; only callgrind figures are given."
    print ""
  }
}
' "$raw" >"$section"
cat "$set_notes" >>"$section"

cat "$section"
cp "$section" "$section_out"
echo "bench-$set_name: the section is also in $section_out"

if [ "$results" != "-" ]; then
  bench_write_section "$results" "$heading" "$section" "${set_keep_subsections[@]}"
  echo "bench-$set_name: updated $results (raw records: $raw)"
fi
