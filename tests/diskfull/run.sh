#!/usr/bin/env bash
# run.sh -- end-to-end tests of a full disk (issue 21): the statements
# that free space must work when nothing else can be written.
#
#   tests/diskfull/run.sh [PATH/TO/tupledb]
#
# On a 16 MB tmpfs mounted for the test (root only: skipped otherwise),
# through `tupledb serve` and psql 15:
#   1. inserts that outgrow the disk fail with 53100 and the server goes
#      on; the disk is then filled to the last byte;
#   2. TRUNCATE of a small and of a big table works (it hands out new
#      relation file numbers, which the control file records) and frees
#      the big one's space; DROP TABLE works;
# and through the shell, with the disk full again:
#   3. the data directory opens (the lock file's pid cannot be written)
#      and DROP TABLE runs.
# Prints one line per check and
#   RESULT diskfull_e2e: N passed, N failed, N skipped
# (make check runs it through build/<flavour>/tests/diskfull_e2e).
set -uo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/../lib/e2e.sh"
e2e_start diskfull "$@"
fs=$work/fs
mounted=false
e2e_cleanup_more() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null &&
    wait "$server_pid" 2>/dev/null
  server_pid=
  $mounted && umount "$fs" 2>/dev/null
}

mkdir "$fs"
if [ "$(id -u)" -ne 0 ] || ! mount -t tmpfs -o size=16m tmpfs "$fs" 2>/dev/null; then
  skip "a full disk (mounting a small tmpfs needs root)"
  e2e_result
  exit
fi
mounted=true
if [ ! -x "$PSQL" ]; then
  skip "a full disk through the server (no psql 15)"
  e2e_result
  exit
fi
db=$fs/db
sock=$work/sock; mkdir "$sock"
port=$((54000 + RANDOM % 1000))
"$bin" serve "$db" --port "$port" --listen '' --socket-dir "$sock" \
  >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do [ -S "$sock/.s.PGSQL.$port" ] && break; sleep 0.05; done
psql_c() {
  "$PSQL" -X -A -t -q -h "$sock" -p "$port" -U "$(id -un)" -d postgres \
    -v VERBOSITY=verbose -c "$1" 2>&1
}
# fill_disk: whatever space is left, to the last block
fill_disk() {
  dd if=/dev/zero of="$fs/filler" bs=1k 2>/dev/null
  true
}
free_kb() { df -k "$fs" | awk 'NR == 2 { print $4 }'; }

# 1. the disk fills up
psql_c "CREATE TABLE big (a int, t text)" >/dev/null
psql_c "CREATE TABLE small (a int)" >/dev/null
psql_c "CREATE TABLE gone (a int)" >/dev/null
psql_c "INSERT INTO small VALUES (1)" >/dev/null
psql_c "INSERT INTO big SELECT g, repeat('x', 200) FROM generate_series(1, 20000) g" >/dev/null
out=$(psql_c "INSERT INTO big SELECT g, repeat('x', 200) FROM generate_series(1, 100000) g")
fill_disk
if echo "$out" | grep -q '53100' && [ "$(psql_c "SELECT count(*) FROM big")" = 20000 ] &&
   [ "$(free_kb)" = 0 ]; then
  ok "inserts past the disk's end fail with 53100, the rows before stay"
else
  fail "filling the disk" "$out" "free: $(free_kb) kB"
fi

# 2. TRUNCATE and DROP free space on the full disk
out=$(psql_c "TRUNCATE small")
if [ "$out" = "" ] && [ "$(psql_c "SELECT count(*) FROM small")" = 0 ]; then
  ok "TRUNCATE of a small table works on a full disk"
else
  fail "TRUNCATE small on a full disk" "$out"
fi
out=$(psql_c "TRUNCATE big")
if [ "$out" = "" ] && [ "$(psql_c "SELECT count(*) FROM big")" = 0 ] &&
   [ "$(free_kb)" -gt 1000 ]; then
  ok "TRUNCATE of a big table works on a full disk and frees its space"
else
  fail "TRUNCATE big on a full disk" "$out" "free: $(free_kb) kB"
fi
fill_disk
out=$(psql_c "DROP TABLE gone")
if [ "$out" = "" ]; then
  ok "DROP TABLE works on a full disk"
else
  fail "DROP TABLE on a full disk" "$out"
fi
kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
server_pid=

# 3. an embedded open on a full disk
rm -f "$fs/filler"
fill_disk
out=$("$bin" -X -q -A -t -c "DROP TABLE small" -c "SELECT count(*) FROM pg_class WHERE relname IN ('small', 'gone')" "$db" 2>&1)
if [ "$out" = 0 ]; then
  ok "the shell opens the data directory on a full disk and DROP TABLE runs"
else
  fail "opening on a full disk" "$out"
fi

e2e_result
