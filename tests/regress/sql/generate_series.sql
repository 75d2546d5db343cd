--
-- generate_series(start, stop [, step]) over int4 and int8 in FROM
--
SELECT * FROM generate_series(1, 5);
SELECT * FROM generate_series(1, 10, 3);
SELECT * FROM generate_series(5, 1, -2);
SELECT * FROM generate_series(5, 1);
SELECT * FROM generate_series(1, 1);
SELECT * FROM generate_series(-2, 2);
SELECT * FROM generate_series(1, 5, 10);
SELECT * FROM generate_series(1, 3, -1);
SELECT * FROM generate_series(1, 3, 0);
SELECT * FROM generate_series(NULL, 3);
SELECT * FROM generate_series(1, NULL);
SELECT * FROM generate_series(1, 3, NULL);
-- int8
SELECT * FROM generate_series(4294967295, 4294967297);
SELECT * FROM generate_series(1::int8, 3::int8);
SELECT * FROM generate_series(9223372036854775805, 9223372036854775807);
SELECT * FROM generate_series(-9223372036854775807, -9223372036854775808, -1);
SELECT * FROM generate_series(2147483645, 2147483647);
SELECT * FROM generate_series(2147483646, 2147483647, 2);
SELECT * FROM generate_series(1::int8, 5::int8, 0::int8);
-- aliases and column names
SELECT * FROM generate_series(1, 3) AS g;
SELECT * FROM generate_series(1, 3) AS g(x);
SELECT g.x * 2 AS doubled FROM generate_series(1, 3) AS g(x);
SELECT generate_series FROM generate_series(1, 2);
SELECT g FROM generate_series(1, 2) g;
-- with WHERE, ORDER BY, LIMIT, aggregates
SELECT x FROM generate_series(1, 20) x WHERE x % 5 = 0 ORDER BY x;
SELECT x FROM generate_series(1, 5) x ORDER BY x DESC;
SELECT x FROM generate_series(1, 1000000) x LIMIT 3;
SELECT count(*), sum(x), min(x), max(x), avg(x) FROM generate_series(1, 1000) x;
SELECT sum(x) FROM generate_series(1, 100000) x;
SELECT x % 3 AS r, count(*) FROM generate_series(1, 10) x GROUP BY x % 3 ORDER BY r;
SELECT string_agg(x::text, ',' ORDER BY x) FROM generate_series(1, 10) x;
SELECT count(*) FROM generate_series(1, 10) x WHERE x > 100;
-- joins: with each other and with tables
SELECT a.x, b.y FROM generate_series(1, 2) a(x), generate_series(1, 3) b(y) ORDER BY 1, 2;
SELECT a.x, b.y FROM generate_series(1, 4) a(x) LEFT JOIN generate_series(3, 6) b(y) ON a.x = b.y ORDER BY 1;
SELECT a.x, b.y FROM generate_series(1, 4) a(x) FULL JOIN generate_series(3, 6) b(y) ON a.x = b.y ORDER BY 1, 2;
CREATE TABLE gs (id int, name text);
INSERT INTO gs SELECT x, 'row ' || x FROM generate_series(1, 5) x;
SELECT * FROM gs ORDER BY id;
SELECT g.x, gs.name FROM generate_series(0, 6, 2) g(x) LEFT JOIN gs ON gs.id = g.x ORDER BY g.x;
SELECT count(*) FROM gs, generate_series(1, 10);
INSERT INTO gs SELECT x, NULL FROM generate_series(6, 10000) x;
SELECT count(*), count(name), max(id) FROM gs;
SELECT id FROM gs WHERE id % 1000 = 0 ORDER BY id;
-- arguments from expressions and subqueries
SELECT * FROM generate_series(1 + 1, 2 * 3, 5 - 3);
SELECT * FROM generate_series((SELECT min(id) FROM gs), (SELECT min(id) + 2 FROM gs));
SELECT * FROM generate_series(1);
DROP TABLE gs;
