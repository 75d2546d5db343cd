-- ORDER BY over every key type, both directions, NULLS FIRST/LAST,
-- multi-column keys, expressions, duplicates, LIMIT/OFFSET (top-N), and
-- the sorts under sorted GROUP BY, DISTINCT, set operations and ordered
-- aggregates.  Every output depends only on the ORDER BY: where a key
-- has duplicates, further keys (or an aggregate) make the order total,
-- since a sort need not be stable.  (Arrays and records are not sortable
-- in tupledb yet, so they are not here.)
SET timezone = 'UTC';
SET extra_float_digits = 0;

CREATE TABLE num (id int, i2 int2, i4 int4, i8 int8, f4 float4, f8 float8, n numeric);
INSERT INTO num VALUES
  (1,  0,      0,           0,                    0,          0,          0),
  (2,  1,      1,           1,                    1.5,        1.5,        1.5),
  (3,  -1,     -1,          -1,                   -1.5,       -1.5,       -1.5),
  (4,  32767,  2147483647,  9223372036854775807,  'Infinity', 'Infinity', 'NaN'),
  (5,  -32768, -2147483648, -9223372036854775808, '-Infinity','-Infinity', -99999999999999999999999.999999999),
  (6,  NULL,   NULL,        NULL,                 NULL,       NULL,       NULL),
  (7,  100,    100000,      10000000000,          'NaN',      'NaN',      123456789012345678901234567890.123456789),
  (8,  -100,   -100000,     -10000000000,         '-0',       '-0',       0.000000000000000000001),
  (9,  2,      65536,       4294967296,           1e30,       1e300,      -0.000000000000000000001),
  (10, -2,     -65536,      -4294967296,          -1e-30,     -1e-300,    1.10),
  (11, 1,      1,           1,                    1e-30,      1e-300,     1.1),
  (12, NULL,   7,           NULL,                 3.25,       NULL,       2),
  (13, 7,      NULL,        7,                    NULL,       2.5,        NULL),
  (14, 3,      3,           3,                    3,          3,          1e-100);

-- each key alone, ascending (NULLS LAST by default) and descending
-- (NULLS FIRST by default); id breaks ties
SELECT id, i2 FROM num ORDER BY i2, id;
SELECT id, i2 FROM num ORDER BY i2 DESC, id;
SELECT id, i4 FROM num ORDER BY i4, id;
SELECT id, i4 FROM num ORDER BY i4 DESC NULLS LAST, id DESC;
SELECT id, i8 FROM num ORDER BY i8 NULLS FIRST, id;
SELECT id, i8 FROM num ORDER BY i8 DESC, id;
-- NaN sorts above Infinity; -0 equals 0
SELECT id, f4 FROM num ORDER BY f4, id;
SELECT id, f4 FROM num ORDER BY f4 DESC NULLS LAST, id;
SELECT id, f8 FROM num ORDER BY f8, id;
SELECT id, f8 FROM num ORDER BY f8 DESC, id;
-- numeric: NaN above everything, 1.10 = 1.1, tiny and huge magnitudes
SELECT id, n FROM num ORDER BY n, id;
SELECT id, n FROM num ORDER BY n DESC NULLS LAST, id DESC;
-- numerics with many digits that differ only far to the right
SELECT n FROM (VALUES
  (1.000000000000000000000000000001), (1.000000000000000000000000000002),
  (1.0000000000000000000000000000015), (0.99999999999999999999999999999999),
  (100000000000000000000000000000000), (99999999999999999999999999999999.9),
  (-1.000000000000000000000000000001), (-1.000000000000000000000000000002),
  (1e-50), (-1e-50), (12345678.12345678), (12345678.123456781), (12345678.1234567)
) v(n) ORDER BY n;
SELECT n FROM (VALUES (1.5::numeric), (-2), ('NaN'), (NULL), (0), (1.50)) v(n)
ORDER BY n DESC NULLS LAST, n::text;
-- mixed integer widths compared as numbers
SELECT id FROM num WHERE i2 IS NOT NULL AND i4 IS NOT NULL ORDER BY i2::int8 * 3 - i4 % 7, id;

