#!/usr/bin/env bash
# run.sh -- end-to-end tests of TOAST and the per-query detoast cache
# (issue 10), through the shell on a fresh data directory:
#   - in every plan shape the issue names, a toasted value is fetched /
#     decompressed once per query however many rows, nodes or expressions
#     use it, proved by EXPLAIN ANALYZE's "Detoast Cache:" counters:
#     nested loop with the toasted table inner and outer, an InitPlan, a
#     correlated SubPlan, hash and merge join keys, a sort by the toasted
#     key, the same value twice in one expression, compressed inline and
#     compressed out-of-line values;
#   - with detoast_cache_size = 0 every use detoasts (PostgreSQL's
#     behaviour), and the answers are the same;
#   - a small budget evicts and still answers right;
#   - substr() of an uncompressed out-of-line value reads a slice, not
#     the value;
#   - a 100 MB value round trips out of line;
#   - trace_detoast logs the counters;
#   - a value updated 10 times with VACUUM between: the chunk store
#     reuses the emptied pages, so the table's size stays bounded;
#   - a statement keeps reading the value it started with while another
#     session updates (and vacuums) it, through `tupledb serve` and psql
#     (skipped without psql).
# Prints one line per check and
#   RESULT toast_e2e: N passed, N failed, N skipped
# (make check runs it through build/<flavour>/tests/toast_e2e).
set -uo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/../lib/e2e.sh"
e2e_start toast "$@"

e2e_require_bin

# toasted, toasted2: ~640 kB of md5 text each (does not compress: stored
# out of line uncompressed); comp_ext: 256 kB repeating every 3,200 bytes
# (compresses, still too big for a row: out of line, compressed); comp_in:
# 32 kB that compresses to a few hundred bytes (compressed inline);
# outer_t: 1,000 rows.
tdb >/dev/null 2>&1 <<'SQL'
CREATE TABLE toasted (id int, v text);
INSERT INTO toasted SELECT 1, string_agg(md5(g::text), '' ORDER BY g) FROM generate_series(1, 20000) g;
CREATE TABLE toasted2 (id int, v text);
INSERT INTO toasted2 SELECT 2, string_agg(md5((g * 7)::text), '' ORDER BY g) FROM generate_series(1, 20000) g;
CREATE TABLE comp_ext (v text);
INSERT INTO comp_ext SELECT string_agg(md5((g % 100)::text), '' ORDER BY g) FROM generate_series(1, 8000) g;
CREATE TABLE comp_in (v text);
INSERT INTO comp_in SELECT repeat('tupledb ', 4000);
CREATE TABLE outer_t (x int);
INSERT INTO outer_t SELECT g FROM generate_series(1, 1000) g;
SQL

# The Detoast Cache line of EXPLAIN ANALYZE for a query (settings first).
detoast_line() {
  printf '%s\nEXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) %s;\n' "$1" "$2" |
    tdb 2>&1 | grep -E 'Detoast Cache:|ERROR' || echo "(no Detoast Cache line)"
}
counter() { sed -nE "s/.*[ :]$1=([0-9]+).*/\1/p" <<<"$2"; }
plan_of() {
  printf '%s\nEXPLAIN (COSTS OFF) %s;\n' "$1" "$2" | tdb 2>&1
}

# expect_once NAME SETTINGS QUERY FETCHED DECOMPRESSED MIN_HITS PLAN_PATTERN
expect_once() {
  local name=$1 settings=$2 query=$3 want_fetched=$4 want_decomp=$5 min_hits=$6 pattern=$7
  local line plan fetched decomp hits
  plan=$(plan_of "$settings" "$query")
  if [ -n "$pattern" ] && ! grep -Eq "$pattern" <<<"$plan"; then
    fail "$name: plan shape" "$plan"
    return
  fi
  line=$(detoast_line "$settings" "$query")
  fetched=$(counter fetched "$line"); decomp=$(counter decompressed "$line"); hits=$(counter hits "$line")
  if [ "$fetched" = "$want_fetched" ] && [ "$decomp" = "$want_decomp" ] &&
     [ -n "$hits" ] && [ "$hits" -ge "$min_hits" ]; then
    ok "$name: fetched=$fetched decompressed=$decomp hits=$hits"
  else
    fail "$name" "$line" "$plan"
  fi
}

NL="SET enable_hashjoin = off; SET enable_mergejoin = off;"
expect_once "nested loop, toasted table inner" "$NL" \
  "SELECT sum(strpos(t.v, o.x::text)) FROM outer_t o, toasted t" 1 0 999 \
  'Seq Scan on outer_t o$'
expect_once "nested loop, toasted table outer" "$NL" \
  "SELECT sum(strpos(t.v, o.x::text)) FROM toasted t, (SELECT x FROM outer_t OFFSET 0) o" 1 0 999 \
  'Nested Loop'
expect_once "InitPlan parameter" "" \
  "SELECT count(*) FROM outer_t WHERE strpos((SELECT v FROM toasted), x::text) > 0" 1 0 999 \
  'InitPlan'
