-- min() and max() from one end of an index (InitPlan + Limit + Index
-- Only Scan, as PostgreSQL 15 plans them), IS NOT NULL as an index
-- condition.
SET enable_bitmapscan = off;
CREATE TABLE m (a int PRIMARY KEY, b int, c int);
INSERT INTO m SELECT g, CASE WHEN g % 10 = 0 THEN NULL ELSE g % 97 END, g
  FROM generate_series(1, 10000) g;
CREATE INDEX m_b ON m (b);
EXPLAIN (COSTS OFF) SELECT min(a) FROM m;
SELECT min(a) FROM m;
EXPLAIN (COSTS OFF) SELECT max(a) FROM m;
SELECT max(a) FROM m;
EXPLAIN (COSTS OFF) SELECT min(a), max(a) FROM m;
SELECT min(a), max(a) FROM m;
EXPLAIN (COSTS OFF) SELECT max(b) FROM m;
SELECT max(b), min(b) FROM m;
EXPLAIN (COSTS OFF) SELECT max(a) FROM m WHERE a < 500;
SELECT max(a) FROM m WHERE a < 500;
SELECT max(a) FROM m WHERE a < 0;
EXPLAIN (COSTS OFF) SELECT max(a) + 1 AS next FROM m;
SELECT max(a) + 1 AS next FROM m;
-- no index on c, or another aggregate beside: the plain aggregate
EXPLAIN (COSTS OFF) SELECT max(c) FROM m;
SELECT max(c) FROM m;
EXPLAIN (COSTS OFF) SELECT min(a), count(*) FROM m;
SELECT min(a), count(*) FROM m;
-- an empty table
CREATE TABLE em (x int PRIMARY KEY);
EXPLAIN (COSTS OFF) SELECT min(x), max(x) FROM em;
SELECT min(x), max(x) FROM em;
-- IS NOT NULL
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT b FROM m WHERE b IS NOT NULL AND b < 3;
SELECT b, count(*) FROM m WHERE b IS NOT NULL AND b < 3 GROUP BY b ORDER BY b;
SELECT count(*) FROM m WHERE b IS NOT NULL;
SELECT count(*) FROM m WHERE b IS NULL;
RESET enable_seqscan;
-- rows deleted: the snapshot decides
DELETE FROM m WHERE a > 9990;
SELECT max(a) FROM m;
BEGIN;
DELETE FROM m WHERE a < 5;
SELECT min(a) FROM m;
ROLLBACK;
SELECT min(a) FROM m;
-- a DESC (NULLS FIRST) index: max() reads forward past the NULLs, min()
-- backward up to them
CREATE TABLE md (b int);
INSERT INTO md SELECT CASE WHEN g % 3 = 0 THEN NULL ELSE g END
  FROM generate_series(1, 3000) g;
CREATE INDEX md_b ON md (b DESC);
EXPLAIN (COSTS OFF) SELECT min(b), max(b) FROM md;
SELECT min(b), max(b) FROM md;
SET enable_seqscan = off;
SELECT count(*) FROM md WHERE b IS NOT NULL;
SELECT count(*) FROM md WHERE b IS NOT NULL AND b > 2990;
SELECT b FROM md WHERE b IS NOT NULL ORDER BY b LIMIT 3;
SELECT b FROM md WHERE b IS NOT NULL ORDER BY b DESC LIMIT 3;
RESET enable_seqscan;
