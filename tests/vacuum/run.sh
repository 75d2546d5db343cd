#!/usr/bin/env bash
# run.sh -- end-to-end tests of VACUUM (issue 10's space reclamation).
#
#   tests/vacuum/run.sh [PATH/TO/tupledb]
#
# Through the shell on a fresh data directory:
#   1. VACUUM VERBOSE after a DELETE reports the deleted rows removable
#      and every page scanned;
#   2. inserting as many rows again (in the same process: the free space
#      record is in memory) does not grow the relation's file, and the
#      table holds exactly the expected rows;
#   3. rows of a rolled-back insert and the old versions of updated rows
#      are removed;
#   4. VACUUM with no table list vacuums every user table;
#   5. VACUUM inside a transaction block and VACUUM of a missing table
#      fail as in PostgreSQL;
#   6. a new shell process (the data directory reopened) reads the same
#      rows;
# and through `tupledb serve` with two psql sessions (psql 15 needed):
#   7. a transaction open in one session keeps the rows another session
#      deleted from being removed ("dead but not yet removable"); after
#      it commits, the next VACUUM removes them.
# Prints one line per check and
#   RESULT vacuum_e2e: N passed, N failed, N skipped
# (make check runs it through build/<flavour>/tests/vacuum_e2e).
set -uo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/../lib/e2e.sh"
e2e_start vacuum "$@"
holder_pid=
# the psql session holding a transaction open (section 7), and its input
e2e_cleanup_more() {
  [ -n "$holder_pid" ] && kill "$holder_pid" 2>/dev/null
  exec 7>&- 2>/dev/null
}

# q SQL: run SQL in a new shell process, unaligned, tuples only
q() { "$bin" -X -A -t -c "$1" "$db" 2>&1; }
# the relation file's size in bytes
file_size() {
  local node
  node=$(q "SELECT relfilenode FROM pg_class WHERE relname = '$1'")
  stat -c %s "$db/base/$node"
}

q "CREATE TABLE t (id int, note text)" >/dev/null
q "CREATE TABLE u (id int)" >/dev/null
q "INSERT INTO t SELECT g, repeat('x', 100) FROM generate_series(1, 10000) g" >/dev/null
size0=$(file_size t)

# 1. removable rows reported, every page scanned; 2. the space is reused
# by the next inserts of the same process (the free space record lives
# in memory: a new process starts with none until its first VACUUM)
q "DELETE FROM t WHERE id % 2 = 0" >/dev/null
out=$("$bin" -X -A -t "$db" 2>&1 <<'EOF'
VACUUM VERBOSE t;
INSERT INTO t SELECT g, repeat('y', 100) FROM generate_series(20001, 25000) g;
EOF
)
pages=$((size0 / 8192))
if echo "$out" | grep -q "found 5000 removable, 5000 nonremovable row versions in $pages out of $pages pages" &&
   echo "$out" | grep -q '^VACUUM$'; then
  ok "VACUUM VERBOSE reports the 5000 deleted rows removable in $pages pages"
else
  fail "VACUUM VERBOSE after DELETE" "$out"
fi
size1=$(file_size t)
res=$(q "SELECT count(*), sum(id) FROM t")
# odd ids 1..9999: 25,000,000; 20001..25000: 112,502,500
if [ "$size1" -eq "$size0" ] && [ "$res" = "10000|137502500" ]; then
  ok "5000 new rows fill the freed space: the file stays at $size0 bytes"
else
  fail "space reuse" "size before $size0, after $size1" "$res"
fi

# 3. aborted inserts and old versions of updated rows
out=$("$bin" -X -A -t "$db" 2>&1 <<'EOF'
BEGIN;
INSERT INTO t SELECT g, 'z' FROM generate_series(1, 1000) g;
ROLLBACK;
UPDATE t SET note = 'u' WHERE id < 100;
VACUUM VERBOSE t;
EOF
)
if echo "$out" | grep -q "found 1050 removable, 10000 nonremovable"; then
  ok "a rolled-back insert's 1000 rows and 50 updated rows' old versions removed"
