-- External sorts: the queries of sort.sql's kinds over 2,000 to 100,000
-- generated rows, first with work_mem at its minimum (64kB: every sort
-- but a top-N one spills to runs on disk and merges them), then the very
-- same queries at 1GB (in memory); the two halves of the output must be
-- identical, and identical to PostgreSQL's.  Each query reduces its sorted
-- rows to one small row: a count, an md5 of every row's key in the order
-- produced (string_agg over an ordered subquery consumes it in that
-- order), windows of a few rows at given offsets.  Keys are unique, or
-- further keys make the order total, since a sort need not be stable.

-- e: 100,000 rows in scrambled order.  k: 100,000 distinct values
-- (7919 * i mod the prime 100003) spread over the whole int8 range; kn:
-- 50,016 distinct values with duplicates, every 10th row NULL; g: 100 values
-- with 1,000 rows each; t: md5 text (unique); tp: the same behind a shared
-- 24-byte prefix (or 14 bytes); n: numeric with mixed signs and scales;
-- t2: 25,000 distinct texts, each 4 times
CREATE TABLE e AS
SELECT i AS id,
       ((i::int8 * 7919) % 100003) * 80000000000000 - 4611686018427387904 AS k,
       CASE WHEN i % 10 = 0 THEN NULL ELSE ((i::int8 * 31337) % 50021)::int END AS kn,
       i % 100 AS g,
       md5(i::text) AS t,
       CASE WHEN i % 3 = 0 THEN 'shared-prefix/' ELSE 'shared-prefix/0123456789' END || md5(i::text) AS tp,
       ((i::int8 * 7919) % 100003)::numeric * 1.001 / 7 - 7000 AS n,
       md5((i % 25000)::text) AS t2
FROM generate_series(1, 100000) i;

-- w: 50,000 rows with a 192 to 1,760-byte pad
CREATE TABLE w AS
SELECT i AS id, (i * 7919) % 100003 AS k, repeat(md5(i::text), 6 + i % 50) AS pad
FROM generate_series(1, 50000) i;

-- the queries at work_mem 64kB
SET work_mem = '64kB';

-- int8 keys: the whole order, and windows of it
SELECT count(*), min(k), max(k), md5(string_agg(k::text, ',')) FROM (SELECT k FROM e ORDER BY k) s;
SELECT string_agg(k::text, ',') FROM (SELECT k FROM e ORDER BY k OFFSET 1000 LIMIT 5) s;
SELECT string_agg(id::text, ',') FROM (SELECT id FROM e ORDER BY k DESC OFFSET 75000 LIMIT 8) s;
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id, k FROM e ORDER BY k DESC) s;
-- an int8 key with many duplicates in an expression, ties broken by id
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id FROM e ORDER BY k % 1000, id DESC) s;

-- text keys
SELECT md5(string_agg(id::text, ',')), min(t), max(t) FROM (SELECT id, t FROM e ORDER BY t) s;
SELECT string_agg(t, ',') FROM (SELECT t FROM e ORDER BY t DESC OFFSET 61728 LIMIT 3) s;
-- long shared prefixes: abbreviated keys tie, the full comparison decides
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id FROM e ORDER BY tp DESC) s;
SELECT string_agg(right(tp, 12), ',') FROM (SELECT tp FROM e ORDER BY tp OFFSET 33330 LIMIT 4) s;
SELECT string_agg(t COLLATE "C", ',') FROM (SELECT t FROM e ORDER BY t COLLATE "C" OFFSET 99997) s;

-- numeric keys
SELECT md5(string_agg(n::text, ',')), min(n), max(n) FROM (SELECT n FROM e ORDER BY n) s;
SELECT string_agg(n::text, ' ') FROM (SELECT n FROM e ORDER BY n DESC OFFSET 49999 LIMIT 3) s;
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id FROM e ORDER BY round(n, -2), id) s;

