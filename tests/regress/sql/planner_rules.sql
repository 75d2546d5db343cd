-- planner rules PostgreSQL users see in EXPLAIN: equalities with constants
-- spread through equivalence classes, outer joins reduced by WHERE,
-- conditions pushed into the sides of outer joins, hash conditions
-- written outer = inner
CREATE TABLE z (i int, s int2, b int8, t text);
CREATE TABLE y (i int, u text);
CREATE TABLE x (i int, w int);
INSERT INTO z VALUES (0, 1, 2, 'a'), (5, 2, 5, 'b'), (NULL, 3, 4, NULL), (7, 4, 7, 'c');
INSERT INTO y VALUES (5, 'five'), (0, 'zero'), (5, 'cinq'), (9, 'x'), (NULL, 'null');
INSERT INTO x VALUES (5, 1), (9, 2), (0, -1);
EXPLAIN (COSTS OFF) SELECT * FROM z WHERE i = 1 AND i = 1;
EXPLAIN (COSTS OFF) SELECT * FROM z WHERE i = b AND b = 5;
EXPLAIN (COSTS OFF) SELECT * FROM z WHERE i = 5 AND 5 = i;
EXPLAIN (COSTS OFF) SELECT * FROM z WHERE s = 2 AND b = s;
EXPLAIN (COSTS OFF) SELECT * FROM z JOIN y ON z.i = y.i WHERE z.t = 'a';
EXPLAIN (COSTS OFF) SELECT * FROM z, y WHERE z.i = y.i AND z.t = 'a';
EXPLAIN (COSTS OFF) SELECT * FROM z LEFT JOIN y ON z.i = y.i WHERE y.i IS NULL;
EXPLAIN (COSTS OFF) SELECT * FROM z LEFT JOIN y ON z.i = y.i WHERE y.u = 'x';
EXPLAIN (COSTS OFF) SELECT * FROM z LEFT JOIN y ON z.i = y.i AND 1 = 0;
EXPLAIN (COSTS OFF) SELECT * FROM z a JOIN z b ON a.i = b.i AND false;
SELECT * FROM z a, z b WHERE a.i = b.i AND b.i = 5;
SELECT * FROM z JOIN y ON z.i = y.i WHERE y.i = 5 ORDER BY u;
SELECT * FROM z WHERE i = b AND b = 5;
SELECT * FROM z WHERE s = 2 AND b = s;
SELECT * FROM z LEFT JOIN y ON z.i = y.i WHERE y.i IS NULL ORDER BY z.s;
SELECT * FROM z LEFT JOIN y ON z.i = y.i WHERE y.u IS NULL ORDER BY z.s;
SELECT * FROM z LEFT JOIN y ON z.i = y.i WHERE y.u = 'x' ORDER BY z.s;
SELECT * FROM z FULL JOIN y ON z.i = y.i WHERE y.u = 'x' ORDER BY z.s;
SELECT * FROM z FULL JOIN y ON z.i = y.i WHERE z.s > 1 ORDER BY z.s, y.u;
SELECT * FROM z FULL JOIN y ON z.i = y.i WHERE y.u > 'a' ORDER BY z.s, y.u;
SELECT * FROM z FULL JOIN y ON z.i = y.i WHERE y.u > 'a' AND z.s > 0 ORDER BY z.s, y.u;
SELECT * FROM z LEFT JOIN y ON z.i = y.i AND y.u = 'five' ORDER BY z.s, y.u;
SELECT * FROM z LEFT JOIN y ON z.i = y.i AND z.t = 'b' ORDER BY z.s, y.u;
SELECT * FROM z LEFT JOIN y ON z.i = y.i WHERE y.u = 'x' OR z.t = 'b' ORDER BY z.s, y.u;
SELECT * FROM z LEFT JOIN y ON z.i = y.i WHERE coalesce(y.u, 'x') = 'x' ORDER BY z.s;
SELECT * FROM z LEFT JOIN y ON z.i = y.i LEFT JOIN x ON x.i = y.i WHERE x.w > 0 ORDER BY z.s, y.u;
SELECT * FROM z LEFT JOIN y ON z.i = y.i LEFT JOIN x ON x.i = y.i WHERE x.i IS NULL ORDER BY z.s, y.u;
SELECT * FROM z LEFT JOIN (y JOIN x ON x.i = y.i) ON z.i = y.i WHERE x.w IS NULL ORDER BY z.s, y.u;
SELECT * FROM z RIGHT JOIN y ON z.i = y.i WHERE z.t IS NOT NULL ORDER BY y.u;
SELECT * FROM z RIGHT JOIN y ON z.i = y.i WHERE z.i IS NULL ORDER BY y.u;
SELECT z.s FROM z LEFT JOIN y ON z.i = y.i WHERE y.i IS NULL AND z.s > 1 ORDER BY 1;
SELECT z.s, y.u FROM z LEFT JOIN y ON z.i = y.i AND 1 = 0 ORDER BY 1;
SELECT z.s, y.u FROM z LEFT JOIN y ON z.i = y.i WHERE NOT (y.u IS NULL) ORDER BY 1, 2;
SELECT z.s, y.u FROM z LEFT JOIN y ON z.i = y.i WHERE y.u IS NOT DISTINCT FROM NULL ORDER BY 1;
SELECT count(*) FROM z LEFT JOIN y ON z.i = y.i WHERE (y.i > 0) IS NOT TRUE;
SELECT count(*) FROM z LEFT JOIN y ON z.i = y.i WHERE y.i + 1 > 0;
DROP TABLE z, y, x;
