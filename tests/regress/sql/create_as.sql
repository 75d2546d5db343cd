-- CREATE TABLE AS and SELECT INTO
CREATE TABLE src (a int, b text, c numeric(10,2), d varchar(5), e bool NOT NULL DEFAULT true);
INSERT INTO src VALUES (1, 'x', 1.5, 'ab'), (2, NULL, 2.25, 'cd'), (3, 'z', NULL, NULL);
CREATE TABLE t1 AS SELECT * FROM src WHERE a > 1;
SELECT * FROM t1 ORDER BY a;
\d t1
CREATE TABLE t2 (x, y) AS SELECT a * 10, b || '!', 'lit', 1 + 1 AS two FROM src;
SELECT * FROM t2 ORDER BY x;
\d t2
CREATE TABLE t3 AS SELECT c, d FROM src WITH NO DATA;
SELECT count(*) FROM t3;
CREATE TABLE IF NOT EXISTS t3 AS SELECT 1;
SELECT a, b INTO t4 FROM src WHERE a = 3;
SELECT * FROM t4;
SELECT a, b INTO TABLE t4b FROM src ORDER BY a DESC LIMIT 2;
SELECT * FROM t4b;
CREATE TABLE t8 AS SELECT count(*), sum(a), avg(c) FROM src;
SELECT * FROM t8;
\d t8
CREATE TABLE t9 AS SELECT 'unknown' AS u, 1 AS "?column?", 2;
SELECT * FROM t9;
\d t9
CREATE TABLE t10 AS SELECT g, g % 2 = 0 AS even FROM generate_series(1, 5) g;
SELECT * FROM t10 WHERE even;
CREATE TABLE t11 AS SELECT a FROM src UNION SELECT 10;
SELECT * FROM t11 ORDER BY 1;
CREATE TABLE t12 AS VALUES (1, 'one'), (2, 'two');
SELECT * FROM t12;
-- in a transaction block: rolled back with it
BEGIN;
CREATE TABLE t13 AS SELECT * FROM src;
SELECT count(*) FROM t13;
ROLLBACK;
SELECT * FROM t13;
-- errors leave nothing behind
CREATE TABLE t3 AS SELECT 1;
CREATE TABLE t5 (p, q, r) AS SELECT 1, 2;
CREATE TABLE t6 AS SELECT a, a FROM src;
CREATE TABLE t7 AS SELECT 10 / (a - 3) FROM src;
SELECT * FROM t7;
CREATE TABLE t7 AS SELECT nosuch FROM src;
DROP TABLE src, t1, t2, t3, t4, t4b, t8, t9, t10, t11, t12;
