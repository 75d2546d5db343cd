--
-- SELECT basics: target lists, aliases, column names, *, table.*,
-- FROM subqueries, DISTINCT, the text form of each type
--
SELECT 1;
SELECT 1 AS one, 2 two, 'three' AS "Three";
SELECT 1 + 1, 'a' || 'b', true AND false;
SELECT NULL;
SELECT NULL AS n, 1 AS one;
SELECT 'text literal', 'it''s';
SELECT -1, +2, - -3, 2 - -1;
SELECT 7 / 2, 7 % 2, -7 / 2, 7.0 / 2;
SELECT 2 + 3 * 4, (2 + 3) * 4, 2 * 3 - 4 / 2;
SELECT true, false, NOT true, true OR false;
SELECT 1 < 2, 2 <= 2, 3 > 4, 4 >= 5, 5 = 5, 5 <> 6, 5 != 5;
SELECT 'abc' < 'abd', 'B' < 'a', 'a' = 'a ';
SELECT 123456789012, 12345678901234567890, 1.50, .5, 1e3, 1.5e-3;
SELECT '' AS empty, ' ' AS space, 'x' AS x;
CREATE TABLE sb (a int, b text, c numeric, d bool);
INSERT INTO sb VALUES (1, 'one', 1.1, true), (2, 'two', 2.2, false),
    (3, 'three', 3.3, NULL), (4, NULL, NULL, true), (5, 'five', -5.5, false);
SELECT * FROM sb ORDER BY a;
SELECT sb.* FROM sb ORDER BY a;
SELECT a, sb.b, public.sb.c FROM sb ORDER BY 1;
SELECT b, a FROM sb ORDER BY a;
SELECT a, a, a + 1 FROM sb ORDER BY a;
SELECT a AS x, b AS y FROM sb ORDER BY x;
SELECT t.a, t.b FROM sb t ORDER BY t.a;
SELECT t.a, t.b FROM sb AS t ORDER BY t.a;
SELECT x.p, x.q FROM sb AS x(p, q) ORDER BY x.p;
SELECT *, a * 10 AS tens FROM sb ORDER BY a;
SELECT a, *, d FROM sb ORDER BY a;
SELECT a + 0.5, c * 2, b || '!', NOT d FROM sb ORDER BY a;
SELECT length(b), upper(b) FROM sb ORDER BY a;
SELECT 'const' FROM sb;
SELECT count(*) FROM sb;
-- a subquery in FROM
SELECT * FROM (SELECT a, b FROM sb WHERE a > 2) AS s ORDER BY a;
SELECT s.total FROM (SELECT sum(a) AS total FROM sb) s;
SELECT y FROM (SELECT a + 1 AS y FROM sb) AS s(y) ORDER BY y DESC;
SELECT * FROM (SELECT 1 AS k, 'v' AS v) kv;
SELECT * FROM (SELECT * FROM (SELECT a FROM sb WHERE a < 4) s1 WHERE a > 1) s2 ORDER BY a;
-- DISTINCT
CREATE TABLE sb_dup (x int, y text);
INSERT INTO sb_dup VALUES (1, 'a'), (1, 'a'), (1, 'b'), (2, 'a'), (NULL, NULL),
    (NULL, NULL), (2, NULL);
SELECT DISTINCT x FROM sb_dup ORDER BY x;
SELECT DISTINCT x, y FROM sb_dup ORDER BY x, y;
SELECT DISTINCT y FROM sb_dup ORDER BY y NULLS FIRST;
SELECT ALL x FROM sb_dup ORDER BY x;
SELECT count(DISTINCT x), count(x), count(*) FROM sb_dup;
SELECT DISTINCT x % 2 AS parity FROM sb_dup WHERE x IS NOT NULL ORDER BY parity;
-- the text form of each type
SELECT true::bool, 'f'::bool;
SELECT 32767::int2, (-32768)::int2, 2147483647::int4, (-9223372036854775808)::int8;
SELECT 0.000::numeric, 1.10::numeric, -0.5::numeric, 100::numeric(6,2);
SELECT 'ab'::char(4) AS c4, 'ab'::varchar(4) AS v4, 'ab'::text AS t, 'ab'::name AS n;
SELECT 123::oid, 'héllo' AS utf8, length('héllo');
-- columns that are too wide and multi-line values
SELECT 'a much longer value than the header' AS h, 'x' AS longer_header_than_value;
SELECT 'line1
line2' AS two_lines, 1 AS n;
DROP TABLE sb, sb_dup;
