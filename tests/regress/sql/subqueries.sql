--
-- Subqueries: scalar, EXISTS, IN / NOT IN (with NULLs), ANY / ALL,
-- correlated, in FROM, in the target list, in HAVING; errors (21000)
--
CREATE TABLE sq_a (id int, v int, g text);
CREATE TABLE sq_b (id int, v int);
INSERT INTO sq_a VALUES (1, 10, 'x'), (2, 20, 'x'), (3, 30, 'y'), (4, NULL, 'y'), (5, 50, NULL);
INSERT INTO sq_b VALUES (1, 10), (2, 10), (3, 30), (4, NULL);
-- scalar subqueries
SELECT (SELECT max(v) FROM sq_a);
SELECT (SELECT v FROM sq_a WHERE id = 3) + 1 AS v1;
SELECT (SELECT v FROM sq_a WHERE id = 99) AS none;
SELECT id, v - (SELECT min(v) FROM sq_a) AS above_min FROM sq_a ORDER BY id;
SELECT id FROM sq_a WHERE v > (SELECT avg(v) FROM sq_a) ORDER BY id;
SELECT id FROM sq_a WHERE v = (SELECT v FROM sq_b WHERE id = 3);
SELECT (SELECT count(*) FROM sq_b) * 10, (SELECT 'const');
SELECT (SELECT (SELECT 1 + 1));
-- scalar subqueries returning more than one row or column
SELECT (SELECT v FROM sq_b);
SELECT id FROM sq_a WHERE v = (SELECT v FROM sq_b WHERE v = 10);
SELECT (SELECT id, v FROM sq_b WHERE id = 1);
SELECT (SELECT v FROM sq_b WHERE id > 10 LIMIT 1) IS NULL AS empty_is_null;
-- EXISTS
SELECT EXISTS (SELECT 1 FROM sq_b), EXISTS (SELECT 1 FROM sq_b WHERE false);
SELECT id FROM sq_a a WHERE EXISTS (SELECT 1 FROM sq_b b WHERE b.v = a.v) ORDER BY id;
SELECT id FROM sq_a a WHERE NOT EXISTS (SELECT 1 FROM sq_b b WHERE b.v = a.v) ORDER BY id;
SELECT id FROM sq_a WHERE EXISTS (SELECT NULL) ORDER BY id;
SELECT id, EXISTS (SELECT 1 FROM sq_b b WHERE b.id = a.id) AS has_b FROM sq_a a ORDER BY id;
-- IN and NOT IN
SELECT id FROM sq_a WHERE v IN (SELECT v FROM sq_b) ORDER BY id;
SELECT id FROM sq_a WHERE v NOT IN (SELECT v FROM sq_b);
SELECT id FROM sq_a WHERE v NOT IN (SELECT v FROM sq_b WHERE v IS NOT NULL) ORDER BY id;
SELECT id FROM sq_a WHERE id IN (SELECT id FROM sq_b WHERE v = 10) ORDER BY id;
SELECT id FROM sq_a WHERE id NOT IN (SELECT id FROM sq_b) ORDER BY id;
SELECT id, v IN (SELECT v FROM sq_b) AS in_b, v NOT IN (SELECT v FROM sq_b) AS not_in_b FROM sq_a ORDER BY id;
SELECT 10 IN (SELECT v FROM sq_b), 20 IN (SELECT v FROM sq_b), 20 NOT IN (SELECT v FROM sq_b WHERE id < 4);
SELECT NULL::int IN (SELECT v FROM sq_b WHERE false), NULL::int NOT IN (SELECT v FROM sq_b WHERE false);
SELECT 1 IN (SELECT 1 WHERE false), 1 NOT IN (SELECT 1 WHERE false);
SELECT id FROM sq_a WHERE v IN (SELECT v::int8 FROM sq_b) ORDER BY id;
SELECT id FROM sq_a WHERE v::numeric IN (SELECT v FROM sq_b) ORDER BY id;
-- ANY / SOME / ALL
SELECT id FROM sq_a WHERE v > ANY (SELECT v FROM sq_b) ORDER BY id;
SELECT id FROM sq_a WHERE v > ALL (SELECT v FROM sq_b WHERE v IS NOT NULL) ORDER BY id;
SELECT id FROM sq_a WHERE v > ALL (SELECT v FROM sq_b);
SELECT id FROM sq_a WHERE v = SOME (SELECT v FROM sq_b) ORDER BY id;
SELECT id FROM sq_a WHERE v <> ALL (SELECT v FROM sq_b WHERE v IS NOT NULL) ORDER BY id;
SELECT 5 < ALL (SELECT v FROM sq_b WHERE false), 5 < ANY (SELECT v FROM sq_b WHERE false);
SELECT 50 >= ALL (SELECT v FROM sq_b), 5 >= ANY (SELECT v FROM sq_b), 10 = ANY (SELECT v FROM sq_b);
-- correlated subqueries
SELECT id, (SELECT count(*) FROM sq_b b WHERE b.v = a.v) AS matches FROM sq_a a ORDER BY id;
SELECT id, (SELECT max(b.id) FROM sq_b b WHERE b.v <= a.v) AS best FROM sq_a a ORDER BY id;
SELECT id FROM sq_a a WHERE v > (SELECT min(v) FROM sq_a a2 WHERE a2.g = a.g) ORDER BY id;
SELECT g, id FROM sq_a a WHERE v = (SELECT max(v) FROM sq_a a2 WHERE a2.g = a.g) ORDER BY g;
SELECT id FROM sq_a a WHERE id IN (SELECT b.id FROM sq_b b WHERE b.v = a.v) ORDER BY id;
SELECT id FROM sq_a a WHERE EXISTS (SELECT 1 FROM sq_b b WHERE b.id = a.id AND EXISTS
    (SELECT 1 FROM sq_a c WHERE c.v = b.v AND c.id <> a.id)) ORDER BY id;
