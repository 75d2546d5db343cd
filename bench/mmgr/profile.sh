#!/usr/bin/env bash
# profile.sh BENCH_BINARY [WORKLOAD...] -- instructions per operation of
# each memory-context workload, counted by callgrind (exact and repeatable,
# unlike the timings; perf counters are not available on our machines).
#
# For each workload it runs BENCH_BINARY --only W --iters N under callgrind,
# collecting only inside the measured function (--toggle-collect), for the
# tupledb variant and for malloc/free under glibc, jemalloc and mimalloc.
# It prints the instructions per op, then the tupledb variant's costliest
# functions (self cost per op, which stays exact even where a tail call
# confuses callgrind's inclusive costs).
#
# Default workloads: all.  Needs valgrind (tools/deps.sh build installs
# it).  Takes about a minute for all workloads.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/common/lib.sh
. "$here/../common/lib.sh"
bin=${1:?usage: profile.sh BENCH_BINARY [WORKLOAD...]}
shift
command -v valgrind >/dev/null || bench_die "valgrind not found"
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] ||
  workloads=(per_row pair_64 pair_mixed batch_100 fifo_tuples slab_random bump_fill)

# workload -> measured function prefix and iterations (about 500k ops)
declare -A fn=([per_row]=run_per_row [pair_64]=run_pair_64
  [pair_mixed]=run_pair_mixed [batch_100]=run_batch [fifo_tuples]=run_fifo
  [slab_random]=run_slab [bump_fill]=run_bump)
declare -A iters=([per_row]=16000 [pair_64]=500000 [pair_mixed]=500000
  [batch_100]=5000 [fifo_tuples]=500000 [slab_random]=500000 [bump_fill]=500)

declare -A preload=([glibc]=""
  [jemalloc]=$(bench_so_of libjemalloc-dev libjemalloc)
  [mimalloc]=$(bench_so_of libmimalloc-dev libmimalloc))

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_cg OUTFILE MALLOC FUNCTION WORKLOAD: prints the op count
run_cg() {
  local out=$1 alloc=$2 func=$3 w=$4 variant=${3##*_}
  LD_PRELOAD="${preload[$alloc]}" valgrind --tool=callgrind \
    --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$out" --toggle-collect="$func" \
    "$bin" --only "$w" --iters "${iters[$w]}" 2>/dev/null |
    awk -v v="$variant" '$1 == "time" && $4 == v { print $6 }'
}
total_ir() { bench_cg_summary "$1" | awk '{ print $1 }'; }

printf '%-12s %10s %10s %10s %10s\n' workload "tdb Ir/op" "glibc" "jemalloc" "mimalloc"
for w in "${workloads[@]}"; do
  [ -n "${fn[$w]:-}" ] || bench_die "unknown workload $w"
  ops=$(run_cg "$tmp/$w.tdb" glibc "${fn[$w]}_tdb" "$w")
  line=$(printf '%-12s %10.1f' "$w" "$(awk -v t="$(total_ir "$tmp/$w.tdb")" -v n="$ops" 'BEGIN { print t / n }')")
  for a in glibc jemalloc mimalloc; do
    mops=$(run_cg "$tmp/$w.$a" "$a" "${fn[$w]}_malloc" "$w")
    line+=$(printf ' %10.1f' "$(awk -v t="$(total_ir "$tmp/$w.$a")" -v n="$mops" 'BEGIN { print t / n }')")
  done
  echo "$line"
  echo "$ops" >"$tmp/$w.ops"
done

echo
echo "tupledb variant: self instructions per op by function (>= 0.5)"
for w in "${workloads[@]}"; do
  echo "  $w:"
  bench_cg_selfcost fn "$(cat "$tmp/$w.ops")" 1000 "$tmp/$w.tdb" |
    awk '{ ir = $1; sub(/^[^ ]+ [^ ]+ /, ""); printf "    %7.1f  %s\n", ir, $0 }'
done
