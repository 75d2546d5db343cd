-- Hashed IN / NOT IN subplans (src/executor/exec_subplan.c): an
-- uncorrelated IN that is not turned into a semi join -- NOT IN, IN under
-- OR, IN in the select list -- hashes the subquery's rows once when the
-- comparisons hash and the rows fit in work_mem x hash_mem_multiplier.
-- The plans must say so as PostgreSQL's do, and the answers must keep
-- SQL's NULL rules.
CREATE TABLE hs_o (id int, a int, b int);
CREATE TABLE hs_i (x int, y int);
INSERT INTO hs_o VALUES (1, 1, 1), (2, 2, NULL), (3, NULL, 3), (4, NULL, NULL),
  (5, 5, 5), (6, 6, 60), (7, 7, 7), (8, 3, 30), (9, 9, NULL), (10, 10, 10);
INSERT INTO hs_i VALUES (1, 1), (1, 1), (2, 20), (3, NULL), (NULL, 5),
  (7, 7), (7, 7), (NULL, NULL), (9, 90);
-- the plans
EXPLAIN (COSTS OFF) SELECT id FROM hs_o WHERE a NOT IN (SELECT x FROM hs_i) ORDER BY id;
EXPLAIN (COSTS OFF) SELECT id FROM hs_o WHERE a IN (SELECT x FROM hs_i) OR b = 3 ORDER BY id;
EXPLAIN (COSTS OFF) SELECT id, a IN (SELECT x FROM hs_i WHERE y > 1) FROM hs_o;
EXPLAIN (COSTS OFF) SELECT id FROM hs_o WHERE (a, b) NOT IN (SELECT x, y FROM hs_i);
-- <> ALL is not hashed (PostgreSQL 15 hashes only ANY): its subquery is
-- materialized instead, and so is one compared by an operator that does
-- not hash; a sorted subquery keeps its rows anyway
EXPLAIN (COSTS OFF) SELECT id FROM hs_o WHERE a <> ALL (SELECT x FROM hs_i);
EXPLAIN (COSTS OFF) SELECT id, a > ANY (SELECT x FROM hs_i) FROM hs_o;
EXPLAIN (COSTS OFF) SELECT id FROM hs_o WHERE a > ALL (SELECT x FROM hs_i ORDER BY y);
EXPLAIN (COSTS OFF) SELECT id FROM hs_o WHERE a NOT IN (SELECT x FROM hs_i ORDER BY y);
SELECT id, a <> ALL (SELECT x FROM hs_i) AS ne_all, a > ANY (SELECT x FROM hs_i) AS gt_any,
       a <= ALL (SELECT x FROM hs_i WHERE x IS NOT NULL) AS le_all
  FROM hs_o ORDER BY id;
-- a correlated subquery is not hashed
EXPLAIN (COSTS OFF) SELECT id FROM hs_o WHERE a NOT IN (SELECT x FROM hs_i WHERE y = hs_o.b);
-- NOT IN with a NULL in the subquery: never true
SELECT id FROM hs_o WHERE a NOT IN (SELECT x FROM hs_i) ORDER BY id;
SELECT id FROM hs_o WHERE a NOT IN (SELECT x FROM hs_i WHERE x IS NOT NULL) ORDER BY id;
SELECT id FROM hs_o WHERE a IN (SELECT x FROM hs_i) OR b = 3 ORDER BY id;
-- every outcome, NULLs on either side
SELECT id, a, a IN (SELECT x FROM hs_i) AS "in", a NOT IN (SELECT x FROM hs_i) AS not_in,
       a IN (SELECT x FROM hs_i WHERE x IS NOT NULL) AS in_nonnull,
       a NOT IN (SELECT x FROM hs_i WHERE x IS NOT NULL) AS not_in_nonnull
  FROM hs_o ORDER BY id;
-- an empty subquery: IN is false and NOT IN true, even for a NULL
SELECT id, a, a IN (SELECT x FROM hs_i WHERE x > 100) AS "in",
       a NOT IN (SELECT x FROM hs_i WHERE x > 100) AS not_in
  FROM hs_o ORDER BY id;
SELECT NULL::int NOT IN (SELECT x FROM hs_i WHERE x > 100) AS empty_not_in,
       NULL::int IN (SELECT x FROM hs_i) AS null_in;
-- a subquery of NULLs only
SELECT id, a IN (SELECT x FROM hs_i WHERE x IS NULL) AS "in",
       a NOT IN (SELECT x FROM hs_i WHERE x IS NULL) AS not_in
  FROM hs_o ORDER BY id;
