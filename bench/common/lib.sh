# shellcheck shell=bash
# lib.sh -- shell helpers shared by the benchmarks' run.sh and profile.sh
# (bash; source it, do not run it):
#
#   here=$(cd "$(dirname "$0")" && pwd)
#   . "$here/../common/lib.sh"
#
# Sets bench_root (the repository root) and defines:
#
#   bench_die MESSAGE          "<script>: MESSAGE" on stderr, exit status 2
#                              (the benchmarks' "setup is broken" status)
#   bench_so_of PKG LIB        the shared object that the LIB.so symlink of
#                              Debian package PKG points to; fails if none
#   bench_describe_machine     sets the array bench_machine_vars to awk -v
#                              assignments describing this run: date, cpu,
#                              ncpu, kernel, caches, cc (the first line of
#                              $CC --version), rev (git HEAD, "+ uncommitted
#                              changes" when the tree is dirty)
#   bench_awk_stats            (a variable) awk functions over samples, to
#                              put in front of a report's awk program
#   bench_write_section RESULTS HEADING SECTION_FILE [KEEP...]
#                              replace the HEADING section of RESULTS,
#                              carrying over its "### KEEP" subsections
#                              (written by another benchmark)
#   bench_write_subsection RESULTS HEADING SUBHEADING SUBSECTION_FILE
#                              replace only the SUBHEADING ("### ...")
#                              subsection of the HEADING section
#   bench_commas N             N with thousands separators: 1,000,000
#   bench_want_callgrind       true unless TDB_BENCH_PROFILE=0 or valgrind
#                              is missing
#   bench_cg_summary DUMP      the event totals of a callgrind dump
#   bench_cg_selfcost MODE N TOP DUMP
#                              self cost per function or source line of a
#                              callgrind dump
#
# What a report computes and prints stays in its own run.sh; bench/README.md
# ("Adding a benchmark") describes how a benchmark uses these.

bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

bench_die() {
  echo "${0##*/}: $*" >&2
  exit 2
}

bench_so_of() {
  local link
  link=$(dpkg -L "$1" 2>/dev/null | grep -E "/$2\.so\$" | head -n 1 || true)
  [ -n "$link" ] && readlink -f "$link"
}

bench_describe_machine() {
  local cc cpu caches rev
  cc=$(${CC:-cc} --version 2>/dev/null | head -n 1 || echo "?")
  cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
  caches=$(lscpu 2>/dev/null | awk -F': *' '/^L1d cache|^L2 cache|^L3 cache/ { sub(/ cache/, "", $1); printf "%s%s %s", sep, $1, $2; sep = ", " }')
  rev=$(git -C "$bench_root" rev-parse --short HEAD 2>/dev/null || echo "no commit")
  if [ -n "$(git -C "$bench_root" status --porcelain 2>/dev/null | head -n 1)" ]; then
    rev="$rev + uncommitted changes"
  fi
  # shellcheck disable=SC2034 # used by the scripts that source this file
  bench_machine_vars=(-v date="$(date -u '+%Y-%m-%d %H:%M UTC')"
    -v cpu="$cpu" -v ncpu="$(nproc)" -v kernel="$(uname -r)"
    -v caches="$caches" -v cc="$cc" -v rev="$rev")
}

# Samples are kept per key in the global arrays n[] (count) and val[]:
#   add(key, v)      add a sample
#   median(key), lo(key), hi(key)
#                    median, minimum, maximum of the samples; -1 if none
#   sorted(key, a)   the samples in a[1..k], ascending; returns k
#   ratio(m, t)      m / t, or -1 if either is missing
#   x(v)             "2.00×", or "n/a" for -1
#   xrange(key)      "1.80–2.30×" (min–max of ratio samples), or "n/a"
# Usage: awk ... "$bench_awk_stats"'<the report program>' FILE
# shellcheck disable=SC2034 # used by the scripts that source this file
bench_awk_stats='
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
function lo(key,    a) { return sorted(key, a) ? a[1] : -1 }
function hi(key,    a, k) { k = sorted(key, a); return k ? a[k] : -1 }
function ratio(m, t) { return (m < 0 || t <= 0) ? -1 : m / t }
function x(v) { return v < 0 ? "n/a" : sprintf("%.2f×", v) }
function xrange(key) { return n[key] ? sprintf("%.2f–%.2f×", lo(key), hi(key)) : "n/a" }
'

