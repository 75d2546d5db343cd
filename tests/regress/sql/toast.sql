--
-- TOAST (issue 10): values around every threshold, compressible and
-- incompressible, every storage strategy, both compression methods,
-- round trips through functions, comparisons, sorts, grouping, joins,
-- subqueries, DML, rollback, VACUUM and COPY.  Every output is a length,
-- an md5 or a short slice, never the value itself.  pg_column_size is
-- shown only where it does not depend on a compressor's output (PLAIN,
-- EXTERNAL, values stored raw); pg_column_compression shows the method.
--
-- the sources: 10,000,000 characters of md5 hex digests (incompressible
-- for pglz: it stores them raw) and the lengths to test
CREATE TABLE src (s text);
INSERT INTO src SELECT string_agg(md5(i::text), '' ORDER BY i) FROM generate_series(1, 312500) i;
SELECT length(s), md5(s), left(s, 40), right(s, 8), pg_column_compression(s) FROM src;
CREATE TABLE lens (n int);
INSERT INTO lens VALUES (100), (2000), (2032), (2100), (4000), (8200), (100000), (1000000), (10000000);
--
-- 1. default storage (EXTENDED, pglz): compressible and incompressible
--    values of every length
--
CREATE TABLE tt (kind text, n int, v text);
INSERT INTO tt SELECT 'rep', n, repeat('0123456789', n / 10) || repeat('x', n % 10) FROM lens;
INSERT INTO tt SELECT 'md5', n, left(s, n) FROM lens, src;
SELECT kind, n, length(v), octet_length(v), md5(v), pg_column_compression(v) FROM tt ORDER BY kind, n;
SELECT kind, n, md5(v) = md5(CASE kind WHEN 'rep' THEN repeat('0123456789', n / 10) || repeat('x', n % 10) ELSE left(s, n) END) AS same
FROM tt, src ORDER BY kind, n;
-- slices at the chunk boundaries (1996 bytes a chunk)
SELECT kind, n, substr(v, 1990, 12), substr(v, 1996, 2), substr(v, 3991, 4), md5(substr(v, 1997, 1996)), right(v, 5)
FROM tt WHERE n >= 4000 ORDER BY kind, n;
SELECT kind, n, md5(left(v, 1996)), md5(left(v, 3992)), length(left(v, -1)), md5(substr(v, n - 2500)) FROM tt WHERE n >= 8200 ORDER BY kind, n;
SELECT kind, n, substr(v, n - 3, 10), substr(v, n + 1, 5) = '' AS past_end FROM tt ORDER BY kind, n;
--
-- 2. storage strategies
--
CREATE TABLE sp (id int, v text);
ALTER TABLE sp ALTER COLUMN v SET STORAGE PLAIN;
INSERT INTO sp VALUES (1, repeat('x', 100));
INSERT INTO sp VALUES (2, repeat('x', 8000));
INSERT INTO sp VALUES (3, repeat('x', 8200));
INSERT INTO sp SELECT 4, left(s, 8128) FROM src;
INSERT INTO sp SELECT 5, left(s, 8129) FROM src;
SELECT id, length(v), md5(v), pg_column_size(v), pg_column_compression(v) FROM sp ORDER BY id;
-- MAIN: compressed inline when it compresses; out of line only when
-- the row does not fit a page even so
CREATE TABLE sm (id int, v text);
ALTER TABLE sm ALTER COLUMN v SET STORAGE MAIN;
INSERT INTO sm VALUES (1, repeat('ab', 1000)), (2, repeat('ab', 50000));
INSERT INTO sm SELECT 3, left(s, 4000) FROM src;
INSERT INTO sm SELECT 4, left(s, 100000) FROM src;
SELECT id, length(v), md5(v), pg_column_compression(v) FROM sm ORDER BY id;
SELECT id, pg_column_size(v) FROM sm WHERE id IN (3, 4) ORDER BY id;
-- EXTERNAL: out of line, never compressed; the threshold is a row of
-- 2032 bytes: 24 (header) + 4 (id) + 4 + 2000 (v) is not above it
CREATE TABLE se (id int, v text);
ALTER TABLE se ALTER COLUMN v SET STORAGE EXTERNAL;
INSERT INTO se SELECT n, repeat('z', n) FROM generate_series(1998, 2006) n;
INSERT INTO se SELECT n, left(s, n) FROM src, (VALUES (4000), (100000), (1000000)) l(n);
INSERT INTO se VALUES (7, repeat('abc', 300000));
SELECT id, length(v), md5(v), pg_column_size(v), pg_column_compression(v) FROM se ORDER BY id;
SELECT id, substr(v, 1996, 3), substr(v, 3990, 5), md5(substr(v, 500000, 4000)) FROM se WHERE id >= 4000 ORDER BY id;
-- EXTENDED again, explicitly, after EXTERNAL: new rows compress
ALTER TABLE se ALTER COLUMN v SET STORAGE EXTENDED;
INSERT INTO se VALUES (8, repeat('abc', 300000));
SELECT id, length(v), md5(v), pg_column_compression(v) FROM se WHERE id IN (7, 8) ORDER BY id;
-- two large columns in one row, one of each strategy
CREATE TABLE s2 (id int, a text, b text, c text);
ALTER TABLE s2 ALTER COLUMN b SET STORAGE EXTERNAL;
ALTER TABLE s2 ALTER COLUMN c SET STORAGE MAIN;
INSERT INTO s2 SELECT 1, repeat('a', 3000), repeat('b', 3000), repeat('c', 3000);
INSERT INTO s2 SELECT 2, left(s, 3000), substr(s, 3001, 3000), substr(s, 6001, 3000) FROM src;
SELECT id, length(a), length(b), length(c), md5(a || b || c), pg_column_compression(a), pg_column_compression(b), pg_column_compression(c)
FROM s2 ORDER BY id;
SELECT id, pg_column_size(b) FROM s2 ORDER BY id;
--
-- 3. compression methods
--
CREATE TABLE cm (id int, v text COMPRESSION lz4);
INSERT INTO cm VALUES (1, repeat('lz4 ', 10000));
ALTER TABLE cm ALTER COLUMN v SET COMPRESSION pglz;
INSERT INTO cm VALUES (2, repeat('pglz', 10000));
ALTER TABLE cm ALTER COLUMN v SET COMPRESSION default;
INSERT INTO cm VALUES (3, repeat('dflt', 10000));
SELECT id, length(v), md5(v), pg_column_compression(v) FROM cm ORDER BY id;
SET default_toast_compression = lz4;
SHOW default_toast_compression;
CREATE TABLE cm2 (id int, v text);
INSERT INTO cm2 VALUES (1, repeat('x', 100000)), (2, repeat('y', 1000000)), (3, repeat('0123456789', 1000000));
INSERT INTO cm2 SELECT 4, left(s, 5000) FROM src;
SELECT id, length(v), md5(v), pg_column_compression(v) FROM cm2 ORDER BY id;
SELECT md5(substr(v, 999990, 20)), substr(v, 1996, 4) FROM cm2 WHERE id = 3;
-- a compressed value copied into a column of the other method keeps its
-- compression (it is not recompressed)
INSERT INTO cm SELECT 10 + id, v FROM cm2 WHERE id <= 2;
SELECT id, length(v), md5(v), pg_column_compression(v) FROM cm ORDER BY id;
RESET default_toast_compression;
SHOW default_toast_compression;
CREATE TABLE cm3 (id int, v text);
INSERT INTO cm3 VALUES (1, repeat('p', 100000));
SELECT id, pg_column_compression(v) FROM cm3;
SET default_toast_compression = 'zstd';
--
-- 4. string functions over toasted values
--
CREATE TABLE big (id int, v text);
INSERT INTO big SELECT 1, left(s, 100000) || 'NEEDLE' FROM src;
INSERT INTO big SELECT 2, repeat('abcdefghij', 20000) || 'NEEDLE';
INSERT INTO big SELECT 3, left(s, 1000000) FROM src;
INSERT INTO big SELECT 4, left(s, 100000) || 'NEEDLF' FROM src;
INSERT INTO big SELECT 5, left(s, 2100) FROM src;
SELECT id, length(v), md5(v) FROM big ORDER BY id;
SELECT id, position('NEEDLE' IN v), strpos(v, 'NEEDLE'), strpos(v, 'c4ca4238'), strpos(v, 'zz') FROM big ORDER BY id;
SELECT id, md5(upper(v)), md5(lower(upper(v))) = md5(v) AS roundtrip FROM big ORDER BY id;
SELECT id, md5(replace(v, 'a', 'Z')), length(replace(v, 'NEEDLE', '')) FROM big ORDER BY id;
SELECT id, v LIKE '%NEEDLE', v LIKE 'c4ca%', v LIKE '%f%NEEDL_', v ~ 'NEEDLE$' FROM big ORDER BY id;
SELECT id, length(v || v), md5(v || v), md5(v || 'x' || v) FROM big ORDER BY id;
SELECT id, md5(reverse(v)), md5(lpad(v, length(v) + 3, '*')), md5(rtrim(v, 'ELND')) FROM big ORDER BY id;
SELECT id, md5(substring(v FROM 99990 FOR 20)), split_part(v, 'NEEDLE', 2) = '' AS ends FROM big ORDER BY id;
SELECT length(string_agg(v, ',' ORDER BY id)), md5(string_agg(v, ',' ORDER BY id)) FROM big;
SELECT id, md5(v::varchar), length(v::varchar(10)), md5(CAST(v AS bpchar)) FROM big ORDER BY id;
SELECT id, md5(concat(v, id)), md5(concat_ws('|', v, v)), md5(id || '-' || v) FROM big ORDER BY id;
-- the same value used twice in one expression, and in two expressions
SELECT id, strpos(v, 'NEEDLE') + length(v), md5(v) = md5(v || '') AS same, length(v) - octet_length(v) FROM big ORDER BY id;
--
-- 5. comparisons, sorts, grouping of large values
--
SELECT a.id, b.id, a.v = b.v AS eq, a.v < b.v AS lt, a.v > b.v AS gt, a.v <> b.v AS ne
FROM big a, big b WHERE a.id IN (1, 4) AND b.id IN (1, 4, 5) ORDER BY a.id, b.id;
SELECT id, v = (SELECT v FROM big WHERE id = 1) AS is1 FROM big ORDER BY id;
SELECT id FROM big ORDER BY v;
SELECT id FROM big ORDER BY v DESC;
SELECT id, md5(v) FROM big ORDER BY md5(v);
CREATE TABLE dup (g int, v text);
INSERT INTO dup SELECT 0, v FROM big, generate_series(1, 10) i WHERE id = 1;
INSERT INTO dup SELECT 1, v FROM big, generate_series(1, 10) i WHERE id = 4;
INSERT INTO dup SELECT 2, v FROM big, generate_series(1, 10) i WHERE id = 2;
SELECT count(*), count(DISTINCT v), count(DISTINCT md5(v)) FROM dup;
SELECT md5(v), count(*) FROM dup GROUP BY v ORDER BY 1;
SET enable_hashagg = off;
SELECT md5(v), count(*) FROM dup GROUP BY v ORDER BY 1;
RESET enable_hashagg;
SELECT md5(v) FROM (SELECT DISTINCT v FROM dup) d ORDER BY 1;
SELECT g, min(v) = max(v) AS one_value, length(max(v)) FROM dup GROUP BY g ORDER BY g;
SELECT g, md5(min(v)), md5(max(v)) FROM dup GROUP BY g ORDER BY g;
SELECT count(*) FROM (SELECT v FROM dup UNION SELECT v FROM big) u;
SELECT count(*) FROM (SELECT v FROM big INTERSECT SELECT v FROM dup) u;
SELECT count(*) FROM (SELECT v FROM big EXCEPT SELECT v FROM dup) u;
--
-- 6. joins on large keys: hash, merge, nested loop; IN; InitPlan
--
CREATE TABLE keys (k int, v text);
INSERT INTO keys SELECT id * 10, v FROM big;
INSERT INTO keys SELECT 99, v FROM big WHERE id = 1;
SET enable_mergejoin = off; SET enable_nestloop = off;
SELECT b.id, k.k FROM big b JOIN keys k ON b.v = k.v ORDER BY b.id, k.k;
RESET enable_mergejoin; RESET enable_nestloop;
SET enable_hashjoin = off; SET enable_nestloop = off;
SELECT b.id, k.k FROM big b JOIN keys k ON b.v = k.v ORDER BY b.id, k.k;
RESET enable_hashjoin; RESET enable_nestloop;
SET enable_hashjoin = off; SET enable_mergejoin = off;
SELECT b.id, k.k FROM big b JOIN keys k ON b.v = k.v ORDER BY b.id, k.k;
SELECT b.id, k.k FROM big b LEFT JOIN keys k ON b.v = k.v AND k.k > 10 ORDER BY b.id, k.k;
SELECT count(*), sum(strpos(b.v, g::text)) FROM generate_series(1, 300) g LEFT JOIN big b ON true;
RESET enable_hashjoin; RESET enable_mergejoin;
SELECT id FROM big WHERE v IN (SELECT v FROM keys WHERE k >= 30) ORDER BY id;
SELECT id FROM big WHERE v NOT IN (SELECT v FROM keys WHERE k >= 30) ORDER BY id;
SELECT id FROM big b WHERE EXISTS (SELECT 1 FROM keys k WHERE k.v = b.v AND k.k = 99) ORDER BY id;
SELECT count(*) FROM generate_series(1, 1000) x WHERE strpos((SELECT v FROM big WHERE id = 1), x::text) > 0;
SELECT count(*) FROM generate_series(1, 1000) x WHERE length((SELECT v FROM big WHERE id = 3)) > x * 1000;
SELECT g, (SELECT md5(v) FROM big WHERE id = g) FROM generate_series(1, 5) g ORDER BY g;
SELECT id, (SELECT count(*) FROM keys k WHERE k.v = b.v) FROM big b ORDER BY id;
--
-- 7. UPDATE, DELETE, ROLLBACK, VACUUM
--
CREATE TABLE u (id int, note text, v text);
INSERT INTO u SELECT id, 'orig', v FROM big;
UPDATE u SET note = 'touched' WHERE id IN (1, 3);
SELECT id, note, length(v), md5(v) FROM u ORDER BY id;
UPDATE u SET v = v || 'MORE' WHERE id = 2;
UPDATE u SET v = upper(v) WHERE id = 3;
UPDATE u SET v = 'small now' WHERE id = 4;
UPDATE u SET v = (SELECT left(s, 300000) FROM src) WHERE id = 5;
SELECT id, note, length(v), md5(v) FROM u ORDER BY id;
UPDATE u SET id = id + 100 WHERE id = 1 RETURNING id, length(v), md5(v);
DELETE FROM u WHERE id = 3 RETURNING id, length(v), right(v, 6);
SELECT id, length(v), md5(v) FROM u ORDER BY id;
BEGIN;
INSERT INTO u SELECT 6, 'rolled back', left(s, 500000) FROM src;
UPDATE u SET v = repeat('q', 700000) WHERE id = 2;
DELETE FROM u WHERE id = 101;
SELECT id, note, length(v), md5(v) FROM u ORDER BY id;
ROLLBACK;
SELECT id, note, length(v), md5(v) FROM u ORDER BY id;
BEGIN;
UPDATE u SET v = v || v WHERE id = 5;
UPDATE u SET note = 'committed' WHERE id = 5;
COMMIT;
SELECT id, length(v), md5(v) FROM u ORDER BY id;
DELETE FROM u WHERE id = 2;
VACUUM u;
INSERT INTO u SELECT 7, 'after vacuum', left(s, 200000) FROM src;
SELECT id, note, length(v), md5(v) FROM u ORDER BY id;
VACUUM FULL u;
SELECT id, note, length(v), md5(v) FROM u ORDER BY id;
TRUNCATE u;
SELECT count(*) FROM u;
INSERT INTO u SELECT 8, 'after truncate', left(s, 50000) FROM src;
SELECT id, note, length(v), md5(v) FROM u ORDER BY id;
--
-- 8. copies between tables: INSERT ... SELECT, CREATE TABLE AS, COPY
--
CREATE TABLE copy1 (id int, v text);
INSERT INTO copy1 SELECT id, v FROM big;
DELETE FROM big WHERE id = 1;
SELECT id, length(v), md5(v) FROM copy1 ORDER BY id;
CREATE TABLE copy2 AS SELECT id, v, v || '!' AS w FROM copy1 WHERE id <> 2;
DROP TABLE copy1;
SELECT id, length(v), md5(v), md5(w) FROM copy2 ORDER BY id;
CREATE TABLE copy3 (id int, v text);
ALTER TABLE copy3 ALTER COLUMN v SET STORAGE EXTERNAL;
INSERT INTO copy3 SELECT id, v FROM copy2;
SELECT id, length(v), md5(v), pg_column_size(v), pg_column_compression(v) FROM copy3 ORDER BY id;
COPY (SELECT n, v FROM tt WHERE kind = 'rep' AND n = 2100) TO STDOUT;
COPY (SELECT id, md5(v) FROM copy3 ORDER BY id) TO STDOUT;
--
-- 9. bytea
--
CREATE TABLE bt (id int, b bytea);
INSERT INTO bt SELECT 1, decode(left(s, 200000), 'hex') FROM src;
INSERT INTO bt SELECT 2, decode(repeat('00ff', 100000), 'hex');
INSERT INTO bt SELECT 3, CAST(left(s, 3000) AS bytea) FROM src;
SELECT id, length(b), octet_length(b), md5(b), encode(substr(b, 1, 8), 'hex'), encode(substr(b, 1995, 4), 'hex'), pg_column_compression(b) FROM bt ORDER BY id;
SELECT id, md5(encode(b, 'hex')), md5(encode(b, 'base64')), position('\x0f0f'::bytea IN b) FROM bt ORDER BY id;
SELECT id, md5(b || b), get_byte(b, 2999), length(substring(b FROM 1990 FOR 20)) FROM bt ORDER BY id;
SELECT a.id, b.id, a.b = b.b AS eq, a.b < b.b AS lt FROM bt a, bt b ORDER BY a.id, b.id;
ALTER TABLE bt ALTER COLUMN b SET STORAGE EXTERNAL;
INSERT INTO bt SELECT 4, b FROM bt WHERE id = 2;
INSERT INTO bt SELECT 5, decode(repeat('00ff', 100000), 'hex');
SELECT id, length(b), md5(b), pg_column_compression(b) FROM bt WHERE id >= 2 ORDER BY id;
SELECT id, pg_column_size(b) FROM bt WHERE id = 5;
--
-- 10. NULLs and small values
--
CREATE TABLE nl (id int, a text, b text);
INSERT INTO nl VALUES (1, NULL, repeat('n', 100000)), (2, repeat('m', 100000), NULL), (3, 'tiny', '');
SELECT id, length(a), length(b), md5(a), md5(b), pg_column_compression(a), pg_column_compression(b), pg_column_size(b) IS NULL AS b_null
FROM nl ORDER BY id;
SELECT id, pg_column_size(a), pg_column_size(b) FROM nl WHERE id = 3;
SELECT pg_column_size('x'::text), pg_column_size(repeat('x', 200)), pg_column_compression('x'::text);
DROP TABLE tt, sp, sm, se, s2, cm, cm2, cm3, big, dup, keys, u, copy2, copy3, bt, nl, src, lens;
