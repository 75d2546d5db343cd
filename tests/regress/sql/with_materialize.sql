--
-- WITH queries computed once (PostgreSQL 12+'s rule): a WITH query is
-- inlined only when it is referenced once, calls no volatile function,
-- is not recursive and is not written MATERIALIZED; NOT MATERIALIZED
-- inlines it even when it is referenced several times (unless it is
-- volatile or recursive).  Otherwise every reference reads the same
-- rows, computed once and only as far as the readers need.
--
CREATE TABLE wm (id int, v int, t text);
INSERT INTO wm SELECT g, g % 4, 'row ' || g FROM generate_series(1, 20) g;
-- a volatile WITH query referenced twice gives both references the same rows
WITH r AS (SELECT random() AS x) SELECT a.x = b.x AS same FROM r a, r b;
WITH r AS (SELECT g, random() AS x FROM generate_series(1, 100) g)
SELECT count(DISTINCT x) FROM r a JOIN r b USING (g, x);
WITH r AS (SELECT random() AS x FROM generate_series(1, 50))
SELECT count(*) FROM r a, r b WHERE a.x = b.x;
WITH r AS (SELECT random() AS x) SELECT (SELECT x FROM r) = (SELECT x FROM r) AS same;
WITH r AS (SELECT random() AS x) SELECT count(*) FROM r WHERE x = (SELECT x FROM r);
-- even referenced once, a volatile WITH query is computed as written
WITH r AS (SELECT g, random() AS x FROM generate_series(1, 10) g)
SELECT count(*) FROM r WHERE x = x;
-- NOT MATERIALIZED does not inline a volatile query
WITH r AS NOT MATERIALIZED (SELECT g, random() AS x FROM generate_series(1, 30) g)
SELECT count(*) FROM r a JOIN r b USING (g, x);
-- ... nor a recursive one: a recursive WITH query read twice is computed once
WITH RECURSIVE t(n, x) AS (
    SELECT 1, random()
  UNION ALL
    SELECT n + 1, random() FROM t WHERE n < 8)
SELECT count(*) FROM t a JOIN t b USING (n, x);
WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT n + 1 FROM t WHERE n < 5)
SELECT count(*), sum(a.n * b.n) FROM t a, t b;
-- results through every kind of reference
WITH r AS (SELECT id, v FROM wm WHERE id <= 6)
SELECT a.id, b.id FROM r a JOIN r b ON a.v = b.v AND a.id < b.id ORDER BY 1, 2;
WITH r AS (SELECT id, v, t FROM wm ORDER BY t DESC LIMIT 5)
SELECT a.id, b.t FROM r a, r b WHERE a.id = b.id ORDER BY 1;
WITH r AS (SELECT v, count(*) AS n FROM wm GROUP BY v)
SELECT * FROM r WHERE n = (SELECT max(n) FROM r) ORDER BY v;
WITH r AS (SELECT id FROM wm WHERE id % 5 = 0)
SELECT id FROM r UNION ALL SELECT id + 100 FROM r ORDER BY 1;
WITH r AS (SELECT id FROM wm WHERE id < 4)
SELECT id, (SELECT count(*) FROM r WHERE r.id <= wm.id) FROM wm WHERE id IN (SELECT id FROM r) ORDER BY 1;
WITH a AS (SELECT id FROM wm WHERE id < 3), b AS (SELECT x.id AS i, y.id AS j FROM a x, a y)
SELECT * FROM b, b b2 WHERE b.i = b2.j AND b.j = b2.i ORDER BY 1, 2;
-- WITH in INSERT, UPDATE and DELETE, referenced twice
CREATE TABLE wm2 (a int, b int);
WITH r AS (SELECT id FROM wm WHERE id <= 3) INSERT INTO wm2 SELECT x.id, y.id FROM r x, r y;
SELECT * FROM wm2 ORDER BY 1, 2;
WITH r AS (SELECT 2 AS k) UPDATE wm2 SET b = b * 10 WHERE a = (SELECT k FROM r) OR b = (SELECT k FROM r);
WITH r AS (SELECT 3 AS k) DELETE FROM wm2 WHERE a IN (SELECT k FROM r) AND b IN (SELECT k FROM r);
SELECT * FROM wm2 ORDER BY 1, 2;
DROP TABLE wm2;
-- computed lazily: only as far as the readers go
WITH r AS MATERIALIZED (SELECT 1 / (5 - g) AS x FROM generate_series(1, 10) g)
SELECT * FROM r LIMIT 1;
WITH r AS MATERIALIZED (SELECT 1 / (5 - g) AS x FROM generate_series(1, 10) g)
SELECT * FROM r LIMIT 4;
WITH r AS MATERIALIZED (SELECT 1 / (5 - g) AS x FROM generate_series(1, 10) g)
SELECT * FROM r LIMIT 5;
WITH r AS (SELECT 1 / (5 - g) AS x FROM generate_series(1, 10) g)
SELECT a.x, b.x FROM r a, r b LIMIT 3;
WITH r AS (SELECT g FROM generate_series(1, 10) g)
SELECT EXISTS (SELECT 1 FROM r WHERE g = 2), (SELECT g FROM r LIMIT 1);
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
WITH r AS MATERIALIZED (SELECT g FROM generate_series(1, 1000) g) SELECT * FROM r LIMIT 3;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
WITH r AS (SELECT g FROM generate_series(1, 10) g)
SELECT (SELECT g FROM r LIMIT 1 OFFSET 1), (SELECT g FROM r WHERE g = 4 LIMIT 1);
-- an unreferenced query is never run, whatever it says
WITH r AS MATERIALIZED (SELECT 1 / 0) SELECT 'fine';
-- a WITH query inside a recursive term, read twice: computed again each round
WITH RECURSIVE t AS (
    SELECT 1 AS n
  UNION ALL
    (WITH w AS (SELECT n FROM t) SELECT w.n + w2.n FROM w, w w2 WHERE w.n < 20))