expect_once "correlated SubPlan" "" \
  "SELECT count(*) FROM outer_t o WHERE (SELECT strpos(t.v, o.x::text) FROM toasted t) > 0" 1 0 999 \
  'SubPlan'
expect_once "hash join keys" "SET enable_mergejoin = off; SET enable_nestloop = off;" \
  "SELECT count(*) FROM (SELECT t.v FROM toasted t, outer_t) a JOIN toasted b ON a.v = b.v" 1 0 999 \
  'Hash Join'
expect_once "merge join keys" "SET enable_hashjoin = off; SET enable_nestloop = off;" \
  "SELECT count(*) FROM (SELECT t.v FROM toasted t, outer_t) a JOIN toasted b ON a.v = b.v" 1 0 999 \
  'Merge Join'
expect_once "sort by a toasted key" "$NL" \
  "SELECT o.x FROM outer_t o, toasted t ORDER BY t.v, o.x DESC LIMIT 3" 1 0 999 \
  'Sort'
expect_once "sort by a toasted key, payload detoasted above the sort" "$NL" \
  "SELECT length(v) FROM (SELECT t.v, o.x FROM outer_t o, toasted t ORDER BY o.x) s" 1 0 999 \
  'Sort'
expect_once "the same value twice in one expression" "" \
  "SELECT length(v) + strpos(v, 'abc') + length(v || 'x') FROM toasted" 1 0 2 ''
expect_once "compressed inline value, nested loop" "$NL" \
  "SELECT sum(length(c.v) + o.x) FROM outer_t o, comp_in c" 0 1 999 ''
expect_once "compressed out-of-line value, nested loop" "$NL" \
  "SELECT sum(strpos(c.v, o.x::text)) FROM outer_t o, comp_ext c" 1 1 999 ''
expect_once "two toasted values, both cached" "$NL" \
  "SELECT sum(strpos(a.v, o.x::text) + strpos(b.v, o.x::text)) FROM outer_t o, toasted a, toasted2 b" 2 0 1998 ''

# cache off: one fetch per use, same answers
q="SELECT sum(strpos(t.v, o.x::text)) FROM outer_t o, toasted t"
line=$(detoast_line "$NL SET detoast_cache_size = 0;" "$q")
if [ "$(counter fetched "$line")" = 1000 ]; then ok "detoast_cache_size = 0: one fetch per row ($line)"
else fail "detoast_cache_size = 0: one fetch per row" "$line"; fi
a=$(printf '%s\n%s;\n' "$NL" "$q" | tdb -A -t 2>&1)
b=$(printf '%s SET detoast_cache_size = 0;\n%s;\n' "$NL" "$q" | tdb -A -t 2>&1)
if [ "$a" = "$b" ] && [ -n "$a" ] && ! grep -q ERROR <<<"$a"; then ok "cached and uncached answers agree ($a)"
else fail "cached and uncached answers agree" "$a" "$b"; fi

# a budget smaller than the two values a row needs: they evict each other
# once their row is done, and the answers agree
q2="SELECT sum(strpos(a.v, o.x::text) + strpos(b.v, o.x::text)) FROM outer_t o, toasted a, toasted2 b"
line=$(detoast_line "$NL SET detoast_cache_size = '1MB';" "$q2")
c=$(printf '%s SET detoast_cache_size = %s;\n%s;\n' "$NL" "'1MB'" "$q2" | tdb -A -t 2>&1)
d=$(printf '%s\n%s;\n' "$NL" "$q2" | tdb -A -t 2>&1)
if [ "$(counter evicted "$line")" -gt 0 ] 2>/dev/null && [ "$c" = "$d" ] && [ -n "$c" ]; then
  ok "a 1MB budget evicts and answers the same ($line)"
else
  fail "a 1MB budget evicts and answers the same" "$line" "$c" "$d"
fi

# slices: substr of an uncompressed out-of-line value reads its first chunk
line=$(detoast_line "" "SELECT substr(v, 1, 100) FROM toasted")
if [ "$(counter slices "$line")" = 1 ] && [ "$(counter fetched "$line")" = 0 ]; then
  ok "substr reads a slice, not the value ($line)"
else
  fail "substr reads a slice, not the value" "$line"
fi
s1=$(tdb -A -t -c "SELECT md5(substr(v, 1990, 20)), md5(substr(v, 3900, 200)), octet_length(v), length(v) FROM toasted" 2>&1)
s2=$(tdb -A -t -c "SELECT md5(substr(v || '', 1990, 20)), md5(substr(v || '', 3900, 200)), octet_length(v || ''), length(v || '') FROM toasted" 2>&1)
if [ "$s1" = "$s2" ] && [ -n "$s1" ] && ! grep -q ERROR <<<"$s1"; then ok "slices across chunk boundaries equal the detoasted value's"
else fail "slices across chunk boundaries equal the detoasted value's" "$s1" "$s2"; fi

