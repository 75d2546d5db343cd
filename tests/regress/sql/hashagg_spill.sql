-- Hash aggregation past work_mem: with work_mem at its minimum the hash
-- table spills to disk and processes its partitions in later batches;
-- every answer must be what PostgreSQL gives (and what the same query
-- gives in memory).  Each query reduces its many groups to one row.
SET work_mem = '64kB';

-- one int key, 300k groups, two aggregates
SELECT count(*), sum(c), min(g), max(g), sum(s)
FROM (SELECT g, count(*) AS c, sum(g::int8 * 2) AS s
      FROM generate_series(1, 300000) g GROUP BY g) x;

-- text keys with a NULL group, by-reference transition values (text,
-- numeric, the internal state of string_agg and numeric avg)
SELECT count(*), sum(n), sum(length(a)), sum(length(mx)), sum(nm), sum(av)
FROM (SELECT CASE WHEN g % 1000 = 0 THEN NULL ELSE md5((g % 50000)::text) END AS k,
             count(*) AS n,
             string_agg(g::text, ',') AS a,
             max(g::text) AS mx,
             sum(g::numeric / 3) AS nm,
             avg(g::numeric) AS av
      FROM generate_series(1, 150000) g GROUP BY 1) x;

-- a few groups checked in full after spilling
SELECT k, n, mn, mx, s FROM (
  SELECT g % 40000 AS k, count(*) AS n, min(g::text) AS mn, max(g::text) AS mx,
         sum(g::numeric) AS s
  FROM generate_series(1, 120000) g GROUP BY 1) x
WHERE k IN (0, 1, 17, 39999) ORDER BY k;

-- ORDER BY / DISTINCT inside aggregates: sorted aggregation, as in
-- PostgreSQL (no hash table), same answers at any work_mem
SELECT count(*), sum(length(a)), sum(length(d))
FROM (SELECT g % 5000 AS k, string_agg(g::text, ',' ORDER BY g) AS a,
             string_agg(DISTINCT (g % 7)::text, '') AS d
      FROM generate_series(1, 30000) g GROUP BY 1) x;

-- multi-column mixed-type keys, HAVING, avg/min/max/bool aggregates
SELECT count(*), sum(c), sum(mx), round(sum(av), 6), count(*) FILTER (WHERE b)
FROM (SELECT g % 30000 AS k1, (g % 3)::text AS k2, (g % 2 = 0) AS k3,
             count(*) AS c, max(g) AS mx, avg(g) AS av, bool_and(g > 10) AS b
      FROM generate_series(1, 180000) g GROUP BY 1, 2, 3
      HAVING count(*) > 1) x;

-- numeric keys that are equal but written differently group together
SELECT count(*), sum(c)
FROM (SELECT (g % 20000)::numeric / (1 + g % 2) * (1 + g % 2) AS k, count(*) AS c
      FROM generate_series(1, 80000) g GROUP BY 1) x;

-- NULL and non-NULL keys in two columns
SELECT count(*), sum(c), count(k1), count(k2)
FROM (SELECT NULLIF(g % 5000, 0) AS k1, NULLIF(g % 7, 3) AS k2, count(*) AS c
      FROM generate_series(1, 70000) g GROUP BY 1, 2) x;

-- the spilled grouping feeding a join
SELECT count(*), sum(x.c * y.c)
FROM (SELECT g % 25000 AS k, count(*) AS c FROM generate_series(1, 100000) g GROUP BY 1) x
JOIN (SELECT g % 25000 AS k, count(*) AS c FROM generate_series(1, 50000) g GROUP BY 1) y
  ON x.k = y.k;

-- DISTINCT over many rows (hashed like GROUP BY)
SELECT count(*), sum(v) FROM (SELECT DISTINCT g % 60000 AS v FROM generate_series(1, 180000) g) x;

-- Hashed INTERSECT / EXCEPT [ALL] past work_mem: the planner expects few
-- groups (an expression without statistics: 200), so it hashes, and the
-- table spills.  Keys with duplicates on both sides and NULL keys (NULLs
-- equal each other); only the first input's rows create groups.
EXPLAIN (COSTS OFF)
SELECT count(*), count(k), sum(k) FROM (
  SELECT NULLIF(g % 60000, 7) AS k FROM generate_series(1, 240000) g
  EXCEPT ALL
  SELECT NULLIF(g % 90000, 7) FROM generate_series(1, 150000) g) x;

SELECT count(*), count(k), sum(k) FROM (
  SELECT NULLIF(g % 60000, 7) AS k FROM generate_series(1, 240000) g
  INTERSECT
  SELECT NULLIF(g % 90000, 7) FROM generate_series(1, 150000) g) x;

SELECT count(*), count(k), sum(k) FROM (
  SELECT NULLIF(g % 60000, 7) AS k FROM generate_series(1, 240000) g
  INTERSECT ALL
  SELECT NULLIF(g % 90000, 7) FROM generate_series(1, 150000) g) x;

