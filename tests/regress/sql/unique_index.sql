-- Indexes written by every statement (issue 22): unique violations through
-- INSERT, multi-row VALUES, INSERT ... SELECT, UPDATE and COPY leave nothing
-- behind; PRIMARY KEY implies NOT NULL; NULLS NOT DISTINCT; partial and
-- expression unique indexes; multi-column and text keys; transactions;
-- TRUNCATE; VACUUM freeing a slot a new row reuses.
CREATE TABLE t (a int PRIMARY KEY, b text);
INSERT INTO t VALUES (1, 'one'), (2, 'two');
INSERT INTO t VALUES (2, 'again');
INSERT INTO t VALUES (3, 'three'), (4, 'four'), (3, 'dup');
SELECT count(*) FROM t;
INSERT INTO t SELECT g, 'g' || g FROM generate_series(5, 10) g;
INSERT INTO t SELECT g, 'g' || g FROM generate_series(10, 20) g;
SELECT count(*) FROM t;
INSERT INTO t SELECT 100, 'x' FROM generate_series(1, 2);
SELECT count(*) FROM t;
UPDATE t SET a = 1 WHERE a = 2;
UPDATE t SET a = a + 100;
SELECT min(a), max(a), count(*) FROM t;
UPDATE t SET b = b || '!' WHERE a <= 2;
UPDATE t SET a = a WHERE a = 1;
SELECT a, b FROM t WHERE a <= 2 ORDER BY a;
INSERT INTO t VALUES (NULL, 'null key');
INSERT INTO t (b) VALUES ('no key');
DELETE FROM t WHERE a = 1;
INSERT INTO t VALUES (1, 'back');
SELECT a, b FROM t WHERE a = 1;

-- COPY: the whole statement fails, nothing stays
CREATE TABLE c (a int PRIMARY KEY, b text);
COPY c FROM stdin;
1	x
2	y
1	z
\.
SELECT count(*) FROM c;
COPY c FROM stdin;
1	x
2	y
\.
COPY c FROM stdin;
3	x
2	y
\.
SELECT * FROM c ORDER BY a;

-- a text key; a multi-column key
CREATE TABLE m (a int, b text, c int, UNIQUE (a, b));
INSERT INTO m VALUES (1, 'x', 1), (1, 'y', 2), (2, 'x', 3);
INSERT INTO m VALUES (1, 'x', 4);
INSERT INTO m VALUES (1, NULL, 5), (1, NULL, 6);
SELECT count(*) FROM m;
CREATE TABLE s (k text PRIMARY KEY);
INSERT INTO s VALUES ('abc'), ('ABC'), ('abc ');
INSERT INTO s VALUES ('abc');
SELECT count(*) FROM s;

-- NULLS NOT DISTINCT
CREATE TABLE n (a int, b int);
CREATE UNIQUE INDEX n_a_b ON n (a, b) NULLS NOT DISTINCT;
INSERT INTO n VALUES (1, NULL), (2, NULL);
INSERT INTO n VALUES (1, NULL);
INSERT INTO n VALUES (NULL, NULL);
INSERT INTO n VALUES (NULL, NULL);
CREATE TABLE n2 (a int);
INSERT INTO n2 VALUES (NULL), (NULL), (1);
CREATE UNIQUE INDEX ON n2 (a) NULLS NOT DISTINCT;
CREATE UNIQUE INDEX ON n2 (a);
INSERT INTO n2 VALUES (NULL);

-- partial and expression unique indexes
CREATE TABLE e (id int, email text, active bool);
CREATE UNIQUE INDEX e_email ON e (lower(email));
CREATE UNIQUE INDEX e_active ON e (id) WHERE active;
INSERT INTO e VALUES (1, 'A@example.com', true), (1, 'b@example.com', false);
INSERT INTO e VALUES (2, 'a@EXAMPLE.com', true);
INSERT INTO e VALUES (1, 'c@example.com', true);
INSERT INTO e VALUES (1, 'c@example.com', false);
UPDATE e SET active = true WHERE email = 'b@example.com';
UPDATE e SET email = 'B@example.com' WHERE email = 'b@example.com';
SELECT id, email, active FROM e ORDER BY email;
CREATE TABLE e2 (v text);
INSERT INTO e2 VALUES ('x'), ('X');
CREATE UNIQUE INDEX e2_upper ON e2 (upper(v));
CREATE UNIQUE INDEX e2_v ON e2 (v);
CREATE TABLE e3 (a int);
INSERT INTO e3 VALUES (1), (0);
CREATE INDEX e3_div ON e3 ((10 / a));
SELECT count(*) FROM pg_class WHERE relname = 'e3_div';

