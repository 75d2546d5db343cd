-- Merge joins: every join type over sorted inputs, with hash joins off
-- (as PostgreSQL, a join of tables without indexes then merges).
CREATE TABLE mj_l (id int, k int, t text, n numeric, d date);
CREATE TABLE mj_r (id int, k int, t text, n numeric, k8 int8, ts timestamp);
-- duplicates on both sides, NULL keys on both sides, keys only one side has
INSERT INTO mj_l VALUES
  (1, 1, 'a', 1.0, '2024-01-01'), (2, 1, 'a', 1.00, '2024-01-01'),
  (3, 2, 'b', 2.5, '2024-01-02'), (4, 3, 'c', 3, '2024-01-03'),
  (5, 3, 'c', 3.0, '2024-01-03'), (6, 3, NULL, NULL, NULL),
  (7, NULL, 'x', 7, '2024-01-07'), (8, NULL, NULL, NULL, NULL),
  (9, 5, 'e', 5, '2024-01-05'), (10, 7, 'g', 7.25, '2024-01-07');
INSERT INTO mj_r VALUES
  (101, 1, 'a', 1, 1, '2024-01-01 00:00'), (102, 1, 'a', 1.000, 1, '2024-01-01 12:00'),
  (103, 1, 'z', 1, 1, '2024-01-01 00:00'), (104, 3, 'c', 3, 3, '2024-01-03 00:00'),
  (105, 4, 'd', 4, 4, '2024-01-04 00:00'), (106, NULL, 'a', NULL, NULL, NULL),
  (107, 5, NULL, 5, 5, '2024-01-05 00:00'), (108, 6, 'f', 6, 6, '2024-01-06 00:00'),
  (109, NULL, NULL, 9, NULL, NULL), (110, 3, 'c', 3.00, 3, '2024-01-03 00:00');
CREATE TABLE mj_empty (id int, k int);
SET enable_hashjoin = off;
SHOW enable_mergejoin;

-- the plans
EXPLAIN (COSTS OFF) SELECT * FROM mj_l l JOIN mj_r r ON l.k = r.k;
EXPLAIN (COSTS OFF) SELECT * FROM mj_l l LEFT JOIN mj_r r ON l.k = r.k;
EXPLAIN (COSTS OFF) SELECT * FROM mj_r r LEFT JOIN mj_l l ON l.k = r.k;
EXPLAIN (COSTS OFF) SELECT * FROM mj_l l RIGHT JOIN mj_r r ON l.k = r.k;
EXPLAIN (COSTS OFF) SELECT * FROM mj_l l FULL JOIN mj_r r ON l.k = r.k;
EXPLAIN (COSTS OFF) SELECT * FROM mj_l l WHERE NOT EXISTS (SELECT 1 FROM mj_r r WHERE r.k = l.k);
EXPLAIN (COSTS OFF) SELECT * FROM mj_l l JOIN mj_r r ON l.k = r.k AND l.t = r.t;
EXPLAIN (COSTS OFF) SELECT * FROM mj_l l JOIN mj_r r ON l.k = r.k8;
EXPLAIN (COSTS OFF) SELECT * FROM mj_l l JOIN mj_r r ON l.k = r.k AND l.id + 100 < r.id;
EXPLAIN (COSTS OFF) SELECT * FROM mj_l l LEFT JOIN mj_r r ON l.k = r.k AND l.id + 100 < r.id WHERE coalesce(r.n, 0) <> 4;
EXPLAIN (COSTS OFF) SELECT * FROM mj_l l JOIN mj_r r ON l.k + 1 = r.k;
EXPLAIN (COSTS OFF) SELECT * FROM mj_l l JOIN mj_r r ON l.n = r.n;
-- a FULL join on a type pair that sorts but does not hash merges even
-- with hash joins on
RESET enable_hashjoin;
EXPLAIN (COSTS OFF) SELECT * FROM mj_l l FULL JOIN mj_r r ON l.d = r.ts;
SET enable_hashjoin = off;
-- merge joins off: a FULL join hashes
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT * FROM mj_l l FULL JOIN mj_r r ON l.k = r.k;
RESET enable_mergejoin;

