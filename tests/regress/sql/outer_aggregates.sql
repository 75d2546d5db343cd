-- An aggregate belongs to the query level of the columns it reads:
-- max(o.x) in a subquery, o of the query outside, is the outer query's
-- aggregate (which therefore aggregates), computed per group there
CREATE TABLE t (x int, y int);
INSERT INTO t VALUES (1, 10), (2, 20), (3, 30), (3, 5);
SELECT (SELECT max(o.x)) FROM t o;
SELECT (SELECT max(o.x + i.y) FROM t i) AS m FROM t o ORDER BY 1;
SELECT (SELECT count(*) FROM t i WHERE i.x < max(o.x)) FROM t o;
SELECT x, (SELECT sum(o.y)) FROM t o GROUP BY x ORDER BY x;
SELECT (SELECT sum(o.x) FROM t i WHERE i.x = sum(o.y)) FROM t o;
SELECT count(*) FROM t o HAVING (SELECT max(o.x)) > 1;
SELECT (SELECT max(o.x) FILTER (WHERE o.y > 10)) FROM t o;
SELECT (SELECT string_agg(o.x::text, ',' ORDER BY o.x)) FROM t o;
SELECT (SELECT (SELECT max(o.x))) FROM t o;
SELECT (SELECT (SELECT max(o.x) + count(*) FROM t i2) FROM t i1 LIMIT 1) FROM t o;
SELECT x, (SELECT max(o.y) + i.x FROM t i WHERE i.x = o.x LIMIT 1) FROM t o
  GROUP BY x ORDER BY x;
SELECT x FROM t o GROUP BY x HAVING (SELECT sum(o.y)) > 10 ORDER BY x;
SELECT x FROM t o GROUP BY x ORDER BY (SELECT sum(o.y)) DESC, x;
SELECT count(*), (SELECT sum(o.y) + sum(i.y) FROM t i) FROM t o;
SELECT (SELECT count(*) FROM t i WHERE i.y < avg(o.y)) FROM t o;
SELECT (SELECT max(o.x) FROM t i WHERE i.x = 1) AS m FROM t o;
SELECT (SELECT max(o.x)) FROM t o WHERE false;
SELECT (SELECT count(*)) FROM t o;
SELECT x FROM t o GROUP BY x
  HAVING EXISTS (SELECT 1 FROM t i WHERE i.y > max(o.y)) ORDER BY x;
SELECT x, (SELECT o.x) FROM t o GROUP BY 1 ORDER BY 1;
SELECT x, (SELECT count(*) FROM t i WHERE i.x = o.x) FROM t o GROUP BY x
  ORDER BY x;
EXPLAIN (COSTS OFF) SELECT (SELECT max(o.x)) FROM t o;
EXPLAIN (COSTS OFF) SELECT x, (SELECT sum(o.y)) FROM t o GROUP BY x;
-- where the owning query's clause forbids aggregates, or they nest
SELECT o.x FROM t o WHERE o.x = (SELECT max(o.y));
SELECT max(max(x)) FROM t;
SELECT sum(count(*)) FROM t;
SELECT max((SELECT max(o.x))) FROM t o;
SELECT max(x) FILTER (WHERE max(x) > 1) FROM t;
SELECT (SELECT max(o.x) FROM t i) FROM t o;
UPDATE t SET y = (SELECT max(t.x));
-- a subquery may read only the grouped columns themselves of a grouped
-- query outside
SELECT x, (SELECT o.y) FROM t o GROUP BY x;
SELECT x + 1, (SELECT o.x + 1) FROM t o GROUP BY x + 1;
SELECT x, (SELECT z FROM (SELECT o.y AS z) s) FROM t o GROUP BY x;
SELECT x, EXISTS (SELECT 1 FROM t i WHERE i.y = o.y) FROM t o GROUP BY x;
SELECT x FROM t o GROUP BY x HAVING EXISTS (SELECT 1 FROM t i WHERE i.y > o.y);
SELECT (SELECT o.y) FROM t o GROUP BY y ORDER BY 1;
SELECT x, (SELECT (SELECT o.y)) FROM t o GROUP BY x;
SELECT max(x), (SELECT o.y IN (SELECT 1)) FROM t o;
SELECT o.y, (SELECT max(o.x)) FROM t o;
DROP TABLE t;
