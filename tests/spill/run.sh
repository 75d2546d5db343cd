#!/usr/bin/env bash
# run.sh -- end-to-end tests of hash aggregation (and hashed SetOp)
# spilling to disk (issue 8), and of external sorts (issue 9).
#
#   tests/spill/run.sh [PATH/TO/tupledb]
#
# Through the shell on a fresh data directory:
#   - the same grouped queries (1M int groups; 200k text groups with
#     by-reference transition values and a NULL key)
#     at work_mem = 64kB give exactly the in-memory answer (work_mem = 1GB);
#   - EXPLAIN ANALYZE shows more than one batch and a Disk Usage when it
#     spills, one batch and no Disk Usage when it does not;
#   - a hashed EXCEPT spills the same way (Batches > 1 and a Disk Usage
#     under its HashSetOp) and gives the in-memory answer;
#   - the spilling run's peak RSS (VmHWM via /usr/bin/time) stays far
#     below the in-memory run's: memory is bounded by work_mem;
#   - temporary files (DATADIR/base/pgsql_tmp) exist while a spilling
#     query runs and are gone after it succeeds, after it fails with an
#     error raised in a spilled batch, and after it is cancelled
#     (statement_timeout; and a CancelRequest from psql through `tupledb
#     serve`, when psql 15 is installed).
# And for sorts (sections 7 to 11):
#   - ORDER BY over int8, text, numeric, multi-column and DESC NULLS FIRST
#     keys at work_mem = 64kB (hundreds of runs, several merges) gives the
#     in-memory answer, and so do sorted GROUP BY / DISTINCT;
#   - EXPLAIN ANALYZE says "external merge  Disk: NkB" when it spills,
#     "quicksort  Memory: NkB" in memory, "top-N heapsort" under LIMIT
#     (which never spills, even at 64kB);
#   - the spilling sort's peak RSS stays far below the in-memory sort's;
#   - its temporary files are gone after success, after an error raised
#     while the sorted rows are read, after statement_timeout and after a
#     CancelRequest through the server.
# And for WITH queries computed once (section 13): their shared rows and
# WITH RECURSIVE's working tables at work_mem = 64kB give the in-memory
# answers; the spilling run's peak RSS stays far below the in-memory
# run's; the file exists while a long one runs and is gone after
# statement_timeout.
# Prints one line per check and
#   RESULT spill_e2e: N passed, N failed, N skipped
# (make check runs it through build/<flavour>/tests/spill_e2e).
set -uo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/../lib/e2e.sh"
e2e_start spill "$@"
tmpdir=${TDB_SPILL_TMPDIR:-$db/base/pgsql_tmp}
temp_files() { find "$tmpdir" -type f 2>/dev/null | wc -l; }

# the grouped queries: each reduces its groups to one checkable row
read -r -d '' QUERIES <<'SQL'
SELECT count(*), sum(c), min(g), max(g), sum(s) FROM (SELECT g, count(*) AS c, sum(g::int8 * 2) AS s FROM generate_series(1, 1000000) g GROUP BY g) x;
SELECT count(*), sum(n), sum(length(a)), sum(length(mx)), sum(nm), count(k) FROM (SELECT CASE WHEN g % 1000 = 0 THEN NULL ELSE md5((g % 200000)::text) END AS k, count(*) AS n, string_agg(g::text, ',') AS a, max(g::text) AS mx, sum(g::numeric / 3) AS nm FROM generate_series(1, 400000) g GROUP BY 1) x;
SELECT count(*), sum(c) FROM (SELECT g % 300000 AS k1, (g % 3)::text AS k2, count(*) AS c FROM generate_series(1, 600000) g GROUP BY 1, 2 HAVING count(*) > 0) x;
SQL

e2e_require_bin

# 1. same answers spilled and in memory
in_memory=$(printf 'SET work_mem = %s;\n%s\n' "'1GB'" "$QUERIES" | tdb 2>&1)
spilled=$(printf 'SET work_mem = %s;\n%s\n' "'64kB'" "$QUERIES" | tdb 2>&1)
if [ "$in_memory" = "$spilled" ] && ! grep -q ERROR <<<"$in_memory"; then
  ok "spilled results equal in-memory results"
else
  fail "spilled results equal in-memory results" "in memory:" "$in_memory" "spilled:" "$spilled"
fi
if [ "$(temp_files)" -eq 0 ]; then ok "no temporary file left after success"
else fail "no temporary file left after success" "$(ls "$tmpdir")"; fi

