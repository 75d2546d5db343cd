#!/usr/bin/env bash
# deps.sh GROUP... -- make sure the Debian packages a build step needs are
# installed.  As root, missing packages are installed with apt-get; as any
# other user, the exact apt-get line is printed and the script fails.
#
# Groups:
#   build       compiler, libraries (libpg_query, protobuf-c headers,
#               readline, PCRE2 for the regex functions, LZ4 for TOAST
#               compression) and tools for `make` / `make check`
#   oracle      PostgreSQL 15 and python3 for the tests that compare
#               with PostgreSQL live (tests/difftest)
#   bench-mmgr  the mallocs the memory-context benchmark compares against
#   server-test the clients the server's tests drive: psql 15, python3 and
#               libpq's header for the libpq test program (libpq-dev)
#   bench       what `make bench` (bench/server/run.sh) runs: PostgreSQL 15
#               (server, psql, pgbench), python3, gnuplot for the ratio
#               chart, perf and strace to explain the figures
set -euo pipefail

declare -A GROUP_PACKAGES=(
  [build]="gcc make libc6-dev valgrind libpg-query-dev libprotobuf-c-dev libreadline-dev libpcre2-dev liblz4-dev"
  [oracle]="postgresql-15 python3"
  [bench-mmgr]="libjemalloc-dev libmimalloc-dev"
  [server-test]="postgresql-client-15 python3 libpq-dev"
  [bench]="postgresql-15 postgresql-client-15 python3 gnuplot-nox linux-perf strace"
)

missing=()
for group in "$@"; do
  pkgs=${GROUP_PACKAGES[$group]:-}
  if [ -z "$pkgs" ]; then
    echo "deps.sh: unknown group '$group'" >&2
    exit 2
  fi
  for p in $pkgs; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
done

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  echo "deps.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "deps.sh: missing packages; run:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
