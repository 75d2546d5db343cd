--
-- WITH RECURSIVE ... SEARCH {DEPTH | BREADTH} FIRST BY ... SET ...
-- and CYCLE ... SET ... [TO ... DEFAULT ...] USING ... (PostgreSQL 14+):
-- the ordering column, the cycle mark and the path of records, a cyclic
-- graph whose recursion ends, the values of every column type in the
-- paths, and the clauses' errors.
--
CREATE TABLE graph (f int, t int, label text);
INSERT INTO graph VALUES (1, 2, 'arc 1 -> 2'), (1, 3, 'arc 1 -> 3'), (2, 3, 'arc 2 -> 3'),
    (1, 4, 'arc 1 -> 4'), (4, 5, 'arc 4 -> 5'), (5, 1, 'arc 5 -> 1');
CREATE TABLE tree (id int, parent int);
INSERT INTO tree VALUES (1, NULL), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 6);
-- a graph with a cycle: without CYCLE this recursion would never end
WITH RECURSIVE search_graph(f, t, label) AS (
    SELECT * FROM graph g
  UNION ALL
    SELECT g.* FROM graph g, search_graph sg WHERE g.f = sg.t
) CYCLE f, t SET is_cycle USING path
SELECT * FROM search_graph ORDER BY path;
WITH RECURSIVE search_graph(f, t, label) AS (
    SELECT * FROM graph g
  UNION ALL
    SELECT g.* FROM graph g, search_graph sg WHERE g.f = sg.t
) CYCLE f, t SET is_cycle USING path
SELECT count(*), count(*) FILTER (WHERE is_cycle) AS cycles, max(array_upper(path, 1)) AS longest FROM search_graph;
-- the cycle mark's own values, and a cycle over one column
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n % 3 + 1 FROM t)
  CYCLE n SET c TO 'Y' DEFAULT 'N' USING p
SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n FROM t) CYCLE n SET c TO 1 DEFAULT 0 USING p SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n FROM t) CYCLE n SET c TO 2.5 DEFAULT 1 USING p SELECT * FROM t;
-- UNION (without ALL) keeps the cyclic row, which differs by its mark
WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT n % 2 + 1 FROM t) CYCLE n SET c USING p SELECT * FROM t;
-- the recursive term may read the mark and the path of the working row
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE NOT c AND array_upper(p, 1) < 3)
  CYCLE n SET c USING p
SELECT * FROM t;
-- NULLs in the cycle columns are equal to each other
WITH RECURSIVE t(n, x) AS (SELECT 1, NULL::text UNION ALL SELECT n % 2 + 1, NULL FROM t)
  CYCLE n, x SET c USING p
SELECT * FROM t;
-- every column type in a path, printed as PostgreSQL prints a record
WITH RECURSIVE t(i2, i4, i8, f4, f8, nu, tx, vc, bc, nm, ch, by, bo, da, ti, ts, tz, iv, uu, oi, n) AS (
    SELECT 1::int2, 2::int4, 3::int8, 1.5::float4, 2.25::float8, 3.125::numeric, 'a b'::text,
        'v,c'::varchar(5), 'x'::char(3), 'na"me'::name, 'q'::"char", '\x01ff'::bytea, true,
        date '2020-01-02', time '01:02:03', timestamp '2020-01-02 03:04:05',
        timestamptz '2020-01-02 03:04:05+00', interval '1 day 2 hours',
        'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, 42::oid, 1
  UNION ALL
    SELECT i2, i4, i8, f4, f8, nu, tx, vc, bc, nm, ch, by, bo, da, ti, ts, tz, iv, uu, oi, n + 1 FROM t WHERE n < 2
) CYCLE i2, i4, i8, f4, f8, nu, tx, vc, bc, nm, ch, by, bo, da, ti, ts, tz, iv, uu, oi SET c USING p
SELECT n, c, p FROM t;
WITH RECURSIVE t(a, b) AS (SELECT '{x,y}'::text[], NULL::int UNION ALL SELECT a, b FROM t)
  CYCLE a, b SET c USING p
SELECT * FROM t;
-- quoting inside records and arrays
WITH RECURSIVE t(a) AS (SELECT '' UNION ALL SELECT a || ' ' FROM t WHERE length(a) < 2)
  SEARCH DEPTH FIRST BY a SET s