-- CREATE UNIQUE INDEX and ALTER TABLE ADD PRIMARY KEY on duplicates and NULLs
CREATE TABLE d (a int, b text);
INSERT INTO d VALUES (1, 'x'), (1, 'y'), (2, NULL);
ALTER TABLE d ADD PRIMARY KEY (a);
CREATE UNIQUE INDEX d_ab ON d (a, b);
CREATE UNIQUE INDEX d_b ON d (b);
DELETE FROM d WHERE b = 'y';
ALTER TABLE d ADD PRIMARY KEY (b);
ALTER TABLE d ADD PRIMARY KEY (a);
INSERT INTO d VALUES (2, 'z');
SELECT count(*) FROM pg_class WHERE relname LIKE 'd\_%';

-- transactions: a rolled back row holds no key; the own rows do
CREATE TABLE x (a int PRIMARY KEY);
BEGIN;
INSERT INTO x VALUES (1);
INSERT INTO x VALUES (1);
ROLLBACK;
INSERT INTO x VALUES (1);
BEGIN;
DELETE FROM x WHERE a = 1;
INSERT INTO x VALUES (1);
INSERT INTO x VALUES (1);
COMMIT;
SELECT * FROM x;
BEGIN;
INSERT INTO x VALUES (2);
UPDATE x SET a = 3 WHERE a = 2;
INSERT INTO x VALUES (2);
INSERT INTO x VALUES (3);
COMMIT;
SELECT * FROM x ORDER BY a;

-- TRUNCATE gives every index a new empty file
TRUNCATE x;
INSERT INTO x VALUES (1), (2);
INSERT INTO x VALUES (2);
SELECT * FROM x ORDER BY a;
REINDEX TABLE x;
INSERT INTO x VALUES (1);
INSERT INTO x VALUES (3);
SELECT * FROM x ORDER BY a;

-- VACUUM: a deleted row's entry goes before its slot is reused by a row
-- with another key, so the old key is free again
CREATE TABLE v (a int PRIMARY KEY, b int);
INSERT INTO v VALUES (1, 10), (2, 20);
DELETE FROM v WHERE a = 1;
VACUUM v;
INSERT INTO v VALUES (3, 30);
INSERT INTO v VALUES (1, 11);
INSERT INTO v VALUES (3, 0);
SELECT * FROM v ORDER BY a;

-- an index key too large for a page (incompressible: PostgreSQL would
-- compress a compressible one)
CREATE TABLE big (t text);
CREATE INDEX big_t ON big (t);
INSERT INTO big SELECT string_agg(md5(g::text), '') FROM generate_series(1, 90) g;
SELECT count(*) FROM big;
DROP INDEX big_t;
INSERT INTO big SELECT string_agg(md5(g::text), '') FROM generate_series(1, 90) g;
CREATE INDEX big_t ON big (t);
SELECT count(*) FROM pg_class WHERE relname = 'big_t';

DROP TABLE t, c, m, s, n, n2, e, e2, e3, d, x, v, big;
-- an index's size is its B-tree's pages (the metapage at least), recorded
-- at commit like a table's: PostgreSQL's sizes, as the pages are its
CREATE TABLE isz (a int PRIMARY KEY, b text);
SELECT pg_relation_size('isz_pkey') AS empty_index;
INSERT INTO isz SELECT g, 'v' || g FROM generate_series(1, 1000) g;
CREATE INDEX isz_b ON isz (b);
SELECT pg_relation_size('isz_pkey') AS pkey, pg_relation_size('isz_b') AS b_idx,
       pg_indexes_size('isz') AS indexes,
       pg_total_relation_size('isz') - pg_table_size('isz') AS total_minus_table;
TRUNCATE isz;
SELECT pg_relation_size('isz_pkey') AS after_truncate;
DROP TABLE isz;