# Replace the section of RESULTS that starts at the line HEADING, up to
# (not including) the next "## " heading, by the contents of SECTION_FILE;
# append it when RESULTS has no such heading, and create RESULTS when it
# does not exist.  Every other line is copied unchanged.  Each further
# argument names a subsection (a "### " line) that another benchmark
# writes into this section with bench_write_subsection: if the old
# section has it, it is carried over, before the new section's first
# "### " heading (at its end when it has none).
bench_write_section() {
  local results=$1 heading=$2 section=$3
  shift 3
  bench_results_init "$results"
  awk -v secfile="$section" -v heading="$heading" -v keep="$(printf '%s\n' "$@")" '
    BEGIN {
      while ((getline line < secfile) > 0) sec[++nsec] = line
      nk = split(keep, kl, "\n")
      for (i = 1; i <= nk; i++) if (kl[i] != "") want[kl[i]] = 1
    }
    # the new section, the kept subsections before its first "### "
    function put(    i, done_kept) {
      sub(/\n+$/, "\n", kept)
      for (i = 1; i <= nsec; i++) {
        if (!done_kept && kept != "" && sec[i] ~ /^### /) { printf "%s\n", kept; done_kept = 1 }
        print sec[i]
      }
      if (!done_kept && kept != "") printf "\n%s", kept
    }
    insec && /^## / { insec = 0; put(); print "" }
    insec && /^### / { inkeep = ($0 in want) }
    insec { if (inkeep) kept = kept $0 "\n"; next }
    $0 == heading { insec = 1; done = 1; next }
    { print }
    END {
      if (insec) put()
      else if (!done) { print ""; put() }
    }
  ' "$results" >"$results.tmp.$$"
  mv "$results.tmp.$$" "$results"
}

# Replace the subsection of the HEADING section of RESULTS that starts at
# the line SUBHEADING (a "### " line), up to (not including) the next
# "### " or "## " heading, by the contents of SUBSECTION_FILE (which
# starts with SUBHEADING).  When the section has no such subsection, it
# goes before the section's first "### " heading (at its end when it has
# none); when RESULTS has no HEADING, the heading and the subsection are
# appended.  Every other line is copied unchanged.
bench_write_subsection() {
  local results=$1 heading=$2 subheading=$3 subsection=$4
  bench_results_init "$results"
  awk -v secfile="$subsection" -v heading="$heading" -v subh="$subheading" '
    BEGIN {
      while ((getline line < secfile) > 0) text = text line "\n"
      sub(/\n+$/, "\n", text)
    }
    function out(l) { print l; last = l }
    # the new subsection; a blank line after it unless it ends the file
    function put(more) {
      if (done) return
      if (last != "") print ""
      printf "%s", text; done = 1; last = "x"
      if (more) out("")
    }
    insub && /^##?#? / { insub = 0 }
    insub { next }
    insec && /^## / { insec = 0; put(1) }
    insec && $0 == subh { put(1); insub = 1; next }
    insec && /^### / { put(1) }
    $0 == heading { insec = 1; found = 1 }
    { out($0) }
    END {
      if (!found) { if (last != "") print ""; out(heading) }
      put(0)
    }
  ' "$results" >"$results.tmp.$$"
  mv "$results.tmp.$$" "$results"
}

# bench_results_init RESULTS: create RESULTS with its preamble if missing
bench_results_init() {
  [ -f "$1" ] ||
    printf '# tupledb benchmark results\n\nWritten by the `make bench-*` targets; bench/README.md explains each\nbenchmark and how to read its figures.\n' >"$1"
}

bench_commas() {
  local s=$1 r=""
  while [ ${#s} -gt 3 ]; do
    r=",${s: -3}$r"
    s=${s:0:${#s}-3}
  done
  echo "$s$r"
}

bench_want_callgrind() {
  [ "${TDB_BENCH_PROFILE:-1}" != 0 ] && command -v valgrind >/dev/null
}

# The "summary:" line of a callgrind dump without its label: one total per
# event, in the order of its "events:" line (Ir first).
bench_cg_summary() {
  awk '/^(summary|totals):/ { sub(/^[a-z]+: */, ""); print; exit }' "$1"
}

# Self cost of a callgrind dump written with --compress-strings=no
# --compress-pos=no, divided by N (the operations or tuples it covered):
# one line "<Ir/N> <mispredicts/N> <key>" per function (MODE fn, key: the
# function) or per source line (MODE line, key: "<file>:<line> <function>")
# with at least 0.5 Ir per N, the TOP costliest first.  Mispredicts are
# Bcm + Bim, so 0 unless the dump was made with --branch-sim=yes.  Every
# cost line counts for the current function except the one after
# "calls=", which is the inclusive cost of a call; inlined code counts for
# the function it is inlined into.
bench_cg_selfcost() {
  awk -v mode="$1" -v n="$2" '
    /^fl=/ { fl = substr($0, 4); cf = fl; next }
    /^(fi|fe)=/ { cf = substr($0, 4); next }
    /^fn=/ { fn = substr($0, 4); cf = fl; next }
    /^calls=/ { skip = 1; next }
    /^[0-9+-]/ {
      if (skip) { skip = 0; next }
      k = (mode == "line") ? cf ":" $1 " " fn : fn
      ir[k] += $2; mis[k] += $4 + $6
    }
    END {
      for (k in ir)
        if (ir[k] / n >= 0.5) printf "%.1f %.3f %s\n", ir[k] / n, mis[k] / n, k
    }' "$4" | sort -k1,1 -rn | head -n "$3"
}