-- inner: many-to-many groups, NULL keys never match
SELECT l.id, l.k, r.id, r.k FROM mj_l l JOIN mj_r r ON l.k = r.k ORDER BY l.id, r.id;
-- outer joins keep unmatched rows, NULL keys included
SELECT l.id, l.k, r.id, r.k FROM mj_l l LEFT JOIN mj_r r ON l.k = r.k ORDER BY l.id, r.id;
SELECT l.id, l.k, r.id, r.k FROM mj_r r LEFT JOIN mj_l l ON l.k = r.k ORDER BY r.id, l.id;
SELECT l.id, l.k, r.id, r.k FROM mj_l l RIGHT JOIN mj_r r ON l.k = r.k ORDER BY r.id, l.id;
SELECT l.id, l.k, r.id, r.k FROM mj_l l FULL JOIN mj_r r ON l.k = r.k ORDER BY l.id, r.id;
-- semi and anti
SELECT l.id, l.k FROM mj_l l WHERE EXISTS (SELECT 1 FROM mj_r r WHERE r.k = l.k) ORDER BY l.id;
SELECT l.id, l.k FROM mj_l l WHERE l.k IN (SELECT r.k FROM mj_r r) ORDER BY l.id;
SELECT l.id, l.k FROM mj_l l WHERE NOT EXISTS (SELECT 1 FROM mj_r r WHERE r.k = l.k) ORDER BY l.id;
SELECT r.id, r.k FROM mj_r r WHERE NOT EXISTS (SELECT 1 FROM mj_l l WHERE r.k = l.k) ORDER BY r.id;
-- semi / anti with a join filter beyond the key
SELECT l.id FROM mj_l l WHERE EXISTS (SELECT 1 FROM mj_r r WHERE r.k = l.k AND r.id > 103) ORDER BY l.id;
SELECT l.id FROM mj_l l WHERE NOT EXISTS (SELECT 1 FROM mj_r r WHERE r.k = l.k AND r.id > 103) ORDER BY l.id;

-- several merge keys (a NULL in the second key matches nothing)
SELECT l.id, r.id FROM mj_l l JOIN mj_r r ON l.k = r.k AND l.t = r.t ORDER BY 1, 2;
SELECT l.id, r.id FROM mj_l l LEFT JOIN mj_r r ON l.k = r.k AND l.t = r.t ORDER BY 1, 2;
SELECT l.id, r.id FROM mj_l l FULL JOIN mj_r r ON l.k = r.k AND l.t = r.t ORDER BY 1, 2;
SELECT l.id, r.id FROM mj_l l FULL JOIN mj_r r ON l.t = r.t AND l.n = r.n ORDER BY 1, 2;
-- text, numeric (1.0 = 1.00), cross-type int4 = int8 and date = timestamp keys
SELECT l.id, r.id FROM mj_l l JOIN mj_r r ON l.t = r.t ORDER BY 1, 2;
SELECT l.id, l.n, r.id, r.n FROM mj_l l JOIN mj_r r ON l.n = r.n ORDER BY 1, 3;
SELECT l.id, r.id FROM mj_l l JOIN mj_r r ON l.k = r.k8 ORDER BY 1, 2;
SELECT l.id, r.id FROM mj_r r RIGHT JOIN mj_l l ON r.k8 = l.k ORDER BY 1, 2;
SELECT l.id, r.id FROM mj_l l FULL JOIN mj_r r ON l.k = r.k8 ORDER BY 1, 2;
SELECT l.id, r.id FROM mj_l l FULL JOIN mj_r r ON l.d = r.ts ORDER BY 1, 2;
SELECT l.id, r.id FROM mj_l l JOIN mj_r r ON l.k::int2 = r.k8 ORDER BY 1, 2;
-- an expression as a key
SELECT l.id, r.id FROM mj_l l JOIN mj_r r ON l.k + 1 = r.k ORDER BY 1, 2;
SELECT l.id, r.id FROM mj_l l LEFT JOIN mj_r r ON lower(l.t) = upper(r.t) ORDER BY 1, 2;

-- join filters (beyond the keys) and filters (after the join)
SELECT l.id, r.id FROM mj_l l JOIN mj_r r ON l.k = r.k AND l.id + 100 < r.id ORDER BY 1, 2;
SELECT l.id, r.id FROM mj_l l LEFT JOIN mj_r r ON l.k = r.k AND l.id + 100 < r.id ORDER BY 1, 2;
SELECT l.id, r.id FROM mj_l l LEFT JOIN mj_r r ON l.k = r.k AND l.id + 100 < r.id
  WHERE r.n IS DISTINCT FROM 4 ORDER BY 1, 2;