-- two columns: a row with a NULL matches partly (PostgreSQL's
-- findPartialMatch), on either side
SELECT id, a, b, (a, b) IN (SELECT x, y FROM hs_i) AS "in",
       (a, b) NOT IN (SELECT x, y FROM hs_i) AS not_in,
       (a, b) NOT IN (SELECT x, y FROM hs_i WHERE x IS NOT NULL AND y IS NOT NULL) AS not_in_nonnull,
       (a, b) NOT IN (SELECT x, y FROM hs_i WHERE y IS NOT NULL) AS not_in_x_null
  FROM hs_o ORDER BY id;
SELECT id FROM hs_o WHERE (a, b) NOT IN (SELECT x, y FROM hs_i WHERE x IS NOT NULL AND y IS NOT NULL) ORDER BY id;
SELECT id FROM hs_o WHERE (a, b) IN (SELECT x, y FROM hs_i) OR id = 10 ORDER BY id;
SELECT id, (a, b) NOT IN (SELECT x, y FROM hs_i WHERE x = 2 OR y IS NULL) AS not_in
  FROM hs_o ORDER BY id;
SELECT (1, NULL::int) IN (SELECT 1, 2) AS partial, (1, NULL::int) IN (SELECT 2, 2) AS different,
       (NULL::int, NULL::int) IN (SELECT 2, 2) AS all_null;
-- duplicates in the subquery and on the outer side
SELECT a, count(*) FROM hs_o CROSS JOIN generate_series(1, 3)
  WHERE a IN (SELECT x FROM hs_i) OR a IS NULL GROUP BY a ORDER BY a;
SELECT count(*) FROM hs_i WHERE x NOT IN (SELECT a FROM hs_o WHERE a IS NOT NULL);
-- text keys
CREATE TABLE hs_t (k text, v varchar(10));
INSERT INTO hs_t VALUES ('apple', 'apple'), ('Apple', 'pear'), (NULL, 'plum'),
  ('', ''), ('a much longer text value that is not short at all, over one hundred and twenty-seven bytes long so that it is stored with a four-byte header', 'x');
EXPLAIN (COSTS OFF) SELECT v FROM hs_t WHERE v NOT IN (SELECT k FROM hs_t WHERE k IS NOT NULL);
SELECT v, v IN (SELECT k FROM hs_t) AS "in", v NOT IN (SELECT k FROM hs_t WHERE k IS NOT NULL) AS not_in
  FROM hs_t ORDER BY v;
SELECT length(k) FROM hs_t WHERE k IN (SELECT k FROM hs_t WHERE length(k) > 100);
-- numeric keys: 1.0 = 1.00 = 1
CREATE TABLE hs_n (n numeric, m numeric(10, 3));
INSERT INTO hs_n VALUES (1.0, 1.000), (2.50, 2.5), (NULL, 3), (-0.0, 0), (1e20, 100000000000000000000);
EXPLAIN (COSTS OFF) SELECT n FROM hs_n WHERE n NOT IN (SELECT m FROM hs_n WHERE m > 1);
SELECT n, n IN (SELECT m FROM hs_n) AS "in", n NOT IN (SELECT m FROM hs_n) AS not_in FROM hs_n ORDER BY n;
SELECT 1 IN (SELECT m FROM hs_n) AS int_in_numeric, 1.00 NOT IN (SELECT n FROM hs_n WHERE n IS NOT NULL) AS not_in;
-- cross-type comparisons: int4 against int8 and int2, float4 against float8
CREATE TABLE hs_x (i2 int2, i4 int4, i8 int8, f4 float4, f8 float8);
INSERT INTO hs_x VALUES (1, 1, 1, 0.5, 0.5), (2, 2, 4294967298, 0.1, 0.1),
  (NULL, -3, -3, '-0', '0'), (4, NULL, NULL, NULL, NULL), (-1, 5, 5000000000, 1.5, 1.25);
EXPLAIN (COSTS OFF) SELECT i4 FROM hs_x WHERE i4 NOT IN (SELECT i8 FROM hs_x WHERE i8 IS NOT NULL);
EXPLAIN (COSTS OFF) SELECT i8 FROM hs_x WHERE i8 NOT IN (SELECT i4 FROM hs_x WHERE i4 IS NOT NULL);
SELECT i4, i4 IN (SELECT i8 FROM hs_x) AS in_i8, i4 NOT IN (SELECT i8 FROM hs_x WHERE i8 IS NOT NULL) AS not_in_i8,
       i4 IN (SELECT i2 FROM hs_x) AS in_i2
  FROM hs_x ORDER BY i4;
