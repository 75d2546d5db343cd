#!/usr/bin/env bash
# run.sh -- pgbench against `tupledb serve` and a throwaway PostgreSQL 15
# configured alike, side by side in one run (and, given PG_BIN, a second
# throwaway PostgreSQL from those binaries, e.g. a newer release: "pg2").
#
#   bench/server/run.sh [PATH/TO/tupledb] [SET]
#
# SET names a workload set, sets/SET.sh (bench/README.md, "Workload sets
# of bench-server"): the tables, the pgbench scripts and the report's
# section:
#   roundtrip (default; make bench-server) issue 7: SELECT 1 and a 10-row
#             query, simple and prepared, 1 and 2 clients; per-connection
#             memory, system calls per transaction
#   hashagg   (make bench-hashagg-pgbench; make bench-hashagg) issue 8:
#             c, wide and except of the "Reduce TupleHashEntryData struct
#             size by half" thread, simple and prepared; a subsection of
#             "## Hash aggregation (issue 8)"
#   suite     (make bench) issue 11: point queries, deform, hash
#             aggregation and TOAST, simple and prepared
#
# 1. Starts `tupledb serve` on a fresh data directory "bench" (the
#    database the clients ask for; superuser bench)
#    and a throwaway PostgreSQL 15 (tests/fixtures/pg/throwaway_pg.sh:
#    unprivileged user, temporary directory, fsync on, shared_buffers
#    128MB and work_mem 4MB as tupledb's defaults, jit off, no parallel
#    workers; initdb with the set's set_initdb_opts).  Both listen on a
#    Unix socket only, and pgbench 15 connects to both that way.  With
#    PG_BIN, a second PostgreSQL ("pg2") started the same way from those
#    binaries, with the same settings, is a third engine in every step
#    below (but per-connection memory and strace, 4 and 5, stay with
#    PostgreSQL 15); PostgreSQL 15's pgbench and psql drive all three.
# 2. Loads the same tables in all engines through psql with the same SQL
#    (the set's set_load_sql), CHECKPOINT in PostgreSQL, and stops unless
#    all give the same answer to each of the set's set_checks.
# 3. Workloads, each a pgbench custom script (-n, -f) for TIME seconds;
#    per round every workload runs once per engine, the engines
#    alternating (A B in odd rounds, B A in even ones; with pg2, A B C
#    and C B A); the tps of each
#    run is a raw record, and so is the peak RSS of the server side
#    during the run: tupledb's server process (its VmHWM, reset through
#    /proc/PID/clear_refs before the run) and PostgreSQL's backends
#    (their VmHWM, sampled every half second while pgbench runs; the
#    largest).  The load average is recorded before the runs, at each
#    round's start and after the runs.
#    Before the rounds each workload runs once on both (pgbench -t 1): one
#    that fails on tupledb is recorded as unsupported and not timed, one
#    that fails on a PostgreSQL stops the run.  After them, for a set with
#    set_perf=1 when perf works (TDB_BENCH_PERF not 0), one more run per
#    workload and engine with `perf stat` on the server side: CPU time
#    (and, where the machine has hardware counters, instructions and
#    IPC) per transaction.
# 4. Per-connection memory (set_conn_memory=1): N idle connections (each
#    has run one query) are held open by a small Python client; for
#    tupledb the growth of the server's VmRSS divided by N, for
#    PostgreSQL the median backend's Rss and Pss from
#    /proc/PID/smaps_rollup.
# 5. Where the time goes (set_strace=1, TDB_BENCH_PROFILE not 0): `strace
#    -c -f` on each server during a short 1-client -M prepared SELECT 1
#    run, as system calls per transaction.
# 6. Prints the set's section (set_heading) -- or its subsection
#    (set_subheading) of that section -- and replaces it in
#    bench/RESULTS.md; the set's set_notes file is its fixed "Reading
#    the figures" part.  TDB_BENCH_REPORT_ONLY=1 rebuilds it from the raw
#    records.
#
# Environment:
#   QUICK=1                 2 rounds of 3 s (development; the section says so)
#   TDB_BENCH_ROUNDS        rounds (the set's set_rounds, default 5)
#   TDB_BENCH_TIME          seconds per pgbench run (set_time, default 10)
#   TDB_BENCH_CONNS         idle connections for the memory figure (50)
#   TDB_BENCH_PROFILE       0 skips strace
#   TDB_BENCH_RESULTS       file to update (bench/RESULTS.md); - only prints
#   TDB_BENCH_RAW           raw records (the set's set_raw_name next to
#                           the binary: server-raw.txt,
#                           hashagg-pgbench-raw.txt)
#   TDB_BENCH_REPORT_ONLY   1: rebuild the section from the raw records
#   TDB_BENCH_ONLY          "deform toast_init": only the workloads whose
#                           name or script is a word, or whose script
#                           starts with WORD_
#   TDB_BENCH_PERF          0 skips perf stat
#   TDB_BENCH_CHART         PNG bar chart of the ratios (gnuplot): default
#                           the set's set_chart (suite: bench/suite-ratios.png)
#                           unless QUICK=1 or TDB_BENCH_RESULTS=-
#   PG15_BIN (or PGBIN)     the PostgreSQL to compare with, whose pgbench
#                           and psql drive every engine
#                           (/usr/lib/postgresql/15/bin)
#   PG_BIN                  another PostgreSQL's binaries (initdb, pg_ctl,
#                           postgres), e.g. /usr/lib/postgresql/17/bin:
#                           a third engine, pg2, in the same run (none)
#
# Exit status 2 when the setup is broken (bench/README.md).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/common/lib.sh
. "$here/../common/lib.sh"
root=$bench_root

TDB=${1:-$root/build/release/tupledb}
[ -x "$TDB" ] || bench_die "$TDB is not an executable"
TDB=$(cd "$(dirname "$TDB")" && pwd)/$(basename "$TDB")
SET=${2:-roundtrip}
[ -f "$here/sets/$SET.sh" ] ||
  bench_die "unknown workload set $SET (known: $(cd "$here/sets" && ls | sed 's/\.sh$//' | tr '\n' ' '))"