# 2. EXPLAIN ANALYZE
plan_q="EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT g, count(*) FROM generate_series(1, 300000) g GROUP BY g"
plan=$(printf "SET work_mem = '64kB';\n%s;\n" "$plan_q" | tdb 2>&1)
if grep -Eq '^   Batches: ([2-9]|[1-9][0-9]+)  Memory Usage: [0-9]+kB  Disk Usage: [1-9][0-9]*kB$' <<<"$plan"; then
  ok "EXPLAIN ANALYZE shows batches and disk usage when spilling"
else
  fail "EXPLAIN ANALYZE shows batches and disk usage when spilling" "$plan"
fi
mem_kb=$(sed -nE 's/.*Memory Usage: ([0-9]+)kB.*/\1/p' <<<"$plan")
if [ -n "$mem_kb" ] && [ "$mem_kb" -le 160 ]; then
  ok "hash table memory within work_mem x hash_mem_multiplier (${mem_kb}kB <= 128kB + slack)"
else
  fail "hash table memory within work_mem x hash_mem_multiplier" "$plan"
fi
plan=$(printf "SET work_mem = '1GB';\n%s;\n" "$plan_q" | tdb 2>&1)
if grep -Eq '^   Batches: 1  Memory Usage: [0-9]+kB$' <<<"$plan"; then
  ok "EXPLAIN ANALYZE shows one batch and no disk usage in memory"
else
  fail "EXPLAIN ANALYZE shows one batch and no disk usage in memory" "$plan"
fi

# 2b. a hashed EXCEPT spills the same way (the planner expects 200 groups
# of an expression without statistics, so it hashes at any work_mem) and
# gives the in-memory answer
setop_q="SELECT count(*), count(k), sum(k) FROM (SELECT NULLIF(g % 200000, 7) AS k FROM generate_series(1, 600000) g EXCEPT SELECT NULLIF(g + 100000, 7) FROM generate_series(1, 150000) g) x"
setop_plan() {
  printf "SET work_mem = '%s';\nEXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) %s;\n" "$1" "$setop_q" | tdb 2>&1
}
plan=$(setop_plan 64kB)
if grep -q -- '->  HashSetOp Except (actual rows=100001 loops=1)' <<<"$plan" &&
   grep -Eq '^               Batches: ([2-9]|[1-9][0-9]+)  Memory Usage: [0-9]+kB  Disk Usage: [1-9][0-9]*kB$' <<<"$plan"; then
  ok "a hashed EXCEPT spills: EXPLAIN ANALYZE shows batches and disk usage"
else
  fail "a hashed EXCEPT spills: EXPLAIN ANALYZE shows batches and disk usage" "$plan"
fi
plan=$(setop_plan 1GB)
if grep -q -- '->  HashSetOp Except (actual rows=100001 loops=1)' <<<"$plan" &&
   grep -Eq '^               Batches: 1  Memory Usage: [0-9]+kB$' <<<"$plan"; then
  ok "the same EXCEPT in memory: one batch, no disk usage"
else
  fail "the same EXCEPT in memory: one batch, no disk usage" "$plan"
fi
in_memory=$(printf "SET work_mem = '1GB';\n%s;\n" "$setop_q" | tdb 2>&1)
spilled=$(printf "SET work_mem = '64kB';\n%s;\n" "$setop_q" | tdb 2>&1)
if [ "$in_memory" = "$spilled" ] && grep -q '100001 | 100000 | 5000049993' <<<"$spilled"; then
  ok "spilled EXCEPT result equals the in-memory result"
else
  fail "spilled EXCEPT result equals the in-memory result" "in memory:" "$in_memory" "spilled:" "$spilled"
fi
if [ "$(temp_files)" -eq 0 ]; then ok "no temporary file left after the spilled EXCEPT"
else fail "no temporary file left after the spilled EXCEPT" "$(ls "$tmpdir")"; fi

# 3. peak memory bounded (not under AddressSanitizer, whose quarantine
# keeps freed memory)
peak_of() {
  /usr/bin/time -f '%M' -o "$work/rss" "$bin" -X -q "$db" -c "SET work_mem = '$1'" \
    -c "SELECT count(*) FROM (SELECT g, count(*) FROM generate_series(1, 2000000) g GROUP BY g) x" >/dev/null 2>&1
  tail -n 1 "$work/rss"
}
if [ ! -x /usr/bin/time ]; then
  skip "peak memory bounded (no /usr/bin/time)"
