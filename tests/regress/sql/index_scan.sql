-- Index Scan and Index Only Scan: the plans PostgreSQL 15 makes for a
-- table's conditions and ORDER BY, and their rows.  No bitmap scans in
-- tupledb: they are off here, as in PostgreSQL's own index tests.
SET enable_bitmapscan = off;
CREATE TABLE t (a int PRIMARY KEY, b int, c text, d int8);
INSERT INTO t SELECT g, g % 100, 'v' || g, CASE WHEN g % 7 = 0 THEN NULL ELSE g % 50 END
  FROM generate_series(1, 20000) g;
CREATE INDEX t_b_idx ON t (b);
CREATE INDEX t_d_desc ON t (d DESC NULLS LAST);
CREATE INDEX t_b_d_idx ON t (b, d);

-- point lookups by the primary key, either side, cross-type
EXPLAIN (COSTS OFF) SELECT * FROM t WHERE a = 42;
SELECT * FROM t WHERE a = 42;
EXPLAIN (COSTS OFF) SELECT * FROM t WHERE 42 = a;
SELECT * FROM t WHERE 42 = a;
EXPLAIN (COSTS OFF) SELECT c FROM t WHERE a = 42::int8;
SELECT c FROM t WHERE a = 42::int8;
SELECT c FROM t WHERE a = 42::int2;
SELECT c FROM t WHERE a = 3000000000::int8;
SELECT a FROM t WHERE a > 19998::int8 ORDER BY a;
SELECT a FROM t WHERE a < 3000000000::int8 AND a > 19998 ORDER BY a;
SELECT count(*) FROM t WHERE a > -3000000000::int8 AND a < 3;
SELECT c FROM t WHERE a = 0;
SELECT c FROM t WHERE a = NULL;

-- ranges, BETWEEN, empty ranges
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT a, c FROM t WHERE a BETWEEN 10 AND 15;
SELECT a, c FROM t WHERE a BETWEEN 10 AND 15;
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE a > 19995;
SELECT a FROM t WHERE a > 19995 ORDER BY a;
SELECT a FROM t WHERE a >= 19995 AND a < 19997;
SELECT a FROM t WHERE a <= 3 ORDER BY a;
SELECT a FROM t WHERE a BETWEEN 15 AND 10;
SELECT a FROM t WHERE a > 20000;
SELECT a FROM t WHERE a < 1;
RESET enable_seqscan;

-- IN lists: sorted, duplicates and NULLs dropped
EXPLAIN (COSTS OFF) SELECT * FROM t WHERE a IN (5, 3, 5, NULL, 1);
SELECT * FROM t WHERE a IN (5, 3, 5, NULL, 1);
SELECT * FROM t WHERE a IN (NULL, 0);
SELECT a FROM t WHERE a IN (7, 3000000000, 2) ORDER BY a;

-- a non-unique index, with a Filter for the rest
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT a, c FROM t WHERE b = 7 AND c LIKE 'v1%' AND a < 300;
SELECT a, c FROM t WHERE b = 7 AND c LIKE 'v1%' AND a < 300 ORDER BY a;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
  SELECT a FROM t WHERE b = 7 AND c = 'v107';
RESET enable_seqscan;

-- multi-column prefixes
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE b = 3 AND d = 3;
SELECT a FROM t WHERE b = 3 AND d = 3 ORDER BY a;
EXPLAIN (COSTS OFF) SELECT b, d FROM t WHERE b = 3 AND d < 5;
SELECT b, d, count(*) FROM t WHERE b = 3 AND d < 5 GROUP BY b, d ORDER BY b, d;
SELECT count(*) FROM t WHERE b = 3 AND d IS NULL;
SELECT count(*) FROM t WHERE b IN (3, 4) AND d = 3;
RESET enable_seqscan;

-- IS NULL, DESC NULLS LAST
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE d IS NULL AND a < 30;
SELECT a FROM t WHERE d IS NULL AND a < 30 ORDER BY a;
EXPLAIN (COSTS OFF) SELECT d FROM t WHERE d > 47;
SELECT d, count(*) FROM t WHERE d > 47 GROUP BY d ORDER BY d;
RESET enable_seqscan;

-- ORDER BY ... LIMIT from the index, both directions
EXPLAIN (COSTS OFF) SELECT * FROM t ORDER BY a LIMIT 3;
SELECT * FROM t ORDER BY a LIMIT 3;
EXPLAIN (COSTS OFF) SELECT * FROM t ORDER BY a DESC LIMIT 3;
SELECT * FROM t ORDER BY a DESC LIMIT 3;
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE a < 100 ORDER BY a DESC LIMIT 2;
SELECT a FROM t WHERE a < 100 ORDER BY a DESC LIMIT 2;
EXPLAIN (COSTS OFF) SELECT a, d FROM t ORDER BY d DESC NULLS LAST LIMIT 4;
SELECT a, d FROM t ORDER BY d DESC NULLS LAST, a LIMIT 4;
EXPLAIN (COSTS OFF) SELECT d FROM t ORDER BY d NULLS FIRST LIMIT 4;
SELECT d FROM t ORDER BY d NULLS FIRST LIMIT 4;
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE b = 5 ORDER BY d LIMIT 3;
SELECT a, d FROM t WHERE b = 5 ORDER BY d, a LIMIT 3;
EXPLAIN (COSTS OFF) SELECT * FROM t ORDER BY a OFFSET 19998;
SELECT * FROM t ORDER BY a OFFSET 19998;

