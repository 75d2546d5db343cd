--
-- A join's select list computed under a subquery scan: FROM subqueries,
-- INSERT ... SELECT, CREATE TABLE AS, GROUP BY over a subquery, set
-- operations in FROM.  The planner once set the references of such a
-- subquery's plan twice, and the second pass repointed a column of one
-- join input at a column of another (CASE i % 3 WHEN 1 THEN b4.v ...
-- returned b2.v; a bare b4.id returned i), while the same SELECT at top
-- level was right.  Each shape is checked against its top-level twin.
--
CREATE TABLE bg (id int, v text);
INSERT INTO bg VALUES (1, 'one'), (2, 'two'), (4, 'four');
-- top level: the reference results
SELECT i % 3 AS g, CASE i % 3 WHEN 0 THEN b1.v WHEN 1 THEN b4.v ELSE b2.v END AS v
  FROM generate_series(1, 3) i, bg b1, bg b2, bg b4
  WHERE b1.id = 1 AND b2.id = 2 AND b4.id = 4 ORDER BY g;
-- simple CASE with a test value, in INSERT ... SELECT
CREATE TABLE d (g int, v text);
INSERT INTO d SELECT i % 3, CASE i % 3 WHEN 0 THEN b1.v WHEN 1 THEN b4.v ELSE b2.v END
  FROM generate_series(1, 3) i, bg b1, bg b2, bg b4
  WHERE b1.id = 1 AND b2.id = 2 AND b4.id = 4;
SELECT * FROM d ORDER BY g;
-- searched CASE, in INSERT ... SELECT with RETURNING
INSERT INTO d SELECT 10 + i, CASE WHEN i = 1 THEN b4.v WHEN i = 2 THEN b1.v ELSE b2.v END
  FROM generate_series(1, 3) i, bg b1, bg b2, bg b4
  WHERE b1.id = 1 AND b2.id = 2 AND b4.id = 4
  RETURNING g, v;
-- nested CASE
INSERT INTO d SELECT 20 + i,
    CASE WHEN i < 3 THEN CASE i WHEN 1 THEN b4.v ELSE b1.v END
         ELSE CASE b2.id WHEN 2 THEN b2.v || '/' || b4.v ELSE 'none' END END
  FROM generate_series(1, 3) i, bg b1, bg b2, bg b4
  WHERE b1.id = 1 AND b2.id = 2 AND b4.id = 4;
SELECT * FROM d WHERE g > 10 ORDER BY g;
-- plain columns and expressions of different join inputs
INSERT INTO d SELECT 30 + i, b4.v FROM generate_series(1, 3) i, bg b2, bg b4
  WHERE b2.id = 2 AND b4.id = 4;
INSERT INTO d SELECT b4.id * 10 + i, b2.v || b4.id FROM generate_series(1, 2) i, bg b2, bg b4
  WHERE b2.id = 2 AND b4.id = 4;
SELECT * FROM d WHERE g > 30 ORDER BY g;
-- CREATE TABLE AS
CREATE TABLE c AS SELECT i AS g, CASE i WHEN 1 THEN b4.id ELSE b2.id END AS id,
    CASE i % 2 WHEN 0 THEN b1.v ELSE b4.v END AS v
  FROM generate_series(1, 4) i, bg b1, bg b2, bg b4
  WHERE b1.id = 1 AND b2.id = 2 AND b4.id = 4;
SELECT * FROM c ORDER BY g;
-- subqueries in FROM
SELECT * FROM (SELECT i AS g, CASE i WHEN 1 THEN b4.id ELSE b2.id END AS id
  FROM generate_series(1, 3) i, bg b2, bg b4 WHERE b2.id = 2 AND b4.id = 4) s ORDER BY g;
SELECT * FROM (SELECT i AS g, b4.id, b2.v FROM generate_series(1, 3) i, bg b2, bg b4
  WHERE b2.id = 2 AND b4.id = 4) s ORDER BY g;
SELECT s.g, s.v FROM (SELECT i AS g, CASE WHEN i = 1 THEN b4.v ELSE b2.v END AS v
  FROM generate_series(1, 3) i, bg b2, bg b4 WHERE b2.id = 2 AND b4.id = 4) s
  WHERE s.v <> 'two' ORDER BY g;
SELECT * FROM (SELECT * FROM (SELECT i AS g, CASE i WHEN 2 THEN b4.v ELSE b1.v END AS v
  FROM generate_series(1, 3) i, bg b1, bg b2, bg b4
  WHERE b1.id = 1 AND b2.id = 2 AND b4.id = 4) s1) s2 ORDER BY g;
-- GROUP BY over a subquery
SELECT g, max(v), count(*) FROM (SELECT i % 3 AS g,
    CASE i % 3 WHEN 0 THEN b1.v WHEN 1 THEN b4.v ELSE b2.v END AS v
  FROM generate_series(1, 6) i, bg b1, bg b2, bg b4
  WHERE b1.id = 1 AND b2.id = 2 AND b4.id = 4) s GROUP BY g ORDER BY g;
SELECT v, sum(g) FROM (SELECT i AS g, CASE WHEN i % 2 = 0 THEN b4.v ELSE b2.v END AS v
  FROM generate_series(1, 4) i, bg b2, bg b4 WHERE b2.id = 2 AND b4.id = 4) s
  GROUP BY v ORDER BY v;
-- set operations in FROM
SELECT * FROM (SELECT i AS g, CASE i WHEN 1 THEN b4.id ELSE b2.id END AS id
    FROM generate_series(1, 3) i, bg b2, bg b4 WHERE b2.id = 2 AND b4.id = 4
  UNION ALL SELECT 9, 9) s ORDER BY g;
SELECT * FROM (SELECT i AS g, b4.v FROM generate_series(1, 2) i, bg b2, bg b4
    WHERE b2.id = 2 AND b4.id = 4
  UNION SELECT i, b2.v FROM generate_series(1, 2) i, bg b2, bg b4
    WHERE b2.id = 2 AND b4.id = 4) s ORDER BY g, v;
-- other join methods
SET enable_nestloop = off;
SELECT * FROM (SELECT b.id AS g, CASE b.id WHEN 1 THEN x.v ELSE y.v END AS v
  FROM bg b JOIN bg x ON x.id = b.id JOIN bg y ON y.id = b.id * 2) s ORDER BY g;
SET enable_hashjoin = off;
SELECT * FROM (SELECT b.id AS g, CASE b.id WHEN 1 THEN x.v ELSE y.v END AS v
  FROM bg b JOIN bg x ON x.id = b.id JOIN bg y ON y.id = b.id * 2) s ORDER BY g;
RESET enable_hashjoin;
RESET enable_nestloop;
DROP TABLE bg, d, c;