SELECT l.id, r.id FROM mj_l l LEFT JOIN mj_r r ON l.k = r.k WHERE r.id IS NULL ORDER BY 1, 2;
SELECT l.id, r.id FROM mj_l l FULL JOIN mj_r r ON l.k = r.k WHERE l.id IS NULL OR r.id IS NULL ORDER BY 1, 2;
SELECT l.id, r.id FROM mj_l l FULL JOIN mj_r r ON l.k = r.k WHERE coalesce(l.id, 0) + coalesce(r.id, 0) > 104 ORDER BY 1, 2;

-- empty inputs on either side, every join type
SELECT * FROM mj_l l JOIN mj_empty e ON l.k = e.k;
SELECT * FROM mj_empty e JOIN mj_l l ON l.k = e.k;
SELECT l.id, e.id FROM mj_l l LEFT JOIN mj_empty e ON l.k = e.k ORDER BY 1;
SELECT l.id, e.id FROM mj_empty e RIGHT JOIN mj_l l ON l.k = e.k ORDER BY 1;
SELECT l.id, e.id FROM mj_l l FULL JOIN mj_empty e ON l.k = e.k ORDER BY 1;
SELECT l.id, e.id FROM mj_empty e FULL JOIN mj_l l ON l.k = e.k ORDER BY 1;
SELECT * FROM mj_empty e LEFT JOIN mj_l l ON l.k = e.k;
SELECT count(*) FROM mj_l l WHERE EXISTS (SELECT 1 FROM mj_empty e WHERE e.k = l.k);
SELECT count(*) FROM mj_l l WHERE NOT EXISTS (SELECT 1 FROM mj_empty e WHERE e.k = l.k);
SELECT * FROM mj_empty a FULL JOIN mj_empty b ON a.k = b.k;
-- only NULL keys on one side
SELECT l.id, r.id FROM mj_l l FULL JOIN (SELECT * FROM mj_r WHERE k IS NULL) r ON l.k = r.k ORDER BY 1, 2;
SELECT l.id, r.id FROM (SELECT * FROM mj_l WHERE k IS NULL) l JOIN mj_r r ON l.k = r.k ORDER BY 1, 2;

-- long runs of equal keys on the inner side: every outer row of a run
-- reads the inner run again (mark / restore)
CREATE TABLE mj_runs_a (id int, k int);
CREATE TABLE mj_runs_b (id int, k int);
INSERT INTO mj_runs_a SELECT g, g / 50 FROM generate_series(1, 1000) g;
INSERT INTO mj_runs_b SELECT g, g / 40 FROM generate_series(1, 2000) g;
INSERT INTO mj_runs_b SELECT g, NULL FROM generate_series(2001, 2010) g;
EXPLAIN (COSTS OFF) SELECT * FROM mj_runs_a a JOIN mj_runs_b b ON a.k = b.k;
SELECT count(*), sum(a.id), sum(b.id) FROM mj_runs_a a JOIN mj_runs_b b ON a.k = b.k;
SELECT count(*), sum(a.id), sum(b.id) FROM mj_runs_a a LEFT JOIN mj_runs_b b ON a.k = b.k;
SELECT count(*), sum(a.id), sum(b.id) FROM mj_runs_a a RIGHT JOIN mj_runs_b b ON a.k = b.k;
SELECT count(*), sum(a.id), sum(b.id) FROM mj_runs_a a FULL JOIN mj_runs_b b ON a.k = b.k;
SELECT count(*), sum(a.id), sum(b.id) FROM mj_runs_a a JOIN mj_runs_b b ON a.k = b.k AND (a.id + b.id) % 3 = 0;
SELECT count(*), sum(a.id), sum(b.id) FROM mj_runs_a a LEFT JOIN mj_runs_b b ON a.k = b.k AND a.id % 7 = b.id % 7;
SELECT count(*), sum(a.id) FROM mj_runs_a a WHERE EXISTS (SELECT 1 FROM mj_runs_b b WHERE b.k = a.k AND b.id % 10 = a.id % 10);
SELECT count(*), sum(a.id) FROM mj_runs_a a WHERE NOT EXISTS (SELECT 1 FROM mj_runs_b b WHERE b.k = a.k AND b.id % 100 = a.id % 100);
SELECT a.k, count(*) FROM mj_runs_a a JOIN mj_runs_b b ON a.k = b.k GROUP BY a.k ORDER BY a.k LIMIT 5;