# what a set may leave out: a subsection of set_heading to write instead
# of the whole section; initdb options; rounds and seconds per run; the
# per-connection memory and strace steps (and the query each idle
# connection runs); a paragraph on the tables; per-script targets
# (tupledb / PostgreSQL tps at least this) and the sentence stating them
set_subheading="" set_initdb_opts="" set_rounds=5 set_time=10
set_conn_memory=0 set_conn_memory_sql="SELECT 1" set_strace=0
set_target_text="" set_chart="" set_perf=0
# what the timed load steps are called in the report
set_load_desc_sql="the set's SQL" set_load_desc_engine="the set's own loader"
set_describe() { :; }
# called once the workloads are chosen (TDB_BENCH_ONLY), before loading:
# a set may fill set_checks for those only
set_prepare() { :; }
declare -A script_target=()
# shellcheck source=bench/server/sets/roundtrip.sh
. "$here/sets/$SET.sh"

# PG15_BIN (or PGBIN, as the other benchmarks and throwaway_pg.sh read
# it): the PostgreSQL whose pgbench and psql drive every engine.  PG_BIN:
# a second PostgreSQL, the engine "pg2" (e.g. a newer release).
PG15_BIN=${PG15_BIN:-${PGBIN:-/usr/lib/postgresql/15/bin}}
export PGBIN=$PG15_BIN
PG2_BIN=${PG_BIN:-}
PGBENCH=$PG15_BIN/pgbench
PSQL15=$PG15_BIN/psql
# the engines of this run, in the order of odd rounds
ENGINES="tupledb postgresql${PG2_BIN:+ pg2}"
QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then
  ROUNDS=${TDB_BENCH_ROUNDS:-2}; TIME=${TDB_BENCH_TIME:-3}
else
  ROUNDS=${TDB_BENCH_ROUNDS:-$set_rounds}; TIME=${TDB_BENCH_TIME:-$set_time}