CREATE TABLE str (id int, t text, v varchar(10), b char(6), nm name, by bytea);
INSERT INTO str VALUES
  (1,  'apple',      'apple',    'apple',  'apple',   '\x6170706c65'),
  (2,  'Apple',      'Apple',    'Apple',  'Apple',   '\x4170706c65'),
  (3,  'apple ',     'apple ',   'apple ', 'apple ',  '\x6170706c6520'),
  (4,  '',           '',         '',       '',        '\x'),
  (5,  NULL,         NULL,       NULL,     NULL,      NULL),
  (6,  'a',          'a',        'a',      'a',       '\x61'),
  (7,  'ab',         'ab',       'ab ',    'ab',      '\x6162'),
  (8,  'b',          'b',        'b',      'b',       '\x62'),
  (9,  'é',          'é',        'é',      'é',       '\xc3a9'),
  (10, 'e',          'e',        'e',      'e',       '\x65'),
  (11, 'z',          'z',        'z',      'z',       '\x7a'),
  (12, '日本',       '日本',     '日本',   '日本',    '\xe697a5e69cac'),
  (13, 'Ω',          'Ω',        'Ω',      'Ω',       '\xcea9'),
  (14, '10',         '10',       '10',     '10',      '\x3130'),
  (15, '9',          '9',        '9',      '9',       '\x39'),
  (16, ' a',         ' a',       ' a',     ' a',      '\x2061'),
  (17, 'a b',        'a b',      'a b',    'a b',     '\x612062'),
  (18, 'apple',      'apple',    'apple',  'apple',   '\x6170706c65'),
  (19, 'ß',          'ß',        'ß',      'ß',       '\xc39f'),
  (20, 'ÿ',          'ÿ',        'ÿ',      'ÿ',       '\xc3bf'),
  (21, E'a\tb',      E'a\tb',    E'a\tb',  E'a\tb',   '\x610962'),
  (22, '~',          '~',        '~',      '~',       '\x7e'),
  (23, 'app',        'app',      'app',    'app',     '\x617070');

-- the database's collation is C, so this is byte order (UTF-8 bytes)
SELECT id, t FROM str ORDER BY t, id;
SELECT id, t FROM str ORDER BY t DESC NULLS LAST, id;
SELECT id, t FROM str ORDER BY t COLLATE "C" DESC, id;
SELECT id, v FROM str ORDER BY v NULLS FIRST, id DESC;
-- bpchar ignores trailing spaces: 'apple' = 'apple ', 'ab' = 'ab '
SELECT id, b, length(b) FROM str ORDER BY b, id;
SELECT id, b FROM str ORDER BY b DESC, id DESC;
SELECT id, nm FROM str ORDER BY nm, id;
SELECT id, by FROM str ORDER BY by DESC, id;
SELECT id, by FROM str ORDER BY by, id;
-- expressions as keys
SELECT id, t FROM str WHERE t IS NOT NULL ORDER BY length(t) DESC, t, id;
SELECT id, t FROM str ORDER BY upper(t) NULLS FIRST, t, id;
SELECT id, t FROM str ORDER BY t || 'x' COLLATE "C", id;
SELECT id, t FROM str ORDER BY octet_length(t) % 3, t DESC, id;

-- long texts sharing long prefixes: equal in their first 8, 16, 31, 32
-- bytes (and longer), so a key abbreviated to a prefix ties and the full
-- comparison decides
CREATE TABLE longt (id int, t text);
INSERT INTO longt
SELECT g, repeat('x', 7 + (g % 5) * 8) || substr('abcdefghijklmnopqrstuvwxyz', 1 + (g * 7) % 26, 1) || repeat('y', g % 3)
FROM generate_series(1, 60) g;
INSERT INTO longt VALUES (61, repeat('x', 40)), (62, repeat('x', 39)), (63, repeat('x', 8)),
  (64, repeat('x', 7)), (65, repeat('x', 7) || 'é'), (66, repeat('x', 15) || E'\001'),
  (67, repeat('abcdefgh', 100) || 'b'), (68, repeat('abcdefgh', 100) || 'a'),
  (69, repeat('abcdefgh', 100)), (70, repeat('abcdefgh', 99) || 'abcdefgi');
SELECT id, length(t), right(t, 3) FROM longt ORDER BY t, id;
SELECT string_agg(id::text, ',' ORDER BY t DESC, id) FROM longt;