-- three tables on the same key
SELECT count(*), sum(a.id), sum(b.id), sum(c.id) FROM mj_runs_a a JOIN mj_runs_b b ON a.k = b.k JOIN mj_r c ON c.k = b.k;
SELECT v.x, count(a.id), count(b.id) FROM (VALUES (1), (2), (19), (NULL), (77)) v(x)
  LEFT JOIN (mj_runs_a a JOIN mj_runs_b b ON a.k = b.k) ON v.x = a.k GROUP BY v.x ORDER BY v.x;

-- a merge join rescanned: inside a correlated subquery, run per outer row
EXPLAIN (COSTS OFF) SELECT l.id, (SELECT count(*) FROM mj_runs_a a JOIN mj_runs_b b ON a.k = b.k WHERE a.id < l.id * 10) AS n
  FROM mj_l l ORDER BY l.id;
SELECT l.id, (SELECT count(*) FROM mj_runs_a a JOIN mj_runs_b b ON a.k = b.k WHERE a.id < l.id * 10) AS n
  FROM mj_l l ORDER BY l.id;
SELECT l.id, (SELECT max(r.id) FROM mj_r r FULL JOIN mj_runs_a a ON r.k = a.k WHERE a.id IS NULL OR a.id < l.id) AS m
  FROM mj_l l ORDER BY l.id;
SELECT l.id FROM mj_l l WHERE l.id < (SELECT count(*) FROM mj_r r LEFT JOIN mj_l l2 ON r.k = l2.k WHERE r.id > l.id + 100)
  ORDER BY l.id;

-- larger inputs with duplicates, and again with little sort memory
EXPLAIN (COSTS OFF) SELECT count(*), sum(x.g), sum(y.g) FROM generate_series(1, 20000) x(g)
  JOIN generate_series(1, 20000) y(g) ON x.g % 1000 = y.g % 1000;
SELECT count(*), sum(x.g), sum(y.g) FROM generate_series(1, 20000) x(g)
  JOIN generate_series(1, 20000) y(g) ON x.g % 1000 = y.g % 1000;
CREATE TABLE mj_big_a AS SELECT g AS id, g % 5000 AS k, md5(g::text) AS pad FROM generate_series(1, 20000) g;
CREATE TABLE mj_big_b AS SELECT g AS id, (g * 7) % 6000 AS k, md5((g + 1)::text) AS pad FROM generate_series(1, 20000) g;
SELECT count(*), sum(a.id), sum(b.id) FROM mj_big_a a JOIN mj_big_b b ON a.k = b.k;
SELECT count(*), sum(a.id), sum(b.id), count(b.id) FROM mj_big_a a FULL JOIN mj_big_b b ON a.k = b.k;
SELECT count(*), sum(a.id), sum(b.id) FROM mj_big_a a LEFT JOIN mj_big_b b ON a.k = b.k AND a.pad < b.pad;
SELECT count(*), sum(a.id) FROM mj_big_a a WHERE NOT EXISTS (SELECT 1 FROM mj_big_b b WHERE b.k = a.k);
SET work_mem = '64kB';
SELECT count(*), sum(a.id), sum(b.id) FROM mj_big_a a JOIN mj_big_b b ON a.k = b.k;
SELECT count(*), sum(a.id), sum(b.id), count(b.id) FROM mj_big_a a FULL JOIN mj_big_b b ON a.k = b.k;
SELECT count(*), sum(a.id), sum(b.id) FROM mj_big_a a RIGHT JOIN mj_big_b b ON a.k = b.k;
SELECT count(*), sum(a.id), sum(b.id) FROM mj_big_a a JOIN mj_big_b b ON a.k = b.k AND a.pad = b.pad;
SELECT count(*), sum(x.g), sum(y.g) FROM generate_series(1, 20000) x(g)
  JOIN generate_series(1, 20000) y(g) ON x.g % 1000 = y.g % 1000;
SELECT a.id, b.id FROM mj_big_a a JOIN mj_big_b b ON a.k = b.k ORDER BY a.k, a.id, b.id LIMIT 8;
RESET work_mem;
RESET enable_hashjoin;
