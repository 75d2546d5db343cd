--
-- Joins: INNER, LEFT, RIGHT, FULL, CROSS, comma joins; ON, USING,
-- NATURAL; NULL keys; self joins; joins with subqueries; errors
--
CREATE TABLE jl (id int, k int, lv text);
CREATE TABLE jr (id int, k int, rv text);
INSERT INTO jl VALUES (1, 1, 'l1'), (2, 2, 'l2'), (3, 2, 'l3'), (4, NULL, 'l4'), (5, 5, 'l5');
INSERT INTO jr VALUES (10, 1, 'r1'), (20, 2, 'r2'), (30, 3, 'r3'), (40, NULL, 'r4'), (50, 2, 'r5');
-- INNER
SELECT jl.id, jr.id, lv, rv FROM jl JOIN jr ON jl.k = jr.k ORDER BY jl.id, jr.id;
SELECT jl.id, jr.id FROM jl INNER JOIN jr ON jl.k = jr.k AND jr.id > 10 ORDER BY 1, 2;
SELECT l.id, r.id FROM jl l JOIN jr r ON l.k < r.k ORDER BY 1, 2;
SELECT l.id, r.id FROM jl l JOIN jr r ON true WHERE l.id = 1 ORDER BY 2;
SELECT l.id, r.id FROM jl l JOIN jr r ON l.k = r.k WHERE r.rv <> 'r5' ORDER BY 1, 2;
-- LEFT
SELECT l.id, l.k, r.id, r.rv FROM jl l LEFT JOIN jr r ON l.k = r.k ORDER BY l.id, r.id;
SELECT l.id, r.id FROM jl l LEFT OUTER JOIN jr r ON l.k = r.k AND r.id > 20 ORDER BY 1, 2;
SELECT l.id FROM jl l LEFT JOIN jr r ON l.k = r.k WHERE r.id IS NULL ORDER BY 1;
SELECT l.id, r.id FROM jl l LEFT JOIN jr r ON false ORDER BY 1;
-- RIGHT
SELECT l.id, r.id, r.k FROM jl l RIGHT JOIN jr r ON l.k = r.k ORDER BY r.id, l.id;
SELECT r.id FROM jl l RIGHT OUTER JOIN jr r ON l.k = r.k WHERE l.id IS NULL ORDER BY 1;
-- FULL
SELECT l.id, r.id FROM jl l FULL JOIN jr r ON l.k = r.k ORDER BY l.id NULLS LAST, r.id;
SELECT l.id, r.id FROM jl l FULL OUTER JOIN jr r ON l.k = r.k
    WHERE l.id IS NULL OR r.id IS NULL ORDER BY l.id NULLS LAST, r.id;