else
  fail "aborted insert and updates" "$out"
fi
res=$(q "SELECT count(*), sum(id), count(*) FILTER (WHERE note = 'u') FROM t")
if [ "$res" = "10000|137502500|50" ]; then
  ok "the table holds exactly the expected rows after VACUUM"
else
  fail "rows after VACUUM" "$res"
fi

# 4. every user table
q "INSERT INTO u SELECT g FROM generate_series(1, 100) g" >/dev/null
q "DELETE FROM u" >/dev/null
q "DELETE FROM t WHERE id > 20000" >/dev/null
out=$(q "VACUUM (VERBOSE)")
if echo "$out" | grep -q '"u": found 100 removable' &&
   echo "$out" | grep -q '"t": found 5000 removable'; then
  ok "VACUUM without a table list vacuums every user table"
else
  fail "VACUUM of all tables" "$out"
fi

# 5. errors
out=$("$bin" -X -A -t "$db" 2>&1 <<'EOF'
BEGIN;
VACUUM t;
ROLLBACK;
VACUUM nosuch;
EOF
)
if echo "$out" | grep -q 'ERROR:  VACUUM cannot run inside a transaction block' &&
   echo "$out" | grep -q 'ERROR:  relation "nosuch" does not exist'; then
  ok "VACUUM in a transaction block and of a missing table fail"
else
  fail "VACUUM errors" "$out"
fi

# 6. a new process reads the same rows
res=$(q "SELECT count(*), sum(id), min(note), max(length(note)) FROM t")
if [ "$res" = "5000|25000000|u|100" ]; then
  ok "the data directory reopened after VACUUM holds the same rows"
else
  fail "rows after reopening" "$res"
fi

# 7. a concurrent transaction holds the horizon
if [ ! -x "$PSQL" ]; then
  skip "an open transaction in another session keeps deleted rows (no psql 15)"
else
  sock=$work/sock; mkdir "$sock"
  port=$((54000 + RANDOM % 1000))
  "$bin" serve "$db" --port "$port" --socket-dir "$sock" >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do [ -S "$sock/.s.PGSQL.$port" ] && break; sleep 0.05; done
  psql_c() { "$PSQL" -X -A -t -h "$sock" -p "$port" -U "$(id -un)" -d postgres -c "$1" 2>&1; }
  mkfifo "$work/holder.in"
  "$PSQL" -X -A -t -h "$sock" -p "$port" -U "$(id -un)" -d postgres \
    <"$work/holder.in" >"$work/holder.out" 2>&1 &
  holder_pid=$!
  exec 7>"$work/holder.in"
  echo "BEGIN; SELECT 'held', count(*) FROM t;" >&7
  for _ in $(seq 1 100); do grep -q 'held|5000' "$work/holder.out" && break; sleep 0.05; done
  psql_c "DELETE FROM t WHERE id < 1000" >/dev/null
  out1=$(psql_c "VACUUM VERBOSE t")
  echo "SELECT 'still', count(*) FROM t; COMMIT;" >&7
  for _ in $(seq 1 100); do grep -q 'COMMIT' "$work/holder.out" && break; sleep 0.05; done
  out2=$(psql_c "VACUUM VERBOSE t")
  exec 7>&-
  wait "$holder_pid" 2>/dev/null; holder_pid=
  if echo "$out1" | grep -q 'found 0 removable.*500 dead but not yet removable' &&
     echo "$out2" | grep -q 'found 500 removable' &&
     grep -q 'held|5000' "$work/holder.out"; then
    ok "an open transaction in another session keeps deleted rows until it commits"
  else
    fail "concurrent horizon" "while open: $out1" "after commit: $out2" \
      "$(cat "$work/holder.out")" "$(tail -n 5 "$work/server.log")"
  fi
fi

e2e_result