CREATE TABLE misc (id int, bo bool, ch "char", d date, tm time, ts timestamp,
                   tz timestamptz, iv interval, u uuid, o oid);
INSERT INTO misc VALUES
  (1, true,  'a', '2024-02-29', '00:00',       '2024-02-29 12:00:00',    '2024-02-29 12:00:00+00', '1 day',            'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 1),
  (2, false, 'B', '1999-12-31', '23:59:59.999999', '1999-12-31 23:59:59.999999', '1999-12-31 23:59:59+05', '24 hours', '00000000-0000-0000-0000-000000000000', 4294967295),
  (3, NULL,  NULL, NULL,        NULL,          NULL,                     NULL,                     NULL,               NULL,                                   NULL),
  (4, true,  'z', 'infinity',   '12:30',       'infinity',               'infinity',               '1 mon',            'ffffffff-ffff-ffff-ffff-ffffffffffff', 0),
  (5, false, '0', '-infinity',  '12:30:00.5',  '-infinity',              '-infinity',              '30 days',          'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12', 100),
  (6, true,  'a', '0001-01-01 BC', '06:00',    '0001-01-01 00:00:00 BC', '2000-01-01 00:00:00-12', '-1 day',           'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 2147483648),
  (7, false, ' ', '2000-01-01', '06:00',       '2000-01-01 00:00:00',    '2000-01-01 12:00:00+00', '1 year -1 day',    '10000000-0000-0000-0000-000000000000', 3),
  (8, NULL,  'é', '2000-01-02', '00:00:00.000001', '2000-01-01 00:00:00.000001', '2000-01-01 11:59:59+00', '00:00:00.000001', '0fffffff-ffff-ffff-ffff-ffffffffffff', 2);

SELECT id, bo FROM misc ORDER BY bo, id;
SELECT id, bo FROM misc ORDER BY bo DESC NULLS LAST, id DESC;
SELECT id, ch FROM misc ORDER BY ch, id;
SELECT id, ch FROM misc ORDER BY ch DESC, id;
SELECT id, d FROM misc ORDER BY d, id;
SELECT id, d FROM misc ORDER BY d DESC NULLS LAST, id;
SELECT id, tm FROM misc ORDER BY tm, id;
SELECT id, tm FROM misc ORDER BY tm DESC, id DESC;
SELECT id, ts FROM misc ORDER BY ts, id;
SELECT id, ts FROM misc ORDER BY ts DESC, id;
SELECT id, tz FROM misc ORDER BY tz, id;
SELECT id, tz FROM misc ORDER BY tz DESC NULLS LAST, id;
-- intervals compare by their total length: '1 mon' = '30 days' = '1 day' * 30
SELECT id, iv FROM misc ORDER BY iv, id;
SELECT id, iv FROM misc ORDER BY iv DESC, id DESC;
SELECT id, u FROM misc ORDER BY u, id;
SELECT id, u FROM misc ORDER BY u DESC, id;
SELECT id, o FROM misc ORDER BY o, id;
SELECT id, o FROM misc ORDER BY o DESC NULLS LAST, id;
-- positional and output-name keys, keys not in the select list
SELECT id AS k, ch FROM misc ORDER BY 2 DESC, k;
SELECT ch AS c, id FROM misc ORDER BY c NULLS FIRST, id;
SELECT id FROM misc ORDER BY ts DESC NULLS LAST, id;

-- multi-column keys mixing directions and NULL placement, with many
-- duplicates in the first columns
CREATE TABLE mc (a int, b text, c numeric, d float8, e int);
INSERT INTO mc
SELECT CASE WHEN g % 11 = 0 THEN NULL ELSE g % 4 END,
       CASE WHEN g % 13 = 0 THEN NULL ELSE substr('abcdefghijklmnopqrstuvwxyz', 1 + g % 3, 1) END,
       CASE WHEN g % 7 = 0 THEN NULL ELSE (g % 5)::numeric / 2 END,
       CASE WHEN g % 17 = 0 THEN 'NaN'::float8 ELSE (g % 3)::float8 END,
       g
FROM generate_series(1, 120) g;
SELECT a, b, c, e FROM mc ORDER BY a, b DESC, c NULLS FIRST, e DESC LIMIT 40;
SELECT a, b, c, e FROM mc ORDER BY a DESC NULLS LAST, b NULLS FIRST, c DESC, e LIMIT 40;
SELECT a, b, d, e FROM mc ORDER BY d DESC, a NULLS FIRST, b DESC NULLS LAST, e OFFSET 80;
-- the whole order as one row per first key
SELECT a, string_agg(e::text, ',' ORDER BY c DESC NULLS LAST, b, e) FROM mc
GROUP BY a ORDER BY a NULLS FIRST;
-- an expression over several columns
SELECT a, b, e FROM mc WHERE a IS NOT NULL AND b IS NOT NULL
ORDER BY a * 10 + length(b || b || b) * 7 + position(b IN 'cab') DESC, e LIMIT 15;

-- ORDER BY ... LIMIT / OFFSET: top-N with n = 0, 1, small, more than
-- the input, ties on the first key broken by the next
CREATE TABLE tn (k int, s text, id int);
INSERT INTO tn SELECT (g * 37) % 50, md5(g::text), g FROM generate_series(1, 500) g;
SELECT k, id FROM tn ORDER BY k, id LIMIT 0;
SELECT k, id FROM tn ORDER BY k, id LIMIT 1;
SELECT k, id FROM tn ORDER BY k DESC, id LIMIT 12;
SELECT k, id FROM tn ORDER BY k, id DESC LIMIT 7 OFFSET 3;
SELECT count(*), min(id), max(id) FROM (SELECT id FROM tn ORDER BY k, id LIMIT 1000) s;
SELECT k, id FROM tn ORDER BY k, id OFFSET 495;
SELECT k, id FROM tn ORDER BY k, id OFFSET 600;
SELECT k, id FROM tn ORDER BY k, id LIMIT 5 OFFSET 600;
SELECT s, id FROM tn ORDER BY s DESC LIMIT 5;
SELECT s FROM tn ORDER BY s LIMIT 3 OFFSET 250;
SELECT k, id FROM tn ORDER BY k, id LIMIT ALL OFFSET 498;
SELECT k, id FROM tn ORDER BY k, id FETCH FIRST 3 ROWS ONLY;
-- LIMIT over a key with NULLs
SELECT id, i4 FROM num ORDER BY i4 NULLS FIRST, id LIMIT 3;
SELECT id, i4 FROM num ORDER BY i4 DESC NULLS LAST, id LIMIT 3;
SELECT id, n FROM num ORDER BY n DESC, id LIMIT 4;

-- sorted grouping, DISTINCT and set operations (no hashing)
SET enable_hashagg = off;
SELECT k % 5 AS g, count(*), min(id), max(id), sum(id) FROM tn GROUP BY 1 ORDER BY 1;
SELECT a, b, count(*), sum(e) FROM mc GROUP BY a, b ORDER BY a DESC, b NULLS FIRST;
SELECT b, count(*) FROM mc GROUP BY b ORDER BY count(*) DESC, b;
SELECT DISTINCT a FROM mc ORDER BY a;
SELECT DISTINCT a, b FROM mc ORDER BY b DESC, a NULLS FIRST;
SELECT DISTINCT t FROM str ORDER BY t;
SELECT DISTINCT b FROM str ORDER BY b;
-- '1 mon' and '30 days' are one value: count it, do not print which
SELECT count(*) FROM (SELECT DISTINCT iv FROM misc) s;
-- equal numerics written differently are one value (which one is kept
-- is unspecified, so only counted and summed at a fixed scale)
SELECT count(*), (sum(n) FILTER (WHERE n <> 'NaN'))::numeric(10,3)
FROM (SELECT DISTINCT n FROM (VALUES (1.1), (1.10), (1.100), (2), (2.0), ('NaN'), ('NaN')) v(n)) s;
SELECT count(*) FROM (SELECT DISTINCT k FROM tn) s;
SELECT a FROM mc WHERE a > 1 UNION SELECT a FROM mc WHERE a < 3 ORDER BY a;
SELECT b FROM mc UNION SELECT t FROM str WHERE length(t) = 1 ORDER BY 1 NULLS FIRST;
SELECT a, b FROM mc INTERSECT SELECT e % 4, substr('abcdefghijklmnopqrstuvwxyz', 1 + e % 2, 1) FROM mc ORDER BY a, b;
SELECT a, b FROM mc EXCEPT SELECT e % 3, 'a' FROM mc ORDER BY 1 DESC, 2;
SELECT k FROM tn INTERSECT ALL SELECT k % 10 FROM tn ORDER BY k LIMIT 20;
SELECT count(*) FROM (SELECT k FROM tn EXCEPT ALL SELECT k FROM tn WHERE id % 2 = 0) s;
SELECT count(*), sum(x) FROM (SELECT id % 97 AS x FROM tn UNION SELECT id % 89 FROM tn) s;
-- aggregates that sort their input
SELECT string_agg(b, ',' ORDER BY b DESC) FROM (SELECT DISTINCT b FROM mc) s;
SELECT a, string_agg(e::text, ',' ORDER BY e DESC) FROM mc WHERE e < 40 GROUP BY a ORDER BY a;
SELECT a, string_agg(DISTINCT b, '' ORDER BY b) FROM mc GROUP BY a ORDER BY a NULLS FIRST;
SELECT string_agg(t, '|' ORDER BY t NULLS FIRST) FROM str;
SELECT string_agg(t, '|' ORDER BY octet_length(t) DESC, t) FROM str;
SELECT count(DISTINCT k), count(DISTINCT s), sum(DISTINCT k) FROM tn;
SELECT k % 3, count(DISTINCT k), string_agg(DISTINCT (k % 7)::text, ',') FROM tn GROUP BY 1 ORDER BY 1;
SELECT string_agg(n::text, ' ' ORDER BY n DESC NULLS LAST, n::text) FROM num;
SELECT string_agg(id::text, ' ' ORDER BY f8 NULLS FIRST, id) FROM num;
RESET enable_hashagg;

-- a sort inside a subquery, read by a join and by a correlated subquery
SELECT t.k, t.id, (SELECT id FROM tn x WHERE x.k = t.k ORDER BY id DESC LIMIT 1 OFFSET 2)
FROM tn t WHERE t.id <= 5 ORDER BY t.id;
SELECT s.a, count(*) FROM (SELECT a FROM mc ORDER BY a LIMIT 30) s JOIN tn ON tn.k = s.a
GROUP BY s.a ORDER BY s.a;

-- the plans: a Sort with its keys, under Limit, under sorted grouping
EXPLAIN (COSTS OFF) SELECT * FROM mc ORDER BY a, b DESC, c NULLS FIRST;
EXPLAIN (COSTS OFF) SELECT * FROM tn ORDER BY k DESC, id LIMIT 5;
EXPLAIN (COSTS OFF) SELECT id FROM tn ORDER BY k + id;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT a, count(*) FROM mc GROUP BY a;
EXPLAIN (COSTS OFF) SELECT DISTINCT a, b FROM mc;
RESET enable_hashagg;

-- top-N over a plain scan of every column (the Sort reads the first key
-- a page at a time and builds only the rows it may keep): NULL keys,
-- both directions, NULLS FIRST/LAST, ties broken by a second key, a text
-- key, offsets, and more rows than fit a page
CREATE TABLE topn (k int8, t text, id int4);
INSERT INTO topn SELECT CASE WHEN g % 97 = 0 THEN NULL ELSE (g * 7919) % 5003 END,
                        md5(g::text), g FROM generate_series(1, 20000) g;
SELECT * FROM topn ORDER BY k, id LIMIT 5;
SELECT * FROM topn ORDER BY k DESC, id LIMIT 5;
SELECT * FROM topn ORDER BY k DESC NULLS LAST, id DESC LIMIT 4;
SELECT * FROM topn ORDER BY k NULLS FIRST, id LIMIT 4 OFFSET 200;
SELECT * FROM topn ORDER BY k LIMIT 1;
SELECT * FROM topn ORDER BY t LIMIT 3;
SELECT * FROM topn ORDER BY t DESC, id LIMIT 3 OFFSET 10;
SELECT * FROM topn ORDER BY id DESC LIMIT 2;
SELECT count(*), sum(id) FROM (SELECT * FROM topn ORDER BY k, id LIMIT 7000) s;