-- DESC NULLS FIRST with NULLs mixed in (10,000 of them), and NULLS LAST
SELECT md5(string_agg(coalesce(kn::text, '-') || ':' || id, ',')) FROM (SELECT kn, id FROM e ORDER BY kn DESC NULLS FIRST, id) s;
SELECT string_agg(coalesce(kn::text, '-') || ':' || id, ',') FROM (SELECT kn, id FROM e ORDER BY kn DESC NULLS FIRST, id OFFSET 9998 LIMIT 4) s;
SELECT string_agg(coalesce(kn::text, '-') || ':' || id, ',') FROM (SELECT kn, id FROM e ORDER BY kn NULLS LAST, id DESC OFFSET 89998 LIMIT 4) s;

-- multi-column keys, 1,000 duplicates of each first key
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id FROM e ORDER BY g, t DESC) s;
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id FROM e ORDER BY g DESC, kn NULLS FIRST, n) s;
SELECT string_agg(g || ':' || id, ',') FROM (SELECT g, id FROM e ORDER BY g DESC, k OFFSET 1999 LIMIT 3) s;

-- wide rows (the pad travels through the sort)
SELECT count(*), sum(length(pad)), md5(string_agg(id || left(pad, 3) || length(pad), ','))
FROM (SELECT id, pad FROM w ORDER BY k, id) s;
SELECT string_agg(id || ':' || length(pad), ',') FROM (SELECT id, pad FROM w ORDER BY pad DESC OFFSET 25000 LIMIT 4) s;
-- rows so wide (8 to 11 kB, computed below the sort) that only a few
-- fit in 64kB
SELECT count(*), sum(length(p)), md5(string_agg(id::text, ','))
FROM (SELECT i AS id, repeat(md5(i::text), 250 + i % 100) AS p FROM generate_series(1, 2000) i
      ORDER BY md5(i::text)) s;

-- ORDER BY ... LIMIT (top-N: a bounded sort, which never spills)
SELECT string_agg(k::text, ',') FROM (SELECT k FROM e ORDER BY k LIMIT 10) s;
SELECT string_agg(t, ',') FROM (SELECT t FROM e ORDER BY t DESC LIMIT 3) s;
SELECT string_agg(id::text, ',') FROM (SELECT id FROM e ORDER BY kn DESC NULLS LAST, id LIMIT 10 OFFSET 100) s;
SELECT string_agg(n::text, ' ') FROM (SELECT n FROM e ORDER BY n LIMIT 4) s;

-- aggregates sorting their input
SELECT md5(string_agg(t, ',' ORDER BY t DESC)), count(DISTINCT t2), count(DISTINCT kn) FROM e;
SELECT md5(string_agg(kn::text, ',' ORDER BY kn NULLS FIRST, id)) FROM e;

-- sorted grouping, DISTINCT and set operations over external sorts
SET enable_hashagg = off;
SELECT count(*), sum(c), min(t2), max(t2) FROM (SELECT t2, count(*) AS c FROM e GROUP BY t2) s;
SELECT count(*), sum(c), sum(s) FROM (SELECT kn, count(*) AS c, sum(id) AS s FROM e GROUP BY kn) x;
SELECT md5(string_agg(g || ':' || c, ',')) FROM (SELECT g, kn % 3 AS r, count(*) AS c FROM e GROUP BY g, kn % 3 ORDER BY g DESC, r NULLS FIRST) s;
SELECT count(*) FROM (SELECT DISTINCT k % 35001 FROM e) s;
SELECT md5(string_agg(coalesce(x::text, '-'), ',')) FROM (SELECT DISTINCT kn AS x FROM e ORDER BY 1 DESC) s;
SELECT count(*), sum(x) FROM (SELECT k % 50000 AS x FROM e UNION SELECT id FROM e) s;
SELECT count(*), min(x), max(x) FROM (SELECT t2 AS x FROM e INTERSECT SELECT md5(id::text) FROM e) s;
SELECT count(*) FROM (SELECT t FROM e EXCEPT SELECT t2 FROM e) s;
RESET enable_hashagg;

