-- x = ANY (array) as an index condition (PostgreSQL's ScalarArrayOpExpr
-- index qual: one B-tree scan per distinct non-null element, in index
-- order), as a Filter where no index applies, and the operator's NULL
-- rules.  No bitmap scans in tupledb: they are off, as in index_scan.
SET enable_bitmapscan = off;
CREATE TABLE t (a int PRIMARY KEY, b int, c text, d int2);
INSERT INTO t SELECT g, g % 100, 'v' || g, (g % 30)::int2
  FROM generate_series(1, 20000) g;
CREATE INDEX t_b_idx ON t (b);
CREATE INDEX t_c_idx ON t (c);

-- ARRAY[...] of constants and array literals, typed or not
EXPLAIN (COSTS OFF) SELECT * FROM t WHERE a = ANY (ARRAY[1, 2, 3]);
SELECT * FROM t WHERE a = ANY (ARRAY[3, 1, 2, 2]);
EXPLAIN (COSTS OFF) SELECT * FROM t WHERE a = ANY ('{5,3}');
SELECT * FROM t WHERE a = ANY ('{5,3,19999}');
EXPLAIN (COSTS OFF) SELECT c FROM t WHERE a = ANY ('{7,9}'::int[]);
SELECT c FROM t WHERE a = ANY ('{9,7}'::int[]);
SELECT c FROM t WHERE a = ANY ('{0,-1,20001}'::int[]);
SELECT c FROM t WHERE a::int8 = ANY ('{4}'::int[]);
SELECT a FROM t WHERE a = ANY ('{}'::int[]);
SELECT a FROM t WHERE a = ANY (NULL::int[]);
SELECT count(*) FROM t WHERE a = ANY (ARRAY[1, a]);
-- int2 elements on an int4 column and an int2 column
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE a = ANY ('{10,11}'::int2[]);
SELECT a FROM t WHERE a = ANY ('{11,10}'::int2[]) ORDER BY a;
-- text
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE c = ANY (ARRAY['v10', 'v200']);
SELECT a FROM t WHERE c = ANY (ARRAY['v200', 'v10', 'nope']) ORDER BY a;
SELECT a FROM t WHERE c = ANY ('{v3,v4}'::text[]) ORDER BY a;

-- Index Only Scan, ORDER BY in index order, LIMIT
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE a = ANY ('{30,10,20}') ORDER BY a;
SELECT a FROM t WHERE a = ANY ('{30,10,20}') ORDER BY a;
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE a = ANY ('{30,10,20}') ORDER BY a DESC;
SELECT a FROM t WHERE a = ANY ('{30,10,20}') ORDER BY a DESC;
-- on a second column: every (b, element) pair
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE b = 7 AND a = ANY ('{7,107,8,207}');
SELECT a FROM t WHERE b = 7 AND a = ANY ('{7,107,8,207}') ORDER BY a;
-- two arrays
SELECT a FROM t WHERE b = ANY ('{1,2}') AND a = ANY ('{1,2,3,101,102}') ORDER BY a;

-- no index for the operator or the column: a Filter
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE d = ANY ('{1,2}') AND a < 40;
SELECT a FROM t WHERE d = ANY ('{1,2}') AND a < 40 ORDER BY a;
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE a <> ALL ('{1,2}') AND a < 4;
SELECT a FROM t WHERE a <> ALL ('{1,2}') AND a < 4;
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE a < ANY ('{3,2}');
SELECT a FROM t WHERE a < ANY ('{3,2}');
EXPLAIN (COSTS OFF) SELECT a FROM t WHERE a < 5 AND b = ANY (ARRAY[a, 2]);
SELECT a FROM t WHERE a < 5 AND b = ANY (ARRAY[a, 2]) ORDER BY a;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM t WHERE a = ANY ('{5,3}');
SELECT * FROM t WHERE a = ANY ('{5,3}') ORDER BY a;
RESET enable_indexscan;

-- the operator's rules: NULL array, empty array, NULL x, NULL results
SELECT 1 = ANY (NULL::int[]) AS n, NULL::int = ANY ('{}'::int[]) AS f,
       NULL::int <> ALL ('{}'::int[]) AS t, NULL::int = ANY ('{1}') AS n2,
       2 = ANY ('{1,2}') AS t2, 3 = ANY ('{1,2}') AS f2,
       2 <> ALL ('{1,3}') AS t3, 1 < ALL ('{2,3}') AS t4,
       'b' = ANY ('{a,b}'::text[]) AS t5, 1::int8 = ANY ('{1,2}'::int[]) AS t6;
SELECT ARRAY[1, 2] AS arr, ARRAY['a', 'b'] AS t, ARRAY[1::int2];
SELECT 1 = ANY (1);
SELECT ARRAY[];