fi
CONNS=${TDB_BENCH_CONNS:-50}
RESULTS=${TDB_BENCH_RESULTS:-$root/bench/RESULTS.md}
raw=${TDB_BENCH_RAW:-$(dirname "$TDB")/$set_raw_name}
WORKLOADS=$set_workloads
# TDB_BENCH_ONLY="deform toast_sort c_simple": the workloads whose name or
# script is one of the words, or whose script starts with WORD_ (a group)
if [ -n "${TDB_BENCH_ONLY:-}" ]; then
  WORKLOADS=$(awk -v only="$TDB_BENCH_ONLY" '
    BEGIN { n = split(only, w, " ") }
    { for (i = 1; i <= n; i++) if ($1 == w[i] || $2 == w[i] || index($2, w[i] "_") == 1) { print; next } }' <<<"$set_workloads")
  [ -n "$WORKLOADS" ] ||
    bench_die "TDB_BENCH_ONLY=$TDB_BENCH_ONLY selects nothing (workloads: $(awk '{ printf "%s ", $1 }' <<<"$set_workloads"))"
fi
set_prepare

# ----------------------------------------------------------------------
# The report (from the raw records only)

report() {
  local k descs="" targets=""
  for k in "${!script_desc[@]}"; do descs+="$k	${script_desc[$k]}"$'\n'; done
  for k in "${!script_target[@]}"; do targets+="$k ${script_target[$k]}"$'\n'; done
  bench_describe_machine
  awk "${bench_machine_vars[@]}" -v notes="$set_notes" -v workloads="$WORKLOADS" \
      -v heading="${set_subheading:-$set_heading}" -v make="$set_make" -v set="$SET" \
      -v describe="$(set_describe)" -v descs="$descs" -v targets="$targets" \
      -v target_text="$set_target_text" -v loaddesc_sql="$set_load_desc_sql" \
      -v loaddesc_engine="$set_load_desc_engine" "$bench_awk_stats"'
    function mb(kb) { return sprintf("%.0f", kb / 1024) }
    function commas(s) { while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
    # a slow query runs few transactions a run: keep two digits below 10,
    # and below 1 tps say the milliseconds per transaction too
    function tpsfmt(v) {
      if (v < 0) return "n/a"
      if (v > 0 && v < 1) return sprintf("%.2f (%s ms)", v, commas(sprintf("%.0f", 1000 / v)))
      return sprintf(v < 10 ? "%.2f" : "%.0f", v)
    }
    # perf figure per transaction (task-clock is in ms: scale 1000 gives µs)
    function pertx(w, e, ev, scale) {
      if (!((w, e, ev) in perf) || perftx[w, e] + 0 == 0) return "–"
      return sprintf(perf[w, e, ev] * scale / perftx[w, e] >= 100 ? "%.0f" : "%.1f", perf[w, e, ev] * scale / perftx[w, e])
    }
    function ipc(w, e) {
      if (!((w, e, "cycles") in perf) || perf[w, e, "cycles"] + 0 == 0) return "–"
      return sprintf("%.2f", perf[w, e, "instructions"] / perf[w, e, "cycles"])
    }
    $1 == "cfg"   { sub(/^cfg /, ""); split($0, kv, "="); cfg[kv[1]] = substr($0, length(kv[1]) + 2) }
    $1 == "tps"   { add($2 SUBSEP $3, $5); tps[$2, $3, $4] = $5 }
    $1 == "rss"   { add("rss" SUBSEP $2 SUBSEP $3, $5); have_rss = 1 }
    $1 == "rssbase" { add("rssbase", $5) }
    $1 == "load"  { if ($2 == "round") { add("load1", $4); nload++ } else load[$2] = $3 " " $4 " " $5 }
    $1 == "mem"   { mem[$2, $3] = $4 }
    $1 == "sys"   { sys[$2, ++nsys[$2]] = $3 " " $4 }
    $1 == "systx" { systx[$2] = $3 }
    $1 == "perftx" { perftx[$2, $3] = $4 }
    $1 == "perf"  { perf[$2, $3, $4] = $5; have_perf = 1; if ($4 == "instructions") have_ipc = 1 }
    $1 == "unsupported" { unsup[$2] = substr($0, length($1) + length($2) + 3) }
    $1 == "loadtime" { loadtime[$2, $3] = $4; have_loadtime[$3] = 1 }
    END {
      nw = split(workloads, wl, "\n")
      nd = split(descs, dl, "\n")
      for (i = 1; i <= nd; i++) if (dl[i] != "") { t = index(dl[i], "\t"); desc[substr(dl[i], 1, t - 1)] = substr(dl[i], t + 1) }
      nt = split(targets, tl, "\n")
      for (i = 1; i <= nt; i++) if (tl[i] != "") { split(tl[i], tt, " "); target[tt[1]] = tt[2] }
      printf "%s\n\n", heading
      if (cfg["quick"] == 1)
        printf "**QUICK run (few, short rounds): for development only, not comparable.**\n\n"
      printf "Written by `%s` (bench/server/run.sh, workload set `%s`; bench/README.md\n", make, set
      printf "describes it) on %s. Machine: %s, %s vCPUs (%s), Linux %s; %s; tupledb measured at %s.\n", date, cpu, ncpu, caches, kernel, cc, cfg["tdbrev"] != "" ? cfg["tdbrev"] : rev
      pg2 = ("pg2version" in cfg)
      if (pg2) {
        printf "PostgreSQL: %s; the second PostgreSQL, `pg2` in the tables (PG_BIN=%s): %s; pgbench (and psql, for all three engines): %s.\n", cfg["pgversion"], cfg["pg2bin"], cfg["pg2version"], cfg["pgbench"]
        printf "PostgreSQL settings: %s%s. tupledb: `tupledb serve` defaults (128 MB\n", cfg["pgsettings"], cfg["pg2settings"] == cfg["pgsettings"] ? " (pg2 the same)" : "; pg2: " cfg["pg2settings"]
        printf "buffer pool, work_mem 4MB, one thread per connection). All three over a Unix socket,\n"
      } else {
        printf "PostgreSQL: %s; pgbench: %s.\n", cfg["pgversion"], cfg["pgbench"]
        printf "PostgreSQL settings: %s. tupledb: `tupledb serve` defaults (128 MB\n", cfg["pgsettings"]
        printf "buffer pool, work_mem 4MB, data checksums (always on), one thread per connection).\nAll over a Unix socket,\n"
      }
      printf "%s rounds of %s s per workload and engine, the engines alternating%s.\n", cfg["rounds"], cfg["time"], cfg["quick"] == 1 ? " (**QUICK mode: development figures, not for comparison**)" : ""
      if ("start" in load)
        printf "Load average (1, 5, 15 min) before the runs %s, after them %s; at the start of each round (1 min) %s–%s, pgbench and the server of the run before included.\n", load["start"], load["end"], lo("load1"), hi("load1")
      printf "\n"
      if (describe != "") printf "%s\n\n", describe
      if (length(have_loadtime) > 0) {
        printf "Loading, once per engine (tupledb first), wall-clock seconds through psql%s:\n\n", ("engine" in have_loadtime) ? " and the set'"'"'s own client" : ""
        printf "| load step | tupledb (s) | PostgreSQL (s) | tupledb / PostgreSQL time |\n|---|---:|---:|---:|\n"
        for (si = 1; si <= split("sql engine", steps, " "); si++) {
          st = steps[si]
          if (!(st in have_loadtime)) continue
          printf "| %s | %s | %s | %s |\n", st == "sql" ? loaddesc_sql : loaddesc_engine, loadtime["tupledb", st], loadtime["postgresql", st], (loadtime["postgresql", st] > 0 ? sprintf("%.2f", loadtime["tupledb", st] / loadtime["postgresql", st]) : "–")
        }
        printf "\n"
      }
      printf "| workload | pgbench | tupledb tps (median) | PostgreSQL tps (median) | tupledb / PostgreSQL (median, min–max over rounds) |%s%s\n", pg2 ? " pg2 tps (median) | tupledb / pg2 (median, min–max over rounds) |" : "", have_rss ? (pg2 ? " peak RSS tupledb / PostgreSQL / pg2 (MB, median) |" : " peak RSS tupledb / PostgreSQL (MB, median) |") : ""
      printf "|---|---|---:|---:|---|%s%s\n", pg2 ? "---:|---|" : "", have_rss ? "---:|" : ""
      for (i = 1; i <= nw; i++) {
        split(wl[i], w, " ")
        name = w[1]
        # per-round ratios
        for (r = 1; r <= cfg["rounds"]; r++)
          if ((name, "tupledb", r) in tps && (name, "postgresql", r) in tps && tps[name, "postgresql", r] > 0)
            add("ratio" SUBSEP name, tps[name, "tupledb", r] / tps[name, "postgresql", r])
        if (pg2)
          for (r = 1; r <= cfg["rounds"]; r++)
            if ((name, "tupledb", r) in tps && (name, "pg2", r) in tps && tps[name, "pg2", r] > 0)
              add("ratio2" SUBSEP name, tps[name, "tupledb", r] / tps[name, "pg2", r])
        if (name in unsup) {
          printf "| %s | `-M %s -c %s -j %s` | **unsupported** | | tupledb: %s |%s%s\n", desc[w[2]], w[3], w[4], w[4], unsup[name], pg2 ? " | |" : "", have_rss ? " |" : ""
          continue
        }
        mt = median(name SUBSEP "tupledb"); mp = median(name SUBSEP "postgresql")
        rt[name] = ratio(mt, mp)
        printf "| %s | `-M %s -c %s -j %s` | %s | %s | %s (%s) |", desc[w[2]], w[3], w[4], w[4], tpsfmt(mt), tpsfmt(mp), x(rt[name]), xrange("ratio" SUBSEP name)
        if (pg2) {
          m2 = median(name SUBSEP "pg2")
          printf " %s | %s (%s) |", tpsfmt(m2), x(ratio(mt, m2)), xrange("ratio2" SUBSEP name)
        }
        if (have_rss) printf " %s / %s%s |", mb(median("rss" SUBSEP name SUBSEP "tupledb")), mb(median("rss" SUBSEP name SUBSEP "postgresql")), pg2 ? " / " mb(median("rss" SUBSEP name SUBSEP "pg2")) : ""
        printf "\n"
      }
      if (have_rss)
        printf "\nPeak RSS: tupledb'"'"'s whole server process (VmHWM, reset before each run; its VmRSS when a run began: median %s MB), %s backend serving pgbench (VmHWM, including the shared memory it touched).\n", mb(median("rssbase")), pg2 ? "each PostgreSQL'"'"'s" : "PostgreSQL'"'"'s"
      if (have_perf) {
        printf "\nThe server side under `perf stat` (one more %s s run per workload and engine, 1 client, not among the timed runs; tupledb'"'"'s server process, PostgreSQL'"'"'s backend): CPU time per transaction%s.\n\n", cfg["time"], have_ipc ? ", instructions per transaction and per cycle" : " (this machine'"'"'s perf has no hardware counters: no instructions or IPC)"
        engs = pg2 ? "tupledb / PostgreSQL / pg2" : "tupledb / PostgreSQL"
        printf "| workload | pgbench | server CPU µs / transaction, %s |%s\n", engs, have_ipc ? " instructions / transaction, " engs " | IPC, " engs " |" : ""
        printf "|---|---|---:|%s\n", have_ipc ? "---:|---:|" : ""
        for (i = 1; i <= nw; i++) {
          split(wl[i], w, " ")
          wn = w[1]
          if (!((wn, "tupledb", "task-clock") in perf)) continue
          printf "| %s | `-M %s` | %s / %s%s |", desc[w[2]], w[3], pertx(wn, "tupledb", "task-clock", 1000), pertx(wn, "postgresql", "task-clock", 1000), pg2 ? " / " pertx(wn, "pg2", "task-clock", 1000) : ""
          if (have_ipc)
            printf " %s / %s%s | %s / %s%s |", pertx(wn, "tupledb", "instructions", 1), pertx(wn, "postgresql", "instructions", 1), pg2 ? " / " pertx(wn, "pg2", "instructions", 1) : "", ipc(wn, "tupledb"), ipc(wn, "postgresql"), pg2 ? " / " ipc(wn, "pg2") : ""
          printf "\n"
        }
      }
      if (target_text != "") {
        printf "\n%s\n\n", target_text
        for (i = 1; i <= nw; i++) {
          split(wl[i], w, " ")
          if (!(w[2] in target)) continue
          printf "* %s, `-M %s`: %s — **%s** (rounds %s)\n", w[2], w[3], x(rt[w[1]]), (rt[w[1]] >= 0 && rt[w[1]] > target[w[2]] ? "met" : "missed"), xrange("ratio" SUBSEP w[1])
        }
      }
      if (("tupledb", "per_conn_kb") in mem) {
        printf "\nPer-connection memory, %s idle connections that have each run one query:\n\n", cfg["conns"]
        printf "| engine | per connection | how measured |\n|---|---:|---|\n"
        printf "| tupledb | %s kB | growth of the server process'"'"'s VmRSS (%s → %s kB) / %s |\n", mem["tupledb", "per_conn_kb"], mem["tupledb", "before_kb"], mem["tupledb", "after_kb"], cfg["conns"]
        printf "| PostgreSQL | %s kB private (%s kB Pss, %s kB Rss) | median backend, /proc/PID/smaps_rollup: Private_Clean + Private_Dirty (pages only this backend maps); Pss shares the shared pages among the processes mapping them; Rss counts them whole |\n", mem["postgresql", "private_kb"], mem["postgresql", "pss_kb"], mem["postgresql", "rss_kb"]
      }
      if (("tupledb" in systx) || ("postgresql" in systx)) {
        printf "\nSystem calls per transaction, `strace -c -f` on the server during a 1-client\n"
        printf "`-M prepared` `SELECT 1` run (strace slows both; only the counts matter):\n\n"
        printf "| engine | calls per transaction | the calls (per transaction) |\n|---|---:|---|\n"
        for (e = 1; e <= 2; e++) {
          eng = e == 1 ? "tupledb" : "postgresql"
          if (!(eng in systx)) continue
          line = ""
          for (k = 1; k <= nsys[eng]; k++) { split(sys[eng, k], sc, " "); line = line (k > 1 ? ", " : "") sc[1] " " sc[2] }
          printf "| %s | %s | %s |\n", eng == "tupledb" ? "tupledb" : "PostgreSQL", systx[eng], line
        }
      }
      printf "\n"
      while ((getline l < notes) > 0) print l
    }' "$raw"
}

emit() {
  local section
  section=$(mktemp)
  report >"$section"
  cat "$section"
  if [ "$RESULTS" != - ]; then
    if [ -n "$set_subheading" ]; then
      bench_write_subsection "$RESULTS" "$set_heading" "$set_subheading" "$section"
    else
      bench_write_section "$RESULTS" "$set_heading" "$section"
    fi
    echo "updated $RESULTS" >&2
  fi
  rm -f "$section"
}

# chart: a PNG bar chart of the median tupledb / PostgreSQL ratio per
# workload (gnuplot, log scale), to CHART when the set names one; with
# pg2 in the raw records, two bars per workload (÷ PostgreSQL, ÷ pg2)
chart() {
  [ -n "$CHART" ] || return 0
  if ! command -v gnuplot >/dev/null; then
    echo "no gnuplot (apt-get install gnuplot-nox): no chart" >&2
    return 0
  fi
  local data=$work_chart/ratios.dat pg pg2
  awk -v workloads="$WORKLOADS" "$bench_awk_stats"'
    $1 == "tps" { tps[$2, $3, $4] = $5; if ($4 > rounds) rounds = $4; if ($3 == "pg2") pg2 = 1 }
    END {
      nw = split(workloads, wl, "\n")
      for (i = 1; i <= nw; i++) {
        split(wl[i], w, " ")
        for (r = 1; r <= rounds; r++) {
          if ((w[1], "tupledb", r) in tps && tps[w[1], "postgresql", r] > 0)
            add(w[1], tps[w[1], "tupledb", r] / tps[w[1], "postgresql", r])
          if ((w[1], "tupledb", r) in tps && tps[w[1], "pg2", r] > 0)
            add("pg2" SUBSEP w[1], tps[w[1], "tupledb", r] / tps[w[1], "pg2", r])
        }
        # with pg2 a third column ("?": no figure)
        if (n[w[1]] > 0)
          printf "%d \"%s\" %s%s\n", i - 1, w[1], median(w[1]), pg2 ? " " (n["pg2", w[1]] > 0 ? median("pg2" SUBSEP w[1]) : "?") : ""
      }
    }' "$raw" >"$data"
  [ -s "$data" ] || return 0
  # "postgres (PostgreSQL) 17.2 (Debian ...)" -> "PostgreSQL 17.2"
  pg=$(sed -n 's/^cfg pgversion=.*(PostgreSQL) \([^ ]*\).*/PostgreSQL \1/p' "$raw")
  pg2=$(sed -n 's/^cfg pg2version=.*(PostgreSQL) \([^ ]*\).*/PostgreSQL \1/p' "$raw")
  if [ "$(awk '{ print NF; exit }' "$data")" -lt 4 ]; then
    gnuplot <<GP
set terminal pngcairo size 1100,600 noenhanced font ",10"
set output "$CHART"
set title "tupledb tps / PostgreSQL tps, median over rounds (above 1: tupledb faster; log scale)"
set logscale y
set grid ytics
set yrange [*:*]
set style fill solid 0.8
set boxwidth 0.7
set xtics rotate by -60 scale 0
set rmargin 8
set key off
plot "$data" using 1:3:xtic(2) with boxes lc rgb "#3b6ea5", 1 with lines lc rgb "#b03030" lw 2
GP
  else
    gnuplot <<GP
set terminal pngcairo size 1100,600 noenhanced font ",10"
set output "$CHART"
set title "tupledb tps / each PostgreSQL's tps, median over rounds (above 1: tupledb faster; log scale)"
set datafile missing "?"
set logscale y
set grid ytics
set yrange [*:*]
set style fill solid 0.8
set boxwidth 0.38
set xtics rotate by -60 scale 0
set rmargin 8
set key top right
plot "$data" using 1:(1/0):xtic(2) notitle, \
     "$data" using (\$1 - 0.2):3 with boxes lc rgb "#3b6ea5" title "tupledb / ${pg:-PostgreSQL}", \
     "$data" using (\$1 + 0.2):4 with boxes lc rgb "#e09020" title "tupledb / pg2 (${pg2:-PG_BIN})", \
     1 with lines lc rgb "#b03030" lw 2 notitle
GP
  fi
  echo "wrote $CHART" >&2
}
work_chart=$(mktemp -d "${TMPDIR:-/tmp}/bench-chart.XXXXXX")
trap 'rm -rf "$work_chart"' EXIT
# the chart: TDB_BENCH_CHART, or the set's set_chart when the results go
# to a file (a QUICK or printed-only run leaves the committed chart alone)
CHART=${TDB_BENCH_CHART:-}
if [ -z "$CHART" ] && [ "$RESULTS" != - ] && [ "$QUICK" != 1 ] && [ -n "$set_chart" ]; then
  CHART=$root/$set_chart
fi

if [ "${TDB_BENCH_REPORT_ONLY:-0}" = 1 ]; then
  [ -f "$raw" ] || bench_die "no raw records at $raw"
  emit
  chart
  exit 0
fi

for b in pgbench initdb pg_ctl postgres psql; do
  [ -x "$PG15_BIN/$b" ] || bench_die "$PG15_BIN/$b not found (set PG15_BIN)"
done
if [ -n "$PG2_BIN" ]; then
  for b in initdb pg_ctl postgres; do
    [ -x "$PG2_BIN/$b" ] || bench_die "PG_BIN: $PG2_BIN/$b not found"
  done
fi
command -v python3 >/dev/null || bench_die "python3 not found"

# ----------------------------------------------------------------------
# The servers

# PostgreSQL runs in this shell (throwaway_pg.sh's trap stops it on exit).
# shellcheck disable=SC2034 # read by throwaway_pg.sh
SCRIPT=bench/server/run.sh
# shellcheck source=tests/fixtures/pg/throwaway_pg.sh
. "$root/tests/fixtures/pg/throwaway_pg.sh"
pgopts="-c fsync=on -c synchronous_commit=on -c max_parallel_workers_per_gather=0 -c jit=off -c shared_buffers=128MB -c work_mem=4MB -c max_connections=$((CONNS + 20))"
# pg2 first, so that throwaway_pg.sh's TMP (and pg_start, psql_run) name
# PostgreSQL 15's server afterwards
if [ -n "$PG2_BIN" ]; then
  PGBIN=$PG2_BIN PORT=55472
  pg_throwaway_start "bench-server-$SET-pg2" "$set_initdb_opts" "$pgopts"
  PG2_TMP=$TMP PG2_SOCK=$TMP/sock PG2_PORT=$PORT
  PGBIN=$PG15_BIN
fi
PORT=55470
pg_throwaway_start "bench-server-$SET-pg" "$set_initdb_opts" "$pgopts"
PG_SOCK=$TMP/sock
PG_PORT=$PORT

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-server-$SET.XXXXXX")
chmod 755 "$work"
TDB_SOCK=$work/sock
TDB_PORT=55471
mkdir "$TDB_SOCK"
chmod 777 "$TDB_SOCK"
"$TDB" serve "$work/bench" --port "$TDB_PORT" --socket-dir "$TDB_SOCK" \
  --listen "" --superuser bench --max-connections $((CONNS + 20)) >"$work/server.log" 2>&1 &
TDB_PID=$!
cleanup() {
  kill -TERM "$TDB_PID" 2>/dev/null && wait "$TDB_PID" 2>/dev/null
  pg_throwaway_cleanup
  rm -rf "$work" "$work_chart"
}
trap cleanup EXIT
for _ in $(seq 1 200); do
  [ -S "$TDB_SOCK/.s.PGSQL.$TDB_PORT" ] && break
  kill -0 "$TDB_PID" 2>/dev/null || bench_die "tupledb serve did not start: $(tail -n 5 "$work/server.log")"
  sleep 0.05
done
[ -S "$TDB_SOCK/.s.PGSQL.$TDB_PORT" ] || bench_die "tupledb serve did not start"

# Clients run as the PostgreSQL server's OS user (as_pg), so they can
# read its socket directory; tupledb's is world-writable.
conn_args() {  # ENGINE -> pgbench / psql connection options
  case $1 in
    tupledb) echo "-h $TDB_SOCK -p $TDB_PORT -U bench -d bench" ;;
    postgresql) echo "-h $PG_SOCK -p $PG_PORT -U tdb -d postgres" ;;
    pg2) echo "-h $PG2_SOCK -p $PG2_PORT -U tdb -d postgres" ;;
  esac
}
psql_at() {  # ENGINE PSQL-ARGS...
  local eng=$1
  shift
  # shellcheck disable=SC2046 # conn_args is a list of options
  as_pg env PGTZ=UTC "$PSQL15" -X $(conn_args "$eng") "$@"
}
run_sql() {  # ENGINE SQL
  psql_at "$1" -q -v ON_ERROR_STOP=1 -c "$2"
}

