#!/usr/bin/env bash
# run.sh BENCH_BINARY -- the memory-context benchmark, side by side against
# glibc malloc, jemalloc and mimalloc (issue 2).
#
# It runs BENCH_BINARY (bench/mmgr/bench_mmgr.c) once per malloc and round:
# plain (glibc), with LD_PRELOAD of Debian's libjemalloc and libmimalloc,
# rotating the order every round so no malloc always goes first.  Each
# process times every workload for tupledb's context ("tdb") and for
# malloc/free; the tupledb figure is the median over all rounds and all
# three processes (only the blocks behind the contexts come from the
# preloaded malloc), each malloc figure the median over its own rounds.
# Then the space records (--overhead) once per malloc, and the callgrind
# instruction counts of bench/mmgr/profile.sh.  It prints the
# tables and replaces the "## Memory contexts (issue 2)" section of
# bench/RESULTS.md (creating the file if needed).
#
# A benchmark, not a test: a missed target is reported, never an exit
# status.  It fails only on a setup problem (missing library, preload
# that did not take).
#
# Environment:
#   TDB_BENCH_ROUNDS   rounds (default 7; odd numbers give true medians)
#   TDB_BENCH_TIME     seconds per timed measurement (default 0.2)
#   TDB_BENCH_RESULTS  file to update (default bench/RESULTS.md);
#                      "-" prints the section without writing any file
#   TDB_BENCH_RAW      raw records (default mmgr-raw.txt next to the binary)
#   TDB_BENCH_PROFILE  0 skips the callgrind instruction counts
#                      (bench/mmgr/profile.sh, about 40 s)
set -euo pipefail

bin=${1:?usage: run.sh BENCH_BINARY}
[ -x "$bin" ] || { echo "run.sh: $bin is not executable" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=${TDB_BENCH_ROUNDS:-7}
meas_time=${TDB_BENCH_TIME:-0.2}
results=${TDB_BENCH_RESULTS:-$root/bench/RESULTS.md}
raw=${TDB_BENCH_RAW:-$(dirname "$bin")/mmgr-raw.txt}

# The shared object a -dev package's unversioned .so symlink points to.
find_so() {
  local link
  link=$(dpkg -L "$1" 2>/dev/null | grep -E "/$2\.so\$" | head -n 1 || true)
  if [ -z "$link" ]; then
    echo "run.sh: $1 provides no $2.so (run tools/deps.sh bench-mmgr)" >&2
    exit 2
  fi
  readlink -f "$link"
}
pkg_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "?"; }

allocs=(glibc jemalloc mimalloc)
declare -A preload=(
  [glibc]=""
  [jemalloc]=$(find_so libjemalloc-dev libjemalloc)
  [mimalloc]=$(find_so libmimalloc-dev libmimalloc)
)

# run_one ALLOC ROUND ARGS...: run the binary under ALLOC, check the
# preload took, append its records to $raw prefixed by "ALLOC ROUND".
run_one() {
  local alloc=$1 round=$2 out got
  shift 2
  if [ -n "${preload[$alloc]}" ]; then
    out=$(LD_PRELOAD="${preload[$alloc]}" "$bin" "$@")
  else
    out=$(env -u LD_PRELOAD "$bin" "$@")
  fi
  got=$(awk '$1 == "info" && $2 == "malloc" { print $3 }' <<<"$out")
  if [ "$got" != "$alloc" ]; then
    echo "run.sh: expected $alloc, the binary runs with '$got'" >&2
    exit 2
  fi
  awk -v a="$alloc" -v r="$round" '{ print a, r, $0 }' <<<"$out" >>"$raw"
}