-- a sort read again and again: under a correlated subquery, and as the
-- inner side of a join
-- (the first reads a function scan, not e: PostgreSQL 15 answers it wrongly
-- when it runs the subplan as a parallel Gather Merge over a bounded sort,
-- and tupledb has no max_parallel_workers_per_gather to turn that off)
SELECT o.x, (SELECT k FROM (SELECT ((i::int8 * 7919) % 100003) * 80000000000000 - 4611686018427387904 AS k
                            FROM generate_series(1, 100000) i) s
             ORDER BY k OFFSET 1000 * o.x LIMIT 1)
FROM generate_series(0, 5) o(x);
SELECT o.x, (SELECT t FROM e WHERE e.g = o.x ORDER BY t DESC OFFSET 100 LIMIT 1) FROM generate_series(1, 4) o(x);
SET enable_hashjoin = off;
SELECT count(*), sum(b.id) FROM generate_series(1, 4) a(x)
JOIN (SELECT id, t FROM e ORDER BY t LIMIT 20000) b ON b.id % 4 = a.x - 1;
RESET enable_hashjoin;

-- the same queries again, in memory
SET work_mem = '1GB';

-- int8 keys: the whole order, and windows of it
SELECT count(*), min(k), max(k), md5(string_agg(k::text, ',')) FROM (SELECT k FROM e ORDER BY k) s;
SELECT string_agg(k::text, ',') FROM (SELECT k FROM e ORDER BY k OFFSET 1000 LIMIT 5) s;
SELECT string_agg(id::text, ',') FROM (SELECT id FROM e ORDER BY k DESC OFFSET 75000 LIMIT 8) s;
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id, k FROM e ORDER BY k DESC) s;
-- an int8 key with many duplicates in an expression, ties broken by id
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id FROM e ORDER BY k % 1000, id DESC) s;

-- text keys
SELECT md5(string_agg(id::text, ',')), min(t), max(t) FROM (SELECT id, t FROM e ORDER BY t) s;
SELECT string_agg(t, ',') FROM (SELECT t FROM e ORDER BY t DESC OFFSET 61728 LIMIT 3) s;
-- long shared prefixes: abbreviated keys tie, the full comparison decides
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id FROM e ORDER BY tp DESC) s;
SELECT string_agg(right(tp, 12), ',') FROM (SELECT tp FROM e ORDER BY tp OFFSET 33330 LIMIT 4) s;
SELECT string_agg(t COLLATE "C", ',') FROM (SELECT t FROM e ORDER BY t COLLATE "C" OFFSET 99997) s;

-- numeric keys
SELECT md5(string_agg(n::text, ',')), min(n), max(n) FROM (SELECT n FROM e ORDER BY n) s;
SELECT string_agg(n::text, ' ') FROM (SELECT n FROM e ORDER BY n DESC OFFSET 49999 LIMIT 3) s;
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id FROM e ORDER BY round(n, -2), id) s;

-- DESC NULLS FIRST with NULLs mixed in (10,000 of them), and NULLS LAST
SELECT md5(string_agg(coalesce(kn::text, '-') || ':' || id, ',')) FROM (SELECT kn, id FROM e ORDER BY kn DESC NULLS FIRST, id) s;
SELECT string_agg(coalesce(kn::text, '-') || ':' || id, ',') FROM (SELECT kn, id FROM e ORDER BY kn DESC NULLS FIRST, id OFFSET 9998 LIMIT 4) s;
SELECT string_agg(coalesce(kn::text, '-') || ':' || id, ',') FROM (SELECT kn, id FROM e ORDER BY kn NULLS LAST, id DESC OFFSET 89998 LIMIT 4) s;

-- multi-column keys, 1,000 duplicates of each first key
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id FROM e ORDER BY g, t DESC) s;
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id FROM e ORDER BY g DESC, kn NULLS FIRST, n) s;
SELECT string_agg(g || ':' || id, ',') FROM (SELECT g, id FROM e ORDER BY g DESC, k OFFSET 1999 LIMIT 3) s;

