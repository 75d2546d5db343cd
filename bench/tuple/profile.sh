#!/usr/bin/env bash
# profile.sh BENCH_BINARY [SHAPE...] -- instructions and simulated branch
# mispredictions per tuple of every tuple-deforming pass, counted by
# callgrind (exact and repeatable, unlike the timings; perf hardware
# counters are not available on our machines).
#
# For each shape it runs BENCH_BINARY --profile under
#   valgrind --tool=callgrind --branch-sim=yes --toggle-collect='pass_*'
#            --dump-after=pass_<op>_<variant> (one per pass function)
# so that events are collected only inside the measured passes and every
# pass gets its own dump, in the order of the binary's "pass" records.
# Shapes run two at a time (the counts do not depend on the load).
#
# Output, one record per line (per tuple = divided by the pass's tuples):
#   cg pass <shape> <op> <attnum> <variant> <ntuples> <Ir> <Bc> <Bcm> <Bi> <Bim>
#   cg fn <shape> <op> <attnum> <variant> <self Ir/tuple> <mispredicts/tuple> <function>
#   cg line <shape> <op> <attnum> <variant> <self Ir/tuple> <mispredicts/tuple> <file>:<line> <function>
# "fn" records list every function with at least 0.5 Ir per tuple; "line"
# records the 12 costliest source lines of tupledb's full deform
# (op "full", variant "tdb") of each shape.  Self costs are summed from the
# dump files directly: callgrind_annotate misreads the second and later
# dumps of one run (it charges everything to __libc_start_main).
#
# profile.sh BENCH_BINARY --annotate SHAPE OP[:ATTNUM]:VARIANT
#   profiles that one pass alone (a single dump) and prints
#   callgrind_annotate's function list and annotated source of
#   src/tuple/heaptuple.c, for working on the deformer.
#
# Environment: TDB_BENCH_CG_TUPLES tuples per shape (default 100000; run.sh
# passes 50000).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/common/lib.sh
. "$here/../common/lib.sh"
root=$bench_root
bin=${1:?usage: profile.sh BENCH_BINARY [SHAPE...] | --annotate SHAPE OP:VARIANT}
shift
ntuples=${TDB_BENCH_CG_TUPLES:-100000}
command -v valgrind >/dev/null || bench_die "valgrind not found"

pass_fns=(full_tdb full_ref slot_all_tdb getattr_tdb getattr_ref
  slot_getattr_tdb slot_getattr_ref)

if [ "${1:-}" = "--annotate" ]; then
  shape=${2:?--annotate SHAPE OP[:ATTNUM]:VARIANT}
  spec=${3:?--annotate SHAPE OP[:ATTNUM]:VARIANT}
  op=${spec%%:*}
  variant=${spec##*:}
  out=$(mktemp)
  trap 'rm -f "$out"' EXIT
  valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$out" \
    --toggle-collect="pass_${op}_${variant}" \
    "$bin" --perf "$spec" --shape "$shape" --passes 1 --tuples "$ntuples" \
    2>/dev/null >/dev/null
  echo "# $shape $spec, $ntuples tuples: divide by $ntuples for per-tuple figures"
  callgrind_annotate --auto=no "$out"
  # the binary records source paths relative to the repository root
  (cd "$root" && callgrind_annotate --auto=no "$out" src/tuple/heaptuple.c) |
    sed -n '/User-annotated source/,$p'
  exit 0
fi

shapes=("$@")
[ ${#shapes[@]} -gt 0 ] ||
  shapes=(fixed16 fixed16_null1 text16 fixed64 fixed64_null1 text64)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

dump_after=()
for f in "${pass_fns[@]}"; do dump_after+=("--dump-after=pass_$f"); done

run_shape() {
  local s=$1
  mkdir -p "$tmp/$s"
  valgrind --tool=callgrind --branch-sim=yes \
    --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$tmp/$s/cg.out" --toggle-collect='pass_*' \
    "${dump_after[@]}" \
    "$bin" --profile --shape "$s" --tuples "$ntuples" \
    >"$tmp/$s/stdout" 2>"$tmp/$s/stderr" ||
    { echo "profile.sh: callgrind run for $s failed:" >&2; tail -5 "$tmp/$s/stderr" >&2; return 1; }
}

pids=()
for s in "${shapes[@]}"; do
  run_shape "$s" &
  pids+=($!)
  if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p"; done

for s in "${shapes[@]}"; do
  i=0
  while read -r _ shape op attnum variant n; do
    i=$((i + 1))
    f="$tmp/$s/cg.out.$i"
    [ -f "$f" ] || bench_die "missing dump $f"
    bench_cg_summary "$f" | awk -v k="$shape $op $attnum $variant $n" '
      { printf "cg pass %s %d %d %d %d %d\n", k, $1, $2, $3, $4, $5 }'
    bench_cg_selfcost fn "$n" 1000 "$f" |
      awk -v k="$shape $op $attnum $variant" '{ print "cg fn", k, $0 }'
    if [ "$op" = full ] && [ "$variant" = tdb ]; then
      bench_cg_selfcost line "$n" 12 "$f" |
        awk -v k="$shape $op $attnum $variant" -v root="$root/" '
          { sub(root, "", $3); print "cg line", k, $0 }'
    fi
  done < <(grep '^pass ' "$tmp/$s/stdout")
done