# the same tables through the same SQL, then the same answers
# (timed: each step's seconds become "loadtime" records); then the set's
# set_load_engine ENGINE, if it has one (pgbench -i, say)
declare -A load_secs=()
now() { date +%s.%N; }
for eng in $ENGINES; do
  t0=$(now)
  set_load_sql | psql_at "$eng" -q -v ON_ERROR_STOP=1 >"$work/load-$eng.log" 2>&1 ||
    bench_die "loading $eng failed: $(tail -n 5 "$work/load-$eng.log")"
  t1=$(now)
  load_secs[$eng sql]=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  if declare -F set_load_engine >/dev/null; then
    set_load_engine "$eng" >"$work/load-engine-$eng.log" 2>&1 ||
      bench_die "set_load_engine $eng failed: $(tail -n 5 "$work/load-engine-$eng.log")"
    load_secs[$eng engine]=$(awk -v a="$t1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
  fi
  [ "$eng" = tupledb ] || run_sql "$eng" "CHECKPOINT"
done
for check in "${set_checks[@]}"; do
  # the same rows in any order (a GROUP BY's order is unspecified)
  for eng in $ENGINES; do
    psql_at "$eng" -A -t -v ON_ERROR_STOP=1 -c "$check" >"$work/check-$eng" 2>&1 ||
      bench_die "$check: $eng fails: $(head -c 500 "$work/check-$eng")"
    LC_ALL=C sort -o "$work/check-$eng" "$work/check-$eng"
  done
  for eng in ${ENGINES#tupledb }; do
    cmp -s "$work/check-tupledb" "$work/check-$eng" ||
      bench_die "$check: tupledb gives '$(head -c 500 "$work/check-tupledb")', $eng '$(head -c 500 "$work/check-$eng")'"
  done
done

for script in "${!script_sql[@]}"; do
  printf '%s\n' "${script_sql[$script]}" >"$work/$script.sql"
done

settings_sql="SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name) FROM pg_settings WHERE name IN ('fsync','synchronous_commit','shared_buffers','work_mem','hash_mem_multiplier','data_checksums','jit','max_parallel_workers_per_gather')"
: >"$raw"
{
  echo "cfg set=$SET"
  echo "cfg rounds=$ROUNDS"
  echo "cfg time=$TIME"
  echo "cfg quick=$QUICK"
  echo "cfg conns=$CONNS"
  echo "cfg tdbrev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$([ -n "$(git -C "$root" status --porcelain -- src 2>/dev/null)" ] && echo ' + uncommitted changes in src/')"
  echo "cfg pgversion=$("$PG15_BIN/postgres" --version)"
  echo "cfg pgbench=$("$PGBENCH" --version)"
  echo "cfg pgsettings=$(psql_at postgresql -A -t -c "$settings_sql")"
  for k in "${!load_secs[@]}"; do echo "loadtime $k ${load_secs[$k]}"; done
  if [ -n "$PG2_BIN" ]; then
    echo "cfg pg2version=$("$PG2_BIN/postgres" --version)"
    echo "cfg pg2bin=$PG2_BIN"
    echo "cfg pg2settings=$(psql_at pg2 -A -t -c "$settings_sql")"
  fi
} >>"$raw"

# ----------------------------------------------------------------------
# Throughput

PG_POSTMASTER=$(head -n 1 "$TMP/data/postmaster.pid")
[ -z "$PG2_BIN" ] || PG2_POSTMASTER=$(head -n 1 "$PG2_TMP/data/postmaster.pid")
# status_kb PID FIELD: VmRSS or VmHWM in kB; nothing once PID has exited
status_kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null || true; }
# the processes serving pgbench: tupledb's server process, a PostgreSQL's
# backends of user tdb on the socket
server_pids() {
  case $1 in
    tupledb) echo "$TDB_PID" ;;
    postgresql) pgrep -P "$PG_POSTMASTER" -f '^postgres: tdb postgres \[local\]' || true ;;
    pg2) pgrep -P "$PG2_POSTMASTER" -f '^postgres: tdb postgres \[local\]' || true ;;
  esac
}
loadavg() { cut -d ' ' -f 1-3 /proc/loadavg; }