start=$(date +%s)
: >"$raw"
for ((r = 0; r < rounds; r++)); do
  order=()
  for ((i = 0; i < ${#allocs[@]}; i++)); do
    order+=("${allocs[(i + r) % ${#allocs[@]}]}")
  done
  echo "bench-mmgr: round $((r + 1))/$rounds (${order[*]})"
  for a in "${order[@]}"; do
    run_one "$a" "$r" --time "$meas_time" --round "$r"
  done
done
echo "bench-mmgr: space overhead"
run_one glibc ovh --overhead all
run_one jemalloc ovh --overhead malloc
run_one mimalloc ovh --overhead malloc
elapsed=$(($(date +%s) - start))

section=$(mktemp)
profile=$(mktemp)
trap 'rm -f "$section" "$profile"' EXIT
if [ "${TDB_BENCH_PROFILE:-1}" != 0 ] && command -v valgrind >/dev/null; then
  echo "bench-mmgr: callgrind instruction counts"
  "$here/profile.sh" "$bin" >"$profile"
fi

cc_version=$(${CC:-cc} --version 2>/dev/null | head -n 1 || echo "?")
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "no commit")
if [ -n "$(git -C "$root" status --porcelain 2>/dev/null | head -n 1)" ]; then
  rev="$rev + uncommitted changes"
fi

awk -v date="$(date -u '+%Y-%m-%d %H:%M UTC')" \
    -v cpu="$cpu" -v ncpu="$(nproc)" -v kernel="$(uname -r)" \
    -v cc="$cc_version" -v rev="$rev" -v rounds="$rounds" \
    -v meas_time="$meas_time" -v elapsed="$elapsed" \
    -v je_pkg="libjemalloc-dev $(pkg_version libjemalloc-dev)" \
    -v mi_pkg="libmimalloc-dev $(pkg_version libmimalloc-dev)" \
    -v je_so="${preload[jemalloc]}" -v mi_so="${preload[mimalloc]}" \
    -v profile="$profile" '
function add(key, v) { n[key]++; val[key, n[key]] = v }
function sorted(key, a,    i, j, t, k) {
  k = n[key]
  for (i = 1; i <= k; i++) a[i] = val[key, i]
  for (i = 2; i <= k; i++) {
    t = a[i]
    for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
    a[j + 1] = t
  }
  return k
}
function median(key,    a, k) {
  k = sorted(key, a)
  if (k == 0) return -1
  return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
function range(key,    a, k) {
  k = sorted(key, a)
  if (k == 0) return "n/a"
  return sprintf("%.2f–%.2f", a[1], a[k])
}
function ns(v) { return v < 0 ? "n/a" : sprintf("%.2f", v) }
function ratio(m, t) { return (m < 0 || t <= 0) ? "n/a" : sprintf("%.2f×", m / t) }
function verdict(ok) { return ok ? "**met**" : "**MISSED**" }

$3 == "info" && $4 == "malloc" { version[$1] = $6 }
$3 == "info" && $4 == "glibc" { glibc = $5 }
$3 == "info" && $4 == "maxrss_kb" { if ($5 > maxrss[$1]) maxrss[$1] = $5 }
$3 == "time" {
  wl = $4
  if (!(wl in context)) { order[++nwl] = wl; context[wl] = $5 }
  if ($6 == "tdb") { add("tdb" SUBSEP wl, $7); add("tdb@" $1 SUBSEP wl, $7) }
  else add($1 SUBSEP wl, $7)
}
$3 == "ovh" {
  who = ($4 == "malloc") ? $1 : $4
  if ($4 != "malloc" && $1 != "glibc") next
  if (!((who, $5) in ocap)) {
    if (!(who in seen_who)) { seen_who[who] = 1; whos[++nwho] = who }
    if (!($5 in seen_size)) { seen_size[$5] = 1; sizes[++nsize] = $5 }
  }
  ocap[who, $5] = $7; ostride[who, $5] = $8; ohdr[who, $5] = $9
  ospace[who, $5] = $10; oused[who, $5] = $11; orss[who, $5] = $12
  on = $6
}

END {
  name["aset"] = "AllocSet"; name["generation"] = "Generation"
  name["slab"] = "Slab"; name["bump"] = "Bump"
  name["glibc"] = "glibc malloc"; name["jemalloc"] = "jemalloc"
  name["mimalloc"] = "mimalloc"
  unit["per_row"] = "1 alloc, reset amortised"
  unit["pair_64"] = "alloc+free"
  unit["pair_mixed"] = "alloc+free"
  unit["batch_100"] = "alloc+free"
  unit["fifo_tuples"] = "alloc+free"
  unit["slab_random"] = "1 alloc or 1 free"
  unit["bump_fill"] = "1 alloc, reset amortised"
  what["per_row"] = "rows of 10–50 allocs of 8–200 B, then reset (malloc: free each)"
  what["pair_64"] = "alloc 64 B, touch, free"
  what["pair_mixed"] = "alloc 8–512 B, touch, free"
  what["batch_100"] = "100 allocs of 8–512 B, then 100 frees (LIFO)"
  what["fifo_tuples"] = "queue of 1000 live 100–300 B chunks: free oldest, alloc new"
  what["slab_random"] = "10,000 slots of 64 B: random slot freed if live, else allocated"
  what["bump_fill"] = "1000 allocs of 16–128 B, then reset (malloc: free each)"

  print "## Memory contexts (issue 2)"
  print ""
  print "Generated by `make bench-mmgr` (bench/mmgr/run.sh); rerunning it replaces this section."
  print ""
  printf "* Date: %s; source: %s\n", date, rev
  printf "* Machine: %s, %s CPUs visible, Linux %s\n", cpu, ncpu, kernel
  printf "* Compiler: %s, release build (-O2, no MEMORY_CONTEXT_CHECKING)\n", cc
  printf "* Mallocs: glibc %s; jemalloc %s (%s, %s); mimalloc %s (%s, %s)\n", \
    glibc, version["jemalloc"], je_pkg, je_so, version["mimalloc"], mi_pkg, mi_so
  printf "* Method: %d round%s; each round runs the binary once per malloc (plain, then LD_PRELOAD), rotating the order. Each measurement is calibrated to about %s s of CLOCK_MONOTONIC time after warm-up. Figures are medians: a malloc over its %d runs, tupledb over all %d runs (its blocks come from whichever malloc is loaded; per-malloc figures below). Ratios are malloc ns ÷ tupledb ns, so above 1 means tupledb is faster. Every chunk is touched (first and last byte) and escapes through a compiler barrier. Wall time %d s.\n", \
    rounds, (rounds == 1 ? "" : "s"), meas_time, rounds, 3 * rounds, elapsed
  printf "* Peak RSS of a timing run: glibc %d KB, jemalloc %d KB, mimalloc %d KB\n", \
    maxrss["glibc"], maxrss["jemalloc"], maxrss["mimalloc"]
  print ""
  print "### Time (median ns per op)"
  print ""
  print "| workload | tupledb context | op | tupledb | glibc | jemalloc | mimalloc | glibc ÷ tdb | jemalloc ÷ tdb | mimalloc ÷ tdb |"
  print "|---|---|---|--:|--:|--:|--:|--:|--:|--:|"
  for (i = 1; i <= nwl; i++) {
    wl = order[i]
    t = median("tdb" SUBSEP wl)
    g = median("glibc" SUBSEP wl); je = median("jemalloc" SUBSEP wl)
    mi = median("mimalloc" SUBSEP wl)
    T[wl] = t; G[wl] = g; J[wl] = je; M[wl] = mi
    printf "| `%s` | %s | %s | **%s** | %s | %s | %s | %s | %s | %s |\n", \
      wl, context[wl], unit[wl], ns(t), ns(g), ns(je), ns(mi), \
      ratio(g, t), ratio(je, t), ratio(mi, t)
  }
  print ""
  for (i = 1; i <= nwl; i++) printf "* `%s`: %s\n", order[i], what[order[i]]
  print ""
  print "Spread (min–max ns/op over the runs) and tupledb by the malloc behind its blocks (median):"
  print ""
  print "| workload | tdb on glibc | tdb on jemalloc | tdb on mimalloc | tdb min–max | glibc min–max | jemalloc min–max | mimalloc min–max |"
  print "|---|--:|--:|--:|--:|--:|--:|--:|"
  for (i = 1; i <= nwl; i++) {
    wl = order[i]
    printf "| `%s` | %s | %s | %s | %s | %s | %s | %s |\n", wl, \
      ns(median("tdb@glibc" SUBSEP wl)), ns(median("tdb@jemalloc" SUBSEP wl)), \
      ns(median("tdb@mimalloc" SUBSEP wl)), range("tdb" SUBSEP wl), \
      range("glibc" SUBSEP wl), range("jemalloc" SUBSEP wl), \
      range("mimalloc" SUBSEP wl)
  }
  print ""
  print "### Space per chunk"
  print ""
  printf "%d chunks of one size per measurement, each in a freshly forked process. ", on
  print "*capacity*: bytes usable (contexts: the size class -- AllocSet rounds to a power of two, the others to 8; mallocs: `malloc_usable_size`). *stride*: most common distance between consecutive chunks. *header* = stride − capacity: bytes per chunk nobody can use beyond size-class rounding (a context chunk header, a malloc hidden header). *chunk_space*: `tdb_mcxt_chunk_space()`. *used*: growth of (totalspace − freespace) from `tdb_mcxt_stats_collect()` per chunk (block headers included, unused tail of the last block excluded). *RSS*: growth of the resident set per chunk, everything included."
  print ""
  print "Bytes per chunk consumed, RSS growth ÷ chunks (in parentheses: minus the request, i.e. overhead per chunk):"
  print ""
  hdrline = "| request |"; sep = "|--:|"
  for (w = 1; w <= nwho; w++) { hdrline = hdrline " " name[whos[w]] " |"; sep = sep "--:|" }
  print hdrline; print sep
  for (s = 1; s <= nsize; s++) {
    line = "| " sizes[s] " B |"
    for (w = 1; w <= nwho; w++) {
      k = whos[w] SUBSEP sizes[s]
      line = line " " ((k in orss) ? sprintf("%.1f (+%.1f)", orss[k], orss[k] - sizes[s]) : "n/a") " |"
    }
    print line
  }
  print ""
  print "Detail:"
  print ""
  print "| allocator | request | capacity | stride | header | chunk_space | used | RSS |"
  print "|---|--:|--:|--:|--:|--:|--:|--:|"
  for (w = 1; w <= nwho; w++)
    for (s = 1; s <= nsize; s++) {
      k = whos[w] SUBSEP sizes[s]
      printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", name[whos[w]], \
        sizes[s], ocap[k], ostride[k], ohdr[k], ospace[k], oused[k], orss[k]
    }
  print ""

  if ((getline line < profile) > 0) {
    print "### Instructions per op (callgrind)"
    print ""
    print "Exact and repeatable, unlike the timings above: `bench/mmgr/profile.sh` runs each workload for a fixed number of ops under callgrind, counting only inside the measured loop (the benchmark loop itself, about 10–25 instructions per op, is included on both sides). The breakdown lists self instructions per op of the tupledb variant by function."
    print ""
    print "```"
    print line
    while ((getline line < profile) > 0) print line
    print "```"
    print ""
  }
  print "### Targets"
  print ""
  wl = "per_row"
  ok = T[wl] > 0 && G[wl] >= 3 * T[wl] && J[wl] >= 3 * T[wl] && M[wl] >= 3 * T[wl]
  printf "* Per-row pattern at least 3× faster than malloc/free: %s -- %s vs glibc, %s vs jemalloc, %s vs mimalloc.\n", \
    verdict(ok), ratio(G[wl], T[wl]), ratio(J[wl], T[wl]), ratio(M[wl], T[wl])
  nsmall = split("pair_64 pair_mixed batch_100", small, " ")
  for (i = 1; i <= nsmall; i++) {
    wl = small[i]
    best = G[wl]; bestname = "glibc"
    if (J[wl] >= 0 && J[wl] < best) { best = J[wl]; bestname = "jemalloc" }
    if (M[wl] >= 0 && M[wl] < best) { best = M[wl]; bestname = "mimalloc" }
    printf "* AllocSet small alloc+free (`%s`) no slower than the fastest malloc: %s -- tupledb %s ns vs %s %s ns (%s).\n", \
      wl, verdict(T[wl] > 0 && T[wl] <= best), ns(T[wl]), bestname, ns(best), ratio(best, T[wl])
  }
  bad = ""
  for (s = 1; s <= nsize; s++) {
    split("aset generation slab bump", cx, " ")
    for (c = 1; c <= 4; c++) {
      k = cx[c] SUBSEP sizes[s]
      want = cx[c] == "bump" ? 0 : 8
      if (!(k in ohdr)) { bad = bad " " name[cx[c]] "/" sizes[s] ":missing"; continue }
      if (ohdr[k] != want) bad = bad " " name[cx[c]] "/" sizes[s] ":" ohdr[k]
      if (cx[c] != "bump" && ospace[k] != ocap[k] + 8)
        bad = bad " " name[cx[c]] "/" sizes[s] ":chunk_space " ospace[k]
    }
  }
  printf "* Chunk header exactly 8 bytes (0 for Bump) in the release build: %s%s.\n", \
    verdict(bad == ""), bad == "" ? " -- AllocSet, Generation and Slab 8 B at every size (stride and chunk_space agree), Bump 0 B" : " -- off:" bad
}
' "$raw" >"$section"

cat "$section"

if [ "$results" != "-" ]; then
  if [ ! -f "$results" ]; then
    printf '# tupledb benchmark results\n\nWritten by the `make bench-*` targets; bench/README.md explains each\nbenchmark and how to read its figures.\n' >"$results"
  fi
  # Replace the section (its heading up to the next "## " heading), or
  # append it when the file has none yet.
  awk -v secfile="$section" '
    BEGIN { while ((getline line < secfile) > 0) sec = sec line "\n" }
    /^## / && insec { insec = 0; print "" }
    $0 == "## Memory contexts (issue 2)" {
      printf "%s", sec; insec = 1; done = 1; next
    }
    !insec { print }
    END { if (!done) printf "\n%s", sec }
  ' "$results" >"$results.tmp"
  mv "$results.tmp" "$results"
  echo "bench-mmgr: updated $results (raw records: $raw)"
fi