# a 100 MB value out of line uncompressed (51,000 chunks): stored, read
# back whole and in slices, the same as the value computed in memory
big=$(tdb -A -t 2>&1 <<'SQL'
CREATE TABLE big (v text);
ALTER TABLE big ALTER COLUMN v SET STORAGE EXTERNAL;
INSERT INTO big SELECT repeat(md5('tupledb'), 3200000);
SELECT length(v), pg_column_size(v), md5(v) = md5(repeat(md5('tupledb'), 3200000)), substr(v, 99999990, 20) = substr(repeat(md5('tupledb'), 3200000), 99999990, 20) FROM big;
DROP TABLE big;
SQL
)
if [ "$big" = "102400000|102400000|t|t" ]; then ok "a 100 MB value round trips out of line"
else fail "a 100 MB value round trips out of line" "$big"; fi

# trace_detoast
log=$(printf "SET client_min_messages = log; SET trace_detoast = on;\nSELECT length(v) + length(v) FROM toasted;\n" | tdb 2>&1)
if grep -Eq 'LOG: +detoast: 2 requests, 1 cache hits, 1 fetched' <<<"$log"; then ok "trace_detoast logs the counters"
else fail "trace_detoast logs the counters" "$log"; fi

# space reuse: a 640 kB value updated 10 times, VACUUM after each update
# (one shell process: the free space record is in memory).  The chunk
# store puts each new value into the pages VACUUM emptied of the value
# before last, so the table stops growing at about two values' pages
# (without reuse: eleven); the last value reads back exactly.
val() { echo "(SELECT string_agg(md5((g + $1)::text), '' ORDER BY g) FROM generate_series(1, 20000) g)"; }
{
  echo "CREATE TABLE t (id int, v text);"
  echo "INSERT INTO t SELECT 1, $(val 0);"
  echo "SELECT 'size0', pg_total_relation_size('t'::regclass);"
  for i in $(seq 1 10); do
    echo "UPDATE t SET v = $(val "$i");"
    echo "VACUUM t;"
    echo "SELECT 'size$i', pg_total_relation_size('t'::regclass);"
  done
  echo "SELECT 'same', md5(v) = md5($(val 10)), length(v) FROM t;"
} | tdb -A -t -F ' ' >"$work/reuse.out" 2>&1
size_of() { sed -nE "s/^size$1 ([0-9]+)$/\1/p" "$work/reuse.out"; }
s0=$(size_of 0); s2=$(size_of 2); s10=$(size_of 10)
if [ -n "$s0" ] && [ -n "$s2" ] && [ -n "$s10" ] && [ "$s10" = "$s2" ] &&
   [ "$s10" -le $((2 * s0 + 65536)) ] && grep -qx 'same t 640000' "$work/reuse.out" &&
   ! grep -q ERROR "$work/reuse.out"; then
  ok "a value updated 10 times with VACUUM between keeps the size bounded ($s0 -> $s10 bytes)"
else
  fail "a value updated 10 times with VACUUM between keeps the size bounded" "$(tr '\n' ';' <"$work/reuse.out")"
fi

# concurrent writer: a statement that started before another session
# replaced (and vacuumed) the value keeps reading the old value's chunks
# to its end.  The statement reads the value, works a while, reads it
# again; detoast_cache_size = 0 makes the second read fetch the chunks.
if [ -x "$PSQL" ]; then
  port=$((20000 + RANDOM % 20000))
  "$bin" serve "$db" --port "$port" >"$work/server.log" 2>&1 &
  server_pid=$!
  psql_c() { "$PSQL" -X -q -A -t -h 127.0.0.1 -p "$port" -U "$(id -un)" -d postgres "$@"; }
  for _ in $(seq 50); do
    psql_c -c "SELECT 1" >/dev/null 2>&1 && break
    sleep 0.1
  done
  before=$(psql_c -c "SELECT md5(v) FROM toasted" 2>&1)
  psql_c -F ' ' -c "SET detoast_cache_size = 0" -c "SELECT (SELECT md5(v) FROM toasted), (SELECT count(*) FROM generate_series(1, 30000000)), (SELECT md5(v) FROM toasted)" >"$work/long.out" 2>&1 &
  long_pid=$!
  sleep 0.3
  psql_c -c "UPDATE toasted SET v = v || 'changed'" >/dev/null 2>&1
  psql_c -c "VACUUM toasted" >/dev/null 2>&1
  kill -0 "$long_pid" 2>/dev/null && interleaved=yes || interleaved=no
  after_other=$(psql_c -c "SELECT md5(v) FROM toasted" 2>&1)
  wait "$long_pid"
  read -r first _ second <"$work/long.out"
  if [ "$interleaved" = no ]; then
    skip "concurrent writer (the long statement ended before the update and VACUUM)"
  elif [ "$first" = "$before" ] && [ "$second" = "$before" ] && [ "$after_other" != "$before" ] && [ -n "$before" ]; then
    ok "a running statement reads its value after a concurrent update and VACUUM"
  else
    fail "a running statement reads its value after a concurrent update and VACUUM" "before: $before" "other session after: $after_other" "long statement: $(cat "$work/long.out")"
  fi
else
  skip "concurrent writer (no psql)"
fi

e2e_result