bench_one() {  # ENGINE NAME SCRIPT MODE CLIENTS ROUND
  local eng=$1 name=$2 script=$3 mode=$4 clients=$5 round=$6 out=$work/pgbench.out
  local tps pb p h peak=0 i
  # PostgreSQL: the backends of the run before have exited, so that the
  # peak below is this run's
  for ((i = 0; i < 100; i++)); do
    [ "$eng" != tupledb ] && [ -n "$(server_pids "$eng")" ] || break
    sleep 0.1
  done
  if [ "$eng" = tupledb ]; then
    echo "rssbase $name $eng $round $(status_kb "$TDB_PID" VmRSS)" >>"$raw"
    # VmHWM := VmRSS, so the peak below is this run's
    echo 5 >"/proc/$TDB_PID/clear_refs"
  fi
  # shellcheck disable=SC2046 # conn_args is a list of options
  as_pg "$PGBENCH" -n -f "$work/$script.sql" -T "$TIME" -c "$clients" \
    -j "$clients" -M "$mode" $(conn_args "$eng") >"$out" 2>&1 &
  pb=$!
  # the peak RSS of the server side, sampled the same way for all
  while kill -0 "$pb" 2>/dev/null; do
    for p in $(server_pids "$eng"); do
      h=$(status_kb "$p" VmHWM)
      [ -z "$h" ] || [ "$h" -le "$peak" ] || peak=$h
    done
    sleep 0.5
  done
  wait "$pb" || bench_die "pgbench $name on $eng failed: $(tail -n 3 "$out")"
  [ "$eng" != tupledb ] || peak=$(status_kb "$TDB_PID" VmHWM)
  grep -q 'number of failed transactions: 0 ' "$out" ||
    bench_die "pgbench $name on $eng had failures: $(tail -n 5 "$out")"
  tps=$(awk '/^tps = / { print $3; exit }' "$out")
  echo "tps $name $eng $round $tps" >>"$raw"
  echo "rss $name $eng $round $peak" >>"$raw"
  printf '  round %s %-22s %-10s %10.0f tps %8s kB peak RSS\n' "$round" "$name" "$eng" "$tps" "$peak" >&2
}