elif [[ $bin == */asan/* ]]; then
  skip "peak memory bounded (AddressSanitizer's quarantine and shadow memory)"
else
  base=$(/usr/bin/time -f '%M' "$bin" -X -q "$db" -c "SELECT 1" 2>&1 >/dev/null | tail -n 1)
  big=$(peak_of 1GB)
  small=$(peak_of 64kB)
  # in memory, 2M groups take ~80 MB; spilled, the table stays near 128kB
  if [ $((small - base)) -lt 30000 ] && [ $((big - base)) -gt $((3 * (small - base))) ]; then
    ok "peak memory bounded: ${small} kB spilling vs ${big} kB in memory (baseline ${base} kB)"
  else
    fail "peak memory bounded" "baseline ${base} kB, in memory ${big} kB, spilling ${small} kB"
  fi
fi

# 4. temporary files gone after an error raised in a spilled batch
err=$(printf "SET work_mem = '64kB';\nSELECT g, sum(10 / (g - 150000)) FROM generate_series(1, 200000) g GROUP BY g;\n" | tdb 2>&1)
if grep -q 'ERROR:  division by zero' <<<"$err" && [ "$(temp_files)" -eq 0 ]; then
  ok "no temporary file left after an error"
else
  fail "no temporary file left after an error" "$err" "$(ls "$tmpdir" 2>&1)"
fi

# 5. ... and after a cancel (statement_timeout raises the cancel error):
# temporary files must appear while the query runs and be gone after
timeout_cleans_up() {  # NAME QUERY
  (printf "SET work_mem = '64kB';\nSET statement_timeout = '3s';\n%s;\n" "$2" | tdb >"$work/timeout.out" 2>&1) &
  local seen=0
  for _ in $(seq 1 60); do
    [ "$(temp_files)" -gt 0 ] && { seen=1; break; }
    sleep 0.1
  done
  wait $!
  if [ "$seen" -eq 1 ] && grep -q 'canceling statement due to statement timeout' "$work/timeout.out" &&
     [ "$(temp_files)" -eq 0 ]; then
    ok "$1"
  else
    fail "$1" "seen while running: $seen" "$(cat "$work/timeout.out")" "$(ls "$tmpdir" 2>&1)"
  fi
}
long_q="SELECT count(*) FROM (SELECT g, count(*) FROM generate_series(1, 50000000) g GROUP BY g) x"
timeout_cleans_up "temporary files exist while spilling and are gone after statement_timeout" "$long_q"

# 7. external sorts: the same answers as in memory
read -r -d '' SORTS <<'SQL'
SELECT count(*), md5(string_agg(k::text, ',')) FROM (SELECT (g::int8 * 7919) % 300007 AS k FROM generate_series(1, 300000) g ORDER BY 1) x;
SELECT count(*), md5(string_agg(t, ',')) FROM (SELECT md5((g % 150000)::text) AS t FROM generate_series(1, 200000) g ORDER BY 1) x;
SELECT count(*), md5(string_agg(n::text, ',')) FROM (SELECT ((g * 7919) % 100003)::numeric / 7 AS n FROM generate_series(1, 150000) g ORDER BY 1 DESC) x;
SELECT count(*), md5(string_agg(a::text || ':' || coalesce(b::text, 'null'), ',')) FROM (SELECT g % 100 AS a, NULLIF((g * 31) % 5003, 0) AS b FROM generate_series(1, 200000) g ORDER BY 1, 2 DESC NULLS FIRST) x;
SELECT count(*), sum(c), md5(string_agg(k::text, ',')) FROM (SELECT g % 70001 AS k, count(*) AS c FROM generate_series(1, 250000) g GROUP BY 1 ORDER BY 1) x;
SELECT count(*), md5(string_agg(t, ',')) FROM (SELECT DISTINCT md5((g % 90000)::text) AS t FROM generate_series(1, 200000) g ORDER BY 1) x;
SQL
sort_run() { printf "SET work_mem = '%s';\nSET enable_hashagg = off;\n%s\n" "$1" "$SORTS" | tdb 2>&1; }
in_memory=$(sort_run 1GB)
spilled=$(sort_run 64kB)
if [ "$in_memory" = "$spilled" ] && ! grep -q ERROR <<<"$in_memory" && [ "$(grep -c ' | ' <<<"$in_memory")" -ge 6 ]; then
  ok "external sorts give the in-memory answers"
else
  fail "external sorts give the in-memory answers" "in memory:" "$in_memory" "spilled:" "$spilled"
fi
if [ "$(temp_files)" -eq 0 ]; then ok "no temporary file left after the external sorts"
else fail "no temporary file left after the external sorts" "$(ls "$tmpdir")"; fi

# 8. EXPLAIN ANALYZE of sorts
sort_q="SELECT g FROM generate_series(1, 200000) g ORDER BY g DESC"
sort_plan() {
  printf "SET work_mem = '%s';\nEXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) %s;\n" "$1" "$2" | tdb 2>&1
}
plan=$(sort_plan 64kB "$sort_q")
if grep -Eq '^   Sort Method: external merge  Disk: [1-9][0-9]*kB$' <<<"$plan"; then
  ok "EXPLAIN ANALYZE shows an external merge and its disk use"
else
  fail "EXPLAIN ANALYZE shows an external merge and its disk use" "$plan"
fi
plan=$(sort_plan 1GB "$sort_q")
if grep -Eq '^   Sort Method: quicksort  Memory: [1-9][0-9]*kB$' <<<"$plan"; then
  ok "EXPLAIN ANALYZE shows an in-memory sort and its memory"
else
  fail "EXPLAIN ANALYZE shows an in-memory sort and its memory" "$plan"
fi
plan=$(sort_plan 64kB "$sort_q LIMIT 10")
if grep -Eq '^         Sort Method: top-N heapsort  Memory: [1-9][0-9]*kB$' <<<"$plan"; then
  ok "EXPLAIN ANALYZE shows a top-N heapsort under LIMIT, in memory at 64kB"
else
  fail "EXPLAIN ANALYZE shows a top-N heapsort under LIMIT" "$plan"
fi

# 9. the spilling sort's peak memory
sort_peak() {
  /usr/bin/time -f '%M' -o "$work/rss" "$bin" -X -q "$db" -c "SET work_mem = '$1'" \
    -c "SELECT * FROM (SELECT g, md5(g::text) FROM generate_series(1, 1000000) g ORDER BY 2) x OFFSET 1000000" >/dev/null 2>&1
  tail -n 1 "$work/rss"
}
if [ ! -x /usr/bin/time ]; then
  skip "sort peak memory bounded (no /usr/bin/time)"
elif [[ $bin == */asan/* ]]; then
  skip "sort peak memory bounded (AddressSanitizer's quarantine and shadow memory)"
else
  base=$(/usr/bin/time -f '%M' "$bin" -X -q "$db" -c "SELECT 1" 2>&1 >/dev/null | tail -n 1)
  big=$(sort_peak 1GB)
  small=$(sort_peak 1MB)
  # in memory, 1M rows of ~80 bytes take ~90 MB; spilled, about 1 MB
  if [ $((small - base)) -lt 30000 ] && [ $((big - base)) -gt $((3 * (small - base))) ]; then
    ok "sort peak memory bounded: ${small} kB spilling vs ${big} kB in memory (baseline ${base} kB)"
  else
    fail "sort peak memory bounded" "baseline ${base} kB, in memory ${big} kB, spilling ${small} kB"
  fi
fi

# 10. temporary files gone after an error raised while the sorted rows
# are read (the merge is under way)
err=$(printf "SET work_mem = '64kB';\nSELECT 10 / (g - 150000) FROM (SELECT g FROM generate_series(1, 200000) g ORDER BY g) x;\n" | tdb 2>&1)
if grep -q 'ERROR:  division by zero' <<<"$err" && [ "$(temp_files)" -eq 0 ]; then
  ok "no temporary file left after an error while reading a merge"
else
  fail "no temporary file left after an error while reading a merge" "$(tail -n 3 <<<"$err")" "$(ls "$tmpdir" 2>&1)"
fi

# 11. ... and after statement_timeout during a large external sort
long_sort="SELECT count(*) FROM (SELECT md5(g::text) FROM generate_series(1, 30000000) g ORDER BY 1) x"
timeout_cleans_up "sort run files exist while sorting and are gone after statement_timeout" "$long_sort"

# 13. WITH queries computed once: the rows their CTE scans share (and
# WITH RECURSIVE's working tables) go to a temporary file past work_mem
read -r -d '' CTES <<'SQL'
WITH r AS (SELECT g, md5(g::text) AS m FROM generate_series(1, 200000) g) SELECT count(*), sum(a.g), max(b.m) FROM r a JOIN r b ON a.g = b.g;
WITH r AS (SELECT g, md5(g::text) AS m FROM generate_series(1, 200000) g) SELECT (SELECT count(*) FROM r), (SELECT md5(string_agg(m, ',')) FROM r), (SELECT sum(g) FROM r WHERE g % 7 = 0);
WITH RECURSIVE t(n, m) AS (SELECT g, md5(g::text) FROM generate_series(1, 100000) g UNION ALL SELECT n + 100000, md5(m) FROM t WHERE n <= 400000) SELECT count(*), md5(string_agg(m, ',' ORDER BY n)) FROM t;
SQL
cte_run() { printf "SET work_mem = '%s';\n%s\n" "$1" "$CTES" | tdb 2>&1; }
in_memory=$(cte_run 1GB)
spilled=$(cte_run 64kB)
if [ "$in_memory" = "$spilled" ] && ! grep -q ERROR <<<"$in_memory" && [ "$(grep -c ' | ' <<<"$in_memory")" -ge 3 ]; then
  ok "WITH queries spilled past work_mem give the in-memory answers"
else
  fail "WITH queries spilled past work_mem give the in-memory answers" "in memory:" "$in_memory" "spilled:" "$spilled"
fi
if [ "$(temp_files)" -eq 0 ]; then ok "no temporary file left after the spilled WITH queries"
else fail "no temporary file left after the spilled WITH queries" "$(ls "$tmpdir")"; fi
cte_peak() {
  /usr/bin/time -f '%M' -o "$work/rss" "$bin" -X -q "$db" -c "SET work_mem = '$1'" \
    -c "WITH r AS (SELECT g, md5(g::text) AS m FROM generate_series(1, 1000000) g) SELECT (SELECT count(*) FROM r), (SELECT max(m) FROM r)" >/dev/null 2>&1
  tail -n 1 "$work/rss"
}
if [ ! -x /usr/bin/time ]; then
  skip "WITH query peak memory bounded (no /usr/bin/time)"
elif [[ $bin == */asan/* ]]; then
  skip "WITH query peak memory bounded (AddressSanitizer's quarantine and shadow memory)"
else
  base=$(/usr/bin/time -f '%M' "$bin" -X -q "$db" -c "SELECT 1" 2>&1 >/dev/null | tail -n 1)
  big=$(cte_peak 1GB)
  small=$(cte_peak 1MB)
  # in memory, 1M rows of ~70 bytes take ~80 MB; spilled, about 1 MB
  if [ $((small - base)) -lt 30000 ] && [ $((big - base)) -gt $((3 * (small - base))) ]; then
    ok "WITH query peak memory bounded: ${small} kB spilling vs ${big} kB in memory (baseline ${base} kB)"
  else
    fail "WITH query peak memory bounded" "baseline ${base} kB, in memory ${big} kB, spilling ${small} kB"
  fi
fi
long_cte="WITH r AS (SELECT md5(g::text) AS m FROM generate_series(1, 50000000) g) SELECT (SELECT count(*) FROM r), (SELECT count(*) FROM r)"
timeout_cleans_up "a WITH query's spilled rows exist while it runs and are gone after statement_timeout" "$long_cte"

# 6. a CancelRequest through the server (psql sends one on SIGINT)
cancel_cleans_up() {  # NAME QUERY ANSWER: files seen, gone after the
  # cancel, and the server still answers SELECT ANSWER
  (PGOPTIONS='-c work_mem=64kB' "$PSQL" -X -h "$sock" -p 54377 -U "$(id -un)" -d postgres -c "$2" >"$work/cancel.out" 2>&1) &
  local psql_pid=$! seen=0 gone=0 alive
  for _ in $(seq 1 100); do
    [ "$(temp_files)" -gt 0 ] && { seen=1; break; }
    sleep 0.1
  done
  kill -INT "$psql_pid" 2>/dev/null
  wait "$psql_pid"
  for _ in $(seq 1 50); do [ "$(temp_files)" -eq 0 ] && { gone=1; break; }; sleep 0.1; done
  alive=$("$PSQL" -X -At -h "$sock" -p 54377 -U "$(id -un)" -d postgres -c "SELECT $3" 2>&1)
  if [ "$seen" -eq 1 ] && [ "$gone" -eq 1 ] &&
     grep -q 'canceling statement due to user request' "$work/cancel.out" && [ "$alive" = "$3" ]; then
    ok "$1"
  else
    fail "$1" "seen: $seen gone: $gone alive: $alive" \
      "$(cat "$work/cancel.out")" "$(tail -n 5 "$work/server.log")"
  fi
}
if [ ! -x "$PSQL" ]; then
  skip "temporary files gone after a CancelRequest (no psql 15)"
  skip "sort run files gone after a CancelRequest (no psql 15)"
else
  sock=$work/sock; mkdir "$sock"
  "$bin" serve "$db" --port 54377 --socket-dir "$sock" >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do [ -S "$sock/.s.PGSQL.54377" ] && break; sleep 0.05; done
  cancel_cleans_up "temporary files gone after a CancelRequest; the server keeps serving" "$long_q" 42
  # 12. ... and a sort's run files
  cancel_cleans_up "sort run files gone after a CancelRequest; the server keeps serving" "$long_sort" 43
fi

e2e_result
