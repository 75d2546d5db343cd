-- Scans and aggregates through the executor's fast paths: one-column
-- projections fetched straight from the tuple, identity projections,
-- count/sum steps, FILTER, DISTINCT, NULLs first or in the middle, a
-- text column before the one read, per-row memory with text functions.
CREATE TABLE w (c1 int4, c2 int4, c3 int4, c4 int2, c5 int8, c6 text);
INSERT INTO w SELECT g, g * 2, CASE WHEN g % 3 = 0 THEN NULL ELSE g END, (g % 100)::int2, g::int8 * 1000000000, 'r' || g FROM generate_series(1, 2000) g;
SELECT sum(c2) FROM w;
SELECT sum(c3), count(c3), count(*) FROM w;
SELECT sum(c4), count(c4), sum(c1) + sum(c2) FROM w;
SELECT count(*) FROM w WHERE c1 % 7 = 3;
SELECT sum(c2) FILTER (WHERE c1 > 1000), count(*) FILTER (WHERE c3 IS NULL), count(c3) FILTER (WHERE c1 % 2 = 0) FROM w;
SELECT count(DISTINCT c4), sum(DISTINCT c4), count(*) FROM w;
SELECT sum(c5), min(c6), max(c6), sum(c3) FROM w;
SELECT sum(c1), count(c1), count(*) FROM w WHERE c1 < 0;
SELECT c4, count(*), sum(c1), sum(c3), count(c3) FROM w GROUP BY c4 ORDER BY c4 LIMIT 5;
SELECT count(*), sum(s) FROM (SELECT c1 % 10 AS g, sum(c2) AS s FROM w GROUP BY 1) x;
SELECT count(*) FROM (SELECT c6, count(*) FROM w GROUP BY c6) s;
SELECT * FROM w WHERE c1 <= 3 ORDER BY c1;
SELECT c6 FROM w WHERE c1 = 5;
SELECT c6, c1, c6 FROM w WHERE c1 = 7;
SELECT sum(x) FROM (SELECT c3 AS x FROM w) s;
SELECT count(*) FROM w WHERE c6 LIKE 'r1%';
SELECT max(c6 || 'x'), min(upper(c6)) FROM w;
SELECT count(*) FROM w a JOIN w b ON a.c1 = b.c2;
SELECT c6 FROM (SELECT * FROM w ORDER BY c1 DESC LIMIT 3) s;
SELECT c3 FROM (SELECT * FROM w ORDER BY c1 LIMIT 4) s;
CREATE TABLE n (c1 int4, c2 int4, c3 int4, c4 int4, c5 int4, c6 int4, c7 int4, c8 int4, c9 int4, c10 int4);
INSERT INTO n SELECT NULL::int4, g, g + 1, g + 2, CASE WHEN g % 2 = 0 THEN NULL ELSE g END, g, g, g, g, g * 10 FROM generate_series(1, 500) g;
SELECT sum(c10), sum(c5), count(c1), count(*) FROM n;
SELECT c10 FROM n WHERE c2 <= 3 ORDER BY c2;
SELECT c5 FROM n WHERE c2 <= 4 ORDER BY c2;
CREATE TABLE t (c1 text, c2 int4, c3 int4, c4 int4);
INSERT INTO t SELECT repeat('x', g % 40), g, NULL::int4, g * 3 FROM generate_series(1, 300) g;
SELECT sum(c4), sum(c3), count(c1), max(c1) FROM t;
SELECT c4 FROM t WHERE c2 BETWEEN 98 AND 101 ORDER BY c2;
SELECT sum(length(c1)) FROM t;
SELECT count(c6), count(*) FROM w;
SELECT count(c1), count(*) FROM t;
SELECT count(c2), sum(c2) FROM n;
SELECT sum(c4) FROM w WHERE c1 > 0;
SELECT * FROM n WHERE c2 = 3;
SELECT c1 AS a, c2 AS b, c3, c4, c5, c6, c7, c8, c9, c10 FROM n WHERE c2 = 4;
SELECT c10, c2 FROM n WHERE c2 = 5;
