--
-- WITH (common table expressions, non-recursive)
--
CREATE TABLE wc (id int, parent int, name text, v int);
INSERT INTO wc VALUES (1, NULL, 'root', 10), (2, 1, 'a', 20), (3, 1, 'b', 30), (4, 2, 'aa', 40),
    (5, 2, 'ab', NULL), (6, 3, 'ba', 60);
WITH t AS (SELECT id, v FROM wc WHERE v > 20) SELECT * FROM t ORDER BY id;
WITH t AS (SELECT 1 AS x) SELECT x, x + 1 FROM t;
WITH t (a, b) AS (SELECT id, name FROM wc WHERE id < 3) SELECT b, a FROM t ORDER BY a;
WITH t (a) AS (SELECT id, name FROM wc WHERE id = 1) SELECT * FROM t;
-- several CTEs, a later one using an earlier one
WITH big AS (SELECT * FROM wc WHERE v >= 30),
     names AS (SELECT name FROM big)
SELECT name FROM names ORDER BY name;
WITH a AS (SELECT 1 AS n), b AS (SELECT n + 1 AS n FROM a), c AS (SELECT n * 10 AS n FROM b)
SELECT a.n, b.n, c.n FROM a, b, c;
-- a CTE referenced twice, joined with itself
WITH kids AS (SELECT id, parent, name FROM wc WHERE parent IS NOT NULL)
SELECT p.name AS parent, c.name AS child FROM kids p JOIN kids c ON c.parent = p.id ORDER BY 1, 2;
WITH s AS (SELECT sum(v) AS total FROM wc) SELECT id, v, (SELECT total FROM s) AS total FROM wc ORDER BY id;
-- aggregates and grouping in and over CTEs
WITH g AS (SELECT parent, count(*) AS n, sum(v) AS sv FROM wc GROUP BY parent)
SELECT * FROM g ORDER BY parent NULLS FIRST;
WITH g AS (SELECT parent, count(*) AS n FROM wc GROUP BY parent)
SELECT max(n), min(n) FROM g;
-- a CTE shadows a table of the same name
WITH wc AS (SELECT 'shadow' AS name) SELECT name FROM wc;
SELECT count(*) FROM wc;
-- CTEs in subqueries, and subqueries in CTEs
SELECT * FROM (WITH t AS (SELECT id FROM wc WHERE id > 4) SELECT id FROM t) s ORDER BY id;
SELECT id FROM wc WHERE id IN (WITH t AS (SELECT 2 AS x UNION SELECT 3) SELECT x FROM t) ORDER BY id;
WITH t AS (SELECT id FROM wc WHERE v > (SELECT avg(v) FROM wc)) SELECT id FROM t ORDER BY id;
WITH t AS (SELECT id FROM wc) SELECT (SELECT count(*) FROM t) AS n;
-- nested WITH
WITH outer_cte AS (WITH inner_cte AS (SELECT id, v FROM wc) SELECT id FROM inner_cte WHERE v IS NULL)
SELECT * FROM outer_cte;
WITH x AS (SELECT 1 AS a) SELECT * FROM (WITH x AS (SELECT 2 AS a) SELECT a FROM x) s, x;
-- set operations in and over CTEs
WITH u AS (SELECT id FROM wc WHERE id < 3 UNION ALL SELECT id FROM wc WHERE id > 5)
SELECT id FROM u ORDER BY id;
WITH a AS (SELECT id FROM wc WHERE v > 20), b AS (SELECT id FROM wc WHERE v < 50)
SELECT id FROM a INTERSECT SELECT id FROM b ORDER BY id;
WITH a AS (SELECT id FROM wc WHERE v > 20) SELECT id FROM a EXCEPT SELECT 4 ORDER BY 1;
-- CTEs with ORDER BY and LIMIT inside
WITH top2 AS (SELECT id, v FROM wc ORDER BY v DESC NULLS LAST LIMIT 2) SELECT * FROM top2 ORDER BY id;
-- an unreferenced CTE is not evaluated
WITH unused AS (SELECT 1 / 0) SELECT 'fine';
-- WITH in INSERT, UPDATE and DELETE
CREATE TABLE wc2 (id int, name text);
WITH src AS (SELECT id, name FROM wc WHERE parent = 1) INSERT INTO wc2 SELECT * FROM src;
INSERT INTO wc2 WITH src AS (SELECT 9 AS id, 'nine' AS name) SELECT * FROM src;
SELECT * FROM wc2 ORDER BY id;
WITH t AS (SELECT 2 AS id) UPDATE wc2 SET name = upper(name) WHERE id IN (SELECT id FROM t);
WITH t AS (SELECT 9 AS id) DELETE FROM wc2 WHERE id = (SELECT id FROM t);
SELECT * FROM wc2 ORDER BY id;
-- errors
WITH t AS (SELECT 1 AS x) SELECT y FROM t;
WITH t AS (SELECT 1), t AS (SELECT 2) SELECT * FROM t;
WITH t (a, b, c) AS (SELECT 1, 2) SELECT * FROM t;
WITH t AS (SELECT * FROM nosuch) SELECT 1;
WITH a AS (SELECT * FROM b), b AS (SELECT 1 AS x) SELECT * FROM a;
WITH t AS (SELECT 1 / 0 AS x) SELECT * FROM t;
DROP TABLE wc, wc2;
