--
-- Hash aggregation (issue 8): GROUP BY (a HashAggregate in both engines
-- unless the plan says otherwise) over every aggregate tupledb has; NULL
-- groups and all-NULL inputs; keys of mixed types whose equal values
-- differ in their bytes (numeric 1.0 / 1.00, float8 -0 / 0, interval
-- 1 day / 24 hours, NaN); text keys short, long, compressed and out of
-- line; DISTINCT, ORDER BY and FILTER inside aggregates; HAVING; grouping
-- expressions; GROUP BY columns left out of the select list; subqueries
-- and joins around a GROUP BY; 100k groups; and the big queries again
-- with work_mem = 64kB (spill tests once HashAggregate spills: the
-- results must not change).  Every result is ORDER BY'd; float results
-- whose last digits depend on the order of summation are rounded.
--
CREATE TABLE ha (k int, i2 int2, i4 int4, i8 int8, n numeric, f4 float4, f8 float8,
                 iv interval, d date, tm time, ts timestamp, tz timestamptz,
                 tx text, bp char(4), o oid, b bool, by bytea);
INSERT INTO ha VALUES
    (1, 1, 10, 100, 1.5, 0.5, 0.25, '1 day', '2020-01-01', '10:00', '2020-01-01 10:00', '2020-01-01 10:00+00', 'apple', 'ab', 5, true, '\x01'),
    (1, 2, 20, 200, 2.25, 1.5, -0.75, '2 hours', '2021-06-30', '23:59:59', '2021-06-30 00:00', '2021-06-30 12:00+02', 'pear', 'c', 7, true, '\x0203'),
    (1, NULL, 30, NULL, NULL, NULL, 8.5, NULL, NULL, '00:00', NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (2, -3, -40, -9000000000, -3.125, -2.25, 1e10, '-3 days', '1999-12-31', '12:30', '1999-12-31 23:59:59.5', '1999-12-31 23:00-05', '', 'zz', 1, false, '\x'),
    (2, 4, 40, 9000000000, 100000000000000000000.5, 1024, 0.125, '1 year 2 mons', '2000-02-29', '06:15', '2000-02-29 06:15', '2000-02-29 06:15+00', 'Zebra', 'a', 4000000000, true, '\xff'),
    (2, 4, 40, 9000000000, 0.0001, 0.5, 3.5, '00:00:01', '2000-03-01', '06:15:00.000001', '2000-03-01 00:00', '2000-03-01 00:00+00', 'zebra', 'a  ', 3, false, '\x00ff'),
    (3, 5, 50, 500, 5, 5, 5, '5 mins', '2024-02-29', '05:05', '2024-02-29 05:05', '2024-02-29 05:05+00', 'five', 'five', 5, NULL, '\x05'),
    (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (NULL, 7, 70, 700, 7.7, 7.5, 7.25, '7 days', '2007-07-07', '07:07', '2007-07-07 07:07', '2007-07-07 07:07+00', 'null key', 'nk', 70, true, '\x07'),
    (NULL, 8, 80, 800, 8.8, 8.5, -8.25, '8 days', '2008-08-08', '08:08', '2008-08-08 08:08', '2008-08-08 08:08+00', 'null key 2', 'nk2', 80, false, '\x08');
-- count, sum and avg over every integer, numeric, float and interval type
SELECT k, count(*), count(i2), count(tx), count(b), count(by) FROM ha GROUP BY k ORDER BY k;
SELECT k, sum(i2), sum(i4), sum(i8), sum(n) FROM ha GROUP BY k ORDER BY k;
SELECT k, sum(f4), sum(f8), sum(iv) FROM ha GROUP BY k ORDER BY k;
SELECT k, avg(i2), avg(i4), avg(i8), avg(n) FROM ha GROUP BY k ORDER BY k;
SELECT k, avg(f4), avg(f8), avg(iv) FROM ha GROUP BY k ORDER BY k;
-- min and max over every orderable type
SELECT k, min(i2), max(i2), min(i4), max(i4), min(i8), max(i8), min(o), max(o) FROM ha GROUP BY k ORDER BY k;
SELECT k, min(n), max(n), min(f4), max(f4), min(f8), max(f8) FROM ha GROUP BY k ORDER BY k;
SELECT k, min(iv), max(iv), min(d), max(d), min(tm), max(tm) FROM ha GROUP BY k ORDER BY k;
SELECT k, min(ts), max(ts), min(tz), max(tz) FROM ha GROUP BY k ORDER BY k;
SELECT k, min(tx), max(tx), min(bp), max(bp) FROM ha GROUP BY k ORDER BY k;
-- bool aggregates, string_agg over text and bytea
SELECT k, bool_and(b), bool_or(b), every(b), bool_and(i4 > 0), bool_or(i4 IS NULL) FROM ha GROUP BY k ORDER BY k;
SELECT k, string_agg(tx, ',' ORDER BY tx), string_agg(tx, NULL ORDER BY tx DESC), string_agg(bp::text, '|' ORDER BY i4, tx) FROM ha GROUP BY k ORDER BY k;
SELECT k, string_agg(by, '\xee'::bytea ORDER BY by), string_agg(by, NULL ORDER BY by DESC) FROM ha GROUP BY k ORDER BY k;
-- the variance family: exact over integers and numeric
SELECT k, stddev(i2), stddev_samp(i4), stddev_pop(i8), variance(n) FROM ha GROUP BY k ORDER BY k;
SELECT k, var_samp(i2), var_pop(i4), var_samp(i8), var_pop(n), stddev_samp(n), stddev_pop(n) FROM ha GROUP BY k ORDER BY k;
-- over float4 and float8, rounded
SELECT k, round(stddev(f4)::numeric, 6), round(variance(f4)::numeric, 6), round(stddev_pop(f8)::numeric, 6),
       round(var_pop(f8)::numeric, 6), round(stddev_samp(f8)::numeric, 6), round(var_samp(f4)::numeric, 6)
  FROM ha GROUP BY k ORDER BY k;
-- the regression family, rounded
SELECT k, regr_count(f8, f4), round(regr_sxx(f8, f4)::numeric, 6), round(regr_syy(f8, f4)::numeric, 6),
       round(regr_sxy(f8, f4)::numeric, 6), round(regr_avgx(f8, f4)::numeric, 6), round(regr_avgy(f8, f4)::numeric, 6)
  FROM ha GROUP BY k ORDER BY k;
SELECT k, round(regr_r2(f8, i4)::numeric, 6), round(regr_slope(f8, i4)::numeric, 6), round(regr_intercept(f8, i4)::numeric, 6),
       round(covar_pop(f8, i4)::numeric, 6), round(covar_samp(f8, i4)::numeric, 6), round(corr(f8, i4)::numeric, 6)
  FROM ha GROUP BY k ORDER BY k;
-- a group whose inputs are all NULL (k = 4), and every aggregate of an
-- all-NULL column
SELECT k, count(*), count(i4), sum(i4), avg(i8), min(tx), max(d), bool_and(b), string_agg(tx, ','), stddev(n), var_pop(f8)
  FROM ha WHERE k = 4 GROUP BY k;
SELECT k, count(x), sum(x), avg(x), min(x), max(x), stddev(x), variance(x), string_agg(x::text, ',')
  FROM (SELECT k, NULL::int AS x FROM ha) s GROUP BY k ORDER BY k;
-- the NULL group, first and last
SELECT k, count(*) FROM ha GROUP BY k ORDER BY k NULLS FIRST;
SELECT k IS NULL AS null_key, count(*), sum(i4) FROM ha GROUP BY k IS NULL ORDER BY 1;
-- DISTINCT inside aggregates
SELECT k, count(DISTINCT i2), sum(DISTINCT i2), avg(DISTINCT i8), count(DISTINCT bp), string_agg(DISTINCT bp, ',' ORDER BY bp) FROM ha GROUP BY k ORDER BY k;
SELECT b, count(DISTINCT k), count(k), sum(DISTINCT k), count(DISTINCT tx) FROM ha GROUP BY b ORDER BY b;
-- ORDER BY inside aggregates: several keys, DESC, NULLS FIRST
SELECT k, string_agg(tx, '/' ORDER BY i2 DESC NULLS FIRST, tx), string_agg(coalesce(tx, '?'), '' ORDER BY tx NULLS FIRST) FROM ha GROUP BY k ORDER BY k;
-- FILTER, alone and with DISTINCT and ORDER BY
SELECT k, count(*) FILTER (WHERE b), sum(i4) FILTER (WHERE i4 > 10), count(*) FILTER (WHERE b IS NULL),
       string_agg(tx, ',' ORDER BY tx) FILTER (WHERE tx <> ''), count(DISTINCT i2) FILTER (WHERE i8 > 0)
  FROM ha GROUP BY k ORDER BY k;
SELECT k, min(i4) FILTER (WHERE false), max(i4) FILTER (WHERE NULL), count(*) FILTER (WHERE NULL) FROM ha GROUP BY k ORDER BY k;
-- HAVING: on aggregates absent from the select list, on group columns,
-- with no aggregate at all
SELECT k, count(*) FROM ha GROUP BY k HAVING sum(i4) > 20 ORDER BY k;
SELECT k, sum(i8) FROM ha GROUP BY k HAVING count(*) > 1 AND min(tx) IS NOT NULL ORDER BY k;
SELECT k FROM ha GROUP BY k HAVING k > 1 ORDER BY k;
SELECT k, count(*) FROM ha GROUP BY k HAVING bool_or(b) ORDER BY k;
SELECT count(*) FROM ha HAVING count(*) > 100;
-- grouping expressions
SELECT k + 1, (k + 1) * 2, count(*) FROM ha GROUP BY k + 1 ORDER BY 1;
SELECT i4 % 20 AS r, count(*), sum(i4) FROM ha GROUP BY i4 % 20 ORDER BY r;
SELECT lower(tx), count(*) FROM ha GROUP BY lower(tx) ORDER BY 1;
SELECT CASE WHEN i4 > 30 THEN 'big' WHEN i4 > 0 THEN 'small' ELSE 'other' END AS size, count(*), min(i4), max(i4)
  FROM ha GROUP BY 1 ORDER BY 1;
SELECT date_trunc('year', ts) AS y, count(*) FROM ha GROUP BY y ORDER BY y;
SELECT length(tx) AS len, count(*) FROM ha GROUP BY 1 ORDER BY 1;
-- group columns left out of the select list
SELECT count(*), sum(i4) FROM ha GROUP BY k ORDER BY 1, 2;
SELECT sum(i2), max(tx) FROM ha GROUP BY k, b ORDER BY 2, 1;
SELECT count(*) FROM ha GROUP BY d ORDER BY 1;
-- correlated subqueries in the select list and HAVING referencing group
-- columns
SELECT k, (SELECT count(*) FROM ha h2 WHERE h2.k = ha.k AND h2.b) AS true_rows,
       (SELECT max(h3.tx) FROM ha h3 WHERE h3.k > ha.k) AS max_after,
       EXISTS (SELECT 1 FROM ha h4 WHERE h4.i2 = ha.k) AS is_i2
  FROM ha GROUP BY k ORDER BY k;
SELECT k, count(*) FROM ha GROUP BY k
  HAVING count(*) >= (SELECT count(*) FROM ha h2 WHERE h2.k = ha.k AND h2.i4 IS NOT NULL) ORDER BY k;
SELECT b, (SELECT string_agg(DISTINCT h2.k::text, ',' ORDER BY h2.k::text) FROM ha h2 WHERE h2.b = ha.b) FROM ha GROUP BY b ORDER BY b;
-- keys of mixed types: equal values with different bytes fall into one
-- group, which shows the first value seen (numeric 1.0 / 1.00 / 1, float8
-- 0 / -0, interval 1 day / 24 hours, NaN), and NULL in any column makes a
-- group of its own
CREATE TABLE mk (a int, t text, n numeric, f float8, d date, b bool, u uuid, iv interval);
INSERT INTO mk VALUES
    (1, 'x', 1.0, 0, '2020-01-01', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day'),
    (1, 'x', 1.00, '-0', '2020-01-01', true, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '24 hours'),
    (1, 'x', 1, 0, '2020-01-01', true, 'a0eebc999c0b4ef8bb6d6bb9bd380a11', '1440 mins'),
    (1, 'X', 1.0, 0, '2020-01-01', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day'),
    (2, 'x', 1.0, 0, '2020-01-01', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day'),
    (1, 'x', 1.0, 0, '2020-01-02', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day'),
    (1, 'x', 1.0, 0, '2020-01-01', false, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day'),
    (1, 'x', 1.0, 0, '2020-01-01', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12', '1 day'),
    (1, 'x', 1.0, 0, '2020-01-01', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 mon'),
    (1, 'x', 1.0, 0, '2020-01-01', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '30 days'),
    (NULL, 'x', 1.0, 0, '2020-01-01', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day'),
    (1, NULL, 1.0, 0, '2020-01-01', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day'),
    (1, 'x', NULL, 0, '2020-01-01', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day'),
    (1, 'x', 1.0, NULL, '2020-01-01', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day'),
    (1, 'x', 1.0, 0, NULL, true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day'),
    (1, 'x', 1.0, 0, '2020-01-01', NULL, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day'),
    (1, 'x', 1.0, 0, '2020-01-01', true, NULL, '1 day'),
    (1, 'x', 1.0, 0, '2020-01-01', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', NULL),
    (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
SELECT a, t, n, f, d, b, u, iv, count(*) FROM mk GROUP BY a, t, n, f, d, b, u, iv ORDER BY a, t, n, f, d, b, u, iv;
SELECT n, count(*), min(n::text), max(n::text) FROM mk GROUP BY n ORDER BY n;
SELECT f, count(*) FROM mk GROUP BY f ORDER BY f;
SELECT iv, count(*) FROM mk GROUP BY iv ORDER BY iv;
SELECT u, count(*) FROM mk GROUP BY u ORDER BY u;
SELECT t, b, count(*) FROM mk GROUP BY t, b ORDER BY t, b;
-- the same column twice, and the key order reversed
SELECT a, a, count(*) FROM mk GROUP BY a, a ORDER BY a;
SELECT iv, u, n, a, count(*) FROM mk GROUP BY iv, u, n, a ORDER BY a, n, u, iv;
-- float8 and numeric specials: -0 / 0, NaN, infinities (in tables, so
-- that PostgreSQL hashes rather than sorting the few VALUES rows)
CREATE TABLE fk (f float8, f4 float4);
INSERT INTO fk VALUES (0, '-0'), ('-0', 0), ('NaN', 'NaN'), ('NaN', 1.5), ('Infinity', 'NaN'), ('-Infinity', 1.5),
    ('Infinity', '-Infinity'), (1e308, NULL), (NULL, 'Infinity');
SELECT f, count(*) FROM fk GROUP BY f ORDER BY f;
SELECT f4, count(*) FROM fk GROUP BY f4 ORDER BY f4;
CREATE TABLE nk (n numeric);
INSERT INTO nk VALUES (1.000), (1), (1.0), ('NaN'), ('NaN'), (0), (-0.00), (0.0), (NULL), (1e-20), (0.00000000000000000001);
SELECT n, count(*) FROM nk GROUP BY n ORDER BY n;
-- text keys: empty, one byte, around the 1-byte varlena header limit
-- (126/127/128 bytes), long and compressible (compressed in the table),
-- long and random (stored out of line), equal up to the last byte
CREATE TABLE tk (id int, t text);
INSERT INTO tk SELECT g, CASE g % 12
    WHEN 0 THEN ''
    WHEN 1 THEN 'a'
    WHEN 2 THEN 'ab'
    WHEN 3 THEN repeat('x', 126)
    WHEN 4 THEN repeat('x', 127)
    WHEN 5 THEN repeat('x', 128)
    WHEN 6 THEN repeat('y', 3000)
    WHEN 7 THEN repeat('y', 2999) || 'z'
    WHEN 8 THEN (SELECT string_agg(md5(s::text), '' ORDER BY s) FROM generate_series(1, 200) s)
    WHEN 9 THEN (SELECT string_agg(md5(s::text), '' ORDER BY s) FROM generate_series(1, 200) s) || '!'
    WHEN 10 THEN 'A'
    ELSE NULL END
  FROM generate_series(1, 120) g;
SELECT length(t), md5(t), count(*), min(id), max(id) FROM tk GROUP BY t ORDER BY 1, 2;
SELECT left(t, 3), length(t), count(*) FROM tk GROUP BY t ORDER BY 2, 1;
-- the same long values from the table (compressed / out of line) and
-- computed (plain) fall into one group
SELECT length(t), count(*) FROM (
    SELECT t FROM tk
    UNION ALL SELECT repeat('y', 3000)
    UNION ALL SELECT (SELECT string_agg(md5(s::text), '' ORDER BY s) FROM generate_series(1, 200) s)
  ) s GROUP BY t ORDER BY 1, 2;
-- text with multi-byte characters, and char(n) keys: trailing blanks do
-- not count
CREATE TABLE ck (t text, bp char(5), by bytea);
INSERT INTO ck VALUES ('é', 'a', '\x'), ('e', 'a  ', '\x00'), ('é', 'a    ', '\x0000'), ('日本', 'b', '\x00'),
    ('日本', ' a', '\xff'), ('ß', NULL, NULL), (NULL, 'b ', NULL);
SELECT t, count(*) FROM ck GROUP BY t ORDER BY t;
SELECT bp, length(bp), octet_length(bp), count(*) FROM ck GROUP BY bp ORDER BY bp;
-- bytea keys
SELECT by, count(*) FROM ck GROUP BY by ORDER BY by;
-- many groups: 100,000 int groups, 100,000 text groups, groups of one
-- and of many rows
CREATE TABLE hb (g int, k int, t text, v numeric);
INSERT INTO hb SELECT g, g % 100000, md5((g % 100000)::text), g % 7 FROM generate_series(1, 250000) g;
SELECT count(*), sum(c), min(c), max(c), sum(k::int8), sum(s) FROM (SELECT k, count(*) AS c, sum(g) AS s FROM hb GROUP BY k) s;
SELECT k, count(*), sum(g), min(t), sum(v) FROM hb GROUP BY k ORDER BY k LIMIT 5;
SELECT k, count(*), sum(g) FROM hb GROUP BY k ORDER BY sum(g) DESC, k LIMIT 5;
SELECT count(*), sum(c), count(DISTINCT c) FROM (SELECT t, count(*) AS c FROM hb GROUP BY t) s;
SELECT t, count(*), min(g), max(g) FROM hb GROUP BY t ORDER BY t LIMIT 3;
SELECT count(*), sum(n), min(m), max(m) FROM (SELECT g, count(*) AS n, max(t) AS m FROM hb GROUP BY g) s;
SELECT count(*), sum(c) FROM (SELECT k, v, count(*) AS c FROM hb GROUP BY k, v) s;
SELECT v, count(*), count(DISTINCT k), sum(g), min(t), max(t) FROM hb GROUP BY v ORDER BY v;
SELECT count(*), sum(length(s)), min(s), max(s) FROM (SELECT k, string_agg(g::text, ',' ORDER BY g) AS s FROM hb GROUP BY k) x;
SELECT count(*), sum(a), sum(c) FROM (SELECT g % 100000 AS k, avg(g) AS a, count(*) AS c FROM generate_series(1, 300000) g GROUP BY 1) s;
-- grouped results feeding an outer query: filtered, joined, grouped
-- again, in IN, in a CTE, in a set operation
SELECT * FROM (SELECT k, count(*) AS c, sum(i4) AS s FROM ha GROUP BY k) s WHERE c > 1 ORDER BY k;
SELECT s.k, s.c, h.tx FROM (SELECT k, count(*) AS c FROM ha GROUP BY k) s JOIN ha h ON h.k = s.k AND h.i4 = s.c * 10 ORDER BY s.k;
SELECT c, count(*) AS groups FROM (SELECT k, count(*) AS c FROM hb GROUP BY k) s GROUP BY c ORDER BY c;
SELECT c, count(*) FROM (SELECT t, count(*) AS c FROM tk GROUP BY t) s GROUP BY c ORDER BY c;
SELECT k, tx FROM ha WHERE k IN (SELECT k FROM ha GROUP BY k HAVING count(*) > 2) ORDER BY k, tx;
SELECT k, tx FROM ha WHERE (k, i4) IN (SELECT k, max(i4) FROM ha GROUP BY k) ORDER BY k;
WITH g AS (SELECT b, count(*) AS c, sum(i8) AS s FROM ha GROUP BY b)
SELECT g.b, g.c, g.s, h.k FROM g JOIN ha h ON h.i2 = g.c ORDER BY 1, 4;
SELECT k, count(*) FROM ha GROUP BY k UNION ALL SELECT -1, count(*) FROM ha ORDER BY 1, 2;
SELECT max(c), min(c) FROM (SELECT k, count(*) AS c FROM ha GROUP BY k) s;
-- GROUP BY over joins: keys from either side, NULLs from an outer join
CREATE TABLE hj (k int, w text);
INSERT INTO hj VALUES (1, 'one'), (1, 'uno'), (2, 'two'), (3, 'three'), (5, 'five'), (NULL, 'null');
SELECT ha.k, count(*), count(hj.w), string_agg(hj.w, ',' ORDER BY hj.w) FROM ha JOIN hj ON hj.k = ha.k GROUP BY ha.k ORDER BY ha.k;
SELECT hj.w, count(*), sum(ha.i4) FROM ha JOIN hj ON hj.k = ha.k GROUP BY hj.w ORDER BY hj.w;
SELECT ha.k, hj.w, count(ha.i2) FROM ha LEFT JOIN hj ON hj.k = ha.k GROUP BY ha.k, hj.w ORDER BY ha.k, hj.w;
SELECT hj.k, count(ha.k), count(*) FROM ha RIGHT JOIN hj ON hj.k = ha.k GROUP BY hj.k ORDER BY hj.k;
SELECT hj.w IS NULL AS unmatched, count(*) FROM ha LEFT JOIN hj ON hj.k = ha.k GROUP BY 1 ORDER BY 1;
SELECT x.k % 10 AS d, count(*), sum(y.g) FROM hb x JOIN hb y ON y.g = x.k + 1 WHERE x.g <= 1000 GROUP BY 1 ORDER BY 1;
-- the plans of some GROUP BY shapes
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM ha GROUP BY k;
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM ha GROUP BY k ORDER BY k;
EXPLAIN (COSTS OFF) SELECT k + 1, sum(i4) FROM ha GROUP BY k + 1;
EXPLAIN (COSTS OFF) SELECT k, b, count(*) FROM ha GROUP BY k, b HAVING count(*) > 1;
EXPLAIN (COSTS OFF) SELECT a, t, n, f, d, b, u, iv, count(*) FROM mk GROUP BY a, t, n, f, d, b, u, iv;
EXPLAIN (COSTS OFF) SELECT ha.k, count(*) FROM ha JOIN hj ON hj.k = ha.k GROUP BY ha.k;
-- the big queries again with work_mem = 64kB and hash_mem_multiplier 1
-- (where HashAggregate spills): the same results
SET work_mem = '64kB';
SET hash_mem_multiplier = 1;
SHOW work_mem;
SELECT count(*), sum(c), min(c), max(c), sum(k::int8), sum(s) FROM (SELECT k, count(*) AS c, sum(g) AS s FROM hb GROUP BY k) s;
SELECT k, count(*), sum(g), min(t), sum(v) FROM hb GROUP BY k ORDER BY k LIMIT 5;
SELECT k, count(*), sum(g) FROM hb GROUP BY k ORDER BY sum(g) DESC, k LIMIT 5;
SELECT count(*), sum(c), count(DISTINCT c) FROM (SELECT t, count(*) AS c FROM hb GROUP BY t) s;
SELECT t, count(*), min(g), max(g) FROM hb GROUP BY t ORDER BY t LIMIT 3;
SELECT count(*), sum(n), min(m), max(m) FROM (SELECT g, count(*) AS n, max(t) AS m FROM hb GROUP BY g) s;
SELECT count(*), sum(c) FROM (SELECT k, v, count(*) AS c FROM hb GROUP BY k, v) s;
SELECT v, count(*), count(DISTINCT k), sum(g), min(t), max(t) FROM hb GROUP BY v ORDER BY v;
SELECT count(*), sum(length(s)), min(s), max(s) FROM (SELECT k, string_agg(g::text, ',' ORDER BY g) AS s FROM hb GROUP BY k) x;
SELECT count(*), sum(a), sum(c) FROM (SELECT g % 100000 AS k, avg(g) AS a, count(*) AS c FROM generate_series(1, 300000) g GROUP BY 1) s;
SELECT c, count(*) AS groups FROM (SELECT k, count(*) AS c FROM hb GROUP BY k) s GROUP BY c ORDER BY c;
SELECT x.k % 10 AS d, count(*), sum(y.g) FROM hb x JOIN hb y ON y.g = x.k + 1 WHERE x.g <= 1000 GROUP BY 1 ORDER BY 1;
-- the small ones too: NULL groups, mixed keys, long text keys, some
-- aggregates
SELECT k, count(*), sum(i8), avg(n), min(tx), max(tz), bool_or(b), string_agg(tx, ',' ORDER BY tx), stddev(i4) FROM ha GROUP BY k ORDER BY k;
-- (which of the equal keys a group shows is not specified once a plan
-- may sort: count the spellings instead)
SELECT a, t, d, b, u, count(*), count(DISTINCT n::text) AS n_texts, count(DISTINCT f::text) AS f_texts, count(DISTINCT iv::text) AS iv_texts
  FROM mk GROUP BY a, t, n, f, d, b, u, iv ORDER BY a, t, n, f, d, b, u, iv;
SELECT length(t), md5(t), count(*), min(id), max(id) FROM tk GROUP BY t ORDER BY 1, 2;
RESET hash_mem_multiplier;
RESET work_mem;
SHOW work_mem;

-- a grouped CTE referenced twice: each reference is analyzed and planned
-- on its own (this crashed once, when both shared one Query)
CREATE TABLE hg_cte (k int, b bool, x int, t text);
INSERT INTO hg_cte VALUES (1, true, 10, 'a'), (1, NULL, 20, 'b'), (2, false, 30, 'a'), (NULL, true, 40, NULL);
WITH g AS (SELECT b, count(*) AS c, sum(x) AS s FROM hg_cte GROUP BY b)
SELECT g1.b, g1.c, g2.b AS other FROM g g1 JOIN g g2 ON g1.c = g2.c ORDER BY 1, 3;
WITH g AS MATERIALIZED (SELECT max(x) AS m FROM hg_cte) SELECT g1.m, g2.m FROM g g1, g g2;