SELECT count(*), count(k), sum(k) FROM (
  SELECT NULLIF(g % 60000, 7) AS k FROM generate_series(1, 240000) g
  EXCEPT
  SELECT NULLIF(g % 90000, 7) FROM generate_series(1, 150000) g) x;

SELECT count(*), count(k), sum(k) FROM (
  SELECT NULLIF(g % 60000, 7) AS k FROM generate_series(1, 240000) g
  EXCEPT ALL
  SELECT NULLIF(g % 90000, 7) FROM generate_series(1, 150000) g) x;

-- the second input larger than the first, with groups the first lacks
SELECT count(*), count(k), sum(k) FROM (
  SELECT NULLIF(g % 30000, 0) AS k FROM generate_series(1, 120000) g
  EXCEPT ALL
  SELECT NULLIF(g % 70000, 0) FROM generate_series(1, 210000) g) x;

SELECT count(*), count(k), sum(k) FROM (
  SELECT NULLIF(g % 30000, 0) AS k FROM generate_series(1, 120000) g
  INTERSECT ALL
  SELECT NULLIF(g % 70000, 0) FROM generate_series(1, 210000) g) x;

-- INTERSECT reads the input with fewer expected groups first: here the
-- second (its filters are taken to keep 0.5% of the rows each, yet keep
-- them all), which creates the groups
EXPLAIN (COSTS OFF)
SELECT count(*), count(k), sum(k) FROM (
  SELECT NULLIF(g % 90000, 7) AS k FROM generate_series(1, 150000) g
  INTERSECT ALL
  SELECT NULLIF(g % 60000, 7) FROM generate_series(1, 240000) g
  WHERE (g % 7) * 0 = 0 AND (g % 5) * 0 = 0) x;

SELECT count(*), count(k), sum(k) FROM (
  SELECT NULLIF(g % 90000, 7) AS k FROM generate_series(1, 150000) g
  INTERSECT ALL
  SELECT NULLIF(g % 60000, 7) FROM generate_series(1, 240000) g
  WHERE (g % 7) * 0 = 0 AND (g % 5) * 0 = 0) x;

-- two columns, text keys, NULLs in either (the filter makes the first
-- input look small enough to hash)
EXPLAIN (COSTS OFF)
SELECT count(*), count(a), count(b), sum(a), sum(length(b)) FROM (
  SELECT NULLIF(g % 40000, 5) AS a,
         CASE WHEN g % 11 = 0 THEN NULL ELSE md5((g % 3)::text) END AS b
  FROM generate_series(1, 200000) g WHERE (g % 7) * 0 = 0
  INTERSECT
  SELECT NULLIF(g % 50000, 5),
         CASE WHEN g % 11 = 0 THEN NULL ELSE md5((g % 3)::text) END
  FROM generate_series(1, 100000) g) x;

SELECT count(*), count(a), count(b), sum(a), sum(length(b)) FROM (
  SELECT NULLIF(g % 40000, 5) AS a,
         CASE WHEN g % 11 = 0 THEN NULL ELSE md5((g % 3)::text) END AS b
  FROM generate_series(1, 200000) g WHERE (g % 7) * 0 = 0
  EXCEPT ALL
  SELECT NULLIF(g % 50000, 5),
         CASE WHEN g % 11 = 0 THEN NULL ELSE md5((g % 3)::text) END
  FROM generate_series(1, 100000) g) x;

SELECT count(*), count(a), count(b), sum(a), sum(length(b)) FROM (
  SELECT NULLIF(g % 40000, 5) AS a,
         CASE WHEN g % 11 = 0 THEN NULL ELSE md5((g % 3)::text) END AS b
  FROM generate_series(1, 200000) g WHERE (g % 7) * 0 = 0
  INTERSECT
  SELECT NULLIF(g % 50000, 5),
         CASE WHEN g % 11 = 0 THEN NULL ELSE md5((g % 3)::text) END
  FROM generate_series(1, 100000) g) x;

RESET work_mem;
-- the same set operations in memory
SELECT count(*), count(k), sum(k) FROM (
  SELECT NULLIF(g % 60000, 7) AS k FROM generate_series(1, 240000) g
  EXCEPT ALL
  SELECT NULLIF(g % 90000, 7) FROM generate_series(1, 150000) g) x;

SELECT count(*), count(a), count(b), sum(a), sum(length(b)) FROM (
  SELECT NULLIF(g % 40000, 5) AS a,
         CASE WHEN g % 11 = 0 THEN NULL ELSE md5((g % 3)::text) END AS b
  FROM generate_series(1, 200000) g WHERE (g % 7) * 0 = 0
  INTERSECT
  SELECT NULLIF(g % 50000, 5),
         CASE WHEN g % 11 = 0 THEN NULL ELSE md5((g % 3)::text) END
  FROM generate_series(1, 100000) g) x;

-- the same first query in memory
SELECT count(*), sum(c), min(g), max(g), sum(s)
FROM (SELECT g, count(*) AS c, sum(g::int8 * 2) AS s
      FROM generate_series(1, 300000) g GROUP BY g) x;
