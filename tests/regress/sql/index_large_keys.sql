-- Index keys larger than TOAST_INDEX_TARGET (510 bytes) are compressed
-- as the index tuple is formed (PostgreSQL's index_form_tuple), so large
-- compressible keys fit in a B-tree page; incompressible ones over a third
-- of a page fail with 54000.
CREATE TABLE big (id int, k text);
CREATE UNIQUE INDEX big_k_key ON big (k);
INSERT INTO big VALUES (1, repeat('x', 5000));
INSERT INTO big VALUES (2, repeat('x', 4999) || 'y');
INSERT INTO big VALUES (3, repeat('ab', 3000));
INSERT INTO big VALUES (4, 'short');
-- equal to a compressed key: the unique check compares the values, not
-- their compressed bytes (DETAILs of several kB are left out: tupledb's
-- error fields stop at 1 kB)
\set VERBOSITY terse
INSERT INTO big VALUES (5, repeat('ab', 3000));
INSERT INTO big VALUES (6, repeat('x', 5000));
\set VERBOSITY default
-- a key over TOAST_INDEX_TARGET that would fit uncompressed: its DETAIL
INSERT INTO big VALUES (7, repeat('p', 900));
INSERT INTO big VALUES (8, repeat('p', 900));
SELECT id, length(k), left(k, 3), right(k, 2) FROM big ORDER BY id;
-- the compressed keys keep their order among the others
INSERT INTO big SELECT g, repeat(chr(97 + g % 26), 600 + g) FROM generate_series(10, 60) g;
\set VERBOSITY terse
INSERT INTO big VALUES (61, repeat(chr(97 + 11 % 26), 600 + 11));
\set VERBOSITY default
SELECT count(*) FROM big;
-- incompressible: over the B-tree's limit after compression
INSERT INTO big
SELECT 100, string_agg(md5(g::text), '') FROM generate_series(1, 100) g;
-- CREATE INDEX over existing large keys, and its duplicate check
CREATE INDEX big_k_idx ON big (k);
CREATE TABLE big2 (id int, k text);
INSERT INTO big2 VALUES (1, repeat('q', 3000)), (2, repeat('r', 3000)), (3, repeat('q', 3000));
\set VERBOSITY terse
CREATE UNIQUE INDEX big2_k_key ON big2 (k);
\set VERBOSITY default
DELETE FROM big2 WHERE id = 3;
CREATE UNIQUE INDEX big2_k_key ON big2 (k);
\set VERBOSITY terse
INSERT INTO big2 VALUES (4, repeat('r', 3000));
\set VERBOSITY default
INSERT INTO big2 VALUES (5, repeat('s', 3000));
SELECT id, length(k) FROM big2 ORDER BY k;
-- a varchar key and a two-column key
CREATE TABLE big3 (a int, v varchar(6000), PRIMARY KEY (a, v));
INSERT INTO big3 VALUES (1, repeat('z', 5000)), (2, repeat('z', 5000));
\set VERBOSITY terse
INSERT INTO big3 VALUES (1, repeat('z', 5000));
\set VERBOSITY default
SELECT a, length(v) FROM big3 ORDER BY a;
DROP TABLE big, big2, big3;