# A workload tupledb cannot run (an error from a one-transaction pgbench
# run) is recorded as unsupported and not timed; a PostgreSQL must run all.
declare -A unsupported=()
while read -r name script mode clients; do
  for eng in ${ENGINES#tupledb } tupledb; do
    # shellcheck disable=SC2046 # conn_args is a list of options
    if ! as_pg "$PGBENCH" -n -f "$work/$script.sql" -t 1 -c 1 -M "$mode" $(conn_args "$eng") \
         >"$work/probe.out" 2>&1 || ! grep -q 'number of failed transactions: 0 ' "$work/probe.out"; then
      [ "$eng" = tupledb ] || bench_die "pgbench $name fails on $eng: $(tail -n 3 "$work/probe.out")"
      # its error, from "ERROR:" on, one line ("|" would end a table cell)
      why=$(grep -m 1 -i 'error' "$work/probe.out" | sed 's/.*ERROR: */ERROR: /; s/|/\\|/g' | tr -s ' \t' ' ' | cut -c 1-200)
      unsupported[$name]=1
      echo "unsupported $name ${why:-pgbench failed}" >>"$raw"
      echo "  $name: unsupported by tupledb: ${why:-pgbench failed}" >&2
    fi
  done
done <<<"$WORKLOADS"

echo "load start $(loadavg)" >>"$raw"
echo "$SET: $ROUNDS rounds of $TIME s per workload and engine (load average $(loadavg))" >&2
for round in $(seq 1 "$ROUNDS"); do
  echo "load round $round $(loadavg)" >>"$raw"
  # A B (C) in odd rounds, (C) B A in even ones
  if [ $((round % 2)) = 1 ]; then order=$ENGINES
  else order=$(tr ' ' '\n' <<<"$ENGINES" | tac | tr '\n' ' '); fi
  while read -r name script mode clients; do
    [ -z "${unsupported[$name]:-}" ] || continue
    for eng in $order; do
      bench_one "$eng" "$name" "$script" "$mode" "$clients" "$round"
    done
  done <<<"$WORKLOADS"
done
echo "load end $(loadavg)" >>"$raw"

# ----------------------------------------------------------------------
# Where the server's time goes: perf stat on the server side

# perf_one ENGINE NAME SCRIPT MODE: one more pgbench run (not among the
# timed ones), with `perf stat` attached to the process serving it:
# tupledb's server process (attached before pgbench connects, so its
# connection thread is counted from the start), a PostgreSQL's backend
# (attached once it exists, a few ms after pgbench connects)
perf_one() {
  local eng=$1 name=$2 script=$3 mode=$4 out=$work/pgbench-perf.out pb pf pid="" i
  if [ "$eng" = tupledb ]; then
    perf stat -x, -e "$perf_events" -p "$TDB_PID" -o "$work/perf.csv" &
    pf=$!
    sleep 0.2
  fi
  # shellcheck disable=SC2046 # conn_args is a list of options
  as_pg "$PGBENCH" -n -f "$work/$script.sql" -T "$TIME" -c 1 -M "$mode" $(conn_args "$eng") >"$out" 2>&1 &
  pb=$!
  if [ "$eng" != tupledb ]; then
    for ((i = 0; i < 200; i++)); do
      pid=$(server_pids "$eng" | head -n 1)
      [ -z "$pid" ] || break
      sleep 0.02
    done
    [ -n "$pid" ] || bench_die "perf: no $eng backend for $name"
    perf stat -x, -e "$perf_events" -p "$pid" -o "$work/perf.csv" &
    pf=$!
  fi
  wait "$pb" || bench_die "pgbench $name on $eng (perf) failed: $(tail -n 3 "$out")"
  kill -INT "$pf" 2>/dev/null || true
  wait "$pf" 2>/dev/null || true
  echo "perftx $name $eng $(awk '/number of transactions actually processed/ { split($NF, a, "/"); print a[1] }' "$out")" >>"$raw"
  # CSV lines: value,unit,event,...; "<not counted>" values are left out
  awk -F, -v name="$name" -v eng="$eng" '$1 ~ /^[0-9.]+$/ { print "perf", name, eng, $3, $1 }' "$work/perf.csv" >>"$raw"
}
perf_events=""
if [ "$set_perf" = 1 ] && [ "${TDB_BENCH_PERF:-1}" != 0 ] && command -v perf >/dev/null &&
   perf stat -x, -e task-clock -o /dev/null true 2>/dev/null; then
  perf_events=task-clock
  for e in instructions cycles branch-misses; do
    perf stat -x, -e "$e" true 2>&1 | grep -q "^[0-9].*,$e" && perf_events+=",$e"
  done
fi
if [ -n "$perf_events" ]; then
  echo "perf stat ($perf_events): one more run per workload and engine" >&2
  while read -r name script mode clients; do
    [ -z "${unsupported[$name]:-}" ] || continue
    # perf_one runs 1 client: the same figure as the 1-client workload's
    [ "$clients" = 1 ] || continue
    for eng in $ENGINES; do perf_one "$eng" "$name" "$script" "$mode"; done
  done <<<"$WORKLOADS"
fi

# ----------------------------------------------------------------------
# Per-connection memory: CONNS idle connections, each after one query

# hold_conns SOCKDIR PORT USER DB N QUERY: prints READY, holds until stdin
# closes (the script is a file: a here-document would be its stdin)
cat >"$work/hold_conns.py" <<'PY'
import os, socket, struct, sys
sockdir, port, user, db, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
def until_ready(s):
    buf = b""
    while True:
        while len(buf) < 5:
            d = s.recv(65536)
            if not d: raise SystemExit("connection closed")
            buf += d
        t, ln = buf[:1], struct.unpack("!I", buf[1:5])[0]
        while len(buf) < 1 + ln:
            buf += s.recv(65536)
        if t == b"E": raise SystemExit("error: %r" % buf[5:1 + ln])
        buf = buf[1 + ln:]
        if t == b"Z": return
conns = []
for _ in range(n):
    s = socket.socket(socket.AF_UNIX)
    s.connect(os.path.join(sockdir, ".s.PGSQL.%d" % port))
    body = struct.pack("!I", 196608) + b"user\0" + user.encode() + b"\0database\0" + db.encode() + b"\0\0"
    s.sendall(struct.pack("!I", len(body) + 4) + body)
    until_ready(s)
    q = sys.argv[6].encode() + b"\0"
    s.sendall(b"Q" + struct.pack("!I", len(q) + 4) + q)
    until_ready(s)
    conns.append(s)
print("READY", flush=True)
sys.stdin.read()
PY
hold_conns() { python3 "$work/hold_conns.py" "$@" "$set_conn_memory_sql"; }

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

measure_memory() {
  local fifo=$work/hold.fifo before after holder holdern pids rss pss priv
  # tupledb: one connection first, so what the first session allocates
  # once (catalog caches, the pool pages of the table) is not counted
  mkfifo "$fifo"
  hold_conns "$TDB_SOCK" "$TDB_PORT" bench bench 1 <"$fifo" 7>&- >"$work/hold1.out" &
  holder=$!
  exec 7>"$fifo"
  for _ in $(seq 1 100); do grep -q READY "$work/hold1.out" 2>/dev/null && break; sleep 0.1; done
  sleep 0.5
  before=$(rss_kb "$TDB_PID")
  hold_conns "$TDB_SOCK" "$TDB_PORT" bench bench "$CONNS" <"$fifo" 7>&- >"$work/holdn.out" &
  holdern=$!
  for _ in $(seq 1 300); do grep -q READY "$work/holdn.out" 2>/dev/null && break; sleep 0.1; done
  grep -q READY "$work/holdn.out" || bench_die "holding tupledb connections: $(cat "$work/holdn.out")"
  sleep 0.5
  after=$(rss_kb "$TDB_PID")
  exec 7>&-
  wait "$holder" "$holdern"
  rm -f "$fifo"
  {
    echo "mem tupledb before_kb $before"
    echo "mem tupledb after_kb $after"
    echo "mem tupledb per_conn_kb $(( (after - before) / CONNS ))"
  } >>"$raw"

  # PostgreSQL: the backends' own figures
  mkfifo "$fifo"
  hold_conns "$PG_SOCK" "$PG_PORT" tdb postgres "$CONNS" <"$fifo" 7>&- >"$work/holdp.out" &
  holder=$!
  exec 7>"$fifo"
  for _ in $(seq 1 300); do grep -q READY "$work/holdp.out" 2>/dev/null && break; sleep 0.1; done
  grep -q READY "$work/holdp.out" || bench_die "holding PostgreSQL connections: $(cat "$work/holdp.out")"
  sleep 0.5
  pids=$(psql_at postgresql -A -t \
    -c "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND state = 'idle'")
  rss=$(for p in $pids; do awk '/^Rss:/ { print $2 }' "/proc/$p/smaps_rollup"; done | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  pss=$(for p in $pids; do awk '/^Pss:/ { print $2 }' "/proc/$p/smaps_rollup"; done | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  priv=$(for p in $pids; do awk '/^Private_(Clean|Dirty):/ { s += $2 } END { print s }' "/proc/$p/smaps_rollup"; done | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  exec 7>&-
  wait "$holder"
  rm -f "$fifo"
  {
    echo "mem postgresql rss_kb $rss"
    echo "mem postgresql pss_kb $pss"
    echo "mem postgresql private_kb $priv"
    echo "mem postgresql backends $(echo "$pids" | wc -w)"
  } >>"$raw"
}
if [ "$set_conn_memory" = 1 ]; then
  echo "memory: $CONNS idle connections per engine" >&2
  measure_memory
fi

# ----------------------------------------------------------------------
# System calls per transaction under strace

strace_one() {  # ENGINE PID
  local eng=$1 pid=$2 out ntx
  timeout 60 strace -f -c -q -o "$work/strace-$eng.txt" -p "$pid" &
  local st=$!
  sleep 1
  # shellcheck disable=SC2046 # conn_args is a list of options
  out=$(as_pg "$PGBENCH" -n -f "$work/select1.sql" -t 2000 -c 1 -M prepared $(conn_args "$eng") 2>&1)
  ntx=$(echo "$out" | awk '/number of transactions actually processed/ { split($NF, a, "/"); print a[1] }')
  sleep 0.5
  kill -INT "$st" 2>/dev/null || true
  wait "$st" 2>/dev/null || true
  # strace -c table: % time, seconds, usecs/call, calls, [errors], syscall
  awk -v eng="$eng" -v ntx="$ntx" '
    /^-/ || /% time/ || /total$/ { next }
    NF >= 5 { calls = $4; name = $NF; if (calls / ntx >= 0.01) printf "sys %s %.2f %s\n", eng, calls / ntx, name; tot += calls }
    END { printf "systx %s %.2f\n", eng, tot / ntx }' "$work/strace-$eng.txt" \
    | sort -k3,3 -rn >>"$raw"
}
if [ "$set_strace" = 1 ] && [ "${TDB_BENCH_PROFILE:-1}" != 0 ] && command -v strace >/dev/null; then
  echo "strace: system calls per transaction" >&2
  strace_one tupledb "$TDB_PID"
  strace_one postgresql "$(head -n 1 "$TMP/data/postmaster.pid")"
fi

emit
chart