SELECT * FROM t;
-- plans: where each rule puts the rows
EXPLAIN (COSTS OFF) WITH r AS (SELECT id FROM wm LIMIT 2) SELECT id + 1 FROM r;
EXPLAIN (COSTS OFF) WITH r AS (SELECT id FROM wm LIMIT 2) SELECT id + 1 FROM r WHERE id > 1;
EXPLAIN (COSTS OFF) WITH r AS (SELECT id FROM wm LIMIT 2) SELECT x.id + y.id FROM r x, r y;
EXPLAIN (COSTS OFF) WITH r AS MATERIALIZED (SELECT id FROM wm LIMIT 2) SELECT id + 1 FROM r;
EXPLAIN (COSTS OFF) WITH r AS (SELECT id, random() AS x FROM wm LIMIT 2) SELECT id + 1 FROM r;
EXPLAIN (COSTS OFF) WITH r AS NOT MATERIALIZED (SELECT id, random() AS x FROM wm LIMIT 2) SELECT id + 1 FROM r;
EXPLAIN (COSTS OFF) WITH r AS (SELECT id FROM wm LIMIT 2), s AS (SELECT id + 1 AS b FROM r) SELECT * FROM s s1, s s2;
EXPLAIN (COSTS OFF) WITH r AS (SELECT id FROM wm LIMIT 2) SELECT (SELECT max(id) FROM r), (SELECT min(id) FROM r);
EXPLAIN (COSTS OFF) WITH r AS MATERIALIZED (SELECT 1 AS a) SELECT (SELECT 2), * FROM r WHERE a = (SELECT 3);
EXPLAIN (COSTS OFF) WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5) SELECT n + 1 FROM t;
EXPLAIN (COSTS OFF) WITH RECURSIVE t(n) AS NOT MATERIALIZED (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5) SELECT n + 1 FROM t;
EXPLAIN (COSTS OFF) WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5) SELECT a.n FROM t a, t b WHERE a.n = b.n;
EXPLAIN (COSTS OFF) WITH RECURSIVE t AS (
    SELECT 1 AS n
  UNION ALL
    (WITH w AS MATERIALIZED (SELECT n FROM t) SELECT n + 1 FROM w WHERE n < 3))
SELECT * FROM t;
DROP TABLE wm;