SELECT i8, i8 IN (SELECT i4 FROM hs_x) AS in_i4, i8 NOT IN (SELECT i2 FROM hs_x WHERE i2 IS NOT NULL) AS not_in_i2
  FROM hs_x ORDER BY i8;
SELECT f4, f4 IN (SELECT f8 FROM hs_x) AS in_f8, f8 IN (SELECT f4 FROM hs_x WHERE f4 IS NOT NULL) AS f8_in_f4
  FROM hs_x ORDER BY f4;
SELECT (i2, i8) IN (SELECT i4, i4 FROM hs_x) AS row_in FROM hs_x ORDER BY i2;
-- a hashed subplan inside a correlated subquery is built once
EXPLAIN (COSTS OFF) SELECT id, (SELECT count(*) FROM hs_i WHERE hs_i.x >= hs_o.a AND hs_i.y NOT IN (SELECT b FROM hs_o WHERE b IS NOT NULL)) FROM hs_o;
SELECT id, (SELECT count(*) FROM hs_i WHERE hs_i.x >= hs_o.a AND hs_i.y NOT IN (SELECT b FROM hs_o WHERE b IS NOT NULL)) FROM hs_o ORDER BY id;
-- with an initplan inside the hashed subquery
EXPLAIN (COSTS OFF) SELECT id FROM hs_o WHERE a NOT IN (SELECT x FROM hs_i WHERE x < (SELECT max(a) FROM hs_o)) ORDER BY id;
SELECT id FROM hs_o WHERE a NOT IN (SELECT x FROM hs_i WHERE x < (SELECT max(a) FROM hs_o)) ORDER BY id;
-- a subquery too big for hash memory is not hashed (its rows times
-- MAXALIGN(width) + MAXALIGN(23) bytes, against work_mem x
-- hash_mem_multiplier): read through a Materialize instead, same answers
CREATE TABLE hs_big (g int);
INSERT INTO hs_big SELECT g FROM generate_series(1, 20000) g;
EXPLAIN (COSTS OFF) SELECT count(*) FROM hs_o WHERE a NOT IN (SELECT g FROM hs_big);
SELECT count(*) FROM hs_o WHERE a NOT IN (SELECT g FROM hs_big);
SELECT count(*) FROM hs_o WHERE a NOT IN (SELECT g + 5 FROM hs_big);
SET work_mem = '64kB';
EXPLAIN (COSTS OFF) SELECT count(*) FROM hs_o WHERE a NOT IN (SELECT g FROM hs_big);
SELECT count(*) FROM hs_o WHERE a NOT IN (SELECT g FROM hs_big);
SELECT count(*) FROM hs_o WHERE a NOT IN (SELECT g + 5 FROM hs_big);
SELECT id, a IN (SELECT g FROM hs_big) FROM hs_o ORDER BY id;
-- a small one still hashes
EXPLAIN (COSTS OFF) SELECT count(*) FROM hs_o WHERE a NOT IN (SELECT x FROM hs_i);
SET hash_mem_multiplier = 20;
EXPLAIN (COSTS OFF) SELECT count(*) FROM hs_o WHERE a NOT IN (SELECT g FROM hs_big);
SELECT count(*) FROM hs_o WHERE a NOT IN (SELECT g + 5 FROM hs_big);
RESET hash_mem_multiplier;
RESET work_mem;
-- enable_hashagg does not matter
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT id FROM hs_o WHERE a NOT IN (SELECT x FROM hs_i);
RESET enable_hashagg;
-- EXPLAIN ANALYZE: the subquery runs once
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT id FROM hs_o WHERE a NOT IN (SELECT x FROM hs_i WHERE x IS NOT NULL);
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT id FROM hs_o WHERE a <> ALL (SELECT x FROM hs_i WHERE x IS NOT NULL);
-- many rows on both sides
SELECT count(*) FROM generate_series(1, 50000) o(a) WHERE a NOT IN (SELECT g * 2 FROM hs_big);
SELECT count(*) FROM hs_big WHERE g NOT IN (SELECT g * 3 FROM hs_big) AND g IN (SELECT g * 2 FROM hs_big) OR g = 0;
DROP TABLE hs_o, hs_i, hs_t, hs_n, hs_x, hs_big;
