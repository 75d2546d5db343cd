--
-- Aggregates: count/sum/avg/min/max/bool_and/bool_or/every/string_agg/
-- stddev/variance; DISTINCT, FILTER, ORDER BY inside the call; empty
-- input; NULLs; GROUP BY / HAVING; grouping errors (42803)
--
CREATE TABLE ag (id int, grp text, i2 int2, i4 int4, i8 int8, n numeric, t text, b bool);
INSERT INTO ag VALUES
    (1, 'a', 1, 10, 100, 1.5, 'x', true),
    (2, 'a', 2, 20, 200, 2.5, 'y', true),
    (3, 'a', NULL, 30, NULL, NULL, NULL, NULL),
    (4, 'b', 4, 40, 400, 4.25, 'z', false),
    (5, 'b', 4, NULL, 400, 4.25, 'z', true),
    (6, 'c', 6, 60, 600, -6, 'w', false),
    (7, NULL, 7, 70, 700, 7, 'v', NULL);
-- every aggregate over the whole table
SELECT count(*), count(id), count(i2), count(t), count(b) FROM ag;
SELECT sum(i2), sum(i4), sum(i8), sum(n) FROM ag;
SELECT avg(i2), avg(i4), avg(i8), avg(n) FROM ag;
SELECT min(i2), max(i2), min(i4), max(i4), min(i8), max(i8), min(n), max(n) FROM ag;
SELECT min(t), max(t), min(grp), max(grp) FROM ag;
SELECT bool_and(b), bool_or(b), every(b) FROM ag;
SELECT string_agg(t, ',' ORDER BY id), string_agg(t, '' ORDER BY t DESC) FROM ag;
SELECT stddev(i4), stddev_samp(i4), stddev_pop(i4) FROM ag;
SELECT variance(i4), var_samp(i4), var_pop(i4) FROM ag;
SELECT stddev(n), variance(n), var_pop(i8), stddev_pop(i2) FROM ag;
-- empty input: count is 0, the rest NULL
SELECT count(*), count(i4), sum(i4), avg(i4), min(i4), max(i4) FROM ag WHERE false;
SELECT bool_and(b), bool_or(b), every(b), string_agg(t, ','), stddev(i4), variance(n) FROM ag WHERE false;
SELECT sum(i4) IS NULL AS sum_null, coalesce(sum(i4), 0) AS zero FROM ag WHERE id > 100;
-- a single value
SELECT stddev(i4), variance(i4), stddev_pop(i4), var_pop(i4), avg(i4) FROM ag WHERE id = 1;
-- only NULLs
SELECT count(i2), sum(i2), max(i2), avg(i2), bool_or(b) FROM ag WHERE id = 3;
-- DISTINCT
SELECT count(DISTINCT i2), sum(DISTINCT i2), avg(DISTINCT i8), count(DISTINCT grp) FROM ag;
SELECT string_agg(DISTINCT t, ',' ORDER BY t) FROM ag;
SELECT count(DISTINCT b), bool_and(DISTINCT b), min(DISTINCT n), max(DISTINCT t) FROM ag;
-- FILTER
SELECT count(*) FILTER (WHERE i4 > 20), sum(i4) FILTER (WHERE grp = 'a'), count(*) FILTER (WHERE b)
    FROM ag;