-- reading most of the table: no index
EXPLAIN (COSTS OFF) SELECT count(*) FROM t WHERE a > 10;
EXPLAIN (COSTS OFF) SELECT * FROM t WHERE b < 50;

-- UPDATE and DELETE by the primary key
EXPLAIN (COSTS OFF) UPDATE t SET c = 'changed' WHERE a = 10;
UPDATE t SET c = 'changed' WHERE a = 10;
EXPLAIN (COSTS OFF) DELETE FROM t WHERE a = 11;
DELETE FROM t WHERE a = 11;
SELECT * FROM t WHERE a BETWEEN 9 AND 12 ORDER BY a;
BEGIN;
DELETE FROM t WHERE a = 12;
UPDATE t SET b = b + 1000 WHERE a = 13;
SELECT a, b FROM t WHERE a IN (12, 13);
SELECT a, b FROM t WHERE b = 1013;
ROLLBACK;
SELECT a, b FROM t WHERE a IN (12, 13);
SELECT count(*) FROM t WHERE b = 1013;

-- Index Only Scan: Heap Fetches before and after VACUUM
CREATE TABLE v (k int PRIMARY KEY, w int);
INSERT INTO v SELECT g, g FROM generate_series(1, 1000) g;
SET enable_seqscan = off;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT k FROM v WHERE k < 20;
VACUUM v;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT k FROM v WHERE k < 20;
DELETE FROM v WHERE k = 5;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT k FROM v WHERE k < 20;
SELECT k FROM v WHERE k < 10 ORDER BY k;
SELECT count(*) FROM v WHERE k > 990;
RESET enable_seqscan;

-- an empty table
CREATE TABLE e (x int PRIMARY KEY);
SELECT * FROM e WHERE x = 1;
SELECT * FROM e ORDER BY x LIMIT 1;
EXPLAIN (COSTS OFF) SELECT * FROM e WHERE x = 1;

-- a key from an initplan: a compressed text value
CREATE TABLE big (id int, c text);
INSERT INTO big VALUES (1, repeat('x', 2000));
CREATE TABLE tt (c text);
INSERT INTO tt SELECT 'k' || g FROM generate_series(1, 1000) g;
INSERT INTO tt VALUES (repeat('x', 2000));
CREATE INDEX tt_c ON tt (c);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT length(c) FROM tt WHERE c = (SELECT c FROM big WHERE id = 1);
SELECT length(c) FROM tt WHERE c = (SELECT c FROM big WHERE id = 1);
SELECT count(*) FROM tt WHERE c < (SELECT c FROM big WHERE id = 1) AND c > 'k990';
RESET enable_seqscan;

-- expression indexes: conditions and ORDER BY on the same expression
CREATE TABLE x (id int, name text, n int);
INSERT INTO x SELECT g, CASE WHEN g % 2 = 0 THEN 'Name' ELSE 'NAME' END || g, g % 10
  FROM generate_series(1, 5000) g;
CREATE INDEX x_lower ON x (lower(name));
CREATE INDEX x_n2 ON x ((n * 2));
EXPLAIN (COSTS OFF) SELECT id FROM x WHERE lower(name) = 'name77';
SELECT id FROM x WHERE lower(name) = 'name77';
SELECT id FROM x WHERE lower(name) IN ('name78', 'name7', 'nope') ORDER BY id;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM x WHERE n * 2 = 8 AND id < 40;
SELECT id FROM x WHERE n * 2 = 8 AND id < 40 ORDER BY id;
RESET enable_seqscan;
EXPLAIN (COSTS OFF) SELECT lower(name) FROM x ORDER BY lower(name) LIMIT 3;
SELECT lower(name) FROM x ORDER BY lower(name) LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id FROM x WHERE upper(name) = 'NAME77';

-- partial indexes: used when the WHERE holds the predicate
CREATE TABLE pt (id int, status text, v int);
INSERT INTO pt SELECT g, CASE WHEN g % 100 = 0 THEN 'open' ELSE 'done' END, g
  FROM generate_series(1, 10000) g;
CREATE INDEX pt_open ON pt (id) WHERE status = 'open';
EXPLAIN (COSTS OFF) SELECT id, v FROM pt WHERE status = 'open' AND id < 500;
SELECT id, v FROM pt WHERE status = 'open' AND id < 500 ORDER BY id;
EXPLAIN (COSTS OFF) SELECT id FROM pt WHERE id < 500;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id, v FROM pt WHERE status = 'open';
SELECT count(*) FROM pt WHERE status = 'open';
EXPLAIN (COSTS OFF) SELECT id, v FROM pt WHERE status = 'open' ORDER BY id DESC LIMIT 2;
SELECT id, v FROM pt WHERE status = 'open' ORDER BY id DESC LIMIT 2;
RESET enable_seqscan;

-- enable_indexonlyscan off: a plain Index Scan; enable_indexscan off
-- disables both
SET enable_indexonlyscan = off;
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE a = 5;
SELECT a FROM t WHERE a = 5;
RESET enable_indexonlyscan;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE a = 5;
EXPLAIN (COSTS OFF) SELECT * FROM t ORDER BY a LIMIT 1;
RESET enable_indexscan;