SELECT a.id, (SELECT string_agg(b.id::text, ',' ORDER BY b.id) FROM sq_b b WHERE b.id <= a.id) FROM sq_a a ORDER BY a.id;
SELECT id FROM sq_a a WHERE (SELECT b.v FROM sq_b b WHERE b.id = a.id) IS NULL ORDER BY id;
-- outer references in the subquery's target list
SELECT id, (SELECT a.v + b.v FROM sq_b b WHERE b.id = a.id) FROM sq_a a ORDER BY id;
SELECT id FROM sq_a a WHERE EXISTS (SELECT a.v) ORDER BY id;
-- subqueries in FROM, including aggregates and unions of them
SELECT s.g, s.n FROM (SELECT g, count(*) AS n FROM sq_a GROUP BY g) s WHERE s.n > 1 ORDER BY s.g;
SELECT avg(n) FROM (SELECT g, count(*) AS n FROM sq_a GROUP BY g) s;
SELECT * FROM (SELECT id FROM sq_a WHERE id IN (SELECT id FROM sq_b)) s ORDER BY id;
SELECT t.id FROM (SELECT * FROM sq_a ORDER BY id DESC LIMIT 2) t ORDER BY t.id;
-- subqueries in HAVING, ORDER BY and CASE
SELECT g, count(*) FROM sq_a GROUP BY g HAVING count(*) > (SELECT count(*) FROM sq_b WHERE v = 10) - 1 ORDER BY g;
SELECT g, sum(v) FROM sq_a GROUP BY g HAVING sum(v) > (SELECT min(v) FROM sq_b) ORDER BY g;
SELECT id FROM sq_a ORDER BY (SELECT count(*) FROM sq_b b WHERE b.v = sq_a.v) DESC, id;
SELECT id, CASE WHEN EXISTS (SELECT 1 FROM sq_b b WHERE b.id = a.id) THEN 'both' ELSE 'a only' END FROM sq_a a ORDER BY id;
-- subqueries in UPDATE and DELETE
CREATE TABLE sq_c (id int, v int);
INSERT INTO sq_c SELECT id, v FROM sq_a;
UPDATE sq_c c SET v = (SELECT max(b.v) FROM sq_b b WHERE b.id = c.id) WHERE id < 4;
SELECT * FROM sq_c ORDER BY id;
DELETE FROM sq_c c WHERE NOT EXISTS (SELECT 1 FROM sq_b b WHERE b.id = c.id);
SELECT * FROM sq_c ORDER BY id;
-- errors
SELECT id FROM sq_a WHERE v IN (SELECT v, id FROM sq_b);
SELECT id FROM sq_a WHERE EXISTS (SELECT nosuch FROM sq_b);
SELECT (SELECT v FROM sq_b WHERE id < 3) FROM sq_a WHERE id = 1;
SELECT id FROM sq_a WHERE v = ANY (SELECT 'x'::text);
SELECT * FROM (SELECT 1);
SELECT x FROM (SELECT 1 AS y) s;
DROP TABLE sq_a, sq_b, sq_c;