SELECT a, s, length(a) FROM t ORDER BY s;
WITH RECURSIVE t(a) AS (SELECT 'NULL' UNION ALL SELECT a || '\' FROM t WHERE length(a) < 6)
  SEARCH BREADTH FIRST BY a SET s
SELECT a, s FROM t ORDER BY s;
WITH RECURSIVE t(a) AS (SELECT '(x)' UNION ALL SELECT a || '{' FROM t WHERE length(a) < 5)
  SEARCH DEPTH FIRST BY a SET s
SELECT a, s, s[1], s || s FROM t ORDER BY s DESC;
-- SEARCH: depth-first and breadth-first order
WITH RECURSIVE st(id, parent) AS (
    SELECT id, parent FROM tree WHERE parent IS NULL
  UNION ALL
    SELECT t.id, t.parent FROM tree t JOIN st ON t.parent = st.id
) SEARCH DEPTH FIRST BY id SET ordercol
SELECT * FROM st ORDER BY ordercol;
WITH RECURSIVE st(id, parent) AS (
    SELECT id, parent FROM tree WHERE parent IS NULL
  UNION ALL
    SELECT t.id, t.parent FROM tree t JOIN st ON t.parent = st.id
) SEARCH BREADTH FIRST BY id SET ordercol
SELECT * FROM st ORDER BY ordercol;
WITH RECURSIVE st(id, parent) AS (
    SELECT id, parent FROM tree WHERE parent IS NULL
  UNION ALL
    SELECT t.id, t.parent FROM tree t JOIN st ON t.parent = st.id
) SEARCH DEPTH FIRST BY parent, id SET ordercol
SELECT * FROM st ORDER BY ordercol DESC;
-- SEARCH and CYCLE together, over the cyclic graph
WITH RECURSIVE search_graph(f, t, label) AS (
    SELECT * FROM graph g
  UNION ALL
    SELECT g.* FROM graph g, search_graph sg WHERE g.f = sg.t
) SEARCH DEPTH FIRST BY f, t SET seq
  CYCLE f, t SET is_cycle USING path
SELECT * FROM search_graph ORDER BY seq;
WITH RECURSIVE search_graph(f, t, label) AS (
    SELECT * FROM graph g
  UNION ALL
    SELECT g.* FROM graph g, search_graph sg WHERE g.f = sg.t
) SEARCH BREADTH FIRST BY f, t SET seq
  CYCLE f, t SET is_cycle USING path
SELECT * FROM search_graph ORDER BY seq;
-- terms that are not plain selects: aggregates, DISTINCT, LIMIT
WITH RECURSIVE t(n, k) AS (
    SELECT count(*), 1 FROM tree
  UNION ALL
    SELECT DISTINCT n - 1, k + 1 FROM t WHERE n > 5
) SEARCH DEPTH FIRST BY n SET s CYCLE k SET c USING p
SELECT * FROM t ORDER BY s;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL (SELECT n % 3 + 1 FROM t ORDER BY 1 LIMIT 1))
  CYCLE n SET c USING p
SELECT * FROM t;
-- the recursive query is computed once, however often it is read
WITH RECURSIVE t(n, r) AS (SELECT 1, random() UNION ALL SELECT n % 4 + 1, random() FROM t)
  CYCLE n SET c USING p
SELECT count(*) FROM t a JOIN t b USING (n, r, c);
-- plans
EXPLAIN (COSTS OFF)
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3)
  SEARCH DEPTH FIRST BY n SET s
SELECT * FROM t ORDER BY s;
EXPLAIN (COSTS OFF)
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3)
  CYCLE n SET c USING p
SELECT * FROM t;
EXPLAIN (COSTS OFF)
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3)
  CYCLE n SET c TO 'Y' DEFAULT 'N' USING p
SELECT * FROM t;
EXPLAIN (COSTS OFF)
WITH RECURSIVE t(n, k) AS (SELECT count(*), 1 FROM tree UNION ALL SELECT n - 1, k + 1 FROM t WHERE n > 5)
  CYCLE k SET c USING p
SELECT * FROM t;
-- errors
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n % 3 + 1 FROM t) CYCLE x SET c USING p SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n % 3 + 1 FROM t) CYCLE n, n SET c USING p SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT 2 FROM t WHERE false) CYCLE n SET n USING p SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT 2 FROM t WHERE false) CYCLE n SET c USING n SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n % 3 + 1 FROM t) CYCLE n SET c USING c SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n % 3 + 1 FROM t) CYCLE n SET n USING p SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n % 3 + 1 FROM t) CYCLE n SET c TO true DEFAULT 0 USING p SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n % 3 + 1 FROM t) CYCLE n SET c TO 1 DEFAULT 'x' USING p SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) SEARCH DEPTH FIRST BY x SET s SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) SEARCH DEPTH FIRST BY n, n SET s SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT 2 FROM t WHERE false) SEARCH DEPTH FIRST BY n SET n SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) SEARCH DEPTH FIRST BY n SET n SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) SEARCH DEPTH FIRST BY n SET s CYCLE n SET s USING p SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) SEARCH DEPTH FIRST BY n SET s CYCLE n SET c USING s SELECT * FROM t;
WITH t(n) AS (SELECT 1) SEARCH DEPTH FIRST BY n SET s SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1) CYCLE n SET c USING p SELECT * FROM t;
WITH RECURSIVE t(n) AS ((SELECT 1 UNION SELECT 2) UNION ALL SELECT n + 1 FROM t WHERE n < 3) CYCLE n SET c USING p SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL (SELECT n + 1 FROM t WHERE n < 3 UNION SELECT 5)) CYCLE n SET c USING p SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT s.n + 1 FROM (SELECT n FROM t) s WHERE s.n < 3) CYCLE n SET c USING p SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) SEARCH DEPTH FIRST BY n SET s SELECT * FROM t WHERE s > '{"(1)"}';
DROP TABLE graph, tree;