SELECT string_agg(t, ',' ORDER BY id) FILTER (WHERE id % 2 = 1) FROM ag;
SELECT avg(n) FILTER (WHERE n > 0), max(i8) FILTER (WHERE false) FROM ag;
SELECT count(DISTINCT i2) FILTER (WHERE id < 6) FROM ag;
-- ORDER BY inside the call
SELECT string_agg(grp, '' ORDER BY grp NULLS FIRST), string_agg(grp, '' ORDER BY grp DESC) FROM ag;
SELECT string_agg(t, '-' ORDER BY i4 DESC NULLS LAST, id) FROM ag;
SELECT string_agg(id::text, ',' ORDER BY n, id) FROM ag;
-- string_agg with NULL delimiter and NULL values
SELECT string_agg(t, NULL ORDER BY id) FROM ag;
SELECT string_agg(NULL::text, ',') FROM ag;
-- GROUP BY
SELECT grp, count(*), sum(i4), max(t) FROM ag GROUP BY grp ORDER BY grp;
SELECT grp, count(*) FROM ag GROUP BY grp ORDER BY grp NULLS FIRST;
SELECT grp, i2, count(*) FROM ag GROUP BY grp, i2 ORDER BY grp, i2;
SELECT grp, string_agg(t, ',' ORDER BY t), bool_and(b), avg(n) FROM ag GROUP BY grp ORDER BY grp;
SELECT b, count(*) FROM ag GROUP BY b ORDER BY b;
SELECT i4 % 20 AS k, count(*) FROM ag WHERE i4 IS NOT NULL GROUP BY i4 % 20 ORDER BY k;
SELECT upper(grp) AS g, sum(i8) FROM ag GROUP BY upper(grp) ORDER BY 1;
SELECT grp AS g, count(*) FROM ag GROUP BY g ORDER BY g;
SELECT grp, count(*) FROM ag GROUP BY 1 ORDER BY 1;
SELECT count(*) FROM ag GROUP BY grp ORDER BY count(*), min(grp);
SELECT grp FROM ag GROUP BY grp ORDER BY grp;
SELECT grp, sum(i4) * 2 + count(*) AS expr, max(i4) - min(i4) AS range FROM ag GROUP BY grp ORDER BY grp;
SELECT id, sum(i4) FROM ag GROUP BY id ORDER BY id;
-- HAVING
SELECT grp, count(*) FROM ag GROUP BY grp HAVING count(*) > 1 ORDER BY grp;
SELECT grp, sum(i4) FROM ag GROUP BY grp HAVING sum(i4) > 50 ORDER BY grp;
SELECT grp FROM ag GROUP BY grp HAVING max(t) = 'z';
SELECT grp, avg(i4) FROM ag GROUP BY grp HAVING grp IS NOT NULL AND min(id) < 4 ORDER BY grp;
SELECT count(*) FROM ag HAVING count(*) > 100;
SELECT count(*) FROM ag HAVING count(*) > 1;
SELECT 1 AS one FROM ag HAVING min(id) = 1;
SELECT grp, count(*) FILTER (WHERE b) AS nb FROM ag GROUP BY grp HAVING count(*) FILTER (WHERE b) > 0 ORDER BY grp;
-- aggregates over expressions and in expressions
SELECT sum(i4 * 2), max(length(t)), count(i4 + i2), sum(CASE WHEN b THEN 1 ELSE 0 END) FROM ag;
SELECT sum(i4) / count(i4) AS avg_int, round(avg(i4), 2), count(*) - count(t) AS null_t FROM ag;
SELECT max(i4) FROM ag WHERE grp = 'a' GROUP BY grp;
SELECT count(*) FROM (SELECT grp FROM ag GROUP BY grp) s;
SELECT max(cnt) FROM (SELECT grp, count(*) AS cnt FROM ag GROUP BY grp) s;
-- sum and avg over large integers do not overflow
CREATE TABLE ag_big (v int8, w int4);
INSERT INTO ag_big VALUES (9223372036854775807, 2147483647), (9223372036854775807, 2147483647), (1, 1);
SELECT sum(v), avg(v), sum(w), avg(w), stddev_pop(w) FROM ag_big;
-- grouping errors
SELECT grp, i4 FROM ag GROUP BY grp;
SELECT id, count(*) FROM ag;
SELECT grp FROM ag GROUP BY grp ORDER BY i4;
SELECT grp, count(*) FROM ag GROUP BY grp HAVING i4 > 1;
SELECT sum(count(*)) FROM ag;
SELECT count(*) FROM ag WHERE sum(i4) > 1;
SELECT count(*) FROM ag GROUP BY 5;
SELECT count(*) FROM ag GROUP BY count(*);
SELECT sum(t) FROM ag;
SELECT avg(b) FROM ag;
SELECT bool_and(i4) FROM ag;
SELECT string_agg(i4, ',') FROM ag;
SELECT count(nosuch) FROM ag;
SELECT sum(i4, i2) FROM ag;
-- an aggregate over an empty table, with GROUP BY: no rows
CREATE TABLE ag_empty (g int, v int);
SELECT count(*), sum(v) FROM ag_empty;
SELECT g, count(*) FROM ag_empty GROUP BY g;
SELECT count(*) FROM ag_empty HAVING count(*) = 0;
DROP TABLE ag, ag_big, ag_empty;