-- wide rows (the pad travels through the sort)
SELECT count(*), sum(length(pad)), md5(string_agg(id || left(pad, 3) || length(pad), ','))
FROM (SELECT id, pad FROM w ORDER BY k, id) s;
SELECT string_agg(id || ':' || length(pad), ',') FROM (SELECT id, pad FROM w ORDER BY pad DESC OFFSET 25000 LIMIT 4) s;
-- rows so wide (8 to 11 kB, computed below the sort) that only a few
-- fit in 64kB
SELECT count(*), sum(length(p)), md5(string_agg(id::text, ','))
FROM (SELECT i AS id, repeat(md5(i::text), 250 + i % 100) AS p FROM generate_series(1, 2000) i
      ORDER BY md5(i::text)) s;

-- ORDER BY ... LIMIT (top-N: a bounded sort, which never spills)
SELECT string_agg(k::text, ',') FROM (SELECT k FROM e ORDER BY k LIMIT 10) s;
SELECT string_agg(t, ',') FROM (SELECT t FROM e ORDER BY t DESC LIMIT 3) s;
SELECT string_agg(id::text, ',') FROM (SELECT id FROM e ORDER BY kn DESC NULLS LAST, id LIMIT 10 OFFSET 100) s;
SELECT string_agg(n::text, ' ') FROM (SELECT n FROM e ORDER BY n LIMIT 4) s;

-- aggregates sorting their input
SELECT md5(string_agg(t, ',' ORDER BY t DESC)), count(DISTINCT t2), count(DISTINCT kn) FROM e;
SELECT md5(string_agg(kn::text, ',' ORDER BY kn NULLS FIRST, id)) FROM e;

-- sorted grouping, DISTINCT and set operations over external sorts
SET enable_hashagg = off;
SELECT count(*), sum(c), min(t2), max(t2) FROM (SELECT t2, count(*) AS c FROM e GROUP BY t2) s;
SELECT count(*), sum(c), sum(s) FROM (SELECT kn, count(*) AS c, sum(id) AS s FROM e GROUP BY kn) x;
SELECT md5(string_agg(g || ':' || c, ',')) FROM (SELECT g, kn % 3 AS r, count(*) AS c FROM e GROUP BY g, kn % 3 ORDER BY g DESC, r NULLS FIRST) s;
SELECT count(*) FROM (SELECT DISTINCT k % 35001 FROM e) s;
SELECT md5(string_agg(coalesce(x::text, '-'), ',')) FROM (SELECT DISTINCT kn AS x FROM e ORDER BY 1 DESC) s;
SELECT count(*), sum(x) FROM (SELECT k % 50000 AS x FROM e UNION SELECT id FROM e) s;
SELECT count(*), min(x), max(x) FROM (SELECT t2 AS x FROM e INTERSECT SELECT md5(id::text) FROM e) s;
SELECT count(*) FROM (SELECT t FROM e EXCEPT SELECT t2 FROM e) s;
RESET enable_hashagg;

-- a sort read again and again: under a correlated subquery, and as the
-- inner side of a join
-- (the first reads a function scan, not e: PostgreSQL 15 answers it wrongly
-- when it runs the subplan as a parallel Gather Merge over a bounded sort,
-- and tupledb has no max_parallel_workers_per_gather to turn that off)
SELECT o.x, (SELECT k FROM (SELECT ((i::int8 * 7919) % 100003) * 80000000000000 - 4611686018427387904 AS k
                            FROM generate_series(1, 100000) i) s
             ORDER BY k OFFSET 1000 * o.x LIMIT 1)
FROM generate_series(0, 5) o(x);
SELECT o.x, (SELECT t FROM e WHERE e.g = o.x ORDER BY t DESC OFFSET 100 LIMIT 1) FROM generate_series(1, 4) o(x);
SET enable_hashjoin = off;
SELECT count(*), sum(b.id) FROM generate_series(1, 4) a(x)
JOIN (SELECT id, t FROM e ORDER BY t LIMIT 20000) b ON b.id % 4 = a.x - 1;
RESET enable_hashjoin;
RESET work_mem;