SELECT count(*), count(l.id), count(r.id) FROM jl l FULL JOIN jr r ON l.k = r.k;
-- CROSS and comma joins
SELECT count(*) FROM jl CROSS JOIN jr;
SELECT l.id, r.id FROM jl l, jr r WHERE l.k = r.k AND l.id > 1 ORDER BY 1, 2;
SELECT l.id, r.id FROM jl l CROSS JOIN jr r WHERE l.id = 1 AND r.id < 30 ORDER BY 2;
SELECT a.id, b.id, c.id FROM jl a, jl b, jl c WHERE a.id + 1 = b.id AND b.id + 1 = c.id ORDER BY 1;
-- USING and NATURAL: the merged column comes first and has no table
CREATE TABLE ju1 (k int, a text);
CREATE TABLE ju2 (k int, b text);
INSERT INTO ju1 VALUES (1, 'a1'), (2, 'a2'), (NULL, 'a3');
INSERT INTO ju2 VALUES (2, 'b2'), (3, 'b3'), (NULL, 'b4');
SELECT * FROM ju1 JOIN ju2 USING (k) ORDER BY k;
SELECT * FROM ju1 LEFT JOIN ju2 USING (k) ORDER BY k, a;
SELECT * FROM ju1 RIGHT JOIN ju2 USING (k) ORDER BY k, b;
SELECT * FROM ju1 FULL JOIN ju2 USING (k) ORDER BY k, a, b;
SELECT k, ju1.k, ju2.k FROM ju1 FULL JOIN ju2 USING (k) ORDER BY 1, 2, 3;
SELECT * FROM ju1 NATURAL JOIN ju2;
SELECT * FROM ju1 NATURAL LEFT JOIN ju2 ORDER BY a;
SELECT * FROM ju1 NATURAL FULL JOIN ju2 ORDER BY k, a, b;
SELECT * FROM jl NATURAL JOIN jr;
SELECT * FROM jl JOIN jr USING (id, k);
SELECT * FROM jl JOIN jr USING (k) ORDER BY k, jl.id, jr.id;
-- NULL keys never match, but IS NOT DISTINCT FROM does
SELECT l.id, r.id FROM jl l JOIN jr r ON l.k = r.k WHERE l.k IS NULL;
SELECT l.id, r.id FROM jl l JOIN jr r ON l.k IS NOT DISTINCT FROM r.k ORDER BY 1, 2;
-- self join and join with aggregates
SELECT a.id, b.id FROM jl a JOIN jl b ON a.k = b.k AND a.id < b.id;
SELECT l.k, count(*) FROM jl l JOIN jr r ON l.k = r.k GROUP BY l.k ORDER BY l.k;
SELECT l.id, count(r.id) FROM jl l LEFT JOIN jr r ON l.k = r.k GROUP BY l.id ORDER BY l.id;
SELECT r.rv, string_agg(l.lv, ',' ORDER BY l.lv) FROM jl l JOIN jr r ON l.k = r.k GROUP BY r.rv ORDER BY r.rv;
-- joins with subqueries and nested joins
SELECT s.id, r.id FROM (SELECT id, k FROM jl WHERE id < 3) s JOIN jr r ON s.k = r.k ORDER BY 1, 2;
SELECT l.id, s.total FROM jl l JOIN (SELECT k, sum(id) AS total FROM jr GROUP BY k) s ON l.k = s.k ORDER BY 1;
SELECT a.k, b.b, c.rv FROM ju1 a JOIN ju2 b ON a.k = b.k JOIN jr c ON c.k = b.k ORDER BY c.rv;
SELECT a.a, b.b, c.rv FROM ju1 a LEFT JOIN ju2 b ON a.k = b.k LEFT JOIN jr c ON c.k = b.k ORDER BY a.a, c.rv;
SELECT a.a, b.b FROM ju1 a LEFT JOIN (ju2 b JOIN jr c ON c.k = b.k) ON a.k = b.k ORDER BY a.a, b.b;
SELECT * FROM (ju1 CROSS JOIN ju2) WHERE ju1.k = ju2.k;
-- joins with empty tables
CREATE TABLE jempty (k int);
SELECT count(*) FROM jl JOIN jempty ON jl.k = jempty.k;
SELECT l.id, e.k FROM jl l LEFT JOIN jempty e ON l.k = e.k ORDER BY l.id;
SELECT count(*) FROM jempty e FULL JOIN ju1 USING (k);
SELECT count(*) FROM jl, jempty;
-- joins on expressions and mixed types
SELECT l.id, r.id FROM jl l JOIN jr r ON l.id * 10 = r.id ORDER BY 1;
SELECT l.id, r.id FROM jl l JOIN jr r ON l.k::int8 = r.k::int2 AND l.id = 1 ORDER BY 2;
SELECT l.id, r.id FROM jl l JOIN jr r ON l.k = r.k::numeric AND r.id = 20 ORDER BY 1;
SELECT l.lv, r.rv FROM jl l JOIN jr r ON substr(l.lv, 2) = substr(r.rv, 2) ORDER BY 1;
-- errors
SELECT id FROM jl JOIN jr ON jl.k = jr.k;
SELECT k FROM jl, jr;
SELECT * FROM jl JOIN jr USING (nosuch);
SELECT * FROM jl JOIN jr ON nosuch = 1;
SELECT * FROM jl JOIN jr ON jl.k;
SELECT * FROM jl JOIN jr ON jl.lv = jr.k;
SELECT * FROM jl l JOIN jr l ON true;
SELECT jl.id FROM jl l;
SELECT * FROM jl JOIN jr;
DROP TABLE jl, jr, ju1, ju2, jempty;
