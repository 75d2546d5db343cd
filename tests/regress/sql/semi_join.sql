-- IN and EXISTS subqueries in WHERE, which the planner turns into semi and
-- anti joins (src/optimizer/sublink.c): results must not change, NULLs included.
CREATE TABLE t1 (a int, b int, c text);
CREATE TABLE t2 (a int, b int, c text);
CREATE TABLE t3 (a int, b int8, c text);
INSERT INTO t1 SELECT CASE WHEN g % 11 = 0 THEN NULL ELSE g % 10 END, g, 'x' || (g % 4) FROM generate_series(1, 60) g;
INSERT INTO t2 SELECT g % 7, g, 'x' || (g % 3) FROM generate_series(1, 40) g;
INSERT INTO t2 VALUES (NULL, NULL, NULL);
INSERT INTO t3 SELECT g % 5, g % 9, 'x' || g FROM generate_series(1, 30) g;
SELECT count(*) FROM t1 WHERE EXISTS (SELECT 1 FROM t2 JOIN t3 ON t2.a = t3.a WHERE t2.b = t1.b);
SELECT t1.b, (SELECT count(*) FROM t2 WHERE EXISTS (SELECT 1 FROM t3 WHERE t3.a = t2.a AND t3.b = t1.a)) FROM t1 ORDER BY 1 LIMIT 12;
SELECT count(*) FROM t1 LEFT JOIN t2 ON t1.a = t2.a WHERE t2.b IN (SELECT b FROM t3);
SELECT count(*), count(t1.a) FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t2 WHERE t2.a = t1.a);
SELECT count(*) FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t1.a > 5);
SELECT count(*) FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t1.a > 5 AND t2.c = t1.c);
SELECT count(*) FROM t1 WHERE a IN (SELECT a FROM t2 ORDER BY b);
SELECT count(*) FROM t1 WHERE a IN (SELECT DISTINCT a FROM t2) AND c IN (SELECT c FROM t2 LIMIT 5);
SELECT count(*) FROM t1 WHERE a IN (SELECT a FROM t2 UNION SELECT b::int FROM t3);
SELECT count(*) FROM t1 WHERE EXISTS (SELECT count(*) FROM t2 WHERE t2.a = t1.a);
SELECT count(*) FROM t1 WHERE a IN (SELECT b FROM t3);
SELECT count(*) FROM t1 WHERE c IN (SELECT c FROM t2) AND EXISTS (SELECT 1 FROM t3 WHERE t3.a = t1.a) AND NOT EXISTS (SELECT 1 FROM t2 WHERE t2.b = t1.b + 30);
SELECT count(*) FROM t1 x JOIN t1 y ON x.b = y.b + 1 WHERE x.a IN (SELECT a FROM t2 WHERE t2.b < 10) AND y.a IN (SELECT a FROM t3);
SELECT a, count(*) FROM t1 WHERE a IN (SELECT a + 1 FROM t2 WHERE b % 2 = 0) GROUP BY a ORDER BY a;
SELECT count(*) FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.a = t1.a) OR b < 3;
SELECT * FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.a = t1.a AND t2.b = t1.b) ORDER BY b;
SELECT count(*) FROM t1 WHERE a IN (SELECT t2.a FROM t2, t3 WHERE t2.a = t3.a AND t3.b > 3);
SELECT count(*) FROM t1 WHERE EXISTS (SELECT 1 FROM t2 LEFT JOIN t3 ON t2.a = t3.a WHERE t2.b = t1.b AND t3.a IS NULL);
SELECT count(*) FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t2 WHERE t2.a = t1.a AND t2.c = t1.c) AND a IS NOT NULL;
-- subqueries with parameters of an outer level, inside a pulled-up EXISTS
SELECT t1.b FROM t1 WHERE t1.b < 8 AND EXISTS (SELECT 1 FROM t2 WHERE t2.a = t1.a AND t2.b > (SELECT min(t3.b) FROM t3 WHERE t3.a = t1.a)) ORDER BY 1;
-- an anti join prints as PostgreSQL prints it
EXPLAIN (COSTS OFF) SELECT * FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t2 WHERE t2.a = t1.a);
EXPLAIN (COSTS OFF) SELECT * FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t2 WHERE t2.a = t1.a AND t2.b > 10);
-- NOT IN stays a subplan (NULL semantics)
SELECT count(*) FROM t1 WHERE a NOT IN (SELECT a FROM t2);
SELECT count(*) FROM t1 WHERE a NOT IN (SELECT a FROM t2 WHERE a IS NOT NULL);
-- in UPDATE and DELETE
BEGIN;
UPDATE t1 SET c = 'u' WHERE EXISTS (SELECT 1 FROM t3 WHERE t3.b = t1.a);
SELECT c, count(*) FROM t1 GROUP BY c ORDER BY c;
DELETE FROM t1 WHERE a IN (SELECT a FROM t2 WHERE b < 4);
SELECT count(*) FROM t1;
ROLLBACK;
DROP TABLE t1, t2, t3;
-- nested: a sublink inside a pulled-up subquery that reads only that
-- subquery's tables becomes a join of them in turn, at every level; one
-- that also reads the outer query stays in the join filter
CREATE TABLE na (x int, y int);
CREATE TABLE nb (x int, y int);
CREATE TABLE nc (x int, y int);
INSERT INTO na SELECT g, g % 5 FROM generate_series(1, 30) g;
INSERT INTO na VALUES (NULL, 1), (31, NULL);
INSERT INTO nb SELECT g, g % 7 FROM generate_series(1, 40, 2) g;
INSERT INTO nb VALUES (NULL, NULL), (3, NULL);
INSERT INTO nc SELECT g, g % 3 FROM generate_series(1, 20, 3) g;
INSERT INTO nc VALUES (NULL, 2);
SELECT count(*), sum(x) FROM na WHERE EXISTS (SELECT 1 FROM nb WHERE nb.x = na.x AND NOT EXISTS (SELECT 1 FROM nc WHERE nc.y = nb.y));
SELECT count(*), sum(x) FROM na WHERE NOT EXISTS (SELECT 1 FROM nb WHERE nb.x = na.x AND EXISTS (SELECT 1 FROM nc WHERE nc.x = nb.y));
SELECT count(*), sum(x) FROM na WHERE EXISTS (SELECT 1 FROM nb WHERE nb.x = na.x AND NOT EXISTS (SELECT 1 FROM nc WHERE nc.y = nb.y AND nc.x > na.y));
SELECT count(*), sum(x) FROM na WHERE EXISTS (SELECT 1 FROM nb WHERE nb.y = na.y AND EXISTS (SELECT 1 FROM nc WHERE nc.y = nb.y AND NOT EXISTS (SELECT 1 FROM na a2 WHERE a2.x = nc.x)));
SELECT count(*), sum(x) FROM na WHERE na.x IN (SELECT nb.x FROM nb WHERE NOT EXISTS (SELECT 1 FROM nc WHERE nc.x = nb.x));
SELECT count(*), sum(x) FROM na WHERE EXISTS (SELECT 1 FROM nb WHERE nb.x = na.x AND nb.y IN (SELECT nc.y FROM nc));
SELECT count(*), sum(x) FROM na WHERE EXISTS (SELECT 1 FROM nb WHERE nb.x = na.x AND nb.y NOT IN (SELECT nc.y FROM nc WHERE nc.y IS NOT NULL));
SELECT count(*), sum(x) FROM na WHERE EXISTS (SELECT 1 FROM nb JOIN nc ON nc.y = nb.y WHERE nb.x = na.x AND NOT EXISTS (SELECT 1 FROM nc c2 WHERE c2.x = nc.x + 1));
SELECT na.x FROM na WHERE EXISTS (SELECT 1 FROM nb WHERE nb.x = na.x AND (NOT EXISTS (SELECT 1 FROM nc WHERE nc.y = nb.y) OR nb.y = 1)) ORDER BY 1;
SELECT na.x FROM na WHERE EXISTS (SELECT 1 FROM nb WHERE nb.x = na.x AND NOT EXISTS (SELECT 1 FROM nc WHERE nc.y = nb.y AND nc.x = (SELECT max(x) FROM nc))) ORDER BY 1;
SELECT (SELECT count(*) FROM na WHERE EXISTS (SELECT 1 FROM nb WHERE nb.x = na.x AND NOT EXISTS (SELECT 1 FROM nc WHERE nc.y = nb.y AND nc.x < o.x))) FROM (VALUES (5), (10)) o(x);
EXPLAIN (COSTS OFF) SELECT count(*) FROM na WHERE EXISTS (SELECT 1 FROM nb WHERE nb.x = na.x AND NOT EXISTS (SELECT 1 FROM nc WHERE nc.y = nb.y AND nc.x > na.y));
SELECT count(*), sum(x) FROM na WHERE NOT EXISTS (SELECT 1 FROM nb WHERE nb.x = na.x AND NOT EXISTS (SELECT 1 FROM nc WHERE nc.x = nb.y AND NOT EXISTS (SELECT 1 FROM na a2 WHERE a2.y = nc.y)));
EXPLAIN (COSTS OFF) SELECT count(*) FROM na WHERE NOT EXISTS (SELECT 1 FROM nb WHERE nb.x = na.x AND NOT EXISTS (SELECT 1 FROM nc WHERE nc.x = nb.y AND NOT EXISTS (SELECT 1 FROM na a2 WHERE a2.y = nc.y)));
DROP TABLE na, nb, nc;
