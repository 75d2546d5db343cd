-- results, tags, NULLs, numbers aligned right, long and odd values
CREATE TABLE t (a int, b text, c numeric(6,2), d varchar(10));
INSERT INTO t VALUES (1, 'one', 1.5, 'x'), (2, NULL, 2, NULL), (3, 'three', NULL, 'zz');
SELECT * FROM t ORDER BY a;
SELECT a, b FROM t WHERE b IS NULL;
SELECT count(*), sum(a), avg(c) FROM t;
SELECT a FROM t WHERE a > 10;
UPDATE t SET b = 'two' WHERE a = 2;
DELETE FROM t WHERE a = 3 RETURNING *;
SELECT 'multi' AS x\; SELECT 2 AS y;
SELECT repeat('ab', 40) AS long;
SELECT E'tab\there' AS esc, 'é' AS accent, E'two\nlines' AS nl;
SELECT 1 AS dup, 2 AS dup;
VALUES (1, 'a'), (2, 'b');
SHOW DateStyle;
SET TimeZone = 'UTC';
SHOW TimeZone;
SELECT
;
DROP TABLE t;
