-- constant folding: what EXPLAIN shows and when errors are raised
CREATE TABLE cf (i int, s int2, b int8, t text, n numeric);
INSERT INTO cf VALUES (0, 1, 2, 'a', 1.5), (1, 2, 3, 'b', NULL), (NULL, 3, 4, NULL, 0);
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE i = 1 + 1;
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE NOT (s = 2) AND i = 2 AND coalesce(NULL, t) = 'a';
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE CASE WHEN 1 > 2 THEN i ELSE s END = 1 AND greatest(1, 2) = i;
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE true AND i > 0 OR false;
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE NOT (i > 0 AND s IS NULL);
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE NOT (i > 0 OR t IS NOT TRUE::text::bool);
EXPLAIN (COSTS OFF) SELECT nullif(i, NULL), nullif(NULL, i), nullif(1, 1), 2 * 3 + i FROM cf;
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE s IN (1, 2) AND i NOT IN (1, 2, b);
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE t IN ('a', t, 'b');
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE i = 1 AND t LIKE 'a%' AND n > 0;
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE i::text = '1' AND i > 0;
EXPLAIN (COSTS OFF) SELECT CASE i WHEN 1 THEN 'one' END, CASE 1 WHEN 1 THEN 'x' ELSE t END FROM cf;
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE NULL::int = i OR i IS NULL;
-- WHERE treats NULL as false; constant-false conditions leave an empty plan
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE false;
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE NULL;
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE i > 0 OR NULL;
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE i > 0 AND (NULL OR false);
EXPLAIN (COSTS OFF) SELECT * FROM cf a JOIN cf b ON a.i = b.i AND false;
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE (SELECT 1) = 1;
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE i = 1 AND i = 1;
-- ORs sharing a condition are factored
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE (i = 1 AND s = 2) OR (i = 1 AND b = 3);
EXPLAIN (COSTS OFF) SELECT * FROM cf WHERE (i = 1 AND s = 2) OR i = 1;
-- HAVING without aggregates filters before grouping
EXPLAIN (COSTS OFF) SELECT i, count(*) FROM cf GROUP BY i HAVING i > 0 AND count(*) > 0;
EXPLAIN (COSTS OFF) SELECT count(*) FROM cf HAVING false;
SELECT count(*) FROM cf HAVING false;
SELECT count(*) FROM cf WHERE false;
SELECT i, count(*) FROM cf GROUP BY i HAVING i > 0 AND count(*) > 0;
SELECT * FROM cf WHERE false;
SELECT * FROM cf WHERE (SELECT 1) = 1 ORDER BY s;
SELECT * FROM cf WHERE (i = 0 AND s = 1) OR (i = 0 AND b = 3);
-- results are unchanged by folding
SELECT * FROM cf WHERE NOT (s = 2) AND i = 0 AND coalesce(NULL, t) = 'a';
SELECT * FROM cf WHERE s IN (1, 2) AND i NOT IN (5, 6, b) ORDER BY s;
SELECT i, t IN ('a', t, 'b') FROM cf ORDER BY s;
SELECT i, NULL::int IN (i, 1, 2), 5 NOT IN (i, 1, NULL) FROM cf ORDER BY s;
SELECT count(*) FROM cf WHERE 1 = 1 AND NOT false;
-- a constant's error is raised when planning, even with no rows to read
SELECT 1/0 FROM cf WHERE false;
SELECT CASE WHEN i > 0 THEN 1/0 ELSE 1 END FROM cf;
SELECT CASE WHEN i > 0 THEN 1 ELSE 'x'::int END FROM cf;
-- ... but not when a strict call has a NULL constant argument
SELECT i, (NULL::int * b)::int | (i / 0) FROM cf ORDER BY s;
SELECT i, coalesce(1, 1/0) FROM cf ORDER BY s;
SELECT i, CASE WHEN true THEN 1 ELSE 1/0 END FROM cf ORDER BY s;
SELECT false AND 1/0 = 1;
SELECT (1/0 = 1) AND false;
-- a left operand's error comes before the right one's
SELECT s::bool & 'x'::int2 FROM cf;
SELECT 'x'::int2 + true::int2;
-- a boolean compared with a constant is the boolean or its negation
CREATE TABLE cfb (b bool, n int);
INSERT INTO cfb VALUES (true, 1), (false, 2), (NULL, 3);
EXPLAIN (COSTS OFF) SELECT * FROM cfb WHERE b <> true;
EXPLAIN (COSTS OFF) SELECT * FROM cfb WHERE b = false AND n > 1;
EXPLAIN (COSTS OFF) SELECT * FROM cfb WHERE true = b;
EXPLAIN (COSTS OFF) SELECT * FROM cfb WHERE (n < 2) = false;
EXPLAIN (COSTS OFF) SELECT * FROM cfb WHERE b <> NULL::bool;
SELECT n, b = true AS t, b <> true AS nt, false = b AS f, b <> false AS nf FROM cfb ORDER BY n;
DROP TABLE cfb;
DROP TABLE cf;
